/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_listen.c -- the listen sockets (-a).  The manager binds them, so
 * they stay open across child restarts (connections queue in the kernel
 * while a new child starts) and privileged ports work with the child
 * unprivileged.  Owns the sockets' fds in the manager.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <grp.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/addr.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "mgt/mgt.h"
#include "mgt/mgt_cli.h"

struct listen_arg {
	char		name[16];
	char		arg[128];
	char		endpoint[128];	/* arg without name= and ,options */
	char		host[256];
	char		port[16];
	/* A Unix domain socket: its path, and what to make of the file. */
	char		path[108];
	long		mode;		/* -1: as created */
	uid_t		uid;		/* (uid_t)-1: unchanged */
	gid_t		gid;		/* (gid_t)-1: unchanged */
	unsigned	proxy;		/* ,PROXY */
};

static struct listen_arg *mgt_largs;
static unsigned mgt_nlargs;

/* A Unix socket's mode=: octal permissions, 1 to 0777. */
static void
mgt_listen_mode(struct listen_arg *la, const char *arg, const char *v,
    unsigned seen)
{
	char *e;
	long m;

	if (seen > 0)
		MGT_Usage("-a %s: Too many mode sub-args", arg);
	if (*v == '\0')
		MGT_Usage("-a %s: Empty mode sub-arg", arg);
	errno = 0;
	m = strtol(v, &e, 8);
	if (*e != '\0')
		MGT_Usage("-a %s: Invalid mode sub-arg %s (octal, as 0660)",
		    arg, v);
	if (errno == ERANGE)
		MGT_Usage("-a %s: Cannot parse mode sub-arg %s", arg, v);
	if (m <= 0 || m > 0777)
		MGT_Usage("-a %s: Mode sub-arg %s out of range (1 to 0777)",
		    arg, v);
	la->mode = m;
}

/* [name=][host][:port][,PROTO], or [name=]/path[,PROTO][,user=][,group=][,mode=] */
void
MGT_ListenArg(const char *arg)
{
	struct listen_arg *la;
	char buf[512], *a, *p;
	const char *why;
	unsigned nproto = 0, nmode = 0, nuser = 0, ngroup = 0;

	if (strlen(arg) >= sizeof buf)
		MGT_Usage("-a %s: too long", arg);
	(void)snprintf(buf, sizeof buf, "%s", arg);
	mgt_largs = realloc(mgt_largs, (mgt_nlargs + 1) * sizeof *mgt_largs);
	assert(mgt_largs != NULL);
	la = &mgt_largs[mgt_nlargs];
	memset(la, 0, sizeof *la);
	(void)snprintf(la->arg, sizeof la->arg, "%s", arg);
	(void)snprintf(la->name, sizeof la->name, "a%u", mgt_nlargs);
	mgt_nlargs++;
	a = buf;
	p = strchr(a, '=');
	if (p != NULL && strcspn(a, "[:,") > (size_t)(p - a)) {
		*p = '\0';
		if (*a == '\0' || strlen(a) >= sizeof la->name)
			MGT_Usage("-a %s: bad name", arg);
		(void)snprintf(la->name, sizeof la->name, "%s", a);
		a = p + 1;
	}
	la->mode = -1;
	la->uid = (uid_t)-1;
	la->gid = (gid_t)-1;
	p = strchr(a, ',');
	if (p != NULL)
		*p++ = '\0';
	(void)snprintf(la->endpoint, sizeof la->endpoint, "%s", a);
	if (*a != '/' && *a != '@' && *a != '[' && strchr(a, '/') != NULL)
		MGT_Usage("-a %s: Unix domain socket addresses must be absolute "
		    "paths", arg);
	/* varnishd's words first (scripts and its tests match them). */
	while (p != NULL) {
		char *opt = p, *eq;

		p = strchr(p, ',');
		if (p != NULL)
			*p++ = '\0';
		eq = strchr(opt, '=');
		if (eq == NULL) {
			if (nproto++ > 0)
				MGT_Usage("-a %s: Too many protocol sub-args "
				    "(one of HTTP or PROXY)", arg);
			if (!strcasecmp(opt, "HTTP"))
				la->proxy = 0;
			else if (!strcasecmp(opt, "PROXY"))
				la->proxy = 1;
			else
				MGT_Usage("-a %s: Unknown protocol '%s' (HTTP "
				    "or PROXY; for several addresses give -a "
				    "once for each)", arg, opt);
			continue;
		}
		*eq++ = '\0';
		if (strcmp(opt, "mode") && strcmp(opt, "user") &&
		    strcmp(opt, "group"))
			MGT_Usage("-a %s: Invalid sub-arg %s=%s (user=, group= "
			    "and mode= are a Unix socket's)", arg, opt, eq);
		if (*a != '/')
			MGT_Usage("-a %s: Invalid sub-arg %s=%s for IP "
			    "addresses (it is for a Unix socket, -a /path)",
			    arg, opt, eq);
		if (!strcmp(opt, "mode"))
			mgt_listen_mode(la, arg, eq, nmode++);
		else if (!strcmp(opt, "user")) {
			struct passwd *pw;

			if (nuser++ > 0)
				MGT_Usage("-a %s: Too many user sub-args", arg);
			pw = getpwnam(eq);
			if (pw == NULL)
				MGT_Usage("-a %s: Unknown user %s", arg, eq);
			la->uid = pw->pw_uid;
		} else {
			struct group *gr;

			if (ngroup++ > 0)
				MGT_Usage("-a %s: Too many group sub-args",
				    arg);
			gr = getgrnam(eq);
			if (gr == NULL)
				MGT_Usage("-a %s: Unknown group %s", arg, eq);
			la->gid = gr->gr_gid;
		}
	}
	if (*a == '@')
		MGT_Usage("-a %s: abstract sockets are not supported; give "
		    "a path", arg);
	if (*a == '/') {
		if (strlen(a) >= sizeof la->path)
			MGT_Usage("-a %s: Got no socket(s) for %s: the path is "
			    "longer than a Unix socket's %zu bytes", arg, a,
			    sizeof la->path - 1);
		(void)snprintf(la->path, sizeof la->path, "%s", a);
		return;
	}
	if (ADDR_Split(a, 0, la->host, sizeof la->host, la->port,
	    sizeof la->port, &why) != 0)
		MGT_Usage("-a %s: %s", arg, why);
	if (la->port[0] == '\0')
		(void)snprintf(la->port, sizeof la->port, "80");
}

static int
mgt_bind_one(const struct addrinfo *ai, char *err, size_t errlen)
{
	int fd, one = 1, fl;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
	    ai->ai_protocol);
	if (fd < 0) {
		(void)snprintf(err, errlen, "socket: %s", strerror(errno));
		return (-1);
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	/* Accepted sockets inherit it: responses leave at once. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (ai->ai_family == AF_INET6)
		(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
		    sizeof one);
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
	    listen(fd, (int)cache_param->listen_depth) != 0) {
		(void)snprintf(err, errlen, "%s", strerror(errno));
		(void)close(fd);
		return (-1);
	}
	fl = fcntl(fd, F_GETFL);
	assert(fl >= 0);
	ASSERT_ZERO(fcntl(fd, F_SETFL, fl | O_NONBLOCK));
	return (fd);
}

/*
 * A Unix domain socket at la->path.  A socket file left there by an
 * earlier run is replaced; one something still listens on (another
 * veneerd, or this one's other -a) is refused, never taken over; anything
 * else at the path is not touched.
 */
static int
mgt_bind_unix(const struct listen_arg *la, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	struct stat st;
	int fd, fl, live;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	(void)snprintf(sun.sun_path, sizeof sun.sun_path, "%s", la->path);
	if (lstat(la->path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			(void)snprintf(err, errlen, "%s exists and is not a "
			    "socket", la->path);
			return (-1);
		}
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		live = fd >= 0 &&
		    connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0;
		if (fd >= 0)
			(void)close(fd);
		if (live) {
			(void)snprintf(err, errlen, "already in use (a "
			    "server listens on it; two -a with one path?)");
			return (-1);
		}
		(void)unlink(la->path);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		(void)snprintf(err, errlen, "socket: %s", strerror(errno));
		return (-1);
	}
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    (la->mode >= 0 && chmod(la->path, (mode_t)la->mode) != 0) ||
	    ((la->uid != (uid_t)-1 || la->gid != (gid_t)-1) &&
	    chown(la->path, la->uid, la->gid) != 0) ||
	    listen(fd, (int)cache_param->listen_depth) != 0) {
		(void)snprintf(err, errlen, "%s: %s", la->path,
		    strerror(errno));
		(void)close(fd);
		return (-1);
	}
	fl = fcntl(fd, F_GETFL);
	assert(fl >= 0);
	ASSERT_ZERO(fcntl(fd, F_SETFL, fl | O_NONBLOCK));
	return (fd);
}

static void
mgt_listen_add(struct child_args *ca, const struct listen_arg *la, int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	struct listen_sock *ls;

	ca->socks = realloc(ca->socks, (ca->nsocks + 1) * sizeof *ca->socks);
	assert(ca->socks != NULL);
	ls = &ca->socks[ca->nsocks++];
	INIT_OBJ(ls, LISTEN_SOCK_MAGIC);
	ls->fd = fd;
	ls->proxy = la->proxy;
	(void)snprintf(ls->name, sizeof ls->name, "%s", la->name);
	(void)snprintf(ls->endpoint, sizeof ls->endpoint, "%s",
	    la->endpoint);
	if (la->path[0] != '\0') {
		/* As varnishd says it: the path, and no port. */
		(void)snprintf(ls->addr, sizeof ls->addr, "%s", la->path);
		(void)snprintf(ls->port, sizeof ls->port, "-");
		return;
	}
	ASSERT_ZERO(getsockname(fd, (struct sockaddr *)&ss, &sl));
	ASSERT_ZERO(getnameinfo((struct sockaddr *)&ss, sl, ls->addr,
	    sizeof ls->addr, ls->port, sizeof ls->port,
	    NI_NUMERICHOST | NI_NUMERICSERV));
}

void
MGT_ListenOpen(struct child_args *ca)
{
	struct addrinfo hints, *res, *ai;
	const struct listen_arg *la;
	char err[256];
	unsigned u, n;
	int fd, i;

	if (mgt_nlargs == 0)
		MGT_ListenArg(":80");
	for (u = 0; u < mgt_nlargs; u++) {
		la = &mgt_largs[u];
		if (la->path[0] != '\0') {
			fd = mgt_bind_unix(la, err, sizeof err);
			if (fd < 0)
				MGT_Fatal("Error: Could not get socket %s: "
				    "%s", la->arg, err);
			mgt_listen_add(ca, la, fd);
			continue;
		}
		memset(&hints, 0, sizeof hints);
		hints.ai_flags = AI_PASSIVE;
		hints.ai_socktype = SOCK_STREAM;
		i = getaddrinfo(la->host[0] == '\0' ? NULL : la->host,
		    la->port, &hints, &res);
		if (i != 0)
			MGT_Usage("-a %s: %s", la->arg, gai_strerror(i));
		n = 0;
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			fd = mgt_bind_one(ai, err, sizeof err);
			if (fd < 0) {
				/* A wildcard without IPv6 is fine. */
				if (la->host[0] == '\0' &&
				    ai->ai_family == AF_INET6)
					continue;
				MGT_Fatal("Error: Could not get socket %s: "
				    "%s", la->arg, err);
			}
			mgt_listen_add(ca, la, fd);
			n++;
		}
		freeaddrinfo(res);
		if (n == 0)
			MGT_Fatal("cannot listen on -a %s: no address",
			    la->arg);
	}
}

static const struct child_args *mgt_listen_ca;

void
MGT_ListenReport(const struct child_args *ca)
{
	char path[1024], tmp[1100];
	const struct listen_sock *ls;
	unsigned u;
	FILE *f;

	mgt_listen_ca = ca;
	(void)snprintf(path, sizeof path, "%s/_.listen", ca->workdir);
	(void)snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (f == NULL)
		MGT_Fatal("cannot write %s: %s", tmp, strerror(errno));
	for (u = 0; u < ca->nsocks; u++) {
		ls = &ca->socks[u];
		fprintf(f, "%s %s %s\n", ls->name, ls->addr, ls->port);
		if (mgt_foreground)
			printf("Listen %s %s %s\n", ls->name, ls->addr,
			    ls->port);
	}
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		MGT_Fatal("cannot write %s: %s", path, strerror(errno));
	(void)fflush(stdout);
}

void
MGT_ListenDescribe(struct mcli_buf *b)
{
	const struct listen_sock *ls;
	unsigned u;

	if (mgt_listen_ca == NULL)
		return;
	for (u = 0; u < mgt_listen_ca->nsocks; u++) {
		ls = &mgt_listen_ca->socks[u];
		MCLI_BufPrintf(b, "%s %s %s\n", ls->name, ls->addr, ls->port);
	}
}

void
MGT_ListenClose(struct child_args *ca)
{
	char path[1024];
	unsigned u;

	for (u = 0; u < ca->nsocks; u++) {
		if (ca->socks[u].fd >= 0)
			(void)close(ca->socks[u].fd);
		ca->socks[u].fd = -1;
		if (ca->socks[u].addr[0] == '/')
			(void)unlink(ca->socks[u].addr);
	}
	(void)snprintf(path, sizeof path, "%s/_.listen", ca->workdir);
	(void)unlink(path);
}

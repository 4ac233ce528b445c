/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_workdir.c -- the working directory (-n), the pid file (-P), the
 * child's user (-j) and the backend address (-b).
 */

#include "config.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bsd/libutil.h>

#include "common/addr.h"
#include "common/miniobj.h"
#include "mgt/mgt.h"

static struct pidfh *mgt_pfh;

/* mkdir -p */
static int
mgt_mkdirs(char *path)
{
	char *p;

	for (p = path + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			*p = '/';
			return (-1);
		}
		*p = '/';
	}
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return (-1);
	return (0);
}

char *
MGT_Workdir(const char *arg)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (arg == NULL || *arg == '\0')
		arg = "default";
	if (strchr(arg, '/') == NULL)
		(void)snprintf(path, sizeof path, "%s/%s", VENEER_STATE_DIR,
		    arg);
	else
		(void)snprintf(path, sizeof path, "%s", arg);
	if (mgt_mkdirs(path) != 0)
		MGT_Fatal("cannot create the working directory %s: %s; "
		    "choose another with -n", path, strerror(errno));
	if (realpath(path, real) == NULL)
		MGT_Fatal("cannot resolve the working directory %s: %s",
		    path, strerror(errno));
	if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
		MGT_Fatal("the working directory %s is not a directory", real);
	if (access(real, W_OK | X_OK) != 0)
		MGT_Fatal("cannot write in the working directory %s: %s; "
		    "choose another with -n", real, strerror(errno));
	return (strdup(real));
}

void
MGT_PidfileOpen(const char *arg)
{
	char path[2 * PATH_MAX + 2], cwd[PATH_MAX];
	pid_t other = 0;

	/* daemon() changes to /: keep a relative path meaning what it did. */
	if (*arg != '/' && getcwd(cwd, sizeof cwd) != NULL)
		(void)snprintf(path, sizeof path, "%s/%s", cwd, arg);
	else
		(void)snprintf(path, sizeof path, "%s", arg);
	mgt_pfh = pidfile_open(path, 0644, &other);
	if (mgt_pfh != NULL)
		return;
	if (errno == EEXIST)
		MGT_Fatal("another veneerd (pid %ld) is running with the pid "
		    "file %s", (long)other, path);
	MGT_Fatal("cannot open the pid file %s: %s", path, strerror(errno));
}

void
MGT_PidfileWrite(void)
{

	if (mgt_pfh != NULL && pidfile_write(mgt_pfh) != 0)
		MGT_Fatal("cannot write the pid file: %s", strerror(errno));
}

void
MGT_PidfileClose(void)
{

	/* In the child: let go of the fd, the manager keeps the lock. */
	if (mgt_pfh != NULL)
		(void)close(pidfile_fileno(mgt_pfh));
}

void
MGT_PidfileRemove(void)
{

	if (mgt_pfh != NULL)
		(void)pidfile_remove(mgt_pfh);
	mgt_pfh = NULL;
}

static void
mgt_jail_user(const char *user, struct child_args *ca, int must_exist)
{
	struct passwd *pw;

	pw = getpwnam(user);
	if (pw == NULL) {
		if (must_exist)
			MGT_Usage("-j: no such user \"%s\"", user);
		return;
	}
	ca->uid = pw->pw_uid;
	ca->gid = pw->pw_gid;
	ca->drop_privs = 1;
}

void
MGT_Jail(const char *arg, struct child_args *ca)
{
	char *copy, *p, *q;
	const char *user = NULL;

	if (arg == NULL) {
		/* Default: as root, never run the child as root. */
		if (geteuid() != 0)
			return;
		mgt_jail_user("veneer", ca, 0);
		if (!ca->drop_privs)
			mgt_jail_user("nobody", ca, 1);
		return;
	}
	if (!strcmp(arg, "none"))
		return;
	copy = strdup(arg);
	assert(copy != NULL);
	p = strchr(copy, ',');
	if (p != NULL)
		*p++ = '\0';
	if (strcmp(copy, "unix"))
		MGT_Usage("-j: unknown jail \"%s\" (use unix or none)", copy);
	for (; p != NULL && *p != '\0'; p = q) {
		q = strchr(p, ',');
		if (q != NULL)
			*q++ = '\0';
		if (!strncmp(p, "user=", 5))
			user = p + 5;
		else if (strncmp(p, "ccgroup=", 8) &&
		    strncmp(p, "workuser=", 9))
			MGT_Usage("-j unix: unknown argument \"%s\"", p);
	}
	if (geteuid() != 0)
		MGT_Usage("-j unix needs root; start as root or use -j none");
	if (user == NULL)
		user = "veneer";
	mgt_jail_user(user, ca, 1);
	free(copy);
}

/* host:port, [v6]:port, host (port 80). */
void
MGT_BackendArg(const char *arg, struct backend_arg *ba)
{
	char host[256], pbuf[16];
	const char *port, *why;

	memset(ba, 0, sizeof *ba);
	if (*arg == '/')
		MGT_Usage("-b %s: Unix domain socket backends are not "
		    "supported yet", arg);
	if (ADDR_Split(arg, 0, host, sizeof host, pbuf, sizeof pbuf,
	    &why) != 0)
		MGT_Usage("-b %s: %s", arg, why);
	if (*host == '\0')
		MGT_Usage("-b %s: expected host:port", arg);
	port = *pbuf != '\0' ? pbuf : "80";
	(void)snprintf(ba->host, sizeof ba->host, "%s", host);
	(void)snprintf(ba->port, sizeof ba->port, "%s", port);
	/* The port unless it is http's default; IPv6 in brackets. */
	(void)snprintf(ba->hosthdr, sizeof ba->hosthdr, "%s%s%s%s%s",
	    strchr(host, ':') != NULL ? "[" : "", host,
	    strchr(host, ':') != NULL ? "]" : "",
	    strcmp(port, "80") ? ":" : "", strcmp(port, "80") ? port : "");
}

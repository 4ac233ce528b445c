/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_cli.c -- the admin CLI: the -T sockets, the -S secret and its
 * challenge/response, the command table, and the sessions, each a pair
 * of watchers on the manager's loop with buffered input and output, so
 * a slow or hostile client never blocks the loop that supervises the
 * child.  The wire protocol is Varnish's (varnish-cli(7)): a request is
 * a line (or a line ending in "<< TOKEN" and the lines up to TOKEN);
 * an answer is "SSS LLLLLLLL\n", the body, "\n".  Owns everything here
 * (manager thread only).
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bsd/stdlib.h>
#include <ev.h>

#include "common/addr.h"
#include "common/cli.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "common/sha256.h"
#include "common/tim.h"
#include "mgt/mgt.h"
#include "mgt/mgt_cli.h"

#define MCLI_MAX_T		8
#define MCLI_MAX_SESS		64
#define MCLI_LINE_MAX		(64 * 1024)	/* a request line */
#define MCLI_HEREDOC_MAX	(16 * 1024 * 1024) /* a << document */
#define MCLI_OUT_MAX		(64 * 1024 * 1024) /* unread answers */

static const char *mcli_t_args[MCLI_MAX_T];
static unsigned mcli_n_t;
static const char *mcli_s_arg;
static const char *mcli_m_arg;		/* -M: connect out to this */
static unsigned mcli_debug;		/* -d: a session on stdin/stdout */
static char *mcli_secret_path;		/* NULL: no authentication */

struct mcli_sock {
	int		fd;
	char		addr[64];
	char		port[8];
	ev_io		w;
};
static struct mcli_sock mcli_socks[16];
static unsigned mcli_nsocks;

/*--------------------------------------------------------------------
 * Growing buffers
 */

void
MCLI_BufPrintf(struct mcli_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t need;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	assert(n >= 0);
	need = b->len + (size_t)n + 1;
	if (need > b->size) {
		b->size = need < 256 ? 256 : need * 2;
		b->p = realloc(b->p, b->size);
		assert(b->p != NULL);
	}
	va_start(ap, fmt);
	(void)vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
MCLI_BufAdd(struct mcli_buf *b, const char *p, size_t len)
{

	if (b->len + len + 1 > b->size) {
		b->size = (b->len + len + 1) * 2;
		b->p = realloc(b->p, b->size);
		assert(b->p != NULL);
	}
	memcpy(b->p + b->len, p, len);
	b->len += len;
	b->p[b->len] = '\0';
}

static void
mcli_buf_free(struct mcli_buf *b)
{

	free(b->p);
	memset(b, 0, sizeof *b);
}

/* A JSON string literal of s. */
void
MCLI_JsonStr(struct mcli_buf *b, const char *s)
{
	const unsigned char *p;

	MCLI_BufAdd(b, "\"", 1);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			MCLI_BufPrintf(b, "\\%c", *p);
		else if (*p == '\n')
			MCLI_BufAdd(b, "\\n", 2);
		else if (*p == '\t')
			MCLI_BufAdd(b, "\\t", 2);
		else if (*p < 0x20 || *p == 0x7f)
			MCLI_BufPrintf(b, "\\u%04x", *p);
		else
			MCLI_BufAdd(b, (const char *)p, 1);
	}
	MCLI_BufAdd(b, "\"", 1);
}

/* The head of a -j answer: [ 2, ["cmd", "arg"...], time, */
void
MCLI_JsonHead(struct mcli_buf *b, char * const *av)
{
	unsigned u;

	MCLI_BufPrintf(b, "[ 2, [");
	for (u = 0; av[u] != NULL; u++) {
		if (u > 0)
			MCLI_BufAdd(b, ", ", 2);
		MCLI_JsonStr(b, av[u]);
	}
	MCLI_BufPrintf(b, "], %.3f", TIM_real());
}

static void mcli_sess_new2(int fd, int wfd);
#define mcli_sess_new(fd)	mcli_sess_new2((fd), (fd))

/*--------------------------------------------------------------------
 * Options and the secret
 */

void
MGT_CliArgT(const char *arg)
{

	if (mcli_n_t == MCLI_MAX_T)
		MGT_Usage("-T %s: at most %d -T options", arg, MCLI_MAX_T);
	mcli_t_args[mcli_n_t++] = arg;
}

void
MGT_CliArgS(const char *arg)
{

	mcli_s_arg = arg;
}

void
MGT_CliArgM(const char *arg)
{

	mcli_m_arg = arg;
}

/*
 * -M "address port" (or address:port): connect to a waiting CLI client
 * (varnishtest does this) and serve it as any session: the challenge
 * first.  A failure is logged; veneerd serves on without it.
 */
static void
mcli_connect_out(const char *arg)
{
	const char *why;
	int fd;

	fd = ADDR_Connect(arg, ADDR_F_SPACE, &why);
	if (fd < 0) {
		MGT_Log(LOG_ERR, "-M %s: %s: %s", arg, why, strerror(errno));
		return;
	}
	(void)fcntl(fd, F_SETFL, O_NONBLOCK);
	mcli_sess_new(fd);
}

/* The secret file's contents (malloc'ed, *lenp), or NULL with errno. */
static char *
mcli_read_secret(size_t *lenp)
{
	char *buf = NULL, *nb;
	size_t len = 0, sz = 0;
	ssize_t n;
	int fd, e;

	fd = open(mcli_secret_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return (NULL);
	for (;;) {
		if (len + 4096 > sz) {
			sz = sz == 0 ? 8192 : sz * 2;
			if (sz > 1024 * 1024) {
				e = EFBIG;
				break;
			}
			nb = realloc(buf, sz);
			assert(nb != NULL);
			buf = nb;
		}
		n = read(fd, buf + len, sz - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : 0;
			break;
		}
		len += (size_t)n;
	}
	(void)close(fd);
	if (e != 0) {
		free(buf);
		errno = e;
		return (NULL);
	}
	*lenp = len;
	return (buf);
}

/* -S absent: a fresh random secret in the workdir, for its owner only. */
static void
mcli_make_secret(const char *workdir)
{
	unsigned char rnd[32];
	char path[1024], hex[65];
	unsigned u;
	int fd;

	(void)snprintf(path, sizeof path, "%s/_.secret", workdir);
	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		MGT_Fatal("cannot create the CLI secret %s: %s", path,
		    strerror(errno));
	arc4random_buf(rnd, sizeof rnd);
	for (u = 0; u < sizeof rnd; u++)
		(void)snprintf(hex + 2 * u, 3, "%02x", rnd[u]);
	if (write(fd, hex, 64) != 64 || write(fd, "\n", 1) != 1 ||
	    close(fd) != 0)
		MGT_Fatal("cannot write the CLI secret %s: %s", path,
		    strerror(errno));
	mcli_secret_path = strdup(path);
	assert(mcli_secret_path != NULL);
}

/*--------------------------------------------------------------------
 * The sockets
 */

static void
mcli_bind(const char *arg)
{
	struct addrinfo hints, *res, *ai;
	char host[256], port[64];
	struct mcli_sock *ms;
	struct sockaddr_storage ss;
	const char *why;
	socklen_t sl;
	int fd, one = 1, e, n = 0;

	if (ADDR_Split(arg, ADDR_F_NEEDPORT, host, sizeof host, port,
	    sizeof port, &why) != 0)
		MGT_Usage("-T %s: %s (port 0 picks a free one)", arg, why);
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	e = getaddrinfo(host[0] == '\0' ? NULL : host, port, &hints, &res);
	if (e != 0)
		MGT_Usage("-T %s: %s", arg, gai_strerror(e));
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (mcli_nsocks == sizeof mcli_socks / sizeof mcli_socks[0])
			break;
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, ai->ai_protocol);
		if (fd < 0)
			continue;
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof one);
		if (ai->ai_family == AF_INET6)
			(void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
			    sizeof one);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
		    listen(fd, 16) != 0) {
			e = errno;
			(void)close(fd);
			freeaddrinfo(res);
			MGT_Fatal("-T %s: cannot listen: %s", arg,
			    strerror(e));
		}
		ms = &mcli_socks[mcli_nsocks++];
		ms->fd = fd;
		sl = sizeof ss;
		ASSERT_ZERO(getsockname(fd, (struct sockaddr *)&ss, &sl));
		ASSERT_ZERO(getnameinfo((struct sockaddr *)&ss, sl, ms->addr,
		    sizeof ms->addr, ms->port, sizeof ms->port,
		    NI_NUMERICHOST | NI_NUMERICSERV));
		n++;
	}
	freeaddrinfo(res);
	if (n == 0)
		MGT_Fatal("-T %s: no address to listen on", arg);
}

void
MGT_CliOpen(const char *workdir)
{
	unsigned u;
	size_t len;
	char *s;

	if (mcli_s_arg != NULL && !strcmp(mcli_s_arg, "none")) {
		mcli_secret_path = NULL;
	} else if (mcli_s_arg != NULL) {
		mcli_secret_path = realpath(mcli_s_arg, NULL);
		if (mcli_secret_path == NULL)
			MGT_Usage("-S %s: %s", mcli_s_arg, strerror(errno));
		s = mcli_read_secret(&len);
		if (s == NULL)
			MGT_Usage("-S %s: cannot read it: %s", mcli_s_arg,
			    strerror(errno));
		free(s);
	} else {
		mcli_make_secret(workdir);
	}
	if (mcli_n_t == 1 && !strcmp(mcli_t_args[0], "none"))
		return;
	if (mcli_n_t == 0)
		mcli_bind("localhost:0");
	for (u = 0; u < mcli_n_t; u++) {
		if (!strcmp(mcli_t_args[u], "none"))
			MGT_Usage("-T none cannot be combined with other -T");
		mcli_bind(mcli_t_args[u]);
	}
}

/*--------------------------------------------------------------------
 * Sessions
 */

struct mcli_sess {
	unsigned		magic;
#define MCLI_SESS_MAGIC		0x6c1e0a47
	int			fd;
	int			wfd;		/* fd, but stdout for -d */
	unsigned		is_stdin;	/* -d: its end ends veneerd */
	ev_io			rw;
	ev_io			ww;
	struct mcli_buf		in;
	struct mcli_buf		out;
	size_t			out_done;
	char			challenge[33];
	unsigned		authed;
	unsigned		closing;	/* after the output drains */
	/* A << document being read: the request line and the token. */
	char			*hd_line;
	char			*hd_token;
	struct mcli_buf		hd_body;
	struct mcli_sess	*next;
};

static struct mcli_sess *mcli_sessions;
static unsigned mcli_nsess;

static void mcli_sess_close(struct mcli_sess *ms);

/* Queue an answer. */
static void
mcli_answer(struct mcli_sess *ms, unsigned status, const char *body,
    size_t len)
{

	assert(status >= 100 && status <= 999);
	if (len > 99999999)
		len = 99999999;
	MCLI_BufPrintf(&ms->out, "%-3u %-8zu\n", status, len);
	MCLI_BufAdd(&ms->out, body, len);
	MCLI_BufAdd(&ms->out, "\n", 1);
	if (ms->out.len - ms->out_done > MCLI_OUT_MAX) {
		/* It does not read what it asks for. */
		ms->closing = 1;
		ms->out.len = ms->out_done;
	}
	ev_io_start(EV_DEFAULT_UC, &ms->ww);
}

static void
mcli_challenge(struct mcli_sess *ms)
{
	char body[128];
	unsigned u;
	int n;

	for (u = 0; u < 32; u++)
		ms->challenge[u] = (char)('a' + arc4random_uniform(26));
	ms->challenge[32] = '\0';
	n = snprintf(body, sizeof body, "%s\n\nAuthentication required.\n",
	    ms->challenge);
	mcli_answer(ms, CLIS_AUTH, body, (size_t)n);
}

void
MCLI_Banner(struct mcli_buf *b)
{
	struct utsname u;

	if (uname(&u) != 0)
		memset(&u, 0, sizeof u);
	MCLI_BufPrintf(b, "-----------------------------\n"
	    "Veneer CLI 1.0\n"
	    "-----------------------------\n"
	    "%s,%s,%s,-j%s,-smalloc\n"
	    "veneer-%s\n"
	    "\n"
	    "Type 'help' for command list.\n"
	    "Type 'quit' to close CLI session.\n",
	    u.sysname, u.release, u.machine,
	    MGT_Jailed() ? "unix" : "none", PACKAGE_VERSION);
}

/* Compare without an early exit: the time tells nothing. */
static int
mcli_same(const char *a, const char *b, size_t len)
{
	unsigned char d = 0;
	size_t u;

	for (u = 0; u < len; u++)
		d |= (unsigned char)(a[u] ^ b[u]);
	return (d == 0);
}

/* Does the answer to the challenge match the secret's? */
static int
mcli_auth_ok(const struct mcli_sess *ms, const char *resp)
{
	struct sha256_ctx ctx;
	unsigned char d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	size_t len;
	char *s;
	int ok;

	s = mcli_read_secret(&len);
	if (s == NULL) {
		MGT_Log(LOG_ERR, "CLI: cannot read the secret %s: %s",
		    mcli_secret_path, strerror(errno));
		return (0);
	}
	SHA256_Init(&ctx);
	SHA256_Update(&ctx, ms->challenge, 32);
	SHA256_Update(&ctx, "\n", 1);
	SHA256_Update(&ctx, s, len);
	SHA256_Update(&ctx, ms->challenge, 32);
	SHA256_Update(&ctx, "\n", 1);
	SHA256_Final(&ctx, d);
	explicit_bzero(s, len);
	free(s);
	SHA256_Hex(d, hex);
	ok = strlen(resp) == 2 * SHA256_LEN &&
	    mcli_same(hex, resp, 2 * SHA256_LEN);
	return (ok);
}

/* One complete request: its words (the << document already last). */
static void
mcli_request(struct mcli_sess *ms, char **av)
{
	const struct mcli_cmd *cmd;
	struct mcli_req r;
	int ac;

	for (ac = 0; av[ac] != NULL; ac++)
		continue;
	if (ac == 0)
		return;		/* an empty line has no answer */
	/*
	 * "-cmd": in varnishd's scripts (-I), a command whose failure does
	 * not stop the script; on a session it is just the command.
	 */
	if (av[0][0] == '-' && av[0][1] != '\0')
		memmove(av[0], av[0] + 1, strlen(av[0]));
	memset(&r, 0, sizeof r);
	r.status = CLIS_OK;
	r.av = av;
	if (!ms->authed && strcmp(av[0], "auth") && strcmp(av[0], "ping") &&
	    strcmp(av[0], "quit")) {
		mcli_challenge(ms);
		return;
	}
	cmd = MCLI_Check(&r, ac, av);
	if (cmd == NULL) {
		mcli_answer(ms, r.status, r.body.p, r.body.len);
		mcli_buf_free(&r.body);
		return;
	}
	if (!strcmp(av[0], "auth")) {
		if (ms->authed || mcli_secret_path == NULL) {
			r.status = CLIS_CANT;
			MCLI_BufPrintf(&r.body, "Already authenticated.\n");
		} else if (!mcli_auth_ok(ms, av[1])) {
			VSC_C_mgt->cli_auth_fail++;
			MGT_Log(LOG_NOTICE, "CLI: authentication failed");
			mcli_answer(ms, CLIS_CLOSE, "", 0);
			ms->closing = 1;
			return;
		} else {
			ms->authed = 1;
			MCLI_Banner(&r.body);
		}
	} else if (!strcmp(av[0], "quit")) {
		mcli_answer(ms, CLIS_CLOSE, "Closing CLI connection", 22);
		ms->closing = 1;
		return;
	} else {
		cmd->func(&r, ac, av);
	}
	/* cli_limit: a longer answer is cut there, and says so (201). */
	if (r.body.len > cache_param->cli_limit) {
		r.body.len = (size_t)cache_param->cli_limit;
		if (r.status == CLIS_OK)
			r.status = CLIS_TRUNCATED;
	}
	mcli_answer(ms, r.status, r.body.p == NULL ? "" : r.body.p,
	    r.body.len);
	mcli_buf_free(&r.body);
}

/* A whole line came in.  0, or -1 when the session must close. */
static int
mcli_line(struct mcli_sess *ms, char *line)
{
	const char *err;
	char **av, *tok;
	size_t l;
	int ac;

	VSC_C_mgt->cli_requests++;
	if (ms->hd_token != NULL) {
		/* Inside a << document. */
		if (strcmp(line, ms->hd_token)) {
			if (ms->hd_body.len + strlen(line) + 1 >
			    MCLI_HEREDOC_MAX) {
				mcli_answer(ms, CLIS_COMMS, "Here document "
				    "too long", 22);
				ms->closing = 1;
				return (-1);
			}
			MCLI_BufAdd(&ms->hd_body, line, strlen(line));
			MCLI_BufAdd(&ms->hd_body, "\n", 1);
			return (0);
		}
		av = CLI_ParseArgs(ms->hd_line, &err);
		assert((av) != NULL);		/* parsed once already */
		for (ac = 0; av[ac] != NULL; ac++)
			continue;
		/* Replace "<<" and the token by the document. */
		free(av[ac - 1]);
		av[ac - 1] = NULL;
		free(av[ac - 2]);
		av[ac - 2] = strdup(ms->hd_body.p == NULL ? "" :
		    ms->hd_body.p);
		assert((av[ac - 2]) != NULL);
		free(ms->hd_line);
		free(ms->hd_token);
		ms->hd_line = ms->hd_token = NULL;
		mcli_buf_free(&ms->hd_body);
		mcli_request(ms, av);
		CLI_FreeArgs(av);
		return (0);
	}
	av = CLI_ParseArgs(line, &err);
	if (av == NULL) {
		mcli_answer(ms, CLIS_SYNTAX, err, strlen(err));
		return (0);
	}
	for (ac = 0; av[ac] != NULL; ac++)
		continue;
	if (ac >= 3 && !strcmp(av[ac - 2], "<<")) {
		tok = av[ac - 1];
		l = strlen(tok);
		if (l == 0 || l > 64) {
			mcli_answer(ms, CLIS_SYNTAX, "A << token is 1 to 64 "
			    "characters", 32);
			CLI_FreeArgs(av);
			return (0);
		}
		ms->hd_line = strdup(line);
		ms->hd_token = strdup(tok);
		assert((ms->hd_line) != NULL);
		assert((ms->hd_token) != NULL);
		CLI_FreeArgs(av);
		return (0);
	}
	mcli_request(ms, av);
	CLI_FreeArgs(av);
	return (0);
}

static void
mcli_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct mcli_sess *ms;
	char *nl, *b;
	ssize_t n;
	size_t used;

	(void)loop;
	(void)revents;
	CAST_OBJ_NOTNULL(ms, w->data, MCLI_SESS_MAGIC);
	if (ms->in.size - ms->in.len < 4096 + 1) {
		ms->in.size = ms->in.size == 0 ? 8192 : ms->in.size * 2;
		ms->in.p = realloc(ms->in.p, ms->in.size);
		assert((ms->in.p) != NULL);
	}
	n = read(ms->fd, ms->in.p + ms->in.len, ms->in.size - ms->in.len - 1);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		mcli_sess_close(ms);
		return;
	}
	ms->in.len += (size_t)n;
	ms->in.p[ms->in.len] = '\0';
	b = ms->in.p;
	while (!ms->closing && (nl = memchr(b, '\n',
	    ms->in.len - (size_t)(b - ms->in.p))) != NULL) {
		*nl = '\0';
		if (nl > b && nl[-1] == '\r')
			nl[-1] = '\0';
		if (memchr(b, '\0', (size_t)(nl - b)) != NULL) {
			mcli_answer(ms, CLIS_SYNTAX, "NUL byte in the "
			    "request", 23);
		} else if (mcli_line(ms, b) != 0) {
			break;
		}
		b = nl + 1;
	}
	used = (size_t)(b - ms->in.p);
	memmove(ms->in.p, b, ms->in.len - used);
	ms->in.len -= used;
	if (ms->in.len > MCLI_LINE_MAX) {
		mcli_answer(ms, CLIS_COMMS, "Request line too long", 21);
		ms->closing = 1;
	}
	if (ms->closing) {
		/* Read no more; close once the answers are out. */
		ev_io_stop(EV_DEFAULT_UC, &ms->rw);
		ev_io_start(EV_DEFAULT_UC, &ms->ww);
	}
}

static void
mcli_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct mcli_sess *ms;
	ssize_t n;

	(void)loop;
	(void)revents;
	CAST_OBJ_NOTNULL(ms, w->data, MCLI_SESS_MAGIC);
	while (ms->out_done < ms->out.len) {
		n = write(ms->wfd, ms->out.p + ms->out_done,
		    ms->out.len - ms->out_done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			mcli_sess_close(ms);
			return;
		}
		ms->out_done += (size_t)n;
	}
	ms->out.len = ms->out_done = 0;
	ev_io_stop(EV_DEFAULT_UC, &ms->ww);
	if (ms->closing)
		mcli_sess_close(ms);
}

static void
mcli_sess_close(struct mcli_sess *ms)
{
	struct mcli_sess **pp;

	int is_stdin = ms->is_stdin;

	ev_io_stop(EV_DEFAULT_UC, &ms->rw);
	ev_io_stop(EV_DEFAULT_UC, &ms->ww);
	if (!is_stdin)
		(void)close(ms->fd);
	for (pp = &mcli_sessions; *pp != NULL && *pp != ms;
	    pp = &(*pp)->next)
		continue;
	assert(*pp == ms);
	*pp = ms->next;
	mcli_nsess--;
	mcli_buf_free(&ms->in);
	mcli_buf_free(&ms->out);
	mcli_buf_free(&ms->hd_body);
	free(ms->hd_line);
	free(ms->hd_token);
	FREE_OBJ(ms);
	if (is_stdin) {
		/* -d: the end of standard input is the end of veneerd. */
		MGT_Log(LOG_NOTICE, "CLI on standard input closed");
		MGT_Stop();
	}
}

/* A new session on fd (wfd for its answers): banner, or challenge. */
static void
mcli_sess_new2(int fd, int wfd)
{
	struct mcli_sess *ms;
	struct mcli_buf b;

	if (mcli_nsess >= MCLI_MAX_SESS) {
		(void)CLI_WriteResult(fd, CLIS_CANT, "Too many CLI sessions");
		(void)close(fd);
		return;
	}
	ALLOC_OBJ(ms, MCLI_SESS_MAGIC);
	assert((ms) != NULL);
	ms->fd = fd;
	ms->wfd = wfd;
	ms->is_stdin = wfd != fd;
	ev_io_init(&ms->rw, mcli_read_cb, fd, EV_READ);
	ev_io_init(&ms->ww, mcli_write_cb, wfd, EV_WRITE);
	ms->rw.data = ms;
	ms->ww.data = ms;
	ms->next = mcli_sessions;
	mcli_sessions = ms;
	mcli_nsess++;
	VSC_C_mgt->cli_sessions++;
	/* Standard input is the operator at the terminal: no challenge. */
	if (mcli_secret_path != NULL && !ms->is_stdin) {
		mcli_challenge(ms);
	} else {
		ms->authed = 1;
		memset(&b, 0, sizeof b);
		MCLI_Banner(&b);
		mcli_answer(ms, CLIS_OK, b.p, b.len);
		mcli_buf_free(&b);
	}
	ev_io_start(EV_DEFAULT_UC, &ms->rw);
}

static void
mcli_accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	int fd;

	(void)loop;
	(void)revents;
	fd = accept4(w->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	mcli_sess_new(fd);
}

/*--------------------------------------------------------------------
 * Start and stop; what varnishadm -n reads
 */

static void
mcli_publish(void)
{
	struct mcli_buf b;
	unsigned u;

	memset(&b, 0, sizeof b);
	for (u = 0; u < mcli_nsocks; u++)
		MCLI_BufPrintf(&b, "%s %s\n", mcli_socks[u].addr,
		    mcli_socks[u].port);
	if (b.p != NULL)
		MGT_VsmArg("-T", b.p);
	if (mcli_secret_path != NULL)
		MGT_VsmArg("-S", mcli_secret_path);
	mcli_buf_free(&b);
}

void
MGT_CliStart(void)
{
	unsigned u;

	for (u = 0; u < mcli_nsocks; u++) {
		ev_io_init(&mcli_socks[u].w, mcli_accept_cb, mcli_socks[u].fd,
		    EV_READ);
		ev_io_start(EV_DEFAULT_UC, &mcli_socks[u].w);
		if (mgt_foreground)
			printf("CLI %s %s\n", mcli_socks[u].addr,
			    mcli_socks[u].port);
	}
	(void)fflush(stdout);
	mcli_publish();
	if (mcli_m_arg != NULL)
		mcli_connect_out(mcli_m_arg);
	if (mcli_debug) {
		(void)fcntl(STDIN_FILENO, F_SETFL, O_NONBLOCK |
		    fcntl(STDIN_FILENO, F_GETFL));
		mcli_sess_new2(STDIN_FILENO, STDOUT_FILENO);
	}
}

void
MGT_CliDebug(void)
{

	mcli_debug = 1;
}

void
MGT_CliClose(void)
{
	unsigned u;

	while (mcli_sessions != NULL)
		mcli_sess_close(mcli_sessions);
	for (u = 0; u < mcli_nsocks; u++) {
		ev_io_stop(EV_DEFAULT_UC, &mcli_socks[u].w);
		(void)close(mcli_socks[u].fd);
	}
	mcli_nsocks = 0;
}

/* The -T addresses, "addr port" a line each, for debug.listen_address. */
void
MCLI_Addresses(struct mcli_buf *b)
{
	unsigned u;

	for (u = 0; u < mcli_nsocks; u++)
		MCLI_BufPrintf(b, "%s %s\n", mcli_socks[u].addr,
		    mcli_socks[u].port);
}

void
MCLI_Table(struct mcli_buf *b, const char *rows, int width)
{
	int w[MCLI_TABLE_COLS], ncol = 0, maxline = 0, col, cell, line, nsp;
	const char *p, *e;

	memset(w, 0, sizeof w);
	/* Widths; a column after the first counts its tab, as varnishd. */
	for (p = rows; *p != '\0'; p = *e == '\n' ? e + 1 : e) {
		e = p + strcspn(p, "\n");
		if (*p == ' ')
			continue;
		col = cell = line = 0;
		for (; p < e; p++, line++) {
			if (*p == '\t') {
				w[col] = cell > w[col] ? cell : w[col];
				col++;
				assert(col < MCLI_TABLE_COLS);
				cell = 1;
			} else
				cell++;
		}
		w[col] = cell > w[col] ? cell : w[col];
		ncol = col + 1 > ncol ? col + 1 : ncol;
		maxline = line > maxline ? line : maxline;
	}
	if (ncol == 0)
		return;
	nsp = (width - maxline) / ncol;
	nsp = nsp < 1 ? 1 : nsp > 3 ? 3 : nsp;
	for (p = rows; *p != '\0'; p = *e == '\n' ? e + 1 : e) {
		e = p + strcspn(p, "\n");
		if (*p == ' ') {
			MCLI_BufAdd(b, p, (size_t)(e - p));
		} else {
			for (col = cell = 0; p < e; p++) {
				if (*p != '\t') {
					MCLI_BufAdd(b, p, 1);
					cell++;
					continue;
				}
				for (; cell < w[col] + nsp; cell++)
					MCLI_BufAdd(b, " ", 1);
				col++;
				cell = 0;
			}
		}
		if (*e == '\n')
			MCLI_BufAdd(b, "\n", 1);
	}
}

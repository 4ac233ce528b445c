/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_interop.c -- issue #4, end to end: Debian's own varnishstat,
 * varnishlog and varnishncsa (Varnish 7.1) read a running veneerd's
 * workdir as they read varnishd's.  Each test sends a known set of
 * requests (answered, failed with a 503, a POST), then runs the tools
 * with -n WORKDIR and checks what they print against what the client
 * saw: counters, transactions and their nesting, NCSA lines, queries,
 * and the same after the child is killed and restarted.
 *
 * The tools come from VENEER_VARNISH_BIN (with VENEER_VARNISH_LIB on
 * LD_LIBRARY_PATH: tools/test.sh unpacks the Debian packages there
 * without installing them) or else from PATH.  Without them, or with
 * another Varnish version, every test says why (HX_Skip) and the
 * program exits 77 so the run counts it as skipped.
 */

#include "config.h"

#include <sys/wait.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"

extern char **environ;

/* What one run of a tool may take; they read a few kB from memory. */
#define IX_T_TOOL	10.0
#define IX_MAXARG	16

/*--------------------------------------------------------------------
 * Finding the tools.  Decided once in main(), before the tests fork.
 */

static char	ix_bin[2048];		/* the tools' directory */
static char	ix_why[4608];		/* why not, or "" */
static char	**ix_envp;		/* environ with LD_LIBRARY_PATH */

static int
ix_skip(void)
{

	if (ix_why[0] == '\0')
		return (0);
	HX_Skip("Debian's varnish tools are not available (%s)", ix_why);
	return (1);
}

/* environ, with VENEER_VARNISH_LIB first on LD_LIBRARY_PATH if set. */
static void
ix_make_env(void)
{
	const char *lib, *old;
	size_t n, u, k;

	lib = getenv("VENEER_VARNISH_LIB");
	old = getenv("LD_LIBRARY_PATH");
	for (n = 0; environ[n] != NULL; n++)
		continue;
	ix_envp = calloc(n + 2, sizeof *ix_envp);
	assert(ix_envp != NULL);
	for (u = k = 0; u < n; u++)
		if (lib == NULL || *lib == '\0' ||
		    strncmp(environ[u], "LD_LIBRARY_PATH=", 16) != 0)
			ix_envp[k++] = environ[u];
	if (lib != NULL && *lib != '\0' &&
	    asprintf(&ix_envp[k++], "LD_LIBRARY_PATH=%s%s%s", lib,
	    old != NULL && *old != '\0' ? ":" : "", old != NULL ? old : "") < 0)
		abort();
}

/* The directory of PATH that holds an executable varnishlog, or 0. */
static int
ix_search_path(void)
{
	const char *p, *e;
	char path[4096];
	size_t len;

	p = getenv("PATH");
	for (; p != NULL && *p != '\0'; p = *e == ':' ? e + 1 : e) {
		e = p + strcspn(p, ":");
		len = (size_t)(e - p);
		if (len == 0 || len >= sizeof ix_bin)
			continue;
		(void)snprintf(path, sizeof path, "%.*s/varnishlog", (int)len,
		    p);
		if (access(path, X_OK) == 0) {
			(void)snprintf(ix_bin, sizeof ix_bin, "%.*s", (int)len,
			    p);
			return (1);
		}
	}
	return (0);
}

/*--------------------------------------------------------------------
 * Running a tool: argv is built before fork (the test has threads, so
 * the child only makes async-signal-safe calls), output comes back
 * through pipes read with a deadline.
 */

struct ix_run {
	int		status;		/* exit; 128 + signal */
	char		*out;		/* stdout, NUL-terminated */
	char		*err;		/* stderr */
	char		cmd[1024];	/* for messages */
};

static void
ix_run_free(struct ix_run *r)
{

	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

static pid_t
ix_spawn(char * const *argv, int outfd, int errfd)
{
	pid_t pid;
	int fd;

	pid = fork();
	if (pid != 0)
		return (pid);
	(void)signal(SIGPIPE, SIG_DFL);
	fd = open("/dev/null", O_RDONLY);
	if (fd > 0) {
		(void)dup2(fd, 0);
		(void)close(fd);
	}
	(void)dup2(outfd, 1);
	(void)dup2(errfd, 2);
	(void)close_range(3, ~0U, 0);
	(void)execve(argv[0], argv, ix_envp);
	(void)write(2, "exec failed\n", 12);
	_exit(127);
}

/* Append what fd has to *buf; 0 at EOF, 1 if more may come. */
static int
ix_drain(int fd, char **buf, size_t *len, size_t *cap)
{
	ssize_t n;

	if (*cap - *len < 4096) {
		*cap = *cap * 2 + 8192;
		*buf = realloc(*buf, *cap);
		assert(*buf != NULL);
	}
	n = read(fd, *buf + *len, *cap - *len - 1);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return (1);
	if (n <= 0)
		return (0);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return (1);
}

/* Read both pipes until EOF; -1 if the deadline passed first. */
static int
ix_collect(int fds[2], struct ix_run *r, double deadline)
{
	struct pollfd pfd[2];
	size_t len[2] = { 0, 0 }, cap[2] = { 0, 0 };
	char *buf[2] = { NULL, NULL };
	int open_n, i;

	for (i = 0; i < 2; i++) {
		cap[i] = 8192;
		buf[i] = malloc(cap[i]);
		assert(buf[i] != NULL);
		buf[i][0] = '\0';
	}
	open_n = 2;
	while (open_n > 0 && HX_Now() < deadline) {
		for (i = 0; i < 2; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLIN;
		}
		if (poll(pfd, 2, HXC_PollMs(deadline)) <= 0)
			continue;
		for (i = 0; i < 2; i++)
			if (fds[i] >= 0 && pfd[i].revents != 0 &&
			    !ix_drain(fds[i], &buf[i], &len[i], &cap[i])) {
				(void)close(fds[i]);
				fds[i] = -1;
				open_n--;
			}
	}
	r->out = buf[0];
	r->err = buf[1];
	return (open_n > 0 ? -1 : 0);
}

/* Run argv; 0, or -1 with r->status -1 if it outlived timeout. */
static int
ix_exec(char * const *argv, struct ix_run *r, double timeout)
{
	int po[2], pe[2], fds[2], st, i, rc;
	double deadline;
	pid_t pid;

	r->cmd[0] = '\0';
	for (i = 0; argv[i] != NULL; i++)
		(void)snprintf(r->cmd + strlen(r->cmd), sizeof r->cmd -
		    strlen(r->cmd), "%s%s", i > 0 ? " " : "", argv[i]);
	if (pipe2(po, O_CLOEXEC) != 0)
		return (-1);
	if (pipe2(pe, O_CLOEXEC) != 0) {
		(void)close(po[0]);
		(void)close(po[1]);
		return (-1);
	}
	pid = ix_spawn(argv, po[1], pe[1]);
	(void)close(po[1]);
	(void)close(pe[1]);
	if (pid < 0) {
		(void)close(po[0]);
		(void)close(pe[0]);
		return (-1);
	}
	deadline = HX_Now() + timeout;
	fds[0] = po[0];
	fds[1] = pe[0];
	rc = ix_collect(fds, r, deadline);
	for (i = 0; i < 2; i++)
		if (fds[i] >= 0)
			(void)close(fds[i]);
	if (rc != 0)
		(void)kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		continue;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (rc != 0)
		r->status = -1;
	return (rc);
}

/* argv for TOOL ARGS...: the tool's full path first. */
static void
ix_argv(char **argv, char *path, size_t pathlen, const char *tool,
    va_list ap)
{
	unsigned n;

	(void)snprintf(path, pathlen, "%s/%s", ix_bin, tool);
	argv[0] = path;
	for (n = 1; n < IX_MAXARG; n++) {
		argv[n] = va_arg(ap, char *);
		if (argv[n] == NULL)
			return;
	}
	ck_abort_msg("%s: more than %d arguments", tool, IX_MAXARG - 1);
}

/* Same, and fail unless it exited 0. */
static void
ix_tool_ok(struct ix_run *r, const char *tool, ...)
{
	char *argv[IX_MAXARG + 1], path[4096];
	va_list ap;

	va_start(ap, tool);
	ix_argv(argv, path, sizeof path, tool, ap);
	va_end(ap);
	argv[IX_MAXARG] = NULL;
	if (ix_exec(argv, r, IX_T_TOOL) != 0)
		ck_abort_msg("\"%s\" did not finish within %.0f s; stderr: "
		    "%.500s", r->cmd, IX_T_TOOL, r->err != NULL ? r->err : "");
	ck_assert_msg(r->status == 0, "\"%s\" exited with %d; stderr: %.800s",
	    r->cmd, r->status, r->err);
}

/* Decide once whether the tools can be used, and say why not. */
static void
ix_probe(void)
{
	static char version[] = "-V";
	const char *bin;
	char *argv[3], path[4096];
	struct ix_run r;

	ix_make_env();
	bin = getenv("VENEER_VARNISH_BIN");
	if (bin != NULL && *bin != '\0')
		(void)snprintf(ix_bin, sizeof ix_bin, "%s", bin);
	else if (!ix_search_path()) {
		(void)snprintf(ix_why, sizeof ix_why, "varnishlog is not on "
		    "PATH and VENEER_VARNISH_BIN is not set; tools/test.sh "
		    "unpacks the Debian package into the build directory");
		return;
	}
	(void)snprintf(path, sizeof path, "%s/varnishlog", ix_bin);
	if (access(path, X_OK) != 0) {
		(void)snprintf(ix_why, sizeof ix_why, "VENEER_VARNISH_BIN is "
		    "%.2048s, but it has no varnishlog", ix_bin);
		return;
	}
	argv[0] = path;
	argv[1] = version;
	argv[2] = NULL;
	memset(&r, 0, sizeof r);
	if (ix_exec(argv, &r, IX_T_TOOL) != 0 || r.status != 0)
		(void)snprintf(ix_why, sizeof ix_why, "%.2048s -V failed "
		    "(status %d): %.200s", path, r.status,
		    r.err != NULL ? r.err : "");
	else if (strstr(r.err, "varnish-7.1.") == NULL &&
	    strstr(r.out, "varnish-7.1.") == NULL)
		(void)snprintf(ix_why, sizeof ix_why, "%.2048s is not "
		    "Varnish 7.1's, whose log layout veneerd writes: %.100s",
		    path, r.err);
	ix_run_free(&r);
}

/* The next line at *cursor, NUL-terminated in place; NULL at the end. */
static char *
ix_line(char **cursor)
{
	char *line = *cursor, *e;

	if (line == NULL || *line == '\0')
		return (NULL);
	e = line + strcspn(line, "\n");
	*cursor = *e == '\n' ? e + 1 : e;
	*e = '\0';
	return (line);
}

/*--------------------------------------------------------------------
 * Traffic: a fixed set of requests over three keep-alive connections.
 */

#define IX_UA		"interop-test/1.0"

struct ix_req {
	const char	*method;
	const char	*url;
	const char	*body;
	const char	*referer;
	int		want;		/* status we expect */
	unsigned	conn;		/* which connection sends it */
	/* What the client got: */
	int		status;
	size_t		bodylen;
	unsigned	vxid;		/* X-Varnish */
};

static const struct ix_req ix_tpl[] = {
	{ "GET",  "/ok/1",	NULL, NULL, 200, 0, 0, 0, 0 },
	{ "GET",  "/match/a",	NULL, "http://ref/", 200, 0, 0, 0, 0 },
	{ "POST", "/post/1",	"name=veneer&n=42", NULL, 200, 0, 0, 0, 0 },
	{ "GET",  "/match/b",	NULL, NULL, 200, 1, 0, 0, 0 },
	{ "GET",  "/fail/1",	NULL, NULL, 503, 1, 0, 0, 0 },
	{ "GET",  "/missing",	NULL, NULL, 404, 2, 0, 0, 0 },
	{ "GET",  "/fail/2",	NULL, NULL, 503, 2, 0, 0, 0 },
};
#define IX_N		(sizeof ix_tpl / sizeof ix_tpl[0])
#define IX_NCONN	3
#define IX_NMATCH	2	/* URLs with "/match" */
#define IX_NFAIL	2	/* 503s */

static void
ix_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	char body[64];

	(void)priv;
	if (strncmp(req->url, "/fail", 5) == 0) {
		/* Half a status line, then RST: the fetch fails, 503. */
		(void)ORIGIN_Send(oc, "HTTP/1.1 200 O", 14);
		ORIGIN_Reset(oc);
	} else if (strcmp(req->url, "/missing") == 0) {
		(void)ORIGIN_Respond(oc, 404, "Content-Type: text/plain\r\n",
		    "not here\n", -1);
	} else if (strcmp(req->method, "POST") == 0) {
		(void)snprintf(body, sizeof body, "got %zu bytes\n",
		    req->bodylen);
		(void)ORIGIN_Respond(oc, 200, "Content-Type: text/plain\r\n",
		    body, -1);
	} else {
		ORIGIN_DefaultHandler(oc, req, priv);
	}
}

static void
ix_send(struct client *cl, struct ix_req *q)
{
	char hdrs[256];
	struct hx_msg *r;
	const char *xv;

	(void)snprintf(hdrs, sizeof hdrs, "User-Agent: %s\r\n%s%s%s", IX_UA,
	    q->referer != NULL ? "Referer: " : "",
	    q->referer != NULL ? q->referer : "",
	    q->referer != NULL ? "\r\n" : "");
	CLIENT_Req(cl, q->method, q->url, hdrs, q->body, -1);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_msg(r->status == q->want, "%s %s: status %d, want %d",
	    q->method, q->url, r->status, q->want);
	q->status = r->status;
	q->bodylen = r->bodylen;
	xv = HX_Header(r, "X-Varnish");
	ck_assert_msg(xv != NULL, "%s: no X-Varnish", q->url);
	q->vxid = (unsigned)strtoul(xv, NULL, 10);
	HX_MsgFree(&r);
}

/* Count the End records in -g raw output. */
static unsigned
ix_count_ends(const char *raw)
{
	const char *p;
	unsigned n = 0;
	char tag[32];

	for (p = raw; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (sscanf(p, "%*u %31s", tag) == 1 && strcmp(tag, "End") == 0)
			n++;
	}
	return (n);
}

/*
 * Wait until varnishlog -d shows ends records End (every transaction
 * flushed to the log), so that what the tools print next is complete.
 */
static void
ix_wait_log(struct vnd *v, unsigned ends)
{
	struct ix_run r;
	double deadline;
	unsigned n;

	deadline = HX_Now() + HX_T_RESP;
	for (;;) {
		ix_tool_ok(&r, "varnishlog", "-n", VND_Workdir(v), "-d",
		    "-g", "raw", "-i", "End", NULL);
		n = ix_count_ends(r.out);
		if (n == ends || HX_Now() > deadline)
			break;
		ix_run_free(&r);
		(void)poll(NULL, 0, 20);
	}
	ck_assert_msg(n == ends, "varnishlog -d -g raw shows %u End records "
	    "after %.0f s, want %u:\n%.2000s", n, HX_T_RESP, ends, r.out);
	ix_run_free(&r);
}

/*
 * Send every request of q[0..n) and wait until all of it is logged:
 * client_req grows by n, and the log holds ends_before End records plus
 * one per request, fetch and connection.
 */
static void
ix_traffic(struct vnd *v, struct ix_req *q, size_t n, uint64_t req_before,
    unsigned ends_before)
{
	struct client *cl[IX_NCONN];
	unsigned u, nconn;
	size_t i;

	nconn = 0;
	for (i = 0; i < n; i++)
		if (q[i].conn + 1 > nconn)
			nconn = q[i].conn + 1;
	assert(nconn <= IX_NCONN);
	for (u = 0; u < nconn; u++)
		cl[u] = VND_Connect(v);
	for (i = 0; i < n; i++)
		ix_send(cl[q[i].conn], &q[i]);
	for (u = 0; u < nconn; u++)
		CLIENT_Free(&cl[u]);
	(void)VND_WaitCounter(v, "client_req", "==", req_before + n,
	    HX_T_RESP);
	ix_wait_log(v, ends_before + (unsigned)(2 * n) + nconn);
}

/* Start veneerd before the origin and send the standard traffic. */
static struct vnd *
ix_setup(struct origin **op, struct ix_req *q)
{
	struct vnd *v;

	memcpy(q, ix_tpl, sizeof ix_tpl);
	*op = ORIGIN_New(ix_handler, NULL);
	v = VND_Launch(ORIGIN_Port(*op), NULL);
	ix_traffic(v, q, IX_N, 0, 0);
	return (v);
}

static const struct ix_req *
ix_find(const struct ix_req *q, size_t n, const char *url)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(q[i].url, url) == 0)
			return (&q[i]);
	return (NULL);
}

/*--------------------------------------------------------------------
 * A JSON syntax check, enough to tell varnishstat -j's output is valid.
 */

static const char *ix_json_value(const char *, int depth);

static const char *
ix_json_ws(const char *p)
{

	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return (p);
}

static const char *
ix_json_string(const char *p)
{

	if (*p++ != '"')
		return (NULL);
	for (; *p != '"'; p++) {
		if ((unsigned char)*p < 0x20)
			return (NULL);	/* NUL or control character */
		if (*p != '\\')
			continue;
		p++;
		if (*p == 'u') {
			if (strspn(p + 1, "0123456789abcdefABCDEF") < 4)
				return (NULL);
			p += 4;
		} else if (strchr("\"\\/bfnrt", *p) == NULL || *p == '\0') {
			return (NULL);
		}
	}
	return (p + 1);
}

static const char *
ix_json_number(const char *p)
{
	const char *s = p;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		p += strspn(p, "0123456789");
	else
		return (NULL);
	if (*p == '.') {
		if (strspn(++p, "0123456789") == 0)
			return (NULL);
		p += strspn(p, "0123456789");
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (strspn(p, "0123456789") == 0)
			return (NULL);
		p += strspn(p, "0123456789");
	}
	return (p > s ? p : NULL);
}

/* An object or array: members separated by commas, then close. */
static const char *
ix_json_compound(const char *p, int depth)
{
	char close = *p == '{' ? '}' : ']';
	int object = *p == '{';

	p = ix_json_ws(p + 1);
	if (*p == close)
		return (p + 1);
	for (;;) {
		if (object) {
			p = ix_json_string(ix_json_ws(p));
			if (p == NULL || *(p = ix_json_ws(p)) != ':')
				return (NULL);
			p++;
		}
		p = ix_json_value(p, depth + 1);
		if (p == NULL)
			return (NULL);
		p = ix_json_ws(p);
		if (*p == close)
			return (p + 1);
		if (*p++ != ',')
			return (NULL);
	}
}

static const char *
ix_json_value(const char *p, int depth)
{

	if (depth > 32)
		return (NULL);
	p = ix_json_ws(p);
	if (*p == '{' || *p == '[')
		return (ix_json_compound(p, depth));
	if (*p == '"')
		return (ix_json_string(p));
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return (p + 4);
	if (!strncmp(p, "false", 5))
		return (p + 5);
	return (ix_json_number(p));
}

static int
ix_json_valid(const char *doc)
{
	const char *p;

	p = ix_json_value(doc, 0);
	return (p != NULL && *ix_json_ws(p) == '\0');
}

/* The "value" of counter name in varnishstat -j output; fails if none. */
static uint64_t
ix_json_counter(const char *doc, const char *name)
{
	char key[128];
	const char *p, *end;

	(void)snprintf(key, sizeof key, "\"%s\": {", name);
	p = strstr(doc, key);
	ck_assert_msg(p != NULL, "varnishstat -j has no %s", name);
	end = strchr(p, '}');
	p = strstr(p, "\"value\": ");
	ck_assert_msg(p != NULL && end != NULL && p < end,
	    "varnishstat -j: %s has no value", name);
	return (strtoull(p + 9, NULL, 10));
}

/* The value column of "NAME  VALUE  RATE  DESCRIPTION" in -1 output. */
static int
ix_stat_line(const char *out, const char *name, uint64_t *val)
{
	const char *p;
	size_t len = strlen(name);

	for (p = out; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, name, len) == 0 && p[len] == ' ') {
			*val = strtoull(p + len, NULL, 10);
			return (0);
		}
	}
	return (-1);
}

/*--------------------------------------------------------------------
 * Counters.
 */

START_TEST(varnishstat_one)
{
	struct ix_req q[IX_N];
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	uint64_t val;
	unsigned n;
	const char *p;

	if (ix_skip())
		return;
	v = ix_setup(&o, q);
	ix_tool_ok(&r, "varnishstat", "-n", VND_Workdir(v), "-1", "-f",
	    "MAIN.client_req", NULL);
	ck_assert_msg(ix_stat_line(r.out, "MAIN.client_req", &val) == 0,
	    "varnishstat -1 -f MAIN.client_req printed:\n%.1500s", r.out);
	ck_assert_msg(val == IX_N, "varnishstat: MAIN.client_req %ju, want "
	    "%zu:\n%.1500s", (uintmax_t)val, IX_N, r.out);
	/* Only that counter: the filter is applied to our names. */
	for (n = 0, p = r.out; (p = strchr(p, '\n')) != NULL; p++)
		n++;
	ck_assert_msg(n == 1, "-f MAIN.client_req printed %u lines:\n%.1500s",
	    n, r.out);
	ix_run_free(&r);

	/* Every counter, the manager's first, with descriptions. */
	ix_tool_ok(&r, "varnishstat", "-n", VND_Workdir(v), "-1", NULL);
	ck_assert_msg(strncmp(r.out, "MGT.uptime ", 11) == 0,
	    "varnishstat -1 does not start with MGT.uptime:\n%.500s", r.out);
	ck_assert_msg(ix_stat_line(r.out, "MGT.child_start", &val) == 0 &&
	    val == 1, "varnishstat -1: MGT.child_start is not 1:\n%.1500s",
	    r.out);
	ck_assert_msg(ix_stat_line(r.out, "MAIN.client_req", &val) == 0 &&
	    val == IX_N, "varnishstat -1: MAIN.client_req is not %zu", IX_N);
	ck_assert_msg(ix_stat_line(r.out, "MAIN.uptime", &val) == 0,
	    "varnishstat -1 has no MAIN.uptime:\n%.1500s", r.out);
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(varnishstat_json)
{
	struct ix_req q[IX_N];
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	uint64_t val;

	if (ix_skip())
		return;
	v = ix_setup(&o, q);
	ix_tool_ok(&r, "varnishstat", "-n", VND_Workdir(v), "-j", NULL);
	ck_assert_msg(ix_json_valid(r.out), "varnishstat -j is not valid "
	    "JSON:\n%.1500s", r.out);
	ck_assert_msg(strstr(r.out, "\"version\": 1") != NULL,
	    "varnishstat -j has no version 1:\n%.300s", r.out);
	val = ix_json_counter(r.out, "MAIN.client_req");
	ck_assert_msg(val == IX_N, "varnishstat -j: MAIN.client_req %ju, "
	    "want %zu", (uintmax_t)val, IX_N);
	val = ix_json_counter(r.out, "MGT.child_start");
	ck_assert_msg(val == 1, "varnishstat -j: MGT.child_start %ju, want 1",
	    (uintmax_t)val);
	val = ix_json_counter(r.out, "MAIN.client_resp_5xx");
	ck_assert_msg(val == IX_NFAIL, "varnishstat -j: MAIN.client_resp_5xx"
	    " %ju, want %d", (uintmax_t)val, IX_NFAIL);
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * varnishlog -g request: one group per client request, its backend
 * request nested one level down.
 */

struct ix_group {
	int		level;		/* 1: Request, 2: its BeReq */
	char		type[16];	/* "Request", "BeReq", ... */
	unsigned	vxid;
	char		method[16];
	char		url[128];
	int		status;
	int		parent;		/* enclosing Request, or -1 */
	unsigned	nbereq;		/* Requests: BeReqs nested */
};

#define IX_MAXGROUP	64

/* "*   << Request  >> 2" or "--  ReqURL         /x": one line. */
static void
ix_group_line(struct ix_group *g, unsigned *ng, char *line)
{
	struct ix_group *cur;
	char tag[32], *pay;
	int level, i;

	level = (int)strspn(line, line[0] == '*' ? "*" : "-");
	if (line[0] == '*') {
		ck_assert_msg(*ng < IX_MAXGROUP, "too many groups");
		cur = &g[(*ng)++];
		memset(cur, 0, sizeof *cur);
		cur->level = level;
		cur->parent = -1;
		ck_assert_msg(sscanf(line + level, " << %15s >> %u",
		    cur->type, &cur->vxid) == 2, "bad group line: %s", line);
		for (i = (int)*ng - 2; level > 1 && i >= 0; i--)
			if (g[i].level == level - 1) {
				cur->parent = i;
				g[i].nbereq++;
				break;
			}
		return;
	}
	if (line[0] != '-' || *ng == 0)
		return;
	cur = &g[*ng - 1];
	if (sscanf(line + level, " %31s", tag) != 1)
		return;
	pay = strstr(line + level, tag) + strlen(tag);
	pay += strspn(pay, " ");
	if (!strcmp(tag, "ReqMethod") || !strcmp(tag, "BereqMethod"))
		(void)snprintf(cur->method, sizeof cur->method, "%s", pay);
	else if (!strcmp(tag, "ReqURL") || !strcmp(tag, "BereqURL"))
		(void)snprintf(cur->url, sizeof cur->url, "%s", pay);
	else if (!strcmp(tag, "RespStatus") || !strcmp(tag, "BerespStatus"))
		cur->status = atoi(pay);
}

static unsigned
ix_groups(char *out, struct ix_group *g)
{
	char *line;
	unsigned ng = 0;

	while ((line = ix_line(&out)) != NULL)
		ix_group_line(g, &ng, line);
	return (ng);
}

/* Check the groups against the requests the client sent. */
static void
ix_check_groups(const struct ix_group *g, unsigned ng,
    const struct ix_req *q, size_t nq, const char *what)
{
	const struct ix_req *want;
	unsigned u, nreq = 0, nbe = 0;

	for (u = 0; u < ng; u++) {
		if (g[u].level == 2) {
			nbe++;
			ck_assert_msg(!strcmp(g[u].type, "BeReq") &&
			    g[u].parent >= 0, "%s: group %u (vxid %u) is "
			    "a nested %s", what, u, g[u].vxid, g[u].type);
			ck_assert_msg(!strcmp(g[u].url, g[g[u].parent].url) &&
			    !strcmp(g[u].method, g[g[u].parent].method),
			    "%s: BeReq %u is %s %s under request %s %s", what,
			    g[u].vxid, g[u].method, g[u].url,
			    g[g[u].parent].method, g[g[u].parent].url);
			continue;
		}
		ck_assert_msg(g[u].level == 1 && !strcmp(g[u].type,
		    "Request"), "%s: unexpected group %s at level %d", what,
		    g[u].type, g[u].level);
		nreq++;
		want = ix_find(q, nq, g[u].url);
		ck_assert_msg(want != NULL, "%s: a request for %s, which was "
		    "not sent", what, g[u].url);
		ck_assert_msg(!strcmp(g[u].method, want->method) &&
		    g[u].status == want->status && g[u].vxid == want->vxid,
		    "%s: %s %s -> %d vxid %u; the client saw %s -> %d with "
		    "X-Varnish %u", what, g[u].method, g[u].url, g[u].status,
		    g[u].vxid, want->method, want->status, want->vxid);
		ck_assert_msg(g[u].nbereq == 1, "%s: request %s has %u "
		    "nested backend requests, want 1", what, g[u].url,
		    g[u].nbereq);
	}
	ck_assert_msg(nreq == nq && nbe == nq, "%s: %u Request and %u BeReq "
	    "groups, want %zu of each", what, nreq, nbe, nq);
}

START_TEST(varnishlog_request)
{
	struct ix_group g[IX_MAXGROUP];
	struct ix_req q[IX_N];
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	unsigned ng;

	if (ix_skip())
		return;
	v = ix_setup(&o, q);
	ix_tool_ok(&r, "varnishlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", NULL);
	ng = ix_groups(r.out, g);
	ix_check_groups(g, ng, q, IX_N, "varnishlog -d -g request");
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(varnishlog_query)
{
	struct ix_group g[IX_MAXGROUP];
	struct ix_req q[IX_N], m[IX_N];
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	unsigned ng, u, nm, nf;

	if (ix_skip())
		return;
	v = ix_setup(&o, q);
	ix_tool_ok(&r, "varnishlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-q", "ReqURL ~ \"/match\"", NULL);
	ng = ix_groups(r.out, g);
	for (u = nm = 0; u < IX_N; u++)
		if (strstr(q[u].url, "/match") != NULL)
			m[nm++] = q[u];
	ck_assert_int_eq(nm, IX_NMATCH);
	ix_check_groups(g, ng, m, nm, "varnishlog -q 'ReqURL ~ \"/match\"'");
	ix_run_free(&r);

	/* A numeric query, on the response. */
	ix_tool_ok(&r, "varnishlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-q", "RespStatus == 503", NULL);
	ng = ix_groups(r.out, g);
	for (u = nf = 0; u < IX_N; u++)
		if (q[u].status == 503)
			m[nf++] = q[u];
	ck_assert_int_eq(nf, IX_NFAIL);
	ix_check_groups(g, ng, m, nf, "varnishlog -q 'RespStatus == 503'");
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * varnishlog -g raw: every record with its vxid; each transaction has
 * one Begin first and one End last.
 */

struct ix_txn {
	unsigned	vxid;
	char		side;
	char		kind[8];	/* sess, req, bereq */
	unsigned	parent;		/* from Begin */
	unsigned	nbegin;
	unsigned	nend;
	unsigned	nrec;
	int		ended;		/* End seen: no more records */
};

#define IX_MAXTXN	64

static struct ix_txn *
ix_txn(struct ix_txn *t, unsigned *nt, unsigned vxid)
{
	unsigned u;

	for (u = 0; u < *nt; u++)
		if (t[u].vxid == vxid)
			return (&t[u]);
	ck_assert_msg(*nt < IX_MAXTXN, "too many transactions");
	memset(&t[*nt], 0, sizeof t[*nt]);
	t[*nt].vxid = vxid;
	return (&t[(*nt)++]);
}

/* "      1025 Begin          c sess 0 HTTP/1": one record. */
static void
ix_raw_line(struct ix_txn *t, unsigned *nt, const char *line)
{
	struct ix_txn *x;
	unsigned vxid;
	char tag[32], side, kind[8];
	int off;

	if (sscanf(line, "%u %31s %c %n", &vxid, tag, &side, &off) != 3)
		return;
	/* Outside any transaction: only what varnishd logs there too. */
	if (vxid == 0) {
		ck_assert_msg(!strcmp(tag, "CLI") || !strcmp(tag, "Error") ||
		    !strcmp(tag, "Debug") || !strcmp(tag, "ExpKill") ||
		    !strcmp(tag, "ExpBan") || !strcmp(tag, "Backend_health"),
		    "a record outside any transaction: %s", line);
		return;
	}
	x = ix_txn(t, nt, vxid);
	ck_assert_msg(!x->ended, "a record after End: %s", line);
	if (x->nrec++ == 0)
		ck_assert_msg(!strcmp(tag, "Begin"), "vxid %u starts with %s",
		    vxid, tag);
	if (!strcmp(tag, "Begin")) {
		x->nbegin++;
		x->side = side;
		ck_assert_msg(sscanf(line + off, "%7s %u", kind,
		    &x->parent) == 2, "bad Begin: %s", line);
		(void)snprintf(x->kind, sizeof x->kind, "%s", kind);
	} else if (!strcmp(tag, "End")) {
		x->nend++;
		x->ended = 1;
	}
	ck_assert_msg(side == x->side, "vxid %u: side %c, Begin said %c",
	    vxid, side, x->side);
}

START_TEST(varnishlog_raw)
{
	struct ix_txn t[IX_MAXTXN];
	struct ix_req q[IX_N];
	struct ix_txn *x, *p;
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	unsigned nt, u, nsess, nreq, nbereq;
	char *line, *cursor;

	if (ix_skip())
		return;
	v = ix_setup(&o, q);
	ix_tool_ok(&r, "varnishlog", "-n", VND_Workdir(v), "-d", "-g", "raw",
	    NULL);
	nt = 0;
	cursor = r.out;
	while ((line = ix_line(&cursor)) != NULL)
		ix_raw_line(t, &nt, line);
	nsess = nreq = nbereq = 0;
	for (u = 0; u < nt; u++) {
		x = &t[u];
		ck_assert_msg(x->nbegin == 1 && x->nend == 1, "vxid %u: %u "
		    "Begin and %u End records", x->vxid, x->nbegin, x->nend);
		p = NULL;
		if (x->parent != 0)
			p = ix_txn(t, &nt, x->parent);
		if (!strcmp(x->kind, "sess")) {
			nsess++;
			ck_assert_msg(x->side == 'c' && x->parent == 0,
			    "session %u: side %c parent %u", x->vxid, x->side,
			    x->parent);
		} else if (!strcmp(x->kind, "req")) {
			nreq++;
			ck_assert_msg(x->side == 'c' && p != NULL &&
			    !strcmp(p->kind, "sess"), "request %u: side %c, "
			    "parent %u is not a session", x->vxid, x->side,
			    x->parent);
		} else {
			nbereq++;
			ck_assert_msg(!strcmp(x->kind, "bereq") &&
			    x->side == 'b' && p != NULL &&
			    !strcmp(p->kind, "req"), "vxid %u: %s side %c, "
			    "parent %u", x->vxid, x->kind, x->side, x->parent);
		}
	}
	ck_assert_msg(nsess == IX_NCONN && nreq == IX_N && nbereq == IX_N,
	    "-g raw: %u sessions, %u requests, %u backend requests; want "
	    "%d, %zu, %zu", nsess, nreq, nbereq, IX_NCONN, IX_N, IX_N);
	for (u = 0; u < IX_N; u++)
		ck_assert_msg(!strcmp(ix_txn(t, &nt, q[u].vxid)->kind, "req"),
		    "X-Varnish %u of %s is not a request in the log",
		    q[u].vxid, q[u].url);
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * varnishncsa: one combined-format line per client request.
 */

static void
ix_ncsa_check(const char *line, const struct ix_req *q, size_t nq,
    const regex_t *rx, unsigned *seen)
{
	regmatch_t m[8];
	const struct ix_req *want;
	char f[6][256];
	char size[32];
	int i;

	ck_assert_msg(regexec(rx, line, 8, m, 0) == 0, "varnishncsa line "
	    "is not in combined format: %s", line);
	for (i = 1; i <= 6; i++)
		(void)snprintf(f[i - 1], sizeof f[0], "%.*s",
		    (int)(m[i].rm_eo - m[i].rm_so), line + m[i].rm_so);
	want = ix_find(q, nq, f[1]);
	ck_assert_msg(want != NULL, "varnishncsa: %s was not sent", line);
	seen[want - q]++;
	if (want->bodylen == 0)
		(void)snprintf(size, sizeof size, "-");
	else
		(void)snprintf(size, sizeof size, "%zu", want->bodylen);
	ck_assert_msg(!strcmp(f[0], want->method) &&
	    atoi(f[2]) == want->status && !strcmp(f[3], size),
	    "varnishncsa: %s; the client sent %s and got %d with %zu bytes",
	    line, want->method, want->status, want->bodylen);
	ck_assert_msg(!strcmp(f[4], want->referer != NULL ? want->referer :
	    "-") && !strcmp(f[5], IX_UA), "varnishncsa: referer or user "
	    "agent wrong: %s", line);
}

START_TEST(varnishncsa_lines)
{
	static const char re[] = "^127\\.0\\.0\\.1 - - \\[[0-9]{2}/[A-Z][a-z]"
	    "{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}\\] "
	    "\"([A-Z]+) http://e2e\\.test(/[^ ]*) HTTP/1\\.1\" ([0-9]{3}) "
	    "([0-9]+|-) \"([^\"]*)\" \"([^\"]*)\"$";
	struct ix_req q[IX_N];
	unsigned seen[IX_N], n, u;
	char *line, *cursor;
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	regex_t rx;

	if (ix_skip())
		return;
	ck_assert(regcomp(&rx, re, REG_EXTENDED) == 0);
	v = ix_setup(&o, q);
	ix_tool_ok(&r, "varnishncsa", "-n", VND_Workdir(v), "-d", NULL);
	memset(seen, 0, sizeof seen);
	n = 0;
	cursor = r.out;
	while ((line = ix_line(&cursor)) != NULL) {
		ix_ncsa_check(line, q, IX_N, &rx, seen);
		n++;
	}
	ck_assert_msg(n == IX_N, "varnishncsa -d printed %u lines, want %zu",
	    n, IX_N);
	for (u = 0; u < IX_N; u++)
		ck_assert_msg(seen[u] == 1, "varnishncsa: %s printed %u times",
		    q[u].url, seen[u]);
	ix_run_free(&r);
	regfree(&rx);
	VND_Finish(&v, &o);
}
END_TEST

/* A custom format: the vxid and a response header; then -b. */
START_TEST(varnishncsa_formats)
{
	struct ix_req q[IX_N];
	const struct ix_req *want;
	char url[128], word[16], *line, *cursor;
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	unsigned vxid, xv, n;

	if (ix_skip())
		return;
	v = ix_setup(&o, q);
	ix_tool_ok(&r, "varnishncsa", "-n", VND_Workdir(v), "-d", "-F",
	    "%U %{Varnish:vxid}x %{X-Varnish}o %{Varnish:side}x", NULL);
	n = 0;
	cursor = r.out;
	while ((line = ix_line(&cursor)) != NULL) {
		ck_assert_msg(sscanf(line, "%127s %u %u %15s", url, &vxid, &xv,
		    word) == 4, "varnishncsa -F: bad line %s", line);
		want = ix_find(q, IX_N, url);
		ck_assert_msg(want != NULL && vxid == want->vxid &&
		    xv == want->vxid && !strcmp(word, "c"), "varnishncsa -F: "
		    "%s; the client saw X-Varnish %u", line,
		    want != NULL ? want->vxid : 0);
		n++;
	}
	ck_assert_msg(n == IX_N, "varnishncsa -F printed %u lines, want %zu",
	    n, IX_N);
	ix_run_free(&r);

	/* The backend side: one line per fetch. */
	ix_tool_ok(&r, "varnishncsa", "-n", VND_Workdir(v), "-d", "-b", "-F",
	    "%m %U %{Varnish:side}x", NULL);
	n = 0;
	cursor = r.out;
	while ((line = ix_line(&cursor)) != NULL) {
		ck_assert_msg(sscanf(line, "%15s %127s", word, url) == 2,
		    "varnishncsa -b: bad line %s", line);
		want = ix_find(q, IX_N, url);
		ck_assert_msg(want != NULL && !strcmp(word, want->method) &&
		    strcmp(line + strlen(line) - 2, " b") == 0,
		    "varnishncsa -b: %s was not sent, or not as a fetch", line);
		n++;
	}
	ck_assert_msg(n == IX_N, "varnishncsa -b printed %u lines, want %zu",
	    n, IX_N);
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * A child killed and restarted: a new log and new counters, which the
 * tools read without being restarted themselves.
 */

/* Start a tool in the background, its stdout and stderr to path. */
static pid_t
ix_tool_bg(const char *path, const char *tool, ...)
{
	char *argv[IX_MAXARG + 1], bin[4096];
	va_list ap;
	pid_t pid;
	int fd;

	va_start(ap, tool);
	ix_argv(argv, bin, sizeof bin, tool, ap);
	va_end(ap);
	argv[IX_MAXARG] = NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	pid = ix_spawn(argv, fd, fd);
	ck_assert_msg(pid > 0, "fork: %s", strerror(errno));
	(void)close(fd);
	HX_RegisterPid(pid);
	return (pid);
}

/*
 * Send GET url-N (N = 1, 2, ...) until a following varnishlog, writing
 * to path, shows one of them: it attaches at the tail, so what came
 * before it had attached is not shown.
 */
static unsigned
ix_until_followed(struct vnd *v, const char *path, const char *url)
{
	struct client *cl;
	struct hx_msg *r;
	char u[128], want[160], *out;
	double deadline;
	unsigned sent = 0;
	int found = 0;

	deadline = HX_Now() + HX_T_SLOW;
	(void)snprintf(want, sizeof want, " %s-", url);
	cl = VND_Connect(v);
	while (!found && HX_Now() < deadline) {
		(void)snprintf(u, sizeof u, "%s-%u", url, ++sent);
		r = CLIENT_Fetch(cl, "GET", u, NULL, HX_T_SLOW);
		ck_assert_int_eq(r->status, 200);
		HX_MsgFree(&r);
		(void)poll(NULL, 0, 50);
		out = HX_ReadFile(path, NULL);
		found = out != NULL && strstr(out, want) != NULL;
		free(out);
	}
	CLIENT_Free(&cl);
	out = HX_ReadFile(path, NULL);
	ck_assert_msg(found, "a following varnishlog did not show %s-N "
	    "within %.0f s; it printed:\n%.2000s", url, HX_T_SLOW, out);
	free(out);
	return (sent);
}

START_TEST(child_restart)
{
	struct ix_group g[IX_MAXGROUP];
	struct ix_req q[IX_N], after[2];
	char follow[4096];
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	uint64_t val;
	pid_t old, tail;
	unsigned ng, live;

	if (ix_skip())
		return;
	v = ix_setup(&o, q);
	VND_ExpectChildDeath(v);
	(void)snprintf(follow, sizeof follow, "%s/varnishlog.follow",
	    VND_Dir(v));
	tail = ix_tool_bg(follow, "varnishlog", "-n", VND_Workdir(v), "-g",
	    "raw", "-i", "ReqURL", NULL);
	(void)ix_until_followed(v, follow, "/live/before");

	old = VND_ChildPid(v);
	ck_assert_int_eq(kill(old, SIGKILL), 0);
	HX_WaitGone(old, HX_T_RESP);
	(void)VND_WaitChildPidChange(v, old, HX_T_SLOW);
	/* The running reader lets go of the dead log and finds the new. */
	live = ix_until_followed(v, follow, "/live/after");
	(void)kill(tail, SIGTERM);
	(void)waitpid(tail, NULL, 0);

	/*
	 * The new child's log and counters hold only what it served: the
	 * /live/after requests (one connection), then two more.
	 */
	memcpy(after, ix_tpl, sizeof after);
	after[0].url = "/after/1";
	after[1].url = "/after/2";
	after[1].conn = 1;
	ix_traffic(v, after, 2, live, 2 * live + 1);
	ix_tool_ok(&r, "varnishlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-q", "ReqURL ~ \"^/after\"", NULL);
	ng = ix_groups(r.out, g);
	ix_check_groups(g, ng, after, 2, "after the restart, varnishlog");
	ix_run_free(&r);
	ix_tool_ok(&r, "varnishlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-q", "ReqURL ~ \"^/(ok|live/before)\"", NULL);
	ck_assert_msg(r.out[0] == '\0', "the dead child's requests are "
	    "in the new child's log:\n%.1000s", r.out);
	ix_run_free(&r);

	ix_tool_ok(&r, "varnishstat", "-n", VND_Workdir(v), "-1", "-f",
	    "MAIN.client_req", "-f", "MGT.child_*", NULL);
	ck_assert_msg(ix_stat_line(r.out, "MAIN.client_req", &val) == 0 &&
	    val == live + 2, "after the restart, MAIN.client_req is not %u:"
	    "\n%.1500s", live + 2, r.out);
	ck_assert_msg(ix_stat_line(r.out, "MGT.child_start", &val) == 0 &&
	    val == 2, "after the restart, MGT.child_start is not 2:\n%.1500s",
	    r.out);
	ck_assert_msg(ix_stat_line(r.out, "MGT.child_died", &val) == 0 &&
	    val == 1, "after the restart, MGT.child_died is not 1:\n%.1500s",
	    r.out);
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Issue 13: with vcl_profile on and VCL_time unmasked, varnishstat reads
 * the VCLP group (builtin.vcl's conditions put quotes in its
 * descriptions) and varnishlog a log holding a tag it does not know.
 */
START_TEST(issue_0013_profile_and_vcl_time)
{
	struct ix_req q[IX_N];
	struct origin *o;
	struct ix_run r;
	struct vnd *v;
	uint64_t val;

	if (ix_skip())
		return;
	memcpy(q, ix_tpl, sizeof ix_tpl);
	o = ORIGIN_New(ix_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "vcl_profile=on", "vsl_mask=+VCL_time",
	    NULL);
	ix_traffic(v, q, IX_N, 0, 0);	/* varnishlog -d counts the Ends */
	ix_tool_ok(&r, "varnishstat", "-n", VND_Workdir(v), "-1", "-f",
	    "VCLP.*", NULL);
	ck_assert_msg(ix_stat_line(r.out, "VCLP.boot.vcl_recv.calls", &val) ==
	    0 && val > 0, "varnishstat -1 -f VCLP.*:\n%.1500s", r.out);
	ck_assert_msg(strstr(r.out, "builtin.vcl:") != NULL &&
	    strstr(r.out, "'GET'") != NULL, "no description:\n%.1500s",
	    r.out);
	ix_run_free(&r);
	/* Its -j prints descriptions unescaped: none may hold a quote. */
	ix_tool_ok(&r, "varnishstat", "-n", VND_Workdir(v), "-j", NULL);
	ck_assert_msg(ix_json_valid(r.out), "varnishstat -j is not valid "
	    "JSON:\n%.1500s", r.out);
	ck_assert_uint_eq(ix_json_counter(r.out, "VCLP.boot.vcl_recv.calls"),
	    val);
	ix_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
interop_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("interop");
	tc = tcase_create("varnish-7.1-tools");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, varnishstat_one);
	tcase_add_test(tc, varnishstat_json);
	tcase_add_test(tc, varnishlog_request);
	tcase_add_test(tc, varnishlog_query);
	tcase_add_test(tc, varnishlog_raw);
	tcase_add_test(tc, varnishncsa_lines);
	tcase_add_test(tc, varnishncsa_formats);
	tcase_add_test(tc, child_restart);
	tcase_add_test(tc, issue_0013_profile_and_vcl_time);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	ix_probe();
	return (HX_Run(interop_suite()));
}

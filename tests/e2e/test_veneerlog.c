/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_veneerlog.c -- issue #4, end to end: veneerlog and veneerncsa
 * against a real veneerd.  After N requests, veneerlog -d -g request -q
 * shows exactly the matching requests with their backend fetch nested;
 * veneerncsa -d prints N well-formed combined lines that say what the
 * client saw; -w then -r gives the text of -d; a live reader stopped
 * while the log laps it reports the overrun and goes on; live readers
 * reattach when the child is killed and restarted; -D -P -w and SIGHUP
 * rotate a log file; with no veneerd both exit 1 at once with -t 0.
 * If Debian's varnishlog and varnishncsa 7.1 are there (PATH, or
 * VENEER_VARNISH_BIN with VENEER_VARNISH_LIB), their -d output must be
 * ours, and each reads the other's -w files; else those tests say so
 * and pass.
 *
 * The tools are $VENEER_BUILDDIR/veneerlog and veneerncsa.  Every wait
 * has a deadline; nothing sleeps to synchronize.
 */

#include "config.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e/cli_lib.h"
#include "lib/harness.h"

extern char **environ;

#define VL_T_TOOL	10.0		/* one run of a tool */
#define VL_MAXARG	16
#define VL_N		6		/* requests of the standard traffic */

static char vl_dir[4096];		/* our tools */
static char vn_dir[2048];		/* Varnish's, or "" */
static char vn_why[2300];		/* why not */
static char **vl_envp;			/* environ + VENEER_VARNISH_LIB */

/*--------------------------------------------------------------------
 * Running tools: argv made before fork (the test has threads), output
 * into files, read back with a deadline.
 */

struct run {
	int		status;		/* exit; 128 + signal; -1 timeout */
	char		*out;
	char		*err;
	char		cmd[1024];
};

static void
run_free(struct run *r)
{

	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

/* argv: dir/tool, then the arguments up to NULL. */
static void
make_argv(char **argv, char *path, size_t len, const char *dir,
    const char *tool, va_list ap)
{
	unsigned n;

	(void)snprintf(path, len, "%.3000s/%.100s", dir, tool);
	argv[0] = path;
	for (n = 1; n < VL_MAXARG; n++)
		if ((argv[n] = va_arg(ap, char *)) == NULL)
			return;
	ck_abort_msg("%s: too many arguments", tool);
}

/* Fork and exec argv with stdout and stderr to files; the pid. */
static pid_t
spawn(char * const *argv, const char *out, const char *err)
{
	int fo, fe, fn;
	pid_t pid;

	fo = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	fe = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	fn = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ck_assert(fo >= 0 && fe >= 0 && fn >= 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		(void)signal(SIGPIPE, SIG_DFL);
		(void)dup2(fn, 0);
		(void)dup2(fo, 1);
		(void)dup2(fe, 2);
		(void)execve(argv[0], argv, vl_envp);
		_exit(127);
	}
	(void)close(fo);
	(void)close(fe);
	(void)close(fn);
	HX_RegisterPid(pid);
	return (pid);
}

/* Wait for pid until deadline; its status, or -1 (then killed). */
static int
reap(pid_t pid, double deadline)
{
	int st;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return (WIFEXITED(st) ? WEXITSTATUS(st) :
			    128 + WTERMSIG(st));
		ck_assert_int_eq(r, 0);
		if (HX_Now() > deadline)
			break;
		(void)poll(NULL, 0, 10);
	}
	(void)kill(pid, SIGKILL);
	(void)waitpid(pid, &st, 0);
	return (-1);
}

static void
run_argv(struct run *r, char **argv, double timeout)
{
	char out[4096], err[4096], *tmp;
	unsigned i;
	size_t n;

	tmp = HX_TempDir("run");
	(void)snprintf(out, sizeof out, "%s/out", tmp);
	(void)snprintf(err, sizeof err, "%s/err", tmp);
	r->cmd[0] = '\0';
	for (i = 0; argv[i] != NULL; i++) {
		n = strlen(r->cmd);
		(void)snprintf(r->cmd + n, sizeof r->cmd - n, "%s%s",
		    i ? " " : "", argv[i]);
	}
	r->status = reap(spawn(argv, out, err), HX_Now() + timeout);
	r->out = HX_ReadFile(out, NULL);
	r->err = HX_ReadFile(err, NULL);
	ck_assert(r->out != NULL && r->err != NULL);
	HX_RemoveTree(tmp);
	free(tmp);
}

/* Run dir/tool ARGS...; fail the test if it runs past VL_T_TOOL. */
static void
run(struct run *r, const char *dir, const char *tool, ...)
{
	char *argv[VL_MAXARG + 1], path[4096];
	va_list ap;

	va_start(ap, tool);
	make_argv(argv, path, sizeof path, dir, tool, ap);
	va_end(ap);
	argv[VL_MAXARG] = NULL;
	run_argv(r, argv, VL_T_TOOL);
	ck_assert_msg(r->status >= 0, "\"%s\" did not end within %.0f s",
	    r->cmd, VL_T_TOOL);
}

/* Same, and fail unless it exited 0 with nothing on stderr. */
static void
run_ok(struct run *r, const char *dir, const char *tool, ...)
{
	char *argv[VL_MAXARG + 1], path[4096];
	va_list ap;

	va_start(ap, tool);
	make_argv(argv, path, sizeof path, dir, tool, ap);
	va_end(ap);
	argv[VL_MAXARG] = NULL;
	run_argv(r, argv, VL_T_TOOL);
	ck_assert_msg(r->status == 0 && r->err[0] == '\0', "\"%s\" exited "
	    "with %d; stderr: %.800s", r->cmd, r->status, r->err);
}

/*--------------------------------------------------------------------
 * Tools that keep running (live): output into files we watch.
 */

struct live {
	pid_t		pid;
	char		*dir;
	char		out[4096];
	char		err[4096];
	char		cmd[256];
};

static void
live_start(struct live *l, const char *tool, ...)
{
	char *argv[VL_MAXARG + 1], path[4096];
	va_list ap;

	va_start(ap, tool);
	make_argv(argv, path, sizeof path, vl_dir, tool, ap);
	va_end(ap);
	argv[VL_MAXARG] = NULL;
	l->dir = HX_TempDir("live");
	(void)snprintf(l->out, sizeof l->out, "%s/out", l->dir);
	(void)snprintf(l->err, sizeof l->err, "%s/err", l->dir);
	(void)snprintf(l->cmd, sizeof l->cmd, "%s", tool);
	l->pid = spawn(argv, l->out, l->err);
}

static char *
live_read(const char *path)
{
	char *s;

	s = HX_ReadFile(path, NULL);
	ck_assert_msg(s != NULL, "%s: %s", path, strerror(errno));
	return (s);
}

/* Wait until the tool's stdout (or stderr) holds needle n times. */
static void
live_wait(struct live *l, int err, const char *needle, unsigned n,
    double timeout)
{
	double deadline = HX_Now() + timeout;
	unsigned k;
	char *s, *p;

	for (;;) {
		s = live_read(err ? l->err : l->out);
		for (k = 0, p = s; (p = strstr(p, needle)) != NULL; p++)
			k++;
		if (k >= n) {
			free(s);
			return;
		}
		if (HX_Now() > deadline)
			break;
		free(s);
		ck_assert_msg(waitpid(l->pid, NULL, WNOHANG) == 0, "%s ended; "
		    "stderr: %.500s", l->cmd, (s = live_read(l->err)));
		(void)poll(NULL, 0, 20);
	}
	ck_abort_msg("%s: \"%s\" %u times not in its %s after %.0f s: "
	    "%.1500s", l->cmd, needle, n, err ? "stderr" : "stdout",
	    timeout, s);
}

static void
live_stop(struct live *l)
{

	(void)kill(l->pid, SIGTERM);
	ck_assert_msg(reap(l->pid, HX_Now() + VL_T_TOOL) == 0, "%s did not "
	    "end cleanly on SIGTERM", l->cmd);
	HX_RemoveTree(l->dir);
	free(l->dir);
}

/*--------------------------------------------------------------------
 * Traffic and what the client saw.
 */

struct req {
	char		url[64];
	int		status;
	size_t		bodylen;
	unsigned	vxid;		/* X-Varnish */
};

static void
send_req(struct client *cl, struct req *q, const char *url,
    const char *hdrs)
{
	struct hx_msg *m;
	const char *xv;

	(void)snprintf(q->url, sizeof q->url, "%s", url);
	m = CLIENT_Fetch(cl, "GET", url, hdrs, HX_T_RESP);
	ck_assert_int_eq(m->status, 200);
	q->status = m->status;
	q->bodylen = m->bodylen;
	xv = HX_Header(m, "X-Varnish");
	ck_assert_msg(xv != NULL, "%s: no X-Varnish", url);
	q->vxid = (unsigned)strtoul(xv, NULL, 10);
	HX_MsgFree(&m);
}

/*
 * A live tool has attached when it shows a request sent after it
 * started: send /sync until it does.
 */
static void
live_sync(struct live *l, struct vnd *v)
{
	double deadline = HX_Now() + HX_T_SLOW;
	struct client *cl;
	struct req q;
	char *s;
	int seen;

	do {
		cl = VND_Connect(v);
		send_req(cl, &q, "/sync", NULL);
		CLIENT_Free(&cl);
		(void)poll(NULL, 0, 50);
		s = live_read(l->out);
		seen = strstr(s, "/sync") != NULL;
		free(s);
	} while (!seen && HX_Now() < deadline);
	ck_assert_msg(seen, "%s shows no request after %.0f s", l->cmd,
	    HX_T_SLOW);
}

/* How many End records veneerlog -d -g raw shows now. */
static unsigned
count_ends(struct vnd *v)
{
	struct run r;
	unsigned n = 0;
	char *p;

	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "raw", "-i", "End", NULL);
	for (p = r.out; (p = strstr(p, " End ")) != NULL; p++)
		n++;
	run_free(&r);
	return (n);
}

/* Wait until every transaction so far is in the log. */
static void
wait_ends(struct vnd *v, unsigned want)
{
	double deadline = HX_Now() + HX_T_SLOW;
	unsigned n;

	while ((n = count_ends(v)) < want && HX_Now() < deadline)
		(void)poll(NULL, 0, 20);
	ck_assert_msg(n == want, "%u End records in the log, want %u", n,
	    want);
}

/*
 * The standard traffic, on one connection then closed: /x/1, /y/1,
 * /x/2, /y/2, ...; all logged when this returns (a request and its fetch
 * each end, and the session).
 */
static void
traffic(struct vnd *v, struct req *q)
{
	struct client *cl;
	char url[32];
	unsigned u;

	cl = VND_Connect(v);
	for (u = 0; u < VL_N; u++) {
		(void)snprintf(url, sizeof url, "/%c/%u", u % 2 ? 'y' : 'x',
		    u / 2 + 1);
		send_req(cl, &q[u], url, "User-Agent: vl-test\r\n"
		    "Referer: http://ref/\r\n");
	}
	CLIENT_Free(&cl);
	(void)VND_WaitCounter(v, "client_req", "==", VL_N, HX_T_RESP);
	wait_ends(v, 2 * VL_N + 1);
}

static struct vnd *
setup(struct origin **op, struct req *q, const char *param)
{
	struct vnd *v;

	*op = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(*op), param, NULL);
	if (q != NULL)
		traffic(v, q);
	return (v);
}

/*--------------------------------------------------------------------
 * Reading veneerlog's grouped output.
 */

struct tx {
	unsigned	level;
	char		type[16];
	unsigned	vxid;
	char		begin[64];	/* its Begin payload */
	char		url[64];	/* its ReqURL or BereqURL */
};

#define MAXTX		64

/* The transactions of one group (lines up to a blank line); count. */
static unsigned
parse_group(char **cursor, struct tx *tx)
{
	char *line, *e, stars[8];
	unsigned n = 0;

	while (**cursor != '\0') {
		line = *cursor;
		e = line + strcspn(line, "\n");
		*cursor = *e == '\n' ? e + 1 : e;
		*e = '\0';
		if (*line == '\0')
			break;
		if (*line == '*') {
			ck_assert_uint_lt(n, MAXTX);
			memset(&tx[n], 0, sizeof tx[n]);
			ck_assert_msg(sscanf(line, "%7s << %15s >> %u", stars,
			    tx[n].type, &tx[n].vxid) == 3, "bad header %s",
			    line);
			tx[n].level = (unsigned)strspn(stars, "*");
			n++;
			continue;
		}
		ck_assert_msg(n > 0, "a record before any header: %s", line);
		if (!strncmp(line + 4, "Begin ", 6))
			(void)snprintf(tx[n - 1].begin, sizeof tx[n - 1].begin,
			    "%s", line + 4 + 15);
		if (!strncmp(line + 4, "ReqURL ", 7) ||
		    !strncmp(line + 4, "BereqURL ", 9))
			(void)snprintf(tx[n - 1].url, sizeof tx[n - 1].url,
			    "%s", line + 4 + 15);
	}
	return (n);
}

/*--------------------------------------------------------------------*/

START_TEST(request_query)
{
	struct req q[VL_N];
	struct tx tx[MAXTX];
	struct origin *o;
	struct vnd *v;
	struct run r;
	char *cur, want[64];
	unsigned u, n, ngroups = 0, seen[VL_N];

	v = setup(&o, q, NULL);
	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-q", "ReqURL ~ \"/x\"", NULL);
	memset(seen, 0, sizeof seen);
	for (cur = r.out; *cur != '\0'; ngroups++) {
		n = parse_group(&cur, tx);
		ck_assert_msg(n == 2, "a group of %u transactions:\n%s", n,
		    r.out);
		for (u = 0; u < VL_N; u++)
			if (q[u].vxid == tx[0].vxid)
				break;
		ck_assert_msg(u < VL_N, "vxid %u is no request of ours",
		    tx[0].vxid);
		ck_assert_msg(q[u].url[1] == 'x', "%s matched", q[u].url);
		ck_assert(!seen[u]);
		seen[u] = 1;
		/* The request, level 1, then its fetch, nested. */
		ck_assert_uint_eq(tx[0].level, 1);
		ck_assert_str_eq(tx[0].type, "Request");
		ck_assert_str_eq(tx[0].url, q[u].url);
		ck_assert_uint_eq(tx[1].level, 2);
		ck_assert_str_eq(tx[1].type, "BeReq");
		ck_assert_str_eq(tx[1].url, q[u].url);
		(void)snprintf(want, sizeof want, "bereq %u ", q[u].vxid);
		ck_assert_msg(!strncmp(tx[1].begin, want, strlen(want)),
		    "Begin %s, want %s...", tx[1].begin, want);
	}
	ck_assert_uint_eq(ngroups, VL_N / 2);
	run_free(&r);
	/* A bad query: a message with the column, exit 1. */
	run(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-q",
	    "ReqURL ~", NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "expected an operand after \"~\"") !=
	    NULL && strstr(r.err, "(column 9)") != NULL, "%s", r.err);
	run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/* A line of raw output with tag and text, of vxid (0: any)? */
static int
log_line(const char *out, unsigned vxid, const char *tag, const char *text)
{
	const char *p, *e;
	char line[512];
	size_t l;

	for (p = out; *p != '\0'; p = *e == '\n' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		l = (size_t)(e - p) < sizeof line ? (size_t)(e - p) :
		    sizeof line - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		if (strstr(line, tag) != NULL && strstr(line, text) != NULL &&
		    (vxid == 0 || strtoul(line, NULL, 10) == vxid))
			return (1);
	}
	return (0);
}

/*
 * Issue 13: VCL_time, one record per method and call with its duration,
 * masked by default; with it unmasked veneerlog -q finds the requests
 * that ran a sub, or whose VCL took longer than a bound.
 */
START_TEST(issue_0013_vcl_time)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	struct req q[VL_N];
	struct run r;
	char *vcl, head[64];
	unsigned u;

	o = ORIGIN_New(NULL, NULL);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\n"
	    "backend default { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub mob { set req.http.X-Mob = \"1\"; }\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url ~ \"^/m\") { call mob; }\n"
	    "}\n", ORIGIN_Port(o)), 0);
	v = VND_New();
	VND_VclFile(v, "t.vcl", vcl);
	free(vcl);
	VND_Param(v, "vsl_mask", "+VCL_time");
	VND_Start(v);
	cl = VND_Connect(v);
	send_req(cl, &q[0], "/m/1", NULL);
	send_req(cl, &q[1], "/d/1", NULL);
	send_req(cl, &q[2], "/m/2", NULL);
	CLIENT_Free(&cl);
	wait_ends(v, 7);	/* 3 requests, 3 fetches, the session */
	/* Only the requests that called mob; seconds, then where. */
	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-i", "VCL_time", "-q", "VCL_time[1] eq \"mob\"",
	    NULL);
	for (u = 0; u < 3; u++) {
		(void)snprintf(head, sizeof head, "<< Request  >> %u ",
		    q[u].vxid);
		ck_assert_msg((strstr(r.out, head) != NULL) == (u != 1),
		    "request %u: %s", u, r.out);
	}
	ck_assert_msg(log_line(r.out, 0, "VCL_time", "mob 0.") &&
	    log_line(r.out, 0, "VCL_time", "/t.vcl:5:25") &&
	    log_line(r.out, 0, "VCL_time", "vcl_recv 0."), "%s", r.out);
	run_free(&r);
	/* A numeric bound on the seconds: every method took >= 0 s. */
	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-i", "VCL_time", "-q", "VCL_time[2] >= 0", NULL);
	for (u = 0; u < 3; u++) {
		(void)snprintf(head, sizeof head, "<< Request  >> %u ",
		    q[u].vxid);
		ck_assert_msg(strstr(r.out, head) != NULL, "request %u: %s",
		    u, r.out);
	}
	run_free(&r);
	VND_Finish(&v, &o);

	/* Masked by default: not one record. */
	v = setup(&o, q, NULL);
	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "raw", "-i", "VCL_time", NULL);
	ck_assert_msg(r.out[0] == '\0', "%s", r.out);
	run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Issue 14: param.set vsl_mask changes what is logged at once, for the
 * next request, without a restart.
 */
START_TEST(issue_0014_vsl_mask_live)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	struct req q[3];
	struct run r;
	char *b;
	int fd;

	o = ORIGIN_New(NULL, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	cli_args(v, 1);
	VND_Start(v);
	fd = cli_login(v);
	cl = VND_Connect(v);
	send_req(cl, &q[0], "/logged/1", NULL);
	cli_expect(fd, "param.set vsl_mask -ReqURL,-BereqURL", 200, NULL);
	send_req(cl, &q[1], "/masked/2", NULL);
	cli_expect(fd, "param.set vsl_mask +ReqURL", 200, NULL);
	send_req(cl, &q[2], "/logged/3", NULL);
	CLIENT_Free(&cl);
	wait_ends(v, 7);	/* 3 requests, 3 fetches, the session */
	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "raw", "-i", "ReqURL,BereqURL", NULL);
	ck_assert_msg(strstr(r.out, "ReqURL         c /logged/1") != NULL &&
	    strstr(r.out, "BereqURL       b /logged/1") != NULL &&
	    strstr(r.out, "/masked/2") == NULL &&
	    strstr(r.out, "ReqURL         c /logged/3") != NULL &&
	    strstr(r.out, "b /logged/3") == NULL, "%s", r.out);
	/* +ReqURL changed the mask so far: BereqURL stays masked. */
	cli_expect(fd, "param.show vsl_mask", 200, "-BereqURL");
	cli_expect(fd, "param.show vsl_mask", 200, "-Debug");
	cli_expect(fd, "param.reset vsl_mask", 200, NULL);
	ck_assert_uint_eq(cli_ask(fd, "param.show vsl_mask", &b), 200);
	ck_assert_msg(strstr(b, "BereqURL") == NULL &&
	    strstr(b, "-Debug") != NULL, "%s", b);
	free(b);
	run_free(&r);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Issue 11: a header the client names in Connection: is removed when
 * the request arrives, and the log says so with ReqUnset, in the
 * request's transaction; the backend request never has it.
 */
START_TEST(issue_0011_connection_named_logged_unset)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	struct req q;
	struct run r;

	v = setup(&o, NULL, NULL);
	cl = VND_Connect(v);
	send_req(cl, &q, "/cu", "Connection: X-Gone\r\nX-Gone: 1\r\n");
	CLIENT_Free(&cl);
	wait_ends(v, 3);	/* the request, its fetch, the session */
	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "raw", "-i", "ReqUnset,BereqHeader", NULL);
	ck_assert_msg(log_line(r.out, q.vxid, "ReqUnset", "X-Gone: 1"),
	    "no ReqUnset of X-Gone in request %u:\n%s", q.vxid, r.out);
	ck_assert_msg(log_line(r.out, 0, "BereqHeader", "Host:"), "%s",
	    r.out);
	ck_assert_msg(!log_line(r.out, 0, "BereqHeader", "X-Gone"), "the "
	    "backend request has X-Gone:\n%s", r.out);
	run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A piped request is accounted by PipeAcct alone, as in varnishd: no
 * ReqAcct (whose response bytes would be a lie), so varnishncsa's %b
 * says "-" for it.  (The builtin VCL pipes methods it does not know.)
 */
START_TEST(pipe_accounted_once)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	struct run r;
	char *all;

	v = setup(&o, NULL, NULL);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "FROB /piped HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Connection: close\r\n\r\n");
	all = CLIENT_ReadAll(cl, NULL, HX_T_RESP);
	ck_assert_msg(all != NULL && !strncmp(all, "HTTP/1.1 200", 12),
	    "the piped request: %s", all != NULL ? all : "(nothing)");
	free(all);
	CLIENT_Free(&cl);
	(void)VND_WaitCounter(v, "s_pipe", "==", 1, HX_T_RESP);
	wait_ends(v, 3);	/* the request, its pipe, the session */
	run_ok(&r, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "raw", "-i", "ReqAcct,PipeAcct,Timestamp", NULL);
	ck_assert_msg(log_line(r.out, 0, "PipeAcct", ""), "no PipeAcct:\n%s",
	    r.out);
	ck_assert_msg(!log_line(r.out, 0, "ReqAcct", ""), "a piped request "
	    "has a ReqAcct:\n%s", r.out);
	ck_assert_msg(log_line(r.out, 0, "Timestamp", "PipeSess:"), "no "
	    "PipeSess timestamp:\n%s", r.out);
	run_free(&r);
	run_ok(&r, vl_dir, "veneerncsa", "-n", VND_Workdir(v), "-d", "-F",
	    "%m %U %b", NULL);
	ck_assert_str_eq(r.out, "FROB /piped -\n");
	run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(ncsa_lines)
{
	static const char re[] = "^127\\.0\\.0\\.1 - - \\[[0-9]{2}/"
	    "[A-Z][a-z]{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}\\] "
	    "\"GET http://e2e\\.test(/[xy]/[0-9]+) HTTP/1\\.1\" "
	    "([0-9]{3}) ([0-9]+) \"http://ref/\" \"vl-test\"$";
	struct req q[VL_N];
	struct origin *o;
	struct vnd *v;
	struct run r;
	regmatch_t m[4];
	regex_t rx;
	char *cur, *line, want[600];
	unsigned u = 0, k;
	int seen[VL_N];

	ck_assert_int_eq(regcomp(&rx, re, REG_EXTENDED), 0);
	v = setup(&o, q, NULL);
	run_ok(&r, vl_dir, "veneerncsa", "-n", VND_Workdir(v), "-d", NULL);
	for (cur = r.out; (line = strsep(&cur, "\n")) != NULL &&
	    *line != '\0'; u++) {
		ck_assert_uint_lt(u, VL_N);
		ck_assert_msg(regexec(&rx, line, 4, m, 0) == 0, "line %u is "
		    "not combined format: %s", u, line);
		/* In the order the requests ended: ours. */
		ck_assert_int_eq(strncmp(line + m[1].rm_so, q[u].url,
		    (size_t)(m[1].rm_eo - m[1].rm_so)), 0);
		ck_assert_int_eq(atoi(line + m[2].rm_so), q[u].status);
		ck_assert_uint_eq(strtoul(line + m[3].rm_so, NULL, 10),
		    q[u].bodylen);
	}
	ck_assert_uint_eq(u, VL_N);
	run_free(&r);
	/* -j, -F, -q, -b. */
	run_ok(&r, vl_dir, "veneerncsa", "-n", VND_Workdir(v), "-d", "-j",
	    "-F", "{\"url\": \"%U\", \"vxid\": %{Veneer:vxid}x, \"side\": "
	    "\"%{Veneer:side}x\"}", "-q", "ReqURL ~ \"/y/2\"", NULL);
	(void)snprintf(want, sizeof want, "{\"url\": \"/y/2\", \"vxid\": %u, "
	    "\"side\": \"c\"}\n", q[3].vxid);
	ck_assert_str_eq(r.out, want);
	run_free(&r);
	/*
	 * Backend requests: the fetches, with the origin's address.  A
	 * cache fetch ends (and logs) on its own thread, maybe after its
	 * client got the body and sent the next request: any order.
	 */
	run_ok(&r, vl_dir, "veneerncsa", "-n", VND_Workdir(v), "-d", "-b",
	    "-F", "%{Veneer:side}x %h %m %U %s", NULL);
	memset(seen, 0, sizeof seen);
	for (cur = r.out, u = 0; (line = strsep(&cur, "\n")) != NULL &&
	    *line != '\0'; u++) {
		for (k = 0; k < VL_N; k++) {
			(void)snprintf(want, sizeof want,
			    "b 127.0.0.1 GET %s 200", q[k].url);
			if (!seen[k] && strcmp(line, want) == 0)
				break;
		}
		ck_assert_msg(k < VL_N, "unexpected backend line: %s", line);
		seen[k] = 1;
	}
	ck_assert_uint_eq(u, VL_N);
	run_free(&r);
	VND_Finish(&v, &o);
	regfree(&rx);
}
END_TEST

START_TEST(file_round_trip)
{
	static const char * const groupings[] = { "vxid", "request",
	    "session", "raw" };
	struct req q[VL_N];
	struct origin *o;
	struct vnd *v;
	struct run live, file;
	char path[4096], *dir, *once;
	unsigned u;

	v = setup(&o, q, NULL);
	dir = HX_TempDir("files");
	for (u = 0; u < 4; u++) {
		(void)snprintf(path, sizeof path, "%s/%s.log", dir,
		    groupings[u]);
		run_ok(&live, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d",
		    "-g", groupings[u], NULL);
		run_ok(&file, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d",
		    "-g", groupings[u], "-w", path, NULL);
		ck_assert_str_eq(file.out, "");
		run_free(&file);
		run_ok(&file, vl_dir, "veneerlog", "-r", path, "-g",
		    groupings[u], NULL);
		ck_assert_msg(!strcmp(live.out, file.out), "-g %s: -d and -w "
		    "then -r differ:\n%.1000s\n---\n%.1000s", groupings[u],
		    live.out, file.out);
		ck_assert_uint_gt(strlen(live.out), 1000);
		run_free(&file);
		/* Appending: the records twice, the file id once. */
		run_ok(&file, vl_dir, "veneerlog", "-r", path, "-g", "raw",
		    NULL);
		once = file.out;
		file.out = NULL;
		run_free(&file);
		run_ok(&file, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d",
		    "-g", groupings[u], "-w", path, "-a", NULL);
		run_free(&file);
		run_ok(&file, vl_dir, "veneerlog", "-r", path, "-g", "raw",
		    NULL);
		ck_assert_uint_eq(strlen(file.out), 2 * strlen(once));
		ck_assert_int_eq(strncmp(file.out, once, strlen(once)), 0);
		ck_assert_str_eq(file.out + strlen(once), once);
		free(once);
		run_free(&file);
		run_free(&live);
	}
	/* A file that is not a log. */
	run(&file, vl_dir, "veneerlog", "-r", "/etc/hostname", NULL);
	ck_assert_int_eq(file.status, 1);
	ck_assert_ptr_nonnull(strstr(file.err, "is not a log file"));
	run_free(&file);
	HX_RemoveTree(dir);
	free(dir);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A live reader stopped (SIGSTOP) while a 1 MB log laps it several
 * times: once running again it says it was overrun and goes on.
 */
START_TEST(overrun)
{
	struct origin *o;
	struct vnd *v;
	struct live l;
	struct client *cl;
	struct req q;
	char hdrs[4096], *p;
	unsigned u;

	v = setup(&o, NULL, "vsl_space=1M");
	live_start(&l, "veneerlog", "-n", VND_Workdir(v), "-g", "request",
	    "-i", "ReqURL", NULL);
	live_sync(&l, v);
	cl = VND_Connect(v);
	ck_assert_int_eq(kill(l.pid, SIGSTOP), 0);
	/* 2 kB of headers, logged twice per request: 3+ laps. */
	for (p = hdrs, u = 0; u < 10; u++)
		p += snprintf(p, (size_t)(hdrs + sizeof hdrs - p), "X-Pad-%u: "
		    "%0200u\r\n", u, u);
	ck_assert_uint_lt((size_t)(p - hdrs), sizeof hdrs);
	for (u = 0; u < 800; u++)
		send_req(cl, &q, "/fill", hdrs);
	ck_assert_int_eq(kill(l.pid, SIGCONT), 0);
	live_wait(&l, 1, "log overrun", 1, HX_T_SLOW);
	live_wait(&l, 1, "skipped about", 1, HX_T_SLOW);
	/* And it goes on. */
	send_req(cl, &q, "/after", NULL);
	live_wait(&l, 0, "/after", 1, HX_T_SLOW);
	live_wait(&l, 1, "log reacquired", 1, HX_T_SLOW);
	CLIENT_Free(&cl);
	live_stop(&l);
	VND_Finish(&v, &o);
}
END_TEST

/* Kill the child: both tools say so and read the new child's log. */
START_TEST(reattach)
{
	struct origin *o;
	struct vnd *v;
	struct live lg, nc;
	struct client *cl;
	struct req q;
	pid_t child;

	v = setup(&o, NULL, NULL);
	VND_ExpectChildDeath(v);
	live_start(&lg, "veneerlog", "-n", VND_Workdir(v), "-i", "ReqURL",
	    NULL);
	live_start(&nc, "veneerncsa", "-n", VND_Workdir(v), "-F", "%U",
	    NULL);
	live_sync(&lg, v);
	live_sync(&nc, v);
	child = VND_ChildPid(v);
	ck_assert_int_eq(kill(child, SIGKILL), 0);
	(void)VND_WaitChildPidChange(v, child, HX_T_SLOW);
	VND_WaitListen(v);
	live_wait(&lg, 1, "log abandoned, reattaching", 1, HX_T_SLOW);
	live_wait(&nc, 1, "log abandoned, reattaching", 1, HX_T_SLOW);
	live_wait(&lg, 1, "log reacquired", 1, HX_T_SLOW);
	live_wait(&nc, 1, "log reacquired", 1, HX_T_SLOW);
	cl = VND_Connect(v);
	send_req(cl, &q, "/after", NULL);
	CLIENT_Free(&cl);
	live_wait(&lg, 0, "/after", 1, HX_T_SLOW);
	live_wait(&nc, 0, "/after\n", 1, HX_T_SLOW);
	live_stop(&lg);
	live_stop(&nc);
	VND_Finish(&v, &o);
}
END_TEST

/* -D -P -w: a daemon; SIGHUP after a move writes a new file. */
START_TEST(daemon_rotate)
{
	struct origin *o;
	struct vnd *v;
	struct client *cl;
	struct req q;
	struct run r;
	char *dir, log[4096], old[4096], pidf[4096], *s;
	pid_t pid;

	v = setup(&o, NULL, NULL);
	dir = HX_TempDir("rotate");
	(void)snprintf(log, sizeof log, "%s/access.log", dir);
	(void)snprintf(old, sizeof old, "%s/access.log.1", dir);
	(void)snprintf(pidf, sizeof pidf, "%s/ncsa.pid", dir);
	run_ok(&r, vl_dir, "veneerncsa", "-n", VND_Workdir(v), "-D", "-P",
	    pidf, "-w", log, "-F", "%U %s", NULL);
	run_free(&r);
	pid = HX_WaitPidfile(pidf, HX_T_SLOW);
	HX_RegisterPid(pid);
	cl = VND_Connect(v);
	send_req(cl, &q, "/one", NULL);
	/* Written when idle: wait for it. */
	for (s = NULL; s == NULL || strstr(s, "/one 200\n") == NULL; ) {
		free(s);
		ck_assert_int_eq(kill(pid, 0), 0);
		(void)poll(NULL, 0, 20);
		s = HX_ReadFile(log, NULL);
	}
	free(s);
	ck_assert_int_eq(rename(log, old), 0);
	ck_assert_int_eq(kill(pid, SIGHUP), 0);
	/* Reopened: the new file appears (empty). */
	while (access(log, F_OK) != 0)
		(void)poll(NULL, 0, 10);
	send_req(cl, &q, "/two", NULL);
	for (s = NULL; s == NULL || strstr(s, "/two 200\n") == NULL; ) {
		free(s);
		(void)poll(NULL, 0, 20);
		s = HX_ReadFile(log, NULL);
	}
	ck_assert_str_eq(s, "/two 200\n");
	free(s);
	s = HX_ReadFile(old, NULL);
	ck_assert_str_eq(s, "/one 200\n");
	free(s);
	CLIENT_Free(&cl);
	ck_assert_int_eq(kill(pid, SIGTERM), 0);
	HX_WaitGone(pid, HX_T_SLOW);
	ck_assert_msg(access(pidf, F_OK) != 0, "the pid file stayed");
	HX_RemoveTree(dir);
	free(dir);
	VND_Finish(&v, &o);
}
END_TEST

/* No veneerd: a message and exit 1 at once with -t 0. */
START_TEST(no_daemon)
{
	static const char * const tools[] = { "veneerlog", "veneerncsa" };
	char *dir;
	struct run r;
	double t0;
	unsigned u;

	dir = HX_TempDir("nothing");
	for (u = 0; u < 2; u++) {
		t0 = HX_Now();
		run(&r, vl_dir, tools[u], "-n", dir, "-t", "0", "-d", NULL);
		ck_assert_msg(r.status == 1, "%s: status %d", tools[u],
		    r.status);
		ck_assert_msg(HX_Now() - t0 < 2, "%s took %.1f s", tools[u],
		    HX_Now() - t0);
		ck_assert_msg(strstr(r.err, "no running veneerd in") != NULL,
		    "%s: %s", tools[u], r.err);
		ck_assert_str_eq(r.out, "");
		run_free(&r);
		/* Bad options: exit 1 too, with a message. */
		run(&r, vl_dir, tools[u], "-t", "soon", NULL);
		ck_assert_int_eq(r.status, 1);
		ck_assert_ptr_nonnull(strstr(r.err, "-t soon"));
		run_free(&r);
	}
	HX_RemoveTree(dir);
	free(dir);
}
END_TEST

/*--------------------------------------------------------------------
 * Against Debian's varnishlog and varnishncsa 7.1.
 */

static int
vn_skip(void)
{

	if (vn_why[0] == '\0')
		return (0);
	HX_Skip("not compared with Varnish's tools: %s", vn_why);
	return (1);
}

START_TEST(same_as_varnish)
{
	static const char * const groupings[] = { "vxid", "request",
	    "session", "raw" };
	struct req q[VL_N];
	struct origin *o;
	struct vnd *v;
	struct run a, b;
	unsigned u;

	if (vn_skip())
		return;
	v = setup(&o, q, NULL);
	for (u = 0; u < 4; u++) {
		run_ok(&a, vn_dir, "varnishlog", "-n", VND_Workdir(v), "-d",
		    "-g", groupings[u], NULL);
		run_ok(&b, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d",
		    "-g", groupings[u], NULL);
		ck_assert_msg(!strcmp(a.out, b.out), "-g %s differs:\n%.1500s"
		    "\n---\n%.1500s", groupings[u], a.out, b.out);
		run_free(&a);
		run_free(&b);
	}
	run_ok(&a, vn_dir, "varnishlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-q", "ReqURL ~ \"/x\" and RespStatus == 200", NULL);
	run_ok(&b, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-q", "ReqURL ~ \"/x\" and RespStatus == 200", NULL);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_uint_gt(strlen(a.out), 100);
	run_free(&a);
	run_free(&b);
	run_ok(&a, vn_dir, "varnishncsa", "-n", VND_Workdir(v), "-d", NULL);
	run_ok(&b, vl_dir, "veneerncsa", "-n", VND_Workdir(v), "-d", NULL);
	ck_assert_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
	run_ok(&a, vn_dir, "varnishncsa", "-n", VND_Workdir(v), "-d", "-b",
	    "-c", "-F", "%{Varnish:side}x %h %m %U%q %s %b %I %O", NULL);
	run_ok(&b, vl_dir, "veneerncsa", "-n", VND_Workdir(v), "-d", "-b",
	    "-c", "-F", "%{Varnish:side}x %h %m %U%q %s %b %I %O", NULL);
	ck_assert_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
	VND_Finish(&v, &o);
}
END_TEST

/* Each reads the other's -w files. */
START_TEST(files_interchange)
{
	struct req q[VL_N];
	struct origin *o;
	struct vnd *v;
	struct run a, b;
	char *dir, ours[4096], theirs[4096];
	char *ours_bin, *theirs_bin;
	size_t la, lb;

	if (vn_skip())
		return;
	v = setup(&o, q, NULL);
	dir = HX_TempDir("interchange");
	(void)snprintf(ours, sizeof ours, "%s/ours.log", dir);
	(void)snprintf(theirs, sizeof theirs, "%s/theirs.log", dir);
	run_ok(&a, vl_dir, "veneerlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-w", ours, NULL);
	run_free(&a);
	run_ok(&a, vn_dir, "varnishlog", "-n", VND_Workdir(v), "-d", "-g",
	    "request", "-w", theirs, NULL);
	run_free(&a);
	/* Byte for byte the same file... */
	ours_bin = HX_ReadFile(ours, &la);
	theirs_bin = HX_ReadFile(theirs, &lb);
	ck_assert(ours_bin != NULL && theirs_bin != NULL);
	ck_assert_uint_eq(la, lb);
	ck_assert_int_eq(memcmp(ours_bin, theirs_bin, la), 0);
	free(ours_bin);
	free(theirs_bin);
	/* ...and each tool reads the other's. */
	run_ok(&a, vn_dir, "varnishlog", "-r", ours, "-g", "request", NULL);
	run_ok(&b, vl_dir, "veneerlog", "-r", theirs, "-g", "request", NULL);
	ck_assert_str_eq(a.out, b.out);
	ck_assert_uint_gt(strlen(a.out), 1000);
	run_free(&a);
	run_free(&b);
	HX_RemoveTree(dir);
	free(dir);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------*/

/* Decided before the tests fork: where the tools are. */
static void
find_tools(void)
{
	const char *b, *lib, *old, *p, *e;
	char path[4096];
	size_t n, u, k;

	b = getenv("VENEER_BUILDDIR");
	if (b == NULL || *b == '\0')
		b = ".";
	(void)snprintf(vl_dir, sizeof vl_dir, "%s", b);
	/* Varnish's: VENEER_VARNISH_BIN, or PATH. */
	p = getenv("VENEER_VARNISH_BIN");
	if (p != NULL && *p != '\0')
		(void)snprintf(vn_dir, sizeof vn_dir, "%s", p);
	for (p = getenv("PATH"); vn_dir[0] == '\0' && p != NULL && *p != '\0';
	    p = *e == ':' ? e + 1 : e) {
		e = p + strcspn(p, ":");
		(void)snprintf(path, sizeof path, "%.*s/varnishncsa",
		    (int)(e - p), p);
		if (e > p && access(path, X_OK) == 0)
			(void)snprintf(vn_dir, sizeof vn_dir, "%.*s",
			    (int)(e - p), p);
	}
	(void)snprintf(path, sizeof path, "%s/varnishlog", vn_dir);
	if (vn_dir[0] == '\0')
		(void)snprintf(vn_why, sizeof vn_why, "varnishlog is not on "
		    "PATH and VENEER_VARNISH_BIN is not set (Debian package "
		    "varnish, 7.1)");
	else if (access(path, X_OK) != 0)
		(void)snprintf(vn_why, sizeof vn_why, "no varnishlog in %s",
		    vn_dir);
	/* Their libraries, if unpacked apart. */
	lib = getenv("VENEER_VARNISH_LIB");
	old = getenv("LD_LIBRARY_PATH");
	for (n = 0; environ[n] != NULL; n++)
		continue;
	vl_envp = calloc(n + 2, sizeof *vl_envp);
	if (vl_envp == NULL)
		abort();		/* not in a test yet: no ck_assert */
	for (u = k = 0; u < n; u++)
		if (lib == NULL || *lib == '\0' ||
		    strncmp(environ[u], "LD_LIBRARY_PATH=", 16) != 0)
			vl_envp[k++] = environ[u];
	if (lib != NULL && *lib != '\0' && asprintf(&vl_envp[k++],
	    "LD_LIBRARY_PATH=%s%s%s", lib, old != NULL && *old != '\0' ?
	    ":" : "", old != NULL ? old : "") < 0)
		abort();
}

/* Varnish 7.1's, since the log layout is 7.1's. */
static void
check_varnish_version(void)
{
	struct run r;
	char *argv[3], path[4096];
	static char dash_v[] = "-V";

	if (vn_why[0] != '\0')
		return;
	(void)snprintf(path, sizeof path, "%s/varnishlog", vn_dir);
	argv[0] = path;
	argv[1] = dash_v;
	argv[2] = NULL;
	run_argv(&r, argv, VL_T_TOOL);
	if (r.status != 0 || (strstr(r.out, "varnish-7.1.") == NULL &&
	    strstr(r.err, "varnish-7.1.") == NULL))
		(void)snprintf(vn_why, sizeof vn_why, "%.2000s -V is not "
		    "Varnish 7.1: %.100s%.100s", path, r.out, r.err);
	run_free(&r);
}

static Suite *
veneerlog_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("veneerlog");
	tc = tcase_create("tools");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, request_query);
	tcase_add_test(tc, issue_0011_connection_named_logged_unset);
	tcase_add_test(tc, issue_0013_vcl_time);
	tcase_add_test(tc, issue_0014_vsl_mask_live);
	tcase_add_test(tc, ncsa_lines);
	tcase_add_test(tc, pipe_accounted_once);
	tcase_add_test(tc, file_round_trip);
	tcase_add_test(tc, overrun);
	tcase_add_test(tc, reattach);
	tcase_add_test(tc, daemon_rotate);
	tcase_add_test(tc, no_daemon);
	suite_add_tcase(s, tc);
	tc = tcase_create("varnish");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, check_varnish_version, NULL);
	tcase_add_test(tc, same_as_varnish);
	tcase_add_test(tc, files_interchange);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	find_tools();
	return (HX_Run(veneerlog_suite()));
}

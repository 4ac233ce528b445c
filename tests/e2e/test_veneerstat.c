/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_veneerstat.c -- issue #4, end to end: veneerstat against a real
 * veneerd.  After N requests, -1, -j, -p and -l each show
 * MAIN.client_req = N in their format (the JSON is checked with
 * libveneerapi's own parser, compiled in); after the child is killed and
 * restarted the counters start again; with no veneerd, or a crashed one,
 * it exits 1 with a message, at once with -t 0; bad options exit 2; and
 * the screen, run under a pseudo-terminal of 80x24 and 40x10 and resized,
 * draws the counters and quits cleanly on 'q'.
 *
 * veneerstat is $VENEER_BUILDDIR/veneerstat.  Every run has a deadline;
 * nothing sleeps to synchronize.
 */

#include "config.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lib/harness.h"
#include "vapi.h"
#include "vsm/vapi_json.h"

extern char **environ;

#define VS_T_TOOL	10.0		/* one run of veneerstat */
#define VS_NREQ		7
#define VS_MAXARG	12

/*--------------------------------------------------------------------
 * Running veneerstat.
 */

struct vs_run {
	int		status;		/* exit status; 128 + signal */
	char		*out;
	char		*err;
	double		took;		/* seconds */
};

static void
vs_run_free(struct vs_run *r)
{

	free(r->out);
	free(r->err);
	memset(r, 0, sizeof *r);
}

static const char *
vs_tool(void)
{
	static char path[4096];
	const char *b = getenv("VENEER_BUILDDIR");

	ck_assert_msg(b != NULL && *b != '\0', "VENEER_BUILDDIR is not set "
	    "(run through make check)");
	(void)snprintf(path, sizeof path, "%s/veneerstat", b);
	ck_assert_msg(access(path, X_OK) == 0, "%s: %s", path,
	    strerror(errno));
	return (path);
}

/* Read what fd has into *buf; 0 at EOF or error. */
static int
vs_drain(int fd, char **buf, size_t *len)
{
	char tmp[8192];
	ssize_t n;

	n = read(fd, tmp, sizeof tmp);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return (1);
	if (n <= 0)
		return (0);
	*buf = realloc(*buf, *len + (size_t)n + 1);
	ck_assert_ptr_nonnull(*buf);
	memcpy(*buf + *len, tmp, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return (1);
}

/* veneerstat ARGS... (NULL-terminated); fails the test on timeout. */
static void
vs_run(struct vs_run *r, ...)
{
	char *argv[VS_MAXARG + 2];
	struct pollfd pfd[2];
	size_t len[2] = { 0, 0 };
	char *buf[2] = { NULL, NULL };
	int po[2], pe[2], open_n = 2, st, i;
	double t0, deadline;
	va_list ap;
	pid_t pid;

	memset(r, 0, sizeof *r);
	argv[0] = (char *)(uintptr_t)vs_tool();
	va_start(ap, r);
	for (i = 1; i <= VS_MAXARG; i++)
		if ((argv[i] = va_arg(ap, char *)) == NULL)
			break;
	va_end(ap);
	ck_assert_int_le(i, VS_MAXARG);
	ck_assert_int_eq(pipe2(po, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(pe, O_CLOEXEC), 0);
	t0 = HX_Now();
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		st = open("/dev/null", O_RDONLY);
		(void)dup2(st, 0);
		(void)dup2(po[1], 1);
		(void)dup2(pe[1], 2);
		(void)execve(argv[0], argv, environ);
		_exit(127);
	}
	(void)close(po[1]);
	(void)close(pe[1]);
	pfd[0].fd = po[0];
	pfd[1].fd = pe[0];
	buf[0] = strdup("");
	buf[1] = strdup("");
	deadline = t0 + VS_T_TOOL;
	while (open_n > 0 && HX_Now() < deadline) {
		pfd[0].events = pfd[1].events = POLLIN;
		if (poll(pfd, 2, HXC_PollMs(deadline)) <= 0)
			continue;
		for (i = 0; i < 2; i++)
			if (pfd[i].fd >= 0 && pfd[i].revents != 0 &&
			    !vs_drain(pfd[i].fd, &buf[i], &len[i])) {
				(void)close(pfd[i].fd);
				pfd[i].fd = -1;
				open_n--;
			}
	}
	if (open_n > 0)
		(void)kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		continue;
	for (i = 0; i < 2; i++)
		if (pfd[i].fd >= 0)
			(void)close(pfd[i].fd);
	r->took = HX_Now() - t0;
	r->out = buf[0];
	r->err = buf[1];
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	ck_assert_msg(open_n == 0, "veneerstat %s ran past %.0f s; stderr: "
	    "%.500s", argv[1], VS_T_TOOL, r->err);
}

/* A run that must succeed. */
#define VS_OK(r, ...)							\
	do {								\
		vs_run(r, __VA_ARGS__, NULL);				\
		ck_assert_msg((r)->status == 0, "veneerstat exited %d: "\
		    "%.800s", (r)->status, (r)->err);			\
	} while (0)

/* The value of name in -1 output: "name value rate description". */
static int
vs_one_value(const char *out, const char *name, uint64_t *val)
{
	const char *p;
	size_t l = strlen(name);
	uintmax_t v;

	for (p = out; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, name, l) != 0 || p[l] != ' ')
			continue;
		if (sscanf(p + l, "%ju", &v) != 1)
			return (-1);
		*val = v;
		return (0);
	}
	return (-1);
}

/*--------------------------------------------------------------------
 * A veneerd that served N requests.
 */

static struct vnd *
vs_setup(struct origin **op, unsigned n)
{
	struct client *cl;
	struct hx_msg *m;
	struct vnd *v;
	char url[64];
	unsigned u;

	*op = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(*op), "vsl_space=4M", NULL);
	cl = VND_Connect(v);
	for (u = 0; u < n; u++) {
		(void)snprintf(url, sizeof url, "/stat/%u", u);
		m = CLIENT_Fetch(cl, "GET", url, NULL, HX_T_RESP);
		ck_assert_int_eq(m->status, 200);
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	(void)VND_WaitCounter(v, "client_req", "==", n, HX_T_RESP);
	return (v);
}

START_TEST(stat_one)
{
	struct origin *o;
	struct vnd *v;
	struct vs_run r;
	uint64_t val;
	char want[128];

	v = vs_setup(&o, VS_NREQ);
	VS_OK(&r, "-n", VND_Workdir(v), "-1", "-f", "MAIN.client_req");
	/* Exactly one line, in varnishstat -1's columns. */
	(void)snprintf(want, sizeof want, "MAIN.client_req   %12u ",
	    VS_NREQ);
	ck_assert_msg(strncmp(r.out, want, strlen(want)) == 0 &&
	    strchr(r.out, '\n') == r.out + strlen(r.out) - 1,
	    "veneerstat -1 -f MAIN.client_req printed:\n%.1000s", r.out);
	vs_run_free(&r);

	/* Everything: MGT first, then MAIN; rates against MAIN.uptime. */
	VS_OK(&r, "-n", VND_Workdir(v), "-1");
	ck_assert_msg(strncmp(r.out, "MGT.uptime ", 11) == 0, "first line: "
	    "%.200s", r.out);
	ck_assert_int_eq(vs_one_value(r.out, "MAIN.client_req", &val), 0);
	ck_assert_uint_eq(val, VS_NREQ);
	ck_assert_int_eq(vs_one_value(r.out, "MGT.child_start", &val), 0);
	ck_assert_uint_eq(val, 1);
	ck_assert_ptr_nonnull(strstr(r.out, "\nMAIN.uptime "));
	vs_run_free(&r);

	/* Exclusions: the first match decides. */
	VS_OK(&r, "-n", VND_Workdir(v), "-1", "-f", "^MAIN.client_req",
	    "-f", "MAIN.client_*");
	ck_assert_int_eq(vs_one_value(r.out, "MAIN.client_req", &val), -1);
	ck_assert_ptr_null(strstr(r.out, "MGT."));
	ck_assert_ptr_nonnull(strstr(r.out, "MAIN.client_"));
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/* The JSON, parsed: the shape of varnishstat -j. */
START_TEST(stat_json)
{
	const struct vjson *c, *m, *e, *k;
	struct origin *o;
	struct vjson *j;
	struct vnd *v;
	struct vs_run r;
	char err[256];
	uint64_t val;
	unsigned n = 0;

	v = vs_setup(&o, VS_NREQ);
	VS_OK(&r, "-n", VND_Workdir(v), "-j");
	j = VJSON_Parse(r.out, strlen(r.out), err, sizeof err);
	ck_assert_msg(j != NULL, "veneerstat -j is not JSON (%s):\n%.2000s",
	    err, r.out);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "version"), &val), 0);
	ck_assert_uint_eq(val, 1);
	m = VJSON_Member(j, "timestamp");
	ck_assert_msg(m != NULL && m->type == VJSON_STRING &&
	    strlen(m->str) == 19 && m->str[10] == 'T', "timestamp");
	c = VJSON_Member(j, "counters");
	ck_assert_msg(c != NULL && c->type == VJSON_OBJECT, "no counters");
	for (e = c->child; e != NULL; e = e->next) {
		n++;
		ck_assert_int_eq(e->type, VJSON_OBJECT);
		k = VJSON_Member(e, "description");
		ck_assert_msg(k != NULL && k->type == VJSON_STRING, "%s: "
		    "description", e->key);
		k = VJSON_Member(e, "flag");
		ck_assert_msg(k != NULL && k->type == VJSON_STRING &&
		    strlen(k->str) == 1 && strchr("cgb", k->str[0]) != NULL,
		    "%s: flag", e->key);
		k = VJSON_Member(e, "format");
		ck_assert_msg(k != NULL && k->type == VJSON_STRING &&
		    strlen(k->str) == 1 && strchr("iBdb", k->str[0]) != NULL,
		    "%s: format", e->key);
		ck_assert_msg(VJSON_Uint(VJSON_Member(e, "value"), &val) == 0,
		    "%s: value", e->key);
	}
	ck_assert_uint_gt(n, 20);
	ck_assert_str_eq(c->child->key, "MGT.uptime");
	m = VJSON_Member(c, "MAIN.client_req");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(m, "value"), &val), 0);
	ck_assert_uint_eq(val, VS_NREQ);
	ck_assert_str_eq(VJSON_Member(m, "flag")->str, "c");
	ck_assert_str_eq(VJSON_Member(m, "format")->str, "i");
	VJSON_Free(&j);
	vs_run_free(&r);

	/* No counter: still JSON, an empty "counters". */
	VS_OK(&r, "-n", VND_Workdir(v), "-j", "-f", "nothing.at.all");
	j = VJSON_Parse(r.out, strlen(r.out), err, sizeof err);
	ck_assert_msg(j != NULL, "%s:\n%.500s", err, r.out);
	ck_assert_ptr_null(VJSON_Member(j, "counters")->child);
	VJSON_Free(&j);
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/* Each family: one HELP, one TYPE, then its samples; names valid. */
static void
vs_check_prom(const char *out)
{
	char fam[256], prev[256] = "", line[1024];
	const char *p, *nl;
	size_t l;
	int state = 0;		/* 0 want HELP, 1 want TYPE, 2 samples */

	for (p = out; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		ck_assert_msg(nl != NULL, "last line unterminated");
		l = (size_t)(nl - p) < sizeof line ? (size_t)(nl - p) :
		    sizeof line - 1;
		memcpy(line, p, l);
		line[l] = '\0';
		if (!strncmp(line, "# HELP ", 7)) {
			ck_assert_msg(sscanf(line + 7, "%255s", fam) == 1,
			    "%s", line);
			ck_assert_msg(strcmp(fam, prev) != 0, "second HELP "
			    "for %s", fam);
			(void)snprintf(prev, sizeof prev, "%s", fam);
			state = 1;
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			ck_assert_msg(state == 1, "TYPE without HELP: %s",
			    line);
			ck_assert_msg(strncmp(line + 7, fam, strlen(fam)) == 0,
			    "%s after HELP %s", line, fam);
			state = 2;
			continue;
		}
		ck_assert_msg(state == 2 && !strncmp(line, fam, strlen(fam))
		    && (line[strlen(fam)] == ' ' || line[strlen(fam)] == '{'),
		    "sample outside its family (%s): %s", fam, line);
		ck_assert_msg(strspn(fam, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(fam),
		    "bad metric name %s", fam);
	}
}


/*
 * Each counter's format, as the counter segments describe it (their JSON,
 * read through libveneerapi) and as -j shows it: Varnish 7.1's format
 * for each counter Varnish has.  The format once was guessed from the
 * name, which made s_pipe_in and s_pipe_out integers.
 */
static const struct {
	const char	*name;
	const char	*format;
	const char	*letter;	/* -j */
} vs_formats[] = {
	{ "MGT.uptime",			"duration",	"d" },
	{ "MAIN.uptime",		"duration",	"d" },
	{ "MAIN.client_req",		"integer",	"i" },
	{ "MAIN.s_pipe_in",		"bytes",	"B" },
	{ "MAIN.s_pipe_out",		"bytes",	"B" },
	{ "MAIN.s_pipe_hdrbytes",	"bytes",	"B" },
	{ "MAIN.s_req_hdrbytes",	"bytes",	"B" },
	{ "MAIN.s_req_bodybytes",	"bytes",	"B" },
	{ "MAIN.s_resp_hdrbytes",	"bytes",	"B" },
	{ "MAIN.s_resp_bodybytes",	"bytes",	"B" },
	{ "MAIN.n_object",		"integer",	"i" },
	{ "SMA.s0.c_req",		"integer",	"i" },
	{ "SMA.s0.c_bytes",		"bytes",	"B" },
	{ "SMA.s0.c_freed",		"bytes",	"B" },
	{ "SMA.s0.g_alloc",		"integer",	"i" },
	{ "SMA.s0.g_bytes",		"bytes",	"B" },
	{ "SMA.s0.g_space",		"bytes",	"B" },
};
#define VS_NFORMATS	(sizeof vs_formats / sizeof vs_formats[0])

struct vs_seen {
	const char	*format[VS_NFORMATS];	/* strdup'ed */
};

static int
vs_seen_format(void *priv, const struct vapi_counter *c)
{
	struct vs_seen *seen = priv;
	size_t u;

	for (u = 0; u < VS_NFORMATS; u++)
		if (!strcmp(c->name, vs_formats[u].name)) {
			ck_assert_ptr_null(seen->format[u]);
			seen->format[u] = strdup(c->format);
			ck_assert_ptr_nonnull(seen->format[u]);
		}
	return (0);
}

START_TEST(stat_formats)
{
	const struct vjson *c, *m;
	struct vs_seen seen;
	struct origin *o;
	struct vjson *j;
	struct vapi *vd;
	struct vnd *v;
	struct vs_run r;
	char err[256];
	size_t u;

	v = vs_setup(&o, 1);
	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	ck_assert_msg(VAPI_SetWorkdir(vd, VND_Workdir(v)) == 0 &&
	    VAPI_Attach(vd, HX_T_RESP) == 0, "attach: %s", VAPI_Error(vd));
	memset(&seen, 0, sizeof seen);
	ck_assert_int_eq(VAPI_Counters(vd, vs_seen_format, &seen), 0);
	VAPI_Free(&vd);
	for (u = 0; u < VS_NFORMATS; u++) {
		ck_assert_msg(seen.format[u] != NULL, "%s not published",
		    vs_formats[u].name);
		ck_assert_msg(!strcmp(seen.format[u], vs_formats[u].format),
		    "%s: format \"%s\" in its description, want \"%s\"",
		    vs_formats[u].name, seen.format[u], vs_formats[u].format);
		free((void *)(uintptr_t)seen.format[u]);
	}

	VS_OK(&r, "-n", VND_Workdir(v), "-j");
	j = VJSON_Parse(r.out, strlen(r.out), err, sizeof err);
	ck_assert_msg(j != NULL, "-j is not JSON (%s)", err);
	c = VJSON_Member(j, "counters");
	ck_assert_ptr_nonnull(c);
	for (u = 0; u < VS_NFORMATS; u++) {
		m = VJSON_Member(c, vs_formats[u].name);
		ck_assert_msg(m != NULL, "-j has no %s", vs_formats[u].name);
		ck_assert_msg(!strcmp(VJSON_Member(m, "format")->str,
		    vs_formats[u].letter), "-j: %s has format \"%s\", want "
		    "\"%s\"", vs_formats[u].name,
		    VJSON_Member(m, "format")->str, vs_formats[u].letter);
	}
	VJSON_Free(&j);
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST
START_TEST(stat_prometheus)
{
	struct origin *o;
	struct vnd *v;
	struct vs_run r;
	char want[128];

	v = vs_setup(&o, VS_NREQ);
	VS_OK(&r, "-n", VND_Workdir(v), "-p");
	(void)snprintf(want, sizeof want, "\nveneer_main_client_req %u\n",
	    VS_NREQ);
	ck_assert_msg(strstr(r.out, want) != NULL, "no \"%s\" in:\n%.1500s",
	    want + 1, r.out);
	ck_assert_ptr_nonnull(strstr(r.out,
	    "# HELP veneer_main_client_req "));
	ck_assert_ptr_nonnull(strstr(r.out,
	    "# TYPE veneer_main_client_req counter\n"));
	ck_assert_ptr_nonnull(strstr(r.out,
	    "# TYPE veneer_mgt_uptime counter\n"));
	ck_assert_msg(strncmp(r.out, "# HELP veneer_mgt_uptime ", 25) == 0,
	    "%.200s", r.out);
	vs_check_prom(r.out);
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(stat_list)
{
	static const char head[] = "Veneerstat -f option fields:\n"
	    "Field name                     Description\n"
	    "----------                     -----------\n";
	struct origin *o;
	struct vnd *v;
	struct vs_run r;

	v = vs_setup(&o, 1);
	VS_OK(&r, "-n", VND_Workdir(v), "-l");
	ck_assert_msg(strncmp(r.out, head, sizeof head - 1) == 0,
	    "%.300s", r.out);
	ck_assert_ptr_nonnull(strstr(r.out, "\nMAIN.client_req "));
	ck_assert_ptr_nonnull(strstr(r.out, "\nMGT.uptime "));
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(stat_child_restart)
{
	struct origin *o;
	struct vnd *v;
	struct vs_run r;
	uint64_t val, mgt_up, main_up;
	double deadline;
	pid_t old;

	v = vs_setup(&o, VS_NREQ);
	VND_ExpectChildDeath(v);
	/* A child old enough that a new one's uptime is visibly less. */
	(void)VND_WaitCounter(v, "uptime", ">=", 2, HX_T_SLOW);
	old = VND_ChildPid(v);
	ck_assert_int_eq(kill(old, SIGKILL), 0);
	HX_WaitGone(old, HX_T_RESP);
	(void)VND_WaitChildPidChange(v, old, HX_T_SLOW);

	/*
	 * The new child lists its counters when it is ready, and the
	 * manager counts its start once the child has answered: wait for
	 * both.
	 */
	deadline = HX_Now() + HX_T_SLOW;
	for (;;) {
		VS_OK(&r, "-n", VND_Workdir(v), "-1");
		if ((vs_one_value(r.out, "MAIN.uptime", &main_up) == 0 &&
		    vs_one_value(r.out, "MGT.child_start", &val) == 0 &&
		    val == 2) || HX_Now() > deadline)
			break;
		vs_run_free(&r);
	}
	ck_assert_msg(vs_one_value(r.out, "MAIN.uptime", &main_up) == 0,
	    "no MAIN counters after the restart:\n%.1000s", r.out);
	ck_assert_int_eq(vs_one_value(r.out, "MGT.uptime", &mgt_up), 0);
	ck_assert_int_eq(vs_one_value(r.out, "MAIN.client_req", &val), 0);
	ck_assert_uint_eq(val, 0);
	ck_assert_msg(main_up < mgt_up, "MAIN.uptime %ju, MGT.uptime %ju",
	    (uintmax_t)main_up, (uintmax_t)mgt_up);
	ck_assert_int_eq(vs_one_value(r.out, "MGT.child_start", &val), 0);
	ck_assert_uint_eq(val, 2);
	ck_assert_int_eq(vs_one_value(r.out, "MGT.child_died", &val), 0);
	ck_assert_uint_eq(val, 1);
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(stat_no_daemon)
{
	struct vs_run r;
	char *dir, path[4096];

	dir = HX_TempDir("vstat");
	(void)snprintf(path, sizeof path, "%s/none", dir);
	vs_run(&r, "-n", path, "-t", "0", "-1", NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "no running veneerd in") != NULL &&
	    strstr(r.err, path) != NULL && strstr(r.err, "-n") != NULL,
	    "message: %s", r.err);
	ck_assert_msg(r.took < 3, "-t 0 took %.1f s", r.took);
	ck_assert_str_eq(r.out, "");
	vs_run_free(&r);

	/* The workdir is there, veneerd is not. */
	vs_run(&r, "-n", dir, "-t", "0.3", "-j", NULL);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "_.vsm_mgt") != NULL &&
	    strstr(r.err, "after 0.3 s") != NULL, "message: %s", r.err);
	ck_assert_msg(r.took >= 0.3 && r.took < 3, "-t 0.3 took %.1f s",
	    r.took);
	vs_run_free(&r);
	HX_RemoveTree(dir);
	free(dir);
}
END_TEST

/* veneerd killed outright leaves its files: the pid tells. */
START_TEST(stat_crashed_daemon)
{
	struct origin *o;
	struct vnd *v;
	struct vs_run r;
	pid_t child;

	v = vs_setup(&o, 1);
	VND_ExpectChildDeath(v);
	child = VND_ChildPid(v);
	VND_Kill(v, SIGKILL);
	ck_assert_int_eq(VND_Wait(v, HX_T_SLOW), 128 + SIGKILL);
	HX_WaitGone(child, HX_T_SLOW);
	vs_run(&r, "-n", VND_Workdir(v), "-t", "0", "-1", NULL);
	ck_assert_msg(r.status == 1 && strstr(r.err, "gone") != NULL,
	    "status %d, stderr: %s", r.status, r.err);
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(stat_bad_options)
{
	static const char *const bad[][3] = {
		{ "-Z", NULL, NULL },
		{ "-t", "soon", NULL },
		{ "-t", "-1", NULL },
		{ "-f", "", NULL },
		{ "-1", "-j", NULL },
		{ "-n", NULL, NULL },
		{ "extra", NULL, NULL },
	};
	struct vs_run r;
	unsigned u;

	for (u = 0; u < sizeof bad / sizeof bad[0]; u++) {
		vs_run(&r, bad[u][0], bad[u][1], bad[u][2], NULL);
		ck_assert_msg(r.status == 2, "%s %s: status %d", bad[u][0],
		    bad[u][1] != NULL ? bad[u][1] : "", r.status);
		ck_assert_msg(strchr(r.err, '\n') == r.err + strlen(r.err) -
		    1 && !strncmp(r.err, "veneerstat: ", 12),
		    "not one line: %s", r.err);
		vs_run_free(&r);
	}
	VS_OK(&r, "-V");
	ck_assert_ptr_nonnull(strstr(r.out, "veneerstat (veneer-"));
	vs_run_free(&r);
	VS_OK(&r, "-h");
	ck_assert_ptr_nonnull(strstr(r.out, "Usage: veneerstat"));
	vs_run_free(&r);
}
END_TEST

/*--------------------------------------------------------------------
 * Escaping, on a workdir written here: a description with quotes,
 * backslashes and control characters, a backend name with a quote.
 * Varnish 7.1's varnishstat -j prints such text raw; we must not.
 */

static void
vs_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[4096];
	int fd;

	(void)snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	ck_assert_int_eq(close(fd), 0);
}

START_TEST(stat_escaping)
{
	static const char doc[] = "{\"elem\":{\"req\":{\"name\":\"req\","
	    "\"type\":\"counter\",\"level\":\"info\","
	    "\"format\":\"integer\",\"index\":0,\"docs\":\"\","
	    "\"oneliner\":\"Say \\\"hi\\\" \\\\ \\n\\t\\u0001 \\u00e9\"}}}";
	const char want[] = "Say \"hi\" \\ \n\t\001 \xc3\xa9";
	const struct vjson *m;
	char *dir, sub[4200], path[4300], buf[4096], err[256];
	uint64_t head[3], v = 42;
	int fd;
	struct vjson *j;
	struct vs_run r;
	size_t l;

	dir = HX_TempDir("vstat");
	(void)snprintf(sub, sizeof sub, "%s/_.vsm_mgt", dir);
	ck_assert_int_eq(mkdir(sub, 0750), 0);
	head[0] = 1;
	head[1] = 24;
	head[2] = 0x77;
	memcpy(buf, head, 24);
	memcpy(buf + 24, doc, sizeof doc);
	vs_file(sub, "_.StatDoc.1", buf, 24 + sizeof doc);
	memcpy(buf + 24, &v, 8);
	vs_file(sub, "_.Stat.1", buf, 32);
	l = (size_t)snprintf(buf, sizeof buf, "# %ld 1\n"
	    "+ _.StatDoc.1 0 %zu StatDoc 77\n"
	    "+ _.Stat.1 0 32 Stat VBE.v1.b\"x\\y\n", (long)getpid(),
	    24 + sizeof doc);
	(void)snprintf(path, sizeof path, "%s/_.index", sub);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, l), (ssize_t)l);
	ck_assert_int_eq(close(fd), 0);

	VS_OK(&r, "-n", dir, "-t", "0", "-j");
	j = VJSON_Parse(r.out, strlen(r.out), err, sizeof err);
	ck_assert_msg(j != NULL, "-j is not JSON (%s):\n%.1000s", err, r.out);
	m = VJSON_Member(VJSON_Member(j, "counters"), "VBE.v1.b\"x\\y.req");
	ck_assert_msg(m != NULL, "name lost:\n%.1000s", r.out);
	ck_assert_str_eq(VJSON_Member(m, "description")->str, want);
	VJSON_Free(&j);
	vs_run_free(&r);

	VS_OK(&r, "-n", dir, "-t", "0", "-p");
	ck_assert_msg(strstr(r.out, "\nveneer_backend_req{vcl=\"v1\","
	    "backend=\"b\\\"x\\\\y\"} 42\n") != NULL, "-p:\n%.1000s",
	    r.out);
	/* HELP escapes the backslash and the newline. */
	ck_assert_msg(strstr(r.out, "# HELP veneer_backend_req Say \"hi\" "
	    "\\\\ \\n\t\001 \xc3\xa9\n") != NULL, "-p:\n%.1000s", r.out);
	vs_check_prom(r.out);
	vs_run_free(&r);
	HX_RemoveTree(dir);
	free(dir);
}
END_TEST

/*--------------------------------------------------------------------
 * Issue 13: the VCL profile.  A cheap == and a costly regex over a long
 * header: the counters count each evaluation, each true, each call; the
 * costly condition leads the cost view; without vcl_profile there is no
 * VCLP group.
 */

#define VS_PROF_N	6

static struct vnd *
vs_prof_setup(struct origin **op, int on)
{
	struct client *cl;
	struct hx_msg *m;
	struct vnd *v;
	char *vcl, *alts, *hdr, *p;
	unsigned u;

	/* 300 alternatives no subject has, tried at each offset of 6 KB. */
	alts = HX_CostlyAlternation(300);
	*op = ORIGIN_New(NULL, NULL);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\n"
	    "backend default { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub note { set req.http.X-Noted = \"1\"; }\n"
	    "sub vcl_recv {\n"
	    "\tif (req.http.X-Cheap == \"go\") { call note; }\n"
	    "\tif (req.http.X-Long ~ \"(%s)\") { return (pass); }\n"
	    "\treturn (synth(200));\n"
	    "}\n", ORIGIN_Port(*op), alts), 0);
	free(alts);
	v = VND_New();
	VND_VclFile(v, "prof.vcl", vcl);
	free(vcl);
	VND_Param(v, "vcl_profile", on ? "on" : "off");
	VND_Param(v, "vsl_space", "4M");
	VND_Start(v);
	hdr = malloc(6000 + 64);
	ck_assert_ptr_nonnull(hdr);
	p = hdr + snprintf(hdr, 64, "X-Long: ");
	for (u = 0; u < 6000; u++)
		*p++ = (char)('a' + u % 26);
	(void)snprintf(p, 64, "\r\nX-Cheap: go\r\n");
	cl = VND_Connect(v);
	for (u = 0; u < VS_PROF_N; u++) {
		m = CLIENT_Fetch(cl, "GET", "/p", u % 2 ? hdr : hdr +
		    strlen(hdr) - 13, HX_T_RESP);
		ck_assert_int_eq(m->status, 200);
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	free(hdr);
	return (v);
}

START_TEST(issue_0013_vcl_profile_counters)
{
	struct origin *o;
	struct vnd *v;
	struct vs_run r;
	uint64_t val;
	const char *l;

	v = vs_prof_setup(&o, 1);
	VS_OK(&r, "-n", VND_Workdir(v), "-1", "-f", "VCLP.*");
	/* The method: once per request. */
	ck_assert_msg(vs_one_value(r.out, "VCLP.boot.vcl_recv.calls", &val) ==
	    0 && val == VS_PROF_N, "%.3000s", r.out);
	/* Point 14: the cheap test, every request, true in all six. */
	ck_assert_int_eq(vs_one_value(r.out, "VCLP.boot.vcl_recv.014.evals",
	    &val), 0);
	ck_assert_uint_eq(val, VS_PROF_N);
	ck_assert_int_eq(vs_one_value(r.out, "VCLP.boot.vcl_recv.014.true",
	    &val), 0);
	ck_assert_uint_eq(val, VS_PROF_N);
	/* 15: the call it makes. */
	ck_assert_int_eq(vs_one_value(r.out, "VCLP.boot.vcl_recv.015.calls",
	    &val), 0);
	ck_assert_uint_eq(val, VS_PROF_N);
	/* 16: the regex, every request, never true. */
	ck_assert_int_eq(vs_one_value(r.out, "VCLP.boot.vcl_recv.016.evals",
	    &val), 0);
	ck_assert_uint_eq(val, VS_PROF_N);
	ck_assert_int_eq(vs_one_value(r.out, "VCLP.boot.vcl_recv.016.true",
	    &val), 0);
	ck_assert_uint_eq(val, 0);
	/* Where and what, in the description. */
	l = strstr(r.out, "VCLP.boot.vcl_recv.014.evals ");
	ck_assert_ptr_nonnull(l);
	ck_assert_msg(strstr(l, "prof.vcl:5:6 if (req.http.X-Cheap == 'go') "
	    "in vcl_recv: ") != NULL, "%.500s", l);
	l = strstr(r.out, "VCLP.boot.vcl_recv.015.calls ");
	ck_assert_ptr_nonnull(l);
	ck_assert_msg(strstr(l, "prof.vcl:5:34 call note in vcl_recv") !=
	    NULL, "%.500s", l);
	ck_assert_msg(vs_one_value(r.out, "VCLP.boot.vcl_backend_fetch.calls",
	    &val) == 0 && val == 0, "%.3000s", r.out);
	vs_run_free(&r);
	VND_Finish(&v, &o);

	/* Off: nothing published, nothing listed. */
	v = vs_prof_setup(&o, 0);
	VS_OK(&r, "-n", VND_Workdir(v), "-1", "-f", "VCLP.*");
	ck_assert_msg(r.out[0] == '\0', "vcl_profile off, yet:\n%.1000s",
	    r.out);
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * The bench's heavy.vcl (seed 000's style) with the profile on: with a
 * long User-Agent that names no brand, the 130-brand mobile test of the
 * busiest site is the costliest condition.  Thirty requests, so that
 * what happens once (a first match, a page fault) weighs little.
 */
START_TEST(issue_0013_heavy_vcl_profile)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *m;
	struct vnd *v;
	struct vs_run r;
	char *text, *vcl, *at, *hdr, *p, desc[512], best[512];
	const char *l;
	uint64_t ns, max = 0, second = 0;
	unsigned u;
	size_t len;

	text = HX_ReadFile(VCL_SRCDIR "/tools/bench/vcl/heavy.vcl", &len);
	ck_assert_ptr_nonnull(text);
	at = strstr(text, "@PORT@");
	ck_assert_ptr_nonnull(at);
	o = ORIGIN_New(NULL, NULL);
	*at = '\0';
	ck_assert_int_gt(asprintf(&vcl, "%s%d%s", text, ORIGIN_Port(o),
	    at + 6), 0);
	free(text);
	v = VND_New();
	VND_VclFile(v, "heavy.vcl", vcl);
	free(vcl);
	VND_Param(v, "vcl_profile", "on");
	VND_Param(v, "vsl_space", "4M");
	VND_Start(v);
	hdr = malloc(6000 + 64);
	ck_assert_ptr_nonnull(hdr);
	p = hdr + snprintf(hdr, 64, "Host: www.example.com\r\nUser-Agent: ");
	for (u = 0; u < 6000; u++)
		*p++ = (char)('a' + u % 26);
	(void)snprintf(p, 8, "\r\n");
	cl = VND_Connect(v);
	for (u = 0; u < 30; u++) {
		m = CLIENT_Fetch(cl, "GET", "/a/page", hdr, HX_T_RESP);
		ck_assert_int_eq(m->status, 200);
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	free(hdr);
	VS_OK(&r, "-n", VND_Workdir(v), "-1", "-f", "VCLP.*.ns");
	/* The conditions: VCLP.boot.vcl_recv.NNN.ns, "... if (...) ...". */
	best[0] = '\0';
	for (l = r.out; *l != '\0'; l = strchr(l, '\n') + 1) {
		if (sscanf(l, "VCLP.boot.vcl_recv.%*u.ns %ju %*s %511[^\n]",
		    (uintmax_t *)&ns, desc) == 2 && strstr(desc, " if (") !=
		    NULL) {
			if (ns > max) {
				second = max;
				max = ns;
				(void)snprintf(best, sizeof best, "%s", desc);
			} else if (ns > second)
				second = ns;
		}
		if (strchr(l, '\n') == NULL)
			break;
	}
	/* Descriptions show " as ' (varnishstat -j does not escape). */
	ck_assert_msg(strstr(best, " if (req.http.host == "
	    "'www.example.com' && req.http.User-Agent ~ '") != NULL,
	    "costliest: %s\n%.3000s", best, r.out);
	ck_assert_msg(max > second, "%ju ns, next %ju ns", (uintmax_t)max,
	    (uintmax_t)second);
	vs_run_free(&r);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * The screen, in a pseudo-terminal.
 */

struct vs_pty {
	pid_t		pid;
	int		fd;
	char		*out;		/* everything drawn */
	size_t		len;
};

static void
vs_pty_start(struct vs_pty *p, unsigned short rows, unsigned short cols,
    char **argv)
{
	static char term[] = "TERM=xterm";
	struct winsize ws;
	char *envp[64];
	unsigned n = 0, u;

	memset(p, 0, sizeof *p);
	memset(&ws, 0, sizeof ws);
	ws.ws_row = rows;
	ws.ws_col = cols;
	/* Built before the fork: the child only execs. */
	for (u = 0; environ[u] != NULL && n < 62; u++)
		if (strncmp(environ[u], "TERM=", 5) != 0 &&
		    strncmp(environ[u], "LINES=", 6) != 0 &&
		    strncmp(environ[u], "COLUMNS=", 8) != 0)
			envp[n++] = environ[u];
	envp[n++] = term;
	envp[n] = NULL;
	p->pid = forkpty(&p->fd, NULL, NULL, &ws);
	ck_assert_msg(p->pid >= 0, "forkpty: %s", strerror(errno));
	if (p->pid == 0) {
		(void)execve(argv[0], argv, envp);
		_exit(127);
	}
	HX_RegisterPid(p->pid);
	p->out = strdup("");
}

/* Read until what was drawn since byte from holds s; 0 or -1. */
static int
vs_pty_wait(struct vs_pty *p, size_t from, const char *s, double timeout)
{
	struct pollfd pfd;
	double deadline = HX_Now() + timeout;

	while (strstr(p->out + from, s) == NULL) {
		if (HX_Now() >= deadline)
			return (-1);
		pfd.fd = p->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, HXC_PollMs(deadline)) <= 0)
			continue;
		if (!vs_drain(p->fd, &p->out, &p->len))
			return (strstr(p->out + from, s) != NULL ? 0 : -1);
	}
	return (0);
}

/* Wait for anything drawn after byte mark; 0 or -1. */
static int
vs_pty_more(struct vs_pty *p, size_t mark, double timeout)
{
	struct pollfd pfd;
	double deadline = HX_Now() + timeout;

	while (p->len <= mark) {
		if (HX_Now() >= deadline)
			return (-1);
		pfd.fd = p->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, HXC_PollMs(deadline)) > 0 &&
		    !vs_drain(p->fd, &p->out, &p->len))
			return (p->len > mark ? 0 : -1);
	}
	return (0);
}

/* Send keys, then wait for the exit; the exit status. */
static int
vs_pty_quit(struct vs_pty *p, const char *keys)
{
	double deadline = HX_Now() + HX_T_RESP;
	struct pollfd pfd;
	int st;
	pid_t r;

	ck_assert_int_eq(write(p->fd, keys, strlen(keys)),
	    (ssize_t)strlen(keys));
	for (;;) {
		r = waitpid(p->pid, &st, WNOHANG);
		if (r == p->pid)
			break;
		ck_assert_msg(HX_Now() < deadline, "veneerstat did not quit "
		    "on '%s'; screen:\n%.2000s", keys, p->out);
		pfd.fd = p->fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 50) > 0)
			(void)vs_drain(p->fd, &p->out, &p->len);
	}
	while (vs_drain(p->fd, &p->out, &p->len))
		continue;		/* The last of it: EIO once gone. */
	(void)close(p->fd);
	free(p->out);
	p->out = NULL;
	return (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

START_TEST(stat_screen)
{
	struct origin *o;
	struct vnd *v;
	struct vs_pty p;
	struct winsize ws;
	char *argv[8];
	size_t mark;

	v = vs_setup(&o, VS_NREQ);
	argv[0] = (char *)(uintptr_t)vs_tool();
	argv[1] = (char *)(uintptr_t)"-n";
	argv[2] = (char *)(uintptr_t)VND_Workdir(v);
	argv[3] = NULL;
	vs_pty_start(&p, 24, 80, argv);
	ck_assert_msg(vs_pty_wait(&p, 0, "MGT.uptime", HX_T_RESP) == 0 &&
	    vs_pty_wait(&p, 0, "Uptime child:", HX_T_RESP) == 0 &&
	    vs_pty_wait(&p, 0, "MAIN.uptime", HX_T_RESP) == 0,
	    "80x24: no counters drawn:\n%.3000s", p.out);
	/* The screen keeps going: the uptimes change every second. */
	mark = p.len;
	ck_assert_msg(vs_pty_more(&p, mark, 3) == 0,
	    "80x24: no refresh within 3 s");

	/* Shrunk to 40x10: drawn again at the new size. */
	memset(&ws, 0, sizeof ws);
	ws.ws_row = 10;
	ws.ws_col = 40;
	ck_assert_int_eq(ioctl(p.fd, TIOCSWINSZ, &ws), 0);
	(void)kill(p.pid, SIGWINCH);
	mark = p.len;
	ck_assert_msg(vs_pty_wait(&p, mark, "MGT.uptime", HX_T_RESP) == 0,
	    "40x10 after resize: not redrawn:\n%.3000s", p.out + mark);
	/* Keys: the bottom, verbosity, the top; then q. */
	ck_assert_int_eq(vs_pty_quit(&p, "Gvvvgq"), 0);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(stat_screen_small)
{
	struct origin *o;
	struct vnd *v;
	struct vs_pty p;
	char *argv[8];

	v = vs_setup(&o, VS_NREQ);
	argv[0] = (char *)(uintptr_t)vs_tool();
	argv[1] = (char *)(uintptr_t)"-n";
	argv[2] = (char *)(uintptr_t)VND_Workdir(v);
	argv[3] = (char *)(uintptr_t)"-f";
	argv[4] = (char *)(uintptr_t)"MAIN.client_req*";
	argv[5] = NULL;
	vs_pty_start(&p, 10, 40, argv);
	ck_assert_msg(vs_pty_wait(&p, 0, "MAIN.client_req", HX_T_RESP) == 0,
	    "40x10: no counter drawn:\n%.3000s", p.out);
	ck_assert_msg(strstr(p.out, "MGT.uptime") == NULL,
	    "-f ignored:\n%.3000s", p.out);
	/* The uptimes come by name, whatever the filters. */
	ck_assert_msg(vs_pty_wait(&p, 0, "Uptime child: 0+", HX_T_RESP) == 0,
	    "40x10 -f: no child uptime:\n%.3000s", p.out);
	ck_assert_int_eq(vs_pty_quit(&p, "q"), 0);

	/* No terminal at all: a clear refusal, not a garbled screen. */
	{
		struct vs_run r;

		vs_run(&r, "-n", VND_Workdir(v), NULL);
		ck_assert_int_eq(r.status, 2);
		ck_assert_ptr_nonnull(strstr(r.err, "terminal"));
		vs_run_free(&r);
	}
	VND_Finish(&v, &o);
}
END_TEST

/* The cost view: the regex over 6 KB leads; methods come after. */
START_TEST(issue_0013_cost_view)
{
	struct origin *o;
	struct vnd *v;
	struct vs_pty p;
	char *argv[8];
	const char *re, *cheap, *meth;
	size_t mark;

	v = vs_prof_setup(&o, 1);
	argv[0] = (char *)(uintptr_t)vs_tool();
	argv[1] = (char *)(uintptr_t)"-n";
	argv[2] = (char *)(uintptr_t)VND_Workdir(v);
	argv[3] = NULL;
	/* Tall enough for every row: builtin.vcl's are there too. */
	vs_pty_start(&p, 120, 200, argv);
	ck_assert_msg(vs_pty_wait(&p, 0, "MAIN.uptime", HX_T_RESP) == 0,
	    "no screen:\n%.3000s", p.out);
	/* Switching views repaints the whole screen, in row order. */
	mark = p.len;
	ck_assert_int_eq(write(p.fd, "c", 1), 1);
	ck_assert_msg(vs_pty_wait(&p, mark, "WHERE (costliest first)",
	    HX_T_RESP) == 0, "no cost view:\n%.3000s", p.out + mark);
	mark = (size_t)(strstr(p.out + mark, "WHERE (costliest first)") -
	    p.out);
	ck_assert_msg(vs_pty_wait(&p, mark, "prof.vcl:4:5 sub vcl_recv",
	    HX_T_RESP) == 0, "no method row:\n%.3000s", p.out + mark);
	re = strstr(p.out + mark, "prof.vcl:6:6 if (req.http.X-Long");
	cheap = strstr(p.out + mark, "prof.vcl:5:6 if (req.http.X-Cheap");
	meth = strstr(p.out + mark, "prof.vcl:4:5 sub vcl_recv");
	ck_assert_msg(re != NULL && cheap != NULL && meth != NULL &&
	    re < cheap && cheap < meth, "cost view order (%td %td %td):\n"
	    "%.4000s", re != NULL ? re - p.out : -1, cheap != NULL ?
	    cheap - p.out : -1, meth != NULL ? meth - p.out : -1,
	    p.out + mark);
	ck_assert_int_eq(vs_pty_quit(&p, "jGgcq"), 0);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
veneerstat_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("veneerstat");
	tc = tcase_create("veneerstat");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, stat_one);
	tcase_add_test(tc, stat_json);
	tcase_add_test(tc, stat_formats);
	tcase_add_test(tc, stat_prometheus);
	tcase_add_test(tc, stat_list);
	tcase_add_test(tc, stat_child_restart);
	tcase_add_test(tc, stat_no_daemon);
	tcase_add_test(tc, stat_crashed_daemon);
	tcase_add_test(tc, stat_bad_options);
	tcase_add_test(tc, stat_escaping);
	tcase_add_test(tc, stat_screen);
	tcase_add_test(tc, stat_screen_small);
	tcase_add_test(tc, issue_0013_vcl_profile_counters);
	tcase_add_test(tc, issue_0013_cost_view);
	tcase_add_test(tc, issue_0013_heavy_vcl_profile);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(veneerstat_suite()));
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_cli.c -- the admin CLI end to end: veneerd -T/-S, Varnish's
 * challenge and response, the commands the manager answers (status,
 * start, stop, param.*), the errors and their status codes, hostile
 * input, and Varnish's own varnishadm driving veneerd when it is here.
 */

#include "config.h"

#include <errno.h>
#include <dirent.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include "common/sha256.h"
#include "lib/harness.h"
#include "e2e/cli_lib.h"

static void
cli_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	ORIGIN_DefaultHandler(oc, req, priv);
}


static char *tagged_vcl(int port, const char *tag);
static void tag_is(struct vnd *v, const char *url, const char *want,
    int want_hit);

static struct vnd *
cli_start(struct origin **op, int with_secret)
{

	return (cli_start_with(op, with_secret, cli_handler, NULL));
}

/*--------------------------------------------------------------------*/

START_TEST(auth_and_basic_commands)
{
	struct origin *o;
	struct vnd *v;
	char *b, *chal;
	int fd;

	v = cli_start(&o, 1);
	fd = cli_connect(cli_port(v));
	ck_assert_uint_eq(cli_answer(fd, &chal), 107);
	ck_assert_msg(strstr(chal, "Authentication required.") != NULL,
	    "107 body: %s", chal);
	/* 32 lowercase letters, then a newline. */
	ck_assert_uint_eq(strspn(chal, "abcdefghijklmnopqrstuvwxyz"), 32);
	ck_assert_int_eq(chal[32], '\n');
	/* ping passes before auth (as varnishd's); nothing else does. */
	cli_expect(fd, "ping", 200, "PONG ");
	ck_assert_uint_eq(cli_ask(fd, "status", &b), 107);
	free(b);
	ck_assert_uint_eq(cli_ask(fd, "param.set default_ttl 1", &b), 107);
	free(b);
	(void)close(fd);
	free(chal);

	fd = cli_login(v);
	cli_expect(fd, "status", 200, "Child in state running");
	cli_expect(fd, "status -j", 200, "\"running\"");
	cli_expect(fd, "ping -j", 200, "\"PONG\"");
	cli_expect(fd, "banner", 200, "Veneer CLI 1.0");
	cli_expect(fd, "help", 200, "param.set [-j] <param> <value>");
	cli_expect(fd, "help param.show", 200, "Show parameters");
	cli_expect(fd, "help -j", 200, "\"request\": \"param.show\"");
	cli_expect(fd, "help nosuch", 101, "nosuch");
	cli_expect(fd, "pid", 200, "Worker:");
	cli_expect(fd, "debug.listen_address", 200, "a0 127.0.0.1 ");
	cli_expect(fd, "panic.show", 300, "has not panicked");
	cli_expect(fd, "panic.clear", 300, "No panic");
	cli_expect(fd, "panic.clear -z", 200, NULL);
	cli_expect(fd, "panic.clear -x", 106, "Unknown flag");
	cli_expect(fd, "storage.list", 200, "storage.Transient = malloc");
	cli_expect(fd, "storage.list -j", 200, "\"storage.s0\"");
	cli_expect(fd, "auth 00", 300, "Already");
	/* Errors: unknown, too few, too many, bad quoting. */
	cli_expect(fd, "nosuch.command", 101, "Unknown request.");
	cli_expect(fd, "param.set default_ttl", 104, "Too few");
	cli_expect(fd, "status now please", 105, "Too many");
	cli_expect(fd, "param.show \"unterminated", 100, NULL);
	/* Blank lines have no answer; the next request still does. */
	ck_assert_int_eq(write(fd, "\n\n", 2), 2);
	cli_expect(fd, "ping", 200, "PONG");
	cli_expect(fd, "quit", 500, "Closing CLI connection");
	ck_assert_int_eq(cli_read_n(fd, (char[1]){0}, 1), -1);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(auth_wrong_answer_closes)
{
	struct origin *o;
	struct vnd *v;
	char *b, line[80];
	int fd;

	v = cli_start(&o, 1);
	fd = cli_connect(cli_port(v));
	ck_assert_uint_eq(cli_answer(fd, &b), 107);
	free(b);
	/* The answer for another secret: refused, and the door shuts. */
	cli_response("abcdefghijklmnopqrstuvwxyzabcdef", "other", line + 5);
	memcpy(line, "auth ", 5);
	cli_expect(fd, line, 500, NULL);
	ck_assert_int_eq(cli_read_n(fd, (char[1]){0}, 1), -1);
	(void)close(fd);
	/* Too short, too long, not hex: refused the same way. */
	fd = cli_connect(cli_port(v));
	ck_assert_uint_eq(cli_answer(fd, &b), 107);
	free(b);
	cli_expect(fd, "auth 1234", 500, NULL);
	(void)close(fd);
	/* The right one still works afterwards. */
	fd = cli_login(v);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(no_secret_banner)
{
	struct origin *o;
	struct vnd *v;
	char *b;
	int fd;

	v = cli_start(&o, 0);
	fd = cli_connect(cli_port(v));
	ck_assert_uint_eq(cli_answer(fd, &b), 200);
	ck_assert_msg(strstr(b, "Veneer CLI") != NULL, "banner: %s", b);
	free(b);
	cli_expect(fd, "status", 200, "running");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(param_set_show_reset)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = cli_start(&o, 1);
	fd = cli_login(v);
	cli_expect(fd, "param.show default_ttl", 200, "(default)");
	cli_expect(fd, "param.set default_ttl 7", 200, NULL);
	cli_expect(fd, "param.show default_ttl", 200, "Value is: 7 [seconds]");
	cli_expect(fd, "param.show changed", 200, "default_ttl");
	cli_expect(fd, "param.show -j default_ttl", 200, "\"value\": 7,");
	/* Wrong type, under the minimum: 106, the value unchanged. */
	cli_expect(fd, "param.set default_ttl soon", 106,
	    "(attempting to set param 'default_ttl' to 'soon')");
	cli_expect(fd, "param.set thread_pool_min 1", 106, NULL);
	cli_expect(fd, "param.show default_ttl", 200, "Value is: 7 [seconds]");
	/* Checks across parameters: min above max is refused. */
	cli_expect(fd, "param.set thread_pool_min 100000", 106, NULL);
	cli_expect(fd, "param.set nosuch 1", 106, "Unknown parameter");
	cli_expect(fd, "param.show nosuch", 106, "Unknown parameter");
	cli_expect(fd, "param.reset default_ttl", 200, NULL);
	cli_expect(fd, "param.show default_ttl", 200, "(default)");
	/* One read at child start says so. */
	cli_expect(fd, "param.set thread_pools 1", 200, "restarted");
	/* vsl_mask applies at once; a tag that does not exist does not. */
	cli_expect(fd, "param.set vsl_mask -ReqURL", 200, NULL);
	cli_expect(fd, "param.set vsl_mask -NoSuchTag", 106, "NoSuchTag");
	cli_expect(fd, "param.set -j default_ttl 9", 200, "\"value\": 9,");
	cli_expect(fd, "param.show -l", 200, "Minimum is:");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * What varnishtest starts varnishd with: Varnish 7.1's parameters, the
 * bit sets applied to their defaults and shown as varnishd shows them.
 */
START_TEST(varnish_params)
{
	struct client *cl;
	struct hx_msg *r;
	struct origin *o;
	struct vnd *v;
	char *err;
	int fd;

	o = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	cli_args(v, 1);
	VND_Param(v, "debug", "+vtc_mode");
	VND_Param(v, "feature", "+http2");
	VND_Param(v, "syslog_cli_traffic", "off");
	VND_Param(v, "h2_initial_window_size", "1m");
	VND_Param(v, "h2_rx_window_low_water", "64k");
	VND_Start(v);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	fd = cli_login(v);
	cli_expect(fd, "param.show debug", 200, "Value is: +vtc_mode\n");
	cli_expect(fd, "param.show debug", 200, "Default is: none");
	cli_expect(fd, "param.show feature", 200,
	    "Value is: +http2,+validate_headers\n");
	cli_expect(fd, "param.show h2_initial_window_size", 200,
	    "Value is: 1M [bytes]");
	cli_expect(fd, "param.show changed", 200, "syslog_cli_traffic");
	/* param.set adds to the bits; shown in bit order. */
	cli_expect(fd, "param.set debug +workspace", 200, NULL);
	cli_expect(fd, "param.show debug", 200,
	    "Value is: +workspace,+vtc_mode\n");
	cli_expect(fd, "param.show -j debug", 200,
	    "\"value\": \"+workspace,+vtc_mode\"");
	cli_expect(fd, "param.set debug +nosuchbit", 106, "vtc_mode");
	cli_expect(fd, "param.show debug", 200,
	    "Value is: +workspace,+vtc_mode\n");
	cli_expect(fd, "param.set feature -http2", 200, NULL);
	cli_expect(fd, "param.show feature", 200,
	    "Value is: +validate_headers (default)");
	cli_expect(fd, "param.reset debug", 200, NULL);
	cli_expect(fd, "param.show debug", 200, "Value is: none (default)");
	cli_expect(fd, "param.set http_gzip_support off", 200, NULL);
	cli_expect(fd, "param.set gzip_level 10", 106, "maximum");
	cli_expect(fd, "param.show -l", 200, "vtc_mode: ");
	(void)close(fd);
	VND_Finish(&v, &o);
	/* A bit that does not exist stops veneerd before it starts. */
	v = VND_New();
	ck_assert_int_eq(VND_Exec(v, 1, HX_T_RESP, "-p", "debug=+nosuchbit",
	    "-b", "127.0.0.1:9", NULL), 2);
	err = VND_ExecErr(v);
	ck_assert_msg(strstr(err, "nosuchbit") != NULL &&
	    strstr(err, "vtc_mode") != NULL, "stderr: %s", err);
	free(err);
	VND_Free(&v);
}
END_TEST

/* What param.set changes is in effect for what comes next. */
START_TEST(param_set_applies_live)
{
	struct client *cl;
	struct hx_msg *r;
	struct origin *o;
	struct vnd *v;
	const char *cs;
	char *banner;
	int fd;

	o = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Param(v, "thread_pools", "1");
	VND_Param(v, "thread_pool_min", "10");
	VND_Arg(v, "-T");
	VND_Arg(v, "127.0.0.1:0");
	VND_Arg(v, "-S");
	VND_Arg(v, "none");
	VND_Start(v);
	fd = cli_connect(cli_port(v));
	ck_assert_uint_eq(cli_answer(fd, &banner), 200);
	free(banner);
	(void)VND_WaitCounter(v, "threads", ">=", 10, HX_T_SLOW);
	/* The pool grows to a new minimum without a restart. */
	cli_expect(fd, "param.set thread_pool_min 25", 200, NULL);
	(void)VND_WaitCounter(v, "threads", ">=", 25, HX_T_SLOW);
	/* And shrinks to a lowered maximum: idle threads retire. */
	cli_expect(fd, "param.set thread_pool_min 5", 200, NULL);
	cli_expect(fd, "param.set thread_pool_max 12", 200, NULL);
	(void)VND_WaitCounter(v, "threads", "<=", 12, HX_T_SLOW);
	cli_expect(fd, "param.set thread_pool_max 5000", 200, NULL);
	/* New objects get the new default TTL (the origin sets none). */
	cli_expect(fd, "param.set default_ttl 5000", 200, NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/ttl", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	r = CLIENT_Fetch(cl, "GET", "/ttl", NULL, HX_T_RESP);
	cs = HX_Header(r, "Cache-Status");
	ck_assert_msg(cs != NULL && strstr(cs, "ttl=") != NULL &&
	    atol(strstr(cs, "ttl=") + 4) > 4000, "Cache-Status: %s",
	    cs != NULL ? cs : "(none)");
	HX_MsgFree(&r);
	/* A bool: the next response has no Cache-Status. */
	cli_expect(fd, "param.set cache_status off", 200, NULL);
	r = CLIENT_Fetch(cl, "GET", "/ttl", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_ptr_null(HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);
	/* A size: a header line over the new limit is refused. */
	cli_expect(fd, "param.set http_req_hdr_len 100b", 200, NULL);
	r = CLIENT_Fetch(cl, "GET", "/ttl", "X-Long: "
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789\r\n", HX_T_RESP);
	ck_assert_int_ge(r->status, 400);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	cl = VND_Connect(v);
	cli_expect(fd, "param.reset http_req_hdr_len", 200, NULL);
	r = CLIENT_Fetch(cl, "GET", "/ttl", "X-Long: "
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789\r\n", HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(backend_list_and_health)
{
	struct client *cl;
	struct hx_msg *r;
	struct origin *o;
	struct vnd *v;
	int fd;

	v = cli_start(&o, 1);
	fd = cli_login(v);
	cli_expect(fd, "backend.list", 200, "boot.default ");
	cli_expect(fd, "backend.list -j", 200, "\"boot.default\": {");
	cli_expect(fd, "backend.list nope*", 200, NULL);
	cl = VND_Connect(v);
	/* Forced sick: fetches fail at once, hits would still be served. */
	cli_expect(fd, "backend.set_health default sick", 200, NULL);
	cli_expect(fd, "backend.list boot.*", 200, " sick ");
	r = CLIENT_Fetch(cl, "GET", "/sick", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 503);
	HX_MsgFree(&r);
	/* The fetch's worker publishes its counts when its task ends. */
	(void)VND_WaitCounter(v, "MAIN.backend_unhealthy", ">=", 1,
	    HX_T_SLOW);
	cli_expect(fd, "backend.set_health boot.def* auto", 200, NULL);
	r = CLIENT_Fetch(cl, "GET", "/sick", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	cli_expect(fd, "backend.set_health nonesuch sick", 106, "nonesuch");
	cli_expect(fd, "backend.set_health default ill", 106, "ill");
	cli_expect(fd, "backend.set_health default", 104, NULL);
	CLIENT_Free(&cl);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(stop_and_start)
{
	char *text, line[1024];
	struct client *cl;
	struct hx_msg *r;
	struct origin *o;
	struct vnd *v;
	int fd;

	v = cli_start(&o, 1);
	VND_ExpectChildDeath(v);	/* a new child is the point */
	fd = cli_login(v);
	cli_expect(fd, "start", 300, "running");
	cli_expect(fd, "stop", 200, NULL);
	cli_expect(fd, "status", 200, "Child in state stopped");
	cli_expect(fd, "stop", 300, "stopped");
	/* A VCL loaded and used while stopped is the one the child runs. */
	text = tagged_vcl(ORIGIN_Port(o), "late");
	(void)snprintf(line, sizeof line, "vcl.inline late << E\n%sE", text);
	free(text);
	cli_expect(fd, line, 200, "VCL compiled.");
	cli_expect(fd, "vcl.use late", 200, NULL);
	cli_expect(fd, "start", 200, NULL);
	cli_expect(fd, "status", 200, "Child in state running");
	tag_is(v, "/late", "late", 0);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/after-restart", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(hostile_input)
{
	struct origin *o;
	struct vnd *v;
	char *big, *b;
	int fd, fd2;

	v = cli_start(&o, 1);
	/* A client that never reads nor authenticates blocks nobody. */
	fd2 = cli_connect(cli_port(v));
	fd = cli_login(v);
	cli_expect(fd, "ping", 200, "PONG");
	/* A NUL byte in a request: a syntax error, the session goes on. */
	ck_assert_int_eq(write(fd, "pi\0ng\n", 6), 6);
	ck_assert_uint_eq(cli_answer(fd, &b), 100);
	free(b);
	cli_expect(fd, "ping", 200, "PONG");
	/* A line of 200 KB with no newline: refused, then closed. */
	big = malloc(200 * 1024);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 200 * 1024);
	ck_assert_int_eq(write(fd, big, 200 * 1024), 200 * 1024);
	free(big);
	ck_assert_uint_eq(cli_answer(fd, &b), 400);
	free(b);
	(void)close(fd);
	(void)close(fd2);
	/* The manager is fine. */
	fd = cli_login(v);
	cli_expect(fd, "status", 200, "running");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Run prog (varnishadm or veneeradm) with -n WORKDIR -t 5 and the
 * arguments; stdin from in (NULL: /dev/null), stdout to out.  The exit
 * status.
 */
static int
run_adm(struct vnd *v, const char *prog, const char *in, const char *out,
    ...)
{
	const char *argv[16];
	va_list ap;
	unsigned n = 0;
	pid_t pid;
	int st;

	argv[n++] = prog;
	/* v NULL: the caller gives -T and -S. */
	if (v != NULL) {
		argv[n++] = "-n";
		argv[n++] = VND_Workdir(v);
	}
	argv[n++] = "-t";
	argv[n++] = "5";
	va_start(ap, out);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (freopen(in != NULL ? in : "/dev/null", "r", stdin) ==
		    NULL || freopen(out, "w", stdout) == NULL)
			_exit(126);
		execvp(argv[0], (char * const *)(uintptr_t)argv);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return (WIFEXITED(st) ? WEXITSTATUS(st) : 128);
}

/*
 * Varnish's varnishadm: in VENEER_VARNISH_BIN (tools/test.sh unpacks
 * Debian's there, its library in VENEER_VARNISH_LIB) or on PATH.  The
 * program to run, or NULL when there is none.
 */
static const char *
varnishadm_path(void)
{
	static char path[1024];
	const char *bin, *lib, *old;
	char ld[2048];

	bin = getenv("VENEER_VARNISH_BIN");
	if (bin != NULL && *bin != '\0') {
		(void)snprintf(path, sizeof path, "%s/varnishadm", bin);
		if (access(path, X_OK) != 0)
			return (NULL);
		lib = getenv("VENEER_VARNISH_LIB");
		if (lib != NULL && *lib != '\0') {
			old = getenv("LD_LIBRARY_PATH");
			(void)snprintf(ld, sizeof ld, "%s%s%s", lib,
			    old != NULL ? ":" : "", old != NULL ? old : "");
			ck_assert_int_eq(setenv("LD_LIBRARY_PATH", ld, 1), 0);
		}
		return (path);
	}
	if (system("command -v varnishadm >/dev/null 2>&1") != 0)
		return (NULL);
	return ("varnishadm");
}

static const char *varnishadm_prog;

static int
run_varnishadm(struct vnd *v, const char *out, const char *a1,
    const char *a2, const char *a3)
{

	return (run_adm(v, varnishadm_prog, NULL, out, a1, a2, a3, NULL));
}

/* The file's contents contain want. */
static void
file_has(const char *path, const char *want)
{
	char *b;

	b = HX_ReadFile(path, NULL);
	ck_assert_ptr_nonnull(b);
	ck_assert_msg(strstr(b, want) != NULL, "no \"%s\" in %s:\n%s", want,
	    path, b);
	free(b);
}

START_TEST(veneeradm_one_and_many)
{
	char adm[512], out[512], in[512];
	struct origin *o;
	struct vnd *v;
	const char *bd;

	bd = getenv("VENEER_BUILDDIR");
	ck_assert_msg(bd != NULL, "VENEER_BUILDDIR is not set");
	(void)snprintf(adm, sizeof adm, "%s/veneeradm", bd);
	v = cli_start(&o, 1);
	(void)snprintf(out, sizeof out, "%s/adm.out", VND_Dir(v));
	(void)snprintf(in, sizeof in, "%s/adm.in", VND_Dir(v));
	ck_assert_int_eq(run_adm(v, adm, NULL, out, "status", NULL), 0);
	file_has(out, "Child in state running");
	/* An argument with a blank goes quoted, and arrives whole. */
	ck_assert_int_eq(run_adm(v, adm, NULL, out, "param.set", "default_ttl",
	    "1 0", NULL), 1);
	file_has(out, "'1 0'");
	ck_assert_int_eq(run_adm(v, adm, NULL, out, "no.such", NULL), 1);
	/* One argument with blanks is a command line, as varnishadm's. */
	ck_assert_int_eq(run_adm(v, adm, NULL, out, "param.show default_ttl",
	    NULL), 0);
	file_has(out, "default_ttl");
	ck_assert_int_eq(run_adm(v, adm, NULL, out, "ban req.url ~ ^/x/",
	    NULL), 0);
	/* The boot ban and this one. */
	ck_assert_uint_eq(VND_Counter(v, "MAIN.bans_added"), 2);
	/* Line mode: several commands, a document, the last status. */
	write_text(in, "param.set default_ttl 44\n\nparam.show default_ttl\n"
	    "help << END\nhelp\nEND\nstatus\n");
	/* help with "help\n" is no command: one failure, so 1. */
	ck_assert_int_eq(run_adm(v, adm, in, out, NULL), 1);
	file_has(out, "Value is: 44");
	file_has(out, "Child in state running");
	write_text(in, "ping\nstatus\n");
	ck_assert_int_eq(run_adm(v, adm, in, out, NULL), 0);
	file_has(out, "PONG");
	/* -T as veneerd's -T takes it: host:port, "host port", [v6]:port. */
	{
		char t1[64], t2[64], sec[512];

		(void)snprintf(t1, sizeof t1, "127.0.0.1:%d", cli_port(v));
		(void)snprintf(t2, sizeof t2, "127.0.0.1 %d", cli_port(v));
		(void)snprintf(sec, sizeof sec, "%s/secret", VND_Dir(v));
		ck_assert_int_eq(run_adm(NULL, adm, NULL, out, "-T", t1, "-S",
		    sec, "ping", NULL), 0);
		file_has(out, "PONG");
		ck_assert_int_eq(run_adm(NULL, adm, NULL, out, "-T", t2, "-S",
		    sec, "ping", NULL), 0);
		ck_assert_int_ne(run_adm(NULL, adm, NULL, out, "-T",
		    "127.0.0.1", "-S", sec, "ping", NULL), 0);
	}
	/* A wrong secret: 2. */
	ck_assert_int_eq(run_adm(v, adm, NULL, out, "-S", "/etc/hostname",
	    "ping", NULL), 2);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(varnishadm_drives_veneerd)
{
	char out[512], *b;
	struct origin *o;
	struct vnd *v;

	varnishadm_prog = varnishadm_path();
	if (varnishadm_prog == NULL) {
		HX_Skip("varnishadm_drives_veneerd: no varnishadm here (not "
		    "on PATH, VENEER_VARNISH_BIN not set)");
		return;
	}
	v = cli_start(&o, 1);
	(void)snprintf(out, sizeof out, "%s/varnishadm.out", VND_Dir(v));
	ck_assert_int_eq(run_varnishadm(v, out, "status", NULL, NULL), 0);
	b = HX_ReadFile(out, NULL);
	ck_assert_msg(strstr(b, "Child in state running") != NULL, "%s", b);
	free(b);
	ck_assert_int_eq(run_varnishadm(v, out, "param.set", "default_ttl",
	    "33"), 0);
	ck_assert_int_eq(run_varnishadm(v, out, "param.show", "default_ttl",
	    NULL), 0);
	b = HX_ReadFile(out, NULL);
	ck_assert_msg(strstr(b, "Value is: 33") != NULL, "%s", b);
	free(b);
	ck_assert_int_ne(run_varnishadm(v, out, "param.set", "default_ttl",
	    "never"), 0);
	ck_assert_int_ne(run_varnishadm(v, out, "no.such.command", NULL,
	    NULL), 0);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Live VCL: vcl.load, vcl.inline, vcl.use, vcl.discard, vcl.list,
 * vcl.show.
 */

/* A VCL whose responses say its tag in X-V. */
static char *
tagged_vcl(int port, const char *tag)
{
	char *s;

	ck_assert_int_gt(asprintf(&s, "vcl 4.1;\nbackend default { .host = "
	    "\"127.0.0.1\"; .port = \"%d\"; }\nsub vcl_deliver {\n"
	    "\tset resp.http.X-V = \"%s\";\n}\n", port, tag), 0);
	return (s);
}

static struct vnd *
vcl_start(struct origin **op)
{
	char path[512], *text;
	struct vnd *v;

	*op = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	text = tagged_vcl(ORIGIN_Port(*op), "boot");
	VND_VclFile(v, "boot.vcl", text);
	free(text);
	VND_Arg(v, "-T");
	VND_Arg(v, "127.0.0.1:0");
	VND_Arg(v, "-S");
	(void)snprintf(path, sizeof path, "%s/secret", VND_Dir(v));
	write_text(path, SECRET);
	VND_Arg(v, path);
	VND_Start(v);
	return (v);
}

/* GET url: its X-V and, in *hit, whether it came from the cache. */
static char *
get_tag(struct vnd *v, const char *url, int *hit)
{
	struct client *cl;
	struct hx_msg *r;
	const char *h;
	char *tag;

	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", url, NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	h = HX_Header(r, "X-V");
	ck_assert_ptr_nonnull(h);
	tag = strdup(h);
	if (hit != NULL) {
		h = HX_Header(r, "Cache-Status");
		*hit = h != NULL && strstr(h, "; hit") != NULL;
	}
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	return (tag);
}

static void
tag_is(struct vnd *v, const char *url, const char *want, int want_hit)
{
	char *tag;
	int hit;

	tag = get_tag(v, url, &hit);
	ck_assert_str_eq(tag, want);
	if (want_hit >= 0)
		ck_assert_msg(hit == want_hit, "%s: hit %d, want %d", url,
		    hit, want_hit);
	free(tag);
}

/*
 * -f '': no VCL at start, as varnishtest starts varnishd (with -d).  The
 * child waits for start; start without a VCL is refused; the first VCL
 * loaded becomes the active one.
 */
START_TEST(start_without_vcl)
{
	char *text, *line;
	struct origin *o;
	struct vnd *v;
	int fd;

	o = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	VND_Arg(v, "-f");
	VND_Arg(v, "");
	cli_args(v, 1);
	VND_Start(v);
	fd = cli_login(v);
	cli_expect(fd, "status", 200, "Child in state stopped");
	cli_expect(fd, "start", 300, "No VCL available");
	cli_expect(fd, "vcl.list", 200, NULL);
	text = tagged_vcl(ORIGIN_Port(o), "late");
	ck_assert_int_gt(asprintf(&line, "vcl.inline late << EOT\n%sEOT",
	    text), 0);
	cli_expect(fd, line, 200, "VCL compiled.");
	free(line);
	free(text);
	ck_assert_uint_eq(cli_ask(fd, "vcl.list", &text), 200);
	ck_assert_msg(strncmp(text, "active", 6) == 0 &&
	    strstr(text, "late") != NULL, "vcl.list: %s", text);
	free(text);
	cli_expect(fd, "start", 200, NULL);
	cli_expect(fd, "status", 200, "Child in state running");
	tag_is(v, "/late", "late", 0);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Corners varnishd's CLI has and scripts use: cli_limit cuts a long
 * answer (201), "-cmd" is the command, help -a and -d, "unlimited".
 */
START_TEST(cli_varnish_corners)
{
	struct origin *o;
	struct vnd *v;
	char *b;
	int fd;

	v = cli_start(&o, 1);
	fd = cli_login(v);
	cli_expect(fd, "-ping", 200, "PONG");
	cli_expect(fd, "help -a", 200, "debug.xid");
	ck_assert_uint_eq(cli_ask(fd, "help -d", &b), 200);
	ck_assert_msg(strstr(b, "debug.xid") != NULL && strstr(b, "ping") ==
	    NULL, "help -d: %s", b);
	free(b);
	ck_assert_uint_eq(cli_ask(fd, "help", &b), 200);
	ck_assert_msg(strstr(b, "debug.xid") == NULL, "help: %s", b);
	free(b);
	cli_expect(fd, "param.set thread_pool_max unlimited", 200, NULL);
	cli_expect(fd, "param.show thread_pool_max", 200, "unlimited");
	cli_expect(fd, "param.set thread_pool_max 5000", 200, NULL);
	/* unlimited only where there is no maximum. */
	cli_expect(fd, "param.set thread_pools unlimited", 106, NULL);
	cli_expect(fd, "param.set cli_limit 128", 200, NULL);
	ck_assert_uint_eq(cli_ask(fd, "param.show -l", &b), 201);
	ck_assert_uint_eq(strlen(b), 128);
	free(b);
	cli_expect(fd, "param.set cli_limit 48k", 200, NULL);
	cli_expect(fd, "param.show -l", 200, NULL);
	cli_expect(fd, "param.show -j -l", 106, "-l and -j");
	/* 95% of thread_pool_min (100 here), as varnishd allows. */
	cli_expect(fd, "param.set thread_pool_reserve 95", 200, NULL);
	cli_expect(fd, "param.set thread_pool_reserve 96", 106, "95%");
	cli_expect(fd, "param.reset thread_pool_reserve", 200, NULL);
	cli_expect(fd, "param.show debug debug", 105, NULL);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* -r: shown, not changed, with varnishd's status; others still change. */
START_TEST(protected_params)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	o = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-r");
	VND_Arg(v, "cli_timeout,cc_command");
	VND_Arg(v, "-h");
	VND_Arg(v, "critbit");
	cli_args(v, 1);
	VND_Start(v);
	fd = cli_login(v);
	cli_expect(fd, "param.set cli_timeout 1m", 107, "protected");
	cli_expect(fd, "param.set cc_command true", 107, "protected");
	cli_expect(fd, "param.reset cc_command", 107, "protected");
	cli_expect(fd, "param.show cli_timeout", 200, "protected");
	cli_expect(fd, "param.set default_ttl 33", 200, NULL);
	cli_expect(fd, "param.show default_ttl", 200, "Value is: 33");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* The VCL build directories left in the workdir. */
static unsigned
vcl_dirs(struct vnd *v)
{
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	d = opendir(VND_Workdir(v));
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		if (!strncmp(de->d_name, "vcl_", 4))
			n++;
	(void)closedir(d);
	return (n);
}

START_TEST(vcl_load_use_discard)
{
	char line[1024], *text, path[512];
	struct origin *o;
	struct vnd *v;
	int fd;

	v = vcl_start(&o);
	fd = cli_login(v);
	tag_is(v, "/a", "boot", 0);
	tag_is(v, "/a", "boot", 1);
	/* A file: compiled, loaded, not yet in use. */
	(void)snprintf(path, sizeof path, "%s/two.vcl", VND_Dir(v));
	text = tagged_vcl(ORIGIN_Port(o), "two");
	write_text(path, text);
	free(text);
	(void)snprintf(line, sizeof line, "vcl.load two %s", path);
	cli_expect(fd, line, 200, "VCL compiled.");
	tag_is(v, "/a", "boot", 1);
	cli_expect(fd, "vcl.list", 200, "available   auto    warm         0    two");
	cli_expect(fd, "vcl.list -j", 200, "\"name\": \"two\"");
	/* In use at once, and the cache is the same cache. */
	cli_expect(fd, "vcl.use two", 200, "now active");
	tag_is(v, "/a", "two", 1);
	cli_expect(fd, "vcl.show two", 200, "\"two\"");
	cli_expect(fd, "vcl.show -v", 200, "// VCL.SHOW two");
	/* A here-document, as varnishtest and reload scripts send. */
	text = tagged_vcl(ORIGIN_Port(o), "three");
	(void)snprintf(line, sizeof line, "vcl.inline three << XyZ\n%sXyZ",
	    text);
	free(text);
	cli_expect(fd, line, 200, "VCL compiled.");
	cli_expect(fd, "vcl.use three", 200, NULL);
	tag_is(v, "/a", "three", 1);
	/* What may not be done, and changes nothing. */
	cli_expect(fd, "vcl.inline broken << E\nvcl 4.1;\nsub vcl_recv { "
	    "nonsense; }\nE", 106, "nonsense");
	cli_expect(fd, "vcl.use broken", 106, "No VCL named broken");
	tag_is(v, "/a", "three", 1);
	cli_expect(fd, "vcl.load two /nonexistent.vcl", 106, "Already");
	cli_expect(fd, "vcl.load 9lives /nonexistent.vcl", 106, "Illegal");
	cli_expect(fd, "vcl.load x/y /nonexistent.vcl", 106, "Illegal");
	cli_expect(fd, "vcl.load four /nonexistent.vcl", 106, NULL);
	cli_expect(fd, "vcl.discard three", 300, "active");
	cli_expect(fd, "vcl.discard nosuch", 106, "No VCL");
	/* Discards: gone from the list and from the disk. */
	ck_assert_uint_eq(vcl_dirs(v), 3);
	cli_expect(fd, "vcl.discard boot two", 200, NULL);
	ck_assert_uint_eq(vcl_dirs(v), 1);
	cli_expect(fd, "vcl.list", 200, "active   auto    warm         0    three");
	tag_is(v, "/a", "three", 1);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(vcl_survives_child_restart)
{
	char *text, line[1024];
	struct origin *o;
	struct vnd *v;
	pid_t child;
	int fd;

	v = vcl_start(&o);
	VND_ExpectChildDeath(v);
	fd = cli_login(v);
	text = tagged_vcl(ORIGIN_Port(o), "live");
	(void)snprintf(line, sizeof line, "vcl.inline live << E\n%sE", text);
	free(text);
	cli_expect(fd, line, 200, NULL);
	cli_expect(fd, "vcl.use live", 200, NULL);
	cli_expect(fd, "vcl.discard boot", 200, NULL);
	tag_is(v, "/r", "live", 0);
	/* A new child gets the VCL in use, though boot is gone. */
	child = VND_ChildPid(v);
	ck_assert_int_eq(kill(child, SIGKILL), 0);
	(void)VND_WaitChildPidChange(v, child, HX_T_SLOW);
	VND_WaitListen(v);
	cli_expect(fd, "status", 200, "running");
	tag_is(v, "/r", "live", -1);
	cli_expect(fd, "vcl.list", 200, "active   auto    warm         0    live");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* A client that fetches in a loop until told to stop; counts failures. */
struct hammer {
	struct vnd	*v;
	volatile int	stop;
	unsigned	ok;
	unsigned	bad;
};

static void *
hammer_run(void *priv)
{
	struct hammer *h = priv;
	struct client *cl;
	struct hx_msg *r;
	char url[32];
	unsigned n = 0;

	cl = VND_Connect(h->v);
	while (!h->stop) {
		(void)snprintf(url, sizeof url, "/h%u", n++ % 50);
		CLIENT_Req(cl, "GET", url, NULL, NULL, 0);
		r = CLIENT_TryResp(cl, 0, HX_T_RESP);
		if (r != NULL && r->status == 200)
			h->ok++;
		else
			h->bad++;
		if (r != NULL)
			HX_MsgFree(&r);
		else {
			CLIENT_Free(&cl);
			cl = VND_Connect(h->v);
		}
	}
	CLIENT_Free(&cl);
	return (NULL);
}

/* tools/veneer-reload with veneeradm from the build; its exit status. */
static int
run_reload(struct vnd *v, const char *file, const char *out)
{
	char script[512], adm[512];
	const char *sd, *bd;

	sd = getenv("VENEER_SRCDIR");
	bd = getenv("VENEER_BUILDDIR");
	ck_assert_msg(sd != NULL && bd != NULL, "VENEER_SRCDIR and "
	    "VENEER_BUILDDIR must be set");
	(void)snprintf(script, sizeof script, "%s/tools/veneer-reload", sd);
	(void)snprintf(adm, sizeof adm, "%s/veneeradm", bd);
	ck_assert_int_eq(setenv("VENEERADM", adm, 1), 0);
	return (run_adm(v, script, NULL, out, file, NULL));
}

START_TEST(veneer_reload_script)
{
	char path[512], out[512], *text;
	struct origin *o;
	struct vnd *v;
	int fd;

	v = vcl_start(&o);
	(void)snprintf(out, sizeof out, "%s/reload.out", VND_Dir(v));
	tag_is(v, "/s", "boot", 0);
	/* No file named: the one the active VCL came from, edited. */
	(void)snprintf(path, sizeof path, "%s/boot.vcl", VND_Dir(v));
	text = tagged_vcl(ORIGIN_Port(o), "edited");
	write_text(path, text);
	free(text);
	ck_assert_int_eq(run_reload(v, NULL, out), 0);
	file_has(out, "active as reload_");
	tag_is(v, "/s", "edited", 1);
	/* A broken file: status 1, the running VCL stays, one VCL left. */
	(void)snprintf(path, sizeof path, "%s/broken.vcl", VND_Dir(v));
	write_text(path, "vcl 4.1;\nsub vcl_recv { nonsense }\n");
	ck_assert_int_eq(run_reload(v, path, out), 1);
	tag_is(v, "/s", "edited", 1);
	ck_assert_uint_eq(vcl_dirs(v), 1);
	fd = cli_login(v);
	cli_expect(fd, "vcl.list", 200, "active   auto    warm         0    "
	    "reload_");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* One request, answered 200. */
static void
get_200(struct vnd *v)
{
	struct client *cl;
	struct hx_msg *r;

	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/m", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
}

/* -M: veneerd connects to a waiting client, which then logs in. */
START_TEST(connect_out_with_M)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof sin;
	struct pollfd pfd;
	char arg[64], path[512], hex[65], line[80], *b;
	struct origin *o;
	struct vnd *v;
	int lfd, fd;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(lfd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(listen(lfd, 1), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&sin, &sl), 0);
	(void)snprintf(arg, sizeof arg, "127.0.0.1 %d", ntohs(sin.sin_port));
	o = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	(void)snprintf(path, sizeof path, "%s/secret", VND_Dir(v));
	write_text(path, SECRET);
	VND_Arg(v, "-S");
	VND_Arg(v, path);
	VND_Arg(v, "-T");
	VND_Arg(v, "none");
	VND_Arg(v, "-M");
	VND_Arg(v, arg);
	VND_Start(v);
	pfd.fd = lfd;
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, (int)(HX_T_RESP * 1000)), 1);
	fd = accept(lfd, NULL, NULL);
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_eq(cli_answer(fd, &b), 107);
	cli_response(b, SECRET, hex);
	free(b);
	(void)snprintf(line, sizeof line, "auth %s", hex);
	cli_expect(fd, line, 200, "Veneer CLI");
	cli_expect(fd, "status", 200, "Child in state running");
	cli_expect(fd, "quit", 500, NULL);
	(void)close(fd);
	(void)close(lfd);
	VND_Finish(&v, &o);

	/* Nobody there: said in the log, and veneerd serves anyway. */
	o = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	(void)snprintf(arg, sizeof arg, "127.0.0.1 %d", HX_ClosedPort());
	VND_Arg(v, "-M");
	VND_Arg(v, arg);
	VND_Start(v);
	b = VND_Log(v);
	ck_assert_msg(strstr(b, "cannot connect") != NULL, "%s", b);
	free(b);
	get_200(v);
	VND_Finish(&v, &o);
}
END_TEST

/* Wait until the file has want in it (or fail after HX_T_SLOW). */
static void
file_waits_for(const char *path, const char *want)
{
	double deadline = HX_Now() + HX_T_SLOW;
	char *b;

	for (;;) {
		b = HX_ReadFile(path, NULL);
		if (b != NULL && strstr(b, want) != NULL) {
			free(b);
			return;
		}
		ck_assert_msg(HX_Now() < deadline, "no \"%s\" in %s:\n%s",
		    want, path, b != NULL ? b : "(nothing)");
		free(b);
		(void)poll(NULL, 0, 20);
	}
}

/*
 * -d: the CLI on standard input, the child started by "start", and the
 * end of standard input the end of veneerd.
 */
START_TEST(debug_mode_d)
{
	char dir[512], wd[600], out[600], listen[700], bearg[64], *b;
	const char *veneerd = getenv("VENEERD");
	struct client *cl;
	struct hx_msg *r;
	struct origin *o;
	int in[2], st, port;
	pid_t pid;

	ck_assert_ptr_nonnull(veneerd);
	o = ORIGIN_New(cli_handler, NULL);
	b = HX_TempDir("clid");
	(void)snprintf(dir, sizeof dir, "%s", b);
	free(b);
	(void)snprintf(wd, sizeof wd, "%s/work", dir);
	(void)snprintf(out, sizeof out, "%s/out", dir);
	(void)snprintf(listen, sizeof listen, "%s/_.listen", wd);
	(void)snprintf(bearg, sizeof bearg, "127.0.0.1:%d", ORIGIN_Port(o));
	ck_assert_int_eq(pipe(in), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		(void)dup2(in[0], STDIN_FILENO);
		(void)close(in[0]);
		(void)close(in[1]);
		if (freopen(out, "w", stdout) == NULL ||
		    dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
			_exit(126);
		execl(veneerd, veneerd, "-d", "-n", wd, "-a", "127.0.0.1:0",
		    "-b", bearg, "-j", "none", "-T", "none", (char *)NULL);
		_exit(127);
	}
	HX_RegisterPid(pid);
	(void)close(in[0]);
	file_waits_for(out, "Veneer CLI 1.0");
	ck_assert_int_eq(write(in[1], "status\n", 7), 7);
	file_waits_for(out, "Child in state stopped");
	ck_assert_int_eq(write(in[1], "start\n", 6), 6);
	file_waits_for(out, "started");
	ck_assert_int_eq(write(in[1], "status\n", 7), 7);
	file_waits_for(out, "Child in state running");
	b = HX_ReadFile(listen, NULL);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(strrchr(b, ' '));
	port = atoi(strrchr(b, ' ') + 1);
	free(b);
	cl = CLIENT_New("127.0.0.1", port, HX_T_RESP);
	r = CLIENT_Fetch(cl, "GET", "/d", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	/* The end of input: veneerd stops the child and exits 0. */
	(void)close(in[1]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	HX_RemoveTree(dir);
	ORIGIN_Free(&o);
}
END_TEST

/* -i and -l, as varnishtest starts varnishd with them. */
START_TEST(identity_and_log_size)
{
	struct client *cl;
	struct hx_msg *r;
	struct origin *o;
	struct vnd *v;
	char *text;
	int fd;

	o = ORIGIN_New(cli_handler, NULL);
	v = VND_New();
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nbackend default { .host "
	    "= \"127.0.0.1\"; .port = \"%d\"; }\nsub vcl_deliver {\n"
	    "\tset resp.http.X-Id = server.identity;\n}\n", ORIGIN_Port(o)),
	    0);
	VND_VclFile(v, "id.vcl", text);
	free(text);
	VND_Arg(v, "-i");
	VND_Arg(v, "cache-7.example");
	VND_Arg(v, "-l");
	VND_Arg(v, "2m");
	VND_Arg(v, "-T");
	VND_Arg(v, "127.0.0.1:0");
	VND_Arg(v, "-S");
	VND_Arg(v, "none");
	VND_Start(v);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/id", NULL, HX_T_RESP);
	HX_HeaderIs(r, "X-Id", "cache-7.example");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	fd = cli_connect(cli_port(v));
	ck_assert_uint_eq(cli_answer(fd, &text), 200);
	free(text);
	cli_expect(fd, "param.show vsl_space", 200, "Value is: 2M");
	(void)close(fd);
	VND_Finish(&v, &o);
	/* Bad values are refused before anything starts. */
	v = VND_New();
	ck_assert_int_eq(VND_Exec(v, 1, HX_T_RESP, "-l", "lots", NULL), 2);
	ck_assert_int_eq(VND_Exec(v, 1, HX_T_RESP, "-i", "", NULL), 2);
	VND_Free(&v);
}
END_TEST

#define RELOADS		100

START_TEST(vcl_reload_under_load)
{
	char *text, line[1024], name[32], old[32];
	struct hammer h[1];
	struct origin *o;
	struct vnd *v;
	pthread_t thr;
	long rss0, rss1;
	unsigned u;
	int fd;

	v = vcl_start(&o);
	fd = cli_login(v);
	memset(h, 0, sizeof h);
	h->v = v;
	ck_assert_int_eq(pthread_create(&thr, NULL, hammer_run, h), 0);
	(void)snprintf(old, sizeof old, "boot");
	rss0 = 0;
	for (u = 0; u < RELOADS; u++) {
		/* What tools/veneer-reload does: load, use, discard. */
		(void)snprintf(name, sizeof name, "r%u", u);
		text = tagged_vcl(ORIGIN_Port(o), name);
		(void)snprintf(line, sizeof line, "vcl.inline %s << E\n%sE",
		    name, text);
		free(text);
		cli_expect(fd, line, 200, NULL);
		(void)snprintf(line, sizeof line, "vcl.use %s", name);
		cli_expect(fd, line, 200, NULL);
		(void)snprintf(line, sizeof line, "vcl.discard %s", old);
		cli_expect(fd, line, 200, NULL);
		(void)snprintf(old, sizeof old, "%s", name);
		if (u == RELOADS / 2)
			rss0 = VND_ChildRssKB(v);
	}
	h->stop = 1;
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	rss1 = VND_ChildRssKB(v);
	HX_Log("%u requests during %d reloads, %u failed; child RSS %ld KB "
	    "after %d, %ld KB after %d", h->ok, RELOADS, h->bad, rss0,
	    RELOADS / 2, rss1, RELOADS);
	ck_assert_uint_eq(h->bad, 0);
	ck_assert_uint_gt(h->ok, 0);
	/* One VCL loaded, one directory left. */
	ck_assert_uint_eq(vcl_dirs(v), 1);
	(void)snprintf(line, sizeof line, "active   auto    warm         0    %s",
	    old);
	cli_expect(fd, "vcl.list", 200, line);
	/* Memory: ten more reloads may not cost more than a few MB. */
	ck_assert_msg(rss1 - rss0 < 8 * 1024, "RSS %ld KB -> %ld KB over %d "
	    "reloads", rss0, rss1, RELOADS - RELOADS / 2);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
cli_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("cli");
	tc = tcase_create("admin");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, auth_and_basic_commands);
	tcase_add_test(tc, auth_wrong_answer_closes);
	tcase_add_test(tc, no_secret_banner);
	tcase_add_test(tc, param_set_show_reset);
	tcase_add_test(tc, varnish_params);
	tcase_add_test(tc, stop_and_start);
	tcase_add_test(tc, param_set_applies_live);
	tcase_add_test(tc, backend_list_and_health);
	tcase_add_test(tc, identity_and_log_size);
	tcase_add_test(tc, connect_out_with_M);
	tcase_add_test(tc, debug_mode_d);
	tcase_add_test(tc, hostile_input);
	tcase_add_test(tc, varnishadm_drives_veneerd);
	tcase_add_test(tc, veneeradm_one_and_many);
	suite_add_tcase(s, tc);
	tc = tcase_create("vcl");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, vcl_load_use_discard);
	tcase_add_test(tc, vcl_survives_child_restart);
	tcase_add_test(tc, vcl_reload_under_load);
	tcase_add_test(tc, veneer_reload_script);
	tcase_add_test(tc, start_without_vcl);
	tcase_add_test(tc, protected_params);
	tcase_add_test(tc, cli_varnish_corners);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(cli_suite()));
}

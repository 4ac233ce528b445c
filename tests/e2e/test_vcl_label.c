/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcl_label.c -- issue #14's remaining vcl.* commands end to end:
 * vcl.label and return (vcl(label)) routing requests by Host to VCLs
 * that answer differently, relabelling without a reload, what may not
 * be discarded, vcl.state and the cooldown, vcl.deps, vcl.profile, and
 * debug.xid seen in X-Varnish; every error with its status code, the
 * text compared with varnishd 7.1's where Varnish has the command.
 */

#include "config.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"
#include "cli_lib.h"


/*--------------------------------------------------------------------
 * The admin CLI, as test_cli.c drives it.
 */

/* Ask, expect 200 and exactly this body. */
static void
vl_exact(int fd, const char *line, const char *want)
{
	unsigned st;
	char *b;

	st = cli_ask(fd, line, &b);
	ck_assert_msg(st == 200, "\"%s\": status %u; body:\n%s", line, st, b);
	ck_assert_msg(!strcmp(b, want), "\"%s\":\n%s\nwant:\n%s", line, b,
	    want);
	free(b);
}

/*
 * Ask, expect 200 and want in the body with runs of spaces taken as
 * one (the columns' widths depend on what else is listed).
 */
static void
vl_words(int fd, const char *line, const char *want)
{
	unsigned st;
	char *b, *p, *q;

	st = cli_ask(fd, line, &b);
	ck_assert_msg(st == 200, "\"%s\": status %u; body:\n%s", line, st, b);
	for (p = q = b; *p != '\0'; p++)
		if (*p != ' ' || q == b || q[-1] != ' ')
			*q++ = *p;
	*q = '\0';
	ck_assert_msg(strstr(b, want) != NULL, "\"%s\": no \"%s\" in:\n%s",
	    line, want, b);
	free(b);
}

/*--------------------------------------------------------------------
 * VCLs that answer with synth(200, TAG), so which one ran shows.
 */

static int vl_origin_port;

/* vcl.inline NAME << E ... E, for a VCL whose vcl_recv is recv. */
static void
vl_inline(int fd, const char *name, const char *recv, unsigned status,
    const char *want)
{
	char *line;

	ck_assert_int_gt(asprintf(&line, "vcl.inline %s << XyZ\n"
	    "vcl 4.1;\nbackend default { .host = \"127.0.0.1\"; "
	    ".port = \"%d\"; }\nsub vcl_recv {\n%s\n}\nXyZ", name,
	    vl_origin_port, recv), 0);
	cli_expect(fd, line, status, want);
	free(line);
}

/* A VCL answering TAG, unless the router's header leaked into it. */
static void
vl_tagged(int fd, const char *name, const char *tag)
{
	char recv[256];

	(void)snprintf(recv, sizeof recv, "\tif (req.http.X-Router) {\n"
	    "\t\treturn (synth(500, \"router state leaked\"));\n\t}\n"
	    "\treturn (synth(200, \"%s\"));", tag);
	vl_inline(fd, name, recv, 200, "VCL compiled.");
}

static struct vnd *
vl_start(struct origin **op, const char *boot_recv)
{
	struct vnd *v;
	char *text;

	*op = ORIGIN_New(NULL, NULL);
	vl_origin_port = ORIGIN_Port(*op);
	v = VND_New();
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nbackend default { .host "
	    "= \"127.0.0.1\"; .port = \"%d\"; }\nsub vcl_recv {\n%s\n}\n",
	    vl_origin_port, boot_recv), 0);
	VND_VclFile(v, "boot.vcl", text);
	free(text);
	cli_args(v, 1);
	VND_Start(v);
	return (v);
}

/* GET / with Host: host on a new connection; the reason, and X-Varnish. */
static char *
vl_get(struct vnd *v, const char *host, int want_status, char **xv)
{
	struct client *cl;
	struct hx_msg *r;
	char hdrs[128], *reason;

	(void)snprintf(hdrs, sizeof hdrs, "Host: %s\r\n", host);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/", hdrs, HX_T_RESP);
	ck_assert_msg(r->status == want_status, "Host %s: %d %s, want %d",
	    host, r->status, r->reason, want_status);
	reason = strdup(r->reason);
	if (xv != NULL)
		*xv = strdup(HX_Header(r, "X-Varnish"));
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	return (reason);
}

static void
vl_routes(struct vnd *v, const char *host, const char *want)
{
	char *reason;

	reason = vl_get(v, host, 200, NULL);
	ck_assert_msg(!strcmp(reason, want), "Host %s answered by \"%s\", "
	    "want \"%s\"", host, reason, want);
	free(reason);
}

/* The VCL_use records of the log so far, one per line. */
static char *
vl_log_use(struct vnd *v)
{
	char cmd[1024], buf[512];
	const char *bd = getenv("VENEER_BUILDDIR");
	size_t len = 0;
	char *out = NULL;
	FILE *p;

	(void)snprintf(cmd, sizeof cmd, "%s/veneerlog -d -n %s -g raw "
	    "-i VCL_use,VCL_Error", bd != NULL ? bd : ".", VND_Workdir(v));
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	out = calloc(1, 65536);
	ck_assert_ptr_nonnull(out);
	while (fgets(buf, sizeof buf, p) != NULL && len + sizeof buf < 65536)
		len += (size_t)snprintf(out + len, 65536 - len, "%s", buf);
	(void)pclose(p);
	return (out);
}

static void
vl_log_has(struct vnd *v, const char *want)
{
	double deadline = HX_Now() + HX_T_RESP;
	char *log;
	int found;

	/* Records reach the shared log when their transaction ends. */
	do {
		log = vl_log_use(v);
		found = strstr(log, want) != NULL;
		if (!found && HX_Now() > deadline)
			ck_abort_msg("no \"%s\" in the log:\n%s", want, log);
		free(log);
		if (!found)
			(void)usleep(50000);
	} while (!found);
}

/* The router: Host a and b go to labels la and lb, others stay here. */
static const char vl_router[] =
    "\tset req.http.X-Router = \"was here\";\n"
    "\tif (req.http.host == \"a\") {\n\t\treturn (vcl(la));\n\t}\n"
    "\tif (req.http.host == \"b\") {\n\t\treturn (vcl(lb));\n\t}\n"
    "\treturn (synth(200, \"router\"));";

/*--------------------------------------------------------------------*/

START_TEST(label_routes_by_host)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = vl_start(&o, "\treturn (synth(200, \"boot\"));");
	fd = cli_login(v);
	vl_tagged(fd, "va", "answer-a");
	vl_tagged(fd, "vb", "answer-b");
	/* Labels must exist before a VCL naming them loads. */
	vl_inline(fd, "router", vl_router, 106, "Symbol not found: 'la'");
	cli_expect(fd, "vcl.label la va", 200, NULL);
	cli_expect(fd, "vcl.label lb vb", 200, NULL);
	vl_inline(fd, "router", vl_router, 200, "VCL compiled.");
	cli_expect(fd, "vcl.use router", 200, "VCL 'router' now active");
	vl_routes(v, "a", "answer-a");
	vl_routes(v, "b", "answer-b");
	vl_routes(v, "c", "router");
	vl_log_has(v, "VCL_use        c va via la\n");
	vl_log_has(v, "VCL_use        c vb via lb\n");
	/* Relabelled: the router goes elsewhere without a reload. */
	cli_expect(fd, "vcl.label la vb", 200, NULL);
	vl_routes(v, "a", "answer-b");
	cli_expect(fd, "vcl.label la boot", 200, NULL);
	vl_routes(v, "a", "boot");
	/* vcl.use of a label: requests get the VCL it points at. */
	cli_expect(fd, "vcl.use lb", 200, "VCL 'lb' now active");
	vl_routes(v, "c", "answer-b");
	cli_expect(fd, "vcl.label lb va", 200, NULL);
	vl_routes(v, "c", "answer-a");
	cli_expect(fd, "vcl.use router", 200, NULL);
	/* vcl.show of a label shows the VCL it points at. */
	cli_expect(fd, "vcl.show lb", 200, "answer-a");
	/* The list, byte for byte as varnishd 7.1.1 answered the same. */
	vl_exact(fd, "vcl.list",
	    "available   auto     warm         0    boot      <-    "
	    "(1 label)\n"
	    "available   auto     warm         0    va        <-    "
	    "(1 label)\n"
	    "available   auto     warm         0    vb\n"
	    "available   label    warm         0    la        ->    boot "
	    "(1 return(vcl))\n"
	    "available   label    warm         0    lb        ->    va "
	    "(1 return(vcl))\n"
	    "active      auto     warm         0    router\n");
	cli_expect(fd, "vcl.list -j", 200, "\"label\": {\n      \"name\": "
	    "\"boot\",\n      \"refs\": 1\n    }");
	cli_expect(fd, "vcl.list -j", 200, "\"labels\": 1");
	vl_exact(fd, "vcl.deps",
	    "boot\nva\nvb\nla       boot\nlb       va\nrouter   la\n"
	    "router   lb\n");
	cli_expect(fd, "vcl.deps -j", 200, "[ 1, [\"vcl.deps\", \"-j\"], ");
	cli_expect(fd, "vcl.deps -j", 200, "  {\n    \"name\": \"router\",\n"
	    "    \"deps\": [\n      \"la\",\n      \"lb\"\n    ]\n  }");
	cli_expect(fd, "vcl.deps -j", 200, "  {\n    \"name\": \"vb\",\n"
	    "    \"deps\": []\n  }");
	cli_expect(fd, "vcl.deps x", 105, "Too many parameters");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(label_errors_and_discard)
{
	struct origin *o;
	struct vnd *v;
	char *reason;
	int fd;

	v = vl_start(&o, "\treturn (synth(200, \"boot\"));");
	fd = cli_login(v);
	vl_tagged(fd, "va", "answer-a");
	cli_expect(fd, "vcl.label", 104, "Too few parameters");
	cli_expect(fd, "vcl.label la", 104, "Too few parameters");
	cli_expect(fd, "vcl.label la va x", 105, "Too many parameters");
	cli_expect(fd, "vcl.label 1la va", 106,
	    "Illegal character in VCL name ('1')");
	cli_expect(fd, "vcl.label l.a va", 106,
	    "Illegal character in VCL name ('.')");
	cli_expect(fd, "vcl.label la nosuch", 106, "No VCL named nosuch known");
	cli_expect(fd, "vcl.label va boot", 106, "va is not a label");
	cli_expect(fd, "vcl.label la va", 200, NULL);
	cli_expect(fd, "vcl.label lb la", 300,
	    "VCL labels cannot point to labels");
	/* return (vcl(...)) only in vcl_recv, only to a label. */
	vl_inline(fd, "bad1", "\treturn (vcl(va));", 106,
	    "Symbol not found: 'va'");
	{
		char *line;

		ck_assert_int_gt(asprintf(&line, "vcl.inline bad2 << XyZ\n"
		    "vcl 4.1;\nbackend default { .host = \"127.0.0.1\"; "
		    ".port = \"%d\"; }\nsub vcl_deliver {\n"
		    "\treturn (vcl(la));\n}\nXyZ", vl_origin_port), 0);
		cli_expect(fd, line, 106, "not allowed in vcl_deliver");
		free(line);
	}
	/* A labelled VCL, a label a VCL uses: not without them. */
	{
		unsigned st;
		char *b;

		st = cli_ask(fd, "vcl.discard va", &b);
		ck_assert_uint_eq(st, 300);
		ck_assert_str_eq(b, "Cannot discard labeled VCL program va:\n"
		    "\tla\n");
		free(b);
	}
	vl_inline(fd, "user", "\tif (req.http.host == \"a\") {\n"
	    "\t\treturn (vcl(la));\n\t}\n\treturn (synth(200, \"user\"));",
	    200, NULL);
	{
		unsigned st;
		char *b;

		st = cli_ask(fd, "vcl.discard la", &b);
		ck_assert_uint_eq(st, 300);
		ck_assert_str_eq(b, "Cannot discard VCL label la, other VCLs "
		    "depend on it:\n\tuser\n");
		free(b);
	}
	/* A VCL labelled, and the VCL it is labelled by, cannot go cold. */
	cli_expect(fd, "vcl.state va cold", 300,
	    "A labeled VCL cannot be set cold");
	/* return (vcl()) from a labelled VCL: 503, as Varnish. */
	cli_expect(fd, "vcl.label lu user", 200, NULL);
	vl_inline(fd, "front", "\treturn (vcl(lu));", 200, NULL);
	cli_expect(fd, "vcl.use front", 200, NULL);
	vl_routes(v, "x", "user");
	reason = vl_get(v, "a", 503, NULL);
	free(reason);
	vl_log_has(v, "Illegal return(vcl): Only from active VCL");
	/* All that depends on each other goes in one command. */
	cli_expect(fd, "vcl.use boot", 200, NULL);
	cli_expect(fd, "vcl.discard zz*", 106, "No VCL name matches zz*");
	cli_expect(fd, "vcl.discard *", 300, "Cannot discard active VCL boot");
	cli_expect(fd, "vcl.discard l?", 300, "other VCLs depend on it");
	/* Globs as in the shell: l? is la and lu. */
	vl_exact(fd, "vcl.discard l? va user front", "");
	vl_exact(fd, "vcl.list", "active   auto    warm         0    boot\n");
	vl_exact(fd, "vcl.deps", "boot\n");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* Wait until vcl.list has want, within timeout. */
static void
vl_wait_list(int fd, const char *want, double timeout)
{
	double deadline = HX_Now() + timeout;
	char *b, *p, *q;

	for (;;) {
		ck_assert_uint_eq(cli_ask(fd, "vcl.list", &b), 200);
		for (p = q = b; *p != '\0'; p++)
			if (*p != ' ' || q == b || q[-1] != ' ')
				*q++ = *p;
		*q = '\0';
		if (strstr(b, want) != NULL)
			break;
		ck_assert_msg(HX_Now() < deadline, "no \"%s\" in vcl.list "
		    "after %.0f s:\n%s", want, timeout, b);
		free(b);
		(void)usleep(200000);
	}
	free(b);
}

START_TEST(state_cold_warm_auto)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = vl_start(&o, "\treturn (synth(200, \"boot\"));");
	fd = cli_login(v);
	{
		char *line;

		/* A quoted VCL: after a here-document nothing may follow. */
		ck_assert_int_gt(asprintf(&line, "vcl.inline c \"vcl 4.1; "
		    "backend default { .host = \\\"127.0.0.1\\\"; .port = "
		    "\\\"%d\\\"; } sub vcl_recv { return (synth(200, "
		    "\\\"c\\\")); }\" cold", vl_origin_port), 0);
		cli_expect(fd, line, 200, NULL);
		free(line);
		cli_expect(fd, "vcl.inline d \"vcl 4.1;\" tepid", 106,
		    "State must be one of auto, cold or warm.");
	}
	vl_words(fd, "vcl.list", "available cold cold 0 c\n");
	cli_expect(fd, "vcl.use c", 300,
	    "VCL 'c' is cold - set to auto or warm first");
	cli_expect(fd, "vcl.label lc c", 300, "VCL 'c' is cold");
	vl_routes(v, "x", "boot");
	cli_expect(fd, "vcl.state", 104, "Too few parameters");
	cli_expect(fd, "vcl.state c", 104, "Too few parameters");
	cli_expect(fd, "vcl.state c hot", 106,
	    "State must be one of auto, cold or warm.");
	cli_expect(fd, "vcl.state nosuch warm", 106, "No VCL named nosuch");
	cli_expect(fd, "vcl.state boot cold", 300,
	    "Cannot set the active VCL cold.");
	/* auto keeps the temperature it had. */
	vl_exact(fd, "vcl.state c auto", "");
	vl_words(fd, "vcl.list", "available auto cold 0 c\n");
	cli_expect(fd, "vcl.use c", 200, "VCL 'c' now active");
	vl_routes(v, "x", "c");
	vl_words(fd, "vcl.list", "active auto warm 0 c\n");
	vl_exact(fd, "vcl.state boot warm", "");
	vl_words(fd, "vcl.list", "available warm warm 0 boot\n");
	cli_expect(fd, "vcl.label lb boot", 200, NULL);
	cli_expect(fd, "vcl.state lb cold", 106, "Labels are always warm");
	cli_expect(fd, "vcl.discard lb", 200, NULL);
	/* The cooldown: an auto VCL nothing needs goes cold by itself. */
	vl_exact(fd, "vcl.state boot auto", "");
	cli_expect(fd, "param.set vcl_cooldown 1", 200, NULL);
	vl_wait_list(fd, "available auto cold 0 boot\n", HX_T_RESP);
	cli_expect(fd, "vcl.use boot", 200, NULL);
	vl_routes(v, "x", "boot");
	vl_wait_list(fd, "available auto cold 0 c\n", HX_T_RESP);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(labels_survive_child_restart)
{
	struct origin *o;
	struct vnd *v;
	pid_t child;
	int fd;

	v = vl_start(&o, "\treturn (synth(200, \"boot\"));");
	VND_ExpectChildDeath(v);
	fd = cli_login(v);
	vl_tagged(fd, "va", "answer-a");
	vl_tagged(fd, "vb", "answer-b");
	cli_expect(fd, "vcl.label la va", 200, NULL);
	cli_expect(fd, "vcl.label lb vb", 200, NULL);
	vl_inline(fd, "router", vl_router, 200, NULL);
	cli_expect(fd, "vcl.label la boot", 200, NULL);
	cli_expect(fd, "vcl.use router", 200, NULL);
	cli_expect(fd, "vcl.state va cold", 200, NULL);
	vl_routes(v, "a", "boot");
	child = VND_ChildPid(v);
	ck_assert_int_eq(kill(child, SIGKILL), 0);
	(void)VND_WaitChildPidChange(v, child, HX_T_SLOW);
	VND_WaitListen(v);
	cli_expect(fd, "status", 200, "running");
	/* Every VCL and label, in an order the child could load. */
	vl_routes(v, "a", "boot");
	vl_routes(v, "b", "answer-b");
	vl_routes(v, "c", "router");
	vl_words(fd, "vcl.list", "available cold cold 0 va\n");
	cli_expect(fd, "vcl.use va", 300, "is cold");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(profile_table)
{
	uintmax_t ns, evals, per, ntrue;
	struct origin *o;
	struct vnd *v;
	char *b, *p;
	int fd;

	v = vl_start(&o, "\tif (req.http.host == \"slow\") {\n"
	    "\t\treturn (synth(200, \"slow\"));\n\t}\n"
	    "\treturn (synth(200, \"boot\"));");
	fd = cli_login(v);
	cli_expect(fd, "vcl.profile", 300, "vcl_profile is off");
	cli_expect(fd, "param.set vcl_profile on", 200, NULL);
	vl_routes(v, "slow", "slow");
	vl_routes(v, "fast", "boot");
	ck_assert_uint_eq(cli_ask(fd, "vcl.profile", &b), 200);
	ck_assert_msg(strstr(b, "VCL boot, costliest first") != NULL, "%s",
	    b);
	/* The condition ran twice, true once, at boot.vcl's line 4. */
	p = strstr(b, "boot.vcl:4:6 if (req.http.host == \"slow\") in "
	    "vcl_recv\n");
	ck_assert_msg(p != NULL, "%s", b);
	while (p > b && p[-1] != '\n')
		p--;
	ck_assert_int_eq(sscanf(p, "%ju %ju %ju %ju", &ns, &evals, &per,
	    &ntrue), 4);
	ck_assert_uint_eq(evals, 2);
	ck_assert_uint_eq(ntrue, 1);
	ck_assert_uint_eq(per, ns / 2);
	/* Costliest first: vcl_recv's whole run before its condition. */
	ck_assert_msg(strstr(b, "sub vcl_recv") < strstr(b, "if (req.http"),
	    "%s", b);
	free(b);
	cli_expect(fd, "vcl.profile -j", 200, "\"kind\": \"cond\", \"file\": ");
	cli_expect(fd, "vcl.profile -j boot", 200,
	    "\"text\": \"req.http.host == \\\"slow\\\"\"");
	cli_expect(fd, "vcl.profile nosuch", 106, "No VCL named nosuch");
	cli_expect(fd, "vcl.profile -j a b", 105, "Too many parameters");
	cli_expect(fd, "help vcl.profile", 200, "costliest first");
	cli_expect(fd, "param.set vcl_profile off", 200, NULL);
	cli_expect(fd, "vcl.profile -j", 300, "vcl_profile is off");
	cli_expect(fd, "stop", 200, NULL);
	cli_expect(fd, "param.set vcl_profile on", 200, NULL);
	cli_expect(fd, "vcl.profile", 300, "Cache process not started");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(debug_xid_sets_next_vxid)
{
	struct origin *o;
	struct vnd *v;
	char *reason, *xv;
	int fd;

	v = vl_start(&o, "\treturn (synth(200, \"boot\"));");
	fd = cli_login(v);
	cli_expect(fd, "debug.xid", 200, "XID is ");
	vl_exact(fd, "debug.xid 5000", "XID is 5000 chunk 1");
	/* A new connection: its session is 5001, its request 5002. */
	reason = vl_get(v, "x", 200, &xv);
	ck_assert_str_eq(xv, "5002");
	free(xv);
	free(reason);
	vl_exact(fd, "debug.xid", "XID is 5002 chunk 1");
	/* Workers take 16 at a time: which worker serves is not known. */
	vl_exact(fd, "debug.xid 70000 16", "XID is 70000 chunk 16");
	vl_exact(fd, "debug.xid nonsense", "XID is 0 chunk 1");
	cli_expect(fd, "debug.xid 1 2 3", 105, "Too many parameters");
	cli_expect(fd, "help debug.xid", 200, "debug.xid [<xid> [<cachesize>]]");
	cli_expect(fd, "stop", 200, NULL);
	cli_expect(fd, "debug.xid", 300, "Cache process not started");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
vcl_label_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vcl_label");
	tc = tcase_create("labels");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, label_routes_by_host);
	tcase_add_test(tc, label_errors_and_discard);
	tcase_add_test(tc, state_cold_warm_auto);
	tcase_add_test(tc, labels_survive_child_restart);
	tcase_add_test(tc, profile_table);
	tcase_add_test(tc, debug_xid_sets_next_vxid);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(vcl_label_suite()));
}

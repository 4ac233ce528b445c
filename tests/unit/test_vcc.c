/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcc.c -- unit tests of the VCL compiler: the legality table (for
 * every method, every variable it may not read, set or unset is refused
 * with the message that says where it does exist, and every one it may
 * is accepted), the actions each method may return, types and
 * conversions, the VCL 4.0 forms kept working, includes, unused
 * declarations, inline C, error positions; and the C of good VCL
 * compiled by the system compiler with -Wall -Werror.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcc/vcc.h"
#include "vrt.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof (a) / sizeof (a)[0])
#endif

#define BE	"vcl 4.1;\nimport std;\n" \
		"backend default { .host = \"127.0.0.1\"; }\n"
#define BE40	"vcl 4.0;\nimport std;\n" \
		"backend default { .host = \"127.0.0.1\"; }\n"

static struct vcc_opts opts = { .vcl_path = "", .err_unref = 1,
    .optimize = 1 };

/* Compile; returns 0/-1 and leaves the messages in *msgp (caller frees). */
static int
comp(const char *src, char **cp, char **msgp)
{
	char *c = NULL;
	int r;

	r = VCC_Compile(&opts, "t.vcl", src, &c, msgp);
	if (cp != NULL)
		*cp = c;
	else
		free(c);
	return (r);
}

static void
ok(const char *src)
{
	char *msg;

	ck_assert_msg(comp(src, NULL, &msg) == 0, "should compile:\n%s\n%s",
	    src, msg);
	free(msg);
}

/* Fails at line:col with what in the message. */
static void
bad(const char *src, const char *where, const char *what)
{
	char *msg, want[64];

	ck_assert_msg(comp(src, NULL, &msg) != 0, "should fail:\n%s", src);
	if (*where == '\0')
		(void)snprintf(want, sizeof want, "error:");
	else
		(void)snprintf(want, sizeof want, "t.vcl:%s: error:", where);
	ck_assert_msg(strstr(msg, want) != NULL, "expected %s in:\n%s\nfor:\n%s",
	    want, msg, src);
	ck_assert_msg(what == NULL || strstr(msg, what) != NULL,
	    "expected \"%s\" in:\n%s", what, msg);
	free(msg);
}

/* The tables, as the compiler sees them. */
static const struct {
	const char	*name;
	const char	*type;
	unsigned	rd, wr, un, flags;
} vars[] = {
#define VCL_VAR(c, n, T, rd, wr, un, fl, doc)	{ n, #T, rd, wr, un, fl },
#include "vcl_vars.h"
};

static const struct {
	const char	*prefix;
	unsigned	rd, wr, un;
} hdrs[] = {
#define VCL_HDR(w, n, rd, wr, un, doc)	{ n, rd, wr, un },
#include "vcl_vars.h"
};

static const struct {
	const char	*name;
	unsigned	idx;
	unsigned	rets;
} meths[] = {
#define VCL_MET(l, U, side, rets)	{ "vcl_" #l, VCL_MET_##U, rets },
#include "vcl_returns.h"
};

static const char * const rets[] = {
	"none",
#define VCL_RET(l, U)	#l,
#include "vcl_returns.h"
};

/* A value of the type, usable in any method. */
static const char *
value_of(const char *type)
{
	if (!strcmp(type, "STRING") || !strcmp(type, "BODY"))
		return ("\"x\"");
	if (!strcmp(type, "INT"))
		return ("1");
	if (!strcmp(type, "REAL"))
		return ("1.5");
	if (!strcmp(type, "BOOL"))
		return ("true");
	if (!strcmp(type, "DURATION"))
		return ("1s");
	if (!strcmp(type, "BYTES"))
		return ("1KB");
	if (!strcmp(type, "TIME"))
		return ("now");
	if (!strcmp(type, "BACKEND"))
		return ("default");
	return (NULL);
}

static void
legality(const char *be, const char *name, const char *type, unsigned rd,
    unsigned wr, unsigned un, int hdr)
{
	char src[1024], mname[64], *msg;
	const char *v;
	unsigned m, bit;
	int r;

	for (m = 0; m < ARRAY_SIZE(meths); m++) {
		bit = 1U << meths[m].idx;
		(void)snprintf(mname, sizeof mname, "in %s", meths[m].name);
		/* read */
		(void)snprintf(src, sizeof src, "%ssub %s {\n"
		    "\tstd.log(\"\" + %s);\n}\n", be, meths[m].name, name);
		r = comp(src, NULL, &msg);
		if (rd & bit)
			ck_assert_msg(r == 0, "%s readable %s:\n%s", name,
			    mname, msg);
		else
			ck_assert_msg(r != 0 && strstr(msg, "t.vcl:5:") &&
			    (strstr(msg, "is not available") ||
			    strstr(msg, "cannot be read")),
			    "%s not readable %s:\n%s", name, mname, msg);
		free(msg);
		/* set */
		v = hdr ? "\"x\"" : value_of(type);
		if (v != NULL) {
			(void)snprintf(src, sizeof src, "%ssub %s {\n"
			    "\tset %s = %s;\n}\n", be, meths[m].name, name,
			    v);
			r = comp(src, NULL, &msg);
			if (wr & bit)
				ck_assert_msg(r == 0, "%s settable %s:\n%s",
				    name, mname, msg);
			else
				ck_assert_msg(r != 0 &&
				    strstr(msg, "t.vcl:5:6:") != NULL &&
				    (strstr(msg, "cannot be set") ||
				    strstr(msg, "read-only")),
				    "%s not settable %s:\n%s", name, mname,
				    msg);
			free(msg);
		}
		/* unset */
		(void)snprintf(src, sizeof src, "%ssub %s {\n"
		    "\tunset %s;\n}\n", be, meths[m].name, name);
		r = comp(src, NULL, &msg);
		if (un & bit)
			ck_assert_msg(r == 0, "%s unsettable %s:\n%s", name,
			    mname, msg);
		else
			ck_assert_msg(r != 0 && strstr(msg, "t.vcl:5:8:") &&
			    strstr(msg, "cannot be unset"),
			    "%s not unsettable %s:\n%s", name, mname, msg);
		free(msg);
	}
}

START_TEST(test_legality_vars)
{
	/* The table's sets are VCL 4.0's where the versions differ. */
	legality(vars[_i].flags & (VV_ONLY_40 | VV_RO_41) ? BE40 : BE,
	    vars[_i].name, vars[_i].type, vars[_i].rd, vars[_i].wr,
	    vars[_i].un, 0);
}
END_TEST

START_TEST(test_legality_headers)
{
	char name[64];

	(void)snprintf(name, sizeof name, "%sX-Test", hdrs[_i].prefix);
	legality(BE, name, "STRING", hdrs[_i].rd, hdrs[_i].wr, hdrs[_i].un,
	    1);
}
END_TEST

/* The teaching message names where the variable does exist. */
START_TEST(test_legality_message)
{
	bad(BE "sub vcl_hit { set beresp.ttl = 1s; }\n", "4:19",
	    "beresp.ttl cannot be set in vcl_hit; it can be set in "
	    "vcl_backend_response and vcl_backend_error");
	bad(BE "sub vcl_recv { if (beresp.ttl > 1s) { } }\n", "4:20",
	    "beresp.ttl is not available in vcl_recv; it exists in "
	    "vcl_backend_response and vcl_backend_error");
	bad(BE "sub vcl_deliver { set req.xid = \"1\"; }\n", "4:23",
	    "Variable is read only. req.xid cannot be set");
	/* A user sub is judged by the methods that call it. */
	bad(BE "sub s { set resp.http.X = \"1\"; }\n"
	    "sub vcl_recv { call s; }\n", "4:13",
	    "cannot be set in sub s (called from vcl_recv)");
	ok(BE "sub s { set resp.http.X = \"1\"; }\n"
	    "sub vcl_deliver { call s; }\n");
	bad(BE "sub vcl_recv { set req.ur = \"/\"; }\n", "4:20",
	    "did you mean req.url?");
}
END_TEST

START_TEST(test_returns)
{
	char src[512], *msg, *c;
	unsigned m, r, legal;
	int rc;

	for (m = 0; m < ARRAY_SIZE(meths); m++)
		for (r = 1; r < ARRAY_SIZE(rets); r++) {
			if (!strcmp(rets[r], "vcl"))
				continue;
			(void)snprintf(src, sizeof src, BE "sub %s {\n"
			    "\treturn (%s%s);\n}\n", meths[m].name, rets[r],
			    !strcmp(rets[r], "synth") ? "(200)" : "");
			rc = comp(src, &c, &msg);
			legal = meths[m].rets & (1U << r);
			/* VCL 4.0's fetch in vcl_hit means miss */
			if (meths[m].idx == VCL_MET_HIT &&
			    !strcmp(rets[r], "fetch"))
				legal = 1;
			/* VCL 3's lookup in vcl_recv means hash */
			if (meths[m].idx == VCL_MET_RECV &&
			    !strcmp(rets[r], "lookup"))
				legal = 1;
			if (legal)
				ck_assert_msg(rc == 0, "%s in %s:\n%s",
				    rets[r], meths[m].name, msg);
			else
				ck_assert_msg(rc != 0 &&
				    strstr(msg,
				    "t.vcl:5:10: error: Invalid return") &&
				    strstr(msg, " may return "),
				    "%s in %s:\n%s", rets[r], meths[m].name,
				    msg);
			free(msg);
			free(c);
		}
	bad(BE "sub vcl_recv { return (deliver); }\n", "4:24",
	    "vcl_recv may return fail, hash, pass, pipe, purge, restart, "
	    "synth or vcl");
	bad(BE "sub vcl_recv { return (nonsense); }\n", "4:24",
	    "Expected return action name.");
}
END_TEST

START_TEST(test_compat_4_0)
{
	char *c, *msg;

	ck_assert_int_eq(comp(BE "sub vcl_hit { return (fetch); }\n", &c,
	    &msg), 0);
	ck_assert_ptr_nonnull(strstr(msg, "warning: return (fetch) in "
	    "vcl_hit"));
	ck_assert_ptr_nonnull(strstr(c, "return (VCL_RET_MISS);"));
	free(c);
	free(msg);
	ck_assert_int_eq(comp(BE "sub vcl_recv { return (lookup); }\n", &c,
	    &msg), 0);
	ck_assert_ptr_nonnull(strstr(msg, "return (hash)"));
	ck_assert_ptr_nonnull(strstr(c, "return (VCL_RET_HASH);"));
	free(c);
	free(msg);
	ck_assert_int_eq(comp(BE "sub vcl_recv { remove req.http.X; }\n",
	    NULL, &msg), 0);
	ck_assert_ptr_nonnull(strstr(msg, "warning: `remove` is VCL 3"));
	free(msg);
	/* A feature that is not here compiles with a warning. */
	ck_assert_int_eq(comp(BE "sub vcl_backend_response {\n"
	    "\tset beresp.filters = \"esi\";\n}\n", NULL, &msg), 0);
	ck_assert_ptr_nonnull(strstr(msg, "t.vcl:5:6: warning: "
	    "beresp.filters is accepted but does nothing yet"));
	free(msg);
	/* An acl and a sub named like functions. */
	ok(BE "acl ban { \"127.0.0.1\"; }\nsub purge { }\n"
	    "sub vcl_recv { if (client.ip ~ ban) { call purge; } }\n");
}
END_TEST

START_TEST(test_types)
{
	ok(BE "sub vcl_recv {\n"
	    "\tset req.http.A = \"a\" \"b\" + 1 + 1.5 + 2s + now + true + "
	    "client.ip + default + 1KB;\n"
	    "\tset req.http.B = regsuball(req.url, \"(a)(b)\", \"\\2\\1\");\n"
	    "\tif (req.http.A && !req.http.B || req.restarts > 0) { }\n"
	    "\tif (req.url ~ \"^/x\" && req.url !~ \"y$\") { }\n"
	    "\tset req.url = std.tolower(req.url + \"?\");\n"
	    "\tset req.http.I = std.integer(s = req.http.I, fallback = 0) "
	    "+ 1;\n"
	    "\tstd.collect(req.http.Cookie);\n"
	    "\tstd.collect(req.http.Cookie, \"; \");\n"
	    "\tset req.backend_hint = default;\n"
	    "\tif (req.backend_hint == default) { }\n"
	    "}\n"
	    "sub vcl_backend_response {\n"
	    "\tset beresp.ttl = 1h + 30m;\n"
	    "\tset beresp.ttl *= 2;\n"
	    "\tset beresp.grace = std.duration(\"10s\", 1s);\n"
	    "\tif (beresp.ttl > 10m) { return (pass(2m)); }\n"
	    "}\n");
	bad(BE "sub vcl_backend_response { set beresp.ttl = 10; }\n",
	    "4:45", "a number with a unit");
	bad(BE "sub vcl_recv { set req.url = 1s; if (req.url == 1) { } }\n",
	    "4:46", "cannot compare a STRING with an INT");
	bad(BE "sub vcl_recv { if (req.url ~ \"(\") { } }\n", "4:32",
	    "Regexp compilation error");
	bad(BE "sub vcl_recv { set req.http.X = std.log(\"1\"); }\n",
	    "4:33", "returns nothing");
	bad(BE "sub vcl_recv { set req.url = 2x; }\n", "4:31",
	    "unknown unit");
	bad("vcl 4.1;\nbackend default { .host = \"h\"; }\n"
	    "sub vcl_recv { std.log(\"x\"); }\n", "3:16",
	    "needs `import std;`");
	bad(BE "import foo;\n", "4:8", "the modules here are: std");
}
END_TEST

START_TEST(test_decls)
{
	ok(BE "probe p { .url = \"/health\"; .interval = 5s; .window = 5; "
	    ".threshold = 3; }\n"
	    "backend b2 { .host = \"no.such.host.invalid\"; .port = \"81\"; "
	    ".probe = p; .connect_timeout = 1s; .max_connections = 10; }\n"
	    "backend b3 { .path = \"/run/app.sock\"; .probe = { "
	    ".request = \"GET / HTTP/1.1\" \"Host: x\"; } }\n"
	    "acl a { \"10.0.0.0\"/8; !\"10.1.2.3\"; \"::1\"; \"localhost\"; "
	    "(\"maybe.invalid\"); }\n"
	    "sub vcl_recv { if (client.ip ~ a) { set req.backend_hint = b2; }"
	    " else { set req.backend_hint = b3; } }\n");
	bad(BE "backend b { .port = \"80\"; }\n", "4:9", "needs .host");
	bad(BE "backend b { .hots = \"x\"; }\n", "4:14",
	    "Unknown field: '.hots'");
	bad(BE "backend default { .host = \"x\"; }\n", "4:9",
	    "declared twice");
	bad(BE "backend b { .host = \"x\"; }\n", "4:9",
	    "backend b is never used");
	bad(BE "acl a { \"10.0.0.0\"/33; }\n"
	    "sub vcl_recv { if (client.ip ~ a) { } }\n", "4:20",
	    "Too wide mask (/33) for IPv4 address");
	bad(BE "acl a { \"10.0.0.300\"; }\n"
	    "sub vcl_recv { if (client.ip ~ a) { } }\n", "4:9",
	    "not an IPv4 address");
	bad(BE "sub s { call s; }\nsub vcl_recv { call s; }\n", "4:5",
	    "recursion");
	bad(BE "sub vcl_recv { call nope; }\n", "4:21", "no sub named nope");
	bad(BE "sub vcl_foo { }\n", "4:5", "not a builtin subroutine");
	bad(BE "probe p { .window = 3; .threshold = 4; }\n"
	    "backend b { .host = \"x\"; .probe = p; }\n"
	    "sub vcl_recv { set req.backend_hint = b; }\n", "4:37",
	    ".threshold (4) is more than .window (3)");
	bad("backend default { .host = \"x\"; }\n", "1:1",
	    "starts with `vcl 4.1;`");
	bad("vcl 5.0;\n", "1:5", "VCL version 5.0 not supported.");
	bad("vcl 4.1;\nsub vcl_recv { }\n", "", "declares no backend");
	ok("vcl 4.0;\nbackend default none;\n");
}
END_TEST

START_TEST(test_unref_and_inline_c)
{
	char *msg;

	opts.err_unref = 0;
	ck_assert_int_eq(comp(BE "backend b { .host = \"x\"; }\n"
	    "sub s { }\n", NULL, &msg), 0);
	ck_assert_ptr_nonnull(strstr(msg, "warning: Unused backend b, "
	    "defined: here; backend b is never used"));
	ck_assert_ptr_nonnull(strstr(msg, "warning: Unused sub s, defined:"));
	free(msg);
	opts.err_unref = 1;
	bad(BE "C{ int x; }C\n", "4:1", "vcc_allow_inline_c=on");
	opts.allow_inline_c = 1;
	ok(BE "C{ static int x; }C\nsub vcl_recv { C{ (void)x; }C }\n");
	opts.allow_inline_c = 0;
}
END_TEST

START_TEST(test_lexer)
{
	ok(BE "# hash comment\n// slash comment\n/* block\ncomment */\n"
	    "sub vcl_synth {\n"
	    "\tsynthetic({\"long\n\"string\"} + \"\"\"triple\n\"\"\");\n"
	    "\treturn (deliver);\n}\n");
	bad(BE "sub vcl_recv { set req.url = \"abc\n\"; }\n", "4:30",
	    "Unterminated string, starting at");
	bad(BE "/* never closed\n", "4:1",
	    "Unterminated /* ... */ comment, starting at");
	bad(BE "sub vcl_recv { set req.url = \"a\" $ \"b\"; }\n", "4:34",
	    "unexpected character");
	bad(BE "sub vcl_recv {\n", "4:15", "expected '}' before the end");
	/* Positions count bytes from 1, tabs as one. */
	bad(BE "sub vcl_recv {\n\t\tset req.nope = \"x\";\n}\n", "5:7",
	    "unknown variable");
}
END_TEST

START_TEST(test_include)
{
	char dir[] = "/tmp/test_vcc.XXXXXX", path[512], src[1024], *msg, *c;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(path, sizeof path, "%s/inc.vcl", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	(void)fputs("sub vcl_recv {\n\tset req.http.X-Inc = \"1\";\n"
	    "\tset req.nope = 1;\n}\n", f);
	(void)fclose(f);
	(void)snprintf(path, sizeof path, "%s/main.vcl", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	(void)fputs(BE "include \"inc.vcl\";\n", f);
	(void)fclose(f);
	/* Beside the including file; the error names the included one. */
	ck_assert_int_ne(VCC_Compile(&opts, path, NULL, &c, &msg), 0);
	ck_assert_ptr_null(c);
	(void)snprintf(src, sizeof src, "%s/inc.vcl:3:6: error:", dir);
	ck_assert_msg(strstr(msg, src) != NULL, "%s", msg);
	free(msg);
	/* Through vcl_path when not beside it. */
	opts.vcl_path = dir;
	bad(BE "include \"inc.vcl\";\n", "", "Symbol not found: 'req.nope'");
	bad(BE "include \"nope.vcl\";\n", "4:9", "cannot find \"nope.vcl\"");
	/* include +glob: every match, in order; none is an error. */
	bad(BE "include +glob \"n*.vcl\";\n", "4:15",
	    "glob pattern matched no files.");
	bad(BE "include +glob \"i*.vcl\";\n", "", "Symbol not found: "
	    "'req.nope'");
	opts.vcl_path = "";
	(void)snprintf(path, sizeof path, "%s/g1.vcl", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	(void)fputs("sub vcl_deliver { set resp.http.a = \"1\"; }\n", f);
	(void)fclose(f);
	(void)snprintf(path, sizeof path, "%s/g2.vcl", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	(void)fputs("sub vcl_deliver { set resp.http.b = \"2\"; }\n", f);
	(void)fclose(f);
	(void)snprintf(src, sizeof src, BE "include +glob \"%s/g*.vcl\";\n",
	    dir);
	ck_assert_int_eq(comp(src, &c, &msg), 0);
	ck_assert_ptr_nonnull(strstr(c, "\"a:\""));
	ck_assert_ptr_nonnull(strstr(strstr(c, "\"a:\""), "\"b:\""));
	free(c);
	free(msg);
	bad(BE "include +glob \"./g*.vcl\";\n", "4:15",
	    "needs absolute filename of including file.");
	bad(BE "include +blob \"x\";\n", "4:10", "Unknown include flag");
	(void)snprintf(path, sizeof path, "%s/g1.vcl", dir);
	(void)unlink(path);
	(void)snprintf(path, sizeof path, "%s/g2.vcl", dir);
	(void)unlink(path);
	(void)snprintf(path, sizeof path, "%s/inc.vcl", dir);
	(void)unlink(path);
	(void)snprintf(path, sizeof path, "%s/main.vcl", dir);
	(void)unlink(path);
	(void)rmdir(dir);
}
END_TEST

/* The emitted C compiles warning-free with the system compiler. */
static const char * const good_vcl[] = {
	/* A method called as a sub (b00030), and INT % INT. */
	BE "sub vcl_backend_error { call vcl_backend_response; }\n"
	"sub vcl_deliver { set resp.http.r = resp.status % 7;\n"
	"\tset resp.http.f = 17 % 5; }\n",
	/* ACL flags, an ACL as a string, IP == IP (c00005, c00087). */
	BE "acl a +log -pedantic { \"127.0.0.1\"; }\n"
	"sub vcl_deliver { set resp.http.acl = a;\n"
	"\tset resp.http.eq = local.ip == remote.ip; }\n",
	BE "sub vcl_recv { if (req.http.host ~ \"^www\\.\") {\n"
	"\tset req.http.host = regsub(req.http.host, \"^www\\.\", \"\"); }\n"
	"\tif (req.url ~ \"\\.(png|jpg)$\") { unset req.http.Cookie; }\n"
	"\tset req.url = std.querysort(req.url);\n}\n"
	"sub vcl_backend_response { if (bereq.url ~ \"^/img\") {\n"
	"\tunset beresp.http.Set-Cookie; set beresp.ttl = 1h; } }\n"
	"sub vcl_deliver { if (obj.hits > 0) { set resp.http.X-Cache = "
	"\"HIT\"; } else { set resp.http.X-Cache = \"MISS\"; } }\n",
	BE "acl purgers { \"127.0.0.1\"; \"::1\"; }\n"
	"sub vcl_recv { if (req.method == \"PURGE\") {\n"
	"\tif (!(client.ip ~ purgers)) { return (synth(405, \"No\")); }\n"
	"\treturn (purge); } }\n"
	"sub vcl_synth { set resp.http.X = resp.status + \" \" + "
	"resp.reason; synthetic(\"<h1>\" + resp.status + \"</h1>\");\n"
	"\treturn (deliver); }\n",
	BE "sub pick { set req.backend_hint = default; }\n"
	"sub vcl_recv { call pick; if (req.restarts > 2) { return "
	"(synth(503)); } }\n"
	"sub vcl_hash { hash_data(req.http.X-Lang); }\n"
	"sub vcl_backend_fetch { set bereq.http.X-B = bereq.url; }\n"
	"sub vcl_backend_error { synthetic(\"err\"); return (deliver); }\n"
	"sub vcl_init { std.log(\"init\"); }\n",
};

/* Varnish's words, which operators' scripts grep for, in our messages. */
START_TEST(test_varnish_phrases)
{
	char *msg;

	ok(BE "sub vcl_backend_error { call vcl_backend_response; }\n");
	bad(BE "sub vcl_recv { call vcl_recv; }\n", "", "calls itself");
	bad(BE "sub vcl_hash { return (lookup); }\n"
	    "sub vcl_recv { call vcl_hash; }\n", "4:24",
	    "not allowed in vcl_hash (called from vcl_recv)");
	bad(BE "sub vcl_recv { if (client.ip ~ default) { } }\n", "4:32",
	    "Name default must have type 'acl'.");
	bad(BE "backend b { .host = \"x\"; .probe = { .url = \"/\";\n"
	    ".request = \"GET / HTTP/1.1\"; } }\n", "5:2",
	    "Probe request redefinition at:");
	bad(BE "backend b { .host = \"x\"; .probe = { .timeout = \"2s\"; }"
	    " }\n", "4:48", "Expected CNUM got '\"2s\"'");
	bad(BE "sub s { }\nsub s { }\nsub vcl_recv { call s; }\n", "5:5",
	    "Subroutine 's' redefined");
	bad(BE "probe p { }\nprobe p { }\n", "5:7", "Probe 'p' redefined");
	bad(BE "backend b { .host = \"x\"; }\n", "4:9",
	    "Unused backend b, defined:");
	bad(BE "acl a { \"::1\"/129; }\n"
	    "sub vcl_recv { if (client.ip ~ a) { } }\n", "4:15",
	    "Too wide mask (/129) for IPv6 address");
	bad(BE "sub vcl_recv { set now = now; }\n", "4:20",
	    "Variable is read only.");
	bad(BE "sub vcl_recv { set req.url >>= 1; }\n", "4:28",
	    "Expected '=' got '>>'");
	bad(BE "sub vcl_recv { return; }\n", "4:16", "Expected '(' got ';'");
	bad(BE "zool\n", "4:1", "Found: 'zool' at");
	bad(BE "sub vcl_recv { if (req.ttl % 2) { } }\n", "4:28",
	    "Operator % only possible on INT");
	bad(BE "include \"./x.vcl\";\n", "4:9",
	    "needs absolute filename of including file.");
	bad(BE "include \"x.vcl\" |\n", "4:17",
	    "include <string> not followed by semicolon.");
	bad(BE "C{ }C\n", "4:1", "Inline-C not allowed");
	bad("vcl 3.9;\n", "1:5", "VCL version 3.9 not supported.");
	bad("vcl 4.00;\n", "1:5", "Don't play silly buggers");
	bad("vcl 4.0 backend b none;\n", "1:9",
	    "Expected 'vcl N.N;' found no semi-colon");
	bad(BE "sub vcl_recv { C{\n", "4:16",
	    "Unterminated inline C source, starting at");
	bad(BE "sub vcl_recv { ? }\n", "4:16", "Syntax error at");
	bad(BE "acl a +foo { }\nsub vcl_recv { if (client.ip ~ a) { } }\n",
	    "4:8", "Unknown ACL flag:");
	bad(BE "sub vcl_recv { if (req.url == 1) { } }\n", "4:28",
	    "Comparison of different types: STRING '==' INT");
	/* Variables that differ between VCL 4.0 and 4.1. */
	bad(BE "sub vcl_recv { set req.esi = false; }\n", "4:20",
	    "Symbol not found: 'req.esi' (Only available when VCL syntax "
	    "<= 4.0)");
	ok(BE40 "sub vcl_recv { set req.esi = false; }\n");
	bad(BE40 "sub vcl_deliver { set resp.do_esi = false; }\n", "4:23",
	    "(Only available when 4.1 <= VCL syntax)");
	bad(BE40 "sub vcl_recv { std.log(sess.xid); }\n", "4:24",
	    "Symbol not found: 'sess.xid' (Only available when 4.1 <= VCL "
	    "syntax)");
	bad(BE "sub vcl_deliver { set resp.proto = \"HTTP/1.0\"; }\n",
	    "4:23", "Variable is read only. resp.proto cannot be set in "
	    "VCL 4.1");
	ok(BE40 "sub vcl_deliver { set resp.proto = \"HTTP/1.0\"; }\n");
	/* The Varnish sentence where a variable is not available. */
	bad(BE "sub vcl_pipe { set bereq.first_byte_timeout = 1s; }\n",
	    "4:20", "Cannot be set in subroutine 'vcl_pipe'.");
	bad(BE "sub vcl_recv { if (beresp.ttl > 1s) { } }\n", "4:20",
	    "Not available in subroutine 'vcl_recv'.");
	bad(BE "sub s { if (beresp.ttl > 1s) { } }\n"
	    "sub vcl_recv { call s; }\n", "4:13",
	    "Not available from subroutine 'vcl_recv'.");
	bad(BE "sub vcl_deliver { unset bereq.http.X; }\n", "4:25",
	    "Cannot be unset in subroutine 'vcl_deliver'.");
	/* A number where a unit belongs. */
	bad(BE "sub vcl_recv { if (storage.s0.free_space > 4 \"X\") { } }\n",
	    "4:46", "Expected BYTES unit (B, KB, MB...) got '\"X\"'");
	bad(BE "sub vcl_recv { if (storage.s0.free_space > 4 X) { } }\n",
	    "4:46", "Unknown BYTES unit 'X'");
	bad(BE "sub vcl_backend_response { set beresp.ttl = 1. k; }\n",
	    "4:48", "Unknown duration unit 'k'");
	ok(BE "sub vcl_backend_response { set beresp.ttl = 1. s; }\n");
	/* return (fail("why")), as Varnish 7.1 takes it. */
	{
		char *c;

		ck_assert_int_eq(comp(BE "sub vcl_init { return (fail(\"no\" "
		    "+ \"pe\")); }\n", &c, &msg), 0);
		ck_assert_ptr_nonnull(strstr(c, "VRT_fail(ctx, \"%s\","));
		free(c);
		free(msg);
	}
	/* Where a STRING is made, + joins what does not add. */
	ok(BE "sub vcl_recv { set req.http.a = 1 + 1s; std.log(1 + \"a\");\n"
	    "set req.http.b = \"x\" + 1 + 1s; }\n");
	bad(BE "sub vcl_recv { set req.ttl = now + \"foo\"; }\n", "4:34",
	    "TIME + STRING not possible.");
	bad(BE "sub vcl_backend_response { set beresp.status = 1 + "
	    "\"foo\"; }\n", "4:50", "INT + STRING not possible.");
	bad(BE "sub vcl_recv { set req.http.a = \"foo\" - \"bar\"; }\n",
	    "4:39", "STRING - STRING not possible.");
	bad(BE "sub vcl_recv { set req.http.a = \"bla\" * \"foo\"; }\n",
	    "4:39", "Operator * not possible on type STRING.");
	bad(BE "sub vcl_recv { if (req.ttl > 1 + 1s) { } }\n", "4:32",
	    "INT + DURATION not possible.");
	/* Names, statements and actions, in Varnish's words. */
	bad(BE "sub vcl_recv { set req.http.a = mu; }\n", "4:33",
	    "Symbol not found: 'mu'");
	bad(BE "sub vcl_recv { if (req.foo) { } }\n", "4:20",
	    "Unknown property 'foo' for type HTTP");
	bad(BE "sub vcl_recv { set req.foobar = 3; }\n", "4:20",
	    "Symbol not found: 'req.foobar'");
	bad(BE "sub vcl_recv { kluf; }\n", "4:16", "Symbol not found: 'kluf'");
	bad(BE "sub vcl_recv { ban_hash(\"x\"); }\n", "4:16",
	    "Symbol not found: 'ban_hash'");
	bad(BE "sub vcl_recv { call foo; }\n", "4:21", "Undefined sub foo");
	bad(BE "sub vcl_recv { call acl; }\n", "4:21",
	    "Symbol 'acl' type (reserved) can not be used in expression.");
	bad(BE "sub vcl_recv { set req.http.a = vcl_recv; }\n", "4:33",
	    "Symbol 'vcl_recv' can only be used as a SUB expression");
	bad(BE "sub vcl_synth { set resp.http.a = resp; }\n", "4:35",
	    "Cannot convert HTTP to STRING");
	bad(BE "import vtc;\nsub vcl_recv { set req.http.a = "
	    "vtc.sleep(1s); }\n", "5:33", "Function returns VOID");
	bad(BE "sub vcl_backend_fetch { set bereq.body = \"x\"; }\n", "4:29",
	    "Variable cannot be set.");
	bad(BE "sub vcl_backend_response { unset beresp.do_gzip; }\n",
	    "4:34", "Variable cannot be unset");
	bad(BE "sub vcl_recv { set obj.ttl = 1s; }\n", "4:20",
	    "Not available in subroutine 'vcl_recv'.");
	bad(BE "sub s { set obj.ttl = 1s; }\nsub vcl_recv { call s; }\n",
	    "4:13", "Not available from subroutine 'vcl_recv'.");
	bad(BE "sub s { set obj.ttl = 1s; }\nsub vcl_deliver { call s; }\n",
	    "4:13", "Variable is read only.");
	bad(BE "sub vcl_recv { return (synth); }\n", "4:29",
	    "Missing argument.");
	bad(BE "sub vcl_recv { return (pipe(1)); }\n", "4:28",
	    "Arguments not allowed.");
	bad(BE "sub vcl_recv { return (foobar); }\n", "4:24",
	    "Expected return action name.");
	bad(BE "sub vcl_recv { synthetic(\"x\"); }\n", "4:16",
	    "Not a valid action in subroutine 'vcl_recv'.");
	bad(BE "sub vcl_recv { return (deliver); }\n", "4:24",
	    "Invalid return \"deliver\"");
	bad(BE "sub vcl_recv { return (vcl(vcl_recv)); }\n", "4:28",
	    "Symbol 'vcl_recv' has wrong type (sub), expected vcl:");
	bad(BE40 "sub vcl_recv { return (vcl(vcl_recv)); }\n", "4:28",
	    "Symbol not found: 'vcl_recv'");
	bad(BE "sub vcl_bar { }\nsub vcl_recv { call vcl_bar; }\n", "4:5",
	    "The names 'vcl_*' are reserved for subroutines.");
	bad(BE "sub vcl_recv { if (req.url ~ \"[a\") { } }\n", "4:33",
	    "Regexp compilation error:");
	bad(BE "sub vcl_recv { if (req.url ~ \"a\" + req.url) { } }\n",
	    "4:36", "Expected CSTR got 'req.url'");
	bad(BE "include if;\n", "4:9", "include not followed by string "
	    "constant.");
	bad(BE "sub vcl_recv { if (client.ip ~ s) { } }\nsub s { }\n", "4:32",
	    "Symbol 's' has wrong type (acl), expected sub:");
	bad(BE "sub vcl_recv { if (client.ip ~ true) { } }\n", "4:32",
	    "Expression has type BOOL, expected ACL");
	bad(BE "sub vcl_recv { if (client.ip ~ vcl_foo) { } }\n", "4:32",
	    "Symbols named 'vcl_*' are reserved.");
	bad(BE "sub vcl_recv { set req.http.a = !1.5; }\n", "4:33",
	    "'!' must be followed by BOOL, found REAL.");
	bad(BE "sub vcl_recv { if (1.5 && true) { } }\n", "4:24",
	    "'&&' must be preceeded by BOOL, found REAL.");
	bad(BE "sub vcl_recv { if (true || 1.5) { } }\n", "4:25",
	    "'||' must be followed by BOOL, found REAL.");
	bad(BE "sub vcl_recv { set req.http.x"
	    "0123456789012345678901234567890123456789012345678901234567890123"
	    "456789012345678901234567890123456789012345678901234567890123456"
	    " = \"1\"; }\n", "4:20", "HTTP header (x0123456789012345678..) "
	    "is too long.");
	bad(BE "sub vcl_recv { ban(<<); }\n", "4:20",
	    "Unknown token '<<' when looking for STRING");
	bad(BE "sub vcl_synth { set resp.status = --200; }\n", "4:35",
	    "Unknown token '--' when looking for INT");
	bad(BE "sub foo.bar { }\nsub vcl_recv { call foo.bar; }\n", "4:5",
	    "Name of subroutine, 'foo.bar', contains illegal character '.'");
	bad(BE "acl a.b { }\n", "4:5",
	    "Name of ACL, 'a.b', contains illegal character '.'");
	bad(BE "import debug;\nsub vcl_init { new o.x = debug.obj(); }\n",
	    "5:20", "Name of VCL object, 'o.x', contains illegal character "
	    "'.'");
	/* ACLs, read as Varnish reads them. */
#define ACL_USE	"sub vcl_recv { if (client.ip ~ a) { } }\n"
	bad(BE "acl a { \"1.2.3.4\"; !\"1.2.3.4\"; }\n" ACL_USE, "4:21",
	    "Conflicting ACL entries:");
	ok(BE "acl a { \"1.2.3.4\"/31; \"1.2.3.4\"/31; }\n" ACL_USE);
	bad(BE "acl a { \"...com\"; }\n" ACL_USE, "4:9",
	    "DNS lookup(...com): ");
	bad(BE "acl a { \"10.1..2\"; }\n" ACL_USE, "4:9",
	    "DNS lookup(10.1..2): ");
	ok(BE "acl a { ! \"10.1.3\"; (\"...com\" / 22); (!\"...com\"); "
	    "\"10.1.1\"/25; \"10.0.0.0/8\"; }\n" ACL_USE);
	bad(BE "acl a { \"10.1.2\" ); }\n" ACL_USE, "4:18",
	    "Expected ';' got ')'");
	bad(BE "acl a { \"10.0.1.0/1bc\"; }\n" ACL_USE, "4:9",
	    ".../mask is not numeric.");
	bad(BE "acl a { \"10.0.1.0/22\" / 22; }\n" ACL_USE, "4:23",
	    "/mask only allowed once");
	bad(BE "acl a + log { }\n" ACL_USE, "4:9", "Expected a flag at:");
	bad(BE "acl a +foo { }\n" ACL_USE, "4:8", "Unknown ACL flag:");
#undef ACL_USE
	bad(BE "sub vcl_recv { if (client.ip > \"1.2.3.4\") { } }\n", "4:30",
	    "Operator > not possible on IP");
	bad(BE "sub vcl_recv { if (req.backend_hint < default) { } }\n",
	    "4:37", "Operator < not possible on BACKEND");
	/* Backends and probes. */
	bad(BE "backend b { .host = \"[::1\"; }\n", "4:9",
	    "IPv6 address lacks ']'");
	bad(BE "backend b { .host = \"[::1]/80\"; }\n", "4:9",
	    "IPv6 address has wrong port separator");
	bad(BE "backend b { set .host = \"x\"; }\n", "4:13",
	    "NB: Backend Syntax has changed:");
	bad(BE "backend b { .host = \"x\"; .probe = \"p\"; }\n", "4:35",
	    "Expected '{' or name of probe, got");
	bad(BE "backend b { .host = \"x\"; .host = \"y\"; }\n", "4:27",
	    "Field 'host' redefined at:");
	bad(BE "backend b { .port = \"80\"; }\n", "4:9",
	    "Expected .host or .path.");
	bad(BE "backend b { .host = \"x\"; .path = \"/s\"; }\n", "4:9",
	    "Address redefinition at:");
	bad(BE "backend b { .path = \"s.sock\"; }\n", "4:9",
	    "Must be an absolute path:");
	bad(BE "backend b { .path = \"/\"; }\n", "4:9", "Not a socket:");
	bad(BE "backend b { .host = \"x\"; .probe = default; }\n", "4:35",
	    "No default probe defined");
	bad(BE "backend default { .host = \"y\"; }\n", "4:9",
	    "Only one default director possible.");
	bad(BE "probe p { .expected_response = 1000; }\n", "4:32",
	    "with exactly three digits");
	bad(BE "probe p { .expected_response = 99; }\n", "4:32",
	    "with exactly three digits");
	bad(BE "probe p { .window = 32; }\n", "4:21",
	    "Must specify .threshold with .window");
	bad(BE "probe p { .threshold = 65; }\n", "4:24",
	    "Threshold must be 64 or less.");
	bad(BE "probe p { .window = 65; .threshold = 64; }\n", "4:21",
	    "Window must be 64 or less.");
	bad(BE "probe p { .window = 63; .threshold = 64; }\n", "4:38",
	    "Threshold can not be greater than window");
	opts.err_unref = 0;
	ck_assert_int_eq(comp(BE "acl a { }\n", NULL, &msg), 0);
	ck_assert_ptr_nonnull(strstr(msg, "warning: Unused acl a, defined:"));
	ck_assert_ptr_nonnull(strstr(msg, "(That was just a warning)"));
	free(msg);
	opts.err_unref = 1;
}
END_TEST

START_TEST(test_emitted_c_compiles)
{
	char dir[] = "/tmp/test_vcc.XXXXXX", path[600], cmd[2048], *c, *msg;
	FILE *f;
	unsigned u;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (u = 0; u < ARRAY_SIZE(good_vcl); u++) {
		ck_assert_msg(comp(good_vcl[u], &c, &msg) == 0, "%s", msg);
		free(msg);
		(void)snprintf(path, sizeof path, "%s/vgc%u.c", dir, u);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		(void)fputs(c, f);
		(void)fclose(f);
		free(c);
		(void)snprintf(cmd, sizeof cmd, "cc -std=gnu99 -fsyntax-only "
		    "-Wall -Wextra -Werror -Wno-unused-parameter -I%s %s",
		    VCC_INCLUDE_DIR, path);
		ck_assert_msg(system(cmd) == 0, "cc failed on the C of:\n%s",
		    good_vcl[u]);
		(void)unlink(path);
	}
	(void)rmdir(dir);
}
END_TEST

static Suite *
vcc_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vcc");
	tc = tcase_create("vcc");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_legality_vars, 0, (int)ARRAY_SIZE(vars));
	tcase_add_loop_test(tc, test_legality_headers, 0,
	    (int)ARRAY_SIZE(hdrs));
	tcase_add_test(tc, test_legality_message);
	tcase_add_test(tc, test_returns);
	tcase_add_test(tc, test_compat_4_0);
	tcase_add_test(tc, test_types);
	tcase_add_test(tc, test_decls);
	tcase_add_test(tc, test_unref_and_inline_c);
	tcase_add_test(tc, test_lexer);
	tcase_add_test(tc, test_include);
	tcase_add_test(tc, test_varnish_phrases);
	tcase_add_test(tc, test_emitted_c_compiles);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(vcc_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

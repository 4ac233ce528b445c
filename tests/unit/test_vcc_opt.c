/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcc_opt.c -- issue #13: the C the optimising compiler emits, and
 * the C it emits with -p vcc_optimize=off.  Each optimisation is seen in
 * the C (test_vcl_opt shows the answers stay the same): a run of ==
 * tests becomes a hash lookup and integer compares, a value read twice
 * is remembered and restamped by the statements that change it, a regex
 * tested twice on one subject is matched once, match-only regexes are
 * flagged for the literal matcher, constants fold; and the profile
 * points name file, line and the condition's text.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcc/vcc.h"

#define BE	"vcl 4.1;\nimport std;\n" \
		"backend default { .host = \"127.0.0.1\"; }\n"

static char *
cc_of(const char *src, int optimize)
{
	struct vcc_opts o;
	char *c = NULL, *msg = NULL;

	memset(&o, 0, sizeof o);
	o.vcl_path = "";
	o.no_builtin = 1;
	o.optimize = (unsigned)optimize;
	ck_assert_msg(VCC_Compile(&o, "t.vcl", src, &c, &msg) == 0,
	    "should compile:\n%s\n%s", src, msg);
	free(msg);
	ck_assert_ptr_nonnull(c);
	return (c);
}

static unsigned
count(const char *hay, const char *needle)
{
	unsigned n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return (n);
}

/* The body of generated function name, for looking inside one. */
static char *
body_of(const char *c, const char *name)
{
	const char *b, *e;
	char *r;

	b = strstr(c, name);
	ck_assert_msg(b != NULL, "no %s in the C", name);
	b = strstr(b, "\n{\n");
	ck_assert_ptr_nonnull(b);
	e = strstr(b, "\n}\n");
	ck_assert_ptr_nonnull(e);
	r = strndup(b, (size_t)(e - b) + 3);
	ck_assert_ptr_nonnull(r);
	return (r);
}

static const char hosts_vcl[] = BE
    "sub vcl_recv {\n"
    "\tif (req.http.host == \"a.example\" && req.url ~ \"^/a\") {\n"
    "\t\tset req.http.X = \"a\";\n\t}\n"
    "\tif (req.http.host == \"b.example\" && req.url ~ \"^/b\") {\n"
    "\t\tset req.http.X = \"b\";\n\t}\n"
    "\tif (req.http.Host == \"c.example\") { return (pass); }\n"
    "\tif (req.http.HOST != \"a.example\") { set req.http.Y = \"1\"; }\n"
    "}\n";

START_TEST(issue_0013_eq_run_is_one_lookup)
{
	char *c, *recv;

	c = cc_of(hosts_vcl, 1);
	/* One table of the three constants, looked up once per frame. */
	ck_assert_uint_eq(count(c, "static const struct vrt_littab"), 1);
	ck_assert_uint_eq(count(c, "VRT_lit_index("), 1);
	ck_assert_ptr_nonnull(strstr(c, "\"a.example\",\n\t\"b.example\",\n"
	    "\t\"c.example\",\n"));
	recv = body_of(c, "vgc_method_recv(VRT_CTX)");
	/* Host, HOST and host are one subject; no strcmp is left. */
	ck_assert_uint_eq(count(recv, "vgc_eq_"), 4);
	ck_assert_ptr_nonnull(strstr(recv, "(!vgc_eq_"));
	ck_assert_ptr_null(strstr(recv, "VRT_strcmp"));
	ck_assert_ptr_null(strstr(recv, "VRT_GetHdr"));
	/* The cheap test first, as written: && keeps the order. */
	ck_assert_ptr_nonnull(strstr(recv, "((vgc_eq_"));
	ck_assert(strstr(recv, "vgc_eq_") < strstr(recv, "vgc_rm_"));
	free(recv);
	free(c);

	c = cc_of(hosts_vcl, 0);
	ck_assert_uint_eq(count(c, "VRT_lit_index("), 0);
	ck_assert_uint_eq(count(c, "vgc_eq_"), 0);
	ck_assert_uint_eq(count(c, "VRT_strcmp(VRT_GetHdr(ctx, "), 4);
	free(c);
}
END_TEST

/* One comparison alone needs no table: a plain strcmp of a plain read. */
START_TEST(issue_0013_single_test_stays_plain)
{
	char *c;

	c = cc_of(BE "sub vcl_recv {\n"
	    "\tif (req.http.host == \"a.example\") { return (pass); }\n"
	    "}\n", 1);
	ck_assert_uint_eq(count(c, "VRT_lit_index("), 0);
	ck_assert_ptr_nonnull(strstr(c, "return (VRT_strcmp(vgc_rd_"));
	ck_assert_ptr_nonnull(strstr(c, "\treturn (VRT_GetHdr(ctx, "));
	ck_assert_ptr_nonnull(strstr(c, "m[1];"));	/* an empty frame */
	free(c);
}
END_TEST

START_TEST(issue_0013_reads_remembered_and_restamped)
{
	char *c, *recv, *p;

	c = cc_of(BE "sub vcl_recv {\n"
	    "\tset req.http.A = req.http.User-Agent + \"1\";\n"
	    "\tset req.http.User-Agent = \"x\";\n"
	    "\tset req.http.B = req.http.User-Agent;\n"
	    "\tstd.collect(req.http.C);\n"
	    "\tstd.log(req.http.User-Agent);\n"
	    "\tunset req.http.user-agent;\n"
	    "\tset req.url = req.url + \"?\";\n"
	    "}\n", 1);
	/* Read three times: a remembered value, stamped on its subject. */
	ck_assert_ptr_nonnull(strstr(c, "\tm->s = VRT_GetHdr(ctx, "));
	recv = body_of(c, "vgc_method_recv(VRT_CTX)");
	ck_assert_uint_eq(count(recv, "VRT_GetHdr"), 0);
	/* Each set and the unset restamp it (and its req_top alias). */
	p = strstr(recv, "VRT_SetHdr(ctx, &vgc_hdr_1,");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "vgc_w_"));
	ck_assert(strstr(p, "vgc_w_") < strstr(p, "if (ctx->failed)"));
	p = strstr(recv, "VRT_UnsetHdr(");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "vgc_w_"));
	p = strstr(recv, "VRT_l_req_url(");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "vgc_w_"));
	/* A procedure that changes what it likes forgets everything... */
	p = strstr(recv, "vmod_std_collect(");
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p, "vf->epoch++;"));
	/* ...std.log does not. */
	ck_assert_uint_eq(count(recv, "vf->epoch++;"), 1);
	free(recv);
	free(c);
}
END_TEST

START_TEST(issue_0013_regex_matched_once)
{
	char *c, *recv;

	c = cc_of(BE "sub vcl_recv {\n"
	    "\tif (req.http.User-Agent ~ \"(iPhone|Android)\" && "
	    "req.url ~ \"^/m\") { return (pass); }\n"
	    "\tif (req.http.User-Agent ~ \"(iPhone|Android)\") {\n"
	    "\t\tset req.url = regsub(req.url, \"^/m\", \"/\");\n"
	    "\t}\n"
	    "\tif (req.http.Cookie ~ \"(iPhone|Android)\") { return (pass); }\n"
	    "}\n", 1);
	/* The UA test is remembered (two sites), the Cookie one is not. */
	ck_assert_uint_eq(count(c, "\tm->v = VRT_re_match(ctx, "), 2);
	ck_assert_uint_eq(count(c, "\treturn (VRT_re_match(ctx, "), 1);
	/* One match-only regex per pattern; regsub gets a PCRE2 one. */
	ck_assert_uint_eq(count(c, ", VRT_RE_MATCH_ONLY, "), 2);
	ck_assert_uint_eq(count(c, "\"^/m\", 0, "), 1);
	/* regsub after a known no-match on its subject skips PCRE2. */
	ck_assert_ptr_nonnull(strstr(c, "vgc_rs_"));
	recv = body_of(c, "vgc_method_recv(VRT_CTX)");
	ck_assert_ptr_null(strstr(recv, "VRT_re_match"));
	free(recv);
	free(c);

	c = cc_of(BE "sub vcl_recv {\n"
	    "\tif (req.http.User-Agent ~ \"(iPhone|Android)\") "
	    "{ return (pass); }\n"
	    "\tif (req.http.User-Agent ~ \"(iPhone|Android)\") "
	    "{ return (pass); }\n"
	    "}\n", 0);
	ck_assert_uint_eq(count(c, "VRT_RE_MATCH_ONLY"), 0);
	ck_assert_uint_eq(count(c, "VRT_re_match(ctx, VRT_GetHdr("), 2);
	free(c);
}
END_TEST

START_TEST(issue_0013_constants_fold)
{
	char *c, *recv;

	c = cc_of(BE "sub vcl_recv {\n"
	    "\tset req.http.A = \"x\" + \"y\" + req.url + \"z\" + {\"w\"};\n"
	    "\tset req.http.B = 2 * 30 + 1;\n"
	    "\tset req.ttl = 1m + 30s;\n"
	    "\tif (\"ab\" == \"a\" + \"b\") { set req.http.C = \"1\"; }\n"
	    "\tif (\"abc\" ~ \"^b\") { set req.http.D = \"1\"; }\n"
	    "\tif (!true || req.http.E) { set req.http.F = -(2.5 * 2); }\n"
	    "\tif (true && req.http.G) { set req.http.H = 7 / 2; }\n"
	    "\tif (4000000000000000000 * 4 > 1) { return (pass); }\n"
	    "}\n", 1);
	recv = body_of(c, "vgc_method_recv(VRT_CTX)");
	ck_assert_ptr_nonnull(strstr(recv, "{\"x\" \"y\", vgc_rd_"));
	ck_assert_ptr_nonnull(strstr(recv, ", \"z\" \"w\"}"));
	ck_assert_ptr_nonnull(strstr(recv, "((VCL_INT)61)"));
	ck_assert_ptr_nonnull(strstr(recv, "((VCL_DURATION)90)"));
	ck_assert_ptr_nonnull(strstr(recv, ", 1)) {"));
	ck_assert_ptr_nonnull(strstr(recv, ", 0)) {"));
	ck_assert_ptr_nonnull(strstr(recv, "((VCL_REAL)-5)"));
	ck_assert_ptr_nonnull(strstr(recv, "((VCL_INT)3)"));
	ck_assert_ptr_null(strstr(recv, "(0 ||"));
	ck_assert_ptr_null(strstr(recv, "(1 &&"));
	/* What would overflow is left to run time. */
	ck_assert_ptr_nonnull(strstr(recv, " * ((VCL_INT)4)"));
	free(recv);
	free(c);

	c = cc_of(BE "sub vcl_recv {\n"
	    "\tset req.http.B = 2 * 30 + 1;\n"
	    "}\n", 0);
	ck_assert_ptr_nonnull(strstr(c, "((((VCL_INT)2) * ((VCL_INT)30)) + "
	    "((VCL_INT)1))"));
	free(c);
}
END_TEST

START_TEST(issue_0013_profile_points)
{
	char *c;

	c = cc_of(BE "sub s { set req.http.X = \"1\"; }\n"
	    "sub vcl_recv {\n"
	    "\tif (req.http.host == \"a\"   &&\n"
	    "\t    req.url ~ \"^/a\") { call s; }\n"
	    "\telsif (req.url) { return (pass); }\n"
	    "}\n", 0);
	ck_assert_ptr_nonnull(strstr(c, "{ VRT_PK_METHOD, \"vcl_recv\", "
	    "\"t.vcl\", 5, 5, \"sub vcl_recv\" },"));
	ck_assert_ptr_nonnull(strstr(c, "{ VRT_PK_COND, \"vcl_recv\", "
	    "\"t.vcl\", 6, 6, \"req.http.host == \\\"a\\\" && req.url ~ "
	    "\\\"^/a\\\"\" },"));
	ck_assert_ptr_nonnull(strstr(c, "{ VRT_PK_CALL, \"vcl_recv\", "
	    "\"t.vcl\", 7, 25, \"call s\" },"));
	ck_assert_ptr_nonnull(strstr(c, "{ VRT_PK_COND, \"vcl_recv\", "
	    "\"t.vcl\", 8, 9, \"req.url\" },"));
	ck_assert_uint_eq(count(c, "VRT_PROF_COND(ctx, "), 2);
	ck_assert_uint_eq(count(c, "VRT_PROF_CALL(ctx, "), 1);
	ck_assert_ptr_nonnull(strstr(c, ".prof_points = vgc_prof,"));
	free(c);
}
END_TEST

/* However many values a VCL reads twice, the frame stays small. */
START_TEST(issue_0013_frame_bounded)
{
	char *src, *p, *c;
	size_t len = 64 * 1024;
	unsigned u;

	src = malloc(len);
	ck_assert_ptr_nonnull(src);
	p = src + snprintf(src, len, BE "sub vcl_recv {\n");
	for (u = 0; u < 400; u++)
		p += snprintf(p, 128, "\tif (req.http.X-%u == req.http.X-%u) "
		    "{ set req.http.Y = \"1\"; }\n", u, u);
	(void)snprintf(p, 16, "}\n");
	c = cc_of(src, 1);
	ck_assert_ptr_nonnull(strstr(c, "struct vgc_memo\tm[256];"));
	ck_assert_ptr_nonnull(strstr(c, "unsigned\tg[256];"));
	/* Past the cap, plain reads. */
	ck_assert_ptr_nonnull(strstr(c, "\n\t(void)vf;\n\treturn (VRT_GetHdr("));
	free(c);
	free(src);
}
END_TEST

/* What the compiler emits must build cleanly under strict warnings. */
START_TEST(issue_0013_optimised_c_builds)
{
	char path[] = "/tmp/vcc_opt_XXXXXX.c", cmd[1024];
	char *c;
	FILE *f;
	int fd;

	c = cc_of(hosts_vcl, 1);
	fd = mkstemps(path, 2);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	(void)fputs(c, f);
	ck_assert_int_eq(fclose(f), 0);
	(void)snprintf(cmd, sizeof cmd, "cc -std=gnu99 -fsyntax-only -Wall "
	    "-Wextra -Werror -Wno-unused-parameter -I%s %s", VCC_INCLUDE_DIR,
	    path);
	ck_assert_msg(system(cmd) == 0, "cc failed on:\n%s", c);
	(void)unlink(path);
	free(c);
}
END_TEST

static Suite *
vcc_opt_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vcc_opt");
	tc = tcase_create("opt");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0013_eq_run_is_one_lookup);
	tcase_add_test(tc, issue_0013_single_test_stays_plain);
	tcase_add_test(tc, issue_0013_reads_remembered_and_restamped);
	tcase_add_test(tc, issue_0013_regex_matched_once);
	tcase_add_test(tc, issue_0013_constants_fold);
	tcase_add_test(tc, issue_0013_profile_points);
	tcase_add_test(tc, issue_0013_frame_bounded);
	tcase_add_test(tc, issue_0013_optimised_c_builds);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nf;

	sr = srunner_create(vcc_opt_suite());
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

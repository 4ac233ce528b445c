/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_fsm.c -- issue #12, the request and fetch state machines obeying
 * what compiled VCL returns, where the builtin policy never returns it:
 * vcl_hit's return (miss), restarts bounded by max_restarts and counted
 * in req.restarts, synth from the client methods, a failing vcl_synth
 * (a bare 500 and close, no loop), return (pass(DURATION)),
 * vcl_backend_fetch's return (error), vcl_backend_response's retry
 * (bounded by max_retries) and abandon.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"
#include "e2e/cache_lib.h"

/* veneerd with -f: a VCL of backend "be" (the origin) and text. */
static struct vnd *
fsm_start(struct origin *o, const char *text)
{
	struct vnd *v;
	char *path;
	FILE *f;

	v = VND_New();
	ck_assert_int_gt(asprintf(&path, "%s/t.vcl", VND_Dir(v)), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fprintf(f, "vcl 4.1;\nbackend be { .host = "
	    "\"127.0.0.1\"; .port = \"%d\"; }\n%s", ORIGIN_Port(o), text), 0);
	ck_assert_int_eq(fclose(f), 0);
	VND_Arg(v, "-f");
	VND_Arg(v, path);
	VND_Start(v);
	free(path);
	return (v);
}

/* vcl_hit's return (miss): fetched again and inserted over the hit. */
START_TEST(issue_0012_hit_returns_miss)
{
	struct origin *o = CO_New();
	struct vnd *v;
	struct client *cl;
	struct hx_msg *m;

	v = fsm_start(o, "sub vcl_hit {\n"
	    "  if (req.http.X-Refresh) { return (miss); }\n"
	    "}\n");
	cl = VND_Connect(v);
	m = CO_Fetch(cl, "/a", NULL);
	CO_BodyIs(m, "/a", 1);
	HX_MsgFree(&m);
	m = CO_Fetch(cl, "/a", NULL);
	CO_BodyIs(m, "/a", 1);
	(void)CO_CsHit(m, "/a", 0, 1000000);
	HX_MsgFree(&m);
	m = CO_Fetch(cl, "/a", "X-Refresh: 1\r\n");
	CO_BodyIs(m, "/a", 2);
	CO_CsMiss(m, "/a");
	HX_MsgFree(&m);
	/* What the miss fetched replaced what was there. */
	m = CO_Fetch(cl, "/a", NULL);
	CO_BodyIs(m, "/a", 2);
	(void)CO_CsHit(m, "/a", 0, 1000000);
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(o), 2);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* Restarts are counted in req.restarts and stop at max_restarts: 503. */
START_TEST(issue_0012_restart_bounded)
{
	struct origin *o = CO_New();
	struct vnd *v;
	struct client *cl;
	struct hx_msg *m;

	v = fsm_start(o, "sub vcl_recv {\n"
	    "  if (req.url == \"/two\" && req.restarts < 2) {\n"
	    "    return (restart);\n"
	    "  }\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "  set resp.http.X-Restarts = req.restarts;\n"
	    "  if (req.url == \"/loop\") { return (restart); }\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "  set resp.http.X-Restarts = req.restarts;\n"
	    "}\n");
	cl = VND_Connect(v);
	m = CO_Fetch(cl, "/two", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_str_eq(HX_Header(m, "X-Restarts"), "2");
	HX_MsgFree(&m);
	/*
	 * Four restarts (max_restarts), then the fifth is refused: counted,
	 * so vcl_synth sees 5, as on varnishd.
	 */
	m = CO_Fetch(cl, "/loop", NULL);
	ck_assert_int_eq(m->status, 503);
	ck_assert_str_eq(HX_Header(m, "X-Restarts"), "5");
	HX_MsgFree(&m);
	/* The connection goes on: the next request starts at 0. */
	m = CO_Fetch(cl, "/two", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_str_eq(HX_Header(m, "X-Restarts"), "2");
	HX_MsgFree(&m);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* return (restart) from each client method that may: counted once. */
START_TEST(issue_0012_restart_from_each_method)
{
	static const char * const urls[] = {
		"/recv", "/pass", "/miss", "/hit", "/purge", "/synth",
		"/deliver",
	};
	struct origin *o = CO_New();
	struct vnd *v;
	struct client *cl;
	struct hx_msg *m;
	unsigned u;

	v = fsm_start(o, "sub vcl_recv {\n"
	    "  if (req.restarts > 0) { return (hash); }\n"
	    "  if (req.url == \"/recv\") { return (restart); }\n"
	    "  if (req.url == \"/pass\") { return (pass); }\n"
	    "  if (req.url == \"/purge\") { return (purge); }\n"
	    "  if (req.url == \"/synth\") { return (synth(600)); }\n"
	    "}\n"
	    "sub vcl_pass { if (req.restarts == 0) { return (restart); } }\n"
	    "sub vcl_miss {\n"
	    "  if (req.url == \"/miss\" && req.restarts == 0) {\n"
	    "    return (restart);\n"
	    "  }\n"
	    "}\n"
	    "sub vcl_hit {\n"
	    "  if (req.http.X-R && req.restarts == 0) { return (restart); }\n"
	    "}\n"
	    "sub vcl_purge { return (restart); }\n"
	    "sub vcl_synth {\n"
	    "  if (resp.status == 600) { return (restart); }\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "  if (req.url == \"/deliver\" && req.restarts == 0) {\n"
	    "    return (restart);\n"
	    "  }\n"
	    "  set resp.http.X-Restarts = req.restarts;\n"
	    "}\n");
	cl = VND_Connect(v);
	/* Something cached for the hit. */
	m = CO_Fetch(cl, "/hit", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	for (u = 0; u < sizeof urls / sizeof urls[0]; u++) {
		m = CO_Fetch(cl, urls[u], "X-R: 1\r\n");
		ck_assert_msg(m->status == 200, "%s: %d", urls[u], m->status);
		ck_assert_msg(HX_Header(m, "X-Restarts") != NULL &&
		    !strcmp(HX_Header(m, "X-Restarts"), "1"), "%s: %s",
		    urls[u], HX_Header(m, "X-Restarts"));
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* synth from hit, miss, pass and deliver; vcl_synth failing closes. */
START_TEST(issue_0012_synth_everywhere)
{
	struct origin *o = CO_New();
	struct vnd *v;
	struct client *cl;
	struct hx_msg *m;

	v = fsm_start(o, "sub vcl_recv {\n"
	    "  if (req.url == \"/pass\") { return (pass); }\n"
	    "  if (req.url == \"/fail\") { return (synth(700)); }\n"
	    "}\n"
	    "sub vcl_hit { if (req.http.X-S) { return (synth(601)); } }\n"
	    "sub vcl_miss { if (req.http.X-S) { return (synth(602)); } }\n"
	    "sub vcl_pass { if (req.http.X-S) { return (synth(603)); } }\n"
	    "sub vcl_deliver {\n"
	    "  if (req.http.X-D) { return (synth(604)); }\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "  if (resp.status == 700) { return (fail); }\n"
	    "}\n");
	cl = VND_Connect(v);
	m = CO_Fetch(cl, "/h", "X-S: 1\r\n");
	ck_assert_int_eq(m->status, 602);
	HX_MsgFree(&m);
	m = CO_Fetch(cl, "/h", NULL);
	CO_BodyIs(m, "/h", 1);
	HX_MsgFree(&m);
	m = CO_Fetch(cl, "/h", "X-S: 1\r\n");
	ck_assert_int_eq(m->status, 601);
	HX_MsgFree(&m);
	m = CO_Fetch(cl, "/pass", "X-S: 1\r\n");
	ck_assert_int_eq(m->status, 603);
	HX_MsgFree(&m);
	m = CO_Fetch(cl, "/h", "X-D: 1\r\n");
	ck_assert_int_eq(m->status, 604);
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(o), 1);
	/* vcl_synth fails: a bare 500, and the connection closes. */
	m = CO_Fetch(cl, "/fail", NULL);
	ck_assert_int_eq(m->status, 500);
	HX_MsgFree(&m);
	CLIENT_AssertClosed(cl, 5.0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* return (pass(DURATION)): a hit-for-pass object; later requests pass. */
START_TEST(issue_0012_pass_duration)
{
	struct origin *o = CO_New();
	struct vnd *v;
	struct client *cl;
	struct hx_msg *m;
	unsigned u;

	v = fsm_start(o, "sub vcl_backend_response {\n"
	    "  if (bereq.url == \"/hfp\") { return (pass(60s)); }\n"
	    "  if (bereq.url == \"/retry\") { return (retry); }\n"
	    "  if (bereq.url == \"/abandon\") { return (abandon); }\n"
	    "}\n"
	    "sub vcl_backend_fetch {\n"
	    "  if (bereq.url == \"/err\") { return (error); }\n"
	    "}\n");
	cl = VND_Connect(v);
	for (u = 1; u <= 3; u++) {
		m = CO_Fetch(cl, "/hfp", NULL);
		CO_BodyIs(m, "/hfp", u);
		if (u > 1)
			CO_CsIs(m, "/hfp",
			    "Veneer; fwd=bypass; detail=hit-for-pass");
		HX_MsgFree(&m);
	}
	ck_assert_uint_eq(ORIGIN_NReq(o), 3);
	/* vcl_backend_fetch's error: vcl_backend_error's 503. */
	m = CO_Fetch(cl, "/err", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(o), 3);
	/* retry: the first try and max_retries (4) more, then a 503. */
	m = CO_Fetch(cl, "/retry", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(o), 8);
	m = CO_Fetch(cl, "/abandon", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(o), 9);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
fsm_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("fsm");
	tc = tcase_create("fsm");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0012_hit_returns_miss);
	tcase_add_test(tc, issue_0012_restart_bounded);
	tcase_add_test(tc, issue_0012_restart_from_each_method);
	tcase_add_test(tc, issue_0012_synth_everywhere);
	tcase_add_test(tc, issue_0012_pass_duration);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(fsm_suite()));
}

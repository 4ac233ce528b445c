/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vrt_fail.c -- issue #12: std conversions through a real veneerd,
 * and a failure inside VCL at run time (a std conversion of bad input
 * without a fallback) failing that request cleanly with a 503 while the
 * daemon goes on serving.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

static void
o_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)req;
	(void)priv;
	(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=100\r\n",
	    "body", -1);
}

START_TEST(issue_0012_std_conversion_fallbacks)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/nofallback\") {\n"
	    "\t\tset req.http.X-N = std.integer(req.http.X-Num);\n"
	    "\t}\n"
	    "\treturn (synth(200));\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Int = std.integer(\"12x\", fallback = 7);\n"
	    "\tset resp.http.X-Dur = std.duration(\"1.5m\", 0s);\n"
	    "\tset resp.http.X-Bytes = std.bytes(\"10KB\", 0B);\n"
	    "\tset resp.http.X-Sort = std.querysort(\"/q?b=2&a=1\");\n"
	    "\tset resp.http.X-Low = std.tolower(\"MiXeD\");\n"
	    "\treturn (deliver);\n"
	    "}\n");
	m = CLIENT_Fetch(t.cl, "GET", "/", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Int", "7");
	HX_HeaderIs(m, "X-Dur", "90.000");
	HX_HeaderIs(m, "X-Bytes", "10240");
	HX_HeaderIs(m, "X-Sort", "/q?a=1&b=2");
	HX_HeaderIs(m, "X-Low", "mixed");
	HX_MsgFree(&m);
	/* No fallback and nothing to convert: this request fails ... */
	m = CLIENT_Fetch(t.cl, "GET", "/nofallback", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	/* ... and the daemon goes on serving. */
	CLIENT_Free(&t.cl);
	t.cl = VND_Connect(t.v);
	m = CLIENT_Fetch(t.cl, "GET", "/", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("vrt_fail");
	TCase *tc = tcase_create("e2e");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0012_std_conversion_fallbacks);
	suite_add_tcase(s, tc);
	return (HX_Run(s));
}

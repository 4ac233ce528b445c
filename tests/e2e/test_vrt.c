/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vrt.c -- issue #12's runtime, end to end: compiled VCL reading
 * the session's addresses and the request, fetch and object variables
 * where the daemon has the feature; VV_MISSING variables compiling and
 * doing nothing; regsuball's empty matches and an ACL's most specific
 * entry deciding, through a real veneerd.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

static unsigned o_count;

/* 200, cacheable for 100 s, the body numbering the fetch. */
static void
o_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	char body[32];

	(void)req;
	(void)priv;
	(void)snprintf(body, sizeof body, "n=%u",
	    __atomic_add_fetch(&o_count, 1, __ATOMIC_RELAXED));
	(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=100\r\n",
	    body, -1);
}

START_TEST(issue_0012_client_side_variables)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tset req.http.X-In-Method = req.method;\n"
	    "\treturn (synth(200));\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Client = client.ip;\n"
	    "\tset resp.http.X-Remote = remote.ip;\n"
	    "\tset resp.http.X-Server = server.ip;\n"
	    "\tset resp.http.X-Local = local.ip;\n"
	    "\tset resp.http.X-Identity = client.identity;\n"
	    "\tset resp.http.X-Method = req.http.X-In-Method;\n"
	    "\tset resp.http.X-Proto = req.proto;\n"
	    "\tset resp.http.X-Restarts = req.restarts;\n"
	    "\tset resp.http.X-Transport = req.transport;\n"
	    "\tset resp.http.X-Req-Ttl = req.ttl;\n"
	    "\tset resp.http.X-Top-Url = req_top.url;\n"
	    "\tif (server.hostname != \"\") {\n"
	    "\t\tset resp.http.X-Hostname = \"yes\";\n"
	    "\t}\n"
	    "\tif (std.port(client.ip) > 0) {\n"
	    "\t\tset resp.http.X-Port = \"yes\";\n"
	    "\t}\n"
	    "\tset resp.http.X-Empty = regsuball(\"ab\", \"x*\", \"-\");\n"
	    "\tset resp.http.X-Sub = regsub(\"/a/b/c\", \"^/([^/]+)/(.*)\","
	    " \"\\2:\\1\");\n"
	    "\tset resp.http.X-Status = resp.status;\n"
	    "\treturn (deliver);\n"
	    "}\n");
	m = CLIENT_Fetch(t.cl, "GET", "/top?x=1", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Client", "127.0.0.1");
	HX_HeaderIs(m, "X-Remote", "127.0.0.1");
	HX_HeaderIs(m, "X-Server", "127.0.0.1");
	HX_HeaderIs(m, "X-Local", "127.0.0.1");
	HX_HeaderIs(m, "X-Identity", "127.0.0.1");
	HX_HeaderIs(m, "X-Method", "GET");
	HX_HeaderIs(m, "X-Proto", "HTTP/1.1");
	HX_HeaderIs(m, "X-Restarts", "0");
	HX_HeaderIs(m, "X-Transport", "HTTP/1");
	HX_HeaderIs(m, "X-Req-Ttl", "-1.000");
	HX_HeaderIs(m, "X-Top-Url", "/top?x=1");
	HX_HeaderIs(m, "X-Hostname", "yes");
	HX_HeaderIs(m, "X-Port", "yes");
	HX_HeaderIs(m, "X-Empty", "-a-b-");
	HX_HeaderIs(m, "X-Sub", "b/c:a");
	HX_HeaderIs(m, "X-Status", "200");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_fetch_and_object_variables)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_backend_response {\n"
	    "\tset beresp.http.X-Be = beresp.backend.name;\n"
	    "\tset beresp.http.X-Retries = bereq.retries;\n"
	    "\tset beresp.http.X-Be-Status = beresp.status;\n"
	    "\tset beresp.http.X-Uncacheable = bereq.uncacheable;\n"
	    "\tset beresp.ttl = 50s;\n"
	    "\tset beresp.http.X-Ttl = beresp.ttl;\n"
	    "\tset beresp.do_gzip = true;\n"
	    "\tset beresp.http.X-Gzip = beresp.do_gzip;\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "\tset resp.http.X-Hits = obj.hits;\n"
	    "\tif (obj.ttl > 40s && obj.ttl <= 50s) {\n"
	    "\t\tset resp.http.X-Obj-Ttl = \"ok\";\n"
	    "\t}\n"
	    "}\n");
	m = CLIENT_Fetch(t.cl, "GET", "/o", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Be", "default");
	HX_HeaderIs(m, "X-Retries", "0");
	HX_HeaderIs(m, "X-Be-Status", "200");
	HX_HeaderIs(m, "X-Uncacheable", "false");
	HX_HeaderIs(m, "X-Ttl", "50.000");
	/* Read back as set (the body is gzip'd when stored). */
	HX_HeaderIs(m, "X-Gzip", "true");
	HX_HeaderIs(m, "X-Hits", "0");
	HX_HeaderIs(m, "X-Obj-Ttl", "ok");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/o", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Hits", "1");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_acl_most_specific_entry)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "acl wide { \"127.0.0.0\"/8; !\"127.0.0.1\"; }\n"
	    "acl narrow { !\"127.0.0.0\"/8; \"127.0.0.1\"/32; }\n"
	    "sub vcl_recv { return (synth(200)); }\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Wide = client.ip ~ wide;\n"
	    "\tset resp.http.X-Narrow = client.ip ~ narrow;\n"
	    "\treturn (deliver);\n"
	    "}\n");
	m = CLIENT_Fetch(t.cl, "GET", "/", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Wide", "false");
	HX_HeaderIs(m, "X-Narrow", "true");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* req.ttl and req.grace cap what a lookup accepts as a hit. */
START_TEST(issue_0012_req_ttl_and_grace_cap_the_lookup)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.http.X-Fresh) {\n"
	    "\t\tset req.ttl = 0s;\n"
	    "\t\tset req.grace = 0s;\n"
	    "\t}\n"
	    "\tif (req.http.X-Lax) {\n"
	    "\t\tset req.ttl = 1h;\n"
	    "\t}\n"
	    "\tset req.http.X-Ttl = req.ttl;\n"
	    "}\n"
	    "sub vcl_deliver { set resp.http.X-Ttl = req.http.X-Ttl; }\n");
	m = CLIENT_Fetch(t.cl, "GET", "/c", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	ck_assert_str_eq(m->body, "n=1");
	HX_HeaderIs(m, "X-Ttl", "-1.000");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/c", "X-Lax: 1\r\n", HX_T_SLOW);
	ck_assert_str_eq(m->body, "n=1");
	HX_HeaderIs(m, "X-Ttl", "3600.000");
	HX_MsgFree(&m);
	/* A cap of 0: the 100 s object is too old, and no grace either. */
	m = CLIENT_Fetch(t.cl, "GET", "/c", "X-Fresh: 1\r\n", HX_T_SLOW);
	ck_assert_str_eq(m->body, "n=2");
	HX_HeaderIs(m, "X-Ttl", "0.000");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/c", NULL, HX_T_SLOW);
	ck_assert_str_eq(m->body, "n=2");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* regsuball that cannot fit the workspace fails the request: 503. */
START_TEST(issue_0012_regsuball_overflow_is_503)
{
	struct hx_vcl t;
	struct hx_msg *m;
	char url[1100];

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tset req.http.X-Big = regsuball(req.url, \"a\",\n"
	    "\t    \"0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789\");\n"
	    "\treturn (synth(200));\n"
	    "}\n");
	url[0] = '/';
	memset(url + 1, 'a', sizeof url - 2);
	url[sizeof url - 1] = '\0';
	m = CLIENT_Fetch(t.cl, "GET", url, NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

static Suite *
vrt_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("vrt");
	tc = tcase_create("vrt");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0012_client_side_variables);
	tcase_add_test(tc, issue_0012_fetch_and_object_variables);
	tcase_add_test(tc, issue_0012_acl_most_specific_entry);
	tcase_add_test(tc, issue_0012_req_ttl_and_grace_cap_the_lookup);
	tcase_add_test(tc, issue_0012_regsuball_overflow_is_503);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(vrt_suite()));
}

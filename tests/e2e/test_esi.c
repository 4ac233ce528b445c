/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_esi.c -- Edge Side Includes end to end: a real veneerd and an
 * origin serving pages with <esi:include>, <esi:remove>,
 * <esi:comment/> and <!--esi -->.  Checks the assembled body on a miss
 * and on a hit, nesting, the max_esi_depth stop of an include loop,
 * includes that are hits, misses and passes, a pass page, relative and
 * http:// sources, an HTTP/1.0 client (no chunking: close), a malformed
 * page (delivered, errors counted, no panic), resp.do_esi = false, and
 * the esi_req counter.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

static unsigned frag_count;

/* What each URL serves; X-Esi asks the VCL for beresp.do_esi. */
static void
o_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	static const struct {
		const char	*url;
		const char	*body;
	} pages[] = {
		{ "/page", "<html>A<esi:include src=\"/frag\"/>B"
		    "<esi:remove>R</esi:remove><esi:comment text=\"x\"/>"
		    "<!--esi C-->D</html>" },
		{ "/nest", "<n><esi:include src=\"/page\"/></n>" },
		{ "/loop", "<l>L<esi:include src=\"/loop\"/></l>" },
		{ "/passpage", "<p><esi:include src=\"/frag\"/>"
		    "<esi:include src=\"/passfrag\"/></p>" },
		{ "/passfrag", "P" },
		{ "/rel/page", "<r><esi:include src=\"frag2\"/>"
		    "<esi:include src=\"http://other.example/whoami\"/></r>" },
		{ "/rel/frag2", "R2" },
		{ "/bad", "<x><esi:include src=\"/a b\"/>y<esi:bogus/>z" },
		{ "/raw", "<q><esi:remove>kept</esi:remove></q>" },
	};
	char body[256];
	const char *b = NULL, *host;
	unsigned u, n;

	(void)priv;
	if (!strcmp(req->url, "/frag")) {
		n = __atomic_add_fetch(&frag_count, 1, __ATOMIC_RELAXED);
		(void)snprintf(body, sizeof body, "F%u", n);
		b = body;
	} else if (!strcmp(req->url, "/whoami")) {
		host = HX_Header(req, "Host");
		(void)snprintf(body, sizeof body, "H=%s",
		    host != NULL ? host : "-");
		b = body;
	}
	for (u = 0; b == NULL && u < sizeof pages / sizeof *pages; u++)
		if (!strcmp(req->url, pages[u].url))
			b = pages[u].body;
	if (b == NULL) {
		(void)ORIGIN_Respond(oc, 404, NULL, "none", -1);
		return;
	}
	(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=100\r\n"
	    "X-Esi: 1\r\n", b, -1);
}

static const char esi_vcl[] =
    "sub vcl_recv {\n"
    "\tif (req.url ~ \"^/pass\") { return (pass); }\n"
    "}\n"
    "sub vcl_backend_response {\n"
    "\tif (beresp.http.X-Esi) { set beresp.do_esi = true; }\n"
    "}\n"
    "sub vcl_deliver {\n"
    "\tset resp.http.X-Level = req.esi_level;\n"
    "\tset resp.http.X-Top = req_top.url;\n"
    "\tif (req.url == \"/raw\") { set resp.do_esi = false; }\n"
    "}\n";

static struct hx_msg *
get(struct hx_vcl *t, const char *url)
{
	struct hx_msg *m;

	m = CLIENT_Fetch(t->cl, "GET", url, NULL, HX_T_SLOW);
	ck_assert_msg(m->status == 200, "%s: status %d", url, m->status);
	return (m);
}

static void
body_is(const struct hx_msg *m, const char *url, const char *want)
{

	ck_assert_msg(m->body != NULL && m->bodylen == strlen(want) &&
	    !memcmp(m->body, want, m->bodylen), "%s: body \"%.*s\", want "
	    "\"%s\"", url, m->body == NULL ? 0 : (int)m->bodylen,
	    m->body == NULL ? "" : m->body, want);
}

#define PAGE_BODY(f)	"<html>A" f "B CD</html>"

/* include, remove, comment, <!--esi: a miss, then a hit of both. */
START_TEST(esi_include_remove_comment)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, esi_vcl);
	m = get(&t, "/page");
	body_is(m, "/page", PAGE_BODY("F1"));
	HX_HeaderIs(m, "Transfer-Encoding", "chunked");
	ck_assert_ptr_null(HX_Header(m, "Content-Length"));
	ck_assert_ptr_null(HX_Header(m, "Accept-Ranges"));
	HX_HeaderIs(m, "X-Level", "0");
	HX_MsgFree(&m);
	/* Both from the cache now: the fragment is not fetched again. */
	m = get(&t, "/page");
	body_is(m, "/page", PAGE_BODY("F1"));
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(t.o), 2);
	ck_assert_uint_eq(VND_WaitCounter(t.v, "esi_req", "==", 2,
	    HX_T_SLOW), 2);
	ck_assert_uint_eq(VND_Counter(t.v, "esi_errors"), 0);
	HXV_Finish(&t);
}
END_TEST

/* An include that includes; a loop stops at max_esi_depth (5). */
START_TEST(esi_nested_and_depth)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, esi_vcl);
	m = get(&t, "/nest");
	body_is(m, "/nest", "<n>" PAGE_BODY("F1") "</n>");
	HX_MsgFree(&m);
	m = get(&t, "/loop");
	body_is(m, "/loop", "<l>L<l>L<l>L<l>L<l>L<l>L"
	    "</l></l></l></l></l></l>");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* A pass page with do_esi; its includes: a miss, then a pass. */
START_TEST(esi_pass)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, esi_vcl);
	m = get(&t, "/passpage");
	body_is(m, "/passpage", "<p>F1P</p>");
	HX_MsgFree(&m);
	m = get(&t, "/passpage");
	body_is(m, "/passpage", "<p>F1P</p>");
	HX_MsgFree(&m);
	/* Each pass fetched twice, the fragment once. */
	ck_assert_uint_eq(ORIGIN_NReq(t.o), 5);
	HXV_Finish(&t);
}
END_TEST

/* src relative to the page's directory; http://host/ sets the Host. */
START_TEST(esi_relative_and_host)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, esi_vcl);
	m = get(&t, "/rel/page");
	body_is(m, "/rel/page", "<r>R2H=other.example</r>");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* HTTP/1.0 cannot take chunks: the body ends with the connection. */
START_TEST(esi_http10_client)
{
	struct hx_vcl t;
	char *all, *body;
	size_t len;

	HXV_Start(&t, o_handler, esi_vcl);
	CLIENT_SendStr(t.cl, "GET /page HTTP/1.0\r\nHost: x\r\n\r\n");
	all = CLIENT_ReadAll(t.cl, &len, HX_T_SLOW);
	ck_assert_ptr_nonnull(all);
	ck_assert_msg(strstr(all, "Transfer-Encoding") == NULL &&
	    strstr(all, "Content-Length") == NULL, "framing in: %s", all);
	ck_assert_ptr_nonnull(strstr(all, "Connection: close\r\n"));
	body = strstr(all, "\r\n\r\n");
	ck_assert_ptr_nonnull(body);
	ck_assert_str_eq(body + 4, PAGE_BODY("F1"));
	free(all);
	HXV_Finish(&t);
}
END_TEST

/* Bad markup: delivered without it, counted, logged; no panic. */
START_TEST(esi_malformed)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, esi_vcl);
	m = get(&t, "/bad");
	body_is(m, "/bad", "<x>yz");
	HX_MsgFree(&m);
	ck_assert_uint_eq(VND_WaitCounter(t.v, "esi_errors", "==", 2,
	    HX_T_SLOW), 2);
	HXV_Finish(&t);
}
END_TEST

/* resp.do_esi = false: the stored body as the backend sent it. */
START_TEST(esi_resp_do_esi_off)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, esi_vcl);
	m = get(&t, "/raw");
	body_is(m, "/raw", "<q><esi:remove>kept</esi:remove></q>");
	HX_HeaderIs(m, "Content-Length", "36");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

static Suite *
esi_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("esi");
	tc = tcase_create("esi");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, esi_include_remove_comment);
	tcase_add_test(tc, esi_nested_and_depth);
	tcase_add_test(tc, esi_pass);
	tcase_add_test(tc, esi_relative_and_host);
	tcase_add_test(tc, esi_http10_client);
	tcase_add_test(tc, esi_malformed);
	tcase_add_test(tc, esi_resp_do_esi_off);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(esi_suite()));
}

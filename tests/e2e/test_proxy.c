/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_proxy.c -- issue #3, end to end: veneerd proxies HTTP/1 requests
 * to its backend.  Basic proxying and the headers a proxy adds or drops,
 * client keep-alive and backend connection reuse, pipelining, HTTP/1.0,
 * Connection: close, HEAD, every way an origin can frame a response
 * body, interim responses, and IPv6 listen addresses.
 *
 * Every URL is used once per veneerd, so no answer can come from the
 * cache: what the client gets is what this origin sent for this request.
 */

#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/harness.h"

/* The origin's answers, by URL. */
static void
proxy_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	const char *u;
	char body[1234];

	(void)priv;
	u = req->url;
	if (strncmp(u, "/chunked", 8) == 0) {
		(void)ORIGIN_Head(oc, 200, "Transfer-Encoding: chunked\r\n");
		(void)ORIGIN_Chunk(oc, "hello", 5);
		(void)ORIGIN_Chunk(oc, ", big ", 6);
		(void)ORIGIN_Chunk(oc, "world", 5);
		(void)ORIGIN_ChunkEnd(oc, NULL);
	} else if (strncmp(u, "/eof", 4) == 0) {
		(void)ORIGIN_Head(oc, 200, "Content-Type: text/plain\r\n");
		(void)ORIGIN_Send(oc, "delimited by close", 18);
		ORIGIN_Close(oc);
	} else if (strncmp(u, "/sized", 6) == 0) {
		memset(body, 'x', sizeof body);
		if (strcmp(req->method, "HEAD") == 0)
			(void)ORIGIN_Head(oc, 200, "Content-Length: 1234\r\n");
		else
			(void)ORIGIN_Respond(oc, 200, NULL, body, sizeof body);
	} else if (strncmp(u, "/hop", 4) == 0) {
		(void)ORIGIN_Respond(oc, 200, "Connection: x-bar\r\n"
		    "X-Bar: 1\r\nKeep-Alive: timeout=5, max=100\r\n"
		    "Upgrade: foo/2\r\nTrailer: X-T\r\nX-Kept: yes\r\n",
		    "hop", -1);
	} else if (strncmp(u, "/204", 4) == 0) {
		(void)ORIGIN_Respond(oc, 204, "Cache-Control: private\r\n",
		    NULL, 0);
	} else if (strncmp(u, "/304", 4) == 0) {
		(void)ORIGIN_Respond(oc, 304, "ETag: \"v1\"\r\n"
		    "Cache-Control: private\r\n", NULL, 0);
	} else if (strncmp(u, "/continue", 9) == 0) {
		(void)ORIGIN_Head(oc, 100, NULL);
		(void)ORIGIN_Respond(oc, 200, NULL, "after 100", -1);
	} else if (strncmp(u, "/hints", 6) == 0) {
		(void)ORIGIN_Head(oc, 103, "Link: </style.css>; rel=preload; "
		    "as=style\r\n");
		(void)ORIGIN_Respond(oc, 200, NULL, "after 103", -1);
	} else if (strncmp(u, "/partial", 8) == 0) {
		(void)ORIGIN_Respond(oc, 206, "Content-Range: bytes 0-9/100\r\n"
		    "Cache-Control: private\r\n", "0123456789", 10);
	} else if (strncmp(u, "/close-after", 12) == 0) {
		/* Keep-alive by the headers, then hang up when idle. */
		(void)ORIGIN_Respond(oc, 200, NULL, u, -1);
		ORIGIN_Close(oc);
	} else {
		ORIGIN_DefaultHandler(oc, req, priv);
	}
}

static int
matches(const char *re, const char *s)
{
	regex_t rx;
	int r;

	ck_assert_msg(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) == 0,
	    "bad regex %s", re);
	r = s != NULL && regexec(&rx, s, 0, NULL, 0) == 0;
	regfree(&rx);
	return (r);
}

/* Send a GET on cl and check it comes back as the origin sent it. */
static void
get_ok(struct client *cl, const char *url)
{
	struct hx_msg *r;

	r = CLIENT_Fetch(cl, "GET", url, NULL, HX_T_RESP);
	ck_assert_msg(r->status == 200, "%s: status %d", url, r->status);
	ck_assert_str_eq(r->body, url);
	HX_MsgFree(&r);
}

/*--------------------------------------------------------------------
 * 1. Basic proxying.
 */

START_TEST(basic_get)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/basic", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "/basic");
	ck_assert_str_eq(HX_Header(r, "X-Url"), "/basic");
	ck_assert_str_eq(HX_Header(r, "Content-Type"), "text/plain");
	ck_assert_msg(matches("^1\\.1 [^ ]+ \\(Veneer/[^)]+\\)$",
	    HX_Header(r, "Via")), "Via: %s", HX_Header(r, "Via"));
	ck_assert_msg(matches("^[0-9]+( [0-9]+)?$", HX_Header(r,
	    "X-Varnish")), "X-Varnish: %s", HX_Header(r, "X-Varnish"));
	/* The origin sent no Date: the proxy adds one. */
	ck_assert_int_eq(HX_HeaderCount(r, "Date"), 1);
	ck_assert_msg(matches("^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} "
	    "[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$", HX_Header(r, "Date")),
	    "Date: %s", HX_Header(r, "Date"));
	HX_MsgFree(&r);

	q = ORIGIN_FindReq(o, "/basic");
	ck_assert_ptr_nonnull(q);
	ck_assert_str_eq(q->method, "GET");
	ck_assert_str_eq(q->proto, "HTTP/1.1");
	ck_assert_str_eq(HX_Header(q, "Host"), "e2e.test");
	ck_assert_str_eq(HX_Header(q, "X-Forwarded-For"), "127.0.0.1");
	ck_assert_msg(matches("\\(Veneer/[^)]+\\)", HX_Header(q, "Via")),
	    "origin saw Via: %s", HX_Header(q, "Via"));

	r = CLIENT_Fetch(cl, "GET", "/xff", "X-Forwarded-For: 1.2.3.4\r\n",
	    HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/xff");
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(HX_HeaderCount(q, "X-Forwarded-For"), 1);
	ck_assert_str_eq(HX_Header(q, "X-Forwarded-For"),
	    "1.2.3.4, 127.0.0.1");
	ck_assert_int_ge(VND_WaitCounter(v, "client_req", ">=", 2, HX_T_RESP),
	    2);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(hop_by_hop_headers)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/hop", "Connection: x-foo, keep-alive\r\n"
	    "X-Foo: 1\r\nKeep-Alive: timeout=5\r\nTE: trailers\r\n"
	    "Trailer: X-T\r\nUpgrade: foo/1\r\n"
	    "Proxy-Authorization: Basic Zm9vOmJhcg==\r\nX-Kept: yes\r\n",
	    HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "hop");
	/* The origin's hop-by-hop headers stop at the proxy. */
	ck_assert_ptr_null(HX_Header(r, "X-Bar"));
	ck_assert_ptr_null(HX_Header(r, "Keep-Alive"));
	ck_assert_ptr_null(HX_Header(r, "Upgrade"));
	ck_assert_ptr_null(HX_Header(r, "Trailer"));
	ck_assert(!HX_HeaderHasToken(r, "Connection", "x-bar"));
	ck_assert_str_eq(HX_Header(r, "X-Kept"), "yes");
	HX_MsgFree(&r);

	/* And the client's too. */
	q = ORIGIN_FindReq(o, "/hop");
	ck_assert_ptr_nonnull(q);
	ck_assert_ptr_null(HX_Header(q, "X-Foo"));
	ck_assert_ptr_null(HX_Header(q, "Keep-Alive"));
	ck_assert_ptr_null(HX_Header(q, "TE"));
	ck_assert_ptr_null(HX_Header(q, "Trailer"));
	ck_assert_ptr_null(HX_Header(q, "Upgrade"));
	ck_assert_ptr_null(HX_Header(q, "Proxy-Authorization"));
	ck_assert(!HX_HeaderHasToken(q, "Connection", "x-foo"));
	ck_assert_str_eq(HX_Header(q, "X-Kept"), "yes");

	/* The connection is still usable. */
	get_ok(cl, "/after-hop");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 2. Keep-alive, both sides.
 */

START_TEST(client_keepalive_backend_reuse)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	get_ok(cl, "/ka1");
	get_ok(cl, "/ka2");
	get_ok(cl, "/ka3");
	(void)VND_WaitCounter(v, "client_req", ">=", 3, HX_T_RESP);
	ck_assert_int_eq(VND_Counter(v, "sess_conn"), 1);
	(void)VND_WaitCounter(v, "backend_reuse", ">=", 1, HX_T_RESP);
	ck_assert_int_eq(ORIGIN_NReq(o), 3);
	ck_assert_msg(ORIGIN_NConn(o) < 3, "origin saw %u connections for 3 "
	    "requests", ORIGIN_NConn(o));
	ck_assert_int_eq(VND_Counter(v, "backend_fail"), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(backend_closes_idle_connection)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	get_ok(cl, "/close-after-1");
	/* The origin has hung up on the kept-alive connection. */
	ORIGIN_WaitIdle(o, HX_T_RESP);
	get_ok(cl, "/close-after-2");
	ORIGIN_WaitIdle(o, HX_T_RESP);
	get_ok(cl, "/close-after-3");
	ck_assert_int_eq(ORIGIN_NConn(o), 3);
	ck_assert_int_eq(VND_Counter(v, "fetch_failed"), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 3. Pipelining.
 */

START_TEST(pipelined_requests)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char url[16];
	int i;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "GET /pipe1 HTTP/1.1\r\nHost: e2e.test\r\n\r\n"
	    "GET /pipe2 HTTP/1.1\r\nHost: e2e.test\r\n\r\n"
	    "GET /pipe3 HTTP/1.1\r\nHost: e2e.test\r\n\r\n");
	for (i = 1; i <= 3; i++) {
		r = CLIENT_Resp(cl, 0, HX_T_RESP);
		(void)snprintf(url, sizeof url, "/pipe%d", i);
		ck_assert_int_eq(r->status, 200);
		ck_assert_str_eq(r->body, url);
		HX_MsgFree(&r);
	}
	get_ok(cl, "/pipe4");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 4. HTTP/1.0 clients, 5. Connection: close.
 */

START_TEST(http10_closes)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "GET /h10 HTTP/1.0\r\n\r\n");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "/h10");
	ck_assert_int_ne(r->body_kind, HX_BODY_CHUNKED);
	HX_MsgFree(&r);
	CLIENT_AssertClosed(cl, 3.0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(http10_keepalive)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char url[16];
	int i;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (i = 1; i <= 2; i++) {
		(void)snprintf(url, sizeof url, "/h10ka%d", i);
		CLIENT_Printf(cl, "GET %s HTTP/1.0\r\n"
		    "Connection: keep-alive\r\n\r\n", url);
		r = CLIENT_Resp(cl, 0, HX_T_RESP);
		ck_assert_int_eq(r->status, 200);
		/* Neither chunks nor a close can end it for 1.0 keep-alive. */
		ck_assert_int_eq(r->body_kind, HX_BODY_LENGTH);
		ck_assert_str_eq(r->body, url);
		HX_MsgFree(&r);
	}
	ck_assert_int_eq(VND_Counter(v, "sess_conn"), 1);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* A body the 1.0 client cannot get chunked: no chunks, then a close. */
static void
http10_unchunked(const char *url, const char *body)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_Printf(cl, "GET %s HTTP/1.0\r\n\r\n", url);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_msg(r->body_kind != HX_BODY_CHUNKED &&
	    HX_Header(r, "Transfer-Encoding") == NULL,
	    "chunked response to an HTTP/1.0 client");
	ck_assert_str_eq(r->body, body);
	HX_MsgFree(&r);
	CLIENT_AssertClosed(cl, 3.0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}

START_TEST(http10_gets_chunked_body_unchunked)
{

	http10_unchunked("/chunked10", "hello, big world");
}
END_TEST

START_TEST(http10_gets_eof_body)
{

	http10_unchunked("/eof10", "delimited by close");
}
END_TEST

START_TEST(connection_close)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/cc", "Connection: close\r\n",
	    HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "/cc");
	HX_MsgFree(&r);
	CLIENT_AssertClosed(cl, 3.0);
	(void)VND_WaitCounter(v, "sess_closed", ">=", 1, HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 7. HEAD.
 */

START_TEST(head_has_no_body)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "HEAD", "/sized-head", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(HX_Header(r, "Content-Length"), "1234");
	HX_MsgFree(&r);
	ck_assert_int_eq(CLIENT_Pending(cl), 0);
	/* Body bytes after the head would be read as the next status line. */
	r = CLIENT_Fetch(cl, "GET", "/sized-get", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_int_eq(r->bodylen, 1234);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 8. Response bodies and interim responses.
 */

START_TEST(origin_chunked)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/chunked", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_msg(r->body_kind == HX_BODY_CHUNKED ||
	    r->body_kind == HX_BODY_LENGTH, "body framed by close");
	ck_assert_str_eq(r->body, "hello, big world");
	HX_MsgFree(&r);
	get_ok(cl, "/after-chunked");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(origin_close_delimited)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/eof", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	/* A 1.1 client keeps its connection: the proxy frames the body. */
	ck_assert_msg(r->body_kind == HX_BODY_CHUNKED ||
	    r->body_kind == HX_BODY_LENGTH, "body framed by close");
	ck_assert_str_eq(r->body, "delimited by close");
	HX_MsgFree(&r);
	get_ok(cl, "/after-eof");
	ck_assert_int_eq(VND_Counter(v, "sess_conn"), 1);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(no_body_statuses)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/204", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 204);
	ck_assert_int_eq(r->bodylen, 0);
	ck_assert_ptr_null(HX_Header(r, "Transfer-Encoding"));
	HX_MsgFree(&r);
	get_ok(cl, "/after-204");
	r = CLIENT_Fetch(cl, "GET", "/304", "If-None-Match: \"v1\"\r\n",
	    HX_T_RESP);
	ck_assert_int_eq(r->status, 304);
	ck_assert_int_eq(r->bodylen, 0);
	ck_assert_str_eq(HX_Header(r, "ETag"), "\"v1\"");
	HX_MsgFree(&r);
	get_ok(cl, "/after-304");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(interim_responses)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	/* The origin's unasked-for 100 Continue is not the answer. */
	r = CLIENT_Fetch(cl, "GET", "/continue", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "after 100");
	HX_MsgFree(&r);

	/* 103 Early Hints reach a 1.1 client, then the response. */
	r = CLIENT_Fetch(cl, "GET", "/hints", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "after 103");
	for (u = 0; u < r->ninterim; u++)
		if (r->interim[u]->status == 103)
			break;
	ck_assert_msg(u < r->ninterim, "no 103 before the 200 (%u interim)",
	    r->ninterim);
	ck_assert_str_eq(HX_Header(r->interim[u], "Link"),
	    "</style.css>; rel=preload; as=style");
	HX_MsgFree(&r);
	get_ok(cl, "/after-interim");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(partial_content)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/partial", "Range: bytes=0-9\r\n",
	    HX_T_RESP);
	ck_assert_int_eq(r->status, 206);
	ck_assert_str_eq(HX_Header(r, "Content-Range"), "bytes 0-9/100");
	ck_assert_int_eq(r->bodylen, 10);
	ck_assert_str_eq(r->body, "0123456789");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 17. IPv6.
 */

START_TEST(ipv6_listen)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	if (!HX_HaveIPv6()) {
		HX_Skip("ipv6_listen: ::1 cannot be bound here");
		return;
	}
	o = ORIGIN_New(proxy_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Listen(v, "127.0.0.1:0");
	VND_Listen(v, "[::1]:0");
	VND_Start(v);
	ck_assert_int_eq(VND_NListen(v), 2);
	ck_assert_msg(strchr(VND_Addr(v, 1), ':') != NULL,
	    "a1 is %s, want ::1", VND_Addr(v, 1));

	cl = VND_ConnectTo(v, 1);
	get_ok(cl, "/v6");
	CLIENT_Free(&cl);
	q = ORIGIN_FindReq(o, "/v6");
	ck_assert_ptr_nonnull(q);
	ck_assert_str_eq(HX_Header(q, "X-Forwarded-For"), "::1");

	cl = VND_ConnectTo(v, 0);
	get_ok(cl, "/v4");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
proxy_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("proxy");
	tc = tcase_create("headers");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, basic_get);
	tcase_add_test(tc, hop_by_hop_headers);
	suite_add_tcase(s, tc);

	tc = tcase_create("connections");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, client_keepalive_backend_reuse);
	tcase_add_test(tc, backend_closes_idle_connection);
	tcase_add_test(tc, pipelined_requests);
	tcase_add_test(tc, http10_closes);
	tcase_add_test(tc, http10_keepalive);
	tcase_add_test(tc, http10_gets_chunked_body_unchunked);
	tcase_add_test(tc, http10_gets_eof_body);
	tcase_add_test(tc, connection_close);
	tcase_add_test(tc, ipv6_listen);
	suite_add_tcase(s, tc);

	tc = tcase_create("bodies");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, head_has_no_body);
	tcase_add_test(tc, origin_chunked);
	tcase_add_test(tc, origin_close_delimited);
	tcase_add_test(tc, no_body_statuses);
	tcase_add_test(tc, interim_responses);
	tcase_add_test(tc, partial_content);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(proxy_suite()));
}

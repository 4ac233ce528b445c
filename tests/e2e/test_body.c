/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_body.c -- issue #3, end to end: request bodies on their way to the
 * origin (Content-Length, chunked, 1 MB, Expect: 100-continue, an Expect
 * veneerd does not know), and a 1 GB response streamed through veneerd
 * while the child's memory stays flat.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

#define BIG_LEN		(1ULL << 30)	/* the streamed response */
#define BIG_RSS_KB	(64 * 1024)	/* growth allowed while streaming */
#define BIG_SAMPLE	(32ULL << 20)	/* bytes between RSS samples */

static void
body_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	char hdrs[128];

	(void)priv;
	if (strcmp(req->url, "/huge") == 0) {
		(void)snprintf(hdrs, sizeof hdrs, "Content-Length: %llu\r\n"
		    "Cache-Control: no-store\r\n", BIG_LEN);
		if (ORIGIN_Head(oc, 200, hdrs) == 0)
			(void)ORIGIN_SendPattern(oc, 0, BIG_LEN);
		return;
	}
	/* Echo what arrived: its length in a header and the url. */
	(void)snprintf(hdrs, sizeof hdrs, "X-Body-Length: %zu\r\n",
	    req->bodylen);
	(void)ORIGIN_Respond(oc, 200, hdrs, req->url, -1);
}

/*--------------------------------------------------------------------
 * 6. Request bodies.
 */

START_TEST(post_content_length)
{
	static const char body[] = "hello body\0with a NUL";
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(body_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_Req(cl, "POST", "/post", "Content-Type: text/plain\r\n", body,
	    sizeof body - 1);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(HX_Header(r, "X-Body-Length"), "21");
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/post");
	ck_assert_ptr_nonnull(q);
	ck_assert_str_eq(q->method, "POST");
	ck_assert_int_eq(q->bodylen, sizeof body - 1);
	ck_assert(memcmp(q->body, body, sizeof body - 1) == 0);
	(void)VND_WaitCounter(v, "s_req_bodybytes", ">=", sizeof body - 1,
	    HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(post_chunked)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(body_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "POST /chunked-post HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"
	    "5\r\nhello\r\n7;ext=1\r\n, proxy\r\n1\r\n!\r\n0\r\n\r\n");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(HX_Header(r, "X-Body-Length"), "13");
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/chunked-post");
	ck_assert_ptr_nonnull(q);
	/* Forwarded chunked or with a length: the bytes are what count. */
	ck_assert_int_ne(q->body_kind, HX_BODY_NONE);
	ck_assert_str_eq(q->body, "hello, proxy!");
	/* The connection goes on after a chunked body. */
	r = CLIENT_Fetch(cl, "GET", "/after", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(post_one_megabyte)
{
	const size_t len = 1 << 20;
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char *body;

	body = malloc(len);
	ck_assert_ptr_nonnull(body);
	HX_Pattern(body, 99, len);
	o = ORIGIN_New(body_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_Req(cl, "POST", "/mega", NULL, body, (ssize_t)len);
	r = CLIENT_Resp(cl, 0, HX_T_SLOW);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/mega");
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(q->bodylen, len);
	ck_assert_msg(HX_PatternCheck(q->body, 99, len) == 0,
	    "the 1 MB body arrived altered");
	(void)VND_WaitCounter(v, "s_req_bodybytes", ">=", len, HX_T_RESP);
	free(body);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(expect_100_continue)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(body_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	/* Headers only: the body waits for the go-ahead. */
	CLIENT_SendStr(cl, "POST /expect HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Expect: 100-continue\r\nContent-Length: 10\r\n\r\n");
	r = CLIENT_Resp(cl, RESP_INTERIM, HX_T_RESP);
	ck_assert_int_eq(r->status, 100);
	ck_assert_str_eq(r->proto, "HTTP/1.1");
	HX_MsgFree(&r);
	CLIENT_SendStr(cl, "0123456789");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(HX_Header(r, "X-Body-Length"), "10");
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/expect");
	ck_assert_ptr_nonnull(q);
	ck_assert_str_eq(q->body, "0123456789");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A synth for a request still owed its 100 Continue suggests closing
 * (Connection: close, without reading the body).  When vcl_synth unsets
 * that, the body is read, 100 first, and the connection serves the next
 * request, as varnishd does.
 */
static struct vnd *
expect_synth_launch(struct origin *o)
{
	struct vnd *v;
	char vcl[512];

	(void)snprintf(vcl, sizeof vcl, "vcl 4.1;\n"
	    "backend b { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub vcl_recv { return (synth(200)); }\n"
	    "sub vcl_synth { if (req.url == \"/keep\") {"
	    " unset resp.http.Connection; } }\n", ORIGIN_Port(o));
	v = VND_New();
	VND_VclFile(v, "synth.vcl", vcl);
	VND_Start(v);
	return (v);
}

START_TEST(expect_synth_keep)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(body_handler, NULL);
	v = expect_synth_launch(o);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "POST /keep HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Expect: 100-continue\r\nContent-Length: 10\r\n\r\n");
	r = CLIENT_Resp(cl, RESP_INTERIM, HX_T_RESP);
	ck_assert_int_eq(r->status, 100);
	HX_MsgFree(&r);
	CLIENT_SendStr(cl, "0123456789");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert(!HX_HeaderHasToken(r, "Connection", "close"));
	HX_MsgFree(&r);
	/* The same connection, in step: the body was read. */
	CLIENT_SendStr(cl, "GET /keep HTTP/1.1\r\nHost: e2e.test\r\n\r\n");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(expect_synth_close)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(body_handler, NULL);
	v = expect_synth_launch(o);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "POST /close HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Expect: 100-continue\r\nContent-Length: 10\r\n\r\n");
	/* No 100: the synth comes first, and says close. */
	r = CLIENT_Resp(cl, RESP_INTERIM, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert(HX_HeaderHasToken(r, "Connection", "close"));
	HX_MsgFree(&r);
	CLIENT_AssertClosed(cl, HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(expect_unknown_417)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(body_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "POST /expect-other HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Expect: something-else\r\nContent-Length: 4\r\n\r\nbody");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 417);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "client_req_417", "==", 1, HX_T_RESP);
	ck_assert_int_eq(ORIGIN_NReq(o), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 9. A 1 GB response, streamed.
 */

struct big_sink {
	unsigned	magic;
#define BIG_SINK_MAGIC	0x62483c49
	uint64_t	off;
	uint64_t	next_sample;
	unsigned	bad;
	pid_t		child;
	long		max_rss;
};

static int
big_sink(void *priv, const void *data, size_t len)
{
	struct big_sink *bs;
	long rss;

	bs = priv;
	ck_assert(bs->magic == BIG_SINK_MAGIC);
	if (HX_PatternCheck(data, bs->off, len) != 0)
		bs->bad++;
	bs->off += len;
	if (bs->off >= bs->next_sample) {
		bs->next_sample += BIG_SAMPLE;
		rss = HX_ProcStatus(bs->child, "VmRSS");
		if (rss > bs->max_rss)
			bs->max_rss = rss;
	}
	return (0);
}

START_TEST(one_gigabyte_streamed)
{
	struct big_sink bs;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	long base;
	double t0;

	o = ORIGIN_New(body_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	/* Warm up: the first request sets up what every request uses. */
	r = CLIENT_Fetch(cl, "GET", "/warm", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	base = VND_ChildRssKB(v);

	memset(&bs, 0, sizeof bs);
	bs.magic = BIG_SINK_MAGIC;
	bs.child = VND_ChildPid(v);
	bs.max_rss = base;
	CLIENT_SetSink(cl, big_sink, &bs);
	t0 = HX_Now();
	r = CLIENT_Fetch(cl, "GET", "/huge", NULL, 25.0);
	HX_Log("1 GB through veneerd in %.1f s, child RSS %ld kB -> %ld kB",
	    HX_Now() - t0, base, bs.max_rss);
	ck_assert_int_eq(r->status, 200);
	ck_assert_uint_eq(r->bodylen, BIG_LEN);
	ck_assert_uint_eq(bs.off, BIG_LEN);
	ck_assert_msg(bs.bad == 0, "%u pieces of the body were altered",
	    bs.bad);
	ck_assert_msg(bs.max_rss - base < BIG_RSS_KB, "the child grew from "
	    "%ld kB to %ld kB while streaming: the body is buffered", base,
	    bs.max_rss);
	HX_MsgFree(&r);
	CLIENT_SetSink(cl, NULL, NULL);
	(void)VND_WaitCounter(v, "s_resp_bodybytes", ">=", BIG_LEN,
	    HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
body_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("body");
	tc = tcase_create("request");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, post_content_length);
	tcase_add_test(tc, post_chunked);
	tcase_add_test(tc, post_one_megabyte);
	tcase_add_test(tc, expect_100_continue);
	tcase_add_test(tc, expect_unknown_417);
	tcase_add_test(tc, expect_synth_keep);
	tcase_add_test(tc, expect_synth_close);
	suite_add_tcase(s, tc);

	tc = tcase_create("stream");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, one_gigabyte_streamed);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(body_suite()));
}

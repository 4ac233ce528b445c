/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_keying.c -- issue #11, end to end: two requests share an object
 * only if the backend could not have told them apart.  Vary names that
 * are prefixes of each other, headers a client names in Connection:,
 * repeated header lines, fragments and '#' in the lookup key, the case
 * of Host; and what a differential run against varnishd found beside
 * them: repeated Expect: 100-continue lines, and the Host an HTTP/1.0
 * request without one is sent on with.
 *
 * The origin and the checks are cache_lib.c's (cache_lib.h says how a
 * request scripts the origin); the body of each answer names the fetch
 * that made it, so a wrong variant shows as a wrong body.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e/cache_lib.h"
#include "lib/harness.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof (a) / sizeof (a)[0])
#endif

#define CACHE_100	"Cache-Control: max-age=100"

struct keying {
	struct origin	*o;
	struct vnd	*v;
	struct client	*cl;
};

static void
k_start(struct keying *k)
{

	k->o = CO_New();
	k->v = VND_Launch(ORIGIN_Port(k->o), NULL);
	k->cl = VND_Connect(k->v);
}

static void
k_finish(struct keying *k)
{

	if (k->cl != NULL)
		CLIENT_Free(&k->cl);
	VND_Finish(&k->v, &k->o);
}

/* Header name of the origin's i-th request (0-based), or NULL. */
static const char *
origin_hdr(struct origin *o, unsigned i, const char *name)
{
	const struct hx_msg *q;

	q = ORIGIN_Req(o, i);
	ck_assert_msg(q != NULL, "the origin has no request #%u", i);
	return (HX_Header(q, name));
}

/* A raw request on a new connection; the response (caller frees). */
static struct hx_msg *
raw(struct keying *k, const char *req)
{
	struct client *cl;
	struct hx_msg *r;

	cl = VND_Connect(k->v);
	CLIENT_SendStr(cl, req);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	CLIENT_Free(&cl);
	return (r);
}

/*--------------------------------------------------------------------
 * Vary names that are prefixes of their neighbours.
 */

/* The report that opened issue 11. */
START_TEST(issue_0011_vary_accept_and_accept_encoding)
{
	static const struct co_vary_step t[] = {
		{ "Accept: application/json\r\nAccept-Encoding: gzip\r\n", 1 },
		{ "Accept: text/html\r\nAccept-Encoding: gzip\r\n", 2 },
		{ "Accept: application/json\r\nAccept-Encoding: gzip\r\n", 1 },
		{ "Accept: text/html\r\nAccept-Encoding: br\r\n", 3 },
		{ "Accept-Encoding: gzip\r\n", 4 },
		{ "Accept-Encoding: gzip\r\nAccept: text/html\r\n", 2 },
		{ "Accept: text/html\r\n", 5 },
	};
	struct keying k;

	/* Accept-Encoding as any header: without gzip support. */
	k.o = CO_New();
	k.v = VND_Launch(ORIGIN_Port(k.o), "http_gzip_support=off", NULL);
	k.cl = VND_Connect(k.v);
	CO_VaryWalk(k.o, k.cl, "/x", CO_TH(CACHE_100 "|Vary: Accept, "
	    "Accept-Encoding"), t, ARRAY_SIZE(t));
	k_finish(&k);
}
END_TEST

/*
 * With http_gzip_support (the default) Accept-Encoding is no variant
 * key, as in Varnish: the backend is asked for gzip whatever the client
 * said, and clients that do not take gzip get it uncompressed.
 */
START_TEST(vary_accept_encoding_gzip_support)
{
	static const struct co_vary_step t[] = {
		{ "Accept: application/json\r\nAccept-Encoding: gzip\r\n", 1 },
		{ "Accept: text/html\r\nAccept-Encoding: gzip\r\n", 2 },
		{ "Accept: application/json\r\nAccept-Encoding: gzip\r\n", 1 },
		{ "Accept: text/html\r\nAccept-Encoding: br\r\n", 2 },
		{ "Accept-Encoding: gzip\r\n", 3 },
		{ "Accept-Encoding: gzip\r\nAccept: text/html\r\n", 2 },
		{ "Accept: text/html\r\n", 2 },
	};
	struct keying k;

	k_start(&k);
	CO_VaryWalk(k.o, k.cl, "/x", CO_TH(CACHE_100 "|Vary: Accept, "
	    "Accept-Encoding"), t, ARRAY_SIZE(t));
	k_finish(&k);
}
END_TEST

START_TEST(issue_0011_vary_prefix_names)
{
	static const struct co_vary_step t[] = {
		{ "X-V1: a\r\n", 1 },
		{ "X-V10: a\r\n", 2 },
		{ "X-V100: a\r\n", 3 },
		{ "X-V1: a\r\nX-V10: a\r\n", 4 },
		{ "X-V10: a\r\n", 2 },
		{ "x-v1: a\r\n", 1 },
		{ "X-V2: a\r\n", 5 },
		{ "X-V100: a\r\n", 3 },
		{ "X-V1-: a\r\n", 6 },		/* not Vary'd: no header */
		{ "X-V10: a\r\nX-V1: a\r\n", 4 },
	};
	struct keying k;

	k_start(&k);
	CO_VaryWalk(k.o, k.cl, "/p", CO_TH(CACHE_100 "|Vary: X-V2, X-V100, "
	    "x-v1, X-V10"), t, ARRAY_SIZE(t));
	k_finish(&k);
}
END_TEST

/*--------------------------------------------------------------------
 * Headers the client names in Connection: are gone for every purpose.
 */

START_TEST(issue_0011_connection_named_headers)
{
	static const char * const names[] = {
		"Accept-Language", "Origin", "User-Agent",
	};
	char url[64], vary[128], s0[128], s1[128];
	struct co_vary_step t[3];
	struct keying k;
	unsigned u, base;

	k_start(&k);
	for (u = 0; u < ARRAY_SIZE(names); u++) {
		base = ORIGIN_NReq(k.o);
		(void)snprintf(url, sizeof url, "/c%u", u);
		(void)snprintf(vary, sizeof vary, CO_TH(CACHE_100 "|Vary: %s"),
		    names[u]);
		(void)snprintf(s0, sizeof s0, "%s: fr\r\nConnection: %s\r\n",
		    names[u], names[u]);
		(void)snprintf(s1, sizeof s1, "%s: fr\r\n", names[u]);
		/* Kept as the request without it, which the backend got. */
		t[0].hdrs = s0;
		t[0].serial = base + 1;
		t[1].hdrs = s1;
		t[1].serial = base + 2;
		t[2].hdrs = "";
		t[2].serial = base + 1;
		CO_VaryWalk(k.o, k.cl, url, vary, t, 3);
		ck_assert_msg(origin_hdr(k.o, base, names[u]) == NULL,
		    "the origin got %s though Connection named it", names[u]);
		ck_assert_msg(origin_hdr(k.o, base + 1, names[u]) != NULL,
		    "the origin did not get %s", names[u]);
	}
	k_finish(&k);
}
END_TEST

/* Host stays; Content-Length framed the body, so naming it is refused. */
START_TEST(issue_0011_connection_keeps_host_refuses_length)
{
	struct keying k;
	struct hx_msg *r;

	k_start(&k);
	r = CLIENT_Fetch(k.cl, "GET", "/kh", "Host: kept.example\r\n"
	    "Connection: Host, X-Gone\r\nX-Gone: 1\r\n", HX_T_RESP);
	CO_BodyIs(r, "/kh", 1);
	HX_MsgFree(&r);
	ck_assert_str_eq(origin_hdr(k.o, 0, "Host"), "kept.example");
	ck_assert_ptr_null(origin_hdr(k.o, 0, "X-Gone"));
	r = raw(&k, "POST /kl HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n"
	    "Connection: Content-Length\r\n\r\nhello");
	ck_assert_int_eq(r->status, 400);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(k.o), 1);
	(void)VND_WaitCounter(k.v, "client_req_400", "==", 1, CO_T_WAIT);
	k_finish(&k);
}
END_TEST

/*--------------------------------------------------------------------
 * Repeated lines key the variant together, in order.
 */

START_TEST(issue_0011_vary_repeated_lines)
{
	static const struct co_vary_step t[] = {
		{ "Accept-Language: en\r\nAccept-Language: fr\r\n", 1 },
		{ "Accept-Language: en\r\n", 2 },
		{ "Accept-Language: en, fr\r\n", 1 },
		{ "Accept-Language: fr\r\nAccept-Language: en\r\n", 3 },
		{ "Accept-Language: en\r\nX-Other: 1\r\n"
		    "accept-language: fr\r\n", 1 },
		{ "Accept-Language: fr\r\n", 4 },
	};
	struct keying k;

	k_start(&k);
	CO_VaryWalk(k.o, k.cl, "/r", CO_TH(CACHE_100 "|Vary: "
	    "Accept-Language"), t, ARRAY_SIZE(t));
	ck_assert_uint_eq(HX_HeaderCount(ORIGIN_Req(k.o, 0),
	    "Accept-Language"), 2);
	k_finish(&k);
}
END_TEST

/*--------------------------------------------------------------------
 * The lookup key: '#' never joins two pieces into one.
 */

START_TEST(issue_0011_fragment_refused_key_unambiguous)
{
	const char *h = CO_TH(CACHE_100);
	char hdrs[256];
	struct keying k;
	struct hx_msg *r;

	k_start(&k);
	r = raw(&k, "GET /p#h.example HTTP/1.1\r\nHost: x\r\n\r\n");
	ck_assert_int_eq(r->status, 400);
	HX_MsgFree(&r);
	(void)snprintf(hdrs, sizeof hdrs, "Host: h.example#x\r\n%s", h);
	r = CO_Fetch(k.cl, "/p", hdrs);
	CO_BodyIs(r, "/p", 1);
	CO_CsIs(r, "/p", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	r = CO_Fetch(k.cl, "/p", hdrs);
	CO_BodyIs(r, "/p", 1);
	(void)CO_CsHit(r, "/p", 99, 100);
	HX_MsgFree(&r);
	/* The URL with the host's start is another object. */
	r = CO_Fetch(k.cl, "/ph.example", "Host: x\r\n" CO_TH(CACHE_100));
	CO_BodyIs(r, "/ph.example", 2);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(k.o), 2);
	k_finish(&k);
}
END_TEST

/*
 * hash_data() pieces keep their boundaries in the key (each one ends in
 * a NUL byte, as in Varnish): "ab"+"c" is not "a"+"bc", an unset piece
 * is not an empty one beside a set one, and a piece cannot forge the
 * end of another with bytes the parser refuses.
 */
START_TEST(hash_data_boundaries)
{
	static const struct {
		const char	*hdrs;	/* X-A and X-B lines */
		unsigned	serial;	/* the fetch whose object it gets */
	} t[] = {
		{ "X-A: ab\r\nX-B: c\r\n", 1 },
		{ "X-A: a\r\nX-B: bc\r\n", 2 },
		{ "X-B: x\r\n", 3 },			/* A unset */
		{ "X-A: x\r\n", 4 },			/* B unset */
		{ "X-A: \r\nX-B: x\r\n", 5 },		/* A empty */
		{ "X-A: abc\r\n", 6 },
		{ "X-A: ab\r\nX-B: c\r\n", 1 },	/* hits, again */
		{ "X-A: a\r\nX-B: bc\r\n", 2 },
		{ "X-B: x\r\n", 3 },
		{ "X-A: x\r\n", 4 },
	};
	static const char nul_req[] =
	    "GET /k HTTP/1.1\r\nHost: x\r\nX-A: a\0bc\r\n\r\n";
	struct keying k;
	struct client *cl;
	struct hx_msg *r;
	char hdrs[256];
	unsigned u;

	k.o = CO_New();
	k.v = VND_New();
	(void)snprintf(hdrs, sizeof hdrs, "vcl 4.1;\n"
	    "backend b { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub vcl_hash {\n\thash_data(req.http.X-A);\n"
	    "\thash_data(req.http.X-B);\n\treturn (lookup);\n}\n",
	    ORIGIN_Port(k.o));
	VND_VclFile(k.v, "hash.vcl", hdrs);
	VND_Start(k.v);
	k.cl = VND_Connect(k.v);
	for (u = 0; u < ARRAY_SIZE(t); u++) {
		(void)snprintf(hdrs, sizeof hdrs, "%s%s", t[u].hdrs,
		    CO_TH(CACHE_100));
		r = CO_Fetch(k.cl, "/k", hdrs);
		CO_BodyIs(r, "/k", t[u].serial);
		HX_MsgFree(&r);
	}
	ck_assert_int_eq(ORIGIN_NReq(k.o), 6);
	/* A NUL inside a piece would forge a boundary: refused. */
	cl = VND_Connect(k.v);
	CLIENT_Send(cl, nul_req, sizeof nul_req - 1);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 400);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	k_finish(&k);
}
END_TEST

/* Printable bytes outside RFC 9112's set that real clients send. */
START_TEST(issue_0011_odd_target_bytes_accepted)
{
	static const char url[] = "/a|b{c}[d]^e\"f\\g<h>`i";
	struct keying k;
	struct hx_msg *r;

	k_start(&k);
	r = CO_Fetch(k.cl, url, CO_TH(CACHE_100));
	CO_BodyIs(r, url, 1);
	HX_MsgFree(&r);
	r = CO_Fetch(k.cl, url, NULL);
	CO_BodyIs(r, url, 1);
	(void)CO_CsHit(r, url, 99, 100);
	HX_MsgFree(&r);
	k_finish(&k);
}
END_TEST

/*--------------------------------------------------------------------
 * Host is case-insensitive.
 */

START_TEST(issue_0011_host_case_insensitive)
{
	struct keying k;
	struct hx_msg *r;

	k_start(&k);
	r = CO_Fetch(k.cl, "/h", "Host: example.com\r\n" CO_TH(CACHE_100));
	CO_BodyIs(r, "/h", 1);
	HX_MsgFree(&r);
	r = CO_Fetch(k.cl, "/h", "Host: EXAMPLE.com\r\n");
	CO_BodyIs(r, "/h", 1);
	(void)CO_CsHit(r, "/h", 99, 100);
	HX_MsgFree(&r);
	/* Sent on lowercased, from a Host header or an absolute URI. */
	r = CO_Fetch(k.cl, "/h2", "Host: WWW.Example.COM:8080\r\n");
	CO_BodyIs(r, "/h2", 2);
	HX_MsgFree(&r);
	ck_assert_str_eq(origin_hdr(k.o, 1, "Host"), "www.example.com:8080");
	r = CO_Fetch(k.cl, "http://ABS.Example/h3", "Host: other\r\n");
	CO_BodyIs(r, "/h3", 3);
	HX_MsgFree(&r);
	ck_assert_str_eq(origin_hdr(k.o, 2, "Host"), "abs.example");
	ck_assert_int_eq(ORIGIN_NReq(k.o), 3);
	k_finish(&k);
}
END_TEST

/*--------------------------------------------------------------------
 * Found by the differential run against varnishd.
 */

START_TEST(issue_0011_expect_repeated_100_continue)
{
	static const struct {
		const char	*hdrs;
		int		status;
	} t[] = {
		{ "Expect: 100-continue\r\nExpect: 100-continue\r\n", 200 },
		{ "Expect: 100-continue, 100-Continue\r\n", 200 },
		{ "Expect: 100-continue\r\n", 200 },
		{ "Expect: 100-continue\r\nExpect: x-other\r\n", 417 },
		{ "Expect: 100-continue, x-other\r\n", 417 },
		{ "Expect:\r\n", 417 },
	};
	struct keying k;
	struct client *cl;
	struct hx_msg *r;
	unsigned u;

	k_start(&k);
	for (u = 0; u < ARRAY_SIZE(t); u++) {
		cl = VND_Connect(k.v);
		CLIENT_Req(cl, "POST", "/e", t[u].hdrs, "hello", -1);
		r = CLIENT_Resp(cl, 0, HX_T_RESP);
		ck_assert_msg(r->status == t[u].status, "%s: status %d, want "
		    "%d", t[u].hdrs, r->status, t[u].status);
		HX_MsgFree(&r);
		CLIENT_Free(&cl);
	}
	k_finish(&k);
}
END_TEST

START_TEST(issue_0011_http10_without_host_gets_port)
{
	char want[64];
	struct keying k;
	struct hx_msg *r;

	k_start(&k);
	r = raw(&k, "GET /ten HTTP/1.0\r\n\r\n");
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	(void)snprintf(want, sizeof want, "127.0.0.1:%d", ORIGIN_Port(k.o));
	ck_assert_str_eq(origin_hdr(k.o, 0, "Host"), want);
	k_finish(&k);
}
END_TEST

static Suite *
keying_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("keying");
	tc = tcase_create("keying");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, issue_0011_vary_accept_and_accept_encoding);
	tcase_add_test(tc, vary_accept_encoding_gzip_support);
	tcase_add_test(tc, issue_0011_vary_prefix_names);
	tcase_add_test(tc, issue_0011_connection_named_headers);
	tcase_add_test(tc, issue_0011_connection_keeps_host_refuses_length);
	tcase_add_test(tc, issue_0011_vary_repeated_lines);
	tcase_add_test(tc, issue_0011_fragment_refused_key_unambiguous);
	tcase_add_test(tc, issue_0011_odd_target_bytes_accepted);
	tcase_add_test(tc, hash_data_boundaries);
	tcase_add_test(tc, issue_0011_host_case_insensitive);
	tcase_add_test(tc, issue_0011_expect_repeated_100_continue);
	tcase_add_test(tc, issue_0011_http10_without_host_gets_port);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(keying_suite()));
}

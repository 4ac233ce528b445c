/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_errors.c -- issue #3, end to end: what veneerd answers when the
 * backend fails (refused, reset in the middle of the headers, too slow)
 * and when a client sends a request it must refuse (400, 413, 417 is in
 * test_body, 431, 505).  A refused request never reaches the origin, its
 * answer is readable (no reset eats it), the connection is closed when
 * the framing is lost, and each refusal is counted.
 */

#include "config.h"

#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

static void
error_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)priv;
	if (strcmp(req->url, "/reset") == 0) {
		(void)ORIGIN_Send(oc, "HTTP/1.1 200 OK\r\nContent-Ty", 27);
		ORIGIN_Reset(oc);
	} else if (strcmp(req->url, "/slow") == 0) {
		if (ORIGIN_Stall(oc, 3.0) == 0)
			(void)ORIGIN_Respond(oc, 200, NULL, "too late", -1);
	} else {
		ORIGIN_DefaultHandler(oc, req, priv);
	}
}

/* A synthetic 503: small, HTML. */
static void
assert_503(const struct hx_msg *r)
{

	ck_assert_int_eq(r->status, 503);
	ck_assert_msg(r->bodylen > 0 && r->bodylen < 4096,
	    "503 body of %zu bytes", r->bodylen);
	ck_assert_msg(strstr(r->body, "<html") != NULL ||
	    strstr(r->body, "<HTML") != NULL, "503 body is not HTML: %.200s",
	    r->body);
}

/*--------------------------------------------------------------------
 * Backend failures.
 */

START_TEST(backend_refused)
{
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	v = VND_Launch(HX_ClosedPort(), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/refused", NULL, HX_T_RESP);
	assert_503(r);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "backend_fail", ">=", 1, HX_T_RESP);
	(void)VND_WaitCounter(v, "client_resp_5xx", ">=", 1, HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Free(&v);
}
END_TEST

START_TEST(backend_reset_mid_headers)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(error_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/reset", NULL, HX_T_RESP);
	assert_503(r);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "fetch_failed", ">=", 1, HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(backend_first_byte_timeout)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	double t0, dt;

	o = ORIGIN_New(error_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "first_byte_timeout=1s", NULL);
	cl = VND_Connect(v);
	t0 = HX_Now();
	r = CLIENT_Fetch(cl, "GET", "/slow", NULL, HX_T_RESP);
	dt = HX_Now() - t0;
	assert_503(r);
	HX_MsgFree(&r);
	ck_assert_msg(dt >= 0.9 && dt < 2.5, "503 after %.2f s with "
	    "first_byte_timeout=1s", dt);
	(void)VND_WaitCounter(v, "fetch_failed", ">=", 1, HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Requests veneerd must refuse.  One veneerd, a fresh connection each.
 */

enum bad_build {
	BUILD_NONE = 0,			/* the request is in the table */
	BUILD_BIG_SECTION,		/* 12 kB of headers */
	BUILD_MANY_HEADERS,		/* 41 header lines */
	BUILD_LONG_HEADER,		/* one 2 kB header line */
	BUILD_BIG_BODY			/* a 2000 byte body */
};

struct bad_case {
	const char	*name;
	const char	*req;
	enum bad_build	build;
	int		status;
	const char	*counter;
	int		closes;		/* the framing is lost */
};

static const struct bad_case bad_cases[] = {
	{ "malformed request line", "this is not http\r\n\r\n",
	    BUILD_NONE, 400, "client_req_400", 1 },
	{ "header without colon", "GET /e HTTP/1.1\r\nHost: e2e.test\r\n"
	    "NoColonHere\r\n\r\n", BUILD_NONE, 400, "client_req_400", 1 },
	{ "control character in a header", "GET /e HTTP/1.1\r\n"
	    "Host: e2e.test\r\nX-Bad: a\001b\r\n\r\n",
	    BUILD_NONE, 400, "client_req_400", 1 },
	{ "obs-fold", "GET /e HTTP/1.1\r\nHost: e2e.test\r\nX-Fold: a\r\n"
	    " b\r\n\r\n", BUILD_NONE, 400, "client_req_400", 1 },
	{ "two different Content-Length", "POST /e HTTP/1.1\r\n"
	    "Host: e2e.test\r\nContent-Length: 1\r\nContent-Length: 2\r\n"
	    "\r\nab", BUILD_NONE, 400, "client_req_400", 1 },
	{ "Content-Length abc", "POST /e HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Content-Length: abc\r\n\r\n",
	    BUILD_NONE, 400, "client_req_400", 1 },
	{ "Content-Length and Transfer-Encoding", "POST /e HTTP/1.1\r\n"
	    "Host: e2e.test\r\nContent-Length: 3\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
	    BUILD_NONE, 400, "client_req_400", 1 },
	{ "Transfer-Encoding gzip", "POST /e HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Transfer-Encoding: gzip\r\n\r\n",
	    BUILD_NONE, 400, "client_req_400", 1 },
	{ "HTTP/1.1 without Host", "GET /e HTTP/1.1\r\n\r\n",
	    BUILD_NONE, 400, "client_req_400", 0 },
	{ "two Host", "GET /e HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\n"
	    "\r\n", BUILD_NONE, 400, "client_req_400", 0 },
	{ "header section over http_req_size", NULL,
	    BUILD_BIG_SECTION, 431, "client_req_431", 1 },
	{ "more headers than http_max_hdr", NULL,
	    BUILD_MANY_HEADERS, 431, "client_req_431", 1 },
	{ "header line over http_req_hdr_len", NULL,
	    BUILD_LONG_HEADER, 431, "client_req_431", 1 },
	{ "HTTP/2.0 request line", "GET /e HTTP/2.0\r\nHost: e2e.test\r\n"
	    "\r\n", BUILD_NONE, 505, "client_req_505", 1 },
	{ "body over http_req_body_max", NULL,
	    BUILD_BIG_BODY, 413, "client_req_413", 1 },
};

#define NCASES	(sizeof bad_cases / sizeof bad_cases[0])

/* The requests too big to write out in the table. */
static char *
bad_request(enum bad_build build)
{
	const size_t size = 64 * 1024;
	char *buf, *p;
	unsigned u;

	buf = malloc(size);
	ck_assert_ptr_nonnull(buf);
	p = buf;
	p += snprintf(p, size, "%s /e HTTP/1.1\r\nHost: e2e.test\r\n",
	    build == BUILD_BIG_BODY ? "POST" : "GET");
	switch (build) {
	case BUILD_BIG_SECTION:
		/* 20 lines of 600 bytes: 12 kB, http_req_size is 8k. */
		for (u = 0; u < 20; u++) {
			p += snprintf(p, 32, "X-Filler-%02u: ", u);
			memset(p, 'f', 580);
			p += 580;
			p += snprintf(p, 3, "\r\n");
		}
		break;
	case BUILD_MANY_HEADERS:
		/* 40 more: http_max_hdr is 32. */
		for (u = 0; u < 40; u++)
			p += snprintf(p, 32, "X-Many-%02u: %u\r\n", u, u);
		break;
	case BUILD_LONG_HEADER:
		/* One 2 kB line: http_req_hdr_len is 1k. */
		p += snprintf(p, 16, "X-Long: ");
		memset(p, 'l', 2000);
		p += 2000;
		p += snprintf(p, 3, "\r\n");
		break;
	case BUILD_BIG_BODY:
		/* 2000 bytes: http_req_body_max is 1k. */
		p += snprintf(p, 64, "Content-Length: 2000\r\n\r\n");
		memset(p, 'b', 2000);
		p += 2000;
		*p = '\0';
		return (buf);
	default:
		ck_abort_msg("no builder for %d", build);
	}
	(void)snprintf(p, 3, "\r\n");
	return (buf);
}

/* Poll counter until it reaches want or timeout; its last value. */
static uint64_t
counter_reaches(struct vnd *v, const char *name, uint64_t want,
    double timeout)
{
	double deadline;
	uint64_t val;

	deadline = HX_Now() + timeout;
	for (;;) {
		val = VND_Counter(v, name);
		if (val >= want || HX_Now() >= deadline)
			return (val);
		(void)poll(NULL, 0, 10);
	}
}

/* Run one case on a fresh connection; what went wrong, or "". */
static void
refuse_one(struct vnd *v, struct origin *o, const struct bad_case *bc,
    char *why, size_t whylen)
{
	uint64_t before, after;
	struct client *cl;
	struct hx_msg *r;
	unsigned nreq;
	enum hx_io io;
	char *req;

	why[0] = '\0';
	before = VND_Counter(v, bc->counter);
	nreq = ORIGIN_NReq(o);
	req = bc->req != NULL ? strdup(bc->req) : bad_request(bc->build);
	cl = VND_Connect(v);
	/* The whole request goes out before we read. */
	io = CLIENT_TrySend(cl, req, strlen(req), HX_T_RESP);
	free(req);
	r = CLIENT_TryResp(cl, 0, HX_T_RESP);
	if (r == NULL) {
		(void)snprintf(why, whylen, "no response (send: %s): %s",
		    HX_IoName(io), CLIENT_Error(cl));
	} else if (r->status != bc->status) {
		(void)snprintf(why, whylen, "status %d", r->status);
	} else if (bc->closes) {
		io = CLIENT_Drain(cl, 3.0);
		if (io != HX_IO_EOF && io != HX_IO_RESET)
			(void)snprintf(why, whylen, "connection not closed "
			    "after the %d: %s", bc->status, HX_IoName(io));
	}
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	if (ORIGIN_NReq(o) != nreq) {
		(void)snprintf(why, whylen, "reached the origin");
		return;
	}
	after = counter_reaches(v, bc->counter, before + 1, 2.0);
	if (why[0] == '\0' && after != before + 1)
		(void)snprintf(why, whylen, "%s went from %ju to %ju",
		    bc->counter, (uintmax_t)before, (uintmax_t)after);
}

START_TEST(refused_requests)
{
	char why[512], fails[4096];
	unsigned i, n4xx, nfail;
	struct origin *o;
	struct vnd *v;

	o = ORIGIN_New(error_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "http_req_size=8k",
	    "http_req_hdr_len=1k", "http_max_hdr=32", "http_req_body_max=1k",
	    NULL);
	/* Every case runs; the failures are reported together. */
	fails[0] = '\0';
	n4xx = nfail = 0;
	for (i = 0; i < NCASES; i++) {
		refuse_one(v, o, &bad_cases[i], why, sizeof why);
		if (bad_cases[i].status < 500)
			n4xx++;
		if (why[0] == '\0')
			continue;
		nfail++;
		(void)snprintf(fails + strlen(fails), sizeof fails -
		    strlen(fails), "\n  %s (want %d): %s", bad_cases[i].name,
		    bad_cases[i].status, why);
	}
	ck_assert_msg(nfail == 0, "%u of %zu refusals wrong:%s", nfail,
	    NCASES, fails);
	(void)VND_WaitCounter(v, "client_resp_4xx", ">=", n4xx, HX_T_RESP);
	/* Why the sessions were closed: bad requests, oversized heads. */
	(void)VND_WaitCounter(v, "sc_rx_bad", ">=", 1, HX_T_RESP);
	(void)VND_WaitCounter(v, "sc_rx_overflow", ">=", 1, HX_T_RESP);
	ck_assert_int_eq(ORIGIN_NConn(o), 0);
	VND_Finish(&v, &o);
}
END_TEST

/* After a refusal on one connection, others are served as usual. */
START_TEST(refusal_does_not_hurt_others)
{
	struct client *bad, *good;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(error_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	good = VND_Connect(v);
	r = CLIENT_Fetch(good, "GET", "/good1", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	bad = VND_Connect(v);
	CLIENT_SendStr(bad, "GET / HTTP/1.1\r\nHost e2e.test\r\n\r\n");
	r = CLIENT_Resp(bad, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 400);
	HX_MsgFree(&r);
	r = CLIENT_Fetch(good, "GET", "/good2", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "/good2");
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), 2);
	CLIENT_Free(&bad);
	CLIENT_Free(&good);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A header section that fits http_req_size but not the workspace once
 * X-Forwarded-For is extended: a bare 500, counted, the connection
 * closed, the origin never asked; the next client is served.
 */
START_TEST(workspace_overflow_is_500)
{
	struct client *cl;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char *xff;
	size_t n = 32400;

	o = ORIGIN_New(error_handler, NULL);
	/* 96k: the room left after the 32400-byte header is what counts. */
	v = VND_Launch(ORIGIN_Port(o), "http_req_hdr_len=32k",
	    "workspace_client=96k", NULL);
	xff = malloc(n + 1);
	ck_assert_ptr_nonnull(xff);
	memset(xff, 'x', n);
	xff[n] = '\0';
	cl = VND_Connect(v);
	CLIENT_Printf(cl, "GET /big-xff HTTP/1.1\r\nHost: e2e.test\r\n"
	    "X-Forwarded-For: %s\r\n\r\n", xff);
	free(xff);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 500);
	HX_MsgFree(&r);
	CLIENT_AssertClosed(cl, HX_T_RESP);
	CLIENT_Free(&cl);
	(void)VND_WaitCounter(v, "ws_client_overflow", ">=", 1, HX_T_RESP);
	(void)VND_WaitCounter(v, "client_resp_500", ">=", 1, HX_T_RESP);
	ck_assert_int_eq(ORIGIN_NReq(o), 0);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/after", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
errors_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("errors");
	tc = tcase_create("backend");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, backend_refused);
	tcase_add_test(tc, backend_reset_mid_headers);
	tcase_add_test(tc, backend_first_byte_timeout);
	suite_add_tcase(s, tc);

	tc = tcase_create("client");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, refused_requests);
	tcase_add_test(tc, workspace_overflow_is_500);
	tcase_add_test(tc, refusal_does_not_hurt_others);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(errors_suite()));
}

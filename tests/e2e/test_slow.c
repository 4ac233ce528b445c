/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_slow.c -- slow and hostile clients (issue 11, section 2): partial
 * heads of any legal size parked without a thread and within
 * sess_park_space; a request body's total deadline (timeout_req_body);
 * the largest legal request and response heads on every path.
 *
 * Every URL is used once per veneerd, so no answer can come from the
 * cache.
 */

#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

#define PARK_CONNS	60
#define PARK_PAD	4000	/* a head well past workspace_session */

/* "GET url ... X-Pad: AAA...\r\n": a partial head, no blank line yet. */
static char *
partial_head(const char *url, size_t pad)
{
	char *s;
	size_t n;

	n = pad + strlen(url) + 64;
	s = malloc(n);
	ck_assert(s != NULL);
	(void)snprintf(s, n, "GET %s HTTP/1.1\r\nHost: x\r\nX-Pad: %*s\r\n",
	    url, (int)pad, "");
	memset(strstr(s, "X-Pad: ") + 7, 'A', pad);
	return (s);
}

/*
 * Issue 11: a partial head bigger than workspace_session was "too big to
 * park" and kept a worker thread in poll() until timeout_idle, so 60
 * such clients took 60 threads.  Now they are parked with their bytes,
 * the thread count stays where it was, and each client still gets its
 * answer when it sends the rest.
 */
START_TEST(big_partial_heads_hold_no_thread)
{
	struct client *cl[PARK_CONNS];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	uint64_t threads;
	char url[64];
	unsigned u;
	char *s;

	o = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(o), "thread_pools=1", "thread_pool_min=5",
	    "thread_pool_max=500", "timeout_idle=20s", NULL);
	(void)VND_WaitCounter(v, "threads", "==", 5, HX_T_RESP);
	for (u = 0; u < PARK_CONNS; u++) {
		cl[u] = VND_Connect(v);
		(void)snprintf(url, sizeof url, "/park/%u", u);
		s = partial_head(url, PARK_PAD);
		CLIENT_SendStr(cl[u], s);
		free(s);
		/*
		 * One at a time: a burst of new sessions larger than
		 * thread_queue_limit is dropped before any is read, which
		 * is not what this test is about.
		 */
		(void)VND_WaitCounter(v, "sess_park_bytes", ">=",
		    (uint64_t)(u + 1) * PARK_PAD, HX_T_RESP);
	}
	threads = VND_Counter(v, "threads");
	ck_assert_msg(threads < PARK_CONNS / 4, "%u clients with a partial "
	    "%u byte head hold %ju threads", PARK_CONNS, PARK_PAD,
	    (uintmax_t)threads);
	for (u = 0; u < PARK_CONNS; u++) {
		CLIENT_SendStr(cl[u], "X-Last: 1\r\n\r\n");
		r = CLIENT_Resp(cl[u], 0, HX_T_RESP);
		(void)snprintf(url, sizeof url, "/park/%u", u);
		ck_assert_msg(r->status == 200, "%s: status %d", url,
		    r->status);
		ck_assert_str_eq(r->body, url);
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	(void)VND_WaitCounter(v, "sess_park_bytes", "==", 0, HX_T_RESP);
	ck_assert_uint_eq(VND_Counter(v, "sess_park_full"), 0);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Issue 11: a parked session that became readable was dropped (counter
 * req_dropped, sc_overload) when no thread was free and the queue was at
 * thread_queue_limit, losing slow clients within their timeouts.  Now it
 * waits its turn: with thread_queue_limit=0 and 10 threads, 40 parked
 * clients that all finish their heads at once are all answered.
 */
#define WAKE_CONNS	40
START_TEST(woken_sessions_not_dropped)
{
	struct client *cl[WAKE_CONNS];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char url[64];
	unsigned u;
	char *s;

	o = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(o), "thread_pools=1", "thread_pool_min=10",
	    "thread_pool_max=10", "thread_queue_limit=0", "timeout_idle=20s",
	    NULL);
	(void)VND_WaitCounter(v, "threads", "==", 10, HX_T_RESP);
	for (u = 0; u < WAKE_CONNS; u++) {
		cl[u] = VND_Connect(v);
		(void)snprintf(url, sizeof url, "/wake/%u", u);
		s = partial_head(url, PARK_PAD);
		CLIENT_SendStr(cl[u], s);
		free(s);
		(void)VND_WaitCounter(v, "sess_park_bytes", ">=",
		    (uint64_t)(u + 1) * PARK_PAD, HX_T_RESP);
	}
	for (u = 0; u < WAKE_CONNS; u++)
		CLIENT_SendStr(cl[u], "\r\n");
	for (u = 0; u < WAKE_CONNS; u++) {
		r = CLIENT_TryResp(cl[u], 0, HX_T_RESP);
		ck_assert_msg(r != NULL, "client %u of %u woken at once: %s "
		    "(req_dropped %ju)", u, WAKE_CONNS, CLIENT_Error(cl[u]),
		    (uintmax_t)VND_Counter(v, "req_dropped"));
		ck_assert_int_eq(r->status, 200);
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	ck_assert_uint_eq(VND_Counter(v, "req_dropped"), 0);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * The bytes a slow client adds to its parked head are read by the waiter
 * itself: no hand-over to a worker and back (counted in sess_herd) per
 * piece, which is what made 19,000 trickling clients cost 1.74 times the
 * CPU per cache hit (slowloris.sh).
 */
START_TEST(trickled_bytes_read_by_waiter)
{
	struct client *cl;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	uint64_t herd, held;
	char *s;

	o = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(o), "timeout_idle=20s", NULL);
	cl = VND_Connect(v);
	s = partial_head("/trickled", PARK_PAD);
	CLIENT_SendStr(cl, s);
	free(s);
	held = VND_WaitCounter(v, "sess_park_bytes", ">=", PARK_PAD,
	    HX_T_RESP);
	(void)VND_WaitCounter(v, "sess_waiting", "==", 1, HX_T_RESP);
	herd = VND_Counter(v, "sess_herd");
	CLIENT_SendStr(cl, "X-More: 0123456789\r\n");
	(void)VND_WaitCounter(v, "sess_park_bytes", ">", held, HX_T_RESP);
	ck_assert_msg(VND_Counter(v, "sess_herd") == herd, "more bytes of a "
	    "parked head went to a worker and back (sess_herd %ju -> %ju)",
	    (uintmax_t)herd, (uintmax_t)VND_Counter(v, "sess_herd"));
	CLIENT_SendStr(cl, "\r\n");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "/trickled");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	(void)VND_WaitCounter(v, "sess_park_bytes", "==", 0, HX_T_RESP);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * sess_park_space bounds the memory: with room for two 4 KB partial
 * heads, the third client is closed and counted, the first two are
 * served, and the memory is given back when they close.
 */
START_TEST(park_space_bounded)
{
	struct client *cl[3];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char url[64];
	unsigned u;
	char *s;

	o = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(o), "sess_park_space=9k",
	    "timeout_idle=20s", NULL);
	for (u = 0; u < 3; u++) {
		cl[u] = VND_Connect(v);
		(void)snprintf(url, sizeof url, "/bound/%u", u);
		s = partial_head(url, PARK_PAD);
		CLIENT_SendStr(cl[u], s);
		free(s);
		if (u < 2)
			(void)VND_WaitCounter(v, "sess_park_bytes", ">=",
			    (uint64_t)(u + 1) * PARK_PAD, HX_T_RESP);
	}
	(void)VND_WaitCounter(v, "sess_park_full", "==", 1, HX_T_RESP);
	ck_assert_int_ne(CLIENT_WaitClose(cl[2], HX_T_RESP), HX_IO_TIMEOUT);
	ck_assert_uint_ge(VND_Counter(v, "sc_overload"), 1);
	for (u = 0; u < 2; u++) {
		CLIENT_SendStr(cl[u], "\r\n");
		r = CLIENT_Resp(cl[u], 0, HX_T_RESP);
		ck_assert_int_eq(r->status, 200);
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "sess_park_bytes", "==", 0, HX_T_RESP);
	for (u = 0; u < 3; u++)
		CLIENT_Free(&cl[u]);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Issue 11: each read of a body got timeout_idle afresh, so a body sent
 * a byte at a time was accepted after any length of time while it held
 * a worker and a backend connection.  With timeout_req_body=1s a body
 * trickled a byte per 0.25 s (well within timeout_idle) is cut after
 * about 1 s: 408, closed, counted, and the backend connection it was
 * going to is gone too.  Without the limit it took 5 s and got a 200.
 */
#define TRICKLE_LEN	20
START_TEST(body_deadline)
{
	struct pollfd pfd;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	double t0, dt;
	unsigned u;

	o = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(o), "timeout_req_body=1s",
	    "timeout_idle=3s", NULL);
	cl = VND_Connect(v);
	t0 = HX_Now();
	CLIENT_Printf(cl, "POST /trickle HTTP/1.1\r\nHost: x\r\n"
	    "Content-Length: %d\r\n\r\n", TRICKLE_LEN);
	ORIGIN_WaitReqs(o, 0, HX_T_RESP);
	for (u = 0; u < TRICKLE_LEN; u++) {
		if (CLIENT_TrySend(cl, "b", 1, HX_T_RESP) != HX_IO_OK)
			break;
		/* The pace of the trickle, cut short by an answer. */
		pfd.fd = CLIENT_Fd(cl);
		pfd.events = POLLIN;
		if (poll(&pfd, 1, 250) != 0)
			break;
	}
	r = CLIENT_TryResp(cl, 0, HX_T_RESP);
	ck_assert_msg(r != NULL, "no answer to a trickled body: %s",
	    CLIENT_Error(cl));
	ck_assert_msg(r->status == 408, "trickled body: status %d after "
	    "%.2f s", r->status, HX_Now() - t0);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "req_body_timeout", "==", 1, HX_T_RESP);
	ORIGIN_WaitIdle(o, HX_T_RESP);
	dt = HX_Now() - t0;
	ck_assert_msg(dt < 3.5, "the backend connection was held %.2f s "
	    "with timeout_req_body=1s", dt);
	CLIENT_Free(&cl);
	(void)VND_WaitCounter(v, "sc_rx_body", "==", 1, HX_T_RESP);
	/* A body sent at once is not affected. */
	cl = VND_Connect(v);
	CLIENT_Req(cl, "POST", "/whole", NULL, "0123456789", -1);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	/* The origin saw one body cut short: that one, and no other. */
	VND_Free(&v);
	ck_assert_uint_eq(ORIGIN_NErr(o), 1);
	ORIGIN_Free(&o);
}
END_TEST

/*--------------------------------------------------------------------
 * The largest legal heads: http_req_size and http_resp_size are 32k, a
 * line at most 8k (http_req_hdr_len, http_resp_hdr_len).
 */
#define BIG_LINES	4
#define BIG_LINE	7700

static char *
big_lines(const char *prefix)
{
	char *s, *p;
	unsigned u;
	size_t n;

	n = BIG_LINES * (strlen(prefix) + 8 + BIG_LINE) + 1;
	s = p = malloc(n);
	ck_assert(s != NULL);
	for (u = 0; u < BIG_LINES; u++) {
		p += snprintf(p, n - (size_t)(p - s), "%s%u: ", prefix, u);
		memset(p, 'a' + (int)u, BIG_LINE);
		p += BIG_LINE;
		*p++ = '\r';
		*p++ = '\n';
		*p = '\0';
	}
	return (s);
}

static void
big_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	const char *cc = "Cache-Control: max-age=300\r\n";
	char hdrs[BIG_LINES * (BIG_LINE + 16) + 256];
	char *big;

	(void)priv;
	if (HX_HeaderCount(req, "X-Req-3") != 1 ||
	    strlen(HX_Header(req, "X-Req-3")) != BIG_LINE)
		ORIGIN_Note(oc, "%s: the big request header did not arrive "
		    "whole", req->url);
	if (strstr(req->url, "/hfm") != NULL)
		cc = "Cache-Control: no-store\r\n";
	else if (strstr(req->url, "/grace") != NULL)
		cc = "Cache-Control: max-age=1\r\n";
	else if (strcmp(req->method, "FOO") == 0)
		cc = "Connection: close\r\n";
	big = big_lines("X-Big-");
	(void)snprintf(hdrs, sizeof hdrs, "%s%s", cc, big);
	free(big);
	(void)ORIGIN_Respond(oc, 200, hdrs, req->url, -1);
}

/* Send the big request, check the big answer; its Cache-Status. */
static char *
big_fetch(struct vnd *v, const char *method, const char *url)
{
	struct client *cl;
	struct hx_msg *r;
	char *big, *cs;

	big = big_lines("X-Req-");
	cl = VND_Connect(v);
	CLIENT_Req(cl, method, url, big, strcmp(method, "POST") ? NULL : "x",
	    -1);
	free(big);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_msg(r->status == 200, "%s %s with a %u byte head: status "
	    "%d", method, url, BIG_LINES * BIG_LINE, r->status);
	ck_assert_str_eq(r->body, url);
	ck_assert_msg(HX_Header(r, "X-Big-3") != NULL &&
	    strlen(HX_Header(r, "X-Big-3")) == BIG_LINE, "%s %s: the big "
	    "response header did not arrive whole", method, url);
	cs = strdup(HX_Header(r, "Cache-Status") != NULL ?
	    HX_Header(r, "Cache-Status") : "");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	return (cs);
}

/*
 * Issue 11: a cacheable request whose head was between about 22 KB and
 * 32 KB got 503 on a miss ("workspace_backend overflow copying the
 * request"): the request was copied into workspace_backend twice.  With
 * the defaults, a 31 KB request and a 31 KB response go through a miss,
 * a hit, a pass, a pipe, hit-for-miss and a grace refresh.
 */
START_TEST(largest_heads_every_path)
{
	struct origin *o;
	struct vnd *v;
	uint64_t fl;
	unsigned n;
	double t0;
	char *cs;

	o = ORIGIN_New(big_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	free(big_fetch(v, "GET", "/big/miss"));
	cs = big_fetch(v, "GET", "/big/miss");
	ck_assert_msg(strstr(cs, "hit") != NULL, "second GET: Cache-Status: "
	    "%s, want a hit", cs);
	free(cs);
	free(big_fetch(v, "POST", "/big/pass"));
	free(big_fetch(v, "FOO", "/big/pipe"));
	free(big_fetch(v, "GET", "/big/hfm"));
	cs = big_fetch(v, "GET", "/big/hfm");
	ck_assert_msg(strstr(cs, "hit-for-miss") != NULL, "behind the marker:"
	    " Cache-Status: %s", cs);
	free(cs);
	free(big_fetch(v, "GET", "/big/grace"));
	/* Stale within grace after max-age=1: served, refreshed behind. */
	fl = VND_Counter(v, "fetch_length");
	n = ORIGIN_NReq(o);
	t0 = HX_Now();
	while (ORIGIN_NReq(o) == n && HX_Now() - t0 < HX_T_SLOW) {
		free(big_fetch(v, "GET", "/big/grace"));
		/* Not a synchronization: the pace of asking again. */
		(void)poll(NULL, 0, 100);
	}
	ck_assert_msg(ORIGIN_NReq(o) > n, "no grace refresh in %.0f s",
	    HX_T_SLOW);
	ck_assert_uint_ge(VND_Counter(v, "cache_hit_grace"), 1);
	/* The refresh got its whole response. */
	(void)VND_WaitCounter(v, "fetch_length", ">=", fl + 1, HX_T_RESP);
	ck_assert_uint_eq(VND_Counter(v, "ws_backend_overflow"), 0);
	ck_assert_uint_eq(VND_Counter(v, "ws_client_overflow"), 0);
	ck_assert_uint_eq(VND_Counter(v, "fetch_failed"), 0);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
slow_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("slow");
	tc = tcase_create("park");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, big_partial_heads_hold_no_thread);
	tcase_add_test(tc, park_space_bounded);
	tcase_add_test(tc, woken_sessions_not_dropped);
	tcase_add_test(tc, trickled_bytes_read_by_waiter);
	suite_add_tcase(s, tc);
	tc = tcase_create("body");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, body_deadline);
	suite_add_tcase(s, tc);
	tc = tcase_create("big");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, largest_heads_every_path);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(slow_suite()));
}

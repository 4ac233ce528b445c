/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_load.c -- issue #3, end to end: many connections.  Idle keep-alive
 * connections wait in the waiter, not on threads: 5,000 of them cost a
 * handful of threads and are all served when they speak again.  When
 * every thread is busy and the queue is full, new sessions are dropped
 * (closed, counted) instead of hanging.  A connection in its pool's
 * linger set is served even while the worker that was watching the set
 * waits on a slow backend, and so is a burst of them.
 */

#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/harness.h"

#define IDLE_CONNS	5000
#define IDLE_BATCH	16	/* requests in flight at once */
#define IDLE_MAX_THREADS 60
#define IDLE_FDS	12000	/* 5,000 here, 5,000 in veneerd, spare */

#define FLOOD_CONNS	30
#define FLOOD_FIRST	5	/* sent one at a time before the rest */

static void
load_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)priv;
	if (strncmp(req->url, "/slow/", 6) == 0) {
		if (ORIGIN_Stall(oc, 2.0) == 0)
			(void)ORIGIN_Respond(oc, 200, NULL, req->url, -1);
		return;
	}
	(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=60\r\n", "ok",
	    -1);
}

/* One request on each of cl[from..to), connecting first if needed. */
static void
idle_round(struct vnd *v, struct client **cl, unsigned from, unsigned to,
    const char *url)
{
	struct hx_msg *r;
	unsigned u;

	for (u = from; u < to; u++) {
		if (cl[u] == NULL)
			cl[u] = VND_Connect(v);
		CLIENT_Req(cl[u], "GET", url, NULL, NULL, 0);
	}
	for (u = from; u < to; u++) {
		r = CLIENT_TryResp(cl[u], 0, HX_T_SLOW);
		ck_assert_msg(r != NULL, "connection %u, %s: %s", u, url,
		    CLIENT_Error(cl[u]));
		ck_assert_msg(r->status == 200, "connection %u, %s: status %d",
		    u, url, r->status);
		HX_MsgFree(&r);
	}
}

START_TEST(idle_connections_wait_without_threads)
{
	struct client **cl;
	struct origin *o;
	struct vnd *v;
	long fds, threads;
	unsigned u, n;
	double t0;

	fds = HX_RaiseFdLimit(20000);
	if (fds < IDLE_FDS) {
		HX_Skip("idle_connections_wait_without_threads: only %ld "
		    "file descriptors (ulimit -Hn), %d needed", fds, IDLE_FDS);
		return;
	}
	o = ORIGIN_New(load_handler, NULL);
	/*
	 * veneerd inherits the raised limit.  Default timeout_linger: the
	 * quiet sessions wait in the linger set, not on threads, so the
	 * burst of requests does not breed threads either.
	 */
	v = VND_Launch(ORIGIN_Port(o), "thread_pools=1", "thread_pool_min=10",
	    "thread_pool_max=500", "timeout_idle=60s",
	    NULL);
	cl = calloc(IDLE_CONNS, sizeof *cl);
	ck_assert_ptr_nonnull(cl);

	t0 = HX_Now();
	for (u = 0; u < IDLE_CONNS; u += IDLE_BATCH) {
		n = u + IDLE_BATCH > IDLE_CONNS ? IDLE_CONNS : u + IDLE_BATCH;
		idle_round(v, cl, u, n, "/idle");
	}
	HX_Log("%d connections, one request each, in %.1f s", IDLE_CONNS,
	    HX_Now() - t0);
	/* Parked in the waiter, not holding threads. */
	(void)VND_WaitCounter(v, "sess_waiting", ">=", IDLE_CONNS * 9 / 10,
	    10.0);
	threads = VND_ChildThreads(v);
	HX_Log("child threads with %d idle connections: %ld", IDLE_CONNS,
	    threads);
	ck_assert_msg(threads < IDLE_MAX_THREADS, "%ld threads for %d idle "
	    "connections (thread_pool_min=10)", threads, IDLE_CONNS);

	t0 = HX_Now();
	for (u = 0; u < IDLE_CONNS; u += IDLE_BATCH) {
		n = u + IDLE_BATCH > IDLE_CONNS ? IDLE_CONNS : u + IDLE_BATCH;
		idle_round(v, cl, u, n, "/again");
	}
	HX_Log("second request on each in %.1f s", HX_Now() - t0);
	ck_assert_int_eq(VND_Counter(v, "sess_conn"), IDLE_CONNS);
	threads = VND_ChildThreads(v);
	ck_assert_msg(threads < IDLE_MAX_THREADS, "%ld threads after the "
	    "second round", threads);
	for (u = 0; u < IDLE_CONNS; u++)
		CLIENT_Free(&cl[u]);
	free(cl);
	VND_Finish(&v, &o);
}
END_TEST

/* 10 threads and a queue of 1 against 30 simultaneous slow requests. */
START_TEST(pool_overflow_drops)
{
	struct client *cl[FLOOD_CONNS];
	unsigned u, served, dropped;
	double deadline;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	enum hx_io io;
	char req[64];
	int len;

	o = ORIGIN_New(load_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "thread_pools=1", "thread_pool_min=5",
	    "thread_pool_max=10", "thread_queue_limit=1", NULL);
	/* The child is up and its pool has its minimum. */
	cl[0] = VND_Connect(v);
	r = CLIENT_Fetch(cl[0], "GET", "/warm", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&cl[0]);
	(void)VND_WaitCounter(v, "threads", ">=", 5, HX_T_RESP);
	for (u = 0; u < FLOOD_CONNS; u++) {
		cl[u] = VND_Connect(v);
		/*
		 * A miss (each URL its own): one thread per request, as
		 * the fetch of a cache miss waits on its worker.
		 */
		len = snprintf(req, sizeof req, "GET /slow/%u HTTP/1.1\r\n"
		    "Host: e2e.test\r\n\r\n", u);
		/* A dropped session may be closed already: not an error. */
		(void)CLIENT_TrySend(cl[u], req, (size_t)len, 1.0);
		/*
		 * The first FLOOD_FIRST go one at a time, each at the
		 * origin before the next: they take the idle threads and
		 * must be served.  All at once, on a starved machine two
		 * new sessions could come while the leading thread had not
		 * yet woken for the first, and the queue of 1 dropped one
		 * (CI once served only 4).
		 */
		if (u < FLOOD_FIRST)
			ORIGIN_WaitReqs(o, 2 + u, HX_T_SLOW);
	}
	served = dropped = 0;
	deadline = HX_Now() + 12.0;
	for (u = 0; u < FLOOD_CONNS; u++) {
		r = CLIENT_TryResp(cl[u], 0, deadline - HX_Now());
		if (r != NULL) {
			ck_assert_msg(r->status == 200 || r->status == 503,
			    "request %u: status %d", u, r->status);
			ck_assert_msg(u >= FLOOD_FIRST || r->status == 200,
			    "request %u, sent alone: status %d", u,
			    r->status);
			if (r->status == 200)
				served++;
			HX_MsgFree(&r);
			continue;
		}
		ck_assert_msg(u >= FLOOD_FIRST, "request %u, sent alone, "
		    "was dropped: %s", u, CLIENT_Error(cl[u]));
		io = CLIENT_LastIO(cl[u]);
		ck_assert_msg(io == HX_IO_EOF || io == HX_IO_RESET,
		    "request %u neither answered nor dropped: %s", u,
		    CLIENT_Error(cl[u]));
		dropped++;
	}
	HX_Log("%u served, %u dropped of %d", served, dropped, FLOOD_CONNS);
	ck_assert_msg(dropped > 0, "no session dropped with 10 threads and a "
	    "queue of 1 for %d slow requests", FLOOD_CONNS);
	ck_assert_msg(served >= 5, "only %u of %d served with 5 idle threads",
	    served, FLOOD_CONNS);
	(void)VND_WaitCounter(v, "sess_dropped", ">", 0, HX_T_RESP);
	/* Drops mean the queue was full: something waited in it. */
	(void)VND_WaitCounter(v, "sess_queued", ">", 0, HX_T_RESP);
	for (u = 0; u < FLOOD_CONNS; u++)
		CLIENT_Free(&cl[u]);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Start v on one CPU: one worker at a time watches the linger set (on
 * more, an idle second watcher would answer and hide what the tests
 * below look for).  veneerd inherits the affinity; the test process
 * gets its CPUs back.
 */
static void
start_one_cpu(struct vnd *v)
{
	cpu_set_t all, one;
	unsigned u;

	ck_assert_int_eq(sched_getaffinity(0, sizeof all, &all), 0);
	CPU_ZERO(&one);
	for (u = 0; !CPU_ISSET(u, &all); u++)
		continue;
	CPU_SET(u, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
	VND_Start(v);
	ck_assert_int_eq(sched_setaffinity(0, sizeof all, &all), 0);
}

/* veneerd before o on one CPU, one pool, a long timeout_linger. */
static struct vnd *
launch_one_cpu(const struct origin *o)
{
	struct vnd *v;

	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Param(v, "thread_pools", "1");
	VND_Param(v, "thread_pool_min", "5");
	VND_Param(v, "timeout_linger", "30s");
	VND_Param(v, "timeout_idle", "60s");
	start_one_cpu(v);
	return (v);
}

/*
 * Two keep-alive connections idle in the linger set (timeout_linger is
 * long, so neither goes to the waiter); the worker that takes the first
 * one's request waits two seconds for the backend.  The second's request
 * meanwhile must not wait behind it: another worker has to watch the set.
 */
START_TEST(linger_set_served_while_a_worker_blocks)
{
	struct client *a, *b;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	double t0;

	o = ORIGIN_New(load_handler, NULL);
	v = launch_one_cpu(o);
	a = VND_Connect(v);
	b = VND_Connect(v);
	r = CLIENT_Fetch(a, "GET", "/warm-a", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	r = CLIENT_Fetch(b, "GET", "/warm-b", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	/* A second request on each: both were served from the set. */
	r = CLIENT_Fetch(a, "GET", "/warm-a", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	ck_assert_msg(VND_Counter(v, "sess_herd") == 0, "a connection went "
	    "to the waiter within timeout_linger (30 s)");

	/*
	 * A miss that the origin answers after 2 s: its worker waits (a
	 * pass would not hold one).
	 */
	CLIENT_SendStr(a, "GET /slow/a HTTP/1.1\r\nHost: e2e.test\r\n"
	    "\r\n");
	ORIGIN_WaitReqs(o, 3, HX_T_RESP);	/* /warm-a, /warm-b, /slow/a */
	t0 = HX_Now();
	CLIENT_Req(b, "GET", "/warm-b", NULL, NULL, 0);
	r = CLIENT_TryResp(b, 0, 1.5);
	ck_assert_msg(r != NULL, "the second connection got no answer while "
	    "the first waited on the backend: %s", CLIENT_Error(b));
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	HX_Log("answered in %.3f s while a worker waited on the backend",
	    HX_Now() - t0);
	r = CLIENT_TryResp(a, 0, HX_T_SLOW);
	ck_assert_msg(r != NULL, "the slow request: %s", CLIENT_Error(a));
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "/slow/a");
	HX_MsgFree(&r);
	ck_assert_msg(VND_Counter(v, "sess_herd") == 0, "a connection went "
	    "to the waiter within timeout_linger (30 s)");
	CLIENT_Free(&a);
	CLIENT_Free(&b);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A burst: 40 keep-alive connections in the linger set speak at once,
 * the first with a miss the backend answers after 2 s.  One wait on
 * the set returns many of them; the worker that takes the slow one
 * blocks on the backend with the others' events in hand (kept for the
 * next leader, since epoll will not report them again).  Every other
 * connection must be answered meanwhile, on one CPU, twice over.
 */
#define BURST_CONNS	40

START_TEST(burst_served_while_a_worker_blocks)
{
	struct client *cl[BURST_CONNS];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, round;
	char url[64];
	double t0;

	o = ORIGIN_New(load_handler, NULL);
	v = launch_one_cpu(o);
	memset(cl, 0, sizeof cl);
	/* Ten new sessions at a time: more would overflow the queue. */
	for (u = 0; u < BURST_CONNS; u += 10)
		idle_round(v, cl, u, u + 10, "/burst");
	idle_round(v, cl, 0, BURST_CONNS, "/burst");
	for (round = 0; round < 2; round++) {
		(void)snprintf(url, sizeof url, "/slow/burst%u", round);
		/* A miss: its worker waits on the backend. */
		CLIENT_Req(cl[0], "GET", url, NULL, NULL, 0);
		t0 = HX_Now();
		for (u = 1; u < BURST_CONNS; u++)
			CLIENT_Req(cl[u], "GET", "/burst", NULL, NULL, 0);
		for (u = 1; u < BURST_CONNS; u++) {
			r = CLIENT_TryResp(cl[u], 0, 1.5 - (HX_Now() - t0));
			ck_assert_msg(r != NULL, "round %u, connection %u got "
			    "no answer while a worker waited on the backend: "
			    "%s", round, u, CLIENT_Error(cl[u]));
			ck_assert_int_eq(r->status, 200);
			ck_assert_str_eq(r->body, "ok");
			HX_MsgFree(&r);
		}
		HX_Log("round %u: %u answered in %.3f s while a worker waited "
		    "on the backend", round, BURST_CONNS - 1, HX_Now() - t0);
		r = CLIENT_TryResp(cl[0], 0, HX_T_SLOW);
		ck_assert_msg(r != NULL, "the slow request: %s",
		    CLIENT_Error(cl[0]));
		ck_assert_int_eq(r->status, 200);
		ck_assert_str_eq(r->body, url);
		HX_MsgFree(&r);
	}
	ck_assert_msg(VND_Counter(v, "sess_herd") == 0, "a connection went "
	    "to the waiter within timeout_linger (30 s)");
	for (u = 0; u < BURST_CONNS; u++)
		CLIENT_Free(&cl[u]);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A pass waiting on its backend holds no thread: with five threads in
 * all, twenty passes are at the origin at once.  The origin holds each
 * until all twenty have come (or 10 s): were each pass to wait on a
 * thread, five would be there and the rest queued behind them.  Then
 * one more pass (first_byte_timeout=1.5s) that the origin answers too
 * late: the pool's clock, not a waiting thread, must end it with a 503.
 */
#define AWAIT_CONNS	20

struct await_origin {
	pthread_mutex_t		mtx;
	pthread_cond_t		cond;
	unsigned		in;		/* requests at the origin */
	unsigned		most;		/* the most at once */
};

static void
await_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	struct await_origin *ao = priv;
	struct timespec ts;

	if (strncmp(req->url, "/late", 5) == 0) {
		if (ORIGIN_Stall(oc, 6.0) == 0)
			(void)ORIGIN_Respond(oc, 200, NULL, "late", -1);
		return;
	}
	if (strncmp(req->url, "/held/", 6) != 0) {
		(void)ORIGIN_Respond(oc, 200, NULL, "ok", -1);
		return;
	}
	(void)clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	(void)pthread_mutex_lock(&ao->mtx);
	ao->in++;
	if (ao->in > ao->most)
		ao->most = ao->in;
	(void)pthread_cond_broadcast(&ao->cond);
	while (ao->in < AWAIT_CONNS &&
	    pthread_cond_timedwait(&ao->cond, &ao->mtx, &ts) == 0)
		continue;
	(void)pthread_mutex_unlock(&ao->mtx);
	(void)ORIGIN_Respond(oc, 200, NULL, req->url, -1);
}

START_TEST(passes_hold_no_thread)
{
	struct client *cl[AWAIT_CONNS + 1];
	struct await_origin ao;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char url[32];
	unsigned u;

	memset(&ao, 0, sizeof ao);
	ck_assert_int_eq(pthread_mutex_init(&ao.mtx, NULL), 0);
	ck_assert_int_eq(pthread_cond_init(&ao.cond, NULL), 0);
	o = ORIGIN_New(await_handler, &ao);
	v = VND_Launch(ORIGIN_Port(o), "thread_pools=1", "thread_pool_min=5",
	    "thread_pool_max=5", "first_byte_timeout=1.5", NULL);
	memset(cl, 0, sizeof cl);
	/* Connected and served one at a time: no burst of new sessions. */
	for (u = 0; u < AWAIT_CONNS; u++) {
		cl[u] = VND_Connect(v);
		r = CLIENT_Fetch(cl[u], "GET", "/warm", NULL, HX_T_RESP);
		ck_assert_int_eq(r->status, 200);
		HX_MsgFree(&r);
	}
	for (u = 0; u < AWAIT_CONNS; u++) {
		(void)snprintf(url, sizeof url, "/held/%u", u);
		CLIENT_Req(cl[u], "GET", url, "Cookie: c=1\r\n", NULL, 0);
	}
	for (u = 0; u < AWAIT_CONNS; u++) {
		(void)snprintf(url, sizeof url, "/held/%u", u);
		r = CLIENT_TryResp(cl[u], 0, 30);
		ck_assert_msg(r != NULL, "pass %u: %s", u, CLIENT_Error(cl[u]));
		ck_assert_msg(r->status == 200, "pass %u: status %d (%u "
		    "passes reached the origin at once)", u, r->status,
		    ao.most);
		ck_assert_str_eq(r->body, url);
		HX_MsgFree(&r);
	}
	(void)pthread_mutex_lock(&ao.mtx);
	u = ao.most;
	(void)pthread_mutex_unlock(&ao.mtx);
	HX_Log("%u passes at the origin at once, on 5 threads", u);
	ck_assert_msg(u == AWAIT_CONNS, "only %u of %d passes reached the "
	    "origin at once with 5 threads: each held a thread while it "
	    "waited", u, AWAIT_CONNS);
	ck_assert_msg(VND_Counter(v, "threads") <= 5, "more than 5 threads");

	/* Late: first_byte_timeout ends it, though no thread waits. */
	r = CLIENT_Fetch(cl[0], "GET", "/late", "Cookie: c=1\r\n", 20);
	ck_assert_int_eq(r->status, 503);
	HX_MsgFree(&r);
	/* Counted when the worker's task ends, after the answer. */
	(void)VND_WaitCounter(v, "fetch_timeout", "==", 1, HX_T_RESP);
	for (u = 0; u < AWAIT_CONNS; u++)
		CLIENT_Free(&cl[u]);
	VND_Finish(&v, &o);
	(void)pthread_cond_destroy(&ao.cond);
	(void)pthread_mutex_destroy(&ao.mtx);
}
END_TEST

/*
 * One leader (one CPU, one pool) and a pass whose backend takes 5 s
 * with a 20 s first_byte_timeout: the leader may sleep 20 s.  A second
 * pass with a 1 s timeout (set in VCL) must end at 1 s with a 503, not
 * when the first one's answer wakes the leader; and a session that
 * goes idle meanwhile must still reach the waiter after timeout_linger.
 */
static void
deadline_handler(struct origin_conn *oc, const struct hx_msg *req,
    void *priv)
{

	(void)priv;
	if (ORIGIN_Stall(oc, strcmp(req->url, "/slow") == 0 ? 5.0 :
	    strcmp(req->url, "/short") == 0 ? 3.0 : 0.0) == 0)
		(void)ORIGIN_Respond(oc, 200, NULL, req->url, -1);
}

START_TEST(await_sooner_deadline)
{
	struct client *a, *b;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char *vcl;

	o = ORIGIN_New(deadline_handler, NULL);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\n"
	    "backend o { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub vcl_recv { return (pass); }\n"
	    "sub vcl_backend_fetch {\n"
	    "	if (bereq.url == \"/short\") {\n"
	    "		set bereq.first_byte_timeout = 1s;\n"
	    "	}\n"
	    "}\n", ORIGIN_Port(o)), 0);
	v = VND_New();
	VND_VclFile(v, "deadline.vcl", vcl);
	free(vcl);
	VND_Param(v, "thread_pools", "1");
	VND_Param(v, "first_byte_timeout", "20");
	VND_Param(v, "timeout_linger", "0.1");
	start_one_cpu(v);
	a = VND_Connect(v);
	b = VND_Connect(v);
	CLIENT_Req(a, "GET", "/slow", NULL, NULL, 0);
	ORIGIN_WaitReqs(o, 1, HX_T_RESP);
	/* The leader now sleeps toward /slow's deadline, 20 s away. */
	(void)usleep(300000);
	r = CLIENT_Fetch(b, "GET", "/short", NULL, 2.5);
	ck_assert_msg(r->status == 503, "/short: %d, not ended by its 1 s "
	    "first_byte_timeout", r->status);
	HX_MsgFree(&r);
	/* b idles in the set with only /slow there: its 0.1 s ends. */
	(void)VND_WaitCounter(v, "sess_herd", ">=", 1, 2.0);
	r = CLIENT_TryResp(a, 0, HX_T_SLOW);
	ck_assert_msg(r != NULL, "/slow: %s", CLIENT_Error(a));
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	CLIENT_Free(&a);
	CLIENT_Free(&b);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
load_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("load");
	tc = tcase_create("waiter");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, idle_connections_wait_without_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("pool");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, pool_overflow_drops);
	tcase_add_test(tc, linger_set_served_while_a_worker_blocks);
	tcase_add_test(tc, burst_served_while_a_worker_blocks);
	tcase_add_test(tc, passes_hold_no_thread);
	tcase_add_test(tc, await_sooner_deadline);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(load_suite()));
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_regress.c -- regression tests for the fixes from the review of
 * the first cut (commit "cache, mgt: fixes from review of the first
 * cut", issue #3).  One test per defect, each failing on the code before
 * the fix: slow heads parked in the waiter, Connection: naming headers
 * we add, http_max_hdr counted on what the client sent, the lingering
 * close after an unread body, absolute-form targets with a query, joined
 * X-Forwarded-For, Expect kept in pipe, SIGHUP to the child, parameter
 * limits, thread_queue_limit=0, zero timeouts and a relative -P; and
 * (issue #4) counters published while a long request still runs.
 *
 * Every URL is used once per veneerd, so no answer can come from the
 * cache.
 */

#include "config.h"

#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/harness.h"

#define SLOW_CONNS	12	/* above thread_pool_max=10 */
#define QUEUE0_CONNS	15
#define DEAD_BODY	400000
#define DEAD_ROUNDS	3

/* Written to by a test to let /long-body finish. */
static int long_body_release[2] = { -1, -1 };

static void
regress_handler(struct origin_conn *oc, const struct hx_msg *req,
    void *priv)
{
	struct pollfd pfd;

	(void)priv;
	if (strcmp(req->url, "/long-body") == 0) {
		/* Half the body, then the rest when the test says so. */
		if (ORIGIN_Head(oc, 200, "Content-Length: 10\r\n") != 0 ||
		    ORIGIN_Send(oc, "01234", 5) != 0)
			return;
		pfd.fd = long_body_release[0];
		pfd.events = POLLIN;
		(void)poll(&pfd, 1, 30000);
		(void)ORIGIN_Send(oc, "56789", 5);
		return;
	}
	if (strncmp(req->url, "/stall/", 7) == 0) {
		if (ORIGIN_Stall(oc, 1.0) == 0)
			(void)ORIGIN_Respond(oc, 200, NULL, req->url, -1);
		return;
	}
	if (strcmp(req->method, "FOO") == 0) {
		/* Piped: the 100 went out before the body was read. */
		(void)ORIGIN_Respond(oc, 200, "Connection: close\r\n", "piped",
		    -1);
		return;
	}
	ORIGIN_DefaultHandler(oc, req, priv);
}

static void
get_ok(struct client *cl, const char *url, double timeout)
{
	struct hx_msg *r;

	r = CLIENT_Fetch(cl, "GET", url, NULL, timeout);
	ck_assert_msg(r->status == 200, "%s: status %d", url, r->status);
	ck_assert_str_eq(r->body, url);
	HX_MsgFree(&r);
}

/* The request the origin got for url; fails the test if none. */
static const struct hx_msg *
origin_got(struct origin *o, const char *url)
{
	const struct hx_msg *q;
	unsigned n;

	q = ORIGIN_FindReq(o, url);
	n = ORIGIN_NReq(o);
	ck_assert_msg(q != NULL, "the origin got no request for %s (%u "
	    "requests, the last for \"%s\")", url, n,
	    n > 0 ? ORIGIN_Req(o, n - 1)->url : "");
	return (q);
}

static int
mentions(const char *text, const char *word)
{
	size_t n;

	n = strlen(word);
	for (; *text != '\0'; text++)
		if (strncasecmp(text, word, n) == 0)
			return (1);
	return (0);
}

/*--------------------------------------------------------------------
 * A client sending its head in pieces is parked between them: it holds
 * no worker.  Before the fix only the first pause lingered and parked;
 * a piece arriving during that linger kept the worker until timeout_idle.
 */

START_TEST(slow_head_parked_not_holding_worker)
{
	struct client *cl[SLOW_CONNS], *probe;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "thread_pools=1", "thread_pool_min=5",
	    "thread_pool_max=10", "thread_queue_limit=20", "timeout_idle=10s",
	    NULL);
	for (u = 0; u < SLOW_CONNS; u++) {
		cl[u] = VND_Connect(v);
		(void)VND_WaitCounter(v, "sess_conn", ">=", u + 1, HX_T_RESP);
		/*
		 * Not a synchronization: the stimulus.  The piece must
		 * arrive while the worker lingers (timeout_linger, 50 ms)
		 * on the empty connection, not before it first reads.
		 */
		(void)poll(NULL, 0, 20);
		CLIENT_SendStr(cl[u], "GET /slow-head HTTP/1.1\r\nHost: x\r\n");
	}
	(void)VND_WaitCounter(v, "sess_waiting", ">=", SLOW_CONNS, 4.0);
	probe = VND_Connect(v);
	CLIENT_Req(probe, "GET", "/probe", NULL, NULL, 0);
	r = CLIENT_TryResp(probe, 0, 1.0);
	ck_assert_msg(r != NULL, "with %d slow heads pending, a request got "
	    "no answer within 1 s: %s", SLOW_CONNS, CLIENT_Error(probe));
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "/probe");
	HX_MsgFree(&r);
	CLIENT_Free(&probe);
	for (u = 0; u < SLOW_CONNS; u++)
		CLIENT_Free(&cl[u]);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Connection: may name only the client's own hop-by-hop headers: not
 * the X-Forwarded-For we add, and never Host.
 */

START_TEST(connection_cannot_remove_xff_or_host)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/conn-xff",
	    "Connection: X-Forwarded-For, close\r\n", HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	q = origin_got(o, "/conn-xff");
	ck_assert_msg(HX_Header(q, "X-Forwarded-For") != NULL &&
	    strstr(HX_Header(q, "X-Forwarded-For"), "127.0.0.1") != NULL,
	    "Connection: X-Forwarded-For removed ours: the origin got "
	    "X-Forwarded-For: %s", HX_Header(q, "X-Forwarded-For"));
	CLIENT_Free(&cl);

	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/conn-host",
	    "Host: example.org\r\nConnection: Host\r\n", HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	q = origin_got(o, "/conn-host");
	ck_assert_msg(HX_Header(q, "Host") != NULL &&
	    strcmp(HX_Header(q, "Host"), "example.org") == 0,
	    "Connection: Host: the origin got Host: %s", HX_Header(q, "Host"));
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * http_max_hdr (64) counts the client's header lines; the spare slots
 * are ours.  Before the fix 64 lines left no room for X-Forwarded-For
 * and 65 were accepted.
 */

/* "Host: e2e.test" and n - 1 more lines; caller frees. */
static char *
many_headers(unsigned n)
{
	size_t len, off;
	unsigned u;
	char *s;
	int k;

	len = 32 + n * 32;
	s = malloc(len);
	ck_assert_ptr_nonnull(s);
	off = (size_t)snprintf(s, len, "Host: e2e.test\r\n");
	for (u = 1; u < n; u++) {
		k = snprintf(s + off, len - off, "X-Filler-%03u: %u\r\n", u, u);
		ck_assert(k > 0 && (size_t)k < len - off);
		off += (size_t)k;
	}
	return (s);
}

START_TEST(max_hdr_counts_client_lines)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char *hdrs;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "http_max_hdr=64", NULL);
	hdrs = many_headers(64);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/hdr64", hdrs, HX_T_RESP);
	free(hdrs);
	ck_assert_msg(r->status == 200, "64 header lines: status %d",
	    r->status);
	HX_MsgFree(&r);
	q = origin_got(o, "/hdr64");
	ck_assert_str_eq(HX_Header(q, "X-Filler-063"), "63");
	ck_assert_msg(HX_Header(q, "X-Forwarded-For") != NULL &&
	    strcmp(HX_Header(q, "X-Forwarded-For"), "127.0.0.1") == 0,
	    "64 header lines: the origin got X-Forwarded-For: %s",
	    HX_Header(q, "X-Forwarded-For"));
	CLIENT_Free(&cl);

	hdrs = many_headers(65);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/hdr65", hdrs, HX_T_RESP);
	free(hdrs);
	ck_assert_msg(r->status == 431, "65 header lines with "
	    "http_max_hdr=64: status %d, want 431", r->status);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "client_req_431", "==", 1, HX_T_RESP);
	/* The 431 came first: a fetch for it cannot follow. */
	ck_assert_ptr_null(ORIGIN_FindReq(o, "/hdr65"));
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * A request body veneerd did not read is drained before the close, even
 * when the client asked for the close: the answer must not become an
 * RST.  The body is sent by a thread, since veneerd answers first.
 */

struct body_sender {
	int		fd;
	size_t		sent;
	int		err;		/* errno, ETIMEDOUT, or 0 */
};

static void *
send_body(void *priv)
{
	struct body_sender *bs = priv;
	char buf[16384];
	struct pollfd pfd;
	double deadline;
	ssize_t n;
	size_t k;

	/* No ck_assert here: the test thread checks bs afterwards. */
	memset(buf, 'b', sizeof buf);
	deadline = HX_Now() + HX_T_RESP;
	while (bs->sent < DEAD_BODY) {
		k = DEAD_BODY - bs->sent;
		if (k > sizeof buf)
			k = sizeof buf;
		n = send(bs->fd, buf, k, MSG_NOSIGNAL);
		if (n > 0) {
			bs->sent += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			bs->err = errno;
			break;
		}
		if (HX_Now() >= deadline) {
			bs->err = ETIMEDOUT;
			break;
		}
		pfd.fd = bs->fd;
		pfd.events = POLLOUT;
		(void)poll(&pfd, 1, HXC_PollMs(deadline));
	}
	return (NULL);
}

START_TEST(unread_body_lingers_not_reset)
{
	struct body_sender bs;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	pthread_t thr;
	enum hx_io io;
	unsigned u;

	v = VND_Launch(HX_ClosedPort(), NULL);
	for (u = 0; u < DEAD_ROUNDS; u++) {
		cl = VND_Connect(v);
		CLIENT_Printf(cl, "POST /dead-%u HTTP/1.1\r\nHost: e2e.test\r\n"
		    "Connection: close\r\nContent-Length: %d\r\n\r\n", u,
		    DEAD_BODY);
		memset(&bs, 0, sizeof bs);
		bs.fd = CLIENT_Fd(cl);
		ck_assert_int_eq(pthread_create(&thr, NULL, send_body, &bs),
		    0);
		r = CLIENT_TryResp(cl, 0, HX_T_RESP);
		ck_assert_int_eq(pthread_join(thr, NULL), 0);
		ck_assert_msg(r != NULL, "round %u: no complete 503: %s", u,
		    CLIENT_Error(cl));
		ck_assert_int_eq(r->status, 503);
		HX_MsgFree(&r);
		ck_assert_msg(bs.sent == DEAD_BODY, "round %u: sent %zu of %d "
		    "body bytes: %s", u, bs.sent, DEAD_BODY, strerror(bs.err));
		/*
		 * veneerd reads to our EOF, then closes: no reset.  (A
		 * shutdown failing on a reset socket is told by the wait.)
		 */
		(void)shutdown(CLIENT_Fd(cl), SHUT_WR);
		io = CLIENT_WaitClose(cl, HX_T_RESP);
		ck_assert_msg(io == HX_IO_EOF, "round %u: the connection ended "
		    "with %s, want EOF", u, HX_IoName(io));
		CLIENT_Free(&cl);
	}
	(void)VND_WaitCounter(v, "sess_linger", ">=", DEAD_ROUNDS, HX_T_RESP);
	VND_Free(&v);
}
END_TEST

/*--------------------------------------------------------------------
 * Absolute-form targets keep their query, with or without a path.
 */

START_TEST(absolute_form_keeps_query)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "http://example.com?q=1",
	    "Host: example.com\r\n", HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	q = origin_got(o, "/?q=1");
	ck_assert_str_eq(HX_Header(q, "Host"), "example.com");

	r = CLIENT_Fetch(cl, "GET", "http://example.com/a/b?c",
	    "Host: example.com\r\n", HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	q = origin_got(o, "/a/b?c");
	ck_assert_str_eq(HX_Header(q, "Host"), "example.com");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * X-Forwarded-For instances are joined into one list, ours last.
 */

START_TEST(xff_instances_joined)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/xff-two", "X-Forwarded-For: 1.1.1.1\r\n"
	    "X-Forwarded-For: 2.2.2.2, 3.3.3.3\r\n", HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	q = origin_got(o, "/xff-two");
	ck_assert_int_eq(HX_HeaderCount(q, "X-Forwarded-For"), 1);
	ck_assert_str_eq(HX_Header(q, "X-Forwarded-For"),
	    "1.1.1.1, 2.2.2.2, 3.3.3.3, 127.0.0.1");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Pipe leaves Expect to the backend: the client waits for the origin's
 * 100 before it sends the body.  Before the fix Expect was removed and
 * both waited for each other.
 */

START_TEST(pipe_keeps_expect)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	/* The builtin VCL pipes methods it does not know. */
	CLIENT_SendStr(cl, "FOO /pipe-expect HTTP/1.1\r\nHost: e2e.test\r\n"
	    "Content-Length: 5\r\nExpect: 100-continue\r\n\r\n");
	r = CLIENT_TryResp(cl, RESP_INTERIM, 3.0);
	ck_assert_msg(r != NULL, "no 100 Continue through the pipe: %s",
	    CLIENT_Error(cl));
	ck_assert_int_eq(r->status, 100);
	HX_MsgFree(&r);
	CLIENT_SendStr(cl, "hello");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "piped");
	HX_MsgFree(&r);
	q = origin_got(o, "/pipe-expect");
	ck_assert_str_eq(q->method, "FOO");
	ck_assert_msg(HX_HeaderHasToken(q, "Expect", "100-continue"),
	    "the origin got no Expect: 100-continue");
	ck_assert_str_eq(q->body, "hello");
	(void)VND_WaitCounter(v, "s_pipe", "==", 1, HX_T_RESP);
	CLIENT_AssertClosed(cl, HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * SIGHUP (a terminal hangup, a stray kill -HUP) does not kill the child.
 * No child death is expected: the teardown fails if it died.
 */

START_TEST(child_survives_sighup)
{
	unsigned long long start;
	struct origin *o;
	struct client *cl;
	char url[64];
	struct vnd *v;
	enum hx_io io;
	unsigned u;
	pid_t child;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	get_ok(cl, "/before-hup", HX_T_RESP);
	child = VND_ChildPid(v);
	start = HX_ProcStart(child);
	ck_assert(start != 0);
	ck_assert_int_eq(kill(child, SIGHUP), 0);
	/*
	 * Proving that something does not happen takes a while: for a
	 * second, the keep-alive connection the child holds stays open
	 * (its death would close it) and serves requests.
	 */
	for (u = 0; u < 10; u++) {
		io = CLIENT_WaitClose(cl, 0.1);
		ck_assert_msg(io == HX_IO_TIMEOUT, "after SIGHUP to the child "
		    "(pid %ld) our connection ended: %s", (long)child,
		    HX_IoName(io));
		(void)snprintf(url, sizeof url, "/after-hup/%u", u);
		get_ok(cl, url, HX_T_RESP);
	}
	CLIENT_Free(&cl);
	cl = VND_Connect(v);
	get_ok(cl, "/after-hup/new", HX_T_RESP);
	ck_assert_msg(HX_ProcStart(child) == start, "the child (pid %ld) "
	    "died of SIGHUP", (long)child);
	ck_assert_int_eq(VND_ChildPid(v), child);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Parameter values that cannot work are refused at start: exit status
 * 2, one line on stderr naming what to change.
 */

static void
param_refused(struct vnd *v, const char *param, const char *what)
{
	const char *nl;
	char *err;
	int st;

	/* Short: before the fix veneerd started and ran. */
	st = VND_Exec(v, 1, 3.0, "-p", param, NULL);
	err = VND_ExecErr(v);
	ck_assert_msg(st == 2, "-p %s: exit status %d, want 2 (stderr: %s)",
	    param, st, err);
	nl = strchr(err, '\n');
	ck_assert_msg(err[0] != '\0' && err[0] != '\n' &&
	    (nl == NULL || nl[1] == '\0'), "-p %s: want one line on stderr, "
	    "got \"%s\"", param, err);
	ck_assert_msg(mentions(err, what), "-p %s: stderr does not name %s: "
	    "%s", param, what, err);
	free(err);
}

START_TEST(param_limits_refused)
{
	struct vnd *v;

	v = VND_New();
	param_refused(v, "cli_timeout=0", "cli_timeout");
	param_refused(v, "http_max_hdr=65535", "http_max_hdr");
	param_refused(v, "http_max_hdr=20000", "workspace_client");
	VND_Free(&v);
}
END_TEST

/*--------------------------------------------------------------------
 * thread_queue_limit=0 (no queue) still lets the pool grow: dropped
 * work tells the herder a thread was wanted.  Before the fix the pool
 * stayed at thread_pool_min for good.
 */

START_TEST(queue_limit_zero_pool_grows)
{
	struct client *cl[QUEUE0_CONNS];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char url[64];
	unsigned u;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "thread_pools=1", "thread_pool_min=5",
	    "thread_pool_max=20", "thread_queue_limit=0", NULL);
	(void)VND_WaitCounter(v, "threads", "==", 5, HX_T_RESP);
	for (u = 0; u < QUEUE0_CONNS; u++) {
		cl[u] = VND_Connect(v);
		(void)snprintf(url, sizeof url, "/stall/%u", u);
		CLIENT_Req(cl[u], "GET", url, NULL, NULL, 0);
	}
	(void)VND_WaitCounter(v, "threads", ">", 5, 4.0);
	/* Dropped sessions are closed, the others answered. */
	for (u = 0; u < QUEUE0_CONNS; u++) {
		r = CLIENT_TryResp(cl[u], 0, HX_T_RESP);
		ck_assert_msg(r != NULL || CLIENT_LastIO(cl[u]) == HX_IO_EOF ||
		    CLIENT_LastIO(cl[u]) == HX_IO_RESET, "connection %u: %s",
		    u, CLIENT_Error(cl[u]));
		if (r != NULL)
			ck_assert_int_eq(r->status, 200);
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 0 means no limit for send_timeout, idle_send_timeout, connect_timeout
 * and timeout_idle.  Before the fix it meant "at once".
 */

START_TEST(zero_timeouts_mean_no_limit)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	enum hx_io io;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "send_timeout=0", "idle_send_timeout=0",
	    "connect_timeout=0", "timeout_idle=0", NULL);
	cl = VND_Connect(v);
	get_ok(cl, "/zero-1", HX_T_RESP);
	/* Idle past any short limit: the connection must stay open. */
	io = CLIENT_WaitClose(cl, 2.5);
	ck_assert_msg(io == HX_IO_TIMEOUT, "idle keep-alive connection "
	    "with timeout_idle=0 ended: %s", HX_IoName(io));
	get_ok(cl, "/zero-2", HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * A relative -P names a file in the directory veneerd started in, even
 * after daemon() changed to /: SIGTERM removes it.
 */

START_TEST(relative_pidfile_removed_by_daemon)
{
	char pidfile[4096], backend[64];
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	pid_t pid;
	int st;

	o = ORIGIN_New(regress_handler, NULL);
	v = VND_New();
	(void)snprintf(pidfile, sizeof pidfile, "%s/rel.pid", VND_Dir(v));
	(void)snprintf(backend, sizeof backend, "127.0.0.1:%d",
	    ORIGIN_Port(o));
	/* No -F: the launcher returns 0, the daemon goes on. */
	st = VND_ExecIn(v, VND_Dir(v), 0, HX_T_SLOW, "-n", VND_Workdir(v),
	    "-a", "127.0.0.1:0", "-b", backend, "-j", "none", "-P", "rel.pid",
	    NULL);
	ck_assert_msg(st == 0, "daemon launcher: exit status %d", st);
	pid = HX_WaitPidfile(pidfile, HX_T_RESP);
	ck_assert_msg(HX_ProcStart(pid) != 0, "the daemon (pid %ld in %s) "
	    "is not running", (long)pid, pidfile);
	VND_Adopt(v, pid);
	VND_WaitListen(v);
	cl = VND_Connect(v);
	get_ok(cl, "/rel-pid", HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Stop(v);
	ck_assert_msg(access(pidfile, F_OK) != 0, "%s left behind", pidfile);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Counters show a request while it is still running: a worker's counts
 * are published once a second, not only when its task ends.  Before the
 * fix client_req stayed 0 until the body was complete.
 */

START_TEST(counters_published_during_long_request)
{
	struct client *cl;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;

	ck_assert_int_eq(pipe(long_body_release), 0);
	o = ORIGIN_New(regress_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "between_bytes_timeout=60s", NULL);
	cl = VND_Connect(v);
	CLIENT_Req(cl, "GET", "/long-body", NULL, NULL, 0);
	ORIGIN_WaitReqs(o, 1, HX_T_RESP);
	/* The origin holds the rest of the body until we release it. */
	(void)VND_WaitCounter(v, "client_req", "==", 1, 5.0);
	(void)VND_WaitCounter(v, "cache_miss", "==", 1, 5.0);
	(void)VND_WaitCounter(v, "backend_conn", "==", 1, 5.0);
	ck_assert_int_eq(write(long_body_release[1], "x", 1), 1);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "0123456789");
	HX_MsgFree(&r);
	/* And the end of the request publishes the rest at once. */
	(void)VND_WaitCounter(v, "s_resp_bodybytes", "==", 10, HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
	(void)close(long_body_release[0]);
	(void)close(long_body_release[1]);
}
END_TEST

static Suite *
regress_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("regress");
	tc = tcase_create("review");
	tcase_set_timeout(tc, 15);
	tcase_add_test(tc, slow_head_parked_not_holding_worker);
	tcase_add_test(tc, connection_cannot_remove_xff_or_host);
	tcase_add_test(tc, max_hdr_counts_client_lines);
	tcase_add_test(tc, unread_body_lingers_not_reset);
	tcase_add_test(tc, absolute_form_keeps_query);
	tcase_add_test(tc, xff_instances_joined);
	tcase_add_test(tc, pipe_keeps_expect);
	tcase_add_test(tc, child_survives_sighup);
	tcase_add_test(tc, param_limits_refused);
	tcase_add_test(tc, queue_limit_zero_pool_grows);
	tcase_add_test(tc, zero_timeouts_mean_no_limit);
	tcase_add_test(tc, relative_pidfile_removed_by_daemon);
	tcase_add_test(tc, counters_published_during_long_request);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(regress_suite()));
}

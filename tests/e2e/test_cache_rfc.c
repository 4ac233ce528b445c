/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_cache_rfc.c -- the cache against RFC 9110 and 9111, end to end:
 * the client's conditionals and ranges on a hit, a range on a miss
 * answered before the body is complete, revalidation of a stale object
 * kept by default_keep (ETag or Last-Modified), stale-if-error (a 5xx
 * and an origin that is gone), must-revalidate, proxy-revalidate and
 * s-maxage that forbid serving stale, no-cache with and without a
 * validator, invalidation by unsafe methods (RFC 9111 4.4),
 * CDN-Cache-Control and Surrogate-Control, a Vary of 400 names, Age, and
 * a slow origin.  Purging by the builtin policy needs VCL: not here yet.
 *
 * The origin is scripted by the request, as in test_cache.c:
 * X-Test-Headers ("Name: value" lines joined with '|') are sent back as
 * response headers, X-Test-Status sets the status, X-Test-Len asks for a
 * body of that many HX_Pattern bytes, X-Test-Stall delays the response
 * head, X-Test-Wait: body sends X-Test-First bytes of the body (half by
 * default) and holds the rest until the test writes to the release pipe.
 * X-Test-Cond (lines as X-Test-Headers): when the request carries
 * If-None-Match or If-Modified-Since, answer 304 with these headers and
 * no body.  X-Test-Vary: N adds Vary lines naming X-H-000 .. X-H-(N-1).
 * Otherwise the body is "URL #N", N the origin's count of requests so
 * far: a body names the fetch that made it.  Sleeps only let a TTL run
 * out; everything else waits on counters or the origin, with deadlines.
 */

#include "config.h"

#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/harness.h"

/* Response headers for the origin to send, as a request header. */
#define TH(hdrs)	"X-Test-Headers: " hdrs "\r\n"
/* The origin's 304 headers when the request is conditional. */
#define TC(hdrs)	"X-Test-Cond: " hdrs "\r\n"

#define T_WAIT		HX_T_SLOW	/* counters, origin (ASan is slow) */
#define T_RELEASE	10.0	/* longest an origin handler is held */
#define STALE		1.3	/* lets a max-age=1 run out */
#define RANGE_LEN	100
#define RANGE_LM	"Mon, 01 Jan 2024 00:00:00 GMT"
#define RANGE_LM_LATER	"Mon, 01 Jan 2024 00:00:01 GMT"
#define MISS_LEN	100000
#define MISS_FIRST	20000
#define NVARY		400
#define VARY_PER_LINE	50
#define NVARIANT	5
#define VARY_ROUNDS	4

/* The origin's bookkeeping; each test runs in its own process. */
static pthread_mutex_t	org_mtx = PTHREAD_MUTEX_INITIALIZER;
static unsigned		org_serial;	/* org_mtx: handler calls */
static unsigned		org_done;	/* org_mtx: handlers returned */
static int		org_release[2] = { -1, -1 };	/* pipe */

/*--------------------------------------------------------------------
 * The origin.
 */

static unsigned
org_enter(void)
{
	unsigned n;

	(void)pthread_mutex_lock(&org_mtx);
	n = ++org_serial;
	(void)pthread_mutex_unlock(&org_mtx);
	return (n);
}

static void
org_leave(void)
{

	(void)pthread_mutex_lock(&org_mtx);
	org_done++;
	(void)pthread_mutex_unlock(&org_mtx);
}

static unsigned
org_get(const unsigned *p)
{
	unsigned n;

	(void)pthread_mutex_lock(&org_mtx);
	n = *p;
	(void)pthread_mutex_unlock(&org_mtx);
	return (n);
}

/* Wait for the test's release (never consumed: once is for all). */
static int
org_wait_release(struct origin_conn *oc)
{
	struct pollfd pfd;
	double deadline;

	deadline = HX_Now() + T_RELEASE;
	pfd.fd = org_release[0];
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 0) == 0) {
		if (HX_Now() > deadline) {
			ORIGIN_Note(oc, "not released within %.0f s",
			    T_RELEASE);
			return (-1);
		}
		/* Short steps: ORIGIN_Free or a hang-up ends the wait. */
		if (ORIGIN_Stall(oc, 0.01) != 0)
			return (-1);
	}
	return (0);
}

static int
org_send_body(struct origin_conn *oc, const char *text, uint64_t off,
    uint64_t len)
{

	if (len == 0)
		return (0);
	if (text == NULL)
		return (ORIGIN_SendPattern(oc, off, len));
	return (ORIGIN_Send(oc, text + off, (size_t)len));
}

/* Request header name's value, '|' turned into line ends, into buf. */
static size_t
org_lines(const struct hx_msg *req, const char *name, char *buf,
    size_t size)
{
	const char *s;
	size_t l = 0;

	s = HX_Header(req, name);
	for (; s != NULL && *s != '\0' && l + 3 < size; s++) {
		if (*s == '|') {
			buf[l++] = '\r';
			buf[l++] = '\n';
		} else {
			buf[l++] = *s;
		}
	}
	if (l > 0 && l + 2 < size) {
		buf[l++] = '\r';
		buf[l++] = '\n';
	}
	buf[l] = '\0';
	return (l);
}

/* Vary lines naming X-H-000 .. X-H-(n-1), VARY_PER_LINE a line. */
static size_t
org_vary(unsigned n, char *buf, size_t size)
{
	size_t l = 0;
	unsigned u;

	for (u = 0; u < n && l + 16 < size; u++) {
		l += (size_t)snprintf(buf + l, size - l, "%sX-H-%03u%s",
		    u % VARY_PER_LINE == 0 ? "Vary: " : ", ", u,
		    u % VARY_PER_LINE == VARY_PER_LINE - 1 || u == n - 1 ?
		    "\r\n" : "");
	}
	buf[l] = '\0';
	return (l);
}

static void
rfc_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	char hdrs[8192], text[300];
	const char *s, *wait, *body;
	uint64_t len, first;
	unsigned serial;
	size_t l;
	int status;

	(void)priv;
	serial = org_enter();
	s = HX_Header(req, "X-Test-Stall");
	if (s != NULL && ORIGIN_Stall(oc, atof(s)) != 0)
		goto out;
	if (HX_Header(req, "X-Test-Cond") != NULL &&
	    (HX_Header(req, "If-None-Match") != NULL ||
	    HX_Header(req, "If-Modified-Since") != NULL)) {
		(void)org_lines(req, "X-Test-Cond", hdrs, sizeof hdrs);
		(void)ORIGIN_Head(oc, 304, hdrs);
		goto out;
	}
	s = HX_Header(req, "X-Test-Status");
	status = s != NULL ? atoi(s) : 200;
	s = HX_Header(req, "X-Test-Len");
	if (s != NULL) {
		body = NULL;
		len = strtoull(s, NULL, 10);
	} else {
		(void)snprintf(text, sizeof text, "%s #%u", req->url, serial);
		body = text;
		len = strlen(text);
	}
	l = org_lines(req, "X-Test-Headers", hdrs, sizeof hdrs);
	s = HX_Header(req, "X-Test-Vary");
	if (s != NULL)
		l += org_vary((unsigned)atoi(s), hdrs + l, sizeof hdrs - l);
	(void)snprintf(hdrs + l, sizeof hdrs - l, "Content-Length: %ju\r\n",
	    (uintmax_t)len);
	if (ORIGIN_Head(oc, status, hdrs) != 0)
		goto out;
	wait = HX_Header(req, "X-Test-Wait");
	first = len;
	if (wait != NULL && !strcmp(wait, "body")) {
		s = HX_Header(req, "X-Test-First");
		first = s != NULL ? strtoull(s, NULL, 10) : len / 2;
	}
	if (org_send_body(oc, body, 0, first) != 0)
		goto out;
	if (first < len && org_wait_release(oc) == 0)
		(void)org_send_body(oc, body, first, len - first);
out:
	org_leave();
}

/* Let every held handler go on. */
static void
org_release_all(void)
{

	ck_assert_int_eq(write(org_release[1], "x", 1), 1);
}

/* Wait until n origin handlers have returned. */
static void
org_wait_done(unsigned n, double timeout)
{
	double deadline;

	deadline = HX_Now() + timeout;
	while (org_get(&org_done) < n) {
		ck_assert_msg(HX_Now() < deadline, "the origin finished %u "
		    "responses, not %u, within %.1f s", org_get(&org_done), n,
		    timeout);
		(void)poll(NULL, 0, 10);
	}
}

static struct origin *
rfc_origin(void)
{

	ck_assert_int_eq(pipe(org_release), 0);
	return (ORIGIN_New(rfc_handler, NULL));
}

/*--------------------------------------------------------------------
 * Checks.
 */

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

static struct hx_msg *
get(struct client *cl, const char *url, const char *hdrs)
{

	return (CLIENT_Fetch(cl, "GET", url, hdrs, HX_T_RESP));
}

static struct hx_msg *
post(struct client *cl, const char *url, const char *hdrs)
{

	CLIENT_Req(cl, "POST", url, hdrs, "data", -1);
	return (CLIENT_Resp(cl, 0, HX_T_RESP));
}

/* A 200 whose body is "url #serial": the origin's serial-th answer. */
static void
body_is(const struct hx_msg *r, const char *url, unsigned serial)
{
	char want[300];

	(void)snprintf(want, sizeof want, "%s #%u", url, serial);
	ck_assert_msg(r->status == 200, "%s: status %d, want 200", url,
	    r->status);
	ck_assert_msg(r->body != NULL && strcmp(r->body, want) == 0,
	    "%s: body \"%s\", want \"%s\" (the origin's answer #%u)", url,
	    r->body != NULL ? r->body : "(none)", want, serial);
}

/* A response of status st whose body is pattern bytes [off, off+len). */
static void
pattern_is(const struct hx_msg *r, const char *what, int st, uint64_t off,
    size_t len)
{

	ck_assert_msg(r->status == st, "%s: status %d, want %d", what,
	    r->status, st);
	ck_assert_msg(r->bodylen == len, "%s: %zu body bytes, want %zu",
	    what, r->bodylen, len);
	ck_assert_msg(r->body != NULL &&
	    HX_PatternCheck(r->body, off, len) == 0, "%s: the body is not "
	    "bytes %ju-%ju of what the origin sent", what, (uintmax_t)off,
	    (uintmax_t)(off + len - 1));
}

static const char *
cs_of(const struct hx_msg *r, const char *url)
{

	ck_assert_msg(HX_HeaderCount(r, "Cache-Status") == 1, "%s: %u "
	    "Cache-Status headers, want 1", url,
	    HX_HeaderCount(r, "Cache-Status"));
	return (HX_Header(r, "Cache-Status"));
}

static void
cs_is(const struct hx_msg *r, const char *url, const char *want)
{
	const char *cs;

	cs = cs_of(r, url);
	ck_assert_msg(strcmp(cs, want) == 0, "%s: Cache-Status: %s, want %s",
	    url, cs, want);
}

/* A fresh hit; the TTL left, which must be within [lo, hi]. */
static int
cs_hit(const struct hx_msg *r, const char *url, int lo, int hi)
{
	const char *cs;
	int ttl;

	cs = cs_of(r, url);
	ck_assert_msg(matches("^Veneer; hit; ttl=-?[0-9]+$", cs), "%s: "
	    "Cache-Status: %s, want a hit (Veneer; hit; ttl=N)", url, cs);
	ttl = atoi(strstr(cs, "ttl=") + 4);
	ck_assert_msg(ttl >= lo && ttl <= hi, "%s: Cache-Status: %s, want "
	    "a TTL from %d to %d", url, cs, lo, hi);
	return (ttl);
}

/* Not from the cache: a miss (stored or not, any detail). */
static void
cs_miss(const struct hx_msg *r, const char *url)
{
	const char *cs;

	cs = cs_of(r, url);
	ck_assert_msg(matches("^Veneer; fwd=miss(;|$)", cs), "%s: "
	    "Cache-Status: %s, want a miss (Veneer; fwd=miss...)", url, cs);
}

static long
age_of(const struct hx_msg *r, const char *url)
{
	const char *a;

	a = HX_Header(r, "Age");
	ck_assert_msg(a != NULL && matches("^[0-9]+$", a), "%s: Age: %s, "
	    "want an integer", url, a);
	return (atol(a));
}

/* The origin's requests must be n; what says when. */
static void
nreq_is(struct origin *o, unsigned n, const char *what)
{

	ck_assert_msg(ORIGIN_NReq(o) == n, "%s: the origin got %u requests, "
	    "want %u", what, ORIGIN_NReq(o), n);
}

/* An HTTP date, t seconds from now. */
static void
http_date(char *buf, size_t size, long t)
{
	struct tm tm;
	time_t now;

	now = time(NULL) + t;
	ck_assert_ptr_nonnull(gmtime_r(&now, &tm));
	ck_assert_uint_gt(strftime(buf, size, "%a, %d %b %Y %H:%M:%S GMT",
	    &tm), 0);
}

/* A sleep that only lets a TTL run out. */
static void
let_time_pass(double seconds)
{

	(void)poll(NULL, 0, (int)(seconds * 1000));
}

/*--------------------------------------------------------------------
 * 1. The client's conditionals on a hit (RFC 9110 13.1.1, 13.1.3,
 * 13.2.2: If-None-Match wins over If-Modified-Since).
 */

START_TEST(conditional_on_hit)
{
	static const struct {
		const char	*what;
		const char	*inm;	/* If-None-Match, or NULL */
		int		ims;	/* 1: = Last-Modified, -1: earlier */
		const char	*extra;	/* more headers, or NULL */
		int		status;
	} t[] = {
		{ "If-None-Match: \"abc\"", "\"abc\"", 0, NULL, 304 },
		{ "If-None-Match: \"other\"", "\"other\"", 0, NULL, 200 },
		{ "If-None-Match: W/\"abc\" (weak)", "W/\"abc\"", 0, NULL,
		    304 },
		{ "If-None-Match: \"x\", \"abc\"", "\"x\", \"abc\"", 0, NULL,
		    304 },
		{ "If-None-Match: *", "*", 0, NULL, 304 },
		{ "If-None-Match: abc (no quotes)", "abc", 0, NULL, 200 },
		{ "If-Modified-Since: Last-Modified", NULL, 1, NULL, 304 },
		{ "If-Modified-Since: earlier", NULL, -1, NULL, 200 },
		{ "If-Modified-Since: in 2100 (invalid)", NULL, 0,
		    "If-Modified-Since: Fri, 01 Jan 2100 00:00:00 GMT\r\n",
		    200 },
		{ "If-Modified-Since: garbage", NULL, 0,
		    "If-Modified-Since: garbage\r\n", 200 },
		{ "If-None-Match: \"other\" and If-Modified-Since: "
		    "Last-Modified", "\"other\"", 1, NULL, 200 },
		{ "If-None-Match: \"abc\" and If-Modified-Since: earlier",
		    "\"abc\"", -1, NULL, 304 },
	};
	char lm[64], early[64], hdrs[512];
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u;
	size_t l;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	http_date(lm, sizeof lm, -3600);
	http_date(early, sizeof early, -7200);

	/* The miss carries a conditional the origin must not see. */
	(void)snprintf(hdrs, sizeof hdrs, "If-None-Match: \"abc\"\r\n"
	    "If-Modified-Since: %s\r\n" TH("Cache-Control: max-age=100|"
	    "ETag: \"abc\"|Last-Modified: %s"), lm, lm);
	r = get(cl, "/cond", hdrs);
	ck_assert_msg(r->status == 304, "the miss with If-None-Match: "
	    "\"abc\" on an object with ETag \"abc\": status %d, want 304 (as "
	    "Varnish: the conditional is evaluated on delivery)", r->status);
	ck_assert_int_eq(r->bodylen, 0);
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/cond");
	ck_assert_ptr_nonnull(q);
	ck_assert_msg(HX_Header(q, "If-None-Match") == NULL, "the miss "
	    "forwarded If-None-Match: %s to the origin",
	    HX_Header(q, "If-None-Match"));
	ck_assert_msg(HX_Header(q, "If-Modified-Since") == NULL, "the miss "
	    "forwarded If-Modified-Since: %s to the origin",
	    HX_Header(q, "If-Modified-Since"));

	for (u = 0; u < sizeof t / sizeof t[0]; u++) {
		l = 0;
		if (t[u].inm != NULL)
			l += (size_t)snprintf(hdrs + l, sizeof hdrs - l,
			    "If-None-Match: %s\r\n", t[u].inm);
		if (t[u].ims != 0)
			l += (size_t)snprintf(hdrs + l, sizeof hdrs - l,
			    "If-Modified-Since: %s\r\n",
			    t[u].ims > 0 ? lm : early);
		(void)snprintf(hdrs + l, sizeof hdrs - l, "%s",
		    t[u].extra != NULL ? t[u].extra : "");
		r = get(cl, "/cond", hdrs);
		ck_assert_msg(r->status == t[u].status, "hit with %s: status "
		    "%d, want %d", t[u].what, r->status, t[u].status);
		(void)cs_hit(r, "/cond", 98, 100);
		ck_assert_msg(HX_Header(r, "ETag") != NULL &&
		    !strcmp(HX_Header(r, "ETag"), "\"abc\""), "hit with %s: "
		    "ETag: %s, want \"abc\"", t[u].what,
		    HX_Header(r, "ETag"));
		if (t[u].status == 304) {
			ck_assert_msg(r->bodylen == 0, "304 to %s: %zu body "
			    "bytes", t[u].what, r->bodylen);
			ck_assert_msg(HX_Header(r, "Last-Modified") != NULL,
			    "304 to %s: no Last-Modified", t[u].what);
		} else {
			body_is(r, "/cond", 1);
		}
		HX_MsgFree(&r);
	}
	r = CLIENT_Fetch(cl, "HEAD", "/cond", "If-None-Match: \"abc\"\r\n",
	    HX_T_RESP);
	ck_assert_msg(r->status == 304, "HEAD hit with If-None-Match: "
	    "\"abc\": status %d, want 304", r->status);
	HX_MsgFree(&r);
	/* Still in step after the 304s. */
	r = get(cl, "/cond", NULL);
	body_is(r, "/cond", 1);
	HX_MsgFree(&r);
	nreq_is(o, 1, "after the conditionals on hits");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 2. Range on a hit (RFC 9110 14).
 */

START_TEST(range_on_hit)
{
	static const struct {
		const char	*hdrs;
		int		status;
		const char	*crange;	/* Content-Range, or NULL */
		uint64_t	off;
		size_t		len;
	} t[] = {
		{ "Range: bytes=10-19\r\n", 206, "bytes 10-19/100", 10, 10 },
		{ "Range: bytes=-5\r\n", 206, "bytes 95-99/100", 95, 5 },
		{ "Range: bytes=90-\r\n", 206, "bytes 90-99/100", 90, 10 },
		{ "Range: bytes=90-1000\r\n", 206, "bytes 90-99/100", 90,
		    10 },
		{ "Range: bytes=0-0\r\n", 206, "bytes 0-0/100", 0, 1 },
		{ "Range: bytes=99-\r\n", 206, "bytes 99-99/100", 99, 1 },
		{ "Range: bytes=-200\r\n", 206, "bytes 0-99/100", 0,
		    RANGE_LEN },
		{ "Range: bytes=100-\r\n", 416, "bytes */100", 0, 0 },
		{ "Range: bytes=5-2\r\n", 200, NULL, 0, RANGE_LEN },
		{ "Range: bytes=200-300\r\n", 416, "bytes */100", 0, 0 },
		{ "Range: bytes=0-1,5-6\r\n", 200, NULL, 0, RANGE_LEN },
		{ "Range: items=0-5\r\n", 200, NULL, 0, RANGE_LEN },
		{ "Range: bytes=10-19\r\nIf-Range: \"abc\"\r\n", 206,
		    "bytes 10-19/100", 10, 10 },
		{ "Range: bytes=10-19\r\nIf-Range: \"zzz\"\r\n", 200, NULL, 0,
		    RANGE_LEN },
		{ "Range: bytes=10-19\r\nIf-Range: W/\"abc\"\r\n", 200, NULL,
		    0, RANGE_LEN },
		{ "Range: bytes=10-19\r\nIf-Range: " RANGE_LM "\r\n", 206,
		    "bytes 10-19/100", 10, 10 },
		{ "Range: bytes=10-19\r\nIf-Range: " RANGE_LM_LATER "\r\n",
		    200, NULL, 0, RANGE_LEN },
	};
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char what[128], cl_want[32], *p;
	unsigned u;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = get(cl, "/range", "X-Test-Len: 100\r\n"
	    TH("Cache-Control: max-age=100|ETag: \"abc\"|Last-Modified: "
	    RANGE_LM));
	pattern_is(r, "/range (miss)", 200, 0, RANGE_LEN);
	HX_MsgFree(&r);
	for (u = 0; u < sizeof t / sizeof t[0]; u++) {
		/* "hit with Range: ..., If-Range: ..." */
		(void)snprintf(what, sizeof what, "hit with %s", t[u].hdrs);
		while ((p = strstr(what, "\r\n")) != NULL)
			memcpy(p, p[2] != '\0' ? ", " : "\0", 2);
		r = get(cl, "/range", t[u].hdrs);
		(void)cs_hit(r, "/range", 98, 100);
		if (t[u].status == 416) {
			ck_assert_msg(r->status == 416, "%s: status %d, want "
			    "416", what, r->status);
		} else {
			pattern_is(r, what, t[u].status, t[u].off, t[u].len);
			(void)snprintf(cl_want, sizeof cl_want, "%zu",
			    t[u].len);
			ck_assert_msg(HX_Header(r, "Content-Length") != NULL &&
			    !strcmp(HX_Header(r, "Content-Length"), cl_want),
			    "%s: Content-Length: %s, want %s", what,
			    HX_Header(r, "Content-Length"), cl_want);
		}
		if (t[u].crange != NULL)
			ck_assert_msg(HX_Header(r, "Content-Range") != NULL &&
			    !strcmp(HX_Header(r, "Content-Range"),
			    t[u].crange), "%s: Content-Range: %s, want %s",
			    what, HX_Header(r, "Content-Range"), t[u].crange);
		else
			ck_assert_msg(HX_Header(r, "Content-Range") == NULL,
			    "%s: Content-Range: %s on a whole answer", what,
			    HX_Header(r, "Content-Range"));
		HX_MsgFree(&r);
	}
	r = get(cl, "/range", NULL);
	pattern_is(r, "/range (last)", 200, 0, RANGE_LEN);
	HX_MsgFree(&r);
	nreq_is(o, 1, "after the ranges on hits");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 3. Range on a miss: answered as soon as its bytes are there.
 */

START_TEST(range_on_miss_before_body_complete)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl, *c2;
	struct hx_msg *r;
	struct vnd *v;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_Req(cl, "GET", "/rmiss", "Range: bytes=0-99\r\n"
	    "X-Test-Len: 100000\r\nX-Test-Wait: body\r\n"
	    "X-Test-First: 20000\r\n" TH("Cache-Control: max-age=100"),
	    NULL, 0);
	ORIGIN_WaitReqs(o, 1, T_WAIT);
	r = CLIENT_TryResp(cl, 0, 2.0);
	ck_assert_msg(r != NULL, "Range: bytes=0-99 on a miss whose first "
	    "20000 of 100000 bytes arrived: no complete answer within 2 s "
	    "(%s); want the 206 before the rest of the body",
	    CLIENT_Error(cl));
	pattern_is(r, "Range: bytes=0-99 on a miss", 206, 0, 100);
	ck_assert_msg(HX_Header(r, "Content-Range") != NULL &&
	    !strcmp(HX_Header(r, "Content-Range"), "bytes 0-99/100000"),
	    "Content-Range: %s, want bytes 0-99/100000",
	    HX_Header(r, "Content-Range"));
	ck_assert_str_eq(HX_Header(r, "Content-Length"), "100");
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/rmiss");
	ck_assert_ptr_nonnull(q);
	ck_assert_msg(HX_Header(q, "Range") == NULL, "the miss forwarded "
	    "Range: %s to the origin", HX_Header(q, "Range"));

	org_release_all();
	org_wait_done(1, T_WAIT);
	c2 = VND_Connect(v);
	r = CLIENT_Fetch(c2, "GET", "/rmiss", NULL, HX_T_SLOW);
	pattern_is(r, "/rmiss (whole, after the fetch)", 200, 0, MISS_LEN);
	(void)cs_hit(r, "/rmiss", 98, 100);
	HX_MsgFree(&r);
	/* The first connection is still in step. */
	r = get(cl, "/rmiss", "Range: bytes=99990-\r\n");
	pattern_is(r, "Range: bytes=99990- on the hit", 206, 99990, 10);
	HX_MsgFree(&r);
	nreq_is(o, 1, "a range miss and two hits");
	CLIENT_Free(&cl);
	CLIENT_Free(&c2);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 4, 5. A stale object kept by default_keep is revalidated; a 304
 * refreshes it with the new headers (RFC 9111 4.3).
 */

static void
revalidate(const char *url, const char *validator, const char *cond,
    const char *condval)
{
	char hdrs[512];
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), "default_keep=30", "default_grace=0",
	    NULL);
	cl = VND_Connect(v);
	(void)snprintf(hdrs, sizeof hdrs,
	    TH("Cache-Control: max-age=1|%s"), validator);
	r = get(cl, url, hdrs);
	body_is(r, url, 1);
	cs_is(r, url, "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	let_time_pass(STALE);

	r = get(cl, url, TC("Cache-Control: max-age=60|X-New: 1"));
	ORIGIN_WaitReqs(o, 2, T_WAIT);
	q = ORIGIN_Req(o, 1);
	ck_assert_msg(HX_Header(q, cond) != NULL &&
	    !strcmp(HX_Header(q, cond), condval), "the refresh of the stale "
	    "%s (%s) reached the origin with %s: %s, want %s", url,
	    validator, cond, HX_Header(q, cond), condval);
	ck_assert_msg(r->status == 200, "%s revalidated (the origin said "
	    "304): status %d, want 200", url, r->status);
	body_is(r, url, 1);
	ck_assert_msg(HX_Header(r, "X-New") != NULL &&
	    !strcmp(HX_Header(r, "X-New"), "1"), "%s revalidated: X-New: "
	    "%s, want 1 (from the 304)", url, HX_Header(r, "X-New"));
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "fetch_304", "==", 1, T_WAIT);

	r = get(cl, url, NULL);
	body_is(r, url, 1);
	(void)cs_hit(r, url, 58, 60);
	ck_assert_msg(HX_Header(r, "X-New") != NULL, "%s: the hit after the "
	    "304 has no X-New", url);
	HX_MsgFree(&r);
	nreq_is(o, 2, "a miss, a revalidation, a hit");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}

START_TEST(revalidate_etag)
{

	revalidate("/r", "ETag: \"v1\"", "If-None-Match", "\"v1\"");
}
END_TEST

START_TEST(revalidate_last_modified)
{
	char lm[64], val[128];

	http_date(lm, sizeof lm, -3600);
	(void)snprintf(val, sizeof val, "Last-Modified: %s", lm);
	revalidate("/lm", val, "If-Modified-Since", lm);
}
END_TEST

/*
 * Each variant is revalidated with its own validator, and a 304 that
 * says "Content-Length: 0" does not change the stored length (RFC 9111
 * 3.2).
 */
START_TEST(revalidate_variant)
{
	static const struct {
		const char	*hdrs;
		const char	*inm;
		unsigned	serial;
	} t[] = {
		{ "X-L: b\r\n", "\"b\"", 2 },
		{ "X-L: a\r\n", "\"a\"", 1 },
	};
	const char *cond = TC("Cache-Control: max-age=60|Vary: X-L|"
	    "Content-Length: 0");
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char hdrs[256];
	unsigned u;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), "default_keep=30", "default_grace=0",
	    NULL);
	cl = VND_Connect(v);
	r = get(cl, "/rv", "X-L: a\r\n"
	    TH("Cache-Control: max-age=1|Vary: X-L|ETag: \"a\""));
	body_is(r, "/rv", 1);
	HX_MsgFree(&r);
	r = get(cl, "/rv", "X-L: b\r\n"
	    TH("Cache-Control: max-age=1|Vary: X-L|ETag: \"b\""));
	body_is(r, "/rv", 2);
	HX_MsgFree(&r);
	let_time_pass(STALE);
	for (u = 0; u < 2; u++) {
		(void)snprintf(hdrs, sizeof hdrs, "%s%s", t[u].hdrs, cond);
		r = get(cl, "/rv", hdrs);
		nreq_is(o, 3 + u, "a stale variant revalidated");
		q = ORIGIN_Req(o, 2 + u);
		ck_assert_msg(HX_Header(q, "If-None-Match") != NULL &&
		    !strcmp(HX_Header(q, "If-None-Match"), t[u].inm), "the "
		    "variant %.6s was revalidated with If-None-Match: %s, "
		    "want %s", t[u].hdrs, HX_Header(q, "If-None-Match"),
		    t[u].inm);
		body_is(r, "/rv", t[u].serial);
		ck_assert_str_eq(HX_Header(r, "Content-Length"), "6");
		HX_MsgFree(&r);
	}
	for (u = 0; u < 2; u++) {
		r = get(cl, "/rv", t[u].hdrs);
		body_is(r, "/rv", t[u].serial);
		(void)cs_hit(r, "/rv", 58, 60);
		ck_assert_str_eq(HX_Header(r, "Content-Length"), "6");
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "fetch_304", "==", 2, T_WAIT);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 6. stale-if-error (RFC 5861 4): on a 5xx and with the origin gone;
 * without it the error reaches the client.
 */

START_TEST(stale_if_error)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	const char *cs;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", NULL);
	cl = VND_Connect(v);
	r = get(cl, "/sie", TH("Cache-Control: max-age=1, "
	    "stale-if-error=30"));
	body_is(r, "/sie", 1);
	HX_MsgFree(&r);
	r = get(cl, "/nosie", TH("Cache-Control: max-age=1"));
	body_is(r, "/nosie", 2);
	HX_MsgFree(&r);
	let_time_pass(STALE);

	r = get(cl, "/sie", "X-Test-Status: 503\r\n");
	nreq_is(o, 3, "/sie refetched");
	ck_assert_msg(r->status == 200, "/sie (stale-if-error=30), the "
	    "origin answered 503: status %d, want 200 (the stale copy)",
	    r->status);
	body_is(r, "/sie", 1);
	cs = cs_of(r, "/sie");
	ck_assert_msg(strstr(cs, "fwd=stale") != NULL, "/sie served stale "
	    "on error: Cache-Status: %s, want fwd=stale", cs);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "cache_stale_if_error", "==", 1, T_WAIT);

	r = get(cl, "/nosie", "X-Test-Status: 503\r\n");
	nreq_is(o, 4, "/nosie refetched");
	ck_assert_msg(r->status == 503, "/nosie (no stale-if-error, "
	    "default_grace=0), the origin answered 503: status %d, want 503",
	    r->status);
	HX_MsgFree(&r);

	/* The origin is gone: connections are refused. */
	ck_assert_msg(ORIGIN_NErr(o) == 0, "the origin saw bad requests");
	ORIGIN_Free(&o);
	r = get(cl, "/sie", NULL);
	ck_assert_msg(r->status == 200, "/sie (stale-if-error=30), the "
	    "origin down: status %d, want 200 (the stale copy)", r->status);
	body_is(r, "/sie", 1);
	cs = cs_of(r, "/sie");
	ck_assert_msg(strstr(cs, "fwd=stale") != NULL, "/sie served stale, "
	    "the origin down: Cache-Status: %s, want fwd=stale", cs);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "cache_stale_if_error", "==", 2, T_WAIT);
	r = get(cl, "/nosie", NULL);
	ck_assert_msg(r->status == 503, "/nosie, the origin down: status "
	    "%d, want 503", r->status);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Free(&v);
}
END_TEST

/*--------------------------------------------------------------------
 * 7. must-revalidate, proxy-revalidate and s-maxage forbid serving
 * stale (RFC 9111 5.2.2.2, 5.2.2.8, 5.2.2.10), grace or not.
 */

START_TEST(revalidate_directives_forbid_stale)
{
	static const struct {
		const char	*url;
		const char	*hdrs;
	} t[] = {
		{ "/mr", TH("Cache-Control: max-age=1, must-revalidate, "
		    "stale-while-revalidate=10") },
		{ "/pr", TH("Cache-Control: max-age=1, proxy-revalidate, "
		    "stale-while-revalidate=10") },
		{ "/sm", TH("Cache-Control: s-maxage=1, "
		    "stale-while-revalidate=10") },
	};
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char hdrs[256];
	const char *cs;
	unsigned u;
	double t0;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=10", NULL);
	cl = VND_Connect(v);
	for (u = 0; u < 3; u++) {
		r = get(cl, t[u].url, t[u].hdrs);
		body_is(r, t[u].url, u + 1);
		cs_is(r, t[u].url, "Veneer; fwd=miss; stored");
		HX_MsgFree(&r);
	}
	let_time_pass(STALE);
	for (u = 0; u < 3; u++) {
		(void)snprintf(hdrs, sizeof hdrs, "X-Test-Stall: 0.3\r\n%s",
		    t[u].hdrs);
		t0 = HX_Now();
		r = get(cl, t[u].url, hdrs);
		cs = cs_of(r, t[u].url);
		ck_assert_msg(strstr(cs, "detail=grace") == NULL &&
		    strstr(cs, "hit") == NULL, "%s (%s) 0.3 s stale, "
		    "default_grace=10: Cache-Status: %s, want a miss (stale "
		    "must not be served)", t[u].url, t[u].hdrs, cs);
		cs_miss(r, t[u].url);
		body_is(r, t[u].url, 4 + u);
		ck_assert_msg(HX_Now() - t0 >= 0.25, "%s: answered in %.2f s "
		    "though the origin takes 0.3 s", t[u].url, HX_Now() - t0);
		HX_MsgFree(&r);
	}
	nreq_is(o, 6, "three stale objects refetched");
	ck_assert_int_eq(VND_Counter(v, "cache_hit_grace"), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 8. no-cache (RFC 9111 5.2.2.4): revalidated on every use when it has
 * a validator, hit-for-miss when it has none.
 */

START_TEST(no_cache_revalidates)
{
	const char *h = TH("Cache-Control: no-cache|ETag: \"n1\"");
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = get(cl, "/nc", h);
	body_is(r, "/nc", 1);
	cs_is(r, "/nc", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	for (u = 2; u <= 3; u++) {
		r = get(cl, "/nc", TC("Cache-Control: no-cache|ETag: \"n1\""));
		nreq_is(o, u, "no-cache with ETag, used again");
		q = ORIGIN_Req(o, u - 1);
		ck_assert_msg(HX_Header(q, "If-None-Match") != NULL &&
		    !strcmp(HX_Header(q, "If-None-Match"), "\"n1\""), "/nc "
		    "(no-cache, ETag \"n1\") use %u: the origin got "
		    "If-None-Match: %s, want \"n1\"", u,
		    HX_Header(q, "If-None-Match"));
		body_is(r, "/nc", 1);
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "fetch_304", "==", 2, T_WAIT);

	r = get(cl, "/ncv", TH("Cache-Control: no-cache"));
	body_is(r, "/ncv", 4);
	cs_is(r, "/ncv", "Veneer; fwd=miss");
	HX_MsgFree(&r);
	for (u = 5; u <= 6; u++) {
		r = get(cl, "/ncv", TH("Cache-Control: no-cache"));
		body_is(r, "/ncv", u);
		cs_is(r, "/ncv", "Veneer; fwd=miss; detail=hit-for-miss");
		q = ORIGIN_Req(o, u - 1);
		ck_assert_msg(HX_Header(q, "If-None-Match") == NULL &&
		    HX_Header(q, "If-Modified-Since") == NULL, "/ncv "
		    "(no-cache, no validator): the origin got a conditional "
		    "request");
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "cache_hitmiss", "==", 2, T_WAIT);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 9. RFC 9111 4.4: a successful unsafe request invalidates its URI and
 * the Location and Content-Location on the same host.
 */

static void
inv_state(struct client *cl, const char *url, int hit, unsigned serial)
{
	struct hx_msg *r;

	r = get(cl, url, TH("Cache-Control: max-age=100"));
	body_is(r, url, serial);
	if (hit)
		(void)cs_hit(r, url, 90, 100);
	else
		cs_is(r, url, "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
}

START_TEST(unsafe_method_invalidates)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	inv_state(cl, "/inv", 0, 1);
	inv_state(cl, "/other", 0, 2);
	inv_state(cl, "/third", 0, 3);
	inv_state(cl, "/inv", 1, 1);

	r = post(cl, "/inv", NULL);
	body_is(r, "/inv", 4);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "n_obj_invalidated", "==", 1, T_WAIT);
	inv_state(cl, "/inv", 0, 5);
	inv_state(cl, "/other", 1, 2);

	r = post(cl, "/inv", "X-Test-Status: 201\r\n" TH("Location: /other|"
	    "Content-Location: http://e2e.test/third"));
	ck_assert_int_eq(r->status, 201);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "n_obj_invalidated", "==", 4, T_WAIT);
	inv_state(cl, "/inv", 0, 7);
	inv_state(cl, "/other", 0, 8);
	inv_state(cl, "/third", 0, 9);

	/* A failed POST changes nothing. */
	r = post(cl, "/inv", "X-Test-Status: 500\r\n" TH("Location: /other"));
	ck_assert_int_eq(r->status, 500);
	HX_MsgFree(&r);
	inv_state(cl, "/inv", 1, 7);
	inv_state(cl, "/other", 1, 8);

	/* Locations on another host are not ours to invalidate. */
	r = post(cl, "/elsewhere", "X-Test-Status: 201\r\n"
	    TH("Location: http://other.test/other|"
	    "Content-Location: //other.test/third"));
	ck_assert_int_eq(r->status, 201);
	HX_MsgFree(&r);
	inv_state(cl, "/other", 1, 8);
	inv_state(cl, "/third", 1, 9);
	ck_assert_int_eq(VND_Counter(v, "n_obj_invalidated"), 4);
	nreq_is(o, 11, "after the invalidations");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 10. CDN-Cache-Control (RFC 9213) and Surrogate-Control decide over
 * Cache-Control.
 */

START_TEST(targeted_cache_control)
{
	static const struct {
		const char	*url;
		const char	*hdrs;
		int		cached;
	} t[] = {
		{ "/cdn-private", TH("CDN-Cache-Control: max-age=60|"
		    "Cache-Control: private"), 1 },
		{ "/sc-no-store", TH("Surrogate-Control: no-store|"
		    "Cache-Control: max-age=60"), 0 },
		{ "/sc-max-age", TH("Surrogate-Control: max-age=60|"
		    "Cache-Control: no-store"), 1 },
	};
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, n = 0;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (u = 0; u < sizeof t / sizeof t[0]; u++) {
		r = get(cl, t[u].url, t[u].hdrs);
		body_is(r, t[u].url, ++n);
		cs_is(r, t[u].url, t[u].cached ? "Veneer; fwd=miss; stored" :
		    "Veneer; fwd=miss");
		HX_MsgFree(&r);
		r = get(cl, t[u].url, t[u].hdrs);
		if (t[u].cached) {
			body_is(r, t[u].url, n);
			(void)cs_hit(r, t[u].url, 58, 60);
		} else {
			body_is(r, t[u].url, ++n);
			cs_is(r, t[u].url,
			    "Veneer; fwd=miss; detail=hit-for-miss");
		}
		nreq_is(o, n, t[u].url);
		HX_MsgFree(&r);
	}
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 11. A Vary of 400 names over 8 lines.
 */

START_TEST(vary_400_names)
{
	static const char * const variant[NVARIANT] = {
		"X-H-000: a\r\n", "X-H-123: b\r\n", "X-H-399: c\r\n",
		"X-H-123: d\r\n", "X-H-250: a\r\n",
	};
	char hdrs[256];
	unsigned serial[NVARIANT], u, k, n = 0;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (k = 0; k < VARY_ROUNDS; k++) {
		for (u = 0; u < NVARIANT; u++) {
			(void)snprintf(hdrs, sizeof hdrs, "%sX-Test-Vary: "
			    "%d\r\n" TH("Cache-Control: max-age=100"),
			    variant[u], NVARY);
			r = get(cl, "/v400", hdrs);
			if (k == 0) {
				serial[u] = ++n;
				cs_is(r, "/v400", "Veneer; fwd=miss; stored");
			} else {
				(void)cs_hit(r, "/v400", 90, 100);
			}
			ck_assert_msg(r->status == 200, "variant %.7s "
			    "round %u: status %d", variant[u], k, r->status);
			body_is(r, "/v400", serial[u]);
			ck_assert_msg(HX_HeaderCount(r, "Vary") > 0, "no Vary "
			    "delivered");
			HX_MsgFree(&r);
			ck_assert_msg(ORIGIN_NReq(o) == n, "variant %.10s "
			    "round %u: the origin got %u requests, want %u",
			    variant[u], k, ORIGIN_NReq(o), n);
		}
	}
	r = get(cl, "/after-vary", NULL);
	body_is(r, "/after-vary", NVARIANT + 1);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 13. Age from the origin counts against max-age (RFC 9111 4.2.3).
 */

START_TEST(age_from_origin)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = get(cl, "/age", TH("Cache-Control: max-age=200|Age: 100"));
	body_is(r, "/age", 1);
	ck_assert_msg(age_of(r, "/age") >= 100, "miss: Age %ld, the origin "
	    "sent Age: 100", age_of(r, "/age"));
	HX_MsgFree(&r);
	r = get(cl, "/age", NULL);
	body_is(r, "/age", 1);
	ck_assert_msg(age_of(r, "/age") >= 100 && age_of(r, "/age") <= 102,
	    "hit: Age %ld, want 100 to 102", age_of(r, "/age"));
	(void)cs_hit(r, "/age", 98, 100);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 14. The origin's slowness does not shorten the TTL.
 */

START_TEST(slow_origin_full_ttl)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = rfc_origin();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = get(cl, "/slow", "X-Test-Stall: 1.5\r\n"
	    TH("Cache-Control: max-age=3"));
	body_is(r, "/slow", 1);
	cs_is(r, "/slow", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	r = get(cl, "/slow", NULL);
	body_is(r, "/slow", 1);
	(void)cs_hit(r, "/slow", 2, 3);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
cache_rfc_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("cache_rfc");
	tc = tcase_create("cache_rfc");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, conditional_on_hit);
	tcase_add_test(tc, range_on_hit);
	tcase_add_test(tc, range_on_miss_before_body_complete);
	tcase_add_test(tc, revalidate_etag);
	tcase_add_test(tc, revalidate_last_modified);
	tcase_add_test(tc, revalidate_variant);
	tcase_add_test(tc, stale_if_error);
	tcase_add_test(tc, revalidate_directives_forbid_stale);
	tcase_add_test(tc, no_cache_revalidates);
	tcase_add_test(tc, unsafe_method_invalidates);
	tcase_add_test(tc, targeted_cache_control);
	tcase_add_test(tc, vary_400_names);
	tcase_add_test(tc, age_from_origin);
	tcase_add_test(tc, slow_origin_full_ttl);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(cache_rfc_suite()));
}

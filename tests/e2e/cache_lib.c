/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cache_lib.c -- the scripted origin and the response checks that the
 * cache's end-to-end tests share; cache_lib.h says how the origin is
 * scripted.
 */

#include "config.h"

#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "e2e/cache_lib.h"

#define CO_T_RELEASE	10.0	/* longest an origin handler is held */
#define CO_VARY_PER_LINE	50	/* names a Vary line of X-Test-Vary */

/* The origin's bookkeeping; each test runs in its own process. */
static pthread_mutex_t	co_mtx = PTHREAD_MUTEX_INITIALIZER;
static unsigned		co_serial;	/* co_mtx: handler calls */
static unsigned		co_inflight;	/* co_mtx */
static unsigned		co_done;	/* co_mtx: handlers returned */
static int		co_release[2] = { -1, -1 };	/* pipe */

/*--------------------------------------------------------------------
 * The origin.
 */

static unsigned
co_enter(void)
{
	unsigned n;

	(void)pthread_mutex_lock(&co_mtx);
	n = ++co_serial;
	co_inflight++;
	(void)pthread_mutex_unlock(&co_mtx);
	return (n);
}

static void
co_leave(void)
{

	(void)pthread_mutex_lock(&co_mtx);
	co_inflight--;
	co_done++;
	(void)pthread_mutex_unlock(&co_mtx);
}

static unsigned
co_get(const unsigned *p)
{
	unsigned n;

	(void)pthread_mutex_lock(&co_mtx);
	n = *p;
	(void)pthread_mutex_unlock(&co_mtx);
	return (n);
}

/* Wait for the test's release (never consumed: once is for all). */
static int
co_wait_release(struct origin_conn *oc)
{
	struct pollfd pfd;
	double deadline;

	deadline = HX_Now() + CO_T_RELEASE;
	pfd.fd = co_release[0];
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 0) == 0) {
		if (HX_Now() > deadline) {
			ORIGIN_Note(oc, "not released within %.0f s",
			    CO_T_RELEASE);
			return (-1);
		}
		/* Short steps: ORIGIN_Free or a hang-up ends the wait. */
		if (ORIGIN_Stall(oc, 0.01) != 0)
			return (-1);
	}
	return (0);
}

static int
co_send_body(struct origin_conn *oc, const char *text, uint64_t off,
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
co_lines(const struct hx_msg *req, const char *name, char *buf,
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

/* Vary lines naming X-H-000 .. X-H-(n-1), CO_VARY_PER_LINE a line. */
static size_t
co_vary(unsigned n, char *buf, size_t size)
{
	size_t l = 0;
	unsigned u;

	for (u = 0; u < n && l + 16 < size; u++) {
		l += (size_t)snprintf(buf + l, size - l, "%sX-H-%03u%s",
		    u % CO_VARY_PER_LINE == 0 ? "Vary: " : ", ", u,
		    u % CO_VARY_PER_LINE == CO_VARY_PER_LINE - 1 ||
		    u == n - 1 ? "\r\n" : "");
	}
	buf[l] = '\0';
	return (l);
}

static void
co_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	char hdrs[8192], text[300];
	const char *s, *wait, *body;
	uint64_t len, first;
	unsigned serial;
	size_t l;
	int status;

	(void)priv;
	serial = co_enter();
	s = HX_Header(req, "X-Test-Stall");
	if (s != NULL && ORIGIN_Stall(oc, atof(s)) != 0)
		goto out;
	if (HX_Header(req, "X-Test-Cond") != NULL &&
	    (HX_Header(req, "If-None-Match") != NULL ||
	    HX_Header(req, "If-Modified-Since") != NULL)) {
		(void)co_lines(req, "X-Test-Cond", hdrs, sizeof hdrs);
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
	l = co_lines(req, "X-Test-Headers", hdrs, sizeof hdrs);
	s = HX_Header(req, "X-Test-Vary");
	if (s != NULL)
		l += co_vary((unsigned)atoi(s), hdrs + l, sizeof hdrs - l);
	(void)snprintf(hdrs + l, sizeof hdrs - l, "Content-Length: %ju\r\n",
	    (uintmax_t)len);
	wait = HX_Header(req, "X-Test-Wait");
	if (wait != NULL && !strcmp(wait, "head") &&
	    co_wait_release(oc) != 0)
		goto out;
	if (ORIGIN_Head(oc, status, hdrs) != 0 ||
	    strcmp(req->method, "HEAD") == 0)
		goto out;
	first = len;
	if (wait != NULL && !strcmp(wait, "body")) {
		s = HX_Header(req, "X-Test-First");
		first = s != NULL ? strtoull(s, NULL, 10) : len / 2;
	}
	if (co_send_body(oc, body, 0, first) != 0)
		goto out;
	if (first < len && co_wait_release(oc) == 0)
		(void)co_send_body(oc, body, first, len - first);
out:
	co_leave();
}

struct origin *
CO_New(void)
{

	ck_assert_int_eq(pipe(co_release), 0);
	return (ORIGIN_New(co_handler, NULL));
}

void
CO_ReleaseAll(void)
{

	ck_assert_int_eq(write(co_release[1], "x", 1), 1);
}

void
CO_WaitInflight(unsigned n, double timeout)
{
	double deadline;

	deadline = HX_Now() + timeout;
	while (co_get(&co_inflight) < n) {
		ck_assert_msg(HX_Now() < deadline, "only %u of %u requests "
		    "reached the origin at the same time within %.1f s",
		    co_get(&co_inflight), n, timeout);
		(void)poll(NULL, 0, 10);
	}
}

void
CO_WaitDone(unsigned n, double timeout)
{
	double deadline;

	deadline = HX_Now() + timeout;
	while (co_get(&co_done) < n) {
		ck_assert_msg(HX_Now() < deadline, "the origin finished %u "
		    "responses, not %u, within %.1f s", co_get(&co_done), n,
		    timeout);
		(void)poll(NULL, 0, 10);
	}
}

/*--------------------------------------------------------------------
 * Checks.
 */

int
CO_Matches(const char *re, const char *s)
{
	regex_t rx;
	int r;

	ck_assert_msg(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) == 0,
	    "bad regex %s", re);
	r = s != NULL && regexec(&rx, s, 0, NULL, 0) == 0;
	regfree(&rx);
	return (r);
}

struct hx_msg *
CO_Fetch(struct client *cl, const char *url, const char *hdrs)
{

	return (CLIENT_Fetch(cl, "GET", url, hdrs, HX_T_RESP));
}

void
CO_BodyIs(const struct hx_msg *r, const char *url, unsigned serial)
{
	char want[300];

	(void)snprintf(want, sizeof want, "%s #%u", url, serial);
	ck_assert_msg(r->status == 200, "%s: status %d, want 200", url,
	    r->status);
	ck_assert_msg(r->body != NULL && strcmp(r->body, want) == 0,
	    "%s: body \"%s\", want \"%s\" (the origin's answer #%u)", url,
	    r->body != NULL ? r->body : "(none)", want, serial);
}

void
CO_PatternIs(const struct hx_msg *r, const char *what, int st,
    uint64_t off, size_t len)
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

const char *
CO_CsOf(const struct hx_msg *r, const char *url)
{

	ck_assert_msg(HX_HeaderCount(r, "Cache-Status") == 1, "%s: %u "
	    "Cache-Status headers, want 1", url,
	    HX_HeaderCount(r, "Cache-Status"));
	return (HX_Header(r, "Cache-Status"));
}

void
CO_CsIs(const struct hx_msg *r, const char *url, const char *want)
{
	const char *cs;

	cs = CO_CsOf(r, url);
	ck_assert_msg(strcmp(cs, want) == 0, "%s: Cache-Status: %s, want %s",
	    url, cs, want);
}

int
CO_CsHit(const struct hx_msg *r, const char *url, int lo, int hi)
{
	const char *cs;
	int ttl;

	cs = CO_CsOf(r, url);
	ck_assert_msg(CO_Matches("^Veneer; hit; ttl=-?[0-9]+$", cs), "%s: "
	    "Cache-Status: %s, want a hit (Veneer; hit; ttl=N)", url, cs);
	ttl = atoi(strstr(cs, "ttl=") + 4);
	ck_assert_msg(ttl >= lo && ttl <= hi, "%s: Cache-Status: %s, want "
	    "a TTL from %d to %d", url, cs, lo, hi);
	return (ttl);
}

void
CO_CsMiss(const struct hx_msg *r, const char *url)
{
	const char *cs;

	cs = CO_CsOf(r, url);
	ck_assert_msg(CO_Matches("^Veneer; fwd=miss(;|$)", cs), "%s: "
	    "Cache-Status: %s, want a miss (Veneer; fwd=miss...)", url, cs);
}

long
CO_AgeOf(const struct hx_msg *r, const char *url)
{
	const char *a;

	a = HX_Header(r, "Age");
	ck_assert_msg(a != NULL && CO_Matches("^[0-9]+$", a), "%s: Age: %s, "
	    "want an integer", url, a);
	return (atol(a));
}

void
CO_HttpDate(char *buf, size_t size, long t)
{
	struct tm tm;
	time_t now;

	now = time(NULL) + t;
	ck_assert_ptr_nonnull(gmtime_r(&now, &tm));
	ck_assert_uint_gt(strftime(buf, size, "%a, %d %b %Y %H:%M:%S GMT",
	    &tm), 0);
}

void
CO_LetTimePass(double seconds)
{

	(void)poll(NULL, 0, (int)(seconds * 1000));
}

void
CO_VaryWalk(struct origin *o, struct client *cl, const char *url,
    const char *resp_hdrs, const struct co_vary_step *t, unsigned nt)
{
	char hdrs[1024];
	struct hx_msg *r;
	unsigned u, n = 0;

	for (u = 0; u < nt; u++) {
		(void)snprintf(hdrs, sizeof hdrs, "%s%s", t[u].hdrs,
		    resp_hdrs);
		r = CO_Fetch(cl, url, hdrs);
		CO_BodyIs(r, url, t[u].serial);
		if (t[u].serial > n) {
			n = t[u].serial;
			CO_CsIs(r, url, "Veneer; fwd=miss; stored");
		} else {
			(void)CO_CsHit(r, url, 99, 100);
		}
		ck_assert_msg(ORIGIN_NReq(o) == n, "%s, request %u (%s): the "
		    "origin got %u requests, want %u", url, u, t[u].hdrs,
		    ORIGIN_NReq(o), n);
		HX_MsgFree(&r);
	}
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_cache.c -- issue #5, end to end: the cache.  Misses and hits
 * (X-Varnish, Age, Cache-Status, counters), every reason a response is
 * not cached and the hit-for-miss marker it leaves, TTLs from each
 * header and from when the response arrived, requests the builtin
 * policy passes, Vary, coalescing of concurrent misses (streaming to the
 * waiters, or sending them all to the origin when the response is
 * uncacheable), grace, HEAD misses, LRU nuking in a small malloc store,
 * objects bigger than the store, the waiting list's limits, Cache-Status
 * off, and expiry.
 *
 * The origin and the checks are cache_lib.c's: cache_lib.h says how a
 * request scripts the origin.  Only sleeps that let a TTL run out;
 * everything else waits on counters or on the origin, with deadlines.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "e2e/cache_lib.h"
#include "lib/harness.h"

#define NCOALESCE	100
#define NHFM		5
#define NCU		10	/* waiters on an uncacheable response */
#define NWL		5
#define LRU_STORE	(1024 * 1024)
#define LRU_NOBJ	100
#define LRU_OBJLEN	(100 * 1024)
#define BIG_LEN		(3 * 1024 * 1024)
#define STREAM_LEN	20000

/*--------------------------------------------------------------------
 * Checks.
 */

/* X-Varnish: "a" (n == 1) or "a b" (n == 2); b returned. */
static unsigned
xvarnish(const struct hx_msg *r, const char *url, int n, unsigned *a)
{
	const char *x;
	unsigned ida = 0, idb = 0;

	x = HX_Header(r, "X-Varnish");
	ck_assert_msg(x != NULL && CO_Matches(n == 1 ? "^[0-9]+$" :
	    "^[0-9]+ [0-9]+$", x) && sscanf(x, "%u %u", &ida, &idb) == n,
	    "%s: X-Varnish: %s, want %s", url, x, n == 1 ? "one id (a miss "
	    "or pass)" : "two ids (a hit)");
	if (a != NULL)
		*a = ida;
	return (idb);
}

/* veneerd with -s STORE. */
static struct vnd *
launch_store(int port, const char *store)
{
	struct vnd *v;

	v = VND_New();
	VND_Backend(v, port);
	VND_Arg(v, "-s");
	VND_Arg(v, store);
	VND_Start(v);
	return (v);
}

/*
 * A store counter ("SMA.s0.g_bytes"): VND_Counter reads only MAIN, so
 * ask veneerstat, bounded by timeout(1).
 */
static uint64_t
store_counter(struct vnd *v, const char *name)
{
	char cmd[8400], line[512], first[512];
	const char *b;
	uintmax_t val;
	size_t l;
	FILE *f;
	int found = 0, st;

	b = getenv("VENEER_BUILDDIR");
	ck_assert_msg(b != NULL && *b != '\0', "VENEER_BUILDDIR is not set "
	    "(run through make check)");
	(void)snprintf(cmd, sizeof cmd, "timeout 10 '%s/veneerstat' -1 "
	    "-t 5 -n '%s' -f '%s' 2>&1", b, VND_Workdir(v), name);
	f = popen(cmd, "r");
	ck_assert_msg(f != NULL, "popen %s: %s", cmd, strerror(errno));
	l = strlen(name);
	first[0] = '\0';
	while (fgets(line, sizeof line, f) != NULL) {
		if (first[0] == '\0')
			(void)snprintf(first, sizeof first, "%s", line);
		if (!found && strncmp(line, name, l) == 0 && line[l] == ' ' &&
		    sscanf(line + l, "%ju", &val) == 1)
			found = 1;
	}
	st = pclose(f);
	ck_assert_msg(found, "veneerstat -1 -f %s printed no value (status "
	    "%d): %s", name, st, first);
	return ((uint64_t)val);
}

/* The store counter once below limit, or as it is after CO_T_WAIT. */
static uint64_t
store_counter_below(struct vnd *v, const char *name, uint64_t limit)
{
	double deadline = HX_Now() + CO_T_WAIT;
	uint64_t g;

	while ((g = store_counter(v, name)) >= limit && HX_Now() < deadline)
		CO_LetTimePass(0.1);
	return (g);
}

/* Does veneerlog -d -g raw -i tag print a line containing what? */
static int
log_has(struct vnd *v, const char *tag, const char *what)
{
	char cmd[8400], line[1024];
	const char *b;
	FILE *f;
	int found = 0;

	b = getenv("VENEER_BUILDDIR");
	ck_assert_msg(b != NULL && *b != '\0', "VENEER_BUILDDIR is not set "
	    "(run through make check)");
	(void)snprintf(cmd, sizeof cmd, "timeout 10 '%s/veneerlog' -d -g raw "
	    "-t 5 -n '%s' -i '%s' 2>&1", b, VND_Workdir(v), tag);
	f = popen(cmd, "r");
	ck_assert_msg(f != NULL, "popen %s: %s", cmd, strerror(errno));
	while (fgets(line, sizeof line, f) != NULL)
		if (strstr(line, what) != NULL)
			found = 1;
	(void)pclose(f);
	return (found);
}

/*
 * Read from cl's socket (bypassing its parser) until buf holds want
 * bytes or the deadline passes; the bytes held.
 */
static size_t
raw_read(struct client *cl, char *buf, size_t have, size_t want,
    double timeout)
{
	struct pollfd pfd;
	double deadline;
	ssize_t n;

	deadline = HX_Now() + timeout;
	pfd.fd = CLIENT_Fd(cl);
	pfd.events = POLLIN;
	while (have < want && HX_Now() < deadline) {
		if (poll(&pfd, 1, HXC_PollMs(deadline)) <= 0)
			continue;
		n = read(pfd.fd, buf + have, want - have);
		if (n == 0)
			break;
		if (n < 0) {
			ck_assert_msg(errno == EAGAIN || errno == EINTR,
			    "read: %s", strerror(errno));
			continue;
		}
		have += (size_t)n;
	}
	return (have);
}

/* The response head at the start of buf (len bytes); its length. */
static size_t
raw_head(const char *buf, size_t len, struct hx_msg **mp)
{
	struct hx_msg *m;
	const char *e;
	char why[160];

	e = memmem(buf, len, "\r\n\r\n", 4);
	ck_assert_msg(e != NULL, "no complete response head in %zu bytes",
	    len);
	m = calloc(1, sizeof *m);
	ck_assert_ptr_nonnull(m);
	m->magic = HX_MSG_MAGIC;
	ck_assert_msg(HXM_Parse(m, buf, (size_t)(e + 4 - buf), 0, why,
	    sizeof why) == 0, "bad response head: %s", why);
	*mp = m;
	return ((size_t)(e + 4 - buf));
}

/*--------------------------------------------------------------------
 * 1. A miss, then hits.
 */

START_TEST(miss_then_hit)
{
	const char *h = CO_TH("Cache-Control: max-age=100|Age: 5");
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	unsigned id1, id2, bid;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/mh", h);
	CO_BodyIs(r, "/mh", 1);
	CO_CsIs(r, "/mh", "Veneer; fwd=miss; stored");
	(void)xvarnish(r, "/mh", 1, &id1);
	ck_assert_msg(CO_AgeOf(r, "/mh") >= 5, "miss: Age %ld, but the origin "
	    "sent Age: 5", CO_AgeOf(r, "/mh"));
	ck_assert_msg(CO_Matches("^1\\.1 [^ ]+ \\(Veneer/[^)]+\\)$",
	    HX_Header(r, "Via")), "Via: %s", HX_Header(r, "Via"));
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/mh");
	ck_assert_ptr_nonnull(q);
	ck_assert_msg(HX_Header(q, "X-Varnish") != NULL &&
	    CO_Matches("^[0-9]+$", HX_Header(q, "X-Varnish")), "the origin got "
	    "X-Varnish: %s", HX_Header(q, "X-Varnish"));
	bid = (unsigned)strtoul(HX_Header(q, "X-Varnish"), NULL, 10);

	r = CO_Fetch(cl, "/mh", NULL);
	CO_BodyIs(r, "/mh", 1);
	(void)CO_CsHit(r, "/mh", 94, 95);
	id2 = xvarnish(r, "/mh", 2, NULL);
	ck_assert_msg(id2 == bid, "hit: X-Varnish: %s, but the fetch that "
	    "made the object was %u", HX_Header(r, "X-Varnish"), bid);
	ck_assert_msg(atol(HX_Header(r, "X-Varnish")) != (long)id1,
	    "the hit has the miss's id %u", id1);
	ck_assert_msg(CO_AgeOf(r, "/mh") >= 5, "hit: Age %ld, want >= 5",
	    CO_AgeOf(r, "/mh"));
	ck_assert_str_eq(HX_Header(r, "Accept-Ranges"), "bytes");
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "cache_miss", "==", 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "cache_hit", "==", 1, CO_T_WAIT);

	CO_LetTimePass(1.1);
	r = CO_Fetch(cl, "/mh", NULL);
	CO_BodyIs(r, "/mh", 1);
	(void)CO_CsHit(r, "/mh", 93, 94);
	ck_assert_msg(CO_AgeOf(r, "/mh") >= 6, "hit 1.1 s later: Age %ld, want "
	    ">= 6", CO_AgeOf(r, "/mh"));
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "cache_hit", "==", 2, CO_T_WAIT);
	ck_assert_int_eq(VND_Counter(v, "cache_miss"), 1);
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Stored headers come back byte for byte: the object keeps well-known
 * names and canonical dates coded (obj.c), and anything that is not
 * exactly in those forms as it came.
 */
START_TEST(stored_headers_verbatim)
{
	char date[64], hdrs[1024], want[1024];
	const char *lines[] = {
		date,					/* coded date */
		"Last-Modified: Sunday, 06-Nov-94 08:49:37 GMT", /* RFC 850 */
		"Expires: Sun, 06 Nov 2094 08:49:37 GMT",	/* coded, > 2038 */
		"X-Date: Sun, 06 Nov 1994 08:49:37 GMT",	/* unknown name */
		"Server: veneer-test/1.0",
		"Content-Type: text/plain; charset=utf-8",
		"ETag: \"abc\"",
		"etag-like: W/\"x\"",
		"Cache-Control: max-age=100",
		"Strict-Transport-Security: max-age=1; includeSubDomains",
		"Access-Control-Allow-Origin: *",
		"Content-Language:en",				/* no space */
		"X-Content-Type-Options: nosniff",
	};
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, pass;
	size_t l = 0;

	(void)snprintf(date, 16, "Date: ");
	CO_HttpDate(date + 6, sizeof date - 6, 0);
	l = (size_t)snprintf(hdrs, sizeof hdrs, "X-Test-Headers: ");
	for (u = 0; u < sizeof lines / sizeof lines[0]; u++)
		l += (size_t)snprintf(hdrs + l, sizeof hdrs - l, "%s%s",
		    u > 0 ? "|" : "", lines[u]);
	(void)snprintf(hdrs + l, sizeof hdrs - l, "\r\n");
	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (pass = 0; pass < 2; pass++) {
		r = CO_Fetch(cl, "/verbatim", pass == 0 ? hdrs : NULL);
		CO_BodyIs(r, "/verbatim", 1);
		if (pass == 1)
			(void)CO_CsHit(r, "/verbatim", 95, 100);
		for (u = 0; u < sizeof lines / sizeof lines[0]; u++) {
			(void)snprintf(want, sizeof want, "\r\n%s\r\n",
			    lines[u]);
			ck_assert_msg(strstr(r->head, want) != NULL,
			    "%s: '%s' is not in the response:\n%s",
			    pass ? "hit" : "miss", lines[u], r->head);
		}
		ck_assert_str_eq(r->reason, "OK");
		HX_MsgFree(&r);
	}
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 2. Each reason not to cache leaves a hit-for-miss marker.
 */

static const struct {
	const char	*url;
	const char	*hdrs;
} uncacheable[] = {
	{ "/u/set-cookie",	CO_TH("Cache-Control: max-age=100|"
				    "Set-Cookie: a=b") },
	{ "/u/no-store",	CO_TH("Cache-Control: no-store") },
	{ "/u/private",		CO_TH("Cache-Control: private") },
	{ "/u/no-cache",	CO_TH("Cache-Control: no-cache") },
	{ "/u/surrogate",	CO_TH("Cache-Control: max-age=100|"
				    "Surrogate-Control: no-store") },
	{ "/u/vary-star",	CO_TH("Cache-Control: max-age=100|Vary: *") },
	{ "/u/max-age-0",	CO_TH("Cache-Control: max-age=0") },
	{ "/u/500",		"X-Test-Status: 500\r\n" },
};
#define NUNCACHEABLE	(sizeof uncacheable / sizeof uncacheable[0])

START_TEST(uncacheable_hit_for_miss)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, n = 0;
	const char *url;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (u = 0; u < NUNCACHEABLE; u++) {
		url = uncacheable[u].url;
		r = CO_Fetch(cl, url, uncacheable[u].hdrs);
		ck_assert_int_eq(r->status, u == NUNCACHEABLE - 1 ? 500 : 200);
		ck_assert_msg(strstr(r->body, url) == r->body, "%s: body %s",
		    url, r->body);
		CO_CsIs(r, url, "Veneer; fwd=miss");
		HX_MsgFree(&r);
		r = CO_Fetch(cl, url, uncacheable[u].hdrs);
		ck_assert_msg(ORIGIN_NReq(o) == n + 2, "%s: the second "
		    "request did not reach the origin (%u requests, want %u)",
		    url, ORIGIN_NReq(o), n + 2);
		n += 2;
		ck_assert_int_eq(r->status,
		    u == NUNCACHEABLE - 1 ? 500 : 200);
		if (r->status == 200)
			CO_BodyIs(r, url, n);
		CO_CsIs(r, url, "Veneer; fwd=miss; detail=hit-for-miss");
		(void)xvarnish(r, url, 1, NULL);
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "cache_hitmiss", "==", NUNCACHEABLE,
	    CO_T_WAIT);
	(void)VND_WaitCounter(v, "cache_miss", "==", 2 * NUNCACHEABLE,
	    CO_T_WAIT);
	ck_assert_int_eq(VND_Counter(v, "cache_hit"), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Statuses cacheable by default, and those that need explicit
 * freshness (302) or are never cached without it (201).
 */

START_TEST(default_cacheable_statuses)
{
	static const struct {
		const char	*url;
		const char	*hdrs;
		int		cached;
	} t[] = {
		{ "/st/404", "X-Test-Status: 404\r\n", 1 },
		{ "/st/301", "X-Test-Status: 301\r\n", 1 },
		{ "/st/410", "X-Test-Status: 410\r\n", 1 },
		{ "/st/302", "X-Test-Status: 302\r\n", 0 },
		{ "/st/302-fresh", "X-Test-Status: 302\r\n"
		    CO_TH("Cache-Control: max-age=50"), 1 },
		{ "/st/201", "X-Test-Status: 201\r\n", 0 },
	};
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, n = 0;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_ttl=60", NULL);
	cl = VND_Connect(v);
	for (u = 0; u < sizeof t / sizeof t[0]; u++) {
		r = CO_Fetch(cl, t[u].url, t[u].hdrs);
		n++;
		ck_assert_int_eq(r->status, atoi(t[u].hdrs + 15));
		CO_CsIs(r, t[u].url, t[u].cached ? "Veneer; fwd=miss; stored" :
		    "Veneer; fwd=miss");
		HX_MsgFree(&r);
		r = CO_Fetch(cl, t[u].url, t[u].hdrs);
		ck_assert_int_eq(r->status, atoi(t[u].hdrs + 15));
		if (t[u].cached) {
			(void)CO_CsHit(r, t[u].url, 49, 60);
		} else {
			n++;
			CO_CsIs(r, t[u].url,
			    "Veneer; fwd=miss; detail=hit-for-miss");
		}
		ck_assert_msg(ORIGIN_NReq(o) == n, "%s: the origin got %u "
		    "requests, want %u", t[u].url, ORIGIN_NReq(o), n);
		HX_MsgFree(&r);
	}
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 3. TTL from each header, read from Cache-Status on a hit.
 */

START_TEST(ttl_sources)
{
	char hdrs[512], date[64], expires[64];
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", "default_ttl=77",
	    NULL);
	cl = VND_Connect(v);

	r = CO_Fetch(cl, "/ttl/max-age", CO_TH("Cache-Control: max-age=40"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/ttl/max-age", NULL);
	(void)CO_CsHit(r, "/ttl/max-age", 39, 40);
	HX_MsgFree(&r);

	r = CO_Fetch(cl, "/ttl/s-maxage",
	    CO_TH("Cache-Control: max-age=100, s-maxage=30"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/ttl/s-maxage", NULL);
	(void)CO_CsHit(r, "/ttl/s-maxage", 29, 30);
	HX_MsgFree(&r);

	/* Expires is read against Date: an origin clock 60 s behind. */
	CO_HttpDate(date, sizeof date, -60);
	CO_HttpDate(expires, sizeof expires, -60 + 20);
	(void)snprintf(hdrs, sizeof hdrs, CO_TH("Date: %s|Expires: %s"), date,
	    expires);
	r = CO_Fetch(cl, "/ttl/expires-skew", hdrs);
	CO_CsIs(r, "/ttl/expires-skew", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/ttl/expires-skew", NULL);
	(void)CO_CsHit(r, "/ttl/expires-skew", 18, 20);
	HX_MsgFree(&r);

	/* max-age beats Expires. */
	(void)snprintf(hdrs, sizeof hdrs, CO_TH("Date: %s|Expires: %s|"
	    "Cache-Control: max-age=50"), date, expires);
	r = CO_Fetch(cl, "/ttl/max-age-expires", hdrs);
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/ttl/max-age-expires", NULL);
	(void)CO_CsHit(r, "/ttl/max-age-expires", 49, 50);
	HX_MsgFree(&r);

	r = CO_Fetch(cl, "/ttl/age",
	    CO_TH("Cache-Control: max-age=40|Age: 15"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/ttl/age", NULL);
	(void)CO_CsHit(r, "/ttl/age", 24, 25);
	HX_MsgFree(&r);

	r = CO_Fetch(cl, "/ttl/default", NULL);
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/ttl/default", NULL);
	(void)CO_CsHit(r, "/ttl/default", 76, 77);
	HX_MsgFree(&r);

	ck_assert_int_eq(ORIGIN_NReq(o), 6);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* TTLs of 1 and 2 s run out on time. */
START_TEST(ttl_expiry_on_time)
{
	char hdrs[512], date[64], expires[64];
	static const char *const u1[] = { "/s-maxage", "/age" };
	static const char *const u2[] = { "/max-age", "/expires" };
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", NULL);
	cl = VND_Connect(v);
	CO_HttpDate(date, sizeof date, 0);
	CO_HttpDate(expires, sizeof expires, 2);
	(void)snprintf(hdrs, sizeof hdrs, CO_TH("Date: %s|Expires: %s"), date,
	    expires);
	r = CO_Fetch(cl, "/s-maxage",
	    CO_TH("Cache-Control: max-age=100, s-maxage=1"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/age", CO_TH("Cache-Control: max-age=3|Age: 2"));
	ck_assert_msg(CO_AgeOf(r, "/age") >= 2, "Age %ld, want >= 2",
	    CO_AgeOf(r, "/age"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/max-age", CO_TH("Cache-Control: max-age=2"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/expires", hdrs);
	HX_MsgFree(&r);
	for (u = 0; u < 2; u++) {
		r = CO_Fetch(cl, u1[u], NULL);
		(void)CO_CsHit(r, u1[u], 0, 1);
		CO_BodyIs(r, u1[u], u + 1);
		HX_MsgFree(&r);
		r = CO_Fetch(cl, u2[u], NULL);
		(void)CO_CsHit(r, u2[u], 1, 2);
		CO_BodyIs(r, u2[u], u + 3);
		HX_MsgFree(&r);
	}

	CO_LetTimePass(1.2);
	for (u = 0; u < 2; u++) {
		r = CO_Fetch(cl, u1[u], NULL);
		CO_CsIs(r, u1[u], "Veneer; fwd=miss; stored");
		CO_BodyIs(r, u1[u], 5 + u);
		HX_MsgFree(&r);
	}
	/* Not /expires: Date has whole seconds, its TTL is 1 to 2 s. */
	r = CO_Fetch(cl, "/max-age", NULL);
	(void)CO_CsHit(r, "/max-age", 0, 1);
	HX_MsgFree(&r);

	CO_LetTimePass(1.0);
	for (u = 0; u < 2; u++) {
		r = CO_Fetch(cl, u2[u], NULL);
		CO_CsIs(r, u2[u], "Veneer; fwd=miss; stored");
		CO_BodyIs(r, u2[u], 7 + u);
		HX_MsgFree(&r);
	}
	ck_assert_int_eq(ORIGIN_NReq(o), 8);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * The TTL counts from when the response arrived, less its Age (as
 * Varnish does): a backend slower than max-age does not make its
 * response stale on arrival, hence uncacheable.
 */
START_TEST(slow_response_keeps_its_ttl)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/slower", "X-Test-Stall: 1.5\r\n"
	    CO_TH("Cache-Control: max-age=1"));
	CO_BodyIs(r, "/slower", 1);
	ck_assert_msg(!strcmp(HX_Header(r, "Cache-Status"),
	    "Veneer; fwd=miss; stored"), "a response with max-age=1 that "
	    "took the origin 1.5 s: Cache-Status: %s, want Veneer; fwd=miss; "
	    "stored (it is fresh for 1 s from its arrival)",
	    HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);

	r = CO_Fetch(cl, "/slow-fresh", "X-Test-Stall: 1.5\r\n"
	    CO_TH("Cache-Control: max-age=3"));
	CO_BodyIs(r, "/slow-fresh", 2);
	CO_CsIs(r, "/slow-fresh", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/slow-fresh", NULL);
	CO_BodyIs(r, "/slow-fresh", 2);
	ck_assert_msg(CO_Matches("^Veneer; hit; ttl=[23]$",
	    HX_Header(r, "Cache-Status")), "max-age=3, the origin took "
	    "1.5 s: Cache-Status: %s, want Veneer; hit; ttl=3 (or 2): the "
	    "delay is not part of the age", HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 4. Cookie, Authorization and POST pass.
 */

START_TEST(pass_cookie_authorization_post)
{
	static const struct {
		const char	*url;
		const char	*hdrs;
	} t[] = {
		{ "/p/cookie", "Cookie: a=b\r\n" },
		{ "/p/auth", "Authorization: Basic eDp5\r\n" },
	};
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, k, n = 0;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (u = 0; u < 2; u++) {
		for (k = 0; k < 2; k++) {
			r = CO_Fetch(cl, t[u].url, t[u].hdrs);
			CO_BodyIs(r, t[u].url, ++n);
			CO_CsIs(r, t[u].url, "Veneer; fwd=bypass");
			(void)xvarnish(r, t[u].url, 1, NULL);
			HX_MsgFree(&r);
		}
	}
	for (k = 0; k < 2; k++) {
		CLIENT_Req(cl, "POST", "/p/post", NULL, "data", -1);
		r = CLIENT_Resp(cl, 0, HX_T_RESP);
		CO_BodyIs(r, "/p/post", ++n);
		CO_CsIs(r, "/p/post", "Veneer; fwd=bypass");
		HX_MsgFree(&r);
	}
	q = ORIGIN_FindReq(o, "/p/post");
	ck_assert_ptr_nonnull(q);
	ck_assert_str_eq(q->method, "POST");
	ck_assert_str_eq(q->body, "data");
	ck_assert_int_eq(ORIGIN_NReq(o), 6);

	/* Nothing was stored by the passes. */
	r = CO_Fetch(cl, "/p/cookie", NULL);
	CO_BodyIs(r, "/p/cookie", 7);
	CO_CsIs(r, "/p/cookie", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "s_pass", "==", 6, CO_T_WAIT);
	(void)VND_WaitCounter(v, "cache_miss", "==", 1, CO_T_WAIT);
	ck_assert_int_eq(VND_Counter(v, "cache_hit"), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 5. Vary.
 */

/* Walk the steps against a new veneerd and origin. */
static void
vary_walk(const char *url, const char *resp_hdrs,
    const struct co_vary_step *t, unsigned nt)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CO_VaryWalk(o, cl, url, resp_hdrs, t, nt);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}

/* Accept-Language: Accept-Encoding is no variant key with gzip (on by
 * default; test_keying and test_gzip test that). */
START_TEST(vary_variants)
{
	static const struct co_vary_step t[] = {
		{ "Accept-Language: gzip\r\n", 1 },
		{ "Accept-Language: br\r\n", 2 },
		{ "", 3 },
		{ "Accept-Language: gzip\r\n", 1 },
		{ "Accept-Language: br\r\n", 2 },
		{ "", 3 },
		{ "Accept-Language: \r\n", 4 },		/* empty: not absent */
		{ "Accept-Language: \r\n", 4 },
		{ "", 3 },
	};

	vary_walk("/vary",
	    CO_TH("Cache-Control: max-age=100|Vary: Accept-Language"),
	    t, sizeof t / sizeof t[0]);
}
END_TEST

/* Vary on two header lines, names in any case. */
START_TEST(vary_split_mixed_case)
{
	static const struct co_vary_step t[] = {
		{ "Accept-Language: gzip\r\nX-Lang: en\r\n", 1 },
		{ "Accept-Language: gzip\r\nX-Lang: fr\r\n", 2 },
		{ "Accept-Language: br\r\nX-Lang: en\r\n", 3 },
		{ "accept-language: gzip\r\nx-LANG: en\r\n", 1 },
		{ "X-Lang: fr\r\nACCEPT-LANGUAGE: gzip\r\n", 2 },
		{ "X-Lang: en\r\nAccept-Language: br\r\n", 3 },
	};

	vary_walk("/vary2",
	    CO_TH("Cache-Control: max-age=100|Vary: accept-LANGUAGE|"
	    "vary: X-Lang"), t, sizeof t / sizeof t[0]);
}
END_TEST

/*--------------------------------------------------------------------
 * 6. Coalescing: 100 concurrent misses, one fetch.
 */

START_TEST(coalesce_100_one_fetch)
{
	struct client *cl[NCOALESCE];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, nmiss = 0, ncollapsed = 0;
	const char *cs;

	(void)HX_RaiseFdLimit(4 * NCOALESCE + 64);
	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	for (u = 0; u < NCOALESCE; u++) {
		cl[u] = VND_Connect(v);
		CLIENT_Req(cl[u], "GET", "/coalesce", "X-Test-Len: 10000\r\n"
		    "X-Test-Wait: head\r\n" CO_TH("Cache-Control: max-age=100"),
		    NULL, 0);
	}
	ORIGIN_WaitReqs(o, 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "waitinglist_queued", "==", NCOALESCE - 1,
	    CO_T_WAIT);
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	CO_ReleaseAll();
	for (u = 0; u < NCOALESCE; u++) {
		r = CLIENT_Resp(cl[u], 0, HX_T_RESP);
		CO_PatternIs(r, "/coalesce", 200, 0, 10000);
		cs = HX_Header(r, "Cache-Status");
		if (cs != NULL && !strcmp(cs, "Veneer; fwd=miss; stored"))
			nmiss++;
		else if (cs != NULL &&
		    !strcmp(cs, "Veneer; fwd=uri-miss; collapsed"))
			ncollapsed++;
		else
			ck_abort_msg("client %u: Cache-Status: %s", u, cs);
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	ck_assert_int_eq(nmiss, 1);
	ck_assert_int_eq(ncollapsed, NCOALESCE - 1);
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	(void)VND_WaitCounter(v, "busy_sleep", "==", NCOALESCE - 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "busy_wakeup", "==", NCOALESCE - 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "cache_miss", "==", 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "waitinglist_queued", "==", 0, CO_T_WAIT);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * When the response the waiters waited for is uncacheable, they all go
 * to the origin at once, not one after the other.
 */
START_TEST(coalesce_uncacheable_waiters_in_parallel)
{
	struct client *cl[NCU];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, nhfm = 0;
	const char *cs;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	for (u = 0; u < NCU; u++) {
		cl[u] = VND_Connect(v);
		CLIENT_Req(cl[u], "GET", "/cu", "X-Test-Stall: 1\r\n"
		    "X-Test-Wait: head\r\n" CO_TH("Cache-Control: private"),
		    NULL, 0);
	}
	ORIGIN_WaitReqs(o, 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "waitinglist_queued", "==", NCU - 1,
	    CO_T_WAIT);
	CO_ReleaseAll();
	/* Each stalls 1 s at the origin: in turn they would take 9 s. */
	CO_WaitInflight(NCU - 1, CO_T_WAIT);
	for (u = 0; u < NCU; u++) {
		r = CLIENT_Resp(cl[u], 0, HX_T_RESP);
		ck_assert_int_eq(r->status, 200);
		cs = HX_Header(r, "Cache-Status");
		if (cs != NULL &&
		    !strcmp(cs, "Veneer; fwd=miss; detail=hit-for-miss"))
			nhfm++;
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	ck_assert_int_eq(nhfm, NCU - 1);
	ck_assert_int_eq(ORIGIN_NReq(o), NCU);
	(void)VND_WaitCounter(v, "cache_hitmiss", "==", NCU - 1, CO_T_WAIT);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A miss streams to its client while it is fetched, and a request
 * arriving meanwhile gets the part already there too.
 */
START_TEST(coalesce_streams_while_fetching)
{
	struct client *cl[2];
	size_t have[2], head[2];
	char *buf[2];
	struct hx_msg *m;
	struct origin *o;
	struct vnd *v;
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	for (u = 0; u < 2; u++) {
		buf[u] = malloc(STREAM_LEN + 4096);
		ck_assert_ptr_nonnull(buf[u]);
		cl[u] = VND_Connect(v);
		CLIENT_Req(cl[u], "GET", "/stream", "X-Test-Wait: body\r\n"
		    "X-Test-Len: 20000\r\n" CO_TH("Cache-Control: max-age=100"),
		    NULL, 0);
		if (u == 0)
			ORIGIN_WaitReqs(o, 1, CO_T_WAIT);
		/* The head and half the body, before the origin goes on. */
		have[u] = raw_read(cl[u], buf[u], 0, 4096, 1.0);
		head[u] = raw_head(buf[u], have[u], &m);
		ck_assert_int_eq(m->status, 200);
		ck_assert_str_eq(HX_Header(m, "Content-Length"), "20000");
		if (u == 0)
			CO_CsIs(m, "/stream (fetching)",
			    "Veneer; fwd=miss; stored");
		else
			(void)CO_CsHit(m, "/stream (while fetched)", 99, 100);
		HX_MsgFree(&m);
		have[u] = raw_read(cl[u], buf[u], have[u],
		    head[u] + STREAM_LEN / 2, 2.0);
		ck_assert_msg(have[u] == head[u] + STREAM_LEN / 2, "client %u "
		    "got %zu of the %d body bytes sent so far", u,
		    have[u] - head[u], STREAM_LEN / 2);
	}
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	CO_ReleaseAll();
	for (u = 0; u < 2; u++) {
		have[u] = raw_read(cl[u], buf[u], have[u],
		    head[u] + STREAM_LEN, HX_T_RESP);
		ck_assert_msg(have[u] == head[u] + STREAM_LEN, "client %u got "
		    "%zu of %d body bytes", u, have[u] - head[u], STREAM_LEN);
		ck_assert_msg(HX_PatternCheck(buf[u] + head[u], 0,
		    STREAM_LEN) == 0, "client %u: the body is not what the "
		    "origin sent", u);
		free(buf[u]);
		CLIENT_Free(&cl[u]);
	}
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 7. Behind a hit-for-miss marker requests fetch in parallel.
 */

START_TEST(hit_for_miss_fetches_in_parallel)
{
	const char *h = CO_TH("Set-Cookie: s=1|Cache-Control: max-age=100");
	struct client *cl[NHFM], *c0;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char hdrs[256];
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	c0 = VND_Connect(v);
	r = CO_Fetch(c0, "/hfm", h);
	CO_BodyIs(r, "/hfm", 1);
	CO_CsIs(r, "/hfm", "Veneer; fwd=miss");
	HX_MsgFree(&r);
	CLIENT_Free(&c0);

	(void)snprintf(hdrs, sizeof hdrs, "X-Test-Wait: head\r\n%s", h);
	for (u = 0; u < NHFM; u++) {
		cl[u] = VND_Connect(v);
		CLIENT_Req(cl[u], "GET", "/hfm", hdrs, NULL, 0);
	}
	/* All are held by the origin at once: nobody waits on another. */
	CO_WaitInflight(NHFM, CO_T_WAIT);
	CO_ReleaseAll();
	for (u = 0; u < NHFM; u++) {
		r = CLIENT_Resp(cl[u], 0, HX_T_RESP);
		ck_assert_int_eq(r->status, 200);
		CO_CsIs(r, "/hfm", "Veneer; fwd=miss; detail=hit-for-miss");
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	ck_assert_int_eq(ORIGIN_NReq(o), NHFM + 1);
	(void)VND_WaitCounter(v, "cache_hitmiss", "==", NHFM, CO_T_WAIT);
	ck_assert_int_eq(VND_Counter(v, "busy_sleep"), 0);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Requests for other variants of an object being fetched do not queue
 * behind it: once the objhead knows what the URL varies on, a request
 * wanting another variant fetches in parallel.  Before the fix they
 * woke one after another, each finding the next variant's fetch, and
 * after ten rounds the child panicked (a waiter was never uncounted:
 * "boc->waiters == 0" in BOC_Deref), found by tools/bench/cache.sh.
 */

#define NVARY	12

START_TEST(issue_0005_vary_variants_fetched_in_parallel)
{
	const char *h = CO_TH("Vary: X-V|Cache-Control: max-age=100");
	struct client *cl[NVARY], *c0;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	char hdrs[256];
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	c0 = VND_Connect(v);
	(void)snprintf(hdrs, sizeof hdrs, "X-V: first\r\n%s", h);
	r = CO_Fetch(c0, "/vp", hdrs);
	CO_BodyIs(r, "/vp", 1);
	CO_CsIs(r, "/vp", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	for (u = 0; u < NVARY; u++) {
		cl[u] = VND_Connect(v);
		(void)snprintf(hdrs, sizeof hdrs, "X-V: v%u\r\n"
		    "X-Test-Wait: head\r\n%s", u, h);
		CLIENT_Req(cl[u], "GET", "/vp", hdrs, NULL, 0);
	}
	/* Twelve variants, twelve fetches at once. */
	CO_WaitInflight(NVARY, CO_T_WAIT);
	CO_ReleaseAll();
	for (u = 0; u < NVARY; u++) {
		r = CLIENT_Resp(cl[u], 0, HX_T_RESP);
		ck_assert_int_eq(r->status, 200);
		CO_CsIs(r, "/vp", "Veneer; fwd=miss; stored");
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	ck_assert_int_eq(ORIGIN_NReq(o), NVARY + 1);
	/* Each variant is there, and the first one still is. */
	(void)snprintf(hdrs, sizeof hdrs, "X-V: v%u\r\n%s", NVARY - 1, h);
	r = CO_Fetch(c0, "/vp", hdrs);
	ck_assert_int_eq(r->status, 200);
	ck_assert_ptr_nonnull(strstr(HX_Header(r, "Cache-Status"), "hit"));
	HX_MsgFree(&r);
	(void)snprintf(hdrs, sizeof hdrs, "X-V: first\r\n%s", h);
	r = CO_Fetch(c0, "/vp", hdrs);
	CO_BodyIs(r, "/vp", 1);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), NVARY + 1);
	CLIENT_Free(&c0);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 8. Grace: stale at once, one background refresh, then the new one.
 */

START_TEST(grace_serves_stale_refreshes_once)
{
	const char *h = CO_TH("Cache-Control: max-age=1, "
	    "stale-while-revalidate=10");
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	double t0, deadline;
	char hdrs[256];
	const char *cs;
	int ttl;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/grace", h);
	CO_BodyIs(r, "/grace", 1);
	HX_MsgFree(&r);
	CO_LetTimePass(1.2);

	/* The refresh this request starts stalls 2 s at the origin. */
	(void)snprintf(hdrs, sizeof hdrs, "X-Test-Stall: 2\r\n%s", h);
	t0 = HX_Now();
	r = CO_Fetch(cl, "/grace", hdrs);
	ck_assert_msg(HX_Now() - t0 < 0.5, "the stale object took %.2f s: "
	    "it waited for the refresh", HX_Now() - t0);
	CO_BodyIs(r, "/grace", 1);
	cs = HX_Header(r, "Cache-Status");
	ck_assert_msg(CO_Matches("^Veneer; hit; ttl=-?[0-9]+; detail=grace$",
	    cs), "stale: Cache-Status: %s, want a grace hit", cs);
	ttl = atoi(strstr(cs, "ttl=") + 4);
	ck_assert_msg(ttl <= 0 && ttl >= -1, "stale: Cache-Status: %s", cs);
	HX_MsgFree(&r);
	ORIGIN_WaitReqs(o, 2, CO_T_WAIT);

	/* A second stale hit starts no second refresh. */
	r = CO_Fetch(cl, "/grace", h);
	CO_BodyIs(r, "/grace", 1);
	ck_assert_msg(CO_Matches("^Veneer; hit; ttl=-?[0-9]+; detail=grace$",
	    HX_Header(r, "Cache-Status")), "stale again: Cache-Status: %s",
	    HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);

	/* The refresh is done: a hit on the new object follows. */
	CO_WaitDone(2, CO_T_WAIT);
	deadline = HX_Now() + 2.0;
	for (;;) {
		r = CO_Fetch(cl, "/grace", h);
		cs = HX_Header(r, "Cache-Status");
		if (strstr(r->body, "#2") != NULL)
			break;
		ck_assert_msg(strstr(r->body, "#1") != NULL, "after the "
		    "refresh (max-age=1, the origin answered in 2 s) a "
		    "request got body \"%s\", Cache-Status: %s; want a hit "
		    "on the refreshed object (\"/grace #2\")", r->body, cs);
		ck_assert_msg(HX_Now() < deadline, "2 s after the origin "
		    "sent the refresh, still the stale object (%s)", cs);
		HX_MsgFree(&r);
		(void)poll(NULL, 0, 10);
	}
	CO_BodyIs(r, "/grace", 2);
	(void)CO_CsHit(r, "/grace", 0, 1);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), 2);
	(void)VND_WaitCounter(v, "cache_hit_grace", ">=", 2, CO_T_WAIT);
	(void)VND_WaitCounter(v, "cache_miss", "==", 1, CO_T_WAIT);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 9. A HEAD miss fetches with GET and stores the object.
 */

START_TEST(head_miss_fetches_get)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "HEAD", "/head",
	    CO_TH("Cache-Control: max-age=100"), HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_int_eq(r->bodylen, 0);
	ck_assert_str_eq(HX_Header(r, "Content-Length"), "8");
	CO_CsIs(r, "/head (HEAD)", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/head");
	ck_assert_ptr_nonnull(q);
	ck_assert_msg(strcmp(q->method, "GET") == 0, "a HEAD miss reached "
	    "the origin as %s, want GET", q->method);

	r = CO_Fetch(cl, "/head", NULL);
	CO_BodyIs(r, "/head", 1);
	(void)CO_CsHit(r, "/head", 99, 100);
	HX_MsgFree(&r);
	r = CLIENT_Fetch(cl, "HEAD", "/head", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_int_eq(r->bodylen, 0);
	ck_assert_str_eq(HX_Header(r, "Content-Length"), "8");
	(void)CO_CsHit(r, "/head (HEAD)", 99, 100);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), 1);
	/* The connection is still in step after two HEADs. */
	r = CO_Fetch(cl, "/head", NULL);
	CO_BodyIs(r, "/head", 1);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 10. LRU: 10 MB through a 1 MB store.
 */

/*
 * LRU_NOBJ objects of LRU_OBJLEN (prefix/00 ...) through a store of
 * LRU_STORE whose g_bytes is counter: each stored, the store never over,
 * and some nuked.  The last URL in url.
 */
static void
lru_fill(struct vnd *v, struct client *cl, const char *prefix,
    const char *hdrs, const char *counter, char *url, size_t urlsz)
{
	struct hx_msg *r;
	uint64_t g;
	unsigned u;

	for (u = 0; u < LRU_NOBJ; u++) {
		(void)snprintf(url, urlsz, "%s/%02u", prefix, u);
		r = CO_Fetch(cl, url, hdrs);
		CO_PatternIs(r, url, 200, 0, LRU_OBJLEN);
		CO_CsIs(r, url, "Veneer; fwd=miss; stored");
		HX_MsgFree(&r);
		g = store_counter(v, counter);
		ck_assert_msg(g <= LRU_STORE, "after %s %s is %" PRIu64 ", "
		    "above the store's %d", url, counter, g, LRU_STORE);
		ck_assert_msg(g >= LRU_OBJLEN, "after %s %s is %" PRIu64 ": "
		    "the object is not counted", url, counter, g);
	}
	(void)VND_WaitCounter(v, "n_lru_nuked", ">=", 1, CO_T_WAIT);
}

START_TEST(lru_nukes_within_store)
{
	const char *h = "X-Test-Len: 102400\r\n"
	    CO_TH("Cache-Control: max-age=3600");
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char url[32];
	uint64_t g;

	o = CO_New();
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-s");
	VND_Arg(v, "malloc,1M");
	VND_Param(v, "vsl_mask", "+ExpKill");
	VND_Start(v);
	cl = VND_Connect(v);
	lru_fill(v, cl, "/lru", h, "SMA.s0.g_bytes", url, sizeof url);
	r = CO_Fetch(cl, url, NULL);
	CO_PatternIs(r, url, 200, 0, LRU_OBJLEN);
	(void)CO_CsHit(r, url, 3500, 3600);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), LRU_NOBJ);
	/* Allocator slack decides whether the tenth fits (it does with
	 * ASan's exact sizes): never more than the bytes allow. */
	ck_assert_msg(VND_Counter(v, "n_object") <= LRU_STORE / LRU_OBJLEN,
	    "n_object %" PRIu64 " in a 1 MB store of 100 KB objects",
	    VND_Counter(v, "n_object"));
	/* Each nuke is logged (ExpKill, masked by default). */
	ck_assert_msg(log_has(v, "ExpKill", "LRU x="), "no ExpKill LRU "
	    "record in the log");
	/* No -s Transient: it is sized anyway, 32M here (unlimited: 0). */
	g = store_counter(v, "SMA.Transient.g_space");
	ck_assert_msg(g > 0 && g <= 32 * 1024 * 1024, "SMA.Transient.g_space "
	    "is %" PRIu64 ", want the default size of 32M", g);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 11. An object bigger than the store is delivered, uncached.
 */

START_TEST(object_larger_than_store)
{
	const char *h = "X-Test-Len: 3145728\r\n"
	    CO_TH("Cache-Control: max-age=3600");
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	const char *cs;
	unsigned u;

	o = CO_New();
	v = launch_store(ORIGIN_Port(o), "malloc,1M");
	cl = VND_Connect(v);
	for (u = 0; u < 2; u++) {
		r = CLIENT_Fetch(cl, "GET", "/big", h, HX_T_SLOW);
		CO_PatternIs(r, "/big", 200, 0, BIG_LEN);
		cs = HX_Header(r, "Cache-Status");
		ck_assert_msg(cs != NULL && strncmp(cs, "Veneer; fwd=miss",
		    16) == 0 && strstr(cs, "stored") == NULL, "/big #%u: "
		    "Cache-Status: %s, want an uncached miss", u + 1, cs);
		HX_MsgFree(&r);
		ck_assert_uint_le(store_counter(v, "SMA.s0.g_bytes"),
		    LRU_STORE);
	}
	ck_assert_int_eq(ORIGIN_NReq(o), 2);
	/* The store still works. */
	r = CO_Fetch(cl, "/small", CO_TH("Cache-Control: max-age=100"));
	CO_BodyIs(r, "/small", 3);
	CO_CsIs(r, "/small", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/small", NULL);
	(void)CO_CsHit(r, "/small", 99, 100);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 11b. Transient has a size: short-lived objects are nuked within it,
 * and a response delivered uncached (from a lookup: it goes through
 * Transient, where a pass does not) is never refused memory, even three
 * times the size.  Before the fix the first was cut off and, once
 * Transient was full of short-lived objects, another miss got 503.
 */

START_TEST(transient_bounded_uncached_never_refused)
{
	const char *uncached = "X-Test-Len: 3145728\r\n"
	    CO_TH("Cache-Control: private");
	const char *shortlived = "X-Test-Len: 102400\r\n"
	    CO_TH("Cache-Control: max-age=5");
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char url[32];

	o = CO_New();
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-s");
	VND_Arg(v, "malloc,16M");
	VND_Arg(v, "-s");
	VND_Arg(v, "Transient=malloc,1M");
	/* ttl + grace 5 s: short-lived (shortlived is 10 s). */
	VND_Param(v, "default_grace", "0");
	VND_Start(v);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/private", uncached, HX_T_SLOW);
	CO_PatternIs(r, "/private", 200, 0, BIG_LEN);
	HX_MsgFree(&r);
	lru_fill(v, cl, "/short", shortlived, "SMA.Transient.g_bytes", url,
	    sizeof url);
	ck_assert_msg(store_counter(v, "SMA.s0.g_bytes") < LRU_OBJLEN,
	    "short-lived objects went to s0, not Transient");
	/* The last one is still there; Transient is full: still delivered. */
	r = CO_Fetch(cl, url, NULL);
	CO_PatternIs(r, url, 200, 0, LRU_OBJLEN);
	(void)CO_CsHit(r, url, 0, 5);
	HX_MsgFree(&r);
	r = CLIENT_Fetch(cl, "GET", "/private2", uncached, HX_T_SLOW);
	CO_PatternIs(r, "/private2", 200, 0, BIG_LEN);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 11c. A hit-for-miss marker costs memory (its objcore, objhead and
 * index entries): Transient counts it while it lives, and no more once
 * an object has replaced it.  Before the fix no store counted markers.
 */

#define MARKERS		50
#define MARKER_MIN	(128 + 64)	/* objcore + objhead, at least */

START_TEST(markers_charged_to_transient)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char url[32];
	uint64_t g;
	unsigned u;

	o = CO_New();
	v = launch_store(ORIGIN_Port(o), "Transient=malloc,8M");
	cl = VND_Connect(v);
	for (u = 0; u < MARKERS; u++) {
		(void)snprintf(url, sizeof url, "/marker/%02u", u);
		r = CO_Fetch(cl, url, CO_TH("Cache-Control: private"));
		CO_BodyIs(r, url, u + 1);
		CO_CsIs(r, url, "Veneer; fwd=miss");
		HX_MsgFree(&r);
	}
	/* The deliveries' private copies go as their clients finish. */
	g = store_counter_below(v, "SMA.Transient.g_bytes", MARKERS * 4096);
	ck_assert_msg(g >= MARKERS * MARKER_MIN && g < MARKERS * 4096,
	    "%d markers: SMA.Transient.g_bytes is %" PRIu64 ", want %d "
	    "to %d", MARKERS, g, MARKERS * MARKER_MIN, MARKERS * 4096);
	/* Objects replace them: the markers go, and their charge. */
	for (u = 0; u < MARKERS; u++) {
		(void)snprintf(url, sizeof url, "/marker/%02u", u);
		r = CO_Fetch(cl, url, CO_TH("Cache-Control: max-age=100"));
		CO_BodyIs(r, url, MARKERS + u + 1);
		CO_CsIs(r, url,
		    "Veneer; fwd=miss; stored; detail=hit-for-miss");
		HX_MsgFree(&r);
	}
	g = store_counter_below(v, "SMA.Transient.g_bytes", 1);
	ck_assert_msg(g == 0, "the markers were replaced, yet "
	    "SMA.Transient.g_bytes is %" PRIu64 " (n_objectcore %" PRIu64
	    ")", g, VND_Counter(v, "n_objectcore"));
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 12. The waiting list's limits.
 */

START_TEST(waitinglist_max_overflow)
{
	struct client *cl[NWL];
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, ncollapsed = 0, nstored = 0, nalone = 0;
	const char *cs;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "waitinglist_max=2", NULL);
	for (u = 0; u < NWL; u++) {
		cl[u] = VND_Connect(v);
		CLIENT_Req(cl[u], "GET", "/wl", "X-Test-Wait: head\r\n"
		    CO_TH("Cache-Control: max-age=100"), NULL, 0);
	}
	/* One fetches, two wait, two find the list full and fetch. */
	(void)VND_WaitCounter(v, "waitinglist_overflow", "==", NWL - 3,
	    CO_T_WAIT);
	(void)VND_WaitCounter(v, "waitinglist_queued", "==", 2, CO_T_WAIT);
	CO_WaitInflight(NWL - 2, CO_T_WAIT);
	CO_ReleaseAll();
	for (u = 0; u < NWL; u++) {
		r = CLIENT_Resp(cl[u], 0, HX_T_RESP);
		ck_assert_int_eq(r->status, 200);
		ck_assert_msg(strncmp(r->body, "/wl #", 5) == 0, "body %s",
		    r->body);
		cs = HX_Header(r, "Cache-Status");
		ck_assert_ptr_nonnull(cs);
		if (!strcmp(cs, "Veneer; fwd=uri-miss; collapsed"))
			ncollapsed++;
		else if (!strcmp(cs, "Veneer; fwd=miss; stored"))
			nstored++;
		else if (!strcmp(cs, "Veneer; fwd=miss"))
			nalone++;
		else
			ck_abort_msg("client %u: Cache-Status: %s", u, cs);
		HX_MsgFree(&r);
		CLIENT_Free(&cl[u]);
	}
	/* The overflowed fetch uncached: the fetcher's object is stored. */
	ck_assert_int_eq(ncollapsed, 2);
	ck_assert_int_eq(nstored, 1);
	ck_assert_int_eq(nalone, 2);
	ck_assert_int_eq(ORIGIN_NReq(o), NWL - 2);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(waitinglist_timeout)
{
	struct client *c1, *c2;
	struct origin *o;
	struct hx_msg *r;
	struct vnd *v;
	double t0, took;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "waitinglist_timeout=0.5", NULL);
	c1 = VND_Connect(v);
	c2 = VND_Connect(v);
	CLIENT_Req(c1, "GET", "/wlt", "X-Test-Stall: 2\r\n"
	    CO_TH("Cache-Control: max-age=100"), NULL, 0);
	ORIGIN_WaitReqs(o, 1, CO_T_WAIT);
	t0 = HX_Now();
	CLIENT_Req(c2, "GET", "/wlt", CO_TH("Cache-Control: max-age=100"), NULL,
	    0);
	r = CLIENT_TryResp(c2, 0, 1.5);
	took = HX_Now() - t0;
	ck_assert_msg(r != NULL, "with waitinglist_timeout=0.5 the second "
	    "request had no answer after 1.5 s (%s): it waits for the "
	    "first's 2 s fetch", CLIENT_Error(c2));
	ck_assert_msg(took >= 0.4, "the second request was answered after "
	    "%.2f s: it did not wait for the first fetch", took);
	CO_BodyIs(r, "/wlt", 2);
	HX_MsgFree(&r);
	r = CLIENT_Resp(c1, 0, HX_T_RESP);
	CO_BodyIs(r, "/wlt", 1);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), 2);
	(void)VND_WaitCounter(v, "waitinglist_timeout", "==", 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "busy_sleep", "==", 1, CO_T_WAIT);
	CLIENT_Free(&c1);
	CLIENT_Free(&c2);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 13. cache_status=off.
 */

START_TEST(cache_status_off)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "cache_status=off", NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/cso", CO_TH("Cache-Control: max-age=100"));
	CO_BodyIs(r, "/cso", 1);
	ck_assert_ptr_null(HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/cso", NULL);
	CO_BodyIs(r, "/cso", 1);
	(void)xvarnish(r, "/cso", 2, NULL);
	ck_assert_ptr_null(HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/cso", "Cookie: c=1\r\n");
	CO_BodyIs(r, "/cso", 2);
	ck_assert_ptr_null(HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 14. Expiry removes the object.
 */

START_TEST(expiry_removes_object)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", "default_keep=0",
	    NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/exp", CO_TH("Cache-Control: max-age=1"));
	CO_CsIs(r, "/exp", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/exp", NULL);
	(void)CO_CsHit(r, "/exp", 0, 1);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "n_object", "==", 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_expired", "==", 1, 3.5);
	(void)VND_WaitCounter(v, "n_object", "==", 0, 1.0);
	r = CO_Fetch(cl, "/exp", NULL);
	CO_BodyIs(r, "/exp", 2);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), 2);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
cache_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("cache");
	tc = tcase_create("cache");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, miss_then_hit);
	tcase_add_test(tc, stored_headers_verbatim);
	tcase_add_test(tc, uncacheable_hit_for_miss);
	tcase_add_test(tc, default_cacheable_statuses);
	tcase_add_test(tc, ttl_sources);
	tcase_add_test(tc, ttl_expiry_on_time);
	tcase_add_test(tc, slow_response_keeps_its_ttl);
	tcase_add_test(tc, pass_cookie_authorization_post);
	tcase_add_test(tc, vary_variants);
	tcase_add_test(tc, vary_split_mixed_case);
	tcase_add_test(tc, coalesce_100_one_fetch);
	tcase_add_test(tc, coalesce_uncacheable_waiters_in_parallel);
	tcase_add_test(tc, coalesce_streams_while_fetching);
	tcase_add_test(tc, hit_for_miss_fetches_in_parallel);
	tcase_add_test(tc, issue_0005_vary_variants_fetched_in_parallel);
	tcase_add_test(tc, grace_serves_stale_refreshes_once);
	tcase_add_test(tc, head_miss_fetches_get);
	tcase_add_test(tc, lru_nukes_within_store);
	tcase_add_test(tc, transient_bounded_uncached_never_refused);
	tcase_add_test(tc, markers_charged_to_transient);
	tcase_add_test(tc, object_larger_than_store);
	tcase_add_test(tc, waitinglist_max_overflow);
	tcase_add_test(tc, waitinglist_timeout);
	tcase_add_test(tc, cache_status_off);
	tcase_add_test(tc, expiry_removes_object);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(cache_suite()));
}

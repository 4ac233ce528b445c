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
 * The origin and the checks are cache_lib.c's: cache_lib.h says how a
 * request scripts the origin.  Sleeps only let a TTL run out;
 * everything else waits on counters or the origin, with deadlines.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e/cache_lib.h"
#include "lib/harness.h"

#define STALE		1.3	/* lets a max-age=1 run out */
#define RANGE_LEN	100
#define RANGE_LM	"Mon, 01 Jan 2024 00:00:00 GMT"
#define RANGE_LM_LATER	"Mon, 01 Jan 2024 00:00:01 GMT"
#define MISS_LEN	100000
#define MISS_FIRST	20000
#define NVARY		400
#define NVARIANT	5
#define VARY_ROUNDS	4

/*--------------------------------------------------------------------
 * Checks.
 */

static struct hx_msg *
post(struct client *cl, const char *url, const char *hdrs)
{

	CLIENT_Req(cl, "POST", url, hdrs, "data", -1);
	return (CLIENT_Resp(cl, 0, HX_T_RESP));
}

/* The origin's requests must be n; what says when. */
static void
nreq_is(struct origin *o, unsigned n, const char *what)
{

	ck_assert_msg(ORIGIN_NReq(o) == n, "%s: the origin got %u requests, "
	    "want %u", what, ORIGIN_NReq(o), n);
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CO_HttpDate(lm, sizeof lm, -3600);
	CO_HttpDate(early, sizeof early, -7200);

	/* The miss carries a conditional the origin must not see. */
	(void)snprintf(hdrs, sizeof hdrs, "If-None-Match: \"abc\"\r\n"
	    "If-Modified-Since: %s\r\n" CO_TH("Cache-Control: max-age=100|"
	    "ETag: \"abc\"|Last-Modified: %s"), lm, lm);
	r = CO_Fetch(cl, "/cond", hdrs);
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
		r = CO_Fetch(cl, "/cond", hdrs);
		ck_assert_msg(r->status == t[u].status, "hit with %s: status "
		    "%d, want %d", t[u].what, r->status, t[u].status);
		(void)CO_CsHit(r, "/cond", 98, 100);
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
			CO_BodyIs(r, "/cond", 1);
		}
		HX_MsgFree(&r);
	}
	r = CLIENT_Fetch(cl, "HEAD", "/cond", "If-None-Match: \"abc\"\r\n",
	    HX_T_RESP);
	ck_assert_msg(r->status == 304, "HEAD hit with If-None-Match: "
	    "\"abc\": status %d, want 304", r->status);
	HX_MsgFree(&r);
	/* Still in step after the 304s. */
	r = CO_Fetch(cl, "/cond", NULL);
	CO_BodyIs(r, "/cond", 1);
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/range", "X-Test-Len: 100\r\n"
	    CO_TH("Cache-Control: max-age=100|ETag: \"abc\"|Last-Modified: "
	    RANGE_LM));
	CO_PatternIs(r, "/range (miss)", 200, 0, RANGE_LEN);
	HX_MsgFree(&r);
	for (u = 0; u < sizeof t / sizeof t[0]; u++) {
		/* "hit with Range: ..., If-Range: ..." */
		(void)snprintf(what, sizeof what, "hit with %s", t[u].hdrs);
		while ((p = strstr(what, "\r\n")) != NULL)
			memcpy(p, p[2] != '\0' ? ", " : "\0", 2);
		r = CO_Fetch(cl, "/range", t[u].hdrs);
		(void)CO_CsHit(r, "/range", 98, 100);
		if (t[u].status == 416) {
			ck_assert_msg(r->status == 416, "%s: status %d, want "
			    "416", what, r->status);
		} else {
			CO_PatternIs(r, what, t[u].status, t[u].off, t[u].len);
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
	r = CO_Fetch(cl, "/range", NULL);
	CO_PatternIs(r, "/range (last)", 200, 0, RANGE_LEN);
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	CLIENT_Req(cl, "GET", "/rmiss", "Range: bytes=0-99\r\n"
	    "X-Test-Len: 100000\r\nX-Test-Wait: body\r\n"
	    "X-Test-First: 20000\r\n" CO_TH("Cache-Control: max-age=100"),
	    NULL, 0);
	ORIGIN_WaitReqs(o, 1, CO_T_WAIT);
	r = CLIENT_TryResp(cl, 0, 2.0);
	ck_assert_msg(r != NULL, "Range: bytes=0-99 on a miss whose first "
	    "20000 of 100000 bytes arrived: no complete answer within 2 s "
	    "(%s); want the 206 before the rest of the body",
	    CLIENT_Error(cl));
	CO_PatternIs(r, "Range: bytes=0-99 on a miss", 206, 0, 100);
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

	CO_ReleaseAll();
	CO_WaitDone(1, CO_T_WAIT);
	c2 = VND_Connect(v);
	r = CLIENT_Fetch(c2, "GET", "/rmiss", NULL, HX_T_SLOW);
	CO_PatternIs(r, "/rmiss (whole, after the fetch)", 200, 0, MISS_LEN);
	(void)CO_CsHit(r, "/rmiss", 98, 100);
	HX_MsgFree(&r);
	/* The first connection is still in step. */
	r = CO_Fetch(cl, "/rmiss", "Range: bytes=99990-\r\n");
	CO_PatternIs(r, "Range: bytes=99990- on the hit", 206, 99990, 10);
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_keep=30", "default_grace=0",
	    NULL);
	cl = VND_Connect(v);
	(void)snprintf(hdrs, sizeof hdrs,
	    CO_TH("Cache-Control: max-age=1|%s"), validator);
	r = CO_Fetch(cl, url, hdrs);
	CO_BodyIs(r, url, 1);
	CO_CsIs(r, url, "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	CO_LetTimePass(STALE);

	r = CO_Fetch(cl, url, CO_TC("Cache-Control: max-age=60|X-New: 1"));
	ORIGIN_WaitReqs(o, 2, CO_T_WAIT);
	q = ORIGIN_Req(o, 1);
	ck_assert_msg(HX_Header(q, cond) != NULL &&
	    !strcmp(HX_Header(q, cond), condval), "the refresh of the stale "
	    "%s (%s) reached the origin with %s: %s, want %s", url,
	    validator, cond, HX_Header(q, cond), condval);
	ck_assert_msg(r->status == 200, "%s revalidated (the origin said "
	    "304): status %d, want 200", url, r->status);
	CO_BodyIs(r, url, 1);
	ck_assert_msg(HX_Header(r, "X-New") != NULL &&
	    !strcmp(HX_Header(r, "X-New"), "1"), "%s revalidated: X-New: "
	    "%s, want 1 (from the 304)", url, HX_Header(r, "X-New"));
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "fetch_304", "==", 1, CO_T_WAIT);

	r = CO_Fetch(cl, url, NULL);
	CO_BodyIs(r, url, 1);
	(void)CO_CsHit(r, url, 58, 60);
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

	CO_HttpDate(lm, sizeof lm, -3600);
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
	const char *cond = CO_TC("Cache-Control: max-age=60|Vary: X-L|"
	    "Content-Length: 0");
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char hdrs[256];
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_keep=30", "default_grace=0",
	    NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/rv", "X-L: a\r\n"
	    CO_TH("Cache-Control: max-age=1|Vary: X-L|ETag: \"a\""));
	CO_BodyIs(r, "/rv", 1);
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/rv", "X-L: b\r\n"
	    CO_TH("Cache-Control: max-age=1|Vary: X-L|ETag: \"b\""));
	CO_BodyIs(r, "/rv", 2);
	HX_MsgFree(&r);
	CO_LetTimePass(STALE);
	for (u = 0; u < 2; u++) {
		(void)snprintf(hdrs, sizeof hdrs, "%s%s", t[u].hdrs, cond);
		r = CO_Fetch(cl, "/rv", hdrs);
		nreq_is(o, 3 + u, "a stale variant revalidated");
		q = ORIGIN_Req(o, 2 + u);
		ck_assert_msg(HX_Header(q, "If-None-Match") != NULL &&
		    !strcmp(HX_Header(q, "If-None-Match"), t[u].inm), "the "
		    "variant %.6s was revalidated with If-None-Match: %s, "
		    "want %s", t[u].hdrs, HX_Header(q, "If-None-Match"),
		    t[u].inm);
		CO_BodyIs(r, "/rv", t[u].serial);
		ck_assert_str_eq(HX_Header(r, "Content-Length"), "6");
		HX_MsgFree(&r);
	}
	for (u = 0; u < 2; u++) {
		r = CO_Fetch(cl, "/rv", t[u].hdrs);
		CO_BodyIs(r, "/rv", t[u].serial);
		(void)CO_CsHit(r, "/rv", 58, 60);
		ck_assert_str_eq(HX_Header(r, "Content-Length"), "6");
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "fetch_304", "==", 2, CO_T_WAIT);
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/sie", CO_TH("Cache-Control: max-age=1, "
	    "stale-if-error=30"));
	CO_BodyIs(r, "/sie", 1);
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/nosie", CO_TH("Cache-Control: max-age=1"));
	CO_BodyIs(r, "/nosie", 2);
	HX_MsgFree(&r);
	CO_LetTimePass(STALE);

	r = CO_Fetch(cl, "/sie", "X-Test-Status: 503\r\n");
	nreq_is(o, 3, "/sie refetched");
	ck_assert_msg(r->status == 200, "/sie (stale-if-error=30), the "
	    "origin answered 503: status %d, want 200 (the stale copy)",
	    r->status);
	CO_BodyIs(r, "/sie", 1);
	cs = CO_CsOf(r, "/sie");
	ck_assert_msg(strstr(cs, "fwd=stale") != NULL, "/sie served stale "
	    "on error: Cache-Status: %s, want fwd=stale", cs);
	/* RFC 9211: what the backend answered. */
	ck_assert_msg(strstr(cs, "; fwd-status=503;") != NULL, "/sie: "
	    "Cache-Status: %s, want fwd-status=503", cs);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "cache_stale_if_error", "==", 1, CO_T_WAIT);

	r = CO_Fetch(cl, "/nosie", "X-Test-Status: 503\r\n");
	nreq_is(o, 4, "/nosie refetched");
	ck_assert_msg(r->status == 503, "/nosie (no stale-if-error, "
	    "default_grace=0), the origin answered 503: status %d, want 503",
	    r->status);
	HX_MsgFree(&r);

	/* The origin is gone: connections are refused. */
	ck_assert_msg(ORIGIN_NErr(o) == 0, "the origin saw bad requests");
	ORIGIN_Free(&o);
	r = CO_Fetch(cl, "/sie", NULL);
	ck_assert_msg(r->status == 200, "/sie (stale-if-error=30), the "
	    "origin down: status %d, want 200 (the stale copy)", r->status);
	CO_BodyIs(r, "/sie", 1);
	cs = CO_CsOf(r, "/sie");
	ck_assert_msg(strstr(cs, "fwd=stale") != NULL, "/sie served stale, "
	    "the origin down: Cache-Status: %s, want fwd=stale", cs);
	/* No answer, no fwd-status. */
	ck_assert_msg(strstr(cs, "fwd-status") == NULL, "/sie, the origin "
	    "down: Cache-Status: %s, want no fwd-status", cs);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "cache_stale_if_error", "==", 2, CO_T_WAIT);
	r = CO_Fetch(cl, "/nosie", NULL);
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
		{ "/mr", CO_TH("Cache-Control: max-age=1, must-revalidate, "
		    "stale-while-revalidate=10") },
		{ "/pr", CO_TH("Cache-Control: max-age=1, proxy-revalidate, "
		    "stale-while-revalidate=10") },
		{ "/sm", CO_TH("Cache-Control: s-maxage=1, "
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=10", NULL);
	cl = VND_Connect(v);
	for (u = 0; u < 3; u++) {
		r = CO_Fetch(cl, t[u].url, t[u].hdrs);
		CO_BodyIs(r, t[u].url, u + 1);
		CO_CsIs(r, t[u].url, "Veneer; fwd=miss; stored");
		HX_MsgFree(&r);
	}
	CO_LetTimePass(STALE);
	for (u = 0; u < 3; u++) {
		(void)snprintf(hdrs, sizeof hdrs, "X-Test-Stall: 0.3\r\n%s",
		    t[u].hdrs);
		t0 = HX_Now();
		r = CO_Fetch(cl, t[u].url, hdrs);
		cs = CO_CsOf(r, t[u].url);
		ck_assert_msg(strstr(cs, "detail=grace") == NULL &&
		    strstr(cs, "hit") == NULL, "%s (%s) 0.3 s stale, "
		    "default_grace=10: Cache-Status: %s, want a miss (stale "
		    "must not be served)", t[u].url, t[u].hdrs, cs);
		CO_CsMiss(r, t[u].url);
		CO_BodyIs(r, t[u].url, 4 + u);
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
	const char *h = CO_TH("Cache-Control: no-cache|ETag: \"n1\"");
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/nc", h);
	CO_BodyIs(r, "/nc", 1);
	CO_CsIs(r, "/nc", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	for (u = 2; u <= 3; u++) {
		r = CO_Fetch(cl, "/nc",
		    CO_TC("Cache-Control: no-cache|ETag: \"n1\""));
		nreq_is(o, u, "no-cache with ETag, used again");
		q = ORIGIN_Req(o, u - 1);
		ck_assert_msg(HX_Header(q, "If-None-Match") != NULL &&
		    !strcmp(HX_Header(q, "If-None-Match"), "\"n1\""), "/nc "
		    "(no-cache, ETag \"n1\") use %u: the origin got "
		    "If-None-Match: %s, want \"n1\"", u,
		    HX_Header(q, "If-None-Match"));
		CO_BodyIs(r, "/nc", 1);
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "fetch_304", "==", 2, CO_T_WAIT);

	r = CO_Fetch(cl, "/ncv", CO_TH("Cache-Control: no-cache"));
	CO_BodyIs(r, "/ncv", 4);
	CO_CsIs(r, "/ncv", "Veneer; fwd=miss");
	HX_MsgFree(&r);
	for (u = 5; u <= 6; u++) {
		r = CO_Fetch(cl, "/ncv", CO_TH("Cache-Control: no-cache"));
		CO_BodyIs(r, "/ncv", u);
		CO_CsIs(r, "/ncv", "Veneer; fwd=miss; detail=hit-for-miss");
		q = ORIGIN_Req(o, u - 1);
		ck_assert_msg(HX_Header(q, "If-None-Match") == NULL &&
		    HX_Header(q, "If-Modified-Since") == NULL, "/ncv "
		    "(no-cache, no validator): the origin got a conditional "
		    "request");
		HX_MsgFree(&r);
	}
	(void)VND_WaitCounter(v, "cache_hitmiss", "==", 2, CO_T_WAIT);
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

	r = CO_Fetch(cl, url, CO_TH("Cache-Control: max-age=100"));
	CO_BodyIs(r, url, serial);
	if (hit)
		(void)CO_CsHit(r, url, 90, 100);
	else
		CO_CsIs(r, url, "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
}

START_TEST(unsafe_method_invalidates)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	inv_state(cl, "/inv", 0, 1);
	inv_state(cl, "/other", 0, 2);
	inv_state(cl, "/third", 0, 3);
	inv_state(cl, "/inv", 1, 1);

	r = post(cl, "/inv", NULL);
	CO_BodyIs(r, "/inv", 4);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "n_obj_invalidated", "==", 1, CO_T_WAIT);
	inv_state(cl, "/inv", 0, 5);
	inv_state(cl, "/other", 1, 2);

	r = post(cl, "/inv", "X-Test-Status: 201\r\n" CO_TH("Location: /other|"
	    "Content-Location: http://e2e.test/third"));
	ck_assert_int_eq(r->status, 201);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "n_obj_invalidated", "==", 4, CO_T_WAIT);
	inv_state(cl, "/inv", 0, 7);
	inv_state(cl, "/other", 0, 8);
	inv_state(cl, "/third", 0, 9);

	/* A failed POST changes nothing. */
	r = post(cl, "/inv", "X-Test-Status: 500\r\n"
	    CO_TH("Location: /other"));
	ck_assert_int_eq(r->status, 500);
	HX_MsgFree(&r);
	inv_state(cl, "/inv", 1, 7);
	inv_state(cl, "/other", 1, 8);

	/* Locations on another host are not ours to invalidate. */
	r = post(cl, "/elsewhere", "X-Test-Status: 201\r\n"
	    CO_TH("Location: http://other.test/other|"
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

/*
 * Issue 11: each object removed counts, every variant of a Vary'd URL
 * included; and invalidate_on_unsafe=off keeps them all.
 */
static void
inv_variant(struct client *cl, const char *v, int hit)
{
	struct hx_msg *r;
	char hdrs[160];

	(void)snprintf(hdrs, sizeof hdrs, "X-V: %s\r\n"
	    CO_TH("Cache-Control: max-age=100|Vary: X-V"), v);
	r = CO_Fetch(cl, "/inv-vary", hdrs);
	ck_assert_int_eq(r->status, 200);
	if (hit)
		(void)CO_CsHit(r, "/inv-vary", 90, 100);
	else
		CO_CsIs(r, "/inv-vary", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
}

START_TEST(unsafe_invalidation_counts_variants)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	inv_variant(cl, "a", 0);
	inv_variant(cl, "b", 0);
	inv_variant(cl, "a", 1);
	r = post(cl, "/inv-vary", NULL);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "n_obj_invalidated", "==", 2, CO_T_WAIT);
	inv_variant(cl, "a", 0);
	inv_variant(cl, "b", 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(unsafe_invalidation_off)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "invalidate_on_unsafe=off", NULL);
	cl = VND_Connect(v);
	inv_state(cl, "/inv", 0, 1);
	inv_state(cl, "/other", 0, 2);
	r = post(cl, "/inv", "X-Test-Status: 201\r\n"
	    CO_TH("Location: /other"));
	ck_assert_int_eq(r->status, 201);
	HX_MsgFree(&r);
	/* Both still hits, and nothing counted. */
	inv_state(cl, "/inv", 1, 1);
	inv_state(cl, "/other", 1, 2);
	ck_assert_int_eq(VND_Counter(v, "n_obj_invalidated"), 0);
	nreq_is(o, 3, "with invalidate_on_unsafe=off");
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
		{ "/cdn-private", CO_TH("CDN-Cache-Control: max-age=60|"
		    "Cache-Control: private"), 1 },
		{ "/sc-no-store", CO_TH("Surrogate-Control: no-store|"
		    "Cache-Control: max-age=60"), 0 },
		{ "/sc-max-age", CO_TH("Surrogate-Control: max-age=60|"
		    "Cache-Control: no-store"), 1 },
	};
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	unsigned u, n = 0;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (u = 0; u < sizeof t / sizeof t[0]; u++) {
		r = CO_Fetch(cl, t[u].url, t[u].hdrs);
		CO_BodyIs(r, t[u].url, ++n);
		CO_CsIs(r, t[u].url, t[u].cached ? "Veneer; fwd=miss; stored" :
		    "Veneer; fwd=miss");
		HX_MsgFree(&r);
		r = CO_Fetch(cl, t[u].url, t[u].hdrs);
		if (t[u].cached) {
			CO_BodyIs(r, t[u].url, n);
			(void)CO_CsHit(r, t[u].url, 58, 60);
		} else {
			CO_BodyIs(r, t[u].url, ++n);
			CO_CsIs(r, t[u].url,
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	for (k = 0; k < VARY_ROUNDS; k++) {
		for (u = 0; u < NVARIANT; u++) {
			(void)snprintf(hdrs, sizeof hdrs, "%sX-Test-Vary: "
			    "%d\r\n" CO_TH("Cache-Control: max-age=100"),
			    variant[u], NVARY);
			r = CO_Fetch(cl, "/v400", hdrs);
			if (k == 0) {
				serial[u] = ++n;
				CO_CsIs(r, "/v400", "Veneer; fwd=miss; stored");
			} else {
				(void)CO_CsHit(r, "/v400", 90, 100);
			}
			ck_assert_msg(r->status == 200, "variant %.7s "
			    "round %u: status %d", variant[u], k, r->status);
			CO_BodyIs(r, "/v400", serial[u]);
			ck_assert_msg(HX_HeaderCount(r, "Vary") > 0, "no Vary "
			    "delivered");
			HX_MsgFree(&r);
			ck_assert_msg(ORIGIN_NReq(o) == n, "variant %.10s "
			    "round %u: the origin got %u requests, want %u",
			    variant[u], k, ORIGIN_NReq(o), n);
		}
	}
	r = CO_Fetch(cl, "/after-vary", NULL);
	CO_BodyIs(r, "/after-vary", NVARIANT + 1);
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/age", CO_TH("Cache-Control: max-age=200|Age: 100"));
	CO_BodyIs(r, "/age", 1);
	ck_assert_msg(CO_AgeOf(r, "/age") >= 100, "miss: Age %ld, the origin "
	    "sent Age: 100", CO_AgeOf(r, "/age"));
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/age", NULL);
	CO_BodyIs(r, "/age", 1);
	ck_assert_msg(CO_AgeOf(r, "/age") >= 100 && CO_AgeOf(r, "/age") <= 102,
	    "hit: Age %ld, want 100 to 102", CO_AgeOf(r, "/age"));
	(void)CO_CsHit(r, "/age", 98, 100);
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

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	r = CO_Fetch(cl, "/slow", "X-Test-Stall: 1.5\r\n"
	    CO_TH("Cache-Control: max-age=3"));
	CO_BodyIs(r, "/slow", 1);
	CO_CsIs(r, "/slow", "Veneer; fwd=miss; stored");
	HX_MsgFree(&r);
	r = CO_Fetch(cl, "/slow", NULL);
	CO_BodyIs(r, "/slow", 1);
	(void)CO_CsHit(r, "/slow", 2, 3);
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
	tcase_add_test(tc, unsafe_invalidation_counts_variants);
	tcase_add_test(tc, unsafe_invalidation_off);
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

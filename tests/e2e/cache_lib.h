/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cache_lib.h -- what the cache's end-to-end tests (test_cache.c,
 * test_cache_rfc.c) share: a scripted origin (CO_New) and checks on the
 * responses the cache sends (Cache-Status, Age, bodies).
 *
 * The origin is scripted by the request: X-Test-Headers ("Name: value"
 * lines joined with '|', CO_TH) are sent back as response headers,
 * X-Test-Status sets the status, X-Test-Len asks for a body of that many
 * HX_Pattern bytes, X-Test-Stall delays the response head, and
 * X-Test-Wait holds the head ("head") or the body after X-Test-First
 * bytes, half by default ("body"), until the test calls CO_ReleaseAll.
 * X-Test-Cond (lines as X-Test-Headers, CO_TC): when the request
 * carries If-None-Match or If-Modified-Since, answer 304 with these
 * headers and no body.  X-Test-Vary: N adds Vary lines naming X-H-000 ..
 * X-H-(N-1).  Otherwise the body is "URL #N", N the origin's count of
 * requests so far: a body names the fetch that made it.
 *
 * One origin a process: each test runs in its own.
 */

#ifndef VENEER_TESTS_E2E_CACHE_LIB_H
#define VENEER_TESTS_E2E_CACHE_LIB_H

#include <stddef.h>
#include <stdint.h>

#include "lib/harness.h"

/* Response headers for the origin to send, as a request header. */
#define CO_TH(hdrs)	"X-Test-Headers: " hdrs "\r\n"
/* The origin's 304 headers when the request is conditional. */
#define CO_TC(hdrs)	"X-Test-Cond: " hdrs "\r\n"

#define CO_T_WAIT	HX_T_SLOW	/* counters, origin (ASan is slow) */

/*--------------------------------------------------------------------
 * The origin.
 */

struct origin	*CO_New(void);
/* Let every held handler go on (for good: later ones are not held). */
void	CO_ReleaseAll(void);
/* Wait until the origin has n handlers running at once. */
void	CO_WaitInflight(unsigned n, double timeout);
/* Wait until n origin handlers have returned. */
void	CO_WaitDone(unsigned n, double timeout);

/*--------------------------------------------------------------------
 * Checks: each fails the test with a message naming url (or what).
 */

/* Whether s (NULL: no) matches the extended regex re. */
int	CO_Matches(const char *re, const char *s);
/* GET url with hdrs (raw "Name: value\r\n" lines, or NULL). */
struct hx_msg	*CO_Fetch(struct client *, const char *url,
		    const char *hdrs);
/* A 200 whose body is "url #serial": the origin's serial-th answer. */
void	CO_BodyIs(const struct hx_msg *, const char *url, unsigned serial);
/* A response of status st whose body is pattern bytes [off, off+len). */
void	CO_PatternIs(const struct hx_msg *, const char *what, int st,
	    uint64_t off, size_t len);
/* The one Cache-Status header. */
const char	*CO_CsOf(const struct hx_msg *, const char *url);
/* Cache-Status is want. */
void	CO_CsIs(const struct hx_msg *, const char *url, const char *want);
/* A fresh hit; the TTL left, which must be within [lo, hi]. */
int	CO_CsHit(const struct hx_msg *, const char *url, int lo, int hi);
/* Not from the cache: a miss (stored or not, any detail). */
void	CO_CsMiss(const struct hx_msg *, const char *url);
/* The Age header, an integer. */
long	CO_AgeOf(const struct hx_msg *, const char *url);

/* A request's headers, and the origin's answer # its variant gets. */
struct co_vary_step {
	const char	*hdrs;
	unsigned	serial;
};
/*
 * Ask cl for url with each step's headers, the origin o answering with
 * resp_hdrs (a Vary): a new serial must be a stored miss, a known one a
 * hit on that variant, and o sees one request per variant (o's count
 * starts at 0).
 */
void	CO_VaryWalk(struct origin *o, struct client *cl, const char *url,
	    const char *resp_hdrs, const struct co_vary_step *t,
	    unsigned nt);

/* An HTTP date, t seconds from now. */
void	CO_HttpDate(char *buf, size_t size, long t);
/* A sleep that only lets a TTL run out. */
void	CO_LetTimePass(double seconds);

#endif /* VENEER_TESTS_E2E_CACHE_LIB_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * rfc.h -- the HTTP caching decisions the cache core asks for, as pure
 * functions of header tables: how long a backend response stays fresh
 * and whether it may be stored (RFC 9111, RFC 9213, Surrogate-Control),
 * which request headers it varies on (RFC 9110 12.5.5), and how to answer
 * a hit's conditional (RFC 9110 13) and Range (RFC 9110 14) headers.
 * No allocation, no locks, no logging: the caller logs and counts.
 *
 * Every function reads its struct http arguments only; their strings
 * must stay put for the call.  Header names are matched case-insensitively,
 * and every instance of a list header (Cache-Control, Vary,
 * If-None-Match...) is read, in order.
 */

#ifndef VENEER_CACHE_RFC_H
#define VENEER_CACHE_RFC_H

#include <stddef.h>
#include <stdint.h>

#include "common/tim.h"
#include "cache/http.h"

/*--------------------------------------------------------------------
 * Freshness and storability of a backend response (RFC 9111 3, 4.2).
 *
 * The object is fresh while now < t_origin + ttl.
 *
 * Durations read from headers (max-age, s-maxage, Age, stale-*) are
 * delta-seconds: digits only, no sign, no fraction; a value past 2^31
 * counts as 2^31 (RFC 9111 1.2.2).
 */
struct rfc_ttl {
	unsigned	magic;
#define RFC_TTL_MAGIC		0x75c84f45
	vtim_real	t_origin;	/* our clock when its age was 0 */
	/* ttl and grace are -1 when not given: use the defaults. */
	vtim_dur	ttl;		/* freshness lifetime from t_origin */
	vtim_dur	grace;		/* stale-while-revalidate */
	vtim_dur	stale_if_error;	/* stale-if-error; 0 when not given */
	unsigned	flags;		/* RFC_F_* */
	/* Raw inputs, for the TTL log record; -1 when absent or invalid. */
	double		age;		/* Age */
	vtim_real	date;		/* Date */
	vtim_real	expires;	/* Expires; -1 too when not consulted */
	double		max_age;	/* the s-maxage or max-age used */
	/* Static strings: */
	const char	*uncacheable;	/* NULL: storable; else why not */
	const char	*cc_source;	/* the header that decided, or NULL */
};

/* no-cache (qualified or not): store, but revalidate before every use. */
#define RFC_F_NO_CACHE		(1U << 0)
/*
 * must-revalidate, proxy-revalidate or s-maxage: never serve the object
 * stale without revalidating it; grace and stale_if_error are still
 * reported, and the caller must not use them.
 */
#define RFC_F_MUST_REVALIDATE	(1U << 1)
/* immutable (RFC 8246): no revalidation while fresh, even on reload. */
#define RFC_F_IMMUTABLE		(1U << 2)
/*
 * The status gets the default TTL without explicit freshness: 200 203
 * 204 300 301 304 308 404 410 414.  Not 302 and 307: RFC 9110 15.4 does
 * not make them heuristically cacheable and Varnish gives them no
 * default TTL either; like any other understood status they are stored
 * when the response gives explicit freshness.
 */
#define RFC_F_DEFAULT_CACHEABLE	(1U << 3)
/* ETag or Last-Modified present: the object can be revalidated. */
#define RFC_F_HAS_VALIDATOR	(1U << 4)

/* A Date further than this outside [t_req, t_resp] is from a skewed clock. */
#define RFC_CLOCK_SKEW		60.0

/*
 * Fill *out (wholly overwritten) for the backend response beresp
 * (beresp->status must be set), requested at t_req and received at
 * t_resp on our clock.
 *
 * Which header decides (cc_source):
 *  1. Surrogate-Control, when it holds an untargeted max-age or no-store:
 *     only those two are honored; malformed elements, "name;device"
 *     ones among them (they target another surrogate), are skipped;
 *     max-age=N+M also sets grace to M.  A
 *     Surrogate-Control with neither (content="ESI/1.0" alone) does not
 *     decide, so Cache-Control keeps working next to ESI markup.
 *  2. CDN-Cache-Control (RFC 9213), when it is non-empty and every
 *     element is well-formed; then all Cache-Control directives apply
 *     to it, private included (a CDN is a shared cache).  Names are
 *     matched case-insensitively (more lenient than a Structured Field).
 *  3. Cache-Control.
 * When 1 or 2 decides, Cache-Control and Expires are ignored (RFC 9213
 * 2.1).  Directive lists: token [ "=" ( token / quoted-string ) ], names
 * case-insensitive, blanks around "=" tolerated, empty elements skipped,
 * commas inside quoted strings kept; the first instance of a directive
 * wins.  In Cache-Control an element with trailing junk ("no-store x")
 * still counts when it restricts (no-store, no-cache, private,
 * must-revalidate, proxy-revalidate, and max-age/s-maxage as invalid
 * values) and is ignored when it would relax (public, immutable,
 * stale-*): the most restrictive reading wins (RFC 9111 4.2.1).
 * no-cache="f" and private="f" count as unqualified no-cache and private:
 * stricter than the RFC, never unsafe.  must-understand is not
 * implemented, so no-store always wins.
 *
 * ttl (RFC 9111 4.2.1): s-maxage, else max-age, else Expires - Date
 * (Expires - t_resp when Date is absent or invalid), clamped at 0.  An
 * invalid max-age or s-maxage ("abc", "-1", "1.5", "") or Expires ("0",
 * garbage) makes the response stale: ttl 0.  no-cache makes ttl 0.  -1
 * when none of these is given.
 *
 * t_origin (RFC 9111 4.2.3): t_resp - max(apparent_age,
 * corrected_age_value), where apparent_age = max(0, t_resp - Date) and
 * corrected_age_value = Age + (t_resp - t_req) when the response has an
 * Age (it comes through a cache: the transit time adds to it), 0 when it
 * has none (the origin's own answer is as old as its Date says; the time
 * it took to answer does not shorten its life, as in Varnish).  A Date
 * outside [t_req - RFC_CLOCK_SKEW, t_resp + RFC_CLOCK_SKEW] is taken for
 * a skewed backend clock and apparent_age is 0, so a backend whose clock
 * is minutes off does not make max-age responses look expired.  (Expires
 * stays relative to Date.)
 *
 * uncacheable, the first that applies:
 *   "status N"   status outside 200-599 or 206 (no partial objects);
 *                "status invalid" outside 100-999
 *   "no-store"
 *   "private"    (Cache-Control or CDN-Cache-Control)
 *   "Vary: *"    a "*" or a name that is not a token in any Vary line
 *   "status N"   a status without RFC_F_DEFAULT_CACHEABLE and without
 *                explicit freshness (s-maxage, max-age, a consulted
 *                Expires, or public)
 * Set-Cookie is VCL's business, not checked here.  Every other field is
 * filled even when the response is uncacheable, for the log.
 */
void RFC_Ttl(const struct http *beresp, vtim_real t_req, vtim_real t_resp,
    struct rfc_ttl *out);

/*
 * The names a response varies on (RFC 9110 12.5.5): every Vary line,
 * split at commas, trimmed, lowercased (ASCII), deduplicated and sorted
 * bytewise, written to buf as "name\0name\0...\0\0" (a lone "\0" when
 * there are none); len must be at least 1.  Returns the number of
 * names, 0 for no Vary, -1 when any element is "*" or not a token
 * (nothing can match it: do not store), -2 when buf is too small (the
 * caller treats it as uncacheable); -1 wins over -2.  buf holds garbage
 * after a negative return.
 */
int RFC_VaryNames(const struct http *beresp, char *buf, size_t len);

/*
 * Should a hit on obj (its stored response headers, obj->status set) be
 * answered 304 Not Modified?  Only for GET and HEAD (case-sensitive) and
 * a stored 200; 1 for 304, else 0.
 *
 * If-None-Match, when present in any line, decides alone (RFC 9110
 * 13.2.2): 1 when an element is "*", or an entity-tag equal to obj's
 * ETag by weak comparison (W/ ignored, opaque tags compared exactly).
 * An ETag that is not a quoted entity-tag never matches; bad elements
 * are skipped.  Otherwise If-Modified-Since, when there is exactly one,
 * it is a valid HTTP-date and it is not after TIM_real() (the one
 * impure step): 1 when obj's Last-Modified is valid and not later.  Date
 * is never used in place of Last-Modified.
 */
int RFC_NotModified(const struct http *req, const struct http *obj);

#define RFC_RANGE_NONE		0	/* send the whole object (200) */
#define RFC_RANGE_OK		1	/* send [*lo, *hi] (206) */
#define RFC_RANGE_UNSATISFIABLE	2	/* 416 */
#define RFC_RANGE_MULTI		3	/* several ranges: send it all (200) */

/* A representation whose length is not known yet (still streaming). */
#define RFC_LEN_UNKNOWN		UINT64_MAX

/*
 * How to answer req's Range header (RFC 9110 14) for a GET hit on obj (a
 * stored 200) whose body is len bytes, or RFC_LEN_UNKNOWN.  *lo and *hi
 * are set only for RFC_RANGE_OK, inclusive.
 *
 * RFC_RANGE_NONE: not a GET, obj->status not 200, no Range or several
 *   Range lines, a unit other than "bytes" (case-insensitive), any
 *   malformed range-spec ("5-2", "0 -1", "1-2x"), an If-Range that does
 *   not hold, a suffix range of an unknown or zero length (an empty
 *   body is sent whole).
 * If-Range holds when it is a strong entity-tag equal to obj's strong
 *   ETag (a weak tag on either side never matches), or an HTTP-date
 *   equal to obj's Last-Modified (any of the three date formats).  It
 *   is checked before the ranges: a mismatch gives NONE, never 416.
 * RFC_RANGE_OK: one range-spec; "N-M" with M clamped to len - 1, "N-"
 *   to len - 1, "-N" the last N bytes (all of them if N >= len).  For
 *   an unknown length "N-" gives *hi = UINT64_MAX (to the end).
 * RFC_RANGE_UNSATISFIABLE: no range-spec overlaps the body: N >= len,
 *   or "-0".
 * RFC_RANGE_MULTI: several range-specs, at least one satisfiable.
 * Numbers saturate at UINT64_MAX instead of failing; blanks are
 * tolerated around "=" and around list elements, not inside a spec.
 */
int RFC_Range(const struct http *req, const struct http *obj, uint64_t len,
    uint64_t *lo, uint64_t *hi);

/*
 * Does the request accept gzip: an Accept-Encoding element "x-gzip", or
 * a first "gzip" whose q is above 0 ("*" does not count), as Varnish
 * reads it.
 */
int RFC_AcceptsGzip(const struct http *req);

/* A strong ETag becomes weak ("W/" prefixed): the body changed its
 * coding.  0, or -1 when the header could not be written. */
int RFC_WeakenEtag(struct http *hp);

/* Add Accept-Encoding to Vary unless it is there.  0, or -1. */
int RFC_VaryAcceptEncoding(struct http *hp);

#endif /* VENEER_CACHE_RFC_H */

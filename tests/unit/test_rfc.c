/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_rfc.c -- unit tests of the HTTP caching rules (cache/rfc.c):
 * freshness and storability of backend responses, Vary names,
 * conditional requests and byte ranges, each from tables that include
 * hostile headers.
 */

#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/http.h"
#include "cache/rfc.h"
#include "cache/ws.h"

#define NSLOT		(HTTP_HDR_FIRST + 64)
#define NHDR		8		/* header lines per table row */
#define T0		1700000000.0	/* t_resp of the TTL tables */
#define LINE_MAX_LEN	8192

struct msg {
	struct http	http;
	struct txt	hd[NSLOT];
	unsigned char	hdf[NSLOT];
};

static struct msg m_resp, m_req;
static struct vsl_log vsl;		/* no buffer: records are dropped */
static struct ws ws[1];
static uint64_t space[16384];

static void
rfc_setup(void)
{

	memset(&vsl, 0, sizeof vsl);
	WS_Init(ws, "tst", space, sizeof space);
	HTTP_Setup(&m_resp.http, ws, m_resp.hd, m_resp.hdf, NSLOT, &vsl,
	    SLT_BerespMethod);
	HTTP_Setup(&m_req.http, ws, m_req.hd, m_req.hdf, NSLOT, &vsl,
	    SLT_ReqMethod);
}

/*
 * Add header lines (up to NHDR, NULL ends early).  "@N" in a line
 * stands for the HTTP date base + N seconds.
 */
static void
add(struct http *hp, const char * const *lines, vtim_real base)
{
	char line[LINE_MAX_LEN], date[TIM_FORMAT_SIZE];
	const char *at;
	unsigned u;

	for (u = 0; u < NHDR && lines[u] != NULL; u++) {
		at = strchr(lines[u], '@');
		if (at == NULL) {
			ck_assert_int_eq(HTTP_SetHeader(hp, lines[u]), 0);
			continue;
		}
		TIM_format(base + strtod(at + 1, NULL), date);
		(void)snprintf(line, sizeof line, "%.*s%s",
		    (int)(at - lines[u]), lines[u], date);
		ck_assert_int_eq(HTTP_PrintfHeader(hp, "%s", line), 0);
	}
}

/* Status without HTTP_SetStatus's range check (hostile values). */
static void
set_status(struct http *hp, unsigned status)
{

	hp->status = (uint16_t)status;
}

static void
set_method(struct http *hp, const char *method)
{

	HTTP_SetSlot(hp, HTTP_HDR_METHOD, method);
	HTTP_SetSlot(hp, HTTP_HDR_URL, "/");
	HTTP_SetSlot(hp, HTTP_HDR_PROTO, "HTTP/1.1");
}

static int
str_eq_or_null(const char *a, const char *b)
{

	if (a == NULL || b == NULL)
		return (a == b);
	return (strcmp(a, b) == 0);
}

/*--------------------------------------------------------------------
 * RFC_Ttl
 */

#define D	RFC_F_DEFAULT_CACHEABLE
#define NC	RFC_F_NO_CACHE
#define MR	RFC_F_MUST_REVALIDATE
#define IMM	RFC_F_IMMUTABLE
#define VAL	RFC_F_HAS_VALIDATOR
#define CC	"Cache-Control"
#define CDN	"CDN-Cache-Control"
#define SC	"Surrogate-Control"
#define BIG	2147483648.0

static const struct ttl_case {
	const char	*what;
	unsigned	status;
	const char	*hdr[NHDR];	/* dates as "@N": T0 + N */
	double		delay;		/* t_resp - t_req */
	double		ttl;
	double		origin;		/* t_origin - T0 */
	double		grace;
	double		sie;
	unsigned	flags;
	const char	*uncacheable;
	const char	*source;
} ttl_cases[] = {
	/* what, status, headers, delay, ttl, origin, grace, sie, flags,
	 * uncacheable, source */
	{ "nothing", 200, { NULL }, 0, -1, 0, -1, 0, D, NULL, NULL },

	/* max-age syntax */
	{ "max-age", 200, { "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "upper case", 200, { "CACHE-CONTROL: MAX-AGE=60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "mixed case", 200, { "cache-control: Max-Age=60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "blanks around =", 200, { "Cache-Control: max-age = 60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "tabs", 200, { "Cache-Control:\tmax-age\t=\t60\t" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "quoted", 200, { "Cache-Control: max-age=\"60\"" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "leading zeros", 200, { "Cache-Control: max-age=0060" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "max-age=0", 200, { "Cache-Control: max-age=0" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "letters: stale", 200, { "Cache-Control: max-age=abc" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "overflow: 2^31", 200,
	    { "Cache-Control: max-age=99999999999999999999" },
	    0, BIG, 0, -1, 0, D, NULL, CC },
	{ "2^31 + 1", 200, { "Cache-Control: max-age=2147483649" },
	    0, BIG, 0, -1, 0, D, NULL, CC },
	{ "negative: stale", 200, { "Cache-Control: max-age=-1" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "fraction: stale", 200, { "Cache-Control: max-age=1.5" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "plus: stale", 200, { "Cache-Control: max-age=+5" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "empty value: stale", 200, { "Cache-Control: max-age=" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "no value: stale", 200, { "Cache-Control: max-age" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "quoted escape: stale", 200, { "Cache-Control: max-age=\"6\\0\"" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "junk after: stale", 200, { "Cache-Control: max-age=60 x" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "first wins", 200, { "Cache-Control: max-age=60, max-age=120" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "first wins, invalid", 200,
	    { "Cache-Control: max-age=abc, max-age=60" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "first wins across lines", 200,
	    { "Cache-Control: max-age=60", "Cache-Control: max-age=5" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "several lines", 200,
	    { "Cache-Control: public", "Cache-Control: max-age=30" },
	    0, 30, 0, -1, 0, D, NULL, CC },
	{ "empty elements", 200, { "Cache-Control: ,, max-age=60 ,, ," },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "empty line", 200, { "Cache-Control:", "Cache-Control: max-age=9" },
	    0, 9, 0, -1, 0, D, NULL, CC },
	{ "garbage elements", 200,
	    { "Cache-Control: =60, \"x\", ;, max-age=60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "name prefix", 200, { "Cache-Control: max-age-x=5, xmax-age=5" },
	    0, -1, 0, -1, 0, D, NULL, CC },
	{ "comma in quotes", 200,
	    { "Cache-Control: foo=\"x, max-age=5\", max-age=60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "escaped quote", 200,
	    { "Cache-Control: foo=\"a\\\", max-age=5\", max-age=70" },
	    0, 70, 0, -1, 0, D, NULL, CC },
	{ "unterminated quote", 200,
	    { "Cache-Control: max-age=60, foo=\"bar, no-store" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "unterminated quote ends at the line", 200,
	    { "Cache-Control: foo=\"bar", "Cache-Control: max-age=8" },
	    0, 8, 0, -1, 0, D, NULL, CC },

	/* s-maxage > max-age > Expires */
	{ "s-maxage beats max-age", 200,
	    { "Cache-Control: max-age=60, s-maxage=120" },
	    0, 120, 0, -1, 0, D | MR, NULL, CC },
	{ "s-maxage invalid: stale", 200,
	    { "Cache-Control: s-maxage=x, max-age=60" },
	    0, 0, 0, -1, 0, D | MR, NULL, CC },
	{ "s-maxage=0", 200, { "Cache-Control: s-maxage=0, max-age=60" },
	    0, 0, 0, -1, 0, D | MR, NULL, CC },
	{ "max-age beats Expires", 200,
	    { "Cache-Control: max-age=60", "Date: @0", "Expires: @3600" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "invalid max-age beats Expires", 200,
	    { "Cache-Control: max-age=x", "Date: @0", "Expires: @3600" },
	    0, 0, 0, -1, 0, D, NULL, CC },
	{ "Expires - Date", 200, { "Date: @-10", "Expires: @50" },
	    0, 60, -10, -1, 0, D, NULL, NULL },
	{ "Expires with other Cache-Control", 200,
	    { "Cache-Control: public", "Date: @0", "Expires: @100" },
	    0, 100, 0, -1, 0, D, NULL, CC },
	{ "Expires 0", 200, { "Date: @0", "Expires: 0" },
	    0, 0, 0, -1, 0, D, NULL, NULL },
	{ "Expires garbage", 200, { "Date: @0", "Expires: tomorrow" },
	    0, 0, 0, -1, 0, D, NULL, NULL },
	{ "Expires empty", 200, { "Expires:" },
	    0, 0, 0, -1, 0, D, NULL, NULL },
	{ "Expires in the past", 200, { "Date: @0", "Expires: @-100" },
	    0, 0, 0, -1, 0, D, NULL, NULL },
	{ "Expires without Date", 200, { "Expires: @100" },
	    0, 100, 0, -1, 0, D, NULL, NULL },
	{ "Expires with bad Date", 200, { "Date: yesterday", "Expires: @100" },
	    0, 100, 0, -1, 0, D, NULL, NULL },
	{ "Expires, skewed Date", 200, { "Date: @-3600", "Expires: @-3000" },
	    0, 600, 0, -1, 0, D, NULL, NULL },
	{ "two Expires: first", 200,
	    { "Date: @0", "Expires: @100", "Expires: @200" },
	    0, 100, 0, -1, 0, D, NULL, NULL },

	/* Age and Date (4.2.3) */
	{ "Date 30 s old", 200, { "Cache-Control: max-age=60", "Date: @-30" },
	    0, 60, -30, -1, 0, D, NULL, CC },
	{ "Date 5 s ahead", 200, { "Cache-Control: max-age=60", "Date: @5" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "Date 1 h ahead: skewed", 200,
	    { "Cache-Control: max-age=60", "Date: @3600" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "Date 1 h old: skewed", 200,
	    { "Cache-Control: max-age=60", "Date: @-3600" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "Date 60 s before t_req", 200,
	    { "Cache-Control: max-age=100", "Date: @-62" },
	    2, 100, -62, -1, 0, D, NULL, CC },
	{ "Date 61 s before t_req: skewed (no Age: age 0)", 200,
	    { "Cache-Control: max-age=100", "Date: @-63" },
	    2, 100, 0, -1, 0, D, NULL, CC },
	{ "Age", 200, { "Cache-Control: max-age=60", "Age: 30" },
	    0, 60, -30, -1, 0, D, NULL, CC },
	{ "Age letters", 200, { "Cache-Control: max-age=60", "Age: abc" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "Age negative", 200, { "Cache-Control: max-age=60", "Age: -5" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "Age fraction", 200, { "Cache-Control: max-age=60", "Age: 1.5" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "Age list", 200, { "Cache-Control: max-age=60", "Age: 5, 6" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "Age huge", 200,
	    { "Cache-Control: max-age=60", "Age: 99999999999999999999999" },
	    0, 60, -BIG, -1, 0, D, NULL, CC },
	{ "Age and response delay", 200,
	    { "Cache-Control: max-age=60", "Age: 10" },
	    2, 60, -12, -1, 0, D, NULL, CC },
	{ "response delay without Age: not counted", 200,
	    { "Cache-Control: max-age=60", "Date: @0" },
	    3, 60, 0, -1, 0, D, NULL, CC },
	{ "apparent age beats Age", 200,
	    { "Cache-Control: max-age=60", "Date: @-40", "Age: 10" },
	    0, 60, -40, -1, 0, D, NULL, CC },
	{ "Age beats apparent age", 200,
	    { "Cache-Control: max-age=60", "Date: @-10", "Age: 40" },
	    0, 60, -40, -1, 0, D, NULL, CC },
	{ "Age with skewed Date", 200,
	    { "Cache-Control: max-age=600", "Date: @-3600", "Age: 100" },
	    0, 600, -100, -1, 0, D, NULL, CC },

	/* Targeted headers */
	{ "SC no-store beats CC max-age", 200,
	    { "Surrogate-Control: no-store", "Cache-Control: max-age=60" },
	    0, -1, 0, -1, 0, D, "no-store", SC },
	{ "SC max-age beats CC", 200,
	    { "Surrogate-Control: max-age=300", "Cache-Control: max-age=60" },
	    0, 300, 0, -1, 0, D, NULL, SC },
	{ "SC overrides CC no-store and private", 200,
	    { "Surrogate-Control: max-age=60",
	    "Cache-Control: no-store, private, no-cache" },
	    0, 60, 0, -1, 0, D, NULL, SC },
	{ "SC max-age=N+M", 200, { "Surrogate-Control: max-age=300+600" },
	    0, 300, 0, 600, 0, D, NULL, SC },
	{ "SC max-age=N+junk", 200, { "Surrogate-Control: max-age=300+x" },
	    0, 300, 0, -1, 0, D, NULL, SC },
	{ "SC max-age invalid: stale", 200,
	    { "Surrogate-Control: max-age=x+600" },
	    0, 0, 0, -1, 0, D, NULL, SC },
	{ "SC ESI only: CC decides", 200,
	    { "Surrogate-Control: content=\"ESI/1.0\"",
	    "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "SC targeted elsewhere", 200,
	    { "Surrogate-Control: max-age=300;edge1, content=\"ESI/1.0\"",
	    "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, D, NULL, CC },
	{ "SC targeted, then ours", 200,
	    { "Surrogate-Control: no-store;edge1, max-age=100" },
	    0, 100, 0, -1, 0, D, NULL, SC },
	{ "SC ignores private and swr", 200,
	    { "Surrogate-Control: max-age=60, private, "
	    "stale-while-revalidate=9" },
	    0, 60, 0, -1, 0, D, NULL, SC },
	{ "SC ignores Expires", 200,
	    { "Surrogate-Control: no-store", "Date: @0", "Expires: @60" },
	    0, -1, 0, -1, 0, D, "no-store", SC },
	{ "SC beats CDN", 200,
	    { "CDN-Cache-Control: max-age=20",
	    "Surrogate-Control: max-age=10" },
	    0, 10, 0, -1, 0, D, NULL, SC },
	{ "CDN max-age beats CC private", 200,
	    { "CDN-Cache-Control: max-age=60", "Cache-Control: private" },
	    0, 60, 0, -1, 0, D, NULL, CDN },
	{ "CDN private", 200,
	    { "CDN-Cache-Control: private", "Cache-Control: max-age=60" },
	    0, -1, 0, -1, 0, D, "private", CDN },
	{ "CDN no-store", 200,
	    { "CDN-Cache-Control: no-store", "Cache-Control: max-age=60" },
	    0, -1, 0, -1, 0, D, "no-store", CDN },
	{ "CDN full syntax", 200,
	    { "CDN-Cache-Control: s-maxage=90, stale-while-revalidate=5, "
	    "stale-if-error=7, immutable" },
	    0, 90, 0, 5, 7, D | MR | IMM, NULL, CDN },
	{ "CDN ignores Expires", 200,
	    { "CDN-Cache-Control: public", "Date: @0", "Expires: @100" },
	    0, -1, 0, -1, 0, D, NULL, CDN },
	{ "CDN unknown directive still decides", 200,
	    { "CDN-Cache-Control: none", "Cache-Control: no-store" },
	    0, -1, 0, -1, 0, D, NULL, CDN },
	{ "CDN malformed: CC decides", 200,
	    { "CDN-Cache-Control: max-age=60 junk",
	    "Cache-Control: max-age=30" },
	    0, 30, 0, -1, 0, D, NULL, CC },
	{ "CDN unterminated quote: CC decides", 200,
	    { "CDN-Cache-Control: max-age=60, x=\"",
	    "Cache-Control: max-age=30" },
	    0, 30, 0, -1, 0, D, NULL, CC },
	{ "CDN empty: CC decides", 200,
	    { "CDN-Cache-Control:", "Cache-Control: max-age=30" },
	    0, 30, 0, -1, 0, D, NULL, CC },
	{ "CDN commas only: Expires decides", 200,
	    { "CDN-Cache-Control: , ,", "Date: @0", "Expires: @40" },
	    0, 40, 0, -1, 0, D, NULL, NULL },

	/* Storability */
	{ "no-store", 200, { "Cache-Control: no-store" },
	    0, -1, 0, -1, 0, D, "no-store", CC },
	{ "No-Store", 200, { "Cache-Control: No-Store, max-age=60" },
	    0, 60, 0, -1, 0, D, "no-store", CC },
	{ "no-store with junk", 200, { "Cache-Control: no-store junk" },
	    0, -1, 0, -1, 0, D, "no-store", CC },
	{ "no-store=x", 200, { "Cache-Control: no-store=x" },
	    0, -1, 0, -1, 0, D, "no-store", CC },
	{ "private", 200, { "Cache-Control: private, max-age=60" },
	    0, 60, 0, -1, 0, D, "private", CC },
	{ "private qualified", 200,
	    { "Cache-Control: private=\"Set-Cookie, X-User\", max-age=60" },
	    0, 60, 0, -1, 0, D, "private", CC },
	{ "no-store before private", 200,
	    { "Cache-Control: private", "Cache-Control: no-store" },
	    0, -1, 0, -1, 0, D, "no-store", CC },
	{ "Vary: *", 200, { "Vary: *" },
	    0, -1, 0, -1, 0, D, "Vary: *", NULL },
	{ "Vary: * on a second line", 200,
	    { "Vary: Accept-Encoding", "Vary: Cookie , * ," },
	    0, -1, 0, -1, 0, D, "Vary: *", NULL },
	{ "Vary not a token", 200, { "Vary: Accept Encoding" },
	    0, -1, 0, -1, 0, D, "Vary: *", NULL },
	{ "Vary fine", 200, { "Vary: Accept-Encoding, Cookie" },
	    0, -1, 0, -1, 0, D, NULL, NULL },
	{ "private before Vary: *", 200,
	    { "Vary: *", "Cache-Control: private" },
	    0, -1, 0, -1, 0, D, "private", CC },
	{ "Set-Cookie is VCL's business", 200,
	    { "Set-Cookie: a=b", "Cache-Control: max-age=5" },
	    0, 5, 0, -1, 0, D, NULL, CC },
	{ "500", 500, { NULL },
	    0, -1, 0, -1, 0, 0, "status 500", NULL },
	{ "500 max-age", 500, { "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, 0, NULL, CC },
	{ "500 s-maxage", 500, { "Cache-Control: s-maxage=60" },
	    0, 60, 0, -1, 0, MR, NULL, CC },
	{ "500 Expires", 500, { "Date: @0", "Expires: @60" },
	    0, 60, 0, -1, 0, 0, NULL, NULL },
	{ "500 invalid Expires", 500, { "Expires: 0" },
	    0, 0, 0, -1, 0, 0, NULL, NULL },
	{ "500 public", 500, { "Cache-Control: public" },
	    0, -1, 0, -1, 0, 0, NULL, CC },
	{ "500 no-cache alone", 500, { "Cache-Control: no-cache" },
	    0, 0, 0, -1, 0, NC, "status 500", CC },
	{ "500 no-store and max-age", 500,
	    { "Cache-Control: no-store, max-age=60" },
	    0, 60, 0, -1, 0, 0, "no-store", CC },
	{ "500 public with junk", 500, { "Cache-Control: public junk" },
	    0, -1, 0, -1, 0, 0, "status 500", CC },
	{ "201", 201, { NULL }, 0, -1, 0, -1, 0, 0, "status 201", NULL },
	{ "201 Expires", 201, { "Expires: @60" },
	    0, 60, 0, -1, 0, 0, NULL, NULL },
	{ "206", 206, { NULL }, 0, -1, 0, -1, 0, 0, "status 206", NULL },
	{ "206 max-age", 206, { "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, 0, "status 206", CC },
	{ "206 before no-store", 206, { "Cache-Control: no-store" },
	    0, -1, 0, -1, 0, 0, "status 206", CC },
	{ "302 alone", 302, { NULL },
	    0, -1, 0, -1, 0, 0, "status 302", NULL },
	{ "302 max-age", 302, { "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, 0, NULL, CC },
	{ "307 alone", 307, { NULL },
	    0, -1, 0, -1, 0, 0, "status 307", NULL },
	{ "307 Expires", 307, { "Date: @0", "Expires: @30" },
	    0, 30, 0, -1, 0, 0, NULL, NULL },
	{ "100", 100, { "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, 0, "status 100", CC },
	{ "101", 101, { NULL }, 0, -1, 0, -1, 0, 0, "status 101", NULL },
	{ "600", 600, { "Cache-Control: max-age=60" },
	    0, 60, 0, -1, 0, 0, "status 600", CC },
	{ "999", 999, { NULL }, 0, -1, 0, -1, 0, 0, "status 999", NULL },
	{ "0", 0, { NULL }, 0, -1, 0, -1, 0, 0, "status invalid", NULL },
	{ "1000", 1000, { NULL }, 0, -1, 0, -1, 0, 0, "status invalid",
	    NULL },

	/* Flags, grace, stale-if-error */
	{ "no-cache", 200, { "Cache-Control: no-cache, max-age=60" },
	    0, 0, 0, -1, 0, D | NC, NULL, CC },
	{ "no-cache qualified", 200,
	    { "Cache-Control: max-age=60, no-cache=\"Set-Cookie\"" },
	    0, 0, 0, -1, 0, D | NC, NULL, CC },
	{ "no-cache with junk", 200, { "Cache-Control: no-cache;x" },
	    0, 0, 0, -1, 0, D | NC, NULL, CC },
	{ "no-cache over Expires", 200,
	    { "Cache-Control: no-cache", "Expires: @600" },
	    0, 0, 0, -1, 0, D | NC, NULL, CC },
	{ "must-revalidate", 200,
	    { "Cache-Control: must-revalidate, max-age=60" },
	    0, 60, 0, -1, 0, D | MR, NULL, CC },
	{ "proxy-revalidate", 200,
	    { "Cache-Control: Proxy-Revalidate, max-age=60" },
	    0, 60, 0, -1, 0, D | MR, NULL, CC },
	{ "immutable", 200, { "Cache-Control: max-age=60, immutable" },
	    0, 60, 0, -1, 0, D | IMM, NULL, CC },
	{ "immutable with junk ignored", 200,
	    { "Cache-Control: immutable junk" },
	    0, -1, 0, -1, 0, D, NULL, CC },
	{ "stale-while-revalidate", 200,
	    { "Cache-Control: max-age=60, stale-while-revalidate=30" },
	    0, 60, 0, 30, 0, D, NULL, CC },
	{ "stale-while-revalidate invalid", 200,
	    { "Cache-Control: stale-while-revalidate=abc" },
	    0, -1, 0, -1, 0, D, NULL, CC },
	{ "stale-while-revalidate first wins", 200,
	    { "Cache-Control: stale-while-revalidate=5, "
	    "stale-while-revalidate=9" },
	    0, -1, 0, 5, 0, D, NULL, CC },
	{ "stale-if-error", 200, { "Cache-Control: stale-if-error=86400" },
	    0, -1, 0, -1, 86400, D, NULL, CC },
	{ "stale-if-error invalid", 200,
	    { "Cache-Control: stale-if-error=-1" },
	    0, -1, 0, -1, 0, D, NULL, CC },
	{ "ETag", 200, { "ETag: \"abc\"" },
	    0, -1, 0, -1, 0, D | VAL, NULL, NULL },
	{ "Last-Modified", 200, { "Last-Modified: @-100" },
	    0, -1, 0, -1, 0, D | VAL, NULL, NULL },
	{ "everything", 200,
	    { "Cache-Control: public, max-age=60, s-maxage=120",
	    "cache-control: must-revalidate, immutable, "
	    "stale-while-revalidate=10, stale-if-error=20",
	    "ETag: W/\"x\"", "Date: @-5", "Age: 3", "Expires: 0" },
	    1, 120, -5, 10, 20, D | MR | IMM | VAL, NULL, CC },
};

static void
run_ttl_case(const struct ttl_case *tc)
{
	struct rfc_ttl rt;

	rfc_setup();
	set_status(&m_resp.http, tc->status);
	add(&m_resp.http, tc->hdr, T0);
	RFC_Ttl(&m_resp.http, T0 - tc->delay, T0, &rt);
	ck_assert_msg(rt.magic == RFC_TTL_MAGIC, "%s: magic", tc->what);
	ck_assert_msg(rt.ttl == tc->ttl, "%s: ttl %f, want %f", tc->what,
	    rt.ttl, tc->ttl);
	ck_assert_msg(rt.t_origin - T0 == tc->origin,
	    "%s: t_origin T0%+f, want T0%+f", tc->what, rt.t_origin - T0,
	    tc->origin);
	ck_assert_msg(rt.grace == tc->grace, "%s: grace %f, want %f",
	    tc->what, rt.grace, tc->grace);
	ck_assert_msg(rt.stale_if_error == tc->sie, "%s: sie %f, want %f",
	    tc->what, rt.stale_if_error, tc->sie);
	ck_assert_msg(rt.flags == tc->flags, "%s: flags %#x, want %#x",
	    tc->what, rt.flags, tc->flags);
	ck_assert_msg(str_eq_or_null(rt.uncacheable, tc->uncacheable),
	    "%s: uncacheable \"%s\", want \"%s\"", tc->what,
	    rt.uncacheable == NULL ? "(null)" : rt.uncacheable,
	    tc->uncacheable == NULL ? "(null)" : tc->uncacheable);
	ck_assert_msg(str_eq_or_null(rt.cc_source, tc->source),
	    "%s: source \"%s\", want \"%s\"", tc->what,
	    rt.cc_source == NULL ? "(null)" : rt.cc_source,
	    tc->source == NULL ? "(null)" : tc->source);
}

START_TEST(test_ttl_table)
{

	run_ttl_case(&ttl_cases[_i]);
}
END_TEST

/* Statuses cacheable by default; their neighbours are not. */
START_TEST(test_ttl_default_statuses)
{
	static const unsigned yes[] = {
		200, 203, 204, 300, 301, 304, 308, 404, 410, 414,
	};
	struct rfc_ttl rt;
	unsigned s, u, want;

	for (s = 100; s <= 999; s++) {
		want = 0;
		for (u = 0; u < ARRAY_SIZE(yes); u++)
			if (s == yes[u])
				want = 1;
		rfc_setup();
		set_status(&m_resp.http, s);
		RFC_Ttl(&m_resp.http, T0, T0, &rt);
		ck_assert_int_eq((rt.flags & RFC_F_DEFAULT_CACHEABLE) != 0,
		    want);
		ck_assert_int_eq(rt.uncacheable == NULL, want);
		if (!want) {
			ck_assert_int_eq(strncmp(rt.uncacheable, "status ", 7),
			    0);
			ck_assert_int_eq(atoi(rt.uncacheable + 7), s);
		}
	}
}
END_TEST

/* The raw inputs kept for the log. */
START_TEST(test_ttl_raw)
{
	static const char * const h1[NHDR] = {
		"Date: @-20", "Age: 7", "Expires: @40",
		"Cache-Control: max-age=30, s-maxage=50",
	};
	static const char * const h2[NHDR] = {
		"Date: never", "Age: x", "Expires: 0",
	};
	static const char * const h3[NHDR] = {
		"Cache-Control: s-maxage=zz, max-age=5",
	};
	struct rfc_ttl rt;

	rfc_setup();
	set_status(&m_resp.http, 200);
	add(&m_resp.http, h1, T0);
	RFC_Ttl(&m_resp.http, T0 - 1, T0, &rt);
	ck_assert(rt.date == T0 - 20);
	ck_assert(rt.age == 7);
	ck_assert(rt.expires == -1);		/* ignored: s-maxage */
	ck_assert(rt.max_age == 50);
	ck_assert(rt.ttl == 50);
	ck_assert(rt.t_origin == T0 - 20);

	rfc_setup();
	set_status(&m_resp.http, 200);
	add(&m_resp.http, h2, T0);
	RFC_Ttl(&m_resp.http, T0, T0, &rt);
	ck_assert(rt.date == -1);
	ck_assert(rt.age == -1);
	ck_assert(rt.expires == -1);
	ck_assert(rt.max_age == -1);
	ck_assert(rt.ttl == 0);

	rfc_setup();
	set_status(&m_resp.http, 200);
	add(&m_resp.http, h3, T0);
	RFC_Ttl(&m_resp.http, T0, T0, &rt);
	ck_assert(rt.max_age == -1);
	ck_assert(rt.ttl == 0);

	/* t_resp before t_req (clock stepped back): no negative delay. */
	rfc_setup();
	set_status(&m_resp.http, 200);
	RFC_Ttl(&m_resp.http, T0 + 5, T0, &rt);
	ck_assert(rt.t_origin == T0);
}
END_TEST

/* Long hostile lists end, and the first instance still wins. */
START_TEST(test_ttl_hostile)
{
	static char line[LINE_MAX_LEN];
	const char *h[NHDR] = { line, "Cache-Control: max-age=5" };
	struct rfc_ttl rt;
	size_t u;

	rfc_setup();
	set_status(&m_resp.http, 200);
	for (u = 0; u + 1 < sizeof line; u++)
		line[u] = "\",\\=\t "[u % 6];
	memcpy(line, "Cache-Control:", 14);
	line[sizeof line - 1] = '\0';
	add(&m_resp.http, h, T0);
	RFC_Ttl(&m_resp.http, T0, T0, &rt);
	ck_assert(rt.ttl == 5);
	ck_assert_ptr_null(rt.uncacheable);
}
END_TEST

/*--------------------------------------------------------------------
 * RFC_VaryNames
 */

static const struct vary_case {
	const char	*what;
	const char	*hdr[NHDR];
	int		ret;
	const char	*names;		/* '|' for NUL, final NUL implied */
} vary_cases[] = {
	{ "none", { NULL }, 0, "" },
	{ "one", { "Vary: Accept-Encoding" }, 1, "accept-encoding|" },
	{ "lines and commas", { "Vary: User-Agent, accept-encoding",
	    "vary: Cookie" }, 3, "accept-encoding|cookie|user-agent|" },
	{ "blanks, empties, duplicates, case",
	    { "Vary: ,\t Accept ,, ACCEPT,accept ,", "Vary:", "VARY: ,," },
	    1, "accept|" },
	{ "sorted", { "Vary: b, a, B, c, aa, A, ab" }, 5, "a|aa|ab|b|c|" },
	{ "empty", { "Vary:" }, 0, "" },
	{ "star", { "Vary: *" }, -1, NULL },
	{ "star in second line",
	    { "Vary: Accept-Encoding", "Vary: Cookie,  * , Foo" }, -1, NULL },
	{ "star with blanks", { "Vary: \t*\t" }, -1, NULL },
	{ "star inside a token is a name", { "Vary: a*" }, 1, "a*|" },
	{ "space in a name", { "Vary: Accept Encoding" }, -1, NULL },
	{ "slash", { "Vary: a/b" }, -1, NULL },
	{ "colon", { "Vary: a:b" }, -1, NULL },
	{ "quoted", { "Vary: \"a\"" }, -1, NULL },
	{ "other header", { "X-Vary: *", "Varyx: *" }, 0, "" },
};

static void
run_vary_case(const struct vary_case *vc)
{
	char buf[256], want[256];
	size_t u, l;
	int r;

	rfc_setup();
	add(&m_resp.http, vc->hdr, T0);
	memset(buf, 'X', sizeof buf);
	r = RFC_VaryNames(&m_resp.http, buf, sizeof buf);
	ck_assert_msg(r == vc->ret, "%s: %d, want %d", vc->what, r, vc->ret);
	if (vc->names == NULL)
		return;
	l = strlen(vc->names);
	for (u = 0; u < l; u++)
		want[u] = vc->names[u] == '|' ? '\0' : vc->names[u];
	want[l] = '\0';
	ck_assert_msg(memcmp(buf, want, l + 1) == 0, "%s: names", vc->what);
}

START_TEST(test_vary_table)
{

	run_vary_case(&vary_cases[_i]);
}
END_TEST

/* The buffer must hold every name, its NUL and the final NUL. */
START_TEST(test_vary_buffer)
{
	static const char * const h[NHDR] = { "Vary: bb, a" };
	static const char * const hs[NHDR] = { "Vary: bb, a", "Vary: *" };
	char buf[6];

	rfc_setup();
	add(&m_resp.http, h, T0);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, 6), 2);
	ck_assert_int_eq(memcmp(buf, "a\0bb\0\0", 6), 0);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, 5), -2);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, 1), -2);
	rfc_setup();
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, 1), 0);
	ck_assert_int_eq(buf[0], '\0');
	/* "*" wins over a full buffer. */
	rfc_setup();
	add(&m_resp.http, hs, T0);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, 3), -1);
}
END_TEST

/* 400 names over 20 lines, backwards, each twice. */
START_TEST(test_vary_400)
{
	static char lines[20][LINE_MAX_LEN];
	static char buf[8192];
	const char *h[NHDR];
	char want[16];
	const char *p;
	size_t need = 1, off;
	unsigned i, j, n;
	int r, k;

	rfc_setup();
	for (i = 0; i < 20; i++) {
		off = (size_t)snprintf(lines[i], sizeof lines[i], "Vary: ");
		for (j = 0; j < 20; j++) {
			n = 399 - (i * 20 + j);
			k = snprintf(lines[i] + off, sizeof lines[i] - off,
			    "X-Name-%03u ,\tx-name-%03u,", n, n);
			off += (size_t)k;
			need += 11;
		}
		h[0] = lines[i];
		h[1] = NULL;
		add(&m_resp.http, h, T0);
	}
	r = RFC_VaryNames(&m_resp.http, buf, sizeof buf);
	ck_assert_int_eq(r, 400);
	for (i = 0, p = buf; i < 400; i++, p += strlen(p) + 1) {
		(void)snprintf(want, sizeof want, "x-name-%03u", i);
		ck_assert_str_eq(p, want);
	}
	ck_assert_int_eq(*p, '\0');
	ck_assert_uint_eq((size_t)(p - buf) + 1, need);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, need), 400);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, need - 1), -2);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, 100), -2);
	h[0] = "Vary: x-name-000, *";
	add(&m_resp.http, h, T0);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, 100), -1);
	ck_assert_int_eq(RFC_VaryNames(&m_resp.http, buf, sizeof buf), -1);
}
END_TEST

/*--------------------------------------------------------------------
 * RFC_NotModified.  Dates "@N" are now + N: If-Modified-Since in the
 * future is ignored.
 */

static const struct cond_case {
	const char	*what;
	const char	*method;
	unsigned	status;
	const char	*req[NHDR];
	const char	*obj[NHDR];
	int		ret;
} cond_cases[] = {
	{ "nothing", "GET", 200, { NULL }, { "ETag: \"a\"" }, 0 },
	{ "INM match", "GET", 200, { "If-None-Match: \"abc\"" },
	    { "ETag: \"abc\"" }, 1 },
	{ "INM HEAD", "HEAD", 200, { "If-None-Match: \"abc\"" },
	    { "ETag: \"abc\"" }, 1 },
	{ "INM POST", "POST", 200, { "If-None-Match: \"abc\"" },
	    { "ETag: \"abc\"" }, 0 },
	{ "INM get (methods are case-sensitive)", "get", 200,
	    { "If-None-Match: \"abc\"" }, { "ETag: \"abc\"" }, 0 },
	{ "INM on a 404", "GET", 404, { "If-None-Match: \"abc\"" },
	    { "ETag: \"abc\"" }, 0 },
	{ "INM mismatch", "GET", 200, { "If-None-Match: \"xyz\"" },
	    { "ETag: \"abc\"" }, 0 },
	{ "INM case matters", "GET", 200, { "If-None-Match: \"ABC\"" },
	    { "ETag: \"abc\"" }, 0 },
	{ "INM list", "GET", 200, { "If-None-Match: \"x\", \"y\",\"abc\"" },
	    { "ETag: \"abc\"" }, 1 },
	{ "INM second line", "GET", 200,
	    { "If-None-Match: \"x\"", "If-None-Match: \"abc\"" },
	    { "ETag: \"abc\"" }, 1 },
	{ "INM weak vs strong", "GET", 200, { "If-None-Match: W/\"abc\"" },
	    { "ETag: \"abc\"" }, 1 },
	{ "INM strong vs weak", "GET", 200, { "If-None-Match: \"abc\"" },
	    { "ETag: W/\"abc\"" }, 1 },
	{ "INM weak vs weak", "GET", 200, { "If-None-Match: W/\"abc\"" },
	    { "ETag: W/\"abc\"" }, 1 },
	{ "INM lower-case w/ is not weak", "GET", 200,
	    { "If-None-Match: w/\"abc\"" }, { "ETag: \"abc\"" }, 0 },
	{ "INM star", "GET", 200, { "If-None-Match: *" },
	    { "ETag: \"abc\"" }, 1 },
	{ "INM star without ETag", "GET", 200, { "If-None-Match: *" },
	    { "Last-Modified: @-100" }, 1 },
	{ "INM star with junk", "GET", 200, { "If-None-Match: *x" },
	    { "ETag: \"abc\"" }, 0 },
	{ "INM without ETag", "GET", 200, { "If-None-Match: \"abc\"" },
	    { NULL }, 0 },
	{ "INM unquoted", "GET", 200, { "If-None-Match: abc" },
	    { "ETag: \"abc\"" }, 0 },
	{ "unquoted ETag never matches", "GET", 200,
	    { "If-None-Match: abc" }, { "ETag: abc" }, 0 },
	{ "INM comma inside a tag", "GET", 200,
	    { "If-None-Match: \"a,b\"" }, { "ETag: \"a,b\"" }, 1 },
	{ "INM half a tag", "GET", 200, { "If-None-Match: \"a" },
	    { "ETag: \"a,b\"" }, 0 },
	{ "INM junk then match", "GET", 200,
	    { "If-None-Match: junk, \"x\"y, \"abc\"" },
	    { "ETag: \"abc\"" }, 1 },
	{ "INM empty elements", "GET", 200,
	    { "If-None-Match: ,, \"abc\" ,," }, { "ETag: \"abc\"" }, 1 },
	{ "INM empty", "GET", 200, { "If-None-Match:" },
	    { "ETag: \"abc\"" }, 0 },
	{ "INM beats IMS", "GET", 200,
	    { "If-None-Match: \"xyz\"", "If-Modified-Since: @-10" },
	    { "ETag: \"abc\"", "Last-Modified: @-100" }, 0 },
	{ "IMS later", "GET", 200, { "If-Modified-Since: @-10" },
	    { "Last-Modified: @-100" }, 1 },
	{ "IMS equal", "GET", 200, { "If-Modified-Since: @-100" },
	    { "Last-Modified: @-100" }, 1 },
	{ "IMS earlier", "GET", 200, { "If-Modified-Since: @-101" },
	    { "Last-Modified: @-100" }, 0 },
	{ "IMS HEAD", "HEAD", 200, { "If-Modified-Since: @-10" },
	    { "Last-Modified: @-100" }, 1 },
	{ "IMS POST", "POST", 200, { "If-Modified-Since: @-10" },
	    { "Last-Modified: @-100" }, 0 },
	{ "IMS garbage", "GET", 200, { "If-Modified-Since: yesterday" },
	    { "Last-Modified: @-100" }, 0 },
	{ "IMS in the future", "GET", 200, { "If-Modified-Since: @3600" },
	    { "Last-Modified: @-100" }, 0 },
	{ "IMS twice", "GET", 200,
	    { "If-Modified-Since: @-10", "If-Modified-Since: @-10" },
	    { "Last-Modified: @-100" }, 0 },
	{ "IMS RFC 850 date", "GET", 200,
	    { "If-Modified-Since: Sunday, 06-Nov-94 08:49:37 GMT" },
	    { "Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT" }, 1 },
	{ "IMS asctime date", "GET", 200,
	    { "If-Modified-Since: Sun Nov  6 08:49:37 1994" },
	    { "Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT" }, 1 },
	{ "IMS without Last-Modified", "GET", 200,
	    { "If-Modified-Since: @-10" }, { "Date: @-100" }, 0 },
	{ "IMS, Last-Modified garbage", "GET", 200,
	    { "If-Modified-Since: @-10" }, { "Last-Modified: 0" }, 0 },
};

START_TEST(test_cond_table)
{
	const struct cond_case *cc = &cond_cases[_i];
	vtim_real now = floor(TIM_real());
	int r;

	rfc_setup();
	set_method(&m_req.http, cc->method);
	set_status(&m_resp.http, cc->status);
	add(&m_req.http, cc->req, now);
	add(&m_resp.http, cc->obj, now);
	r = RFC_NotModified(&m_req.http, &m_resp.http);
	ck_assert_msg(r == cc->ret, "%s: %d, want %d", cc->what, r, cc->ret);
}
END_TEST

/*--------------------------------------------------------------------
 * RFC_Range
 */

#define OBJ_TAG		"ETag: \"abc\""
#define OBJ_LM		"Last-Modified: Wed, 15 Nov 2023 10:00:00 GMT"
#define UNK		RFC_LEN_UNKNOWN
#define NONE		RFC_RANGE_NONE
#define OK		RFC_RANGE_OK
#define UNSAT		RFC_RANGE_UNSATISFIABLE
#define MULTI		RFC_RANGE_MULTI

static const struct range_case {
	const char	*what;
	const char	*method;
	unsigned	status;
	const char	*req[NHDR];
	const char	*obj[NHDR];
	uint64_t	len;
	int		ret;
	uint64_t	lo, hi;
} range_cases[] = {
	{ "none", "GET", 200, { NULL }, { NULL }, 100, NONE, 0, 0 },
	{ "0-0", "GET", 200, { "Range: bytes=0-0" }, { NULL }, 100, OK, 0, 0 },
	{ "0-", "GET", 200, { "Range: bytes=0-" }, { NULL }, 100, OK, 0, 99 },
	{ "10-19", "GET", 200, { "Range: bytes=10-19" }, { NULL }, 100,
	    OK, 10, 19 },
	{ "99-99", "GET", 200, { "Range: bytes=99-99" }, { NULL }, 100,
	    OK, 99, 99 },
	{ "50-1000: clamped", "GET", 200, { "Range: bytes=50-1000" },
	    { NULL }, 100, OK, 50, 99 },
	{ "last-pos overflow", "GET", 200,
	    { "Range: bytes=0-99999999999999999999999" }, { NULL }, 100,
	    OK, 0, 99 },
	{ "-1", "GET", 200, { "Range: bytes=-1" }, { NULL }, 100, OK, 99, 99 },
	{ "-100", "GET", 200, { "Range: bytes=-100" }, { NULL }, 100,
	    OK, 0, 99 },
	{ "-200", "GET", 200, { "Range: bytes=-200" }, { NULL }, 100,
	    OK, 0, 99 },
	{ "-0", "GET", 200, { "Range: bytes=-0" }, { NULL }, 100,
	    UNSAT, 0, 0 },
	{ "5-2", "GET", 200, { "Range: bytes=5-2" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "100-", "GET", 200, { "Range: bytes=100-" }, { NULL }, 100,
	    UNSAT, 0, 0 },
	{ "150-200", "GET", 200, { "Range: bytes=150-200" }, { NULL }, 100,
	    UNSAT, 0, 0 },
	{ "first-pos overflow", "GET", 200,
	    { "Range: bytes=99999999999999999999999-" }, { NULL }, 100,
	    UNSAT, 0, 0 },
	{ "two ranges", "GET", 200, { "Range: bytes=0-1,3-4" }, { NULL },
	    100, MULTI, 0, 0 },
	{ "two ranges, one satisfiable", "GET", 200,
	    { "Range: bytes=0-1, 200-300" }, { NULL }, 100, MULTI, 0, 0 },
	{ "two unsatisfiable", "GET", 200,
	    { "Range: bytes=200-300,-0" }, { NULL }, 100, UNSAT, 0, 0 },
	{ "two, one malformed", "GET", 200, { "Range: bytes=0-1,5-2" },
	    { NULL }, 100, NONE, 0, 0 },
	{ "blanks", "GET", 200, { "Range:  bytes = 0-1 , ,\t" }, { NULL },
	    100, OK, 0, 1 },
	{ "blank inside a spec", "GET", 200, { "Range: bytes=0 -1" },
	    { NULL }, 100, NONE, 0, 0 },
	{ "blank after -", "GET", 200, { "Range: bytes=0- 1" },
	    { NULL }, 100, NONE, 0, 0 },
	{ "upper-case unit", "GET", 200, { "Range: BYTES=0-1" }, { NULL },
	    100, OK, 0, 1 },
	{ "items", "GET", 200, { "Range: items=0-1" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "bytesx", "GET", 200, { "Range: bytesx=0-1" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "no =", "GET", 200, { "Range: bytes 0-1" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "empty set", "GET", 200, { "Range: bytes=" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "commas only", "GET", 200, { "Range: bytes=,," }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "letters", "GET", 200, { "Range: bytes=abc" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "junk after", "GET", 200, { "Range: bytes=1-2x" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "--1", "GET", 200, { "Range: bytes=--1" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "0-1-2", "GET", 200, { "Range: bytes=0-1-2" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "-", "GET", 200, { "Range: bytes=-" }, { NULL }, 100, NONE, 0, 0 },
	{ "negative", "GET", 200, { "Range: bytes=-5-10" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "two Range lines", "GET", 200,
	    { "Range: bytes=0-1", "Range: bytes=2-3" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "HEAD", "HEAD", 200, { "Range: bytes=0-1" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "POST", "POST", 200, { "Range: bytes=0-1" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "on a 404", "GET", 404, { "Range: bytes=0-1" }, { NULL }, 100,
	    NONE, 0, 0 },
	{ "empty object 0-", "GET", 200, { "Range: bytes=0-" }, { NULL }, 0,
	    UNSAT, 0, 0 },
	{ "empty object -5", "GET", 200, { "Range: bytes=-5" }, { NULL }, 0,
	    NONE, 0, 0 },
	{ "unknown length 10-", "GET", 200, { "Range: bytes=10-" },
	    { NULL }, UNK, OK, 10, UINT64_MAX },
	{ "unknown length 10-20", "GET", 200, { "Range: bytes=10-20" },
	    { NULL }, UNK, OK, 10, 20 },
	{ "unknown length huge", "GET", 200,
	    { "Range: bytes=99999999999999999999999-" }, { NULL }, UNK,
	    NONE, 0, 0 },
	{ "unknown length suffix", "GET", 200, { "Range: bytes=-5" },
	    { NULL }, UNK, NONE, 0, 0 },
	{ "unknown length two", "GET", 200, { "Range: bytes=0-1,5-6" },
	    { NULL }, UNK, MULTI, 0, 0 },

	/* If-Range */
	{ "If-Range ETag match", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: \"abc\"" }, { OBJ_TAG, OBJ_LM },
	    100, OK, 0, 1 },
	{ "If-Range ETag mismatch", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: \"xyz\"" }, { OBJ_TAG, OBJ_LM },
	    100, NONE, 0, 0 },
	{ "If-Range mismatch beats 416", "GET", 200,
	    { "Range: bytes=500-", "If-Range: \"xyz\"" }, { OBJ_TAG },
	    100, NONE, 0, 0 },
	{ "If-Range match, 416", "GET", 200,
	    { "Range: bytes=500-", "If-Range: \"abc\"" }, { OBJ_TAG },
	    100, UNSAT, 0, 0 },
	{ "If-Range weak tag", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: W/\"abc\"" }, { OBJ_TAG },
	    100, NONE, 0, 0 },
	{ "If-Range vs weak ETag", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: \"abc\"" },
	    { "ETag: W/\"abc\"" }, 100, NONE, 0, 0 },
	{ "If-Range ETag, none stored", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: \"abc\"" }, { OBJ_LM },
	    100, NONE, 0, 0 },
	{ "If-Range tag with junk", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: \"abc\"x" }, { OBJ_TAG },
	    100, NONE, 0, 0 },
	{ "If-Range date match (a Wednesday)", "GET", 200,
	    { "Range: bytes=0-1",
	    "If-Range: Wed, 15 Nov 2023 10:00:00 GMT" }, { OBJ_TAG, OBJ_LM },
	    100, OK, 0, 1 },
	{ "If-Range date, other format", "GET", 200,
	    { "Range: bytes=0-1",
	    "If-Range: Wednesday, 15-Nov-23 10:00:00 GMT" }, { OBJ_LM },
	    100, OK, 0, 1 },
	{ "If-Range date mismatch", "GET", 200,
	    { "Range: bytes=0-1",
	    "If-Range: Wed, 15 Nov 2023 10:00:01 GMT" }, { OBJ_TAG, OBJ_LM },
	    100, NONE, 0, 0 },
	{ "If-Range date, no Last-Modified", "GET", 200,
	    { "Range: bytes=0-1",
	    "If-Range: Wed, 15 Nov 2023 10:00:00 GMT" }, { OBJ_TAG },
	    100, NONE, 0, 0 },
	{ "If-Range garbage", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: whenever" }, { OBJ_TAG, OBJ_LM },
	    100, NONE, 0, 0 },
	{ "If-Range empty", "GET", 200,
	    { "Range: bytes=0-1", "If-Range:" }, { OBJ_TAG, OBJ_LM },
	    100, NONE, 0, 0 },
	{ "If-Range twice", "GET", 200,
	    { "Range: bytes=0-1", "If-Range: \"abc\"", "If-Range: \"abc\"" },
	    { OBJ_TAG }, 100, NONE, 0, 0 },
	{ "If-Range without Range", "GET", 200, { "If-Range: \"abc\"" },
	    { OBJ_TAG }, 100, NONE, 0, 0 },
};

START_TEST(test_range_table)
{
	const struct range_case *rc = &range_cases[_i];
	uint64_t lo = 7, hi = 7;
	int r;

	rfc_setup();
	set_method(&m_req.http, rc->method);
	set_status(&m_resp.http, rc->status);
	add(&m_req.http, rc->req, T0);
	add(&m_resp.http, rc->obj, T0);
	r = RFC_Range(&m_req.http, &m_resp.http, rc->len, &lo, &hi);
	ck_assert_msg(r == rc->ret, "%s: %d, want %d", rc->what, r, rc->ret);
	if (r != RFC_RANGE_OK)
		return;
	ck_assert_msg(lo == rc->lo && hi == rc->hi,
	    "%s: %ju-%ju, want %ju-%ju", rc->what, (uintmax_t)lo,
	    (uintmax_t)hi, (uintmax_t)rc->lo, (uintmax_t)rc->hi);
}
END_TEST

/*--------------------------------------------------------------------
 * gzip: RFC_AcceptsGzip, RFC_WeakenEtag, RFC_VaryAcceptEncoding
 */

static const struct {
	const char	*ae[3];		/* Accept-Encoding lines */
	int		gzip;
} ae_cases[] = {
	{ { NULL }, 0 },
	{ { "Accept-Encoding: gzip" }, 1 },
	{ { "Accept-Encoding: GZIP" }, 1 },
	{ { "Accept-Encoding: gzip, deflate" }, 1 },
	{ { "Accept-Encoding: gzip;q=0.7, *;q=0" }, 1 },
	{ { "Accept-Encoding: deflate;q=0.7, *;q=0" }, 0 },
	{ { "Accept-Encoding: x-gzip;q=0.4, gzip" }, 1 },
	{ { "Accept-Encoding: gzip;q=0, x-gzip" }, 1 },
	{ { "Accept-Encoding: gzip;q=0" }, 0 },
	{ { "Accept-Encoding: gzip; q=0.000" }, 0 },
	{ { "Accept-Encoding: gzip;q=-1" }, 0 },
	{ { "Accept-Encoding: gzip;q=0.0000001" }, 1 },
	{ { "Accept-Encoding: gzip;q=.5" }, 1 },
	{ { "Accept-Encoding: gzip;q=" }, 0 },
	{ { "Accept-Encoding: gzip;level=1" }, 1 },
	{ { "Accept-Encoding: gzipx, xgzip, gzi" }, 0 },
	{ { "Accept-Encoding: *" }, 0 },
	{ { "Accept-Encoding: ,,, ,gzip" }, 1 },
	{ { "Accept-Encoding: deflate", "Accept-Encoding: gzip" }, 1 },
	/* The first gzip decides, as in Varnish. */
	{ { "Accept-Encoding: gzip;q=0", "Accept-Encoding: gzip" }, 0 },
	{ { "Accept-Encoding:" }, 0 },
};

START_TEST(test_accepts_gzip)
{

	rfc_setup();
	set_method(&m_req.http, "GET");
	add(&m_req.http, ae_cases[_i].ae, 0);
	ck_assert_msg(RFC_AcceptsGzip(&m_req.http) == ae_cases[_i].gzip,
	    "case %d (%s)", _i, ae_cases[_i].ae[0] != NULL ?
	    ae_cases[_i].ae[0] : "none");
}
END_TEST

START_TEST(test_weaken_etag)
{
	static const char * const strong[] = { "ETag: \"x\"", NULL };
	static const char * const weak[] = { "ETag: W/\"x\"", NULL };
	struct txt v;

	rfc_setup();
	add(&m_resp.http, strong, 0);
	ck_assert_int_eq(RFC_WeakenEtag(&m_resp.http), 0);
	ck_assert(HTTP_GetHdr(&m_resp.http, "ETag", &v));
	ck_assert(TXT_Eq(v, "W/\"x\""));
	ck_assert_int_eq(HTTP_CountHdr(&m_resp.http, "ETag"), 1);
	rfc_setup();
	add(&m_resp.http, weak, 0);
	ck_assert_int_eq(RFC_WeakenEtag(&m_resp.http), 0);
	ck_assert(HTTP_GetHdr(&m_resp.http, "ETag", &v));
	ck_assert(TXT_Eq(v, "W/\"x\""));
	rfc_setup();
	ck_assert_int_eq(RFC_WeakenEtag(&m_resp.http), 0);
	ck_assert(!HTTP_GetHdr(&m_resp.http, "ETag", NULL));
}
END_TEST

static const struct {
	const char	*vary[3];
	const char	*want[3];	/* the Vary lines after */
} vary_ae_cases[] = {
	{ { NULL }, { "Accept-Encoding" } },
	{ { "Vary: Cookie" }, { "Cookie, Accept-Encoding" } },
	{ { "Vary: accept-encoding" }, { "accept-encoding" } },
	{ { "Vary: Cookie, Accept-Encoding" },
	    { "Cookie, Accept-Encoding" } },
	{ { "Vary: A", "Vary: B" }, { "A", "B", "Accept-Encoding" } },
};

START_TEST(test_vary_ae)
{
	unsigned u, k;

	rfc_setup();
	add(&m_resp.http, vary_ae_cases[_i].vary, 0);
	ck_assert_int_eq(RFC_VaryAcceptEncoding(&m_resp.http), 0);
	k = 0;
	for (u = HTTP_FindHdr(&m_resp.http, "Vary", 0); u != 0;
	    u = HTTP_FindHdr(&m_resp.http, "Vary", u + 1), k++) {
		ck_assert_uint_lt(k, 3);
		ck_assert_ptr_nonnull(vary_ae_cases[_i].want[k]);
		ck_assert_msg(TXT_Eq(HTTP_HdrValue(&m_resp.http, u),
		    vary_ae_cases[_i].want[k]), "case %d line %u", _i, k);
	}
	ck_assert(k == 3 || vary_ae_cases[_i].want[k] == NULL);
}
END_TEST

static Suite *
rfc_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("rfc");
	tc = tcase_create("ttl");
	tcase_add_loop_test(tc, test_ttl_table, 0, (int)ARRAY_SIZE(ttl_cases));
	tcase_add_test(tc, test_ttl_default_statuses);
	tcase_add_test(tc, test_ttl_raw);
	tcase_add_test(tc, test_ttl_hostile);
	suite_add_tcase(s, tc);
	tc = tcase_create("vary");
	tcase_add_loop_test(tc, test_vary_table, 0,
	    (int)ARRAY_SIZE(vary_cases));
	tcase_add_test(tc, test_vary_buffer);
	tcase_add_test(tc, test_vary_400);
	suite_add_tcase(s, tc);
	tc = tcase_create("conditional");
	tcase_add_loop_test(tc, test_cond_table, 0,
	    (int)ARRAY_SIZE(cond_cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("range");
	tcase_add_loop_test(tc, test_range_table, 0,
	    (int)ARRAY_SIZE(range_cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("gzip");
	tcase_add_loop_test(tc, test_accepts_gzip, 0,
	    (int)ARRAY_SIZE(ae_cases));
	tcase_add_test(tc, test_weaken_etag);
	tcase_add_loop_test(tc, test_vary_ae, 0,
	    (int)ARRAY_SIZE(vary_ae_cases));
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(rfc_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

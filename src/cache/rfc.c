/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * rfc.c -- HTTP caching rules (RFC 9111, RFC 9110, RFC 9213) applied to
 * header tables: freshness and storability of backend responses, Vary
 * names, conditional requests and byte ranges on hits.  See rfc.h for
 * each function's contract and the choices made where the RFCs leave
 * room.  Owns nothing, no locks; parsers walk the header strings in
 * place and never allocate.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "common/tim.h"
#include "common/txt.h"
#include "cache/http.h"
#include "cache/rfc.h"

/* RFC 9111 1.2.2: delta-seconds past this are taken as this. */
#define RFC_DELTA_MAX		2147483648.0

/*--------------------------------------------------------------------
 * Lexing (RFC 9110 5.6)
 */

static inline int
rfc_is_ows(char c)
{

	return (c == ' ' || c == '\t');
}

static inline int
rfc_is_digit(char c)
{

	return (c >= '0' && c <= '9');
}

/* tchar: what a token is made of. */
static int
rfc_is_tchar(char c)
{

	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    rfc_is_digit(c))
		return (1);
	return (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static const char *
rfc_skip_ows(const char *p, const char *e)
{

	while (p < e && rfc_is_ows(*p))
		p++;
	return (p);
}

static struct txt
rfc_trim(struct txt t)
{

	while (t.b < t.e && rfc_is_ows(*t.b))
		t.b++;
	while (t.e > t.b && rfc_is_ows(t.e[-1]))
		t.e--;
	return (t);
}

/*
 * The next element of the comma-separated list [*pp, e), trimmed and
 * maybe empty; 0 after the last one (then *pp is NULL).
 */
static int
rfc_list_next(const char **pp, const char *e, struct txt *elem)
{
	const char *p = *pp, *q;

	if (p == NULL)
		return (0);
	q = memchr(p, ',', (size_t)(e - p));
	if (q == NULL) {
		*elem = rfc_trim(TXT_Make(p, e));
		*pp = NULL;
	} else {
		*elem = rfc_trim(TXT_Make(p, q));
		*pp = q + 1;
	}
	return (1);
}

/* Is the whole of t a token? */
static int
rfc_is_token(struct txt t)
{
	const char *p;

	if (t.b == t.e)
		return (0);
	for (p = t.b; p < t.e; p++)
		if (!rfc_is_tchar(*p))
			return (0);
	return (1);
}

/*
 * delta-seconds (RFC 9111 1.2.2): digits only, saturating at 2^31.
 * Returns -1 when t is not 1*DIGIT.
 */
static double
rfc_delta_seconds(struct txt t)
{
	const char *p;
	double v = 0;

	if (t.b == NULL || t.b == t.e)
		return (-1);
	for (p = t.b; p < t.e; p++) {
		if (!rfc_is_digit(*p))
			return (-1);
		if (v < RFC_DELTA_MAX)
			v = v * 10 + (*p - '0');
	}
	return (v > RFC_DELTA_MAX ? RFC_DELTA_MAX : v);
}

/* 1*DIGIT at *pp, saturating at UINT64_MAX; 0 when no digit is there. */
static int
rfc_parse_u64(const char **pp, const char *e, uint64_t *v)
{
	const char *p = *pp;
	unsigned d;

	*v = 0;
	for (; p < e && rfc_is_digit(*p); p++) {
		d = (unsigned)(*p - '0');
		if (*v > (UINT64_MAX - d) / 10)
			*v = UINT64_MAX;
		else
			*v = *v * 10 + d;
	}
	if (p == *pp)
		return (0);
	*pp = p;
	return (1);
}

/* A header's first value as a date; -1 when absent or invalid. */
static vtim_real
rfc_hdr_date(const struct http *hp, const char *name)
{
	struct txt v;
	vtim_real t;

	if (!HTTP_GetHdr(hp, name, &v))
		return (-1);
	t = PARAM_HasFeature(PARAM_FEATURE_HTTP_DATE_POSTEL) ?
	    TIM_parse_postel(v.b, v.e) : TIM_parse(v.b, v.e);
	return (t == 0 ? -1 : t);
}

static int
rfc_method_is(const struct http *req, const char *method)
{
	const struct txt *m = &req->hd[HTTP_HDR_METHOD];

	return (TXT_OK(*m) && TXT_Eq(*m, method));
}

/*--------------------------------------------------------------------
 * Cache directive lists (RFC 9111 5.2):
 *   #( token [ OWS "=" OWS ( token / quoted-string ) ] )
 * OWS around "=" is tolerated though the grammar has none.
 */

struct rfc_directive {
	unsigned	magic;
#define RFC_DIRECTIVE_MAGIC	0x139d6f06
	struct txt	name;		/* empty when none could be read */
	struct txt	value;		/* b == NULL: no argument; unquoted */
	unsigned	malformed;	/* the element broke the grammar */
};

/* Skip to the next comma outside a quoted-string, or to e. */
static const char *
rfc_skip_element(const char *p, const char *e)
{
	unsigned quoted = 0;

	for (; p < e; p++) {
		if (quoted && *p == '\\' && p + 1 < e)
			p++;
		else if (*p == '"')
			quoted = !quoted;
		else if (*p == ',' && !quoted)
			break;
	}
	return (p);
}

/* The argument after "=" at p; returns where it ends. */
static const char *
rfc_directive_value(const char *p, const char *e, struct rfc_directive *d)
{
	const char *q;

	if (p < e && *p == '"') {
		for (q = p + 1; q < e && *q != '"'; q++)
			if (*q == '\\' && q + 1 < e)
				q++;
		if (q >= e) {
			d->malformed = 1;	/* unterminated */
			return (e);
		}
		d->value = TXT_Make(p + 1, q);
		return (q + 1);
	}
	for (q = p; q < e && rfc_is_tchar(*q); q++)
		continue;
	d->value = TXT_Make(p, q);
	if (q == p)
		d->malformed = 1;	/* "name=" */
	return (q);
}

/*
 * The next element of the list at *pp (up to e).  Returns 0 when there
 * is none; else fills d (d->malformed when the element breaks the
 * grammar; its name is still given when one could be read) and moves
 * *pp past the element.
 */
static int
rfc_directive_next(const char **pp, const char *e, struct rfc_directive *d)
{
	const char *p = *pp, *q;

	while (p < e && (rfc_is_ows(*p) || *p == ','))
		p++;
	if (p == e)
		return (0);
	INIT_OBJ(d, RFC_DIRECTIVE_MAGIC);
	for (q = p; q < e && rfc_is_tchar(*q); q++)
		continue;
	d->name = TXT_Make(p, q);
	if (q == p)
		d->malformed = 1;
	p = rfc_skip_ows(q, e);
	if (!d->malformed && p < e && *p == '=')
		p = rfc_directive_value(rfc_skip_ows(p + 1, e), e, d);
	p = rfc_skip_ows(p, e);
	if (p < e && *p != ',') {
		d->malformed = 1;
		p = rfc_skip_element(p, e);
	}
	*pp = p;
	return (1);
}

/*--------------------------------------------------------------------
 * The directives that decide freshness and storability.
 */

enum rfc_dir {
	RFC_DIR_MAX_AGE,
	RFC_DIR_S_MAXAGE,
	RFC_DIR_NO_STORE,
	RFC_DIR_NO_CACHE,
	RFC_DIR_PRIVATE,
	RFC_DIR_PUBLIC,
	RFC_DIR_MUST_REVALIDATE,
	RFC_DIR_PROXY_REVALIDATE,
	RFC_DIR_IMMUTABLE,
	RFC_DIR_SWR,
	RFC_DIR_SIE,			/* < 32: struct rfc_cc's seen */
};

/* Which header's rules apply. */
enum rfc_source {
	RFC_SRC_SURROGATE,	/* Surrogate-Control: max-age, no-store */
	RFC_SRC_CDN,		/* CDN-Cache-Control: strict syntax */
	RFC_SRC_CC,		/* Cache-Control */
};

static const struct rfc_dir_name {
	const char	*name;
	enum rfc_dir	dir;
	unsigned	restrictive;	/* honored even when malformed */
} rfc_dir_names[] = {
	{ "max-age",		RFC_DIR_MAX_AGE,		1 },
	{ "s-maxage",		RFC_DIR_S_MAXAGE,		1 },
	{ "no-store",		RFC_DIR_NO_STORE,		1 },
	{ "no-cache",		RFC_DIR_NO_CACHE,		1 },
	{ "private",		RFC_DIR_PRIVATE,		1 },
	{ "public",		RFC_DIR_PUBLIC,			0 },
	{ "must-revalidate",	RFC_DIR_MUST_REVALIDATE,	1 },
	{ "proxy-revalidate",	RFC_DIR_PROXY_REVALIDATE,	1 },
	{ "immutable",		RFC_DIR_IMMUTABLE,		0 },
	{ "stale-while-revalidate", RFC_DIR_SWR,		0 },
	{ "stale-if-error",	RFC_DIR_SIE,			0 },
};

/* What one header's directives said. */
struct rfc_cc {
	unsigned	magic;
#define RFC_CC_MAGIC		0x9ba1e2d7
	unsigned	seen;		/* 1U << enum rfc_dir, first instance */
	unsigned	elements;	/* list elements, malformed included */
	unsigned	malformed;	/* elements breaking the grammar */
	double		max_age;	/* -1: invalid */
	double		s_maxage;	/* -1: invalid */
	double		swr;		/* -1: invalid */
	double		sie;		/* -1: invalid */
	double		sc_stale;	/* Surrogate-Control max-age=N+M: M */
};

#define RFC_HAS(cc, d)		(((cc)->seen & (1U << (d))) != 0)

static const struct rfc_dir_name *
rfc_dir_lookup(struct txt name)
{
	size_t u;

	for (u = 0; u < ARRAY_SIZE(rfc_dir_names); u++)
		if (TXT_EqCase(name, rfc_dir_names[u].name))
			return (&rfc_dir_names[u]);
	return (NULL);
}

/* Surrogate-Control's max-age=N or max-age=N+M (M: time to serve stale). */
static void
rfc_sc_max_age(struct rfc_cc *cc, struct txt v)
{
	const char *plus;

	plus = v.b == NULL ? NULL : memchr(v.b, '+', TXT_LEN(v));
	if (plus == NULL) {
		cc->max_age = rfc_delta_seconds(v);
		return;
	}
	cc->max_age = rfc_delta_seconds(TXT_Make(v.b, plus));
	cc->sc_stale = rfc_delta_seconds(TXT_Make(plus + 1, v.e));
	if (cc->max_age < 0)
		cc->sc_stale = -1;
}

/* Record one directive of src's header in cc. */
static void
rfc_cc_apply(struct rfc_cc *cc, const struct rfc_directive *d,
    enum rfc_source src)
{
	const struct rfc_dir_name *dn;
	struct txt v = d->value;

	CHECK_OBJ(cc, RFC_CC_MAGIC);
	CHECK_OBJ(d, RFC_DIRECTIVE_MAGIC);
	cc->elements++;
	if (d->malformed)
		cc->malformed++;
	dn = rfc_dir_lookup(d->name);
	if (dn == NULL || RFC_HAS(cc, dn->dir))
		return;
	if (d->malformed) {
		/*
		 * Surrogate-Control: "name;device" targets another
		 * surrogate.  Cache-Control: keep what only restricts
		 * (RFC 9111 4.2.1: the most restrictive wins), with no
		 * valid value.
		 */
		if (src != RFC_SRC_CC || !dn->restrictive)
			return;
		v = TXT_Make(NULL, NULL);
	}
	if (src == RFC_SRC_SURROGATE && dn->dir != RFC_DIR_MAX_AGE &&
	    dn->dir != RFC_DIR_NO_STORE)
		return;
	cc->seen |= 1U << dn->dir;
	switch (dn->dir) {
	case RFC_DIR_MAX_AGE:
		if (src == RFC_SRC_SURROGATE)
			rfc_sc_max_age(cc, v);
		else
			cc->max_age = rfc_delta_seconds(v);
		break;
	case RFC_DIR_S_MAXAGE:
		cc->s_maxage = rfc_delta_seconds(v);
		break;
	case RFC_DIR_SWR:
		cc->swr = rfc_delta_seconds(v);
		break;
	case RFC_DIR_SIE:
		cc->sie = rfc_delta_seconds(v);
		break;
	default:
		/* Flags; no-cache="f" and private="f" count unqualified. */
		break;
	}
}

/* Parse every instance of header name with src's rules. */
static void
rfc_cc_parse(struct rfc_cc *cc, const struct http *hp, const char *name,
    enum rfc_source src)
{
	struct rfc_directive d;
	struct txt v;
	const char *p;
	unsigned u;

	INIT_OBJ(cc, RFC_CC_MAGIC);
	cc->max_age = cc->s_maxage = cc->swr = cc->sie = cc->sc_stale = -1;
	for (u = HTTP_FindHdr(hp, name, 0); u != 0;
	    u = HTTP_FindHdr(hp, name, u + 1)) {
		v = HTTP_HdrValue(hp, u);
		p = v.b;
		while (rfc_directive_next(&p, v.e, &d))
			rfc_cc_apply(cc, &d, src);
	}
}

/*
 * Pick the header whose directives decide and parse it into cc.
 * Surrogate-Control decides when it holds an untargeted max-age or
 * no-store (else it is only about ESI and the like);
 * CDN-Cache-Control when it is non-empty and well-formed (RFC 9213 2.1);
 * else Cache-Control.  Returns the header's name, or NULL when none of
 * them is present.
 */
static const char *
rfc_cc_select(const struct http *hp, struct rfc_cc *cc)
{

	rfc_cc_parse(cc, hp, "Surrogate-Control", RFC_SRC_SURROGATE);
	if (cc->seen != 0)
		return ("Surrogate-Control");
	rfc_cc_parse(cc, hp, "CDN-Cache-Control", RFC_SRC_CDN);
	if (cc->elements > 0 && cc->malformed == 0)
		return ("CDN-Cache-Control");
	rfc_cc_parse(cc, hp, "Cache-Control", RFC_SRC_CC);
	if (HTTP_FindHdr(hp, "Cache-Control", 0) != 0)
		return ("Cache-Control");
	return (NULL);
}

/*--------------------------------------------------------------------
 * RFC_Ttl
 */

#define RFC_S10(p)	p "0", p "1", p "2", p "3", p "4", \
			p "5", p "6", p "7", p "8", p "9"
#define RFC_S100(p)	RFC_S10(p "0"), RFC_S10(p "1"), RFC_S10(p "2"), \
			RFC_S10(p "3"), RFC_S10(p "4"), RFC_S10(p "5"), \
			RFC_S10(p "6"), RFC_S10(p "7"), RFC_S10(p "8"), \
			RFC_S10(p "9")

/* "status 100" .. "status 999", so reasons stay static strings. */
static const char * const rfc_status_reason[] = {
	RFC_S100("status 1"), RFC_S100("status 2"), RFC_S100("status 3"),
	RFC_S100("status 4"), RFC_S100("status 5"), RFC_S100("status 6"),
	RFC_S100("status 7"), RFC_S100("status 8"), RFC_S100("status 9"),
};

static const char *
rfc_status_str(unsigned status)
{

	if (status < 100 || status > 999)
		return ("status invalid");
	return (rfc_status_reason[status - 100]);
}

/* Statuses a cache may store, but only with explicit freshness. */
static int
rfc_status_understood(unsigned status)
{

	/* We do not store partial content (RFC 9111 3.3). */
	return (status >= 200 && status <= 599 && status != 206);
}

/* Statuses given the default TTL without explicit freshness. */
static int
rfc_status_default(unsigned status)
{

	switch (status) {
	case 200: case 203: case 204: case 300: case 301: case 304:
	case 308: case 404: case 410: case 414:
		return (1);
	default:
		return (0);
	}
}

/* RFC 9111 4.2.3, with the clock skew rule of rfc.h. */
static void
rfc_ttl_origin(struct rfc_ttl *rt, vtim_real t_req, vtim_real t_resp)
{
	vtim_dur apparent_age = 0, response_delay, corrected_age;

	/*
	 * The transit time corrects an Age an upstream cache gave; a
	 * response from the origin itself is as old as its Date says, and
	 * the time the origin took to answer does not shorten its life
	 * (Varnish does not count it either).
	 */
	response_delay = t_resp > t_req && rt->age >= 0 ? t_resp - t_req : 0;
	corrected_age = (rt->age >= 0 ? rt->age : 0) + response_delay;
	if (rt->date >= 0 && rt->date >= t_req - RFC_CLOCK_SKEW &&
	    rt->date <= t_resp + RFC_CLOCK_SKEW && t_resp > rt->date)
		apparent_age = t_resp - rt->date;
	rt->t_origin = t_resp -
	    (apparent_age > corrected_age ? apparent_age : corrected_age);
}

/*
 * RFC 9111 4.2.1: s-maxage, max-age, Expires - Date; no-cache wins.
 * Returns whether the response gave explicit freshness.
 */
static unsigned
rfc_ttl_lifetime(struct rfc_ttl *rt, const struct rfc_cc *cc,
    const struct http *hp, vtim_real t_resp, unsigned use_expires)
{
	double d = -1;
	unsigned explicit = 1;

	if (RFC_HAS(cc, RFC_DIR_S_MAXAGE))
		d = cc->s_maxage;
	else if (RFC_HAS(cc, RFC_DIR_MAX_AGE))
		d = cc->max_age;
	if (RFC_HAS(cc, RFC_DIR_S_MAXAGE) || RFC_HAS(cc, RFC_DIR_MAX_AGE)) {
		/* Invalid freshness information is stale (4.2.1). */
		rt->max_age = d;
		rt->ttl = d < 0 ? 0 : d;
	} else if (use_expires && HTTP_FindHdr(hp, "Expires", 0) != 0) {
		/* Invalid dates, "0" first, are in the past (5.3). */
		rt->expires = rfc_hdr_date(hp, "Expires");
		if (rt->expires < 0)
			rt->ttl = 0;
		else
			rt->ttl = rt->expires -
			    (rt->date >= 0 ? rt->date : t_resp);
		if (rt->ttl < 0)
			rt->ttl = 0;
	} else {
		explicit = 0;
	}
	if (RFC_HAS(cc, RFC_DIR_NO_CACHE))
		rt->ttl = 0;
	return (explicit);
}

static void
rfc_ttl_flags(struct rfc_ttl *rt, const struct rfc_cc *cc,
    const struct http *hp)
{

	if (RFC_HAS(cc, RFC_DIR_NO_CACHE))
		rt->flags |= RFC_F_NO_CACHE;
	if (RFC_HAS(cc, RFC_DIR_MUST_REVALIDATE) ||
	    RFC_HAS(cc, RFC_DIR_PROXY_REVALIDATE) ||
	    RFC_HAS(cc, RFC_DIR_S_MAXAGE))
		rt->flags |= RFC_F_MUST_REVALIDATE;
	if (RFC_HAS(cc, RFC_DIR_IMMUTABLE))
		rt->flags |= RFC_F_IMMUTABLE;
	if (rfc_status_default(hp->status))
		rt->flags |= RFC_F_DEFAULT_CACHEABLE;
	if (HTTP_FindHdr(hp, "ETag", 0) != 0 ||
	    HTTP_FindHdr(hp, "Last-Modified", 0) != 0)
		rt->flags |= RFC_F_HAS_VALIDATOR;
	if (RFC_HAS(cc, RFC_DIR_SWR) && cc->swr >= 0)
		rt->grace = cc->swr;
	else if (cc->sc_stale >= 0)
		rt->grace = cc->sc_stale;
	if (RFC_HAS(cc, RFC_DIR_SIE) && cc->sie >= 0)
		rt->stale_if_error = cc->sie;
}

/* Does any Vary line list "*"?  (Malformed names count as "*".) */
static int
rfc_vary_star(const struct http *hp)
{
	char c;

	if (HTTP_FindHdr(hp, "Vary", 0) == 0)
		return (0);
	return (RFC_VaryNames(hp, &c, 1) == -1);
}

/* The first reason not to store, or NULL. */
static const char *
rfc_ttl_uncacheable(const struct rfc_ttl *rt, const struct rfc_cc *cc,
    const struct http *hp, unsigned explicit)
{

	if (!rfc_status_understood(hp->status))
		return (rfc_status_str(hp->status));
	if (RFC_HAS(cc, RFC_DIR_NO_STORE))
		return ("no-store");
	if (RFC_HAS(cc, RFC_DIR_PRIVATE))
		return ("private");
	if (rfc_vary_star(hp))
		return ("Vary: *");
	if (!(rt->flags & RFC_F_DEFAULT_CACHEABLE) && !explicit)
		return (rfc_status_str(hp->status));
	return (NULL);
}

void
RFC_Ttl(const struct http *beresp, vtim_real t_req, vtim_real t_resp,
    struct rfc_ttl *out)
{
	struct rfc_cc cc;
	struct txt v;
	unsigned targeted, explicit;

	CHECK_OBJ(beresp, HTTP_MAGIC);
	assert(out != NULL);
	INIT_OBJ(out, RFC_TTL_MAGIC);
	out->ttl = out->grace = -1;
	out->age = out->expires = out->max_age = -1;
	out->date = rfc_hdr_date(beresp, "Date");
	if (HTTP_GetHdr(beresp, "Age", &v))
		out->age = rfc_delta_seconds(v);
	rfc_ttl_origin(out, t_req, t_resp);

	out->cc_source = rfc_cc_select(beresp, &cc);
	/* A targeted header overrides Expires too (RFC 9213 2.1). */
	targeted = out->cc_source != NULL &&
	    strcmp(out->cc_source, "Cache-Control") != 0;
	explicit = rfc_ttl_lifetime(out, &cc, beresp, t_resp, !targeted);
	explicit |= RFC_HAS(&cc, RFC_DIR_PUBLIC);
	rfc_ttl_flags(out, &cc, beresp);
	out->uncacheable = rfc_ttl_uncacheable(out, &cc, beresp, explicit);
}

/*--------------------------------------------------------------------
 * RFC_VaryNames
 */

/*
 * Insert name n (length l, any case) into the sorted list of *used bytes
 * in buf.  Returns 0 (inserted or already there) or -1 when out of room.
 */
static int
rfc_vary_insert(char *buf, size_t len, size_t *used, const char *n,
    size_t l)
{
	size_t pos, i, el;
	int cmp;

	for (pos = 0; pos < *used; pos += el + 1) {
		el = strlen(buf + pos);
		cmp = 0;
		for (i = 0; cmp == 0 && i < l && i < el; i++)
			cmp = (unsigned char)TXT_Lower(n[i]) -
			    (unsigned char)buf[pos + i];
		if (cmp == 0)
			cmp = (l > el) - (l < el);
		if (cmp == 0)
			return (0);
		if (cmp < 0)
			break;
	}
	/* Room for the name, its NUL and the list's final NUL. */
	if (len - *used < l + 2)
		return (-1);
	memmove(buf + pos + l + 1, buf + pos, *used - pos);
	for (i = 0; i < l; i++)
		buf[pos + i] = TXT_Lower(n[i]);
	buf[pos + l] = '\0';
	*used += l + 1;
	return (0);
}

int
RFC_VaryNames(const struct http *beresp, char *buf, size_t len)
{
	struct txt v, n;
	const char *p;
	size_t used = 0;
	unsigned u, star = 0, full = 0;
	int names = 0;

	CHECK_OBJ(beresp, HTTP_MAGIC);
	assert(buf != NULL);
	assert(len > 0);
	for (u = HTTP_FindHdr(beresp, "Vary", 0); u != 0 && !star;
	    u = HTTP_FindHdr(beresp, "Vary", u + 1)) {
		v = HTTP_HdrValue(beresp, u);
		p = v.b;
		while (!star && rfc_list_next(&p, v.e, &n)) {
			if (n.b == n.e)
				continue;
			if (!rfc_is_token(n) || TXT_Eq(n, "*"))
				star = 1;
			else if (!full && rfc_vary_insert(buf, len, &used,
			    n.b, TXT_LEN(n)) != 0)
				full = 1;
		}
	}
	if (star)
		return (-1);
	if (full)
		return (-2);
	buf[used] = '\0';
	for (p = buf; *p != '\0'; p += strlen(p) + 1)
		names++;
	return (names);
}

/*--------------------------------------------------------------------
 * Entity tags (RFC 9110 8.8.3)
 */

/*
 * entity-tag at *pp: [ "W/" ] DQUOTE *etagc DQUOTE.  Fills the opaque
 * tag (quotes included) and weak; moves *pp past it.  0 on bad syntax.
 */
static int
rfc_etag_parse(const char **pp, const char *e, struct txt *opaque,
    unsigned *weak)
{
	const char *p = *pp, *q;

	*weak = 0;
	if (e - p >= 2 && p[0] == 'W' && p[1] == '/') {
		*weak = 1;
		p += 2;
	}
	if (p >= e || *p != '"')
		return (0);
	q = memchr(p + 1, '"', (size_t)(e - p - 1));
	if (q == NULL)
		return (0);
	*opaque = TXT_Make(p, q + 1);
	*pp = q + 1;
	return (1);
}

/* A header that must hold exactly one entity-tag; 0 when it does not. */
static int
rfc_etag_hdr(const struct http *hp, const char *name, struct txt *opaque,
    unsigned *weak)
{
	struct txt v;
	const char *p;

	if (!HTTP_GetHdr(hp, name, &v))
		return (0);
	p = v.b;
	return (rfc_etag_parse(&p, v.e, opaque, weak) && p == v.e);
}

static int
rfc_opaque_eq(struct txt a, struct txt b)
{

	return (TXT_LEN(a) == TXT_LEN(b) &&
	    memcmp(a.b, b.b, TXT_LEN(a)) == 0);
}

/*
 * Does the list v ("*" / #entity-tag) match opaque, weakly?  "*" matches
 * any stored representation, even without an ETag (opaque.b == NULL).
 */
static int
rfc_etag_list_match(struct txt v, struct txt opaque)
{
	const char *p = v.b;
	struct txt t;
	unsigned weak, star;

	while (p < v.e) {
		while (p < v.e && (rfc_is_ows(*p) || *p == ','))
			p++;
		if (p == v.e)
			break;
		t = TXT_Make(NULL, NULL);
		star = *p == '*';
		/* A bad tag leaves t.b NULL and p where it was. */
		if (star)
			p++;
		else
			(void)rfc_etag_parse(&p, v.e, &t, &weak);
		p = rfc_skip_ows(p, v.e);
		if (p < v.e && *p != ',') {
			/* Trailing junk: the element is bad. */
			while (p < v.e && *p != ',')
				p++;
			continue;
		}
		if (star)
			return (1);
		if (t.b != NULL && opaque.b != NULL &&
		    rfc_opaque_eq(t, opaque))
			return (1);
	}
	return (0);
}

/*--------------------------------------------------------------------
 * RFC_NotModified
 */

static int
rfc_if_none_match(const struct http *req, const struct http *obj)
{
	struct txt opaque;
	unsigned u, weak;

	if (!rfc_etag_hdr(obj, "ETag", &opaque, &weak))
		opaque = TXT_Make(NULL, NULL);
	for (u = HTTP_FindHdr(req, "If-None-Match", 0); u != 0;
	    u = HTTP_FindHdr(req, "If-None-Match", u + 1))
		if (rfc_etag_list_match(HTTP_HdrValue(req, u), opaque))
			return (1);
	return (0);
}

static int
rfc_if_modified_since(const struct http *req, const struct http *obj)
{
	vtim_real ims, lm;

	/* Ignored when absent, repeated or invalid (RFC 9110 13.1.3). */
	if (HTTP_CountHdr(req, "If-Modified-Since") != 1)
		return (0);
	ims = rfc_hdr_date(req, "If-Modified-Since");
	if (ims < 0 || ims > TIM_real())
		return (0);
	lm = rfc_hdr_date(obj, "Last-Modified");
	return (lm >= 0 && lm <= ims);
}

int
RFC_NotModified(const struct http *req, const struct http *obj)
{

	CHECK_OBJ(req, HTTP_MAGIC);
	CHECK_OBJ(obj, HTTP_MAGIC);
	if (!rfc_method_is(req, "GET") && !rfc_method_is(req, "HEAD"))
		return (0);
	if (obj->status != 200)
		return (0);
	if (HTTP_FindHdr(req, "If-None-Match", 0) != 0)
		return (rfc_if_none_match(req, obj));
	return (rfc_if_modified_since(req, obj));
}

/*--------------------------------------------------------------------
 * RFC_Range
 */

/* If-Range (RFC 9110 13.1.5): may the Range header be honored? */
static int
rfc_if_range(const struct http *req, const struct http *obj)
{
	struct txt v, t, o;
	const char *p;
	unsigned weak, oweak;
	vtim_real d, lm;

	if (!HTTP_GetHdr(req, "If-Range", &v))
		return (1);
	if (HTTP_CountHdr(req, "If-Range") != 1)
		return (0);
	if (v.b < v.e && (*v.b == '"' || (v.e - v.b >= 2 &&
	    v.b[0] == 'W' && v.b[1] == '/'))) {
		/* Strong comparison: weak tags never match. */
		p = v.b;
		if (!rfc_etag_parse(&p, v.e, &t, &weak) || p != v.e || weak)
			return (0);
		if (!rfc_etag_hdr(obj, "ETag", &o, &oweak) || oweak)
			return (0);
		return (rfc_opaque_eq(t, o));
	}
	d = TIM_parse(v.b, v.e);
	lm = rfc_hdr_date(obj, "Last-Modified");
	return (d != 0 && lm >= 0 && d == lm);
}

/* One range-spec at *pp: int-range or suffix-range.  0 on bad syntax. */
static int
rfc_range_spec(const char **pp, const char *e, uint64_t *first,
    uint64_t *last, unsigned *suffix)
{
	const char *p = *pp;

	*suffix = 0;
	*last = UINT64_MAX;
	if (p < e && *p == '-') {
		p++;
		*suffix = 1;
		if (!rfc_parse_u64(&p, e, last))
			return (0);
		*pp = p;
		return (1);
	}
	if (!rfc_parse_u64(&p, e, first) || p >= e || *p != '-')
		return (0);
	p++;
	if (p < e && rfc_is_digit(*p)) {
		(void)rfc_parse_u64(&p, e, last);	/* a digit is there */
		if (*last < *first)
			return (0);
	}
	*pp = p;
	return (1);
}

/*
 * Resolve one spec against len into [lo, hi].  Returns RFC_RANGE_OK,
 * RFC_RANGE_UNSATISFIABLE or RFC_RANGE_NONE (cannot say yet: suffix of
 * an unknown length, or a range of an empty representation).
 */
static int
rfc_range_resolve(uint64_t first, uint64_t last, unsigned suffix,
    uint64_t len, uint64_t *lo, uint64_t *hi)
{

	if (suffix) {
		if (last == 0)
			return (RFC_RANGE_UNSATISFIABLE);
		if (len == RFC_LEN_UNKNOWN || len == 0)
			return (RFC_RANGE_NONE);
		*lo = last >= len ? 0 : len - last;
		*hi = len - 1;
		return (RFC_RANGE_OK);
	}
	if (len == RFC_LEN_UNKNOWN) {
		if (first == UINT64_MAX)
			return (RFC_RANGE_NONE);
		*lo = first;
		*hi = last;
		return (RFC_RANGE_OK);
	}
	if (first >= len)
		return (RFC_RANGE_UNSATISFIABLE);
	*lo = first;
	*hi = last >= len ? len - 1 : last;
	return (RFC_RANGE_OK);
}

int
RFC_Range(const struct http *req, const struct http *obj, uint64_t len,
    uint64_t *lo, uint64_t *hi)
{
	struct txt v;
	const char *p, *q;
	uint64_t first = 0, last = 0, l = 0, h = 0;
	unsigned suffix, specs = 0, satisfiable = 0;
	int r, ret = RFC_RANGE_UNSATISFIABLE;

	CHECK_OBJ(req, HTTP_MAGIC);
	CHECK_OBJ(obj, HTTP_MAGIC);
	assert(lo != NULL && hi != NULL);
	/* Range is defined for GET only (RFC 9110 14.2). */
	if (!rfc_method_is(req, "GET") || obj->status != 200 ||
	    !HTTP_GetHdr(req, "Range", &v) ||
	    HTTP_CountHdr(req, "Range") != 1 || !rfc_if_range(req, obj))
		return (RFC_RANGE_NONE);
	for (q = v.b; q < v.e && rfc_is_tchar(*q); q++)
		continue;
	if (!TXT_EqCase(TXT_Make(v.b, q), "bytes"))
		return (RFC_RANGE_NONE);
	p = rfc_skip_ows(q, v.e);
	if (p >= v.e || *p != '=')
		return (RFC_RANGE_NONE);
	p++;
	while (p < v.e) {
		while (p < v.e && (rfc_is_ows(*p) || *p == ','))
			p++;
		if (p == v.e)
			break;
		if (!rfc_range_spec(&p, v.e, &first, &last, &suffix))
			return (RFC_RANGE_NONE);
		p = rfc_skip_ows(p, v.e);
		if (p < v.e && *p != ',')
			return (RFC_RANGE_NONE);
		specs++;
		r = rfc_range_resolve(first, last, suffix, len, &l, &h);
		if (r == RFC_RANGE_UNSATISFIABLE)
			continue;
		if (satisfiable++ == 0) {
			ret = r;
			*lo = l;
			*hi = h;
		}
	}
	if (specs == 0)
		return (RFC_RANGE_NONE);
	if (satisfiable == 0)
		return (RFC_RANGE_UNSATISFIABLE);
	if (specs > 1)
		return (RFC_RANGE_MULTI);
	return (ret);
}

/*--------------------------------------------------------------------
 * gzip (Varnish's http_gzip_support)
 */

/*
 * Is the q value in one Accept-Encoding element's parameters [p, e)
 * above zero?  No q is 1; a q not starting with a digit or '.' is 0.
 */
static int
rfc_q_positive(const char *p, const char *e)
{
	const char *v;

	for (;;) {
		while (p < e && *p != ';')
			p++;
		if (p == e)
			return (1);
		p++;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e || *p != 'q')
			continue;
		for (v = p + 1; v < e && (*v == ' ' || *v == '\t'); v++)
			continue;
		if (v == e || *v != '=')
			continue;
		for (v++; v < e && (*v == ' ' || *v == '\t'); v++)
			continue;
		if (v == e || (*v != '.' && (*v < '0' || *v > '9')))
			return (0);
		for (; v < e && ((*v >= '0' && *v <= '9') || *v == '.'); v++)
			if (*v >= '1' && *v <= '9')
				return (1);
		return (0);
	}
}

int
RFC_AcceptsGzip(const struct http *req)
{
	struct txt v;
	const char *p, *q, *t;
	unsigned u;
	int gzip = -1;

	for (u = HTTP_FindHdr(req, "Accept-Encoding", 0); u != 0;
	    u = HTTP_FindHdr(req, "Accept-Encoding", u + 1)) {
		v = HTTP_HdrValue(req, u);
		for (p = v.b; p < v.e; p = q + 1) {
			while (p < v.e && (*p == ' ' || *p == '\t' ||
			    *p == ','))
				p++;
			for (q = p; q < v.e && *q != ','; q++)
				continue;
			for (t = p; t < q && *t != ';' && *t != ' ' &&
			    *t != '\t'; t++)
				continue;
			/* x-gzip has no q (RFC 2616 14.3): there, it is. */
			if (t - p == 6 && !strncasecmp(p, "x-gzip", 6))
				return (1);
			if (gzip < 0 && t - p == 4 && !strncasecmp(p, "gzip", 4))
				gzip = rfc_q_positive(t, q);
			if (q == v.e)
				break;
		}
	}
	return (gzip > 0);
}

int
RFC_WeakenEtag(struct http *hp)
{
	struct txt v;

	if (!HTTP_GetHdr(hp, "ETag", &v) || TXT_LEN(v) < 2 ||
	    (v.b[0] == 'W' && v.b[1] == '/'))
		return (0);
	HTTP_Unset(hp, "ETag");
	return (HTTP_PrintfHeader(hp, "ETag: W/%.*s", (int)TXT_LEN(v), v.b));
}

int
RFC_VaryAcceptEncoding(struct http *hp)
{
	struct txt v;

	if (HTTP_HdrHasToken(hp, "Vary", "Accept-Encoding"))
		return (0);
	if (HTTP_CountHdr(hp, "Vary") != 1 || !HTTP_GetHdr(hp, "Vary", &v))
		return (HTTP_SetHeader(hp, "Vary: Accept-Encoding"));
	HTTP_Unset(hp, "Vary");
	return (HTTP_PrintfHeader(hp, "Vary: %.*s, Accept-Encoding",
	    (int)TXT_LEN(v), v.b));
}

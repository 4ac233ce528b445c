/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http.c -- looking up and changing the headers of a struct http.  See
 * http.h.  No locks: a struct http belongs to one transaction.
 */

#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/fmt.h"
#include "common/miniobj.h"
#include "cache/http.h"
#include "cache/vsl.h"
#include "cache/ws.h"

/* The log tag for slot u: start-line tags, or Header for any header. */
static inline enum VSL_tag_e
http_tag(const struct http *hp, unsigned u)
{

	return ((enum VSL_tag_e)((unsigned)hp->logtag +
	    (u < HTTP_HDR_FIRST ? u : HTTP_HDR_FIRST)));
}

static inline enum VSL_tag_e
http_tag_unset(const struct http *hp)
{

	return ((enum VSL_tag_e)((unsigned)hp->logtag + HTTP_HDR_UNSET));
}

void
HTTP_Setup(struct http *hp, struct ws *ws, struct txt *hd,
    unsigned char *hdf, unsigned shd, struct vsl_log *vsl,
    enum VSL_tag_e logtag)
{

	assert(hp != NULL);
	assert(shd > HTTP_HDR_FIRST && shd <= 65535);
	INIT_OBJ(hp, HTTP_MAGIC);
	hp->ws = ws;
	hp->hd = hd;
	hp->hdf = hdf;
	hp->shd = (uint16_t)shd;
	hp->vsl = vsl;
	hp->logtag = logtag;
	HTTP_Clear(hp);
}

struct http *
HTTP_New(struct ws *ws, unsigned nhdr, struct vsl_log *vsl,
    enum VSL_tag_e logtag)
{
	struct http *hp;
	struct txt *hd;
	unsigned char *hdf;
	unsigned n = nhdr + HTTP_HDR_FIRST;

	hp = WS_Alloc(ws, sizeof *hp);
	hd = WS_Alloc(ws, n * sizeof *hd);
	hdf = WS_Alloc(ws, n);
	if (hp == NULL || hd == NULL || hdf == NULL)
		return (NULL);
	HTTP_Setup(hp, ws, hd, hdf, n, vsl, logtag);
	return (hp);
}

void
HTTP_Clear(struct http *hp)
{

	CHECK_OBJ(hp, HTTP_MAGIC);
	/*
	 * Only the start line: no one reads a header slot at or past nhd,
	 * and clearing all of them cost a kilobyte of stores per message.
	 * The flags are cleared whole: they are tiny, and a stale flag would
	 * silently filter a header.
	 */
	memset(hp->hd, 0, HTTP_HDR_FIRST * sizeof *hp->hd);
	memset(hp->hdf, 0, hp->shd);
	hp->nhd = HTTP_HDR_FIRST;
	hp->status = 0;
	hp->protover = 0;
}

int
HTTP_IsHdr(const struct http *hp, unsigned u, const char *name, size_t l)
{
	const struct txt *t = &hp->hd[u];

	if (t->b == NULL || TXT_LEN(*t) <= l || t->b[l] != ':')
		return (0);
	return (strncasecmp(t->b, name, l) == 0);
}

unsigned
HTTP_FindHdr(const struct http *hp, const char *name, unsigned from)
{
	size_t l = strlen(name);
	unsigned u;

	CHECK_OBJ(hp, HTTP_MAGIC);
	if (from < HTTP_HDR_FIRST)
		from = HTTP_HDR_FIRST;
	for (u = from; u < hp->nhd; u++)
		if (HTTP_IsHdr(hp, u, name, l))
			return (u);
	return (0);
}

struct txt
HTTP_HdrValue(const struct http *hp, unsigned u)
{
	struct txt t;
	const char *p;

	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(u >= HTTP_HDR_FIRST && u < hp->nhd);
	t = hp->hd[u];
	p = memchr(t.b, ':', TXT_LEN(t));
	assert(p != NULL);
	t.b = p + 1;
	while (t.b < t.e && (*t.b == ' ' || *t.b == '\t'))
		t.b++;
	while (t.e > t.b && (t.e[-1] == ' ' || t.e[-1] == '\t'))
		t.e--;
	return (t);
}

int
HTTP_GetHdr(const struct http *hp, const char *name, struct txt *val)
{
	unsigned u;

	u = HTTP_FindHdr(hp, name, HTTP_HDR_FIRST);
	if (u == 0)
		return (0);
	if (val != NULL)
		*val = HTTP_HdrValue(hp, u);
	return (1);
}

unsigned
HTTP_CountHdr(const struct http *hp, const char *name)
{
	unsigned u, n = 0;

	for (u = HTTP_FindHdr(hp, name, 0); u != 0;
	    u = HTTP_FindHdr(hp, name, u + 1))
		n++;
	return (n);
}

/*
 * The next element of the comma-separated list at *pp (before e), blanks
 * trimmed, empty ones skipped; moves *pp past it.  0 when none is left.
 */
static int
http_list_next(const char **pp, const char *e, struct txt *elem)
{
	const char *p = *pp, *q, *r;

	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == ','))
			p++;
		if (p == e) {
			*pp = p;
			return (0);
		}
		for (q = p; q < e && *q != ','; q++)
			continue;
		for (r = q; r > p && (r[-1] == ' ' || r[-1] == '\t'); r--)
			continue;
		if (r > p) {
			*elem = TXT_Make(p, r);
			*pp = q;
			return (1);
		}
		p = q;
	}
}

/* Does the comma-separated list v hold token tok (case-insensitive)? */
static int
http_list_has(struct txt v, const char *tok)
{
	struct txt elem;
	const char *p = v.b;

	while (http_list_next(&p, v.e, &elem))
		if (TXT_EqCase(elem, tok))
			return (1);
	return (0);
}

int
HTTP_HdrHasToken(const struct http *hp, const char *name, const char *tok)
{
	unsigned u;

	for (u = HTTP_FindHdr(hp, name, 0); u != 0;
	    u = HTTP_FindHdr(hp, name, u + 1))
		if (http_list_has(HTTP_HdrValue(hp, u), tok))
			return (1);
	return (0);
}

int
HTTP_HdrIsOnly(const struct http *hp, const char *name, const char *tok)
{
	struct txt v, elem;
	const char *p;
	unsigned u, n = 0;

	for (u = HTTP_FindHdr(hp, name, 0); u != 0;
	    u = HTTP_FindHdr(hp, name, u + 1)) {
		v = HTTP_HdrValue(hp, u);
		for (p = v.b; http_list_next(&p, v.e, &elem); n++)
			if (!TXT_EqCase(elem, tok))
				return (0);
	}
	return (n > 0);
}

static int
http_add(struct http *hp, const char *b, const char *e)
{

	if (hp->nhd >= hp->shd) {
		VSLbt(hp->vsl, SLT_LostHeader, TXT_Make(b, e));
		return (-1);
	}
	hp->hd[hp->nhd].b = b;
	hp->hd[hp->nhd].e = e;
	hp->hdf[hp->nhd] = 0;
	VSLbt(hp->vsl, http_tag(hp, hp->nhd), hp->hd[hp->nhd]);
	hp->nhd++;
	return (0);
}

int
HTTP_SetHeader(struct http *hp, const char *line)
{

	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(line != NULL);
	return (http_add(hp, line, line + strlen(line)));
}

int
HTTP_PrintfHeader(struct http *hp, const char *fmt, ...)
{
	va_list ap;
	size_t avail;
	char *p;
	int n;

	CHECK_OBJ(hp, HTTP_MAGIC);
	avail = WS_ReserveAll(hp->ws);
	p = WS_Reservation(hp->ws);
	va_start(ap, fmt);
	n = avail == 0 ? 0 : FMT_Vsnprintf(p, avail, fmt, ap);
	va_end(ap);
	if ((size_t)n >= avail) {
		WS_Release(hp->ws, 0);
		WS_MarkOverflow(hp->ws);
		VSLb(hp->vsl, SLT_LostHeader, "%.20s (workspace full)", fmt);
		return (-1);
	}
	WS_Release(hp->ws, (size_t)n + 1);
	return (http_add(hp, p, p + n));
}

/* Remove the slots flagged HDF_UNSET, logging each as unset. */
static void
http_drop_unset(struct http *hp)
{
	unsigned u, v;

	for (u = v = HTTP_HDR_FIRST; u < hp->nhd; u++) {
		if (hp->hdf[u] & HDF_UNSET) {
			VSLbt(hp->vsl, http_tag_unset(hp), hp->hd[u]);
			continue;
		}
		if (u != v) {
			hp->hd[v] = hp->hd[u];
			hp->hdf[v] = hp->hdf[u];
		}
		v++;
	}
	hp->nhd = (uint16_t)v;
}

void
HTTP_Unset(struct http *hp, const char *name)
{
	size_t l = strlen(name);
	unsigned u;

	CHECK_OBJ(hp, HTTP_MAGIC);
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++)
		if (HTTP_IsHdr(hp, u, name, l))
			hp->hdf[u] |= HDF_UNSET;
	http_drop_unset(hp);
}

void
HTTP_SetSlot(struct http *hp, unsigned slot, const char *s)
{

	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(slot < HTTP_HDR_FIRST);
	assert(s != NULL);
	hp->hd[slot] = TXT_Str(s);
	hp->hdf[slot] = 0;
	VSLbt(hp->vsl, http_tag(hp, slot), hp->hd[slot]);
}

void
HTTP_SetStatus(struct http *hp, uint16_t status, const char *reason)
{
	static const char digits[] = "0123456789";
	char *p;

	CHECK_OBJ(hp, HTTP_MAGIC);
	/*
	 * As in Varnish, VCL may use statuses over 1000 internally: they
	 * read as set and go out modulo 1000 (the status line's digits).
	 */
	assert(status % 1000 >= 100);
	hp->status = status;
	status %= 1000;
	if (reason == NULL)
		reason = HTTP_Reason(status);
	p = WS_Alloc(hp->ws, 4);
	if (p == NULL) {
		hp->hd[HTTP_HDR_STATUS] = TXT_Str("503");
	} else {
		p[0] = digits[status / 100];
		p[1] = digits[(status / 10) % 10];
		p[2] = digits[status % 10];
		p[3] = '\0';
		hp->hd[HTTP_HDR_STATUS] = TXT_Make(p, p + 3);
	}
	VSLbt(hp->vsl, http_tag(hp, HTTP_HDR_STATUS), hp->hd[HTTP_HDR_STATUS]);
	HTTP_SetSlot(hp, HTTP_HDR_REASON, reason);
}

void
HTTP_Log(const struct http *hp)
{
	unsigned u;

	CHECK_OBJ(hp, HTTP_MAGIC);
	for (u = 0; u < hp->nhd; u++) {
		if (hp->hd[u].b == NULL)
			continue;
		VSLbt(hp->vsl, http_tag(hp, u), hp->hd[u]);
	}
}

void
HTTP_CopySlot(struct http *dst, const struct http *src, unsigned slot)
{

	CHECK_OBJ(dst, HTTP_MAGIC);
	CHECK_OBJ(src, HTTP_MAGIC);
	assert(slot < HTTP_HDR_FIRST);
	dst->hd[slot] = src->hd[slot];
	dst->hdf[slot] = 0;
}

int
HTTP_CopyHeaders(struct http *dst, const struct http *src)
{
	unsigned u;

	CHECK_OBJ(dst, HTTP_MAGIC);
	CHECK_OBJ(src, HTTP_MAGIC);
	for (u = HTTP_HDR_FIRST; u < src->nhd; u++) {
		if (src->hdf[u] & HDF_FILTER)
			continue;
		if (dst->nhd >= dst->shd) {
			VSLbt(dst->vsl, SLT_LostHeader, src->hd[u]);
			return (-1);
		}
		dst->hd[dst->nhd] = src->hd[u];
		dst->hdf[dst->nhd] = 0;
		dst->nhd++;
	}
	return (0);
}

int
HTTP_Detach(struct http *hp)
{
	unsigned u;
	char *p;

	CHECK_OBJ(hp, HTTP_MAGIC);
	for (u = 0; u < hp->nhd; u++) {
		if (hp->hd[u].b == NULL)
			continue;
		p = WS_Copy(hp->ws, hp->hd[u].b, TXT_LEN(hp->hd[u]));
		if (p == NULL)
			return (-1);
		hp->hd[u] = TXT_Make(p, p + TXT_LEN(hp->hd[u]));
	}
	return (0);
}

int
HTTP_Clone(struct http *dst, const struct http *src)
{

	CHECK_OBJ(dst, HTTP_MAGIC);
	CHECK_OBJ(src, HTTP_MAGIC);
	if (src->nhd > dst->shd)
		return (-1);
	memcpy(dst->hd, src->hd, src->nhd * sizeof *src->hd);
	memcpy(dst->hdf, src->hdf, src->nhd);
	dst->nhd = src->nhd;
	dst->status = src->status;
	dst->protover = src->protover;
	return (0);
}

/* Flag every instance of header name (length l). */
static void
http_filter_name(struct http *hp, const char *name, size_t l)
{
	unsigned u;

	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++) {
		if (hp->hd[u].b == NULL || TXT_LEN(hp->hd[u]) <= l ||
		    hp->hd[u].b[l] != ':')
			continue;
		if (!strncasecmp(hp->hd[u].b, name, l))
			hp->hdf[u] |= HDF_FILTER;
	}
}

void
HTTP_Filter(struct http *hp, const char *name)
{

	CHECK_OBJ(hp, HTTP_MAGIC);
	http_filter_name(hp, name, strlen(name));
}

/*
 * Call f on each token of every Connection line (split at commas and
 * blanks); stop when it returns non-zero, and return that.
 */
typedef int http_token_f(struct http *hp, const char *b, size_t l,
    void *priv);

static int
http_each_connection_token(struct http *hp, http_token_f *f, void *priv)
{
	struct txt v;
	const char *p, *q;
	unsigned u;
	int r;

	for (u = HTTP_FindHdr(hp, "Connection", 0); u != 0;
	    u = HTTP_FindHdr(hp, "Connection", u + 1)) {
		v = HTTP_HdrValue(hp, u);
		for (p = v.b; p < v.e; p = q) {
			while (p < v.e && (*p == ',' || *p == ' ' ||
			    *p == '\t'))
				p++;
			for (q = p; q < v.e && *q != ',' && *q != ' ' &&
			    *q != '\t'; q++)
				continue;
			if (q == p)
				continue;
			r = f(hp, p, (size_t)(q - p), priv);
			if (r != 0)
				return (r);
		}
	}
	return (0);
}

static int
http_is_name(const char *b, size_t l, const char *name)
{

	return (l == strlen(name) && !strncasecmp(b, name, l));
}

static int
http_filter_token(struct http *hp, const char *b, size_t l, void *priv)
{

	(void)priv;
	/* Host is end-to-end whatever a client says. */
	if (!http_is_name(b, l, "Host"))
		http_filter_name(hp, b, l);
	return (0);
}

/*
 * The proxy's own headers (RFC 9110 11.7): meant for the next hop only,
 * and flagged by name.  Only these: other Proxy-* names (Proxy-Status,
 * or anything an application invents) are end-to-end.
 */
static const char * const http_proxy_hop[] = {
	"Proxy-Authenticate", "Proxy-Authorization", "Proxy-Connection",
};

/* Headers a Connection token never removes from a request. */
static const char * const http_conn_keep[] = {
	"Host",			/* end-to-end whatever a client says */
	"Connection", "Keep-Alive", "TE", "Trailer", "Transfer-Encoding",
	"Upgrade",		/* flagged already; pipe hands Upgrade on */
};

static int
http_unset_token(struct http *hp, const char *b, size_t l, void *priv)
{
	unsigned u;

	(void)priv;
	/*
	 * Removing Content-Length would desync the backend: refused.  Other
	 * names go (issue 11's choice; varnishd answers 400 to a list of
	 * well-known ones, which RFC 9110 7.6.1 permits but does not ask).
	 */
	if (http_is_name(b, l, "Content-Length"))
		return (-1);
	for (u = 0; u < ARRAY_SIZE(http_conn_keep); u++)
		if (http_is_name(b, l, http_conn_keep[u]))
			return (0);
	for (u = 0; u < ARRAY_SIZE(http_proxy_hop); u++)
		if (http_is_name(b, l, http_proxy_hop[u]))
			return (0);
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++)
		if (HTTP_IsHdr(hp, u, b, l))
			hp->hdf[u] |= HDF_UNSET;
	return (0);
}

int
HTTP_UnsetConnectionNamed(struct http *hp, const char **why)
{

	CHECK_OBJ(hp, HTTP_MAGIC);
	if (http_each_connection_token(hp, http_unset_token, NULL) != 0) {
		*why = "Connection names Content-Length, which framed the "
		    "body";
		return (-1);
	}
	http_drop_unset(hp);
	return (0);
}

void
HTTP_FilterHopByHop(struct http *hp)
{
	static const char * const hop[] = {
		"Connection", "Keep-Alive", "TE", "Trailer",
		"Transfer-Encoding", "Upgrade",
	};
	unsigned i;

	CHECK_OBJ(hp, HTTP_MAGIC);
	for (i = 0; i < ARRAY_SIZE(hop); i++)
		http_filter_name(hp, hop[i], strlen(hop[i]));
	for (i = 0; i < ARRAY_SIZE(http_proxy_hop); i++)
		http_filter_name(hp, http_proxy_hop[i],
		    strlen(http_proxy_hop[i]));
	/* Connection: a, b names more hop-by-hop headers. */
	(void)http_each_connection_token(hp, http_filter_token, NULL);
}

const char *
HTTP_Reason(unsigned status)
{

	switch (status) {
	case 100: return ("Continue");
	case 101: return ("Switching Protocols");
	case 102: return ("Processing");
	case 103: return ("Early Hints");
	case 200: return ("OK");
	case 201: return ("Created");
	case 202: return ("Accepted");
	case 203: return ("Non-Authoritative Information");
	case 204: return ("No Content");
	case 205: return ("Reset Content");
	case 206: return ("Partial Content");
	case 300: return ("Multiple Choices");
	case 301: return ("Moved Permanently");
	case 302: return ("Found");
	case 303: return ("See Other");
	case 304: return ("Not Modified");
	case 307: return ("Temporary Redirect");
	case 308: return ("Permanent Redirect");
	case 400: return ("Bad Request");
	case 401: return ("Unauthorized");
	case 403: return ("Forbidden");
	case 404: return ("Not Found");
	case 405: return ("Method Not Allowed");
	case 406: return ("Not Acceptable");
	case 408: return ("Request Timeout");
	case 409: return ("Conflict");
	case 410: return ("Gone");
	case 411: return ("Length Required");
	case 412: return ("Precondition Failed");
	case 413: return ("Content Too Large");
	case 414: return ("URI Too Long");
	case 415: return ("Unsupported Media Type");
	case 416: return ("Range Not Satisfiable");
	case 417: return ("Expectation Failed");
	case 421: return ("Misdirected Request");
	case 422: return ("Unprocessable Content");
	case 426: return ("Upgrade Required");
	case 428: return ("Precondition Required");
	case 429: return ("Too Many Requests");
	case 431: return ("Request Header Fields Too Large");
	case 500: return ("Internal Server Error");
	case 501: return ("Not Implemented");
	case 502: return ("Bad Gateway");
	case 503: return ("Service Unavailable");
	case 504: return ("Gateway Timeout");
	case 505: return ("HTTP Version Not Supported");
	default: return ("Unknown");
	}
}

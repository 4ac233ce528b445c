/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_parse.c -- HTTP/1.x message heads, framing and the chunked
 * transfer coding (RFC 9112, RFC 9110).  See http1_parse.h for the
 * contract.  Pure functions over caller-owned buffers; owns no state
 * but the struct h1_chunked the caller hands in; no locks.
 *
 * Veneer sits in front of real backends, so ambiguity is refused rather
 * than guessed at: anything that two HTTP implementations could frame
 * differently (whitespace before a colon, obs-fold, odd Content-Length
 * lists, Transfer-Encoding other than a lone "chunked", bare CR or LF in
 * chunk framing) is an error on the request side.
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/http.h"
#include "cache/http1_parse.h"

/* Longest chunk-size line (size and extensions) we read through. */
#define H1_CHUNK_LINE_MAX	4096

/* Byte classes (RFC 9110 5.6.2, 5.5; RFC 9112 3.2) ------------------*/

static inline int
h1_is_tchar(unsigned char c)
{

	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z'))
		return (1);
	switch (c) {
	case '!': case '#': case '$': case '%': case '&': case '\'':
	case '*': case '+': case '-': case '.': case '^': case '_':
	case '`': case '|': case '~':
		return (1);
	default:
		return (0);
	}
}

static inline int
h1_is_ws(unsigned char c)
{

	return (c == ' ' || c == '\t');
}

/* HTAB, SP, VCHAR or obs-text: what a field value or reason may hold. */
static inline int
h1_is_field(unsigned char c)
{

	return (c == '\t' || (c >= 0x20 && c != 0x7f));
}

int
H1_IsFieldValue(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (!h1_is_field(*p))
			return (0);
	return (1);
}

/* A request-target byte: visible, or obs-text that some clients send. */
static inline int
h1_is_target(unsigned char c)
{

	return (c > 0x20 && c != 0x7f);
}

/* qdtext (RFC 9110 5.6.4) */
static inline int
h1_is_qdtext(unsigned char c)
{

	return (c == '\t' || c == ' ' || c == 0x21 ||
	    (c >= 0x23 && c <= 0x5b) || (c >= 0x5d && c <= 0x7e) || c >= 0x80);
}

static inline int
h1_hexval(unsigned char c)
{

	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* End of header section ---------------------------------------------*/

/* Bytes of the empty lines RFC 9112 2.2 lets a client send first. */
static size_t
h1_empty_lines(const char *b, const char *e)
{
	const char *p = b;

	while (p < e) {
		if (*p == '\n')
			p++;
		else if (*p == '\r' && p + 1 < e && p[1] == '\n')
			p += 2;
		else
			break;
	}
	return ((size_t)(p - b));
}

/*
 * A NUL in [s->junk, e), or a CR not followed by LF?  When partial, a CR
 * at the very end may still get its LF from the next read: s->junk stops
 * there, so the next call looks at it again; every other byte is looked
 * at once.
 */
static int
h1_is_junk(struct h1_scan *s, const char *b, const char *e, int partial)
{
	const char *p, *j;

	j = b + s->junk;
	if (j >= e)
		return (0);
	s->examined += (size_t)(e - j);
	if (memchr(j, '\0', (size_t)(e - j)) != NULL)
		return (1);
	for (p = j; (p = memchr(p, '\r', (size_t)(e - p))) != NULL; p += 2) {
		s->examined += (size_t)(p - j) + 1;
		if (p + 1 == e) {
			s->junk = (size_t)(p - b);
			return (!partial);
		}
		if (p[1] != '\n')
			return (1);
		j = p + 2;
	}
	s->examined += (size_t)(e - j);
	s->junk = (size_t)(e - b);
	return (0);
}

/*
 * Skip the empty lines before the start line, from where the last call
 * stopped.  1 once the start line has begun, 0 if all so far is empty
 * lines (a CR at the end may be the first half of one more).
 */
static int
h1_skip_empty(struct h1_scan *s, const char *b, const char *e)
{
	size_t n;

	if (s->started)
		return (1);
	n = h1_empty_lines(b + s->start, e);
	s->examined += n + 1;
	s->start += n;
	if (b + s->start == e ||
	    (b[s->start] == '\r' && b + s->start + 1 == e))
		return (0);
	s->started = 1;
	s->term = s->start;
	s->junk = s->start;
	return (1);
}

void
H1_ScanInit(struct h1_scan *s)
{

	INIT_OBJ(s, H1_SCAN_MAGIC);
}

/*
 * Cost: each byte is examined a bounded number of times over all the
 * calls for one head, however it is cut into reads: the end-of-head
 * search resumes two bytes before where it stopped (an end is "\n\n" or
 * "\n\r\n"), the bare-CR and NUL check where it stopped, so a head
 * sent a byte at a time costs what it costs in one piece.  *end is NULL
 * unless the head is complete.
 */
enum h1_complete
H1_CompleteScan(struct h1_scan *s, const char *b, const char *e,
    const char **start, const char **end)
{
	const char *q, *lf;

	CHECK_OBJ(s, H1_SCAN_MAGIC);
	assert(b != NULL && e != NULL && b <= e);
	assert(start != NULL && end != NULL);
	*end = NULL;
	/* The buffer never shrinks between calls on one head. */
	assert(s->start <= (size_t)(e - b) && s->term <= (size_t)(e - b));
	if (!h1_skip_empty(s, b, e)) {
		*start = b + s->start;
		return (H1_MORE);
	}
	*start = b + s->start;
	for (q = b + s->term; q < e; q = lf + 1) {
		lf = memchr(q, '\n', (size_t)(e - q));
		if (lf == NULL)
			break;
		s->examined += (size_t)(lf - q) + 1;
		if (lf + 1 < e && lf[1] == '\n') {
			*end = lf + 2;
			break;
		}
		if (lf + 2 < e && lf[1] == '\r' && lf[2] == '\n') {
			*end = lf + 3;
			break;
		}
	}
	if (*end == NULL) {
		s->examined += (size_t)(e - q);
		/* An end found later starts at most two bytes back. */
		s->term = (size_t)(e - b) - 2;
		if ((size_t)(e - b) < s->start + 2)
			s->term = s->start;
		return (h1_is_junk(s, b, e, 1) ? H1_JUNK : H1_MORE);
	}
	if (h1_is_junk(s, b, *end, 0)) {
		*end = NULL;
		return (H1_JUNK);
	}
	return (H1_COMPLETE);
}

enum h1_complete
H1_Complete(const char *b, const char *e, const char **start,
    const char **end)
{
	struct h1_scan s;

	H1_ScanInit(&s);
	return (H1_CompleteScan(&s, b, e, start, end));
}

/* Heads --------------------------------------------------------------*/

/*
 * Split off the line at *pp: [*lb, *le) without its CRLF or LF; *pp
 * moves past the LF.  -1 if there is no LF before e.
 */
static int
h1_line(char **pp, char *e, char **lb, char **le)
{
	char *lf;

	lf = memchr(*pp, '\n', (size_t)(e - *pp));
	if (lf == NULL)
		return (-1);
	*lb = *pp;
	*le = lf;
	if (*le > *lb && (*le)[-1] == '\r')
		(*le)--;
	*pp = lf + 1;
	return (0);
}

/* "HTTP/" DIGIT "." DIGIT in [b, e): 0, 400 malformed, 505 not 1.x. */
static int
h1_version(const char *b, const char *e, uint8_t *protover, const char **why)
{

	if (e - b != 8 || memcmp(b, "HTTP/", 5) != 0 ||
	    b[5] < '0' || b[5] > '9' || b[6] != '.' ||
	    b[7] < '0' || b[7] > '9') {
		*why = "malformed HTTP version (want HTTP/1.0 or HTTP/1.1)";
		return (400);
	}
	if (b[5] != '1') {
		*why = "HTTP version not supported (only HTTP/1.x)";
		return (505);
	}
	/* RFC 9110 6.2: a higher minor version is handled as 1.1. */
	*protover = b[7] == '0' ? 10 : 11;
	return (0);
}

/*
 * The last bad header line in varnishd's words, for its BogoHeader
 * record: what log queries and Varnish's tests look for.  Per thread:
 * a parse and the record that tells of it are on one thread.
 */
static __thread char h1_bogo[80];

/* At most this much of a bad line is quoted, as varnishd does. */
#define H1_BOGO_QUOTE(b, e)	((e) - (b) > 20 ? 20 : (int)((e) - (b))), (b)

const char *
H1_Bogo(void)
{

	return (h1_bogo[0] != '\0' ? h1_bogo : NULL);
}

/* Explain why a header line has no name followed by a colon. */
static const char *
h1_bad_name(const char *b, const char *p, const char *e)
{

	if (memchr(b, ':', (size_t)(e - b)) == NULL)
		return ("header line without colon");
	if (p == b && *p == ':') {
		(void)snprintf(h1_bogo, sizeof h1_bogo,
		    "Missing header name: %.*s", H1_BOGO_QUOTE(b, e));
		return ("empty header name");
	}
	(void)snprintf(h1_bogo, sizeof h1_bogo,
	    "Illegal char 0x%02x in header name", (unsigned char)*p);
	if (p < e && h1_is_ws((unsigned char)*p))
		return ("whitespace between header name and colon");
	return ("invalid character in header name");
}

/* One header line [b, e) into the next slot; 0, 400 or 431. */
static int
h1_header(struct http *hp, char *b, char *e, size_t hdr_len,
    const char **why)
{
	char *p;

	if ((size_t)(e - b) > hdr_len) {
		*why = "header line too long (limit: http_req_hdr_len or "
		    "http_resp_hdr_len)";
		return (431);
	}
	if (h1_is_ws((unsigned char)*b)) {
		if (hp->nhd == HTTP_HDR_FIRST)
			(void)snprintf(h1_bogo, sizeof h1_bogo,
			    "1st header has white space: %.*s",
			    H1_BOGO_QUOTE(b, e));
		*why = "obsolete line folding (header line starts with "
		    "whitespace)";
		return (400);
	}
	for (p = b; p < e && h1_is_tchar((unsigned char)*p); p++)
		continue;
	if (p == e || *p != ':' || p == b) {
		*why = h1_bad_name(b, p, e);
		return (400);
	}
	for (p++; p < e; p++) {
		if (!h1_is_field((unsigned char)*p)) {
			(void)snprintf(h1_bogo, sizeof h1_bogo,
			    "Header has ctrl char 0x%02x", (unsigned char)*p);
			*why = "control character in header value";
			return (400);
		}
	}
	while (h1_is_ws((unsigned char)e[-1]))
		e--;
	if (hp->nhd >= hp->shd) {
		*why = "too many header lines (limit: http_max_hdr)";
		return (431);
	}
	*e = '\0';
	hp->hd[hp->nhd] = TXT_Make(b, e);
	hp->hdf[hp->nhd] = 0;
	hp->nhd++;
	return (0);
}

/* Header lines from p up to and including the empty line. */
static int
h1_headers(struct http *hp, char *p, char *e, size_t hdr_len,
    const char **why)
{
	char *lb, *le;
	int r;

	for (;;) {
		if (h1_line(&p, e, &lb, &le)) {
			*why = "header section without empty line at its end";
			return (400);
		}
		if (lb == le)
			return (0);
		r = h1_header(hp, lb, le, hdr_len, why);
		if (r != 0)
			return (r);
	}
}

/* method SP request-target SP HTTP-version, in [b, e). */
static int
h1_request_line(struct http *hp, char *b, char *e, const char **why)
{
	char *p, *m_end, *u, *u_end;
	int r;

	for (p = b; p < e && h1_is_tchar((unsigned char)*p); p++)
		continue;
	if (p == b) {
		*why = "missing or invalid method";
		return (400);
	}
	if (p == e || *p != ' ') {
		*why = "method not followed by a single space";
		return (400);
	}
	m_end = p;
	u = ++p;
	for (; p < e && h1_is_target((unsigned char)*p); p++)
		continue;
	if (p == u) {
		*why = "missing request target";
		return (400);
	}
	if (p == e) {
		*why = "request line without HTTP version";
		return (400);
	}
	if (*p != ' ') {
		*why = "invalid character in request target";
		return (400);
	}
	/*
	 * A fragment is for the user agent (RFC 9110 4.2.4), which never
	 * sends it; one that comes would make the URL mean two things.
	 */
	if (memchr(u, '#', (size_t)(p - u)) != NULL) {
		*why = "fragment ('#') in request target";
		return (400);
	}
	u_end = p;
	r = h1_version(p + 1, e, &hp->protover, why);
	if (r != 0)
		return (r);
	*m_end = '\0';
	*u_end = '\0';
	*e = '\0';
	hp->hd[HTTP_HDR_METHOD] = TXT_Make(b, m_end);
	hp->hd[HTTP_HDR_URL] = TXT_Make(u, u_end);
	hp->hd[HTTP_HDR_PROTO] = TXT_Make(u_end + 1, e);
	return (0);
}

int
H1_ParseRequest(struct http *hp, char *b, char *e, size_t hdr_len,
    const char **why)
{
	char *p, *lb, *le;
	int r;

	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(b != NULL && e != NULL && b <= e);
	assert(why != NULL);
	HTTP_Clear(hp);
	h1_bogo[0] = '\0';
	p = b + h1_empty_lines(b, e);
	if (h1_line(&p, e, &lb, &le)) {
		*why = "request line without line end";
		return (400);
	}
	r = h1_request_line(hp, lb, le, why);
	if (r != 0)
		return (r);
	return (h1_headers(hp, p, e, hdr_len, why));
}

/* HTTP-version SP 3DIGIT [ SP reason-phrase ], in [b, e). */
static int
h1_status_line(struct http *hp, char *b, char *e, const char **why)
{
	char *p;

	if (e - b < 12) {
		*why = "status line too short";
		return (-1);
	}
	if (h1_version(b, b + 8, &hp->protover, why) != 0)
		return (-1);
	if (b[8] != ' ' || b[9] < '1' || b[9] > '9' ||
	    b[10] < '0' || b[10] > '9' || b[11] < '0' || b[11] > '9') {
		*why = "malformed status code (want SP and 3 digits)";
		return (-1);
	}
	if (b + 12 < e && b[12] != ' ') {
		*why = "status code not followed by a space";
		return (-1);
	}
	for (p = b + 13; p < e; p++) {
		if (!h1_is_field((unsigned char)*p)) {
			*why = "control character in reason phrase";
			return (-1);
		}
	}
	hp->status = (uint16_t)((b[9] - '0') * 100 + (b[10] - '0') * 10 +
	    (b[11] - '0'));
	b[8] = '\0';
	b[12] = '\0';
	*e = '\0';
	hp->hd[HTTP_HDR_PROTO] = TXT_Make(b, b + 8);
	hp->hd[HTTP_HDR_STATUS] = TXT_Make(b + 9, b + 12);
	if (b + 12 < e)
		hp->hd[HTTP_HDR_REASON] = TXT_Make(b + 13, e);
	else
		hp->hd[HTTP_HDR_REASON] = TXT_Make(b + 12, b + 12);
	return (0);
}

int
H1_ParseResponse(struct http *hp, char *b, char *e, size_t hdr_len,
    const char **why)
{
	char *p, *lb, *le;

	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(b != NULL && e != NULL && b <= e);
	assert(why != NULL);
	HTTP_Clear(hp);
	p = b + h1_empty_lines(b, e);
	if (h1_line(&p, e, &lb, &le)) {
		*why = "status line without line end";
		return (-1);
	}
	if (h1_status_line(hp, lb, le, why))
		return (-1);
	if (h1_headers(hp, p, e, hdr_len, why) != 0)
		return (-1);
	return (0);
}

/* Framing ------------------------------------------------------------*/

int
H1_ParseContentLength(struct txt val, uint64_t *cl)
{
	uint64_t v = 0;
	const char *p;

	assert(cl != NULL);
	if (!TXT_OK(val) || val.b == val.e)
		return (-1);
	/* 18 digits cannot overflow 63 bits: no overflow check needed. */
	if (TXT_LEN(val) > 18)
		return (-1);
	for (p = val.b; p < val.e; p++) {
		if (*p < '0' || *p > '9')
			return (-1);
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*cl = v;
	return (0);
}

/*
 * Walk the comma-separated list elements of every instance of header
 * name, each trimmed of OWS, calling f on each; stop at the first
 * nonzero return and pass it on.
 */
typedef int h1_elem_f(void *priv, struct txt elem);

static int
h1_each_elem(const struct http *hp, const char *name, h1_elem_f *f,
    void *priv)
{
	struct txt v, el;
	const char *p, *q;
	unsigned u;
	int r;

	for (u = HTTP_FindHdr(hp, name, 0); u != 0;
	    u = HTTP_FindHdr(hp, name, u + 1)) {
		v = HTTP_HdrValue(hp, u);
		for (p = v.b; ; p = q + 1) {
			q = memchr(p, ',', (size_t)(v.e - p));
			if (q == NULL)
				q = v.e;
			el = TXT_Make(p, q);
			while (el.b < el.e && h1_is_ws((unsigned char)*el.b))
				el.b++;
			while (el.e > el.b && h1_is_ws((unsigned char)el.e[-1]))
				el.e--;
			r = f(priv, el);
			if (r != 0)
				return (r);
			if (q == v.e)
				break;
		}
	}
	return (0);
}

struct h1_cl {
	unsigned	magic;
#define H1_CL_MAGIC	0x215a91e6
	unsigned	n;
	uint64_t	cl;
};

static int
h1_cl_elem(void *priv, struct txt elem)
{
	struct h1_cl *cl;
	uint64_t v;

	CAST_OBJ_NOTNULL(cl, priv, H1_CL_MAGIC);

	if (H1_ParseContentLength(elem, &v))
		return (-1);
	if (cl->n++ > 0 && v != cl->cl)
		return (-2);
	cl->cl = v;
	return (0);
}

/*
 * Every Content-Length element must be valid and all must be equal (RFC
 * 9112 6.3 item 5; empty elements are refused too).  0 with *present,
 * or -1.
 */
static int
h1_content_length(const struct http *hp, unsigned *present, uint64_t *cl,
    const char **why)
{
	struct h1_cl st;
	int r;

	INIT_OBJ(&st, H1_CL_MAGIC);
	r = h1_each_elem(hp, "Content-Length", h1_cl_elem, &st);
	if (r == -1) {
		*why = "invalid Content-Length (want 1 to 18 digits)";
		return (-1);
	}
	if (r == -2) {
		*why = "several different Content-Length values";
		return (-1);
	}
	*present = st.n > 0;
	*cl = st.cl;
	return (0);
}

struct h1_te {
	unsigned	magic;
#define H1_TE_MAGIC	0xdef717c6
	unsigned	n;		/* codings */
	unsigned	empty;		/* empty list elements */
	struct txt	last;
};

static int
h1_te_elem(void *priv, struct txt elem)
{
	struct h1_te *te;

	CAST_OBJ_NOTNULL(te, priv, H1_TE_MAGIC);

	if (elem.b == elem.e) {
		te->empty++;
		return (0);
	}
	te->n++;
	te->last = elem;
	return (0);
}

int
H1_RequestFraming(const struct http *hp, enum body_status *bs,
    uint64_t *content_length, const char **why)
{
	struct h1_te te;
	unsigned nhost, has_cl;
	uint64_t cl;

	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(bs != NULL && content_length != NULL && why != NULL);
	*bs = BS_NONE;
	*content_length = 0;
	nhost = HTTP_CountHdr(hp, "Host");
	if (hp->protover >= 11 && nhost != 1) {
		*why = nhost == 0 ? "HTTP/1.1 request without Host" :
		    "more than one Host header";
		return (400);
	}
	if (nhost > 1) {
		*why = "more than one Host header";
		return (400);
	}
	if (h1_content_length(hp, &has_cl, &cl, why))
		return (400);
	if (HTTP_CountHdr(hp, "Transfer-Encoding") > 0) {
		if (hp->protover < 11) {
			*why = "Transfer-Encoding in an HTTP/1.0 request";
			return (400);
		}
		/*
		 * Only a lone "chunked": any other coding, chunked twice or
		 * with parameters, or empty list elements could be framed
		 * differently by the backend.
		 */
		INIT_OBJ(&te, H1_TE_MAGIC);
		(void)h1_each_elem(hp, "Transfer-Encoding", h1_te_elem, &te);
		if (te.n != 1 || te.empty != 0 ||
		    !TXT_EqCase(te.last, "chunked")) {
			*why = "Transfer-Encoding other than \"chunked\"";
			return (400);
		}
		if (has_cl) {
			*why = "both Transfer-Encoding and Content-Length";
			return (400);
		}
		*bs = BS_CHUNKED;
		return (0);
	}
	/* Content-Length: 0 is no body at all: BS_NONE, length 0. */
	if (has_cl && cl > 0) {
		*bs = BS_LENGTH;
		*content_length = cl;
	}
	return (0);
}

int
H1_ResponseFraming(const struct http *hp, unsigned req_is_head,
    enum body_status *bs, uint64_t *content_length, unsigned *must_close,
    const char **why)
{
	struct h1_te te;
	unsigned has_cl;
	uint64_t cl;

	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(bs != NULL && content_length != NULL);
	assert(must_close != NULL && why != NULL);
	*bs = BS_NONE;
	*content_length = 0;
	*must_close = HTTP_HdrHasToken(hp, "Connection", "close") ||
	    (hp->protover < 11 &&
	    !HTTP_HdrHasToken(hp, "Connection", "keep-alive"));
	if (req_is_head || hp->status < 200 || hp->status == 204 ||
	    hp->status == 304)
		return (0);
	if (HTTP_CountHdr(hp, "Transfer-Encoding") > 0) {
		/* RFC 9112 6.1: on HTTP/1.0 the framing is faulty. */
		if (hp->protover < 11)
			*must_close = 1;
		INIT_OBJ(&te, H1_TE_MAGIC);
		(void)h1_each_elem(hp, "Transfer-Encoding", h1_te_elem, &te);
		/*
		 * Any other coding (gzip, chunked; gzip; identity...) would
		 * reach the client still coded, its Transfer-Encoding gone
		 * (hop-by-hop): refused, as varnishd does.
		 */
		if (te.n != 1 || te.empty != 0 ||
		    !TXT_EqCase(te.last, "chunked")) {
			*why = "Transfer-Encoding other than \"chunked\" "
			    "(a coding that cannot be decoded here)";
			*must_close = 1;
			return (-1);
		}
		*bs = BS_CHUNKED;
		/* RFC 9112 6.3 item 3: ambiguous, do not reuse. */
		if (HTTP_CountHdr(hp, "Content-Length") > 0)
			*must_close = 1;
		return (0);
	}
	if (h1_content_length(hp, &has_cl, &cl, why))
		return (-1);
	if (!has_cl) {
		*bs = BS_EOF;
		*must_close = 1;
		return (0);
	}
	/* Same as requests: Content-Length: 0 is BS_NONE, length 0. */
	if (cl > 0) {
		*bs = BS_LENGTH;
		*content_length = cl;
	}
	return (0);
}

/* Chunked transfer coding (RFC 9112 7.1) -----------------------------*/

enum h1c_state {
	H1CS_SIZE = 0,		/* first hex digit of chunk-size */
	H1CS_SIZE_MORE,		/* more digits, or what follows them */
	H1CS_EXT_END,		/* after an extension: ';', BWS or CR */
	H1CS_EXT_BWS,		/* BWS before ';' */
	H1CS_EXT_NAME0,		/* BWS after ';' */
	H1CS_EXT_NAME,
	H1CS_EXT_NAME_BWS,	/* BWS after the name: '=' or ';' */
	H1CS_EXT_VAL0,		/* BWS after '=' */
	H1CS_EXT_TOKEN,
	H1CS_EXT_QSTR,
	H1CS_EXT_QPAIR,		/* after a backslash in a quoted-string */
	H1CS_SIZE_LF,		/* CR seen, LF must follow */
	H1CS_DATA,
	H1CS_DATA_CR,		/* CRLF after the data */
	H1CS_DATA_LF,
	H1CS_TRL_START,		/* start of a trailer line or the end */
	H1CS_TRL_NAME,
	H1CS_TRL_VALUE,
	H1CS_TRL_LF,
	H1CS_END_LF,		/* CR of the final empty line seen */
	H1CS_DONE,
	H1CS_ERROR,
};

void
H1_ChunkedInit(struct h1_chunked *c, size_t trailer_max)
{

	assert(c != NULL);
	INIT_OBJ(c, H1_CHUNKED_MAGIC);
	c->state = H1CS_SIZE;
	c->trailer_max = trailer_max;
}

/* A hex digit of chunk-size. */
static int
h1c_digit(struct h1_chunked *c, int d, const char **why)
{

	if (c->remaining > ((uint64_t)INT64_MAX - (uint64_t)d) / 16) {
		*why = "chunk size too large";
		return (-1);
	}
	if (c->remaining != 0 || d != 0)
		c->ndigits++;
	if (c->ndigits > 16) {
		*why = "chunk size has more than 16 hex digits";
		return (-1);
	}
	c->remaining = c->remaining * 16 + (uint64_t)d;
	c->state = H1CS_SIZE_MORE;
	return (0);
}

/* What may follow a chunk-size or a whole chunk-ext: ';', BWS, CR. */
static int
h1c_ext_end(struct h1_chunked *c, unsigned char ch, const char **why)
{

	if (ch == ';')
		c->state = H1CS_EXT_NAME0;
	else if (h1_is_ws(ch))
		c->state = H1CS_EXT_BWS;
	else if (ch == '\r')
		c->state = H1CS_SIZE_LF;
	else {
		*why = "invalid character after chunk size or extension";
		return (-1);
	}
	return (0);
}

/* Extension name and the BWS around it. */
static int
h1c_ext_name(struct h1_chunked *c, unsigned char ch, const char **why)
{

	switch (c->state) {
	case H1CS_EXT_BWS:
		if (h1_is_ws(ch))
			return (0);
		if (ch == ';') {
			c->state = H1CS_EXT_NAME0;
			return (0);
		}
		break;
	case H1CS_EXT_NAME0:
		if (h1_is_ws(ch))
			return (0);
		if (h1_is_tchar(ch)) {
			c->state = H1CS_EXT_NAME;
			return (0);
		}
		break;
	case H1CS_EXT_NAME:
		if (h1_is_tchar(ch))
			return (0);
		if (ch == '=')
			c->state = H1CS_EXT_VAL0;
		else if (h1_is_ws(ch))
			c->state = H1CS_EXT_NAME_BWS;
		else
			return (h1c_ext_end(c, ch, why));
		return (0);
	case H1CS_EXT_NAME_BWS:
		if (h1_is_ws(ch))
			return (0);
		if (ch == '=') {
			c->state = H1CS_EXT_VAL0;
			return (0);
		}
		if (ch == ';') {
			c->state = H1CS_EXT_NAME0;
			return (0);
		}
		break;
	default:
		WRONG("chunk extension name state");
	}
	*why = "malformed chunk extension";
	return (-1);
}

/* Extension value: token or quoted-string. */
static int
h1c_ext_value(struct h1_chunked *c, unsigned char ch, const char **why)
{

	switch (c->state) {
	case H1CS_EXT_VAL0:
		if (h1_is_ws(ch))
			return (0);
		if (ch == '"')
			c->state = H1CS_EXT_QSTR;
		else if (h1_is_tchar(ch))
			c->state = H1CS_EXT_TOKEN;
		else
			break;
		return (0);
	case H1CS_EXT_TOKEN:
		if (h1_is_tchar(ch))
			return (0);
		return (h1c_ext_end(c, ch, why));
	case H1CS_EXT_QSTR:
		if (ch == '"')
			c->state = H1CS_EXT_END;
		else if (ch == '\\')
			c->state = H1CS_EXT_QPAIR;
		else if (!h1_is_qdtext(ch))
			break;
		return (0);
	case H1CS_EXT_QPAIR:
		if (!h1_is_field(ch))
			break;
		c->state = H1CS_EXT_QSTR;
		return (0);
	default:
		WRONG("chunk extension value state");
	}
	*why = "malformed chunk extension value";
	return (-1);
}

/* One byte of a chunk-size line, up to and including its LF. */
static int
h1c_size_line(struct h1_chunked *c, unsigned char ch, const char **why)
{
	int d;

	if (++c->linelen > H1_CHUNK_LINE_MAX) {
		*why = "chunk size line longer than 4096 bytes";
		return (-1);
	}
	switch (c->state) {
	case H1CS_SIZE:
		d = h1_hexval(ch);
		if (d < 0) {
			*why = "chunk size is not hexadecimal";
			return (-1);
		}
		return (h1c_digit(c, d, why));
	case H1CS_SIZE_MORE:
		d = h1_hexval(ch);
		if (d >= 0)
			return (h1c_digit(c, d, why));
		return (h1c_ext_end(c, ch, why));
	case H1CS_EXT_END:
		return (h1c_ext_end(c, ch, why));
	case H1CS_EXT_BWS:
	case H1CS_EXT_NAME0:
	case H1CS_EXT_NAME:
	case H1CS_EXT_NAME_BWS:
		return (h1c_ext_name(c, ch, why));
	case H1CS_EXT_VAL0:
	case H1CS_EXT_TOKEN:
	case H1CS_EXT_QSTR:
	case H1CS_EXT_QPAIR:
		return (h1c_ext_value(c, ch, why));
	case H1CS_SIZE_LF:
		if (ch != '\n') {
			*why = "chunk size line not ended by CRLF";
			return (-1);
		}
		c->state = c->remaining == 0 ? H1CS_TRL_START : H1CS_DATA;
		return (0);
	default:
		WRONG("chunk size line state");
	}
}

/* The CRLF after chunk data: the classic smuggling spot, so strict. */
static int
h1c_data_end(struct h1_chunked *c, unsigned char ch, const char **why)
{

	if (c->state == H1CS_DATA_CR && ch == '\r') {
		c->state = H1CS_DATA_LF;
		return (0);
	}
	if (c->state == H1CS_DATA_LF && ch == '\n') {
		c->state = H1CS_SIZE;
		c->ndigits = 0;
		c->linelen = 0;
		return (0);
	}
	*why = "chunk data not followed by CRLF";
	return (-1);
}

/* One byte of the trailer section; lines are validated and dropped. */
static int
h1c_trailer(struct h1_chunked *c, unsigned char ch, const char **why)
{
	unsigned next;

	switch (c->state) {
	case H1CS_TRL_START:
		if (ch == '\r') {
			c->state = H1CS_END_LF;
			return (0);
		}
		next = h1_is_tchar(ch) ? H1CS_TRL_NAME : H1CS_ERROR;
		break;
	case H1CS_TRL_NAME:
		next = ch == ':' ? H1CS_TRL_VALUE :
		    h1_is_tchar(ch) ? H1CS_TRL_NAME : H1CS_ERROR;
		break;
	case H1CS_TRL_VALUE:
		next = ch == '\r' ? H1CS_TRL_LF :
		    h1_is_field(ch) ? H1CS_TRL_VALUE : H1CS_ERROR;
		break;
	case H1CS_TRL_LF:
		next = ch == '\n' ? H1CS_TRL_START : H1CS_ERROR;
		break;
	case H1CS_END_LF:
		if (ch != '\n') {
			*why = "trailer section not ended by CRLF";
			return (-1);
		}
		c->state = H1CS_DONE;
		return (0);
	default:
		WRONG("trailer state");
	}
	if (next == H1CS_ERROR) {
		*why = "malformed trailer line";
		return (-1);
	}
	/* The final empty line is not counted: trailer_max 0 allows none. */
	if (++c->trailers > c->trailer_max) {
		*why = "trailer section too large";
		return (-1);
	}
	c->state = next;
	return (0);
}

static int
h1c_step(struct h1_chunked *c, unsigned char ch, const char **why)
{

	switch (c->state) {
	case H1CS_DATA_CR:
	case H1CS_DATA_LF:
		return (h1c_data_end(c, ch, why));
	case H1CS_TRL_START:
	case H1CS_TRL_NAME:
	case H1CS_TRL_VALUE:
	case H1CS_TRL_LF:
	case H1CS_END_LF:
		return (h1c_trailer(c, ch, why));
	default:
		return (h1c_size_line(c, ch, why));
	}
}

enum h1c
H1_ChunkedNext(struct h1_chunked *c, const char **pp, const char *e,
    struct txt *data, const char **why)
{
	const char *p;
	size_t n;

	CHECK_OBJ(c, H1_CHUNKED_MAGIC);
	assert(pp != NULL && *pp != NULL && e != NULL && *pp <= e);
	assert(data != NULL && why != NULL);
	if (c->state == H1CS_DONE)
		return (H1C_END);
	if (c->state == H1CS_ERROR) {
		*why = "chunked body already failed";
		return (H1C_ERROR);
	}
	for (p = *pp; p < e; ) {
		if (c->state == H1CS_DATA) {
			n = (size_t)(e - p);
			if (n > c->remaining)
				n = (size_t)c->remaining;
			*data = TXT_Make(p, p + n);
			c->remaining -= n;
			if (c->remaining == 0)
				c->state = H1CS_DATA_CR;
			*pp = p + n;
			return (H1C_DATA);
		}
		if (h1c_step(c, (unsigned char)*p, why)) {
			c->state = H1CS_ERROR;
			*pp = p;
			return (H1C_ERROR);
		}
		p++;
		if (c->state == H1CS_DONE) {
			*pp = p;
			return (H1C_END);
		}
	}
	*pp = p;
	return (H1C_MORE);
}

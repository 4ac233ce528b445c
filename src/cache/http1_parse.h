/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_parse.h -- HTTP/1.x message parsing (RFC 9112), both sides.
 * Pure functions over a buffer: no I/O, no logging, no allocation but the
 * struct http's workspace.  Parsing rewrites the buffer in place: each
 * start-line element and each header line is NUL-terminated where its
 * value ends, so the strings can be used as C strings.
 *
 * Errors carry a short static reason ("header without colon") for the
 * caller to log.
 */

#ifndef VENEER_CACHE_HTTP1_PARSE_H
#define VENEER_CACHE_HTTP1_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "common/txt.h"

struct http;

/* How a message body is delimited. */
enum body_status {
	BS_NONE,	/* no body */
	BS_LENGTH,	/* Content-Length bytes */
	BS_CHUNKED,	/* chunked transfer coding */
	BS_EOF,		/* until the connection closes (responses only) */
};

enum h1_complete {
	H1_MORE,	/* no end of header section yet */
	H1_COMPLETE,	/* *end is just past the empty line */
	H1_JUNK,	/* not HTTP: a bare CR or a NUL byte */
};

/*
 * Look for the end of a header section in [b, e).  Empty lines before the
 * start line are skipped (RFC 9112 2.2): *start is set to the first byte
 * of the start line.  Lines end in CRLF or a bare LF.
 *
 * H1_CompleteScan does it over a buffer that grows between calls (more
 * bytes appended at e, b unchanged): *s remembers where the last call
 * stopped, so each byte is examined a bounded number of times however
 * the head arrives.  Start with H1_ScanInit; its offsets are relative to
 * b, so a caller moving the bytes moves b with them and keeps *s.
 * H1_Complete is the one-shot form.
 */
struct h1_scan {
	unsigned	magic;
#define H1_SCAN_MAGIC	0x4bf37555
	size_t		start;		/* start line, once started */
	size_t		term;		/* end-of-head search resumes here */
	size_t		junk;		/* CR/NUL check resumes here */
	unsigned	started;	/* past the leading empty lines */
	size_t		examined;	/* bytes looked at: a measure of work */
};

void H1_ScanInit(struct h1_scan *s);
enum h1_complete H1_CompleteScan(struct h1_scan *s, const char *b,
    const char *e, const char **start, const char **end);
enum h1_complete H1_Complete(const char *b, const char *e,
    const char **start, const char **end);

/*
 * Parse a complete request head [b, e) (from H1_Complete's start to end)
 * into hp: method, URL and protocol in their slots, each header line from
 * HTTP_HDR_FIRST on; hp->protover is 10 or 11.  hdr_len is the longest
 * header line allowed (http_req_hdr_len).
 * Returns 0, or the status to answer: 400 (malformed), 431 (a line longer
 * than hdr_len or more headers than hp has slots), 505 (HTTP version
 * other than 1.x).
 */
int H1_ParseRequest(struct http *hp, char *b, char *e, size_t hdr_len,
    const char **why);
/*
 * After H1_ParseRequest refused a header line: that line's fault in
 * varnishd's words (its BogoHeader record), or NULL.  Per thread, until
 * the thread's next H1_ParseRequest.
 */
const char *H1_Bogo(void);

/*
 * Parse a complete response head; sets hp->status and protover.
 * Returns 0 or -1 (malformed, line too long, too many headers).
 */
int H1_ParseResponse(struct http *hp, char *b, char *e, size_t hdr_len,
    const char **why);

/*
 * Request framing and the header checks that go with it (RFC 9112 6.3,
 * RFC 9110 7.2): exactly one Host on HTTP/1.1 (at most one on 1.0);
 * Content-Length digits only, several only if all equal; Transfer-Encoding
 * only "chunked" and only on HTTP/1.1; not both.  Returns 0 or 400.
 */
int H1_RequestFraming(const struct http *hp, enum body_status *bs,
    uint64_t *content_length, const char **why);

/*
 * Response framing (RFC 9112 6.3) for a response to a request with
 * method req_is_head (HEAD) or not: no body for HEAD, 1xx, 204, 304;
 * chunked if Transfer-Encoding ends in chunked (Content-Length ignored,
 * *must_close set); else Content-Length; else until EOF (*must_close).
 * Returns 0 or -1 (invalid or conflicting Content-Length).
 */
int H1_ResponseFraming(const struct http *hp, unsigned req_is_head,
    enum body_status *bs, uint64_t *content_length, unsigned *must_close,
    const char **why);

/* A Content-Length value: 1*DIGIT, no sign, fits in 63 bits. */
int H1_ParseContentLength(struct txt val, uint64_t *cl);

/*
 * Whether s may stand in a header field: HTAB, SP, VCHAR and obs-text
 * only (RFC 9110 5.5), so no CR or LF that would start another line.
 */
int H1_IsFieldValue(const char *s);

/*
 * Incremental chunked decoder.  Feed it input a piece at a time; it
 * points at the data bytes within the input (no copy).
 */
enum h1c {
	H1C_DATA,	/* *data is body bytes within the input */
	H1C_MORE,	/* input used up; call again with more */
	H1C_END,	/* last chunk and trailer section consumed */
	H1C_ERROR,	/* malformed; *why says how */
};

struct h1_chunked {
	unsigned		magic;
#define H1_CHUNKED_MAGIC	0x3b6c9e42
	unsigned		state;
	uint64_t		remaining;	/* data bytes left in chunk */
	unsigned		ndigits;
	size_t			linelen;	/* ext or trailer line so far */
	size_t			trailers;	/* trailer bytes so far */
	size_t			trailer_max;
};

void H1_ChunkedInit(struct h1_chunked *c, size_t trailer_max);
/* Consume from *pp up to e; advance *pp past what was consumed. */
enum h1c H1_ChunkedNext(struct h1_chunked *c, const char **pp,
    const char *e, struct txt *data, const char **why);

#endif /* VENEER_CACHE_HTTP1_PARSE_H */

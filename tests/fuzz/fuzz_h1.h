/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_h1.h -- a struct http for the HTTP/1 head targets, over heap
 * arrays of exactly its slots (as tests/unit/test_http1_parse.c does),
 * and the input head in a heap block of its exact size.
 */

#ifndef VENEER_TESTS_FUZZ_H1_H
#define VENEER_TESTS_FUZZ_H1_H

#include "cache/http.h"
#include "cache/http1_parse.h"
#include "tests/fuzz/fuzz.h"

/*
 * The bounds, from the input's first two bytes: the longest header line
 * (http_req_hdr_len / http_resp_hdr_len, from their minimum 40b up) and
 * the header slots (http_max_hdr, from its minimum 32 up), small enough
 * that the fuzzer reaches both limits.
 */
#define FUZZ_H1_HDR_LEN_MIN	40
#define FUZZ_H1_HDR_LEN_STEP	32
#define FUZZ_H1_MAX_HDR_MIN	32
#define FUZZ_H1_MAX_HDR_SPAN	64

struct fuzz_h1 {
	struct http		http;
	struct txt		*hd;
	unsigned char		*hdf;
	struct vsl_log		*vsl;
	char			*buf;
	size_t			hdr_len;
};

static inline void
fuzz_h1_init(struct fuzz_h1 *f, const uint8_t **data, size_t *size,
    enum VSL_tag_e logtag)
{
	unsigned nhdr;

	memset(f, 0, sizeof *f);
	f->hdr_len = FUZZ_H1_HDR_LEN_MIN +
	    FUZZ_H1_HDR_LEN_STEP * (size_t)fuzz_byte(data, size);
	nhdr = FUZZ_H1_MAX_HDR_MIN + fuzz_byte(data, size) %
	    FUZZ_H1_MAX_HDR_SPAN + HTTP_HDR_FIRST;
	f->hd = calloc(nhdr, sizeof *f->hd);
	f->hdf = calloc(nhdr, 1);
	/* HTTP_Setup keeps the pointer; the parser itself never logs. */
	f->vsl = calloc(1, 1024);
	assert(f->hd != NULL && f->hdf != NULL && f->vsl != NULL);
	HTTP_Setup(&f->http, NULL, f->hd, f->hdf, nhdr, f->vsl, logtag);
	f->buf = malloc(*size == 0 ? 1 : *size);
	assert(f->buf != NULL);
	if (*size > 0)
		memcpy(f->buf, *data, *size);
}

static inline void
fuzz_h1_fini(struct fuzz_h1 *f)
{

	free(f->hd);
	free(f->hdf);
	free(f->vsl);
	free(f->buf);
}

/*
 * The head arriving in reads of step bytes (H1_CompleteScan, as the
 * session and the waiter scan it): after each read the answer is the
 * one-shot scan's over what has arrived, and the work stays linear.
 */
static inline void
fuzz_h1_incremental(const struct fuzz_h1 *f, size_t size, size_t step)
{
	const char *b1, *e1, *b2, *e2;
	enum h1_complete r1, r2;
	struct h1_scan s;
	size_t l = 0;

	H1_ScanInit(&s);
	do {
		l = l + step < size ? l + step : size;
		r1 = H1_CompleteScan(&s, f->buf, f->buf + l, &b1, &e1);
		r2 = H1_Complete(f->buf, f->buf + l, &b2, &e2);
		assert(r1 == r2);
		if (r1 == H1_COMPLETE)
			assert(b1 == b2 && e1 == e2);
		assert(s.examined <= 16 * l + 64);
	} while (r1 == H1_MORE && l < size);
}

/*
 * H1_Complete over the whole input, and its promises: the head lies
 * within the input.  1 with [*hb, *he) for a complete head, else 0.
 * The incremental scan, in reads of a size the input picks, agrees.
 */
static inline int
fuzz_h1_complete(const struct fuzz_h1 *f, size_t size, char **hb,
    char **he)
{
	const char *b, *e;

	fuzz_h1_incremental(f, size, 1 + size % 13);
	if (H1_Complete(f->buf, f->buf + size, &b, &e) != H1_COMPLETE)
		return (0);
	assert(b >= f->buf && b <= e && e <= f->buf + size);
	*hb = f->buf + (b - f->buf);
	*he = f->buf + (e - f->buf);
	return (1);
}

/* Every slot the parser filled is a string inside the head. */
static inline void
fuzz_h1_check(const struct fuzz_h1 *f, const char *hb, const char *he)
{
	const struct txt *t;
	unsigned u;

	assert(f->http.nhd <= f->http.shd);
	for (u = 0; u < f->http.nhd; u++) {
		t = &f->http.hd[u];
		if (t->b == NULL)
			continue;
		assert(t->b >= hb && t->b <= t->e && t->e < he);
		assert(*t->e == '\0');
	}
}

#endif /* VENEER_TESTS_FUZZ_H1_H */

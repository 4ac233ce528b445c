/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_chunked.c -- the chunked decoder (H1_ChunkedInit, H1_ChunkedNext)
 * fed a body in pieces, as reads deliver it.  The input's first byte
 * sets the piece size (1 to 64 bytes, 0 for all at once), the second
 * the trailer limit (http_req_size / http_resp_size, scaled down so the
 * fuzzer reaches it).
 */

#include "config.h"

#include "common/txt.h"
#include "cache/http1_parse.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_CHUNKED_PIECE_MAX	64
#define FUZZ_CHUNKED_TRAILER_STEP 16

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct h1_chunked c;
	struct txt out;
	const char *p, *e, *why, *end, *prev;
	enum h1c r;
	size_t piece, trailer_max;
	char *buf;

	piece = fuzz_byte(&data, &size) % (FUZZ_CHUNKED_PIECE_MAX + 1);
	trailer_max = FUZZ_CHUNKED_TRAILER_STEP *
	    (size_t)fuzz_byte(&data, &size);
	buf = malloc(size == 0 ? 1 : size);
	assert(buf != NULL);
	if (size > 0)
		memcpy(buf, data, size);
	end = buf + size;
	H1_ChunkedInit(&c, trailer_max);
	p = buf;
	e = piece == 0 || size < piece ? end : buf + piece;
	for (;;) {
		prev = p;
		why = NULL;
		r = H1_ChunkedNext(&c, &p, e, &out, &why);
		assert(p >= prev && p <= e);
		if (r == H1C_ERROR) {
			assert(why != NULL);
			break;
		}
		if (r == H1C_END)
			break;
		if (r == H1C_DATA) {
			/* Body bytes, taken from what was consumed. */
			assert(out.b >= prev && out.b < out.e && out.e <= p);
			continue;
		}
		assert(r == H1C_MORE);
		assert(p == e);
		if (e == end)
			break;
		e = (size_t)(end - e) > piece ? e + piece : end;
	}
	free(buf);
	return (0);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_blob.c -- the blob module's decoders (src/cache/vmod_blob_codec.c),
 * fed text from VCL they have never seen.
 *
 * Input: a knob byte (its low 3 bits: the scheme, 7 meaning HEX again;
 * the next 3: how many pieces the text is cut into, at NUL bytes of the
 * input, 0 meaning as many as it has; the high 2: the limit, none, a
 * quarter, a half or all of the text), then the text.
 * Checks: decoding never writes past the space given, whatever the
 * space (from 0 bytes to the bound); with the bound's room it either
 * decodes or says illegal, never "no space", and with less it says "no
 * space"; the pieces give what their concatenation gives; and what it
 * decoded encodes and decodes back to the same bytes in every scheme
 * and case.
 */

#include "config.h"

#include <sys/types.h>

#include "cache/vmod_blob.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_BLOB_PIECES	16
#define FUZZ_BLOB_GUARD		16

static ssize_t
fuzz_decode(enum blob_codec c, size_t space, ssize_t limit,
    const char * const *p, int n, uint8_t **out)
{
	uint8_t *buf;
	ssize_t r;
	size_t u;

	/* The guard bytes after the space must stay as they are. */
	buf = malloc(space + FUZZ_BLOB_GUARD);
	assert(buf != NULL);
	memset(buf, 0xa5, space + FUZZ_BLOB_GUARD);
	r = BLOB_Decode(c, buf, space, limit, p, n);
	for (u = 0; u < FUZZ_BLOB_GUARD; u++)
		assert(buf[space + u] == 0xa5);
	assert(r == BLOB_ILLEGAL || r == BLOB_NOSPACE ||
	    (r >= 0 && (size_t)r <= space));
	*out = buf;
	return (r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *pieces[FUZZ_BLOB_PIECES], *one[1];
	unsigned knob, want, upper, e;
	enum blob_codec c;
	uint8_t *whole, *cut, *small, *back;
	char *text, *joined, *s, *enc;
	size_t len, bound, sp, elen;
	ssize_t limit, r, r2;
	int n, i;

	knob = fuzz_byte(&data, &size);
	c = (enum blob_codec)(knob & 7);
	if (c >= BLOB__NCODEC)
		c = BLOB_HEX;
	want = (knob >> 3) & 7;
	text = malloc(size + 1);
	assert(text != NULL);
	if (size > 0)
		memcpy(text, data, size);
	text[size] = '\0';

	/* The pieces: the input's NULs cut it (a NUL ends a VCL string, so
	 * a piece never holds one); and all of them joined. */
	n = 0;
	for (s = text; n < FUZZ_BLOB_PIECES && (want == 0 || n < (int)want);) {
		pieces[n++] = s;
		if (s + strlen(s) >= text + size)
			break;
		s += strlen(s) + 1;
	}
	joined = malloc(size + 1);
	assert(joined != NULL);
	len = 0;
	for (i = 0; i < n; i++) {
		memcpy(joined + len, pieces[i], strlen(pieces[i]));
		len += strlen(pieces[i]);
	}
	joined[len] = '\0';
	switch (knob >> 6) {
	case 0:		limit = -1; break;
	case 1:		limit = (ssize_t)(len / 4); break;
	case 2:		limit = (ssize_t)(len / 2); break;
	default:	limit = (ssize_t)len; break;
	}

	/* With as much room as promised: decoded or illegal. */
	one[0] = joined;
	bound = BLOB_DecodeBound(c, len);
	r = fuzz_decode(c, bound, limit, one, 1, &whole);
	assert(r != BLOB_NOSPACE);
	r2 = fuzz_decode(c, bound, limit, pieces, n, &cut);
	assert(r2 == r);
	assert(r <= 0 || !memcmp(whole, cut, (size_t)r));
	free(cut);

	if (r >= 0) {
		/* Less room: "no space", never a byte past it. */
		for (sp = 0; sp < (size_t)r && sp < 8; sp++) {
			r2 = fuzz_decode(c, sp, limit, pieces, n, &small);
			assert(r2 == BLOB_NOSPACE);
			free(small);
		}
		/* Every scheme and case gives the bytes back. */
		for (e = 0; e < BLOB__NCODEC; e++) {
			for (upper = 0; upper < 2; upper++) {
				if (e == BLOB_IDENTITY &&
				    memchr(whole, 0, (size_t)r) != NULL)
					continue;
				elen = BLOB_EncodeLen(e, whole, (size_t)r);
				enc = malloc(elen + 1);
				assert(enc != NULL);
				assert(BLOB_Encode(e, (int)upper, enc,
				    elen + 1, whole, (size_t)r) ==
				    (ssize_t)elen);
				assert(strlen(enc) == elen);
				one[0] = enc;
				r2 = fuzz_decode(e, BLOB_DecodeBound(e, elen),
				    -1, one, 1, &back);
				assert(r2 == r);
				assert(r == 0 || !memcmp(back, whole,
				    (size_t)r));
				free(back);
				free(enc);
			}
		}
	}
	free(whole);
	free(joined);
	free(text);
	return (0);
}

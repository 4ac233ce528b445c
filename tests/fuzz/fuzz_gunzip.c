/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_gunzip.c -- the gunzip and test-gunzip streams (src/cache/gzip.c),
 * fed a backend's body in the pieces it arrives in, and gzip's round
 * trip.
 *
 * Input: a knob byte (its low 3 bits: the piece size, 1 to 7 bytes, 0
 * meaning all at once; bit 3: test-gunzip rather than gunzip; the high
 * 4: the output buffer, 16 to 256 bytes), then the body.
 * Checks: pieces and the whole body give the same result and the same
 * output; an error has a message; test mode hands nothing out; gzip
 * then gunzip of the body gives it back.
 */

#include "config.h"

#include "cache/gzip.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_OUT_MAX	(1U << 20)	/* a bomb stops here */

struct fuzz_out {
	uint8_t		*buf;
	size_t		len;
	unsigned	test;
};

static int
fuzz_out(void *priv, const void *p, size_t len)
{
	struct fuzz_out *o = priv;

	assert(!o->test);
	assert(len > 0);
	if (o->len + len > FUZZ_OUT_MAX)
		return (1);
	memcpy(o->buf + o->len, p, len);
	o->len += len;
	return (0);
}

static int
fuzz_run(enum gzip_mode mode, const uint8_t *in, size_t len, size_t step,
    size_t bufsize, struct fuzz_out *o)
{
	struct gzip *g;
	size_t at, n;
	int r = GZIP_OK;

	g = GZIP_New(mode, 6, 8, bufsize);
	assert(g != NULL);
	for (at = 0; at < len && r == GZIP_OK; at += n) {
		n = step == 0 || len - at < step ? len - at : step;
		r = GZIP_Feed(g, in + at, n, 0, fuzz_out, o);
	}
	if (r == GZIP_OK)
		r = GZIP_Feed(g, NULL, 0, 1, fuzz_out, o);
	if (r == GZIP_ERROR)
		assert(*GZIP_Error(g) != '\0');
	if (r == GZIP_OK)
		assert(GZIP_Ended(g));
	GZIP_Free(&g);
	assert(g == NULL);
	return (r);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_out o1, o2, z;
	enum gzip_mode mode;
	size_t step, bufsize, n;
	int r1, r2;

	if (size < 1)
		return (0);
	step = data[0] & 7;
	mode = (data[0] & 8) ? GZIP_M_TEST : GZIP_M_GUNZIP;
	bufsize = ((size_t)(data[0] >> 4) + 1) * 16;
	data++;
	size--;
	memset(&o1, 0, sizeof o1);
	memset(&o2, 0, sizeof o2);
	o1.test = o2.test = mode == GZIP_M_TEST;
	o1.buf = malloc(FUZZ_OUT_MAX);
	o2.buf = malloc(FUZZ_OUT_MAX);
	assert(o1.buf != NULL && o2.buf != NULL);
	r1 = fuzz_run(mode, data, size, step, bufsize, &o1);
	r2 = fuzz_run(mode, data, size, 0, 4096, &o2);
	assert(r1 == r2);
	if (r1 == GZIP_OUT) {
		/* A bomb: stopped where the pieces of output crossed the
		 * limit, which depends on their sizes. */
		n = o1.len < o2.len ? o1.len : o2.len;
		assert(!memcmp(o1.buf, o2.buf, n));
	} else
		assert(o1.len == o2.len && (o1.len == 0 ||
		    !memcmp(o1.buf, o2.buf, o1.len)));

	/* gzip then gunzip gives the body back. */
	if (size > FUZZ_OUT_MAX / 2)
		goto out;
	memset(&z, 0, sizeof z);
	z.buf = o2.buf;
	assert(fuzz_run(GZIP_M_GZIP, data, size, step, bufsize, &z) ==
	    GZIP_OK);
	o1.len = 0;
	o1.test = 0;
	assert(fuzz_run(GZIP_M_GUNZIP, z.buf, z.len, step, bufsize, &o1) ==
	    GZIP_OK);
	assert(o1.len == size && (size == 0 || !memcmp(o1.buf, data, size)));
out:
	free(o1.buf);
	free(o2.buf);
	return (0);
}

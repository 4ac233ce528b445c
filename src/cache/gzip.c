/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * gzip.c -- gzip, gunzip and test-gunzip of a body as it streams, through
 * zlib.  Owns struct gzip: a z_stream and its output buffer.  No locks:
 * one thread uses a stream.
 *
 * Memory: zlib's state (about 40 KB to inflate, 256 KB to deflate at
 * memlevel 8) and the gzip_buffer output buffer come from malloc, not a
 * workspace: they are far larger than a workspace and live only while a
 * body is processed, then are freed.  Varnish does the same.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/gzip.h"
#include "cache/obj.h"
#include "cache/vsl.h"

struct gzip {
	unsigned		magic;
#define GZIP_MAGIC		0x3b9f61d4
	enum gzip_mode		mode;
	unsigned		ended;		/* stream (or input) ended */
	unsigned		failed;		/* takes no more input */
	z_stream		z;
	char			err[96];
	size_t			bufsize;
	unsigned char		buf[];
};

struct gzip *
GZIP_New(enum gzip_mode mode, unsigned level, unsigned memlevel,
    size_t bufsize)
{
	struct gzip *g;
	int i;

	assert(bufsize > 0);
	g = calloc(1, sizeof *g + bufsize);
	if (g == NULL)
		return (NULL);
	g->magic = GZIP_MAGIC;
	g->mode = mode;
	g->bufsize = bufsize;
	/* windowBits 16 + 15: a gzip header and trailer, 32 KB window. */
	if (mode == GZIP_M_GZIP)
		i = deflateInit2(&g->z, (int)level, Z_DEFLATED, 16 + 15,
		    (int)memlevel, Z_DEFAULT_STRATEGY);
	else
		i = inflateInit2(&g->z, 16 + 15);
	if (i != Z_OK) {
		free(g);
		return (NULL);
	}
	return (g);
}

void
GZIP_Free(struct gzip **gp)
{
	struct gzip *g;

	TAKE_OBJ_NOTNULL(g, gp, GZIP_MAGIC);
	/* The result says whether the stream was complete: known. */
	if (g->mode == GZIP_M_GZIP)
		(void)deflateEnd(&g->z);
	else
		(void)inflateEnd(&g->z);
	g->magic = 0;
	free(g);
}

static int
gzip_fail(struct gzip *g, const char *what, const char *why)
{

	g->failed = 1;
	if (why != NULL)
		(void)snprintf(g->err, sizeof g->err, "%s: %s", what, why);
	else
		(void)snprintf(g->err, sizeof g->err, "%s", what);
	return (GZIP_ERROR);
}

/* Hand what the buffer holds to out. */
static int
gzip_emit(struct gzip *g, gzip_out_f *out, void *priv)
{
	size_t n = g->bufsize - g->z.avail_out;

	if (n == 0 || out == NULL || g->mode == GZIP_M_TEST)
		return (GZIP_OK);
	if (out(priv, g->buf, n) != 0) {
		g->failed = 1;
		return (GZIP_OUT);
	}
	return (GZIP_OK);
}

static int
gzip_inflate(struct gzip *g, int last, gzip_out_f *out, void *priv)
{
	int i, r;

	if (g->ended && g->z.avail_in > 0)
		return (gzip_fail(g, "Junk after gzip data", NULL));
	while (!g->ended) {
		g->z.next_out = g->buf;
		g->z.avail_out = (uInt)g->bufsize;
		i = inflate(&g->z, Z_NO_FLUSH);
		r = gzip_emit(g, out, priv);
		if (r != GZIP_OK)
			return (r);
		if (i == Z_STREAM_END) {
			g->ended = 1;
			if (g->z.avail_in > 0)
				return (gzip_fail(g, "Junk after gzip data",
				    NULL));
			break;
		}
		if (i == Z_BUF_ERROR && g->z.avail_in == 0)
			break;		/* wants more input */
		if (i != Z_OK)
			return (gzip_fail(g, "Invalid Gzip data",
			    g->z.msg != NULL ? g->z.msg : "(null)"));
		if (g->z.avail_in == 0 && g->z.avail_out > 0)
			break;
	}
	if (last && !g->ended)
		return (gzip_fail(g, "Gunzip error at the very end", NULL));
	return (GZIP_OK);
}

static int
gzip_deflate(struct gzip *g, int last, gzip_out_f *out, void *priv)
{
	int i, r;

	if (g->ended) {
		assert(g->z.avail_in == 0);	/* input after its end: bug */
		return (GZIP_OK);
	}
	do {
		g->z.next_out = g->buf;
		g->z.avail_out = (uInt)g->bufsize;
		i = deflate(&g->z, last ? Z_FINISH : Z_NO_FLUSH);
		if (i == Z_STREAM_ERROR)
			return (gzip_fail(g, "Gzip failed", NULL));
		r = gzip_emit(g, out, priv);
		if (r != GZIP_OK)
			return (r);
	} while (g->z.avail_out == 0 || g->z.avail_in > 0);
	if (last) {
		if (i != Z_STREAM_END)
			return (gzip_fail(g, "Gzip failed", NULL));
		g->ended = 1;
	}
	return (GZIP_OK);
}

int
GZIP_Feed(struct gzip *g, const void *ptr, size_t len, int last,
    gzip_out_f *out, void *priv)
{
	size_t n;
	int r;

	CHECK_OBJ_NOTNULL(g, GZIP_MAGIC);
	assert(!g->failed);
	/* avail_in is a uInt: feed in pieces zlib can take. */
	do {
		n = len > 0x40000000 ? 0x40000000 : len;
		g->z.next_in = (Bytef *)(uintptr_t)ptr;
		g->z.avail_in = (uInt)n;
		if (n > 0)	/* ptr may be NULL with len 0 */
			ptr = (const char *)ptr + n;
		len -= n;
		if (g->mode == GZIP_M_GZIP)
			r = gzip_deflate(g, last && len == 0, out, priv);
		else
			r = gzip_inflate(g, last && len == 0, out, priv);
		if (r != GZIP_OK)
			return (r);
	} while (len > 0);
	return (GZIP_OK);
}

const char *
GZIP_Error(const struct gzip *g)
{

	CHECK_OBJ_NOTNULL(g, GZIP_MAGIC);
	return (g->err);
}

int
GZIP_Ended(const struct gzip *g)
{

	CHECK_OBJ_NOTNULL(g, GZIP_MAGIC);
	return (g->ended);
}

void
GZIP_Totals(const struct gzip *g, uint64_t *in, uint64_t *out)
{

	CHECK_OBJ_NOTNULL(g, GZIP_MAGIC);
	*in = g->z.total_in;
	*out = g->z.total_out;
}

/*--------------------------------------------------------------------
 * Delivery: a stored gzip object, uncompressed on the way out.
 */

struct gzip_iter {
	unsigned		magic;
#define GZIP_ITER_MAGIC		0x51e7a0c6
	uint64_t		pos;		/* plain bytes so far */
	uint64_t		lo, hi;		/* what func gets */
	int			ret;		/* func's non-zero return */
	unsigned		done;		/* past hi: stop */
	void			*priv;
	obj_iter_f		*func;
};

static int
gzip_iter_out(void *priv, const void *ptr, size_t len)
{
	struct gzip_iter *gi;
	const char *p = ptr;
	uint64_t b, e;

	CAST_OBJ_NOTNULL(gi, priv, GZIP_ITER_MAGIC);
	b = gi->pos;
	e = gi->pos + len;
	gi->pos = e;
	if (b < gi->lo)
		b = gi->lo;
	if (e > gi->hi)
		e = gi->hi;
	if (b < e) {
		/*
		 * Always flushed: the bytes are in the gzip buffer, which the
		 * next output overwrites and GZIP_Free frees; a writer that
		 * only queued them would send what is there by then (ASan
		 * caught a use after free).
		 */
		gi->ret = gi->func(gi->priv, 1,
		    p + (b - (gi->pos - len)), (size_t)(e - b));
		if (gi->ret != 0)
			return (1);
	}
	if (gi->pos >= gi->hi) {
		gi->done = 1;
		return (1);
	}
	return (0);
}

struct gzip_iter_feed {
	unsigned		magic;
#define GZIP_ITER_FEED_MAGIC	0x2c84e1b3
	struct gzip		*g;
	struct gzip_iter	*gi;
	unsigned		bad;		/* gunzip error */
};

static int
gzip_iter_piece(void *priv, int flush, const void *ptr, size_t len)
{
	struct gzip_iter_feed *gf;
	int r;

	CAST_OBJ_NOTNULL(gf, priv, GZIP_ITER_FEED_MAGIC);
	r = GZIP_Feed(gf->g, ptr, len, 0, gzip_iter_out, gf->gi);
	if (r == GZIP_ERROR) {
		gf->bad = 1;
		return (-1);
	}
	if (r == GZIP_OUT)
		return (gf->gi->done ? 1 : gf->gi->ret);
	if (flush)
		return (gf->gi->func(gf->gi->priv, 1, ptr, 0));
	return (0);
}

int
GZIP_Iterate(struct objcore *oc, struct boc *boc, enum gzip_mode mode,
    uint64_t lo, uint64_t hi, struct vsl_log *vsl, void *priv,
    obj_iter_f *func)
{
	struct gzip_iter gi;
	struct gzip_iter_feed gf;
	int r, f;

	CHECK_OBJ_NOTNULL(oc, OBJCORE_MAGIC);
	assert(mode == GZIP_M_GUNZIP ||
	    (mode == GZIP_M_GZIP && lo == 0 && hi == UINT64_MAX));
	INIT_OBJ(&gi, GZIP_ITER_MAGIC);
	INIT_OBJ(&gf, GZIP_ITER_FEED_MAGIC);
	gi.lo = lo;
	gi.hi = hi;
	gi.priv = priv;
	gi.func = func;
	gf.gi = &gi;
	if (lo >= hi)
		return (0);
	gf.g = GZIP_New(mode, cache_param->gzip_level,
	    cache_param->gzip_memlevel, (size_t)cache_param->gzip_buffer);
	if (gf.g == NULL) {
		VSLb(vsl, SLT_Gzip, "G(un)zip error: no memory for "
		    "gzip_buffer (%ju bytes)",
		    (uintmax_t)cache_param->gzip_buffer);
		return (-1);
	}
	r = OBJ_Iterate(oc, boc, 0, UINT64_MAX, &gf, gzip_iter_piece);
	if (r == 0 && !gi.done) {
		f = GZIP_Feed(gf.g, "", 0, 1, gzip_iter_out, &gi);
		if (f == GZIP_ERROR) {
			gf.bad = 1;
			r = -1;
		} else if (f == GZIP_OUT)
			r = gi.done ? 0 : gi.ret;
	}
	if (gi.done && r == 1)
		r = 0;
	if (gf.bad)
		VSLb(vsl, SLT_Gzip, "G(un)zip error: %s", GZIP_Error(gf.g));
	VSLb(vsl, SLT_Gzip, "%s %ju %ju 0 0 0",
	    mode == GZIP_M_GZIP ? "G D -" : "U D -",
	    (uintmax_t)gf.g->z.total_in, (uintmax_t)gf.g->z.total_out);
	GZIP_Free(&gf.g);
	return (r);
}

static int
gzip_trailer_piece(void *priv, int flush, const void *ptr, size_t len)
{
	unsigned char *t = priv;

	(void)flush;
	/* The last 4 of 8 bytes: shift in what comes, in order. */
	while (len-- > 0) {
		memmove(t, t + 1, 7);
		t[7] = *(const unsigned char *)ptr;
		ptr = (const unsigned char *)ptr + 1;
	}
	return (0);
}

uint64_t
GZIP_PlainLen(struct objcore *oc)
{
	unsigned char t[8];
	uint64_t len;

	CHECK_OBJ_NOTNULL(oc, OBJCORE_MAGIC);
	CHECK_OBJ_NOTNULL(oc->obj, OBJECT_MAGIC);
	len = oc->obj->len;
	if (!oc->obj->gzipped || len < 18 || len >= (4U << 20))
		return (UINT64_MAX);
	memset(t, 0, sizeof t);
	if (OBJ_Iterate(oc, NULL, len - 8, len, t, gzip_trailer_piece) != 0)
		return (UINT64_MAX);
	return ((uint64_t)t[4] | (uint64_t)t[5] << 8 |
	    (uint64_t)t[6] << 16 | (uint64_t)t[7] << 24);
}

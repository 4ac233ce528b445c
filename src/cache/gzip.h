/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * gzip.h -- streaming gzip, gunzip and test-gunzip of bodies through
 * zlib, one bounded output buffer (gzip_buffer) per body.  The fetch
 * uses them to store a body as beresp.do_gzip / do_gunzip say (and to
 * check a gzip body it stores as it came); delivery uses gunzip for a
 * client that does not accept gzip.  A struct gzip belongs to one
 * thread.
 */

#ifndef VENEER_CACHE_GZIP_H
#define VENEER_CACHE_GZIP_H

#include <stddef.h>
#include <stdint.h>

#include "cache/obj.h"

struct boc;
struct gzip;
struct objcore;
struct vsl_log;

enum gzip_mode {
	GZIP_M_GUNZIP,		/* gzip in, plain out */
	GZIP_M_GZIP,		/* plain in, gzip out */
	GZIP_M_TEST,		/* gzip in, checked, nothing out */
};

/* Feed results. */
#define GZIP_OK		0
#define GZIP_ERROR	(-1)	/* bad input or zlib failed: GZIP_Error */
#define GZIP_OUT	(-2)	/* the output function said stop */

/*
 * Take the bytes out produces: 0 to go on, non-zero to stop (GZIP_Feed
 * then returns GZIP_OUT).  ptr is valid during the call only.
 */
typedef int gzip_out_f(void *priv, const void *ptr, size_t len);

/*
 * A new stream; level and memlevel matter to GZIP_M_GZIP only.  bufsize
 * bytes of output buffer.  NULL when out of memory.
 */
struct gzip *GZIP_New(enum gzip_mode mode, unsigned level,
    unsigned memlevel, size_t bufsize);

/*
 * Feed len bytes (len may be 0); last says they are the end of the
 * input: gzip then writes its trailer, gunzip and test fail unless the
 * gzip stream ended.  Bytes after the end of the gzip stream are an
 * error ("Junk after gzip data"), as in Varnish.  out may be NULL (test
 * mode never calls it).  Returns GZIP_OK, GZIP_ERROR or GZIP_OUT; after
 * an error the stream takes no more input.
 */
int GZIP_Feed(struct gzip *g, const void *ptr, size_t len, int last,
    gzip_out_f *out, void *priv);

/* Why the last GZIP_Feed returned GZIP_ERROR, worded as Varnish's
 * FetchError records are ("Invalid Gzip data: ..."). */
const char *GZIP_Error(const struct gzip *g);

/* Has the gzip stream (gunzip, test) or the input (gzip) ended? */
int GZIP_Ended(const struct gzip *g);

/* Bytes in and out so far. */
void GZIP_Totals(const struct gzip *g, uint64_t *in, uint64_t *out);

void GZIP_Free(struct gzip **gp);

/*
 * The uncompressed length of oc's whole gzip body, or UINT64_MAX when
 * it cannot be known without uncompressing it.  The fetch checked the
 * body is one gzip member, whose trailer holds the length modulo 2^32;
 * deflate expands at most 1032 times, so a body of under 4 MB cannot
 * have wrapped it.
 */
uint64_t GZIP_PlainLen(struct objcore *oc);

/*
 * Deliver oc's body (boc: still being fetched, or NULL) through a new
 * stream to func, as OBJ_Iterate does: GZIP_M_GUNZIP, bytes [lo, hi)
 * (hi UINT64_MAX: to the end) of its gzip body uncompressed; GZIP_M_GZIP,
 * all of its plain body compressed (lo 0, hi UINT64_MAX).  Returns 0, -1
 * when the fetch failed or the body does not gunzip (logged as a Gzip
 * record in vsl), or func's non-zero value.
 */
int GZIP_Iterate(struct objcore *oc, struct boc *boc, enum gzip_mode mode,
    uint64_t lo, uint64_t hi, struct vsl_log *vsl, void *priv,
    obj_iter_f *func);

#endif /* VENEER_CACHE_GZIP_H */

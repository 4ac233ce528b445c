/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_blob.c -- the blob module (include/vmod_std.h), as Varnish 7.1's
 * vmod_blob: BLOBs decoded from text and encoded to it by the codecs of
 * vmod_blob_codec.c, compared, measured and cut.  What the functions
 * make lives on the task's workspace (ctx->ws); running out of it fails
 * the VCL with Varnish's message, never writes past it.  A blob.blob
 * object decodes once, in vcl_init, onto the heap, and makes every
 * encoding of its bytes then too, so that .encode() on the request path
 * neither allocates nor locks (the cost: about 17 times the blob's size,
 * for blobs that are in practice keys and secrets).
 *
 * Errors are Varnish's words ("vmod blob error: ..."), which its tests
 * and operators' log queries match.
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/vmod_blob.h"
#include "cache/vrt_priv.h"
#include "cache/ws.h"
#include "vrt.h"

#define BLOB_ERR	"vmod blob error: "

/* Decoded from nothing: every empty result is this one (see same()). */
static const struct vrt_blob blob_empty = {
	.magic = VRT_BLOB_MAGIC,
	.len = 0,
	.blob = "",
};

struct vmod_blob_blob {
	unsigned		magic;
#define VMOD_BLOB_BLOB_MAGIC	0x5b0e7a2d
	struct vrt_blob		blob;		/* const after init */
	void			*bytes;		/* malloc'd, or NULL */
	/* The encodings, [codec][upper]; const after init. */
	char			*text[BLOB__NCODEC][2];
};

/* The ENUM value as a codec; the compiler passes only the listed ones. */
static enum blob_codec
blob_codec(VCL_ENUM e)
{
	int c;

	c = BLOB_CodecByName(e);
	assert(c >= 0);
	return ((enum blob_codec)c);
}

/*
 * 1 for UPPER; 0 for LOWER and DEFAULT.  Fails the VCL (-1) when case is
 * not DEFAULT for a scheme without hex digits.
 */
static int
blob_case(VRT_CTX, VCL_ENUM encoding, VCL_ENUM kase)
{

	assert(kase != NULL);
	if (!strcmp(kase, "DEFAULT"))
		return (0);
	if (!BLOB_CodecHasCase(blob_codec(encoding))) {
		VRT_fail(ctx, BLOB_ERR "case %s is illegal with encoding %s",
		    kase, encoding);
		return (-1);
	}
	if (!strcmp(kase, "UPPER"))
		return (1);
	assert(!strcmp(kase, "LOWER"));
	return (0);
}

/* What an error message quotes of the input: its first string. */
static const char *
blob_first(VCL_STRANDS s)
{

	if (s == NULL || s->n == 0 || s->p[0] == NULL)
		return ("");
	return (s->p[0]);
}

static void
blob_decode_fail(VRT_CTX, ssize_t r, VCL_STRANDS s)
{

	if (r == BLOB_NOSPACE)
		VRT_fail(ctx, BLOB_ERR "cannot decode, out of space");
	else
		VRT_fail(ctx, BLOB_ERR "cannot decode, illegal encoding "
		    "beginning with \"%s\"", blob_first(s));
}

/* Functions ---------------------------------------------------------------*/

/*
 * Decodes into the free workspace, reserved (*spacep bytes): *lenp bytes,
 * the reservation kept for the caller to release.  NULL, released and
 * failed, on error.
 */
static uint8_t *
blob_decode_ws(VRT_CTX, enum blob_codec c, VCL_INT length, VCL_STRANDS s,
    size_t *lenp, size_t *spacep)
{
	uint8_t *buf;
	size_t space;
	ssize_t r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(s != NULL);
	space = WS_ReserveAll(ctx->ws);
	buf = (uint8_t *)WS_Reservation(ctx->ws);
	r = BLOB_Decode(c, buf, space, length > 0 ? (ssize_t)length : -1,
	    s->p, s->n);
	if (r < 0) {
		WS_Release(ctx->ws, 0);
		blob_decode_fail(ctx, r, s);
		return (NULL);
	}
	*lenp = (size_t)r;
	*spacep = space;
	return (buf);
}

VCL_BLOB
vmod_blob_decode(VRT_CTX, VCL_ENUM decoding, VCL_INT length,
    VCL_STRANDS encoded)
{
	uint8_t *buf;
	size_t len, space;

	buf = blob_decode_ws(ctx, blob_codec(decoding), length, encoded, &len,
	    &space);
	if (buf == NULL)
		return (NULL);
	WS_Release(ctx->ws, len);
	if (len == 0)
		return (&blob_empty);
	return (VRT_blob(ctx, "blob.decode", buf, len));
}

/* The text of b on the workspace; NULL and failed when it does not fit. */
static VCL_STRING
blob_encode_ws(VRT_CTX, enum blob_codec c, int upper, VCL_BLOB b)
{
	char *buf;
	size_t space;
	ssize_t r;

	CHECK_OBJ(b, VRT_BLOB_MAGIC);
	if (b->len == 0)
		return ("");
	space = WS_ReserveAll(ctx->ws);
	buf = WS_Reservation(ctx->ws);
	r = BLOB_Encode(c, upper, buf, space, b->blob, b->len);
	if (r < 0) {
		assert(r == BLOB_NOSPACE);
		WS_Release(ctx->ws, 0);
		VRT_fail(ctx, BLOB_ERR "cannot encode, out of space");
		return (NULL);
	}
	WS_Release(ctx->ws, (size_t)r + 1);
	return (buf);
}

VCL_STRING
vmod_blob_encode(VRT_CTX, VCL_ENUM encoding, VCL_ENUM kase, VCL_BLOB b)
{
	int upper;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	upper = blob_case(ctx, encoding, kase);
	if (upper < 0 || b == NULL)
		return (NULL);
	return (blob_encode_ws(ctx, blob_codec(encoding), upper, b));
}

/*
 * Decodes at the start of the free workspace and encodes right after,
 * then moves the text down over the bytes: one reservation, no stack.
 */
VCL_STRING
vmod_blob_transcode(VRT_CTX, VCL_ENUM decoding, VCL_ENUM encoding,
    VCL_ENUM kase, VCL_INT length, VCL_STRANDS encoded)
{
	enum blob_codec dec, enc;
	size_t len, space, at;
	uint8_t *buf;
	ssize_t r;
	int upper;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	dec = blob_codec(decoding);
	enc = blob_codec(encoding);
	upper = blob_case(ctx, encoding, kase);
	if (upper < 0)
		return (NULL);
	buf = blob_decode_ws(ctx, dec, length, encoded, &len, &space);
	if (buf == NULL)
		return (NULL);
	if (len == 0) {
		WS_Release(ctx->ws, 0);
		return ("");
	}
	if (length <= 0 && dec == enc && !BLOB_CodecHasCase(enc)) {
		/* Valid, and the same scheme: the text as it came. */
		WS_Release(ctx->ws, 0);
		return (VRT_STRANDS_string(ctx, encoded));
	}
	at = len;
	assert(at <= space);
	r = BLOB_Encode(enc, upper, (char *)buf + at, space - at, buf, len);
	if (r < 0) {
		assert(r == BLOB_NOSPACE);
		WS_Release(ctx->ws, 0);
		VRT_fail(ctx, BLOB_ERR "cannot encode, out of space");
		return (NULL);
	}
	memmove(buf, buf + at, (size_t)r + 1);
	WS_Release(ctx->ws, (size_t)r + 1);
	return ((const char *)buf);
}

static int
blob_is_empty(VCL_BLOB b)
{

	if (b == NULL)
		return (1);
	CHECK_OBJ(b, VRT_BLOB_MAGIC);
	return (b->len == 0 || b->blob == NULL);
}

VCL_BOOL
vmod_blob_same(VRT_CTX, VCL_BLOB a, VCL_BLOB b)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (blob_is_empty(a) || blob_is_empty(b))
		return (blob_is_empty(a) && blob_is_empty(b));
	return (a->len == b->len && a->blob == b->blob);
}

VCL_BOOL
vmod_blob_equal(VRT_CTX, VCL_BLOB a, VCL_BLOB b)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (blob_is_empty(a) || blob_is_empty(b))
		return (blob_is_empty(a) && blob_is_empty(b));
	return (a->len == b->len &&
	    (a->blob == b->blob || !memcmp(a->blob, b->blob, a->len)));
}

VCL_INT
vmod_blob_length(VRT_CTX, VCL_BLOB b)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (b == NULL)
		return (0);
	CHECK_OBJ(b, VRT_BLOB_MAGIC);
	return ((VCL_INT)b->len);
}

VCL_BLOB
vmod_blob_sub(VRT_CTX, VCL_BLOB b, VCL_BYTES length, VCL_BYTES offset)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (blob_is_empty(b)) {
		VRT_fail(ctx, BLOB_ERR "blob is empty in blob.sub()");
		return (NULL);
	}
	if (length < 0 || offset < 0) {
		VRT_fail(ctx, BLOB_ERR "size or offset negative in blob.sub()");
		return (NULL);
	}
	if ((uint64_t)offset > b->len || (uint64_t)length > b->len ||
	    (uint64_t)offset + (uint64_t)length > b->len) {
		VRT_fail(ctx, BLOB_ERR "size %ld from offset %ld requires more "
		    "bytes than blob length %zu in blob.sub()", length, offset,
		    b->len);
		return (NULL);
	}
	return (VRT_blob(ctx, "blob.sub", (const uint8_t *)b->blob + offset,
	    (size_t)length));
}

/* The object ----------------------------------------------------------*/

static void
blob_obj_free(struct vmod_blob_blob **bp)
{
	struct vmod_blob_blob *b;
	unsigned c, u;

	TAKE_OBJ_NOTNULL(b, bp, VMOD_BLOB_BLOB_MAGIC);
	free(b->bytes);
	for (c = 0; c < BLOB__NCODEC; c++)
		for (u = 0; u < 2; u++)
			free(b->text[c][u]);
	FREE_OBJ(b);
}

/* Every encoding of the bytes, into b->text; 0, or -1 out of memory. */
static int
blob_obj_encode_all(struct vmod_blob_blob *b)
{
	unsigned c, u;
	size_t l;
	ssize_t r;

	for (c = 0; c < BLOB__NCODEC; c++) {
		for (u = 0; u < 2; u++) {
			if (u == 1 && !BLOB_CodecHasCase(c)) {
				b->text[c][u] = NULL;
				continue;
			}
			l = BLOB_EncodeLen(c, b->blob.blob, b->blob.len) + 1;
			b->text[c][u] = malloc(l);
			if (b->text[c][u] == NULL)
				return (-1);
			r = BLOB_Encode(c, u, b->text[c][u], l, b->blob.blob,
			    b->blob.len);
			assert(r >= 0 && (size_t)r + 1 == l);
		}
	}
	return (0);
}

VCL_VOID
vmod_blob_blob__init(VRT_CTX, struct vmod_blob_blob **op,
    const char *vcl_name, VCL_ENUM decoding, VCL_STRANDS encoded)
{
	struct vmod_blob_blob *b;
	enum blob_codec c;
	size_t inlen = 0, bound;
	ssize_t r;
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(op != NULL);
	assert(*op == NULL);
	assert(vcl_name != NULL);
	assert(encoded != NULL);
	c = blob_codec(decoding);
	ALLOC_OBJ(b, VMOD_BLOB_BLOB_MAGIC);
	if (b == NULL) {
		VRT_fail(ctx, BLOB_ERR "cannot create blob %s, out of space",
		    vcl_name);
		return;
	}
	b->blob = blob_empty;
	for (i = 0; i < encoded->n; i++)
		if (encoded->p[i] != NULL)
			inlen += strlen(encoded->p[i]);
	bound = BLOB_DecodeBound(c, inlen);
	if (bound > 0) {
		b->bytes = malloc(bound);
		if (b->bytes == NULL) {
			blob_obj_free(&b);
			VRT_fail(ctx, BLOB_ERR "cannot create blob %s, out of "
			    "space", vcl_name);
			return;
		}
	}
	r = BLOB_Decode(c, b->bytes, bound, -1, encoded->p, encoded->n);
	if (r < 0) {
		/* The bound is enough for any valid text. */
		assert(r == BLOB_ILLEGAL);
		blob_obj_free(&b);
		VRT_fail(ctx, BLOB_ERR "cannot create blob %s, illegal "
		    "encoding beginning with \"%s\"", vcl_name,
		    blob_first(encoded));
		return;
	}
	if (r > 0) {
		b->blob.len = (size_t)r;
		b->blob.blob = b->bytes;
	}
	if (blob_obj_encode_all(b) != 0) {
		blob_obj_free(&b);
		VRT_fail(ctx, BLOB_ERR "cannot create blob %s, out of space",
		    vcl_name);
		return;
	}
	*op = b;
}

VCL_VOID
vmod_blob_blob__fini(struct vmod_blob_blob **op)
{

	if (*op != NULL)
		blob_obj_free(op);
}

VCL_BLOB
vmod_blob_blob_get(VRT_CTX, struct vmod_blob_blob *b)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(b, VMOD_BLOB_BLOB_MAGIC);
	if (b->blob.len == 0)
		return (&blob_empty);
	return (&b->blob);
}

VCL_STRING
vmod_blob_blob_encode(VRT_CTX, struct vmod_blob_blob *b, VCL_ENUM encoding,
    VCL_ENUM kase)
{
	int upper;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(b, VMOD_BLOB_BLOB_MAGIC);
	upper = blob_case(ctx, encoding, kase);
	if (upper < 0)
		return (NULL);
	if (b->blob.len == 0)
		return ("");
	assert(b->text[blob_codec(encoding)][upper] != NULL);
	return (b->text[blob_codec(encoding)][upper]);
}

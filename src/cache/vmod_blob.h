/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_blob.h -- the binary-to-text codecs of the blob module
 * (vmod_blob_codec.c), apart from VCL so that the unit tests and the
 * fuzzer call them as the module does.  Pure functions on caller
 * buffers: no workspace, no allocation, no errno.
 *
 * A decoder reads a list of strings as if concatenated (NULL and ""
 * entries are skipped), at most limit characters of them when limit is
 * >= 0, and writes bytes; an encoder writes the text of some bytes and
 * a NUL after it.
 */

#ifndef VENEER_CACHE_VMOD_BLOB_H
#define VENEER_CACHE_VMOD_BLOB_H

#include <stddef.h>
#include <sys/types.h>

/* The schemes, in the order of the module's ENUMs. */
enum blob_codec {
	BLOB_IDENTITY,
	BLOB_BASE64,
	BLOB_BASE64URL,
	BLOB_BASE64URLNOPAD,
	BLOB_BASE64CF,
	BLOB_HEX,
	BLOB_URL,
	BLOB__NCODEC
};

/* What BLOB_Decode and BLOB_Encode return besides a length. */
#define BLOB_ILLEGAL	(-1)	/* the input is not of the scheme */
#define BLOB_NOSPACE	(-2)	/* the output does not fit */

/* The scheme an ENUM value names, or -1 when none does. */
int BLOB_CodecByName(const char *name);
const char *BLOB_CodecName(enum blob_codec);

/* Only HEX and URL write hex digits, and so have a case. */
int BLOB_CodecHasCase(enum blob_codec);

/* At most how many bytes decoding inlen characters gives. */
size_t BLOB_DecodeBound(enum blob_codec, size_t inlen);

/*
 * Decodes the n strings p[] (at most limit characters of them when
 * limit >= 0) into dst, space bytes long: the number of bytes written,
 * BLOB_ILLEGAL or BLOB_NOSPACE.
 */
ssize_t BLOB_Decode(enum blob_codec, void *dst, size_t space, ssize_t limit,
    const char * const *p, int n);

/* How many characters encoding src gives, the NUL not counted. */
size_t BLOB_EncodeLen(enum blob_codec, const void *src, size_t len);

/*
 * Encodes len bytes at src into dst, space bytes long, NUL-terminated;
 * upper: hex digits A-F rather than a-f (HEX and URL).  The length of
 * the text, or BLOB_NOSPACE when it and its NUL do not fit.
 */
ssize_t BLOB_Encode(enum blob_codec, int upper, char *dst, size_t space,
    const void *src, size_t len);

#endif /* VENEER_CACHE_VMOD_BLOB_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_blob_codec.c -- the codecs of the blob module (vmod_blob.h):
 * IDENTITY, the four base64 alphabets of RFC 4648 and Varnish, HEX and
 * URL (RFC 3986 percent-encoding), as Varnish 7.1's vmod_blob defines
 * them.  Every decoder reads its input through struct blob_in, which
 * joins the strings and stops at the character limit, and checks each
 * byte it writes against the space it was given: hostile input can only
 * make it return BLOB_ILLEGAL or BLOB_NOSPACE.
 *
 * Where Varnish's decoders are lax the module follows the documented
 * scheme instead: after a base64 padding character only padding may
 * follow until the group of four ends, and nothing after that group;
 * HEX checks only the characters it decodes (as URL and base64 do).
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "common/vas.h"
#include "cache/vmod_blob.h"

static const char * const blob_names[BLOB__NCODEC] = {
	[BLOB_IDENTITY] =	"IDENTITY",
	[BLOB_BASE64] =		"BASE64",
	[BLOB_BASE64URL] =	"BASE64URL",
	[BLOB_BASE64URLNOPAD] =	"BASE64URLNOPAD",
	[BLOB_BASE64CF] =	"BASE64CF",
	[BLOB_HEX] =		"HEX",
	[BLOB_URL] =		"URL",
};

int
BLOB_CodecByName(const char *name)
{
	int i;

	if (name == NULL)
		return (-1);
	for (i = 0; i < BLOB__NCODEC; i++)
		if (!strcmp(name, blob_names[i]))
			return (i);
	return (-1);
}

const char *
BLOB_CodecName(enum blob_codec c)
{

	assert((unsigned)c < BLOB__NCODEC);
	return (blob_names[c]);
}

int
BLOB_CodecHasCase(enum blob_codec c)
{

	return (c == BLOB_HEX || c == BLOB_URL);
}

/* The input: strings read as one, at most left characters of them. ----*/

struct blob_in {
	const char * const	*p;
	int			n;
	int			i;	/* the string being read */
	const char		*s;	/* in p[i]; NULL: find the next */
	size_t			left;
};

static void
blob_in_init(struct blob_in *in, const char * const *p, int n, ssize_t limit)
{

	assert(n >= 0);
	assert(n == 0 || p != NULL);
	memset(in, 0, sizeof *in);
	in->p = p;
	in->n = n;
	in->left = limit >= 0 ? (size_t)limit : SIZE_MAX;
}

/* The next character (0-255), or -1 at the end. */
static int
blob_in_next(struct blob_in *in)
{

	if (in->left == 0)
		return (-1);
	while (in->s == NULL || *in->s == '\0') {
		if (in->s != NULL)
			in->i++;
		if (in->i >= in->n)
			return (-1);
		in->s = in->p[in->i];
		if (in->s == NULL)
			in->s = "";
	}
	in->left--;
	return ((unsigned char)*in->s++);
}

/* IDENTITY --------------------------------------------------------------*/

static ssize_t
id_decode(uint8_t *dst, size_t space, struct blob_in *in)
{
	size_t o = 0;
	int c;

	while ((c = blob_in_next(in)) >= 0) {
		if (o == space)
			return (BLOB_NOSPACE);
		dst[o++] = (uint8_t)c;
	}
	return ((ssize_t)o);
}

/* Base64 ----------------------------------------------------------------*/

#define B64_PAD		64
#define B64_ILLEGAL	65

/* What the four alphabets differ in: the last two digits and padding. */
static const struct b64_alphabet {
	char		d62;
	char		d63;
	char		pad;	/* '\0': none */
} b64_alphabets[BLOB__NCODEC] = {
	[BLOB_BASE64] =		{ '+', '/', '=' },
	[BLOB_BASE64URL] =	{ '-', '_', '=' },
	[BLOB_BASE64URLNOPAD] =	{ '-', '_', '\0' },
	[BLOB_BASE64CF] =	{ '-', '~', '_' },
};

static int
b64_is(enum blob_codec c)
{

	return (c == BLOB_BASE64 || c == BLOB_BASE64URL ||
	    c == BLOB_BASE64URLNOPAD || c == BLOB_BASE64CF);
}

/* The digit's value, B64_PAD or B64_ILLEGAL. */
static unsigned
b64_value(const struct b64_alphabet *a, int ch)
{

	if (ch >= 'A' && ch <= 'Z')
		return ((unsigned)(ch - 'A'));
	if (ch >= 'a' && ch <= 'z')
		return ((unsigned)(ch - 'a') + 26);
	if (ch >= '0' && ch <= '9')
		return ((unsigned)(ch - '0') + 52);
	if (ch == a->d62)
		return (62);
	if (ch == a->d63)
		return (63);
	if (a->pad != '\0' && ch == a->pad)
		return (B64_PAD);
	return (B64_ILLEGAL);
}

static char
b64_digit(const struct b64_alphabet *a, unsigned v)
{

	assert(v < 64);
	if (v < 26)
		return ((char)('A' + v));
	if (v < 52)
		return ((char)('a' + v - 26));
	if (v < 62)
		return ((char)('0' + v - 52));
	return (v == 62 ? a->d62 : a->d63);
}

/* Writes the first nb bytes of the 24 bits of a group. */
static int
b64_emit(uint8_t *dst, size_t space, size_t *o, uint32_t bits, unsigned nb)
{
	unsigned i;

	assert(nb >= 1 && nb <= 3);
	if (space - *o < nb)
		return (BLOB_NOSPACE);
	for (i = 0; i < nb; i++)
		dst[(*o)++] = (uint8_t)(bits >> (16 - 8 * i));
	return (0);
}

static ssize_t
b64_decode(enum blob_codec codec, uint8_t *dst, size_t space,
    struct blob_in *in)
{
	const struct b64_alphabet *a = &b64_alphabets[codec];
	uint32_t bits = 0;
	unsigned n = 0, pads = 0, v;
	int c, ended = 0, r;
	size_t o = 0;

	while ((c = blob_in_next(in)) >= 0) {
		if (ended)
			return (BLOB_ILLEGAL);	/* after a padded group */
		v = b64_value(a, c);
		if (v == B64_ILLEGAL)
			return (BLOB_ILLEGAL);
		if (v == B64_PAD) {
			if (n < 2)
				return (BLOB_ILLEGAL);	/* "A===", "====" */
			pads++;
			v = 0;
		} else if (pads > 0)
			return (BLOB_ILLEGAL);		/* "Zg=g" */
		bits = bits << 6 | v;
		if (++n < 4)
			continue;
		r = b64_emit(dst, space, &o, bits, 3 - pads);
		if (r < 0)
			return (r);
		ended = pads > 0;
		bits = 0;
		n = 0;
	}
	if (n > 0) {
		/* An unfinished group: 2 or 3 digits give 1 or 2 bytes. */
		if (n - pads < 2)
			return (BLOB_ILLEGAL);
		bits <<= 6 * (4 - n);
		r = b64_emit(dst, space, &o, bits, n - pads - 1);
		if (r < 0)
			return (r);
	}
	return ((ssize_t)o);
}

static size_t
b64_encode_len(enum blob_codec codec, size_t len)
{

	if (codec != BLOB_BASE64URLNOPAD)
		return ((len + 2) / 3 * 4);
	return (len / 3 * 4 + (len % 3 == 0 ? 0 : len % 3 + 1));
}

static void
b64_encode(enum blob_codec codec, char *dst, const uint8_t *src, size_t len)
{
	const struct b64_alphabet *a = &b64_alphabets[codec];
	uint32_t bits;
	size_t i, o = 0;
	unsigned k, nd;

	for (i = 0; i < len; i += 3) {
		bits = (uint32_t)src[i] << 16;
		if (i + 1 < len)
			bits |= (uint32_t)src[i + 1] << 8;
		if (i + 2 < len)
			bits |= src[i + 2];
		nd = len - i >= 3 ? 4 : (unsigned)(len - i) + 1;
		for (k = 0; k < nd; k++)
			dst[o++] = b64_digit(a, (bits >> (18 - 6 * k)) & 63);
		for (; k < 4 && a->pad != '\0'; k++)
			dst[o++] = a->pad;
	}
	dst[o] = '\0';
}

/* HEX -------------------------------------------------------------------*/

static const char hex_lower[] = "0123456789abcdef";
static const char hex_upper[] = "0123456789ABCDEF";

/* The value of a hex digit, either case, or -1. */
static int
hex_value(int ch)
{

	if (ch >= '0' && ch <= '9')
		return (ch - '0');
	if (ch >= 'a' && ch <= 'f')
		return (ch - 'a' + 10);
	if (ch >= 'A' && ch <= 'F')
		return (ch - 'A' + 10);
	return (-1);
}

/*
 * An odd number of digits decodes as if a 0 came first: the first digit
 * is the low nibble of the first byte.
 */
static ssize_t
hex_decode(uint8_t *dst, size_t space, struct blob_in *in)
{
	struct blob_in again = *in;
	size_t digits = 0, o = 0;
	unsigned high = 0, have;
	int c, v;

	while ((c = blob_in_next(in)) >= 0) {
		if (hex_value(c) < 0)
			return (BLOB_ILLEGAL);
		digits++;
	}
	if ((digits + 1) / 2 > space)
		return (BLOB_NOSPACE);
	have = digits & 1;		/* the leading 0 nibble */
	while ((c = blob_in_next(&again)) >= 0) {
		v = hex_value(c);
		assert(v >= 0);
		if (!have) {
			high = (unsigned)v;
			have = 1;
			continue;
		}
		assert(o < space);
		dst[o++] = (uint8_t)(high << 4 | (unsigned)v);
		high = 0;
		have = 0;
	}
	assert(!have);
	return ((ssize_t)o);
}

static void
hex_encode(int upper, char *dst, const uint8_t *src, size_t len)
{
	const char *digits = upper ? hex_upper : hex_lower;
	size_t i;

	for (i = 0; i < len; i++) {
		*dst++ = digits[src[i] >> 4];
		*dst++ = digits[src[i] & 0xf];
	}
	*dst = '\0';
}

/* URL -------------------------------------------------------------------*/

/* RFC 3986 2.3: the characters a URL encoding leaves as they are. */
static int
url_unreserved(uint8_t c)
{

	return ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
	    c == '~');
}

/* %XX becomes the byte; a bad or unfinished escape is illegal. */
static ssize_t
url_decode(uint8_t *dst, size_t space, struct blob_in *in)
{
	size_t o = 0;
	int c, hi, lo;

	while ((c = blob_in_next(in)) >= 0) {
		if (c == '%') {
			hi = hex_value(blob_in_next(in));
			if (hi < 0)
				return (BLOB_ILLEGAL);
			lo = hex_value(blob_in_next(in));
			if (lo < 0)
				return (BLOB_ILLEGAL);
			c = hi << 4 | lo;
		}
		if (o == space)
			return (BLOB_NOSPACE);
		dst[o++] = (uint8_t)c;
	}
	return ((ssize_t)o);
}

static size_t
url_encode_len(const uint8_t *src, size_t len)
{
	size_t i, l = 0;

	for (i = 0; i < len; i++)
		l += url_unreserved(src[i]) ? 1 : 3;
	return (l);
}

static void
url_encode(int upper, char *dst, const uint8_t *src, size_t len)
{
	const char *digits = upper ? hex_upper : hex_lower;
	size_t i;

	for (i = 0; i < len; i++) {
		if (url_unreserved(src[i])) {
			*dst++ = (char)src[i];
			continue;
		}
		*dst++ = '%';
		*dst++ = digits[src[i] >> 4];
		*dst++ = digits[src[i] & 0xf];
	}
	*dst = '\0';
}

/* The interface ---------------------------------------------------------*/

size_t
BLOB_DecodeBound(enum blob_codec c, size_t inlen)
{

	assert((unsigned)c < BLOB__NCODEC);
	if (b64_is(c))
		return (inlen / 4 * 3 + (inlen % 4) * 3 / 4);
	if (c == BLOB_HEX)
		return (inlen / 2 + (inlen & 1));
	return (inlen);
}

ssize_t
BLOB_Decode(enum blob_codec c, void *dst, size_t space, ssize_t limit,
    const char * const *p, int n)
{
	struct blob_in in;

	assert((unsigned)c < BLOB__NCODEC);
	assert(dst != NULL || space == 0);
	blob_in_init(&in, p, n, limit);
	switch (c) {
	case BLOB_IDENTITY:
		return (id_decode(dst, space, &in));
	case BLOB_HEX:
		return (hex_decode(dst, space, &in));
	case BLOB_URL:
		return (url_decode(dst, space, &in));
	default:
		assert(b64_is(c));
		return (b64_decode(c, dst, space, &in));
	}
}

size_t
BLOB_EncodeLen(enum blob_codec c, const void *src, size_t len)
{

	assert((unsigned)c < BLOB__NCODEC);
	assert(src != NULL || len == 0);
	if (b64_is(c))
		return (b64_encode_len(c, len));
	if (c == BLOB_HEX)
		return (2 * len);
	if (c == BLOB_URL)
		return (url_encode_len(src, len));
	return (len);
}

ssize_t
BLOB_Encode(enum blob_codec c, int upper, char *dst, size_t space,
    const void *src, size_t len)
{
	size_t need;

	assert((unsigned)c < BLOB__NCODEC);
	assert(dst != NULL || space == 0);
	if (len == 0)
		src = "";
	assert(src != NULL);
	need = BLOB_EncodeLen(c, src, len);
	if (space == 0 || need > space - 1)
		return (BLOB_NOSPACE);
	switch (c) {
	case BLOB_IDENTITY:
		memcpy(dst, src, len);
		dst[len] = '\0';
		break;
	case BLOB_HEX:
		hex_encode(upper, dst, src, len);
		break;
	case BLOB_URL:
		url_encode(upper, dst, src, len);
		break;
	default:
		assert(b64_is(c));
		b64_encode(c, dst, src, len);
		break;
	}
	return ((ssize_t)need);
}

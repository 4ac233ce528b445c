/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vmod_blob.c -- unit tests of the blob module: its codecs
 * (src/cache/vmod_blob_codec.c) with RFC 4648's test vectors and
 * Varnish's (blob_*.vtc), round trips of every byte value, bad input
 * (illegal characters, padding, odd hex, broken %-escapes), the length
 * limit and strings read as one; and the module's functions
 * (src/cache/vmod_blob.c) on a small workspace: results, Varnish's
 * failure messages, and running out of workspace without overflowing.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/vmod_blob.h"
#include "cache/vrt_priv.h"
#include "cache/ws.h"
#include "vrt.h"

#define ARRAY_SIZE(a)	(sizeof (a) / sizeof (a)[0])

/* Codec helpers --------------------------------------------------------*/

/* Decodes one string; the bytes in out (NUL-terminated for ease). */
static ssize_t
dec(enum blob_codec c, const char *in, ssize_t limit, char *out, size_t sz)
{
	const char *p[1] = { in };
	ssize_t r;

	r = BLOB_Decode(c, out, sz - 1, limit, p, 1);
	if (r >= 0)
		out[r] = '\0';
	return (r);
}

static const char *
enc(enum blob_codec c, int upper, const void *in, size_t len)
{
	static char out[4096];
	ssize_t r;

	r = BLOB_Encode(c, upper, out, sizeof out, in, len);
	ck_assert_int_ge(r, 0);
	ck_assert_uint_eq((size_t)r, strlen(out));
	ck_assert_uint_eq((size_t)r, BLOB_EncodeLen(c, in, len));
	return (out);
}

/* RFC 4648 section 10 ---------------------------------------------------*/

START_TEST(test_rfc4648_vectors)
{
	static const struct {
		const char *plain, *b64, *hex;
	} v[] = {
		{ "", "", "" },
		{ "f", "Zg==", "66" },
		{ "fo", "Zm8=", "666f" },
		{ "foo", "Zm9v", "666f6f" },
		{ "foob", "Zm9vYg==", "666f6f62" },
		{ "fooba", "Zm9vYmE=", "666f6f6261" },
		{ "foobar", "Zm9vYmFy", "666f6f626172" },
	};
	char out[64], nopad[16];
	unsigned u;
	size_t l;

	for (u = 0; u < ARRAY_SIZE(v); u++) {
		l = strlen(v[u].plain);
		ck_assert_str_eq(enc(BLOB_BASE64, 0, v[u].plain, l), v[u].b64);
		ck_assert_str_eq(enc(BLOB_BASE64URL, 0, v[u].plain, l),
		    v[u].b64);
		ck_assert_str_eq(enc(BLOB_HEX, 0, v[u].plain, l), v[u].hex);
		(void)snprintf(nopad, sizeof nopad, "%s", v[u].b64);
		if (strchr(nopad, '=') != NULL)
			*strchr(nopad, '=') = '\0';
		ck_assert_str_eq(enc(BLOB_BASE64URLNOPAD, 0, v[u].plain, l),
		    nopad);
		ck_assert_int_eq(dec(BLOB_BASE64, v[u].b64, -1, out,
		    sizeof out), (ssize_t)l);
		ck_assert_str_eq(out, v[u].plain);
		ck_assert_int_eq(dec(BLOB_BASE64URLNOPAD, nopad, -1, out,
		    sizeof out), (ssize_t)l);
		ck_assert_str_eq(out, v[u].plain);
		/* Padding may be left out when decoding a padded scheme. */
		ck_assert_int_eq(dec(BLOB_BASE64, nopad, -1, out,
		    sizeof out), (ssize_t)l);
		ck_assert_int_eq(dec(BLOB_HEX, v[u].hex, -1, out,
		    sizeof out), (ssize_t)l);
		ck_assert_str_eq(out, v[u].plain);
	}
}
END_TEST

/* Every byte value, every length to 70, every scheme and case. */
START_TEST(test_round_trips)
{
	uint8_t in[256], back[300];
	const char *text;
	const char *p[1];
	size_t len;
	ssize_t r;
	unsigned c, u, upper;

	for (u = 0; u < sizeof in; u++)
		in[u] = (uint8_t)(u * 37 + 11);
	for (c = 0; c < BLOB__NCODEC; c++) {
		for (len = 0; len <= 70; len++) {
			for (upper = 0; upper < 2; upper++) {
				if (c == BLOB_IDENTITY &&
				    memchr(in, 0, len) != NULL)
					continue;	/* a NUL ends a string */
				text = enc(c, (int)upper, in, len);
				p[0] = text;
				r = BLOB_Decode(c, back, sizeof back, -1, p, 1);
				ck_assert_int_eq(r, (ssize_t)len);
				ck_assert(len == 0 || !memcmp(back, in, len));
			}
		}
	}
	/* All 256 byte values through each scheme that can carry a NUL. */
	for (u = 0; u < sizeof in; u++)
		in[u] = (uint8_t)u;
	for (c = BLOB_BASE64; c < BLOB__NCODEC; c++) {
		p[0] = enc(c, 1, in, sizeof in);
		r = BLOB_Decode(c, back, sizeof back, -1, p, 1);
		ck_assert_int_eq(r, (ssize_t)sizeof in);
		ck_assert(!memcmp(back, in, sizeof in));
	}
}
END_TEST

START_TEST(test_alphabets)
{
	static const uint8_t ff[] = { 0xfb, 0xff, 0xbf };	/* 62 63 62 63 */
	static const uint8_t one[] = { 0xfb };
	char out[16];

	ck_assert_str_eq(enc(BLOB_BASE64, 0, ff, 3), "+/+/");
	ck_assert_str_eq(enc(BLOB_BASE64URL, 0, ff, 3), "-_-_");
	ck_assert_str_eq(enc(BLOB_BASE64URLNOPAD, 0, ff, 3), "-_-_");
	ck_assert_str_eq(enc(BLOB_BASE64CF, 0, ff, 3), "-~-~");
	ck_assert_str_eq(enc(BLOB_BASE64CF, 0, one, 1), "-w__");
	ck_assert_str_eq(enc(BLOB_BASE64URL, 0, one, 1), "-w==");
	ck_assert_str_eq(enc(BLOB_BASE64URLNOPAD, 0, one, 1), "-w");
	/* Each alphabet refuses the others' digits (blob_b00004/5). */
	ck_assert_int_eq(dec(BLOB_BASE64, "-_-_", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_BASE64URL, "+/+/", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_BASE64CF, "+/+/", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_BASE64CF, "-w==", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_BASE64CF, "-w__", -1, out, sizeof out), 1);
	ck_assert_int_eq((uint8_t)out[0], 0xfb);
	ck_assert_int_eq(dec(BLOB_BASE64URLNOPAD, "YWI=", -1, out,
	    sizeof out), BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_BASE64URLNOPAD, "TWFuAAA=", 8, out,
	    sizeof out), BLOB_ILLEGAL);
}
END_TEST

START_TEST(test_base64_bad)
{
	static const char * const bad[] = {
		"Z", "Zm9vY", "Zm9v Yg==", "Zm9v\nYg==", "====", "Z===",
		"Zg=g", "Zg==Zg==", "Zg==A", "Zm9v!", "Zg===", "=Zg=",
	};
	char out[32];
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(bad); u++)
		ck_assert_msg(dec(BLOB_BASE64, bad[u], -1, out, sizeof out) ==
		    BLOB_ILLEGAL, "\"%s\" decoded", bad[u]);
	/* Partial padding and none are fine. */
	ck_assert_int_eq(dec(BLOB_BASE64, "Zg=", -1, out, sizeof out), 1);
	ck_assert_int_eq(dec(BLOB_BASE64, "Zg", -1, out, sizeof out), 1);
	ck_assert_int_eq(dec(BLOB_BASE64, "Zm9", -1, out, sizeof out), 2);
	ck_assert_str_eq(out, "fo");
}
END_TEST

START_TEST(test_hex)
{
	static const uint8_t b[] = { 0xde, 0xad, 0xbe, 0xef };
	char out[32];

	ck_assert_str_eq(enc(BLOB_HEX, 0, b, 4), "deadbeef");
	ck_assert_str_eq(enc(BLOB_HEX, 1, b, 4), "DEADBEEF");
	ck_assert_int_eq(dec(BLOB_HEX, "DeAdBeEf", -1, out, sizeof out), 4);
	ck_assert(!memcmp(out, b, 4));
	/* An odd count: as if a 0 came first (blob_b00002). */
	ck_assert_int_eq(dec(BLOB_HEX, "abcdef0", -1, out, sizeof out), 4);
	ck_assert(!memcmp(out, "\x0a\xbc\xde\xf0", 4));
	ck_assert_int_eq(dec(BLOB_HEX, "0", -1, out, sizeof out), 1);
	ck_assert_int_eq(out[0], 0);
	/* The limit counts digits: 3 of "abcd" is 0a bc. */
	ck_assert_int_eq(dec(BLOB_HEX, "abcd", 3, out, sizeof out), 2);
	ck_assert(!memcmp(out, "\x0a\xbc", 2));
	ck_assert_int_eq(dec(BLOB_HEX, "0x123456", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_HEX, "g123", 2, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_HEX, "12 34", -1, out, sizeof out),
	    BLOB_ILLEGAL);
}
END_TEST

START_TEST(test_url)
{
	static const char all[] = "AZaz09-._~ /?#%+\xc3\xa4";
	char out[64];

	ck_assert_str_eq(enc(BLOB_URL, 0, all, strlen(all)),
	    "AZaz09-._~%20%2f%3f%23%25%2b%c3%a4");
	ck_assert_str_eq(enc(BLOB_URL, 1, all, strlen(all)),
	    "AZaz09-._~%20%2F%3F%23%25%2B%C3%A4");
	ck_assert_int_eq(dec(BLOB_URL, "foo%20bar+%2B%2b", -1, out,
	    sizeof out), 10);
	ck_assert_str_eq(out, "foo bar+++");
	/* Bad and unfinished escapes (blob_b00006/7). */
	ck_assert_int_eq(dec(BLOB_URL, "%", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_URL, "%2", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_URL, "%q", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_URL, "%2q", -1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_URL, "%20", 1, out, sizeof out),
	    BLOB_ILLEGAL);
	ck_assert_int_eq(dec(BLOB_URL, "%20", 2, out, sizeof out),
	    BLOB_ILLEGAL);
	/* What the limit leaves out is not looked at. */
	ck_assert_int_eq(dec(BLOB_URL, "%2c%q", 3, out, sizeof out), 1);
	ck_assert_str_eq(out, ",");
}
END_TEST

/* Strings read as one, NULL and "" skipped, a limit across them. */
START_TEST(test_pieces)
{
	const char *p[] = { NULL, "", "L", "0hlb", NULL, "GxvI", "H",
	    "dvcmx", "", "kLw", "==" };
	const char *h[] = { "666", NULL, "F6F2", "", "06261" };
	char out[64];
	ssize_t r;

	r = BLOB_Decode(BLOB_BASE64, out, sizeof out, -1, p, ARRAY_SIZE(p));
	ck_assert_int_eq(r, 13);
	ck_assert(!memcmp(out, "/Hello world/", 13));
	r = BLOB_Decode(BLOB_BASE64, out, sizeof out, 16, p, ARRAY_SIZE(p));
	ck_assert_int_eq(r, 12);
	ck_assert(!memcmp(out, "/Hello world", 12));
	r = BLOB_Decode(BLOB_HEX, out, sizeof out, -1, h, ARRAY_SIZE(h));
	ck_assert_int_eq(r, 6);
	/* 12 digits, even: "foo ba" */
	ck_assert(!memcmp(out, "\x66\x6f\x6f\x20\x62\x61", 6));
	r = BLOB_Decode(BLOB_IDENTITY, out, sizeof out, 5, p, ARRAY_SIZE(p));
	ck_assert_int_eq(r, 5);
	ck_assert(!memcmp(out, "L0hlb", 5));
	r = BLOB_Decode(BLOB_IDENTITY, out, sizeof out, -1, p, 0);
	ck_assert_int_eq(r, 0);
}
END_TEST

/* The output never goes past the space given. */
START_TEST(test_no_space)
{
	static const char * const in[BLOB__NCODEC] = {
		"0123456789", "MDEyMzQ1Njc4OQ==", "MDEyMzQ1Njc4OQ==",
		"MDEyMzQ1Njc4OQ", "MDEyMzQ1Njc4OQ__", "30313233343536373839",
		"0%31%32345678%39",
	};
	char out[16], text[64];
	unsigned c;
	size_t sz;
	ssize_t r;

	for (c = 0; c < BLOB__NCODEC; c++) {
		ck_assert_uint_ge(BLOB_DecodeBound(c, strlen(in[c])), 10);
		for (sz = 0; sz < 10; sz++) {
			memset(out, 'X', sizeof out);
			r = BLOB_Decode(c, out, sz, -1, &in[c], 1);
			ck_assert_msg(r == BLOB_NOSPACE, "%s in %zu: %zd",
			    BLOB_CodecName(c), sz, r);
			ck_assert_int_eq(out[sz], 'X');
		}
		r = BLOB_Decode(c, out, 10, -1, &in[c], 1);
		ck_assert_int_eq(r, 10);
		ck_assert(!memcmp(out, "0123456789", 10));
		for (sz = 0; sz <= BLOB_EncodeLen(c, out, 10); sz++) {
			memset(text, 'X', sizeof text);
			ck_assert_int_eq(BLOB_Encode(c, 0, text, sz, out, 10),
			    BLOB_NOSPACE);
			ck_assert_int_eq(text[sz], 'X');
		}
	}
}
END_TEST

START_TEST(test_names)
{
	unsigned c;

	for (c = 0; c < BLOB__NCODEC; c++)
		ck_assert_int_eq(BLOB_CodecByName(BLOB_CodecName(c)), (int)c);
	ck_assert_int_eq(BLOB_CodecByName("base64"), -1);
	ck_assert_int_eq(BLOB_CodecByName(NULL), -1);
	ck_assert(BLOB_CodecHasCase(BLOB_HEX));
	ck_assert(BLOB_CodecHasCase(BLOB_URL));
	ck_assert(!BLOB_CodecHasCase(BLOB_BASE64));
	ck_assert(!BLOB_CodecHasCase(BLOB_IDENTITY));
}
END_TEST

/* The module ------------------------------------------------------------*/

static struct ws ws[1];
static uint64_t space[4096 / 8];
static struct vrt_ctx ctx[1];
static char msg[256];

static void
setup(void)
{

	WS_Init(ws, "tst", space, sizeof space);
	memset(ctx, 0, sizeof ctx);
	ctx->magic = VRT_CTX_MAGIC;
	ctx->method = VCL_MET_DELIVER;
	ctx->ws = ws;
	msg[0] = '\0';
	ctx->msg = msg;
	ctx->msgsize = sizeof msg;
}

static VCL_STRANDS
str1(const char *s)
{
	static const char *p[1];
	static struct strands st;

	p[0] = s;
	st.n = 1;
	st.p = p;
	return (&st);
}

/* Takes all but left bytes of the workspace. */
static void
leave(size_t left)
{

	ck_assert_ptr_nonnull(WS_Alloc(ws, WS_Free(ws) - left));
	ck_assert_uint_eq(WS_Free(ws), left);
}

START_TEST(test_functions)
{
	VCL_BLOB b, e;

	b = vmod_blob_decode(ctx, "BASE64", 0, str1("Zm9vYmFy"));
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(vmod_blob_length(ctx, b), 6);
	ck_assert_str_eq(vmod_blob_encode(ctx, "HEX", "UPPER", b),
	    "666F6F626172");
	ck_assert_str_eq(vmod_blob_encode(ctx, "URL", "DEFAULT", b), "foobar");
	ck_assert_str_eq(vmod_blob_transcode(ctx, "HEX", "BASE64", "DEFAULT",
	    0, str1("666f6f")), "Zm9v");
	ck_assert_str_eq(vmod_blob_transcode(ctx, "URL", "IDENTITY",
	    "DEFAULT", 0, str1("foo%20bar")), "foo bar");
	ck_assert_str_eq(vmod_blob_transcode(ctx, "IDENTITY", "URL",
	    "UPPER", 0, str1("foo bar")), "foo%20bar");
	/* Same scheme, no limit: the text as it came, unpadded too. */
	ck_assert_str_eq(vmod_blob_transcode(ctx, "BASE64", "BASE64",
	    "DEFAULT", 0, str1("Zg")), "Zg");
	ck_assert_str_eq(vmod_blob_transcode(ctx, "BASE64", "BASE64",
	    "DEFAULT", 2, str1("Zg")), "Zg==");
	/* Empty: the one empty blob, "" back; NULL: unset back. */
	e = vmod_blob_decode(ctx, "HEX", 0, str1(""));
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(vmod_blob_length(ctx, e), 0);
	ck_assert_str_eq(vmod_blob_encode(ctx, "BASE64", "DEFAULT", e), "");
	ck_assert_ptr_null(vmod_blob_encode(ctx, "BASE64", "DEFAULT", NULL));
	ck_assert(vmod_blob_same(ctx, e, NULL));
	ck_assert(vmod_blob_equal(ctx, e, e));
	ck_assert(!vmod_blob_same(ctx, b, e));
	ck_assert(!vmod_blob_equal(ctx, e, b));
	ck_assert(vmod_blob_same(ctx, b, b));
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_same_equal_sub)
{
	VCL_BLOB a, b, s;

	a = vmod_blob_decode(ctx, "IDENTITY", 0, str1("foobarbaz"));
	b = vmod_blob_decode(ctx, "IDENTITY", 0, str1("foobarbaz"));
	ck_assert(!vmod_blob_same(ctx, a, b));
	ck_assert(vmod_blob_equal(ctx, a, b));
	s = vmod_blob_sub(ctx, a, 3, 3);
	ck_assert_str_eq(vmod_blob_encode(ctx, "IDENTITY", "DEFAULT", s),
	    "bar");
	ck_assert_int_eq(vmod_blob_length(ctx, vmod_blob_sub(ctx, a, 0, 9)),
	    0);
	ck_assert(vmod_blob_same(ctx, vmod_blob_sub(ctx, a, 9, 0), a));
	ck_assert(!ctx->failed);
	ck_assert_ptr_null(vmod_blob_sub(ctx, a, 10, 0));
	ck_assert(ctx->failed);
	ck_assert_str_eq(msg, "vmod blob error: size 10 from offset 0 "
	    "requires more bytes than blob length 9 in blob.sub()");
}
END_TEST

START_TEST(test_sub_errors)
{
	VCL_BLOB a;

	a = vmod_blob_decode(ctx, "IDENTITY", 0, str1("12345678"));
	ck_assert_ptr_null(vmod_blob_sub(ctx, a, 4, 5));
	ck_assert_str_eq(msg, "vmod blob error: size 4 from offset 5 "
	    "requires more bytes than blob length 8 in blob.sub()");
	setup();
	ck_assert_ptr_null(vmod_blob_sub(ctx, NULL, 1, 0));
	ck_assert_str_eq(msg, "vmod blob error: blob is empty in blob.sub()");
	setup();
	a = vmod_blob_decode(ctx, "IDENTITY", 0, str1("12345678"));
	ck_assert_ptr_null(vmod_blob_sub(ctx, a, -1, 0));
	ck_assert_str_eq(msg,
	    "vmod blob error: size or offset negative in blob.sub()");
	setup();
	a = vmod_blob_decode(ctx, "IDENTITY", 0, str1("12345678"));
	ck_assert_ptr_null(vmod_blob_sub(ctx, a, 1, (VCL_BYTES)1 << 62));
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_errors)
{
	const char *p[2] = { "-_-_", "AAA=" };
	struct strands st = { 2, p };

	ck_assert_ptr_null(vmod_blob_decode(ctx, "BASE64", 8, &st));
	ck_assert_str_eq(msg, "vmod blob error: cannot decode, illegal "
	    "encoding beginning with \"-_-_\"");
	setup();
	ck_assert_ptr_null(vmod_blob_encode(ctx, "IDENTITY", "UPPER",
	    vmod_blob_decode(ctx, "IDENTITY", 0, str1("x"))));
	ck_assert_str_eq(msg,
	    "vmod blob error: case UPPER is illegal with encoding IDENTITY");
	setup();
	ck_assert_ptr_null(vmod_blob_transcode(ctx, "HEX", "BASE64URL",
	    "LOWER", 0, str1("00")));
	ck_assert_str_eq(msg,
	    "vmod blob error: case LOWER is illegal with encoding BASE64URL");
	setup();
	ck_assert_ptr_null(vmod_blob_transcode(ctx, "URL", "IDENTITY",
	    "DEFAULT", 0, str1("%2q")));
	ck_assert_str_eq(msg, "vmod blob error: cannot decode, illegal "
	    "encoding beginning with \"%2q\"");
}
END_TEST

/* Out of workspace: Varnish's messages, nothing written past the end. */
START_TEST(test_workspace)
{
	VCL_BLOB b;

	leave(8);
	ck_assert_ptr_null(vmod_blob_decode(ctx, "IDENTITY", 0,
	    str1("1234567890")));
	ck_assert_str_eq(msg, "vmod blob error: cannot decode, out of space");
	WS_Assert(ws);

	setup();
	leave(16);
	ck_assert_ptr_null(vmod_blob_decode(ctx, "IDENTITY", 0,
	    str1("1234567890")));
	ck_assert_str_eq(msg, "Workspace overflow (blob.decode)");
	WS_Assert(ws);

	setup();
	leave(sizeof(struct vrt_blob) + 16);
	b = vmod_blob_decode(ctx, "IDENTITY", 0, str1("1234567890"));
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_null(vmod_blob_encode(ctx, "IDENTITY", "DEFAULT", b));
	ck_assert_str_eq(msg, "vmod blob error: cannot encode, out of space");
	WS_Assert(ws);

	setup();
	leave(24);
	ck_assert_ptr_null(vmod_blob_transcode(ctx, "IDENTITY", "HEX",
	    "DEFAULT", 0, str1("1234567890")));
	ck_assert_str_eq(msg, "vmod blob error: cannot encode, out of space");
	WS_Assert(ws);

	setup();
	b = vmod_blob_decode(ctx, "IDENTITY", 0, str1("1234567890"));
	leave(0);
	ck_assert_ptr_null(vmod_blob_sub(ctx, b, 2, 0));
	ck_assert_str_eq(msg, "Workspace overflow (blob.sub)");
	WS_Assert(ws);
}
END_TEST

START_TEST(test_object)
{
	struct vmod_blob_blob *o = NULL;
	const char *p[2] = { "Zm9v", "YmFy" };
	struct strands st = { 2, p };
	size_t before;

	vmod_blob_blob__init(ctx, &o, "b", "BASE64", &st);
	ck_assert_ptr_nonnull(o);
	ck_assert(!ctx->failed);
	before = WS_Free(ws);
	ck_assert_str_eq(vmod_blob_blob_encode(ctx, o, "HEX", "UPPER"),
	    "666F6F626172");
	ck_assert_str_eq(vmod_blob_blob_encode(ctx, o, "HEX", "DEFAULT"),
	    "666f6f626172");
	ck_assert_str_eq(vmod_blob_blob_encode(ctx, o, "BASE64CF", "DEFAULT"),
	    "Zm9vYmFy");
	ck_assert_str_eq(vmod_blob_blob_encode(ctx, o, "IDENTITY", "DEFAULT"),
	    "foobar");
	ck_assert_uint_eq(WS_Free(ws), before);		/* no workspace */
	ck_assert_int_eq(vmod_blob_length(ctx, vmod_blob_blob_get(ctx, o)), 6);
	ck_assert(vmod_blob_same(ctx, vmod_blob_blob_get(ctx, o),
	    vmod_blob_blob_get(ctx, o)));
	ck_assert_ptr_null(vmod_blob_blob_encode(ctx, o, "BASE64", "LOWER"));
	ck_assert_str_eq(msg,
	    "vmod blob error: case LOWER is illegal with encoding BASE64");
	vmod_blob_blob__fini(&o);
	ck_assert_ptr_null(o);

	setup();
	vmod_blob_blob__init(ctx, &o, "badpad", "BASE64URLNOPAD",
	    str1("YWI="));
	ck_assert_ptr_null(o);
	ck_assert_str_eq(msg, "vmod blob error: cannot create blob badpad, "
	    "illegal encoding beginning with \"YWI=\"");

	setup();
	vmod_blob_blob__init(ctx, &o, "empty", "HEX", str1(""));
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(vmod_blob_blob_encode(ctx, o, "URL", "UPPER"), "");
	ck_assert_int_eq(vmod_blob_length(ctx, vmod_blob_blob_get(ctx, o)), 0);
	vmod_blob_blob__fini(&o);
}
END_TEST

static Suite *
blob_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("blob");
	tc = tcase_create("codecs");
	tcase_add_test(tc, test_rfc4648_vectors);
	tcase_add_test(tc, test_round_trips);
	tcase_add_test(tc, test_alphabets);
	tcase_add_test(tc, test_base64_bad);
	tcase_add_test(tc, test_hex);
	tcase_add_test(tc, test_url);
	tcase_add_test(tc, test_pieces);
	tcase_add_test(tc, test_no_space);
	tcase_add_test(tc, test_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("module");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_functions);
	tcase_add_test(tc, test_same_equal_sub);
	tcase_add_test(tc, test_sub_errors);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_workspace);
	tcase_add_test(tc, test_object);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(blob_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

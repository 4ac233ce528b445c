/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * sha256.c -- SHA-256 as specified in FIPS 180-4, sections 4.1.2, 4.2.2,
 * 5.1.1, 5.3.3 and 6.2.  Owns nothing but the caller's context; no locks.
 *
 * Speed matters because every lookup hashes its key: whole blocks are
 * compressed straight from the caller's buffer, only a partial block is
 * copied, and the rounds are unrolled sixteen at a time over a 16-word
 * rolling message schedule.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/sha256.h"

/* First 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (FIPS 180-4 4.2.2). */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* First 32 bits of the fractional parts of the square roots of the
 * first 8 primes (FIPS 180-4 5.3.3). */
static const uint32_t sha256_h0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/* The functions of FIPS 180-4 4.1.2; x is uint32_t, n in 1..31. */
#define ROTR(x, n)	(((x) >> (n)) | ((x) << (32 - (n))))
#define CH(x, y, z)	((((y) ^ (z)) & (x)) ^ (z))
#define MAJ(x, y, z)	(((x) & (y)) | (((x) | (y)) & (z)))
#define BSIG0(x)	(ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x)	(ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x)	(ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x)	(ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))

/*
 * Round t (FIPS 180-4 6.2.2 step 3) without moving the eight working
 * variables: the caller rotates the names instead, so after a round the
 * old h holds the new a and the old d the new e.
 */
#define ROUND(a, b, c, d, e, f, g, h, t)				\
	do {								\
		t1 = (h) + BSIG1(e) + CH(e, f, g) + sha256_k[t] +	\
		    w[(t) & 15];					\
		(d) += t1;						\
		(h) = t1 + BSIG0(a) + MAJ(a, b, c);			\
	} while (0)

static inline uint32_t
sha256_load_be32(const unsigned char *p)
{

	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
}

static inline void
sha256_store_be32(unsigned char *p, uint32_t v)
{

	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/*
 * Compress one 64-byte block at p into state.
 *
 * w[] holds the last sixteen schedule words W[t-16..t-1].  Refilling all
 * sixteen before each group of sixteen rounds is the same recurrence as
 * computing W[t] per round: each refill step reads only words already
 * refilled in this group or still holding the previous group's values.
 */
static inline void
sha256_block(uint32_t state[8], const unsigned char *p)
{
	uint32_t a, b, c, d, e, f, g, h, t1, w[16];
	unsigned i, j;

	for (j = 0; j < 16; j++)
		w[j] = sha256_load_be32(p + 4 * j);
	a = state[0];
	b = state[1];
	c = state[2];
	d = state[3];
	e = state[4];
	f = state[5];
	g = state[6];
	h = state[7];
	for (i = 0; i < 64; i += 16) {
		for (j = 0; i > 0 && j < 16; j++)
			w[j] += SSIG1(w[(j + 14) & 15]) + w[(j + 9) & 15] +
			    SSIG0(w[(j + 1) & 15]);
		ROUND(a, b, c, d, e, f, g, h, i + 0);
		ROUND(h, a, b, c, d, e, f, g, i + 1);
		ROUND(g, h, a, b, c, d, e, f, i + 2);
		ROUND(f, g, h, a, b, c, d, e, i + 3);
		ROUND(e, f, g, h, a, b, c, d, i + 4);
		ROUND(d, e, f, g, h, a, b, c, i + 5);
		ROUND(c, d, e, f, g, h, a, b, i + 6);
		ROUND(b, c, d, e, f, g, h, a, i + 7);
		ROUND(a, b, c, d, e, f, g, h, i + 8);
		ROUND(h, a, b, c, d, e, f, g, i + 9);
		ROUND(g, h, a, b, c, d, e, f, i + 10);
		ROUND(f, g, h, a, b, c, d, e, i + 11);
		ROUND(e, f, g, h, a, b, c, d, i + 12);
		ROUND(d, e, f, g, h, a, b, c, i + 13);
		ROUND(c, d, e, f, g, h, a, b, i + 14);
		ROUND(b, c, d, e, f, g, h, a, i + 15);
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * The same compression with the x86 SHA extensions (most CPUs since
 * 2017 have them): about ten times fewer instructions per block, which
 * matters on the cache's hit path (one digest per lookup).  The state
 * is kept as the instructions want it, ABEF and CDGH; each sha256rnds2
 * does two rounds, each sha256msg1/msg2 pair four schedule words.
 */
#include <cpuid.h>
#include <immintrin.h>

__attribute__((__target__("sha,sse4.1,ssse3")))
static void
sha256_compress_ni(uint32_t state[8], const unsigned char *p,
    size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
	    0x0405060700010203LL);
	__m128i st0, st1, tmp, msg, abef, cdgh, m[4];
	unsigned g;

	tmp = _mm_loadu_si128((const __m128i *)(const void *)&state[0]);
	st1 = _mm_loadu_si128((const __m128i *)(const void *)&state[4]);
	tmp = _mm_shuffle_epi32(tmp, 0xb1);		/* C D A B */
	st1 = _mm_shuffle_epi32(st1, 0x1b);		/* E F G H */
	st0 = _mm_alignr_epi8(tmp, st1, 8);		/* A B E F */
	st1 = _mm_blend_epi16(st1, tmp, 0xf0);		/* C D G H */
	for (; nblocks > 0; nblocks--, p += SHA256_BLOCK_LEN) {
		abef = st0;
		cdgh = st1;
		for (g = 0; g < 16; g++) {
			if (g < 4) {
				m[g] = _mm_shuffle_epi8(_mm_loadu_si128(
				    (const __m128i *)(const void *)(p +
				    16 * g)), bswap);
			} else {
				/* W[t-16] + s0(W[t-15]) + W[t-7], s1 */
				tmp = _mm_sha256msg1_epu32(m[g & 3],
				    m[(g + 1) & 3]);
				tmp = _mm_add_epi32(tmp, _mm_alignr_epi8(
				    m[(g + 3) & 3], m[(g + 2) & 3], 4));
				m[g & 3] = _mm_sha256msg2_epu32(tmp,
				    m[(g + 3) & 3]);
			}
			msg = _mm_add_epi32(m[g & 3], _mm_loadu_si128(
			    (const __m128i *)(const void *)&sha256_k[4 * g]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
			msg = _mm_shuffle_epi32(msg, 0x0e);
			st0 = _mm_sha256rnds2_epu32(st0, st1, msg);
		}
		st0 = _mm_add_epi32(st0, abef);
		st1 = _mm_add_epi32(st1, cdgh);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1b);		/* F E B A */
	st1 = _mm_shuffle_epi32(st1, 0xb1);		/* D C H G */
	st0 = _mm_blend_epi16(tmp, st1, 0xf0);		/* D C B A */
	st1 = _mm_alignr_epi8(st1, tmp, 8);		/* H G F E */
	_mm_storeu_si128((__m128i *)(void *)&state[0], st0);
	_mm_storeu_si128((__m128i *)(void *)&state[4], st1);
}

/* 1: the CPU has SHA, SSE4.1 and SSSE3; 0: not; -1: not asked yet. */
static int sha256_ni = -1;

static int
sha256_have_ni(void)
{
	unsigned a, b, c, d;
	int r = 0;

	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1) &&
	    (c & bit_SSSE3) && __get_cpuid_count(7, 0, &a, &b, &c, &d) &&
	    (b & bit_SHA))
		r = 1;
	return (r);
}
#endif

/* Compress nblocks consecutive blocks at p, in place from the caller's
 * buffer: no alignment needed, bytes are loaded one at a time. */
static void
sha256_compress(uint32_t state[8], const unsigned char *p, size_t nblocks)
{

#if defined(__x86_64__) && defined(__GNUC__)
	/* A race here only makes two threads ask the CPU. */
	if (sha256_ni < 0)
		sha256_ni = sha256_have_ni();
	if (sha256_ni > 0) {
		sha256_compress_ni(state, p, nblocks);
		return;
	}
#endif
	for (; nblocks > 0; nblocks--, p += SHA256_BLOCK_LEN)
		sha256_block(state, p);
}

void
SHA256_Portable(int portable)
{

#if defined(__x86_64__) && defined(__GNUC__)
	sha256_ni = portable ? 0 : sha256_have_ni();
#else
	(void)portable;
#endif
}

void
SHA256_Init(struct sha256_ctx *ctx)
{

	assert(ctx != NULL);
	INIT_OBJ(ctx, SHA256_CTX_MAGIC);
	memcpy(ctx->state, sha256_h0, sizeof ctx->state);
}

void
SHA256_Update(struct sha256_ctx *ctx, const void *p, size_t len)
{
	const unsigned char *in = p;
	size_t used, n;

	CHECK_OBJ(ctx, SHA256_CTX_MAGIC);
	assert(in != NULL || len == 0);
	if (len == 0)
		return;		/* memcpy() must not see a NULL in */

	used = (size_t)(ctx->bits >> 3) % SHA256_BLOCK_LEN;
	ctx->bits += (uint64_t)len << 3;
	if (used > 0) {
		n = SHA256_BLOCK_LEN - used;
		if (len < n) {
			memcpy(ctx->buf + used, in, len);
			return;
		}
		memcpy(ctx->buf + used, in, n);
		sha256_compress(ctx->state, ctx->buf, 1);
		in += n;
		len -= n;
	}
	n = len / SHA256_BLOCK_LEN;
	if (n > 0) {
		sha256_compress(ctx->state, in, n);
		in += n * SHA256_BLOCK_LEN;
		len -= n * SHA256_BLOCK_LEN;
	}
	if (len > 0)
		memcpy(ctx->buf, in, len);
}

/* Padding (FIPS 180-4 5.1.1): 0x80, zeros, then the 64-bit length. */
void
SHA256_Final(struct sha256_ctx *ctx, unsigned char out[SHA256_LEN])
{
	size_t used;
	unsigned i;

	CHECK_OBJ(ctx, SHA256_CTX_MAGIC);
	assert(out != NULL);

	used = (size_t)(ctx->bits >> 3) % SHA256_BLOCK_LEN;
	ctx->buf[used++] = 0x80;
	if (used > SHA256_BLOCK_LEN - 8) {
		memset(ctx->buf + used, 0, SHA256_BLOCK_LEN - used);
		sha256_compress(ctx->state, ctx->buf, 1);
		used = 0;
	}
	memset(ctx->buf + used, 0, SHA256_BLOCK_LEN - 8 - used);
	sha256_store_be32(ctx->buf + 56, (uint32_t)(ctx->bits >> 32));
	sha256_store_be32(ctx->buf + 60, (uint32_t)ctx->bits);
	sha256_compress(ctx->state, ctx->buf, 1);
	for (i = 0; i < 8; i++)
		sha256_store_be32(out + 4 * i, ctx->state[i]);
	/* The buffer may hold a secret (CLI auth); keep the wipe. */
	explicit_bzero(ctx, sizeof *ctx);
}

void
SHA256_Hex(const unsigned char d[SHA256_LEN], char out[2 * SHA256_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned i;

	assert(d != NULL);
	assert(out != NULL);
	for (i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = hex[d[i] >> 4];
		out[2 * i + 1] = hex[d[i] & 0xf];
	}
	out[2 * SHA256_LEN] = '\0';
}

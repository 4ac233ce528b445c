/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * sha256.h -- SHA-256 (FIPS 180-4) over byte strings.  Hashes the cache
 * lookup key and the CLI authentication challenge.  The caller owns the
 * context (usually on its stack); no allocation, no locks, no global state.
 *
 * Use: SHA256_Init(), any number of SHA256_Update(), one SHA256_Final(),
 * which writes the digest and wipes the context.  Init it again to reuse.
 */

#ifndef VENEER_SHA256_H
#define VENEER_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN		32	/* digest bytes */
#define SHA256_BLOCK_LEN	64	/* bytes per compression */

struct sha256_ctx {
	unsigned		magic;
#define SHA256_CTX_MAGIC	0x76d9a3f9
	uint32_t		state[8];	/* H0..H7 */
	uint64_t		bits;		/* length so far, mod 2^64 */
	/* The partial block: its first (bits / 8) % 64 bytes are used. */
	unsigned char		buf[SHA256_BLOCK_LEN];
};

void SHA256_Init(struct sha256_ctx *ctx);

/* Hash len more bytes at p; p may be NULL only when len is 0. */
void SHA256_Update(struct sha256_ctx *ctx, const void *p, size_t len);

/* Write the digest to out and wipe ctx (magic too). */
void SHA256_Final(struct sha256_ctx *ctx, unsigned char out[SHA256_LEN]);

/*
 * Use the portable C rounds even where the CPU has SHA instructions
 * (1), or the instructions again where it has them (0).  For tests.
 */
void SHA256_Portable(int portable);

/* Lowercase hex of a digest, NUL-terminated. */
void SHA256_Hex(const unsigned char d[SHA256_LEN],
    char out[2 * SHA256_LEN + 1]);

#endif /* VENEER_SHA256_H */

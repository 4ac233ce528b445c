/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_sha256.c -- unit tests of SHA-256: the FIPS 180-4 example vectors,
 * padding edges, every way of splitting a message across Update calls,
 * hex output and the wipe in Final.  Expected digests not from NIST were
 * computed with coreutils' sha256sum when the test was written.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/sha256.h"

/*
 * ck_assert reports every passing check to the runner through a pipe;
 * the loops below hash thousands of times and call into check only on
 * failure.
 */
#define REQUIRE_MSG(c, ...)						\
	do {								\
		if (!(c))						\
			ck_abort_msg(__VA_ARGS__);			\
	} while (0)

static void
digest_hex(const void *p, size_t len, char hex[2 * SHA256_LEN + 1])
{
	struct sha256_ctx ctx;
	unsigned char d[SHA256_LEN];

	SHA256_Init(&ctx);
	SHA256_Update(&ctx, p, len);
	SHA256_Final(&ctx, d);
	SHA256_Hex(d, hex);
}

/* FIPS 180-4 examples (NIST CSRC "Examples with intermediate values"). */
static const struct nist_case {
	const char	*msg;
	const char	*want;
} nist_cases[] = {
	{ "",
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ "abc",
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
};

START_TEST(test_nist)
{
	const struct nist_case *tc = &nist_cases[_i];
	char hex[2 * SHA256_LEN + 1];

	digest_hex(tc->msg, strlen(tc->msg), hex);
	ck_assert_str_eq(hex, tc->want);
}
END_TEST

START_TEST(test_million_a)
{
	struct sha256_ctx ctx;
	unsigned char d[SHA256_LEN], *big;
	char hex[2 * SHA256_LEN + 1], a[1000];
	const char *want =
	    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	unsigned i;

	/* In one piece ... */
	big = malloc(1000000);
	ck_assert_ptr_nonnull(big);
	memset(big, 'a', 1000000);
	digest_hex(big, 1000000, hex);
	ck_assert_str_eq(hex, want);
	free(big);

	/* ... and in 1000 pieces of 1000, not a multiple of 64. */
	memset(a, 'a', sizeof a);
	SHA256_Init(&ctx);
	for (i = 0; i < 1000; i++)
		SHA256_Update(&ctx, a, sizeof a);
	SHA256_Final(&ctx, d);
	SHA256_Hex(d, hex);
	ck_assert_str_eq(hex, want);
}
END_TEST

/*
 * Prefixes of this text, around the padding edges: 55 bytes is the most
 * that pads within one block, 56..63 need a second block for the length,
 * 64 is a whole block; the same again one block on.
 */
static const char fox[] = "The quick brown fox jumps over the lazy dog, then "
    "naps in the sun until dusk.The quick brown fox jumps over the lazy dog, "
    "then naps in the sun until dusk.";

static const struct edge_case {
	size_t		len;
	const char	*want;
} edge_cases[] = {
	{ 0,
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ 1,
	  "e632b7095b0bf32c260fa4c539e9fd7b852d0de454e9be26f24d0d6f91d069d3" },
	{ 55,
	  "538ee178f20e5d08bc9eadeae8b04d061840b4c622025bf7e182dcde52f983f0" },
	{ 56,
	  "44e5f34110a1c3e0c495a61e396dc55021e51a80e0852382db5787ff51180a57" },
	{ 57,
	  "bb4cd6a42767fcb64bac1c6d5bff5da06ebac4f665eaa3911ae4f0e07d673af5" },
	{ 63,
	  "cc09eef00f11ad42628543553c88df0a1b76af275fd7c228724a12d1bf6b3151" },
	{ 64,
	  "75b764292aa089c084f6217c38d8b548ae67df3ee0bd264427c3854f9ca5b977" },
	{ 65,
	  "fc9e647c94f7cafd8f35643158272de816c2f7c114d5976daa42e9082ae6d14d" },
	{ 111,
	  "2f0824a2f3fbb267cdd069687ca2f922a266dfdcdbc805b5741d88475a603942" },
	{ 112,
	  "c8238538538c3e2b32f959d809607dce2369ec943ffa62481c8912d5ba155fc8" },
	{ 119,
	  "15594b3cadd43e4642a75d5d816118bc6d5849014644ad284cefda6259d3427c" },
	{ 120,
	  "7c8f5773b60191386486c409df6e1408523b49299726c06198fcffb654bbd561" },
	{ 127,
	  "fd32a26daa1e0536754b9a0d3862e69f485eaefa1fb99667a626616945c72546" },
	{ 128,
	  "46e8591975b17dc9f69f787249c773a7c9bf8ae54da342c19fa8844eaee79ac9" },
	{ 129,
	  "d56edee9b98a3011cc77ceda7f0a5261be975e2754adb0d8c9ad1a2be5e1ef51" },
	{ 154,
	  "d7c5fe1b3f2011f6e850a4e97d92c135e586d2600be4cb1dcf43099518dbd4b9" },
};

START_TEST(test_padding_edges)
{
	const struct edge_case *tc = &edge_cases[_i];
	char hex[2 * SHA256_LEN + 1];

	ck_assert_uint_eq(sizeof fox - 1, 154);
	ck_assert_uint_le(tc->len, sizeof fox - 1);
	digest_hex(fox, tc->len, hex);
	ck_assert_msg(strcmp(hex, tc->want) == 0, "length %zu: %s want %s",
	    tc->len, hex, tc->want);
}
END_TEST

/* Every byte value, so a sign-extension slip cannot hide. */
START_TEST(test_all_bytes)
{
	unsigned char msg[256];
	char hex[2 * SHA256_LEN + 1];
	unsigned i;

	for (i = 0; i < sizeof msg; i++)
		msg[i] = (unsigned char)i;
	digest_hex(msg, sizeof msg, hex);
	ck_assert_str_eq(hex,
	    "40aff2e9d2d8922e47afd4648e6967497158785fbd1da870e7110266bf944880");
}
END_TEST

/* Byte i is (i * 167 + 13) mod 256; 300 bytes hash to SPLIT_300. */
#define SPLIT_LEN	300
#define SPLIT_300 \
	"d60bfbf5e755eaa0394dc010e8cba7f0ddc64681fad8b8b0443f8652c4d1ecd6"
#define SPLIT_150 \
	"52d4bb3accd485d7f648f6a7424f0c64c7950496d601cccd97f1d7ce0d22d9b4"

static void
split_msg(unsigned char *msg, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		msg[i] = (unsigned char)(i * 167 + 13);
}

START_TEST(test_split_two)
{
	struct sha256_ctx ctx;
	unsigned char msg[SPLIT_LEN], d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	size_t i;

	split_msg(msg, sizeof msg);
	for (i = 0; i <= sizeof msg; i++) {
		SHA256_Init(&ctx);
		SHA256_Update(&ctx, msg, i);
		SHA256_Update(&ctx, msg + i, sizeof msg - i);
		SHA256_Final(&ctx, d);
		SHA256_Hex(d, hex);
		REQUIRE_MSG(strcmp(hex, SPLIT_300) == 0, "split at %zu", i);
	}
}
END_TEST

START_TEST(test_split_three)
{
	struct sha256_ctx ctx;
	unsigned char msg[150], d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	size_t i, j;

	split_msg(msg, sizeof msg);
	for (i = 0; i <= sizeof msg; i++) {
		for (j = i; j <= sizeof msg; j++) {
			SHA256_Init(&ctx);
			SHA256_Update(&ctx, msg, i);
			SHA256_Update(&ctx, msg + i, j - i);
			SHA256_Update(&ctx, msg + j, sizeof msg - j);
			SHA256_Final(&ctx, d);
			SHA256_Hex(d, hex);
			REQUIRE_MSG(strcmp(hex, SPLIT_150) == 0,
			    "split at %zu, %zu", i, j);
		}
	}
}
END_TEST

START_TEST(test_split_bytes)
{
	struct sha256_ctx ctx;
	unsigned char msg[SPLIT_LEN], d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	size_t i;

	split_msg(msg, sizeof msg);
	SHA256_Init(&ctx);
	for (i = 0; i < sizeof msg; i++) {
		SHA256_Update(&ctx, msg + i, 1);
		SHA256_Update(&ctx, NULL, 0);
	}
	SHA256_Final(&ctx, d);
	SHA256_Hex(d, hex);
	ck_assert_str_eq(hex, SPLIT_300);
}
END_TEST

START_TEST(test_split_random)
{
	struct sha256_ctx ctx;
	unsigned char msg[SPLIT_LEN], d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];
	uint32_t x = 2463534242U;	/* xorshift32; fixed for replay */
	size_t off, n;
	unsigned round;

	split_msg(msg, sizeof msg);
	for (round = 0; round < 2000; round++) {
		SHA256_Init(&ctx);
		for (off = 0; off < sizeof msg; off += n) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			/* Mostly short pieces, sometimes over a block. */
			n = x % (round % 2 ? 9 : 140);
			if (n > sizeof msg - off)
				n = sizeof msg - off;
			SHA256_Update(&ctx, msg + off, n);
		}
		SHA256_Final(&ctx, d);
		SHA256_Hex(d, hex);
		REQUIRE_MSG(strcmp(hex, SPLIT_300) == 0, "round %u", round);
	}
}
END_TEST

/* Unaligned input must hash like aligned input. */
START_TEST(test_unaligned)
{
	unsigned char buf[SPLIT_LEN + 8];
	char hex[2 * SHA256_LEN + 1];
	unsigned off;

	for (off = 0; off < 8; off++) {
		memset(buf, 0xa5, sizeof buf);
		split_msg(buf + off, SPLIT_LEN);
		digest_hex(buf + off, SPLIT_LEN, hex);
		ck_assert_msg(strcmp(hex, SPLIT_300) == 0, "offset %u", off);
	}
}
END_TEST

START_TEST(test_final_wipes)
{
	struct sha256_ctx ctx, zero;
	unsigned char d[SHA256_LEN];

	memset(&zero, 0, sizeof zero);
	SHA256_Init(&ctx);
	ck_assert_uint_eq(ctx.magic, SHA256_CTX_MAGIC);
	SHA256_Update(&ctx, "secret", 6);
	SHA256_Final(&ctx, d);
	ck_assert_int_eq(memcmp(&ctx, &zero, sizeof ctx), 0);

	/* Init makes it usable again. */
	SHA256_Init(&ctx);
	SHA256_Update(&ctx, "abc", 3);
	SHA256_Final(&ctx, d);
	ck_assert_uint_eq(d[0], 0xba);
	ck_assert_uint_eq(d[SHA256_LEN - 1], 0xad);
}
END_TEST

START_TEST(test_hex)
{
	unsigned char d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 2];
	unsigned i;

	for (i = 0; i < SHA256_LEN; i++)
		d[i] = (unsigned char)(i * 8 + 7);
	d[0] = 0x00;
	d[SHA256_LEN - 1] = 0xff;
	memset(hex, 'X', sizeof hex);
	SHA256_Hex(d, hex);
	ck_assert_str_eq(hex, "000f171f272f373f474f575f676f777f"
	    "878f979fa7afb7bfc7cfd7dfe7eff7ff");
	ck_assert_int_eq(hex[2 * SHA256_LEN + 1], 'X');
}
END_TEST

static Suite *
sha256_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("sha256");
	tc = tcase_create("sha256");
	tcase_set_timeout(tc, 60);	/* valgrind */
	tcase_add_loop_test(tc, test_nist, 0, (int)ARRAY_SIZE(nist_cases));
	tcase_add_test(tc, test_million_a);
	tcase_add_loop_test(tc, test_padding_edges, 0,
	    (int)ARRAY_SIZE(edge_cases));
	tcase_add_test(tc, test_all_bytes);
	tcase_add_test(tc, test_split_two);
	tcase_add_test(tc, test_split_three);
	tcase_add_test(tc, test_split_bytes);
	tcase_add_test(tc, test_split_random);
	tcase_add_test(tc, test_unaligned);
	tcase_add_test(tc, test_final_wipes);
	tcase_add_test(tc, test_hex);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail = 0, portable;

	/* Both ways: the CPU's SHA instructions (if any), the C rounds. */
	for (portable = 0; portable < 2; portable++) {
		SHA256_Portable(portable);
		sr = srunner_create(sha256_suite());
		srunner_run_all(sr, CK_NORMAL);
		nfail += srunner_ntests_failed(sr);
		srunner_free(sr);
	}
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_gzip.c -- unit tests of the gzip, gunzip and test-gunzip streams
 * (cache/gzip.c): round trips through buffers small enough to fill many
 * times, input fed a byte at a time, and hostile input: corrupt,
 * truncated, not gzip, junk after the end.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/gzip.h"

struct sink {
	unsigned char	*buf;
	size_t		len;
	size_t		cap;
	size_t		calls;
	size_t		stop_after;	/* 0: never stop */
};

static int
sink_out(void *priv, const void *ptr, size_t len)
{
	struct sink *sk = priv;

	ck_assert_uint_gt(len, 0);
	ck_assert_uint_le(sk->len + len, sk->cap);
	memcpy(sk->buf + sk->len, ptr, len);
	sk->len += len;
	sk->calls++;
	return (sk->stop_after != 0 && sk->calls >= sk->stop_after);
}

static void
sink_init(struct sink *sk, size_t cap)
{

	memset(sk, 0, sizeof *sk);
	sk->buf = malloc(cap);
	ck_assert_ptr_nonnull(sk->buf);
	sk->cap = cap;
}

/* Text that compresses, with some noise so it is not trivial. */
static unsigned char *
make_plain(size_t len)
{
	unsigned char *p;
	size_t u;

	p = malloc(len + 1);
	ck_assert_ptr_nonnull(p);
	for (u = 0; u < len; u++)
		p[u] = (unsigned char)(u % 7 == 0 ?
		    (size_t)'a' + (u * 31) % 26 :
		    (size_t)"Hello, gzip world. "[u % 19]);
	return (p);
}

/* Gzip plain into sk, fed in pieces of step bytes. */
static void
do_gzip(const unsigned char *plain, size_t len, size_t step, size_t bufsize,
    struct sink *sk)
{
	struct gzip *g;
	size_t off, n;

	g = GZIP_New(GZIP_M_GZIP, 6, 8, bufsize);
	ck_assert_ptr_nonnull(g);
	for (off = 0; off < len; off += n) {
		n = len - off < step ? len - off : step;
		ck_assert_int_eq(GZIP_Feed(g, plain + off, n, 0, sink_out, sk),
		    GZIP_OK);
	}
	ck_assert_int_eq(GZIP_Feed(g, NULL, 0, 1, sink_out, sk), GZIP_OK);
	ck_assert(GZIP_Ended(g));
	GZIP_Free(&g);
	ck_assert_ptr_null(g);
}

/*
 * Gunzip (or test) in fed in pieces of step bytes; returns the first
 * result that is not GZIP_OK (or GZIP_OK), the error text in err.
 */
static int
do_gunzip(enum gzip_mode mode, const unsigned char *in, size_t len,
    size_t step, size_t bufsize, struct sink *sk, char *err, size_t errlen)
{
	struct gzip *g;
	size_t off, n;
	int r = GZIP_OK;

	g = GZIP_New(mode, 0, 1, bufsize);
	ck_assert_ptr_nonnull(g);
	for (off = 0; off < len && r == GZIP_OK; off += n) {
		n = len - off < step ? len - off : step;
		r = GZIP_Feed(g, in + off, n, 0, sink_out, sk);
	}
	if (r == GZIP_OK)
		r = GZIP_Feed(g, NULL, 0, 1, sink_out, sk);
	(void)snprintf(err, errlen, "%s", r == GZIP_ERROR ? GZIP_Error(g) :
	    "");
	GZIP_Free(&g);
	return (r);
}

static const size_t steps[] = { 1, 3, 100, 4096, 1 << 20 };
static const size_t lens[] = { 1, 10, 1000, 100000 };

START_TEST(test_round_trip)
{
	size_t len = lens[_i % ARRAY_SIZE(lens)];
	size_t step = steps[_i / ARRAY_SIZE(lens)];
	unsigned char *plain;
	struct sink z, p, t;
	char err[128];

	plain = make_plain(len);
	sink_init(&z, len + 1024);
	do_gzip(plain, len, step, 64, &z);
	ck_assert_uint_ge(z.len, 18);
	ck_assert_uint_eq(z.buf[0], 0x1f);
	ck_assert_uint_eq(z.buf[1], 0x8b);
	sink_init(&p, len);
	ck_assert_int_eq(do_gunzip(GZIP_M_GUNZIP, z.buf, z.len, step, 2048,
	    &p, err, sizeof err), GZIP_OK);
	ck_assert_uint_eq(p.len, len);
	ck_assert(memcmp(p.buf, plain, len) == 0);
	/* Test mode checks it and hands nothing out. */
	sink_init(&t, 1);
	ck_assert_int_eq(do_gunzip(GZIP_M_TEST, z.buf, z.len, step, 2048,
	    &t, err, sizeof err), GZIP_OK);
	ck_assert_uint_eq(t.len, 0);
	free(plain);
	free(z.buf);
	free(p.buf);
	free(t.buf);
}
END_TEST

/* A gzip of "Hello GZ World" and its length, for the hostile cases. */
static unsigned char *
hello_gz(size_t *lenp)
{
	static const char hello[] = "Hello GZ World, hello again, hello!";
	struct sink z;

	sink_init(&z, 256);
	do_gzip((const unsigned char *)hello, sizeof hello - 1, 7, 64, &z);
	*lenp = z.len;
	return (z.buf);
}

START_TEST(test_truncated)
{
	unsigned char *gz;
	size_t len, cut;
	struct sink p;
	char err[128];
	int r;

	gz = hello_gz(&len);
	for (cut = 0; cut < len; cut++) {
		sink_init(&p, 256);
		r = do_gunzip(_i ? GZIP_M_TEST : GZIP_M_GUNZIP, gz, cut, 1,
		    2048, &p, err, sizeof err);
		ck_assert_int_eq(r, GZIP_ERROR);
		ck_assert_msg(strstr(err, "Gunzip error at the very end") !=
		    NULL || strstr(err, "Invalid Gzip data") != NULL,
		    "cut %zu: %s", cut, err);
		free(p.buf);
	}
	free(gz);
}
END_TEST

START_TEST(test_corrupt)
{
	unsigned char *gz;
	size_t len, u;
	struct sink p;
	char err[128];
	int r, bad = 0;

	gz = hello_gz(&len);
	/* Every byte flipped: never a crash, never the same text as OK. */
	for (u = 0; u < len; u++) {
		gz[u] ^= 0x55;
		sink_init(&p, 4096);
		r = do_gunzip(GZIP_M_GUNZIP, gz, len, 5, 2048, &p, err,
		    sizeof err);
		if (r != GZIP_OK)
			bad++;
		if (r == GZIP_ERROR)
			ck_assert_uint_gt(strlen(err), 0);
		gz[u] ^= 0x55;
		free(p.buf);
	}
	/* The header's flags and mtime bytes may change harmlessly; the
	 * trailer's CRC and length catch the rest. */
	ck_assert_uint_ge(bad, len - 8);
	free(gz);
}
END_TEST

START_TEST(test_not_gzip)
{
	static const char plain[] = "<html>not gzip at all</html>";
	struct sink p;
	char err[128];

	sink_init(&p, 256);
	ck_assert_int_eq(do_gunzip(GZIP_M_TEST, (const unsigned char *)plain,
	    sizeof plain - 1, 4096, 2048, &p, err, sizeof err), GZIP_ERROR);
	ck_assert_msg(strncmp(err, "Invalid Gzip data: ", 19) == 0, "%s", err);
	free(p.buf);
}
END_TEST

START_TEST(test_junk_after)
{
	unsigned char *gz, *in;
	size_t len;
	struct sink p;
	char err[128];

	gz = hello_gz(&len);
	in = malloc(len + 3);
	ck_assert_ptr_nonnull(in);
	memcpy(in, gz, len);
	memcpy(in + len, "xyz", 3);
	/* In the same piece as the end, or in a later one. */
	sink_init(&p, 256);
	ck_assert_int_eq(do_gunzip(GZIP_M_GUNZIP, in, len + 3, 4096, 2048,
	    &p, err, sizeof err), GZIP_ERROR);
	ck_assert_str_eq(err, "Junk after gzip data");
	free(p.buf);
	sink_init(&p, 256);
	ck_assert_int_eq(do_gunzip(GZIP_M_TEST, in, len + 3, 1, 2048,
	    &p, err, sizeof err), GZIP_ERROR);
	ck_assert_str_eq(err, "Junk after gzip data");
	free(p.buf);
	free(in);
	free(gz);
}
END_TEST

START_TEST(test_out_stops)
{
	unsigned char *plain;
	struct sink z;
	struct gzip *g;

	plain = make_plain(100000);
	sink_init(&z, 200000);
	z.stop_after = 2;
	g = GZIP_New(GZIP_M_GZIP, 0, 8, 64);	/* level 0: output grows */
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(GZIP_Feed(g, plain, 100000, 1, sink_out, &z),
	    GZIP_OUT);
	ck_assert_uint_eq(z.calls, 2);
	GZIP_Free(&g);
	free(plain);
	free(z.buf);
}
END_TEST

static Suite *
gzip_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("gzip");
	tc = tcase_create("gzip");
	tcase_add_loop_test(tc, test_round_trip, 0,
	    (int)(ARRAY_SIZE(lens) * ARRAY_SIZE(steps)));
	tcase_add_loop_test(tc, test_truncated, 0, 2);
	tcase_add_test(tc, test_corrupt);
	tcase_add_test(tc, test_not_gzip);
	tcase_add_test(tc, test_junk_after);
	tcase_add_test(tc, test_out_stops);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(gzip_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

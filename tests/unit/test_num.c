/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_num.c -- unit tests of number parsing: durations, byte sizes,
 * unsigned integers, booleans, and formatting sizes back.
 */

#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/num.h"

static const struct dur_case {
	const char	*s;
	int		ok;
	double		want;
} dur_cases[] = {
	{ "10s", 1, 10 },
	{ "1.5m", 1, 90 },
	{ "250ms", 1, 0.25 },
	{ "2h", 1, 7200 },
	{ "1d", 1, 86400 },
	{ "1w", 1, 604800 },
	{ "1y", 1, 31536000 },
	{ "3.5", 1, 3.5 },
	{ "0", 1, 0 },
	{ ".25", 1, 0.25 },
	{ "5.", 1, 5 },
	{ "+5", 1, 5 },
	{ " 5 ", 1, 5 },
	{ "\t5s\t", 1, 5 },
	{ "5 s", 1, 5 },
	{ "10S", 1, 10 },
	{ "100MS", 1, 0.1 },
	{ "", 0, 0 },
	{ " ", 0, 0 },
	{ ".", 0, 0 },
	{ "abc", 0, 0 },
	{ "s", 0, 0 },
	{ "-1", 0, 0 },
	{ "-0.5s", 0, 0 },
	{ "10x", 0, 0 },
	{ "10ss", 0, 0 },
	{ "10 s s", 0, 0 },
	{ "1e3", 0, 0 },
	{ "0x10", 0, 0 },
	{ "inf", 0, 0 },
	{ "nan", 0, 0 },
	{ "1.2.3", 0, 0 },
	{ "1,5", 0, 0 },
	{ "5s x", 0, 0 },
};

START_TEST(test_duration)
{
	const struct dur_case *tc = &dur_cases[_i];
	const char *err;
	double d = -42;

	err = NUM_ParseDuration(tc->s, &d);
	if (tc->ok) {
		ck_assert_msg(err == NULL, "\"%s\": %s", tc->s, err);
		ck_assert_msg(fabs(d - tc->want) <= 1e-12 * (1 + tc->want),
		    "\"%s\": %g want %g", tc->s, d, tc->want);
	} else {
		ck_assert_msg(err != NULL, "\"%s\" accepted as %g", tc->s, d);
		ck_assert_msg(d == -42, "\"%s\": output written on error",
		    tc->s);
	}
}
END_TEST

START_TEST(test_duration_misc)
{
	char buf[512];
	double d;

	ck_assert_ptr_nonnull(NUM_ParseDuration(NULL, &d));
	/* 400 digits do not fit a double: an error, not infinity. */
	memset(buf, '9', 400);
	buf[400] = '\0';
	ck_assert_ptr_nonnull(NUM_ParseDuration(buf, &d));
	/* Many digits that do fit are fine. */
	memset(buf, '0', 300);
	memcpy(buf + 300, "12", 3);
	ck_assert_ptr_null(NUM_ParseDuration(buf, &d));
	ck_assert(d == 12);
	/*
	 * Milliseconds read as exactly the seconds they spell (ban.list
	 * shows 0.013s as 13ms only if 13ms reads back the same): 13 * 1e-3
	 * is not the double 0.013 is, 13 / 1000 is.
	 */
	ck_assert_ptr_null(NUM_ParseDuration("13ms", &d));
	ck_assert(d == 0.013);
	ck_assert_ptr_null(NUM_ParseDuration("9ms", &d));
	ck_assert(d == 0.009);
	/*
	 * A number that fits but not once its unit multiplies it: an error,
	 * not infinity, which param.show would print as "inf" and param.set
	 * refuse (found by tests/fuzz/fuzz_param).
	 */
	memset(buf, '4', 307);
	memcpy(buf + 307, "m", 2);
	d = -42;
	ck_assert_ptr_nonnull(NUM_ParseDuration(buf, &d));
	ck_assert(d == -42);
	memcpy(buf + 307, "y", 2);
	ck_assert_ptr_nonnull(NUM_ParseDuration(buf, &d));
}
END_TEST

static const struct bytes_case {
	const char	*s;
	int		ok;
	uint64_t	want;
} bytes_cases[] = {
	{ "64k", 1, 65536 },
	{ "1G", 1, 1073741824ULL },
	{ "1g", 1, 1073741824ULL },
	{ "512b", 1, 512 },
	{ "512B", 1, 512 },
	{ "512", 1, 512 },
	{ "0", 1, 0 },
	{ "0.75k", 1, 768 },
	{ "64KB", 1, 65536 },
	{ "64kb", 1, 65536 },
	{ "64 k", 1, 65536 },
	{ " 64k ", 1, 65536 },
	{ "1.5m", 1, 1572864 },
	{ "1.5M", 1, 1572864 },
	{ "2t", 1, 2199023255552ULL },
	{ "3p", 1, 3377699720527872ULL },
	{ "15.5p", 1, 17451448556060672ULL },
	{ "16383p", 1, 18445618173802708992ULL },
	{ "9007199254740992", 1, 9007199254740992ULL },
	{ "", 0, 0 },
	{ "abc", 0, 0 },
	{ "k", 0, 0 },
	{ "-1", 0, 0 },
	{ "-1k", 0, 0 },
	{ "10x", 0, 0 },
	{ "10kx", 0, 0 },
	{ "10bb", 0, 0 },
	{ "10kbb", 0, 0 },
	{ "1e3", 0, 0 },
	{ "0x10", 0, 0 },
	{ "1.5b", 0, 0 },
	{ "1.5", 0, 0 },
	{ "0.1k", 0, 0 },
	{ "16384p", 0, 0 },
	{ "17179869184g", 0, 0 },
	{ "18446744073709551616", 0, 0 },
	{ "99999999999999999999999", 0, 0 },
	{ "64k 1", 0, 0 },
};

START_TEST(test_bytes)
{
	const struct bytes_case *tc = &bytes_cases[_i];
	uint64_t v = 4242;
	const char *err;

	err = NUM_ParseBytes(tc->s, &v);
	if (tc->ok) {
		ck_assert_msg(err == NULL, "\"%s\": %s", tc->s, err);
		ck_assert_msg(v == tc->want, "\"%s\": %ju want %ju", tc->s,
		    (uintmax_t)v, (uintmax_t)tc->want);
	} else {
		ck_assert_msg(err != NULL, "\"%s\" accepted as %ju", tc->s,
		    (uintmax_t)v);
		ck_assert_msg(v == 4242, "\"%s\": output written on error",
		    tc->s);
	}
}
END_TEST

START_TEST(test_uint)
{
	static const struct {
		const char	*s;
		int		ok;
		unsigned	want;
	} t[] = {
		{ "0", 1, 0 }, { "7", 1, 7 }, { " 7 ", 1, 7 },
		{ "007", 1, 7 }, { "4294967295", 1, 4294967295U },
		{ "4294967296", 0, 0 }, { "99999999999999999999", 0, 0 },
		{ "", 0, 0 }, { "-1", 0, 0 }, { "+1", 0, 0 }, { "1.5", 0, 0 },
		{ "1k", 0, 0 }, { "0x10", 0, 0 }, { "abc", 0, 0 },
		{ "1 2", 0, 0 },
	};
	unsigned u, v;
	const char *err;

	for (u = 0; u < ARRAY_SIZE(t); u++) {
		v = 4242;
		err = NUM_ParseUint(t[u].s, &v);
		if (t[u].ok) {
			ck_assert_msg(err == NULL, "\"%s\": %s", t[u].s, err);
			ck_assert_uint_eq(v, t[u].want);
		} else {
			ck_assert_msg(err != NULL, "\"%s\" accepted", t[u].s);
			ck_assert_uint_eq(v, 4242);
		}
	}
	ck_assert_ptr_nonnull(NUM_ParseUint(NULL, &v));
}
END_TEST

START_TEST(test_bool)
{
	static const char * const on[] = { "on", "ON", "true", "yes",
	    "enable", "1", "True" };
	static const char * const off[] = { "off", "false", "no", "disable",
	    "0", "OFF" };
	static const char * const bad[] = { "", "maybe", "2", "onn", " on",
	    "o" };
	unsigned u, v;

	for (u = 0; u < ARRAY_SIZE(on); u++) {
		v = 7;
		ck_assert_ptr_null(NUM_ParseBool(on[u], &v));
		ck_assert_uint_eq(v, 1);
	}
	for (u = 0; u < ARRAY_SIZE(off); u++) {
		v = 7;
		ck_assert_ptr_null(NUM_ParseBool(off[u], &v));
		ck_assert_uint_eq(v, 0);
	}
	for (u = 0; u < ARRAY_SIZE(bad); u++) {
		v = 7;
		ck_assert_msg(NUM_ParseBool(bad[u], &v) != NULL, "\"%s\"",
		    bad[u]);
		ck_assert_uint_eq(v, 7);
	}
	ck_assert_ptr_nonnull(NUM_ParseBool(NULL, &v));
}
END_TEST

START_TEST(test_format_bytes)
{
	static const struct {
		uint64_t	v;
		const char	*want;
	} t[] = {
		{ 0, "0b" }, { 1, "1b" }, { 512, "512b" }, { 768, "768b" },
		{ 1023, "1023b" }, { 1024, "1k" }, { 1536, "1.5k" },
		{ 1280, "1.25k" }, { 1792, "1.75k" }, { 65536, "64k" },
		{ 98304, "96k" }, { 1000, "1000b" }, { 1025, "1025b" },
		{ 1048576, "1M" }, { 1572864, "1.5M" },
		{ 1073741824ULL, "1G" }, { 1099511627776ULL, "1T" },
		{ 1125899906842624ULL, "1P" },
		{ 1152921504606846976ULL, "1024P" },
	};
	char buf[64];
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(t); u++) {
		NUM_FormatBytes(t[u].v, buf, sizeof buf);
		ck_assert_msg(strcmp(buf, t[u].want) == 0,
		    "%ju: \"%s\" want \"%s\"", (uintmax_t)t[u].v, buf,
		    t[u].want);
	}
	/* A short buffer is truncated, never overrun. */
	NUM_FormatBytes(123456789, buf, 4);
	ck_assert_str_eq(buf, "123");
}
END_TEST

/* Whatever FormatBytes prints, ParseBytes reads back as the same value. */
START_TEST(test_format_round_trip)
{
	static const uint64_t vals[] = {
		0, 1, 7, 511, 512, 1000, 1023, 1024, 1025, 1536, 4096,
		65535, 65536, 98304, 192 * 1024, 12641536, 12644352,
		1048575, 1048576, 1572864, 1610612736, 123456789,
		(uint64_t)1 << 40, ((uint64_t)3 << 50) + ((uint64_t)1 << 48),
		((uint64_t)12345 << 50) + ((uint64_t)1 << 48),
		(uint64_t)1 << 53, ((uint64_t)1 << 53) - 1,
		((uint64_t)1 << 60), ((uint64_t)1 << 63) + ((uint64_t)1 << 61),
	};
	char buf[64];
	uint64_t v, back, x = 88172645463325252ULL;
	const char *err;
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(vals) + 2000; u++) {
		if (u < ARRAY_SIZE(vals)) {
			v = vals[u];
		} else {
			/* Random multiples of quarter units, exact in a
			 * double: the values FormatBytes moves up for. */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = (x % 60000) << (8 + 10 * (x % 5));
		}
		NUM_FormatBytes(v, buf, sizeof buf);
		err = NUM_ParseBytes(buf, &back);
		ck_assert_msg(err == NULL, "%ju -> \"%s\": %s", (uintmax_t)v,
		    buf, err);
		ck_assert_msg(back == v, "%ju -> \"%s\" -> %ju", (uintmax_t)v,
		    buf, (uintmax_t)back);
	}
}
END_TEST

static Suite *
num_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("num");
	tc = tcase_create("num");
	tcase_add_loop_test(tc, test_duration, 0, (int)ARRAY_SIZE(dur_cases));
	tcase_add_test(tc, test_duration_misc);
	tcase_add_loop_test(tc, test_bytes, 0, (int)ARRAY_SIZE(bytes_cases));
	tcase_add_test(tc, test_uint);
	tcase_add_test(tc, test_bool);
	tcase_add_test(tc, test_format_bytes);
	tcase_add_test(tc, test_format_round_trip);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(num_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

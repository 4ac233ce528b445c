/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_fmt.c -- unit tests of the request path's formatter: whatever it
 * prints, fast path or not, must be what snprintf prints, cut the same
 * way, with the same return value.
 */

#include "config.h"

#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fmt.h"

#define ARRAY_SIZE(a)	(sizeof (a) / sizeof (a)[0])

static int __attribute__((__format__(__printf__, 3, 4)))
fmt(char *dst, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = FMT_Vsnprintf(dst, len, f, ap);
	va_end(ap);
	return (n);
}

/*
 * Print the same arguments both ways into buffers of every size from 1
 * to 64 and compare text and return values.  Trailing canaries catch a
 * write past len.
 */
#define SAME(...)							\
	do {								\
		char a_[72], b_[72];					\
		size_t l_;						\
		int na_, nb_;						\
		for (l_ = 1; l_ <= 64; l_++) {				\
			memset(a_, '#', sizeof a_);			\
			memset(b_, '#', sizeof b_);			\
			na_ = fmt(a_, l_, __VA_ARGS__);			\
			nb_ = snprintf(b_, l_, __VA_ARGS__);		\
			ck_assert_int_eq(na_, nb_);			\
			ck_assert_msg(memcmp(a_, b_, sizeof a_) == 0,	\
			    "len %zu: \"%s\" vs snprintf \"%s\"", l_,	\
			    a_, b_);					\
		}							\
	} while (0)

START_TEST(test_literal)
{

	SAME("%s", "");
	SAME("plain text, no conversions");
	SAME("100%% sure");
	SAME("%%");
	SAME("a%cb", 'x');
}
END_TEST

START_TEST(test_strings)
{
	const char cut[] = "abcdefgh";

	SAME("%s=%s", "Host", "example.com");
	SAME("[%.*s]", 3, cut);
	SAME("[%.*s]", 0, cut);
	SAME("[%.*s]", 20, cut);
	SAME("%.20s (workspace full)", "X-Very-Long-Header-Name: and its value");
}
END_TEST

START_TEST(test_integers)
{

	SAME("%u %d", 0U, 0);
	SAME("%u %d %d", UINT_MAX, INT_MAX, INT_MIN);
	SAME("%ld %lu", LONG_MIN, ULONG_MAX);
	SAME("%jd %ju", INTMAX_MIN, UINTMAX_MAX);
	SAME("%zu", (size_t)SIZE_MAX);
	SAME("%zu", (size_t)0);
	SAME("X-Varnish: %u %u", 32770U, 5U);
	SAME("%d %d %d %d", 9, 10, 99, 100);
	SAME("%u", 1000000007U);
}
END_TEST

/* Conversions the fast path does not take: vsnprintf prints them. */
START_TEST(test_fallback)
{

	SAME("%5d|%-5s|", 42, "ab");
	SAME("%x %X %o", 0xbeefU, 0xbeefU, 8U);
	SAME("%.3f", 3.14159);
	SAME("%.0e %5.0f", 3.5, 2.5);
	SAME("%s then %08.2f", "text", -1.5);
	SAME("%*s|", 6, "r");
	SAME("%p", (void *)0);
}
END_TEST

/* Every power of ten and its neighbours, both signs. */
START_TEST(test_uint_edges)
{
	char a[32], b[32];
	uintmax_t v = 1;
	size_t n;
	unsigned u;

	for (u = 0; u < 20; u++, v *= 10) {
		n = FMT_Uint(a, v);
		a[n] = '\0';
		(void)snprintf(b, sizeof b, "%ju", v);
		ck_assert_str_eq(a, b);
		n = FMT_Uint(a, v - 1);
		a[n] = '\0';
		(void)snprintf(b, sizeof b, "%ju", v - 1);
		ck_assert_str_eq(a, b);
		n = FMT_Uint(a, v + 1);
		a[n] = '\0';
		(void)snprintf(b, sizeof b, "%ju", v + 1);
		ck_assert_str_eq(a, b);
		SAME("%jd|%jd", -(intmax_t)(v - 1), (intmax_t)(v + 1));
	}
}
END_TEST

static const double fixed6_cases[] = {
	0, -0.0, 0.0000005, 0.0000015, 0.0000025, 0.9999995, 0.99999949999,
	9.9999999, 1795367082.312922, 1795367082.9999996, 1e-9, -1e-9,
	123456789012.3456789, 999999999999999.9, 79269.7578125, 0.5e-6,
	-42.1234565, 0.0000035, 0.0000045, 1.0000005, 2.0000015, 0.1234565,
	0.1234575, 1712729756.3670005, 9007199253.9999995, 9007199254.0000005,
	9007199255.5, 4503599627.3704965, 1e10 + 0.0000005, 99999999999999.99,
};

START_TEST(test_fixed6)
{
	char a[32], b[64];
	double v = fixed6_cases[_i];
	size_t n;

	n = FMT_Fixed6(a, v);
	ck_assert_uint_gt(n, 0);
	ck_assert_uint_le(n, 24);
	a[n] = '\0';
	(void)snprintf(b, sizeof b, "%.6f", v);
	ck_assert_str_eq(a, b);
}
END_TEST

START_TEST(test_fixed6_refuses)
{
	char a[32];

	ck_assert_uint_eq(FMT_Fixed6(a, 1e15), 0);
	ck_assert_uint_eq(FMT_Fixed6(a, -1e300), 0);
	ck_assert_uint_eq(FMT_Fixed6(a, 1.0 / 0.0), 0);
	ck_assert_uint_eq(FMT_Fixed6(a, 0.0 / 0.0), 0);
}
END_TEST

/*
 * Random values of every size, and values next to a half microsecond
 * (where one rounding too many would show), against snprintf.
 */
START_TEST(test_fixed6_sweep)
{
	uint64_t x = 0x2545f4914f6cdd1dULL;
	char a[32], b[64];
	double v;
	size_t n;
	unsigned u;

	for (u = 0; u < 200000; u++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (u % 3) {
		case 0:		/* anything from 1e-9 to 1e15 */
			v = (double)(x >> 11) / (double)(1ULL << 53) *
			    pow(10, (double)(x % 24) - 9);
			break;
		case 1:		/* k + 1/2 microseconds, and a neighbour */
			v = ((double)(x % 10000000000000ULL) + 0.5) / 1e6;
			if (x & 1)
				v = nextafter(v, (x & 2) ? 0 : 1e300);
			break;
		default:	/* clock times */
			v = 1.7e9 + (double)(x % 1000000000000ULL) / 1e3;
			break;
		}
		if (x & 4)
			v = -v;
		n = FMT_Fixed6(a, v);
		if (n == 0)
			continue;
		a[n] = '\0';
		(void)snprintf(b, sizeof b, "%.6f", v);
		ck_assert_msg(strcmp(a, b) == 0, "%.17g: \"%s\", printf \"%s\"",
		    v, a, b);
	}
}
END_TEST

/* %.0f and %.6f take the fast path and print what printf prints. */
START_TEST(test_floats)
{
	static const double v[] = {
		0, -0.0, 0.4, -0.4, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 0.49999999,
		119.99, -3.2, 1e15, 4503599627370495.0, 4503599627370496.0,
		1e300, -1e300, 1795373499.526307, 0.0000005, 9.9999995,
	};
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(v); u++) {
		SAME("%.0f", v[u]);
		SAME("%.3f", v[u]);
		SAME("%.6f", v[u]);
		SAME("ttl=%.0f; x=%.6f %u", v[u], v[u], u);
	}
	SAME("%.0f", (double)NAN);
	SAME("%.0f %.6f", (double)INFINITY, -(double)INFINITY);
}
END_TEST

/* %.0f against printf over many values, ties included. */
START_TEST(test_float0_sweep)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char a[64], b[64];
	double v;
	unsigned u;

	for (u = 0; u < 200000; u++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (u % 2)
			v = (double)(x % 100000) / 2;	/* k and k + 1/2 */
		else
			v = (double)(x >> 11) / (double)(1ULL << 53) *
			    pow(10, (double)(x % 20) - 3);
		if (x & 4)
			v = -v;
		(void)FMT_Snprintf(a, sizeof a, "%.0f", v);
		(void)snprintf(b, sizeof b, "%.0f", v);
		ck_assert_msg(strcmp(a, b) == 0, "%.17g: \"%s\", printf \"%s\"",
		    v, a, b);
		/* %.3f: k/2000 are the halves of a millisecond. */
		if (u % 2)
			v = (double)(x % 100000000) / 2000;
		(void)FMT_Snprintf(a, sizeof a, "%.3f", v);
		(void)snprintf(b, sizeof b, "%.3f", v);
		ck_assert_msg(strcmp(a, b) == 0, "%.17g: \"%s\", printf \"%s\"",
		    v, a, b);
	}
}
END_TEST

static Suite *
fmt_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("fmt");
	tc = tcase_create("vsnprintf");
	tcase_add_test(tc, test_literal);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_fallback);
	tcase_add_test(tc, test_uint_edges);
	suite_add_tcase(s, tc);
	tc = tcase_create("fixed6");
	tcase_add_loop_test(tc, test_fixed6, 0, (int)ARRAY_SIZE(fixed6_cases));
	tcase_add_test(tc, test_fixed6_refuses);
	tcase_add_test(tc, test_fixed6_sweep);
	tcase_add_test(tc, test_floats);
	tcase_add_test(tc, test_float0_sweep);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(fmt_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

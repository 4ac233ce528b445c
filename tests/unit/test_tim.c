/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_tim.c -- unit tests of HTTP dates (RFC 9110 5.6.7) and the small
 * clock helpers.
 */

#include "config.h"

#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/miniobj.h"
#include "common/tim.h"

#define T_1994	784111777.0	/* Sun, 06 Nov 1994 08:49:37 GMT */

static vtim_real
parse(const char *s)
{

	return (TIM_parse(s, NULL));
}

START_TEST(test_format)
{
	char buf[TIM_FORMAT_SIZE];

	TIM_format(T_1994, buf);
	ck_assert_str_eq(buf, "Sun, 06 Nov 1994 08:49:37 GMT");
	TIM_format(T_1994 + 0.999, buf);
	ck_assert_str_eq(buf, "Sun, 06 Nov 1994 08:49:37 GMT");
	TIM_format(0, buf);
	ck_assert_str_eq(buf, "Thu, 01 Jan 1970 00:00:00 GMT");
	TIM_format(951782400, buf);
	ck_assert_str_eq(buf, "Tue, 29 Feb 2000 00:00:00 GMT");
	TIM_format(4102444799.0, buf);
	ck_assert_str_eq(buf, "Thu, 31 Dec 2099 23:59:59 GMT");
	ck_assert_uint_eq(strlen(buf) + 1, TIM_FORMAT_SIZE);
}
END_TEST

/* The arithmetic agrees with gmtime_r over the years a date can say. */
START_TEST(test_format_vs_gmtime)
{
	char buf[TIM_FORMAT_SIZE], want[64];
	struct tm tm;
	time_t tt;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	unsigned u;
	/* 0001-01-01 to 9999-12-31 23:59:59, and the edges themselves */
	const int64_t lo = -62135596800LL, hi = 253402300799LL;

	for (u = 0; u < 200000; u++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (u == 0)
			tt = (time_t)lo;
		else if (u == 1)
			tt = (time_t)hi;
		else if (u < 1000)	/* around the epoch and leap days */
			tt = (time_t)((int64_t)(x % 400000000) - 200000000);
		else
			tt = (time_t)(lo + (int64_t)(x % (uint64_t)(hi - lo)));
		ck_assert_ptr_nonnull(gmtime_r(&tt, &tm));
		/* strftime: day and month names; the year, four digits. */
		ck_assert_uint_gt(strftime(want, sizeof want,
		    "%a, %d %b ", &tm), 0);
		(void)snprintf(want + 12, sizeof want - 12,
		    "%04d %02d:%02d:%02d GMT", tm.tm_year + 1900, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
		TIM_format((vtim_real)tt, buf);
		ck_assert_str_eq(buf, want);
	}
}
END_TEST

START_TEST(test_three_forms)
{

	ck_assert(parse("Sun, 06 Nov 1994 08:49:37 GMT") == T_1994);
	ck_assert(parse("Sunday, 06-Nov-94 08:49:37 GMT") == T_1994);
	ck_assert(parse("Sun Nov  6 08:49:37 1994") == T_1994);
	ck_assert(parse("Sun Nov 16 08:49:37 1994") == T_1994 + 10 * 86400);
	/* Surrounding blanks are trimmed. */
	ck_assert(parse("  Sun, 06 Nov 1994 08:49:37 GMT\t") == T_1994);
	/* The end pointer bounds the text. */
	ck_assert(TIM_parse("Sun, 06 Nov 1994 08:49:37 GMTxyz",
	    "Sun, 06 Nov 1994 08:49:37 GMTxyz" + 29) == T_1994);
	/*
	 * RFC 850 years more than 50 years ahead are last century's: "94"
	 * above is 1994 until 2044; "21" is 2021 all this century.
	 */
	ck_assert(parse("Friday, 01-Jan-21 00:00:00 GMT") == 1609459200);
}
END_TEST

/* http_date_postel: what servers send, strict parsing refuses. */
START_TEST(test_postel)
{
	static const char * const lax[] = {
		"Sun, 6 Nov 1994 08:49:37 GMT",
		"6 Nov 1994 08:49:37 GMT",
		"06 Nov 1994 08:49:37 UTC",
		"Sun, 06 Nov 1994 08:49:37 UTC",
	};
	unsigned u;

	for (u = 0; u < sizeof lax / sizeof lax[0]; u++) {
		ck_assert_msg(parse(lax[u]) == 0, "strict took %s", lax[u]);
		ck_assert_msg(TIM_parse_postel(lax[u], NULL) == T_1994,
		    "postel refused %s", lax[u]);
	}
	/* Strict forms still parse, and nonsense is still refused. */
	ck_assert(TIM_parse_postel("Sun Nov  6 08:49:37 1994", NULL) ==
	    T_1994);
	ck_assert(TIM_parse_postel("Sun, 6 Nov 1994 08:49:37", NULL) == 0);
	ck_assert(TIM_parse_postel("Sun, 123 Nov 1994 08:49:37 GMT",
	    NULL) == 0);
	ck_assert(TIM_parse_postel("Sun 6 Nov 1994 08:49:37 GMT", NULL) ==
	    0);
	ck_assert(TIM_parse_postel("Sun, 31 Feb 1994 08:49:37 GMT", NULL) ==
	    0);
}
END_TEST

START_TEST(test_round_trip)
{
	char buf[TIM_FORMAT_SIZE];
	vtim_real t;
	uint32_t x = 2463534242U;
	unsigned u;

	for (u = 0; u < 20000; u++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		/* 1970-01-01 00:00:01 up to about 2106. */
		t = 1 + (double)x;
		TIM_format(t, buf);
		ck_assert_msg(TIM_parse(buf, NULL) == t, "%.0f -> %s -> %.0f",
		    t, buf, TIM_parse(buf, NULL));
	}
	/* Leap days and the turn of years. */
	ck_assert(parse("Tue, 29 Feb 2000 00:00:00 GMT") == 951782400);
	ck_assert(parse("Thu, 29 Feb 2024 12:00:00 GMT") == 1709208000);
	ck_assert(parse("Thu, 31 Dec 2099 23:59:59 GMT") == 4102444799.0);
	ck_assert(parse("Fri, 01 Jan 2100 00:00:00 GMT") == 4102444800.0);
}
END_TEST

START_TEST(test_invalid)
{
	static const char * const bad[] = {
		"", "0", "1", "garbage", "  ", "GMT",
		"Mon, 30 Feb 2015 00:00:00 GMT",
		"Mon, 31 Apr 2015 00:00:00 GMT",
		"Thu, 00 Jan 2015 00:00:00 GMT",
		"Thu, 32 Jan 2015 00:00:00 GMT",
		"Sun, 29 Feb 2015 00:00:00 GMT",
		"Thu, 29 Feb 2100 00:00:00 GMT",
		"Sun, 06 Nov 1994 24:00:00 GMT",
		"Sun, 06 Nov 1994 08:60:00 GMT",
		"Sun, 06 Nov 1994 08:49:61 GMT",
		"Sun, 06 Nov 1994 08:49:37 UTC",
		"Sun, 06 Nov 1994 08:49:37 gmt",
		"Sun, 06 Nov 1994 08:49:37",
		"Sun, 06 Nov 1994 08:49:37 GMT x",
		"Sun, 6 Nov 1994 08:49:37 GMT",
		"Sun,  06 Nov 1994 08:49:37 GMT",
		"Sun 06 Nov 1994 08:49:37 GMT",
		"sun, 06 Nov 1994 08:49:37 GMT",
		"Sun, 06 nov 1994 08:49:37 GMT",
		"Sun, 06 Nov 94 08:49:37 GMT",
		"Sun, 06 Xyz 1994 08:49:37 GMT",
		"Sun, 06 Nov 1994 8:49:37 GMT",
		"Sun, 06 Nov 1994 08:49 GMT",
		"Sun, 06 Nov 1969 08:49:37 GMT",
		"Sun, 06 Nov 1994 08:49:37 GMT\r\n",
		"Sunday, 06-Nov-1994 08:49:37 GMT",
		"Sun, 06-Nov-94 08:49:37 GMT",
		"Sunday, 31-Nov-94 08:49:37 GMT",
		"Sun Nov 6 08:49:37 1994",
		"Sun Nov  6 08:49:37 94",
		"Sun Nov 31 08:49:37 1994",
		"Sun Nov  6 08:49:37 1994 GMT",
		"Sun, 06 Nov -994 08:49:37 GMT",
		"Sun, 06 Nov 1994 08:49:37 GMT GMT",
	};
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(bad); u++)
		ck_assert_msg(parse(bad[u]) == 0, "\"%s\" parsed as %.0f",
		    bad[u], parse(bad[u]));
	ck_assert(TIM_parse(NULL, NULL) == 0);
	/* An empty range of a valid string. */
	ck_assert(TIM_parse(bad[6], bad[6]) == 0);
}
END_TEST

START_TEST(test_clock_helpers)
{
	struct timeval tv;
	struct timespec ts;
	vtim_mono m0, m1;
	vtim_real r;

	m0 = TIM_mono();
	m1 = TIM_mono();
	ck_assert(m1 >= m0);
	r = TIM_real();
	ck_assert(r > 1.6e9);
	tv = TIM_timeval(1.25);
	ck_assert_int_eq(tv.tv_sec, 1);
	ck_assert_int_eq(tv.tv_usec, 250000);
	tv = TIM_timeval(-3);
	ck_assert_int_eq(tv.tv_sec, 0);
	ck_assert_int_eq(tv.tv_usec, 0);
	ts = TIM_timespec(2.5);
	ck_assert_int_eq(ts.tv_sec, 2);
	ck_assert_int_eq(ts.tv_nsec, 500000000);
	ck_assert_int_eq(TIM_poll_ms(0), 0);
	ck_assert_int_eq(TIM_poll_ms(-1), 0);
	ck_assert_int_eq(TIM_poll_ms(0.0001), 1);
	ck_assert_int_eq(TIM_poll_ms(1.5), 1500);
	ck_assert_int_eq(TIM_poll_ms(1e12), INT_MAX);
	ck_assert_int_eq(TIM_poll_ms(INFINITY), INT_MAX);
	ck_assert_int_eq(TIM_poll_ms(NAN), 0);
}
END_TEST

static Suite *
tim_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("tim");
	tc = tcase_create("tim");
	/* The sweeps take seconds under AddressSanitizer on a busy host. */
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_format_vs_gmtime);
	tcase_add_test(tc, test_three_forms);
	tcase_add_test(tc, test_postel);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_invalid);
	tcase_add_test(tc, test_clock_helpers);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(tim_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

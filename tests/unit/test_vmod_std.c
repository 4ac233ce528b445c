/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vmod_std.c -- unit tests of the std module (src/cache/vmod_std.c):
 * each conversion with good input, with bad input and a fallback (the
 * fallback), and with bad input and none (the method fails, no crash);
 * the string functions; the VCL 4.0 names; fileread's per-path cache.
 */

#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "cache/ws.h"
#include "vrt.h"

static struct ws ws[1];
static uint64_t space[8192 / 8];
static struct vrt_ctx ctx[1];

static void
setup(void)
{

	WS_Init(ws, "tst", space, sizeof space);
	memset(ctx, 0, sizeof ctx);
	ctx->magic = VRT_CTX_MAGIC;
	ctx->method = VCL_MET_RECV;
	ctx->ws = ws;
}

/* A one-string strands, as the compiler passes a plain string. */
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

#define NO	0, 0
#define YES(x)	1, x

START_TEST(test_case)
{
	static const char *p[3] = { "Mixed", NULL, "Case/ÄÖ" };
	struct strands st = { 3, p };

	ck_assert_str_eq(vmod_std_toupper(ctx, str1("www.Example.COM")),
	    "WWW.EXAMPLE.COM");
	ck_assert_str_eq(vmod_std_tolower(ctx, str1("www.Example.COM")),
	    "www.example.com");
	/* Several strings are concatenated; non-ASCII bytes unchanged. */
	ck_assert_str_eq(vmod_std_tolower(ctx, &st), "mixedcase/ÄÖ");
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_integer)
{

	ck_assert_int_eq(vmod_std_integer(ctx, YES("42"), NO, NO, NO, NO, NO,
	    NO), 42);
	ck_assert_int_eq(vmod_std_integer(ctx, YES("-7"), NO, NO, NO, NO, NO,
	    NO), -7);
	ck_assert_int_eq(vmod_std_integer(ctx, YES("4x"), YES(3), NO, NO, NO,
	    NO, NO), 3);
	ck_assert_int_eq(vmod_std_integer(ctx, YES(NULL), YES(5), NO, NO, NO,
	    NO, NO), 5);
	ck_assert_int_eq(vmod_std_integer(ctx, NO, NO, YES(1), NO, NO, NO,
	    NO), 1);
	ck_assert_int_eq(vmod_std_integer(ctx, NO, NO, NO, YES(1024), NO, NO,
	    NO), 1024);
	ck_assert_int_eq(vmod_std_integer(ctx, NO, NO, NO, NO, NO, YES(2.0),
	    NO), 2);
	ck_assert_int_eq(vmod_std_integer(ctx, NO, NO, NO, NO, NO, NO,
	    YES(10.0)), 10);
	ck_assert(!ctx->failed);
	/* Bad input and no fallback: the method fails, nothing worse. */
	(void)vmod_std_integer(ctx, YES("nope"), NO, NO, NO, NO, NO, NO);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_integer_none)
{

	/* No argument at all is a VCL bug, reported, not a crash. */
	(void)vmod_std_integer(ctx, NO, NO, NO, NO, NO, NO, NO);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_real)
{

	ck_assert_double_eq(vmod_std_real(ctx, YES("1.5"), NO, NO, NO, NO,
	    NO, NO), 1.5);
	ck_assert_double_eq(vmod_std_real(ctx, YES("x"), YES(0.25), NO, NO,
	    NO, NO, NO), 0.25);
	ck_assert_double_eq(vmod_std_real(ctx, NO, NO, YES(3), NO, NO, NO,
	    NO), 3.0);
	ck_assert_double_eq(vmod_std_real(ctx, NO, NO, NO, YES(1), NO, NO,
	    NO), 1.0);
	ck_assert(!ctx->failed);
	(void)vmod_std_real(ctx, YES("x"), NO, NO, NO, NO, NO, NO);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_duration)
{

	ck_assert_double_eq(vmod_std_duration(ctx, YES("10s"), NO, NO, NO),
	    10.0);
	ck_assert_double_eq(vmod_std_duration(ctx, YES("1.5m"), NO, NO, NO),
	    90.0);
	ck_assert_double_eq(vmod_std_duration(ctx, YES("2h"), NO, NO, NO),
	    7200.0);
	ck_assert_double_eq(vmod_std_duration(ctx, YES("1d"), NO, NO, NO),
	    86400.0);
	ck_assert_double_eq(vmod_std_duration(ctx, YES("1w"), NO, NO, NO),
	    604800.0);
	ck_assert_double_eq_tol(vmod_std_duration(ctx, YES("100ms"), NO, NO,
	    NO), 0.1, 1e-9);
	ck_assert_double_eq(vmod_std_duration(ctx, YES("soon"), YES(5.0), NO,
	    NO), 5.0);
	ck_assert_double_eq(vmod_std_duration(ctx, NO, NO, YES(1.5), NO),
	    1.5);
	ck_assert_double_eq(vmod_std_duration(ctx, NO, NO, NO, YES(3)), 3.0);
	ck_assert(!ctx->failed);
	(void)vmod_std_duration(ctx, YES("soon"), NO, NO, NO);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_bytes)
{

	ck_assert_int_eq(vmod_std_bytes(ctx, YES("512B"), NO, NO, NO), 512);
	ck_assert_int_eq(vmod_std_bytes(ctx, YES("10KB"), NO, NO, NO),
	    10240);
	ck_assert_int_eq(vmod_std_bytes(ctx, YES("1MB"), NO, NO, NO),
	    1048576);
	ck_assert_int_eq(vmod_std_bytes(ctx, YES("lots"), YES(7), NO, NO), 7);
	ck_assert_int_eq(vmod_std_bytes(ctx, NO, NO, NO, YES(5)), 5);
	ck_assert(!ctx->failed);
	(void)vmod_std_bytes(ctx, YES("lots"), NO, NO, NO);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_ip)
{
	VCL_IP ip, fb;

	ip = vmod_std_ip(ctx, "192.0.2.1", NO, 1, NO);
	ck_assert_ptr_nonnull(ip);
	ck_assert_str_eq(VRT_IP_string(ctx, ip), "192.0.2.1");
	ck_assert_int_eq(vmod_std_port(ctx, ip), 80);
	ip = vmod_std_ip(ctx, "2001:db8::1", NO, 1, YES("8080"));
	ck_assert_ptr_nonnull(ip);
	ck_assert_str_eq(VRT_IP_string(ctx, ip), "2001:db8::1");
	ck_assert_int_eq(vmod_std_port(ctx, ip), 8080);
	fb = ip;
	ck_assert_ptr_eq(vmod_std_ip(ctx, "not an ip", YES(fb), 0, NO), fb);
	/* resolve = false: names are not looked up. */
	ck_assert_ptr_eq(vmod_std_ip(ctx, "localhost", YES(fb), 0, NO), fb);
	ip = vmod_std_ip(ctx, "localhost", YES(fb), 1, NO);
	ck_assert_ptr_ne(ip, fb);
	ck_assert(!ctx->failed);
	(void)vmod_std_ip(ctx, "not an ip", NO, 0, NO);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_time)
{

	ck_assert_double_eq(vmod_std_time(ctx,
	    YES("Thu, 01 Jan 1970 00:00:10 GMT"), NO, NO, NO), 10.0);
	ck_assert_double_eq(vmod_std_time(ctx, YES("2001-09-09T01:46:40"),
	    NO, NO, NO), 1e9);
	ck_assert_double_eq(vmod_std_time(ctx, YES("yesterday"), YES(42.0),
	    NO, NO), 42.0);
	ck_assert_double_eq(vmod_std_time(ctx, NO, NO, YES(5.5), NO), 5.5);
	ck_assert_double_eq(vmod_std_time(ctx, NO, NO, NO, YES(7)), 7.0);
	ck_assert(!ctx->failed);
	(void)vmod_std_time(ctx, YES("yesterday"), NO, NO, NO);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_old_names)
{

	ck_assert_double_eq(vmod_std_real2time(ctx, 1.5, 0), 1.5);
	ck_assert_double_eq(vmod_std_real2time(ctx, NAN, 3.0), 3.0);
	ck_assert_int_eq(vmod_std_time2integer(ctx, 10.7, 0), 10);
	ck_assert_int_eq(vmod_std_time2integer(ctx, INFINITY, -1), -1);
	ck_assert_double_eq(vmod_std_time2real(ctx, 10.5, 0), 10.5);
	ck_assert_double_eq(vmod_std_time2real(ctx, NAN, 2.0), 2.0);
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_random)
{
	double r;
	int i;

	for (i = 0; i < 1000; i++) {
		r = vmod_std_random(ctx, 2.0, 3.0);
		ck_assert(r >= 2.0 && r <= 3.0);
	}
}
END_TEST

START_TEST(test_strings)
{

	ck_assert_str_eq(vmod_std_strstr(ctx, "abcdef", "cd"), "cdef");
	ck_assert_ptr_null(vmod_std_strstr(ctx, "abcdef", "x"));
	ck_assert_ptr_null(vmod_std_strstr(ctx, NULL, "x"));
	ck_assert_str_eq(vmod_std_querysort(ctx, "/a?c=3&a=1&b=2"),
	    "/a?a=1&b=2&c=3");
	ck_assert_str_eq(vmod_std_querysort(ctx, "/a?b=2&&a=1"),
	    "/a?a=1&b=2");
	ck_assert_str_eq(vmod_std_querysort(ctx, "/no/query"), "/no/query");
	/* A prefix sorts first: "a" before "ab". */
	ck_assert_str_eq(vmod_std_querysort(ctx, "/?ab=1&a=2"),
	    "/?a=2&ab=1");
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_ban)
{

	/* A bad expression adds nothing (the list is e2e's: test_ban). */
	ck_assert_str_eq(vmod_std_ban_error(ctx), "");
	ck_assert(!vmod_std_ban(ctx, "req.colour == red"));
	ck_assert_ptr_nonnull(strstr(vmod_std_ban_error(ctx),
	    "req.colour"));
	ck_assert(!vmod_std_ban(ctx, "req.url ~ ("));
	ck_assert_str_ne(vmod_std_ban_error(ctx), "");
	ck_assert(!vmod_std_ban(ctx, NULL));
}
END_TEST

START_TEST(test_fileread)
{
	char path[] = "/tmp/test_vmod_std.XXXXXX";
	FILE *f;
	int fd;

	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs("first\n", f);
	fclose(f);
	ck_assert_str_eq(vmod_std_fileread(ctx, path), "first\n");
	/* Read once: a change to the file is not seen. */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("second\n", f);
	fclose(f);
	ck_assert_str_eq(vmod_std_fileread(ctx, path), "first\n");
	(void)unlink(path);
	ck_assert(!ctx->failed);
	(void)vmod_std_fileread(ctx, "/nonexistent/file");
	ck_assert(ctx->failed);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vmod_std");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_case);
	tcase_add_test(tc, test_integer);
	tcase_add_test(tc, test_integer_none);
	tcase_add_test(tc, test_real);
	tcase_add_test(tc, test_duration);
	tcase_add_test(tc, test_bytes);
	tcase_add_test(tc, test_ip);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_old_names);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_ban);
	tcase_add_test(tc, test_fileread);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}

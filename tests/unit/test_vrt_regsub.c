/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vrt_regsub.c -- unit tests of VCL's regular expressions
 * (src/cache/vrt_re.c): matching, regsub() and regsuball() with
 * captures, empty matches, and a workspace too small for the result.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/ws.h"
#include "vrt.h"

static struct ws ws[1];
static uint64_t space[4096 / 8];
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

static VCL_REGEX
re(const char *pattern)
{
	VCL_REGEX r;

	ck_assert_int_eq(VRT_re_init(ctx, &r, pattern, 0, "test:1:1"), 0);
	ck_assert_ptr_nonnull(r);
	return (r);
}

static const char *
sub(int all, const char *subject, const char *pattern, const char *with)
{
	VCL_REGEX r = re(pattern);
	const char *s;

	s = VRT_regsub(ctx, all, subject, r, with);
	VRT_re_fini(&r);
	ck_assert_ptr_null(r);
	return (s);
}

START_TEST(test_match)
{
	VCL_REGEX r = re("^/images/.*\\.(png|jpg)$");

	ck_assert(VRT_re_match(ctx, "/images/a.png", r));
	ck_assert(!VRT_re_match(ctx, "/images/a.gif", r));
	/* An unset subject matches as "". */
	ck_assert(!VRT_re_match(ctx, NULL, r));
	VRT_re_fini(&r);
	r = re("^$");
	ck_assert(VRT_re_match(ctx, NULL, r));
	VRT_re_fini(&r);
	/* Case-insensitive by (?i), as in VCL. */
	r = re("(?i)^www\\.");
	ck_assert(VRT_re_match(ctx, "WWW.example.com", r));
	VRT_re_fini(&r);
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_bad_pattern)
{
	VCL_REGEX r = (VCL_REGEX)1;

	ck_assert_int_ne(VRT_re_init(ctx, &r, "(unclosed", 0, "f.vcl:3:9"), 0);
	ck_assert_ptr_null(r);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_regsub_captures)
{

	ck_assert_str_eq(sub(0, "www.example.com", "^www\\.(.*)$", "\\1"),
	    "example.com");
	ck_assert_str_eq(sub(0, "a=1&b=2", "(\\w)=(\\d)", "\\2=\\1"),
	    "1=a&b=2");
	ck_assert_str_eq(sub(1, "a=1&b=2", "(\\w)=(\\d)", "\\2=\\1"),
	    "1=a&2=b");
	/* \0 is the whole match; an unset group is "". */
	ck_assert_str_eq(sub(0, "abc", "b(x)?", "[\\0\\1]"), "a[b]c");
	/* A group past \9 or past the pattern's groups is "". */
	ck_assert_str_eq(sub(0, "abc", "b", "<\\5>"), "a<>c");
	/*
	 * As Varnish: a backslash before anything but a digit stands for
	 * what follows (\\ is one backslash), and one at the end is itself.
	 */
	ck_assert_str_eq(sub(0, "abc", "b", "\\n"), "anc");
	ck_assert_str_eq(sub(0, "abc", "b", "\\&\\\\"), "a&\\c");
	ck_assert_str_eq(sub(0, "abc", "b", "x\\"), "ax\\c");
	ck_assert_str_eq(sub(0, "_barf_", "(b)(a)(r)(f)", "\\4\\\\\\3\\2p"),
	    "_f\\rap_");
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_regsub_nomatch)
{
	const char *subject = "unchanged";

	/* No match: the subject itself, nothing copied. */
	ck_assert_ptr_eq(sub(0, subject, "x", "y"), subject);
	ck_assert_ptr_eq(sub(1, subject, "x", "y"), subject);
	ck_assert_str_eq(sub(0, NULL, "^$", "empty"), "empty");
}
END_TEST

START_TEST(test_regsuball_empty)
{

	/* Like Perl's s///g: empty matches advance one character. */
	ck_assert_str_eq(sub(1, "abc", "x*", "-"), "-a-b-c-");
	ck_assert_str_eq(sub(1, "aab", "a*", "-"), "--b-");
	ck_assert_str_eq(sub(0, "abc", "x*", "-"), "-abc");
	ck_assert_str_eq(sub(1, "", "x*", "-"), "-");
	ck_assert_str_eq(sub(1, "a,b,,c", ",", ";"), "a;b;;c");
	/* Cookie stripping, as the examples do it. */
	ck_assert_str_eq(sub(1, "a=1; __utma=2; b=3",
	    "(^|;\\s*)(__utm[a-z]+)=[^;]*", ""), "a=1; b=3");
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_regsub_overflow)
{
	static uint64_t small[64 / 8];
	const char *s;

	WS_Init(ws, "tst", small, sizeof small);
	s = sub(1, "aaaaaaaaaaaaaaaaaaaa", "a", "bbbb");
	ck_assert_ptr_null(s);
	ck_assert(ctx->failed);
	/* A VCL failure (503), not a marked workspace (a bare 500). */
	ck_assert(!WS_Overflowed(ws));
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vrt_re");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_match);
	tcase_add_test(tc, test_bad_pattern);
	tcase_add_test(tc, test_regsub_captures);
	tcase_add_test(tc, test_regsub_nomatch);
	tcase_add_test(tc, test_regsuball_empty);
	tcase_add_test(tc, test_regsub_overflow);
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

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vrt_conv.c -- unit tests of the conversions compiled VCL calls
 * (src/cache/vrt_conv.c, vrt_var.c): each type to STRING as Varnish
 * prints it, VRT_strcmp with unset strings, strands, BLOBs; and the
 * accessors refusing, without crashing, a method they do not belong to.
 */

#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/vrt_priv.h"
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
	ctx->now = 1e9;
}

START_TEST(test_numbers)
{

	ck_assert_str_eq(VRT_INT_string(ctx, -42), "-42");
	ck_assert_str_eq(VRT_REAL_string(ctx, 1.5), "1.500");
	ck_assert_str_eq(VRT_REAL_string(ctx, -0.0004), "-0.000");
	ck_assert_str_eq(VRT_DURATION_string(ctx, 120), "120.000");
	ck_assert_str_eq(VRT_BYTES_string(ctx, 10240), "10240");
	ck_assert_str_eq(VRT_BOOL_string(1), "true");
	ck_assert_str_eq(VRT_BOOL_string(0), "false");
	ck_assert_ptr_null(VRT_BACKEND_string(NULL));
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_time)
{

	/* An HTTP date, as Varnish prints a TIME. */
	ck_assert_str_eq(VRT_TIME_string(ctx, 1e9),
	    "Sun, 09 Sep 2001 01:46:40 GMT");
	ck_assert_str_eq(VRT_TIME_string(ctx, 0),
	    "Thu, 01 Jan 1970 00:00:00 GMT");
}
END_TEST

START_TEST(test_ip)
{
	struct vrt_ip ip;

	memset(&ip, 0, sizeof ip);
	ip.magic = VRT_IP_MAGIC;
	ip.family = AF_INET;
	ck_assert_int_eq(inet_pton(AF_INET, "192.0.2.7", ip.addr), 1);
	ck_assert_str_eq(VRT_IP_string(ctx, &ip), "192.0.2.7");
	ip.family = AF_INET6;
	ck_assert_int_eq(inet_pton(AF_INET6, "2001:db8::7", ip.addr), 1);
	ck_assert_str_eq(VRT_IP_string(ctx, &ip), "2001:db8::7");
	ck_assert_ptr_null(VRT_IP_string(ctx, NULL));
}
END_TEST

START_TEST(test_strcmp)
{

	ck_assert_int_eq(VRT_strcmp("a", "a"), 0);
	ck_assert_int_lt(VRT_strcmp("a", "b"), 0);
	/* The unset string equals no string, not even "". */
	ck_assert_int_ne(VRT_strcmp(NULL, ""), 0);
	ck_assert_int_ne(VRT_strcmp("", NULL), 0);
}
END_TEST

START_TEST(test_strands)
{
	static const char *p[4] = { "a", NULL, "bc", "" };
	struct strands s = { 4, p }, one = { 1, p }, none = { 0, p };

	/* An unset part is skipped. */
	ck_assert_str_eq(VRT_STRANDS_string(ctx, &s), "abc");
	ck_assert_str_eq(VRT_STRANDS_string(ctx, &one), "a");
	ck_assert_str_eq(VRT_STRANDS_string(ctx, &none), "");
	ck_assert_ptr_null(VRT_STRANDS_string(ctx, NULL));
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_strands_overflow)
{
	static uint64_t small[32 / 8];
	static const char *p[2] = { "0123456789abcdef", "0123456789abcdef" };
	struct strands s = { 2, p };

	WS_Init(ws, "tst", small, sizeof small);
	ck_assert_ptr_null(VRT_STRANDS_string(ctx, &s));
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_blob)
{
	static const unsigned char bytes[] = { 0xfb, 0xff, 'a', 'b' };
	struct vrt_blob b = { VRT_BLOB_MAGIC, sizeof bytes, bytes };

	/* As a structured-field byte sequence: base64 between colons. */
	ck_assert_str_eq(VRT_BLOB_string(ctx, &b), ":+/9hYg==:");
	b.len = 0;
	ck_assert_str_eq(VRT_BLOB_string(ctx, &b), "::");
	ck_assert_ptr_null(VRT_BLOB_string(ctx, NULL));
}
END_TEST

START_TEST(test_wrong_method)
{

	/* beresp in vcl_recv: VCL_Error and a failed method, no crash. */
	(void)VRT_r_beresp_ttl(ctx);
	ck_assert(ctx->failed);
	ctx->failed = 0;
	VRT_l_beresp_status(ctx, 200);
	ck_assert(ctx->failed);
	ctx->failed = 0;
	(void)VRT_r_obj_hits(ctx);
	ck_assert(ctx->failed);
	ctx->failed = 0;
	(void)VRT_r_bereq_url(ctx);
	ck_assert(ctx->failed);
}
END_TEST

START_TEST(test_no_request)
{

	/* The right method without the objects behind it: neutral. */
	ck_assert_ptr_null(VRT_r_req_url(ctx));
	ck_assert_int_eq(VRT_r_req_restarts(ctx), 0);
	ck_assert_double_eq(VRT_r_now(ctx), 1e9);
	ck_assert_ptr_nonnull(VRT_r_server_hostname(ctx));
	ck_assert_ptr_nonnull(VRT_r_server_identity(ctx));
	/* Without a request, or VV_MISSING: neutral, and sets do nothing. */
	ck_assert_int_eq(VRT_r_req_esi_level(ctx), 0);
	ck_assert(!VRT_r_req_can_gzip(ctx));
	VRT_l_req_esi(ctx, 1);
	ck_assert(!VRT_r_req_esi(ctx));
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_housekeeping)
{

	/* now and server.* are readable everywhere, vcl_init included. */
	ctx->method = VCL_MET_INIT;
	ck_assert_double_eq(VRT_r_now(ctx), 1e9);
	ck_assert_ptr_nonnull(VRT_r_server_hostname(ctx));
	ck_assert(!ctx->failed);
	(void)VRT_r_req_url(ctx);
	ck_assert(ctx->failed);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vrt_conv");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_ip);
	tcase_add_test(tc, test_strcmp);
	tcase_add_test(tc, test_strands);
	tcase_add_test(tc, test_strands_overflow);
	tcase_add_test(tc, test_blob);
	tcase_add_test(tc, test_wrong_method);
	tcase_add_test(tc, test_no_request);
	tcase_add_test(tc, test_housekeeping);
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

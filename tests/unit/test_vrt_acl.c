/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vrt_acl.c -- unit tests of VCL's ACLs (src/cache/vrt_acl.c): the
 * most specific entry decides whatever the order, negation, IPv4 and
 * IPv6 with and without masks, names resolved at load, optional
 * entries skipped when they do not resolve, bad entries failing.
 */

#include "config.h"

#include <arpa/inet.h>
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

#define E(neg, addr, mask)	{ neg, 0, addr, mask, "t.vcl:1:1" }
#define OPT(addr)		{ 0, 1, addr, -1, "t.vcl:1:1" }

static VCL_ACL
acl(const char *name, const struct vrt_acl_entry *e, unsigned n)
{
	struct vrt_acl_spec spec = { name, n, e };
	VCL_ACL a = NULL;

	ck_assert_int_eq(VRT_acl_init(ctx, &a, &spec), 0);
	ck_assert_ptr_nonnull(a);
	ck_assert(!ctx->failed);
	return (a);
}

static int
match(VCL_ACL a, const char *addr)
{
	struct vrt_ip ip;

	memset(&ip, 0, sizeof ip);
	ip.magic = VRT_IP_MAGIC;
	ip.family = strchr(addr, ':') != NULL ? AF_INET6 : AF_INET;
	ck_assert_int_eq(inet_pton(ip.family, addr, ip.addr), 1);
	return (VRT_acl_match(ctx, a, &ip));
}

START_TEST(test_v4)
{
	static const struct vrt_acl_entry e[] = {
		E(0, "192.168.1.10", -1),
		E(0, "10.0.0.0", 8),
	};
	VCL_ACL a = acl("v4", e, 2);

	ck_assert(match(a, "192.168.1.10"));
	ck_assert(!match(a, "192.168.1.11"));
	ck_assert(match(a, "10.255.0.1"));
	ck_assert(!match(a, "11.0.0.1"));
	/* An IPv6 address never matches IPv4 entries. */
	ck_assert(!match(a, "::1"));
	VRT_acl_fini(&a);
	ck_assert_ptr_null(a);
	ck_assert(!ctx->failed);
}
END_TEST

START_TEST(test_specific_wins)
{
	/* The same entries in both orders: the /16 hole always wins. */
	static const struct vrt_acl_entry e1[] = {
		E(0, "10.0.0.0", 8),
		E(1, "10.1.0.0", 16),
		E(0, "10.1.2.3", -1),
	};
	static const struct vrt_acl_entry e2[] = {
		E(0, "10.1.2.3", -1),
		E(1, "10.1.0.0", 16),
		E(0, "10.0.0.0", 8),
	};
	VCL_ACL a1 = acl("a1", e1, 3), a2 = acl("a2", e2, 3);

	ck_assert(match(a1, "10.2.0.1"));
	ck_assert(match(a2, "10.2.0.1"));
	ck_assert(!match(a1, "10.1.9.9"));
	ck_assert(!match(a2, "10.1.9.9"));
	/* ... and the /32 inside the hole wins over the hole. */
	ck_assert(match(a1, "10.1.2.3"));
	ck_assert(match(a2, "10.1.2.3"));
	VRT_acl_fini(&a1);
	VRT_acl_fini(&a2);
}
END_TEST

START_TEST(test_negation_alone)
{
	static const struct vrt_acl_entry e[] = {
		E(1, "127.0.0.1", -1),
	};
	VCL_ACL a = acl("neg", e, 1);

	/* A negated match is false, and so is no match at all. */
	ck_assert(!match(a, "127.0.0.1"));
	ck_assert(!match(a, "127.0.0.2"));
	VRT_acl_fini(&a);
}
END_TEST

START_TEST(test_masks)
{
	static const struct vrt_acl_entry all[] = {
		E(0, "0.0.0.0", 0),
	};
	static const struct vrt_acl_entry odd[] = {
		E(0, "192.168.0.0", 23),
	};
	VCL_ACL a = acl("all", all, 1), b = acl("odd", odd, 1);

	ck_assert(match(a, "1.2.3.4"));
	ck_assert(match(a, "255.255.255.255"));
	ck_assert(match(b, "192.168.0.1"));
	ck_assert(match(b, "192.168.1.254"));
	ck_assert(!match(b, "192.168.2.1"));
	VRT_acl_fini(&a);
	VRT_acl_fini(&b);
}
END_TEST

START_TEST(test_v6)
{
	static const struct vrt_acl_entry e[] = {
		E(0, "2001:db8::", 32),
		E(1, "2001:db8:dead::", 48),
		E(0, "::1", -1),
	};
	VCL_ACL a = acl("v6", e, 3);

	ck_assert(match(a, "2001:db8::1"));
	ck_assert(match(a, "2001:db8:ffff::1"));
	ck_assert(!match(a, "2001:db8:dead::1"));
	ck_assert(!match(a, "2001:db9::1"));
	ck_assert(match(a, "::1"));
	ck_assert(!match(a, "::2"));
	ck_assert(!match(a, "127.0.0.1"));
	VRT_acl_fini(&a);
}
END_TEST

START_TEST(test_names)
{
	static const struct vrt_acl_entry e[] = {
		E(0, "localhost", -1),
		OPT("no-such-host.invalid"),
	};
	VCL_ACL a = acl("names", e, 2);

	/* localhost resolved at load; the optional entry was skipped. */
	ck_assert(match(a, "127.0.0.1"));
	ck_assert(!match(a, "127.0.0.2"));
	VRT_acl_fini(&a);
}
END_TEST

START_TEST(test_unresolvable_fails)
{
	static const struct vrt_acl_entry e[] = {
		E(0, "no-such-host.invalid", -1),
	};
	struct vrt_acl_spec spec = { "bad", 1, e };
	VCL_ACL a = NULL;

	ck_assert_int_ne(VRT_acl_init(ctx, &a, &spec), 0);
	ck_assert(ctx->failed);
	ck_assert_ptr_null(a);
}
END_TEST

START_TEST(test_bad_mask_fails)
{
	static const struct vrt_acl_entry e[] = {
		E(0, "10.0.0.0", 33),
	};
	struct vrt_acl_spec spec = { "bad", 1, e };
	VCL_ACL a = NULL;

	ck_assert_int_ne(VRT_acl_init(ctx, &a, &spec), 0);
	ck_assert(ctx->failed);
	ck_assert_ptr_null(a);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vrt_acl");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_v4);
	tcase_add_test(tc, test_specific_wins);
	tcase_add_test(tc, test_negation_alone);
	tcase_add_test(tc, test_masks);
	tcase_add_test(tc, test_v6);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_unresolvable_fails);
	tcase_add_test(tc, test_bad_mask_fails);
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

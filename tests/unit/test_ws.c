/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_ws.c -- unit tests of workspaces: allocation and alignment, the
 * sticky overflow flag, snapshots, reservations, and the canary.
 */

#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/ws.h"

#define SPACE		1024

static struct ws ws[1];
static uint64_t space[SPACE / 8 + 1];	/* aligned; +1 for skew tests */

static void
ws_setup(void)
{

	memset(space, 0xa5, sizeof space);
	WS_Init(ws, "tst", space, SPACE);
}

START_TEST(test_init)
{

	WS_Assert(ws);
	ck_assert_str_eq(ws->id, "tst");
	ck_assert_ptr_eq(ws->s, (char *)space);
	/* The canary takes the last 8 bytes. */
	ck_assert_uint_eq(WS_Free(ws), SPACE - 8);
	ck_assert(!WS_Overflowed(ws));
	ck_assert_ptr_null(ws->r);
}
END_TEST

START_TEST(test_init_skewed)
{
	struct ws w2[1];
	char *p = (char *)space + 3;

	WS_Init(w2, "long id", p, 100);
	ck_assert_str_eq(w2->id, "lon");
	ck_assert_uint_eq((uintptr_t)w2->s % WS_ALIGN, 0);
	ck_assert(w2->s >= p);
	/* Aligned and rounded down, canary inside the 100 bytes. */
	ck_assert(w2->e + 8 <= p + 100);
	ck_assert_uint_eq(WS_Free(w2), 80);
	WS_Assert(w2);
}
END_TEST

START_TEST(test_alloc_align)
{
	static const size_t sizes[] = { 1, 3, 8, 9, 15, 16, 17, 100, 7 };
	char *p, *prev = NULL;
	size_t u, used = 0;

	for (u = 0; u < ARRAY_SIZE(sizes); u++) {
		p = WS_Alloc(ws, sizes[u]);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq((uintptr_t)p % WS_ALIGN, 0);
		ck_assert(WS_Inside(ws, p, p + sizes[u]));
		if (prev != NULL)
			ck_assert(p >= prev + sizes[u - 1]);
		memset(p, 'x', sizes[u]);
		used += (sizes[u] + 7) & ~(size_t)7;
		prev = p;
	}
	ck_assert_uint_eq(WS_Free(ws), SPACE - 8 - used);
	ck_assert(!WS_Overflowed(ws));
	WS_Assert(ws);
}
END_TEST

START_TEST(test_alloc_zero)
{
	char *p, *q;

	p = WS_Alloc(ws, 0);
	q = WS_Alloc(ws, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_eq(p, q);
	ck_assert_uint_eq(WS_Free(ws), SPACE - 8);
}
END_TEST

START_TEST(test_overflow_sticky)
{
	uintptr_t snap;
	char *p;

	snap = WS_Snapshot(ws);
	ck_assert_ptr_nonnull(WS_Alloc(ws, 512));
	ck_assert_ptr_null(WS_Alloc(ws, 1024));
	ck_assert(WS_Overflowed(ws));
	/* Sticky: even what would fit now fails. */
	ck_assert_ptr_null(WS_Alloc(ws, 8));
	ck_assert_ptr_null(WS_Copy(ws, "x", 1));
	ck_assert_ptr_null(WS_Printf(ws, "%d", 1));
	ck_assert_uint_eq(WS_ReserveAll(ws), 0);
	WS_Release(ws, 0);
	ck_assert_uint_eq(WS_ReserveSize(ws, 8), 0);
	ck_assert(WS_Overflowed(ws));
	/* Reset clears it and frees everything after the snapshot. */
	WS_Reset(ws, snap);
	ck_assert(!WS_Overflowed(ws));
	ck_assert_uint_eq(WS_Free(ws), SPACE - 8);
	p = WS_Alloc(ws, SPACE - 8);
	ck_assert_ptr_nonnull(p);
	memset(p, 'y', SPACE - 8);
	ck_assert_uint_eq(WS_Free(ws), 0);
	ck_assert_ptr_null(WS_Alloc(ws, 1));
	ck_assert(WS_Overflowed(ws));
	WS_Assert(ws);
}
END_TEST

START_TEST(test_overflow_exact)
{

	/* Exactly the free space fits; one byte more does not. */
	ck_assert_ptr_null(WS_Alloc(ws, SPACE - 8 + 1));
	ck_assert(WS_Overflowed(ws));
	WS_Reset(ws, (uintptr_t)ws->s);
	ck_assert_ptr_nonnull(WS_Alloc(ws, SPACE - 8));
	ck_assert(!WS_Overflowed(ws));
}
END_TEST

START_TEST(test_mark_overflow)
{

	WS_MarkOverflow(ws);
	ck_assert(WS_Overflowed(ws));
	ck_assert_ptr_null(WS_Alloc(ws, 1));
	WS_Reset(ws, WS_Snapshot(ws));
	ck_assert(!WS_Overflowed(ws));
}
END_TEST

START_TEST(test_snapshot)
{
	uintptr_t s1, s2;
	char *a, *b, *c;

	a = WS_Alloc(ws, 16);
	s1 = WS_Snapshot(ws);
	b = WS_Alloc(ws, 16);
	s2 = WS_Snapshot(ws);
	c = WS_Alloc(ws, 16);
	ck_assert(a != NULL && b != NULL && c != NULL);
	WS_Reset(ws, s2);
	ck_assert_ptr_eq(WS_Alloc(ws, 8), c);
	WS_Reset(ws, s1);
	ck_assert_ptr_eq(WS_Alloc(ws, 8), b);
	ck_assert_uint_eq(WS_Free(ws), SPACE - 8 - 24);
}
END_TEST

START_TEST(test_copy)
{
	static char src[SPACE];
	char *p;

	p = WS_Copy(ws, "hello world", 5);
	ck_assert_str_eq(p, "hello");
	ck_assert_uint_eq((uintptr_t)p % WS_ALIGN, 0);
	p = WS_Copy(ws, "", 0);
	ck_assert_str_eq(p, "");
	/* len + 1 must fit: free - 1 bytes of data is the most. */
	WS_Reset(ws, (uintptr_t)ws->s);
	ck_assert_ptr_null(WS_Copy(ws, src, SPACE - 8));
	ck_assert(WS_Overflowed(ws));
	WS_Reset(ws, (uintptr_t)ws->s);
	ck_assert_ptr_nonnull(WS_Copy(ws, src, SPACE - 9));
}
END_TEST

START_TEST(test_printf)
{
	char big[SPACE * 2];
	char *p, *q;

	p = WS_Printf(ws, "%s-%d-%x", "a", 42, 255);
	ck_assert_str_eq(p, "a-42-ff");
	ck_assert_ptr_null(ws->r);
	q = WS_Alloc(ws, 8);
	ck_assert(q >= p + 8);
	/* Too long: NULL, overflow set, no reservation left behind. */
	memset(big, 'z', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ck_assert_ptr_null(WS_Printf(ws, "%s", big));
	ck_assert(WS_Overflowed(ws));
	ck_assert_ptr_null(ws->r);
	WS_Assert(ws);
	/* Exactly the free space minus the NUL fits. */
	WS_Reset(ws, (uintptr_t)ws->s);
	big[SPACE - 9] = '\0';
	p = WS_Printf(ws, "%s", big);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(strlen(p), SPACE - 9);
	WS_Assert(ws);
	WS_Reset(ws, (uintptr_t)ws->s);
	big[SPACE - 9] = 'z';
	big[SPACE - 8] = '\0';
	ck_assert_ptr_null(WS_Printf(ws, "%s", big));
	ck_assert(WS_Overflowed(ws));
	WS_Assert(ws);
}
END_TEST

START_TEST(test_reserve_all)
{
	size_t n;
	char *p, *q;

	ck_assert_ptr_nonnull(WS_Alloc(ws, 24));
	n = WS_ReserveAll(ws);
	ck_assert_uint_eq(n, SPACE - 8 - 24);
	p = WS_Reservation(ws);
	ck_assert_ptr_eq(p, ws->f);
	/* All of it may be written without hurting the canary. */
	memset(p, 'r', n);
	WS_Release(ws, 5);
	ck_assert_ptr_null(ws->r);
	/* Release rounds up to the alignment. */
	ck_assert_uint_eq(WS_Free(ws), n - 8);
	q = WS_Alloc(ws, 1);
	ck_assert_ptr_eq(q, p + 8);
	WS_Assert(ws);
}
END_TEST

START_TEST(test_reserve_release_all)
{
	size_t n;

	n = WS_ReserveAll(ws);
	memset(WS_Reservation(ws), 'r', n);
	WS_Release(ws, n);
	ck_assert_uint_eq(WS_Free(ws), 0);
	ck_assert(!WS_Overflowed(ws));
	WS_Assert(ws);
	/* Releasing nothing gives everything back. */
	WS_Reset(ws, (uintptr_t)ws->s);
	n = WS_ReserveAll(ws);
	WS_Release(ws, 0);
	ck_assert_uint_eq(WS_Free(ws), n);
}
END_TEST

START_TEST(test_reserve_size)
{

	ck_assert_uint_eq(WS_ReserveSize(ws, 100), 100);
	ck_assert_ptr_eq(ws->r, ws->f + 100);
	memset(WS_Reservation(ws), 's', 100);
	WS_Release(ws, 100);
	ck_assert_uint_eq(WS_Free(ws), SPACE - 8 - 104);
	/* More than is free: 0, overflow set, nothing reserved. */
	ck_assert_uint_eq(WS_ReserveSize(ws, SPACE), 0);
	ck_assert(WS_Overflowed(ws));
	ck_assert_ptr_null(ws->r);
	WS_Assert(ws);
}
END_TEST

START_TEST(test_inside)
{
	char other[16];
	char *p;

	p = WS_Alloc(ws, 32);
	ck_assert(WS_Inside(ws, p, p + 32));
	ck_assert(WS_Inside(ws, p, NULL));
	ck_assert(WS_Inside(ws, p + 10, p + 20));
	/* Beyond what is allocated, before the start, reversed. */
	ck_assert(!WS_Inside(ws, p, p + 33));
	ck_assert(!WS_Inside(ws, other, p));
	ck_assert(!WS_Inside(ws, p + 20, p + 10));
	ck_assert(!WS_Inside(ws, "static", NULL));
}
END_TEST

/* Legal use up to the last byte leaves the canary alone... */
START_TEST(test_canary_legal)
{
	char *p;
	unsigned u;

	for (u = 0; u < 10; u++) {
		WS_Reset(ws, (uintptr_t)ws->s);
		while ((p = WS_Alloc(ws, 8 * (u + 1))) != NULL)
			memset(p, 0xff, 8 * (u + 1));
		WS_Assert(ws);
		WS_Reset(ws, (uintptr_t)ws->s);
		p = WS_Printf(ws, "%*s", (int)(SPACE - 9), "");
		ck_assert_ptr_nonnull(p);
		WS_Assert(ws);
	}
}
END_TEST

/* ...and one byte written past the end is caught. */
START_TEST(test_canary_trips)
{
	char *p;

	p = WS_Alloc(ws, SPACE - 8);
	ck_assert_ptr_nonnull(p);
	p[SPACE - 8] = 0;
	WS_Assert(ws);
}
END_TEST

static Suite *
ws_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("ws");
	tc = tcase_create("ws");
	tcase_add_checked_fixture(tc, ws_setup, NULL);
	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_init_skewed);
	tcase_add_test(tc, test_alloc_align);
	tcase_add_test(tc, test_alloc_zero);
	tcase_add_test(tc, test_overflow_sticky);
	tcase_add_test(tc, test_overflow_exact);
	tcase_add_test(tc, test_mark_overflow);
	tcase_add_test(tc, test_snapshot);
	tcase_add_test(tc, test_copy);
	tcase_add_test(tc, test_printf);
	tcase_add_test(tc, test_reserve_all);
	tcase_add_test(tc, test_reserve_release_all);
	tcase_add_test(tc, test_reserve_size);
	tcase_add_test(tc, test_inside);
	tcase_add_test(tc, test_canary_legal);
	tcase_add_test_raise_signal(tc, test_canary_trips, SIGABRT);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(ws_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

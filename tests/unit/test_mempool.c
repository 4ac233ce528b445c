/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_mempool.c -- unit tests of the block free lists: reuse of a freed
 * block, no reuse across sizes, the max_free cap, sizes at the edges,
 * and four threads getting and freeing at once.  A reused block keeps
 * the bytes written before MPL_Free (blocks are not zeroed) while a new
 * one comes zeroed from calloc, which tells the two apart even when
 * malloc hands back the same address.
 */

#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/mempool.h"

/*
 * Pools are never freed (there is no MPL_Destroy): keep every one made
 * reachable so LeakSanitizer does not count them or their free lists.
 */
static struct mempool *pools[8];
static unsigned npool;
static struct mempool *mpl;		/* the newest */

static void
pool_new(unsigned max_free)
{

	ck_assert_uint_lt(npool, ARRAY_SIZE(pools));
	mpl = MPL_New("test", max_free);
	ck_assert_ptr_nonnull(mpl);
	pools[npool++] = mpl;
}

static void
fill(void *p, size_t size, unsigned char c)
{

	memset(p, c, size);
}

/* Every byte of p is c. */
static int
filled(const void *p, size_t size, unsigned char c)
{
	const unsigned char *q = p;
	size_t u;

	for (u = 0; u < size; u++)
		if (q[u] != c)
			return (0);
	return (1);
}

START_TEST(test_reuse)
{
	void *p, *q;

	pool_new(10);
	p = MPL_Get(mpl, 100);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq((uintptr_t)p % 16, 0);
	fill(p, 100, 0xa5);
	MPL_Free(mpl, p);
	q = MPL_Get(mpl, 100);
	ck_assert_ptr_eq(q, p);
	/* Not zeroed: what was written is still there. */
	ck_assert(filled(q, 100, 0xa5));
	MPL_Free(mpl, q);
}
END_TEST

START_TEST(test_new_zeroed)
{
	void *p;

	pool_new(10);
	p = MPL_Get(mpl, 4096);
	ck_assert_ptr_nonnull(p);
	ck_assert(filled(p, 4096, 0));
	MPL_Free(mpl, p);
}
END_TEST

/* Freed last, got first; every kept block comes back once. */
START_TEST(test_reuse_many)
{
	void *p[5], *q[5];
	unsigned u, v, found;

	pool_new(10);
	for (u = 0; u < 5; u++) {
		p[u] = MPL_Get(mpl, 64);
		ck_assert_ptr_nonnull(p[u]);
		for (v = 0; v < u; v++)
			ck_assert_ptr_ne(p[u], p[v]);
		fill(p[u], 64, (unsigned char)(0x10 + u));
	}
	for (u = 0; u < 5; u++)
		MPL_Free(mpl, p[u]);
	for (u = 0; u < 5; u++)
		q[u] = MPL_Get(mpl, 64);
	for (u = 0; u < 5; u++) {
		found = 0;
		for (v = 0; v < 5; v++)
			if (q[v] == p[u]) {
				ck_assert(filled(q[v], 64,
				    (unsigned char)(0x10 + u)));
				found++;
			}
		ck_assert_uint_eq(found, 1);
	}
	for (u = 0; u < 5; u++)
		MPL_Free(mpl, q[u]);
}
END_TEST

/* After a workspace parameter changes, old blocks are not handed out. */
START_TEST(test_other_size)
{
	void *p, *q, *r;

	pool_new(10);
	p = MPL_Get(mpl, 100);
	ck_assert_ptr_nonnull(p);
	fill(p, 100, 0xa5);
	MPL_Free(mpl, p);
	/* Bigger: a fresh, zeroed block, all of it writable (ASan). */
	q = MPL_Get(mpl, 200);
	ck_assert_ptr_nonnull(q);
	ck_assert(filled(q, 200, 0));
	fill(q, 200, 0x3c);
	MPL_Free(mpl, q);
	/* Smaller is not the same size either. */
	r = MPL_Get(mpl, 150);
	ck_assert_ptr_nonnull(r);
	ck_assert(filled(r, 150, 0));
	fill(r, 150, 0x77);
	MPL_Free(mpl, r);
	/* The new size is reused as usual. */
	q = MPL_Get(mpl, 150);
	ck_assert_ptr_eq(q, r);
	ck_assert(filled(q, 150, 0x77));
	MPL_Free(mpl, q);
}
END_TEST

/* Stale blocks deep in the list are dropped too, then fresh ones made. */
START_TEST(test_other_size_many)
{
	void *p[8];
	unsigned u;

	pool_new(10);
	for (u = 0; u < 8; u++) {
		p[u] = MPL_Get(mpl, 32);
		ck_assert_ptr_nonnull(p[u]);
		fill(p[u], 32, 0xee);
	}
	for (u = 0; u < 8; u++)
		MPL_Free(mpl, p[u]);
	for (u = 0; u < 8; u++) {
		p[u] = MPL_Get(mpl, 48);
		ck_assert_ptr_nonnull(p[u]);
		ck_assert(filled(p[u], 48, 0));
	}
	for (u = 0; u < 8; u++)
		MPL_Free(mpl, p[u]);
}
END_TEST

/* Blocks kept on the free list after freeing n at once. */
static unsigned
kept_after(unsigned max_free, unsigned n)
{
	void *p[32];
	unsigned u, kept = 0;

	ck_assert_uint_le(n, ARRAY_SIZE(p));
	pool_new(max_free);
	for (u = 0; u < n; u++) {
		p[u] = MPL_Get(mpl, 40);
		ck_assert_ptr_nonnull(p[u]);
		fill(p[u], 40, 0xc3);
	}
	for (u = 0; u < n; u++)
		MPL_Free(mpl, p[u]);
	for (u = 0; u < n; u++) {
		p[u] = MPL_Get(mpl, 40);
		ck_assert_ptr_nonnull(p[u]);
		if (filled(p[u], 40, 0xc3))
			kept++;
		else
			ck_assert(filled(p[u], 40, 0));
		/* Mark it so a block got twice would show. */
		fill(p[u], 40, (unsigned char)u);
	}
	for (u = 0; u < n; u++)
		ck_assert(filled(p[u], 40, (unsigned char)u));
	for (u = 0; u < n; u++)
		MPL_Free(mpl, p[u]);
	return (kept);
}

START_TEST(test_max_free)
{

	ck_assert_uint_eq(kept_after(3, 5), 3);
	ck_assert_uint_eq(kept_after(3, 3), 3);
	ck_assert_uint_eq(kept_after(3, 2), 2);
	ck_assert_uint_eq(kept_after(1, 10), 1);
	ck_assert_uint_eq(kept_after(20, 32), 20);
}
END_TEST

START_TEST(test_max_free_zero)
{

	ck_assert_uint_eq(kept_after(0, 1), 0);
	ck_assert_uint_eq(kept_after(0, 10), 0);
}
END_TEST

START_TEST(test_size_zero)
{
	void *p, *q;

	pool_new(10);
	p = MPL_Get(mpl, 0);
	ck_assert_ptr_nonnull(p);
	MPL_Free(mpl, p);
	q = MPL_Get(mpl, 0);
	ck_assert_ptr_eq(q, p);
	MPL_Free(mpl, q);
}
END_TEST

START_TEST(test_size_large)
{
	const size_t sz = 8 * 1024 * 1024;
	void *p;

	pool_new(10);
	p = MPL_Get(mpl, sz);
	ck_assert_ptr_nonnull(p);
	ck_assert(filled(p, sz, 0));
	fill(p, sz, 0x11);
	MPL_Free(mpl, p);
	p = MPL_Get(mpl, sz);
	ck_assert(filled(p, sz, 0x11));
	MPL_Free(mpl, p);
}
END_TEST

/*
 * A size so big that adding the block header wraps around is out of
 * memory, not a tiny block: MPL_Get used to calloc the wrapped size and
 * write its header past the end of it.
 */
static const size_t huge_sizes[] = {
	SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 8, SIZE_MAX - 15, SIZE_MAX - 16,
	SIZE_MAX - 31,
};

START_TEST(test_size_huge)
{

	pool_new(10);
	ck_assert_ptr_null(MPL_Get(mpl, huge_sizes[_i]));
	/* The pool still works. */
	MPL_Free(mpl, MPL_Get(mpl, 10));
}
END_TEST

/* Threads ----------------------------------------------------------*/

#define NTHREAD		4
#define NITER		100000
#define NHOLD		8

struct worker {
	unsigned	n;
	size_t		size;
	unsigned long	reused;		/* blocks seen with old marks */
};

/*
 * A held block carries its owner and a serial at both ends; any other
 * thread writing it, or the pool handing it out twice, breaks them.
 */
struct mark {
	uint32_t	owner;
	uint32_t	serial;
};

static void
mark_put(void *p, size_t size, uint32_t owner, uint32_t serial)
{
	struct mark m;

	m.owner = owner;
	m.serial = serial;
	memcpy(p, &m, sizeof m);
	memcpy((char *)p + size - sizeof m, &m, sizeof m);
}

static void
mark_check(const void *p, size_t size, uint32_t owner, uint32_t serial)
{
	struct mark m1, m2;

	memcpy(&m1, p, sizeof m1);
	memcpy(&m2, (const char *)p + size - sizeof m2, sizeof m2);
	ck_assert_uint_eq(m1.owner, owner);
	ck_assert_uint_eq(m1.serial, serial);
	ck_assert_uint_eq(m2.owner, owner);
	ck_assert_uint_eq(m2.serial, serial);
}

static void *
worker_run(void *priv)
{
	struct worker *w = priv;
	void *held[NHOLD];
	uint32_t serial[NHOLD];
	unsigned i, slot, rnd;
	struct mark m;

	memset(held, 0, sizeof held);
	memset(serial, 0, sizeof serial);
	rnd = w->n * 2654435761U + 1;
	for (i = 0; i < NITER; i++) {
		rnd = rnd * 1103515245U + 12345U;
		slot = (rnd >> 16) % NHOLD;
		if (held[slot] != NULL) {
			mark_check(held[slot], w->size, w->n, serial[slot]);
			/* Scribble on it as its user would. */
			mark_put(held[slot], w->size, 0xdead, 0xdead);
			MPL_Free(mpl, held[slot]);
			held[slot] = NULL;
			continue;
		}
		held[slot] = MPL_Get(mpl, w->size);
		ck_assert_ptr_nonnull(held[slot]);
		memcpy(&m, held[slot], sizeof m);
		if (m.owner == 0xdead)
			w->reused++;
		else
			ck_assert_uint_eq(m.owner, 0);	/* fresh: zeroed */
		serial[slot] = i;
		mark_put(held[slot], w->size, w->n, i);
	}
	for (slot = 0; slot < NHOLD; slot++) {
		if (held[slot] == NULL)
			continue;
		mark_check(held[slot], w->size, w->n, serial[slot]);
		mark_put(held[slot], w->size, 0xdead, 0xdead);
		MPL_Free(mpl, held[slot]);
	}
	return (NULL);
}

static void
run_workers(const size_t *sizes)
{
	struct worker w[NTHREAD];
	pthread_t thr[NTHREAD];
	unsigned u;

	pool_new(16);
	for (u = 0; u < NTHREAD; u++) {
		w[u].n = u + 1;
		w[u].size = sizes[u];
		w[u].reused = 0;
		ck_assert_int_eq(pthread_create(&thr[u], NULL, worker_run,
		    &w[u]), 0);
	}
	for (u = 0; u < NTHREAD; u++)
		ck_assert_int_eq(pthread_join(thr[u], NULL), 0);
	/* The free list was used, not bypassed. */
	for (u = 0; u < NTHREAD; u++)
		ck_assert_uint_gt(w[u].reused, 0);
}

START_TEST(test_threads)
{
	static const size_t sizes[NTHREAD] = { 256, 256, 256, 256 };

	run_workers(sizes);
}
END_TEST

/* Two sizes in one pool: blocks of the other size get dropped too. */
START_TEST(test_threads_two_sizes)
{
	static const size_t sizes[NTHREAD] = { 256, 512, 256, 512 };

	run_workers(sizes);
}
END_TEST

static Suite *
mempool_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("mempool");

	tc = tcase_create("single");
	tcase_add_test(tc, test_reuse);
	tcase_add_test(tc, test_new_zeroed);
	tcase_add_test(tc, test_reuse_many);
	tcase_add_test(tc, test_other_size);
	tcase_add_test(tc, test_other_size_many);
	tcase_add_test(tc, test_max_free);
	tcase_add_test(tc, test_max_free_zero);
	tcase_add_test(tc, test_size_zero);
	tcase_add_test(tc, test_size_large);
	tcase_add_loop_test(tc, test_size_huge, 0,
	    (int)ARRAY_SIZE(huge_sizes));
	suite_add_tcase(s, tc);

	tc = tcase_create("threads");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_threads_two_sizes);
	suite_add_tcase(s, tc);

	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(mempool_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

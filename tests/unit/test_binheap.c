/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_binheap.c -- unit tests of the binary min-heap: empty and single
 * heaps, sorted draining of random keys, and a random mix of inserts,
 * deletes and re-keys checked after every step against a plain array,
 * with the heap's shape rebuilt from the indices the elements were told.
 */

#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/binheap.h"

/*
 * ck_assert reports every passing check to the runner through a pipe,
 * which made the big loops take seconds; these call into check only on
 * failure.
 */
#define REQUIRE(c)							\
	do {								\
		if (!(c))						\
			ck_abort_msg("%s:%d: %s", __FILE__, __LINE__,	\
			    #c);					\
	} while (0)
#define REQUIRE_MSG(c, ...)						\
	do {								\
		if (!(c))						\
			ck_abort_msg(__VA_ARGS__);			\
	} while (0)

struct elem {
	unsigned		magic;
#define ELEM_MAGIC		0x0b8c1e77
	unsigned		key;
	unsigned		idx;	/* as told by the heap */
	unsigned		live;	/* in the heap, says the reference */
};

/* What the callbacks saw. */
struct watch {
	unsigned		magic;
#define WATCH_MAGIC		0x5d3a90e1
	struct elem		*removed;	/* last one told NOIDX */
	unsigned		nremoved;
	unsigned		ncalls;
};

static int
elem_less(void *priv, const void *a, const void *b)
{
	const struct elem *ea, *eb;
	struct watch *w;

	CAST_OBJ_NOTNULL(w, priv, WATCH_MAGIC);
	CAST_OBJ_NOTNULL(ea, a, ELEM_MAGIC);
	CAST_OBJ_NOTNULL(eb, b, ELEM_MAGIC);
	return (ea->key < eb->key);
}

static void
elem_index(void *priv, void *p, unsigned idx)
{
	struct elem *e;
	struct watch *w;

	CAST_OBJ_NOTNULL(w, priv, WATCH_MAGIC);
	CAST_OBJ_NOTNULL(e, p, ELEM_MAGIC);
	w->ncalls++;
	e->idx = idx;
	if (idx == BINHEAP_NOIDX) {
		w->removed = e;
		w->nremoved++;
	}
}

static uint32_t
rnd(uint32_t *x)
{

	/* xorshift32: fixed seeds make failures replayable. */
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return (*x);
}

static struct elem *
elems_new(unsigned n)
{
	struct elem *e;
	unsigned u;

	e = calloc(n, sizeof *e);
	ck_assert_ptr_nonnull(e);
	for (u = 0; u < n; u++)
		e[u].magic = ELEM_MAGIC;
	return (e);
}

/*
 * Rebuild the heap from the indices the elements were told: live ones
 * must hold exactly 1..Count, each parent must not sort after its
 * children, and the root must be element 1.  Returns the root or NULL.
 */
static struct elem *
check_shape(const struct binheap *bh, struct elem *pool, unsigned n)
{
	struct elem **at;
	struct elem *root;
	unsigned u, nlive = 0;

	at = calloc(n + 1, sizeof *at);
	ck_assert_ptr_nonnull(at);
	for (u = 0; u < n; u++) {
		if (!pool[u].live) {
			REQUIRE(pool[u].idx == BINHEAP_NOIDX);
			continue;
		}
		nlive++;
		REQUIRE(pool[u].idx >= 1);
		REQUIRE(pool[u].idx <= n);
		REQUIRE(at[pool[u].idx] == NULL);
		at[pool[u].idx] = &pool[u];
	}
	REQUIRE(BINHEAP_Count(bh) == nlive);
	for (u = 1; u <= nlive; u++)
		REQUIRE_MSG(at[u] != NULL, "no element at %u of %u", u,
		    nlive);
	for (u = 2; u <= nlive; u++)
		REQUIRE_MSG(at[u / 2]->key <= at[u]->key,
		    "parent %u (key %u) after child %u (key %u)", u / 2,
		    at[u / 2]->key, u, at[u]->key);
	root = at[1];
	ck_assert_ptr_eq(BINHEAP_Root(bh), root);
	free(at);
	return (root);
}

START_TEST(test_empty)
{
	struct watch w;
	struct binheap *bh;

	INIT_OBJ(&w, WATCH_MAGIC);
	bh = BINHEAP_New(&w, elem_less, elem_index);
	ck_assert_ptr_nonnull(bh);
	ck_assert_uint_eq(BINHEAP_Count(bh), 0);
	ck_assert_ptr_null(BINHEAP_Root(bh));
	BINHEAP_Free(&bh);
	ck_assert_ptr_null(bh);
	ck_assert_uint_eq(w.ncalls, 0);
}
END_TEST

START_TEST(test_one)
{
	struct watch w;
	struct binheap *bh;
	struct elem e;

	INIT_OBJ(&w, WATCH_MAGIC);
	INIT_OBJ(&e, ELEM_MAGIC);
	e.key = 42;
	bh = BINHEAP_New(&w, elem_less, elem_index);
	ck_assert_ptr_nonnull(bh);
	ck_assert_int_eq(BINHEAP_Insert(bh, &e), 0);
	ck_assert_uint_eq(e.idx, 1);
	ck_assert_uint_eq(BINHEAP_Count(bh), 1);
	ck_assert_ptr_eq(BINHEAP_Root(bh), &e);

	e.key = 0;
	BINHEAP_Reorder(bh, e.idx);
	e.key = 1000;
	BINHEAP_Reorder(bh, e.idx);
	ck_assert_uint_eq(e.idx, 1);
	ck_assert_ptr_eq(BINHEAP_Root(bh), &e);

	BINHEAP_Delete(bh, e.idx);
	ck_assert_uint_eq(e.idx, BINHEAP_NOIDX);
	ck_assert_ptr_eq(w.removed, &e);
	ck_assert_uint_eq(w.nremoved, 1);
	ck_assert_uint_eq(BINHEAP_Count(bh), 0);
	ck_assert_ptr_null(BINHEAP_Root(bh));
	BINHEAP_Free(&bh);
}
END_TEST

/* Deleting from the middle tells that element, and only it, NOIDX. */
START_TEST(test_delete_noidx)
{
	struct watch w;
	struct binheap *bh;
	struct elem *pool;
	unsigned u;

	INIT_OBJ(&w, WATCH_MAGIC);
	pool = elems_new(7);
	bh = BINHEAP_New(&w, elem_less, elem_index);
	ck_assert_ptr_nonnull(bh);
	for (u = 0; u < 7; u++) {
		pool[u].key = 70 - 10 * u;
		pool[u].live = 1;
		ck_assert_int_eq(BINHEAP_Insert(bh, &pool[u]), 0);
	}
	(void)check_shape(bh, pool, 7);
	ck_assert_ptr_eq(BINHEAP_Root(bh), &pool[6]);

	for (u = 0; u < 7; u++) {
		/* Take out the element at index 2 each time, then the rest. */
		struct elem *victim = NULL;
		unsigned v, want = BINHEAP_Count(bh) >= 2 ? 2 : 1;

		for (v = 0; v < 7; v++)
			if (pool[v].live && pool[v].idx == want)
				victim = &pool[v];
		ck_assert_ptr_nonnull(victim);
		BINHEAP_Delete(bh, want);
		ck_assert_ptr_eq(w.removed, victim);
		ck_assert_uint_eq(w.nremoved, u + 1);
		ck_assert_uint_eq(victim->idx, BINHEAP_NOIDX);
		victim->live = 0;
		(void)check_shape(bh, pool, 7);
	}
	BINHEAP_Free(&bh);
	free(pool);
}
END_TEST

/* Equal keys: any of them may be the root, the shape still holds. */
START_TEST(test_equal_keys)
{
	struct watch w;
	struct binheap *bh;
	struct elem *pool;
	unsigned u;

	INIT_OBJ(&w, WATCH_MAGIC);
	pool = elems_new(100);
	bh = BINHEAP_New(&w, elem_less, elem_index);
	ck_assert_ptr_nonnull(bh);
	for (u = 0; u < 100; u++) {
		pool[u].key = 5;
		pool[u].live = 1;
		ck_assert_int_eq(BINHEAP_Insert(bh, &pool[u]), 0);
	}
	(void)check_shape(bh, pool, 100);
	for (u = 0; u < 100; u++) {
		struct elem *root = BINHEAP_Root(bh);

		ck_assert_ptr_nonnull(root);
		BINHEAP_Delete(bh, 1);
		ck_assert_ptr_eq(w.removed, root);
		root->live = 0;
		(void)check_shape(bh, pool, 100);
	}
	BINHEAP_Free(&bh);
	free(pool);
}
END_TEST

#define NSORT	100000

START_TEST(test_sorted)
{
	struct watch w;
	struct binheap *bh;
	struct elem *pool, *e;
	uint32_t x = 88172645U;
	unsigned u, prev;

	INIT_OBJ(&w, WATCH_MAGIC);
	pool = elems_new(NSORT);
	bh = BINHEAP_New(&w, elem_less, elem_index);
	ck_assert_ptr_nonnull(bh);
	for (u = 0; u < NSORT; u++) {
		pool[u].key = rnd(&x);
		pool[u].live = 1;
		REQUIRE(BINHEAP_Insert(bh, &pool[u]) == 0);
	}
	REQUIRE(BINHEAP_Count(bh) == NSORT);
	(void)check_shape(bh, pool, NSORT);

	prev = 0;
	for (u = 0; u < NSORT; u++) {
		e = BINHEAP_Root(bh);
		REQUIRE(e != NULL);
		REQUIRE(e->idx == 1);
		REQUIRE(e->key >= prev);
		prev = e->key;
		BINHEAP_Delete(bh, 1);
		REQUIRE(w.removed == e);
		REQUIRE(e->idx == BINHEAP_NOIDX);
		e->live = 0;
		REQUIRE(BINHEAP_Count(bh) == NSORT - u - 1);
	}
	REQUIRE(BINHEAP_Root(bh) == NULL);
	REQUIRE(w.nremoved == NSORT);
	BINHEAP_Free(&bh);
	free(pool);
}
END_TEST

/* Pick a live (or dead) element at random; NULL when there is none. */
static struct elem *
pick(struct elem *pool, unsigned n, unsigned live, uint32_t *x)
{
	unsigned u, start;

	start = rnd(x) % n;
	for (u = 0; u < n; u++)
		if (!pool[(start + u) % n].live == !live)
			return (&pool[(start + u) % n]);
	return (NULL);
}

/* The reference: the smallest key among the live elements. */
static unsigned
ref_min(const struct elem *pool, unsigned n, unsigned *nlive)
{
	unsigned u, min = UINT32_MAX;

	*nlive = 0;
	for (u = 0; u < n; u++) {
		if (!pool[u].live)
			continue;
		(*nlive)++;
		if (pool[u].key < min)
			min = pool[u].key;
	}
	return (min);
}

/* One random step: insert, delete (often the root), or re-key. */
static void
mix_step(struct binheap *bh, struct watch *w, struct elem *pool,
    unsigned n, uint32_t *x)
{
	struct elem *e;
	unsigned op, nrem;

	op = rnd(x) % 10;
	e = pick(pool, n, op >= 4, x);
	if (e == NULL)
		return;
	if (op < 4) {
		/* Small key range: plenty of ties. */
		e->key = rnd(x) % 500;
		REQUIRE(BINHEAP_Insert(bh, e) == 0);
		e->live = 1;
	} else if (op < 7) {
		if (op == 6)
			e = BINHEAP_Root(bh);
		nrem = w->nremoved;
		BINHEAP_Delete(bh, e->idx);
		REQUIRE(w->removed == e);
		REQUIRE(w->nremoved == nrem + 1);
		REQUIRE(e->idx == BINHEAP_NOIDX);
		e->live = 0;
	} else {
		if (op == 7 && e->key > 0)
			e->key -= 1 + rnd(x) % e->key;	/* down */
		else
			e->key += 1 + rnd(x) % 100;	/* up */
		BINHEAP_Reorder(bh, e->idx);
	}
}

#define NMIX	700
#define NSTEP	5000

START_TEST(test_random_mix)
{
	struct watch w;
	struct binheap *bh;
	struct elem *pool, *root;
	uint32_t x = 123456789U + (uint32_t)_i;
	unsigned step, min, nlive;

	INIT_OBJ(&w, WATCH_MAGIC);
	pool = elems_new(NMIX);
	bh = BINHEAP_New(&w, elem_less, elem_index);
	REQUIRE(bh != NULL);
	for (step = 0; step < NSTEP; step++) {
		mix_step(bh, &w, pool, NMIX, &x);
		min = ref_min(pool, NMIX, &nlive);
		REQUIRE(BINHEAP_Count(bh) == nlive);
		root = BINHEAP_Root(bh);
		if (nlive == 0) {
			REQUIRE(root == NULL);
			continue;
		}
		REQUIRE(root != NULL);
		REQUIRE_MSG(root->live && root->key == min,
		    "step %u: root key %u, want %u", step, root->key, min);
		REQUIRE(root->idx == 1);
		REQUIRE(check_shape(bh, pool, NMIX) == root);
	}

	/* Empty it in random order through the recorded indices. */
	while ((root = pick(pool, NMIX, 1, &x)) != NULL) {
		BINHEAP_Delete(bh, root->idx);
		REQUIRE(w.removed == root);
		root->live = 0;
	}
	(void)check_shape(bh, pool, NMIX);
	BINHEAP_Free(&bh);
	free(pool);
}
END_TEST

/* Grow, shrink by deleting nearly all, grow again. */
START_TEST(test_grow_shrink)
{
	struct watch w;
	struct binheap *bh;
	struct elem *pool, *e;
	uint32_t x = 521288629U;
	unsigned round, u;

	INIT_OBJ(&w, WATCH_MAGIC);
	pool = elems_new(5000);
	bh = BINHEAP_New(&w, elem_less, elem_index);
	ck_assert_ptr_nonnull(bh);
	for (round = 0; round < 3; round++) {
		for (u = 0; u < 5000; u++) {
			if (pool[u].live)
				continue;
			pool[u].key = rnd(&x) % 100000;
			REQUIRE(BINHEAP_Insert(bh, &pool[u]) == 0);
			pool[u].live = 1;
		}
		(void)check_shape(bh, pool, 5000);
		for (u = 0; u < 4990; u++) {
			e = pick(pool, 5000, 1, &x);
			REQUIRE(e != NULL);
			BINHEAP_Delete(bh, e->idx);
			e->live = 0;
		}
		(void)check_shape(bh, pool, 5000);
	}
	while ((e = BINHEAP_Root(bh)) != NULL) {
		BINHEAP_Delete(bh, 1);
		e->live = 0;
	}
	(void)check_shape(bh, pool, 5000);
	BINHEAP_Free(&bh);
	free(pool);
}
END_TEST

/*
 * Bad indices are bugs: they assert, which aborts.  The heap stays
 * reachable through doomed so valgrind does not call it leaked;
 * volatile, or the compiler drops a store nothing reads.
 */
static struct binheap *volatile doomed;

static struct binheap *
two_elem_heap(struct watch *w, struct elem e[2])
{
	struct binheap *bh;

	INIT_OBJ(w, WATCH_MAGIC);
	INIT_OBJ(&e[0], ELEM_MAGIC);
	INIT_OBJ(&e[1], ELEM_MAGIC);
	bh = BINHEAP_New(w, elem_less, elem_index);
	ck_assert_ptr_nonnull(bh);
	ck_assert_int_eq(BINHEAP_Insert(bh, &e[0]), 0);
	ck_assert_int_eq(BINHEAP_Insert(bh, &e[1]), 0);
	doomed = bh;
	return (bh);
}

START_TEST(test_delete_noidx_asserts)
{
	struct watch w;
	struct elem e[2];

	BINHEAP_Delete(two_elem_heap(&w, e), BINHEAP_NOIDX);
}
END_TEST

START_TEST(test_delete_past_end_asserts)
{
	struct watch w;
	struct elem e[2];

	BINHEAP_Delete(two_elem_heap(&w, e), 3);
}
END_TEST

START_TEST(test_reorder_past_end_asserts)
{
	struct watch w;
	struct elem e[2];

	BINHEAP_Reorder(two_elem_heap(&w, e), 3);
}
END_TEST

START_TEST(test_free_nonempty_asserts)
{
	struct watch w;
	struct elem e[2];
	struct binheap *bh;

	bh = two_elem_heap(&w, e);
	BINHEAP_Free(&bh);
}
END_TEST

static Suite *
binheap_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("binheap");
	tc = tcase_create("binheap");
	tcase_set_timeout(tc, 60);	/* valgrind */
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_one);
	tcase_add_test(tc, test_delete_noidx);
	tcase_add_test(tc, test_equal_keys);
	tcase_add_test(tc, test_sorted);
	tcase_add_loop_test(tc, test_random_mix, 0, 3);
	tcase_add_test(tc, test_grow_shrink);
	tcase_add_test_raise_signal(tc, test_delete_noidx_asserts, SIGABRT);
	tcase_add_test_raise_signal(tc, test_delete_past_end_asserts,
	    SIGABRT);
	tcase_add_test_raise_signal(tc, test_reorder_past_end_asserts,
	    SIGABRT);
	tcase_add_test_raise_signal(tc, test_free_nonempty_asserts, SIGABRT);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(binheap_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

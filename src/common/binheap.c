/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * binheap.c -- binary min-heap in a flat array, 1-based: the children of
 * slot i are 2i and 2i+1, its parent i/2, and slot 0 is never used so
 * that 0 can mean "not in the heap".  Owns the array (malloc'd, jemalloc
 * in the daemon), not the elements.  No locks: the caller holds its own.
 *
 * Elements move by holes, not swaps: the moving element is held aside
 * while the others shift into the gap, and each element's index callback
 * runs once per move.
 */

#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/miniobj.h"
#include "common/binheap.h"

/* Slots allocated at first, and never shrunk below. */
#define BINHEAP_MIN_SLOTS	16U

struct binheap {
	unsigned		magic;
#define BINHEAP_MAGIC		0x401a6b4a
	void			*priv;		/* caller's, to the callbacks */
	binheap_less_f		*less;
	binheap_index_f		*update_index;
	void			**array;	/* owned; [1..count] used */
	unsigned		count;		/* elements in the heap */
	unsigned		slots;		/* array length, [0] included */
};

#define BINHEAP_LESS(bh, a, b)	((bh)->less((bh)->priv, (a), (b)))

static inline void
binheap_place(struct binheap *bh, unsigned idx, void *p)
{

	bh->array[idx] = p;
	bh->update_index(bh->priv, p, idx);
}

/* Move the element at idx towards the root while it sorts before its
 * parent; return where it ended. */
static unsigned
binheap_sift_up(struct binheap *bh, unsigned idx)
{
	void *p;
	unsigned parent;

	p = bh->array[idx];
	while (idx > 1) {
		parent = idx / 2;
		if (!BINHEAP_LESS(bh, p, bh->array[parent]))
			break;
		binheap_place(bh, idx, bh->array[parent]);
		idx = parent;
	}
	return (idx);
}

/* Move the element at idx towards the leaves while a child sorts before
 * it; return where it ended. */
static unsigned
binheap_sift_down(struct binheap *bh, unsigned idx)
{
	void *p;
	unsigned child;

	p = bh->array[idx];
	/* idx <= count / 2 keeps 2 * idx from wrapping. */
	while (idx <= bh->count / 2) {
		child = 2 * idx;
		if (child < bh->count &&
		    BINHEAP_LESS(bh, bh->array[child + 1], bh->array[child]))
			child++;
		if (!BINHEAP_LESS(bh, bh->array[child], p))
			break;
		binheap_place(bh, idx, bh->array[child]);
		idx = child;
	}
	return (idx);
}

/* Put the element that was at idx where it belongs, and tell it if it
 * moved. */
static void
binheap_fix(struct binheap *bh, unsigned idx)
{
	void *p;
	unsigned to;

	p = bh->array[idx];
	to = binheap_sift_up(bh, idx);
	if (to == idx)
		to = binheap_sift_down(bh, idx);
	if (to != idx)
		binheap_place(bh, to, p);
}

/* Resize the array to slots; -1 when out of memory, array unchanged. */
static int
binheap_resize(struct binheap *bh, unsigned slots)
{
	void **a;
	size_t n = slots;	/* size_t: the check matters on ILP32 only */

	assert(slots > bh->count);
	if (n > SIZE_MAX / sizeof *a)
		return (-1);
	a = realloc(bh->array, n * sizeof *a);
	if (a == NULL)
		return (-1);
	bh->array = a;
	bh->slots = slots;
	return (0);
}

struct binheap *
BINHEAP_New(void *priv, binheap_less_f *less, binheap_index_f *update_index)
{
	struct binheap *bh;

	assert(less != NULL);
	assert(update_index != NULL);
	ALLOC_OBJ(bh, BINHEAP_MAGIC);
	if (bh == NULL)
		return (NULL);
	bh->priv = priv;
	bh->less = less;
	bh->update_index = update_index;
	if (binheap_resize(bh, BINHEAP_MIN_SLOTS) != 0) {
		FREE_OBJ(bh);
		return (NULL);
	}
	bh->array[0] = NULL;
	return (bh);
}

void
BINHEAP_Free(struct binheap **pbh)
{
	struct binheap *bh;

	TAKE_OBJ_NOTNULL(bh, pbh, BINHEAP_MAGIC);
	assert(bh->count == 0);
	free(bh->array);
	bh->array = NULL;
	FREE_OBJ(bh);
}

int
BINHEAP_Insert(struct binheap *bh, void *p)
{
	unsigned slots;

	CHECK_OBJ(bh, BINHEAP_MAGIC);
	assert(p != NULL);

	if (bh->count + 1 == bh->slots) {
		/* Index UINT_MAX is the last one an unsigned can name. */
		if (bh->slots == UINT_MAX)
			return (-1);
		slots = bh->slots > UINT_MAX / 2 ? UINT_MAX : bh->slots * 2;
		if (binheap_resize(bh, slots) != 0)
			return (-1);
	}
	assert(bh->count + 1 < bh->slots);
	bh->count++;
	binheap_place(bh, bh->count, p);
	binheap_fix(bh, bh->count);
	return (0);
}

void *
BINHEAP_Root(const struct binheap *bh)
{

	CHECK_OBJ(bh, BINHEAP_MAGIC);
	if (bh->count == 0)
		return (NULL);
	return (bh->array[1]);
}

void
BINHEAP_Delete(struct binheap *bh, unsigned idx)
{
	void *gone;

	CHECK_OBJ(bh, BINHEAP_MAGIC);
	assert(idx != BINHEAP_NOIDX);
	assert(idx <= bh->count);

	gone = bh->array[idx];
	assert(gone != NULL);
	if (idx < bh->count) {
		/* The last element fills the hole, then finds its place. */
		binheap_place(bh, idx, bh->array[bh->count]);
		bh->array[bh->count--] = NULL;
		binheap_fix(bh, idx);
	} else {
		bh->array[bh->count--] = NULL;
	}
	bh->update_index(bh->priv, gone, BINHEAP_NOIDX);

	/*
	 * Halve at a quarter full, so that a heap hovering around a size
	 * does not realloc on every insert and delete.  A failed shrink
	 * keeps the bigger array, which is still correct.
	 */
	if (bh->slots > BINHEAP_MIN_SLOTS && bh->count < bh->slots / 4)
		(void)binheap_resize(bh, bh->slots / 2);
}

void
BINHEAP_Reorder(struct binheap *bh, unsigned idx)
{

	CHECK_OBJ(bh, BINHEAP_MAGIC);
	assert(idx != BINHEAP_NOIDX);
	assert(idx <= bh->count);
	assert(bh->array[idx] != NULL);
	binheap_fix(bh, idx);
}

unsigned
BINHEAP_Count(const struct binheap *bh)
{

	CHECK_OBJ(bh, BINHEAP_MAGIC);
	return (bh->count);
}

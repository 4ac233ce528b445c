/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * binheap.h -- a binary min-heap of caller-owned pointers, for the expiry
 * thread's timers.  Each element is told its index through a callback,
 * so it can be deleted or re-keyed in O(log n) without a search.
 *
 * The heap owns only its array of pointers, never the elements.  Not
 * thread-safe: the caller serializes every call, including Root and Count,
 * with its own lock.  The callbacks run inside these calls, under that
 * lock, and must not call back into the heap.
 *
 * Indices run from 1 to BINHEAP_Count(); BINHEAP_NOIDX (0) means "not in
 * a heap".  Passing an index that is not in the heap is a bug and asserts.
 */

#ifndef VENEER_BINHEAP_H
#define VENEER_BINHEAP_H

struct binheap;

/* Nonzero when a sorts before b: a strict weak order, stable while the
 * elements are in the heap unless BINHEAP_Reorder() follows each change. */
typedef int binheap_less_f(void *priv, const void *a, const void *b);

/* Element p now lives at idx; BINHEAP_NOIDX when it left the heap. */
typedef void binheap_index_f(void *priv, void *p, unsigned idx);

#define BINHEAP_NOIDX	0U

/* An empty heap; NULL when out of memory.  priv goes to the callbacks. */
struct binheap *BINHEAP_New(void *priv, binheap_less_f *less,
    binheap_index_f *update_index);

/* Release an empty heap and NULL *pbh. */
void BINHEAP_Free(struct binheap **pbh);

/* Add p (not NULL); its index callback runs at least once.  0, or -1 when
 * out of memory, leaving the heap and p untouched. */
int BINHEAP_Insert(struct binheap *bh, void *p);

/* The element that sorts first, or NULL when empty.  Its index is 1. */
void *BINHEAP_Root(const struct binheap *bh);

/* Remove the element at idx; its index callback gets BINHEAP_NOIDX. */
void BINHEAP_Delete(struct binheap *bh, unsigned idx);

/* Restore order after the key of the element at idx changed either way. */
void BINHEAP_Reorder(struct binheap *bh, unsigned idx);

unsigned BINHEAP_Count(const struct binheap *bh);

#endif /* VENEER_BINHEAP_H */

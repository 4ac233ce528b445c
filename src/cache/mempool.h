/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mempool.h -- free lists of same-sized blocks (sessions, requests), so
 * the request path does not call malloc in the steady state.  A block
 * remembers its size; one of a different size than asked for (after a
 * workspace parameter changed) is freed instead of reused.
 */

#ifndef VENEER_CACHE_MEMPOOL_H
#define VENEER_CACHE_MEMPOOL_H

#include <stddef.h>

struct mempool;

struct mempool *MPL_New(const char *name, unsigned max_free);
/*
 * A block of size bytes, NOT zeroed (the caller initializes its struct;
 * workspace bytes need no clearing), or NULL if out of memory.
 */
void *MPL_Get(struct mempool *mpl, size_t size);
void MPL_Free(struct mempool *mpl, void *p);

#endif /* VENEER_CACHE_MEMPOOL_H */

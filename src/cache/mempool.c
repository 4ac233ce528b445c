/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mempool.c -- free lists of blocks.  Owns its blocks and mpl->mtx, held
 * only to push or pop one block.
 */

#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "cache/mempool.h"

struct mpl_block {
	unsigned		magic;
#define MPL_BLOCK_MAGIC		0x84d701ab
	size_t			size;
	struct mpl_block	*next;		/* mpl->mtx while free */
	/* 16-byte aligned payload follows */
	uint64_t		pad[1];
};

#define MPL_HDR		(sizeof(struct mpl_block))

struct mempool {
	unsigned		magic;
#define MEMPOOL_MAGIC		0xc26cebca
	const char		*name;
	struct lock		mtx;
	struct mpl_block	*free;		/* mtx */
	unsigned		nfree;		/* mtx */
	unsigned		max_free;	/* const */
};

struct mempool *
MPL_New(const char *name, unsigned max_free)
{
	struct mempool *mpl;

	ALLOC_OBJ(mpl, MEMPOOL_MAGIC);
	assert(mpl != NULL);
	mpl->name = name;
	mpl->max_free = max_free;
	LOCK_Init(&mpl->mtx);
	return (mpl);
}

void *
MPL_Get(struct mempool *mpl, size_t size)
{
	struct mpl_block *b;

	CHECK_OBJ(mpl, MEMPOOL_MAGIC);
	/* MPL_HDR + size would wrap to a block smaller than its header. */
	if (size > SIZE_MAX - MPL_HDR)
		return (NULL);
	for (;;) {
		LOCK_Lock(&mpl->mtx);
		b = mpl->free;
		if (b != NULL) {
			mpl->free = b->next;
			mpl->nfree--;
		}
		LOCK_Unlock(&mpl->mtx);
		if (b == NULL)
			break;
		CHECK_OBJ(b, MPL_BLOCK_MAGIC);
		if (b->size == size) {
			b->next = NULL;
			return ((char *)b + MPL_HDR);
		}
		FREE_OBJ(b);		/* the wanted size changed */
	}
	b = calloc(1, MPL_HDR + size);
	if (b == NULL)
		return (NULL);
	b->magic = MPL_BLOCK_MAGIC;
	b->size = size;
	return ((char *)b + MPL_HDR);
}

void
MPL_Free(struct mempool *mpl, void *p)
{
	struct mpl_block *b;

	CHECK_OBJ(mpl, MEMPOOL_MAGIC);
	assert(p != NULL);
	b = (struct mpl_block *)(void *)((char *)p - MPL_HDR);
	CHECK_OBJ(b, MPL_BLOCK_MAGIC);
	LOCK_Lock(&mpl->mtx);
	if (mpl->nfree < mpl->max_free) {
		b->next = mpl->free;
		mpl->free = b;
		mpl->nfree++;
		b = NULL;
	}
	LOCK_Unlock(&mpl->mtx);
	if (b != NULL)
		FREE_OBJ(b);
}

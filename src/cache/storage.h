/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * storage.h -- stevedores: where objects live.  A malloc stevedore hands
 * out memory from the process allocator (jemalloc) and counts what each
 * allocation really costs (its usable size, slack included) against the
 * size the operator gave with -s, so "-s malloc,1G" is a promise about
 * memory, not about payload bytes.  Objcores and objheads are charged
 * too (a marker's to Transient).  When a store is full, the least
 * recently used objects that nobody is reading are nuked to make room.
 *
 * Locks: each stevedore's lru_mtx guards its LRU list and the objcores'
 * t_lru; "used" is atomic.
 */

#ifndef VENEER_CACHE_STORAGE_H
#define VENEER_CACHE_STORAGE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <bsd/sys/queue.h>

#include "common/lock.h"
#include "common/tim.h"

struct objcore;
struct worker;

struct vsc_sma {
#define VSC_FIELD(n, t, l, f, d)	uint64_t n;
#include "vsc_sma_fields.h"
};

struct stevedore {
	unsigned		magic;
#define STEVEDORE_MAGIC		0x3f1e7c22
	char			name[32];	/* const */
	uint64_t		limit;		/* const; UINT64_MAX: none */
	uint64_t		used;		/* atomic */
	unsigned		transient;	/* const */
	struct vsc_sma		*vsc;		/* shared counters */
	struct lock		lru_mtx;
	TAILQ_HEAD(stv_lru_head, objcore) lru;	/* lru_mtx */
	struct stevedore	*next;		/* const after init */
};

/* The store for uncacheable and short-lived objects. */
extern struct stevedore *stv_transient;

/* Create the stores -s asked for (or the default), with counters. */
void STV_Init(void);
/* The store for a new cacheable object (round-robin). */
struct stevedore *STV_Pick(void);
/* The store named so (VCL's storage.<name>), or NULL. */
struct stevedore *STV_Find(const char *name);
/*
 * How hard STV_Alloc and STV_Charge try when the store is full, after
 * nuking LRU objects (at most nuke_limit).  A private object, which is
 * only ever a response on its way to a client, MUST have its memory:
 * failing it would fail the delivery, and transit keeps it to a piece
 * or two of fetch_maxchunksize.  It is counted, over the limit if need
 * be; what the store keeps (short-lived objects) gives way to it.
 */
enum stv_need {
	STV_MAY,	/* NULL / -1 when it does not fit */
	STV_MUST,	/* over the limit rather than fail */
};

/*
 * size bytes from stv.  *charged (if not NULL): what was counted, the
 * block's usable size.  NULL when it cannot fit (STV_MAY), or when
 * there is no memory at all.
 */
void *STV_Alloc(struct worker *wrk, struct stevedore *stv, size_t size,
    enum stv_need need, size_t *charged);
/* Free a block of STV_Alloc's, uncounting its usable size. */
void STV_Free(struct stevedore *stv, void *p);
/* Count memory an object uses outside STV_Alloc (objcore...). */
int STV_Charge(struct worker *wrk, struct stevedore *stv, size_t n,
    enum stv_need need);
void STV_Uncharge(struct stevedore *stv, size_t n);
/* Usable size of a malloc'd block (what it costs). */
size_t STV_Usable(const void *p);
/* What a block of size bytes would cost (the allocator's size class). */
size_t STV_Round(size_t size);

/* The LRU (objects with storage, in their stevedore) */
void LRU_Add(struct objcore *oc, vtim_real now);
void LRU_Remove(struct objcore *oc);
/* A hit: move to the head, at most once every lru_interval. */
void LRU_Touch(struct worker *wrk, struct objcore *oc, vtim_real now);

#endif /* VENEER_CACHE_STORAGE_H */

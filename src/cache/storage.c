/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * storage.c -- the malloc stevedores and their LRU lists.  Memory comes
 * from malloc (jemalloc in veneerd); each block is charged at its usable
 * size, the bytes it really takes, so the -s size bounds the memory the
 * cache uses, allocator slack and object overhead included.  A full
 * store nukes its least recently used objects that nobody is reading,
 * at most nuke_limit per allocation.
 */

#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/child.h"
#include "cache/hash.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/storage.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

struct stevedore *stv_transient;
static struct stevedore *stv_first;	/* cacheable stores; const */
static struct stevedore *stv_next;	/* atomic: round-robin */

/* Counters of stores whose segment could not be made. */
static struct vsc_sma stv_dummy_vsc[CHILD_MAX_STORES + 1];
static unsigned stv_ndummy;

/* Scan at most this many in-use objects at an LRU's tail per nuke. */
#define STV_NUKE_SCAN	1000

#define STV_TRANSIENT_MIN	(32ULL * 1024 * 1024)

#define SMA_Add(stv, field, n)						\
	(void)__atomic_add_fetch(&(stv)->vsc->field, (uint64_t)(n),	\
	    __ATOMIC_RELAXED)
#define SMA_Sub(stv, field, n)						\
	(void)__atomic_sub_fetch(&(stv)->vsc->field, (uint64_t)(n),	\
	    __ATOMIC_RELAXED)

static struct stevedore *
stv_new(const char *name, uint64_t limit, unsigned transient)
{
	struct stevedore *stv;

	ALLOC_OBJ(stv, STEVEDORE_MAGIC);
	assert(stv != NULL);
	(void)snprintf(stv->name, sizeof stv->name, "%s", name);
	stv->limit = limit == 0 ? UINT64_MAX : limit;
	stv->transient = transient;
	LOCK_Init(&stv->lru_mtx);
	TAILQ_INIT(&stv->lru);
	stv->vsc = VSC_NewSma(name);
	if (stv->vsc == NULL) {
		assert(stv_ndummy < CHILD_MAX_STORES + 1);
		stv->vsc = &stv_dummy_vsc[stv_ndummy++];
	}
	stv->vsc->g_space = stv->limit == UINT64_MAX ? 0 : stv->limit;
	return (stv);
}

/*
 * Transient, when -s does not size it: a tenth of the other stores,
 * at least 32M.  Unbounded, a flood of short-lived objects would break
 * the promise the other sizes make (Varnish's Transient is, and does).
 */
static uint64_t
stv_transient_size(void)
{
	const struct stevedore *stv;
	uint64_t total = 0;

	for (stv = stv_first; stv != NULL; stv = stv->next)
		total += stv->limit;
	total /= 10;
	return (total > STV_TRANSIENT_MIN ? total : STV_TRANSIENT_MIN);
}

void
STV_Init(void)
{
	const struct storage_arg *sa;
	struct stevedore *stv, **tail = &stv_first;
	unsigned u;

	for (u = 0; u < child_args->nstores; u++) {
		sa = &child_args->stores[u];
		if (!strcmp(sa->name, "Transient")) {
			stv_transient = stv_new(sa->name, sa->size, 1);
			continue;
		}
		stv = stv_new(sa->name, sa->size, 0);
		*tail = stv;
		tail = &stv->next;
	}
	if (stv_first == NULL)
		stv_first = stv_new("s0", 256 * 1024 * 1024, 0);
	if (stv_transient == NULL)
		stv_transient = stv_new("Transient", stv_transient_size(), 1);
	stv_next = stv_first;
}

struct stevedore *
STV_Find(const char *name)
{
	struct stevedore *stv;

	if (name == NULL)
		return (NULL);
	if (stv_transient != NULL && !strcmp(stv_transient->name, name))
		return (stv_transient);
	for (stv = stv_first; stv != NULL; stv = stv->next)
		if (!strcmp(stv->name, name))
			return (stv);
	return (NULL);
}

struct stevedore *
STV_Pick(void)
{
	struct stevedore *stv, *next;

	stv = __atomic_load_n(&stv_next, __ATOMIC_RELAXED);
	next = stv->next != NULL ? stv->next : stv_first;
	/* Losing this race only skews the round-robin. */
	(void)__atomic_compare_exchange_n(&stv_next, &stv, next, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	CHECK_OBJ(stv, STEVEDORE_MAGIC);
	return (stv);
}

/* jemalloc's, when veneerd is linked with it (weak: tests are not). */
extern size_t nallocx(size_t, int) __attribute__((__weak__));

size_t
STV_Round(size_t size)
{

	if (nallocx != NULL && size > 0)
		return (nallocx(size, 0));
	return ((size + 15) & ~(size_t)15);
}

size_t
STV_Usable(const void *p)
{

	return (malloc_usable_size((void *)(uintptr_t)p));
}

/* Remove the least recently used object nobody reads.  1 if one went. */
static int
stv_nuke_one(struct worker *wrk, struct stevedore *stv)
{
	struct objcore *oc;
	unsigned n = 0;

	LOCK_Lock(&stv->lru_mtx);
	TAILQ_FOREACH_REVERSE(oc, &stv->lru, stv_lru_head, lru_list) {
		if (++n > STV_NUKE_SCAN) {
			oc = NULL;
			break;
		}
		/* The LRU's own membership implies the cache's ref. */
		if (__atomic_load_n(&oc->refcnt, __ATOMIC_ACQUIRE) > 1)
			continue;
		OBJ_Ref(oc);
		TAILQ_REMOVE(&stv->lru, oc, lru_list);
		oc->lru_list.tqe_prev = NULL;
		break;
	}
	LOCK_Unlock(&stv->lru_mtx);
	if (oc == NULL)
		return (0);
	if (HSH_Kill(wrk, oc)) {
		VSC_Count(wrk->stats, n_lru_nuked, 1);
		VSL(SLT_ExpKill, 0, "LRU x=%u", oc->xid);
	}
	(void)OBJ_Deref(&oc);
	return (1);
}

/* g_space from "used": none left once over the limit (STV_MUST). */
static void
stv_space(struct stevedore *stv, uint64_t used)
{

	if (stv->limit == UINT64_MAX)
		return;
	/* Racing updates may leave it a moment stale; it is a gauge. */
	__atomic_store_n(&stv->vsc->g_space, used < stv->limit ?
	    stv->limit - used : 0, __ATOMIC_RELAXED);
}

/* Count n bytes in stv if they fit, nuking to make room. */
static int
stv_reserve(struct worker *wrk, struct stevedore *stv, size_t n,
    enum stv_need need)
{
	unsigned nuked = 0;
	uint64_t used;

	if (stv->limit == UINT64_MAX) {
		(void)__atomic_add_fetch(&stv->used, n, __ATOMIC_RELAXED);
		return (0);
	}
	while (n <= stv->limit) {
		used = __atomic_add_fetch(&stv->used, n, __ATOMIC_RELAXED);
		if (used <= stv->limit) {
			stv_space(stv, used);
			return (0);
		}
		(void)__atomic_sub_fetch(&stv->used, n, __ATOMIC_RELAXED);
		if (nuked >= cache_param->nuke_limit) {
			VSC_Count(wrk->stats, n_lru_limited, 1);
			break;
		}
		if (!stv_nuke_one(wrk, stv))
			break;
		nuked++;
	}
	if (need != STV_MUST)
		return (-1);
	used = __atomic_add_fetch(&stv->used, n, __ATOMIC_RELAXED);
	stv_space(stv, used);
	return (0);
}

static void
stv_release(struct stevedore *stv, size_t n)
{
	uint64_t used;

	used = __atomic_sub_fetch(&stv->used, n, __ATOMIC_RELAXED);
	stv_space(stv, used);
}

void *
STV_Alloc(struct worker *wrk, struct stevedore *stv, size_t size,
    enum stv_need need, size_t *charged)
{
	void *p;
	size_t u;

	CHECK_OBJ(stv, STEVEDORE_MAGIC);
	SMA_Add(stv, c_req, 1);
	p = size <= stv->limit || need == STV_MUST ? malloc(size) : NULL;
	if (p == NULL) {
		SMA_Add(stv, c_fail, 1);
		return (NULL);
	}
	u = STV_Usable(p);
	if (stv_reserve(wrk, stv, u, need) != 0) {
		free(p);
		SMA_Add(stv, c_fail, 1);
		return (NULL);
	}
	SMA_Add(stv, c_bytes, u);
	SMA_Add(stv, g_alloc, 1);
	SMA_Add(stv, g_bytes, u);
	if (charged != NULL)
		*charged = u;
	return (p);
}

void
STV_Free(struct stevedore *stv, void *p)
{
	size_t charged = STV_Usable(p);

	CHECK_OBJ(stv, STEVEDORE_MAGIC);
	free(p);
	stv_release(stv, charged);
	SMA_Add(stv, c_freed, charged);
	SMA_Sub(stv, g_alloc, 1);
	SMA_Sub(stv, g_bytes, charged);
}

int
STV_Charge(struct worker *wrk, struct stevedore *stv, size_t n,
    enum stv_need need)
{

	CHECK_OBJ(stv, STEVEDORE_MAGIC);
	if (stv_reserve(wrk, stv, n, need) != 0) {
		SMA_Add(stv, c_fail, 1);
		return (-1);
	}
	SMA_Add(stv, c_bytes, n);
	SMA_Add(stv, g_bytes, n);
	return (0);
}

void
STV_Uncharge(struct stevedore *stv, size_t n)
{

	CHECK_OBJ(stv, STEVEDORE_MAGIC);
	stv_release(stv, n);
	SMA_Add(stv, c_freed, n);
	SMA_Sub(stv, g_bytes, n);
}

/*--------------------------------------------------------------------
 * LRU
 */

static uint32_t
lru_stamp(vtim_real now)
{

	return ((uint32_t)(uint64_t)now);
}

void
LRU_Add(struct objcore *oc, vtim_real now)
{
	struct stevedore *stv;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	stv = oc->stv;
	CHECK_OBJ(stv, STEVEDORE_MAGIC);
	LOCK_Lock(&stv->lru_mtx);
	assert(oc->lru_list.tqe_prev == NULL);
	TAILQ_INSERT_HEAD(&stv->lru, oc, lru_list);
	__atomic_store_n(&oc->lru_stamp, lru_stamp(now), __ATOMIC_RELAXED);
	LOCK_Unlock(&stv->lru_mtx);
}

void
LRU_Remove(struct objcore *oc)
{
	struct stevedore *stv;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	stv = oc->stv;
	if (stv == NULL)
		return;
	LOCK_Lock(&stv->lru_mtx);
	if (oc->lru_list.tqe_prev != NULL) {
		TAILQ_REMOVE(&stv->lru, oc, lru_list);
		oc->lru_list.tqe_prev = NULL;
	}
	LOCK_Unlock(&stv->lru_mtx);
}

void
LRU_Touch(struct worker *wrk, struct objcore *oc, vtim_real now)
{
	struct stevedore *stv;
	uint32_t stamp = lru_stamp(now);

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	stv = oc->stv;
	/* Transient (short-lived objects, markers): oldest first. */
	if (stv == NULL || stv->transient)
		return;
	/* Unlocked first look: popular objects stay put cheaply. */
	if ((double)(stamp - __atomic_load_n(&oc->lru_stamp,
	    __ATOMIC_RELAXED)) < cache_param->lru_interval)
		return;
	if (LOCK_TryLock(&stv->lru_mtx) != 0)
		return;		/* busy: another time */
	if (oc->lru_list.tqe_prev != NULL) {
		TAILQ_REMOVE(&stv->lru, oc, lru_list);
		TAILQ_INSERT_HEAD(&stv->lru, oc, lru_list);
		VSC_Count(wrk->stats, n_lru_moved, 1);
	}
	__atomic_store_n(&oc->lru_stamp, stamp, __ATOMIC_RELAXED);
	LOCK_Unlock(&stv->lru_mtx);
}

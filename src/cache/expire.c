/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * expire.c -- the expiry thread.  Cached objects sit in a binary heap
 * ordered by the end of their life; the thread sleeps until the first
 * one is due (or a new one is due sooner), then takes it out of the
 * cache, which frees its memory as soon as nobody reads it.  exp_mtx
 * guards the heap and every objcore's exp_idx; the heap's order is
 * OC_End of the timers, which only EXP_Rearm changes while an objcore
 * is in it: holding exp_mtx, it takes the objcore's shard lock (the
 * order hash.c documents) to change them, and re-keys the heap.
 */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "common/binheap.h"
#include "common/lock.h"
#include "common/miniobj.h"
#include "cache/expire.h"
#include "cache/hash.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

static struct lock exp_mtx = LOCK_INITIALIZER;
static pthread_cond_t exp_cond;
static struct binheap *exp_heap;		/* exp_mtx */
static vtim_real exp_next;			/* exp_mtx: the thread's alarm */

static int
exp_less(void *priv, const void *a, const void *b)
{
	const struct objcore *oa = a, *ob = b;

	(void)priv;
	return (OC_End(oa) < OC_End(ob));
}

static void
exp_index(void *priv, void *p, unsigned idx)
{
	struct objcore *oc;

	(void)priv;
	CAST_OBJ_NOTNULL(oc, p, OBJCORE_MAGIC);
	oc->exp_idx = idx;
}

/* Wake the thread if oc is due before it meant to wake. */
static void
exp_poke_locked(const struct objcore *oc)
{

	LOCK_AssertHeld(&exp_mtx);
	if (OC_End(oc) < exp_next)
		ASSERT_ZERO(pthread_cond_signal(&exp_cond));
}

int
EXP_Insert(struct objcore *oc)
{
	int r;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	LOCK_Lock(&exp_mtx);
	assert(oc->exp_idx == BINHEAP_NOIDX);
	r = BINHEAP_Insert(exp_heap, oc);
	if (r == 0)
		exp_poke_locked(oc);
	LOCK_Unlock(&exp_mtx);
	return (r);
}

void
EXP_Remove(struct objcore *oc)
{

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	LOCK_Lock(&exp_mtx);
	if (oc->exp_idx != BINHEAP_NOIDX)
		BINHEAP_Delete(exp_heap, oc->exp_idx);
	assert(oc->exp_idx == BINHEAP_NOIDX);
	LOCK_Unlock(&exp_mtx);
}

int
EXP_Rearm(struct objcore *oc, vtim_real now, vtim_dur ttl, vtim_dur grace,
    vtim_dur keep)
{
	int r;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	LOCK_Lock(&exp_mtx);
	/*
	 * Under exp_mtx the heap cannot look at oc while its timers change;
	 * not on the heap yet (HSH_Unbusy's EXP_Insert still to come) is
	 * fine too: the insert will read the new ones.
	 */
	r = HSH_Retime(oc, now, ttl, grace, keep);
	if (r == 0 && oc->exp_idx != BINHEAP_NOIDX) {
		BINHEAP_Reorder(exp_heap, oc->exp_idx);
		exp_poke_locked(oc);
	}
	LOCK_Unlock(&exp_mtx);
	return (r);
}

/* The next object due by now, off the heap, with a reference; or NULL. */
static struct objcore *
exp_next_due(vtim_real now)
{
	struct objcore *oc;
	struct timespec ts;

	LOCK_Lock(&exp_mtx);
	oc = BINHEAP_Root(exp_heap);
	if (oc != NULL && OC_End(oc) <= now) {
		BINHEAP_Delete(exp_heap, oc->exp_idx);
		/* On the heap means the cache's reference is there. */
		OBJ_Ref(oc);
		LOCK_Unlock(&exp_mtx);
		return (oc);
	}
	/* Sleep until it is due, a second at most (the clock may jump). */
	exp_next = now + 1;
	if (oc != NULL && OC_End(oc) < exp_next)
		exp_next = OC_End(oc);
	ts = TIM_timespec(exp_next);
	(void)LOCK_TimedWait(&exp_cond, &exp_mtx, &ts);
	exp_next = 0;
	LOCK_Unlock(&exp_mtx);
	return (NULL);
}

static void * __attribute__((__noreturn__))
exp_thread(void *priv)
{
	struct worker wrk[1];
	struct vsc_worker stats[1];
	struct objcore *oc;
	char vslbuf[1024];
	struct vsl_log vsl[1];

	(void)priv;
	(void)pthread_setname_np(pthread_self(), "cache-exp");
	INIT_OBJ(wrk, WORKER_MAGIC);
	VSC_WorkerInit(stats);
	wrk->stats = stats;
	VSL_Setup(vsl, vslbuf, sizeof vslbuf);
	VSL_SetId(vsl, 0);
	for (;;) {
		oc = exp_next_due(TIM_real());
		if (oc == NULL) {
			VSC_Publish(stats);
			continue;
		}
		if (HSH_Kill(wrk, oc)) {
			VSC_Count(stats, n_expired, 1);
			VSLb(vsl, SLT_ExpKill, "EXP_Expired x=%u t=%.0f",
			    oc->xid, TIM_real() - OC_End(oc));
		}
		(void)OBJ_Deref(&oc);
		VSL_Flush(vsl);
	}
}

void
EXP_Init(void)
{
	pthread_t thr;

	exp_heap = BINHEAP_New(NULL, exp_less, exp_index);
	assert(exp_heap != NULL);
	ASSERT_ZERO(pthread_cond_init(&exp_cond, NULL));
	ASSERT_ZERO(pthread_create(&thr, NULL, exp_thread, NULL));
	ASSERT_ZERO(pthread_detach(thr));
}

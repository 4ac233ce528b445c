/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * pool.c -- worker thread pools: the task queue, the workers, the herder
 * that breeds threads.  Owns struct pool and pool->mtx.  Lock order:
 * pool->mtx is a leaf (nothing else is taken while holding it).
 *
 * Idle workers wait on their own condition variable in a LIFO list, so a
 * task goes to the most recently active (cache-warm) thread, and the
 * least recently used ones are the ones that time out and retire.
 *
 * The linger set: a keep-alive session that has no next request yet
 * stays in its pool's linger set (an epoll set) for timeout_linger
 * before it goes to the waiter.  Free workers, the leaders (as many per
 * pool as it takes to keep the CPUs we may run on busy), wait on that
 * set and serve whichever session becomes readable themselves.  A
 * loaded pool therefore serves back-to-back requests from many
 * connections on one thread without a wake-up and a context switch for
 * each, which a thread lingering on its own connection (or the waiter's
 * hand-over) costs.  That takes one epoll_ctl per request (re-arming),
 * which measures far cheaper than the switch.
 *
 * A pass whose request has gone to the backend waits in the same set
 * without a worker (POOL_Await): its backend connection is watched
 * like a parked session, with first_byte_timeout as its deadline, and
 * the leader that sees the answer (or the clock) goes on with it.  A
 * pass then costs no thread while the backend thinks, and no wake-ups
 * and context switches for a thread to sleep and wake.
 *
 * A leader gives up its lead to serve.  A worker about to block
 * (POOL_Blocking) while nobody leads wakes an idle worker to lead, and
 * the herder does the same when the set has had sessions and no leader
 * for a whole tick, so a readable session never waits long behind a
 * busy worker.  pool->lmtx guards the set's list and slots.
 */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/child.h"
#include "cache/mempool.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/session.h"
#include "cache/vsc.h"
#include "cache/vsl.h"
#include "cache/waiter.h"

#define POOL_LWAIT		32	/* most epoll events one wait takes */

struct pool {
	unsigned		magic;
#define POOL_MAGIC		0x415d1ca5
	unsigned		idx;		/* const */
	struct lock		mtx;
	pthread_cond_t		herder_cond;	/* mtx */
	TAILQ_HEAD(, worker)	idle;		/* mtx */
	TAILQ_HEAD(, pool_task)	queue[TASK__N];	/* mtx */
	unsigned		nthr;		/* mtx: including starting */
	unsigned		nstarting;	/* mtx: bred, not yet waiting */
	unsigned		lqueue;		/* mtx; atomic reads */
	unsigned		lqueue_bo;	/* mtx: of which TASK_BO */
	unsigned		limited;	/* mtx: at max with a queue */
	unsigned		dropped;	/* mtx: dropped work since breed */
	int			task_efd;	/* const: wakes a leader */

	/* The linger set (see above) */
	int			lep;		/* const: its epoll set */
	struct lock		lmtx;
	TAILQ_HEAD(, sess)	lset;		/* lmtx: oldest first */
	unsigned		nlset;		/* lmtx; atomic reads */
	struct lslot		*lslot;		/* lmtx: [lslot_n] */
	uint32_t		*lslot_free;	/* lmtx: free slot indexes */
	uint32_t		lslot_n;	/* lmtx */
	uint32_t		lslot_nfree;	/* lmtx */
	/*
	 * Requests awaiting their backend (POOL_Await), in the set too;
	 * this list has those with a deadline, earliest first.
	 */
	TAILQ_HEAD(pool_awaits, pool_await) awaits;	/* lmtx */
	vtim_mono		lead_wake;	/* lmtx: a waiting leader's due */
	unsigned		due_reset;	/* atomic: deadlines came sooner */
	/*
	 * Events one epoll_wait returned beyond the one its leader took:
	 * the next leader takes them before it waits again (one system
	 * call for a burst, not one per request).  Each names a slot and
	 * its generation, as in the epoll set; a session moved to the
	 * waiter meanwhile makes its event stale, dropped when taken.
	 */
	uint64_t		*lready;	/* lmtx: a ring [lready_size] */
	unsigned		lready_h;	/* lmtx: first */
	unsigned		lready_n;	/* lmtx; atomic reads */
	unsigned		lready_resv;	/* lmtx: room waits may fill */
	unsigned		nleading;	/* atomic: workers leading */
	unsigned		lead_wanted;	/* atomic: lead_task on its way */
	unsigned		lead_gen;	/* atomic: leads taken */
	unsigned		lead_gen_seen;	/* herder */
	vtim_mono		t_lead_seen;	/* herder: when it looked */
	struct pool_task	lead_task;	/* wakes a worker to lead */
	pthread_t		herder;		/* const */
	struct waiter		*waiter;	/* const */
	struct mempool		*mpl_sess;	/* const */
	struct mempool		*mpl_req;	/* const */
	struct mempool		*mpl_bo;	/* const */
};

static struct pool **pools;		/* const after POOL_Init */
static unsigned npools;			/* const after POOL_Init */
static unsigned pool_rr;		/* atomic */
static pthread_condattr_t pool_condattr;	/* const: CLOCK_MONOTONIC */
static __thread struct worker *pool_tls_wrk;

static uint32_t pool_vxid = 1;		/* atomic: next unallocated block */
#define VXID_BLOCK		1024U
static uint32_t pool_vxid_chunk = VXID_BLOCK;	/* atomic: block size */
static uint32_t pool_vxid_gen;		/* atomic: bumped by debug.xid */

/*--------------------------------------------------------------------*/

static struct pool_task *
pool_dequeue_locked(struct pool *pp)
{
	struct pool_task *t;
	unsigned u;

	LOCK_AssertHeld(&pp->mtx);
	for (u = 0; u < TASK__N; u++) {
		t = TAILQ_FIRST(&pp->queue[u]);
		if (t == NULL)
			continue;
		TAILQ_REMOVE(&pp->queue[u], t, list);
		__atomic_sub_fetch(&pp->lqueue, 1, __ATOMIC_RELAXED);
		if (u == TASK_BO)
			pp->lqueue_bo--;
		VSC_Sub(thread_queue_len, 1);
		return (t);
	}
	return (NULL);
}

static void
pool_wake_leader(struct pool *pp)
{
	uint64_t one = 1;

	/* Failure (counter full) only delays the task to a free thread. */
	(void)!write(pp->task_efd, &one, sizeof one);
}

int
POOL_Task(struct pool *pp, struct pool_task *task, enum task_prio prio)
{
	struct worker *wrk;

	CHECK_OBJ(pp, POOL_MAGIC);
	assert(task != NULL && task->func != NULL);
	assert(prio < TASK__N);
	LOCK_Lock(&pp->mtx);
	wrk = TAILQ_FIRST(&pp->idle);
	if (wrk != NULL) {
		CHECK_OBJ(wrk, WORKER_MAGIC);
		TAILQ_REMOVE(&pp->idle, wrk, list);
		assert(wrk->task.func == NULL);
		wrk->task = *task;
		ASSERT_ZERO(pthread_cond_signal(&wrk->cond));
		LOCK_Unlock(&pp->mtx);
		return (0);
	}
	/*
	 * Only new sessions are refused.  Fetches get threads beyond the
	 * limit; a parked session that became readable (a slow client's
	 * next bytes, a keep-alive request) already holds its memory and
	 * its place, so it waits its turn instead of being dropped: under
	 * thousands of trickling clients, dropping them lost clients that
	 * were within their timeouts (issue 11).
	 */
	if (prio == TASK_VCA && pp->lqueue - pp->lqueue_bo >=
	    cache_param->thread_queue_limit) {
		/* Dropped, but tell the herder a thread was wanted. */
		pp->dropped = 1;
		ASSERT_ZERO(pthread_cond_signal(&pp->herder_cond));
		LOCK_Unlock(&pp->mtx);
		return (-1);
	}
	TAILQ_INSERT_TAIL(&pp->queue[prio], task, list);
	__atomic_add_fetch(&pp->lqueue, 1, __ATOMIC_RELAXED);
	if (prio == TASK_BO)
		pp->lqueue_bo++;
	VSC_Add(thread_queue_len, 1);
	if (prio == TASK_VCA)
		VSC_Add(sess_queued, 1);
	ASSERT_ZERO(pthread_cond_signal(&pp->herder_cond));
	LOCK_Unlock(&pp->mtx);
	/* A leader, waiting on the linger set, can take it. */
	if (__atomic_load_n(&pp->nleading, __ATOMIC_SEQ_CST) > 0)
		pool_wake_leader(pp);
	return (0);
}

/*
 * Wait for a task.  Returns 1 with *t set, or 0 when this thread should
 * retire (idle past thread_pool_timeout with more than thread_pool_min
 * threads).  Called and returns with pp->mtx held.
 */
static int
pool_wait_locked(struct pool *pp, struct worker *wrk, struct pool_task *t)
{
	struct timespec ts;
	vtim_mono deadline;
	int i;

	LOCK_AssertHeld(&pp->mtx);
	wrk->task.func = NULL;
	wrk->lastused = TIM_mono();
	deadline = wrk->lastused + cache_param->thread_pool_timeout;
	TAILQ_INSERT_HEAD(&pp->idle, wrk, list);
	for (;;) {
		ts = TIM_timespec(deadline);
		i = LOCK_TimedWait(&wrk->cond, &pp->mtx, &ts);
		assert(i == 0 || i == ETIMEDOUT || i == EINTR);
		if (wrk->task.func != NULL) {
			/* POOL_Task took us off the idle list */
			*t = wrk->task;
			return (1);
		}
		/* thread_pool_max was lowered: the herder woke us to go. */
		if (pp->nthr > cache_param->thread_pool_max &&
		    pp->nthr > cache_param->thread_pool_min) {
			TAILQ_REMOVE(&pp->idle, wrk, list);
			return (0);
		}
		if (TIM_mono() < deadline)
			continue;
		if (pp->nthr > cache_param->thread_pool_min) {
			TAILQ_REMOVE(&pp->idle, wrk, list);
			return (0);
		}
		deadline = TIM_mono() + cache_param->thread_pool_timeout;
	}
}

/*--------------------------------------------------------------------
 * The linger set and its leaders
 *
 * An epoll event names a session by slot and generation, not by pointer:
 * with several leaders, one may move a session to the waiter (which may
 * close and free it) while another holds an event for it; that event then
 * finds its slot's generation changed and is dropped.
 */

#define LSLOT_TASK_EFD		UINT64_MAX	/* epoll data of task_efd */

struct lslot {
	struct sess		*sp;		/* a parked session, or */
	struct pool_await	*aw;		/* a request (both NULL: free) */
	uint32_t		gen;
};

static unsigned pool_lead_max;		/* const: leaders per pool */
static unsigned pool_lready_share;	/* const: events one wait takes */
static unsigned pool_lready_size;	/* const: every leader's share */

/* Take a lead if the set has sessions and fewer than lead_max lead. */
static int
pool_lead_take(struct pool *pp)
{
	unsigned n;

	if (__atomic_load_n(&pp->nlset, __ATOMIC_SEQ_CST) == 0)
		return (0);
	n = __atomic_load_n(&pp->nleading, __ATOMIC_SEQ_CST);
	do {
		if (n >= pool_lead_max)
			return (0);
	} while (!__atomic_compare_exchange_n(&pp->nleading, &n, n + 1, 0,
	    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	(void)__atomic_add_fetch(&pp->lead_gen, 1, __ATOMIC_RELAXED);
	return (1);
}

/* A deadline came sooner than the leaders know: have one look again. */
static void
pool_due_sooner(struct pool *pp)
{

	__atomic_store_n(&pp->due_reset, 1, __ATOMIC_SEQ_CST);
	pool_wake_leader(pp);
}

static void
pool_lead_give(struct pool *pp)
{

	(void)__atomic_sub_fetch(&pp->nleading, 1, __ATOMIC_SEQ_CST);
}

static void
pool_lead_task(struct worker *wrk, void *priv)
{
	struct pool *pp;

	(void)wrk;
	CAST_OBJ_NOTNULL(pp, priv, POOL_MAGIC);
	/* Back in pool_worker, this thread takes a lead if still needed. */
	__atomic_store_n(&pp->lead_wanted, 0, __ATOMIC_SEQ_CST);
}

/* Have an idle worker take a lead (at most one on its way). */
static void
pool_want_lead(struct pool *pp)
{
	unsigned zero = 0;

	if (!__atomic_compare_exchange_n(&pp->lead_wanted, &zero, 1, 0,
	    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	if (POOL_Task(pp, &pp->lead_task, TASK_REQ) != 0)
		__atomic_store_n(&pp->lead_wanted, 0, __ATOMIC_SEQ_CST);
}

/* Free a slot of the set (stale events die here).  lmtx held. */
static void
pool_slot_free_locked(struct pool *pp, uint32_t idx)
{
	struct lslot *sl;

	LOCK_AssertHeld(&pp->lmtx);
	assert(idx < pp->lslot_n);
	sl = &pp->lslot[idx];
	sl->sp = NULL;
	sl->aw = NULL;
	sl->gen++;
	pp->lslot_free[pp->lslot_nfree++] = idx;
	(void)__atomic_sub_fetch(&pp->nlset, 1, __ATOMIC_SEQ_CST);
}

/* A parked session out of the set.  lmtx held. */
static void
pool_lset_remove_locked(struct pool *pp, struct sess *sp)
{

	assert(sp->lslot < pp->lslot_n && pp->lslot[sp->lslot].sp == sp);
	TAILQ_REMOVE(&pp->lset, sp, wlist);
	pool_slot_free_locked(pp, sp->lslot);
}

/* An awaiting request out of the set.  lmtx held. */
static void
pool_await_remove_locked(struct pool *pp, struct pool_await *aw)
{

	assert(aw->slot < pp->lslot_n && pp->lslot[aw->slot].aw == aw);
	if (aw->deadline > 0)
		TAILQ_REMOVE(&pp->awaits, aw, list);
	pool_slot_free_locked(pp, aw->slot);
}

/* A free slot, growing the table if need be; UINT32_MAX if no memory. */
static uint32_t
pool_lslot_get_locked(struct pool *pp)
{
	struct lslot *nsl;
	uint32_t *nfree, n, u;

	LOCK_AssertHeld(&pp->lmtx);
	if (pp->lslot_nfree == 0) {
		n = pp->lslot_n > 0 ? pp->lslot_n * 2 : 256;
		if (n > (1U << 30))
			return (UINT32_MAX);
		nsl = realloc(pp->lslot, n * sizeof *nsl);
		if (nsl == NULL)
			return (UINT32_MAX);
		pp->lslot = nsl;
		nfree = realloc(pp->lslot_free, n * sizeof *nfree);
		if (nfree == NULL)
			return (UINT32_MAX);
		pp->lslot_free = nfree;
		for (u = n; u > pp->lslot_n; u--) {
			nsl[u - 1].sp = NULL;
			nsl[u - 1].aw = NULL;
			nsl[u - 1].gen = 0;
			nfree[pp->lslot_nfree++] = u - 1;
		}
		pp->lslot_n = n;
	}
	return (pp->lslot_free[--pp->lslot_nfree]);
}

/*
 * Move to the waiter the sessions whose time in the set is up (all of
 * them when the child drains), and hand the requests whose backend is
 * late to workers, timed out.  Returns the milliseconds until the next
 * one is due (when, in *next), -1 when none has a deadline.
 */
static int
pool_lset_expire(struct pool *pp, vtim_mono now, vtim_mono *next)
{
	TAILQ_HEAD(, sess) due;
	TAILQ_HEAD(, pool_await) late;
	struct pool_await *aw, *aw2;
	struct sess *sp, *sp2;
	int ms = -1;

	TAILQ_INIT(&due);
	TAILQ_INIT(&late);
	*next = 0;
	LOCK_Lock(&pp->lmtx);
	while ((sp = TAILQ_FIRST(&pp->lset)) != NULL) {
		if (sp->t_lset_end > now && !child_draining) {
			*next = sp->t_lset_end;
			break;
		}
		pool_lset_remove_locked(pp, sp);
		TAILQ_INSERT_TAIL(&due, sp, wlist);
	}
	while ((aw = TAILQ_FIRST(&pp->awaits)) != NULL) {
		if (aw->deadline > now) {
			if (*next == 0 || aw->deadline < *next)
				*next = aw->deadline;
			break;
		}
		pool_await_remove_locked(pp, aw);
		TAILQ_INSERT_TAIL(&late, aw, list);
	}
	LOCK_Unlock(&pp->lmtx);
	if (*next > 0)
		ms = TIM_poll_ms(*next - now);
	TAILQ_FOREACH_SAFE(sp, &due, wlist, sp2) {
		TAILQ_REMOVE(&due, sp, wlist);
		/* The waiter watches it now; this set must not. */
		(void)epoll_ctl(pp->lep, EPOLL_CTL_DEL, sp->fd, NULL);
		sp->lep_reg = 0;
		SES_Herd(sp);
	}
	TAILQ_FOREACH_SAFE(aw, &late, list, aw2) {
		TAILQ_REMOVE(&late, aw, list);
		(void)epoll_ctl(pp->lep, EPOLL_CTL_DEL, aw->fd, NULL);
		aw->timed_out = 1;
		/* Backend work: never dropped. */
		ASSERT_ZERO(POOL_Task(pp, &aw->task, TASK_BO));
	}
	return (ms);
}

/* Keep the session events of a wait for the leaders.  lmtx held. */
static void
pool_lready_put_locked(struct pool *pp, const struct epoll_event *ev,
    int n)
{
	int i;

	LOCK_AssertHeld(&pp->lmtx);
	for (i = 0; i < n; i++) {
		if (ev[i].data.u64 == LSLOT_TASK_EFD)
			continue;
		/* Its wait reserved the room (lready_resv). */
		assert(pp->lready_n < pool_lready_size);
		pp->lready[(pp->lready_h + pp->lready_n) % pool_lready_size] =
		    ev[i].data.u64;
		(void)__atomic_add_fetch(&pp->lready_n, 1, __ATOMIC_SEQ_CST);
	}
}

/*
 * The task of the first kept event whose session or request is still
 * in the set, taken out of it: 1 with *t, 0 when none (stale events
 * are dropped on the way).
 */
static int
pool_lready_take(struct pool *pp, struct pool_task *t)
{
	struct pool_await *aw;
	struct lslot *sl;
	struct sess *sp;
	uint64_t data;
	uint32_t idx, gen;
	int found = 0;

	if (__atomic_load_n(&pp->lready_n, __ATOMIC_SEQ_CST) == 0)
		return (0);
	LOCK_Lock(&pp->lmtx);
	while (!found && pp->lready_n > 0) {
		data = pp->lready[pp->lready_h];
		pp->lready_h = (pp->lready_h + 1) % pool_lready_size;
		(void)__atomic_sub_fetch(&pp->lready_n, 1, __ATOMIC_SEQ_CST);
		idx = (uint32_t)data;
		gen = (uint32_t)(data >> 32);
		if (idx >= pp->lslot_n || pp->lslot[idx].gen != gen)
			continue;
		sl = &pp->lslot[idx];
		if (sl->sp != NULL) {
			sp = sl->sp;
			CHECK_OBJ(sp, SESS_MAGIC);
			pool_lset_remove_locked(pp, sp);
			sp->task.func = H1_Session;
			sp->task.priv = sp;
			*t = sp->task;
			found = 1;
		} else if (sl->aw != NULL) {
			aw = sl->aw;
			pool_await_remove_locked(pp, aw);
			*t = aw->task;
			found = 1;
		}
	}
	LOCK_Unlock(&pp->lmtx);
	return (found);
}

/* ms, or less if a deadline in the set comes sooner.  lmtx held. */
static int
pool_wait_ms_locked(struct pool *pp, vtim_mono now, int ms)
{
	struct pool_await *aw;
	struct sess *sp;
	vtim_mono t = 0;

	LOCK_AssertHeld(&pp->lmtx);
	sp = TAILQ_FIRST(&pp->lset);
	if (sp != NULL)
		t = sp->t_lset_end;
	aw = TAILQ_FIRST(&pp->awaits);
	if (aw != NULL && (t == 0 || aw->deadline < t))
		t = aw->deadline;
	if (t > 0 && (ms < 0 || t < now + ms * 1e-3))
		ms = t > now ? TIM_poll_ms(t - now) : 0;
	return (ms);
}

/*
 * Lead: wait on the linger set.  Returns 1 with a readable session's
 * task in *t, 0 for queued work or because the set emptied; the lead is
 * given up either way.  Called with a lead taken and without pp->mtx.
 */
static int
pool_lead(struct pool *pp, struct pool_task *t)
{
	struct epoll_event ev[POOL_LWAIT];
	vtim_mono now, due = 0;
	uint64_t v;
	unsigned want;
	int i, ms, n;

	for (;;) {
		if (__atomic_load_n(&pp->lqueue, __ATOMIC_SEQ_CST) > 0) {
			pool_lead_give(pp);
			return (0);
		}
		if (pool_lready_take(pp, t)) {
			pool_lead_give(pp);
			return (1);
		}
		/*
		 * Sessions join at the tail with the latest deadline, so
		 * the head's deadline only grows (timeout_linger lowered
		 * at run time aside): until it is due there is nothing to
		 * expire (and no lock to take for it).
		 */
		now = TIM_mono();
		if (now >= due || child_draining ||
		    __atomic_exchange_n(&pp->due_reset, 0, __ATOMIC_SEQ_CST))
			ms = pool_lset_expire(pp, now, &due);
		else
			ms = TIM_poll_ms(due - now);
		if (__atomic_load_n(&pp->nlset, __ATOMIC_SEQ_CST) == 0) {
			pool_lead_give(pp);
			/* A session parked meanwhile must not go unwatched. */
			if (!pool_lead_take(pp))
				return (0);
			continue;
		}
		/*
		 * Only as many events as the ring has room for: several
		 * leaders may wait at once, and what one returns must be
		 * kept till a leader takes it (EPOLLONESHOT: epoll will
		 * not say it again).
		 */
		LOCK_Lock(&pp->lmtx);
		want = pool_lready_size - pp->lready_n - pp->lready_resv;
		if (want > pool_lready_share)
			want = pool_lready_share;
		pp->lready_resv += want;
		/*
		 * What POOL_Linger and POOL_Await compare with: what they
		 * added before this is looked at here, what they add after
		 * wakes a leader if it is due sooner.
		 */
		ms = pool_wait_ms_locked(pp, now, ms);
		pp->lead_wake = ms < 0 ? 1e300 : now + ms * 1e-3;
		LOCK_Unlock(&pp->lmtx);
		if (want == 0)
			continue;	/* the ring is full: serve it */
		n = epoll_wait(pp->lep, ev, (int)want, ms);
		if (n < 0 && errno != EINTR) {
			/* Cannot happen; a pause keeps it from spinning. */
			VSL(SLT_Error, 0, "linger set: epoll_wait: %s",
			    strerror(errno));
			TIM_sleep(0.01);
		}
		for (i = 0; i < n; i++) {
			/* Work was queued (or a stale unit: work taken). */
			if (ev[i].data.u64 == LSLOT_TASK_EFD)
				(void)!read(pp->task_efd, &v, sizeof v);
		}
		LOCK_Lock(&pp->lmtx);
		pp->lready_resv -= want;
		if (n > 0)
			pool_lready_put_locked(pp, ev, n);
		LOCK_Unlock(&pp->lmtx);
	}
}

/*
 * A free slot, and fd armed (one shot) in the set with its event naming
 * it (known: fd is in the set already, disarmed).  The caller fills the
 * slot before it lets go of lmtx.  UINT32_MAX when either fails.
 */
static uint32_t
pool_arm_locked(struct pool *pp, int fd, unsigned known)
{
	struct epoll_event ev;
	uint32_t idx;
	int i;

	LOCK_AssertHeld(&pp->lmtx);
	idx = pool_lslot_get_locked(pp);
	if (idx == UINT32_MAX)
		return (idx);
	ev.events = EPOLLIN | EPOLLONESHOT;
	ev.data.u64 = (uint64_t)pp->lslot[idx].gen << 32 | idx;
	i = epoll_ctl(pp->lep, known ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd,
	    &ev);
	/* Where known may be wrong, the other operation does. */
	if (i != 0 && errno == EEXIST)
		i = epoll_ctl(pp->lep, EPOLL_CTL_MOD, fd, &ev);
	else if (i != 0 && errno == ENOENT)
		i = epoll_ctl(pp->lep, EPOLL_CTL_ADD, fd, &ev);
	if (i != 0) {
		pp->lslot_free[pp->lslot_nfree++] = idx;
		return (UINT32_MAX);
	}
	return (idx);
}

int
POOL_Linger(struct sess *sp)
{
	struct pool *pp;
	vtim_dur tmo;
	uint32_t idx;
	int i;

	CHECK_OBJ(sp, SESS_MAGIC);
	pp = sp->pool;
	CHECK_OBJ(pp, POOL_MAGIC);
	if (cache_param->timeout_linger <= 0 || child_draining)
		return (-1);
	/* Only the waiter closes idle sessions: be there by timeout_idle. */
	tmo = cache_param->timeout_linger;
	if (cache_param->timeout_idle > 0 && cache_param->timeout_idle < tmo)
		tmo = cache_param->timeout_idle;
	sp->t_lset_end = TIM_mono() + tmo;
	/* Under lmtx: a leader may take it the moment it is armed. */
	LOCK_Lock(&pp->lmtx);
	idx = pool_arm_locked(pp, sp->fd, sp->lep_reg);
	if (idx == UINT32_MAX) {
		LOCK_Unlock(&pp->lmtx);
		return (-1);
	}
	sp->lep_reg = 1;
	sp->lslot = idx;
	pp->lslot[idx].sp = sp;
	/*
	 * Heading an empty set (only awaited requests in it), its time
	 * may be up before a waiting leader looks: wake one to look.
	 */
	i = TAILQ_EMPTY(&pp->lset) && sp->t_lset_end < pp->lead_wake;
	TAILQ_INSERT_TAIL(&pp->lset, sp, wlist);
	(void)__atomic_add_fetch(&pp->nlset, 1, __ATOMIC_SEQ_CST);
	LOCK_Unlock(&pp->lmtx);
	if (i)
		pool_due_sooner(pp);
	return (0);
}

int
POOL_Await(struct pool *pp, struct pool_await *aw, int fd,
    vtim_mono deadline)
{
	struct pool_await *aw2;
	uint32_t idx;
	int sooner = 0;

	CHECK_OBJ(pp, POOL_MAGIC);
	aw->fd = fd;
	aw->timed_out = 0;
	aw->deadline = deadline;
	/* Under lmtx: a leader may take it the moment it is armed. */
	LOCK_Lock(&pp->lmtx);
	/* Its connection may have waited here before: then it is known. */
	idx = pool_arm_locked(pp, fd, 0);
	if (idx == UINT32_MAX) {
		LOCK_Unlock(&pp->lmtx);
		return (-1);
	}
	aw->slot = idx;
	pp->lslot[idx].aw = aw;
	if (deadline > 0) {
		/* From the end: most come with the latest deadline. */
		TAILQ_FOREACH_REVERSE(aw2, &pp->awaits, pool_awaits, list)
			if (aw2->deadline <= deadline)
				break;
		if (aw2 != NULL)
			TAILQ_INSERT_AFTER(&pp->awaits, aw2, aw, list);
		else
			TAILQ_INSERT_HEAD(&pp->awaits, aw, list);
		/* Due before a waiting leader looks: wake one to look. */
		sooner = deadline < pp->lead_wake;
	}
	(void)__atomic_add_fetch(&pp->nlset, 1, __ATOMIC_SEQ_CST);
	LOCK_Unlock(&pp->lmtx);
	if (sooner)
		pool_due_sooner(pp);
	return (0);
}

void
POOL_Blocking(void)
{
	struct worker *wrk = pool_tls_wrk;
	struct pool *pp;

	if (wrk == NULL)
		return;
	pp = wrk->pool;
	CHECK_OBJ(pp, POOL_MAGIC);
	if (__atomic_load_n(&pp->nlset, __ATOMIC_SEQ_CST) == 0 ||
	    __atomic_load_n(&pp->nleading, __ATOMIC_SEQ_CST) > 0)
		return;
	pool_want_lead(pp);
}

/*--------------------------------------------------------------------
 * The scheduler slice a worker asks for (thread_pool_slice).  Under
 * EEVDF a task with a short slice preempts the running one when it
 * wakes, so a worker whose backend answered need not wait out the slice
 * of a worker that serves hits back to back.  sched_setattr(2) has no
 * glibc wrapper everywhere; the struct is the kernel's (version 1).
 */

struct pool_sched_attr {
	uint32_t	size;
	uint32_t	policy;
	uint64_t	flags;
	int32_t		nice;
	uint32_t	priority;
	uint64_t	runtime;	/* SCHED_OTHER: the slice, in ns */
	uint64_t	deadline;
	uint64_t	period;
	uint32_t	util_min;
	uint32_t	util_max;
};

static void
pool_slice(vtim_dur *applied)
{
	struct pool_sched_attr sa;
	vtim_dur want = cache_param->thread_pool_slice;

	if (want == *applied)
		return;
	*applied = want;
#if defined(SYS_sched_setattr) && defined(SYS_sched_getattr)
	/* Keep what else is set (nice); leave other policies alone. */
	memset(&sa, 0, sizeof sa);
	if (syscall(SYS_sched_getattr, 0, &sa, sizeof sa, 0) != 0 ||
	    sa.policy != SCHED_OTHER)
		return;
	sa.size = sizeof sa;
	sa.runtime = 0;
	if (want > 0)
		sa.runtime = want < 0.0001 ? 100000 : (uint64_t)(want * 1e9);
	/* Refused by an older kernel or a policy: the default slice. */
	(void)syscall(SYS_sched_setattr, 0, &sa, 0);
#else
	(void)sa;
#endif
}

/*--------------------------------------------------------------------*/

static void *
pool_worker(void *priv)
{
	struct pool *pp;
	struct worker wrk[1];
	struct vsc_worker stats;
	struct pool_task *tp, t;
	size_t wslen;
	void *wsmem;
	vtim_dur slice = 0;
	int i;

	CAST_OBJ_NOTNULL(pp, priv, POOL_MAGIC);
	(void)pthread_setname_np(pthread_self(), "cache-worker");
	pool_slice(&slice);
	PANIC_ThreadInit();
	INIT_OBJ(wrk, WORKER_MAGIC);
	VSC_WorkerInit(&stats);
	wrk->stats = &stats;
	wrk->pool = pp;
	ASSERT_ZERO(pthread_cond_init(&wrk->cond, &pool_condattr));
	wslen = cache_param->workspace_thread;
	wsmem = malloc(wslen);
	wrk->iobuf_len = WRK_IOBUF_SIZE;
	wrk->iobuf = malloc(wrk->iobuf_len);
	assert(wsmem != NULL && wrk->iobuf != NULL);
	WS_Init(wrk->aws, "wrk", wsmem, wslen);
	pool_tls_wrk = wrk;

	LOCK_Lock(&pp->mtx);
	pp->nstarting--;
	for (;;) {
		tp = pool_dequeue_locked(pp);
		if (tp != NULL) {
			t = *tp;
		} else if (pool_lead_take(pp)) {
			LOCK_Unlock(&pp->mtx);
			i = pool_lead(pp, &t);
			LOCK_Lock(&pp->mtx);
			if (!i)
				continue;
		} else if (!pool_wait_locked(pp, wrk, &t))
			break;
		LOCK_Unlock(&pp->mtx);
		/*
		 * Serve, then lead again while nothing is queued, without
		 * the pool lock: taken twice a request, it was contended
		 * whenever its holder was preempted (a worker woken by its
		 * backend on a busy CPU), each time two futex calls and two
		 * context switches.
		 */
		do {
			t.func(wrk, t.priv);
			VSC_Publish(wrk->stats);
			pool_slice(&slice);
		} while (__atomic_load_n(&pp->lqueue, __ATOMIC_SEQ_CST) == 0 &&
		    pool_lead_take(pp) && pool_lead(pp, &t));
		LOCK_Lock(&pp->mtx);
	}
	pp->nthr--;
	LOCK_Unlock(&pp->mtx);

	pool_tls_wrk = NULL;
	VSC_WorkerFini(&stats);
	VSC_Sub(threads, 1);
	VSC_Add(threads_destroyed, 1);
	ASSERT_ZERO(pthread_cond_destroy(&wrk->cond));
	free(wrk->iobuf);
	free(wsmem);
	PANIC_ThreadFini();
	return (NULL);
}

static int
pool_breed(struct pool *pp)
{
	pthread_attr_t attr;
	pthread_t tid;
	int i;

	ASSERT_ZERO(pthread_attr_init(&attr));
	ASSERT_ZERO(pthread_attr_setdetachstate(&attr,
	    PTHREAD_CREATE_DETACHED));
	(void)pthread_attr_setstacksize(&attr,
	    (size_t)cache_param->thread_pool_stack);
	i = pthread_create(&tid, &attr, pool_worker, pp);
	ASSERT_ZERO(pthread_attr_destroy(&attr));
	return (i);
}

/* Does the pool need another thread?  pp->mtx held. */
static int
pool_want_thread_locked(struct pool *pp)
{

	LOCK_AssertHeld(&pp->mtx);
	if (pp->nthr < cache_param->thread_pool_min)
		return (1);
	/* Leaders give up the linger set for queued work. */
	if (pp->lqueue <= pp->nstarting +
	    __atomic_load_n(&pp->nleading, __ATOMIC_RELAXED) &&
	    !(pp->dropped && pp->nstarting == 0))
		return (0);
	if (pp->nthr < cache_param->thread_pool_max) {
		pp->limited = 0;
		pp->dropped = 0;
		return (1);
	}
	/*
	 * A backend fetch is what a client thread waits for: were it to
	 * wait for a free thread, all threads could be clients waiting on
	 * fetches nobody runs.  Fetches may use as many threads again.
	 */
	if (!TAILQ_EMPTY(&pp->queue[TASK_BO]) &&
	    pp->nthr < 2 * cache_param->thread_pool_max)
		return (1);
	pp->dropped = 0;
	if (!pp->limited) {
		pp->limited = 1;
		VSC_Add(threads_limited, 1);
	}
	return (0);
}

/*
 * The linger set's safety net: sessions in it and no lead taken for a
 * whole tick (a worker busy or blocked where POOL_Blocking is not
 * called): wake a worker to lead.  Queued tasks wake the herder far
 * more often than that; it only looks once a tick has passed.
 */
#define POOL_HERD_TICK		0.1

static void
pool_herd_lset(struct pool *pp)
{
	vtim_mono now = TIM_mono();
	unsigned gen;

	if (now < pp->t_lead_seen + POOL_HERD_TICK)
		return;
	pp->t_lead_seen = now;
	gen = __atomic_load_n(&pp->lead_gen, __ATOMIC_RELAXED);
	if (gen == pp->lead_gen_seen &&
	    __atomic_load_n(&pp->nlset, __ATOMIC_SEQ_CST) > 0 &&
	    __atomic_load_n(&pp->nleading, __ATOMIC_SEQ_CST) == 0) {
		/* POOL_Task takes pp->mtx, which the herder holds. */
		LOCK_Unlock(&pp->mtx);
		pool_want_lead(pp);
		LOCK_Lock(&pp->mtx);
	}
	pp->lead_gen_seen = gen;
}

/*
 * thread_pool_max lowered below the threads we have (param.set): wake
 * as many idle threads as are too many; each sees it and retires.  Busy
 * ones go when they next find nothing to do.
 */
static void
pool_shrink_locked(struct pool *pp)
{
	struct worker *wrk;
	unsigned n, max = cache_param->thread_pool_max;

	LOCK_AssertHeld(&pp->mtx);
	if (pp->nthr <= max)
		return;
	n = pp->nthr - max;
	TAILQ_FOREACH(wrk, &pp->idle, list) {
		if (n-- == 0)
			break;
		ASSERT_ZERO(pthread_cond_signal(&wrk->cond));
	}
}

static void *
pool_herder(void *priv)
{
	struct pool *pp;
	struct timespec ts;

	CAST_OBJ_NOTNULL(pp, priv, POOL_MAGIC);
	(void)pthread_setname_np(pthread_self(), "cache-herder");
	PANIC_ThreadInit();
	LOCK_Lock(&pp->mtx);
	for (;;) {
		if (pool_want_thread_locked(pp)) {
			pp->nthr++;
			pp->nstarting++;
			LOCK_Unlock(&pp->mtx);
			if (pool_breed(pp) != 0) {
				LOCK_Lock(&pp->mtx);
				pp->nthr--;
				pp->nstarting--;
				LOCK_Unlock(&pp->mtx);
				VSC_Add(threads_failed, 1);
				TIM_sleep(cache_param->thread_pool_fail_delay);
			} else {
				VSC_Add(threads_created, 1);
				VSC_Add(threads, 1);
				TIM_sleep(cache_param->thread_pool_add_delay);
			}
			LOCK_Lock(&pp->mtx);
			continue;
		}
		if (pp->lqueue == 0)
			pp->limited = 0;
		pool_shrink_locked(pp);
		ts = TIM_timespec(TIM_mono() + POOL_HERD_TICK);
		(void)LOCK_TimedWait(&pp->herder_cond, &pp->mtx, &ts);
		pool_herd_lset(pp);
	}
	NEEDLESS(return (NULL));
}

static struct pool *
pool_new(unsigned idx)
{
	struct epoll_event ev;
	struct pool *pp;
	unsigned u;

	ALLOC_OBJ(pp, POOL_MAGIC);
	assert(pp != NULL);
	pp->idx = idx;
	LOCK_Init(&pp->mtx);
	ASSERT_ZERO(pthread_cond_init(&pp->herder_cond, &pool_condattr));
	TAILQ_INIT(&pp->idle);
	for (u = 0; u < TASK__N; u++)
		TAILQ_INIT(&pp->queue[u]);
	/* A unit per queued task: each wakes one leader. */
	pp->task_efd = eventfd(0, EFD_NONBLOCK | EFD_SEMAPHORE | EFD_CLOEXEC);
	assert(pp->task_efd >= 0);
	LOCK_Init(&pp->lmtx);
	TAILQ_INIT(&pp->lset);
	TAILQ_INIT(&pp->awaits);
	pp->lready = calloc(pool_lready_size, sizeof *pp->lready);
	assert(pp->lready != NULL);
	pp->lead_task.func = pool_lead_task;
	pp->lead_task.priv = pp;
	pp->lep = epoll_create1(EPOLL_CLOEXEC);
	assert(pp->lep >= 0);
	ev.events = EPOLLIN;
	ev.data.u64 = LSLOT_TASK_EFD;
	ASSERT_ZERO(epoll_ctl(pp->lep, EPOLL_CTL_ADD, pp->task_efd, &ev));
	pp->mpl_sess = MPL_New("sess", 1000);
	pp->mpl_req = MPL_New("req", 100);
	pp->mpl_bo = MPL_New("bo", 100);
	pp->waiter = WAITER_New(pp);
	ASSERT_ZERO(pthread_create(&pp->herder, NULL, pool_herder, pp));
	return (pp);
}

/*
 * Let the herders start thread_pool_min threads before the child takes
 * traffic: a burst right after a (re)start would otherwise find a few
 * threads and a full queue, and be dropped.  Ten seconds at most; after
 * that the child goes on with what it has.
 */
static void
pool_wait_min(void)
{
	vtim_mono deadline = TIM_mono() + 10;
	unsigned u, ready;

	do {
		for (u = ready = 0; u < npools; u++) {
			LOCK_Lock(&pools[u]->mtx);
			if (pools[u]->nthr >= cache_param->thread_pool_min &&
			    pools[u]->nstarting == 0)
				ready++;
			LOCK_Unlock(&pools[u]->mtx);
		}
		if (ready == npools)
			return;
		TIM_sleep(0.005);
	} while (TIM_mono() < deadline);
}

/*
 * Leaders per pool: enough to keep every CPU we may run on busy serving
 * the linger sets, and no more, so that on a loaded machine a leader
 * finds the next readable session itself instead of waking a thread.
 */
static unsigned
pool_leaders(unsigned npool)
{
	cpu_set_t set;
	int ncpu;

	if (sched_getaffinity(0, sizeof set, &set) == 0)
		ncpu = CPU_COUNT(&set);
	else
		ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	return (((unsigned)ncpu + npool - 1) / npool);
}

void
POOL_Init(void)
{
	unsigned u;

	ASSERT_ZERO(pthread_condattr_init(&pool_condattr));
	ASSERT_ZERO(pthread_condattr_setclock(&pool_condattr,
	    CLOCK_MONOTONIC));
	npools = cache_param->thread_pools;
	assert(npools > 0);
	pool_lead_max = pool_leaders(npools);
	pool_lready_share = POOL_LWAIT / pool_lead_max;
	if (pool_lready_share == 0)
		pool_lready_share = 1;
	/* Room for every leader's wait: a full ring is one to serve. */
	pool_lready_size = pool_lead_max * pool_lready_share;
	pools = calloc(npools, sizeof *pools);
	assert(pools != NULL);
	for (u = 0; u < npools; u++)
		pools[u] = pool_new(u);
	VSC_Add(pools, npools);
	pool_wait_min();
}

struct pool *
POOL_Next(void)
{
	unsigned u;

	u = __atomic_fetch_add(&pool_rr, 1, __ATOMIC_RELAXED);
	return (pools[u % npools]);
}

struct waiter *
POOL_Waiter(const struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	return (pp->waiter);
}

unsigned
POOL_Index(const struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	return (pp->idx);
}

struct mempool *
POOL_MplSess(const struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	return (pp->mpl_sess);
}

struct mempool *
POOL_MplReq(const struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	return (pp->mpl_req);
}

struct mempool *
POOL_MplBo(const struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	return (pp->mpl_bo);
}

uint32_t
WRK_NewVxid(struct worker *wrk)
{
	uint32_t v, n, c, g;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	g = __atomic_load_n(&pool_vxid_gen, __ATOMIC_ACQUIRE);
	if (wrk->vxid_left == 0 || wrk->vxid_gen != g) {
		c = __atomic_load_n(&pool_vxid_chunk, __ATOMIC_RELAXED);
		/* Ids are 30 bits (the log's marker bits); 0 means none. */
		do {
			v = __atomic_fetch_add(&pool_vxid, c,
			    __ATOMIC_RELAXED);
			n = v & VSL_IDENTMASK;
		} while (n == 0 || n + c > VSL_IDENTMASK);
		wrk->vxid_next = n;
		wrk->vxid_left = c;
		wrk->vxid_gen = g;
	}
	wrk->vxid_left--;
	return (wrk->vxid_next++);
}

void
POOL_VxidSet(uint32_t base, uint32_t chunk)
{

	/* Bounded, so that WRK_NewVxid always finds a block that fits. */
	if (chunk < 1)
		chunk = 1;
	if (chunk > 65536)
		chunk = 65536;
	__atomic_store_n(&pool_vxid_chunk, chunk, __ATOMIC_RELAXED);
	__atomic_store_n(&pool_vxid, base + 1, __ATOMIC_RELAXED);
	(void)__atomic_add_fetch(&pool_vxid_gen, 1, __ATOMIC_RELEASE);
}

void
POOL_VxidGet(uint32_t *base, uint32_t *chunk)
{

	*base = __atomic_load_n(&pool_vxid, __ATOMIC_RELAXED) - 1;
	*chunk = __atomic_load_n(&pool_vxid_chunk, __ATOMIC_RELAXED);
}

struct worker *
WRK_Current(void)
{

	return (pool_tls_wrk);
}

void
POOL_DrainWaiters(void)
{
	unsigned u;

	for (u = 0; u < npools; u++) {
		WAITER_Drain(pools[u]->waiter);
		/* A leader empties the linger set into the waiter. */
		if (__atomic_load_n(&pools[u]->nleading, __ATOMIC_SEQ_CST))
			pool_wake_leader(pools[u]);
		else
			pool_want_lead(pools[u]);
	}
}

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
 */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/mempool.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/vsc.h"
#include "cache/vsl.h"
#include "cache/waiter.h"

struct pool {
	unsigned		magic;
#define POOL_MAGIC		0x415d1ca5
	unsigned		idx;		/* const */
	pthread_mutex_t		mtx;
	pthread_cond_t		herder_cond;	/* mtx */
	TAILQ_HEAD(, worker)	idle;		/* mtx */
	TAILQ_HEAD(, pool_task)	queue[TASK__N];	/* mtx */
	unsigned		nthr;		/* mtx: including starting */
	unsigned		nstarting;	/* mtx: bred, not yet waiting */
	unsigned		lqueue;		/* mtx; atomic for POOL_Busy */
	unsigned		lqueue_bo;	/* mtx: of which TASK_BO */
	unsigned		limited;	/* mtx: at max with a queue */
	unsigned		dropped;	/* mtx: dropped work since breed */
	unsigned		nlingering;	/* atomic: workers lingering */
	int			linger_efd;	/* const: wakes a lingerer */
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

/*--------------------------------------------------------------------*/

static struct pool_task *
pool_dequeue_locked(struct pool *pp)
{
	struct pool_task *t;
	unsigned u;

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
pool_wake_lingerer(struct pool *pp)
{
	uint64_t one = 1;

	/* Failure (counter full) only delays the task to a free thread. */
	(void)!write(pp->linger_efd, &one, sizeof one);
}

int
POOL_Task(struct pool *pp, struct pool_task *task, enum task_prio prio)
{
	struct worker *wrk;

	CHECK_OBJ(pp, POOL_MAGIC);
	assert(task != NULL && task->func != NULL);
	assert(prio < TASK__N);
	ASSERT_ZERO(pthread_mutex_lock(&pp->mtx));
	wrk = TAILQ_FIRST(&pp->idle);
	if (wrk != NULL) {
		CHECK_OBJ(wrk, WORKER_MAGIC);
		TAILQ_REMOVE(&pp->idle, wrk, list);
		assert(wrk->task.func == NULL);
		wrk->task = *task;
		ASSERT_ZERO(pthread_cond_signal(&wrk->cond));
		ASSERT_ZERO(pthread_mutex_unlock(&pp->mtx));
		return (0);
	}
	/* Fetches do not count: they get threads beyond the limit. */
	if (prio != TASK_BO && pp->lqueue - pp->lqueue_bo >=
	    cache_param->thread_queue_limit) {
		/* Dropped, but tell the herder a thread was wanted. */
		pp->dropped = 1;
		ASSERT_ZERO(pthread_cond_signal(&pp->herder_cond));
		ASSERT_ZERO(pthread_mutex_unlock(&pp->mtx));
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
	ASSERT_ZERO(pthread_mutex_unlock(&pp->mtx));
	/* A worker lingering on a quiet connection can take it. */
	if (__atomic_load_n(&pp->nlingering, __ATOMIC_RELAXED) > 0)
		pool_wake_lingerer(pp);
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

	wrk->task.func = NULL;
	wrk->lastused = TIM_mono();
	deadline = wrk->lastused + cache_param->thread_pool_timeout;
	TAILQ_INSERT_HEAD(&pp->idle, wrk, list);
	for (;;) {
		ts = TIM_timespec(deadline);
		i = pthread_cond_timedwait(&wrk->cond, &pp->mtx, &ts);
		assert(i == 0 || i == ETIMEDOUT || i == EINTR);
		if (wrk->task.func != NULL) {
			/* POOL_Task took us off the idle list */
			*t = wrk->task;
			return (1);
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

static void *
pool_worker(void *priv)
{
	struct pool *pp;
	struct worker wrk[1];
	struct vsc_worker stats;
	struct pool_task *tp, t;
	size_t wslen;
	void *wsmem;

	CAST_OBJ_NOTNULL(pp, priv, POOL_MAGIC);
	(void)pthread_setname_np(pthread_self(), "cache-worker");
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

	ASSERT_ZERO(pthread_mutex_lock(&pp->mtx));
	pp->nstarting--;
	for (;;) {
		tp = pool_dequeue_locked(pp);
		if (tp != NULL)
			t = *tp;
		else if (!pool_wait_locked(pp, wrk, &t))
			break;
		ASSERT_ZERO(pthread_mutex_unlock(&pp->mtx));
		t.func(wrk, t.priv);
		VSC_Publish(wrk->stats);
		ASSERT_ZERO(pthread_mutex_lock(&pp->mtx));
	}
	pp->nthr--;
	ASSERT_ZERO(pthread_mutex_unlock(&pp->mtx));

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

	if (pp->nthr < cache_param->thread_pool_min)
		return (1);
	/* Lingering workers give up their connection for queued work. */
	if (pp->lqueue <= pp->nstarting +
	    __atomic_load_n(&pp->nlingering, __ATOMIC_RELAXED) &&
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

static void *
pool_herder(void *priv)
{
	struct pool *pp;
	struct timespec ts;

	CAST_OBJ_NOTNULL(pp, priv, POOL_MAGIC);
	(void)pthread_setname_np(pthread_self(), "cache-herder");
	PANIC_ThreadInit();
	ASSERT_ZERO(pthread_mutex_lock(&pp->mtx));
	for (;;) {
		if (pool_want_thread_locked(pp)) {
			pp->nthr++;
			pp->nstarting++;
			ASSERT_ZERO(pthread_mutex_unlock(&pp->mtx));
			if (pool_breed(pp) != 0) {
				ASSERT_ZERO(pthread_mutex_lock(&pp->mtx));
				pp->nthr--;
				pp->nstarting--;
				ASSERT_ZERO(pthread_mutex_unlock(&pp->mtx));
				VSC_Add(threads_failed, 1);
				TIM_sleep(cache_param->thread_pool_fail_delay);
			} else {
				VSC_Add(threads_created, 1);
				VSC_Add(threads, 1);
				TIM_sleep(cache_param->thread_pool_add_delay);
			}
			ASSERT_ZERO(pthread_mutex_lock(&pp->mtx));
			continue;
		}
		if (pp->lqueue == 0)
			pp->limited = 0;
		ts = TIM_timespec(TIM_mono() + 1.0);
		(void)pthread_cond_timedwait(&pp->herder_cond, &pp->mtx, &ts);
	}
	NEEDLESS(return (NULL));
}

static struct pool *
pool_new(unsigned idx)
{
	struct pool *pp;
	unsigned u;

	ALLOC_OBJ(pp, POOL_MAGIC);
	assert(pp != NULL);
	pp->idx = idx;
	ASSERT_ZERO(pthread_mutex_init(&pp->mtx, NULL));
	ASSERT_ZERO(pthread_cond_init(&pp->herder_cond, &pool_condattr));
	TAILQ_INIT(&pp->idle);
	for (u = 0; u < TASK__N; u++)
		TAILQ_INIT(&pp->queue[u]);
	pp->linger_efd = eventfd(0, EFD_NONBLOCK | EFD_SEMAPHORE | EFD_CLOEXEC);
	assert(pp->linger_efd >= 0);
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
			ASSERT_ZERO(pthread_mutex_lock(&pools[u]->mtx));
			if (pools[u]->nthr >= cache_param->thread_pool_min &&
			    pools[u]->nstarting == 0)
				ready++;
			ASSERT_ZERO(pthread_mutex_unlock(&pools[u]->mtx));
		}
		if (ready == npools)
			return;
		TIM_sleep(0.005);
	} while (TIM_mono() < deadline);
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

int
POOL_Busy(const struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	return (__atomic_load_n(&pp->lqueue, __ATOMIC_RELAXED) > 0);
}

int
POOL_LingerBegin(struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	(void)__atomic_add_fetch(&pp->nlingering, 1, __ATOMIC_RELAXED);
	return (pp->linger_efd);
}

void
POOL_LingerEnd(struct pool *pp)
{

	CHECK_OBJ(pp, POOL_MAGIC);
	(void)__atomic_sub_fetch(&pp->nlingering, 1, __ATOMIC_RELAXED);
}

int
POOL_LingerClaim(struct pool *pp)
{
	uint64_t v;

	CHECK_OBJ(pp, POOL_MAGIC);
	if (read(pp->linger_efd, &v, sizeof v) != (ssize_t)sizeof v)
		return (0);		/* another lingerer took it */
	/* A stale wake-up (the work went elsewhere) keeps us lingering. */
	return (POOL_Busy(pp));
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
	uint32_t v, n;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	if (wrk->vxid_left == 0) {
		/* Ids are 30 bits (the log's marker bits); 0 means none. */
		do {
			v = __atomic_fetch_add(&pool_vxid, VXID_BLOCK,
			    __ATOMIC_RELAXED);
			n = v & VSL_IDENTMASK;
		} while (n == 0 || n + VXID_BLOCK > VSL_IDENTMASK);
		wrk->vxid_next = n;
		wrk->vxid_left = VXID_BLOCK;
	}
	wrk->vxid_left--;
	return (wrk->vxid_next++);
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

	for (u = 0; u < npools; u++)
		WAITER_Drain(pools[u]->waiter);
}

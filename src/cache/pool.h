/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * pool.h -- worker thread pools.  Each pool has a queue of tasks and
 * between thread_pool_min and thread_pool_max worker threads; a herder
 * thread adds threads when tasks wait and idle threads retire after
 * thread_pool_timeout.  A task is a function and its argument, usually
 * embedded in what it works on (a session), so queuing allocates nothing.
 */

#ifndef VENEER_CACHE_POOL_H
#define VENEER_CACHE_POOL_H

#include <pthread.h>
#include <stdint.h>
#include <bsd/sys/queue.h>

#include "common/tim.h"
#include "cache/vsc.h"
#include "cache/ws.h"

struct pool;
struct sess;
struct waiter;
struct worker;

typedef void pool_func_f(struct worker *wrk, void *priv);

struct pool_task {
	TAILQ_ENTRY(pool_task)	list;		/* pool->mtx while queued */
	pool_func_f		*func;
	void			*priv;
};

/* Highest priority first; only TASK_BO may exceed thread_queue_limit. */
enum task_prio {
	TASK_BO,	/* backend work a client waits for */
	TASK_REQ,	/* a parked session that became readable */
	TASK_VCA,	/* a newly accepted session */
	TASK__N
};

/* A worker thread; lives on its own stack. */
struct worker {
	unsigned		magic;
#define WORKER_MAGIC		0xd3feed65
	struct pool		*pool;
	pthread_cond_t		cond;
	TAILQ_ENTRY(worker)	list;		/* pool->mtx */
	struct pool_task	task;		/* pool->mtx: handed-over task */
	vtim_mono		lastused;	/* pool->mtx */
	struct vsc_worker	*stats;		/* owner thread */
	uint32_t		vxid_next;	/* owner thread */
	uint32_t		vxid_left;	/* owner thread */
	uint32_t		vxid_gen;	/* owner thread: of the block */
	struct ws		aws[1];		/* scratch: iovecs */
	char			*iobuf;		/* owner: body copies */
	size_t			iobuf_len;
};

#define WRK_IOBUF_SIZE		(64 * 1024)

/* Create the pools, their herders and waiters. */
void POOL_Init(void);
/* Pick a pool round-robin (the acceptor's). */
struct pool *POOL_Next(void);
struct waiter *POOL_Waiter(const struct pool *pp);
/*
 * Keep a session with no request pending in its pool's linger set for
 * timeout_linger (at most timeout_idle), where a leading worker serves
 * it when it becomes readable, or hands it to the waiter when its time
 * is up.
 * Returns 0, or -1 (linger off, shutting down, epoll failed) when the
 * caller must give it to the waiter itself.
 */
int POOL_Linger(struct sess *sp);
/*
 * A worker is about to wait for something outside (a client, a backend,
 * another fetch): make sure somebody watches the linger set meanwhile.
 * Cheap; call it before every wait that can take long.
 */
void POOL_Blocking(void);
/* Shutdown: every waiter and linger set closes its idle sessions. */
void POOL_DrainWaiters(void);
unsigned POOL_Index(const struct pool *pp);

/*
 * A request waiting for its backend's answer without a worker: the
 * pool's leaders watch fd (in the linger set's epoll) and run task
 * when it is readable, or with timed_out set once deadline (TIM_mono;
 * 0: none) has passed.
 */
struct pool_await {
	struct pool_task	task;
	int			fd;
	unsigned		timed_out;
	vtim_mono		deadline;
	uint32_t		slot;		/* pool's, while it waits */
	TAILQ_ENTRY(pool_await)	list;		/* pool's, by deadline */
};

/*
 * Watch aw->fd for aw's task.  0; -1 when it cannot (no memory, epoll
 * refused): the caller goes on waiting itself.  Once it returns 0 the
 * task may be running already: the caller must not touch what it owns.
 */
int POOL_Await(struct pool *pp, struct pool_await *aw, int fd,
    vtim_mono deadline);

/*
 * Give a task to an idle worker or queue it.  Returns 0, or -1 when the
 * queue is full (the caller drops the work and counts it).
 */
int POOL_Task(struct pool *pp, struct pool_task *task, enum task_prio prio);

/* The pool's free lists of session and request memory. */
struct mempool *POOL_MplSess(const struct pool *pp);
struct mempool *POOL_MplReq(const struct pool *pp);
struct mempool *POOL_MplBo(const struct pool *pp);

/* A new transaction id (vxid), from the worker's block of ids. */
uint32_t WRK_NewVxid(struct worker *wrk);
/*
 * debug.xid: the next vxid is base + 1, handed to workers chunk ids at
 * a time (blocks they hold already are dropped); and what they are.
 */
void POOL_VxidSet(uint32_t base, uint32_t chunk);
void POOL_VxidGet(uint32_t *base, uint32_t *chunk);

/* The worker running on this thread, for panic messages. */
struct worker *WRK_Current(void);

#endif /* VENEER_CACHE_POOL_H */

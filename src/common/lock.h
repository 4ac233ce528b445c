/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * lock.h -- mutexes that know their holder, so that a function needing a
 * lock held (one whose name ends in _locked) can assert that it is:
 *
 *	static void
 *	pool_dequeue_locked(struct pool *pp)
 *	{
 *		LOCK_AssertHeld(&pp->mtx);
 *
 * A struct lock is a pthread mutex and the thread holding it.  The cost
 * over a bare mutex: one store when it is taken and one when it is
 * released (the holder), 8 bytes, and for LOCK_AssertHeld a load and a
 * compare with pthread_self() (a register read on Linux).  The holder is
 * written only by the holder, under the mutex; another thread reading it
 * (a failing LOCK_AssertHeld) reads a word stored atomically, so it sees
 * either a holder or none, never half of one.
 *
 * Every lock and wait goes through here (no pthread_mutex_* elsewhere),
 * except the panic handler's, which must not assert.
 */

#ifndef VENEER_COMMON_LOCK_H
#define VENEER_COMMON_LOCK_H

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "common/vas.h"

struct lock {
	pthread_mutex_t		mtx;
	pthread_t		owner;	/* holder; 0: none (never a thread) */
};

#define LOCK_INITIALIZER	{ PTHREAD_MUTEX_INITIALIZER, 0 }

static inline void
lock_set_owner(struct lock *lck, pthread_t owner)
{

	__atomic_store_n(&lck->owner, owner, __ATOMIC_RELAXED);
}

/* Does the calling thread hold lck? */
static inline int
LOCK_Held(const struct lock *lck)
{

	return (pthread_equal(__atomic_load_n(&lck->owner, __ATOMIC_RELAXED),
	    pthread_self()));
}

#define LOCK_AssertHeld(lck)	assert(LOCK_Held(lck))

static inline void
LOCK_Init(struct lock *lck)
{

	ASSERT_ZERO(pthread_mutex_init(&lck->mtx, NULL));
	lck->owner = 0;
}

static inline void
LOCK_Fini(struct lock *lck)
{

	assert(lck->owner == 0);
	ASSERT_ZERO(pthread_mutex_destroy(&lck->mtx));
}

static inline void
LOCK_Lock(struct lock *lck)
{

	ASSERT_ZERO(pthread_mutex_lock(&lck->mtx));
	assert(lck->owner == 0);
	lock_set_owner(lck, pthread_self());
}

/* 0 with lck taken, or EBUSY. */
static inline int
LOCK_TryLock(struct lock *lck)
{
	int i;

	i = pthread_mutex_trylock(&lck->mtx);
	if (i != 0) {
		assert(i == EBUSY);
		return (i);
	}
	assert(lck->owner == 0);
	lock_set_owner(lck, pthread_self());
	return (0);
}

static inline void
LOCK_Unlock(struct lock *lck)
{

	LOCK_AssertHeld(lck);
	lock_set_owner(lck, 0);
	ASSERT_ZERO(pthread_mutex_unlock(&lck->mtx));
}

/* pthread_cond_wait on lck, held; it is held again on return. */
static inline void
LOCK_Wait(pthread_cond_t *cond, struct lock *lck)
{

	LOCK_AssertHeld(lck);
	lock_set_owner(lck, 0);
	ASSERT_ZERO(pthread_cond_wait(cond, &lck->mtx));
	assert(lck->owner == 0);
	lock_set_owner(lck, pthread_self());
}

/* The same until the absolute time ts: 0, or ETIMEDOUT. */
static inline int
LOCK_TimedWait(pthread_cond_t *cond, struct lock *lck,
    const struct timespec *ts)
{
	int i;

	LOCK_AssertHeld(lck);
	lock_set_owner(lck, 0);
	i = pthread_cond_timedwait(cond, &lck->mtx, ts);
	assert(i == 0 || i == ETIMEDOUT);
	assert(lck->owner == 0);
	lock_set_owner(lck, pthread_self());
	return (i);
}

#endif /* VENEER_COMMON_LOCK_H */

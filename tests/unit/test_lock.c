/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_lock.c -- unit tests of struct lock (src/common/lock.h): the
 * holder is known to the thread holding it and to no other, across
 * unlock, trylock and condition waits; LOCK_AssertHeld panics (abort)
 * when the caller does not hold the lock, and so do unlocking a lock not
 * held and taking one twice.
 */

#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include "common/lock.h"

static struct lock t_lock = LOCK_INITIALIZER;

static void *
held_elsewhere(void *priv)
{
	int *held = priv;

	*held = LOCK_Held(&t_lock);
	return (NULL);
}

/* Does another thread believe it holds t_lock? */
static int
held_by_other_thread(void)
{
	pthread_t t;
	int held = -1;

	ck_assert_int_eq(pthread_create(&t, NULL, held_elsewhere, &held), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_ne(held, -1);
	return (held);
}

START_TEST(test_holder)
{

	ck_assert(!LOCK_Held(&t_lock));
	LOCK_Lock(&t_lock);
	ck_assert(LOCK_Held(&t_lock));
	LOCK_AssertHeld(&t_lock);
	ck_assert(!held_by_other_thread());
	LOCK_Unlock(&t_lock);
	ck_assert(!LOCK_Held(&t_lock));

	ck_assert_int_eq(LOCK_TryLock(&t_lock), 0);
	ck_assert(LOCK_Held(&t_lock));
	LOCK_Unlock(&t_lock);
	ck_assert(!LOCK_Held(&t_lock));
}
END_TEST

static void *
try_elsewhere(void *priv)
{
	int *r = priv;

	*r = LOCK_TryLock(&t_lock);
	return (NULL);
}

START_TEST(test_trylock_busy)
{
	pthread_t t;
	int r = -1;

	LOCK_Lock(&t_lock);
	ck_assert_int_eq(pthread_create(&t, NULL, try_elsewhere, &r), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(r, EBUSY);
	/* The failed try changed nothing. */
	ck_assert(LOCK_Held(&t_lock));
	LOCK_Unlock(&t_lock);
}
END_TEST

START_TEST(test_timed_wait)
{
	pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
	struct lock lck;
	struct timespec ts;

	LOCK_Init(&lck);
	LOCK_Lock(&lck);
	ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &ts), 0);
	/* Already past: returns at once, the lock held again. */
	ck_assert_int_eq(LOCK_TimedWait(&cond, &lck, &ts), ETIMEDOUT);
	ck_assert(LOCK_Held(&lck));
	LOCK_Unlock(&lck);
	LOCK_Fini(&lck);
}
END_TEST

START_TEST(test_assert_not_held)
{

	LOCK_AssertHeld(&t_lock);
}
END_TEST

START_TEST(test_assert_held_elsewhere)
{
	struct lock *lck = &t_lock;

	LOCK_Lock(lck);
	/* Now as if another thread held it. */
	lck->owner = (pthread_t)1;
	LOCK_AssertHeld(lck);
}
END_TEST

START_TEST(test_unlock_not_held)
{

	LOCK_Unlock(&t_lock);
}
END_TEST

static Suite *
lock_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("lock");
	tc = tcase_create("lock");
	tcase_add_test(tc, test_holder);
	tcase_add_test(tc, test_trylock_busy);
	tcase_add_test(tc, test_timed_wait);
	tcase_add_test_raise_signal(tc, test_assert_not_held, SIGABRT);
	tcase_add_test_raise_signal(tc, test_assert_held_elsewhere, SIGABRT);
	tcase_add_test_raise_signal(tc, test_unlock_not_held, SIGABRT);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(lock_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

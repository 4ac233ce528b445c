/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * rnd.c -- the testable random generator (see rnd.h).  Owns its state
 * and rnd_mtx, a leaf.  Unseeded, the first draw seeds it from the
 * clock and the pid.
 */

#include "config.h"

#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "common/lock.h"
#include "common/rnd.h"

#define RND_DEG		31	/* words of state */
#define RND_SEP		3	/* distance between the two taps */

static struct lock rnd_mtx = LOCK_INITIALIZER;
static uint32_t rnd_state[RND_DEG];	/* rnd_mtx */
static unsigned rnd_front, rnd_rear;	/* rnd_mtx: indexes in rnd_state */
static int rnd_seeded;			/* rnd_mtx */

/*
 * One step of the Park-Miller "minimal standard" generator (16807 modulo
 * 2^31 - 1, by Schrage's method), on a value first mapped into
 * [1, 2^31 - 2] and mapped back to [0, 2^31 - 3] after, as varnishd's
 * seeding does (so that a zero seed does not stick).
 */
static uint32_t
rnd_park_miller(uint32_t v)
{
	int32_t hi, lo, x;

	x = (int32_t)(v % 0x7ffffffeU) + 1;
	hi = x / 127773;
	lo = x % 127773;
	x = 16807 * lo - 2836 * hi;
	if (x < 0)
		x += 0x7fffffff;
	return ((uint32_t)x - 1);
}

static long
rnd_next_locked(void)
{
	uint32_t v;

	LOCK_AssertHeld(&rnd_mtx);
	rnd_state[rnd_front] += rnd_state[rnd_rear];
	v = rnd_state[rnd_front] >> 1;
	rnd_front = (rnd_front + 1) % RND_DEG;
	rnd_rear = (rnd_rear + 1) % RND_DEG;
	return ((long)v);
}

static void
rnd_seed_locked(unsigned seed)
{
	unsigned u;

	LOCK_AssertHeld(&rnd_mtx);
	rnd_state[0] = seed;
	for (u = 1; u < RND_DEG; u++)
		rnd_state[u] = rnd_park_miller(rnd_state[u - 1]);
	rnd_front = RND_SEP;
	rnd_rear = 0;
	/* The first values are poorly mixed: skip ten rounds. */
	for (u = 0; u < 10 * RND_DEG; u++)
		(void)rnd_next_locked();
	rnd_seeded = 1;
}

void
RND_SeedTestable(unsigned seed)
{

	LOCK_Lock(&rnd_mtx);
	rnd_seed_locked(seed);
	LOCK_Unlock(&rnd_mtx);
}

long
RND_RandomTestable(void)
{
	long r;

	LOCK_Lock(&rnd_mtx);
	if (!rnd_seeded)
		rnd_seed_locked((unsigned)time(NULL) ^ (unsigned)getpid());
	r = rnd_next_locked();
	LOCK_Unlock(&rnd_mtx);
	return (r);
}

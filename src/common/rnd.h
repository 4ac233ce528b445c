/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * rnd.h -- random numbers a test can predict: the additive feedback
 * generator of BSD random(3) (31 words, separation 3) with the seeding
 * varnishd's "testable" generator uses, so that after debug.srandom the
 * random director picks what varnishd's would (Varnish's
 * directors_c00000).  Not for anything that must be unguessable.
 */

#ifndef VENEER_COMMON_RND_H
#define VENEER_COMMON_RND_H

/* Restart the sequence from seed (debug.srandom). */
void RND_SeedTestable(unsigned seed);
/* The next number, 0 to 2^31 - 1; thread-safe (one lock). */
long RND_RandomTestable(void);

#endif /* VENEER_COMMON_RND_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * waiter.h -- holds idle keep-alive sessions without a thread each: a
 * libev loop per pool watches them, hands a readable one back to its pool
 * and closes one idle past timeout_idle.
 */

#ifndef VENEER_CACHE_WAITER_H
#define VENEER_CACHE_WAITER_H

struct pool;
struct sess;
struct waiter;

struct waiter *WAITER_New(struct pool *pp);
/* Take over a session (any thread). */
void WAITER_Enter(struct waiter *w, struct sess *sp);
/* Close every parked session and every one entered from now on. */
void WAITER_Drain(struct waiter *w);

#endif /* VENEER_CACHE_WAITER_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * expire.h -- the expiry thread: a binary heap of the cached objects,
 * keyed by the end of their life (t_origin + ttl + grace + keep), and a
 * thread that removes each one when its time comes.  exp_mtx guards the
 * heap and the objcores' exp_idx; the timers it orders by are constant
 * while an objcore is in the heap.
 */

#ifndef VENEER_CACHE_EXPIRE_H
#define VENEER_CACHE_EXPIRE_H

struct objcore;

void EXP_Init(void);
/* oc joins the heap (its timers are set).  0, or -1 out of memory. */
int EXP_Insert(struct objcore *oc);
/* oc leaves the heap (if it is on it). */
void EXP_Remove(struct objcore *oc);

#endif /* VENEER_CACHE_EXPIRE_H */

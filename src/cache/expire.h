/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * expire.h -- the expiry thread: a binary heap of the cached objects,
 * keyed by the end of their life (t_origin + ttl + grace + keep), and a
 * thread that removes each one when its time comes.  exp_mtx guards the
 * heap and the objcores' exp_idx; the timers it orders by change, while
 * an objcore is in the heap, only through EXP_Rearm.
 */

#ifndef VENEER_CACHE_EXPIRE_H
#define VENEER_CACHE_EXPIRE_H

#include "common/tim.h"

struct objcore;

void EXP_Init(void);
/* oc joins the heap (its timers are set).  0, or -1 out of memory. */
int EXP_Insert(struct objcore *oc);
/* oc leaves the heap (if it is on it). */
void EXP_Remove(struct objcore *oc);
/*
 * Soft purge oc: stale at now + ttl, grace and keep capped (negative:
 * unchanged), never lengthened (HSH_Retime), and the heap re-keyed.
 * The caller holds a reference and no lock.  0, or -1 when oc is not in
 * the cache (any more).
 */
int EXP_Rearm(struct objcore *oc, vtim_real now, vtim_dur ttl,
    vtim_dur grace, vtim_dur keep);

#endif /* VENEER_CACHE_EXPIRE_H */

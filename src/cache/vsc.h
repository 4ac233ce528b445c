/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc.h -- the child's counters (include/vsc_fields.h).  Worker threads
 * count into their own struct vsc_main (no lock, no atomic) and
 * VSC_Flush() adds it to the published one with one atomic add per
 * changed field, at the end of every task.  Other threads (acceptor,
 * waiter, housekeeping) use VSC_Add() on the published counters directly.
 */

#ifndef VENEER_CACHE_VSC_H
#define VENEER_CACHE_VSC_H

#include <stdint.h>

struct vsc_main {
#define VSC_FIELD(n, t, l, d)	uint64_t n;
#include "vsc_fields.h"
};

/* The published counters, in the MAIN Stat segment. */
extern struct vsc_main *VSC_C_main;

#define VSC_Add(field, n)						\
	(void)__atomic_add_fetch(&VSC_C_main->field, (uint64_t)(n),	\
	    __ATOMIC_RELAXED)
#define VSC_Sub(field, n)						\
	(void)__atomic_sub_fetch(&VSC_C_main->field, (uint64_t)(n),	\
	    __ATOMIC_RELAXED)

struct vsmw;

/* Publish the counters in the child's shared memory. */
int VSC_Init(struct vsmw *vsmw, char *err, size_t errlen);
/* Add a thread's accumulated counts to the published ones; zero them. */
void VSC_Flush(struct vsc_main *local);
/* Once a second: uptime. */
void VSC_Tick(void);

/* `veneerd -x counters`: the table as man page source. */
void VSC_DumpRoff(void);

#endif /* VENEER_CACHE_VSC_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc.h -- the child's counters (include/vsc_fields.h).  Worker threads
 * count into a block of their own (struct vsc_worker: no lock, no
 * read-modify-write on shared memory).  What a block counted since it was
 * last published goes to the shared counters at the end of every task
 * (VSC_Publish) and, for a task that runs long (a big download, a pipe, a
 * slow backend), once a second from the child's main thread (VSC_Tick).
 * Other threads (acceptor, waiter, housekeeping) use VSC_Add() on the
 * published counters directly.
 */

#ifndef VENEER_CACHE_VSC_H
#define VENEER_CACHE_VSC_H

#include <stdint.h>

#include "common/lock.h"

struct vsc_main {
#define VSC_FIELD(n, t, l, f, d)	uint64_t n;
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

/*
 * A worker's counts.  Only the owner thread changes cnt, with relaxed
 * atomic loads and stores (plain moves on x86: no lock prefix), so the
 * publisher may read it from another thread.  pub is what of cnt the
 * shared counters hold already; the mutex serialises publishing.
 */
struct vsc_worker {
	unsigned		magic;
#define VSC_WORKER_MAGIC	0x2b9d3c51
	struct vsc_main		cnt;
	struct vsc_main		pub;
	struct lock		mtx;
	struct vsc_worker	*next;		/* registry, under its lock */
	struct vsc_worker	**prevp;
};

/* Count n more of field in a worker's block (its own thread only). */
#define VSC_Count(w, field, n)						\
	__atomic_store_n(&(w)->cnt.field,				\
	    __atomic_load_n(&(w)->cnt.field, __ATOMIC_RELAXED) +	\
	    (uint64_t)(n), __ATOMIC_RELAXED)

/* Register a worker's block for the once-a-second publishing. */
void VSC_WorkerInit(struct vsc_worker *w);
/* Publish what is left and unregister (the thread is ending). */
void VSC_WorkerFini(struct vsc_worker *w);
/*
 * Add what the block counted since last time to the shared counters.
 * The owner thread only (VSC_Tick publishes the others' on its own).
 */
void VSC_Publish(struct vsc_worker *w);

struct vsmw;

/* Publish the counters in the child's shared memory. */
int VSC_Init(struct vsmw *vsmw, char *err, size_t errlen);
/* A store's SMA.<name> counters; NULL if they could not be made. */
struct vsc_sma;
struct vsc_sma *VSC_NewSma(const char *name);
/*
 * A backend's VBE.<vcl>.<backend> counters, changed by atomic adds from
 * any thread (VSC_VbeAdd).  NULL if they could not be made; the
 * backend then counts nowhere.
 */
struct vsc_vbe {
#define VSC_FIELD(n, t, l, f, d)	uint64_t n;
#include "vsc_vbe_fields.h"
};
struct vsc_vbe *VSC_NewVbe(const char *display);
void VSC_DeleteVbe(struct vsc_vbe **vbep);
#define VSC_VbeAdd(vbe, field, n)						do {										if ((vbe) != NULL)								(void)__atomic_add_fetch(&(vbe)->field,					    (uint64_t)(n), __ATOMIC_RELAXED);			} while (0)
#define VSC_VbeSub(vbe, field, n)						do {										if ((vbe) != NULL)								(void)__atomic_sub_fetch(&(vbe)->field,					    (uint64_t)(n), __ATOMIC_RELAXED);			} while (0)

/* Once a second: uptime, and every worker's counts. */
void VSC_Tick(void);

/* `veneerd -x counters`: the table as man page source. */
void VSC_DumpRoff(void);

#endif /* VENEER_CACHE_VSC_H */

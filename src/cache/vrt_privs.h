/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_privs.h -- the states modules keep per task (PRIV_TASK) and per
 * top-level request (PRIV_TOP), by key (a module's or an object's
 * address): what a request, a fetch and vcl_init/vcl_fini each embed,
 * and end when the task does.  vrt.h's VRT_priv_* functions use them.
 */

#ifndef VENEER_CACHE_VRT_PRIVS_H
#define VENEER_CACHE_VRT_PRIVS_H

#include "vrt.h"

struct priv_entry;
struct ws;

/*
 * The entries live on ws (the task's workspace), found through a hash
 * that grows there too: a VCL keeps a few, vmod_debug's benchmark a
 * thousand.
 */
struct vrt_privs {
	unsigned		magic;
#define VRT_PRIVS_MAGIC		0x5d81e4b3
	struct ws		*ws;		/* borrowed: the task's */
	struct priv_entry	*list;		/* all, newest first */
	struct priv_entry	**buckets;	/* in ws; NULL: none yet */
	unsigned		nbuckets;	/* a power of two, or 0 */
	unsigned		n;
};

/* Empty, allocating from ws. */
void PRIV_Init(struct vrt_privs *, struct ws *ws);
/* Ends each state (its fini, with ctx's log) and empties the set. */
void PRIV_Fini(VRT_CTX, struct vrt_privs *);
/* Whether it holds any state. */
int PRIV_Busy(const struct vrt_privs *);

#endif /* VENEER_CACHE_VRT_PRIVS_H */

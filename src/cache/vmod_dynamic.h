/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_dynamic.h -- what other directors may ask of the dynamic
 * module's domains (a d.backend() or d.service() value): their current
 * members, and a call when those change.  The shard director's
 * .add_dynamic() is the user.
 */

#ifndef VENEER_CACHE_VMOD_DYNAMIC_H
#define VENEER_CACHE_VMOD_DYNAMIC_H

#include "cache/director.h"

struct backend;
struct dynamic_sub;

/* One member: a reference to its backend, and its "ip:port". */
struct dynamic_member {
	struct backend		*be;		/* one reference */
	char			ident[72];
};

/*
 * Is d a dynamic domain (d.backend() or d.service())?  Only those may
 * be passed to the functions below.
 */
int DYNAMIC_Is(const struct director *d);

/*
 * The domain's members now, a reference to each: *n of them in a new
 * array (free it after BACKEND_Deref of each), or NULL when none (or
 * out of memory).
 */
struct dynamic_member *DYNAMIC_Members(const struct director *d,
    unsigned *n);

/*
 * Call changed(priv) from the resolver thread, no lock held, each time
 * the domain's members change; the domain is kept (never dropped for
 * want of use) while subscribed.  DYNAMIC_Unsubscribe waits for a call
 * in progress; safe after the dynamic director itself ended.
 */
typedef void dynamic_changed_f(void *priv);
struct dynamic_sub *DYNAMIC_Subscribe(const struct director *d,
    dynamic_changed_f *changed, void *priv);
void DYNAMIC_Unsubscribe(struct dynamic_sub **subp);

#endif /* VENEER_CACHE_VMOD_DYNAMIC_H */

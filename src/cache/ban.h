/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ban.h -- the ban list: lazy invalidation.  A ban is an expression
 * (ban_expr.h) added to the head of a list in constant time; it kills
 * every object in the cache at that moment that it matches, when the
 * object is next looked up or when the lurker thread reaches it.
 *
 * Each cached objcore points at a ban (oc->ban): it has been tested
 * against every ban newer than its fetch's start up to that one, and
 * only newer ones are left to test.  A ban counts the objcores pointing
 * at it; the oldest bans nobody points at are dropped, so the list stays
 * as long as the oldest untested object needs.
 *
 * A ban on req.url or req.http.host (with obj.* terms or not) is tested
 * against the URL and Host of the request that fetched the object, kept
 * with it (OBJ_Url, OBJ_Host), so the lurker can test it too: Varnish's
 * lookup-only bans are what make its list grow without end.  Other
 * req.* bans can only be tested by a lookup.
 *
 * Locks: ban_mtx guards the list's ends and its order; an objcore's ban
 * pointer is guarded by its objhead's shard lock.  Order: shard lock,
 * then ban_mtx.  Bans newer than a ban an objcore points at are never
 * freed, so a lookup walks the list from the head to its objcore's ban
 * without ban_mtx.
 */

#ifndef VENEER_CACHE_BAN_H
#define VENEER_CACHE_BAN_H

#include <stdio.h>

struct http;
struct objcore;
struct vsc_worker;
struct vsl_log;

/* The list with its first (completed) ban; the lurker thread. */
void BAN_Init(void);

/*
 * Add a ban from its words (the CLI) or one string (VCL's ban()).  0, or
 * -1 with err saying what is wrong: nothing was added then.
 */
int BAN_Add(char * const *av, int ac, char *err, size_t errlen);
int BAN_AddString(const char *s, char *err, size_t errlen);

/* A new busy objcore starts at the head: later bans concern it. */
void BAN_NewObjCore(struct objcore *oc);
/* The objcore leaves the cache (or never entered it). */
void BAN_DestroyObj(struct objcore *oc);

/*
 * Lookup: is oc (shard lock held) killed by a ban newer than the one it
 * points at?  req: the request looking it up.  1: banned (the caller
 * kills it); 0: not, and oc now points at the head; -1: more untested
 * bans than ban_max_tests_per_lookup, left to the lurker (the caller
 * fetches a fresh copy instead of delivering it).  stats: the caller's
 * counters.
 */
int BAN_CheckObject_locked(struct objcore *oc, const struct http *req,
    struct vsc_worker *stats);

/* Is there anything to test?  (oc->ban is not the head.) */
int BAN_Pending(const struct objcore *oc);

/* The CLI's ban and ban.list (child_cli.h). */
unsigned BAN_CliBan(FILE *out, int ac, char * const *av);
unsigned BAN_CliList(FILE *out, int ac, char * const *av);

#endif /* VENEER_CACHE_BAN_H */

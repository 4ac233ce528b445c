/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * hash.h -- the cache index: lookup digest -> objhead -> objcores.  The
 * table is split in shards, each with its own lock and its own chained
 * hash table; a shard's lock guards its objheads and their objcore
 * lists, flags and timers.  A hit takes one lock, its shard's.
 */

#ifndef VENEER_CACHE_HASH_H
#define VENEER_CACHE_HASH_H

#include <stdint.h>
#include <bsd/sys/queue.h>

#include "common/sha256.h"
#include "common/tim.h"
#include "cache/obj.h"

struct http;
struct req;
struct vry_index;
struct vsl_log;
struct worker;
struct ws;

struct objhead {
	unsigned		magic;
#define OBJHEAD_MAGIC		0x1b96615d
	unsigned		refcnt;		/* shard lock */
	struct objhead		*hnext;		/* shard lock */
	LIST_HEAD(, objcore)	objcs;		/* shard lock: not variants */
	struct vry_index	*vidx;		/* shard lock: variants */
	/* const; its first byte picks the shard */
	unsigned char		digest[SHA256_LEN];
};

enum hsh_lookup {
	HSH_MISS,	/* *busyp: a new busy objcore to fetch into; *ocp a
			   stale copy to revalidate or NULL */
	HSH_HIT,	/* *ocp: a fresh object (maybe still streaming) */
	HSH_GRACE,	/* *ocp: stale in grace; *busyp if we refresh it */
	HSH_HITMISS,	/* a hit-for-miss marker: *busyp, fetch, no wait */
	HSH_HITPASS,	/* a hit-for-pass marker: pass */
	HSH_BUSY,	/* *ocp: a busy objcore to wait on, *bocp its boc */
	HSH_PRIVATE,	/* too many wait already: fetch alone, uncached */
};

void HSH_Init(void);
/* Assert that the caller holds oh's shard lock (for the _locked calls). */
void HSH_AssertLocked(const struct objhead *oh);

/*
 * Feed one hash_data() to the lookup key as Varnish 7.1 does, so that
 * req.hash, bereq.hash and the shard director's by=HASH keys are
 * Varnish's bit for bit: the n strings, then a NUL byte.  A VCL string
 * holds no NUL, so the pieces' boundaries are part of the key.  A NULL
 * string (an unset header) is one NUL byte, as in Varnish: hash_data()
 * of an unset header is the key of two hash_data("").
 */
void HSH_AddData(struct sha256_ctx *sha, const char * const *p, unsigned n);

/* HSH_Lookup's flags. */
#define HSH_L_ALWAYS_MISS	(1U << 0)	/* req.hash_always_miss */
#define HSH_L_IGNORE_BUSY	(1U << 1)	/* req.hash_ignore_busy */
#define HSH_L_IGNORE_VARY	(1U << 2)	/* req.hash_ignore_vary */

/*
 * Look digest up for the request headers req (variants are matched on
 * them; ws is scratch space).  flags: HSH_L_ALWAYS_MISS ignores stored
 * objects (not busy ones); HSH_L_IGNORE_BUSY neither waits on nor
 * counts objects being fetched (a miss starts one more fetch);
 * HSH_L_IGNORE_VARY takes the newest fresh variant, whatever the
 * request's headers.  Every objcore returned holds a reference for the
 * caller, and so does *bocp: the boc of *ocp while it is still being
 * fetched (HIT, GRACE, BUSY), else NULL.  A new busy objcore (*busyp)
 * comes with its boc in busy->boc, which the caller's fetch will fill.
 * NULL busy with MISS: out of memory (answer 503).  Objects found
 * banned (ban.h) are killed on the way, logged to vsl.
 */
enum hsh_lookup HSH_Lookup(struct worker *wrk,
    const unsigned char digest[SHA256_LEN], const struct http *req,
    struct ws *ws, unsigned flags, struct vsl_log *vsl,
    struct objcore **ocp, struct boc **bocp, struct objcore **busyp);
/*
 * The same with each object's TTL and grace capped (req.ttl, req.grace);
 * a negative cap is none.
 */
enum hsh_lookup HSH_LookupCapped(struct worker *wrk,
    const unsigned char digest[SHA256_LEN], const struct http *req,
    struct ws *ws, unsigned flags, vtim_dur ttl_cap,
    vtim_dur grace_cap, struct vsl_log *vsl, struct objcore **ocp,
    struct boc **bocp, struct objcore **busyp);
/* A request stops waiting on boc (woken or timed out). */
void HSH_Unwait(struct boc *boc);

/*
 * The fetch has the headers: the busy objcore becomes a cached object
 * (or a marker: OC_F_HFM/OC_F_HFP set by the caller in flags), goes on
 * the expiry heap, and older objects it replaces (same variant) leave.
 */
void HSH_Unbusy(struct worker *wrk, struct objcore *oc, unsigned flags);
/* The fetch failed before headers: the busy objcore leaves the cache. */
void HSH_Fail(struct worker *wrk, struct objcore *oc);
/* Take oc out of the cache (expiry, LRU, purge).  0 if already gone. */
int HSH_Kill(struct worker *wrk, struct objcore *oc);
/* Detach the finished fetch's boc from oc. */
void HSH_DetachBoc(struct objcore *oc);
/* Kill every object of this digest (purge); how many. */
unsigned HSH_Purge(struct worker *wrk,
    const unsigned char digest[SHA256_LEN]);
/*
 * Soft purge: every object of this digest (variants and markers too)
 * goes stale at now + ttl, and its grace and keep are capped at grace
 * and keep (negative: unchanged), so it can still be served in grace
 * and revalidated.  Timers only ever shrink.  How many objects.
 */
unsigned HSH_SoftPurge(struct worker *wrk,
    const unsigned char digest[SHA256_LEN], vtim_real now, vtim_dur ttl,
    vtim_dur grace, vtim_dur keep);
/*
 * HSH_SoftPurge's change to one objcore, under its shard lock; for
 * EXP_Rearm only (which holds the expiry lock around it).  0, or -1
 * when oc is not (or no longer) in the cache.
 */
int HSH_Retime(struct objcore *oc, vtim_real now, vtim_dur ttl,
    vtim_dur grace, vtim_dur keep);
/* The objcore leaves its objhead for good (OBJ_Deref, last ref). */
void HSH_DerefObjhead(struct objcore *oc);
/*
 * The ban lurker's walk over the cache: from *pos on, call f on each
 * cached object (not busy, dying or a marker) under its shard lock, up
 * to about max of them; those f returns non-zero for are killed.  *pos
 * is where to go on; returns 1 when the walk reached the end (and *pos
 * is back at the start).
 */
typedef int hsh_walk_f(void *priv, struct objcore *oc);
int HSH_Walk(uint64_t *pos, unsigned max, hsh_walk_f *f, void *priv);

#endif /* VENEER_CACHE_HASH_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * hash.c -- the cache index.  Digests map to objheads in HSH_NSHARD
 * shards; each shard is a lock and a chained hash table that doubles
 * when it gets crowded.  The shard lock guards its objheads (refcnt,
 * chain, objcore list) and their objcores' flags, timers and boc
 * pointer.  Lock order: the expiry lock (EXP_Rearm, around HSH_Retime),
 * then a shard lock, then boc->mtx; the expiry and LRU locks are never
 * taken with a shard lock held.  The surrogate key index's locks are
 * leaves (xkey.h): objects join it at HSH_Unbusy and leave it in
 * hsh_kill_finish, with no shard lock held.
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/ban.h"
#include "cache/expire.h"
#include "cache/hash.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/rfc.h"
#include "cache/storage.h"
#include "cache/vary.h"
#include "cache/vsc.h"
#include "cache/vsl.h"
#include "cache/xkey.h"

#define HSH_NSHARD	256		/* power of two */
#define HSH_MINBUCKETS	64

struct hsh_shard {
	struct lock		mtx;
	struct objhead		**tbl;		/* mtx */
	unsigned		mask;		/* mtx: buckets - 1 */
	unsigned		n;		/* mtx: objheads */
} __attribute__((aligned(64)));

static struct hsh_shard hsh_shards[HSH_NSHARD];

static int hsh_unlist_locked(struct objcore *oc);
static void hsh_kill_finish(struct objcore *oc);

void
HSH_Init(void)
{
	unsigned u;

	for (u = 0; u < HSH_NSHARD; u++) {
		LOCK_Init(&hsh_shards[u].mtx);
		hsh_shards[u].tbl = calloc(HSH_MINBUCKETS,
		    sizeof *hsh_shards[u].tbl);
		assert(hsh_shards[u].tbl != NULL);
		hsh_shards[u].mask = HSH_MINBUCKETS - 1;
	}
	VRY_Init();
}

void
HSH_AddData(struct sha256_ctx *sha, const char * const *p, unsigned n)
{
	static const unsigned char nul = 0;
	unsigned u;

	for (u = 0; u < n; u++) {
		if (p[u] != NULL)
			SHA256_Update(sha, p[u], strlen(p[u]));
		else
			SHA256_Update(sha, &nul, 1);	/* as Varnish's */
	}
	SHA256_Update(sha, &nul, 1);
}

/* The digest is a cryptographic hash: any of its bits will do. */
static inline unsigned
hsh_bucket(const unsigned char *digest, unsigned mask)
{
	uint32_t v;

	memcpy(&v, digest + 4, sizeof v);
	return (v & mask);
}

static struct hsh_shard *
hsh_shard_of(const struct objhead *oh)
{

	return (&hsh_shards[oh->digest[0] & (HSH_NSHARD - 1)]);
}

void
HSH_AssertLocked(const struct objhead *oh)
{

	CHECK_OBJ(oh, OBJHEAD_MAGIC);
	LOCK_AssertHeld(&hsh_shard_of(oh)->mtx);
}

static void
hsh_lock(const struct objcore *oc)
{

	LOCK_Lock(&hsh_shard_of(oc->objhead)->mtx);
}

static void
hsh_unlock(const struct objcore *oc)
{

	LOCK_Unlock(&hsh_shard_of(oc->objhead)->mtx);
}

/* Double the shard's table; on allocation failure keep the old one. */
static void
hsh_grow_locked(struct hsh_shard *sh)
{
	struct objhead **tbl, *oh, *next;
	unsigned u, b, mask = sh->mask * 2 + 1;

	LOCK_AssertHeld(&sh->mtx);
	tbl = calloc((size_t)mask + 1, sizeof *tbl);
	if (tbl == NULL)
		return;
	for (u = 0; u <= sh->mask; u++) {
		for (oh = sh->tbl[u]; oh != NULL; oh = next) {
			next = oh->hnext;
			b = hsh_bucket(oh->digest, mask);
			oh->hnext = tbl[b];
			tbl[b] = oh;
		}
	}
	free(sh->tbl);
	sh->tbl = tbl;
	sh->mask = mask;
}

/* Find or create the objhead; it comes with a reference.  NULL: ENOMEM */
static struct objhead *
hsh_get_objhead_locked(struct hsh_shard *sh, const unsigned char *digest)
{
	struct objhead *oh;
	unsigned b;

	LOCK_AssertHeld(&sh->mtx);
	b = hsh_bucket(digest, sh->mask);
	for (oh = sh->tbl[b]; oh != NULL; oh = oh->hnext)
		if (!memcmp(oh->digest, digest, SHA256_LEN))
			break;
	if (oh != NULL) {
		oh->refcnt++;
		return (oh);
	}
	ALLOC_OBJ(oh, OBJHEAD_MAGIC);
	if (oh == NULL)
		return (NULL);
	memcpy(oh->digest, digest, SHA256_LEN);
	oh->refcnt = 1;
	LIST_INIT(&oh->objcs);
	oh->hnext = sh->tbl[b];
	sh->tbl[b] = oh;
	VSC_Add(n_objecthead, 1);
	if (++sh->n > 2 * (sh->mask + 1))
		hsh_grow_locked(sh);
	return (oh);
}

/* Drop a reference; the last one frees the objhead. */
static void
hsh_deref_objhead_locked(struct hsh_shard *sh, struct objhead *oh)
{
	struct objhead **pp;

	LOCK_AssertHeld(&sh->mtx);
	assert(oh->refcnt > 0);
	if (--oh->refcnt > 0)
		return;
	assert(LIST_EMPTY(&oh->objcs));
	VRY_Fini_locked(oh);
	for (pp = &sh->tbl[hsh_bucket(oh->digest, sh->mask)]; *pp != oh;
	    pp = &(*pp)->hnext)
		assert(*pp != NULL);
	*pp = oh->hnext;
	sh->n--;
	VSC_Sub(n_objecthead, 1);
	FREE_OBJ(oh);
}

void
HSH_DerefObjhead(struct objcore *oc)
{
	struct objhead *oh;
	struct hsh_shard *sh;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	oh = oc->objhead;
	CHECK_OBJ(oh, OBJHEAD_MAGIC);
	oc->objhead = NULL;
	sh = hsh_shard_of(oh);
	LOCK_Lock(&sh->mtx);
	hsh_deref_objhead_locked(sh, oh);
	LOCK_Unlock(&sh->mtx);
}

/* A busy objcore for a fetch, first in oh's list.  NULL: ENOMEM. */
static struct objcore *
hsh_new_busy_locked(struct objhead *oh)
{
	struct objcore *oc;

	LOCK_AssertHeld(&hsh_shard_of(oh)->mtx);
	oc = OBJ_NewCore();
	if (oc == NULL)
		return (NULL);
	oc->boc = BOC_New(oc);
	if (oc->boc == NULL) {
		(void)OBJ_Deref(&oc);
		return (NULL);
	}
	oc->flags = OC_F_BUSY;
	oc->objhead = oh;
	oh->refcnt++;
	/* Bans from now on concern what it fetches. */
	BAN_NewObjCore(oc);
	LIST_INSERT_HEAD(&oh->objcs, oc, oh_list);
	OBJ_Ref(oc);		/* the caller's; the cache has the first */
	return (oc);
}

/* A reference to oc and its boc (if any) for the caller. */
static void
hsh_take_locked(struct objcore *oc, struct objcore **ocp, struct boc **bocp)
{

	LOCK_AssertHeld(&hsh_shard_of(oc->objhead)->mtx);
	OBJ_Ref(oc);
	*ocp = oc;
	if (oc->boc != NULL)
		BOC_Ref(oc->boc);
	*bocp = oc->boc;
}

/* May the request wait on busy's boc?  Counts it as waiting if so. */
static int
hsh_wait_locked(struct objcore *busy)
{
	struct boc *boc = busy->boc;
	int ok;

	LOCK_AssertHeld(&hsh_shard_of(busy->objhead)->mtx);
	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	ok = cache_param->waitinglist_max == 0 ||
	    boc->waiters < cache_param->waitinglist_max;
	if (ok)
		boc->waiters++;
	LOCK_Unlock(&boc->mtx);
	return (ok);
}

void
HSH_Unwait(struct boc *boc)
{

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	assert(boc->waiters > 0);
	boc->waiters--;
	LOCK_Unlock(&boc->mtx);
}

/* What a lookup found so far. */
struct hsh_found {
	vtim_real		now;
	unsigned		flags;		/* HSH_L_* */
	vtim_dur		ttl_cap;	/* req.ttl, or < 0 */
	vtim_dur		grace_cap;	/* req.grace, or < 0 */
	struct objcore		*hit;
	struct objcore		*grace;
	struct objcore		*marker;
	struct objcore		*busy;
	struct objcore		*stale;		/* to revalidate, or for errors */
	uint32_t		vary_hint;	/* the request's, or 0 */
	const struct http	*req;
	struct vsc_worker	*stats;
	/* Killed by bans: unlisted after the walk (the vary index's walk
	   must not see its list change under it). */
#define HSH_MAXBANNED	8
	unsigned		nbanned;
	struct objcore		*banned[HSH_MAXBANNED];
};

/* Weigh one objcore; non-zero: a fresh hit, stop looking. */
static int
hsh_consider(void *priv, struct objcore *oc)
{
	struct hsh_found *f = priv;
	vtim_real fresh;
	vtim_dur grace;

	if (oc->flags & (OC_F_DYING | OC_F_FAILED))
		return (0);
	if (oc->flags & OC_F_BUSY) {
		if (f->flags & HSH_L_IGNORE_BUSY)
			return (0);
		/* Another variant's fetch is not worth waiting for. */
		if (f->busy == NULL && (f->vary_hint == 0 ||
		    oc->vary_key == 0 || oc->vary_key == f->vary_hint))
			f->busy = oc;
		return (0);
	}
	if (f->flags & HSH_L_ALWAYS_MISS)
		return (0);
	fresh = oc->t_origin + oc->ttl;
	if (oc->flags & (OC_F_HFM | OC_F_HFP)) {
		if (f->now < fresh && f->marker == NULL)
			f->marker = oc;
		return (0);
	}
	/*
	 * Bans added since it was last tested: not delivered, revalidated
	 * or kept for errors before they are tested.  One that matches
	 * dies; one with too many to test now (-1) is passed over: a fresh
	 * copy is fetched, and the lurker tests the old one.
	 */
	if (BAN_Pending(oc)) {
		switch (BAN_CheckObject_locked(oc, f->req, f->stats)) {
		case 1:
			if (f->nbanned < HSH_MAXBANNED)
				f->banned[f->nbanned++] = oc;
			return (0);
		case -1:
			return (0);
		default:
			break;
		}
	}
	/* req.ttl and req.grace only ever shorten what the object has. */
	if (f->ttl_cap >= 0 && oc->t_origin + f->ttl_cap < fresh)
		fresh = oc->t_origin + f->ttl_cap;
	grace = oc->grace;
	if (f->grace_cap >= 0 && f->grace_cap < grace)
		grace = f->grace_cap;
	if (f->now < fresh && !(oc->rfc_flags & RFC_F_NO_CACHE)) {
		/* Any variant will do: the newest, whatever order. */
		if (f->flags & HSH_L_IGNORE_VARY) {
			if (f->hit == NULL || oc->t_origin > f->hit->t_origin)
				f->hit = oc;
			return (0);
		}
		f->hit = oc;
		return (1);
	}
	/*
	 * Grace is for what was once fresh: an object stored with no TTL
	 * (beresp.ttl = 0s) is never served stale, and so never hides an
	 * older one still in grace (as in varnishd).  It may still be
	 * revalidated.
	 */
	if (oc->ttl > 0 && f->now < fresh + grace && (f->grace == NULL ||
	    oc->t_origin > f->grace->t_origin))
		f->grace = oc;
	if (oc->obj != NULL && (f->stale == NULL ||
	    oc->t_origin > f->stale->t_origin))
		f->stale = oc;
	return (0);
}

/*
 * RFC 9111 4.1: of the stored responses a request may be given, the
 * most recent.  A variant found (the index's answer, or one matched in
 * the list) gives way to a newer fresh object without Vary: the origin
 * stopped varying the resource, and that answer is for every request.
 * Markers are not weighed here: they carry no Vary, so a marker from
 * one variant's private answer must not take the others' hits.
 */
static void
hsh_newer_plain_locked(const struct objhead *oh, struct hsh_found *f)
{
	struct objcore *oc, *hit = f->hit;

	if (hit->obj == NULL || OBJ_Vary(hit->obj) == NULL)
		return;		/* a plain hit: already the newest plain */
	LIST_FOREACH(oc, &oh->objcs, oh_list) {
		if (oc == hit || oc->obj == NULL ||
		    OBJ_Vary(oc->obj) != NULL ||
		    (oc->flags & (OC_F_BUSY | OC_F_HFM | OC_F_HFP)) ||
		    oc->t_origin <= hit->t_origin)
			continue;
		f->hit = NULL;
		if (hsh_consider(f, oc) && f->hit == oc)
			return;		/* newest first: the newest such */
		f->hit = hit;
	}
}

enum hsh_lookup
HSH_Lookup(struct worker *wrk, const unsigned char digest[SHA256_LEN],
    const struct http *req, struct ws *ws, unsigned flags,
    struct vsl_log *vsl, struct objcore **ocp, struct boc **bocp,
    struct objcore **busyp)
{

	return (HSH_LookupCapped(wrk, digest, req, ws, flags, -1, -1,
	    vsl, ocp, bocp, busyp));
}

enum hsh_lookup
HSH_LookupCapped(struct worker *wrk, const unsigned char digest[SHA256_LEN],
    const struct http *req, struct ws *ws, unsigned flags,
    vtim_dur ttl_cap, vtim_dur grace_cap, struct vsl_log *vsl,
    struct objcore **ocp, struct boc **bocp, struct objcore **busyp)
{
	struct hsh_shard *sh;
	struct objhead *oh;
	struct objcore *oc;
	struct hsh_found f;
	enum hsh_lookup r;
	unsigned u, shard = digest[0] & (HSH_NSHARD - 1);
	unsigned marker_xid = 0;
	vtim_dur marker_ttl = 0;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	*ocp = NULL;
	*bocp = NULL;
	*busyp = NULL;
	memset(&f, 0, sizeof f);
	f.req = req;
	f.stats = wrk->stats;
	f.now = TIM_real();
	f.flags = flags;
	f.ttl_cap = ttl_cap;
	f.grace_cap = grace_cap;
	sh = &hsh_shards[shard];
	LOCK_Lock(&sh->mtx);
	oh = hsh_get_objhead_locked(sh, digest);
	if (oh == NULL) {
		LOCK_Unlock(&sh->mtx);
		return (HSH_MISS);
	}
	/* Variants first: the probe also tells which busy ones to skip. */
	if (!(flags & HSH_L_IGNORE_VARY))
		(void)VRY_Lookup_locked(oh, req, ws, hsh_consider, &f,
		    &f.vary_hint);
	else
		VRY_Each_locked(oh, hsh_consider, &f);
	LIST_FOREACH(oc, &oh->objcs, oh_list) {
		if (f.hit != NULL && !(flags & HSH_L_IGNORE_VARY))
			break;
		/* Variants the index could not take are matched here. */
		if (!(flags & HSH_L_IGNORE_VARY) && oc->obj != NULL &&
		    OBJ_Vary(oc->obj) != NULL &&
		    !VRY_Match(req, OBJ_Vary(oc->obj), oc->obj->vary_len))
			continue;
		if (hsh_consider(&f, oc))
			break;
	}
	if (f.hit != NULL && !(flags & HSH_L_IGNORE_VARY))
		hsh_newer_plain_locked(oh, &f);
	if (f.hit != NULL) {
		hsh_take_locked(f.hit, ocp, bocp);
		r = HSH_HIT;
	} else if (f.marker != NULL) {
		r = f.marker->flags & OC_F_HFP ? HSH_HITPASS : HSH_HITMISS;
		/* For the HitPass/HitMiss record, written unlocked. */
		marker_xid = f.marker->xid;
		marker_ttl = f.marker->t_origin + f.marker->ttl - f.now;
		if (r == HSH_HITMISS)
			*busyp = hsh_new_busy_locked(oh);
	} else if (f.grace != NULL) {
		hsh_take_locked(f.grace, ocp, bocp);
		if (f.busy == NULL)
			*busyp = hsh_new_busy_locked(oh);
		r = HSH_GRACE;
	} else if (f.busy != NULL) {
		if (hsh_wait_locked(f.busy)) {
			hsh_take_locked(f.busy, ocp, bocp);
			r = HSH_BUSY;
		} else {
			r = HSH_PRIVATE;
		}
	} else {
		*busyp = hsh_new_busy_locked(oh);
		r = HSH_MISS;
		/* A stale copy to revalidate, or to serve if it fails. */
		if (f.stale != NULL && *busyp != NULL) {
			OBJ_Ref(f.stale);
			*ocp = f.stale;
		}
	}
	if (*busyp != NULL)
		(*busyp)->vary_key = f.vary_hint;
	for (u = 0; u < f.nbanned; u++) {
		if (hsh_unlist_locked(f.banned[u]))
			OBJ_Ref(f.banned[u]);	/* for the unlocked part */
		else
			f.banned[u] = NULL;
	}
	hsh_deref_objhead_locked(sh, oh);
	LOCK_Unlock(&sh->mtx);
	/* As varnishd: the marker's xid and the TTL it has left. */
	if (r == HSH_HITPASS || r == HSH_HITMISS)
		VSLb(vsl, r == HSH_HITPASS ? SLT_HitPass : SLT_HitMiss,
		    "%u %.6f", marker_xid, marker_ttl);
	for (u = 0; u < f.nbanned; u++) {
		if (f.banned[u] == NULL)
			continue;
		VSLb(vsl, SLT_ExpBan, "%u banned lookup", f.banned[u]->xid);
		hsh_kill_finish(f.banned[u]);
		(void)OBJ_Deref(&f.banned[u]);
	}
	return (r);
}

/* Take oc off its objhead's list; the rest of the kill comes unlocked. */
static int
hsh_unlist_locked(struct objcore *oc)
{

	LOCK_AssertHeld(&hsh_shard_of(oc->objhead)->mtx);
	if (oc->flags & OC_F_DYING)
		return (0);
	oc->flags |= OC_F_DYING;
	if (oc->flags & OC_F_VARIANT)
		VRY_Remove_locked(oc->objhead, oc);
	else
		LIST_REMOVE(oc, oh_list);
	return (1);
}

/* After hsh_unlist_locked: off the heap and LRU, the cache's ref gone. */
static void
hsh_kill_finish(struct objcore *oc)
{

	XKEY_Remove(oc);
	EXP_Remove(oc);
	LRU_Remove(oc);
	if (oc->flags & OC_F_INSERTED) {
		if (oc->obj != NULL && !(oc->flags & (OC_F_HFM | OC_F_HFP))) {
			VSC_Sub(n_object, 1);
			if (OBJ_Vary(oc->obj) != NULL)
				VSC_Sub(n_vary, 1);
		}
	}
	(void)OBJ_Deref(&oc);
}

int
HSH_Kill(struct worker *wrk, struct objcore *oc)
{
	int r;

	(void)wrk;
	CHECK_OBJ(oc, OBJCORE_MAGIC);
	if (oc->objhead == NULL)
		return (0);
	hsh_lock(oc);
	r = hsh_unlist_locked(oc);
	hsh_unlock(oc);
	if (r)
		hsh_kill_finish(oc);
	return (r);
}

/* Collect what a new object replaces, for killing outside the lock. */
struct hsh_dead {
	struct objcore		*oc;		/* the new one */
	unsigned		keep_objects;	/* only markers leave */
	LIST_HEAD(, objcore)	list;
};

static int
hsh_replaced(void *priv, struct objcore *oc2)
{
	struct hsh_dead *d = priv;

	if (oc2 == d->oc || (oc2->flags & (OC_F_BUSY | OC_F_DYING)))
		return (0);
	if (d->keep_objects && !(oc2->flags & (OC_F_HFM | OC_F_HFP)))
		return (0);
	(void)hsh_unlist_locked(oc2);
	OBJ_Ref(oc2);	/* held across the unlocked part */
	LIST_INSERT_HEAD(&d->list, oc2, oh_list);
	return (0);
}

void
HSH_Unbusy(struct worker *wrk, struct objcore *oc, unsigned flags)
{
	struct hsh_dead d;
	struct objhead *oh;
	struct objcore *oc2, *next;
	int variant, dying;

	(void)wrk;
	CHECK_OBJ(oc, OBJCORE_MAGIC);
	assert((flags & ~(OC_F_HFM | OC_F_HFP)) == 0);
	d.oc = oc;
	/*
	 * An object stored without a TTL (beresp.ttl = 0s) is never a hit:
	 * it does not push out an older copy that may still serve in
	 * grace or be revalidated (as in varnishd).
	 */
	d.keep_objects = flags == 0 && !(oc->ttl > 0);
	LIST_INIT(&d.list);
	oh = oc->objhead;
	variant = oc->obj != NULL && OBJ_Vary(oc->obj) != NULL && flags == 0;
	hsh_lock(oc);
	assert(oc->flags & OC_F_BUSY);
	oc->flags &= ~OC_F_BUSY;
	oc->flags |= flags | OC_F_INSERTED;
	/* A marker has nothing bans could test: it lets go of its ban. */
	if (flags != 0)
		BAN_DestroyObj(oc);
	/* Markers, and older copies of the same (non-)variant, leave. */
	for (oc2 = LIST_FIRST(&oh->objcs); oc2 != NULL; oc2 = next) {
		next = LIST_NEXT(oc2, oh_list);
		if ((oc2->flags & (OC_F_HFM | OC_F_HFP)) ||
		    (!variant && oc2->obj != NULL && OBJ_Vary(oc2->obj) == NULL))
			(void)hsh_replaced(&d, oc2);
	}
	if (variant) {
		LIST_REMOVE(oc, oh_list);
		if (VRY_Insert_locked(oh, oc, hsh_replaced, &d) == 0)
			oc->flags |= OC_F_VARIANT;
		else
			LIST_INSERT_HEAD(&oh->objcs, oc, oh_list);
	}
	hsh_unlock(oc);
	if (oc->obj != NULL && !(flags & (OC_F_HFM | OC_F_HFP))) {
		VSC_Add(n_object, 1);
		if (OBJ_Vary(oc->obj) != NULL)
			VSC_Add(n_vary, 1);
		XKEY_Insert(wrk, oc);
	}
	if (EXP_Insert(oc) != 0)
		(void)HSH_Kill(wrk, oc);
	else if (oc->stv != NULL)	/* objects, charged markers */
		LRU_Add(oc, TIM_real());	/* Transient's too: it is sized */
	/*
	 * Killed since the unlock (a purge, a ban, a newer copy)?  Its
	 * killer found it on neither list and dropped the cache's
	 * reference, which being on them stands for: take it off again.
	 * (The fetch's reference keeps it alive meanwhile.)
	 */
	hsh_lock(oc);
	dying = (oc->flags & OC_F_DYING) != 0;
	hsh_unlock(oc);
	if (dying) {
		EXP_Remove(oc);
		LRU_Remove(oc);
	}
	while ((oc2 = LIST_FIRST(&d.list)) != NULL) {
		LIST_REMOVE(oc2, oh_list);
		hsh_kill_finish(oc2);
		(void)OBJ_Deref(&oc2);
	}
}

void
HSH_Fail(struct worker *wrk, struct objcore *oc)
{
	int r;

	(void)wrk;
	CHECK_OBJ(oc, OBJCORE_MAGIC);
	hsh_lock(oc);
	oc->flags |= OC_F_FAILED;
	r = hsh_unlist_locked(oc);
	hsh_unlock(oc);
	if (r)
		hsh_kill_finish(oc);
}

void
HSH_DetachBoc(struct objcore *oc)
{
	struct boc *boc;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	if (oc->objhead != NULL)
		hsh_lock(oc);
	boc = oc->boc;
	oc->boc = NULL;
	if (oc->objhead != NULL)
		hsh_unlock(oc);
	if (boc != NULL)
		BOC_Deref(&boc);
}

unsigned
HSH_Purge(struct worker *wrk, const unsigned char digest[SHA256_LEN])
{
	struct hsh_dead d;
	struct hsh_shard *sh;
	struct objhead *oh;
	struct objcore *oc, *next;
	unsigned shard = digest[0] & (HSH_NSHARD - 1), n = 0;

	LIST_INIT(&d.list);

	(void)wrk;
	sh = &hsh_shards[shard];
	LOCK_Lock(&sh->mtx);
	for (oh = sh->tbl[hsh_bucket(digest, sh->mask)]; oh != NULL;
	    oh = oh->hnext)
		if (!memcmp(oh->digest, digest, SHA256_LEN))
			break;
	if (oh != NULL) {
		d.oc = NULL;
		d.keep_objects = 0;
		for (oc = LIST_FIRST(&oh->objcs); oc != NULL; oc = next) {
			next = LIST_NEXT(oc, oh_list);
			(void)hsh_replaced(&d, oc);
		}
		VRY_Each_locked(oh, hsh_replaced, &d);
	}
	LOCK_Unlock(&sh->mtx);
	while ((oc = LIST_FIRST(&d.list)) != NULL) {
		LIST_REMOVE(oc, oh_list);
		n++;
		hsh_kill_finish(oc);
		(void)OBJ_Deref(&oc);
	}
	return (n);
}

/*
 * Visit one bucket's objcores (shard lock held); those f wants dead are
 * unlisted onto d.
 */
struct hsh_walk {
	hsh_walk_f		*f;
	void			*priv;
	unsigned		visited;
	struct hsh_dead		d;
};

static int
hsh_walk_one(void *priv, struct objcore *oc)
{
	struct hsh_walk *w = priv;

	if (oc->flags & (OC_F_BUSY | OC_F_DYING | OC_F_FAILED | OC_F_HFM |
	    OC_F_HFP))
		return (0);
	w->visited++;
	if (w->f(w->priv, oc))
		(void)hsh_replaced(&w->d, oc);
	return (0);
}

int
HSH_Walk(uint64_t *pos, unsigned max, hsh_walk_f *f, void *priv)
{
	struct hsh_walk w;
	struct hsh_shard *sh;
	struct objhead *oh;
	struct objcore *oc, *next;
	unsigned shard = (unsigned)(*pos >> 32), b = (uint32_t)*pos;

	memset(&w, 0, sizeof w);
	w.f = f;
	w.priv = priv;
	LIST_INIT(&w.d.list);
	while (w.visited < max && shard < HSH_NSHARD) {
		sh = &hsh_shards[shard];
		/*
		 * A bucket at a time, so lookups wait for one bucket's
		 * tests at most.  When the table doubles in between, the
		 * objheads of buckets done so far are in those buckets or
		 * one table size above: visited twice, never skipped.
		 */
		LOCK_Lock(&sh->mtx);
		if (b <= sh->mask) {
			for (oh = sh->tbl[b]; oh != NULL; oh = oh->hnext) {
				for (oc = LIST_FIRST(&oh->objcs); oc != NULL;
				    oc = next) {
					next = LIST_NEXT(oc, oh_list);
					(void)hsh_walk_one(&w, oc);
				}
				VRY_Each_locked(oh, hsh_walk_one, &w);
			}
			b++;
		}
		if (b > sh->mask) {
			shard++;
			b = 0;
		}
		LOCK_Unlock(&sh->mtx);
		while ((oc = LIST_FIRST(&w.d.list)) != NULL) {
			LIST_REMOVE(oc, oh_list);
			hsh_kill_finish(oc);
			(void)OBJ_Deref(&oc);
		}
	}
	if (shard >= HSH_NSHARD) {
		*pos = 0;
		return (1);
	}
	*pos = (uint64_t)shard << 32 | b;
	return (0);
}

int
HSH_Retime(struct objcore *oc, vtim_real now, vtim_dur ttl, vtim_dur grace,
    vtim_dur keep)
{
	double t;
	float f;
	int r = -1;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	if (oc->objhead == NULL)
		return (-1);
	hsh_lock(oc);
	if (ttl < 0)
		ttl = 0;
	if (!(oc->flags & (OC_F_BUSY | OC_F_DYING | OC_F_FAILED))) {
		/* Only ever shorter: a purge never lengthens a life. */
		t = now + ttl - oc->t_origin;
		f = (float)t;
		/* Rounded to a float, stale from now, not a moment later. */
		if (oc->t_origin + f > now + ttl)
			f = nextafterf(f, -INFINITY);
		if (f < oc->ttl)
			oc->ttl = f;
		if (grace >= 0 && grace < oc->grace)
			oc->grace = (float)grace;
		if (grace >= 0 && grace < oc->stale_if_error)
			oc->stale_if_error = (float)grace;
		if (keep >= 0 && keep < oc->keep)
			oc->keep = (float)keep;
		r = 0;
	}
	hsh_unlock(oc);
	return (r);
}

/* What HSH_SoftPurge found, with references. */
struct hsh_soft {
	struct objcore		**oc;
	size_t			n;
	size_t			cap;
	size_t			want;
};

static int
hsh_soft_one(void *priv, struct objcore *oc)
{
	struct hsh_soft *s = priv;

	if (oc->flags & (OC_F_BUSY | OC_F_DYING))
		return (0);
	if (s->n < s->cap) {
		OBJ_Ref(oc);	/* on the objhead: the cache's ref is there */
		s->oc[s->n++] = oc;
	}
	s->want++;
	return (0);
}

unsigned
HSH_SoftPurge(struct worker *wrk, const unsigned char digest[SHA256_LEN],
    vtim_real now, vtim_dur ttl, vtim_dur grace, vtim_dur keep)
{
	struct hsh_soft s;
	struct hsh_shard *sh;
	struct objhead *oh;
	struct objcore *oc, **p;
	unsigned n = 0;
	size_t u;

	(void)wrk;
	memset(&s, 0, sizeof s);
	sh = &hsh_shards[digest[0] & (HSH_NSHARD - 1)];
	for (;;) {
		LOCK_Lock(&sh->mtx);
		for (oh = sh->tbl[hsh_bucket(digest, sh->mask)]; oh != NULL;
		    oh = oh->hnext)
			if (!memcmp(oh->digest, digest, SHA256_LEN))
				break;
		s.want = 0;
		if (oh != NULL) {
			LIST_FOREACH(oc, &oh->objcs, oh_list)
				(void)hsh_soft_one(&s, oc);
			VRY_Each_locked(oh, hsh_soft_one, &s);
		}
		LOCK_Unlock(&sh->mtx);
		if (s.want <= s.cap)
			break;
		/* More than room: drop them, grow unlocked, look again. */
		for (u = 0; u < s.n; u++)
			(void)OBJ_Deref(&s.oc[u]);
		s.n = 0;
		p = realloc(s.oc, s.want * 2 * sizeof *p);
		if (p == NULL)
			break;
		s.oc = p;
		s.cap = s.want * 2;
	}
	/* Off the shard lock: EXP_Rearm takes the expiry lock first. */
	for (u = 0; u < s.n; u++) {
		if (EXP_Rearm(s.oc[u], now, ttl, grace, keep) == 0)
			n++;
		(void)OBJ_Deref(&s.oc[u]);
	}
	free(s.oc);
	return (n);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * xkey.c -- the surrogate key index (see xkey.h): tags hashed into
 * shards, each tag listing the links of the objects that carry it, each
 * tagged object owning one block of links, found by its objcore's
 * address in a second table of the shards.  Owns the shards and their
 * locks, which are leaves (xkey.h).
 *
 * An object's links and the cache's kills race: XKEY_Insert runs after
 * the object became visible, so a purge or a newer copy may kill it
 * before its links are in.  The objcore's xkey byte settles it: the
 * inserter sets XKEY_S_LINKED once its block is in, the killer sets
 * XKEY_S_GONE; whoever comes second takes the block out.  Until then the
 * links are in the index while the inserter's reference keeps the
 * objcore alive, so a link in the index always names a live objcore (a
 * purge may take a reference under the shard lock).
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include <bsd/sys/queue.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "cache/expire.h"
#include "cache/hash.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/storage.h"
#include "cache/vsc.h"
#include "cache/xkey.h"

#define XKEY_NSHARD		64		/* power of two */
#define XKEY_MINBUCKETS		16

struct xkey_link;

struct xkey_tag {
	unsigned		magic;
#define XKEY_TAG_MAGIC		0x5a0c7e13
	unsigned		n;		/* shard mtx: links */
	uint64_t		hash;		/* const */
	struct xkey_tag		*next;		/* shard mtx: bucket chain */
	LIST_HEAD(, xkey_link)	links;		/* shard mtx */
	struct stevedore	*stv;		/* const: charged here */
	size_t			len;		/* const */
	char			name[];		/* const, NUL-terminated */
};

struct xkey_link {
	struct xkey_tag		*tag;		/* const; NULL: dropped */
	LIST_ENTRY(xkey_link)	list;		/* tag's shard mtx */
	struct objcore		*oc;		/* const */
};

/* An object's links: one block, charged to the object's store. */
struct xkey_oc {
	unsigned		magic;
#define XKEY_OC_MAGIC		0x29d1b64f
	unsigned		n;		/* const */
	struct stevedore	*stv;		/* const */
	struct objcore		*oc;		/* const */
	struct xkey_oc		*next;		/* oc's shard mtx: chain */
	struct xkey_link	link[];
};

struct xkey_shard {
	struct lock		mtx;
	struct xkey_tag		**tbl;		/* mtx */
	unsigned		mask;		/* mtx: buckets - 1 */
	unsigned		n;		/* mtx: tags */
	struct xkey_oc		**otbl;		/* mtx: blocks by objcore */
	unsigned		omask;		/* mtx: buckets - 1 */
	unsigned		on;		/* mtx: blocks */
} __attribute__((aligned(64)));

static struct xkey_shard xkey_shards[XKEY_NSHARD];
/* Keyed: backends choose tags, and must not choose a chain's length. */
static uint64_t xkey_seed;			/* const after init */

void
XKEY_Init(void)
{
	unsigned u;

	if (getrandom(&xkey_seed, sizeof xkey_seed, 0) != sizeof xkey_seed)
		xkey_seed = (uint64_t)(uintptr_t)&xkey_seed ^
		    (uint64_t)TIM_mono();
	for (u = 0; u < XKEY_NSHARD; u++) {
		LOCK_Init(&xkey_shards[u].mtx);
		xkey_shards[u].tbl = calloc(XKEY_MINBUCKETS,
		    sizeof *xkey_shards[u].tbl);
		assert(xkey_shards[u].tbl != NULL);
		xkey_shards[u].mask = XKEY_MINBUCKETS - 1;
		xkey_shards[u].otbl = calloc(XKEY_MINBUCKETS,
		    sizeof *xkey_shards[u].otbl);
		assert(xkey_shards[u].otbl != NULL);
		xkey_shards[u].omask = XKEY_MINBUCKETS - 1;
	}
}

/*--------------------------------------------------------------------
 * Parsing
 */

static int
xkey_sep(char c)
{

	return (c == ' ' || c == '\t' || c == ',' || c == '\0');
}

int
XKEY_Split(const char *s, size_t len, xkey_tag_f *func, void *priv)
{
	size_t b, e = 0;
	int r;

	while (e < len) {
		for (b = e; b < len && xkey_sep(s[b]); b++)
			continue;
		for (e = b; e < len && !xkey_sep(s[e]); e++)
			continue;
		if (e > b && (r = func(priv, s + b, e - b)) != 0)
			return (r);
	}
	return (0);
}

/* A multiply-xorshift over the bytes, keyed by the seed. */
static uint64_t
xkey_hash(const char *s, size_t len)
{
	uint64_t h = xkey_seed ^ (len * 0x9e3779b97f4a7c15ULL);
	size_t u;

	for (u = 0; u < len; u++) {
		h ^= (unsigned char)s[u];
		h *= 0x100000001b3ULL;
		h ^= h >> 29;
	}
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ULL;
	h ^= h >> 32;
	return (h);
}

static struct xkey_shard *
xkey_shard_of(uint64_t hash)
{

	return (&xkey_shards[hash & (XKEY_NSHARD - 1)]);
}

static unsigned
xkey_bucket(uint64_t hash, unsigned mask)
{

	/* The low bits picked the shard. */
	return ((unsigned)(hash >> 6) & mask);
}

static struct xkey_tag *
xkey_find_locked(struct xkey_shard *sh, uint64_t hash, const char *s,
    size_t len)
{
	struct xkey_tag *t;

	LOCK_AssertHeld(&sh->mtx);
	for (t = sh->tbl[xkey_bucket(hash, sh->mask)]; t != NULL; t = t->next)
		if (t->hash == hash && t->len == len &&
		    !memcmp(t->name, s, len))
			return (t);
	return (NULL);
}

/* Double the table; on allocation failure keep the old one. */
static void
xkey_grow_locked(struct xkey_shard *sh)
{
	struct xkey_tag **tbl, *t, *next;
	unsigned u, b, mask = sh->mask * 2 + 1;

	LOCK_AssertHeld(&sh->mtx);
	/* Small and rare (the table doubles): worth it under the lock. */
	tbl = calloc((size_t)mask + 1, sizeof *tbl);
	if (tbl == NULL)
		return;
	for (u = 0; u <= sh->mask; u++) {
		for (t = sh->tbl[u]; t != NULL; t = next) {
			next = t->next;
			b = xkey_bucket(t->hash, mask);
			t->next = tbl[b];
			tbl[b] = t;
		}
	}
	free(sh->tbl);
	sh->tbl = tbl;
	sh->mask = mask;
}

static void
xkey_unhash_locked(struct xkey_shard *sh, struct xkey_tag *t)
{
	struct xkey_tag **pp;

	LOCK_AssertHeld(&sh->mtx);
	for (pp = &sh->tbl[xkey_bucket(t->hash, sh->mask)]; *pp != t;
	    pp = &(*pp)->next)
		assert(*pp != NULL);
	*pp = t->next;
	sh->n--;
}

/* The blocks by objcore: the address, mixed (allocations align). */
static uint64_t
xkey_oc_hash(const struct objcore *oc)
{
	uint64_t h = (uint64_t)(uintptr_t)oc;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (h);
}

static void
xkey_oc_grow_locked(struct xkey_shard *sh)
{
	struct xkey_oc **tbl, *x, *next;
	unsigned u, b, mask = sh->omask * 2 + 1;

	LOCK_AssertHeld(&sh->mtx);
	tbl = calloc((size_t)mask + 1, sizeof *tbl);
	if (tbl == NULL)
		return;
	for (u = 0; u <= sh->omask; u++) {
		for (x = sh->otbl[u]; x != NULL; x = next) {
			next = x->next;
			b = xkey_bucket(xkey_oc_hash(x->oc), mask);
			x->next = tbl[b];
			tbl[b] = x;
		}
	}
	free(sh->otbl);
	sh->otbl = tbl;
	sh->omask = mask;
}

static void
xkey_oc_put(struct xkey_oc *x)
{
	uint64_t h = xkey_oc_hash(x->oc);
	struct xkey_shard *sh = xkey_shard_of(h);
	unsigned b;

	LOCK_Lock(&sh->mtx);
	b = xkey_bucket(h, sh->omask);
	x->next = sh->otbl[b];
	sh->otbl[b] = x;
	if (++sh->on > 2 * (sh->omask + 1))
		xkey_oc_grow_locked(sh);
	LOCK_Unlock(&sh->mtx);
}

/* Take oc's block out of the table; it must be there. */
static struct xkey_oc *
xkey_oc_take(const struct objcore *oc)
{
	uint64_t h = xkey_oc_hash(oc);
	struct xkey_shard *sh = xkey_shard_of(h);
	struct xkey_oc **pp, *x;

	LOCK_Lock(&sh->mtx);
	for (pp = &sh->otbl[xkey_bucket(h, sh->omask)]; (*pp)->oc != oc;
	    pp = &(*pp)->next)
		assert((*pp)->next != NULL);
	x = *pp;
	*pp = x->next;
	sh->on--;
	LOCK_Unlock(&sh->mtx);
	CHECK_OBJ(x, XKEY_OC_MAGIC);
	return (x);
}

/*--------------------------------------------------------------------
 * Indexing
 */

struct xkey_parse {
	unsigned		n;
	unsigned		dropped;
	const char		*tag[XKEY_OBJ_MAX];
	size_t			len[XKEY_OBJ_MAX];
	uint64_t		hash[XKEY_OBJ_MAX];
};

static int
xkey_parse_one(void *priv, const char *tag, size_t len)
{
	struct xkey_parse *p = priv;
	uint64_t h;
	unsigned u;

	if (len > XKEY_TAG_MAX) {
		p->dropped++;
		return (0);
	}
	h = xkey_hash(tag, len);
	/* Repeated within the object: one link is enough. */
	for (u = 0; u < p->n; u++)
		if (p->hash[u] == h && p->len[u] == len &&
		    !memcmp(p->tag[u], tag, len))
			return (0);
	if (p->n == XKEY_OBJ_MAX) {
		p->dropped++;
		return (0);
	}
	p->tag[p->n] = tag;
	p->len[p->n] = len;
	p->hash[p->n] = h;
	p->n++;
	return (0);
}

/* A new tag, charged to stv, not yet hashed.  NULL: out of memory. */
static struct xkey_tag *
xkey_tag_new(struct worker *wrk, struct stevedore *stv, uint64_t hash,
    const char *s, size_t len)
{
	struct xkey_tag *t;

	/* STV_MUST: like the object's own bytes, it is counted. */
	t = STV_Alloc(wrk, stv, sizeof *t + len + 1, STV_MUST, NULL);
	if (t == NULL)
		return (NULL);
	memset(t, 0, sizeof *t);
	t->magic = XKEY_TAG_MAGIC;
	t->hash = hash;
	t->stv = stv;
	t->len = len;
	LIST_INIT(&t->links);
	memcpy(t->name, s, len);
	t->name[len] = '\0';
	return (t);
}

static void
xkey_tag_free(struct xkey_tag *t)
{

	CHECK_OBJ(t, XKEY_TAG_MAGIC);
	assert(LIST_EMPTY(&t->links));
	t->magic = 0;
	STV_Free(t->stv, t);
	VSC_Sub(n_xkey, 1);
}

/* Hash a new tag t into sh. */
static void
xkey_hash_in_locked(struct xkey_shard *sh, struct xkey_tag *t)
{
	unsigned b;

	LOCK_AssertHeld(&sh->mtx);
	b = xkey_bucket(t->hash, sh->mask);
	t->next = sh->tbl[b];
	sh->tbl[b] = t;
	VSC_Add(n_xkey, 1);
	if (++sh->n > 2 * (sh->mask + 1))
		xkey_grow_locked(sh);
}

/* Put link l under its tag, creating the tag.  0, or -1: no memory. */
static int
xkey_link(struct worker *wrk, struct stevedore *stv, struct xkey_link *l,
    uint64_t hash, const char *s, size_t len)
{
	struct xkey_shard *sh = xkey_shard_of(hash);
	struct xkey_tag *t, *spare = NULL;

	LOCK_Lock(&sh->mtx);
	t = xkey_find_locked(sh, hash, s, len);
	if (t == NULL) {
		/* Allocate unlocked: the lock is a leaf (xkey.h). */
		LOCK_Unlock(&sh->mtx);
		spare = xkey_tag_new(wrk, stv, hash, s, len);
		if (spare == NULL)
			return (-1);
		LOCK_Lock(&sh->mtx);
		t = xkey_find_locked(sh, hash, s, len);
		if (t == NULL) {
			t = spare;
			spare = NULL;
			xkey_hash_in_locked(sh, t);
		}
	}
	l->tag = t;
	LIST_INSERT_HEAD(&t->links, l, list);
	t->n++;
	LOCK_Unlock(&sh->mtx);
	if (spare != NULL) {
		/* Another object made it meanwhile; ours was not counted. */
		spare->magic = 0;
		STV_Free(spare->stv, spare);
	}
	return (0);
}

/* Take every link of x out of the index and free x. */
static void
xkey_unlink_all(struct xkey_oc *x)
{
	struct xkey_shard *sh;
	struct xkey_link *l;
	struct xkey_tag *t;
	unsigned u, n = 0;

	CHECK_OBJ(x, XKEY_OC_MAGIC);
	for (u = 0; u < x->n; u++) {
		l = &x->link[u];
		t = l->tag;
		if (t == NULL)
			continue;
		n++;
		sh = xkey_shard_of(t->hash);
		LOCK_Lock(&sh->mtx);
		CHECK_OBJ(t, XKEY_TAG_MAGIC);
		LIST_REMOVE(l, list);
		assert(t->n > 0);
		if (--t->n == 0)
			xkey_unhash_locked(sh, t);
		else
			t = NULL;
		LOCK_Unlock(&sh->mtx);
		if (t != NULL)
			xkey_tag_free(t);
	}
	VSC_Sub(n_xkey_oc, n);
	x->magic = 0;
	STV_Free(x->stv, x);
}

void
XKEY_Index(struct worker *wrk, struct objcore *oc, struct stevedore *stv,
    const char * const *vals, unsigned n)
{
	struct xkey_parse p;
	struct xkey_oc *x = NULL;
	unsigned u, linked = 0;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ(stv, STEVEDORE_MAGIC);
	assert(!(oc->xkey & XKEY_S_LINKED));	/* indexed once */
	if (oc->xkey & XKEY_S_GONE)
		return;		/* killed already: nothing to index */
	p.n = p.dropped = 0;
	for (u = 0; u < n; u++)
		(void)XKEY_Split(vals[u], strlen(vals[u]), xkey_parse_one, &p);
	if (p.n > 0) {
		x = STV_Alloc(wrk, stv, sizeof *x + p.n * sizeof x->link[0],
		    STV_MUST, NULL);
		if (x == NULL) {
			p.dropped += p.n;
			p.n = 0;
		}
	}
	if (p.dropped > 0)
		VSC_Add(xkey_dropped, p.dropped);
	if (p.n == 0)
		return;
	x->magic = XKEY_OC_MAGIC;
	x->n = p.n;
	x->stv = stv;
	x->oc = oc;
	x->next = NULL;
	for (u = 0; u < p.n; u++) {
		x->link[u].oc = oc;
		x->link[u].tag = NULL;
		if (xkey_link(wrk, stv, &x->link[u], p.hash[u], p.tag[u],
		    p.len[u]) == 0)
			linked++;
		else
			VSC_Add(xkey_dropped, 1);
	}
	VSC_Add(n_xkey_oc, linked);
	xkey_oc_put(x);
	/* Killed meanwhile (XKEY_Remove found nothing): undo. */
	if (__atomic_fetch_or(&oc->xkey, XKEY_S_LINKED, __ATOMIC_ACQ_REL) &
	    XKEY_S_GONE)
		xkey_unlink_all(xkey_oc_take(oc));
}

/* The values of the object's tag headers, for XKEY_Index. */
struct xkey_vals {
	unsigned		n;
	const char		*v[32];
};

static int
xkey_val(void *priv, const char *val)
{
	struct xkey_vals *xv = priv;

	if (xv->n == sizeof xv->v / sizeof xv->v[0]) {
		VSC_Add(xkey_dropped, 1);	/* a whole header: count one */
		return (0);
	}
	xv->v[xv->n++] = val;
	return (0);
}

void
XKEY_Insert(struct worker *wrk, struct objcore *oc)
{
	struct xkey_vals xv;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	/* Private objects never leave through hsh_kill_finish: not here. */
	if (oc->obj == NULL || oc->objhead == NULL ||
	    (oc->flags & (OC_F_HFM | OC_F_HFP | OC_F_PRIVATE)))
		return;
	xv.n = 0;
	(void)OBJ_EachHdr(oc->obj, "Surrogate-Key", xkey_val, &xv);
	(void)OBJ_EachHdr(oc->obj, "xkey", xkey_val, &xv);
	if (xv.n > 0)
		XKEY_Index(wrk, oc, oc->stv, xv.v, xv.n);
}

void
XKEY_Remove(struct objcore *oc)
{

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	/* Not linked: no tags, or XKEY_Index is still at it and will undo. */
	if (__atomic_fetch_or(&oc->xkey, XKEY_S_GONE, __ATOMIC_ACQ_REL) ==
	    XKEY_S_LINKED)
		xkey_unlink_all(xkey_oc_take(oc));
}

/*--------------------------------------------------------------------
 * Purging
 */

struct xkey_found {
	struct objcore		**oc;
	size_t			n;
	size_t			cap;
	int			oom;
};

/* Collect (with references) the objects of one tag. */
static int
xkey_collect(void *priv, const char *s, size_t len)
{
	struct xkey_found *f = priv;
	struct xkey_shard *sh;
	struct xkey_tag *t;
	struct xkey_link *l;
	struct objcore **p;
	uint64_t hash;
	size_t want;

	if (len > XKEY_TAG_MAX)
		return (0);	/* never indexed */
	hash = xkey_hash(s, len);
	sh = xkey_shard_of(hash);
	for (;;) {
		LOCK_Lock(&sh->mtx);
		t = xkey_find_locked(sh, hash, s, len);
		want = f->n + (t != NULL ? t->n : 0);
		if (want <= f->cap)
			break;
		/* Grow unlocked (a leaf lock), then look again. */
		LOCK_Unlock(&sh->mtx);
		p = realloc(f->oc, want * 2 * sizeof *p);
		if (p == NULL) {
			f->oom = 1;
			return (1);
		}
		f->oc = p;
		f->cap = want * 2;
	}
	if (t != NULL) {
		LIST_FOREACH(l, &t->links, list) {
			/* Alive: a link is removed before its last ref. */
			OBJ_Ref(l->oc);
			f->oc[f->n++] = l->oc;
		}
	}
	LOCK_Unlock(&sh->mtx);
	return (0);
}

static int
xkey_ptr_cmp(const void *a, const void *b)
{
	uintptr_t pa = (uintptr_t)*(struct objcore * const *)a;
	uintptr_t pb = (uintptr_t)*(struct objcore * const *)b;

	return (pa < pb ? -1 : pa > pb);
}

unsigned
XKEY_Each(const char *tags, xkey_oc_f *func, void *priv)
{
	struct xkey_found f;
	unsigned n = 0;
	size_t u;

	memset(&f, 0, sizeof f);
	if (tags != NULL)
		(void)XKEY_Split(tags, strlen(tags), xkey_collect, &f);
	/* An object carrying several of the tags counts once. */
	if (f.n > 1)
		qsort(f.oc, f.n, sizeof *f.oc, xkey_ptr_cmp);
	for (u = 0; u < f.n; u++) {
		if (u == 0 || f.oc[u] != f.oc[u - 1]) {
			func(priv, f.oc[u]);
			n++;
		}
	}
	for (u = 0; u < f.n; u++)
		(void)OBJ_Deref(&f.oc[u]);
	free(f.oc);
	return (n);
}

struct xkey_purge {
	struct worker		*wrk;
	vtim_real		now;
	int			soft;
	unsigned		n;
};

static void
xkey_purge_one(void *priv, struct objcore *oc)
{
	struct xkey_purge *xp = priv;

	if (xp->soft) {
		if (EXP_Rearm(oc, xp->now, 0, -1, -1) == 0)
			xp->n++;
	} else if (HSH_Kill(xp->wrk, oc)) {
		xp->n++;
	}
}

unsigned
XKEY_Purge(struct worker *wrk, const char *tags, int soft)
{
	struct xkey_purge xp;

	memset(&xp, 0, sizeof xp);
	xp.wrk = wrk;
	xp.now = TIM_real();
	xp.soft = soft;
	(void)XKEY_Each(tags, xkey_purge_one, &xp);
	VSC_Add(n_purges, 1);
	VSC_Add(n_obj_purged, xp.n);
	VSC_Add(xkey_purges, 1);
	VSC_Add(xkey_obj_purged, xp.n);
	return (xp.n);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * obj.c -- objcores, objects and busy object contexts: creating an
 * object from a response, growing its body as the fetch reads it,
 * iterating over it (waiting for what is still coming), references and
 * release.  See obj.h for the reference rules.  boc->mtx guards a boc's
 * state and published length; the object itself is written by its fetch
 * only, before the length covering it is published.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/hash.h"
#include "cache/http.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/storage.h"
#include "cache/vsc.h"
#include "cache/ws.h"

/* The flags of a stored object's headers: none (it has at most 65535). */
static const unsigned char obj_hdf_none[65536];

#define OBJ_ALIGN	(sizeof(void *))
#define OBJ_INDEX_COST	32
#define OBJ_RND(x)	(((x) + OBJ_ALIGN - 1) & ~(OBJ_ALIGN - 1))

struct objcore *
OBJ_NewCore(void)
{
	struct objcore *oc;

	ALLOC_OBJ(oc, OBJCORE_MAGIC);
	if (oc == NULL)
		return (NULL);
	oc->refcnt = 1;
	VSC_Add(n_objectcore, 1);
	return (oc);
}

void
OBJ_Ref(struct objcore *oc)
{

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	assert(__atomic_add_fetch(&oc->refcnt, 1, __ATOMIC_ACQ_REL) > 1);
}

unsigned
OBJ_Deref(struct objcore **ocp)
{
	struct objcore *oc;
	unsigned r;

	TAKE_OBJ_NOTNULL(oc, ocp, OBJCORE_MAGIC);
	r = __atomic_sub_fetch(&oc->refcnt, 1, __ATOMIC_ACQ_REL);
	if (r > 0)
		return (r);
	assert(oc->boc == NULL);
	assert(oc->exp_idx == 0);
	assert(oc->lru_list.tqe_prev == NULL);
	OBJ_Slim(oc);
	if (oc->objhead != NULL)
		HSH_DerefObjhead(oc);
	VSC_Sub(n_objectcore, 1);
	FREE_OBJ(oc);
	return (0);
}

/* The slots an object keeps: the start line and end-to-end headers. */
static int
obj_keep(const struct http *hp, unsigned u)
{
	const struct txt *t = &hp->hd[u];

	if (u < HTTP_HDR_FIRST)
		return (1);
	if (t->b == NULL || (hp->hdf[u] & HDF_FILTER))
		return (0);
	/* Delivery frames the body itself, and says its Age. */
	if ((TXT_LEN(*t) > 15 && !strncasecmp(t->b, "Content-Length:", 15)) ||
	    (TXT_LEN(*t) > 18 && !strncasecmp(t->b, "Transfer-Encoding:",
	    18)) || (TXT_LEN(*t) > 4 && !strncasecmp(t->b, "Age:", 4)))
		return (0);
	return (1);
}

struct object *
OBJ_New(struct worker *wrk, struct objcore *oc, struct stevedore *stv,
    const struct http *hp, uint64_t body_hint, const char *vary,
    size_t vary_len)
{
	struct object *o;
	struct obj_seg *seg = NULL;
	size_t sz, strl = 0, charged, over, inl = 0, dcharged = 0;
	unsigned u, n = 0, ext = 0;
	char *p, *data = NULL;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(oc->obj == NULL);
	for (u = 0; u < hp->nhd; u++) {
		if (!obj_keep(hp, u))
			continue;
		n++;
		if (hp->hd[u].b != NULL)
			strl += TXT_LEN(hp->hd[u]) + 1;
	}
	if (body_hint != UINT64_MAX && body_hint > 0 &&
	    body_hint <= cache_param->fetch_maxchunksize)
		inl = (size_t)body_hint;
	sz = OBJ_RND(sizeof *o) + OBJ_RND(n * sizeof(struct txt)) +
	    OBJ_RND(strl + vary_len);
	if (inl > 0)
		sz += OBJ_RND(sizeof *seg);
	/*
	 * The body in the same block, or in one of its own: whichever the
	 * allocator's size classes make cheaper (a 1 KB body with its
	 * headers takes 1792 bytes in one block, 640 + 1024 in two).
	 */
	if (inl > 0 && STV_Round(sz + inl) <= STV_Round(sz) + STV_Round(inl))
		sz += inl;
	else if (inl > 0)
		ext = 1;
	/*
	 * What the objcore and its objhead cost too, and its entries in
	 * the indexes that grow with the cache: the expiry heap's slot and
	 * the hash table's bucket (arrays that double: up to 16 bytes each).
	 */
	over = STV_Usable(oc) + (oc->objhead != NULL ?
	    STV_Usable(oc->objhead) : 0) + OBJ_INDEX_COST;
	if (STV_Charge(wrk, stv, over) != 0)
		return (NULL);
	if (ext) {
		data = STV_Alloc(wrk, stv, inl, &dcharged);
		if (data == NULL) {
			STV_Uncharge(stv, over);
			return (NULL);
		}
	}
	o = STV_Alloc(wrk, stv, sz, &charged);
	if (o == NULL) {
		if (data != NULL)
			STV_Free(stv, data, dcharged);
		STV_Uncharge(stv, over);
		return (NULL);
	}
	INIT_OBJ(o, OBJECT_MAGIC);
	o->charged = charged;
	o->status = hp->status;
	o->hd = (struct txt *)(void *)((char *)o + OBJ_RND(sizeof *o));
	p = (char *)o->hd + OBJ_RND(n * sizeof(struct txt));
	for (u = 0; u < hp->nhd; u++) {
		if (!obj_keep(hp, u))
			continue;
		if (hp->hd[u].b == NULL) {
			o->hd[o->nhd++] = TXT_Make(NULL, NULL);
			continue;
		}
		memcpy(p, hp->hd[u].b, TXT_LEN(hp->hd[u]));
		o->hd[o->nhd++] = TXT_Make(p, p + TXT_LEN(hp->hd[u]));
		p += TXT_LEN(hp->hd[u]);
		*p++ = '\0';
	}
	assert(o->nhd == n);
	if (vary_len > 0) {
		memcpy(p, vary, vary_len);
		o->vary = p;
		o->vary_len = vary_len;
	}
	o->len_hint = body_hint;
	if (inl > 0) {
		seg = (struct obj_seg *)(void *)((char *)o + sz -
		    (OBJ_RND(sizeof *seg) + (ext ? 0 : inl)));
		INIT_OBJ(seg, OBJ_SEG_MAGIC);
		seg->inline_ = 1;
		seg->space = inl;
		seg->stv = stv;
		seg->ext = ext;
		seg->data = ext ? data : seg->buf;
		seg->charged = dcharged;
		o->first = o->last = seg;
	}
	oc->stv = stv;
	oc->charge = over;
	oc->obj = o;
	return (o);
}

/* Free a body piece (the one inside the object block: its data only). */
static void
obj_seg_free(struct obj_seg *seg)
{

	if (seg->ext) {
		STV_Free(seg->stv, seg->data, seg->charged);
		seg->ext = 0;
	}
	if (seg->inline_)
		return;
	seg->magic = 0;
	STV_Free(seg->stv, seg, seg->charged);
}

void
OBJ_Slim(struct objcore *oc)
{
	struct object *o;
	struct obj_seg *seg, *next;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	o = oc->obj;
	if (o == NULL)
		return;
	CHECK_OBJ(o, OBJECT_MAGIC);
	oc->obj = NULL;
	for (seg = o->first; seg != NULL; seg = next) {
		CHECK_OBJ(seg, OBJ_SEG_MAGIC);
		next = seg->next;
		obj_seg_free(seg);
	}
	STV_Uncharge(oc->stv, oc->charge);
	oc->charge = 0;
	o->magic = 0;
	STV_Free(oc->stv, o, o->charged);
}

struct http *
OBJ_Http(struct ws *ws, const struct object *o)
{
	struct http *hp;

	CHECK_OBJ(o, OBJECT_MAGIC);
	hp = WS_Alloc(ws, sizeof *hp);
	if (hp == NULL)
		return (NULL);
	INIT_OBJ(hp, HTTP_MAGIC);
	/* Read-only: VCL cannot change obj.http, nothing writes here. */
	hp->hd = o->hd;
	/* No flags on stored headers: a shared page of zeros stands in. */
	hp->hdf = (unsigned char *)(uintptr_t)obj_hdf_none;
	hp->shd = o->nhd;
	hp->nhd = o->nhd;
	hp->status = o->status;
	hp->protover = 11;
	hp->logtag = SLT_ObjMethod;
	return (hp);
}

char *
OBJ_GetSpace(struct worker *wrk, struct objcore *oc, size_t want,
    size_t *got)
{
	struct object *o;
	struct obj_seg *seg;
	struct stevedore *stv;
	size_t sz, charged;
	uint64_t left;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	o = oc->obj;
	CHECK_OBJ(o, OBJECT_MAGIC);
	seg = o->last;
	if (seg != NULL && seg->used < seg->space) {
		*got = seg->space - seg->used;
		return (seg->data + seg->used);
	}
	sz = want;
	if (o->len_hint != UINT64_MAX && o->len_hint > o->len) {
		left = o->len_hint - o->len;
		sz = left < cache_param->fetch_maxchunksize ? (size_t)left :
		    (size_t)cache_param->fetch_maxchunksize;
	} else {
		if (sz < cache_param->fetch_chunksize)
			sz = (size_t)cache_param->fetch_chunksize;
		if (sz > cache_param->fetch_maxchunksize)
			sz = (size_t)cache_param->fetch_maxchunksize;
	}
	stv = oc->stv;
	seg = STV_Alloc(wrk, stv, sizeof *seg + sz, &charged);
	if (seg == NULL && stv != stv_transient) {
		/* Finish the body in Transient; the object won't stay. */
		stv = stv_transient;
		seg = STV_Alloc(wrk, stv, sizeof *seg + sz, &charged);
		o->spilled = 1;
	}
	if (seg == NULL)
		return (NULL);
	INIT_OBJ(seg, OBJ_SEG_MAGIC);
	seg->space = sz;
	seg->stv = stv;
	seg->charged = charged;
	seg->data = seg->buf;
	if (o->last != NULL)
		o->last->next = seg;
	else
		o->first = seg;
	o->last = seg;
	*got = sz;
	return (seg->data);
}

uint64_t
OBJ_Extend(struct objcore *oc, size_t n)
{
	struct object *o;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	o = oc->obj;
	CHECK_OBJ(o, OBJECT_MAGIC);
	assert(o->last != NULL);
	assert(o->last->used + n <= o->last->space);
	o->last->used += n;
	o->len += n;
	return (o->len);
}

/* How much is readable, waiting for more than pos if it is coming. */
static enum boc_state
obj_wait_more(struct boc *boc, uint64_t pos, uint64_t *avail)
{
	enum boc_state st;

	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	while (boc->len <= pos && boc->state < BOS_FINISHED)
		ASSERT_ZERO(pthread_cond_wait(&boc->cond, &boc->mtx));
	*avail = boc->len;
	st = boc->state;
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
	return (st);
}

/* Transit: the reader is done with seg; free it, tell the fetch. */
static void
obj_transit_done(struct object *o, struct obj_seg *seg, struct boc *boc,
    uint64_t pos)
{

	if (seg != NULL) {
		assert(o->first == seg && seg->next != NULL);
		o->first = seg->next;
		obj_seg_free(seg);
	}
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	boc->consumed = pos;
	ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
}

int
OBJ_Iterate(struct objcore *oc, struct boc *boc, uint64_t from,
    uint64_t to, void *priv, obj_iter_f *func)
{
	struct object *o;
	struct obj_seg *seg = NULL, *done;
	uint64_t pos = 0, seg_start = 0, avail, n, skip;
	enum boc_state st;
	int r;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ_ORNULL(boc, BOC_MAGIC);
	o = oc->obj;
	CHECK_OBJ(o, OBJECT_MAGIC);
	/* A range is only ever asked of a shared, stored object. */
	assert(from == 0 || boc == NULL || !boc->transit);
	for (;;) {
		if (boc != NULL) {
			st = obj_wait_more(boc, pos, &avail);
			if (st == BOS_FAILED)
				return (-1);
		} else {
			avail = o->len;
			st = BOS_FINISHED;
		}
		if (avail > to)
			avail = to;
		while (pos < avail) {
			done = NULL;
			if (seg == NULL) {
				seg = o->first;
			} else if (pos - seg_start == seg->space) {
				seg_start += seg->space;
				done = seg;
				seg = seg->next;
			}
			CHECK_OBJ(seg, OBJ_SEG_MAGIC);
			if (done != NULL && boc != NULL && boc->transit) {
				/* Written out before it is freed. */
				r = func(priv, 1, NULL, 0);
				if (r != 0)
					return (r);
				obj_transit_done(o, done, boc, pos);
			}
			n = seg->space - (pos - seg_start);
			if (n > avail - pos)
				n = avail - pos;
			skip = pos < from ? from - pos : 0;
			if (skip >= n) {
				pos += n;	/* before the range */
				continue;
			}
			r = func(priv, 0, seg->data + (pos - seg_start) + skip,
			    (size_t)(n - skip));
			if (r != 0)
				return (r);
			pos += n;
			if (boc != NULL && boc->transit)
				obj_transit_done(o, NULL, boc, pos);
		}
		if (st >= BOS_FINISHED || pos >= to)
			return (0);
		/* More is coming: write out what we have meanwhile. */
		r = func(priv, 1, NULL, 0);
		if (r != 0)
			return (r);
	}
}

/*--------------------------------------------------------------------
 * Busy object contexts
 */

struct boc *
BOC_New(struct objcore *oc)
{
	pthread_condattr_t ca;
	struct boc *boc;

	ALLOC_OBJ(boc, BOC_MAGIC);
	if (boc == NULL)
		return (NULL);
	ASSERT_ZERO(pthread_mutex_init(&boc->mtx, NULL));
	/* BOC_Wait's deadlines are monotonic. */
	ASSERT_ZERO(pthread_condattr_init(&ca));
	ASSERT_ZERO(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC));
	ASSERT_ZERO(pthread_cond_init(&boc->cond, &ca));
	ASSERT_ZERO(pthread_condattr_destroy(&ca));
	boc->refcnt = 1;
	OBJ_Ref(oc);
	boc->oc = oc;
	return (boc);
}

void
BOC_Ref(struct boc *boc)
{

	CHECK_OBJ(boc, BOC_MAGIC);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	assert(boc->refcnt > 0);
	boc->refcnt++;
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
}

void
BOC_Deref(struct boc **bocp)
{
	struct boc *boc;
	unsigned r;

	TAKE_OBJ_NOTNULL(boc, bocp, BOC_MAGIC);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	r = --boc->refcnt;
	if (r == 1)	/* a throttled fetch may be waiting for us */
		ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
	if (r > 0)
		return;
	assert(boc->waiters == 0);
	if (boc->oc != NULL)
		(void)OBJ_Deref(&boc->oc);
	ASSERT_ZERO(pthread_mutex_destroy(&boc->mtx));
	ASSERT_ZERO(pthread_cond_destroy(&boc->cond));
	FREE_OBJ(boc);
}

void
BOC_SetTarget(struct boc *boc, struct objcore *oc)
{
	struct objcore *old;

	CHECK_OBJ(boc, BOC_MAGIC);
	CHECK_OBJ_ORNULL(oc, OBJCORE_MAGIC);
	if (oc != NULL)
		OBJ_Ref(oc);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	old = boc->oc;
	boc->oc = oc;
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
	if (old != NULL)
		(void)OBJ_Deref(&old);
}

struct objcore *
BOC_Target(struct boc *boc)
{
	struct objcore *oc;

	CHECK_OBJ(boc, BOC_MAGIC);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	oc = boc->oc;
	if (oc != NULL)
		OBJ_Ref(oc);
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
	return (oc);
}

void
BOC_SetState(struct boc *boc, enum boc_state state)
{

	CHECK_OBJ(boc, BOC_MAGIC);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	assert(state >= boc->state);
	boc->state = state;
	ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
}

void
BOC_Extend(struct boc *boc, uint64_t len)
{

	CHECK_OBJ(boc, BOC_MAGIC);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	assert(len >= boc->len);
	boc->len = len;
	ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
}

int
BOC_Throttle(struct boc *boc, uint64_t len, uint64_t limit)
{
	int r = 0;

	CHECK_OBJ(boc, BOC_MAGIC);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	while (len - boc->consumed >= limit) {
		if (boc->refcnt < 2) {
			r = -1;
			break;
		}
		ASSERT_ZERO(pthread_cond_wait(&boc->cond, &boc->mtx));
	}
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
	return (r);
}

enum boc_state
BOC_Wait(struct boc *boc, enum boc_state want, vtim_mono deadline)
{
	struct timespec ts;
	enum boc_state st;
	int i;

	CHECK_OBJ(boc, BOC_MAGIC);
	ASSERT_ZERO(pthread_mutex_lock(&boc->mtx));
	while (boc->state < want) {
		if (deadline == 0) {
			ASSERT_ZERO(pthread_cond_wait(&boc->cond, &boc->mtx));
			continue;
		}
		ts = TIM_timespec(deadline);
		i = pthread_cond_timedwait(&boc->cond, &boc->mtx, &ts);
		if (i == ETIMEDOUT)
			break;
		assert(i == 0);
	}
	st = boc->state;
	ASSERT_ZERO(pthread_mutex_unlock(&boc->mtx));
	return (st);
}

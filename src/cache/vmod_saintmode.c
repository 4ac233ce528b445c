/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_saintmode.c -- the saintmode module (include/vmod_std.h), with
 * varnish-modules' interface: a director wrapping one backend, and a
 * blacklist of objects (their hashes, bo->digest) that backend answered
 * badly, each until it expires.  While this fetch's object is
 * blacklisted, the director is sick for that fetch (its healthy method
 * asks DIRECTOR_Resolving()), so an enclosing director takes another
 * member; while more than threshold objects are, it is sick for all.
 *
 * Every object is on sm_list (sm_list_mtx) so that blacklist() finds
 * the one wrapping the backend that answered.  Each object's blacklist
 * is under its mtx; expired entries go when the list is next walked
 * under it.  Lock order: sm_list_mtx, then an object's mtx; the
 * wrapped backend's health is asked holding neither.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/sys/queue.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/sha256.h"
#include "common/tim.h"
#include "cache/backend.h"
#include "cache/director.h"
#include "cache/fetch.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

struct saintmode_entry {
	unsigned		magic;
#define SAINTMODE_ENTRY_MAGIC	0x9d3a6b05
	unsigned char		digest[SHA256_LEN];
	vtim_real		expires;
	TAILQ_ENTRY(saintmode_entry) list;	/* sm->mtx */
};

struct vmod_saintmode_saintmode {
	unsigned		magic;
#define VMOD_SAINTMODE_SAINTMODE_MAGIC	0x47c2e81d
	struct lock		mtx;
	const struct director	*be;		/* const: the wrapped one */
	long			threshold;	/* const */
	const struct vcl	*vcl;		/* const */
	struct director		*dir;		/* const */
	unsigned		n;		/* mtx: entries, expired too */
	TAILQ_HEAD(, saintmode_entry) entries;	/* mtx */
	TAILQ_ENTRY(vmod_saintmode_saintmode) list;	/* sm_list_mtx */
};

static struct lock sm_list_mtx = LOCK_INITIALIZER;
static TAILQ_HEAD(, vmod_saintmode_saintmode) sm_list =
    TAILQ_HEAD_INITIALIZER(sm_list);

/* Drops expired entries; sm->mtx held.  The live ones remain. */
static void
sm_expire(struct vmod_saintmode_saintmode *sm, vtim_real now)
{
	struct saintmode_entry *e, *e2;

	TAILQ_FOREACH_SAFE(e, &sm->entries, list, e2) {
		CHECK_OBJ(e, SAINTMODE_ENTRY_MAGIC);
		if (e->expires > now)
			continue;
		TAILQ_REMOVE(&sm->entries, e, list);
		assert(sm->n > 0);
		sm->n--;
		FREE_OBJ(e);
	}
}

/* The live entry for digest, or NULL; sm->mtx held. */
static struct saintmode_entry *
sm_lookup(struct vmod_saintmode_saintmode *sm, const unsigned char *digest)
{
	struct saintmode_entry *e;

	TAILQ_FOREACH(e, &sm->entries, list)
		if (!memcmp(e->digest, digest, sizeof e->digest))
			return (e);
	return (NULL);
}

/*
 * Healthy: the backend is, no more than threshold objects are
 * blacklisted, and (when a fetch is resolving) not its object.
 */
static unsigned
sm_healthy(const struct director *d)
{
	struct vmod_saintmode_saintmode *sm;
	const struct vrt_ctx *ctx;
	unsigned h;

	CHECK_OBJ(d, DIRECTOR_MAGIC);
	CAST_OBJ_NOTNULL(sm, d->priv, VMOD_SAINTMODE_SAINTMODE_MAGIC);
	if (!DIRECTOR_Healthy(sm->be))
		return (0);
	ctx = DIRECTOR_Resolving();
	LOCK_Lock(&sm->mtx);
	sm_expire(sm, TIM_real());
	h = (long)sm->n <= sm->threshold;
	if (h && ctx != NULL && ctx->bo != NULL) {
		CHECK_OBJ(ctx->bo, BUSYOBJ_MAGIC);
		h = sm_lookup(sm, ctx->bo->digest) == NULL;
	}
	LOCK_Unlock(&sm->mtx);
	return (h);
}

static const struct director *
sm_resolve(VRT_CTX, const struct director *d)
{
	struct vmod_saintmode_saintmode *sm;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CAST_OBJ_NOTNULL(sm, d->priv, VMOD_SAINTMODE_SAINTMODE_MAGIC);
	/* DIRECTOR_Resolve() set DIRECTOR_Resolving() to ctx. */
	if (!sm_healthy(d))
		return (NULL);
	return (sm->be);
}

static void
sm_count(const struct director *d, unsigned *healthy, unsigned *total)
{
	struct vmod_saintmode_saintmode *sm;

	CAST_OBJ_NOTNULL(sm, d->priv, VMOD_SAINTMODE_SAINTMODE_MAGIC);
	*total = 1;
	*healthy = sm_healthy(d);
}

static const struct director_methods sm_methods[1] = {{
	.magic = DIRECTOR_METHODS_MAGIC,
	.type = "saintmode",
	.resolve = sm_resolve,
	.healthy = sm_healthy,
	.count = sm_count,
}};

VCL_VOID
vmod_saintmode_saintmode__init(VRT_CTX,
    struct vmod_saintmode_saintmode **op, const char *vcl_name,
    VCL_BACKEND backend, VCL_INT threshold)
{
	struct vmod_saintmode_saintmode *sm;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(op != NULL);
	assert(*op == NULL);
	if (backend == NULL) {
		VRT_fail(ctx, "%s: saintmode needs a backend", vcl_name);
		return;
	}
	CHECK_OBJ(backend, DIRECTOR_MAGIC);
	if (threshold < 0) {
		VRT_fail(ctx, "%s: threshold must not be negative", vcl_name);
		return;
	}
	ALLOC_OBJ(sm, VMOD_SAINTMODE_SAINTMODE_MAGIC);
	if (sm == NULL) {
		VRT_fail(ctx, "%s: out of memory", vcl_name);
		return;
	}
	sm->be = backend;
	sm->threshold = threshold;
	sm->vcl = ctx->vcl;
	TAILQ_INIT(&sm->entries);
	sm->dir = DIRECTOR_New(ctx, sm_methods, sm, vcl_name);
	if (sm->dir == NULL) {
		FREE_OBJ(sm);
		return;
	}
	LOCK_Init(&sm->mtx);
	LOCK_Lock(&sm_list_mtx);
	TAILQ_INSERT_TAIL(&sm_list, sm, list);
	LOCK_Unlock(&sm_list_mtx);
	*op = sm;
}

VCL_VOID
vmod_saintmode_saintmode__fini(struct vmod_saintmode_saintmode **op)
{
	struct vmod_saintmode_saintmode *sm;
	struct saintmode_entry *e, *e2;

	TAKE_OBJ_NOTNULL(sm, op, VMOD_SAINTMODE_SAINTMODE_MAGIC);
	LOCK_Lock(&sm_list_mtx);
	TAILQ_REMOVE(&sm_list, sm, list);
	LOCK_Unlock(&sm_list_mtx);
	TAILQ_FOREACH_SAFE(e, &sm->entries, list, e2) {
		TAILQ_REMOVE(&sm->entries, e, list);
		FREE_OBJ(e);
	}
	DIRECTOR_Free(&sm->dir);
	LOCK_Fini(&sm->mtx);
	FREE_OBJ(sm);
}

VCL_BACKEND
vmod_saintmode_saintmode_backend(VRT_CTX,
    struct vmod_saintmode_saintmode *sm)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(sm, VMOD_SAINTMODE_SAINTMODE_MAGIC);
	return (sm->dir);
}

VCL_INT
vmod_saintmode_saintmode_blacklist_count(VRT_CTX,
    struct vmod_saintmode_saintmode *sm)
{
	unsigned n;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(sm, VMOD_SAINTMODE_SAINTMODE_MAGIC);
	LOCK_Lock(&sm->mtx);
	sm_expire(sm, TIM_real());
	n = sm->n;
	LOCK_Unlock(&sm->mtx);
	return (n);
}

VCL_VOID
vmod_saintmode_blacklist(VRT_CTX, VCL_DURATION expires)
{
	struct vmod_saintmode_saintmode *sm;
	struct saintmode_entry *e;
	const struct director *be;
	struct busyobj *bo;
	vtim_real now;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->method != VCL_MET_BACKEND_RESPONSE || ctx->bo == NULL) {
		VRT_fail(ctx, "saintmode.blacklist() is only available in "
		    "vcl_backend_response");
		return;
	}
	bo = ctx->bo;
	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	if (bo->backend == NULL)
		return;
	be = BACKEND_Director(bo->backend);
	now = TIM_real();
	LOCK_Lock(&sm_list_mtx);
	TAILQ_FOREACH(sm, &sm_list, list)
		if (sm->vcl == ctx->vcl && sm->be == be)
			break;
	if (sm == NULL) {
		LOCK_Unlock(&sm_list_mtx);
		VSLb(ctx->vsl, SLT_VCL_Error, "saintmode.blacklist(): "
		    "no saintmode object wraps backend %s", be->vcl_name);
		return;
	}
	LOCK_Lock(&sm->mtx);
	sm_expire(sm, now);
	e = sm_lookup(sm, bo->digest);
	if (e == NULL) {
		ALLOC_OBJ(e, SAINTMODE_ENTRY_MAGIC);
		if (e != NULL) {
			memcpy(e->digest, bo->digest, sizeof e->digest);
			TAILQ_INSERT_TAIL(&sm->entries, e, list);
			sm->n++;
		}
	}
	if (e != NULL)
		e->expires = now + expires;
	LOCK_Unlock(&sm->mtx);
	LOCK_Unlock(&sm_list_mtx);
	if (e == NULL)
		VSLb(ctx->vsl, SLT_VCL_Error,
		    "saintmode.blacklist(): out of memory");
	else
		VSLb(ctx->vsl, SLT_VCL_Log, "saintmode: blacklisted on %s "
		    "for %.3f s", be->vcl_name, expires);
}

/*
 * {"saintmode": [{"name": ..., "backend": ..., "count": n,
 * "threshold": t}, ...]} for this VCL's objects, on ctx->ws.
 */
VCL_STRING
vmod_saintmode_status(VRT_CTX)
{
	struct vmod_saintmode_saintmode *sm;
	char *p;
	size_t len, l = 0;
	int r, first = 1;
	unsigned n;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	len = WS_ReserveAll(ctx->ws);
	p = WS_Reservation(ctx->ws);
#define SM_PUT(...) do {						\
		r = snprintf(p + l, len > l ? len - l : 0, __VA_ARGS__);\
		l += r > 0 ? (size_t)r : 0;				\
	} while (0)
	SM_PUT("{\"saintmode\": [");
	LOCK_Lock(&sm_list_mtx);
	TAILQ_FOREACH(sm, &sm_list, list) {
		if (sm->vcl != ctx->vcl)
			continue;
		LOCK_Lock(&sm->mtx);
		sm_expire(sm, TIM_real());
		n = sm->n;
		LOCK_Unlock(&sm->mtx);
		/* VCL names are identifiers: nothing to escape. */
		SM_PUT("%s{\"name\": \"%s\", \"backend\": \"%s\", "
		    "\"count\": %u, \"threshold\": %ld}", first ? "" : ", ",
		    sm->dir->vcl_name, sm->be->vcl_name, n, sm->threshold);
		first = 0;
	}
	LOCK_Unlock(&sm_list_mtx);
	SM_PUT("]}");
#undef SM_PUT
	if (l >= len) {
		WS_Release(ctx->ws, 0);
		VRT_fail(ctx, "saintmode.status(): out of workspace");
		return (NULL);
	}
	WS_Release(ctx->ws, l + 1);
	return (p);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * director.c -- directors: resolving a VCL BACKEND value down to a
 * backend for a fetch, their health, and the list of modules' directors
 * (dir_list, dir_list_mtx) that backend.list shows.  Plain backends are
 * backend.c's; their director is embedded in struct backend.
 * dir_list_mtx is held only to walk the list, under backend.c's
 * be_list_mtx at most; a module's director locks may be taken under it
 * (health for backend.list), never the reverse.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "cache/backend.h"
#include "cache/child_cli.h"
#include "cache/director.h"
#include "cache/vcl.h"
#include "cache/vrt_priv.h"
#include "cache/vsl.h"
#include "cache/ws.h"

static struct lock dir_list_mtx = LOCK_INITIALIZER;
static TAILQ_HEAD(, director) dir_list = TAILQ_HEAD_INITIALIZER(dir_list);

/*
 * How deep DIRECTOR_Healthy() has recursed on this thread: a director
 * added to itself, directly or through another, must not loop forever.
 */
static __thread unsigned dir_depth;

/*
 * The fetch DIRECTOR_Resolve() is resolving on this thread, else NULL:
 * a member's health may depend on the object fetched (saintmode), and
 * director_healthy_f, called from every director's resolve, has no ctx.
 */
static __thread const struct vrt_ctx *dir_resolving;

/*
 * A reference a resolve method handed with the backend it returns
 * (DIRECTOR_HandRef), for DIRECTOR_Resolve to pass on to the fetch.
 */
static __thread struct backend *dir_handed;

void
DIRECTOR_HandRef(struct backend **bep)
{
	struct backend *be;

	be = *bep;
	*bep = NULL;
	assert(dir_resolving != NULL);
	if (dir_handed != NULL)
		BACKEND_Deref(&dir_handed);
	dir_handed = be;
}

struct director *
DIRECTOR_New(VRT_CTX, const struct director_methods *m, void *priv,
    const char *vcl_name)
{
	struct director *d;
	const char *vcl;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(m, DIRECTOR_METHODS_MAGIC);
	assert(vcl_name != NULL);
	vcl = ctx->vcl != NULL ? VCL_Name(ctx->vcl) : "";
	ALLOC_OBJ(d, DIRECTOR_MAGIC);
	if (d == NULL ||
	    asprintf(&d->display, "%s.%s", vcl, vcl_name) < 0) {
		if (d != NULL)
			FREE_OBJ(d);
		VRT_fail(ctx, "%s: out of memory", vcl_name);
		return (NULL);
	}
	/* The part after "vcl." is the name: one allocation for both. */
	d->vcl_name = d->display + strlen(vcl) + 1;
	d->methods = m;
	d->priv = priv;
	d->t_created = TIM_real();
	d->vcl = ctx->vcl;
	LOCK_Lock(&dir_list_mtx);
	TAILQ_INSERT_TAIL(&dir_list, d, list);
	d->listed = 1;
	LOCK_Unlock(&dir_list_mtx);
	return (d);
}

/*
 * Objects end newest first, but an older director may have a newer one
 * as a member: once one of a VCL's directors goes, none of them is
 * walked by backend.list again (no request runs on a VCL being ended).
 */
void
DIRECTOR_Free(struct director **dp)
{
	struct director *d, *d2, *dn;

	TAKE_OBJ_NOTNULL(d, dp, DIRECTOR_MAGIC);
	assert(d->backend == NULL);
	LOCK_Lock(&dir_list_mtx);
	if (d->listed) {
		TAILQ_FOREACH_SAFE(d2, &dir_list, list, dn) {
			if (d2->vcl != d->vcl)
				continue;
			TAILQ_REMOVE(&dir_list, d2, list);
			d2->listed = 0;
		}
	}
	assert(!d->listed);
	LOCK_Unlock(&dir_list_mtx);
	free(d->display);
	FREE_OBJ(d);
}

unsigned
DIRECTOR_Healthy(const struct director *d)
{
	unsigned h;

	if (d == NULL)
		return (0);
	CHECK_OBJ(d, DIRECTOR_MAGIC);
	if (d->backend != NULL)
		return (BACKEND_Healthy(d->backend) != 0);
	if (d->methods->healthy == NULL)
		return (1);
	if (dir_depth >= DIRECTOR_MAX_DEPTH)
		return (0);
	dir_depth++;
	h = d->methods->healthy(d);
	dir_depth--;
	return (h);
}

const struct vrt_ctx *
DIRECTOR_Resolving(void)
{

	return (dir_resolving);
}

vtim_real
DIRECTOR_Changed(const struct director *d)
{

	CHECK_OBJ(d, DIRECTOR_MAGIC);
	if (d->backend != NULL)
		return (BACKEND_Changed(d->backend));
	return (d->t_created);
}

/*
 * Down to a plain backend's director, or NULL; nothing logged.  A
 * reference a resolve method handed with its pick (a dynamic member,
 * DIRECTOR_HandRef) is left in dir_handed for the caller to take.
 */
static const struct director *
dir_resolve(VRT_CTX, const struct director *d)
{
	const struct vrt_ctx *outer;
	unsigned u;

	assert(dir_handed == NULL);
	outer = dir_resolving;
	dir_resolving = ctx;
	for (u = 0; d != NULL && u < DIRECTOR_MAX_DEPTH; u++) {
		CHECK_OBJ(d, DIRECTOR_MAGIC);
		if (d->backend != NULL)
			break;
		if (d->methods->resolve == NULL) {
			d = NULL;	/* picked at .backend(): none */
			break;
		}
		d = d->methods->resolve(ctx, d);
	}
	dir_resolving = outer;
	if (u == DIRECTOR_MAX_DEPTH)
		d = NULL;
	/* Handed with a pick an enclosing director passed over. */
	if (dir_handed != NULL && (d == NULL || dir_handed != d->backend))
		BACKEND_Deref(&dir_handed);
	return (d);
}

struct backend *
DIRECTOR_Resolve(VRT_CTX, const struct director *d)
{
	const struct director *r;
	struct backend *be;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (d == NULL) {
		VSLb(ctx->vsl, SLT_FetchError, "No backend");
		return (NULL);
	}
	r = dir_resolve(ctx, d);
	if (r != NULL) {
		/*
		 * The fetch's reference: the one handed with it, or a new
		 * one (a VCL's backend lives as long as the VCL the fetch
		 * holds).
		 */
		if (dir_handed != NULL) {
			be = dir_handed;
			dir_handed = NULL;
		} else
			be = BACKEND_Ref(r->backend);
		return (be);
	}
	/* Varnish's words, so that log queries carry over. */
	VSLb(ctx->vsl, SLT_FetchError, "Director %s returned no backend",
	    d->vcl_name);
	return (NULL);
}

/*
 * The task's references to dynamic members VCL holds as values
 * (BACKEND.resolve(), shard's resolve=NOW): let go when the task ends.
 */
struct dir_held {
	unsigned		magic;
#define DIR_HELD_MAGIC		0x1d8e5a73
	struct backend		*be;		/* one reference */
	struct dir_held		*next;
};

static void
dir_held_fini(VRT_CTX, void *priv)
{
	struct dir_held *h;

	(void)ctx;
	for (h = priv; h != NULL; h = h->next) {
		CHECK_OBJ(h, DIR_HELD_MAGIC);
		BACKEND_Deref(&h->be);
	}
}

static const struct vmod_priv_methods dir_held_methods[1] = {{
	.magic = VMOD_PRIV_METHODS_MAGIC,
	.type = "director_held",
	.fini = dir_held_fini,
}};

static const char dir_held_key[1];

int
DIRECTOR_TaskHold(VRT_CTX, struct backend **bep)
{
	struct vmod_priv *task;
	struct dir_held *h;

	task = VRT_priv_task(ctx, dir_held_key);
	h = task == NULL ? NULL : WS_Alloc(ctx->ws, sizeof *h);
	if (h == NULL) {
		BACKEND_Deref(bep);
		VRT_fail(ctx, "director: no workspace to hold backend");
		return (-1);
	}
	INIT_OBJ(h, DIR_HELD_MAGIC);
	h->be = *bep;
	*bep = NULL;
	h->next = task->priv;
	task->priv = h;
	task->methods = dir_held_methods;
	return (0);
}

/* BACKEND.resolve(): what d would pick now, or no backend. */
VCL_BACKEND
VRT_DirectorResolve(VRT_CTX, VCL_BACKEND d)
{
	const struct director *r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (d == NULL)
		return (NULL);
	r = dir_resolve(ctx, d);
	/* A dynamic member must outlive the value: the task holds it. */
	if (dir_handed != NULL && DIRECTOR_TaskHold(ctx, &dir_handed) != 0)
		return (NULL);
	return (r);
}

const struct director *
DIRECTOR_Lookup(const char *vcl, const char *name)
{
	const struct director *d, *r = NULL;
	struct backend *be;
	char *display;

	if (vcl == NULL || name == NULL ||
	    asprintf(&display, "%s.%s", vcl, name) < 0)
		return (NULL);
	be = BACKEND_Lookup(display);
	if (be != NULL)
		r = BACKEND_Director(be);
	LOCK_Lock(&dir_list_mtx);
	TAILQ_FOREACH(d, &dir_list, list)
		if (r == NULL && !strcmp(d->display, display))
			r = d;
	LOCK_Unlock(&dir_list_mtx);
	free(display);
	return (r);
}

/* backend.list ------------------------------------------------------------*/

void
DIRECTOR_CliWidth(director_match_f *match, const char *pat,
    const char *active, size_t *wn)
{
	const struct director *d;
	size_t l;

	LOCK_Lock(&dir_list_mtx);
	TAILQ_FOREACH(d, &dir_list, list)
		if (match(d->display, pat, active) &&
		    (l = strlen(d->display)) > *wn)
			*wn = l;
	LOCK_Unlock(&dir_list_mtx);
}

/*
 * As varnishd lists a director: Admin is its health (directors have no
 * admin state here), Probe the healthy members of all ("1/2").
 */
static void
dir_cli_row(FILE *out, const struct director *d, int json, size_t wn,
    size_t wa)
{
	const char *health;
	char date[TIM_FORMAT_SIZE], probe[32];
	unsigned nh = 0, n = 0;

	health = DIRECTOR_Healthy(d) ? "healthy" : "sick";
	if (d->methods->count != NULL)
		d->methods->count(d, &nh, &n);
	if (json) {
		CCLI_JsonStr(out, d->display);
		fprintf(out, ": {\n      \"type\": \"%s\",\n"
		    "      \"admin_health\": \"%s\",\n"
		    "      \"probe_message\": [%u, %u, \"%s\"],\n"
		    "      \"last_change\": %.3f\n    }",
		    d->methods->type, health, nh, n, health, d->t_created);
		return;
	}
	TIM_format(d->t_created, date);
	(void)snprintf(probe, sizeof probe, "%u/%u", nh, n);
	fprintf(out, "%-*s   %-*s   %-5s    %-7s    %s\n", (int)wn,
	    d->display, (int)wa, health, probe, health, date);
}

void
DIRECTOR_CliRows(FILE *out, director_match_f *match, const char *pat,
    const char *active, int json, int *first, size_t wn, size_t wa)
{
	const struct director *d;

	LOCK_Lock(&dir_list_mtx);
	TAILQ_FOREACH(d, &dir_list, list) {
		if (!match(d->display, pat, active))
			continue;
		if (json)
			fprintf(out, "%s\n    ", *first ? "" : ",");
		*first = 0;
		dir_cli_row(out, d, json, wn, wa);
	}
	LOCK_Unlock(&dir_list_mtx);
}

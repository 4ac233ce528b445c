/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_privs.c -- PRIV_TASK and PRIV_TOP: a module's state for the
 * running task or top-level request, by key, made empty on first use
 * and ended (methods->fini) when the task ends: REQ's req_finish for a
 * client request (and, for the top one, its PRIV_TOPs), the fetch's
 * end for a backend task, vcl.c after vcl_init and vcl_fini.  PRIV_VCL
 * and PRIV_CALL are static data of the compiled VCL, ended by its
 * DISCARD event through VRT_priv_fini().
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vrt_privs.h"
#include "cache/ws.h"
#include "vrt.h"

struct priv_entry {
	unsigned		magic;
#define PRIV_ENTRY_MAGIC	0x1f7ac3d2
	const void		*key;
	struct vmod_priv	priv;
	struct priv_entry	*next;		/* the list */
	struct priv_entry	*hnext;		/* the bucket */
};

void
PRIV_Init(struct vrt_privs *ps, struct ws *ws)
{

	INIT_OBJ(ps, VRT_PRIVS_MAGIC);
	ps->ws = ws;
}

int
PRIV_Busy(const struct vrt_privs *ps)
{

	CHECK_OBJ(ps, VRT_PRIVS_MAGIC);
	return (ps->list != NULL);
}

static unsigned
priv_hash(const void *key, unsigned nbuckets)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ULL;

	return ((unsigned)(h >> 32) & (nbuckets - 1));
}

/* Four times the buckets when there are twice as many entries. */
static void
priv_grow(struct vrt_privs *ps)
{
	struct priv_entry **b, *e;
	unsigned nb, h;

	nb = ps->nbuckets == 0 ? 16 : ps->nbuckets * 4;
	b = WS_Alloc(ps->ws, nb * sizeof *b);
	if (b == NULL)
		return;		/* longer chains; the overflow is marked */
	memset(b, 0, nb * sizeof *b);
	for (e = ps->list; e != NULL; e = e->next) {
		h = priv_hash(e->key, nb);
		e->hnext = b[h];
		b[h] = e;
	}
	ps->buckets = b;
	ps->nbuckets = nb;
}

static struct vmod_priv *
priv_lookup(VRT_CTX, struct vrt_privs *ps, const void *key, int make)
{
	struct priv_entry *e;
	unsigned h;

	CHECK_OBJ(ps, VRT_PRIVS_MAGIC);
	if (ps->nbuckets > 0) {
		h = priv_hash(key, ps->nbuckets);
		for (e = ps->buckets[h]; e != NULL; e = e->hnext)
			if (e->key == key)
				return (&e->priv);
	}
	if (!make)
		return (NULL);
	if (ps->n >= 2 * ps->nbuckets)
		priv_grow(ps);
	e = WS_Alloc(ps->ws, sizeof *e);
	if (e == NULL || ps->nbuckets == 0) {
		VRT_fail(ctx, "out of workspace for a module's state "
		    "(PRIV_TASK/PRIV_TOP)");
		return (NULL);
	}
	INIT_OBJ(e, PRIV_ENTRY_MAGIC);
	e->key = key;
	e->next = ps->list;
	ps->list = e;
	h = priv_hash(key, ps->nbuckets);
	e->hnext = ps->buckets[h];
	ps->buckets[h] = e;
	ps->n++;
	return (&e->priv);
}

void
PRIV_Fini(VRT_CTX, struct vrt_privs *ps)
{
	struct priv_entry *e;

	CHECK_OBJ(ps, VRT_PRIVS_MAGIC);
	for (e = ps->list; e != NULL; e = e->next) {
		CHECK_OBJ(e, PRIV_ENTRY_MAGIC);
		VRT_priv_fini(ctx, &e->priv);
	}
	PRIV_Init(ps, ps->ws);
}

/* The VRT side ------------------------------------------------------------*/

static struct vrt_privs *
priv_task(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	/* Every context the runtime makes for running VCL has one. */
	if (ctx->privs == NULL)
		VRT_fail(ctx, "PRIV_TASK outside a task");
	return (ctx->privs);
}

struct vmod_priv *
VRT_priv_task(VRT_CTX, const void *key)
{

	struct vrt_privs *ps = priv_task(ctx);

	return (ps == NULL ? NULL : priv_lookup(ctx, ps, key, 1));
}

struct vmod_priv *
VRT_priv_task_get(VRT_CTX, const void *key)
{

	struct vrt_privs *ps = priv_task(ctx);

	return (ps == NULL ? NULL : priv_lookup(ctx, ps, key, 0));
}

static struct vrt_privs *
priv_top(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req == NULL) {
		VRT_fail(ctx, "PRIV_TOP is only for client requests, not "
		    "in vcl_%s", VCL_MethodName(ctx->method));
		return (NULL);
	}
	CHECK_OBJ(ctx->req, REQ_MAGIC);
	CHECK_OBJ(ctx->req->top, REQ_MAGIC);
	/*
	 * On the top request's workspace, also from an include: includes
	 * run on the top request's worker while its delivery waits, with
	 * no reservation on that workspace (WS_Alloc asserts as much).
	 */
	return (ctx->req->top->privs_top);
}

struct vmod_priv *
VRT_priv_top(VRT_CTX, const void *key)
{
	struct vrt_privs *ps = priv_top(ctx);

	return (ps == NULL ? NULL : priv_lookup(ctx, ps, key, 1));
}

struct vmod_priv *
VRT_priv_top_get(VRT_CTX, const void *key)
{
	struct vrt_privs *ps = priv_top(ctx);

	return (ps == NULL ? NULL : priv_lookup(ctx, ps, key, 0));
}

void
VRT_priv_fini(VRT_CTX, struct vmod_priv *p)
{
	const struct vmod_priv_methods *m = p->methods;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	p->methods = NULL;
	if (m == NULL)
		return;
	CHECK_OBJ(m, VMOD_PRIV_METHODS_MAGIC);
	if (p->priv != NULL && m->fini != NULL)
		m->fini(ctx, p->priv);
	p->priv = NULL;
	p->len = 0;
}

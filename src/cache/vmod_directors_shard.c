/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_directors_shard.c -- the shard director and shard_param of the
 * directors module (include/vmod_std.h), as Varnish 7.1's: consistent
 * hashing on a ring of points, each the hash of a member's ident and a
 * running number; a key goes to the member of the first point at or
 * after it, and on round the ring to the next member when that one is
 * sick.  The ring's layout and the walk are Varnish's, so that a key
 * picks the member varnishd would.
 *
 * Changes (add_backend, remove_backend, clear) are kept per task on its
 * workspace and applied at .reconfigure() or when the task ends: a new
 * ring is built from the current one without a lock, then swapped in
 * under the object's mtx (rebuilt again if another task swapped first).
 * A resolver takes a reference to the ring under mtx and walks it
 * unlocked (health may take a nested director's lock); the last
 * reference frees a replaced ring.  mtx is a leaf.
 *
 * Dynamic members (.add_dynamic(), ours): every member of a dynamic
 * director's domain (vmod_dynamic.h) is a member with ident "ip:port";
 * the dynamic module's thread calls us when a domain's members change
 * and the ring is rebuilt as a reconfigure does, without a task: the
 * static members of the current ring plus the domains' members now.
 * A ring holds a reference to each dynamic member's backend.
 *
 * Parameters have three layers, as in Varnish: a .backend() call's
 * arguments, the task's copy of a shard_param (PRIV_TASK, changed by
 * .set() in backend methods), the shard_param's vcl_init values; each
 * unset field falls through to the next, then to the built-in defaults.
 */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/rnd.h"
#include "common/sha256.h"
#include "cache/director.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/req.h"
#include "cache/vmod_directors.h"
#include "cache/vmod_dynamic.h"
#include "cache/backend.h"
#include "cache/vrt_priv.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* .debug() flags, Varnish's */
#define SHARD_DEBUG_LOOKUP	1U
#define SHARD_DEBUG_RING	(1U << 1)
#define SHARD_DEBUG_RAMPWARM	(1U << 2)

/* Which parameters a layer sets (Varnish's bits and order). */
#define ARG_BY		(1U << 0)
#define ARG_KEY		(1U << 1)
#define ARG_KEY_BLOB	(1U << 2)
#define ARG_ALT		(1U << 3)
#define ARG_WARMUP	(1U << 4)
#define ARG_RAMPUP	(1U << 5)
#define ARG_HEALTHY	(1U << 6)
#define ARG_PARAM	(1U << 7)
#define ARG_RESOLVE	(1U << 8)
#define ARG_SET		(ARG_PARAM - 1)	/* what .set() may give */
/* What a layer keeps: the key goes with by. */
#define ARG_KEPT	(ARG_SET & ~ARG_KEY & ~ARG_KEY_BLOB)

/* The ENUM values, so that they compare by pointer once parsed. */
static const char by_hash[] = "HASH", by_url[] = "URL", by_key[] = "KEY",
    by_blob[] = "BLOB";
static const char h_chosen[] = "CHOSEN", h_ignore[] = "IGNORE",
    h_all[] = "ALL";

#define SHARD_LOG(vsl, tag, name, ...)					\
	shard_log(vsl, tag, name, __VA_ARGS__)

static void shard_log(struct vsl_log *vsl, enum VSL_tag_e tag,
    const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * "vmod_directors: shard NAME: ..." as Varnish words them, so that
 * `varnishlog -I Error:^vmod_directors.shard` carries over; vxid 0
 * without a task (vcl_init's log is the CLI's).
 */
static void
shard_log(struct vsl_log *vsl, enum VSL_tag_e tag, const char *name,
    const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof buf, "vmod_directors: shard %s: ", name);
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof buf)
		(void)vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
	va_end(ap);
	if (vsl != NULL)
		VSLb(vsl, tag, "%s", buf);
	else
		VSL(tag, 0, "%s", buf);
}

/* params ------------------------------------------------------------------*/

enum shard_scope {
	SCOPE_BUILTIN = 1,
	SCOPE_VCL,	/* a shard_param object: vcl_init's values */
	SCOPE_TASK,	/* its copy for one fetch, in the task's ws */
	SCOPE_STACK,	/* one .backend() call's arguments */
};

struct vmod_directors_shard_param {
	unsigned		magic;
#define SHARD_PARAM_MAGIC	0x4be21d07
	enum shard_scope	scope;		/* const */
	const char		*vcl_name;	/* const */
	/* The next layer down; NULL only for the built-in defaults. */
	const struct vmod_directors_shard_param *defaults;
	uint32_t		mask;		/* ARG_KEPT bits set here */
	const char		*by;		/* by_*; NULL: by_hash */
	const char		*healthy;	/* h_*; NULL: h_chosen */
	uint32_t		key;		/* by=KEY or BLOB */
	long			alt;
	double			warmup;		/* -1: the director's */
	unsigned		rampup;
	/* SCOPE_VCL: what .use() returns, pointing at this object. */
	struct vrt_blob		blob;
};

/*
 * VCL scope fields are changed only in vcl_init (one thread) and read by
 * fetches after it: const after init, as far as fetches go.
 */
static const struct vmod_directors_shard_param shard_param_builtin = {
	.magic = SHARD_PARAM_MAGIC,
	.scope = SCOPE_BUILTIN,
	.vcl_name = "builtin defaults",
	.mask = ARG_KEPT,
	.alt = 0,
	.warmup = -1,
	.rampup = 1,
};

static const char *
shard_by_value(const char *s)
{

	if (s == NULL || *s == '\0')
		return (NULL);
	if (!strcmp(s, by_url))
		return (by_url);
	if (!strcmp(s, by_key))
		return (by_key);
	if (!strcmp(s, by_blob))
		return (by_blob);
	return (by_hash);
}

static const char *
shard_healthy_value(const char *s)
{

	if (s == NULL || *s == '\0')
		return (NULL);
	if (!strcmp(s, h_ignore))
		return (h_ignore);
	if (!strcmp(s, h_all))
		return (h_all);
	return (h_chosen);
}

/* A client method but vcl_pipe: parameters cannot be changed there. */
static int
shard_in_client(VRT_CTX)
{

	return (ctx->bo == NULL && ctx->req != NULL &&
	    ctx->method != VCL_MET_PIPE);
}

/* A fetch, or vcl_pipe: where a task's parameters live. */
static int
shard_in_backend(VRT_CTX)
{

	return (ctx->bo != NULL ||
	    (ctx->req != NULL && ctx->method == VCL_MET_PIPE));
}

/*
 * The layer this task reads for id (a shard's or a shard_param's
 * address): the task's copy if it has made one, else pa.
 */
static const struct vmod_directors_shard_param *
shard_param_task_read(VRT_CTX, const void *id,
    const struct vmod_directors_shard_param *pa)
{
	struct vmod_priv *task;
	const struct vmod_directors_shard_param *p;

	CHECK_OBJ(pa, SHARD_PARAM_MAGIC);
	task = ctx->privs != NULL ? VRT_priv_task_get(ctx, id) : NULL;
	if (task != NULL && task->priv != NULL) {
		CAST_OBJ_NOTNULL(p, task->priv, SHARD_PARAM_MAGIC);
		return (p);
	}
	if (id == pa || pa->scope != SCOPE_VCL)
		return (pa);
	return (shard_param_task_read(ctx, pa, pa));
}

/* The task's copy for id, made (on the workspace) if need be. */
static struct vmod_directors_shard_param *
shard_param_task_write(VRT_CTX, const void *id, const char *who,
    const struct vmod_directors_shard_param *pa)
{
	struct vmod_priv *task;
	struct vmod_directors_shard_param *p;

	CHECK_OBJ(pa, SHARD_PARAM_MAGIC);
	task = VRT_priv_task(ctx, id);
	if (task == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: no priv_task", who);
		return (NULL);
	}
	if (task->priv != NULL) {
		CAST_OBJ_NOTNULL(p, task->priv, SHARD_PARAM_MAGIC);
		return (p);
	}
	p = WS_Alloc(ctx->ws, sizeof *p);
	if (p == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: WS_Alloc failed",
		    who);
		return (NULL);
	}
	INIT_OBJ(p, SHARD_PARAM_MAGIC);
	p->scope = SCOPE_TASK;
	p->vcl_name = who;
	task->priv = p;
	if (id == pa || pa->scope != SCOPE_VCL)
		p->defaults = pa;
	else
		p->defaults = shard_param_task_write(ctx, pa, pa->vcl_name,
		    pa);
	return (p->defaults != NULL ? p : NULL);
}

/* Fills what to leaves unset from from and the layers under it. */
static void
shard_param_merge(struct vmod_directors_shard_param *to,
    const struct vmod_directors_shard_param *from)
{
	unsigned depth;

	for (depth = 0; to->mask != ARG_KEPT && from != NULL &&
	    depth < 8; depth++, from = from->defaults) {
		CHECK_OBJ(from, SHARD_PARAM_MAGIC);
		if (!(to->mask & ARG_BY) && (from->mask & ARG_BY)) {
			to->by = from->by;
			if (from->by == by_key || from->by == by_blob)
				to->key = from->key;
		}
		if (!(to->mask & ARG_HEALTHY) && (from->mask & ARG_HEALTHY))
			to->healthy = from->healthy;
		if (!(to->mask & ARG_RAMPUP) && (from->mask & ARG_RAMPUP))
			to->rampup = from->rampup;
		if (!(to->mask & ARG_ALT) && (from->mask & ARG_ALT))
			to->alt = from->alt;
		if (!(to->mask & ARG_WARMUP) && (from->mask & ARG_WARMUP))
			to->warmup = from->warmup;
		to->mask |= from->mask;
	}
	/* Layers end in the built-in defaults, which set everything. */
	assert(to->mask == ARG_KEPT);
}

/* The four bytes a key_blob stands for: its first, big-endian, padded. */
static uint32_t
shard_blob_key(VCL_BLOB b)
{
	const unsigned char *p = b->blob;
	uint32_t k = 0;
	size_t i, n = b->len < 4 ? b->len : 4;

	for (i = 0; i < n; i++)
		k = k << 8 | p[i];
	return (k);
}

struct shard_args {
	uint32_t		mask;		/* ARG_* given */
	const char		*by;
	VCL_INT			key;
	VCL_BLOB		key_blob;
	VCL_INT			alt;
	VCL_REAL		warmup;
	VCL_BOOL		rampup;
	const char		*healthy;
};

/* Sets p's fields from a; 0, or -1 with ctx failed. */
static int
shard_param_args(VRT_CTX, struct vmod_directors_shard_param *p,
    const char *func, const struct shard_args *a)
{
	const char *by;

	CHECK_OBJ(p, SHARD_PARAM_MAGIC);
	by = (a->mask & ARG_BY) ? a->by : NULL;
	if (by == NULL)
		by = by_hash;
	if (by == by_key) {
		if (!(a->mask & ARG_KEY)) {
			VRT_fail(ctx, "vmod_directors: shard %s: %s missing "
			    "key argument with by=%s", p->vcl_name, func, by);
			return (-1);
		}
		if (a->key < 0 || a->key > UINT32_MAX) {
			VRT_fail(ctx, "vmod_directors: shard %s: %s invalid "
			    "key argument %jd with by=%s", p->vcl_name, func,
			    (intmax_t)a->key, by);
			return (-1);
		}
		p->key = (uint32_t)a->key;
	} else if (by == by_blob) {
		if (!(a->mask & ARG_KEY_BLOB)) {
			VRT_fail(ctx, "vmod_directors: shard %s: %s missing "
			    "key_blob argument with by=%s", p->vcl_name, func,
			    by);
			return (-1);
		}
		if (a->key_blob == NULL || a->key_blob->len == 0 ||
		    a->key_blob->blob == NULL) {
			SHARD_LOG(ctx->vsl, SLT_Error, p->vcl_name, "%s "
			    "by=BLOB but no or empty key_blob - using key 0",
			    func);
			p->key = 0;
		} else
			p->key = shard_blob_key(a->key_blob);
	} else if (a->mask & (ARG_KEY | ARG_KEY_BLOB)) {
		VRT_fail(ctx, "vmod_directors: shard %s: %s key and key_blob "
		    "arguments are invalid with by=%s", p->vcl_name, func, by);
		return (-1);
	}
	p->by = by;
	if (a->mask & ARG_ALT) {
		if (a->alt < 0) {
			VRT_fail(ctx, "vmod_directors: shard %s: %s invalid "
			    "alt argument %jd", p->vcl_name, func,
			    (intmax_t)a->alt);
			return (-1);
		}
		p->alt = a->alt;
	}
	if (a->mask & ARG_WARMUP) {
		if ((a->warmup < 0 && a->warmup != -1) || a->warmup > 1 ||
		    isnan(a->warmup)) {
			VRT_fail(ctx, "vmod_directors: shard %s: %s invalid "
			    "warmup argument %f", p->vcl_name, func, a->warmup);
			return (-1);
		}
		p->warmup = a->warmup;
	}
	if (a->mask & ARG_RAMPUP)
		p->rampup = a->rampup ? 1 : 0;
	if (a->mask & ARG_HEALTHY)
		p->healthy = a->healthy;
	p->mask = a->mask & ARG_KEPT;
	return (0);
}

static const struct vmod_directors_shard_param *
shard_param_from_blob(VCL_BLOB b)
{
	const struct vmod_directors_shard_param *p;

	if (b == NULL || b->blob == NULL || b->len != sizeof *p)
		return (NULL);
	p = b->blob;
	if (p->magic != SHARD_PARAM_MAGIC || p->scope != SCOPE_VCL)
		return (NULL);
	return (p);
}

/* the ring ----------------------------------------------------------------*/

struct shard_member {
	const struct director	*d;		/* of the same VCL */
	char			*ident;		/* owned; NULL: d's name */
	double			rampup;		/* NAN: the director's */
	uint32_t		replicas;
	/* A dynamic member: d's backend, one reference; else NULL. */
	struct backend		*dyn_be;
};

/* A dynamic domain feeding the ring (.add_dynamic()). */
struct shard_source {
	unsigned		magic;
#define SHARD_SOURCE_MAGIC	0x6b0f2d94
	struct vmod_directors_shard *shard;	/* const */
	const struct director	*domain;	/* const */
	double			rampup;		/* const; NAN: default */
	double			weight;		/* const; >= 1 */
	struct dynamic_sub	*sub;		/* const */
	/* Pushed at the head under shard->mtx, never removed till fini. */
	struct shard_source	*next;		/* const once pushed */
};

struct shard_point {
	uint32_t		point;
	unsigned		host;		/* index into m[] */
};

/* Immutable once published in shard->ring. */
struct shard_ring {
	unsigned		magic;
#define SHARD_RING_MAGIC	0x95a3c2e4
	unsigned		refs;	/* up under shard->mtx; down atomic */
	unsigned		n;
	struct shard_member	*m;
	uint32_t		n_points;
	struct shard_point	*points;	/* sorted by point */
};

struct vmod_directors_shard {
	unsigned		magic;
#define VMOD_DIRECTORS_SHARD_MAGIC 0x1f6c8b5d
	struct lock		mtx;
	struct shard_ring	*ring;		/* mtx; one reference */
	double			warmup;		/* mtx */
	double			rampup;		/* mtx */
	/* The associated shard_param (its VCL scope), or the built-in. */
	const struct vmod_directors_shard_param *param;	/* mtx */
	unsigned		debug;		/* atomic: SHARD_DEBUG_* */
	struct director		*dir;		/* const */
	const char		*name;		/* const: dir's */
	struct shard_source	*sources;	/* mtx: .add_dynamic()'s */
	VCL_INT			replicas;	/* mtx: the last applied */
};

static const char *
shard_ident(const struct shard_member *m)
{

	return (m->ident != NULL ? m->ident : m->d->vcl_name);
}

static void
shard_ring_free(struct shard_ring **rp)
{
	struct shard_ring *r;
	unsigned u;

	TAKE_OBJ_NOTNULL(r, rp, SHARD_RING_MAGIC);
	for (u = 0; u < r->n; u++) {
		free(r->m[u].ident);
		if (r->m[u].dyn_be != NULL)
			BACKEND_Deref(&r->m[u].dyn_be);
	}
	free(r->m);
	free(r->points);
	FREE_OBJ(r);
}

static void
shard_ring_rel(struct shard_ring **rp)
{
	struct shard_ring *r;

	TAKE_OBJ_NOTNULL(r, rp, SHARD_RING_MAGIC);
	if (__atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) == 0)
		shard_ring_free(&r);
}

static struct shard_ring *
shard_ring_get(struct vmod_directors_shard *s)
{
	struct shard_ring *r;

	LOCK_Lock(&s->mtx);
	r = s->ring;
	(void)__atomic_add_fetch(&r->refs, 1, __ATOMIC_RELAXED);
	LOCK_Unlock(&s->mtx);
	return (r);
}

static int
shard_point_cmp(const void *a, const void *b)
{
	const struct shard_point *pa = a, *pb = b;

	return (pa->point < pb->point ? -1 : pa->point > pb->point);
}

/*
 * The points: for each member, replicas of them (capped so that the
 * total fits), the hash of ident and "0", "1", ...; sorted.  -1 when
 * out of memory.
 */
static int
shard_ring_points(struct shard_ring *r)
{
	struct strands st;
	const char *p[2];
	char num[12];
	uint32_t rmax, n = 0, i = 0, j, rep;
	unsigned h;

	rmax = (UINT32_MAX - 1) / r->n;
	for (h = 0; h < r->n; h++)
		n += r->m[h].replicas < rmax ? r->m[h].replicas : rmax;
	r->points = calloc(n, sizeof *r->points);
	if (r->points == NULL)
		return (-1);
	st.n = 2;
	st.p = p;
	for (h = 0; h < r->n; h++) {
		rep = r->m[h].replicas < rmax ? r->m[h].replicas : rmax;
		p[0] = shard_ident(&r->m[h]);
		p[1] = num;
		for (j = 0; j < rep; j++, i++) {
			(void)snprintf(num, sizeof num, "%u", j);
			r->points[i].point = VDIR_HashStrands32(&st);
			r->points[i].host = h;
		}
	}
	assert(i == n);
	r->n_points = n;
	qsort(r->points, n, sizeof *r->points, shard_point_cmp);
	return (0);
}

/* changes -----------------------------------------------------------------*/

enum shard_change_what {
	SHARD_CLEAR = 1,
	SHARD_ADD,
	SHARD_REMOVE,
};

/* One change of a task, in its workspace. */
struct shard_change {
	unsigned		magic;
#define SHARD_CHANGE_MAGIC	0x7c0a55e1
	enum shard_change_what	what;
	const struct director	*d;		/* NULL: remove by ident */
	const char		*ident;		/* NULL or non-empty */
	double			rampup;		/* add: NAN for default */
	double			weight;		/* add: >= 1 */
	struct shard_change	*next;
};

/* A task's changes to one shard, pending: its PRIV_TASK (shard + 1). */
struct shard_changes {
	unsigned		magic;
#define SHARD_CHANGES_MAGIC	0x2a9d6f30
	struct vmod_directors_shard *shard;
	struct shard_change	*first;
	struct shard_change	**tail;
};

static int shard_apply(VRT_CTX, struct vmod_directors_shard *s,
    struct shard_changes *c, VCL_INT replicas);

/* The task ends with changes not reconfigured: Varnish applies them. */
static void
shard_changes_fini(VRT_CTX, void *priv)
{
	struct shard_changes *c;

	CAST_OBJ_NOTNULL(c, priv, SHARD_CHANGES_MAGIC);
	(void)shard_apply(ctx, c->shard, c, 67);	/* logged if it fails */
}

static const struct vmod_priv_methods shard_changes_methods[1] = {{
	.magic = VMOD_PRIV_METHODS_MAGIC,
	.type = "vmod_directors_shard_cfg",
	.fini = shard_changes_fini,
}};

static struct shard_changes *
shard_changes_get(VRT_CTX, struct vmod_directors_shard *s)
{
	struct vmod_priv *task;
	struct shard_changes *c;

	task = VRT_priv_task(ctx, (const char *)s + 1);
	if (task == NULL)
		return (NULL);
	if (task->priv != NULL) {
		CAST_OBJ_NOTNULL(c, task->priv, SHARD_CHANGES_MAGIC);
		return (c);
	}
	c = WS_Alloc(ctx->ws, sizeof *c);
	if (c == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: could not get "
		    "workspace", s->name);
		return (NULL);
	}
	INIT_OBJ(c, SHARD_CHANGES_MAGIC);
	c->shard = s;
	c->tail = &c->first;
	task->priv = c;
	task->methods = shard_changes_methods;
	return (c);
}

static struct shard_change *
shard_change_add(VRT_CTX, struct vmod_directors_shard *s,
    enum shard_change_what what)
{
	struct shard_changes *c;
	struct shard_change *ch;

	c = shard_changes_get(ctx, s);
	if (c == NULL)
		return (NULL);
	ch = WS_Alloc(ctx->ws, sizeof *ch);
	if (ch == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: could not get "
		    "workspace for task", s->name);
		return (NULL);
	}
	INIT_OBJ(ch, SHARD_CHANGE_MAGIC);
	ch->what = what;
	*c->tail = ch;
	c->tail = &ch->next;
	return (ch);
}

/* A member set being built: slots may be NULL (holes) until the end. */
struct shard_build {
	struct shard_member	*m;
	unsigned		n;		/* slots in use, holes too */
	unsigned		cap;
};

/* Add's "already there": by ident (or name), or the same director. */
static int
shard_same(const struct shard_member *a, const struct director *d,
    const char *ident)
{

	if (a->ident == NULL && ident == NULL)
		return (a->d == d);
	return (!strcmp(shard_ident(a), ident != NULL ? ident : d->vcl_name));
}

/*
 * Varnish's slot order, which the hosts' numbers in .debug() output
 * show: an add fills the lowest hole or appends; a remove leaves a hole
 * (or shortens at the end); at the end the last members fill the holes.
 */
static int
shard_build_add(struct shard_build *b, const struct shard_change *ch,
    uint32_t replicas)
{
	struct shard_member *m;
	unsigned u;

	for (u = 0; u < b->n && b->m[u].d != NULL; u++)
		continue;
	if (u == b->n) {
		if (b->n == b->cap)
			return (-1);	/* sized for every add: a bug */
		b->n++;
	}
	m = &b->m[u];
	m->d = ch->d;
	m->ident = NULL;
	if (ch->ident != NULL && (m->ident = strdup(ch->ident)) == NULL) {
		m->d = NULL;
		return (-1);
	}
	m->rampup = ch->rampup;
	m->replicas = replicas;
	return (0);
}

static void
shard_build_remove(struct shard_build *b, const struct shard_change *ch)
{
	unsigned u;

	for (u = 0; u < b->n; u++) {
		if (b->m[u].d == NULL)
			continue;
		if (ch->ident == NULL ? b->m[u].d != ch->d :
		    strcmp(shard_ident(&b->m[u]), ch->ident) != 0)
			continue;
		free(b->m[u].ident);
		memset(&b->m[u], 0, sizeof b->m[u]);
	}
	while (b->n > 0 && b->m[b->n - 1].d == NULL)
		b->n--;
}

static void
shard_build_pack(struct shard_build *b)
{
	unsigned u;

	for (u = 0; u < b->n; u++) {
		while (b->n > 0 && b->m[b->n - 1].d == NULL)
			b->n--;
		if (u >= b->n)
			break;
		if (b->m[u].d != NULL)
			continue;
		b->m[u] = b->m[b->n - 1];
		memset(&b->m[b->n - 1], 0, sizeof b->m[0]);
		b->n--;
	}
}

/* A snapshot of the dynamic sources' members, for one build. */
struct shard_dyn {
	struct dynamic_member	*m;		/* each one reference */
	unsigned		n;
	const struct shard_source *src;
};

/* The members of every source now: *nsrc snapshots, or NULL (none). */
static struct shard_dyn *
shard_dyn_get(struct vmod_directors_shard *s, unsigned *nsrc,
    unsigned *nmem)
{
	const struct shard_source *src, *first;
	struct shard_dyn *dy;
	unsigned n = 0, u = 0;

	*nsrc = *nmem = 0;
	LOCK_Lock(&s->mtx);
	first = s->sources;
	LOCK_Unlock(&s->mtx);
	for (src = first; src != NULL; src = src->next)
		n++;
	if (n == 0 || (dy = calloc(n, sizeof *dy)) == NULL)
		return (NULL);
	for (src = first; src != NULL; src = src->next, u++) {
		CHECK_OBJ(src, SHARD_SOURCE_MAGIC);
		dy[u].src = src;
		dy[u].m = DYNAMIC_Members(src->domain, &dy[u].n);
		*nmem += dy[u].n;
	}
	*nsrc = n;
	return (dy);
}

/* Let go of what the build did not take. */
static void
shard_dyn_free(struct shard_dyn **dyp, unsigned n)
{
	struct shard_dyn *dy = *dyp;
	unsigned u, v;

	*dyp = NULL;
	for (u = 0; dy != NULL && u < n; u++) {
		for (v = 0; v < dy[u].n; v++)
			if (dy[u].m[v].be != NULL)
				BACKEND_Deref(&dy[u].m[v].be);
		free(dy[u].m);
	}
	free(dy);
}

static uint32_t
shard_replicas(VCL_INT replicas, double weight)
{

	return ((double)replicas * weight > UINT32_MAX ? UINT32_MAX :
	    (uint32_t)((double)replicas * weight));
}

/*
 * The dynamic members after the static ones, in the sources' order
 * (the ring's points depend on idents only, so every edge builds the
 * same ring from the same answers); an ident taken already is skipped.
 */
static int
shard_build_dyn(VRT_CTX, const struct vmod_directors_shard *s,
    struct shard_build *b, struct shard_dyn *dy, unsigned ndy,
    VCL_INT replicas)
{
	struct shard_change ch;
	struct dynamic_member *dm;
	unsigned u, v, w;

	for (u = 0; u < ndy; u++) {
		for (v = 0; v < dy[u].n; v++) {
			dm = &dy[u].m[v];
			for (w = 0; w < b->n; w++)
				if (b->m[w].d != NULL &&
				    !strcmp(shard_ident(&b->m[w]), dm->ident))
					break;
			if (w < b->n) {
				SHARD_LOG(ctx->vsl, SLT_Notice, s->name,
				    "dynamic member %s already exists - "
				    "skipping", dm->ident);
				continue;
			}
			INIT_OBJ(&ch, SHARD_CHANGE_MAGIC);
			ch.what = SHARD_ADD;
			ch.d = BACKEND_Director(dm->be);
			ch.ident = dm->ident;
			ch.rampup = dy[u].src->rampup;
			if (shard_build_add(b, &ch, shard_replicas(replicas,
			    dy[u].src->weight)) != 0)
				return (-1);
			/* The ring's reference now. */
			b->m[b->n - 1].dyn_be = dm->be;
			dm->be = NULL;
		}
	}
	return (0);
}

/*
 * The ring old would become with c's changes and replicas, and the
 * dynamic sources' members now; NULL when out of memory.  Changes
 * before the last clear() do not count.
 */
static struct shard_ring *
shard_ring_build(VRT_CTX, struct vmod_directors_shard *s,
    const struct shard_ring *old, const struct shard_changes *c,
    VCL_INT replicas)
{
	struct shard_build b = { NULL, 0, 0 };
	const struct shard_change *ch, *from = c->first;
	struct shard_ring *r;
	struct shard_dyn *dy;
	unsigned u, adds = 0, ndy, ndym;

	for (ch = c->first; ch != NULL; ch = ch->next)
		if (ch->what == SHARD_CLEAR)
			from = ch->next;
	for (ch = from; ch != NULL; ch = ch->next)
		adds += ch->what == SHARD_ADD;
	if (from == c->first)
		b.n = old->n;
	dy = shard_dyn_get(s, &ndy, &ndym);
	b.cap = b.n + adds + ndym;
	b.m = calloc(b.cap > 0 ? b.cap : 1, sizeof *b.m);
	ALLOC_OBJ(r, SHARD_RING_MAGIC);
	if (b.m == NULL || r == NULL)
		goto fail;
	for (u = 0; u < b.n; u++) {
		/* Dynamic members come afresh below: a hole here. */
		if (old->m[u].dyn_be != NULL)
			continue;
		b.m[u] = old->m[u];
		b.m[u].ident = NULL;
		if (old->m[u].ident != NULL &&
		    (b.m[u].ident = strdup(old->m[u].ident)) == NULL)
			goto fail;
	}
	/* Varnish's slot order for the static members' changes. */
	while (b.n > 0 && b.m[b.n - 1].d == NULL)
		b.n--;
	for (ch = from; ch != NULL; ch = ch->next) {
		CHECK_OBJ(ch, SHARD_CHANGE_MAGIC);
		if (ch->what == SHARD_REMOVE) {
			shard_build_remove(&b, ch);
			continue;
		}
		assert(ch->what == SHARD_ADD);
		for (u = 0; u < b.n; u++)
			if (b.m[u].d != NULL && shard_same(&b.m[u], ch->d,
			    ch->ident))
				break;
		if (u < b.n) {
			SHARD_LOG(ctx->vsl, SLT_Notice, s->name, "backend "
			    "%s%s%s already exists - skipping",
			    b.m[u].d->vcl_name, b.m[u].ident != NULL ? "/" : "",
			    b.m[u].ident != NULL ? b.m[u].ident : "");
			continue;
		}
		if (shard_build_add(&b, ch, shard_replicas(replicas,
		    ch->weight)) != 0)
			goto fail;
	}
	shard_build_pack(&b);
	if (shard_build_dyn(ctx, s, &b, dy, ndy, replicas) != 0)
		goto fail;
	shard_dyn_free(&dy, ndy);
	r->refs = 1;
	r->n = b.n;
	r->m = b.m;
	b.m = NULL;
	if (r->n > 0 && shard_ring_points(r) != 0)
		goto fail;
	return (r);
fail:
	shard_dyn_free(&dy, ndy);
	if (b.m != NULL) {
		for (u = 0; u < b.cap; u++) {
			free(b.m[u].ident);
			if (b.m[u].dyn_be != NULL)
				BACKEND_Deref(&b.m[u].dyn_be);
		}
		free(b.m);
	}
	if (r != NULL)
		shard_ring_free(&r);
	return (NULL);
}

static void
shard_ring_debug(const struct vmod_directors_shard *s,
    const struct shard_ring *r)
{
	uint32_t i;

	if (!(__atomic_load_n(&s->debug, __ATOMIC_RELAXED) &
	    SHARD_DEBUG_RING))
		return;
	for (i = 0; i < r->n_points; i++)
		VSL(SLT_Debug, 0, "vmod_directors: shard: hashcircle[%5jd] = "
		    "{point = %8x, host = %2u}\n", (intmax_t)i,
		    r->points[i].point, r->points[i].host);
}

/*
 * Applies c's changes (then forgets them): 1, or 0 when the ring is
 * left empty or memory ran out (logged).
 */
static int
shard_apply(VRT_CTX, struct vmod_directors_shard *s,
    struct shard_changes *c, VCL_INT replicas)
{
	struct shard_ring *old, *old2, *r;
	int ret;

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	CHECK_OBJ(c, SHARD_CHANGES_MAGIC);
	if (c->first == NULL)
		return (1);
	for (;;) {
		old = shard_ring_get(s);
		r = shard_ring_build(ctx, s, old, c, replicas);
		if (r == NULL) {
			shard_ring_rel(&old);
			SHARD_LOG(ctx->vsl, SLT_Error, s->name,
			    ".reconfigure() out of memory for %jd replicas; "
			    "the old ring stays", (intmax_t)replicas);
			break;
		}
		r->refs = 2;	/* mtx's, once published, and ours */
		LOCK_Lock(&s->mtx);
		if (s->ring == old) {
			s->ring = r;
			s->replicas = replicas;
			LOCK_Unlock(&s->mtx);
			old2 = old;
			shard_ring_rel(&old);	/* mtx's reference */
			shard_ring_rel(&old2);	/* ours */
			break;
		}
		/* Another task reconfigured meanwhile: on top of its ring. */
		LOCK_Unlock(&s->mtx);
		shard_ring_rel(&old);
		shard_ring_free(&r);
	}
	c->first = NULL;
	c->tail = &c->first;
	if (r == NULL)
		return (0);
	shard_ring_debug(s, r);
	ret = r->n > 0;
	shard_ring_rel(&r);
	if (!ret)
		SHARD_LOG(ctx->vsl, SLT_Error, s->name, "%s",
		    ".reconfigure() no backends");
	return (ret);
}

/*
 * A dynamic source's members changed (the dynamic module's thread, no
 * lock held): the same ring's static members with the members now.
 */
static void
shard_dyn_changed(void *priv)
{
	struct shard_source *src;
	struct vmod_directors_shard *s;
	struct shard_changes c;
	struct shard_ring *old, *old2, *r;
	struct vrt_ctx ctx;
	VCL_INT replicas;

	CAST_OBJ_NOTNULL(src, priv, SHARD_SOURCE_MAGIC);
	s = src->shard;
	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	INIT_OBJ(&ctx, VRT_CTX_MAGIC);	/* no task: logs go to vxid 0 */
	INIT_OBJ(&c, SHARD_CHANGES_MAGIC);
	c.shard = s;
	c.tail = &c.first;
	for (;;) {
		old = shard_ring_get(s);
		LOCK_Lock(&s->mtx);
		replicas = s->replicas;
		LOCK_Unlock(&s->mtx);
		r = shard_ring_build(&ctx, s, old, &c, replicas);
		if (r == NULL) {
			shard_ring_rel(&old);
			SHARD_LOG(NULL, SLT_Error, s->name, "%s", "dynamic "
			    "members changed, out of memory for the ring; "
			    "the old ring stays");
			return;
		}
		r->refs = 2;	/* mtx's, once published, and ours */
		LOCK_Lock(&s->mtx);
		if (s->ring == old) {
			s->ring = r;
			LOCK_Unlock(&s->mtx);
			old2 = old;
			shard_ring_rel(&old);	/* mtx's */
			shard_ring_rel(&old2);	/* ours */
			break;
		}
		/* A task reconfigured meanwhile: on top of its ring. */
		LOCK_Unlock(&s->mtx);
		shard_ring_rel(&old);
		shard_ring_free(&r);
	}
	SHARD_LOG(NULL, SLT_Debug, s->name, "dynamic members of %s changed: "
	    "%u members on the ring", src->domain->vcl_name, r->n);
	shard_ring_debug(s, r);
	shard_ring_rel(&r);
}

/* picking -----------------------------------------------------------------*/

struct shard_seen {
	unsigned		host;		/* UINT32_MAX: none yet */
	vtim_real		changed;
};

/* A walk round the ring from a key, each member seen once. */
struct shard_walk {
	const struct shard_ring	*r;
	uint32_t		idx;
	unsigned char		*picked;	/* one byte per member */
	unsigned		npicked;
	struct shard_seen	previous;
	struct shard_seen	last;
};

/* The first point at or after key; the last if key is beyond them all. */
static uint32_t
shard_lookup(const struct shard_ring *r, uint32_t key)
{
	uint32_t lo = 0, hi = r->n_points, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (r->points[mid].point < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo < r->n_points ? lo : r->n_points - 1);
}

/*
 * On from w->idx to the skip+1-th member not seen yet that is healthy
 * (any, when !healthy; sick ones are never counted when healthy); its
 * number, or -1.  last is the chosen one, previous the healthy one
 * before it, as Varnish's walk keeps them.
 */
static int
shard_next(struct shard_walk *w, long skip, int healthy)
{
	const struct director *d;
	struct shard_seen *seen;
	unsigned c;
	int chosen = -1, h;

	while (w->npicked < w->r->n && skip >= 0) {
		c = w->r->points[w->idx].host;
		if (!w->picked[c]) {
			w->picked[c] = 1;
			w->npicked++;
			seen = NULL;
			d = w->r->m[c].d;
			h = DIRECTOR_Healthy(d);
			if (h && skip-- == 0) {
				chosen = (int)c;
				seen = &w->last;
			} else if (h)
				seen = &w->previous;
			else if (!healthy && skip-- == 0) {
				chosen = (int)c;
				seen = &w->last;
			}
			if (seen == &w->last && w->last.host != UINT32_MAX)
				w->previous = w->last;
			if (seen != NULL) {
				seen->host = c;
				seen->changed = DIRECTOR_Changed(d);
			}
			if (chosen >= 0)
				break;
		}
		if (++w->idx == w->r->n_points)
			w->idx = 0;
	}
	return (chosen);
}

static double
shard_rampup_of(const struct vmod_directors_shard *s, double dflt,
    const struct shard_ring *r, unsigned host)
{

	(void)s;
	return (isnan(r->m[host].rampup) ? dflt : r->m[host].rampup);
}

#define SHARD_DEBUG(s, flag, ...) do {					\
	if (__atomic_load_n(&(s)->debug, __ATOMIC_RELAXED) & (flag))	\
		VSL(SLT_Debug, 0, "vmod_directors: shard: " __VA_ARGS__); \
} while (0)

static double
shard_random(void)
{

	return (scalbn((double)RND_RandomTestable(), -31));
}

/* After the chosen one: rampup and warmup may send it to the next. */
static const struct director *
shard_ramp_warm(VRT_CTX, struct vmod_directors_shard *s,
    struct shard_walk *w, const struct vmod_directors_shard_param *p,
    long alt, double warmup, double rampup)
{
	const struct director *be = w->r->m[w->last.host].d;
	double chosen_r, alt_r;

	if (alt > 0 || p->healthy == h_ignore ||
	    (!p->rampup && warmup == 0) || shard_next(w, 0, 1) < 0)
		return (be);
	chosen_r = shard_rampup_of(s, rampup, w->r, w->previous.host);
	alt_r = shard_rampup_of(s, rampup, w->r, w->last.host);
	SHARD_DEBUG(s, SHARD_DEBUG_RAMPWARM, "chosen host %u rampup %f "
	    "changed %f", w->previous.host, chosen_r,
	    ctx->now - w->previous.changed);
	SHARD_DEBUG(s, SHARD_DEBUG_RAMPWARM, "alt host %u rampup %f "
	    "changed %f", w->last.host, alt_r, ctx->now - w->last.changed);
	if (ctx->now - w->previous.changed < chosen_r) {
		/* The chosen one ramps up: the dice may keep it. */
		if (!p->rampup || ctx->now - w->last.changed < alt_r ||
		    shard_random() * chosen_r <
		    ctx->now - w->previous.changed)
			return (be);
	} else if (warmup == 0 || shard_random() > warmup)
		return (be);
	return (w->r->m[w->last.host].d);
}

static const struct director *
shard_walk_pick(VRT_CTX, struct vmod_directors_shard *s,
    const struct shard_ring *r, uint32_t key,
    const struct vmod_directors_shard_param *p, long alt, double warmup,
    double rampup)
{
	struct shard_walk w;
	const struct director *be = NULL;
	/* Members are a VCL's few; the stack holds their marks. */
	unsigned char picked[r->n];

	memset(picked, 0, sizeof picked);
	memset(&w, 0, sizeof w);
	w.r = r;
	w.picked = picked;
	w.previous.host = w.last.host = UINT32_MAX;
	w.idx = shard_lookup(r, key);
	SHARD_DEBUG(s, SHARD_DEBUG_LOOKUP, "lookup key %x idx %u host %u",
	    key, w.idx, r->points[w.idx].host);
	if ((alt > 0 && shard_next(&w, alt - 1, p->healthy == h_all) < 0) ||
	    shard_next(&w, 0, p->healthy != h_ignore) < 0) {
		if (w.previous.host != UINT32_MAX)
			be = r->m[w.previous.host].d;
		return (be);
	}
	return (shard_ramp_warm(ctx, s, &w, p, alt, warmup, rampup));
}

/*
 * The member for key.  A dynamic member may leave the ring (and be
 * freed) once we let go of the ring: then *dyn gets a reference to its
 * backend, for the caller to hand on.
 */
static const struct director *
shard_pick(VRT_CTX, struct vmod_directors_shard *s, uint32_t key,
    const struct vmod_directors_shard_param *p, struct backend **dyn)
{
	struct shard_ring *r;
	const struct director *be = NULL;
	double warmup, rampup;
	long alt = p->alt;
	unsigned u;

	r = shard_ring_get(s);
	LOCK_Lock(&s->mtx);
	warmup = p->warmup == -1 ? s->warmup : p->warmup;
	rampup = s->rampup;
	LOCK_Unlock(&s->mtx);
	if (r->n == 0) {
		SHARD_LOG(ctx->vsl, SLT_Error, s->name, "%s", "no backends");
		goto out;
	}
	if (alt > (long)r->n - 1) {
		SHARD_LOG(ctx->vsl, SLT_Error, s->name, "parameter alt=%ld "
		    "limited to %ld", alt, (long)r->n - 1);
		alt = (long)r->n - 1;
	}
	be = shard_walk_pick(ctx, s, r, key, p, alt, warmup, rampup);
	for (u = 0; be != NULL && u < r->n; u++)
		if (r->m[u].d == be && r->m[u].dyn_be != NULL) {
			*dyn = BACKEND_Ref(r->m[u].dyn_be);
			break;
		}
out:
	shard_ring_rel(&r);
	return (be);
}

/* As VDIR_HashStrands32() of one string, on bytes not NUL-terminated. */
static uint32_t
shard_hash_bytes(const char *b, size_t len)
{
	struct sha256_ctx sc;
	unsigned char d[SHA256_LEN];

	SHA256_Init(&sc);
	if (len > 0)
		SHA256_Update(&sc, b, len);
	SHA256_Final(&sc, d);
	return ((uint32_t)d[SHA256_LEN - 4] |
	    (uint32_t)d[SHA256_LEN - 3] << 8 |
	    (uint32_t)d[SHA256_LEN - 2] << 16 |
	    (uint32_t)d[SHA256_LEN - 1] << 24);
}

static uint32_t
shard_get_key(VRT_CTX, const struct vmod_directors_shard_param *p)
{
	const unsigned char *dg = NULL;
	const struct http *hp;

	if (p->by == by_key || p->by == by_blob)
		return (p->key);
	if (p->by != by_url) {
		/* by=HASH: vcl_hash's digest in a fetch and vcl_pipe */
		if (ctx->bo != NULL)
			dg = ctx->bo->digest;
		else if (ctx->req != NULL && ctx->method == VCL_MET_PIPE)
			dg = ctx->req->digest;
		if (dg != NULL)
			return ((uint32_t)dg[0] << 24 | (uint32_t)dg[1] << 16 |
			    (uint32_t)dg[2] << 8 | dg[3]);
	}
	hp = ctx->http_req != NULL ? ctx->http_req : ctx->http_bereq;
	if (hp == NULL || hp->hd[HTTP_HDR_URL].b == NULL)
		return (shard_hash_bytes("", 0));
	return (shard_hash_bytes(hp->hd[HTTP_HDR_URL].b,
	    (size_t)(hp->hd[HTTP_HDR_URL].e - hp->hd[HTTP_HDR_URL].b)));
}

/* The parameters this task resolves s with (into *stk). */
static const struct vmod_directors_shard_param *
shard_param_read(VRT_CTX, const void *id,
    const struct vmod_directors_shard_param *p,
    struct vmod_directors_shard_param *stk)
{

	if (shard_in_backend(ctx) || ctx->privs != NULL)
		p = shard_param_task_read(ctx, id, p);
	INIT_OBJ(stk, SHARD_PARAM_MAGIC);
	stk->scope = SCOPE_STACK;
	stk->vcl_name = p->vcl_name;
	stk->defaults = p;
	shard_param_merge(stk, p);
	return (stk);
}

static const struct vmod_directors_shard_param *
shard_param_of(struct vmod_directors_shard *s)
{
	const struct vmod_directors_shard_param *p;

	LOCK_Lock(&s->mtx);
	p = s->param;
	LOCK_Unlock(&s->mtx);
	return (p);
}

static const struct director *
shard_resolve(VRT_CTX, const struct director *d)
{
	struct vmod_directors_shard *s;
	struct vmod_directors_shard_param stk;
	const struct vmod_directors_shard_param *p;
	struct backend *dyn = NULL;
	const struct director *r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CAST_OBJ_NOTNULL(s, d->priv, VMOD_DIRECTORS_SHARD_MAGIC);
	p = shard_param_read(ctx, s, shard_param_of(s), &stk);
	r = shard_pick(ctx, s, shard_get_key(ctx, p), p, &dyn);
	if (dyn != NULL)
		DIRECTOR_HandRef(&dyn);	/* becomes the fetch's */
	return (r);
}

static unsigned
shard_healthy(const struct director *d)
{
	struct vmod_directors_shard *s;
	struct shard_ring *r;
	unsigned u, h = 0;

	CAST_OBJ_NOTNULL(s, d->priv, VMOD_DIRECTORS_SHARD_MAGIC);
	r = shard_ring_get(s);
	for (u = 0; u < r->n && !h; u++)
		h = DIRECTOR_Healthy(r->m[u].d);
	shard_ring_rel(&r);
	return (h);
}

static void
shard_count(const struct director *d, unsigned *healthy, unsigned *total)
{
	struct vmod_directors_shard *s;
	struct shard_ring *r;
	unsigned u;

	CAST_OBJ_NOTNULL(s, d->priv, VMOD_DIRECTORS_SHARD_MAGIC);
	r = shard_ring_get(s);
	*healthy = 0;
	for (u = 0; u < r->n; u++)
		*healthy += DIRECTOR_Healthy(r->m[u].d);
	*total = r->n;
	shard_ring_rel(&r);
}

static const struct director_methods shard_methods[1] = {{
	.magic = DIRECTOR_METHODS_MAGIC,
	.type = "shard",
	.resolve = shard_resolve,
	.healthy = shard_healthy,
	.count = shard_count,
}};

/* shard: the VCL object ---------------------------------------------------*/

VCL_VOID
vmod_directors_shard__init(VRT_CTX, struct vmod_directors_shard **op,
    const char *vcl_name)
{
	struct vmod_directors_shard *s;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(op != NULL && *op == NULL);
	ALLOC_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (s != NULL) {
		ALLOC_OBJ(s->ring, SHARD_RING_MAGIC);
		if (s->ring == NULL)
			FREE_OBJ(s);
	}
	if (s == NULL) {
		VRT_fail(ctx, "%s: out of memory", vcl_name);
		return;
	}
	s->ring->refs = 1;
	s->replicas = 67;
	s->param = &shard_param_builtin;
	s->dir = DIRECTOR_New(ctx, shard_methods, s, vcl_name);
	if (s->dir == NULL) {
		shard_ring_free(&s->ring);
		FREE_OBJ(s);
		return;
	}
	s->name = s->dir->vcl_name;
	LOCK_Init(&s->mtx);
	*op = s;
}

VCL_VOID
vmod_directors_shard__fini(struct vmod_directors_shard **op)
{
	struct vmod_directors_shard *s;
	struct shard_source *src;

	TAKE_OBJ_NOTNULL(s, op, VMOD_DIRECTORS_SHARD_MAGIC);
	/*
	 * First no more calls (each waits for one in progress, which may
	 * walk all our sources), then the sources.
	 */
	for (src = s->sources; src != NULL; src = src->next)
		DYNAMIC_Unsubscribe(&src->sub);
	while ((src = s->sources) != NULL) {
		s->sources = src->next;
		FREE_OBJ(src);
	}
	DIRECTOR_Free(&s->dir);
	shard_ring_rel(&s->ring);
	LOCK_Fini(&s->mtx);
	FREE_OBJ(s);
}

VCL_VOID
vmod_directors_shard_set_warmup(VRT_CTX, struct vmod_directors_shard *s,
    VCL_REAL probability)
{

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (!(probability >= 0 && probability < 1)) {
		SHARD_LOG(ctx->vsl, SLT_Notice, s->name,
		    ".set_warmup(%f) ignored", probability);
		return;
	}
	LOCK_Lock(&s->mtx);
	s->warmup = probability;
	LOCK_Unlock(&s->mtx);
}

VCL_VOID
vmod_directors_shard_set_rampup(VRT_CTX, struct vmod_directors_shard *s,
    VCL_DURATION duration)
{

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (!(duration >= 0)) {
		SHARD_LOG(ctx->vsl, SLT_Notice, s->name,
		    ".set_rampup(%f) ignored", duration);
		return;
	}
	LOCK_Lock(&s->mtx);
	s->rampup = duration;
	LOCK_Unlock(&s->mtx);
}

VCL_VOID
vmod_directors_shard_associate(VRT_CTX, struct vmod_directors_shard *s,
    VCL_BLOB b)
{
	const struct vmod_directors_shard_param *p = &shard_param_builtin;

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (b != NULL && (p = shard_param_from_blob(b)) == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: shard .associate "
		    "param invalid", s->name);
		return;
	}
	LOCK_Lock(&s->mtx);
	s->param = p;
	LOCK_Unlock(&s->mtx);
}

VCL_BOOL
vmod_directors_shard_add_backend(VRT_CTX, struct vmod_directors_shard *s,
    VCL_BACKEND be, VCL_BOOL valid_ident, VCL_STRING ident,
    VCL_BOOL valid_rampup, VCL_DURATION rampup, VCL_BOOL valid_weight,
    VCL_REAL weight)
{
	struct shard_change *ch;

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (be == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: None backend cannot "
		    "be added", s->name);
		return (0);
	}
	if (valid_weight && !(weight >= 1)) {
		SHARD_LOG(ctx->vsl, SLT_Notice, s->name,
		    ".add_backend(weight=%f) ignored", weight);
		valid_weight = 0;
	}
	ch = shard_change_add(ctx, s, SHARD_ADD);
	if (ch == NULL)
		return (0);
	ch->d = be;
	ch->ident = valid_ident && ident != NULL && *ident != '\0' ?
	    ident : NULL;
	ch->rampup = valid_rampup ? rampup : NAN;
	ch->weight = valid_weight ? weight : 1;
	return (1);
}

VCL_BOOL
vmod_directors_shard_add_dynamic(VRT_CTX, struct vmod_directors_shard *s,
    VCL_BACKEND members, VCL_BOOL valid_rampup, VCL_DURATION rampup,
    VCL_BOOL valid_weight, VCL_REAL weight)
{
	struct shard_source *src;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (!DYNAMIC_Is(members)) {
		VRT_fail(ctx, "vmod_directors: shard %s: .add_dynamic() takes "
		    "a dynamic director's .backend() or .service(), not %s; "
		    "add other backends with .add_backend()", s->name,
		    members == NULL ? "None" : members->vcl_name);
		return (0);
	}
	if (valid_weight && !(weight >= 1)) {
		SHARD_LOG(ctx->vsl, SLT_Notice, s->name,
		    ".add_dynamic(weight=%f) ignored", weight);
		valid_weight = 0;
	}
	ALLOC_OBJ(src, SHARD_SOURCE_MAGIC);
	if (src == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: out of memory",
		    s->name);
		return (0);
	}
	src->shard = s;
	src->domain = members;
	src->rampup = valid_rampup ? rampup : NAN;
	src->weight = valid_weight ? weight : 1;
	src->sub = DYNAMIC_Subscribe(members, shard_dyn_changed, src);
	if (src->sub == NULL) {
		FREE_OBJ(src);
		VRT_fail(ctx, "vmod_directors: shard %s: out of memory",
		    s->name);
		return (0);
	}
	LOCK_Lock(&s->mtx);
	src->next = s->sources;
	s->sources = src;
	LOCK_Unlock(&s->mtx);
	/* The members known now; the domain's changes call again. */
	shard_dyn_changed(src);
	return (1);
}

VCL_BOOL
vmod_directors_shard_remove_backend(VRT_CTX,
    struct vmod_directors_shard *s, VCL_BOOL valid_backend, VCL_BACKEND be,
    VCL_BOOL valid_ident, VCL_STRING ident)
{
	struct shard_change *ch;

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (!valid_backend)
		be = NULL;
	if (!valid_ident || (ident != NULL && *ident == '\0'))
		ident = NULL;
	if (be == NULL && ident == NULL) {
		VRT_fail(ctx, "vmod_directors: shard %s: .remove_backend(): "
		    "either backend or ident are required", s->name);
		return (0);
	}
	ch = shard_change_add(ctx, s, SHARD_REMOVE);
	if (ch == NULL)
		return (0);
	ch->d = be;
	ch->ident = ident;
	return (1);
}

VCL_BOOL
vmod_directors_shard_clear(VRT_CTX, struct vmod_directors_shard *s)
{

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	return (shard_change_add(ctx, s, SHARD_CLEAR) != NULL);
}

VCL_BOOL
vmod_directors_shard_reconfigure(VRT_CTX, struct vmod_directors_shard *s,
    VCL_INT replicas)
{
	struct shard_changes *c;

	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	if (replicas <= 0) {
		SHARD_LOG(ctx->vsl, SLT_Error, s->name,
		    ".reconfigure() invalid replicas argument %jd",
		    (intmax_t)replicas);
		return (0);
	}
	c = shard_changes_get(ctx, s);
	if (c == NULL)
		return (0);
	return (shard_apply(ctx, s, c, replicas));
}

VCL_INT
vmod_directors_shard_key(VRT_CTX, struct vmod_directors_shard *s,
    VCL_STRANDS st)
{

	(void)ctx;
	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	return ((VCL_INT)VDIR_HashStrands32(st));
}

VCL_VOID
vmod_directors_shard_debug(VRT_CTX, struct vmod_directors_shard *s,
    VCL_INT flags)
{

	(void)ctx;
	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	__atomic_store_n(&s->debug, (unsigned)(flags & UINT32_MAX),
	    __ATOMIC_RELAXED);
}

/*
 * Where this call's parameters go: LAZY, a fetch's copy of the shard's
 * layer (read at resolve); NOW, the stack.  NULL: use the director as
 * it is; ctx failed when *failed.
 */
static struct vmod_directors_shard_param *
shard_backend_layer(VRT_CTX, struct vmod_directors_shard *s, int lazy,
    uint32_t mask, struct vmod_directors_shard_param *stk, int *failed)
{
	const struct vmod_directors_shard_param *pa = shard_param_of(s);

	*failed = 0;
	if (lazy) {
		if ((mask & ~ARG_RESOLVE) == 0)
			return (NULL);
		if (!shard_in_backend(ctx)) {
			VRT_fail(ctx, "vmod_directors: shard %s: "
			    ".backend(resolve=LAZY) with other parameters can "
			    "only be used in backend/pipe context", s->name);
			*failed = 1;
			return (NULL);
		}
		stk = shard_param_task_write(ctx, s, s->name, pa);
		*failed = stk == NULL;
		return (stk);
	}
	if (ctx->method == VCL_MET_INIT || ctx->method == VCL_MET_FINI) {
		VRT_fail(ctx, "vmod_directors: shard %s: .backend(resolve=NOW) "
		    "can not be used in vcl_init{}/vcl_fini{}", s->name);
		*failed = 1;
		return (NULL);
	}
	INIT_OBJ(stk, SHARD_PARAM_MAGIC);
	stk->scope = SCOPE_STACK;
	stk->vcl_name = s->name;
	stk->defaults = shard_param_task_read(ctx, s, pa);
	return (stk);
}

VCL_BACKEND
vmod_directors_shard_backend(VRT_CTX, struct vmod_directors_shard *s,
    VCL_ENUM by, VCL_BOOL valid_key, VCL_INT key, VCL_BOOL valid_key_blob,
    VCL_BLOB key_blob, VCL_BOOL valid_alt, VCL_INT alt,
    VCL_BOOL valid_warmup, VCL_REAL warmup, VCL_BOOL valid_rampup,
    VCL_BOOL rampup, VCL_ENUM healthy, VCL_BOOL valid_param, VCL_BLOB param,
    VCL_ENUM resolve)
{
	struct vmod_directors_shard_param stk, *p;
	const struct vmod_directors_shard_param *pp;
	struct shard_args a;
	struct backend *dyn = NULL;
	const struct director *r;
	int lazy, failed;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(s, VMOD_DIRECTORS_SHARD_MAGIC);
	memset(&a, 0, sizeof a);
	a.by = shard_by_value(by);
	a.healthy = shard_healthy_value(healthy);
	a.mask = (a.by != NULL ? ARG_BY : 0) | (valid_key ? ARG_KEY : 0) |
	    (valid_key_blob ? ARG_KEY_BLOB : 0) | (valid_alt ? ARG_ALT : 0) |
	    (valid_warmup ? ARG_WARMUP : 0) | (valid_rampup ? ARG_RAMPUP : 0) |
	    (a.healthy != NULL ? ARG_HEALTHY : 0) |
	    (valid_param ? ARG_PARAM : 0) |
	    (resolve != NULL && *resolve != '\0' ? ARG_RESOLVE : 0);
	a.key = key;
	a.key_blob = key_blob;
	a.alt = alt;
	a.warmup = warmup;
	a.rampup = rampup;
	if (a.mask & ARG_RESOLVE)
		lazy = !strcmp(resolve, "LAZY");
	else
		lazy = ctx->method == VCL_MET_INIT ||
		    ctx->method == VCL_MET_FINI;
	p = shard_backend_layer(ctx, s, lazy, a.mask, &stk, &failed);
	if (failed)
		return (NULL);
	if (p == NULL)
		return (s->dir);
	if (a.mask & ARG_PARAM) {
		pp = shard_param_from_blob(param);
		if (pp == NULL) {
			VRT_fail(ctx, "vmod_directors: shard %s: "
			    ".backend(key_blob) param invalid", s->name);
			return (NULL);
		}
		p->defaults = pp;
	}
	if (shard_param_args(ctx, p, "shard.backend()", &a) != 0)
		return (NULL);
	if (lazy)
		return (s->dir);
	shard_param_merge(p, p->defaults);
	r = shard_pick(ctx, s, shard_get_key(ctx, p), p, &dyn);
	if (dyn != NULL && DIRECTOR_TaskHold(ctx, &dyn) != 0)
		return (NULL);
	return (r);
}

/* shard_param -------------------------------------------------------------*/

VCL_VOID
vmod_directors_shard_param__init(VRT_CTX,
    struct vmod_directors_shard_param **op, const char *vcl_name)
{
	struct vmod_directors_shard_param *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(op != NULL && *op == NULL);
	ALLOC_OBJ(p, SHARD_PARAM_MAGIC);
	if (p == NULL) {
		VRT_fail(ctx, "%s: out of memory", vcl_name);
		return;
	}
	p->vcl_name = strdup(vcl_name);
	if (p->vcl_name == NULL) {
		FREE_OBJ(p);
		VRT_fail(ctx, "%s: out of memory", vcl_name);
		return;
	}
	p->scope = SCOPE_VCL;
	p->defaults = &shard_param_builtin;
	p->blob.magic = VRT_BLOB_MAGIC;
	p->blob.blob = p;
	p->blob.len = sizeof *p;
	*op = p;
}

VCL_VOID
vmod_directors_shard_param__fini(struct vmod_directors_shard_param **op)
{
	struct vmod_directors_shard_param *p;

	TAKE_OBJ_NOTNULL(p, op, SHARD_PARAM_MAGIC);
	free((void *)(uintptr_t)p->vcl_name);	/* ours, from __init */
	FREE_OBJ(p);
}

/* The layer .set() and .clear() change; NULL (ctx failed) where none. */
static struct vmod_directors_shard_param *
shard_param_prep(VRT_CTX, struct vmod_directors_shard_param *p,
    const char *who)
{

	CHECK_OBJ(p, SHARD_PARAM_MAGIC);
	if (shard_in_client(ctx)) {
		VRT_fail(ctx, "vmod_directors: shard %s: %s may only be used "
		    "in vcl_init and in backend/pipe context", p->vcl_name,
		    who);
		return (NULL);
	}
	if (shard_in_backend(ctx))
		return (shard_param_task_write(ctx, p, p->vcl_name, p));
	return (p);
}

VCL_VOID
vmod_directors_shard_param_set(VRT_CTX,
    struct vmod_directors_shard_param *p, VCL_ENUM by, VCL_BOOL valid_key,
    VCL_INT key, VCL_BOOL valid_key_blob, VCL_BLOB key_blob,
    VCL_BOOL valid_alt, VCL_INT alt, VCL_BOOL valid_warmup,
    VCL_REAL warmup, VCL_BOOL valid_rampup, VCL_BOOL rampup,
    VCL_ENUM healthy)
{
	struct shard_args a;

	memset(&a, 0, sizeof a);
	a.by = shard_by_value(by);
	a.healthy = shard_healthy_value(healthy);
	a.mask = (a.by != NULL ? ARG_BY : 0) | (valid_key ? ARG_KEY : 0) |
	    (valid_key_blob ? ARG_KEY_BLOB : 0) | (valid_alt ? ARG_ALT : 0) |
	    (valid_warmup ? ARG_WARMUP : 0) | (valid_rampup ? ARG_RAMPUP : 0) |
	    (a.healthy != NULL ? ARG_HEALTHY : 0);
	a.key = key;
	a.key_blob = key_blob;
	a.alt = alt;
	a.warmup = warmup;
	a.rampup = rampup;
	p = shard_param_prep(ctx, p, "shard_param.set()");
	if (p != NULL)
		(void)shard_param_args(ctx, p, "shard_param.set()", &a);
}

VCL_VOID
vmod_directors_shard_param_clear(VRT_CTX,
    struct vmod_directors_shard_param *p)
{

	p = shard_param_prep(ctx, p, "shard_param.clear()");
	if (p != NULL)
		p->mask = 0;
}

static const struct vmod_directors_shard_param *
shard_param_get(VRT_CTX, struct vmod_directors_shard_param *p,
    struct vmod_directors_shard_param *stk)
{

	CHECK_OBJ(p, SHARD_PARAM_MAGIC);
	return (shard_param_read(ctx, p, p, stk));
}

VCL_STRING
vmod_directors_shard_param_get_by(VRT_CTX,
    struct vmod_directors_shard_param *p)
{
	struct vmod_directors_shard_param stk;
	const char *by = shard_param_get(ctx, p, &stk)->by;

	return (by != NULL ? by : by_hash);
}

VCL_INT
vmod_directors_shard_param_get_key(VRT_CTX,
    struct vmod_directors_shard_param *p)
{
	struct vmod_directors_shard_param stk;

	return ((VCL_INT)shard_get_key(ctx, shard_param_get(ctx, p, &stk)));
}

VCL_INT
vmod_directors_shard_param_get_alt(VRT_CTX,
    struct vmod_directors_shard_param *p)
{
	struct vmod_directors_shard_param stk;

	return (shard_param_get(ctx, p, &stk)->alt);
}

VCL_REAL
vmod_directors_shard_param_get_warmup(VRT_CTX,
    struct vmod_directors_shard_param *p)
{
	struct vmod_directors_shard_param stk;

	return (shard_param_get(ctx, p, &stk)->warmup);
}

VCL_BOOL
vmod_directors_shard_param_get_rampup(VRT_CTX,
    struct vmod_directors_shard_param *p)
{
	struct vmod_directors_shard_param stk;

	return (shard_param_get(ctx, p, &stk)->rampup);
}

VCL_STRING
vmod_directors_shard_param_get_healthy(VRT_CTX,
    struct vmod_directors_shard_param *p)
{
	struct vmod_directors_shard_param stk;
	const char *h = shard_param_get(ctx, p, &stk)->healthy;

	return (h != NULL ? h : h_chosen);
}

VCL_BLOB
vmod_directors_shard_param_use(VRT_CTX,
    struct vmod_directors_shard_param *p)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(p, SHARD_PARAM_MAGIC);
	return (&p->blob);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_directors.c -- the directors module (include/vmod_std.h), as
 * Varnish 7.1's: round_robin, fallback, random and hash, and lookup().
 * Each object owns a director (director.h) and its members.
 *
 * Members change (add_backend, remove_backend, from any VCL method)
 * while fetches resolve: the member set is never changed in place but
 * replaced whole under the object's mtx, and a resolver takes a
 * reference to the current set under mtx, then walks it unlocked (a
 * member's health may take a nested director's mtx: never held across
 * it).  The last reference frees a replaced set.  mtx is a leaf but for
 * that.  The shard director is vmod_directors_shard.c's.
 */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/rnd.h"
#include "common/sha256.h"
#include "cache/director.h"
#include "cache/vcl.h"
#include "cache/vmod_directors.h"
#include "vrt.h"

struct vdir_member {
	const struct director	*d;		/* of the same VCL */
	double			weight;
};

/* A member set: immutable once published in vdir->set. */
struct vdir_set {
	unsigned		magic;
#define VDIR_SET_MAGIC		0x3c0e9d17
	unsigned		refs;	/* up under vdir->mtx; down atomic */
	unsigned		n;
	struct vdir_member	m[];
};

/* What the four classes share. */
struct vdir {
	unsigned		magic;
#define VDIR_MAGIC		0x8a4f22e1
	struct lock		mtx;
	struct vdir_set		*set;	/* mtx; one reference */
	struct director		*dir;	/* const */
	/* round_robin: the next to try; fallback: the current one */
	unsigned		cur;	/* atomic; an index modulo set->n */
	unsigned		sticky;	/* const; fallback */
};

static struct vdir_set *
vdir_set_new(unsigned n)
{
	struct vdir_set *s;

	s = calloc(1, sizeof *s + n * sizeof s->m[0]);
	if (s == NULL)
		return (NULL);
	s->magic = VDIR_SET_MAGIC;
	s->refs = 1;
	s->n = n;
	return (s);
}

static void
vdir_set_rel(struct vdir_set **sp)
{
	struct vdir_set *s;

	TAKE_OBJ_NOTNULL(s, sp, VDIR_SET_MAGIC);
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
		FREE_OBJ(s);
}

/* The current members, one reference (vdir_set_rel() it). */
static struct vdir_set *
vdir_get(struct vdir *vd)
{
	struct vdir_set *s;

	CHECK_OBJ(vd, VDIR_MAGIC);
	LOCK_Lock(&vd->mtx);
	s = vd->set;
	(void)__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	LOCK_Unlock(&vd->mtx);
	return (s);
}

static int
vdir_init(VRT_CTX, struct vdir *vd, const char *vcl_name,
    const struct director_methods *m, void *priv)
{

	INIT_OBJ(vd, VDIR_MAGIC);
	vd->set = vdir_set_new(0);
	if (vd->set == NULL) {
		VRT_fail(ctx, "%s: out of memory", vcl_name);
		return (-1);
	}
	vd->dir = DIRECTOR_New(ctx, m, priv, vcl_name);
	if (vd->dir == NULL) {
		vdir_set_rel(&vd->set);
		return (-1);
	}
	LOCK_Init(&vd->mtx);
	return (0);
}

static void
vdir_fini(struct vdir *vd)
{

	CHECK_OBJ(vd, VDIR_MAGIC);
	DIRECTOR_Free(&vd->dir);
	vdir_set_rel(&vd->set);
	LOCK_Fini(&vd->mtx);
}

static void
vdir_add(VRT_CTX, struct vdir *vd, VCL_BACKEND be, double weight)
{
	struct vdir_set *s, *old;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(vd, VDIR_MAGIC);
	if (be == NULL) {
		VRT_fail(ctx, "%s: None backend cannot be added",
		    vd->dir->vcl_name);
		return;
	}
	CHECK_OBJ(be, DIRECTOR_MAGIC);
	/* Varnish does not check; a negative weight would break picking. */
	if (!(weight >= 0) || isinf(weight)) {
		VRT_fail(ctx, "%s.add_backend(%s): weight %g is not a finite "
		    "number >= 0", vd->dir->vcl_name, be->vcl_name, weight);
		return;
	}
	LOCK_Lock(&vd->mtx);
	old = vd->set;
	s = vdir_set_new(old->n + 1);
	if (s == NULL) {
		LOCK_Unlock(&vd->mtx);
		VRT_fail(ctx, "%s.add_backend(%s): out of memory",
		    vd->dir->vcl_name, be->vcl_name);
		return;
	}
	memcpy(s->m, old->m, old->n * sizeof s->m[0]);
	s->m[old->n].d = be;
	s->m[old->n].weight = weight;
	vd->set = s;
	LOCK_Unlock(&vd->mtx);
	vdir_set_rel(&old);
}

/* Removes the first member that is be; a fallback's current moves too. */
static void
vdir_remove(VRT_CTX, struct vdir *vd, VCL_BACKEND be)
{
	struct vdir_set *s, *old;
	unsigned u, cur;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(vd, VDIR_MAGIC);
	if (be == NULL) {
		VRT_fail(ctx, "%s: None backend cannot be removed",
		    vd->dir->vcl_name);
		return;
	}
	LOCK_Lock(&vd->mtx);
	old = vd->set;
	for (u = 0; u < old->n && old->m[u].d != be; u++)
		continue;
	if (u == old->n || (s = vdir_set_new(old->n - 1)) == NULL) {
		/* Not a member; or no memory: it stays, harmlessly. */
		LOCK_Unlock(&vd->mtx);
		return;
	}
	memcpy(s->m, old->m, u * sizeof s->m[0]);
	memcpy(s->m + u, old->m + u + 1, (old->n - u - 1) * sizeof s->m[0]);
	cur = __atomic_load_n(&vd->cur, __ATOMIC_RELAXED);
	if (u < cur)
		cur--;
	else if (cur >= s->n)
		cur = 0;
	__atomic_store_n(&vd->cur, cur, __ATOMIC_RELAXED);
	vd->set = s;
	LOCK_Unlock(&vd->mtx);
	vdir_set_rel(&old);
}

static unsigned
vdir_healthy(const struct director *d)
{
	struct vdir *vd;
	struct vdir_set *s;
	unsigned u, h = 0;

	CHECK_OBJ(d, DIRECTOR_MAGIC);
	CAST_OBJ_NOTNULL(vd, d->priv, VDIR_MAGIC);
	s = vdir_get(vd);
	for (u = 0; u < s->n && !h; u++)
		h = DIRECTOR_Healthy(s->m[u].d);
	vdir_set_rel(&s);
	return (h);
}

static void
vdir_count(const struct director *d, unsigned *healthy, unsigned *total)
{
	struct vdir *vd;
	struct vdir_set *s;
	unsigned u;

	CHECK_OBJ(d, DIRECTOR_MAGIC);
	CAST_OBJ_NOTNULL(vd, d->priv, VDIR_MAGIC);
	s = vdir_get(vd);
	*healthy = 0;
	for (u = 0; u < s->n; u++)
		*healthy += DIRECTOR_Healthy(s->m[u].d);
	*total = s->n;
	vdir_set_rel(&s);
}

/*
 * A healthy member by weight: r in [0, 1) lands in one member's share of
 * the healthy members' total weight, in the order they were added (as
 * Varnish's, so that the same r picks the same member).
 */
static const struct director *
vdir_pick(struct vdir *vd, double r)
{
	struct vdir_set *s;
	const struct director *be = NULL;
	double tw = 0, a = 0;
	unsigned u;

	s = vdir_get(vd);
	for (u = 0; u < s->n; u++)
		if (DIRECTOR_Healthy(s->m[u].d))
			tw += s->m[u].weight;
	r *= tw;
	for (u = 0; tw > 0 && u < s->n; u++) {
		/* Health may change between the passes: the last will do. */
		if (s->m[u].weight <= 0 || !DIRECTOR_Healthy(s->m[u].d))
			continue;
		be = s->m[u].d;
		a += s->m[u].weight;
		if (r < a)
			break;
	}
	vdir_set_rel(&s);
	return (be);
}

/*
 * What the four classes' objects do alike, for class cls with object
 * magic MAGIC and director methods m: cls_make() (an object around its
 * vdir, or NULL with ctx failed), __fini, .remove_backend() and the
 * object's own director (cls_dir()).
 */
#define VDIR_CLASS(cls, MAGIC, m)					\
static struct vmod_directors_##cls *					\
cls##_make(VRT_CTX, struct vmod_directors_##cls **op,			\
    const char *vcl_name)						\
{									\
	struct vmod_directors_##cls *o;					\
									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	assert(op != NULL && *op == NULL);				\
	ALLOC_OBJ(o, MAGIC);						\
	if (o == NULL) {						\
		VRT_fail(ctx, "%s: out of memory", vcl_name);		\
		return (NULL);						\
	}								\
	if (vdir_init(ctx, o->vd, vcl_name, m, o->vd) != 0) {		\
		FREE_OBJ(o);						\
		return (NULL);						\
	}								\
	*op = o;							\
	return (o);							\
}									\
									\
VCL_VOID								\
vmod_directors_##cls##__fini(struct vmod_directors_##cls **op)		\
{									\
	struct vmod_directors_##cls *o;					\
									\
	TAKE_OBJ_NOTNULL(o, op, MAGIC);					\
	vdir_fini(o->vd);						\
	FREE_OBJ(o);							\
}									\
									\
VCL_VOID								\
vmod_directors_##cls##_remove_backend(VRT_CTX,				\
    struct vmod_directors_##cls *o, VCL_BACKEND be)			\
{									\
									\
	CHECK_OBJ(o, MAGIC);						\
	vdir_remove(ctx, o->vd, be);					\
}									\
									\
static struct vdir *							\
cls##_vd(VRT_CTX, struct vmod_directors_##cls *o)			\
{									\
									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	CHECK_OBJ(o, MAGIC);						\
	return (o->vd);							\
}

/* round_robin -------------------------------------------------------------*/

struct vmod_directors_round_robin {
	unsigned		magic;
#define VMOD_DIRECTORS_ROUND_ROBIN_MAGIC 0x5d0b7e43
	struct vdir		vd[1];
};

static const struct director *
rr_resolve(VRT_CTX, const struct director *d)
{
	struct vdir *vd;
	struct vdir_set *s;
	const struct director *be = NULL;
	unsigned u, i, start;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CAST_OBJ_NOTNULL(vd, d->priv, VDIR_MAGIC);
	s = vdir_get(vd);
	start = __atomic_load_n(&vd->cur, __ATOMIC_RELAXED);
	for (u = 0; u < s->n; u++) {
		i = (start + u) % s->n;
		if (!DIRECTOR_Healthy(s->m[i].d))
			continue;
		be = s->m[i].d;
		/* Racing fetches may take the same one: fair enough. */
		__atomic_store_n(&vd->cur, (i + 1) % s->n, __ATOMIC_RELAXED);
		break;
	}
	vdir_set_rel(&s);
	return (be);
}

static const struct director_methods rr_methods[1] = {{
	.magic = DIRECTOR_METHODS_MAGIC,
	.type = "round-robin",
	.resolve = rr_resolve,
	.healthy = vdir_healthy,
	.count = vdir_count,
}};

VDIR_CLASS(round_robin, VMOD_DIRECTORS_ROUND_ROBIN_MAGIC, rr_methods)

VCL_VOID
vmod_directors_round_robin__init(VRT_CTX,
    struct vmod_directors_round_robin **op, const char *vcl_name)
{

	(void)round_robin_make(ctx, op, vcl_name);
}

VCL_VOID
vmod_directors_round_robin_add_backend(VRT_CTX,
    struct vmod_directors_round_robin *o, VCL_BACKEND be)
{

	vdir_add(ctx, round_robin_vd(ctx, o), be, 1.0);
}

VCL_BACKEND
vmod_directors_round_robin_backend(VRT_CTX,
    struct vmod_directors_round_robin *o)
{

	return (round_robin_vd(ctx, o)->dir);
}

/* fallback ----------------------------------------------------------------*/

struct vmod_directors_fallback {
	unsigned		magic;
#define VMOD_DIRECTORS_FALLBACK_MAGIC	0x2e6a91c8
	struct vdir		vd[1];
};

/*
 * The first healthy member from the top; sticky: from the current one,
 * wrapping, so that a recovered earlier member does not take over.
 */
static const struct director *
fb_resolve(VRT_CTX, const struct director *d)
{
	struct vdir *vd;
	struct vdir_set *s;
	const struct director *be = NULL;
	unsigned u, i, start;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CAST_OBJ_NOTNULL(vd, d->priv, VDIR_MAGIC);
	s = vdir_get(vd);
	start = vd->sticky ? __atomic_load_n(&vd->cur, __ATOMIC_RELAXED) : 0;
	for (u = 0; u < s->n; u++) {
		i = (start + u) % s->n;
		if (!DIRECTOR_Healthy(s->m[i].d))
			continue;
		be = s->m[i].d;
		__atomic_store_n(&vd->cur, i, __ATOMIC_RELAXED);
		break;
	}
	vdir_set_rel(&s);
	return (be);
}

static const struct director_methods fb_methods[1] = {{
	.magic = DIRECTOR_METHODS_MAGIC,
	.type = "fallback",
	.resolve = fb_resolve,
	.healthy = vdir_healthy,
	.count = vdir_count,
}};

VDIR_CLASS(fallback, VMOD_DIRECTORS_FALLBACK_MAGIC, fb_methods)

VCL_VOID
vmod_directors_fallback__init(VRT_CTX, struct vmod_directors_fallback **op,
    const char *vcl_name, VCL_BOOL sticky)
{
	struct vmod_directors_fallback *o;

	o = fallback_make(ctx, op, vcl_name);
	if (o != NULL)
		o->vd->sticky = sticky ? 1 : 0;
}

VCL_VOID
vmod_directors_fallback_add_backend(VRT_CTX,
    struct vmod_directors_fallback *o, VCL_BACKEND be)
{

	vdir_add(ctx, fallback_vd(ctx, o), be, 1.0);
}

VCL_BACKEND
vmod_directors_fallback_backend(VRT_CTX, struct vmod_directors_fallback *o)
{

	return (fallback_vd(ctx, o)->dir);
}

/* random ------------------------------------------------------------------*/

struct vmod_directors_random {
	unsigned		magic;
#define VMOD_DIRECTORS_RANDOM_MAGIC	0x71c4d5a9
	struct vdir		vd[1];
};

/*
 * The testable generator (common/rnd.h), which debug.srandom seeds: a
 * seeded test sees the picks varnishd would make.
 */
static const struct director *
rnd_resolve(VRT_CTX, const struct director *d)
{
	struct vdir *vd;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CAST_OBJ_NOTNULL(vd, d->priv, VDIR_MAGIC);
	return (vdir_pick(vd, scalbn((double)RND_RandomTestable(), -31)));
}

static const struct director_methods rnd_methods[1] = {{
	.magic = DIRECTOR_METHODS_MAGIC,
	.type = "random",
	.resolve = rnd_resolve,
	.healthy = vdir_healthy,
	.count = vdir_count,
}};

VDIR_CLASS(random, VMOD_DIRECTORS_RANDOM_MAGIC, rnd_methods)

VCL_VOID
vmod_directors_random__init(VRT_CTX, struct vmod_directors_random **op,
    const char *vcl_name)
{

	(void)random_make(ctx, op, vcl_name);
}

VCL_VOID
vmod_directors_random_add_backend(VRT_CTX, struct vmod_directors_random *o,
    VCL_BACKEND be, VCL_REAL weight)
{

	vdir_add(ctx, random_vd(ctx, o), be, weight);
}

VCL_BACKEND
vmod_directors_random_backend(VRT_CTX, struct vmod_directors_random *o)
{

	return (random_vd(ctx, o)->dir);
}

/* hash --------------------------------------------------------------------*/

struct vmod_directors_hash {
	unsigned		magic;
#define VMOD_DIRECTORS_HASH_MAGIC	0x9f35b0e2
	struct vdir		vd[1];
};

/*
 * As Varnish's hash of strands: SHA-256 of the non-empty strings, the
 * last four bytes read little-endian, so that a key picks the member
 * varnishd would.
 */
uint32_t
VDIR_HashStrands32(VCL_STRANDS s)
{
	struct sha256_ctx sc;
	unsigned char d[SHA256_LEN];
	int i;

	SHA256_Init(&sc);
	for (i = 0; s != NULL && i < s->n; i++)
		if (s->p[i] != NULL && *s->p[i] != '\0')
			SHA256_Update(&sc, s->p[i], strlen(s->p[i]));
	SHA256_Final(&sc, d);
	return ((uint32_t)d[SHA256_LEN - 4] |
	    (uint32_t)d[SHA256_LEN - 3] << 8 |
	    (uint32_t)d[SHA256_LEN - 2] << 16 |
	    (uint32_t)d[SHA256_LEN - 1] << 24);
}

/* No resolve: .backend(key) picks a member there and then. */
static const struct director_methods hash_methods[1] = {{
	.magic = DIRECTOR_METHODS_MAGIC,
	.type = "hash",
	.healthy = vdir_healthy,
	.count = vdir_count,
}};

VDIR_CLASS(hash, VMOD_DIRECTORS_HASH_MAGIC, hash_methods)

VCL_VOID
vmod_directors_hash__init(VRT_CTX, struct vmod_directors_hash **op,
    const char *vcl_name)
{

	(void)hash_make(ctx, op, vcl_name);
}

VCL_VOID
vmod_directors_hash_add_backend(VRT_CTX, struct vmod_directors_hash *o,
    VCL_BACKEND be, VCL_REAL weight)
{

	vdir_add(ctx, hash_vd(ctx, o), be, weight);
}

VCL_BACKEND
vmod_directors_hash_backend(VRT_CTX, struct vmod_directors_hash *o,
    VCL_STRANDS key)
{

	return (vdir_pick(hash_vd(ctx, o),
	    scalbn((double)VDIR_HashStrands32(key), -32)));
}

/* lookup ------------------------------------------------------------------*/

VCL_BACKEND
vmod_directors_lookup(VRT_CTX, VCL_STRING name)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->method != VCL_MET_INIT && ctx->method != VCL_MET_FINI) {
		VRT_fail(ctx,
		    "lookup() may only be called from vcl_init / vcl_fini");
		return (NULL);
	}
	if (ctx->vcl == NULL)
		return (NULL);
	return (DIRECTOR_Lookup(VCL_Name(ctx->vcl), name));
}

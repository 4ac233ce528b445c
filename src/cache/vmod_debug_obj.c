/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_debug_obj.c -- the objects (debug.obj, debug.concat) and the
 * PRIV_* functions of the debug module (include/vmod_std.h), as Varnish
 * 7.1's vmod_debug has them for its tests: they show objects being made
 * and ended, and which state a PRIV_* argument or VRT_priv_task() gives
 * in which task, through Debug log records.  debug's other functions
 * are vmod_debug.c's.  Not for production VCL.
 */

#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/*
 * Debug records: in the task's log, or (vsl NULL: vcl_init and vcl_fini,
 * whose log is not the shared one) straight to the shared log.
 */
static void __attribute__((__format__(__printf__, 2, 3)))
debug_log(struct vsl_log *vsl, const char *fmt, ...)
{
	char buf[VSL_RECLEN + 1];
	va_list ap;

	va_start(ap, fmt);
	if (vsl != NULL)
		VSLbv(vsl, SLT_Debug, fmt, ap);
	else {
		(void)vsnprintf(buf, sizeof buf, fmt, ap);
		VSL(SLT_Debug, 0, "%s", buf);
	}
	va_end(ap);
}

static int
debug_housekeeping(VRT_CTX)
{

	return (ctx->method == VCL_MET_INIT || ctx->method == VCL_MET_FINI);
}

/* The functions' states ----------------------------------------------------*/

#define DEBUG_PRIV_FINI(name, frees)					\
static void								\
debug_priv_##name##_fini(VRT_CTX, void *ptr)				\
{									\
									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	debug_log(ctx->vsl, "priv_" #name "_fini(%p)", ptr);		\
	if (frees)							\
		free(ptr);						\
}									\
									\
static const struct vmod_priv_methods debug_priv_##name##_methods[1] = {{ \
	.magic = VMOD_PRIV_METHODS_MAGIC,				\
	.type = "debug_test_priv_" #name,				\
	.fini = debug_priv_##name##_fini				\
}};
/* PRIV_CALL and PRIV_VCL outlive tasks: malloc; the others are on ws. */
DEBUG_PRIV_FINI(call, 1)
DEBUG_PRIV_FINI(vcl, 1)
DEBUG_PRIV_FINI(task, 0)
DEBUG_PRIV_FINI(top, 0)
#undef DEBUG_PRIV_FINI

VCL_VOID
vmod_debug_test_priv_call(VRT_CTX, struct vmod_priv *priv)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (priv->priv == NULL) {
		priv->priv = strdup("BAR");
		if (priv->priv == NULL) {
			VRT_fail(ctx, "debug.test_priv_call(): out of memory");
			return;
		}
		priv->methods = debug_priv_call_methods;
	} else {
		assert(priv->methods == debug_priv_call_methods);
		assert(!strcmp(priv->priv, "BAR"));
	}
}

VCL_VOID
vmod_debug_test_priv_vcl(VRT_CTX, struct vmod_priv *priv)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	/* Varnish's module makes it at load; made on first use here. */
	if (priv->priv == NULL) {
		priv->priv = strdup("FOO");
		if (priv->priv == NULL) {
			VRT_fail(ctx, "debug.test_priv_vcl(): out of memory");
			return;
		}
		priv->methods = debug_priv_vcl_methods;
	}
	assert(priv->methods == debug_priv_vcl_methods);
	assert(!strcmp(priv->priv, "FOO"));
}

VCL_VOID
vmod_debug_test_priv_task_get(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(VRT_priv_task_get(ctx, NULL) == NULL);
}

VCL_STRING
vmod_debug_test_priv_task(VRT_CTX, struct vmod_priv *priv, VCL_STRING s)
{
	char *n;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s == NULL || *s == '\0') {
		debug_log(ctx->vsl, "test_priv_task(%p) = %p (exists)",
		    (void *)priv, priv->priv);
	} else if (priv->priv == NULL) {
		/* The task's workspace lives as long as the task. */
		priv->priv = WS_Copy(ctx->ws, s, strlen(s));
		if (priv->priv == NULL) {
			VRT_fail(ctx, "debug.test_priv_task(): out of "
			    "workspace");
			return (NULL);
		}
		priv->methods = debug_priv_task_methods;
		debug_log(ctx->vsl, "test_priv_task(%p) = %p (new)",
		    (void *)priv, priv->priv);
	} else {
		n = WS_Printf(ctx->ws, "%s %s", (char *)priv->priv, s);
		if (n == NULL) {
			VRT_fail(ctx, "debug.test_priv_task(): out of "
			    "workspace");
			return (NULL);
		}
		priv->priv = n;
		debug_log(ctx->vsl, "test_priv_task(%p) = %p (update)",
		    (void *)priv, priv->priv);
	}
	if (priv->priv != NULL)
		assert(priv->methods == debug_priv_task_methods);
	return (priv->priv);
}

VCL_STRING
vmod_debug_test_priv_top(VRT_CTX, struct vmod_priv *priv, VCL_STRING s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(ctx->req, REQ_MAGIC);
	if (priv->priv == NULL) {
		/* On the top request's workspace: it outlives includes. */
		priv->priv = WS_Copy(ctx->req->top->ws, s == NULL ? "" : s,
		    s == NULL ? 0 : strlen(s));
		if (priv->priv == NULL) {
			VRT_fail(ctx, "debug.test_priv_top(): out of "
			    "workspace");
			return (NULL);
		}
		priv->methods = debug_priv_top_methods;
	} else
		assert(priv->methods == debug_priv_top_methods);
	return (priv->priv);
}

VCL_DURATION
vmod_debug_priv_perf(VRT_CTX, VCL_INT size, VCL_INT rounds)
{
	struct vmod_priv *p;
	uintptr_t check = 0;
	double t0, t1, d;
	VCL_INT s, r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	for (s = 1; s <= size; s++) {
		p = VRT_priv_task(ctx, (void *)(uintptr_t)s);
		if (p == NULL)
			return (-1.0);	/* the context failed */
		p->priv = NULL;
	}
	t0 = TIM_mono();
	for (r = 0; r < rounds; r++)
		for (s = 1; s <= size; s++) {
			p = VRT_priv_task_get(ctx, (void *)(uintptr_t)s);
			assert(p != NULL);
			check += (uintptr_t)p->priv;
			p->priv = (void *)(uintptr_t)(s * rounds + r);
		}
	t1 = TIM_mono();
	d = size > 0 && rounds > 0 ?
	    (t1 - t0) * 1e9 / ((double)size * (double)rounds) : 0.;
	debug_log(ctx->vsl, "perf size %jd rounds %jd time %.1fns check %ju",
	    (intmax_t)size, (intmax_t)rounds, d, (uintmax_t)check);
	/* No methods: the states end with the task, with nothing to do. */
	return (d);
}

/* debug.obj ----------------------------------------------------------------*/

struct vmod_debug_obj {
	unsigned		magic;
#define VMOD_DEBUG_OBJ_MAGIC	0x7c2e91ad
	int			foobar;
	char			*string;	/* malloc */
	const char		*number;	/* the table's enum value */
	char			*vcl_name;	/* malloc */
};

VCL_VOID
vmod_debug_obj__init(VRT_CTX, struct vmod_debug_obj **op,
    const char *vcl_name, VCL_STRING s, VCL_ENUM e)
{
	struct vmod_debug_obj *o;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(op != NULL && *op == NULL);
	ALLOC_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	if (o == NULL) {
		VRT_fail(ctx, "debug.obj(): out of memory");
		return;
	}
	o->foobar = 42;
	o->string = strdup(s == NULL ? "" : s);
	o->number = e;
	o->vcl_name = strdup(vcl_name);
	if (o->string == NULL || o->vcl_name == NULL) {
		free(o->string);
		free(o->vcl_name);
		FREE_OBJ(o);
		VRT_fail(ctx, "debug.obj(): out of memory");
		return;
	}
	*op = o;
	/* Veneer's: when objects are made and ended shows in the log. */
	debug_log(NULL, "debug.obj %s: made", o->vcl_name);
}

VCL_VOID
vmod_debug_obj__fini(struct vmod_debug_obj **op)
{
	struct vmod_debug_obj *o;

	TAKE_OBJ_NOTNULL(o, op, VMOD_DEBUG_OBJ_MAGIC);
	debug_log(NULL, "debug.obj %s: ended", o->vcl_name);
	free(o->string);
	free(o->vcl_name);
	FREE_OBJ(o);
}

VCL_VOID
vmod_debug_obj_enum(VRT_CTX, struct vmod_debug_obj *o, VCL_ENUM e)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	assert(!strcmp(e, "martin"));
}

VCL_VOID
vmod_debug_obj_obj(VRT_CTX, struct vmod_debug_obj *o)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
}

VCL_STRING
vmod_debug_obj_string(VRT_CTX, struct vmod_debug_obj *o)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	assert(o->foobar == 42);
	return (o->string);
}

VCL_STRING
vmod_debug_obj_number(VRT_CTX, struct vmod_debug_obj *o)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	assert(o->foobar == 42);
	return (o->number);
}

VCL_STRING
vmod_debug_obj_foo(VRT_CTX, struct vmod_debug_obj *o, VCL_STRING why)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	(void)why;
	assert(o->foobar == 42);
	return ("BOO");
}

/* Varnish's $Alias .bar obj.foo */
VCL_STRING
vmod_debug_obj_bar(VRT_CTX, struct vmod_debug_obj *o, VCL_STRING why)
{

	return (vmod_debug_obj_foo(ctx, o, why));
}

VCL_TIME
vmod_debug_obj_date(VRT_CTX, struct vmod_debug_obj *o)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	assert(o->foobar == 42);
	return (21.4);
}

VCL_VOID
vmod_debug_obj_test_priv_call(VRT_CTX, struct vmod_debug_obj *o,
    struct vmod_priv *priv)
{

	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	vmod_debug_test_priv_call(ctx, priv);
}

VCL_VOID
vmod_debug_obj_test_priv_vcl(VRT_CTX, struct vmod_debug_obj *o,
    struct vmod_priv *priv)
{

	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	vmod_debug_test_priv_vcl(ctx, priv);
}

#define DEBUG_OBJ_PRIV_FINI(name)					\
static void								\
debug_obj_priv_##name##_fini(VRT_CTX, void *ptr)			\
{									\
									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	assert(ptr != NULL);						\
	debug_log(ctx->vsl, "obj_priv_" #name "_fini(%p)", ptr);	\
}									\
									\
static const struct vmod_priv_methods					\
    debug_obj_priv_##name##_methods[1] = {{				\
	.magic = VMOD_PRIV_METHODS_MAGIC,				\
	.type = "debug_obj_test_priv_" #name,				\
	.fini = debug_obj_priv_##name##_fini				\
}};
DEBUG_OBJ_PRIV_FINI(task)
DEBUG_OBJ_PRIV_FINI(top)
#undef DEBUG_OBJ_PRIV_FINI

/* The object's own task state: keyed by the object, not the module. */
VCL_STRING
vmod_debug_obj_test_priv_task(VRT_CTX, struct vmod_debug_obj *o,
    VCL_STRING s)
{
	struct vsl_log *vsl;
	struct vmod_priv *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	vsl = debug_housekeeping(ctx) ? NULL : ctx->vsl;
	if (s == NULL || *s == '\0') {
		p = VRT_priv_task_get(ctx, o);
		if (p == NULL) {
			debug_log(vsl, "%s.priv_task() = NULL", o->vcl_name);
			return ("");
		}
		assert(p->methods == debug_obj_priv_task_methods);
		debug_log(vsl, "%s.priv_task() = %p .priv = %p (\"%s\")",
		    o->vcl_name, (void *)p, p->priv, (char *)p->priv);
		return (p->priv);
	}
	p = VRT_priv_task(ctx, o);
	if (p == NULL) {
		debug_log(vsl, "%s.priv_task() = NULL [err]", o->vcl_name);
		return ("");
	}
	debug_log(vsl, "%s.priv_task() = %p .priv = %p (\"%s\") [%s]",
	    o->vcl_name, (void *)p, (const void *)s, s,
	    p->priv != NULL ? "update" : "new");
	if (p->priv == NULL)
		p->methods = debug_obj_priv_task_methods;
	else
		assert(p->methods == debug_obj_priv_task_methods);
	/* s lives at least as long as the task. */
	p->priv = (void *)(uintptr_t)s;
	return (s);
}

VCL_STRING
vmod_debug_obj_test_priv_top(VRT_CTX, struct vmod_debug_obj *o,
    VCL_STRING s)
{
	struct vmod_priv *p;
	struct ws *ws;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(o, VMOD_DEBUG_OBJ_MAGIC);
	if (ctx->req == NULL) {
		VRT_fail(ctx, "%s.priv_top() can only be used in client VCL "
		    "context", o->vcl_name);
		return ("");
	}
	CHECK_OBJ(ctx->req, REQ_MAGIC);
	if (s == NULL || *s == '\0') {
		p = VRT_priv_top_get(ctx, o);
		if (p == NULL) {
			VSLb(ctx->vsl, SLT_Debug, "%s.priv_top() = NULL",
			    o->vcl_name);
			return ("");
		}
		assert(p->methods == debug_obj_priv_top_methods);
		VSLb(ctx->vsl, SLT_Debug, "%s.priv_top() = %p .priv = %p "
		    "(\"%s\")", o->vcl_name, (void *)p, p->priv,
		    (char *)p->priv);
		return (p->priv);
	}
	p = VRT_priv_top(ctx, o);
	if (p == NULL) {
		VSLb(ctx->vsl, SLT_Debug, "%s.priv_top() = NULL [err]",
		    o->vcl_name);
		return ("");
	}
	/* An include's workspace ends before the top request's. */
	ws = ctx->req->top->ws;
	if (ctx->ws != ws)
		s = WS_Copy(ws, s, strlen(s));
	if (s == NULL) {
		VRT_fail(ctx, "%s.priv_top(): out of workspace", o->vcl_name);
		return ("");
	}
	VSLb(ctx->vsl, SLT_Debug, "%s.priv_top() = %p .priv = %p (\"%s\") "
	    "[%s]", o->vcl_name, (void *)p, (const void *)s, s,
	    p->priv != NULL ? "update" : "new");
	if (p->priv == NULL)
		p->methods = debug_obj_priv_top_methods;
	else
		assert(p->methods == debug_obj_priv_top_methods);
	p->priv = (void *)(uintptr_t)s;
	return (s);
}

/* debug.concat -------------------------------------------------------------*/

struct vmod_debug_concat {
	unsigned		magic;
#define VMOD_DEBUG_CONCAT_MAGIC	0x3a5f0c67
	char			*s;		/* malloc */
};

VCL_VOID
vmod_debug_concat__init(VRT_CTX, struct vmod_debug_concat **op,
    const char *vcl_name, VCL_STRANDS s)
{
	struct vmod_debug_concat *c;
	size_t len = 0, l;
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(op != NULL && *op == NULL);
	(void)vcl_name;
	for (i = 0; i < s->n; i++)
		if (s->p[i] != NULL)
			len += strlen(s->p[i]);
	ALLOC_OBJ(c, VMOD_DEBUG_CONCAT_MAGIC);
	if (c != NULL)
		c->s = malloc(len + 1);
	if (c == NULL || c->s == NULL) {
		if (c != NULL)
			FREE_OBJ(c);
		VRT_fail(ctx, "debug.concat(): out of memory");
		return;
	}
	len = 0;
	for (i = 0; i < s->n; i++)
		if (s->p[i] != NULL) {
			l = strlen(s->p[i]);
			memcpy(c->s + len, s->p[i], l);
			len += l;
		}
	c->s[len] = '\0';
	*op = c;
}

VCL_VOID
vmod_debug_concat__fini(struct vmod_debug_concat **op)
{
	struct vmod_debug_concat *c;

	TAKE_OBJ_NOTNULL(c, op, VMOD_DEBUG_CONCAT_MAGIC);
	free(c->s);
	FREE_OBJ(c);
}

VCL_STRING
vmod_debug_concat_get(VRT_CTX, struct vmod_debug_concat *c)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(c, VMOD_DEBUG_CONCAT_MAGIC);
	return (c->s);
}

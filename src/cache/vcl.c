/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcl.c -- loaded VCL programs: the active one, references held by
 * requests, method calls with their log records and return checks, and
 * labels (a struct vcl without a program, pointing at one: vcl.label,
 * return (vcl(label))).  Owns struct vcl and vcl_mtx (guards vcl_active,
 * the list, labels' targets and counts, states; leaf).  Programs come
 * from shared objects the manager built from compiled VCL
 * (VCL_LoadFile), the boot one at start and the others when the admin
 * CLI's vcl.load says; vcl.use switches, vcl.discard unloads.
 */

#include "config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "cache/backend.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vrt_privs.h"
#include "cache/vrt_prof.h"
#include "cache/vsl.h"
#include "cache/ws.h"

struct vcl {
	unsigned		magic;
#define VCL_MAGIC		0x2f4c9e13
	const struct vcl_conf	*conf;		/* const; NULL: a label */
	char			name[64];	/* const */
	unsigned		refcnt;		/* atomic */
	void			*dlh;		/* dlopen handle, or NULL */
	struct vrt_prof		*prof;		/* const; NULL: no points */
	struct vcl		*next;		/* vcl_mtx: the loaded list */
	unsigned		discarded;	/* vcl_mtx */
	char			state[8];	/* vcl_mtx: auto|cold|warm|label,
						   "" while loading */
	unsigned		cold;		/* vcl_mtx: temperature */
	/* Labels */
	struct vcl		*label;		/* vcl_mtx: a label's VCL, one ref */
	unsigned		nlabels;	/* vcl_mtx: labels pointing here */
	unsigned		nrefs;		/* vcl_mtx: VCLs using this label */
	struct vcl		**deps;		/* const: conf->labels, one ref each */
	unsigned		ndeps;		/* const */
};

/*
 * References: one for being on the loaded list (from vcl.load to
 * vcl.discard), one for being the active one, one per request or fetch
 * using it, one per label pointing at it, one per VCL whose return
 * (vcl(...)) names it (labels).  The last one released unloads it.
 */
static struct lock vcl_mtx = LOCK_INITIALIZER;
static struct vcl *vcl_active;			/* vcl_mtx */
static struct vcl *vcl_list;			/* vcl_mtx */

static const char * const vcl_method_names[VCL_MET__MAX] = {
#define VCL_MET(l, U, side, rets)	[VCL_MET_##U] = #l,
#include "vcl_returns.h"
};

/* VCL_call records name methods in capitals, as Varnish logs them. */
static const char * const vcl_method_log[VCL_MET__MAX] = {
#define VCL_MET(l, U, side, rets)	[VCL_MET_##U] = #U,
#include "vcl_returns.h"
};

static const unsigned vcl_method_rets[VCL_MET__MAX] = {
#define VCL_MET(l, U, side, rets)	[VCL_MET_##U] = (rets),
#include "vcl_returns.h"
};

static const char * const vcl_ret_names[VCL_RET__MAX] = {
	[VCL_RET_NONE] = "none",
#define VCL_RET(l, U)	[VCL_RET_##U] = #l,
#include "vcl_returns.h"
};

const char *
VCL_MethodName(enum vcl_method m)
{

	assert(m < VCL_MET__MAX);
	return (vcl_method_names[m]);
}

const char *
VCL_ReturnName(enum vcl_ret r)
{

	assert(r < VCL_RET__MAX);
	return (vcl_ret_names[r]);
}

/*
 * A context for vcl_init, vcl_fini and the load events, with a
 * workspace for what their VCL builds (std.log of a concatenation...).
 * Their log records belong to no transaction and are not flushed to
 * the shared log: what goes wrong comes back as the load's error.
 */
static void
vcl_ctx_housekeeping(struct vrt_ctx *ctx, struct vcl *vcl,
    struct vsl_log *vsl, struct ws *ws, struct vrt_privs *privs)
{

	INIT_OBJ(ctx, VRT_CTX_MAGIC);
	ctx->privs = privs;
	ctx->vcl = vcl;
	ctx->vsl = vsl;
	ctx->ws = ws;
	ctx->now = TIM_real();
}

static struct vcl *vcl_find_locked(const char *name);
static void vcl_deps_free(struct vcl *vcl);

/* Runs vcl_fini, the DISCARD event, and frees the program. */
static void
vcl_unload(struct vcl *vcl)
{
	struct vrt_ctx ctx;
	struct vsl_log vsl[1];
	uint32_t vslbuf[1024];
	struct ws ws[1];
	char wsbuf[16384];
	struct vrt_privs privs[1];

	if (vcl->conf == NULL) {
		/* A label: nothing runs; its VCL loses a reference. */
		if (vcl->label != NULL)
			VCL_Rel(&vcl->label);
		FREE_OBJ(vcl);
		return;
	}
	VSL_Setup(vsl, vslbuf, sizeof vslbuf);
	WS_Init(ws, "vcl_fini", wsbuf, sizeof wsbuf);
	PRIV_Init(privs, ws);
	vcl_ctx_housekeeping(&ctx, vcl, vsl, ws, privs);
	(void)VCL_Method(vcl, VCL_MET_FINI, &ctx);
	PRIV_Fini(&ctx, privs);		/* vcl_fini's task ends */
	vcl_ctx_housekeeping(&ctx, vcl, vsl, ws, privs);
	if (vcl->conf->event != NULL)
		(void)vcl->conf->event(&ctx, VCL_EVENT_DISCARD);
	vcl_deps_free(vcl);
	if (vcl->prof != NULL)
		PROF_Free(&vcl->prof);
	if (vcl->dlh != NULL)
		(void)dlclose(vcl->dlh);
	FREE_OBJ(vcl);
}

/* What a VCL's return (vcl(...)) holds: labels, counted. */
static void
vcl_deps_free(struct vcl *vcl)
{
	struct vcl *l;
	unsigned u;

	for (u = 0; u < vcl->ndeps; u++) {
		l = vcl->deps[u];
		/* vcl.discard uncounted them already (a busy VCL lingers). */
		LOCK_Lock(&vcl_mtx);
		if (!vcl->discarded) {
			assert(l->nrefs > 0);
			l->nrefs--;
		}
		LOCK_Unlock(&vcl_mtx);
		VCL_Rel(&l);
	}
	free(vcl->deps);
	vcl->deps = NULL;
	vcl->ndeps = 0;
}

/*
 * The labels conf->labels names, each referenced; 0, or -1 with err
 * when one is not (or no longer) a label.
 */
static int
vcl_deps_find(struct vcl *vcl, char *err, size_t errlen)
{
	const struct vcl_conf *conf = vcl->conf;
	struct vcl *l;
	unsigned u, n;

	if (conf->vrt_minor < 1 || conf->labels == NULL)
		return (0);
	for (n = 0; n < conf->nlabels && conf->labels[n] != NULL; n++)
		continue;
	if (n == 0)
		return (0);
	vcl->deps = calloc(n, sizeof *vcl->deps);
	assert(vcl->deps != NULL);
	for (u = 0; u < n; u++) {
		LOCK_Lock(&vcl_mtx);
		l = vcl_find_locked(conf->labels[u]);
		if (l == NULL || l->conf != NULL) {
			LOCK_Unlock(&vcl_mtx);
			(void)snprintf(err, errlen, "VCL %s: return (vcl(%s)) "
			    "names no label: 'vcl.label %s <vcl>' first",
			    vcl->name, conf->labels[u], conf->labels[u]);
			vcl_deps_free(vcl);
			return (-1);
		}
		l->nrefs++;
		(void)__atomic_add_fetch(&l->refcnt, 1, __ATOMIC_RELAXED);
		LOCK_Unlock(&vcl_mtx);
		vcl->deps[vcl->ndeps++] = l;
	}
	return (0);
}

/* The loaded VCL named name, or NULL.  vcl_mtx held. */
static struct vcl *
vcl_find_locked(const char *name)
{
	struct vcl *vcl;

	for (vcl = vcl_list; vcl != NULL; vcl = vcl->next)
		if (!strcmp(vcl->name, name))
			return (vcl);
	return (NULL);
}

static int
vcl_load(const struct vcl_conf *conf, void *dlh, const char *name,
    int activate, char *err, size_t errlen)
{
	struct vcl *vcl, *old;
	struct vrt_ctx ctx;
	struct vsl_log vsl[1];
	uint32_t vslbuf[1024];
	enum vcl_ret ret;
	struct ws ws[1];
	char wsbuf[16384];
	struct vrt_privs privs[1];
	char failmsg[256] = "";

	CHECK_OBJ(conf, VCL_CONF_MAGIC);
	if (strlen(name) >= sizeof vcl->name) {
		(void)snprintf(err, errlen, "VCL name too long: %s", name);
		return (-1);
	}
	LOCK_Lock(&vcl_mtx);
	vcl = vcl_find_locked(name);
	LOCK_Unlock(&vcl_mtx);
	if (vcl != NULL) {
		(void)snprintf(err, errlen, "Already a VCL named %s", name);
		return (-1);
	}
	if (conf->vrt_major != VRT_MAJOR_VERSION ||
	    conf->vrt_minor > VRT_MINOR_VERSION) {
		(void)snprintf(err, errlen,
		    "VCL %s was built for VRT %u.%u, this veneerd has %u.%u",
		    name, conf->vrt_major, conf->vrt_minor,
		    VRT_MAJOR_VERSION, VRT_MINOR_VERSION);
		return (-1);
	}
	ALLOC_OBJ(vcl, VCL_MAGIC);
	assert(vcl != NULL);
	vcl->conf = conf;
	vcl->dlh = dlh;
	(void)snprintf(vcl->name, sizeof vcl->name, "%s", name);
	vcl->refcnt = 1;		/* being on the list */
	/* No state till VCL_SetState: not warm in vcl_init (VCL_IsWarm). */
	vcl->state[0] = '\0';
	if (vcl_deps_find(vcl, err, errlen) != 0) {
		FREE_OBJ(vcl);
		return (-1);
	}
	vcl->prof = PROF_New(conf, vcl->name);
	VSL_Setup(vsl, vslbuf, sizeof vslbuf);
	WS_Init(ws, "vcl_init", wsbuf, sizeof wsbuf);
	PRIV_Init(privs, ws);
	vcl_ctx_housekeeping(&ctx, vcl, vsl, ws, privs);
	if (conf->event != NULL && conf->event(&ctx, VCL_EVENT_LOAD) != 0) {
		(void)snprintf(err, errlen, "VCL \"%s\" Failed initialization: "
		    "its backends, ACLs or regexes could not be set up (the log "
		    "says which)", name);
		vcl_ctx_housekeeping(&ctx, vcl, vsl, ws, privs);
		(void)conf->event(&ctx, VCL_EVENT_DISCARD);
		vcl_deps_free(vcl);
		if (vcl->prof != NULL)
			PROF_Free(&vcl->prof);
		FREE_OBJ(vcl);
		return (-1);
	}
	vcl_ctx_housekeeping(&ctx, vcl, vsl, ws, privs);
	ctx.msg = failmsg;
	ctx.msgsize = sizeof failmsg;
	ret = VCL_Method(vcl, VCL_MET_INIT, &ctx);
	PRIV_Fini(&ctx, privs);		/* vcl_init's task ends */
	if (ret != VCL_RET_OK) {
		/* Varnish's first line, for scripts; then why. */
		(void)snprintf(err, errlen, "VCL \"%s\" Failed initialization: "
		    "vcl_init returned %s%s%s", name, VCL_ReturnName(ret),
		    failmsg[0] != '\0' ? ": " : "", failmsg);
		vcl_ctx_housekeeping(&ctx, vcl, vsl, ws, privs);
		if (conf->event != NULL)
			(void)conf->event(&ctx, VCL_EVENT_DISCARD);
		vcl_deps_free(vcl);
		if (vcl->prof != NULL)
			PROF_Free(&vcl->prof);
		FREE_OBJ(vcl);
		return (-1);
	}
	old = NULL;
	LOCK_Lock(&vcl_mtx);
	vcl->next = vcl_list;
	vcl_list = vcl;
	if (activate) {
		vcl->refcnt++;
		old = vcl_active;
		vcl_active = vcl;
	}
	LOCK_Unlock(&vcl_mtx);
	VSC_Add(n_vcl, 1);
	VSC_Add(n_vcl_avail, 1);
	if (old != NULL)
		VCL_Rel(&old);
	return (0);
}

int
VCL_Use(const char *name, char *err, size_t errlen)
{
	struct vcl *vcl, *old;

	LOCK_Lock(&vcl_mtx);
	vcl = vcl_find_locked(name);
	if (vcl == NULL) {
		LOCK_Unlock(&vcl_mtx);
		(void)snprintf(err, errlen, "No VCL named %s known", name);
		return (-1);
	}
	if (vcl->cold) {
		LOCK_Unlock(&vcl_mtx);
		(void)snprintf(err, errlen, "VCL '%s' is cold - set to auto "
		    "or warm first", name);
		return (-1);
	}
	old = vcl_active;
	if (old == vcl) {
		LOCK_Unlock(&vcl_mtx);
		return (0);
	}
	(void)__atomic_add_fetch(&vcl->refcnt, 1, __ATOMIC_RELAXED);
	vcl_active = vcl;
	LOCK_Unlock(&vcl_mtx);
	if (old != NULL)
		VCL_Rel(&old);
	return (0);
}

int
VCL_Discard(const char *name, char *err, size_t errlen)
{
	struct vcl *vcl, **pp;
	unsigned u;

	LOCK_Lock(&vcl_mtx);
	for (pp = &vcl_list; *pp != NULL; pp = &(*pp)->next)
		if (!strcmp((*pp)->name, name))
			break;
	vcl = *pp;
	if (vcl == NULL || vcl == vcl_active) {
		LOCK_Unlock(&vcl_mtx);
		(void)snprintf(err, errlen, vcl == NULL ? "No VCL named %s "
		    "known" : "%s is the active VCL: vcl.use another first",
		    name);
		return (-1);
	}
	if (vcl->nlabels > 0 || vcl->nrefs > 0) {
		LOCK_Unlock(&vcl_mtx);
		(void)snprintf(err, errlen, "%s is %s: discard %s first",
		    name, vcl->nlabels > 0 ? "labelled" : "used by "
		    "return (vcl(...))", vcl->nlabels > 0 ? "its labels" :
		    "the VCLs using it");
		return (-1);
	}
	*pp = vcl->next;
	vcl->next = NULL;
	vcl->discarded = 1;
	for (u = 0; u < vcl->ndeps; u++) {
		assert(vcl->deps[u]->nrefs > 0);
		vcl->deps[u]->nrefs--;
	}
	if (vcl->label != NULL) {
		assert(vcl->label->nlabels > 0);
		vcl->label->nlabels--;
	}
	LOCK_Unlock(&vcl_mtx);
	if (vcl->conf == NULL) {
		VCL_Rel(&vcl);
		return (0);
	}
	VSC_Sub(n_vcl_avail, 1);
	VSC_Add(n_vcl_discard, 1);
	/* Unloaded now, or by the last request still using it. */
	VCL_Rel(&vcl);
	return (0);
}

void
VCL_List(char *buf, size_t len)
{
	const struct vcl *vcl;
	size_t used = 0;
	unsigned busy;
	int n;

	buf[0] = '\0';
	LOCK_Lock(&vcl_mtx);
	for (vcl = vcl_list; vcl != NULL && used < len; vcl = vcl->next) {
		/* Requests only: not the list's, labels' or active's refs. */
		busy = __atomic_load_n(&vcl->refcnt, __ATOMIC_RELAXED) - 1 -
		    (vcl == vcl_active) - vcl->nlabels - vcl->nrefs;
		n = snprintf(buf + used, len - used, "%s %u %s\n",
		    vcl == vcl_active ? "active" : "available", busy,
		    vcl->name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	LOCK_Unlock(&vcl_mtx);
}

int
VCL_Active(void)
{
	int r;

	LOCK_Lock(&vcl_mtx);
	r = vcl_active != NULL;
	LOCK_Unlock(&vcl_mtx);
	return (r);
}

int
VCL_Load(const struct vcl_conf *conf, const char *name, char *err,
    size_t errlen)
{

	return (vcl_load(conf, NULL, name, 1, err, errlen));
}

int
VCL_LoadFile(const char *path, const char *name, int activate, char *err,
    size_t errlen)
{
	const struct vcl_conf *conf;
	void *dlh;

	dlh = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (dlh == NULL) {
		(void)snprintf(err, errlen, "VCL %s: cannot load %s: %s",
		    name, path, dlerror());
		return (-1);
	}
	conf = dlsym(dlh, "VCL_conf");
	if (conf == NULL || conf->magic != VCL_CONF_MAGIC) {
		(void)snprintf(err, errlen, "VCL %s: %s is not a compiled VCL",
		    name, path);
		(void)dlclose(dlh);
		return (-1);
	}
	if (vcl_load(conf, dlh, name, activate, err, errlen) != 0) {
		(void)dlclose(dlh);
		return (-1);
	}
	return (0);
}

struct vcl *
VCL_Ref(void)
{
	struct vcl *vcl;

	LOCK_Lock(&vcl_mtx);
	vcl = vcl_active;
	CHECK_OBJ(vcl, VCL_MAGIC);
	/* vcl.use of a label: the requests get the VCL it points at. */
	if (vcl->label != NULL)
		vcl = vcl->label;
	CHECK_OBJ(vcl->conf, VCL_CONF_MAGIC);
	(void)__atomic_add_fetch(&vcl->refcnt, 1, __ATOMIC_RELAXED);
	LOCK_Unlock(&vcl_mtx);
	return (vcl);
}

void
VCL_RefThis(struct vcl *vcl)
{

	CHECK_OBJ(vcl, VCL_MAGIC);
	assert(__atomic_add_fetch(&vcl->refcnt, 1, __ATOMIC_RELAXED) > 1);
}

void
VCL_Rel(struct vcl **vclp)
{
	struct vcl *vcl;

	TAKE_OBJ_NOTNULL(vcl, vclp, VCL_MAGIC);
	if (__atomic_sub_fetch(&vcl->refcnt, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	/* Last reference to a VCL discarded and no longer active. */
	if (vcl->conf != NULL) {
		VSC_Sub(n_vcl, 1);
		if (vcl->discarded)
			VSC_Sub(n_vcl_discard, 1);
	}
	vcl_unload(vcl);
}

const char *
VCL_Name(const struct vcl *vcl)
{

	CHECK_OBJ(vcl, VCL_MAGIC);
	return (vcl->name);
}

VCL_BACKEND
VCL_DefaultDirector(const struct vcl *vcl)
{

	CHECK_OBJ(vcl, VCL_MAGIC);
	if (vcl->conf->default_director == NULL)
		return (NULL);
	return (*vcl->conf->default_director);
}

static vcl_method_f *
vcl_func(const struct vcl_conf *conf, enum vcl_method m)
{

	switch (m) {
#define VCL_MET(l, U, side, rets)					\
	case VCL_MET_##U:						\
		return (conf->l##_method);
#include "vcl_returns.h"
	default:
		WRONG("vcl method");
	}
}

enum vcl_ret
VCL_Method(struct vcl *vcl, enum vcl_method m, struct vrt_ctx *ctx)
{
	vcl_method_f *func;
	enum vcl_ret ret;
	uint64_t t0;

	CHECK_OBJ(vcl, VCL_MAGIC);
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(m < VCL_MET__MAX);
	ctx->method = m;
	ctx->vcl = vcl;
	VSLbs(ctx->vsl, SLT_VCL_call, vcl_method_log[m]);
	func = vcl_func(vcl->conf, m);
	ctx->prof = PROF_Ctx(vcl->prof);
	if (ctx->prof != NULL) {
		t0 = VRT_prof_now();
		ret = func == NULL ? VCL_RET_FAIL : func(ctx);
		VRT_prof_call(ctx, (unsigned)m, t0);
	} else
		ret = func == NULL ? VCL_RET_FAIL : func(ctx);
	ctx->prof = NULL;
	if (ctx->failed)
		ret = VCL_RET_FAIL;
	if (ret <= VCL_RET_NONE || ret >= VCL_RET__MAX ||
	    !(vcl_method_rets[m] & (1U << ret))) {
		VSLb(ctx->vsl, SLT_VCL_Error,
		    "vcl_%s returned an action it may not (%d)",
		    vcl_method_names[m], (int)ret);
		ret = VCL_RET_FAIL;
	}
	VSLbs(ctx->vsl, SLT_VCL_return, vcl_ret_names[ret]);
	if (ret == VCL_RET_FAIL)
		VSC_Add(vcl_fail, 1);
	return (ret);
}

/*--------------------------------------------------------------------
 * Labels, states, the profile: what the CLI asks for.  The manager
 * checked what it could (a label points at a VCL, never at a label; a
 * labelled VCL is not discarded); what is checked here again guards
 * the child against a manager bug, with an answer instead of a panic.
 */

int
VCL_Label(const char *lname, const char *vname, char *err, size_t errlen)
{
	struct vcl *lbl, *vcl, *old = NULL, *fresh;

	if (strlen(lname) >= sizeof fresh->name) {
		(void)snprintf(err, errlen, "VCL name too long: %s", lname);
		return (-1);
	}
	ALLOC_OBJ(fresh, VCL_MAGIC);
	assert(fresh != NULL);
	LOCK_Lock(&vcl_mtx);
	vcl = vcl_find_locked(vname);
	lbl = vcl_find_locked(lname);
	if (vcl == NULL || vcl->conf == NULL ||
	    (lbl != NULL && lbl->conf != NULL)) {
		LOCK_Unlock(&vcl_mtx);
		if (vcl == NULL)
			(void)snprintf(err, errlen, "No VCL named %s known",
			    vname);
		else if (vcl->conf == NULL)
			(void)snprintf(err, errlen, "VCL labels cannot point "
			    "to labels");
		else
			(void)snprintf(err, errlen, "%s is not a label",
			    lname);
		FREE_OBJ(fresh);
		return (-1);
	}
	if (lbl == NULL) {
		lbl = fresh;
		fresh = NULL;
		(void)snprintf(lbl->name, sizeof lbl->name, "%s", lname);
		(void)snprintf(lbl->state, sizeof lbl->state, "label");
		lbl->refcnt = 1;		/* being on the list */
		lbl->next = vcl_list;
		vcl_list = lbl;
	}
	old = lbl->label;
	if (old != NULL)
		old->nlabels--;
	lbl->label = vcl;
	vcl->nlabels++;
	(void)__atomic_add_fetch(&vcl->refcnt, 1, __ATOMIC_RELAXED);
	LOCK_Unlock(&vcl_mtx);
	if (fresh != NULL)
		FREE_OBJ(fresh);
	if (old != NULL)
		VCL_Rel(&old);
	return (0);
}

int
VCL_SetState(const char *name, const char *state, int cold, char *err,
    size_t errlen)
{
	struct vcl *vcl;

	LOCK_Lock(&vcl_mtx);
	vcl = vcl_find_locked(name);
	if (vcl == NULL || vcl->conf == NULL ||
	    (cold && vcl == vcl_active)) {
		LOCK_Unlock(&vcl_mtx);
		(void)snprintf(err, errlen, vcl == NULL ? "No VCL named %s "
		    "known" : vcl->conf == NULL ? "Labels are always warm "
		    "(%s)" : "Cannot set the active VCL cold (%s)", name);
		return (-1);
	}
	(void)snprintf(vcl->state, sizeof vcl->state, "%s", state);
	vcl->cold = cold != 0;
	LOCK_Unlock(&vcl_mtx);
	/* Only warm VCLs probe their backends. */
	BACKEND_SetWarm(name, !cold);
	return (0);
}

int
VCL_IsWarm(const struct vcl *vcl)
{
	unsigned cold;

	CHECK_OBJ(vcl, VCL_MAGIC);
	LOCK_Lock(&vcl_mtx);
	/*
	 * No state yet: loading (vcl_init), not warm, as Varnish's
	 * VCL_TEMP_INIT; a VCL loaded cold never was.
	 */
	cold = vcl->cold || vcl->state[0] == '\0';
	LOCK_Unlock(&vcl_mtx);
	return (!cold);
}

int
VCL_HasLabels(const struct vcl *vcl)
{

	CHECK_OBJ(vcl, VCL_MAGIC);
	return (vcl->ndeps > 0);
}

void
VRT_vcl_select(VRT_CTX, unsigned n)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(ctx->vcl, VCL_MAGIC);
	/* The compiler allows it in vcl_recv only, with n in range. */
	if (ctx->req == NULL || n >= ctx->vcl->ndeps) {
		VRT_fail(ctx, "return (vcl(...)) outside vcl_recv");
		return;
	}
	CHECK_OBJ(ctx->req, REQ_MAGIC);
	ctx->req->vcl_label = ctx->vcl->deps[n];
}

struct vcl *
VCL_LabelRef(struct vcl *label)
{
	struct vcl *vcl;

	CHECK_OBJ(label, VCL_MAGIC);
	LOCK_Lock(&vcl_mtx);
	vcl = label->label;
	CHECK_OBJ(vcl, VCL_MAGIC);
	(void)__atomic_add_fetch(&vcl->refcnt, 1, __ATOMIC_RELAXED);
	LOCK_Unlock(&vcl_mtx);
	return (vcl);
}

int
VCL_Profile(FILE *out, const char *name)
{
	struct vcl *vcl;
	int r;

	LOCK_Lock(&vcl_mtx);
	vcl = name != NULL ? vcl_find_locked(name) : vcl_active;
	if (vcl != NULL && vcl->label != NULL)
		vcl = vcl->label;
	if (vcl == NULL) {
		LOCK_Unlock(&vcl_mtx);
		fprintf(out, "No VCL named %s known", name);
		return (-1);
	}
	(void)__atomic_add_fetch(&vcl->refcnt, 1, __ATOMIC_RELAXED);
	LOCK_Unlock(&vcl_mtx);
	r = PROF_Rows(vcl->prof, vcl->name, out);
	VCL_Rel(&vcl);
	return (r);
}

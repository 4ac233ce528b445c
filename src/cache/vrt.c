/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt.c -- the daemon side of include/vrt.h: what compiled VCL may call.
 * Every function checks its context and tolerates being called where the
 * field does not exist (it logs VCL_Error and fails the method) rather
 * than crash: a VCL mistake must never take the child down.
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/child.h"
#include "cache/fetch.h"
#include "cache/hash.h"
#include "cache/http.h"
#include "cache/http1_parse.h"
#include "cache/obj.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vrt_priv.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* Contexts are made writable by the daemon; only 'failed' is changed. */
static void
vrt_set_failed(VRT_CTX)
{

	((struct vrt_ctx *)(uintptr_t)ctx)->failed = 1;
}

void
VRT_fail(VRT_CTX, const char *fmt, ...)
{
	va_list ap;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->vsl != NULL) {
		va_start(ap, fmt);
		VSLbv(ctx->vsl, SLT_VCL_Error, fmt, ap);
		va_end(ap);
	}
	if (ctx->msg != NULL && ctx->msg[0] == '\0') {
		va_start(ap, fmt);
		(void)vsnprintf(ctx->msg, ctx->msgsize, fmt, ap);
		va_end(ap);
	}
	if (ctx->req == NULL && ctx->bo == NULL) {
		/* Loading or vcl_init: the manager logs what we print. */
		va_start(ap, fmt);
		(void)fputs("VCL error: ", stderr);
		(void)vfprintf(stderr, fmt, ap);
		(void)fputs("\n", stderr);
		va_end(ap);
	}
	vrt_set_failed(ctx);
}

void
VRT_log(VRT_CTX, const char *s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->vsl != NULL)
		VSLbs(ctx->vsl, SLT_VCL_Log, s == NULL ? "" : s);
}

VCL_STRING
VRT_StrandsWS(struct ws *ws, const char *h, const struct strands *s)
{
	size_t avail, l;
	char *b, *p;
	int i;

	avail = WS_ReserveAll(ws);
	b = p = WS_Reservation(ws);
	if (h != NULL) {
		l = strlen(h);
		if (l >= avail)
			goto overflow;
		memcpy(p, h, l);
		p += l;
		avail -= l;
	}
	for (i = 0; s != NULL && i < s->n; i++) {
		if (s->p[i] == NULL)
			continue;
		l = strlen(s->p[i]);
		if (l >= avail)
			goto overflow;
		memcpy(p, s->p[i], l);
		p += l;
		avail -= l;
	}
	*p = '\0';
	WS_Release(ws, (size_t)(p - b) + 1);
	return (b);
overflow:
	/*
	 * Not marked overflowed: the callers in VCL fail the method,
	 * which answers 503 (issue 12); a marked workspace would make the
	 * request a bare 500 instead.  VRT_SetHdr marks it itself.
	 */
	WS_Release(ws, 0);
	return (NULL);
}

VCL_STRING
VRT_INT_string(VRT_CTX, VCL_INT i)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (WS_Printf(ctx->ws, "%ld", i));
}

/* The cache ---------------------------------------------------------------*/

void
VRT_hashdata(VRT_CTX, const struct strands *s)
{
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req == NULL || ctx->method != VCL_MET_HASH) {
		VRT_fail(ctx, "hash_data() can only be used in vcl_hash");
		return;
	}
	if (s == NULL)
		return;
	HSH_AddData(ctx->req->sha, s->p, (unsigned)s->n);
	for (i = 0; i < s->n; i++)
		if (s->p[i] != NULL)
			VSLbs(ctx->vsl, SLT_Hash, s->p[i]);
}

VCL_BOOL
VRT_r_req_hash_always_miss(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_hash_always_miss, VRTV_READ))
		return (0);
	return (ctx->req != NULL && ctx->req->hash_always_miss);
}

void
VRT_l_req_hash_always_miss(VRT_CTX, VCL_BOOL b)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_hash_always_miss, VRTV_SET))
		return;
	if (ctx->req != NULL)
		ctx->req->hash_always_miss = b ? 1 : 0;
}

/* beresp.ttl & co are what is left from now; stored from t_origin. */
static struct busyobj *
vrt_bo(VRT_CTX, const char *what)
{

	if (ctx->bo == NULL || ctx->method != VCL_MET_BACKEND_RESPONSE) {
		if (ctx->bo == NULL ||
		    ctx->method != VCL_MET_BACKEND_ERROR) {
			VRT_fail(ctx, "%s is only available in "
			    "vcl_backend_response and vcl_backend_error",
			    what);
			return (NULL);
		}
	}
	return (ctx->bo);
}

VCL_DURATION
VRT_r_beresp_ttl(VRT_CTX)
{
	struct busyobj *bo = vrt_bo(ctx, "beresp.ttl");

	if (bo == NULL)
		return (0);
	/* A negative TTL (a pass, uncacheable) reads as 0, then ages. */
	return ((bo->ttl > 0 ? bo->ttl : 0) - (ctx->now - bo->t_origin));
}

void
VRT_l_beresp_ttl(VRT_CTX, VCL_DURATION d)
{
	struct busyobj *bo = vrt_bo(ctx, "beresp.ttl");

	if (bo == NULL)
		return;
	bo->ttl = d + (ctx->now - bo->t_origin);
	bo->ttl_source = "VCL";
	VSLb(ctx->vsl, SLT_TTL, "VCL %.0f %.0f %.0f %.0f %s", d, bo->grace,
	    bo->keep, ctx->now, bo->uncacheable ? "uncacheable" :
	    "cacheable");
}

#define VRT_BO_DUR(field)						\
VCL_DURATION								\
VRT_r_beresp_##field(VRT_CTX)						\
{									\
	struct busyobj *bo = vrt_bo(ctx, "beresp." #field);		\
									\
	return (bo == NULL ? 0 : bo->field);				\
}									\
									\
void									\
VRT_l_beresp_##field(VRT_CTX, VCL_DURATION d)				\
{									\
	struct busyobj *bo = vrt_bo(ctx, "beresp." #field);		\
									\
	if (bo != NULL)							\
		bo->field = d < 0 ? 0 : d;				\
}

VRT_BO_DUR(grace)
VRT_BO_DUR(keep)

VCL_BOOL
VRT_r_beresp_uncacheable(VRT_CTX)
{
	struct busyobj *bo = vrt_bo(ctx, "beresp.uncacheable");

	return (bo != NULL && bo->uncacheable);
}

void
VRT_l_beresp_uncacheable(VRT_CTX, VCL_BOOL b)
{
	struct busyobj *bo = vrt_bo(ctx, "beresp.uncacheable");

	if (bo == NULL)
		return;
	/* Once uncacheable (a pass), always: as in Varnish. */
	if (b)
		bo->uncacheable = 1;
}

VCL_BOOL
VRT_r_bereq_uncacheable(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_uncacheable, VRTV_READ))
		return (0);
	return (ctx->bo != NULL && ctx->bo->fetch_oc == NULL);
}

static const struct objcore *
vrt_obj(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	/*
	 * A pass delivers what it relays: nothing stored, so obj.* read 0
	 * (hits, ttl, grace, keep), as a pass's private object on varnishd.
	 */
	if (ctx->req != NULL && ctx->req->objcore == NULL &&
	    ctx->method == VCL_MET_DELIVER)
		return (NULL);
	if (ctx->req == NULL || ctx->req->objcore == NULL) {
		VRT_fail(ctx, "obj is only available in vcl_hit and "
		    "vcl_deliver of a cached object");
		return (NULL);
	}
	return (ctx->req->objcore);
}

VCL_DURATION
VRT_r_obj_ttl(VRT_CTX)
{
	const struct objcore *oc = vrt_obj(ctx);

	return (oc == NULL ? 0 : oc->t_origin + oc->ttl - ctx->now);
}

VCL_DURATION
VRT_r_obj_grace(VRT_CTX)
{
	const struct objcore *oc = vrt_obj(ctx);

	return (oc == NULL ? 0 : oc->grace);
}

VCL_DURATION
VRT_r_obj_keep(VRT_CTX)
{
	const struct objcore *oc = vrt_obj(ctx);

	return (oc == NULL ? 0 : oc->keep);
}

VCL_INT
VRT_r_obj_hits(VRT_CTX)
{
	const struct objcore *oc = vrt_obj(ctx);

	return (oc == NULL ? 0 :
	    (VCL_INT)__atomic_load_n(&oc->hits, __ATOMIC_RELAXED));
}

/* Headers -----------------------------------------------------------------*/

static struct http *
vrt_http(VRT_CTX, enum gethdr_where where)
{

	switch (where) {
	case HDR_REQ:		return (ctx->http_req);
	case HDR_REQ_TOP:	return (ctx->http_req_top);
	case HDR_RESP:		return (ctx->http_resp);
	case HDR_BEREQ:		return (ctx->http_bereq);
	case HDR_BERESP:	return (ctx->http_beresp);
	case HDR_OBJ:		return (ctx->http_obj);
	default:		return (NULL);
	}
}

/* The header name without its colon, from a "\005Host:" reference. */
static int
vrt_hdr_name(VCL_HEADER hs, char *buf, size_t len)
{
	size_t l;

	l = (unsigned char)hs->what[0];
	if (l < 2 || l > len || hs->what[l] != ':')
		return (-1);
	memcpy(buf, hs->what + 1, l - 1);
	buf[l - 1] = '\0';
	return (0);
}

VCL_STRING
VRT_GetHdr(VRT_CTX, VCL_HEADER hs)
{
	struct http *hp;
	struct txt v;
	char name[256];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	hp = vrt_http(ctx, hs->where);
	if (hp == NULL || vrt_hdr_name(hs, name, sizeof name))
		return (NULL);
	if (!HTTP_GetHdr(hp, name, &v))
		return (NULL);
	if (*v.e == '\0')
		return (v.b);
	return (WS_Copy(ctx->ws, v.b, TXT_LEN(v)));
}

void
VRT_UnsetHdr(VRT_CTX, VCL_HEADER hs)
{
	struct http *hp;
	char name[256];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	hp = vrt_http(ctx, hs->where);
	if (hp == NULL || vrt_hdr_name(hs, name, sizeof name))
		return;
	HTTP_Unset(hp, name);
}

void
VRT_SetHdr(VRT_CTX, VCL_HEADER hs, const struct strands *value)
{
	struct http *hp;
	char name[256], prefix[260];
	const char *line;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	hp = vrt_http(ctx, hs->where);
	if (hp == NULL || vrt_hdr_name(hs, name, sizeof name)) {
		VRT_fail(ctx, "header %s not available here", hs->what + 1);
		return;
	}
	HTTP_Unset(hp, name);
	if (value == NULL)
		return;
	(void)snprintf(prefix, sizeof prefix, "%s: ", name);
	line = VRT_StrandsWS(hp->ws, prefix, value);
	if (line == NULL) {
		WS_MarkOverflow(hp->ws);
		/* The header as VCL names it, colon included, as in Varnish. */
		VSLb(ctx->vsl, SLT_LostHeader, "%s", hs->what + 1);
		return;
	}
	/*
	 * A CR or LF from VCL would add lines to the message sent on
	 * (header injection); Varnish's check and wording.
	 */
	if (PARAM_HasFeature(PARAM_FEATURE_VALIDATE_HEADERS) &&
	    !H1_IsFieldValue(line)) {
		VRT_fail(ctx, "Bad header %s", line);
		return;
	}
	(void)HTTP_SetHeader(hp, line);
}

/* Fields ------------------------------------------------------------------*/

static const char *
vrt_slot(const struct http *hp, unsigned slot)
{

	if (hp == NULL || hp->hd[slot].b == NULL)
		return (NULL);
	return (hp->hd[slot].b);
}

VCL_STRING
VRT_r_req_method(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_method, VRTV_READ))
		return (NULL);
	return (vrt_slot(ctx->http_req, HTTP_HDR_METHOD));
}

VCL_STRING
VRT_r_req_url(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_url, VRTV_READ))
		return (NULL);
	return (vrt_slot(ctx->http_req, HTTP_HDR_URL));
}

VCL_STRING
VRT_r_req_proto(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_proto, VRTV_READ))
		return (NULL);
	return (vrt_slot(ctx->http_req, HTTP_HDR_PROTO));
}

VCL_STRING
VRT_r_req_xid(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_xid, VRTV_READ))
		return (NULL);
	if (ctx->req == NULL)
		return (NULL);
	return (WS_Printf(ctx->ws, "%u", ctx->req->vxid));
}

VCL_STRING
VRT_r_bereq_method(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_method, VRTV_READ))
		return (NULL);
	return (vrt_slot(ctx->http_bereq, HTTP_HDR_METHOD));
}

VCL_STRING
VRT_r_bereq_url(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_url, VRTV_READ))
		return (NULL);
	return (vrt_slot(ctx->http_bereq, HTTP_HDR_URL));
}

VCL_STRING
VRT_r_bereq_xid(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_xid, VRTV_READ))
		return (NULL);
	if (ctx->bo == NULL)
		return (NULL);
	return (WS_Printf(ctx->ws, "%u", ctx->bo->vxid));
}

/* 100-999, or an internal status: 1000 up, modulo 1000 one of those. */
int
VRT_StatusOk(VCL_INT status)
{

	return (status >= 100 && status <= 65535 && status % 1000 >= 100);
}

static void
vrt_set_status(VRT_CTX, struct http *hp, VCL_INT status)
{

	if (hp == NULL) {
		VRT_fail(ctx, "no response to set the status of here");
		return;
	}
	if (!VRT_StatusOk(status)) {
		VRT_fail(ctx, "status %ld is out of range (100-999, or over "
		    "1000 to be sent modulo 1000)", status);
		return;
	}
	HTTP_SetStatus(hp, (uint16_t)status, NULL);
}

static void
vrt_set_reason(VRT_CTX, struct http *hp, const struct strands *s)
{
	const char *r;

	if (hp == NULL) {
		VRT_fail(ctx, "no response to set the reason of here");
		return;
	}
	r = VRT_StrandsWS(hp->ws, NULL, s);
	if (r == NULL) {
		VRT_fail(ctx, "workspace overflow setting the reason");
		return;
	}
	HTTP_SetSlot(hp, HTTP_HDR_REASON, r);
}

VCL_INT
VRT_r_resp_status(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_resp_status, VRTV_READ))
		return (0);
	return (ctx->http_resp == NULL ? 0 : ctx->http_resp->status);
}

void
VRT_l_resp_status(VRT_CTX, VCL_INT status)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_resp_status, VRTV_SET))
		return;
	vrt_set_status(ctx, ctx->http_resp, status);
}

VCL_STRING
VRT_r_resp_reason(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_resp_reason, VRTV_READ))
		return (NULL);
	return (vrt_slot(ctx->http_resp, HTTP_HDR_REASON));
}

void
VRT_l_resp_reason(VRT_CTX, const struct strands *s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_resp_reason, VRTV_SET))
		return;
	vrt_set_reason(ctx, ctx->http_resp, s);
}

VCL_INT
VRT_r_beresp_status(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_beresp_status, VRTV_READ))
		return (0);
	return (ctx->http_beresp == NULL ? 0 : ctx->http_beresp->status);
}

void
VRT_l_beresp_status(VRT_CTX, VCL_INT status)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_beresp_status, VRTV_SET))
		return;
	vrt_set_status(ctx, ctx->http_beresp, status);
}

VCL_STRING
VRT_r_beresp_reason(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_beresp_reason, VRTV_READ))
		return (NULL);
	return (vrt_slot(ctx->http_beresp, HTTP_HDR_REASON));
}

void
VRT_l_beresp_reason(VRT_CTX, const struct strands *s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_beresp_reason, VRTV_SET))
		return;
	vrt_set_reason(ctx, ctx->http_beresp, s);
}

VCL_BACKEND
VRT_r_req_backend_hint(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_backend_hint, VRTV_READ))
		return (NULL);
	return (ctx->req == NULL ? NULL : ctx->req->director_hint);
}

void
VRT_l_req_backend_hint(VRT_CTX, VCL_BACKEND be)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_backend_hint, VRTV_SET))
		return;
	if (ctx->req != NULL)
		ctx->req->director_hint = be;
}

VCL_BACKEND
VRT_r_bereq_backend(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_backend, VRTV_READ))
		return (NULL);
	return (ctx->bo == NULL ? NULL : ctx->bo->director);
}

void
VRT_l_bereq_backend(VRT_CTX, VCL_BACKEND be)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_backend, VRTV_SET))
		return;
	if (ctx->bo != NULL)
		ctx->bo->director = be;
}

/* Synthetic responses -----------------------------------------------------*/

void
VRT_synth(VRT_CTX, VCL_INT status, VCL_STRING reason)
{
	struct req *req;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	req = ctx->req;
	if (req == NULL) {
		VRT_fail(ctx, "synth() needs a client request");
		return;
	}
	if (!VRT_StatusOk(status)) {
		VRT_fail(ctx, "synth status %ld is out of range (100-999, or "
		    "over 1000 to be sent modulo 1000)", status);
		status = 503;
	}
	req->err_code = (uint16_t)status;
	req->err_reason = reason == NULL ? NULL :
	    WS_Copy(req->ws, reason, strlen(reason));
}

void
VRT_error(VRT_CTX, VCL_INT status, VCL_STRING reason)
{
	struct busyobj *bo;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	bo = ctx->bo;
	if (bo == NULL) {
		VRT_fail(ctx, "error() needs a backend fetch");
		return;
	}
	if (status < 100 || status > 999) {
		VRT_fail(ctx, "error status %ld is out of range", status);
		status = 503;
	}
	bo->err_code = (uint16_t)status;
	bo->err_reason = reason == NULL ? NULL :
	    WS_Copy(bo->ws, reason, strlen(reason));
}

void
VRT_synth_strands(VRT_CTX, const struct strands *s)
{
	char **bodyp;
	size_t *lenp, old;
	struct ws *ws;
	const char *add;
	char *n;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->method == VCL_MET_BACKEND_ERROR && ctx->bo != NULL) {
		bodyp = &ctx->bo->synth_body;
		lenp = &ctx->bo->synth_len;
		ws = ctx->bo->ws;
	} else if (ctx->method == VCL_MET_SYNTH && ctx->req != NULL) {
		bodyp = &ctx->req->synth_body;
		lenp = &ctx->req->synth_len;
		ws = ctx->req->ws;
	} else {
		VRT_fail(ctx, "synthetic() only in vcl_synth and "
		    "vcl_backend_error");
		return;
	}
	add = VRT_StrandsWS(ws, NULL, s);
	if (add == NULL) {
		VRT_fail(ctx, "workspace overflow in synthetic()");
		return;
	}
	old = *lenp;
	if (old == 0) {
		*bodyp = (char *)(uintptr_t)add;
		*lenp = strlen(add);
		return;
	}
	n = WS_Alloc(ws, old + strlen(add) + 1);
	if (n == NULL) {
		VRT_fail(ctx, "workspace overflow in synthetic()");
		return;
	}
	memcpy(n, *bodyp, old);
	memcpy(n + old, add, strlen(add) + 1);
	*bodyp = n;
	*lenp = old + strlen(add);
}

/* Backends ----------------------------------------------------------------*/

VCL_BACKEND
VRT_new_backend(VRT_CTX, const struct vrt_backend *vrt)
{
	struct backend *be;
	char err[256];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	be = BACKEND_New(vrt, ctx->vcl != NULL ? VCL_Name(ctx->vcl) : NULL,
	    err, sizeof err);
	if (be == NULL) {
		VRT_fail(ctx, "%s", err);
		return (NULL);
	}
	return (BACKEND_Director(be));
}

void
VRT_delete_backend(VRT_CTX, VCL_BACKEND *dp)
{
	struct backend *be;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (*dp == NULL)
		return;
	CHECK_OBJ(*dp, DIRECTOR_MAGIC);
	be = (*dp)->backend;
	*dp = NULL;
	BACKEND_Delete(&be);
}

/* The ABI, linked in ---------------------------------------------------*/

/*
 * veneerd is linked from a static archive: an object file nobody in the
 * daemon calls would be left out, and a VCL calling into it would then
 * fail to load.  Naming every function of vrt.h here pulls them all in
 * (and makes a missing one a link error, not a load error).
 */
typedef void vrt_any_f(void);
#define VRT_FN(f)	((vrt_any_f *)(f))

vrt_any_f * const VRT_exports[] = {
#define VCL_VAR(c, name, T, rd, wr, un, fl, doc)			\
	VRT_FN(VRT_r_##c), VRT_FN(VRT_l_##c), VRT_FN(VRT_u_##c),
#define VCL_HDR(where, name, rd, wr, un, doc)
#include "vcl_vars.h"
#define VMOD_A(T, n)
#define VMOD_D(T, n, def)
#define VMOD_O(T, n)
#define VMOD_E(n, values, def)
#define VMOD_P(kind)
#define VMOD_FUNC(mod, fn, R, args, doc)	VRT_FN(vmod_##mod##_##fn),
#define VMOD_OBJ(mod, cls, args, doc)					\
	VRT_FN(vmod_##mod##_##cls##__init), VRT_FN(vmod_##mod##_##cls##__fini),
#define VMOD_METHOD(mod, cls, m, R, args, where, doc)			\
	VRT_FN(vmod_##mod##_##cls##_##m),
#include "vmod_std.h"
	VRT_FN(VRT_priv_task), VRT_FN(VRT_priv_task_get),
	VRT_FN(VRT_priv_top), VRT_FN(VRT_priv_top_get), VRT_FN(VRT_priv_fini),
	VRT_FN(VRT_new_backend), VRT_FN(VRT_delete_backend),
	VRT_FN(VRT_DirectorResolve), VRT_FN(VRT_UpperLowerStrands),
	VRT_FN(VRT_GetHdr), VRT_FN(VRT_SetHdr), VRT_FN(VRT_UnsetHdr),
	VRT_FN(VRT_hashdata), VRT_FN(VRT_synth), VRT_FN(VRT_synth_strands),
	VRT_FN(VRT_log), VRT_FN(VRT_fail), VRT_FN(VRT_StrandsWS),
	VRT_FN(VRT_STRANDS_string), VRT_FN(VRT_INT_string),
	VRT_FN(VRT_REAL_string), VRT_FN(VRT_DURATION_string),
	VRT_FN(VRT_TIME_string), VRT_FN(VRT_BYTES_string),
	VRT_FN(VRT_BOOL_string), VRT_FN(VRT_BACKEND_string),
	VRT_FN(VRT_IP_string), VRT_FN(VRT_BLOB_string), VRT_FN(VRT_strcmp),
	VRT_FN(VRT_re_init), VRT_FN(VRT_re_fini), VRT_FN(VRT_re_match),
	VRT_FN(VRT_regsub), VRT_FN(VRT_acl_init), VRT_FN(VRT_acl_fini),
	VRT_FN(VRT_acl_match), VRT_FN(VRT_hit_for_pass),
	VRT_FN(VRT_ban_string), VRT_FN(VRT_storage_free_space),
	VRT_FN(VRT_storage_used_space), VRT_FN(VRT_storage_happy),
	VRT_FN(VRT_lit_index), VRT_FN(VRT_prof_now), VRT_FN(VRT_prof_cond),
	VRT_FN(VRT_prof_call),
};

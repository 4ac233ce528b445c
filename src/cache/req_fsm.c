/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * req_fsm.c -- the client request state machine: recv, pass, pipe, hash,
 * miss, fetch, deliver, synth, transmit.  Each step calls its VCL method
 * and obeys the action it returns; restart goes back to recv, bounded by
 * max_restarts.  One function per step, listed in req_steps.h; each
 * returns the next step, and REQ_Process dispatches through the table
 * made from that list.  Runs on the session's worker; no locks.
 *
 * The cache steps: lookup (hit, grace, miss, hit-for-miss/pass, or
 * waiting for another request's fetch of the same object), hit and
 * miss; delivery reads the object, streaming what is still being
 * fetched.  The request holds references to what it delivers.
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/fmt.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/child.h"
#include "cache/esi.h"
#include "cache/fetch.h"
#include "cache/gzip.h"
#include "cache/hash.h"
#include "cache/http.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/rfc.h"
#include "cache/storage.h"
#include "cache/vary.h"
#include "cache/session.h"
#include "cache/vcl.h"
#include "cache/vrt_priv.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

static void
req_ctx(struct req *req, struct vrt_ctx *ctx)
{

	INIT_OBJ(ctx, VRT_CTX_MAGIC);
	ctx->vsl = req->vsl;
	ctx->vcl = req->vcl;
	ctx->ws = req->ws;
	ctx->sp = req->sp;
	ctx->req = req;
	ctx->privs = req->privs_task;
	ctx->http_req = req->http;
	ctx->http_req_top = req->top->http;
	ctx->http_resp = req->resp;
	ctx->now = req->t_prev;	/* as varnishd: the last timestamp */
}

/* A view of the delivered object's headers, made once per object. */
static struct http *
req_obj_http(struct req *req)
{

	if (req->obj_http == NULL && req->objcore != NULL &&
	    req->objcore->obj != NULL)
		req->obj_http = OBJ_Http(req->ws, req->objcore->obj);
	return (req->obj_http);
}

static enum vcl_ret
req_method(struct req *req, enum vcl_method m)
{
	struct vrt_ctx ctx;

	req_ctx(req, &ctx);
	if (m == VCL_MET_HIT || m == VCL_MET_DELIVER)
		ctx.http_obj = req_obj_http(req);
	return (VCL_Method(req->vcl, m, &ctx));
}

/* Answer with vcl_synth: the next step, with the status it gets. */
static enum req_step
req_synth(struct req *req, unsigned status, const char *reason)
{

	req->err_code = (uint16_t)status;
	req->err_reason = reason;
	return (R_STP_SYNTH);
}

/*
 * A workspace overflow: counted, logged, answered with a bare 500 that
 * needs no workspace, and the connection closed.  VCL is not called
 * again: it would only overflow again.
 */
static int
req_ws_check(struct req *req)
{

	if (!WS_Overflowed(req->ws))
		return (0);
	VSC_Count(req->wrk->stats, ws_client_overflow, 1);
	VSLb(req->vsl, SLT_Error, "workspace_client overflow (%ju bytes); "
	    "raise workspace_client", (uintmax_t)cache_param->workspace_client);
	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	H1_ErrorClose(req, 500, SC_OVERLOAD);
	return (1);
}

/*
 * vcl_recv failed.  As varnishd, the request goes back to what the
 * client sent -- its headers, the workspace VCL used (an overflow is
 * counted and logged, then gone), the modules' task states -- and
 * vcl_synth answers 503 "VCL failed", whatever VCL did before failing.
 * Only a first pass has the request as sent (req_keep_http0); else an
 * overflow gets req_ws_check's bare 500.
 */
static enum req_step
req_vcl_failed(struct req *req)
{
	struct vrt_ctx ctx;

	req->doclose = SC_VCL_FAILURE;
	if (req->http0 == NULL || req->restarts > 0 || req->top != req) {
		if (req_ws_check(req))
			return (R_STP_DONE);
		return (req_synth(req, 503, "VCL failed"));
	}
	if (WS_Overflowed(req->ws)) {
		VSC_Count(req->wrk->stats, ws_client_overflow, 1);
		VSLb(req->vsl, SLT_Error, "workspace_client overflow (%ju "
		    "bytes); raise workspace_client; the request is rolled "
		    "back", (uintmax_t)cache_param->workspace_client);
	}
	if (PRIV_Busy(req->privs_task) || PRIV_Busy(req->privs_top)) {
		req_ctx(req, &ctx);
		PRIV_Fini(&ctx, req->privs_task);
		PRIV_Fini(&ctx, req->privs_top);
	}
	ASSERT_ZERO(HTTP_Clone(req->http, req->http0));
	WS_Reset(req->ws, req->ws_vcl);
	PRIV_Init(req->privs_task, req->ws);
	PRIV_Init(req->privs_top, req->ws);
	req->client_identity = NULL;
	return (req_synth(req, 503, "VCL failed"));
}

/* Let go of the busy objcore we did not fetch into: waiters move on. */
static void
req_drop_busy(struct req *req)
{
	struct objcore *oc = req->busy;

	if (oc == NULL)
		return;
	req->busy = NULL;
	if (oc->objhead != NULL)
		HSH_Fail(req->wrk, oc);
	BOC_SetState(oc->boc, BOS_FAILED);
	HSH_DetachBoc(oc);
	(void)OBJ_Deref(&oc);
}

static void
req_release_obj(struct req *req)
{

	if (req->stale != NULL)
		(void)OBJ_Deref(&req->stale);
	if (req->boc != NULL)
		BOC_Deref(&req->boc);
	if (req->objcore != NULL)
		(void)OBJ_Deref(&req->objcore);
	req->obj_http = NULL;
	req_drop_busy(req);
}

/*
 * A restart is a new transaction in the log, as in varnishd: this one
 * ends with a Restart timestamp and a Link to the next, which begins
 * with "req OLD restart".  What VCL set on the request (req.ttl, ...)
 * carries over: it is the same request.
 */
static void
req_new_vxid(struct req *req)
{
	uint32_t old = req->vxid;

	VSLb_ts(req->vsl, "Restart", req->t_first, &req->t_prev, TIM_real());
	req->vxid = WRK_NewVxid(req->wrk);
	if (req->vrt_vxid == old)
		req->vrt_vxid = req->vxid;
	VSLb(req->vsl, SLT_Link, "req %u restart", req->vxid);
	VSLb(req->vsl, SLT_End, "%s", "");
	VSL_Flush(req->vsl);
	VSL_SetId(req->vsl, req->vxid | VSL_CLIENTMARKER);
	VSLb(req->vsl, SLT_Begin, "req %u restart", old);
	VSLb_ts(req->vsl, "Start", req->t_first, &req->t_prev, req->t_prev);
}

/* return (restart): recv again, max_restarts times at most, then 503. */
static enum req_step
req_restart(struct req *req)
{

	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	req_release_obj(req);
	/* Counted first: vcl_synth sees max_restarts + 1, as in varnishd. */
	if (++req->restarts > cache_param->max_restarts) {
		VSLb(req->vsl, SLT_VCL_Error, "Too many restarts");
		return (req_synth(req, 503, NULL));
	}
	req_new_vxid(req);
	REQ_Reset(req, REQ_RESET_RESTART);
	return (R_STP_RECV);
}

/*
 * X-Forwarded-For: the client address appended to what came in, all
 * instances joined into one list (RFC 9110 5.3).
 */
static void
req_xff(struct req *req)
{
	struct http *hp = req->http;
	struct txt v;
	size_t avail, l = 0;
	unsigned u;
	char *b;
	int n;

	if (!HTTP_GetHdr(hp, "X-Forwarded-For", NULL)) {
		(void)HTTP_PrintfHeader(hp, "X-Forwarded-For: %s",
		    req->sp->client_ip);
		return;
	}
	avail = WS_ReserveAll(req->ws);
	b = WS_Reservation(req->ws);
	n = FMT_Snprintf(b, avail, "X-Forwarded-For: ");
	l = n > 0 ? (size_t)n : avail;
	for (u = HTTP_FindHdr(hp, "X-Forwarded-For", 0); u != 0 && l < avail;
	    u = HTTP_FindHdr(hp, "X-Forwarded-For", u + 1)) {
		v = HTTP_HdrValue(hp, u);
		n = FMT_Snprintf(b + l, avail - l, "%.*s, ", (int)TXT_LEN(v), v.b);
		l += n > 0 ? (size_t)n : avail;
	}
	if (l < avail) {
		n = FMT_Snprintf(b + l, avail - l, "%s", req->sp->client_ip);
		l += n > 0 ? (size_t)n : avail;
	}
	if (l >= avail) {
		WS_Release(req->ws, 0);
		WS_MarkOverflow(req->ws);
		return;
	}
	WS_Release(req->ws, l + 1);
	HTTP_Unset(hp, "X-Forwarded-For");
	(void)HTTP_SetHeader(hp, b);
}

/* vcl_hash: what it feeds hash_data() is digested into the key. */
static int
req_hash(struct req *req)
{
	enum vcl_ret ret;

	SHA256_Init(req->sha);
	ret = req_method(req, VCL_MET_HASH);
	SHA256_Final(req->sha, req->digest);
	return (ret == VCL_RET_LOOKUP ? 0 : -1);
}

/*
 * The request as vcl_recv first sees it, for return (vcl(...)) and the
 * ESI includes (which, without it, start from the request as VCL left
 * it).  Only return (vcl(...)) needs it badly enough to fail for it.
 */
static void
req_keep_http0(struct req *req)
{
	uintptr_t snap = WS_Snapshot(req->ws);
	int full = WS_Overflowed(req->ws);

	req->http0 = HTTP_New(req->ws, req->http->nhd, req->vsl,
	    SLT_ReqMethod);
	if (req->http0 == NULL || HTTP_Clone(req->http0, req->http) != 0) {
		req->http0 = NULL;
		if (VCL_HasLabels(req->vcl)) {
			/* Overflow: req_ws_check answers it after vcl_recv. */
			WS_MarkOverflow(req->ws);
		} else if (!full) {
			WS_Reset(req->ws, snap);
		}
		return;
	}
	req->ws_vcl = WS_Snapshot(req->ws);
}

/*
 * return (vcl(label)) from the VCL the request started in, before any
 * restart: vcl_recv runs again in the VCL the label points at, on the
 * request as it came (what the first vcl_recv did is undone, its
 * workspace too).  As in Varnish, from any other VCL or after a
 * restart it is an error, answered with a 503.
 */
static enum req_step
req_vcl_switch(struct req *req)
{
	struct vcl *label = req->vcl_label;

	req->vcl_label = NULL;
	if (label == NULL || req->vcl0 != NULL || req->restarts > 0 ||
	    req->http0 == NULL) {
		VSLb(req->vsl, SLT_VCL_Error, "Illegal return(vcl): %s",
		    req->restarts > 0 ? "Not after restarts" :
		    "Only from active VCL");
		return (req_synth(req, 503, NULL));
	}
	req->vcl0 = req->vcl;
	req->vcl = VCL_LabelRef(label);
	VSLb(req->vsl, SLT_VCL_use, "%s via %s", VCL_Name(req->vcl),
	    VCL_Name(label));
	ASSERT_ZERO(HTTP_Clone(req->http, req->http0));
	WS_Reset(req->ws, req->ws_vcl);
	REQ_Reset(req, REQ_RESET_RESTART);
	req->hash_always_miss = 0;
	req->hash_ignore_busy = 0;
	req->hash_ignore_vary = 0;
	req->client_identity = NULL;
	req->err_code = 0;
	req->err_reason = NULL;
	req->vrt_vxid = 0;		/* what the first VCL set goes */
	return (R_STP_RECV);
}

/*
 * http_gzip_support: what is looked up asks for "gzip" or nothing, so
 * that variants differ only there, whatever the clients wrote; a pass
 * or pipe keeps the client's Accept-Encoding (as in Varnish).
 */
static void
req_gzip_normalize(struct req *req, enum vcl_ret ret)
{

	if (!cache_param->http_gzip_support || ret == VCL_RET_PASS ||
	    ret == VCL_RET_PIPE)
		return;
	if (RFC_AcceptsGzip(req->http)) {
		if (HTTP_HdrIsOnly(req->http, "Accept-Encoding", "gzip") &&
		    HTTP_CountHdr(req->http, "Accept-Encoding") == 1)
			return;
		HTTP_Unset(req->http, "Accept-Encoding");
		(void)HTTP_SetHeader(req->http, "Accept-Encoding: gzip");
	} else
		HTTP_Unset(req->http, "Accept-Encoding");
}

static enum req_step
req_step_recv(struct worker *wrk, struct req *req)
{
	enum vcl_ret ret;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(req->http, HTTP_MAGIC);
	/* Fresh, or restarted: nothing held from an earlier round. */
	assert(req->objcore == NULL && req->boc == NULL);
	assert(req->busy == NULL && req->stale == NULL && req->bo == NULL);
	/*
	 * The request as received is kept for return (vcl(...)) and for
	 * ESI includes, which start from it (an include's request was made
	 * from its top's: no X-Forwarded-For again).
	 */
	if (req->restarts == 0 && req->vcl0 == NULL && req->esi_level == 0) {
		req_xff(req);
		req_keep_http0(req);
	}
	req->director_hint = VCL_DefaultDirector(req->vcl);
	ret = req_method(req, VCL_MET_RECV);
	if (ret == VCL_RET_FAIL)
		return (req_vcl_failed(req));
	if (req_ws_check(req))
		return (R_STP_DONE);
	if (ret == VCL_RET_VCL)
		return (req_vcl_switch(req));
	req_gzip_normalize(req, ret);
	/* As in Varnish, vcl_hash runs for everything that is looked up,
	 * passed or purged. */
	if ((ret == VCL_RET_PASS || ret == VCL_RET_HASH ||
	    ret == VCL_RET_PURGE) && req_hash(req) != 0)
		return (req_vcl_failed(req));
	switch (ret) {
	case VCL_RET_PASS:
		return (R_STP_PASS);
	case VCL_RET_PIPE:
		return (R_STP_PIPE);
	case VCL_RET_HASH:
		return (R_STP_LOOKUP);
	case VCL_RET_SYNTH:
		return (R_STP_SYNTH);
	case VCL_RET_RESTART:
		return (req_restart(req));
	case VCL_RET_PURGE:
		return (R_STP_PURGE);
	default:
		req->doclose = SC_VCL_FAILURE;
		return (req_synth(req, 503, "VCL failed"));
	}
}

/* vcl_pipe and the pipe itself (pipe.c); then the request is done. */
static enum req_step
req_step_pipe(struct worker *wrk, struct req *req)
{

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	assert(req->objcore == NULL && req->busy == NULL && req->bo == NULL);
	return (FETCH_Pipe(wrk, req));
}

static enum req_step
req_step_pass(struct worker *wrk, struct req *req)
{

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	/* From recv, hit, miss or a hit-for-pass: no object, no fetch. */
	assert(req->objcore == NULL && req->boc == NULL);
	assert(req->busy == NULL && req->bo == NULL);
	VSC_Count(wrk->stats, s_pass, 1);
	req->is_pass = 1;
	switch (req_method(req, VCL_MET_PASS)) {
	case VCL_RET_FETCH:
		return (R_STP_FETCH);
	case VCL_RET_SYNTH:
		return (R_STP_SYNTH);
	case VCL_RET_RESTART:
		return (req_restart(req));
	default:
		return (req_vcl_failed(req));
	}
}

/* A busy objcore of our own that no one else will find. */
static struct objcore *
req_private_busy(void)
{
	struct objcore *oc;

	oc = OBJ_NewCore();
	if (oc == NULL)
		return (NULL);
	oc->flags = OC_F_PRIVATE | OC_F_BUSY;
	oc->boc = BOC_New(oc);
	if (oc->boc == NULL)
		(void)OBJ_Deref(&oc);
	return (oc);
}

static void
req_log_hit(struct req *req, enum VSL_tag_e tag, const struct objcore *oc)
{
	vtim_real now = TIM_real();
	struct boc *boc = req->boc;
	char buf[32];
	uint64_t got;
	size_t l = 0;

	/*
	 * A hit on an object still being fetched also says how much of
	 * the body is in, and its Content-Length if it has one, as
	 * varnishd's Hit record does.
	 */
	if (tag == SLT_Hit && boc != NULL && oc->obj != NULL) {
		LOCK_Lock(&boc->mtx);
		got = boc->state < BOS_FINISHED ? boc->len : UINT64_MAX;
		LOCK_Unlock(&boc->mtx);
		if (got != UINT64_MAX) {
			/* The length the backend announced, if it did. */
			if (oc->obj->len_hint != UINT64_MAX)
				l = (size_t)FMT_Snprintf(buf, sizeof buf,
				    " %ju", (uintmax_t)oc->obj->len_hint);
			VSLb(req->vsl, tag, "%u %.6f %.6f %.6f %ju%.*s",
			    oc->xid, oc->t_origin + oc->ttl - now, oc->grace,
			    oc->keep, (uintmax_t)got, (int)l, buf);
			return;
		}
	}
	VSLb(req->vsl, tag, "%u %.6f %.6f %.6f", oc->xid,
	    oc->t_origin + oc->ttl - now, oc->grace, oc->keep);
}

/* The fetch failed; req->objcore is the stale copy it left us. */
static void
req_stale_error(struct worker *wrk, struct req *req, const struct boc *boc)
{

	VSC_Count(wrk->stats, cache_stale_if_error, 1);
	req->is_hit = 1;
	req->is_stale_error = 1;
	req->fwd_status = boc->fwd_status;
	req_log_hit(req, SLT_Hit, req->objcore);
}

/*
 * Another request is fetching what we want: wait for its headers
 * (waitinglist_timeout at most).  Returns the next step: HIT when its
 * object is ours to deliver, LOOKUP to look again (it turned out to be
 * a marker or another variant), MISS to fetch alone.
 */
static enum req_step
req_wait_busy(struct worker *wrk, struct req *req, struct objcore *oc,
    struct boc *boc)
{
	enum boc_state st;
	vtim_mono deadline = 0;
	unsigned flags;

	VSC_Count(wrk->stats, busy_sleep, 1);
	VSC_Add(waitinglist_queued, 1);
	if (cache_param->waitinglist_timeout > 0)
		deadline = TIM_mono() + cache_param->waitinglist_timeout;
	st = BOC_Wait(boc, BOS_STREAM, deadline);
	HSH_Unwait(boc);
	VSC_Sub(waitinglist_queued, 1);
	if (st < BOS_STREAM) {
		VSC_Count(wrk->stats, waitinglist_timeout, 1);
		VSLb(req->vsl, SLT_Debug, "waited waitinglist_timeout for "
		    "the fetch of x=%u; fetching alone", oc->xid);
		BOC_Deref(&boc);
		(void)OBJ_Deref(&oc);
		req->busy = req_private_busy();
		return (R_STP_MISS);
	}
	VSC_Count(wrk->stats, busy_wakeup, 1);
	if (boc->stale_used) {
		(void)OBJ_Deref(&oc);
		req->objcore = BOC_Target(boc);
		req_stale_error(wrk, req, boc);
		BOC_Deref(&boc);
		return (R_STP_HIT);
	}
	flags = oc->flags;
	if (st == BOS_FAILED || (flags & OC_F_FAILED)) {
		/* Everybody fetches now, in parallel rather than in turn. */
		BOC_Deref(&boc);
		(void)OBJ_Deref(&oc);
		req->busy = req_private_busy();
		return (R_STP_MISS);
	}
	if ((flags & (OC_F_HFM | OC_F_HFP)) || oc->obj == NULL ||
	    (OBJ_Vary(oc->obj) != NULL && !VRY_Match(req->http,
	    OBJ_Vary(oc->obj), oc->obj->vary_len))) {
		BOC_Deref(&boc);
		(void)OBJ_Deref(&oc);
		return (R_STP_LOOKUP);
	}
	req->objcore = oc;
	req->boc = boc;
	req->is_collapsed = 1;
	return (R_STP_HIT);
}

static enum req_step
req_step_lookup(struct worker *wrk, struct req *req)
{
	struct objcore *oc, *busy;
	struct boc *boc;
	enum hsh_lookup lr;
	enum req_step next;
	unsigned flags;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	assert(req->objcore == NULL && req->boc == NULL && req->busy == NULL);
	assert(req->stale == NULL && req->bo == NULL);
	flags = 0;
	if (req->hash_always_miss || req->force_miss)
		flags |= HSH_L_ALWAYS_MISS;
	if (req->hash_ignore_busy)
		flags |= HSH_L_IGNORE_BUSY;
	if (req->hash_ignore_vary)
		flags |= HSH_L_IGNORE_VARY;
	lr = HSH_LookupCapped(wrk, req->digest, req->http, req->ws,
	    flags, VRT_req_ttl_cap(req),
	    VRT_req_grace_cap(req), req->vsl, &oc, &boc, &busy);
	switch (lr) {
	case HSH_HIT:
	case HSH_GRACE:
		VSC_Count(wrk->stats, cache_hit, 1);
		req->objcore = oc;
		req->boc = boc;
		req->is_hit = 1;
		(void)__atomic_add_fetch(&oc->hits, 1, __ATOMIC_RELAXED);
		req_log_hit(req, SLT_Hit, oc);
		LRU_Touch(wrk, oc, TIM_real());
		if (lr == HSH_GRACE) {
			VSC_Count(wrk->stats, cache_hit_grace, 1);
			req->is_grace = 1;
			if (busy != NULL) {
				/* The refresh may revalidate what we serve. */
				OBJ_Ref(oc);
				req->stale = oc;
				(void)FETCH_Miss(wrk, req, &busy, &req->stale,
				    1);
			}
		}
		return (R_STP_HIT);
	case HSH_HITPASS:
		VSC_Count(wrk->stats, cache_hitpass, 1);
		req->is_hitpass = 1;
		return (R_STP_PASS);
	case HSH_BUSY:
		if (++req->waits > 10) {
			/* Variants keep being fetched: stop queueing. */
			HSH_Unwait(boc);
			BOC_Deref(&boc);
			(void)OBJ_Deref(&oc);
			req->busy = req_private_busy();
			return (R_STP_MISS);
		}
		next = req_wait_busy(wrk, req, oc, boc);
		if (next == R_STP_HIT) {
			VSC_Count(wrk->stats, cache_hit, 1);
			req_log_hit(req, SLT_Hit, req->objcore);
		}
		return (next);
	case HSH_PRIVATE:
		VSC_Count(wrk->stats, waitinglist_overflow, 1);
		req->busy = req_private_busy();
		break;
	case HSH_HITMISS:
		VSC_Count(wrk->stats, cache_hitmiss, 1);
		req->is_hitmiss = 1;
		req->busy = busy;
		break;
	case HSH_MISS:
		req->busy = busy;
		req->stale = oc;	/* to revalidate, or NULL */
		break;
	default:
		WRONG("lookup result");
	}
	return (R_STP_MISS);
}

static enum req_step
req_step_hit(struct worker *wrk, struct req *req)
{
	enum req_step next;
	int failed = 0;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	/* A hit, a collapsed one, or a stale copy the fetch left us. */
	CHECK_OBJ_NOTNULL(req->objcore, OBJCORE_MAGIC);
	CHECK_OBJ_NOTNULL(req->objcore->obj, OBJECT_MAGIC);
	assert(!(req->objcore->flags & (OC_F_HFP | OC_F_HFM)));
	assert(req->busy == NULL && req->bo == NULL);
	switch (req_method(req, VCL_MET_HIT)) {
	case VCL_RET_DELIVER:
		return (R_STP_DELIVER);
	case VCL_RET_MISS:
		/*
		 * VCL 4.0's return (fetch), 5.x's return (miss): ignore the
		 * hit, look up again as with req.hash_always_miss (for this
		 * request only), and fetch and insert as on a miss.
		 */
		req->is_hit = req->is_grace = req->is_collapsed = 0;
		req->is_stale_error = 0;
		req->force_miss = 1;
		next = R_STP_LOOKUP;
		break;
	case VCL_RET_PASS:
		next = R_STP_PASS;
		break;
	case VCL_RET_SYNTH:
		next = R_STP_SYNTH;
		break;
	case VCL_RET_RESTART:
		return (req_restart(req));
	default:
		failed = 1;
		next = R_STP_SYNTH;
		break;
	}
	req_release_obj(req);
	return (failed ? req_vcl_failed(req) : next);
}

/* Fetch into our busy objcore; deliver as soon as the headers are in. */
static enum req_step
req_fetch_miss(struct worker *wrk, struct req *req)
{
	enum boc_state st;
	struct boc *boc;

	if (req->busy == NULL) {
		VSLb(req->vsl, SLT_Error, "out of memory for a new object");
		return (req_synth(req, 503, NULL));
	}
	boc = req->busy->boc;
	CHECK_OBJ_NOTNULL(boc, BOC_MAGIC);
	BOC_Ref(boc);
	if (FETCH_Miss(wrk, req, &req->busy, &req->stale, 0) != 0) {
		BOC_Deref(&boc);
		return (req_synth(req, 503, NULL));
	}
	st = BOC_Wait(boc, BOS_STREAM, 0);
	req->objcore = BOC_Target(boc);
	/* Not streamed and failed on the way: nothing was sent yet. */
	if (req->objcore == NULL || (st == BOS_FAILED && boc->no_stream)) {
		if (req->objcore != NULL)
			(void)OBJ_Deref(&req->objcore);
		BOC_Deref(&boc);
		return (req_synth(req, 503, NULL));
	}
	VSLb_ts(req->vsl, "Fetch", req->t_first, &req->t_prev, TIM_real());
	if (boc->stale_used) {
		req_stale_error(wrk, req, boc);
		BOC_Deref(&boc);
		return (R_STP_DELIVER);
	}
	req->boc = boc;
	req->is_stored = !(req->objcore->flags & OC_F_PRIVATE);
	req->is_reval = boc->revalidated;
	return (R_STP_DELIVER);
}

static enum req_step
req_step_miss(struct worker *wrk, struct req *req)
{
	enum req_step next;
	int failed = 0;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	/* busy: ours to fetch into (NULL: no memory for it). */
	assert(req->objcore == NULL && req->boc == NULL && req->bo == NULL);
	CHECK_OBJ_ORNULL(req->busy, OBJCORE_MAGIC);
	assert(req->busy == NULL || (req->busy->flags & OC_F_BUSY));
	VSC_Count(wrk->stats, cache_miss, 1);
	switch (req_method(req, VCL_MET_MISS)) {
	case VCL_RET_FETCH:
		return (req_fetch_miss(wrk, req));
	case VCL_RET_PASS:
		next = R_STP_PASS;
		break;
	case VCL_RET_SYNTH:
		next = R_STP_SYNTH;
		break;
	case VCL_RET_RESTART:
		return (req_restart(req));
	default:
		failed = 1;
		next = R_STP_SYNTH;
		break;
	}
	req_drop_busy(req);
	return (failed ? req_vcl_failed(req) : next);
}

static enum req_step
req_step_purge(struct worker *wrk, struct req *req)
{
	unsigned n;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	assert(req->objcore == NULL && req->busy == NULL && req->bo == NULL);
	n = HSH_Purge(wrk, req->digest);
	VSC_Count(wrk->stats, n_purges, 1);
	VSC_Count(wrk->stats, n_obj_purged, n);
	switch (req_method(req, VCL_MET_PURGE)) {
	case VCL_RET_SYNTH:
		return (R_STP_SYNTH);
	case VCL_RET_RESTART:
		return (req_restart(req));
	default:
		return (req_vcl_failed(req));
	}
}

/* Purge what vcl_hash makes of url (a path) for this request's host. */
static unsigned
req_invalidate_url(struct worker *wrk, struct req *req, const char *url)
{
	struct txt saved = req->http->hd[HTTP_HDR_URL];
	unsigned char digest[SHA256_LEN];
	unsigned n = 0;

	memcpy(digest, req->digest, sizeof digest);
	req->http->hd[HTTP_HDR_URL] = TXT_Str(url);
	if (req_hash(req) == 0)
		n = HSH_Purge(wrk, req->digest);
	req->http->hd[HTTP_HDR_URL] = saved;
	memcpy(req->digest, digest, sizeof digest);
	return (n);
}

/*
 * The path of a Location or Content-Location on the request's host
 * (relative, or absolute with the same authority), in ws; else NULL.
 */
static const char *
req_same_host_path(struct req *req, const char *hdr)
{
	struct txt v, host;
	const char *p, *path;
	size_t l;

	if (!HTTP_GetHdr(req->bo->beresp, hdr, &v) || TXT_LEN(v) == 0)
		return (NULL);
	if (*v.b == '/' && (TXT_LEN(v) < 2 || v.b[1] != '/'))
		return (WS_Copy(req->ws, v.b, TXT_LEN(v)));
	if (TXT_LEN(v) > 8 && !strncasecmp(v.b, "https://", 8))
		p = v.b + 8;
	else if (TXT_LEN(v) > 7 && !strncasecmp(v.b, "http://", 7))
		p = v.b + 7;
	else
		return (NULL);
	path = memchr(p, '/', (size_t)(v.e - p));
	if (path == NULL || !HTTP_GetHdr(req->http, "Host", &host))
		return (NULL);
	l = (size_t)(path - p);
	if (l != TXT_LEN(host) || strncasecmp(p, host.b, l))
		return (NULL);
	return (WS_Copy(req->ws, path, (size_t)(v.e - path)));
}

/*
 * RFC 9111 4.4: a successful unsafe request invalidates what is stored
 * for its URI, and for its Location and Content-Location on the same
 * host, so a client that just changed a resource does not read the old
 * copy from the cache.
 */
static void
req_invalidate(struct worker *wrk, struct req *req)
{
	static const char * const unsafe[] = {
		"POST", "PUT", "DELETE", "PATCH",
	};
	static const char * const hdrs[] = { "Location", "Content-Location" };
	const char *method = req->http->hd[HTTP_HDR_METHOD].b;
	const char *url;
	unsigned u, status = req->bo->beresp->status, n;

	if (!cache_param->invalidate_on_unsafe)
		return;
	if (req->bo->synth || status < 200 || status >= 400)
		return;
	for (u = 0; u < ARRAY_SIZE(unsafe); u++)
		if (!strcmp(method, unsafe[u]))
			break;
	if (u == ARRAY_SIZE(unsafe))
		return;
	n = req_invalidate_url(wrk, req, req->http->hd[HTTP_HDR_URL].b);
	for (u = 0; u < ARRAY_SIZE(hdrs); u++) {
		url = req_same_host_path(req, hdrs[u]);
		if (url != NULL)
			n += req_invalidate_url(wrk, req, url);
	}
	if (n > 0) {
		VSC_Count(wrk->stats, n_obj_invalidated, n);
		VSLb(req->vsl, SLT_Debug, "%s invalidated %u objects", method,
		    n);
	}
}

/*
 * A pass with beresp.do_esi: its body must be whole and parsed before
 * the first include, so it is stored in a private object, delivered as
 * a cached one is.
 */
static enum req_step
req_pass_esi(struct worker *wrk, struct req *req)
{

	req->objcore = FETCH_PassStore(wrk, req->bo);
	FETCH_Finish(&req->bo);
	if (req->objcore == NULL)
		return (req_synth(req, 503, NULL));
	return (R_STP_DELIVER);
}

static enum req_step req_fetched(struct worker *, struct req *,
    enum fetch_result);

static enum req_step
req_step_fetch(struct worker *wrk, struct req *req)
{
	enum fetch_result fr;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	assert(req->is_pass);
	assert(req->objcore == NULL && req->busy == NULL && req->bo == NULL);
	fr = FETCH_Pass(wrk, req);
	if (fr == FR_AWAIT)
		return (R_STP_AWAIT);
	return (req_fetched(wrk, req, fr));
}

/* A pass's fetch is over (up to the head): deliver, or answer why not. */
static enum req_step
req_fetched(struct worker *wrk, struct req *req, enum fetch_result fr)
{

	if (fr == FR_OK) {
		CHECK_OBJ_NOTNULL(req->bo, BUSYOBJ_MAGIC);
		CHECK_OBJ_NOTNULL(req->bo->beresp, HTTP_MAGIC);
		VSLb_ts(req->vsl, "Fetch", req->t_first, &req->t_prev,
		    TIM_real());
		req_invalidate(wrk, req);
		if (req->bo->do_esi && !req->bo->synth)
			return (req_pass_esi(wrk, req));
		return (R_STP_DELIVER);
	}
	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	if (fr == FR_REQBODY) {
		/* The client's body failed: 400/413, or it is gone. */
		if (req->err_code == 0) {
			if (req->doclose == SC_NULL)
				req->doclose = SC_RX_BODY;
			return (R_STP_DONE);
		}
		req->doclose = SC_RX_BODY;
		req->linger = 1;
		return (req_synth(req, req->err_code, NULL));
	}
	assert(fr == FR_ABANDON);
	return (req_synth(req, 503, NULL));
}

/* RFC 9211: what the cache did, for curl -i on a bad night. */
static void
req_cache_status(struct req *req)
{
	const struct objcore *oc = req->objcore;
	char buf[160];
	size_t l;

	if (!cache_param->cache_status)
		return;
	l = (size_t)FMT_Snprintf(buf, sizeof buf, "Cache-Status: Veneer");
	if (req->is_stale_error && oc != NULL) {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; hit; ttl=%.0f; fwd=stale",
		    oc->t_origin + oc->ttl - TIM_real());
		if (req->fwd_status != 0)
			l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
			    "; fwd-status=%u", req->fwd_status);
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; detail=stale-if-error");
	} else if (req->is_hit && oc != NULL) {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; hit; ttl=%.0f", oc->t_origin + oc->ttl - TIM_real());
		if (req->is_grace)
			l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
			    "; detail=grace");
	} else if (req->is_collapsed) {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; fwd=uri-miss; collapsed");
	} else if (req->is_hitpass) {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; fwd=bypass; detail=hit-for-pass");
	} else if (req->is_pass || req->bo != NULL) {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; fwd=bypass");
	} else if (oc != NULL && req->is_reval) {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; fwd=stale; fwd-status=304");
		if (req->is_stored)
			l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
			    "; stored");
	} else if (oc != NULL) {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; fwd=miss");
		if (req->is_stored)
			l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
			    "; stored");
		if (req->is_hitmiss)
			l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
			    "; detail=hit-for-miss");
	} else {
		l += (size_t)FMT_Snprintf(buf + l, sizeof buf - l,
		    "; detail=synth");
	}
	if (l < sizeof buf)
		(void)HTTP_PrintfHeader(req->resp, "%s", buf);
}

static void
req_common_resp(struct req *req)
{
	char date[TIM_FORMAT_SIZE];

	if (!HTTP_GetHdr(req->resp, "Date", NULL)) {
		TIM_format(TIM_real(), date);
		(void)HTTP_PrintfHeader(req->resp, "Date: %s", date);
	}
	if (req->objcore != NULL && req->is_hit)
		(void)HTTP_PrintfHeader(req->resp, "X-Varnish: %u %u",
		    req->vxid, req->objcore->xid);
	else
		(void)HTTP_PrintfHeader(req->resp, "X-Varnish: %u", req->vxid);
	(void)HTTP_SetHeader(req->resp, child_via);
	req_cache_status(req);
}

/* resp from a cached (or being cached) object. */
static void
req_resp_from_obj(struct req *req)
{
	struct objcore *oc = req->objcore;
	struct http *ohp;
	vtim_real age;

	CHECK_OBJ_NOTNULL(oc, OBJCORE_MAGIC);
	req->resp = HTTP_New(req->ws, HTTP_NHDR(cache_param->http_max_hdr),
	    req->vsl, SLT_RespMethod);
	ohp = req_obj_http(req);
	if (req->resp == NULL || ohp == NULL) {
		req->resp = NULL;
		return;
	}
	req->resp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	req->resp->protover = 11;
	HTTP_CopySlot(req->resp, ohp, HTTP_HDR_STATUS);
	HTTP_CopySlot(req->resp, ohp, HTTP_HDR_REASON);
	req->resp->status = ohp->status;
	(void)HTTP_CopyHeaders(req->resp, ohp);
	HTTP_Log(req->resp);
	age = TIM_real() - oc->t_origin;
	(void)HTTP_PrintfHeader(req->resp, "Age: %.0f",
	    age < 0 ? 0. : floor(age));
	/* An ESI object has no byte ranges: its includes vary. */
	if (!(oc->flags & OC_F_PRIVATE) && ohp->status == 200 &&
	    OBJ_Esi(oc->obj) == NULL && cache_param->http_range_support)
		(void)HTTP_SetHeader(req->resp, "Accept-Ranges: bytes");
	req_common_resp(req);
}

/* resp from beresp: status, headers but hop-by-hop and framing ones. */
static void
req_resp_from_beresp(struct req *req)
{
	struct http *beresp = req->bo->beresp;
	struct txt cl;
	unsigned status = beresp->status;

	/* Room for our own headers beyond what the backend sent. */
	req->resp = HTTP_New(req->ws, HTTP_NHDR(cache_param->http_max_hdr),
	    req->vsl, SLT_RespMethod);
	if (req->resp == NULL)
		return;
	HTTP_FilterHopByHop(beresp);
	HTTP_Filter(beresp, "Content-Length");
	req->resp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	req->resp->protover = 11;
	HTTP_CopySlot(req->resp, beresp, HTTP_HDR_STATUS);
	HTTP_CopySlot(req->resp, beresp, HTTP_HDR_REASON);
	req->resp->status = (uint16_t)status;
	(void)HTTP_CopyHeaders(req->resp, beresp);
	HTTP_Log(req->resp);
	/* A HEAD or 304 answer keeps the length of what it describes. */
	if ((req->is_head || status == 304) && !req->bo->synth &&
	    HTTP_GetHdr(beresp, "Content-Length", &cl))
		(void)HTTP_PrintfHeader(req->resp, "Content-Length: %.*s",
		    (int)TXT_LEN(cl), cl.b);
	req_common_resp(req);
}

/*
 * A gzip object for a client that does not take gzip goes out
 * uncompressed (counted, a HEAD too, as in Varnish): not after
 * vcl_deliver, which still sees Content-Encoding: gzip.  Ranges are then
 * of the uncompressed bytes, known once the object is whole.
 */
static int
req_gunzip_wanted(const struct req *req)
{
	const struct objcore *oc = req->objcore;
	const struct busyobj *bo = req->bo;

	if (!cache_param->http_gzip_support || RFC_AcceptsGzip(req->http))
		return (0);
	if (oc != NULL)
		return (oc->obj != NULL && oc->obj->gzipped);
	/* A streamed pass (FETCH_PassBody). */
	return (bo != NULL && !bo->synth && bo->gzipped);
}

/*
 * The client's conditionals and Range on a shared object: 304 when its
 * validators match those of the response vcl_deliver made, 206 for a single satisfiable range (as soon as its
 * bytes arrive, when the object is still being fetched), 416 for an
 * unsatisfiable one.  Multiple ranges get the whole object.
 */
static void
req_conditionals_obj(struct req *req)
{
	struct objcore *oc = req->objcore;
	struct http *ohp;
	uint64_t len, lo, hi;

	if (oc == NULL || oc->obj == NULL || (oc->flags & OC_F_PRIVATE) ||
	    req->resp->status != 200)
		return;
	ohp = req_obj_http(req);
	if (ohp == NULL)
		return;
	/*
	 * The validators the client holds are the ones we send: after
	 * vcl_deliver, as varnishd compares them (a changed Last-Modified
	 * or ETag is what a revalidation will carry back).
	 */
	if (RFC_NotModified(req->http, req->resp)) {
		HTTP_SetStatus(req->resp, 304, NULL);
		return;
	}
	/* do_stream false: the body is whole before it is delivered. */
	len = req->boc == NULL || req->boc->no_stream ? oc->obj->len :
	    oc->obj->len_hint;
	if (req->gunzip)
		len = req->gunzip_len;
	if (req->gzip_out)
		len = UINT64_MAX;	/* not known before it is sent */
	if (req->is_head || len == UINT64_MAX || ESI_Active(req) ||
	    !cache_param->http_range_support)
		return;
	switch (RFC_Range(req->http, ohp, len, &lo, &hi)) {
	case RFC_RANGE_OK:
		HTTP_SetStatus(req->resp, 206, NULL);
		(void)HTTP_PrintfHeader(req->resp,
		    "Content-Range: bytes %ju-%ju/%ju", (uintmax_t)lo,
		    (uintmax_t)hi, (uintmax_t)len);
		req->range_lo = lo;
		req->range_hi = hi + 1;
		break;
	case RFC_RANGE_UNSATISFIABLE:
		HTTP_SetStatus(req->resp, 416, NULL);
		(void)HTTP_PrintfHeader(req->resp,
		    "Content-Range: bytes */%ju", (uintmax_t)len);
		req->range_lo = req->range_hi = 0;
		break;
	default:
		break;
	}
}

/*
 * An ESI object Varnish would have stored gzip'd (fetch.c, esi_gzip):
 * a top request from a gzip client gets it compressed as it is
 * assembled; anyone else gets it plain, without the Content-Encoding.
 */
static void
req_gzip_out(struct req *req)
{
	const struct objcore *oc = req->objcore;

	req->gzip_out = 0;
	if (oc == NULL || oc->obj == NULL || !oc->obj->esi_gzip)
		return;
	/* Without http_gzip_support it goes as it came: gzip'd. */
	if (req->esi_level == 0 && (!cache_param->http_gzip_support ||
	    RFC_AcceptsGzip(req->http))) {
		/* Compressed as it goes: a Range is not honoured. */
		req->gzip_out = 1;
		HTTP_Unset(req->resp, "Accept-Ranges");
		return;
	}
	HTTP_Unset(req->resp, "Content-Encoding");
	if (cache_param->http_gzip_support)
		VSC_Count(req->wrk->stats, n_gunzip, 1);	/* as Varnish */
}

static void
req_conditionals(struct req *req)
{

	req->gunzip = req_gunzip_wanted(req);
	req->gunzip_len = UINT64_MAX;
	req_gzip_out(req);
	/* Assembled from pieces: not the stored bytes (as in Varnish). */
	if (ESI_Active(req) && req->esi_level == 0)
		(void)RFC_WeakenEtag(req->resp);
	/*
	 * Whole, or will be before anything is sent (do_stream false): a
	 * hit just after the fetch ended (its boc not yet let go) too.
	 */
	if (req->gunzip && req->objcore != NULL && (req->boc == NULL ||
	    req->boc->no_stream || BOC_State(req->boc) == BOS_FINISHED))
		req->gunzip_len = GZIP_PlainLen(req->objcore);
	req_conditionals_obj(req);
	if (!req->gunzip)
		return;
	if (req->resp->status == 304) {
		req->gunzip = 0;
		return;
	}
	HTTP_Unset(req->resp, "Content-Encoding");
	HTTP_Unset(req->resp, "Content-Length");	/* a pass's HEAD */
	(void)RFC_WeakenEtag(req->resp);	/* not the bytes sent */
	/* Counted when done: a pass's do_gzip then simply is not. */
	if (req->bo == NULL || req->bo->gzip_mode != GZIP_M_GZIP)
		VSC_Count(req->wrk->stats, n_gunzip, 1);
}

static enum req_step
req_step_deliver(struct worker *wrk, struct req *req)
{
	enum req_step next;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	/* Exactly one source: a cached (or being cached) object, or a pass. */
	assert((req->objcore == NULL) != (req->bo == NULL));
	assert(req->busy == NULL);
	if (req->objcore != NULL) {
		CHECK_OBJ_NOTNULL(req->objcore, OBJCORE_MAGIC);
		CHECK_OBJ_ORNULL(req->boc, BOC_MAGIC);
		req_resp_from_obj(req);
	} else {
		CHECK_OBJ_NOTNULL(req->bo, BUSYOBJ_MAGIC);
		CHECK_OBJ_NOTNULL(req->bo->beresp, HTTP_MAGIC);
		req_resp_from_beresp(req);
	}
	if (req->resp == NULL)
		WS_MarkOverflow(req->ws);
	if (req_ws_check(req))
		return (R_STP_DONE);
	switch (req_method(req, VCL_MET_DELIVER)) {
	case VCL_RET_DELIVER:
		req_conditionals(req);
		return (req_ws_check(req) ? R_STP_DONE : R_STP_TRANSMIT);
	case VCL_RET_SYNTH:
		if (req->bo != NULL)
			FETCH_Finish(&req->bo);
		req_release_obj(req);
		return (R_STP_SYNTH);
	case VCL_RET_RESTART:
		/* varnishd logs the end of vcl_deliver's work here too. */
		VSLb_ts(req->vsl, "Process", req->t_first, &req->t_prev,
		    TIM_real());
		return (req_restart(req));
	default:
		if (req->bo != NULL)
			FETCH_Finish(&req->bo);
		req_release_obj(req);
		next = req_synth(req, 503, "VCL failed");
		break;
	}
	return (next);
}

/* When vcl_synth fails: status line and nothing else, then close. */
static void
req_minimal_resp(struct req *req, unsigned status)
{

	HTTP_Clear(req->resp);
	req->resp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	HTTP_SetStatus(req->resp, (uint16_t)status, NULL);
	req->synth_body = NULL;
	req->synth_len = 0;
	req->doclose = SC_VCL_FAILURE;
}

/*
 * After vcl_synth, for a request whose 100 Continue is still owed: close
 * if VCL kept the Connection: close we suggested, else read the body
 * (sending the 100) so that the connection can serve the next request.
 */
static void
req_synth_late100(struct req *req, unsigned late100)
{
	struct txt t;
	int r;

	if (!late100 || req->body_state != RB_UNREAD)
		return;
	if (HTTP_HdrHasToken(req->resp, "Connection", "close")) {
		if (req->doclose == SC_NULL)
			req->doclose = SC_RESP_CLOSE;
		return;
	}
	if (req->doclose != SC_NULL)
		return;		/* closing anyway: no 100, no reading */
	do
		r = H1_ReqBodyNext(req, &t);
	while (r > 0);
	if (r < 0 && req->doclose == SC_NULL)
		req->doclose = SC_RX_BODY;
}

static enum req_step
req_step_synth(struct worker *wrk, struct req *req)
{
	unsigned status, late100;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	VSC_Count(wrk->stats, s_synth, 1);
	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	req_release_obj(req);
	assert(req->objcore == NULL && req->boc == NULL && req->busy == NULL);
	status = req->err_code;
	if (!VRT_StatusOk(status))
		status = 503;
	req->resp = HTTP_New(req->ws, HTTP_NHDR(cache_param->http_max_hdr),
	    req->vsl, SLT_RespMethod);
	if (req->resp == NULL)
		WS_MarkOverflow(req->ws);
	if (req_ws_check(req))
		return (R_STP_DONE);
	req->resp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	req->resp->protover = 11;
	HTTP_SetStatus(req->resp, (uint16_t)status, req->err_reason);
	(void)HTTP_SetHeader(req->resp, "Server: Veneer");
	req_common_resp(req);
	/*
	 * The client waits for a 100 Continue it has not had: suggest
	 * closing, which neither sends it nor reads the body.  VCL may
	 * unset it; then the body is read (100 first) and the connection
	 * kept, as varnishd does.
	 */
	late100 = req->want100 && !req->sent100 &&
	    req->body_state == RB_UNREAD;
	if (late100)
		(void)HTTP_SetHeader(req->resp, "Connection: close");
	req->synth_body = NULL;
	req->synth_len = 0;
	switch (req_method(req, VCL_MET_SYNTH)) {
	case VCL_RET_DELIVER:
		req_synth_late100(req, late100);
		break;
	case VCL_RET_RESTART:
		/* Up to the limit, then once more to say so (503). */
		if (req->restarts <= cache_param->max_restarts)
			return (req_restart(req));
		/*
		 * Not back to vcl_synth: it could loop.  What it made is
		 * delivered, as varnishd does (a restart past the limit is
		 * a deliver).
		 */
		VSLb(req->vsl, SLT_VCL_Error, "Too many restarts");
		break;
	default:
		req_minimal_resp(req, 500);
		break;
	}
	return (req_ws_check(req) ? R_STP_DONE : R_STP_TRANSMIT);
}

static enum req_step
req_step_transmit(struct worker *wrk, struct req *req)
{

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(req->resp, HTTP_MAGIC);
	assert(req->busy == NULL);
	VSLb_ts(req->vsl, "Process", req->t_first, &req->t_prev, TIM_real());
	H1_Transmit(wrk, req);
	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	req_release_obj(req);
	return (R_STP_DONE);
}

/* The task ends: its modules' states, and a top request's PRIV_TOPs. */
static void
req_privs_end(struct req *req)
{
	struct vrt_ctx ctx;

	if (!PRIV_Busy(req->privs_task) &&
	    (req->top != req || !PRIV_Busy(req->privs_top)))
		return;
	req_ctx(req, &ctx);
	PRIV_Fini(&ctx, req->privs_task);
	if (req->top == req)
		PRIV_Fini(&ctx, req->privs_top);
}

static void
req_finish(struct worker *wrk, struct req *req)
{

	assert(req->bo == NULL);
	req_release_obj(req);
	assert(req->objcore == NULL && req->boc == NULL);
	assert(req->busy == NULL && req->stale == NULL);
	VSC_Count(wrk->stats, s_req_bodybytes, req->acct_req_body);
	/* A pipe was accounted by PipeAcct: no response of ours to log. */
	if (req->doclose != SC_TX_PIPE) {
		VSLb_ts(req->vsl, "Resp", req->t_first, &req->t_prev,
		    TIM_real());
		/* The task ends with the response, before its accounts. */
		req_privs_end(req);
		VSLb(req->vsl, SLT_ReqAcct, "%ju %ju %ju %ju %ju %ju",
		    (uintmax_t)req->acct_req_hdr,
		    (uintmax_t)req->acct_req_body,
		    (uintmax_t)(req->acct_req_hdr + req->acct_req_body),
		    (uintmax_t)req->acct_resp_hdr,
		    (uintmax_t)req->acct_resp_body,
		    (uintmax_t)(req->acct_resp_hdr + req->acct_resp_body));
	}
	req_privs_end(req);		/* a pipe's: after its PipeAcct */
	VSLb(req->vsl, SLT_End, "%s", "");
	VCL_Rel(&req->vcl);
	if (req->vcl0 != NULL)
		VCL_Rel(&req->vcl0);
}

/*
 * What holds between any two steps: every pointer the request holds is
 * NULL or what it claims to be, a boc only with the objcore it streams,
 * and the fetch of a pass (bo) never beside an object being delivered.
 */
static void
req_check(const struct worker *wrk, const struct req *req)
{

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	assert(req->wrk == wrk);
	CHECK_OBJ_NOTNULL(req->http, HTTP_MAGIC);
	assert(req->vcl != NULL);
	CHECK_OBJ_ORNULL(req->objcore, OBJCORE_MAGIC);
	CHECK_OBJ_ORNULL(req->boc, BOC_MAGIC);
	CHECK_OBJ_ORNULL(req->busy, OBJCORE_MAGIC);
	CHECK_OBJ_ORNULL(req->stale, OBJCORE_MAGIC);
	CHECK_OBJ_ORNULL(req->bo, BUSYOBJ_MAGIC);
	assert(req->boc == NULL || req->objcore != NULL);
	assert(req->bo == NULL || req->objcore == NULL);
}

/* The dispatch table, from req_steps.h like the enum. */
typedef enum req_step req_step_f(struct worker *, struct req *);

static req_step_f * const req_steps[] = {
#define REQ_STEP(l, U)	[R_STP_##U] = req_step_##l,
#include "cache/req_steps.h"
};

static const char * const req_step_names[] = {
#define REQ_STEP(l, U)	[R_STP_##U] = #l,
#include "cache/req_steps.h"
	[R_STP_DONE] = "done",
};

/* Every step but DONE has a function: the list makes both arrays. */
_Static_assert(sizeof req_steps / sizeof req_steps[0] == R_STP_DONE,
    "req_steps.h: a step without a function");

const char *
REQ_StepName(enum req_step step)
{

	if ((unsigned)step >= ARRAY_SIZE(req_step_names) ||
	    req_step_names[step] == NULL)
		return ("?");
	return (req_step_names[step]);
}

/* Run from step on: 0 when the request is done, 1 when it awaits. */
static int
req_run(struct worker *wrk, struct req *req, enum req_step step)
{

	for (; step != R_STP_DONE; step = req_steps[step](wrk, req)) {
		if (step == R_STP_AWAIT)
			return (1);
		assert((unsigned)step < ARRAY_SIZE(req_steps));
		req->step = step;	/* for panics */
		req_check(wrk, req);
	}
	req->step = R_STP_DONE;
	req_check(wrk, req);
	req_finish(wrk, req);
	return (0);
}

int
REQ_Resume(struct worker *wrk, struct req *req, unsigned timed_out)
{
	enum fetch_result fr;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	assert(req->step == R_STP_FETCH);
	req->wrk = wrk;
	fr = FETCH_PassResume(wrk, req, timed_out);
	if (fr == FR_AWAIT)
		return (1);
	return (req_run(wrk, req, req_fetched(wrk, req, fr)));
}

int
REQ_Process(struct worker *wrk, struct req *req)
{

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	/*
	 * The transport took the VCL and logged it before the request, as
	 * varnishd (http1_session.c); an ESI include comes with its top's
	 * (esi_deliver.c).
	 */
	assert(req->vcl != NULL);
	/* REQ_Reset made the rest of the request state ready. */
	assert(req->step == R_STP_RECV && req->restarts == 0);
	if (req->esi_level > 0)
		VSLb(req->vsl, SLT_VCL_use, "%s", VCL_Name(req->vcl));
	return (req_run(wrk, req, R_STP_RECV));
}

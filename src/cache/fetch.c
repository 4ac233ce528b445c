/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fetch.c -- the backend request state machine: build the backend
 * request, vcl_backend_fetch, send and receive (retrying once on a fresh
 * connection when a kept-alive one turns out closed), vcl_backend_response,
 * and on failure vcl_backend_error's synthetic response.  Owns struct
 * busyobj, which belongs to one thread at a time, so no locks of its own.
 *
 * Pass and pipe run on the client's worker (FETCH_Pass, FETCH_PipeBegin).
 * A fetch into the cache (FETCH_Miss: miss, hit-for-miss, grace refresh)
 * is handed to a task of its own on the pool (bo_fetch_task): it stores
 * the object and publishes its progress through oc->boc, whose lock
 * guards what readers see, while the clients that wait read from there.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/esi.h"
#include "cache/child.h"
#include "cache/hash.h"
#include "cache/fetch.h"
#include "cache/gzip.h"
#include "cache/http.h"
#include "cache/http1_fetch.h"
#include "cache/mempool.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/proxy_send.h"
#include "cache/req.h"
#include "cache/rfc.h"
#include "cache/session.h"
#include "cache/storage.h"
#include "cache/vary.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

static void bo_gzip_plan(struct busyobj *bo);
static struct gzip *bo_gzip_new(struct worker *wrk, struct busyobj *bo);
static void bo_gzip_free(struct busyobj *bo, struct gzip **gzp);

static struct busyobj *
bo_new(struct worker *wrk, struct req *req, const char *why)
{
	struct busyobj *bo;
	size_t sz, cap;
	void *vslbuf;

	sz = sizeof *bo + (size_t)cache_param->workspace_backend;
	bo = MPL_Get(POOL_MplBo(req->sp->pool), sz);
	if (bo == NULL)
		return (NULL);
	INIT_OBJ(bo, BUSYOBJ_MAGIC);
	WS_Init(bo->ws, "bo", bo + 1, sz - sizeof *bo);
	PRIV_Init(bo->privs, bo->ws);
	vslbuf = WS_Alloc(bo->ws, (size_t)(cache_param->vsl_buffer & ~3ULL));
	cap = (size_t)cache_param->http_resp_size + 1;
	bo->rx_b = WS_Alloc(bo->ws, cap);
	/* PARAM_Check keeps workspace_backend above http_resp_size. */
	assert(vslbuf != NULL && bo->rx_b != NULL);
	VSL_Setup(bo->vsl, vslbuf, (size_t)(cache_param->vsl_buffer & ~3ULL));
	bo->bereq = HTTP_New(bo->ws, HTTP_NHDR(cache_param->http_max_hdr),
	    bo->vsl, SLT_BereqMethod);
	bo->beresp = HTTP_New(bo->ws, HTTP_NHDR(cache_param->http_max_hdr),
	    bo->vsl, SLT_BerespMethod);
	if (bo->bereq == NULL || bo->beresp == NULL) {
		VSC_Count(wrk->stats, ws_backend_overflow, 1);
		VSLb(req->vsl, SLT_Error, "workspace_backend overflow (%ju "
		    "bytes) for http_max_hdr %u headers; raise "
		    "workspace_backend",
		    (uintmax_t)cache_param->workspace_backend,
		    cache_param->http_max_hdr);
		bo->magic = 0;
		MPL_Free(POOL_MplBo(req->sp->pool), bo);
		return (NULL);
	}
	bo->pool = req->sp->pool;
	bo->sp_remote = req->sp->remote;
	bo->sp_local = *SES_Local(req->sp);
	if (req->sp->proxy != NULL) {
		bo->sp_proxied = 1;
		bo->sp_client = req->sp->proxy->client;
		bo->sp_server = req->sp->proxy->server;
	}
	bo->sp_ls = req->sp->ls;
	bo->sp_vxid = req->sp->vxid;
	bo->rx_l = bo->rx_b + cap;
	bo->rx_p = bo->rx_e = bo->rx_b;
	bo->wrk = wrk;
	bo->req = req;
	bo->interim_req = req;
	bo->gzip_mode = -1;
	/* bereq.is_hitmiss and bereq.is_hitpass: what the lookup found */
	bo->is_hitmiss = req->is_hitmiss;
	bo->is_hitpass = req->is_hitpass;
	bo->vcl = req->vcl;
	memcpy(bo->digest, req->digest, sizeof bo->digest);
	bo->vxid = WRK_NewVxid(wrk);
	VSL_SetId(bo->vsl, bo->vxid | VSL_BACKENDMARKER);
	VSLb(bo->vsl, SLT_Begin, "bereq %u %s", req->vxid, why);
	VSLb(req->vsl, SLT_Link, "bereq %u %s", bo->vxid, why);
	bo->t_first = bo->t_prev = TIM_real();
	VSLb_ts(bo->vsl, "Start", bo->t_first, &bo->t_prev, bo->t_first);
	return (bo);
}

static void bo_ctx(struct busyobj *bo, struct vrt_ctx *ctx);

static void
bo_free(struct busyobj **bop)
{
	struct busyobj *bo;
	struct vrt_ctx ctx;

	TAKE_OBJ_NOTNULL(bo, bop, BUSYOBJ_MAGIC);
	assert(bo->vbc == NULL);
	if (PRIV_Busy(bo->privs)) {
		/* The task ends: its modules' states with it. */
		bo_ctx(bo, &ctx);
		PRIV_Fini(&ctx, bo->privs);
	}
	if (bo->backend != NULL)	/* DIRECTOR_Resolve's reference */
		BACKEND_Deref(&bo->backend);
	VSLb(bo->vsl, SLT_BereqAcct, "%ju %ju %ju %ju %ju %ju",
	    (uintmax_t)bo->acct_bereq_hdr, (uintmax_t)bo->acct_bereq_body,
	    (uintmax_t)(bo->acct_bereq_hdr + bo->acct_bereq_body),
	    (uintmax_t)bo->acct_beresp_hdr, (uintmax_t)bo->acct_beresp_body,
	    (uintmax_t)(bo->acct_beresp_hdr + bo->acct_beresp_body));
	VSLb(bo->vsl, SLT_End, "%s", "");
	VSL_Flush(bo->vsl);
	bo->magic = 0;
	MPL_Free(POOL_MplBo(bo->pool), bo);
}

/*
 * Copy the client request into the backend request.  Hop-by-hop headers
 * were flagged when the request was parsed; the body's framing is written
 * by H1F_Send.  Pass answers 100-continue itself; pipe leaves it to the
 * backend.
 */
static void
bo_build_bereq(struct busyobj *bo, const struct req *req, const char *method)
{
	struct http *bereq = bo->bereq;
	struct http *rhp = req->http;

	HTTP_Filter(rhp, "Content-Length");
	if (!bo->is_pipe)
		HTTP_Filter(rhp, "Expect");
	if (method != NULL)
		bereq->hd[HTTP_HDR_METHOD] = TXT_Str(method);
	else
		HTTP_CopySlot(bereq, rhp, HTTP_HDR_METHOD);
	HTTP_CopySlot(bereq, rhp, HTTP_HDR_URL);
	bereq->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	bereq->protover = 11;
	if (HTTP_CopyHeaders(bereq, rhp) != 0)
		VSLb(bo->vsl, SLT_Error,
		    "too many headers for the backend request (http_max_hdr)");
	HTTP_Log(bereq);
	(void)HTTP_PrintfHeader(bereq, "X-Varnish: %u", bo->vxid);
	(void)HTTP_SetHeader(bereq, child_via);
}

static void
bo_ctx(struct busyobj *bo, struct vrt_ctx *ctx)
{

	INIT_OBJ(ctx, VRT_CTX_MAGIC);
	ctx->vsl = bo->vsl;
	ctx->vcl = bo->vcl;
	ctx->ws = bo->ws;
	ctx->bo = bo;
	ctx->privs = bo->privs;
	ctx->http_bereq = bo->bereq;
	ctx->http_beresp = bo->beresp;
	ctx->now = bo->t_prev;		/* as varnishd: the last timestamp */
}

static enum vcl_ret
bo_method(struct busyobj *bo, enum vcl_method m)
{
	struct vrt_ctx ctx;

	bo_ctx(bo, &ctx);
	/*
	 * As in Varnish, "now" in vcl_backend_response is when the response
	 * arrived: what beresp.ttl counts from, so it reads what the
	 * headers said (max-age=0 is 0, not a hair below).
	 */
	if (m == VCL_MET_BACKEND_RESPONSE && bo->t_beresp > 0)
		ctx.now = bo->t_beresp;
	return (VCL_Method(bo->vcl, m, &ctx));
}

/*
 * What went over bo's connection since the last call, to its backend's
 * VBE byte counters: once per connection let go, not per read.
 */
void
FETCH_AcctVbe(struct busyobj *bo)
{
	const uint64_t now[4] = { bo->acct_bereq_hdr, bo->acct_bereq_body,
	    bo->acct_beresp_hdr, bo->acct_beresp_body };

	if (bo->vbc == NULL)
		return;
	BACKEND_CountBytes(bo->vbc->be, now[0] - bo->vbe_mark[0],
	    now[1] - bo->vbe_mark[1], now[2] - bo->vbe_mark[2],
	    now[3] - bo->vbe_mark[3]);
	memcpy(bo->vbe_mark, now, sizeof now);
}

static void
bo_close(struct busyobj *bo, const char *why)
{

	if (bo->vbc != NULL) {
		FETCH_AcctVbe(bo);
		BACKEND_Close(&bo->vbc, bo->vsl, why);
	}
}

static void
bo_body_mark(const struct req *req, struct bo_body_mark *m)
{

	m->rx_p = req->rx_p;
	m->body_left = req->body_left;
	m->body_bytes = req->body_bytes;
	m->body_state = req->body_state;
	m->chunked = req->body_chunked;
}

/* The request is idempotent and its body (if any) can be sent again. */
static int
bo_can_retry(struct busyobj *bo, const struct bo_body_mark *m)
{
	static const char * const idem[] = {
		"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE",
	};
	struct req *req = bo->req;
	const char *method = bo->bereq->hd[HTTP_HDR_METHOD].b;
	unsigned u;

	if (req == NULL)
		return (1);	/* a cache fetch: no body */
	if (req->body_socket)
		return (0);	/* part of the body is gone */
	for (u = 0; u < ARRAY_SIZE(idem); u++) {
		if (strcmp(method, idem[u]))
			continue;
		req->rx_p = m->rx_p;
		req->body_left = m->body_left;
		req->body_bytes = m->body_bytes;
		req->body_state = m->body_state;
		req->body_chunked = m->chunked;
		return (1);
	}
	return (0);
}

struct vbc *
FETCH_GetConn(struct worker *wrk, struct busyobj *bo, vtim_dur tmo,
    unsigned force_fresh, unsigned *reused)
{
	struct sockaddr_storage client, server;
	struct vbc *vbc;
	unsigned version;
	ssize_t n;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	vbc = BACKEND_GetConn(bo->backend, wrk, bo->vsl, bo->t_first,
	    &bo->t_prev, tmo, force_fresh, reused);
	version = BACKEND_ProxyHeader(bo->backend);
	if (vbc == NULL || version == 0)
		return (vbc);
	/* BACKEND_GetConn never reuses a .proxy_header connection. */
	assert(!*reused);
	/* A fresh socket's empty buffer takes it at once; tmo bounds it. */
	/* What client.ip and server.ip say, as varnishd sends it. */
	if (bo->sp_proxied) {
		memset(&client, 0, sizeof client);
		memset(&server, 0, sizeof server);
		memcpy(&client, &bo->sp_client, sizeof bo->sp_client);
		memcpy(&server, &bo->sp_server, sizeof bo->sp_server);
		n = PROXY_Send(vbc->fd, version, &client, &server, tmo);
	} else
		n = PROXY_Send(vbc->fd, version, &bo->sp_remote,
		    &bo->sp_local, tmo);
	if (n < 0) {
		/* varnishd's words, and like it a failed connect. */
		VSLb(bo->vsl, SLT_FetchError, "backend %s: proxy write "
		    "errno %d (%s)", BACKEND_Name(bo->backend), errno,
		    strerror(errno));
		VSC_Count(wrk->stats, backend_fail, 1);
		BACKEND_Close(&vbc, bo->vsl, "proxy write");
		return (NULL);
	}
	bo->acct_bereq_hdr += (uint64_t)n;
	VSC_Count(wrk->stats, s_bereq_hdrbytes, (uint64_t)n);
	return (vbc);
}

static int bo_fetch_send(struct worker *wrk, struct busyobj *bo);

/*
 * The head after a send that ended as i says (nothing: no byte came):
 * H1F_OK; H1F_ERROR; or H1F_RETRY, send again on a fresh connection
 * (a reused one closed under us, nothing came, and the request may go
 * again).
 */
static int
bo_fetch_head(struct worker *wrk, struct busyobj *bo, int i, unsigned ready)
{
	unsigned nothing = 1;

	if (i == H1F_OK)
		i = H1F_RecvHead(bo, &nothing, ready);
	if (i == H1F_OK) {
		bo->t_beresp = TIM_real();
		VSLb_ts(bo->vsl, "Beresp", bo->t_first, &bo->t_prev,
		    bo->t_beresp);
		HTTP_Log(bo->beresp);
		return (H1F_OK);
	}
	bo_close(bo, "error");
	if (!bo->reused || !nothing || bo->fo_timeout ||
	    !bo_can_retry(bo, &bo->fo_mark))
		return (H1F_ERROR);
	/* Logged as varnishd does: the BackendClose, then the new
	 * connection's Connected and BackendOpen. */
	VSC_Count(wrk->stats, backend_retry, 1);
	return (H1F_RETRY);
}

/*
 * Connect and send (a fresh connection from the second attempt on),
 * then the head: 0, H1F_ERROR, H1F_REQBODY, or H1F_AWAIT when the
 * request went out and bo->may_await lets the worker go meanwhile
 * (FETCH_PassResume goes on from there).
 */
static int
bo_fetch_send(struct worker *wrk, struct busyobj *bo)
{
	unsigned reused;
	int i;

	for (; bo->fo_attempt < 2; bo->fo_attempt++) {
		assert(bo->vbc == NULL);
		bo->fo_timeout = 0;
		bo->vbc = FETCH_GetConn(wrk, bo, bo->connect_timeout,
		    bo->fo_attempt > 0, &reused);
		if (bo->vbc == NULL)
			return (H1F_ERROR);
		bo->reused = reused;
		i = H1F_Send(bo, bo->req != NULL);
		if (i == H1F_REQBODY)
			return (i);
		bo->t_bereq = TIM_real();
		VSLb_ts(bo->vsl, "Bereq", bo->t_first, &bo->t_prev,
		    bo->t_bereq);
		if (i == H1F_OK && bo->may_await)
			return (H1F_AWAIT);
		i = bo_fetch_head(wrk, bo, i, 0);
		if (i != H1F_RETRY)
			return (i);
	}
	return (H1F_ERROR);
}

/* Connect, send, receive the head.  0, or H1F_ERROR / H1F_REQBODY. */
static int
bo_fetch_once(struct worker *wrk, struct busyobj *bo)
{
	struct vrt_ctx ctx;

	/* bereq.backend stays the director; beresp.backend is the pick. */
	bo_ctx(bo, &ctx);
	if (bo->backend != NULL)	/* a retry's: let the last one go */
		BACKEND_Deref(&bo->backend);
	bo->backend = DIRECTOR_Resolve(&ctx, bo->director);
	if (bo->backend == NULL)
		return (H1F_ERROR);
	if (bo->req != NULL && bo->req->body_state != RB_NONE &&
	    bo->req->body_state != RB_UNREAD) {
		/* A VCL retry or restart after the body went out. */
		VSLb(bo->vsl, SLT_FetchError,
		    "the request body was already sent and cannot be sent "
		    "again");
		return (H1F_ERROR);
	}
	/* What VCL set (bereq.*_timeout) wins over the backend's. */
	if (!(bo->connect_timeout > 0))
		bo->connect_timeout = BACKEND_ConnectTimeout(bo->backend);
	if (!(bo->first_byte_timeout > 0))
		bo->first_byte_timeout =
		    BACKEND_FirstByteTimeout(bo->backend);
	if (!(bo->between_bytes_timeout > 0))
		bo->between_bytes_timeout =
		    BACKEND_BetweenBytesTimeout(bo->backend);
	if (!HTTP_GetHdr(bo->bereq, "Host", NULL) &&
	    BACKEND_HostHeader(bo->backend) != NULL)
		(void)HTTP_PrintfHeader(bo->bereq, "Host: %s",
		    BACKEND_HostHeader(bo->backend));
	memset(&bo->fo_mark, 0, sizeof bo->fo_mark);
	if (bo->req != NULL)
		bo_body_mark(bo->req, &bo->fo_mark);
	VSLb_ts(bo->vsl, "Fetch", bo->t_first, &bo->t_prev, TIM_real());
	bo->fo_attempt = 0;
	return (bo_fetch_send(wrk, bo));
}

/*
 * A fresh synthetic 503 for vcl_backend_error to work on, or the status
 * and reason VCL gave with return (error(status, reason)).
 */
static void
bo_synth_503(struct worker *wrk, struct busyobj *bo)
{
	char date[TIM_FORMAT_SIZE];

	bo_close(bo, "error");
	/* As varnishd counts: what VCL asked for with error() is not. */
	if (!bo->vcl_error)
		VSC_Count(wrk->stats, fetch_failed, 1);
	bo->vcl_error = 0;
	HTTP_Clear(bo->beresp);
	bo->beresp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	if (bo->err_code != 0)
		HTTP_SetStatus(bo->beresp, bo->err_code, bo->err_reason);
	else
		HTTP_SetStatus(bo->beresp, 503, "Backend fetch failed");
	bo->err_code = 0;
	bo->err_reason = NULL;
	/* Fresh for no time unless vcl_backend_error says otherwise. */
	bo->t_origin = TIM_real();
	bo->ttl = 0;
	bo->grace = 0;
	bo->keep = 0;
	TIM_format(bo->t_origin, date);
	(void)HTTP_PrintfHeader(bo->beresp, "Date: %s", date);
	(void)HTTP_SetHeader(bo->beresp, "Server: Veneer");
	bo->synth = 1;
	bo->synth_body = NULL;
	bo->synth_len = 0;
	bo->bs = BS_NONE;
	bo->body_done = 1;
}

/* The backend answered with an error status (RFC 5861's errors). */
static int
bo_backend_failed(const struct busyobj *bo)
{
	unsigned st = bo->beresp->status;

	return (st == 500 || st == 502 || st == 503 || st == 504);
}

/* May the stale copy be served instead of an error, now? */
static int
bo_stale_ok(const struct busyobj *bo)
{
	const struct objcore *oc = bo->stale_oc;
	vtim_dur sie;

	if (oc == NULL || oc->obj == NULL ||
	    (oc->rfc_flags & RFC_F_MUST_REVALIDATE))
		return (0);
	sie = oc->stale_if_error > oc->grace ? oc->stale_if_error :
	    oc->grace;
	return (TIM_real() < oc->t_origin + oc->ttl + sie);
}

/*
 * 304 to our conditional request: the stored response with the new
 * headers (RFC 9111 4.3.4: those in the 304 replace the stored ones of
 * the same name), its status, and its body (bo->reval).  The stored
 * strings live as long as the fetch's reference to the stale copy.
 */
static int
bo_merge_304(struct busyobj *bo)
{
	struct http *ohp, *b = bo->beresp;
	char name[256];
	const char *c;
	unsigned u;

	ohp = OBJ_Http(bo->ws, bo->stale_oc->obj);
	if (ohp == NULL)
		return (-1);
	/*
	 * The stored Content-Encoding (and length) are the stored body's,
	 * whatever the 304 says; stored gzip'd or gunzip'd by us, the new
	 * ETag is not the stored bytes' either (as Varnish does).
	 */
	HTTP_Unset(b, "Content-Encoding");
	HTTP_Unset(b, "Content-Length");
	if (bo->stale_oc->obj->changed_ce && RFC_WeakenEtag(b) != 0)
		return (-1);
	for (u = HTTP_HDR_FIRST; u < ohp->nhd; u++) {
		if (ohp->hd[u].b == NULL)
			continue;
		c = memchr(ohp->hd[u].b, ':', TXT_LEN(ohp->hd[u]));
		if (c == NULL || (size_t)(c - ohp->hd[u].b) >= sizeof name)
			continue;
		memcpy(name, ohp->hd[u].b, (size_t)(c - ohp->hd[u].b));
		name[c - ohp->hd[u].b] = '\0';
		if (HTTP_GetHdr(b, name, NULL))
			continue;
		if (HTTP_SetHeader(b, ohp->hd[u].b) != 0)
			return (-1);
	}
	HTTP_CopySlot(b, ohp, HTTP_HDR_STATUS);
	HTTP_CopySlot(b, ohp, HTTP_HDR_REASON);
	b->status = ohp->status;
	bo->bs = BS_NONE;
	bo->reval = 1;
	VSLb(bo->vsl, SLT_Debug, "304: revalidated x=%u", bo->stale_oc->xid);
	return (0);
}

/*
 * The backend side of a fetch up to the response head, VCL included, as
 * a state machine (fetch_steps.h): vcl_backend_fetch, the exchange
 * (retried as VCL says), the TTL the headers give, vcl_backend_response
 * or vcl_backend_error.  Each step returns the next; F_STP_DONE with
 * *frp set ends it.
 */
enum fetch_step {
#define FETCH_STEP(l, U)	F_STP_##U,
#include "cache/fetch_steps.h"
	F_STP_DONE,
	F_STP_AWAIT,	/* the request is out: the worker may go (pass) */
};

typedef enum fetch_step bo_step_f(struct worker *, struct busyobj *,
    enum fetch_result *);

/* The end: the fetch is over with fr. */
static enum fetch_step
bo_done(enum fetch_result *frp, enum fetch_result fr)
{

	*frp = fr;
	return (F_STP_DONE);
}

static enum fetch_step
bo_abandon(struct busyobj *bo, enum fetch_result *frp)
{

	bo_close(bo, "abandoned");
	return (bo_done(frp, FR_ABANDON));
}

static enum fetch_step
bo_step_fetch(struct worker *wrk, struct busyobj *bo, enum fetch_result *frp)
{

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(bo->bereq, HTTP_MAGIC);
	assert(!bo->synth && bo->vbc == NULL);
	switch (bo_method(bo, VCL_MET_BACKEND_FETCH)) {
	case VCL_RET_FETCH:
		return (F_STP_STARTFETCH);
	case VCL_RET_ABANDON:
		return (bo_abandon(bo, frp));
	case VCL_RET_ERROR:
		bo->vcl_error = 1;	/* asked for: not a failed fetch */
		return (F_STP_ERROR);
	default:
		/* fail */
		return (F_STP_ERROR);
	}
}

static enum fetch_step
bo_startfetch_end(struct busyobj *bo, int i, enum fetch_result *frp)
{

	if (i == H1F_REQBODY) {
		bo_close(bo, "request body failed");
		return (bo_done(frp, FR_REQBODY));
	}
	if (i != H1F_OK || bo_backend_failed(bo)) {
		if (bo_stale_ok(bo)) {
			/* What the backend said, if it did. */
			bo->fwd_status = i == H1F_OK ? bo->beresp->status : 0;
			bo_close(bo, "stale-if-error");
			return (bo_done(frp, FR_STALE));
		}
		if (i != H1F_OK)
			return (F_STP_ERROR);
	}
	if (bo->beresp->status == 304 && bo->stale_oc != NULL &&
	    bo_merge_304(bo) != 0)
		return (F_STP_ERROR);
	return (F_STP_RESPONSE);
}

static enum fetch_step
bo_step_startfetch(struct worker *wrk, struct busyobj *bo,
    enum fetch_result *frp)
{
	int i;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(bo->beresp, HTTP_MAGIC);
	assert(!bo->synth && bo->vbc == NULL);
	i = bo_fetch_once(wrk, bo);
	if (i == H1F_AWAIT)
		return (F_STP_AWAIT);
	return (bo_startfetch_end(bo, i, frp));
}

static enum fetch_step
bo_step_response(struct worker *wrk, struct busyobj *bo,
    enum fetch_result *frp)
{

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(bo->beresp, HTTP_MAGIC);
	assert(!bo->synth);
	FETCH_Ttl(bo);
	/*
	 * RFC 9110 6.6.1: a response without Date gets the time it was
	 * received, before it is cached or forwarded (varnishd does too).
	 * After the TTL: a Date rounded to the second is no age.
	 */
	if (!HTTP_GetHdr(bo->beresp, "Date", NULL)) {
		char date[TIM_FORMAT_SIZE];

		TIM_format(bo->t_beresp, date);
		(void)HTTP_PrintfHeader(bo->beresp, "Date: %s", date);
	}
	switch (bo_method(bo, VCL_MET_BACKEND_RESPONSE)) {
	case VCL_RET_DELIVER:
		return (bo_done(frp, FR_OK));
	case VCL_RET_PASS:
		/* return (pass) or pass(DURATION): VRT_hit_for_pass set
		 * the TTL of the hit-for-pass object. */
		bo->hfp = 1;
		return (bo_done(frp, FR_OK));
	case VCL_RET_RETRY:
		return (F_STP_RETRY);
	case VCL_RET_ABANDON:
		return (bo_abandon(bo, frp));
	case VCL_RET_ERROR:
		bo->vcl_error = 1;	/* asked for: not a failed fetch */
		return (F_STP_ERROR);
	default:
		/* fail */
		return (F_STP_ERROR);
	}
}

static enum fetch_step
bo_step_error(struct worker *wrk, struct busyobj *bo, enum fetch_result *frp)
{

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(bo->beresp, HTTP_MAGIC);
	bo_synth_503(wrk, bo);
	switch (bo_method(bo, VCL_MET_BACKEND_ERROR)) {
	case VCL_RET_DELIVER:
		return (bo_done(frp, FR_OK));
	case VCL_RET_RETRY:
		return (F_STP_RETRY);
	case VCL_RET_ABANDON:
		return (bo_abandon(bo, frp));
	default:
		/* fail: vcl_backend_error again could loop; give up. */
		return (bo_done(frp, FR_ABANDON));
	}
}

static enum fetch_step
bo_step_retry(struct worker *wrk, struct busyobj *bo, enum fetch_result *frp)
{

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	/* A response read whole (no body) leaves a reusable connection. */
	if (bo->vbc != NULL && bo->body_done && !bo->failed &&
	    !bo->must_close && bo->bs != BS_EOF && bo->in_b == bo->in_e) {
		FETCH_AcctVbe(bo);
		BACKEND_Recycle(&bo->vbc, bo->vsl);
	}
	bo_close(bo, "retry");
	if (bo->retries++ >= cache_param->max_retries) {
		VSLb(bo->vsl, SLT_FetchError,
		    "too many retries (max_retries %u)",
		    cache_param->max_retries);
		/* From vcl_backend_error: not back into it. */
		if (bo->synth)
			return (bo_abandon(bo, frp));
		return (F_STP_ERROR);
	}
	bo->synth = 0;
	HTTP_Clear(bo->beresp);
	return (F_STP_FETCH);
}

static bo_step_f * const bo_steps[] = {
#define FETCH_STEP(l, U)	[F_STP_##U] = bo_step_##l,
#include "cache/fetch_steps.h"
};

_Static_assert(sizeof bo_steps / sizeof bo_steps[0] == F_STP_DONE,
    "fetch_steps.h: a step without a function");

static enum fetch_result
bo_run_from(struct worker *wrk, struct busyobj *bo, enum fetch_step step)
{
	enum fetch_result fr = FR_ABANDON;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(bo, BUSYOBJ_MAGIC);
	for (; step != F_STP_DONE && step != F_STP_AWAIT;
	    step = bo_steps[step](wrk, bo, &fr))
		assert((unsigned)step < ARRAY_SIZE(bo_steps));
	return (step == F_STP_AWAIT ? FR_AWAIT : fr);
}

static enum fetch_result
bo_run(struct worker *wrk, struct busyobj *bo)
{

	return (bo_run_from(wrk, bo, F_STP_FETCH));
}

/* What a pass does once its fetch is over (up to the head). */
static enum fetch_result
bo_pass_done(struct worker *wrk, struct busyobj *bo, enum fetch_result fr)
{

	/* A pass response is not stored, but varnishd counts it here. */
	if (fr == FR_OK)
		VSC_Count(wrk->stats, beresp_uncacheable, 1);
	/* Streamed: do_gzip & co apply on the way (ESI: FETCH_PassStore). */
	if (fr == FR_OK && !bo->synth && !bo->do_esi)
		bo_gzip_plan(bo);
	return (fr);
}

enum fetch_result
FETCH_Pass(struct worker *wrk, struct req *req)
{
	struct busyobj *bo;
	enum fetch_result fr;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	assert(req->bo == NULL);
	bo = bo_new(wrk, req, "pass");
	if (bo == NULL)
		return (FR_ABANDON);
	req->bo = bo;
	VSC_Count(wrk->stats, s_fetch, 1);
	bo_build_bereq(bo, req, NULL);
	bo->director = req->director_hint;
	bo->uncacheable = 1;
	bo->is_pass = 1;
	/*
	 * Without a body to send (and not for an ESI include, whose
	 * parent is on the stack), the worker need not wait for the
	 * answer: the transport parks the request meanwhile.
	 */
	bo->may_await = req->may_await && req->esi_level == 0 &&
	    req->body_state == RB_NONE;
	fr = bo_run(wrk, bo);
	if (fr == FR_AWAIT)
		return (fr);
	return (bo_pass_done(wrk, bo, fr));
}

int
FETCH_AwaitFd(const struct req *req, vtim_mono *deadline)
{
	const struct busyobj *bo;

	CHECK_OBJ(req, REQ_MAGIC);
	bo = req->bo;
	CHECK_OBJ_NOTNULL(bo, BUSYOBJ_MAGIC);
	CHECK_OBJ_NOTNULL(bo->vbc, VBC_MAGIC);
	*deadline = bo->first_byte_timeout > 0 ?
	    TIM_mono() + bo->first_byte_timeout : 0;
	return (bo->vbc->fd);
}

enum fetch_result
FETCH_PassResume(struct worker *wrk, struct req *req, unsigned timed_out)
{
	struct busyobj *bo;
	enum fetch_result fr;
	enum fetch_step step;
	int i;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	bo = req->bo;
	CHECK_OBJ_NOTNULL(bo, BUSYOBJ_MAGIC);
	bo->wrk = wrk;
	if (timed_out) {
		H1F_FirstByteTimeout(bo);
		i = bo_fetch_head(wrk, bo, H1F_ERROR, 0);
	} else
		i = bo_fetch_head(wrk, bo, H1F_OK, 1);
	if (i == H1F_RETRY) {
		bo->fo_attempt++;
		i = bo_fetch_send(wrk, bo);
	}
	if (i == H1F_AWAIT)
		return (FR_AWAIT);
	fr = FR_ABANDON;
	step = bo_startfetch_end(bo, i, &fr);
	if (step != F_STP_DONE)
		fr = bo_run_from(wrk, bo, step);
	if (fr == FR_AWAIT)
		return (fr);
	return (bo_pass_done(wrk, bo, fr));
}

int
FETCH_PassBody(struct worker *wrk, struct busyobj *bo, int gunzip,
    void *priv, gzip_out_f *func)
{
	struct gzip *gz = NULL;
	struct txt t;
	int mode, i, r = GZIP_OK;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CHECK_OBJ_NOTNULL(bo, BUSYOBJ_MAGIC);
	assert(bo->is_pass && !bo->synth);
	/*
	 * gunzip: the client does not take gzip (the request counted it).
	 * A body gzip'd for it would be uncompressed again: it goes plain;
	 * a gzip one is uncompressed instead of tested.
	 */
	mode = bo->gzip_mode;
	if (gunzip) {
		assert(mode == GZIP_M_GZIP || mode == GZIP_M_TEST);
		mode = mode == GZIP_M_GZIP ? -1 : GZIP_M_GUNZIP;
		bo->gzip_mode = mode;
	}
	if (mode >= 0) {
		gz = gunzip ? GZIP_New(GZIP_M_GUNZIP, 0, 1,
		    (size_t)cache_param->gzip_buffer) : bo_gzip_new(wrk, bo);
		if (gz == NULL) {
			VSLb(bo->vsl, SLT_FetchError, "no memory for gzip "
			    "(gzip_buffer %ju bytes)",
			    (uintmax_t)cache_param->gzip_buffer);
			bo->failed = 1;
			return (-1);
		}
	}
	while ((i = FETCH_BodyNext(bo, &t)) > 0) {
		if ((gz == NULL || mode == GZIP_M_TEST) &&
		    func(priv, t.b, TXT_LEN(t)) != 0)
			break;		/* the client is gone */
		if (gz != NULL && (r = GZIP_Feed(gz, t.b, TXT_LEN(t), 0,
		    func, priv)) != GZIP_OK)
			break;
	}
	if (i == 0 && gz != NULL && r == GZIP_OK)
		r = GZIP_Feed(gz, "", 0, 1, func, priv);
	if (r == GZIP_ERROR) {
		VSLb(bo->vsl, SLT_FetchError, "%s", GZIP_Error(gz));
		bo->failed = 1;
		i = -1;
	} else if (i > 0 || r == GZIP_OUT)
		i = 0;
	if (gz != NULL)
		bo_gzip_free(bo, &gz);
	return (i);
}

/* The backend connection goes back to the pool, or is closed. */
static void
bo_conn_done(struct busyobj *bo)
{

	if (bo->vbc == NULL)
		return;
	FETCH_AcctVbe(bo);
	if (bo->body_done && !bo->failed && !bo->must_close &&
	    bo->bs != BS_EOF && bo->in_b == bo->in_e)
		BACKEND_Recycle(&bo->vbc, bo->vsl);
	else
		BACKEND_Close(&bo->vbc, bo->vsl, bo->body_done ?
		    "close" : "body not consumed");
}

void
FETCH_Finish(struct busyobj **bop)
{
	struct busyobj *bo;

	TAKE_OBJ_NOTNULL(bo, bop, BUSYOBJ_MAGIC);
	bo_conn_done(bo);
	VSLb_ts(bo->vsl, "BerespBody", bo->t_first, &bo->t_prev,
	    TIM_real());
	bo_free(&bo);
}

/*--------------------------------------------------------------------
 * Pipe helpers (pipe.c)
 */

struct busyobj *
FETCH_PipeBegin(struct worker *wrk, struct req *req)
{
	struct busyobj *bo;

	bo = bo_new(wrk, req, "pipe");
	if (bo == NULL)
		return (NULL);
	bo->is_pipe = 1;
	req->bo = bo;
	HTTP_Filter(req->http, "Connection");
	bo_build_bereq(bo, req, NULL);
	(void)HTTP_SetHeader(bo->bereq, "Connection: close");
	bo->director = req->director_hint;
	return (bo);
}

/*--------------------------------------------------------------------
 * Fetches into the cache (miss, hit-for-miss, grace refresh).  The
 * request's worker builds the backend request and hands the fetch to a
 * task of its own, so that the body keeps arriving at the backend's pace
 * whatever the clients reading it do, and a client that goes away does
 * not stop the fetch others wait for.
 */

/* beresp.ttl & co from the response headers (RFC 9111). */
void
FETCH_Ttl(struct busyobj *bo)
{
	struct rfc_ttl rt;

	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	RFC_Ttl(bo->beresp, bo->t_bereq, bo->t_beresp, &rt);
	bo->t_origin = rt.t_origin;
	bo->rfc_flags = rt.flags;
	bo->stale_if_error = rt.stale_if_error;
	/*
	 * A pass stores nothing: no TTL, only t_origin (for Age), and no
	 * TTL record, whose figures would only confuse, as in varnishd.
	 */
	if (bo->is_pass) {
		bo->ttl = -1;
		bo->grace = 0;
		bo->keep = 0;
		bo->ttl_source = "pass";
		return;
	}
	if (rt.uncacheable != NULL)
		bo->ttl = -1;
	else if (rt.ttl >= 0)
		bo->ttl = rt.ttl;
	else
		bo->ttl = cache_param->default_ttl;
	bo->grace = rt.grace >= 0 ? rt.grace : cache_param->default_grace;
	if (rt.flags & RFC_F_MUST_REVALIDATE)
		bo->grace = 0;
	bo->keep = cache_param->default_keep;
	if ((rt.flags & RFC_F_NO_CACHE) && rt.uncacheable == NULL) {
		/* Stored, but revalidated before every use. */
		bo->ttl = 0;
		bo->grace = 0;
		if ((rt.flags & RFC_F_HAS_VALIDATOR) &&
		    bo->keep < cache_param->default_ttl)
			bo->keep = cache_param->default_ttl;
	}
	bo->ttl_source = "RFC";
	VSLb(bo->vsl, SLT_TTL, "RFC %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f "
	    "%s", bo->ttl, bo->grace, bo->keep, bo->t_beresp,
	    rt.age < 0 ? 0 : rt.age, rt.date < 0 ? 0 : rt.date,
	    rt.expires < 0 ? 0 : rt.expires, rt.max_age < 0 ? 0 : rt.max_age,
	    rt.uncacheable == NULL ? "cacheable" : "uncacheable");
}

/*
 * The Vary'd names and the request's values for them, as the object
 * keeps them (vary.h).  Returns the length, 0 without Vary, -1 if the
 * response must not be reused (Vary: *, or too big to keep).
 */
static ssize_t
bo_vary(struct busyobj *bo, char **blobp)
{
	char *names;
	size_t avail;
	ssize_t l;
	int i;

	*blobp = NULL;
	avail = WS_ReserveAll(bo->ws);
	names = WS_Reservation(bo->ws);
	i = RFC_VaryNames(bo->beresp, names, avail);
	if (i <= 0) {
		WS_Release(bo->ws, 0);
		if (i == -2)
			VSLb(bo->vsl, SLT_Error, "Vary names too big for "
			    "workspace_backend; not cached");
		return (i == 0 ? 0 : -1);
	}
	WS_Release(bo->ws, VRY_NamesLen(names));
	l = VRY_Build(bo->ws, bo->bereq0, names, blobp);
	if (l < 0)
		VSLb(bo->vsl, SLT_Error, "Vary'd request headers too big for "
		    "workspace_backend; not cached");
	return (l);
}

/* Append bytes to the target object and publish them. */
static int
bo_store_bytes(struct worker *wrk, struct busyobj *bo, struct objcore *oc,
    const char *b, const char *e)
{
	size_t got, n;
	char *p;

	while (b < e) {
		if (bo->boc->transit && BOC_Throttle(bo->boc, oc->obj->len,
		    cache_param->fetch_maxchunksize) != 0) {
			VSLb(bo->vsl, SLT_FetchError, "the client went away; "
			    "nobody else reads this response");
			bo->failed = 1;
			return (-1);
		}
		p = OBJ_GetSpace(wrk, oc, (size_t)(e - b), &got);
		if (p == NULL) {
			VSLb(bo->vsl, SLT_FetchError, "Could not get storage");
			bo->failed = 1;
			return (-1);
		}
		n = (size_t)(e - b) < got ? (size_t)(e - b) : got;
		memcpy(p, b, n);
		b += n;
		BOC_Extend(bo->boc, OBJ_Extend(oc, n));
	}
	return (0);
}

struct bo_copy {
	struct worker		*wrk;
	struct busyobj		*bo;
	struct objcore		*oc;
};

static int
bo_copy_piece(void *priv, int flush, const void *ptr, size_t len)
{
	struct bo_copy *bc = priv;

	(void)flush;
	if (len == 0)
		return (0);
	return (bo_store_bytes(bc->wrk, bc->bo, bc->oc, ptr,
	    (const char *)ptr + len));
}

/*
 * ESI: the body is parsed as it is stored; the instructions grow in the
 * object's stevedore and go to the object when the body is whole.
 */
struct bo_esi {
	struct worker		*wrk;
	struct busyobj		*bo;
	struct objcore		*oc;
	struct obj_esi		*ops;		/* growing; ours */
	unsigned		failed;		/* no room for ops */
	unsigned		chop;		/* debug esi_chop: next size */
	struct esi_parser	*ep;
};

static void
bo_esi_ops(void *priv, const void *p, size_t len)
{
	struct bo_esi *be = priv;

	if (be->failed)
		return;
	if (OBJ_EsiAppend(be->wrk, be->oc, &be->ops, p, len) != 0)
		be->failed = 1;
}

static void
bo_esi_msg(void *priv, enum esi_msg kind, uint64_t after, const char *text)
{
	struct bo_esi *be = priv;

	switch (kind) {
	case ESI_MSG_ERROR:
		VSC_Count(be->wrk->stats, esi_errors, 1);
		VSLb(be->bo->vsl, SLT_ESI_xmlerror, "ERR after %ju %s",
		    (uintmax_t)after, text);
		break;
	case ESI_MSG_WARN:
		VSC_Count(be->wrk->stats, esi_warnings, 1);
		VSLb(be->bo->vsl, SLT_ESI_xmlerror, "WARN after %ju %s",
		    (uintmax_t)after, text);
		break;
	default:
		VSLb(be->bo->vsl, SLT_ESI_xmlerror, "%s", text);
		break;
	}
}

static unsigned
bo_esi_flags(void)
{
	unsigned f = 0;

	if (PARAM_HasFeature(PARAM_FEATURE_ESI_REMOVE_BOM))
		f |= ESI_F_REMOVE_BOM;
	if (PARAM_HasFeature(PARAM_FEATURE_ESI_DISABLE_XML_CHECK))
		f |= ESI_F_NO_XML_CHECK;
	if (PARAM_HasFeature(PARAM_FEATURE_ESI_IGNORE_OTHER_ELEMENTS))
		f |= ESI_F_IGNORE_OTHER;
	if (PARAM_HasFeature(PARAM_FEATURE_ESI_IGNORE_HTTPS))
		f |= ESI_F_HTTPS_AS_HTTP;
	return (f);
}

/* A parser for the body going to oc, in bo's workspace; NULL: none. */
static struct bo_esi *
bo_esi_new(struct worker *wrk, struct busyobj *bo, struct objcore *oc)
{
	struct bo_esi *be;
	void *mem;

	if (!bo->do_esi || bo->synth)
		return (NULL);
	be = WS_Alloc(bo->ws, sizeof *be);
	mem = WS_Alloc(bo->ws, ESI_ParserSize());
	if (be == NULL || mem == NULL) {
		VSLb(bo->vsl, SLT_Error, "workspace_backend full: no ESI "
		    "parser (%zu bytes); raise workspace_backend",
		    ESI_ParserSize());
		return (NULL);
	}
	memset(be, 0, sizeof *be);
	be->wrk = wrk;
	be->bo = bo;
	be->oc = oc;
	be->ep = ESI_ParserInit(mem, bo->bereq->hd[HTTP_HDR_URL].b,
	    bo_esi_flags(), bo_esi_ops, bo_esi_msg, be);
	return (be);
}

static void
bo_esi_parse(struct bo_esi *be, const char *b, const char *e)
{
	size_t n;

	if (!PARAM_HasDebug(PARAM_DEBUG_ESI_CHOP)) {
		ESI_Parse(be->ep, b, (size_t)(e - b));
		return;
	}
	/* Pieces of 1 to 4 bytes: what splitting would break shows. */
	while (b < e) {
		n = (be->chop++ & 3) + 1;
		if (n > (size_t)(e - b))
			n = (size_t)(e - b);
		ESI_Parse(be->ep, b, n);
		b += n;
	}
}

/* The body ended (i: 0 whole, -1 failed); the object gets the list. */
static int
bo_esi_finish(struct bo_esi *be, int i)
{
	int found;

	found = ESI_Finish(be->ep);
	if (be->failed) {
		VSLb(be->bo->vsl, SLT_FetchError, "Could not allocate "
		    "storage for esidata");
		be->bo->failed = 1;
		i = -1;
	}
	if (i == 0 && found && be->ops != NULL)
		OBJ_SetEsi(be->oc, &be->ops);
	if (be->ops != NULL)
		OBJ_FreeEsi(be->oc, &be->ops);
	return (i);
}

/* A 304 refreshed an ESI object: the new one keeps its instructions. */
static int
bo_esi_copy(struct worker *wrk, struct busyobj *bo, struct objcore *oc)
{
	const struct obj_esi *from = OBJ_Esi(bo->stale_oc->obj);
	struct obj_esi *ops = NULL;

	CHECK_OBJ_NOTNULL(from, OBJ_ESI_MAGIC);
	if (OBJ_EsiAppend(wrk, oc, &ops, from->ops, from->len) != 0) {
		VSLb(bo->vsl, SLT_FetchError, "Could not allocate storage "
		    "for esidata");
		bo->failed = 1;
		return (-1);
	}
	OBJ_SetEsi(oc, &ops);
	return (0);
}

/*
 * gzip: how the backend's body is stored, decided when
 * vcl_backend_response is done (as Varnish decides it), and the headers
 * that change with it.  A gzip body is stored as it came and checked
 * (test), or uncompressed (do_gunzip, or do_esi: the ESI parser reads
 * plain text); a plain one is compressed for do_gzip.  Empty bodies and
 * 206 answers are stored as they came.
 *
 * ESI: where Varnish stores an ESI body gzip'd (it came gzip'd, or
 * do_gzip), veneerd stores it plain, for the parser and the includes,
 * with Varnish's headers (Content-Encoding: gzip, Vary, a weak ETag) and
 * esi_gzip set: delivery compresses it for clients that take gzip.
 */
static void
bo_gzip_plan(struct busyobj *bo)
{
	struct http *hp = bo->beresp;
	struct txt ce;
	int is_gzip, is_plain;

	bo->gzip_mode = -1;
	bo->gzipped = 0;
	bo->changed_ce = 0;
	bo->esi_gzip = 0;
	if (bo->synth || bo->reval || hp->status == 206 || bo->bs == BS_NONE ||
	    (bo->bs == BS_LENGTH && bo->content_length == 0))
		return;
	is_plain = !HTTP_GetHdr(hp, "Content-Encoding", &ce);
	is_gzip = !is_plain && TXT_EqCase(ce, "gzip");
	/*
	 * Without http_gzip_support bodies are kept as they came, but ESI
	 * must look inside a gzip'd one: it is processed and given back
	 * gzip'd, as varnishd does.
	 */
	if (!cache_param->http_gzip_support && !(bo->do_esi && is_gzip))
		return;
	if (!cache_param->http_gzip_support || (bo->do_esi &&
	    ((is_gzip && !bo->do_gunzip) || (is_plain && bo->do_gzip)))) {
		bo->esi_gzip = 1;
		bo->changed_ce = 1;
		bo->gzip_mode = is_gzip ? GZIP_M_GUNZIP : -1;
		HTTP_Unset(hp, "Content-Encoding");
		HTTP_Unset(hp, "Content-Length");
		(void)RFC_WeakenEtag(hp);
		(void)HTTP_SetHeader(hp, "Content-Encoding: gzip");
		(void)RFC_VaryAcceptEncoding(hp);
		return;
	}
	if (is_gzip && (bo->do_gunzip || bo->do_esi))
		bo->gzip_mode = GZIP_M_GUNZIP;
	else if (is_plain && bo->do_gzip && !bo->do_esi)
		bo->gzip_mode = GZIP_M_GZIP;
	else if (is_gzip)
		bo->gzip_mode = GZIP_M_TEST;
	else
		return;
	if (bo->gzip_mode != GZIP_M_TEST) {
		bo->changed_ce = 1;
		HTTP_Unset(hp, "Content-Encoding");
		HTTP_Unset(hp, "Content-Length");
		(void)RFC_WeakenEtag(hp);
	}
	if (bo->gzip_mode == GZIP_M_GZIP)
		(void)HTTP_SetHeader(hp, "Content-Encoding: gzip");
	if (bo->gzip_mode != GZIP_M_GUNZIP) {
		(void)RFC_VaryAcceptEncoding(hp);
		bo->gzipped = 1;
	}
}

/* Where the stored bytes go: storage, and the ESI parser if any. */
struct bo_sink {
	unsigned		magic;
#define BO_SINK_MAGIC		0x7d0c2a91
	struct worker		*wrk;
	struct busyobj		*bo;
	struct objcore		*oc;
	struct bo_esi		*be;
};

static int
bo_sink_bytes(void *priv, const void *ptr, size_t len)
{
	struct bo_sink *sk;
	const char *b = ptr;

	CAST_OBJ_NOTNULL(sk, priv, BO_SINK_MAGIC);
	if (bo_store_bytes(sk->wrk, sk->bo, sk->oc, b, b + len) != 0)
		return (-1);
	if (sk->be != NULL)
		bo_esi_parse(sk->be, b, b + len);
	return (0);
}

/* The stream bo->gzip_mode says, counted; NULL when none or no memory
 * (then the fetch has failed). */
static struct gzip *
bo_gzip_new(struct worker *wrk, struct busyobj *bo)
{
	struct gzip *gz;

	if (bo->gzip_mode < 0)
		return (NULL);
	gz = GZIP_New((enum gzip_mode)bo->gzip_mode, cache_param->gzip_level,
	    cache_param->gzip_memlevel, (size_t)cache_param->gzip_buffer);
	if (gz == NULL) {
		VSLb(bo->vsl, SLT_FetchError, "no memory for gzip "
		    "(gzip_buffer %ju bytes)",
		    (uintmax_t)cache_param->gzip_buffer);
		bo->failed = 1;
		return (NULL);
	}
	switch (bo->gzip_mode) {
	case GZIP_M_GUNZIP:
		VSC_Count(wrk->stats, n_gunzip, 1);
		break;
	case GZIP_M_GZIP:
		VSC_Count(wrk->stats, n_gzip, 1);
		break;
	default:
		VSC_Count(wrk->stats, n_test_gunzip, 1);
		break;
	}
	return (gz);
}

/*
 * Feed a piece (last: the end) through gz into the sink.  0, or -1 when
 * the fetch failed (logged).
 */
static int
bo_gzip_feed(struct busyobj *bo, struct gzip *gz, struct bo_sink *sk,
    const char *b, const char *e, int last)
{
	int r;

	if (bo->gzip_mode == GZIP_M_TEST && b < e &&
	    bo_sink_bytes(sk, b, (size_t)(e - b)) != 0)
		return (-1);
	r = GZIP_Feed(gz, b, (size_t)(e - b), last, bo_sink_bytes, sk);
	if (r == GZIP_OK)
		return (0);
	if (r == GZIP_ERROR) {
		VSLb(bo->vsl, SLT_FetchError, "%s", GZIP_Error(gz));
		bo->failed = 1;
	}
	return (-1);
}

/* Log what gz did, as Varnish's Gzip records do, and free it. */
static void
bo_gzip_free(struct busyobj *bo, struct gzip **gzp)
{
	static const char * const id[] = {
		[GZIP_M_GUNZIP] = "U F -",
		[GZIP_M_GZIP] = "G F -",
		[GZIP_M_TEST] = "u F -",
	};
	uint64_t in, out;

	GZIP_Totals(*gzp, &in, &out);
	/* The bit offsets Varnish's zlib adds are not in zlib: 0. */
	VSLb(bo->vsl, SLT_Gzip, "%s %ju %ju 0 0 0", id[bo->gzip_mode],
	    (uintmax_t)in, (uintmax_t)out);
	GZIP_Free(gzp);
}

/* The body from the backend, through gzip if planned, into oc. */
/* debug.fragfetch N: bodies are stored N bytes at a time (0: as read). */
static unsigned fetch_frag;

void
FETCH_SetFrag(unsigned n)
{

	__atomic_store_n(&fetch_frag, n, __ATOMIC_RELAXED);
}

unsigned
FETCH_Frag(void)
{

	return (__atomic_load_n(&fetch_frag, __ATOMIC_RELAXED));
}

/*
 * What was read, into gzip or straight into the object (and ESI), in
 * pieces of at most fetch_frag bytes when a test asks for them (the
 * parsers must give the same result however the body is cut).
 */
static int
bo_store_pieces(struct busyobj *bo, struct gzip *gz, struct bo_sink *sk,
    struct txt t)
{
	unsigned frag = FETCH_Frag();
	const char *b = t.b, *e;

	while (b < t.e) {
		e = frag > 0 && (size_t)(t.e - b) > frag ? b + frag : t.e;
		if (gz != NULL ? bo_gzip_feed(bo, gz, sk, b, e, 0) != 0 :
		    bo_sink_bytes(sk, b, (size_t)(e - b)) != 0)
			return (-1);
		b = e;
	}
	return (0);
}

static int
bo_store_fetched(struct worker *wrk, struct busyobj *bo, struct objcore *oc)
{
	struct bo_sink sk;
	struct gzip *gz = NULL;
	struct txt t;
	int i;

	INIT_OBJ(&sk, BO_SINK_MAGIC);
	sk.wrk = wrk;
	sk.bo = bo;
	sk.oc = oc;
	sk.be = bo_esi_new(wrk, bo, oc);
	if (bo->esi_gzip)
		VSC_Count(wrk->stats, n_gzip, 1);	/* as Varnish counts */
	if (bo->gzip_mode >= 0 && (gz = bo_gzip_new(wrk, bo)) == NULL)
		i = -1;
	else {
		while ((i = FETCH_BodyNext(bo, &t)) > 0 &&
		    bo_store_pieces(bo, gz, &sk, t) == 0)
			continue;
		if (i > 0)
			i = -1;
	}
	if (i == 0 && gz != NULL && bo_gzip_feed(bo, gz, &sk, "", "", 1) != 0)
		i = -1;
	if (gz != NULL)
		bo_gzip_free(bo, &gz);
	if (sk.be != NULL)
		i = bo_esi_finish(sk.be, i);
	return (i);
}

/* The body, synthetic, revalidated or from the backend, into oc. */
static int
bo_store_body(struct worker *wrk, struct busyobj *bo, struct objcore *oc)
{
	struct bo_copy bc;
	int i;

	if (bo->reval) {
		bc.wrk = wrk;
		bc.bo = bo;
		bc.oc = oc;
		i = OBJ_Iterate(bo->stale_oc, NULL, 0, UINT64_MAX, &bc,
		    bo_copy_piece) == 0 ? 0 : -1;
		/* The stale copy's instructions hold for the same body. */
		if (i == 0 && OBJ_Esi(bo->stale_oc->obj) != NULL && bo->do_esi)
			i = bo_esi_copy(wrk, bo, oc);
		return (i);
	}
	if (bo->synth)
		return (bo_store_bytes(wrk, bo, oc, bo->synth_body,
		    bo->synth_body + bo->synth_len));
	return (bo_store_fetched(wrk, bo, oc));
}

/*
 * Store the response: in the busy objcore, which becomes a cached
 * object, or, when it may not be cached, in a private objcore only the
 * requesting client reads, the busy one becoming a marker (or failing,
 * for an error).  Returns the objcore the body goes to (one reference)
 * or NULL when nothing could be stored.
 */
static struct objcore *
bo_store(struct worker *wrk, struct busyobj *bo, unsigned *markerp)
{
	struct objcore *oc = bo->fetch_oc, *poc;
	struct stevedore *stv;
	uint64_t hint = bo->bs == BS_LENGTH ? bo->content_length :
	    bo->bs == BS_NONE ? 0 : UINT64_MAX;
	unsigned marker = 0;
	ssize_t vl = 0;
	char *vary = NULL;

	HTTP_FilterHopByHop(bo->beresp);
	bo_gzip_plan(bo);
	if (bo->gzip_mode == GZIP_M_GUNZIP || bo->gzip_mode == GZIP_M_GZIP)
		hint = UINT64_MAX;	/* not the length stored */
	if (bo->reval) {
		hint = bo->stale_oc->obj->len;
		bo->gzipped = bo->stale_oc->obj->gzipped;
		bo->changed_ce = bo->stale_oc->obj->changed_ce;
		bo->esi_gzip = bo->stale_oc->obj->esi_gzip;
	}
	if (bo->synth) {
		/*
		 * vcl_backend_error's answer: cached only when VCL gave it
		 * a lifetime (set beresp.ttl = 10s shields a failing
		 * backend), as varnishd does; else the fetch failed.
		 */
		hint = bo->synth_len;
		if (oc->objhead == NULL)
			marker = OC_F_PRIVATE;
		else if (bo->uncacheable ||
		    bo->ttl + bo->grace + bo->keep <= 0)
			marker = OC_F_FAILED;
	} else if (oc->objhead == NULL) {
		marker = OC_F_PRIVATE;
	} else if (bo->hfp) {
		marker = OC_F_HFP;
	} else if (bo->uncacheable || bo->ttl + bo->grace + bo->keep <= 0) {
		marker = OC_F_HFM;
	} else if ((vl = bo_vary(bo, &vary)) < 0) {
		marker = OC_F_HFM;
	}
	/* Counted where varnishd counts them: choosing the storage. */
	if (bo->uncacheable || marker == OC_F_PRIVATE || marker == OC_F_HFP)
		VSC_Count(wrk->stats, beresp_uncacheable, 1);
	else if (bo->stv_vcl == NULL &&
	    bo->ttl + bo->grace + bo->keep <= cache_param->shortlived)
		VSC_Count(wrk->stats, beresp_shortlived, 1);
	if (marker == 0) {
		if (bo->stv_vcl != NULL)
			stv = bo->stv_vcl;	/* beresp.storage */
		else
			stv = bo->ttl + bo->grace + bo->keep <=
			    cache_param->shortlived ? stv_transient :
			    bo->stv_default != NULL ? bo->stv_default :
			    STV_Pick();
		if (hint != UINT64_MAX && hint > stv->limit) {
			VSLb(bo->vsl, SLT_Error, "object of %ju bytes is larger "
			    "than storage %s; delivered uncached",
			    (uintmax_t)hint, stv->name);
			marker = OC_F_HFM;
		}
	}
	if (marker == 0) {
		if (OBJ_New(wrk, oc, stv, bo->beresp, hint, vary,
		    (size_t)vl, bo->bereq0) != NULL) {
			oc->obj->gzipped = bo->gzipped;
			oc->obj->changed_ce = bo->changed_ce;
			oc->obj->esi_gzip = bo->esi_gzip;
			OBJ_Ref(oc);
			*markerp = 0;
			return (oc);
		}
		VSLb(bo->vsl, SLT_Error, "no room in storage %s for the "
		    "object; delivered uncached", stv->name);
		marker = OC_F_HFM;
	}
	*markerp = marker;
	if (marker == OC_F_PRIVATE) {
		poc = oc;
		OBJ_Ref(poc);
	} else {
		poc = OBJ_NewCore();
		if (poc == NULL)
			return (NULL);
		poc->flags = OC_F_PRIVATE;
		poc->xid = bo->vxid;
	}
	poc->t_origin = bo->t_origin;
	if (OBJ_New(wrk, poc, stv_transient, bo->beresp, hint, NULL, 0,
	    NULL) == NULL) {
		VSLb(bo->vsl, SLT_Error, "no room in storage Transient for "
		    "the response");
		(void)OBJ_Deref(&poc);
		return (NULL);
	}
	poc->obj->gzipped = bo->gzipped;
	poc->obj->changed_ce = bo->changed_ce;
	poc->obj->esi_gzip = bo->esi_gzip;
	return (poc);
}

/* Publish the head: markers and objects enter the cache, readers go. */
static void
bo_publish(struct worker *wrk, struct busyobj *bo, struct objcore *target,
    unsigned marker)
{
	struct objcore *oc = bo->fetch_oc;

	oc->t_origin = bo->t_origin;
	oc->ttl = bo->ttl;
	oc->grace = bo->grace;
	oc->keep = bo->keep;
	oc->stale_if_error = bo->stale_if_error;
	oc->rfc_flags = bo->rfc_flags;
	if (marker == OC_F_HFM || marker == OC_F_HFP) {
		/* A marker lives its TTL (the builtin VCL gives 120 s). */
		if (oc->ttl <= 0)
			oc->ttl = cache_param->default_ttl;
		oc->grace = oc->keep = 0;
		if (oc->objhead != NULL && target != NULL)
			OBJ_ChargeMarker(wrk, oc);
	}
	if (target != oc)
		BOC_SetTarget(bo->boc, target);
	/* The request may go once the head is out. */
	bo->interim_req = NULL;
	/*
	 * Not streamed: nobody reads (or finds) it before it is whole.  An
	 * ESI body neither: its instructions are known at the end only.
	 */
	bo->boc->no_stream = (bo->no_stream || (bo->do_esi && !bo->synth)) &&
	    target != NULL && marker != OC_F_FAILED;
	if (oc->objhead != NULL) {
		if (marker == OC_F_FAILED || target == NULL)
			HSH_Fail(wrk, oc);
		else if (bo->boc->no_stream && marker == 0)
			bo->unbusy_late = 1;
		else
			HSH_Unbusy(wrk, oc, marker == OC_F_PRIVATE ? 0 :
			    marker);
	}
	if (target != NULL && (target->flags & OC_F_PRIVATE) &&
	    !bo->boc->no_stream)
		bo->boc->transit = 1;
	bo->boc->revalidated = bo->reval;
	if (!bo->boc->no_stream)
		BOC_SetState(bo->boc, target == NULL ? BOS_FAILED :
		    BOS_STREAM);
	if (bo->boc->transit)
		HSH_DetachBoc(oc);	/* new readers find the marker */
}

/*
 * The backend failed and the stale copy may stand in (stale-if-error,
 * or grace): the busy objcore leaves, and everyone waiting gets the
 * stale copy, which stays in the cache.
 */
static void
bo_publish_stale(struct worker *wrk, struct busyobj *bo)
{

	VSLb(bo->vsl, SLT_FetchError, "backend failed; the stale object "
	    "x=%u is served (stale-if-error)", bo->stale_oc->xid);
	bo->boc->stale_used = 1;
	bo->boc->fwd_status = bo->fwd_status;
	BOC_SetTarget(bo->boc, bo->stale_oc);
	if (bo->fetch_oc->objhead != NULL)
		HSH_Fail(wrk, bo->fetch_oc);
	BOC_SetState(bo->boc, BOS_FINISHED);
}

static void
bo_fetch_task(struct worker *wrk, void *priv)
{
	struct busyobj *bo;
	struct objcore *target = NULL;
	unsigned marker = 0;
	enum fetch_result fr;
	int i;

	CAST_OBJ_NOTNULL(bo, priv, BUSYOBJ_MAGIC);
	bo->wrk = wrk;
	fr = bo_run(wrk, bo);
	if (fr == FR_STALE) {
		bo_publish_stale(wrk, bo);
		goto done;
	}
	/* FR_REQBODY cannot be: a cache fetch sends no request body. */
	assert(fr == FR_OK || fr == FR_ABANDON);
	if (fr == FR_OK)
		target = bo_store(wrk, bo, &marker);
	bo_publish(wrk, bo, target, marker);
	if (target != NULL) {
		i = bo_store_body(wrk, bo, target);
		if (bo->unbusy_late && i < 0) {
			/* Never seen: it leaves as a failed fetch does. */
			HSH_Fail(wrk, bo->fetch_oc);
		} else {
			if (bo->unbusy_late)
				HSH_Unbusy(wrk, bo->fetch_oc, 0);
			if (i < 0 || target->obj->spilled)
				(void)HSH_Kill(wrk, target);
		}
		/*
		 * The connection is free before the readers hear the body
		 * is whole: what they ask next (an ESI include) may use it.
		 */
		bo_conn_done(bo);
		BOC_SetState(bo->boc, i < 0 ? BOS_FAILED : BOS_FINISHED);
		(void)OBJ_Deref(&target);
	}
done:
	HSH_DetachBoc(bo->fetch_oc);
	BOC_Deref(&bo->boc);
	(void)OBJ_Deref(&bo->fetch_oc);
	if (bo->stale_oc != NULL)
		(void)OBJ_Deref(&bo->stale_oc);
	VCL_Rel(&bo->vcl);
	FETCH_Finish(&bo);
}

/*
 * The backend request of a cache fetch: GET (a HEAD miss fetches the
 * object for the next GETs too), without the client's conditionals and
 * range (the cache wants the whole object), and without a body.
 */
/* Ask the backend whether the stale copy is still good. */
static void
bo_conditional(struct busyobj *bo, const struct objcore *stale)
{
	struct http *ohp;
	struct txt v;

	ohp = OBJ_Http(bo->ws, stale->obj);
	if (ohp == NULL || ohp->status != 200)
		return;
	if (HTTP_GetHdr(ohp, "ETag", &v))
		(void)HTTP_PrintfHeader(bo->bereq, "If-None-Match: %.*s",
		    (int)TXT_LEN(v), v.b);
	if (HTTP_GetHdr(ohp, "Last-Modified", &v))
		(void)HTTP_PrintfHeader(bo->bereq, "If-Modified-Since: %.*s",
		    (int)TXT_LEN(v), v.b);
}

/*
 * Own hp's strings: one that is the request's (rhp) slot k takes the
 * copy in slot k of copy (HTTP_Clone of rhp, detached); others (added
 * or changed) are copied into hp's workspace.  0, or -1 when it is full.
 */
static int
bo_detach_shared(struct http *hp, const struct http *rhp,
    const struct http *copy)
{
	unsigned u, k;
	char *p;

	CHECK_OBJ(hp, HTTP_MAGIC);
	CHECK_OBJ(rhp, HTTP_MAGIC);
	CHECK_OBJ(copy, HTTP_MAGIC);
	assert(copy->nhd == rhp->nhd);
	for (u = 0; u < hp->nhd; u++) {
		if (hp->hd[u].b == NULL)
			continue;
		for (k = 0; k < rhp->nhd; k++)
			if (rhp->hd[k].b == hp->hd[u].b &&
			    rhp->hd[k].e == hp->hd[u].e)
				break;
		if (k < rhp->nhd) {
			hp->hd[u] = copy->hd[k];
			continue;
		}
		p = WS_Copy(hp->ws, hp->hd[u].b, TXT_LEN(hp->hd[u]));
		if (p == NULL)
			return (-1);
		hp->hd[u] = TXT_Make(p, p + TXT_LEN(hp->hd[u]));
	}
	return (0);
}

static int
bo_build_miss(struct busyobj *bo, struct req *req,
    const struct objcore *stale)
{
	static const char * const drop[] = {
		"Range", "If-Range", "If-None-Match", "If-Modified-Since",
		"If-Match", "If-Unmodified-Since", "Transfer-Encoding",
	};
	struct http *rhp = req->http;
	unsigned char *hdf;
	unsigned u;

	/* Filter them for the copy only: the request keeps them. */
	hdf = WS_Alloc(bo->ws, rhp->nhd);
	if (hdf == NULL)
		return (-1);
	memcpy(hdf, rhp->hdf, rhp->nhd);
	for (u = 0; u < ARRAY_SIZE(drop); u++)
		HTTP_Filter(rhp, drop[u]);
	bo_build_bereq(bo, req, "GET");
	memcpy(rhp->hdf, hdf, rhp->nhd);
	/* The cache wants gzip whatever this client takes: one object
	 * serves both kinds, uncompressed on delivery when needed. */
	if (cache_param->http_gzip_support) {
		HTTP_Unset(bo->bereq, "Accept-Encoding");
		(void)HTTP_SetHeader(bo->bereq, "Accept-Encoding: gzip");
	}
	if (stale != NULL && stale->obj != NULL)
		bo_conditional(bo, stale);
	/*
	 * The request may end before the fetch: own every string.  The
	 * request as it came (to know its Vary'd values) is copied once,
	 * and bereq shares those copies, so the largest legal request
	 * (http_req_size) costs workspace_backend its size, not twice it.
	 */
	bo->bereq0 = HTTP_New(bo->ws, rhp->nhd, bo->vsl, SLT_BereqMethod);
	if (bo->bereq0 == NULL || HTTP_Clone(bo->bereq0, rhp) != 0 ||
	    HTTP_Detach(bo->bereq0) != 0)
		return (-1);
	return (bo_detach_shared(bo->bereq, rhp, bo->bereq0));
}

int
FETCH_Miss(struct worker *wrk, struct req *req, struct objcore **ocp,
    struct objcore **stalep, unsigned bg)
{
	struct busyobj *bo;
	struct objcore *oc;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	TAKE_OBJ_NOTNULL(oc, ocp, OBJCORE_MAGIC);
	CHECK_OBJ(oc->boc, BOC_MAGIC);
	bo = bo_new(wrk, req, bg ? "bgfetch" : "fetch");
	if (bo != NULL && bo_build_miss(bo, req, stalep == NULL ? NULL :
	    *stalep) != 0) {
		VSC_Count(wrk->stats, ws_backend_overflow, 1);
		VSLb(bo->vsl, SLT_Error, "workspace_backend overflow copying "
		    "the request; raise workspace_backend");
		VSLb(req->vsl, SLT_Error, "workspace_backend overflow");
		FETCH_Finish(&bo);
	}
	if (bo == NULL) {
		if (stalep != NULL && *stalep != NULL)
			(void)OBJ_Deref(stalep);
		if (oc->objhead != NULL)
			HSH_Fail(wrk, oc);
		BOC_SetState(oc->boc, BOS_FAILED);
		HSH_DetachBoc(oc);
		(void)OBJ_Deref(&oc);
		return (-1);
	}
	VSC_Count(wrk->stats, s_fetch, 1);
	bo->fetch_oc = oc;
	if (stalep != NULL && *stalep != NULL)
		TAKE_OBJ_NOTNULL(bo->stale_oc, stalep, OBJCORE_MAGIC);
	oc->xid = bo->vxid;
	bo->boc = oc->boc;
	BOC_Ref(bo->boc);
	bo->is_bg = bg;
	bo->director = req->director_hint;
	bo->req = NULL;
	bo->interim_req = bg ? NULL : req;
	VCL_RefThis(bo->vcl);
	bo->task.func = bo_fetch_task;
	bo->task.priv = bo;
	/* TASK_BO is never refused: it may exceed the queue limit. */
	ASSERT_ZERO(POOL_Task(bo->pool, &bo->task, TASK_BO));
	return (0);
}

struct objcore *
FETCH_PassStore(struct worker *wrk, struct busyobj *bo)
{
	struct objcore *oc;
	uint64_t hint;
	int i;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	assert(bo->is_pass && bo->boc == NULL);
	bo_gzip_plan(bo);
	hint = bo->bs == BS_LENGTH ? bo->content_length :
	    bo->bs == BS_NONE ? 0 : UINT64_MAX;
	if (bo->gzip_mode == GZIP_M_GUNZIP || bo->gzip_mode == GZIP_M_GZIP)
		hint = UINT64_MAX;
	oc = OBJ_NewCore();
	if (oc == NULL)
		return (NULL);
	oc->flags = OC_F_PRIVATE;
	oc->xid = bo->vxid;
	oc->t_origin = bo->t_origin;
	bo->boc = BOC_New(oc);
	if (bo->boc == NULL || OBJ_New(wrk, oc, stv_transient, bo->beresp,
	    hint, NULL, 0, NULL) == NULL) {
		VSLb(bo->vsl, SLT_Error, "no room in storage Transient for "
		    "the ESI response");
		if (bo->boc != NULL)
			BOC_Deref(&bo->boc);
		(void)OBJ_Deref(&oc);
		return (NULL);
	}
	oc->obj->gzipped = bo->gzipped;
	oc->obj->changed_ce = bo->changed_ce;
	oc->obj->esi_gzip = bo->esi_gzip;
	i = bo_store_body(wrk, bo, oc);
	BOC_SetState(bo->boc, i < 0 ? BOS_FAILED : BOS_FINISHED);
	BOC_Deref(&bo->boc);
	if (i < 0)
		(void)OBJ_Deref(&oc);
	return (oc);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fetch.c -- the backend request state machine: build the backend
 * request, vcl_backend_fetch, send and receive (retrying once on a fresh
 * connection when a kept-alive one turns out closed), vcl_backend_response,
 * and on failure vcl_backend_error's synthetic response.  Owns struct
 * busyobj; runs on the client's worker, so no locks.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/child.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/http1_fetch.h"
#include "cache/mempool.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

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
	vslbuf = WS_Alloc(bo->ws, (size_t)(cache_param->vsl_buffer & ~3ULL));
	cap = (size_t)cache_param->http_resp_size + 1;
	bo->rx_b = WS_Alloc(bo->ws, cap);
	/* PARAM_Check keeps workspace_backend above http_resp_size. */
	assert(vslbuf != NULL && bo->rx_b != NULL);
	VSL_Setup(bo->vsl, vslbuf, (size_t)(cache_param->vsl_buffer & ~3ULL));
	bo->bereq = HTTP_New(bo->ws, cache_param->http_max_hdr + 8, bo->vsl,
	    SLT_BereqMethod);
	bo->beresp = HTTP_New(bo->ws, cache_param->http_max_hdr + 8, bo->vsl,
	    SLT_BerespMethod);
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
	bo->rx_l = bo->rx_b + cap;
	bo->rx_p = bo->rx_e = bo->rx_b;
	bo->wrk = wrk;
	bo->req = req;
	bo->vcl = req->vcl;
	bo->vxid = WRK_NewVxid(wrk);
	VSL_SetId(bo->vsl, bo->vxid | VSL_BACKENDMARKER);
	VSLb(bo->vsl, SLT_Begin, "bereq %u %s", req->vxid, why);
	VSLb(req->vsl, SLT_Link, "bereq %u %s", bo->vxid, why);
	bo->t_first = bo->t_prev = TIM_real();
	VSLb_ts(bo->vsl, "Start", bo->t_first, &bo->t_prev, bo->t_first);
	return (bo);
}

static void
bo_free(struct busyobj **bop)
{
	struct busyobj *bo;
	struct req *req;

	TAKE_OBJ_NOTNULL(bo, bop, BUSYOBJ_MAGIC);
	assert(bo->vbc == NULL);
	VSLb(bo->vsl, SLT_BereqAcct, "%ju %ju %ju %ju %ju %ju",
	    (uintmax_t)bo->acct_bereq_hdr, (uintmax_t)bo->acct_bereq_body,
	    (uintmax_t)(bo->acct_bereq_hdr + bo->acct_bereq_body),
	    (uintmax_t)bo->acct_beresp_hdr, (uintmax_t)bo->acct_beresp_body,
	    (uintmax_t)(bo->acct_beresp_hdr + bo->acct_beresp_body));
	VSLb(bo->vsl, SLT_End, "%s", "");
	VSL_Flush(bo->vsl);
	req = bo->req;
	bo->magic = 0;
	MPL_Free(POOL_MplBo(req->sp->pool), bo);
}

/*
 * Copy the client request into the backend request.  Hop-by-hop headers
 * were flagged when the request was parsed; the body's framing is written
 * by H1F_Send.  Pass answers 100-continue itself; pipe leaves it to the
 * backend.
 */
static void
bo_build_bereq(struct busyobj *bo, const struct req *req)
{
	struct http *bereq = bo->bereq;
	struct http *rhp = req->http;

	HTTP_Filter(rhp, "Content-Length");
	if (!bo->is_pipe)
		HTTP_Filter(rhp, "Expect");
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
	ctx->http_bereq = bo->bereq;
	ctx->http_beresp = bo->beresp;
	ctx->now = TIM_real();
}

static enum vcl_ret
bo_method(struct busyobj *bo, enum vcl_method m)
{
	struct vrt_ctx ctx;

	bo_ctx(bo, &ctx);
	return (VCL_Method(bo->vcl, m, &ctx));
}

static void
bo_close(struct busyobj *bo, const char *why)
{

	if (bo->vbc != NULL)
		BACKEND_Close(&bo->vbc, bo->vsl, why);
}

/* The request is idempotent and its body (if any) can be sent again. */
struct bo_body_mark {
	char			*rx_p;
	uint64_t		body_left;
	uint64_t		body_bytes;
	enum req_body_state	body_state;
	struct h1_chunked	chunked;
};

static void
bo_body_mark(const struct req *req, struct bo_body_mark *m)
{

	m->rx_p = req->rx_p;
	m->body_left = req->body_left;
	m->body_bytes = req->body_bytes;
	m->body_state = req->body_state;
	m->chunked = req->body_chunked;
}

static int
bo_can_retry(struct busyobj *bo, const struct bo_body_mark *m)
{
	static const char * const idem[] = {
		"GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE",
	};
	struct req *req = bo->req;
	const char *method = bo->bereq->hd[HTTP_HDR_METHOD].b;
	unsigned u;

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

/* Connect, send, receive the head.  0, or H1F_ERROR / H1F_REQBODY. */
static int
bo_fetch_once(struct worker *wrk, struct busyobj *bo)
{
	struct bo_body_mark mark;
	unsigned attempt, nothing, reused;
	int i;

	if (bo->director == NULL || bo->director->backend == NULL) {
		VSLb(bo->vsl, SLT_FetchError, "no backend");
		return (H1F_ERROR);
	}
	if (bo->req->body_state != RB_NONE &&
	    bo->req->body_state != RB_UNREAD) {
		/* A VCL retry or restart after the body went out. */
		VSLb(bo->vsl, SLT_FetchError,
		    "the request body was already sent and cannot be sent "
		    "again");
		return (H1F_ERROR);
	}
	bo->backend = bo->director->backend;
	bo->connect_timeout = BACKEND_ConnectTimeout(bo->backend);
	bo->first_byte_timeout = BACKEND_FirstByteTimeout(bo->backend);
	bo->between_bytes_timeout = BACKEND_BetweenBytesTimeout(bo->backend);
	if (!HTTP_GetHdr(bo->bereq, "Host", NULL) &&
	    BACKEND_HostHeader(bo->backend) != NULL)
		(void)HTTP_PrintfHeader(bo->bereq, "Host: %s",
		    BACKEND_HostHeader(bo->backend));
	bo_body_mark(bo->req, &mark);
	for (attempt = 0; attempt < 2; attempt++) {
		assert(bo->vbc == NULL);
		bo->vbc = BACKEND_GetConn(bo->backend, wrk, bo->vsl,
		    bo->connect_timeout, attempt > 0, &reused);
		if (bo->vbc == NULL)
			return (H1F_ERROR);
		bo->reused = reused;
		i = H1F_Send(bo, 1);
		if (i == H1F_REQBODY)
			return (i);
		VSLb_ts(bo->vsl, "Bereq", bo->t_first, &bo->t_prev,
		    TIM_real());
		nothing = 1;
		if (i == H1F_OK)
			i = H1F_RecvHead(bo, &nothing);
		if (i == H1F_OK) {
			VSLb_ts(bo->vsl, "Beresp", bo->t_first, &bo->t_prev,
			    TIM_real());
			return (H1F_OK);
		}
		bo_close(bo, "error");
		if (!reused || !nothing || !bo_can_retry(bo, &mark))
			return (H1F_ERROR);
		VSC_Count(wrk->stats, backend_retry, 1);
		VSLb(bo->vsl, SLT_FetchError,
		    "kept-alive connection was closed; retrying on a new one");
	}
	return (H1F_ERROR);
}

/* vcl_backend_error with a fresh synthetic 503. */
static enum vcl_ret
bo_error(struct worker *wrk, struct busyobj *bo)
{
	char date[TIM_FORMAT_SIZE];

	bo_close(bo, "error");
	VSC_Count(wrk->stats, fetch_failed, 1);
	HTTP_Clear(bo->beresp);
	bo->beresp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	HTTP_SetStatus(bo->beresp, 503, "Backend fetch failed");
	TIM_format(TIM_real(), date);
	(void)HTTP_PrintfHeader(bo->beresp, "Date: %s", date);
	(void)HTTP_SetHeader(bo->beresp, "Server: Veneer");
	bo->synth = 1;
	bo->synth_body = NULL;
	bo->synth_len = 0;
	bo->bs = BS_NONE;
	bo->body_done = 1;
	return (bo_method(bo, VCL_MET_BACKEND_ERROR));
}

int
FETCH_Pass(struct worker *wrk, struct req *req)
{
	struct busyobj *bo;
	enum vcl_ret ret;
	int i;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	assert(req->bo == NULL);
	bo = bo_new(wrk, req, "pass");
	if (bo == NULL)
		return (-1);
	req->bo = bo;
	VSC_Count(wrk->stats, s_fetch, 1);
	bo_build_bereq(bo, req);
	bo->director = req->director_hint;
	ret = bo_method(bo, VCL_MET_BACKEND_FETCH);
	for (;;) {
		switch (ret) {
		case VCL_RET_FETCH:
			i = bo_fetch_once(wrk, bo);
			if (i == H1F_REQBODY) {
				bo_close(bo, "request body failed");
				return (-2);
			}
			if (i != H1F_OK) {
				ret = bo_error(wrk, bo);
				continue;
			}
			ret = bo_method(bo, VCL_MET_BACKEND_RESPONSE);
			if (ret == VCL_RET_DELIVER || ret == VCL_RET_PASS)
				return (0);
			if (ret == VCL_RET_ERROR || ret == VCL_RET_FAIL) {
				ret = bo_error(wrk, bo);
				continue;
			}
			break;
		case VCL_RET_DELIVER:
			assert(bo->synth);
			return (0);
		case VCL_RET_ERROR:
		case VCL_RET_FAIL:
			if (bo->synth)
				return (-1);
			ret = bo_error(wrk, bo);
			continue;
		case VCL_RET_RETRY:
			break;
		case VCL_RET_ABANDON:
			bo_close(bo, "abandoned");
			return (-1);
		default:
			WRONG("backend method return");
		}
		if (ret != VCL_RET_RETRY)
			continue;
		bo_close(bo, "retry");
		if (bo->retries++ >= cache_param->max_retries) {
			VSLb(bo->vsl, SLT_FetchError,
			    "too many retries (max_retries %u)",
			    cache_param->max_retries);
			ret = bo->synth ? VCL_RET_ABANDON : bo_error(wrk, bo);
			continue;
		}
		bo->synth = 0;
		HTTP_Clear(bo->beresp);
		ret = bo_method(bo, VCL_MET_BACKEND_FETCH);
	}
}

void
FETCH_Finish(struct busyobj **bop)
{
	struct busyobj *bo;

	TAKE_OBJ_NOTNULL(bo, bop, BUSYOBJ_MAGIC);
	if (bo->vbc != NULL) {
		if (bo->body_done && !bo->failed && !bo->must_close &&
		    bo->bs != BS_EOF && bo->in_b == bo->in_e)
			BACKEND_Recycle(&bo->vbc, bo->vsl);
		else
			BACKEND_Close(&bo->vbc, bo->vsl, bo->body_done ?
			    "close" : "body not consumed");
	}
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
	bo_build_bereq(bo, req);
	(void)HTTP_SetHeader(bo->bereq, "Connection: close");
	bo->director = req->director_hint;
	return (bo);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * req_fsm.c -- the client request state machine: recv, pass, pipe, hash,
 * miss, fetch, deliver, synth, transmit.  Each step calls its VCL method
 * and obeys the action it returns; restart goes back to recv, bounded by
 * max_restarts.  One function per step.  Runs on the session's worker;
 * no locks.
 *
 * XXX issue 5: the lookup and the cache; until then a lookup always
 * misses and the fetch is not stored.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/fmt.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/child.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vcl.h"
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
	ctx->http_req = req->http;
	ctx->http_req_top = req->http;
	ctx->http_resp = req->resp;
	ctx->now = TIM_real();
}

static enum vcl_ret
req_method(struct req *req, enum vcl_method m)
{
	struct vrt_ctx ctx;

	req_ctx(req, &ctx);
	return (VCL_Method(req->vcl, m, &ctx));
}

static void
req_synth(struct req *req, unsigned status, const char *reason)
{

	req->err_code = (uint16_t)status;
	req->err_reason = reason;
	req->step = R_STP_SYNTH;
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
	req->step = R_STP_DONE;
	return (1);
}

static void
req_restart(struct req *req)
{

	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	if (req->restarts >= cache_param->max_restarts) {
		VSLb(req->vsl, SLT_VCL_Error, "Too many restarts");
		req_synth(req, 503, NULL);
		return;
	}
	req->restarts++;
	req->resp = NULL;
	req->synth_body = NULL;
	req->synth_len = 0;
	req->step = R_STP_RECV;
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

static void
req_step_recv(struct worker *wrk, struct req *req)
{
	enum vcl_ret ret;

	(void)wrk;
	if (req->restarts == 0)
		req_xff(req);
	req->director_hint = VCL_DefaultDirector(req->vcl);
	ret = req_method(req, VCL_MET_RECV);
	if (req_ws_check(req))
		return;
	/* As in Varnish, vcl_hash runs for everything that is looked up,
	 * passed or purged. */
	if ((ret == VCL_RET_PASS || ret == VCL_RET_HASH ||
	    ret == VCL_RET_PURGE) &&
	    req_method(req, VCL_MET_HASH) != VCL_RET_LOOKUP) {
		req_synth(req, 503, "VCL failed");
		return;
	}
	switch (ret) {
	case VCL_RET_PASS:
		req->step = R_STP_PASS;
		break;
	case VCL_RET_PIPE:
		req->step = R_STP_PIPE;
		break;
	case VCL_RET_HASH:
		/* XXX issue 5: the lookup; without a cache every one misses. */
		req->step = R_STP_MISS;
		break;
	case VCL_RET_SYNTH:
		req->step = R_STP_SYNTH;
		break;
	case VCL_RET_RESTART:
		req_restart(req);
		break;
	case VCL_RET_PURGE:
		/* XXX issue 5: purging needs the cache. */
		req_synth(req, 501, "Purge not available");
		break;
	case VCL_RET_VCL:
		req_synth(req, 503, "VCL switching not available");
		break;
	default:
		req->doclose = SC_VCL_FAILURE;
		req_synth(req, 503, "VCL failed");
		break;
	}
}

static void
req_step_pass(struct worker *wrk, struct req *req)
{

	VSC_Count(wrk->stats, s_pass, 1);
	switch (req_method(req, VCL_MET_PASS)) {
	case VCL_RET_FETCH:
		req->step = R_STP_FETCH;
		break;
	case VCL_RET_SYNTH:
		req->step = R_STP_SYNTH;
		break;
	case VCL_RET_RESTART:
		req_restart(req);
		break;
	default:
		req_synth(req, 503, "VCL failed");
		break;
	}
}

static void
req_step_miss(struct worker *wrk, struct req *req)
{

	(void)wrk;
	switch (req_method(req, VCL_MET_MISS)) {
	case VCL_RET_FETCH:
		req->step = R_STP_FETCH;
		break;
	case VCL_RET_PASS:
		req->step = R_STP_PASS;
		break;
	case VCL_RET_SYNTH:
		req->step = R_STP_SYNTH;
		break;
	case VCL_RET_RESTART:
		req_restart(req);
		break;
	default:
		req_synth(req, 503, "VCL failed");
		break;
	}
}

static void
req_step_fetch(struct worker *wrk, struct req *req)
{
	int i;

	i = FETCH_Pass(wrk, req);
	if (i == 0) {
		VSLb_ts(req->vsl, "Fetch", req->t_first, &req->t_prev,
		    TIM_real());
		req->step = R_STP_DELIVER;
		return;
	}
	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	if (i == -2) {
		/* The client's body failed: 400/413, or it is gone. */
		if (req->err_code == 0) {
			req->step = R_STP_DONE;
			if (req->doclose == SC_NULL)
				req->doclose = SC_RX_BODY;
			return;
		}
		req->doclose = SC_RX_BODY;
		req->linger = 1;
		req_synth(req, req->err_code, NULL);
		return;
	}
	req_synth(req, 503, NULL);
}

static void
req_common_resp(struct req *req)
{
	char date[TIM_FORMAT_SIZE];

	if (!HTTP_GetHdr(req->resp, "Date", NULL)) {
		TIM_format(TIM_real(), date);
		(void)HTTP_PrintfHeader(req->resp, "Date: %s", date);
	}
	(void)HTTP_PrintfHeader(req->resp, "X-Varnish: %u", req->vxid);
	(void)HTTP_SetHeader(req->resp, child_via);
}

/* resp from beresp: status, headers but hop-by-hop and framing ones. */
static void
req_resp_from_beresp(struct req *req)
{
	struct http *beresp = req->bo->beresp;
	struct txt cl;
	unsigned status = beresp->status;

	/* Room for our own headers beyond what the backend sent. */
	req->resp = HTTP_New(req->ws, cache_param->http_max_hdr + 8,
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

static void
req_step_deliver(struct worker *wrk, struct req *req)
{

	(void)wrk;
	req_resp_from_beresp(req);
	if (req->resp == NULL)
		WS_MarkOverflow(req->ws);
	if (req_ws_check(req))
		return;
	switch (req_method(req, VCL_MET_DELIVER)) {
	case VCL_RET_DELIVER:
		req->step = R_STP_TRANSMIT;
		break;
	case VCL_RET_SYNTH:
		FETCH_Finish(&req->bo);
		req->step = R_STP_SYNTH;
		break;
	case VCL_RET_RESTART:
		req_restart(req);
		break;
	default:
		FETCH_Finish(&req->bo);
		req_synth(req, 503, "VCL failed");
		break;
	}
	if (req->step == R_STP_TRANSMIT)
		(void)req_ws_check(req);
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

static void
req_step_synth(struct worker *wrk, struct req *req)
{
	unsigned status;

	VSC_Count(wrk->stats, s_synth, 1);
	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	status = req->err_code;
	if (status < 100 || status > 999)
		status = 503;
	req->resp = HTTP_New(req->ws, cache_param->http_max_hdr + 8,
	    req->vsl, SLT_RespMethod);
	if (req->resp == NULL)
		WS_MarkOverflow(req->ws);
	if (req_ws_check(req))
		return;
	req->resp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	req->resp->protover = 11;
	HTTP_SetStatus(req->resp, (uint16_t)status, req->err_reason);
	(void)HTTP_SetHeader(req->resp, "Server: Veneer");
	req_common_resp(req);
	req->synth_body = NULL;
	req->synth_len = 0;
	switch (req_method(req, VCL_MET_SYNTH)) {
	case VCL_RET_DELIVER:
		req->step = R_STP_TRANSMIT;
		break;
	case VCL_RET_RESTART:
		if (req->restarts < cache_param->max_restarts) {
			req_restart(req);
			return;
		}
		VSLb(req->vsl, SLT_VCL_Error, "Too many restarts");
		req_minimal_resp(req, 503);
		req->step = R_STP_TRANSMIT;
		break;
	default:
		req_minimal_resp(req, 500);
		req->step = R_STP_TRANSMIT;
		break;
	}
	(void)req_ws_check(req);
}

static void
req_step_transmit(struct worker *wrk, struct req *req)
{

	VSLb_ts(req->vsl, "Process", req->t_first, &req->t_prev, TIM_real());
	H1_Transmit(wrk, req);
	if (req->bo != NULL)
		FETCH_Finish(&req->bo);
	req->step = R_STP_DONE;
}

static void
req_finish(struct worker *wrk, struct req *req)
{

	assert(req->bo == NULL);
	VSC_Count(wrk->stats, s_req_bodybytes, req->acct_req_body);
	VSLb_ts(req->vsl, "Resp", req->t_first, &req->t_prev, TIM_real());
	VSLb(req->vsl, SLT_ReqAcct, "%ju %ju %ju %ju %ju %ju",
	    (uintmax_t)req->acct_req_hdr, (uintmax_t)req->acct_req_body,
	    (uintmax_t)(req->acct_req_hdr + req->acct_req_body),
	    (uintmax_t)req->acct_resp_hdr, (uintmax_t)req->acct_resp_body,
	    (uintmax_t)(req->acct_resp_hdr + req->acct_resp_body));
	VSLb(req->vsl, SLT_End, "%s", "");
	VCL_Rel(&req->vcl);
}

void
REQ_Process(struct worker *wrk, struct req *req)
{

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	assert(req->vcl == NULL);
	req->vcl = VCL_Ref();
	req->step = R_STP_RECV;
	while (req->step != R_STP_DONE) {
		switch (req->step) {
		case R_STP_RECV:	req_step_recv(wrk, req); break;
		case R_STP_PASS:	req_step_pass(wrk, req); break;
		case R_STP_PIPE:
			req->step = (enum req_step)FETCH_Pipe(wrk, req);
			break;
		case R_STP_MISS:	req_step_miss(wrk, req); break;
		case R_STP_FETCH:	req_step_fetch(wrk, req); break;
		case R_STP_DELIVER:	req_step_deliver(wrk, req); break;
		case R_STP_SYNTH:	req_step_synth(wrk, req); break;
		case R_STP_TRANSMIT:	req_step_transmit(wrk, req); break;
		default:		WRONG("request step");
		}
	}
	req_finish(wrk, req);
}

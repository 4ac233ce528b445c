/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * req.c -- struct req memory: one block from the pool's free list holds
 * the struct and its workspace; the receive buffer and log buffer are
 * carved first and survive from one request to the next on a connection.
 */

#include "config.h"

#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/mempool.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vsc.h"


static size_t
req_size(void)
{

	return (sizeof(struct req) + (size_t)cache_param->workspace_client);
}

struct req *
REQ_New(struct worker *wrk, struct sess *sp)
{
	struct req *req;
	size_t sz = req_size(), cap;
	void *vslbuf;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(sp, SESS_MAGIC);
	req = MPL_Get(POOL_MplReq(sp->pool), sz);
	if (req == NULL)
		return (NULL);
	INIT_OBJ(req, REQ_MAGIC);
	req->sp = sp;
	req->wrk = wrk;
	WS_Init(req->ws, "req", req + 1, sz - sizeof *req);
	vslbuf = WS_Alloc(req->ws, (size_t)(cache_param->vsl_buffer & ~3ULL));
	req->rx_hlim = (size_t)cache_param->http_req_size;
	cap = req->rx_hlim + PARAM_WS_RX_BODY_ROOM;
	req->rx_b = WS_Alloc(req->ws, cap);
	/* PARAM_Check keeps workspace_client above http_req_size. */
	assert(vslbuf != NULL && req->rx_b != NULL);
	VSL_Setup(req->vsl, vslbuf, (size_t)(cache_param->vsl_buffer & ~3ULL));
	req->rx_l = req->rx_b + cap;
	req->rx_p = req->rx_b;
	req->rx_e = req->rx_b;
	H1_ScanInit(&req->rx_scan);
	if (sp->rx_len > req->rx_hlim) {
		/* Parked before http_req_size was lowered: too big now. */
		req->magic = 0;
		MPL_Free(POOL_MplReq(sp->pool), req);
		return (NULL);
	}
	if (sp->rx_len > 0) {
		/* A partial request kept while the session was parked. */
		memcpy(req->rx_b, sp->rx_buf, sp->rx_len);
		req->rx_e += sp->rx_len;
		req->rx_scan = sp->rx_scan;
		SES_RxRelease(sp);
	}
	req->ws_req = WS_Snapshot(req->ws);
	REQ_Reset(req, REQ_RESET_REQUEST);
	return (req);
}

struct req *
REQ_NewEsi(struct req *parent)
{
	struct req *req;
	size_t sz = req_size();
	void *vslbuf;

	CHECK_OBJ(parent, REQ_MAGIC);
	CHECK_OBJ(parent->sp, SESS_MAGIC);
	req = MPL_Get(POOL_MplReq(parent->sp->pool), sz);
	if (req == NULL)
		return (NULL);
	INIT_OBJ(req, REQ_MAGIC);
	req->sp = parent->sp;
	req->wrk = parent->wrk;
	WS_Init(req->ws, "req", req + 1, sz - sizeof *req);
	vslbuf = WS_Alloc(req->ws, (size_t)(cache_param->vsl_buffer & ~3ULL));
	/* PARAM_Check keeps workspace_client above vsl_buffer. */
	assert(vslbuf != NULL);
	VSL_Setup(req->vsl, vslbuf, (size_t)(cache_param->vsl_buffer & ~3ULL));
	req->ws_req = WS_Snapshot(req->ws);
	REQ_Reset(req, REQ_RESET_REQUEST);
	req->top = parent->top;
	req->esi_level = parent->esi_level + 1;
	return (req);
}

void
REQ_Free(struct req **reqp)
{
	struct req *req;
	struct sess *sp;

	TAKE_OBJ_NOTNULL(req, reqp, REQ_MAGIC);
	assert(req->bo == NULL);
	assert(req->vcl == NULL);
	PANIC_SetReq(NULL);
	VSL_Flush(req->vsl);
	sp = req->sp;
	CHECK_OBJ(sp, SESS_MAGIC);
	req->magic = 0;
	MPL_Free(POOL_MplReq(sp->pool), req);
}

void
REQ_Recycle(struct req *req)
{
	size_t left;

	CHECK_OBJ(req, REQ_MAGIC);
	assert(req->bo == NULL);
	assert(req->vcl == NULL);
	left = (size_t)(req->rx_e - req->rx_p);
	if (left > 0 && req->rx_p != req->rx_b)
		memmove(req->rx_b, req->rx_p, left);
	req->rx_p = req->rx_b;
	req->rx_e = req->rx_b + left;
	/* The scan stopped at the end of the last head: start afresh. */
	H1_ScanInit(&req->rx_scan);
	WS_Reset(req->ws, req->ws_req);
	REQ_Reset(req, REQ_RESET_REQUEST);
}

void
REQ_Reset(struct req *req, enum req_reset how)
{

	CHECK_OBJ(req, REQ_MAGIC);
	/* Released by the caller: nothing may leak through a reset. */
	assert(req->bo == NULL);
	assert(req->objcore == NULL && req->boc == NULL);
	assert(req->busy == NULL && req->stale == NULL);
	/* What a restart starts afresh, and a new request too. */
	req->resp = NULL;
	req->obj_http = NULL;
	req->synth_body = NULL;
	req->synth_len = 0;
	req->waits = 0;
	req->force_miss = 0;
	req->is_hit = req->is_grace = req->is_hitmiss = req->is_hitpass = 0;
	req->is_collapsed = req->is_pass = req->is_stored = 0;
	req->is_stale_error = req->is_reval = 0;
	req->fwd_status = 0;
	req->range_lo = 0;
	req->range_hi = UINT64_MAX;
	req->gunzip = 0;
	req->gzip_out = 0;
	if (how == REQ_RESET_RESTART)
		return;
	/* A new request: everything else it had goes too. */
	assert(req->vcl == NULL && req->vcl0 == NULL);
	req->vcl_label = NULL;
	req->http0 = NULL;
	req->ws_vcl = 0;
	req->vxid = 0;
	req->step = R_STP_RECV;
	req->restarts = 0;
	req->doclose = SC_NULL;
	req->http = NULL;
	req->director_hint = NULL;
	req->client_identity = NULL;
	req->hash_always_miss = 0;
	req->hash_ignore_busy = 0;
	req->hash_ignore_vary = 0;
	req->rx_body = NULL;
	req->body_bs = BS_NONE;
	req->body_state = RB_NONE;
	req->body_cl = 0;
	req->body_cl_sent = 0;
	req->body_left = 0;
	req->body_bytes = 0;
	req->want100 = 0;
	req->sent100 = 0;
	req->body_socket = 0;
	req->t_body_end = 0;
	req->err_code = 0;
	req->err_reason = NULL;
	req->acct_req_hdr = 0;
	req->acct_req_body = 0;
	req->acct_resp_hdr = 0;
	req->acct_resp_body = 0;
	req->t_first = 0;
	req->t_prev = 0;
	req->t_rx_mono = 0;
	req->is_head = 0;
	req->proto11 = 0;
	req->ws_overflow = 0;
	req->linger = 0;
	/*
	 * req_finish ended the modules' states of a request that ran VCL
	 * (the workspace they were on is reset by now).
	 */
	PRIV_Init(req->privs_task, req->ws);
	PRIV_Init(req->privs_top, req->ws);
	req->top = req;
	req->esi_level = 0;
	req->esi_off = 0;
	req->esi_failed = 0;
	req->esi_ctx = NULL;
}

void
REQ_CountStatus(struct worker *wrk, unsigned status)
{

	if (status >= 500) {
		VSC_Count(wrk->stats, client_resp_5xx, 1);
		if (status == 500)
			VSC_Count(wrk->stats, client_resp_500, 1);
	} else if (status >= 400) {
		VSC_Count(wrk->stats, client_resp_4xx, 1);
	}
}

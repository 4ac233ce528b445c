/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * esi_deliver.c -- delivering an object with ESI instructions: its kept
 * bytes go out, its dropped ones do not, and each include runs as a
 * request of its own (vcl_recv to vcl_deliver, hit, miss or pass) whose
 * body is written in its place, max_esi_depth levels deep at most.  All
 * of it is one response to the client: chunked (HTTP/1.1) or ended by
 * closing (HTTP/1.0), written through the top request's writer.
 *
 * An include runs on the worker of its parent, nested on its stack: the
 * parent holds its object until the include is done, so the include's
 * URL (in the instructions) and the top request's headers (which its
 * request copies) stay valid.  Each include takes one request block
 * (workspace_client) from the pool, given back when it ends.  No locks.
 */

#include "config.h"

#include <string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/esi.h"
#include "cache/fetch.h"
#include "cache/gzip.h"
#include "cache/http.h"
#include "cache/http1_write.h"
#include "cache/obj.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

/* One top response being written: shared by its includes. */
struct esi_ctx {
	unsigned		magic;
#define ESI_CTX_MAGIC		0x5fabe1bc
	struct h1w		*w;
	uint64_t		bytes;		/* body bytes written */
	unsigned		abort;		/* cut the top response short */
	struct gzip		*gz;		/* req->gzip_out: compresses */
	unsigned		gz_stopped;	/* its output failed */
};

int
ESI_Active(const struct req *req)
{
	const struct objcore *oc;

	CHECK_OBJ(req, REQ_MAGIC);
	oc = req->objcore;
	return (!req->esi_off && oc != NULL && oc->obj != NULL &&
	    OBJ_Esi(oc->obj) != NULL);
}

/* Compressed output: its buffer is reused, so it goes out now. */
static int
esi_gz_out(void *priv, const void *ptr, size_t len)
{
	struct esi_ctx *ec;

	CAST_OBJ_NOTNULL(ec, priv, ESI_CTX_MAGIC);
	H1W_Write(ec->w, ptr, len);
	return (H1W_Flush(ec->w) != 0);
}

static void
esi_write(struct esi_ctx *ec, const void *p, size_t len)
{

	if (len == 0)
		return;
	ec->bytes += len;
	if (ec->gz == NULL) {
		H1W_Write(ec->w, p, len);
		return;
	}
	if (ec->gz_stopped)
		return;
	/* A write error shows in ec->w->err; a zlib one cannot be. */
	switch (GZIP_Feed(ec->gz, p, len, 0, esi_gz_out, ec)) {
	case GZIP_OK:
		break;
	case GZIP_OUT:
		ec->gz_stopped = 1;
		break;
	default:
		WRONG("gzip of an ESI response failed");
	}
}

static int
esi_piece(void *priv, int flush, const void *ptr, size_t len)
{
	struct esi_ctx *ec;

	CAST_OBJ_NOTNULL(ec, priv, ESI_CTX_MAGIC);
	esi_write(ec, ptr, len);
	if (flush)
		(void)H1W_Flush(ec->w);
	return (ec->w->err != 0 || ec->abort);
}

/* The include's request: the top request as received, for src. */
static int
esi_include_http(struct req *req, const char *url, const char *host)
{
	const struct req *top = req->top;
	static const char * const drop[] = {
		/* No 304 and no 206: the body goes inside another. */
		"If-Modified-Since", "If-None-Match", "Range",
		/* Plain into the plain parent (a gzip object is
		 * uncompressed for it), and no body. */
		"Accept-Encoding", "Content-Length", "Transfer-Encoding",
	};
	unsigned u;

	req->http = HTTP_New(req->ws, HTTP_NHDR(cache_param->http_max_hdr),
	    req->vsl, SLT_ReqMethod);
	if (req->http == NULL || HTTP_Clone(req->http,
	    top->http0 != NULL ? top->http0 : top->http) != 0)
		return (-1);
	req->http->hd[HTTP_HDR_METHOD] = TXT_Str("GET");
	req->http->hd[HTTP_HDR_URL] = TXT_Str(url);
	req->http->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	req->http->protover = 11;
	for (u = 0; u < ARRAY_SIZE(drop); u++)
		HTTP_Unset(req->http, drop[u]);
	if (*host != '\0') {
		HTTP_Unset(req->http, "Host");
		if (HTTP_PrintfHeader(req->http, "Host: %s", host) != 0)
			return (-1);
	}
	HTTP_Log(req->http);
	req->proto11 = 1;
	return (0);
}

/* Run one include of preq's; its body goes to ec. */
static void
esi_include(struct req *preq, struct esi_ctx *ec, const char *url,
    const char *host, int how)
{
	struct worker *wrk = preq->wrk;
	struct vcl *vcl;
	struct req *req;

	if (preq->esi_level >= cache_param->max_esi_depth) {
		VSLb(preq->vsl, SLT_VCL_Error, "ESI depth limit reach (param "
		    "max_esi_depth = %u)", cache_param->max_esi_depth);
		return;
	}
	req = REQ_NewEsi(preq);
	if (req == NULL) {
		VSLb(preq->vsl, SLT_Error, "out of memory for the ESI include "
		    "of %s", url);
		return;
	}
	req->vxid = WRK_NewVxid(wrk);
	VSL_SetId(req->vsl, req->vxid | VSL_CLIENTMARKER);
	VSLb(req->vsl, SLT_Begin, "req %u esi", preq->vxid);
	VSLb(preq->vsl, SLT_Link, "req %u esi", req->vxid);
	req->t_first = req->t_prev = TIM_real();
	VSLb_ts(req->vsl, "Start", req->t_first, &req->t_prev, req->t_first);
	VSC_Count(wrk->stats, esi_req, 1);
	req->esi_ctx = ec;
	PANIC_SetReq(req);
	if (esi_include_http(req, url, host) != 0) {
		VSC_Count(wrk->stats, ws_client_overflow, 1);
		VSLb(req->vsl, SLT_Error, "workspace_client overflow (%ju "
		    "bytes) copying the request for an ESI include; raise "
		    "workspace_client",
		    (uintmax_t)cache_param->workspace_client);
		VSLb(req->vsl, SLT_End, "%s", "");
		req->esi_failed = 1;
	} else {
		/* The VCL the top request started in, as Varnish does. */
		vcl = preq->top->vcl0 != NULL ? preq->top->vcl0 : preq->vcl;
		VCL_RefThis(vcl);
		req->vcl = vcl;
		/* Its fetch may need the worker's workspace for a writer. */
		H1W_Suspend(ec->w);
		/* An include never awaits (FETCH_Pass: esi_level). */
		ASSERT_ZERO(REQ_Process(wrk, req));
		H1W_Resume(ec->w);
	}
	if (req->esi_failed && how == ESI_INCL_ABORT &&
	    PARAM_HasFeature(PARAM_FEATURE_ESI_INCLUDE_ONERROR))
		ec->abort = 1;
	REQ_Free(&req);
	PANIC_SetReq(preq);
}

/* Follow req's instructions; 0, or -1 when its body failed. */
static int
esi_walk(struct req *req, struct esi_ctx *ec)
{
	struct objcore *oc = req->objcore;
	const struct obj_esi *esi;
	const uint8_t *p, *end;
	const char *host, *url;
	uint64_t off = 0, n = 0;
	int op, how = 0;

	CHECK_OBJ_NOTNULL(oc, OBJCORE_MAGIC);
	/* Not streamed (fetch.c): the body is whole when we get it. */
	if (req->boc != NULL &&
	    BOC_Wait(req->boc, BOS_FINISHED, 0) != BOS_FINISHED)
		return (-1);
	esi = OBJ_Esi(oc->obj);
	CHECK_OBJ_NOTNULL(esi, OBJ_ESI_MAGIC);
	p = esi->ops;
	end = p + esi->len;
	while (p < end && !ec->abort && ec->w->err == 0) {
		op = ESI_NextOp(&p, end, &n, &how, &host, &url);
		switch (op) {
		case ESI_OP_VERBATIM:
			if (OBJ_Iterate(oc, NULL, off, off + n, ec,
			    esi_piece) < 0)
				return (-1);
			off += n;
			break;
		case ESI_OP_SKIP:
			off += n;
			break;
		case ESI_OP_INCLUDE:
			esi_include(req, ec, url, host, how);
			break;
		default:
			/* Written by esi_parse.c, read-only since. */
			WRONG("corrupt ESI instructions");
		}
	}
	return (0);
}

uint64_t
ESI_Deliver(struct req *req, struct h1w *w, int *failed)
{
	struct esi_ctx ec;

	CHECK_OBJ(req, REQ_MAGIC);
	CHECK_OBJ(w, H1W_MAGIC);
	assert(req->esi_level == 0 && ESI_Active(req));
	INIT_OBJ(&ec, ESI_CTX_MAGIC);
	ec.w = w;
	if (req->gzip_out) {
		ec.gz = GZIP_New(GZIP_M_GZIP, cache_param->gzip_level,
		    cache_param->gzip_memlevel,
		    (size_t)cache_param->gzip_buffer);
		if (ec.gz == NULL) {
			VSLb(req->vsl, SLT_Gzip, "Gzip error: no memory for "
			    "gzip_buffer (%ju bytes)",
			    (uintmax_t)cache_param->gzip_buffer);
			*failed = 1;
			return (0);
		}
	}
	*failed = esi_walk(req, &ec) < 0 || ec.abort;
	if (ec.gz != NULL) {
		/* Ended even when cut short: what was sent stays gzip. */
		if (!ec.gz_stopped && GZIP_Feed(ec.gz, "", 0, 1, esi_gz_out,
		    &ec) == GZIP_ERROR)
			WRONG("gzip of an ESI response failed");
		GZIP_Free(&ec.gz);
	}
	return (ec.bytes);
}

/* A pass include: the fetch's body as it comes. */
static int
esi_pass_piece(void *priv, const void *ptr, size_t len)
{
	struct esi_ctx *ec;

	CAST_OBJ_NOTNULL(ec, priv, ESI_CTX_MAGIC);
	esi_write(ec, ptr, len);
	/* ptr points into a buffer the next piece reuses (a gzip stream
	 * has taken it in already). */
	if (ec->gz == NULL)
		return (H1W_Flush(ec->w) != 0);
	return (ec->w->err != 0);
}

static int
esi_pass_body(struct req *req, struct esi_ctx *ec)
{
	struct busyobj *bo = req->bo;

	if (bo->synth) {
		esi_write(ec, bo->synth_body, bo->synth_len);
		return (0);
	}
	return (FETCH_PassBody(req->wrk, bo, req->gunzip, ec,
	    esi_pass_piece));
}

int
ESI_Transmit(struct req *req)
{
	struct esi_ctx *ec;
	uint64_t before;
	unsigned status;
	int i = 0;

	CHECK_OBJ(req, REQ_MAGIC);
	CAST_OBJ_NOTNULL(ec, req->esi_ctx, ESI_CTX_MAGIC);
	assert(req->esi_level > 0);
	before = ec->bytes;
	H1W_Resume(ec->w);
	status = req->resp->status % 1000u;
	if (status < 200 || status == 204 || status == 304)
		i = 0;
	else if (ESI_Active(req))
		i = esi_walk(req, ec);
	else if (req->objcore != NULL && req->gunzip)
		i = GZIP_Iterate(req->objcore, req->boc, GZIP_M_GUNZIP, 0,
		    UINT64_MAX, req->vsl, ec, esi_piece) < 0 ? -1 : 0;
	else if (req->objcore != NULL)
		i = OBJ_Iterate(req->objcore, req->boc, 0, UINT64_MAX, ec,
		    esi_piece) < 0 ? -1 : 0;
	else if (req->bo != NULL)
		i = esi_pass_body(req, ec);
	else
		esi_write(ec, req->synth_body, req->synth_len);
	H1W_Suspend(ec->w);
	req->acct_resp_body += ec->bytes - before;
	if (i < 0)
		req->esi_failed = 1;
	return (i);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_deliver.c -- writing a response to an HTTP/1 client: the head,
 * then the body streamed from the fetch (or the synthetic body), framed
 * with Content-Length when the length is known, chunked for HTTP/1.1
 * otherwise, and by closing the connection for HTTP/1.0.  Memory does not
 * grow with the body: each piece goes out before the next is read.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/fmt.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/child.h"
#include "cache/esi.h"
#include "cache/fetch.h"
#include "cache/gzip.h"
#include "cache/http.h"
#include "cache/http1_write.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

/* Does this response carry a body on the wire? */
static int
h1_has_body(const struct req *req, unsigned status)
{

	if (req->is_head)
		return (0);
	if (status < 200 || status == 204 || status == 304)
		return (0);
	return (1);
}

/*
 * Decide the framing and the connection's fate, into the header lines in
 * buf, written after resp's own headers.  They are not added to resp so
 * that neither VCL nor http_max_hdr can get them lost.  Returns 1 when
 * the body must be chunked.
 */
static int
h1_framing(struct req *req, int body, int esi, char *buf, size_t len)
{
	struct busyobj *bo = req->bo;
	int known = 0, chunked = 0;
	uint64_t blen = 0;
	size_t l = 0;

	*buf = '\0';
	if (req->objcore != NULL) {
		/* A cached object: its length, if known yet. */
		HTTP_Unset(req->resp, "Content-Length");
		HTTP_Unset(req->resp, "Transfer-Encoding");
		if (esi) {
			/* Its length is known once it has been written. */
			known = 0;
		} else if (req->range_hi != UINT64_MAX) {
			known = 1;
			blen = req->range_hi - req->range_lo;
		} else if (req->gzip_out) {
			known = 0;	/* compressed as it goes */
		} else if (req->gunzip) {
			/* Uncompressed: known once the object is whole. */
			blen = req->gunzip_len;
			known = blen != UINT64_MAX;
		} else if (req->boc == NULL) {
			known = 1;
			blen = req->objcore->obj->len;
		} else if (req->objcore->obj->len_hint != UINT64_MAX) {
			known = 1;
			blen = req->objcore->obj->len_hint;
		}
		if (known && (body || (req->is_head &&
		    req->resp->status >= 200 && req->resp->status != 204 &&
		    req->resp->status != 304)))
			l += (size_t)FMT_Snprintf(buf + l, len - l,
			    "Content-Length: %ju\r\n", (uintmax_t)blen);
		else if (body && req->proto11)
			chunked = 1;
		else if (body && req->doclose == SC_NULL)
			req->doclose = SC_TX_EOF;
	} else if (body) {
		/* Whatever VCL or the backend said, the framing is ours. */
		HTTP_Unset(req->resp, "Content-Length");
		HTTP_Unset(req->resp, "Transfer-Encoding");
		if (bo == NULL || bo->synth) {
			known = 1;
			blen = bo == NULL ? req->synth_len : bo->synth_len;
		} else if (req->gunzip || bo->gzip_mode == GZIP_M_GZIP ||
		    bo->gzip_mode == GZIP_M_GUNZIP) {
			known = 0;	/* (un)compressed as it goes */
		} else if (bo->bs == BS_LENGTH) {
			known = 1;
			blen = bo->content_length;
		} else if (bo->bs == BS_NONE) {
			known = 1;
		}
		if (known)
			l += (size_t)FMT_Snprintf(buf + l, len - l,
			    "Content-Length: %ju\r\n", (uintmax_t)blen);
		else if (req->proto11)
			chunked = 1;
		else if (req->doclose == SC_NULL)
			req->doclose = SC_TX_EOF;
	}
	HTTP_Unset(req->resp, "Connection");
	if (H1_ReqBodyPending(req)) {
		/* The rest of the request body is in the way: close. */
		if (req->doclose == SC_NULL)
			req->doclose = SC_RESP_CLOSE;
		req->linger = 1;
	}
	if (child_draining && req->doclose == SC_NULL)
		req->doclose = SC_RESP_CLOSE;
	if (req->doclose != SC_NULL)
		l += (size_t)FMT_Snprintf(buf + l, len - l, "Connection: close\r\n");
	else if (!req->proto11)
		l += (size_t)FMT_Snprintf(buf + l, len - l,
		    "Connection: keep-alive\r\n");
	if (chunked)
		l += (size_t)FMT_Snprintf(buf + l, len - l,
		    "Transfer-Encoding: chunked\r\n");
	assert(l < len);
	return (chunked);
}

/* Log the framing lines as RespHeader records, without the CRLFs. */
static void
h1_log_framing(struct req *req, const char *buf)
{
	const char *e;

	for (; *buf != '\0'; buf = e + 2) {
		e = strstr(buf, "\r\n");
		assert(e != NULL);
		VSLbt(req->vsl, SLT_RespHeader, TXT_Make(buf, e));
	}
}

static void
h1_write_head(struct h1w *w, const struct http *hp, const char *framing)
{
	unsigned u;

	H1W_WriteStr(w, "HTTP/1.1 ");
	H1W_WriteTxt(w, hp->hd[HTTP_HDR_STATUS]);
	H1W_WriteStr(w, " ");
	H1W_WriteTxt(w, hp->hd[HTTP_HDR_REASON]);
	H1W_WriteStr(w, "\r\n");
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++) {
		if (hp->hd[u].b == NULL)
			continue;
		H1W_WriteTxt(w, hp->hd[u]);
		H1W_WriteStr(w, "\r\n");
	}
	H1W_WriteStr(w, framing);
	H1W_WriteStr(w, "\r\n");
}

static int
h1_fetched_piece(void *priv, const void *ptr, size_t len)
{
	struct h1w *w;

	CAST_OBJ_NOTNULL(w, priv, H1W_MAGIC);
	H1W_Write(w, ptr, len);
	/* ptr points into a buffer the next piece reuses. */
	return (H1W_Flush(w) != 0);
}

/* Stream the fetch's body.  Returns 0, or -1 if the fetch failed. */
static int
h1_send_fetched(struct worker *wrk, struct req *req, struct h1w *w)
{

	return (FETCH_PassBody(wrk, req->bo, req->gunzip, w,
	    h1_fetched_piece));
}

static int
h1_obj_piece(void *priv, int flush, const void *ptr, size_t len)
{
	struct h1w *w;

	CAST_OBJ_NOTNULL(w, priv, H1W_MAGIC);
	if (len > 0)
		H1W_Write(w, ptr, len);
	if (flush)
		(void)H1W_Flush(w);
	return (w->err != 0);
}

void
H1_Transmit(struct worker *wrk, struct req *req)
{
	struct busyobj *bo;
	struct h1w w[1];
	uint64_t hdr_bytes, body_bytes = 0;
	char framing[128];
	int body, chunked, esi, failed = 0, i = 0;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	CHECK_OBJ(req->resp, HTTP_MAGIC);
	if (req->esi_level > 0) {
		/* An ESI include: its body goes into its parent's. */
		(void)ESI_Transmit(req);
		return;
	}
	bo = req->bo;
	/* VCL's internal statuses (synth(1333)) go out modulo 1000. */
	req->resp->status %= 1000;
	body = h1_has_body(req, req->resp->status);
	esi = ESI_Active(req);
	chunked = h1_framing(req, body, esi, framing, sizeof framing);
	h1_log_framing(req, framing);

	H1W_Open(w, wrk, req->sp->fd,
	    H1W_ClientDeadline(), cache_param->idle_send_timeout);
	h1_write_head(w, req->resp, framing);
	/* Not flushed: the head leaves with the first body bytes. */
	hdr_bytes = w->cnt + w->liov;
	if (body && w->err == 0) {
		if (chunked)
			H1W_Chunked(w);
		if (esi) {
			body_bytes = ESI_Deliver(req, w, &failed);
			i = failed ? -1 : 0;
		} else if (req->objcore != NULL && (req->gunzip ||
		    req->gzip_out))
			i = GZIP_Iterate(req->objcore, req->boc, req->gzip_out ?
			    GZIP_M_GZIP : GZIP_M_GUNZIP, req->range_lo,
			    req->range_hi, req->vsl, w, h1_obj_piece) < 0 ?
			    -1 : 0;
		else if (req->objcore != NULL)
			i = OBJ_Iterate(req->objcore, req->boc,
			    req->range_lo, req->range_hi, w,
			    h1_obj_piece) < 0 ? -1 : 0;
		else if (bo != NULL && !bo->synth)
			i = h1_send_fetched(wrk, req, w);
		else if (bo != NULL) {
			H1W_Write(w, bo->synth_body, bo->synth_len);
		} else {
			H1W_Write(w, req->synth_body, req->synth_len);
		}
		if (i < 0) {
			/*
			 * The backend failed mid-body: the client must see a
			 * truncated response, never a complete-looking one.
			 */
			req->doclose = SC_TX_ERROR;
		} else if (chunked) {
			H1W_EndChunked(w);
		}
	}
	if (H1W_Close(w) != 0) {
		VSLb(req->vsl, SLT_Debug, "Write error: %s",
		    strerror(w->err));
		req->doclose = SC_TX_ERROR;
		if (bo != NULL)
			bo->failed = 1;	/* do not reuse half-read conn */
	}
	if (w->cnt < hdr_bytes)
		hdr_bytes = w->cnt;
	/* ESI: the bytes of the pieces, as Varnish counts them. */
	if (!esi)
		body_bytes = w->cnt - hdr_bytes;
	req->acct_resp_hdr += hdr_bytes;
	req->acct_resp_body += body_bytes;
	VSC_Count(wrk->stats, s_resp_hdrbytes, hdr_bytes);
	VSC_Count(wrk->stats, s_resp_bodybytes, body_bytes);
	REQ_CountStatus(wrk, req->resp->status);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_fetch.c -- HTTP/1 to the backend: send the request (streaming the
 * client's body through), read the response head and body.  Runs on the
 * worker that owns the fetch; no locks.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/fmt.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/http1_fetch.h"
#include "cache/http1_parse.h"
#include "cache/http1_write.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

/* Is slot u one of the headers that frame a body? */
static int
h1f_is_framing(const struct http *hp, unsigned u)
{
	const struct txt *t = &hp->hd[u];

	return ((TXT_LEN(*t) > 15 && !strncasecmp(t->b, "Content-Length:",
	    15)) || (TXT_LEN(*t) > 18 && !strncasecmp(t->b,
	    "Transfer-Encoding:", 18)));
}

/*
 * The body's framing, from what the client sent: the backend reads
 * exactly the body we send (re-framed for pass, as received for pipe),
 * whatever VCL did to the headers.
 */
static void
h1f_framing(const struct busyobj *bo, char *buf, size_t len)
{
	const struct req *req = bo->req;

	*buf = '\0';
	if (req == NULL)
		return;
	if (req->body_bs == BS_CHUNKED)
		(void)FMT_Snprintf(buf, len, "Transfer-Encoding: chunked");
	else if (req->body_bs == BS_LENGTH || req->body_cl_sent)
		(void)FMT_Snprintf(buf, len, "Content-Length: %ju",
		    (uintmax_t)req->body_cl);
}

static void
h1f_write_head(struct h1w *w, const struct http *hp, const char *framing)
{
	unsigned u;

	H1W_WriteTxt(w, hp->hd[HTTP_HDR_METHOD]);
	H1W_WriteStr(w, " ");
	H1W_WriteTxt(w, hp->hd[HTTP_HDR_URL]);
	H1W_WriteStr(w, " ");
	H1W_WriteTxt(w, hp->hd[HTTP_HDR_PROTO]);
	H1W_WriteStr(w, "\r\n");
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++) {
		if (hp->hd[u].b == NULL || (hp->hdf[u] & HDF_FILTER) ||
		    h1f_is_framing(hp, u))
			continue;
		H1W_WriteTxt(w, hp->hd[u]);
		H1W_WriteStr(w, "\r\n");
	}
	if (*framing != '\0') {
		H1W_WriteStr(w, framing);
		H1W_WriteStr(w, "\r\n");
	}
	H1W_WriteStr(w, "\r\n");
}

int
H1F_Send(struct busyobj *bo, unsigned with_body)
{
	struct req *req = bo->req;
	struct h1w w[1];
	struct txt t;
	char framing[64];
	uint64_t hdr;
	int i = 0, err;

	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	CHECK_OBJ(bo->vbc, VBC_MAGIC);
	h1f_framing(bo, framing, sizeof framing);
	if (*framing != '\0')
		VSLb(bo->vsl, SLT_BereqHeader, "%s", framing);
	H1W_Open(w, bo->wrk, bo->vbc->fd, 0, bo->between_bytes_timeout);
	h1f_write_head(w, bo->bereq, framing);
	hdr = w->cnt + w->liov;
	if (with_body && req != NULL && req->body_state != RB_NONE) {
		if (req->body_bs == BS_CHUNKED)
			H1W_Chunked(w);
		while ((i = H1_ReqBodyNext(req, &t)) > 0) {
			H1W_WriteTxt(w, t);
			/* t points into the receive buffer, reused next. */
			if (H1W_Flush(w) != 0)
				break;
		}
		if (i == 0 && req->body_bs == BS_CHUNKED)
			H1W_EndChunked(w);
	}
	err = H1W_Close(w);
	if (w->cnt < hdr)
		hdr = w->cnt;
	bo->acct_bereq_hdr += hdr;
	bo->acct_bereq_body += w->cnt - hdr;
	VSC_Count(bo->wrk->stats, s_bereq_hdrbytes, hdr);
	VSC_Count(bo->wrk->stats, s_bereq_bodybytes, w->cnt - hdr);
	if (i < 0)
		return (H1F_REQBODY);
	if (err != 0) {
		VSLb(bo->vsl, SLT_FetchError, "backend write error: %d (%s)",
		    err, err == ETIMEDOUT ? "timeout" : strerror(err));
		return (H1F_ERROR);
	}
	return (H1F_OK);
}

/* Wait for input from the backend: 1 ready, 0 timeout, -1 error. */
static int
h1f_wait(int fd, vtim_dur tmo)
{
	struct pollfd pfd;
	int i;

	pfd.fd = fd;
	pfd.events = POLLIN;
	POOL_Blocking();
	do
		i = poll(&pfd, 1, tmo > 0 ? TIM_poll_ms(tmo) : -1);
	while (i < 0 && errno == EINTR);
	return (i > 0 ? 1 : i);
}

/* Read more of the head.  >0 bytes, 0 EOF, -1 error/timeout (logged). */
static ssize_t
h1f_read_head(struct busyobj *bo, unsigned first, unsigned wait)
{
	vtim_dur tmo;
	ssize_t n;

	tmo = first ? bo->first_byte_timeout : bo->between_bytes_timeout;
	for (;;) {
		if (wait && h1f_wait(bo->vbc->fd, tmo) <= 0)
			break;
		wait = 0;
		n = read(bo->vbc->fd, bo->rx_e, (size_t)(bo->rx_l - bo->rx_e));
		if (n >= 0)
			return (n);
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			VSLb(bo->vsl, SLT_FetchError,
			    "backend read error: %d (%s)", errno,
			    strerror(errno));
			return (errno == ECONNRESET ? 0 : -1);
		}
		wait = 1;	/* nothing yet */
	}
	if (first)
		H1F_FirstByteTimeout(bo);
	else {
		/* Varnish's words, which log watchers grep for. */
		VSLb(bo->vsl, SLT_FetchError, "timeout");
		VSC_Count(bo->wrk->stats, fetch_timeout, 1);
	}
	return (-1);
}

void
H1F_FirstByteTimeout(struct busyobj *bo)
{

	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	/* Varnish's words, which log watchers grep for. */
	VSLb(bo->vsl, SLT_FetchError, "first byte timeout%s",
	    bo->reused ? " (reused connection)" : "");
	VSC_Count(bo->wrk->stats, fetch_timeout, 1);
	/* The backend may be at work on it: not sent again (varnishd). */
	bo->fo_timeout = 1;
}

static void
h1f_count_framing(struct busyobj *bo)
{
	struct vsc_worker *st = bo->wrk->stats;

	if (bo->beresp->status == 204)
		VSC_Count(st, fetch_204, 1);
	else if (bo->beresp->status == 304)
		VSC_Count(st, fetch_304, 1);
	switch (bo->bs) {
	case BS_NONE:
		if (!strcmp(bo->bereq->hd[HTTP_HDR_METHOD].b, "HEAD"))
			VSC_Count(st, fetch_head, 1);
		else
			VSC_Count(st, fetch_none, 1);
		break;
	case BS_LENGTH: VSC_Count(st, fetch_length, 1); break;
	case BS_CHUNKED: VSC_Count(st, fetch_chunked, 1); break;
	case BS_EOF: VSC_Count(st, fetch_eof, 1); break;
	default: WRONG("body status");
	}
}

/* A complete head is in [hb, he): parse it.  0, 1 (interim), -1. */
static int
h1f_parse(struct busyobj *bo, char *hb, char *he)
{
	const char *why = "";
	unsigned is_head;

	HTTP_Clear(bo->beresp);
	if (H1_ParseResponse(bo->beresp, hb, he,
	    (size_t)cache_param->http_resp_hdr_len, &why) != 0) {
		VSLb(bo->vsl, SLT_FetchError, "bad backend response: %s",
		    why);
		VSC_Count(bo->wrk->stats, fetch_bad, 1);
		return (-1);
	}
	bo->acct_beresp_hdr += (uint64_t)(he - bo->rx_p);
	VSC_Count(bo->wrk->stats, s_beresp_hdrbytes, (uint64_t)(he - bo->rx_p));
	bo->rx_p = he;
	if (bo->beresp->status < 200) {
		VSC_Count(bo->wrk->stats, fetch_1xx, 1);
		if (bo->beresp->status == 101) {
			VSLb(bo->vsl, SLT_FetchError,
			    "backend switched protocols (101) unasked");
			return (-1);
		}
		if (bo->beresp->status == 103 && bo->interim_req != NULL) {
			HTTP_FilterHopByHop(bo->beresp);
			H1_SendInterim(bo->interim_req, bo->beresp);
		}
		return (1);
	}
	/* The head is logged by the caller after its Beresp timestamp. */
	if ((unsigned)bo->beresp->nhd - HTTP_HDR_FIRST >
	    cache_param->http_max_hdr) {
		VSLb(bo->vsl, SLT_FetchError,
		    "backend response has more header lines than "
		    "http_max_hdr (%u)", cache_param->http_max_hdr);
		VSC_Count(bo->wrk->stats, fetch_bad, 1);
		return (-1);
	}
	is_head = !strcmp(bo->bereq->hd[HTTP_HDR_METHOD].b, "HEAD");
	if (H1_ResponseFraming(bo->beresp, is_head, &bo->bs,
	    &bo->content_length, &bo->must_close, &why) != 0) {
		VSLb(bo->vsl, SLT_FetchError, "bad backend response: %s",
		    why);
		VSC_Count(bo->wrk->stats, fetch_bad, 1);
		return (-1);
	}
	h1f_count_framing(bo);
	bo->body_left = bo->content_length;
	if (bo->bs == BS_CHUNKED)
		H1_ChunkedInit(&bo->chunked,
		    (size_t)cache_param->http_resp_size);
	bo->body_done = bo->bs == BS_NONE ||
	    (bo->bs == BS_LENGTH && bo->content_length == 0);
	bo->in_b = bo->rx_p;
	bo->in_e = bo->rx_e;
	bo->acct_beresp_body += (uint64_t)(bo->in_e - bo->in_b);
	VSC_Count(bo->wrk->stats, s_beresp_bodybytes,
	    (uint64_t)(bo->in_e - bo->in_b));
	return (0);
}

int
H1F_RecvHead(struct busyobj *bo, unsigned *nothing, unsigned ready)
{
	struct h1_scan scan;
	enum h1_complete c;
	const char *hb, *he;
	unsigned first = 1;
	size_t left;
	ssize_t n;
	int i;

	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	CHECK_OBJ(bo->vbc, VBC_MAGIC);
	*nothing = 1;
	bo->rx_p = bo->rx_e = bo->rx_b;
	/* Resumed after each read: a head trickled in costs one pass. */
	H1_ScanInit(&scan);
	for (;;) {
		if (bo->rx_e > bo->rx_p) {
			c = H1_CompleteScan(&scan, bo->rx_p, bo->rx_e, &hb,
			    &he);
			if (c == H1_JUNK) {
				VSLb(bo->vsl, SLT_FetchError,
				    "backend sent junk, not HTTP");
				return (H1F_ERROR);
			}
			if (c == H1_COMPLETE) {
				i = h1f_parse(bo, (char *)(uintptr_t)hb,
				    (char *)(uintptr_t)he);
				if (i <= 0)
					return (i == 0 ? H1F_OK : H1F_ERROR);
				/* Interim response: the next head follows. */
				first = 1;
				left = (size_t)(bo->rx_e - bo->rx_p);
				memmove(bo->rx_b, bo->rx_p, left);
				bo->rx_p = bo->rx_b;
				bo->rx_e = bo->rx_b + left;
				H1_ScanInit(&scan);
				continue;
			}
			if ((size_t)(bo->rx_e - bo->rx_p) >
			    cache_param->http_resp_size ||
			    bo->rx_e >= bo->rx_l) {
				VSLb(bo->vsl, SLT_FetchError,
				    "backend response head larger than "
				    "http_resp_size (%ju)",
				    (uintmax_t)cache_param->http_resp_size);
				return (H1F_ERROR);
			}
		}
		/*
		 * The first read comes right after the request went out:
		 * the answer is hardly ever there yet, so wait before it
		 * rather than pay for a read that finds nothing.
		 */
		n = h1f_read_head(bo, first, first && !ready);
		ready = 0;
		if (n < 0)
			return (H1F_ERROR);
		if (n == 0) {
			/* varnishd's words for an early end of input. */
			VSLb(bo->vsl, SLT_FetchError, "HTC eof (-1)");
			return (H1F_ERROR);
		}
		*nothing = 0;
		first = 0;
		bo->rx_e += n;
	}
}

/*--------------------------------------------------------------------
 * The response body
 */

/* Read raw body bytes into the worker's buffer.  1, 0 at EOF, -1. */
static int
h1f_fill(struct busyobj *bo, size_t max)
{
	struct worker *wrk = bo->wrk;
	ssize_t n;

	if (max == 0 || max > wrk->iobuf_len)
		max = wrk->iobuf_len;
	for (;;) {
		n = read(bo->vbc->fd, wrk->iobuf, max);
		if (n > 0)
			break;
		if (n == 0)
			return (0);
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			if (h1f_wait(bo->vbc->fd,
			    bo->between_bytes_timeout) > 0)
				continue;
			VSLb(bo->vsl, SLT_FetchError,
			    "between_bytes_timeout");
			VSC_Count(wrk->stats, fetch_timeout, 1);
			return (-1);
		}
		VSLb(bo->vsl, SLT_FetchError, "backend read error: %d (%s)",
		    errno, strerror(errno));
		return (-1);
	}
	bo->in_b = wrk->iobuf;
	bo->in_e = wrk->iobuf + n;
	bo->acct_beresp_body += (uint64_t)n;
	VSC_Count(wrk->stats, s_beresp_bodybytes, (uint64_t)n);
	return (1);
}

static int
h1f_body_fail(struct busyobj *bo, const char *why)
{

	if (why != NULL)
		VSLb(bo->vsl, SLT_FetchError, "%s", why);
	bo->failed = 1;
	VSC_Count(bo->wrk->stats, fetch_failed, 1);
	return (-1);
}

int
FETCH_BodyNext(struct busyobj *bo, struct txt *out)
{
	const char *why = "";
	size_t n;
	int i;

	CHECK_OBJ(bo, BUSYOBJ_MAGIC);
	if (bo->failed)
		return (-1);
	for (;;) {
		if (bo->body_done)
			return (0);
		n = (size_t)(bo->in_e - bo->in_b);
		if (bo->bs == BS_LENGTH && n > 0) {
			if (n > bo->body_left)
				n = (size_t)bo->body_left;
			*out = TXT_Make(bo->in_b, bo->in_b + n);
			bo->in_b += n;
			bo->body_left -= n;
			bo->body_done = bo->body_left == 0;
			return (1);
		}
		if (bo->bs == BS_EOF && n > 0) {
			*out = TXT_Make(bo->in_b, bo->in_e);
			bo->in_b = bo->in_e;
			return (1);
		}
		if (bo->bs == BS_CHUNKED && n > 0) {
			switch (H1_ChunkedNext(&bo->chunked, &bo->in_b,
			    bo->in_e, out, &why)) {
			case H1C_DATA:
				return (1);
			case H1C_END:
				bo->body_done = 1;
				return (0);
			case H1C_MORE:
				break;
			default:
				return (h1f_body_fail(bo, why));
			}
		}
		i = h1f_fill(bo, bo->bs == BS_LENGTH ?
		    (size_t)bo->body_left : 0);
		if (i < 0)
			return (h1f_body_fail(bo, NULL));
		if (i == 0) {
			if (bo->bs == BS_EOF) {
				bo->body_done = 1;
				return (0);
			}
			return (h1f_body_fail(bo,
			    "backend closed the connection before the end "
			    "of the body"));
		}
	}
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_session.c -- the client side of HTTP/1: a worker's loop over one
 * connection (receive a request head, check it, process it, keep alive or
 * park or close), request bodies, interim responses and the bare error
 * answers sent before VCL sees a request.  Everything here runs on the
 * worker that owns the session; no locks.
 */

#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/child.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/http1_parse.h"
#include "cache/http1_write.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/proxy_recv.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

enum h1_rx {
	RX_COMPLETE,	/* a whole request head is buffered */
	RX_IDLE,	/* nothing more for now: park */
	RX_EOF,		/* client closed between requests */
	RX_EOF_PARTIAL,	/* client closed in the middle of a head */
	RX_TIMEOUT,	/* timeout_idle with a partial head */
	RX_OVERFLOW,	/* head larger than http_req_size */
	RX_JUNK,	/* not HTTP */
	RX_DRAIN,	/* shutting down and idle */
};

/* 1 readable, 0 timeout, -1 error. */
static int
h1_poll_in(int fd, vtim_dur tmo)
{
	struct pollfd pfd;
	int i;

	pfd.fd = fd;
	pfd.events = POLLIN;
	POOL_Blocking();
	do
		i = poll(&pfd, 1, TIM_poll_ms(tmo));
	while (i < 0 && errno == EINTR);
	if (i > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR)))
		return (1);
	return (i < 0 ? -1 : 0);
}

/* The numeric name of sa, or "-" "-"; a Unix socket is 0.0.0.0 0. */
static void
h1_addr_name(const struct sockaddr *sa, socklen_t len, char *ip,
    size_t iplen, char *port, size_t portlen)
{

	if (sa->sa_family == AF_UNIX) {
		/* As varnishd logs a Unix socket's peer. */
		(void)snprintf(ip, iplen, "0.0.0.0");
		(void)snprintf(port, portlen, "0");
		return;
	}
	if (getnameinfo(sa, len, ip, (socklen_t)iplen, port,
	    (socklen_t)portlen, NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		(void)snprintf(ip, iplen, "-");
		(void)snprintf(port, portlen, "-");
	}
}

static void
h1_open_session(struct worker *wrk, struct sess *sp)
{

	sp->vxid = WRK_NewVxid(wrk);
	sp->opened = 1;
	h1_addr_name((const struct sockaddr *)&sp->remote, sp->remote_len,
	    sp->client_ip, sizeof sp->client_ip, sp->client_port,
	    sizeof sp->client_port);
	VSL(SLT_Begin, sp->vxid | VSL_CLIENTMARKER, "sess 0 %s",
	    sp->ls->proxy ? "PROXY" : "HTTP/1");
	/* A Unix socket's own end is 0.0.0.0 0 too, as varnishd logs it. */
	VSL(SLT_SessOpen, sp->vxid | VSL_CLIENTMARKER, "%s %s %s %s %s %.6f %d",
	    sp->client_ip, sp->client_port, sp->ls->name,
	    sp->remote.ss_family == AF_UNIX ? "0.0.0.0" : sp->ls->addr,
	    sp->remote.ss_family == AF_UNIX ? "0" : sp->ls->port,
	    sp->t_open, sp->fd);
	VSC_Count(wrk->stats, s_sess, 1);
	/* timeout_idle for the PROXY header counts from the accept. */
	if (sp->proxy_wait)
		sp->t_rx = sp->t_open_mono;
}

/* Time left for a partial head (timeout_idle from its first byte). */
static vtim_dur
h1_rx_left(const struct sess *sp)
{

	if (cache_param->timeout_idle <= 0)
		return (1e9);		/* no limit */
	return (sp->t_rx + cache_param->timeout_idle - TIM_mono());
}

/*
 * One read into req's buffer (have bytes already there): 1 when some
 * came, else 0 and *rx says why not -- the peer closed, draining, past
 * timeout_idle (when timed: a partial head, or a PROXY header due from
 * the accept), or nothing yet (RX_IDLE: park).
 */
static int
h1_rx_read(struct req *req, size_t have, int timed, enum h1_rx *rx)
{
	struct sess *sp = req->sp;
	ssize_t n;

	do
		n = read(sp->fd, req->rx_e, (size_t)(req->rx_l - req->rx_e));
	while (n < 0 && errno == EINTR);
	if (n > 0) {
		req->rx_e += n;
		return (1);
	}
	if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
		*rx = have > 0 ? RX_EOF_PARTIAL : RX_EOF;
	else if (have == 0 && child_draining)
		*rx = RX_DRAIN;
	else if (timed && h1_rx_left(sp) <= 0)
		*rx = RX_TIMEOUT;
	else
		*rx = RX_IDLE;
	return (0);
}

/*
 * Read until a whole request head is in the buffer.  When nothing more
 * is there to read, the session is parked (RX_IDLE: the linger set, then
 * the waiter) with its partial head, whatever its size (h1_park), so a
 * slow client never holds a worker thread; timeout_idle after the
 * head's first byte still applies.
 */
static enum h1_rx
h1_rx_head(struct req *req, const char **hb, const char **he)
{
	struct sess *sp = req->sp;
	enum h1_complete c;
	size_t have;
	enum h1_rx rx;

	for (;;) {
		have = (size_t)(req->rx_e - req->rx_p);
		if (have > 0) {
			c = H1_CompleteScan(&req->rx_scan, req->rx_p,
			    req->rx_e, hb, he);
			if (c == H1_JUNK)
				return (RX_JUNK);
			if (c == H1_COMPLETE && (size_t)(*he - req->rx_p) >
			    req->rx_hlim)
				return (RX_OVERFLOW);
			if (c == H1_COMPLETE)
				return (RX_COMPLETE);
			if (have > req->rx_hlim)
				return (RX_OVERFLOW);
			if (sp->t_rx == 0)
				sp->t_rx = TIM_mono();
		}
		if (h1_rx_read(req, have, have > 0, &rx) == 0)
			return (rx);
	}
}

/*--------------------------------------------------------------------
 * Bare answers for requests VCL never sees.
 */

void
H1_ErrorClose(struct req *req, unsigned status, enum sess_close sc)
{
	char date[TIM_FORMAT_SIZE], buf[256];
	const char *reason = HTTP_Reason(status);
	int l;

	CHECK_OBJ(req, REQ_MAGIC);
	if (req->esi_level > 0) {
		/* An include writes nothing of its own to the client. */
		VSLb(req->vsl, SLT_RespStatus, "%u", status);
		req->esi_failed = 1;
		req->doclose = sc;
		return;
	}
	TIM_format(TIM_real(), date);
	l = snprintf(buf, sizeof buf,
	    "HTTP/1.1 %u %s\r\n"
	    "Date: %s\r\n"
	    "Server: Veneer\r\n"
	    "X-Varnish: %u\r\n"
	    "Content-Length: 0\r\n"
	    "Connection: close\r\n"
	    "\r\n", status, reason, date, req->vxid);
	assert(l > 0 && (size_t)l < sizeof buf);
	VSLb(req->vsl, SLT_RespProtocol, "HTTP/1.1");
	VSLb(req->vsl, SLT_RespStatus, "%u", status);
	VSLb(req->vsl, SLT_RespReason, "%s", reason);
	/* Best effort: the connection closes either way. */
	if (H1W_WriteAll(req->sp->fd, buf, (size_t)l,
	    H1W_ClientDeadline(), cache_param->idle_send_timeout) == 0)
		req->acct_resp_hdr += (uint64_t)l;
	REQ_CountStatus(req->wrk, status);
	req->doclose = sc;
	req->linger = 1;
}

static void
h1_count_reject(struct worker *wrk, unsigned status)
{

	switch (status) {
	case 413: VSC_Count(wrk->stats, client_req_413, 1); break;
	case 417: VSC_Count(wrk->stats, client_req_417, 1); break;
	case 431: VSC_Count(wrk->stats, client_req_431, 1); break;
	case 505: VSC_Count(wrk->stats, client_req_505, 1); break;
	default: VSC_Count(wrk->stats, client_req_400, 1); break;
	}
}

static void
h1_reject(struct req *req, unsigned status, const char *why)
{

	VSLb(req->vsl, SLT_Error, "Refused with %u: %s", status, why);
	h1_count_reject(req->wrk, status);
	H1_ErrorClose(req, status,
	    status == 431 ? SC_RX_OVERFLOW : SC_RX_BAD);
}

/* ASCII only: a host name is compared without regard to case. */
static void
h1_lower(char *b, const char *e)
{

	for (; b < e; b++)
		*b = TXT_Lower(*b);
}

/*
 * Host is case-insensitive (RFC 9110 4.2.3): lowercase it once, where it
 * was received, so the lookup key, VCL and the backend see one spelling
 * and EXAMPLE.com hits what example.com stored.  The bytes are in the
 * receive buffer, which is ours to write.
 */
static void
h1_host_lower(struct http *hp)
{
	struct txt v;
	unsigned u;

	for (u = HTTP_FindHdr(hp, "Host", 0); u != 0;
	    u = HTTP_FindHdr(hp, "Host", u + 1)) {
		v = HTTP_HdrValue(hp, u);
		h1_lower((char *)(uintptr_t)v.b, v.e);
	}
}

/*
 * An absolute-form target (RFC 9112 3.2.2): the authority becomes the
 * Host header and the path the URL.  Other non-origin forms are only
 * legal for CONNECT (authority) and OPTIONS (*).
 */
static int
h1_target(struct req *req, const char **why)
{
	struct http *hp = req->http;
	const char *url = hp->hd[HTTP_HDR_URL].b;
	const char *method = hp->hd[HTTP_HDR_METHOD].b;
	const char *a, *p;
	size_t sl;

	if (*url == '/')
		return (0);
	if (!strcmp(method, "CONNECT"))
		return (0);
	if (!strcmp(url, "*") && !strcmp(method, "OPTIONS"))
		return (0);
	if (!strncasecmp(url, "http://", 7))
		sl = 7;
	else if (!strncasecmp(url, "https://", 8))
		sl = 8;
	else {
		*why = "request target is not a path or an absolute URI";
		return (-1);
	}
	a = url + sl;
	p = a + strcspn(a, "/?#");
	if (p == a || memchr(a, '@', (size_t)(p - a)) != NULL) {
		*why = "bad authority in absolute URI";
		return (-1);
	}
	h1_lower((char *)(uintptr_t)a, p);
	HTTP_Unset(hp, "Host");
	if (HTTP_PrintfHeader(hp, "Host: %.*s", (int)(p - a), a))
		return (-1);
	if (*p == '/')
		hp->hd[HTTP_HDR_URL].b = p;
	else if (*p == '?') {
		p = WS_Printf(req->ws, "/%s", p);
		if (p == NULL)
			return (-1);
		HTTP_SetSlot(hp, HTTP_HDR_URL, p);
	} else
		HTTP_SetSlot(hp, HTTP_HDR_URL, "/");
	return (0);
}

/* Expect and the request body.  0, or the status to refuse with. */
static unsigned
h1_body_setup(struct req *req, enum body_status bs, uint64_t cl,
    const char **why)
{

	req->body_bs = bs;
	req->body_cl = cl;
	req->body_cl_sent = HTTP_GetHdr(req->http, "Content-Length", NULL);
	switch (bs) {
	case BS_NONE:
		req->body_state = RB_NONE;
		break;
	case BS_LENGTH:
		if (cache_param->http_req_body_max > 0 &&
		    cl > cache_param->http_req_body_max) {
			*why = "body larger than http_req_body_max";
			return (413);
		}
		req->body_left = cl;
		req->body_state = RB_UNREAD;
		break;
	case BS_CHUNKED:
		H1_ChunkedInit(&req->body_chunked,
		    (size_t)cache_param->http_req_size);
		req->body_state = RB_UNREAD;
		break;
	default:
		WRONG("request body status");
	}
	if (!HTTP_GetHdr(req->http, "Expect", NULL))
		return (0);
	/* Lines of 100-continue, repeated or not, mean 100-continue. */
	if (!HTTP_HdrIsOnly(req->http, "Expect", "100-continue")) {
		*why = "unsupported Expect";
		return (417);
	}
	if (req->proto11 && req->body_state == RB_UNREAD)
		req->want100 = 1;
	return (0);
}

/*
 * Turn a received head into a request: id, log, parse, check.  Returns
 * 0, or -1 after answering an error (req->doclose set).
 */
static int
h1_prepare(struct worker *wrk, struct req *req, char *hb, char *he)
{
	struct sess *sp = req->sp;
	enum body_status bs;
	const char *why = "";
	uint64_t cl = 0;
	vtim_real now;
	unsigned status;

	now = TIM_real();
	req->vxid = WRK_NewVxid(wrk);
	VSL_SetId(req->vsl, req->vxid | VSL_CLIENTMARKER);
	VSL(SLT_Link, sp->vxid | VSL_CLIENTMARKER, "req %u rxreq", req->vxid);
	VSLb(req->vsl, SLT_Begin, "req %u rxreq", sp->vxid);
	/* The first byte came when the wall clock said now - (mono - t_rx). */
	req->t_first = now;
	if (sp->t_rx > 0 && TIM_mono() > sp->t_rx)
		req->t_first -= TIM_mono() - sp->t_rx;
	req->t_prev = req->t_first;
	VSLb_ts(req->vsl, "Start", req->t_first, &req->t_prev, req->t_first);
	VSLb_ts(req->vsl, "Req", req->t_first, &req->t_prev, now);
	/* The VCL it will run, named before the request as varnishd does. */
	req->vcl = VCL_Ref();
	VSLb(req->vsl, SLT_VCL_use, "%s", VCL_Name(req->vcl));
	VSLb(req->vsl, SLT_ReqStart, "%s %s %s", sp->client_ip,
	    sp->client_port, sp->ls->name);
	sp->t_rx = 0;
	req->acct_req_hdr = (uint64_t)(he - req->rx_p);
	req->rx_p = he;
	req->rx_body = he;

	/* Room for headers we and VCL add beyond what the client sent. */
	req->http = HTTP_New(req->ws, HTTP_NHDR(cache_param->http_max_hdr),
	    req->vsl, SLT_ReqMethod);
	if (req->http == NULL) {
		VSC_Count(wrk->stats, ws_client_overflow, 1);
		VSLb(req->vsl, SLT_Error, "workspace_client overflow (%ju "
		    "bytes) for http_max_hdr %u headers; raise "
		    "workspace_client", (uintmax_t)cache_param->workspace_client,
		    cache_param->http_max_hdr);
		H1_ErrorClose(req, 500, SC_OVERLOAD);
		return (-1);
	}
	status = (unsigned)H1_ParseRequest(req->http, hb, he,
	    (size_t)cache_param->http_req_hdr_len, &why);
	if (status != 0) {
		if (H1_Bogo() != NULL)
			VSLb(req->vsl, SLT_BogoHeader, "%s", H1_Bogo());
		h1_reject(req, status, why);
		return (-1);
	}
	h1_host_lower(req->http);
	HTTP_Log(req->http);
	if ((unsigned)req->http->nhd - HTTP_HDR_FIRST >
	    cache_param->http_max_hdr) {
		/* The spare slots are for us and VCL, not for the client. */
		h1_reject(req, 431, "more header lines than http_max_hdr");
		return (-1);
	}
	/*
	 * Flag hop-by-hop headers now, before we or VCL add any: what the
	 * client names in Connection: must not remove what we add later.
	 */
	HTTP_FilterHopByHop(req->http);
	req->proto11 = req->http->protover >= 11;
	req->is_head = !strcmp(req->http->hd[HTTP_HDR_METHOD].b, "HEAD");
	if (H1_RequestFraming(req->http, &bs, &cl, &why) != 0) {
		h1_reject(req, 400, why);
		return (-1);
	}
	if (h1_target(req, &why) != 0) {
		h1_reject(req, 400, why);
		return (-1);
	}
	/* After framing: Connection never unframes a body. */
	if (HTTP_UnsetConnectionNamed(req->http, &why) != 0) {
		h1_reject(req, 400, why);
		return (-1);
	}
	status = h1_body_setup(req, bs, cl, &why);
	if (status != 0) {
		h1_reject(req, status, why);
		return (-1);
	}
	VSC_Count(wrk->stats, client_req, 1);
	VSC_Count(wrk->stats, s_req_hdrbytes, req->acct_req_hdr);
	if (req->proto11) {
		if (HTTP_HdrHasToken(req->http, "Connection", "close"))
			req->doclose = SC_REQ_CLOSE;
	} else if (!HTTP_HdrHasToken(req->http, "Connection", "keep-alive"))
		req->doclose = SC_REQ_HTTP10;
	return (0);
}

/*--------------------------------------------------------------------
 * Request bodies
 */

static int
h1_send100(struct req *req)
{
	static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";

	req->sent100 = 1;
	if (H1W_WriteAll(req->sp->fd, cont, sizeof cont - 1,
	    H1W_ClientDeadline(), cache_param->idle_send_timeout) != 0)
		return (-1);
	req->acct_resp_hdr += sizeof cont - 1;
	return (0);
}

/*
 * The body took longer than timeout_req_body: 408 and close, so neither
 * this worker nor the backend connection the body goes to is held any
 * longer.
 */
static int
h1_body_timeout(struct req *req)
{

	VSLb(req->vsl, SLT_FetchError, "req.body read error: "
	    "timeout_req_body (%.3f s) reached with %ju body bytes "
	    "received", cache_param->timeout_req_body,
	    (uintmax_t)req->acct_req_body);
	VSC_Count(req->wrk->stats, req_body_timeout, 1);
	req->body_state = RB_ERROR;
	req->err_code = 408;
	req->doclose = SC_RX_BODY;
	return (-1);
}

/* How long to wait for more body bytes: timeout_idle, timeout_req_body. */
static vtim_dur
h1_body_wait(const struct req *req)
{
	vtim_dur tmo, left;

	tmo = cache_param->timeout_idle > 0 ? cache_param->timeout_idle : 1e9;
	if (req->t_body_end > 0) {
		left = req->t_body_end - TIM_mono();
		if (left < tmo)
			tmo = left;
	}
	return (tmo);
}

/* Read more body bytes into the buffer.  0, or -1 (state set). */
static int
h1_body_fill(struct req *req)
{
	vtim_dur tmo;
	size_t space;
	ssize_t n;

	if (req->rx_p == req->rx_e) {
		/* Everything consumed: reuse the room after the head. */
		req->rx_p = req->rx_body;
		req->rx_e = req->rx_body;
	}
	/*
	 * A total from the first read, which is when a fetch starts
	 * sending the body on, and checked before every read, so a
	 * steady trickle ends too.
	 */
	if (req->t_body_end == 0 && cache_param->timeout_req_body > 0)
		req->t_body_end = TIM_mono() + cache_param->timeout_req_body;
	else if (req->t_body_end > 0 && TIM_mono() >= req->t_body_end)
		return (h1_body_timeout(req));
	if (req->want100 && !req->sent100 && h1_send100(req) != 0) {
		req->body_state = RB_ERROR;
		return (-1);
	}
	space = (size_t)(req->rx_l - req->rx_e);
	/* Never read past a Content-Length body: the next request may follow. */
	if (req->body_bs == BS_LENGTH && space > req->body_left)
		space = (size_t)req->body_left;
	/* rx_body is at most rx_hlim into a buffer PARAM_WS_RX_BODY_ROOM longer */
	assert(space > 0);
	for (;;) {
		n = read(req->sp->fd, req->rx_e, space);
		if (n > 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			tmo = h1_body_wait(req);
			if (tmo > 0 && h1_poll_in(req->sp->fd, tmo) > 0)
				continue;
			if (req->t_body_end > 0 &&
			    TIM_mono() >= req->t_body_end)
				return (h1_body_timeout(req));
		}
		VSLb(req->vsl, SLT_FetchError, "req.body read error: %s",
		    n == 0 ? "client closed" : n < 0 && errno == EAGAIN ?
		    "timeout_idle" : strerror(errno));
		req->body_state = RB_ERROR;
		req->doclose = SC_RX_BODY;
		return (-1);
	}
	req->body_socket = 1;
	req->rx_e += n;
	return (0);
}

static int
h1_body_limit(struct req *req)
{

	if (cache_param->http_req_body_max == 0 ||
	    req->body_bytes <= cache_param->http_req_body_max)
		return (0);
	VSLb(req->vsl, SLT_Error, "req.body larger than http_req_body_max");
	req->body_state = RB_ERROR;
	req->err_code = 413;
	VSC_Count(req->wrk->stats, client_req_413, 1);
	return (-1);
}

/*
 * The whole body is in, said as varnishd says it.  A pass's fetch
 * thread may be the one reading: the request's thread waits for the
 * response's head meanwhile, so the request's log is the fetch's alone.
 */
static void
h1_body_done(struct req *req)
{

	req->body_state = RB_DONE;
	VSLb_ts(req->vsl, "ReqBody", req->t_first, &req->t_prev, TIM_real());
}

int
H1_ReqBodyNext(struct req *req, struct txt *out)
{
	const char *why = "";
	const char *p;
	size_t n;
	enum h1c i;

	CHECK_OBJ(req, REQ_MAGIC);
	for (;;) {
		switch (req->body_state) {
		case RB_NONE:
		case RB_DONE:
			return (0);
		case RB_ERROR:
			return (-1);
		default:
			break;
		}
		if (req->body_bs == BS_LENGTH) {
			if (req->body_left == 0) {
				h1_body_done(req);
				return (0);
			}
			n = (size_t)(req->rx_e - req->rx_p);
			if (n > 0) {
				if (n > req->body_left)
					n = (size_t)req->body_left;
				*out = TXT_Make(req->rx_p, req->rx_p + n);
				req->rx_p += n;
				req->body_left -= n;
				req->body_bytes += n;
				req->acct_req_body += n;
				req->body_state = RB_READING;
				return (1);
			}
		} else if (req->rx_p < req->rx_e) {
			p = req->rx_p;
			i = H1_ChunkedNext(&req->body_chunked, &p, req->rx_e,
			    out, &why);
			/* Accounting counts the chunked framing too. */
			req->acct_req_body += (uint64_t)(p - req->rx_p);
			switch (i) {
			case H1C_DATA:
				req->rx_p = (char *)(uintptr_t)p;
				req->body_bytes += TXT_LEN(*out);
				req->body_state = RB_READING;
				if (h1_body_limit(req))
					return (-1);
				return (1);
			case H1C_END:
				req->rx_p = (char *)(uintptr_t)p;
				h1_body_done(req);
				return (0);
			case H1C_MORE:
				req->rx_p = (char *)(uintptr_t)p;
				break;
			default:
				VSLb(req->vsl, SLT_FetchError,
				    "req.body chunked encoding: %s", why);
				req->body_state = RB_ERROR;
				req->err_code = 400;
				req->doclose = SC_RX_BODY;
				return (-1);
			}
		}
		if (h1_body_fill(req))
			return (-1);
	}
}

/*--------------------------------------------------------------------
 * Interim responses from the backend (103 Early Hints)
 */

void
H1_SendInterim(struct req *req, const struct http *interim)
{
	struct h1w w[1];
	unsigned u;

	CHECK_OBJ(req, REQ_MAGIC);
	CHECK_OBJ(interim, HTTP_MAGIC);
	if (!req->proto11 || req->doclose == SC_TX_ERROR ||
	    req->esi_level > 0)
		return;
	H1W_Open(w, req->wrk, req->sp->fd,
	    H1W_ClientDeadline(), cache_param->idle_send_timeout);
	H1W_WriteStr(w, "HTTP/1.1 ");
	H1W_WriteTxt(w, interim->hd[HTTP_HDR_STATUS]);
	H1W_WriteStr(w, " ");
	H1W_WriteTxt(w, interim->hd[HTTP_HDR_REASON]);
	H1W_WriteStr(w, "\r\n");
	for (u = HTTP_HDR_FIRST; u < interim->nhd; u++) {
		if (interim->hdf[u] & HDF_FILTER)
			continue;
		H1W_WriteTxt(w, interim->hd[u]);
		H1W_WriteStr(w, "\r\n");
	}
	H1W_WriteStr(w, "\r\n");
	(void)H1W_Flush(w);
	req->acct_resp_hdr += w->cnt;
	if (H1W_Close(w) != 0)
		req->doclose = SC_TX_ERROR;
}

/*--------------------------------------------------------------------
 * The session loop
 */

/*
 * Park with what was received of the next request, if anything, and
 * how far it was scanned.  Closes instead when sess_park_space is full.
 */
static void
h1_park(struct sess *sp, struct req **reqp)
{
	struct req *req = *reqp;
	size_t len;

	len = (size_t)(req->rx_e - req->rx_p);
	if (len > 0 && SES_RxKeep(sp, req->rx_p, len) != 0) {
		VSL(SLT_Error, sp->vxid | VSL_CLIENTMARKER, "partial "
		    "request head of %zu bytes "
		    "closed: sess_park_space (%ju bytes) is used up by parked "
		    "connections; raise it", len,
		    (uintmax_t)cache_param->sess_park_space);
		REQ_Free(reqp);
		SES_Delete(&sp, SC_OVERLOAD);
		return;
	}
	if (len > 0)
		sp->rx_scan = req->rx_scan;
	else if (!sp->proxy_wait)
		sp->t_idle = TIM_mono();	/* the header's time runs on */
	REQ_Free(reqp);
	/*
	 * A head still partial after timeout_linger comes from a slow
	 * client: straight to the waiter, sparing each of its bytes the
	 * trip through the linger set (measured with slowloris.sh).
	 */
	if (len > 0 && TIM_mono() - sp->t_rx > cache_param->timeout_linger) {
		sp->linger = 0;
		SES_Herd(sp);
		return;
	}
	SES_Park(sp);
}

int
H1_ReqBodyPending(const struct req *req)
{

	return (req->body_state == RB_UNREAD ||
	    req->body_state == RB_READING || req->body_state == RB_ERROR);
}

static void
h1_close(struct sess *sp, struct req **reqp, enum sess_close sc,
    unsigned linger)
{

	REQ_Free(reqp);
	if (linger)
		SES_LingerClose(sp, sc);
	else
		SES_Delete(&sp, sc);
}

/*--------------------------------------------------------------------
 * The PROXY header of a -a ...,PROXY listener's connection, read as a
 * head is (parked between reads, timeout_idle from the accept) into the
 * receive buffer, so the HTTP bytes after it are simply the next head.
 */

static enum h1_rx
h1_rx_proxy(struct req *req, size_t *hlen)
{
	size_t have;
	enum h1_rx rx;

	for (;;) {
		have = (size_t)(req->rx_e - req->rx_p);
		if (have > 0) {
			switch (PROXY_Scan(req->rx_p, have, hlen)) {
			case PROXY_COMPLETE:
				return (RX_COMPLETE);
			case PROXY_JUNK:
				return (RX_JUNK);
			case PROXY_OVERFLOW:
				return (RX_OVERFLOW);
			default:
				break;
			}
		}
		if (h1_rx_read(req, have, 1, &rx) == 0)
			return (rx);
	}
}

/*
 * Keep what a good header vouched for in the session's workspace, below
 * ws_base.  0, or -1 when workspace_session is too small for it.
 */
static int
h1_proxy_keep(struct sess *sp, const struct proxy_hdr *ph)
{
	struct sess_proxy *ps;
	socklen_t sl;

	if (!ph->addrs)
		return (0);
	assert(sp->rx_len == 0 && sp->rx_heap == 0);
	WS_Reset(sp->ws, sp->ws_base);
	ps = WS_Alloc(sp->ws, sizeof *ps + ph->tlv_len);
	if (ps == NULL) {
		VSC_Add(ws_session_overflow, 1);
		VSL(SLT_Error, sp->vxid | VSL_CLIENTMARKER, "insufficient "
		    "workspace: workspace_session (%ju bytes) cannot hold the "
		    "PROXY header's addresses and %zu bytes of TLVs; raise "
		    "workspace_session",
		    (uintmax_t)cache_param->workspace_session, ph->tlv_len);
		return (-1);
	}
	INIT_OBJ(ps, SESS_PROXY_MAGIC);
	ps->client = ph->client;
	ps->server = ph->server;
	ps->tlv_len = ph->tlv_len;
	if (ph->tlv_len > 0)
		memcpy(ps->tlv, ph->tlv, ph->tlv_len);
	sp->ws_base = WS_Snapshot(sp->ws);
	sp->proxy = ps;
	sl = ps->client.sa.sa_family == AF_INET ? sizeof ps->client.sin :
	    sizeof ps->client.sin6;
	h1_addr_name(&ps->client.sa, sl, sp->client_ip,
	    sizeof sp->client_ip, sp->client_port, sizeof sp->client_port);
	return (0);
}

/* A whole header in [b, b + hlen): log it, keep it.  0, or close (sc). */
static int
h1_proxy_take(struct sess *sp, const char *b, size_t hlen,
    enum sess_close *sc)
{
	struct proxy_hdr ph;
	int i;

	i = PROXY_Parse(b, hlen, &ph);
	if (ph.proxy[0] != '\0')
		VSL(SLT_Proxy, sp->vxid | VSL_CLIENTMARKER, "%s", ph.proxy);
	if (ph.garbage[0] != '\0')
		VSL(SLT_ProxyGarbage, sp->vxid | VSL_CLIENTMARKER, "%s",
		    ph.garbage);
	*sc = SC_RX_JUNK;
	if (i != 0) {
		VSC_Add(sess_proxy_bad, 1);
		return (-1);
	}
	return (h1_proxy_keep(sp, &ph));
}

/*
 * Read the PROXY header.  0: it is taken, the HTTP follows in req's
 * buffer; -1: the session was parked or closed (*reqp is NULL then).
 */
static int
h1_proxy(struct sess *sp, struct req **reqp)
{
	struct req *req = *reqp;
	enum sess_close sc;
	const char *why = NULL;
	size_t hlen;

	switch (h1_rx_proxy(req, &hlen)) {
	case RX_COMPLETE:
		if (h1_proxy_take(sp, req->rx_p, hlen, &sc) != 0)
			break;
		req->rx_p += hlen;
		sp->proxy_wait = 0;
		sp->t_rx = 0;
		return (0);
	case RX_IDLE:
		h1_park(sp, reqp);
		return (-1);
	case RX_EOF:
		sc = SC_REM_CLOSE;
		break;
	case RX_DRAIN:
		sc = SC_RX_CLOSE_IDLE;
		break;
	case RX_EOF_PARTIAL:
		why = "PROXY: connection closed inside the header";
		sc = SC_RX_JUNK;
		break;
	case RX_TIMEOUT:
		why = "PROXY: no whole header within timeout_idle";
		sc = SC_RX_TIMEOUT;
		break;
	case RX_OVERFLOW:
		why = "PROXY: header too long (v1: 108 bytes, v2: 1040)";
		sc = SC_RX_OVERFLOW;
		break;
	case RX_JUNK:
		why = "PROXY: not a PROXY header";
		sc = SC_RX_JUNK;
		break;
	default:
		WRONG("h1_rx");
	}
	if (why != NULL) {
		VSL(SLT_ProxyGarbage, sp->vxid | VSL_CLIENTMARKER, "%s", why);
		VSC_Add(sess_proxy_bad, 1);
	}
	h1_close(sp, reqp, sc, 0);
	return (-1);
}

static void h1_loop(struct worker *wrk, struct sess *sp, struct req *req);
static int h1_done(struct worker *wrk, struct sess *sp, struct req **reqp);
static void h1_await(struct worker *wrk, struct sess *sp, struct req *req);

void
H1_Session(struct worker *wrk, void *priv)
{
	struct sess *sp;
	struct req *req;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CAST_OBJ_NOTNULL(sp, priv, SESS_MAGIC);
	if (!sp->opened)
		h1_open_session(wrk, sp);
	req = REQ_New(wrk, sp);
	if (req == NULL) {
		SES_Delete(&sp, SC_OVERLOAD);
		return;
	}
	PANIC_SetReq(req);
	if (sp->proxy_wait && h1_proxy(sp, &req) != 0) {
		PANIC_SetReq(NULL);
		return;
	}
	h1_loop(wrk, sp, req);
	PANIC_SetReq(NULL);
}

static void
h1_loop(struct worker *wrk, struct sess *sp, struct req *req)
{
	const char *hb, *he;
	enum h1_rx rx;

	for (;;) {
		rx = h1_rx_head(req, &hb, &he);
		switch (rx) {
		case RX_COMPLETE:
			break;
		case RX_IDLE:
			h1_park(sp, &req);
			return;
		case RX_EOF:
			h1_close(sp, &req, SC_REM_CLOSE, 0);
			return;
		case RX_DRAIN:
			h1_close(sp, &req, SC_RX_CLOSE_IDLE, 0);
			return;
		case RX_EOF_PARTIAL:
			h1_close(sp, &req, SC_RX_JUNK, 0);
			return;
		case RX_TIMEOUT:
			h1_close(sp, &req, SC_RX_TIMEOUT, 0);
			return;
		case RX_OVERFLOW:
		case RX_JUNK:
			req->vxid = WRK_NewVxid(wrk);
			VSL_SetId(req->vsl, req->vxid | VSL_CLIENTMARKER);
			VSLb(req->vsl, SLT_Begin, "req %u rxreq", sp->vxid);
			VSLbt(req->vsl, SLT_HttpGarbage, TXT_Make(req->rx_p,
			    req->rx_p + (req->rx_e - req->rx_p > 64 ? 64 :
			    req->rx_e - req->rx_p)));
			h1_reject(req, rx == RX_OVERFLOW ? 431 : 400,
			    rx == RX_OVERFLOW ?
			    "request head larger than http_req_size" :
			    "received junk instead of a request");
			if (rx == RX_JUNK)
				req->doclose = SC_RX_JUNK;
			VSLb(req->vsl, SLT_End, "%s", "");
			h1_close(sp, &req, req->doclose, 1);
			return;
		default:
			WRONG("h1_rx");
		}
		sp->nreq++;
		if (h1_prepare(wrk, req, (char *)(uintptr_t)hb,
		    (char *)(uintptr_t)he) == 0) {
			req->may_await = 1;
			if (REQ_Process(wrk, req) != 0) {
				h1_await(wrk, sp, req);
				return;
			}
		} else {
			if (req->vcl != NULL)
				VCL_Rel(&req->vcl);
			VSLb(req->vsl, SLT_ReqAcct, "%ju 0 %ju %ju 0 %ju",
			    (uintmax_t)req->acct_req_hdr,
			    (uintmax_t)req->acct_req_hdr,
			    (uintmax_t)req->acct_resp_hdr,
			    (uintmax_t)req->acct_resp_hdr);
			VSLb(req->vsl, SLT_End, "%s", "");
		}
		if (h1_done(wrk, sp, &req) != 0)
			return;
	}
}

/*
 * A request is over: 0 to read the next one on the session, 1 when the
 * session was parked or closed (*reqp is NULL then).
 */
static int
h1_done(struct worker *wrk, struct sess *sp, struct req **reqp)
{
	struct req *req = *reqp;

	VSL_Flush(req->vsl);
	if (H1_ReqBodyPending(req)) {
		/*
		 * We answered without reading the whole body: close,
		 * lingering so the unread bytes do not turn our answer
		 * into a reset.
		 */
		if (req->doclose == SC_NULL)
			req->doclose = SC_RESP_CLOSE;
		req->linger = 1;
	}
	if (req->doclose != SC_NULL) {
		h1_close(sp, reqp, req->doclose, req->linger);
		return (1);
	}
	if (child_draining) {
		h1_close(sp, reqp, SC_RESP_CLOSE, 0);
		return (1);
	}
	REQ_Recycle(req);
	VSC_Publish(wrk->stats);
	if (req->rx_e == req->rx_p) {
		/*
		 * Nothing pipelined: park without trying a read.  A client
		 * rarely has its next request out before it has our
		 * answer, so that read nearly always finds nothing (one
		 * wasted system call per request); the linger set's epoll,
		 * armed level-triggered, hands the session back at once if
		 * the bytes did come.
		 */
		h1_park(sp, reqp);	/* sets t_idle */
		return (1);
	}
	sp->t_idle = TIM_mono();
	VSC_Count(wrk->stats, sess_readahead, 1);
	return (0);
}

/* The pass's answer came (or is late): go on, on this worker. */
static void
h1_resume(struct worker *wrk, void *priv)
{
	struct req *req;
	struct sess *sp;

	CHECK_OBJ_NOTNULL(wrk, WORKER_MAGIC);
	CAST_OBJ_NOTNULL(req, priv, REQ_MAGIC);
	sp = req->sp;
	CHECK_OBJ_NOTNULL(sp, SESS_MAGIC);
	PANIC_SetReq(req);
	if (REQ_Resume(wrk, req, req->await.timed_out) != 0)
		h1_await(wrk, sp, req);
	else if (h1_done(wrk, sp, &req) == 0)
		h1_loop(wrk, sp, req);
	PANIC_SetReq(NULL);
}

/*
 * The request is out to the backend: let this worker go, and have the
 * pool run h1_resume when the answer comes.  After POOL_Await the
 * request may be going on elsewhere already: nothing here touches it.
 * If the pool cannot take it, wait here as before.
 */
static void
h1_await(struct worker *wrk, struct sess *sp, struct req *req)
{
	vtim_mono deadline;
	int fd;

	fd = FETCH_AwaitFd(req, &deadline);
	req->await.task.func = h1_resume;
	req->await.task.priv = req;
	if (POOL_Await(sp->pool, &req->await, fd, deadline) == 0)
		return;
	req->may_await = 0;
	req->bo->may_await = 0;
	h1_resume(wrk, req);
}

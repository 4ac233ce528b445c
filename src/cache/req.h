/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * req.h -- a client request and its processing: the state machine that
 * calls VCL (req_fsm.c), HTTP/1 reception and delivery (http1_*.c).
 * A req belongs to the worker serving its session; no locks.
 *
 * Memory: one block from the pool's request free list holds struct req
 * and its workspace (workspace_client).  The workspace starts with the
 * log buffer and the receive buffer, which live as long as the req; a
 * snapshot taken after them is where each request's allocations begin.
 */

#ifndef VENEER_CACHE_REQ_H
#define VENEER_CACHE_REQ_H

#include <stdint.h>

#include "common/sha256.h"
#include "common/tim.h"
#include "cache/http.h"
#include "cache/http1_parse.h"
#include "cache/session.h"
#include "cache/vrt_privs.h"
#include "cache/vsl.h"
#include "cache/ws.h"

struct boc;
struct busyobj;
struct esi_ctx;
struct director;
struct objcore;
struct vcl;
struct vrt_ip;

/* The steps, from req_steps.h; DONE ends the machine. */
enum req_step {
#define REQ_STEP(l, U)	R_STP_##U,
#include "cache/req_steps.h"
	R_STP_DONE,
	R_STP_AWAIT,	/* a pass's request is out: REQ_Resume goes on */
};

enum req_body_state {
	RB_NONE,	/* the request has no body */
	RB_UNREAD,	/* not read yet */
	RB_READING,	/* part of it read */
	RB_DONE,	/* all read */
	RB_ERROR,	/* failed; the connection must close */
};

struct req {
	unsigned		magic;
#define REQ_MAGIC		0x6d09e2db
	struct sess		*sp;
	struct worker		*wrk;
	struct vcl		*vcl;		/* one reference */
	uint32_t		vxid;
	enum req_step		step;
	unsigned		restarts;
	enum sess_close		doclose;	/* close after this request */

	struct http		*http;		/* the request */
	struct http		*resp;		/* the response */
	const struct director	*director_hint;
	struct busyobj		*bo;		/* the fetch, while it runs */

	/* The cache */
	struct sha256_ctx	sha[1];		/* vcl_hash feeds it */
	unsigned char		digest[SHA256_LEN];
	struct objcore		*objcore;	/* one ref: what we deliver */
	struct http		*obj_http;	/* in ws: objcore's headers */
	struct boc		*boc;		/* one ref: while it streams */
	struct objcore		*busy;		/* one ref: ours to fetch */
	struct objcore		*stale;		/* one ref: to revalidate */
	unsigned		hash_always_miss;
	unsigned		hash_ignore_busy;
	unsigned		hash_ignore_vary;
	unsigned		force_miss;	/* vcl_hit said miss */
	unsigned		waits;		/* lookups that found busy */
	/* What happened, for Cache-Status and the log */
	unsigned		is_hit;
	unsigned		is_grace;
	unsigned		is_hitmiss;
	unsigned		is_hitpass;
	unsigned		is_collapsed;
	unsigned		is_pass;
	unsigned		is_stored;	/* our fetch got cached */
	unsigned		is_stale_error;	/* stale-if-error */
	uint16_t		fwd_status;	/* its backend status, or 0 */
	unsigned		is_reval;	/* a 304 refreshed a stale copy */
	/* Delivery of a cached object: body bytes [range_lo, range_hi) */
	uint64_t		range_lo;
	uint64_t		range_hi;	/* UINT64_MAX: to the end */
	/* A gzip object to a client that does not accept gzip: the body
	 * is uncompressed on the way out; the range is of its bytes. */
	unsigned		gunzip;
	uint64_t		gunzip_len;	/* its length, UINT64_MAX: not
						   known (still arriving) */
	/* An esi_gzip object (obj.h) to a gzip client: compressed on the
	 * way out, ESI assembled first. */
	unsigned		gzip_out;

	/* Receive buffer: [rx_b, rx_e) received, rx_p next unconsumed. */
	char			*rx_b;
	char			*rx_p;
	char			*rx_e;
	char			*rx_l;		/* capacity end */
	size_t			rx_hlim;	/* largest head (http_req_size) */
	char			*rx_body;	/* where body reads go */
	struct h1_scan		rx_scan;	/* of the head at rx_p */

	/* Request body */
	enum body_status	body_bs;
	enum req_body_state	body_state;
	uint64_t		body_cl;	/* Content-Length received */
	unsigned		body_cl_sent;	/* it had a Content-Length */
	uint64_t		body_left;	/* BS_LENGTH: bytes to come */
	uint64_t		body_bytes;	/* decoded bytes so far */
	struct h1_chunked	body_chunked;
	unsigned		want100;	/* Expect: 100-continue */
	unsigned		sent100;
	unsigned		body_socket;	/* read from the socket */
	vtim_mono		t_body_end;	/* timeout_req_body, or 0 */

	/* Synthetic response */
	uint16_t		err_code;
	const char		*err_reason;
	char			*synth_body;	/* in ws */
	size_t			synth_len;

	/* Accounting: ReqAcct */
	uint64_t		acct_req_hdr;
	uint64_t		acct_req_body;
	uint64_t		acct_resp_hdr;
	uint64_t		acct_resp_body;

	vtim_real		t_first;	/* first byte of the request */
	vtim_real		t_prev;		/* last timestamp */
	vtim_mono		t_rx_mono;	/* start of reception */

	unsigned		is_head;
	unsigned		proto11;	/* client speaks HTTP/1.1 */
	unsigned		ws_overflow;	/* already counted */
	unsigned		linger;		/* close with a lingering close */

	struct vsl_log		vsl[1];
	uintptr_t		ws_req;		/* per-request snapshot */
	struct ws		ws[1];

	/*
	 * Modules' states (vrt_privs.c), on ws: this task's PRIV_TASKs,
	 * and a top request's PRIV_TOPs, shared with its ESI includes.
	 * Ended by req_finish; they outlive restarts.
	 */
	struct vrt_privs	privs_task[1];
	struct vrt_privs	privs_top[1];

	/*
	 * VCL runtime (vrt_var.c): valid only while vrt_vxid == vxid, so
	 * that no reset code elsewhere has to know about them.
	 */
	uint32_t		vrt_vxid;
	unsigned		vrt_trace;
	unsigned		vrt_ttl_set;
	unsigned		vrt_grace_set;
	vtim_dur		vrt_ttl;	/* req.ttl */
	vtim_dur		vrt_grace;	/* req.grace */
	const char		*vrt_identity;	/* client.identity, in ws */
	const struct vrt_ip	*vrt_client_ip;	/* made once, in ws */
	unsigned		vrt_sess_set;	/* bit i: vrt_sess_tmo[i] */
	vtim_dur		vrt_sess_tmo[3];	/* sess.timeout_idle... */

	/* VCL (issue 12) */
	const char		*client_identity;	/* in ws, or NULL */

	/*
	 * return (vcl(label)): the label vcl_recv chose (borrowed from
	 * vcl's own references), the VCL the request started in once it
	 * has switched, and the request as vcl_recv first saw it, to start
	 * the labelled VCL from (saved only for VCLs that use labels).
	 */
	struct vcl		*vcl_label;	/* borrowed; NULL: none */
	struct vcl		*vcl0;		/* one reference, or NULL */
	struct http		*http0;		/* in ws, or NULL */
	uintptr_t		ws_vcl;		/* ws snapshot after http0 */

	/*
	 * ESI (esi_deliver.c).  An include is a request of its own, made
	 * and run by its parent's delivery on the same worker and session;
	 * it writes its body into the parent's response.
	 */
	struct req		*top;		/* the client's request: this
						   one, or an include's top;
						   outlives the include */
	unsigned		esi_level;	/* req.esi_level */
	unsigned		may_await;	/* the transport can park it */
	struct pool_await	await;		/* parked: its pass's answer */
	unsigned		esi_off;	/* req.esi / resp.do_esi false */
	unsigned		esi_failed;	/* an include's body failed */
	struct esi_ctx		*esi_ctx;	/* an include: where its body
						   goes (its parent's stack) */
};

/* req.c */
/* NULL when out of memory or when the session's partial request does
 * not fit the receive buffer (http_req_size was lowered). */
struct req *REQ_New(struct worker *wrk, struct sess *sp);
void REQ_Free(struct req **reqp);
/*
 * A request for an ESI include of parent's, on its session and worker,
 * without a receive buffer (it has no client bytes).  NULL when out of
 * memory.  Freed with REQ_Free.
 */
struct req *REQ_NewEsi(struct req *parent);
/* After a request: keep pipelined bytes, reset the workspace. */
void REQ_Recycle(struct req *req);
/*
 * The one place per-request state is reset.  REQ_RESET_REQUEST: all of
 * it, for the next request on the connection (REQ_New, REQ_Recycle).
 * REQ_RESET_RESTART: what a restart starts afresh (the response and
 * what the last round found out), keeping the request itself, its
 * body's progress and the restart count.  The caller has released the
 * objects and the fetch first.
 */
enum req_reset {
	REQ_RESET_REQUEST,
	REQ_RESET_RESTART,
};
void REQ_Reset(struct req *req, enum req_reset how);

/* req_fsm.c: process one received, parsed request. */
/*
 * Run a request: 0 when it is done; 1 when it awaits its pass's answer
 * (only with req->may_await, which the transport sets when it can park
 * the request: then it hands FETCH_AwaitFd's descriptor to the pool and
 * calls REQ_Resume, on whichever worker, when it is readable or late).
 * REQ_Resume returns the same way.
 */
int REQ_Process(struct worker *wrk, struct req *req);
int REQ_Resume(struct worker *wrk, struct req *req, unsigned timed_out);
/* A step's name ("recv"...), for logs and panics; "?" if out of range. */
const char *REQ_StepName(enum req_step step);

/* http1_session.c */
/*
 * Next piece of the request body: 1 with *out (valid until the next call),
 * 0 at the end, -1 on error (timeout, client gone, malformed, over
 * http_req_body_max: req->err_code then says what to answer).
 */
int H1_ReqBodyNext(struct req *req, struct txt *out);
/* Is part of the request body still unread (or did reading it fail)? */
int H1_ReqBodyPending(const struct req *req);
/* Send a 103 Early Hints or other interim response to the client. */
void H1_SendInterim(struct req *req, const struct http *interim);

/* http1_deliver.c */
/*
 * Write the response: req->resp's head, then the body from the cached
 * object (req->objcore, while it is fetched too), the pass fetch
 * (req->bo), or the synthetic body, framed and ranged as the request
 * asks.
 */
void H1_Transmit(struct worker *wrk, struct req *req);
/* A minimal error answer outside VCL (400, 431, 505...); closes. */
void H1_ErrorClose(struct req *req, unsigned status, enum sess_close sc);

/* Count a response status in the client_resp_* counters. */
void REQ_CountStatus(struct worker *wrk, unsigned status);

#endif /* VENEER_CACHE_REQ_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fetch.h -- a backend request ("busy object"): building the backend
 * request, calling vcl_backend_fetch / vcl_backend_response /
 * vcl_backend_error, talking HTTP/1 to the backend, and reading the
 * response body for delivery.  For pass and pipe the client's worker
 * runs the fetch itself and streams the body straight to the client; a
 * fetch into the cache runs as a task of its own (FETCH_Miss).
 */

#ifndef VENEER_CACHE_FETCH_H
#define VENEER_CACHE_FETCH_H

struct stevedore;
#include <stdint.h>
#include <sys/socket.h>

#include "common/tim.h"
#include "cache/gzip.h"
#include "cache/http.h"
#include "cache/http1_parse.h"
#include "cache/pool.h"
#include "cache/proxy_recv.h"
#include "cache/req.h"
#include "cache/vsl.h"
#include "cache/ws.h"

struct backend;
struct boc;
struct objcore;
struct pool;
struct director;
struct req;
struct vbc;
struct vcl;
struct worker;

/* Where the client's body stood before a send, to send it again. */
struct bo_body_mark {
	char			*rx_p;
	uint64_t		body_left;
	uint64_t		body_bytes;
	enum req_body_state	body_state;
	struct h1_chunked	chunked;
};

struct busyobj {
	unsigned		magic;
#define BUSYOBJ_MAGIC		0x5145959c
	struct worker		*wrk;
	struct req		*req;		/* pass/pipe: the request body */
	/*
	 * Who gets 103 Early Hints: the request, which for a cache fetch
	 * waits for the headers, so it lives until they are published.
	 */
	struct req		*interim_req;
	struct pool		*pool;		/* whose free list bo is from */
	/*
	 * The client's session as VCL sees it (client.ip, local.ip,
	 * sess.xid, ...): copied, since a background fetch may outlive it.
	 */
	struct sockaddr_storage	sp_remote;
	struct sockaddr_storage	sp_local;
	unsigned		sp_proxied;	/* client.ip, server.ip: */
	union proxy_addr	sp_client;	/* a PROXY header's */
	union proxy_addr	sp_server;
	const struct listen_sock *sp_ls;
	uint32_t		sp_vxid;
	struct vcl		*vcl;		/* one reference (miss) */
	uint32_t		vxid;
	/* The request's hash (vcl_hash): the shard director's by=HASH */
	unsigned char		digest[SHA256_LEN];
	unsigned		retries;
	unsigned		is_pipe;
	unsigned		is_pass;	/* FETCH_Pass: nothing stored */
	unsigned		vcl_error;	/* VCL said return (error) */
	unsigned		no_stream;	/* beresp.do_stream = false */
	unsigned		unbusy_late;	/* no_stream: in the cache once
						   the body is whole */
	unsigned		do_esi;		/* beresp.do_esi */
	unsigned		do_gzip;	/* beresp.do_gzip */
	unsigned		do_gunzip;	/* beresp.do_gunzip */
	int			gzip_mode;	/* enum gzip_mode the body is
						   stored through, or -1 */
	unsigned		gzipped;	/* the stored body is gzip */
	unsigned		changed_ce;	/* gzip or gunzip stores it */
	unsigned		esi_gzip;	/* ESI stored plain where Varnish
						   stores gzip: obj.h */

	/* A fetch into the cache (FETCH_Miss), run as its own task */
	struct pool_task	task;
	struct objcore		*fetch_oc;	/* one ref: the busy objcore */
	struct boc		*boc;		/* one ref */
	struct http		*bereq0;	/* bereq before VCL: for Vary */
	struct objcore		*stale_oc;	/* one ref: to revalidate */
	unsigned		reval;		/* 304: body from stale_oc */
	uint16_t		fwd_status;	/* the failure stale covers */
	unsigned		is_bg;		/* nobody waits: grace refresh */
	unsigned		is_hitmiss;	/* bereq.is_hitmiss */
	unsigned		is_hitpass;	/* bereq.is_hitpass */
	unsigned		uncacheable;	/* beresp.uncacheable */
	struct stevedore	*stv_vcl;	/* beresp.storage, or NULL */
	struct stevedore	*stv_default;	/* read by VCL before it chose */
	unsigned		hfp;		/* return (pass) in v_b_r */
	const char		*ttl_source;	/* "RFC", "VCL", "HFP"... */

	/* beresp.ttl & co: lifetimes counted from t_origin */
	vtim_real		t_origin;
	vtim_dur		ttl;
	vtim_dur		grace;
	vtim_dur		keep;
	vtim_dur		stale_if_error;
	unsigned		rfc_flags;
	vtim_real		t_bereq;	/* request sent */
	vtim_real		t_beresp;	/* response head received */

	struct http		*bereq;
	struct http		*beresp;
	const struct director	*director;
	struct backend		*backend;
	struct vbc		*vbc;		/* the backend connection */
	unsigned		reused;		/* vbc came from the idle pool */
	unsigned		may_await;	/* FETCH_Pass may return FR_AWAIT */
	unsigned		fo_attempt;	/* the exchange's: 0, 1 (fresh) */
	unsigned		fo_timeout;	/* it timed out: no new attempt */
	struct bo_body_mark	fo_mark;	/* the client body, to resend */

	vtim_dur		connect_timeout;
	vtim_dur		first_byte_timeout;
	vtim_dur		between_bytes_timeout;

	/* Response head buffer */
	char			*rx_b;
	char			*rx_p;
	char			*rx_e;
	char			*rx_l;

	/* Response body */
	enum body_status	bs;
	uint64_t		content_length;
	uint64_t		body_left;
	struct h1_chunked	chunked;
	const char		*in_b;		/* raw body bytes not yet used */
	const char		*in_e;
	unsigned		must_close;
	unsigned		body_done;
	unsigned		failed;

	/* Synthetic response (vcl_backend_error) */
	unsigned		synth;
	char			*synth_body;
	size_t			synth_len;
	unsigned		synth_sent;
	/* return (error(status, reason)): vcl_backend_error starts there */
	uint16_t		err_code;
	const char		*err_reason;

	vtim_real		t_first;
	vtim_real		t_prev;
	uint64_t		acct_bereq_hdr;
	uint64_t		acct_bereq_body;
	uint64_t		acct_beresp_hdr;
	uint64_t		acct_beresp_body;
	/* The acct_* above already in the VBE counters (FETCH_AcctVbe). */
	uint64_t		vbe_mark[4];

	struct vsl_log		vsl[1];
	struct ws		ws[1];
	struct vrt_privs	privs[1];	/* PRIV_TASKs, on ws; ended
						   by bo_free */
};

/* How the backend side of a fetch ended (up to the response head). */
enum fetch_result {
	FR_OK,		/* bo->beresp is ready: real, or vcl_backend_error's */
	FR_ABANDON,	/* VCL abandoned it, or no busyobj: answer 503 */
	FR_REQBODY,	/* the client's request body failed */
	FR_STALE,	/* the backend failed; serve bo->stale_oc instead */
	FR_AWAIT,	/* sent; FETCH_PassResume when the answer is due */
};

/*
 * Run a pass fetch for req up to the response headers, on the caller's
 * worker.  Returns FR_OK with req->bo set and bo->beresp holding the
 * response; FR_ABANDON (answer 503); FR_REQBODY (req->err_code says
 * whether to answer, and with what).  After those two req->bo may be
 * set: the caller still calls FETCH_Finish.  Never FR_STALE: a pass has
 * no stale copy.
 */
enum fetch_result FETCH_Pass(struct worker *wrk, struct req *req);
/*
 * FETCH_Pass returns FR_AWAIT when req->may_await (the transport can
 * park the request) and the request went out: the worker may serve
 * others until FETCH_AwaitFd's descriptor is readable or its deadline
 * (0: none) passes, then FETCH_PassResume(timed_out) goes on, on any
 * worker, and returns as FETCH_Pass would (FR_AWAIT again after a
 * retry on a fresh connection).
 */
int FETCH_AwaitFd(const struct req *req, vtim_mono *deadline);
enum fetch_result FETCH_PassResume(struct worker *wrk, struct req *req,
    unsigned timed_out);

/*
 * Next piece of the response body: 1 with *out (valid until the next
 * call), 0 at the end, -1 when the fetch failed.
 */
int FETCH_BodyNext(struct busyobj *bo, struct txt *out);

/*
 * A pass with beresp.do_esi: its whole body into a private object in
 * Transient, parsed for ESI as a cache fetch does, so that it is
 * delivered as one.  Returns the objcore (one reference), or NULL when
 * it could not be stored or the body failed.
 */
struct objcore *FETCH_PassStore(struct worker *wrk, struct busyobj *bo);

/*
 * A streamed pass's body (FETCH_Pass, not ESI) to func, through the
 * gzip, gunzip or test stream its beresp.do_gzip & co asked for (or, with
 * gunzip, uncompressed for a client that does not take gzip: bo->gzipped
 * was set).  func must use the bytes before it returns; non-zero stops
 * (the client is gone).  Returns 0, or -1 when the body failed (a bad
 * gzip body is a FetchError): the client must see it truncated.
 */
int FETCH_PassBody(struct worker *wrk, struct busyobj *bo, int gunzip,
    void *priv, gzip_out_f *func);

/*
 * A connection to bo->backend for a fetch or a pipe (fresh when
 * force_fresh): BACKEND_GetConn, then on a new connection of a
 * .proxy_header backend the PROXY header, vouching for the session
 * copied into bo (a grace refresh speaks for the client that set it
 * off), counted in the bereq header bytes.  NULL with the reason
 * logged (FetchError) and counted.
 */
struct vbc *FETCH_GetConn(struct worker *wrk, struct busyobj *bo,
    vtim_dur connect_timeout, unsigned force_fresh, unsigned *reused);

/* Release the fetch: recycle or close the connection, log, free. */
void FETCH_Finish(struct busyobj **bop);
/* bo's bytes since the last call to its connection's VBE counters. */
void FETCH_AcctVbe(struct busyobj *bo);

/* beresp.ttl, grace and keep from the response's headers, and a log. */
void FETCH_Ttl(struct busyobj *bo);

/*
 * Fetch into the cache: oc is the busy objcore HSH_Lookup made (the
 * caller's reference goes to the fetch).  The fetch runs as a task of
 * its own; readers wait on oc->boc.  bg: a grace refresh nobody waits
 * for.  Returns 0, or -1 when the fetch could not start (oc has then
 * failed and left the cache).  *stalep (may be NULL): a stale copy
 * (its reference goes to the fetch) to revalidate with a conditional
 * request, and to serve instead of an error while stale-if-error or
 * grace allows.
 */
int FETCH_Miss(struct worker *wrk, struct req *req, struct objcore **ocp,
    struct objcore **stalep, unsigned bg);

/*
 * Start a pipe's busyobj (fetch.c, for pipe.c): bereq built from the
 * request, with Connection: close.  Sets req->bo; NULL if no busyobj
 * could be had.
 */
struct busyobj *FETCH_PipeBegin(struct worker *wrk, struct req *req);
/*
 * Pipe: vcl_pipe, then connect, send the request and copy bytes both ways
 * until one side ends.  Returns the next request step (R_STP_SYNTH if VCL
 * or the backend said no, else R_STP_DONE).
 */
enum req_step FETCH_Pipe(struct worker *wrk, struct req *req);

/* debug.fragfetch: store fetched bodies N bytes at a time (0: off). */
void FETCH_SetFrag(unsigned n);
unsigned FETCH_Frag(void);

#endif /* VENEER_CACHE_FETCH_H */

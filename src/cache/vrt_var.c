/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_var.c -- the accessors of include/vcl_vars.h: VRT_r_ (read),
 * VRT_l_ (set) and VRT_u_ (unset) of every VCL variable, and the IP
 * values of the session's addresses.  Each checks that what it needs
 * exists in this context: the compiler already refused illegal uses,
 * but a mistake must fail the method with VCL_Error, never crash.
 */

#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/esi.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/obj.h"
#include "cache/child.h"
#include "cache/req.h"
#include "cache/rfc.h"
#include "cache/session.h"
#include "cache/storage.h"
#include "cache/vrt_priv.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* The table, for context checks ------------------------------------------*/

static const struct vrtv_spec {
	const char		*name;
	unsigned		can[3];		/* by enum vrtv_op */
	unsigned		flags;
} vrtv_spec[VRTV__MAX] = {
#define VCL_VAR(c, name, T, rd, wr, un, fl, doc)			\
	[VRTV_##c] = { name, { rd, wr, un }, fl },
#define VCL_HDR(where, name, rd, wr, un, doc)
#include "vcl_vars.h"
};

static const char * const vrtv_method[VCL_MET__MAX] = {
#define VCL_MET(l, U, side, rets)	[VCL_MET_##U] = "vcl_" #l,
#include "vcl_returns.h"
};

static const char * const vrtv_opname[] = {
	[VRTV_READ] = "read",
	[VRTV_SET] = "set",
	[VRTV_UNSET] = "unset",
};

int
VRTV_Check(VRT_CTX, enum vrtv_id id, enum vrtv_op op)
{
	const struct vrtv_spec *vs;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(id < VRTV__MAX);
	assert(op <= VRTV_UNSET);
	vs = &vrtv_spec[id];
	if ((unsigned)ctx->method < VCL_MET__MAX &&
	    (vs->can[op] & (1U << ctx->method)) != 0)
		return (1);
	VRT_fail(ctx, "%s cannot be %s in %s", vs->name, vrtv_opname[op],
	    (unsigned)ctx->method < VCL_MET__MAX ?
	    vrtv_method[ctx->method] : "this context");
	return (0);
}

const char *
VRTV_Name(enum vrtv_id id)
{

	assert(id < VRTV__MAX);
	return (vrtv_spec[id].name);
}

unsigned
VRTV_Flags(enum vrtv_id id)
{

	assert(id < VRTV__MAX);
	return (vrtv_spec[id].flags);
}

/* IP values ---------------------------------------------------------------*/

int
VRT_ip_from_sa(struct vrt_ip *ip, const struct sockaddr *sa)
{

	memset(ip, 0, sizeof *ip);
	ip->magic = VRT_IP_MAGIC;
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const void *)sa;

		ip->family = AF_INET;
		ip->port = ntohs(sin->sin_port);
		memcpy(ip->addr, &sin->sin_addr, 4);
		return (1);
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const void *)sa;

		ip->family = AF_INET6;
		ip->port = ntohs(sin6->sin6_port);
		memcpy(ip->addr, &sin6->sin6_addr, 16);
		return (1);
	}
	/* Unix sockets read as 0.0.0.0:0, as Varnish documents. */
	ip->family = AF_INET;
	return (0);
}

VCL_STRING
VRT_IP_string(VRT_CTX, VCL_IP ip)
{
	char buf[INET6_ADDRSTRLEN];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ip == NULL)
		return (NULL);
	CHECK_OBJ(ip, VRT_IP_MAGIC);
	if (inet_ntop(ip->family, ip->addr, buf, sizeof buf) == NULL)
		return (NULL);
	return (WS_Copy(ctx->ws, buf, strlen(buf)));
}

/*
 * The client's session as VCL sees it: the session itself on the client
 * side, the copy the fetch took on the backend side (a background fetch
 * may outlive the session).  NULL in vcl_init/vcl_fini.
 */
static const struct sockaddr *
vrt_sess_addr(VRT_CTX, int local)
{

	if (ctx->sp != NULL)
		return ((const struct sockaddr *)(local ?
		    SES_Local(ctx->sp) : &ctx->sp->remote));
	if (ctx->bo != NULL)
		return ((const struct sockaddr *)(local ?
		    &ctx->bo->sp_local : &ctx->bo->sp_remote));
	return (NULL);
}

/* client.ip (server 0) and server.ip: a PROXY header's, if one said. */
static const struct sockaddr *
vrt_sess_proxied(VRT_CTX, int server)
{

	if (ctx->sp != NULL)
		return (server ? SES_Server(ctx->sp) : SES_Client(ctx->sp));
	if (ctx->bo != NULL && ctx->bo->sp_proxied)
		return (server ? &ctx->bo->sp_server.sa :
		    &ctx->bo->sp_client.sa);
	return (vrt_sess_addr(ctx, server));
}

static const struct listen_sock *
vrt_sess_ls(VRT_CTX)
{

	if (ctx->sp != NULL)
		return (ctx->sp->ls);
	if (ctx->bo != NULL)
		return (ctx->bo->sp_ls);
	return (NULL);
}

/* local.ip (proxied 0) or server.ip, on the workspace. */
static VCL_IP
vrt_local_ip(VRT_CTX, int proxied)
{
	const struct sockaddr *ss;
	struct vrt_ip *ip;

	ss = proxied ? vrt_sess_proxied(ctx, 1) : vrt_sess_addr(ctx, 1);

	if (ss == NULL) {
		VRT_fail(ctx, "server.ip/local.ip: no session here");
		return (NULL);
	}
	ip = WS_Alloc(ctx->ws, sizeof *ip);
	if (ip == NULL) {
		VRT_fail(ctx, "out of workspace for an IP");
		return (NULL);
	}
	(void)VRT_ip_from_sa(ip, ss);
	return (ip);
}

VCL_IP
VRT_r_server_ip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_local_ip(ctx, 1));
}

/* Helpers -----------------------------------------------------------------*/

static const char * const vrt_method_name[VCL_MET__MAX] = {
#define VCL_MET(l, U, side, rets)	[VCL_MET_##U] = "vcl_" #l,
#include "vcl_returns.h"
};

/*
 * Is the variable usable in this method?  The compiler checked, so a
 * "no" is a compiler bug or hand-written C: fail the method, loudly.
 */
static int
vrt_ok(VRT_CTX, const char *name, unsigned methods)
{

	if ((unsigned)ctx->method < VCL_MET__MAX &&
	    (methods & (1U << ctx->method)) != 0)
		return (1);
	VRT_fail(ctx, "%s is not available in %s", name,
	    (unsigned)ctx->method < VCL_MET__MAX ?
	    vrt_method_name[ctx->method] : "this method");
	return (0);
}

static const char *
vrt_slot(const struct http *hp, unsigned slot)
{

	if (hp == NULL || hp->hd[slot].b == NULL)
		return (NULL);
	return (hp->hd[slot].b);
}

static VCL_INT
vrt_status(const struct http *hp)
{

	return (hp == NULL ? 0 : (VCL_INT)hp->status);
}

static void
vrt_set_slot(VRT_CTX, struct http *hp, unsigned slot, VCL_STRANDS v)
{
	const char *s;

	if (hp == NULL)
		return;
	s = VRT_StrandsWS(ctx->ws, NULL, v);
	if (s == NULL) {
		VRT_fail(ctx, "out of workspace setting a request line");
		return;
	}
	HTTP_SetSlot(hp, slot, s);
}

static const struct objcore *
vrt_oc(VRT_CTX)
{

	return (ctx->req == NULL ? NULL : ctx->req->objcore);
}

/* The request's VCL runtime fields, reset when a new request uses it. */
static struct req *
vrt_ext(VRT_CTX)
{
	struct req *req = ctx->req;

	if (req == NULL)
		return (NULL);
	CHECK_OBJ(req, REQ_MAGIC);
	if (req->vrt_vxid != req->vxid) {
		req->vrt_vxid = req->vxid;
		req->vrt_trace = 0;
		req->vrt_ttl_set = req->vrt_grace_set = 0;
		req->vrt_identity = NULL;
		req->vrt_client_ip = NULL;
		req->vrt_sess_set = 0;
	}
	return (req);
}

/* req.ttl (0) and req.grace (1): -1 when VCL did not set them. */
static VCL_DURATION
vrt_req_dur(VRT_CTX, int grace)
{
	struct req *req = vrt_ext(ctx);

	if (req == NULL)
		return (-1);
	if (grace)
		return (req->vrt_grace_set ? req->vrt_grace : -1);
	return (req->vrt_ttl_set ? req->vrt_ttl : -1);
}

/* For the lookup (req_fsm.c): what VCL set for this request, or -1. */
double
VRT_req_ttl_cap(struct req *req)
{

	CHECK_OBJ(req, REQ_MAGIC);
	if (req->vrt_vxid != req->vxid || !req->vrt_ttl_set)
		return (-1);
	return (req->vrt_ttl);
}

double
VRT_req_grace_cap(struct req *req)
{

	CHECK_OBJ(req, REQ_MAGIC);
	if (req->vrt_vxid != req->vxid || !req->vrt_grace_set)
		return (-1);
	return (req->vrt_grace);
}

static void
vrt_set_req_dur(VRT_CTX, int grace, VCL_DURATION v)
{
	struct req *req = vrt_ext(ctx);

	if (req == NULL)
		return;
	if (grace) {
		req->vrt_grace = v;
		req->vrt_grace_set = 1;
	} else {
		req->vrt_ttl = v;
		req->vrt_ttl_set = 1;
	}
}

static VCL_DURATION
vrt_sess_dur(VRT_CTX, int i)
{
	struct req *req = vrt_ext(ctx);

	if (req != NULL && (req->vrt_sess_set & (1U << i)))
		return (req->vrt_sess_tmo[i]);
	switch (i) {
	case 0:		return (cache_param->timeout_idle);
	case 1:		return (cache_param->send_timeout);
	default:	return (cache_param->idle_send_timeout);
	}
}

/* Kept for this request only: the session's pool applies the params. */
static void
vrt_set_sess_dur(VRT_CTX, int i, VCL_DURATION v)
{
	struct req *req = vrt_ext(ctx);

	if (req == NULL)
		return;
	req->vrt_sess_tmo[i] = v;
	req->vrt_sess_set |= 1U << i;
}

static VCL_STRING
vrt_hostname(void)
{
	static char name[256];

	if (name[0] == '\0' && gethostname(name, sizeof name - 1) != 0)
		(void)snprintf(name, sizeof name, "localhost");
	return (name);
}

static VCL_STRING
vrt_sess_xid(VRT_CTX)
{

	if (ctx->sp != NULL)
		return (WS_Printf(ctx->ws, "%u", (unsigned)ctx->sp->vxid));
	if (ctx->bo != NULL)
		return (WS_Printf(ctx->ws, "%u", (unsigned)ctx->bo->sp_vxid));
	return (NULL);
}

/*
 * client.ip (proxied 1) and remote.ip: the peer, or what a PROXY header
 * said it is.  client.ip is made at most once per request; so is
 * remote.ip when it is the same.
 */
static VCL_IP
vrt_remote_ip(VRT_CTX, int proxied)
{
	struct req *req = vrt_ext(ctx);
	const struct sockaddr *ss;
	struct vrt_ip *ip;
	struct ws *ws;
	int cache;

	cache = req != NULL && (proxied || req->sp->proxy == NULL);
	if (cache && req->vrt_client_ip != NULL)
		return (req->vrt_client_ip);
	ss = proxied ? vrt_sess_proxied(ctx, 0) : vrt_sess_addr(ctx, 0);
	if (ss == NULL)
		return (NULL);
	ws = req != NULL ? req->ws : ctx->ws;
	ip = WS_Alloc(ws, sizeof *ip);
	if (ip == NULL) {
		VRT_fail(ctx, "out of workspace for client.ip");
		return (NULL);
	}
	(void)VRT_ip_from_sa(ip, ss);
	if (cache)
		req->vrt_client_ip = ip;
	return (ip);
}

static VCL_STRING
vrt_client_identity(VRT_CTX)
{
	struct req *req = vrt_ext(ctx);

	if (req == NULL && ctx->bo != NULL)
		req = ctx->bo->req;
	if (req != NULL && req->vrt_vxid == req->vxid &&
	    req->vrt_identity != NULL)
		return (req->vrt_identity);
	return (VRT_IP_string(ctx, vrt_remote_ip(ctx, 1)));
}

static void
vrt_set_identity(VRT_CTX, VCL_STRANDS v)
{
	struct req *req = vrt_ext(ctx);

	if (req == NULL)
		return;
	req->vrt_identity = VRT_StrandsWS(req->ws, NULL, v);
	if (req->vrt_identity == NULL)
		VRT_fail(ctx, "out of workspace setting client.identity");
}

/* resp.body / beresp.body: replace the synthetic body. */
static void
vrt_set_body(VRT_CTX, VCL_STRANDS v)
{

	if (ctx->method == VCL_MET_BACKEND_ERROR && ctx->bo != NULL) {
		ctx->bo->synth_body = NULL;
		ctx->bo->synth_len = 0;
	} else if (ctx->method == VCL_MET_SYNTH && ctx->req != NULL) {
		ctx->req->synth_body = NULL;
		ctx->req->synth_len = 0;
	}
	VRT_synth_strands(ctx, v);
}

/*
 * unset bereq.body: the fetch sends the request body only for the
 * methods that have one (see http1_fetch.c), so there is nothing to
 * drop yet.
 */
static void
vrt_unset_bereq_body(VRT_CTX)
{

	(void)ctx;
}

/* The accessors (made from include/vcl_vars.h) --------------------------*/

VCL_STRING
VRT_r_local_endpoint(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "local.endpoint",
	    VM_CLIENT | VM_BACKEND))
		return (NULL);
	return (vrt_sess_ls(ctx) != NULL ? vrt_sess_ls(ctx)->endpoint :
	    NULL);
}

VCL_IP
VRT_r_local_ip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "local.ip",
	    VM_CLIENT | VM_BACKEND))
		return (NULL);
	return (vrt_local_ip(ctx, 0));
}

VCL_STRING
VRT_r_local_socket(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "local.socket",
	    VM_CLIENT | VM_BACKEND))
		return (NULL);
	return (vrt_sess_ls(ctx) != NULL ? vrt_sess_ls(ctx)->name : NULL);
}

VCL_IP
VRT_r_remote_ip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "remote.ip",
	    VM_CLIENT | VM_BACKEND))
		return (NULL);
	return (vrt_remote_ip(ctx, 0));
}

VCL_STRING
VRT_r_client_identity(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "client.identity",
	    VM_CLIENT | VM_BACKEND))
		return (NULL);
	return (vrt_client_identity(ctx));
}

void
VRT_l_client_identity(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "client.identity",
	    VM_CLIENT))
		return;
	vrt_set_identity(ctx, v);
}

VCL_IP
VRT_r_client_ip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "client.ip",
	    VM_CLIENT | VM_BACKEND))
		return (NULL);
	return (vrt_remote_ip(ctx, 1));
}

VCL_STRING
VRT_r_server_hostname(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "server.hostname",
	    VM_ALL))
		return (NULL);
	return (vrt_hostname());
}

VCL_STRING
VRT_r_server_identity(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "server.identity",
	    VM_ALL))
		return (NULL);
	if (child_args != NULL && child_args->identity != NULL)
		return (child_args->identity);
	return (vrt_hostname());
}

VCL_TIME
VRT_r_now(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "now",
	    VM_ALL))
		return (0.0);
	return (ctx->now);
}

VCL_BOOL
VRT_r_req_can_gzip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.can_gzip", VM_CLIENT))
		return (0);
	return (ctx->http_req != NULL && RFC_AcceptsGzip(ctx->http_req));
}

VCL_BOOL
VRT_r_req_esi(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.esi", VM_CLIENT) || ctx->req == NULL)
		return (0);
	return (!ctx->req->esi_off);
}

/*
 * false: no ESI processing for this request, whatever the object has.
 * As in Varnish, only a client's request can turn it off (an include's
 * set is ignored); resp.do_esi works at any level.
 */
void
VRT_l_req_esi(VRT_CTX, VCL_BOOL_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.esi", VM_CLIENT) || ctx->req == NULL ||
	    ctx->req->esi_level > 0)
		return;
	ctx->req->esi_off = !v;
}

VCL_INT
VRT_r_req_esi_level(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.esi_level", VM_CLIENT) || ctx->req == NULL)
		return (0);
	return (ctx->req->esi_level);
}

VCL_DURATION
VRT_r_req_grace(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.grace",
	    VM_CLIENT))
		return (0.0);
	return (vrt_req_dur(ctx, 1));
}

void
VRT_l_req_grace(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.grace",
	    VM_CLIENT))
		return;
	vrt_set_req_dur(ctx, 1, v);
}

VCL_BLOB
VRT_r_req_hash(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.hash",
	    VM_(HIT) | VM_(MISS) | VM_(PASS) | VM_(PURGE) | VM_(DELIVER)))
		return (NULL);
	if (ctx->req == NULL)
		return (NULL);
	CHECK_OBJ(ctx->req, REQ_MAGIC);
	/* The digest lives as long as the request. */
	return (VRT_blob(ctx, "req.hash", ctx->req->digest,
	    sizeof ctx->req->digest));
}

VCL_BOOL
VRT_r_req_hash_ignore_busy(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_hash_ignore_busy, VRTV_READ))
		return (0);
	return (ctx->req != NULL && ctx->req->hash_ignore_busy);
}

void
VRT_l_req_hash_ignore_busy(VRT_CTX, VCL_BOOL_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_hash_ignore_busy, VRTV_SET))
		return;
	if (ctx->req != NULL)
		ctx->req->hash_ignore_busy = v ? 1 : 0;
}

VCL_BOOL
VRT_r_req_hash_ignore_vary(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_hash_ignore_vary, VRTV_READ))
		return (0);
	return (ctx->req != NULL && ctx->req->hash_ignore_vary);
}

void
VRT_l_req_hash_ignore_vary(VRT_CTX, VCL_BOOL_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_req_hash_ignore_vary, VRTV_SET))
		return;
	if (ctx->req != NULL)
		ctx->req->hash_ignore_vary = v ? 1 : 0;
}

VCL_BOOL
VRT_r_req_is_hitmiss(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.is_hitmiss",
	    VM_CLIENT))
		return (0);
	return (ctx->req != NULL && ctx->req->is_hitmiss);
}

VCL_BOOL
VRT_r_req_is_hitpass(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.is_hitpass",
	    VM_CLIENT))
		return (0);
	return (ctx->req != NULL && ctx->req->is_hitpass);
}

void
VRT_l_req_method(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.method",
	    VM_CLIENT))
		return;
	vrt_set_slot(ctx, ctx->http_req, HTTP_HDR_METHOD, v);
}

void
VRT_l_req_proto(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.proto",
	    VM_CLIENT))
		return;
	vrt_set_slot(ctx, ctx->http_req, HTTP_HDR_PROTO, v);
}

VCL_INT
VRT_r_req_restarts(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.restarts",
	    VM_CLIENT))
		return (0);
	return (ctx->req != NULL ? (VCL_INT)ctx->req->restarts : 0);
}

/* req.storage: VV_MISSING, reads as NULL. */
VCL_STRING
VRT_r_req_storage(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (NULL);
}

/* req.storage: VV_MISSING, a set does nothing. */
void
VRT_l_req_storage(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)v;
}

VCL_TIME
VRT_r_req_time(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.time",
	    VM_CLIENT))
		return (0.0);
	return (ctx->req != NULL ? ctx->req->top->t_first : ctx->now);
}

VCL_BOOL
VRT_r_req_trace(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.trace",
	    VM_CLIENT))
		return (0);
	return (vrt_ext(ctx) != NULL && vrt_ext(ctx)->vrt_trace);
}

void
VRT_l_req_trace(VRT_CTX, VCL_BOOL_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.trace",
	    VM_CLIENT))
		return;
	if (vrt_ext(ctx) != NULL)
		vrt_ext(ctx)->vrt_trace = v ? 1 : 0;
}

VCL_STRING
VRT_r_req_transport(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.transport",
	    VM_CLIENT))
		return (NULL);
	return ("HTTP/1");
}

VCL_DURATION
VRT_r_req_ttl(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.ttl",
	    VM_CLIENT))
		return (0.0);
	return (vrt_req_dur(ctx, 0));
}

void
VRT_l_req_ttl(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.ttl",
	    VM_CLIENT))
		return;
	vrt_set_req_dur(ctx, 0, v);
}

void
VRT_l_req_url(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req.url",
	    VM_CLIENT))
		return;
	vrt_set_slot(ctx, ctx->http_req, HTTP_HDR_URL, v);
}

VCL_STRING
VRT_r_req_top_method(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req_top.method",
	    VM_CLIENT))
		return (NULL);
	return (vrt_slot(ctx->http_req_top, HTTP_HDR_METHOD));
}

VCL_STRING
VRT_r_req_top_proto(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req_top.proto",
	    VM_CLIENT))
		return (NULL);
	return (vrt_slot(ctx->http_req_top, HTTP_HDR_PROTO));
}

VCL_TIME
VRT_r_req_top_time(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req_top.time",
	    VM_CLIENT))
		return (0.0);
	return (ctx->req != NULL ? ctx->req->top->t_first : ctx->now);
}

VCL_STRING
VRT_r_req_top_url(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "req_top.url",
	    VM_CLIENT))
		return (NULL);
	return (vrt_slot(ctx->http_req_top, HTTP_HDR_URL));
}

VCL_DURATION
VRT_r_bereq_between_bytes_timeout(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.between_bytes_timeout",
	    VM_BACKEND))
		return (0.0);
	return (ctx->bo != NULL ?
	    ctx->bo->between_bytes_timeout : 0);
}

void
VRT_l_bereq_between_bytes_timeout(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.between_bytes_timeout",
	    VM_BACKEND))
		return;
	if (ctx->bo != NULL)
		ctx->bo->between_bytes_timeout = v;
}

void
VRT_u_bereq_body(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.body",
	    VM_(BACKEND_FETCH)))
		return;
	vrt_unset_bereq_body(ctx);
}

VCL_DURATION
VRT_r_bereq_connect_timeout(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.connect_timeout",
	    VM_(PIPE) | VM_BACKEND))
		return (0.0);
	return (ctx->bo != NULL ? ctx->bo->connect_timeout : 0);
}

void
VRT_l_bereq_connect_timeout(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.connect_timeout",
	    VM_(PIPE) | VM_BACKEND))
		return;
	if (ctx->bo != NULL)
		ctx->bo->connect_timeout = v;
}

VCL_DURATION
VRT_r_bereq_first_byte_timeout(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.first_byte_timeout",
	    VM_BACKEND))
		return (0.0);
	return (ctx->bo != NULL ?
	    ctx->bo->first_byte_timeout : 0);
}

void
VRT_l_bereq_first_byte_timeout(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.first_byte_timeout",
	    VM_BACKEND))
		return;
	if (ctx->bo != NULL)
		ctx->bo->first_byte_timeout = v;
}

VCL_BLOB
VRT_r_bereq_hash(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.hash",
	    VM_(PIPE) | VM_BACKEND))
		return (NULL);
	if (ctx->bo != NULL) {
		CHECK_OBJ(ctx->bo, BUSYOBJ_MAGIC);
		return (VRT_blob(ctx, "bereq.hash", ctx->bo->digest,
		    sizeof ctx->bo->digest));
	}
	if (ctx->req != NULL) {
		/* vcl_pipe: the client request's, as Varnish's. */
		CHECK_OBJ(ctx->req, REQ_MAGIC);
		return (VRT_blob(ctx, "bereq.hash", ctx->req->digest,
		    sizeof ctx->req->digest));
	}
	return (NULL);
}

VCL_BOOL
VRT_r_bereq_is_bgfetch(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.is_bgfetch",
	    VM_BACKEND))
		return (0);
	return (ctx->bo != NULL && ctx->bo->is_bg);
}

VCL_BOOL
VRT_r_bereq_is_hitmiss(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_is_hitmiss, VRTV_READ))
		return (0);
	return (ctx->bo != NULL && ctx->bo->is_hitmiss);
}

VCL_BOOL
VRT_r_bereq_is_hitpass(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_bereq_is_hitpass, VRTV_READ))
		return (0);
	return (ctx->bo != NULL && ctx->bo->is_hitpass);
}

void
VRT_l_bereq_method(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.method",
	    VM_(PIPE) | VM_BACKEND))
		return;
	vrt_set_slot(ctx, ctx->http_bereq, HTTP_HDR_METHOD, v);
}

VCL_STRING
VRT_r_bereq_proto(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.proto",
	    VM_(PIPE) | VM_BACKEND))
		return (NULL);
	return (vrt_slot(ctx->http_bereq, HTTP_HDR_PROTO));
}

void
VRT_l_bereq_proto(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.proto",
	    VM_(PIPE) | VM_BACKEND))
		return;
	vrt_set_slot(ctx, ctx->http_bereq, HTTP_HDR_PROTO, v);
}

VCL_INT
VRT_r_bereq_retries(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.retries",
	    VM_BACKEND))
		return (0);
	return (ctx->bo != NULL ? (VCL_INT)ctx->bo->retries : 0);
}

VCL_TIME
VRT_r_bereq_time(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.time",
	    VM_(PIPE) | VM_BACKEND))
		return (0.0);
	return (ctx->bo != NULL ? ctx->bo->t_first : ctx->now);
}

VCL_BOOL
VRT_r_bereq_trace(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.trace",
	    VM_BACKEND))
		return (0);
	return (0);
}

void
VRT_l_bereq_url(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "bereq.url",
	    VM_(PIPE) | VM_BACKEND))
		return;
	vrt_set_slot(ctx, ctx->http_bereq, HTTP_HDR_URL, v);
}

VCL_DURATION
VRT_r_beresp_age(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.age",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (0.0);
	return (ctx->bo != NULL ? ctx->now - ctx->bo->t_origin : 0);
}

/*
 * The backend the fetch went to (a director resolved), as varnishd's;
 * bereq.backend when it did not get that far.
 */
static VCL_BACKEND
vrt_beresp_backend(VRT_CTX)
{

	if (ctx->bo == NULL)
		return (NULL);
	if (ctx->bo->backend != NULL)
		return (BACKEND_Director(ctx->bo->backend));
	return (ctx->bo->director);
}

VCL_BACKEND
VRT_r_beresp_backend(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.backend",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (NULL);
	return (vrt_beresp_backend(ctx));
}

/* beresp.backend.ip: VV_MISSING, reads as NULL. */
VCL_IP
VRT_r_beresp_backend_ip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (NULL);
}

VCL_STRING
VRT_r_beresp_backend_name(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.backend.name",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (NULL);
	return (vrt_beresp_backend(ctx) != NULL ?
	    vrt_beresp_backend(ctx)->vcl_name : NULL);
}

void
VRT_l_beresp_body(VRT_CTX, VCL_BODY_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.body",
	    VM_(BACKEND_ERROR)))
		return;
	vrt_set_body(ctx, v);
}

VCL_BOOL
VRT_r_beresp_do_esi(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.do_esi",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (0);
	return (ctx->bo != NULL && ctx->bo->do_esi);
}

/* The body is parsed for ESI as it is stored (fetch.c). */
void
VRT_l_beresp_do_esi(VRT_CTX, VCL_BOOL_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.do_esi",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return;
	if (ctx->bo != NULL)
		ctx->bo->do_esi = v ? 1 : 0;
}

#define VRT_BERESP_FLAG(name, field)					\
VCL_BOOL								\
VRT_r_beresp_##field(VRT_CTX)						\
{									\
									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	if (!vrt_ok(ctx, name,						\
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))		\
		return (0);						\
	return (ctx->bo != NULL && ctx->bo->field);			\
}									\
									\
void									\
VRT_l_beresp_##field(VRT_CTX, VCL_BOOL_SET v)				\
{									\
									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	if (!vrt_ok(ctx, name,						\
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))		\
		return;							\
	if (ctx->bo != NULL)						\
		ctx->bo->field = v ? 1 : 0;				\
}

/* beresp.do_gzip, beresp.do_gunzip: read when the body is stored. */
VRT_BERESP_FLAG("beresp.do_gunzip", do_gunzip)
VRT_BERESP_FLAG("beresp.do_gzip", do_gzip)
#undef VRT_BERESP_FLAG

VCL_BOOL
VRT_r_beresp_do_stream(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.do_stream",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (0);
	return (ctx->bo == NULL || !ctx->bo->no_stream);
}

void
VRT_l_beresp_do_stream(VRT_CTX, VCL_BOOL_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.do_stream",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return;
	/*
	 * Off: the body is fetched whole before anyone gets the response
	 * (a fetch that fails on the way is a 503, not a cut body).  Only
	 * fetches into the cache: a pass is relayed as it comes.
	 */
	if (ctx->bo != NULL)
		ctx->bo->no_stream = !v;
}

/* beresp.filters: VV_MISSING, reads as NULL. */
VCL_STRING
VRT_r_beresp_filters(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (NULL);
}

/* beresp.filters: VV_MISSING, a set does nothing. */
void
VRT_l_beresp_filters(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)v;
}

VCL_STRING
VRT_r_beresp_proto(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.proto",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (NULL);
	return (vrt_slot(ctx->http_beresp, HTTP_HDR_PROTO));
}

void
VRT_l_beresp_proto(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.proto",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return;
	vrt_set_slot(ctx, ctx->http_beresp, HTTP_HDR_PROTO, v);
}

/*
 * beresp.storage: the store the object goes to ("storage.NAME"); NULL
 * until VCL picks one (then the default applies: Transient for the
 * short-lived, else round-robin over the -s stores).
 */
VCL_STRING
VRT_r_beresp_storage(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ_NOTNULL(ctx->bo, BUSYOBJ_MAGIC);
	if (ctx->bo->stv_vcl != NULL)
		return (WS_Printf(ctx->ws, "storage.%s",
		    ctx->bo->stv_vcl->name));
	/* Not chosen yet: the one it would go to, kept for the store. */
	if (ctx->bo->is_pass || ctx->bo->uncacheable)
		return ("storage.Transient");
	if (ctx->bo->stv_default == NULL)
		ctx->bo->stv_default = STV_Pick();
	return (WS_Printf(ctx->ws, "storage.%s", ctx->bo->stv_default->name));
}

/* "storage.NAME" or "NAME"; an unknown store fails the task. */
void
VRT_l_beresp_storage(VRT_CTX, VCL_STRING_SET vs)
{
	struct stevedore *stv = NULL;
	const char *v;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ_NOTNULL(ctx->bo, BUSYOBJ_MAGIC);
	v = VRT_STRANDS_string(ctx, vs);
	if (v != NULL && *v != '\0') {
		if (!strncmp(v, "storage.", 8))
			v += 8;
		stv = STV_Find(v);
		if (stv == NULL) {
			VRT_fail(ctx, "beresp.storage: no storage named %s",
			    v);
			return;
		}
	}
	ctx->bo->stv_vcl = stv;
}

/* VCL 4.0's name for beresp.storage. */
VCL_STRING
VRT_r_beresp_storage_hint(VRT_CTX)
{

	return (VRT_r_beresp_storage(ctx));
}

void
VRT_l_beresp_storage_hint(VRT_CTX, VCL_STRING_SET vs)
{

	VRT_l_beresp_storage(ctx, vs);
}

VCL_TIME
VRT_r_beresp_time(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.time",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (0.0);
	return (ctx->bo != NULL ? ctx->bo->t_beresp : ctx->now);
}

/* beresp.transit_buffer: VV_MISSING, reads as 0. */
VCL_BYTES
VRT_r_beresp_transit_buffer(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (0);
}

/* beresp.transit_buffer: VV_MISSING, a set does nothing. */
void
VRT_l_beresp_transit_buffer(VRT_CTX, VCL_BYTES_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)v;
}

VCL_BOOL
VRT_r_beresp_was_304(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "beresp.was_304",
	    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR)))
		return (0);
	return (ctx->bo != NULL && ctx->bo->reval);
}

VCL_DURATION
VRT_r_obj_age(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "obj.age",
	    VM_(HIT) | VM_(DELIVER)))
		return (0.0);
	return (vrt_oc(ctx) != NULL ? ctx->now - vrt_oc(ctx)->t_origin : 0);
}

VCL_BOOL
VRT_r_obj_can_esi(VRT_CTX)
{
	const struct objcore *oc;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "obj.can_esi", VM_(HIT) | VM_(DELIVER)))
		return (0);
	oc = vrt_oc(ctx);
	return (oc != NULL && oc->obj != NULL && OBJ_Esi(oc->obj) != NULL);
}

VCL_STRING
VRT_r_obj_proto(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "obj.proto",
	    VM_(HIT)))
		return (NULL);
	return (vrt_slot(ctx->http_obj, HTTP_HDR_PROTO));
}

VCL_STRING
VRT_r_obj_reason(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "obj.reason",
	    VM_(HIT)))
		return (NULL);
	return (vrt_slot(ctx->http_obj, HTTP_HDR_REASON));
}

VCL_INT
VRT_r_obj_status(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "obj.status",
	    VM_(HIT)))
		return (0);
	return (vrt_status(ctx->http_obj));
}

/* obj.storage: the store holding the object, "storage.NAME". */
VCL_STRING
VRT_r_obj_storage(VRT_CTX)
{
	const struct objcore *oc;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	oc = ctx->req != NULL ? ctx->req->objcore : NULL;
	/* A pass is relayed, charged to Transient: varnishd says so too. */
	if (oc == NULL && ctx->req != NULL && ctx->req->is_pass)
		return ("storage.Transient");
	if (oc == NULL || oc->stv == NULL)
		return (NULL);
	return (WS_Printf(ctx->ws, "storage.%s", oc->stv->name));
}

VCL_TIME
VRT_r_obj_time(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "obj.time",
	    VM_(HIT) | VM_(DELIVER)))
		return (0.0);
	return (vrt_oc(ctx) != NULL ? vrt_oc(ctx)->t_origin : 0);
}

VCL_BOOL
VRT_r_obj_uncacheable(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "obj.uncacheable",
	    VM_(DELIVER)))
		return (0);
	return (ctx->req != NULL && (ctx->req->is_hitmiss ||
	    ctx->req->is_hitpass || ctx->req->is_pass));
}

void
VRT_l_resp_body(VRT_CTX, VCL_BODY_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "resp.body",
	    VM_(SYNTH)))
		return;
	vrt_set_body(ctx, v);
}

VCL_BOOL
VRT_r_resp_do_esi(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "resp.do_esi", VM_(DELIVER) | VM_(SYNTH)) ||
	    ctx->req == NULL)
		return (0);
	return (ESI_Active(ctx->req));
}

/* false: this response goes out as stored, its ESI markup unprocessed. */
void
VRT_l_resp_do_esi(VRT_CTX, VCL_BOOL_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "resp.do_esi", VM_(DELIVER) | VM_(SYNTH)) ||
	    ctx->req == NULL)
		return;
	ctx->req->esi_off = !v;
}

/* resp.filters: VV_MISSING, reads as NULL. */
VCL_STRING
VRT_r_resp_filters(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (NULL);
}

/* resp.filters: VV_MISSING, a set does nothing. */
void
VRT_l_resp_filters(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)v;
}

VCL_BOOL
VRT_r_resp_is_streaming(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "resp.is_streaming",
	    VM_(DELIVER) | VM_(SYNTH)))
		return (0);
	return (ctx->req != NULL && ctx->req->boc != NULL);
}

VCL_STRING
VRT_r_resp_proto(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "resp.proto",
	    VM_(DELIVER) | VM_(SYNTH)))
		return (NULL);
	return (vrt_slot(ctx->http_resp, HTTP_HDR_PROTO));
}

void
VRT_l_resp_proto(VRT_CTX, VCL_STRING_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "resp.proto",
	    VM_(DELIVER) | VM_(SYNTH)))
		return;
	vrt_set_slot(ctx, ctx->http_resp, HTTP_HDR_PROTO, v);
}

VCL_STRING
VRT_r_sess_xid(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "sess.xid",
	    VM_CLIENT | VM_BACKEND))
		return (NULL);
	return (vrt_sess_xid(ctx));
}

VCL_DURATION
VRT_r_sess_timeout_idle(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "sess.timeout_idle",
	    VM_CLIENT))
		return (0.0);
	return (vrt_sess_dur(ctx, 0));
}

void
VRT_l_sess_timeout_idle(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "sess.timeout_idle",
	    VM_CLIENT))
		return;
	vrt_set_sess_dur(ctx, 0, v);
}

/* sess.timeout_linger: VV_MISSING, reads as 0.0. */
VCL_DURATION
VRT_r_sess_timeout_linger(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (0.0);
}

/* sess.timeout_linger: VV_MISSING, a set does nothing. */
void
VRT_l_sess_timeout_linger(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)v;
}

VCL_DURATION
VRT_r_sess_send_timeout(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "sess.send_timeout",
	    VM_CLIENT))
		return (0.0);
	return (vrt_sess_dur(ctx, 1));
}

void
VRT_l_sess_send_timeout(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "sess.send_timeout",
	    VM_CLIENT))
		return;
	vrt_set_sess_dur(ctx, 1, v);
}

VCL_DURATION
VRT_r_sess_idle_send_timeout(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "sess.idle_send_timeout",
	    VM_CLIENT))
		return (0.0);
	return (vrt_sess_dur(ctx, 2));
}

void
VRT_l_sess_idle_send_timeout(VRT_CTX, VCL_DURATION_SET v)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!vrt_ok(ctx, "sess.idle_send_timeout",
	    VM_CLIENT))
		return;
	vrt_set_sess_dur(ctx, 2, v);
}

/* VCL 3's req.backend: req.backend_hint by another name. */
VCL_BACKEND
VRT_r_req_backend(VRT_CTX)
{

	return (VRT_r_req_backend_hint(ctx));
}

void
VRT_l_req_backend(VRT_CTX, VCL_BACKEND_SET be)
{

	VRT_l_req_backend_hint(ctx, be);
}

/* Delivery starts with vcl_deliver or vcl_synth: the method's now. */
VCL_TIME
VRT_r_resp_time(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, VRTV_resp_time, VRTV_READ))
		return (0);
	return (ctx->now);
}

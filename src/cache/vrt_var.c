/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_var.c -- the accessors of include/vcl_vars.h that the 1.x runtime
 * (vrt.c) did not have: request lines, addresses, names, and the
 * variables of features not built yet, which read as their neutral
 * value and ignore sets (the compiler has warned about them).  As
 * everywhere in VRT, a variable asked for where it does not exist logs
 * VCL_Error and fails the method instead of crashing.
 */

#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "common/miniobj.h"
#include "cache/backend.h"
#include "cache/child.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/obj.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* Request and response lines --------------------------------------------*/

static void
vrt_set_line(VRT_CTX, struct http *hp, unsigned slot, VCL_STRANDS s,
    const char *what)
{
	const char *v;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (hp == NULL) {
		VRT_fail(ctx, "%s is not available here", what);
		return;
	}
	v = VRT_StrandsWS(hp->ws, NULL, s);
	if (v == NULL || *v == '\0') {
		VRT_fail(ctx, "%s: %s", what, v == NULL ?
		    "workspace overflow" : "cannot be empty");
		return;
	}
	HTTP_SetSlot(hp, slot, v);
}

static const char *
vrt_line(const struct http *hp, unsigned slot)
{

	if (hp == NULL || hp->hd[slot].b == NULL)
		return (NULL);
	return (hp->hd[slot].b);
}

void
VRT_l_req_method(VRT_CTX, VCL_STRANDS s)
{
	vrt_set_line(ctx, ctx->http_req, HTTP_HDR_METHOD, s, "req.method");
}

void
VRT_l_req_url(VRT_CTX, VCL_STRANDS s)
{
	vrt_set_line(ctx, ctx->http_req, HTTP_HDR_URL, s, "req.url");
}

void
VRT_l_req_proto(VRT_CTX, VCL_STRANDS s)
{
	vrt_set_line(ctx, ctx->http_req, HTTP_HDR_PROTO, s, "req.proto");
}

void
VRT_l_bereq_method(VRT_CTX, VCL_STRANDS s)
{
	vrt_set_line(ctx, ctx->http_bereq, HTTP_HDR_METHOD, s,
	    "bereq.method");
}

void
VRT_l_bereq_url(VRT_CTX, VCL_STRANDS s)
{
	vrt_set_line(ctx, ctx->http_bereq, HTTP_HDR_URL, s, "bereq.url");
}

void
VRT_l_bereq_proto(VRT_CTX, VCL_STRANDS s)
{
	vrt_set_line(ctx, ctx->http_bereq, HTTP_HDR_PROTO, s, "bereq.proto");
}

VCL_STRING
VRT_r_bereq_proto(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_bereq, HTTP_HDR_PROTO));
}

VCL_STRING
VRT_r_beresp_proto(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_beresp, HTTP_HDR_PROTO));
}

VCL_STRING
VRT_r_resp_proto(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_resp, HTTP_HDR_PROTO));
}

VCL_INT
VRT_r_obj_status(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->http_obj == NULL ? 0 : ctx->http_obj->status);
}

VCL_STRING
VRT_r_obj_reason(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_obj, HTTP_HDR_REASON));
}

VCL_BOOL
VRT_r_obj_uncacheable(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->req == NULL || ctx->req->is_pass ||
	    ctx->req->objcore == NULL);
}

VCL_BOOL
VRT_r_resp_is_streaming(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->req != NULL && ctx->req->boc != NULL);
}

/* The request ---------------------------------------------------------*/

VCL_INT
VRT_r_req_restarts(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->req == NULL ? 0 : (VCL_INT)ctx->req->restarts);
}

VCL_TIME
VRT_r_req_time(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->req == NULL ? 0 : ctx->req->t_first);
}

VCL_BACKEND
VRT_r_req_backend(VRT_CTX)
{
	return (VRT_r_req_backend_hint(ctx));
}

void
VRT_l_req_backend(VRT_CTX, VCL_BACKEND be)
{
	VRT_l_req_backend_hint(ctx, be);
}

/* The top request is the request: no ESI here. */
VCL_STRING
VRT_r_req_top_method(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_req_top, HTTP_HDR_METHOD));
}

VCL_STRING
VRT_r_req_top_url(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_req_top, HTTP_HDR_URL));
}

VCL_STRING
VRT_r_req_top_proto(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_req_top, HTTP_HDR_PROTO));
}

VCL_TIME
VRT_r_req_top_time(VRT_CTX)
{
	return (VRT_r_req_time(ctx));
}

/* The backend request and response ------------------------------------*/

VCL_INT
VRT_r_bereq_retries(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->bo == NULL ? 0 : (VCL_INT)ctx->bo->retries);
}

#define VRT_BO_TIMEOUT(f)						\
VCL_DURATION								\
VRT_r_bereq_##f(VRT_CTX)						\
{									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	return (ctx->bo == NULL ? 0 : ctx->bo->f);			\
}									\
void									\
VRT_l_bereq_##f(VRT_CTX, VCL_DURATION d)				\
{									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	if (ctx->bo != NULL)						\
		ctx->bo->f = d < 0 ? 0 : d;				\
}

VRT_BO_TIMEOUT(connect_timeout)
VRT_BO_TIMEOUT(first_byte_timeout)
VRT_BO_TIMEOUT(between_bytes_timeout)

VCL_BOOL
VRT_r_bereq_is_bgfetch(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->bo != NULL && ctx->bo->is_bg);
}

VCL_BOOL
VRT_r_beresp_was_304(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->bo != NULL && ctx->bo->reval);
}

VCL_STRING
VRT_r_beresp_backend_name(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->bo == NULL || ctx->bo->director == NULL)
		return (NULL);
	return (ctx->bo->director->vcl_name);
}

/* Streaming is how every fetch is delivered here: always on. */
VCL_BOOL
VRT_r_beresp_do_stream(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (1);
}

void
VRT_l_beresp_do_stream(VRT_CTX, VCL_BOOL b)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!b)
		VSLb(ctx->vsl, SLT_VCL_Log, "beresp.do_stream = false is "
		    "ignored: responses are always streamed");
}

/* Features not built yet: neutral reads, ignored sets (warned at compile). */
#define VRT_MISSING_BOOL(name)						\
VCL_BOOL								\
VRT_r_##name(VRT_CTX)							\
{									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	return (0);							\
}									\
void									\
VRT_l_##name(VRT_CTX, VCL_BOOL b)					\
{									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	(void)b;							\
}

VRT_MISSING_BOOL(req_esi)
VRT_MISSING_BOOL(req_hash_ignore_busy)
VRT_MISSING_BOOL(beresp_do_esi)
VRT_MISSING_BOOL(beresp_do_gzip)
VRT_MISSING_BOOL(beresp_do_gunzip)
VRT_MISSING_BOOL(resp_do_esi)

VCL_BOOL
VRT_r_req_can_gzip(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (0);
}

VCL_INT
VRT_r_req_esi_level(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (0);
}

#define VRT_MISSING_DUR(name)						\
VCL_DURATION								\
VRT_r_##name(VRT_CTX)							\
{									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	return (-1);							\
}									\
void									\
VRT_l_##name(VRT_CTX, VCL_DURATION d)					\
{									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
	(void)d;							\
}									\
void									\
VRT_u_##name(VRT_CTX)							\
{									\
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);					\
}

VRT_MISSING_DUR(req_ttl)
VRT_MISSING_DUR(req_grace)

VCL_STRING
VRT_r_beresp_storage_hint(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (NULL);
}

void
VRT_l_beresp_storage_hint(VRT_CTX, VCL_STRANDS s)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)s;
}

/* Addresses and names ---------------------------------------------------*/

static struct sess *
vrt_sess(VRT_CTX)
{

	if (ctx->sp != NULL)
		return (ctx->sp);
	if (ctx->bo != NULL && ctx->bo->req != NULL)
		return (ctx->bo->req->sp);
	return (NULL);
}

/* An IP value on the workspace from a socket address. */
static VCL_IP
vrt_ip(VRT_CTX, const struct sockaddr_storage *ss)
{
	struct vrt_ip *ip;

	ip = WS_Alloc(ctx->ws, sizeof *ip);
	if (ip == NULL) {
		VRT_fail(ctx, "workspace overflow making an IP");
		return (NULL);
	}
	INIT_OBJ(ip, VRT_IP_MAGIC);
	ip->family = ss->ss_family;
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s4 = (const void *)ss;

		memcpy(ip->addr, &s4->sin_addr, 4);
		ip->port = ntohs(s4->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)ss;

		memcpy(ip->addr, &s6->sin6_addr, 16);
		ip->port = ntohs(s6->sin6_port);
	} else {
		/* A Unix socket: 0.0.0.0, as Varnish reports it. */
		ip->family = AF_INET;
	}
	return (ip);
}

VCL_IP
VRT_r_client_ip(VRT_CTX)
{
	struct sess *sp;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	sp = vrt_sess(ctx);
	return (sp == NULL ? NULL : vrt_ip(ctx, &sp->remote));
}

VCL_IP
VRT_r_remote_ip(VRT_CTX)
{
	return (VRT_r_client_ip(ctx));
}

VCL_IP
VRT_r_local_ip(VRT_CTX)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	struct sess *sp;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	sp = vrt_sess(ctx);
	if (sp == NULL)
		return (NULL);
	memset(&ss, 0, sizeof ss);
	if (getsockname(sp->fd, (struct sockaddr *)&ss, &sl) != 0)
		return (NULL);
	return (vrt_ip(ctx, &ss));
}

VCL_IP
VRT_r_server_ip(VRT_CTX)
{
	return (VRT_r_local_ip(ctx));
}

VCL_STRING
VRT_r_local_endpoint(VRT_CTX)
{
	struct sess *sp;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	sp = vrt_sess(ctx);
	return (sp == NULL || sp->ls == NULL ? NULL : sp->ls->arg);
}

VCL_STRING
VRT_r_local_socket(VRT_CTX)
{
	struct sess *sp;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	sp = vrt_sess(ctx);
	return (sp == NULL || sp->ls == NULL ? NULL : sp->ls->name);
}

VCL_STRING
VRT_r_client_identity(VRT_CTX)
{
	struct sess *sp;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req != NULL && ctx->req->client_identity != NULL)
		return (ctx->req->client_identity);
	sp = vrt_sess(ctx);
	return (sp == NULL ? NULL : sp->client_ip);
}

void
VRT_l_client_identity(VRT_CTX, VCL_STRANDS s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req == NULL)
		return;
	ctx->req->client_identity = VRT_StrandsWS(ctx->ws, NULL, s);
	if (ctx->req->client_identity == NULL)
		VRT_fail(ctx, "workspace overflow setting client.identity");
}

VCL_STRING
VRT_r_server_hostname(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (child_args != NULL ? child_args->hostname : NULL);
}

VCL_STRING
VRT_r_server_identity(VRT_CTX)
{
	return (VRT_r_server_hostname(ctx));
}

VCL_TIME
VRT_r_now(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->now);
}

/* 7.1's other variables -------------------------------------------------*/

VCL_BOOL
VRT_r_req_is_hitmiss(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->req != NULL && ctx->req->is_hitmiss);
}

VCL_BOOL
VRT_r_req_is_hitpass(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->req != NULL && ctx->req->is_hitpass);
}

VCL_STRING
VRT_r_req_transport(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return ("HTTP/1");
}

VRT_MISSING_BOOL(req_trace)

VCL_STRING
VRT_r_sess_xid(VRT_CTX)
{
	struct sess *sp;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	sp = vrt_sess(ctx);
	if (sp == NULL)
		return (NULL);
	return (WS_Printf(ctx->ws, "%u", sp->vxid));
}

VCL_TIME
VRT_r_bereq_time(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->bo == NULL ? 0 : ctx->bo->t_first);
}

VCL_DURATION
VRT_r_beresp_age(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->bo == NULL)
		return (0);
	return (ctx->now - ctx->bo->t_origin);
}

VCL_TIME
VRT_r_beresp_time(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->bo == NULL ? 0 : ctx->bo->t_beresp);
}

VCL_BACKEND
VRT_r_beresp_backend(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->bo == NULL ? NULL : ctx->bo->director);
}

/* set beresp.body / resp.body: the synthetic body, replaced. */
void
VRT_l_beresp_body(VRT_CTX, VCL_STRANDS s)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->bo != NULL)
		ctx->bo->synth_len = 0;
	VRT_synth_strands(ctx, s);
}

void
VRT_l_resp_body(VRT_CTX, VCL_STRANDS s)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req != NULL)
		ctx->req->synth_len = 0;
	VRT_synth_strands(ctx, s);
}

VCL_STRING
VRT_r_obj_proto(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_line(ctx->http_obj, HTTP_HDR_PROTO));
}

VCL_DURATION
VRT_r_obj_age(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req == NULL || ctx->req->objcore == NULL)
		return (0);
	return (ctx->now - ctx->req->objcore->t_origin);
}

VCL_TIME
VRT_r_obj_time(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req == NULL || ctx->req->objcore == NULL)
		return (0);
	return (ctx->req->objcore->t_origin);
}

VCL_TIME
VRT_r_resp_time(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ctx->now);
}

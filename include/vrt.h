/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt.h -- the runtime ABI between veneerd and compiled VCL.  The C that
 * the VCL compiler emits includes this header and nothing else; veneerd
 * exports the VRT_* functions (it is linked with -rdynamic).  A VCL built
 * against another major version is refused at load.
 *
 * Changelog (bump MINOR for additions, MAJOR for any other change):
 *   1.0  first version: methods and actions, contexts, headers, request
 *        and response fields, backends, synthetic bodies, logging.
 *   1.1  the cache: hash_data(), beresp.ttl/grace/keep/uncacheable,
 *        obj.ttl/grace/keep/hits, obj.http (ctx->http_obj), server.ip
 *        as a string, req.hash_always_miss.
 */

#ifndef VENEER_VRT_H
#define VENEER_VRT_H

#include <stddef.h>
#include <stdint.h>

#define VRT_MAJOR_VERSION	1U
#define VRT_MINOR_VERSION	1U

struct busyobj;
struct director;
struct http;
struct req;
struct sess;
struct vcl;
struct vsl_log;
struct ws;

/* VCL's types as C sees them. */
typedef const char *			VCL_STRING;
typedef long				VCL_INT;
typedef double				VCL_REAL;
typedef double				VCL_DURATION;
typedef double				VCL_TIME;
typedef unsigned			VCL_BOOL;
typedef long				VCL_BYTES;
typedef const struct director *		VCL_BACKEND;
typedef const struct gethdr_s *		VCL_HEADER;

/* Actions a VCL method returns. */
enum vcl_ret {
	VCL_RET_NONE = 0,	/* the method fell off its end: a bug */
#define VCL_RET(l, U)	VCL_RET_##U,
#include "vcl_returns.h"
	VCL_RET__MAX
};

/* The methods. */
enum vcl_method {
#define VCL_MET(l, U, side, rets)	VCL_MET_##U,
#include "vcl_returns.h"
	VCL_MET__MAX
};

/* Which message a header reference means. */
enum gethdr_where {
	HDR_REQ,
	HDR_REQ_TOP,
	HDR_RESP,
	HDR_OBJ,
	HDR_BEREQ,
	HDR_BERESP,
};

/*
 * A header reference: what is the name with its colon, prefixed by its
 * length as a byte: "\005Host:".  The compiler emits these as constants.
 */
struct gethdr_s {
	enum gethdr_where	where;
	const char		*what;
};

/* A list of strings, concatenated where a single string is needed. */
struct strands {
	int			n;
	const char		**p;
};

/*
 * The context every VCL method and VRT function gets: what is being
 * processed, which workspace and log to use.  Fields that do not apply
 * to the method are NULL.
 */
struct vrt_ctx {
	unsigned		magic;
#define VRT_CTX_MAGIC		0x6dc8c1a4
	enum vcl_method		method;
	unsigned		failed;		/* VRT_fail() was called */
	struct vsl_log		*vsl;
	struct vcl		*vcl;
	struct ws		*ws;
	struct sess		*sp;
	struct req		*req;
	struct http		*http_req;
	struct http		*http_req_top;
	struct http		*http_resp;
	struct busyobj		*bo;
	struct http		*http_bereq;
	struct http		*http_beresp;
	VCL_TIME		now;
	void			*specific;
	struct http		*http_obj;	/* 1.1: vcl_hit, vcl_deliver */
};

#define VRT_CTX		const struct vrt_ctx *ctx

typedef enum vcl_ret vcl_method_f(VRT_CTX);

enum vcl_event {
	VCL_EVENT_LOAD,
	VCL_EVENT_WARM,
	VCL_EVENT_COLD,
	VCL_EVENT_DISCARD,
};
typedef int vcl_event_f(VRT_CTX, enum vcl_event);

/* What a compiled VCL exports, as the symbol VCL_conf. */
struct vcl_conf {
	unsigned		magic;
#define VCL_CONF_MAGIC		0x1c9d6ba7
	unsigned		vrt_major;
	unsigned		vrt_minor;
	const char		*name;
	vcl_event_f		*event;
	VCL_BACKEND		*default_director;
#define VCL_MET(l, U, side, rets)	vcl_method_f *l##_method;
#include "vcl_returns.h"
};

/* Backends ----------------------------------------------------------------*/

/* Numeric addresses; the compiler resolves names before emitting them. */
struct vrt_endpoint {
	unsigned		magic;
#define VRT_ENDPOINT_MAGIC	0x4e3d1f26
	const char		*ipv4;
	const char		*ipv6;
	const char		*port;
};

struct vrt_backend {
	unsigned		magic;
#define VRT_BACKEND_MAGIC	0x21b0e6c3
	const char		*vcl_name;
	const struct vrt_endpoint *endpoint;
	const char		*hosthdr;	/* Host: when the request has none */
	VCL_DURATION		connect_timeout;	/* < 0: parameter */
	VCL_DURATION		first_byte_timeout;	/* < 0: parameter */
	VCL_DURATION		between_bytes_timeout;	/* < 0: parameter */
	unsigned		max_connections;	/* 0: no limit */
};

VCL_BACKEND VRT_new_backend(VRT_CTX, const struct vrt_backend *);
void VRT_delete_backend(VRT_CTX, VCL_BACKEND *);

/* Headers -----------------------------------------------------------------*/

VCL_STRING VRT_GetHdr(VRT_CTX, VCL_HEADER);
/* Replace every instance of the header; value NULL removes it. */
void VRT_SetHdr(VRT_CTX, VCL_HEADER, const struct strands *value);
void VRT_UnsetHdr(VRT_CTX, VCL_HEADER);

/* Fields ------------------------------------------------------------------*/

VCL_STRING VRT_r_req_method(VRT_CTX);
VCL_STRING VRT_r_req_url(VRT_CTX);
VCL_STRING VRT_r_req_proto(VRT_CTX);
VCL_STRING VRT_r_req_xid(VRT_CTX);
VCL_STRING VRT_r_bereq_method(VRT_CTX);
VCL_STRING VRT_r_bereq_url(VRT_CTX);
VCL_STRING VRT_r_bereq_xid(VRT_CTX);
VCL_INT VRT_r_resp_status(VRT_CTX);
void VRT_l_resp_status(VRT_CTX, VCL_INT);
VCL_STRING VRT_r_resp_reason(VRT_CTX);
void VRT_l_resp_reason(VRT_CTX, const struct strands *);
VCL_INT VRT_r_beresp_status(VRT_CTX);
void VRT_l_beresp_status(VRT_CTX, VCL_INT);
VCL_STRING VRT_r_beresp_reason(VRT_CTX);
void VRT_l_beresp_reason(VRT_CTX, const struct strands *);
VCL_BACKEND VRT_r_req_backend_hint(VRT_CTX);
void VRT_l_req_backend_hint(VRT_CTX, VCL_BACKEND);
VCL_BACKEND VRT_r_bereq_backend(VRT_CTX);
void VRT_l_bereq_backend(VRT_CTX, VCL_BACKEND);

/* The cache (1.1) ----------------------------------------------------------*/

/* hash_data(): feed the lookup key (vcl_hash only). */
void VRT_hashdata(VRT_CTX, const struct strands *);
/* The local address the request came in on, numeric. */
VCL_STRING VRT_r_server_ip(VRT_CTX);
VCL_BOOL VRT_r_req_hash_always_miss(VRT_CTX);
void VRT_l_req_hash_always_miss(VRT_CTX, VCL_BOOL);
/* Durations left from now: ttl can be negative (stale). */
VCL_DURATION VRT_r_beresp_ttl(VRT_CTX);
void VRT_l_beresp_ttl(VRT_CTX, VCL_DURATION);
VCL_DURATION VRT_r_beresp_grace(VRT_CTX);
void VRT_l_beresp_grace(VRT_CTX, VCL_DURATION);
VCL_DURATION VRT_r_beresp_keep(VRT_CTX);
void VRT_l_beresp_keep(VRT_CTX, VCL_DURATION);
VCL_BOOL VRT_r_beresp_uncacheable(VRT_CTX);
void VRT_l_beresp_uncacheable(VRT_CTX, VCL_BOOL);
VCL_BOOL VRT_r_bereq_uncacheable(VRT_CTX);
VCL_DURATION VRT_r_obj_ttl(VRT_CTX);
VCL_DURATION VRT_r_obj_grace(VRT_CTX);
VCL_DURATION VRT_r_obj_keep(VRT_CTX);
VCL_INT VRT_r_obj_hits(VRT_CTX);

/* Bodies, logging, failure ------------------------------------------------*/

/* Status and reason for return (synth(...)); reason NULL: the standard. */
void VRT_synth(VRT_CTX, VCL_INT status, VCL_STRING reason);

/* synthetic(): append to the body of resp (vcl_synth) or beresp. */
void VRT_synth_strands(VRT_CTX, const struct strands *);
/* std.log() */
void VRT_log(VRT_CTX, const char *);
/* Make the current method fail (it then returns VCL_RET_FAIL). */
void VRT_fail(VRT_CTX, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/* Workspace string building for the compiler's concatenations. */
VCL_STRING VRT_StrandsWS(struct ws *, const char *, const struct strands *);
VCL_STRING VRT_INT_string(VRT_CTX, VCL_INT);

#endif /* VENEER_VRT_H */

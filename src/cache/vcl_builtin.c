/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcl_builtin.c -- the policy in C until the VCL compiler exists: the -b
 * backend, and methods that behave like Varnish's builtin.vcl: GET and
 * HEAD are looked up unless they carry credentials or cookies, other
 * known methods pass, unknown ones pipe; the key is the URL and the Host
 * (or the server address); responses that must not be shared become
 * hit-for-miss markers for two minutes.  It uses only vrt.h, as compiled
 * VCL will.
 *
 * XXX issue 6: replaced by the compiled vcl/builtin.vcl.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/miniobj.h"
#include "cache/child.h"
#include "cache/vcl.h"
#include "vrt.h"

static VCL_BACKEND builtin_default;

static const struct gethdr_s hdr_resp_ct = { HDR_RESP, "\015Content-Type:" };
static const struct gethdr_s hdr_resp_ra = { HDR_RESP, "\014Retry-After:" };
static const struct gethdr_s hdr_beresp_ct =
    { HDR_BERESP, "\015Content-Type:" };
static const struct gethdr_s hdr_beresp_ra =
    { HDR_BERESP, "\014Retry-After:" };
static const struct gethdr_s hdr_req_host = { HDR_REQ, "\005Host:" };
static const struct gethdr_s hdr_req_auth =
    { HDR_REQ, "\016Authorization:" };
static const struct gethdr_s hdr_req_cookie = { HDR_REQ, "\007Cookie:" };
static const struct gethdr_s hdr_beresp_sc =
    { HDR_BERESP, "\013Set-Cookie:" };
static const struct gethdr_s hdr_beresp_surr =
    { HDR_BERESP, "\022Surrogate-Control:" };
static const struct gethdr_s hdr_beresp_cc =
    { HDR_BERESP, "\016Cache-Control:" };
static const struct gethdr_s hdr_beresp_vary = { HDR_BERESP, "\005Vary:" };
static const struct gethdr_s hdr_beresp_cdncc =
    { HDR_BERESP, "\022CDN-Cache-Control:" };
static const struct gethdr_s hdr_beresp_etag = { HDR_BERESP, "\005ETag:" };
static const struct gethdr_s hdr_beresp_lm =
    { HDR_BERESP, "\016Last-Modified:" };

static int
builtin_event(VRT_CTX, enum vcl_event ev)
{
	const struct backend_arg *ba = &child_args->backend;
	struct vrt_endpoint ep;
	struct vrt_backend be;

	switch (ev) {
	case VCL_EVENT_LOAD:
		INIT_OBJ(&ep, VRT_ENDPOINT_MAGIC);
		ep.host = ba->host;
		ep.port = ba->port;
		INIT_OBJ(&be, VRT_BACKEND_MAGIC);
		be.vcl_name = "default";
		be.endpoint = &ep;
		be.hosthdr = ba->hosthdr;
		be.connect_timeout = -1;
		be.first_byte_timeout = -1;
		be.between_bytes_timeout = -1;
		builtin_default = VRT_new_backend(ctx, &be);
		return (builtin_default == NULL ? -1 : 0);
	case VCL_EVENT_DISCARD:
		VRT_delete_backend(ctx, &builtin_default);
		return (0);
	default:
		return (0);
	}
}

static enum vcl_ret
builtin_recv(VRT_CTX)
{
	static const char * const known[] = {
		"GET", "HEAD", "PUT", "POST", "TRACE", "OPTIONS", "DELETE",
		"PATCH",
	};
	const char *method = VRT_r_req_method(ctx);
	unsigned u;

	if (method == NULL)
		return (VCL_RET_FAIL);
	if (!strcmp(method, "PRI")) {
		/* HTTP/2 prior knowledge on an HTTP/1 port */
		VRT_synth(ctx, 405, NULL);
		return (VCL_RET_SYNTH);
	}
	for (u = 0; u < sizeof known / sizeof known[0]; u++)
		if (!strcmp(method, known[u]))
			break;
	/* Methods we do not understand go to the backend untouched. */
	if (u == sizeof known / sizeof known[0])
		return (VCL_RET_PIPE);
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return (VCL_RET_PASS);
	/* Not cacheable by default: credentials and cookies. */
	if (VRT_GetHdr(ctx, &hdr_req_auth) != NULL ||
	    VRT_GetHdr(ctx, &hdr_req_cookie) != NULL)
		return (VCL_RET_PASS);
	return (VCL_RET_HASH);
}

static enum vcl_ret
builtin_pipe(VRT_CTX)
{

	(void)ctx;
	return (VCL_RET_PIPE);
}

static enum vcl_ret
builtin_fetch(VRT_CTX)
{

	(void)ctx;
	return (VCL_RET_FETCH);
}

static void
builtin_hash_data(VRT_CTX, const char *v)
{
	struct strands s;

	s.n = 1;
	s.p = &v;
	VRT_hashdata(ctx, &s);
}

static enum vcl_ret
builtin_hash(VRT_CTX)
{
	const char *host;

	builtin_hash_data(ctx, VRT_r_req_url(ctx));
	host = VRT_GetHdr(ctx, &hdr_req_host);
	builtin_hash_data(ctx, host != NULL ? host :
	    VRT_IP_string(ctx, VRT_r_server_ip(ctx)));
	return (VCL_RET_LOOKUP);
}

/* Case-insensitive: does the header's value contain any of the words? */
static int
builtin_hdr_has(VRT_CTX, VCL_HEADER h, const char * const *words)
{
	const char *v = VRT_GetHdr(ctx, h);

	if (v == NULL)
		return (0);
	for (; *words != NULL; words++)
		if (strcasestr(v, *words) != NULL)
			return (1);
	return (0);
}

/*
 * As Varnish's builtin.vcl, with two differences: Cache-Control is not
 * consulted when a header addressed to caches (Surrogate-Control,
 * CDN-Cache-Control, RFC 9213) decides; and a no-cache response with a
 * validator is kept (TTL 0, keep) to be revalidated at each use rather
 * than turned into a hit-for-miss marker.
 */
static enum vcl_ret
builtin_backend_response(VRT_CTX)
{
	static const char * const no_store[] = { "no-store", NULL };
	static const char * const no_share[] = {
		"no-store", "private", NULL
	};
	static const char * const no_cache[] = { "no-cache", NULL };
	const char *vary;
	int targeted, revalidate;

	if (VRT_r_bereq_uncacheable(ctx))
		return (VCL_RET_DELIVER);
	vary = VRT_GetHdr(ctx, &hdr_beresp_vary);
	targeted = VRT_GetHdr(ctx, &hdr_beresp_surr) != NULL ||
	    VRT_GetHdr(ctx, &hdr_beresp_cdncc) != NULL;
	revalidate = VRT_r_beresp_ttl(ctx) <= 0 &&
	    VRT_r_beresp_keep(ctx) > 0 &&
	    (VRT_GetHdr(ctx, &hdr_beresp_etag) != NULL ||
	    VRT_GetHdr(ctx, &hdr_beresp_lm) != NULL);
	if ((VRT_r_beresp_ttl(ctx) <= 0 && !revalidate) ||
	    VRT_GetHdr(ctx, &hdr_beresp_sc) != NULL ||
	    builtin_hdr_has(ctx, &hdr_beresp_surr, no_store) ||
	    (!targeted && builtin_hdr_has(ctx, &hdr_beresp_cc, no_share)) ||
	    (!targeted && !revalidate &&
	    builtin_hdr_has(ctx, &hdr_beresp_cc, no_cache)) ||
	    (vary != NULL && !strcmp(vary, "*"))) {
		/* Hit-for-miss for two minutes. */
		VRT_l_beresp_ttl(ctx, 120);
		VRT_l_beresp_uncacheable(ctx, 1);
	}
	return (VCL_RET_DELIVER);
}

static enum vcl_ret
builtin_purge(VRT_CTX)
{

	VRT_synth(ctx, 200, "Purged");
	return (VCL_RET_SYNTH);
}

static enum vcl_ret
builtin_deliver(VRT_CTX)
{

	(void)ctx;
	return (VCL_RET_DELIVER);
}

static enum vcl_ret
builtin_ok(VRT_CTX)
{

	(void)ctx;
	return (VCL_RET_OK);
}

/* The small HTML page of synthetic error responses. */
static void
builtin_page(VRT_CTX, VCL_INT status, VCL_STRING reason, VCL_STRING xid)
{
	char buf[1024];
	const char *p[1];
	struct strands s;

	(void)snprintf(buf, sizeof buf,
	    "<!DOCTYPE html>\n"
	    "<html>\n"
	    "  <head><title>%ld %s</title></head>\n"
	    "  <body>\n"
	    "    <h1>%ld %s</h1>\n"
	    "    <p>Request id: %s</p>\n"
	    "    <hr>\n"
	    "    <p>Veneer</p>\n"
	    "  </body>\n"
	    "</html>\n",
	    status, reason == NULL ? "" : reason,
	    status, reason == NULL ? "" : reason, xid == NULL ? "-" : xid);
	p[0] = buf;
	s.n = 1;
	s.p = p;
	VRT_synth_strands(ctx, &s);
}

static void
builtin_set(VRT_CTX, VCL_HEADER h, const char *v)
{
	const char *p[1];
	struct strands s;

	p[0] = v;
	s.n = 1;
	s.p = p;
	VRT_SetHdr(ctx, h, &s);
}

static enum vcl_ret
builtin_synth(VRT_CTX)
{

	builtin_set(ctx, &hdr_resp_ct, "text/html; charset=utf-8");
	builtin_set(ctx, &hdr_resp_ra, "5");
	builtin_page(ctx, VRT_r_resp_status(ctx), VRT_r_resp_reason(ctx),
	    VRT_r_req_xid(ctx));
	return (VCL_RET_DELIVER);
}

static enum vcl_ret
builtin_backend_error(VRT_CTX)
{

	builtin_set(ctx, &hdr_beresp_ct, "text/html; charset=utf-8");
	builtin_set(ctx, &hdr_beresp_ra, "5");
	builtin_page(ctx, VRT_r_beresp_status(ctx), VRT_r_beresp_reason(ctx),
	    VRT_r_bereq_xid(ctx));
	return (VCL_RET_DELIVER);
}

const struct vcl_conf VCL_builtin_conf = {
	.magic = VCL_CONF_MAGIC,
	.vrt_major = VRT_MAJOR_VERSION,
	.vrt_minor = VRT_MINOR_VERSION,
	.name = "builtin",
	.event = builtin_event,
	.default_director = &builtin_default,
	.recv_method = builtin_recv,
	.pipe_method = builtin_pipe,
	.pass_method = builtin_fetch,
	.hash_method = builtin_hash,
	.purge_method = builtin_purge,
	.miss_method = builtin_fetch,
	.hit_method = builtin_deliver,
	.deliver_method = builtin_deliver,
	.synth_method = builtin_synth,
	.backend_fetch_method = builtin_fetch,
	.backend_response_method = builtin_backend_response,
	.backend_error_method = builtin_backend_error,
	.init_method = builtin_ok,
	.fini_method = builtin_ok,
};

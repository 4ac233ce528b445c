/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_proxy.c -- the proxy module of include/vmod_std.h, as Varnish
 * 7.1's vmod_proxy: the TLVs of the session's PROXY v2 header, which
 * http1_session.c checked and kept in the session's workspace
 * (sp->proxy).  Owns nothing; no locks.
 */

#include "config.h"

#include <stdint.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/proxy_recv.h"
#include "cache/session.h"
#include "cache/vrt_priv.h"
#include "cache/ws.h"
#include "vrt.h"

/* The value of TLV type: 0, or -1 without one (or without a session). */
static int
proxy_tlv(VRT_CTX, unsigned type, const unsigned char **v, size_t *vlen)
{
	const struct sess_proxy *ps;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	*v = NULL;
	*vlen = 0;
	if (ctx->sp == NULL)
		return (-1);
	CHECK_OBJ(ctx->sp, SESS_MAGIC);
	ps = ctx->sp->proxy;
	if (ps == NULL)
		return (-1);
	CHECK_OBJ(ps, SESS_PROXY_MAGIC);
	return (PROXY_TlvFind(ps->tlv, ps->tlv_len, type, v, vlen));
}

static VCL_STRING
proxy_string(VRT_CTX, unsigned type)
{
	const unsigned char *v;
	size_t l;
	char *s;

	if (proxy_tlv(ctx, type, &v, &l) != 0)
		return (NULL);
	s = WS_Copy(ctx->ws, v, l);
	if (s == NULL)
		VRT_fail(ctx, "proxy: out of workspace for a TLV of %zu "
		    "bytes", l);
	return (s);
}

/* The SSL TLV's client flags: all of flag set? */
static VCL_BOOL
proxy_ssl_flag(VRT_CTX, unsigned flag)
{
	const unsigned char *v;
	size_t l;

	/* PROXY_Parse made sure an SSL TLV has its 5 bytes. */
	if (proxy_tlv(ctx, PROXY_TLV_SSL, &v, &l) != 0 || l < 5)
		return (0);
	return ((v[0] & flag) == flag);
}

VCL_STRING
vmod_proxy_alpn(VRT_CTX)
{

	return (proxy_string(ctx, PROXY_TLV_ALPN));
}

VCL_STRING
vmod_proxy_authority(VRT_CTX)
{

	return (proxy_string(ctx, PROXY_TLV_AUTHORITY));
}

VCL_BOOL
vmod_proxy_is_ssl(VRT_CTX)
{

	return (proxy_ssl_flag(ctx, PROXY_SSL_CLIENT_SSL));
}

VCL_BOOL
vmod_proxy_client_has_cert_sess(VRT_CTX)
{

	return (proxy_ssl_flag(ctx, PROXY_SSL_CERT_SESS));
}

VCL_BOOL
vmod_proxy_client_has_cert_conn(VRT_CTX)
{

	return (proxy_ssl_flag(ctx, PROXY_SSL_CERT_CONN));
}

VCL_INT
vmod_proxy_ssl_verify_result(VRT_CTX)
{
	const unsigned char *v;
	size_t l;

	if (proxy_tlv(ctx, PROXY_TLV_SSL, &v, &l) != 0 || l < 5)
		return (0);	/* X509_V_OK */
	return ((VCL_INT)((uint32_t)v[1] << 24 | (uint32_t)v[2] << 16 |
	    (uint32_t)v[3] << 8 | v[4]));
}

VCL_STRING
vmod_proxy_ssl_version(VRT_CTX)
{

	return (proxy_string(ctx, PROXY_TLV_SSL_VERSION));
}

VCL_STRING
vmod_proxy_client_cert_cn(VRT_CTX)
{

	return (proxy_string(ctx, PROXY_TLV_SSL_CN));
}

VCL_STRING
vmod_proxy_ssl_cipher(VRT_CTX)
{

	return (proxy_string(ctx, PROXY_TLV_SSL_CIPHER));
}

VCL_STRING
vmod_proxy_cert_sign(VRT_CTX)
{

	return (proxy_string(ctx, PROXY_TLV_SSL_SIG_ALG));
}

VCL_STRING
vmod_proxy_cert_key(VRT_CTX)
{

	return (proxy_string(ctx, PROXY_TLV_SSL_KEY_ALG));
}

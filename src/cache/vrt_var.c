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
#include <string.h>

#include "common/miniobj.h"
#include "cache/child.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/ws.h"
#include "vrt.h"

/* IP values ---------------------------------------------------------------*/

/* Fill *ip from a sockaddr; 0 when it is not an inet address. */
static int
vrt_ip_from_sa(struct vrt_ip *ip, const struct sockaddr *sa)
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

/* The local address of the session's socket, on the workspace. */
static VCL_IP
vrt_local_ip(VRT_CTX)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof ss;
	struct vrt_ip *ip;

	if (ctx->sp == NULL) {
		VRT_fail(ctx, "server.ip/local.ip: no session here");
		return (NULL);
	}
	ip = WS_Alloc(ctx->ws, sizeof *ip);
	if (ip == NULL) {
		VRT_fail(ctx, "out of workspace for an IP");
		return (NULL);
	}
	if (getsockname(ctx->sp->fd, (struct sockaddr *)&ss, &l) != 0)
		ss.ss_family = AF_UNSPEC;
	(void)vrt_ip_from_sa(ip, (struct sockaddr *)&ss);
	return (ip);
}

VCL_IP
VRT_r_server_ip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_local_ip(ctx));
}

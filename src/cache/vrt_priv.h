/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_priv.h -- what the vrt*.c files share and nobody else needs: the
 * variables of include/vcl_vars.h numbered, and the check that one may
 * be used in the method a context is running.
 */

#ifndef VENEER_CACHE_VRT_PRIV_H
#define VENEER_CACHE_VRT_PRIV_H

#include "vrt.h"

enum vrtv_id {
#define VCL_VAR(c, name, T, rd, wr, un, fl, doc)	VRTV_##c,
#define VCL_HDR(where, name, rd, wr, un, doc)
#include "vcl_vars.h"
	VRTV__MAX
};

enum vrtv_op {
	VRTV_READ,
	VRTV_SET,
	VRTV_UNSET,
};

/*
 * 1 when the variable may be used so in ctx's method; otherwise logs
 * VCL_Error, fails the context and returns 0.
 */
int VRTV_Check(VRT_CTX, enum vrtv_id, enum vrtv_op);
/* A status VCL may set: 100-999, or over 1000 to go out modulo 1000. */
int VRT_StatusOk(VCL_INT status);
/* The variable's VCL name and flags (VV_MISSING...). */
const char *VRTV_Name(enum vrtv_id);
unsigned VRTV_Flags(enum vrtv_id);

/* VCL's BLOB: bytes that are not a string (req.hash). */
struct vrt_blob {
	unsigned		magic;
#define VRT_BLOB_MAGIC		0x3b2d9a51
	size_t			len;
	const void		*blob;
};

/*
 * A BLOB of len bytes at src (not copied: src must live as long as the
 * BLOB may be used), the struct on ctx->ws.  NULL and the context failed
 * with "Workspace overflow (what)", as Varnish's, when it does not fit.
 */
VCL_BLOB VRT_blob(VRT_CTX, const char *what, const void *src, size_t len);

/* Fill *ip from a sockaddr; 0 when it is not an inet address. */
struct sockaddr;
int VRT_ip_from_sa(struct vrt_ip *ip, const struct sockaddr *sa);

/* req.ttl and req.grace as VCL left them for the lookup; -1: not set. */
struct req;
double VRT_req_ttl_cap(struct req *);
double VRT_req_grace_cap(struct req *);

#endif /* VENEER_CACHE_VRT_PRIV_H */

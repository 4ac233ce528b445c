/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_acl.c -- VCL's ACLs.  Names in an ACL are resolved when the VCL
 * loads, to all their addresses; a name that does not resolve fails the
 * load, unless the entry is optional ("name"), in which case it is left
 * out.  A lookup finds every entry covering the address and lets the
 * most specific (longest prefix) decide, the first one written among
 * equals, as Varnish documents: so "!10.1.0.0"/16 inside "10.0.0.0"/8
 * works in either order.
 */

#include "config.h"

#include <sys/socket.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/vsl.h"
#include "vrt.h"

struct vrt_acl_e {
	int			family;
	unsigned char		addr[16];
	int			bits;		/* prefix length */
	unsigned		negate;
	char			desc[80];	/* for the log */
};

struct vrt_acl {
	unsigned		magic;
#define VRT_ACL_MAGIC		0x5a0c3e17
	const char		*name;
	unsigned		n;
	unsigned		cap;
	struct vrt_acl_e	*e;
};

static struct vrt_acl_e *
acl_add(struct vrt_acl *acl)
{
	struct vrt_acl_e *ne;
	unsigned cap;

	if (acl->n == acl->cap) {
		cap = acl->cap == 0 ? 8 : acl->cap * 2;
		ne = realloc(acl->e, cap * sizeof *ne);
		if (ne == NULL)
			return (NULL);
		acl->e = ne;
		acl->cap = cap;
	}
	ne = &acl->e[acl->n++];
	memset(ne, 0, sizeof *ne);
	return (ne);
}

/* Zero the address bits past the prefix, so a compare is a memcmp. */
static void
acl_mask(unsigned char *a, int bits, int len)
{
	int i;

	for (i = 0; i < len; i++) {
		if (bits >= 8) {
			bits -= 8;
			continue;
		}
		a[i] &= (unsigned char)(0xff << (8 - bits));
		bits = 0;
	}
}

static int
acl_entry(VRT_CTX, struct vrt_acl *acl, const struct vrt_acl_entry *ve,
    int family, const void *addr)
{
	struct vrt_acl_e *e;
	int len = family == AF_INET ? 4 : 16;

	if (ve->mask > len * 8) {
		VRT_fail(ctx, "%s: acl %s: mask /%d is too long for %s",
		    ve->where, acl->name, ve->mask, ve->addr);
		return (-1);
	}
	e = acl_add(acl);
	if (e == NULL) {
		VRT_fail(ctx, "acl %s: out of memory", acl->name);
		return (-1);
	}
	e->family = family;
	memcpy(e->addr, addr, (size_t)len);
	e->bits = ve->mask < 0 ? len * 8 : ve->mask;
	e->negate = ve->negate;
	acl_mask(e->addr, e->bits, len);
	if (ve->mask < 0)
		(void)snprintf(e->desc, sizeof e->desc, "%s\"%s\"",
		    ve->negate ? "!" : "", ve->addr);
	else
		(void)snprintf(e->desc, sizeof e->desc, "%s\"%s\"/%d",
		    ve->negate ? "!" : "", ve->addr, ve->mask);
	return (0);
}

static int
acl_resolve(VRT_CTX, struct vrt_acl *acl, const struct vrt_acl_entry *ve)
{
	struct addrinfo hints, *res, *ai;
	unsigned char a[16];
	int r;

	if (inet_pton(AF_INET, ve->addr, a) == 1)
		return (acl_entry(ctx, acl, ve, AF_INET, a));
	if (inet_pton(AF_INET6, ve->addr, a) == 1)
		return (acl_entry(ctx, acl, ve, AF_INET6, a));
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	r = getaddrinfo(ve->addr, NULL, &hints, &res);
	if (r != 0) {
		if (ve->optional) {
			if (ctx->vsl != NULL)
				VSLb(ctx->vsl, SLT_VCL_Log, "acl %s: \"%s\" "
				    "skipped: %s", acl->name, ve->addr,
				    gai_strerror(r));
			return (0);
		}
		VRT_fail(ctx, "%s: acl %s: \"%s\" does not resolve: %s",
		    ve->where, acl->name, ve->addr, gai_strerror(r));
		return (-1);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET)
			r = acl_entry(ctx, acl, ve, AF_INET,
			    &((struct sockaddr_in *)(void *)ai->ai_addr)->
			    sin_addr);
		else if (ai->ai_family == AF_INET6)
			r = acl_entry(ctx, acl, ve, AF_INET6,
			    &((struct sockaddr_in6 *)(void *)ai->ai_addr)->
			    sin6_addr);
		else
			continue;
		if (r != 0)
			break;
	}
	freeaddrinfo(res);
	return (r);
}

int
VRT_acl_init(VRT_CTX, VCL_ACL *aclp, const struct vrt_acl_spec *spec)
{
	struct vrt_acl *acl;
	unsigned u;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(aclp != NULL);
	assert(spec != NULL);
	*aclp = NULL;
	ALLOC_OBJ(acl, VRT_ACL_MAGIC);
	if (acl == NULL) {
		VRT_fail(ctx, "acl %s: out of memory", spec->name);
		return (-1);
	}
	acl->name = spec->name;
	for (u = 0; u < spec->n; u++) {
		if (acl_resolve(ctx, acl, &spec->entries[u]) != 0) {
			free(acl->e);
			FREE_OBJ(acl);
			return (-1);
		}
	}
	*aclp = acl;
	return (0);
}

void
VRT_acl_fini(VCL_ACL *aclp)
{
	struct vrt_acl *acl;

	assert(aclp != NULL);
	if (*aclp == NULL)
		return;
	CAST_OBJ_NOTNULL(acl, (struct vrt_acl *)(uintptr_t)*aclp,
	    VRT_ACL_MAGIC);
	*aclp = NULL;
	free(acl->e);
	FREE_OBJ(acl);
}

VCL_BOOL
VRT_acl_match(VRT_CTX, VCL_ACL acl, VCL_IP ip)
{
	const struct vrt_acl_e *e, *best = NULL;
	unsigned char a[16];
	unsigned u;
	int len;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ_NOTNULL(acl, VRT_ACL_MAGIC);
	if (ip == NULL) {
		VRT_fail(ctx, "acl %s: no IP to match", acl->name);
		return (0);
	}
	CHECK_OBJ(ip, VRT_IP_MAGIC);
	len = ip->family == AF_INET ? 4 : 16;
	for (u = 0; u < acl->n; u++) {
		e = &acl->e[u];
		if (e->family != ip->family)
			continue;
		if (best != NULL && e->bits <= best->bits)
			continue;
		memcpy(a, ip->addr, (size_t)len);
		acl_mask(a, e->bits, len);
		if (!memcmp(a, e->addr, (size_t)len))
			best = e;
	}
	if (best == NULL) {
		if (ctx->vsl != NULL)
			VSLb(ctx->vsl, SLT_VCL_acl, "NO_MATCH %s", acl->name);
		return (0);
	}
	if (ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_VCL_acl, "%s %s %s",
		    best->negate ? "NEG_MATCH" : "MATCH", acl->name,
		    best->desc);
	return (!best->negate);
}

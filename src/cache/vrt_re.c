/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_re.c -- what compiled VCL's expressions call: regular expressions
 * (compiled with PCRE2 and JIT when the VCL loads; matched with a match
 * block each thread keeps, so a request allocates nothing), ACLs (names
 * resolved at load, the most specific entry deciding), conversions to
 * STRING, comparisons, and the statements without a home elsewhere.
 */

#include "config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/backend.h"
#include "cache/fetch.h"
#include "cache/storage.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* Regular expressions ---------------------------------------------------*/

struct vrt_re {
	unsigned		magic;
#define VRT_RE_MAGIC		0x3b9c0a51
	pcre2_code		*code;
};

#define VRT_RE_GROUPS	10		/* \0 .. \9 */

static __thread pcre2_match_data *vrt_md;

int
VRT_re_init(VRT_CTX, VCL_REGEX *rep, const char *pattern, const char *where)
{
	struct vrt_re *re;
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int err;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	ALLOC_OBJ(re, VRT_RE_MAGIC);
	if (re == NULL) {
		VRT_fail(ctx, "out of memory compiling a regex");
		return (-1);
	}
	re->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	    0, &err, &off, NULL);
	if (re->code == NULL) {
		(void)pcre2_get_error_message(err, msg, sizeof msg);
		VRT_fail(ctx, "%s: regex \"%s\": %s", where, pattern,
		    (char *)msg);
		FREE_OBJ(re);
		return (-1);
	}
	(void)pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	*rep = re;
	return (0);
}

void
VRT_re_fini(VCL_REGEX *rep)
{
	struct vrt_re *re;

	if (*rep == NULL)
		return;
	re = (struct vrt_re *)(uintptr_t)*rep;
	*rep = NULL;
	CHECK_OBJ(re, VRT_RE_MAGIC);
	pcre2_code_free(re->code);
	FREE_OBJ(re);
}

static pcre2_match_data *
vrt_match_data(void)
{

	if (vrt_md == NULL)
		vrt_md = pcre2_match_data_create(VRT_RE_GROUPS, NULL);
	return (vrt_md);
}

static int
vrt_re_exec(VRT_CTX, VCL_REGEX re, const char *s, size_t len, size_t start,
    pcre2_match_data *md)
{
	int rc;

	rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, start, 0, md, NULL);
	if (rc < PCRE2_ERROR_NOMATCH) {
		VSLb(ctx->vsl, SLT_VCL_Error, "regex match failed (%d)", rc);
		return (-1);
	}
	return (rc == PCRE2_ERROR_NOMATCH ? 0 : 1);
}

VCL_BOOL
VRT_re_match(VRT_CTX, VCL_STRING s, VCL_REGEX re)
{
	pcre2_match_data *md;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (re == NULL)
		return (0);
	CHECK_OBJ(re, VRT_RE_MAGIC);
	md = vrt_match_data();
	if (md == NULL) {
		VRT_fail(ctx, "out of memory matching a regex");
		return (0);
	}
	if (s == NULL)
		s = "";
	return (vrt_re_exec(ctx, re, s, strlen(s), 0, md) == 1);
}

VCL_STRING
VRT_regsub(VRT_CTX, int all, VCL_STRING s, VCL_REGEX re, VCL_STRING sub)
{
	pcre2_match_data *md;
	PCRE2_SIZE *ov;
	size_t len, start = 0, copied = 0, avail, l;
	char *b, *p;
	const char *q;
	unsigned g, n;
	int rc;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(re, VRT_RE_MAGIC);
	if (s == NULL)
		s = "";
	if (sub == NULL)
		sub = "";
	md = vrt_match_data();
	if (md == NULL) {
		VRT_fail(ctx, "out of memory matching a regex");
		return (NULL);
	}
	len = strlen(s);
	rc = vrt_re_exec(ctx, re, s, len, 0, md);
	if (rc <= 0)
		return (s);
	avail = WS_ReserveAll(ctx->ws);
	b = p = WS_Reservation(ctx->ws);
#define PUT(src, n_) do {						\
		if ((n_) >= avail)					\
			goto overflow;					\
		memcpy(p, (src), (n_));					\
		p += (n_);						\
		avail -= (n_);						\
	} while (0)
	do {
		ov = pcre2_get_ovector_pointer(md);
		n = pcre2_get_ovector_count(md);
		PUT(s + copied, ov[0] - copied);
		for (q = sub; *q != '\0'; q++) {
			if (q[0] == '\\' && q[1] >= '0' && q[1] <= '9') {
				g = (unsigned)(q[1] - '0');
				q++;
				if (g < n && ov[2 * g] != PCRE2_UNSET) {
					l = ov[2 * g + 1] - ov[2 * g];
					PUT(s + ov[2 * g], l);
				}
				continue;
			}
			PUT(q, 1);
		}
		copied = ov[1];
		start = ov[1];
		if (ov[1] == ov[0]) {
			/* An empty match: keep one byte and go on past it. */
			if (start >= len)
				break;
			PUT(s + start, 1);
			start++;
			copied = start;
		}
	} while (all && start <= len &&
	    (rc = vrt_re_exec(ctx, re, s, len, start, md)) == 1);
	PUT(s + copied, len - copied);
#undef PUT
	if (avail == 0)
		goto overflow;
	*p = '\0';
	WS_Release(ctx->ws, (size_t)(p - b) + 1);
	return (b);
overflow:
	WS_Release(ctx->ws, 0);
	WS_MarkOverflow(ctx->ws);
	VRT_fail(ctx, "regsub: workspace overflow");
	return (NULL);
}

/* ACLs ------------------------------------------------------------------*/

struct vrt_acl_ent {
	int			family;
	unsigned char		addr[16];
	unsigned		bits;
	unsigned		negate;
	const char		*text;		/* as written, for the log */
};

struct vrt_acl {
	unsigned		magic;
#define VRT_ACL_MAGIC		0x51d7a8e3
	const char		*name;
	unsigned		n;
	struct vrt_acl_ent	*e;
};

static int
vrt_acl_add(struct vrt_acl *acl, const struct vrt_acl_entry *in,
    int family, const void *addr)
{
	struct vrt_acl_ent *e, *ne;
	unsigned max = family == AF_INET ? 32 : 128;

	ne = realloc(acl->e, (acl->n + 1) * sizeof *acl->e);
	if (ne == NULL)
		return (-1);
	acl->e = ne;
	e = &acl->e[acl->n++];
	memset(e, 0, sizeof *e);
	e->family = family;
	memcpy(e->addr, addr, family == AF_INET ? 4 : 16);
	e->bits = in->mask < 0 || (unsigned)in->mask > max ? max :
	    (unsigned)in->mask;
	e->negate = in->negate;
	e->text = in->addr;
	return (0);
}

int
VRT_acl_init(VRT_CTX, VCL_ACL *aclp, const struct vrt_acl_spec *spec)
{
	struct addrinfo hints, *res, *ai;
	const struct vrt_acl_entry *in;
	unsigned char buf[16];
	struct vrt_acl *acl;
	unsigned u;
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	ALLOC_OBJ(acl, VRT_ACL_MAGIC);
	if (acl == NULL)
		return (-1);
	acl->name = spec->name;
	*aclp = acl;
	for (u = 0; u < spec->n; u++) {
		in = &spec->entries[u];
		if (inet_pton(AF_INET, in->addr, buf) == 1) {
			if (vrt_acl_add(acl, in, AF_INET, buf))
				goto oom;
			continue;
		}
		if (inet_pton(AF_INET6, in->addr, buf) == 1) {
			if (vrt_acl_add(acl, in, AF_INET6, buf))
				goto oom;
			continue;
		}
		memset(&hints, 0, sizeof hints);
		hints.ai_socktype = SOCK_STREAM;
		i = getaddrinfo(in->addr, NULL, &hints, &res);
		if (i != 0) {
			if (in->optional) {
				VSLb(ctx->vsl, SLT_VCL_Log, "acl %s: %s: "
				    "\"%s\" does not resolve (%s): skipped",
				    spec->name, in->where, in->addr,
				    gai_strerror(i));
				continue;
			}
			VRT_fail(ctx, "acl %s: %s: \"%s\" does not resolve "
			    "(%s); put it in parentheses to skip it when it "
			    "does not", spec->name, in->where, in->addr,
			    gai_strerror(i));
			return (-1);
		}
		for (ai = res; ai != NULL; ai = ai->ai_next) {
			const void *a = ai->ai_family == AF_INET ?
			    (const void *)&((struct sockaddr_in *)
			    (void *)ai->ai_addr)->sin_addr :
			    (const void *)&((struct sockaddr_in6 *)
			    (void *)ai->ai_addr)->sin6_addr;

			if ((ai->ai_family == AF_INET ||
			    ai->ai_family == AF_INET6) &&
			    vrt_acl_add(acl, in, ai->ai_family, a)) {
				freeaddrinfo(res);
				goto oom;
			}
		}
		freeaddrinfo(res);
	}
	return (0);
oom:
	VRT_fail(ctx, "acl %s: out of memory", spec->name);
	return (-1);
}

void
VRT_acl_fini(VCL_ACL *aclp)
{
	struct vrt_acl *acl;

	if (*aclp == NULL)
		return;
	acl = (struct vrt_acl *)(uintptr_t)*aclp;
	*aclp = NULL;
	CHECK_OBJ(acl, VRT_ACL_MAGIC);
	free(acl->e);
	FREE_OBJ(acl);
}

static int
vrt_prefix_eq(const unsigned char *a, const unsigned char *b, unsigned bits)
{
	unsigned bytes = bits / 8, rest = bits % 8;

	if (memcmp(a, b, bytes))
		return (0);
	if (rest == 0)
		return (1);
	return (((a[bytes] ^ b[bytes]) & (0xff << (8 - rest))) == 0);
}

VCL_BOOL
VRT_acl_match(VRT_CTX, VCL_ACL acl, VCL_IP ip)
{
	static const unsigned char v4mapped[12] =
	    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	const struct vrt_acl_ent *e, *best = NULL;
	const unsigned char *addr;
	int family;
	unsigned u;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (acl == NULL || ip == NULL)
		return (0);
	CHECK_OBJ(acl, VRT_ACL_MAGIC);
	CHECK_OBJ(ip, VRT_IP_MAGIC);
	family = ip->family;
	addr = ip->addr;
	if (family == AF_INET6 && !memcmp(addr, v4mapped, 12)) {
		family = AF_INET;
		addr += 12;
	}
	for (u = 0; u < acl->n; u++) {
		e = &acl->e[u];
		if (e->family != family || !vrt_prefix_eq(e->addr, addr,
		    e->bits))
			continue;
		if (best == NULL || e->bits > best->bits)
			best = e;
	}
	if (best == NULL) {
		VSLb(ctx->vsl, SLT_VCL_acl, "NO_MATCH %s", acl->name);
		return (0);
	}
	VSLb(ctx->vsl, SLT_VCL_acl, "%s %s \"%s\"", best->negate ?
	    "NEG_MATCH" : "MATCH", acl->name, best->text);
	return (!best->negate);
}

/* Conversions -----------------------------------------------------------*/

VCL_STRING
VRT_STRANDS_string(VRT_CTX, VCL_STRANDS s)
{
	const char *r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	r = VRT_StrandsWS(ctx->ws, NULL, s);
	if (r == NULL)
		VRT_fail(ctx, "workspace overflow joining strings");
	return (r);
}

static VCL_STRING
vrt_printf(VRT_CTX, const char *fmt, double d)
{
	const char *r;

	r = WS_Printf(ctx->ws, fmt, d);
	if (r == NULL)
		VRT_fail(ctx, "workspace overflow converting to a string");
	return (r);
}

VCL_STRING
VRT_REAL_string(VRT_CTX, VCL_REAL r)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_printf(ctx, "%.3f", r));
}

VCL_STRING
VRT_DURATION_string(VRT_CTX, VCL_DURATION d)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_printf(ctx, "%.3f", d));
}

VCL_STRING
VRT_BYTES_string(VRT_CTX, VCL_BYTES b)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_printf(ctx, "%.0fB", (double)b));
}

VCL_STRING
VRT_TIME_string(VRT_CTX, VCL_TIME t)
{
	char *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	p = WS_Alloc(ctx->ws, TIM_FORMAT_SIZE);
	if (p == NULL) {
		VRT_fail(ctx, "workspace overflow converting a time");
		return (NULL);
	}
	TIM_format(t, p);
	return (p);
}

VCL_STRING
VRT_BOOL_string(VCL_BOOL b)
{
	return (b ? "true" : "false");
}

VCL_STRING
VRT_BACKEND_string(VCL_BACKEND be)
{
	return (be == NULL ? NULL : be->vcl_name);
}

VCL_STRING
VRT_IP_string(VRT_CTX, VCL_IP ip)
{
	char *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ip == NULL)
		return (NULL);
	CHECK_OBJ(ip, VRT_IP_MAGIC);
	p = WS_Alloc(ctx->ws, INET6_ADDRSTRLEN);
	if (p == NULL) {
		VRT_fail(ctx, "workspace overflow converting an IP");
		return (NULL);
	}
	if (inet_ntop(ip->family, ip->addr, p, INET6_ADDRSTRLEN) == NULL)
		return (NULL);
	return (p);
}

VCL_STRING
VRT_BLOB_string(VRT_CTX, VCL_BLOB b)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)b;
	VRT_fail(ctx, "a BLOB cannot be a string");
	return (NULL);
}

int
VRT_strcmp(const char *a, const char *b)
{

	/* An unset string equals nothing, not even another unset one. */
	if (a == NULL || b == NULL)
		return (a == b ? 1 : (a == NULL ? -1 : 1));
	return (strcmp(a, b));
}

/* Statements ------------------------------------------------------------*/

void
VRT_hit_for_pass(VRT_CTX, VCL_DURATION d)
{
	struct busyobj *bo;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	bo = ctx->bo;
	if (bo == NULL || ctx->method != VCL_MET_BACKEND_RESPONSE) {
		VRT_fail(ctx, "return (pass(...)) only in "
		    "vcl_backend_response");
		return;
	}
	bo->ttl = (d < 0 ? 0 : d) + (ctx->now - bo->t_origin);
	bo->grace = 0;
	bo->keep = 0;
	bo->ttl_source = "HFP";
}

void
VRT_ban_string(VRT_CTX, VCL_STRING s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	VSLb(ctx->vsl, SLT_VCL_Error, "ban(\"%s\"): bans are not available "
	    "yet (they arrive with the admin CLI)", s == NULL ? "" : s);
}

VCL_BYTES
VRT_storage_free_space(VRT_CTX, const char *name)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)name;
	return (0);
}

VCL_BYTES
VRT_storage_used_space(VRT_CTX, const char *name)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)name;
	return (0);
}

VCL_BOOL
VRT_storage_happy(VRT_CTX, const char *name)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)name;
	return (1);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_debug.c -- the debug module (include/vmod_std.h): the plain
 * functions of Varnish 7.1's test-only debug module that its test suite
 * calls, with their names and meaning, so that those test files run
 * against veneerd.  Forced failures, workspace string building, header
 * checks, socket and stack probes: never for production VCL.  Owns no
 * state and takes no locks.
 */

#include "config.h"

#include <sys/socket.h>

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <bsd/string.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/http1_parse.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* The compiler lets only the declared values through. */
VCL_STRING
vmod_debug_author(VRT_CTX, VCL_ENUM person, VCL_ENUM someone)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)someone;		/* there to test a second defaulted ENUM */
	if (!strcmp(person, "phk"))
		return ("Poul-Henning");
	if (!strcmp(person, "des"))
		return ("Dag-Erling");
	if (!strcmp(person, "kristian"))
		return ("Kristian");
	if (!strcmp(person, "mithrandir"))
		return ("Tollef");
	WRONG("debug.author(): a value the compiler should have refused");
}

VCL_INT
vmod_debug_vre_limit(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return ((VCL_INT)cache_param->pcre2_match_limit);
}

VCL_VOID
vmod_debug_fail(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	/* The wording Varnish's tests expect in VCL_Error. */
	VRT_fail(ctx, "Forced failure");
}

VCL_BOOL
vmod_debug_fail2(VRT_CTX)
{

	vmod_debug_fail(ctx);
	return (1);
}

VCL_VOID
vmod_debug_test_probe(VRT_CTX, VCL_PROBE probe, VCL_PROBE same)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(probe, VRT_BACKEND_PROBE_MAGIC);
	if (same != NULL && same != probe)
		VRT_fail(ctx, "debug.test_probe(): %s and %s are two probes",
		    probe->vcl_name != NULL ? probe->vcl_name : "(anonymous)",
		    same->vcl_name != NULL ? same->vcl_name : "(anonymous)");
}

/*
 * On a full workspace the result is unset and the workspace marked
 * overflowed, but the method goes on: the request fails later, when it
 * next needs the workspace, as in Varnish.
 */
VCL_STRING
vmod_debug_concatenate(VRT_CTX, VCL_STRANDS s)
{
	VCL_STRING r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	r = VRT_StrandsWS(ctx->ws, NULL, s);
	if (r == NULL)
		WS_MarkOverflow(ctx->ws);
	return (r);
}

/* As concatenate, but a full workspace fails the method at once. */
VCL_STRING
vmod_debug_collect(VRT_CTX, VCL_STRANDS s)
{
	VCL_STRING r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s->n == 1)
		return (s->p[0]);
	r = VRT_StrandsWS(ctx->ws, NULL, s);
	if (r == NULL) {
		WS_MarkOverflow(ctx->ws);
		VRT_fail(ctx, "debug.collect(): workspace full (%zu bytes "
		    "free); raise workspace_client or workspace_backend",
		    WS_Free(ctx->ws));
	}
	return (r);
}

VCL_VOID
vmod_debug_sethdr(VRT_CTX, VCL_HEADER hdr, VCL_STRANDS s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	/* No strings at all (not one unset string) removes the header. */
	VRT_SetHdr(ctx, hdr, s->n == 0 ? NULL : s);
}

/* Logged as one Debug record, cut at 1 KB (records are shorter anyway). */
VCL_STRANDS
vmod_debug_return_strands(VRT_CTX, VCL_STRANDS s)
{
	char buf[1024];
	size_t l = 0;
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	buf[0] = '\0';
	for (i = 0; i < s->n && l < sizeof buf; i++)
		if (s->p[i] != NULL)
			l += strlcpy(buf + l, s->p[i], sizeof buf - l);
	if (ctx->vsl != NULL)
		VSLbs(ctx->vsl, SLT_Debug, buf);
	return (s);
}

/*
 * The distance from the top of this thread's stack (it grows down on
 * every platform veneerd runs on) to a local variable here: what the
 * VCL and veneerd have used of it so far.
 */
VCL_BYTES
vmod_debug_stk(VRT_CTX)
{
	pthread_attr_t attr;
	void *base;
	size_t size;
	uintptr_t top, here;
	int ok;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return (0);
	ok = pthread_attr_getstack(&attr, &base, &size) == 0;
	ASSERT_ZERO(pthread_attr_destroy(&attr));
	if (!ok)
		return (0);
	top = (uintptr_t)base + size;
	here = (uintptr_t)&attr;
	if (here < (uintptr_t)base || here >= top)
		return (0);
	return ((VCL_BYTES)(top - here));
}

VCL_VOID
vmod_debug_sndbuf(VRT_CTX, VCL_BYTES sndbuf)
{
	socklen_t len = sizeof(int);
	int fd, old = 0, want, now = 0;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req == NULL || ctx->req->sp == NULL) {
		VRT_fail(ctx, "debug.sndbuf(): only for client transactions "
		    "(vcl_recv ... vcl_deliver, vcl_synth)");
		return;
	}
	CHECK_OBJ(ctx->req->sp, SESS_MAGIC);
	fd = ctx->req->sp->fd;
	want = sndbuf > INT32_MAX ? INT32_MAX : sndbuf < 0 ? 0 : (int)sndbuf;
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &old, &len) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof want) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &now, &len) != 0) {
		VRT_fail(ctx, "debug.sndbuf(): SO_SNDBUF on fd %d: %s", fd,
		    strerror(errno));
		return;
	}
	/* The record Varnish's tests read. */
	if (ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_Debug, "SO_SNDBUF fd=%d old=%d new=%d "
		    "actual=%d", fd, old, want, now);
}

VCL_STRING
vmod_debug_client_ip(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->sp == NULL)
		return (NULL);
	CHECK_OBJ(ctx->sp, SESS_MAGIC);
	return (ctx->sp->client_ip);
}

VCL_STRING
vmod_debug_client_port(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->sp == NULL)
		return (NULL);
	CHECK_OBJ(ctx->sp, SESS_MAGIC);
	return (ctx->sp->client_port);
}

/*
 * s between \Q and \E, so that a regular expression made of it matches
 * s exactly.  A \E inside s would end the quoting early: each part up
 * to one becomes \Q<part>\\EE (the part, a backslash, then a literal E
 * outside the quotes), Varnish's VRE_quote() output.
 */
VCL_STRING
vmod_debug_re_quote(VRT_CTX, VCL_STRING s)
{
	const char *b, *e;
	size_t len = 0;
	char *r, *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s == NULL)
		s = "";
	for (b = s; (e = strstr(b, "\\E")) != NULL; b = e + 2)
		len += (size_t)(e - b) + 6;
	if (*b != '\0')
		len += strlen(b) + 4;
	r = p = WS_Alloc(ctx->ws, len + 1);
	if (r == NULL) {
		VRT_fail(ctx, "debug.re_quote(): workspace full");
		return (NULL);
	}
	for (b = s; (e = strstr(b, "\\E")) != NULL; b = e + 2) {
		memcpy(p, "\\Q", 2);
		memcpy(p + 2, b, (size_t)(e - b));
		p += 2 + (e - b);
		memcpy(p, "\\\\EE", 4);
		p += 4;
	}
	if (*b != '\0') {
		len = strlen(b);
		memcpy(p, "\\Q", 2);
		memcpy(p + 2, b, len);
		memcpy(p + 2 + len, "\\E", 2);
		p += len + 4;
	}
	*p = '\0';
	return (r);
}

/* The rule VRT_SetHdr applies under feature validate_headers. */
VCL_BOOL
vmod_debug_validhdr(VRT_CTX, VCL_STRANDS s)
{
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	for (i = 0; i < s->n; i++)
		if (s->p[i] != NULL && !H1_IsFieldValue(s->p[i]))
			return (0);
	return (1);
}

VCL_REGEX
vmod_debug_just_return_regex(VRT_CTX, VCL_REGEX re)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(re != NULL);
	return (re);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_conv.c -- VCL's conversions to STRING, comparisons and the small
 * statements of vrt.h 2.0 (hit-for-pass, ban, storage.<name>.*).  Every
 * string is made on ctx->ws; running out of it fails the method rather
 * than truncating, since a short value would be silently wrong.
 */

#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/ban.h"
#include "cache/backend.h"
#include "cache/fetch.h"
#include "cache/storage.h"
#include "cache/vrt_priv.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

static VCL_STRING
vrt_ws_check(VRT_CTX, const char *s)
{

	if (s == NULL)
		VRT_fail(ctx, "out of workspace converting to a string");
	return (s);
}

VCL_STRING
VRT_STRANDS_string(VRT_CTX, VCL_STRANDS s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s == NULL)
		return (NULL);
	/* One non-NULL part needs no copy: it lives long enough already. */
	if (s->n == 1)
		return (s->p[0]);
	return (vrt_ws_check(ctx, VRT_StrandsWS(ctx->ws, NULL, s)));
}

VCL_STRING
VRT_REAL_string(VRT_CTX, VCL_REAL r)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_ws_check(ctx, WS_Printf(ctx->ws, "%.3f", r)));
}

VCL_STRING
VRT_DURATION_string(VRT_CTX, VCL_DURATION d)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_ws_check(ctx, WS_Printf(ctx->ws, "%.3f", d)));
}

VCL_STRING
VRT_TIME_string(VRT_CTX, VCL_TIME t)
{
	char buf[TIM_FORMAT_SIZE];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	TIM_format(t, buf);
	return (vrt_ws_check(ctx, WS_Copy(ctx->ws, buf, strlen(buf))));
}

/* A plain count of bytes, "1024", as varnishd writes a BYTES. */
VCL_STRING
VRT_BYTES_string(VRT_CTX, VCL_BYTES b)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (vrt_ws_check(ctx, WS_Printf(ctx->ws, "%jd", (intmax_t)b)));
}

VCL_STRING
VRT_BOOL_string(VCL_BOOL b)
{

	return (b ? "true" : "false");
}

/* STRING.upper(), .lower(), std.toupper(), std.tolower(): on the workspace. */
VCL_STRING
VRT_UpperLowerStrands(VRT_CTX, VCL_STRANDS s, int up)
{
	const char *p;
	char *b;
	size_t avail, l = 0;
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	avail = WS_ReserveAll(ctx->ws);
	b = WS_Reservation(ctx->ws);
	for (i = 0; s != NULL && i < s->n; i++) {
		for (p = s->p[i]; p != NULL && *p != '\0'; p++) {
			if (l + 1 >= avail) {
				WS_Release(ctx->ws, 0);
				VRT_fail(ctx, "%s: out of workspace",
				    up ? "upper" : "lower");
				return (NULL);
			}
			b[l++] = (char)(up ? toupper((unsigned char)*p) :
			    tolower((unsigned char)*p));
		}
	}
	if (avail == 0) {
		WS_Release(ctx->ws, 0);
		VRT_fail(ctx, "%s: out of workspace", up ? "upper" : "lower");
		return (NULL);
	}
	b[l] = '\0';
	WS_Release(ctx->ws, l + 1);
	return (b);
}

VCL_STRING
VRT_BACKEND_string(VCL_BACKEND be)
{

	if (be == NULL)
		return (NULL);
	CHECK_OBJ(be, DIRECTOR_MAGIC);
	return (be->vcl_name);
}

VCL_BLOB
VRT_blob(VRT_CTX, const char *what, const void *src, size_t len)
{
	struct vrt_blob *b;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(src != NULL || len == 0);
	b = WS_Alloc(ctx->ws, sizeof *b);
	if (b == NULL) {
		VRT_fail(ctx, "Workspace overflow (%s)", what);
		return (NULL);
	}
	INIT_OBJ(b, VRT_BLOB_MAGIC);
	b->len = len;
	b->blob = src;
	return (b);
}

/* A BLOB as a string: ":base64:", the structured-field byte sequence. */
VCL_STRING
VRT_BLOB_string(VRT_CTX, VCL_BLOB b)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p;
	size_t l, i, o;
	uint32_t v;
	char *s;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (b == NULL)
		return (NULL);
	CHECK_OBJ(b, VRT_BLOB_MAGIC);
	l = b->len;
	p = b->blob;
	s = WS_Alloc(ctx->ws, (l + 2) / 3 * 4 + 3);
	if (s == NULL)
		return (vrt_ws_check(ctx, NULL));
	o = 0;
	s[o++] = ':';
	for (i = 0; i < l; i += 3) {
		v = (uint32_t)p[i] << 16;
		if (i + 1 < l)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < l)
			v |= p[i + 2];
		s[o++] = b64[(v >> 18) & 63];
		s[o++] = b64[(v >> 12) & 63];
		s[o++] = i + 1 < l ? b64[(v >> 6) & 63] : '=';
		s[o++] = i + 2 < l ? b64[v & 63] : '=';
	}
	s[o++] = ':';
	s[o] = '\0';
	return (s);
}

int
VRT_strcmp(const char *a, const char *b)
{

	/* The unset string equals nothing, itself included, as in VCL. */
	if (a == NULL || b == NULL)
		return (-1);
	return (strcmp(a, b));
}

int
VRT_lit_index(const char *s, const struct vrt_littab *t)
{
	size_t len;
	unsigned h, i, n;

	if (s == NULL || t->nslot == 0)
		return (-1);
	h = VRT_lit_hash(s, &len);
	for (n = 0; n < t->nslot; n++) {
		i = t->slot[(h + n) & (t->nslot - 1)];
		if (i == 0)
			return (-1);
		i--;
		if (t->lens[i] == len && !memcmp(t->lits[i], s, len))
			return ((int)i);
	}
	return (-1);
}

/* Statements ------------------------------------------------------------*/

void
VRT_hit_for_pass(VRT_CTX, VCL_DURATION d)
{
	struct busyobj *bo;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	bo = ctx->bo;
	if (bo == NULL || ctx->method != VCL_MET_BACKEND_RESPONSE) {
		VRT_fail(ctx, "return (pass(DURATION)) is only legal in "
		    "vcl_backend_response");
		return;
	}
	/* The object becomes a hit-for-pass marker living d from now. */
	bo->hfp = 1;
	bo->uncacheable = 1;
	bo->ttl = (d < 0 ? 0 : d) + (ctx->now - bo->t_origin);
	bo->grace = 0;
	bo->keep = 0;
	bo->ttl_source = "HFP";
	VSLb(ctx->vsl, SLT_TTL, "HFP %.0f 0 0 %.0f uncacheable",
	    d < 0 ? 0 : d, ctx->now);
}

void
VRT_ban_string(VRT_CTX, VCL_STRING s)
{

	char err[256];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (BAN_AddString(s != NULL ? s : "", err, sizeof err) != 0 &&
	    ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_VCL_Error, "ban(): %s", err);
}

static struct stevedore *
vrt_stv(VRT_CTX, const char *name)
{
	struct stevedore *stv;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	stv = STV_Find(name);
	if (stv == NULL)
		VRT_fail(ctx, "storage.%s: no such storage",
		    name == NULL ? "(null)" : name);
	return (stv);
}

VCL_BYTES
VRT_storage_free_space(VRT_CTX, const char *name)
{
	const struct stevedore *stv = vrt_stv(ctx, name);
	uint64_t used;

	if (stv == NULL)
		return (0);
	used = __atomic_load_n(&stv->used, __ATOMIC_RELAXED);
	if (stv->limit == UINT64_MAX)
		return (INT64_MAX);
	return (used >= stv->limit ? 0 : (VCL_BYTES)(stv->limit - used));
}

VCL_BYTES
VRT_storage_used_space(VRT_CTX, const char *name)
{
	const struct stevedore *stv = vrt_stv(ctx, name);

	if (stv == NULL)
		return (0);
	return ((VCL_BYTES)__atomic_load_n(&stv->used, __ATOMIC_RELAXED));
}

VCL_BOOL
VRT_storage_happy(VRT_CTX, const char *name)
{

	/* Memory stores have no way to be unhappy. */
	return (vrt_stv(ctx, name) != NULL);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_purge.c -- the purge module (purge.hard(), purge.soft(), as
 * Varnish 7.1's vmod_purge) and the veneer module's surrogate key
 * purges (veneer.purge_key(), veneer.softpurge_key()), of
 * include/vmod_std.h.  The work is the cache's: HSH_Purge,
 * HSH_SoftPurge and XKEY_Purge.
 */

#include "config.h"

#include <stdint.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/fetch.h"
#include "cache/hash.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/vrt_priv.h"
#include "cache/vsc.h"
#include "cache/xkey.h"
#include "vrt.h"

/* The request whose hash purge.* works on; NULL after VRT_fail. */
static struct req *
purge_req(VRT_CTX, const char *fn)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if ((ctx->method != VCL_MET_HIT && ctx->method != VCL_MET_MISS) ||
	    ctx->req == NULL) {
		VRT_fail(ctx, "purge.%s() can only be called from vcl_hit or "
		    "vcl_miss (it purges the objects the lookup found); in "
		    "vcl_recv, use return (purge)", fn);
		return (NULL);
	}
	CHECK_OBJ(ctx->req, REQ_MAGIC);
	return (ctx->req);
}

VCL_INT
vmod_purge_hard(VRT_CTX)
{
	struct req *req;
	unsigned n;

	req = purge_req(ctx, "hard");
	if (req == NULL)
		return (0);
	n = HSH_Purge(req->wrk, req->digest);
	VSC_Count(req->wrk->stats, n_purges, 1);
	VSC_Count(req->wrk->stats, n_obj_purged, n);
	return ((VCL_INT)n);
}

VCL_INT
vmod_purge_soft(VRT_CTX, VCL_DURATION ttl, VCL_DURATION grace,
    VCL_DURATION keep)
{
	struct req *req;
	unsigned n;

	req = purge_req(ctx, "soft");
	if (req == NULL)
		return (0);
	/* As Varnish documents it: nothing left to keep is a hard purge. */
	if (ttl == 0 && grace == 0 && keep == 0)
		n = HSH_Purge(req->wrk, req->digest);
	else
		n = HSH_SoftPurge(req->wrk, req->digest, TIM_real(), ttl,
		    grace, keep);
	VSC_Count(req->wrk->stats, n_purges, 1);
	VSC_Count(req->wrk->stats, n_obj_purged, n);
	return ((VCL_INT)n);
}

static VCL_INT
veneer_purge(VRT_CTX, VCL_STRING tags, int soft)
{
	struct worker *wrk = NULL;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->req != NULL)
		wrk = ctx->req->wrk;
	else if (ctx->bo != NULL)
		wrk = ctx->bo->wrk;
	return ((VCL_INT)XKEY_Purge(wrk, tags, soft));
}

VCL_INT
vmod_veneer_purge_key(VRT_CTX, VCL_STRING tags)
{

	return (veneer_purge(ctx, tags, 0));
}

VCL_INT
vmod_veneer_softpurge_key(VRT_CTX, VCL_STRING tags)
{

	return (veneer_purge(ctx, tags, 1));
}

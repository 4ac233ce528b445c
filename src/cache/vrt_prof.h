/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_prof.h -- the VCL profiler's side that vcl.c uses: one struct
 * vrt_prof per loaded VCL (vrt_prof.c says what it counts and logs).
 */

#ifndef VENEER_CACHE_VRT_PROF_H
#define VENEER_CACHE_VRT_PROF_H

#include <stdio.h>

struct vcl_conf;
struct vrt_prof;

/* A VCL's profile; NULL when its C has no profile points. */
struct vrt_prof *PROF_New(const struct vcl_conf *conf, const char *vclname);
/* With the VCL: its VCLP counters go. */
void PROF_Free(struct vrt_prof **);
/*
 * What a method call's ctx->prof is: p when vcl_profile is on (its
 * counters made the first time) or VCL_time is logged, else NULL.
 */
struct vrt_prof *PROF_Ctx(struct vrt_prof *p);

/*
 * vcl.profile's figures, for the manager to sort and format: a line
 * with the VCL's name, then a line per point, tab-separated: ns, evals,
 * times true ("-" for all but conditions), kind (method|cond|call),
 * file, line, column, sub, source text.  0, or -1 with why in out.
 */
int PROF_Rows(const struct vrt_prof *p, const char *vclname, FILE *out);

#endif /* VENEER_CACHE_VRT_PROF_H */

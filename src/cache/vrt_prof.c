/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_prof.c -- the VCL profiler (-p vcl_profile): for each profile point
 * of a loaded VCL (its methods, every if/elsif condition and every call,
 * vcl_conf.prof_points) how often it ran, how often a condition was true
 * and the nanoseconds spent, published as the counter group
 * VCLP.<vcl> that veneerstat lists and sorts by cost; and the VCL_time
 * log record of each method and call with its duration.
 *
 * The counters are made the first time a method runs with vcl_profile
 * on (so turning the parameter on later works too), and go with the
 * VCL.  Worker threads add to them with relaxed atomics: profiling is a
 * diagnosis mode, and a lost cache line now and then is its whole cost.
 * With vcl_profile off and VCL_time masked, ctx->prof is NULL and the
 * compiled VCL takes one predictable branch per condition.
 */

#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/child.h"
#include "cache/vrt_prof.h"
#include "cache/vsl.h"
#include "vsm/vscw.h"
#include "vrt.h"

struct vrt_prof {
	unsigned			magic;
#define VRT_PROF_MAGIC			0x5d2e7a91
	const struct vrt_prof_point	*pts;
	unsigned			npts;
	char				vclname[64];
	struct lock			mtx;	/* making vals */
	unsigned			failed;	/* could not make them */
	uint64_t			*vals;	/* NULL: not (yet) counting */
	unsigned			*off;	/* first counter of point n */
};

/* What each kind of point counts, in this order. */
#define PROF_EVALS	0		/* evaluations or calls */
#define PROF_NS		1
#define PROF_TRUE	2		/* conditions only */

static unsigned
prof_ncnt(const struct vrt_prof_point *p)
{

	return (p->kind == VRT_PK_COND ? 3 : 2);
}

/*--------------------------------------------------------------------
 * The clock.  Two reads per condition: clock_gettime is ~20 ns through
 * the vDSO, and a system call (~0.5 us) where the kernel's clocksource
 * is not the TSC, as in some VMs, while rdtsc is ~7 ns everywhere.  So
 * on x86-64 with an invariant TSC (same rate in every P- and C-state,
 * synchronised between cores) we read it and scale it to nanoseconds
 * with a factor measured against CLOCK_MONOTONIC over a few ms when the
 * first profiled VCL loads (before any ctx->prof can be set, so no
 * interval mixes the two clocks); elsewhere, clock_gettime.
 */

#define PROF_CALIB_NS	5000000		/* 5 ms: 1e-5 relative error */

static pthread_once_t prof_clock_once = PTHREAD_ONCE_INIT;
static unsigned prof_tsc;		/* 1: scale the TSC; set once */
#if defined(__x86_64__)
static uint64_t prof_tsc0;		/* TSC at calibration */
static uint64_t prof_ns0;		/* its CLOCK_MONOTONIC ns */
static uint64_t prof_mult;		/* ns per tick, 32.32 fixed */
#endif

static uint64_t
prof_mono(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &ts));
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

static void
prof_clock_init(void)
{
#if defined(__x86_64__)
	unsigned a, b, c, d;
	uint64_t t0, t1, n0, n1;

	/* CPUID 0x80000007 EDX bit 8: invariant TSC. */
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1U << 8)))
		return;
	n0 = prof_mono();
	t0 = __rdtsc();
	do
		n1 = prof_mono();
	while (n1 - n0 < PROF_CALIB_NS);
	t1 = __rdtsc();
	if (t1 <= t0)
		return;
	prof_mult = (uint64_t)(((unsigned __int128)(n1 - n0) << 32) /
	    (t1 - t0));
	prof_tsc0 = t1;
	prof_ns0 = n1;
	prof_tsc = prof_mult != 0;
#endif
}

uint64_t
VRT_prof_now(void)
{

#if defined(__x86_64__)
	/* 128-bit product: no overflow for centuries of ticks. */
	if (prof_tsc)
		return (prof_ns0 + (uint64_t)(((unsigned __int128)
		    (__rdtsc() - prof_tsc0) * prof_mult) >> 32));
#endif
	return (prof_mono());
}

/* t1 - t0, or 0 if a thread moved to a core whose TSC lags a little. */
static uint64_t
prof_span(uint64_t t0, uint64_t t1)
{

	return (t1 > t0 ? t1 - t0 : 0);
}

struct vrt_prof *
PROF_New(const struct vcl_conf *conf, const char *vclname)
{
	struct vrt_prof *p;

	if (conf->prof_points == NULL || conf->nprof_points < VCL_MET__MAX)
		return (NULL);
	ASSERT_ZERO(pthread_once(&prof_clock_once, prof_clock_init));
	ALLOC_OBJ(p, VRT_PROF_MAGIC);
	if (p == NULL)
		return (NULL);
	p->pts = conf->prof_points;
	p->npts = conf->nprof_points;
	(void)snprintf(p->vclname, sizeof p->vclname, "%s", vclname);
	LOCK_Init(&p->mtx);
	return (p);
}

void
PROF_Free(struct vrt_prof **pp)
{
	struct vrt_prof *p;

	TAKE_OBJ_NOTNULL(p, pp, VRT_PROF_MAGIC);
	if (p->vals != NULL && child_vsmw != NULL)
		VSCW_Delete(child_vsmw, &p->vals);
	free(p->off);
	LOCK_Fini(&p->mtx);
	FREE_OBJ(p);
}

/*
 * The source text as a description may hold it: Varnish 7.1's
 * varnishstat -j prints descriptions between quotes without escaping
 * them, so a `"` becomes `'` (VCL has no single-quoted strings), a
 * backslash U+29F5 (a regex's "\.jpg" still reads as one) and a control
 * character a space.
 */
static const char *
prof_text(const char *s, char *buf, size_t len)
{
	size_t u = 0;

	assert(len > 4);
	for (; *s != '\0' && u + 4 < len; s++) {
		if (*s == '"')
			buf[u++] = '\'';
		else if (*s == '\\') {
			memcpy(buf + u, "\xe2\xa7\xb5", 3);
			u += 3;
		} else if ((unsigned char)*s < 0x20)
			buf[u++] = ' ';
		else
			buf[u++] = *s;
	}
	buf[u] = '\0';
	return (buf);
}

/* "t.vcl:12:5 if (req.http.host == 'a') in vcl_recv" */
static void
prof_where(const struct vrt_prof_point *pt, char *buf, size_t len)
{
	char text[400];

	switch (pt->kind) {
	case VRT_PK_METHOD:
		if (pt->line == 0)
			(void)snprintf(buf, len, "sub %s (not in the VCL)",
			    pt->sub);
		else
			(void)snprintf(buf, len, "%s:%u:%u %s", pt->file,
			    pt->line, pt->col,
			    prof_text(pt->text, text, sizeof text));
		break;
	case VRT_PK_COND:
		(void)snprintf(buf, len, "%s:%u:%u if (%s) in %s", pt->file,
		    pt->line, pt->col, prof_text(pt->text, text, sizeof text),
		    pt->sub);
		break;
	default:
		(void)snprintf(buf, len, "%s:%u:%u %s in %s", pt->file,
		    pt->line, pt->col, prof_text(pt->text, text, sizeof text),
		    pt->sub);
		break;
	}
}

/* The counter group; under p->mtx, once. */
static void
prof_publish(struct vrt_prof *p)
{
	static const char * const what[] = {
		[PROF_EVALS] = "evals", [PROF_NS] = "ns", [PROF_TRUE] = "true",
	};
	static const char * const how[] = {
		[PROF_EVALS] = "times evaluated or called",
		[PROF_NS] = "nanoseconds spent",
		[PROF_TRUE] = "times true",
	};
	struct vscw_desc *desc;
	const struct vrt_prof_point *pt;
	char ident[96], where[512], buf[700], **strs;
	const char *cn;
	unsigned n, u, k, c, ns = 0;
	uint64_t *vals;

	p->off = calloc(p->npts, sizeof *p->off);
	for (n = u = 0; u < p->npts; u++)
		n += prof_ncnt(&p->pts[u]);
	desc = calloc(n, sizeof *desc);
	strs = calloc(2 * (size_t)n, sizeof *strs);
	if (p->off == NULL || desc == NULL || strs == NULL)
		goto out;
	for (k = u = 0; u < p->npts; u++) {
		pt = &p->pts[u];
		p->off[u] = k;
		prof_where(pt, where, sizeof where);
		for (c = 0; c < prof_ncnt(pt); c++, k++) {
			cn = c == PROF_EVALS && pt->kind != VRT_PK_COND ?
			    "calls" : what[c];
			if (pt->kind == VRT_PK_METHOD)
				(void)snprintf(buf, sizeof buf, "%s.%s",
				    pt->sub, cn);
			else
				(void)snprintf(buf, sizeof buf, "%s.%03u.%s",
				    pt->sub, u, cn);
			strs[ns] = strdup(buf);
			desc[k].name = strs[ns++];
			(void)snprintf(buf, sizeof buf, "%s: %s", where,
			    how[c]);
			strs[ns] = strdup(buf);
			desc[k].oneliner = strs[ns++];
			desc[k].type = VSCW_TYPE_COUNTER;
			desc[k].level = VSCW_LEVEL_INFO;
			desc[k].format = VSCW_FORMAT_INTEGER;
			if (desc[k].name == NULL || desc[k].oneliner == NULL)
				goto out;
		}
	}
	(void)snprintf(ident, sizeof ident, "VCLP.%s", p->vclname);
	vals = VSCW_New(child_vsmw, ident, "vclp", "VCL profile: each "
	    "method, condition and call of a VCL", desc, n);
	if (vals != NULL)
		__atomic_store_n(&p->vals, vals, __ATOMIC_RELEASE);
  out:
	if (p->vals == NULL) {
		__atomic_store_n(&p->failed, 1, __ATOMIC_RELAXED);
		VSL(SLT_Error, 0, "vcl_profile: cannot publish the profile of "
		    "VCL %s (out of memory or disk)", p->vclname);
	}
	for (u = 0; u < ns; u++)
		free(strs[u]);
	free(strs);
	free(desc);
}

struct vrt_prof *
PROF_Ctx(struct vrt_prof *p)
{
	int counting;

	if (p == NULL)
		return (NULL);
	CHECK_OBJ(p, VRT_PROF_MAGIC);
	counting = cache_param->vcl_profile && child_vsmw != NULL;
	if (counting && __atomic_load_n(&p->vals, __ATOMIC_ACQUIRE) == NULL &&
	    !__atomic_load_n(&p->failed, __ATOMIC_RELAXED)) {
		LOCK_Lock(&p->mtx);
		if (p->vals == NULL && !p->failed)
			prof_publish(p);
		LOCK_Unlock(&p->mtx);
	}
	if (counting || !VSL_Masked(SLT_VCL_time))
		return (p);
	return (NULL);
}

static void
prof_add(const struct vrt_prof *p, unsigned n, unsigned c, uint64_t v)
{
	uint64_t *vals;

	if (!cache_param->vcl_profile)
		return;
	vals = __atomic_load_n(&p->vals, __ATOMIC_ACQUIRE);
	if (vals == NULL || n >= p->npts)
		return;
	(void)__atomic_add_fetch(&vals[p->off[n] + c], v, __ATOMIC_RELAXED);
}

static void
prof_log(VRT_CTX, const struct vrt_prof_point *pt, uint64_t ns)
{
	const char *name = pt->sub;

	if (ctx->vsl == NULL || VSL_Masked(SLT_VCL_time))
		return;
	if (pt->kind == VRT_PK_CALL && !strncmp(pt->text, "call ", 5))
		name = pt->text + 5;
	VSLb(ctx->vsl, SLT_VCL_time, "%s %.9f %s:%u:%u", name,
	    (double)ns * 1e-9, pt->file, pt->line, pt->col);
}

/* One run of point n since t0: its count and time; its p, or NULL. */
static const struct vrt_prof *
prof_count(VRT_CTX, unsigned n, uint64_t t0, uint64_t *nsp)
{
	const struct vrt_prof *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	p = ctx->prof;
	if (p == NULL)
		return (NULL);
	CHECK_OBJ(p, VRT_PROF_MAGIC);
	*nsp = prof_span(t0, VRT_prof_now());
	prof_add(p, n, PROF_EVALS, 1);
	prof_add(p, n, PROF_NS, *nsp);
	return (p);
}

void
VRT_prof_cond(VRT_CTX, unsigned n, uint64_t t0, int istrue)
{
	const struct vrt_prof *p;
	uint64_t ns;

	p = prof_count(ctx, n, t0, &ns);
	if (p != NULL && istrue)
		prof_add(p, n, PROF_TRUE, 1);
}

void
VRT_prof_call(VRT_CTX, unsigned n, uint64_t t0)
{
	const struct vrt_prof *p;
	uint64_t ns;

	p = prof_count(ctx, n, t0, &ns);
	if (p != NULL && n < p->npts)
		prof_log(ctx, &p->pts[n], ns);
}

/* A field of a vcl.profile row: tabs and newlines would split it. */
static void
prof_field(FILE *out, const char *s)
{

	for (; s != NULL && *s != '\0'; s++)
		(void)fputc((unsigned char)*s < 0x20 ? ' ' : *s, out);
}

int
PROF_Rows(const struct vrt_prof *p, const char *vclname, FILE *out)
{
	static const char * const kinds[] = {
		[VRT_PK_METHOD] = "method", [VRT_PK_COND] = "cond",
		[VRT_PK_CALL] = "call",
	};
	const struct vrt_prof_point *pt;
	const uint64_t *vals;
	uint64_t v[3];
	unsigned u, c;

	if (p == NULL) {
		fprintf(out, "VCL %s has no profile points", vclname);
		return (-1);
	}
	CHECK_OBJ(p, VRT_PROF_MAGIC);
	if (__atomic_load_n(&p->failed, __ATOMIC_RELAXED)) {
		fprintf(out, "The profile of VCL %s could not be made: no "
		    "room for its counters in the working directory (out of "
		    "memory or disk, or the child cannot write there)",
		    vclname);
		return (-1);
	}
	vals = __atomic_load_n(&p->vals, __ATOMIC_ACQUIRE);
	fprintf(out, "%s\n", vclname);
	for (u = 0; u < p->npts; u++) {
		pt = &p->pts[u];
		for (c = 0; c < 3; c++)
			v[c] = vals != NULL && c < prof_ncnt(pt) ?
			    __atomic_load_n(&vals[p->off[u] + c],
			    __ATOMIC_RELAXED) : 0;
		fprintf(out, "%ju\t%ju\t", (uintmax_t)v[PROF_NS],
		    (uintmax_t)v[PROF_EVALS]);
		if (pt->kind == VRT_PK_COND)
			fprintf(out, "%ju", (uintmax_t)v[PROF_TRUE]);
		else
			fputc('-', out);
		fprintf(out, "\t%s\t", (unsigned)pt->kind < 3 ?
		    kinds[pt->kind] : "?");
		prof_field(out, pt->file);
		fprintf(out, "\t%u\t%u\t", pt->line, pt->col);
		prof_field(out, pt->sub);
		fputc('\t', out);
		prof_field(out, pt->text);
		fputc('\n', out);
	}
	return (0);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_re.c -- regular expressions for compiled VCL: `~`, `!~`, regsub()
 * and regsuball().  Patterns are compiled (and JIT-compiled where PCRE2
 * can) once, when the VCL loads.  Matching needs PCRE2 match data; each
 * worker thread makes one the first time it matches and keeps it, so a
 * request allocates nothing but the result strings on its workspace.
 *
 * A pattern the compiler flags VRT_RE_MATCH_ONLY (only ever tested with
 * ~ and !~) is only asked yes or no, so a .* at an unanchored end is
 * dropped first (RELIT_Simplify), and a set of literals is matched by
 * one automaton (common/relit.c) instead of PCRE2 trying each
 * alternative at each offset (issue 13).  Either gives PCRE2's answer.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/relit.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* regsub() knows \0 to \9: ten pairs are all a match must report. */
#define VRT_RE_NCAP	10

struct vrt_re {
	unsigned		magic;
#define VRT_RE_MAGIC		0x3b0f7c55
	pcre2_code		*code;		/* NULL when rl matches */
	struct relit		*rl;		/* match only: literals */
	char			*pattern;	/* as written, for errors */
};

static __thread pcre2_match_data *vrt_re_md;

static pcre2_match_data *
vrt_re_matchdata(void)
{

	if (vrt_re_md == NULL)
		vrt_re_md = pcre2_match_data_create(VRT_RE_NCAP, NULL);
	return (vrt_re_md);
}

/* PCRE2's code for pattern, or NULL with the error in msg. */
static pcre2_code *
vrt_re_compile(const char *pattern, char *msg, size_t msglen)
{
	pcre2_code *code;
	PCRE2_UCHAR err_msg[128];
	PCRE2_SIZE off;
	int err;

	code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
	    0, &err, &off, NULL);
	if (code == NULL) {
		(void)pcre2_get_error_message(err, err_msg, sizeof err_msg);
		(void)snprintf(msg, msglen, "%s (at offset %zu)",
		    (const char *)err_msg, (size_t)off);
	}
	return (code);
}

/*
 * Only a yes or no is wanted: what answers it faster into re.  The
 * pattern compiled as written is in re->code already, so its errors
 * are the ones reported whatever is dropped.
 */
static void
vrt_re_match_only(struct vrt_re *re)
{
	pcre2_code *code;
	uint32_t nl;
	char *simple, msg[160];
	const char *use;

	simple = RELIT_Simplify(re->pattern);
	use = simple != NULL ? simple : re->pattern;
	/* relit knows "\n" as the newline only, PCRE2's default. */
	if (pcre2_config(PCRE2_CONFIG_NEWLINE, &nl) >= 0 &&
	    nl == PCRE2_NEWLINE_LF)
		re->rl = RELIT_Compile(use, NULL, 0);
	if (re->rl != NULL) {
		pcre2_code_free(re->code);
		re->code = NULL;
	} else if (simple != NULL) {
		/* Never fails where the original compiled (fuzz_relit). */
		code = vrt_re_compile(simple, msg, sizeof msg);
		if (code != NULL) {
			pcre2_code_free(re->code);
			re->code = code;
		}
	}
	free(simple);
}

int
VRT_re_init(VRT_CTX, VCL_REGEX *rep, const char *pattern, unsigned flags,
    const char *where)
{
	struct vrt_re *re;
	char msg[160];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(rep != NULL);
	*rep = NULL;
	if (pattern == NULL) {
		VRT_fail(ctx, "%s: regex: no pattern", where);
		return (-1);
	}
	ALLOC_OBJ(re, VRT_RE_MAGIC);
	if (re != NULL)
		re->pattern = strdup(pattern);
	if (re == NULL || re->pattern == NULL) {
		VRT_fail(ctx, "%s: regex: out of memory", where);
		if (re != NULL)
			FREE_OBJ(re);
		return (-1);
	}
	re->code = vrt_re_compile(pattern, msg, sizeof msg);
	if (re->code == NULL) {
		VRT_fail(ctx, "%s: regex \"%s\": %s", where, pattern, msg);
		free(re->pattern);
		FREE_OBJ(re);
		return (-1);
	}
	if (flags & VRT_RE_MATCH_ONLY)
		vrt_re_match_only(re);
	/* No JIT (not built in, no executable memory) still matches. */
	if (re->code != NULL)
		(void)pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	*rep = re;
	return (0);
}

void
VRT_re_fini(VCL_REGEX *rep)
{
	struct vrt_re *re;

	assert(rep != NULL);
	if (*rep == NULL)
		return;
	CAST_OBJ_NOTNULL(re, (struct vrt_re *)(uintptr_t)*rep, VRT_RE_MAGIC);
	*rep = NULL;
	pcre2_code_free(re->code);
	RELIT_Free(&re->rl);
	free(re->pattern);
	FREE_OBJ(re);
}

/*
 * One match at or after start: the number of pairs set (>= 1), 0 for
 * none, -1 for an error (logged, the context failed).
 */
static int
vrt_re_exec(VRT_CTX, const struct vrt_re *re, const char *s, size_t len,
    size_t start, pcre2_match_data *md)
{
	PCRE2_UCHAR msg[128];
	int rc;

	rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, start, 0, md, NULL);
	if (rc == PCRE2_ERROR_NOMATCH)
		return (0);
	if (rc < 0) {
		(void)pcre2_get_error_message(rc, msg, sizeof msg);
		VRT_fail(ctx, "regex \"%s\" match failed: %s", re->pattern,
		    (const char *)msg);
		return (-1);
	}
	/* 0: more groups than VRT_RE_NCAP; the first ones are set. */
	return (rc == 0 ? VRT_RE_NCAP : rc);
}

VCL_BOOL
VRT_re_match(VRT_CTX, VCL_STRING subject, VCL_REGEX re)
{
	pcre2_match_data *md;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (re == NULL) {
		VRT_fail(ctx, "regex match: no regex (VCL not loaded?)");
		return (0);
	}
	CHECK_OBJ(re, VRT_RE_MAGIC);
	if (subject == NULL)
		subject = "";
	if (re->rl != NULL)
		return (RELIT_Match(re->rl, subject, strlen(subject)));
	md = vrt_re_matchdata();
	if (md == NULL) {
		VRT_fail(ctx, "regex match: out of memory");
		return (0);
	}
	return (vrt_re_exec(ctx, re, subject, strlen(subject), 0, md) > 0);
}

/* Output into a workspace reservation; ok turns 0 when it is full. */
struct vrt_re_out {
	char			*p;
	char			*e;
	int			ok;
};

static void
vrt_re_put(struct vrt_re_out *o, const char *s, size_t l)
{

	if (!o->ok)
		return;
	if (l >= (size_t)(o->e - o->p)) {	/* keep room for the NUL */
		o->ok = 0;
		return;
	}
	memcpy(o->p, s, l);
	o->p += l;
}

/*
 * The replacement, as Varnish reads it: \0 to \9 the captures (unset
 * ones are ""), a backslash before anything else stands for that
 * character (\\ is one backslash, \& an ampersand), and a backslash at
 * the end is itself.
 */
static void
vrt_re_expand(struct vrt_re_out *o, const char *subject, const char *sub,
    const PCRE2_SIZE *ov, int npairs)
{
	const char *p;
	int n;

	for (p = sub; *p != '\0'; p++) {
		if (p[0] != '\\' || p[1] == '\0') {
			vrt_re_put(o, p, 1);
			continue;
		}
		p++;
		if (*p >= '0' && *p <= '9') {
			n = *p - '0';
			if (n < npairs && ov[2 * n] != PCRE2_UNSET)
				vrt_re_put(o, subject + ov[2 * n],
				    ov[2 * n + 1] - ov[2 * n]);
			continue;
		}
		vrt_re_put(o, p, 1);
	}
}

VCL_STRING
VRT_regsub(VRT_CTX, int all, VCL_STRING subject, VCL_REGEX re,
    VCL_STRING sub)
{
	struct vrt_re_out o;
	pcre2_match_data *md;
	const PCRE2_SIZE *ov;
	size_t avail, len, start;
	char *b;
	int n;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (re == NULL) {
		VRT_fail(ctx, "regsub: no regex (VCL not loaded?)");
		return (NULL);
	}
	CHECK_OBJ(re, VRT_RE_MAGIC);
	if (re->code == NULL) {
		/* The compiler promised ~ only (VRT_RE_MATCH_ONLY). */
		VRT_fail(ctx, "regsub: regex \"%s\" was compiled for ~ only",
		    re->pattern);
		return (NULL);
	}
	md = vrt_re_matchdata();
	if (md == NULL) {
		VRT_fail(ctx, "regsub: out of memory");
		return (NULL);
	}
	if (subject == NULL)
		subject = "";
	if (sub == NULL)
		sub = "";
	len = strlen(subject);

	n = vrt_re_exec(ctx, re, subject, len, 0, md);
	if (n <= 0)
		return (n < 0 ? NULL : subject);

	o.ok = 1;
	avail = WS_ReserveAll(ctx->ws);
	o.p = b = WS_Reservation(ctx->ws);
	o.e = b + avail;
	start = 0;
	do {
		ov = pcre2_get_ovector_pointer(md);
		vrt_re_put(&o, subject + start, ov[0] - start);
		vrt_re_expand(&o, subject, sub, ov, n);
		if (ov[1] > ov[0]) {
			start = ov[1];
		} else if (ov[1] >= len) {
			/* An empty match at the end: nothing follows. */
			start = len;
			break;
		} else {
			/*
			 * An empty match: the next attempt starts one byte
			 * on, that byte copied, or it would match here again.
			 */
			vrt_re_put(&o, subject + ov[1], 1);
			start = ov[1] + 1;
		}
		if (!all || !o.ok)
			break;
		n = vrt_re_exec(ctx, re, subject, len, start, md);
	} while (n > 0);
	if (n < 0) {
		WS_Release(ctx->ws, 0);
		return (NULL);
	}
	vrt_re_put(&o, subject + start, len - start);
	if (!o.ok) {
		/* Failing the method answers 503; no overflow mark (500). */
		WS_Release(ctx->ws, 0);
		VRT_fail(ctx, "%s: out of workspace",
		    all ? "regsuball" : "regsub");
		return (NULL);
	}
	*o.p++ = '\0';
	WS_Release(ctx->ws, (size_t)(o.p - b));
	return (b);
}

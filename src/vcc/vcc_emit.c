/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_emit.c -- what the VCL compiler adds to the plain C of each
 * statement (-p vcc_optimize, -p vcl_profile).
 *
 * The frame.  Every method call gets a small struct on its stack (struct
 * vgc_frame) that every sub it calls shares.  A value read more than once
 * (a header, req.url, req.method...: a "subject"), the answer of a regex
 * tested more than once on one subject, and the index of a subject among
 * the constants it is compared with are remembered there, each stamped
 * with the subject's write stamp.  A statement that sets or unsets a
 * subject gives it a new stamp; one whose effect the compiler cannot see
 * (a module procedure, inline C) starts a new epoch, which forgets
 * everything.  So a remembered value is used only while nothing could
 * have changed it, and the VCL behaves exactly as written.
 *
 * Runs of `==` tests.  `req.http.host == "a"`, `== "b"`, ... anywhere in
 * the VCL are numbered per subject; the subject is looked up once in a
 * hash table of its constants (VRT_lit_index) and each test becomes an
 * integer comparison.  `&&` already stops at the cheap test, as written.
 *
 * Profile points.  Each method, `if`/`elsif` condition and `call` is a
 * point of vcl_conf.prof_points, wrapped in VRT_PROF_COND/VRT_PROF_CALL,
 * which cost one predictable branch while profiling is off.
 */

#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcc/vcc_comp.h"
#include "vrt.h"

/* Subjects -------------------------------------------------------------*/

/*
 * Variables that only VCL statements change while a method runs (the
 * reason phrase is not one: setting a status resets it).
 */
static const char * const opt_vars[] = {
	"req.url", "req.method", "bereq.url", "bereq.method",
	"req_top.url", "req_top.method",
};

static struct vsubj *
subj_find(struct vcc *tl, const char *key)
{
	struct vsubj *s;

	for (s = P(tl)->subjs; s != NULL; s = s->next)
		if (!strcmp(s->key, key))
			return (s);
	return (NULL);
}

static struct vsubj *
subj_get(struct vcc *tl, const char *key, const char *rdc)
{
	struct vsubj *s;

	s = subj_find(tl, key);
	if (s != NULL) {
		if (s->rdc == NULL && rdc != NULL)
			s->rdc = vcc_strdup(tl, rdc);
		return (s);
	}
	s = vcc_alloc(tl, sizeof *s);
	s->key = vcc_strdup(tl, key);
	s->rdc = rdc != NULL ? vcc_strdup(tl, rdc) : NULL;
	s->idx = P(tl)->nsubjs++;
	s->next = P(tl)->subjs;
	P(tl)->subjs = s;
	return (s);
}

/* "HDR_REQ host" for req.http.Host: header names ignore case. */
static char *
subj_hdr_key(struct vcc *tl, const char *where, const char *name)
{
	char *k;
	size_t u;

	k = cat3(tl, where, " ", name);
	for (u = strlen(where) + 1; k[u] != '\0'; u++)
		k[u] = (char)tolower((unsigned char)k[u]);
	return (k);
}

static int
opt_var_ok(const char *vname)
{
	unsigned u;

	for (u = 0; u < sizeof opt_vars / sizeof opt_vars[0]; u++)
		if (!strcmp(opt_vars[u], vname))
			return (1);
	return (0);
}

struct vsubj *
OPT_SubjHdr(struct vcc *tl, const char *where, const char *name,
    const char *rdc)
{

	if (!tl->opts->optimize)
		return (NULL);
	return (subj_get(tl, subj_hdr_key(tl, where, name), rdc));
}

struct vsubj *
OPT_SubjVar(struct vcc *tl, const char *vname, const char *rdc)
{

	if (!tl->opts->optimize || !opt_var_ok(vname))
		return (NULL);
	return (subj_get(tl, cat3(tl, "var ", vname, ""), rdc));
}

char *
OPT_Read(struct vcc *tl, struct vsubj *s)
{
	char buf[64];

	assert(s != NULL);
	s->nreads++;
	(void)snprintf(buf, sizeof buf, "vgc_rd_%u(ctx, vf)", s->idx);
	return (vcc_strdup(tl, buf));
}

const char *
OPT_Eq(struct vcc *tl, struct vsubj *s, const char *lit, int neg)
{
	struct vlit *l;
	char buf[80];

	assert(s != NULL);
	assert(lit != NULL);
	for (l = s->lits; l != NULL; l = l->next)
		if (!strcmp(l->s, lit))
			break;
	if (l == NULL) {
		l = vcc_alloc(tl, sizeof *l);
		l->s = vcc_strdup(tl, lit);
		l->idx = s->nlits++;
		l->next = s->lits;
		s->lits = l;
	}
	s->ncmps++;
	(void)snprintf(buf, sizeof buf, "(%svgc_eq_%u_%u(ctx, vf))",
	    neg ? "!" : "", s->idx, l->idx);
	return (vcc_strdup(tl, buf));
}

static struct vrem *
rem_get(struct vcc *tl, struct vsubj *s, const char *pat)
{
	struct vrem *m;

	for (m = P(tl)->rems; m != NULL; m = m->next)
		if (m->subj == s && !strcmp(m->pat, pat))
			return (m);
	m = vcc_alloc(tl, sizeof *m);
	m->subj = s;
	m->pat = vcc_strdup(tl, pat);
	m->idx = P(tl)->nrems++;
	m->next = P(tl)->rems;
	P(tl)->rems = m;
	return (m);
}

const char *
OPT_Match(struct vcc *tl, struct vsubj *s, const char *pat, const char *re,
    int neg)
{
	struct vrem *m;
	char buf[80];

	m = rem_get(tl, s, pat);
	m->re = vcc_strdup(tl, re);
	m->nmatch++;
	(void)snprintf(buf, sizeof buf, "(%svgc_rm_%u(ctx, vf))",
	    neg ? "!" : "", m->idx);
	return (vcc_strdup(tl, buf));
}

/*
 * regsub() of a subject with a pattern also tested with ~ on it: when
 * the test already said no, the answer is the subject itself and PCRE2
 * need not run again.
 */
const char *
OPT_Regsub(struct vcc *tl, struct vsubj *s, const char *pat,
    const char *re, int all, const char *with)
{
	struct vrem *m;
	struct vbuf vb = { NULL, 0, 0 };

	m = rem_get(tl, s, pat);
	m->nsub++;
	vbuf_printf(tl, &vb, "vgc_rs_%u(ctx, vf, %d, %s, %s)", m->idx, all,
	    re, with);
	return (vcc_strdup(tl, vb.s));
}

static void
opt_w1(struct vcc *tl, struct vbuf *out, unsigned ind, const char *key)
{
	struct vsubj *s;
	unsigned u;

	s = subj_get(tl, key, NULL);
	for (u = 0; u < ind; u++)
		vbuf_cat(tl, out, "\t");
	vbuf_printf(tl, out, "vgc_w_%u(vf);\n", s->idx);
}

/* req.http.X and req_top.http.X are one header outside ESI. */
static const char *
opt_alias(struct vcc *tl, const char *key)
{

	if (!strncmp(key, "HDR_REQ_TOP ", 12))
		return (cat3(tl, "HDR_REQ ", key + 12, ""));
	if (!strncmp(key, "HDR_REQ ", 8))
		return (cat3(tl, "HDR_REQ_TOP ", key + 8, ""));
	if (!strncmp(key, "var req_top.", 12))
		return (cat3(tl, "var req.", key + 12, ""));
	if (!strncmp(key, "var req.", 8))
		return (cat3(tl, "var req_top.", key + 8, ""));
	return (NULL);
}

static void
opt_write(struct vcc *tl, struct vbuf *out, unsigned ind, const char *key)
{
	const char *a;

	opt_w1(tl, out, ind, key);
	a = opt_alias(tl, key);
	if (a != NULL)
		opt_w1(tl, out, ind, a);
}

void
OPT_WriteHdr(struct vcc *tl, struct vbuf *out, unsigned ind,
    const char *where, const char *name)
{

	if (tl->opts->optimize)
		opt_write(tl, out, ind, subj_hdr_key(tl, where, name));
}

void
OPT_WriteVar(struct vcc *tl, struct vbuf *out, unsigned ind,
    const char *vname)
{

	if (tl->opts->optimize && opt_var_ok(vname))
		opt_write(tl, out, ind, cat3(tl, "var ", vname, ""));
}

void
OPT_Clobber(struct vcc *tl, struct vbuf *out, unsigned ind)
{
	unsigned u;

	if (!tl->opts->optimize)
		return;
	for (u = 0; u < ind; u++)
		vbuf_cat(tl, out, "\t");
	vbuf_cat(tl, out, "vf->epoch++;\n");
}

/* The frame and its helpers, after the declarations --------------------*/

#define OPT_MAXLIT	30000U	/* slots are unsigned short */
#define OPT_MAXMEMO	256U	/* 6 KB of frame at the most */

static void
emit_littab(struct vcc *tl, struct vbuf *out, const struct vsubj *s)
{
	const struct vlit *l;
	unsigned nslot, *slot, u, h;
	size_t len;

	nslot = 4;
	while (nslot < 2 * s->nlits)
		nslot *= 2;
	slot = vcc_alloc(tl, nslot * sizeof *slot);
	vbuf_printf(tl, out, "static const char * const vgc_lits_%u[%u] = {\n",
	    s->idx, s->nlits);
	for (u = 0; u < s->nlits; u++) {
		for (l = s->lits; l->idx != u; l = l->next)
			continue;
		vbuf_printf(tl, out, "\t%s,\n", vcc_cstr(tl, l->s));
	}
	vbuf_printf(tl, out, "};\nstatic const unsigned vgc_lens_%u[%u] = {",
	    s->idx, s->nlits);
	for (u = 0; u < s->nlits; u++) {
		for (l = s->lits; l->idx != u; l = l->next)
			continue;
		h = VRT_lit_hash(l->s, &len);
		vbuf_printf(tl, out, "%s%zu", u ? ", " : " ", len);
		while (slot[h & (nslot - 1)] != 0)
			h++;
		slot[h & (nslot - 1)] = u + 1;
	}
	vbuf_printf(tl, out, " };\nstatic const unsigned short "
	    "vgc_slots_%u[%u] = {", s->idx, nslot);
	for (u = 0; u < nslot; u++)
		vbuf_printf(tl, out, "%s%s%u", u ? "," : "",
		    u % 16 == 0 ? "\n\t" : " ", slot[u]);
	vbuf_printf(tl, out, "\n};\nstatic const struct vrt_littab "
	    "vgc_littab_%u = { %u, vgc_lits_%u, vgc_lens_%u, %u, "
	    "vgc_slots_%u };\n", s->idx, s->nlits, s->idx, s->idx, nslot,
	    s->idx);
}

static void
emit_memo_check(struct vcc *tl, struct vbuf *out, unsigned slot,
    unsigned sidx)
{

	vbuf_printf(tl, out, "\tstruct vgc_memo *m = &vf->m[%u];\n\n"
	    "\tif (m->ep == vf->epoch && m->gen == vf->g[%u])\n", slot, sidx);
}

static void
emit_memo_stamp(struct vcc *tl, struct vbuf *out, unsigned sidx)
{

	vbuf_printf(tl, out, "\tm->ep = vf->epoch;\n\tm->gen = vf->g[%u];\n",
	    sidx);
}

/* A regex tested with ~ on a subject, remembered if tested twice. */
static void
emit_rm(struct vcc *tl, struct vbuf *out, const struct vrem *m)
{
	const struct vsubj *s = m->subj;

	vbuf_printf(tl, out, "\nstatic inline int\n"
	    "vgc_rm_%u(VRT_CTX, struct vgc_frame *vf)\n{\n", m->idx);
	if (m->slot == ~0U) {
		vbuf_printf(tl, out, "\n\treturn (VRT_re_match(ctx, "
		    "vgc_rd_%u(ctx, vf), %s));\n}\n", s->idx, m->re);
		return;
	}
	emit_memo_check(tl, out, m->slot, s->gslot);
	vbuf_printf(tl, out, "\t\treturn (m->v);\n"
	    "\tm->v = VRT_re_match(ctx, vgc_rd_%u(ctx, vf), %s);\n"
	    "\tif (ctx->failed)\n\t\treturn (0);\n", s->idx, m->re);
	emit_memo_stamp(tl, out, s->gslot);
	vbuf_cat(tl, out, "\treturn (m->v);\n}\n");
}

/* regsub() of that subject with that pattern: no match known, no PCRE2. */
static void
emit_rs(struct vcc *tl, struct vbuf *out, const struct vrem *m)
{
	const struct vsubj *s = m->subj;

	vbuf_printf(tl, out, "static inline VCL_STRING\n"
	    "vgc_rs_%u(VRT_CTX, struct vgc_frame *vf, int all, "
	    "VCL_REGEX re, VCL_STRING with)\n{\n", m->idx);
	if (m->slot != ~0U)
		vbuf_printf(tl, out, "\n\tif (vf->m[%u].ep == vf->epoch && "
		    "vf->m[%u].gen == vf->g[%u] && !vf->m[%u].v)\n"
		    "\t\treturn (vgc_rd_%u(ctx, vf) != NULL ? "
		    "vgc_rd_%u(ctx, vf) : \"\");\n", m->slot, m->slot,
		    s->gslot, m->slot, s->idx, s->idx);
	else
		vbuf_cat(tl, out, "\n\t(void)vf;\n");
	vbuf_printf(tl, out, "\treturn (VRT_regsub(ctx, all, "
	    "vgc_rd_%u(ctx, vf), re, with));\n}\n", s->idx);
}

void
OPT_EmitFrame(struct vcc *tl, struct vbuf *out)
{
	struct vparse *p = P(tl);
	struct vsubj *s;
	struct vrem *m;
	const struct vlit *l;
	unsigned nmemo = 0, ng = 0;

	/*
	 * Memo slots: only what is used more than once, and no more than
	 * OPT_MAXMEMO (the frame is on a worker's stack); write stamps only
	 * for the subjects something is remembered of.
	 */
	for (s = p->subjs; s != NULL; s = s->next) {
		s->vslot = s->kslot = s->gslot = ~0U;
		if (s->nreads >= 2 && nmemo < OPT_MAXMEMO)
			s->vslot = nmemo++;
		if (s->ncmps >= 2 && s->nlits <= OPT_MAXLIT &&
		    nmemo < OPT_MAXMEMO)
			s->kslot = nmemo++;
		if (s->vslot != ~0U || s->kslot != ~0U)
			s->gslot = ng++;
	}
	for (m = p->rems; m != NULL; m = m->next) {
		m->slot = ~0U;
		if (m->nmatch + m->nsub >= 2 && m->re != NULL &&
		    nmemo < OPT_MAXMEMO)
			m->slot = nmemo++;
		if (m->slot != ~0U && m->subj->gslot == ~0U)
			m->subj->gslot = ng++;
	}
	/* `return;` in a called sub (vcc_parse.c), as its value. */
	vbuf_cat(tl, out, "\n#define VGC_RET_SUBEND\t((enum vcl_ret)"
	    "(VCL_RET__MAX + 1))\n");
	vbuf_printf(tl, out, "\n/* The frame (vcc_emit.c): %u subjects, "
	    "%u remembered values. */\n"
	    "struct vgc_memo {\n\tunsigned\tep, gen;\n\tint\t\tv;\n"
	    "\tconst char\t*s;\n};\n"
	    "struct vgc_frame {\n\tunsigned\tepoch, clock;\n"
	    "\tunsigned\tg[%u];\n\tstruct vgc_memo\tm[%u];\n};\n",
	    p->nsubjs, nmemo, ng ? ng : 1, nmemo ? nmemo : 1);
	for (s = p->subjs; s != NULL; s = s->next) {
		vbuf_printf(tl, out, "\n/* %s */\n"
		    "static inline void\nvgc_w_%u(struct vgc_frame *vf)\n"
		    "{\n\n", s->key, s->idx);
		if (s->gslot == ~0U)
			vbuf_cat(tl, out, "\t(void)vf;\n}\n");
		else
			vbuf_printf(tl, out, "\tvf->g[%u] = ++vf->clock;\n}\n",
			    s->gslot);
		if (s->rdc == NULL)
			continue;
		vbuf_printf(tl, out, "static inline const char *\n"
		    "vgc_rd_%u(VRT_CTX, struct vgc_frame *vf)\n{\n",
		    s->idx);
		if (s->vslot == ~0U) {
			vbuf_printf(tl, out, "\n\t(void)vf;\n\treturn (%s);\n"
			    "}\n", s->rdc);
		} else {
			emit_memo_check(tl, out, s->vslot, s->gslot);
			vbuf_printf(tl, out, "\t\treturn (m->s);\n"
			    "\tm->s = %s;\n", s->rdc);
			emit_memo_stamp(tl, out, s->gslot);
			vbuf_cat(tl, out, "\treturn (m->s);\n}\n");
		}
		if (s->kslot != ~0U) {
			emit_littab(tl, out, s);
			vbuf_printf(tl, out, "static inline int\n"
			    "vgc_k_%u(VRT_CTX, struct vgc_frame *vf)\n{\n",
			    s->idx);
			emit_memo_check(tl, out, s->kslot, s->gslot);
			vbuf_printf(tl, out, "\t\treturn (m->v);\n"
			    "\tm->v = VRT_lit_index(vgc_rd_%u(ctx, vf), "
			    "&vgc_littab_%u);\n", s->idx, s->idx);
			emit_memo_stamp(tl, out, s->gslot);
			vbuf_cat(tl, out, "\treturn (m->v);\n}\n");
		}
		for (l = s->lits; l != NULL; l = l->next) {
			vbuf_printf(tl, out, "static inline int\n"
			    "vgc_eq_%u_%u(VRT_CTX, struct vgc_frame *vf)\n"
			    "{\n\n", s->idx, l->idx);
			if (s->kslot != ~0U)
				vbuf_printf(tl, out, "\treturn (vgc_k_%u(ctx, "
				    "vf) == %u);\n}\n", s->idx, l->idx);
			else
				vbuf_printf(tl, out, "\treturn (VRT_strcmp("
				    "vgc_rd_%u(ctx, vf), %s) == 0);\n}\n",
				    s->idx, vcc_cstr(tl, l->s));
		}
	}
	for (m = p->rems; m != NULL; m = m->next) {
		if (m->re != NULL)
			emit_rm(tl, out, m);
		if (m->nsub > 0)
			emit_rs(tl, out, m);
	}
}

/* Profile points -------------------------------------------------------*/

/* The source between two tokens of one file, on one line, shortened. */
static const char *
prof_text(struct vcc *tl, const struct token *a, const struct token *b)
{
	struct vbuf vb = { NULL, 0, 0 };
	const char *q, *e;
	size_t n = 0;
	char c[2];

	e = (b != NULL && b->src == a->src && b->e >= a->b) ? b->e : a->e;
	vbuf_cat(tl, &vb, "");
	for (q = a->b; q < e && n < 160; q++) {
		if (isspace((unsigned char)*q)) {
			while (q + 1 < e && isspace((unsigned char)q[1]))
				q++;
			if (n > 0)
				vbuf_cat(tl, &vb, " ");
			n++;
			continue;
		}
		c[0] = *q;
		c[1] = '\0';
		vbuf_cat(tl, &vb, c);
		n++;
	}
	if (q < e)
		vbuf_cat(tl, &vb, "...");
	return (vb.s);
}

unsigned
OPT_ProfPoint(struct vcc *tl, unsigned kind, const char *sub,
    const struct token *a, const struct token *b)
{
	struct vparse *p = P(tl);
	const char *text;

	text = prof_text(tl, a, b);
	/* The methods come first in the table. */
	vbuf_printf(tl, &p->prof, "\t{ %s, %s, %s, %u, %u, %s },\n",
	    kind == VRT_PK_COND ? "VRT_PK_COND" : kind == VRT_PK_CALL ?
	    "VRT_PK_CALL" : "VRT_PK_METHOD", vcc_cstr(tl, sub),
	    vcc_cstr(tl, a->src->name), a->line, a->col,
	    vcc_cstr(tl, text));
	return (VCL_MET__MAX + p->nprof++);
}

/*
 * The table: the methods first (in enum vcl_method order, where their
 * first definition is), then the points in the order they were met.
 */
void
OPT_EmitProf(struct vcc *tl, struct vbuf *out, const char * const *meths,
    unsigned nmeths)
{
	struct vparse *p = P(tl);
	const struct vsub *s, *first;
	unsigned u;

	vbuf_printf(tl, out, "\nstatic const struct vrt_prof_point "
	    "vgc_prof[%u] = {\n", nmeths + p->nprof);
	for (u = 0; u < nmeths; u++) {
		first = NULL;
		for (s = p->subs; s != NULL; s = s->next)
			if (s->method == (int)u && s->t != NULL &&
			    (first == NULL || (first->t->src->builtin &&
			    !s->t->src->builtin)))
				first = s;
		if (first == NULL) {
			vbuf_printf(tl, out, "\t{ VRT_PK_METHOD, %s, \"\", 0, "
			    "0, %s },\n", vcc_cstr(tl, meths[u]),
			    vcc_cstr(tl, meths[u]));
			continue;
		}
		vbuf_printf(tl, out, "\t{ VRT_PK_METHOD, %s, %s, %u, %u, "
		    "%s },\n", vcc_cstr(tl, meths[u]),
		    vcc_cstr(tl, first->t->src->name), first->t->line,
		    first->t->col, vcc_cstr(tl, cat3(tl, "sub ", meths[u],
		    "")));
	}
	vbuf_cat(tl, out, p->prof.s != NULL ? p->prof.s : "");
	vbuf_cat(tl, out, "};\n");
}

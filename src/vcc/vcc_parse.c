/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_parse.c -- the VCL compiler's tables, tokens and expressions:
 * types, variables, headers, module calls and operators, type-checked
 * and emitted as C (statements, subroutines and the top level are
 * vcc_stmt.c's; declarations of backends, probes and ACLs vcc_decl.c's).
 * One pass over the tokens (after a scan that registers every declared
 * name, so order does not matter) emits C per subroutine and records,
 * for each variable use, return and call, where it is legal; a second
 * step finds which methods reach each subroutine and checks every
 * record against them, so the errors can say where a thing does exist.
 * The emitted C is deliberately plain: one statement per VCL statement,
 * runtime calls through vrt.h, a failure check after each.
 */

#include "config.h"

#include <arpa/inet.h>
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "vcc/vcc_comp.h"
#include "vrt.h"


/* The C literal of "file:line:col" for t, for the runtime's messages. */
const char *
vcc_where(struct vcc *tl, const struct token *t)
{
	char buf[64];
	char *r;
	size_t l;

	(void)snprintf(buf, sizeof buf, ":%u:%u", t->line, t->col);
	l = strlen(t->src->name) + strlen(buf) + 1;
	r = vcc_alloc(tl, l);
	(void)snprintf(r, l, "%s%s", t->src->name, buf);
	return (vcc_cstr(tl, r));
}

const char * const vtype_name[] = {
	"VOID", "STRING", "STRANDS", "INT", "REAL", "BOOL", "DURATION",
	"BYTES", "TIME", "IP", "BACKEND", "BLOB", "BODY", "HTTP", "HEADER",
	"ENUM", "ACL", "PROBE", "SUB", "REGEX",
};

const char * const vtype_a[] = {
	"a VOID",
	"a STRING",
	"a STRANDS",
	"an INT",
	"a REAL",
	"a BOOL",
	"a DURATION",
	"a BYTES",
	"a TIME",
	"an IP",
	"a BACKEND",
	"a BLOB",
	"a BODY",
	"an HTTP",
	"a HEADER",
	"an ENUM",
	"an ACL",
	"a PROBE",
	"a SUB",
	"a REGEX",
};

/* The tables ------------------------------------------------------------*/

static const struct vvar vcc_vars[] = {
#define VCL_VAR(c, n, T, rd, wr, un, fl, doc)	\
	{ n, V_##T, rd, wr, un, fl, #c },
#include "vcl_vars.h"
};
#define NVARS	(sizeof vcc_vars / sizeof vcc_vars[0])

static const struct vhdrp vcc_hdrs[] = {
#define VCL_HDR(w, n, rd, wr, un, doc)	{ n, "HDR_" #w, rd, wr, un },
#include "vcl_vars.h"
};
#define NHDRS	(sizeof vcc_hdrs / sizeof vcc_hdrs[0])

const struct vmeth vcc_meths[] = {
#define VCL_MET(l, U, side, rets)	{ "vcl_" #l, VCL_MET_##U, rets, #l },
#include "vcl_returns.h"
};
_Static_assert(sizeof vcc_meths / sizeof vcc_meths[0] == VCL_MET__MAX,
    "vcc_meths");

const char * const vcc_rets[] = {
	"none",
#define VCL_RET(l, U)	#l,
#include "vcl_returns.h"
};
_Static_assert(sizeof vcc_rets / sizeof vcc_rets[0] == VCL_RET__MAX,
    "vcc_rets");


#define VMOD_A(T, n)		{ V_##T, #n, 'A', NULL, NULL },
#define VMOD_D(T, n, d)		{ V_##T, #n, 'D', d, NULL },
#define VMOD_O(T, n)		{ V_##T, #n, 'O', NULL, NULL },
#define VMOD_E(n, v, d)		{ V_ENUM, #n, 'E', d, v },
#define VMOD_P(k)		{ V_VOID, "PRIV_" #k, 'P', #k, NULL },
#define VMOD_FUNC(m, f, R, args, doc)					\
	static const struct vfarg vfa_##m##_##f[] = {			\
		args { V_VOID, NULL, 0, NULL, NULL } };
#define VMOD_OBJ(m, c, args, doc)					\
	static const struct vfarg vfa_##m##_##c##__init[] = {		\
		args { V_VOID, NULL, 0, NULL, NULL } };
#define VMOD_METHOD(m, c, f, R, args, where, doc)			\
	static const struct vfarg vfa_##m##_##c##_##f[] = {		\
		args { V_VOID, NULL, 0, NULL, NULL } };
#include "vmod_std.h"


static const struct vfunc vcc_funcs[] = {
#define VMOD_FUNC(m, f, R, args, doc)					\
	{ #m, #f, V_##R, vfa_##m##_##f, NULL, VM_ALL },
#define VMOD_A(T, n)
#define VMOD_D(T, n, d)
#define VMOD_O(T, n)
#define VMOD_E(n, v, d)
#define VMOD_P(k)
#include "vmod_std.h"
};
#define NFUNCS	(sizeof vcc_funcs / sizeof vcc_funcs[0])

static const struct vfunc vcc_methods[] = {
#define VMOD_FUNC(m, f, R, args, doc)
#define VMOD_METHOD(m, c, f, R, args, where, doc)			\
	{ #m, #f, V_##R, vfa_##m##_##c##_##f, #c, where },
#define VMOD_A(T, n)
#define VMOD_D(T, n, d)
#define VMOD_O(T, n)
#define VMOD_E(n, v, d)
#define VMOD_P(k)
#include "vmod_std.h"
};
#define NMETHODS	(sizeof vcc_methods / sizeof vcc_methods[0])


const struct vclass vcc_classes[] = {
#define VMOD_FUNC(m, f, R, args, doc)
#define VMOD_OBJ(m, c, args, doc)					\
	{ { #m, #c, V_VOID, vfa_##m##_##c##__init, NULL, VM_(INIT) } },
#define VMOD_A(T, n)
#define VMOD_D(T, n, d)
#define VMOD_O(T, n)
#define VMOD_E(n, v, d)
#define VMOD_P(k)
#include "vmod_std.h"
};
const size_t vcc_nclasses = sizeof vcc_classes / sizeof vcc_classes[0];

/* Tokens ----------------------------------------------------------------*/

const struct token *
tk(const struct vcc *tl)
{

	return (&tl->toks[tl->pos]);
}

const struct token *
tk_next(struct vcc *tl)
{
	const struct token *t = tk(tl);

	if (t->tok != T_EOF)
		tl->pos++;
	return (t);
}

const struct token *
tk_peek(const struct vcc *tl, unsigned n)
{
	size_t i = tl->pos + n;

	if (i >= tl->ntoks)
		i = tl->ntoks - 1;
	return (&tl->toks[i]);
}

const char *
tk_desc(struct vcc *tl, const struct token *t)
{

	switch (t->tok) {
	case T_EOF:	return ("the end of the file");
	case T_STR:	return ("a string");
	case T_CSRC:	return ("C{ }C");
	default:
		return (vcc_strndup(tl, t->b, (size_t)(t->e - t->b)));
	}
}

void
tk_expect(struct vcc *tl, const char *op)
{
	const struct token *t = tk(tl);

	if (!vcc_is(t, op))
		vcc_error(tl, t, "Expected '%s' got '%s'", op,
		    t->tok == T_STR ? vcc_strndup(tl, t->b,
		    (size_t)(t->e - t->b)) : tk_desc(tl, t));
	tl->pos++;
}

const struct token *
tk_expect_id(struct vcc *tl, const char *what)
{
	const struct token *t = tk(tl);

	if (t->tok != T_ID)
		vcc_error(tl, t, "expected %s, found '%s'", what,
		    tk_desc(tl, t));
	tl->pos++;
	return (t);
}

char *
tk_str(struct vcc *tl, const struct token *t)
{

	return (vcc_strndup(tl, t->b, (size_t)(t->e - t->b)));
}

/* Names and lists -------------------------------------------------------*/

struct vsym *
sym_find(struct vsym *l, const char *name, size_t len)
{

	/* Lists, but a VCL of thousands of subs must not strlen each. */
	for (; l != NULL; l = l->next) {
		if (l->nlen == 0)
			l->nlen = strlen(l->name);
		if (l->nlen == len && !memcmp(l->name, name, len))
			return (l);
	}
	return (NULL);
}

struct vsym *
sym_find_t(struct vsym *l, const struct token *t)
{

	return (sym_find(l, t->b, (size_t)(t->e - t->b)));
}

int
meth_find(const char *name, size_t len)
{
	unsigned u;

	for (u = 0; u < NMETHS; u++)
		if (strlen(vcc_meths[u].name) == len &&
		    !memcmp(vcc_meths[u].name, name, len))
			return ((int)u);
	return (-1);
}

struct vsub *
sub_find(struct vcc *tl, const struct token *t)
{
	struct vsub *s;
	size_t len = (size_t)(t->e - t->b);

	for (s = P(tl)->subs; s != NULL; s = s->next) {
		if (s->nlen == 0)
			s->nlen = strlen(s->name);
		if (s->nlen == len && !memcmp(s->name, t->b, len))
			return (s);
	}
	return (NULL);
}

/* "vcl_a, vcl_b and vcl_c" for a set of methods. */
const char *
meth_list(struct vcc *tl, unsigned mask, const char *conj)
{
	struct vbuf vb = { NULL, 0, 0 };
	unsigned u, n = 0, i = 0;
	char *r;

	for (u = 0; u < NMETHS; u++)
		if (mask & (1U << vcc_meths[u].idx))
			n++;
	vbuf_cat(tl, &vb, "");
	for (u = 0; u < NMETHS; u++) {
		if (!(mask & (1U << vcc_meths[u].idx)))
			continue;
		i++;
		if (i > 1)
			vbuf_cat(tl, &vb, i == n ? conj : ", ");
		vbuf_cat(tl, &vb, vcc_meths[u].name);
	}
	r = vcc_strdup(tl, vb.s);
	return (r);
}

void
sub_check(struct vcc *tl, const struct token *t, enum ckind kind,
    unsigned mask, const char *what)
{
	struct vsub *s = P(tl)->cur;

	if (s->nchecks == s->cchecks) {
		s->cchecks = s->cchecks ? s->cchecks * 2 : 16;
		s->checks = realloc(s->checks, s->cchecks * sizeof *s->checks);
		if (s->checks == NULL)
			abort();
	}
	s->checks[s->nchecks].t = t;
	s->checks[s->nchecks].kind = kind;
	s->checks[s->nchecks].mask = mask;
	s->checks[s->nchecks].what = what;
	s->nchecks++;
}

const char *
var_suggest(struct vcc *tl, const char *name)
{
	const char *best = NULL;
	unsigned u, d, bd = 4;
	char buf[256];

	for (u = 0; u < NVARS; u++) {
		d = vcc_lev(name, vcc_vars[u].name);
		if (d < bd) {
			bd = d;
			best = vcc_vars[u].name;
		}
	}
	for (u = 0; u < NHDRS; u++) {
		(void)snprintf(buf, sizeof buf, "%s", vcc_hdrs[u].prefix);
		d = vcc_lev(name, buf);
		if (strlen(name) <= strlen(buf) + 2 && d < bd) {
			bd = d;
			best = vcc_hdrs[u].prefix;
		}
	}
	if (best == NULL)
		return ("");
	return (vcc_strdup(tl, best));
}

/* Expressions -----------------------------------------------------------*/

struct expr *
e_new(struct vcc *tl, enum vtype t, const struct token *t0, const char *fmt,
    ...)
{
	struct vbuf vb = { NULL, 0, 0 };
	struct expr *e;
	va_list ap;

	e = vcc_alloc(tl, sizeof *e);
	e->t = t;
	e->t0 = t0;
	va_start(ap, fmt);
	vbuf_vprintf(tl, &vb, fmt, ap);
	va_end(ap);
	e->c = vcc_strdup(tl, vb.s);
	if (t == V_STRING) {
		e->pcs = vcc_alloc(tl, sizeof *e->pcs);
		e->pcs[0] = e->c;
		e->npcs = 1;
	}
	return (e);
}

char *
cat3(struct vcc *tl, const char *a, const char *b, const char *c)
{
	size_t l = strlen(a) + strlen(b) + strlen(c);
	char *r = vcc_alloc(tl, l + 1);

	(void)snprintf(r, l + 1, "%s%s%s", a, b, c);
	return (r);
}

/* Any value as STRING pieces. */
struct expr *
e_tostring(struct vcc *tl, struct expr *e)
{
	const char *f;

	switch (e->t) {
	case V_STRING:		return (e);
	case V_INT:		f = "VRT_INT_string(ctx, %s)"; break;
	case V_REAL:		f = "VRT_REAL_string(ctx, %s)"; break;
	case V_DURATION:	f = "VRT_DURATION_string(ctx, %s)"; break;
	case V_TIME:		f = "VRT_TIME_string(ctx, %s)"; break;
	case V_BYTES:		f = "VRT_BYTES_string(ctx, %s)"; break;
	case V_BOOL:		f = "VRT_BOOL_string(%s)"; break;
	case V_BACKEND:		f = "VRT_BACKEND_string(%s)"; break;
	case V_IP:		f = "VRT_IP_string(ctx, %s)"; break;
	case V_BLOB:		f = "VRT_BLOB_string(ctx, %s)"; break;
	case V_STRANDS:		f = "VRT_STRANDS_string(ctx, %s)"; break;
	default:
		vcc_error(tl, e->t0, "%s cannot be used as a string",
		    vtype_a[e->t]);
	}
	return (e_new(tl, V_STRING, e->t0, f, e->c));
}

const char *
e_strands(struct vcc *tl, struct expr *e)
{
	struct vbuf vb = { NULL, 0, 0 };
	unsigned u;
	char *r;

	e = e_tostring(tl, e);
	if (e->npcs == 0)
		return ("&(struct strands){0, NULL}");
	vbuf_printf(tl, &vb, "&(struct strands){%u, (const char *[%u]){",
	    e->npcs, e->npcs);
	for (u = 0; u < e->npcs; u++)
		vbuf_printf(tl, &vb, "%s%s", u ? ", " : "", e->pcs[u]);
	vbuf_cat(tl, &vb, "}}");
	r = vcc_strdup(tl, vb.s);
	return (r);
}

/* One string (const char *) for a STRING-able value. */
const char *
e_string1(struct vcc *tl, struct expr *e)
{

	e = e_tostring(tl, e);
	if (e->npcs == 0)
		return ("\"\"");
	if (e->npcs == 1)
		return (e->pcs[0]);
	return (cat3(tl, "VRT_STRANDS_string(ctx, ", e_strands(tl, e), ")"));
}

const char *
e_bool(struct vcc *tl, struct expr *e)
{

	switch (e->t) {
	case V_BOOL:
		return (e->c);
	case V_STRING:
		return (cat3(tl, "(", e_string1(tl, e), " != NULL)"));
	case V_BACKEND:
	case V_IP:
		return (cat3(tl, "(", e->c, " != NULL)"));
	case V_INT:
	case V_REAL:
	case V_BYTES:
		return (cat3(tl, "(", e->c, " != 0)"));
	case V_DURATION:
		return (cat3(tl, "(", e->c, " > 0)"));
	default:
		vcc_error(tl, e->t0, "%s cannot be a condition (true or "
		    "false)", vtype_a[e->t]);
	}
}

int
is_num(enum vtype t)
{

	return (t == V_INT || t == V_REAL || t == V_DURATION ||
	    t == V_BYTES || t == V_TIME);
}

/*
 * A constant string where an IP is wanted, as published VCL writes
 * std.ip(req.http.X-Real-IP, "0.0.0.0"): a numeric address becomes a
 * static IP (port 80, std.ip's default); a name is not looked up.
 */
static const char *
e_ip_literal(struct vcc *tl, const struct expr *e, const char *what)
{
	unsigned char a[16];
	char buf[64];
	unsigned n, i;
	int fam;

	memset(a, 0, sizeof a);
	fam = strchr(e->lit, ':') != NULL ? AF_INET6 : AF_INET;
	if (inet_pton(fam, e->lit, a) != 1)
		vcc_error(tl, e->t0, "%s needs an IP: \"%s\" is not a "
		    "numeric address (names are not resolved here)", what,
		    e->lit);
	n = P(tl)->nanon++;
	vbuf_printf(tl, &P(tl)->decl, "static const struct vrt_ip "
	    "vgc_ip_anon_%u = { VRT_IP_MAGIC, %d, 80, {", n, fam);
	for (i = 0; i < sizeof a; i++)
		vbuf_printf(tl, &P(tl)->decl, "%s%u", i ? ", " : " ", a[i]);
	vbuf_printf(tl, &P(tl)->decl, " } };\n");
	(void)snprintf(buf, sizeof buf, "(&vgc_ip_anon_%u)", n);
	return (vcc_strdup(tl, buf));
}

/*
 * A bare number where a DURATION or BYTES belongs: when a word or string
 * follows it, that was meant as its unit; say so in Varnish's words.
 */
static void
unit_check(struct vcc *tl, const struct expr *e, enum vtype want)
{
	const struct token *u;

	if ((want != V_DURATION && want != V_BYTES) || !e->constant ||
	    (e->t != V_INT && e->t != V_REAL) || e->t0 == NULL ||
	    e->t0->tok != T_NUM)
		return;
	u = e->t0 + 1;
	if (want == V_BYTES && u->tok != T_ID && u->tok != T_EOF)
		vcc_error(tl, u, "Expected BYTES unit (B, KB, MB...) got '%s': "
		    "a size is a number with a unit (512B, 10KB, 1MB)",
		    tk_str(tl, u));
	if (u->tok != T_ID)
		return;
	if (want == V_BYTES)
		vcc_error(tl, u, "Unknown BYTES unit '%s': the units are B KB "
		    "MB GB TB", tk_str(tl, u));
	vcc_error(tl, u, "Unknown duration unit '%s': the units are ms s m h "
	    "d w y", tk_str(tl, u));
}

/* e converted for a place of type want, or an error that says why not. */
const char *
e_convert(struct vcc *tl, struct expr *e, enum vtype want, const char *what)
{

	if (want == V_STRING)
		return (e_string1(tl, e));
	if (want == V_STRANDS && e->t == V_STRANDS)
		return (e->c);
	if (want == V_STRANDS || want == V_BODY)
		return (e_strands(tl, e));
	if (e->t == want)
		return (e->c);
	if (want == V_REAL && e->t == V_INT)
		return (cat3(tl, "(VCL_REAL)(", e->c, ")"));
	if (want == V_IP && e->t == V_STRING && e->lit != NULL)
		return (e_ip_literal(tl, e, what));
	unit_check(tl, e, want);
	if ((want == V_DURATION || want == V_BYTES) &&
	    (e->t == V_INT || e->t == V_REAL) && e->constant)
		vcc_error(tl, e->t0, "%s needs %s: a number with a unit "
		    "(%s)", what, vtype_a[want], want == V_DURATION ?
		    "10s, 2m, 1h, 1d; units ms s m h d w y" :
		    "512B, 10KB, 1MB; units B KB MB GB TB");
	vcc_error(tl, e->t0, "%s needs %s, not %s", what,
	    vtype_a[want], vtype_a[e->t]);
}


const char *
hdr_ref(struct vcc *tl, const char *where, const char *name)
{
	struct vsym *s;
	char key[512], *c;

	(void)snprintf(key, sizeof key, "%s %s", where, name);
	s = sym_find(P(tl)->hdrs, key, strlen(key));
	if (s == NULL) {
		s = vcc_alloc(tl, sizeof *s);
		s->name = vcc_strdup(tl, key);
		s->idx = P(tl)->nhdrs++;
		s->next = P(tl)->hdrs;
		P(tl)->hdrs = s;
		c = cat3(tl, name, ":", "");
		vbuf_printf(tl, &P(tl)->decl, "static const struct gethdr_s "
		    "vgc_hdr_%u = { %s, \"\\%03o\" %s };\n", s->idx, where,
		    (unsigned)strlen(c), vcc_cstr(tl, c));
	}
	(void)snprintf(key, sizeof key, "&vgc_hdr_%u", s->idx);
	return (vcc_strdup(tl, key));
}

/* The name's length travels in one byte of struct gethdr_s. */
void
hdr_name_check(struct vcc *tl, const struct token *t, const char *hn,
    size_t hl)
{

	if (hl >= 127)
		vcc_error(tl, t, "HTTP header (%.20s..) is too long. A header "
		    "name here has at most 126 characters", hn);
}

/* A header variable: req.http.X-Foo.  NULL if t is not one. */
const struct vhdrp *
hdr_match(const struct token *t, const char **namep, size_t *lenp)
{
	size_t pl, len = (size_t)(t->e - t->b);
	unsigned u;

	for (u = 0; u < NHDRS; u++) {
		pl = strlen(vcc_hdrs[u].prefix);
		if (len > pl && !strncasecmp(t->b, vcc_hdrs[u].prefix, pl)) {
			*namep = t->b + pl;
			*lenp = len - pl;
			return (&vcc_hdrs[u]);
		}
	}
	return (NULL);
}

const struct vvar *
var_find(const struct token *t)
{
	size_t len = (size_t)(t->e - t->b);
	unsigned u;

	for (u = 0; u < NVARS; u++)
		if (strlen(vcc_vars[u].name) == len &&
		    !strncasecmp(vcc_vars[u].name, t->b, len))
			return (&vcc_vars[u]);
	return (NULL);
}

void
var_flags(struct vcc *tl, const struct token *t, const struct vvar *v)
{

	if ((v->flags & VV_ONLY_40) && P(tl)->syntax > 40)
		vcc_error(tl, t, "Symbol not found: '%s' (Only available when "
		    "VCL syntax <= 4.0): %s is VCL 4.0's; this file says "
		    "`vcl 4.1;`", v->name, v->name);
	if ((v->flags & VV_ONLY_41) && P(tl)->syntax < 41)
		vcc_error(tl, t, "Symbol not found: '%s' (Only available when "
		    "4.1 <= VCL syntax): %s came with VCL 4.1; this file "
		    "says `vcl 4.0;`", v->name, v->name);
	if (v->flags & VV_MISSING)
		vcc_warn(tl, t, "%s is accepted but does nothing yet: the "
		    "feature behind it is not in veneerd", v->name);
	if (v->flags & VV_4_0)
		vcc_warn(tl, t, "%s is a VCL 4.0 name; it still works "
		    "here, but see veneer-vcl(7) for today's", v->name);
}

/*
 * The regex object for a pattern; match_only when it is tested with ~
 * (never regsub) and the compiler may optimise: the runtime may then
 * match it without PCRE2 (VRT_RE_MATCH_ONLY).
 */
static const char *
regex_ref(struct vcc *tl, const struct token *t, const char *pat,
    int match_only)
{
	pcre2_code *re;
	PCRE2_SIZE off;
	PCRE2_UCHAR msg[256];
	struct token et;
	struct vsym *s;
	char buf[64], *key;
	int err;

	re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &err,
	    &off, NULL);
	if (re == NULL) {
		(void)pcre2_get_error_message(err, msg, sizeof msg);
		et = *t;
		/*
		 * Point into the literal where we can: a one-line string,
		 * the offset inside its text (or its closing quote).
		 */
		if (t->b[0] == '"' && t->b[1] != '"' && t->dec != NULL &&
		    off <= strlen(t->dec)) {
			et.b = t->b + 1 + off;
			et.e = et.b + 1;
			et.col = t->col + 1 + (unsigned)off;
		}
		vcc_error(tl, &et, "Regexp compilation error: %s",
		    (char *)msg);
	}
	pcre2_code_free(re);
	match_only = match_only && tl->opts->optimize;
	key = cat3(tl, match_only ? "~" : "s", pat, "");
	s = sym_find(P(tl)->res, key, strlen(key));
	if (s == NULL) {
		s = vcc_alloc(tl, sizeof *s);
		s->name = key;
		s->idx = P(tl)->nres++;
		s->next = P(tl)->res;
		P(tl)->res = s;
		vbuf_printf(tl, &P(tl)->decl, "static VCL_REGEX vgc_re_%u;\n",
		    s->idx);
		vbuf_printf(tl, &P(tl)->load, "\t\tif (VRT_re_init(ctx, "
		    "&vgc_re_%u, %s, %s, %s))\n\t\t\treturn (-1);\n",
		    s->idx, vcc_cstr(tl, pat), match_only ?
		    "VRT_RE_MATCH_ONLY" : "0", vcc_where(tl, t));
		vbuf_printf(tl, &P(tl)->discard,
		    "\t\tVRT_re_fini(&vgc_re_%u);\n", s->idx);
	}
	(void)snprintf(buf, sizeof buf, "vgc_re_%u", s->idx);
	return (vcc_strdup(tl, buf));
}

/* A string literal and any literals right after it. */
/* Adjacent string literals ("a" "b"); with plus, "a" + "b" too. */
static const char *
parse_lit_cat(struct vcc *tl, const struct token **tp, int plus)
{
	const struct token *t = tk(tl);
	const char *s;

	if (t->tok != T_STR)
		vcc_error(tl, t, "expected a string, found '%s'",
		    tk_desc(tl, t));
	*tp = t;
	s = tk_next(tl)->dec;
	for (;;) {
		if (tk(tl)->tok == T_STR)
			s = cat3(tl, s, tk_next(tl)->dec, "");
		else if (plus && vcc_is(tk(tl), "+") &&
		    tk_peek(tl, 1)->tok == T_STR) {
			tl->pos++;
			s = cat3(tl, s, tk_next(tl)->dec, "");
		} else
			break;
	}
	return (s);
}

const char *
parse_lit(struct vcc *tl, const struct token **tp)
{

	return (parse_lit_cat(tl, tp, 0));
}

/* A regex is a constant; Varnish folds "a" + "b" there. */
static const char *
parse_regex_lit(struct vcc *tl, const struct token **tp)
{
	const char *s;

	if (tk(tl)->tok != T_STR)
		vcc_error(tl, tk(tl), "Expected CSTR got '%s': a regular "
		    "expression is a constant string", tk_desc(tl, tk(tl)));
	s = parse_lit_cat(tl, tp, 1);
	if (vcc_is(tk(tl), "+"))
		vcc_error(tl, tk_peek(tl, 1), "Expected CSTR got '%s': a "
		    "regular expression is made of constant strings only",
		    tk_desc(tl, tk_peek(tl, 1)));
	return (s);
}

static struct expr *parse_unary(struct vcc *tl);

/*
 * A REGEX where one is wanted (right of ~, regsub's pattern, a module's
 * REGEX argument): a pattern literal, compiled when the VCL loads (its
 * text in lit, for the optimiser), or a value of type REGEX, such as a
 * module function's result.
 */
static struct expr *
parse_regex(struct vcc *tl, int match_only, const char *what)
{
	const struct token *t = tk(tl), *rt;
	const char *pat;
	struct expr *e;

	if (t->tok == T_STR) {
		pat = parse_regex_lit(tl, &rt);
		e = e_new(tl, V_REGEX, rt, "%s",
		    regex_ref(tl, rt, pat, match_only));
		e->lit = pat;
		e->constant = 1;
		return (e);
	}
	e = parse_unary(tl);
	if (e->t != V_REGEX)
		vcc_error(tl, t, "Expected CSTR got '%s': %s needs a regular "
		    "expression: a string literal (\"^/a\") or a REGEX (a "
		    "module function's), not %s", tk_desc(tl, t), what,
		    vtype_a[e->t]);
	return (e);
}

/* Whether t is one of values ("a,b,c"): the module gets only those. */
static int
enum_has(const char *values, const struct token *t)
{
	size_t len = (size_t)(t->e - t->b), l;
	const char *p;

	for (p = values; *p != '\0'; p += l + (p[l] == ',')) {
		l = strcspn(p, ",");
		if (l == len && !memcmp(p, t->b, len))
			return (1);
	}
	return (0);
}


/*
 * The C of a PRIV_* argument of module mod (k: TASK, TOP, VCL or CALL),
 * its state declared on first use.  TASK and TOP may be NULL at run time
 * (the context then failed): *key says which lookup to test.
 */
static const char *
priv_arg(struct vcc *tl, const char *mod, const char *k, int *lookup)
{
	struct vparse *p = P(tl);
	unsigned bit = 1U << mod_bit(mod, strlen(mod));
	char buf[96];

	*lookup = 0;
	if (!strcmp(k, "CALL")) {
		vbuf_printf(tl, &p->decl, "static struct vmod_priv "
		    "vgc_priv_call_%u;\n", p->npcalls);
		vbuf_printf(tl, &p->privfini, "\t\tVRT_priv_fini(ctx, "
		    "&vgc_priv_call_%u);\n", p->npcalls);
		(void)snprintf(buf, sizeof buf, "&vgc_priv_call_%u",
		    p->npcalls++);
		return (vcc_strdup(tl, buf));
	}
	if (!strcmp(k, "VCL")) {
		if (!(p->privvcls & bit)) {
			p->privvcls |= bit;
			vbuf_printf(tl, &p->decl, "static struct vmod_priv "
			    "vgc_priv_vcl_%s;\n", mod);
			vbuf_printf(tl, &p->privfini, "\t\tVRT_priv_fini(ctx, "
			    "&vgc_priv_vcl_%s);\n", mod);
		}
		(void)snprintf(buf, sizeof buf, "&vgc_priv_vcl_%s", mod);
		return (vcc_strdup(tl, buf));
	}
	/* The key of this VCL's module: as in Varnish, per VCL. */
	if (!(p->privkeys & bit)) {
		p->privkeys |= bit;
		vbuf_printf(tl, &p->decl, "static const char vgc_mod_%s = "
		    "0;\t/* PRIV_TASK, PRIV_TOP key */\n", mod);
	}
	*lookup = 1;
	(void)snprintf(buf, sizeof buf, "VRT_priv_%s(ctx, &vgc_mod_%s)",
	    !strcmp(k, "TOP") ? "top" : "task", mod);
	return (vcc_strdup(tl, buf));
}

/*
 * A call of f: a function (what "std.log"), a method (what "o.get",
 * self its object's C) or a constructor (self "&vgc_obj_1, \"o\"").
 * The arguments: positional, then named; defaults for the rest; PRIV_*
 * ones filled in.
 */
struct expr *
parse_call(struct vcc *tl, const struct vfunc *f, const struct token *t0,
    const char *what, const char *cfn, const char *self)
{
	struct expr *vals[32];
	const struct token *at[32];
	struct vbuf vb = { NULL, 0, 0 }, pv = { NULL, 0, 0 };
	struct vbuf pc = { NULL, 0, 0 };
	const struct token *t;
	struct expr *e;
	unsigned n, u, pos = 0, named = 0, tmp;
	const char *c, *d;
	int lookup;

	for (n = 0; f->args[n].name != NULL; n++) {
		vals[n] = NULL;
		at[n] = NULL;
		if (f->args[n].kind == 'P' && !strcmp(f->args[n].def, "TOP"))
			sub_check(tl, t0, CK_USE, VM_CLIENT,
			    cat3(tl, what, "()", ""));
	}
	if (f->where != VM_ALL && f->cls != NULL)
		sub_check(tl, t0, CK_USE, f->where, cat3(tl, what, "()", ""));
	tk_expect(tl, "(");
	while (!vcc_is(tk(tl), ")")) {
		t = tk(tl);
		if (t->tok == T_ID && vcc_is(tk_peek(tl, 1), "=")) {
			for (u = 0; u < n; u++)
				if (f->args[u].kind != 'P' && vcc_idlen(t) ==
				    (int)strlen(f->args[u].name) &&
				    !memcmp(t->b, f->args[u].name,
				    strlen(f->args[u].name)))
					break;
			if (u == n)
				vcc_error(tl, t, "%s() has no argument "
				    "named %s", what, tk_str(tl, t));
			tl->pos += 2;
			named = 1;
		} else {
			if (named)
				vcc_error(tl, t, "a positional argument after "
				    "a named one");
			while (pos < n && f->args[pos].kind == 'P')
				pos++;
			u = pos++;
			if (u >= n)
				vcc_error(tl, t, "too many arguments to "
				    "%s()", what);
		}
		if (vals[u] != NULL)
			vcc_error(tl, t, "argument %s given twice",
			    f->args[u].name);
		at[u] = tk(tl);
		if (f->args[u].kind == 'E') {
			t = tk_expect_id(tl, "an enum value");
			if (!enum_has(f->args[u].enums, t))
				vcc_error(tl, t, "Wrong enum value.  Expected "
				    "one of: %s (%s is not one of the values "
				    "of %s)", f->args[u].enums, tk_str(tl, t),
				    f->args[u].name);
			vals[u] = e_new(tl, V_ENUM, t, "%s",
			    vcc_cstr(tl, tk_str(tl, t)));
		} else if (f->args[u].t == V_REGEX) {
			vals[u] = parse_regex(tl, 0,
			    cat3(tl, "argument ", f->args[u].name, ""));
		} else if (f->args[u].t == V_HTTP) {
			t = tk_expect_id(tl, "req, bereq, resp or beresp");
			if (vcc_is(t, "req"))
				c = "ctx->http_req";
			else if (vcc_is(t, "bereq"))
				c = "ctx->http_bereq";
			else if (vcc_is(t, "resp"))
				c = "ctx->http_resp";
			else if (vcc_is(t, "beresp"))
				c = "ctx->http_beresp";
			else
				vcc_error(tl, t, "expected req, bereq, resp "
				    "or beresp");
			vals[u] = e_new(tl, V_HTTP, t, "%s", c);
		} else if (f->args[u].t == V_STRING ||
		    f->args[u].t == V_STRANDS)
			vals[u] = parse_expr_string(tl);
		else
			vals[u] = parse_expr(tl);
		if (!vcc_is(tk(tl), ","))
			break;
		tl->pos++;
	}
	tk_expect(tl, ")");
	tmp = P(tl)->ntmps++;
	vbuf_cat(tl, &pv, "");
	vbuf_cat(tl, &pc, "");
	vbuf_printf(tl, &vb, "%s(ctx%s%s", cfn, self != NULL ? ", " : "",
	    self != NULL ? self : "");
	for (u = 0; u < n; u++) {
		const struct vfarg *a = &f->args[u];

		if (a->kind == 'P') {
			c = priv_arg(tl, f->mod, a->def, &lookup);
			if (lookup) {
				/* Looked up first; the call only with it. */
				vbuf_printf(tl, &pv, "%svgc_p%u_%u = %s",
				    pv.len > 0 ? ", *" : "struct vmod_priv *",
				    tmp, u, c);
				vbuf_printf(tl, &pc, "%svgc_p%u_%u == NULL",
				    pc.len > 0 ? " || " : "", tmp, u);
				vbuf_printf(tl, &vb, ", vgc_p%u_%u", tmp, u);
			} else
				vbuf_printf(tl, &vb, ", %s", c);
			continue;
		}
		if (vals[u] == NULL && a->kind == 'A')
			vcc_error(tl, t0, "%s() needs its argument %s (%s)",
			    what, a->name, vtype_name[a->t]);
		if (a->kind == 'O')
			vbuf_printf(tl, &vb, ", %d", vals[u] != NULL);
		if (vals[u] == NULL) {
			d = a->def;
			if (a->kind == 'O')
				c = a->t == V_STRING || a->t == V_IP ||
				    a->t == V_BACKEND ? "NULL" : "0";
			else if (a->t == V_STRING && d[0] == '"')
				c = vcc_cstr(tl, vcc_strndup(tl, d + 1,
				    strlen(d) - 2));
			else if (a->t == V_BOOL)
				c = !strcmp(d, "true") ? "1" : "0";
			else if (a->kind == 'E')
				c = vcc_cstr(tl, d);
			else
				c = d;
		} else if (a->t == V_HEADER) {
			if (vals[u]->hdr == NULL)
				vcc_error(tl, at[u], "argument %s must be a "
				    "header, like req.http.Cookie", a->name);
			c = vals[u]->hdr;
		} else if (a->t == V_HTTP || a->kind == 'E')
			c = vals[u]->c;
		else
			c = e_convert(tl, vals[u], a->t,
			    cat3(tl, "argument ", a->name, ""));
		vbuf_printf(tl, &vb, ", %s", c);
	}
	vbuf_cat(tl, &vb, ")");
	if (pv.len > 0)
		e = e_new(tl, f->ret, t0, "__extension__ ({ %s; (%s) ? "
		    "(VCL_%s)0 : %s; })", pv.s, pc.s, vtype_name[f->ret], vb.s);
	else
		e = e_new(tl, f->ret, t0, "%s", vb.s);
	return (e);
}

static struct expr *
parse_regsub(struct vcc *tl, int all, const struct token *t0)
{
	struct expr *s, *w, *r;
	const char *pat, *re, *subj;

	tk_expect(tl, "(");
	s = parse_expr(tl);
	subj = e_string1(tl, s);
	tk_expect(tl, ",");
	r = parse_regex(tl, 0, all ? "regsuball()" : "regsub()");
	pat = r->lit;
	re = r->c;
	tk_expect(tl, ",");
	w = parse_expr(tl);
	tk_expect(tl, ")");
	if (s->subj != NULL && pat != NULL)
		return (e_new(tl, V_STRING, t0, "%s", OPT_Regsub(tl, s->subj,
		    pat, re, all, e_string1(tl, w))));
	return (e_new(tl, V_STRING, t0, "VRT_regsub(ctx, %d, %s, %s, %s)",
	    all, subj, re, e_string1(tl, w)));
}

/*
 * Row i of the functions then the classes (a module may have only
 * objects, as dynamic does): its module's name.
 */
static const char *
mod_row(unsigned i)
{

	if (i < NFUNCS)
		return (vcc_funcs[i].mod);
	return (vcc_classes[i - NFUNCS].init.mod);
}

#define NMODROWS	(NFUNCS + vcc_nclasses)

/*
 * The modules are the distinct module names of vcc_funcs and
 * vcc_classes, numbered in the order of their first row: module k is
 * imported when bit k of P(tl)->imported is set.  -1: no such module.
 */
int
mod_bit(const char *name, size_t len)
{
	unsigned u, v;
	int k = 0;

	for (u = 0; u < NMODROWS; u++) {
		for (v = 0; v < u; v++)
			if (!strcmp(mod_row(v), mod_row(u)))
				break;
		if (v < u)
			continue;
		if (strlen(mod_row(u)) == len &&
		    !memcmp(mod_row(u), name, len))
			return (k);
		k++;
	}
	return (-1);
}

/* "std, purge, veneer": the modules there are, for error messages. */
const char *
mod_list(char *buf, size_t size)
{
	size_t l = 0;
	unsigned u;
	int k = 0;

	buf[0] = '\0';
	for (u = 0; u < NMODROWS && l < size; u++) {
		/* The first row of the next module. */
		if (mod_bit(mod_row(u), strlen(mod_row(u))) != k)
			continue;
		l += (size_t)snprintf(buf + l, size - l, "%s%s",
		    k++ > 0 ? ", " : "", mod_row(u));
	}
	return (buf);
}

static const struct vfunc *
func_find(struct vcc *tl, const struct token *t)
{
	size_t len = (size_t)(t->e - t->b);
	char buf[128];
	unsigned u;

	for (u = 0; u < NFUNCS; u++) {
		(void)snprintf(buf, sizeof buf, "%s.%s", vcc_funcs[u].mod,
		    vcc_funcs[u].name);
		if (strlen(buf) == len && !memcmp(buf, t->b, len)) {
			if (!(P(tl)->imported & (1U << mod_bit(
			    vcc_funcs[u].mod, strlen(vcc_funcs[u].mod)))))
				vcc_error(tl, t, "%s() needs `import %s;` at "
				    "the top of the file", buf,
				    vcc_funcs[u].mod);
			return (&vcc_funcs[u]);
		}
	}
	return (NULL);
}

/*
 * NAME.method: the method when NAME is an object (*objp), NULL when
 * NAME is not one; an error when the object's class has no such method.
 */
static const struct vfunc *
method_find(struct vcc *tl, const struct token *t, struct vsym **objp)
{
	const char *dot = NULL, *q;
	const struct vclass *c;
	struct vsym *o;
	size_t ml;
	unsigned u;

	for (q = t->b; q < t->e; q++)
		if (*q == '.')
			dot = q;
	if (dot == NULL)
		return (NULL);
	o = sym_find(P(tl)->objs, t->b, (size_t)(dot - t->b));
	if (o == NULL)
		return (NULL);
	c = o->cls;
	ml = (size_t)(t->e - dot - 1);
	for (u = 0; u < NMETHODS; u++)
		if (!strcmp(vcc_methods[u].mod, c->init.mod) &&
		    !strcmp(vcc_methods[u].cls, c->init.name) &&
		    strlen(vcc_methods[u].name) == ml &&
		    !memcmp(vcc_methods[u].name, dot + 1, ml)) {
			*objp = o;
			o->used = 1;
			return (&vcc_methods[u]);
		}
	vcc_error(tl, t, "object %s (a %s.%s) has no method %s", o->name,
	    c->init.mod, c->init.name, vcc_strndup(tl, dot + 1, ml));
}

/*
 * mod.class.method(): a class's method called without an object, which
 * Varnish calls a syntax error.  Fails tl when t is that.
 */
void
class_call_check(struct vcc *tl, const struct token *t)
{
	const struct vclass *c;
	const char *dot = NULL, *q;
	struct token ct;

	for (q = t->b; q < t->e; q++)
		if (*q == '.')
			dot = q;
	if (dot == NULL)
		return;
	ct = *t;
	ct.e = dot;
	c = class_find(&ct);
	if (c != NULL)
		vcc_error(tl, t, "Syntax error: %s() is a method of the class "
		    "%s.%s: call it on an object (new x = %s.%s(...); in "
		    "vcl_init, then x.%.*s())", tk_str(tl, t), c->init.mod,
		    c->init.name, c->init.mod, c->init.name,
		    (int)(t->e - dot - 1), dot + 1);
}

/* The call of a function or method named by t, before its '('. */
struct expr *
parse_fcall(struct vcc *tl, const struct token *t)
{
	const struct vfunc *f;
	struct vsym *o;
	struct expr *e;
	char cfn[160], self[32];

	f = method_find(tl, t, &o);
	if (f != NULL) {
		(void)snprintf(cfn, sizeof cfn, "vmod_%s_%s_%s", f->mod,
		    f->cls, f->name);
		(void)snprintf(self, sizeof self, "vgc_obj_%u", o->idx);
		e = parse_call(tl, f, t, tk_str(tl, t), cfn, self);
		/*
		 * vcl_init may call it before its new: the module must
		 * never see a NULL object, the VCL fails instead.
		 */
		e->c = cat3(tl, "(", self, cat3(tl, " == NULL ? (VRT_fail(ctx, "
		    "\"Object ", o->name, cat3(tl, " used before it is made\"),"
		    " (VCL_", vtype_name[e->t], cat3(tl, ")0) : ", e->c,
		    ")"))));
		if (e->pcs != NULL && e->npcs == 1)
			e->pcs[0] = e->c;
		return (e);
	}
	f = func_find(tl, t);
	if (f == NULL)
		return (NULL);
	(void)snprintf(cfn, sizeof cfn, "vmod_%s_%s", f->mod, f->name);
	return (parse_call(tl, f, t, tk_str(tl, t), cfn, NULL));
}

static struct expr *parse_name(struct vcc *tl, const struct token *t);

/* Is the text from b to e the word w? */
static int
part_is(const char *b, const char *e, const char *w)
{

	return ((size_t)(e - b) == strlen(w) && !memcmp(b, w, strlen(w)));
}

/* Is m (from b to e) one of the methods of VCL's types? */
static int
tmethod_is(const char *b, const char *e)
{

	return (part_is(b, e, "resolve") || part_is(b, e, "upper") ||
	    part_is(b, e, "lower"));
}

/*
 * e.m(), the methods VCL's types have, as in Varnish: BACKEND.resolve()
 * (the backend a director picks now, or no backend), STRING.upper() and
 * .lower().  m runs from b to e (a tmethod_is() name); at "(".
 */
static struct expr *
tmethod_apply(struct vcc *tl, const struct token *t, struct expr *e,
    const char *b, const char *end)
{

	tk_expect(tl, "(");
	tk_expect(tl, ")");
	if (part_is(b, end, "resolve")) {
		if (e->t != V_BACKEND)
			vcc_error(tl, t, "%s has no method resolve(): only a "
			    "BACKEND has", vtype_a[e->t]);
		return (e_new(tl, V_BACKEND, t, "VRT_DirectorResolve(ctx, "
		    "%s)", e->c));
	}
	return (e_new(tl, V_STRING, t, "VRT_UpperLowerStrands(ctx, %s, %d)",
	    e_strands(tl, e), part_is(b, end, "upper")));
}

/*
 * NAME.m() where NAME is not an object and m is a type's method: NAME
 * read as a value, then the method.  NULL when it is not that.
 */
static struct expr *
parse_tmethod(struct vcc *tl, const struct token *t)
{
	const char *dot = NULL, *q;
	struct token *sub;

	for (q = t->b; q < t->e; q++)
		if (*q == '.')
			dot = q;
	if (dot == NULL || dot == t->b || !tmethod_is(dot + 1, t->e))
		return (NULL);
	sub = vcc_alloc(tl, sizeof *sub);
	*sub = *t;
	sub->e = dot;
	return (tmethod_apply(tl, t, parse_name(tl, sub), dot + 1, t->e));
}

/* Any .m() after a value: f(x).resolve(), (a + b).upper(). */
static struct expr *
parse_tmethods(struct vcc *tl, struct expr *e)
{
	const struct token *m;

	while (vcc_is(tk(tl), ".") && tk_peek(tl, 1)->tok == T_ID &&
	    vcc_is(tk_peek(tl, 2), "(")) {
		m = tk_peek(tl, 1);
		if (!tmethod_is(m->b, m->e))
			vcc_error(tl, m, "%s has no method %s()",
			    vtype_a[e->t], tk_str(tl, m));
		tl->pos += 2;
		e = tmethod_apply(tl, m, e, m->b, m->e);
	}
	return (e);
}

static struct expr *
parse_var(struct vcc *tl, const struct token *t)
{
	struct expr *e;
	char *name;

	name = tk_str(tl, t);
	if (vcc_is(t, "true") || vcc_is(t, "false")) {
		e = e_new(tl, V_BOOL, t, "%d", vcc_is(t, "true"));
		e->constant = 1;
		e->isnum = 1;
		e->num = vcc_is(t, "true");
		return (e);
	}
	if ((vcc_is(t, "regsub") || vcc_is(t, "regsuball")) &&
	    vcc_is(tk(tl), "("))
		return (parse_regsub(tl, vcc_is(t, "regsuball"), t));
	if (vcc_is(tk(tl), "(")) {
		e = parse_fcall(tl, t);
		if (e == NULL)
			e = parse_tmethod(tl, t);
		if (e == NULL)
			class_call_check(tl, t);
		if (e == NULL)
			vcc_error(tl, t, "Symbol not found: '%s': unknown "
			    "function %s()", name, name);
		if (e->t == V_VOID)
			vcc_error(tl, t, "Function returns VOID: %s() "
			    "returns nothing; call it as a statement", name);
		return (e);
	}
	return (parse_name(tl, t));
}

/*
 * A name that is not a call: a header, a variable, a storage property,
 * a backend, probe or ACL.
 */
static struct expr *
parse_name(struct vcc *tl, const struct token *t)
{
	const struct vhdrp *h;
	const struct vvar *v;
	struct vsym *s;
	struct expr *e;
	const char *hn, *ref, *what, *dot;
	size_t hl;
	char *name;

	name = tk_str(tl, t);
	h = hdr_match(t, &hn, &hl);
	if (h != NULL)
		hdr_name_check(tl, t, hn, hl);
	if (h != NULL) {
		what = vcc_strndup(tl, t->b, (size_t)(t->e - t->b));
		sub_check(tl, t, CK_READ, h->rd, what);
		hn = vcc_strndup(tl, hn, hl);
		ref = hdr_ref(tl, h->where, hn);
		e = e_new(tl, V_STRING, t, "VRT_GetHdr(ctx, %s)", ref);
		e->hdr = ref;
		e->subj = OPT_SubjHdr(tl, h->where, hn, e->c);
		if (e->subj != NULL)
			e->c = e->pcs[0] = OPT_Read(tl, e->subj);
		return (e);
	}
	v = var_find(t);
	if (v != NULL) {
		var_flags(tl, t, v);
		if (v->rd == VM_NONE)
			vcc_error(tl, t, "%s cannot be read", v->name);
		sub_check(tl, t, CK_READ, v->rd, v->name);
		e = e_new(tl, v->t, t, "VRT_r_%s(ctx)", v->cname);
		if (v->t == V_STRING)
			e->subj = OPT_SubjVar(tl, v->name, e->c);
		if (e->subj != NULL)
			e->c = e->pcs[0] = OPT_Read(tl, e->subj);
		return (e);
	}
	if (!strncmp(name, "storage.", 8)) {
		dot = strrchr(name, '.');
		/* storage.NAME: a store, for beresp.storage. */
		if (dot == name + 7 && name[8] != '\0')
			return (e_new(tl, V_STRING, t, "%s",
			    vcc_cstr(tl, name)));

		if (dot > name + 8) {
			hn = vcc_strndup(tl, name + 8,
			    (size_t)(dot - name - 8));
			if (!strcmp(dot, ".free_space"))
				return (e_new(tl, V_BYTES, t,
				    "VRT_storage_free_space(ctx, %s)",
				    vcc_cstr(tl, hn)));
			if (!strcmp(dot, ".used_space"))
				return (e_new(tl, V_BYTES, t,
				    "VRT_storage_used_space(ctx, %s)",
				    vcc_cstr(tl, hn)));
			if (!strcmp(dot, ".happy"))
				return (e_new(tl, V_BOOL, t,
				    "VRT_storage_happy(ctx, %s)",
				    vcc_cstr(tl, hn)));
		}
		vcc_error(tl, t, "unknown storage variable %s; a store has "
		    "free_space, used_space and happy", name);
	}
	s = sym_find_t(P(tl)->backends, t);
	if (s != NULL) {
		s->used = 1;
		return (e_new(tl, V_BACKEND, t, "vgc_be_%u", s->idx));
	}
	s = sym_find_t(P(tl)->probes, t);
	if (s != NULL) {
		/* For a module's PROBE argument; it may be defined below. */
		s->used = 1;
		vbuf_printf(tl, &P(tl)->decl, "static const struct "
		    "vrt_backend_probe vgc_probe_%u;\n", s->idx);
		return (e_new(tl, V_PROBE, t, "(&vgc_probe_%u)", s->idx));
	}
	s = sym_find_t(P(tl)->acls, t);
	if (s != NULL) {
		/* As a value an ACL is its name, as in Varnish. */
		s->used = 1;
		e = e_new(tl, V_STRING, t, "%s", vcc_cstr(tl, s->name));
		e->constant = 1;
		e->lit = s->name;
		return (e);
	}
	hn = var_suggest(tl, name);
	/* req.foo: Varnish reads it as a property of the HTTP req. */
	dot = strchr(name, '.');
	if (dot != NULL && strchr(dot + 1, '.') == NULL &&
	    (!strncmp(name, "req.", 4) || !strncmp(name, "bereq.", 6) ||
	    !strncmp(name, "resp.", 5) || !strncmp(name, "beresp.", 7) ||
	    !strncmp(name, "obj.", 4) || !strncmp(name, "req_top.", 8)))
		vcc_error(tl, t, "Unknown property '%s' for type HTTP: no "
		    "variable %s%s%s%s", dot + 1, name,
		    *hn ? "; did you mean " : "", hn, *hn ? "?" : "");
	if (sub_find(tl, t) != NULL)
		vcc_error(tl, t, "Symbol '%s' can only be used as a SUB "
		    "expression: call it with `call %s;`", name, name);
	if (!strcmp(name, "default"))
		vcc_error(tl, t, "Symbol 'default' is a reserved word. It "
		    "names the default backend, and this VCL has none so "
		    "named");
	if (!strcmp(name, "acl") || !strcmp(name, "sub") ||
	    !strcmp(name, "backend") || !strcmp(name, "probe"))
		vcc_error(tl, t, "Symbol '%s' type (reserved) can not be used "
		    "in expression.", name);
	if (!strcmp(name, "req") || !strcmp(name, "bereq") ||
	    !strcmp(name, "resp") || !strcmp(name, "beresp") ||
	    !strcmp(name, "obj") || !strcmp(name, "req_top"))
		vcc_error(tl, t, "Cannot convert HTTP to %s: %s is a whole "
		    "message; name one of its fields (%s.http.NAME)",
		    P(tl)->want_string ? "STRING" : "a value", name, name);
	if (P(tl)->want_type == V_BACKEND)
		vcc_error(tl, t, "Undefined backend %s, first reference: (no "
		    "backend or director has that name%s%s%s)", name,
		    *hn ? "; did you mean " : "", hn, *hn ? "?" : "");
	vcc_error(tl, t, "Symbol not found: '%s' (no variable, backend or "
	    "acl has that name%s%s%s)", name,
	    *hn ? "; did you mean " : "", hn, *hn ? "?" : "");
}

static double
unit_factor(const struct token *u, enum vtype *tp)
{
	static const struct { const char *n; double f; enum vtype t; } us[] = {
		{ "ms", 1e-3, V_DURATION }, { "s", 1, V_DURATION },
		{ "m", 60, V_DURATION }, { "h", 3600, V_DURATION },
		{ "d", 86400, V_DURATION }, { "w", 604800, V_DURATION },
		{ "y", 31536000, V_DURATION },
		{ "B", 1, V_BYTES }, { "KB", 1024., V_BYTES },
		{ "MB", 1048576., V_BYTES }, { "GB", 1073741824., V_BYTES },
		{ "TB", 1099511627776., V_BYTES },
		/*
		 * Varnish reads a size's unit in any case; the lower-case
		 * ones that cannot be a duration's (m is minutes) too.
		 */
		{ "b", 1, V_BYTES }, { "kb", 1024., V_BYTES },
		{ "mb", 1048576., V_BYTES }, { "gb", 1073741824., V_BYTES },
		{ "tb", 1099511627776., V_BYTES },
	};
	unsigned i;

	if (u->tok != T_ID)
		return (0);
	for (i = 0; i < sizeof us / sizeof us[0]; i++)
		if (vcc_is(u, us[i].n)) {
			*tp = us[i].t;
			return (us[i].f);
		}
	return (0);
}

struct expr *
parse_prim(struct vcc *tl)
{
	const struct token *t = tk(tl), *lt;
	struct expr *e;
	enum vtype ut = V_VOID;
	double f;

	if (vcc_is(t, "(")) {
		tl->pos++;
		e = parse_expr(tl);
		tk_expect(tl, ")");
		return (parse_tmethods(tl, e));
	}
	if (t->tok == T_STR) {
		const char *s = parse_lit(tl, &lt);

		e = e_new(tl, V_STRING, t, "%s", vcc_cstr(tl, s));
		e->constant = 1;
		e->lit = s;
		return (e);
	}
	if (t->tok == T_NUM) {
		tl->pos++;
		if (t->num >= 9.2e18)
			vcc_error(tl, t, "number too large");
		f = unit_factor(tk(tl), &ut);
		if (f > 0) {
			tl->pos++;
			if (ut == V_BYTES && t->num * f >= 9.2e18)
				vcc_error(tl, t, "size too large");
			if (ut == V_BYTES)
				e = e_new(tl, V_BYTES, t, "((VCL_BYTES)%.0f)",
				    t->num * f);
			else
				e = e_new(tl, V_DURATION, t,
				    "((VCL_DURATION)%.17g)", t->num * f);
			e->num = t->num * f;
		} else if (tk(tl)->tok == T_ID && tk(tl)->b == t->e)
			vcc_error(tl, tk(tl), "unknown unit '%s'; durations "
			    "take ms s m h d w y, bytes B KB MB GB TB",
			    tk_desc(tl, tk(tl)));
		else if (t->is_real)
			e = e_new(tl, V_REAL, t, "((VCL_REAL)%.17g)", t->num);
		else
			e = e_new(tl, V_INT, t, "((VCL_INT)%.0f)", t->num);
		if (f <= 0)
			e->num = t->num;
		e->isnum = ut != V_BYTES || f <= 0;
		e->constant = 1;
		return (e);
	}
	if (t->tok == T_ID) {
		tl->pos++;
		return (parse_tmethods(tl, parse_var(tl, t)));
	}
	vcc_error(tl, t, "Unknown token '%s' when looking for %s: expected a "
	    "value (a string, a number, a variable or a function call)",
	    tk_desc(tl, t), P(tl)->want_type != V_VOID ?
	    vtype_name[P(tl)->want_type] : "a value");
}

void
nest_in(struct vcc *tl, const struct token *t)
{

	if (++P(tl)->nest > VCC_MAX_NEST)
		vcc_error(tl, t, "nested more than %u deep", VCC_MAX_NEST);
}

static struct expr *
parse_unary(struct vcc *tl)
{
	const struct token *t = tk(tl);
	struct expr *e, *f;

	if (vcc_is(t, "-")) {
		tl->pos++;
		nest_in(tl, t);
		e = parse_unary(tl);
		P(tl)->nest--;
		if (!is_num(e->t) || e->t == V_TIME)
			vcc_error(tl, t, "cannot negate %s",
			    vtype_a[e->t]);
		f = FOLD_Neg(tl, e, t);
		if (f != NULL)
			return (f);
		return (e_new(tl, e->t, t, "(-%s)", e->c));
	}
	return (parse_prim(tl));
}

static struct expr *vcc_int_divide(struct vcc *, const struct token *,
    const struct expr *, const struct expr *, enum vtype);

static struct expr *
parse_mul(struct vcc *tl)
{
	struct expr *a, *b, *e;
	const struct token *op;
	enum vtype rt;

	a = parse_unary(tl);
	while (vcc_is(tk(tl), "*") || vcc_is(tk(tl), "/") ||
	    vcc_is(tk(tl), "%")) {
		op = tk_next(tl);
		if (vcc_is(op, "%") && a->t != V_INT)
			vcc_error(tl, op, "Operator %% only possible on INT, "
			    "not on %s", vtype_a[a->t]);
		b = parse_unary(tl);
		if (vcc_is(op, "%")) {
			if (b->t != V_INT)
				vcc_error(tl, op, "Operator %% only possible "
				    "on INT, not on %s", vtype_a[b->t]);
			if (b->constant && !strcmp(b->c, "((VCL_INT)0)"))
				vcc_error(tl, op, "division by zero");
			e = FOLD_Arith(tl, a, b, op, V_INT);
			a = e != NULL ? e : vcc_int_divide(tl, op, a, b, V_INT);
			continue;
		}
		if (a->t == V_INT && b->t == V_INT)
			rt = V_INT;
		else if ((a->t == V_INT || a->t == V_REAL) &&
		    (b->t == V_INT || b->t == V_REAL))
			rt = V_REAL;
		else if ((a->t == V_DURATION || a->t == V_BYTES) &&
		    (b->t == V_INT || b->t == V_REAL))
			rt = a->t;
		else if (vcc_is(op, "*") && (a->t == V_INT ||
		    a->t == V_REAL) && (b->t == V_DURATION ||
		    b->t == V_BYTES))
			rt = b->t;
		else if (a->t == V_STRING || a->t == V_BOOL ||
		    a->t == V_IP || a->t == V_BACKEND || a->t == V_TIME)
			vcc_error(tl, op, "Operator %c not possible on type "
			    "%s. VCL cannot %s %s and %s", *op->b,
			    vtype_name[a->t], vcc_is(op, "*") ? "multiply" :
			    "divide", vtype_a[a->t], vtype_a[b->t]);
		else
			vcc_error(tl, op, "%s %c %s not possible. VCL "
			    "cannot %s %s and %s", vtype_name[a->t], *op->b,
			    vtype_name[b->t], vcc_is(op, "*") ? "multiply" :
			    "divide", vtype_a[a->t], vtype_a[b->t]);
		if (vcc_is(op, "/") && b->constant && !strcmp(b->c,
		    "((VCL_INT)0)"))
			vcc_error(tl, op, "division by zero");
		e = FOLD_Arith(tl, a, b, op, rt);
		if (e == NULL && vcc_is(op, "/") && (a->t == V_INT ||
		    a->t == V_BYTES) && b->t == V_INT)
			e = vcc_int_divide(tl, op, a, b, rt);
		a = e != NULL ? e : e_new(tl, rt, op, "(%s %c %s)", a->c,
		    *op->b, b->c);
	}
	return (a);
}

/*
 * Integer / and % at run time: by 0 (and the one overflow, the most
 * negative number by -1) a CPU traps, which would kill the child.  The
 * task fails instead, as in Varnish; each operand is evaluated once.
 */
static struct expr *
vcc_int_divide(struct vcc *tl, const struct token *op, const struct expr *a,
    const struct expr *b, enum vtype rt)
{
	int mod = vcc_is(op, "%");

	return (e_new(tl, rt, op, "({ VCL_INT vgc_n_ = (VCL_INT)(%s), "
	    "vgc_d_ = (VCL_INT)(%s); vgc_d_ == 0 ? (VRT_fail(ctx, "
	    "\"Division by zero in %s\"), (VCL_INT)0) : vgc_d_ == -1 ? "
	    "(VCL_INT)(%s) : vgc_n_ %s vgc_d_; })", a->c, b->c,
	    mod ? "%%" : "/", mod ? "(VCL_INT)0" :
	    "(0ULL - (unsigned long long)vgc_n_)", mod ? "%" : "/"));
}

/* Whether a op b is arithmetic (not string joining). */
static int
addable(enum vtype a, enum vtype b, char op)
{

	if ((a == V_INT || a == V_REAL) && (b == V_INT || b == V_REAL))
		return (1);
	if (a == b && (a == V_DURATION || a == V_BYTES))
		return (1);
	if (a == V_TIME && b == V_DURATION)
		return (1);
	return (a == V_TIME && b == V_TIME && op == '-');
}

static struct expr *
parse_add(struct vcc *tl)
{
	struct expr *a, *b, *e;
	const struct token *op;
	enum vtype rt;

	a = parse_mul(tl);
	while (vcc_is(tk(tl), "+") || vcc_is(tk(tl), "-") ||
	    (a->t == V_STRING && tk(tl)->tok == T_STR)) {
		if (tk(tl)->tok == T_STR)
			op = tk(tl);
		else
			op = tk_next(tl);
		b = parse_mul(tl);
		if ((a->t == V_STRING || (P(tl)->want_string &&
		    !addable(a->t, b->t, *op->b))) && *op->b != '-') {
			a = e_tostring(tl, a);
			b = e_tostring(tl, b);
			e = vcc_alloc(tl, sizeof *e);
			*e = *a;
			e->hdr = NULL;
			e->subj = NULL;
			e->pcs = vcc_alloc(tl, sizeof *e->pcs *
			    (a->npcs + b->npcs + 1));
			FOLD_Concat(tl, e, a, b);
			a = e;
			continue;
		}
		if (a->t == V_INT && b->t == V_INT)
			rt = V_INT;
		else if ((a->t == V_INT || a->t == V_REAL) &&
		    (b->t == V_INT || b->t == V_REAL))
			rt = V_REAL;
		else if (a->t == b->t && (a->t == V_DURATION ||
		    a->t == V_BYTES))
			rt = a->t;
		else if (a->t == V_TIME && b->t == V_DURATION)
			rt = V_TIME;
		else if (a->t == V_TIME && b->t == V_TIME && *op->b == '-')
			rt = V_DURATION;
		else
			vcc_error(tl, op, "%s %c %s not possible. VCL "
			    "cannot %s %s and %s", vtype_name[a->t], *op->b,
			    vtype_name[b->t], *op->b == '+' ? "add" :
			    "subtract", vtype_a[a->t], vtype_a[b->t]);
		e = FOLD_Arith(tl, a, b, op, rt);
		if (e == NULL && vcc_is(op, "/") && (a->t == V_INT ||
		    a->t == V_BYTES) && b->t == V_INT)
			e = vcc_int_divide(tl, op, a, b, rt);
		a = e != NULL ? e : e_new(tl, rt, op, "(%s %c %s)", a->c,
		    *op->b, b->c);
	}
	return (a);
}

/* What may not name an acl after ~, in Varnish's words. */
static void
acl_name_check(struct vcc *tl, const struct token *t)
{

	if (t->tok == T_ID && (vcc_is(t, "true") || vcc_is(t, "false")))
		vcc_error(tl, t, "Expression has type BOOL, expected ACL: "
		    "~ takes the name of an acl");
	if (t->tok == T_ID && vcc_is(t, "acl"))
		vcc_error(tl, t, "Symbol 'acl' type (reserved) can not be "
		    "used in expression. ~ takes the name of an acl");
	if (t->tok == T_ID && vcc_is(t, "default") &&
	    sym_find_t(P(tl)->acls, t) == NULL)
		vcc_error(tl, t, "Symbol 'default' is a reserved word. Name "
		    "default must have type 'acl'. It names the default "
		    "backend");
	if (t->tok == T_ID && t->e - t->b > 4 && !strncmp(t->b, "vcl_", 4))
		vcc_error(tl, t, "Symbols named 'vcl_*' are reserved. ~ takes "
		    "the name of an acl");
	if (t->tok != T_ID)
		vcc_error(tl, t, "Expected the name of an acl, found '%s'",
		    tk_desc(tl, t));
}

static struct expr *
parse_cmp(struct vcc *tl)
{
	struct expr *a, *b, *eb;
	const struct token *op, *rt;
	const char *cop, *re, *pat;
	struct vsym *acl;
	enum vtype wt;
	unsigned saved;
	int neg;

	a = parse_add(tl);
	op = tk(tl);
	if (vcc_is(op, "~") || vcc_is(op, "!~")) {
		tl->pos++;
		neg = vcc_is(op, "!~");
		if (a->t == V_IP) {
			rt = tk(tl);
			acl_name_check(tl, rt);
			tl->pos++;
			acl = sym_find_t(P(tl)->acls, rt);
			if (acl == NULL && (sym_find_t(P(tl)->backends,
			    rt) != NULL || sym_find_t(P(tl)->probes, rt) !=
			    NULL || sub_find(tl, rt) != NULL))
				/* Varnish's words, as its order of checks
				   has them: the name is used as an acl. */
				vcc_error(tl, rt, "Symbol '%s' has wrong type "
				    "(acl), expected %s: Name %s must have "
				    "type 'acl'. It names a %s, and no acl "
				    "is named %s", tk_str(tl, rt),
				    sub_find(tl, rt) != NULL ? "sub" :
				    sym_find_t(P(tl)->probes, rt) != NULL ?
				    "probe" : "backend", tk_str(tl, rt),
				    sub_find(tl, rt) != NULL ? "sub" :
				    sym_find_t(P(tl)->probes, rt) != NULL ?
				    "probe" : "backend", tk_str(tl, rt));
			if (acl == NULL)
				vcc_error(tl, rt, "no acl named %s",
				    tk_str(tl, rt));
			acl->used = 1;
			return (e_new(tl, V_BOOL, op,
			    "(%sVRT_acl_match(ctx, vgc_acl_%u, %s))",
			    neg ? "!" : "", acl->idx, a->c));
		}
		if (a->t != V_STRING)
			vcc_error(tl, op, "~ matches a STRING against a "
			    "regular expression or an IP against an acl, "
			    "not %s", vtype_a[a->t]);
		if (tk(tl)->tok != T_STR) {
			/* A REGEX value: nothing to fold or optimise. */
			eb = parse_regex(tl, 1, "~");
			return (e_new(tl, V_BOOL, op,
			    "(%sVRT_re_match(ctx, %s, %s))", neg ? "!" : "",
			    e_string1(tl, a), eb->c));
		}
		pat = parse_regex_lit(tl, &rt);
		eb = FOLD_Match(tl, a, pat, neg, op);
		if (eb != NULL)
			return (eb);
		re = regex_ref(tl, rt, pat, 1);
		if (a->subj != NULL)
			return (e_new(tl, V_BOOL, op, "%s", OPT_Match(tl,
			    a->subj, pat, re, neg)));
		return (e_new(tl, V_BOOL, op, "(%sVRT_re_match(ctx, %s, %s))",
		    neg ? "!" : "", e_string1(tl, a), re));
	}
	if (!(vcc_is(op, "==") || vcc_is(op, "!=") || vcc_is(op, "<") ||
	    vcc_is(op, ">") || vcc_is(op, "<=") || vcc_is(op, ">=")))
		return (a);
	tl->pos++;
	cop = tk_str(tl, op);
	/* The right side is joined as text only against a string. */
	saved = P(tl)->want_string;
	P(tl)->want_string = a->t == V_STRING;
	wt = P(tl)->want_type;
	P(tl)->want_type = a->t;	/* for the right side's errors */
	b = parse_add(tl);
	P(tl)->want_type = wt;
	P(tl)->want_string = saved;
	/* Only strings and numbers have an order. */
	if (!vcc_is(op, "==") && !vcc_is(op, "!=") && a->t != V_STRING &&
	    !is_num(a->t))
		vcc_error(tl, op, "Operator %s not possible on %s: cannot "
		    "compare %s with %s; only == and != work", cop,
		    vtype_name[a->t], vtype_a[a->t], cop);
	eb = FOLD_Cmp(tl, a, b, op, cop);
	if (eb != NULL)
		return (eb);
	if (a->t == V_STRING || b->t == V_STRING) {
		if (a->t != b->t)
			vcc_error(tl, op, "Comparison of different types: "
			    "%s '%s' %s; cannot compare %s with %s",
			    vtype_name[a->t], cop, vtype_name[b->t],
			    vtype_a[a->t], vtype_a[b->t]);
		if ((vcc_is(op, "==") || vcc_is(op, "!=")) &&
		    b->subj != NULL && a->lit != NULL) {
			eb = a;
			a = b;
			b = eb;
		}
		if ((vcc_is(op, "==") || vcc_is(op, "!=")) &&
		    a->subj != NULL && b->lit != NULL && b->constant)
			return (e_new(tl, V_BOOL, op, "%s", OPT_Eq(tl,
			    a->subj, b->lit, vcc_is(op, "!="))));
		return (e_new(tl, V_BOOL, op, "(VRT_strcmp(%s, %s) %s 0)",
		    e_string1(tl, a), e_string1(tl, b), cop));
	}
	if (is_num(a->t) && is_num(b->t) && (a->t == b->t ||
	    ((a->t == V_INT || a->t == V_REAL) &&
	    (b->t == V_INT || b->t == V_REAL))))
		return (e_new(tl, V_BOOL, op, "(%s %s %s)", a->c, cop, b->c));
	if (a->t == b->t && (a->t == V_BOOL || a->t == V_BACKEND) &&
	    (vcc_is(op, "==") || vcc_is(op, "!=")))
		return (e_new(tl, V_BOOL, op, "(%s %s %s)", a->c, cop, b->c));
	/* Two IPs are equal when their addresses are; ports do not count. */
	if (a->t == V_IP && b->t == V_IP &&
	    (vcc_is(op, "==") || vcc_is(op, "!=")))
		return (e_new(tl, V_BOOL, op, "(VRT_strcmp(VRT_IP_string(ctx, "
		    "%s), VRT_IP_string(ctx, %s)) %s 0)", a->c, b->c, cop));
	unit_check(tl, b, a->t);
	if (a->t != b->t)
		vcc_error(tl, op, "Comparison of different types: %s '%s' %s; "
		    "cannot compare %s with %s", vtype_name[a->t], cop,
		    vtype_name[b->t], vtype_a[a->t], vtype_a[b->t]);
	vcc_error(tl, op, "cannot compare %s with %s using %s",
	    vtype_a[a->t], vtype_a[b->t], cop);
}

/* ! binds looser than ~ and ==: `!client.ip ~ acl` negates the match. */
/*
 * An operand of ! && ||: a BOOL, or what Varnish turns into one (INT,
 * DURATION, STRING, BACKEND); a REAL is never compared with 0 silently.
 * "preceeded" is Varnish's spelling, which scripts grep for.
 */
static void
bool_operand(struct vcc *tl, const struct token *op, const struct expr *e,
    const char *how)
{

	if (e->t == V_BOOL || e->t == V_INT || e->t == V_DURATION ||
	    e->t == V_STRING || e->t == V_BACKEND)
		return;
	vcc_error(tl, op, "'%s' must be %s by BOOL, found %s. Compare it "
	    "(x > 0) to make one", tk_str(tl, op), how, vtype_name[e->t]);
}

static struct expr *
parse_not(struct vcc *tl)
{
	const struct token *t = tk(tl);
	struct expr *e, *f;

	if (!vcc_is(t, "!"))
		return (parse_cmp(tl));
	tl->pos++;
	nest_in(tl, t);
	e = parse_not(tl);
	P(tl)->nest--;
	bool_operand(tl, t, e, "followed");
	f = FOLD_Not(tl, e, t);
	if (f != NULL)
		return (f);
	return (e_new(tl, V_BOOL, t, "(!%s)", e_bool(tl, e)));
}

static struct expr *
parse_and(struct vcc *tl)
{
	struct expr *a, *b, *e;
	const struct token *op;

	a = parse_not(tl);
	while (vcc_is(tk(tl), "&&")) {
		op = tk_next(tl);
		bool_operand(tl, op, a, "preceeded");
		b = parse_not(tl);
		bool_operand(tl, op, b, "followed");
		if (b->t != V_BOOL)
			b = e_new(tl, V_BOOL, b->t0, "%s", e_bool(tl, b));
		e = FOLD_Logic(tl, a, b, 1, op);
		a = e != NULL ? e : e_new(tl, V_BOOL, op, "(%s &&\n\t    %s)",
		    e_bool(tl, a), e_bool(tl, b));
	}
	return (a);
}

/*
 * An expression whose value becomes a STRING (a header, a STRING
 * variable or argument, a reason): there, as in Varnish, + joins the
 * text of what cannot be added (1 + 1s is "11.000").
 */
struct expr *
parse_expr_string(struct vcc *tl)
{
	struct expr *e;
	unsigned saved = P(tl)->want_string;
	enum vtype saved_type = P(tl)->want_type;

	P(tl)->want_string = 1;
	P(tl)->want_type = V_STRING;
	e = parse_expr(tl);
	P(tl)->want_string = saved;
	P(tl)->want_type = saved_type;
	return (e);
}

struct expr *
parse_expr(struct vcc *tl)
{
	struct expr *a, *b, *e;
	const struct token *op;

	nest_in(tl, tk(tl));
	a = parse_and(tl);
	while (vcc_is(tk(tl), "||")) {
		op = tk_next(tl);
		bool_operand(tl, op, a, "preceeded");
		b = parse_and(tl);
		bool_operand(tl, op, b, "followed");
		if (b->t != V_BOOL)
			b = e_new(tl, V_BOOL, b->t0, "%s", e_bool(tl, b));
		e = FOLD_Logic(tl, a, b, 0, op);
		a = e != NULL ? e : e_new(tl, V_BOOL, op, "(%s ||\n\t    %s)",
		    e_bool(tl, a), e_bool(tl, b));
	}
	P(tl)->nest--;
	return (a);
}

/* Statements ------------------------------------------------------------*/

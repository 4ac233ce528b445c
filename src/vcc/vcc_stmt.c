/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_stmt.c -- the VCL compiler's statements, subroutines and top
 * level: set, unset, return, new, calls and the other actions emitted
 * as C per subroutine, and the scan that registers every declared name
 * first so that order does not matter.  Expressions are vcc_parse.c's.
 */

#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vcc/vcc_comp.h"
#include "vrt.h"

static void parse_block(struct vcc *tl, struct vbuf *out, unsigned ind);

static void
emit(struct vcc *tl, struct vbuf *out, unsigned ind, const char *fmt, ...)
    __attribute__((__format__(__printf__, 4, 5)));

static void
emit(struct vcc *tl, struct vbuf *out, unsigned ind, const char *fmt, ...)
{
	va_list ap;
	unsigned u;

	for (u = 0; u < ind; u++)
		vbuf_cat(tl, out, "\t");
	va_start(ap, fmt);
	vbuf_vprintf(tl, out, fmt, ap);
	va_end(ap);
}

static void
emit_failcheck(struct vcc *tl, struct vbuf *out, unsigned ind)
{

	emit(tl, out, ind, "if (ctx->failed)\n");
	emit(tl, out, ind + 1, "return (VCL_RET_FAIL);\n");
}

/* `set x += e`: the current value (C that reads it) before e's pieces. */
static struct expr *
e_append(struct vcc *tl, const char *cur, struct expr *e)
{
	struct expr *sum;
	unsigned u;

	e = e_tostring(tl, e);
	sum = vcc_alloc(tl, sizeof *sum);
	*sum = *e;
	sum->subj = NULL;
	sum->constant = 0;
	sum->lit = NULL;
	sum->npcs = e->npcs + 1;
	sum->pcs = vcc_alloc(tl, sizeof *sum->pcs * sum->npcs);
	sum->pcs[0] = vcc_strdup(tl, cur);
	for (u = 0; u < e->npcs; u++)
		sum->pcs[u + 1] = e->pcs[u];
	sum->c = sum->pcs[0];
	return (sum);
}

/* The variable t names, or an error that suggests the nearest name. */
static const struct vvar *
var_need(struct vcc *tl, const struct token *t)
{
	const struct vvar *v;
	const char *hn;

	v = var_find(t);
	if (v == NULL) {
		hn = var_suggest(tl, tk_str(tl, t));
		vcc_error(tl, t, "Symbol not found: '%s' (unknown variable%s"
		    "%s%s)", tk_str(tl, t), *hn ? "; did you mean " : "", hn,
		    *hn ? "?" : "");
	}
	return (v);
}

static void
parse_set(struct vcc *tl, struct vbuf *out, unsigned ind)
{
	const struct token *t, *op;
	const struct vhdrp *h;
	const struct vvar *v;
	struct expr *e;
	const char *hn, *ref, *what;
	size_t hl;

	t = tk_expect_id(tl, "a variable to set");
	op = tk(tl);
	if (!(vcc_is(op, "=") || vcc_is(op, "+=") || vcc_is(op, "-=") ||
	    vcc_is(op, "*=") || vcc_is(op, "/=")))
		vcc_error(tl, op, "Expected '=' got '%s' (`set %s` takes = "
		    "+= -= *= or /=)", tk_desc(tl, op), tk_str(tl, t));
	tl->pos++;
	h = hdr_match(t, &hn, &hl);
	if (h != NULL)
		hdr_name_check(tl, t, hn, hl);
	if (h != NULL) {
		what = tk_str(tl, t);
		if (h->wr == VM_NONE)
			vcc_error(tl, t, "Variable is read only. %s "
			    "cannot be set", what);
		sub_check(tl, t, CK_SET, h->wr, what);
		ref = hdr_ref(tl, h->where, vcc_strndup(tl, hn, hl));
		e = parse_expr_string(tl);
		if (vcc_is(op, "+=")) {
			sub_check(tl, t, CK_READ, h->rd, what);
			e = e_append(tl, cat3(tl, "VRT_GetHdr(ctx, ", ref,
			    ")"), e);
		} else if (!vcc_is(op, "="))
			vcc_error(tl, op, "Expected '=' got '%s': a header "
			    "takes = or +=", tk_str(tl, op));
		emit(tl, out, ind, "VRT_SetHdr(ctx, %s, %s);\n", ref,
		    e_strands(tl, e));
		OPT_WriteHdr(tl, out, ind, h->where, vcc_strndup(tl, hn, hl));
		emit_failcheck(tl, out, ind);
		return;
	}
	v = var_need(tl, t);
	var_flags(tl, t, v);
	if (v->wr == VM_NONE && v->un != VM_NONE)
		vcc_error(tl, t, "Variable cannot be set. %s can only be "
		    "unset", v->name);
	if (v->wr == VM_NONE && v->rd == VM_NONE)
		vcc_error(tl, t, "Variable is read only. %s cannot be "
		    "set", v->name);
	if (v->wr == VM_NONE) {
		/*
		 * Read only: where it does not exist either, Varnish says
		 * that first. Checked with the methods that run the sub.
		 */
		sub_check(tl, t, CK_SETRO, v->rd, v->name);
		sub_check(tl, t, CK_SET, VM_NONE, v->name);
		(void)parse_expr(tl);
		emit(tl, out, ind, "/* %s is read only */\n", v->name);
		return;
	}
	if ((v->flags & VV_RO_41) && P(tl)->syntax > 40)
		vcc_error(tl, t, "Variable is read only. %s cannot be set "
		    "in VCL 4.1 (VCL 4.0 allowed it)", v->name);
	sub_check(tl, t, CK_SET, v->wr, v->name);
	P(tl)->want_type = v->t;
	e = v->t == V_STRING ? parse_expr_string(tl) : parse_expr(tl);
	P(tl)->want_type = V_VOID;
	if (vcc_is(op, "=")) {
		/* Setters of strings take strands (VCL_STRING_SET). */
		emit(tl, out, ind, "VRT_l_%s(ctx, %s);\n", v->cname,
		    v->t == V_STRING ? e_strands(tl, e) :
		    e_convert(tl, e, v->t, v->name));
	} else if (v->t == V_STRING && vcc_is(op, "+=")) {
		sub_check(tl, t, CK_READ, v->rd, v->name);
		e = e_append(tl, cat3(tl, "VRT_r_", v->cname, "(ctx)"), e);
		emit(tl, out, ind, "VRT_l_%s(ctx, %s);\n", v->cname,
		    e_strands(tl, e));
	} else if (is_num(v->t)) {
		sub_check(tl, t, CK_READ, v->rd, v->name);
		if ((vcc_is(op, "*=") || vcc_is(op, "/=")) ?
		    !(e->t == V_INT || e->t == V_REAL) :
		    !(e->t == v->t || (v->t == V_REAL && e->t == V_INT) ||
		    (v->t == V_TIME && e->t == V_DURATION)))
			vcc_error(tl, op, "cannot %s %s to %s",
			    tk_str(tl, op), vtype_a[e->t],
			    vtype_a[v->t]);
		emit(tl, out, ind, "VRT_l_%s(ctx, VRT_r_%s(ctx) %c %s);\n",
		    v->cname, v->cname, *op->b, e->c);
	} else
		vcc_error(tl, op, "Expected '=' got '%s': %s cannot be "
		    "used with %s", tk_str(tl, op), tk_str(tl, op),
		    vtype_a[v->t]);
	OPT_WriteVar(tl, out, ind, v->name);
	emit_failcheck(tl, out, ind);
}

static void
parse_unset(struct vcc *tl, struct vbuf *out, unsigned ind)
{
	const struct token *t;
	const struct vhdrp *h;
	const struct vvar *v;
	const char *hn, *what;
	size_t hl;

	t = tk_expect_id(tl, "a variable to unset");
	h = hdr_match(t, &hn, &hl);
	if (h != NULL)
		hdr_name_check(tl, t, hn, hl);
	if (h != NULL) {
		what = tk_str(tl, t);
		if (h->un == VM_NONE)
			vcc_error(tl, t, "%s cannot be unset", what);
		sub_check(tl, t, CK_UNSET, h->un, what);
		hn = vcc_strndup(tl, hn, hl);
		emit(tl, out, ind, "VRT_UnsetHdr(ctx, %s);\n",
		    hdr_ref(tl, h->where, hn));
		OPT_WriteHdr(tl, out, ind, h->where, hn);
		return;
	}
	v = var_need(tl, t);
	var_flags(tl, t, v);
	if (v->un == VM_NONE)
		vcc_error(tl, t, "Variable cannot be unset. %s cannot be "
		    "unset", v->name);
	sub_check(tl, t, CK_UNSET, v->un, v->name);
	emit(tl, out, ind, "VRT_u_%s(ctx);\n", v->cname);
	OPT_WriteVar(tl, out, ind, v->name);
}

static int
ret_find(const struct token *t)
{
	size_t len = (size_t)(t->e - t->b);
	unsigned u;

	for (u = 1; u < NRETS; u++)
		if (strlen(vcc_rets[u]) == len &&
		    !memcmp(vcc_rets[u], t->b, len))
			return ((int)u);
	return (-1);
}

/*
 * return (vcl(LABEL)): LABEL must be a vcl.label that exists now (the
 * manager passes their names); the runtime finds it again by name when
 * the VCL loads, and the manager keeps it from going while we use it.
 */
static void
parse_return_vcl(struct vcc *tl, struct vbuf *out, unsigned ind)
{
	struct vparse *p = P(tl);
	const struct token *t;
	struct vbuf known = { NULL, 0, 0 };
	const char *name;
	unsigned u, k;

	tk_expect(tl, "(");
	t = tk_expect_id(tl, "a VCL label");
	name = tk_str(tl, t);
	for (k = 0; tl->opts->labels != NULL && tl->opts->labels[k] != NULL;
	    k++)
		if (!strcmp(tl->opts->labels[k], name))
			break;
	if (tl->opts->labels == NULL || tl->opts->labels[k] == NULL) {
		for (u = 0; tl->opts->labels != NULL &&
		    tl->opts->labels[u] != NULL; u++)
			vbuf_printf(tl, &known, "%s%s", u > 0 ? ", " : "",
			    tl->opts->labels[u]);
		/* VCL 4.0 has no labels: Varnish says not found there. */
		if (sub_find(tl, t) != NULL && P(tl)->syntax > 40)
			vcc_error(tl, t, "Symbol '%s' has wrong type (sub), "
			    "expected vcl: return (vcl(...)) names a VCL "
			    "label", name);
		vcc_error(tl, t, "Symbol not found: '%s': return (vcl(...)) "
		    "names a label made with `vcl.label %s <vcl>` before this "
		    "VCL is loaded (labels now: %s)", name, name,
		    known.s != NULL ? known.s : "none");
	}
	if (tl->opts->label_used != NULL)
		tl->opts->label_used[k] = 1;
	for (u = 0; u < p->nlabels; u++)
		if (!strcmp(p->labels[u], name))
			break;
	if (u == p->nlabels) {
		if (p->nlabels == VCC_MAX_LABELS)
			vcc_error(tl, t, "return (vcl(...)) names more than %u "
			    "labels", VCC_MAX_LABELS);
		p->labels[p->nlabels++] = name;
	}
	tk_expect(tl, ")");
	tk_expect(tl, ")");
	emit(tl, out, ind, "VRT_vcl_select(ctx, %u);\t/* %s */\n", u,
	    name);
	emit(tl, out, ind, "return (VCL_RET_VCL);\n");
}

static void
parse_return(struct vcc *tl, struct vbuf *out, unsigned ind)
{
	const struct token *t;
	struct vsub *s = P(tl)->cur;
	struct expr *e;
	const char *reason = "NULL";
	unsigned mask, u;
	int r;

	tk_expect(tl, "(");
	t = tk_expect_id(tl, "an action");
	r = ret_find(t);
	if (r < 0)
		vcc_error(tl, t, "Expected return action name. '%s' is "
		    "none; the actions are %s", tk_str(tl, t),
		    "abandon, deliver, error, fail, fetch, hash, lookup, "
		    "miss, ok, pass, pipe, purge, restart, retry, synth "
		    "and vcl");
	/* Actions VCL 4.0 had, with their old meaning. */
	if (s->method >= 0 && vcc_meths[s->method].idx == VCL_MET_HIT &&
	    (r == VCL_RET_FETCH || r == VCL_RET_MISS)) {
		vcc_warn(tl, t, "return (%s) in vcl_hit is VCL 4.0/5.x; it "
		    "still fetches a fresh copy here, but today's VCL says "
		    "`set req.hash_always_miss = true; return (restart);`",
		    tk_str(tl, t));
		r = VCL_RET_MISS;
	} else if (s->method >= 0 &&
	    vcc_meths[s->method].idx == VCL_MET_RECV &&
	    r == VCL_RET_LOOKUP) {
		vcc_warn(tl, t, "return (lookup) in vcl_recv is VCL 3; "
		    "today's VCL says return (hash)");
		r = VCL_RET_HASH;
	}
	mask = 0;
	for (u = 0; u < NMETHS; u++)
		if (vcc_meths[u].rets & (1U << r))
			mask |= 1U << vcc_meths[u].idx;
	sub_check(tl, t, CK_RET, mask, vcc_rets[r]);
	if (r == VCL_RET_VCL) {
		parse_return_vcl(tl, out, ind);
		return;
	}
	if (r == VCL_RET_SYNTH) {
		if (!vcc_is(tk(tl), "("))
			vcc_error(tl, tk(tl), "Missing argument. synth takes "
			    "a status: return (synth(404));");
		tk_expect(tl, "(");
		e = parse_expr(tl);
		if (e->t != V_INT)
			vcc_error(tl, e->t0, "synth() takes a status code "
			    "(INT) first, not %s", vtype_a[e->t]);
		if (vcc_is(tk(tl), ",")) {
			tl->pos++;
			reason = e_string1(tl, parse_expr_string(tl));
		}
		tk_expect(tl, ")");
		emit(tl, out, ind, "VRT_synth(ctx, %s, %s);\n", e->c, reason);
	} else if (r == VCL_RET_ERROR && vcc_is(tk(tl), "(")) {
		tl->pos++;
		e = parse_expr(tl);
		if (e->t != V_INT)
			vcc_error(tl, e->t0, "error() takes a status code "
			    "(INT) first, not %s", vtype_a[e->t]);
		if (vcc_is(tk(tl), ",")) {
			tl->pos++;
			reason = e_string1(tl, parse_expr_string(tl));
		}
		tk_expect(tl, ")");
		emit(tl, out, ind, "VRT_error(ctx, %s, %s);\n", e->c, reason);
	} else if (r == VCL_RET_FAIL && vcc_is(tk(tl), "(")) {
		/* return (fail("why")): the reason goes to VCL_Error. */
		tl->pos++;
		reason = e_string1(tl, parse_expr_string(tl));
		tk_expect(tl, ")");
		emit(tl, out, ind, "VRT_fail(ctx, \"%%s\", %s);\n", reason);
	} else if (r == VCL_RET_PASS && vcc_is(tk(tl), "(")) {
		tl->pos++;
		e = parse_expr(tl);
		tk_expect(tl, ")");
		sub_check(tl, t, CK_USE, VM_(BACKEND_RESPONSE),
		    "return (pass(DURATION))");
		emit(tl, out, ind, "VRT_hit_for_pass(ctx, %s);\n",
		    e_convert(tl, e, V_DURATION, "pass()"));
	}
	if (vcc_is(tk(tl), "("))
		vcc_error(tl, tk(tl), "Arguments not allowed. return (%s) "
		    "takes none", vcc_rets[r]);
	tk_expect(tl, ")");
	{
		char up[32];

		for (u = 0; vcc_rets[r][u] != '\0' && u < sizeof up - 1; u++)
			up[u] = (char)toupper((unsigned char)vcc_rets[r][u]);
		up[u] = '\0';
		emit(tl, out, ind, "return (VCL_RET_%s);\n", up);
	}
}

/* The class named by t (mod.class), or NULL. */
const struct vclass *
class_find(const struct token *t)
{
	char buf[128];
	unsigned u;

	for (u = 0; u < vcc_nclasses; u++) {
		(void)snprintf(buf, sizeof buf, "%s.%s",
		    vcc_classes[u].init.mod, vcc_classes[u].init.name);
		if (vcc_is(t, buf))
			return (&vcc_classes[u]);
	}
	return (NULL);
}

/* "debug.obj, debug.concat": the classes there are, for errors. */
static const char *
class_list(struct vcc *tl)
{
	struct vbuf vb = { NULL, 0, 0 };
	unsigned u;

	vbuf_cat(tl, &vb, "");
	for (u = 0; u < vcc_nclasses; u++)
		vbuf_printf(tl, &vb, "%s%s.%s", u > 0 ? ", " : "",
		    vcc_classes[u].init.mod, vcc_classes[u].init.name);
	return (vcc_strdup(tl, vb.s));
}

/*
 * new NAME = mod.class(args);  scan_names registered NAME and its class.
 * Made where the statement is (vcl_init runs it once); a second run (a
 * sub called twice) fails rather than leak the first.
 */
static void
parse_new(struct vcc *tl, const struct token *t, struct vbuf *out,
    unsigned ind)
{
	const struct token *n, *ct;
	const struct vclass *c;
	struct vsym *o;
	struct expr *e;
	char cfn[160], self[160];

	sub_check(tl, t, CK_USE, VM_(INIT), "new");
	n = tk_expect_id(tl, "a name for the object");
	/* As Varnish's names, an object's starts with a letter. */
	if (!isalpha((unsigned char)*n->b))
		vcc_error(tl, n, "Syntax error: an object's name starts with "
		    "a letter, not '%c'", *n->b);
	o = sym_find_t(P(tl)->objs, n);
	/* scan_names took every "new NAME = ..."; this is not one. */
	if (o == NULL || o->t != n)
		vcc_error(tl, n, "Syntax error: expected new NAME = "
		    "module.class(...); here");
	tk_expect(tl, "=");
	ct = tk_expect_id(tl, "module.class(...)");
	c = class_find(ct);
	assert(c == o->cls);
	if (!(P(tl)->imported & (1U << mod_bit(c->init.mod,
	    strlen(c->init.mod)))))
		vcc_error(tl, ct, "%s needs `import %s;` at the top of the "
		    "file", tk_str(tl, ct), c->init.mod);
	if (!vcc_is(tk(tl), "("))
		vcc_error(tl, tk(tl), "Syntax error: expected '(' after %s: "
		    "new %s = %s(...);", tk_str(tl, ct), o->name,
		    tk_str(tl, ct));
	(void)snprintf(cfn, sizeof cfn, "vmod_%s_%s__init", c->init.mod,
	    c->init.name);
	(void)snprintf(self, sizeof self, "&vgc_obj_%u, %s", o->idx,
	    vcc_cstr(tl, o->name));
	e = parse_call(tl, &c->init, ct, tk_str(tl, ct), cfn, self);
	emit(tl, out, ind, "if (vgc_obj_%u != NULL)\n", o->idx);
	emit(tl, out, ind + 1, "VRT_fail(ctx, \"Object %s made twice\");\n",
	    o->name);
	emit(tl, out, ind, "else\n");
	emit(tl, out, ind + 1, "%s;\n", e->c);
	OPT_Clobber(tl, out, ind);
	emit_failcheck(tl, out, ind);
}

static void
parse_statement(struct vcc *tl, struct vbuf *out, unsigned ind)
{
	const struct token *t = tk(tl), *n;
	struct vsub *to, *s = P(tl)->cur;
	struct expr *e;

	if (t->tok == T_CSRC) {
		if (!tl->opts->allow_inline_c)
			vcc_error(tl, t, "Inline-C not allowed (enable it "
			    "with -p vcc_allow_inline_c=on)");
		tl->pos++;
		emit(tl, out, ind, "%s\n", t->dec);
		OPT_Clobber(tl, out, ind);
		return;
	}
	if (vcc_is(t, "{")) {
		tl->pos++;
		emit(tl, out, ind, "{\n");
		parse_block(tl, out, ind + 1);
		emit(tl, out, ind, "}\n");
		return;
	}
	if (vcc_is(t, ";")) {
		tl->pos++;
		return;
	}
	if (t->tok != T_ID)
		vcc_error(tl, t, "expected a statement (set, unset, if, "
		    "return, call, ...), found '%s'", tk_desc(tl, t));
	if (vcc_is(t, "else") || vcc_is(t, "elsif") || vcc_is(t, "elseif") ||
	    vcc_is(t, "elif"))
		vcc_error(tl, t, "`%s` without an `if` before it",
		    tk_str(tl, t));
	tl->pos++;
	emit(tl, out, ind, "/* %s:%u */\n", vcc_cmt(tl, t->src->name),
	    t->line);
	if (vcc_is(t, "set")) {
		parse_set(tl, out, ind);
	} else if (vcc_is(t, "unset") || vcc_is(t, "remove")) {
		if (vcc_is(t, "remove"))
			vcc_warn(tl, t, "`remove` is VCL 3; today's VCL says "
			    "`unset`");
		parse_unset(tl, out, ind);
	} else if (vcc_is(t, "return") && vcc_is(tk(tl), ";")) {
		/*
		 * return; leaves a sub that is called (as Varnish 7 lets
		 * one skip the rest of builtin.vcl's vcl_req_cookie).  A
		 * chunk of a long sub passes it up to the sub, which turns
		 * it into nothing for its caller.
		 */
		if (s->method >= 0)
			vcc_error(tl, t, "Expected '(' got ';': `return;` "
			    "leaves a sub you call; "
			    "vcl_%s needs an action: return (...)",
			    vcc_meths[s->method].name + 4);
		emit(tl, out, ind, "return (VGC_RET_SUBEND);\n");
	} else if (vcc_is(t, "return")) {
		parse_return(tl, out, ind);
	} else if (vcc_is(t, "call")) {
		n = tk_expect_id(tl, "the name of a sub");
		to = sub_find(tl, n);
		if (to == NULL && (vcc_is(n, "acl") || vcc_is(n, "sub") ||
		    vcc_is(n, "backend") || vcc_is(n, "probe")))
			vcc_error(tl, n, "Symbol '%s' type (reserved) can not "
			    "be used in expression. call takes a sub's name",
			    tk_str(tl, n));
		if (to == NULL || !to->defined)
			vcc_error(tl, n, "Undefined sub %s: no sub named %s",
			    tk_str(tl, n), tk_str(tl, n));
		if (s->ncalls == s->ccalls) {
			s->ccalls = s->ccalls ? s->ccalls * 2 : 8;
			s->calls = realloc(s->calls,
			    s->ccalls * sizeof *s->calls);
			if (s->calls == NULL)
				abort();
		}
		s->calls[s->ncalls].to = to;
		s->calls[s->ncalls].t = n;
		s->ncalls++;
		emit(tl, out, ind, "{\n");
		if (to->method >= 0) {
			/*
			 * A method (call vcl_backend_response;): the
			 * user's and builtin.vcl's parts, as the method
			 * runs them, with a frame of its own; what it
			 * sets, this frame no longer knows.
			 */
			OPT_Clobber(tl, out, ind + 1);
			emit(tl, out, ind + 1, "enum vcl_ret r = "
			    "VRT_PROF_CALL(ctx, %u, vgc_method_%s(ctx));\n",
			    OPT_ProfPoint(tl, VRT_PK_CALL, s->name, t, n),
			    vcc_meths[to->method].field);
			OPT_Clobber(tl, out, ind + 1);
		} else
			emit(tl, out, ind + 1, "enum vcl_ret r = "
			    "VRT_PROF_CALL(ctx, %u, vgc_sub_%u(ctx, vf));\n",
			    OPT_ProfPoint(tl, VRT_PK_CALL, s->name, t, n),
			    to->idx);
		emit(tl, out, ind + 1, "if (r != VCL_RET_NONE && "
		    "r != VGC_RET_SUBEND)\n");
		emit(tl, out, ind + 2, "return (r);\n");
		emit(tl, out, ind, "}\n");
	} else if (vcc_is(t, "if")) {
		const struct token *c0;
		unsigned first = 1, pt;

		for (;;) {
			tk_expect(tl, "(");
			c0 = tk(tl);
			e = parse_expr(tl);
			pt = OPT_ProfPoint(tl, VRT_PK_COND, s->name, c0,
			    &tl->toks[tl->pos - 1]);
			tk_expect(tl, ")");
			if (first)
				emit(tl, out, ind, "if (VRT_PROF_COND(ctx, %u, "
				    "%s)) {\n", pt, e_bool(tl, e));
			else
				vbuf_printf(tl, out, "if (VRT_PROF_COND(ctx, "
				    "%u, %s)) {\n", pt, e_bool(tl, e));
			first = 0;
			tk_expect(tl, "{");
			parse_block(tl, out, ind + 1);
			n = tk(tl);
			if (vcc_is(n, "elsif") || vcc_is(n, "elseif") ||
			    vcc_is(n, "elif") || (vcc_is(n, "else") &&
			    vcc_is(tk_peek(tl, 1), "if"))) {
				tl->pos += vcc_is(n, "else") ? 2 : 1;
				emit(tl, out, ind, "} else ");
				continue;
			}
			if (vcc_is(n, "else")) {
				tl->pos++;
				emit(tl, out, ind, "} else {\n");
				tk_expect(tl, "{");
				parse_block(tl, out, ind + 1);
			}
			emit(tl, out, ind, "}\n");
			break;
		}
		return;
	} else if (vcc_is(t, "synthetic")) {
		sub_check(tl, t, CK_USE, VM_(SYNTH) | VM_(BACKEND_ERROR),
		    "synthetic()");
		tk_expect(tl, "(");
		e = parse_expr_string(tl);
		tk_expect(tl, ")");
		emit(tl, out, ind, "VRT_synth_strands(ctx, %s);\n",
		    e_strands(tl, e));
		emit_failcheck(tl, out, ind);
	} else if (vcc_is(t, "hash_data")) {
		sub_check(tl, t, CK_USE, VM_(HASH), "hash_data()");
		tk_expect(tl, "(");
		e = parse_expr_string(tl);
		tk_expect(tl, ")");
		emit(tl, out, ind, "VRT_hashdata(ctx, %s);\n",
		    e_strands(tl, e));
		emit_failcheck(tl, out, ind);
	} else if (vcc_is(t, "ban")) {
		tk_expect(tl, "(");
		e = parse_expr_string(tl);
		tk_expect(tl, ")");
		emit(tl, out, ind, "VRT_ban_string(ctx, %s);\n",
		    e_string1(tl, e));
		emit_failcheck(tl, out, ind);
	} else if (vcc_is(t, "new")) {
		parse_new(tl, t, out, ind);
	} else if (vcc_is(tk(tl), "(") && (e = parse_fcall(tl, t)) != NULL) {
		if (e->t != V_VOID)
			vcc_warn(tl, t, "the %s that %s() returns is not "
			    "used", vtype_name[e->t], tk_str(tl, t));
		emit(tl, out, ind, "%s%s;\n", e->t == V_VOID ? "" : "(void)",
		    e->c);
		/* Only these are known to change no VCL-visible value. */
		if (!vcc_is(t, "std.log") && !vcc_is(t, "std.syslog") &&
		    !vcc_is(t, "std.timestamp"))
			OPT_Clobber(tl, out, ind);
		emit_failcheck(tl, out, ind);
	} else if (vcc_is(tk(tl), "(")) {
		class_call_check(tl, t);
		vcc_error(tl, t, "Symbol not found: '%s': unknown function "
		    "%s()%s", tk_str(tl, t), tk_str(tl, t),
		    memchr(t->b, '.', (size_t)(t->e - t->b)) != NULL ?
		    " (is its module imported?)" : "");
	} else if (sym_find_t(P(tl)->objs, t) != NULL) {
		/* Varnish's words: it wants the method's dot. */
		vcc_error(tl, tk(tl), "Expected '.' got '%s': %s is an object; "
		    "call one of its methods (%s.method(...))",
		    tk_desc(tl, tk(tl)), tk_str(tl, t), tk_str(tl, t));
	} else {
		vcc_error(tl, t, "Symbol not found: '%s': expected a statement "
		    "(set, unset, if, return, call, ...)", tk_str(tl, t));
	}
	tk_expect(tl, ";");
}

static void
parse_block(struct vcc *tl, struct vbuf *out, unsigned ind)
{

	nest_in(tl, tk(tl));
	while (!vcc_is(tk(tl), "}")) {
		if (tk(tl)->tok == T_EOF)
			vcc_error(tl, tk(tl), "expected '}' before the end "
			    "of the file");
		parse_statement(tl, out, ind);
	}
	tl->pos++;
	P(tl)->nest--;
}

/*
 * A sub's body goes into functions of at most VCC_CHUNK statements each,
 * called in turn: cc's time grows faster than a function's length, and a
 * 2,000-line VCL must build in well under two seconds.
 */
#define VCC_CHUNK	20

static void
flush_chunk(struct vcc *tl, struct vsub *s, struct vbuf *chunk)
{
	unsigned idx = P(tl)->nchunks++;

	vbuf_printf(tl, &P(tl)->chunks, "\nstatic enum vcl_ret\n"
	    "vgc_chunk_%u(VRT_CTX, struct vgc_frame *vf)\n{\n\n"
	    "\t(void)ctx;\n\t(void)vf;\n%s"
	    "\treturn (VCL_RET_NONE);\n}\n", idx, chunk->s);
	vbuf_printf(tl, &s->body, "\t{\n\t\tenum vcl_ret r = "
	    "vgc_chunk_%u(ctx, vf);\n\t\tif (r != VCL_RET_NONE)\n"
	    "\t\t\treturn (r);\n\t}\n", idx);
	chunk->len = 0;
	chunk->s[0] = '\0';
}

static void
parse_sub(struct vcc *tl)
{
	const struct token *nt;
	struct vbuf chunk = { NULL, 0, 0 };
	struct vsub *s;
	unsigned n = 0, flushed = 0;

	nt = tk_expect_id(tl, "the sub's name");
	s = sub_find(tl, nt);
	assert(s != NULL);
	P(tl)->cur = s;
	tk_expect(tl, "{");
	vbuf_printf(tl, &s->body, "\t/* sub %s, %s:%u */\n", s->name,
	    vcc_cmt(tl, nt->src->name), nt->line);
	vbuf_cat(tl, &chunk, "");
	while (!vcc_is(tk(tl), "}")) {
		if (tk(tl)->tok == T_EOF)
			vcc_error(tl, tk(tl), "expected '}' before the end "
			    "of the file");
		parse_statement(tl, &chunk, 1);
		if (++n == VCC_CHUNK) {
			flush_chunk(tl, s, &chunk);
			n = 0;
			flushed = 1;
		}
	}
	tl->pos++;
	/* A short sub (builtin.vcl's: the hit path) stays in line. */
	if (n > 0 && !flushed)
		vbuf_cat(tl, &s->body, chunk.s);
	else if (n > 0)
		flush_chunk(tl, s, &chunk);
	P(tl)->cur = NULL;
}

static void
parse_vcl_version(struct vcc *tl, const struct token *t)
{
	const struct token *v = tk(tl);

	if (v->tok != T_NUM || !v->is_real)
		vcc_error(tl, v, "Expected 'vcl N.N;': this is VCL 4.0 or "
		    "4.1; say `vcl 4.0;` or `vcl 4.1;`");
	/* 4.00, 04.0: Varnish's words for them. */
	if (v->e - v->b != 3)
		vcc_error(tl, v, "Don't play silly buggers with VCL version "
		    "numbers: say `vcl 4.0;` or `vcl 4.1;`");
	if (strncmp(v->b, "4.0", 3) && strncmp(v->b, "4.1", 3))
		vcc_error(tl, v, "VCL version %.3s not supported. This is "
		    "VCL 4.0 or 4.1", v->b);
	P(tl)->syntax = v->b[2] == '0' ? 40 : 41;
	tl->pos++;
	if (!vcc_is(tk(tl), ";"))
		vcc_error(tl, tk(tl), "Expected 'vcl N.N;' found no "
		    "semi-colon");
	tl->pos++;
	(void)t;
}

/*
 * Does builtin.vcl declare sub n?  Varnish 7's builtin.vcl is made of
 * named pieces (vcl_req_cookie, vcl_beresp_stale...) a VCL may extend or
 * cut short with its own sub of the same name, run before the builtin's.
 */
static int
builtin_defines(const struct vcc *tl, const struct token *n)
{
	const struct token *t;
	size_t i;

	for (i = 1; i + 1 < tl->ntoks; i++) {
		t = &tl->toks[i];
		if (t->src == NULL || !t->src->builtin || t->tok != T_ID ||
		    !vcc_is(&tl->toks[i - 1], "sub"))
			continue;
		if (t->e - t->b == n->e - n->b &&
		    !memcmp(t->b, n->b, (size_t)(n->e - n->b)))
			return (1);
	}
	return (0);
}

/*
 * An imported module's name is taken, as in Varnish: a backend, probe,
 * acl or sub of that name (before or after the import) is an error.
 */
static void
scan_imports(struct vcc *tl)
{
	const struct token *t, *n, *d;
	const struct vsub *s;
	const struct vsym *v;
	size_t i;

	for (i = 0; i + 1 < tl->ntoks; i++) {
		t = &tl->toks[i];
		n = &tl->toks[i + 1];
		if (!vcc_is(t, "import") || n->tok != T_ID ||
		    (i > 0 && !vcc_is(&tl->toks[i - 1], ";") &&
		    !vcc_is(&tl->toks[i - 1], "}")))
			continue;
		d = NULL;
		if ((v = sym_find_t(P(tl)->backends, n)) != NULL ||
		    (v = sym_find_t(P(tl)->probes, n)) != NULL ||
		    (v = sym_find_t(P(tl)->acls, n)) != NULL)
			d = v->t;
		else if ((s = sub_find(tl, n)) != NULL)
			d = s->t;
		if (d != NULL)
			vcc_error(tl, d, "Name '%s' already defined.  It "
			    "names the module imported at %s:%u; rename "
			    "this one", tk_str(tl, n), n->src->name,
			    n->line);
	}
}

/*
 * A declared name is one word: "sub foo.bar" and "new rr.x = ..." are
 * refused, as in Varnish.
 */
static void
decl_name_check(struct vcc *tl, const struct token *kw, const struct token *n)
{
	const char *kind, *dot;

	if (vcc_is(kw, "sub"))
		kind = "subroutine";
	else if (vcc_is(kw, "acl"))
		kind = "ACL";
	else if (vcc_is(kw, "backend"))
		kind = "backend";
	else if (vcc_is(kw, "probe"))
		kind = "probe";
	else if (vcc_is(kw, "new"))
		kind = "VCL object";
	else
		return;
	dot = memchr(n->b, '.', (size_t)(n->e - n->b));
	if (dot != NULL)
		vcc_error(tl, n, "Name of %s, '%s', contains illegal character "
		    "'.': a name is letters, digits, _ and -", kind,
		    tk_str(tl, n));
}

/* Every declared name first, so that order does not matter. */
void
scan_names(struct vcc *tl)
{
	struct vparse *p = P(tl);
	const struct token *t, *n;
	const struct vclass *c;
	struct vsym *o, *y;
	struct vsub *s;
	unsigned depth = 0;
	size_t i;
	int m;

	for (i = 0; i + 1 < tl->ntoks; i++) {
		t = &tl->toks[i];
		if (vcc_is(t, "{"))
			depth++;
		else if (vcc_is(t, "}") && depth > 0)
			depth--;
		if (depth > 0 && vcc_is(t, "new") && i + 3 < tl->ntoks &&
		    tl->toks[i + 1].tok == T_ID &&
		    vcc_is(&tl->toks[i + 2], "=")) {
			/* new NAME = mod.class(...): objects are global. */
			n = &tl->toks[i + 1];
			decl_name_check(tl, t, n);
			c = class_find(&tl->toks[i + 3]);
			if (c == NULL)
				vcc_error(tl, &tl->toks[i + 3], "Symbol not "
				    "found: '%s' (no object class of that name; "
				    "the classes here are: %s)",
				    tk_str(tl, &tl->toks[i + 3]),
				    class_list(tl));
			o = sym_find_t(p->objs, n);
			if (o != NULL)
				vcc_error(tl, n, "Instance '%s' redefined. "
				    "It is first made at %s:%u", o->name,
				    o->t->src->name, o->t->line);
			o = sym_add(tl, &p->objs, &p->nobjs, n, "object");
			o->cls = c;
			continue;
		}
		if (depth != 0 || t->tok != T_ID)
			continue;
		n = &tl->toks[i + 1];
		if (n->tok != T_ID)
			continue;
		if (i > 0 && (vcc_is(&tl->toks[i - 1], ".") ||
		    vcc_is(&tl->toks[i - 1], "=")))
			continue;
		decl_name_check(tl, t, n);
		if (vcc_is(t, "backend"))
			(void)sym_add(tl, &p->backends, &p->nbackends, n,
			    "backend");
		else if (vcc_is(t, "probe"))
			(void)sym_add(tl, &p->probes, &p->nprobes, n, "probe");
		else if (vcc_is(t, "acl"))
			(void)sym_add(tl, &p->acls, &p->nacls, n, "acl");
		else if (vcc_is(t, "sub")) {
			m = meth_find(n->b, (size_t)(n->e - n->b));
			s = sub_find(tl, n);
			if (s != NULL && m < 0 &&
			    (strncmp(n->b, "vcl_", 4) ||
			    !builtin_defines(tl, n)))
				vcc_error(tl, n, "Subroutine '%s' redefined: "
				    "sub %s is declared twice (first at "
				    "%s:%u)", s->name, s->name,
				    s->t->src->name, s->t->line);
			if (s != NULL)
				continue;
			if (m < 0 && !strncmp(n->b, "vcl_", 4) &&
			    !builtin_defines(tl, n))
				vcc_error(tl, n, "The names 'vcl_*' are "
				    "reserved for subroutines. %s is not a "
				    "builtin subroutine, and names starting "
				    "with vcl_ are kept for those",
				    tk_str(tl, n));
			s = vcc_alloc(tl, sizeof *s);
			s->name = tk_str(tl, n);
			s->t = n;
			s->method = m;
			s->defined = 1;
			s->idx = p->nsubs++;
			s->next = p->subs;
			p->subs = s;
		}
	}
	/* An object's name is nobody else's. */
	for (o = p->objs; o != NULL; o = o->next) {
		const struct token *d = NULL;
		const char *kind = NULL;

		if ((y = sym_find_t(p->backends, o->t)) != NULL)
			kind = "backend", d = y->t;
		else if ((y = sym_find_t(p->acls, o->t)) != NULL)
			kind = "acl", d = y->t;
		else if ((y = sym_find_t(p->probes, o->t)) != NULL)
			kind = "probe", d = y->t;
		else if ((s = sub_find(tl, o->t)) != NULL)
			kind = "sub", d = s->t;
		if (kind != NULL)
			vcc_error(tl, o->t, "Name '%s' already defined. "
			    "It is %s %s, declared at %s:%u", o->name, kind,
			    o->name, d->src->name, d->line);
	}
	scan_imports(tl);
}

void
parse_toplevel(struct vcc *tl)
{
	const struct token *t;
	const struct vsrc *cursrc = NULL;

	for (;;) {
		t = tk(tl);
		if (t->tok == T_EOF) {
			if (tl->pos + 1 >= tl->ntoks)
				break;
			tl->pos++;	/* the end of the user's files */
			continue;
		}
		if (t->src != cursrc) {
			/* The main file must start with its version. */
			if (cursrc == NULL && t->src->builtin)
				vcc_error(tl, NULL, "%s has no VCL in it; a "
				    "VCL file starts with `vcl 4.1;`",
				    P(tl)->mainname);
			if (cursrc == NULL && !vcc_is(t, "vcl"))
				vcc_error(tl, t, "a VCL file starts with "
				    "`vcl 4.1;` (or `vcl 4.0;`)");
			cursrc = t->src;
		}
		tl->pos++;
		if (vcc_is(t, "vcl"))
			parse_vcl_version(tl, t);
		else if (vcc_is(t, "import")) {
			const struct token *m = tk_expect_id(tl,
			    "a module's name");

			int bit = mod_bit(m->b, (size_t)(m->e - m->b));
			char mods[128];

			if (bit < 0)
				vcc_error(tl, m, "no module named %s; the "
				    "modules here are: %s", tk_str(tl, m),
				    mod_list(mods, sizeof mods));
			else
				P(tl)->imported |= 1U << bit;
			if (vcc_is(tk(tl), "from")) {
				tl->pos++;
				if (tk(tl)->tok != T_STR)
					vcc_error(tl, tk(tl), "expected a "
					    "path after `from`");
				tl->pos++;
			}
			tk_expect(tl, ";");
		} else if (vcc_is(t, "backend"))
			parse_backend(tl);
		else if (vcc_is(t, "probe")) {
			const struct token *n = tk_expect_id(tl,
			    "the probe's name");
			struct vsym *s = sym_find_t(P(tl)->probes, n);
			char buf[64];

			(void)snprintf(buf, sizeof buf, "vgc_probe_%u",
			    s->idx);
			(void)parse_probe_body(tl, vcc_strdup(tl, buf),
			    s->name);
		} else if (vcc_is(t, "acl"))
			parse_acl(tl);
		else if (vcc_is(t, "sub"))
			parse_sub(tl);
		else if (t->tok == T_CSRC) {
			if (!tl->opts->allow_inline_c)
				vcc_error(tl, t, "Inline-C not allowed (enable "
				    "it with -p vcc_allow_inline_c=on)");
			vbuf_printf(tl, &P(tl)->decl, "%s\n", t->dec);
		} else if (vcc_is(t, "include")) {
			if (tk(tl)->tok != T_STR)
				vcc_error(tl, tk(tl), "include not followed "
				    "by string constant. Say `include "
				    "\"file\";`");
			vcc_error(tl, tk_peek(tl, 1), "include <string> not "
			    "followed by semicolon. Say `include "
			    "\"file\";`");
		}
		else
			vcc_error(tl, t, "expected a declaration (backend, "
			    "probe, acl, sub, import, include). Found: '%s' "
			    "at the caret", tk_desc(tl, t));
	}
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_check.c -- the checks over a whole parsed program (every sub is
 * reached from a method only with returns and variables that method
 * allows) and the C it is emitted as.  The parser is vcc_parse.c.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcc/vcc_comp.h"
#include "vrt.h"

/* Checks over the whole program -----------------------------------------*/

static void
reach_walk(struct vcc *tl, struct vsub *s, unsigned mask, unsigned depth)
{
	size_t i;

	if (s->mark)
		vcc_error(tl, s->t, "sub %s calls itself (through the subs "
		    "it calls): recursion is not allowed", s->name);
	if ((s->reach & mask) == mask && depth > 0)
		return;
	if (depth > VCC_MAX_CALLS)
		vcc_error(tl, s->t, "subs call each other more than %u deep",
		    VCC_MAX_CALLS);
	s->reach |= mask;
	s->mark = 1;
	for (i = 0; i < s->ncalls; i++) {
		s->calls[i].to->called = 1;
		reach_walk(tl, s->calls[i].to, mask, depth + 1);
	}
	s->mark = 0;
}

/* "fail, hash, pass ... or vcl": what method u may return. */
static const char *
ret_list(struct vcc *tl, unsigned u)
{
	struct vbuf vb = { NULL, 0, 0 };
	unsigned r, n = 0, k = 0, legal;
	char *l;

	legal = vcc_meths[u].rets;
	if (vcc_meths[u].idx == VCL_MET_HIT)
		legal &= ~(1U << VCL_RET_MISS);	/* kept for VCL 4.0 only */
	for (r = 1; r < NRETS; r++)
		if (legal & (1U << r))
			n++;
	vbuf_cat(tl, &vb, "");
	for (r = 1; r < NRETS; r++) {
		if (!(legal & (1U << r)))
			continue;
		if (++k > 1)
			vbuf_cat(tl, &vb, k == n ? " or " : ", ");
		vbuf_cat(tl, &vb, vcc_rets[r]);
	}
	l = vcc_strdup(tl, vb.s);
	return (l);
}

static void
check_sub(struct vcc *tl, struct vsub *s)
{
	const struct vcheck *c;
	unsigned bad, u, direct;
	const char *in, *vx;
	size_t i;

	for (i = 0; i < s->nchecks; i++) {
		c = &s->checks[i];
		bad = s->reach & ~c->mask;
		if (bad == 0)
			continue;
		for (u = 0; u < NMETHS; u++)
			if (bad & (1U << vcc_meths[u].idx))
				break;
		direct = s->method >= 0 && (int)u == s->method;
		if (direct)
			in = vcc_meths[u].name;
		else
			in = cat3(tl, s->method >= 0 ? "" : "sub ", s->name,
			    cat3(tl, " (called from ", vcc_meths[u].name,
			    ")"));
		/* Varnish's sentence first, for scripts that look for it. */
		vx = cat3(tl, direct ? " in subroutine '" :
		    " from subroutine '", vcc_meths[u].name, "'.");
		switch (c->kind) {
		case CK_RET:
			vcc_error(tl, c->t, "Invalid return \"%s\"%s return "
			    "(%s) is not allowed in %s; %s may return %s",
			    c->what, vx, c->what, in, vcc_meths[u].name,
			    ret_list(tl, u));
			break;
		case CK_SETRO:
			vcc_error(tl, c->t, "Not available%s %s cannot be set, "
			    "and exists in %s only", vx, c->what,
			    meth_list(tl, c->mask, " and "));
			break;
		case CK_USE:
			/*
			 * Varnish's words: a module function "Not
			 * available", a statement "Not a valid action".
			 */
			vcc_error(tl, c->t, "%s%s %s is not allowed in %s; it "
			    "may be used in %s", strchr(c->what, '.') != NULL ?
			    "Not available" : "Not a valid action", vx,
			    c->what, in, meth_list(tl, c->mask, " and "));
			break;
		default:
			if (c->mask == 0)
				vcc_error(tl, c->t, "%s%s cannot be %s",
				    c->kind == CK_SET ?
				    "Variable is read only. " :
				    c->kind == CK_UNSET ? "Variable cannot be "
				    "unset. " : "", c->what,
				    c->kind == CK_READ ? "read" :
				    c->kind == CK_SET ? "set" : "unset");
			if (c->kind == CK_READ)
				vcc_error(tl, c->t, "Not available%s %s is not "
				    "available in %s; it exists in %s", vx,
				    c->what, in,
				    meth_list(tl, c->mask, " and "));
			vcc_error(tl, c->t, "Cannot be %s%s %s cannot be %s "
			    "in %s; it can be %s in %s",
			    c->kind == CK_SET ? "set" : "unset", vx, c->what,
			    c->kind == CK_SET ? "set" : "unset", in,
			    c->kind == CK_SET ? "set" : "unset",
			    meth_list(tl, c->mask, " and "));
		}
	}
}

void
check_program(struct vcc *tl)
{
	struct vparse *p = P(tl);
	struct vsub *s;
	struct vsym *y;
	const char *kinds[] = { "backend", "probe", "acl" };
	struct vsym *lists[3];
	unsigned k;

	for (s = p->subs; s != NULL; s = s->next)
		if (s->method >= 0)
			reach_walk(tl, s, 1U << vcc_meths[s->method].idx, 0);
	for (s = p->subs; s != NULL; s = s->next)
		check_sub(tl, s);
	if (p->default_be == NULL)
		vcc_error(tl, NULL, "%s declares no backend: declare one "
		    "(backend default { .host = \"...\"; .port = \"...\"; }) "
		    "or say `backend default none;`", p->mainname);
	p->default_be->used = 1;
	lists[0] = p->backends;
	lists[1] = p->probes;
	lists[2] = p->acls;
	for (k = 0; k < 3; k++)
		for (y = lists[k]; y != NULL; y = y->next) {
			if (y->used || y->builtin)
				continue;
			if (tl->opts->err_unref)
				vcc_error(tl, y->t, "Unused %s %s, defined: "
				    "here; %s %s is never used (an error "
				    "while vcc_err_unref is on)", kinds[k],
				    y->name, kinds[k], y->name);
			vcc_warn(tl, y->t, "Unused %s %s, defined: here; "
			    "%s %s is never used", kinds[k], y->name,
			    kinds[k], y->name);
		}
	for (s = p->subs; s != NULL; s = s->next) {
		if (s->method >= 0 || s->called || s->t->src->builtin)
			continue;
		if (tl->opts->err_unref)
			vcc_error(tl, s->t, "Unused sub %s, defined: here; "
			    "sub %s is never called (an error while "
			    "vcc_err_unref is on)", s->name, s->name);
		vcc_warn(tl, s->t, "Unused sub %s, defined: here; sub %s is "
		    "never called", s->name, s->name);
	}
}

/* The C file ------------------------------------------------------------*/

char *
emit_program(struct vcc *tl)
{
	struct vparse *p = P(tl);
	struct vbuf out = { NULL, 0, 0 }, objfini = { NULL, 0, 0 };
	const char *meths[NMETHS];
	struct vsub *s;
	struct vsym *y;
	unsigned u, k, init;
	char *r;

	vbuf_printf(tl, &out, "/*\n * Generated by veneerd's VCL compiler "
	    "from %s: do not edit.\n */\n\n#include \"vrt.h\"\n\n",
	    vcc_cmt(tl, p->mainname));
	vbuf_cat(tl, &out, p->decl.s != NULL ? p->decl.s : "");
	for (y = p->objs; y != NULL; y = y->next)
		vbuf_printf(tl, &out, "static struct vmod_%s_%s *vgc_obj_%u;"
		    "\t/* %s */\n", y->cls->init.mod, y->cls->init.name,
		    y->idx, vcc_cmt(tl, y->name));
	OPT_EmitFrame(tl, &out);
	for (u = 0; u < NMETHS; u++)
		meths[u] = vcc_meths[u].name;
	OPT_EmitProf(tl, &out, meths, NMETHS);
	vbuf_cat(tl, &out, "\n");
	for (u = 0; u < NMETHS; u++)
		vbuf_printf(tl, &out, "static enum vcl_ret vgc_method_%s"
		    "(VRT_CTX);\n", vcc_meths[u].field);
	for (s = p->subs; s != NULL; s = s->next)
		if (s->method < 0)
			vbuf_printf(tl, &out, "static enum vcl_ret vgc_sub_%u"
			    "(VRT_CTX, struct vgc_frame *);\t/* %s */\n",
			    s->idx, s->name);
	vbuf_cat(tl, &out, p->chunks.s != NULL ? p->chunks.s : "");
	for (s = p->subs; s != NULL; s = s->next) {
		if (s->method >= 0)
			continue;
		vbuf_printf(tl, &out, "\nstatic enum vcl_ret\nvgc_sub_%u"
		    "(VRT_CTX, struct vgc_frame *vf)\n{\n\n\t(void)ctx;\n"
		    "\t(void)vf;\n%s"
		    "\treturn (VCL_RET_NONE);\n}\n",
		    s->idx, s->body.s != NULL ? s->body.s : "");
	}
	for (u = 0; u < NMETHS; u++) {
		/* vcl_init's code, then the check that it made the objects. */
		init = vcc_meths[u].idx == VCL_MET_INIT && p->objs != NULL;
		vbuf_printf(tl, &out, "\nstatic enum vcl_ret\nvgc_method_%s%s"
		    "(VRT_CTX)\n{\n\tstruct vgc_frame vf0 = { .epoch = 1 };\n"
		    "\tstruct vgc_frame *vf = &vf0;\n\n\t(void)ctx;\n"
		    "\t(void)vf;\n", vcc_meths[u].field, init ? "_code" : "");
		for (s = p->subs; s != NULL; s = s->next)
			if (s->method == (int)u && s->body.s != NULL)
				vbuf_cat(tl, &out, s->body.s);
		vbuf_cat(tl, &out, "\treturn (VCL_RET_NONE);\n}\n");
		if (!init)
			continue;
		vbuf_printf(tl, &out, "\nstatic enum vcl_ret\nvgc_method_%s"
		    "(VRT_CTX)\n{\n\tenum vcl_ret r = vgc_method_%s_code"
		    "(ctx);\n\n\tif (r != VCL_RET_OK)\n\t\treturn (r);\n",
		    vcc_meths[u].field, vcc_meths[u].field);
		for (k = 0; k < p->nobjs; k++) {
			for (y = p->objs; y->idx != k; y = y->next)
				continue;
			vbuf_printf(tl, &out, "\tif (vgc_obj_%u == NULL) {\n"
			    "\t\tVRT_fail(ctx, \"Object %s not initialized\");"
			    "\n\t\treturn (VCL_RET_FAIL);\n\t}\n", y->idx,
			    y->name);
		}
		vbuf_cat(tl, &out, "\treturn (r);\n}\n");
	}
	/* Objects go before what they may use, newest first. */
	for (y = p->objs; y != NULL; y = y->next)
		vbuf_printf(tl, &objfini, "\t\tif (vgc_obj_%u != NULL)\n"
		    "\t\t\tvmod_%s_%s__fini(&vgc_obj_%u);\n", y->idx,
		    y->cls->init.mod, y->cls->init.name, y->idx);
	vbuf_printf(tl, &out, "\nstatic int\nvgc_event(VRT_CTX, enum "
	    "vcl_event ev)\n{\n\n\t(void)ctx;\n"
	    "\tif (ev == VCL_EVENT_LOAD) {\n%s\t\treturn (0);\n\t}\n"
	    "\tif (ev == VCL_EVENT_DISCARD) {\n%s%s%s\t\treturn (0);\n\t}\n"
	    "\treturn (0);\n}\n", p->load.s != NULL ? p->load.s : "",
	    objfini.s != NULL ? objfini.s : "",
	    p->privfini.s != NULL ? p->privfini.s : "",
	    p->discard.s != NULL ? p->discard.s : "");
	vbuf_cat(tl, &out, "\nstatic const char * const vgc_labels[] = {\n");
	for (u = 0; u < p->nlabels; u++)
		vbuf_printf(tl, &out, "\t%s,\n", vcc_cstr(tl, p->labels[u]));
	vbuf_cat(tl, &out, "\tNULL\n};\n");
	vbuf_printf(tl, &out, "\nconst struct vcl_conf VCL_conf = {\n"
	    "\t.magic = VCL_CONF_MAGIC,\n"
	    "\t.vrt_major = VRT_MAJOR_VERSION,\n"
	    "\t.vrt_minor = VRT_MINOR_VERSION,\n"
	    "\t.name = %s,\n\t.event = vgc_event,\n"
	    "\t.default_director = &vgc_be_%u,\n"
	    "\t.prof_points = vgc_prof,\n\t.nprof_points = %u,\n",
	    vcc_cstr(tl, p->mainname), p->default_be->idx,
	    (unsigned)NMETHS + p->nprof);
	for (u = 0; u < NMETHS; u++)
		vbuf_printf(tl, &out, "\t.%s_method = vgc_method_%s,\n",
		    vcc_meths[u].field, vcc_meths[u].field);
	vbuf_printf(tl, &out, "\t.labels = vgc_labels,\n"
	    "\t.nlabels = %u,\n", p->nlabels);
	vbuf_cat(tl, &out, "};\n");
	r = strdup(out.s);
	return (r);
}

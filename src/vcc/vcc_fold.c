/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_fold.c -- constant expressions computed by the compiler, so the
 * C holds their value (-p vcc_optimize): "a" + "b" is one literal,
 * "x" == "x" is true, 2 * 30 is 60, !true is false, true || x is true.
 * Only what gives exactly the value C would compute at run time: INT
 * arithmetic that does not overflow, REAL and DURATION in double, string
 * comparisons with strcmp's sign, regex tests with the PCRE2 the runtime
 * uses.  Everything else is left to the C compiler or to run time.
 */

#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "vcc/vcc_comp.h"

static int
fold_on(const struct vcc *tl)
{

	return (tl->opts->optimize);
}

static struct expr *
fold_bool(struct vcc *tl, const struct token *t0, int v)
{
	struct expr *e;

	e = e_new(tl, V_BOOL, t0, "%d", v ? 1 : 0);
	e->constant = 1;
	e->isnum = 1;
	e->num = v ? 1 : 0;
	return (e);
}

static struct expr *
fold_num(struct vcc *tl, enum vtype t, const struct token *t0, double v)
{
	struct expr *e;

	if (t == V_INT)
		e = e_new(tl, t, t0, "((VCL_INT)%.0f)", v);
	else
		e = e_new(tl, t, t0, "((VCL_%s)%.17g)", t == V_REAL ? "REAL" :
		    "DURATION", v);
	e->constant = 1;
	e->isnum = 1;
	e->num = v;
	return (e);
}

static int
fold_numeric(const struct expr *e)
{

	return (e->constant && e->isnum &&
	    (e->t == V_INT || e->t == V_REAL || e->t == V_DURATION));
}

/* a op b with op one of + - * / and rt the result type; NULL: not now. */
struct expr *
FOLD_Arith(struct vcc *tl, const struct expr *a, const struct expr *b,
    const struct token *op, enum vtype rt)
{
	long long x, y, r;
	double d;

	if (!fold_on(tl) || !fold_numeric(a) || !fold_numeric(b))
		return (NULL);
	if (rt == V_INT) {
		if (a->t != V_INT || b->t != V_INT)
			return (NULL);
		x = (long long)a->num;
		y = (long long)b->num;
		switch (*op->b) {
		case '+':
			if (__builtin_add_overflow(x, y, &r))
				return (NULL);
			break;
		case '-':
			if (__builtin_sub_overflow(x, y, &r))
				return (NULL);
			break;
		case '*':
			if (__builtin_mul_overflow(x, y, &r))
				return (NULL);
			break;
		default:
			if (y == 0 || (x == LLONG_MIN && y == -1))
				return (NULL);
			r = *op->b == '%' ? x % y : x / y;
			break;
		}
		/* Past 2^53 the value would not survive the double. */
		if (r > (1LL << 53) || r < -(1LL << 53))
			return (NULL);
		return (fold_num(tl, V_INT, op, (double)r));
	}
	if ((rt != V_REAL && rt != V_DURATION) || *op->b == '%')
		return (NULL);
	switch (*op->b) {
	case '+': d = a->num + b->num; break;
	case '-': d = a->num - b->num; break;
	case '*': d = a->num * b->num; break;
	default:
		if (b->num == 0)
			return (NULL);
		/* INT / INT is C's integer division: not this branch. */
		d = a->num / b->num;
		break;
	}
	if (!isfinite(d))
		return (NULL);
	return (fold_num(tl, rt, op, d));
}

struct expr *
FOLD_Neg(struct vcc *tl, const struct expr *e, const struct token *op)
{

	if (!fold_on(tl) || !fold_numeric(e))
		return (NULL);
	return (fold_num(tl, e->t, op, -e->num));
}

static int
fold_cmp(int c, const char *op)
{

	if (!strcmp(op, "=="))
		return (c == 0);
	if (!strcmp(op, "!="))
		return (c != 0);
	if (!strcmp(op, "<"))
		return (c < 0);
	if (!strcmp(op, ">"))
		return (c > 0);
	if (!strcmp(op, "<="))
		return (c <= 0);
	return (c >= 0);
}

/* Two constant strings, or two constant numbers of comparable types. */
struct expr *
FOLD_Cmp(struct vcc *tl, const struct expr *a, const struct expr *b,
    const struct token *op, const char *cop)
{
	int c;

	if (!fold_on(tl) || !a->constant || !b->constant)
		return (NULL);
	if (a->t == V_STRING && b->t == V_STRING) {
		if (a->lit == NULL || b->lit == NULL)
			return (NULL);
		c = strcmp(a->lit, b->lit);
		return (fold_bool(tl, op, fold_cmp(c, cop)));
	}
	if (!a->isnum || !b->isnum)
		return (NULL);
	c = a->num < b->num ? -1 : a->num > b->num ? 1 : 0;
	return (fold_bool(tl, op, fold_cmp(c, cop)));
}

/* "literal" ~ "pattern", answered as the runtime would. */
struct expr *
FOLD_Match(struct vcc *tl, const struct expr *a, const char *pat, int neg,
    const struct token *op)
{
	pcre2_code *re;
	pcre2_match_data *md;
	PCRE2_SIZE off;
	int err, rc;

	if (!fold_on(tl) || !a->constant || a->lit == NULL)
		return (NULL);
	re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &err,
	    &off, NULL);
	if (re == NULL)
		return (NULL);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	if (md == NULL) {
		pcre2_code_free(re);
		return (NULL);
	}
	rc = pcre2_match(re, (PCRE2_SPTR)a->lit, strlen(a->lit), 0, 0, md,
	    NULL);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH)
		return (NULL);
	return (fold_bool(tl, op, (rc >= 0) != (neg != 0)));
}

struct expr *
FOLD_Not(struct vcc *tl, const struct expr *e, const struct token *op)
{

	if (!fold_on(tl) || e->t != V_BOOL || !e->constant || !e->isnum)
		return (NULL);
	return (fold_bool(tl, op, e->num == 0));
}

/*
 * a && b, a || b with a constant: the left side decides or drops out
 * (the right one is still checked by the parser; it would not have run).
 * A constant right side is left to cc: the left one must still run.
 */
struct expr *
FOLD_Logic(struct vcc *tl, struct expr *a, struct expr *b, int isand,
    const struct token *op)
{

	if (!fold_on(tl) || a->t != V_BOOL || !a->constant || !a->isnum)
		return (NULL);
	if ((a->num != 0) == (isand != 0))
		return (b);
	return (fold_bool(tl, op, a->num != 0));
}

/*
 * The pieces of a + b: two literals side by side become one C literal
 * ("a" "b" is one string to C), so the strands are fewer; two constant
 * strings make a constant string.
 */
void
FOLD_Concat(struct vcc *tl, struct expr *e, const struct expr *a,
    const struct expr *b)
{
	unsigned u, n = 0;

	for (u = 0; u < a->npcs; u++)
		e->pcs[n++] = a->pcs[u];
	for (u = 0; u < b->npcs; u++) {
		if (fold_on(tl) && n > 0 && e->pcs[n - 1][0] == '"' &&
		    b->pcs[u][0] == '"') {
			e->pcs[n - 1] = cat3(tl, e->pcs[n - 1], " ",
			    b->pcs[u]);
			continue;
		}
		e->pcs[n++] = b->pcs[u];
	}
	e->npcs = n;
	e->c = e->pcs[0];
	if (fold_on(tl) && a->constant && b->constant && a->lit != NULL &&
	    b->lit != NULL) {
		e->constant = 1;
		e->lit = cat3(tl, a->lit, b->lit, "");
	} else {
		e->constant = 0;
		e->lit = NULL;
	}
}

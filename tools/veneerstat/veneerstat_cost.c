/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneerstat_cost.c -- the VCL profile (veneerd -p vcl_profile=on) as
 * one row per method, condition and call, costliest first: the screen's
 * cost view.  The VCLP.<vcl> counters come in twos and threes named
 * <prefix>.calls or .evals, .true (conditions) and .ns; the description
 * of each starts with where the point is and what it is, then ": " and
 * what that counter counts.  A method's time holds everything it ran,
 * so the conditions and calls come first (what to look at), the
 * methods after them.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "veneerstat.h"

struct vcost_col {
	unsigned		magic;
#define VCOST_COL_MAGIC		0x39e4c0d5
	struct vstat_cost	*rows;
	unsigned		n, cap;
	int			oom;
};

static struct vstat_cost *
vcost_row(struct vcost_col *col, const char *key, size_t klen)
{
	struct vstat_cost *r;
	unsigned u, cap;

	/* Counters of a point are listed together: look back a little. */
	for (u = col->n; u > 0 && u + 4 > col->n; u--) {
		r = &col->rows[u - 1];
		if (strlen(r->key) == klen && !strncmp(r->key, key, klen))
			return (r);
	}
	if (col->n == col->cap) {
		cap = col->cap == 0 ? 64 : 2 * col->cap;
		r = realloc(col->rows, cap * sizeof *r);
		if (r == NULL)
			return (NULL);
		col->rows = r;
		col->cap = cap;
	}
	r = &col->rows[col->n];
	memset(r, 0, sizeof *r);
	r->key = strndup(key, klen);
	if (r->key == NULL)
		return (NULL);
	/* VCLP.<vcl>.<sub>.<NNN> is a point, VCLP.<vcl>.<sub> a method. */
	key = strrchr(r->key, '.');
	r->method = key == NULL || strspn(key + 1, "0123456789") !=
	    strlen(key + 1);
	col->n++;
	return (r);
}

static int
vcost_collect(void *priv, const struct vapi_counter *c)
{
	struct vcost_col *col;
	struct vstat_cost *r;
	const char *dot, *colon;

	CAST_OBJ_NOTNULL(col, priv, VCOST_COL_MAGIC);
	if (strncmp(c->name, "VCLP.", 5))
		return (0);
	dot = strrchr(c->name, '.');
	if (dot == NULL || dot == c->name + 4)
		return (0);
	r = vcost_row(col, c->name, (size_t)(dot - c->name));
	if (r == NULL) {
		col->oom = 1;
		return (1);
	}
	if (r->where == NULL && c->oneliner != NULL) {
		colon = strstr(c->oneliner, ": ");
		r->where = colon == NULL ? strdup(c->oneliner) :
		    strndup(c->oneliner, (size_t)(colon - c->oneliner));
	}
	if (!strcmp(dot, ".calls") || !strcmp(dot, ".evals"))
		r->runs = VSTAT_Value(c);
	else if (!strcmp(dot, ".true")) {
		r->trues = VSTAT_Value(c);
		r->cond = 1;
	} else if (!strcmp(dot, ".ns"))
		r->ns = VSTAT_Value(c);
	return (0);
}

static int
vcost_cmp(const void *a, const void *b)
{
	const struct vstat_cost *ra = a, *rb = b;

	if (ra->method != rb->method)
		return (ra->method - rb->method);
	if (ra->ns != rb->ns)
		return (ra->ns > rb->ns ? -1 : 1);
	return (strcmp(ra->key, rb->key));
}

unsigned
VSTAT_Cost(struct vapi *vd, struct vstat_cost **rowsp)
{
	struct vcost_col col;

	INIT_OBJ(&col, VCOST_COL_MAGIC);
	(void)VAPI_Counters(vd, vcost_collect, &col);
	if (col.oom) {
		VSTAT_CostFree(col.rows, col.n);
		*rowsp = NULL;
		return (0);
	}
	if (col.n > 1)
		qsort(col.rows, col.n, sizeof *col.rows, vcost_cmp);
	*rowsp = col.rows;
	return (col.n);
}

void
VSTAT_CostFree(struct vstat_cost *rows, unsigned n)
{
	unsigned u;

	for (u = 0; u < n; u++) {
		free(rows[u].key);
		free(rows[u].where);
	}
	free(rows);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneerstat_prom.c -- veneerstat -p: the counters in the Prometheus
 * text exposition format (version 0.0.4), for node_exporter's textfile
 * collector or any scraper.
 *
 * Names: veneer_<group>_<counter>, the group lower-cased.  What sits
 * between the group and the counter in a full name becomes labels:
 * VBE.<vcl>.<backend>.req is veneer_backend_req{vcl,backend},
 * SMA.<stv>.g_bytes veneer_sma_g_bytes{stv}, LCK.<lock>.* {lock},
 * MEMPOOL.<pool>.* {pool}, anything else {id}.  A metric family's
 * samples must be contiguous, under one HELP and TYPE, so samples are
 * collected and grouped by family, in the order families first appear.
 */

#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "veneerstat.h"

struct vprom_sample {
	char			*family;
	char			*labels;	/* "" or "{a=\"b\",...}" */
	const char		*help;		/* the counter's, for now */
	const char		*type;
	uint64_t		value;
	unsigned		order;
	unsigned		forder;		/* first of its family */
};

struct vprom {
	unsigned		magic;
#define VPROM_MAGIC		0x0d3b61e9
	struct vprom_sample	*s;
	unsigned		n;
	unsigned		cap;
	int			oom;
};

/* Group-specific label names for the middle of a full name. */
static const struct vprom_group {
	const char		*group;
	const char		*family;
	const char		*label;
} vprom_groups[] = {
	{ "VBE",	"backend",	NULL },		/* vcl, backend */
	{ "SMA",	"sma",		"stv" },
	{ "SMF",	"smf",		"stv" },
	{ "SMU",	"smu",		"stv" },
	{ "MSE",	"mse",		"stv" },
	{ "LCK",	"lck",		"lock" },
	{ "MEMPOOL",	"mempool",	"pool" },
};

/* A growing string; on failure it stays NULL. */
struct vprom_buf {
	char			*b;
	size_t			len;
	size_t			cap;
};

static void
vprom_add(struct vprom_buf *vb, const char *s, size_t l)
{
	char *nb;

	if (vb->cap == (size_t)-1)
		return;
	if (vb->len + l + 1 > vb->cap) {
		vb->cap = (vb->len + l + 1) * 2;
		nb = realloc(vb->b, vb->cap);
		if (nb == NULL) {
			free(vb->b);
			vb->b = NULL;
			vb->cap = (size_t)-1;
			return;
		}
		vb->b = nb;
	}
	memcpy(vb->b + vb->len, s, l);
	vb->len += l;
	vb->b[vb->len] = '\0';
}

static void
vprom_adds(struct vprom_buf *vb, const char *s)
{

	vprom_add(vb, s, strlen(s));
}

/* [b, e) as metric name characters: [a-zA-Z0-9_], others '_'. */
static void
vprom_add_name(struct vprom_buf *vb, const char *b, const char *e,
    int lower)
{
	char c;

	for (; b < e; b++) {
		c = *b;
		if (!isalnum((unsigned char)c) || (unsigned char)c >= 0x80)
			c = '_';
		else if (lower)
			c = (char)tolower((unsigned char)c);
		vprom_add(vb, &c, 1);
	}
}

/* name="value", the value escaped. */
static void
vprom_add_label(struct vprom_buf *vb, const char *name, const char *b,
    const char *e)
{

	vprom_adds(vb, vb->len > 0 ? "," : "{");
	vprom_adds(vb, name);
	vprom_adds(vb, "=\"");
	for (; b < e; b++) {
		if (*b == '\\')
			vprom_adds(vb, "\\\\");
		else if (*b == '"')
			vprom_adds(vb, "\\\"");
		else if (*b == '\n')
			vprom_adds(vb, "\\n");
		else
			vprom_add(vb, b, 1);
	}
	vprom_adds(vb, "\"");
}

/* Family and labels of a full name: GROUP[.middle].counter. */
static int
vprom_split(const char *name, char **family, char **labels)
{
	struct vprom_buf fb = { NULL, 0, 0 }, lb = { NULL, 0, 0 };
	const struct vprom_group *g = NULL;
	const char *dot1, *dotn, *mb, *me, *d;
	unsigned u;

	dot1 = strchr(name, '.');
	dotn = strrchr(name, '.');
	vprom_adds(&fb, "veneer_");
	if (dot1 != NULL) {
		for (u = 0; u < sizeof vprom_groups / sizeof *vprom_groups;
		    u++)
			if (strlen(vprom_groups[u].group) ==
			    (size_t)(dot1 - name) && !strncmp(name,
			    vprom_groups[u].group, (size_t)(dot1 - name)))
				g = &vprom_groups[u];
		if (g != NULL)
			vprom_adds(&fb, g->family);
		else
			vprom_add_name(&fb, name, dot1, 1);
		vprom_adds(&fb, "_");
		mb = dot1 + 1;
		me = dotn;
		if (me > mb && g != NULL && g->label == NULL) {
			/* VBE.<vcl>.<backend>: a backend may hold dots. */
			d = memchr(mb, '.', (size_t)(me - mb));
			if (d != NULL) {
				vprom_add_label(&lb, "vcl", mb, d);
				mb = d + 1;
			}
			vprom_add_label(&lb, "backend", mb, me);
		} else if (me > mb) {
			vprom_add_label(&lb, g != NULL ? g->label : "id", mb,
			    me);
		}
		if (lb.len > 0)
			vprom_adds(&lb, "}");
		name = dotn + 1;
	}
	vprom_add_name(&fb, name, name + strlen(name), 0);
	if (lb.b == NULL && lb.cap != (size_t)-1)
		vprom_adds(&lb, "");
	*family = fb.b;
	*labels = lb.b;
	if (fb.b == NULL || lb.b == NULL) {
		free(fb.b);
		free(lb.b);
		return (-1);
	}
	return (0);
}

static int
vprom_collect(void *priv, const struct vapi_counter *c)
{
	struct vprom *vp = priv;
	struct vprom_sample *s;
	unsigned cap;

	CHECK_OBJ(vp, VPROM_MAGIC);
	if (vp->n == vp->cap) {
		cap = vp->cap == 0 ? 256 : vp->cap * 2;
		s = realloc(vp->s, cap * sizeof *s);
		if (s == NULL) {
			vp->oom = 1;
			return (1);
		}
		vp->s = s;
		vp->cap = cap;
	}
	s = &vp->s[vp->n];
	memset(s, 0, sizeof *s);
	if (vprom_split(c->name, &s->family, &s->labels) != 0) {
		vp->oom = 1;
		return (1);
	}
	s->help = c->oneliner;
	switch (VSTAT_Flag(c)) {
	case 'c': s->type = "counter"; break;
	case 'g': s->type = "gauge"; break;
	case 'b': s->type = "gauge"; break;
	default: s->type = "untyped"; break;
	}
	s->value = VSTAT_Value(c);
	s->order = vp->n++;
	return (0);
}

static int
vprom_by_family(const void *a, const void *b)
{
	const struct vprom_sample *sa = a, *sb = b;
	int r;

	r = strcmp(sa->family, sb->family);
	if (r != 0)
		return (r);
	return (sa->order < sb->order ? -1 : sa->order > sb->order);
}

static int
vprom_by_forder(const void *a, const void *b)
{
	const struct vprom_sample *sa = a, *sb = b;

	if (sa->forder != sb->forder)
		return (sa->forder < sb->forder ? -1 : 1);
	return (sa->order < sb->order ? -1 : sa->order > sb->order);
}

static void
vprom_help(FILE *fo, const char *s)
{

	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\\\", fo);
		else if (*s == '\n')
			fputs("\\n", fo);
		else
			fputc(*s, fo);
	}
}

int
VSTAT_Prometheus(struct vapi *vd, FILE *fo)
{
	struct vprom vp;
	struct vprom_sample *s;
	unsigned u, first = 0;

	INIT_OBJ(&vp, VPROM_MAGIC);
	(void)VAPI_Counters(vd, vprom_collect, &vp);
	if (vp.oom) {
		fprintf(stderr, "veneerstat: out of memory\n");
		for (u = 0; u < vp.n; u++) {
			free(vp.s[u].family);
			free(vp.s[u].labels);
		}
		free(vp.s);
		return (-1);
	}
	if (vp.n > 0) {
		qsort(vp.s, vp.n, sizeof *vp.s, vprom_by_family);
		for (u = 0; u < vp.n; u++) {
			if (u == 0 || strcmp(vp.s[u].family,
			    vp.s[u - 1].family) != 0)
				first = vp.s[u].order;
			vp.s[u].forder = first;
		}
		qsort(vp.s, vp.n, sizeof *vp.s, vprom_by_forder);
	}
	for (u = 0; u < vp.n; u++) {
		s = &vp.s[u];
		if (u == 0 || s->forder != vp.s[u - 1].forder) {
			fprintf(fo, "# HELP %s ", s->family);
			vprom_help(fo, s->help);
			fprintf(fo, "\n# TYPE %s %s\n", s->family, s->type);
		}
		fprintf(fo, "%s%s %ju\n", s->family, s->labels,
		    (uintmax_t)s->value);
	}
	for (u = 0; u < vp.n; u++) {
		free(vp.s[u].family);
		free(vp.s[u].labels);
	}
	free(vp.s);
	return (ferror(fo) ? -1 : 0);
}

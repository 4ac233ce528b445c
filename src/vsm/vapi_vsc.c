/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_vsc.c -- the counters (VSC): Stat segments paired with their
 * StatDoc by doc id, the JSON parsed (doc/vsm-format.md section 3), and
 * the filters of VAPI_CounterFilter.  Owns the filters and, hung on each
 * segment through VSMR_SetPriv, the parsed documents and counter lists,
 * which live as long as their segment: parsing happens once per segment.
 *
 * More forgiving than Varnish 7.1, which aborts: a Stat without its doc
 * is skipped until the doc appears, a document that does not parse or
 * an element missing its name or index gives no counters, and missing
 * descriptive keys read as "".
 */

#include "config.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "vsm/vapi_json.h"
#include "vsm/vapi_vsm.h"

#define VSC_HEAD		24	/* ready, pad, body_offset, doc_id */
#define VSC_MAX_DOC		(64U << 20)
#define VSC_READY_WAIT		0.1	/* seconds, for a ready flag of 0 */

/* One element of a document. */
struct vsc_delem {
	const char		*name;
	const char		*type;
	const char		*level;
	const char		*format;
	const char		*oneliner;
	const char		*docs;
	uint64_t		index;
};

/* A parsed StatDoc segment. */
struct vsc_doc {
	unsigned		magic;
#define VSC_DOC_MAGIC		0x19a4e6c2
	uint64_t		id;
	struct vjson		*json;		/* owns the strings */
	unsigned		n;
	struct vsc_delem	*elem;
};

/* A Stat segment's counters. */
struct vsc_stat {
	unsigned		magic;
#define VSC_STAT_MAGIC		0x8d27c0f3
	struct vsmr_seg		*docseg;	/* one ref; its doc owns the
						   strings of ctr */
	const int32_t		*ready;		/* in the mapping */
	unsigned		n;
	struct vapi_counter	*ctr;
	char			*names;		/* "IDENT.name"s of ctr */
};

struct vsc_filter {
	char			*glob;
	unsigned		exclude;
};

struct vsc {
	unsigned		magic;
#define VSC_MAGIC		0x4f0e8ab1
	struct vsc_filter	*filter;
	unsigned		nfilter;
	unsigned		ninclude;
};

/* What the segment head says; -1 if it is too short or inconsistent. */
static int
vsc_head(const void *b, const void *e, int32_t *ready, const char **body,
    uint64_t *id)
{
	size_t len = (size_t)((const char *)e - (const char *)b);
	uint64_t off;

	if (len < VSC_HEAD)
		return (-1);
	*ready = __atomic_load_n((const int32_t *)b, __ATOMIC_ACQUIRE);
	memcpy(&off, (const char *)b + 8, sizeof off);
	memcpy(id, (const char *)b + 16, sizeof *id);
	if (off < VSC_HEAD || off > len)
		return (-1);
	*body = (const char *)b + off;
	return (0);
}

/* A segment's ready flag, waiting (within *budget seconds) while 0. */
static int32_t
vsc_ready(const void *b, double *budget)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	int32_t r;

	for (;;) {
		r = __atomic_load_n((const int32_t *)b, __ATOMIC_ACQUIRE);
		if (r != 0 || *budget <= 0)
			return (r);
		(void)nanosleep(&ts, NULL);
		*budget -= 0.005;
	}
}

/*--------------------------------------------------------------------
 * Documents.
 */

static void
vsc_doc_free(struct vapi *vd, void *priv)
{
	struct vsc_doc *doc;

	(void)vd;
	CAST_OBJ_NOTNULL(doc, priv, VSC_DOC_MAGIC);
	VJSON_Free(&doc->json);
	free(doc->elem);
	FREE_OBJ(doc);
}

static const char *
vsc_str(const struct vjson *obj, const char *key)
{
	const struct vjson *j;

	j = VJSON_Member(obj, key);
	if (j == NULL || j->type != VJSON_STRING)
		return ("");
	return (j->str);
}

/* The elements of a parsed document with a name and an index. */
static void
vsc_doc_elems(struct vsc_doc *doc)
{
	const struct vjson *elem, *j, *nm;
	struct vsc_delem *de;
	unsigned n = 0;

	elem = VJSON_Member(doc->json, "elem");
	if (elem == NULL || elem->type != VJSON_OBJECT)
		return;
	for (j = elem->child; j != NULL; j = j->next)
		n++;
	if (n == 0)
		return;
	doc->elem = calloc(n, sizeof *doc->elem);
	if (doc->elem == NULL)
		return;
	for (j = elem->child; j != NULL; j = j->next) {
		if (j->type != VJSON_OBJECT)
			continue;
		de = &doc->elem[doc->n];
		nm = VJSON_Member(j, "name");
		de->name = nm != NULL && nm->type == VJSON_STRING ?
		    nm->str : j->key;
		if (de->name == NULL || *de->name == '\0' ||
		    VJSON_Uint(VJSON_Member(j, "index"), &de->index) != 0)
			continue;
		de->type = vsc_str(j, "type");
		de->level = vsc_str(j, "level");
		de->format = vsc_str(j, "format");
		de->oneliner = vsc_str(j, "oneliner");
		de->docs = vsc_str(j, "docs");
		doc->n++;
	}
}

/* The parsed document of a StatDoc segment; NULL if not (yet) usable. */
static struct vsc_doc *
vsc_doc_get(struct vapi *vd, struct vsmr_seg *seg, double *budget)
{
	struct vsc_doc *doc;
	const void *b, *e;
	const char *body, *nul;
	int32_t ready;
	uint64_t id;

	doc = VSMR_GetPriv(seg);
	if (doc != NULL) {
		CHECK_OBJ(doc, VSC_DOC_MAGIC);
		return (doc);
	}
	if (VSMR_Map(vd, seg, &b, &e) != 0 ||
	    vsc_head(b, e, &ready, &body, &id) != 0 ||
	    vsc_ready(b, budget) == 0)
		return (NULL);
	ALLOC_OBJ(doc, VSC_DOC_MAGIC);
	if (doc == NULL)
		return (NULL);
	doc->id = id;
	nul = memchr(body, '\0', (size_t)((const char *)e - body));
	if (nul == NULL)
		nul = e;		/* Truncated: the parser says so. */
	if ((size_t)(nul - body) <= VSC_MAX_DOC)
		doc->json = VJSON_Parse(body, (size_t)(nul - body), NULL, 0);
	if (doc->json != NULL)
		vsc_doc_elems(doc);
	/* A bad document is kept too, with no elements: parsed once. */
	VSMR_SetPriv(seg, doc, vsc_doc_free);
	return (doc);
}

/*--------------------------------------------------------------------
 * Counter groups (Stat segments).
 */

static void
vsc_stat_free(struct vapi *vd, void *priv)
{
	struct vsc_stat *st;

	CAST_OBJ_NOTNULL(st, priv, VSC_STAT_MAGIC);
	if (st->docseg != NULL)
		VSMR_Deref(vd, &st->docseg);
	free(st->ctr);
	free(st->names);
	FREE_OBJ(st);
}

/* The counters of st from the document: those inside the segment. */
static int
vsc_stat_fill(struct vsc_stat *st, const struct vsc_doc *doc,
    const char *ident, const char *body, const char *e)
{
	const struct vsc_delem *de;
	struct vapi_counter *c;
	size_t nsz = 0, bodylen = (size_t)(e - body), l;
	char *q;
	unsigned u;

	if (doc->n == 0)
		return (0);
	for (u = 0; u < doc->n; u++)
		nsz += strlen(ident) + strlen(doc->elem[u].name) + 2;
	st->ctr = calloc(doc->n, sizeof *st->ctr);
	st->names = malloc(nsz);
	if (st->ctr == NULL || st->names == NULL)
		return (-1);
	q = st->names;
	for (u = 0; u < doc->n; u++) {
		de = &doc->elem[u];
		/* Aligned and inside the body, or not shown. */
		if (de->index % 8 != 0 || de->index > bodylen ||
		    bodylen - de->index < 8)
			continue;
		c = &st->ctr[st->n++];
		l = strlen(ident) + strlen(de->name) + 2;
		if (*ident != '\0')
			(void)snprintf(q, l, "%s.%s", ident, de->name);
		else
			(void)snprintf(q, l, "%s", de->name);
		c->name = q;
		q += l;
		c->type = de->type;
		c->level = de->level;
		c->format = de->format;
		c->oneliner = de->oneliner;
		c->docs = de->docs;
		c->value = (const volatile uint64_t *)(const volatile void *)
		    (body + de->index);
	}
	return (0);
}

/* The first StatDoc with this id, parsed. */
static struct vsmr_seg *
vsc_find_doc(struct vapi *vd, uint64_t id, double *budget,
    struct vsc_doc **docp)
{
	struct vsmr_seg *seg;
	struct vsc_doc *doc;

	for (seg = VSMR_Next(vd, NULL); seg != NULL;
	    seg = VSMR_Next(vd, seg)) {
		if (strcmp(VSMR_Class(seg), "StatDoc") != 0)
			continue;
		doc = vsc_doc_get(vd, seg, budget);
		if (doc != NULL && doc->id == id) {
			*docp = doc;
			return (seg);
		}
	}
	return (NULL);
}

/* The counters of a Stat segment; NULL if not (yet) usable. */
static struct vsc_stat *
vsc_stat_get(struct vapi *vd, struct vsmr_seg *seg, double *budget)
{
	struct vsc_stat *st;
	struct vsc_doc *doc = NULL;
	struct vsmr_seg *docseg;
	const void *b, *e;
	const char *body;
	int32_t ready;
	uint64_t id;

	st = VSMR_GetPriv(seg);
	if (st != NULL) {
		CHECK_OBJ(st, VSC_STAT_MAGIC);
		return (st);
	}
	if (VSMR_Map(vd, seg, &b, &e) != 0 ||
	    vsc_head(b, e, &ready, &body, &id) != 0 ||
	    vsc_ready(b, budget) == 0)
		return (NULL);
	docseg = vsc_find_doc(vd, id, budget, &doc);
	if (docseg == NULL)
		return (NULL);		/* Perhaps later. */
	ALLOC_OBJ(st, VSC_STAT_MAGIC);
	if (st == NULL)
		return (NULL);
	st->ready = b;
	if (vsc_stat_fill(st, doc, VSMR_Ident(seg), body, e) != 0) {
		vsc_stat_free(vd, st);
		return (NULL);
	}
	VSMR_Ref(docseg);
	st->docseg = docseg;
	VSMR_SetPriv(seg, st, vsc_stat_free);
	return (st);
}

/*--------------------------------------------------------------------
 * Filters and iteration.
 */

static struct vsc *
vsc_get(struct vapi *vd)
{
	void **slot = VSMR_VscSlot(vd);
	struct vsc *vsc;

	if (*slot == NULL) {
		ALLOC_OBJ(vsc, VSC_MAGIC);
		*slot = vsc;
		return (vsc);
	}
	CAST_OBJ_NOTNULL(vsc, *slot, VSC_MAGIC);
	return (vsc);
}

void
VSMR_VscFree(struct vapi *vd)
{
	void **slot = VSMR_VscSlot(vd);
	struct vsc *vsc;
	unsigned u;

	if (*slot == NULL)
		return;
	CAST_OBJ_NOTNULL(vsc, *slot, VSC_MAGIC);
	*slot = NULL;
	for (u = 0; u < vsc->nfilter; u++)
		free(vsc->filter[u].glob);
	free(vsc->filter);
	FREE_OBJ(vsc);
}

int
VAPI_CounterFilter(struct vapi *vd, const char *glob)
{
	struct vsc *vsc;
	struct vsc_filter *f;
	unsigned exclude = 0;

	if (glob != NULL && *glob == '^') {
		exclude = 1;
		glob++;
	}
	if (glob == NULL || *glob == '\0')
		return (-1);
	vsc = vsc_get(vd);
	if (vsc == NULL)
		return (-1);
	f = realloc(vsc->filter, (vsc->nfilter + 1) * sizeof *f);
	if (f == NULL)
		return (-1);
	vsc->filter = f;
	f = &vsc->filter[vsc->nfilter];
	f->glob = strdup(glob);
	if (f->glob == NULL)
		return (-1);
	f->exclude = exclude;
	vsc->nfilter++;
	if (!exclude)
		vsc->ninclude++;
	return (0);
}

/* The first matching filter decides; none matching: only if no
 * filter includes. */
static int
vsc_pass(const struct vsc *vsc, const char *name)
{
	unsigned u;

	if (vsc == NULL)
		return (1);
	for (u = 0; u < vsc->nfilter; u++)
		if (fnmatch(vsc->filter[u].glob, name, 0) == 0)
			return (!vsc->filter[u].exclude);
	return (vsc->ninclude == 0);
}

/*
 * Every visible counter (all of them with all set), in order.  func's
 * non-zero return stops and is returned.
 */
static int
vsc_iter(struct vapi *vd, unsigned all, vapi_counter_f *func, void *priv)
{
	const struct vsc *vsc = all ? NULL : *VSMR_VscSlot(vd);
	struct vsmr_seg *seg;
	struct vsc_stat *st;
	double budget = VSC_READY_WAIT;
	unsigned u;
	int r;

	VSMR_Refresh(vd);
	for (seg = VSMR_Next(vd, NULL); seg != NULL;
	    seg = VSMR_Next(vd, seg)) {
		if (strcmp(VSMR_Class(seg), "Stat") != 0)
			continue;
		st = vsc_stat_get(vd, seg, &budget);
		if (st == NULL)
			continue;
		/* 2 is hidden (a cold VCL's backends): shown when asked by
		 * name only. */
		if (!all && __atomic_load_n(st->ready, __ATOMIC_ACQUIRE) == 2)
			continue;
		for (u = 0; u < st->n; u++) {
			if (!vsc_pass(vsc, st->ctr[u].name))
				continue;
			r = func(priv, &st->ctr[u]);
			if (r != 0)
				return (r);
		}
	}
	return (0);
}

int
VAPI_Counters(struct vapi *vd, vapi_counter_f *func, void *priv)
{

	assert(func != NULL);
	return (vsc_iter(vd, 0, func, priv));
}

struct vsc_lookup {
	unsigned		magic;
#define VSC_LOOKUP_MAGIC	0x2b8e5d17
	const char		*name;
	uint64_t		*value;
};

static int
vsc_get_one(void *priv, const struct vapi_counter *c)
{
	struct vsc_lookup *g;

	CAST_OBJ_NOTNULL(g, priv, VSC_LOOKUP_MAGIC);
	if (strcmp(c->name, g->name) != 0)
		return (0);
	*g->value = *c->value;
	return (1);
}

int
VAPI_CounterGet(struct vapi *vd, const char *name, uint64_t *value)
{
	struct vsc_lookup g;

	assert(name != NULL);
	assert(value != NULL);
	INIT_OBJ(&g, VSC_LOOKUP_MAGIC);
	g.name = name;
	g.value = value;
	return (vsc_iter(vd, 1, vsc_get_one, &g) == 1 ? 0 : -1);
}

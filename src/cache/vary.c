/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vary.c -- variant blobs and the per-objhead variant index (vary.h).
 * An objhead's index holds its distinct specs (name sets) and a chained
 * hash table of its variants keyed by a seeded hash of their values, so
 * a lookup costs one probe per spec, however many variants there are.
 * Everything here but VRY_Build and VRY_Match runs under the objhead's
 * shard lock.
 */

#include "config.h"

#include <sys/random.h>

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/hash.h"
#include "cache/http.h"
#include "cache/obj.h"
#include "cache/vary.h"
#include "cache/ws.h"

#define VRY_MINBUCKETS	16

struct vry_spec {
	unsigned		magic;
#define VRY_SPEC_MAGIC		0x29c3d07a
	unsigned		refcnt;		/* variants using it */
	uint64_t		seed;		/* hash of the names */
	size_t			names_len;	/* with the final NUL */
	struct vry_spec		*next;
	char			buf[];		/* the names */
};

struct vry_index {
	unsigned		magic;
#define VRY_INDEX_MAGIC		0x5f0e88b1
	struct vry_spec		*specs;
	unsigned		mask;		/* buckets - 1 */
	unsigned		n;		/* variants */
	struct objcore		**tbl;
};

/* A per-process secret: clients cannot aim values at one bucket. */
static uint64_t vry_secret;

void
VRY_Init(void)
{

	if (getrandom(&vry_secret, sizeof vry_secret, 0) !=
	    (ssize_t)sizeof vry_secret)
		vry_secret = (uint64_t)(uintptr_t)&vry_secret ^ 0x9e3779b97f4a7c15ULL;
}

static uint64_t
vry_hash(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	h ^= vry_secret;
	while (len-- > 0) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return (h ^ (h >> 29));
}

size_t
VRY_NamesLen(const char *blob)
{
	const char *p = blob;

	while (*p != '\0')
		p += strlen(p) + 1;
	return ((size_t)(p - blob) + 1);
}

/*
 * Order of a Vary name (lowercase, NUL-terminated) against a header's
 * name (hl bytes before its colon, any case), in the order the names
 * were sorted by RFC_VaryNames: bytes lowercased by TXT_Lower, as it
 * does, and a name that is a prefix of another first.  The colon takes
 * no part: "accept" sorts before "accept-encoding" although ':' sorts
 * after '-'.
 */
static int
vry_cmp_name(const char *name, const char *hn, size_t hl)
{
	size_t i;
	int c;

	for (i = 0; i < hl && name[i] != '\0'; i++) {
		c = (int)(unsigned char)name[i] -
		    (int)(unsigned char)TXT_Lower(hn[i]);
		if (c != 0)
			return (c);
	}
	if (i < hl)
		return (-1);
	return (name[i] != '\0' ? 1 : 0);
}

/* Index of the header line's name in the sorted nv[n], or -1. */
static int
vry_find(const char * const *nv, unsigned n, const struct txt *line)
{
	const char *colon;
	unsigned lo = 0, hi = n, mid;
	int c;

	colon = memchr(line->b, ':', TXT_LEN(*line));
	if (colon == NULL)
		return (-1);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = vry_cmp_name(nv[mid], line->b, (size_t)(colon - line->b));
		if (c == 0)
			return ((int)mid);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (-1);
}

/* Per Vary'd name: its first and last header slots (0: absent). */
struct vry_slots {
	uint16_t		first;
	uint16_t		last;
};

/*
 * The values: every line of a name, in the order the lines came, joined
 * with ", " as RFC 9110 5.3 combines them.  Lines flagged hop-by-hop are
 * not part of the request the backend sees, so they are not either.
 */
ssize_t
VRY_Build(struct ws *ws, const struct http *hp, const char *names,
    char **blobp)
{
	const char **nv;
	struct vry_slots *sl;
	uint16_t *next;
	struct txt v;
	size_t nl = VRY_NamesLen(names), l, avail, ln;
	unsigned n = 0, u, w;
	const char *p;
	char *b;
	int i, ae = -1;

	CHECK_OBJ(hp, HTTP_MAGIC);
	for (p = names; *p != '\0'; p += strlen(p) + 1)
		n++;
	nv = WS_Alloc(ws, n * sizeof *nv + 1);
	sl = WS_Alloc(ws, n * sizeof *sl + 1);
	next = WS_Alloc(ws, (size_t)hp->nhd * sizeof *next);
	if (nv == NULL || sl == NULL || next == NULL)
		return (-1);
	for (p = names, u = 0; *p != '\0'; p += strlen(p) + 1, u++) {
		nv[u] = p;
		sl[u].first = sl[u].last = 0;
	}
	/*
	 * With http_gzip_support, Accept-Encoding reads as absent: every
	 * client gets the one (gzip'd) object, uncompressed for those that
	 * want it, as in Varnish (which skips it when comparing; done here,
	 * the variant index keeps one probe per spec).
	 */
	if (cache_param != NULL && cache_param->http_gzip_support)
		for (u = 0; u < n; u++)
			if (!strcasecmp(nv[u], "Accept-Encoding"))
				ae = (int)u;
	/* One pass over the headers, a binary search for each; chain them. */
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++) {
		next[u] = 0;
		if (hp->hd[u].b == NULL || (hp->hdf[u] & HDF_FILTER))
			continue;
		i = vry_find(nv, n, &hp->hd[u]);
		if (i < 0 || i == ae)
			continue;
		if (sl[i].first == 0)
			sl[i].first = (uint16_t)u;
		else
			next[sl[i].last] = (uint16_t)u;
		sl[i].last = (uint16_t)u;
	}
	avail = WS_ReserveAll(ws);
	b = WS_Reservation(ws);
	if (nl > avail)
		goto overflow;
	memcpy(b, names, nl);
	l = nl;
	for (u = 0; u < n; u++) {
		if (sl[u].first == 0)
			continue;
		ln = strlen(nv[u]) + 1;
		if (l + ln > avail)
			goto overflow;
		memcpy(b + l, nv[u], ln);
		l += ln;
		for (w = sl[u].first; w != 0; w = next[w]) {
			v = HTTP_HdrValue(hp, w);
			if (l + TXT_LEN(v) + 3 > avail)
				goto overflow;
			if (w != sl[u].first) {
				b[l++] = ',';
				b[l++] = ' ';
			}
			memcpy(b + l, v.b, TXT_LEN(v));
			l += TXT_LEN(v);
		}
		b[l++] = '\0';
	}
	WS_Release(ws, l);
	*blobp = b;
	return ((ssize_t)l);
overflow:
	WS_Release(ws, 0);
	return (-1);
}

int
VRY_Match(const struct http *req, const char *blob, size_t len)
{
	char buf[256];
	struct ws ws[1];
	char *mine;
	ssize_t l;
	void *mem;
	size_t sz;
	unsigned u;
	int r;

	/* Rare (requests that waited on a fetch): take our own scratch. */
	sz = 16 * len + 256 + 2 * (size_t)req->nhd;
	for (u = HTTP_HDR_FIRST; u < req->nhd; u++)
		if (req->hd[u].b != NULL)
			sz += TXT_LEN(req->hd[u]) + 2;
	mem = sz <= sizeof buf ? buf : malloc(sz);
	if (mem == NULL)
		return (0);
	WS_Init(ws, "vry", mem, sz);
	l = VRY_Build(ws, req, blob, &mine);
	r = l >= 0 && (size_t)l == len && !memcmp(mine, blob, len);
	if (mem != buf)
		free(mem);
	return (r);
}

/*--------------------------------------------------------------------
 * The index
 */

/* The index key: 32 bits are plenty, the values are compared anyway. */
static uint32_t
vry_key(const struct vry_spec *spec, const char *blob, size_t len)
{
	uint64_t h;

	h = vry_hash(spec->seed, blob + spec->names_len, len - spec->names_len);
	return ((uint32_t)(h ^ (h >> 32)));
}

static void
vry_grow(struct vry_index *vi)
{
	struct objcore **tbl, *oc, *next;
	unsigned u, b, mask = vi->mask * 2 + 1;

	tbl = calloc((size_t)mask + 1, sizeof *tbl);
	if (tbl == NULL)
		return;		/* longer chains, still correct */
	for (u = 0; u <= vi->mask; u++) {
		for (oc = vi->tbl[u]; oc != NULL; oc = next) {
			next = oc->vary_next;
			b = (unsigned)oc->vary_key & mask;
			oc->vary_next = tbl[b];
			tbl[b] = oc;
		}
	}
	free(vi->tbl);
	vi->tbl = tbl;
	vi->mask = mask;
}

static struct vry_spec *
vry_spec_get(struct vry_index *vi, const char *blob)
{
	struct vry_spec *spec;
	size_t nl = VRY_NamesLen(blob);

	for (spec = vi->specs; spec != NULL; spec = spec->next)
		if (spec->names_len == nl && !memcmp(spec->buf, blob, nl))
			return (spec);
	ALLOC_OBJ_EXTRA(spec, nl, VRY_SPEC_MAGIC);
	if (spec == NULL)
		return (NULL);
	memcpy(spec->buf, blob, nl);
	spec->names_len = nl;
	spec->seed = vry_hash(0xcbf29ce484222325ULL, blob, nl);
	spec->next = vi->specs;
	vi->specs = spec;
	return (spec);
}

int
VRY_Insert_locked(struct objhead *oh, struct objcore *oc,
    vry_each_f *replaced, void *priv)
{
	struct vry_index *vi = oh->vidx;
	struct vry_spec *spec;
	struct objcore *oc2, *next;
	unsigned b;

	HSH_AssertLocked(oh);
	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ(oc->obj, OBJECT_MAGIC);
	assert(OBJ_Vary(oc->obj) != NULL);
	if (vi == NULL) {
		ALLOC_OBJ(vi, VRY_INDEX_MAGIC);
		if (vi == NULL)
			return (-1);
		vi->tbl = calloc(VRY_MINBUCKETS, sizeof *vi->tbl);
		if (vi->tbl == NULL) {
			FREE_OBJ(vi);
			return (-1);
		}
		vi->mask = VRY_MINBUCKETS - 1;
		oh->vidx = vi;
	}
	spec = vry_spec_get(vi, OBJ_Vary(oc->obj));
	if (spec == NULL)
		return (-1);
	spec->refcnt++;
	oc->vary_spec = spec;
	oc->vary_key = vry_key(spec, OBJ_Vary(oc->obj), oc->obj->vary_len);
	b = (unsigned)oc->vary_key & vi->mask;
	for (oc2 = vi->tbl[b]; oc2 != NULL; oc2 = next) {
		next = oc2->vary_next;
		if (oc2->vary_key == oc->vary_key && oc2->vary_spec == spec &&
		    oc2->obj->vary_len == oc->obj->vary_len &&
		    !memcmp(OBJ_Vary(oc2->obj), OBJ_Vary(oc->obj),
		    oc->obj->vary_len))
			(void)replaced(priv, oc2);
	}
	oc->vary_next = vi->tbl[b];
	vi->tbl[b] = oc;
	if (++vi->n > 2 * (vi->mask + 1))
		vry_grow(vi);
	return (0);
}

void
VRY_Remove_locked(struct objhead *oh, struct objcore *oc)
{
	struct vry_index *vi = oh->vidx;
	struct vry_spec *spec, **sp;
	struct objcore **pp;

	HSH_AssertLocked(oh);
	CHECK_OBJ(vi, VRY_INDEX_MAGIC);
	spec = oc->vary_spec;
	CHECK_OBJ(spec, VRY_SPEC_MAGIC);
	for (pp = &vi->tbl[(unsigned)oc->vary_key & vi->mask]; *pp != oc;
	    pp = &(*pp)->vary_next)
		assert(*pp != NULL);
	*pp = oc->vary_next;
	oc->vary_next = NULL;
	oc->vary_spec = NULL;
	vi->n--;
	if (--spec->refcnt > 0)
		return;
	for (sp = &vi->specs; *sp != spec; sp = &(*sp)->next)
		assert(*sp != NULL);
	*sp = spec->next;
	FREE_OBJ(spec);
}

void
VRY_Fini_locked(struct objhead *oh)
{
	struct vry_index *vi = oh->vidx;

	HSH_AssertLocked(oh);
	if (vi == NULL)
		return;
	assert(vi->n == 0 && vi->specs == NULL);
	oh->vidx = NULL;
	free(vi->tbl);
	FREE_OBJ(vi);
}

int
VRY_Lookup_locked(struct objhead *oh, const struct http *req, struct ws *ws,
    vry_each_f *func, void *priv, uint32_t *hint)
{
	struct vry_index *vi = oh->vidx;
	struct vry_spec *spec;
	struct objcore *oc, *next;
	uintptr_t snap;
	uint32_t key;
	ssize_t l;
	char *blob;
	int r = 0;

	HSH_AssertLocked(oh);
	*hint = 0;
	if (vi == NULL)
		return (0);
	snap = WS_Snapshot(ws);
	for (spec = vi->specs; spec != NULL && r == 0; spec = spec->next) {
		l = VRY_Build(ws, req, spec->buf, &blob);
		if (l < 0) {
			*hint = 0;	/* unknown: wait as if it matched */
			break;		/* no room to compare: a miss */
		}
		key = vry_key(spec, blob, (size_t)l);
		*hint = ((*hint ^ key) * 0x9e3779b1U) | 1;
		for (oc = vi->tbl[(unsigned)key & vi->mask];
		    oc != NULL && r == 0; oc = next) {
			next = oc->vary_next;
			if (oc->vary_key == key && oc->vary_spec == spec &&
			    oc->obj->vary_len == (size_t)l &&
			    !memcmp(OBJ_Vary(oc->obj), blob, (size_t)l))
				r = func(priv, oc);
		}
		WS_Reset(ws, snap);
	}
	WS_Reset(ws, snap);
	return (r);
}

void
VRY_Each_locked(struct objhead *oh, vry_each_f *func, void *priv)
{
	struct vry_index *vi = oh->vidx;
	struct objcore *oc, *next;
	unsigned u;

	HSH_AssertLocked(oh);
	if (vi == NULL)
		return;
	for (u = 0; u <= vi->mask; u++)
		for (oc = vi->tbl[u]; oc != NULL; oc = next) {
			next = oc->vary_next;
			(void)func(priv, oc);
		}
}

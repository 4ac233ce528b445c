/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * relit.c -- sets of literals matched by one Aho-Corasick automaton
 * (issue 13).  A VCL User-Agent test alternating 120 brand names made
 * PCRE2 try up to 120 alternatives at each offset of the subject; the
 * automaton reads each byte once, whatever the number of literals.
 *
 * Compiling: the pattern is parsed into literals, each with its anchors
 * (^, $, both or none); bytes are mapped to classes (the bytes the
 * literals use, one class for all the others, A-Z with a-z under (?i));
 * a trie of the literals becomes a full DFA (failure links folded into
 * the table).  States whose suffixes end an unanchored literal are
 * numbered last, so the inner loop tests one comparison per byte.  ^
 * literals are found by staying on the trie's path from the subject's
 * first byte; $ literals by the state at the end, or before a final
 * "\n" as PCRE2's $ allows.
 *
 * Nothing here is shared or locked: a struct relit is read only after
 * RELIT_Compile returns, by any number of threads.
 */

#include "config.h"

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/relit.h"

/* A bigger pattern is left to PCRE2: its table would not pay. */
#define RELIT_MAX_BYTES		(64 * 1024)
#define RELIT_MAX_CELLS		(1U << 21)

/* Anchors of a literal. */
#define RELIT_A_START		1U	/* ^lit */
#define RELIT_A_END		2U	/* lit$ */

/* State flags. */
#define RELIT_F_TERM_S		1U	/* ends a ^lit (on the trie's path) */
#define RELIT_F_TERM_B		2U	/* ends a ^lit$ (on the trie's path) */
#define RELIT_F_OUT_E		4U	/* a suffix ends a lit$ */
#define RELIT_F_OUT_U		8U	/* a suffix ends a lit */

struct relit {
	unsigned		magic;
#define RELIT_MAGIC		0x5b1e27c3
	unsigned		always;		/* matches every subject */
	unsigned		has_start;	/* some ^lit or ^lit$ */
	unsigned		has_end;	/* some lit$ */
	unsigned		nclass;
	unsigned		nstate;
	uint32_t		thr;		/* first OUT_U state * nclass */
	size_t			maxstart;	/* longest ^lit, ^lit$ */
	size_t			maxend;		/* longest lit$ */
	unsigned		has_any;	/* some unanchored lit */
	unsigned		nskip;		/* 1 or 2: bytes out of root */
	unsigned char		skip[2];
	uint32_t		*delta;		/* [state * nclass + class] */
	uint8_t			*flags;		/* [state] */
	uint32_t		*depth;		/* [state]: its trie depth */
	uint8_t			cls[256];
	/*
	 * When every literal is unanchored and two bytes or more: a bitmap
	 * of their first two bytes (folded), 8 KB that stay in the L1
	 * cache where a large table does not.  The search looks up each
	 * pair of subject bytes and walks the table only from where a
	 * literal can start (lead's addition: under load a 120-brand
	 * table walked over every byte of a User-Agent missed the cache).
	 */
	uint8_t			*pair;
	uint8_t			fold[256];
	char			desc[96];
};

/* The literals while parsing. */
struct relit_lit {
	size_t			off;		/* in rp->buf */
	size_t			len;
	unsigned		anchors;
};

struct relit_parse {
	const char		*p;
	const char		*pattern;
	int			caseless;
	unsigned char		*buf;		/* every literal's bytes */
	size_t			buflen;
	size_t			bufcap;
	struct relit_lit	*lit;
	size_t			nlit;
	size_t			litcap;
	char			*why;
	size_t			whylen;
	/* Scratch, each the pattern's length: prefix, alternative, suffix */
	unsigned char		*pre;
	unsigned char		*mid;
	unsigned char		*suf;
};

static int
relit_refuse(struct relit_parse *rp, const char *what)
{

	if (rp->why != NULL && rp->whylen > 0)
		(void)snprintf(rp->why, rp->whylen, "%s at offset %zu", what,
		    (size_t)(rp->p - rp->pattern));
	return (-1);
}

static int
relit_is_meta(unsigned char c)
{

	return (c != '\0' && strchr("\\^$.[|()?*+{", c) != NULL);
}

/*
 * The next literal byte at rp->p: 1 (taken, in *c), 0 at the end or a
 * metacharacter (not taken), -1 (refused) at an escape that is not a
 * plain character.  \ before a character that is neither a letter nor
 * a digit means that character in PCRE2; only ASCII punctuation and
 * space are taken here.
 */
static int
relit_char(struct relit_parse *rp, unsigned char *c)
{
	const unsigned char *p = (const unsigned char *)rp->p;

	if (*p == '\0')
		return (0);
	if (*p != '\\') {
		if (relit_is_meta(*p))
			return (0);
		*c = *p;
		rp->p++;
		return (1);
	}
	if (p[1] == ' ' || (p[1] > ' ' && p[1] < 0x7f &&
	    !(p[1] >= '0' && p[1] <= '9') && !(p[1] >= 'a' && p[1] <= 'z') &&
	    !(p[1] >= 'A' && p[1] <= 'Z'))) {
		*c = p[1];
		rp->p += 2;
		return (1);
	}
	return (relit_refuse(rp, "escape other than \\ and punctuation"));
}

/* Literal bytes at rp->p into b: their number, or -1 (refused). */
static ssize_t
relit_run(struct relit_parse *rp, unsigned char *b)
{
	unsigned char c;
	ssize_t n = 0;
	int i;

	while ((i = relit_char(rp, &c)) == 1)
		b[n++] = c;
	return (i < 0 ? -1 : n);
}

static int
relit_grow(void **p, size_t *cap, size_t need, size_t size)
{
	void *n;
	size_t c;

	if (need <= *cap)
		return (0);
	c = *cap < 16 ? 16 : *cap;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * size);
	if (n == NULL)
		return (-1);
	*p = n;
	*cap = c;
	return (0);
}

/* One literal: pre + mid + suf with anchors. */
static int
relit_add(struct relit_parse *rp, size_t plen, size_t mlen, size_t slen,
    unsigned anchors)
{
	struct relit_lit *l;
	unsigned char *b;
	size_t len, i;

	len = plen + mlen + slen;
	if (rp->buflen + len > RELIT_MAX_BYTES)
		return (relit_refuse(rp, "more than 64 KB of literals"));
	if (relit_grow((void **)&rp->buf, &rp->bufcap, rp->buflen + len + 1,
	    1) != 0 || relit_grow((void **)&rp->lit, &rp->litcap,
	    rp->nlit + 1, sizeof *rp->lit) != 0)
		return (relit_refuse(rp, "out of memory"));
	b = rp->buf + rp->buflen;
	memcpy(b, rp->pre, plen);
	memcpy(b + plen, rp->mid, mlen);
	memcpy(b + plen + mlen, rp->suf, slen);
	/* PCRE2's default tables fold A-Z and a-z only (no UTF). */
	if (rp->caseless)
		for (i = 0; i < len; i++)
			if (b[i] >= 'A' && b[i] <= 'Z')
				b[i] += 'a' - 'A';
	l = &rp->lit[rp->nlit++];
	l->off = rp->buflen;
	l->len = len;
	l->anchors = anchors;
	rp->buflen += len;
	return (0);
}

/*
 * The alternatives of a group, from rp->p (after its opening) to its
 * ")": checked, and with emit set added as pre + each + suf.  *caret
 * and *dollar say whether some alternative had ^ or $.
 */
static int
relit_group(struct relit_parse *rp, int emit, size_t plen, size_t slen,
    unsigned anchors, int *caret, int *dollar)
{
	unsigned a;
	ssize_t n;

	for (;;) {
		a = anchors;
		if (*rp->p == '^') {
			*caret = 1;
			a |= RELIT_A_START;
			rp->p++;
		}
		n = relit_run(rp, rp->mid);
		if (n < 0)
			return (-1);
		if (*rp->p == '$') {
			*dollar = 1;
			a |= RELIT_A_END;
			rp->p++;
		}
		if (emit && relit_add(rp, plen, (size_t)n, slen, a) != 0)
			return (-1);
		if (*rp->p == ')')
			return (0);
		if (*rp->p != '|')
			return (relit_refuse(rp, *rp->p == '(' ?
			    "nested group" : *rp->p == '\0' ?
			    "unclosed group" : "not a literal"));
		rp->p++;
	}
}

/* One top-level alternative: [^]pre[(group)suf][$], then | or the end. */
static int
relit_alt(struct relit_parse *rp)
{
	const char *group;
	unsigned anchors = 0;
	ssize_t plen, slen = 0;
	int caret = 0, dollar = 0;

	if (*rp->p == '^') {
		anchors |= RELIT_A_START;
		rp->p++;
	}
	plen = relit_run(rp, rp->pre);
	if (plen < 0)
		return (-1);
	group = NULL;
	if (*rp->p == '(') {
		rp->p++;
		if (*rp->p == '?') {
			if (rp->p[1] != ':')
				return (relit_refuse(rp,
				    "group other than ( and (?:"));
			rp->p += 2;
		}
		group = rp->p;
		if (relit_group(rp, 0, 0, 0, 0, &caret, &dollar) != 0)
			return (-1);
		rp->p++;
		slen = relit_run(rp, rp->suf);
		if (slen < 0)
			return (-1);
		if (caret && plen > 0)
			return (relit_refuse(rp, "^ after a literal"));
		if (dollar && slen > 0)
			return (relit_refuse(rp, "$ before a literal"));
	}
	if (*rp->p == '$') {
		anchors |= RELIT_A_END;
		rp->p++;
	}
	if (*rp->p != '\0' && *rp->p != '|')
		return (relit_refuse(rp, *rp->p == '(' ? "second group" :
		    "not a literal"));
	if (group == NULL)
		return (relit_add(rp, (size_t)plen, 0, 0, anchors));
	rp->p = group;
	if (relit_group(rp, 1, (size_t)plen, (size_t)slen, anchors, &caret,
	    &dollar) != 0)
		return (-1);
	/* Back past the group, the suffix and the $ already checked. */
	rp->p++;
	(void)relit_run(rp, rp->suf);
	if (*rp->p == '$')
		rp->p++;
	return (0);
}

static int
relit_parse(struct relit_parse *rp)
{

	if (!strncmp(rp->p, "(?i)", 4)) {
		rp->caseless = 1;
		rp->p += 4;
	}
	for (;;) {
		if (relit_alt(rp) != 0)
			return (-1);
		if (*rp->p == '\0')
			return (0);
		assert(*rp->p == '|');
		rp->p++;
	}
}

/* The byte classes: one per byte the literals use, 0 for the others. */
static void
relit_classes(struct relit *r, const struct relit_parse *rp)
{
	uint8_t used[256];
	size_t i;
	unsigned c;

	memset(used, 0, sizeof used);
	for (i = 0; i < rp->buflen; i++)
		used[rp->buf[i]] = 1;
	r->nclass = 1;
	memset(r->cls, 0, sizeof r->cls);
	for (c = 0; c < 256; c++)
		if (used[c])
			r->cls[c] = (uint8_t)r->nclass++;
	if (rp->caseless)
		for (c = 'A'; c <= 'Z'; c++)
			r->cls[c] = r->cls[c + 'a' - 'A'];
}

/*
 * The trie in g (0: no edge, as no edge leads to the root), its flags
 * and depths; the number of nodes.
 */
static uint32_t
relit_trie(const struct relit *r, const struct relit_parse *rp,
    uint32_t *g, uint8_t *fl, uint32_t *depth)
{
	const struct relit_lit *l;
	uint32_t n = 1, u, *e;
	size_t i, j;

	for (i = 0; i < rp->nlit; i++) {
		l = &rp->lit[i];
		u = 0;
		for (j = 0; j < l->len; j++) {
			e = &g[u * r->nclass + r->cls[rp->buf[l->off + j]]];
			if (*e == 0) {
				depth[n] = depth[u] + 1;
				*e = n++;
			}
			u = *e;
		}
		switch (l->anchors) {
		case 0:			fl[u] |= RELIT_F_OUT_U; break;
		case RELIT_A_START:	fl[u] |= RELIT_F_TERM_S; break;
		case RELIT_A_END:	fl[u] |= RELIT_F_OUT_E; break;
		default:		fl[u] |= RELIT_F_TERM_B; break;
		}
	}
	return (n);
}

/*
 * Failure links folded into g, breadth first, so a node's failure
 * state is complete before the node is.  The order is left in q.
 */
static void
relit_fail(const struct relit *r, uint32_t *g, uint8_t *fl, uint32_t n,
    uint32_t *q, uint32_t *fail)
{
	uint32_t head = 0, tail = 0, u, v, c, nc = r->nclass;

	q[tail++] = 0;
	fail[0] = 0;
	while (head < tail) {
		u = q[head++];
		for (c = 0; c < nc; c++) {
			/* Rows are filled as they leave q: edges only. */
			v = g[u * nc + c];
			if (v == 0) {
				/* No edge: where the failure state goes. */
				if (u != 0)
					g[u * nc + c] = g[fail[u] * nc + c];
				continue;
			}
			fail[v] = u == 0 ? 0 : g[fail[u] * nc + c];
			fl[v] |= fl[fail[v]] & (RELIT_F_OUT_U | RELIT_F_OUT_E);
			q[tail++] = v;
		}
	}
	assert(tail == n);
}

/* Renumber (OUT_U states last) into r; the root must not be OUT_U. */
static int
relit_table(struct relit *r, const uint32_t *g, const uint8_t *fl,
    const uint32_t *depth, uint32_t n, const uint32_t *q, uint32_t *id)
{
	uint32_t i, k = 0, c, nc = r->nclass;

	for (i = 0; i < n; i++)
		if (!(fl[q[i]] & RELIT_F_OUT_U))
			id[q[i]] = k++;
	r->thr = k * nc;
	for (i = 0; i < n; i++)
		if (fl[q[i]] & RELIT_F_OUT_U)
			id[q[i]] = k++;
	assert(id[0] == 0);
	r->nstate = n;
	r->delta = malloc(sizeof *r->delta * n * nc);
	r->flags = malloc(n);
	r->depth = malloc(sizeof *r->depth * n);
	if (r->delta == NULL || r->flags == NULL || r->depth == NULL)
		return (-1);
	for (i = 0; i < n; i++) {
		r->flags[id[i]] = fl[i];
		r->depth[id[i]] = depth[i];
		for (c = 0; c < nc; c++)
			r->delta[id[i] * nc + c] = id[g[i * nc + c]] * nc;
	}
	return (0);
}

/* The automaton for rp's literals into r. */
static int
relit_build(struct relit *r, struct relit_parse *rp)
{
	uint32_t *g, *depth, *q, *fail, *id, n, maxn;
	uint8_t *fl;
	int ret = -1;

	relit_classes(r, rp);
	maxn = (uint32_t)rp->buflen + 1;
	if ((size_t)maxn * r->nclass > RELIT_MAX_CELLS)
		return (relit_refuse(rp, "too many literal bytes for a table"));
	g = calloc((size_t)maxn * r->nclass, sizeof *g);
	depth = calloc(maxn, sizeof *depth);
	q = calloc(maxn, sizeof *q);
	fail = malloc(maxn * sizeof *fail);
	id = calloc(maxn, sizeof *id);
	fl = calloc(maxn, 1);
	if (g == NULL || depth == NULL || q == NULL || fail == NULL ||
	    id == NULL || fl == NULL) {
		(void)relit_refuse(rp, "out of memory");
		goto out;
	}
	n = relit_trie(r, rp, g, fl, depth);
	relit_fail(r, g, fl, n, q, fail);
	/* An empty literal that matches anywhere: no table needed. */
	if (fl[0] & (RELIT_F_OUT_U | RELIT_F_TERM_S | RELIT_F_OUT_E)) {
		r->always = 1;
		ret = 0;
		goto out;
	}
	if (relit_table(r, g, fl, depth, n, q, id) != 0) {
		(void)relit_refuse(rp, "out of memory");
		goto out;
	}
	ret = 0;
out:
	free(g);
	free(depth);
	free(q);
	free(fail);
	free(id);
	free(fl);
	return (ret);
}

static void
relit_describe(struct relit *r, const struct relit_parse *rp)
{
	static const char * const anch[4] = { "unanchored",
	    "anchored at start", "anchored at end", "anchored at both ends" };
	unsigned seen = 0;
	size_t i;

	for (i = 0; i < rp->nlit; i++)
		seen |= 1U << rp->lit[i].anchors;
	(void)snprintf(r->desc, sizeof r->desc, "%zu literal%s, %s%s, %s",
	    rp->nlit, rp->nlit == 1 ? "" : "s",
	    (seen & (seen - 1)) != 0 ? "mixed anchors" :
	    anch[__builtin_ctz(seen)], rp->caseless ? ", caseless" : "",
	    r->always ? "matches everything" : "");
	if (!r->always)
		(void)snprintf(strchr(r->desc, '\0'),
		    sizeof r->desc - strlen(r->desc), "%u states", r->nstate);
}

/*
 * The bytes that leave the root, when one or two: memchr() finds them
 * faster than the table walks the bytes that do not (as in "utm_").
 */
static void
relit_skip(struct relit *r)
{
	unsigned c;

	r->nskip = 0;
	for (c = 0; c < 256; c++) {
		if (r->delta[r->cls[c]] == 0)
			continue;
		if (r->nskip == 2) {
			r->nskip = 0;
			return;
		}
		r->skip[r->nskip++] = (unsigned char)c;
	}
}

static void
relit_pairs(struct relit *r, const struct relit_parse *rp)
{
	const unsigned char *b;
	unsigned c, k;
	size_t i;

	for (i = 0; i < rp->nlit; i++)
		if (rp->lit[i].len < 2)
			return;
	for (c = 0; c < 256; c++)
		r->fold[c] = (uint8_t)(rp->caseless && c >= 'A' && c <= 'Z' ?
		    c - 'A' + 'a' : c);
	r->pair = calloc(65536 / 8, 1);
	if (r->pair == NULL)
		return;			/* The table alone still answers. */
	for (i = 0; i < rp->nlit; i++) {
		b = rp->buf + rp->lit[i].off;
		k = (unsigned)r->fold[b[0]] << 8 | r->fold[b[1]];
		r->pair[k >> 3] |= (uint8_t)(1U << (k & 7));
	}
}

struct relit *
RELIT_Compile(const char *pattern, char *why, size_t whylen)
{
	struct relit_parse rp[1];
	struct relit *r = NULL;
	size_t len;

	assert(pattern != NULL);
	memset(rp, 0, sizeof rp);
	rp->p = rp->pattern = pattern;
	rp->why = why;
	rp->whylen = whylen;
	if (why != NULL && whylen > 0)
		why[0] = '\0';
	len = strlen(pattern) + 1;
	rp->pre = malloc(len);
	rp->mid = malloc(len);
	rp->suf = malloc(len);
	if (rp->pre == NULL || rp->mid == NULL || rp->suf == NULL) {
		(void)relit_refuse(rp, "out of memory");
		goto out;
	}
	if (relit_parse(rp) != 0)
		goto out;
	assert(rp->nlit > 0);
	ALLOC_OBJ(r, RELIT_MAGIC);
	if (r == NULL) {
		(void)relit_refuse(rp, "out of memory");
		goto out;
	}
	if (relit_build(r, rp) != 0) {
		RELIT_Free(&r);
		goto out;
	}
	for (len = 0; len < rp->nlit; len++) {
		if (rp->lit[len].anchors & RELIT_A_START) {
			r->has_start = 1;
			if (rp->lit[len].len > r->maxstart)
				r->maxstart = rp->lit[len].len;
		} else if (rp->lit[len].anchors & RELIT_A_END) {
			r->has_end = 1;
			if (rp->lit[len].len > r->maxend)
				r->maxend = rp->lit[len].len;
		} else {
			r->has_any = 1;
		}
	}
	if (!r->always)
		relit_skip(r);
	/* One or two first bytes: memchr() is quicker than pairs. */
	if (!r->always && !r->has_start && !r->has_end && r->nskip == 0)
		relit_pairs(r, rp);
	relit_describe(r, rp);
out:
	free(rp->pre);
	free(rp->mid);
	free(rp->suf);
	free(rp->buf);
	free(rp->lit);
	return (r);
}

/* A ^lit, ^lit$ or lit$ ending k bytes in, in state st? */
static int
relit_check(const struct relit *r, uint32_t st, size_t k, const char *s,
    size_t len, int on_path)
{
	unsigned f = r->flags[st / r->nclass];
	int at_end;

	at_end = k == len || (k + 1 == len && s[k] == '\n');
	if (on_path && (f & RELIT_F_TERM_S))
		return (1);
	if (at_end && (f & RELIT_F_OUT_E))
		return (1);
	return (on_path && at_end && (f & RELIT_F_TERM_B));
}

/*
 * The table walk of [k, b) in *st, jumping with memchr() over bytes
 * that keep the root in the root.  b, or SIZE_MAX for a match.
 */
static size_t
relit_skipping(const struct relit *r, const unsigned char *p, size_t k,
    size_t b, uint32_t *st)
{
	const unsigned char *q, *q2;

	for (; k < b; k++) {
		if (*st == 0) {
			q = memchr(p + k, r->skip[0], b - k);
			if (r->nskip == 2) {
				q2 = memchr(p + k, r->skip[1],
				    (size_t)((q != NULL ? q : p + b) -
				    (p + k)));
				if (q2 != NULL)
					q = q2;
			}
			if (q == NULL)
				return (b);
			k = (size_t)(q - p);
		}
		*st = r->delta[*st + r->cls[p[k]]];
		if (*st >= r->thr)
			return (SIZE_MAX);
	}
	return (b);
}

/* Unanchored literals, from the places the pair bitmap allows. */
static int
relit_match_pairs(const struct relit *r, const unsigned char *p, size_t len)
{
	uint32_t st;
	size_t i, j;
	unsigned k;

	for (i = 0; i + 1 < len; i++) {
		k = (unsigned)r->fold[p[i]] << 8 | r->fold[p[i + 1]];
		if ((r->pair[k >> 3] & (1U << (k & 7))) == 0)
			continue;
		/* On the trie's path from i: a literal starting at i. */
		for (st = 0, j = i; j < len; j++) {
			st = r->delta[st + r->cls[p[j]]];
			if (st >= r->thr)
				return (1);
			if (r->depth[st / r->nclass] != j - i + 1)
				break;
		}
	}
	return (0);
}

int
RELIT_Match(const struct relit *r, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const uint32_t *d;
	const uint8_t *cls;
	uint32_t st = 0, thr;
	size_t k, a, b;
	int on = 1;

	CHECK_OBJ(r, RELIT_MAGIC);
	assert(s != NULL || len == 0);
	if (r->always)
		return (1);
	if (r->pair != NULL)
		return (relit_match_pairs(r, p, len));
	d = r->delta;
	cls = r->cls;
	thr = r->thr;
	/*
	 * Bytes [0, a) may end a ^ literal, [b, len) a $ one: each step
	 * there checks them; in between only unanchored literals count.
	 */
	a = r->has_start ? (r->maxstart < len ? r->maxstart : len) : 0;
	b = !r->has_end ? len : len >= 2 ? len - 2 : 0;
	if (b < a)
		b = a;
	if (relit_check(r, st, 0, s, len, on))
		return (1);
	for (k = 0; k < a; k++) {
		st = d[st + cls[p[k]]];
		if (st >= thr)
			return (1);
		on = on && r->depth[st / r->nclass] == k + 1;
		if (relit_check(r, st, k + 1, s, len, on))
			return (1);
	}
	if (!r->has_any) {
		/* Only $ literals are left: the last bytes will do. */
		if (!r->has_end)
			return (0);
		if (len > r->maxend + 1 && len - r->maxend - 1 > k) {
			k = len - r->maxend - 1;
			st = 0;
		}
	}
	if (r->nskip > 0)
		k = relit_skipping(r, p, k, b, &st);
	if (k == SIZE_MAX)
		return (1);
	for (; k < b; k++) {
		st = d[st + cls[p[k]]];
		if (st >= thr)
			return (1);
	}
	if (b > a)
		on = 0;
	for (; k < len; k++) {
		st = d[st + cls[p[k]]];
		if (st >= thr)
			return (1);
		on = on && r->depth[st / r->nclass] == k + 1;
		if (relit_check(r, st, k + 1, s, len, on))
			return (1);
	}
	return (0);
}

const char *
RELIT_Describe(const struct relit *r)
{

	CHECK_OBJ(r, RELIT_MAGIC);
	return (r->desc);
}

void
RELIT_Free(struct relit **rp)
{
	struct relit *r;

	assert(rp != NULL);
	r = *rp;
	*rp = NULL;
	if (r == NULL)
		return;
	CHECK_OBJ(r, RELIT_MAGIC);
	free(r->delta);
	free(r->flags);
	free(r->depth);
	free(r->pair);
	FREE_OBJ(r);
}

/*
 * The end of the token at p[i] (an escape, a class, one byte), or 0
 * when simplifying must stop: where a lone . or * may not be what it
 * seems (\Q quoting, (?#comments), (?x) comments, a class holding [),
 * where the whole pattern can be re-entered (recursion, \g), where
 * backtracking verbs make a leading .* matter, or at a syntax error.
 */
static size_t
relit_token(const char *p, size_t i)
{
	size_t j;

	if (p[i] == '\\') {
		if (p[i + 1] == '\0' || p[i + 1] == 'Q' || p[i + 1] == 'g')
			return (0);
		if (p[i + 1] == 'c')	/* \c takes any next byte */
			return (p[i + 2] == '\0' ? 0 : i + 3);
		return (i + 2);
	}
	if (p[i] == '[') {
		j = i + 1;
		if (p[j] == '^')
			j++;
		if (p[j] == ']')	/* first, ] is a member */
			j++;
		for (; p[j] != ']'; j++) {
			if (p[j] == '\0' || p[j] == '[')
				return (0);
			if (p[j] != '\\')
				continue;
			if (p[j + 1] == '\0' || p[j + 1] == 'Q')
				return (0);
			j += p[j + 1] == 'c' && p[j + 2] != '\0' ? 2 : 1;
		}
		return (j + 1);
	}
	if (p[i] == '(' && p[i + 1] == '*')
		return (0);
	if (p[i] == '(' && p[i + 1] == '?') {
		j = i + 2;
		if (p[j] == 'R' || p[j] == '&' || p[j] == '#' || p[j] == '+' ||
		    (p[j] >= '0' && p[j] <= '9') ||
		    (p[j] == '-' && p[j + 1] >= '0' && p[j + 1] <= '9') ||
		    (p[j] == 'P' && p[j + 1] == '>'))
			return (0);
		for (; p[j] == '^' || p[j] == '-' || (p[j] >= 'a' &&
		    p[j] <= 'z') || (p[j] >= 'A' && p[j] <= 'Z'); j++)
			if (p[j] == 'x')
				return (0);
	}
	return (i + 1);
}

char *
RELIT_Simplify(const char *pattern)
{
	size_t *tok, ntok, lead, start, end, len, i, j, m;
	char *s = NULL;

	assert(pattern != NULL);
	len = strlen(pattern);
	tok = malloc((len + 1) * sizeof *tok);
	if (tok == NULL)
		return (NULL);
	ntok = 0;
	for (i = 0; pattern[i] != '\0'; i = j) {
		j = relit_token(pattern, i);
		if (j == 0)
			goto out;
		tok[ntok++] = i;
	}
	tok[ntok] = len;
	lead = strncmp(pattern, "(?i)", 4) ? 0 : 4;
	/*
	 * .*X matches where X does (.* may be empty), but .*+X and .*?X
	 * are left alone, and ^.*X is not X: . stops at "\n".
	 */
	for (m = 0; m < ntok && tok[m] < lead; m++)
		continue;
	start = lead;
	while (m + 1 < ntok && tok[m] == start &&
	    pattern[start] == '.' && tok[m + 1] == start + 1 &&
	    pattern[start + 1] == '*' && (pattern[start + 2] == '\0' ||
	    strchr("*+?{", pattern[start + 2]) == NULL)) {
		start += 2;
		m += 2;
	}
	/* X.* matches where X does; X.*$ is not X$ (. stops at "\n"). */
	end = len;
	while (ntok >= m + 2 && tok[ntok - 1] == end - 1 &&
	    pattern[end - 1] == '*' && tok[ntok - 2] == end - 2 &&
	    pattern[end - 2] == '.') {
		end -= 2;
		ntok -= 2;
	}
	if (start == lead && end == len)
		goto out;
	s = malloc(lead + (end - start) + 1);
	if (s == NULL)
		goto out;
	memcpy(s, pattern, lead);
	memcpy(s + lead, pattern + start, end - start);
	s[lead + end - start] = '\0';
out:
	free(tok);
	return (s);
}

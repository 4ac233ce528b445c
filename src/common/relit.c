/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * relit.c -- literal-set regexes without backtracking (relit.h).
 *
 * The pattern is read into the set of strings it matches (a group of
 * alternatives multiplies the set: `\.(jpg|png)$` is {".jpg", ".png"}
 * with an end anchor); anything else (a class, a quantifier, an escape
 * like \d, a flag other than a leading (?i)) is refused and PCRE2 does
 * the work.  The strings make a trie; the trie with its failure links
 * makes a DFA over byte classes (the bytes the strings use each get one,
 * every other byte shares class 0), so a subject costs one table lookup
 * per byte whatever the number of strings.  When every string has two
 * bytes or more, an unanchored search first looks up each pair of
 * subject bytes in a bitmap of the strings' first two (8 KB, which
 * stays in the L1 cache where the DFA would not) and walks the DFA only
 * from the few places where a string can start: a 120-brand list over a
 * User-Agent touches almost nothing else.
 *
 * PCRE2's meaning, as veneerd compiles patterns (no UTF, no multiline,
 * default tables): ^ is the start of the subject; $ is its end or just
 * before a newline that ends it; (?i) folds A-Z and a-z only.
 */

#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/relit.h"

#define RELIT_MAXLIT	4096		/* strings a pattern may expand to */
#define RELIT_MAXBYTES	(64 * 1024)	/* their total length */
#define RELIT_MAXCELLS	(4U << 20)	/* DFA states x classes */

struct relit {
	unsigned		nlit;
	unsigned		caseless;
	unsigned		anch_start, anch_end;
	unsigned		has_empty;	/* "" is one of the strings */
	unsigned char		*pair;		/* first-two-bytes bitmap */
	unsigned char		fold[256];
	unsigned		nstate, ncls;
	unsigned char		cls[256];
	uint32_t		*delta;		/* [state * ncls + cls] */
	unsigned char		*term;		/* a string ends at this node */
	unsigned char		*out;		/* ... or at one it falls to */
	unsigned		*depth;
	char			desc[96];
};

/* Parsing: the set of strings ------------------------------------------*/

struct lset {
	char			**s;
	size_t			*len;
	unsigned		n;
	size_t			bytes;
};

struct rparse {
	const char		*p;
	const char		*why;
	unsigned		caseless;
};

static void
lset_free(struct lset *l)
{
	unsigned u;

	for (u = 0; u < l->n; u++)
		free(l->s[u]);
	free(l->s);
	free(l->len);
	memset(l, 0, sizeof *l);
}

static int
lset_add(struct rparse *rp, struct lset *l, const char *a, size_t al,
    const char *b, size_t bl)
{
	char *s;

	if (l->n >= RELIT_MAXLIT || l->bytes + al + bl > RELIT_MAXBYTES) {
		rp->why = "expands to too many strings";
		return (-1);
	}
	if ((l->n & (l->n - 1)) == 0) {
		char **ns = realloc(l->s, (l->n ? 2 * l->n : 1) * sizeof *ns);
		size_t *nl;

		if (ns == NULL)
			return (-1);
		l->s = ns;
		nl = realloc(l->len, (l->n ? 2 * l->n : 1) * sizeof *nl);
		if (nl == NULL)
			return (-1);
		l->len = nl;
	}
	s = malloc(al + bl + 1);
	if (s == NULL)
		return (-1);
	memcpy(s, a, al);
	memcpy(s + al, b, bl);
	s[al + bl] = '\0';
	l->s[l->n] = s;
	l->len[l->n] = al + bl;
	l->n++;
	l->bytes += al + bl;
	return (0);
}

/* l = l x r (every string of l followed by every string of r). */
static int
lset_cross(struct rparse *rp, struct lset *l, const struct lset *r)
{
	struct lset x;
	unsigned u, v;

	memset(&x, 0, sizeof x);
	for (u = 0; u < l->n; u++)
		for (v = 0; v < r->n; v++)
			if (lset_add(rp, &x, l->s[u], l->len[u], r->s[v],
			    r->len[v]) != 0) {
				lset_free(&x);
				return (-1);
			}
	lset_free(l);
	*l = x;
	return (0);
}

static int
lset_union(struct rparse *rp, struct lset *l, const struct lset *r)
{
	unsigned u;

	for (u = 0; u < r->n; u++)
		if (lset_add(rp, l, r->s[u], r->len[u], "", 0) != 0)
			return (-1);
	return (0);
}

static int rp_alt(struct rparse *rp, struct lset *out);

/* One literal character, escaped or not; -1 if *p is not one. */
static int
rp_char(struct rparse *rp)
{
	int c = (unsigned char)*rp->p;

	if (c == '\\') {
		c = (unsigned char)rp->p[1];
		/* \d \w \b \x41 \Q...: not literals (or not simply). */
		if (c == '\0' || isalnum(c)) {
			rp->why = "an escape that is not a literal character";
			return (-1);
		}
		rp->p += 2;
		return (c);
	}
	if (c == '\0' || strchr("^$.|?*+()[]{}", c) != NULL)
		return (-1);
	rp->p++;
	return (c);
}

/*
 * A sequence of characters and groups, up to | ) $ . or the end.  On
 * failure nothing is left allocated in *out (nor in rp_alt's).
 */
static int
rp_seq(struct rparse *rp, struct lset *out)
{
	struct lset g;
	char c;
	int ch;

	memset(out, 0, sizeof *out);
	memset(&g, 0, sizeof g);
	if (lset_add(rp, out, "", 0, "", 0) != 0)
		goto fail;
	for (;;) {
		if (*rp->p == '(') {
			rp->p++;
			if (rp->p[0] == '?' && rp->p[1] == ':')
				rp->p += 2;
			else if (rp->p[0] == '?' || rp->p[0] == '*') {
				rp->why = "a group with options or a verb";
				goto fail;
			}
			if (rp_alt(rp, &g) != 0)
				goto fail;
			if (*rp->p != ')') {
				rp->why = "an unclosed group";
				goto fail;
			}
			rp->p++;
		} else if (*rp->p == '|' || *rp->p == ')' || *rp->p == '$' ||
		    *rp->p == '\0' || *rp->p == '.') {
			return (0);
		} else {
			ch = rp_char(rp);
			if (ch < 0) {
				if (rp->why == NULL)
					rp->why = "a character class, quantifier "
					    "or other non-literal";
				goto fail;
			}
			c = (char)ch;
			if (lset_add(rp, &g, &c, 1, "", 0) != 0)
				goto fail;
		}
		if (lset_cross(rp, out, &g) != 0)
			goto fail;
		lset_free(&g);
		/* A quantifier after what was just read: not a literal. */
		if (*rp->p != '\0' && strchr("?*+{", *rp->p) != NULL) {
			rp->why = "a quantifier";
			goto fail;
		}
	}
  fail:
	lset_free(&g);
	lset_free(out);
	return (-1);
}

/* Alternatives: seq (| seq)*. */
static int
rp_alt(struct rparse *rp, struct lset *out)
{
	struct lset s;
	int r;

	if (rp_seq(rp, out) != 0)
		return (-1);
	while (*rp->p == '|') {
		rp->p++;
		if (rp_seq(rp, &s) != 0) {
			lset_free(out);
			return (-1);
		}
		r = lset_union(rp, out, &s);
		lset_free(&s);
		if (r != 0) {
			lset_free(out);
			return (-1);
		}
	}
	return (0);
}

/* Does the pattern have a | outside every group? */
static int
top_alternation(const char *p)
{
	unsigned depth = 0;

	for (; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0')
			p++;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if (*p == '|' && depth == 0)
			return (1);
	}
	return (0);
}

static int
rp_pattern(struct rparse *rp, struct relit *r, struct lset *l)
{
	int alt;

	if (!strncmp(rp->p, "(?i)", 4)) {
		r->caseless = 1;
		rp->p += 4;
	}
	alt = top_alternation(rp->p);
	if (*rp->p == '^') {
		r->anch_start = 1;
		rp->p++;
	} else if (rp->p[0] == '.' && rp->p[1] == '*' && !alt) {
		/* `.*X` unanchored finds X wherever X is. */
		rp->p += 2;
		if (*rp->p == '?')
			rp->p++;
	}
	if (alt && r->anch_start) {
		rp->why = "^ with a | outside groups";
		return (-1);
	}
	if (rp_alt(rp, l) != 0)
		return (-1);
	if (rp->p[0] == '.' && rp->p[1] == '*' && !alt &&
	    (rp->p[2] == '\0' || (rp->p[2] == '?' && rp->p[3] == '\0'))) {
		/* `X.*`: X is enough. */
		rp->p += rp->p[2] == '?' ? 3 : 2;
	} else if (rp->p[0] == '$' && rp->p[1] == '\0') {
		if (alt) {
			rp->why = "$ with a | outside groups";
			return (-1);
		}
		r->anch_end = 1;
		rp->p++;
	}
	if (*rp->p != '\0') {
		if (rp->why == NULL)
			rp->why = *rp->p == '.' ? "a dot" :
			    *rp->p == ')' ? "an unopened group" :
			    "an anchor inside the pattern";
		return (-1);
	}
	return (0);
}

/* The automaton -----------------------------------------------------------*/

static unsigned char
fold(const struct relit *r, unsigned char c)
{

	if (r->caseless && c >= 'A' && c <= 'Z')
		return ((unsigned char)(c - 'A' + 'a'));
	return (c);
}

struct tnode {
	unsigned		child;		/* first child, 0: none */
	unsigned		next;		/* next sibling */
	unsigned char		cls;
};

static int
relit_build(struct relit *r, const struct lset *l)
{
	struct tnode *t = NULL;
	unsigned *queue = NULL, *fail = NULL;
	unsigned n = 1, u, v, c, node, k, head, tail;
	size_t i, cap;
	unsigned char b;
	int ret = -1;

	/* Byte classes: every byte some string uses, folded. */
	memset(r->cls, 0, sizeof r->cls);
	r->ncls = 1;
	for (u = 0; u < l->n; u++)
		for (i = 0; i < l->len[u]; i++) {
			b = fold(r, (unsigned char)l->s[u][i]);
			if (r->cls[b] == 0 && r->ncls < 256)
				r->cls[b] = (unsigned char)r->ncls++;
		}
	if (r->ncls > 255)
		return (-1);
	if (r->caseless)
		for (c = 'A'; c <= 'Z'; c++)
			r->cls[c] = r->cls[c - 'A' + 'a'];

	cap = l->bytes + 1;
	t = calloc(cap, sizeof *t);
	if (t == NULL)
		return (-1);
	r->term = calloc(cap, 1);
	r->depth = calloc(cap, sizeof *r->depth);
	if (r->term == NULL || r->depth == NULL)
		goto out;
	for (u = 0; u < l->n; u++) {
		node = 0;
		for (i = 0; i < l->len[u]; i++) {
			c = r->cls[(unsigned char)l->s[u][i]];
			for (v = t[node].child; v != 0; v = t[v].next)
				if (t[v].cls == c)
					break;
			if (v == 0) {
				v = n++;
				t[v].cls = (unsigned char)c;
				t[v].next = t[node].child;
				t[node].child = v;
				r->depth[v] = r->depth[node] + 1;
			}
			node = v;
		}
		r->term[node] = 1;
	}
	r->nstate = n;
	if ((size_t)n * r->ncls > RELIT_MAXCELLS)
		goto out;
	r->delta = calloc((size_t)n * r->ncls, sizeof *r->delta);
	r->out = calloc(n, 1);
	queue = calloc(n, sizeof *queue);
	fail = calloc(n, sizeof *fail);
	if (r->delta == NULL || r->out == NULL || queue == NULL ||
	    fail == NULL)
		goto out;
	/* Breadth first: a node's failure state is done before it. */
	head = tail = 0;
	r->out[0] = r->term[0];
	for (c = 0; c < r->ncls; c++)
		r->delta[c] = 0;
	for (v = t[0].child; v != 0; v = t[v].next) {
		r->delta[t[v].cls] = v;
		fail[v] = 0;
		queue[tail++] = v;
	}
	while (head < tail) {
		u = queue[head++];
		r->out[u] = r->term[u] || r->out[fail[u]];
		for (c = 0; c < r->ncls; c++)
			r->delta[(size_t)u * r->ncls + c] =
			    r->delta[(size_t)fail[u] * r->ncls + c];
		for (v = t[u].child; v != 0; v = t[v].next) {
			/* Shallower than v: its row is complete. */
			k = r->delta[(size_t)fail[u] * r->ncls + t[v].cls];
			fail[v] = k;
			r->delta[(size_t)u * r->ncls + t[v].cls] = v;
			queue[tail++] = v;
		}
	}
	ret = 0;
  out:
	free(t);
	free(queue);
	free(fail);
	return (ret);
}

struct relit *
RELIT_Compile(const char *pattern, char *why, size_t whylen)
{
	struct rparse rp;
	struct relit *r;
	struct lset l;
	unsigned u, k;

	r = calloc(1, sizeof *r);
	if (r == NULL)
		return (NULL);
	memset(&rp, 0, sizeof rp);
	memset(&l, 0, sizeof l);
	rp.p = pattern;
	if (rp_pattern(&rp, r, &l) != 0 || relit_build(r, &l) != 0) {
		if (why != NULL)
			(void)snprintf(why, whylen, "%s", rp.why != NULL ?
			    rp.why : "too large");
		lset_free(&l);
		RELIT_Free(&r);
		return (NULL);
	}
	r->nlit = l.n;
	for (u = 0; u < 256; u++)
		r->fold[u] = fold(r, (unsigned char)u);
	for (u = 0; u < l.n; u++)
		if (l.len[u] < 2)
			break;
	if (u == l.n && !r->anch_start && !r->anch_end) {
		r->pair = calloc(65536 / 8, 1);
		for (u = 0; r->pair != NULL && u < l.n; u++) {
			k = (unsigned)r->fold[(unsigned char)l.s[u][0]] << 8 |
			    r->fold[(unsigned char)l.s[u][1]];
			r->pair[k >> 3] |= (unsigned char)(1U << (k & 7));
		}
	}
	for (u = 0; u < l.n; u++)
		if (l.len[u] == 0)
			r->has_empty = 1;
	lset_free(&l);
	(void)snprintf(r->desc, sizeof r->desc, "%u literal%s, %s%s",
	    r->nlit, r->nlit == 1 ? "" : "s",
	    r->anch_start && r->anch_end ? "whole subject" :
	    r->anch_start ? "at the start" : r->anch_end ? "at the end" :
	    "unanchored", r->caseless ? ", caseless" : "");
	return (r);
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
	free(r->delta);
	free(r->term);
	free(r->out);
	free(r->depth);
	free(r->pair);
	free(r);
}

const char *
RELIT_Describe(const struct relit *r)
{

	return (r->desc);
}

/* Matching ------------------------------------------------------------*/

#define STEP(r, st, ch)							\
	((r)->delta[(size_t)(st) * (r)->ncls + (r)->cls[(unsigned char)(ch)]])

/* Does a string start at s[i]?  A walk on the trie's own paths. */
static int
relit_at(const struct relit *r, const char *s, size_t len, size_t i)
{
	unsigned st = 0, d = 0;

	for (; i < len; i++) {
		st = STEP(r, st, s[i]);
		if (r->depth[st] != ++d)
			return (0);
		if (r->term[st])
			return (1);
	}
	return (0);
}

int
RELIT_Match(const struct relit *r, const char *s, size_t len)
{
	size_t i;
	unsigned st = 0;
	int nl;

	nl = len > 0 && s[len - 1] == '\n';
	if (r->pair != NULL) {
		const unsigned char *u = (const unsigned char *)s;
		unsigned k;

		for (i = 0; i + 1 < len; i++) {
			k = (unsigned)r->fold[u[i]] << 8 | r->fold[u[i + 1]];
			if ((r->pair[k >> 3] & (1U << (k & 7))) != 0 &&
			    relit_at(r, s, len, i))
				return (1);
		}
		return (0);
	}
	if (!r->anch_start && !r->anch_end) {
		if (r->out[0])
			return (1);
		for (i = 0; i < len; i++) {
			st = STEP(r, st, s[i]);
			if (r->out[st])
				return (1);
		}
		return (0);
	}
	if (!r->anch_start) {
		/* Some string ends at the end, or before a final \n. */
		for (i = 0; i < len; i++) {
			if (nl && i == len - 1 && r->out[st])
				return (1);
			st = STEP(r, st, s[i]);
		}
		return (r->out[st]);
	}
	/* Anchored at the start: stay on the trie's own paths. */
	if (r->term[0] && !r->anch_end)
		return (1);
	for (i = 0; i < len; i++) {
		if (r->anch_end && nl && i == len - 1 && r->term[st])
			return (1);
		st = STEP(r, st, s[i]);
		if (r->depth[st] != i + 1)
			return (0);
		if (!r->anch_end && r->term[st])
			return (1);
	}
	return (r->anch_end && r->term[st]);
}

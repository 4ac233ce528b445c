/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_lookup_key.c -- the lookup key (HSH_AddData, what hash_data()
 * feeds): two different sequences of pieces never share a key, and one
 * hash_data() of several strings is the piece of their concatenation.
 * And the request targets the H1 parser lets through never hold '#',
 * which would make one URL name two things.
 *
 * Input: a knob byte, then sequence a, then optionally a SOH byte (0x01)
 * and sequence c; each sequence is its pieces separated by NUL bytes.
 * Checks: a and c share a key only if they are the same pieces; and b,
 * one boundary away from a (the knob joins two pieces or splits one),
 * never shares a's key.  The input up to its first NUL is also parsed as
 * the target of "GET <target> HTTP/1.1".
 */

#include "config.h"

#include <stdio.h>

#include "common/sha256.h"
#include "cache/hash.h"
#include "common/miniobj.h"
#include "tests/fuzz/fuzz_h1.h"

#define FUZZ_KEY_MAX_PIECES	64

struct fuzz_seq {
	const char	*p[FUZZ_KEY_MAX_PIECES + 1];
	unsigned	n;
};

static void
fuzz_key(const struct fuzz_seq *s, unsigned char *out)
{
	struct sha256_ctx sha;
	unsigned u;

	SHA256_Init(&sha);
	for (u = 0; u < s->n; u++)
		HSH_AddData(&sha, &s->p[u], 1);
	SHA256_Final(&sha, out);
}

static int
fuzz_seq_eq(const struct fuzz_seq *a, const struct fuzz_seq *b)
{
	unsigned u;

	if (a->n != b->n)
		return (0);
	for (u = 0; u < a->n; u++)
		if (strcmp(a->p[u], b->p[u]))
			return (0);
	return (1);
}

/* A request line with target t: if the parser takes it, no '#'. */
static void
fuzz_target_line(const char *t)
{
	struct txt hd[HTTP_HDR_FIRST + 4];
	unsigned char hdf[HTTP_HDR_FIRST + 4];
	static char vsl[1024];	/* the parser never logs */
	struct http http;
	const char *why;
	char *head;
	size_t l;

	l = strlen(t) + 32;
	head = malloc(l);
	assert(head != NULL);
	l = (size_t)snprintf(head, l, "GET %s HTTP/1.1\r\n\r\n", t);
	HTTP_Setup(&http, NULL, hd, hdf, ARRAY_SIZE(hd),
	    (struct vsl_log *)vsl, SLT_ReqMethod);
	if (H1_ParseRequest(&http, head, head + l, 8192, &why) == 0)
		assert(strchr(http.hd[HTTP_HDR_URL].b, '#') == NULL);
	free(head);
}

/* The pieces of [p, e) between NULs (at most FUZZ_KEY_MAX_PIECES). */
static void
fuzz_seq_parse(struct fuzz_seq *s, char *p, const char *e)
{

	s->n = 0;
	do {
		s->p[s->n++] = p;
		p += strlen(p) + 1;
	} while (p <= e && s->n < FUZZ_KEY_MAX_PIECES);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char ka[SHA256_LEN], kb[SHA256_LEN];
	struct fuzz_seq a, b, c;
	unsigned knob, u, i;
	char *buf, *split, *joined, *soh, *end;
	size_t l;

	knob = fuzz_byte(&data, &size);
	/* NULs inside are kept: they separate the pieces. */
	buf = fuzz_cstr(data, size);
	fuzz_target_line(buf);
	end = buf + size;
	soh = memchr(buf, '\001', size);
	if (soh != NULL) {
		*soh = '\0';
		fuzz_seq_parse(&c, soh + 1, end);
		end = soh;
	}
	fuzz_seq_parse(&a, buf, end);
	fuzz_key(&a, ka);
	if (soh != NULL) {
		fuzz_key(&c, kb);
		assert(fuzz_seq_eq(&a, &c) == !memcmp(ka, kb, SHA256_LEN));
	}

	/* Sequence b: a's with one boundary moved. */
	b = a;
	i = knob % a.n;
	split = joined = NULL;
	if ((knob & 0x80) && i + 1 < a.n) {
		l = strlen(a.p[i]) + strlen(a.p[i + 1]) + 1;
		joined = malloc(l);
		assert(joined != NULL);
		(void)snprintf(joined, l, "%s%s", a.p[i], a.p[i + 1]);
		b.p[i] = joined;
		for (u = i + 1; u + 1 < a.n; u++)
			b.p[u] = a.p[u + 1];
		b.n = a.n - 1;
	} else if (a.n < FUZZ_KEY_MAX_PIECES) {
		l = strlen(a.p[i]);
		split = strdup(a.p[i]);
		assert(split != NULL);
		split[(knob >> 1) % (l + 1)] = '\0';
		for (u = a.n; u > i + 1; u--)
			b.p[u] = a.p[u - 1];
		b.p[i] = split;
		b.p[i + 1] = a.p[i] + strlen(split);
		b.n = a.n + 1;
	}
	fuzz_key(&b, kb);
	assert(fuzz_seq_eq(&a, &b) == !memcmp(ka, kb, SHA256_LEN));

	/* One hash_data() of strands is the piece of their concatenation. */
	if (joined != NULL) {
		struct sha256_ctx sha;

		SHA256_Init(&sha);
		for (u = 0; u < b.n; u++)
			HSH_AddData(&sha, u == i ? &a.p[i] : &b.p[u],
			    u == i ? 2 : 1);
		SHA256_Final(&sha, ka);
		assert(!memcmp(ka, kb, SHA256_LEN));
	}
	free(joined);
	free(split);
	free(buf);
	return (0);
}

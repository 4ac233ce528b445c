/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vary.c -- unit tests of the variant key (cache/vary.c): the
 * values VRY_Build finds for the names RFC_VaryNames sorted.  Names
 * that are prefixes of their neighbours in every position, repeated and
 * hop-by-hop lines, and a property test against a naive reference: two
 * requests share a key if and only if they send the same values for
 * every Vary'd name.  And the lookup key's pieces (HSH_AddData).
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "common/sha256.h"
#include "cache/hash.h"
#include "cache/http.h"
#include "cache/rfc.h"
#include "cache/vary.h"
#include "cache/ws.h"

#define NSLOT		(HTTP_HDR_FIRST + 200)
#define NAMES_MAX	8192

struct msg {
	struct http	http;
	struct txt	hd[NSLOT];
	unsigned char	hdf[NSLOT];
};

static struct msg m_resp, m_req, m_req2;
static struct vsl_log vsl;		/* no buffer: records are dropped */
static struct ws ws[1];
static uint64_t space[65536];
static char names[NAMES_MAX];
/* Header lines outlive HTTP_SetHeader: they are kept here. */
static char lines[3][NSLOT][128];

static void
setup(void)
{

	memset(&vsl, 0, sizeof vsl);
	WS_Init(ws, "tst", space, sizeof space);
	HTTP_Setup(&m_resp.http, ws, m_resp.hd, m_resp.hdf, NSLOT, &vsl,
	    SLT_BerespMethod);
	HTTP_Setup(&m_req.http, ws, m_req.hd, m_req.hdf, NSLOT, &vsl,
	    SLT_ReqMethod);
	HTTP_Setup(&m_req2.http, ws, m_req2.hd, m_req2.hdf, NSLOT, &vsl,
	    SLT_ReqMethod);
}

/* The sorted names of a response's "Vary: <v>". */
static void
vary_names(const char *v)
{
	static char line[NAMES_MAX];

	HTTP_Clear(&m_resp.http);
	(void)snprintf(line, sizeof line, "Vary: %s", v);
	ck_assert_int_eq(HTTP_SetHeader(&m_resp.http, line), 0);
	ck_assert_int_gt(RFC_VaryNames(&m_resp.http, names, sizeof names),
	    0);
}

/* Add "name: value" to request r (0 or 1), line number k of it. */
static void
req_add(struct http *hp, unsigned r, const char *name, const char *value)
{
	char *l = lines[r][hp->nhd];

	(void)snprintf(l, sizeof lines[r][0], "%s: %s", name, value);
	ck_assert_int_eq(HTTP_SetHeader(hp, l), 0);
}

/* The blob's value for name, or NULL when the name is absent. */
static const char *
blob_value(const char *blob, size_t len, const char *name)
{
	const char *p = blob + VRY_NamesLen(blob), *v;

	while (p < blob + len) {
		v = p + strlen(p) + 1;
		if (!strcmp(p, name))
			return (v);
		p = v + strlen(v) + 1;
	}
	return (NULL);
}

static ssize_t
build(const struct http *hp, char **blob)
{
	ssize_t l;

	l = VRY_Build(ws, hp, names, blob);
	ck_assert_int_ge(l, 0);
	return (l);
}

/*
 * The reference: every line whose whole name is name (any case), not
 * hop-by-hop, values joined with ", ".  0 when there is none.
 */
static int
ref_value(const struct http *hp, const char *name, char *buf, size_t len)
{
	size_t l = strlen(name), o = 0;
	struct txt v;
	unsigned u;
	int found = 0;

	buf[0] = '\0';
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++) {
		if (hp->hdf[u] & HDF_FILTER)
			continue;
		if (strlen(hp->hd[u].b) <= l || hp->hd[u].b[l] != ':' ||
		    strncasecmp(hp->hd[u].b, name, l))
			continue;
		v = HTTP_HdrValue(hp, u);
		o += (size_t)snprintf(buf + o, len - o, "%s%.*s",
		    found ? ", " : "", (int)TXT_LEN(v), v.b);
		found = 1;
	}
	return (found);
}

/*--------------------------------------------------------------------
 * Names that are prefixes of their neighbours, in every position.
 */

static const char * const prefixed[] = {
	"a", "a-", "a-b", "a-b-c", "a.", "a0", "a1", "a10", "a2", "aa",
	"accept", "accept-charset", "accept-encoding", "accept-language",
	"x-v1", "x-v10", "x-v100", "x-v1000", "x-v11", "x-v2",
};

static void
mixed_case(char *dst, const char *src, unsigned salt)
{
	unsigned u;

	for (u = 0; src[u] != '\0'; u++)
		dst[u] = ((u + salt) & 1) && src[u] >= 'a' && src[u] <= 'z' ?
		    (char)(src[u] - 'a' + 'A') : src[u];
	dst[u] = '\0';
}

START_TEST(test_vary_prefix_each_alone)
{
	char vary[1024], name[64], want[64];
	const char *got;
	unsigned u, k;
	size_t o = 0;
	ssize_t l;
	char *blob;

	setup();
	/* Listed backwards and in mixed case: RFC_VaryNames sorts them. */
	for (u = ARRAY_SIZE(prefixed); u-- > 0; ) {
		mixed_case(name, prefixed[u], u);
		o += (size_t)snprintf(vary + o, sizeof vary - o, "%s%s",
		    o > 0 ? ", " : "", name);
	}
	vary_names(vary);
	/* Header k alone, in every position of the sorted list. */
	for (k = 0; k < ARRAY_SIZE(prefixed); k++) {
		HTTP_Clear(&m_req.http);
		req_add(&m_req.http, 0, "X-Other", "1");
		mixed_case(name, prefixed[k], k + 1);
		(void)snprintf(want, sizeof want, "v%u", k);
		req_add(&m_req.http, 0, name, want);
		l = build(&m_req.http, &blob);
		for (u = 0; u < ARRAY_SIZE(prefixed); u++) {
			got = blob_value(blob, (size_t)l, prefixed[u]);
			if (u == k)
				ck_assert_msg(got != NULL && !strcmp(got, want),
				    "%s alone: got %s", prefixed[k],
				    got == NULL ? "(absent)" : got);
			else
				ck_assert_msg(got == NULL, "%s alone: %s has "
				    "%s", prefixed[k], prefixed[u], got);
		}
	}
}
END_TEST

START_TEST(test_vary_prefix_all_together)
{
	char vary[1024], name[64], want[64];
	const char *got;
	unsigned u, k, n = ARRAY_SIZE(prefixed);
	size_t o = 0;
	ssize_t l;
	char *blob;

	setup();
	for (u = 0; u < n; u++)
		o += (size_t)snprintf(vary + o, sizeof vary - o, "%s%s",
		    o > 0 ? "," : "", prefixed[u]);
	vary_names(vary);
	/* Every header, in a different order each round. */
	for (k = 0; k < n; k++) {
		HTTP_Clear(&m_req.http);
		for (u = 0; u < n; u++) {
			mixed_case(name, prefixed[(u * 7 + k) % n], u);
			(void)snprintf(want, sizeof want, "v%u",
			    (u * 7 + k) % n);
			req_add(&m_req.http, 0, name, want);
		}
		l = build(&m_req.http, &blob);
		for (u = 0; u < n; u++) {
			(void)snprintf(want, sizeof want, "v%u", u);
			got = blob_value(blob, (size_t)l, prefixed[u]);
			ck_assert_msg(got != NULL && !strcmp(got, want),
			    "round %u: %s got %s", k, prefixed[u],
			    got == NULL ? "(absent)" : got);
		}
	}
}
END_TEST

/* The issue's case: Vary on X-V0..X-V99, one header per request. */
START_TEST(test_vary_hundred_names)
{
	char vary[2048], name[16], want[16];
	char *blob[100];
	ssize_t l[100];
	size_t o = 0;
	unsigned u, k;

	setup();
	for (u = 0; u < 100; u++)
		o += (size_t)snprintf(vary + o, sizeof vary - o, "%sX-V%u",
		    u > 0 ? ", " : "", u);
	vary_names(vary);
	for (k = 0; k < 100; k++) {
		HTTP_Clear(&m_req.http);
		(void)snprintf(name, sizeof name, "X-V%u", k);
		req_add(&m_req.http, 0, name, "1");
		l[k] = build(&m_req.http, &blob[k]);
		(void)snprintf(want, sizeof want, "x-v%u", k);
		ck_assert_ptr_nonnull(blob_value(blob[k], (size_t)l[k],
		    want));
		for (u = 0; u < k; u++)
			ck_assert_msg(l[u] != l[k] ||
			    memcmp(blob[u], blob[k], (size_t)l[k]),
			    "X-V%u and X-V%u share a variant", u, k);
	}
}
END_TEST

/*--------------------------------------------------------------------
 * Repeated and hop-by-hop lines
 */

START_TEST(test_vary_repeated_lines)
{
	char *b1, *b2;
	ssize_t l1, l2;

	setup();
	vary_names("Accept-Language, Accept");
	req_add(&m_req.http, 0, "Accept-Language", "en");
	req_add(&m_req.http, 0, "Accept", "text/html");
	req_add(&m_req.http, 0, "accept-language", " fr ");
	l1 = build(&m_req.http, &b1);
	ck_assert_str_eq(blob_value(b1, (size_t)l1, "accept-language"),
	    "en, fr");
	ck_assert_str_eq(blob_value(b1, (size_t)l1, "accept"), "text/html");
	/* The same values on one line: the same variant, as RFC 9110 5.3. */
	req_add(&m_req2.http, 1, "Accept", "text/html");
	req_add(&m_req2.http, 1, "Accept-Language", "en, fr");
	l2 = build(&m_req2.http, &b2);
	ck_assert(l1 == l2 && !memcmp(b1, b2, (size_t)l1));
	ck_assert(VRY_Match(&m_req2.http, b1, (size_t)l1));
	/* The first line alone is another variant. */
	HTTP_Clear(&m_req2.http);
	req_add(&m_req2.http, 1, "Accept", "text/html");
	req_add(&m_req2.http, 1, "Accept-Language", "en");
	ck_assert(!VRY_Match(&m_req2.http, b1, (size_t)l1));
	/* Order counts: the backend saw them in this order. */
	HTTP_Clear(&m_req2.http);
	req_add(&m_req2.http, 1, "Accept-Language", "fr");
	req_add(&m_req2.http, 1, "Accept", "text/html");
	req_add(&m_req2.http, 1, "Accept-Language", "en");
	ck_assert(!VRY_Match(&m_req2.http, b1, (size_t)l1));
}
END_TEST

START_TEST(test_vary_hop_by_hop_unseen)
{
	char *b1, *b2;
	ssize_t l1, l2;

	setup();
	vary_names("Accept-Language, Origin");
	req_add(&m_req.http, 0, "Accept-Language", "fr");
	req_add(&m_req.http, 0, "Origin", "https://a.example");
	req_add(&m_req.http, 0, "Connection", "close, Accept-Language");
	HTTP_FilterHopByHop(&m_req.http);
	l1 = build(&m_req.http, &b1);
	ck_assert_ptr_null(blob_value(b1, (size_t)l1, "accept-language"));
	/* Keyed as the request without it, which the backend gets. */
	req_add(&m_req2.http, 1, "Origin", "https://a.example");
	l2 = build(&m_req2.http, &b2);
	ck_assert(l1 == l2 && !memcmp(b1, b2, (size_t)l1));
}
END_TEST

/*--------------------------------------------------------------------
 * Property: same key if and only if the same values for every name.
 */

static unsigned
rnd(unsigned n)
{

	return ((unsigned)random() % n);
}

/* Short names over a tiny alphabet: shared prefixes are the rule. */
static void
rnd_name(char *buf)
{
	static const char alpha[] = "aB-0";
	unsigned u, l = 1 + rnd(4);

	for (u = 0; u < l; u++)
		buf[u] = alpha[rnd(sizeof alpha - 1)];
	buf[l] = '\0';
}

static void
rnd_request(struct http *hp, unsigned r, char (*pool)[8], unsigned npool)
{
	static const char * const values[] = { "", "x", "y", "x, y", "X" };
	char name[8];
	unsigned u, n = rnd(7);

	HTTP_Clear(hp);
	for (u = 0; u < n; u++) {
		/* Mostly names of the Vary set (in any case), some not. */
		if (rnd(4) == 0)
			rnd_name(name);
		else
			mixed_case(name, pool[rnd(npool)], rnd(2));
		req_add(hp, r, name, values[rnd(ARRAY_SIZE(values))]);
	}
}

START_TEST(test_vary_property)
{
	char pool[8][8], vary[128], va[256], vb[256];
	char *b1, *b2;
	const char *p;
	unsigned iter, u, npool, pairs_same = 0;
	int same, fa, fb;
	ssize_t l1, l2;
	size_t o;

	setup();
	srandom(20261125);
	for (iter = 0; iter < 20000; iter++) {
		WS_Init(ws, "tst", space, sizeof space);
		npool = 1 + rnd(6);
		for (u = 0, o = 0; u < npool; u++) {
			rnd_name(pool[u]);
			o += (size_t)snprintf(vary + o, sizeof vary - o,
			    "%s%s", u > 0 ? ", " : "", pool[u]);
		}
		vary_names(vary);
		rnd_request(&m_req.http, 0, pool, npool);
		rnd_request(&m_req2.http, 1, pool, npool);
		l1 = build(&m_req.http, &b1);
		l2 = build(&m_req2.http, &b2);
		same = 1;
		for (p = names; *p != '\0'; p += strlen(p) + 1) {
			fa = ref_value(&m_req.http, p, va, sizeof va);
			fb = ref_value(&m_req2.http, p, vb, sizeof vb);
			if (fa != fb || strcmp(va, vb))
				same = 0;
			/* And the blob holds the reference's value. */
			if (fa)
				ck_assert_str_eq(blob_value(b1, (size_t)l1, p),
				    va);
			else
				ck_assert_ptr_null(blob_value(b1, (size_t)l1,
				    p));
		}
		pairs_same += (unsigned)same;
		ck_assert_msg(same == (l1 == l2 && !memcmp(b1, b2,
		    (size_t)l1)), "iteration %u: Vary %s: key %s the "
		    "reference", iter, vary, same ? "differs from" :
		    "conflates what differs in");
		ck_assert_int_eq(VRY_Match(&m_req2.http, b1, (size_t)l1), same);
	}
	/* Both outcomes were exercised, many times. */
	ck_assert_uint_gt(pairs_same, 300);
	ck_assert_uint_lt(pairs_same, 19000);
}
END_TEST

/*--------------------------------------------------------------------
 * The lookup key: each hash_data() is one piece, whatever it holds.
 */

static void
key_of(unsigned char *out, const char * const *calls)
{
	struct sha256_ctx sha;
	const char *one[1];

	SHA256_Init(&sha);
	for (; *calls != NULL; calls++) {
		one[0] = **calls == '\001' ? NULL : *calls;
		HSH_AddData(&sha, one, 1);
	}
	SHA256_Final(&sha, out);
}

START_TEST(test_key_pieces)
{
	/* Pairs of call sequences that were one key with a '#' joint. */
	static const char * const seqs[][4] = {
		{ "/p#h.example", "x", NULL },
		{ "/p", "h.example#x", NULL },
		{ "/p#", "x", NULL },
		{ "/p", "#x", NULL },
		{ "ab", "c", NULL },
		{ "a", "bc", NULL },
		{ "a", "", NULL },
		{ "a", NULL },
		{ "", "a", NULL },
		{ "a#", NULL },
		{ "a", "#", NULL },
		{ "\001", NULL },	/* hash_data() of nothing */
		{ NULL },
	};
	unsigned char d[ARRAY_SIZE(seqs)][SHA256_LEN];
	const char *parts[2] = { "/p", "#x" };
	unsigned char whole[SHA256_LEN];
	struct sha256_ctx sha;
	unsigned u, w;

	for (u = 0; u < ARRAY_SIZE(seqs); u++) {
		key_of(d[u], seqs[u]);
		for (w = 0; w < u; w++)
			ck_assert_msg(memcmp(d[u], d[w], SHA256_LEN),
			    "sequences %u and %u share a key", u, w);
	}
	/* One hash_data(a + b) is the piece "ab", as one string would be. */
	SHA256_Init(&sha);
	HSH_AddData(&sha, parts, 2);
	SHA256_Final(&sha, whole);
	key_of(d[0], (const char * const[]){ "/p#x", NULL });
	ck_assert_int_eq(memcmp(whole, d[0], SHA256_LEN), 0);
}
END_TEST

/*
 * The key is Varnish's bit for bit (req.hash, shard by=HASH): its
 * directors_c00009 expects this digest for hash_data("/b/def");
 * hash_data("127.0.0.1").
 */
START_TEST(test_key_is_varnish)
{
	static const char want[] = "93d1c4ad76396c91dd97fa310f7f2644"
	    "5332662c89393dbeeb77fe49f9111ee4";
	unsigned char d[SHA256_LEN];
	char hex[2 * SHA256_LEN + 1];

	key_of(d, (const char * const[]){ "/b/def", "127.0.0.1", NULL });
	SHA256_Hex(d, hex);
	ck_assert_str_eq(hex, want);
}
END_TEST

/*--------------------------------------------------------------------
 * http_gzip_support: Accept-Encoding reads as absent (one object for
 * every client, uncompressed on delivery), as Varnish compares it.
 */

START_TEST(test_vary_gzip_support)
{
	char err[256], *b1, *b2;
	ssize_t l1, l2;

	if (cache_param == NULL)
		PARAM_Init();
	setup();
	vary_names("Accept-Encoding, Cookie");
	req_add(&m_req.http, 0, "Accept-Encoding", "gzip");
	req_add(&m_req.http, 0, "Cookie", "a=1");
	req_add(&m_req2.http, 1, "Cookie", "a=1");
	ck_assert_int_eq(PARAM_Set("http_gzip_support", "on", err,
	    sizeof err), 0);
	l1 = build(&m_req.http, &b1);
	l2 = build(&m_req2.http, &b2);
	ck_assert(l1 == l2 && !memcmp(b1, b2, (size_t)l1));
	ck_assert_ptr_null(blob_value(b1, (size_t)l1, "accept-encoding"));
	ck_assert_str_eq(blob_value(b1, (size_t)l1, "cookie"), "a=1");
	ck_assert_int_eq(PARAM_Set("http_gzip_support", "off", err,
	    sizeof err), 0);
	l1 = build(&m_req.http, &b1);
	l2 = build(&m_req2.http, &b2);
	ck_assert(l1 != l2 || memcmp(b1, b2, (size_t)l1));
	ck_assert_str_eq(blob_value(b1, (size_t)l1, "accept-encoding"),
	    "gzip");
}
END_TEST

static Suite *
vary_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vary");
	tc = tcase_create("names");
	tcase_add_test(tc, test_vary_prefix_each_alone);
	tcase_add_test(tc, test_vary_prefix_all_together);
	tcase_add_test(tc, test_vary_hundred_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("lines");
	tcase_add_test(tc, test_vary_repeated_lines);
	tcase_add_test(tc, test_vary_hop_by_hop_unseen);
	tcase_add_test(tc, test_vary_gzip_support);
	suite_add_tcase(s, tc);
	tc = tcase_create("key");
	tcase_add_test(tc, test_key_pieces);
	tcase_add_test(tc, test_key_is_varnish);
	suite_add_tcase(s, tc);
	tc = tcase_create("property");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_vary_property);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(vary_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

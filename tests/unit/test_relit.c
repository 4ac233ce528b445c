/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_relit.c -- the literal-set matcher (src/common/relit.c) and its
 * use by VCL's ~ (src/cache/vrt_re.c), always against PCRE2 itself:
 * every subject is matched by both and the answers compared.  Covers $
 * before a final newline, (?i) on non-letters and bytes >= 0x80,
 * literals that are prefixes of others, overlaps, the 120 brand names
 * of issue 13, random literal sets, what is refused, and which .* are
 * dropped.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/relit.h"
#include "cache/ws.h"
#include "vrt.h"

static pcre2_match_data *md;

static int
pcre_says(const char *pattern, const char *s, size_t len)
{
	pcre2_code *code;
	PCRE2_SIZE off;
	int err, rc;

	code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
	    &err, &off, NULL);
	ck_assert_msg(code != NULL, "PCRE2 refused \"%s\"", pattern);
	rc = pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, md, NULL);
	pcre2_code_free(code);
	ck_assert_msg(rc >= 0 || rc == PCRE2_ERROR_NOMATCH, "PCRE2 error");
	return (rc >= 0);
}

static struct relit *
take(const char *pattern)
{
	struct relit *r;
	char why[128];

	r = RELIT_Compile(pattern, why, sizeof why);
	ck_assert_msg(r != NULL, "\"%s\" refused: %s", pattern, why);
	return (r);
}

/* RELIT and PCRE2 agree on s; the answer is returned. */
static int
same_len(const struct relit *r, const char *pattern, const char *s,
    size_t len)
{
	int want, got;

	want = pcre_says(pattern, s, len);
	got = RELIT_Match(r, s, len);
	ck_assert_msg(got == want, "\"%s\" on \"%.*s\": PCRE2 %d, RELIT %d "
	    "(%s)", pattern, (int)len, s, want, got, RELIT_Describe(r));
	return (got);
}

static int
same(const struct relit *r, const char *pattern, const char *s)
{

	return (same_len(r, pattern, s, strlen(s)));
}

/* A pattern and subjects with the answer PCRE2 must also give. */
struct relit_case {
	const char	*pattern;
	const char	*yes[6];
	const char	*no[6];
};

static const struct relit_case cases[] = {
	{ "utm_", { "/?utm_source=x", "utm_" }, { "", "/?UTM_", "utm" } },
	{ "(?i)android|blackberry",
	    { "Mozilla (Linux; ANDROID 4)", "BlackBerry9700", "xandroidx" },
	    { "", "andro id", "black berry" } },
	{ "^/(static|media)/", { "/static/a.css", "/media/" },
	    { "/x/static/", "static/", "/Static/", "//media/", "" } },
	{ "\\.(jpg|png|gif)$", { "/a.jpg", "/a.png\n", "x.gif" },
	    { "/a.jpg?x", "/a.png\n\n", "/a.jpgx", "/a.JPG", ".gi", "" } },
	/* Prefixes of each other, overlapping, repeated tries. */
	{ "Sam|Samsung", { "Sam", "xSamsung", "SaSam" },
	    { "Sa", "sam", "S a m" } },
	{ "(abab|bab|ba)", { "aaba", "abab", "bbab" },
	    { "abb", "aab", "a" } },
	{ "(aaab|aab)", { "aaaab", "aaab", "aab" }, { "aaa", "abab" } },
	/* Empty alternatives and patterns. */
	{ "(a|)", { "", "zzz", "\n" }, { NULL } },
	{ "", { "", "x" }, { NULL } },
	{ "^$", { "", "\n" }, { "x", "\n\n", " " } },
	{ "^()$", { "", "\n" }, { "x", "\n\n" } },
	{ "$", { "", "abc" }, { NULL } },
	{ "^", { "", "abc" }, { NULL } },
	/* $ holds at the end and before a final newline only. */
	{ "ab$", { "ab", "xab\n" }, { "ab\nx", "ab\n\n", "abx", "a" } },
	{ "^ab$", { "ab", "ab\n" }, { "ab\n\n", "xab", "abab", "" } },
	{ "a\n$", { "a\n", "a\n\n" }, { "a", "a\nx" } },
	/* ^ at the start only (no multiline). */
	{ "^ab", { "ab", "abc" }, { "\nab", "xab", "a" } },
	/* Anchors per top-level alternative, as PCRE2 reads them. */
	{ "^a|b$|^c$|d", { "ax", "xb", "c\n", "xdx", "b\n" },
	    { "xa", "bx", "xc", "cc", "" } },
	{ "(^a|b)c", { "ac", "xbc" }, { "xac", "a" } },
	{ "x(a$|b)", { "xa", "xa\n", "xbz" }, { "xaz" } },
	/* (?i) folds A-Z and a-z only. */
	{ "(?i)\\[", { "[", "x[" }, { "{", "Z", "" } },
	{ "(?i)\\[\\]|\\^", { "[]", "^" }, { "{}", "[", "~" } },
	{ "(?i)@", { "@" }, { "`", "P", "p" } },
	{ "(?i)caf\xc9", { "CAF\xc9", "caf\xc9" }, { "caf\xe9", "CAF\xe9" } },
	{ "(?i)K", { "k", "K" }, { "\xe2\x84\xaa" } },
	/* Bytes >= 0x80 as themselves. */
	{ "\xe9t\xe9|\xff", { "\xe9t\xe9", "a\xff" }, { "ete", "\xfe" } },
	/* Escaped metacharacters are literals. */
	{ "\\.\\-\\/\\\\\\?\\+\\(\\)\\*\\$\\^\\|\\{\\[",
	    { ".-/\\?+()*$^|{[" }, { ".-/\\?+()*$^|{", "" } },
	{ "a]b}c", { "a]b}c" }, { "a]b" } },
	{ "(?:GET|HEAD) /", { "HEAD /x" }, { "PUT /", "GET/" } },
	{ "a b\t#c", { "a b\t#c" }, { "ab#c" } },
};

START_TEST(test_cases)
{
	const struct relit_case *c = &cases[_i];
	struct relit *r;
	unsigned u;

	r = take(c->pattern);
	for (u = 0; u < 6 && c->yes[u] != NULL; u++)
		ck_assert_msg(same(r, c->pattern, c->yes[u]),
		    "\"%s\" should match \"%s\"", c->pattern, c->yes[u]);
	for (u = 0; u < 6 && c->no[u] != NULL; u++)
		ck_assert_msg(!same(r, c->pattern, c->no[u]),
		    "\"%s\" should not match \"%s\"", c->pattern, c->no[u]);
	/* An explicit length: NUL bytes are subject bytes. */
	(void)same_len(r, c->pattern, "ab\0ab", 5);
	RELIT_Free(&r);
	ck_assert_ptr_null(r);
}
END_TEST

/* Issue 13's User-Agent test: 120 brands, ^ and $ variants too. */
static const char *brands[] = {
	"Acer", "Alcatel", "Amazon", "Amoi", "Android", "Archos", "Asus",
	"Audiovox", "BenQ", "Bird", "BlackBerry", "Blackberry", "BB10",
	"Blazer", "Bolt", "Casio", "Cricket", "Danger", "Dell", "Docomo",
	"Dopod", "Ericsson", "Fennec", "Fly", "Garmin", "Gionee", "Gradiente",
	"Grundig", "Haier", "Hiptop", "Hitachi", "HTC", "Huawei", "iPad",
	"iPhone", "iPod", "IEMobile", "Infinix", "Innostream", "Kddi",
	"Kindle", "Kyocera", "Lava", "Lenovo", "LG", "LGE", "Maemo", "Meizu",
	"Micromax", "Midp", "Minimo", "Mitsu", "Mmp", "Mobile", "Mot",
	"Motorola", "NEC", "Nexus", "Nintendo", "Nokia", "NOKIA", "Novarra",
	"Oppo", "Opera Mini", "Opera Mobi", "Palm", "Panasonic", "Pantech",
	"Philips", "Phone", "Playbook", "PlayStation", "Pocket", "Portalmmm",
	"Psp", "Qtek", "Realme", "Sagem", "SAGEM", "Samsung", "SAMSUNG",
	"Sanyo", "Sch-", "Sec-", "Sendo", "Sgh-", "Sharp", "Siemens", "Sie-",
	"Silk", "Smartphone", "Softbank", "Sony", "SonyEricsson", "Spv",
	"Symbian", "Symbos", "Tablet", "Tcl", "Techfaith", "Telit", "Toshiba",
	"Treo", "Up\\.Browser", "Up\\.Link", "Vertu", "Vivo", "Vodafone", "Wap",
	"webOS", "Windows CE", "Windows Phone", "Wireless", "Xda", "Xiaomi",
	"Zte", "ZTE", "Zune", "Mi ", "Redmi",
};

static const char *agents[] = {
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
	    "(KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
	"Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 "
	    "Firefox/115.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) "
	    "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1",
	"Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36",
	"SAGEM-myX5-2/1.0 Profile/MIDP-2.0 Configuration/CLDC-1.0",
	"curl/8.4.0", "", "Opera/9.80 (J2ME/MIDP; Opera Mini/9.80)",
	"ZTE", "Xiaom", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)",
};

static char *
brand_pattern(const char *head, const char *tail)
{
	char *p;
	size_t u, l = 0;

	p = malloc(4096);
	ck_assert_ptr_nonnull(p);
	l += (size_t)snprintf(p + l, 4096 - l, "%s(", head);
	for (u = 0; u < sizeof brands / sizeof *brands; u++)
		l += (size_t)snprintf(p + l, 4096 - l, "%s%s",
		    u > 0 ? "|" : "", brands[u]);
	(void)snprintf(p + l, 4096 - l, ")%s", tail);
	ck_assert_uint_lt(strlen(p), 4000);
	return (p);
}

START_TEST(test_brands)
{
	static const char *forms[][2] = {
		{ "", "" }, { "(?i)", "" }, { "^", "" }, { "", "$" },
		{ "(?i)^", "$" }, { "Mozilla/5\\.0 \\(", "" },
	};
	struct relit *r;
	char *p;
	size_t u, v;
	int yes = 0;

	/* 524 states: the distinct prefixes of the names, folded. */
	ck_assert_uint_eq(sizeof brands / sizeof *brands, 120);
	for (v = 0; v < sizeof forms / sizeof *forms; v++) {
		p = brand_pattern(forms[v][0], forms[v][1]);
		r = take(p);
		for (u = 0; u < sizeof agents / sizeof *agents; u++)
			yes += same(r, p, agents[u]);
		for (u = 0; u < sizeof brands / sizeof *brands; u++)
			yes += same(r, p, brands[u]);
		RELIT_Free(&r);
		free(p);
	}
	ck_assert_int_gt(yes, 120);
	p = brand_pattern("(?i)", "");
	r = take(p);
	ck_assert_str_eq(RELIT_Describe(r), "120 literals, unanchored, "
	    "caseless, 524 states");
	RELIT_Free(&r);
	free(p);
}
END_TEST

/*
 * Random sets over a small alphabet, so literals share prefixes and
 * suffixes and subjects hit them, with random anchors and (?i).
 */
static uint32_t seed = 13;

static unsigned
rnd(unsigned n)
{

	seed = seed * 1103515245U + 12345U;
	return ((seed >> 16) % n);
}

static const char *const atoms[] = { "a", "b", "A", "B", "\\.", "\n",
    "\xe1", "\xc1", "\\[", "\\{" };
static const char bytes[] = "abAB.\n\xe1\xc1[{x";

static void
rnd_lit(char *p, size_t *l)
{
	unsigned n = rnd(5);

	while (n-- > 0)
		*l += (size_t)snprintf(p + *l, 8, "%s",
		    atoms[rnd(sizeof atoms / sizeof *atoms)]);
}

START_TEST(test_random)
{
	char p[512], s[16];
	struct relit *r;
	unsigned n, u, t, k;
	size_t l;

	for (t = 0; t < 3000; t++) {
		l = 0;
		if (rnd(3) == 0)
			l += (size_t)snprintf(p, 8, "(?i)");
		n = 1 + rnd(2);
		for (u = 0; u < n; u++) {
			if (u > 0)
				p[l++] = '|';
			if (rnd(3) == 0)
				p[l++] = '^';
			rnd_lit(p, &l);
			if (rnd(2) == 0) {
				p[l++] = '(';
				for (k = 1 + rnd(6); k > 0; k--) {
					rnd_lit(p, &l);
					if (k > 1)
						p[l++] = '|';
				}
				p[l++] = ')';
				rnd_lit(p, &l);
			}
			if (rnd(3) == 0)
				p[l++] = '$';
		}
		p[l] = '\0';
		r = take(p);
		for (u = 0; u < 40; u++) {
			n = rnd(sizeof s);
			for (k = 0; k < n; k++)
				s[k] = bytes[rnd(sizeof bytes - 1)];
			(void)same_len(r, p, s, n);
		}
		RELIT_Free(&r);
	}
}
END_TEST

START_TEST(test_refused)
{
	static const char *refused[] = {
		"a+", "a*", "a?", "a{2}", "a{", "[ab]", "(a|b)+", "(a|b)*",
		"\\d", "\\w", "\\b", "\\x41", "\\n", "\\Qa\\E", "(?x)a b",
		"((a|b)|c)", "(a(b))", "(a)(b)", "(?i:a)", "(?=a)", "(?s)a",
		"a.b", ".", "(a|b", "a)", "a|b)", "(?i)(?i)a", "^(?i)a",
		"a^b", "a$b", "^^a", "a$$", "x(^a)", "(a$)x", "(a|b)(c|d)",
		"\\1", "(a)\\1", "a\\", "\\é",
	};
	struct relit *r;
	char why[128];
	size_t u;

	for (u = 0; u < sizeof refused / sizeof *refused; u++) {
		r = RELIT_Compile(refused[u], why, sizeof why);
		ck_assert_msg(r == NULL, "\"%s\" taken: %s", refused[u],
		    RELIT_Describe(r));
		ck_assert_msg(why[0] != '\0', "\"%s\": no reason",
		    refused[u]);
	}
	r = RELIT_Compile("a+", why, sizeof why);
	ck_assert_str_eq(why, "not a literal at offset 1");
	/* Too big: more than 64 KB of literals. */
	{
		char *big = malloc(70000);

		ck_assert_ptr_nonnull(big);
		memset(big, 'a', 69999);
		big[69999] = '\0';
		ck_assert_ptr_null(RELIT_Compile(big, NULL, 0));
		free(big);
	}
}
END_TEST

/* What RELIT_Simplify drops (NULL: nothing), and PCRE2 agreeing. */
static const char *simplify[][2] = {
	{ ".*foo.*", "foo" },
	{ "(?i).*foo.*", "(?i)foo" },
	{ ".*.*foo.*.*", "foo" },
	{ ".*", "" },
	{ ".*(a|b)", "(a|b)" },
	{ "foo.*", "foo" },
	{ "a|.*", "a|" },
	{ ".*|a", "|a" },
	{ "^.*foo", NULL },		/* . stops at \n: "\nfoo" */
	{ "foo.*$", NULL },		/* "foox\nbar" */
	{ "foo", NULL },
	{ "\\.*", NULL },
	{ "a\\.*", NULL },
	{ "a\\\\.*", "a\\\\" },
	{ "a\\c.*", NULL },		/* \c. is one character */
	{ "[.*]", NULL },
	{ "[].*]", NULL },
	{ "[a].*", "[a]" },
	{ ".*?foo", NULL },
	{ ".*+foo", NULL },
	{ ".**", NULL },
	{ ".*(*COMMIT)a", NULL },
	{ "\\Qa.*", NULL },
	{ "(?x)a#.*", NULL },
	{ "(a)(?R)?.*", NULL },
	{ "(?s).*a", NULL },
	{ "(?:a.*)", NULL },
	{ "a.*?", NULL },
};

static const char *subjects[] = { "", "foo", "xfoo", "\nfoo", "foo\nx",
    "foox\nbar", "a", "ba", "b", ".", "a.", "a\\", "a\x0e", "*", "]", "\n",
    "FOO", "aaa", "a\nb" };

START_TEST(test_simplify)
{
	const char *in = simplify[_i][0], *want = simplify[_i][1];
	char *out;
	size_t u;

	out = RELIT_Simplify(in);
	if (want == NULL) {
		ck_assert_msg(out == NULL, "\"%s\" -> \"%s\"", in, out);
		return;
	}
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, want);
	for (u = 0; u < sizeof subjects / sizeof *subjects; u++)
		ck_assert_int_eq(pcre_says(in, subjects[u],
		    strlen(subjects[u])), pcre_says(out, subjects[u],
		    strlen(subjects[u])));
	free(out);
}
END_TEST

/* VCL's ~ through vrt_re.c: the same answers with and without flags. */
START_TEST(test_vrt)
{
	static const char *pats[] = {
		"(Sagem|SAGEM|Sendo|iPhone)", "(?i)android|blackberry",
		"^/(static|media)/", "\\.(jpg|png|gif)$", ".*utm_.*",
		"^/a.*", "[0-9]+", ".*(?i)x",
	};
	static const char *subj[] = { "", "/static/x.png", "iPhone",
	    "ANDROID", "/a?utm_x", "/a\n", "12", "X", "Sagem\n" };
	struct vrt_ctx ctx[1];
	struct ws ws[1];
	uint64_t space[512];
	VCL_REGEX plain, fast;
	size_t u, v;

	WS_Init(ws, "tst", space, sizeof space);
	INIT_OBJ(ctx, VRT_CTX_MAGIC);
	ctx->ws = ws;
	for (u = 0; u < sizeof pats / sizeof *pats; u++) {
		ck_assert_int_eq(VRT_re_init(ctx, &plain, pats[u], 0, "t"),
		    0);
		ck_assert_int_eq(VRT_re_init(ctx, &fast, pats[u],
		    VRT_RE_MATCH_ONLY, "t"), 0);
		for (v = 0; v < sizeof subj / sizeof *subj; v++) {
			ck_assert_int_eq(VRT_re_match(ctx, subj[v], plain),
			    pcre_says(pats[u], subj[v], strlen(subj[v])));
			ck_assert_int_eq(VRT_re_match(ctx, subj[v], fast),
			    VRT_re_match(ctx, subj[v], plain));
		}
		ck_assert_int_eq(VRT_re_match(ctx, NULL, fast),
		    VRT_re_match(ctx, NULL, plain));
		/* regsub is for patterns compiled without the flag. */
		ck_assert_str_eq(VRT_regsub(ctx, 1, "a.jpg b.png", plain,
		    "<\\0>"), VRT_regsub(ctx, 1, "a.jpg b.png", plain,
		    "<\\0>"));
		VRT_re_fini(&plain);
		VRT_re_fini(&fast);
		ck_assert_ptr_null(fast);
	}
	ck_assert(!ctx->failed);
	/* A bad pattern fails with the text written, flag or not. */
	ck_assert_int_ne(VRT_re_init(ctx, &fast, ".*(a|b.*",
	    VRT_RE_MATCH_ONLY, "f.vcl:1:2"), 0);
	ck_assert_ptr_null(fast);
	ck_assert(ctx->failed);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("relit");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_cases, 0, sizeof cases / sizeof *cases);
	tcase_add_test(tc, test_brands);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_refused);
	tcase_add_loop_test(tc, test_simplify, 0,
	    sizeof simplify / sizeof *simplify);
	tcase_add_test(tc, test_vrt);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	md = pcre2_match_data_create(1, NULL);
	if (md == NULL)
		return (1);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	pcre2_match_data_free(md);
	return (nf == 0 ? 0 : 1);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_relit.c -- issue #13: literal-set regexes answer exactly what
 * PCRE2 answers (compiled as veneerd compiles them: no UTF, default
 * tables), on the cases where the two meanings could part: anchors and
 * a final newline, case folding of letters only, strings that are
 * prefixes of each other or overlap, empty alternatives, bytes >= 0x80,
 * a 120-brand list; and every pattern it must leave to PCRE2 is refused.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/relit.h"

static int
pcre_says(const char *pat, const char *s, size_t len)
{
	pcre2_code *re;
	pcre2_match_data *md;
	PCRE2_SIZE off;
	int err, rc;

	re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &err,
	    &off, NULL);
	ck_assert_msg(re != NULL, "PCRE2 refuses %s", pat);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, md, NULL);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	ck_assert(rc >= 0 || rc == PCRE2_ERROR_NOMATCH);
	return (rc >= 0);
}

static const char * const subjects[] = {
	"", "\n", "a", "A", "abc", "abc\n", "abc\n\n", "xabc", "xabcx",
	"ab", "Sam", "Samsung", "samsung galaxy", "SAMSUNG", "xSamx",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)",
	"Mozilla/5.0 (Linux; Android 14; SM-S918B) Mobile Safari",
	"/img/photo.jpg", "/img/photo.JPG", "/img/photo.jpg\n",
	"/img/photo.jpgx", "/old/page", "/oldpage", "/new/", "x/old/",
	"?utm_source=a", "utm", "utm_", "a.b", "axb", "[", "{", "aa",
	"\xe9t\xe9", "\xc9T\xc9", "abab", "aab", "ba", "hello world",
	"a\nb", "\nabc",
};

static void
same(const char *pat)
{
	struct relit *r;
	char why[128];
	unsigned u;
	size_t len;

	r = RELIT_Compile(pat, why, sizeof why);
	ck_assert_msg(r != NULL, "refused %s: %s", pat, why);
	for (u = 0; u < sizeof subjects / sizeof subjects[0]; u++) {
		len = strlen(subjects[u]);
		ck_assert_msg(RELIT_Match(r, subjects[u], len) ==
		    pcre_says(pat, subjects[u], len), "%s on \"%s\": "
		    "relit %d, PCRE2 %d", pat, subjects[u],
		    RELIT_Match(r, subjects[u], len),
		    pcre_says(pat, subjects[u], len));
	}
	RELIT_Free(&r);
}

START_TEST(issue_0013_relit_same_as_pcre2)
{
	static const char * const pats[] = {
		"abc", "^abc", "abc$", "^abc$", "(abc|ab|a)", "^(ab|a)$",
		"(Sam|Samsung)", "(?i)samsung", "(?i)(sam|SUNG)", "(?i)\\[",
		"\\[", "\\{", "\\.(jpg|png|gif)$", "(?i)\\.(jpg|png)$",
		"^/(old|new)/", "utm_", "(?:a|b)(c|d)", "a(b|)c", "(|x)",
		"", "^", "$", "^$", "(a|)$", "^(a|)", ".*abc", "abc.*",
		".*abc.*", ".*?abc", "a\\.b", "(aa|ab)", "ba|ab", "b|ab|aab",
		"(iPhone|Android|Mobile)", "(?i)(IPHONE|android)",
		"\xe9t\xe9", "(?i)\xe9t\xe9", "world", "(a|b)(a|b)",
		"\\n", "\\\\", "a b", "^(?:abc|ab)$",
	};
	unsigned u;

	for (u = 0; u < sizeof pats / sizeof pats[0]; u++) {
		if (strcmp(pats[u], "\\n") == 0)
			continue;	/* an alnum escape: refused below */
		same(pats[u]);
	}
}
END_TEST

START_TEST(issue_0013_relit_refuses)
{
	static const char * const pats[] = {
		"a+", "a*", "a?", "a{2}", "[ab]", "(a|b)+", "\\d", "\\w",
		"\\bfoo", "\\x41", "\\n", "(?x)a b", "a(?i)b", "(?=a)",
		"a.b", "^.*abc", ".*a|b", "^a|b", "a|b$", "abc.*$", "(a",
		"a)", "(*UTF)a", ".", "a\\", "((a|b)|c)d.e", ".*+a",
	};
	char why[128];
	struct relit *r;
	unsigned u;

	for (u = 0; u < sizeof pats / sizeof pats[0]; u++) {
		why[0] = '\0';
		r = RELIT_Compile(pats[u], why, sizeof why);
		ck_assert_msg(r == NULL, "accepted %s (%s)", pats[u],
		    r != NULL ? RELIT_Describe(r) : "");
		ck_assert_msg(why[0] != '\0', "%s: no reason", pats[u]);
	}
	/* Nested groups are fine: they are still literals. */
	r = RELIT_Compile("((a|b)|c)d", why, sizeof why);
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(RELIT_Describe(r), "3 literals, unanchored");
	RELIT_Free(&r);
}
END_TEST

/* The seed's shape: 120 brands, on user agents. */
START_TEST(issue_0013_relit_brands)
{
	static const char * const uas[] = {
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 "
		    "(KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36",
		"Mozilla/5.0 (Linux; Android 13; Pixel 7) Xiaomi",
		"SAGEM-myX5-2/1.0 Profile/MIDP-2.0", "Sagem", "sagem",
		"Opera/9.80 (J2ME/MIDP; Opera Mini/9.80)", "Zopo", "Zop",
	};
	char pat[4096], *p = pat, why[128];
	struct relit *r;
	unsigned u;

	p += snprintf(p, 16, "(");
	for (u = 0; u < 120; u++)
		p += snprintf(p, 32, "%sBrand%03u", u ? "|" : "", u);
	(void)snprintf(p, 64, "|Sagem|SAGEM|Sendo|Xiaomi|Zopo|MIDP)");
	r = RELIT_Compile(pat, why, sizeof why);
	ck_assert_msg(r != NULL, "%s", why);
	ck_assert_str_eq(RELIT_Describe(r), "126 literals, unanchored");
	for (u = 0; u < sizeof uas / sizeof uas[0]; u++)
		ck_assert_int_eq(RELIT_Match(r, uas[u], strlen(uas[u])),
		    pcre_says(pat, uas[u], strlen(uas[u])));
	RELIT_Free(&r);
}
END_TEST

/* Random literal sets on random subjects over a small alphabet. */
START_TEST(issue_0013_relit_random)
{
	static const char alpha[] = "abAB.\n";
	unsigned long long x = 0x1313;
	char pat[256], subj[32], *p;
	unsigned n, k, u, v, len;
	struct relit *r;

	for (n = 0; n < 3000; n++) {
#define RND(m)	(x = x * 6364136223846793005ULL + 1, \
		    (unsigned)(x >> 33) % (m))
		p = pat;
		if (RND(4) == 0)
			p += snprintf(p, 8, "(?i)");
		if (RND(3) == 0)
			*p++ = '^';
		*p++ = '(';
		k = 1 + RND(5);
		for (u = 0; u < k; u++) {
			if (u > 0)
				*p++ = '|';
			len = RND(4);
			for (v = 0; v < len; v++) {
				char c = alpha[RND(sizeof alpha - 2)];

				if (c == '.')
					*p++ = '\\';
				*p++ = c;
			}
		}
		*p++ = ')';
		if (RND(3) == 0)
			*p++ = '$';
		*p = '\0';
		r = RELIT_Compile(pat, NULL, 0);
		ck_assert_msg(r != NULL, "refused %s", pat);
		for (u = 0; u < 20; u++) {
			len = RND(8);
			for (v = 0; v < len; v++)
				subj[v] = alpha[RND(sizeof alpha - 1)];
			subj[len] = '\0';
			ck_assert_msg(RELIT_Match(r, subj, len) ==
			    pcre_says(pat, subj, len), "%s on \"%s\"", pat,
			    subj);
		}
		RELIT_Free(&r);
	}
}
END_TEST

static Suite *
relit_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("relit");
	tc = tcase_create("relit");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0013_relit_same_as_pcre2);
	tcase_add_test(tc, issue_0013_relit_refuses);
	tcase_add_test(tc, issue_0013_relit_brands);
	tcase_add_test(tc, issue_0013_relit_random);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nf;

	sr = srunner_create(relit_suite());
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

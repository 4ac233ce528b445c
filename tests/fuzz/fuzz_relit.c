/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_relit.c -- the literal-set matcher (src/common/relit.c) against
 * PCRE2 itself, as VRT compiles patterns (options 0, no UTF, default
 * tables).
 *
 * Input: the pattern up to the first NUL byte, the subject after it
 * (without a NUL, the pattern is its own subject).  Each subject is
 * tried as it is, with a "\n" appended, and with its letters' case
 * flipped.  Checks: when RELIT_Compile takes the pattern, PCRE2 takes
 * it too and RELIT_Match answers as pcre2_match; when RELIT_Simplify
 * drops something, the simplified pattern compiles exactly when the
 * original does and matches exactly where it does; and RELIT on the
 * simplified pattern answers as PCRE2 on the original, the chain
 * vrt_re.c uses.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdio.h>

#include "common/relit.h"
#include "tests/fuzz/fuzz.h"

static pcre2_match_data *fuzz_md;
static pcre2_match_context *fuzz_mc;

/* 1 match, 0 none, -1 PCRE2 gave up (match limit): not comparable. */
static int
fuzz_pcre(pcre2_code *code, const char *s, size_t len)
{
	int rc;

	rc = pcre2_match(code, (PCRE2_SPTR)s, len, 0, 0, fuzz_md, fuzz_mc);
	if (rc >= 0)
		return (1);
	if (rc == PCRE2_ERROR_NOMATCH)
		return (0);
	return (-1);
}

static pcre2_code *
fuzz_compile(const char *pattern)
{
	PCRE2_SIZE off;
	int err;

	return (pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
	    &err, &off, NULL));
}

static void
fuzz_mismatch(const char *what, const char *pattern, const char *s,
    size_t len, int want, int got)
{

	fprintf(stderr, "fuzz_relit: %s: pattern \"%s\" subject \"%.*s\" "
	    "(%zu bytes): PCRE2 says %d, got %d\n", what, pattern,
	    (int)len, s, len, want, got);
	abort();
}

/* One subject through everything that took the pattern. */
static void
fuzz_subject(const char *pattern, pcre2_code *orig, const char *simp,
    pcre2_code *scode, const struct relit *rl, const struct relit *srl,
    const char *s, size_t len)
{
	int want, got;

	want = fuzz_pcre(orig, s, len);
	if (want < 0)
		return;
	if (rl != NULL) {
		got = RELIT_Match(rl, s, len);
		if (got != want)
			fuzz_mismatch(RELIT_Describe(rl), pattern, s, len,
			    want, got);
	}
	if (scode != NULL) {
		got = fuzz_pcre(scode, s, len);
		if (got >= 0 && got != want)
			fuzz_mismatch(simp, pattern, s, len, want, got);
	}
	if (srl != NULL) {
		got = RELIT_Match(srl, s, len);
		if (got != want)
			fuzz_mismatch(simp, pattern, s, len, want, got);
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	uint32_t nl;

	(void)argc;
	(void)argv;
	/* relit knows "\n" as the newline only; vrt_re.c checks too. */
	assert(pcre2_config(PCRE2_CONFIG_NEWLINE, &nl) >= 0);
	assert(nl == PCRE2_NEWLINE_LF);
	fuzz_md = pcre2_match_data_create(1, NULL);
	fuzz_mc = pcre2_match_context_create(NULL);
	assert(fuzz_md != NULL && fuzz_mc != NULL);
	/*
	 * Backtracking bombs are PCRE2's problem, not a finding; an input
	 * matches some 130 subjects twice, so each must be cheap.
	 */
	(void)pcre2_set_match_limit(fuzz_mc, 10000);
	(void)pcre2_set_depth_limit(fuzz_mc, 1000);
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct relit *rl, *srl = NULL;
	pcre2_code *orig, *scode = NULL;
	const uint8_t *nul;
	char *pattern, *simp, *s, why[128];
	size_t len, i;

	if (fuzz_md == NULL)
		(void)LLVMFuzzerInitialize(NULL, NULL);
	pattern = fuzz_cstr(data, size);
	nul = memchr(data, '\0', size);
	if (nul != NULL) {
		len = size - (size_t)(nul + 1 - data);
		s = malloc(len + 1);
		assert(s != NULL);
		memcpy(s, nul + 1, len);
	} else {
		len = size;
		s = malloc(len + 1);
		assert(s != NULL);
		memcpy(s, data, len);
	}

	orig = fuzz_compile(pattern);
	rl = RELIT_Compile(pattern, why, sizeof why);
	if (rl != NULL && orig == NULL) {
		fprintf(stderr, "fuzz_relit: \"%s\": RELIT took it, PCRE2 "
		    "did not\n", pattern);
		abort();
	}
	if (rl == NULL)
		assert(why[0] != '\0');
	simp = RELIT_Simplify(pattern);
	if (simp != NULL) {
		scode = fuzz_compile(simp);
		if ((scode == NULL) != (orig == NULL)) {
			fprintf(stderr, "fuzz_relit: \"%s\" compiles: %d, "
			    "simplified \"%s\": %d\n", pattern, orig != NULL,
			    simp, scode != NULL);
			abort();
		}
		srl = RELIT_Compile(simp, why, sizeof why);
		assert(srl == NULL || scode != NULL);
	}
	if (orig == NULL)
		goto done;

	fuzz_subject(pattern, orig, simp, scode, rl, srl, s, len);
	s[len] = '\n';
	fuzz_subject(pattern, orig, simp, scode, rl, srl, s, len + 1);
	for (i = 0; i < len; i++)
		if ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')
			s[i] ^= 0x20;
	fuzz_subject(pattern, orig, simp, scode, rl, srl, s, len);
	/*
	 * Every prefix and suffix: anchors and partial literals.  Not for
	 * a long pattern: PCRE2's interpreter can spend seconds on each
	 * (a 2 KB alternation of mostly empty branches took 26 s).
	 */
	for (i = 0; i <= len && i < 64 && strlen(pattern) <= 256; i++) {
		fuzz_subject(pattern, orig, simp, scode, rl, srl, s, i);
		fuzz_subject(pattern, orig, simp, scode, rl, srl, s + i,
		    len - i);
	}

done:
	RELIT_Free(&rl);
	RELIT_Free(&srl);
	pcre2_code_free(orig);
	pcre2_code_free(scode);
	free(simp);
	free(pattern);
	free(s);
	return (0);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_relit.c -- the literal-set matcher against PCRE2 (issue 13): any
 * pattern relit accepts must give PCRE2's yes or no on any subject.
 * The first byte is the pattern's length (mod the input); the pattern,
 * then the subject, follow.  A pattern PCRE2 refuses must be refused too.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "common/relit.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pcre2_code *re;
	pcre2_match_data *md;
	struct relit *r;
	PCRE2_SIZE off;
	size_t plen;
	char *pat;
	int err, rc;

	plen = fuzz_byte(&data, &size);
	if (plen > size)
		plen = size;
	pat = fuzz_cstr(data, plen);
	if (strlen(pat) != plen) {
		free(pat);		/* a NUL: not a VCL string */
		return (0);
	}
	r = RELIT_Compile(pat, NULL, 0);
	re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, 0, &err,
	    &off, NULL);
	if (re == NULL) {
		assert(r == NULL);
		free(pat);
		return (0);
	}
	if (r != NULL) {
		md = pcre2_match_data_create_from_pattern(re, NULL);
		assert(md != NULL);
		rc = pcre2_match(re, (PCRE2_SPTR)(data + plen), size - plen,
		    0, 0, md, NULL);
		if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH)
			assert(RELIT_Match(r, (const char *)(data + plen),
			    size - plen) == (rc >= 0));
		pcre2_match_data_free(md);
		RELIT_Free(&r);
	}
	pcre2_code_free(re);
	free(pat);
	return (0);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_h1_response.c -- the response head parser as a fetch drives it
 * (http1_fetch.c): H1_Complete, H1_ParseResponse with
 * http_resp_hdr_len and http_max_hdr from the input's first two bytes,
 * then H1_ResponseFraming for a GET and for a HEAD.
 */

#include "config.h"

#include "tests/fuzz/fuzz_h1.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_h1 f;
	enum body_status bs;
	uint64_t cl;
	unsigned must_close, head;
	const char *why;
	char *hb, *he;

	fuzz_h1_init(&f, &data, &size, SLT_BerespMethod);
	if (fuzz_h1_complete(&f, size, &hb, &he)) {
		why = NULL;
		if (H1_ParseResponse(&f.http, hb, he, f.hdr_len, &why) != 0) {
			assert(why != NULL);
		} else {
			fuzz_h1_check(&f, hb, he);
			assert(f.http.protover == 10 || f.http.protover == 11);
			for (head = 0; head < 2; head++) {
				must_close = 0;
				if (H1_ResponseFraming(&f.http, head, &bs, &cl,
				    &must_close, &why) != 0)
					assert(why != NULL);
				else if (head)
					assert(bs == BS_NONE);
			}
		}
	}
	fuzz_h1_fini(&f);
	return (0);
}

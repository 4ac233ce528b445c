/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_h1_request.c -- the request head parser as a client drives it
 * (http1_session.c): H1_Complete, H1_ParseRequest with http_req_hdr_len
 * and http_max_hdr from the input's first two bytes, H1_RequestFraming.
 */

#include "config.h"

#include "tests/fuzz/fuzz_h1.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_h1 f;
	enum body_status bs;
	uint64_t cl;
	const char *why;
	char *hb, *he;
	int status;

	fuzz_h1_init(&f, &data, &size, SLT_ReqMethod);
	if (fuzz_h1_complete(&f, size, &hb, &he)) {
		why = NULL;
		status = H1_ParseRequest(&f.http, hb, he, f.hdr_len, &why);
		assert(status == 0 || status == 400 || status == 431 ||
		    status == 505);
		if (status != 0) {
			assert(why != NULL);
		} else {
			fuzz_h1_check(&f, hb, he);
			assert(f.http.protover == 10 || f.http.protover == 11);
			assert(f.http.hd[HTTP_HDR_METHOD].b != NULL);
			assert(f.http.hd[HTTP_HDR_URL].b != NULL);
			if (H1_RequestFraming(&f.http, &bs, &cl, &why) != 0)
				assert(why != NULL);
			else if (bs != BS_LENGTH)
				assert(bs == BS_NONE || bs == BS_CHUNKED);
		}
	}
	fuzz_h1_fini(&f);
	return (0);
}

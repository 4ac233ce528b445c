/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_vsl_query.c -- veneerlog's and veneerncsa's -q query language
 * (VAPI_QueryNew), and each query that compiles evaluated on a fixed
 * group (VAPI_QueryMatch), whole and as its top transaction alone.
 */

#include "config.h"

#include "tests/fuzz/fuzz_tx.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{

	(void)argc;
	(void)argv;
	fuzz_tx_init();
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vapi_query *q;
	char err[512], *s;
	int r;

	s = fuzz_cstr(data, size);
	err[0] = '\0';
	q = VAPI_QueryNew(s, err, sizeof err);
	if (q == NULL) {
		assert(err[0] != '\0');
		assert(memchr(err, '\0', sizeof err) != NULL);
	} else {
		r = VAPI_QueryMatch(q, fuzz_group, 2);
		assert(r == 0 || r == 1);
		r = VAPI_QueryMatch(q, fuzz_group, 1);
		assert(r == 0 || r == 1);
		VAPI_QueryFree(&q);
		assert(q == NULL);
	}
	free(s);
	return (0);
}

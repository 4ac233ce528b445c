/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_param.c -- the parameter value parser (PARAM_Set, as -p and
 * param.set take it), the cross-parameter checks (PARAM_Check) and the
 * value shown back (PARAM_Format).  The input's first byte picks the
 * parameter; the rest is its value.  The parameter gets its default back
 * afterwards, so each input starts from the same table.
 */

#include "config.h"

#include "common/param.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{

	(void)argc;
	(void)argv;
	PARAM_Init();
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct param_desc *pd;
	char err[512], shown[1024], *value;
	unsigned n;
	int r;

	pd = PARAM_Table(&n);
	assert(pd != NULL && n > 0);
	pd += fuzz_byte(&data, &size) % n;
	value = fuzz_cstr(data, size);
	err[0] = '\0';
	r = PARAM_Set(pd->name, value, err, sizeof err);
	if (r != 0) {
		assert(r == -1 && err[0] != '\0');
	} else {
		PARAM_Format(pd, shown, sizeof shown);
		assert(memchr(shown, '\0', sizeof shown) != NULL);
		/* What is shown is read back to the same value. */
		r = PARAM_Set(pd->name, shown, err, sizeof err);
		assert(r == 0);
		(void)PARAM_Check(err, sizeof err);
	}
	/* A reset, not a set of pd->def: a bit set's default is all of it. */
	(void)PARAM_Reset(pd->name, err, sizeof err);
	free(value);
	return (0);
}

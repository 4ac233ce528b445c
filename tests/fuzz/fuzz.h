/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz.h -- what the fuzz targets share (issue 11).  Each fuzz_<target>.c
 * defines LLVMFuzzerTestOneInput (and LLVMFuzzerInitialize if it needs
 * one time setup) and is linked either with libFuzzer (tools/fuzz.sh) or
 * with replay.c, a plain main() that runs the saved inputs under
 * `make check`.  Targets call the real parsers and nothing else; an
 * input may only ever make them return an error.  A failed assert(),
 * a sanitizer report or a leak is a finding.
 */

#ifndef VENEER_TESTS_FUZZ_H
#define VENEER_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/vas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * The input as a C string, in a heap block of its exact size plus the
 * NUL, so ASan sees a read past its end.  A NUL inside ends it early, as
 * it would end a command-line argument.  free() it.
 */
static inline char *
fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s;

	s = malloc(size + 1);
	assert(s != NULL);
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return (s);
}

/* Take the first byte of the input as a knob (0 when there is none). */
static inline unsigned
fuzz_byte(const uint8_t **data, size_t *size)
{
	unsigned b;

	if (*size == 0)
		return (0);
	b = **data;
	(*data)++;
	(*size)--;
	return (b);
}

#endif /* VENEER_TESTS_FUZZ_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_vcc.c -- the VCL compiler (lexer, parser, type checks, emitter):
 * any input gives C or an error that names a place, never a crash or a
 * leak.  The first byte picks the options (builtin.vcl appended or not,
 * vcc_err_unref, inline C, vcc_optimize off); the rest is the VCL.
 */

#include "config.h"

#include "vcc/vcc.h"
#include "tests/fuzz/fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vcc_opts opts;
	char *src, *c, *msg;
	unsigned o;
	int r;

	o = fuzz_byte(&data, &size);
	memset(&opts, 0, sizeof opts);
	opts.vcl_path = "";
	opts.no_builtin = o & 1;
	opts.err_unref = (o >> 1) & 1;
	opts.allow_inline_c = (o >> 2) & 1;
	opts.optimize = !((o >> 3) & 1);
	src = fuzz_cstr(data, size);
	r = VCC_Compile(&opts, "fuzz.vcl", src, &c, &msg);
	assert(msg != NULL);
	if (r == 0) {
		assert(c != NULL && strstr(c, "VCL_conf") != NULL);
	} else {
		assert(r == -1 && c == NULL);
		assert(strstr(msg, "error: ") != NULL);
	}
	free(c);
	free(msg);
	free(src);
	return (0);
}

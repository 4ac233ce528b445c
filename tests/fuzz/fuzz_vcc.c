/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_vcc.c -- the VCL compiler (VCC_Compile) on VCL source.  The
 * input's first byte picks the options (bit 0: no builtin.vcl, bit 1:
 * err_unref, bit 2: inline C allowed); the rest is the main file's text.
 * Whatever the input, the compiler returns C or an error, never both,
 * and frees everything it allocated (a leak is a finding).  Includes are
 * looked for beside a file in a directory that does not exist, and in no
 * vcl_path, so the input cannot pull in files of the machine but by an
 * absolute name.
 */

#include "config.h"

#include "vcc/vcc.h"
#include "tests/fuzz/fuzz.h"

/*
 * Whether msg has a message of this kind: "<file>:<line>:<col>: kind:"
 * on a line of its own (not indented: the quoted source lines are).
 */
static int
has_kind(const char *msg, const char *kind)
{
	const char *p, *e;
	size_t kl = strlen(kind);

	for (p = msg; *p != '\0'; p = *e == '\n' ? e + 1 : e) {
		e = strchr(p, '\n');
		if (e == NULL)
			e = p + strlen(p);
		if (*p == ' ')
			continue;
		if (!strncmp(p, kind, kl))
			return (1);
		for (; p + kl + 2 <= e; p++)
			if (p[0] == ':' && p[1] == ' ' &&
			    !strncmp(p + 2, kind, kl))
				return (1);
	}
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vcc_opts o;
	char *src, *c = NULL, *msg = NULL;
	unsigned k;
	int r;

	k = fuzz_byte(&data, &size);
	memset(&o, 0, sizeof o);
	o.no_builtin = k & 1;
	o.err_unref = (k >> 1) & 1;
	o.allow_inline_c = (k >> 2) & 1;
	o.vcl_path = "";
	src = fuzz_cstr(data, size);
	r = VCC_Compile(&o, "/nonexistent/fuzz.vcl", src, &c, &msg);
	assert(msg != NULL);
	if (r == 0) {
		assert(c != NULL);
		assert(strstr(c, "const struct vcl_conf VCL_conf") != NULL);
		assert(!has_kind(msg, "error:"));
	} else {
		assert(r == -1);
		assert(c == NULL);
		assert(has_kind(msg, "error:"));
	}
	free(c);
	free(msg);
	free(src);
	return (0);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_ncsa_format.c -- veneerncsa's -F format parser (NCSA_New), and
 * each format that compiles rendered from a fixed request and fetch,
 * plain and with -j's JSON escapes (NCSA_Render).
 */

#include "config.h"

#include "tools/veneerlog/ncsa.h"
#include "tests/fuzz/fuzz_tx.h"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{

	(void)argc;
	(void)argv;
	fuzz_tx_init();
	/* Times are rendered in local time: make that the same everywhere. */
	(void)setenv("TZ", "UTC", 1);
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ncsa_format *f;
	struct ncsa_buf buf;
	char err[512], *s;
	unsigned u, flags;
	int r;

	s = fuzz_cstr(data, size);
	err[0] = '\0';
	f = NCSA_New(s, err, sizeof err);
	if (f == NULL) {
		assert(err[0] != '\0');
	} else {
		memset(&buf, 0, sizeof buf);
		for (u = 0; u < 2; u++) {
			for (flags = 0; flags < 4; flags++) {
				r = NCSA_Render(f, fuzz_group[u], flags, &buf);
				assert(r == 0 || r == 1);
				if (r == 1)
					assert(buf.len <= buf.cap);
			}
		}
		NCSA_BufFini(&buf);
		NCSA_Free(&f);
		assert(f == NULL);
	}
	free(s);
	return (0);
}

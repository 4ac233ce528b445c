/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_storage_arg.c -- veneerd's -s parser ([name=]malloc[,size]):
 * each input line is one -s argument.  Checks what the child is handed:
 * named, unique stores of at least 1M (0 only for an unlimited
 * Transient), no more than it has room for.
 */

#include "config.h"

#include "tests/fuzz/fuzz_mgt.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned u, v;

	mgt_nstores = 0;
	memset(mgt_stores, 0, sizeof mgt_stores);
	(void)fuzz_mgt_lines(data, size, mgt_storage_arg);
	assert(mgt_nstores <= CHILD_MAX_STORES);
	for (u = 0; u < mgt_nstores; u++) {
		assert(mgt_stores[u].name[0] != '\0');
		assert(memchr(mgt_stores[u].name, '\0',
		    sizeof mgt_stores[u].name) != NULL);
		assert(mgt_stores[u].size >= 1024 * 1024 ||
		    (mgt_stores[u].size == 0 &&
		    !strcmp(mgt_stores[u].name, "Transient")));
		for (v = 0; v < u; v++)
			assert(strcmp(mgt_stores[u].name,
			    mgt_stores[v].name) != 0);
	}
	return (0);
}

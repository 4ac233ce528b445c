/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_listen_arg.c -- veneerd's -a parser ([name=][host][:port][,PROTO]):
 * each input line is one -a argument.  Checks that every accepted one
 * has a name and a port (a Unix socket's path instead of a port), all
 * strings terminated within their fields.
 */

#include "config.h"

#include "tests/fuzz/fuzz_mgt.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct listen_arg *la;
	unsigned u, n;

	free(mgt_largs);
	mgt_largs = NULL;
	mgt_nlargs = 0;
	n = fuzz_mgt_lines(data, size, MGT_ListenArg);
	/* A refused argument is counted before it is refused. */
	assert(mgt_nlargs == n || mgt_nlargs == n + 1);
	for (u = 0; u < n; u++) {
		la = &mgt_largs[u];
		assert(memchr(la->name, '\0', sizeof la->name) != NULL);
		assert(memchr(la->arg, '\0', sizeof la->arg) != NULL);
		assert(memchr(la->host, '\0', sizeof la->host) != NULL);
		assert(memchr(la->port, '\0', sizeof la->port) != NULL);
		assert(la->name[0] != '\0');
		assert(memchr(la->path, '\0', sizeof la->path) != NULL);
		assert((la->port[0] != '\0') != (la->path[0] == '/'));
	}
	return (0);
}

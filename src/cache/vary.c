/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vary.c -- does a request match a cached variant?  See vary.h for the
 * blob's layout.  Values compare exactly, after the blanks around them
 * are trimmed (as header values always are here); names were lowercased
 * by the fetch and header lookups ignore case.
 */

#include "config.h"

#include <string.h>

#include "common/miniobj.h"
#include "cache/http.h"
#include "cache/vary.h"

int
VRY_Match(const struct http *req, const char *blob, size_t len)
{
	const char *p = blob, *e = blob + len, *name;
	struct txt v;
	size_t l;
	int have;

	CHECK_OBJ(req, HTTP_MAGIC);
	while (p < e) {
		name = p;
		p += strlen(p) + 1;
		assert(p < e);
		have = HTTP_GetHdr(req, name, &v);
		if (*p++ == '\0') {
			if (have)
				return (0);
			continue;
		}
		if (!have)
			return (0);
		l = strlen(p);
		if (TXT_LEN(v) != l || memcmp(v.b, p, l))
			return (0);
		p += l + 1;
	}
	return (1);
}

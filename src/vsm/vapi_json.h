/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_json.h -- a small JSON parser for the counters' documents (StatDoc
 * segments), which another process wrote and which may be hostile,
 * truncated or garbage: input is bounded by its length, nesting by
 * VJSON_MAX_DEPTH, and any error gives NULL and a message, never a
 * crash.  Builds a tree; strings are decoded (escapes, \u to UTF-8).
 * Not exported from libveneerapi; tests compile it in.
 */

#ifndef VENEER_VSM_VAPI_JSON_H
#define VENEER_VSM_VAPI_JSON_H

#include <stddef.h>
#include <stdint.h>

#define VJSON_MAX_DEPTH		64

enum vjson_type {
	VJSON_NULL = 1,
	VJSON_FALSE,
	VJSON_TRUE,
	VJSON_NUMBER,
	VJSON_STRING,
	VJSON_ARRAY,
	VJSON_OBJECT,
};

struct vjson {
	unsigned		magic;
#define VJSON_MAGIC		0x3e6b0d55
	enum vjson_type		type;
	const char		*key;		/* member name, in an object */
	const char		*str;		/* string decoded (may hold
						   NULs: see len), number as
						   written; else NULL */
	size_t			len;		/* of str */
	struct vjson		*child;		/* array, object: first */
	struct vjson		*next;		/* next sibling */
	struct vjson		*all;		/* every node, for freeing */
	char			*mem;		/* the root's: string space */
};

/*
 * Parse exactly one JSON value in [p, p + len), surrounded by nothing but
 * whitespace.  The tree, or NULL with err filled ("line 1 col 17:
 * expected ':'").
 */
__attribute__((__visibility__("hidden")))
struct vjson *VJSON_Parse(const char *p, size_t len, char *err,
    size_t errlen);
__attribute__((__visibility__("hidden")))
void VJSON_Free(struct vjson **jp);
/* The first member named key of an object, or NULL. */
__attribute__((__visibility__("hidden")))
const struct vjson *VJSON_Member(const struct vjson *obj, const char *key);
/*
 * A non-negative integer from a number, or a string holding one
 * ("index": 8 or "8").  0, or -1 if it is anything else or too big.
 */
__attribute__((__visibility__("hidden")))
int VJSON_Uint(const struct vjson *j, uint64_t *val);

#endif /* VENEER_VSM_VAPI_JSON_H */

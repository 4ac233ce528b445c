/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * txt.h -- a (begin, end) string that need not be NUL-terminated; the
 * request path passes these instead of copying into C strings.
 */

#ifndef VENEER_TXT_H
#define VENEER_TXT_H

#include <stddef.h>
#include <string.h>
#include <strings.h>

struct txt {
	const char	*b;
	const char	*e;
};

#define TXT_LEN(t)	((size_t)((t).e - (t).b))
#define TXT_OK(t)	((t).b != NULL && (t).e >= (t).b)

static inline struct txt
TXT_Make(const char *b, const char *e)
{
	struct txt t;

	t.b = b;
	t.e = e;
	return (t);
}

static inline struct txt
TXT_Str(const char *s)
{

	return (TXT_Make(s, s + strlen(s)));
}

/*
 * ASCII lowercase: header names, tokens and host names compare without
 * regard to case, and a locale must never change how.
 */
static inline char
TXT_Lower(char c)
{

	return (c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
}

/* Exact, case-sensitive comparison with a C string. */
static inline int
TXT_Eq(struct txt t, const char *s)
{
	size_t l = strlen(s);

	return (TXT_LEN(t) == l && memcmp(t.b, s, l) == 0);
}

/* Case-insensitive comparison with a C string. */
static inline int
TXT_EqCase(struct txt t, const char *s)
{
	size_t l = strlen(s);

	return (TXT_LEN(t) == l && strncasecmp(t.b, s, l) == 0);
}

#endif /* VENEER_TXT_H */

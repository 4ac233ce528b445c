/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * relit.h -- regular expressions that are only sets of literals,
 * matched without backtracking.  A VCL condition such as
 * `req.http.User-Agent ~ "(Sagem|SAGEM|Sendo|...)"` names 120 strings;
 * PCRE2 tries them one after another at each position, this tries them
 * all at once with one table lookup per byte (an Aho-Corasick automaton
 * over the bytes the literals use).  The answer is PCRE2's, yes or no, as
 * veneerd compiles patterns (no UTF, default character tables); the
 * positions and captures are not kept, so it is only for ~ and !~.
 */

#ifndef VENEER_COMMON_RELIT_H
#define VENEER_COMMON_RELIT_H

#include <stddef.h>

struct relit;

/*
 * The matcher for pattern, or NULL when pattern is not one this can
 * answer exactly (why says which part, if why is not NULL).  Accepted:
 * an optional (?i) (ASCII letters fold), an optional ^, then literal
 * characters (escaped specials included) and groups `(...)` or `(?:...)`
 * of literal alternatives, or one top-level alternation of literals, then
 * an optional $; `.*` at an unanchored end is dropped.
 */
struct relit *RELIT_Compile(const char *pattern, char *why, size_t whylen);
/* 1 if PCRE2 would find a match in s[0..len), else 0. */
int RELIT_Match(const struct relit *, const char *s, size_t len);
/* "120 literals, unanchored, caseless": for logs and tests. */
const char *RELIT_Describe(const struct relit *);
void RELIT_Free(struct relit **);

#endif /* VENEER_COMMON_RELIT_H */

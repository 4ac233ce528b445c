/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * relit.h -- regular expressions that are only sets of literals
 * ("(Sagem|SAGEM|Sendo)", "(?i)android|blackberry", "^/(static|media)/",
 * "\.(jpg|png)$"), answered yes or no by one pass of an Aho-Corasick
 * automaton instead of PCRE2 trying each alternative at each offset.
 *
 * The answer is exactly pcre2_match()'s with options 0 and PCRE2's
 * default character tables, no UTF and "\n" as the newline: (?i) folds
 * A-Z and a-z only, ^ holds at offset 0 only, $ at the end or before a
 * final "\n".  A pattern RELIT_Compile cannot answer exactly is refused,
 * and the caller uses PCRE2.  No captures: only for `~` and `!~`.
 */

#ifndef VENEER_RELIT_H
#define VENEER_RELIT_H

#include <stddef.h>

struct relit;

/*
 * The matcher for pattern, or NULL with why (a sentence, for tests
 * and debugging) when the pattern is not a set of literals this file
 * can match exactly, or is too big (more than 64 KB of literals), or
 * memory ran out.  Accepted: an optional leading (?i), then
 * alternatives separated by |, each [^]literal[(group)literal][$] where
 * a group is ( or (?: holding |-separated [^]literal[$] (^ only when no
 * literal precedes the group, $ only when none follows).  A literal is
 * any byte but \ ^ $ . [ | ( ) ? * + {, or \ before an ASCII
 * punctuation mark or a space.  Everything else is refused.
 */
struct relit *RELIT_Compile(const char *pattern, char *why, size_t whylen);

/* 1 when pcre2_match() would find a match in s[0, len), else 0. */
int RELIT_Match(const struct relit *, const char *s, size_t len);

/* What was built, e.g. "120 literals, unanchored, caseless, 702 states". */
const char *RELIT_Describe(const struct relit *);

void RELIT_Free(struct relit **);

/*
 * pattern without what cannot change whether it matches: a leading .*
 * (not after ^) and a trailing .* (not before $), as "(?i).*foo.*" ->
 * "(?i)foo".  malloc'd, or NULL when nothing can be dropped (or
 * memory ran out).  Patterns with \Q, (?x), backtracking verbs or
 * recursion are left alone.
 */
char *RELIT_Simplify(const char *pattern);

#endif /* VENEER_RELIT_H */

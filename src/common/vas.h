/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vas.h -- assertions.  Bugs are asserted in release builds too: a failed
 * assertion calls VAS_Fail(), which the child points at its panic handler
 * (message, backtrace and state dump, then abort) and the manager and the
 * tools leave at the default (message to stderr, abort).
 *
 * Include this instead of <assert.h>; it defines assert() itself.
 */

#ifndef VENEER_VAS_H
#define VENEER_VAS_H

#include <errno.h>

enum vas_kind {
	VAS_ASSERT,	/* assert(cond) failed */
	VAS_WRONG,	/* WRONG("why"): a branch that cannot be taken */
	VAS_MISSING,	/* INCOMPL(): not written yet */
};

typedef void vas_f(const char *func, const char *file, int line,
    const char *cond, enum vas_kind kind);

/* Where failed assertions go; the child replaces it at start. */
extern vas_f *VAS_Fail_Func;

void VAS_Fail(const char *func, const char *file, int line,
    const char *cond, enum vas_kind kind) __attribute__((__noreturn__));

#undef assert
#define assert(e)							\
	do {								\
		if (__builtin_expect(!(e), 0))				\
			VAS_Fail(__func__, __FILE__, __LINE__, #e,	\
			    VAS_ASSERT);				\
	} while (0)

/* For calls that return 0 on success. */
#define ASSERT_ZERO(e)							\
	do {								\
		if (__builtin_expect((e) != 0, 0))			\
			VAS_Fail(__func__, __FILE__, __LINE__,		\
			    #e " == 0", VAS_ASSERT);			\
	} while (0)

#define WRONG(why)							\
	VAS_Fail(__func__, __FILE__, __LINE__, why, VAS_WRONG)

#define INCOMPL()							\
	VAS_Fail(__func__, __FILE__, __LINE__, "not implemented",	\
	    VAS_MISSING)

/* Checks only debug builds pay for. */
#ifdef VENEER_DEBUG
#define ASSERT_SLOW(e)	assert(e)
#else
#define ASSERT_SLOW(e)	do { } while (0)
#endif

#define NEEDLESS(s)	do { s; } while (0)

#endif /* VENEER_VAS_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vas.c -- the default assertion failure handler: print and abort.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/vas.h"

static void
vas_default(const char *func, const char *file, int line, const char *cond,
    enum vas_kind kind)
{
	int err = errno;

	switch (kind) {
	case VAS_WRONG:
		fprintf(stderr, "Wrong turn at %s:%d %s(): %s\n",
		    file, line, func, cond);
		break;
	case VAS_MISSING:
		fprintf(stderr, "Missing code at %s:%d %s()\n",
		    file, line, func);
		break;
	default:
		fprintf(stderr, "Assert error in %s(), %s line %d:\n"
		    "  Condition(%s) not true.\n", func, file, line, cond);
		break;
	}
	if (err != 0)
		fprintf(stderr, "  errno = %d (%s)\n", err, strerror(err));
	fflush(stderr);
}

vas_f *VAS_Fail_Func = vas_default;

void
VAS_Fail(const char *func, const char *file, int line, const char *cond,
    enum vas_kind kind)
{

	VAS_Fail_Func(func, file, line, cond, kind);
	abort();
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fmt.h -- formatting numbers and strings on the request path without
 * glibc's printf machinery, which cost more than the work it formats
 * (log records, X-Varnish, Timestamp records).
 */

#ifndef VENEER_FMT_H
#define VENEER_FMT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Decimal digits of v at p, no NUL.  Returns how many (at most 20). */
size_t FMT_Uint(char *p, uintmax_t v);

/*
 * v as printf's "%.6f" prints it, at p, no NUL; at most 24 characters.  0 for a
 * value that is not finite or not under 1e15 in size (print those with
 * printf).
 */
size_t FMT_Fixed6(char *p, double v);

/*
 * vsnprintf for literal text, %s %.*s %c %d %u %ld %lu %jd %ju %zu and
 * %%, fast; anything else goes to vsnprintf.  Writes at most len - 1
 * characters and a NUL; returns the length the whole text has, as
 * vsnprintf does (so a result >= len means it was cut), never negative.
 */
int FMT_Vsnprintf(char *dst, size_t len, const char *fmt, va_list ap)
    __attribute__((__format__(__printf__, 3, 0)));

/* FMT_Vsnprintf with its arguments in line. */
int FMT_Snprintf(char *dst, size_t len, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

#endif /* VENEER_FMT_H */

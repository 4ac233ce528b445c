/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fmt.c -- fast formatting for the request path (see fmt.h).  No state.
 */

#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/vas.h"
#include "common/fmt.h"

/* "00" to "99": two digits per division. */
static const char fmt_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233"
    "34353637383940414243444546474849505152535455565758596061626364656667"
    "6869707172737475767778798081828384858687888990919293949596979899";

/* How many decimal digits v has. */
static inline size_t
fmt_ndigits(uintmax_t v)
{
	size_t n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	if (v >= 100)
		n += v >= 1000 ? 3 : 2;
	else if (v >= 10)
		n += 1;
	return (n);
}

/* The digits of v ending at e, two at a time (32 bits when they do). */
static inline void
fmt_digits_back(char *e, uintmax_t v)
{
	uint32_t w, r;

	while (v > UINT32_MAX) {
		r = (uint32_t)(v % 100);
		v /= 100;
		e -= 2;
		e[0] = fmt_pairs[2 * r];
		e[1] = fmt_pairs[2 * r + 1];
	}
	for (w = (uint32_t)v; w >= 100; w /= 100) {
		r = w % 100;
		e -= 2;
		e[0] = fmt_pairs[2 * r];
		e[1] = fmt_pairs[2 * r + 1];
	}
	if (w >= 10) {
		e -= 2;
		e[0] = fmt_pairs[2 * w];
		e[1] = fmt_pairs[2 * w + 1];
	} else {
		e[-1] = (char)('0' + w);
	}
}

size_t
FMT_Uint(char *p, uintmax_t v)
{
	size_t n = fmt_ndigits(v);

	fmt_digits_back(p + n, v);
	return (n);
}

/* The six digits of a fraction in whole microseconds. */
static inline void
fmt_six(char *p, uint32_t f)
{
	uint32_t a = f / 10000, b = f / 100 % 100, c = f % 100;

	p[0] = fmt_pairs[2 * a];
	p[1] = fmt_pairs[2 * a + 1];
	p[2] = fmt_pairs[2 * b];
	p[3] = fmt_pairs[2 * b + 1];
	p[4] = fmt_pairs[2 * c];
	p[5] = fmt_pairs[2 * c + 1];
}

/*
 * x rounded to a whole number, half to even, as printf rounds.  x is
 * exact * scale (1e6, 1e3) rounded once; the rounding keeps it on the same side of
 * every half but may land on one, and only then is the exact product's
 * side of it asked of fma().  0 <= x < 2^53.
 */
static inline uint64_t
fmt_round_scaled_by(double exact, double x, double scale)
{
	uint64_t k = (uint64_t)x;
	double d = x - (double)k, r;

	if (d < 0.5)
		return (k);
	if (d > 0.5)
		return (k + 1);
	r = fma(exact, scale, -x);
	return (k + (r > 0 || (r == 0 && (k & 1) != 0)));
}

static inline uint64_t
fmt_round_scaled(double exact, double x)
{

	return (fmt_round_scaled_by(exact, x, 1e6));
}

/*
 * A time or duration in seconds to six decimals, to the microsecond that
 * printf would print.  Under 2^53 microseconds (until the year 2255) the
 * product with 1e6 is exact enough to round; beyond that, the exact
 * fractional part (modf) is scaled instead.
 */
size_t
FMT_Fixed6(char *p, double v)
{
	double a = fabs(v), ip, fp;
	uint64_t us, sec;
	size_t n = 0;

	if (!(a < 1e15))
		return (0);
	if (signbit(v))
		p[n++] = '-';
	if (a < 9007199254.0) {
		us = fmt_round_scaled(a, a * 1e6);
		sec = us / 1000000;
		us -= sec * 1000000;
	} else {
		fp = modf(a, &ip);
		sec = (uint64_t)ip;
		us = fmt_round_scaled(fp, fp * 1e6);
		if (us == 1000000) {
			sec++;
			us = 0;
		}
	}
	n += FMT_Uint(p + n, sec);
	p[n++] = '.';
	fmt_six(p + n, (uint32_t)us);
	return (n + 6);
}

/* The integer argument after %, l, j or z; 0 if not one we know. */
static int
fmt_int(const char **fmtp, va_list *ap, uintmax_t *u, intmax_t *sv)
{
	const char *f = *fmtp;

	switch (*f) {
	case 'u': *u = va_arg(*ap, unsigned); return ('u');
	case 'd': *sv = va_arg(*ap, int); return ('d');
	case 'l': case 'j': case 'z': break;
	default: return (0);
	}
	*fmtp = ++f;
	if (f[-1] == 'l' && *f == 'u')
		*u = va_arg(*ap, unsigned long);
	else if (f[-1] == 'j' && *f == 'u')
		*u = va_arg(*ap, uintmax_t);
	else if (f[-1] == 'z' && *f == 'u')
		*u = va_arg(*ap, size_t);
	else if (f[-1] == 'l' && *f == 'd')
		*sv = va_arg(*ap, long);
	else if (f[-1] == 'j' && *f == 'd')
		*sv = va_arg(*ap, intmax_t);
	else
		return (0);
	return (*f);
}

/*
 * Append l bytes of s at dst + n, as far as len leaves room (one byte
 * is kept for the NUL); the length counts on regardless.
 */
static inline size_t
fmt_put(char *dst, size_t len, size_t n, const char *s, size_t l)
{

	if (n < len - 1)
		memcpy(dst + n, s, l < len - 1 - n ? l : len - 1 - n);
	return (n + l);
}

/* An unsigned number, written in place when it surely fits. */
static inline size_t
fmt_put_uint(char *dst, size_t len, size_t n, uintmax_t v)
{
	char num[24];

	if (n + 21 < len)
		return (n + FMT_Uint(dst + n, v));
	return (fmt_put(dst, len, n, num, FMT_Uint(num, v)));
}

/*
 * %.6f, %.3f or %.0f into num (40 bytes), as printf prints them; 0 when
 * the value is beyond what we round exactly (printf will do).  Halves go
 * to even, as printf does in the default rounding mode.
 */
static size_t
fmt_float(char *num, int prec, double v)
{
	double a = fabs(v);
	uint64_t ms;
	size_t n = 0;

	if (prec == 6)
		return (FMT_Fixed6(num, v));
	if (!(a < 4503599627370.0))	/* 2^52 / 1000 */
		return (0);
	if (signbit(v))
		num[n++] = '-';
	if (prec == 0)
		return (n + FMT_Uint(num + n, (uintmax_t)nearbyint(a)));
	/* %.3f: milliseconds, rounded as printf rounds. */
	ms = fmt_round_scaled_by(a, a * 1e3, 1e3);
	n += FMT_Uint(num + n, ms / 1000);
	ms %= 1000;
	num[n++] = '.';
	num[n++] = (char)('0' + ms / 100);
	num[n++] = (char)('0' + ms / 10 % 10);
	num[n++] = (char)('0' + ms % 10);
	return (n);
}

/* The fast path: -1 when a conversion is not one it knows. */
static int
fmt_fast(char *dst, size_t len, const char *fmt, va_list ap)
{
	const char *s;
	char num[40];
	size_t n = 0, l;
	uintmax_t u;
	intmax_t sv;
	int k;
	char c;
	va_list aq;

	/* A va_list of our own: the parameter's type is not va_list's. */
	va_copy(aq, ap);
	while ((c = *fmt++) != '\0') {
		if (c != '%') {
			if (n < len - 1)
				dst[n] = c;
			n++;
			continue;
		}
		switch (*fmt) {
		case '%':
			if (n < len - 1)
				dst[n] = '%';
			n++;
			break;
		case 's':
			s = va_arg(aq, const char *);
			if (s == NULL)
				s = "(null)";
			n = fmt_put(dst, len, n, s, strlen(s));
			break;
		case '.':
			if ((fmt[1] == '6' || fmt[1] == '3' ||
			    fmt[1] == '0') && fmt[2] == 'f') {
				l = fmt_float(num, fmt[1] - '0',
				    va_arg(aq, double));
				if (l == 0)
					goto slow;
				n = fmt_put(dst, len, n, num, l);
				fmt += 2;
				break;
			}
			if (fmt[1] != '*' || fmt[2] != 's')
				goto slow;
			fmt += 2;
			k = va_arg(aq, int);
			s = va_arg(aq, const char *);
			if (s == NULL)
				s = "(null)";
			l = k >= 0 ? strnlen(s, (size_t)k) : strlen(s);
			n = fmt_put(dst, len, n, s, l);
			break;
		case 'c':
			if (n < len - 1)
				dst[n] = (char)va_arg(aq, int);
			n++;
			break;
		default:
			k = fmt_int(&fmt, &aq, &u, &sv);
			if (k == 0)
				goto slow;
			if (k != 'u') {
				if (sv < 0) {
					if (n < len - 1)
						dst[n] = '-';
					n++;
					u = (uintmax_t)0 - (uintmax_t)sv;
				} else
					u = (uintmax_t)sv;
			}
			n = fmt_put_uint(dst, len, n, u);
			break;
		}
		fmt++;
	}
	va_end(aq);
	dst[n < len - 1 ? n : len - 1] = '\0';
	return (n > INT_MAX ? INT_MAX : (int)n);
slow:
	va_end(aq);
	return (-1);
}

int
FMT_Vsnprintf(char *dst, size_t len, const char *fmt, va_list ap)
{
	int n;

	assert(len > 0);
	n = fmt_fast(dst, len, fmt, ap);
	if (n >= 0)
		return (n);
	n = vsnprintf(dst, len, fmt, ap);
	if (n < 0) {
		*dst = '\0';
		return (0);
	}
	return (n);
}

int
FMT_Snprintf(char *dst, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = FMT_Vsnprintf(dst, len, fmt, ap);
	va_end(ap);
	return (n);
}

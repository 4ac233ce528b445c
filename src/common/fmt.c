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

size_t
FMT_Uint(char *p, uintmax_t v)
{
	char d[24];
	size_t n = sizeof d, l;
	unsigned r;

	while (v >= 100) {
		r = (unsigned)(v % 100);
		v /= 100;
		n -= 2;
		memcpy(d + n, fmt_pairs + 2 * r, 2);
	}
	if (v >= 10) {
		n -= 2;
		memcpy(d + n, fmt_pairs + 2 * v, 2);
	} else {
		d[--n] = (char)('0' + v);
	}
	l = sizeof d - n;
	memcpy(p, d + n, l);
	return (l);
}

/*
 * Integer arithmetic on the exact integral and fractional parts of v
 * (modf).  The fraction is scaled by 1e6 with one rounding, which keeps
 * it on the same side of every half but may land on one: only then is
 * the exact product's side of it asked of fma().  Ties go to even, as
 * printf's do.
 */
size_t
FMT_Fixed6(char *p, double v)
{
	double ip, fp, sc, fl, r;
	uint64_t sec, frac;
	size_t n = 0;
	unsigned u;

	if (!(fabs(v) < 1e15))
		return (0);
	if (signbit(v))
		p[n++] = '-';
	fp = modf(fabs(v), &ip);
	sec = (uint64_t)ip;
	sc = fp * 1e6;
	fl = floor(sc);
	if (sc - fl != 0.5)
		frac = (uint64_t)nearbyint(sc);
	else {
		r = fma(fp, 1e6, -sc);
		frac = (uint64_t)fl +
		    (r > 0 || (r == 0 && ((uint64_t)fl & 1) != 0));
	}
	if (frac == 1000000) {
		sec++;
		frac = 0;
	}
	n += FMT_Uint(p + n, sec);
	p[n++] = '.';
	for (u = 0; u < 3; u++) {
		memcpy(p + n + 4 - 2 * u, fmt_pairs + 2 * (frac % 100), 2);
		frac /= 100;
	}
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

/* The fast path: -1 when a conversion is not one it knows. */
static int
fmt_fast(char *dst, size_t len, const char *fmt, va_list ap)
{
	char num[24];
	const char *s, *pct;
	size_t n = 0, l;
	uintmax_t u;
	intmax_t sv;
	int star, k;
	va_list aq;

	/* A va_list of our own: the parameter's type is not va_list's. */
	va_copy(aq, ap);
	while (*fmt != '\0') {
		pct = strchr(fmt, '%');
		l = pct == NULL ? strlen(fmt) : (size_t)(pct - fmt);
		if (l > 0) {
			/* Literal text, copied in one go. */
			s = fmt;
			fmt += l;
		} else {
			fmt++;
			star = fmt[0] == '.' && fmt[1] == '*';
			if (star)
				fmt += 2;
			if (*fmt == '%' && !star) {
				s = "%";
				l = 1;
			} else if (*fmt == 's') {
				k = star ? va_arg(aq, int) : -1;
				s = va_arg(aq, const char *);
				if (s == NULL)
					s = "(null)";
				l = k >= 0 ? strnlen(s, (size_t)k) : strlen(s);
			} else if (*fmt == 'c' && !star) {
				num[0] = (char)va_arg(aq, int);
				s = num;
				l = 1;
			} else if (!star &&
			    (k = fmt_int(&fmt, &aq, &u, &sv)) != 0) {
				s = num;
				if (k == 'u')
					l = FMT_Uint(num, u);
				else if (sv < 0) {
					num[0] = '-';
					l = 1 + FMT_Uint(num + 1,
					    (uintmax_t)0 - (uintmax_t)sv);
				} else
					l = FMT_Uint(num, (uintmax_t)sv);
			} else {
				va_end(aq);
				return (-1);
			}
			fmt++;
		}
		if (n < len - 1)
			memcpy(dst + n, s, l < len - 1 - n ? l : len - 1 - n);
		n += l;
	}
	va_end(aq);
	dst[n < len - 1 ? n : len - 1] = '\0';
	return (n > INT_MAX ? INT_MAX : (int)n);
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

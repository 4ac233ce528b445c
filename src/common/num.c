/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * num.c -- parsing numbers with units.  Pure functions, no allocation.
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/vas.h"
#include "common/num.h"

/*
 * A non-negative decimal number ("12", "1.5", ".25") followed by an
 * optional unit; leading and trailing blanks are allowed, nothing else.
 * strtod() is not used: it accepts hex, "inf", "nan" and exponents.
 */
static const char *
num_split(const char *s, double *val, const char **unit)
{
	double v = 0, frac = 0, scale = 1;
	int digits = 0;

	if (s == NULL)
		return ("missing value");
	while (isblank((unsigned char)*s))
		s++;
	if (*s == '-')
		return ("must not be negative");
	if (*s == '+')
		s++;
	for (; isdigit((unsigned char)*s); s++, digits++)
		v = v * 10 + (*s - '0');
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, digits++) {
			frac = frac * 10 + (*s - '0');
			scale *= 10;
		}
	}
	if (digits == 0)
		return ("not a number");
	/*
	 * One rounding, not one per digit: summing 0.7 and 0.05 gives
	 * 0.7500000000000001, and "0.75k" would not be whole bytes.
	 */
	v += frac / scale;
	if (!isfinite(v))
		return ("too many digits");
	while (isblank((unsigned char)*s))
		s++;
	*unit = s;
	*val = v;
	return (NULL);
}

static int
num_unit_is(const char *u, const char *name)
{
	size_t l = strlen(name);

	if (strncasecmp(u, name, l) != 0)
		return (0);
	for (u += l; isblank((unsigned char)*u); u++)
		continue;
	return (*u == '\0');
}

const char *
NUM_ParseDuration(const char *s, double *out)
{
	/* ms divides by 1000: 456ms is then the double "0.456" reads as. */
	static const struct {
		const char	*name;
		double		mult;
		double		div;
	} units[] = {
		{ "",	1, 1 },		{ "ms",	1, 1000 },	{ "s",	1, 1 },
		{ "m",	60, 1 },	{ "h",	3600, 1 },	{ "d",	86400, 1 },
		{ "w",	604800, 1 },	{ "y",	31536000, 1 },
	};
	const char *err, *u;
	double v;
	unsigned i;

	err = num_split(s, &v, &u);
	if (err != NULL)
		return (err);
	for (i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (num_unit_is(u, units[i].name)) {
			/* 1e305 fits a double; 1e305 years do not. */
			if (!isfinite(v * units[i].mult))
				return ("too large");
			*out = v * units[i].mult / units[i].div;
			return (NULL);
		}
	}
	return ("unknown time unit (use ms, s, m, h, d, w or y)");
}

const char *
NUM_ParseBytes(const char *s, uint64_t *out)
{
	static const char units[] = "bkmgtp";
	const char *err, *u, *p;
	double v, mult = 1;

	err = num_split(s, &v, &u);
	if (err != NULL)
		return (err);
	if (*u != '\0') {
		p = strchr(units, tolower((unsigned char)*u));
		if (p == NULL)
			return ("unknown size unit (use b, k, m, g, t or p)");
		mult = ldexp(1.0, 10 * (int)(p - units));
		u++;
		/* "64kb" and "64KB" mean the same as "64k" */
		if (p != units && (*u == 'b' || *u == 'B'))
			u++;
		while (isblank((unsigned char)*u))
			u++;
		if (*u != '\0')
			return ("unknown size unit (use b, k, m, g, t or p)");
	}
	v *= mult;
	if (v >= 18446744073709551615.0)
		return ("too large");
	if (v != floor(v))
		return ("not a whole number of bytes");
	*out = (uint64_t)v;
	return (NULL);
}

const char *
NUM_ParseUint(const char *s, unsigned *out)
{
	unsigned long long v = 0;
	const char *p;

	if (s == NULL)
		return ("missing value");
	for (p = s; isblank((unsigned char)*p); p++)
		continue;
	if (*p == '-')
		return ("must not be negative");
	if (!isdigit((unsigned char)*p))
		return ("not a whole number");
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > UINT_MAX)
			return ("too large");
	}
	while (isblank((unsigned char)*p))
		p++;
	if (*p != '\0')
		return ("not a whole number");
	*out = (unsigned)v;
	return (NULL);
}

const char *
NUM_ParseBool(const char *s, unsigned *out)
{
	static const char * const yes[] = { "on", "true", "yes", "enable",
	    "1" };
	static const char * const no[] = { "off", "false", "no", "disable",
	    "0" };
	unsigned i;

	if (s == NULL)
		return ("missing value");
	for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return (NULL);
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return (NULL);
		}
	}
	return ("not a boolean (use on or off)");
}

void
NUM_FormatBytes(uint64_t v, char *buf, unsigned len)
{
	static const char units[] = "bkMGTP";
	static const char * const quarters[] = { "", ".25", ".5", ".75" };
	unsigned i = 0;

	assert(len > 0);
	/*
	 * Move up a unit only while the value stays exact to 2 decimals:
	 * a whole number of quarter units.  In integers, because a double
	 * drops bytes above 2^53 and "%g" digits past the sixth.
	 */
	while (i + 1 < sizeof units - 1 && (v >> (10 * (i + 1))) != 0 &&
	    (v & (((uint64_t)1 << (10 * (i + 1) - 2)) - 1)) == 0)
		i++;
	if (i == 0)
		(void)snprintf(buf, len, "%llub", (unsigned long long)v);
	else
		(void)snprintf(buf, len, "%llu%s%c",
		    (unsigned long long)(v >> (10 * i)),
		    quarters[(v >> (10 * i - 2)) & 3], units[i]);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * tim.c -- clocks and HTTP dates.  No locks, no allocation.
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "common/vas.h"
#include "common/tim.h"

static const char * const tim_wday[] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
};
static const char * const tim_wday_long[] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday"
};
static const char * const tim_month[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

vtim_real
TIM_real(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_REALTIME, &ts));
	return (ts.tv_sec + 1e-9 * ts.tv_nsec);
}

vtim_mono
TIM_mono(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &ts));
	return (ts.tv_sec + 1e-9 * ts.tv_nsec);
}

void
TIM_sleep(vtim_dur d)
{
	struct timespec ts;

	if (d <= 0)
		return;
	ts.tv_sec = (time_t)floor(d);
	ts.tv_nsec = (long)((d - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		continue;
}

struct timeval
TIM_timeval(vtim_dur d)
{
	struct timeval tv;

	if (d < 0)
		d = 0;
	tv.tv_sec = (time_t)floor(d);
	tv.tv_usec = (suseconds_t)((d - tv.tv_sec) * 1e6);
	return (tv);
}

struct timespec
TIM_timespec(vtim_real t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)floor(t);
	ts.tv_nsec = (long)((t - ts.tv_sec) * 1e9);
	return (ts);
}

int
TIM_poll_ms(vtim_dur d)
{

	if (!(d > 0))
		return (0);
	if (d * 1e3 >= (double)INT_MAX)
		return (INT_MAX);
	return ((int)ceil(d * 1e3));
}

/* Two digits of v (< 100) at p. */
static char *
tim_2d(char *p, unsigned v)
{

	p[0] = (char)('0' + v / 10);
	p[1] = (char)('0' + v % 10);
	return (p + 2);
}

/*
 * Without gmtime_r and printf: cached objects' dates are written on
 * every hit (obj.c).  Days to a civil date by the usual era arithmetic
 * (400-year eras of 146097 days, years starting in March).
 */
void
TIM_format(vtim_real t, char *buf)
{
	int64_t s, days, sod, z, era, doe, yoe, doy, mp, y;
	unsigned mon, mday, wday, yy;
	char *p = buf;

	s = (int64_t)t;
	days = s / 86400;
	sod = s % 86400;
	if (sod < 0) {
		sod += 86400;
		days--;
	}
	wday = (unsigned)(((days + 4) % 7 + 7) % 7);	/* 1970-01-01: Thu */
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	mday = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	mon = (unsigned)(mp < 10 ? mp + 2 : mp - 10);	/* 0: January */
	y = yoe + era * 400 + (mon <= 1);
	yy = (unsigned)(((y % 10000) + 10000) % 10000);
	memcpy(p, tim_wday[wday], 3);
	p += 3;
	*p++ = ',';
	*p++ = ' ';
	p = tim_2d(p, mday);
	*p++ = ' ';
	memcpy(p, tim_month[mon], 3);
	p += 3;
	*p++ = ' ';
	p = tim_2d(p, yy / 100);
	p = tim_2d(p, yy % 100);
	*p++ = ' ';
	p = tim_2d(p, (unsigned)(sod / 3600));
	*p++ = ':';
	p = tim_2d(p, (unsigned)(sod / 60 % 60));
	*p++ = ':';
	p = tim_2d(p, (unsigned)(sod % 60));
	memcpy(p, " GMT", 5);
}

/* Parsing ----------------------------------------------------------*/

static int
tim_num(const char **pp, const char *e, int ndig, int *val)
{
	const char *p = *pp;
	int i, v = 0;

	for (i = 0; i < ndig; i++, p++) {
		if (p >= e || !isdigit((unsigned char)*p))
			return (-1);
		v = v * 10 + (*p - '0');
	}
	*pp = p;
	*val = v;
	return (0);
}

static int
tim_lit(const char **pp, const char *e, const char *lit)
{
	size_t l = strlen(lit);

	if ((size_t)(e - *pp) < l || memcmp(*pp, lit, l) != 0)
		return (-1);
	*pp += l;
	return (0);
}

static int
tim_month_of(const char **pp, const char *e, int *mon)
{
	int i;

	for (i = 0; i < 12; i++) {
		if (tim_lit(pp, e, tim_month[i]) == 0) {
			*mon = i;
			return (0);
		}
	}
	return (-1);
}

static int
tim_wday_of(const char **pp, const char *e, const char * const *names)
{
	int i;

	for (i = 0; i < 7; i++)
		if (tim_lit(pp, e, names[i]) == 0)
			return (0);
	return (-1);
}

static int
tim_hms(const char **pp, const char *e, struct tm *tm)
{

	if (tim_num(pp, e, 2, &tm->tm_hour) || tim_lit(pp, e, ":") ||
	    tim_num(pp, e, 2, &tm->tm_min) || tim_lit(pp, e, ":") ||
	    tim_num(pp, e, 2, &tm->tm_sec))
		return (-1);
	return (0);
}

/* "Sun, 06 Nov 1994 08:49:37 GMT" */
static int
tim_parse_imf(const char *p, const char *e, struct tm *tm)
{

	if (tim_wday_of(&p, e, tim_wday) || tim_lit(&p, e, ", ") ||
	    tim_num(&p, e, 2, &tm->tm_mday) || tim_lit(&p, e, " ") ||
	    tim_month_of(&p, e, &tm->tm_mon) || tim_lit(&p, e, " ") ||
	    tim_num(&p, e, 4, &tm->tm_year) || tim_lit(&p, e, " ") ||
	    tim_hms(&p, e, tm) || tim_lit(&p, e, " GMT") || p != e)
		return (-1);
	tm->tm_year -= 1900;
	return (0);
}

/* "Sunday, 06-Nov-94 08:49:37 GMT" */
static int
tim_parse_rfc850(const char *p, const char *e, struct tm *tm, vtim_real now)
{
	struct tm ntm;
	time_t nt;
	int year;

	if (tim_wday_of(&p, e, tim_wday_long) || tim_lit(&p, e, ", ") ||
	    tim_num(&p, e, 2, &tm->tm_mday) || tim_lit(&p, e, "-") ||
	    tim_month_of(&p, e, &tm->tm_mon) || tim_lit(&p, e, "-") ||
	    tim_num(&p, e, 2, &year) || tim_lit(&p, e, " ") ||
	    tim_hms(&p, e, tm) || tim_lit(&p, e, " GMT") || p != e)
		return (-1);
	/*
	 * RFC 9110 5.6.7: a two-digit year that looks more than 50 years
	 * in the future is in the past century.
	 */
	nt = (time_t)now;
	assert(gmtime_r(&nt, &ntm) != NULL);
	year += (ntm.tm_year + 1900) / 100 * 100;
	if (year > ntm.tm_year + 1900 + 50)
		year -= 100;
	tm->tm_year = year - 1900;
	return (0);
}

/* "Sun Nov  6 08:49:37 1994" */
static int
tim_parse_asctime(const char *p, const char *e, struct tm *tm)
{

	if (tim_wday_of(&p, e, tim_wday) || tim_lit(&p, e, " ") ||
	    tim_month_of(&p, e, &tm->tm_mon) || tim_lit(&p, e, " "))
		return (-1);
	if (p < e && *p == ' ') {
		p++;
		if (tim_num(&p, e, 1, &tm->tm_mday))
			return (-1);
	} else if (tim_num(&p, e, 2, &tm->tm_mday))
		return (-1);
	if (tim_lit(&p, e, " ") || tim_hms(&p, e, tm) ||
	    tim_lit(&p, e, " ") || tim_num(&p, e, 4, &tm->tm_year) || p != e)
		return (-1);
	tm->tm_year -= 1900;
	return (0);
}

/*
 * What varnishd's http_date_postel feature tolerates, and servers send:
 * "[Fri, ]2 Mar 2018 14:26:02 GMT|UTC", a day of one digit, no weekday.
 */
static int
tim_parse_postel(const char *p, const char *e, struct tm *tm)
{

	if (tim_wday_of(&p, e, tim_wday) == 0 && tim_lit(&p, e, ", "))
		return (-1);
	if (tim_num(&p, e, 2, &tm->tm_mday) &&
	    tim_num(&p, e, 1, &tm->tm_mday))
		return (-1);
	if (tim_lit(&p, e, " ") || tim_month_of(&p, e, &tm->tm_mon) ||
	    tim_lit(&p, e, " ") || tim_num(&p, e, 4, &tm->tm_year) ||
	    tim_lit(&p, e, " ") || tim_hms(&p, e, tm) ||
	    (tim_lit(&p, e, " GMT") && tim_lit(&p, e, " UTC")) || p != e)
		return (-1);
	tm->tm_year -= 1900;
	return (0);
}

/* Is tm_year (years since 1900) a leap year? */
static int
tim_is_leap(int tm_year)
{
	int y = tm_year + 1900;

	return (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

static vtim_real tim_parse(const char *b, const char *e, int postel);

vtim_real
TIM_parse(const char *b, const char *e)
{

	return (tim_parse(b, e, 0));
}

vtim_real
TIM_parse_postel(const char *b, const char *e)
{

	return (tim_parse(b, e, 1));
}

static vtim_real
tim_parse(const char *b, const char *e, int postel)
{
	static const int mdays[12] =
	    { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	struct tm tm;
	time_t t;

	if (b == NULL)
		return (0);
	if (e == NULL)
		e = b + strlen(b);
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	memset(&tm, 0, sizeof tm);
	if (tim_parse_imf(b, e, &tm) &&
	    tim_parse_rfc850(b, e, &tm, TIM_real()) &&
	    tim_parse_asctime(b, e, &tm) &&
	    (!postel || (memset(&tm, 0, sizeof tm),
	    tim_parse_postel(b, e, &tm))))
		return (0);
	if (tm.tm_mday < 1 || tm.tm_mday > mdays[tm.tm_mon] ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60 ||
	    tm.tm_year < 70)
		return (0);
	/* mdays allows Feb 29, which timegm() would turn into Mar 1. */
	if (tm.tm_mon == 1 && tm.tm_mday == 29 && !tim_is_leap(tm.tm_year))
		return (0);
	t = timegm(&tm);
	if (t == (time_t)-1)
		return (0);
	return ((vtim_real)t);
}

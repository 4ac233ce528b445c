/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * tim.h -- time: wall clock and monotonic clock as doubles in seconds,
 * HTTP dates (RFC 9110 section 5.6.7) both ways.
 */

#ifndef VENEER_TIM_H
#define VENEER_TIM_H

#include <sys/time.h>

typedef double vtim_real;	/* seconds since the epoch */
typedef double vtim_mono;	/* seconds on CLOCK_MONOTONIC */
typedef double vtim_dur;	/* a duration in seconds */

#define TIM_FORMAT_SIZE	30	/* "Sun, 06 Nov 1994 08:49:37 GMT" + NUL */

vtim_real TIM_real(void);
vtim_mono TIM_mono(void);
void TIM_sleep(vtim_dur d);

/* IMF-fixdate; buf must hold TIM_FORMAT_SIZE bytes. */
void TIM_format(vtim_real t, char *buf);

/*
 * Parse an HTTP date in any of the three forms a recipient must accept
 * (IMF-fixdate, RFC 850, asctime).  Returns 0 when the text is not a
 * valid date.
 */
vtim_real TIM_parse(const char *b, const char *e);
/* As TIM_parse, also taking "2 Mar 2018 ... UTC" and the like (postel). */
vtim_real TIM_parse_postel(const char *b, const char *e);

struct timeval TIM_timeval(vtim_dur d);
struct timespec TIM_timespec(vtim_real t);

/* Milliseconds for poll(2), rounded up, clamped to [0, INT_MAX]. */
int TIM_poll_ms(vtim_dur d);

#endif /* VENEER_TIM_H */

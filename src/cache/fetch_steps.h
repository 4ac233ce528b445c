/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fetch_steps.h -- the steps of the backend fetch state machine (up to
 * the response head), the one list its enum, names and dispatch table
 * in fetch.c are made from.  No include guard.
 *
 * FETCH_STEP(lower, UPPER)
 *   lower	the step function is bo_step_<lower>; its name
 *   UPPER	the enum is F_STP_<UPPER>
 *
 * DONE ends the machine (with an enum fetch_result) and has no
 * function; fetch.c adds it last.
 */

#ifdef FETCH_STEP
FETCH_STEP(fetch,	FETCH)		/* vcl_backend_fetch */
FETCH_STEP(startfetch,	STARTFETCH)	/* the exchange, to the head */
FETCH_STEP(response,	RESPONSE)	/* TTL, vcl_backend_response */
FETCH_STEP(error,	ERROR)		/* a 503, vcl_backend_error */
FETCH_STEP(retry,	RETRY)		/* again, max_retries at most */
#undef FETCH_STEP
#endif

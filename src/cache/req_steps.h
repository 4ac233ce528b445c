/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * req_steps.h -- the steps of the client request state machine, the one
 * list the enum (req.h), the names in logs and panics and the dispatch
 * table (req_fsm.c) are made from, so they cannot drift apart.  No
 * include guard.
 *
 * REQ_STEP(lower, UPPER)
 *   lower	the step function is req_step_<lower>; its name in panics
 *   UPPER	the enum is R_STP_<UPPER>
 *
 * DONE ends the machine and has no function; keep it last.
 */

#ifdef REQ_STEP
REQ_STEP(recv,		RECV)
REQ_STEP(pipe,		PIPE)
REQ_STEP(pass,		PASS)
REQ_STEP(lookup,	LOOKUP)
REQ_STEP(hit,		HIT)
REQ_STEP(miss,		MISS)
REQ_STEP(purge,		PURGE)
REQ_STEP(fetch,		FETCH)
REQ_STEP(deliver,	DELIVER)
REQ_STEP(synth,		SYNTH)
REQ_STEP(transmit,	TRANSMIT)
#undef REQ_STEP
#endif

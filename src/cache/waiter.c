/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * waiter.c -- idle sessions on a libev loop, one loop and thread per pool.
 * Owns the parked sessions and w->mtx, which guards only the inbox (the
 * hand-over from workers); everything else belongs to the waiter thread.
 */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <ev.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/child.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/session.h"
#include "cache/vsc.h"
#include "cache/waiter.h"

struct waiter {
	unsigned		magic;
#define WAITER_MAGIC		0xc153ab3e
	struct pool		*pool;		/* const */
	struct ev_loop		*loop;		/* waiter thread */
	ev_async		wakeup;
	pthread_t		thr;
	struct lock		mtx;
	TAILQ_HEAD(, sess)	inbox;		/* mtx */
	unsigned		drain;		/* mtx */
	TAILQ_HEAD(, sess)	parked;		/* waiter thread */
	unsigned		draining;	/* waiter thread */
};

static void waiter_read_cb(struct ev_loop *, ev_io *, int);
static void waiter_timeout_cb(struct ev_loop *, ev_timer *, int);

static void
waiter_unpark(struct waiter *w, struct sess *sp)
{

	ev_io_stop(w->loop, &sp->wio);
	ev_timer_stop(w->loop, &sp->wtmo);
	TAILQ_REMOVE(&w->parked, sp, wlist);
	VSC_Sub(sess_waiting, 1);
}

static void
waiter_close(struct waiter *w, struct sess *sp, enum sess_close reason)
{

	waiter_unpark(w, sp);
	SES_Delete(&sp, reason);
}

/* Read and discard after an error answer; close at EOF or error. */
static void
waiter_linger_read(struct waiter *w, struct sess *sp)
{
	char buf[16384];
	ssize_t n;
	unsigned u;

	for (u = 0; u < 16; u++) {
		n = read(sp->fd, buf, sizeof buf);
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		waiter_close(w, sp, sp->linger_reason);
		return;
	}
}

static void
waiter_read_cb(struct ev_loop *loop, ev_io *io, int revents)
{
	struct waiter *w;
	struct sess *sp;

	(void)revents;
	CAST_OBJ_NOTNULL(w, ev_userdata(loop), WAITER_MAGIC);
	CAST_OBJ_NOTNULL(sp, io->data, SESS_MAGIC);
	if (sp->linger) {
		waiter_linger_read(w, sp);
		return;
	}
	if (sp->rx_len > 0) {
		switch (SES_RxMore(sp)) {
		case 1:
			return;		/* still partial: stays here */
		case -1:
			waiter_close(w, sp, SC_OVERLOAD);
			return;
		default:
			break;
		}
	}
	waiter_unpark(w, sp);
	SES_Schedule(sp, TASK_REQ);
}

static void
waiter_timeout_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct waiter *w;
	struct sess *sp;

	(void)revents;
	CAST_OBJ_NOTNULL(w, ev_userdata(loop), WAITER_MAGIC);
	CAST_OBJ_NOTNULL(sp, t->data, SESS_MAGIC);
	if (sp->linger)
		waiter_close(w, sp, sp->linger_reason);
	else if (sp->proxy_wait) {
		/* No whole PROXY header in timeout_idle: as varnishd. */
		VSC_Add(sess_proxy_bad, 1);
		waiter_close(w, sp, SC_RX_TIMEOUT);
	} else if (sp->rx_len > 0)
		waiter_close(w, sp, SC_RX_TIMEOUT);
	else
		waiter_close(w, sp, SC_RX_CLOSE_IDLE);
}

static void
waiter_park(struct waiter *w, struct sess *sp)
{
	vtim_mono deadline;

	CHECK_OBJ(sp, SESS_MAGIC);
	if (w->draining) {
		SES_Delete(&sp, sp->linger ? sp->linger_reason :
		    SC_RX_CLOSE_IDLE);
		return;
	}
	if (sp->linger)
		deadline = TIM_mono() + (cache_param->timeout_idle > 0 ?
		    cache_param->timeout_idle : 5);
	else if (sp->rx_len > 0 && sp->t_rx > 0)
		deadline = sp->t_rx + cache_param->timeout_idle;
	else
		deadline = sp->t_idle + cache_param->timeout_idle;
	deadline -= TIM_mono();
	if (deadline < 0)
		deadline = 0;
	sp->wio.data = sp;
	sp->wtmo.data = sp;
	ev_io_init(&sp->wio, waiter_read_cb, sp->fd, EV_READ);
	ev_timer_init(&sp->wtmo, waiter_timeout_cb, deadline, 0.);
	ev_io_start(w->loop, &sp->wio);
	if (cache_param->timeout_idle > 0 || sp->linger)
		ev_timer_start(w->loop, &sp->wtmo);
	TAILQ_INSERT_TAIL(&w->parked, sp, wlist);
	VSC_Add(sess_waiting, 1);
}

static void
waiter_wakeup_cb(struct ev_loop *loop, ev_async *a, int revents)
{
	struct waiter *w;
	struct sess *sp, *sp2;
	TAILQ_HEAD(, sess) in;

	(void)a;
	(void)revents;
	CAST_OBJ_NOTNULL(w, ev_userdata(loop), WAITER_MAGIC);
	TAILQ_INIT(&in);
	LOCK_Lock(&w->mtx);
	TAILQ_CONCAT(&in, &w->inbox, wlist);
	if (w->drain)
		w->draining = 1;
	LOCK_Unlock(&w->mtx);
	ev_now_update(loop);
	TAILQ_FOREACH_SAFE(sp, &in, wlist, sp2) {
		TAILQ_REMOVE(&in, sp, wlist);
		waiter_park(w, sp);
	}
	if (!w->draining)
		return;
	TAILQ_FOREACH_SAFE(sp, &w->parked, wlist, sp2)
		waiter_close(w, sp, sp->linger ? sp->linger_reason :
		    SC_RX_CLOSE_IDLE);
}

static void *
waiter_thread(void *priv)
{
	struct waiter *w;

	CAST_OBJ_NOTNULL(w, priv, WAITER_MAGIC);
	(void)pthread_setname_np(pthread_self(), "cache-waiter");
	PANIC_ThreadInit();
	ev_run(w->loop, 0);
	WRONG("waiter loop ended");
	NEEDLESS(return (NULL));
}

struct waiter *
WAITER_New(struct pool *pp)
{
	struct waiter *w;

	ALLOC_OBJ(w, WAITER_MAGIC);
	assert(w != NULL);
	w->pool = pp;
	LOCK_Init(&w->mtx);
	TAILQ_INIT(&w->inbox);
	TAILQ_INIT(&w->parked);
	w->loop = ev_loop_new(EVFLAG_NOSIGMASK | (child_args != NULL &&
	    child_args->ev_backend != 0 ?
	    child_args->ev_backend : EVFLAG_AUTO));
	assert(w->loop != NULL);
	ev_set_userdata(w->loop, w);
	ev_async_init(&w->wakeup, waiter_wakeup_cb);
	ev_async_start(w->loop, &w->wakeup);
	ASSERT_ZERO(pthread_create(&w->thr, NULL, waiter_thread, w));
	return (w);
}

void
WAITER_Enter(struct waiter *w, struct sess *sp)
{

	CHECK_OBJ(w, WAITER_MAGIC);
	CHECK_OBJ(sp, SESS_MAGIC);
	LOCK_Lock(&w->mtx);
	TAILQ_INSERT_TAIL(&w->inbox, sp, wlist);
	LOCK_Unlock(&w->mtx);
	ev_async_send(w->loop, &w->wakeup);
}

void
WAITER_Drain(struct waiter *w)
{

	CHECK_OBJ(w, WAITER_MAGIC);
	LOCK_Lock(&w->mtx);
	w->drain = 1;
	LOCK_Unlock(&w->mtx);
	ev_async_send(w->loop, &w->wakeup);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * session.c -- client connection lifetime: creation at accept, hand-over
 * to pools and the waiter, closing with the reason logged and counted.
 * A session has one owner at a time (see session.h), so no locks.
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/child.h"
#include "cache/mempool.h"
#include "cache/pool.h"
#include "cache/session.h"
#include "cache/vsc.h"
#include "cache/vsl.h"
#include "cache/waiter.h"

unsigned child_sessions;

static const char * const ses_close_names[SC__MAX] = {
	[SC_NULL] = "NULL",
#define SESS_CLOSE(U, l, err, doc)	[SC_##U] = #U,
#include "sess_close.h"
};

static const unsigned char ses_close_err[SC__MAX] = {
#define SESS_CLOSE(U, l, err, doc)	[SC_##U] = (err),
#include "sess_close.h"
};

const char *
SES_CloseName(enum sess_close reason)
{

	assert(reason < SC__MAX);
	return (ses_close_names[reason]);
}

int
SES_CloseIsError(enum sess_close reason)
{

	assert(reason < SC__MAX);
	return (ses_close_err[reason]);
}

static size_t
ses_size(void)
{

	return (sizeof(struct sess) + (size_t)cache_param->workspace_session);
}

struct sess *
SES_New(struct pool *pp, int fd, const struct listen_sock *ls,
    const struct sockaddr_storage *remote, socklen_t remote_len)
{
	struct sess *sp;
	size_t sz = ses_size();

	sp = MPL_Get(POOL_MplSess(pp), sz);
	if (sp == NULL)
		return (NULL);
	INIT_OBJ(sp, SESS_MAGIC);
	sp->fd = fd;
	sp->pool = pp;
	sp->ls = ls;
	sp->proxy_wait = ls->proxy;
	memcpy(&sp->remote, remote, remote_len);
	sp->remote_len = remote_len;
	sp->t_open = TIM_real();
	sp->t_open_mono = TIM_mono();
	sp->t_idle = sp->t_open_mono;
	WS_Init(sp->ws, "ses", sp + 1, sz - sizeof *sp);
	sp->ws_base = WS_Snapshot(sp->ws);
	(void)__atomic_add_fetch(&child_sessions, 1, __ATOMIC_RELAXED);
	return (sp);
}

const struct sockaddr_storage *
SES_Local(struct sess *sp)
{
	socklen_t l = sizeof sp->local;

	CHECK_OBJ(sp, SESS_MAGIC);
	if (sp->local.ss_family == AF_UNSPEC &&
	    getsockname(sp->fd, (struct sockaddr *)&sp->local, &l) != 0)
		sp->local.ss_family = AF_UNSPEC;
	return (&sp->local);
}

const struct sockaddr *
SES_Client(const struct sess *sp)
{

	CHECK_OBJ(sp, SESS_MAGIC);
	if (sp->proxy != NULL)
		return (&sp->proxy->client.sa);
	return ((const struct sockaddr *)&sp->remote);
}

const struct sockaddr *
SES_Server(struct sess *sp)
{

	CHECK_OBJ(sp, SESS_MAGIC);
	if (sp->proxy != NULL)
		return (&sp->proxy->server.sa);
	return ((const struct sockaddr *)SES_Local(sp));
}

void
SES_Schedule(struct sess *sp, enum task_prio prio)
{

	CHECK_OBJ(sp, SESS_MAGIC);
	sp->task.func = H1_Session;
	sp->task.priv = sp;
	if (POOL_Task(sp->pool, &sp->task, prio) == 0)
		return;
	/* Only new sessions are refused (POOL_Task). */
	assert(prio == TASK_VCA);
	VSC_Add(sess_dropped, 1);
	SES_Delete(&sp, SC_OVERLOAD);
}

static void
ses_count_close(enum sess_close reason)
{

	switch (reason) {
#define SESS_CLOSE(U, l, err, doc)					\
	case SC_##U:							\
		VSC_Add(sc_##l, 1);					\
		break;
#include "sess_close.h"
	default:
		WRONG("session close reason");
	}
}

void
SES_Delete(struct sess **spp, enum sess_close reason)
{
	struct sess *sp;
	struct pool *pp;

	TAKE_OBJ_NOTNULL(sp, spp, SESS_MAGIC);
	assert(reason > SC_NULL && reason < SC__MAX);
	SES_RxRelease(sp);
	if (sp->fd >= 0)
		(void)close(sp->fd);
	sp->fd = -1;
	VSC_Add(sess_closed, 1);
	if (ses_close_err[reason])
		VSC_Add(sess_closed_err, 1);
	ses_count_close(reason);
	if (sp->opened) {
		VSL(SLT_SessClose, sp->vxid | VSL_CLIENTMARKER, "%s %.3f",
		    ses_close_names[reason], TIM_mono() - sp->t_open_mono);
		VSL(SLT_End, sp->vxid | VSL_CLIENTMARKER, "%s", "");
	}
	(void)__atomic_sub_fetch(&child_sessions, 1, __ATOMIC_RELAXED);
	pp = sp->pool;
	sp->magic = 0;
	MPL_Free(POOL_MplSess(pp), sp);
}

int
SES_RxKeep(struct sess *sp, const char *p, size_t len)
{
	uint64_t held;

	CHECK_OBJ(sp, SESS_MAGIC);
	assert(sp->rx_len == 0 && sp->rx_heap == 0);
	assert(len > 0);
	WS_Reset(sp->ws, sp->ws_base);
	sp->rx_buf = WS_Alloc(sp->ws, len);
	if (sp->rx_buf == NULL) {
		held = __atomic_add_fetch(&VSC_C_main->sess_park_bytes,
		    (uint64_t)len, __ATOMIC_RELAXED);
		if (held > cache_param->sess_park_space) {
			VSC_Sub(sess_park_bytes, len);
			VSC_Add(sess_park_full, 1);
			return (-1);
		}
		sp->rx_buf = malloc(len);
		if (sp->rx_buf == NULL) {
			VSC_Sub(sess_park_bytes, len);
			return (-1);
		}
		sp->rx_heap = len;
	}
	memcpy(sp->rx_buf, p, len);
	sp->rx_len = len;
	return (0);
}

/* Room for need bytes in rx_buf: 0, or -1 when sess_park_space is full. */
static int
ses_rx_grow(struct sess *sp, size_t need)
{
	size_t cap, lim = (size_t)cache_param->http_req_size;
	uint64_t held;
	char *p;

	if (sp->rx_heap == 0 &&
	    need <= (size_t)((uintptr_t)sp->ws->e - sp->ws_base)) {
		/* rx_buf is the workspace's last allocation: extend it. */
		assert((uintptr_t)sp->rx_buf == sp->ws_base);
		WS_Reset(sp->ws, sp->ws_base);
		p = WS_Alloc(sp->ws, need);
		assert(p == sp->rx_buf);
		return (0);
	}
	if (need <= sp->rx_heap)
		return (0);
	/* Doubling, so a head trickled in is not copied once a byte. */
	cap = 2 * sp->rx_heap;
	if (cap < need)
		cap = need;
	if (cap > lim && need <= lim)
		cap = lim;
	held = __atomic_add_fetch(&VSC_C_main->sess_park_bytes,
	    (uint64_t)(cap - sp->rx_heap), __ATOMIC_RELAXED);
	if (held > cache_param->sess_park_space)
		goto full;
	p = malloc(cap);
	if (p == NULL)
		goto full;
	memcpy(p, sp->rx_buf, sp->rx_len);
	if (sp->rx_heap > 0)
		free(sp->rx_buf);
	else
		WS_Reset(sp->ws, sp->ws_base);
	sp->rx_buf = p;
	sp->rx_heap = cap;
	return (0);
full:
	VSC_Sub(sess_park_bytes, cap - sp->rx_heap);
	VSC_Add(sess_park_full, 1);
	return (-1);
}

int
SES_RxMore(struct sess *sp)
{
	size_t lim = (size_t)cache_param->http_req_size, want;
	const char *hb, *he;
	char buf[4096];
	size_t hlen;
	ssize_t n;

	CHECK_OBJ(sp, SESS_MAGIC);
	if (sp->rx_len == 0 || sp->rx_len >= lim)
		return (0);
	want = lim - sp->rx_len;
	if (want > sizeof buf)
		want = sizeof buf;
	n = read(sp->fd, buf, want);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR))
		return (1);
	if (n <= 0)
		return (0);	/* EOF or error: the worker's read sees it */
	if (ses_rx_grow(sp, sp->rx_len + (size_t)n) != 0)
		return (-1);
	memcpy(sp->rx_buf + sp->rx_len, buf, (size_t)n);
	sp->rx_len += (size_t)n;
	if (sp->proxy_wait)
		return (PROXY_Scan(sp->rx_buf, sp->rx_len, &hlen) ==
		    PROXY_MORE);
	if (H1_CompleteScan(&sp->rx_scan, sp->rx_buf,
	    sp->rx_buf + sp->rx_len, &hb, &he) != H1_MORE)
		return (0);
	return (sp->rx_len < lim);
}

void
SES_RxRelease(struct sess *sp)
{

	CHECK_OBJ(sp, SESS_MAGIC);
	if (sp->rx_heap > 0) {
		free(sp->rx_buf);
		VSC_Sub(sess_park_bytes, sp->rx_heap);
		sp->rx_heap = 0;
	}
	sp->rx_buf = NULL;
	sp->rx_len = 0;
}

void
SES_Park(struct sess *sp)
{

	CHECK_OBJ(sp, SESS_MAGIC);
	sp->linger = 0;
	if (POOL_Linger(sp) == 0)
		return;
	SES_Herd(sp);
}

void
SES_Herd(struct sess *sp)
{

	CHECK_OBJ(sp, SESS_MAGIC);
	assert(sp->linger == 0);
	VSC_Add(sess_herd, 1);
	WAITER_Enter(POOL_Waiter(sp->pool), sp);
}

void
SES_LingerClose(struct sess *sp, enum sess_close reason)
{

	CHECK_OBJ(sp, SESS_MAGIC);
	if (shutdown(sp->fd, SHUT_WR) != 0) {
		SES_Delete(&sp, reason);
		return;
	}
	VSC_Add(sess_linger, 1);
	sp->linger = 1;
	sp->linger_reason = reason;
	SES_RxRelease(sp);
	WAITER_Enter(POOL_Waiter(sp->pool), sp);
}

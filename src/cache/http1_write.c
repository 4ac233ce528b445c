/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_write.c -- gathering writes with timeouts (see http1_write.h).
 * Uses the worker's thread workspace for the vector; no locks.
 */

#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/http1_write.h"
#include "cache/pool.h"
#include "cache/vsc.h"

#define H1W_MIN_IOV	8
#define H1W_SHORT	1024	/* vectors up to this long are copied */
#define H1W_COALESCE	4096	/* into a buffer this big */

vtim_mono
H1W_ClientDeadline(void)
{

	if (cache_param->send_timeout <= 0)
		return (0);
	return (TIM_mono() + cache_param->send_timeout);
}

int
H1W_WriteAll(int fd, const void *ptr, size_t len, vtim_mono deadline,
    vtim_dur idle)
{
	const char *p = ptr;
	struct pollfd pfd;
	vtim_dur tmo;
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return (-1);
		tmo = idle > 0 ? idle : -1;
		if (deadline > 0 && (tmo < 0 || deadline - TIM_mono() < tmo))
			tmo = deadline - TIM_mono();
		if (deadline > 0 && tmo <= 0)
			return (-1);
		pfd.fd = fd;
		pfd.events = POLLOUT;
		POOL_Blocking();
		if (poll(&pfd, 1, tmo < 0 ? -1 : TIM_poll_ms(tmo)) <= 0)
			return (-1);
	}
	return (0);
}

void
H1W_Open(struct h1w *w, struct worker *wrk, int fd, vtim_mono deadline,
    vtim_dur idle)
{
	size_t u;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	INIT_OBJ(w, H1W_MAGIC);
	w->wrk = wrk;
	w->fd = fd;
	w->deadline = deadline;
	w->idle = idle;
	u = WS_ReserveAll(wrk->aws);
	w->iov = (struct iovec *)(void *)WS_Reservation(wrk->aws);
	w->siov = (unsigned)(u / sizeof *w->iov);
	if (w->siov > IOV_MAX)
		w->siov = IOV_MAX;
	if (w->siov < H1W_MIN_IOV) {
		/* A thread workspace this small is a configuration bug. */
		VSC_Count(wrk->stats, ws_thread_overflow, 1);
		WS_Release(wrk->aws, 0);
		w->iov = NULL;
		w->siov = 0;
		w->err = ENOMEM;
	}
}

/* Wait until fd is writable; 0, or sets w->err. */
static int
h1w_wait(struct h1w *w)
{
	struct pollfd pfd;
	vtim_dur tmo = -1;
	vtim_mono now;
	int i;

	for (;;) {
		now = TIM_mono();
		if (w->deadline > 0) {
			tmo = w->deadline - now;
			if (tmo <= 0) {
				w->err = ETIMEDOUT;
				return (-1);
			}
		}
		if (w->idle > 0 && (tmo < 0 || w->idle < tmo))
			tmo = w->idle;
		pfd.fd = w->fd;
		pfd.events = POLLOUT;
		POOL_Blocking();
		i = poll(&pfd, 1, tmo < 0 ? -1 : TIM_poll_ms(tmo));
		if (i > 0)
			return (0);
		if (i == 0) {
			w->err = ETIMEDOUT;
			return (-1);
		}
		if (errno != EINTR) {
			w->err = errno;
			return (-1);
		}
	}
}

/*
 * Copy runs of short vectors (a response head is two per header line)
 * into buf and point one vector at each run; long ones stay as they are.
 * The kernel's per-vector cost in a send is well above a memcpy of a few
 * hundred bytes.  Rewrites iov[0..niov) in place; the new count.
 */
static unsigned
h1w_coalesce(struct iovec *iov, unsigned niov, char *buf, size_t sz)
{
	unsigned i, o = 0, run = 0;
	size_t used = 0, l;
	const void *p;

	for (i = 0; i < niov; i++) {
		p = iov[i].iov_base;
		l = iov[i].iov_len;
		if (l > H1W_SHORT || l > sz - used) {
			run = 0;
			iov[o].iov_base = (void *)(uintptr_t)p;
			iov[o++].iov_len = l;
			continue;
		}
		if (!run) {
			run = 1;
			iov[o].iov_base = buf + used;
			iov[o++].iov_len = 0;
		}
		memcpy(buf + used, p, l);
		used += l;
		iov[o - 1].iov_len += l;
	}
	return (o);
}

int
H1W_Flush(struct h1w *w)
{
	struct iovec *iov;
	unsigned niov;
	ssize_t n;
	char buf[H1W_COALESCE];

	CHECK_OBJ(w, H1W_MAGIC);
	iov = w->iov;
	niov = w->niov;
	if (niov > 1)
		niov = h1w_coalesce(iov, niov, buf, sizeof buf);
	while (w->err == 0 && w->liov > 0) {
		n = writev(w->fd, iov, (int)niov);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				(void)h1w_wait(w);
				continue;
			}
			w->err = errno;
			break;
		}
		w->cnt += (uint64_t)n;
		w->liov -= (size_t)n;
		while (niov > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			niov--;
		}
		if (niov > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	w->niov = 0;
	w->liov = 0;
	return (w->err);
}

static void
h1w_add(struct h1w *w, const void *p, size_t len)
{

	if (w->err != 0 || len == 0)
		return;
	if (w->niov >= w->siov)
		(void)H1W_Flush(w);
	if (w->err != 0)
		return;
	w->iov[w->niov].iov_base = (void *)(uintptr_t)p;
	w->iov[w->niov].iov_len = len;
	w->niov++;
	w->liov += len;
}

void
H1W_Write(struct h1w *w, const void *p, size_t len)
{
	int n;

	CHECK_OBJ(w, H1W_MAGIC);
	if (len == 0 || w->err != 0)
		return;
	if (!w->chunked) {
		h1w_add(w, p, len);
		return;
	}
	/* One chunk per call; the header buffer is reused after flush. */
	if (w->niov + 3 > w->siov)
		(void)H1W_Flush(w);
	n = snprintf(w->chunkhdr, sizeof w->chunkhdr, "%zx\r\n", len);
	assert(n > 0 && (size_t)n < sizeof w->chunkhdr);
	h1w_add(w, w->chunkhdr, (size_t)n);
	h1w_add(w, p, len);
	h1w_add(w, "\r\n", 2);
	(void)H1W_Flush(w);
}

void
H1W_WriteTxt(struct h1w *w, struct txt t)
{

	H1W_Write(w, t.b, TXT_LEN(t));
}

void
H1W_WriteStr(struct h1w *w, const char *s)
{

	H1W_Write(w, s, strlen(s));
}

void
H1W_Chunked(struct h1w *w)
{

	CHECK_OBJ(w, H1W_MAGIC);
	assert(!w->chunked);
	w->chunked = 1;
}

void
H1W_EndChunked(struct h1w *w)
{

	CHECK_OBJ(w, H1W_MAGIC);
	assert(w->chunked);
	w->chunked = 0;
	h1w_add(w, "0\r\n\r\n", 5);
}

void
H1W_Suspend(struct h1w *w)
{

	CHECK_OBJ(w, H1W_MAGIC);
	assert(!w->suspended);
	if (w->iov != NULL) {
		(void)H1W_Flush(w);
		WS_Release(w->wrk->aws, 0);
		w->iov = NULL;
		w->siov = 0;
		w->suspended = 1;
	}
}

void
H1W_Resume(struct h1w *w)
{
	size_t u;

	CHECK_OBJ(w, H1W_MAGIC);
	if (!w->suspended)
		return;
	w->suspended = 0;
	u = WS_ReserveAll(w->wrk->aws);
	w->iov = (struct iovec *)(void *)WS_Reservation(w->wrk->aws);
	w->siov = (unsigned)(u / sizeof *w->iov);
	if (w->siov > IOV_MAX)
		w->siov = IOV_MAX;
	/* It was big enough when H1W_Open took it. */
	assert(w->siov >= H1W_MIN_IOV);
}

int
H1W_Close(struct h1w *w)
{

	CHECK_OBJ(w, H1W_MAGIC);
	if (w->iov != NULL) {
		(void)H1W_Flush(w);
		WS_Release(w->wrk->aws, 0);
		w->iov = NULL;
	}
	return (w->err);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * probe.c -- backend health probes.  Owns struct probe, the probe thread
 * "cache-probe" and its libev loop, and probe_mtx, which guards each
 * probe's results, its state as its owner sets it (warm, given up) and
 * the inbox through which other threads reach the loop (an ev_async).
 * Every probe is a state machine on that loop, concurrent with all the
 * others, never on a request worker: due (its interval timer) ->
 * connecting (nonblocking, the backend's addresses in turn) -> sending
 * (the PROXY header if .proxy_header, then the request) -> receiving
 * (until the backend closes) -> verdict, all within .timeout (its
 * timeout timer).  The last 64 results are bitmaps (newest in bit 0);
 * the backend is healthy while at least .threshold of the last .window
 * probes succeeded.
 *
 * PROBE_Free returns at once: it clears p->be under probe_mtx and hands
 * the probe to the loop, which closes its connection and frees it.  The
 * loop touches the backend only under probe_mtx and only while p->be is
 * set, so once PROBE_Free returns the backend may go.  Lock order:
 * be_list_mtx, probe_mtx, be->mtx; never held across I/O.
 */

#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ev.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "cache/backend.h"
#include "cache/child.h"
#include "cache/panic.h"
#include "cache/proxy_send.h"
#include "cache/vsl.h"

/* Varnish's averaging rate: the mean of the last few good probes. */
#define PROBE_AVG_RATE		4

/*
 * The result bitmaps, in Varnish's order: the letter in Backend_health
 * records and backend.list -p, and the label there.  Shown with -p when
 * not all zero, or always (happy).
 */
#define PROBE_BITS							\
	PROBE_BIT(GOOD_IPV4,	'4', "Good IPv4",	0)		\
	PROBE_BIT(GOOD_IPV6,	'6', "Good IPv6",	0)		\
	PROBE_BIT(GOOD_UNIX,	'U', "Good UNIX",	0)		\
	PROBE_BIT(ERR_XMIT,	'x', "Error Xmit",	0)		\
	PROBE_BIT(GOOD_XMIT,	'X', "Good Xmit",	0)		\
	PROBE_BIT(ERR_RECV,	'r', "Error Recv",	0)		\
	PROBE_BIT(GOOD_RECV,	'R', "Good Recv",	0)		\
	PROBE_BIT(HAPPY,	'H', "Happy",		1)

enum probe_bit {
#define PROBE_BIT(U, c, label, always)	PROBE_##U,
	PROBE_BITS
#undef PROBE_BIT
	PROBE__NBITS
};

static const struct {
	char		letter;
	const char	*label;
	unsigned	always;
} probe_bit_info[PROBE__NBITS] = {
#define PROBE_BIT(U, c, label, always)	[PROBE_##U] = { c, label, always },
	PROBE_BITS
#undef PROBE_BIT
};

/* Where a probe's run is; the loop's own. */
enum probe_state {
	PROBE_STATE_IDLE,		/* waiting for t_next */
	PROBE_STATE_CONNECT,		/* fd connecting to addr[addr_next-1] */
	PROBE_STATE_SEND,		/* fd writable: PROXY header, request */
	PROBE_STATE_RECV,		/* fd readable: reading to EOF */
};

/* What one run found. */
struct probe_result {
	unsigned		bits;		/* 1 << PROBE_* */
	vtim_dur		last;
	char			resp[128];	/* status line or error */
};

struct probe {
	unsigned		magic;
#define PROBE_MAGIC		0x3a0d7c52
	/* probe_mtx; NULL once PROBE_Free gave the probe to the loop. */
	struct backend		*be;
	char			*req;		/* const: the request sent */
	size_t			req_len;	/* const */
	vtim_dur		timeout;	/* const */
	vtim_dur		interval;	/* const */
	unsigned		exp_status;	/* const */
	unsigned		window;		/* const; <= 64 */
	unsigned		threshold;	/* const */
	unsigned		initial;	/* const */
	unsigned		proxy_header;	/* const: 0, 1 or 2 */

	uint64_t		bits[PROBE__NBITS];	/* probe_mtx */
	unsigned		good;		/* probe_mtx: happy in window */
	vtim_dur		last;		/* probe_mtx: last good's time */
	vtim_dur		avg;		/* probe_mtx */
	double			rate;		/* probe_mtx */
	unsigned		sick;		/* atomic; written probe_mtx */

	unsigned		enabled;	/* probe_mtx: warm */
	unsigned		gen;		/* probe_mtx: each warm/cold */
	unsigned		queued;		/* probe_mtx: on probe_inbox */
	TAILQ_ENTRY(probe)	inbox;		/* probe_mtx */

	/* The rest is the loop thread's. */
	TAILQ_ENTRY(probe)	work;		/* taken from the inbox */
	unsigned		loop_warm;	/* enabled, as last taken */
	unsigned		loop_gone;	/* be == NULL, as last taken */
	enum probe_state	state;
	unsigned		run_gen;	/* gen when the run started */
	int			fd;		/* -1 while idle */
	ev_io			io;
	ev_timer		t_timeout;	/* the run's .timeout */
	ev_timer		t_next;		/* the next run: .interval */
	vtim_real		t_start;
	vtim_real		due;		/* t_start + interval */
	struct backend_addrs	*addrs;		/* one ref while connecting */
	unsigned		addr_next;	/* the address to try next */
	int			err;		/* the last connect's errno */
	char			proxy[PROXY_HDR_MAX];	/* the PROXY header */
	size_t			proxy_len;
	size_t			sent;		/* of proxy, then of req */
	size_t			rlen;		/* in r.resp */
	struct probe_result	r;
};

static struct lock probe_mtx = LOCK_INITIALIZER;
static TAILQ_HEAD(, probe) probe_inbox =		/* probe_mtx */
    TAILQ_HEAD_INITIALIZER(probe_inbox);
static struct ev_loop *probe_loop;		/* const after probe_once */
static ev_async probe_wakeup;			/* const after probe_once */
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;


/*--------------------------------------------------------------------
 * The window
 */

static void
probe_shift_locked(struct probe *p)
{
	unsigned u;

	LOCK_AssertHeld(&probe_mtx);
	for (u = 0; u < PROBE__NBITS; u++)
		p->bits[u] <<= 1;
}

/* After a result went into bit 0: the average and the good count. */
static void
probe_count_locked(struct probe *p)
{
	uint64_t happy;
	unsigned u;

	LOCK_AssertHeld(&probe_mtx);
	if (p->bits[PROBE_HAPPY] & 1) {
		if (p->rate < PROBE_AVG_RATE)
			p->rate += 1.0;
		p->avg += (p->last - p->avg) / p->rate;
	}
	happy = p->bits[PROBE_HAPPY];
	p->good = 0;
	for (u = 0; u < p->window; u++, happy >>= 1)
		p->good += (unsigned)(happy & 1);
}

/* Forget the past; .initial successes assumed. */
static void
probe_reset_locked(struct probe *p)
{
	unsigned u;

	LOCK_AssertHeld(&probe_mtx);
	memset(p->bits, 0, sizeof p->bits);
	p->avg = p->rate = p->last = 0.0;
	for (u = 0; u < p->initial; u++) {
		probe_shift_locked(p);
		p->bits[PROBE_HAPPY] |= 1;
		probe_count_locked(p);
	}
}

/*
 * The verdict after a change of the window: set it, count the window in
 * VBE.*.happy and log it ("Went" or "Still").  probe_mtx held and the
 * backend still the probe's; the log and counters take no lock of ours,
 * the backend's change time its own (be->mtx, after probe_mtx).
 */
static void
probe_update_locked(struct probe *p, const char *resp)
{
	char letters[PROBE__NBITS + 1];
	unsigned u, sick, changed;

	LOCK_AssertHeld(&probe_mtx);
	assert(p->be != NULL);
	for (u = 0; u < PROBE__NBITS; u++)
		letters[u] = (p->bits[u] & 1) ? probe_bit_info[u].letter : '-';
	letters[u] = '\0';
	sick = p->good < p->threshold;
	changed = __atomic_exchange_n(&p->sick, sick, __ATOMIC_RELAXED) !=
	    sick;
	VSL(SLT_Backend_health, 0, "%s %s %s %s %u %u %u %.6f %.6f \"%s\"",
	    BACKEND_Name(p->be), changed ? "Went" : "Still",
	    sick ? "sick" : "healthy", letters, p->good, p->threshold,
	    p->window, p->last, p->avg, resp);
	BACKEND_ProbeHappy(p->be, p->bits[PROBE_HAPPY], changed);
}

/*--------------------------------------------------------------------
 * One run, on the loop: a state machine, one function per state.
 */

static void probe_end(struct probe *p);

static void
probe_watch(struct probe *p, int events)
{

	ev_io_stop(probe_loop, &p->io);
	ev_io_set(&p->io, p->fd, events);
	ev_io_start(probe_loop, &p->io);
}

/* Close and release what a run holds; no result is recorded. */
static void
probe_abort(struct probe *p)
{

	ev_io_stop(probe_loop, &p->io);
	ev_timer_stop(probe_loop, &p->t_timeout);
	if (p->fd >= 0) {
		(void)close(p->fd);
		p->fd = -1;
	}
	if (p->addrs != NULL)
		BACKEND_AddrsDeref(&p->addrs);
	p->state = PROBE_STATE_IDLE;
}

/*
 * The run's result into the window, unless the probe went cold, warm
 * again or was given up since the run started: its window was reset
 * then, or its backend may be gone.
 */
static void
probe_record(struct probe *p)
{
	unsigned u;

	LOCK_Lock(&probe_mtx);
	if (p->be == NULL || !p->enabled || p->gen != p->run_gen) {
		LOCK_Unlock(&probe_mtx);
		return;
	}
	probe_shift_locked(p);
	for (u = 0; u < PROBE__NBITS; u++)
		p->bits[u] |= (p->r.bits >> u) & 1;
	p->last = p->r.last;
	probe_count_locked(p);
	probe_update_locked(p, p->r.resp);
	LOCK_Unlock(&probe_mtx);
}

/* The run is over: record it, and the next is due .interval after. */
static void
probe_end(struct probe *p)
{
	vtim_dur after;

	probe_abort(p);
	probe_record(p);
	if (!p->loop_warm)
		return;
	after = p->due - TIM_real();
	ev_timer_set(&p->t_next, after > 0 ? after : 0., 0.);
	ev_timer_start(probe_loop, &p->t_next);
}

static void
probe_open_failed(struct probe *p, int err)
{

	(void)snprintf(p->r.resp, sizeof p->r.resp, "Open error %d (%s)",
	    err, strerror(err));
	LOCK_Lock(&probe_mtx);
	if (p->be != NULL)
		BACKEND_CountFail(p->be, err);
	LOCK_Unlock(&probe_mtx);
	probe_end(p);
}

/*
 * The PROXY header .proxy_header asks for, with the probe's addresses,
 * into p->proxy.
 */
static void
probe_proxy(struct probe *p)
{

	p->proxy_len = PROXY_FormatProbe(p->proxy, sizeof p->proxy,
	    p->proxy_header, p->fd);
}

/* PROBE_STATE_SEND: the PROXY header, then the request. */
static void
probe_send(struct probe *p)
{
	const char *buf;
	size_t len;
	ssize_t n;

	while (p->sent < p->proxy_len + p->req_len) {
		if (p->sent < p->proxy_len) {
			buf = p->proxy + p->sent;
			len = p->proxy_len - p->sent;
		} else {
			buf = p->req + (p->sent - p->proxy_len);
			len = p->req_len - (p->sent - p->proxy_len);
		}
		n = send(p->fd, buf, len, MSG_NOSIGNAL);
		if (n > 0) {
			p->sent += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;		/* the rest when writable */
		p->r.bits |= 1U << PROBE_ERR_XMIT;
		(void)snprintf(p->r.resp, sizeof p->r.resp,
		    "Write error %d (%s)", n < 0 ? errno : EPIPE,
		    strerror(n < 0 ? errno : EPIPE));
		probe_end(p);
		return;
	}
	p->r.bits |= 1U << PROBE_GOOD_XMIT;
	p->state = PROBE_STATE_RECV;
	probe_watch(p, EV_READ);
}

/* Connected to the address tried last: say which family, then send. */
static void
probe_connected(struct probe *p)
{
	int family;

	family = p->addrs->addr[p->addr_next - 1].sa.ss_family;
	p->r.bits |= 1U << (family == AF_INET ? PROBE_GOOD_IPV4 :
	    family == AF_INET6 ? PROBE_GOOD_IPV6 : PROBE_GOOD_UNIX);
	BACKEND_AddrsDeref(&p->addrs);
	if (p->proxy_header != 0)
		probe_proxy(p);
	p->state = PROBE_STATE_SEND;
	probe_watch(p, EV_WRITE);
	probe_send(p);
}

/* Start connecting to the next address; Open error when none is left. */
static void
probe_connect_next(struct probe *p)
{
	const struct backend_addr *ba;
	int fd;

	while (p->addr_next < p->addrs->n) {
		ba = &p->addrs->addr[p->addr_next++];
		fd = socket(ba->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (fd < 0) {
			p->err = errno;
			continue;
		}
		p->fd = fd;
		if (connect(fd, (const struct sockaddr *)&ba->sa,
		    ba->salen) == 0) {
			probe_connected(p);
			return;
		}
		if (errno == EINPROGRESS) {
			p->state = PROBE_STATE_CONNECT;
			probe_watch(p, EV_WRITE);
			return;
		}
		p->err = errno;
		(void)close(fd);
		p->fd = -1;
	}
	probe_open_failed(p, p->err);
}

/* PROBE_STATE_CONNECT: writable, connected or refused. */
static void
probe_connect_done(struct probe *p)
{
	socklen_t el = sizeof(int);
	int e = 0;

	if (getsockopt(p->fd, SOL_SOCKET, SO_ERROR, &e, &el) != 0)
		e = errno;
	if (e == 0) {
		probe_connected(p);
		return;
	}
	ev_io_stop(probe_loop, &p->io);
	(void)close(p->fd);
	p->fd = -1;
	p->err = e;
	probe_connect_next(p);
}

/* EOF: the first line of what came is the verdict. */
static void
probe_verdict(struct probe *p)
{
	unsigned status;

	if (p->rlen == 0) {
		(void)snprintf(p->r.resp, sizeof p->r.resp, "Empty response");
		probe_end(p);
		return;
	}
	p->r.last = TIM_real() - p->t_start;
	p->r.bits |= 1U << PROBE_GOOD_RECV;
	p->r.resp[strcspn(p->r.resp, "\r\n")] = '\0';
	if (sscanf(p->r.resp, "HTTP/%*f %u ", &status) == 1 &&
	    status == p->exp_status)
		p->r.bits |= 1U << PROBE_HAPPY;
	probe_end(p);
}

/*
 * PROBE_STATE_RECV: read what is there, the first bytes into r.resp and
 * the rest away, until EOF.  A few reads a wakeup, so that a backend
 * sending fast cannot starve the other probes.
 */
static void
probe_recv(struct probe *p)
{
	static char sink[8192];		/* the loop thread's */
	size_t room;
	ssize_t n;
	unsigned u;

	for (u = 0; u < 16; u++) {
		room = sizeof p->r.resp - 1 - p->rlen;
		if (room > 0)
			n = read(p->fd, p->r.resp + p->rlen, room);
		else
			n = read(p->fd, sink, sizeof sink);
		if (n > 0 && room > 0) {
			p->rlen += (size_t)n;
			p->r.resp[p->rlen] = '\0';
		}
		if (n > 0)
			continue;
		if (n == 0) {
			probe_verdict(p);
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		p->r.bits |= 1U << PROBE_ERR_RECV;
		(void)snprintf(p->r.resp, sizeof p->r.resp,
		    "Read error %d (%s)", errno, strerror(errno));
		probe_end(p);
		return;
	}
}

static void
probe_io_cb(struct ev_loop *loop, ev_io *io, int revents)
{
	struct probe *p;

	(void)loop;
	(void)revents;
	CAST_OBJ_NOTNULL(p, io->data, PROBE_MAGIC);
	switch (p->state) {
	case PROBE_STATE_CONNECT:
		probe_connect_done(p);
		break;
	case PROBE_STATE_SEND:
		probe_send(p);
		break;
	case PROBE_STATE_RECV:
		probe_recv(p);
		break;
	default:
		WRONG("probe I/O while idle");
	}
}

/* .timeout passed: the run fails where it is. */
static void
probe_timeout_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct probe *p;
	const char *what;

	(void)loop;
	(void)revents;
	CAST_OBJ_NOTNULL(p, t->data, PROBE_MAGIC);
	switch (p->state) {
	case PROBE_STATE_CONNECT:
		probe_open_failed(p, ETIMEDOUT);
		return;
	case PROBE_STATE_SEND:
		p->r.bits |= 1U << PROBE_ERR_XMIT;
		what = "Write";
		break;
	case PROBE_STATE_RECV:
		p->r.bits |= 1U << PROBE_ERR_RECV;
		what = "Poll";
		break;
	default:
		WRONG("probe timeout while idle");
	}
	(void)snprintf(p->r.resp, sizeof p->r.resp, "%s error %d (%s)",
	    what, ETIMEDOUT, strerror(ETIMEDOUT));
	probe_end(p);
}

/* Due: start a run, with the address list in use now. */
static void
probe_next_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct probe *p;

	(void)revents;
	CAST_OBJ_NOTNULL(p, t->data, PROBE_MAGIC);
	assert(p->state == PROBE_STATE_IDLE);
	LOCK_Lock(&probe_mtx);
	if (p->be == NULL || !p->enabled) {
		/* Given up or cold; the inbox has it. */
		LOCK_Unlock(&probe_mtx);
		return;
	}
	p->run_gen = p->gen;
	p->addrs = BACKEND_AddrsRef(p->be);
	LOCK_Unlock(&probe_mtx);
	memset(&p->r, 0, sizeof p->r);
	p->rlen = p->sent = p->proxy_len = 0;
	p->addr_next = 0;
	p->err = EADDRNOTAVAIL;		/* no address at all */
	/* The timeout counts from now, not from when this wakeup began. */
	ev_now_update(loop);
	p->t_start = TIM_real();
	p->due = p->t_start + p->interval;
	ev_timer_set(&p->t_timeout, p->timeout, 0.);
	ev_timer_start(loop, &p->t_timeout);
	probe_connect_next(p);
}

/*--------------------------------------------------------------------
 * The thread and its inbox
 */

/* Hand p to the loop; ev_async_send after unlocking. */
static void
probe_enqueue_locked(struct probe *p)
{

	LOCK_AssertHeld(&probe_mtx);
	if (p->queued)
		return;
	p->queued = 1;
	TAILQ_INSERT_TAIL(&probe_inbox, p, inbox);
}

/*
 * Probes whose owner changed them: given up (free it), warm (a run now)
 * or cold (stop).  A run in progress is abandoned either way; its
 * generation would not be recorded.
 */
static void
probe_wakeup_cb(struct ev_loop *loop, ev_async *a, int revents)
{
	TAILQ_HEAD(, probe) work = TAILQ_HEAD_INITIALIZER(work);
	struct probe *p, *p2;

	(void)a;
	(void)revents;
	LOCK_Lock(&probe_mtx);
	while ((p = TAILQ_FIRST(&probe_inbox)) != NULL) {
		CHECK_OBJ(p, PROBE_MAGIC);
		TAILQ_REMOVE(&probe_inbox, p, inbox);
		p->queued = 0;
		p->loop_gone = p->be == NULL;
		p->loop_warm = p->enabled;
		TAILQ_INSERT_TAIL(&work, p, work);
	}
	LOCK_Unlock(&probe_mtx);
	TAILQ_FOREACH_SAFE(p, &work, work, p2) {
		TAILQ_REMOVE(&work, p, work);
		probe_abort(p);
		ev_timer_stop(loop, &p->t_next);
		if (p->loop_gone) {
			free(p->req);
			FREE_OBJ(p);
		} else if (p->loop_warm) {
			ev_timer_set(&p->t_next, 0., 0.);
			ev_timer_start(loop, &p->t_next);
		}
	}
}

static void *
probe_thread(void *arg)
{

	(void)arg;
	(void)pthread_setname_np(pthread_self(), "cache-probe");
	PANIC_ThreadInit();
	ev_run(probe_loop, 0);
	WRONG("probe loop ended");
	NEEDLESS(return (NULL));
}

static void
probe_start_thread(void)
{
	pthread_t thr;

	probe_loop = ev_loop_new(EVFLAG_NOSIGMASK | (child_args != NULL &&
	    child_args->ev_backend != 0 ? child_args->ev_backend :
	    EVFLAG_AUTO));
	assert(probe_loop != NULL);
	ev_async_init(&probe_wakeup, probe_wakeup_cb);
	ev_async_start(probe_loop, &probe_wakeup);
	ASSERT_ZERO(pthread_create(&thr, NULL, probe_thread, NULL));
	ASSERT_ZERO(pthread_detach(thr));
}

/*--------------------------------------------------------------------
 * The interface
 */

static char *
probe_request(const struct vrt_backend_probe *vp, const char *host)
{
	char *req;

	if (vp->request != NULL)
		return (strdup(vp->request));
	if (asprintf(&req, "GET %s HTTP/1.1\r\nHost: %s\r\n"
	    "Connection: close\r\n\r\n", vp->url != NULL ? vp->url : "/",
	    host) < 0)
		return (NULL);
	return (req);
}

struct probe *
PROBE_New(struct backend *be, const struct vrt_backend_probe *vp,
    const char *host)
{
	struct probe *p;

	assert(vp != NULL && vp->magic == VRT_BACKEND_PROBE_MAGIC);
	ASSERT_ZERO(pthread_once(&probe_once, probe_start_thread));
	ALLOC_OBJ(p, PROBE_MAGIC);
	if (p == NULL)
		return (NULL);
	p->req = probe_request(vp, host);
	if (p->req == NULL) {
		FREE_OBJ(p);
		return (NULL);
	}
	p->req_len = strlen(p->req);
	p->be = be;
	p->proxy_header = BACKEND_ProxyHeader(be);
	/* Varnish's defaults, for declarations not from our compiler. */
	p->timeout = vp->timeout > 0 ? vp->timeout : 2.0;
	p->interval = vp->interval > 0 ? vp->interval : 5.0;
	p->exp_status = vp->exp_status > 0 ? vp->exp_status : 200;
	p->window = vp->window > 0 && vp->window <= 64 ? vp->window : 8;
	p->threshold = vp->threshold > 0 ? vp->threshold : 3;
	p->initial = vp->initial == ~0U ? p->threshold - 1 : vp->initial;
	if (p->initial > p->threshold)
		p->initial = p->threshold;
	p->fd = -1;
	ev_io_init(&p->io, probe_io_cb, -1, EV_READ);
	p->io.data = p;
	ev_init(&p->t_timeout, probe_timeout_cb);
	p->t_timeout.data = p;
	ev_init(&p->t_next, probe_next_cb);
	p->t_next.data = p;
	LOCK_Lock(&probe_mtx);
	probe_reset_locked(p);
	probe_update_locked(p, "");
	LOCK_Unlock(&probe_mtx);
	return (p);
}

void
PROBE_Free(struct probe **pp)
{
	struct probe *p;

	TAKE_OBJ_NOTNULL(p, pp, PROBE_MAGIC);
	LOCK_Lock(&probe_mtx);
	/* From here on the loop leaves the backend alone (probe_record). */
	p->be = NULL;
	p->enabled = 0;
	probe_enqueue_locked(p);
	LOCK_Unlock(&probe_mtx);
	/* p may be freed already; the loop's watcher is not p's. */
	ev_async_send(probe_loop, &probe_wakeup);
}

void
PROBE_Control(struct probe *p, int warm)
{

	CHECK_OBJ(p, PROBE_MAGIC);
	LOCK_Lock(&probe_mtx);
	assert(p->be != NULL);
	if ((unsigned)(warm != 0) == p->enabled) {
		LOCK_Unlock(&probe_mtx);
		return;
	}
	/* A run in progress records nothing: gen changed (probe_record). */
	probe_reset_locked(p);
	probe_update_locked(p, "");
	p->enabled = warm != 0;
	p->gen++;
	probe_enqueue_locked(p);
	LOCK_Unlock(&probe_mtx);
	ev_async_send(probe_loop, &probe_wakeup);
}

int
PROBE_Healthy(const struct probe *p)
{

	CHECK_OBJ(p, PROBE_MAGIC);
	return (!__atomic_load_n(&p->sick, __ATOMIC_RELAXED));
}

static void
probe_bitmap(FILE *out, uint64_t map, unsigned bit)
{
	int i;

	fputs("  ", out);
	for (i = 63; i >= 0; i--)
		fputc((map >> i) & 1 ? probe_bit_info[bit].letter : '-', out);
	fprintf(out, " %s\n", probe_bit_info[bit].label);
}

void
PROBE_Status(FILE *out, const struct probe *p, int details, int json)
{
	unsigned u;

	CHECK_OBJ(p, PROBE_MAGIC);
	LOCK_Lock(&probe_mtx);
	if (!details)
		fprintf(out, json ? "[%u, %u, \"%s\"]" : "%u/%u", p->good,
		    p->window, p->sick ? "sick" : "healthy");
	else if (json) {
		fprintf(out, "{\n");
		for (u = 0; u < PROBE__NBITS; u++)
			fprintf(out, "        \"bits_%c\": %ju,\n",
			    probe_bit_info[u].letter, (uintmax_t)p->bits[u]);
		fprintf(out, "        \"good\": %u,\n        \"threshold\": "
		    "%u,\n        \"window\": %u\n      },\n", p->good,
		    p->threshold, p->window);
	} else {
		fprintf(out, "\n Current states  good: %2u threshold: %2u "
		    "window: %2u\n", p->good, p->threshold, p->window);
		fprintf(out, "  Average response time of good probes: %.6f\n",
		    p->avg);
		fprintf(out, "  Oldest ================================"
		    "================== Newest\n");
		for (u = 0; u < PROBE__NBITS; u++)
			if (p->bits[u] != 0 || probe_bit_info[u].always)
				probe_bitmap(out, p->bits[u], u);
	}
	LOCK_Unlock(&probe_mtx);
}

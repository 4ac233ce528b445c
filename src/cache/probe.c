/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * probe.c -- backend health probes.  Owns struct probe, the schedule
 * (probe_list) and probe_mtx, which guards the schedule and each probe's
 * results.  One thread, "cache-probe", runs the due probes one after the
 * other, never a request worker; a probe connects to its backend, sends
 * its request and reads the answer until the backend closes, all within
 * .timeout.  The last 64 results are bitmaps (newest in bit 0); the
 * backend is healthy while at least .threshold of the last .window
 * probes succeeded.  Lock order: be_list_mtx, probe_mtx, be->mtx; never
 * held across I/O.
 */

#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "cache/backend.h"
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

struct probe {
	unsigned		magic;
#define PROBE_MAGIC		0x3a0d7c52
	struct backend		*be;		/* const; outlives the probe */
	char			*req;		/* const: the request sent */
	size_t			req_len;	/* const */
	vtim_dur		timeout;	/* const */
	vtim_dur		interval;	/* const */
	unsigned		exp_status;	/* const */
	unsigned		window;		/* const; <= 64 */
	unsigned		threshold;	/* const */
	unsigned		initial;	/* const */

	uint64_t		bits[PROBE__NBITS];	/* probe_mtx */
	unsigned		good;		/* probe_mtx: happy in window */
	vtim_dur		last;		/* probe_mtx: last good's time */
	vtim_dur		avg;		/* probe_mtx */
	double			rate;		/* probe_mtx */
	unsigned		sick;		/* atomic; written probe_mtx */

	vtim_real		due;		/* probe_mtx */
	unsigned		enabled;	/* probe_mtx: warm, scheduled */
	unsigned		running;	/* probe_mtx: the thread has it */
	TAILQ_ENTRY(probe)	list;		/* probe_mtx */
};

/* What one probe found; the thread's own until merged under probe_mtx. */
struct probe_result {
	unsigned		bits;		/* 1 << PROBE_* */
	vtim_dur		last;
	char			resp[128];	/* status line or error */
};

static struct lock probe_mtx = LOCK_INITIALIZER;
static pthread_cond_t probe_cond = PTHREAD_COND_INITIALIZER;	/* schedule */
static pthread_cond_t probe_done = PTHREAD_COND_INITIALIZER;	/* a run ended */
static TAILQ_HEAD(, probe) probe_list = TAILQ_HEAD_INITIALIZER(probe_list);
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;

/* PROXY v2 LOCAL, no addresses: the probe speaks for no client. */
static const unsigned char probe_proxy_local[] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51,
	0x55, 0x49, 0x54, 0x0a, 0x20, 0x00, 0x00, 0x00,
};

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
 * VBE.*.happy and log it ("Went" or "Still").  probe_mtx held; the log
 * and counters take no lock of ours, the backend's change time its own.
 */
static void
probe_update_locked(struct probe *p, const char *resp)
{
	char letters[PROBE__NBITS + 1];
	unsigned u, sick, changed;

	LOCK_AssertHeld(&probe_mtx);
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
 * One probe: connect, send, read to the end, all before the deadline.
 */

static int
probe_ms_left(vtim_real deadline)
{
	vtim_dur left = deadline - TIM_real();

	return (left <= 0 ? 0 : (int)(left * 1e3 + 0.5));
}

/*
 * Connect to the backend's addresses in order until one answers, all
 * within the deadline; the fd or -1, errno set.  The list is the one in
 * use when the probe starts (a reference held meanwhile).
 */
static int
probe_connect(const struct probe *p, vtim_real deadline,
    struct probe_result *r)
{
	struct backend_addrs *a;
	const struct sockaddr_storage *sa = NULL;
	struct pollfd pfd;
	socklen_t sl, el = sizeof(int);
	unsigned u;
	int fd = -1, e = EADDRNOTAVAIL, i, family = AF_UNSPEC;

	a = BACKEND_AddrsRef(p->be);
	for (u = 0; u < a->n; u++) {
		sa = &a->addr[u].sa;
		sl = a->addr[u].salen;
		fd = socket(sa->ss_family, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (fd < 0) {
			e = errno;
			continue;
		}
		i = connect(fd, (const struct sockaddr *)sa, sl);
		if (i != 0 && errno == EINPROGRESS) {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			do
				i = poll(&pfd, 1, probe_ms_left(deadline));
			while (i < 0 && errno == EINTR);
			if (i == 0)
				errno = ETIMEDOUT;
			else if (i > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR,
			    &e, &el) == 0)
				errno = e;
			i = (i > 0 && e == 0) ? 0 : -1;
		}
		if (i == 0) {
			family = sa->ss_family;
			break;
		}
		e = errno;
		(void)close(fd);
		fd = -1;
	}
	BACKEND_AddrsDeref(&a);
	if (fd < 0) {
		errno = e;
		return (-1);
	}
	r->bits |= 1U << (family == AF_INET ? PROBE_GOOD_IPV4 :
	    family == AF_INET6 ? PROBE_GOOD_IPV6 : PROBE_GOOD_UNIX);
	return (fd);
}

static int
probe_write(int fd, const void *buf, size_t len, struct probe_result *r)
{
	ssize_t n;

	n = send(fd, buf, len, MSG_NOSIGNAL);
	if (n == (ssize_t)len)
		return (0);
	if (n < 0) {
		r->bits |= 1U << PROBE_ERR_XMIT;
		(void)snprintf(r->resp, sizeof r->resp, "Write error %d (%s)",
		    errno, strerror(errno));
	} else
		(void)snprintf(r->resp, sizeof r->resp,
		    "Short write (%zd/%zu)", n, len);
	return (-1);
}

/* The PROXY header .proxy_header asks for, with the probe's addresses. */
static int
probe_proxy(int fd, unsigned version, struct probe_result *r)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;
	char line[176], addr[64], port[8];

	if (version == 2)
		return (probe_write(fd, probe_proxy_local,
		    sizeof probe_proxy_local, r));
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    (ss.ss_family == AF_INET || ss.ss_family == AF_INET6) &&
	    getnameinfo((struct sockaddr *)&ss, sl, addr, sizeof addr, port,
	    sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		(void)snprintf(line, sizeof line, "PROXY %s %s %s %s %s\r\n",
		    ss.ss_family == AF_INET ? "TCP4" : "TCP6", addr, addr,
		    port, port);
	else
		(void)snprintf(line, sizeof line, "PROXY UNKNOWN\r\n");
	return (probe_write(fd, line, strlen(line), r));
}

/* Read until the backend closes; the first bytes into r->resp. */
static int
probe_read(int fd, vtim_real deadline, struct probe_result *r, size_t *rlen)
{
	struct pollfd pfd;
	char sink[8192];
	ssize_t n;
	int i;

	for (;;) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		i = poll(&pfd, 1, probe_ms_left(deadline));
		if (i < 0 && errno == EINTR)
			continue;
		if (i <= 0) {
			if (i == 0)
				errno = ETIMEDOUT;
			(void)snprintf(r->resp, sizeof r->resp,
			    "Poll error %d (%s)", errno, strerror(errno));
			return (-1);
		}
		if (*rlen < sizeof r->resp - 1)
			n = read(fd, r->resp + *rlen,
			    sizeof r->resp - 1 - *rlen);
		else
			n = read(fd, sink, sizeof sink);
		if (n == 0)
			return (0);
		if (n < 0) {
			(void)snprintf(r->resp, sizeof r->resp,
			    "Read error %d (%s)", errno, strerror(errno));
			return (-1);
		}
		if (*rlen < sizeof r->resp - 1) {
			*rlen += (size_t)n;
			r->resp[*rlen] = '\0';
		}
	}
}

static void
probe_poke(const struct probe *p, struct probe_result *r)
{
	vtim_real t_start, deadline;
	unsigned status;
	size_t rlen = 0;
	int fd;

	memset(r, 0, sizeof *r);
	t_start = TIM_real();
	deadline = t_start + p->timeout;
	fd = probe_connect(p, deadline, r);
	if (fd < 0) {
		(void)snprintf(r->resp, sizeof r->resp, "Open error %d (%s)",
		    errno, strerror(errno));
		BACKEND_CountFail(p->be, errno);
		return;
	}
	if ((BACKEND_ProxyHeader(p->be) != 0 &&
	    probe_proxy(fd, BACKEND_ProxyHeader(p->be), r) != 0) ||
	    probe_write(fd, p->req, p->req_len, r) != 0) {
		(void)close(fd);
		return;
	}
	r->bits |= 1U << PROBE_GOOD_XMIT;
	if (probe_read(fd, deadline, r, &rlen) != 0) {
		r->bits |= 1U << PROBE_ERR_RECV;
		(void)close(fd);
		return;
	}
	(void)close(fd);
	if (rlen == 0) {
		(void)snprintf(r->resp, sizeof r->resp, "Empty response");
		return;
	}
	r->last = TIM_real() - t_start;
	r->bits |= 1U << PROBE_GOOD_RECV;
	r->resp[strcspn(r->resp, "\r\n")] = '\0';
	if (sscanf(r->resp, "HTTP/%*f %u ", &status) == 1 &&
	    status == p->exp_status)
		r->bits |= 1U << PROBE_HAPPY;
}

/*
 * Run one probe (the thread has it: running) and record the result,
 * unless the probe was stopped meanwhile (its window was reset then).
 */
static void
probe_run(struct probe *p)
{
	struct probe_result r;
	unsigned u;

	probe_poke(p, &r);
	LOCK_Lock(&probe_mtx);
	if (!p->enabled) {
		LOCK_Unlock(&probe_mtx);
		return;
	}
	probe_shift_locked(p);
	for (u = 0; u < PROBE__NBITS; u++)
		p->bits[u] |= (r.bits >> u) & 1;
	p->last = r.last;
	probe_count_locked(p);
	probe_update_locked(p, r.resp);
	LOCK_Unlock(&probe_mtx);
}

/*--------------------------------------------------------------------
 * The thread
 */

/* The enabled probe due first, or NULL. */
static struct probe *
probe_next_locked(void)
{
	struct probe *p, *next = NULL;

	LOCK_AssertHeld(&probe_mtx);
	TAILQ_FOREACH(p, &probe_list, list)
		if (p->enabled && !p->running &&
		    (next == NULL || p->due < next->due))
			next = p;
	return (next);
}

static void
probe_wait_until_locked(vtim_real t)
{
	struct timespec ts;

	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	(void)LOCK_TimedWait(&probe_cond, &probe_mtx, &ts);
}

static void *
probe_thread(void *arg)
{
	struct probe *p;
	vtim_real now;

	(void)arg;
	(void)pthread_setname_np(pthread_self(), "cache-probe");
	LOCK_Lock(&probe_mtx);
	for (;;) {
		p = probe_next_locked();
		now = TIM_real();
		if (p == NULL) {
			probe_wait_until_locked(now + 8.192);
			continue;
		}
		if (p->due > now) {
			probe_wait_until_locked(p->due);
			continue;
		}
		p->running = 1;
		p->due = now + p->interval;
		LOCK_Unlock(&probe_mtx);
		probe_run(p);
		LOCK_Lock(&probe_mtx);
		p->running = 0;
		ASSERT_ZERO(pthread_cond_broadcast(&probe_done));
	}
	return (NULL);
}

static void
probe_start_thread(void)
{
	pthread_t thr;

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
	/* Varnish's defaults, for declarations not from our compiler. */
	p->timeout = vp->timeout > 0 ? vp->timeout : 2.0;
	p->interval = vp->interval > 0 ? vp->interval : 5.0;
	p->exp_status = vp->exp_status > 0 ? vp->exp_status : 200;
	p->window = vp->window > 0 && vp->window <= 64 ? vp->window : 8;
	p->threshold = vp->threshold > 0 ? vp->threshold : 3;
	p->initial = vp->initial == ~0U ? p->threshold - 1 : vp->initial;
	if (p->initial > p->threshold)
		p->initial = p->threshold;
	LOCK_Lock(&probe_mtx);
	probe_reset_locked(p);
	probe_update_locked(p, "");
	TAILQ_INSERT_TAIL(&probe_list, p, list);
	LOCK_Unlock(&probe_mtx);
	return (p);
}

void
PROBE_Free(struct probe **pp)
{
	struct probe *p;

	TAKE_OBJ_NOTNULL(p, pp, PROBE_MAGIC);
	LOCK_Lock(&probe_mtx);
	p->enabled = 0;
	/*
	 * A run in progress ends within .timeout; it uses the backend, so
	 * the backend waits (Varnish hands the probe to its thread instead).
	 */
	while (p->running)
		LOCK_Wait(&probe_done, &probe_mtx);
	TAILQ_REMOVE(&probe_list, p, list);
	LOCK_Unlock(&probe_mtx);
	free(p->req);
	FREE_OBJ(p);
}

void
PROBE_Control(struct probe *p, int warm)
{

	CHECK_OBJ(p, PROBE_MAGIC);
	LOCK_Lock(&probe_mtx);
	if ((unsigned)(warm != 0) == p->enabled) {
		LOCK_Unlock(&probe_mtx);
		return;
	}
	/* A run in progress when it goes cold records nothing (probe_run). */
	probe_reset_locked(p);
	probe_update_locked(p, "");
	p->enabled = warm != 0;
	p->due = TIM_real();
	if (warm)
		ASSERT_ZERO(pthread_cond_signal(&probe_cond));
	LOCK_Unlock(&probe_mtx);
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

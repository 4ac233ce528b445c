/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend.c -- backends and their connection pools.  Owns struct backend,
 * struct vbc, the list of backends (be_list_mtx, which also guards the
 * resolver's schedule) and each backend's be->mtx (idle connections,
 * counts, the change time, the address list).  Lock order: be_list_mtx,
 * probe_mtx (probe.c), be->mtx; never held across I/O.  A fetch tries
 * the addresses in order until one connects, all within connect_timeout.
 * A fetch finding its backend at .max_connections may wait in the
 * backend's queue (backend_wait_timeout, backend_wait_limit): FIFO, each
 * waiter on its own condition variable, so a connection returned or
 * closed wakes exactly the oldest.
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fnmatch.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/child_cli.h"
#include "cache/pool.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

/* A fetch waiting for a connection slot; on its worker's stack. */
struct be_waiter {
	unsigned		magic;
#define BE_WAITER_MAGIC		0x3b8d61f2
	pthread_cond_t		cond;		/* CLOCK_MONOTONIC */
	unsigned		queued;		/* be->mtx: on be->waiters */
	TAILQ_ENTRY(be_waiter)	list;		/* be->mtx */
};

struct backend {
	unsigned		magic;
#define BACKEND_MAGIC		0x7c51e0b4
	char			*vcl_name;	/* const */
	struct director		director[1];	/* const */
	char			*host;		/* const; NULL: .path */
	char			port[16];	/* const; "-" for .path */
	/* Swapped whole by BACKEND_DnsDone; readers take a reference. */
	struct backend_addrs	*addrs;		/* mtx */
	unsigned		dns;		/* const: a name, re-resolved */
	unsigned		warm;		/* be_list_mtx */
	unsigned		dns_busy;	/* be_list_mtx: in a lookup */
	vtim_real		dns_due;	/* be_list_mtx */
	char			*hosthdr;	/* const */
	vtim_dur		connect_timeout;	/* const; < 0 param */
	vtim_dur		first_byte_timeout;	/* const; < 0 param */
	vtim_dur		between_bytes_timeout;	/* const; < 0 param */
	unsigned		max_connections;	/* const */
	unsigned		proxy_header;	/* const; 0, 1 or 2 */
	struct probe		*probe;		/* const; NULL: none */
	/*
	 * No address: the name does not resolve (at load or since).  The
	 * backend exists (the VCL loads) but is sick, fetches fail fast,
	 * until the resolver finds an address.
	 */
	unsigned		sick;		/* atomic; addrs->n == 0 */
	/* VCL.NAME, as backend.list shows it; the VCL's name at load */
	char			*display;	/* const */
	/* backend.set_health: BE_ADMIN_*; atomic */
	unsigned		admin;
#define BE_ADMIN_AUTO		0	/* what the probe says, if any */
#define BE_ADMIN_HEALTHY	1
#define BE_ADMIN_SICK		2
	vtim_real		t_change;	/* mtx */
	struct lock		mtx;
	TAILQ_HEAD(vbc_head_s, vbc) idle;	/* mtx; most recent first */
	unsigned		n_idle;		/* mtx */
	unsigned		n_conn;		/* mtx: open, busy or idle */
	TAILQ_HEAD(, be_waiter)	waiters;	/* mtx; oldest first */
	unsigned		n_wait;		/* mtx: on waiters */
	/*
	 * After a connect failed in a way that retrying at once will not
	 * mend (backend_local_error_holddown, _remote_), no new
	 * connection is tried until then; idle ones are still used.
	 */
	vtim_mono		holddown;	/* mtx; 0: none */
	int			holddown_errno;	/* mtx */
	struct vsc_vbe		*vsc;		/* const; atomic adds */
	TAILQ_ENTRY(backend)	list;		/* be_list_mtx */
	/*
	 * The owner's (its VCL, or a dynamic director) and each fetch's
	 * (DIRECTOR_Resolve) and shard ring's: the last BACKEND_Deref
	 * frees it, so that a dynamic member leaving DNS outlives the
	 * fetches using it.
	 */
	unsigned		refs;		/* atomic */
	unsigned		listed;		/* be_list_mtx */
};

static struct lock be_list_mtx = LOCK_INITIALIZER;
static TAILQ_HEAD(, backend) be_list = TAILQ_HEAD_INITIALIZER(be_list);
/* be_list_mtx: a backend's dns_busy went 0 (BACKEND_Delete waits). */
static pthread_cond_t be_dns_cond = PTHREAD_COND_INITIALIZER;

/*--------------------------------------------------------------------
 * Address lists
 */

/* A .path backend: a list of one Unix socket, or none if too long. */
static struct backend_addrs *
be_unix(const char *path)
{
	struct backend_addrs *a;
	struct sockaddr_un *sun;

	a = calloc(1, sizeof *a + sizeof a->addr[0]);
	if (a == NULL)
		return (NULL);
	a->magic = BACKEND_ADDRS_MAGIC;
	a->refs = 1;
	if (strlen(path) >= sizeof sun->sun_path)
		return (a);
	sun = (struct sockaddr_un *)(void *)&a->addr[0].sa;
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, strlen(path) + 1);
	a->addr[0].salen = (socklen_t)sizeof *sun;
	(void)snprintf(a->addr[0].ip, sizeof a->addr[0].ip, "%s", path);
	a->n = 1;
	return (a);
}

struct backend_addrs *
BACKEND_AddrsRef(struct backend *be)
{
	struct backend_addrs *a;

	CHECK_OBJ(be, BACKEND_MAGIC);
	LOCK_Lock(&be->mtx);
	a = be->addrs;
	CHECK_OBJ(a, BACKEND_ADDRS_MAGIC);
	(void)__atomic_add_fetch(&a->refs, 1, __ATOMIC_RELAXED);
	LOCK_Unlock(&be->mtx);
	return (a);
}

void
BACKEND_AddrsDeref(struct backend_addrs **ap)
{
	struct backend_addrs *a;

	TAKE_OBJ_NOTNULL(a, ap, BACKEND_ADDRS_MAGIC);
	/* acq_rel: the freeing thread sees every reader done with it. */
	if (__atomic_sub_fetch(&a->refs, 1, __ATOMIC_ACQ_REL) == 0)
		FREE_OBJ(a);
}

static int
be_addrs_has(const struct backend_addrs *a,
    const struct sockaddr_storage *sa, socklen_t salen)
{
	unsigned u;

	for (u = 0; u < a->n; u++)
		if (a->addr[u].salen == salen &&
		    !memcmp(&a->addr[u].sa, sa, salen))
			return (1);
	return (0);
}

static int
be_addrs_same(const struct backend_addrs *a, const struct backend_addrs *b)
{
	unsigned u;

	if (a->n != b->n)
		return (0);
	for (u = 0; u < a->n; u++)
		if (a->addr[u].salen != b->addr[u].salen ||
		    memcmp(&a->addr[u].sa, &b->addr[u].sa, a->addr[u].salen))
			return (0);
	return (1);
}

/* "ip ip ..." of a, for the logs. */
static void
be_addrs_text(const struct backend_addrs *a, char *buf, size_t len)
{
	size_t l = 0;
	unsigned u;

	buf[0] = '\0';
	for (u = 0; u < a->n && l < len; u++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s", u ? " " : "",
		    a->addr[u].ip);
}

/* Resolve at load; 0, or -1 when out of memory. */
static int
be_addrs_load(struct backend *be, const struct vrt_endpoint *ep)
{
	char why[160];
	int numeric = 1;

	if (ep->path != NULL) {
		(void)snprintf(be->port, sizeof be->port, "-");
		be->addrs = be_unix(ep->path);
		(void)snprintf(why, sizeof why, "path too long");
	} else {
		(void)snprintf(be->port, sizeof be->port, "%s",
		    ep->port != NULL ? ep->port : "80");
		be->host = strdup(ep->host);
		if (be->host == NULL)
			return (-1);
		be->addrs = DNS_Resolve(be->host, be->port, &numeric, why,
		    sizeof why);
		VSC_Add(backend_dns_lookups, 1);
	}
	if (be->addrs == NULL)
		return (-1);
	be->dns = !numeric;
	be->dns_due = TIM_real() + cache_param->backend_dns_ttl;
	if (be->addrs->n > 0)
		return (0);
	/* Not a load failure: DNS may be back before it matters. */
	be->sick = 1;
	if (be->host != NULL)
		VSC_Add(backend_dns_fail, 1);
	VSL(SLT_Error, 0, "backend %s: no address for %s%s%s (%s), sick",
	    be->vcl_name, ep->path != NULL ? ep->path : ep->host,
	    ep->path != NULL ? "" : ":", ep->path != NULL ? "" : be->port,
	    why);
	return (0);
}

struct backend *
BACKEND_New(const struct vrt_backend *vrt, const char *vcl, char *err,
    size_t errlen)
{
	const struct vrt_endpoint *ep;
	struct backend *be;

	if (vrt == NULL || vrt->magic != VRT_BACKEND_MAGIC ||
	    vrt->vcl_name == NULL || vrt->endpoint == NULL ||
	    vrt->endpoint->magic != VRT_ENDPOINT_MAGIC ||
	    (vrt->endpoint->host == NULL && vrt->endpoint->path == NULL)) {
		(void)snprintf(err, errlen, "backend %s: incomplete "
		    "declaration", vrt == NULL || vrt->vcl_name == NULL ?
		    "(unnamed)" : vrt->vcl_name);
		return (NULL);
	}
	ep = vrt->endpoint;
	ALLOC_OBJ(be, BACKEND_MAGIC);
	if (be == NULL) {
		(void)snprintf(err, errlen, "out of memory");
		return (NULL);
	}
	be->vcl_name = strdup(vrt->vcl_name);
	if (be->vcl_name != NULL &&
	    asprintf(&be->display, "%s.%s", vcl != NULL ? vcl : "",
	    vrt->vcl_name) < 0)
		be->display = NULL;
	if (be->vcl_name == NULL || be->display == NULL) {
		(void)snprintf(err, errlen, "out of memory");
		free(be->vcl_name);
		FREE_OBJ(be);
		return (NULL);
	}
	be->t_change = TIM_real();
	if (be_addrs_load(be, ep) != 0) {
		(void)snprintf(err, errlen, "out of memory");
		free(be->host);
		free(be->vcl_name);
		free(be->display);
		FREE_OBJ(be);
		return (NULL);
	}
	be->proxy_header = vrt->proxy_header;
	if (vrt->hosthdr != NULL)
		be->hosthdr = strdup(vrt->hosthdr);
	be->connect_timeout = vrt->connect_timeout;
	be->first_byte_timeout = vrt->first_byte_timeout;
	be->between_bytes_timeout = vrt->between_bytes_timeout;
	be->max_connections = vrt->max_connections;
	INIT_OBJ(be->director, DIRECTOR_MAGIC);
	be->director->vcl_name = be->vcl_name;
	be->director->backend = be;
	be->director->display = be->display;
	be->director->t_created = be->t_change;
	be->vsc = VSC_NewVbe(be->display);
	LOCK_Init(&be->mtx);
	TAILQ_INIT(&be->idle);
	TAILQ_INIT(&be->waiters);
	/* Stopped until its VCL is warm (BACKEND_SetWarm). */
	if (vrt->probe != NULL && (be->probe = PROBE_New(be, vrt->probe,
	    be->hosthdr != NULL ? be->hosthdr : ep->host != NULL ? ep->host :
	    "localhost")) == NULL)
		VSL(SLT_Error, 0, "backend %s: out of memory for its probe, "
		    "healthy unless set sick", be->vcl_name);
	be->refs = 1;
	LOCK_Lock(&be_list_mtx);
	TAILQ_INSERT_TAIL(&be_list, be, list);
	be->listed = 1;
	LOCK_Unlock(&be_list_mtx);
	VSC_Add(n_backend, 1);
	if (be->dns)
		DNS_Start();
	return (be);
}

/*
 * A connection was returned to the idle list or a slot freed: wake the
 * oldest waiter, which takes it off the queue and tries again.  If a new
 * fetch takes the connection first, the waiter queues again.
 */
static void
be_wake_locked(struct backend *be)
{
	struct be_waiter *w;

	LOCK_AssertHeld(&be->mtx);
	w = TAILQ_FIRST(&be->waiters);
	if (w == NULL)
		return;
	CHECK_OBJ(w, BE_WAITER_MAGIC);
	assert(w->queued);
	TAILQ_REMOVE(&be->waiters, w, list);
	w->queued = 0;
	assert(be->n_wait > 0);
	be->n_wait--;
	ASSERT_ZERO(pthread_cond_signal(&w->cond));
}

/* Free a slot (be->n_conn) and wake a waiter for it. */
static void
be_release_slot(struct backend *be)
{

	LOCK_Lock(&be->mtx);
	assert(be->n_conn > 0);
	be->n_conn--;
	be_wake_locked(be);
	LOCK_Unlock(&be->mtx);
}

static void
be_close_fd(struct vbc *vbc)
{

	(void)close(vbc->fd);
	vbc->fd = -1;
	be_release_slot(vbc->be);
}

/* The last reference went: nothing can reach be any more. */
static void
be_free(struct backend *be)
{
	struct vbc *vbc;

	CHECK_OBJ(be, BACKEND_MAGIC);
	assert(!be->listed);
	if (be->probe != NULL)
		PROBE_Free(&be->probe);
	while ((vbc = TAILQ_FIRST(&be->idle)) != NULL) {
		TAILQ_REMOVE(&be->idle, vbc, list);
		be->n_idle--;
		be_close_fd(vbc);
		FREE_OBJ(vbc);
	}
	assert(be->n_conn == 0);
	/* Waiters are fetches, which hold a reference. */
	assert(TAILQ_EMPTY(&be->waiters));
	LOCK_Fini(&be->mtx);
	BACKEND_AddrsDeref(&be->addrs);
	free(be->host);
	free(be->vcl_name);
	free(be->display);
	free(be->hosthdr);
	VSC_DeleteVbe(&be->vsc);
	VSC_Sub(n_backend, 1);
	FREE_OBJ(be);
}

/*
 * The owner lets go: off the list (backend.list, the resolver, the
 * CLI no longer see it) at once; freed with the last reference.
 */
void
BACKEND_Delete(struct backend **bep)
{
	struct backend *be;

	TAKE_OBJ_NOTNULL(be, bep, BACKEND_MAGIC);
	LOCK_Lock(&be_list_mtx);
	/* The resolver uses be->host; at most one lookup's time. */
	while (be->dns_busy)
		LOCK_Wait(&be_dns_cond, &be_list_mtx);
	assert(be->listed);
	TAILQ_REMOVE(&be_list, be, list);
	be->listed = 0;
	LOCK_Unlock(&be_list_mtx);
	BACKEND_Deref(&be);
}

struct backend *
BACKEND_Ref(struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	assert(__atomic_add_fetch(&be->refs, 1, __ATOMIC_RELAXED) > 1);
	return (be);
}

void
BACKEND_Deref(struct backend **bep)
{
	struct backend *be;

	TAKE_OBJ_NOTNULL(be, bep, BACKEND_MAGIC);
	/* acq_rel: the freeing thread sees every holder done with it. */
	if (__atomic_sub_fetch(&be->refs, 1, __ATOMIC_ACQ_REL) == 0)
		be_free(be);
}

int
BACKEND_Healthy(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	switch (__atomic_load_n(&be->admin, __ATOMIC_RELAXED)) {
	case BE_ADMIN_HEALTHY:
		return (1);
	case BE_ADMIN_SICK:
		return (0);
	default:
		if (__atomic_load_n(&be->sick, __ATOMIC_RELAXED))
			return (0);
		return (be->probe == NULL || PROBE_Healthy(be->probe));
	}
}

void
BACKEND_SetWarm(const char *vcl, int warm)
{
	struct backend *be;
	size_t l = strlen(vcl);

	LOCK_Lock(&be_list_mtx);
	TAILQ_FOREACH(be, &be_list, list) {
		if (strncmp(be->display, vcl, l) || be->display[l] != '.')
			continue;
		/* Only warm VCLs' names are re-resolved (BACKEND_DnsDue). */
		be->warm = warm != 0;
		if (be->probe != NULL)
			PROBE_Control(be->probe, warm);
	}
	LOCK_Unlock(&be_list_mtx);
}

void
BACKEND_SetWarmOne(struct backend *be, const struct vcl *vcl)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	LOCK_Lock(&be_list_mtx);
	/*
	 * Under be_list_mtx: VCL_SetState sets the temperature before
	 * BACKEND_SetWarm takes it, so a change racing with this one
	 * is applied after it.
	 */
	be->warm = be->listed && VCL_IsWarm(vcl);
	if (be->probe != NULL)
		PROBE_Control(be->probe, be->warm);
	LOCK_Unlock(&be_list_mtx);
}

/* Close the connections on the list dead; how many. */
static unsigned
be_close_list(struct vbc *dead, const char *why)
{
	struct vbc *vbc;
	unsigned n = 0;

	while ((vbc = dead) != NULL) {
		dead = vbc->list.tqe_next;
		VSL(SLT_BackendClose, 0, "%d %s %s", vbc->fd,
		    vbc->be->vcl_name, why);
		be_close_fd(vbc);
		FREE_OBJ(vbc);
		n++;
	}
	return (n);
}

/*--------------------------------------------------------------------
 * The resolver's side (backend_dns.c runs the thread)
 */

struct backend *
BACKEND_DnsDue(vtim_real now, vtim_real *next, const char **host,
    const char **port)
{
	struct backend *be;

	*next = now + 1.0;
	LOCK_Lock(&be_list_mtx);
	TAILQ_FOREACH(be, &be_list, list) {
		if (!be->dns || !be->warm || be->dns_busy)
			continue;
		if (be->dns_due <= now) {
			be->dns_busy = 1;
			*host = be->host;
			*port = be->port;
			break;
		}
		if (be->dns_due < *next)
			*next = be->dns_due;
	}
	LOCK_Unlock(&be_list_mtx);
	return (be);
}

/* Idle connections to addresses not in a, onto *dead (be->mtx held). */
static void
be_drop_gone_locked(struct backend *be, const struct backend_addrs *a,
    struct vbc **dead)
{
	struct vbc *vbc, *next;

	LOCK_AssertHeld(&be->mtx);
	TAILQ_FOREACH_SAFE(vbc, &be->idle, list, next) {
		if (be_addrs_has(a, &vbc->sa, vbc->salen))
			continue;
		TAILQ_REMOVE(&be->idle, vbc, list);
		be->n_idle--;
		vbc->list.tqe_next = *dead;
		*dead = vbc;
	}
}

/* The logs of a change: sick, healthy again, or other addresses. */
static void
be_dns_log(const struct backend *be, const struct backend_addrs *old,
    const struct backend_addrs *fresh, const char *why)
{
	char text[256];

	be_addrs_text(fresh, text, sizeof text);
	if (fresh->n == 0)
		VSL(SLT_Error, 0, "backend %s: %s:%s no longer resolves (%s), "
		    "sick until it does", be->vcl_name, be->host, be->port,
		    why);
	else if (old->n == 0)
		VSL(SLT_Error, 0, "backend %s: %s:%s resolves again, to %s; "
		    "no longer sick for want of an address", be->vcl_name,
		    be->host, be->port, text);
	else
		VSL(SLT_Debug, 0, "backend %s: %s:%s now resolves to %s",
		    be->vcl_name, be->host, be->port, text);
}

void
BACKEND_DnsDone(struct backend *be, struct backend_addrs **freshp,
    const char *why, vtim_dur ttl)
{
	struct backend_addrs *fresh, *old = NULL;
	struct vbc *dead = NULL;

	CHECK_OBJ(be, BACKEND_MAGIC);
	fresh = *freshp;
	*freshp = NULL;
	/* NULL: out of memory; keep what we have and try next round. */
	if (fresh != NULL) {
		CHECK_OBJ(fresh, BACKEND_ADDRS_MAGIC);
		VSC_Add(backend_dns_lookups, 1);
		if (fresh->n == 0)
			VSC_Add(backend_dns_fail, 1);
		LOCK_Lock(&be->mtx);
		if (!be_addrs_same(be->addrs, fresh)) {
			old = be->addrs;
			be->addrs = fresh;
			be_drop_gone_locked(be, fresh, &dead);
			if ((old->n == 0) != (fresh->n == 0))
				be->t_change = TIM_real();
			__atomic_store_n(&be->sick, fresh->n == 0,
			    __ATOMIC_RELAXED);
		}
		LOCK_Unlock(&be->mtx);
	}
	if (old != NULL) {
		VSC_Add(backend_dns_changes, 1);
		be_dns_log(be, old, fresh, why);
		VSC_Add(backend_dns_closed, be_close_list(dead,
		    "address gone"));
		BACKEND_AddrsDeref(&old);
	} else if (fresh != NULL)
		BACKEND_AddrsDeref(&fresh);
	LOCK_Lock(&be_list_mtx);
	be->dns_busy = 0;
	be->dns_due = TIM_real() + ttl;
	ASSERT_ZERO(pthread_cond_broadcast(&be_dns_cond));
	LOCK_Unlock(&be_list_mtx);
}

unsigned
BACKEND_ProxyHeader(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be->proxy_header);
}

void
BACKEND_ProbeHappy(struct backend *be, uint64_t happy, unsigned changed)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	if (be->vsc != NULL)
		__atomic_store_n(&be->vsc->happy, happy, __ATOMIC_RELAXED);
	if (!changed)
		return;
	LOCK_Lock(&be->mtx);
	be->t_change = TIM_real();
	LOCK_Unlock(&be->mtx);
}

const struct director *
BACKEND_Director(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be->director);
}

const char *
BACKEND_Name(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be->vcl_name);
}

struct backend *
BACKEND_Lookup(const char *display)
{
	struct backend *be;

	LOCK_Lock(&be_list_mtx);
	TAILQ_FOREACH(be, &be_list, list)
		if (!strcmp(be->display, display))
			break;
	LOCK_Unlock(&be_list_mtx);
	return (be);
}

vtim_dur
BACKEND_ConnectTimeout(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be->connect_timeout >= 0 ? be->connect_timeout :
	    cache_param->connect_timeout);
}

vtim_dur
BACKEND_FirstByteTimeout(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be->first_byte_timeout >= 0 ? be->first_byte_timeout :
	    cache_param->first_byte_timeout);
}

vtim_dur
BACKEND_BetweenBytesTimeout(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be->between_bytes_timeout >= 0 ? be->between_bytes_timeout :
	    cache_param->between_bytes_timeout);
}

const char *
BACKEND_HostHeader(const struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be->hosthdr);
}

/*
 * Take idle connections idle too long off the list (be->mtx held) into
 * *dead, to be closed after unlocking.
 */
static void
be_reap_locked(struct backend *be, vtim_mono now, struct vbc **dead)
{
	struct vbc *vbc;

	LOCK_AssertHeld(&be->mtx);
	while ((vbc = TAILQ_LAST(&be->idle, vbc_head_s)) != NULL &&
	    now - vbc->t_idle > cache_param->backend_idle_timeout) {
		TAILQ_REMOVE(&be->idle, vbc, list);
		be->n_idle--;
		vbc->list.tqe_next = *dead;
		*dead = vbc;
	}
}

void
BACKEND_Reap(void)
{
	struct backend *be;
	struct vbc *dead = NULL;
	vtim_mono now = TIM_mono();

	LOCK_Lock(&be_list_mtx);
	TAILQ_FOREACH(be, &be_list, list) {
		LOCK_Lock(&be->mtx);
		be_reap_locked(be, now, &dead);
		LOCK_Unlock(&be->mtx);
	}
	LOCK_Unlock(&be_list_mtx);
	VSC_Add(backend_closed_idle, be_close_list(dead, "idle"));
}

/* Is an idle connection still usable?  Not if the backend closed it. */
static int
be_alive(const struct vbc *vbc)
{
	char c;
	ssize_t n;

	n = recv(vbc->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	return (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
}

static struct vbc *
be_get_idle(struct backend *be, struct vsl_log *vsl)
{
	struct vbc *vbc, *dead = NULL;

	for (;;) {
		LOCK_Lock(&be->mtx);
		be_reap_locked(be, TIM_mono(), &dead);
		vbc = TAILQ_FIRST(&be->idle);
		if (vbc != NULL) {
			TAILQ_REMOVE(&be->idle, vbc, list);
			be->n_idle--;
		}
		LOCK_Unlock(&be->mtx);
		VSC_Add(backend_closed_idle, be_close_list(dead, "idle"));
		dead = NULL;
		if (vbc == NULL || be_alive(vbc))
			return (vbc);
		VSLb(vsl, SLT_BackendClose, "%d %s closed by backend",
		    vbc->fd, be->vcl_name);
		be_close_fd(vbc);
		VSC_Add(backend_closed_idle, 1);
		FREE_OBJ(vbc);
	}
}

/* Connect within tmo.  The fd, or -1 with errno set. */
static int
be_connect(const struct sockaddr_storage *sa, socklen_t sl, vtim_dur tmo)
{
	struct pollfd pfd;
	socklen_t el = sizeof(int);
	int fd, i, e, one = 1;

	fd = socket(sa->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);
	if (fd < 0)
		return (-1);
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(fd, (const struct sockaddr *)sa, sl) == 0)
		return (fd);
	if (errno != EINPROGRESS) {
		e = errno;
		(void)close(fd);
		errno = e;
		return (-1);
	}
	pfd.fd = fd;
	pfd.events = POLLOUT;
	POOL_Blocking();
	do
		i = poll(&pfd, 1, tmo > 0 ? TIM_poll_ms(tmo) : -1);
	while (i < 0 && errno == EINTR);
	if (i == 0) {
		(void)close(fd);
		errno = ETIMEDOUT;
		return (-1);
	}
	e = 0;
	if (i < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) != 0)
		e = errno;
	if (e != 0) {
		(void)close(fd);
		errno = e;
		return (-1);
	}
	return (fd);
}

static void
be_local_addr(struct vbc *vbc)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;

	if (getsockname(vbc->fd, (struct sockaddr *)&ss, &sl) != 0 ||
	    getnameinfo((struct sockaddr *)&ss, sl, vbc->laddr,
	    sizeof vbc->laddr, vbc->lport, sizeof vbc->lport,
	    NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		(void)snprintf(vbc->laddr, sizeof vbc->laddr, "-");
		(void)snprintf(vbc->lport, sizeof vbc->lport, "-");
	}
}

/*
 * BackendOpen: fd, backend, remote and local address and port, how.  A
 * Unix socket has no addresses: 0.0.0.0 0, as varnishd logs it, so that
 * the log tools' %h stays an address.
 */
static void
be_log_open(struct vsl_log *vsl, const struct backend *be,
    const struct vbc *vbc, const char *how)
{

	if (vbc->sa.ss_family == AF_UNIX)
		VSLb(vsl, SLT_BackendOpen, "%d %s 0.0.0.0 0 0.0.0.0 0 %s",
		    vbc->fd, be->vcl_name, how);
	else
		VSLb(vsl, SLT_BackendOpen, "%d %s %s %s %s %s %s", vbc->fd,
		    be->vcl_name, vbc->raddr, be->port, vbc->laddr,
		    vbc->lport, how);
}

/*
 * Try a's addresses in order until one connects, all within tmo (0: no
 * limit but the kernel's).  The fd and *u, or -1 and *e.  A name with
 * no address fails as EADDRNOTAVAIL.
 */
static int
be_connect_any(const struct backend *be, const struct backend_addrs *a,
    vtim_dur tmo, struct vsl_log *vsl, unsigned *u, int *e)
{
	vtim_mono end = TIM_mono() + tmo;
	vtim_dur left = 0;
	int fd;

	*e = EADDRNOTAVAIL;
	for (*u = 0; *u < a->n; (*u)++) {
		if (tmo > 0 && (left = end - TIM_mono()) <= 0) {
			*e = ETIMEDOUT;
			break;
		}
		fd = be_connect(&a->addr[*u].sa, a->addr[*u].salen, left);
		if (fd >= 0)
			return (fd);
		*e = errno;
		if (*u + 1 < a->n)
			VSLb(vsl, SLT_Debug, "backend %s: %s: errno %d (%s), "
			    "trying the next address", be->vcl_name,
			    a->addr[*u].ip, *e, strerror(*e));
	}
	return (-1);
}

/* VBE.*.fail and the fail_* counter for errno e, as varnishd sorts them. */
void
BACKEND_CountFail(const struct backend *be, int e)
{

	VSC_VbeAdd(be->vsc, fail, 1);
	switch (e) {
	case EACCES:
	case EPERM:
		VSC_VbeAdd(be->vsc, fail_eacces, 1);
		break;
	case EADDRNOTAVAIL:
		VSC_VbeAdd(be->vsc, fail_eaddrnotavail, 1);
		break;
	case ECONNREFUSED:
		VSC_VbeAdd(be->vsc, fail_econnrefused, 1);
		break;
	case ENETUNREACH:
		VSC_VbeAdd(be->vsc, fail_enetunreach, 1);
		break;
	case ETIMEDOUT:
		VSC_VbeAdd(be->vsc, fail_etimedout, 1);
		break;
	default:
		VSC_VbeAdd(be->vsc, fail_other, 1);
		break;
	}
}

/*
 * A connect that failed with e: hold new connects down, as varnishd
 * does -- for backend_local_error_holddown after an error of this host
 * (permission, no local address or port left), for
 * backend_remote_error_holddown after a refusal or an unreachable
 * network -- keeping the earlier end if one is pending.
 */
static void
be_holddown_set(struct backend *be, int e)
{
	vtim_dur h;
	vtim_mono end;

	switch (e) {
	case EACCES:
	case EPERM:
	case EADDRNOTAVAIL:
		h = cache_param->backend_local_error_holddown;
		break;
	case ECONNREFUSED:
	case ENETUNREACH:
		h = cache_param->backend_remote_error_holddown;
		break;
	default:
		return;
	}
	if (h <= 0)
		return;
	end = TIM_mono() + h;
	LOCK_Lock(&be->mtx);
	if (be->holddown == 0 || end < be->holddown) {
		be->holddown = end;
		be->holddown_errno = e;
	}
	LOCK_Unlock(&be->mtx);
}

/*
 * Held down (be->mtx held): the errno that started it, and how long it
 * still lasts.  Asked where the connection slot is taken, so it costs
 * no lock of its own.
 */
static int
be_holddown_locked(struct backend *be, int *e, vtim_dur *left)
{
	vtim_mono now;

	LOCK_AssertHeld(&be->mtx);
	if (be->holddown == 0)
		return (0);
	now = TIM_mono();
	if (now >= be->holddown) {
		be->holddown = 0;
		return (0);
	}
	*e = be->holddown_errno;
	*left = be->holddown - now;
	return (1);
}

void
BACKEND_CountBytes(const struct backend *be, uint64_t bereq_hdr,
    uint64_t bereq_body, uint64_t beresp_hdr, uint64_t beresp_body)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	if (bereq_hdr > 0)
		VSC_VbeAdd(be->vsc, bereq_hdrbytes, bereq_hdr);
	if (bereq_body > 0)
		VSC_VbeAdd(be->vsc, bereq_bodybytes, bereq_body);
	if (beresp_hdr > 0)
		VSC_VbeAdd(be->vsc, beresp_hdrbytes, beresp_hdr);
	if (beresp_body > 0)
		VSC_VbeAdd(be->vsc, beresp_bodybytes, beresp_body);
}

void
BACKEND_CountPipe(const struct backend *be, uint64_t hdr, uint64_t in,
    uint64_t out)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	VSC_VbeAdd(be->vsc, pipe_hdrbytes, hdr);
	VSC_VbeAdd(be->vsc, pipe_in, in);
	VSC_VbeAdd(be->vsc, pipe_out, out);
}

/* A fetch's place in its backend's wait queue, across wake-ups. */
struct be_wait {
	unsigned		started;	/* it queued at least once */
	vtim_mono		deadline;	/* backend_wait_timeout from then */
};

/*
 * The backend is at max_connections (be->mtx held).  Wait to be woken
 * (or the deadline) and return 1 to try again; 0: no queueing (off, or
 * backend_wait_limit fetches already wait); -1: the deadline passed.
 */
static int
be_wait_locked(struct backend *be, struct be_wait *wait)
{
	struct be_waiter w;
	pthread_condattr_t ca;
	struct timespec ts;
	unsigned again = wait->started;

	LOCK_AssertHeld(&be->mtx);
	if (!again) {
		if (cache_param->backend_wait_timeout <= 0 ||
		    be->n_wait >= cache_param->backend_wait_limit)
			return (0);
		wait->started = 1;
		wait->deadline = TIM_mono() +
		    cache_param->backend_wait_timeout;
		VSC_Add(backend_wait, 1);
	} else if (TIM_mono() >= wait->deadline)
		return (-1);
	INIT_OBJ(&w, BE_WAITER_MAGIC);
	ASSERT_ZERO(pthread_condattr_init(&ca));
	ASSERT_ZERO(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC));
	ASSERT_ZERO(pthread_cond_init(&w.cond, &ca));
	ASSERT_ZERO(pthread_condattr_destroy(&ca));
	/* Woken before and beaten to the connection: still the oldest. */
	if (again)
		TAILQ_INSERT_HEAD(&be->waiters, &w, list);
	else
		TAILQ_INSERT_TAIL(&be->waiters, &w, list);
	w.queued = 1;
	be->n_wait++;
	ts = TIM_timespec(wait->deadline);
	while (w.queued &&
	    LOCK_TimedWait(&w.cond, &be->mtx, &ts) == 0)
		continue;
	if (w.queued) {		/* timed out, not woken */
		TAILQ_REMOVE(&be->waiters, &w, list);
		w.queued = 0;
		assert(be->n_wait > 0);
		be->n_wait--;
	}
	ASSERT_ZERO(pthread_cond_destroy(&w.cond));
	w.magic = 0;
	return (1);
}

/* Not sick and with an address; else why is logged and counted. */
static int
be_usable(struct backend *be, struct worker *wrk, struct vsl_log *vsl)
{

	if (__atomic_load_n(&be->sick, __ATOMIC_RELAXED)) {
		VSC_VbeAdd(be->vsc, unhealthy, 1);
		VSC_Count(wrk->stats, backend_fail, 1);
		VSLb(vsl, SLT_FetchError, "backend %s: no address",
		    be->vcl_name);
		return (0);
	}
	if (!BACKEND_Healthy(be)) {
		VSC_VbeAdd(be->vsc, unhealthy, 1);
		VSC_Count(wrk->stats, backend_unhealthy, 1);
		VSLb(vsl, SLT_FetchError, "backend %s: unhealthy",
		    be->vcl_name);
		return (0);
	}
	return (1);
}

struct vbc *
BACKEND_GetConn(struct backend *be, struct worker *wrk, struct vsl_log *vsl,
    vtim_real t_first, vtim_real *t_prev, vtim_dur connect_timeout,
    unsigned force_fresh, unsigned *reused)
{
	struct backend_addrs *a;
	struct vbc *vbc;
	struct be_wait wait = { 0 };
	vtim_dur left;
	unsigned u;
	int fd = -1, e = 0, i;

	CHECK_OBJ(be, BACKEND_MAGIC);
	CHECK_OBJ(wrk, WORKER_MAGIC);
	*reused = 0;
	/* Never an idle one for .proxy_header: BACKEND_Recycle. */
	if (be->proxy_header != 0)
		force_fresh = 1;
	for (;;) {
		/*
		 * Again after a wait in the queue: it may have sickened.
		 * The wake-up this fetch had goes to the next in line.
		 */
		if (!be_usable(be, wrk, vsl)) {
			if (wait.started) {
				LOCK_Lock(&be->mtx);
				be_wake_locked(be);
				LOCK_Unlock(&be->mtx);
			}
			return (NULL);
		}
		if (!force_fresh) {
			vbc = be_get_idle(be, vsl);
			if (vbc != NULL) {
				*reused = 1;
				VSC_Count(wrk->stats, backend_reuse, 1);
				VSC_VbeAdd(be->vsc, req, 1);
				VSC_VbeAdd(be->vsc, conn, 1);
				VSLb_ts(vsl, "Connected", t_first, t_prev,
				    TIM_real());
				be_log_open(vsl, be, vbc, "reuse");
				return (vbc);
			}
		}
		if (be->max_connections > 0 && !wait.started &&
		    cache_param->backend_wait_timeout > 0)
			POOL_Blocking();	/* before be->mtx: pool locks */
		LOCK_Lock(&be->mtx);
		if (be_holddown_locked(be, &e, &left)) {
			if (wait.started)	/* its wake-up goes on */
				be_wake_locked(be);
			LOCK_Unlock(&be->mtx);
			VSC_VbeAdd(be->vsc, helddown, 1);
			VSC_Count(wrk->stats, backend_fail, 1);
			/* varnishd says "fail errno 0": the prefix stays. */
			VSLb(vsl, SLT_FetchError, "backend %s: fail errno 0 "
			    "(held down %.3f s more after errno %d (%s))",
			    be->vcl_name, left, e, strerror(e));
			return (NULL);
		}
		if (be->max_connections == 0 ||
		    be->n_conn < be->max_connections) {
			be->n_conn++;
			LOCK_Unlock(&be->mtx);
			break;
		}
		/* Recycled since be_get_idle looked: its wake-up is gone. */
		if (!force_fresh && be->n_idle > 0) {
			LOCK_Unlock(&be->mtx);
			continue;
		}
		i = be_wait_locked(be, &wait);
		LOCK_Unlock(&be->mtx);
		if (i > 0)
			continue;
		if (i < 0)
			VSC_Add(backend_wait_fail, 1);
		VSC_VbeAdd(be->vsc, busy, 1);
		VSC_Count(wrk->stats, backend_busy, 1);
		/* Varnish's words; it says nothing of max_connections. */
		VSLb(vsl, SLT_FetchError, "backend %s: busy", be->vcl_name);
		return (NULL);
	}
	a = BACKEND_AddrsRef(be);
	fd = be_connect_any(be, a, connect_timeout, vsl, &u, &e);
	if (fd < 0) {
		BACKEND_AddrsDeref(&a);
		be_release_slot(be);
		be_holddown_set(be, e);
		BACKEND_CountFail(be, e);
		VSC_Count(wrk->stats, backend_fail, 1);
		VSLb(vsl, SLT_FetchError, "backend %s: fail errno %d (%s)",
		    be->vcl_name, e, e == ETIMEDOUT ?
		    "connect_timeout" : strerror(e));
		return (NULL);
	}
	ALLOC_OBJ(vbc, VBC_MAGIC);
	if (vbc == NULL) {
		(void)close(fd);
		BACKEND_AddrsDeref(&a);
		be_release_slot(be);
		VSLb(vsl, SLT_FetchError, "backend %s: out of memory",
		    be->vcl_name);
		return (NULL);
	}
	vbc->fd = fd;
	vbc->be = be;
	vbc->sa = a->addr[u].sa;
	vbc->salen = a->addr[u].salen;
	(void)snprintf(vbc->raddr, sizeof vbc->raddr, "%s", a->addr[u].ip);
	BACKEND_AddrsDeref(&a);
	be_local_addr(vbc);
	VSC_Count(wrk->stats, backend_conn, 1);
	VSC_VbeAdd(be->vsc, req, 1);
	VSC_VbeAdd(be->vsc, conn, 1);
	VSLb_ts(vsl, "Connected", t_first, t_prev, TIM_real());
	be_log_open(vsl, be, vbc, "connect");
	return (vbc);
}

void
BACKEND_Recycle(struct vbc **vbcp, struct vsl_log *vsl)
{
	struct vbc *vbc;
	struct backend *be;
	int gone;

	TAKE_OBJ_NOTNULL(vbc, vbcp, VBC_MAGIC);
	be = vbc->be;
	/*
	 * A PROXY header speaks for one client for the connection's whole
	 * life: reused, it would pass client B off as client A.  No reuse
	 * at all, as varnishd 7.1 (and its words in the log): keying the
	 * pool by (client, server) would reuse only for a client fetching
	 * again within backend_idle_timeout, while every recent client
	 * held an idle connection, each counted in .max_connections.
	 */
	if (be->proxy_header != 0) {
		BACKEND_Close(&vbc, vsl, "Not Closing");
		VSC_Add(backend_closed_proxy, 1);
		return;
	}
	VSC_VbeSub(be->vsc, conn, 1);
	/* Varnish 7.1 logs a recycled connection as a BackendClose. */
	VSLb(vsl, SLT_BackendClose, "%d %s recycle", vbc->fd, be->vcl_name);
	LOCK_Lock(&be->mtx);
	/* Its address left the name's answer while it was busy. */
	gone = !be_addrs_has(be->addrs, &vbc->sa, vbc->salen);
	if (!gone) {
		vbc->t_idle = TIM_mono();
		TAILQ_INSERT_HEAD(&be->idle, vbc, list);
		be->n_idle++;
		be_wake_locked(be);
	}
	LOCK_Unlock(&be->mtx);
	if (!gone) {
		VSC_Add(backend_recycle, 1);
		return;
	}
	vbc->list.tqe_next = NULL;
	VSC_Add(backend_dns_closed, be_close_list(vbc, "address gone"));
}

void
BACKEND_Close(struct vbc **vbcp, struct vsl_log *vsl, const char *reason)
{
	struct vbc *vbc;

	TAKE_OBJ_NOTNULL(vbc, vbcp, VBC_MAGIC);
	VSC_VbeSub(vbc->be->vsc, conn, 1);
	VSLb(vsl, SLT_BackendClose, "%d %s close %s", vbc->fd,
	    vbc->be->vcl_name, reason);
	be_close_fd(vbc);
	FREE_OBJ(vbc);
}

/*--------------------------------------------------------------------
 * backend.list and backend.set_health
 */

static const char * const be_admin_names[] = {
	[BE_ADMIN_AUTO] = "auto",
	[BE_ADMIN_HEALTHY] = "healthy",
	[BE_ADMIN_SICK] = "sick",
};

/*
 * Does a backend or director (its VCL.NAME) match a pattern?  With a dot
 * the glob is on VCL.NAME; without, on the names of the active VCL's
 * backends, as varnishd does.
 */
int
BACKEND_CliMatch(const char *display, const char *pat, const char *active)
{
	size_t l;

	if (pat == NULL)
		return (1);
	if (strchr(pat, '.') != NULL)
		return (fnmatch(pat, display, 0) == 0);
	if (active == NULL)
		return (0);
	l = strlen(active);
	return (!strncmp(display, active, l) && display[l] == '.' &&
	    fnmatch(pat, display + l + 1, 0) == 0);
}

static int
be_match(const struct backend *be, const char *pat, const char *active)
{

	return (BACKEND_CliMatch(be->display, pat, active));
}

/* The active VCL's name, copied into buf (NULL if none). */
static const char *
be_active(char *buf, size_t len)
{
	struct vcl *vcl;

	vcl = VCL_Ref();
	if (vcl == NULL)
		return (NULL);
	(void)snprintf(buf, len, "%s", VCL_Name(vcl));
	VCL_Rel(&vcl);
	return (buf);
}

static const char *
be_health(const struct backend *be)
{

	return (BACKEND_Healthy(be) ? "healthy" : "sick");
}

/*
 * The Admin column: as set, or (auto) "probe" when a probe decides, as
 * varnishd shows it, else what it is.
 */
static const char *
be_admin(const struct backend *be)
{
	unsigned a = __atomic_load_n(&be->admin, __ATOMIC_RELAXED);

	if (a != BE_ADMIN_AUTO)
		return (be_admin_names[a]);
	return (be->probe != NULL ? "probe" : be_health(be));
}

static vtim_real
be_t_change(struct backend *be)
{
	vtim_real t;

	LOCK_Lock(&be->mtx);
	t = be->t_change;
	LOCK_Unlock(&be->mtx);
	return (t);
}

vtim_real
BACKEND_Changed(struct backend *be)
{

	CHECK_OBJ(be, BACKEND_MAGIC);
	return (be_t_change(be));
}

/*
 * backend.list -j's "addresses" (ours; varnishd has none): where a fetch
 * would connect now, in the order tried, "ip:port" ("[ip]:port" for
 * IPv6, the path for a Unix socket); empty while the name does not
 * resolve.
 */
static void
be_list_addrs_json(FILE *out, struct backend *be)
{
	struct backend_addrs *a;
	unsigned u;
	char buf[96];
	int fam;

	a = BACKEND_AddrsRef(be);
	fprintf(out, "      \"addresses\": [");
	for (u = 0; u < a->n; u++) {
		fam = a->addr[u].sa.ss_family;
		if (fam == AF_UNIX)
			(void)snprintf(buf, sizeof buf, "%s", a->addr[u].ip);
		else
			(void)snprintf(buf, sizeof buf, fam == AF_INET6 ?
			    "[%s]:%s" : "%s:%s", a->addr[u].ip, be->port);
		fprintf(out, "%s", u ? ", " : "");
		CCLI_JsonStr(out, buf);
	}
	fprintf(out, "],\n");
	BACKEND_AddrsDeref(&a);
}

/* One backend in backend.list -j; with -p its probe's window. */
static void
be_list_json(FILE *out, struct backend *be, int details)
{

	CCLI_JsonStr(out, be->display);
	fprintf(out, ": {\n      \"type\": \"backend\",\n"
	    "      \"admin_health\": \"%s\",\n"
	    "      \"probe_message\": ", be_admin(be));
	if (be->probe != NULL)
		PROBE_Status(out, be->probe, 0, 1);
	else
		fprintf(out, "[0, 0, \"%s\"]", be_health(be));
	fprintf(out, ",\n");
	if (details) {
		fprintf(out, "      \"probe_details\": ");
		if (be->probe != NULL)
			PROBE_Status(out, be->probe, 1, 1);
		else
			fprintf(out, "{},\n");
	}
	be_list_addrs_json(out, be);
	fprintf(out, "      \"last_change\": %.3f\n    }", be_t_change(be));
}

/*
 * One backend in backend.list: the Probe column is the probe's "good/
 * window" and Health its verdict (backend.set_health shows in Admin);
 * with -p the window follows, each bitmap oldest first, as varnishd's.
 */
static void
be_list_text(FILE *out, struct backend *be, int details, size_t wn,
    size_t wa)
{
	char date[TIM_FORMAT_SIZE], probe[32];
	FILE *f;

	TIM_format(be_t_change(be), date);
	(void)snprintf(probe, sizeof probe, "0/0");
	if (be->probe != NULL && (f = fmemopen(probe, sizeof probe, "w")) !=
	    NULL) {
		PROBE_Status(f, be->probe, 0, 0);
		(void)fclose(f);
	}
	fprintf(out, "%-*s   %-*s   %-5s    %-7s    %s", (int)wn, be->display,
	    (int)wa, be_admin(be), probe, be->probe == NULL ? be_health(be) :
	    PROBE_Healthy(be->probe) ? "healthy" : "sick", date);
	if (details && be->probe != NULL) {
		PROBE_Status(out, be->probe, 1, 0);
		fputc('\n', out);
	}
	fputc('\n', out);
}

unsigned
BACKEND_CliList(FILE *out, int ac, char * const *av)
{
	const char *pat = NULL, *active;
	struct backend *be;
	char abuf[128];
	size_t wn = 12, wa = 5, l;
	int i, json = 0, details = 0, first = 1;

	for (i = 1; i < ac; i++) {
		if (!strcmp(av[i], "-j"))
			json = 1;
		else if (!strcmp(av[i], "-p"))
			details = !details;
		else if (pat == NULL)
			pat = av[i];
		else {
			fprintf(out, "Too many patterns: %s", av[i]);
			return (CLIS_TOOMANY);
		}
	}
	active = be_active(abuf, sizeof abuf);
	LOCK_Lock(&be_list_mtx);
	TAILQ_FOREACH(be, &be_list, list) {
		if (!be_match(be, pat, active))
			continue;
		if ((l = strlen(be->display)) > wn)
			wn = l;
		if ((l = strlen(be_admin(be))) > wa)
			wa = l;
	}
	/* Directors' rows follow, in the same table. */
	DIRECTOR_CliWidth(BACKEND_CliMatch, pat, active, &wn);
	if (json) {
		CCLI_JsonHead(out, 3, ac, av);
		fprintf(out, ",\n  {");
	} else
		fprintf(out, "%-*s   %-*s   %-5s    %-7s    %s\n", (int)wn,
		    "Backend name", (int)wa, "Admin", "Probe", "Health",
		    "Last change");
	TAILQ_FOREACH(be, &be_list, list) {
		if (!be_match(be, pat, active))
			continue;
		if (json) {
			fprintf(out, "%s\n    ", first ? "" : ",");
			be_list_json(out, be, details);
			first = 0;
		} else
			be_list_text(out, be, details, wn, wa);
	}
	LOCK_Unlock(&be_list_mtx);
	DIRECTOR_CliRows(out, BACKEND_CliMatch, pat, active, json, &first,
	    wn, wa);
	if (json)
		fprintf(out, "\n  }\n]\n");
	return (CLIS_OK);
}

unsigned
BACKEND_CliSetHealth(FILE *out, int ac, char * const *av)
{
	struct backend *be;
	const char *active;
	char abuf[128];
	unsigned a, n = 0;

	(void)ac;
	for (a = 0; a < 3; a++)
		if (!strcmp(av[2], be_admin_names[a]))
			break;
	if (a == 3) {
		fprintf(out, "Invalid state %s: auto, healthy or sick", av[2]);
		return (CLIS_PARAM);
	}
	active = be_active(abuf, sizeof abuf);
	LOCK_Lock(&be_list_mtx);
	TAILQ_FOREACH(be, &be_list, list) {
		if (!be_match(be, av[1], active))
			continue;
		if (__atomic_exchange_n(&be->admin, a, __ATOMIC_RELAXED) !=
		    a) {
			LOCK_Lock(&be->mtx);
			be->t_change = TIM_real();
			LOCK_Unlock(&be->mtx);
		}
		n++;
	}
	LOCK_Unlock(&be_list_mtx);
	if (n == 0) {
		fprintf(out, "No Backends matches %s", av[1]);
		return (CLIS_PARAM);
	}
	return (CLIS_OK);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_dynamic.c -- the dynamic module (include/vmod_std.h), with uplex's
 * libvmod-dynamic's interface: a director object whose .backend(host)
 * and .service(name) are directors ("domains") over backends made of a
 * name's addresses (A and AAAA) or SRV records, re-resolved in the
 * background every ttl by one thread, "cache-dynamic", never on a
 * request's path.  A fetch to a domain not yet looked up waits for the
 * first lookup up to first_lookup_timeout.  Members are real backends
 * (backend.c: counters, backend.list, probes), "d(ip:port)", shared by
 * the object's domains (share=HOST: per name, "d(name.ip:port)"); a
 * member leaving the answer is deleted once no domain lists it, and
 * freed with its last reference (a fetch's, a shard ring's).  A domain
 * unused for domain_usage_timeout drops its members and waits, idle,
 * for its next use; domains are freed with their object (a VCL value
 * may point at one until then).  Cold VCLs' names are not resolved.
 *
 * Locks, in the order taken: dyn_sub_mtx (subscriptions, held while
 * calling them), dyn_mtx (the objects, their domains, the thread's
 * schedule), an object's be_mtx (its member backends), a domain's mtx
 * (its member list, swapped whole); backend.c's and the shard's after
 * them.  None is held across a lookup.
 */

#include "config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <bsd/sys/queue.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "common/rnd.h"
#include "common/tim.h"
#include "cache/backend.h"
#include "cache/director.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vmod_dynamic.h"
#include "cache/vsc.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* More SRV records than this for one name are ignored. */
#define DYN_MAX_SRV		32

/* A member backend, shared by the domains of one object that list it. */
struct dyn_be {
	unsigned		magic;
#define DYN_BE_MAGIC		0x5e2b9a17
	char			*key;		/* const: [name.]ip:port */
	struct backend		*be;		/* const: the owner's ref */
	unsigned		users;		/* be_mtx: domains listing it */
	TAILQ_ENTRY(dyn_be)	list;		/* be_mtx */
};

/* One member of a domain. */
struct dyn_ref {
	struct dyn_be		*b;		/* one of b->users */
	unsigned		priority;	/* SRV; 0 for A/AAAA */
	unsigned		weight;
	char			ident[72];	/* "ip:port" */
};

struct dyn_domain {
	unsigned		magic;
#define DYN_DOMAIN_MAGIC	0x0c6e34f9
	struct vmod_dynamic_director *obj;	/* const */
	char			*name;		/* const: host or service */
	char			port[16];	/* const; "" for a service */
	unsigned		srv;		/* const: .service() */
	struct director		*dir;		/* const */
	struct lock		mtx;
	pthread_cond_t		cond;		/* mtx: looked_up went 1 */
	struct dyn_ref		*m;		/* mtx; swapped whole */
	unsigned		n;		/* mtx */
	unsigned		rr;		/* mtx: round robin */
	unsigned		looked_up;	/* mtx: a lookup ended */
	vtim_real		last_used;	/* mtx */
	vtim_real		due;		/* dyn_mtx */
	unsigned		busy;		/* dyn_mtx: the thread has it */
	unsigned		idle;		/* dyn_mtx: dropped, unused */
	unsigned		subs;		/* dyn_mtx: subscriptions */
	TAILQ_ENTRY(dyn_domain)	list;		/* dyn_mtx */
};

struct vmod_dynamic_director {
	unsigned		magic;
#define VMOD_DYNAMIC_DIRECTOR_MAGIC 0x7d41c0a3
	char			*vcl_name;	/* const */
	const struct vcl	*vcl;		/* const */
	char			port[16];	/* const: numeric */
	char			*host_header;	/* const; NULL: none */
	unsigned		share_host;	/* const */
	const struct vrt_backend_probe *probe;	/* const; NULL: none */
	vtim_dur		ttl;		/* const; < 0: the parameter */
	vtim_dur		retry_after;	/* const; < 0: ttl */
	vtim_dur		connect_timeout;	/* const; < 0: param */
	vtim_dur		first_byte_timeout;	/* const; < 0: param */
	vtim_dur		between_bytes_timeout;	/* const; < 0: param */
	vtim_dur		domain_usage_timeout;	/* const */
	vtim_dur		first_lookup_timeout;	/* const */
	unsigned		max_connections;	/* const */
	unsigned		proxy_header;	/* const */
	unsigned		max_names;	/* const */
	unsigned		n_names;	/* dyn_mtx: on domains */
	unsigned		debug;		/* atomic */
	unsigned		busy;		/* dyn_mtx: the thread's in */
	TAILQ_HEAD(, dyn_domain) domains;	/* dyn_mtx */
	struct lock		be_mtx;
	TAILQ_HEAD(, dyn_be)	bes;		/* be_mtx */
	TAILQ_ENTRY(vmod_dynamic_director) list;	/* dyn_mtx */
};

struct dynamic_sub {
	unsigned		magic;
#define DYNAMIC_SUB_MAGIC	0x33f1d86a
	struct dyn_domain	*dom;	/* dyn_sub_mtx; NULL: its object ended */
	dynamic_changed_f	*changed;	/* const */
	void			*priv;		/* const */
	TAILQ_ENTRY(dynamic_sub) list;		/* dyn_sub_mtx */
};

static struct lock dyn_sub_mtx = LOCK_INITIALIZER;
static TAILQ_HEAD(, dynamic_sub) dyn_subs = TAILQ_HEAD_INITIALIZER(dyn_subs);
static struct lock dyn_mtx = LOCK_INITIALIZER;
static TAILQ_HEAD(, vmod_dynamic_director) dyn_list =
    TAILQ_HEAD_INITIALIZER(dyn_list);
/* dyn_mtx: the thread's wake-up (a new domain) and its busy ending. */
static pthread_cond_t dyn_cond = PTHREAD_COND_INITIALIZER;
static pthread_cond_t dyn_busy_cond = PTHREAD_COND_INITIALIZER;

static void dyn_log(const struct vmod_dynamic_director *obj,
    enum VSL_tag_e tag, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * "vmod-dynamic: VCL DIRECTOR NAME EVENT [info]", libvmod-dynamic's
 * pattern, so that `varnishlog -g raw -q '* ~ vmod-dynamic'` carries
 * over; vxid 0 (background work).
 */
static void
dyn_log(const struct vmod_dynamic_director *obj, enum VSL_tag_e tag,
    const char *name, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	VSL(tag, 0, "vmod-dynamic: %s %s %s %s", VCL_Name(obj->vcl),
	    obj->vcl_name, name, buf);
}

#define DYN_DEBUG(obj, name, ...) do {					\
	if (__atomic_load_n(&(obj)->debug, __ATOMIC_RELAXED))		\
		dyn_log(obj, SLT_Debug, name, __VA_ARGS__);		\
} while (0)

/* member backends ---------------------------------------------------------*/

/* A new member backend for ip:port, named obj(key); NULL if it failed. */
static struct backend *
dyn_be_new(const struct vmod_dynamic_director *obj, const char *key,
    const char *ip, const char *port, const char *hosthdr)
{
	struct vrt_endpoint ep;
	struct vrt_backend vrt;
	struct backend *be;
	char name[640], err[256];

	(void)snprintf(name, sizeof name, "%s(%s)", obj->vcl_name, key);
	INIT_OBJ(&ep, VRT_ENDPOINT_MAGIC);
	ep.host = ip;
	ep.port = port;
	INIT_OBJ(&vrt, VRT_BACKEND_MAGIC);
	vrt.vcl_name = name;
	vrt.endpoint = &ep;
	vrt.hosthdr = hosthdr;
	vrt.connect_timeout = obj->connect_timeout;
	vrt.first_byte_timeout = obj->first_byte_timeout;
	vrt.between_bytes_timeout = obj->between_bytes_timeout;
	vrt.max_connections = obj->max_connections;
	vrt.proxy_header = obj->proxy_header;
	vrt.probe = obj->probe;
	be = BACKEND_New(&vrt, VCL_Name(obj->vcl), err, sizeof err);
	if (be == NULL)
		dyn_log(obj, SLT_Error, key, "backend failed (%s)", err);
	return (be);
}

/* The member for key, one more user; made if need be.  NULL: failed. */
static struct dyn_be *
dyn_be_get(struct vmod_dynamic_director *obj, const char *key,
    const char *ip, const char *port, const char *hosthdr, int *made)
{
	struct dyn_be *b;

	*made = 0;
	LOCK_Lock(&obj->be_mtx);
	TAILQ_FOREACH(b, &obj->bes, list)
		if (!strcmp(b->key, key))
			break;
	if (b == NULL) {
		ALLOC_OBJ(b, DYN_BE_MAGIC);
		if (b != NULL && (b->key = strdup(key)) == NULL)
			FREE_OBJ(b);
		if (b != NULL &&
		    (b->be = dyn_be_new(obj, key, ip, port, hosthdr)) == NULL) {
			free(b->key);
			FREE_OBJ(b);
		}
		if (b != NULL) {
			TAILQ_INSERT_TAIL(&obj->bes, b, list);
			*made = 1;
		}
	}
	if (b != NULL)
		b->users++;
	LOCK_Unlock(&obj->be_mtx);
	if (*made)
		BACKEND_SetWarmOne(b->be, obj->vcl);
	return (b);
}

/* A domain lets go of its members; the last user deletes each. */
static void
dyn_refs_free(struct vmod_dynamic_director *obj, struct dyn_ref **mp,
    unsigned n)
{
	struct dyn_ref *m = *mp;
	struct dyn_be *b;
	unsigned u;

	*mp = NULL;
	for (u = 0; u < n; u++) {
		b = m[u].b;
		CHECK_OBJ(b, DYN_BE_MAGIC);
		LOCK_Lock(&obj->be_mtx);
		assert(b->users > 0);
		if (--b->users > 0)
			b = NULL;
		else
			TAILQ_REMOVE(&obj->bes, b, list);
		LOCK_Unlock(&obj->be_mtx);
		if (b == NULL)
			continue;
		DYN_DEBUG(obj, b->key, "%s", "delete-backend");
		/* Off backend.list now; freed when no fetch holds it. */
		BACKEND_Delete(&b->be);
		free(b->key);
		FREE_OBJ(b);
	}
	free(m);
}

/* lookups -----------------------------------------------------------------*/

/* The addresses of host:port appended to m (room for max), as members. */
static unsigned
dyn_add_addrs(struct dyn_domain *dom, const char *host, const char *port,
    unsigned priority, unsigned weight, struct dyn_ref *m, unsigned n,
    unsigned max, char *why, size_t whylen)
{
	struct vmod_dynamic_director *obj = dom->obj;
	struct backend_addrs *a;
	const char *hosthdr;
	char key[340];
	unsigned u;
	int numeric, made;

	a = DNS_Resolve(host, port, &numeric, why, whylen);
	if (a == NULL)
		return (n);
	hosthdr = obj->host_header != NULL ? obj->host_header :
	    obj->share_host && !dom->srv ? dom->name : NULL;
	for (u = 0; u < a->n && n < max; u++) {
		(void)snprintf(m[n].ident, sizeof m[n].ident,
		    a->addr[u].sa.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s",
		    a->addr[u].ip, port);
		(void)snprintf(key, sizeof key, "%s%s%s", obj->share_host ?
		    dom->name : "", obj->share_host ? "." : "", m[n].ident);
		m[n].b = dyn_be_get(obj, key, a->addr[u].ip, port, hosthdr,
		    &made);
		if (m[n].b == NULL)
			continue;
		if (made)
			DYN_DEBUG(obj, key, "%s", "add-backend");
		m[n].priority = priority;
		m[n].weight = weight;
		n++;
	}
	BACKEND_AddrsDeref(&a);
	return (n);
}

/*
 * The domain's members now, or NULL with why (*np 0) when the name
 * does not resolve or memory ran out.
 */
static struct dyn_ref *
dyn_resolve(struct dyn_domain *dom, unsigned *np, char *why, size_t whylen)
{
	struct dns_srv *srv = NULL;
	struct dyn_ref *m;
	char port[8];
	unsigned max, u;
	int nsrv = 1;

	*np = 0;
	if (dom->srv) {
		srv = calloc(DYN_MAX_SRV, sizeof *srv);
		if (srv == NULL)
			return (NULL);
		nsrv = DNS_ResolveSrv(dom->name, srv, DYN_MAX_SRV, why,
		    whylen);
		if (nsrv <= 0) {
			free(srv);
			return (NULL);
		}
	}
	/* backend_dns.c keeps at most 32 addresses a name. */
	max = (unsigned)nsrv * 32;
	m = calloc(max, sizeof *m);
	if (m == NULL) {
		free(srv);
		return (NULL);
	}
	if (!dom->srv)
		*np = dyn_add_addrs(dom, dom->name, dom->port, 0, 0, m, 0,
		    max, why, whylen);
	for (u = 0; dom->srv && u < (unsigned)nsrv; u++) {
		(void)snprintf(port, sizeof port, "%u", srv[u].port);
		*np = dyn_add_addrs(dom, srv[u].target, port,
		    srv[u].priority, srv[u].weight, m, *np, max, why, whylen);
	}
	free(srv);
	if (*np > 0)
		return (m);
	free(m);
	if (*why == '\0')
		(void)snprintf(why, whylen, "no usable address");
	return (NULL);
}

static int
dyn_refs_same(const struct dyn_ref *a, unsigned na, const struct dyn_ref *b,
    unsigned nb)
{
	unsigned u;

	if (na != nb)
		return (0);
	for (u = 0; u < na; u++)
		if (a[u].b != b[u].b || a[u].priority != b[u].priority ||
		    a[u].weight != b[u].weight)
			return (0);
	return (1);
}

/* Tell the domain's subscribers (the thread; no lock held). */
static void
dyn_notify(const struct dyn_domain *dom)
{
	struct dynamic_sub *sub;

	LOCK_Lock(&dyn_sub_mtx);
	TAILQ_FOREACH(sub, &dyn_subs, list)
		if (sub->dom == dom)
			sub->changed(sub->priv);
	LOCK_Unlock(&dyn_sub_mtx);
}

/*
 * Swap in m (n of them; NULL to drop all), waking first-lookup waiters.
 * Returns whether the members changed.
 */
static int
dyn_install(struct dyn_domain *dom, struct dyn_ref *m, unsigned n)
{
	struct dyn_ref *old;
	unsigned nold;
	int same;

	LOCK_Lock(&dom->mtx);
	same = dyn_refs_same(dom->m, dom->n, m, n);
	old = dom->m;
	nold = dom->n;
	dom->m = m;
	dom->n = n;
	dom->looked_up = m != NULL;
	ASSERT_ZERO(pthread_cond_broadcast(&dom->cond));
	LOCK_Unlock(&dom->mtx);
	if (old != NULL)
		dyn_refs_free(dom->obj, &old, nold);
	return (!same);
}

/* One round for a domain: look it up (or drop it); when it is next due. */
static vtim_dur
dyn_lookup(struct dyn_domain *dom, int drop)
{
	struct vmod_dynamic_director *obj = dom->obj;
	struct dyn_ref *m;
	char why[160];
	unsigned n, had;
	vtim_dur ttl;

	ttl = obj->ttl >= 0 ? obj->ttl : cache_param->backend_dns_ttl;
	if (drop) {
		dyn_log(obj, SLT_Debug, dom->dir->vcl_name, "timeout "
		    "(unused for %.0f s): members dropped",
		    obj->domain_usage_timeout);
		if (dyn_install(dom, NULL, 0))
			dyn_notify(dom);
		return (ttl);
	}
	why[0] = '\0';
	DYN_DEBUG(obj, dom->dir->vcl_name, "%s", "lookup");
	m = dyn_resolve(dom, &n, why, sizeof why);
	if (m == NULL) {
		/*
		 * libvmod-dynamic's rule: a failed lookup leaves the members
		 * as they are; a first one wakes its waiters (to a 503).
		 */
		LOCK_Lock(&dom->mtx);
		had = dom->n;
		if (!dom->looked_up) {
			dom->looked_up = 1;
			ASSERT_ZERO(pthread_cond_broadcast(&dom->cond));
		}
		LOCK_Unlock(&dom->mtx);
		dyn_log(obj, SLT_Error, dom->dir->vcl_name, "lookup failed "
		    "(%s); %s", why, had > 0 ? "members kept" : "no members");
		return (obj->retry_after >= 0 ? obj->retry_after : ttl);
	}
	if (dyn_install(dom, m, n)) {
		dyn_log(obj, SLT_Debug, dom->dir->vcl_name, "update: %u "
		    "member%s", n, n == 1 ? "" : "s");
		dyn_notify(dom);
	}
	return (ttl);
}

/* the thread --------------------------------------------------------------*/

/*
 * The first domain of a warm VCL's object due for a lookup or to be
 * dropped (*drop), marked busy, or NULL and when the next is due.
 */
static struct dyn_domain *
dyn_due_locked(vtim_real now, vtim_real *next, int *drop)
{
	struct vmod_dynamic_director *obj;
	struct dyn_domain *dom;
	vtim_real used;

	LOCK_AssertHeld(&dyn_mtx);
	TAILQ_FOREACH(obj, &dyn_list, list) {
		if (!VCL_IsWarm(obj->vcl))
			continue;
		TAILQ_FOREACH(dom, &obj->domains, list) {
			if (dom->busy || dom->idle)
				continue;
			LOCK_Lock(&dom->mtx);
			used = dom->last_used;
			LOCK_Unlock(&dom->mtx);
			*drop = dom->subs == 0 &&
			    now - used > obj->domain_usage_timeout;
			if (*drop || dom->due <= now) {
				dom->busy = 1;
				obj->busy++;
				return (dom);
			}
			if (dom->due < *next)
				*next = dom->due;
		}
	}
	return (NULL);
}

static void *
dyn_thread(void *arg)
{
	struct dyn_domain *dom;
	struct timespec ts;
	vtim_real now, next;
	vtim_dur again;
	int drop;

	(void)arg;
	(void)pthread_setname_np(pthread_self(), "cache-dynamic");
	LOCK_Lock(&dyn_mtx);
	for (;;) {
		now = TIM_real();
		/*
		 * Ten times a second at least: a VCL warming needs no call,
		 * and a shard following a name (which has no first-lookup
		 * wait) gets its members within 0.1 s of the VCL's start.
		 * A round walks the objects' names: cheap.
		 */
		next = now + 0.1;
		dom = dyn_due_locked(now, &next, &drop);
		if (dom == NULL) {
			ts = TIM_timespec(next);
			(void)LOCK_TimedWait(&dyn_cond, &dyn_mtx, &ts);
			continue;
		}
		LOCK_Unlock(&dyn_mtx);
		/* Blocks for as long as the resolver takes; only us. */
		again = dyn_lookup(dom, drop);
		LOCK_Lock(&dyn_mtx);
		dom->busy = 0;
		dom->idle = drop;
		dom->due = TIM_real() + again;
		if (drop) {
			/* Used again while we dropped it: look it up. */
			LOCK_Lock(&dom->mtx);
			if (TIM_real() - dom->last_used <=
			    dom->obj->domain_usage_timeout) {
				dom->idle = 0;
				dom->due = 0;
			}
			LOCK_Unlock(&dom->mtx);
		}
		dom->obj->busy--;
		ASSERT_ZERO(pthread_cond_broadcast(&dyn_busy_cond));
	}
	NEEDLESS(return (NULL));
}

static void
dyn_start_thread(void)
{
	pthread_t thr;

	ASSERT_ZERO(pthread_create(&thr, NULL, dyn_thread, NULL));
	ASSERT_ZERO(pthread_detach(thr));
}

/* domains -----------------------------------------------------------------*/

static struct dyn_domain *
dyn_domain_of(const struct director *d)
{
	struct dyn_domain *dom;

	CHECK_OBJ(d, DIRECTOR_MAGIC);
	CAST_OBJ_NOTNULL(dom, d->priv, DYN_DOMAIN_MAGIC);
	return (dom);
}

/* The index of a member to use, or -1; dom->mtx held. */
static int
dyn_pick_locked(struct dyn_domain *dom)
{
	unsigned u, k, lo, hi, idx[64], w[64];

	LOCK_AssertHeld(&dom->mtx);
	if (!dom->srv) {
		for (u = 0; u < dom->n; u++) {
			k = (dom->rr + u) % dom->n;
			if (BACKEND_Healthy(dom->m[k].b->be)) {
				dom->rr = k + 1;
				return ((int)k);
			}
		}
		return (-1);
	}
	/* Sorted by priority: the first group with a healthy member. */
	for (lo = 0; lo < dom->n; lo = hi) {
		for (hi = lo; hi < dom->n &&
		    dom->m[hi].priority == dom->m[lo].priority; hi++)
			continue;
		for (k = 0, u = lo; u < hi && k < 64; u++)
			if (BACKEND_Healthy(dom->m[u].b->be)) {
				idx[k] = u;
				w[k++] = dom->m[u].weight;
			}
		if (k > 0)
			return ((int)idx[DNS_SrvPick(w, k,
			    (uint32_t)RND_RandomTestable() << 1)]);
	}
	return (-1);
}

static const struct director *
dyn_resolve_dir(VRT_CTX, const struct director *d)
{
	struct dyn_domain *dom;
	struct backend *be = NULL;
	const struct director *r;
	struct timespec ts;
	int i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	dom = dyn_domain_of(d);
	LOCK_Lock(&dom->mtx);
	dom->last_used = TIM_real();
	if (!dom->looked_up) {
		/* The first lookup: bounded, then a 503. */
		ts = TIM_timespec(dom->last_used +
		    dom->obj->first_lookup_timeout);
		while (!dom->looked_up &&
		    LOCK_TimedWait(&dom->cond, &dom->mtx, &ts) == 0)
			continue;
		if (!dom->looked_up)
			VSLb(ctx->vsl, SLT_FetchError, "vmod-dynamic: %s: "
			    "first lookup not done within "
			    "first_lookup_timeout (%.3f s)", d->vcl_name,
			    dom->obj->first_lookup_timeout);
	}
	i = dyn_pick_locked(dom);
	if (i >= 0)
		be = BACKEND_Ref(dom->m[i].b->be);
	LOCK_Unlock(&dom->mtx);
	if (be == NULL)
		return (NULL);
	r = BACKEND_Director(be);
	/* Our reference becomes the fetch's. */
	DIRECTOR_HandRef(&be);
	return (r);
}

static void
dyn_count(const struct director *d, unsigned *healthy, unsigned *total)
{
	struct dyn_domain *dom;
	unsigned u, h = 0;

	dom = dyn_domain_of(d);
	LOCK_Lock(&dom->mtx);
	for (u = 0; u < dom->n; u++)
		h += BACKEND_Healthy(dom->m[u].b->be) != 0;
	*total = dom->n;
	LOCK_Unlock(&dom->mtx);
	*healthy = h;
}

static unsigned
dyn_healthy(const struct director *d)
{
	unsigned h, n;

	dyn_count(d, &h, &n);
	return (h > 0);
}

static const struct director_methods dyn_methods[1] = {{
	.magic = DIRECTOR_METHODS_MAGIC,
	.type = "dynamic",
	.resolve = dyn_resolve_dir,
	.healthy = dyn_healthy,
	.count = dyn_count,
}};

/* A new domain (dyn_mtx held); NULL with ctx failed. */
static struct dyn_domain *
dyn_domain_new_locked(VRT_CTX, struct vmod_dynamic_director *obj,
    const char *name, const char *port, unsigned srv)
{
	struct dyn_domain *dom;
	char dname[300];

	LOCK_AssertHeld(&dyn_mtx);
	ALLOC_OBJ(dom, DYN_DOMAIN_MAGIC);
	if (dom == NULL || (dom->name = strdup(name)) == NULL) {
		if (dom != NULL)
			FREE_OBJ(dom);
		VRT_fail(ctx, "vmod-dynamic: %s: out of memory",
		    obj->vcl_name);
		return (NULL);
	}
	dom->obj = obj;
	dom->srv = srv;
	(void)snprintf(dom->port, sizeof dom->port, "%s", port);
	if (srv)
		(void)snprintf(dname, sizeof dname, "%s(%s)", obj->vcl_name,
		    name);
	else
		(void)snprintf(dname, sizeof dname, "%s(%s:%s)",
		    obj->vcl_name, name, port);
	dom->dir = DIRECTOR_New(ctx, dyn_methods, dom, dname);
	if (dom->dir == NULL) {
		free(dom->name);
		FREE_OBJ(dom);
		return (NULL);
	}
	LOCK_Init(&dom->mtx);
	ASSERT_ZERO(pthread_cond_init(&dom->cond, NULL));
	TAILQ_INSERT_TAIL(&obj->domains, dom, list);
	return (dom);
}

/* The domain for name (found or made), marked used; NULL: ctx failed. */
static const struct director *
dyn_domain_get(VRT_CTX, struct vmod_dynamic_director *obj,
    const char *name, const char *port, unsigned srv)
{
	struct dyn_domain *dom;
	int wake = 0;

	LOCK_Lock(&dyn_mtx);
	TAILQ_FOREACH(dom, &obj->domains, list)
		if (dom->srv == srv && !strcasecmp(dom->name, name) &&
		    !strcmp(dom->port, port))
			break;
	if (dom == NULL && obj->n_names >= obj->max_names) {
		/* Names stay till the VCL goes: a hostile Host is bounded. */
		LOCK_Unlock(&dyn_mtx);
		VSC_Add(dynamic_names_refused, 1);
		VSLb(ctx->vsl, SLT_Error, "vmod-dynamic: %s %s: \"%s\" refused: "
		    "already following max_names (%u) names",
		    VCL_Name(obj->vcl), obj->vcl_name, name, obj->max_names);
		return (NULL);
	}
	if (dom == NULL) {
		dom = dyn_domain_new_locked(ctx, obj, name, port, srv);
		wake = dom != NULL;
		if (dom != NULL) {
			dom->due = 0;	/* now */
			obj->n_names++;
		}
	} else if (dom->idle && !dom->busy) {
		dom->idle = 0;
		dom->due = 0;
		wake = 1;
	}
	if (dom != NULL) {
		LOCK_Lock(&dom->mtx);
		dom->last_used = TIM_real();
		LOCK_Unlock(&dom->mtx);
	}
	if (wake)
		ASSERT_ZERO(pthread_cond_signal(&dyn_cond));
	LOCK_Unlock(&dyn_mtx);
	return (dom != NULL ? dom->dir : NULL);
}

/* the object --------------------------------------------------------------*/

/* A port by number or service name (as /etc/services has it), or -1. */
static int
dyn_port(const char *s, char *buf, size_t len)
{
	struct servent se, *r = NULL;
	char tmp[1024], *end;
	long l;

	if (*s == '\0')
		return (-1);
	l = strtol(s, &end, 10);
	if (*end == '\0' && l > 0 && l < 65536) {
		(void)snprintf(buf, len, "%ld", l);
		return (0);
	}
	if (getservbyname_r(s, "tcp", &se, tmp, sizeof tmp, &r) != 0 ||
	    r == NULL)
		return (-1);
	(void)snprintf(buf, len, "%d", ntohs((uint16_t)r->s_port));
	return (0);
}

/* What libvmod-dynamic has and we do not: a VCL error at vcl_init. */
static int
dyn_refused(VRT_CTX, const char *vcl_name, VCL_BOOL valid_whitelist,
    VCL_BOOL valid_resolver, VCL_ENUM ttl_from, VCL_BOOL valid_via,
    VCL_BOOL valid_authority)
{
	const char *what = NULL;

	if (valid_whitelist)
		what = "whitelist (restrict the addresses in DNS instead)";
	else if (valid_resolver)
		what = "resolver (getdns); the system resolver is used, and "
		    "SRV records through res_nquery(3)";
	else if (strcmp(ttl_from, "cfg"))
		what = "ttl_from other than cfg (the resolver gives no TTL; "
		    "set ttl)";
	else if (valid_via || valid_authority)
		what = "via and authority (no TLS onloader support)";
	if (what == NULL)
		return (0);
	VRT_fail(ctx, "dynamic.director %s: %s is not supported by Veneer",
	    vcl_name, what);
	return (1);
}

VCL_VOID
vmod_dynamic_director__init(VRT_CTX, struct vmod_dynamic_director **op,
    const char *vcl_name, VCL_STRING port, VCL_STRING host_header,
    VCL_ENUM share, VCL_BOOL valid_probe, VCL_PROBE probe,
    VCL_BOOL valid_whitelist, VCL_STRING whitelist, VCL_BOOL valid_ttl,
    VCL_DURATION ttl, VCL_DURATION connect_timeout,
    VCL_DURATION first_byte_timeout, VCL_DURATION between_bytes_timeout,
    VCL_DURATION domain_usage_timeout, VCL_DURATION first_lookup_timeout,
    VCL_INT max_connections, VCL_INT proxy_header, VCL_BOOL valid_resolver,
    VCL_BLOB resolver, VCL_ENUM ttl_from, VCL_BOOL valid_retry_after,
    VCL_DURATION retry_after, VCL_BOOL valid_via, VCL_BACKEND via,
    VCL_BOOL valid_keep, VCL_INT keep, VCL_BOOL valid_authority,
    VCL_STRING authority, VCL_BOOL valid_wait_timeout,
    VCL_DURATION wait_timeout, VCL_BOOL valid_wait_limit, VCL_INT wait_limit,
    VCL_INT max_names)
{
	struct vmod_dynamic_director *obj;
	char pbuf[16];
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(op != NULL);
	assert(*op == NULL);
	/* Accepted and documented as without effect here. */
	(void)whitelist; (void)resolver; (void)via; (void)authority;
	(void)valid_keep; (void)keep; (void)valid_wait_timeout;
	(void)wait_timeout; (void)valid_wait_limit; (void)wait_limit;
	if (dyn_refused(ctx, vcl_name, valid_whitelist, valid_resolver,
	    ttl_from, valid_via, valid_authority))
		return;
	if (dyn_port(port != NULL ? port : "", pbuf, sizeof pbuf) != 0) {
		VRT_fail(ctx, "dynamic.director %s: port \"%s\" is neither a "
		    "number (1-65535) nor a service in /etc/services",
		    vcl_name, port != NULL ? port : "");
		return;
	}
	if (proxy_header < 0 || proxy_header > 2 || max_connections < 0) {
		VRT_fail(ctx, "dynamic.director %s: proxy_header must be 0, "
		    "1 or 2 and max_connections not negative", vcl_name);
		return;
	}
	if (max_names < 1 || max_names > 1000000) {
		VRT_fail(ctx, "dynamic.director %s: max_names must be 1 to "
		    "1000000", vcl_name);
		return;
	}
	if ((valid_ttl && ttl <= 0) || domain_usage_timeout <= 0 ||
	    first_lookup_timeout < 0) {
		VRT_fail(ctx, "dynamic.director %s: ttl and "
		    "domain_usage_timeout must be positive, "
		    "first_lookup_timeout not negative", vcl_name);
		return;
	}
	ALLOC_OBJ(obj, VMOD_DYNAMIC_DIRECTOR_MAGIC);
	if (obj == NULL || (obj->vcl_name = strdup(vcl_name)) == NULL ||
	    (host_header != NULL && *host_header != '\0' &&
	    (obj->host_header = strdup(host_header)) == NULL)) {
		if (obj != NULL) {
			free(obj->vcl_name);
			FREE_OBJ(obj);
		}
		VRT_fail(ctx, "dynamic.director %s: out of memory", vcl_name);
		return;
	}
	obj->vcl = ctx->vcl;
	(void)snprintf(obj->port, sizeof obj->port, "%s", pbuf);
	obj->share_host = !strcmp(share, "HOST");
	obj->probe = valid_probe ? probe : NULL;
	obj->ttl = valid_ttl ? ttl : -1;
	obj->retry_after = valid_retry_after && retry_after > 0 ?
	    retry_after : -1;
	/* libvmod-dynamic's 0: the parameter, as backend.c's < 0. */
	obj->connect_timeout = connect_timeout > 0 ? connect_timeout : -1;
	obj->first_byte_timeout = first_byte_timeout > 0 ?
	    first_byte_timeout : -1;
	obj->between_bytes_timeout = between_bytes_timeout > 0 ?
	    between_bytes_timeout : -1;
	obj->domain_usage_timeout = domain_usage_timeout;
	obj->first_lookup_timeout = first_lookup_timeout;
	obj->max_connections = (unsigned)max_connections;
	obj->proxy_header = (unsigned)proxy_header;
	obj->max_names = (unsigned)max_names;
	TAILQ_INIT(&obj->domains);
	TAILQ_INIT(&obj->bes);
	LOCK_Init(&obj->be_mtx);
	LOCK_Lock(&dyn_mtx);
	TAILQ_INSERT_TAIL(&dyn_list, obj, list);
	LOCK_Unlock(&dyn_mtx);
	ASSERT_ZERO(pthread_once(&once, dyn_start_thread));
	*op = obj;
}

VCL_VOID
vmod_dynamic_director__fini(struct vmod_dynamic_director **op)
{
	struct vmod_dynamic_director *obj;
	struct dyn_domain *dom, *dom2;
	struct dynamic_sub *sub;

	TAKE_OBJ_NOTNULL(obj, op, VMOD_DYNAMIC_DIRECTOR_MAGIC);
	LOCK_Lock(&dyn_mtx);
	TAILQ_REMOVE(&dyn_list, obj, list);
	/* The thread may be in a lookup of ours: at most its time. */
	while (obj->busy > 0)
		LOCK_Wait(&dyn_busy_cond, &dyn_mtx);
	LOCK_Unlock(&dyn_mtx);
	LOCK_Lock(&dyn_sub_mtx);
	TAILQ_FOREACH(sub, &dyn_subs, list)
		if (sub->dom != NULL && sub->dom->obj == obj)
			sub->dom = NULL;
	LOCK_Unlock(&dyn_sub_mtx);
	TAILQ_FOREACH_SAFE(dom, &obj->domains, list, dom2) {
		TAILQ_REMOVE(&obj->domains, dom, list);
		if (dom->m != NULL)
			dyn_refs_free(obj, &dom->m, dom->n);
		DIRECTOR_Free(&dom->dir);
		ASSERT_ZERO(pthread_cond_destroy(&dom->cond));
		LOCK_Fini(&dom->mtx);
		free(dom->name);
		FREE_OBJ(dom);
	}
	assert(TAILQ_EMPTY(&obj->bes));
	LOCK_Fini(&obj->be_mtx);
	free(obj->host_header);
	free(obj->vcl_name);
	FREE_OBJ(obj);
}

/* The request's Host, without its port, on ctx->ws; NULL if none. */
static const char *
dyn_host_of(VRT_CTX)
{
	const struct http *hp = NULL;
	struct txt t;
	const char *e;

	if (ctx->bo != NULL)
		hp = ctx->bo->bereq;
	else if (ctx->req != NULL)
		hp = ctx->req->http;
	if (hp == NULL || !HTTP_GetHdr(hp, "Host", &t) || t.b == t.e)
		return (NULL);
	e = t.e;
	if (*t.b != '[') {
		/* host:port; an IPv6 literal comes bracketed. */
		e = memchr(t.b, ':', (size_t)(t.e - t.b));
		if (e == NULL)
			e = t.e;
	}
	return (WS_Printf(ctx->ws, "%.*s", (int)(e - t.b), t.b));
}

VCL_BACKEND
vmod_dynamic_director_backend(VRT_CTX, struct vmod_dynamic_director *obj,
    VCL_STRING host, VCL_STRING port, VCL_STRING authority)
{
	char pbuf[16];

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(obj, VMOD_DYNAMIC_DIRECTOR_MAGIC);
	(void)authority;	/* only with via, which is refused */
	if (host == NULL || *host == '\0')
		host = dyn_host_of(ctx);
	if (host == NULL || *host == '\0') {
		VSLb(ctx->vsl, SLT_Error, "vmod-dynamic: %s %s: no host "
		    "given and the request has no Host header",
		    VCL_Name(obj->vcl), obj->vcl_name);
		return (NULL);
	}
	if (port == NULL || *port == '\0')
		(void)snprintf(pbuf, sizeof pbuf, "%s", obj->port);
	else if (dyn_port(port, pbuf, sizeof pbuf) != 0) {
		VSLb(ctx->vsl, SLT_Error, "vmod-dynamic: %s %s: port \"%s\" "
		    "is neither a number nor a known service",
		    VCL_Name(obj->vcl), obj->vcl_name, port);
		return (NULL);
	}
	return (dyn_domain_get(ctx, obj, host, pbuf, 0));
}

VCL_BACKEND
vmod_dynamic_director_service(VRT_CTX, struct vmod_dynamic_director *obj,
    VCL_STRING service)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(obj, VMOD_DYNAMIC_DIRECTOR_MAGIC);
	if (service == NULL || *service == '\0') {
		VSLb(ctx->vsl, SLT_Error, "vmod-dynamic: %s %s: .service() "
		    "needs a name (_http._tcp.example.com)",
		    VCL_Name(obj->vcl), obj->vcl_name);
		return (NULL);
	}
	return (dyn_domain_get(ctx, obj, service, "", 1));
}

VCL_VOID
vmod_dynamic_director_debug(VRT_CTX, struct vmod_dynamic_director *obj,
    VCL_BOOL enable)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	CHECK_OBJ(obj, VMOD_DYNAMIC_DIRECTOR_MAGIC);
	__atomic_store_n(&obj->debug, enable ? 1U : 0U, __ATOMIC_RELAXED);
}

/* for other directors (vmod_dynamic.h) ------------------------------------*/

int
DYNAMIC_Is(const struct director *d)
{

	return (d != NULL && d->methods == dyn_methods);
}

struct dynamic_member *
DYNAMIC_Members(const struct director *d, unsigned *n)
{
	struct dyn_domain *dom;
	struct dynamic_member *m;
	unsigned u;

	assert(DYNAMIC_Is(d));
	dom = dyn_domain_of(d);
	*n = 0;
	LOCK_Lock(&dom->mtx);
	m = dom->n > 0 ? calloc(dom->n, sizeof *m) : NULL;
	for (u = 0; m != NULL && u < dom->n; u++) {
		m[u].be = BACKEND_Ref(dom->m[u].b->be);
		(void)snprintf(m[u].ident, sizeof m[u].ident, "%s",
		    dom->m[u].ident);
	}
	if (m != NULL)
		*n = dom->n;
	LOCK_Unlock(&dom->mtx);
	return (m);
}

struct dynamic_sub *
DYNAMIC_Subscribe(const struct director *d, dynamic_changed_f *changed,
    void *priv)
{
	struct dynamic_sub *sub;
	struct dyn_domain *dom;

	assert(DYNAMIC_Is(d));
	dom = dyn_domain_of(d);
	ALLOC_OBJ(sub, DYNAMIC_SUB_MAGIC);
	if (sub == NULL)
		return (NULL);
	sub->dom = dom;
	sub->changed = changed;
	sub->priv = priv;
	LOCK_Lock(&dyn_sub_mtx);
	TAILQ_INSERT_TAIL(&dyn_subs, sub, list);
	LOCK_Lock(&dyn_mtx);
	dom->subs++;
	/* Dropped for want of use before: look it up again. */
	if (dom->idle && !dom->busy) {
		dom->idle = 0;
		dom->due = 0;
		ASSERT_ZERO(pthread_cond_signal(&dyn_cond));
	}
	LOCK_Unlock(&dyn_mtx);
	LOCK_Unlock(&dyn_sub_mtx);
	return (sub);
}

void
DYNAMIC_Unsubscribe(struct dynamic_sub **subp)
{
	struct dynamic_sub *sub;

	TAKE_OBJ_NOTNULL(sub, subp, DYNAMIC_SUB_MAGIC);
	LOCK_Lock(&dyn_sub_mtx);
	TAILQ_REMOVE(&dyn_subs, sub, list);
	if (sub->dom != NULL) {
		LOCK_Lock(&dyn_mtx);
		assert(sub->dom->subs > 0);
		sub->dom->subs--;
		LOCK_Unlock(&dyn_mtx);
	}
	LOCK_Unlock(&dyn_sub_mtx);
	FREE_OBJ(sub);
}

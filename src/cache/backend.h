/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend.h -- backends and their connection pools.  A backend keeps idle
 * connections for reuse (most recently used first) and closes those idle
 * longer than backend_idle_timeout.  A .host name's addresses follow DNS
 * (backend_dns.c): the list is swapped whole, readers hold a reference.
 */

#ifndef VENEER_CACHE_BACKEND_H
#define VENEER_CACHE_BACKEND_H

#include <bsd/sys/queue.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "common/tim.h"
#include "cache/director.h"
#include "vrt.h"

struct backend;
struct vsl_log;
struct worker;

/* A backend connection; owned by one fetch, or by the idle pool. */
struct vbc {
	unsigned		magic;
#define VBC_MAGIC		0x52506a43
	int			fd;
	struct backend		*be;
	vtim_mono		t_idle;		/* be->mtx while idle */
	TAILQ_ENTRY(vbc)	list;		/* be->mtx while idle */
	struct sockaddr_storage	sa;		/* const: the address used */
	socklen_t		salen;		/* const */
	char			raddr[64];	/* const: sa, as text */
	char			laddr[64];
	char			lport[8];
};

/*
 * A backend's addresses: all of its .host name's (A and AAAA, in
 * getaddrinfo's order, or as VENEER_HOSTS_FILE lists them), or its .path.
 * Immutable once made; n == 0: the name did not resolve.  refs is
 * atomic; the last BACKEND_AddrsDeref frees it.
 */
struct backend_addr {
	struct sockaddr_storage	sa;
	socklen_t		salen;
	char			ip[64];		/* numeric, for the logs */
};

struct backend_addrs {
	unsigned		magic;
#define BACKEND_ADDRS_MAGIC	0x3b9e61d5
	unsigned		refs;		/* atomic */
	unsigned		n;
	struct backend_addr	addr[];
};

/* One reference to be's current list; never NULL. */
struct backend_addrs *BACKEND_AddrsRef(struct backend *be);
void BACKEND_AddrsDeref(struct backend_addrs **ap);

/* A backend of the VCL named vcl (for backend.list: "vcl.name"). */
struct backend *BACKEND_New(const struct vrt_backend *vrt, const char *vcl,
    char *err, size_t errlen);
/*
 * The owner (a VCL, a dynamic director) lets go: off backend.list at
 * once, freed (probe, connections, counters) with its last reference.
 * BACKEND_Ref/BACKEND_Deref: a fetch's (DIRECTOR_Resolve hands it one),
 * a shard ring's.
 */
void BACKEND_Delete(struct backend **bep);
struct backend *BACKEND_Ref(struct backend *be);
void BACKEND_Deref(struct backend **bep);
const struct director *BACKEND_Director(const struct backend *be);
const char *BACKEND_Name(const struct backend *be);
/* The backend listed as display ("vcl.name"), or NULL. */
struct backend *BACKEND_Lookup(const char *display);
/* backend.list's pattern test, on a "vcl.name" (directors use it too). */
int BACKEND_CliMatch(const char *display, const char *pat,
    const char *active);
/* 0 while it has no address (its name does not resolve). */
/* Admin state (backend.set_health) first, else what is known. */
int BACKEND_Healthy(const struct backend *be);
/* When its health last changed (or it was made): the shard's rampup. */
vtim_real BACKEND_Changed(struct backend *be);
/* The CLI's backend.list [-j] [-p] [pattern] and backend.set_health. */
unsigned BACKEND_CliList(FILE *out, int ac, char * const *av);
unsigned BACKEND_CliSetHealth(FILE *out, int ac, char * const *av);

/* Effective timeouts: the backend's own, else the parameter. */
vtim_dur BACKEND_ConnectTimeout(const struct backend *be);
vtim_dur BACKEND_FirstByteTimeout(const struct backend *be);
vtim_dur BACKEND_BetweenBytesTimeout(const struct backend *be);
/* Host header to send when the request has none (may be NULL). */
const char *BACKEND_HostHeader(const struct backend *be);

/*
 * A connection: an idle one unless force_fresh (always, for a
 * .proxy_header backend), else a new one (within connect_timeout).
 * *reused says which; a new one's PROXY header is the caller's
 * (FETCH_GetConn).  NULL with the reason logged
 * (FetchError) and counted.  On success the transaction's "Connected"
 * timestamp (from t_first, updating *t_prev) and BackendOpen are logged.
 */
struct vbc *BACKEND_GetConn(struct backend *be, struct worker *wrk,
    struct vsl_log *vsl, vtim_real t_first, vtim_real *t_prev,
    vtim_dur connect_timeout, unsigned force_fresh, unsigned *reused);
/*
 * Bytes to the backend's VBE counters: a fetch's (headers and bodies
 * each way) when it lets go of a connection, pipe's when it ends.
 */
void BACKEND_CountBytes(const struct backend *be, uint64_t bereq_hdr,
    uint64_t bereq_body, uint64_t beresp_hdr, uint64_t beresp_body);
void BACKEND_CountPipe(const struct backend *be, uint64_t hdr, uint64_t in,
    uint64_t out);
/*
 * Back to the idle pool (the exchange ended cleanly); closed instead
 * for a .proxy_header backend, whose connections speak for one client.
 */
void BACKEND_Recycle(struct vbc **vbcp, struct vsl_log *vsl);
/* Close it. */
void BACKEND_Close(struct vbc **vbcp, struct vsl_log *vsl,
    const char *reason);
/* Close idle connections past backend_idle_timeout (housekeeping). */
void BACKEND_Reap(void);
/* Start (warm) or stop (cold) the probes of the VCL named vcl. */
void BACKEND_SetWarm(const char *vcl, int warm);
/* A backend made after its VCL loaded: start its probe if vcl is warm. */
void BACKEND_SetWarmOne(struct backend *be, const struct vcl *vcl);

/*
 * For the probes (probe.c).  BACKEND_ProbeHappy: the window for
 * VBE.*.happy, and whether the probe's verdict changed (backend.list's
 * Last change).
 */
unsigned BACKEND_ProxyHeader(const struct backend *be);
void BACKEND_CountFail(const struct backend *be, int err);
void BACKEND_ProbeHappy(struct backend *be, uint64_t happy, unsigned changed);

/*
 * probe.c: a backend's health probe, made stopped with .initial
 * successes assumed.  PROBE_Control starts it (warm: due now) or stops
 * it (cold), resetting the window either way.  PROBE_Free stops it and
 * returns at once: the probe thread closes a run in progress and frees
 * it, and no longer touches the backend, which may go.  PROBE_Status
 * prints backend.list's Probe column ("good/window", or JSON's
 * [good, window, "health"]) or, with details, the window (-p).
 */
struct probe;
struct probe *PROBE_New(struct backend *be,
    const struct vrt_backend_probe *vp, const char *host);
void PROBE_Free(struct probe **pp);
void PROBE_Control(struct probe *p, int warm);
int PROBE_Healthy(const struct probe *p);
void PROBE_Status(FILE *out, const struct probe *p, int details, int json);

/*
 * For the resolver thread (backend_dns.c).  BACKEND_DnsDue lends the
 * first backend of a warm VCL whose name is due for re-resolution, its
 * host and port, marked busy (BACKEND_Delete waits for it), or NULL and
 * the time the next is due.  BACKEND_DnsDone hands back the new list
 * (its reference taken; n == 0: did not resolve, why says why; NULL:
 * out of memory, the old list stays), swaps it in if it differs,
 * closes idle connections to addresses no longer listed, logs and
 * counts the change, and schedules the next round after ttl.
 */
struct backend *BACKEND_DnsDue(vtim_real now, vtim_real *next,
    const char **host, const char **port);
void BACKEND_DnsDone(struct backend *be, struct backend_addrs **fresh,
    const char *why, vtim_dur ttl);

/*
 * backend_dns.c: DNS_Resolve makes the address list of host:port (n is
 * 0 and why says why if none); NULL only when out of memory.  *numeric
 * is set if host is an address, which never needs resolving again.
 * DNS_Start starts the resolver thread, "cache-dns", once.
 */
struct backend_addrs *DNS_Resolve(const char *host, const char *port,
    int *numeric, char *why, size_t whylen);
void DNS_Start(void);

/*
 * SRV records, for the dynamic director's .service().  DNS_ResolveSrv:
 * name's records (VENEER_SRV_FILE's if it lists name, else DNS's),
 * sorted by DNS_SrvSort (priority up, then weight down), at most max;
 * their number, or -1 with why.  DNS_SrvParseAnswer: the SRV records of
 * a DNS answer (other types skipped; target "." or port 0 dropped, RFC
 * 2782), or -1 with why when malformed.  DNS_SrvFileLine: 1 and *srv if
 * the line (its comment cut; changed) is name's, 0 if not, -1 if it is
 * but malformed.  DNS_SrvPick: a weighted choice of one of n (n > 0)
 * for a random r: each index in proportion to its weight, never one of
 * weight 0 unless all are 0 (then uniform).
 */
struct dns_srv {
	uint16_t		priority;
	uint16_t		weight;
	uint16_t		port;
	char			target[256];
};
int DNS_ResolveSrv(const char *name, struct dns_srv *srv, unsigned max,
    char *why, size_t whylen);
int DNS_SrvParseAnswer(const unsigned char *msg, int len,
    struct dns_srv *srv, unsigned max, char *why, size_t whylen);
int DNS_SrvFileLine(char *line, const char *name, struct dns_srv *srv);
void DNS_SrvSort(struct dns_srv *srv, unsigned n);
unsigned DNS_SrvPick(const unsigned *weight, unsigned n, uint32_t r);

#endif /* VENEER_CACHE_BACKEND_H */

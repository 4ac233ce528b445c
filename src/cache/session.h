/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * session.h -- a client connection.  Sessions are owned by exactly one of:
 * the acceptor (briefly), a pool's queue, a worker, a pool's linger set
 * (under its lock: pool.c) or the waiter; the owner is the only thread
 * that touches it, so it has no lock of its own.
 */

#ifndef VENEER_CACHE_SESSION_H
#define VENEER_CACHE_SESSION_H

#include <ev.h>
#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include <bsd/sys/queue.h>

#include "common/tim.h"
#include "cache/http1_parse.h"
#include "cache/pool.h"
#include "cache/proxy_recv.h"
#include "cache/ws.h"

struct listen_sock;

/*
 * What a PROXY header vouched for (a -a ...,PROXY listener): client.ip
 * and server.ip, and v2's TLVs for the proxy module.  In the session's
 * workspace, below sp->ws_base, for the session's life.
 */
struct sess_proxy {
	unsigned		magic;
#define SESS_PROXY_MAGIC	0x3c9e5f21
	union proxy_addr	client;
	union proxy_addr	server;
	size_t			tlv_len;
	unsigned char		tlv[];
};

enum sess_close {
	SC_NULL = 0,
#define SESS_CLOSE(U, l, err, doc)	SC_##U,
#include "sess_close.h"
	SC__MAX
};

struct sess {
	unsigned		magic;
#define SESS_MAGIC		0xfd147732
	int			fd;
	uint32_t		vxid;
	struct pool		*pool;
	const struct listen_sock *ls;
	struct sockaddr_storage	remote;
	socklen_t		remote_len;
	struct sockaddr_storage	local;		/* SES_Local(): AF_UNSPEC
						   until first asked */
	char			client_ip[48];
	char			client_port[8];
	vtim_real		t_open;
	vtim_mono		t_open_mono;
	vtim_mono		t_idle;		/* last response sent */
	vtim_mono		t_rx;		/* first byte of a partial
						   head (the accept while a
						   PROXY header is due), 0 */
	unsigned		nreq;
	unsigned		opened;		/* SessOpen logged */
	unsigned		proxy_wait;	/* PROXY listener: the header
						   is still to come */
	const struct sess_proxy	*proxy;		/* in ws; NULL: the socket's
						   ends are the client's */
	uintptr_t		ws_base;	/* ws below it is kept (the
						   proxy data); SES_RxKeep
						   uses what is above */
	struct pool_task	task;

	/* In the linger set (pool.c) */
	unsigned		lep_reg;	/* fd in the pool's epoll set */
	uint32_t		lslot;		/* its slot there */
	vtim_mono		t_lset_end;	/* off to the waiter then */

	/* Parked in the waiter (waiter thread only) */
	ev_io			wio;
	ev_timer		wtmo;
	TAILQ_ENTRY(sess)	wlist;		/* or the pool's linger set */
	unsigned		linger;		/* draining input to close */
	enum sess_close		linger_reason;

	/*
	 * A partial request kept while parked: in ws, or when bigger than
	 * ws in rx_heap bytes of malloc charged to sess_park_bytes.
	 */
	char			*rx_buf;
	size_t			rx_len;
	size_t			rx_heap;
	struct h1_scan		rx_scan;	/* how far it was scanned */
	struct ws		ws[1];
};

/* Acceptor: a session for an accepted fd, in pool pp; NULL if no memory. */
struct sess *SES_New(struct pool *pp, int fd, const struct listen_sock *ls,
    const struct sockaddr_storage *remote, socklen_t remote_len);

/* The local end of the session's socket (getsockname, once). */
const struct sockaddr_storage *SES_Local(struct sess *sp);
/*
 * client.ip and server.ip: a PROXY header's, else the socket's ends
 * (remote, and SES_Local).
 */
const struct sockaddr *SES_Client(const struct sess *sp);
const struct sockaddr *SES_Server(struct sess *sp);

/* Hand the session to the pool (new or readable); counts drops. */
void SES_Schedule(struct sess *sp, enum task_prio prio);

/* Close the fd, log SessClose, count, free.  *spp is NULLed. */
void SES_Delete(struct sess **spp, enum sess_close reason);

/*
 * Keep [p, p + len) of a partial request for a park: in the workspace if
 * it fits, else in a buffer of its size within sess_park_space.  0, or
 * -1 when sess_park_space is used up (counted in sess_park_full).
 */
int SES_RxKeep(struct sess *sp, const char *p, size_t len);
/*
 * Waiter thread: a parked session with a partial head became readable.
 * Read onto what is kept (below http_req_size) and scan it, so a slow
 * client's bytes cost no hand-over to a worker.  1: still partial, stay
 * parked; 0: give it to a worker (head complete, junk, at the size
 * limit, EOF or error: the worker reads and decides); -1: close it,
 * sess_park_space is used up (counted in sess_park_full).
 */
int SES_RxMore(struct sess *sp);
/* Drop what SES_RxKeep kept (copied out, or the session closes). */
void SES_RxRelease(struct sess *sp);

/* Idle or with a partial request: linger set (POOL_Linger) or waiter. */
void SES_Park(struct sess *sp);
/* Hand to the waiter (out of the linger set, or lingering is off). */
void SES_Herd(struct sess *sp);

/*
 * Close after an error answer: stop sending, read and discard what the
 * client still sends (so our answer is not lost to a reset), close at EOF
 * or after timeout_idle.
 */
void SES_LingerClose(struct sess *sp, enum sess_close reason);

const char *SES_CloseName(enum sess_close reason);
int SES_CloseIsError(enum sess_close reason);

/* The worker's entry point for a session (HTTP/1). */
void H1_Session(struct worker *wrk, void *priv);

#endif /* VENEER_CACHE_SESSION_H */

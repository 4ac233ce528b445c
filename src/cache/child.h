/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * child.h -- what the manager hands the child when it forks it, and the
 * child's process-wide state.  The manager fills struct child_args before
 * fork(); the child treats it as read-only.
 */

#ifndef VENEER_CACHE_CHILD_H
#define VENEER_CACHE_CHILD_H

#include <sys/socket.h>
#include <sys/types.h>

#include <stdint.h>

#include "common/tim.h"

struct vsmw;

/* A listen socket, opened and bound by the manager. */
struct listen_sock {
	unsigned		magic;
#define LISTEN_SOCK_MAGIC	0x0dfb6ae1
	int			fd;
	char			name[16];	/* "a0" */
	char			endpoint[128];	/* the -a argument without
						   its name= and ,options:
						   VCL's local.endpoint */
	char			addr[128];	/* bound address, numeric,
						   or a Unix socket's path */
	char			port[8];	/* bound port */
	unsigned		proxy;		/* -a ...,PROXY: a PROXY
						   header comes first */
};

/* The -b argument, parsed (mgt_vcl.c makes a VCL of it). */
struct backend_arg {
	char			host[256];	/* as given */
	char			port[16];
	/* host[:port] for requests without Host (RFC 9110 7.2) */
	char			hosthdr[280];
};

/* A -s store: [name=]malloc[,size]. */
#define CHILD_MAX_STORES	16
struct storage_arg {
	char			name[32];	/* "s0", "Transient" */
	uint64_t		size;		/* bytes; 0: no limit */
};

struct child_args {
	unsigned		magic;
#define CHILD_ARGS_MAGIC	0x98f36d44
	const char		*workdir;
	struct listen_sock	*socks;
	unsigned		nsocks;
	struct backend_arg	backend;
	int			cli_in;		/* commands from the manager */
	int			cli_out;	/* answers to the manager */
	uid_t			uid;		/* drop to these, if set */
	gid_t			gid;
	unsigned		drop_privs;
	char			*panic_buf;	/* shared with the manager */
	size_t			panic_len;
	const char		*hostname;	/* for Via */
	const char		*identity;	/* -i: server.identity, or NULL */
	struct storage_arg	stores[CHILD_MAX_STORES];
	unsigned		nstores;
	/* -W: libev backend flags for the waiters; 0 for libev's choice. */
	unsigned		ev_backend;
	/* The boot VCL the manager compiled and built; "" for none. */
	char			vcl_so[1280];
	char			vcl_name[64];
};

/* Set by the manager before fork; const in the child. */
extern const struct child_args *child_args;

/* "Via: 1.1 <hostname> (Veneer/<version>)", made once at start. */
extern const char *child_via;

/* The child's shared-memory segments (_.vsm_child). */
extern struct vsmw *child_vsmw;

/* Draining for shutdown: send Connection: close, park nothing. */
extern volatile unsigned child_draining;

/* Entry point after fork(); never returns. */
void CHILD_Main(const struct child_args *ca) __attribute__((__noreturn__));

/* Sessions open now (accepted, not yet closed). */
extern unsigned child_sessions;		/* atomic */

#endif /* VENEER_CACHE_CHILD_H */

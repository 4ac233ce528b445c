/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * proxy_send.h -- the PROXY protocol header (HAProxy's proxy-protocol.txt,
 * versions 1 and 2) a backend with .proxy_header gets first on each new
 * connection: who the client is and which address it reached.  Only the
 * writer; no state, no locks.
 */

#ifndef VENEER_CACHE_PROXY_SEND_H
#define VENEER_CACHE_PROXY_SEND_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "common/tim.h"

/* Room for any header PROXY_Format writes (v1 at most 104, v2 52). */
#define PROXY_HDR_MAX	128

/*
 * The header of version 1 (text) or 2 (binary) into buf (len bytes, at
 * least PROXY_HDR_MAX): client is the client's address and port, server
 * the address and port it connected to (the session's local end).  An
 * address that is not IP (a Unix socket listener) reads as 0.0.0.0 port
 * 0, as client.ip does; an IPv4 address beside an IPv6 one is sent
 * IPv4-mapped (::ffff:a.b.c.d), so both are TCP6.  Both NULL: nobody to
 * vouch for (a probe): "PROXY UNKNOWN\r\n" for v1, the LOCAL command
 * with no addresses for v2; the receiver then uses the connection's own
 * ends.  Returns the length written; no NUL is added.
 */
size_t PROXY_Format(void *buf, size_t len, unsigned version,
    const struct sockaddr_storage *client,
    const struct sockaddr_storage *server);

/*
 * A probe's header on its connection fd, with no client to vouch for:
 * LOCAL for version 2; for version 1 fd's own IP address stands for
 * both ends, as varnishd's probe sends it (varnishd 7.1 closes on
 * "PROXY UNKNOWN": too few fields), UNKNOWN left for a socket that is
 * not IP.  The length written into buf.
 */
size_t PROXY_FormatProbe(void *buf, size_t len, unsigned version, int fd);

/*
 * PROXY_Format, then write it all to fd (blocking or not), waiting for
 * the socket at most tmo (<= 0: no limit).  The bytes written, or -1
 * with errno set (ETIMEDOUT when tmo passed).
 */
ssize_t PROXY_Send(int fd, unsigned version,
    const struct sockaddr_storage *client,
    const struct sockaddr_storage *server, vtim_dur tmo);

#endif /* VENEER_CACHE_PROXY_SEND_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * addr.h -- reading an "address and port" argument, as -a, -b, -T, -M
 * and veneeradm -T take them: host:port, [IPv6]:port, a host alone (the
 * caller supplies the port), and with ADDR_F_SPACE also "host port", as
 * varnishd's -M and the shared memory's -T records write it.
 */

#ifndef VENEER_COMMON_ADDR_H
#define VENEER_COMMON_ADDR_H

#include <stddef.h>

#define ADDR_F_SPACE	(1U << 0)	/* "host port" too */
#define ADDR_F_NEEDPORT	(1U << 1)	/* a port must be given */

/*
 * Split arg into host (brackets removed; may be empty, ":6082") and port
 * ("" when none was given and none is needed).  0, or -1 with *why set to
 * a sentence saying what is wrong (static; the caller names the option).
 */
int ADDR_Split(const char *arg, unsigned flags, char *host, size_t hostlen,
    char *port, size_t portlen, const char **why);

/*
 * A blocking TCP connection (close-on-exec) to the first address of
 * host:port that answers, or -1 with *why (static; errno from the last
 * attempt).  ADDR_Connect splits arg first (a port is needed; an empty
 * host is localhost).
 */
int ADDR_ConnectHost(const char *host, const char *port, const char **why);
int ADDR_Connect(const char *arg, unsigned flags, const char **why);

#endif /* VENEER_COMMON_ADDR_H */

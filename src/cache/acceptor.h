/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * acceptor.h -- the one thread that accepts client connections on every
 * listen socket and hands each to a pool, round-robin.
 */

#ifndef VENEER_CACHE_ACCEPTOR_H
#define VENEER_CACHE_ACCEPTOR_H

void ACCEPT_Start(void);
/* Stop accepting and close this process's copies of the listen sockets. */
void ACCEPT_Stop(void);

#endif /* VENEER_CACHE_ACCEPTOR_H */

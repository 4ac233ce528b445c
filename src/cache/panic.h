/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * panic.h -- what the child does when it finds a bug in itself: write
 * what failed, where, a backtrace and the request being processed to
 * stderr and to a buffer the manager keeps (panic.show), then abort.
 */

#ifndef VENEER_CACHE_PANIC_H
#define VENEER_CACHE_PANIC_H

#include <stddef.h>

struct req;

void PANIC_Init(char *buf, size_t len);
/* Every thread: a stack of its own for the handler of SIGSEGV. */
void PANIC_ThreadInit(void);
void PANIC_ThreadFini(void);
/* The request this thread works on, for the dump (NULL when done). */
void PANIC_SetReq(const struct req *req);

#endif /* VENEER_CACHE_PANIC_H */

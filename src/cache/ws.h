/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ws.h -- workspaces: arenas that requests, sessions and fetches allocate
 * from instead of malloc.  Allocation moves a pointer; everything is freed
 * at once by resetting to a snapshot.  Running out sets a sticky overflow
 * flag: allocation returns NULL and the owner checks WS_Overflowed() once,
 * answers 500/503, counts it and logs it.  A canary after the end catches
 * writes past it.
 *
 * A workspace belongs to one thread at a time; no locks.
 */

#ifndef VENEER_CACHE_WS_H
#define VENEER_CACHE_WS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "common/txt.h"

struct ws {
	unsigned		magic;
#define WS_MAGIC		0x35fac554
	char			id[4];		/* "req", "bo", "ses"... */
	unsigned		overflow;	/* sticky */
	char			*s;		/* start */
	char			*f;		/* first free byte */
	char			*r;		/* end of reservation, or NULL */
	char			*e;		/* end */
};

#define WS_ALIGN		8U

/* Set up ws over len bytes at space; the last 8 bytes hold a canary. */
void WS_Init(struct ws *ws, const char *id, void *space, size_t len);
void WS_Assert(const struct ws *ws);

uintptr_t WS_Snapshot(const struct ws *ws);
/* Free everything allocated after the snapshot; clears overflow. */
void WS_Reset(struct ws *ws, uintptr_t snapshot);

void *WS_Alloc(struct ws *ws, size_t bytes);
char *WS_Copy(struct ws *ws, const void *src, size_t len);	/* + NUL */
char *WS_Printf(struct ws *ws, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/*
 * Reserve all free space for writing an unknown amount; finish with
 * WS_Release(ws, bytes_used).  Only one reservation at a time.
 */
size_t WS_ReserveAll(struct ws *ws);
size_t WS_ReserveSize(struct ws *ws, size_t bytes);	/* 0 if short */
void WS_Release(struct ws *ws, size_t bytes);
char *WS_Reservation(const struct ws *ws);

void WS_MarkOverflow(struct ws *ws);
int WS_Overflowed(const struct ws *ws);
size_t WS_Free(const struct ws *ws);
int WS_Inside(const struct ws *ws, const void *b, const void *e);

#endif /* VENEER_CACHE_WS_H */

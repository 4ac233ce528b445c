/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ws.c -- workspace arenas.  See ws.h for the contract.  Owns nothing but
 * the bytes it is given; no locks (one owner thread at a time).
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <bsd/string.h>

#include "common/fmt.h"
#include "common/miniobj.h"
#include "cache/ws.h"

#define WS_CANARY	0x5a17c0dee7ab1e55ULL

static inline size_t
ws_round(size_t n)
{

	return ((n + WS_ALIGN - 1) & ~(size_t)(WS_ALIGN - 1));
}

void
WS_Assert(const struct ws *ws)
{

	CHECK_OBJ(ws, WS_MAGIC);
	assert(ws->s != NULL);
	assert(ws->s <= ws->f);
	assert(ws->f <= ws->e);
	if (ws->r != NULL) {
		assert(ws->r >= ws->f);
		assert(ws->r <= ws->e);
	}
	/* The canary sits right after e; a write past the end kills it. */
	assert(*(const uint64_t *)(const void *)ws->e == WS_CANARY);
}

void
WS_Init(struct ws *ws, const char *id, void *space, size_t len)
{
	char *p = space;
	size_t skew;

	assert(ws != NULL);
	assert(space != NULL);
	INIT_OBJ(ws, WS_MAGIC);
	(void)strlcpy(ws->id, id, sizeof ws->id);	/* per session: no printf */
	skew = (size_t)((uintptr_t)p & (WS_ALIGN - 1));
	if (skew != 0) {
		p += WS_ALIGN - skew;
		len -= WS_ALIGN - skew;
	}
	len &= ~(size_t)(WS_ALIGN - 1);
	assert(len > sizeof(uint64_t));
	ws->s = p;
	ws->f = p;
	ws->e = p + len - sizeof(uint64_t);
	*(uint64_t *)(void *)ws->e = WS_CANARY;
	WS_Assert(ws);
}

uintptr_t
WS_Snapshot(const struct ws *ws)
{

	WS_Assert(ws);
	assert(ws->r == NULL);
	return ((uintptr_t)ws->f);
}

void
WS_Reset(struct ws *ws, uintptr_t snapshot)
{
	char *p = (char *)snapshot;

	WS_Assert(ws);
	assert(p >= ws->s && p <= ws->e);
	ws->f = p;
	ws->r = NULL;
	ws->overflow = 0;
}

void
WS_MarkOverflow(struct ws *ws)
{

	CHECK_OBJ(ws, WS_MAGIC);
	ws->overflow = 1;
}

int
WS_Overflowed(const struct ws *ws)
{

	CHECK_OBJ(ws, WS_MAGIC);
	return (ws->overflow != 0);
}

size_t
WS_Free(const struct ws *ws)
{

	WS_Assert(ws);
	assert(ws->r == NULL);
	return ((size_t)(ws->e - ws->f));
}

int
WS_Inside(const struct ws *ws, const void *b, const void *e)
{
	const char *bb = b, *ee = e;

	CHECK_OBJ(ws, WS_MAGIC);
	if (bb < ws->s || bb > ws->f)
		return (0);
	if (ee != NULL && (ee < bb || ee > ws->f))
		return (0);
	return (1);
}

void *
WS_Alloc(struct ws *ws, size_t bytes)
{
	char *p;

	WS_Assert(ws);
	assert(ws->r == NULL);
	bytes = ws_round(bytes);
	if (ws->overflow || bytes > (size_t)(ws->e - ws->f)) {
		ws->overflow = 1;
		return (NULL);
	}
	p = ws->f;
	ws->f += bytes;
	return (p);
}

char *
WS_Copy(struct ws *ws, const void *src, size_t len)
{
	char *p;

	p = WS_Alloc(ws, len + 1);
	if (p == NULL)
		return (NULL);
	memcpy(p, src, len);
	p[len] = '\0';
	return (p);
}

char *
WS_Printf(struct ws *ws, const char *fmt, ...)
{
	va_list ap;
	size_t avail;
	char *p;
	int n;

	avail = WS_ReserveAll(ws);
	p = ws->f;
	va_start(ap, fmt);
	n = avail == 0 ? 0 : FMT_Vsnprintf(p, avail, fmt, ap);
	va_end(ap);
	if ((size_t)n >= avail) {
		WS_Release(ws, 0);
		ws->overflow = 1;
		return (NULL);
	}
	WS_Release(ws, (size_t)n + 1);
	return (p);
}

size_t
WS_ReserveAll(struct ws *ws)
{

	WS_Assert(ws);
	assert(ws->r == NULL);
	if (ws->overflow) {
		ws->r = ws->f;
		return (0);
	}
	ws->r = ws->e;
	return ((size_t)(ws->r - ws->f));
}

size_t
WS_ReserveSize(struct ws *ws, size_t bytes)
{

	WS_Assert(ws);
	assert(ws->r == NULL);
	if (ws->overflow || bytes > (size_t)(ws->e - ws->f)) {
		ws->overflow = 1;
		return (0);
	}
	ws->r = ws->f + bytes;
	return (bytes);
}

char *
WS_Reservation(const struct ws *ws)
{

	WS_Assert(ws);
	assert(ws->r != NULL);
	return (ws->f);
}

void
WS_Release(struct ws *ws, size_t bytes)
{

	WS_Assert(ws);
	assert(ws->r != NULL);
	assert(bytes <= (size_t)(ws->r - ws->f));
	ws->f += ws_round(bytes);
	if (ws->f > ws->e)
		ws->f = ws->e;
	ws->r = NULL;
}

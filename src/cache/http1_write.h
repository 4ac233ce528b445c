/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_write.h -- gathering writes with timeouts.  Pieces are queued as
 * I/O vectors (no copy: they must stay valid until the next flush) and
 * go out with writev(2), so a response head and its first body bytes
 * leave in one system call.  At the flush, runs of short pieces (a head
 * is two per header line) are copied into one buffer first: the kernel
 * pays per vector more than the copy costs.  Errors are sticky: after the first one every
 * call is a no-op and H1W_Close reports it.
 */

#ifndef VENEER_CACHE_HTTP1_WRITE_H
#define VENEER_CACHE_HTTP1_WRITE_H

#include <stdint.h>
#include <sys/uio.h>

#include "common/tim.h"
#include "common/txt.h"

struct worker;

struct h1w {
	unsigned		magic;
#define H1W_MAGIC		0x3a8e1c27
	int			fd;
	int			err;		/* errno, ETIMEDOUT; 0 ok */
	struct iovec		*iov;		/* from the worker's aws */
	unsigned		niov;
	unsigned		siov;
	size_t			liov;		/* bytes queued */
	uint64_t		cnt;		/* bytes written */
	vtim_mono		deadline;	/* 0: none */
	vtim_dur		idle;		/* 0: none */
	unsigned		chunked;
	unsigned		suspended;	/* H1W_Suspend */
	char			chunkhdr[24];
	struct worker		*wrk;
};

/*
 * Start writing to fd: the whole exchange must end by deadline (0: no
 * limit) and no write may stall longer than idle (0: no limit).
 */
void H1W_Open(struct h1w *w, struct worker *wrk, int fd, vtim_mono deadline,
    vtim_dur idle);
/* The deadline for a response to a client: now + send_timeout, or 0. */
vtim_mono H1W_ClientDeadline(void);

/*
 * Write all of [p, p+len) to a non-blocking fd without the gathering
 * writer (whose vectors the caller may hold): by deadline (0: none), no
 * wait longer than idle (0: none).  0 or -1.
 */
int H1W_WriteAll(int fd, const void *p, size_t len, vtim_mono deadline,
    vtim_dur idle);
void H1W_Write(struct h1w *w, const void *p, size_t len);
void H1W_WriteTxt(struct h1w *w, struct txt t);
void H1W_WriteStr(struct h1w *w, const char *s);
/* Body bytes from here on go out as chunks. */
void H1W_Chunked(struct h1w *w);
/* The last chunk ("0" CRLF CRLF); chunking stops. */
void H1W_EndChunked(struct h1w *w);
int H1W_Flush(struct h1w *w);
/*
 * Flush and lend the worker's workspace (the vectors) to another writer
 * on the same worker (an ESI include's backend request) until resumed.
 */
void H1W_Suspend(struct h1w *w);
void H1W_Resume(struct h1w *w);
/* Flush, release the vectors; returns the sticky error (0 ok). */
int H1W_Close(struct h1w *w);

#endif /* VENEER_CACHE_HTTP1_WRITE_H */

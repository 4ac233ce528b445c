/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_fetch.h -- the backend side of HTTP/1: sending a backend request
 * (head and body) and receiving the response head.  Internal to the fetch
 * code (fetch.c, pipe.c).
 */

#ifndef VENEER_CACHE_HTTP1_FETCH_H
#define VENEER_CACHE_HTTP1_FETCH_H

struct busyobj;

/* Results of H1F_Send and H1F_RecvHead */
#define H1F_OK		0
#define H1F_ERROR	(-1)	/* backend error; logged */
#define H1F_REQBODY	(-2)	/* reading the client's body failed */
/* fetch.c's, between its steps */
#define H1F_AWAIT	(-3)	/* sent; the answer is awaited */
#define H1F_RETRY	(-4)	/* send again on a fresh connection */

/* Send bo->bereq's head and, if with_body, the client's body. */
int H1F_Send(struct busyobj *bo, unsigned with_body);
/*
 * Receive the response head into bo->beresp, passing 103 Early Hints on
 * to the client.  *nothing says whether the backend sent no byte at all
 * (a closed keep-alive connection, worth one retry).  ready: the socket
 * is known to be readable (no wait before the first read).
 */
int H1F_RecvHead(struct busyobj *bo, unsigned *nothing, unsigned ready);
/* Log and count a first byte timeout; the request is not sent again. */
void H1F_FirstByteTimeout(struct busyobj *bo);

#endif /* VENEER_CACHE_HTTP1_FETCH_H */

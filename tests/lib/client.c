/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * client.c -- a test's client connection: connect with a deadline, send
 * raw bytes or a request, read and parse responses (framing by HEAD,
 * status, Transfer-Encoding, Content-Length or close; 1xx interim
 * responses recorded or returned), and tell when the server closes.
 *
 * A client belongs to the test's main thread.  Functions without "Try"
 * fail the test with a message naming the peer and what went wrong.
 */

#include "config.h"

#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lib/harness.h"

struct client {
	unsigned		magic;
#define CLIENT_MAGIC		0x66d0a44f
	struct hx_conn		conn;
	char			peer[80];	/* "127.0.0.1:1234" */
	hx_sink_f		*sink;		/* NULL: body in memory */
	void			*sink_priv;
	enum hx_io		last;
	char			err[320];
};

static int
client_addr(const char *addr, int port, struct sockaddr_storage *ss,
    socklen_t *sl)
{
	struct sockaddr_in6 *sin6;
	struct sockaddr_in *sin;
	char buf[64];
	size_t len;

	/* "[::1]" and "::1" both mean IPv6 loopback. */
	len = strlen(addr);
	if (addr[0] == '[' && len > 2 && len < sizeof buf &&
	    addr[len - 1] == ']') {
		memcpy(buf, addr + 1, len - 2);
		buf[len - 2] = '\0';
		addr = buf;
	}
	memset(ss, 0, sizeof *ss);
	sin = (struct sockaddr_in *)ss;
	if (inet_pton(AF_INET, addr, &sin->sin_addr) == 1) {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		*sl = sizeof *sin;
		return (0);
	}
	sin6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET6, addr, &sin6->sin6_addr) == 1) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		*sl = sizeof *sin6;
		return (0);
	}
	return (-1);
}

/* src: the address to connect from (port 0), or NULL for the kernel's. */
static struct client *
client_try(const char *src, const char *addr, int port, double timeout,
    int *errp)
{
	struct sockaddr_storage ss, from;
	struct pollfd pfd;
	struct client *cl;
	double deadline;
	socklen_t sl, el, froml;
	int fd, e, one;

	*errp = 0;
	if (client_addr(addr, port, &ss, &sl) != 0 || (src != NULL &&
	    client_addr(src, 0, &from, &froml) != 0)) {
		*errp = EINVAL;
		return (NULL);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);
	if (fd < 0) {
		*errp = errno;
		return (NULL);
	}
	if (src != NULL && bind(fd, (struct sockaddr *)&from, froml) != 0) {
		*errp = errno;
		(void)close(fd);
		return (NULL);
	}
	deadline = HX_Now() + timeout;
	e = 0;
	if (connect(fd, (struct sockaddr *)&ss, sl) != 0) {
		e = errno;
		while (e == EINPROGRESS || e == EINTR) {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			if (poll(&pfd, 1, HXC_PollMs(deadline)) < 0) {
				e = errno;
				continue;
			}
			if (pfd.revents != 0) {
				el = sizeof e;
				if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e,
				    &el) != 0)
					e = errno;
			} else if (HX_Now() >= deadline) {
				e = ETIMEDOUT;
			}
		}
	}
	if (e != 0) {
		(void)close(fd);
		*errp = e;
		return (NULL);
	}
	one = 1;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	cl = calloc(1, sizeof *cl);
	assert(cl != NULL);
	cl->magic = CLIENT_MAGIC;
	HXC_Init(&cl->conn, fd, -1);
	(void)snprintf(cl->peer, sizeof cl->peer, "%s%s%s:%d",
	    strchr(addr, ':') != NULL && addr[0] != '[' ? "[" : "", addr,
	    strchr(addr, ':') != NULL && addr[0] != '[' ? "]" : "", port);
	return (cl);
}

struct client *
CLIENT_TryNew(const char *addr, int port, double timeout, int *errp)
{

	return (client_try(NULL, addr, port, timeout, errp));
}

struct client *
CLIENT_NewFrom(const char *src, const char *addr, int port, double timeout)
{
	struct client *cl;
	int e;

	cl = client_try(src, addr, port, timeout, &e);
	if (cl == NULL)
		ck_abort_msg("cannot connect from %s to %s port %d within "
		    "%.1f s: %s", src, addr, port, timeout, strerror(e));
	return (cl);
}

struct client *
CLIENT_New(const char *addr, int port, double timeout)
{
	struct client *cl;
	int e;

	cl = CLIENT_TryNew(addr, port, timeout, &e);
	if (cl == NULL)
		ck_abort_msg("cannot connect to %s port %d within %.1f s: %s",
		    addr, port, timeout, strerror(e));
	return (cl);
}

void
CLIENT_Free(struct client **clp)
{
	struct client *cl;

	cl = *clp;
	*clp = NULL;
	if (cl == NULL)
		return;
	assert(cl->magic == CLIENT_MAGIC);
	HXC_Fini(&cl->conn);
	cl->magic = 0;
	free(cl);
}

int
CLIENT_Fd(const struct client *cl)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	return (cl->conn.fd);
}

enum hx_io
CLIENT_TrySend(struct client *cl, const void *p, size_t len, double timeout)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	cl->last = HXC_Write(&cl->conn, p, len, HX_Now() + timeout);
	return (cl->last);
}

void
CLIENT_Send(struct client *cl, const void *p, size_t len)
{
	enum hx_io r;

	r = CLIENT_TrySend(cl, p, len, HX_T_SLOW);
	if (r != HX_IO_OK)
		ck_abort_msg("%s: sending %zu bytes: %s (%s)", cl->peer, len,
		    HX_IoName(r), strerror(cl->conn.err));
}

void
CLIENT_SendStr(struct client *cl, const char *s)
{

	CLIENT_Send(cl, s, strlen(s));
}

void
CLIENT_Printf(struct client *cl, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	ck_assert_msg(len >= 0, "out of memory");
	CLIENT_Send(cl, s, (size_t)len);
	free(s);
}

void
CLIENT_Req(struct client *cl, const char *method, const char *url,
    const char *hdrs, const void *body, ssize_t len)
{
	size_t blen;
	char *head;
	int n;

	if (hdrs == NULL)
		hdrs = "";
	blen = body == NULL ? 0 : len < 0 ? strlen(body) : (size_t)len;
	if (body != NULL && !HX_HasField(hdrs, "Content-Length") &&
	    !HX_HasField(hdrs, "Transfer-Encoding"))
		n = asprintf(&head, "%s %s HTTP/1.1\r\n%s%s"
		    "Content-Length: %zu\r\n\r\n", method, url,
		    HX_HasField(hdrs, "Host") ? "" : "Host: e2e.test\r\n",
		    hdrs, blen);
	else
		n = asprintf(&head, "%s %s HTTP/1.1\r\n%s%s\r\n", method, url,
		    HX_HasField(hdrs, "Host") ? "" : "Host: e2e.test\r\n",
		    hdrs);
	ck_assert_msg(n > 0, "out of memory");
	CLIENT_Send(cl, head, (size_t)n);
	free(head);
	if (blen > 0)
		CLIENT_Send(cl, body, blen);
}

static const char *
client_unread(const struct client *cl)
{

	return (cl->conn.buf == NULL ? "" : cl->conn.buf + cl->conn.off);
}

static void
client_fail(struct client *cl, enum hx_io r, const char *what, double t0)
{
	size_t n;

	cl->last = r;
	n = cl->conn.len - cl->conn.off;
	(void)snprintf(cl->err, sizeof cl->err, "%s: %s%s%s%s "
	    "(after %.2f s, %zu bytes unread: \"%.*s\")", what, HX_IoName(r),
	    r == HX_IO_PARSE ? ": " : "", r == HX_IO_PARSE ? cl->conn.why :
	    "", r == HX_IO_ERROR ? strerror(cl->conn.err) : "",
	    HX_Now() - t0, n, (int)(n > 60 ? 60 : n), client_unread(cl));
}

/* How the body of response m is framed; -1 if it cannot be told. */
static int
client_framing(struct client *cl, const struct hx_msg *m, unsigned flags,
    enum hx_body *kind, uint64_t *len)
{
	const char *te, *cl_hdr;
	unsigned u;
	char *end;

	*kind = HX_BODY_EOF;
	*len = 0;
	if ((flags & RESP_HEAD) || m->status < 200 || m->status == 204 ||
	    m->status == 304) {
		*kind = HX_BODY_NONE;
		return (0);
	}
	te = HX_Header(m, "Transfer-Encoding");
	cl_hdr = HX_Header(m, "Content-Length");
	if (te != NULL) {
		/* Chunked if it is the final coding, else read to EOF. */
		if (HX_HeaderHasToken(m, "Transfer-Encoding", "chunked"))
			*kind = HX_BODY_CHUNKED;
		return (0);
	}
	if (cl_hdr == NULL)
		return (0);
	for (u = 0; u < m->nhdr; u++)
		if (strcasecmp(m->hdr[u].name, "Content-Length") == 0 &&
		    strcmp(m->hdr[u].value, cl_hdr) != 0) {
			(void)snprintf(cl->conn.why, sizeof cl->conn.why,
			    "two Content-Length: %s and %s", cl_hdr,
			    m->hdr[u].value);
			return (-1);
		}
	errno = 0;
	*len = strtoull(cl_hdr, &end, 10);
	if (*cl_hdr < '0' || *cl_hdr > '9' || *end != '\0' || errno != 0) {
		(void)snprintf(cl->conn.why, sizeof cl->conn.why,
		    "bad Content-Length \"%.40s\"", cl_hdr);
		return (-1);
	}
	*kind = HX_BODY_LENGTH;
	return (0);
}

struct hx_msg *
CLIENT_TryResp(struct client *cl, unsigned flags, double timeout)
{
	struct hx_msg *m, *interim[HX_MAX_INTERIM];
	unsigned ninterim, u;
	enum hx_body kind;
	double deadline;
	uint64_t len;
	enum hx_io r;
	double t0;

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	t0 = HX_Now();
	deadline = t0 + timeout;
	ninterim = 0;
	cl->err[0] = '\0';
	for (;;) {
		m = calloc(1, sizeof *m);
		assert(m != NULL);
		m->magic = HX_MSG_MAGIC;
		r = HXC_ReadHead(&cl->conn, m, 0, deadline);
		if (r != HX_IO_OK) {
			client_fail(cl, r, "reading the response head", t0);
			break;
		}
		/* 101 ends HTTP/1 on this connection: treat as final. */
		if (m->status >= 200 || m->status == 101 ||
		    (flags & RESP_INTERIM))
			break;
		if (ninterim < HX_MAX_INTERIM)
			interim[ninterim++] = m;
		else
			HX_MsgFree(&m);
	}
	if (r == HX_IO_OK && client_framing(cl, m, flags, &kind, &len) != 0) {
		r = HX_IO_PARSE;
		client_fail(cl, r, "response framing", t0);
	}
	if (r == HX_IO_OK) {
		r = HXC_ReadBody(&cl->conn, m, kind, len, cl->sink,
		    cl->sink_priv, deadline);
		if (r != HX_IO_OK)
			client_fail(cl, r, "reading the response body", t0);
	}
	if (r != HX_IO_OK) {
		HX_MsgFree(&m);
		for (u = 0; u < ninterim; u++)
			HX_MsgFree(&interim[u]);
		return (NULL);
	}
	for (u = 0; u < ninterim; u++)
		m->interim[u] = interim[u];
	m->ninterim = ninterim;
	cl->last = HX_IO_OK;
	return (m);
}

struct hx_msg *
CLIENT_Resp(struct client *cl, unsigned flags, double timeout)
{
	struct hx_msg *m;

	m = CLIENT_TryResp(cl, flags, timeout);
	if (m == NULL)
		ck_abort_msg("%s: no complete response: %s", cl->peer,
		    cl->err);
	return (m);
}

struct hx_msg *
CLIENT_Fetch(struct client *cl, const char *method, const char *url,
    const char *hdrs, double timeout)
{

	CLIENT_Req(cl, method, url, hdrs, NULL, 0);
	return (CLIENT_Resp(cl, strcmp(method, "HEAD") == 0 ? RESP_HEAD : 0,
	    timeout));
}

enum hx_io
CLIENT_LastIO(const struct client *cl)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	return (cl->last);
}

const char *
CLIENT_Error(const struct client *cl)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	return (cl->err);
}

void
CLIENT_SetSink(struct client *cl, hx_sink_f *sink, void *priv)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	cl->sink = sink;
	cl->sink_priv = priv;
}

size_t
CLIENT_Pending(const struct client *cl)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	return (cl->conn.len - cl->conn.off);
}

enum hx_io
CLIENT_WaitClose(struct client *cl, double timeout)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	cl->last = HXC_WaitClose(&cl->conn, 0, HX_Now() + timeout);
	return (cl->last);
}

enum hx_io
CLIENT_Drain(struct client *cl, double timeout)
{

	assert(cl != NULL && cl->magic == CLIENT_MAGIC);
	cl->last = HXC_WaitClose(&cl->conn, 1, HX_Now() + timeout);
	return (cl->last);
}

void
CLIENT_AssertClosed(struct client *cl, double timeout)
{
	enum hx_io r;
	size_t n;

	r = CLIENT_WaitClose(cl, timeout);
	ck_assert_msg(r == HX_IO_EOF || r == HX_IO_RESET,
	    "%s: connection not closed within %.1f s: %s", cl->peer, timeout,
	    HX_IoName(r));
	n = CLIENT_Pending(cl);
	ck_assert_msg(n == 0, "%s: %zu unexpected bytes before the close: "
	    "\"%.*s\"", cl->peer, n, (int)(n > 80 ? 80 : n),
	    client_unread(cl));
}

char *
CLIENT_ReadAll(struct client *cl, size_t *lenp, double timeout)
{
	enum hx_io r;
	char *p;
	size_t n;

	r = CLIENT_WaitClose(cl, timeout);
	ck_assert_msg(r == HX_IO_EOF || r == HX_IO_RESET,
	    "%s: connection not closed within %.1f s: %s", cl->peer, timeout,
	    HX_IoName(r));
	n = CLIENT_Pending(cl);
	p = malloc(n + 1);
	assert(p != NULL);
	if (n > 0)
		memcpy(p, cl->conn.buf + cl->conn.off, n);
	p[n] = '\0';
	cl->conn.off = cl->conn.len;
	if (lenp != NULL)
		*lenp = n;
	return (p);
}

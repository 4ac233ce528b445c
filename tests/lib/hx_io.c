/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * hx_io.c -- buffered HTTP/1 I/O on a non-blocking socket, shared by the
 * origin and the client: write all, read a head, read a body framed by
 * length, chunks or close, wait for the peer to close.
 *
 * Every wait is a poll(2) on the socket and, if set, on the owner's stop
 * descriptor, bounded by an absolute deadline (HX_Now() based; HUGE_VAL
 * for none, which only the origin uses: its stop pipe ends every wait).
 * The struct hx_conn belongs to one thread at a time.
 */

#include "config.h"

#include <sys/socket.h>

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"

#define HXC_MAX_HEAD	(1024 * 1024)
#define HXC_MAX_LINE	8192
#define HXC_BIG_BUF	(256 * 1024)	/* read size for big bodies */

const char *
HX_IoName(enum hx_io r)
{

	switch (r) {
	case HX_IO_OK:		return ("ok");
	case HX_IO_TIMEOUT:	return ("timeout");
	case HX_IO_EOF:		return ("connection closed (EOF)");
	case HX_IO_RESET:	return ("connection reset");
	case HX_IO_ERROR:	return ("socket error");
	case HX_IO_STOPPED:	return ("stopped");
	case HX_IO_PARSE:	return ("not HTTP/1");
	}
	return ("?");
}

void
HXC_Init(struct hx_conn *c, int fd, int stopfd)
{

	memset(c, 0, sizeof *c);
	c->magic = HX_CONN_MAGIC;
	c->fd = fd;
	c->stopfd = stopfd;
}

void
HXC_Fini(struct hx_conn *c)
{

	assert(c->magic == HX_CONN_MAGIC);
	if (c->fd >= 0)
		(void)close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof *c);
	c->fd = -1;
}

int
HXC_PollMs(double deadline)
{
	double left;

	if (isinf(deadline))
		return (-1);
	left = ceil((deadline - HX_Now()) * 1e3);
	if (left <= 0)
		return (0);
	if (left > INT_MAX)
		return (INT_MAX);
	return ((int)left);
}

/* Wait until fd is ready for events: HX_IO_OK or why not. */
static enum hx_io
hxc_wait(struct hx_conn *c, short events, double deadline)
{
	struct pollfd pfd[2];
	nfds_t n;
	int r, ms;

	pfd[0].fd = c->fd;
	pfd[0].events = events;
	n = 1;
	if (c->stopfd >= 0) {
		pfd[1].fd = c->stopfd;
		pfd[1].events = POLLIN;
		n = 2;
	}
	for (;;) {
		pfd[0].revents = 0;
		if (n == 2)
			pfd[1].revents = 0;
		ms = HXC_PollMs(deadline);
		r = poll(pfd, n, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			c->err = errno;
			return (HX_IO_ERROR);
		}
		if (n == 2 && pfd[1].revents != 0)
			return (HX_IO_STOPPED);
		if (pfd[0].revents != 0)
			return (HX_IO_OK);
		if (ms >= 0 && HX_Now() >= deadline)
			return (HX_IO_TIMEOUT);
	}
}

enum hx_io
HXC_Write(struct hx_conn *c, const void *ptr, size_t len, double deadline)
{
	const char *p;
	enum hx_io r;
	ssize_t n;

	assert(c->magic == HX_CONN_MAGIC);
	p = ptr;
	while (len > 0) {
		n = send(c->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			r = hxc_wait(c, POLLOUT, deadline);
			if (r != HX_IO_OK)
				return (r);
			continue;
		}
		c->err = errno;
		if (errno == EPIPE || errno == ECONNRESET)
			return (HX_IO_RESET);
		return (HX_IO_ERROR);
	}
	return (HX_IO_OK);
}

/* Make room for at least want more bytes after buf[len]. */
static int
hxc_reserve(struct hx_conn *c, size_t want)
{
	size_t nsize;
	char *nbuf;

	if (c->off == c->len)
		c->off = c->len = 0;
	if (c->size - c->len >= want)
		return (0);
	if (c->off > 0) {
		memmove(c->buf, c->buf + c->off, c->len - c->off);
		c->len -= c->off;
		c->off = 0;
		if (c->size - c->len >= want)
			return (0);
	}
	nsize = c->size == 0 ? 4096 : c->size;
	while (nsize - c->len < want)
		nsize *= 2;
	nbuf = realloc(c->buf, nsize);
	if (nbuf == NULL)
		return (-1);
	c->buf = nbuf;
	c->size = nsize;
	return (0);
}

/* Read what is there (at least one byte) within the deadline. */
static enum hx_io
hxc_fill(struct hx_conn *c, size_t want, double deadline)
{
	enum hx_io r;
	ssize_t n;

	assert(c->magic == HX_CONN_MAGIC);
	if (c->closed != HX_IO_OK)
		return (c->closed);
	if (hxc_reserve(c, want) != 0) {
		c->err = ENOMEM;
		return (HX_IO_ERROR);
	}
	for (;;) {
		n = recv(c->fd, c->buf + c->len, c->size - c->len,
		    MSG_DONTWAIT);
		if (n > 0) {
			c->len += (size_t)n;
			return (HX_IO_OK);
		}
		if (n == 0) {
			c->closed = HX_IO_EOF;
			return (HX_IO_EOF);
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			r = hxc_wait(c, POLLIN, deadline);
			if (r != HX_IO_OK)
				return (r);
			continue;
		}
		c->err = errno;
		if (errno == ECONNRESET) {
			c->closed = HX_IO_RESET;
			return (HX_IO_RESET);
		}
		return (HX_IO_ERROR);
	}
}

enum hx_io
HXC_Fill(struct hx_conn *c, double deadline)
{

	return (hxc_fill(c, 1024, deadline));
}

static enum hx_io
hxc_parse_error(struct hx_conn *c, const char *fmt, const char *arg)
{

	(void)snprintf(c->why, sizeof c->why, fmt, arg);
	return (HX_IO_PARSE);
}

enum hx_io
HXC_ReadHead(struct hx_conn *c, struct hx_msg *m, int request,
    double deadline)
{
	size_t scanned, hlen;
	enum hx_io r;
	char *p, *e;

	assert(c->magic == HX_CONN_MAGIC);
	assert(m->magic == HX_MSG_MAGIC);
	scanned = 0;
	for (;;) {
		/* A server ignores empty lines before a request line. */
		while (request && scanned == 0 && c->off < c->len &&
		    (c->buf[c->off] == '\r' || c->buf[c->off] == '\n'))
			c->off++;
		p = c->buf + c->off;
		e = c->buf + c->len;
		for (p += scanned; p < e; p++) {
			if (*p != '\n')
				continue;
			if (p + 1 < e && p[1] == '\n')
				p += 1;
			else if (p + 2 < e && p[1] == '\r' && p[2] == '\n')
				p += 2;
			else
				continue;
			hlen = (size_t)(p + 1 - (c->buf + c->off));
			if (HXM_Parse(m, c->buf + c->off, hlen, request,
			    c->why, sizeof c->why) != 0)
				return (HX_IO_PARSE);
			c->off += hlen;
			return (HX_IO_OK);
		}
		scanned = c->len - c->off;
		/* Back off so a terminator cut by the read is found. */
		scanned = scanned > 2 ? scanned - 2 : 0;
		if (c->len - c->off > HXC_MAX_HEAD)
			return (hxc_parse_error(c, "%s",
			    "header section over 1 MB"));
		r = HXC_Fill(c, deadline);
		if (r != HX_IO_OK)
			return (r);
	}
}

/* One line (CRLF or LF stripped), valid until the next fill. */
static enum hx_io
hxc_line(struct hx_conn *c, char **linep, double deadline)
{
	char *nl;
	enum hx_io r;

	for (;;) {
		nl = memchr(c->buf + c->off, '\n', c->len - c->off);
		if (nl != NULL) {
			*nl = '\0';
			if (nl > c->buf + c->off && nl[-1] == '\r')
				nl[-1] = '\0';
			*linep = c->buf + c->off;
			c->off = (size_t)(nl + 1 - c->buf);
			return (HX_IO_OK);
		}
		if (c->len - c->off > HXC_MAX_LINE)
			return (hxc_parse_error(c, "%s",
			    "chunk line over 8 kB"));
		r = HXC_Fill(c, deadline);
		if (r != HX_IO_OK)
			return (r);
	}
}

/* Default sink: collect the body in memory. */
struct hxc_mem {
	unsigned	magic;
#define HXC_MEM_MAGIC	0x8903d232
	char		*p;
	size_t		len;
	size_t		size;
};

static int
hxc_mem_sink(void *priv, const void *data, size_t len)
{
	struct hxc_mem *mem;
	size_t nsize;
	char *np;

	mem = priv;
	assert(mem->magic == HXC_MEM_MAGIC);
	if (mem->size - mem->len < len + 1) {
		nsize = mem->size == 0 ? 4096 : mem->size;
		while (nsize - mem->len < len + 1)
			nsize *= 2;
		np = realloc(mem->p, nsize);
		if (np == NULL)
			return (-1);
		mem->p = np;
		mem->size = nsize;
	}
	memcpy(mem->p + mem->len, data, len);
	mem->len += len;
	mem->p[mem->len] = '\0';
	return (0);
}

/* Pass exactly len bytes to the sink. */
static enum hx_io
hxc_copy(struct hx_conn *c, struct hx_msg *m, uint64_t len, hx_sink_f *sink,
    void *priv, double deadline)
{
	enum hx_io r;
	size_t k;

	while (len > 0) {
		if (c->off == c->len) {
			r = hxc_fill(c, len > HXC_BIG_BUF / 2 ?
			    HXC_BIG_BUF : 1024, deadline);
			if (r != HX_IO_OK)
				return (r);
		}
		k = c->len - c->off;
		if (k > len)
			k = (size_t)len;
		if (sink(priv, c->buf + c->off, k) != 0) {
			c->err = ECANCELED;
			return (HX_IO_ERROR);
		}
		c->off += k;
		m->bodylen += k;
		len -= k;
	}
	return (HX_IO_OK);
}

static enum hx_io
hxc_trailers(struct hx_conn *c, struct hx_msg *m, double deadline)
{
	struct hx_hdr *nt;
	char *line, *colon, *dup;
	enum hx_io r;

	for (;;) {
		r = hxc_line(c, &line, deadline);
		if (r != HX_IO_OK)
			return (r);
		if (*line == '\0')
			return (HX_IO_OK);
		colon = strchr(line, ':');
		if (colon == NULL || colon == line)
			return (hxc_parse_error(c, "bad trailer \"%.60s\"",
			    line));
		nt = realloc(m->trailer, (m->ntrailer + 1) * sizeof *nt);
		if (nt == NULL)
			return (HX_IO_ERROR);
		m->trailer = nt;
		/* One allocation: the name, a NUL, the value. */
		dup = strdup(line);
		if (dup == NULL)
			return (HX_IO_ERROR);
		colon = dup + (colon - line);
		*colon++ = '\0';
		while (*colon == ' ' || *colon == '\t')
			colon++;
		nt[m->ntrailer].name = dup;
		nt[m->ntrailer].value = colon;
		m->ntrailer++;
	}
}

static enum hx_io
hxc_chunked(struct hx_conn *c, struct hx_msg *m, hx_sink_f *sink,
    void *priv, double deadline)
{
	unsigned long long size;
	char *line, *end;
	enum hx_io r;

	for (;;) {
		r = hxc_line(c, &line, deadline);
		if (r != HX_IO_OK)
			return (r);
		errno = 0;
		size = strtoull(line, &end, 16);
		if (end == line || errno != 0 || line[0] == '-' ||
		    (*end != '\0' && *end != ';' && *end != ' ' &&
		    *end != '\t'))
			return (hxc_parse_error(c, "bad chunk size \"%.60s\"",
			    line));
		if (size == 0)
			return (hxc_trailers(c, m, deadline));
		m->nchunk++;
		r = hxc_copy(c, m, size, sink, priv, deadline);
		if (r != HX_IO_OK)
			return (r);
		r = hxc_line(c, &line, deadline);
		if (r != HX_IO_OK)
			return (r);
		if (*line != '\0')
			return (hxc_parse_error(c, "chunk data overrun "
			    "\"%.60s\"", line));
	}
}

static enum hx_io
hxc_until_eof(struct hx_conn *c, struct hx_msg *m, hx_sink_f *sink,
    void *priv, double deadline)
{
	enum hx_io r;
	size_t k;

	for (;;) {
		k = c->len - c->off;
		if (k > 0) {
			if (sink(priv, c->buf + c->off, k) != 0) {
				c->err = ECANCELED;
				return (HX_IO_ERROR);
			}
			c->off += k;
			m->bodylen += k;
		}
		r = hxc_fill(c, HXC_BIG_BUF, deadline);
		if (r == HX_IO_EOF)
			return (HX_IO_OK);
		if (r != HX_IO_OK)
			return (r);
	}
}

enum hx_io
HXC_ReadBody(struct hx_conn *c, struct hx_msg *m, enum hx_body kind,
    uint64_t length, hx_sink_f *sink, void *priv, double deadline)
{
	struct hxc_mem mem;
	enum hx_io r;

	assert(c->magic == HX_CONN_MAGIC);
	assert(m->magic == HX_MSG_MAGIC);
	m->body_kind = kind;
	memset(&mem, 0, sizeof mem);
	mem.magic = HXC_MEM_MAGIC;
	if (sink == NULL) {
		sink = hxc_mem_sink;
		priv = &mem;
		/* An empty body is "", not NULL. */
		if (hxc_mem_sink(&mem, "", 0) != 0)
			return (HX_IO_ERROR);
	}
	switch (kind) {
	case HX_BODY_NONE:
		r = HX_IO_OK;
		break;
	case HX_BODY_LENGTH:
		r = hxc_copy(c, m, length, sink, priv, deadline);
		break;
	case HX_BODY_CHUNKED:
		r = hxc_chunked(c, m, sink, priv, deadline);
		break;
	case HX_BODY_EOF:
		r = hxc_until_eof(c, m, sink, priv, deadline);
		break;
	default:
		r = HX_IO_ERROR;
		break;
	}
	if (sink == hxc_mem_sink)
		m->body = mem.p;
	return (r);
}

enum hx_io
HXC_WaitClose(struct hx_conn *c, int discard, double deadline)
{
	enum hx_io r;

	assert(c->magic == HX_CONN_MAGIC);
	for (;;) {
		if (discard)
			c->off = c->len = 0;
		r = hxc_fill(c, discard ? HXC_BIG_BUF : 1024, deadline);
		if (r != HX_IO_OK)
			return (r);
	}
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * origin.c -- the scripted origin server veneerd fetches from.  One
 * acceptor thread on 127.0.0.1:0 and one thread per connection, which
 * reads requests (keep-alive, bodies by Content-Length or chunked),
 * records each, and lets the test's handler answer.
 *
 * Locking: origin->mtx guards the connection list, the counts and the
 * recorded requests; a connection's socket belongs to its thread.
 * Stopping: ORIGIN_Free writes to the stop pipe, which every wait of every
 * origin thread polls, so a stuck peer or a stalled handler cannot keep
 * the origin alive; then it joins all threads.
 */

#include "config.h"

#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "lib/harness.h"

struct origin_conn {
	unsigned		magic;
#define ORIGIN_CONN_MAGIC	0x8e59a619
	struct origin		*origin;
	struct hx_conn		conn;		/* owner thread */
	unsigned		id;		/* const after accept */
	unsigned		nreq;		/* owner thread */
	int			dead;		/* owner thread: no output */
	int			closing;	/* owner thread */
	/* ORIGIN_TakeProxy: the raw PROXY header it began with */
	unsigned char		*proxy;		/* origin->mtx */
	size_t			proxy_len;	/* origin->mtx */
	pthread_t		thread;
	int			started;	/* origin->mtx */
	struct origin_conn	*next;		/* origin->mtx */
};

struct origin {
	unsigned		magic;
#define ORIGIN_MAGIC		0xb3ad980b
	int			lfd;		/* const after New */
	int			port;		/* const after New */
	int			stop[2];	/* pipe; [1] written once */
	origin_handler_f	*handler;	/* const after New */
	void			*priv;		/* const after New */
	pthread_t		acceptor;
	pthread_mutex_t		mtx;
	pthread_cond_t		cond;		/* nreq or nopen changed */
	struct origin_conn	*conns;		/* mtx */
	unsigned		nconn;		/* mtx */
	unsigned		nopen;		/* mtx */
	struct hx_msg		**reqs;		/* mtx */
	unsigned		nreq;		/* mtx */
	unsigned		reqspace;	/* mtx */
	unsigned		nerr;		/* mtx */
	int			take_proxy;	/* before traffic */
};

static const struct {
	int		status;
	const char	*reason;
} origin_reasons[] = {
	{ 100, "Continue" }, { 103, "Early Hints" }, { 200, "OK" },
	{ 201, "Created" }, { 204, "No Content" },
	{ 206, "Partial Content" }, { 301, "Moved Permanently" },
	{ 302, "Found" }, { 304, "Not Modified" },
	{ 400, "Bad Request" }, { 403, "Forbidden" }, { 404, "Not Found" },
	{ 500, "Internal Server Error" }, { 502, "Bad Gateway" },
	{ 503, "Service Unavailable" },
};

static const char *
origin_reason(int status)
{
	size_t u;

	for (u = 0; u < sizeof origin_reasons / sizeof origin_reasons[0];
	    u++)
		if (origin_reasons[u].status == status)
			return (origin_reasons[u].reason);
	return ("Scripted");
}

static void
origin_note(struct origin *o, const char *fmt, ...) HX_PRINTFLIKE(2, 3);

static void
origin_note(struct origin *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	HX_Log("origin :%d: %s", o->port, buf);
	(void)pthread_mutex_lock(&o->mtx);
	o->nerr++;
	(void)pthread_mutex_unlock(&o->mtx);
}

void
ORIGIN_Note(struct origin_conn *oc, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	assert(oc != NULL && oc->magic == ORIGIN_CONN_MAGIC);
	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	origin_note(oc->origin, "conn %u: %s", oc->id, buf);
}

/*--------------------------------------------------------------------
 * Output, for handlers.
 */

int
ORIGIN_Send(struct origin_conn *oc, const void *p, size_t len)
{

	assert(oc != NULL && oc->magic == ORIGIN_CONN_MAGIC);
	if (oc->dead)
		return (-1);
	if (HXC_Write(&oc->conn, p, len, HUGE_VAL) != HX_IO_OK) {
		oc->dead = 1;
		return (-1);
	}
	return (0);
}

int
ORIGIN_Printf(struct origin_conn *oc, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len, r;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0)
		return (-1);
	r = ORIGIN_Send(oc, s, (size_t)len);
	free(s);
	return (r);
}

int
ORIGIN_Head(struct origin_conn *oc, int status, const char *hdrs)
{

	return (ORIGIN_Printf(oc, "HTTP/1.1 %d %s\r\n%s\r\n", status,
	    origin_reason(status), hdrs == NULL ? "" : hdrs));
}

int
ORIGIN_Respond(struct origin_conn *oc, int status, const char *hdrs,
    const void *body, ssize_t len)
{
	char *head;
	size_t hlen, blen;
	int n, r;

	if (hdrs == NULL)
		hdrs = "";
	blen = body == NULL ? 0 : len < 0 ? strlen(body) : (size_t)len;
	hlen = strlen(hdrs) + 128;
	head = malloc(hlen + blen);
	if (head == NULL)
		return (-1);
	if (HX_HasField(hdrs, "Content-Length") ||
	    HX_HasField(hdrs, "Transfer-Encoding") ||
	    status < 200 || status == 204 || status == 304)
		n = snprintf(head, hlen, "HTTP/1.1 %d %s\r\n%s\r\n", status,
		    origin_reason(status), hdrs);
	else
		n = snprintf(head, hlen, "HTTP/1.1 %d %s\r\n%s"
		    "Content-Length: %zu\r\n\r\n", status,
		    origin_reason(status), hdrs, blen);
	assert(n > 0 && (size_t)n < hlen);
	/* One write: head and body reach the peer together. */
	if (blen > 0)
		memcpy(head + n, body, blen);
	r = ORIGIN_Send(oc, head, (size_t)n + blen);
	free(head);
	return (r);
}

int
ORIGIN_Chunk(struct origin_conn *oc, const void *p, size_t len)
{
	char line[32];
	int n;

	if (len == 0)
		return (0);		/* a zero chunk ends the body */
	n = snprintf(line, sizeof line, "%zx\r\n", len);
	if (ORIGIN_Send(oc, line, (size_t)n) != 0 ||
	    ORIGIN_Send(oc, p, len) != 0 ||
	    ORIGIN_Send(oc, "\r\n", 2) != 0)
		return (-1);
	return (0);
}

int
ORIGIN_ChunkEnd(struct origin_conn *oc, const char *trailers)
{

	return (ORIGIN_Printf(oc, "0\r\n%s\r\n",
	    trailers == NULL ? "" : trailers));
}

int
ORIGIN_SendPattern(struct origin_conn *oc, uint64_t offset, uint64_t len)
{
	const size_t bsize = 256 * 1024;
	char *buf;
	size_t k;
	int r;

	buf = malloc(bsize);
	if (buf == NULL)
		return (-1);
	r = 0;
	while (len > 0 && r == 0) {
		k = len > bsize ? bsize : (size_t)len;
		HX_Pattern(buf, offset, k);
		r = ORIGIN_Send(oc, buf, k);
		offset += k;
		len -= k;
	}
	free(buf);
	return (r);
}

int
ORIGIN_Stall(struct origin_conn *oc, double seconds)
{
	struct pollfd pfd[2];
	double deadline;
	int r;

	assert(oc != NULL && oc->magic == ORIGIN_CONN_MAGIC);
	deadline = HX_Now() + seconds;
	pfd[0].fd = oc->origin->stop[0];
	pfd[0].events = POLLIN;
	/* A peer that hangs up ends the stall: nobody is waiting. */
	pfd[1].fd = oc->dead ? -1 : oc->conn.fd;
	pfd[1].events = POLLRDHUP;
	for (;;) {
		r = poll(pfd, 2, HXC_PollMs(deadline));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || pfd[0].revents != 0)
			return (-1);
		if (pfd[1].revents != 0) {
			oc->dead = 1;
			return (-1);
		}
		if (HX_Now() >= deadline)
			return (0);
	}
}

void
ORIGIN_Close(struct origin_conn *oc)
{

	assert(oc != NULL && oc->magic == ORIGIN_CONN_MAGIC);
	oc->closing = 1;
	if (oc->conn.fd >= 0)
		(void)shutdown(oc->conn.fd, SHUT_WR);
}

void
ORIGIN_Reset(struct origin_conn *oc)
{
	struct linger lg;

	assert(oc != NULL && oc->magic == ORIGIN_CONN_MAGIC);
	oc->closing = 1;
	oc->dead = 1;
	if (oc->conn.fd < 0)
		return;
	lg.l_onoff = 1;
	lg.l_linger = 0;
	(void)setsockopt(oc->conn.fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	(void)close(oc->conn.fd);
	oc->conn.fd = -1;
}

unsigned
ORIGIN_ConnId(const struct origin_conn *oc)
{

	assert(oc != NULL && oc->magic == ORIGIN_CONN_MAGIC);
	return (oc->id);
}

void *
ORIGIN_Priv(const struct origin_conn *oc)
{

	assert(oc != NULL && oc->magic == ORIGIN_CONN_MAGIC);
	return (oc->origin->priv);
}

void
ORIGIN_DefaultHandler(struct origin_conn *oc, const struct hx_msg *req,
    void *priv)
{
	char hdrs[512];

	(void)priv;
	if (strcmp(req->method, "HEAD") == 0) {
		(void)snprintf(hdrs, sizeof hdrs, "Content-Type: text/plain\r\n"
		    "X-Url: %.200s\r\nContent-Length: %zu\r\n", req->url,
		    strlen(req->url));
		(void)ORIGIN_Head(oc, 200, hdrs);
		return;
	}
	(void)snprintf(hdrs, sizeof hdrs, "Content-Type: text/plain\r\n"
	    "X-Url: %.200s\r\n", req->url);
	(void)ORIGIN_Respond(oc, 200, hdrs, req->url, -1);
}

/*--------------------------------------------------------------------
 * The connection threads.
 */

/* How the request's body is framed; -1 (noted) if it cannot be read. */
static int
origin_framing(struct origin_conn *oc, const struct hx_msg *m,
    enum hx_body *kind, uint64_t *len)
{
	const char *te, *cl;
	unsigned u;
	char *end;

	*kind = HX_BODY_NONE;
	*len = 0;
	te = HX_Header(m, "Transfer-Encoding");
	cl = HX_Header(m, "Content-Length");
	if (te != NULL && cl != NULL)
		ORIGIN_Note(oc, "request %s has both Content-Length and "
		    "Transfer-Encoding", m->url);
	if (te != NULL) {
		if (HX_HeaderCount(m, "Transfer-Encoding") != 1 ||
		    strcasecmp(te, "chunked") != 0) {
			ORIGIN_Note(oc, "request %s: Transfer-Encoding \"%s\" "
			    "not understood", m->url, te);
			return (-1);
		}
		*kind = HX_BODY_CHUNKED;
		return (0);
	}
	if (cl == NULL)
		return (0);
	for (u = 0; u < m->nhdr; u++)
		if (strcasecmp(m->hdr[u].name, "Content-Length") == 0 &&
		    strcmp(m->hdr[u].value, cl) != 0) {
			ORIGIN_Note(oc, "request %s: Content-Length %s and %s",
			    m->url, cl, m->hdr[u].value);
			return (-1);
		}
	errno = 0;
	*len = strtoull(cl, &end, 10);
	if (*cl < '0' || *cl > '9' || *end != '\0' || errno != 0) {
		ORIGIN_Note(oc, "request %s: bad Content-Length \"%s\"",
		    m->url, cl);
		return (-1);
	}
	*kind = HX_BODY_LENGTH;
	return (0);
}

static void
origin_record(struct origin *o, struct hx_msg *m)
{
	struct hx_msg **nr;
	unsigned nspace;

	(void)pthread_mutex_lock(&o->mtx);
	if (o->nreq == o->reqspace) {
		nspace = o->reqspace == 0 ? 64 : o->reqspace * 2;
		nr = realloc(o->reqs, nspace * sizeof *nr);
		assert(nr != NULL);
		o->reqs = nr;
		o->reqspace = nspace;
	}
	o->reqs[o->nreq++] = m;
	(void)pthread_cond_broadcast(&o->cond);
	(void)pthread_mutex_unlock(&o->mtx);
}

/* Read one request; NULL when the connection is over. */
static struct hx_msg *
origin_read_req(struct origin_conn *oc)
{
	struct hx_msg *m;
	enum hx_body kind;
	uint64_t len;
	enum hx_io r;

	m = calloc(1, sizeof *m);
	assert(m != NULL);
	m->magic = HX_MSG_MAGIC;
	r = HXC_ReadHead(&oc->conn, m, 1, HUGE_VAL);
	if (r == HX_IO_PARSE)
		ORIGIN_Note(oc, "bad request: %s", oc->conn.why);
	else if (r == HX_IO_EOF && oc->conn.len > oc->conn.off)
		ORIGIN_Note(oc, "closed in the middle of a request head");
	if (r != HX_IO_OK || origin_framing(oc, m, &kind, &len) != 0) {
		HX_MsgFree(&m);
		return (NULL);
	}
	if (kind != HX_BODY_NONE &&
	    HX_HeaderHasToken(m, "Expect", "100-continue") &&
	    ORIGIN_Send(oc, "HTTP/1.1 100 Continue\r\n\r\n", 25) != 0) {
		HX_MsgFree(&m);
		return (NULL);
	}
	r = HXC_ReadBody(&oc->conn, m, kind, len, NULL, NULL, HUGE_VAL);
	if (r != HX_IO_OK) {
		if (r != HX_IO_STOPPED)
			ORIGIN_Note(oc, "request %s body: %s %s", m->url,
			    HX_IoName(r), r == HX_IO_PARSE ? oc->conn.why :
			    "");
		HX_MsgFree(&m);
		return (NULL);
	}
	m->conn_id = oc->id;
	m->conn_req = ++oc->nreq;
	return (m);
}

/*
 * ORIGIN_TakeProxy: the PROXY header (v1: "PROXY ...\r\n", at most 107
 * bytes; v2: the 12-byte signature, 4 more, and the length they give)
 * off the front of the connection, kept raw for ORIGIN_ProxyHeader.
 * 0, or -1 (noted) when the connection starts otherwise.
 */
static int
origin_take_proxy(struct origin_conn *oc)
{
	static const unsigned char sig[12] = "\r\n\r\n\0\r\nQUIT\n";
	struct hx_conn *c = &oc->conn;
	const unsigned char *p;
	const char *e;
	size_t have, need = 0;
	unsigned char *copy;

	for (;;) {
		p = (const unsigned char *)c->buf + c->off;
		have = c->len - c->off;
		if (have >= 16 && !memcmp(p, sig, sizeof sig))
			need = 16 + ((size_t)p[14] << 8 | p[15]);
		else if (have >= 16 && !memcmp(p, "PROXY ", 6)) {
			e = memmem(p, have < 107 ? have : 107, "\r\n", 2);
			if (e != NULL)
				need = (size_t)(e + 2 - (const char *)p);
			else if (have >= 107)
				break;
		} else if (have >= 16)
			break;
		if (need > 0 && have >= need) {
			copy = malloc(need);
			assert(copy != NULL);
			memcpy(copy, p, need);
			c->off += need;
			(void)pthread_mutex_lock(&oc->origin->mtx);
			oc->proxy = copy;
			oc->proxy_len = need;
			(void)pthread_mutex_unlock(&oc->origin->mtx);
			return (0);
		}
		if (HXC_Fill(c, HUGE_VAL) != HX_IO_OK) {
			if (have > 0)
				ORIGIN_Note(oc, "closed within the PROXY "
				    "header");
			return (-1);
		}
	}
	ORIGIN_Note(oc, "no PROXY header: starts \"%.16s\"", p);
	return (-1);
}

static void *
origin_conn_thread(void *arg)
{
	struct origin_conn *oc;
	struct origin *o;
	struct hx_msg *m;
	int keep;

	oc = arg;
	assert(oc->magic == ORIGIN_CONN_MAGIC);
	o = oc->origin;
	/* take_proxy: set before the first accept, under o->mtx. */
	if (o->take_proxy && origin_take_proxy(oc) != 0)
		m = NULL;
	else
		m = origin_read_req(oc);
	for (; m != NULL; m = origin_read_req(oc)) {
		keep = !HX_HeaderHasToken(m, "Connection", "close") &&
		    (strcmp(m->proto, "HTTP/1.0") != 0 ||
		    HX_HeaderHasToken(m, "Connection", "keep-alive"));
		origin_record(o, m);	/* o->reqs owns m now */
		o->handler(oc, m, o->priv);
		if (!keep || oc->closing || oc->dead)
			break;
	}
	(void)pthread_mutex_lock(&o->mtx);
	HXC_Fini(&oc->conn);
	o->nopen--;
	(void)pthread_cond_broadcast(&o->cond);
	(void)pthread_mutex_unlock(&o->mtx);
	return (NULL);
}

static void
origin_accept_one(struct origin *o)
{
	struct origin_conn *oc;
	int fd, one;

	fd = accept4(o->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EINTR &&
		    errno != ECONNABORTED) {
			origin_note(o, "accept: %s", strerror(errno));
			/* Out of fds or memory: do not spin on it. */
			(void)poll(NULL, 0, 10);
		}
		return;
	}
	one = 1;
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	oc = calloc(1, sizeof *oc);
	assert(oc != NULL);
	oc->magic = ORIGIN_CONN_MAGIC;
	oc->origin = o;
	HXC_Init(&oc->conn, fd, o->stop[0]);
	(void)pthread_mutex_lock(&o->mtx);
	oc->id = ++o->nconn;
	o->nopen++;
	oc->next = o->conns;
	o->conns = oc;
	oc->started = pthread_create(&oc->thread, NULL, origin_conn_thread,
	    oc) == 0;
	if (!oc->started) {
		HXC_Fini(&oc->conn);
		o->nopen--;
	}
	(void)pthread_mutex_unlock(&o->mtx);
	if (!oc->started)
		origin_note(o, "cannot start a connection thread");
}

static void *
origin_acceptor(void *arg)
{
	struct pollfd pfd[2];
	struct origin *o;
	int r;

	o = arg;
	pfd[0].fd = o->lfd;
	pfd[0].events = POLLIN;
	pfd[1].fd = o->stop[0];
	pfd[1].events = POLLIN;
	for (;;) {
		r = poll(pfd, 2, -1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || pfd[1].revents != 0)
			break;
		if (pfd[0].revents != 0)
			origin_accept_one(o);
	}
	return (NULL);
}

/*--------------------------------------------------------------------
 * The test thread's side.
 */

struct origin *
ORIGIN_New(origin_handler_f *handler, void *priv)
{

	return (ORIGIN_NewAt(handler, priv, "127.0.0.1", 0));
}

struct origin *
ORIGIN_NewAt(origin_handler_f *handler, void *priv, const char *addr,
    int port)
{
	struct sockaddr_in sin;
	pthread_condattr_t ca;
	struct origin *o;
	socklen_t sl;

	o = calloc(1, sizeof *o);
	ck_assert_msg(o != NULL, "out of memory");
	o->magic = ORIGIN_MAGIC;
	o->handler = handler != NULL ? handler : ORIGIN_DefaultHandler;
	o->priv = priv;
	ck_assert_msg(pipe2(o->stop, O_CLOEXEC) == 0, "pipe: %s",
	    strerror(errno));
	o->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);
	ck_assert_msg(o->lfd >= 0, "socket: %s", strerror(errno));
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	ck_assert_msg(inet_pton(AF_INET, addr, &sin.sin_addr) == 1,
	    "origin: %s is not an IPv4 address", addr);
	sin.sin_port = htons((uint16_t)port);
	sl = sizeof sin;
	ck_assert_msg(bind(o->lfd, (struct sockaddr *)&sin, sizeof sin) == 0 &&
	    listen(o->lfd, 1024) == 0 &&
	    getsockname(o->lfd, (struct sockaddr *)&sin, &sl) == 0,
	    "origin: cannot listen on %s:%d: %s", addr, port,
	    strerror(errno));
	o->port = ntohs(sin.sin_port);
	(void)pthread_mutex_init(&o->mtx, NULL);
	(void)pthread_condattr_init(&ca);
	(void)pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	(void)pthread_cond_init(&o->cond, &ca);
	(void)pthread_condattr_destroy(&ca);
	ck_assert_msg(pthread_create(&o->acceptor, NULL, origin_acceptor,
	    o) == 0, "origin: cannot start the acceptor thread");
	return (o);
}

void
ORIGIN_Free(struct origin **op)
{
	struct origin_conn *oc;
	struct origin *o;
	unsigned u;

	o = *op;
	*op = NULL;
	if (o == NULL)
		return;
	assert(o->magic == ORIGIN_MAGIC);
	/* Every origin wait polls stop[0]: one byte wakes them all. */
	if (write(o->stop[1], "x", 1) != 1)
		HX_Log("origin: cannot write the stop pipe: %s",
		    strerror(errno));
	(void)pthread_join(o->acceptor, NULL);
	/* The acceptor is gone: the list no longer changes. */
	while ((oc = o->conns) != NULL) {
		o->conns = oc->next;
		if (oc->started)
			(void)pthread_join(oc->thread, NULL);
		oc->magic = 0;
		free(oc->proxy);
		free(oc);
	}
	for (u = 0; u < o->nreq; u++)
		HX_MsgFree(&o->reqs[u]);
	free(o->reqs);
	(void)close(o->lfd);
	(void)close(o->stop[0]);
	(void)close(o->stop[1]);
	(void)pthread_cond_destroy(&o->cond);
	(void)pthread_mutex_destroy(&o->mtx);
	o->magic = 0;
	free(o);
}

void
ORIGIN_TakeProxy(struct origin *o)
{

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	(void)pthread_mutex_lock(&o->mtx);
	ck_assert_msg(o->nconn == 0, "ORIGIN_TakeProxy after a connection");
	o->take_proxy = 1;
	(void)pthread_mutex_unlock(&o->mtx);
}

const void *
ORIGIN_ProxyHeader(struct origin *o, unsigned conn_id, size_t *lenp)
{
	struct origin_conn *oc;
	const void *p = NULL;

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	*lenp = 0;
	(void)pthread_mutex_lock(&o->mtx);
	for (oc = o->conns; oc != NULL; oc = oc->next) {
		if (oc->id != conn_id)
			continue;
		p = oc->proxy;
		*lenp = oc->proxy_len;
	}
	(void)pthread_mutex_unlock(&o->mtx);
	return (p);
}

int
ORIGIN_Port(const struct origin *o)
{

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	return (o->port);
}

static unsigned
origin_get(struct origin *o, const unsigned *field)
{
	unsigned v;

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	(void)pthread_mutex_lock(&o->mtx);
	v = *field;
	(void)pthread_mutex_unlock(&o->mtx);
	return (v);
}

unsigned
ORIGIN_NConn(struct origin *o)
{

	return (origin_get(o, &o->nconn));
}

unsigned
ORIGIN_NOpen(struct origin *o)
{

	return (origin_get(o, &o->nopen));
}

unsigned
ORIGIN_NReq(struct origin *o)
{

	return (origin_get(o, &o->nreq));
}

unsigned
ORIGIN_NErr(struct origin *o)
{

	return (origin_get(o, &o->nerr));
}

const struct hx_msg *
ORIGIN_Req(struct origin *o, unsigned i)
{
	const struct hx_msg *m;

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	(void)pthread_mutex_lock(&o->mtx);
	m = i < o->nreq ? o->reqs[i] : NULL;
	(void)pthread_mutex_unlock(&o->mtx);
	ck_assert_msg(m != NULL, "origin: no request #%u (%u received)", i,
	    ORIGIN_NReq(o));
	return (m);
}

const struct hx_msg *
ORIGIN_FindReq(struct origin *o, const char *url)
{
	const struct hx_msg *m;
	unsigned u;

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	m = NULL;
	(void)pthread_mutex_lock(&o->mtx);
	for (u = o->nreq; u > 0 && m == NULL; u--)
		if (strcmp(o->reqs[u - 1]->url, url) == 0)
			m = o->reqs[u - 1];
	(void)pthread_mutex_unlock(&o->mtx);
	return (m);
}

/* Wait until *field reaches want (up) or falls to want (down). */
static int
origin_wait(struct origin *o, const unsigned *field, unsigned want, int up,
    double timeout)
{
	struct timespec ts;
	double deadline;
	int ok;

	deadline = HX_Now() + timeout;
	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)timeout;
	ts.tv_nsec += (long)((timeout - floor(timeout)) * 1e9);
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	(void)pthread_mutex_lock(&o->mtx);
	for (;;) {
		ok = up ? *field >= want : *field <= want;
		if (ok || HX_Now() >= deadline)
			break;
		(void)pthread_cond_timedwait(&o->cond, &o->mtx, &ts);
	}
	(void)pthread_mutex_unlock(&o->mtx);
	return (ok);
}

void
ORIGIN_WaitReqs(struct origin *o, unsigned n, double timeout)
{

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	if (!origin_wait(o, &o->nreq, n, 1, timeout))
		ck_abort_msg("origin: %u requests after %.1f s, want %u",
		    ORIGIN_NReq(o), timeout, n);
}

void
ORIGIN_WaitIdle(struct origin *o, double timeout)
{

	assert(o != NULL && o->magic == ORIGIN_MAGIC);
	if (!origin_wait(o, &o->nopen, 0, 0, timeout))
		ck_abort_msg("origin: %u connections still open after %.1f s",
		    ORIGIN_NOpen(o), timeout);
}

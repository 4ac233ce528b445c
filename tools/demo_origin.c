/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * demo_origin.c -- a small origin web server to put behind veneerd when
 * trying it out (tools/quickstart.sh starts one).  Its pages show what a
 * caching proxy does: /time may be cached for 10 s, /slow takes 2 s,
 * /private must not be shared, /big sends any number of bytes, /headers
 * echoes the request as the origin saw it.
 *
 * HTTP/1.1 with keep-alive and pipelining; request bodies with
 * Content-Length are read and thrown away; chunked request bodies are
 * refused (411).  One thread per connection, at most CONN_MAX of them.
 * Threads share only two atomic counters.  Uses libc and pthreads only,
 * so it does not link Veneer's code: assert() here is <assert.h>'s, and
 * magic numbers are checked by hand.
 */

#include "config.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <arpa/inet.h>

#include <assert.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define HEAD_MAX	16384		/* request line + headers, bytes */
#define HDR_MAX		64		/* header fields per request */
#define OUT_MAX		(HEAD_MAX + 8192) /* a page; /headers fits */
#define CONN_MAX	1000		/* connections (threads) at once */
#define IDLE_TIMEOUT	60		/* s of silence before we close */
#define BODY_MAX	((uint64_t)1 << 30) /* request body we will drain */
#define BIG_MAX		((uint64_t)1 << 30) /* largest /big?size= */
#define BIG_DEFAULT	((uint64_t)1 << 20)

struct text {
	unsigned		magic;
#define TEXT_MAGIC		0xabad0e3d
	char			*buf;		/* not owned */
	size_t			size;
	size_t			len;
	int			overflow;	/* sticky */
};

struct conn {
	unsigned		magic;
#define CONN_MAGIC		0xd9f1101f
	int			fd;		/* owned, closed by conn_free */
	char			peer[INET6_ADDRSTRLEN + 8];
	size_t			len;		/* bytes in in[] */
	char			in[HEAD_MAX];
	char			out[OUT_MAX];	/* a page's body */
};

/*
 * header, response and route are plain values inside a checked struct or
 * a const table, so they carry no magic of their own.
 */

struct header {
	const char		*name;		/* in conn->in */
	const char		*value;		/* in conn->in */
};

struct response {
	int			status;
	const char		*content_type;
	const char		*cache_control;	/* NULL: none */
	const char		*extra;		/* a header line or NULL */
	const char		*body;		/* NULL: filler bytes */
	size_t			body_len;
};

struct request {
	unsigned		magic;
#define REQUEST_MAGIC		0x86a8b4eb
	struct conn		*conn;
	const char		*method;	/* in conn->in, like below */
	const char		*target;
	const char		*version;
	size_t			path_len;	/* target up to '?' */
	const char		*query;		/* after '?' or NULL */
	int			http11;
	int			keepalive;	/* client wants it */
	int			expect_continue;
	int			chunked;
	uint64_t		content_length;
	unsigned		nhdr;
	struct header		hdr[HDR_MAX];
	struct response		resp;		/* the page fills it */
};

typedef void page_f(struct request *);

/* pthread_attr_* fail only on bad arguments, which would be our bug. */
#define ASSERT_PTHREAD(call)						\
	do {								\
		int assert_rc_ = (call);				\
		assert(assert_rc_ == 0);				\
		(void)assert_rc_;	/* unused with NDEBUG */	\
	} while (0)

static atomic_ulong	requests_served;	/* atomic, relaxed */
static atomic_int	conns_open;		/* atomic, relaxed */
static int		quiet;			/* const after main() */

/*--------------------------------------------------------------------
 * Small text buffers: append with printf, overflow is sticky.
 */

static void text_printf(struct text *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static void
text_init(struct text *t, char *buf, size_t size)
{

	assert(size > 0);
	t->magic = TEXT_MAGIC;
	t->buf = buf;
	t->size = size;
	t->len = 0;
	t->overflow = 0;
	buf[0] = '\0';
}

static void
text_printf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	assert(t != NULL && t->magic == TEXT_MAGIC);
	if (t->overflow)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->size - t->len) {
		t->overflow = 1;
		t->buf[t->len] = '\0';
		return;
	}
	t->len += (size_t)n;
}

/*--------------------------------------------------------------------
 * Socket I/O.  Timeouts come from SO_RCVTIMEO/SO_SNDTIMEO.
 */

/* Send all of iov; returns 0, or -1 when the peer is gone or too slow. */
static int
send_iov(int fd, struct iovec *iov, int niov)
{
	struct msghdr msg;
	ssize_t n;

	while (niov > 0) {
		memset(&msg, 0, sizeof msg);
		msg.msg_iov = iov;
		msg.msg_iovlen = (size_t)niov;
		n = sendmsg(fd, &msg, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (-1);
		while (niov > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			niov--;
		}
		if (niov > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return (0);
}

static int
send_all(int fd, const void *p, size_t len)
{
	struct iovec iov;

	iov.iov_base = (void *)(uintptr_t)p;	/* sendmsg does not write */
	iov.iov_len = len;
	return (send_iov(fd, &iov, 1));
}

/* Read once into buf; returns bytes, 0 at EOF, -1 on error or timeout. */
static ssize_t
recv_some(int fd, char *buf, size_t len)
{
	ssize_t n;

	do
		n = recv(fd, buf, len, 0);
	while (n < 0 && errno == EINTR);
	return (n);
}

/*--------------------------------------------------------------------
 * Responses.
 */

static const char *
reason_phrase(int status)
{

	switch (status) {
	case 200: return ("OK");
	case 400: return ("Bad Request");
	case 404: return ("Not Found");
	case 405: return ("Method Not Allowed");
	case 411: return ("Length Required");
	case 413: return ("Content Too Large");
	case 431: return ("Request Header Fields Too Large");
	case 500: return ("Internal Server Error");
	case 503: return ("Service Unavailable");
	case 505: return ("HTTP Version Not Supported");
	default: return ("Unknown");
	}
}

static void
http_date(char *buf, size_t len, time_t t)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%a, %d %b %Y %H:%M:%S GMT", &tm) == 0)
		(void)snprintf(buf, len, "Thu, 01 Jan 1970 00:00:00 GMT");
}

/* Send body_len bytes of readable filler, 64-byte lines. */
static int
send_pattern(int fd, size_t len)
{
	static const char line[] =
	    "demo-origin filler: 0123456789abcdefghijklmnopqrstuvwxyz.....\n";
	char chunk[64 * 1024];
	size_t i, n;

	for (i = 0; i < sizeof chunk; i++)
		chunk[i] = line[i % (sizeof line - 1)];
	while (len > 0) {
		n = len < sizeof chunk ? len : sizeof chunk;
		if (send_all(fd, chunk, n) != 0)
			return (-1);
		len -= n;
	}
	return (0);
}

/* The status line and headers of resp, ending with the empty line. */
static void
resp_format_head(struct text *t, const struct response *resp, int keep,
    int http11)
{
	char date[64];

	http_date(date, sizeof date, time(NULL));
	text_printf(t, "HTTP/1.1 %d %s\r\nDate: %s\r\nServer: demo-origin\r\n"
	    "Content-Type: %s\r\nContent-Length: %zu\r\n", resp->status,
	    reason_phrase(resp->status), date, resp->content_type,
	    resp->body_len);
	if (resp->cache_control != NULL)
		text_printf(t, "Cache-Control: %s\r\n", resp->cache_control);
	if (resp->extra != NULL)
		text_printf(t, "%s\r\n", resp->extra);
	if (!keep)
		text_printf(t, "Connection: close\r\n");
	else if (!http11)
		text_printf(t, "Connection: keep-alive\r\n");
	text_printf(t, "\r\n");
	assert(!t->overflow);	/* only our own short strings go in */
}

/*
 * Send req->resp.  Returns 1 to keep the connection, 0 to close it: when
 * either side asked for that, or the send failed.
 */
static int
resp_send(struct request *req, int keep)
{
	const struct response *resp;
	struct iovec iov[2];
	char head[1024];
	struct text t;
	int fd, rc;

	assert(req != NULL && req->magic == REQUEST_MAGIC);
	resp = &req->resp;
	fd = req->conn->fd;
	keep = keep && req->keepalive;
	text_init(&t, head, sizeof head);
	resp_format_head(&t, resp, keep, req->http11);
	iov[0].iov_base = head;
	iov[0].iov_len = t.len;
	if (req->method != NULL && strcmp(req->method, "HEAD") == 0) {
		rc = send_iov(fd, iov, 1);	/* GET's headers, no body */
	} else if (resp->body != NULL) {
		iov[1].iov_base = (void *)(uintptr_t)resp->body;
		iov[1].iov_len = resp->body_len;
		rc = send_iov(fd, iov, 2);
	} else {
		rc = send_iov(fd, iov, 1);
		if (rc == 0)
			rc = send_pattern(fd, resp->body_len);
	}
	if (!quiet)
		fprintf(stderr, "demo-origin: %s \"%s %s\" %d %zu%s\n",
		    req->conn->peer, req->method != NULL ? req->method : "-",
		    req->target != NULL ? req->target : "-", resp->status,
		    resp->body_len, rc == 0 ? "" : " (send failed)");
	return (rc == 0 && keep);
}

/* Refuse a connection before reading a request from it. */
static void
send_refusal(int fd, int status, const char *msg)
{
	struct response resp;
	char head[1024];
	struct text t;
	struct iovec iov[2];

	memset(&resp, 0, sizeof resp);
	resp.status = status;
	resp.content_type = "text/plain; charset=utf-8";
	resp.body_len = strlen(msg);
	text_init(&t, head, sizeof head);
	resp_format_head(&t, &resp, 0, 1);
	iov[0].iov_base = head;
	iov[0].iov_len = t.len;
	iov[1].iov_base = (void *)(uintptr_t)msg;
	iov[1].iov_len = resp.body_len;
	(void)send_iov(fd, iov, 2);	/* closing, sent or not */
}

/* A short text/plain answer, for errors. */
static void
resp_text(struct request *req, int status, const char *msg)
{

	req->resp.status = status;
	req->resp.content_type = "text/plain; charset=utf-8";
	req->resp.cache_control = "no-store";
	req->resp.body = msg;
	req->resp.body_len = strlen(msg);
}

/*--------------------------------------------------------------------
 * The pages.
 */

static const char index_html[] =
"<!DOCTYPE html>\n"
"<html lang=\"en\">\n"
"<head><meta charset=\"utf-8\"><title>Veneer demo origin</title></head>\n"
"<body>\n"
"<h1>Veneer demo origin</h1>\n"
"<p>This is the origin server.  Ask for its pages through the proxy\n"
"(veneerd, on port 6081 in the quickstart) and watch the response\n"
"headers: <code>X-Varnish</code> carries the transaction id (two ids\n"
"when the answer came from the cache), <code>Via</code> names the proxy,\n"
"and <code>Age</code> says how many seconds the answer spent in a\n"
"cache (0: fresh from here).</p>\n"
"<pre>\n"
"curl -i http://127.0.0.1:6081/\n"
"curl -i http://127.0.0.1:6081/time       # cacheable for 10 s\n"
"curl -i http://127.0.0.1:6081/slow       # takes 2 s to make\n"
"curl -i http://127.0.0.1:6081/private    # Cache-Control: private\n"
"curl -i http://127.0.0.1:6081/headers    # what the origin received\n"
"curl -o /dev/null 'http://127.0.0.1:6081/big?size=10m'\n"
"</pre>\n"
"<ul>\n"
"<li><a href=\"/time\">/time</a>: the time and the origin's request\n"
"count; a number that stops growing means a cache answered.</li>\n"
"<li><a href=\"/slow\">/slow</a>: answers after 2 seconds; from a\n"
"cache, at once.</li>\n"
"<li><a href=\"/private\">/private</a>: marked private, so a shared\n"
"cache must send every request here.</li>\n"
"<li><a href=\"/big?size=100000\">/big?size=N</a>: N bytes (suffixes\n"
"k, m, g), to time transfers.</li>\n"
"<li><a href=\"/headers\">/headers</a>: the request as the origin saw\n"
"it, with the X-Forwarded-For and Via headers a proxy adds.</li>\n"
"</ul>\n"
"</body>\n"
"</html>\n";

static void
page_index(struct request *req)
{

	req->resp.content_type = "text/html; charset=utf-8";
	req->resp.cache_control = "max-age=60";
	req->resp.body = index_html;
	req->resp.body_len = sizeof index_html - 1;
}

/*
 * The page: a time stamp and the request count, then fmt.  Only our own
 * short strings go in, so they fit.
 */
static void page_printf(struct request *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static void
page_printf(struct request *req, const char *fmt, ...)
{
	char stamp[64];
	struct tm tm;
	time_t now;
	va_list ap;
	int n;

	now = time(NULL);
	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		stamp[0] = '\0';
	n = snprintf(req->conn->out, sizeof req->conn->out,
	    "%s, origin request #%lu\n", stamp,
	    atomic_load_explicit(&requests_served, memory_order_relaxed));
	assert(n > 0 && (size_t)n < sizeof req->conn->out);
	va_start(ap, fmt);
	n += vsnprintf(req->conn->out + n, sizeof req->conn->out - (size_t)n,
	    fmt, ap);
	va_end(ap);
	assert(n > 0 && (size_t)n < sizeof req->conn->out);
	req->resp.content_type = "text/plain; charset=utf-8";
	req->resp.body = req->conn->out;
	req->resp.body_len = (size_t)n;
}

static void
page_time(struct request *req)
{

	page_printf(req, "Cache-Control: max-age=10: a cache may answer "
	    "this for 10 seconds.\n");
	req->resp.cache_control = "max-age=10";
}

static void
page_slow(struct request *req)
{
	struct timespec ts = { 2, 0 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		continue;
	page_printf(req, "This answer took 2 seconds to make.  "
	    "Cache-Control: max-age=30: from a cache, the next ones for 30 "
	    "seconds take none.\n");
	req->resp.cache_control = "max-age=30";
}

static void
page_private(struct request *req)
{

	page_printf(req, "Cache-Control: private: meant for one user, so a "
	    "shared cache must not store it.\n");
	req->resp.cache_control = "private";
}

/*
 * Parse the decimal number starting s[0..len) into *out, its length into
 * *used.  Returns 0, -1 when there is no digit, -2 when it exceeds max.
 */
static int
parse_decimal(const char *s, size_t len, uint64_t max, uint64_t *out,
    size_t *used)
{
	uint64_t v = 0, digit;
	size_t i;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		digit = (uint64_t)(s[i] - '0');
		if (v > (max - digit) / 10)
			return (-2);
		v = v * 10 + digit;
	}
	*out = v;
	*used = i;
	return (i == 0 ? -1 : 0);
}

/* Parse "123", "10k", "5m", "1g" (powers of 1024); -1 if bad or > max. */
static int
parse_size(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v, mult = 1;
	size_t i;

	if (parse_decimal(s, len, max, &v, &i) != 0)
		return (-1);
	if (i + 1 == len) {
		switch (s[i]) {
		case 'k': case 'K': mult = (uint64_t)1 << 10; break;
		case 'm': case 'M': mult = (uint64_t)1 << 20; break;
		case 'g': case 'G': mult = (uint64_t)1 << 30; break;
		default: return (-1);
		}
	} else if (i != len) {
		return (-1);
	}
	if (v > max / mult)
		return (-1);
	*out = v * mult;
	return (0);
}

static void
page_big(struct request *req)
{
	const char *p, *end;
	uint64_t size = BIG_DEFAULT;
	size_t len;

	for (p = req->query; p != NULL && *p != '\0'; p = end) {
		len = strcspn(p, "&");
		end = p[len] == '&' ? p + len + 1 : p + len;
		if (len < 5 || strncmp(p, "size=", 5) != 0)
			continue;
		if (parse_size(p + 5, len - 5, BIG_MAX, &size) != 0) {
			resp_text(req, 400, "/big?size=N wants a number of "
			    "bytes up to 1073741824, with an optional k, m "
			    "or g suffix.\n");
			return;
		}
	}
	req->resp.content_type = "text/plain";
	req->resp.cache_control = "max-age=60";
	req->resp.body = NULL;
	req->resp.body_len = (size_t)size;
}

static void
page_headers(struct request *req)
{
	struct text t;
	unsigned u;

	text_init(&t, req->conn->out, sizeof req->conn->out);
	text_printf(&t, "%s %s %s\n", req->method, req->target,
	    req->version);
	for (u = 0; u < req->nhdr; u++)
		text_printf(&t, "%s: %s\n", req->hdr[u].name,
		    req->hdr[u].value);
	text_printf(&t, "\n(from %s; body: %ju bytes, discarded)\n",
	    req->conn->peer, (uintmax_t)req->content_length);
	if (t.overflow) {
		resp_text(req, 500, "The request headers do not fit in "
		    "demo-origin's page buffer.\n");
		return;
	}
	req->resp.content_type = "text/plain; charset=utf-8";
	req->resp.cache_control = "no-store";
	req->resp.body = t.buf;
	req->resp.body_len = t.len;
}

static const struct route {
	const char		*path;
	page_f			*page;
	int			any_method;	/* else GET, HEAD only */
} routes[] = {
	{ "/",		page_index,	0 },
	{ "/time",	page_time,	0 },
	{ "/slow",	page_slow,	0 },
	{ "/private",	page_private,	0 },
	{ "/big",	page_big,	0 },
	{ "/headers",	page_headers,	1 },
};

static void
route_request(struct request *req)
{
	const struct route *r;
	size_t i;

	assert(req != NULL && req->magic == REQUEST_MAGIC);
	req->resp.status = 200;
	for (i = 0; i < sizeof routes / sizeof routes[0]; i++) {
		r = &routes[i];
		if (strlen(r->path) != req->path_len ||
		    strncmp(r->path, req->target, req->path_len) != 0)
			continue;
		if (!r->any_method && strcmp(req->method, "GET") != 0 &&
		    strcmp(req->method, "HEAD") != 0) {
			resp_text(req, 405, "This page answers GET and HEAD "
			    "only.\n");
			req->resp.extra = "Allow: GET, HEAD";
			return;
		}
		r->page(req);
		return;
	}
	resp_text(req, 404, "No such page.  Try / /time /slow /private "
	    "/big?size=N /headers\n");
}

/*--------------------------------------------------------------------
 * Request parsing.  The head is parsed in place in conn->in: line ends
 * and separators become NULs, and the request points into it.
 */

/* Offset just past the empty line ending the head, or 0 if not there. */
static size_t
head_end(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (i + 1 < len && buf[i + 1] == '\n')
			return (i + 2);
		if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
			return (i + 3);
	}
	return (0);
}

/* A character allowed in methods and header names (RFC 9110 tchar). */
static int
is_tchar(int c)
{

	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9'))
		return (1);
	return (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Split the next line off *pp (NUL-terminated, CR dropped). */
static char *
next_line(char **pp)
{
	char *line = *pp, *nl;

	nl = strchr(line, '\n');
	if (nl == NULL) {
		*pp = line + strlen(line);
	} else {
		*nl = '\0';
		*pp = nl + 1;
		if (nl > line && nl[-1] == '\r')
			nl[-1] = '\0';
	}
	return (line);
}

/* Does the comma-separated list in value contain token (any case)? */
static int
has_token(const char *value, const char *token)
{
	size_t len, tlen = strlen(token);

	while (*value != '\0') {
		value += strspn(value, " \t,");
		len = strcspn(value, " \t,");
		if (len == tlen && strncasecmp(value, token, len) == 0)
			return (1);
		value += len;
	}
	return (0);
}

/* Returns 0, or the status to answer with. */
static int
parse_request_line(struct request *req, char *line)
{
	char *sp;

	req->method = line;
	sp = strchr(line, ' ');
	if (sp == NULL || sp == line)
		return (400);
	*sp = '\0';
	for (; line < sp; line++)
		if (!is_tchar((unsigned char)*line))
			return (400);
	req->target = sp + 1;
	sp = strchr(req->target, ' ');
	if (sp == NULL || req->target[0] != '/')
		return (400);
	*sp = '\0';
	req->version = sp + 1;
	if (strcmp(req->version, "HTTP/1.1") == 0)
		req->http11 = 1;
	else if (strcmp(req->version, "HTTP/1.0") != 0)
		return (strncmp(req->version, "HTTP/", 5) == 0 ? 505 : 400);
	req->path_len = strcspn(req->target, "?");
	if (req->target[req->path_len] == '?')
		req->query = req->target + req->path_len + 1;
	return (0);
}

/* Act on the headers the origin cares about; 0 or a status. */
static int
parse_known_header(struct request *req, const char *name, const char *value,
    int *seen_length)
{
	uint64_t len;
	size_t used;
	int rc;

	if (strcasecmp(name, "Connection") == 0) {
		if (has_token(value, "close"))
			req->keepalive = 0;
		else if (has_token(value, "keep-alive"))
			req->keepalive = 1;
	} else if (strcasecmp(name, "Transfer-Encoding") == 0) {
		req->chunked = 1;
	} else if (strcasecmp(name, "Expect") == 0) {
		req->expect_continue = has_token(value, "100-continue");
	} else if (strcasecmp(name, "Content-Length") == 0) {
		rc = parse_decimal(value, strlen(value), BODY_MAX, &len,
		    &used);
		if (rc == -2)
			return (413);
		if (rc != 0 || value[used] != '\0')
			return (400);
		if (*seen_length && len != req->content_length)
			return (400);
		*seen_length = 1;
		req->content_length = len;
	}
	return (0);
}

static int
parse_header(struct request *req, char *line, int *seen_length)
{
	char *colon, *value, *end;

	if (*line == ' ' || *line == '\t')
		return (400);		/* obsolete line folding */
	colon = strchr(line, ':');
	if (colon == NULL || colon == line)
		return (400);
	for (value = line; value < colon; value++)
		if (!is_tchar((unsigned char)*value))
			return (400);
	*colon = '\0';
	value = colon + 1 + strspn(colon + 1, " \t");
	end = value + strlen(value);
	while (end > value && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (req->nhdr == HDR_MAX)
		return (431);
	req->hdr[req->nhdr].name = line;
	req->hdr[req->nhdr].value = value;
	req->nhdr++;
	return (parse_known_header(req, line, value, seen_length));
}

/* Parse the head in conn->in[0..head_len); 0 or the status to answer. */
static int
parse_request(struct request *req, size_t head_len)
{
	char *p, *line;
	int status, seen_length = 0;

	p = req->conn->in;
	p[head_len - 1] = '\0';		/* the head's last '\n' */
	line = next_line(&p);
	status = parse_request_line(req, line);
	if (status != 0)
		return (status);
	req->keepalive = req->http11;
	while (*p != '\0' && *p != '\r') {
		line = next_line(&p);
		status = parse_header(req, line, &seen_length);
		if (status != 0)
			return (status);
	}
	return (0);
}

/*--------------------------------------------------------------------
 * A connection: read a head, answer it, repeat.
 */

/*
 * Make conn->in start with a complete head.  Returns its length, 0 when
 * the client went away or idled out, -1 when it is too big.
 */
static ssize_t
conn_read_head(struct conn *c)
{
	size_t skip, end;
	ssize_t n;

	for (;;) {
		/* Empty lines between requests are allowed; drop them. */
		skip = strspn(c->in, "\r\n");
		if (skip > c->len)
			skip = c->len;
		memmove(c->in, c->in + skip, c->len - skip);
		c->len -= skip;
		c->in[c->len] = '\0';
		end = head_end(c->in, c->len);
		if (end > 0)
			return ((ssize_t)end);
		if (c->len >= sizeof c->in - 1)
			return (-1);
		n = recv_some(c->fd, c->in + c->len, sizeof c->in - 1 - c->len);
		if (n <= 0)
			return (0);
		c->len += (size_t)n;
		c->in[c->len] = '\0';
	}
}

static const char *
error_text(int status)
{

	switch (status) {
	case 411:
		return ("Send request bodies with Content-Length: chunked "
		    "ones are not read here.\n");
	case 413:
		return ("Request bodies may be 1 GiB at most.\n");
	case 431:
		return ("At most 64 header fields and 16 KiB of request line "
		    "and headers, please.\n");
	case 505:
		return ("HTTP/1.0 and HTTP/1.1 only.\n");
	default:
		return ("The request line or a header is malformed.\n");
	}
}

/*
 * Throw away the request body: what already followed the head in
 * conn->in, then the rest from the socket.  Sets *next to where the next
 * pipelined request starts in conn->in.  Returns 0, or -1 if the client
 * went away.
 */
static int
conn_drain_body(struct conn *c, const struct request *req, size_t head_len,
    size_t *next)
{
	char scratch[16384];
	uint64_t left = req->content_length;
	size_t have = c->len - head_len, take;
	ssize_t n;

	take = left < have ? (size_t)left : have;
	left -= take;
	*next = head_len + take;
	if (left > 0 && req->expect_continue &&
	    send_all(c->fd, "HTTP/1.1 100 Continue\r\n\r\n", 25) != 0)
		return (-1);
	while (left > 0) {
		n = recv_some(c->fd, scratch,
		    left < sizeof scratch ? (size_t)left : sizeof scratch);
		if (n <= 0)
			return (-1);
		left -= (uint64_t)n;
	}
	return (0);
}

/*
 * Answer one request whose head is conn->in[0..head_len).  Returns 1 to
 * read the next request on this connection, 0 to close it.
 */
static int
conn_serve_one(struct conn *c, size_t head_len)
{
	struct request req;
	size_t next;
	int status, keep;

	memset(&req, 0, sizeof req);
	req.magic = REQUEST_MAGIC;
	req.conn = c;
	status = parse_request(&req, head_len);
	if (status == 0 && req.chunked)
		status = 411;
	if (status != 0) {
		resp_text(&req, status, error_text(status));
		(void)resp_send(&req, 0);	/* closing anyway */
		return (0);
	}
	atomic_fetch_add_explicit(&requests_served, 1, memory_order_relaxed);
	if (conn_drain_body(c, &req, head_len, &next) != 0)
		return (0);
	route_request(&req);
	keep = resp_send(&req, 1);
	/* Keep only what follows this request: the next one, pipelined. */
	memmove(c->in, c->in + next, c->len - next);
	c->len -= next;
	c->in[c->len] = '\0';
	return (keep);
}

/*
 * Close the connection, after reading for up to a second what the client
 * still sends: closing with unread input sends a reset, which can destroy
 * our last answer before the client has read it.
 */
static void
conn_free(struct conn **cp)
{
	struct timeval tv = { 1, 0 };
	struct conn *c;
	int i;

	assert(cp != NULL);
	c = *cp;
	*cp = NULL;
	assert(c != NULL && c->magic == CONN_MAGIC);
	if (shutdown(c->fd, SHUT_WR) == 0 &&
	    setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0)
		for (i = 0; i < 64; i++)
			if (recv_some(c->fd, c->in, sizeof c->in) <= 0)
				break;
	(void)close(c->fd);	/* nothing to do if it fails */
	c->magic = 0;
	free(c);
	atomic_fetch_sub_explicit(&conns_open, 1, memory_order_relaxed);
}

static void *
conn_thread(void *priv)
{
	struct conn *c = priv;
	ssize_t head_len;

	assert(c != NULL && c->magic == CONN_MAGIC);
	for (;;) {
		head_len = conn_read_head(c);
		if (head_len == 0)
			break;
		if (head_len < 0) {
			send_refusal(c->fd, 431, error_text(431));
			break;
		}
		if (!conn_serve_one(c, (size_t)head_len))
			break;
	}
	conn_free(&c);
	return (NULL);
}

/*--------------------------------------------------------------------
 * Listening and accepting.
 */

static void
conn_start(int fd, const struct sockaddr_storage *sa)
{
	static const char busy[] = "demo-origin has too many connections "
	    "open; try again later.\n";
	char host[INET6_ADDRSTRLEN], port[8];
	struct timeval tv = { IDLE_TIMEOUT, 0 };
	pthread_attr_t attr;
	pthread_t thread;
	struct conn *c;
	int one = 1;

	if (atomic_fetch_add_explicit(&conns_open, 1, memory_order_relaxed) >=
	    CONN_MAX || (c = calloc(1, sizeof *c)) == NULL) {
		send_refusal(fd, 503, busy);
		(void)close(fd);	/* nothing to do if it fails */
		atomic_fetch_sub_explicit(&conns_open, 1, memory_order_relaxed);
		return;
	}
	c->magic = CONN_MAGIC;
	c->fd = fd;
	if (getnameinfo((const struct sockaddr *)sa, sizeof *sa, host,
	    sizeof host, port, sizeof port, NI_NUMERICHOST | NI_NUMERICSERV))
		(void)snprintf(c->peer, sizeof c->peer, "?");
	else
		(void)snprintf(c->peer, sizeof c->peer,
		    sa->ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host,
		    port);
	/* Failing options only cost latency or an idle thread: go on. */
	(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	ASSERT_PTHREAD(pthread_attr_init(&attr));
	ASSERT_PTHREAD(pthread_attr_setdetachstate(&attr,
	    PTHREAD_CREATE_DETACHED));
	ASSERT_PTHREAD(pthread_attr_setstacksize(&attr, 256 * 1024));
	if (pthread_create(&thread, &attr, conn_thread, c) != 0) {
		send_refusal(fd, 503, busy);
		conn_free(&c);
	}
	ASSERT_PTHREAD(pthread_attr_destroy(&attr));
}

/*
 * Split "host:port", "[v6addr]:port" or ":port" (all addresses).  Returns
 * 0, or -1 if spec has none of these forms.
 */
static int
split_address(const char *spec, char *host, size_t hostlen, const char **port)
{
	const char *colon, *h = spec;
	size_t len;

	if (spec[0] == '[') {
		colon = strchr(spec, ']');
		if (colon == NULL || colon[1] != ':')
			return (-1);
		h = spec + 1;
		len = (size_t)(colon - h);
		colon++;
	} else {
		colon = strrchr(spec, ':');
		if (colon == NULL)
			return (-1);
		len = (size_t)(colon - spec);
	}
	if (len >= hostlen || colon[1] == '\0')
		return (-1);
	memcpy(host, h, len);
	host[len] = '\0';
	*port = colon + 1;
	return (0);
}

/* Say where we listen: with port 0, only the kernel knows until now. */
static void
print_address(int fd)
{
	char name[INET6_ADDRSTRLEN], port[8];
	struct sockaddr_storage sa;
	socklen_t salen = sizeof sa;

	if (getsockname(fd, (struct sockaddr *)&sa, &salen) == 0 &&
	    getnameinfo((struct sockaddr *)&sa, salen, name, sizeof name, port,
	    sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		printf(sa.ss_family == AF_INET6 ? "demo-origin: listening on "
		    "http://[%s]:%s/\n" : "demo-origin: listening on "
		    "http://%s:%s/\n", name, port);
	(void)fflush(stdout);	/* scripts wait for that line */
}

/* Open the listening socket; exits with a message saying why if it can't. */
static int
listen_on(const char *spec)
{
	struct addrinfo hints, *res, *ai;
	char host[256];
	const char *service;
	int fd = -1, one = 1, rc, err = 0;

	if (split_address(spec, host, sizeof host, &service) != 0) {
		fprintf(stderr, "demo-origin: bad address '%s': use host:port, "
		    "[ipv6]:port or :port\n", spec);
		exit(2);
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	rc = getaddrinfo(host[0] != '\0' ? host : NULL, service, &hints, &res);
	if (rc != 0) {
		fprintf(stderr, "demo-origin: cannot resolve '%s': %s\n", spec,
		    gai_strerror(rc));
		exit(2);
	}
	for (ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
		    sizeof one);	/* only eases restarts */
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
		    listen(fd, 128) != 0) {
			err = errno;
			(void)close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0) {
		fprintf(stderr, "demo-origin: cannot listen on %s: %s%s\n",
		    spec, strerror(err), err == EADDRINUSE ? " (another "
		    "server has this port: stop it, or pick another with "
		    "-a host:port)" : "");
		exit(1);
	}
	print_address(fd);
	return (fd);
}

static void
usage(FILE *f)
{

	fprintf(f, "usage: demo-origin [-a host:port] [-q]\n"
	    "  -a host:port  where to listen (default 127.0.0.1:8080;\n"
	    "                port 0 picks a free one, printed at start)\n"
	    "  -q            do not log requests on stderr\n"
	    "Pages: / /time /slow /private /big?size=N /headers\n");
}

int
main(int argc, char **argv)
{
	const char *address = "127.0.0.1:8080";
	struct sockaddr_storage sa;
	socklen_t salen;
	int opt, lfd, fd;

	while ((opt = getopt(argc, argv, "a:hq")) != -1) {
		switch (opt) {
		case 'a': address = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return (0);
		default: usage(stderr); return (2);
		}
	}
	if (optind != argc) {
		usage(stderr);
		return (2);
	}
	/* A client that hangs up mid-answer must not kill the server. */
	(void)signal(SIGPIPE, SIG_IGN);
	lfd = listen_on(address);
	for (;;) {
		salen = sizeof sa;
		fd = accept(lfd, (struct sockaddr *)&sa, &salen);
		if (fd >= 0) {
			conn_start(fd, &sa);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			/* Out of descriptors or memory: wait for some back. */
			fprintf(stderr, "demo-origin: accept: %s; retrying\n",
			    strerror(errno));
			(void)usleep(100 * 1000);
			continue;
		}
		fprintf(stderr, "demo-origin: accept: %s\n", strerror(errno));
		return (1);
	}
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * proxy_send.c -- writes the PROXY protocol header, version 1 or 2, for
 * a backend with .proxy_header: fetches and pipes send the client's
 * address, probes send none.  Owns nothing; no locks.  What goes on the
 * wire is what varnishd 7.1 sends: v2 without TLVs, the PROXY command
 * over TCP, IPv4 or IPv6 after the address family of the connection.
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "common/vas.h"
#include "cache/proxy_send.h"

/* The v2 signature: 12 bytes no HTTP request starts with. */
static const unsigned char proxy_v2_sig[12] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51,
	0x55, 0x49, 0x54, 0x0a,
};

#define PROXY_V2_LOCAL		0x20	/* version 2, LOCAL */
#define PROXY_V2_PROXY		0x21	/* version 2, PROXY */
#define PROXY_V2_UNSPEC		0x00
#define PROXY_V2_TCP4		0x11
#define PROXY_V2_TCP6		0x21

/* One end, as the header carries it: family, 16 address bytes, port. */
struct proxy_end {
	int			family;		/* AF_INET or AF_INET6 */
	unsigned char		addr[16];	/* network order; 4 for IPv4 */
	uint16_t		port;		/* host order */
};

/* An address as one end; what is not IP is 0.0.0.0 port 0. */
static void
proxy_end(struct proxy_end *e, const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *sin;
	const struct sockaddr_in6 *sin6;

	memset(e, 0, sizeof *e);
	e->family = AF_INET;
	if (ss->ss_family == AF_INET) {
		sin = (const struct sockaddr_in *)(const void *)ss;
		memcpy(e->addr, &sin->sin_addr, 4);
		e->port = ntohs(sin->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		sin6 = (const struct sockaddr_in6 *)(const void *)ss;
		e->family = AF_INET6;
		memcpy(e->addr, &sin6->sin6_addr, 16);
		e->port = ntohs(sin6->sin6_port);
	}
}

/* An IPv4 end as IPv6, ::ffff:a.b.c.d. */
static void
proxy_end_map6(struct proxy_end *e)
{

	if (e->family != AF_INET)
		return;
	memmove(e->addr + 12, e->addr, 4);
	memset(e->addr, 0, 10);
	e->addr[10] = 0xff;
	e->addr[11] = 0xff;
	e->family = AF_INET6;
}

static size_t
proxy_v1(char *buf, size_t len, const struct proxy_end *c,
    const struct proxy_end *s)
{
	char ca[INET6_ADDRSTRLEN], sa[INET6_ADDRSTRLEN];
	int n;

	if (c == NULL)
		n = snprintf(buf, len, "PROXY UNKNOWN\r\n");
	else {
		assert(inet_ntop(c->family, c->addr, ca, sizeof ca) != NULL);
		assert(inet_ntop(s->family, s->addr, sa, sizeof sa) != NULL);
		n = snprintf(buf, len, "PROXY %s %s %s %u %u\r\n",
		    c->family == AF_INET ? "TCP4" : "TCP6", ca, sa,
		    (unsigned)c->port, (unsigned)s->port);
	}
	assert(n > 0 && (size_t)n < len);
	return ((size_t)n);
}

static size_t
proxy_v2(unsigned char *buf, size_t len, const struct proxy_end *c,
    const struct proxy_end *s)
{
	size_t alen, l = sizeof proxy_v2_sig;

	assert(len >= sizeof proxy_v2_sig + 4 + 36);
	memcpy(buf, proxy_v2_sig, l);
	if (c == NULL) {
		buf[l++] = PROXY_V2_LOCAL;
		buf[l++] = PROXY_V2_UNSPEC;
		buf[l++] = 0;
		buf[l++] = 0;
		return (l);
	}
	alen = c->family == AF_INET ? 4 : 16;
	buf[l++] = PROXY_V2_PROXY;
	buf[l++] = c->family == AF_INET ? PROXY_V2_TCP4 : PROXY_V2_TCP6;
	buf[l++] = 0;
	buf[l++] = (unsigned char)(2 * alen + 4);
	memcpy(buf + l, c->addr, alen);
	l += alen;
	memcpy(buf + l, s->addr, alen);
	l += alen;
	buf[l++] = (unsigned char)(c->port >> 8);
	buf[l++] = (unsigned char)c->port;
	buf[l++] = (unsigned char)(s->port >> 8);
	buf[l++] = (unsigned char)s->port;
	return (l);
}

size_t
PROXY_Format(void *buf, size_t len, unsigned version,
    const struct sockaddr_storage *client,
    const struct sockaddr_storage *server)
{
	struct proxy_end c, s;
	int have = client != NULL;

	assert(buf != NULL);
	assert(len >= PROXY_HDR_MAX);
	assert(version == 1 || version == 2);
	/* Both or neither: a header for half a connection is a bug. */
	assert((client == NULL) == (server == NULL));
	if (have) {
		proxy_end(&c, client);
		proxy_end(&s, server);
		if (c.family != s.family) {
			proxy_end_map6(&c);
			proxy_end_map6(&s);
		}
	}
	if (version == 1)
		return (proxy_v1(buf, len, have ? &c : NULL, have ? &s : NULL));
	return (proxy_v2(buf, len, have ? &c : NULL, have ? &s : NULL));
}

size_t
PROXY_FormatProbe(void *buf, size_t len, unsigned version, int fd)
{
	struct sockaddr_storage local;
	socklen_t sl = sizeof local;

	/* v1 has no LOCAL, and varnishd 7.1 refuses UNKNOWN: the probe's
	 * own address twice, as varnishd's probe sends. */
	if (version == 1 &&
	    getsockname(fd, (struct sockaddr *)&local, &sl) == 0 &&
	    (local.ss_family == AF_INET || local.ss_family == AF_INET6))
		return (PROXY_Format(buf, len, version, &local, &local));
	return (PROXY_Format(buf, len, version, NULL, NULL));
}

ssize_t
PROXY_Send(int fd, unsigned version, const struct sockaddr_storage *client,
    const struct sockaddr_storage *server, vtim_dur tmo)
{
	unsigned char buf[PROXY_HDR_MAX];
	struct pollfd pfd;
	vtim_mono end = TIM_mono() + tmo;
	size_t len, off = 0;
	ssize_t n;
	int i;

	len = PROXY_Format(buf, sizeof buf, version, client, server);
	while (off < len) {
		n = send(fd, buf + off, len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EPIPE;	/* not for len > 0; to be sure */
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
			return (-1);
		pfd.fd = fd;
		pfd.events = POLLOUT;
		i = poll(&pfd, 1, tmo > 0 ? TIM_poll_ms(end - TIM_mono()) :
		    -1);
		if (i == 0) {
			errno = ETIMEDOUT;
			return (-1);
		}
		if (i < 0 && errno != EINTR)
			return (-1);
	}
	return ((ssize_t)len);
}

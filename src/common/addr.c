/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * addr.c -- reading an "address and port" argument (see addr.h).
 */

#include "config.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/addr.h"

/* Copy [b, e) to dst; -1 if it does not fit. */
static int
addr_copy(char *dst, size_t len, const char *b, const char *e)
{

	if ((size_t)(e - b) >= len)
		return (-1);
	memcpy(dst, b, (size_t)(e - b));
	dst[e - b] = '\0';
	return (0);
}

int
ADDR_Split(const char *arg, unsigned flags, char *host, size_t hostlen,
    char *port, size_t portlen, const char **why)
{
	const char *hb, *he, *pb = NULL, *e = arg + strlen(arg), *p;

	hb = arg;
	he = e;
	if ((flags & ADDR_F_SPACE) && (p = strrchr(arg, ' ')) != NULL) {
		he = p;
		while (he > hb && he[-1] == ' ')
			he--;
		pb = p + 1;
		if (*hb == '[' && he > hb + 1 && he[-1] == ']') {
			hb++;
			he--;
		}
	} else if (*arg == '[') {
		p = strchr(arg, ']');
		if (p == NULL) {
			*why = "missing ']' after an IPv6 address";
			return (-1);
		}
		hb = arg + 1;
		he = p;
		if (p[1] == ':')
			pb = p + 2;
		else if (p[1] != '\0') {
			*why = "junk after ']': expected [address]:port";
			return (-1);
		}
	} else if ((p = strrchr(arg, ':')) != NULL) {
		if (strchr(arg, ':') != p) {
			*why = "an IPv6 address goes in brackets, as in "
			    "[::1]:6082";
			return (-1);
		}
		he = p;
		pb = p + 1;
	}
	if (pb != NULL && *pb == '\0') {
		*why = "no port after the address";
		return (-1);
	}
	if (pb == NULL && (flags & ADDR_F_NEEDPORT)) {
		*why = (flags & ADDR_F_SPACE) ? "expected \"address port\" "
		    "or address:port" : "expected address:port";
		return (-1);
	}
	if (addr_copy(host, hostlen, hb, he) != 0 ||
	    addr_copy(port, portlen, pb != NULL ? pb : e, e) != 0) {
		*why = "too long";
		return (-1);
	}
	if (strchr(port, ' ') != NULL || strchr(port, ':') != NULL) {
		*why = "a port is a number or a service name";
		return (-1);
	}
	return (0);
}

int
ADDR_ConnectHost(const char *host, const char *port, const char **why)
{
	struct addrinfo hints, *res, *ai;
	int fd = -1, e = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, port, &hints, &res) != 0) {
		*why = "cannot resolve the address";
		return (-1);
	}
	for (ai = res; ai != NULL && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
			e = errno;
			(void)close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(res);
	if (fd < 0) {
		*why = "cannot connect";
		errno = e;
	}
	return (fd);
}

int
ADDR_Connect(const char *arg, unsigned flags, const char **why)
{
	char host[256], port[64];

	if (ADDR_Split(arg, flags | ADDR_F_NEEDPORT, host, sizeof host, port,
	    sizeof port, why) != 0)
		return (-1);
	return (ADDR_ConnectHost(*host == '\0' ? "localhost" : host, port,
	    why));
}

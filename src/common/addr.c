/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * addr.c -- reading an "address and port" argument (see addr.h).
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

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

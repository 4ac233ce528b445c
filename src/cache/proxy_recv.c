/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * proxy_recv.c -- reads the PROXY protocol header a -a ...,PROXY
 * listener takes before HTTP: scan (is it whole?), parse (what does it
 * vouch for?), and the TLV lookup.  Owns nothing; no locks.  What is
 * accepted, refused and logged is what varnishd 7.1 does, with two
 * deliberate differences: a v1 "PROXY UNKNOWN" line is accepted (the
 * specification says a receiver must; our own .proxy_header = 1 sends
 * it for a Unix socket client), and a CRC32C TLV must be 4 bytes.
 */

#include "config.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/vas.h"
#include "cache/proxy_recv.h"

static const char proxy_v1_sig[5] = { 'P', 'R', 'O', 'X', 'Y' };
static const unsigned char proxy_v2_sig[12] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51,
	0x55, 0x49, 0x54, 0x0a,
};

static unsigned
proxy_be16(const unsigned char *p)
{

	return ((unsigned)p[0] << 8 | p[1]);
}

static uint32_t
proxy_be32(const unsigned char *p)
{

	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3]);
}

enum proxy_scan
PROXY_Scan(const void *b, size_t len, size_t *hlen)
{
	const unsigned char *p = b;
	const unsigned char *lf;
	size_t z, n;

	assert(b != NULL || len == 0);
	*hlen = 0;
	n = len < sizeof proxy_v1_sig ? len : sizeof proxy_v1_sig;
	if (len > 0 && p[0] == 'P') {
		if (memcmp(p, proxy_v1_sig, n))
			return (PROXY_JUNK);
		if (len <= sizeof proxy_v1_sig)
			return (PROXY_MORE);
		lf = memchr(p + sizeof proxy_v1_sig, '\n',
		    len - sizeof proxy_v1_sig);
		if (lf == NULL)
			return (len >= PROXY_V1_MAX ? PROXY_OVERFLOW :
			    PROXY_MORE);
		z = (size_t)(lf - p) + 1;
		if (z > PROXY_V1_MAX)
			return (PROXY_OVERFLOW);
		*hlen = z;
		return (PROXY_COMPLETE);
	}
	n = len < sizeof proxy_v2_sig ? len : sizeof proxy_v2_sig;
	if (memcmp(p, proxy_v2_sig, n))
		return (PROXY_JUNK);
	if (len < 16)
		return (PROXY_MORE);
	z = proxy_be16(p + 14);
	if (z > PROXY_V2_MAX)
		return (PROXY_OVERFLOW);
	if (len < 16 + z)
		return (PROXY_MORE);
	*hlen = 16 + z;
	return (PROXY_COMPLETE);
}

/* CRC-32C (Castagnoli, reflected), the 4 bytes at skip read as 0. */
static uint32_t
proxy_crc32c(const unsigned char *p, size_t len, size_t skip)
{
	uint32_t crc = 0xffffffff;
	unsigned char c;
	size_t i;
	int k;

	for (i = 0; i < len; i++) {
		c = (i >= skip && i < skip + 4) ? 0 : p[i];
		crc ^= c;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78 & (0U - (crc & 1)));
	}
	return (crc ^ 0xffffffff);
}

/*--------------------------------------------------------------------
 * Version 1: "PROXY TCP4|TCP6 src dst sport dport\r\n"
 */

/* A decimal port, 0-65535, nothing else.  0 or -1. */
static int
proxy_port(const char *s, unsigned *port)
{
	unsigned v = 0;
	size_t i;

	if (*s == '\0' || strlen(s) > 5)
		return (-1);
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v > 65535)
		return (-1);
	*port = v;
	return (0);
}

/* A numeric address and port of family af into a.  0 or -1. */
static int
proxy_addr_text(union proxy_addr *a, int af, const char *ip,
    const char *port)
{
	unsigned pn;

	memset(a, 0, sizeof *a);
	if (proxy_port(port, &pn) != 0)
		return (-1);
	if (af == AF_INET) {
		if (inet_pton(AF_INET, ip, &a->sin.sin_addr) != 1)
			return (-1);
		a->sin.sin_family = AF_INET;
		a->sin.sin_port = htons((uint16_t)pn);
		return (0);
	}
	if (inet_pton(AF_INET6, ip, &a->sin6.sin6_addr) != 1)
		return (-1);
	a->sin6.sin6_family = AF_INET6;
	a->sin6.sin6_port = htons((uint16_t)pn);
	return (0);
}

/* The printed form of a (numeric), for the Proxy record. */
static void
proxy_addr_name(const union proxy_addr *a, char *ip, size_t iplen,
    unsigned *port)
{

	const char *p;

	if (a->sa.sa_family == AF_INET) {
		p = inet_ntop(AF_INET, &a->sin.sin_addr, ip, (socklen_t)iplen);
		*port = ntohs(a->sin.sin_port);
	} else {
		p = inet_ntop(AF_INET6, &a->sin6.sin6_addr, ip,
		    (socklen_t)iplen);
		*port = ntohs(a->sin6.sin6_port);
	}
	assert(p != NULL);	/* iplen is INET6_ADDRSTRLEN */
}

static void
proxy_log_addrs(struct proxy_hdr *ph)
{
	char ci[INET6_ADDRSTRLEN], si[INET6_ADDRSTRLEN];
	unsigned cp, sp;

	proxy_addr_name(&ph->client, ci, sizeof ci, &cp);
	proxy_addr_name(&ph->server, si, sizeof si, &sp);
	(void)snprintf(ph->proxy, sizeof ph->proxy, "%u %s %u %s %u",
	    ph->version, ci, cp, si, sp);
}

static int
proxy_garbage(struct proxy_hdr *ph, const char *why)
{

	(void)snprintf(ph->garbage, sizeof ph->garbage, "PROXY%u: %s",
	    ph->version, why);
	return (-1);
}

static int
proxy_v1(const char *b, size_t hlen, struct proxy_hdr *ph)
{
	char line[PROXY_V1_MAX + 1], *fld[8], *p;
	unsigned n;
	int af;

	/* The line ends at its first CR, which is right before the LF. */
	assert(hlen >= 2 && hlen <= PROXY_V1_MAX && b[hlen - 1] == '\n');
	p = memchr(b, '\r', hlen);
	if (p == NULL || p != b + hlen - 2)
		return (proxy_garbage(ph, "Bad line end (no CR before LF)"));
	memcpy(line, b, hlen - 2);
	line[hlen - 2] = '\0';
	if (memchr(line, '\0', hlen - 2) != NULL)
		return (proxy_garbage(ph, "NUL in header"));
	/* Fields after single spaces, as varnishd splits them. */
	n = 0;
	for (p = strchr(line, ' '); p != NULL; p = strchr(p, ' ')) {
		*p++ = '\0';
		if (n < 8)
			fld[n] = p;
		n++;
	}
	if (n >= 1 && !strcmp(fld[0], "UNKNOWN")) {
		(void)snprintf(ph->proxy, sizeof ph->proxy,
		    "1 local local local local");
		return (0);
	}
	if (n < 5)
		return (proxy_garbage(ph, "Too few fields"));
	if (n > 5)
		return (proxy_garbage(ph, "Too many fields"));
	if (!strcmp(fld[0], "TCP4"))
		af = AF_INET;
	else if (!strcmp(fld[0], "TCP6"))
		af = AF_INET6;
	else
		return (proxy_garbage(ph, "Wrong TCP[46] field"));
	if (proxy_addr_text(&ph->client, af, fld[1], fld[3]) != 0)
		return (proxy_garbage(ph, "Cannot resolve source address"));
	if (proxy_addr_text(&ph->server, af, fld[2], fld[4]) != 0)
		return (proxy_garbage(ph,
		    "Cannot resolve destination address"));
	ph->addrs = 1;
	proxy_log_addrs(ph);
	return (0);
}

/*--------------------------------------------------------------------
 * Version 2: signature, version and command, family and protocol,
 * length, addresses, TLVs.
 */

/*
 * Check the TLVs of [p, p + len): well formed (the SSL TLV's sub-TLVs
 * too) and, when there is a CRC32C TLV, the header's checksum right.
 * NULL, or what is wrong.
 */
static const char *
proxy_tlv_check(const unsigned char *hdr, size_t hlen,
    const unsigned char *p, size_t len, int sub)
{
	const char *why;
	unsigned t;
	size_t l;

	while (len > 0) {
		if (len < 3)
			return ("TLV Dribble bytes");
		t = p[0];
		l = proxy_be16(p + 1);
		if (l + 3 > len)
			return ("TLV Length Error");
		if (!sub && t == PROXY_TLV_SSL) {
			if (l < 5)
				return ("TLV Length Error");
			why = proxy_tlv_check(hdr, hlen, p + 3 + 5, l - 5, 1);
			if (why != NULL)
				return (why);
		} else if (!sub && t == PROXY_TLV_CRC32C) {
			if (l != 4)
				return ("TLV Length Error");
			if (proxy_crc32c(hdr, hlen, (size_t)(p + 3 - hdr)) !=
			    proxy_be32(p + 3))
				return ("CRC error");
		}
		p += 3 + l;
		len -= 3 + l;
	}
	return (NULL);
}

/* An address of family af and its port, in network order, into a. */
static void
proxy_addr_bin(union proxy_addr *a, int af, const unsigned char *addr,
    const unsigned char *port)
{

	memset(a, 0, sizeof *a);
	if (af == AF_INET) {
		a->sin.sin_family = AF_INET;
		memcpy(&a->sin.sin_addr, addr, 4);
		memcpy(&a->sin.sin_port, port, 2);
	} else {
		a->sin6.sin6_family = AF_INET6;
		memcpy(&a->sin6.sin6_addr, addr, 16);
		memcpy(&a->sin6.sin6_port, port, 2);
	}
}

/* v2's addresses: source, destination, source port, destination port. */
static void
proxy_v2_addrs(struct proxy_hdr *ph, const unsigned char *a, int af)
{
	size_t alen = af == AF_INET ? 4 : 16;

	proxy_addr_bin(&ph->client, af, a, a + 2 * alen);
	proxy_addr_bin(&ph->server, af, a + alen, a + 2 * alen + 2);
	ph->addrs = 1;
	proxy_log_addrs(ph);
}

static int
proxy_v2(const unsigned char *p, size_t hlen, struct proxy_hdr *ph)
{
	const char *why;
	size_t l, flen;
	int af;

	assert(hlen >= 16 && hlen == 16 + proxy_be16(p + 14));
	l = hlen - 16;
	if ((p[12] >> 4) != 2) {
		(void)snprintf(ph->garbage, sizeof ph->garbage,
		    "PROXY2: bad version (%d)", p[12] >> 4);
		return (-1);
	}
	switch (p[12] & 0x0f) {
	case 0x0:
		/* LOCAL: a health check of the proxy's own. */
		(void)snprintf(ph->proxy, sizeof ph->proxy,
		    "2 local local local local");
		return (0);
	case 0x1:
		break;
	default:
		(void)snprintf(ph->garbage, sizeof ph->garbage,
		    "PROXY2: bad command (%d)", p[12] & 0x0f);
		return (-1);
	}
	switch (p[13]) {
	case 0x00:
		(void)snprintf(ph->garbage, sizeof ph->garbage,
		    "PROXY2: Ignoring UNSPEC|UNSPEC addresses");
		return (0);
	case 0x11:
		af = AF_INET;
		flen = 12;
		break;
	case 0x21:
		af = AF_INET6;
		flen = 36;
		break;
	default:
		/* AF_UNIX, UDP: nothing client.ip could say. */
		(void)snprintf(ph->garbage, sizeof ph->garbage,
		    "PROXY2: Ignoring unsupported protocol (0x%02x)", p[13]);
		return (0);
	}
	if (l < flen) {
		(void)snprintf(ph->garbage, sizeof ph->garbage,
		    "PROXY2: Ignoring short %s addresses (%zu)",
		    af == AF_INET ? "IPv4" : "IPv6", l);
		return (0);
	}
	/* Logged (Proxy) before the TLVs are checked, as varnishd does. */
	proxy_v2_addrs(ph, p + 16, af);
	why = proxy_tlv_check(p, hlen, p + 16 + flen, l - flen, 0);
	if (why != NULL) {
		ph->addrs = 0;
		(void)snprintf(ph->garbage, sizeof ph->garbage, "PROXY2: %s",
		    why);
		return (-1);
	}
	if (l > flen) {
		ph->tlv = p + 16 + flen;
		ph->tlv_len = l - flen;
	}
	return (0);
}

int
PROXY_Parse(const void *b, size_t hlen, struct proxy_hdr *ph)
{
	const unsigned char *p = b;

	assert(b != NULL && ph != NULL);
	INIT_OBJ(ph, PROXY_HDR_MAGIC);
	assert(hlen > 0);
	if (p[0] == 'P') {
		ph->version = 1;
		return (proxy_v1(b, hlen, ph));
	}
	ph->version = 2;
	return (proxy_v2(p, hlen, ph));
}

int
PROXY_TlvFind(const unsigned char *tlv, size_t len, unsigned type,
    const unsigned char **v, size_t *vlen)
{
	const unsigned char *p = tlv, *s;
	size_t l, sl, sublen;

	*v = NULL;
	*vlen = 0;
	while (len >= 3) {
		l = proxy_be16(p + 1);
		assert(l + 3 <= len);	/* PROXY_Parse checked */
		if (p[0] == type) {
			*v = p + 3;
			*vlen = l;
			return (0);
		}
		if (p[0] == PROXY_TLV_SSL && l >= 5) {
			s = p + 3 + 5;
			sublen = l - 5;
			while (sublen >= 3) {
				sl = proxy_be16(s + 1);
				assert(sl + 3 <= sublen);
				if (s[0] == type) {
					*v = s + 3;
					*vlen = sl;
					return (0);
				}
				s += 3 + sl;
				sublen -= 3 + sl;
			}
		}
		p += 3 + l;
		len -= 3 + l;
	}
	return (-1);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * proxy_recv.h -- reading the PROXY protocol header (HAProxy's
 * proxy-protocol.txt, versions 1 and 2) a listener declared
 * -a ...,PROXY takes first on each connection: the scanner that says
 * when a header is whole, the parser that says what it vouches for, and
 * the TLV lookup of the proxy module.  Pure functions of their bytes: no
 * state, no locks, no allocation (the session code stores the result).
 */

#ifndef VENEER_CACHE_PROXY_RECV_H
#define VENEER_CACHE_PROXY_RECV_H

#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>

/* A v1 line, its LF included, may end at most at byte 108, as varnishd. */
#define PROXY_V1_MAX		108
/* A v2 header's length field (bytes after the 16 fixed) at most this. */
#define PROXY_V2_MAX		1024

/* The TLV types the proxy module reads (proxy-protocol.txt 2.2). */
#define PROXY_TLV_ALPN		0x01
#define PROXY_TLV_AUTHORITY	0x02
#define PROXY_TLV_CRC32C	0x03
#define PROXY_TLV_SSL		0x20
#define PROXY_TLV_SSL_VERSION	0x21
#define PROXY_TLV_SSL_CN	0x22
#define PROXY_TLV_SSL_CIPHER	0x23
#define PROXY_TLV_SSL_SIG_ALG	0x24
#define PROXY_TLV_SSL_KEY_ALG	0x25

/* The SSL TLV's client flags (its first byte). */
#define PROXY_SSL_CLIENT_SSL	0x01
#define PROXY_SSL_CERT_CONN	0x02
#define PROXY_SSL_CERT_SESS	0x04

enum proxy_scan {
	PROXY_MORE,		/* a header's beginning: read on */
	PROXY_COMPLETE,		/* a whole header: *hlen bytes */
	PROXY_JUNK,		/* starts with neither signature */
	PROXY_OVERFLOW,		/* longer than a header may be */
};

/* One end of the proxied connection, as small as it can be. */
union proxy_addr {
	struct sockaddr		sa;
	struct sockaddr_in	sin;
	struct sockaddr_in6	sin6;
};

struct proxy_hdr {
	unsigned		magic;
#define PROXY_HDR_MAGIC		0x5be7a0d3
	unsigned		version;	/* 1 or 2 */
	unsigned		addrs;		/* 1: client and server are
						   the header's; 0: LOCAL,
						   UNKNOWN or unusable, the
						   socket's ends stand */
	union proxy_addr	client;
	union proxy_addr	server;
	const unsigned char	*tlv;		/* into the header: v2's TLVs
						   (checked), NULL if none */
	size_t			tlv_len;
	/* For the log: "" when there is nothing to say. */
	char			proxy[128];	/* the Proxy record */
	char			garbage[96];	/* the ProxyGarbage record */
};

/*
 * Is [b, b + len) the beginning of a PROXY header, a whole one (its
 * length in *hlen; what follows is the client's HTTP), or neither?
 */
enum proxy_scan PROXY_Scan(const void *b, size_t len, size_t *hlen);

/*
 * Parse the whole header [b, b + hlen) PROXY_Scan found (ph->tlv points
 * into it).  0: accept the connection; -1: close it.  Either may leave
 * ph->proxy and ph->garbage to log, in that order, as varnishd 7.1
 * logs them (a v2 header with bad TLVs has both).
 */
int PROXY_Parse(const void *b, size_t hlen, struct proxy_hdr *ph);

/*
 * The value of the first TLV of type in [tlv, tlv + len), or inside the
 * SSL TLV (its sub-TLVs): 0 with *v, *vlen; -1 if there is none.  The
 * TLVs must have passed PROXY_Parse.
 */
int PROXY_TlvFind(const unsigned char *tlv, size_t len, unsigned type,
    const unsigned char **v, size_t *vlen);

#endif /* VENEER_CACHE_PROXY_RECV_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_proxy_recv.c -- the PROXY header reader of a -a ...,PROXY
 * listener (src/cache/proxy_recv.c): the bytes a client sends first.
 *
 * Input: the bytes as received.  Checks: the scan of every prefix
 * agrees with the whole (a prefix of a whole header is PROXY_MORE, and
 * once junk or too long, always so); a whole header parses within its
 * length; a TLV found lies inside the header; the addresses a header
 * vouched for come back the same through our own writer
 * (PROXY_Format), v1 and v2.
 */

#include "config.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "cache/proxy_recv.h"
#include "cache/proxy_send.h"
#include "tests/fuzz/fuzz.h"

static int
fuzz_addr_eq(const union proxy_addr *a, const union proxy_addr *b)
{

	if (a->sa.sa_family != b->sa.sa_family)
		return (0);
	if (a->sa.sa_family == AF_INET)
		return (a->sin.sin_port == b->sin.sin_port &&
		    !memcmp(&a->sin.sin_addr, &b->sin.sin_addr, 4));
	return (a->sin6.sin6_port == b->sin6.sin6_port &&
	    !memcmp(&a->sin6.sin6_addr, &b->sin6.sin6_addr, 16));
}

/* Our writer's header for what ph vouched for reads back the same. */
static void
fuzz_roundtrip(const struct proxy_hdr *ph, unsigned version)
{
	struct sockaddr_storage c, s;
	struct proxy_hdr ph2;
	char buf[PROXY_HDR_MAX];
	size_t l, hl;

	memset(&c, 0, sizeof c);
	memset(&s, 0, sizeof s);
	memcpy(&c, &ph->client, sizeof ph->client);
	memcpy(&s, &ph->server, sizeof ph->server);
	l = PROXY_Format(buf, sizeof buf, version, &c, &s);
	assert(PROXY_Scan(buf, l, &hl) == PROXY_COMPLETE && hl == l);
	assert(PROXY_Parse(buf, hl, &ph2) == 0);
	assert(ph2.addrs == 1);
	assert(fuzz_addr_eq(&ph->client, &ph2.client));
	assert(fuzz_addr_eq(&ph->server, &ph2.server));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proxy_hdr ph;
	enum proxy_scan whole, part;
	const unsigned char *v;
	unsigned char *b;
	size_t hlen, hl, i, vl;
	unsigned t;

	/* Exactly size bytes used, so ASan sees a read past the end. */
	b = calloc(size > 0 ? size : 1, 1);
	assert(b != NULL);
	if (size > 0)
		memcpy(b, data, size);
	whole = PROXY_Scan(b, size, &hlen);
	for (i = 0; i < size; i++) {
		part = PROXY_Scan(b, i, &hl);
		if (whole == PROXY_COMPLETE && i < hlen)
			assert(part == PROXY_MORE);
		if (part == PROXY_JUNK || part == PROXY_OVERFLOW)
			assert(whole == part);
		if (part == PROXY_COMPLETE)
			assert(whole == PROXY_COMPLETE && hl == hlen);
	}
	if (whole != PROXY_COMPLETE)
		goto out;
	assert(hlen > 0 && hlen <= size);
	assert(hlen <= 16 + PROXY_V2_MAX);
	if (PROXY_Parse(b, hlen, &ph) != 0) {
		assert(ph.garbage[0] != '\0');
		goto out;
	}
	if (ph.tlv != NULL) {
		assert(ph.version == 2 && ph.addrs);
		assert(ph.tlv > b && ph.tlv + ph.tlv_len == b + hlen);
		for (t = 0; t < 256; t++) {
			if (PROXY_TlvFind(ph.tlv, ph.tlv_len, t, &v, &vl) != 0)
				continue;
			assert(v >= ph.tlv && v + vl <= ph.tlv + ph.tlv_len);
		}
	}
	if (ph.addrs) {
		assert(ph.proxy[0] != '\0');
		fuzz_roundtrip(&ph, 1);
		fuzz_roundtrip(&ph, 2);
	}
out:
	free(b);
	return (0);
}

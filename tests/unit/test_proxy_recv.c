/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_proxy_recv.c -- unit tests of the PROXY header reader (src/cache/
 * proxy_recv.c): the scan (whole, partial, junk, too long, the 108-byte
 * v1 and 1024-byte v2 limits), and the parse of v1 and v2 headers with
 * varnishd 7.1's log wording, good and hostile (o00000.vtc, o00001.vtc
 * and o00005.vtc's cases), CRC32C, TLV lookup, and our own writer's
 * headers read back.
 */

#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "cache/proxy_recv.h"
#include "cache/proxy_send.h"

#define SIG	"\r\n\r\n\0\r\nQUIT\n"

/* The good v2 header of a TLS terminator in o00005.vtc (CRC right). */
static const unsigned char v2_tls[] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54,
	0x0a, 0x21, 0x11, 0x00, 0x65, 0xd9, 0x46, 0xb5, 0x21, 0x5f, 0x8e,
	0xa8, 0x22, 0xed, 0x96, 0x01, 0xbb, 0x03, 0x00, 0x04, 0x95, 0x03,
	0xee, 0x75, 0x01, 0x00, 0x02, 0x68, 0x32, 0x02, 0x00, 0x0a, 0x68,
	0x6f, 0x63, 0x64, 0x65, 0x74, 0x2e, 0x6e, 0x65, 0x74, 0x20, 0x00,
	0x3d, 0x01, 0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x07, 0x54, 0x4c,
	0x53, 0x76, 0x31, 0x2e, 0x33, 0x25, 0x00, 0x05, 0x45, 0x43, 0x32,
	0x35, 0x36, 0x24, 0x00, 0x0a, 0x52, 0x53, 0x41, 0x2d, 0x53, 0x48,
	0x41, 0x32, 0x35, 0x36, 0x23, 0x00, 0x16, 0x41, 0x45, 0x41, 0x44,
	0x2d, 0x41, 0x45, 0x53, 0x31, 0x32, 0x38, 0x2d, 0x47, 0x43, 0x4d,
	0x2d, 0x53, 0x48, 0x41, 0x32, 0x35, 0x36,
};

static enum proxy_scan
scan(const void *b, size_t l, size_t *hlen)
{

	return (PROXY_Scan(b, l, hlen));
}

/* Parse a whole v1 line; the return and both log strings. */
static void
v1_is(const char *line, int ret, const char *proxy, const char *garbage)
{
	struct proxy_hdr ph;
	size_t hlen;

	ck_assert_int_eq(scan(line, strlen(line), &hlen), PROXY_COMPLETE);
	ck_assert_int_eq(PROXY_Parse(line, hlen, &ph), ret);
	ck_assert_str_eq(ph.proxy, proxy);
	ck_assert_str_eq(ph.garbage, garbage);
}

START_TEST(scan_v1)
{
	char buf[256];
	size_t hlen;

	ck_assert_int_eq(scan("", 0, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan("PRO", 3, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan("PROXY", 5, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan("PROXY TCP4 1.2", 14, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan("XYZ\r\n", 5, &hlen), PROXY_JUNK);
	ck_assert_int_eq(scan("PRXY", 4, &hlen), PROXY_JUNK);
	ck_assert_int_eq(scan("GET / HTTP/1.1\r\n", 16, &hlen), PROXY_JUNK);
	ck_assert_int_eq(scan("PROXY UNKNOWN\r\nGET", 18, &hlen),
	    PROXY_COMPLETE);
	ck_assert_uint_eq(hlen, 15);
	/* The LF at byte 108 is the last allowed, as varnishd. */
	memset(buf, ' ', sizeof buf);
	memcpy(buf, "PROXY", 5);
	buf[106] = '\r';
	buf[107] = '\n';
	ck_assert_int_eq(scan(buf, 108, &hlen), PROXY_COMPLETE);
	ck_assert_uint_eq(hlen, 108);
	buf[107] = ' ';
	buf[108] = '\n';
	ck_assert_int_eq(scan(buf, 109, &hlen), PROXY_OVERFLOW);
	/* No LF in 108 bytes: too long already. */
	ck_assert_int_eq(scan(buf, 107, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan(buf, 108, &hlen), PROXY_OVERFLOW);
}
END_TEST

START_TEST(scan_v2)
{
	unsigned char buf[16 + PROXY_V2_MAX + 8];
	size_t hlen;

	memset(buf, 0, sizeof buf);
	memcpy(buf, SIG, 12);
	ck_assert_int_eq(scan(buf, 1, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan(buf, 15, &hlen), PROXY_MORE);
	buf[12] = 0x21;
	buf[13] = 0x11;
	buf[15] = 12;
	ck_assert_int_eq(scan(buf, 16, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan(buf, 27, &hlen), PROXY_MORE);
	ck_assert_int_eq(scan(buf, 40, &hlen), PROXY_COMPLETE);
	ck_assert_uint_eq(hlen, 28);
	buf[14] = 0x04;
	buf[15] = 0x00;
	ck_assert_int_eq(scan(buf, sizeof buf, &hlen), PROXY_COMPLETE);
	ck_assert_uint_eq(hlen, 16 + 1024);
	buf[15] = 0x01;		/* o00001: 1025 */
	ck_assert_int_eq(scan(buf, 16, &hlen), PROXY_OVERFLOW);
	buf[5] = 'x';
	ck_assert_int_eq(scan(buf, 6, &hlen), PROXY_JUNK);
}
END_TEST

START_TEST(parse_v1)
{

	v1_is("PROXY TCP4 1.2.3.4 5.6.7.8 1234 5678\r\n", 0,
	    "1 1.2.3.4 1234 5.6.7.8 5678", "");
	v1_is("PROXY TCP6 1:f::2 5:a::8 1234 5678\r\n", 0,
	    "1 1:f::2 1234 5:a::8 5678", "");
	v1_is("PROXY UNKNOWN\r\n", 0, "1 local local local local", "");
	v1_is("PROXY UNKNOWN 1.2.3.4 5.6.7.8 1 2\r\n", 0,
	    "1 local local local local", "");
	v1_is("PROXY \r\n", -1, "", "PROXY1: Too few fields");
	v1_is("PROXY A B C D\r\n", -1, "", "PROXY1: Too few fields");
	v1_is("PROXY A B C D E F\r\n", -1, "", "PROXY1: Too many fields");
	v1_is("PROXY A B C D E\r\n", -1, "", "PROXY1: Wrong TCP[46] field");
	v1_is("PROXY TCP4 B C D E\r\n", -1, "",
	    "PROXY1: Cannot resolve source address");
	v1_is("PROXY TCP4 1.2.3.4 C D E\r\n", -1, "",
	    "PROXY1: Cannot resolve source address");
	v1_is("PROXY TCP4 1.2.3.4 D 1234 E\r\n", -1, "",
	    "PROXY1: Cannot resolve destination address");
	v1_is("PROXY TCP4 1:f::2 5:a::8 1234 5678\r\n", -1, "",
	    "PROXY1: Cannot resolve source address");
	v1_is("PROXY TCP6 1.2.3.4 5.6.7.8 1234 5678\r\n", -1, "",
	    "PROXY1: Cannot resolve source address");
	v1_is("PROXY TCP4 1.2.3.4 5.6.7.8 65536 5678\r\n", -1, "",
	    "PROXY1: Cannot resolve source address");
	v1_is("PROXY TCP4 1.2.3.4 5.6.7.8 -1 5678\r\n", -1, "",
	    "PROXY1: Cannot resolve source address");
	v1_is("PROXY TCP4 1.2.3 5.6.7.8 1 5678\r\n", -1, "",
	    "PROXY1: Cannot resolve source address");
	/* LF without CR; a CR inside. */
	v1_is("PROXY TCP4 1.2.3.4 5.6.7.8 1234 5678\n", -1, "",
	    "PROXY1: Bad line end (no CR before LF)");
	v1_is("PROXY TCP4 1.2.3.4\r5.6.7.8 1234 5678\r\n", -1, "",
	    "PROXY1: Bad line end (no CR before LF)");
}
END_TEST

START_TEST(parse_v1_nul)
{
	static const char line[] = "PROXY TCP4 1.2.3.4\0 5.6.7.8 1 2\r\n";
	struct proxy_hdr ph;

	ck_assert_int_eq(PROXY_Parse(line, sizeof line - 1, &ph), -1);
	ck_assert_str_eq(ph.garbage, "PROXY1: NUL in header");
}
END_TEST

/* A v2 header: ver_cmd, fam, then len bytes of body. */
static int
v2(unsigned vc, unsigned fam, const unsigned char *body, size_t len,
    struct proxy_hdr *ph)
{
	unsigned char buf[16 + 1024];
	size_t hlen;

	ck_assert_uint_le(len, 1024);
	memcpy(buf, SIG, 12);
	buf[12] = (unsigned char)vc;
	buf[13] = (unsigned char)fam;
	buf[14] = (unsigned char)(len >> 8);
	buf[15] = (unsigned char)len;
	if (len > 0)
		memcpy(buf + 16, body, len);
	ck_assert_int_eq(scan(buf, 16 + len, &hlen), PROXY_COMPLETE);
	return (PROXY_Parse(buf, hlen, ph));
}

START_TEST(parse_v2)
{
	static const unsigned char a4[12] = { 1, 2, 3, 4, 5, 6, 7, 8,
	    0x09, 0x0a, 0x0b, 0x0c };
	unsigned char a6[36 + 4];
	struct proxy_hdr ph;

	ck_assert_int_eq(v2(0x20, 0, NULL, 0, &ph), 0);
	ck_assert_str_eq(ph.proxy, "2 local local local local");
	ck_assert_uint_eq(ph.addrs, 0);
	ck_assert_int_eq(v2(0x22, 0, NULL, 0, &ph), -1);
	ck_assert_str_eq(ph.garbage, "PROXY2: bad command (2)");
	ck_assert_int_eq(v2(0x11, 0x11, a4, 12, &ph), -1);
	ck_assert_str_eq(ph.garbage, "PROXY2: bad version (1)");
	ck_assert_int_eq(v2(0x21, 0, NULL, 0, &ph), 0);
	ck_assert_str_eq(ph.garbage,
	    "PROXY2: Ignoring UNSPEC|UNSPEC addresses");
	ck_assert_uint_eq(ph.addrs, 0);
	ck_assert_int_eq(v2(0x21, 0x99, NULL, 0, &ph), 0);
	ck_assert_str_eq(ph.garbage,
	    "PROXY2: Ignoring unsupported protocol (0x99)");
	ck_assert_int_eq(v2(0x21, 0x31, a4, 12, &ph), 0);	/* AF_UNIX */
	ck_assert_uint_eq(ph.addrs, 0);
	ck_assert_int_eq(v2(0x21, 0x11, a4, 11, &ph), 0);
	ck_assert_str_eq(ph.garbage, "PROXY2: Ignoring short IPv4 addresses "
	    "(11)");
	ck_assert_uint_eq(ph.addrs, 0);
	ck_assert_int_eq(v2(0x21, 0x11, a4, 12, &ph), 0);
	ck_assert_str_eq(ph.proxy, "2 1.2.3.4 2314 5.6.7.8 2828");
	ck_assert_str_eq(ph.garbage, "");
	ck_assert_uint_eq(ph.addrs, 1);
	ck_assert_ptr_null(ph.tlv);
	memset(a6, 0, sizeof a6);
	a6[0] = 0x01;
	a6[1] = 0x02;
	a6[16] = 0x81;
	a6[32] = 0x09;
	a6[33] = 0x0a;
	a6[34] = 0x0b;
	a6[35] = 0x0c;
	ck_assert_int_eq(v2(0x21, 0x21, a6, 35, &ph), 0);
	ck_assert_str_eq(ph.garbage, "PROXY2: Ignoring short IPv6 addresses "
	    "(35)");
	ck_assert_int_eq(v2(0x21, 0x21, a6, 36, &ph), 0);
	ck_assert_str_eq(ph.proxy, "2 102:: 2314 8100:: 2828");
	/* A NOOP TLV of 1 byte: fine; 3 bytes of TLV cut short: not. */
	a6[36] = 0x04;
	a6[37] = 0x00;
	a6[38] = 0x01;
	a6[39] = 0x00;
	ck_assert_int_eq(v2(0x21, 0x21, a6, 40, &ph), 0);
	ck_assert_uint_eq(ph.tlv_len, 4);
	ck_assert_int_eq(v2(0x21, 0x21, a6, 39, &ph), -1);
	ck_assert_str_eq(ph.garbage, "PROXY2: TLV Length Error");
	/* The addresses were logged before the TLVs failed, as varnishd. */
	ck_assert_str_eq(ph.proxy, "2 102:: 2314 8100:: 2828");
	ck_assert_uint_eq(ph.addrs, 0);
	ck_assert_int_eq(v2(0x21, 0x21, a6, 38, &ph), -1);
	ck_assert_str_eq(ph.garbage, "PROXY2: TLV Dribble bytes");
}
END_TEST

START_TEST(parse_v2_tlv)
{
	unsigned char buf[sizeof v2_tls];
	struct proxy_hdr ph;
	const unsigned char *v;
	size_t hlen, vl;

	memcpy(buf, v2_tls, sizeof buf);
	ck_assert_int_eq(scan(buf, sizeof buf, &hlen), PROXY_COMPLETE);
	ck_assert_uint_eq(hlen, sizeof buf);
	ck_assert_int_eq(PROXY_Parse(buf, hlen, &ph), 0);
	ck_assert_str_eq(ph.proxy, "2 217.70.181.33 60822 95.142.168.34 443");
	ck_assert_int_eq(PROXY_TlvFind(ph.tlv, ph.tlv_len, PROXY_TLV_ALPN,
	    &v, &vl), 0);
	ck_assert_uint_eq(vl, 2);
	ck_assert_int_eq(memcmp(v, "h2", 2), 0);
	ck_assert_int_eq(PROXY_TlvFind(ph.tlv, ph.tlv_len,
	    PROXY_TLV_SSL_CIPHER, &v, &vl), 0);
	ck_assert_uint_eq(vl, 22);
	ck_assert_int_eq(memcmp(v, "AEAD-AES128-GCM-SHA256", 22), 0);
	ck_assert_int_eq(PROXY_TlvFind(ph.tlv, ph.tlv_len, PROXY_TLV_SSL_CN,
	    &v, &vl), -1);
	/* One bit off in the checksum (o00005's first case). */
	buf[34] = 0x74;
	ck_assert_int_eq(PROXY_Parse(buf, hlen, &ph), -1);
	ck_assert_str_eq(ph.garbage, "PROXY2: CRC error");
	/* Or anywhere else. */
	buf[34] = 0x75;
	buf[40] = 'x';
	ck_assert_int_eq(PROXY_Parse(buf, hlen, &ph), -1);
	ck_assert_str_eq(ph.garbage, "PROXY2: CRC error");
}
END_TEST

/* What our own .proxy_header sends, we read back. */
START_TEST(roundtrip)
{
	struct sockaddr_storage c, s;
	struct sockaddr_in *c4 = (struct sockaddr_in *)(void *)&c;
	struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&s;
	struct proxy_hdr ph;
	char buf[PROXY_HDR_MAX];
	unsigned version;
	size_t l, hlen;

	memset(&c, 0, sizeof c);
	memset(&s, 0, sizeof s);
	c4->sin_family = s4->sin_family = AF_INET;
	c4->sin_port = htons(65535);
	s4->sin_port = htons(80);
	ck_assert_int_eq(inet_pton(AF_INET, "255.255.255.255",
	    &c4->sin_addr), 1);
	ck_assert_int_eq(inet_pton(AF_INET, "10.0.0.1", &s4->sin_addr), 1);
	for (version = 1; version <= 2; version++) {
		l = PROXY_Format(buf, sizeof buf, version, &c, &s);
		ck_assert_int_eq(scan(buf, l, &hlen), PROXY_COMPLETE);
		ck_assert_uint_eq(hlen, l);
		ck_assert_int_eq(PROXY_Parse(buf, hlen, &ph), 0);
		ck_assert_uint_eq(ph.addrs, 1);
		ck_assert_uint_eq(ph.version, version);
		ck_assert_int_eq(ph.client.sin.sin_port, c4->sin_port);
		ck_assert_int_eq(ph.server.sin.sin_addr.s_addr,
		    s4->sin_addr.s_addr);
		/* Nobody to vouch for: UNKNOWN, LOCAL. */
		l = PROXY_Format(buf, sizeof buf, version, NULL, NULL);
		ck_assert_int_eq(scan(buf, l, &hlen), PROXY_COMPLETE);
		ck_assert_int_eq(PROXY_Parse(buf, hlen, &ph), 0);
		ck_assert_uint_eq(ph.addrs, 0);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("proxy_recv");
	TCase *tc = tcase_create("parse");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, scan_v1);
	tcase_add_test(tc, scan_v2);
	tcase_add_test(tc, parse_v1);
	tcase_add_test(tc, parse_v1_nul);
	tcase_add_test(tc, parse_v2);
	tcase_add_test(tc, parse_v2_tlv);
	tcase_add_test(tc, roundtrip);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}

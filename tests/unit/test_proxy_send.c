/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_proxy_send.c -- unit tests of PROXY_Format and PROXY_Send (src/
 * cache/proxy_send.c), byte for byte: v1 and v2 for IPv4, IPv6, mixed
 * families (IPv4-mapped), Unix sockets (0.0.0.0 port 0), the probe's
 * header with no client, extreme ports and the longest v1 line; the
 * probe's v1 header over TCP (its own address twice).
 */

#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cache/proxy_send.h"

static const unsigned char sig[12] = "\r\n\r\n\0\r\nQUIT\n";

static struct sockaddr_storage
ss_ip(const char *ip, unsigned port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)(void *)&ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)(void *)&ss;

	memset(&ss, 0, sizeof ss);
	if (strchr(ip, ':') != NULL) {
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		ck_assert_int_eq(inet_pton(AF_INET6, ip, &sin6->sin6_addr), 1);
	} else {
		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		ck_assert_int_eq(inet_pton(AF_INET, ip, &sin->sin_addr), 1);
	}
	return (ss);
}

static void
v1_is(const char *cip, unsigned cport, const char *sip, unsigned sport,
    const char *want)
{
	struct sockaddr_storage c = ss_ip(cip, cport), s = ss_ip(sip, sport);
	char buf[PROXY_HDR_MAX + 1];
	size_t l;

	memset(buf, 'x', sizeof buf);
	l = PROXY_Format(buf, PROXY_HDR_MAX, 1, &c, &s);
	ck_assert_uint_eq(l, strlen(want));
	ck_assert_int_eq(memcmp(buf, want, l), 0);
}

START_TEST(v1_ipv4)
{
	v1_is("192.0.2.1", 56324, "198.51.100.7", 443,
	    "PROXY TCP4 192.0.2.1 198.51.100.7 56324 443\r\n");
	v1_is("0.0.0.0", 0, "255.255.255.255", 65535,
	    "PROXY TCP4 0.0.0.0 255.255.255.255 0 65535\r\n");
}
END_TEST

START_TEST(v1_ipv6)
{
	v1_is("2001:db8::1", 1, "::1", 8080,
	    "PROXY TCP6 2001:db8::1 ::1 1 8080\r\n");
	/* The longest line: 104 bytes, within the spec's 107. */
	v1_is("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535,
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe", 65535,
	    "PROXY TCP6 ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff "
	    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe 65535 65535\r\n");
}
END_TEST

START_TEST(v1_mixed)
{
	/* Both ends must be one family: the IPv4 one is mapped. */
	v1_is("192.0.2.1", 80, "2001:db8::2", 81,
	    "PROXY TCP6 ::ffff:192.0.2.1 2001:db8::2 80 81\r\n");
	v1_is("2001:db8::2", 81, "192.0.2.1", 80,
	    "PROXY TCP6 2001:db8::2 ::ffff:192.0.2.1 81 80\r\n");
}
END_TEST

START_TEST(v1_unix_and_local)
{
	struct sockaddr_storage u;
	struct sockaddr_un *sun = (struct sockaddr_un *)(void *)&u;
	char buf[PROXY_HDR_MAX];
	size_t l;

	memset(&u, 0, sizeof u);
	sun->sun_family = AF_UNIX;
	(void)strncpy(sun->sun_path, "/tmp/x.sock", sizeof sun->sun_path - 1);
	l = PROXY_Format(buf, sizeof buf, 1, &u, &u);
	ck_assert_uint_eq(l, 32);
	ck_assert_int_eq(memcmp(buf, "PROXY TCP4 0.0.0.0 0.0.0.0 0 0\r\n",
	    l), 0);
	l = PROXY_Format(buf, sizeof buf, 1, NULL, NULL);
	ck_assert_uint_eq(l, 15);
	ck_assert_int_eq(memcmp(buf, "PROXY UNKNOWN\r\n", l), 0);
}
END_TEST

START_TEST(v2_ipv4)
{
	struct sockaddr_storage c = ss_ip("192.0.2.1", 0x1234);
	struct sockaddr_storage s = ss_ip("127.0.0.2", 0xfffe);
	static const unsigned char want[] = {
		0x21, 0x11, 0x00, 0x0c,
		192, 0, 2, 1,  127, 0, 0, 2,
		0x12, 0x34,  0xff, 0xfe,
	};
	unsigned char buf[PROXY_HDR_MAX];
	size_t l;

	l = PROXY_Format(buf, sizeof buf, 2, &c, &s);
	ck_assert_uint_eq(l, 28);
	ck_assert_int_eq(memcmp(buf, sig, 12), 0);
	ck_assert_int_eq(memcmp(buf + 12, want, sizeof want), 0);
}
END_TEST

START_TEST(v2_ipv6)
{
	struct sockaddr_storage c = ss_ip("2001:db8::1", 80);
	struct sockaddr_storage s = ss_ip("192.0.2.9", 8080);
	unsigned char buf[PROXY_HDR_MAX];
	size_t l;

	l = PROXY_Format(buf, sizeof buf, 2, &c, &s);
	ck_assert_uint_eq(l, 52);
	ck_assert_int_eq(memcmp(buf, sig, 12), 0);
	ck_assert_int_eq(buf[12], 0x21);
	ck_assert_int_eq(buf[13], 0x21);
	ck_assert_int_eq(buf[14], 0);
	ck_assert_int_eq(buf[15], 36);
	ck_assert_int_eq(buf[16], 0x20);
	ck_assert_int_eq(buf[17], 0x01);
	ck_assert_int_eq(buf[31], 0x01);
	/* The IPv4 server end, mapped. */
	ck_assert_int_eq(memcmp(buf + 32, "\0\0\0\0\0\0\0\0\0\0\xff\xff"
	    "\xc0\x00\x02\x09", 16), 0);
	ck_assert_int_eq(buf[48], 0);
	ck_assert_int_eq(buf[49], 80);
	ck_assert_int_eq(buf[50], 8080 >> 8);
	ck_assert_int_eq(buf[51], 8080 & 0xff);
}
END_TEST

START_TEST(v2_local)
{
	unsigned char buf[PROXY_HDR_MAX];
	size_t l;

	l = PROXY_Format(buf, sizeof buf, 2, NULL, NULL);
	ck_assert_uint_eq(l, 16);
	ck_assert_int_eq(memcmp(buf, sig, 12), 0);
	ck_assert_int_eq(memcmp(buf + 12, "\x20\x00\x00\x00", 4), 0);
}
END_TEST

START_TEST(send_socketpair)
{
	struct sockaddr_storage c = ss_ip("10.1.2.3", 5), s = ss_ip("10.0.0.1",
	    6);
	char buf[64];
	int sv[2];
	ssize_t n;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	n = PROXY_Send(sv[0], 1, &c, &s, 1.0);
	ck_assert_int_eq(n, 34);
	ck_assert_int_eq(read(sv[1], buf, sizeof buf), 34);
	ck_assert_int_eq(memcmp(buf, "PROXY TCP4 10.1.2.3 10.0.0.1 5 6\r\n",
	    34), 0);
	/* No client, v1, not IP: UNKNOWN; v2: LOCAL. */
	ck_assert_int_eq(PROXY_Send(sv[0], 1, NULL, NULL, 1.0), 15);
	ck_assert_int_eq(read(sv[1], buf, sizeof buf), 15);
	ck_assert_int_eq(memcmp(buf, "PROXY UNKNOWN\r\n", 15), 0);
	ck_assert_int_eq(PROXY_Send(sv[0], 2, NULL, NULL, 1.0), 16);
	ck_assert_int_eq(read(sv[1], buf, sizeof buf), 16);
	ck_assert_int_eq(buf[12], 0x20);
	/* The peer is gone: an error, not SIGPIPE. */
	(void)close(sv[1]);
	ck_assert_int_eq(PROXY_Send(sv[0], 2, &c, &s, 1.0), -1);
	(void)close(sv[0]);
}
END_TEST

/* A probe's header over TCP: v1 its own address for both ends. */
START_TEST(send_v1_local_tcp)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof sin;
	char buf[128], want[128];
	int l, c, a;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(l, 0);
	ck_assert_int_eq(bind(l, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(listen(l, 1), 0);
	ck_assert_int_eq(getsockname(l, (struct sockaddr *)&sin, &sl), 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_eq(connect(c, (struct sockaddr *)&sin, sizeof sin), 0);
	a = accept(l, NULL, NULL);
	ck_assert_int_ge(a, 0);
	sl = sizeof sin;
	ck_assert_int_eq(getsockname(c, (struct sockaddr *)&sin, &sl), 0);
	(void)snprintf(want, sizeof want, "PROXY TCP4 127.0.0.1 127.0.0.1 "
	    "%u %u\r\n", ntohs(sin.sin_port), ntohs(sin.sin_port));
	ck_assert_uint_eq(PROXY_FormatProbe(buf, sizeof buf, 1, c),
	    strlen(want));
	ck_assert_int_eq(memcmp(buf, want, strlen(want)), 0);
	/* v2: LOCAL, no addresses. */
	ck_assert_uint_eq(PROXY_FormatProbe(buf, sizeof buf, 2, c), 16);
	ck_assert_int_eq(buf[12], 0x20);
	(void)close(a);
	(void)close(c);
	(void)close(l);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("proxy_send");
	TCase *tc = tcase_create("format");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, v1_ipv4);
	tcase_add_test(tc, v1_ipv6);
	tcase_add_test(tc, v1_mixed);
	tcase_add_test(tc, v1_unix_and_local);
	tcase_add_test(tc, v2_ipv4);
	tcase_add_test(tc, v2_ipv6);
	tcase_add_test(tc, v2_local);
	tcase_add_test(tc, send_socketpair);
	tcase_add_test(tc, send_v1_local_tcp);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}

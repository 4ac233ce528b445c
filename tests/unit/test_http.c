/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_http.c -- unit tests of the struct http helpers: lookups, token
 * lists, removing headers, hop-by-hop filtering, copying.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "cache/http.h"
#include "cache/ws.h"

#define NSLOT		(HTTP_HDR_FIRST + 32)

struct msg {
	struct http	http;
	struct txt	hd[NSLOT];
	unsigned char	hdf[NSLOT];
};

static struct msg m1, m2;
static struct vsl_log vsl;		/* no buffer: records are dropped */
static struct ws ws[1];
static uint64_t space[1024];

static void
http_setup(void)
{

	memset(&vsl, 0, sizeof vsl);
	WS_Init(ws, "tst", space, sizeof space);
	HTTP_Setup(&m1.http, ws, m1.hd, m1.hdf, NSLOT, &vsl, SLT_ReqMethod);
	HTTP_Setup(&m2.http, ws, m2.hd, m2.hdf, NSLOT, &vsl, SLT_BereqMethod);
}

/* Fill hp with header lines, NULL-terminated list. */
static void
add(struct http *hp, const char * const *lines)
{

	for (; *lines != NULL; lines++)
		ck_assert_int_eq(HTTP_SetHeader(hp, *lines), 0);
}

static int
has_value(const struct http *hp, const char *name, const char *want)
{
	struct txt v;

	if (!HTTP_GetHdr(hp, name, &v))
		return (0);
	return (TXT_Eq(v, want));
}

START_TEST(test_get_hdr)
{
	static const char * const h[] = {
		"Content-Type: text/html", "X-Empty:", "X-Blank: \t ",
		"X-Trim: \t a b \t", "Content-Length: 5", "x-dup: 1",
		"X-Dup: 2", NULL,
	};
	struct txt v;

	add(&m1.http, h);
	ck_assert(has_value(&m1.http, "Content-Type", "text/html"));
	ck_assert(has_value(&m1.http, "content-type", "text/html"));
	ck_assert(has_value(&m1.http, "CONTENT-TYPE", "text/html"));
	ck_assert(has_value(&m1.http, "X-Empty", ""));
	ck_assert(has_value(&m1.http, "x-blank", ""));
	ck_assert(has_value(&m1.http, "X-Trim", "a b"));
	/* The first instance wins. */
	ck_assert(has_value(&m1.http, "X-Dup", "1"));
	/* Prefixes and extensions of a name are other names. */
	ck_assert(!HTTP_GetHdr(&m1.http, "Content", &v));
	ck_assert(!HTTP_GetHdr(&m1.http, "Content-Type2", &v));
	ck_assert(!HTTP_GetHdr(&m1.http, "Content-Typ", &v));
	ck_assert(!HTTP_GetHdr(&m1.http, "Missing", &v));
	ck_assert(HTTP_GetHdr(&m1.http, "content-length", NULL));
	ck_assert_uint_eq(HTTP_FindHdr(&m1.http, "x-dup", 0),
	    HTTP_HDR_FIRST + 5);
	ck_assert_uint_eq(HTTP_FindHdr(&m1.http, "x-dup", HTTP_HDR_FIRST + 6),
	    HTTP_HDR_FIRST + 6);
	ck_assert_uint_eq(HTTP_FindHdr(&m1.http, "x-dup", HTTP_HDR_FIRST + 7),
	    0);
	v = HTTP_HdrValue(&m1.http, HTTP_HDR_FIRST + 3);
	ck_assert(TXT_Eq(v, "a b"));
}
END_TEST

START_TEST(test_start_line_not_header)
{

	/* A URL that looks like a header line is not one. */
	HTTP_SetSlot(&m1.http, HTTP_HDR_METHOD, "GET");
	HTTP_SetSlot(&m1.http, HTTP_HDR_URL, "Host: evil");
	HTTP_SetSlot(&m1.http, HTTP_HDR_PROTO, "HTTP/1.1");
	ck_assert(!HTTP_GetHdr(&m1.http, "Host", NULL));
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Host"), 0);
}
END_TEST

START_TEST(test_count_hdr)
{
	static const char * const h[] = {
		"Set-Cookie: a=1", "Via: 1.1 x", "set-cookie: b=2",
		"SET-COOKIE: c=3", "Set-Cookie2: d=4", "Host: h", NULL,
	};

	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Set-Cookie"), 0);
	add(&m1.http, h);
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Set-Cookie"), 3);
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "set-cookie2"), 1);
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Host"), 1);
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Hos"), 0);
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Nope"), 0);
}
END_TEST

START_TEST(test_has_token)
{
	static const char * const h[] = {
		"Connection: keep-alive, Upgrade",
		"Cache-Control: no-cache,\tmax-age=0 ,  private",
		"Cache-Control: ,, no-store ,,",
		"Accept-Encoding: gzip;q=1.0, br",
		"X-Closed: closed, enclose",
		"X-Spaces: a b",
		NULL,
	};

	add(&m1.http, h);
	ck_assert(HTTP_HdrHasToken(&m1.http, "Connection", "keep-alive"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "connection", "upgrade"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "Connection", "KEEP-ALIVE"));
	ck_assert(!HTTP_HdrHasToken(&m1.http, "Connection", "close"));
	ck_assert(!HTTP_HdrHasToken(&m1.http, "Connection", "keep"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "Cache-Control", "no-cache"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "Cache-Control", "max-age=0"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "Cache-Control", "private"));
	/* Second instance, empty elements around it. */
	ck_assert(HTTP_HdrHasToken(&m1.http, "Cache-Control", "no-store"));
	ck_assert(!HTTP_HdrHasToken(&m1.http, "Cache-Control", "max-age"));
	/* Parameters are part of the element. */
	ck_assert(!HTTP_HdrHasToken(&m1.http, "Accept-Encoding", "gzip"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "Accept-Encoding", "br"));
	ck_assert(!HTTP_HdrHasToken(&m1.http, "X-Closed", "close"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "X-Closed", "enclose"));
	ck_assert(!HTTP_HdrHasToken(&m1.http, "X-Spaces", "a"));
	ck_assert(HTTP_HdrHasToken(&m1.http, "X-Spaces", "a b"));
	ck_assert(!HTTP_HdrHasToken(&m1.http, "Missing", "a"));
}
END_TEST

START_TEST(test_unset)
{
	static const char * const h[] = {
		"A: 1", "Cookie: x", "B: 2", "cookie: y", "COOKIE: z",
		"Cookies: keep", "C: 3", NULL,
	};

	add(&m1.http, h);
	m1.hdf[HTTP_HDR_FIRST + 2] = HDF_FILTER;
	HTTP_Unset(&m1.http, "Cookie");
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Cookie"), 0);
	ck_assert_uint_eq(m1.http.nhd, HTTP_HDR_FIRST + 4);
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_FIRST], "A: 1"));
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_FIRST + 1], "B: 2"));
	/* Flags move with their header. */
	ck_assert_uint_eq(m1.hdf[HTTP_HDR_FIRST + 1], HDF_FILTER);
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_FIRST + 2], "Cookies: keep"));
	ck_assert_uint_eq(m1.hdf[HTTP_HDR_FIRST + 2], 0);
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_FIRST + 3], "C: 3"));
	HTTP_Unset(&m1.http, "Nope");
	ck_assert_uint_eq(m1.http.nhd, HTTP_HDR_FIRST + 4);
	HTTP_Unset(&m1.http, "A");
	HTTP_Unset(&m1.http, "C");
	ck_assert_uint_eq(m1.http.nhd, HTTP_HDR_FIRST + 2);
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_FIRST], "B: 2"));
}
END_TEST

static const struct filter_case {
	const char	*line;
	unsigned	filtered;
} filter_cases[] = {
	{ "Host: example.com", 0 },
	{ "Connection: close, X-Secret , x-other", 1 },
	{ "Keep-Alive: timeout=5", 1 },
	{ "TE: trailers", 1 },
	{ "Trailer: X-Checksum", 1 },
	{ "Transfer-Encoding: chunked", 1 },
	{ "Upgrade: websocket", 1 },
	{ "Proxy-Authorization: Basic x", 1 },
	{ "Proxy-Connection: keep-alive", 1 },
	{ "proxy-authenticate: x", 1 },
	{ "X-Secret: 1", 1 },
	{ "x-secret: 2", 1 },
	{ "X-Other: 3", 1 },
	{ "X-Secrets: 4", 0 },
	{ "Trailers: 5", 0 },
	{ "TEST: 6", 0 },
	{ "Proxy: 7", 0 },
	{ "Content-Type: text/plain", 0 },
	{ "Accept: */*", 0 },
	{ "Connection2: x", 0 },
	{ "Upgrade-Insecure-Requests: 1", 0 },
	{ "Close: 8", 1 },
	/* Only the three Proxy-* names RFC 9110 makes hop-by-hop. */
	{ "Proxy-Authenticat: 9", 0 },
	{ "Proxy-Authenticatef: 10", 0 },
	{ "Proxy-Status: veneer; error=http_request_error", 0 },
};

START_TEST(test_filter_hop_by_hop)
{
	unsigned u;

	for (u = 0; u < ARRAY_SIZE(filter_cases); u++)
		ck_assert_int_eq(HTTP_SetHeader(&m1.http,
		    filter_cases[u].line), 0);
	HTTP_FilterHopByHop(&m1.http);
	for (u = 0; u < ARRAY_SIZE(filter_cases); u++)
		ck_assert_msg((m1.hdf[HTTP_HDR_FIRST + u] & HDF_FILTER) ==
		    (filter_cases[u].filtered ? HDF_FILTER : 0),
		    "\"%s\" filtered %u, want %u", filter_cases[u].line,
		    m1.hdf[HTTP_HDR_FIRST + u] & HDF_FILTER,
		    filter_cases[u].filtered);
}
END_TEST

START_TEST(test_filter_two_connection_headers)
{
	static const char * const h[] = {
		"Connection: A", "A: 1", "B: 2", "connection:\tb\t", "C: 3",
		NULL,
	};

	add(&m1.http, h);
	HTTP_FilterHopByHop(&m1.http);
	ck_assert(m1.hdf[HTTP_HDR_FIRST + 1] & HDF_FILTER);
	ck_assert(m1.hdf[HTTP_HDR_FIRST + 2] & HDF_FILTER);
	ck_assert(!(m1.hdf[HTTP_HDR_FIRST + 4] & HDF_FILTER));
}
END_TEST

/* What Connection: names leaves a received request; prefixes stay. */
START_TEST(test_unset_connection_named)
{
	static const char * const h[] = {
		"Host: a", "X-A: 1", "X-AB: 2", "X-A-B: 3", "x-a: 4",
		"Connection: x-A,, \t X-Gone", "Connection: keep-alive, Host",
		"Keep-Alive: 5", "X-Gone: 6", "Proxy-Connection: 7",
		"Connection: Upgrade, Proxy-Connection, TE, Proxy-Foo",
		"Upgrade: websocket", "TE: trailers", "X-Kept: 8",
		"Proxy-Foo: 9", NULL,
	};
	const char *why = NULL;

	add(&m1.http, h);
	HTTP_FilterHopByHop(&m1.http);
	ck_assert_int_eq(HTTP_UnsetConnectionNamed(&m1.http, &why), 0);
	ck_assert_ptr_null(why);
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "X-A"), 0);
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "X-Gone"), 0);
	/* Names that extend a named one are other headers. */
	ck_assert(has_value(&m1.http, "X-AB", "2"));
	ck_assert(has_value(&m1.http, "X-A-B", "3"));
	/* Host is end-to-end; the named hop-by-hop ones stay flagged. */
	ck_assert(has_value(&m1.http, "Host", "a"));
	ck_assert(has_value(&m1.http, "Upgrade", "websocket"));
	ck_assert(has_value(&m1.http, "Keep-Alive", "5"));
	ck_assert(has_value(&m1.http, "Proxy-Connection", "7"));
	/* Other Proxy-* names are ordinary headers. */
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Proxy-Foo"), 0);
	ck_assert(has_value(&m1.http, "TE", "trailers"));
	ck_assert(has_value(&m1.http, "X-Kept", "8"));
	ck_assert_uint_eq(HTTP_CountHdr(&m1.http, "Connection"), 3);
	/* The survivors keep their order and their flags. */
	ck_assert(HTTP_IsHdr(&m1.http, HTTP_HDR_FIRST + 2, "X-A-B", 5));
	ck_assert(m1.http.hdf[HTTP_FindHdr(&m1.http, "Upgrade", 0)] &
	    HDF_FILTER);
	ck_assert(!(m1.http.hdf[HTTP_FindHdr(&m1.http, "X-Kept", 0)] &
	    HDF_FILTER));
	ck_assert_uint_eq(m1.http.nhd, HTTP_HDR_FIRST + 11);
}
END_TEST

START_TEST(test_unset_connection_content_length)
{
	static const char * const h[] = {
		"Content-Length: 5", "Connection: close, CONTENT-length", NULL,
	};
	const char *why = NULL;

	add(&m1.http, h);
	ck_assert_int_eq(HTTP_UnsetConnectionNamed(&m1.http, &why), -1);
	ck_assert_ptr_nonnull(why);
	ck_assert(has_value(&m1.http, "Content-Length", "5"));
}
END_TEST


START_TEST(test_hdr_is_only)
{
	static const char * const h[] = {
		"Expect: 100-continue", "X-Other: 1", "expect: 100-Continue , ",
		"A: x, y", "B:", "C: ,", NULL,
	};

	add(&m1.http, h);
	ck_assert(HTTP_HdrIsOnly(&m1.http, "Expect", "100-continue"));
	ck_assert(!HTTP_HdrIsOnly(&m1.http, "A", "x"));
	ck_assert(!HTTP_HdrIsOnly(&m1.http, "B", "x"));
	ck_assert(!HTTP_HdrIsOnly(&m1.http, "C", "x"));
	ck_assert(!HTTP_HdrIsOnly(&m1.http, "Absent", "x"));
	ck_assert(!HTTP_HdrIsOnly(&m1.http, "Expect", "100-continu"));
}
END_TEST

START_TEST(test_copy_headers)
{
	static const char * const h[] = {
		"Host: h", "Connection: X-Hop", "X-Hop: 1", "Keep-Alive: 5",
		"Accept: */*", "Transfer-Encoding: chunked", "X-Keep: 2",
		NULL,
	};
	unsigned u;

	HTTP_SetSlot(&m1.http, HTTP_HDR_METHOD, "GET");
	HTTP_SetSlot(&m1.http, HTTP_HDR_URL, "/");
	HTTP_SetSlot(&m1.http, HTTP_HDR_PROTO, "HTTP/1.1");
	add(&m1.http, h);
	HTTP_FilterHopByHop(&m1.http);
	for (u = 0; u < HTTP_HDR_FIRST; u++)
		HTTP_CopySlot(&m2.http, &m1.http, u);
	ck_assert_int_eq(HTTP_CopyHeaders(&m2.http, &m1.http), 0);
	ck_assert(TXT_Eq(m2.hd[HTTP_HDR_URL], "/"));
	ck_assert_uint_eq(m2.http.nhd, HTTP_HDR_FIRST + 3);
	ck_assert(TXT_Eq(m2.hd[HTTP_HDR_FIRST], "Host: h"));
	ck_assert(TXT_Eq(m2.hd[HTTP_HDR_FIRST + 1], "Accept: */*"));
	ck_assert(TXT_Eq(m2.hd[HTTP_HDR_FIRST + 2], "X-Keep: 2"));
	/* Strings are shared, not copied. */
	ck_assert_ptr_eq(m2.hd[HTTP_HDR_FIRST].b, m1.hd[HTTP_HDR_FIRST].b);
	for (u = HTTP_HDR_FIRST; u < m2.http.nhd; u++)
		ck_assert_uint_eq(m2.hdf[u], 0);
}
END_TEST

START_TEST(test_copy_headers_full)
{
	struct http small;
	struct txt hd[HTTP_HDR_FIRST + 2];
	unsigned char hdf[HTTP_HDR_FIRST + 2];
	static const char * const h[] = { "A: 1", "B: 2", "C: 3", NULL };

	HTTP_Setup(&small, ws, hd, hdf, HTTP_HDR_FIRST + 2, &vsl,
	    SLT_BereqMethod);
	add(&m1.http, h);
	ck_assert_int_eq(HTTP_CopyHeaders(&small, &m1.http), -1);
	ck_assert_uint_eq(small.nhd, HTTP_HDR_FIRST + 2);
	/* With one filtered, it fits. */
	HTTP_Clear(&small);
	m1.hdf[HTTP_HDR_FIRST + 1] |= HDF_FILTER;
	ck_assert_int_eq(HTTP_CopyHeaders(&small, &m1.http), 0);
	ck_assert(TXT_Eq(hd[HTTP_HDR_FIRST + 1], "C: 3"));
}
END_TEST

START_TEST(test_set_header_limits)
{
	unsigned u;

	for (u = HTTP_HDR_FIRST; u < NSLOT; u++)
		ck_assert_int_eq(HTTP_SetHeader(&m1.http, "X: y"), 0);
	ck_assert_int_eq(HTTP_SetHeader(&m1.http, "X: z"), -1);
	ck_assert_int_eq(HTTP_PrintfHeader(&m1.http, "X: %d", 1), -1);
	ck_assert_uint_eq(m1.http.nhd, NSLOT);
}
END_TEST

START_TEST(test_printf_header)
{
	char big[sizeof space * 2];

	ck_assert_int_eq(HTTP_PrintfHeader(&m1.http, "Age: %d", 42), 0);
	ck_assert(has_value(&m1.http, "Age", "42"));
	ck_assert(WS_Inside(ws, m1.hd[HTTP_HDR_FIRST].b,
	    m1.hd[HTTP_HDR_FIRST].e));
	ck_assert_int_eq(*m1.hd[HTTP_HDR_FIRST].e, '\0');
	/* Out of workspace: -1, overflow flagged, nothing added. */
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ck_assert_int_eq(HTTP_PrintfHeader(&m1.http, "X-Big: %s", big), -1);
	ck_assert(WS_Overflowed(ws));
	ck_assert_uint_eq(m1.http.nhd, HTTP_HDR_FIRST + 1);
}
END_TEST

START_TEST(test_set_status)
{

	HTTP_SetStatus(&m1.http, 404, NULL);
	ck_assert_uint_eq(m1.http.status, 404);
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_STATUS], "404"));
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_REASON], "Not Found"));
	HTTP_SetStatus(&m1.http, 299, "Custom");
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_STATUS], "299"));
	ck_assert(TXT_Eq(m1.hd[HTTP_HDR_REASON], "Custom"));
	ck_assert_str_eq(HTTP_Reason(200), "OK");
	ck_assert_str_eq(HTTP_Reason(431), "Request Header Fields Too Large");
	ck_assert_str_eq(HTTP_Reason(799), "Unknown");
}
END_TEST

static Suite *
http_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("http");
	tc = tcase_create("http");
	tcase_add_checked_fixture(tc, http_setup, NULL);
	tcase_add_test(tc, test_get_hdr);
	tcase_add_test(tc, test_start_line_not_header);
	tcase_add_test(tc, test_count_hdr);
	tcase_add_test(tc, test_has_token);
	tcase_add_test(tc, test_unset);
	tcase_add_test(tc, test_filter_hop_by_hop);
	tcase_add_test(tc, test_filter_two_connection_headers);
	tcase_add_test(tc, test_unset_connection_named);
	tcase_add_test(tc, test_unset_connection_content_length);
	tcase_add_test(tc, test_hdr_is_only);
	tcase_add_test(tc, test_copy_headers);
	tcase_add_test(tc, test_copy_headers_full);
	tcase_add_test(tc, test_set_header_limits);
	tcase_add_test(tc, test_printf_header);
	tcase_add_test(tc, test_set_status);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(http_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

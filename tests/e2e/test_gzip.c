/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_gzip.c -- http_gzip_support end to end: a real veneerd and an
 * origin serving gzip and plain bodies.  One gzip object serves a gzip
 * client as stored and a plain one uncompressed (a HEAD too, and a
 * range of the uncompressed bytes); beresp.do_gzip and do_gunzip store
 * the other coding with Varnish's header changes; a corrupt gzip body
 * fails the fetch (503), never the child; Accept-Encoding is
 * normalized for lookups and the backend is asked for gzip.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "lib/harness.h"

#define PLAIN	"Hello, gzip world! Hello, gzip world! Hello again."

#define ESI_PAGE	"<p>A<esi:include src=\"/frag\"/>B</p>"
#define ESI_DONE	"<p>AfragB</p>"

/* gzip of PLAIN and of ESI_PAGE, made once. */
static unsigned char gz_body[256], gz_esi[256];
static size_t gz_len, gz_esi_len;

static size_t
gzip_of(const char *s, unsigned char *buf, size_t len)
{
	z_stream z;

	memset(&z, 0, sizeof z);
	ck_assert_int_eq(deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)s;
	z.avail_in = (uInt)strlen(s);
	z.next_out = buf;
	z.avail_out = (uInt)len;
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	len -= z.avail_out;
	(void)deflateEnd(&z);
	return (len);
}

static void
make_gz(void)
{

	gz_len = gzip_of(PLAIN, gz_body, sizeof gz_body);
	gz_esi_len = gzip_of(ESI_PAGE, gz_esi, sizeof gz_esi);
}

/* Uncompress a gzip body; 1 when it is want. */
static int
gunzips_to(const char *b, size_t len, const char *want)
{
	unsigned char out[256];
	z_stream z;
	int i;

	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 16 + 15) != Z_OK)
		return (0);
	z.next_in = (Bytef *)(uintptr_t)b;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = sizeof out;
	i = inflate(&z, Z_FINISH);
	(void)inflateEnd(&z);
	return (i == Z_STREAM_END && z.total_out == strlen(want) &&
	    !memcmp(out, want, strlen(want)));
}

static int
gunzips_to_plain(const char *b, size_t len)
{

	return (gunzips_to(b, len, PLAIN));
}

static char last_ae[128];	/* Accept-Encoding the origin saw */

/*
 * A body that unzips to several gzip_buffers (32k) of text no two
 * pieces of which are alike, and its gzip: made once.
 */
#define BIG_LEN		(300 * 1024)
static char *big_plain;
static unsigned char *big_gz;
static size_t big_gz_len;

static void
make_big(void)
{
	z_stream z;
	size_t u;

	if (big_plain != NULL)
		return;
	big_plain = malloc(BIG_LEN + 1);
	big_gz = malloc(BIG_LEN + 1024);
	ck_assert(big_plain != NULL && big_gz != NULL);
	for (u = 0; u < BIG_LEN; u++)
		big_plain[u] = (char)('a' + (u * 7 + u / 1000) % 26);
	big_plain[BIG_LEN] = '\0';
	memset(&z, 0, sizeof z);
	ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 16 + 15, 8,
	    Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)big_plain;
	z.avail_in = BIG_LEN;
	z.next_out = big_gz;
	z.avail_out = BIG_LEN + 1024;
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	big_gz_len = BIG_LEN + 1024 - z.avail_out;
	(void)deflateEnd(&z);
}

static void
o_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	const char *ae;

	(void)priv;
	ae = HX_Header(req, "Accept-Encoding");
	(void)snprintf(last_ae, sizeof last_ae, "%s", ae != NULL ? ae : "-");
	if (!strncmp(req->url, "/gz", 3) || !strncmp(req->url, "/pass/gz", 8))
		(void)ORIGIN_Respond(oc, 200, "Content-Encoding: gzip\r\n"
		    "ETag: \"e1\"\r\nCache-Control: max-age=100\r\n",
		    gz_body, (ssize_t)gz_len);
	else if (!strncmp(req->url, "/plain", 6) ||
	    !strncmp(req->url, "/pass/plain", 11))
		(void)ORIGIN_Respond(oc, 200, "ETag: \"p1\"\r\n"
		    "Cache-Control: max-age=100\r\n", PLAIN, -1);
	else if (!strcmp(req->url, "/esi/gz"))
		(void)ORIGIN_Respond(oc, 200, "Content-Encoding: gzip\r\n"
		    "Cache-Control: max-age=100\r\n", gz_esi,
		    (ssize_t)gz_esi_len);
	else if (!strncmp(req->url, "/esi/plain", 10))
		(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=100\r\n",
		    ESI_PAGE, -1);
	else if (!strcmp(req->url, "/frag"))
		(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=100\r\n",
		    "frag", -1);
	else if (!strcmp(req->url, "/big"))
		(void)ORIGIN_Respond(oc, 200, "Content-Encoding: gzip\r\n"
		    "Cache-Control: max-age=100\r\n", big_gz,
		    (ssize_t)big_gz_len);
	else if (!strncmp(req->url, "/bad", 4))
		(void)ORIGIN_Respond(oc, 200, "Content-Encoding: gzip\r\n"
		    "Cache-Control: max-age=100\r\n",
		    "\x1f\x8b\x08\x00 this is not deflate data", -1);
	else
		(void)ORIGIN_Respond(oc, 404, NULL, "none", -1);
}

static const char gzip_vcl[] =
    "sub vcl_recv {\n"
    "\tif (req.url ~ \"^/pass\") { return (pass); }\n"
    "}\n"
    "sub vcl_backend_response {\n"
    "\tif (bereq.url ~ \"dogzip\") { set beresp.do_gzip = true; }\n"
    "\tif (bereq.url ~ \"dogunzip\") { set beresp.do_gunzip = true; }\n"
    "\tif (bereq.url ~ \"^/bad\") { set beresp.do_stream = false; }\n"
    "\tif (bereq.url ~ \"^/esi\") { set beresp.do_esi = true; }\n"
    "}\n"
    "sub vcl_deliver {\n"
    "\tset resp.http.X-AE = req.http.Accept-Encoding;\n"
    "\tset resp.http.X-Can = req.can_gzip;\n"
    "}\n";

static struct hx_msg *
get(struct hx_vcl *t, const char *method, const char *url, const char *hdrs)
{
	struct hx_msg *m;

	m = CLIENT_Fetch(t->cl, method, url, hdrs, HX_T_SLOW);
	ck_assert_ptr_nonnull(m);
	return (m);
}

static void
is_plain(const struct hx_msg *m)
{

	ck_assert_int_eq(m->status, 200);
	ck_assert_ptr_null(HX_Header(m, "Content-Encoding"));
	ck_assert_msg(m->body != NULL && m->bodylen == sizeof PLAIN - 1 &&
	    !memcmp(m->body, PLAIN, m->bodylen), "body \"%.*s\"",
	    m->body == NULL ? 0 : (int)m->bodylen, m->body);
}

static void
is_gzip(const struct hx_msg *m)
{

	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "Content-Encoding", "gzip");
	ck_assert(m->body != NULL && gunzips_to_plain(m->body, m->bodylen));
}

/*
 * A gzip object unzipped on the way out in several buffers: every byte
 * right.  The writer used to queue each buffer's bytes and send them
 * after the next had overwritten them (and after the buffer was freed).
 */
START_TEST(gzip_big_gunzipped)
{
	struct hx_vcl t;
	struct hx_msg *m;

	make_gz();
	make_big();
	HXV_Start(&t, o_handler, gzip_vcl);
	m = get(&t, "GET", "/big", "Accept-Encoding: gzip\r\n");
	ck_assert_int_eq(m->status, 200);
	ck_assert_uint_eq(m->bodylen, big_gz_len);
	HX_MsgFree(&m);
	m = get(&t, "GET", "/big", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_ptr_null(HX_Header(m, "Content-Encoding"));
	ck_assert_uint_eq(m->bodylen, BIG_LEN);
	ck_assert_msg(!memcmp(m->body, big_plain, BIG_LEN), "the unzipped "
	    "body differs");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* One stored gzip object: gzip clients get it, others plain. */
START_TEST(gzip_one_object_two_clients)
{
	struct hx_vcl t;
	struct hx_msg *m;

	make_gz();
	HXV_Start(&t, o_handler, gzip_vcl);
	m = get(&t, "GET", "/gz", "Accept-Encoding: deflate, gzip;q=0.5\r\n");
	is_gzip(m);
	ck_assert_uint_eq(m->bodylen, gz_len);
	HX_HeaderIs(m, "X-AE", "gzip");		/* normalized */
	HX_HeaderIs(m, "X-Can", "true");
	HX_HeaderIs(m, "Vary", "Accept-Encoding");
	HX_HeaderIs(m, "ETag", "\"e1\"");	/* stored as it came */
	ck_assert_str_eq(last_ae, "gzip");
	HX_MsgFree(&m);

	/* Not accepting gzip: the same object, uncompressed; a hit. */
	m = get(&t, "GET", "/gz", "Accept-Encoding: gzip;q=0, br\r\n");
	is_plain(m);
	HX_HeaderIs(m, "X-AE", "");	/* removed */
	HX_HeaderIs(m, "X-Can", "false");
	HX_HeaderIs(m, "Vary", "Accept-Encoding");
	HX_HeaderIs(m, "ETag", "W/\"e1\"");	/* not the stored bytes */
	HX_HeaderIs(m, "Content-Length", "50");
	HX_MsgFree(&m);
	m = get(&t, "GET", "/gz", NULL);
	is_plain(m);
	HX_MsgFree(&m);

	/* HEAD: no coding, and counted as Varnish counts it. */
	m = get(&t, "HEAD", "/gz", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_ptr_null(HX_Header(m, "Content-Encoding"));
	HX_MsgFree(&m);

	/* A range of the uncompressed bytes. */
	m = get(&t, "GET", "/gz", "Range: bytes=7-10\r\n");
	ck_assert_int_eq(m->status, 206);
	ck_assert_ptr_null(HX_Header(m, "Content-Encoding"));
	HX_HeaderIs(m, "Content-Range", "bytes 7-10/50");
	ck_assert(m->bodylen == 4 && !memcmp(m->body, "gzip", 4));
	HX_MsgFree(&m);

	(void)VND_WaitCounter(t.v, "MAIN.s_fetch", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_test_gunzip", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gunzip", "==", 4, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gzip", "==", 0, HX_T_SLOW);
	HXV_Finish(&t);
}
END_TEST

/* do_gzip: stored gzip, with Varnish's header changes. */
START_TEST(gzip_do_gzip)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, gzip_vcl);
	m = get(&t, "GET", "/plain/dogzip", "Accept-Encoding: gzip\r\n");
	is_gzip(m);
	HX_HeaderIs(m, "ETag", "W/\"p1\"");
	HX_HeaderIs(m, "Vary", "Accept-Encoding");
	HX_MsgFree(&m);
	m = get(&t, "GET", "/plain/dogzip", NULL);
	is_plain(m);
	HX_MsgFree(&m);
	(void)VND_WaitCounter(t.v, "MAIN.n_gzip", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gunzip", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.s_fetch", "==", 1, HX_T_SLOW);
	HXV_Finish(&t);
}
END_TEST

/* do_gunzip: stored plain, for everybody. */
START_TEST(gzip_do_gunzip)
{
	struct hx_vcl t;
	struct hx_msg *m;

	make_gz();
	HXV_Start(&t, o_handler, gzip_vcl);
	m = get(&t, "GET", "/gz/dogunzip", "Accept-Encoding: gzip\r\n");
	is_plain(m);
	HX_HeaderIs(m, "ETag", "W/\"e1\"");
	HX_MsgFree(&m);
	m = get(&t, "GET", "/gz/dogunzip", NULL);
	is_plain(m);
	HX_MsgFree(&m);
	(void)VND_WaitCounter(t.v, "MAIN.n_gunzip", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gzip", "==", 0, HX_T_SLOW);
	HXV_Finish(&t);
}
END_TEST

/* A corrupt gzip body is a failed fetch, never a crash. */
START_TEST(gzip_corrupt_backend)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler, gzip_vcl);
	m = get(&t, "GET", "/bad", "Accept-Encoding: gzip\r\n");
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	m = get(&t, "GET", "/bad/dogunzip", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	(void)VND_WaitCounter(t.v, "MAIN.n_test_gunzip", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gunzip", "==", 1, HX_T_SLOW);
	HXV_Finish(&t);
}
END_TEST

/* Off: bodies and Accept-Encoding as they came. */
START_TEST(gzip_support_off)
{
	struct hx_vcl t;
	struct hx_msg *m;
	char *text;

	make_gz();
	/* HXV_Start, with the parameter set before the start. */
	t.o = ORIGIN_New(o_handler, NULL);
	t.v = VND_New();
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nbackend default "
	    "{ .host = \"127.0.0.1\"; .port = \"%d\"; }\n%s",
	    ORIGIN_Port(t.o), gzip_vcl), 0);
	VND_VclFile(t.v, "t.vcl", text);
	free(text);
	VND_Param(t.v, "http_gzip_support", "off");
	VND_Start(t.v);
	t.cl = VND_Connect(t.v);
	m = get(&t, "GET", "/plain/dogzip", "Accept-Encoding: br\r\n");
	is_plain(m);
	HX_HeaderIs(m, "X-AE", "br");
	ck_assert_str_eq(last_ae, "br");
	HX_MsgFree(&m);
	m = get(&t, "GET", "/gz", NULL);
	is_gzip(m);
	HX_MsgFree(&m);
	(void)VND_WaitCounter(t.v, "MAIN.n_gzip", "==", 0, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gunzip", "==", 0, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_test_gunzip", "==", 0, HX_T_SLOW);
	HXV_Finish(&t);
}
END_TEST

/*
 * ESI: a page Varnish would store gzip'd (it came gzip'd, or do_gzip)
 * goes to gzip clients compressed, assembled; to others plain.
 */
START_TEST(gzip_esi)
{
	static const char * const urls[] = { "/esi/gz", "/esi/plain/dogzip" };
	struct hx_vcl t;
	struct hx_msg *m;
	unsigned u;

	make_gz();
	HXV_Start(&t, o_handler, gzip_vcl);
	for (u = 0; u < 2; u++) {
		m = get(&t, "GET", urls[u], "Accept-Encoding: gzip\r\n");
		ck_assert_int_eq(m->status, 200);
		HX_HeaderIs(m, "Content-Encoding", "gzip");
		HX_HeaderIs(m, "Vary", "Accept-Encoding");
		ck_assert_msg(m->body != NULL && gunzips_to(m->body,
		    m->bodylen, ESI_DONE), "%s", urls[u]);
		HX_MsgFree(&m);
		m = get(&t, "GET", urls[u], NULL);
		ck_assert_int_eq(m->status, 200);
		ck_assert_ptr_null(HX_Header(m, "Content-Encoding"));
		ck_assert_msg(m->bodylen == strlen(ESI_DONE) &&
		    !memcmp(m->body, ESI_DONE, m->bodylen), "%s: \"%.*s\"",
		    urls[u], (int)m->bodylen, m->body);
		HX_MsgFree(&m);
	}
	/* A plain page without do_gzip stays plain, as in Varnish. */
	m = get(&t, "GET", "/esi/plain", "Accept-Encoding: gzip\r\n");
	ck_assert_ptr_null(HX_Header(m, "Content-Encoding"));
	ck_assert(m->bodylen == strlen(ESI_DONE));
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* A pass streams through the same streams, bound by the same rules. */
START_TEST(gzip_pass)
{
	struct hx_vcl t;
	struct hx_msg *m;

	make_gz();
	HXV_Start(&t, o_handler, gzip_vcl);
	m = get(&t, "GET", "/pass/gz", "Accept-Encoding: gzip\r\n");
	is_gzip(m);
	HX_HeaderIs(m, "X-AE", "gzip");
	HX_MsgFree(&m);
	m = get(&t, "GET", "/pass/gz", "Accept-Encoding: br\r\n");
	is_plain(m);
	HX_HeaderIs(m, "X-AE", "br");		/* a pass keeps it */
	HX_HeaderIs(m, "ETag", "W/\"e1\"");
	HX_MsgFree(&m);
	m = get(&t, "GET", "/pass/plain/dogzip", "Accept-Encoding: gzip\r\n");
	is_gzip(m);
	HX_HeaderIs(m, "ETag", "W/\"p1\"");
	HX_MsgFree(&m);
	m = get(&t, "GET", "/pass/plain/dogzip", NULL);
	is_plain(m);
	HX_MsgFree(&m);
	m = get(&t, "GET", "/pass/gz/dogunzip", "Accept-Encoding: gzip\r\n");
	is_plain(m);
	HX_MsgFree(&m);
	(void)VND_WaitCounter(t.v, "MAIN.n_test_gunzip", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gzip", "==", 1, HX_T_SLOW);
	(void)VND_WaitCounter(t.v, "MAIN.n_gunzip", "==", 2, HX_T_SLOW);
	HXV_Finish(&t);
}
END_TEST

static Suite *
gzip_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("gzip");
	tc = tcase_create("gzip");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, gzip_one_object_two_clients);
	tcase_add_test(tc, gzip_big_gunzipped);
	tcase_add_test(tc, gzip_do_gzip);
	tcase_add_test(tc, gzip_do_gunzip);
	tcase_add_test(tc, gzip_corrupt_backend);
	tcase_add_test(tc, gzip_support_off);
	tcase_add_test(tc, gzip_esi);
	tcase_add_test(tc, gzip_pass);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(gzip_suite()));
}

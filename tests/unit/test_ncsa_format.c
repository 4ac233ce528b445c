/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_ncsa_format.c -- unit tests of veneerncsa's format parser and
 * line renderer (tools/veneerlog/ncsa.c): bad formats and their
 * messages, and lines rendered from hand-made transactions.  The
 * expected lines are what varnishncsa 7.1 printed for the same records
 * (written to a file and read with -r), except where noted: -j escapes
 * \v and non-UTF-8 bytes so the output stays valid JSON.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/veneerlog/ncsa.h"
#include "vapi.h"

#define MAXREC		64

static struct vapi_tx tx;
static struct vapi_rec recs[MAXREC];
static uint32_t raw[MAXREC][2];
static char data[MAXREC][256];

static void
tx_new(uint32_t vxid, enum vapi_txtype type, const char *reason)
{

	memset(&tx, 0, sizeof tx);
	tx.vxid = vxid;
	tx.type = type;
	tx.reason = reason;
	tx.level = 1;
	tx.complete = 1;
	tx.recs = recs;
}

/* "Tag text" with this side's marker; \xNN in text is a byte. */
static void
add_side(char side, const char *spec)
{
	const char *sp = strchr(spec, ' ');
	char name[32], *d;
	struct vapi_rec *r;
	unsigned n = 0;
	int tag;

	ck_assert_ptr_nonnull(sp);
	ck_assert_uint_lt(tx.nrec, MAXREC);
	(void)snprintf(name, sizeof name, "%.*s", (int)(sp - spec), spec);
	tag = VAPI_TagByName(name);
	ck_assert_msg(tag > 0, "tag %s", name);
	r = &recs[tx.nrec];
	d = data[tx.nrec];
	for (sp++; *sp != '\0' && n < 250; sp++) {
		if (sp[0] == '\\' && sp[1] == 'x') {
			(void)sscanf(sp + 2, "%2hhx", (unsigned char *)&d[n++]);
			sp += 3;
		} else
			d[n++] = *sp;
	}
	d[n++] = '\0';
	r->tag = (unsigned)tag;
	r->vxid = tx.vxid;
	r->side = side;
	r->data = d;
	r->len = n;
	raw[tx.nrec][0] = (uint32_t)tag << 24 | n;
	raw[tx.nrec][1] = tx.vxid;
	r->ptr = raw[tx.nrec];
	tx.nrec++;
}

static void
add(const char *spec)
{

	add_side(tx.type == VAPI_T_BEREQ ? 'b' : 'c', spec);
}

/* The line for the transaction, or NULL when there is none. */
static const char *
render(const char *fmt, unsigned flags)
{
	static struct ncsa_buf buf;
	struct ncsa_format *f;
	char err[256];
	int r;

	f = NCSA_New(fmt, err, sizeof err);
	ck_assert_msg(f != NULL, "format %s: %s", fmt, err);
	r = NCSA_Render(f, &tx, flags, &buf);
	NCSA_Free(&f);
	ck_assert_ptr_null(f);
	ck_assert_int_ge(r, 0);
	return (r ? buf.b : NULL);
}

static void
setup(void)
{

	ck_assert_int_eq(setenv("TZ", "UTC", 1), 0);
	tzset();
}

/* A client request with a bit of everything. */
static void
full_request(void)
{

	tx_new(2, VAPI_T_REQ, "rxreq");
	add("Begin req 1 rxreq");
	add("Timestamp Start: 1700000000.123456 0.000000 0.000000");
	add("ReqStart 10.0.0.1 5555 a0");
	add("ReqMethod GET");
	add("ReqURL /path/x?a=1&b=\"2\"");
	add("ReqProtocol HTTP/1.1");
	add("ReqHeader Host: example.com");
	add("ReqHeader Host: second.example");
	add("ReqHeader Authorization: Basic dXNlcjpwYXNz");
	add("ReqHeader User-Agent: UA \"quoted\" \\ back\ttab\\x01ctl");
	add("ReqHeader Referer: http://r/1");
	add("ReqHeader X-Multi: one");
	add("ReqHeader X-Multi: two");
	add("ReqHeader X-Empty:");
	add("VCL_call RECV");
	add("VCL_Log key1: value1");
	add("VCL_Log key1:value1b");
	add("VCL_Log other value");
	add("VCL_call HIT");
	add("RespStatus 200");
	add("RespStatus 201");
	add("RespHeader X-Resp: r1");
	add("Timestamp Process: 1700000000.223456 0.100000 0.100000");
	add("Timestamp Resp: 1700000001.623456 1.500000 1.400000");
	add("ReqAcct 95 0 95 241 0 241");
	add("End ");
}

START_TEST(test_default)
{

	full_request();
	ck_assert_str_eq(render(NCSA_DEFAULT_FORMAT, 0), "10.0.0.1 - user "
	    "[14/Nov/2023:22:13:20 +0000] \"GET http://example.com/path/x?"
	    "a=1&b=\\\"2\\\" HTTP/1.1\" 201 0 \"http://r/1\" \"UA "
	    "\\\"quoted\\\" \\\\ back\\ttab\\x01ctl\"");
	ck_assert_str_eq(render(NCSA_DEFAULT_FORMAT, NCSA_JSON), "10.0.0.1 - "
	    "user [14/Nov/2023:22:13:20 +0000] \"GET http://example.com/path/"
	    "x?a=1&b=\\\"2\\\" HTTP/1.1\" 201 0 \"http://r/1\" \"UA "
	    "\\\"quoted\\\" \\\\ back\\ttab\\u0001ctl\"");
}
END_TEST

START_TEST(test_codes)
{

	full_request();
	ck_assert_str_eq(render("%b|%D|%H|%h|%I|%{Host}i|%{X-Multi}i|"
	    "%{X-Empty}i|%{Nope}i|%l|%m|%{X-Resp}o|%{Nope}o|%O|%q|%s|%T|%U|%u",
	    0), "0|1500000|HTTP/1.1|10.0.0.1|95|second.example|two||-|-|GET|"
	    "r1|-|241|?a=1&b=\\\"2\\\"|201|1|/path/x|user");
	ck_assert_str_eq(render("%{Nope}i|%{Nope}o|%{X-Empty}i", NCSA_JSON),
	    "||");
	ck_assert_str_eq(render("%{%Y-%m-%d %H:%M:%S}t|%{sec}t|%{msec}t|"
	    "%{usec}t|%{msec_frac}t|%{usec_frac}t|%{s}T|%{ms}T|%{us}T", 0),
	    "2023-11-14 22:13:20|1700000000|1700000000123|1700000000123456|"
	    "123|123456|1|1500|1500000");
	ck_assert_str_eq(render("%{Veneer:hitmiss}x|%{Veneer:handling}x|"
	    "%{Veneer:side}x|%{Veneer:vxid}x|%{VCL_Log:key1}x|"
	    "%{VCL_Log:other}x|%{VCL_Log:nope}x|%{Veneer:time_firstbyte}x",
	    0), "hit|hit|c|2|value1|||0.100000");
	/* varnishncsa's names for the same. */
	ck_assert_str_eq(render("%{Varnish:hitmiss}x %{Varnish:vxid}x", 0),
	    "hit 2");
	ck_assert_str_eq(render("a\\tb\\nc\"\\x\\\\|%%|%{X-Multi}i", 0),
	    "a\tb\nc\"x\\|%|two");
}
END_TEST

/* Nothing known: the defaults, plain and -j. */
START_TEST(test_missing)
{
	static const char fmt[] = "%b|%D|%H|%h|%I|%{Host}i|%m|%O|%q|%r|%s|%T|"
	    "%U|%u|%{Veneer:hitmiss}x|%{Veneer:handling}x|%{Veneer:side}x|"
	    "%{Veneer:time_firstbyte}x|%{X}o";

	tx_new(2, VAPI_T_REQ, "rxreq");
	add("Begin req 1 rxreq");
	add("Timestamp Start: 1700000000.123456 0.000000 0.000000");
	add("End ");
	ck_assert_str_eq(render(fmt, 0), "-|0|HTTP/1.0|-|-|-|-|-||- "
	    "http://localhost HTTP/1.0|-|0|-|-|-|-|c|-|-");
	ck_assert_str_eq(render(fmt, NCSA_JSON), "0|0|HTTP/1.0||0|||0||- "
	    "http://localhost HTTP/1.0|0|0||-|-|-|c|0|");
	/* Without a Start timestamp: no line if the format has a time. */
	tx_new(4, VAPI_T_REQ, "rxreq");
	add("Begin req 1 rxreq");
	add("ReqURL /nostart");
	add("End ");
	ck_assert_ptr_null(render("%t", 0));
	ck_assert_ptr_null(render("%{sec}t", 0));
	ck_assert_ptr_null(render("%D", 0));
	ck_assert_ptr_null(render("%{ms}T", 0));
	ck_assert_str_eq(render("%r|%b", 0),
	    "- http://localhost/nostart HTTP/1.0|-");
}
END_TEST

/* %u, the first/last rules, timestamps' rounding, escaping. */
START_TEST(test_details)
{

	tx_new(2, VAPI_T_REQ, "rxreq");
	add("Begin req 1 rxreq");
	add("Timestamp Start: 1700000000.000001 0.000000 0.000000");
	add("Timestamp Start: 1700000009.000001 0.000000 0.000000");
	add("Timestamp Process: 1700000000.1 0.1 0.1");
	add("Timestamp Process: 1700000000.2 0.2 0.1");
	add("Timestamp Resp: 1700000000.0000029 0.1 0.1");
	add("Timestamp Resp: 1700000005.0 0.1 0.1");
	add("VCL_call recv");
	add("VCL_call hit");
	add("VCL_return synth");
	add("VCL_call synth");
	add("ReqHeader Authorization: Bearer xyz");
	add("ReqHeader User-Agent: caf\\xc3\\xa9 \\x7f\\x1b\\xff");
	add("ReqURL /a b");
	add("ReqMethod GET");
	add("ReqMethod POST");
	add("ReqAcct 1 2 3 4 5 6");
	add("ReqAcct 10 20 30 40 50 60");
	add("ReqHeader X: a\"b\\c/d\\x08\\x0c\\x0a\\x0d\\x09\\x0b\\x00z");
	add("End ");
	ck_assert_str_eq(render("%D|%T|%{Veneer:time_firstbyte}x|"
	    "%{Veneer:hitmiss}x|%{Veneer:handling}x|%u|%{User-Agent}i|%U|%m|"
	    "%b|%{usec_frac}t|%{msec_frac}t", 0), "1|0|0.1|miss|synth|-|"
	    "caf\\xc3\\xa9 \\x7f\\x1b\\xff|/a b|GET|5|000000|000");
	/* -j: UTF-8 and DEL as they are, other bytes as \u00NN. */
	ck_assert_str_eq(render("%{User-Agent}i", NCSA_JSON),
	    "caf\xc3\xa9 \x7f\\u001b\\u00ff");
	ck_assert_str_eq(render("%{X}i", 0),
	    "a\\\"b\\\\c/d\\x08\\x0c\\n\\r\\t\\v\\x00z");
	/* Unlike varnishncsa: \v is not JSON. */
	ck_assert_str_eq(render("%{X}i", NCSA_JSON),
	    "a\\\"b\\\\c/d\\u0008\\u000c\\n\\r\\t\\u000b\\u0000z");
}
END_TEST

static const struct user {
	const char	*auth;
	const char	*user;
} users[] = {
	{ "basic Zm9vOmJhcg==", "foo" },
	{ "Basic dXNlcg==", "user" },
	{ "BASIC dXNlcjo=", "user" },
	{ "Basic !!!notbase64", "-" },
	{ "Basic dXNl=cg==", "-" },
	{ "Basic ", "-" },
	{ "Bearer dXNlcg==", "-" },
	{ "Basic Ij86", "\\\"?" },
};

START_TEST(test_user)
{
	char buf[128];

	tx_new(3, VAPI_T_REQ, "rxreq");
	add("Timestamp Start: 1700000000.5 0 0");
	(void)snprintf(buf, sizeof buf, "ReqHeader Authorization: %s",
	    users[_i].auth);
	add(buf);
	ck_assert_str_eq(render("%u", 0), users[_i].user);
}
END_TEST

/* hit, miss, pass, pipe, synth, and what makes no line. */
START_TEST(test_handling)
{
	static const char fmt[] = "%{Veneer:hitmiss}x %{Veneer:handling}x";

	tx_new(7, VAPI_T_REQ, "rxreq");
	add("VCL_call RECV");
	add("VCL_return hash");
	add("VCL_call MISS");
	ck_assert_str_eq(render(fmt, 0), "miss miss");
	add("VCL_call PASS");
	ck_assert_str_eq(render(fmt, 0), "miss pass");
	add("VCL_return pipe");
	ck_assert_str_eq(render(fmt, 0), "miss pipe");
	add("VCL_call recv");
	ck_assert_str_eq(render(fmt, 0), "- -");
	add("VCL_return restart");
	ck_assert_ptr_null(render(fmt, 0));
	/* ESI subrequests, sessions: no line. */
	tx_new(8, VAPI_T_REQ, "esi");
	add("ReqURL /esi");
	ck_assert_ptr_null(render(fmt, 0));
	tx_new(9, VAPI_T_SESS, "HTTP/1");
	add("SessOpen 1 2 3");
	ck_assert_ptr_null(render(fmt, 0));
	/* Records without our side's marker do not count. */
	tx_new(10, VAPI_T_REQ, "rxreq");
	add_side('-', "ReqURL /nomarker");
	ck_assert_ptr_null(render("%U", 0));
	ck_assert_str_eq(render("%U", NCSA_ANYSIDE), "/nomarker");
}
END_TEST

START_TEST(test_backend)
{

	tx_new(8, VAPI_T_BEREQ, "fetch");
	add("Begin bereq 7 fetch");
	add("Timestamp Start: 1700000000.51 0.000000 0.000000");
	add("BereqMethod POST");
	add("BereqURL /miss?q");
	add("BereqProtocol HTTP/1.0");
	add("BereqHeader Host: backendhost");
	add("BereqHeader X-B: b1");
	add("BackendOpen 25 default 192.168.1.9 8080 10.0.0.2 4444 connect");
	add("Timestamp Bereq: 1700000000.52 0.01 0.01");
	add("Timestamp Beresp: 1700000000.62 0.11 0.10");
	add("BerespProtocol HTTP/1.1");
	add("BerespStatus 404");
	add("BerespHeader X-R: r9");
	add("Timestamp BerespBody: 1700000000.72 0.21 0.1");
	add("BereqAcct 10 20 30 40 50 90");
	add("ReqHeader X-B: client side");
	add("End ");
	ck_assert_str_eq(render("%b|%D|%H|%h|%I|%{Host}i|%m|%O|%q|%r|%s|%T|"
	    "%U|%u|%{Veneer:hitmiss}x|%{Veneer:handling}x|%{Veneer:side}x|"
	    "%{Veneer:vxid}x|%{Veneer:time_firstbyte}x|%{X-B}i|%{X-R}o|"
	    "%{usec_frac}t", 0), "50|210000|HTTP/1.0|192.168.1.9|30|"
	    "backendhost|POST|90|?q|POST http://backendhost/miss?q HTTP/1.0|"
	    "404|0|/miss|-|-|-|b|8|0.11|b1|r9|509999");
}
END_TEST

START_TEST(test_pipe)
{

	tx_new(5, VAPI_T_REQ, "rxreq");
	add("Timestamp Start: 1700000000.5 0.000000 0.000000");
	add("ReqMethod GET");
	add("ReqURL /pipe");
	add("VCL_call RECV");
	add("VCL_return pipe");
	add("Timestamp Pipe: 1700000000.6 0.1 0.1");
	add("Timestamp PipeSess: 1700000002.5 2.0 1.9");
	add("PipeAcct 100 200 300 400");
	add("End ");
	ck_assert_str_eq(render("%b|%D|%I|%O|%{Veneer:time_firstbyte}x|"
	    "%{Veneer:handling}x", 0), "-|2000000|300|400|0.1|pipe");
}
END_TEST

START_TEST(test_vcl_log)
{

	tx_new(2, VAPI_T_REQ, "rxreq");
	add("Timestamp Start: 1700000000.5 0 0");
	add("VCL_Log Key1:  v1  ");
	add("VCL_Log key1: v2");
	add("VCL_Log key1 : v3");
	add("ReqHeader host:   h1  ");
	add("ReqHeader X-Y :  z");
	add("ReqHeader x-y: w");
	ck_assert_str_eq(render("[%{VCL_Log:key1}x][%{VCL_Log:Key1}x]"
	    "[%{VCL_Log:key1 }x][%{Host}i][%r][%{X-Y}i][%{X-Y }i]", 0),
	    "[v2][v1][v3][h1][- http://h1 HTTP/1.0][w][z]");
}
END_TEST

static const struct bad {
	const char	*fmt;
	const char	*err;
} bad[] = {
	{ "%Z", "unknown format code %Z (veneerncsa(1) lists them) at "
	    "column 1" },
	{ "ab %{X", "%{ is never closed by } at column 4" },
	{ "%{X}", "needs a code after it" },
	{ "%{X}z", "unknown format code %{X}z" },
	{ "%{Varnish:foo}x", "unknown %{Varnish:foo}x" },
	{ "%{foo}x", "unknown %{foo}x" },
	{ "%{VCL_Log:}x", "unknown %{VCL_Log:}x" },
	{ "%{x}T", "unknown %{x}T: the unit is s, ms or us" },
	{ "end%", "the format ends with a lone % at column 4" },
};

START_TEST(test_bad)
{
	char err[512];

	ck_assert_ptr_null(NCSA_New(bad[_i].fmt, err, sizeof err));
	ck_assert_msg(strstr(err, bad[_i].err) != NULL, "%s: %s",
	    bad[_i].fmt, err);
}
END_TEST

/* Formats of random bytes never crash. */
START_TEST(test_garbage)
{
	static const char alphabet[] = "%{}itxoTDbhHmr\\nVeneer:VCL_Log:";
	struct ncsa_format *f;
	struct ncsa_buf buf;
	char fmt[48], err[256];
	unsigned u, i, n;

	full_request();
	memset(&buf, 0, sizeof buf);
	srandom(5);
	for (u = 0; u < 20000; u++) {
		n = (unsigned)(random() % (sizeof fmt - 1));
		for (i = 0; i < n; i++)
			fmt[i] = alphabet[random() % (sizeof alphabet - 1)];
		fmt[n] = '\0';
		f = NCSA_New(fmt, err, sizeof err);
		if (f == NULL)
			continue;
		ck_assert_int_ge(NCSA_Render(f, &tx, NCSA_JSON, &buf), 0);
		NCSA_Free(&f);
	}
	NCSA_BufFini(&buf);
}
END_TEST

static Suite *
ncsa_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("ncsa_format");
	tc = tcase_create("render");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_default);
	tcase_add_test(tc, test_codes);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_details);
	tcase_add_loop_test(tc, test_user, 0,
	    (int)(sizeof users / sizeof users[0]));
	tcase_add_test(tc, test_handling);
	tcase_add_test(tc, test_backend);
	tcase_add_test(tc, test_pipe);
	tcase_add_test(tc, test_vcl_log);
	suite_add_tcase(s, tc);
	tc = tcase_create("parse");
	tcase_add_loop_test(tc, test_bad, 0,
	    (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_garbage);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(ncsa_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

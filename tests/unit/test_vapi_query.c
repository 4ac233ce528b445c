/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vapi_query.c -- unit tests of the query language (veneerlog -q):
 * the parser with valid queries and with invalid ones (the message and
 * the column it points at), and evaluation on hand-made transaction
 * groups: tags and globs, prefixes, fields, levels, vxid, each operator,
 * numbers compared as Varnish 7.1 compares them, and/or/not, several
 * lines.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vapi.h"
#include "vsl_format.h"

/*--------------------------------------------------------------------
 * A hand-made group: a request (level 1) with a backend fetch (level 2).
 */

#define MAXREC		16

struct mtx {
	struct vapi_tx		tx;
	struct vapi_rec		recs[MAXREC];
	uint32_t		raw[MAXREC][2];
};

static struct mtx mreq, mbereq;
static struct vapi_tx *group[2];

static void
mtx_add(struct mtx *m, unsigned tag, const char *data)
{
	struct vapi_rec *r;

	ck_assert_uint_lt(m->tx.nrec, MAXREC);
	r = &m->recs[m->tx.nrec];
	r->tag = tag;
	r->vxid = m->tx.vxid;
	r->side = m->tx.type == VAPI_T_BEREQ ? 'b' : 'c';
	r->data = data;
	r->len = (unsigned)strlen(data) + 1;
	m->raw[m->tx.nrec][0] = VSL_HEAD(tag, r->len);
	m->raw[m->tx.nrec][1] = r->vxid;
	r->ptr = m->raw[m->tx.nrec];
	m->tx.nrec++;
	m->tx.recs = m->recs;
}

static void
setup(void)
{

	memset(&mreq, 0, sizeof mreq);
	memset(&mbereq, 0, sizeof mbereq);
	mreq.tx.vxid = 1001;
	mreq.tx.type = VAPI_T_REQ;
	mreq.tx.level = 1;
	mreq.tx.complete = 1;
	mreq.tx.reason = "rxreq";
	mtx_add(&mreq, SLT_Begin, "req 1000 rxreq");
	mtx_add(&mreq, SLT_ReqURL, "/img/logo.png?v=2");
	mtx_add(&mreq, SLT_ReqHeader, "Host: example.com");
	mtx_add(&mreq, SLT_ReqHeader, "User-Agent: Mozilla/5.0 (iPod)");
	mtx_add(&mreq, SLT_ReqHeader, "Cookie:   a=1");
	mtx_add(&mreq, SLT_Timestamp, "Start: 1700000000.100000 0.000000 "
	    "0.000000");
	mtx_add(&mreq, SLT_Timestamp, "Resp: 1700000001.600000 1.500000 "
	    "0.002999");
	mtx_add(&mreq, SLT_RespStatus, "304");
	mtx_add(&mreq, SLT_ReqAcct, "95 0 95 241 12345 12586");
	mtx_add(&mreq, SLT_VCL_Log, "key: value with \"quotes\"");
	mbereq.tx.vxid = 1002;
	mbereq.tx.type = VAPI_T_BEREQ;
	mbereq.tx.level = 2;
	mbereq.tx.complete = 1;
	mbereq.tx.reason = "fetch";
	mbereq.tx.parent = &mreq.tx;
	mtx_add(&mbereq, SLT_Begin, "bereq 1001 fetch");
	mtx_add(&mbereq, SLT_BerespStatus, "503");
	group[0] = &mreq.tx;
	group[1] = &mbereq.tx;
}

/* Evaluate q on the group (both) or on the request alone (1). */
static int
eval(const char *q, unsigned ntx)
{
	struct vapi_query *vq;
	char err[512];
	int r;

	vq = VAPI_QueryNew(q, err, sizeof err);
	ck_assert_msg(vq != NULL, "query \"%s\": %s", q, err);
	r = VAPI_QueryMatch(vq, group, ntx);
	VAPI_QueryFree(&vq);
	ck_assert_ptr_null(vq);
	return (r);
}

static const struct qcase {
	const char	*q;
	int		whole;		/* on the group */
	int		req;		/* on the request alone */
} qcases[] = {
	/* Tags, globs, presence. */
	{ "ReqURL", 1, 1 },
	{ "BerespStatus", 1, 0 },
	{ "requrl", 1, 1 },
	{ "Req*", 1, 1 },
	{ "*Status", 1, 1 },
	{ "ReqURL,BerespStatus", 1, 1 },
	{ "VCL_call", 0, 0 },
	{ "not VCL_call", 1, 1 },
	/* Strings. */
	{ "ReqURL eq \"/img/logo.png?v=2\"", 1, 1 },
	{ "ReqURL eq \"/img/logo.png\"", 0, 0 },
	{ "ReqMethod eq GET-x.*_+", 0, 0 },
	{ "ReqURL ne \"/img/logo.png?v=2\"", 0, 0 },
	{ "ReqURL ne \"/other\"", 1, 1 },
	{ "ReqMethod eq GET", 0, 0 },
	{ "VCL_Log:key eq 'value with \"quotes\"'", 1, 1 },
	{ "VCL_Log:key eq \"value with \\\"quotes\\\"\"", 1, 1 },
	/* Regular expressions. */
	{ "ReqURL ~ \"^/img\"", 1, 1 },
	{ "ReqURL ~ \"^/IMG\"", 0, 0 },
	{ "ReqURL ~ \"(?i)^/IMG\"", 1, 1 },
	{ "ReqURL !~ \"^/img\"", 0, 0 },
	{ "ReqURL ~ \"\\\\.png\"", 1, 1 },
	{ "ReqURL ~ '\\\\?v=2$'", 1, 1 },
	/* Prefixes: any case, blanks after the colon skipped. */
	{ "ReqHeader:Host", 1, 1 },
	{ "ReqHeader:host eq example.com", 1, 1 },
	{ "ReqHeader:HOST eq \"example.com\"", 1, 1 },
	{ "ReqHeader:Ho", 0, 0 },
	{ "ReqHeader:cookie eq \"a=1\"", 1, 1 },
	{ "ReqHeader:user-agent ~ iPod", 1, 1 },
	{ "not ReqHeader:if-modified-since", 1, 1 },
	{ "RespStatus == 304 and not ReqHeader:if-modified-since", 1, 1 },
	/* Fields. */
	{ "ReqAcct[5] == 12345", 1, 1 },
	{ "ReqAcct[5] > 12344 and ReqAcct[5] < 12346", 1, 1 },
	{ "ReqAcct[6] >= 12586", 1, 1 },
	{ "ReqAcct[7]", 0, 0 },
	{ "ReqAcct[1]", 1, 1 },
	{ "Timestamp:Resp[2] > 1.0", 1, 1 },
	{ "Timestamp:Resp[2] > 1.5", 0, 0 },
	{ "Timestamp:Resp[2] >= 1.5", 1, 1 },
	{ "Timestamp:Resp[2] == 1.5", 1, 1 },
	{ "Timestamp:Resp[1] > 1700000000", 1, 1 },
	{ "Timestamp:Start[1] == 1700000000", 1, 1 },
	{ "Timestamp:Resp[4]", 0, 0 },
	{ "Begin[3] eq fetch", 1, 0 },
	{ "Begin[2] == 1000", 1, 1 },
	/* Numbers, Varnish 7.1's way: integral parts, milliseconds. */
	{ "RespStatus == 304", 1, 1 },
	{ "RespStatus == 304.0", 1, 1 },
	{ "RespStatus == 304.0009", 1, 1 },
	{ "RespStatus == 304.001", 0, 0 },
	{ "RespStatus != 304", 0, 0 },
	{ "*Status != 304", 1, 0 },
	{ "RespStatus > 300 and RespStatus < 400", 1, 1 },
	{ "*Status >= 500", 1, 0 },
	{ "Timestamp:Resp[3] == 0.002", 1, 1 },
	{ "Timestamp:Resp[3] > 0.002", 0, 0 },
	{ "Timestamp:Resp[3] == 0", 1, 1 },
	{ "ReqURL == 0", 0, 0 },
	{ "ReqHeader:Host > 0", 0, 0 },
	{ "RespStatus == \"304\"", 1, 1 },
	{ "RespStatus == -304", 0, 0 },
	{ "RespStatus > -1", 1, 1 },
	/* Levels. */
	{ "{1}BerespStatus", 0, 0 },
	{ "{2}BerespStatus", 1, 0 },
	{ "{1+}BerespStatus", 1, 0 },
	{ "{2-}RespStatus", 1, 1 },
	{ "{2}RespStatus", 0, 0 },
	{ "{0}ReqURL", 0, 0 },
	/* vxid */
	{ "vxid == 1002", 1, 0 },
	{ "vxid != 1001", 1, 0 },
	{ "vxid >= 1001", 1, 1 },
	{ "{1}vxid == 1002", 0, 0 },
	/* Booleans and precedence: not > and > or. */
	{ "ReqURL and BerespStatus", 1, 0 },
	{ "ReqURL or BerespStatus", 1, 1 },
	{ "not ReqURL or BerespStatus", 1, 0 },
	{ "not (ReqURL or BerespStatus)", 0, 0 },
	{ "VCL_call or ReqURL and BerespStatus", 1, 0 },
	{ "(VCL_call or ReqURL) and not BerespStatus", 0, 1 },
	{ "not not ReqURL", 1, 1 },
	{ "((ReqURL))", 1, 1 },
	/* Several lines are or'ed; comments and blank lines ignored. */
	{ "VCL_call\nBerespStatus", 1, 0 },
	{ "# a comment\n\nReqURL # trailing\n", 1, 1 },
	{ "RespStatus \\\n == \\\n 304", 1, 1 },
	{ "VCL_call # a comment \\\nReqURL", 1, 1 },
};

START_TEST(test_eval)
{
	const struct qcase *c = &qcases[_i];

	ck_assert_msg(eval(c->q, 2) == c->whole, "\"%s\" on the group: %d",
	    c->q, !c->whole);
	ck_assert_msg(eval(c->q, 1) == c->req, "\"%s\" on the request: %d",
	    c->q, !c->req);
}
END_TEST

/* A record without a NUL, and one that is all NULs, are safe. */
START_TEST(test_odd_records)
{
	static const char raw[] = { 'a', 'b', 'c' };

	mreq.recs[1].data = raw;
	mreq.recs[1].len = sizeof raw;
	ck_assert(eval("ReqURL eq abc", 1));
	ck_assert(eval("ReqURL ~ \"^abc$\"", 1));
	ck_assert(eval("ReqURL[1] eq abc", 1));
	mreq.recs[1].data = "\0\0\0";
	mreq.recs[1].len = 3;
	ck_assert(eval("ReqURL eq \"\"", 1));
	ck_assert(!eval("ReqURL[1]", 1));
	ck_assert(!eval("ReqURL == 0", 1));
	ck_assert(!eval("ReqURL:x", 1));
	mreq.recs[1].len = 0;
	ck_assert(eval("ReqURL", 1));
	ck_assert(!eval("ReqURL ~ .", 1));
}
END_TEST

/*--------------------------------------------------------------------
 * Errors: a message, the column, the line with a caret.
 */

static const struct ecase {
	const char	*q;
	const char	*msg;		/* in the message */
	const char	*where;		/* "(column N)" or "(line L, ..." */
} ecases[] = {
	{ "", "empty query", NULL },
	{ "# only a comment", "empty query", NULL },
	{ "Nosuchtag", "\"Nosuchtag\" is no log tag", "(column 1)" },
	{ "ReqURL,Nope", "\"Nope\" is no log tag", "(column 8)" },
	{ "Foo*", "is no log tag", "(column 1)" },
	{ "ReqURL ==", "expected an operand after \"==\"", "(column 10)" },
	{ "RespStatus == abc", "compares numbers", "(column 15)" },
	{ "RespStatus > 1e3", "compares numbers", "(column 14)" },
	{ "RespStatus > 1.2.3", "compares numbers", "(column 14)" },
	{ "RespStatus = 200", "unknown operator \"=\"", "(column 12)" },
	{ "RespStatus ! 200", "unexpected character '!'", "(column 12)" },
	{ "ReqURL eq /x", "unexpected character '/'", "(column 11)" },
	{ "ReqURL ~ \"(\"", "bad regular expression", "(column 10)" },
	{ "ReqURL ~ \"abc", "no closing \"", "(column 10)" },
	{ "ReqURL eq 'abc", "no closing '", "(column 11)" },
	{ "(ReqURL", "never closed", "(column 1)" },
	{ "(ReqURL RespStatus)", "expected ) or an operator", "(column 9)" },
	{ "ReqURL RespStatus", "expected and, or or the end", "(column 8)" },
	{ "ReqURL and", "expected a test", "(column 11)" },
	{ "and ReqURL", "\"and\" is no log tag", "(column 1)" },
	{ "not", "expected a test", "(column 4)" },
	{ ")", "expected a test", "(column 1)" },
	{ "{x}ReqURL", "expected a level", "(column 2)" },
	{ "{1ReqURL", "expected a level", "(column 2)" },
	{ "{1 ReqURL", "expected } after the level", "(column 4)" },
	{ "{1}", "expected a tag name", "(column 4)" },
	{ "ReqAcct[0]", "expected a field number", "(column 9)" },
	{ "ReqAcct[x]", "expected a field number", "(column 9)" },
	{ "ReqAcct[1", "expected ] after the field number", "(column 10)" },
	{ "ReqHeader:", "expected a record prefix", "(column 11)" },
	{ "vxid", "vxid needs a numeric comparison", "(column 1)" },
	{ "vxid eq 5", "vxid needs a numeric comparison", "(column 1)" },
	{ "vxid == 1.5", "a vxid is a whole number", "(column 9)" },
	{ "ReqURL\nRespStatus ==", "expected an operand",
	    "(line 2, column 14)" },
	{ "ReqURL\n\n  Bogus", "is no log tag", "(line 3, column 3)" },
	{ "ReqURL \\\n  eq", "expected an operand", "(line 2, column 5)" },
};

START_TEST(test_errors)
{
	const struct ecase *c = &ecases[_i];
	struct vapi_query *vq;
	char err[512];

	memset(err, 'x', sizeof err);
	vq = VAPI_QueryNew(c->q, err, sizeof err);
	ck_assert_msg(vq == NULL, "\"%s\" parsed", c->q);
	ck_assert_msg(strstr(err, c->msg) != NULL, "\"%s\": got \"%s\"",
	    c->q, err);
	if (c->where != NULL)
		ck_assert_msg(strstr(err, c->where) != NULL, "\"%s\": got "
		    "\"%s\", not %s", c->q, err, c->where);
}
END_TEST

/* The caret sits under the column, on the line as written. */
START_TEST(test_error_caret)
{
	char err[512];

	ck_assert_ptr_null(VAPI_QueryNew("ReqURL ~ x and Bogus == 1", err,
	    sizeof err));
	ck_assert_str_eq(err, "\"Bogus\" is no log tag (veneerd -x tags "
	    "lists them) (column 16):\n"
	    "  ReqURL ~ x and Bogus == 1\n"
	    "                 ^");
	ck_assert_ptr_null(VAPI_QueryNew("ReqURL\n# c\nRespStatus >", err,
	    sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "(line 3, column 13):\n"
	    "  RespStatus >\n  " "            ^"));
	/* A short buffer is cut, and terminated. */
	ck_assert_ptr_null(VAPI_QueryNew("Bogus", err, 10));
	ck_assert_uint_eq(strlen(err), 9);
}
END_TEST

/* Random bytes never crash the parser. */
START_TEST(test_garbage)
{
	static const char alphabet[] = "ReqURL Status:[]{}()\"'\\~!=<>,.*"
	    "+-0123456789 and or not eq ne vxid#\n";
	struct vapi_query *vq;
	char q[64], err[256];
	unsigned u, i, n;

	srandom(1);
	for (u = 0; u < 20000; u++) {
		n = (unsigned)(random() % (sizeof q - 1));
		for (i = 0; i < n; i++)
			q[i] = alphabet[random() % (sizeof alphabet - 1)];
		q[n] = '\0';
		vq = VAPI_QueryNew(q, err, sizeof err);
		if (vq != NULL) {
			(void)VAPI_QueryMatch(vq, group, 2);
			VAPI_QueryFree(&vq);
		} else
			ck_assert_uint_gt(strlen(err), 0);
	}
}
END_TEST

static Suite *
query_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vapi_query");
	tc = tcase_create("eval");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_eval, 0,
	    (int)(sizeof qcases / sizeof qcases[0]));
	tcase_add_test(tc, test_odd_records);
	suite_add_tcase(s, tc);
	tc = tcase_create("parse");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_loop_test(tc, test_errors, 0,
	    (int)(sizeof ecases / sizeof ecases[0]));
	tcase_add_test(tc, test_error_caret);
	tcase_add_test(tc, test_garbage);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(query_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vapi_dispatch.c -- unit tests of the grouping of log records into
 * transactions (veneerlog -g).  Records are written to a file with
 * VAPI_Writer* and dispatched from a file cursor; each group handed over
 * is flattened to a line ("2:req:1 3:bereq:2 | ...": vxid, type, level,
 * '!' if incomplete) and compared.  The expected groupings were checked
 * against varnishlog 7.1 fed the same files.  Also: transactions still
 * open at the end (flushed) and after a timeout, vxid reuse, Link
 * cycles, and the memory limits.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache/vsl.h"
#include "vapi.h"

static char path[256];
static struct vapi_writer *wr;
static char out[1 << 20];	/* the groups handed over, flattened */
static unsigned ngroups;

static void
setup(void)
{
	char err[256];
	int fd;

	(void)snprintf(path, sizeof path, "/tmp/test_vapi_dispatch.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	(void)close(fd);
	wr = VAPI_WriterOpen(path, 0, err, sizeof err);
	ck_assert_msg(wr != NULL, "%s", err);
	out[0] = '\0';
	ngroups = 0;
}

static void
teardown(void)
{

	if (wr != NULL)
		VAPI_WriterClose(&wr);
	(void)unlink(path);
}

/* One record: vxid, side ('c', 'b', '-'), tag, text. */
static void
rec(uint32_t vxid, char side, enum VSL_tag_e tag, const char *text)
{
	struct vapi_rec r;

	memset(&r, 0, sizeof r);
	r.vxid = vxid;
	r.side = side;
	r.tag = tag;
	r.data = text;
	r.len = (unsigned)strlen(text) + 1;
	ck_assert_int_eq(VAPI_WriterPut(wr, &r), 0);
}

/* A whole transaction: Begin, the middle records, End. */
static void
tx(uint32_t vxid, char side, const char *begin, const char *url)
{

	rec(vxid, side, SLT_Begin, begin);
	if (url != NULL)
		rec(vxid, side, side == 'b' ? SLT_BereqURL : SLT_ReqURL, url);
	rec(vxid, side, SLT_End, "");
}

static const char *
typename(enum vapi_txtype t)
{

	switch (t) {
	case VAPI_T_SESS:	return ("sess");
	case VAPI_T_REQ:	return ("req");
	case VAPI_T_BEREQ:	return ("bereq");
	case VAPI_T_RAW:	return ("raw");
	default:		return ("unknown");
	}
}

static int
flatten(void *priv, struct vapi_tx * const *txs, unsigned ntx)
{
	size_t n = strlen(out);
	unsigned u;

	(void)priv;
	ck_assert_uint_lt(n, sizeof out - 4096);
	if (n > 0)
		n += (size_t)snprintf(out + n, sizeof out - n, " | ");
	for (u = 0; u < ntx && n < sizeof out; u++) {
		ck_assert_ptr_nonnull(txs[u]->recs);
		ck_assert_uint_gt(txs[u]->nrec, 0);
		if (u > 0)
			ck_assert_ptr_nonnull(txs[u]->parent);
		n += (size_t)snprintf(out + n, sizeof out - n, "%s%u:%s:%u%s",
		    u ? " " : "", txs[u]->vxid, typename(txs[u]->type),
		    txs[u]->level, txs[u]->complete ? "" : "!");
	}
	ngroups++;
	return (0);
}

/* Dispatch the file written so far; the flattened groups. */
static const char *
run(enum vapi_grouping g)
{
	struct vapi_cursor *c;
	struct vapi_dispatch *d;
	char err[256];
	int r;

	if (wr != NULL)
		VAPI_WriterClose(&wr);
	out[0] = '\0';
	ngroups = 0;
	c = VAPI_CursorFile(path, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	d = VAPI_DispatchNew(c, g, 120);
	ck_assert_ptr_nonnull(d);
	r = VAPI_Dispatch(d, flatten, NULL);
	ck_assert_int_eq(r, VAPI_EOF);
	VAPI_DispatchFree(&d);
	ck_assert_ptr_null(d);
	VAPI_CursorFree(&c);
	return (out);
}

/* The records of the varnishlog comparison (ESI, restart, session). */
static void
esi_log(void)
{

	rec(0, '-', SLT_CLI, "Rd ping");
	tx(3, 'b', "bereq 2 fetch", "/x");
	rec(2, 'c', SLT_Begin, "req 1 rxreq");
	rec(2, 'c', SLT_Link, "bereq 3 fetch");
	rec(2, 'c', SLT_Link, "req 4 esi");
	rec(2, 'c', SLT_End, "");
	rec(4, 'c', SLT_Begin, "req 2 esi");
	rec(4, 'c', SLT_Link, "bereq 5 fetch");
	rec(4, 'c', SLT_End, "");
	rec(5, 'b', SLT_Begin, "bereq 4 fetch");
	rec(5, 'b', SLT_Link, "req 6 esi");
	rec(5, 'b', SLT_End, "");
	rec(6, 'c', SLT_Begin, "req 5 esi");
	rec(6, 'c', SLT_Link, "req 7 esi");
	rec(6, 'c', SLT_End, "");
	rec(7, 'c', SLT_Begin, "req 6 esi");
	rec(7, 'c', SLT_Link, "req 8 restart");
	rec(7, 'c', SLT_End, "");
	tx(8, 'c', "req 7 restart", "/restarted");
	rec(1, 'c', SLT_Begin, "sess 0 HTTP/1");
	rec(1, 'c', SLT_Link, "req 2 rxreq");
	rec(1, 'c', SLT_End, "");
	/* No Begin: dropped, as varnishlog does. */
	rec(9, 'c', SLT_ReqURL, "/nobegin");
	rec(9, 'c', SLT_End, "");
	rec(0, '-', SLT_CLI, "last");
}

START_TEST(test_vxid)
{

	esi_log();
	ck_assert_str_eq(run(VAPI_G_VXID), "3:bereq:1 | 2:req:1 | 4:req:1 | "
	    "5:bereq:1 | 6:req:1 | 7:req:1 | 8:req:1 | 1:sess:1");
}
END_TEST

START_TEST(test_request)
{

	esi_log();
	/* Restarts stay at their parent's level. */
	ck_assert_str_eq(run(VAPI_G_REQUEST), "2:req:1 3:bereq:2 4:req:2 "
	    "5:bereq:3 6:req:4 7:req:5 8:req:5");
}
END_TEST

START_TEST(test_session)
{

	esi_log();
	ck_assert_str_eq(run(VAPI_G_SESSION), "1:sess:1 2:req:2 3:bereq:3 "
	    "4:req:3 5:bereq:4 6:req:5 7:req:6 8:req:6");
}
END_TEST

START_TEST(test_raw)
{

	esi_log();
	(void)run(VAPI_G_RAW);
	ck_assert_uint_eq(ngroups, 29);
	ck_assert_str_eq(out + strlen(out) - strlen("9:raw:0 | 0:raw:0"),
	    "9:raw:0 | 0:raw:0");
}
END_TEST

/* Transactions a group is still waiting for at the end: flushed. */
START_TEST(test_flush_at_end)
{

	tx(2, 'c', "req 1 rxreq", "/done");
	rec(4, 'c', SLT_Begin, "req 1 rxreq");
	rec(4, 'c', SLT_Link, "bereq 5 fetch");
	rec(4, 'c', SLT_End, "");
	rec(6, 'c', SLT_Begin, "req 1 rxreq");
	/* A bereq whose parent never shows: a group without a request. */
	tx(12, 'b', "bereq 99 fetch", "/orphan");
	ck_assert_str_eq(run(VAPI_G_REQUEST),
	    "2:req:1 | 4:req:1 5:unknown:2! | 6:req:1!");
	ck_assert_str_eq(run(VAPI_G_VXID), "2:req:1 | 4:req:1 | 12:bereq:1 | "
	    "6:req:1!");
}
END_TEST

static int
last_recs(void *priv, struct vapi_tx * const *txs, unsigned ntx)
{
	char *buf = priv;
	const struct vapi_tx *t = txs[ntx - 1];
	size_t n = 0;
	unsigned u;

	buf[0] = '\0';
	for (u = 0; u < t->nrec && n < 4000; u++)
		n += (size_t)snprintf(buf + n, 4096 - n, "%s=%s;",
		    VAPI_TagName(t->recs[u].tag), t->recs[u].data);
	return (0);
}

static const char *
run_recs(enum vapi_grouping g, char *buf)
{
	struct vapi_cursor *c;
	struct vapi_dispatch *d;
	char err[256];

	if (wr != NULL)
		VAPI_WriterClose(&wr);
	c = VAPI_CursorFile(path, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	d = VAPI_DispatchNew(c, g, 120);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(VAPI_Dispatch(d, last_recs, buf), VAPI_EOF);
	VAPI_DispatchFree(&d);
	VAPI_CursorFree(&c);
	return (buf);
}

START_TEST(test_synth_records)
{
	char buf[4096];

	rec(6, 'c', SLT_Begin, "req 1 rxreq");
	rec(6, 'c', SLT_ReqURL, "/open");
	ck_assert_str_eq(run_recs(VAPI_G_VXID, buf), "Begin=req 1 rxreq;"
	    "ReqURL=/open;VSL=flush;End=synth;");
}
END_TEST

START_TEST(test_unknown_type)
{
	char buf[4096];

	tx(11, 'c', "foo 0 bar", NULL);
	ck_assert_str_eq(run_recs(VAPI_G_VXID, buf), "Begin=foo 0 bar;"
	    "VSL=unknown transaction type in Begin \"foo 0 bar\";End=;");
	setup();
	tx(11, 'c', "req", NULL);
	ck_assert_str_eq(run_recs(VAPI_G_VXID, buf), "Begin=req;"
	    "VSL=malformed Begin record \"req\";End=;");
}
END_TEST

/* A second Begin for a vxid: the first transaction is over. */
START_TEST(test_vxid_reuse)
{

	rec(7, 'c', SLT_Begin, "req 1 rxreq");
	rec(7, 'c', SLT_ReqURL, "/first");
	tx(7, 'c', "req 1 rxreq", "/second");
	tx(7, 'c', "req 1 rxreq", "/third");
	ck_assert_str_eq(run(VAPI_G_VXID), "7:req:1! | 7:req:1 | 7:req:1");
	/* Records after an End (and no new Begin) are dropped. */
	setup();
	tx(7, 'c', "req 1 rxreq", "/x");
	rec(7, 'c', SLT_ReqURL, "/late");
	rec(7, 'c', SLT_End, "");
	ck_assert_str_eq(run(VAPI_G_VXID), "7:req:1");
}
END_TEST

/* Links that would make a cycle are refused; nothing loops. */
START_TEST(test_cycles)
{

	rec(2, 'c', SLT_Begin, "req 3 esi");
	rec(3, 'c', SLT_Begin, "req 2 esi");
	rec(2, 'c', SLT_Link, "req 2 esi");
	rec(3, 'c', SLT_Link, "req 2 esi");
	rec(2, 'c', SLT_End, "");
	rec(3, 'c', SLT_End, "");
	ck_assert_str_eq(run(VAPI_G_REQUEST), "3:req:1 2:req:2");
	ck_assert_str_eq(run(VAPI_G_SESSION), "");
}
END_TEST

/* The parent Begin names and the Link agree or the first one wins. */
START_TEST(test_link_order)
{

	/* The child's Begin before the parent's: nested all the same. */
	tx(3, 'b', "bereq 2 fetch", NULL);
	tx(4, 'b', "bereq 2 bgfetch", NULL);
	rec(2, 'c', SLT_Begin, "req 1 rxreq");
	rec(2, 'c', SLT_Link, "bereq 4 bgfetch");
	rec(2, 'c', SLT_Link, "bereq 3 fetch");
	rec(2, 'c', SLT_End, "");
	ck_assert_str_eq(run(VAPI_G_REQUEST), "2:req:1 3:bereq:2 4:bereq:2");
	/* The parent done before its child: the group waits for it. */
	setup();
	rec(2, 'c', SLT_Begin, "req 1 rxreq");
	rec(2, 'c', SLT_Link, "bereq 3 bgfetch");
	rec(2, 'c', SLT_End, "");
	tx(5, 'c', "req 1 rxreq", NULL);
	tx(3, 'b', "bereq 2 bgfetch", NULL);
	ck_assert_str_eq(run(VAPI_G_REQUEST), "5:req:1 | 2:req:1 3:bereq:2");
}
END_TEST

/* Huge transactions are handed over as they are. */
START_TEST(test_max_records)
{
	char buf[64];
	unsigned u;

	rec(2, 'c', SLT_Begin, "req 1 rxreq");
	for (u = 0; u < 100005; u++) {
		(void)snprintf(buf, sizeof buf, "X-%u: y", u);
		rec(2, 'c', SLT_ReqHeader, buf);
	}
	rec(2, 'c', SLT_End, "");
	tx(3, 'c', "req 1 rxreq", NULL);
	ck_assert_str_eq(run(VAPI_G_VXID), "2:req:1! | 3:req:1");
}
END_TEST

/* Too many open transactions: the oldest are forced out. */
START_TEST(test_max_open)
{
	char buf[64];
	unsigned u;

	for (u = 1; u <= 10005; u++) {
		(void)snprintf(buf, sizeof buf, "req %u rxreq", u);
		rec(u, 'c', SLT_Begin, buf);
	}
	rec(1, 'c', SLT_End, "");
	(void)run(VAPI_G_VXID);
	ck_assert_uint_eq(ngroups, 10005);
	ck_assert_ptr_nonnull(strstr(out, "1:req:1! | 2:req:1! | "));
	ck_assert_ptr_nonnull(strstr(out, "| 10005:req:1!"));
}
END_TEST

/* Live: an incomplete group goes out after the timeout. */
START_TEST(test_timeout)
{
	static uint64_t ring[8192];
	struct vapi_cursor *c;
	struct vapi_dispatch *d;
	struct vsl_log vsl[1];
	uint32_t buf[256];

	VSL_Init(ring, sizeof ring);
	c = VAPI_CursorMem(ring, sizeof ring, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(c);
	d = VAPI_DispatchNew(c, VAPI_G_REQUEST, 0.2);
	ck_assert_ptr_nonnull(d);
	VSL_Setup(vsl, buf, sizeof buf);
	VSL_SetId(vsl, 2 | VSL_CLIENTMARKER);
	VSLb(vsl, SLT_Begin, "req 1 rxreq");
	VSLb(vsl, SLT_Link, "bereq 3 fetch");
	VSLb(vsl, SLT_End, "%s", "");
	VSL_Flush(vsl);
	out[0] = '\0';
	ck_assert_int_eq(VAPI_Dispatch(d, flatten, NULL), VAPI_MORE);
	ck_assert_str_eq(out, "");
	(void)usleep(300000);
	ck_assert_int_eq(VAPI_Dispatch(d, flatten, NULL), VAPI_MORE);
	ck_assert_str_eq(out, "2:req:1 3:unknown:2!");
	VAPI_DispatchFree(&d);
	VAPI_CursorFree(&c);
}
END_TEST

/* A non-zero return stops; the next call hands over the rest. */
static int
stop_each(void *priv, struct vapi_tx * const *txs, unsigned ntx)
{

	(void)flatten(priv, txs, ntx);
	return (7);
}

START_TEST(test_stop)
{
	struct vapi_cursor *c;
	struct vapi_dispatch *d;
	char err[256];

	tx(2, 'c', "req 1 rxreq", NULL);
	tx(3, 'c', "req 1 rxreq", NULL);
	VAPI_WriterClose(&wr);
	c = VAPI_CursorFile(path, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	d = VAPI_DispatchNew(c, VAPI_G_VXID, 120);
	ck_assert_int_eq(VAPI_Dispatch(d, stop_each, NULL), 7);
	ck_assert_str_eq(out, "2:req:1");
	ck_assert_int_eq(VAPI_Dispatch(d, stop_each, NULL), 7);
	ck_assert_str_eq(out, "2:req:1 | 3:req:1");
	ck_assert_int_eq(VAPI_Dispatch(d, stop_each, NULL), VAPI_EOF);
	VAPI_DispatchFree(&d);
	VAPI_CursorFree(&c);
}
END_TEST

/* Random records: no crash, no leak (under ASan), always EOF. */
START_TEST(test_garbage)
{
	static const enum VSL_tag_e tags[] = { SLT_Begin, SLT_End,
	    SLT_Link, SLT_ReqURL };
	static const char *texts[] = { "req 1 rxreq", "bereq 2 fetch",
	    "sess 0 HTTP/1", "req 3 esi", "req 4 restart", "", "x",
	    "req", "bereq 99999999999 fetch", "req 1", "bereq 0 fetch" };
	enum vapi_grouping g;
	unsigned u;

	srandom(3);
	for (u = 0; u < 3000; u++)
		rec((uint32_t)(random() % 12), "cb-"[random() % 3],
		    tags[random() % 4], texts[random() % 11]);
	VAPI_WriterClose(&wr);
	for (g = VAPI_G_RAW; g <= VAPI_G_SESSION; g++)
		(void)run(g);
}
END_TEST

static Suite *
dispatch_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vapi_dispatch");
	tc = tcase_create("group");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_vxid);
	tcase_add_test(tc, test_request);
	tcase_add_test(tc, test_session);
	tcase_add_test(tc, test_raw);
	tcase_add_test(tc, test_flush_at_end);
	tcase_add_test(tc, test_synth_records);
	tcase_add_test(tc, test_unknown_type);
	tcase_add_test(tc, test_vxid_reuse);
	tcase_add_test(tc, test_cycles);
	tcase_add_test(tc, test_link_order);
	tcase_add_test(tc, test_max_records);
	tcase_add_test(tc, test_max_open);
	tcase_add_test(tc, test_timeout);
	tcase_add_test(tc, test_stop);
	tcase_add_test(tc, test_garbage);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(dispatch_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_timeouts.c -- issue #3, end to end: veneerd drops clients that
 * stall.  A half-sent request and an idle keep-alive connection are
 * closed after timeout_idle; a client that stops reading a big response
 * is dropped after send_timeout / idle_send_timeout.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

static void
timeout_handler(struct origin_conn *oc, const struct hx_msg *req,
    void *priv)
{

	(void)priv;
	if (strcmp(req->url, "/flood") == 0) {
		/* More than any socket buffers hold; stops when cut off. */
		if (ORIGIN_Head(oc, 200, "Content-Length: 1073741824\r\n"
		    "Cache-Control: no-store\r\n") == 0)
			(void)ORIGIN_SendPattern(oc, 0, 1073741824);
		return;
	}
	ORIGIN_DefaultHandler(oc, req, priv);
}

START_TEST(half_request_dropped)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	enum hx_io io;
	double t0, dt;

	o = ORIGIN_New(timeout_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "timeout_idle=1s", NULL);
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "GET /half HTTP/1.1\r\nHost: e2e.te");
	t0 = HX_Now();
	/* An error answer before the close is allowed; the close is not. */
	io = CLIENT_Drain(cl, 4.0);
	dt = HX_Now() - t0;
	ck_assert_msg(io == HX_IO_EOF || io == HX_IO_RESET,
	    "half a request still connected after 4 s with timeout_idle=1s: "
	    "%s", HX_IoName(io));
	ck_assert_msg(dt >= 0.8 && dt < 3.0, "dropped after %.2f s with "
	    "timeout_idle=1s", dt);
	(void)VND_WaitCounter(v, "sc_rx_timeout", ">=", 1, HX_T_RESP);
	ck_assert_int_eq(ORIGIN_NReq(o), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * With the default timeout_linger, and with one longer than timeout_idle:
 * a connection waiting in the linger set is closed on time too (before
 * the fix it stayed there, open, for the whole 30 s).
 */
static const char * const idle_lingers[] = {
	"timeout_linger=0.05s",
	"timeout_linger=30s",
};

START_TEST(idle_keepalive_closed)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	double t0, dt;

	o = ORIGIN_New(timeout_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "timeout_idle=1s", idle_lingers[_i],
	    NULL);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/idle", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	t0 = HX_Now();
	CLIENT_AssertClosed(cl, 4.0);
	dt = HX_Now() - t0;
	ck_assert_msg(dt >= 0.8 && dt < 3.0, "idle connection closed after "
	    "%.2f s with timeout_idle=1s, %s", dt, idle_lingers[_i]);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(slow_reader_dropped)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	enum hx_io io;
	double t0, dt;

	o = ORIGIN_New(timeout_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "send_timeout=2s",
	    "idle_send_timeout=2s", NULL);
	cl = VND_Connect(v);
	CLIENT_Req(cl, "GET", "/flood", NULL, NULL, 0);
	t0 = HX_Now();
	/* Read nothing: veneerd's sends block until it gives up. */
	(void)VND_WaitCounter(v, "sc_tx_error", ">=", 1, 10.0);
	dt = HX_Now() - t0;
	ck_assert_msg(dt >= 1.5, "dropped after %.2f s with send_timeout=2s",
	    dt);
	io = CLIENT_Drain(cl, HX_T_RESP);
	ck_assert_msg(io == HX_IO_EOF || io == HX_IO_RESET,
	    "connection still open after sc_tx_error: %s", HX_IoName(io));
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
timeouts_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("timeouts");
	tc = tcase_create("client");
	tcase_set_timeout(tc, 15);
	tcase_add_test(tc, half_request_dropped);
	tcase_add_loop_test(tc, idle_keepalive_closed, 0,
	    (int)(sizeof idle_lingers / sizeof idle_lingers[0]));
	tcase_add_test(tc, slow_reader_dropped);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(timeouts_suite()));
}

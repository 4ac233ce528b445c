/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcl.c -- issue #12, end to end: veneerd -f with VCL that uses
 * each action, the writable variables, regsub and regsuball with
 * captures, ACLs, restarts, synth with custom bodies and headers,
 * hash_data, return (pass(DURATION)), purge, include, the std module,
 * and a backend whose name does not resolve (sick: 503, not a failure
 * to load).  The origin answers 200 with X-Url (the URL it saw) and a
 * body naming the request number, so a cached answer shows as an old
 * number.
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/harness.h"

static unsigned o_count;

/* 200, X-Url, X-Seen-<hdr> for the request headers VCL sets, body n. */
static void
o_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	char hdrs[1024], body[64];
	const char *v;
	unsigned n;

	(void)priv;
	n = __atomic_add_fetch(&o_count, 1, __ATOMIC_RELAXED);
	v = HX_Header(req, "X-Vcl");
	(void)snprintf(hdrs, sizeof hdrs,
	    "X-Url: %s\r\nX-Seen-Vcl: %s\r\nX-Seen-Host: %s\r\n"
	    "Cache-Control: max-age=100\r\n%s",
	    req->url, v != NULL ? v : "-",
	    HX_Header(req, "Host") != NULL ? HX_Header(req, "Host") : "-",
	    strstr(req->url, "cookie") != NULL ? "Set-Cookie: a=b\r\n" : "");
	(void)snprintf(body, sizeof body, "n=%u", n);
	(void)ORIGIN_Respond(oc, 200, hdrs, body, -1);
}

/* Start veneerd with vcl/examples/NAME, its backend pointed at ours. */
static void
t_start_example(struct hx_vcl *t, const char *name)
{
	char *path, *text, *vcl, *p;

	t->o = ORIGIN_New(o_handler, NULL);
	t->v = VND_New();
	ck_assert_int_gt(asprintf(&path, "%s/vcl/examples/%s",
	    VCL_SRCDIR, name), 0);
	text = HX_ReadFile(path, NULL);
	ck_assert_msg(text != NULL, "%s", path);
	free(path);
	p = strstr(text, "\"8080\"");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_gt(asprintf(&vcl, "%.*s\"%d\"%s", (int)(p - text), text,
	    ORIGIN_Port(t->o), p + 6), 0);
	VND_VclFile(t->v, name, vcl);
	VND_Start(t->v);
	t->cl = VND_Connect(t->v);
	free(vcl);
	free(text);
}

static struct hx_msg *
t_get(struct hx_vcl *t, const char *method, const char *url, const char *hdrs)
{

	return (CLIENT_Fetch(t->cl, method, url, hdrs, HX_T_SLOW));
}

START_TEST(issue_0012_headers_url_regsub)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tset req.http.X-Vcl = \"recv\";\n"
	    "\tset req.url = regsub(req.url, \"^/old/(\\w+)/(\\w+)\","
	    " \"/new/\\2/\\1\");\n"
	    "\tset req.http.X-All = regsuball(\"a-b-c\", \"-\", \"+\");\n"
	    "\tset req.http.host = regsub(req.http.host, \"^www\\.\", \"\");\n"
	    "}\n"
	    "sub vcl_backend_response {\n"
	    "\tset beresp.http.X-Beresp = \"br \" + beresp.status;\n"
	    "\tunset beresp.http.X-Seen-Vcl;\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "\tset resp.http.X-All = req.http.X-All;\n"
	    "\tset resp.http.X-Hits = obj.hits;\n"
	    "\tset resp.http.X-Status = resp.status + 1;\n"
	    "\tunset resp.http.Via;\n"
	    "}\n");
	m = t_get(&t, "GET", "/old/a/b", "Host: www.example.com\r\n");
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Url", "/new/b/a");
	HX_HeaderIs(m, "X-Seen-Host", "example.com");
	HX_HeaderIs(m, "X-Beresp", "br 200");
	ck_assert_ptr_null(HX_Header(m, "X-Seen-Vcl"));
	HX_HeaderIs(m, "X-All", "a+b+c");
	HX_HeaderIs(m, "X-Hits", "0");
	HX_HeaderIs(m, "X-Status", "201");
	ck_assert_ptr_null(HX_Header(m, "Via"));
	HX_MsgFree(&m);
	/* The rewritten URL is the key: a hit. */
	m = t_get(&t, "GET", "/old/a/b", "Host: www.example.com\r\n");
	HX_HeaderIs(m, "X-Hits", "1");
	ck_assert_str_eq((const char *)m->body, "n=1");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_synth_custom)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/teapot\") {\n"
	    "\t\treturn (synth(418, \"Short and stout\"));\n"
	    "\t}\n"
	    "\tif (req.url ~ \"^/moved\") { return (synth(301)); }\n"
	    "\tif (req.url == \"/body\") { return (synth(200)); }\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tif (req.url == \"/body\") {\n"
	    "\t\tsynthetic(\"first\");\n"
	    "\t\tset resp.body = \"replaced \" + req.transport;\n"
	    "\t\tset resp.http.X-Sess = sess.xid != \"\";\n"
	    "\t\treturn (deliver);\n"
	    "\t}\n"
	    "\tif (resp.status == 301) {\n"
	    "\t\tset resp.http.Location = \"https://example.com\" + req.url;\n"
	    "\t\treturn (deliver);\n"
	    "\t}\n"
	    "\tset resp.http.Content-Type = \"text/plain\";\n"
	    "\tset resp.http.X-Reason = resp.reason;\n"
	    "\tsynthetic(\"I am \" + resp.status + \".\");\n"
	    "\treturn (deliver);\n"
	    "}\n");
	m = t_get(&t, "GET", "/teapot", NULL);
	ck_assert_int_eq(m->status, 418);
	HX_HeaderIs(m, "X-Reason", "Short and stout");
	HX_HeaderIs(m, "Content-Type", "text/plain");
	ck_assert_str_eq((const char *)m->body, "I am 418.");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/body", NULL);
	ck_assert_str_eq(m->body, "replaced HTTP/1");
	HX_HeaderIs(m, "X-Sess", "true");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/moved/x", NULL);
	ck_assert_int_eq(m->status, 301);
	HX_HeaderIs(m, "Location", "https://example.com/moved/x");
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(t.o), 0);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_acl_and_pass_pipe)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "acl local { \"127.0.0.0\"/8; !\"127.0.0.2\"; \"::1\"; }\n"
	    "acl other { \"192.0.2.0\"/24; }\n"
	    "sub vcl_recv {\n"
	    "\tif (client.ip ~ other) { return (synth(403)); }\n"
	    "\tif (!(client.ip ~ local)) { return (synth(403)); }\n"
	    "\tif (req.url ~ \"^/pass\") { return (pass); }\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "\tset resp.http.X-Client = client.ip;\n"
	    "\tset resp.http.X-Port = std.port(client.ip) > 0;\n"
	    "}\n");
	m = t_get(&t, "GET", "/pass", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Client", "127.0.0.1");
	HX_HeaderIs(m, "X-Port", "true");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/pass", NULL);
	ck_assert_str_eq((const char *)m->body, "n=2");	/* not cached */
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_restart_and_hash_data)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.restarts > 0) { set req.url = \"/second\"; }\n"
	    "}\n"
	    "sub vcl_hash {\n"
	    "\thash_data(req.http.X-Lang);\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "\tif (req.url == \"/restart\" && req.restarts == 0) {\n"
	    "\t\treturn (restart);\n"
	    "\t}\n"
	    "\tset resp.http.X-Restarts = req.restarts;\n"
	    "}\n");
	m = t_get(&t, "GET", "/restart", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Url", "/second");
	HX_HeaderIs(m, "X-Restarts", "1");
	HX_MsgFree(&m);
	/* hash_data(req.http.X-Lang): one object per language. */
	m = t_get(&t, "GET", "/l", "X-Lang: en\r\n");
	ck_assert_str_eq((const char *)m->body, "n=3");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/l", "X-Lang: fr\r\n");
	ck_assert_str_eq((const char *)m->body, "n=4");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/l", "X-Lang: en\r\n");
	ck_assert_str_eq((const char *)m->body, "n=3");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_pass_duration_and_purge)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.method == \"PURGE\") { return (purge); }\n"
	    "}\n"
	    "sub vcl_backend_response {\n"
	    "\tif (bereq.url == \"/hfp\") { return (pass(10s)); }\n"
	    "\tset beresp.ttl = 1h;\n"
	    "}\n");
	m = t_get(&t, "GET", "/hfp", NULL);
	ck_assert_str_eq((const char *)m->body, "n=1");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/hfp", NULL);
	ck_assert_str_eq((const char *)m->body, "n=2");	/* passed */
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/p", NULL);
	ck_assert_str_eq((const char *)m->body, "n=3");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/p", NULL);
	ck_assert_str_eq((const char *)m->body, "n=3");	/* a hit */
	HX_MsgFree(&m);
	m = t_get(&t, "PURGE", "/p", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/p", NULL);
	ck_assert_str_eq((const char *)m->body, "n=4");	/* purged */
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0014_beresp_storage)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_backend_response {\n"
	    "\tset beresp.ttl = 1h;\n"
	    "\tif (bereq.url == \"/t\") {\n"
	    "\t\tset beresp.storage = storage.Transient;\n"
	    "\t} else if (bereq.url == \"/bad\") {\n"
	    "\t\tset beresp.storage = \"storage.nosuch\";\n"
	    "\t}\n"
	    "\tset beresp.http.X-Stv = beresp.storage;\n"
	    "}\n"
	    "sub vcl_deliver { set resp.http.X-Obj-Stv = obj.storage; }\n");
	m = t_get(&t, "GET", "/t", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Stv", "storage.Transient");
	HX_MsgFree(&m);
	/* A hit: the object lives in Transient, not the default store. */
	m = t_get(&t, "GET", "/t", NULL);
	HX_HeaderIs(m, "X-Obj-Stv", "storage.Transient");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/s", NULL);
	/* Not chosen: the store it will go to, as varnishd says. */
	HX_HeaderIs(m, "X-Stv", "storage.s0");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/s", NULL);
	HX_HeaderIs(m, "X-Obj-Stv", "storage.s0");
	HX_MsgFree(&m);
	/* An unknown store fails the fetch. */
	m = t_get(&t, "GET", "/bad", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0014_internal_status)
{
	struct hx_vcl t;
	struct hx_msg *m;

	/* Varnish's internal statuses: VCL sees 1333, the client 333. */
	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/s\") { return (synth(1333, \"Odd\")); }\n"
	    "\tif (req.url == \"/bad\") { return (synth(1099)); }\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Seen = resp.status;\n"
	    "}\n"
	    "sub vcl_deliver { set resp.status = 2404; }\n");
	m = t_get(&t, "GET", "/s", NULL);
	ck_assert_int_eq(m->status, 333);
	ck_assert_str_eq(m->reason, "Odd");
	HX_HeaderIs(m, "X-Seen", "1333");
	HX_MsgFree(&m);
	/* 1099 is 99 modulo 1000: refused, the request fails. */
	m = t_get(&t, "GET", "/bad", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	/* A failed VCL closes the connection, as varnishd does. */
	CLIENT_Free(&t.cl);
	t.cl = VND_Connect(t.v);
	m = t_get(&t, "GET", "/d", NULL);
	ck_assert_int_eq(m->status, 404);
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* A varnishtest-style barrier: closes its one connection after 0.3 s. */
static void *
barrier_run(void *priv)
{
	int *fdp = priv, c;

	c = accept(*fdp, NULL, NULL);
	if (c >= 0) {
		usleep(300000);
		(void)close(c);
	}
	return (NULL);
}

START_TEST(issue_0014_vmod_vtc)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof sin;
	struct hx_vcl t;
	struct hx_msg *m;
	pthread_t thr;
	char vcl[1024];
	double t0;
	int lfd;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(lfd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(listen(lfd, 4), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&sin, &sl), 0);
	(void)snprintf(vcl, sizeof vcl,
	    "import vtc;\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/barrier\") {\n"
	    "\t\tvtc.barrier_sync(\"127.0.0.1:%d\");\n"
	    "\t\treturn (synth(200));\n"
	    "\t}\n"
	    "\tif (req.url == \"/ws\") {\n"
	    "\t\tvtc.workspace_alloc(client, -10);\n"
	    "\t\tset req.http.X = \"more than ten bytes of workspace\";\n"
	    "\t}\n"
	    "\tif (req.url == \"/nobarrier\") {\n"
	    "\t\tvtc.barrier_sync(\"127.0.0.1:1\");\n"
	    "\t}\n"
	    "\treturn (synth(201));\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Free = vtc.workspace_free(client) > 0;\n"
	    "}\n", ntohs(sin.sin_port));
	HXV_Start(&t, o_handler, vcl);
	ck_assert_int_eq(pthread_create(&thr, NULL, barrier_run, &lfd), 0);
	t0 = HX_Now();
	m = t_get(&t, "GET", "/barrier", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_msg(HX_Now() - t0 >= 0.25, "the barrier did not wait");
	HX_MsgFree(&m);
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	(void)close(lfd);
	m = t_get(&t, "GET", "/", NULL);
	ck_assert_int_eq(m->status, 201);
	HX_HeaderIs(m, "X-Free", "true");
	HX_MsgFree(&m);
	/* A workspace used up on purpose: the request fails, 500. */
	m = t_get(&t, "GET", "/ws", NULL);
	ck_assert_int_eq(m->status, 500);
	HX_MsgFree(&m);
	CLIENT_Free(&t.cl);
	t.cl = VND_Connect(t.v);
	/* A barrier nobody listens on fails the task: 503. */
	m = t_get(&t, "GET", "/nobarrier", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/*
 * Restarting past max_restarts: vcl_synth sees req.restarts one above
 * it (the refused restart counts), as varnishd's does; VCL written for
 * Varnish tests that number.
 */
START_TEST(issue_0014_too_many_restarts)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/synth\") { return (synth(503)); }\n"
	    "\treturn (restart);\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Restarts = req.restarts;\n"
	    "\tif (req.url == \"/synth\") { return (restart); }\n"
	    "}\n");
	m = t_get(&t, "GET", "/", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_HeaderIs(m, "X-Restarts", "5");	/* max_restarts is 4 */
	HX_MsgFree(&m);
	/* vcl_synth restarting past the limit: what it made goes out. */
	m = t_get(&t, "GET", "/synth", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_HeaderIs(m, "X-Restarts", "5");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* /cut: 10 of 100 promised bytes, then the connection ends. */
static void
cut_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)priv;
	if (!strcmp(req->url, "/te")) {
		/* A coding nobody here can decode, read to the close. */
		(void)ORIGIN_Head(oc, 200, "Transfer-Encoding: gzip\r\n");
		(void)ORIGIN_Send(oc, "\x1f\x8b\x08\x00", 4);
		ORIGIN_Close(oc);
		return;
	}
	if (strncmp(req->url, "/cut", 4) != 0) {
		(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=100\r\n",
		    "the whole body", -1);
		return;
	}
	(void)ORIGIN_Head(oc, 200, "Content-Length: 100\r\n");
	(void)ORIGIN_Send(oc, "0123456789", 10);
	ORIGIN_Close(oc);
}

/*
 * beresp.do_stream = false: the body is fetched whole before the client
 * gets the response, so a fetch that fails on the way is a 503 (it
 * used to be a 200 with a cut body), and a whole one has its length.
 */
START_TEST(issue_0014_do_stream_false)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, cut_handler,
	    "sub vcl_backend_response {\n"
	    "\tset beresp.do_stream = false;\n"
	    "\tset beresp.http.X-Stream = beresp.do_stream;\n"
	    "}\n");
	m = t_get(&t, "GET", "/cut", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	CLIENT_Free(&t.cl);
	t.cl = VND_Connect(t.v);
	m = t_get(&t, "GET", "/whole", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "Content-Length", "14");
	HX_HeaderIs(m, "X-Stream", "false");
	HX_MsgFree(&m);
	/* Stored once whole: a hit. */
	m = t_get(&t, "GET", "/whole", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_str_eq(m->body, "the whole body");
	HX_MsgFree(&m);
	(void)VND_WaitCounter(t.v, "MAIN.cache_hit", "==", 1, HX_T_RESP);
	HXV_Finish(&t);
}
END_TEST

/*
 * A backend response in a transfer coding other than chunked is a 503:
 * passed on, its bytes would reach the client still coded, the header
 * that said so gone (it is hop-by-hop).
 */
START_TEST(issue_0014_backend_te_refused)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, cut_handler, "");
	m = t_get(&t, "GET", "/te", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/*
 * A pass stores nothing: beresp.ttl reads 0 whatever the headers say
 * (it read max-age), as in varnishd.  A response without Date gets the
 * time it arrived, kept with the cached object: a hit later has that
 * Date and an Age, not a Date made up at delivery.
 */
START_TEST(issue_0014_pass_ttl_and_date)
{
	struct hx_vcl t;
	struct hx_msg *m;
	char date[64];

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.url ~ \"^/pass\") { return (pass); }\n"
	    "}\n"
	    "sub vcl_backend_response {\n"
	    "\tset beresp.http.X-Ttl = beresp.ttl;\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "\tset resp.http.X-Hits = obj.hits;\n"
	    "}\n");
	m = t_get(&t, "GET", "/pass", NULL);
	/* obj.* of a pass read 0; it used to fail the request. */
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Hits", "0");
	ck_assert_msg(HX_Header(m, "X-Ttl") != NULL &&
	    fabs(atof(HX_Header(m, "X-Ttl"))) < 0.5, "a pass has beresp.ttl "
	    "%s", HX_Header(m, "X-Ttl"));
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/cached", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_ptr_nonnull(HX_Header(m, "Date"));
	(void)snprintf(date, sizeof date, "%s", HX_Header(m, "Date"));
	HX_MsgFree(&m);
	usleep(1100 * 1000);
	m = t_get(&t, "GET", "/cached", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "Date", date);
	ck_assert_int_ge(atoi(HX_Header(m, "Age")), 1);
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_std)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv { return (synth(200)); }\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Lower = std.tolower(\"AbC\" + 1);\n"
	    "\tset resp.http.X-Upper = std.toupper(\"AbC\");\n"
	    "\tset resp.http.X-Int = std.integer(s = \"41\", fallback = 0) + 1;\n"
	    "\tset resp.http.X-Int-Bad = std.integer(s = \"x\", fallback = 7);\n"
	    "\tset resp.http.X-Real = std.real(s = \"1.5\", fallback = 0.0);\n"
	    "\tset resp.http.X-Dur = std.duration(\"1m\", 0s);\n"
	    "\tset resp.http.X-Bytes = std.bytes(\"1KB\", 0B);\n"
	    "\tset resp.http.X-Sort = std.querysort(\"/a?c=3&a=1&b=2\");\n"
	    "\tset resp.http.X-Strstr = std.strstr(\"hello world\", \"wor\");\n"
	    "\tset resp.http.X-Ip = std.ip(\"192.0.2.7\", client.ip);\n"
	    "\tset resp.http.X-Ip-Bad = std.ip(\"nope\", std.ip(\"::1\"), "
	    "resolve = false);\n"
	    "\tset resp.http.X-Port = std.port(std.ip(\"192.0.2.7\", p = \"81\"));\n"
	    "\tif (std.random(1, 2) >= 1) { set resp.http.X-Rnd = \"ok\"; }\n"
	    "\tset resp.http.X-T2I = std.time2integer(std.real2time(5.5, now), 0);\n"
	    "\tset resp.http.X-Time =\n"
	    "\t    std.time(\"Sun, 06 Nov 1994 08:49:37 GMT\", now);\n"
	    "\tset resp.http.X-Healthy = std.healthy(default);\n"
	    "\tstd.log(\"logged\");\n"
	    "\tstd.timestamp(\"vcl\");\n"
	    "\tsynthetic(\"ok\");\n"
	    "\treturn (deliver);\n"
	    "}\n");
	m = t_get(&t, "GET", "/", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Lower", "abc1");
	HX_HeaderIs(m, "X-Upper", "ABC");
	HX_HeaderIs(m, "X-Int", "42");
	HX_HeaderIs(m, "X-Int-Bad", "7");
	HX_HeaderIs(m, "X-Real", "1.500");
	HX_HeaderIs(m, "X-Dur", "60.000");
	HX_HeaderIs(m, "X-Bytes", "1024");
	HX_HeaderIs(m, "X-Sort", "/a?a=1&b=2&c=3");
	HX_HeaderIs(m, "X-Strstr", "world");
	HX_HeaderIs(m, "X-Ip", "192.0.2.7");
	HX_HeaderIs(m, "X-Ip-Bad", "::1");
	HX_HeaderIs(m, "X-Port", "81");
	HX_HeaderIs(m, "X-Rnd", "ok");
	HX_HeaderIs(m, "X-T2I", "5");
	HX_HeaderIs(m, "X-Time", "Sun, 06 Nov 1994 08:49:37 GMT");
	HX_HeaderIs(m, "X-Healthy", "true");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* A backend name that does not resolve: sick, 503, not a load failure. */
START_TEST(issue_0012_unresolvable_backend_is_sick)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "backend ghost { .host = \"no-such-host.invalid\"; }\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/ghost\") { set req.backend_hint = ghost; }\n"
	    "}\n");
	m = t_get(&t, "GET", "/ghost", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/fine", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	ck_assert_uint_ge(VND_Counter(t.v, "MAIN.backend_fail"), 1);
	HXV_Finish(&t);
}
END_TEST

/*
 * vcl_backend_error may cache its answer for a while (the usual shield
 * for a failing backend: set beresp.ttl); without a TTL nothing is kept
 * and the next request tries the backend again.
 */
START_TEST(issue_0014_backend_error_cached)
{
	struct hx_vcl t;
	struct hx_msg *m;
	char first[32];

	HXV_Start(&t, o_handler,
	    "backend ghost { .host = \"no-such-host.invalid\"; }\n"
	    "sub vcl_recv { set req.backend_hint = ghost; }\n"
	    "sub vcl_backend_fetch {\n"
	    "\tif (bereq.url == \"/asked\") { return (error(418)); }\n"
	    "}\n"
	    "sub vcl_backend_error {\n"
	    "\tset beresp.http.X-Xid = bereq.xid;\n"
	    "\tif (bereq.url == \"/shield\") { set beresp.ttl = 60s; }\n"
	    "\treturn (deliver);\n"
	    "}\n");
	m = t_get(&t, "GET", "/shield", NULL);
	ck_assert_int_eq(m->status, 503);
	ck_assert_ptr_nonnull(HX_Header(m, "X-Xid"));
	(void)snprintf(first, sizeof first, "%s", HX_Header(m, "X-Xid"));
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/shield", NULL);
	ck_assert_int_eq(m->status, 503);
	HX_HeaderIs(m, "X-Xid", first);		/* a hit */
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/plain", NULL);
	ck_assert_int_eq(m->status, 503);
	(void)snprintf(first, sizeof first, "%s", HX_Header(m, "X-Xid"));
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/plain", NULL);
	ck_assert_int_eq(m->status, 503);
	ck_assert_str_ne(HX_Header(m, "X-Xid"), first);	/* tried again */
	HX_MsgFree(&m);
	/* Three real failures so far; return (error) is not one. */
	ck_assert_uint_eq(VND_WaitCounter(t.v, "MAIN.fetch_failed", "==", 3,
	    HX_T_RESP), 3);
	m = t_get(&t, "GET", "/asked", NULL);
	ck_assert_int_eq(m->status, 418);
	HX_MsgFree(&m);
	ck_assert_uint_eq(VND_Counter(t.v, "MAIN.fetch_failed"), 3);
	HXV_Finish(&t);
}
END_TEST

/*
 * Integer division and remainder by a run-time 0 (or the most negative
 * INT by -1) fail the request (503) instead of trapping the child.
 */
START_TEST(issue_0014_int_division_by_zero)
{
	struct hx_vcl t;
	struct hx_msg *m;
	pid_t child;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tset req.http.X-Q = 10 / std.integer(req.http.X-D, 0);\n"
	    "\tset req.http.X-R = 10 % std.integer(req.http.X-D, 0);\n"
	    "\tset req.http.X-M = std.integer(req.http.X-N, 0) / "
	    "std.integer(req.http.X-D, 0);\n"
	    "\treturn (synth(200));\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Q = req.http.X-Q;\n"
	    "\tset resp.http.X-R = req.http.X-R;\n"
	    "\tset resp.http.X-M = req.http.X-M;\n"
	    "}\n");
	child = VND_ChildPid(t.v);
	m = t_get(&t, "GET", "/", "X-D: 3\r\n");
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Q", "3");
	HX_HeaderIs(m, "X-R", "1");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/", "X-D: 0\r\n");
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	CLIENT_Free(&t.cl);
	t.cl = VND_Connect(t.v);
	m = t_get(&t, "GET", "/", "X-D: -1\r\n"
	    "X-N: -9223372036854775808\r\n");
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Q", "-10");
	HX_HeaderIs(m, "X-R", "0");
	HX_MsgFree(&m);
	ck_assert_int_eq(VND_ChildPid(t.v), child);	/* no restart */
	HXV_Finish(&t);
}
END_TEST

static void
empty_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)req;
	(void)priv;
	(void)ORIGIN_Respond(oc, 200, NULL, "", 0);
}

/*
 * return (retry) after a response read whole (no body) keeps the
 * connection for the retry, instead of closing it and opening another.
 */
START_TEST(issue_0014_retry_reuses_connection)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, empty_handler,
	    "sub vcl_backend_response {\n"
	    "\tif (bereq.retries == 0) { return (retry); }\n"
	    "\tset beresp.http.X-Retries = bereq.retries;\n"
	    "}\n");
	m = t_get(&t, "GET", "/retry", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Retries", "1");
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(t.o), 2);
	ck_assert_uint_eq(ORIGIN_NConn(t.o), 1);
	HXV_Finish(&t);
}
END_TEST

/* .host = "address:port", as varnishd takes it (varnishtest does). */
START_TEST(issue_0014_host_with_port)
{
	struct hx_vcl t;
	struct hx_msg *m;
	char vcl[512];

	t.o = ORIGIN_New(o_handler, NULL);
	(void)snprintf(vcl, sizeof vcl, "vcl 4.1;\n"
	    "backend b { .host = \"127.0.0.1:%d\"; }\n", ORIGIN_Port(t.o));
	t.v = VND_New();
	VND_VclFile(t.v, "hp.vcl", vcl);
	VND_Start(t.v);
	t.cl = VND_Connect(t.v);
	m = t_get(&t, "GET", "/hp", NULL);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Url", "/hp");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_include_and_vcl_init)
{
	struct hx_vcl t;
	struct hx_msg *m;
	char *path;
	FILE *f;

	/* A VCL 4.0 file including one beside it. */
	o_count = 0;
	t.o = ORIGIN_New(o_handler, NULL);
	t.v = VND_New();
	ck_assert_int_gt(asprintf(&path, "%s/inc.vcl", VND_Dir(t.v)), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	(void)fputs("sub vcl_deliver { set resp.http.X-Inc = \"yes\"; }\n",
	    f);
	(void)fclose(f);
	free(path);
	ck_assert_int_gt(asprintf(&path, "%s/main.vcl", VND_Dir(t.v)), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	(void)fprintf(f, "vcl 4.0;\nimport std;\n"
	    "backend b { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "include \"inc.vcl\";\n"
	    "sub vcl_init { std.log(\"init ran\"); }\n",
	    ORIGIN_Port(t.o));
	(void)fclose(f);
	VND_Arg(t.v, "-f");
	VND_Arg(t.v, path);
	VND_Start(t.v);
	t.cl = VND_Connect(t.v);
	free(path);
	m = t_get(&t, "GET", "/", NULL);
	HX_HeaderIs(m, "X-Inc", "yes");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_example_host_normalize)
{
	struct hx_vcl t;
	struct hx_msg *m;

	t_start_example(&t, "host-normalize.vcl");
	m = t_get(&t, "GET", "/", "Host: WWW.Example.com:80\r\n");
	HX_HeaderIs(m, "X-Seen-Host", "example.com");
	ck_assert_str_eq(m->body, "n=1");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/", "Host: example.com\r\n");
	ck_assert_str_eq(m->body, "n=1");		/* the same object */
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_example_images)
{
	struct hx_vcl t;
	struct hx_msg *m;

	t_start_example(&t, "images.vcl");
	m = t_get(&t, "GET", "/images/cookie.png", "Cookie: s=1\r\n");
	ck_assert_int_eq(m->status, 200);
	ck_assert_ptr_null(HX_Header(m, "Set-Cookie"));
	ck_assert_ptr_null(HX_Header(ORIGIN_Req(t.o, 0), "Cookie"));
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/images/cookie.png", "Cookie: s=2\r\n");
	ck_assert_str_eq(m->body, "n=1");		/* cached, 1 h */
	HX_MsgFree(&m);
	/* Elsewhere cookies still mean pass. */
	m = t_get(&t, "GET", "/page", "Cookie: s=1\r\n");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/page", "Cookie: s=1\r\n");
	ck_assert_str_eq(m->body, "n=3");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_example_x_hit)
{
	struct hx_vcl t;
	struct hx_msg *m;

	t_start_example(&t, "x-hit.vcl");
	m = t_get(&t, "GET", "/", NULL);
	HX_HeaderIs(m, "X-Hit", "0");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/", NULL);
	HX_HeaderIs(m, "X-Hit", "1");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* The wrong way shows its bug: the header is stored with the object. */
START_TEST(issue_0012_example_x_hit_wrong)
{
	struct hx_vcl t;
	struct hx_msg *m;

	t_start_example(&t, "x-hit-wrong.vcl");
	m = t_get(&t, "GET", "/", NULL);
	HX_HeaderIs(m, "X-Hit", "0");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/", NULL);
	ck_assert_str_eq(m->body, "n=1");		/* a hit ... */
	HX_HeaderIs(m, "X-Hit", "0");			/* ... saying 0 */
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_example_cache_everything)
{
	struct hx_vcl t;
	struct hx_msg *m;

	t_start_example(&t, "cache-everything.vcl");
	m = t_get(&t, "GET", "/cookie", "Cookie: a=1\r\n");
	ck_assert_ptr_null(HX_Header(m, "Set-Cookie"));
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/cookie", "Cookie: a=2\r\n");
	ck_assert_str_eq(m->body, "n=1");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_example_security_filter)
{
	struct hx_vcl t;
	struct hx_msg *m;

	t_start_example(&t, "security-filter.vcl");
	m = t_get(&t, "BREW", "/", NULL);
	ck_assert_int_eq(m->status, 405);
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/x.php?a=1", NULL);
	ck_assert_int_eq(m->status, 403);
	ck_assert_str_eq(m->body, "Forbidden\n");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/admin/", NULL);	/* from 127.0.0.1 */
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	ck_assert_uint_eq(ORIGIN_NReq(t.o), 1);
	HXV_Finish(&t);
}
END_TEST

START_TEST(issue_0012_example_multi_site)
{
	struct hx_vcl t;
	struct hx_msg *m;

	t_start_example(&t, "multi-site.vcl");
	m = t_get(&t, "GET", "/p?b=2&utm_source=x&a=1&fbclid=z",
	    "Host: shop.example.com\r\n");
	HX_HeaderIs(m, "X-Url", "/p?a=1&b=2");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/index.html", "Host: shop.example.com\r\n");
	HX_HeaderIs(m, "X-Url", "/");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/article.php?id=42&x=1",
	    "Host: news.example.com\r\n");
	HX_HeaderIs(m, "X-Url", "/a/42");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/shoes", "Host: www.example.com\r\n"
	    "User-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)\r\n");
	ck_assert_int_eq(m->status, 302);
	HX_HeaderIs(m, "Location", "https://m.example.com/shoes");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* VCL 4.0's return (fetch) in vcl_hit refreshes the object. */
START_TEST(issue_0012_hit_return_fetch_refreshes)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_hit {\n"
	    "\tif (req.http.X-Refresh) { return (fetch); }\n"
	    "}\n");
	m = t_get(&t, "GET", "/r", NULL);
	ck_assert_str_eq(m->body, "n=1");
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/r", "X-Refresh: 1\r\n");
	ck_assert_int_eq(m->status, 200);
	ck_assert_str_eq(m->body, "n=2");		/* fetched again */
	HX_MsgFree(&m);
	m = t_get(&t, "GET", "/r", NULL);
	ck_assert_str_eq(m->body, "n=2");		/* ... and stored */
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* A one-connection origin on a Unix socket: answers each request "uds". */
static void *
uds_origin(void *priv)
{
	static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"
	    "Cache-Control: max-age=100\r\n\r\nuds";
	char buf[4096];
	int lfd = *(int *)priv, fd;
	ssize_t n;

	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		return (NULL);
	while ((n = read(fd, buf, sizeof buf - 1)) > 0) {
		buf[n] = '\0';
		if (strstr(buf, "\r\n\r\n") == NULL)
			continue;
		if (write(fd, resp, strlen(resp)) != (ssize_t)strlen(resp))
			break;
	}
	(void)close(fd);
	return (NULL);
}

/* .path: a backend on a Unix domain socket. */
START_TEST(issue_0012_unix_socket_backend)
{
	struct sockaddr_un sun;
	struct hx_vcl t;
	struct hx_msg *m;
	pthread_t thr;
	char *vcl;
	int lfd;

	t.v = VND_New();
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	(void)snprintf(sun.sun_path, sizeof sun.sun_path, "%s/be.sock",
	    VND_Dir(t.v));
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sun, sizeof sun), 0);
	ck_assert_int_eq(listen(lfd, 4), 0);
	ck_assert_int_eq(pthread_create(&thr, NULL, uds_origin, &lfd), 0);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\n"
	    "backend default { .path = \"%s\"; }\n", sun.sun_path), 0);
	VND_VclFile(t.v, "uds.vcl", vcl);
	free(vcl);
	VND_Start(t.v);
	t.cl = VND_Connect(t.v);
	m = t_get(&t, "GET", "/u", NULL);
	ck_assert_int_eq(m->status, 200);
	ck_assert_str_eq(m->body, "uds");
	HX_MsgFree(&m);
	CLIENT_Free(&t.cl);
	VND_Stop(t.v);
	VND_Free(&t.v);
	ck_assert_int_eq(pthread_join(thr, NULL), 0);	/* it saw the close */
	(void)close(lfd);
}
END_TEST

static Suite *
vcl_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("vcl");
	tc = tcase_create("vcl");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0012_headers_url_regsub);
	tcase_add_test(tc, issue_0012_synth_custom);
	tcase_add_test(tc, issue_0012_acl_and_pass_pipe);
	tcase_add_test(tc, issue_0012_restart_and_hash_data);
	tcase_add_test(tc, issue_0012_pass_duration_and_purge);
	tcase_add_test(tc, issue_0012_std);
	tcase_add_test(tc, issue_0012_unresolvable_backend_is_sick);
	tcase_add_test(tc, issue_0012_include_and_vcl_init);
	tcase_add_test(tc, issue_0012_hit_return_fetch_refreshes);
	tcase_add_test(tc, issue_0012_unix_socket_backend);
	tcase_add_test(tc, issue_0012_example_host_normalize);
	tcase_add_test(tc, issue_0012_example_images);
	tcase_add_test(tc, issue_0012_example_x_hit);
	tcase_add_test(tc, issue_0012_example_x_hit_wrong);
	tcase_add_test(tc, issue_0012_example_cache_everything);
	tcase_add_test(tc, issue_0012_example_security_filter);
	tcase_add_test(tc, issue_0012_example_multi_site);
	tcase_add_test(tc, issue_0014_beresp_storage);
	tcase_add_test(tc, issue_0014_internal_status);
	tcase_add_test(tc, issue_0014_vmod_vtc);
	tcase_add_test(tc, issue_0014_do_stream_false);
	tcase_add_test(tc, issue_0014_too_many_restarts);
	tcase_add_test(tc, issue_0014_backend_te_refused);
	tcase_add_test(tc, issue_0014_pass_ttl_and_date);
	tcase_add_test(tc, issue_0014_backend_error_cached);
	tcase_add_test(tc, issue_0014_int_division_by_zero);
	tcase_add_test(tc, issue_0014_retry_reuses_connection);
	tcase_add_test(tc, issue_0014_host_with_port);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(vcl_suite()));
}

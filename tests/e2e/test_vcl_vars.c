/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcl_vars.c -- issue #12, end to end: the writable variables of
 * each subroutine, each set and then seen where it lands (a response
 * header, the status line, or at the origin), and vcl_pipe's access to
 * the backend request, which published VCL uses to carry an Upgrade
 * header through for websockets.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"

static unsigned o_count;

/* The origin reports what it was sent: method, URL, protocol, X-Vcl. */
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
	    "X-Method: %s\r\nX-Url: %s\r\nX-Seen-Vcl: %s\r\n"
	    "Cache-Control: max-age=100\r\n",
	    req->method, req->url, v != NULL ? v : "-");
	(void)snprintf(body, sizeof body, "n=%u", n);
	(void)ORIGIN_Respond(oc, 200, hdrs, body, -1);
}

/* vcl_pipe reads and sets the backend request before it is sent. */
START_TEST(issue_0012_pipe_sets_bereq)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tif (req.http.Upgrade) { return (pipe); }\n"
	    "}\n"
	    "sub vcl_pipe {\n"
	    "\tset bereq.http.X-Vcl = \"pipe \" + bereq.method + \" \" +\n"
	    "\t    bereq.url + \" \" + req.http.Upgrade;\n"
	    "\tset bereq.url = \"/piped\" + bereq.url;\n"
	    "\tunset bereq.http.Upgrade;\n"
	    "}\n");
	m = CLIENT_Fetch(t.cl, "GET", "/ws", "Upgrade: websocket\r\n"
	    "Connection: close\r\n", HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Seen-Vcl", "pipe GET /ws websocket");
	HX_HeaderIs(m, "X-Url", "/piped/ws");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/*
 * Each writable variable, set where it may be, then observed: the
 * client side in response headers, the backend side at the origin or
 * in the stored object.
 */
START_TEST(issue_0012_writable_variables)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_recv {\n"
	    "\tset req.url = req.url + \"?r=1\";\n"
	    "\tif (req.method == \"POST\") { set req.method = \"GET\"; }\n"
	    "\tset req.http.X-Vcl = \"recv\";\n"
	    "\tif (req.url ~ \"^/miss\") {\n"
	    "\t\tset req.hash_always_miss = true;\n"
	    "\t}\n"
	    "\tset req.grace = 10s;\n"
	    "\tset req.ttl = 1000s;\n"
	    "\tset req.backend_hint = default;\n"
	    "\tset client.identity = \"me\";\n"
	    "}\n"
	    "sub vcl_backend_fetch {\n"
	    "\tset bereq.url = bereq.url + \"&b=2\";\n"
	    "\tset bereq.method = \"GET\";\n"
	    "\tset bereq.http.X-Vcl = bereq.http.X-Vcl + \" fetch\";\n"
	    "\tset bereq.backend = default;\n"
	    "\tset bereq.connect_timeout = 2s;\n"
	    "\tset bereq.first_byte_timeout = 5s;\n"
	    "\tset bereq.between_bytes_timeout = 5s;\n"
	    "}\n"
	    "sub vcl_backend_response {\n"
	    "\tset beresp.status = 201;\n"
	    "\tset beresp.reason = \"Made\";\n"
	    "\tset beresp.ttl = 50s;\n"
	    "\tset beresp.grace = 5s;\n"
	    "\tset beresp.keep = 5s;\n"
	    "\tset beresp.do_stream = false;\n"
	    "\tset beresp.http.X-Ttl = beresp.ttl;\n"
	    "\tset beresp.http.X-Backend = beresp.backend.name;\n"
	    "\tif (bereq.url ~ \"uncacheable\") {\n"
	    "\t\tset beresp.uncacheable = true;\n"
	    "\t}\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "\tset resp.http.X-Identity = client.identity;\n"
	    "\tset resp.http.X-Obj-Ttl = obj.ttl < 51s && obj.ttl > 40s;\n"
	    "\tset resp.http.X-Hits = obj.hits;\n"
	    "\tset resp.http.X-Be-Reason = resp.reason;\n"
	    "\tset resp.status = resp.status + 1;\n"
	    "\tset resp.reason = \"Seen \" + resp.reason;\n"
	    "}\n");
	m = CLIENT_Fetch(t.cl, "POST", "/a", "Content-Length: 0\r\n",
	    HX_T_SLOW);
	ck_assert_int_eq(m->status, 202);
	/* A new status brings its own reason, as in Varnish. */
	ck_assert_str_eq(m->reason, "Seen Accepted");
	HX_HeaderIs(m, "X-Be-Reason", "Made");
	HX_HeaderIs(m, "X-Method", "GET");
	HX_HeaderIs(m, "X-Url", "/a?r=1&b=2");
	HX_HeaderIs(m, "X-Seen-Vcl", "recv fetch");
	HX_HeaderIs(m, "X-Ttl", "50.000");
	HX_HeaderIs(m, "X-Backend", "default");
	HX_HeaderIs(m, "X-Identity", "me");
	HX_HeaderIs(m, "X-Obj-Ttl", "true");
	HX_HeaderIs(m, "X-Hits", "0");
	HX_MsgFree(&m);
	/* Stored with its new status: a hit. */
	m = CLIENT_Fetch(t.cl, "GET", "/a", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 202);
	HX_HeaderIs(m, "X-Hits", "1");
	ck_assert_str_eq((const char *)m->body, "n=1");
	HX_MsgFree(&m);
	/* hash_always_miss fetches anew each time, and stores it. */
	m = CLIENT_Fetch(t.cl, "GET", "/miss", NULL, HX_T_SLOW);
	ck_assert_str_eq((const char *)m->body, "n=2");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/miss", NULL, HX_T_SLOW);
	ck_assert_str_eq((const char *)m->body, "n=3");
	HX_MsgFree(&m);
	/* beresp.uncacheable: never a hit. */
	m = CLIENT_Fetch(t.cl, "GET", "/uncacheable", NULL, HX_T_SLOW);
	ck_assert_str_eq((const char *)m->body, "n=4");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/uncacheable", NULL, HX_T_SLOW);
	ck_assert_str_eq((const char *)m->body, "n=5");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/* In vcl_synth and vcl_backend_error: status, reason, headers, body. */
START_TEST(issue_0012_synth_and_backend_error_variables)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "backend down { .host = \"127.0.0.1\"; .port = \"1\"; }\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/down\") {\n"
	    "\t\tset req.backend_hint = down;\n"
	    "\t\treturn (pass);\n"
	    "\t}\n"
	    "\treturn (synth(700, \"Custom\"));\n"
	    "}\n"
	    "sub vcl_backend_error {\n"
	    "\tset beresp.status = 502;\n"
	    "\tset beresp.reason = \"Origin Away\";\n"
	    "\tset beresp.http.X-Error = \"be \" + bereq.url;\n"
	    "\tsynthetic(\"down: \" + beresp.reason);\n"
	    "\treturn (deliver);\n"
	    "}\n"
	    "sub vcl_synth {\n"
	    "\tif (resp.status == 700) {\n"
	    "\t\tset resp.status = 299;\n"
	    "\t\tset resp.reason = \"Fine\";\n"
	    "\t\tset resp.http.X-Synth = req.url;\n"
	    "\t\tset resp.http.X-Ip = std.ip(req.http.X-Real-IP,\n"
	    "\t\t    \"192.0.2.9\");\n"
	    "\t\tsynthetic(\"synth for \" + req.url);\n"
	    "\t\treturn (deliver);\n"
	    "\t}\n"
	    "}\n");
	m = CLIENT_Fetch(t.cl, "GET", "/x", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 299);
	ck_assert_str_eq(m->reason, "Fine");
	HX_HeaderIs(m, "X-Synth", "/x");
	HX_HeaderIs(m, "X-Ip", "192.0.2.9");	/* a constant IP fallback */
	ck_assert_str_eq((const char *)m->body, "synth for /x");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/x", "X-Real-IP: 10.1.2.3\r\n",
	    HX_T_SLOW);
	HX_HeaderIs(m, "X-Ip", "10.1.2.3");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/down", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 502);
	ck_assert_str_eq(m->reason, "Origin Away");
	HX_HeaderIs(m, "X-Error", "be /down");
	ck_assert_str_eq((const char *)m->body, "down: Origin Away");
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/*
 * The actions the other tests do not take: hash and lookup spelled out,
 * miss from vcl_hit, fetch from vcl_miss and vcl_pass, error and
 * error(status, reason) from vcl_backend_fetch and
 * vcl_backend_response, retry and abandon, ok from vcl_init.
 */
START_TEST(issue_0012_remaining_actions)
{
	struct hx_vcl t;
	struct hx_msg *m;

	HXV_Start(&t, o_handler,
	    "sub vcl_init { return (ok); }\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url ~ \"^/pass\") { return (pass); }\n"
	    "\treturn (hash);\n"
	    "}\n"
	    "sub vcl_hash { hash_data(req.url); return (lookup); }\n"
	    "sub vcl_hit {\n"
	    "\tif (req.http.X-Miss) { return (miss); }\n"
	    "\treturn (deliver);\n"
	    "}\n"
	    "sub vcl_miss { return (fetch); }\n"
	    "sub vcl_pass { return (fetch); }\n"
	    "sub vcl_backend_fetch {\n"
	    "\tif (bereq.url ~ \"^/error\") { return (error); }\n"
	    "\tif (bereq.url ~ \"^/teapot\") {\n"
	    "\t\treturn (error(418, \"Short and stout\"));\n"
	    "\t}\n"
	    "\treturn (fetch);\n"
	    "}\n"
	    "sub vcl_backend_response {\n"
	    "\tif (bereq.url ~ \"^/retry\" && bereq.retries == 0) {\n"
	    "\t\treturn (retry);\n"
	    "\t}\n"
	    "\tif (bereq.url ~ \"^/abandon\") { return (abandon); }\n"
	    "\tif (bereq.url ~ \"^/refused\") { return (error(502)); }\n"
	    "\tset beresp.http.X-Retries = bereq.retries;\n"
	    "\treturn (deliver);\n"
	    "}\n"
	    "sub vcl_backend_error {\n"
	    "\tset beresp.http.X-Be-Error = bereq.url;\n"
	    "\treturn (deliver);\n"
	    "}\n"
	    "sub vcl_deliver { return (deliver); }\n");
	m = CLIENT_Fetch(t.cl, "GET", "/a", NULL, HX_T_SLOW);
	ck_assert_str_eq((const char *)m->body, "n=1");
	HX_HeaderIs(m, "X-Retries", "0");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/a", NULL, HX_T_SLOW);
	ck_assert_str_eq((const char *)m->body, "n=1");	/* lookup: hit */
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/a", "X-Miss: 1\r\n", HX_T_SLOW);
	/* miss from vcl_hit: fetched anew */
	ck_assert_str_eq((const char *)m->body, "n=2");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/pass", NULL, HX_T_SLOW);
	ck_assert_str_eq((const char *)m->body, "n=3");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/retry", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Retries", "1");
	/* fetched twice */
	ck_assert_str_eq((const char *)m->body, "n=5");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/error", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 503);
	HX_HeaderIs(m, "X-Be-Error", "/error");
	HX_MsgFree(&m);
	/* error(status, reason) starts vcl_backend_error there. */
	m = CLIENT_Fetch(t.cl, "GET", "/teapot", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 418);
	ck_assert_str_eq(m->reason, "Short and stout");
	HX_HeaderIs(m, "X-Be-Error", "/teapot");
	HX_MsgFree(&m);
	ck_assert_uint_eq(__atomic_load_n(&o_count, __ATOMIC_RELAXED), 5);
	m = CLIENT_Fetch(t.cl, "GET", "/refused", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 502);
	ck_assert_str_eq(m->reason, "Bad Gateway");
	HX_HeaderIs(m, "X-Be-Error", "/refused");
	HX_MsgFree(&m);
	ck_assert_uint_eq(__atomic_load_n(&o_count, __ATOMIC_RELAXED), 6);
	m = CLIENT_Fetch(t.cl, "GET", "/abandon", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 503);
	ck_assert_ptr_null(HX_Header(m, "X-Be-Error"));
	HX_MsgFree(&m);
	HXV_Finish(&t);
}
END_TEST

/*
 * Each file of the good corpus (tests/vcc/good) loads in a real
 * veneerd and answers a request: compiling is not enough, the child
 * must link and run the C.  Its backends do not exist here, so any
 * status will do, as long as one comes back.
 */
START_TEST(issue_0012_good_corpus_loads)
{
	char dir[] = VCL_SRCDIR "/tests/vcc/good", *path;
	struct client *cl;
	struct dirent *de;
	struct hx_msg *m;
	struct vnd *v;
	unsigned n = 0;
	size_t l;
	DIR *d;

	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		l = strlen(de->d_name);
		if (l < 5 || strcmp(de->d_name + l - 4, ".vcl"))
			continue;
		ck_assert_int_gt(asprintf(&path, "%s/%s", dir, de->d_name),
		    0);
		v = VND_New();
		VND_Arg(v, "-f");
		VND_Arg(v, path);
		VND_Start(v);
		cl = VND_Connect(v);
		m = CLIENT_Fetch(cl, "GET", "/", NULL, HX_T_SLOW);
		ck_assert_msg(m->status >= 200 && m->status < 600,
		    "%s: no answer", path);
		HX_MsgFree(&m);
		CLIENT_Free(&cl);
		VND_Stop(v);
		VND_Free(&v);
		free(path);
		n++;
	}
	(void)closedir(d);
	ck_assert_uint_ge(n, 5);
}
END_TEST

/* The std functions the other VCL tests do not call. */
START_TEST(issue_0012_std_remaining)
{
	struct hx_vcl t;
	struct hx_msg *m;
	char *vcl, *file;
	FILE *f;

	t.v = NULL;
	ck_assert_int_gt(asprintf(&file, "/tmp/veneer-std-%ld.txt",
	    (long)getpid()), 0);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs("from a file", f), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_gt(asprintf(&vcl,
	    "sub vcl_recv {\n"
	    "\tset req.http.X-Body = std.cache_req_body(1KB);\n"
	    "\tstd.collect(req.http.X-Multi, \"|\");\n"
	    "\tstd.late_100_continue(false);\n"
	    "\tstd.set_ip_tos(0);\n"
	    "\tstd.syslog(15, \"veneer e2e\");\n"
	    "\tif (req.url == \"/rollback\") {\n"
	    "\t\tset req.url = \"/changed\";\n"
	    "\t\tstd.rollback(req);\n"
	    "\t}\n"
	    "\treturn (pass);\n"
	    "}\n"
	    "sub vcl_backend_fetch {\n"
	    "\tset bereq.http.X-Vcl = bereq.http.X-Multi;\n"
	    "}\n"
	    "sub vcl_deliver {\n"
	    "\tset resp.http.X-Body = req.http.X-Body;\n"
	    "\tset resp.http.X-Round = std.round(2.5);\n"
	    "\tset resp.http.X-R2i = std.real2integer(-2.7, 0);\n"
	    "\tset resp.http.X-T2r = std.time2real(\n"
	    "\t    std.real2time(5.0, now), 0.0);\n"
	    "\tset resp.http.X-Exists = std.file_exists(\"%s\") &&\n"
	    "\t    !std.file_exists(\"%s.not\");\n"
	    "\tset resp.http.X-Read = std.fileread(\"%s\");\n"
	    "\tif (!std.getenv(\"VENEER_E2E_NO_SUCH_VAR\")) {\n"
	    "\t\tset resp.http.X-Env = \"unset\";\n"
	    "\t}\n"
	    "\tset resp.http.X-Ban = std.ban(\"obj.status == 999\");\n"
	    "\tset resp.http.X-Ban-Bad = std.ban(\"no such ban\");\n"
	    "\tset resp.http.X-Ban-Error = std.ban_error() != \"\";\n"
	    "}\n", file, file, file), 0);
	HXV_Start(&t, o_handler, vcl);
	m = CLIENT_Fetch(t.cl, "GET", "/rollback",
	    "X-Multi: a\r\nX-Multi: b\r\n", HX_T_SLOW);
	ck_assert_int_eq(m->status, 200);
	/*
	 * std.rollback() is a stub that logs VCL_Error for now, so the
	 * change stays; when rollback exists this must say "/rollback".
	 */
	HX_HeaderIs(m, "X-Url", "/changed");
	HX_HeaderIs(m, "X-Seen-Vcl", "a|b");		/* collected */
	/* Also a stub for now (bodies are streamed, not kept): false. */
	HX_HeaderIs(m, "X-Body", "false");
	HX_HeaderIs(m, "X-Round", "3.000");
	HX_HeaderIs(m, "X-R2i", "-2");
	HX_HeaderIs(m, "X-T2r", "5.000");
	HX_HeaderIs(m, "X-Exists", "true");
	HX_HeaderIs(m, "X-Read", "from a file");
	HX_HeaderIs(m, "X-Env", "unset");
	/* A good ban is added; a bad one is not, and says why. */
	HX_HeaderIs(m, "X-Ban", "true");
	HX_HeaderIs(m, "X-Ban-Bad", "false");
	HX_HeaderIs(m, "X-Ban-Error", "true");
	HX_MsgFree(&m);
	HXV_Finish(&t);
	(void)unlink(file);
	free(file);
	free(vcl);
}
END_TEST

/* A VCL that does not compile: veneerd does not start, says why, 2. */
START_TEST(issue_0012_compile_error_refuses_start)
{
	struct vnd *v;
	char *path, *err;
	FILE *f;

	v = VND_New();
	ck_assert_int_gt(asprintf(&path, "%s/bad.vcl", VND_Dir(v)), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs("vcl 4.1;\n"
	    "backend b { .host = \"127.0.0.1\"; .port = \"9\"; }\n"
	    "sub vcl_recv { set req.http.X = ; }\n", f), 0);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(VND_Exec(v, 0, 20.0, "-F", "-n", VND_Workdir(v),
	    "-a", "127.0.0.1:0", "-f", path, NULL), 2);
	err = VND_ExecErr(v);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err, "bad.vcl:3:") != NULL &&
	    strstr(err, "error:") != NULL, "stderr:\n%s", err);
	free(err);
	free(path);
	VND_Free(&v);
}
END_TEST

static Suite *
vcl_vars_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("vcl_vars");
	tc = tcase_create("vars");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, issue_0012_pipe_sets_bereq);
	tcase_add_test(tc, issue_0012_writable_variables);
	tcase_add_test(tc, issue_0012_synth_and_backend_error_variables);
	tcase_add_test(tc, issue_0012_remaining_actions);
	tcase_add_test(tc, issue_0012_good_corpus_loads);
	tcase_add_test(tc, issue_0012_std_remaining);
	tcase_add_test(tc, issue_0012_compile_error_refuses_start);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(vcl_vars_suite()));
}

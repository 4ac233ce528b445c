/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_probe.c -- backend health probes end to end (issue 15): a probe
 * marks its backend sick when the origin fails and healthy again within
 * its window; .initial; .expected_response; backend.set_health over the
 * probe and "auto" giving it back; a cold VCL does not probe;
 * Backend_health records as veneerlog reads them.  The origin answers
 * probes with the status the test sets.  Every wait polls backend.list
 * or the origin's counts with a deadline.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"
#include "e2e/cli_lib.h"

/* The status the origin answers with; the test changes it. */
static int probe_status = 200;

static void
probe_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	int status = __atomic_load_n(&probe_status, __ATOMIC_RELAXED);

	(void)req;
	(void)priv;
	(void)ORIGIN_Respond(oc, status, "Connection: close\r\n", "ok", 2);
	ORIGIN_Close(oc);
}

/* veneerd with -T/-S and a VCL whose backend b has the probe body. */
static struct vnd *
probe_start(struct origin **op, const char *probe, int status)
{
	struct vnd *v;
	char *vcl;

	__atomic_store_n(&probe_status, status, __ATOMIC_RELAXED);
	*op = ORIGIN_New(probe_handler, NULL);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nbackend b {\n"
	    "\t.host = \"127.0.0.1\";\n\t.port = \"%d\";\n"
	    "\t.probe = { .url = \"/health\"; .interval = 0.05s; "
	    ".timeout = 2s; %s }\n}\n", ORIGIN_Port(*op), probe), 0);
	v = VND_New();
	VND_VclFile(v, "probe.vcl", vcl);
	cli_args(v, 1);
	VND_Start(v);
	free(vcl);
	return (v);
}

static unsigned
fetch_status(struct vnd *v, const char *url)
{
	struct client *cl;
	struct hx_msg *r;
	unsigned s;

	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", url, "Cache-Control: no-cache\r\n",
	    HX_T_RESP);
	s = r->status;
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	return (s);
}

/* Sick when the origin fails, healthy again within the window. */
START_TEST(sick_and_back)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = probe_start(&o, ".window = 4; .threshold = 3; .initial = 3;",
	    200);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "probe   4/4      healthy");
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/health"));
	__atomic_store_n(&probe_status, 500, __ATOMIC_RELAXED);
	cli_wait(fd, "backend.list", "sick");
	ck_assert_uint_eq(fetch_status(v, "/a"), 503);
	__atomic_store_n(&probe_status, 200, __ATOMIC_RELAXED);
	/* Three good probes out of the last four: healthy. */
	cli_wait(fd, "backend.list", "healthy");
	cli_wait(fd, "backend.list -p", "HHHH Happy");
	cli_wait(fd, "backend.list -j -p", "\"threshold\": 3");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* .initial 0: sick until threshold probes succeeded. */
START_TEST(initial_zero)
{
	struct origin *o;
	struct vnd *v;
	char *b;
	int fd;

	/* An interval of an hour: only the first probe runs. */
	__atomic_store_n(&probe_status, 200, __ATOMIC_RELAXED);
	v = probe_start(&o, ".window = 8; .threshold = 2; .initial = 0;"
	    " .interval = 1h;", 200);
	fd = cli_login(v);
	ORIGIN_WaitReqs(o, 1, HX_T_SLOW);
	cli_wait(fd, "backend.list", "1/8");
	ck_assert_uint_eq(cli_ask(fd, "backend.list", &b), 200);
	ck_assert_msg(strstr(b, "sick") != NULL, "%s", b);
	free(b);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* .expected_response: a 200 is a failure when 204 is expected. */
START_TEST(expected_response)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = probe_start(&o, ".window = 2; .threshold = 2; .initial = 2;"
	    " .expected_response = 204;", 200);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "sick");
	__atomic_store_n(&probe_status, 204, __ATOMIC_RELAXED);
	cli_wait(fd, "backend.list", "2/2      healthy");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* set_health overrides the probe; auto gives the verdict back. */
START_TEST(set_health_over_probe)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = probe_start(&o, ".window = 2; .threshold = 2; .initial = 0;",
	    500);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "probe   0/2      sick");
	ck_assert_uint_eq(fetch_status(v, "/x"), 503);
	cli_expect(fd, "backend.set_health b healthy", 200, NULL);
	cli_wait(fd, "backend.list", "healthy   0/2      sick");
	ck_assert_uint_eq(fetch_status(v, "/x"), 500);
	cli_expect(fd, "backend.set_health b auto", 200, NULL);
	cli_wait(fd, "backend.list", "probe   0/2      sick");
	ck_assert_uint_eq(fetch_status(v, "/y"), 503);
	__atomic_store_n(&probe_status, 200, __ATOMIC_RELAXED);
	cli_wait(fd, "backend.list", "probe   2/2      healthy");
	cli_expect(fd, "backend.set_health b sick", 200, NULL);
	ck_assert_uint_eq(fetch_status(v, "/z"), 503);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* A cold VCL does not probe; warm, it does. */
START_TEST(cold_vcl)
{
	struct origin *o;
	struct vnd *v;
	char *line, *text, *path;
	unsigned n;
	int fd;

	v = probe_start(&o, ".window = 2; .threshold = 1;", 200);
	fd = cli_login(v);
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nbackend c { .host = "
	    "\"127.0.0.1\"; .port = \"%d\"; .probe = { .url = \"/cold\"; "
	    ".interval = 0.05s; } }\n", ORIGIN_Port(o)), 0);
	ck_assert_int_gt(asprintf(&path, "%s/cold.vcl", VND_Dir(v)), 0);
	write_text(path, text);
	ck_assert_int_gt(asprintf(&line, "vcl.load c %s cold", path), 0);
	cli_expect(fd, line, 200, NULL);
	free(text);
	free(path);
	free(line);
	/* The warm VCL's probes keep coming; the cold one's never do. */
	n = ORIGIN_NReq(o);
	ORIGIN_WaitReqs(o, n + 10, HX_T_SLOW);
	ck_assert_ptr_null(ORIGIN_FindReq(o, "/cold"));
	cli_expect(fd, "vcl.state c warm", 200, NULL);
	cli_wait(fd, "backend.list c.*", "/8      healthy");
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/cold"));
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* Backend_health records, vxid 0, in Varnish's format. */
START_TEST(backend_health_log)
{
	struct origin *o;
	struct vnd *v;
	char cmd[4096], buf[4096];
	const char *dir;
	size_t n;
	FILE *f;
	int fd;

	dir = getenv("VENEER_BUILDDIR");
	if (dir == NULL)
		HX_Skip("VENEER_BUILDDIR is not set");
	v = probe_start(&o, ".window = 3; .threshold = 2; .initial = 1;",
	    200);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "3/3");
	(void)snprintf(cmd, sizeof cmd, "timeout 20 %s/veneerlog -n %s -d "
	    "-g raw -i Backend_health", dir, VND_Workdir(v));
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_msg(strstr(buf, "0 Backend_health - b Went sick -------H "
	    "1 2 3 0.000000 0.000000 \"\"") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, " Backend_health - b Went healthy "
	    "4---X-RH 2 2 3 ") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, " \"HTTP/1.1 200 OK\"") != NULL, "%s",
	    buf);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("probe");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sick_and_back);
	tcase_add_test(tc, initial_zero);
	tcase_add_test(tc, expected_response);
	tcase_add_test(tc, set_health_over_probe);
	tcase_add_test(tc, cold_vcl);
	tcase_add_test(tc, backend_health_log);
	suite_add_tcase(s, tc);
	return (HX_Run(s));
}

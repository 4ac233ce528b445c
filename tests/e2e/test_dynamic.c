/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_dynamic.c -- the dynamic director (issue 15, "a cache tier beyond
 * one machine").  The child resolves through VENEER_HOSTS_FILE and
 * VENEER_SRV_FILE, files the test rewrites mid-test (by rename): a
 * d.backend() over two addresses round-robins both and follows a changed
 * answer without a reload, a member leaving while a fetch uses it
 * outliving that fetch; an unresolvable name gives 503; d.service()
 * fails over to the next SRV priority when the first's probe fails; a
 * shard fed by .add_dynamic() keeps each URL on one origin and, when
 * an address leaves DNS, moves only that origin's URLs.  Origins listen
 * on 127.0.0.1, .2 and .3 with one port; ttl is 0.1 s; every wait polls
 * backend.list with a deadline.
 */

#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"
#include "e2e/cli_lib.h"

/* Replace DIR/name with text in one step (the child may read it). */
static void
file_swap(struct vnd *v, const char *name, const char *text)
{
	char *tmp, *path;

	ck_assert_int_gt(asprintf(&tmp, "%s/%s.tmp", VND_Dir(v), name), 0);
	ck_assert_int_gt(asprintf(&path, "%s/%s", VND_Dir(v), name), 0);
	write_text(tmp, text);
	ck_assert_int_eq(rename(tmp, path), 0);
	free(tmp);
	free(path);
}

/*
 * veneerd with the CLI and the VCL "import dynamic; import directors;
 * backend default none;" then body, resolving through the hosts and
 * SRV files holding hosts and srv.
 */
static struct vnd *
dyn_start(const char *body, const char *hosts, const char *srv)
{
	struct vnd *v;
	char *vcl, *path;

	v = VND_New();
	file_swap(v, "hosts", hosts);
	file_swap(v, "srv", srv);
	ck_assert_int_gt(asprintf(&path, "%s/hosts", VND_Dir(v)), 0);
	ck_assert_int_eq(setenv("VENEER_HOSTS_FILE", path, 1), 0);
	free(path);
	ck_assert_int_gt(asprintf(&path, "%s/srv", VND_Dir(v)), 0);
	ck_assert_int_eq(setenv("VENEER_SRV_FILE", path, 1), 0);
	free(path);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nimport dynamic;\n"
	    "import directors;\nbackend default none;\n%s", body), 0);
	VND_VclFile(v, "dyn.vcl", vcl);
	free(vcl);
	/* Static backends' names (the cold test's pace) every 0.1 s. */
	VND_Param(v, "backend_dns_ttl", "0.1");
	cli_args(v, 1);
	VND_Start(v);
	/* Inherited by the child at start; not for later tests. */
	ck_assert_int_eq(unsetenv("VENEER_HOSTS_FILE"), 0);
	ck_assert_int_eq(unsetenv("VENEER_SRV_FILE"), 0);
	return (v);
}

/* GET url: its status, and its body (caller frees) if body. */
static unsigned
fetch(struct vnd *v, const char *url, char **body)
{
	struct client *cl;
	struct hx_msg *r;
	unsigned s;

	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", url, NULL, HX_T_SLOW);
	s = r->status;
	if (body != NULL)
		*body = strdup(r->body != NULL ? r->body : "");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	return (s);
}

/* Poll cmd until its answer lacks gone; fail after HX_T_SLOW. */
static void
cli_wait_gone(int fd, const char *cmd, const char *gone)
{
	double deadline = HX_Now() + HX_T_SLOW;
	char *b = NULL;

	for (;;) {
		ck_assert_uint_eq(cli_ask(fd, cmd, &b), 200);
		if (strstr(b, gone) == NULL)
			break;
		ck_assert_msg(HX_Now() < deadline, "%s: still \"%s\" in:\n%s",
		    cmd, gone, b);
		free(b);
		(void)poll(NULL, 0, 20);
	}
	free(b);
}

/*
 * Origins answering with their name (priv) as the body, and to /health
 * with the status *status_of(priv) the test sets.
 */
struct who {
	const char	*name;
	int		health;		/* atomic */
};

static void
who_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	struct who *w = priv;

	if (!strcmp(req->url, "/health")) {
		(void)ORIGIN_Respond(oc, __atomic_load_n(&w->health,
		    __ATOMIC_RELAXED), "Connection: close\r\n", "ok", 2);
		ORIGIN_Close(oc);
		return;
	}
	(void)ORIGIN_Respond(oc, 200, NULL, w->name, -1);
}

/*
 * A name listing 127.0.0.1 and 127.0.0.2: both get requests in turn;
 * the name loses .1 and traffic follows without a reload.
 */
START_TEST(round_robin_follows_dns)
{
	struct origin *a, *b;
	struct vnd *v;
	char vcl[512], want[64];
	unsigned i;
	int fd, port;

	a = ORIGIN_New(NULL, NULL);
	port = ORIGIN_Port(a);
	b = ORIGIN_NewAt(NULL, NULL, "127.0.0.2", port);
	(void)snprintf(vcl, sizeof vcl, "sub vcl_init {\n"
	    "\tnew d = dynamic.director(port = \"%d\", ttl = 0.1s);\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = d.backend(\"app.test\");"
	    "\n\treturn (pass);\n}\n", port);
	v = dyn_start(vcl, "127.0.0.1 app.test\n127.0.0.2 app.test\n", "");
	fd = cli_login(v);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(fetch(v, "/rr", NULL), 200);
	ck_assert_uint_eq(ORIGIN_NReq(a), 2);
	ck_assert_uint_eq(ORIGIN_NReq(b), 2);
	/* Members are backends, named as libvmod-dynamic names them. */
	(void)snprintf(want, sizeof want, "boot.d(127.0.0.1:%d)", port);
	cli_wait(fd, "backend.list", want);
	(void)snprintf(want, sizeof want, "boot.d(127.0.0.2:%d)", port);
	cli_wait(fd, "backend.list", want);
	(void)snprintf(want, sizeof want, "boot.d(app.test:%d)", port);
	cli_wait(fd, "backend.list", want);

	file_swap(v, "hosts", "127.0.0.2 app.test\n");
	(void)snprintf(want, sizeof want, "boot.d(127.0.0.1:%d)", port);
	cli_wait_gone(fd, "backend.list", want);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(fetch(v, "/after", NULL), 200);
	ck_assert_uint_eq(ORIGIN_NReq(a), 2);
	ck_assert_uint_eq(ORIGIN_NReq(b), 6);
	(void)close(fd);
	VND_Finish(&v, &a);
	ORIGIN_Free(&b);
}
END_TEST

/* The slow origin's fetch waits until the test lets it answer. */
static int slow_release;

static void
slow_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	unsigned i;

	(void)req;
	(void)priv;
	/* Bounded: 10 s at most, then it answers anyway. */
	for (i = 0; i < 500 && !__atomic_load_n(&slow_release,
	    __ATOMIC_ACQUIRE); i++)
		if (ORIGIN_Stall(oc, 0.02) != 0)
			return;
	(void)ORIGIN_Respond(oc, 200, NULL, "slow", -1);
}

/*
 * A member leaves the answer while a fetch uses it: it is off
 * backend.list at once, the fetch completes on it, and nothing is
 * freed under it (the sanitizer build checks that).
 */
START_TEST(member_leaves_during_fetch)
{
	struct origin *a, *b;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char vcl[512], want[64];
	int fd, port;

	__atomic_store_n(&slow_release, 0, __ATOMIC_RELEASE);
	a = ORIGIN_New(slow_handler, NULL);
	port = ORIGIN_Port(a);
	b = ORIGIN_NewAt(NULL, NULL, "127.0.0.2", port);
	(void)snprintf(vcl, sizeof vcl, "sub vcl_init {\n"
	    "\tnew d = dynamic.director(port = \"%d\", ttl = 0.1s);\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = d.backend(\"app.test\");"
	    "\n\treturn (pass);\n}\n", port);
	v = dyn_start(vcl, "127.0.0.1 app.test\n", "");
	fd = cli_login(v);
	cl = VND_Connect(v);
	CLIENT_Req(cl, "GET", "/slow", NULL, NULL, 0);
	ORIGIN_WaitReqs(a, 1, HX_T_SLOW);

	file_swap(v, "hosts", "127.0.0.2 app.test\n");
	(void)snprintf(want, sizeof want, "boot.d(127.0.0.1:%d)", port);
	cli_wait_gone(fd, "backend.list", want);
	__atomic_store_n(&slow_release, 1, __ATOMIC_RELEASE);
	r = CLIENT_Resp(cl, 0, HX_T_SLOW);
	ck_assert_uint_eq(r->status, 200);
	ck_assert_str_eq(r->body, "slow");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	ck_assert_uint_eq(fetch(v, "/next", NULL), 200);
	ck_assert_ptr_nonnull(ORIGIN_FindReq(b, "/next"));
	(void)close(fd);
	VND_Finish(&v, &a);
	ORIGIN_Free(&b);
}
END_TEST

/* A name that does not resolve: 503 (at once, for .invalid). */
START_TEST(unresolvable_503)
{
	struct origin *o;
	struct vnd *v;

	o = ORIGIN_New(NULL, NULL);
	v = dyn_start("sub vcl_init {\n\tnew d = dynamic.director();\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = "
	    "d.backend(\"nothing.invalid\");\n\treturn (pass);\n}\n",
	    "127.0.0.1 app.test\n", "");
	ck_assert_uint_eq(fetch(v, "/none", NULL), 503);
	ck_assert_uint_eq(fetch(v, "/none-again", NULL), 503);
	ck_assert_uint_eq(ORIGIN_NReq(o), 0);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * SRV: priority 10 at origin a, 20 at b.  a serves while its probe
 * passes; when it fails, b; a again once healthy.
 */
START_TEST(srv_priority_failover)
{
	struct who wa = { "a", 200 }, wb = { "b", 200 };
	struct origin *a, *b;
	struct vnd *v;
	char vcl[1024], srv[256], want[64], *body;
	int fd;

	a = ORIGIN_New(who_handler, &wa);
	b = ORIGIN_New(who_handler, &wb);
	(void)snprintf(srv, sizeof srv, "_http._tcp.svc.test 20 1 %d b.test\n"
	    "_http._tcp.svc.test 10 1 %d a.test\n", ORIGIN_Port(b),
	    ORIGIN_Port(a));
	(void)snprintf(vcl, sizeof vcl, "probe p {\n\t.url = \"/health\";\n"
	    "\t.interval = 0.05s;\n\t.window = 2;\n\t.threshold = 1;\n"
	    "\t.initial = 1;\n}\n"
	    "sub vcl_init {\n\tnew d = dynamic.director(probe = p, "
	    "ttl = 0.1s);\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = "
	    "d.service(\"_http._tcp.svc.test\");\n\treturn (pass);\n}\n");
	v = dyn_start(vcl, "127.0.0.1 a.test b.test\n", srv);
	fd = cli_login(v);
	ck_assert_uint_eq(fetch(v, "/one", &body), 200);
	ck_assert_str_eq(body, "a");
	free(body);

	__atomic_store_n(&wa.health, 500, __ATOMIC_RELAXED);
	(void)snprintf(want, sizeof want, "backend.list boot.d(127.0.0.1:%d)",
	    ORIGIN_Port(a));
	cli_wait(fd, want, "sick");
	ck_assert_uint_eq(fetch(v, "/two", &body), 200);
	ck_assert_str_eq(body, "b");
	free(body);

	__atomic_store_n(&wa.health, 200, __ATOMIC_RELAXED);
	cli_wait(fd, want, "healthy");
	ck_assert_uint_eq(fetch(v, "/three", &body), 200);
	ck_assert_str_eq(body, "a");
	free(body);
	(void)close(fd);
	VND_Finish(&v, &a);
	ORIGIN_Free(&b);
}
END_TEST

#define NKEYS	90

/*
 * A shard fed by .add_dynamic(): each URL stays on one origin; when
 * 127.0.0.3 leaves the answer only its URLs move.
 */
START_TEST(shard_add_dynamic)
{
	struct who w[3] = { { "1", 200 }, { "2", 200 }, { "3", 200 } };
	struct origin *o[3];
	struct vnd *v;
	char vcl[1024], url[32], *body, before[NKEYS], want[64];
	unsigned i, on3 = 0, moved = 0, per[3] = { 0, 0, 0 };
	int fd, port;

	o[0] = ORIGIN_New(who_handler, &w[0]);
	port = ORIGIN_Port(o[0]);
	o[1] = ORIGIN_NewAt(who_handler, &w[1], "127.0.0.2", port);
	o[2] = ORIGIN_NewAt(who_handler, &w[2], "127.0.0.3", port);
	(void)snprintf(vcl, sizeof vcl, "sub vcl_init {\n"
	    "\tnew d = dynamic.director(port = \"%d\", ttl = 0.1s);\n"
	    "\tnew s = directors.shard();\n"
	    "\ts.add_dynamic(d.backend(\"shards.test\"));\n}\n"
	    "sub vcl_recv {\n\treturn (pass);\n}\n"
	    "sub vcl_backend_fetch {\n"
	    "\tset bereq.backend = s.backend(by = URL);\n}\n", port);
	v = dyn_start(vcl, "127.0.0.1 shards.test\n127.0.0.2 shards.test\n"
	    "127.0.0.3 shards.test\n", "");
	fd = cli_login(v);
	/* The shard's row counts its members: healthy/all. */
	cli_wait(fd, "backend.list s", "3/3");

	for (i = 0; i < NKEYS; i++) {
		(void)snprintf(url, sizeof url, "/key/%u", i);
		ck_assert_uint_eq(fetch(v, url, &body), 200);
		before[i] = body[0];
		free(body);
		per[before[i] - '1']++;
		/* The same URL, the same origin. */
		ck_assert_uint_eq(fetch(v, url, &body), 200);
		ck_assert_int_eq(body[0], before[i]);
		free(body);
	}
	/* 90 keys on 3 members: each gets some (else (2/3)^90 luck). */
	ck_assert_uint_gt(per[0], 0);
	ck_assert_uint_gt(per[1], 0);
	ck_assert_uint_gt(per[2], 0);

	file_swap(v, "hosts", "127.0.0.1 shards.test\n"
	    "127.0.0.2 shards.test\n");
	cli_wait(fd, "backend.list s", "2/2");
	(void)snprintf(want, sizeof want, "boot.d(127.0.0.3:%d)", port);
	cli_wait_gone(fd, "backend.list", want);
	for (i = 0; i < NKEYS; i++) {
		(void)snprintf(url, sizeof url, "/key/%u", i);
		ck_assert_uint_eq(fetch(v, url, &body), 200);
		ck_assert_int_ne(body[0], '3');
		if (before[i] == '3')
			on3++;
		else if (body[0] != before[i])
			moved++;
		free(body);
	}
	/*
	 * Tolerance 0: the ring's points are hashes of "ip:port" idents and
	 * the remaining members keep theirs, so a key whose first point
	 * belonged to .1 or .2 still finds it first; only .3's keys (on3)
	 * go elsewhere.  Nothing random is involved (no warmup, rampup).
	 */
	ck_assert_uint_eq(moved, 0);
	ck_assert_uint_eq(on3, per[2]);
	(void)close(fd);
	VND_Finish(&v, &o[0]);
	ORIGIN_Free(&o[1]);
	ORIGIN_Free(&o[2]);
}
END_TEST

/*
 * A cold VCL's names are not resolved (nor its members probed): they
 * are once it is warm.
 */
START_TEST(cold_vcl_not_resolved)
{
	struct origin *o;
	struct vnd *v;
	char *path, *line, vcl[512], want[64];
	int fd, port;

	o = ORIGIN_New(NULL, NULL);
	port = ORIGIN_Port(o);
	/* A static backend's lookups pace the wait below. */
	(void)snprintf(vcl, sizeof vcl, "backend b { .host = \"app.test\"; "
	    ".port = \"%d\"; }\nsub vcl_init {\n"
	    "\tnew d = dynamic.director(port = \"%d\", ttl = 0.1s);\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = d.backend(\"app.test\");"
	    "\n\tif (req.url == \"/b\") {\n\t\tset req.backend_hint = b;"
	    "\n\t}\n}\n", port, port);
	v = dyn_start(vcl, "127.0.0.1 app.test cold.test\n", "");
	fd = cli_login(v);
	(void)snprintf(vcl, sizeof vcl, "vcl 4.1;\nimport dynamic;\n"
	    "import directors;\nbackend default none;\n"
	    "sub vcl_init {\n\tnew d = dynamic.director(port = \"%d\", "
	    "ttl = 0.1s);\n\tnew s = directors.shard();\n"
	    "\ts.add_dynamic(d.backend(\"cold.test\"));\n}\n", port);
	ck_assert_int_gt(asprintf(&path, "%s/cold.vcl", VND_Dir(v)), 0);
	write_text(path, vcl);
	ck_assert_int_gt(asprintf(&line, "vcl.load c %s cold", path), 0);
	cli_expect(fd, line, 200, NULL);
	free(path);
	free(line);
	/* Rounds of the warm VCL's lookups later: no member yet. */
	(void)VND_WaitCounter(v, "backend_dns_lookups", ">=", 8, HX_T_SLOW);
	(void)snprintf(want, sizeof want, "c.d(127.0.0.1:%d)", port);
	cli_wait_gone(fd, "backend.list c.*", want);
	cli_expect(fd, "vcl.state c warm", 200, NULL);
	cli_wait(fd, "backend.list c.*", want);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A name from the request (here the URL; usually the Host) cannot make
 * a director follow any number of names: past max_names a new one gets
 * 503, counted and logged, and the names it follows still serve.
 */
START_TEST(max_names_bounds_hostile_names)
{
	struct origin *o;
	struct vnd *v;
	char vcl[512];

	o = ORIGIN_New(NULL, NULL);
	(void)snprintf(vcl, sizeof vcl, "sub vcl_init {\n"
	    "\tnew d = dynamic.director(port = \"%d\", max_names = 2);\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = d.backend("
	    "regsub(req.url, \"^/([^/]*).*\", \"\\1\"));\n"
	    "\treturn (pass);\n}\n", ORIGIN_Port(o));
	v = dyn_start(vcl, "127.0.0.1 a.test b.test c.test\n", "");
	ck_assert_uint_eq(fetch(v, "/a.test/1", NULL), 200);
	ck_assert_uint_eq(fetch(v, "/b.test/1", NULL), 200);
	ck_assert_uint_eq(fetch(v, "/c.test/1", NULL), 503);
	ck_assert_uint_eq(fetch(v, "/d.test/1", NULL), 503);
	ck_assert_uint_eq(VND_Counter(v, "dynamic_names_refused"), 2);
	ck_assert_uint_eq(fetch(v, "/a.test/2", NULL), 200);
	ck_assert_uint_eq(fetch(v, "/b.test/2", NULL), 200);
	ck_assert_ptr_null(ORIGIN_FindReq(o, "/c.test/1"));
	ck_assert_uint_eq(ORIGIN_NReq(o), 4);
	VND_Finish(&v, &o);
}
END_TEST

/* .add_dynamic() of anything but a dynamic director: vcl_init fails. */
START_TEST(add_dynamic_refuses_other)
{
	struct origin *o;
	struct vnd *v;
	char *path, *line, vcl[512];
	int fd;

	o = ORIGIN_New(NULL, NULL);
	v = dyn_start("sub vcl_init {\n\tnew d = dynamic.director();\n}\n",
	    "", "");
	fd = cli_login(v);
	(void)snprintf(vcl, sizeof vcl, "vcl 4.1;\nimport directors;\n"
	    "backend b { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub vcl_init {\n\tnew s = directors.shard();\n"
	    "\ts.add_dynamic(b);\n}\n", ORIGIN_Port(o));
	ck_assert_int_gt(asprintf(&path, "%s/bad.vcl", VND_Dir(v)), 0);
	write_text(path, vcl);
	ck_assert_int_gt(asprintf(&line, "vcl.load bad %s", path), 0);
	cli_expect(fd, line, 300, ".add_dynamic() takes a dynamic "
	    "director's .backend() or .service(), not b");
	free(path);
	free(line);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("dynamic");
	TCase *tc = tcase_create("dynamic");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, round_robin_follows_dns);
	tcase_add_test(tc, member_leaves_during_fetch);
	tcase_add_test(tc, unresolvable_503);
	tcase_add_test(tc, srv_priority_failover);
	tcase_add_test(tc, shard_add_dynamic);
	tcase_add_test(tc, add_dynamic_refuses_other);
	tcase_add_test(tc, cold_vcl_not_resolved);
	tcase_add_test(tc, max_names_bounds_hostile_names);
	suite_add_tcase(s, tc);
	return (HX_Run(s));
}

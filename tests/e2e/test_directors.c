/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_directors.c -- issue 15, end to end: `import directors;` with
 * four origins on loopback, each answering with its number (X-Origin).
 * Each director's distribution over many requests, failover when a
 * member is set sick (backend.set_health), nesting, a director with no
 * healthy member (503), members added and removed while requests run,
 * backend.list and std.healthy() on directors, and directors ending
 * with their VCL, saint mode (saintmode.blacklist() and its threshold).
 * Every request passes, so each reaches an origin.
 */

#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"
#include "cli_lib.h"

#define NORIG	4

struct d_test {
	struct origin	*o[NORIG];
	unsigned	idx[NORIG];
	struct vnd	*v;
	struct client	*cl;
	int		fd;		/* the CLI */
};

/* 200, X-Origin: the origin's number. */
static void
d_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	const unsigned *idx = ORIGIN_Priv(oc);
	char hdrs[64];

	(void)req;
	(void)priv;
	(void)snprintf(hdrs, sizeof hdrs, "X-Origin: %u\r\n", *idx);
	(void)ORIGIN_Respond(oc, 200, hdrs, "ok", -1);
}

/*
 * veneerd with backends s0..s3 (our origins), std and directors
 * imported, every request passed, and body after that; CLI logged in.
 */
/* A whole VCL: backends s0..s3 (the origins), the imports, then body. */
static char *
d_vcl(const struct d_test *t, const char *body)
{
	char *vcl, be[NORIG][160];
	unsigned u;

	for (u = 0; u < NORIG; u++)
		(void)snprintf(be[u], sizeof be[u], "backend s%u { .host = "
		    "\"127.0.0.1\"; .port = \"%d\"; }\n", u,
		    ORIGIN_Port(t->o[u]));
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nimport directors;\n"
	    "import std;\n%s%s%s%s%s",
	    be[0], be[1], be[2], be[3], body), 0);
	return (vcl);
}

static void
d_start(struct d_test *t, const char *body)
{
	char *vcl;
	unsigned u;

	memset(t, 0, sizeof *t);
	for (u = 0; u < NORIG; u++) {
		t->idx[u] = u;
		t->o[u] = ORIGIN_New(d_handler, &t->idx[u]);
	}
	vcl = d_vcl(t, body);
	t->v = VND_New();
	cli_args(t->v, 1);
	VND_VclFile(t->v, "d.vcl", vcl);
	free(vcl);
	VND_Param(t->v, "vcc_err_unref", "off");
	VND_Start(t->v);
	t->cl = VND_Connect(t->v);
	t->fd = cli_login(t->v);
}

static void
d_finish(struct d_test *t)
{
	unsigned u;

	(void)close(t->fd);
	CLIENT_Free(&t->cl);
	VND_Free(&t->v);
	for (u = 0; u < NORIG; u++)
		ORIGIN_Free(&t->o[u]);
}

/* The origin that answered url (-1: not a 200 from one of ours). */
static int
d_origin(struct d_test *t, const char *url, struct hx_msg **mp)
{
	struct hx_msg *m;
	const char *x;
	int r = -1;

	m = CLIENT_Fetch(t->cl, "GET", url, NULL, HX_T_RESP);
	x = HX_Header(m, "X-Origin");
	if (m->status == 200 && x != NULL)
		r = atoi(x);
	if (mp != NULL)
		*mp = m;
	else
		HX_MsgFree(&m);
	return (r);
}

/* n requests (URLs /PREFIX/i); counts[k] for origin k, counts[NORIG]: none. */
static void
d_spread(struct d_test *t, const char *prefix, unsigned n,
    unsigned counts[NORIG + 1])
{
	char url[128];
	unsigned i;
	int k;

	memset(counts, 0, (NORIG + 1) * sizeof counts[0]);
	for (i = 0; i < n; i++) {
		(void)snprintf(url, sizeof url, "/%s/%u", prefix, i);
		k = d_origin(t, url, NULL);
		counts[k >= 0 && k < NORIG ? k : NORIG]++;
	}
}

/* |got - want| <= tol, with a message naming the origin. */
static void
d_near(unsigned k, unsigned got, double want, double tol)
{

	ck_assert_msg(got >= want - tol && got <= want + tol,
	    "origin %u: %u fetches, wanted %.0f +- %.0f", k, got, want, tol);
}

#define RR_VCL								\
	"sub vcl_init {\n\tnew rr = directors.round_robin();\n"		\
	"\trr.add_backend(s0);\n\trr.add_backend(s1);\n"		\
	"\trr.add_backend(s2);\n\trr.add_backend(s3);\n}\n"		\
	"sub vcl_recv {\n\tset req.backend_hint = rr.backend();\n"	\
	"\treturn (pass);\n}\n"						\
	"sub vcl_backend_response {\n"					\
	"\tset beresp.http.X-Director = bereq.backend;\n"		\
	"\tset beresp.http.X-Backend = beresp.backend;\n}\n"

/*
 * One client asking one after the other: no two fetches race for the
 * turn, so the rotation is exact (400 fetches: 100 each).  A member set
 * sick is skipped and the others share its turns (300: 100 each).
 */
START_TEST(issue_0015_round_robin_spread_and_failover)
{
	struct d_test t;
	struct hx_msg *m;
	unsigned c[NORIG + 1], u;

	d_start(&t, RR_VCL);
	d_spread(&t, "a", 400, c);
	for (u = 0; u < NORIG; u++)
		ck_assert_uint_eq(c[u], 100);
	ck_assert_uint_eq(c[NORIG], 0);
	/* bereq.backend stays the director; beresp.backend is the pick. */
	(void)d_origin(&t, "/names", &m);
	HX_HeaderIs(m, "X-Director", "rr");
	ck_assert_msg(!strcmp(HX_Header(m, "X-Backend"), "s0"),
	    "X-Backend %s", HX_Header(m, "X-Backend"));
	HX_MsgFree(&m);
	cli_expect(t.fd, "backend.set_health s1 sick", 200, NULL);
	d_spread(&t, "b", 300, c);
	ck_assert_uint_eq(c[1], 0);
	ck_assert_uint_eq(c[0], 100);
	ck_assert_uint_eq(c[2], 100);
	ck_assert_uint_eq(c[3], 100);
	cli_expect(t.fd, "backend.set_health s1 auto", 200, NULL);
	d_spread(&t, "c", 400, c);
	ck_assert_uint_eq(c[1], 100);
	d_finish(&t);
}
END_TEST

/*
 * Weights 1, 1, 2, 4 over 1600 fetches: expected 200, 200, 400, 800.
 * Each count is binomial (sd = sqrt(n p (1 - p)): 13.2, 13.2, 17.3,
 * 20); 6 sd (80) is a chance below 1e-8 per count of a false failure.
 * debug.srandom makes the run repeatable anyway, so the bound guards
 * the weighting, not luck.  With s3 sick, the rest share by 1:1:2.
 */
START_TEST(issue_0015_random_weights_and_failover)
{
	struct d_test t;
	unsigned c[NORIG + 1];

	d_start(&t,
	    "sub vcl_init {\n\tnew rnd = directors.random();\n"
	    "\trnd.add_backend(s0, 1);\n\trnd.add_backend(s1, 1);\n"
	    "\trnd.add_backend(s2, 2);\n\trnd.add_backend(s3, 4);\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = rnd.backend();\n"
	    "\treturn (pass);\n}\n");
	cli_expect(t.fd, "debug.srandom 7", 200, NULL);
	d_spread(&t, "a", 1600, c);
	d_near(0, c[0], 200, 80);
	d_near(1, c[1], 200, 80);
	d_near(2, c[2], 400, 80);
	d_near(3, c[3], 800, 80);
	ck_assert_uint_eq(c[NORIG], 0);
	/* 800 fetches, 1:1:2: 200, 200, 400 (sd 12.2, 12.2, 14.1). */
	cli_expect(t.fd, "backend.set_health s3 sick", 200, NULL);
	d_spread(&t, "b", 800, c);
	ck_assert_uint_eq(c[3], 0);
	d_near(0, c[0], 200, 80);
	d_near(1, c[1], 200, 80);
	d_near(2, c[2], 400, 80);
	d_finish(&t);
}
END_TEST

/*
 * Hash: 1200 distinct URLs over four equal members, 300 each expected
 * (SHA-256 spreads keys as a fair draw would: sd 15; 6 sd = 90).  The
 * same key always lands on the same member; a sick member gets none.
 */
START_TEST(issue_0015_hash_spread_and_stickiness)
{
	struct d_test t;
	unsigned c[NORIG + 1], u;
	char url[64];
	int first[16];

	d_start(&t,
	    "sub vcl_init {\n\tnew h = directors.hash();\n"
	    "\th.add_backend(s0);\n\th.add_backend(s1);\n"
	    "\th.add_backend(s2, 1.0);\n\th.add_backend(s3, weight = 1);\n"
	    "}\nsub vcl_recv {\n"
	    "\tset req.backend_hint = h.backend(req.url);\n"
	    "\treturn (pass);\n}\n");
	d_spread(&t, "a", 1200, c);
	for (u = 0; u < NORIG; u++)
		d_near(u, c[u], 300, 90);
	ck_assert_uint_eq(c[NORIG], 0);
	for (u = 0; u < 16; u++) {
		(void)snprintf(url, sizeof url, "/key/%u", u);
		first[u] = d_origin(&t, url, NULL);
		ck_assert_int_ge(first[u], 0);
	}
	for (u = 0; u < 16; u++) {
		(void)snprintf(url, sizeof url, "/key/%u", u);
		ck_assert_int_eq(d_origin(&t, url, NULL), first[u]);
	}
	cli_expect(t.fd, "backend.set_health s2 sick", 200, NULL);
	d_spread(&t, "a", 400, c);
	ck_assert_uint_eq(c[2], 0);
	ck_assert_uint_eq(c[NORIG], 0);
	d_finish(&t);
}
END_TEST

/*
 * Fallback: the first healthy member in order, back to an earlier one
 * as soon as it is healthy again; sticky keeps the one it moved to.
 */
START_TEST(issue_0015_fallback_and_sticky)
{
	struct d_test t;

	d_start(&t,
	    "sub vcl_init {\n\tnew fb = directors.fallback();\n"
	    "\tfb.add_backend(s0);\n\tfb.add_backend(s1);\n"
	    "\tnew st = directors.fallback(sticky = true);\n"
	    "\tst.add_backend(s0);\n\tst.add_backend(s1);\n}\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url ~ \"^/sticky\") {\n"
	    "\t\tset req.backend_hint = st.backend();\n"
	    "\t} else {\n\t\tset req.backend_hint = fb.backend();\n\t}\n"
	    "\treturn (pass);\n}\n");
	ck_assert_int_eq(d_origin(&t, "/1", NULL), 0);
	ck_assert_int_eq(d_origin(&t, "/2", NULL), 0);
	ck_assert_int_eq(d_origin(&t, "/sticky/1", NULL), 0);
	cli_expect(t.fd, "backend.set_health s0 sick", 200, NULL);
	ck_assert_int_eq(d_origin(&t, "/3", NULL), 1);
	ck_assert_int_eq(d_origin(&t, "/sticky/2", NULL), 1);
	cli_expect(t.fd, "backend.set_health s0 auto", 200, NULL);
	ck_assert_int_eq(d_origin(&t, "/4", NULL), 0);
	ck_assert_int_eq(d_origin(&t, "/sticky/3", NULL), 1);
	d_finish(&t);
}
END_TEST

/*
 * A fallback of two round-robins: the first pair alternates; both of it
 * sick, the second pair does; all sick, the director is sick
 * (std.healthy, backend.list) and fetches get 503 through
 * vcl_backend_error.
 */
START_TEST(issue_0015_nested_and_none_healthy)
{
	struct d_test t;
	struct hx_msg *m;
	char *body;

	d_start(&t,
	    "sub vcl_init {\n"
	    "\tnew a = directors.round_robin();\n"
	    "\ta.add_backend(s0);\n\ta.add_backend(s1);\n"
	    "\tnew b = directors.round_robin();\n"
	    "\tb.add_backend(s2);\n\tb.add_backend(s3);\n"
	    "\tnew fb = directors.fallback();\n"
	    "\tfb.add_backend(a.backend());\n"
	    "\tfb.add_backend(b.backend());\n}\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/health\") {\n"
	    "\t\treturn (synth(200, std.healthy(fb.backend()) + \"/\" +\n"
	    "\t\t    std.healthy(a.backend())));\n\t}\n"
	    "\tset req.backend_hint = fb.backend();\n"
	    "\treturn (pass);\n}\n"
	    "sub vcl_backend_error {\n"
	    "\tset beresp.http.X-Director = bereq.backend;\n}\n");
	ck_assert_int_eq(d_origin(&t, "/1", NULL), 0);
	ck_assert_int_eq(d_origin(&t, "/2", NULL), 1);
	ck_assert_int_eq(d_origin(&t, "/3", NULL), 0);
	cli_expect(t.fd, "backend.set_health s0 sick", 200, NULL);
	cli_expect(t.fd, "backend.set_health s1 sick", 200, NULL);
	ck_assert_int_eq(d_origin(&t, "/4", NULL), 2);
	ck_assert_int_eq(d_origin(&t, "/5", NULL), 3);
	m = CLIENT_Fetch(t.cl, "GET", "/health", NULL, HX_T_RESP);
	ck_assert_str_eq(m->reason, "true/false");
	HX_MsgFree(&m);
	cli_expect(t.fd, "backend.list", 200, "boot.a ");
	(void)cli_ask(t.fd, "backend.list boot.a", &body);
	ck_assert_msg(strstr(body, "0/2") != NULL && strstr(body, "sick"),
	    "%s", body);
	free(body);
	cli_expect(t.fd, "backend.set_health s2 sick", 200, NULL);
	cli_expect(t.fd, "backend.set_health s3 sick", 200, NULL);
	m = CLIENT_Fetch(t.cl, "GET", "/6", NULL, HX_T_RESP);
	ck_assert_int_eq(m->status, 503);
	HX_HeaderIs(m, "X-Director", "fb");
	HX_MsgFree(&m);
	m = CLIENT_Fetch(t.cl, "GET", "/health", NULL, HX_T_RESP);
	ck_assert_str_eq(m->reason, "false/false");
	HX_MsgFree(&m);
	cli_expect(t.fd, "backend.list -j boot.fb", 200,
	    "\"type\": \"fallback\"");
	cli_expect(t.fd, "backend.list -j boot.fb", 200,
	    "\"probe_message\": [0, 2, \"sick\"]");
	cli_expect(t.fd, "backend.set_health s3 auto", 200, NULL);
	ck_assert_int_eq(d_origin(&t, "/7", NULL), 3);
	d_finish(&t);
}
END_TEST

/* Two clients fetch through rr while a third adds and removes s3. */
struct d_churn {
	struct d_test	*t;
	unsigned	n;
	unsigned	bad;
	unsigned	changes;
};

static void *
d_churn_fetch(void *priv)
{
	struct d_churn *dc = priv;
	struct client *cl;
	struct hx_msg *m;
	unsigned i;

	cl = VND_Connect(dc->t->v);
	for (i = 0; i < dc->n; i++) {
		m = CLIENT_Fetch(cl, "GET", "/x", NULL, HX_T_RESP);
		if (m->status != 200)
			__atomic_add_fetch(&dc->bad, 1, __ATOMIC_RELAXED);
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	return (NULL);
}

static void *
d_churn_change(void *priv)
{
	struct d_churn *dc = priv;
	struct client *cl;
	struct hx_msg *m;
	unsigned i;

	cl = VND_Connect(dc->t->v);
	for (i = 0; i < dc->n; i++) {
		m = CLIENT_Fetch(cl, "GET", i % 2 ? "/add" : "/remove", NULL,
		    HX_T_RESP);
		if (m->status == 204)
			dc->changes++;
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	return (NULL);
}

START_TEST(issue_0015_add_remove_while_resolving)
{
	struct d_test t;
	struct d_churn dc;
	pthread_t th[3];
	unsigned c[NORIG + 1], u;

	d_start(&t, "sub vcl_init {\n\tnew rr = directors.round_robin();\n"
	    "\trr.add_backend(s0);\n\trr.add_backend(s1);\n"
	    "\trr.add_backend(s2);\n\trr.add_backend(s3);\n}\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/remove\") {\n"
	    "\t\trr.remove_backend(s3);\n\t\treturn (synth(204));\n\t}\n"
	    "\tif (req.url == \"/add\") {\n"
	    "\t\trr.add_backend(s3);\n\t\treturn (synth(204));\n\t}\n"
	    "\tset req.backend_hint = rr.backend();\n"
	    "\treturn (pass);\n}\n");
	memset(&dc, 0, sizeof dc);
	dc.t = &t;
	dc.n = 300;
	ck_assert_int_eq(pthread_create(&th[0], NULL, d_churn_fetch, &dc), 0);
	ck_assert_int_eq(pthread_create(&th[1], NULL, d_churn_fetch, &dc), 0);
	ck_assert_int_eq(pthread_create(&th[2], NULL, d_churn_change, &dc),
	    0);
	for (u = 0; u < 3; u++)
		ck_assert_int_eq(pthread_join(th[u], NULL), 0);
	ck_assert_uint_eq(dc.bad, 0);
	ck_assert_uint_eq(dc.changes, 300);
	/* The last change was an add: s3 is in once more, 4 members. */
	d_spread(&t, "a", 400, c);
	for (u = 0; u < NORIG; u++)
		ck_assert_uint_eq(c[u], 100);
	d_finish(&t);
}
END_TEST

/* A director ends with its VCL: backend.list forgets it on discard. */
START_TEST(issue_0015_director_dies_with_vcl)
{
	struct d_test t;
	char *cmd, *body;

	d_start(&t, RR_VCL);
	cli_expect(t.fd, "backend.list boot.*", 200, "boot.rr ");
	ck_assert_int_gt(asprintf(&cmd, "vcl.load two %s/d.vcl",
	    VND_Dir(t.v)), 0);
	cli_expect(t.fd, cmd, 200, NULL);
	free(cmd);
	cli_expect(t.fd, "vcl.use two", 200, NULL);
	cli_expect(t.fd, "backend.list two.*", 200, "two.rr ");
	ck_assert_int_eq(d_origin(&t, "/1", NULL), 0);
	cli_expect(t.fd, "vcl.discard boot", 200, NULL);
	(void)cli_ask(t.fd, "backend.list *.*", &body);
	ck_assert_msg(strstr(body, "boot.rr") == NULL &&
	    strstr(body, "two.rr") != NULL, "%s", body);
	free(body);
	ck_assert_int_eq(d_origin(&t, "/2", NULL), 1);
	d_finish(&t);
}
END_TEST

/*
 * return (retry) in vcl_backend_response asks the director again: the
 * round-robin's next member answers.  Retries end at max_retries, with
 * a 503.
 */
START_TEST(issue_0015_retry_goes_to_next_member)
{
	struct d_test t;
	struct hx_msg *m;
	unsigned c[NORIG + 1];

	d_start(&t,
	    "sub vcl_init {\n\tnew rr = directors.round_robin();\n"
	    "\trr.add_backend(s0);\n\trr.add_backend(s1);\n"
	    "\trr.add_backend(s2);\n\trr.add_backend(s3);\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = rr.backend();\n"
	    "\treturn (pass);\n}\n"
	    "sub vcl_backend_response {\n"
	    "\tset beresp.http.X-Retries = bereq.retries;\n"
	    "\tif (bereq.url == \"/always\" ||\n"
	    "\t    (beresp.http.X-Origin == \"0\" && bereq.retries == 0)) {\n"
	    "\t\treturn (retry);\n\t}\n}\n");
	ck_assert_int_eq(d_origin(&t, "/first", &m), 1);
	HX_HeaderIs(m, "X-Retries", "1");
	HX_MsgFree(&m);
	/* Each origin once more: 2, 3, then 0 retried to 1. */
	d_spread(&t, "more", 3, c);
	ck_assert_uint_eq(c[2], 1);
	ck_assert_uint_eq(c[3], 1);
	ck_assert_uint_eq(c[1], 1);
	ck_assert_uint_eq(c[0], 0);
	/* max_retries (4): five fetches, then vcl_backend_error's 503. */
	cli_expect(t.fd, "param.set max_retries 4", 200, NULL);
	m = CLIENT_Fetch(t.cl, "GET", "/always", NULL, HX_T_SLOW);
	ck_assert_int_eq(m->status, 503);
	HX_MsgFree(&m);
	d_finish(&t);
}
END_TEST

/*
 * Saint mode: origin 0 (A) answers 500 for /x and /bad/... while
 * sm_a_fails; each 500 is blacklisted on A and retried, and the
 * fallback of two saintmode directors sends the retry to origin 1 (B).
 */
static int sm_a_fails = 1;	/* atomic: the origin's thread reads it */

static void
sm_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	const unsigned *idx = ORIGIN_Priv(oc);
	char hdrs[64];
	int st = 200;

	(void)priv;
	if (*idx == 0 && __atomic_load_n(&sm_a_fails, __ATOMIC_SEQ_CST) &&
	    (!strcmp(req->url, "/x") || !strncmp(req->url, "/bad/", 5)))
		st = 500;
	(void)snprintf(hdrs, sizeof hdrs, "X-Origin: %u\r\n", *idx);
	(void)ORIGIN_Respond(oc, st, hdrs, "ok", -1);
}

/* The origin that answered url; *retries its bereq.retries. */
static int
sm_origin(struct d_test *t, const char *url, int *retries)
{
	struct hx_msg *m;
	const char *x;
	int r;

	r = d_origin(t, url, &m);
	x = HX_Header(m, "X-Retries");
	ck_assert_ptr_nonnull(x);
	*retries = atoi(x);
	HX_MsgFree(&m);
	return (r);
}

START_TEST(issue_0015_saintmode_blacklist_and_threshold)
{
	struct d_test t;
	struct hx_msg *m;
	char url[32];
	int n, retries;
	char *vcl;

	memset(&t, 0, sizeof t);
	for (n = 0; n < NORIG; n++) {
		t.idx[n] = n;
		t.o[n] = ORIGIN_New(sm_handler, &t.idx[n]);
	}
	vcl = d_vcl(&t, "import saintmode;\n"
	    "sub vcl_init {\n"
	    "\tnew sa = saintmode.saintmode(s0, 2);\n"
	    "\tnew sb = saintmode.saintmode(s1, 2);\n"
	    "\tnew fb = directors.fallback();\n"
	    "\tfb.add_backend(sa.backend());\n"
	    "\tfb.add_backend(sb.backend());\n}\n"
	    "sub vcl_recv {\n"
	    "\tif (req.url == \"/status\") {\n\t\treturn (synth(200));\n\t}\n"
	    "\tset req.backend_hint = fb.backend();\n"
	    "\treturn (pass);\n}\n"
	    "sub vcl_backend_response {\n"
	    "\tif (beresp.status == 500 && bereq.retries == 0) {\n"
	    "\t\tif (bereq.url ~ \"^/bad\") {\n"
	    "\t\t\tsaintmode.blacklist(60s);\n"
	    "\t\t} else {\n"
	    "\t\t\tsaintmode.blacklist(4s);\n\t\t}\n"
	    "\t\treturn (retry);\n\t}\n"
	    "\tset beresp.http.X-Retries = bereq.retries;\n"
	    "\tset beresp.http.X-Count = sa.blacklist_count();\n}\n"
	    "sub vcl_synth {\n"
	    "\tset resp.http.X-Status = saintmode.status();\n}\n");
	t.v = VND_New();
	cli_args(t.v, 1);
	VND_VclFile(t.v, "d.vcl", vcl);
	free(vcl);
	VND_Param(t.v, "vcc_err_unref", "off");
	VND_Start(t.v);
	t.cl = VND_Connect(t.v);
	t.fd = cli_login(t.v);

	/* A fails /x: blacklisted there, the retry goes to B. */
	ck_assert_int_eq(sm_origin(&t, "/x", &retries), 1);
	ck_assert_int_eq(retries, 1);
	/* While blacklisted, /x goes straight to B; other URLs to A. */
	ck_assert_int_eq(sm_origin(&t, "/x", &retries), 1);
	ck_assert_int_eq(retries, 0);
	ck_assert_int_eq(d_origin(&t, "/y", &m), 0);
	HX_HeaderIs(m, "X-Count", "1");
	HX_MsgFree(&m);
	/* A recovers; once the blacklist expires it gets /x again. */
	__atomic_store_n(&sm_a_fails, 0, __ATOMIC_SEQ_CST);
	(void)sleep(5);
	/* timeout_idle (5 s) may have closed the client's connection. */
	CLIENT_Free(&t.cl);
	t.cl = VND_Connect(t.v);
	ck_assert_int_eq(sm_origin(&t, "/x", &retries), 0);
	ck_assert_int_eq(retries, 0);
	__atomic_store_n(&sm_a_fails, 1, __ATOMIC_SEQ_CST);

	/* Up to threshold (2) objects blacklisted: A still serves others. */
	for (n = 1; n <= 3; n++) {
		(void)snprintf(url, sizeof url, "/bad/%d", n);
		ck_assert_int_eq(sm_origin(&t, url, &retries), 1);
		ck_assert_int_eq(retries, 1);
		(void)snprintf(url, sizeof url, "/ok/%d", n);
		/* More than threshold: A is sick for every URL. */
		ck_assert_int_eq(d_origin(&t, url, NULL), n <= 2 ? 0 : 1);
	}
	m = CLIENT_Fetch(t.cl, "GET", "/status", NULL, HX_T_RESP);
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-Status", "{\"saintmode\": ["
	    "{\"name\": \"sa\", \"backend\": \"s0\", \"count\": 3, "
	    "\"threshold\": 2}, "
	    "{\"name\": \"sb\", \"backend\": \"s1\", \"count\": 0, "
	    "\"threshold\": 2}]}");
	HX_MsgFree(&m);
	/* backend.list shows the saintmode director sick. */
	cli_expect(t.fd, "backend.list boot.sa", 200, "sick");
	d_finish(&t);
}
END_TEST

/* A shard director over the first n origins, picking by URL. */
static char *
d_shard_body(unsigned n)
{
	char *b, *p;
	unsigned u;

	ck_assert_int_gt(asprintf(&b, "sub vcl_init {\n"
	    "\tnew sh = directors.shard();\n"), 0);
	for (u = 0; u < n; u++) {
		ck_assert_int_gt(asprintf(&p, "%s\tsh.add_backend(s%u);\n",
		    b, u), 0);
		free(b);
		b = p;
	}
	ck_assert_int_gt(asprintf(&p, "%s\tsh.reconfigure();\n}\n"
	    "sub vcl_recv {\n\tset req.backend_hint = sh.backend(by=URL);\n"
	    "\treturn (pass);\n}\n", b), 0);
	free(b);
	return (p);
}

#define SHARD_KEYS	1000

/* The origin each of the keys /k/0.. goes to now. */
static void
d_shard_map(struct d_test *t, int map[SHARD_KEYS])
{
	char url[64];
	unsigned i;

	for (i = 0; i < SHARD_KEYS; i++) {
		(void)snprintf(url, sizeof url, "/k/%u", i);
		map[i] = d_origin(t, url, NULL);
		ck_assert_int_ge(map[i], 0);
	}
}

/*
 * Shard: consistent hashing.  The same key always goes to the same
 * backend.  A fourth backend added to three takes keys only for
 * itself, and about a quarter of them: with 67 points per backend on
 * the ring a backend's share has a relative spread of about 1/sqrt(67),
 * some 3 points of 25%, and the keys are fixed, so the count does not
 * vary between runs either; 15% to 35% is more than 3 spreads either
 * way.  A sick backend's keys go elsewhere; every other key stays.
 */
START_TEST(issue_0015_shard_consistent)
{
	static int map3[SHARD_KEYS], map4[SHARD_KEYS], again[SHARD_KEYS];
	static int sick[SHARD_KEYS];
	struct d_test t;
	char *body, *vcl, *cmd;
	unsigned i, moved = 0, on1 = 0;

	body = d_shard_body(3);
	d_start(&t, body);
	free(body);
	d_shard_map(&t, map3);
	d_shard_map(&t, again);
	for (i = 0; i < SHARD_KEYS; i++) {
		ck_assert_int_eq(again[i], map3[i]);
		ck_assert_int_lt(map3[i], 3);
	}

	body = d_shard_body(4);
	vcl = d_vcl(&t, body);
	free(body);
	ck_assert_int_gt(asprintf(&cmd, "vcl.inline four << EOF\n%sEOF",
	    vcl), 0);
	free(vcl);
	cli_expect(t.fd, cmd, 200, NULL);
	free(cmd);
	cli_expect(t.fd, "vcl.use four", 200, NULL);
	d_shard_map(&t, map4);
	for (i = 0; i < SHARD_KEYS; i++) {
		if (map4[i] == map3[i])
			continue;
		ck_assert_msg(map4[i] == 3, "key %u moved from s%d to s%d, "
		    "not to the new backend", i, map3[i], map4[i]);
		moved++;
	}
	HX_Log("shard: %u of %u keys moved to the added backend", moved,
	    SHARD_KEYS);
	ck_assert_msg(moved >= SHARD_KEYS * 15 / 100 &&
	    moved <= SHARD_KEYS * 35 / 100, "%u of %u keys moved to the "
	    "new backend", moved, SHARD_KEYS);

	cli_expect(t.fd, "backend.set_health four.s1 sick", 200, NULL);
	d_shard_map(&t, sick);
	for (i = 0; i < SHARD_KEYS; i++) {
		ck_assert_int_ne(sick[i], 1);
		if (map4[i] == 1)
			on1++;
		else
			ck_assert_int_eq(sick[i], map4[i]);
	}
	ck_assert_uint_gt(on1, 0);
	d_finish(&t);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("directors");
	TCase *tc = tcase_create("directors");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0015_round_robin_spread_and_failover);
	tcase_add_test(tc, issue_0015_random_weights_and_failover);
	tcase_add_test(tc, issue_0015_hash_spread_and_stickiness);
	tcase_add_test(tc, issue_0015_fallback_and_sticky);
	tcase_add_test(tc, issue_0015_nested_and_none_healthy);
	tcase_add_test(tc, issue_0015_add_remove_while_resolving);
	tcase_add_test(tc, issue_0015_director_dies_with_vcl);
	tcase_add_test(tc, issue_0015_shard_consistent);
	tcase_add_test(tc, issue_0015_retry_goes_to_next_member);
	tcase_add_test(tc, issue_0015_saintmode_blacklist_and_threshold);
	suite_add_tcase(s, tc);
	return (HX_Run(s));
}

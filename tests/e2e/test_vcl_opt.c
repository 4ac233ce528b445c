/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcl_opt.c -- issue #13, end to end: the optimising compiler
 * (-p vcc_optimize, on by default) changes what the VCL costs, never what
 * it does.  First the cases where a remembered value must be forgotten
 * (a set, an unset, a called sub that sets, a module procedure, the
 * req/req_top alias), each with the answer written out; then a property
 * test: random rule sets, each run by two veneerds, one optimising and
 * one not, on the same random requests, must give the same answers.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"

static void
o_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)req;
	(void)priv;
	(void)ORIGIN_Respond(oc, 200, "Cache-Control: max-age=100\r\n", "o",
	    -1);
}

/* vcl_synth shows what vcl_recv left in the request. */
#define SHOW								\
	"sub vcl_synth {\n"						\
	"\tset resp.http.X-T = req.http.X-T;\n"				\
	"\tset resp.http.X-Url = req.url;\n"				\
	"\tset resp.http.X-Host = req.http.host;\n"			\
	"\tset resp.http.X-A = req.http.X-A;\n"				\
	"\tset resp.http.X-Ua = req.http.User-Agent;\n"			\
	"\treturn (deliver);\n"						\
	"}\n"

static struct vnd *
start(struct origin *o, const char *vcl, int optimize)
{
	struct vnd *v;
	char *text;

	v = VND_New();
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nimport std;\n"
	    "backend default { .host = \"127.0.0.1\"; .port = \"%d\"; }\n%s",
	    ORIGIN_Port(o), vcl), 0);
	VND_VclFile(v, "t.vcl", text);
	free(text);
	VND_Param(v, "vcc_err_unref", "off");
	VND_Param(v, "vcc_optimize", optimize ? "on" : "off");
	VND_Start(v);
	return (v);
}

static struct hx_msg *
get(struct client *cl, const char *url, const char *hdrs)
{
	struct hx_msg *m;

	m = CLIENT_Fetch(cl, "GET", url, hdrs, HX_T_RESP);
	ck_assert_ptr_nonnull(m);
	return (m);
}

/*
 * Each remembered value is forgotten when its subject changes: the
 * second test of each pair sees the new value.
 */
static const char forget_vcl[] =
    "sub set_host { set req.http.host = \"sub.example\"; }\n"
    "sub vcl_recv {\n"
    /* A set of the tested header between two tests of it. */
    "\tif (req.http.host == \"a.example\") { set req.http.host = "
    "\"b.example\"; }\n"
    "\tif (req.http.host == \"b.example\") { set req.http.X-T = "
    "req.http.X-T + \"set;\"; }\n"
    /* The header changed by a called sub. */
    "\tif (req.http.host == \"b.example\") { call set_host; }\n"
    "\tif (req.http.host == \"sub.example\") { set req.http.X-T = "
    "req.http.X-T + \"sub;\"; }\n"
    /* A regex answer forgotten when its subject is set. */
    "\tif (req.url ~ \"^/old\") { set req.url = \"/new\"; }\n"
    "\tif (req.url ~ \"^/old\") { set req.http.X-T = req.http.X-T + "
    "\"stale;\"; }\n"
    "\tif (req.url ~ \"^/new\") { set req.http.X-T = req.http.X-T + "
    "\"url;\"; }\n"
    /* unset forgets too. */
    "\tif (req.http.X-A == \"1\") { unset req.http.X-A; }\n"
    "\tif (req.http.X-A == \"1\") { set req.http.X-T = req.http.X-T + "
    "\"stale-a;\"; }\n"
    "\tif (!req.http.X-A) { set req.http.X-T = req.http.X-T + "
    "\"unset;\"; }\n"
    /* A module procedure: std.collect joins the two X-B. */
    "\tif (req.http.X-B == \"p\") { std.collect(req.http.X-B); }\n"
    "\tif (req.http.X-B == \"p, q\") { set req.http.X-T = "
    "req.http.X-T + \"collect;\"; }\n"
    /* req and req_top are one request here. */
    "\tif (req_top.http.X-C == \"1\") { set req.http.X-C = \"2\"; }\n"
    "\tif (req_top.http.X-C == \"2\") { set req.http.X-T = "
    "req.http.X-T + \"top;\"; }\n"
    /* A regsub whose pattern the same subject was tested with. */
    "\tif (req.url ~ \"^/n\") { set req.http.X-T = req.http.X-T + "
    "\"n;\"; }\n"
    "\tset req.url = regsub(req.url, \"^/n\", \"/N\");\n"
    "\tif (req.url ~ \"^/n\") { set req.http.X-T = req.http.X-T + "
    "\"stale-n;\"; }\n"
    "\treturn (synth(200));\n"
    "}\n" SHOW;

static void
forget_check(struct vnd *v)
{
	struct client *cl;
	struct hx_msg *m;

	cl = VND_Connect(v);
	m = get(cl, "/old/x", "Host: a.example\r\nX-A: 1\r\nX-B: p\r\n"
	    "X-B: q\r\nX-C: 1\r\n");
	ck_assert_int_eq(m->status, 200);
	HX_HeaderIs(m, "X-T", "set;sub;url;unset;collect;top;n;");
	HX_HeaderIs(m, "X-Url", "/New");
	HX_HeaderIs(m, "X-Host", "sub.example");
	HX_MsgFree(&m);
	/* And nothing carries over to the next request. */
	m = get(cl, "/x", "Host: c.example\r\n");
	HX_HeaderIs(m, "X-T", "unset;");
	HX_HeaderIs(m, "X-Url", "/x");
	HX_MsgFree(&m);
	CLIENT_Free(&cl);
}

START_TEST(issue_0013_memos_forget_on_change)
{
	struct origin *o;
	struct vnd *v;

	o = ORIGIN_New(o_handler, NULL);
	v = start(o, forget_vcl, 1);
	forget_check(v);
	VND_Stop(v);
	VND_Free(&v);
	/* The plain compilation gives the same answers. */
	v = start(o, forget_vcl, 0);
	forget_check(v);
	VND_Stop(v);
	VND_Free(&v);
	ORIGIN_Free(&o);
}
END_TEST

/*
 * A run of host tests: the hash lookup finds each constant; a value
 * differing only in case matches none (X-H; Host itself is lowercased
 * where it is received), nor does a prefix or an extension of one.
 */
START_TEST(issue_0013_host_dispatch)
{
	static const char vcl[] =
	    "sub vcl_recv {\n"
	    "\tif (req.http.host == \"a.example\") { set req.http.X-T = "
	    "\"a\"; }\n"
	    "\telsif (req.http.host == \"b.example\") { set req.http.X-T = "
	    "\"b\"; }\n"
	    "\telsif (\"c.example\" == req.http.host && req.url ~ \"^/c\") {"
	    " set req.http.X-T = \"c\"; }\n"
	    "\telsif (req.http.host == \"c.example\") { set req.http.X-T = "
	    "\"c-other\"; }\n"
	    "\telsif (req.http.host == \"\") { set req.http.X-T = "
	    "\"empty\"; }\n"
	    "\telse { set req.http.X-T = \"none\"; }\n"
	    "\tif (req.http.host != \"a.example\") { set req.http.X-T = "
	    "req.http.X-T + \",not-a\"; }\n"
	    "\tif (req.http.X-H == \"x\") { set req.http.X-T = req.http.X-T"
	    " + \",x\"; }\n"
	    "\tif (req.http.X-H == \"y\") { set req.http.X-T = req.http.X-T"
	    " + \",y\"; }\n"
	    "\tif (req.http.X-H != \"y\") { set req.http.X-T = req.http.X-T"
	    " + \",not-y\"; }\n"
	    "\treturn (synth(200));\n"
	    "}\n" SHOW;
	static const struct {
		const char *url, *hdrs, *want;
	} c[] = {
		{ "/", "Host: a.example\r\n", "a,not-y" },
		{ "/", "Host: b.example\r\nX-H: x\r\n", "b,not-a,x,not-y" },
		{ "/c1", "Host: c.example\r\nX-H: y\r\n", "c,not-a,y" },
		{ "/d", "Host: c.example\r\n", "c-other,not-a,not-y" },
		{ "/", "Host: A.example\r\n", "a,not-y" },
		{ "/", "Host: a.exampl\r\n", "none,not-a,not-y" },
		{ "/", "Host: a.example.\r\n", "none,not-a,not-y" },
		{ "/", "Host: \r\nX-H: X\r\n", "empty,not-a,not-y" },
		{ "/", "Host: b.example\r\nX-H: Y\r\n", "b,not-a,not-y" },
		{ "/", "Host: b.example\r\nX-H: y \r\n", "b,not-a,y" },
	};
	struct origin *o;
	struct vnd *v;
	struct client *cl;
	struct hx_msg *m;
	unsigned u, opt;

	o = ORIGIN_New(o_handler, NULL);
	for (opt = 0; opt < 2; opt++) {
		v = start(o, vcl, (int)opt);
		cl = VND_Connect(v);
		for (u = 0; u < sizeof c / sizeof c[0]; u++) {
			m = get(cl, c[u].url, c[u].hdrs);
			ck_assert_int_eq(m->status, 200);
			HX_HeaderIs(m, "X-T", c[u].want);
			HX_MsgFree(&m);
		}
		CLIENT_Free(&cl);
		VND_Stop(v);
		VND_Free(&v);
	}
	ORIGIN_Free(&o);
}
END_TEST

/* Random rule sets ------------------------------------------------------*/

static unsigned long long rng_state;

static unsigned
rnd(unsigned n)
{

	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((unsigned)(rng_state >> 33) % n);
}

static const char * const hosts[] = {
	"a.example", "b.example", "c.example", "A.example", "www.a.example",
	"a.example.com", "",
};
#define NHOSTS	(sizeof hosts / sizeof hosts[0])
static const char * const urls[] = {
	"/", "/x", "/x?utm_source=1&a=2", "/a/b.jpg", "/static/x.css",
	"/X", "/p?ref=abc&utm_medium=2", "/old/page", "/new/x", "/ab",
	"/abc?x=y", "/iPhone",
};
#define NURLS	(sizeof urls / sizeof urls[0])
static const char * const uas[] = {
	"Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X)",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) Gecko/20100101",
	"SAGEM-myX5-2/1.0", "Mozilla/5.0 (Linux; Android 13; SM-S901B)",
	"samsung", "Opera/9.80 (J2ME/MIDP; Opera Mini/4.2)",
};
#define NUAS	(sizeof uas / sizeof uas[0])
static const char * const pats[] = {
	"^/x", "utm_", "(iPhone|Android|SAGEM|Sagem)", "(?i)(iphone|android)",
	"\\.(jpg|css)$", ".*static.*", "^/(old|new)/", "x$", "(a|ab|abc)",
	"^(/ab|/abc)$", "Opera Mini|J2ME", "&utm_[^&]+", "(?i)SAMSUNG",
};
#define NPATS	(sizeof pats / sizeof pats[0])
static const char * const fields[] = {
	"req.http.host", "req.url", "req.http.User-Agent", "req.http.X-A",
	"req.method",
};

/* A tiny growable string for the generator. */
struct vsb_lite {
	char	*s;
	size_t	len, cap;
};

static void
bcat(struct vsb_lite *b, const char *fmt, ...) HX_PRINTFLIKE(2, 3);

static void
bcat(struct vsb_lite *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s == NULL ? NULL : b->s + b->len,
		    b->s == NULL ? 0 : b->cap - b->len, fmt, ap);
		va_end(ap);
		ck_assert_int_ge(n, 0);
		if (b->s != NULL && b->len + (size_t)n < b->cap)
			break;
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		ck_assert_ptr_nonnull(b->s);
	}
	b->len += (size_t)n;
}

static void
gen_atom(struct vsb_lite *b)
{
	const char *f;

	switch (rnd(9)) {
	case 0:
	case 1:
		bcat(b, "req.http.host %s \"%s\"", rnd(4) ? "==" : "!=",
		    hosts[rnd(NHOSTS)]);
		break;
	case 8:
		/* Constants the compiler folds. */
		switch (rnd(4)) {
		case 0:
			bcat(b, "\"a.\" + \"example\" == req.http.host");
			break;
		case 1:
			bcat(b, "%u * 3 - 1 > 7", rnd(5));
			break;
		case 2:
			bcat(b, "\"/x%s\" ~ \"%s\"", rnd(2) ? "y" : "",
			    pats[rnd(NPATS)]);
			break;
		default:
			bcat(b, "(%s && req.http.X-A)", rnd(2) ? "true" :
			    "false");
			break;
		}
		break;
	case 2:
		bcat(b, "\"%s\" == req.http.host", hosts[rnd(NHOSTS)]);
		break;
	case 3:
	case 4:
		f = rnd(2) ? "req.url" : "req.http.User-Agent";
		bcat(b, "%s %s \"%s\"", f, rnd(4) ? "~" : "!~",
		    pats[rnd(NPATS)]);
		break;
	case 5:
		bcat(b, "req.http.X-A == \"%u\"", rnd(3));
		break;
	case 6:
		bcat(b, "%s", fields[rnd(4)]);
		break;
	default:
		bcat(b, "req.method == \"%s\"", rnd(2) ? "GET" : "POST");
		break;
	}
}

static void
gen_cond(struct vsb_lite *b, unsigned depth)
{

	if (depth > 0 && rnd(3) == 0) {
		bcat(b, "(");
		gen_cond(b, depth - 1);
		bcat(b, " %s ", rnd(3) ? "&&" : "||");
		gen_cond(b, depth - 1);
		bcat(b, ")");
		return;
	}
	if (rnd(8) == 0)
		bcat(b, "!");
	gen_atom(b);
}

static void
gen_action(struct vsb_lite *b, unsigned id, int calls)
{

	switch (rnd(calls ? 11 : 9)) {
	case 0:
	case 1:
		bcat(b, "set req.url = %s(req.url, \"%s\", \"%s\");",
		    rnd(2) ? "regsub" : "regsuball", pats[rnd(NPATS)],
		    rnd(2) ? "" : "/R");
		break;
	case 2:
		bcat(b, "set req.http.host = \"%s\";", hosts[rnd(NHOSTS)]);
		break;
	case 3:
		bcat(b, "set req.http.X-A = \"%u\";", rnd(3));
		break;
	case 4:
		bcat(b, "unset req.http.X-A;");
		break;
	case 5:
		bcat(b, "set req.http.User-Agent = \"%s\";", uas[rnd(NUAS)]);
		break;
	case 6:
		bcat(b, "std.collect(req.http.X-A);");
		break;
	case 7:
		bcat(b, "set req.http.X-A = req.http.host + req.url;");
		break;
	case 8:
		bcat(b, "set req.http.X-A = \"p\" + \"q\" + req.url + \"r\" + "
		    "\"s\";");
		break;
	case 9:
		bcat(b, "call s%u;", rnd(3));
		break;
	default:
		break;
	}
	bcat(b, " set req.http.X-T = req.http.X-T + \"%u;\";", id);
}

static void
gen_if(struct vsb_lite *b, unsigned *id, int calls)
{
	unsigned n, u;

	bcat(b, "\tif (");
	gen_cond(b, 2);
	bcat(b, ") { ");
	gen_action(b, (*id)++, calls);
	bcat(b, " }");
	n = rnd(3);
	for (u = 0; u < n; u++) {
		bcat(b, " elsif (");
		gen_cond(b, 1);
		bcat(b, ") { ");
		gen_action(b, (*id)++, calls);
		bcat(b, " }");
	}
	if (rnd(3) == 0) {
		bcat(b, " else { ");
		gen_action(b, (*id)++, calls);
		bcat(b, " }");
	}
	bcat(b, "\n");
}

static char *
gen_vcl(void)
{
	struct vsb_lite b = { NULL, 0, 0 };
	unsigned u, n, id = 0;

	bcat(&b, "%s", "");
	for (u = 0; u < 3; u++) {
		bcat(&b, "sub s%u {\n", u);
		n = 1 + rnd(3);
		while (n-- > 0)
			gen_if(&b, &id, 0);
		bcat(&b, "}\n");
	}
	bcat(&b, "sub vcl_recv {\n");
	n = 10 + rnd(25);	/* past 20 statements: chunked subs */
	while (n-- > 0) {
		if (rnd(6) == 0) {
			bcat(&b, "\t");
			gen_action(&b, id++, 1);
			bcat(&b, "\n");
		} else
			gen_if(&b, &id, 1);
	}
	bcat(&b, "\treturn (synth(200));\n}\n" SHOW);
	return (b.s);
}

static char *
gen_req(void)
{
	struct vsb_lite b = { NULL, 0, 0 };

	bcat(&b, "Host: %s\r\n", hosts[rnd(NHOSTS)]);
	if (rnd(4))
		bcat(&b, "User-Agent: %s\r\n", uas[rnd(NUAS)]);
	if (rnd(2))
		bcat(&b, "X-A: %u\r\n", rnd(3));
	if (rnd(4) == 0)
		bcat(&b, "X-A: %u\r\n", rnd(3));
	return (b.s);
}

/* Status and the shown headers, as one line to compare. */
static char *
outcome(struct hx_msg *m)
{
	static const char * const shown[] = {
		"X-T", "X-Url", "X-Host", "X-A", "X-Ua",
	};
	struct vsb_lite b = { NULL, 0, 0 };
	const char *v;
	unsigned u;

	bcat(&b, "%d", m->status);
	for (u = 0; u < sizeof shown / sizeof shown[0]; u++) {
		v = HX_Header(m, shown[u]);
		bcat(&b, " %s=[%s]", shown[u], v != NULL ? v : "(unset)");
	}
	return (b.s);
}

#define PROP_RULESETS	6
#define PROP_REQUESTS	60

START_TEST(issue_0013_random_rules_same_answers)
{
	struct origin *o;
	struct vnd *v[2];
	struct client *cl[2];
	struct hx_msg *m;
	char *vcl, *hdrs, *out[2];
	const char *url;
	unsigned r, q, i, differ = 0;

	o = ORIGIN_New(o_handler, NULL);
	for (r = 0; r < PROP_RULESETS; r++) {
		rng_state = 0x13 + r * 7919ULL;
		vcl = gen_vcl();
		for (i = 0; i < 2; i++) {
			v[i] = start(o, vcl, (int)i);
			cl[i] = VND_Connect(v[i]);
		}
		for (q = 0; q < PROP_REQUESTS; q++) {
			url = urls[rnd(NURLS)];
			hdrs = gen_req();
			for (i = 0; i < 2; i++) {
				m = get(cl[i], url, hdrs);
				out[i] = outcome(m);
				HX_MsgFree(&m);
			}
			if (strcmp(out[0], out[1])) {
				HX_Log("rule set %u, request %u differ: GET %s\n"
				    "%splain:     %s\noptimised: %s\nVCL:",
				    r, q, url, hdrs, out[0], out[1]);
				(void)fputs(vcl, stderr);
			}
			ck_assert_msg(!strcmp(out[0], out[1]), "rule set %u, "
			    "request %u: plain and optimised differ (see "
			    "the log)", r, q);
			/* The rules must do something, or this proves little. */
			if (strstr(out[0], "X-T=[(unset)]") == NULL)
				differ++;
			free(out[0]);
			free(out[1]);
			free(hdrs);
		}
		for (i = 0; i < 2; i++) {
			CLIENT_Free(&cl[i]);
			VND_Stop(v[i]);
			VND_Free(&v[i]);
		}
		free(vcl);
	}
	ck_assert_uint_gt(differ, PROP_RULESETS * PROP_REQUESTS / 2);
	ORIGIN_Free(&o);
}
END_TEST

static Suite *
vcl_opt_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("vcl_opt");
	tc = tcase_create("opt");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, issue_0013_memos_forget_on_change);
	tcase_add_test(tc, issue_0013_host_dispatch);
	tcase_add_test(tc, issue_0013_random_rules_same_answers);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(vcl_opt_suite()));
}

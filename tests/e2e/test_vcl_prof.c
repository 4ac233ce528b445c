/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcl_prof.c -- issue #13, end to end: -p vcl_profile counts each
 * condition only when a request reaches it, each true, each call, and
 * puts the time where it is spent: a 300-alternative regex over a 6 KB
 * header costs more than an ==.  Read through libveneerapi, as
 * veneerstat reads them.  Off, there is no VCLP group.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"
#include "vapi.h"

#define VP_N		8
#define VP_MAXC		256

struct vp_cnt {
	unsigned	n;
	char		*name[VP_MAXC];
	char		*oneliner[VP_MAXC];
	uint64_t	val[VP_MAXC];
};

static int
vp_collect(void *priv, const struct vapi_counter *c)
{
	struct vp_cnt *vc = priv;

	ck_assert_uint_lt(vc->n, VP_MAXC);
	vc->name[vc->n] = strdup(c->name);
	vc->oneliner[vc->n] = strdup(c->oneliner);
	vc->val[vc->n] = *c->value;
	vc->n++;
	return (0);
}

static void
vp_read(struct vnd *v, struct vp_cnt *vc)
{
	struct vapi *vd;

	memset(vc, 0, sizeof *vc);
	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	ck_assert_int_eq(VAPI_SetWorkdir(vd, VND_Workdir(v)), 0);
	ck_assert_msg(VAPI_Attach(vd, HX_T_RESP) == 0, "%s", VAPI_Error(vd));
	(void)VAPI_Status(vd);		/* finds the child's segments */
	ck_assert_int_eq(VAPI_CounterFilter(vd, "VCLP.*"), 0);
	ck_assert_int_eq(VAPI_Counters(vd, vp_collect, vc), 0);
	VAPI_Free(&vd);
}

static void
vp_free(struct vp_cnt *vc)
{
	unsigned u;

	for (u = 0; u < vc->n; u++) {
		free(vc->name[u]);
		free(vc->oneliner[u]);
	}
}

/* The counter ending in .what whose description has "/where". */
static uint64_t
vp_get(const struct vp_cnt *vc, const char *where, const char *what)
{
	size_t lx = strlen(what), ln;
	unsigned u;

	for (u = 0; u < vc->n; u++) {
		ln = strlen(vc->name[u]);
		if (strstr(vc->oneliner[u], where) != NULL && ln > lx &&
		    strcmp(vc->name[u] + ln - lx, what) == 0)
			return (vc->val[u]);
	}
	ck_abort_msg("no VCLP counter %s at %s among %u (%s: %s)", what,
	    where, vc->n, vc->n ? vc->name[0] : "", vc->n ?
	    vc->oneliner[0] : "");
	return (0);
}

static struct vnd *
vp_setup(struct origin **op, int on)
{
	struct client *cl;
	struct hx_msg *m;
	struct vnd *v;
	char *vcl, *alts, *hdr, *p, url[16];
	unsigned u;
	int want;

	alts = HX_CostlyAlternation(300);
	*op = ORIGIN_New(NULL, NULL);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\n"
	    "backend default { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub note { set req.http.X-Noted = \"1\"; }\n"
	    "sub vcl_recv {\n"
	    "\tif (req.http.X-Long ~ \"(%s)\") {\n"
	    "\t\treturn (synth(403));\n"
	    "\t} elsif (req.http.X-Cheap == \"go\") {\n"
	    "\t\tcall note;\n"
	    "\t}\n"
	    "\tif (req.url == \"/stop\") { return (synth(204)); }\n"
	    "\treturn (synth(200));\n"
	    "}\n", ORIGIN_Port(*op), alts), 0);
	free(alts);
	v = VND_New();
	VND_VclFile(v, "prof.vcl", vcl);
	free(vcl);
	VND_Param(v, "vcl_profile", on ? "on" : "off");
	VND_Start(v);
	hdr = malloc(6000 + 64);
	ck_assert_ptr_nonnull(hdr);
	cl = VND_Connect(v);
	/* Odd: X-Cheap; 0 and 4: /stop; 6: the regex matches. */
	for (u = 0; u < VP_N; u++) {
		p = hdr + snprintf(hdr, 64, "X-Long: ");
		memset(p, 'a' + u, 6000);
		p += 6000;
		p += snprintf(p, 64, "%s\r\n%s", u == 6 ? "h57" : "",
		    u % 2 ? "X-Cheap: go\r\n" : "");
		(void)snprintf(url, sizeof url, "%s", u % 4 ? "/p" : "/stop");
		m = CLIENT_Fetch(cl, "GET", url, hdr, HX_T_RESP);
		want = u == 6 ? 403 : u % 4 ? 200 : 204;
		ck_assert_int_eq(m->status, want);
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	free(hdr);
	return (v);
}

START_TEST(issue_0013_profile_counts)
{
	struct origin *o;
	struct vnd *v;
	struct vp_cnt vc;
	uint64_t re, cheap, url;

	v = vp_setup(&o, 1);
	vp_read(v, &vc);
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:4:", ".calls"), VP_N);
	/* The regex: every request; true once. */
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:5:", ".evals"), VP_N);
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:5:", ".true"), 1);
	/* The elsif: only where the regex was false; true for odd u. */
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:7:", ".evals"), VP_N - 1);
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:7:", ".true"), 4);
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:8:", ".calls"), 4);
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:10:", ".evals"), VP_N - 1);
	ck_assert_uint_eq(vp_get(&vc, "/prof.vcl:10:", ".true"), 2);
	/* The regex over 6 KB is where the time went. */
	re = vp_get(&vc, "/prof.vcl:5:", ".ns");
	cheap = vp_get(&vc, "/prof.vcl:7:", ".ns");
	url = vp_get(&vc, "/prof.vcl:10:", ".ns");
	ck_assert_msg(re > cheap && re > url, "regex %ju ns, == %ju and %ju",
	    (uintmax_t)re, (uintmax_t)cheap, (uintmax_t)url);
	vp_free(&vc);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(issue_0013_profile_off)
{
	struct origin *o;
	struct vnd *v;
	struct vp_cnt vc;

	v = vp_setup(&o, 0);
	vp_read(v, &vc);
	ck_assert_msg(vc.n == 0, "vcl_profile off, yet %s", vc.n ?
	    vc.name[0] : "");
	vp_free(&vc);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
vcl_prof_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("vcl_prof");
	tc = tcase_create("vcl_prof");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0013_profile_counts);
	tcase_add_test(tc, issue_0013_profile_off);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(vcl_prof_suite()));
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_xkey.c -- surrogate keys end to end: objects tagged by their
 * origin's Surrogate-Key and xkey headers, purged by tag through the CLI
 * (purge.key, purge.softkey, driven with veneeradm -n) and from VCL
 * (veneer.purge_key(), purge.hard(), purge.soft()); exactly the tagged
 * objects go, every variant, and the index empties as objects expire
 * (the ASan build checks that nothing dangles).
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/harness.h"
#include "tests/e2e/cache_lib.h"

/* Run veneeradm -n against v with the words of cmd; its output. */
static char *
adm(struct vnd *v, const char *cmd, int *status)
{
	char line[16384], *out;
	size_t len = 0, l;
	const char *b;
	FILE *f;
	int st;

	b = getenv("VENEER_BUILDDIR");
	ck_assert_msg(b != NULL && *b != '\0', "VENEER_BUILDDIR is not set "
	    "(run through make check)");
	(void)snprintf(line, sizeof line, "timeout 10 '%s/veneeradm' -t 5 "
	    "-n '%s' %s 2>&1", b, VND_Workdir(v), cmd);
	f = popen(line, "r");
	ck_assert_msg(f != NULL, "popen: %s", strerror(errno));
	out = malloc(65536);
	ck_assert_ptr_nonnull(out);
	while (len < 65535 && (l = fread(out + len, 1, 65535 - len, f)) > 0)
		len += l;
	out[len] = '\0';
	st = pclose(f);
	if (status != NULL)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return (out);
}

/* The CLI's answer to cmd must start with want. */
static void
adm_is(struct vnd *v, const char *cmd, const char *want)
{
	char *out;
	int st;

	out = adm(v, cmd, &st);
	ck_assert_msg(st == 0 && !strncmp(out, want, strlen(want)),
	    "veneeradm %s: exit %d, \"%s\"; want \"%s\"", cmd, st, out, want);
	free(out);
}

static void
hit(struct client *cl, const char *url, unsigned serial)
{
	struct hx_msg *r;

	r = CO_Fetch(cl, url, NULL);
	CO_BodyIs(r, url, serial);
	(void)CO_CsHit(r, url, 0, 1000);
	HX_MsgFree(&r);
}

static void
miss(struct client *cl, const char *url, const char *hdrs, unsigned serial)
{
	struct hx_msg *r;

	r = CO_Fetch(cl, url, hdrs);
	CO_BodyIs(r, url, serial);
	CO_CsMiss(r, url);
	HX_MsgFree(&r);
}

#define MAXAGE	"Cache-Control: max-age=300"

START_TEST(purge_key_exactly_the_tagged)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	miss(cl, "/a", CO_TH(MAXAGE "|Surrogate-Key: t1 shared"), 1);
	miss(cl, "/b", CO_TH(MAXAGE "|Surrogate-Key: t2,shared"), 2);
	miss(cl, "/c", CO_TH(MAXAGE "|xkey: t3"), 3);
	miss(cl, "/d", CO_TH(MAXAGE), 4);
	miss(cl, "/e", CO_TH(MAXAGE "|Surrogate-Key:  ab \t, ,abc"), 5);
	(void)VND_WaitCounter(v, "n_xkey", "==", 6, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 7, CO_T_WAIT);

	adm_is(v, "purge.key t1", "Purged 1 object\n");
	miss(cl, "/a", CO_TH(MAXAGE), 6);
	hit(cl, "/b", 2);
	hit(cl, "/c", 3);
	hit(cl, "/d", 4);
	hit(cl, "/e", 5);

	/* A prefix or a part of a tag is another tag. */
	adm_is(v, "purge.key a", "Purged 0 objects");
	adm_is(v, "purge.key b abcd 'a b,'", "Purged 0 objects");
	adm_is(v, "purge.key nosuchtag", "Purged 0 objects");
	hit(cl, "/e", 5);

	/* Several tags, one object carrying two of them: counted once. */
	adm_is(v, "purge.key shared t2 t3", "Purged 2 objects");
	adm_is(v, "purge.key 'ab abc'", "Purged 1 object\n");
	miss(cl, "/b", NULL, 7);
	miss(cl, "/c", NULL, 8);
	miss(cl, "/e", NULL, 9);
	hit(cl, "/d", 4);
	(void)VND_WaitCounter(v, "xkey_purges", "==", 6, CO_T_WAIT);
	(void)VND_WaitCounter(v, "xkey_obj_purged", "==", 4, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_purges", "==", 6, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_obj_purged", "==", 4, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_xkey", "==", 0, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 0, CO_T_WAIT);

	/* No tag at all is a syntax error, from the manager. */
	{
		char *out;
		int st;

		out = adm(v, "purge.key", &st);
		ck_assert_msg(st != 0 && strstr(out, "Too few") != NULL,
		    "purge.key without a tag: %d %s", st, out);
		free(out);
		out = adm(v, "help purge.softkey", &st);
		ck_assert_msg(st == 0 && strstr(out, "purge.softkey <tag>")
		    != NULL, "help purge.softkey: %s", out);
		free(out);
	}
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(repeated_headers_and_variants)
{
	static const char * const vals[] = { "one", "two", "three" };
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	char hdrs[256];
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), NULL);
	cl = VND_Connect(v);
	/* Three headers, two names: each tag reaches the object. */
	miss(cl, "/r", CO_TH(MAXAGE "|Surrogate-Key: r1|xkey: r2 r1"
	    "|surrogate-key: r3"), 1);
	hit(cl, "/r", 1);
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 3, CO_T_WAIT);
	adm_is(v, "purge.key r3", "Purged 1 object\n");
	miss(cl, "/r", CO_TH(MAXAGE "|Surrogate-Key: r1|xkey: r2"), 2);
	adm_is(v, "purge.key r2", "Purged 1 object\n");
	miss(cl, "/r", NULL, 3);

	/* Three variants of one URL, all tagged "var". */
	for (u = 0; u < 3; u++) {
		(void)snprintf(hdrs, sizeof hdrs, "X-Test-Vary: 1\r\n"
		    "X-H-000: %s\r\n%s", vals[u],
		    CO_TH(MAXAGE "|Surrogate-Key: var"));
		miss(cl, "/v", hdrs, 4 + u);
	}
	(void)VND_WaitCounter(v, "n_vary", "==", 3, CO_T_WAIT);
	adm_is(v, "purge.key var", "Purged 3 objects");
	for (u = 0; u < 3; u++) {
		(void)snprintf(hdrs, sizeof hdrs, "X-Test-Vary: 1\r\n"
		    "X-H-000: %s\r\n%s", vals[u], CO_TH(MAXAGE));
		miss(cl, "/v", hdrs, 7 + u);
	}
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(softkey_serves_stale_while_refetching)
{
	const char *h = CO_TH("Cache-Control: max-age=300, "
	    "stale-while-revalidate=60|Surrogate-Key: soft");
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char hdrs[256];
	double t0;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", NULL);
	cl = VND_Connect(v);
	miss(cl, "/s", h, 1);
	hit(cl, "/s", 1);
	adm_is(v, "purge.softkey soft", "Purged 1 object\n");
	/* Still indexed: a soft purge keeps the object. */
	ck_assert_int_eq(VND_Counter(v, "n_xkey_oc"), 1);

	/* Stale now; grace covers a slow origin: served at once. */
	(void)snprintf(hdrs, sizeof hdrs, "X-Test-Stall: 2\r\n%s", h);
	t0 = HX_Now();
	r = CO_Fetch(cl, "/s", hdrs);
	ck_assert_msg(HX_Now() - t0 < 1.0, "the soft-purged object took "
	    "%.2f s: it waited for the refresh", HX_Now() - t0);
	CO_BodyIs(r, "/s", 1);
	ck_assert_msg(CO_Matches("^Veneer; hit; ttl=-?[0-9]+; detail=grace$",
	    HX_Header(r, "Cache-Status")), "soft-purged: Cache-Status: %s, "
	    "want a grace hit", HX_Header(r, "Cache-Status"));
	HX_MsgFree(&r);
	/* The background refresh replaces it. */
	CO_WaitDone(2, CO_T_WAIT);
	t0 = HX_Now();
	for (;;) {
		r = CO_Fetch(cl, "/s", NULL);
		if (strstr(r->body, "#2") != NULL)
			break;
		ck_assert_msg(HX_Now() - t0 < 3.0, "still the soft-purged "
		    "object after its refresh: %s", r->body);
		HX_MsgFree(&r);
		(void)poll(NULL, 0, 10);
	}
	(void)CO_CsHit(r, "/s", 250, 300);
	HX_MsgFree(&r);
	ck_assert_int_eq(ORIGIN_NReq(o), 2);
	/* The stale copy left, the new one is indexed. */
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 1, CO_T_WAIT);
	/* A soft purge never lengthens: twice is as once. */
	adm_is(v, "purge.softkey soft", "Purged 1 object\n");
	adm_is(v, "purge.softkey soft", "Purged 1 object\n");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A soft purge keeps keep: the stale copy is revalidated (304), and the
 * refreshed object, made from its headers, carries its tags on.
 */
START_TEST(softkey_then_revalidate)
{
	const struct hx_msg *q;
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", "default_keep=60",
	    NULL);
	cl = VND_Connect(v);
	miss(cl, "/rv", CO_TH(MAXAGE "|ETag: \"e1\"|xkey: rv"), 1);
	adm_is(v, "purge.softkey rv", "Purged 1 object\n");
	r = CO_Fetch(cl, "/rv", CO_TC(MAXAGE "|X-New: 1"));
	ORIGIN_WaitReqs(o, 2, CO_T_WAIT);
	q = ORIGIN_Req(o, 1);
	ck_assert_msg(HX_Header(q, "If-None-Match") != NULL &&
	    !strcmp(HX_Header(q, "If-None-Match"), "\"e1\""), "after a "
	    "soft purge the refresh carried If-None-Match: %s, want \"e1\"",
	    HX_Header(q, "If-None-Match"));
	CO_BodyIs(r, "/rv", 1);
	HX_MsgFree(&r);
	(void)VND_WaitCounter(v, "fetch_304", "==", 1, CO_T_WAIT);
	hit(cl, "/rv", 1);
	/* The refreshed copy is indexed under the stored tag. */
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 1, CO_T_WAIT);
	adm_is(v, "purge.key rv", "Purged 1 object\n");
	miss(cl, "/rv", CO_TH(MAXAGE), 3);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* Odd bytes, a huge header, more tags than an object may have. */
START_TEST(hostile_tags)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	char *hdrs, *p;
	size_t size = 16384;
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "http_resp_hdr_len=32k",
	    "http_resp_size=64k", "workspace_backend=128k", NULL);
	cl = VND_Connect(v);
	miss(cl, "/odd", CO_TH(MAXAGE "|Surrogate-Key: caf\xc3\xa9 "
	    "a;b=c/d?e \"q\" ~!@#$%^&*()"), 1);
	adm_is(v, "purge.key 'caf\xc3\xa9'", "Purged 1 object\n");
	miss(cl, "/odd", CO_TH(MAXAGE "|Surrogate-Key: a;b=c/d?e"), 2);
	adm_is(v, "purge.key 'a;b=c/d?e'", "Purged 1 object\n");
	miss(cl, "/odd", NULL, 3);

	/* 300 tags and one of 2000 bytes: 256 indexed, the rest counted. */
	hdrs = malloc(size);
	ck_assert_ptr_nonnull(hdrs);
	p = hdrs + snprintf(hdrs, size, "X-Test-Headers: " MAXAGE
	    "|Surrogate-Key: ");
	for (u = 0; u < 2000; u++)
		*p++ = 'L';
	for (u = 0; u < 300; u++)
		p += snprintf(p, size - (size_t)(p - hdrs), " k%u", u);
	(void)snprintf(p, size - (size_t)(p - hdrs), "\r\n");
	miss(cl, "/huge", hdrs, 4);
	free(hdrs);
	hit(cl, "/huge", 4);
	(void)VND_WaitCounter(v, "xkey_dropped", "==", 1 + 300 - 256,
	    CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 256, CO_T_WAIT);
	adm_is(v, "purge.key k299", "Purged 0 objects");
	adm_is(v, "purge.key k255", "Purged 1 object\n");
	miss(cl, "/huge", NULL, 5);
	(void)VND_WaitCounter(v, "n_xkey", "==", 0, CO_T_WAIT);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* Tagged objects expiring free their index entries (ASan: no leaks). */
START_TEST(tags_leave_with_expiry)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	char url[32];
	unsigned u;

	o = CO_New();
	v = VND_Launch(ORIGIN_Port(o), "default_grace=0", "default_keep=0",
	    NULL);
	cl = VND_Connect(v);
	for (u = 0; u < 20; u++) {
		(void)snprintf(url, sizeof url, "/x%u", u);
		miss(cl, url, CO_TH("Cache-Control: max-age=1|"
		    "Surrogate-Key: all one-per-url-so-many shared"), u + 1);
	}
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 60, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_expired", "==", 20, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_xkey_oc", "==", 0, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_xkey", "==", 0, CO_T_WAIT);
	adm_is(v, "purge.key all", "Purged 0 objects");
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static const char vcl_text[] =
    "vcl 4.1;\n"
    "import veneer;\n"
    "import purge;\n"
    "backend default { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
    "sub vcl_recv {\n"
    "    if (req.method == \"PURGE\" && req.http.xkey-purge) {\n"
    "        return (synth(200, \"Purged \" +\n"
    "            veneer.purge_key(req.http.xkey-purge)));\n"
    "    }\n"
    "    if (req.method == \"PURGE\" && req.http.xkey-softpurge) {\n"
    "        return (synth(200, \"Soft \" +\n"
    "            veneer.softpurge_key(req.http.xkey-softpurge)));\n"
    "    }\n"
    "    if (req.method == \"PURGE\" || req.method == \"SOFT\") {\n"
    "        return (hash);\n"
    "    }\n"
    "}\n"
    "sub vcl_hit {\n"
    "    if (req.method == \"PURGE\") {\n"
    "        return (synth(200, \"Hard \" + purge.hard()));\n"
    "    }\n"
    "    if (req.method == \"SOFT\") {\n"
    "        return (synth(200, \"Soft \" + purge.soft()));\n"
    "    }\n"
    "}\n"
    "sub vcl_miss {\n"
    "    if (req.method == \"PURGE\") {\n"
    "        return (synth(200, \"Hard \" + purge.hard()));\n"
    "    }\n"
    "    if (req.method == \"SOFT\") {\n"
    "        return (synth(200, \"Soft \" + purge.soft(grace = 0s)));\n"
    "    }\n"
    "}\n";

static void
vcl_purge(struct client *cl, const char *method, const char *url,
    const char *hdrs, const char *reason)
{
	struct hx_msg *r;

	r = CLIENT_Fetch(cl, method, url, hdrs, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_msg(!strcmp(r->reason, reason), "%s %s: \"%s\", want "
	    "\"%s\"", method, url, r->reason, reason);
	HX_MsgFree(&r);
}

START_TEST(vcl_purges)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	char text[2048];

	o = CO_New();
	v = VND_New();
	(void)snprintf(text, sizeof text, vcl_text, ORIGIN_Port(o));
	VND_VclFile(v, "xkey.vcl", text);
	VND_Start(v);
	cl = VND_Connect(v);
	miss(cl, "/p1", CO_TH(MAXAGE "|xkey: page p1"), 1);
	miss(cl, "/p2", CO_TH(MAXAGE "|xkey: page p2"), 2);
	miss(cl, "/p3", CO_TH(MAXAGE "|xkey: other"), 3);
	vcl_purge(cl, "PURGE", "/", "xkey-purge: p1\r\n", "Purged 1");
	miss(cl, "/p1", CO_TH(MAXAGE "|xkey: page p1"), 4);
	vcl_purge(cl, "PURGE", "/", "xkey-purge: page nosuch\r\n",
	    "Purged 2");
	hit(cl, "/p3", 3);
	vcl_purge(cl, "PURGE", "/", "xkey-softpurge: other\r\n", "Soft 1");

	/* purge.hard() in vcl_hit, then in vcl_miss (nothing left). */
	miss(cl, "/h", CO_TH(MAXAGE), 5);
	vcl_purge(cl, "PURGE", "/h", NULL, "Hard 1");
	vcl_purge(cl, "PURGE", "/h", NULL, "Hard 0");
	miss(cl, "/h", CO_TH(MAXAGE), 6);
	/* purge.soft() from vcl_hit: stale, still there for grace. */
	vcl_purge(cl, "SOFT", "/h", NULL, "Soft 1");
	(void)VND_WaitCounter(v, "n_object", ">=", 1, CO_T_WAIT);
	(void)VND_WaitCounter(v, "n_purges", "==", 6, CO_T_WAIT);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
xkey_suite(void)
{
	Suite *s = suite_create("xkey");
	TCase *tc = tcase_create("xkey");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, purge_key_exactly_the_tagged);
	tcase_add_test(tc, repeated_headers_and_variants);
	tcase_add_test(tc, softkey_serves_stale_while_refetching);
	tcase_add_test(tc, softkey_then_revalidate);
	tcase_add_test(tc, hostile_tags);
	tcase_add_test(tc, tags_leave_with_expiry);
	tcase_add_test(tc, vcl_purges);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(xkey_suite()));
}

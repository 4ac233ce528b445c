/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_ban.c -- bans and purges end to end: the CLI's ban and ban.list,
 * VCL's ban() and std.ban(), lookups killing what a ban matches and
 * nothing else (prefixes, other hosts, other headers), the lurker
 * killing without hits, duplicates, the list trimmed back, the bound on
 * tests per lookup, variants; return (purge) taking every variant and
 * marker of its URL and nothing else.
 *
 * The origin is cache_lib.c's: each answer's body names the fetch that
 * made it ("URL #N"), so a hit shows as an old serial, a miss as a new.
 */

#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e2e/cache_lib.h"
#include "e2e/cli_lib.h"
#include "lib/harness.h"

#define KEEP	"Cache-Control: max-age=300"

struct bt {
	struct origin	*o;
	struct vnd	*v;
	struct client	*cl;
	int		fd;		/* an authenticated CLI session */
};

/* veneerd with the CLI, and params ("name=value"), NULL-terminated. */
static void
bt_start(struct bt *t, const char *vcl, ...)
{
	const char *p;
	char name[64];
	va_list ap;
	size_t l;

	t->o = CO_New();
	t->v = VND_New();
	if (vcl != NULL) {
		char *text;
		size_t n = strlen(vcl) + 256;

		text = malloc(n);
		ck_assert_ptr_nonnull(text);
		(void)snprintf(text, n, "vcl 4.1;\nimport std;\n"
		    "backend b { .host = \"127.0.0.1\"; .port = \"%d\"; }\n%s",
		    ORIGIN_Port(t->o), vcl);
		VND_VclFile(t->v, "ban.vcl", text);
		free(text);
	} else {
		VND_Backend(t->v, ORIGIN_Port(t->o));
	}
	cli_args(t->v, 1);
	va_start(ap, vcl);
	while ((p = va_arg(ap, const char *)) != NULL) {
		l = strcspn(p, "=");
		ck_assert(l < sizeof name && p[l] == '=');
		memcpy(name, p, l);
		name[l] = '\0';
		VND_Param(t->v, name, p + l + 1);
	}
	va_end(ap);
	VND_Start(t->v);
	t->cl = VND_Connect(t->v);
	t->fd = cli_login(t->v);
}

static void
bt_finish(struct bt *t)
{

	(void)close(t->fd);
	CLIENT_Free(&t->cl);
	VND_Finish(&t->v, &t->o);
}

/* GET url (extra request headers hdrs); its body must name serial. */
static void
get_is(struct bt *t, const char *url, const char *hdrs, unsigned serial)
{
	struct hx_msg *m;

	m = CO_Fetch(t->cl, url, hdrs);
	CO_BodyIs(m, url, serial);
	HX_MsgFree(&m);
}

/* What the origin should send: KEEP and more header lines ('|'). */
#define TH(more)	CO_TH(KEEP "|" more)

/*--------------------------------------------------------------------*/

START_TEST(ban_url_regex_and_prefixes)
{
	struct bt t;

	bt_start(&t, NULL, NULL);
	get_is(&t, "/a", CO_TH(KEEP), 1);
	get_is(&t, "/a/1", CO_TH(KEEP), 2);
	get_is(&t, "/ab", CO_TH(KEEP), 3);
	get_is(&t, "/b/a", CO_TH(KEEP), 4);
	get_is(&t, "/a/1", CO_TH(KEEP), 2);		/* a hit */
	/* == is the whole URL: not its prefixes or extensions. */
	cli_expect(t.fd, "ban req.url == /a", 200, NULL);
	get_is(&t, "/a/1", CO_TH(KEEP), 2);
	get_is(&t, "/ab", CO_TH(KEEP), 3);
	get_is(&t, "/a", CO_TH(KEEP), 5);		/* banned: fetched */
	/* A regex: anchored as written, nothing more. */
	cli_expect(t.fd, "ban req.url ~ ^/a/", 200, NULL);
	/* Listed while objects still need it (then it may complete). */
	cli_expect(t.fd, "ban.list", 200, " -  req.url ~ ^/a/\n");
	get_is(&t, "/b/a", CO_TH(KEEP), 4);
	get_is(&t, "/ab", CO_TH(KEEP), 3);
	get_is(&t, "/a/1", CO_TH(KEEP), 6);
	get_is(&t, "/a/1", CO_TH(KEEP), 6);		/* the new one stays */
	get_is(&t, "/a", CO_TH(KEEP), 5);		/* newer than the ban */
	ck_assert_uint_eq(VND_WaitCounter(t.v, "MAIN.bans_obj_killed", ">=",
	    2, CO_T_WAIT), 2);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_other_host_untouched)
{
	struct bt t;

	bt_start(&t, NULL, NULL);
	get_is(&t, "/x", "Host: one.example\r\n" CO_TH(KEEP), 1);
	get_is(&t, "/x", "Host: two.example\r\n" CO_TH(KEEP), 2);
	get_is(&t, "/x", "Host: one.example.net\r\n" CO_TH(KEEP), 3);
	cli_expect(t.fd, "ban req.http.host == one.example && req.url == /x",
	    200, NULL);
	get_is(&t, "/x", "Host: two.example\r\n" CO_TH(KEEP), 2);
	get_is(&t, "/x", "Host: one.example.net\r\n" CO_TH(KEEP), 3);
	get_is(&t, "/x", "Host: one.example\r\n" CO_TH(KEEP), 4);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_obj_http_and_status)
{
	struct bt t;

	bt_start(&t, NULL, NULL);
	get_is(&t, "/s1", TH("X-Tag: sport"), 1);
	get_is(&t, "/s2", TH("X-Tag: sports"), 2);
	get_is(&t, "/s3", TH("X-Tag-2: sport"), 3);
	get_is(&t, "/s4", TH("X-Ta: sport"), 4);
	get_is(&t, "/s5", TH("x-tag:   sport  "), 5);
	/* The header's name exactly (any case), its value trimmed. */
	cli_expect(t.fd, "ban obj.http.X-Tag == sport", 200, NULL);
	get_is(&t, "/s1", TH("X-Tag: sport"), 6);
	get_is(&t, "/s2", TH("X-Tag: sports"), 2);
	get_is(&t, "/s3", TH("X-Tag-2: sport"), 3);
	get_is(&t, "/s4", TH("X-Ta: sport"), 4);
	get_is(&t, "/s5", TH("x-tag: sport"), 7);
	/* A date stored in short form reads back as sent. */
	get_is(&t, "/d", TH("Last-Modified: Tue, 01 Jan 2030 00:00:00 GMT"),
	    8);
	cli_expect(t.fd, "ban obj.http.Last-Modified ~ \"^Tue, 01 Jan 2030\"",
	    200, NULL);
	get_is(&t, "/d", TH("Last-Modified: Tue, 01 Jan 2030 00:00:00 GMT"),
	    9);
	/* obj.status */
	{
		struct hx_msg *m;

		m = CO_Fetch(t.cl, "/404", "X-Test-Status: 404\r\n"
		    CO_TH(KEEP));
		ck_assert_int_eq(m->status, 404);
		HX_MsgFree(&m);
		m = CO_Fetch(t.cl, "/404", "X-Test-Status: 404\r\n"
		    CO_TH(KEEP));
		ck_assert_int_eq(m->status, 404);
		ck_assert_ptr_nonnull(strstr(m->body, "#10"));
		HX_MsgFree(&m);
		cli_expect(t.fd, "ban obj.status == 404", 200, NULL);
		m = CO_Fetch(t.cl, "/404", "X-Test-Status: 404\r\n"
		    CO_TH(KEEP));
		ck_assert_ptr_nonnull(strstr(m->body, "#11"));
		HX_MsgFree(&m);
	}
	get_is(&t, "/s2", TH("X-Tag: sports"), 2);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_errors_add_nothing)
{
	struct bt t;
	char *b;

	bt_start(&t, NULL, NULL);
	cli_expect(t.fd, "ban foo == bar", 106, "foo");
	cli_expect(t.fd, "ban req.url ~ (", 106, NULL);
	cli_expect(t.fd, "ban obj.status == abc", 106, NULL);
	cli_expect(t.fd, "ban obj.ttl > soon", 106, NULL);
	cli_expect(t.fd, "ban req.url ~", 104, NULL);
	cli_expect(t.fd, "ban req.url ~ /a &&", 106, NULL);
	cli_expect(t.fd, "ban req.url =~ /a", 106, NULL);
	cli_expect(t.fd, "ban req.http. == x", 106, NULL);
	cli_expect(t.fd, "ban.list -x", 106, NULL);
	ck_assert_uint_eq(cli_ask(t.fd, "ban.list", &b), 200);
	/* Only the first, completed ban. */
	ck_assert_msg(strstr(b, "Present bans:\n") == b, "%s", b);
	ck_assert_msg(strchr(b + 14, '\n') == b + strlen(b) - 1, "%s", b);
	ck_assert_ptr_nonnull(strstr(b, " C  \n"));
	free(b);
	/* Only the boot ban, which varnishd counts as added too. */
	ck_assert_uint_eq(VND_Counter(t.v, "MAIN.bans_added"), 1);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_lurker_kills_without_hits)
{
	struct bt t;
	char *b;

	bt_start(&t, NULL, "ban_lurker_age=0", "ban_lurker_sleep=0.01",
	    NULL);
	get_is(&t, "/l1", TH("X-Tag: sport"), 1);
	get_is(&t, "/l2", TH("X-Tag: news"), 2);
	get_is(&t, "/l3", TH("X-Tag: sport"), 3);
	get_is(&t, "/other/x", CO_TH(KEEP), 4);
	VND_WaitCounter(t.v, "MAIN.n_object", "==", 4, CO_T_WAIT);
	cli_expect(t.fd, "ban obj.http.X-Tag ~ sport", 200, NULL);
	/* Rewritten to the stored URL: the lurker can do this one too. */
	cli_expect(t.fd, "ban req.url ~ ^/other/", 200, NULL);
	VND_WaitCounter(t.v, "MAIN.bans_lurker_obj_killed", "==", 3,
	    CO_T_WAIT);
	VND_WaitCounter(t.v, "MAIN.n_object", "==", 1, CO_T_WAIT);
	ck_assert_uint_eq(VND_Counter(t.v, "MAIN.bans_obj_killed"), 0);
	/* Nobody needs the bans: the list shrinks to one, completed. */
	VND_WaitCounter(t.v, "MAIN.bans", "==", 1, CO_T_WAIT);
	ck_assert_uint_eq(cli_ask(t.fd, "ban.list", &b), 200);
	ck_assert_msg(strstr(b, "sport") == NULL, "%s", b);
	free(b);
	get_is(&t, "/l2", TH("X-Tag: news"), 2);
	get_is(&t, "/l1", TH("X-Tag: sport"), 5);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_req_header_needs_lookup)
{
	struct bt t;
	char *b;

	bt_start(&t, NULL, "ban_lurker_age=0", "ban_lurker_sleep=0.01",
	    NULL);
	get_is(&t, "/r", CO_TH(KEEP), 1);
	cli_expect(t.fd, "ban req.http.X-User == alice", 200, NULL);
	ck_assert_uint_eq(cli_ask(t.fd, "ban.list -d", &b), 200);
	ck_assert_msg(strstr(b, "-R ") != NULL, "not lookup-only:\n%s", b);
	free(b);
	/* The lurker cannot say; a lookup by bob can: not him. */
	get_is(&t, "/r", "X-User: bob\r\n" CO_TH(KEEP), 1);
	get_is(&t, "/r", "X-User: alice\r\n" CO_TH(KEEP), 1);
	ck_assert_uint_eq(VND_Counter(t.v, "MAIN.bans_req"), 1);
	ck_assert_uint_eq(VND_Counter(t.v, "MAIN.bans_lurker_obj_killed"), 0);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_req_header_kills_at_lookup)
{
	struct bt t;

	bt_start(&t, NULL, NULL);
	get_is(&t, "/r", CO_TH(KEEP), 1);
	cli_expect(t.fd, "ban req.http.X-User == alice", 200, NULL);
	get_is(&t, "/r", "X-User: alice\r\n" CO_TH(KEEP), 2);
	get_is(&t, "/r", "X-User: bob\r\n" CO_TH(KEEP), 2);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_cutoff_kills_the_long_tail)
{
	struct bt t;

	/*
	 * Lookup-only bans the lurker cannot test; beyond ban_cutoff of
	 * them, the objects that point further down go.
	 */
	bt_start(&t, NULL, "ban_lurker_age=0", "ban_lurker_sleep=0.01",
	    "ban_cutoff=2", NULL);
	get_is(&t, "/t1", CO_TH(KEEP), 1);
	get_is(&t, "/t2", CO_TH(KEEP), 2);
	cli_expect(t.fd, "ban req.http.X-A == 1", 200, NULL);
	get_is(&t, "/t3", CO_TH(KEEP), 3);
	cli_expect(t.fd, "ban req.http.X-A == 2", 200, NULL);
	cli_expect(t.fd, "ban req.http.X-A == 3", 200, NULL);
	VND_WaitCounter(t.v, "MAIN.bans_lurker_obj_killed_cutoff", "==", 2,
	    CO_T_WAIT);
	VND_WaitCounter(t.v, "MAIN.n_object", "==", 1, CO_T_WAIT);
	get_is(&t, "/t3", CO_TH(KEEP), 3);
	get_is(&t, "/t1", CO_TH(KEEP), 4);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_duplicates_complete_older)
{
	struct bt t;
	char *b, *p;

	bt_start(&t, NULL, NULL);
	get_is(&t, "/d", CO_TH(KEEP), 1);
	cli_expect(t.fd, "ban req.url ~ ^/nothing", 200, NULL);
	cli_expect(t.fd, "ban req.url ~ ^/nothing", 200, NULL);
	ck_assert_uint_eq(VND_Counter(t.v, "MAIN.bans_dups"), 1);
	ck_assert_uint_eq(cli_ask(t.fd, "ban.list", &b), 200);
	/*
	 * Newest first: the new one open, the old one completed, both
	 * with their expression (as varnishd lists them).
	 */
	p = strstr(b, " -  req.url ~ ^/nothing\n");
	ck_assert_msg(p != NULL && strstr(p, " C  req.url ~ ^/nothing\n") !=
	    NULL, "%s", b);
	free(b);
	ck_assert_uint_eq(cli_ask(t.fd, "ban.list -j", &b), 200);
	ck_assert_msg(strstr(b, "\"spec\": \"req.url ~ ^/nothing\"") != NULL,
	    "%s", b);
	free(b);
	get_is(&t, "/d", CO_TH(KEEP), 1);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_tests_per_lookup_bounded)
{
	struct bt t;

	/* No lurker: only lookups test; one test each at most. */
	bt_start(&t, NULL, "ban_lurker_sleep=0",
	    "ban_max_tests_per_lookup=1", NULL);
	get_is(&t, "/m", CO_TH(KEEP), 1);
	cli_expect(t.fd, "ban req.url == /n1", 200, NULL);
	get_is(&t, "/m", CO_TH(KEEP), 1);		/* one: tested */
	cli_expect(t.fd, "ban req.url == /n2", 200, NULL);
	cli_expect(t.fd, "ban req.url == /n3", 200, NULL);
	/* Two to test: not delivered untested, a fresh copy instead. */
	get_is(&t, "/m", CO_TH(KEEP), 2);
	get_is(&t, "/m", CO_TH(KEEP), 2);
	/* Workers publish their counts when their task ends. */
	VND_WaitCounter(t.v, "MAIN.bans_lookup_deferred", ">=", 1, CO_T_WAIT);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_kills_every_variant)
{
	struct bt t;

	bt_start(&t, NULL, NULL);
	get_is(&t, "/v", "X-L: en\r\n" CO_TH(KEEP "|Vary: X-L"), 1);
	get_is(&t, "/v", "X-L: fr\r\n" CO_TH(KEEP "|Vary: X-L"), 2);
	get_is(&t, "/v", "X-L: fr\r\n" CO_TH(KEEP "|Vary: X-L"), 2);
	cli_expect(t.fd, "ban req.url == /v", 200, NULL);
	get_is(&t, "/v", "X-L: fr\r\n" CO_TH(KEEP "|Vary: X-L"), 3);
	get_is(&t, "/v", "X-L: en\r\n" CO_TH(KEEP "|Vary: X-L"), 4);
	bt_finish(&t);
}
END_TEST

START_TEST(ban_from_vcl)
{
	struct bt t;
	struct hx_msg *m;

	bt_start(&t,
	    "sub vcl_recv {\n"
	    "  if (req.method == \"BAN\") {\n"
	    "    ban(\"req.url ~ \" + req.http.X-Ban);\n"
	    "    return (synth(200, \"Banned\"));\n"
	    "  }\n"
	    "  if (req.method == \"STDBAN\") {\n"
	    "    if (std.ban(req.http.X-Ban)) {\n"
	    "      return (synth(200, \"Banned\"));\n"
	    "    }\n"
	    "    return (synth(400, std.ban_error()));\n"
	    "  }\n"
	    "}\n", NULL);
	get_is(&t, "/v1", CO_TH(KEEP), 1);
	get_is(&t, "/v2", CO_TH(KEEP), 2);
	m = CLIENT_Fetch(t.cl, "BAN", "/", "X-Ban: ^/v1$\r\n",
	    HX_T_RESP);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	get_is(&t, "/v1", CO_TH(KEEP), 3);
	get_is(&t, "/v2", CO_TH(KEEP), 2);
	m = CLIENT_Fetch(t.cl, "STDBAN", "/", "X-Ban: obj.status == 200 && "
	    "req.url == /v2\r\n", HX_T_RESP);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	get_is(&t, "/v2", CO_TH(KEEP), 4);
	m = CLIENT_Fetch(t.cl, "STDBAN", "/", "X-Ban: nope == 1\r\n",
	    HX_T_RESP);
	ck_assert_int_eq(m->status, 400);
	ck_assert_msg(m->reason != NULL && strstr(m->reason, "nope") != NULL,
	    "no reason in the answer");
	HX_MsgFree(&m);
	get_is(&t, "/v1", CO_TH(KEEP), 3);
	bt_finish(&t);
}
END_TEST

START_TEST(purge_all_variants_and_markers)
{
	struct bt t;
	struct hx_msg *m;

	bt_start(&t,
	    "sub vcl_recv {\n"
	    "  if (req.method == \"PURGE\") { return (purge); }\n"
	    "}\n", NULL);
	get_is(&t, "/v", "X-L: en\r\n" CO_TH(KEEP "|Vary: X-L"), 1);
	get_is(&t, "/v", "X-L: fr\r\n" CO_TH(KEEP "|Vary: X-L"), 2);
	get_is(&t, "/v?x", CO_TH(KEEP), 3);
	get_is(&t, "/vv", CO_TH(KEEP), 4);
	get_is(&t, "/v", "Host: other.example\r\n" CO_TH(KEEP), 5);
	/* A hit-for-miss marker: the next one is a miss, not a wait. */
	get_is(&t, "/m", CO_TH("Cache-Control: private"), 6);
	get_is(&t, "/m", CO_TH("Cache-Control: private"), 7);
	m = CLIENT_Fetch(t.cl, "PURGE", "/v", NULL, HX_T_RESP);
	ck_assert_int_eq(m->status, 200);
	ck_assert_str_eq(m->reason, "Purged");
	HX_MsgFree(&m);
	/* Every variant of the URL goes; nothing else does. */
	get_is(&t, "/v", "X-L: fr\r\n" CO_TH(KEEP "|Vary: X-L"), 8);
	get_is(&t, "/v", "X-L: en\r\n" CO_TH(KEEP "|Vary: X-L"), 9);
	get_is(&t, "/v?x", CO_TH(KEEP), 3);
	get_is(&t, "/vv", CO_TH(KEEP), 4);
	get_is(&t, "/v", "Host: other.example\r\n" CO_TH(KEEP), 5);
	/* The marker goes too: what is cacheable now is cached. */
	m = CLIENT_Fetch(t.cl, "PURGE", "/m", NULL, HX_T_RESP);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	get_is(&t, "/m", CO_TH(KEEP), 10);
	get_is(&t, "/m", CO_TH(KEEP), 10);
	VND_WaitCounter(t.v, "MAIN.n_purges", "==", 2, CO_T_WAIT);
	VND_WaitCounter(t.v, "MAIN.n_obj_purged", "==", 3, CO_T_WAIT);
	bt_finish(&t);
}
END_TEST

/*
 * A storm: clients hit 64 URLs from four threads while the test bans
 * each generation of answers as soon as the origin moves on to the
 * next, the lurker runs flat out and lookups may test only a few bans
 * each.  Nothing may crash, and when it is over no answer of an old
 * generation may be left: every URL comes back from the last one.
 */
static unsigned storm_gen;		/* atomic: the origin's generation */

static void
storm_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	char hdrs[128];

	(void)priv;
	(void)snprintf(hdrs, sizeof hdrs, KEEP "\r\nX-Gen: %u\r\n",
	    __atomic_load_n(&storm_gen, __ATOMIC_SEQ_CST));
	(void)ORIGIN_Respond(oc, 200, hdrs, req->url, -1);
}

struct storm {
	struct vnd	*v;
	volatile int	stop;
	unsigned	ok;
	unsigned	bad;
};

static void *
storm_client(void *priv)
{
	struct storm *st = priv;
	struct client *cl;
	struct hx_msg *r;
	char url[32];
	unsigned n = (unsigned)(uintptr_t)&cl;

	cl = VND_Connect(st->v);
	while (!st->stop) {
		n = n * 1103515245U + 12345U;
		(void)snprintf(url, sizeof url, "/s/%u", (n >> 16) % 64);
		CLIENT_Req(cl, "GET", url, NULL, NULL, 0);
		r = CLIENT_TryResp(cl, 0, HX_T_RESP);
		if (r != NULL && r->status == 200)
			__atomic_add_fetch(&st->ok, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&st->bad, 1, __ATOMIC_RELAXED);
		if (r != NULL)
			HX_MsgFree(&r);
		else {
			CLIENT_Free(&cl);
			cl = VND_Connect(st->v);
		}
	}
	CLIENT_Free(&cl);
	return (NULL);
}

START_TEST(ban_storm_under_load)
{
	struct storm st;
	pthread_t thr[4];
	struct client *cl;
	struct hx_msg *m;
	struct origin *o;
	char line[128], *b;
	unsigned u, g;
	int fd;

	memset(&st, 0, sizeof st);
	storm_gen = 1;
	o = ORIGIN_New(storm_handler, NULL);
	st.v = VND_New();
	VND_Backend(st.v, ORIGIN_Port(o));
	cli_args(st.v, 1);
	VND_Param(st.v, "ban_lurker_age", "0");
	VND_Param(st.v, "ban_lurker_sleep", "0.001");
	VND_Param(st.v, "ban_lurker_batch", "16");
	VND_Param(st.v, "ban_max_tests_per_lookup", "3");
	VND_Start(st.v);
	fd = cli_login(st.v);
	for (u = 0; u < 4; u++)
		ck_assert_int_eq(pthread_create(&thr[u], NULL, storm_client,
		    &st), 0);
	for (g = 1; g <= 150; g++) {
		__atomic_store_n(&storm_gen, g + 1, __ATOMIC_SEQ_CST);
		(void)snprintf(line, sizeof line, "ban obj.http.X-Gen == %u",
		    g);
		cli_expect(fd, line, 200, NULL);
		/* Some that match nothing, some only lookups can test. */
		if (g % 3 == 0)
			cli_expect(fd, "ban req.url ~ ^/nothing/", 200, NULL);
		if (g % 5 == 0) {
			(void)snprintf(line, sizeof line,
			    "ban req.http.X-None == %u", g);
			cli_expect(fd, line, 200, NULL);
		}
		usleep(5000);
	}
	st.stop = 1;
	for (u = 0; u < 4; u++)
		ck_assert_int_eq(pthread_join(thr[u], NULL), 0);
	ck_assert_uint_gt(st.ok, 100);
	ck_assert_uint_eq(st.bad, 0);
	/* Every answer now comes from the last generation. */
	cl = VND_Connect(st.v);
	for (u = 0; u < 64; u++) {
		(void)snprintf(line, sizeof line, "/s/%u", u);
		m = CLIENT_Fetch(cl, "GET", line, NULL, HX_T_RESP);
		ck_assert_int_eq(m->status, 200);
		HX_HeaderIs(m, "X-Gen", "151");
		HX_MsgFree(&m);
	}
	CLIENT_Free(&cl);
	ck_assert_uint_eq(cli_ask(fd, "ban.list -d", &b), 200);
	HX_Log("ban.list -d after the storm:\n%.2000s", b);
	free(b);
	/* Lookups and the lurker kill; workers publish when tasks end. */
	for (u = 0; VND_Counter(st.v, "MAIN.bans_obj_killed") +
	    VND_Counter(st.v, "MAIN.bans_lurker_obj_killed") == 0; u++) {
		ck_assert_msg(u < 100, "no object killed by a ban");
		usleep(100000);
	}
	(void)close(fd);
	VND_Finish(&st.v, &o);
}
END_TEST

/*
 * Purges racing fetches: an object killed between entering the index
 * and joining the expiry heap must not stay on the heap without the
 * cache's reference (the expiry thread would then take a freed object
 * when its short TTL ends).  Nothing may crash, under ASan either.
 */
static void *
purge_hammer(void *priv)
{
	struct storm *st = priv;
	struct client *cl;
	struct hx_msg *r;

	cl = VND_Connect(st->v);
	while (!st->stop) {
		CLIENT_Req(cl, "PURGE", "/race", NULL, NULL, 0);
		r = CLIENT_TryResp(cl, 0, HX_T_RESP);
		if (r == NULL) {
			__atomic_add_fetch(&st->bad, 1, __ATOMIC_RELAXED);
			CLIENT_Free(&cl);
			cl = VND_Connect(st->v);
			continue;
		}
		HX_MsgFree(&r);
	}
	CLIENT_Free(&cl);
	return (NULL);
}

static void *
fetch_hammer(void *priv)
{
	struct storm *st = priv;
	struct client *cl;
	struct hx_msg *r;

	cl = VND_Connect(st->v);
	while (!st->stop) {
		CLIENT_Req(cl, "GET", "/race", "X-Test-Headers: "
		    "Cache-Control: max-age=1\r\n", NULL, 0);
		r = CLIENT_TryResp(cl, 0, HX_T_RESP);
		if (r != NULL && r->status == 200)
			__atomic_add_fetch(&st->ok, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&st->bad, 1, __ATOMIC_RELAXED);
		if (r != NULL)
			HX_MsgFree(&r);
		else {
			CLIENT_Free(&cl);
			cl = VND_Connect(st->v);
		}
	}
	CLIENT_Free(&cl);
	return (NULL);
}

START_TEST(purge_races_fetches)
{
	struct storm st;
	pthread_t thr[4];
	struct origin *o;
	char vcl[512];
	unsigned u;

	memset(&st, 0, sizeof st);
	o = CO_New();
	st.v = VND_New();
	(void)snprintf(vcl, sizeof vcl, "vcl 4.1;\n"
	    "backend b { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub vcl_recv {\n"
	    "  if (req.method == \"PURGE\") { return (purge); }\n"
	    "}\n", ORIGIN_Port(o));
	VND_VclFile(st.v, "race.vcl", vcl);
	VND_Start(st.v);
	for (u = 0; u < 4; u++)
		ck_assert_int_eq(pthread_create(&thr[u], NULL, u % 2 ?
		    purge_hammer : fetch_hammer, &st), 0);
	/* Past the 1 s TTL of the first objects: the expiry thread runs. */
	usleep(3500000);
	st.stop = 1;
	for (u = 0; u < 4; u++)
		ck_assert_int_eq(pthread_join(thr[u], NULL), 0);
	ck_assert_uint_gt(st.ok, 50);
	ck_assert_uint_eq(st.bad, 0);
	VND_WaitCounter(st.v, "MAIN.n_object", "==", 0, CO_T_WAIT);
	VND_Finish(&st.v, &o);
}
END_TEST

static Suite *
ban_suite(void)
{
	Suite *s = suite_create("ban");
	TCase *tc = tcase_create("ban");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ban_url_regex_and_prefixes);
	tcase_add_test(tc, ban_other_host_untouched);
	tcase_add_test(tc, ban_obj_http_and_status);
	tcase_add_test(tc, ban_errors_add_nothing);
	tcase_add_test(tc, ban_lurker_kills_without_hits);
	tcase_add_test(tc, ban_req_header_needs_lookup);
	tcase_add_test(tc, ban_req_header_kills_at_lookup);
	tcase_add_test(tc, ban_cutoff_kills_the_long_tail);
	tcase_add_test(tc, ban_duplicates_complete_older);
	tcase_add_test(tc, ban_tests_per_lookup_bounded);
	tcase_add_test(tc, ban_kills_every_variant);
	tcase_add_test(tc, ban_from_vcl);
	tcase_add_test(tc, purge_all_variants_and_markers);
	tcase_add_test(tc, ban_storm_under_load);
	tcase_add_test(tc, purge_races_fetches);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(ban_suite()));
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_esi_parse.c -- the ESI parser (src/cache/esi_parse.c): each body
 * of a table is parsed whole and in every split into two pieces and in
 * pieces of one byte; the instructions are applied to the body and the
 * result ("[...]" for an include) compared with what Varnish delivers,
 * and the messages with what it logs.  Hostile input: unterminated
 * constructs, random bytes; the runs must always cover the body.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/esi.h"

struct out {
	uint8_t		ops[8192];
	size_t		nops;
	char		msgs[2048];
	size_t		nmsgs;
};

static void
t_ops(void *priv, const void *p, size_t len)
{
	struct out *o = priv;

	ck_assert_uint_le(o->nops + len, sizeof o->ops);
	memcpy(o->ops + o->nops, p, len);
	o->nops += len;
}

static void
t_msg(void *priv, enum esi_msg kind, uint64_t after, const char *text)
{
	struct out *o = priv;
	int n;

	n = snprintf(o->msgs + o->nmsgs, sizeof o->msgs - o->nmsgs,
	    "%s%s %ju %s", o->nmsgs > 0 ? "|" : "",
	    kind == ESI_MSG_ERROR ? "ERR" : kind == ESI_MSG_WARN ? "WARN" :
	    "NOTXML", (uintmax_t)after, text);
	ck_assert_int_gt(n, 0);
	o->nmsgs += (size_t)n;
	ck_assert_uint_lt(o->nmsgs, sizeof o->msgs);
}

/*
 * Parse body in pieces of step bytes (first piece: first bytes; 0: no
 * first piece), render into buf.  Returns ESI_Finish's answer.
 */
static int
run(const char *body, size_t len, unsigned flags, size_t first, size_t step,
    struct out *o, char *buf, size_t buflen)
{
	static char mem[sizeof(struct out) * 2];
	struct esi_parser *ep;
	const uint8_t *p, *end;
	const char *host, *url;
	uint64_t off = 0, n = 0;
	size_t at = 0, bl = 0, piece;
	int op, how = 0, found;

	ck_assert_uint_le(ESI_ParserSize(), sizeof mem);
	memset(o, 0, sizeof *o);
	ep = ESI_ParserInit(mem, "/dir/page?x=/y", flags, t_ops, t_msg, o);
	while (at < len) {
		piece = at == 0 && first > 0 ? first : step;
		if (piece > len - at)
			piece = len - at;
		ESI_Parse(ep, body + at, piece);
		at += piece;
	}
	found = ESI_Finish(ep);
	p = o->ops;
	end = p + o->nops;
	while (p < end) {
		op = ESI_NextOp(&p, end, &n, &how, &host, &url);
		ck_assert_int_ne(op, 0);
		if (op == ESI_OP_VERBATIM) {
			ck_assert_uint_le(off + n, len);
			ck_assert_uint_lt(bl + n, buflen);
			memcpy(buf + bl, body + off, n);
			bl += n;
			off += n;
		} else if (op == ESI_OP_SKIP) {
			off += n;
		} else {
			bl += (size_t)snprintf(buf + bl, buflen - bl,
			    "[%c:%s:%s]", how, host, url);
			ck_assert_uint_lt(bl, buflen);
		}
	}
	/* The runs cover the body exactly. */
	ck_assert_uint_eq(off, len);
	buf[bl] = '\0';
	return (found);
}

static const struct tc {
	const char	*body;
	unsigned	flags;
	int		found;
	const char	*out;
	const char	*msgs;
} cases[] = {
	{ "<p>plain</p>", 0, 0, "<p>plain</p>", "" },
	{ "", 0, 0, "", "" },
	{ "  <a><esi:remove>gone</esi:remove>kept", 0, 1, "  <a>kept", "" },
	{ "<a><esi:comment text=\"x\"/>b", 0, 1, "<a>b", "" },
	{ "<a><!--esi <b>kept</b> -->c", 0, 1, "<a> <b>kept</b> c", "" },
	{ "<a><!-- plain <esi:include src=\"/x\"/> -->", 0, 0,
	    "<a><!-- plain <esi:include src=\"/x\"/> -->", "" },
	{ "<a><![CDATA[<esi:remove>]]>b<esi:remove/>", 0, 1,
	    "<a><![CDATA[<esi:remove>]]>b",
	    "ERR 28 ESI 1.0 <esi:remove/> not legal" },
	{ "<a><esi:include src=\"/abs\"/>b", 0, 1, "<a>[a::/abs]b", "" },
	{ "<a><esi:include src=\"rel?q=1\"/>", 0, 1,
	    "<a>[a::/dir/rel?q=1]", "" },
	{ "<a><esi:include src=\"http://h.example/p\"/>", 0, 1,
	    "<a>[a:h.example:/p]", "" },
	{ "<a><esi:include src=\"/x&amp;y&lt;\" onerror=\"continue\"/>",
	    0, 1, "<a>[c::/x&y<]", "" },
	{ "<a><esi:include src='/q'/>", 0, 1, "<a>[a::/q]", "" },
	{ "<a><esi:include src=/u />", 0, 1, "<a>[a::/u]", "" },
	{ "<a><esi:include src=\"https://h/p\"/>z", 0, 1, "<a>z",
	    "WARN 3 ESI 1.0 <esi:include> with https:// ignored" },
	{ "<a><esi:include src=\"https://h/p\"/>z", ESI_F_HTTPS_AS_HTTP, 1,
	    "<a>[a:h:/p]z",
	    "WARN 3 ESI 1.0 <esi:include> https:// treated as http://" },
	{ "<a><esi:include src=\"http://nopath\"/>1234", 0, 1, "<a>1234",
	    "ERR 3 ESI 1.0 <esi:include> invalid src= URL" },
	{ "<a><esi:include/>b", 0, 1, "<a>b",
	    "ERR 3 ESI 1.0 <esi:include> lacks src attr" },
	{ "<a><esi:include src=\"/x\">b", 0, 1, "<a>[a::/x]b",
	    "WARN 3 ESI 1.0 <esi:include> lacks final '/'" },
	{ "<a><esi:bogus/>b", 0, 1, "<a>b",
	    "ERR 3 ESI 1.0 <esi:bogus> element" },
	{ "<a></esi:remove>b", 0, 1, "<a>b",
	    "ERR 3 ESI 1.0 <esi:remove> not open" },
	{ "<a><esi:include src=\"/a b\"/>c", 0, 1, "<a>c",
	    "ERR 3 ESI 1.0 <esi:include> has whitespace in src= attribute" },
	{ "<a><esi:include src=\"/x", 0, 1, "<a>",
	    "ERR 3 VEP ended inside a tag" },
	{ "<a><esi:remove>never closed", 0, 1, "<a>", "" },
	{ "not xml <esi:remove>x</esi:remove>", 0, 0,
	    "not xml <esi:remove>x</esi:remove>",
	    "NOTXML 0 No ESI processing, first char not '<'. "
	    "(See feature esi_disable_xml_check)" },
	{ "not xml <esi:remove>x</esi:remove>", ESI_F_NO_XML_CHECK, 1,
	    "not xml ", "" },
	{ "\xef\xbb\xbf<a><esi:remove>x</esi:remove>", ESI_F_REMOVE_BOM, 1,
	    "<a>", "" },
	{ "\xef\xbb\xbf<a><esi:remove>x</esi:remove>", 0, 0,
	    "\xef\xbb\xbf<a><esi:remove>x</esi:remove>",
	    "NOTXML 0 No ESI processing, first char not '<' but BOM. "
	    "(See feature esi_remove_bom)" },
	/* Not ours: passed through, even broken. */
	{ "<a><b c=\"<esi:remove>\">x", 0, 0, "<a><b c=\"<esi:remove>\">x",
	    "" },
};

START_TEST(test_cases)
{
	const struct tc *tc = &cases[_i];
	static struct out o;
	static char buf[4096];
	char want_msgs[2048];
	size_t len = strlen(tc->body), cut;

	snprintf(want_msgs, sizeof want_msgs, "%s", tc->msgs);
	/* Whole, in two pieces at every cut, and one byte at a time. */
	for (cut = 0; cut <= len; cut++) {
		ck_assert_int_eq(run(tc->body, len, tc->flags, cut,
		    cut == 0 ? len + 1 : len, &o, buf, sizeof buf), tc->found);
		ck_assert_msg(!strcmp(buf, tc->out), "case %d cut %zu: \"%s\""
		    " != \"%s\"", _i, cut, buf, tc->out);
		ck_assert_msg(!strcmp(o.msgs, want_msgs), "case %d cut %zu: "
		    "\"%s\" != \"%s\"", _i, cut, o.msgs, want_msgs);
	}
	ck_assert_int_eq(run(tc->body, len, tc->flags, 0, 1, &o, buf,
	    sizeof buf), tc->found);
	ck_assert_str_eq(buf, tc->out);
	ck_assert_str_eq(o.msgs, want_msgs);
}
END_TEST

/* Random bytes, rich in markup: never a crash, runs cover the body. */
START_TEST(test_random)
{
	static const char *const bits[] = {
		"<", ">", "/", "esi:", "include", "remove", "comment", "src=",
		"onerror=", "\"", "'", " ", "=", "<!--", "-->", "<!--esi",
		"<![CDATA[", "]]>", "x", "http://", "&amp;", "\n", "</",
	};
	static struct out o;
	static char body[600], buf[8192];
	size_t len, step;
	unsigned u, seed;

	for (seed = 1; seed <= 300; seed++) {
		srandom(seed);
		len = 0;
		body[len++] = '<';
		for (u = 0; u < 60; u++) {
			const char *b = bits[random() % (sizeof bits /
			    sizeof *bits)];

			if (len + strlen(b) >= sizeof body)
				break;
			memcpy(body + len, b, strlen(b));
			len += strlen(b);
		}
		step = (size_t)(random() % 7) + 1;
		(void)run(body, len, (unsigned)random() & 0x1f, 0, step, &o,
		    buf, sizeof buf);
	}
}
END_TEST

/* A value too long to keep is an error, not an overflow. */
START_TEST(test_long_src)
{
	static struct out o;
	static char body[ESI_ATTR_MAX + 100], buf[ESI_ATTR_MAX + 100];
	size_t len;

	len = (size_t)snprintf(body, sizeof body, "<a><esi:include src=\"/");
	memset(body + len, 'x', ESI_ATTR_MAX + 10);
	len += ESI_ATTR_MAX + 10;
	len += (size_t)snprintf(body + len, sizeof body - len, "\"/>b");
	ck_assert_int_eq(run(body, len, 0, 0, 1000, &o, buf, sizeof buf), 1);
	ck_assert_str_eq(buf, "<a>b");
	ck_assert_ptr_nonnull(strstr(o.msgs, "longer than"));
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("esi_parse");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_cases, 0, sizeof cases / sizeof *cases);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_long_src);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}

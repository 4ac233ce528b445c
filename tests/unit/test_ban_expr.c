/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_ban_expr.c -- unit tests of ban expressions: what parses and the
 * error for what does not, the canonical text, and evaluation against
 * objects and requests, adversarial headers included (prefix names,
 * repeated conditions, odd bytes, absent headers).
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/miniobj.h"
#include "cache/ban_expr.h"

/* Headers as "Name: value" lines; looked up case-insensitively. */
struct hdrs {
	const char	*lines[8];
};

static const char *
hdr_get(void *priv, const char *name, size_t *lenp)
{
	const struct hdrs *h = priv;
	const char *v;
	size_t l = strlen(name);
	unsigned u;

	for (u = 0; u < 8 && h->lines[u] != NULL; u++) {
		if (strncasecmp(h->lines[u], name, l) || h->lines[u][l] != ':')
			continue;
		v = h->lines[u] + l + 1;
		while (*v == ' ')
			v++;
		*lenp = strlen(v);
		return (v);
	}
	return (NULL);
}

static struct hdrs ohdrs, rhdrs;
static struct ban_obj obj;
static struct ban_req req;

static void
setup(void)
{

	memset(&ohdrs, 0, sizeof ohdrs);
	memset(&rhdrs, 0, sizeof rhdrs);
	memset(&obj, 0, sizeof obj);
	obj.status = 200;
	obj.ttl = 100;
	obj.age = 20;
	obj.grace = 10;
	obj.keep = 0;
	obj.hdr = hdr_get;
	obj.priv = &ohdrs;
	memset(&req, 0, sizeof req);
	req.url = "/news/sport/1";
	req.url_len = strlen(req.url);
	req.hdr = hdr_get;
	req.priv = &rhdrs;
}

/* Parse s; the match result, or fail the test if it does not parse. */
static int
match(const char *s, int with_req)
{
	struct ban_expr *be;
	char err[256];
	int r;

	be = BAN_ExprParseString(s, err, sizeof err);
	ck_assert_msg(be != NULL, "\"%s\": %s", s, err);
	r = BAN_ExprMatch(be, with_req ? &req : NULL, &obj);
	BAN_ExprFree(&be);
	return (r);
}

static void
refused(const char *s, const char *want)
{
	struct ban_expr *be;
	char err[256];

	err[0] = '\0';
	be = BAN_ExprParseString(s, err, sizeof err);
	ck_assert_msg(be == NULL, "\"%s\" was accepted", s);
	ck_assert_msg(strstr(err, want) != NULL, "\"%s\": error \"%s\", "
	    "want \"%s\"", s, err, want);
}

START_TEST(parse_errors)
{

	refused("", "empty");
	refused("req.url ~", "too short");
	refused("req.uri ~ x", "Unknown or unsupported field \"req.uri\"");
	refused("resp.http.x == y", "Unknown or unsupported field");
	refused("obj.http. == y", "header name");
	refused("obj.http.a:b == y", "header name");
	refused("req.http.x =~ y", "expected an operator");
	refused("req.url < /a", "is a string");
	refused("obj.ttl ~ 1h", "is a number");
	refused("obj.ttl > soon", "not a duration");
	refused("obj.status == 2000", "not a status code");
	refused("obj.status == -1", "not a status code");
	refused("req.url ~ (unclosed", "does not compile");
	refused("req.url ~ a || req.url ~ b", "Expected \"&&\"");
	refused("req.url ~ a &&", "After \"&&\"");
	refused("req.url ~ a && req.url", "After \"&&\"");
	refused("req.url ~ \"unterminated", "");
}
END_TEST

START_TEST(canonical_text)
{
	struct ban_expr *a, *b;
	char err[256];

	a = BAN_ExprParseString("req.url   ~  ^/a   &&  obj.http.X-Tag == "
	    "\"two words\"", err, sizeof err);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(BAN_ExprText(a),
	    "req.url ~ ^/a && obj.http.X-Tag == \"two words\"");
	b = BAN_ExprParseString(BAN_ExprText(a), err, sizeof err);
	ck_assert_ptr_nonnull(b);
	ck_assert(BAN_ExprSame(a, b));
	ck_assert(BAN_ExprUsesReq(a));
	BAN_ExprFree(&b);
	b = BAN_ExprParseString("obj.http.X-Tag == x", err, sizeof err);
	ck_assert(!BAN_ExprSame(a, b));
	ck_assert(!BAN_ExprUsesReq(b));
	BAN_ExprFree(&a);
	BAN_ExprFree(&b);
}
END_TEST

/* Durations in the largest unit that holds them whole, as varnishd. */
START_TEST(canonical_durations)
{
	static const char * const in_out[][2] = {
		{ "obj.keep == 1.5h", "obj.keep == 90m" },
		{ "obj.keep == 10m", "obj.keep == 10m" },
		{ "obj.keep == 0.5m", "obj.keep == 30s" },
		{ "obj.keep == 0.456s", "obj.keep == 456ms" },
		{ "obj.keep == 6.789s", "obj.keep == 6.789s" },
		{ "obj.keep == 42y", "obj.keep == 42y" },
		{ "obj.ttl > 7d", "obj.ttl > 1w" },
		{ "obj.age < 0", "obj.age < 0s" },
		{ "obj.grace >= 90", "obj.grace >= 90s" },
		{ "obj.status == 200", "obj.status == 200" },
	};
	struct ban_expr *a, *b;
	char err[256];
	unsigned u;

	for (u = 0; u < sizeof in_out / sizeof in_out[0]; u++) {
		a = BAN_ExprParseString(in_out[u][0], err, sizeof err);
		ck_assert_msg(a != NULL, "%s: %s", in_out[u][0], err);
		ck_assert_str_eq(BAN_ExprText(a), in_out[u][1]);
		BAN_ExprFree(&a);
	}
	/* One ban however its duration is written. */
	a = BAN_ExprParseString("obj.ttl > 1.5h", err, sizeof err);
	b = BAN_ExprParseString("obj.ttl > 90m", err, sizeof err);
	ck_assert(a != NULL && b != NULL && BAN_ExprSame(a, b));
	BAN_ExprFree(&a);
	BAN_ExprFree(&b);
}
END_TEST

START_TEST(eval_strings)
{

	ohdrs.lines[0] = "X-Tag: sport news";
	ohdrs.lines[1] = "X-Tags: other";
	ohdrs.lines[2] = "Content-Type: text/html";
	ck_assert_int_eq(match("obj.http.X-Tag ~ sport", 0), 1);
	ck_assert_int_eq(match("obj.http.x-tag ~ SPORT", 0), 0);
	ck_assert_int_eq(match("obj.http.x-tag ~ (?i)SPORT", 0), 1);
	ck_assert_int_eq(match("obj.http.X-Tag == sport", 0), 0);
	ck_assert_int_eq(match("obj.http.X-Tag == \"sport news\"", 0), 1);
	/* A prefix of a header name is another header. */
	ck_assert_int_eq(match("obj.http.X-Ta ~ .", 0), 0);
	ck_assert_int_eq(match("obj.http.X-Tags == other", 0), 1);
	/* Absent: == and ~ fail, != and !~ hold. */
	ck_assert_int_eq(match("obj.http.X-None == x", 0), 0);
	ck_assert_int_eq(match("obj.http.X-None ~ .*", 0), 0);
	ck_assert_int_eq(match("obj.http.X-None != x", 0), 1);
	ck_assert_int_eq(match("obj.http.X-None !~ x", 0), 1);
	ck_assert_int_eq(match("obj.http.X-Tag !~ sport", 0), 0);
	/* Bytes that are not text compare as bytes. */
	ohdrs.lines[3] = "X-Odd: a\x01\xff b";
	ck_assert_int_eq(match("obj.http.X-Odd == \"a\\x01\\xff b\"", 0), 1);
	ck_assert_int_eq(match("obj.http.X-Odd == \"a\\x01\\xfe b\"", 0), 0);
}
END_TEST

START_TEST(eval_numbers)
{

	ck_assert_int_eq(match("obj.status == 200", 0), 1);
	ck_assert_int_eq(match("obj.status != 200", 0), 0);
	ck_assert_int_eq(match("obj.status >= 500", 0), 0);
	ck_assert_int_eq(match("obj.ttl > 90s", 0), 1);
	ck_assert_int_eq(match("obj.ttl > 2m", 0), 0);
	ck_assert_int_eq(match("obj.age <= 20", 0), 1);
	ck_assert_int_eq(match("obj.age < 20", 0), 0);
	ck_assert_int_eq(match("obj.grace == 10s", 0), 1);
	ck_assert_int_eq(match("obj.keep > 0", 0), 0);
}
END_TEST

START_TEST(eval_request)
{

	rhdrs.lines[0] = "Host: www.example.com";
	ohdrs.lines[0] = "X-Tag: sport";
	ck_assert_int_eq(match("req.url ~ ^/news/", 1), 1);
	ck_assert_int_eq(match("req.url ~ ^/news/", 0), -1);
	ck_assert_int_eq(match("req.url == /news/sport", 1), 0);
	ck_assert_int_eq(match("req.http.host == www.example.com", 1), 1);
	ck_assert_int_eq(match("req.http.Host == example.com", 1), 0);
	/* An object condition that fails decides without the request. */
	ck_assert_int_eq(match("req.url ~ ^/news/ && obj.status == 404", 0),
	    0);
	ck_assert_int_eq(match("req.url ~ ^/news/ && obj.http.X-Tag == sport",
	    0), -1);
	ck_assert_int_eq(match("req.url ~ ^/news/ && obj.http.X-Tag == sport",
	    1), 1);
	/* The same field twice: both must hold. */
	ck_assert_int_eq(match("req.url ~ news && req.url ~ weather", 1), 0);
	ck_assert_int_eq(match("req.url ~ news && req.url ~ sport", 1), 1);
}
END_TEST

START_TEST(limits)
{
	char s[2048], err[256];
	struct ban_expr *be;
	size_t l = 0;
	int u;

	for (u = 0; u < 17; u++)
		l += (size_t)snprintf(s + l, sizeof s - l, "%sobj.status != %d",
		    u ? " && " : "", u);
	be = BAN_ExprParseString(s, err, sizeof err);
	ck_assert_ptr_null(be);
	ck_assert_msg(strstr(err, "at most 16") != NULL, "%s", err);
}
END_TEST

static Suite *
ban_expr_suite(void)
{
	Suite *s = suite_create("ban_expr");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, canonical_text);
	tcase_add_test(tc, canonical_durations);
	tcase_add_test(tc, eval_strings);
	tcase_add_test(tc, eval_numbers);
	tcase_add_test(tc, eval_request);
	tcase_add_test(tc, limits);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr = srunner_create(ban_expr_suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_dns_srv.c -- unit tests of the SRV side of src/cache/
 * backend_dns.c (the dynamic director's .service()): VENEER_SRV_FILE's
 * lines (hostile ones too), RFC 2782 order, parsing DNS answers in wire
 * format (compressed names, records of other types, "." targets,
 * truncation), and the weighted choice's bounds.  No test asks real DNS.
 */

#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache/backend.h"

/* VENEER_SRV_FILE lines ---------------------------------------------------*/

static const struct {
	const char	*line;
	int		want;		/* DNS_SrvFileLine's answer */
	unsigned	pri, wei, port;
	const char	*target;
} lines[] = {
	{ "_http._tcp.svc.test 10 5 8080 a.test\n", 1, 10, 5, 8080,
	    "a.test" },
	{ "_HTTP._tcp.SVC.test\t0 0 1 b.test # comment\n", 1, 0, 0, 1,
	    "b.test" },
	{ "_http._tcp.other.test 10 5 8080 a.test\n", 0, 0, 0, 0, NULL },
	{ "# _http._tcp.svc.test 10 5 8080 a.test\n", 0, 0, 0, 0, NULL },
	{ "\n", 0, 0, 0, 0, NULL },
	{ "_http._tcp.svc.test 10 5 0 a.test\n", -1, 0, 0, 0, NULL },
	{ "_http._tcp.svc.test 65536 5 80 a.test\n", -1, 0, 0, 0, NULL },
	{ "_http._tcp.svc.test -1 5 80 a.test\n", -1, 0, 0, 0, NULL },
	{ "_http._tcp.svc.test 1 5x 80 a.test\n", -1, 0, 0, 0, NULL },
	{ "_http._tcp.svc.test 1 5 80\n", -1, 0, 0, 0, NULL },
	{ "_http._tcp.svc.test 1 5 80 a.test extra\n", -1, 0, 0, 0, NULL },
	{ "_http._tcp.svc.test 65535 65535 65535 z.test", 1, 65535, 65535,
	    65535, "z.test" },
};

START_TEST(file_lines)
{
	struct dns_srv srv;
	char line[512];

	(void)snprintf(line, sizeof line, "%s", lines[_i].line);
	memset(&srv, 0, sizeof srv);
	ck_assert_int_eq(DNS_SrvFileLine(line, "_http._tcp.svc.test", &srv),
	    lines[_i].want);
	if (lines[_i].want != 1)
		return;
	ck_assert_uint_eq(srv.priority, lines[_i].pri);
	ck_assert_uint_eq(srv.weight, lines[_i].wei);
	ck_assert_uint_eq(srv.port, lines[_i].port);
	ck_assert_str_eq(srv.target, lines[_i].target);
}
END_TEST

/* The file, read whole: name's records in RFC 2782 order. */
START_TEST(file_order)
{
	char path[64], why[160];
	struct dns_srv srv[8];
	FILE *f;
	int fd, n;

	(void)snprintf(path, sizeof path, "/tmp/veneer-srv.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs("_s._tcp.x.test 20 1 81 c.test\n"
	    "junk line\n"
	    "_s._tcp.x.test 10 1 82 b.test\n"
	    "_s._tcp.other.test 1 1 83 z.test\n"
	    "_s._tcp.x.test 10 9 84 a.test\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(setenv("VENEER_SRV_FILE", path, 1), 0);
	n = DNS_ResolveSrv("_s._tcp.x.test", srv, 8, why, sizeof why);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(srv[0].target, "a.test");	/* 10, weight 9 */
	ck_assert_str_eq(srv[1].target, "b.test");	/* 10, weight 1 */
	ck_assert_str_eq(srv[2].target, "c.test");	/* 20 */
	ck_assert_uint_eq(srv[2].port, 81);
	/* At most max. */
	ck_assert_int_eq(DNS_ResolveSrv("_s._tcp.x.test", srv, 1, why,
	    sizeof why), 1);
	/* Not listed, and under .invalid: no query goes out. */
	ck_assert_int_eq(DNS_ResolveSrv("_s._tcp.none.invalid", srv, 8, why,
	    sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, ".invalid"));
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(DNS_ResolveSrv("_s._tcp.x.test", srv, 8, why,
	    sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "unreadable"));
	ck_assert_int_eq(unsetenv("VENEER_SRV_FILE"), 0);
}
END_TEST

/* DNS answers -------------------------------------------------------------*/

struct wire {
	unsigned char	b[512];
	int		n;
};

static void
w16(struct wire *w, unsigned v)
{

	w->b[w->n++] = (unsigned char)(v >> 8);
	w->b[w->n++] = (unsigned char)v;
}

static void
wname(struct wire *w, const char *name)
{
	const char *dot;
	size_t l;

	while (*name != '\0') {
		dot = strchr(name, '.');
		l = dot != NULL ? (size_t)(dot - name) : strlen(name);
		w->b[w->n++] = (unsigned char)l;
		memcpy(w->b + w->n, name, l);
		w->n += (int)l;
		name += l + (dot != NULL);
	}
	w->b[w->n++] = 0;
}

/* An answer record whose owner is the question's name (pointer 12). */
static void
wrr_srv(struct wire *w, unsigned pri, unsigned wei, unsigned port,
    const char *target)
{
	int len_at;

	w16(w, 0xc00c);
	w16(w, 33);		/* SRV */
	w16(w, 1);		/* IN */
	w16(w, 0);
	w16(w, 60);		/* TTL */
	len_at = w->n;
	w16(w, 0);
	w16(w, pri);
	w16(w, wei);
	w16(w, port);
	wname(w, target);
	w->b[len_at] = (unsigned char)((w->n - len_at - 2) >> 8);
	w->b[len_at + 1] = (unsigned char)(w->n - len_at - 2);
}

static void
wanswer(struct wire *w, unsigned nan)
{

	memset(w, 0, sizeof *w);
	w16(w, 0x1234);
	w16(w, 0x8180);		/* a response, recursion */
	w16(w, 1);
	w16(w, nan);
	w16(w, 0);
	w16(w, 0);
	wname(w, "_http._tcp.svc.test");
	w16(w, 33);
	w16(w, 1);
}

START_TEST(answer_parse)
{
	struct dns_srv srv[8];
	struct wire w;
	char why[160];
	int n, len_at;

	wanswer(&w, 4);
	/* A CNAME on the way: skipped. */
	w16(&w, 0xc00c);
	w16(&w, 5);
	w16(&w, 1);
	w16(&w, 0);
	w16(&w, 60);
	len_at = w.n;
	w16(&w, 0);
	wname(&w, "elsewhere.test");
	w.b[len_at + 1] = (unsigned char)(w.n - len_at - 2);
	wrr_srv(&w, 20, 1, 8081, "b.test");
	wrr_srv(&w, 10, 60, 8080, "a.test");
	/* "." : not offered here (RFC 2782). */
	wrr_srv(&w, 5, 1, 80, "");
	n = DNS_SrvParseAnswer(w.b, w.n, srv, 8, why, sizeof why);
	ck_assert_int_eq(n, 2);
	DNS_SrvSort(srv, (unsigned)n);
	ck_assert_str_eq(srv[0].target, "a.test");
	ck_assert_uint_eq(srv[0].priority, 10);
	ck_assert_uint_eq(srv[0].weight, 60);
	ck_assert_uint_eq(srv[0].port, 8080);
	ck_assert_str_eq(srv[1].target, "b.test");
	ck_assert_uint_eq(srv[1].port, 8081);

	/* Truncated in the last record: malformed, not half a list. */
	ck_assert_int_eq(DNS_SrvParseAnswer(w.b, w.n - 3, srv, 8, why,
	    sizeof why), -1);
	ck_assert_ptr_nonnull(strstr(why, "malformed"));
	/* No answer. */
	wanswer(&w, 0);
	ck_assert_int_eq(DNS_SrvParseAnswer(w.b, w.n, srv, 8, why,
	    sizeof why), 0);
	ck_assert_str_eq(why, "no SRV record");
	/* Garbage. */
	ck_assert_int_eq(DNS_SrvParseAnswer((const unsigned char *)"xx", 2,
	    srv, 8, why, sizeof why), -1);
}
END_TEST

/* weighted choice ---------------------------------------------------------*/

START_TEST(pick_bounds)
{
	const unsigned w[] = { 0, 10, 0, 30 }, z[] = { 0, 0, 0 }, one[] = { 7 };
	unsigned count[4] = { 0, 0, 0, 0 }, i, k;

	/* The ends of r's range: the first and last with weight. */
	ck_assert_uint_eq(DNS_SrvPick(w, 4, 0), 1);
	ck_assert_uint_eq(DNS_SrvPick(w, 4, UINT32_MAX), 3);
	/* Evenly spread r: in proportion to the weights, never a 0. */
	for (i = 0; i < 4096; i++) {
		k = DNS_SrvPick(w, 4, i << 20);
		ck_assert_uint_lt(k, 4);
		count[k]++;
	}
	ck_assert_uint_eq(count[0], 0);
	ck_assert_uint_eq(count[2], 0);
	ck_assert_uint_eq(count[1], 1024);	/* 10/40 of 4096 */
	ck_assert_uint_eq(count[3], 3072);
	/* All weights 0: uniform. */
	ck_assert_uint_eq(DNS_SrvPick(z, 3, 0), 0);
	ck_assert_uint_eq(DNS_SrvPick(z, 3, UINT32_MAX), 2);
	ck_assert_uint_eq(DNS_SrvPick(z, 3, UINT32_MAX / 2), 1);
	ck_assert_uint_eq(DNS_SrvPick(one, 1, UINT32_MAX), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("dns_srv");
	TCase *tc = tcase_create("dns_srv");
	SRunner *sr;
	int nf;

	tcase_add_loop_test(tc, file_lines, 0,
	    (int)(sizeof lines / sizeof lines[0]));
	tcase_add_test(tc, file_order);
	tcase_add_test(tc, answer_parse);
	tcase_add_test(tc, pick_bounds);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

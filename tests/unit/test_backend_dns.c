/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_backend_dns.c -- unit tests of DNS_Resolve (src/cache/
 * backend_dns.c): numeric hosts, VENEER_HOSTS_FILE (file order, aliases,
 * case, comments, duplicates, IPv6, junk lines, an unreadable file) and
 * .invalid names that never reach DNS.  No test asks real DNS.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "cache/backend.h"

static char hosts[64];

static void
setup(void)
{
	int fd;

	(void)snprintf(hosts, sizeof hosts, "/tmp/veneer-hosts.XXXXXX");
	fd = mkstemp(hosts);
	ck_assert_int_ge(fd, 0);
	(void)close(fd);
	ck_assert_int_eq(setenv("VENEER_HOSTS_FILE", hosts, 1), 0);
}

static void
teardown(void)
{

	(void)unlink(hosts);
	(void)unsetenv("VENEER_HOSTS_FILE");
}

static void
hosts_text(const char *text)
{
	FILE *f = fopen(hosts, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* Resolve host; the addresses as "ip ip ...", n in *np. */
static void
resolve(const char *host, char *buf, size_t len, unsigned *np,
    int *numeric, char *why, size_t whylen)
{
	struct backend_addrs *a;
	size_t l = 0;
	unsigned u;

	a = DNS_Resolve(host, "8080", numeric, why, whylen);
	ck_assert_ptr_nonnull(a);
	CHECK_OBJ(a, BACKEND_ADDRS_MAGIC);
	buf[0] = '\0';
	for (u = 0; u < a->n; u++)
		l += (size_t)snprintf(buf + l, len - l, "%s%s", u ? " " : "",
		    a->addr[u].ip);
	*np = a->n;
	BACKEND_AddrsDeref(&a);
	ck_assert_ptr_null(a);
}

static const struct {
	const char	*file;
	const char	*host;
	const char	*want;		/* "" : none */
	int		numeric;
} cases[] = {
	{ "", "192.0.2.7", "192.0.2.7", 1 },
	{ "", "::1", "::1", 1 },
	{ "10.0.0.1 app\n", "app", "10.0.0.1", 0 },
	/* File order, aliases, case, comments, duplicates. */
	{ "10.0.0.2 b app\n# 10.0.0.9 app\n10.0.0.1 APP x # c\n"
	    "10.0.0.2 app\n", "app", "10.0.0.2 10.0.0.1", 0 },
	{ "::1 six\n127.0.0.1 six\n", "six", "::1 127.0.0.1", 0 },
	/* Junk lines and a bad address are skipped, not fatal. */
	{ "app\nnot-an-ip app\n\n\t\n10.0.0.3\tapp\n", "app", "10.0.0.3",
	    0 },
	/* A name is matched whole (names under .invalid: no DNS). */
	{ "10.0.0.1 x.app.invalid\n", "app.invalid", "", 0 },
	{ "10.0.0.1 app.invalid\n", "b.app.invalid", "", 0 },
	{ "10.0.0.1 app.invalid.x\n", "app.invalid", "", 0 },
	/* .invalid: never DNS; only the file. */
	{ "", "app.invalid", "", 0 },
	{ "", "invalid.", "", 0 },
	{ "10.0.0.4 app.invalid\n", "app.invalid", "10.0.0.4", 0 },
};

START_TEST(hosts_file)
{
	char buf[512], why[160];
	unsigned n;
	int numeric;

	hosts_text(cases[_i].file);
	resolve(cases[_i].host, buf, sizeof buf, &n, &numeric, why,
	    sizeof why);
	ck_assert_msg(!strcmp(buf, cases[_i].want), "%s: \"%s\", want "
	    "\"%s\" (%s)", cases[_i].host, buf, cases[_i].want, why);
	ck_assert_int_eq(numeric, cases[_i].numeric);
	if (n == 0)
		ck_assert_msg(why[0] != '\0', "%s: no reason", cases[_i].host);
}
END_TEST

START_TEST(unreadable_file)
{
	char buf[512], why[160];
	unsigned n;
	int numeric;

	ck_assert_int_eq(setenv("VENEER_HOSTS_FILE", "/nonexistent/hosts",
	    1), 0);
	resolve("app.invalid", buf, sizeof buf, &n, &numeric, why,
	    sizeof why);
	ck_assert_uint_eq(n, 0);
	ck_assert_msg(strstr(why, "/nonexistent/hosts") != NULL, "%s", why);
	/* A numeric host needs no file. */
	resolve("127.0.0.1", buf, sizeof buf, &n, &numeric, why, sizeof why);
	ck_assert_uint_eq(n, 1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("backend_dns");
	TCase *tc = tcase_create("resolve");
	SRunner *sr;
	int nf;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, hosts_file, 0,
	    (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, unreadable_file);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}

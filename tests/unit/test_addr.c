/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_addr.c -- unit tests of ADDR_Split, the reader of -a, -b, -T, -M
 * and veneeradm -T arguments: every accepted form, every refusal, and
 * buffers that are too small.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/addr.h"

static const struct addr_case {
	const char	*arg;
	unsigned	flags;
	const char	*host;		/* NULL: refused */
	const char	*port;
} addr_cases[] = {
	{ "127.0.0.1:6082", 0, "127.0.0.1", "6082" },
	{ "localhost:http", 0, "localhost", "http" },
	{ "example.com", 0, "example.com", "" },
	{ ":6082", 0, "", "6082" },
	{ "", 0, "", "" },
	{ "[::1]:80", 0, "::1", "80" },
	{ "[::1]", 0, "::1", "" },
	{ "[fe80::1%lo]:80", 0, "fe80::1%lo", "80" },
	{ "[]:80", 0, "", "80" },
	{ "::1", 0, NULL, NULL },
	{ "::1:80", 0, NULL, NULL },
	{ "[::1", 0, NULL, NULL },
	{ "[::1]80", 0, NULL, NULL },
	{ "[::1]:", 0, NULL, NULL },
	{ "host:", 0, NULL, NULL },
	{ "host:80:90", 0, NULL, NULL },
	{ "[::1]:80:90", 0, NULL, NULL },
	{ "example.com", ADDR_F_NEEDPORT, NULL, NULL },
	{ "[::1]", ADDR_F_NEEDPORT, NULL, NULL },
	{ "a:1", ADDR_F_NEEDPORT, "a", "1" },
	/* -M and shared memory: "address port" */
	{ "127.0.0.1 6082", ADDR_F_SPACE | ADDR_F_NEEDPORT, "127.0.0.1",
	    "6082" },
	{ "::1 6082", ADDR_F_SPACE | ADDR_F_NEEDPORT, "::1", "6082" },
	{ "[::1] 6082", ADDR_F_SPACE | ADDR_F_NEEDPORT, "::1", "6082" },
	{ "127.0.0.1   6082", ADDR_F_SPACE, "127.0.0.1", "6082" },
	{ "127.0.0.1:6082", ADDR_F_SPACE | ADDR_F_NEEDPORT, "127.0.0.1",
	    "6082" },
	{ "127.0.0.1 ", ADDR_F_SPACE, NULL, NULL },
	{ "a b c", ADDR_F_SPACE, "a b", "c" },
	{ "127.0.0.1 60:82", ADDR_F_SPACE, NULL, NULL },
	/* Spaces are not separators without ADDR_F_SPACE. */
	{ "127.0.0.1 6082", ADDR_F_NEEDPORT, NULL, NULL },
};

START_TEST(test_split)
{
	const struct addr_case *c = &addr_cases[_i];
	char host[64], port[16];
	const char *why = NULL;
	int r;

	r = ADDR_Split(c->arg, c->flags, host, sizeof host, port, sizeof port,
	    &why);
	if (c->host == NULL) {
		ck_assert_msg(r == -1, "\"%s\" accepted as \"%s\" \"%s\"",
		    c->arg, host, port);
		ck_assert_ptr_nonnull(why);
		ck_assert_int_gt(strlen(why), 5);
		return;
	}
	ck_assert_msg(r == 0, "\"%s\" refused: %s", c->arg, why);
	ck_assert_str_eq(host, c->host);
	ck_assert_str_eq(port, c->port);
}
END_TEST

START_TEST(test_too_long)
{
	char host[8], port[4], arg[300];
	const char *why;

	ck_assert_int_eq(ADDR_Split("12345678:1", 0, host, sizeof host, port,
	    sizeof port, &why), -1);
	ck_assert_str_eq(why, "too long");
	ck_assert_int_eq(ADDR_Split("1234567:1", 0, host, sizeof host, port,
	    sizeof port, &why), 0);
	ck_assert_int_eq(ADDR_Split("a:1234", 0, host, sizeof host, port,
	    sizeof port, &why), -1);
	memset(arg, 'x', sizeof arg - 1);
	arg[sizeof arg - 1] = '\0';
	ck_assert_int_eq(ADDR_Split(arg, 0, host, sizeof host, port,
	    sizeof port, &why), -1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("addr");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int nf;

	tcase_add_loop_test(tc, test_split, 0,
	    (int)(sizeof addr_cases / sizeof addr_cases[0]));
	tcase_add_test(tc, test_too_long);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_cli.c -- unit tests of the CLI protocol: responses written and
 * read back over a socketpair (exact bytes, empty, large and multi-line
 * bodies, timeout, EOF, malformed status lines), request lines, and the
 * argument splitter with hostile input.
 */

#include "config.h"

#include <check.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/cli.h"
#include "common/tim.h"

#define S(x)		x, (sizeof(x) - 1)
#define TIMEOUT		5.0	/* for reads that must not time out */

/* fd[0] is read by the test, fd[1] written. */
static int fd[2];

static void
pair_setup(void)
{

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fd), 0);
}

static void
pair_teardown(void)
{

	if (fd[0] >= 0)
		(void)close(fd[0]);	/* nothing to do if it fails */
	if (fd[1] >= 0)
		(void)close(fd[1]);
	fd[0] = fd[1] = -1;
}

static void
close_writer(void)
{

	ck_assert_int_eq(close(fd[1]), 0);
	fd[1] = -1;
}

static void
write_raw(const char *s, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd[1], s, len);
		ck_assert_int_gt(n, 0);
		s += n;
		len -= (size_t)n;
	}
}

/* Exactly len bytes from fd[0], or fail. */
static void
read_raw(char *buf, size_t len)
{
	struct pollfd pfd;
	ssize_t n;

	while (len > 0) {
		pfd.fd = fd[0];
		pfd.events = POLLIN;
		ck_assert_int_eq(poll(&pfd, 1, 5000), 1);
		n = read(fd[0], buf, len);
		ck_assert_int_gt(n, 0);
		buf += n;
		len -= (size_t)n;
	}
}

/* Nothing more is waiting on fd[0]. */
static void
assert_drained(void)
{
	struct pollfd pfd;

	pfd.fd = fd[0];
	pfd.events = POLLIN;
	ck_assert_int_eq(poll(&pfd, 1, 0), 0);
}

/* Responses --------------------------------------------------------*/

START_TEST(test_result_bytes)
{
	char buf[64];

	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_OK, "hello"), 0);
	read_raw(buf, 19);
	ck_assert_int_eq(memcmp(buf, "200 5       \nhello\n", 19), 0);
	assert_drained();

	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_CANT, "xyz"), 0);
	read_raw(buf, 17);
	ck_assert_int_eq(memcmp(buf, "300 3       \nxyz\n", 17), 0);
	assert_drained();
}
END_TEST

START_TEST(test_result_roundtrip)
{
	unsigned status;
	char *body;

	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_OK, "hello"), 0);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_uint_eq(status, CLIS_OK);
	ck_assert_str_eq(body, "hello");
	free(body);
	assert_drained();

	/* Two in a row: each read takes exactly its own bytes. */
	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_UNKNOWN, "first"), 0);
	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_CLOSE, "second"), 0);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_uint_eq(status, CLIS_UNKNOWN);
	ck_assert_str_eq(body, "first");
	free(body);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_uint_eq(status, CLIS_CLOSE);
	ck_assert_str_eq(body, "second");
	free(body);
	assert_drained();
}
END_TEST

START_TEST(test_result_empty)
{
	unsigned status;
	char buf[16], *body;

	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_OK, ""), 0);
	read_raw(buf, 14);
	ck_assert_int_eq(memcmp(buf, "200 0       \n\n", 14), 0);
	assert_drained();

	/* NULL is an empty body. */
	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_OK, NULL), 0);
	read_raw(buf, 14);
	ck_assert_int_eq(memcmp(buf, "200 0       \n\n", 14), 0);

	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_TRUNCATED, ""), 0);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_uint_eq(status, CLIS_TRUNCATED);
	ck_assert_ptr_nonnull(body);
	ck_assert_str_eq(body, "");
	free(body);
	assert_drained();
}
END_TEST

START_TEST(test_result_newlines)
{
	static const char s[] = "line 1\nline 2\n\n200 5       \nx\n";
	unsigned status;
	char *body;

	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_OK, s), 0);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_uint_eq(status, CLIS_OK);
	ck_assert_str_eq(body, s);
	free(body);
	assert_drained();
}
END_TEST

START_TEST(test_result_status_range)
{
	unsigned status;
	char *body;

	ck_assert_int_eq(CLI_WriteResult(fd[1], 100, "lo"), 0);
	ck_assert_int_eq(CLI_WriteResult(fd[1], 999, "hi"), 0);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_uint_eq(status, 100);
	ck_assert_str_eq(body, "lo");
	free(body);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_uint_eq(status, 999);
	ck_assert_str_eq(body, "hi");
	free(body);
}
END_TEST

/* A body bigger than the socket buffers needs a writer thread. */
struct big {
	const char	*body;
	int		ret;
};

static void *
big_writer(void *priv)
{
	struct big *b = priv;

	b->ret = CLI_WriteResult(fd[1], CLIS_OK, b->body);
	return (NULL);
}

START_TEST(test_result_large)
{
	const size_t len = 4 * 1024 * 1024;
	struct big b;
	pthread_t thr;
	unsigned status;
	char *s, *body;
	size_t u;

	s = malloc(len + 1);
	ck_assert_ptr_nonnull(s);
	for (u = 0; u < len; u++)
		s[u] = (char)('a' + u % 23);
	s[len] = '\0';
	b.body = s;
	b.ret = -2;
	ck_assert_int_eq(pthread_create(&thr, NULL, big_writer, &b), 0);
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), 0);
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	ck_assert_int_eq(b.ret, 0);
	ck_assert_uint_eq(status, CLIS_OK);
	ck_assert_uint_eq(strlen(body), len);
	ck_assert_int_eq(memcmp(body, s, len), 0);
	free(body);
	free(s);
	assert_drained();
}
END_TEST

START_TEST(test_result_timeout)
{
	unsigned status = CLIS_OK;
	char *body = (char *)(uintptr_t)1;
	vtim_mono t0, dt;

	t0 = TIM_mono();
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, 0.2), -1);
	dt = TIM_mono() - t0;
	ck_assert_uint_eq(status, CLIS_COMMS);
	ck_assert_ptr_null(body);
	ck_assert(dt >= 0.19);
	ck_assert(dt < 3.0);
}
END_TEST

/* The deadline covers the whole response, not each read. */
START_TEST(test_result_timeout_mid_body)
{
	unsigned status;
	char *body;
	vtim_mono t0;

	write_raw(S("200 10      \nhello"));
	t0 = TIM_mono();
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, 0.2), -1);
	ck_assert(TIM_mono() - t0 < 3.0);
	ck_assert_uint_eq(status, CLIS_COMMS);
	ck_assert_ptr_null(body);
}
END_TEST

START_TEST(test_result_eof)
{
	unsigned status;
	char *body;

	close_writer();
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), -1);
	ck_assert_uint_eq(status, CLIS_COMMS);
	ck_assert_ptr_null(body);
}
END_TEST

START_TEST(test_result_eof_mid_status)
{
	unsigned status;
	char *body;
	vtim_mono t0;

	write_raw(S("200 5"));
	close_writer();
	t0 = TIM_mono();
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), -1);
	/* EOF is noticed at once, not at the deadline. */
	ck_assert(TIM_mono() - t0 < TIMEOUT / 2);
	ck_assert_uint_eq(status, CLIS_COMMS);
	ck_assert_ptr_null(body);
}
END_TEST

START_TEST(test_result_eof_mid_body)
{
	unsigned status;
	char *body;
	vtim_mono t0;

	write_raw(S("200 10      \nhello"));
	close_writer();
	t0 = TIM_mono();
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), -1);
	ck_assert(TIM_mono() - t0 < TIMEOUT / 2);
	ck_assert_uint_eq(status, CLIS_COMMS);
	ck_assert_ptr_null(body);
}
END_TEST

/* The body is there but its trailing newline is not. */
START_TEST(test_result_eof_before_newline)
{
	unsigned status;
	char *body;

	write_raw(S("200 5       \nhello"));
	close_writer();
	ck_assert_int_eq(CLI_ReadResult(fd[0], &status, &body, TIMEOUT), -1);
	ck_assert_uint_eq(status, CLIS_COMMS);
	ck_assert_ptr_null(body);
}
END_TEST

/*
 * Status lines that must be refused.  Each is followed by enough bytes
 * that a lenient reader would find a body, and the writer then closes,
 * so a wrong acceptance shows as 0, never as a hang.
 */
static const struct bad_status {
	const char	*name;
	const char	*s;
	size_t		len;
} bad_status[] = {
	{ "letters for status", S("abc 5       \nhello\n") },
	{ "letter in status", S("2x0 5       \nhello\n") },
	{ "sign in status", S("+20 5       \nhello\n") },
	{ "space in status", S(" 20 5       \nhello\n") },
	{ "status 000", S("000 5       \nhello\n") },
	{ "status 099", S("099 5       \nhello\n") },
	{ "status 4 digits", S("2000 5      \nhello\n") },
	{ "status 2 digits", S("20 5        \nhello\n") },
	{ "no space after status", S("200_5       \nhello\n") },
	{ "letters for length", S("200 abc     \nhello\n") },
	{ "empty length", S("200         \nhello\n") },
	{ "letter after length", S("200 5x      \nhello\n") },
	{ "letter in padding", S("200 5      x\nhello\n") },
	{ "two numbers", S("200 5 5     \nhello\n") },
	{ "space before length", S("200  5      \nhello\n") },
	{ "sign in length", S("200 +5      \nhello\n") },
	{ "negative length", S("200 -5      \nhello\n") },
	{ "hex length", S("200 0x5     \nhello\n") },
	{ "tab in padding", S("200 5\t      \nhello\n") },
	{ "newline in padding", S("200 5\n      \nhello\n") },
	{ "length over 64 MB", S("200 67108865\nhello\n") },
	{ "length 8 nines", S("200 99999999\nhello\n") },
	{ "short line", S("200 5\nhello\n") },
	{ "line one short", S("200 5      \nhello\n") },
	{ "line one long", S("200 5        \nhello\n") },
	{ "CRLF", S("200 5      \r\nhello\n") },
	{ "no newline", S("200 5       hello\n") },
	{ "empty", S("") },
	{ "blank line", S("\n") },
	{ "NUL bytes", S("\0\0\0\0\0\0\0\0\0\0\0\0\0hello\n") },
};

START_TEST(test_result_bad_table)
{
	const struct bad_status *bs = &bad_status[_i];
	unsigned status;
	char *body;

	write_raw(bs->s, bs->len);
	close_writer();
	body = NULL;
	if (CLI_ReadResult(fd[0], &status, &body, TIMEOUT) != -1)
		ck_abort_msg("%s: accepted (status %u, body \"%s\")",
		    bs->name, status, body);
	ck_assert_msg(status == CLIS_COMMS, "%s: status %u", bs->name,
	    status);
	ck_assert_msg(body == NULL, "%s: body set", bs->name);
}
END_TEST

/* Requests ---------------------------------------------------------*/

START_TEST(test_request)
{
	char buf[32];

	ck_assert_int_eq(CLI_WriteRequest(fd[1], "ping"), 0);
	read_raw(buf, 5);
	ck_assert_int_eq(memcmp(buf, "ping\n", 5), 0);
	assert_drained();

	ck_assert_int_eq(CLI_WriteRequest(fd[1], ""), 0);
	read_raw(buf, 1);
	ck_assert_int_eq(buf[0], '\n');
	assert_drained();

	ck_assert_int_eq(CLI_WriteRequest(fd[1], "param.set \"a b\" 1"), 0);
	read_raw(buf, 18);
	ck_assert_int_eq(memcmp(buf, "param.set \"a b\" 1\n", 18), 0);
	assert_drained();
}
END_TEST

START_TEST(test_request_closed)
{

	ck_assert_int_eq(close(fd[0]), 0);
	fd[0] = -1;
	/* SIGPIPE is ignored in main(). */
	ck_assert_int_eq(CLI_WriteRequest(fd[1], "ping"), -1);
	ck_assert_int_eq(CLI_WriteResult(fd[1], CLIS_OK, "x"), -1);
}
END_TEST

/* Arguments --------------------------------------------------------*/

#define MAXW	8

static const struct args_case {
	const char	*name;
	const char	*line;
	unsigned	n;
	const char	*w[MAXW];
} args_cases[] = {
	{ "empty", "", 0, { NULL } },
	{ "blanks", "  \t \n ", 0, { NULL } },
	{ "one", "ping", 1, { "ping" } },
	{ "three", "param.set foo 10", 3, { "param.set", "foo", "10" } },
	{ "extra blanks", "  param.set \t foo  10   ", 3,
	    { "param.set", "foo", "10" } },
	{ "trailing newline", "ping\n", 1, { "ping" } },
	{ "trailing CRLF", "ping\r\n", 1, { "ping" } },
	{ "quoted", "\"hello world\"", 1, { "hello world" } },
	{ "quoted among", "a \"b c\" d", 3, { "a", "b c", "d" } },
	{ "empty quotes", "\"\"", 1, { "" } },
	{ "empty quotes among", "a \"\" b", 3, { "a", "", "b" } },
	{ "quoted blanks", "\"  \t \"", 1, { "  \t " } },
	{ "escape n", "\"a\\nb\"", 1, { "a\nb" } },
	{ "escape t", "\"a\\tb\"", 1, { "a\tb" } },
	{ "escape r", "\"a\\rb\"", 1, { "a\rb" } },
	{ "escape quote", "\"say \\\"hi\\\"\"", 1, { "say \"hi\"" } },
	{ "escape backslash", "\"c:\\\\dir\"", 1, { "c:\\dir" } },
	{ "escaped backslash at end", "\"x\\\\\"", 1, { "x\\" } },
	{ "escape hex", "\"\\x41\\x62\\x7e\"", 1, { "Ab~" } },
	{ "escape hex case", "\"\\x4a\\x4A\"", 1, { "JJ" } },
	{ "escape hex 01", "\"\\x01\"", 1, { "\x01" } },
	{ "escape hex high", "\"\\xff\\x80\"", 1, { "\xff\x80" } },
	{ "escape hex then digit", "\"\\x414\"", 1, { "A4" } },
	{ "all escapes", "x \"\\n\\t\\\"\\\\\\x20\" y", 3,
	    { "x", "\n\t\"\\ ", "y" } },
	/* Outside quotes a backslash is an ordinary character. */
	{ "backslash unquoted", "a\\nb", 1, { "a\\nb" } },
	{ "quote inside word", "ab\"c", 1, { "ab\"c" } },
	{ "high bytes", "\xc3\xa9t\xc3\xa9", 1, { "\xc3\xa9t\xc3\xa9" } },
};

START_TEST(test_args_table)
{
	const struct args_case *ac = &args_cases[_i];
	const char *err = "unset";
	char **av;
	unsigned u;

	av = CLI_ParseArgs(ac->line, &err);
	ck_assert_msg(av != NULL, "%s: refused: %s", ac->name, err);
	ck_assert_msg(err == NULL, "%s: err set on success", ac->name);
	for (u = 0; u < ac->n; u++) {
		ck_assert_msg(av[u] != NULL, "%s: %u words, want %u",
		    ac->name, u, ac->n);
		ck_assert_msg(strcmp(av[u], ac->w[u]) == 0,
		    "%s: word %u is \"%s\"", ac->name, u, av[u]);
	}
	ck_assert_msg(av[ac->n] == NULL, "%s: more than %u words", ac->name,
	    ac->n);
	CLI_FreeArgs(av);
}
END_TEST

static const struct args_bad {
	const char	*line;
	const char	*err;
} args_bad[] = {
	{ "\"abc", "unterminated quoted string" },
	{ "\"", "unterminated quoted string" },
	{ "a b \"c d", "unterminated quoted string" },
	{ "\"abc\\\"", "unterminated quoted string" },
	{ "\"a\\\"", "unterminated quoted string" },
	{ "\"\\x00\"", "invalid backslash escape" },
	{ "a \"b\\x00c\" d", "invalid backslash escape" },
	{ "\"\\x0\"", "invalid backslash escape" },
	{ "\"\\x\"", "invalid backslash escape" },
	{ "\"\\x", "invalid backslash escape" },
	{ "\"\\x4", "invalid backslash escape" },
	{ "\"\\xg0\"", "invalid backslash escape" },
	{ "\"\\x0g\"", "invalid backslash escape" },
	{ "\"\\x-1\"", "invalid backslash escape" },
	{ "\"\\x\xff\xff\"", "invalid backslash escape" },
	{ "\"\\q\"", "invalid backslash escape" },
	{ "\"\\0\"", "invalid backslash escape" },
	{ "\"\\ \"", "invalid backslash escape" },
	{ "\"\\", "invalid backslash escape" },
	/* A bad word after many good ones: nothing leaks (ASan). */
	{ "a b c d e f g h i j k \"l", "unterminated quoted string" },
	{ "a b c d e f g h i j k \"\\z\"", "invalid backslash escape" },
};

START_TEST(test_args_bad_table)
{
	const struct args_bad *ab = &args_bad[_i];
	const char *err = NULL;
	char **av;

	av = CLI_ParseArgs(ab->line, &err);
	if (av != NULL) {
		CLI_FreeArgs(av);
		ck_abort_msg("[%s]: accepted", ab->line);
	}
	ck_assert_msg(err != NULL && strcmp(err, ab->err) == 0,
	    "[%s]: err \"%s\", want \"%s\"", ab->line, err, ab->err);
}
END_TEST

/* Around the initial 8 slots and well past them. */
START_TEST(test_args_many)
{
	static const unsigned counts[] = { 6, 7, 8, 9, 15, 16, 17, 100, 1000 };
	char line[8192], want[16], **av;
	const char *err;
	unsigned c, u;
	size_t l;

	for (c = 0; c < ARRAY_SIZE(counts); c++) {
		l = 0;
		for (u = 0; u < counts[c]; u++)
			l += (size_t)snprintf(line + l, sizeof line - l,
			    u % 2 ? " w%u " : "\t\"w%u\"", u);
		ck_assert_uint_lt(l, sizeof line);
		av = CLI_ParseArgs(line, &err);
		ck_assert_ptr_nonnull(av);
		for (u = 0; u < counts[c]; u++) {
			ck_assert_ptr_nonnull(av[u]);
			/* "w" and at most 4 digits: fits. */
			(void)snprintf(want, sizeof want, "w%u", u);
			ck_assert_str_eq(av[u], want);
		}
		ck_assert_ptr_null(av[counts[c]]);
		CLI_FreeArgs(av);
	}
}
END_TEST

START_TEST(test_args_free_null)
{

	CLI_FreeArgs(NULL);
}
END_TEST

/* Any word, quoted, splits back to itself, alone and among others. */
START_TEST(test_quote_word_roundtrip)
{
	char word[64], *q, *line, **av;
	const char *err;
	unsigned u, n;

	q = CLI_QuoteWord("plain");
	ck_assert_str_eq(q, "plain");
	free(q);
	q = CLI_QuoteWord("");
	ck_assert_str_eq(q, "\"\"");
	free(q);
	q = CLI_QuoteWord("a b\"c\\\n\x01");
	ck_assert_str_eq(q, "\"a b\\\"c\\\\\\n\\x01\"");
	free(q);
	srandom(7);
	for (u = 0; u < 2000; u++) {
		n = (unsigned)(random() % (sizeof word - 1));
		for (unsigned k = 0; k < n; k++)
			word[k] = (char)(1 + random() % 255);
		word[n] = '\0';
		q = CLI_QuoteWord(word);
		ck_assert_ptr_nonnull(q);
		ck_assert_int_gt(asprintf(&line, "cmd %s tail", q), 0);
		av = CLI_ParseArgs(line, &err);
		ck_assert_msg(av != NULL, "%s: %s", line, err);
		ck_assert_str_eq(av[0], "cmd");
		ck_assert_str_eq(av[1], word);
		ck_assert_str_eq(av[2], "tail");
		ck_assert_ptr_null(av[3]);
		CLI_FreeArgs(av);
		free(line);
		free(q);
	}
}
END_TEST

static Suite *
cli_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("cli");

	tc = tcase_create("result");
	tcase_add_checked_fixture(tc, pair_setup, pair_teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_result_bytes);
	tcase_add_test(tc, test_result_roundtrip);
	tcase_add_test(tc, test_result_empty);
	tcase_add_test(tc, test_result_newlines);
	tcase_add_test(tc, test_result_status_range);
	tcase_add_test(tc, test_result_large);
	tcase_add_test(tc, test_result_timeout);
	tcase_add_test(tc, test_result_timeout_mid_body);
	tcase_add_test(tc, test_result_eof);
	tcase_add_test(tc, test_result_eof_mid_status);
	tcase_add_test(tc, test_result_eof_mid_body);
	tcase_add_test(tc, test_result_eof_before_newline);
	tcase_add_loop_test(tc, test_result_bad_table, 0,
	    (int)ARRAY_SIZE(bad_status));
	suite_add_tcase(s, tc);

	tc = tcase_create("request");
	tcase_add_checked_fixture(tc, pair_setup, pair_teardown);
	tcase_add_test(tc, test_request);
	tcase_add_test(tc, test_request_closed);
	suite_add_tcase(s, tc);

	tc = tcase_create("args");
	tcase_add_loop_test(tc, test_args_table, 0,
	    (int)ARRAY_SIZE(args_cases));
	tcase_add_loop_test(tc, test_args_bad_table, 0,
	    (int)ARRAY_SIZE(args_bad));
	tcase_add_test(tc, test_args_many);
	tcase_add_test(tc, test_args_free_null);
	tcase_add_test(tc, test_quote_word_roundtrip);
	suite_add_tcase(s, tc);

	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	/* Writes to a closed peer must fail with EPIPE, not kill us. */
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		return (EXIT_FAILURE);
	fd[0] = fd[1] = -1;
	sr = srunner_create(cli_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

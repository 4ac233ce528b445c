/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_adm_edit.c -- unit tests of veneeradm's line editing without a
 * terminal (tools/veneeradm/adm_edit.c): the line and its cursor with
 * ASCII and UTF-8, kills and yank, history (bounds, browsing, its file
 * and mode), key decoding including split and unknown sequences, the
 * view of long lines, and completion.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "adm_edit.h"

static struct adm_line L;

static void
line_setup(void)
{

	ADM_LineInit(&L);
}

static void
line_teardown(void)
{

	ADM_LineFini(&L);
}

/* The text, and the cursor where the '|' is in want. */
static void
line_is(const char *want)
{
	const char *bar = strchr(want, '|');
	char buf[256];

	ck_assert_ptr_nonnull(bar);
	(void)snprintf(buf, sizeof buf, "%.*s%s", (int)(bar - want), want,
	    bar + 1);
	ck_assert_str_eq(L.buf, buf);
	ck_assert_uint_eq(L.len, strlen(buf));
	ck_assert_uint_eq(L.pos, (size_t)(bar - want));
}

START_TEST(test_insert_and_move)
{

	ADM_LineInsert(&L, "pnig", 4);
	line_is("pnig|");
	ck_assert(ADM_LineLeft(&L));
	ck_assert(ADM_LineLeft(&L));
	ck_assert(ADM_LineLeft(&L));
	line_is("p|nig");
	ck_assert(ADM_LineDelete(&L));
	line_is("p|ig");
	ck_assert(ADM_LineRight(&L));
	ADM_LineInsert(&L, "n", 1);
	line_is("pin|g");
	ADM_LineHome(&L);
	line_is("|ping");
	ck_assert(!ADM_LineLeft(&L));
	ck_assert(!ADM_LineBackspace(&L));
	ADM_LineEnd(&L);
	ck_assert(!ADM_LineRight(&L));
	ck_assert(!ADM_LineDelete(&L));
	ck_assert(ADM_LineBackspace(&L));
	line_is("pin|");
	/* Growing past the first allocation. */
	ADM_LineSet(&L, "");
	for (unsigned u = 0; u < 1000; u++)
		ADM_LineInsert(&L, "x", 1);
	ck_assert_uint_eq(L.len, 1000);
	ck_assert_uint_eq(strlen(L.buf), 1000);
}
END_TEST

START_TEST(test_utf8)
{

	/* "é" is 2 bytes, "€" 3, "😀" 4. */
	ADM_LineSet(&L, "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z");
	line_is("a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z|");
	ck_assert(ADM_LineLeft(&L));
	ck_assert(ADM_LineLeft(&L));
	line_is("a\xc3\xa9\xe2\x82\xac|\xf0\x9f\x98\x80z");
	ck_assert(ADM_LineBackspace(&L));
	line_is("a\xc3\xa9|\xf0\x9f\x98\x80z");
	ck_assert(ADM_LineDelete(&L));
	line_is("a\xc3\xa9|z");
	ck_assert(ADM_LineLeft(&L));
	line_is("a|\xc3\xa9z");
	ck_assert(ADM_LineRight(&L));
	line_is("a\xc3\xa9|z");
	/* A stray continuation byte alone is a character of its own. */
	ADM_LineSet(&L, "\x80\x80");
	ck_assert(ADM_LineBackspace(&L));
	ck_assert_uint_eq(L.len, 0);
}
END_TEST

START_TEST(test_kill_and_yank)
{

	ADM_LineSet(&L, "param.set  default_ttl 10");
	ck_assert(ADM_LineKillWord(&L));
	line_is("param.set  default_ttl |");
	ck_assert(ADM_LineKillWord(&L));
	line_is("param.set  |");
	ck_assert(ADM_LineYank(&L));
	line_is("param.set  default_ttl |");
	ADM_LineHome(&L);
	ck_assert(ADM_LineWordRight(&L));
	line_is("param.set|  default_ttl ");
	ck_assert(ADM_LineKillEnd(&L));
	line_is("param.set|");
	ck_assert(!ADM_LineKillEnd(&L));
	ck_assert(ADM_LineWordLeft(&L));
	line_is("|param.set");
	ADM_LineEnd(&L);
	ck_assert(ADM_LineLeft(&L));
	ck_assert(ADM_LineKillStart(&L));
	line_is("|t");
	ck_assert(!ADM_LineKillStart(&L));
	ck_assert(ADM_LineYank(&L));
	line_is("param.se|t");
	/* Only blanks before the cursor: ^W takes them. */
	ADM_LineSet(&L, "   ");
	ck_assert(ADM_LineKillWord(&L));
	line_is("|");
}
END_TEST

START_TEST(test_history)
{
	struct adm_hist h;
	unsigned u;
	char buf[16];

	ADM_HistInit(&h, 3);
	ck_assert(!ADM_HistUp(&h, &L));
	ck_assert(ADM_HistAdd(&h, "one"));
	ck_assert(!ADM_HistAdd(&h, "one"));	/* the newest again */
	ck_assert(!ADM_HistAdd(&h, " \t"));
	ck_assert(ADM_HistAdd(&h, "two"));
	ck_assert(ADM_HistAdd(&h, "three"));
	ck_assert(ADM_HistAdd(&h, "four"));	/* "one" goes */
	ck_assert_uint_eq(h.n, 3);
	ck_assert_str_eq(h.lines[0], "two");
	/* Browsing keeps what was being typed. */
	ADM_LineSet(&L, "typed");
	ck_assert(ADM_HistUp(&h, &L));
	line_is("four|");
	ck_assert(ADM_HistUp(&h, &L));
	ck_assert(ADM_HistUp(&h, &L));
	line_is("two|");
	ck_assert(!ADM_HistUp(&h, &L));
	ck_assert(ADM_HistDown(&h, &L));
	line_is("three|");
	ck_assert(ADM_HistDown(&h, &L));
	ck_assert(ADM_HistDown(&h, &L));
	line_is("typed|");
	ck_assert(!ADM_HistDown(&h, &L));
	ADM_HistReset(&h);
	ck_assert(ADM_HistUp(&h, &L));
	line_is("four|");
	/* The bound holds over many. */
	for (u = 0; u < 100; u++) {
		(void)snprintf(buf, sizeof buf, "l%u", u);
		ck_assert(ADM_HistAdd(&h, buf));
	}
	ck_assert_uint_eq(h.n, 3);
	ck_assert_str_eq(h.lines[2], "l99");
	ADM_HistFini(&h);
}
END_TEST

START_TEST(test_history_file)
{
	char dir[] = "/tmp/test_adm_edit.XXXXXX", path[256], tmp[300];
	struct adm_hist h, h2;
	struct stat st;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(path, sizeof path, "%s/hist", dir);
	ADM_HistInit(&h, 2);
	/* None yet: fine, empty. */
	ck_assert_int_eq(ADM_HistLoad(&h, path), 0);
	ck_assert_uint_eq(h.n, 0);
	ck_assert(ADM_HistAdd(&h, "ping"));
	ck_assert(ADM_HistAdd(&h, "vcl.list"));
	(void)umask(0);
	ck_assert_int_eq(ADM_HistSave(&h, path), 0);
	(void)umask(022);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	/* Reading bounds it too, and skips empty lines. */
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	fputs("\nstatus\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ADM_HistInit(&h2, 2);
	ck_assert_int_eq(ADM_HistLoad(&h2, path), 0);
	ck_assert_uint_eq(h2.n, 2);
	ck_assert_str_eq(h2.lines[0], "vcl.list");
	ck_assert_str_eq(h2.lines[1], "status");
	ck_assert(ADM_HistUp(&h2, &L));
	line_is("status|");
	ADM_HistFini(&h2);
	/* A long file with a NUL in a line and no final newline. */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	for (unsigned u = 0; u < 5000; u++)
		fprintf(f, "line %u\n", u);
	ck_assert_uint_eq(fwrite("bad\0line\nlast", 1, 13, f), 13);
	ck_assert_int_eq(fclose(f), 0);
	ADM_HistInit(&h2, 1000);
	ck_assert_int_eq(ADM_HistLoad(&h2, path), 0);
	ck_assert_uint_eq(h2.n, 1000);
	ck_assert_str_eq(h2.lines[0], "line 4001");
	ck_assert_str_eq(h2.lines[998], "line 4999");
	ck_assert_str_eq(h2.lines[999], "last");
	ADM_HistFini(&h2);
	/* A directory that is not there: an error, nothing left behind. */
	(void)snprintf(tmp, sizeof tmp, "%s/no/hist", dir);
	ck_assert_int_eq(ADM_HistSave(&h, tmp), -1);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	ADM_HistFini(&h);
}
END_TEST

/*--------------------------------------------------------------------*/

static const struct {
	const char	*bytes;
	enum adm_key	key;
} key_cases[] = {
	{ "a",		ADM_KEY_CHAR },
	{ "\xc3",	ADM_KEY_CHAR },
	{ "\r",		ADM_KEY_ENTER },
	{ "\n",		ADM_KEY_ENTER },
	{ "\t",		ADM_KEY_TAB },
	{ "\033[A",	ADM_KEY_UP },
	{ "\033[B",	ADM_KEY_DOWN },
	{ "\033[C",	ADM_KEY_RIGHT },
	{ "\033[D",	ADM_KEY_LEFT },
	{ "\033OA",	ADM_KEY_UP },
	{ "\033OD",	ADM_KEY_LEFT },
	{ "\033[H",	ADM_KEY_HOME },
	{ "\033[F",	ADM_KEY_END },
	{ "\033OH",	ADM_KEY_HOME },
	{ "\033OF",	ADM_KEY_END },
	{ "\033[1~",	ADM_KEY_HOME },
	{ "\033[4~",	ADM_KEY_END },
	{ "\033[7~",	ADM_KEY_HOME },
	{ "\033[8~",	ADM_KEY_END },
	{ "\033[3~",	ADM_KEY_DELETE },
	{ "\033[1;5C",	ADM_KEY_WORD_RIGHT },
	{ "\033[1;5D",	ADM_KEY_WORD_LEFT },
	{ "\033b",	ADM_KEY_WORD_LEFT },
	{ "\033f",	ADM_KEY_WORD_RIGHT },
	{ "\033[2~",	ADM_KEY_IGNORED },	/* Insert */
	{ "\033[15~",	ADM_KEY_IGNORED },	/* F5 */
	{ "\033[Z",	ADM_KEY_IGNORED },	/* Shift-Tab */
	{ "\033x",	ADM_KEY_IGNORED },
	{ "\001",	ADM_KEY_HOME },
	{ "\002",	ADM_KEY_LEFT },
	{ "\003",	ADM_KEY_CANCEL },
	{ "\004",	ADM_KEY_EOF },
	{ "\005",	ADM_KEY_END },
	{ "\006",	ADM_KEY_RIGHT },
	{ "\010",	ADM_KEY_BACKSPACE },
	{ "\177",	ADM_KEY_BACKSPACE },
	{ "\013",	ADM_KEY_KILL_END },
	{ "\014",	ADM_KEY_REDRAW },
	{ "\016",	ADM_KEY_DOWN },
	{ "\020",	ADM_KEY_UP },
	{ "\025",	ADM_KEY_KILL_START },
	{ "\027",	ADM_KEY_KILL_WORD },
	{ "\031",	ADM_KEY_YANK },
	{ "\032",	ADM_KEY_SUSPEND },
	{ "\007",	ADM_KEY_IGNORED },
};

START_TEST(test_keys_table)
{
	const char *b = key_cases[_i].bytes;
	struct adm_keys k;
	enum adm_key got = ADM_KEY_NONE;
	size_t u, n = strlen(b);

	ADM_KeysInit(&k);
	for (u = 0; u < n; u++) {
		got = ADM_KeysFeed(&k, (unsigned char)b[u]);
		/* Only the last byte completes it. */
		if (u + 1 < n)
			ck_assert_int_eq(got, ADM_KEY_NONE);
	}
	ck_assert_msg(got == key_cases[_i].key, "case %d: key %d, want %d",
	    _i, got, key_cases[_i].key);
	/* And the decoder is back to plain bytes. */
	ck_assert_int_eq(ADM_KeysFeed(&k, 'x'), ADM_KEY_CHAR);
}
END_TEST

START_TEST(test_keys_hostile)
{
	struct adm_keys k;
	unsigned u;

	/* A CSI that never ends: bounded, then ignored, then plain. */
	ADM_KeysInit(&k);
	ck_assert_int_eq(ADM_KeysFeed(&k, 0x1b), ADM_KEY_NONE);
	ck_assert_int_eq(ADM_KeysFeed(&k, '['), ADM_KEY_NONE);
	for (u = 0; u < 1000; u++)
		ck_assert_int_eq(ADM_KeysFeed(&k, '1'), ADM_KEY_NONE);
	ck_assert_int_eq(ADM_KeysFeed(&k, '~'), ADM_KEY_IGNORED);
	ck_assert_int_eq(ADM_KeysFeed(&k, 'a'), ADM_KEY_CHAR);
	/* A control byte inside a CSI ends it. */
	ck_assert_int_eq(ADM_KeysFeed(&k, 0x1b), ADM_KEY_NONE);
	ck_assert_int_eq(ADM_KeysFeed(&k, '['), ADM_KEY_NONE);
	ck_assert_int_eq(ADM_KeysFeed(&k, '\r'), ADM_KEY_IGNORED);
	ck_assert_int_eq(ADM_KeysFeed(&k, '\r'), ADM_KEY_ENTER);
	/* ESC ESC [ A: the second ESC starts over. */
	ck_assert_int_eq(ADM_KeysFeed(&k, 0x1b), ADM_KEY_NONE);
	ck_assert_int_eq(ADM_KeysFeed(&k, 0x1b), ADM_KEY_NONE);
	ck_assert_int_eq(ADM_KeysFeed(&k, '['), ADM_KEY_NONE);
	ck_assert_int_eq(ADM_KeysFeed(&k, 'A'), ADM_KEY_UP);
	/* Every byte value, in every state, never crashes. */
	for (u = 0; u < 256 * 4; u++)
		(void)ADM_KeysFeed(&k, (unsigned char)(u * 7));
}
END_TEST

/*--------------------------------------------------------------------*/

/* The view of L in width columns, starting from *from. */
static void
view_is(size_t width, size_t *from, const char *shown, size_t col)
{
	size_t to, c;

	ADM_LineView(&L, width, from, &to, &c);
	ck_assert_uint_le(*from, L.pos);
	ck_assert_uint_lt(c, width < 2 ? 2 : width);
	ck_assert_uint_eq(c, col);
	ck_assert_uint_eq(to - *from, strlen(shown));
	ck_assert(!memcmp(L.buf + *from, shown, to - *from));
}

START_TEST(test_view)
{
	size_t from = 0;

	ADM_LineSet(&L, "short");
	view_is(10, &from, "short", 5);
	/* 26 letters in 10 columns, cursor at the end: the last 9. */
	ADM_LineSet(&L, "abcdefghijklmnopqrstuvwxyz");
	view_is(10, &from, "rstuvwxyz", 9);
	/* Left within the view: no scrolling. */
	ADM_LineLeft(&L);
	ADM_LineLeft(&L);
	view_is(10, &from, "rstuvwxyz", 7);
	/* Home: from the start, 10 shown. */
	ADM_LineHome(&L);
	view_is(10, &from, "abcdefghij", 0);
	/* Right to the edge of the view: half a view on. */
	for (unsigned u = 0; u < 10; u++)
		ADM_LineRight(&L);
	view_is(10, &from, "fghijklmno", 5);
	/* Left past it: centred. */
	for (unsigned u = 0; u < 7; u++)
		ADM_LineLeft(&L);
	ck_assert_uint_eq(L.pos, 3);
	view_is(10, &from, "abcdefghij", 3);
	/* A kill makes it fit: back to the start. */
	ADM_LineEnd(&L);
	from = 20;
	ADM_LineSet(&L, "abc");
	view_is(10, &from, "abc", 3);
	/* UTF-8 counts characters, and a view never starts mid-one. */
	ADM_LineSet(&L, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	from = 1;
	view_is(4, &from, "\xc3\xa9\xc3\xa9\xc3\xa9", 3);
	ck_assert_uint_eq(from, 6);
	/* Absurdly narrow: still a column for the cursor. */
	view_is(0, &from, "\xc3\xa9", 1);
}
END_TEST

/*--------------------------------------------------------------------*/

static void
words(struct adm_words *w, const char *const *list)
{

	ADM_WordsInit(w);
	for (; *list != NULL; list++)
		ADM_WordsAdd(w, *list, strlen(*list));
}

static const char *const cmds[] = {
	"vcl.use", "vcl.list", "ping", "param.show", "param.set",
	"param.reset", "vcl.load", "vcl.inline", "ping", NULL
};

START_TEST(test_words)
{
	struct adm_words w, m;

	words(&w, cmds);
	ADM_WordsSort(&w);
	ck_assert_uint_eq(w.n, 8);		/* ping once */
	ck_assert_str_eq(w.w[0], "param.reset");
	ck_assert_str_eq(w.w[7], "vcl.use");
	ADM_WordsInit(&m);
	ADM_WordsMatch(&w, "param.", 6, &m);
	ck_assert_uint_eq(m.n, 3);
	ck_assert_uint_eq(ADM_WordsCommon(&m), 6);	/* reset, set, show */
	ADM_WordsFini(&m);
	ADM_WordsMatch(&w, "param.s", 7, &m);
	ck_assert_uint_eq(m.n, 2);
	ck_assert_uint_eq(ADM_WordsCommon(&m), 7);
	ADM_WordsFini(&m);
	ADM_WordsMatch(&w, "", 0, &m);
	ck_assert_uint_eq(m.n, 8);
	ck_assert_uint_eq(ADM_WordsCommon(&m), 0);
	ADM_WordsFini(&m);
	ADM_WordsMatch(&w, "zz", 2, &m);
	ck_assert_uint_eq(m.n, 0);
	ck_assert_uint_eq(ADM_WordsCommon(&m), 0);
	ADM_WordsFini(&m);
	ADM_WordsFini(&w);
	/* A common prefix never ends inside a UTF-8 character. */
	ADM_WordsAdd(&w, "x\xc3\xa9", 3);
	ADM_WordsAdd(&w, "x\xc3\xa8", 3);
	ck_assert_uint_eq(ADM_WordsCommon(&w), 1);
	ADM_WordsFini(&w);
}
END_TEST

START_TEST(test_context)
{
	char cmd[64];
	size_t ws;
	unsigned argn;

	ADM_LineSet(&L, "param.sh");
	ck_assert_int_eq(ADM_LineContext(&L, &ws, &argn, cmd, sizeof cmd), 0);
	ck_assert_uint_eq(ws, 0);
	ck_assert_uint_eq(argn, 0);
	ck_assert_str_eq(cmd, "");
	ADM_LineSet(&L, "  param.show -l def");
	ck_assert_int_eq(ADM_LineContext(&L, &ws, &argn, cmd, sizeof cmd), 0);
	ck_assert_uint_eq(ws, 16);
	ck_assert_uint_eq(argn, 1);		/* -l does not count */
	ck_assert_str_eq(cmd, "param.show");
	ADM_LineSet(&L, "vcl.state boot ");
	ck_assert_int_eq(ADM_LineContext(&L, &ws, &argn, cmd, sizeof cmd), 0);
	ck_assert_uint_eq(ws, 15);
	ck_assert_uint_eq(argn, 2);
	/* The cursor in the middle: only what is before it counts. */
	ADM_LineSet(&L, "vcl.use boot");
	ADM_LineHome(&L);
	ADM_LineRight(&L);
	ADM_LineRight(&L);
	ck_assert_int_eq(ADM_LineContext(&L, &ws, &argn, cmd, sizeof cmd), 0);
	ck_assert_uint_eq(ws, 0);
	ck_assert_uint_eq(argn, 0);
	/* Quotes: no completion. */
	ADM_LineSet(&L, "ban \"req.url");
	ck_assert_int_eq(ADM_LineContext(&L, &ws, &argn, cmd, sizeof cmd),
	    -1);
	/* A command longer than cmd: cut, not overrun. */
	ADM_LineSet(&L, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa x");
	ck_assert_int_eq(ADM_LineContext(&L, &ws, &argn, cmd, 8), 0);
	ck_assert_str_eq(cmd, "aaaaaaa");
}
END_TEST

START_TEST(test_complete)
{
	struct adm_words w, list;

	words(&w, cmds);
	ADM_WordsInit(&list);
	/* One match: the word and a blank. */
	ADM_LineSet(&L, "param.sh");
	ck_assert_int_eq(ADM_LineComplete(&L, 0, &w, &list), 1);
	line_is("param.show |");
	ck_assert_uint_eq(list.n, 0);
	/* Several: as far as they agree. */
	ADM_LineSet(&L, "pa");
	ck_assert_int_eq(ADM_LineComplete(&L, 0, &w, &list), 1);
	line_is("param.|");
	ck_assert_uint_eq(list.n, 0);
	/* No further: unchanged, and the list, sorted. */
	ck_assert_int_eq(ADM_LineComplete(&L, 0, &w, &list), 0);
	line_is("param.|");
	ck_assert_uint_eq(list.n, 3);
	ck_assert_str_eq(list.w[0], "param.reset");
	ck_assert_str_eq(list.w[2], "param.show");
	ADM_WordsFini(&list);
	/* None: unchanged, no list. */
	ADM_LineSet(&L, "zz");
	ck_assert_int_eq(ADM_LineComplete(&L, 0, &w, &list), 0);
	ck_assert_uint_eq(list.n, 0);
	line_is("zz|");
	/* In the middle of a line, before a blank: no second blank. */
	ADM_LineSet(&L, "vcl.u boot");
	ADM_LineHome(&L);
	ADM_LineWordRight(&L);
	ck_assert_int_eq(ADM_LineComplete(&L, 0, &w, &list), 1);
	line_is("vcl.use |boot");
	/* After the command: the word starts later. */
	ADM_LineSet(&L, "param.show pi");
	ck_assert_int_eq(ADM_LineComplete(&L, 11, &w, &list), 1);
	line_is("param.show ping |");
	ADM_WordsFini(&w);
}
END_TEST

static Suite *
adm_edit_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("adm_edit");
	tc = tcase_create("line");
	tcase_add_checked_fixture(tc, line_setup, line_teardown);
	tcase_add_test(tc, test_insert_and_move);
	tcase_add_test(tc, test_utf8);
	tcase_add_test(tc, test_kill_and_yank);
	tcase_add_test(tc, test_history);
	tcase_add_test(tc, test_history_file);
	tcase_add_test(tc, test_view);
	tcase_add_test(tc, test_context);
	tcase_add_test(tc, test_complete);
	suite_add_tcase(s, tc);
	tc = tcase_create("keys");
	tcase_add_loop_test(tc, test_keys_table, 0,
	    (int)(sizeof key_cases / sizeof key_cases[0]));
	tcase_add_test(tc, test_keys_hostile);
	tcase_add_test(tc, test_words);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(adm_edit_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

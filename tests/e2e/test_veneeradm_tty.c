/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_veneeradm_tty.c -- veneeradm on a terminal (issue 14): driven
 * through a pseudo-terminal against a real veneerd, keys typed as a
 * terminal sends them; what it draws is read back until the expected
 * text shows up.  Line editing, history (also across sessions, in a
 * 0600 file under a temporary HOME), Tab completion from the server,
 * long lines, the ways a session ends and the terminal's modes after.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include "lib/harness.h"
#include "e2e/cli_lib.h"

#define LEFT	"\033[D"
#define RIGHT	"\033[C"
#define UP	"\033[A"
#define DEL	"\033[3~"
#define HOME_K	"\033[H"

/* One veneeradm on a pty. */
struct tty {
	pid_t		pid;
	int		fd;		/* the master side */
	char		out[65536];	/* all it wrote */
	size_t		len;
	size_t		mark;		/* expect looks from here */
};

static void
tty_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	ORIGIN_DefaultHandler(oc, req, priv);
}

/*
 * veneeradm with the arguments (NULL-terminated, after the program),
 * HOME set to home (NULL: unset), on a pty cols wide.
 */
static void
tty_start(struct tty *t, const char *home, unsigned short cols, ...)
{
	const char *argv[16], *bd;
	char adm[512];
	struct winsize ws;
	va_list ap;
	unsigned n = 0;

	bd = getenv("VENEER_BUILDDIR");
	ck_assert_msg(bd != NULL, "VENEER_BUILDDIR is not set");
	(void)snprintf(adm, sizeof adm, "%s/veneeradm", bd);
	argv[n++] = adm;
	va_start(ap, cols);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	memset(t, 0, sizeof *t);
	memset(&ws, 0, sizeof ws);
	ws.ws_row = 24;
	ws.ws_col = cols;
	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	ck_assert_int_ge(t->pid, 0);
	if (t->pid == 0) {
		if (home != NULL)
			(void)setenv("HOME", home, 1);
		else
			(void)unsetenv("HOME");
		(void)setenv("TERM", "xterm", 1);
		execv(argv[0], (char * const *)(uintptr_t)argv);
		_exit(127);
	}
	HX_RegisterPid(t->pid);
}

/* Read what comes within ms milliseconds: 1, -1 if nothing, 0 at EOF. */
static int
tty_read(struct tty *t, int ms)
{
	struct pollfd pfd;
	ssize_t n;

	pfd.fd = t->fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, ms) <= 0)
		return (-1);
	ck_assert_uint_lt(t->len, sizeof t->out - 1);
	n = read(t->fd, t->out + t->len, sizeof t->out - 1 - t->len);
	if (n <= 0)		/* EIO once the child has closed the pty */
		return (0);
	t->len += (size_t)n;
	t->out[t->len] = '\0';
	return (1);
}

/* All veneeradm wrote, control bytes escaped, marking the mark. */
static void
tty_dump(const struct tty *t)
{
	size_t u;

	fprintf(stderr, "---- veneeradm wrote ----\n");
	for (u = 0; u < t->len; u++) {
		if (u == t->mark)
			fputs("<MARK>", stderr);
		if (t->out[u] == '\n')
			fputs("\\n\n", stderr);
		else if ((unsigned char)t->out[u] < 0x20)
			fprintf(stderr, "\\x%02x", (unsigned char)t->out[u]);
		else
			fputc(t->out[u], stderr);
	}
	fprintf(stderr, "\n----\n");
}

/* Wait until want shows up after the mark; the mark moves past it. */
static void
tty_expect(struct tty *t, const char *want)
{
	double deadline = HX_Now() + HX_T_RESP;
	const char *p;

	for (;;) {
		p = strstr(t->out + t->mark, want);
		if (p != NULL) {
			t->mark = (size_t)(p - t->out) + strlen(want);
			return;
		}
		if (HX_Now() < deadline && tty_read(t, 100) != 0)
			continue;
		tty_dump(t);
		ck_abort_msg("no \"%s\" from veneeradm (all it wrote is "
		    "above)", want);
	}
}

static void
tty_type(struct tty *t, const char *keys)
{

	ck_assert_int_eq(write(t->fd, keys, strlen(keys)),
	    (ssize_t)strlen(keys));
}

/* Type keys, then wait for want. */
static void
tty_step(struct tty *t, const char *keys, const char *want)
{

	tty_type(t, keys);
	tty_expect(t, want);
}

/* Wait for the end of veneeradm; its exit status (128 + sig). */
static int
tty_wait(struct tty *t)
{
	double deadline = HX_Now() + HX_T_RESP;
	pid_t p;
	int st;

	for (;;) {
		p = waitpid(t->pid, &st, WNOHANG);
		ck_assert_int_ge(p, 0);
		if (p == t->pid)
			break;
		ck_assert_msg(HX_Now() < deadline, "veneeradm did not exit");
		/* Drain: it may be blocked writing to the pty. */
		(void)tty_read(t, 50);
	}
	while (tty_read(t, 0) == 1)
		continue;
	return (WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static void
tty_end(struct tty *t)
{

	(void)close(t->fd);
	t->fd = -1;
}

/* The last full redraw of the row: the text between prompt and CSI K. */
static size_t
tty_last_row(const struct tty *t, const char *prompt, char *buf,
    size_t len)
{
	const char *p = NULL, *q, *e;

	for (q = t->out; (q = strstr(q, prompt)) != NULL; q++)
		p = q;
	ck_assert_ptr_nonnull(p);
	p += strlen(prompt);
	e = strstr(p, "\033[K");
	ck_assert_ptr_nonnull(e);
	(void)snprintf(buf, len, "%.*s", (int)(e - p), p);
	return ((size_t)(e - p));
}

static int
count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return (n);
}

/*--------------------------------------------------------------------*/

START_TEST(edit_keys_and_history)
{
	struct origin *o;
	struct vnd *v;
	struct tty t;
	char *home;

	v = cli_start_with(&o, 1, tty_handler, NULL);
	home = HX_TempDir("home");
	tty_start(&t, home, 80, "-n", VND_Workdir(v), "-t", "5", NULL);
	tty_expect(&t, "Type 'quit' to close CLI session.");
	tty_expect(&t, "veneer> ");
	/* A typo, mended in the middle of the line. */
	tty_step(&t, "pnig", "veneer> pnig");
	/* Three left: after the p; Delete takes the n, the i stays. */
	tty_step(&t, LEFT LEFT LEFT DEL, "veneer> pig");
	tty_step(&t, RIGHT "n", "veneer> ping");
	/* Home and ^E move without changing it. */
	tty_step(&t, "\001\005", "veneer> ping");
	tty_type(&t, "\r");
	tty_expect(&t, "200");
	tty_expect(&t, "PONG ");
	tty_expect(&t, "veneer> ");
	/* Up brings it back, Enter runs it again. */
	tty_step(&t, UP, "veneer> ping");
	tty_type(&t, "\r");
	tty_expect(&t, "PONG ");
	tty_expect(&t, "veneer> ");
	ck_assert_int_eq(count(t.out, "PONG "), 2);
	/* ^W takes a word, ^U the rest, Backspace one byte. */
	tty_step(&t, "foo bar", "veneer> foo bar");
	tty_step(&t, "\027", "veneer> foo ");
	tty_step(&t, "\025", "veneer> ");
	tty_step(&t, "statusx\177", "veneer> status");
	/* ^K cuts from the cursor, ^Y puts it back. */
	tty_step(&t, LEFT LEFT "\013", "veneer> stat");
	tty_step(&t, "\031", "veneer> status");
	tty_type(&t, "\r");
	tty_expect(&t, "Child in state running");
	/*
	 * Keys go in only once the prompt is back: until then the terminal
	 * is cooked, and ^C would be SIGINT, as for any command running.
	 */
	tty_expect(&t, "veneer> ");
	/* ^C drops the line and gives a new prompt. */
	tty_step(&t, "no.such.thing\003", "^C");
	tty_expect(&t, "veneer> ");
	/* An unknown command: its status, and the session goes on. */
	tty_type(&t, "no.such\r");
	tty_expect(&t, "101");
	tty_expect(&t, "veneer> ");
	tty_type(&t, "quit\r");
	ck_assert_int_eq(tty_wait(&t), 0);
	tty_end(&t);
	HX_RemoveTree(home);
	free(home);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(tab_completion)
{
	struct origin *o;
	struct vnd *v;
	struct tty t;
	char *home;

	v = cli_start_with(&o, 1, tty_handler, NULL);
	home = HX_TempDir("home");
	tty_start(&t, home, 100, "-n", VND_Workdir(v), NULL);
	tty_expect(&t, "veneer> ");
	/* A command: completed, with a blank after it. */
	tty_step(&t, "param.sh\t", "veneer> param.show ");
	/* A parameter, from param.show -j. */
	tty_step(&t, "default_tt\t", "veneer> param.show default_ttl ");
	tty_type(&t, "\r");
	tty_expect(&t, "Value is");
	tty_expect(&t, "veneer> ");
	/* Ambiguous: as far as they agree, then the list. */
	tty_step(&t, "param.set default_\t", "veneer> param.set default_");
	tty_type(&t, "\t");
	tty_expect(&t, "default_grace");
	tty_expect(&t, "default_keep");
	tty_expect(&t, "default_ttl");
	tty_step(&t, "\025", "veneer> ");
	/* Commands: vcl. is shared by several, the list names them. */
	tty_step(&t, "vcl.\t", "veneer> vcl.");
	tty_type(&t, "\t");
	tty_expect(&t, "vcl.discard");
	tty_expect(&t, "vcl.use");
	tty_step(&t, "\025", "veneer> ");
	/* A VCL name, from vcl.list -j at the time of the Tab. */
	tty_step(&t, "vcl.show \t", "veneer> vcl.show boot ");
	tty_type(&t, "\r");
	tty_expect(&t, "vcl 4.");
	tty_expect(&t, "veneer> ");
	/* help takes a command name. */
	tty_step(&t, "help vcl.sh\t", "veneer> help vcl.show ");
	tty_type(&t, "\r");
	tty_expect(&t, "vcl.show [-v]");
	tty_expect(&t, "veneer> ");
	/* Nothing to complete: the line stays, a bell. */
	tty_step(&t, "zzz\t", "\a");
	tty_type(&t, "\025\004");
	ck_assert_int_eq(tty_wait(&t), 0);
	tty_end(&t);
	HX_RemoveTree(home);
	free(home);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(history_file)
{
	char path[512], *b;
	struct origin *o;
	struct stat st;
	struct vnd *v;
	struct tty t;
	char *home;

	v = cli_start_with(&o, 1, tty_handler, NULL);
	home = HX_TempDir("home");
	(void)snprintf(path, sizeof path, "%s/.veneeradm_history", home);
	tty_start(&t, home, 80, "-n", VND_Workdir(v), NULL);
	tty_expect(&t, "veneer> ");
	tty_type(&t, "ping\r");
	tty_expect(&t, "PONG");
	tty_expect(&t, "veneer> ");
	tty_type(&t, "param.show default_ttl\r");
	tty_expect(&t, "Value is");
	tty_expect(&t, "veneer> ");
	/* ^D on an empty line ends the session. */
	tty_type(&t, "\004");
	ck_assert_int_eq(tty_wait(&t), 0);
	tty_end(&t);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	b = HX_ReadFile(path, NULL);
	ck_assert_str_eq(b, "ping\nparam.show default_ttl\n");
	free(b);

	/* The next session remembers, newest first. */
	tty_start(&t, home, 80, "-n", VND_Workdir(v), NULL);
	tty_expect(&t, "veneer> ");
	tty_step(&t, UP, "veneer> param.show default_ttl");
	tty_step(&t, UP, "veneer> ping");
	tty_type(&t, "\r");
	tty_expect(&t, "PONG");
	tty_expect(&t, "veneer> ");
	tty_type(&t, "exit\r");
	ck_assert_int_eq(tty_wait(&t), 0);
	tty_end(&t);
	b = HX_ReadFile(path, NULL);
	ck_assert_str_eq(b, "ping\nparam.show default_ttl\nping\nexit\n");
	free(b);

	/* No HOME, or one that cannot be written: memory only, silently. */
	tty_start(&t, NULL, 80, "-n", VND_Workdir(v), NULL);
	tty_expect(&t, "veneer> ");
	tty_type(&t, "ping\r");
	tty_expect(&t, "PONG");
	tty_expect(&t, "veneer> ");
	tty_step(&t, UP, "veneer> ping");
	tty_type(&t, "\025quit\r");
	ck_assert_int_eq(tty_wait(&t), 0);
	tty_end(&t);
	ck_assert_ptr_null(strstr(t.out, "veneeradm:"));
	tty_start(&t, "/nonexistent/nowhere", 80, "-n", VND_Workdir(v),
	    NULL);
	tty_expect(&t, "veneer> ");
	tty_type(&t, "ping\r");
	tty_expect(&t, "PONG");
	tty_expect(&t, "veneer> ");
	tty_type(&t, "quit\r");
	ck_assert_int_eq(tty_wait(&t), 0);
	tty_end(&t);
	ck_assert_ptr_null(strstr(t.out, "veneeradm:"));
	HX_RemoveTree(home);
	free(home);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(long_line_scrolls)
{
	char row[256], line[256], want[512];
	struct origin *o;
	struct vnd *v;
	struct tty t;
	char *home;
	unsigned u;

	v = cli_start_with(&o, 1, tty_handler, NULL);
	home = HX_TempDir("home");
	/* 40 columns; the prompt takes 8, so 31 are left for the line. */
	tty_start(&t, home, 40, "-n", VND_Workdir(v), NULL);
	tty_expect(&t, "veneer> ");
	(void)snprintf(line, sizeof line, "help ");
	for (u = 0; u < 90; u++)
		line[5 + u] = (char)('a' + u % 26);
	line[95] = '\0';
	tty_type(&t, line);
	tty_expect(&t, "xyzabcdefghijkl\033[K");		/* its end */
	/* Each redraw fits in the row, the last column left free. */
	ck_assert_uint_le(tty_last_row(&t, "\rveneer> ", row, sizeof row),
	    31);
	ck_assert_ptr_nonnull(strstr(line, row));
	/* Home shows the start again. */
	tty_step(&t, HOME_K, "veneer> help abcdef");
	ck_assert_uint_le(tty_last_row(&t, "\rveneer> ", row, sizeof row),
	    31);
	/* UTF-8: a two-byte character goes away whole. */
	tty_type(&t, "\005\303\251");
	tty_expect(&t, "\303\251");
	tty_type(&t, "\177");
	tty_expect(&t, "jkl\033[K");
	/* The server gets the whole line. */
	tty_type(&t, "\r");
	(void)snprintf(want, sizeof want, "Unknown request \"%s\"",
	    line + 5);
	tty_expect(&t, want);
	tty_expect(&t, "veneer> ");
	tty_type(&t, "quit\r");
	ck_assert_int_eq(tty_wait(&t), 0);
	tty_end(&t);
	HX_RemoveTree(home);
	free(home);
	VND_Finish(&v, &o);
}
END_TEST

/* Read one request line from fd within HX_T_RESP; its first word. */
static void
read_request(int fd, char *buf, size_t len)
{
	size_t n = 0;

	for (;;) {
		ck_assert_uint_lt(n, len - 1);
		ck_assert_int_eq(cli_read_n(fd, buf + n, 1), 0);
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = '\0';
}

/* The modes of the terminal, seen from the master side. */
static tcflag_t
tty_lflag(const struct tty *t)
{
	struct termios tio;

	ck_assert_int_eq(tcgetattr(t->fd, &tio), 0);
	return (tio.c_lflag & (ICANON | ECHO | ISIG));
}

START_TEST(server_closes)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof sin;
	char arg[64], req[256];
	struct tty t;
	int lfd, fd;

	/* A CLI that greets without a secret, answers, then hangs up. */
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(lfd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(listen(lfd, 1), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&sin, &sl), 0);
	(void)snprintf(arg, sizeof arg, "127.0.0.1:%d", ntohs(sin.sin_port));
	tty_start(&t, NULL, 80, "-T", arg, NULL);
	fd = accept(lfd, NULL, NULL);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "200 11      \nfake banner\n", 25), 25);
	/* The command names: help -j, then plain help. */
	read_request(fd, req, sizeof req);
	ck_assert_str_eq(req, "help -j");
	ck_assert_int_eq(write(fd, "101 2       \nno\n", 16), 16);
	read_request(fd, req, sizeof req);
	ck_assert_str_eq(req, "help");
	ck_assert_int_eq(write(fd, "200 13      \nping\nstatus\n\n\n", 27),
	    27);
	tty_expect(&t, "fake banner");
	tty_expect(&t, "veneer> ");
	/* From plain help's first words. */
	tty_step(&t, "sta\t", "veneer> status ");
	ck_assert_uint_eq(tty_lflag(&t), 0);
	(void)close(fd);
	(void)close(lfd);
	tty_expect(&t, "the CLI closed the connection");
	ck_assert_int_eq(tty_wait(&t), 2);
	/* Cooked again, echoing, signals on. */
	ck_assert_uint_eq(tty_lflag(&t), ICANON | ECHO | ISIG);
	tty_end(&t);
}
END_TEST

START_TEST(signals_restore_terminal)
{
	struct origin *o;
	struct vnd *v;
	struct tty t;

	v = cli_start_with(&o, 1, tty_handler, NULL);
	tty_start(&t, NULL, 80, "-n", VND_Workdir(v), NULL);
	tty_expect(&t, "veneer> ");
	tty_step(&t, "pi", "veneer> pi");
	ck_assert_uint_eq(tty_lflag(&t), 0);
	/* A new size: the line is drawn again. */
	{
		struct winsize ws;

		memset(&ws, 0, sizeof ws);
		ws.ws_row = 24;
		ws.ws_col = 60;
		ck_assert_int_eq(ioctl(t.fd, TIOCSWINSZ, &ws), 0);
	}
	tty_expect(&t, "veneer> pi");
	ck_assert_int_eq(kill(t.pid, SIGTERM), 0);
	ck_assert_int_eq(tty_wait(&t), 128 + SIGTERM);
	ck_assert_uint_eq(tty_lflag(&t), ICANON | ECHO | ISIG);
	tty_end(&t);

	/* SIGINT from elsewhere (here ^C is a key): restored too. */
	tty_start(&t, NULL, 80, "-n", VND_Workdir(v), NULL);
	tty_expect(&t, "veneer> ");
	ck_assert_int_eq(kill(t.pid, SIGINT), 0);
	ck_assert_int_eq(tty_wait(&t), 128 + SIGINT);
	ck_assert_uint_eq(tty_lflag(&t), ICANON | ECHO | ISIG);
	tty_end(&t);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
adm_tty_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("veneeradm_tty");
	tc = tcase_create("tty");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, edit_keys_and_history);
	tcase_add_test(tc, tab_completion);
	tcase_add_test(tc, history_file);
	tcase_add_test(tc, long_line_scrolls);
	tcase_add_test(tc, server_closes);
	tcase_add_test(tc, signals_restore_terminal);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(adm_tty_suite()));
}

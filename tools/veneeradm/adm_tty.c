/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * adm_tty.c -- veneeradm's line editor on a terminal (see adm_tty.h):
 * termios raw mode while a line is read, keys from adm_edit.c, one row
 * redrawn with plain VT100 sequences (CR, CSI K, CSI n C), the line
 * scrolled sideways when it is wider than the row.  Owns the terminal's
 * modes: the ones found at start come back on every way out, from the
 * signal handlers too (tcsetattr and write are async-signal-safe).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "adm_tty.h"

struct adm_tty {
	unsigned		magic;
#define ADM_TTY_MAGIC		0x48c95e02
	int			fd;
	struct adm_hist		*hist;		/* the caller's */
	adm_complete_f		*complete;
	void			*priv;
	const char		*prompt;	/* the caller's, this read */
	struct adm_line		line;
	struct adm_keys		keys;
	size_t			from;		/* first byte shown */
	size_t			cols;
	unsigned char		in[256];	/* read, not yet handled */
	size_t			nin;
	size_t			ipos;
	char			out[8192];	/* to write */
	size_t			nout;
};

/* What the signal handlers need. */
static struct termios adm_cooked;		/* const after ADM_TtyNew */
static int adm_fd = -1;				/* const after ADM_TtyNew */
static volatile sig_atomic_t adm_raw_on;	/* raw mode is set */
static volatile sig_atomic_t adm_got_winch;
static volatile sig_atomic_t adm_got_cont;
/*
 * The handlers write a byte here: a signal that comes after the flags
 * were looked at but before poll() starts still wakes poll() up.
 */
static int adm_sig_pipe[2] = { -1, -1 };

static void
adm_sig_wake(void)
{
	int e = errno;

	/* Full: a wake-up is already waiting, which is all we need. */
	(void)!write(adm_sig_pipe[1], "s", 1);
	errno = e;
}

static void
adm_raw_leave(void)
{

	if (!adm_raw_on)
		return;
	/* Nothing better to do if it fails: the terminal is gone. */
	(void)tcsetattr(adm_fd, TCSADRAIN, &adm_cooked);
	adm_raw_on = 0;
}

static int
adm_raw_enter(void)
{
	struct termios raw;

	raw = adm_cooked;
	raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INLCR | IGNCR | INPCK |
	    ISTRIP | IXON);
	raw.c_cflag |= CS8;
	/* OPOST stays: '\n' still goes out as CR LF. */
	raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(adm_fd, TCSADRAIN, &raw) != 0)
		return (-1);
	adm_raw_on = 1;
	return (0);
}

static void
adm_atexit(void)
{

	adm_raw_leave();
}

/* SIGINT, SIGTERM, SIGHUP, SIGQUIT: the terminal back, then die of it. */
static void
adm_sig_fatal(int sig)
{

	if (adm_raw_on) {
		adm_raw_leave();
		(void)!write(adm_fd, "\r\n", 2);
	}
	(void)signal(sig, SIG_DFL);
	/* Blocked while we are here: delivered when this returns. */
	(void)raise(sig);
}

static void adm_sig_tstp(int sig);

static void
adm_sig_install(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	(void)sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: poll() must come back to redraw. */
	sa.sa_flags = 0;
	(void)sigaction(sig, &sa, NULL);
}

/* Stop with the terminal as we found it; raw again when continued. */
static void
adm_sig_tstp(int sig)
{
	sigset_t s;
	int e = errno;

	adm_raw_leave();
	(void)signal(sig, SIG_DFL);
	(void)sigemptyset(&s);
	(void)sigaddset(&s, sig);
	(void)sigprocmask(SIG_UNBLOCK, &s, NULL);
	(void)raise(sig);
	/* Here when continued. */
	adm_sig_install(sig, adm_sig_tstp);
	adm_got_cont = 1;
	adm_sig_wake();
	errno = e;
}

static void
adm_sig_flag(int sig)
{

	if (sig == SIGWINCH)
		adm_got_winch = 1;
	else
		adm_got_cont = 1;
	adm_sig_wake();
}

static size_t
adm_cols(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return (ws.ws_col);
	return (80);
}

struct adm_tty *
ADM_TtyNew(int fd, struct adm_hist *h, adm_complete_f *complete,
    void *priv)
{
	struct adm_tty *t;
	static int once;

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	assert(adm_fd < 0);
	if (!isatty(fd) || tcgetattr(fd, &adm_cooked) != 0)
		return (NULL);
	if (adm_sig_pipe[0] < 0 &&
	    pipe2(adm_sig_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		return (NULL);
	ALLOC_OBJ(t, ADM_TTY_MAGIC);
	if (t == NULL)
		return (NULL);
	t->fd = adm_fd = fd;
	t->hist = h;
	t->complete = complete;
	t->priv = priv;
	t->cols = adm_cols(fd);
	ADM_LineInit(&t->line);
	ADM_KeysInit(&t->keys);
	if (!once++)
		(void)atexit(adm_atexit);
	adm_sig_install(SIGINT, adm_sig_fatal);
	adm_sig_install(SIGTERM, adm_sig_fatal);
	adm_sig_install(SIGHUP, adm_sig_fatal);
	adm_sig_install(SIGQUIT, adm_sig_fatal);
	adm_sig_install(SIGTSTP, adm_sig_tstp);
	adm_sig_install(SIGCONT, adm_sig_flag);
	adm_sig_install(SIGWINCH, adm_sig_flag);
	return (t);
}

void
ADM_TtyFree(struct adm_tty **tp)
{
	struct adm_tty *t;

	t = *tp;
	*tp = NULL;
	CHECK_OBJ(t, ADM_TTY_MAGIC);
	adm_raw_leave();
	ADM_LineFini(&t->line);
	(void)signal(SIGTSTP, SIG_DFL);
	(void)signal(SIGCONT, SIG_DFL);
	(void)signal(SIGWINCH, SIG_DFL);
	adm_fd = -1;
	FREE_OBJ(t);
}

/*--------------------------------------------------------------------*/

static void
adm_flush(struct adm_tty *t)
{
	size_t o = 0;
	ssize_t n;

	while (o < t->nout) {
		n = write(t->fd, t->out + o, t->nout - o);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;		/* the terminal is gone: EOF follows */
		o += (size_t)n;
	}
	t->nout = 0;
}

static void
adm_put(struct adm_tty *t, const char *s, size_t n)
{
	size_t k;

	while (n > 0) {
		if (t->nout == sizeof t->out)
			adm_flush(t);
		k = sizeof t->out - t->nout;
		if (k > n)
			k = n;
		memcpy(t->out + t->nout, s, k);
		t->nout += k;
		s += k;
		n -= k;
	}
}

static void
adm_puts(struct adm_tty *t, const char *s)
{

	adm_put(t, s, strlen(s));
}

/* The prompt and the part of the line that fits, cursor placed. */
static void
adm_refresh(struct adm_tty *t)
{
	size_t plen, width, to, col;
	char mv[32];

	plen = strlen(t->prompt);
	/* The last column stays empty: writing there may wrap. */
	width = t->cols > plen + 3 ? t->cols - plen - 1 : 2;
	ADM_LineView(&t->line, width, &t->from, &to, &col);
	adm_puts(t, "\r");
	adm_puts(t, t->prompt);
	adm_put(t, t->line.buf + t->from, to - t->from);
	adm_puts(t, "\033[K\r");
	if (plen + col > 0) {
		(void)snprintf(mv, sizeof mv, "\033[%zuC", plen + col);
		adm_puts(t, mv);
	}
	adm_flush(t);
}

/* The choices, in columns, under the line (redrawn after). */
static void
adm_show_list(struct adm_tty *t, const struct adm_words *w)
{
	size_t width = 0, l, ncol, nrow, r, c, i;

	for (i = 0; i < w->n; i++)
		if ((l = strlen(w->w[i])) > width)
			width = l;
	width += 2;
	ncol = t->cols / width;
	if (ncol == 0)
		ncol = 1;
	nrow = (w->n + ncol - 1) / ncol;
	adm_puts(t, "\r\n");
	for (r = 0; r < nrow; r++) {
		for (c = 0; c < ncol && (i = c * nrow + r) < w->n; c++) {
			adm_puts(t, w->w[i]);
			if (i + nrow >= w->n)
				break;
			for (l = strlen(w->w[i]); l < width; l++)
				adm_puts(t, " ");
		}
		adm_puts(t, "\r\n");
	}
}

static void
adm_complete(struct adm_tty *t)
{
	struct adm_words cands, list;
	size_t wstart = t->line.pos;
	int changed = 0;

	if (t->complete == NULL) {
		adm_puts(t, "\a");
		return;
	}
	ADM_WordsInit(&cands);
	ADM_WordsInit(&list);
	/* The callback may talk to the server: the line is on screen. */
	adm_flush(t);
	if (t->complete(t->priv, &t->line, &wstart, &cands) == 0)
		changed = ADM_LineComplete(&t->line, wstart, &cands, &list);
	if (list.n > 1)
		adm_show_list(t, &list);
	else if (!changed)
		adm_puts(t, "\a");
	ADM_WordsFini(&list);
	ADM_WordsFini(&cands);
}

/* Keys that only edit the line; 0 if k is not one of them. */
static int
adm_edit_key(struct adm_tty *t, enum adm_key k, unsigned char c)
{
	char ch = (char)c;

	switch (k) {
	case ADM_KEY_CHAR:	ADM_LineInsert(&t->line, &ch, 1); break;
	case ADM_KEY_LEFT:	(void)ADM_LineLeft(&t->line); break;
	case ADM_KEY_RIGHT:	(void)ADM_LineRight(&t->line); break;
	case ADM_KEY_WORD_LEFT:	(void)ADM_LineWordLeft(&t->line); break;
	case ADM_KEY_WORD_RIGHT: (void)ADM_LineWordRight(&t->line); break;
	case ADM_KEY_HOME:	ADM_LineHome(&t->line); break;
	case ADM_KEY_END:	ADM_LineEnd(&t->line); break;
	case ADM_KEY_BACKSPACE:	(void)ADM_LineBackspace(&t->line); break;
	case ADM_KEY_DELETE:	(void)ADM_LineDelete(&t->line); break;
	case ADM_KEY_KILL_START: (void)ADM_LineKillStart(&t->line); break;
	case ADM_KEY_KILL_WORD:	(void)ADM_LineKillWord(&t->line); break;
	case ADM_KEY_KILL_END:	(void)ADM_LineKillEnd(&t->line); break;
	case ADM_KEY_YANK:	(void)ADM_LineYank(&t->line); break;
	case ADM_KEY_UP:	(void)ADM_HistUp(t->hist, &t->line); break;
	case ADM_KEY_DOWN:	(void)ADM_HistDown(t->hist, &t->line); break;
	case ADM_KEY_TAB:	adm_complete(t); break;
	case ADM_KEY_REDRAW:	adm_puts(t, "\033[H\033[2J"); break;
	default:		return (0);
	}
	return (1);
}

/* The line is done (or cancelled): a fresh one for next time. */
static void
adm_line_reset(struct adm_tty *t)
{

	ADM_LineSet(&t->line, "");
	ADM_HistReset(t->hist);
	t->from = 0;
}

/*
 * Handle the bytes read; ADM_READ_LINE or _EOF when one ends the line,
 * else 0 (and the line redrawn).
 */
static enum adm_read
adm_handle(struct adm_tty *t, char **line)
{
	enum adm_key k;
	unsigned char c;

	while (t->ipos < t->nin) {
		c = t->in[t->ipos++];
		k = ADM_KeysFeed(&t->keys, c);
		if (adm_edit_key(t, k, c))
			continue;
		switch (k) {
		case ADM_KEY_ENTER:
			ADM_LineEnd(&t->line);
			adm_refresh(t);
			adm_puts(t, "\r\n");
			adm_flush(t);
			*line = strdup(t->line.buf);
			assert(*line != NULL);
			adm_line_reset(t);
			return (ADM_READ_LINE);
		case ADM_KEY_EOF:
			if (t->line.len > 0) {
				(void)ADM_LineDelete(&t->line);
				break;
			}
			adm_puts(t, "\r\n");
			adm_flush(t);
			return (ADM_READ_EOF);
		case ADM_KEY_CANCEL:
			ADM_LineEnd(&t->line);
			adm_refresh(t);
			adm_puts(t, "^C\r\n");
			adm_line_reset(t);
			break;
		case ADM_KEY_SUSPEND:
			adm_flush(t);
			/* adm_sig_tstp does the rest, and comes back. */
			(void)raise(SIGTSTP);
			break;
		default:
			break;
		}
	}
	adm_refresh(t);
	return (0);
}

/* After a signal: a new size, or back from a stop. */
static void
adm_after_signal(struct adm_tty *t)
{

	if (adm_got_cont) {
		adm_got_cont = 0;
		if (!adm_raw_on)
			(void)adm_raw_enter();
		t->cols = adm_cols(t->fd);
		adm_refresh(t);
	}
	if (adm_got_winch) {
		adm_got_winch = 0;
		t->cols = adm_cols(t->fd);
		adm_refresh(t);
	}
}

enum adm_read
ADM_TtyRead(struct adm_tty *t, const char *prompt, int peer_fd,
    char **line)
{
	struct pollfd pfd[3];
	enum adm_read r = 0;
	char drain[64];
	ssize_t n;
	int i;

	CHECK_OBJ(t, ADM_TTY_MAGIC);
	*line = NULL;
	t->prompt = prompt;
	/* What came between lines is seen to here: size, and redraw. */
	while (read(adm_sig_pipe[0], drain, sizeof drain) > 0)
		continue;
	adm_got_cont = adm_got_winch = 0;
	t->cols = adm_cols(t->fd);
	if (adm_raw_enter() != 0)
		return (ADM_READ_EOF);
	/* Keys typed ahead while the last command ran. */
	r = adm_handle(t, line);
	while (r == 0) {
		pfd[0].fd = t->fd;
		pfd[1].fd = adm_sig_pipe[0];
		pfd[2].fd = peer_fd;
		for (i = 0; i < 3; i++) {
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		i = poll(pfd, peer_fd >= 0 ? 3 : 2, -1);
		if (i < 0 && errno != EINTR) {
			r = ADM_READ_EOF;
			break;
		}
		if (i < 0 || pfd[1].revents != 0) {
			while (read(adm_sig_pipe[0], drain, sizeof drain) > 0)
				continue;
			adm_after_signal(t);
			continue;
		}
		if (peer_fd >= 0 && pfd[2].revents != 0) {
			adm_puts(t, "\r\033[K");
			adm_flush(t);
			r = ADM_READ_PEER;
			break;
		}
		n = read(t->fd, t->in, sizeof t->in);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			r = ADM_READ_EOF;
			break;
		}
		t->nin = (size_t)n;
		t->ipos = 0;
		r = adm_handle(t, line);
	}
	adm_raw_leave();
	return (r);
}

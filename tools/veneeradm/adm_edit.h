/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * adm_edit.h -- the parts of veneeradm's line editor that touch no
 * terminal: the line being edited and its cursor, the history (and its
 * file), the decoding of keys from the bytes a terminal sends, the view
 * of a line too long for its row, and completion matching.  adm_tty.c
 * drives them; tests/unit/test_adm_edit.c tests them.
 *
 * Lines are bytes.  Cursor motion and deletion step over whole UTF-8
 * sequences (a byte 10xxxxxx continues the character before it); the
 * view counts one column per character, so wide characters may be off
 * by a column, but nothing is ever split in two.
 */

#ifndef VENEER_ADM_EDIT_H
#define VENEER_ADM_EDIT_H

#include <stddef.h>

/*--------------------------------------------------------------------
 * The line being edited.  buf is always NUL-terminated; 0 <= pos <= len.
 */

struct adm_line {
	unsigned		magic;
#define ADM_LINE_MAGIC		0x5b2e90c4
	char			*buf;		/* owned */
	size_t			len;
	size_t			cap;
	size_t			pos;		/* cursor, a byte offset */
	char			*kill;		/* owned: what ^U ^W ^K took */
};

void	ADM_LineInit(struct adm_line *l);
void	ADM_LineFini(struct adm_line *l);
/* Replace the text; the cursor goes to its end. */
void	ADM_LineSet(struct adm_line *l, const char *s);
void	ADM_LineInsert(struct adm_line *l, const char *s, size_t n);
/* Motion; each returns 1 if the cursor moved. */
int	ADM_LineLeft(struct adm_line *l);
int	ADM_LineRight(struct adm_line *l);
int	ADM_LineWordLeft(struct adm_line *l);
int	ADM_LineWordRight(struct adm_line *l);
void	ADM_LineHome(struct adm_line *l);
void	ADM_LineEnd(struct adm_line *l);
/* Deletion; each returns 1 if something was deleted. */
int	ADM_LineBackspace(struct adm_line *l);
int	ADM_LineDelete(struct adm_line *l);
int	ADM_LineKillStart(struct adm_line *l);		/* ^U */
int	ADM_LineKillWord(struct adm_line *l);		/* ^W */
int	ADM_LineKillEnd(struct adm_line *l);		/* ^K */
/* Insert what the last kill took (^Y); 1 if there was something. */
int	ADM_LineYank(struct adm_line *l);

/*--------------------------------------------------------------------
 * History: the oldest line first, at most max lines.  Browsing keeps the
 * line being typed aside so Down past the newest gives it back.
 */

#define ADM_HIST_MAX		1000

struct adm_hist {
	unsigned		magic;
#define ADM_HIST_MAGIC		0x17c4a3e8
	char			**lines;	/* owned, n of them */
	unsigned		n;
	unsigned		max;
	unsigned		cur;		/* browsing; n: not browsing */
	char			*typed;		/* owned: the line typed */
};

void	ADM_HistInit(struct adm_hist *h, unsigned max);
void	ADM_HistFini(struct adm_hist *h);
/* Add a line (not blank ones, nor the newest again); 1 if added. */
int	ADM_HistAdd(struct adm_hist *h, const char *s);
/* Put the older (Up) or newer (Down) line into l; 1 if it changed. */
int	ADM_HistUp(struct adm_hist *h, struct adm_line *l);
int	ADM_HistDown(struct adm_hist *h, struct adm_line *l);
/* Stop browsing (after a line is taken or cancelled). */
void	ADM_HistReset(struct adm_hist *h);
/* Lines from a file (missing is fine); 0, or -1 with errno. */
int	ADM_HistLoad(struct adm_hist *h, const char *path);
/*
 * Write the history to path, mode 0600, replacing it whole (through a
 * temporary file and rename, so a crash leaves the old one); 0 or -1.
 */
int	ADM_HistSave(const struct adm_hist *h, const char *path);

/*--------------------------------------------------------------------
 * Keys from the bytes a terminal sends (VT100 and xterm sequences).
 */

enum adm_key {
	ADM_KEY_NONE = 0,	/* in the middle of a sequence */
	ADM_KEY_CHAR,		/* a byte to insert */
	ADM_KEY_ENTER,
	ADM_KEY_TAB,
	ADM_KEY_LEFT,
	ADM_KEY_RIGHT,
	ADM_KEY_UP,
	ADM_KEY_DOWN,
	ADM_KEY_HOME,
	ADM_KEY_END,
	ADM_KEY_WORD_LEFT,
	ADM_KEY_WORD_RIGHT,
	ADM_KEY_BACKSPACE,
	ADM_KEY_DELETE,
	ADM_KEY_EOF,		/* ^D */
	ADM_KEY_KILL_START,	/* ^U */
	ADM_KEY_KILL_WORD,	/* ^W */
	ADM_KEY_KILL_END,	/* ^K */
	ADM_KEY_YANK,		/* ^Y */
	ADM_KEY_REDRAW,		/* ^L */
	ADM_KEY_CANCEL,		/* ^C */
	ADM_KEY_SUSPEND,	/* ^Z */
	ADM_KEY_IGNORED,	/* an unknown sequence or control */
};

struct adm_keys {
	unsigned		magic;
#define ADM_KEYS_MAGIC		0x2d81f6b3
	unsigned		state;
	char			seq[16];	/* CSI parameters so far */
	unsigned		nseq;
};

void	ADM_KeysInit(struct adm_keys *k);
/* Feed one byte; the key it completes, or ADM_KEY_NONE. */
enum adm_key ADM_KeysFeed(struct adm_keys *k, unsigned char c);

/*--------------------------------------------------------------------
 * The view of a line in width columns: the bytes [*from, *to) are
 * shown and the cursor is at column *col of them, always < width.
 * *from is kept from call to call (start with 0) so the line scrolls
 * only when the cursor leaves the view.
 */

void	ADM_LineView(const struct adm_line *l, size_t width, size_t *from,
	    size_t *to, size_t *col);

/*--------------------------------------------------------------------
 * Completion.
 */

/* A list of words (owned). */
struct adm_words {
	unsigned		magic;
#define ADM_WORDS_MAGIC		0x6a0f3d71
	char			**w;
	unsigned		n;
	unsigned		cap;
};

void	ADM_WordsInit(struct adm_words *w);
void	ADM_WordsFini(struct adm_words *w);
void	ADM_WordsAdd(struct adm_words *w, const char *s, size_t len);
/* Sort and drop duplicates. */
void	ADM_WordsSort(struct adm_words *w);
/* The words of src that start with prefix [p, p + plen), into dst. */
void	ADM_WordsMatch(const struct adm_words *src, const char *p,
	    size_t plen, struct adm_words *dst);
/* The length of the prefix all of w share (0 if w is empty). */
size_t	ADM_WordsCommon(const struct adm_words *w);

/*
 * Where the cursor is in its command: the word under completion starts
 * at *wstart (its prefix is [*wstart, l->pos)), it is argument *argn
 * (0: the command itself) counting only words that do not start with
 * '-', and the command is copied into cmd (empty when argn is 0).
 * -1 inside quotes, where completing would do harm; else 0.
 */
int	ADM_LineContext(const struct adm_line *l, size_t *wstart,
	    unsigned *argn, char *cmd, size_t cmdlen);

/* Replace [wstart, l->pos) with s (slen bytes). */
void	ADM_LineReplaceWord(struct adm_line *l, size_t wstart, const char *s,
	    size_t slen);

/*
 * Complete the word [wstart, l->pos) from the candidates: one match
 * replaces it and adds a blank; several extend it as far as they agree.
 * 1 if the line changed.  0 if not: then list (empty, initialized)
 * receives the matches, sorted, when there are several to choose from.
 */
int	ADM_LineComplete(struct adm_line *l, size_t wstart,
	    const struct adm_words *cands, struct adm_words *list);

#endif /* VENEER_ADM_EDIT_H */

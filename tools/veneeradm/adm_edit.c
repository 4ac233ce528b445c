/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * adm_edit.c -- veneeradm's line editing without a terminal: the line
 * and its cursor, the history and its file, key decoding, the view of a
 * long line, completion matching (see adm_edit.h).  Single-threaded;
 * owns only what its structs point at.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "adm_edit.h"

/* An interactive tool has nothing better to do when memory runs out. */
static void *
adm_need(void *p)
{

	if (p == NULL) {
		fputs("veneeradm: out of memory\n", stderr);
		exit(2);
	}
	return (p);
}

static char *
adm_strndup(const char *s, size_t n)
{

	return (adm_need(strndup(s, n)));
}

/* A byte that continues a UTF-8 sequence. */
#define ADM_CONT(c)	(((unsigned char)(c) & 0xc0) == 0x80)
#define ADM_BLANK(c)	((c) == ' ' || (c) == '\t')

/*--------------------------------------------------------------------*/

void
ADM_LineInit(struct adm_line *l)
{

	INIT_OBJ(l, ADM_LINE_MAGIC);
	l->cap = 64;
	l->buf = adm_need(calloc(1, l->cap));
}

void
ADM_LineFini(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	free(l->buf);
	free(l->kill);
	ZERO_OBJ(l, sizeof *l);
}

static void
adm_line_room(struct adm_line *l, size_t n)
{

	if (l->len + n + 1 <= l->cap)
		return;
	while (l->len + n + 1 > l->cap)
		l->cap *= 2;
	l->buf = adm_need(realloc(l->buf, l->cap));
}

void
ADM_LineSet(struct adm_line *l, const char *s)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	l->len = l->pos = 0;
	l->buf[0] = '\0';
	ADM_LineInsert(l, s, strlen(s));
}

void
ADM_LineInsert(struct adm_line *l, const char *s, size_t n)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	adm_line_room(l, n);
	memmove(l->buf + l->pos + n, l->buf + l->pos, l->len - l->pos + 1);
	memcpy(l->buf + l->pos, s, n);
	l->len += n;
	l->pos += n;
}

/* Remove [b, e), keeping it for ^Y if kill. */
static int
adm_line_cut(struct adm_line *l, size_t b, size_t e, int kill)
{

	assert(b <= e && e <= l->len);
	if (b == e)
		return (0);
	if (kill) {
		free(l->kill);
		l->kill = adm_strndup(l->buf + b, e - b);
	}
	memmove(l->buf + b, l->buf + e, l->len - e + 1);
	l->len -= e - b;
	if (l->pos > e)
		l->pos -= e - b;
	else if (l->pos > b)
		l->pos = b;
	return (1);
}

/* The start of the character before offset p. */
static size_t
adm_prev(const struct adm_line *l, size_t p)
{

	if (p == 0)
		return (0);
	p--;
	while (p > 0 && ADM_CONT(l->buf[p]))
		p--;
	return (p);
}

/* The start of the character after the one at offset p. */
static size_t
adm_next(const struct adm_line *l, size_t p)
{

	if (p >= l->len)
		return (l->len);
	p++;
	while (p < l->len && ADM_CONT(l->buf[p]))
		p++;
	return (p);
}

int
ADM_LineLeft(struct adm_line *l)
{
	size_t p;

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	p = l->pos;
	l->pos = adm_prev(l, p);
	return (p != l->pos);
}

int
ADM_LineRight(struct adm_line *l)
{
	size_t p;

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	p = l->pos;
	l->pos = adm_next(l, p);
	return (p != l->pos);
}

/* The start of the blank-separated word before offset p. */
static size_t
adm_word_start(const struct adm_line *l, size_t p)
{

	while (p > 0 && ADM_BLANK(l->buf[p - 1]))
		p--;
	while (p > 0 && !ADM_BLANK(l->buf[p - 1]))
		p--;
	return (p);
}

int
ADM_LineWordLeft(struct adm_line *l)
{
	size_t p;

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	p = l->pos;
	l->pos = adm_word_start(l, p);
	return (p != l->pos);
}

int
ADM_LineWordRight(struct adm_line *l)
{
	size_t p;

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	p = l->pos;
	while (l->pos < l->len && ADM_BLANK(l->buf[l->pos]))
		l->pos++;
	while (l->pos < l->len && !ADM_BLANK(l->buf[l->pos]))
		l->pos++;
	return (p != l->pos);
}

void
ADM_LineHome(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	l->pos = 0;
}

void
ADM_LineEnd(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	l->pos = l->len;
}

int
ADM_LineBackspace(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	return (adm_line_cut(l, adm_prev(l, l->pos), l->pos, 0));
}

int
ADM_LineDelete(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	return (adm_line_cut(l, l->pos, adm_next(l, l->pos), 0));
}

int
ADM_LineKillStart(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	return (adm_line_cut(l, 0, l->pos, 1));
}

int
ADM_LineKillWord(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	return (adm_line_cut(l, adm_word_start(l, l->pos), l->pos, 1));
}

int
ADM_LineKillEnd(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	return (adm_line_cut(l, l->pos, l->len, 1));
}

int
ADM_LineYank(struct adm_line *l)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	if (l->kill == NULL || *l->kill == '\0')
		return (0);
	ADM_LineInsert(l, l->kill, strlen(l->kill));
	return (1);
}

void
ADM_LineReplaceWord(struct adm_line *l, size_t wstart, const char *s,
    size_t slen)
{

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	assert(wstart <= l->pos);
	(void)adm_line_cut(l, wstart, l->pos, 0);
	ADM_LineInsert(l, s, slen);
}

/*--------------------------------------------------------------------*/

void
ADM_HistInit(struct adm_hist *h, unsigned max)
{

	assert(max > 0);
	INIT_OBJ(h, ADM_HIST_MAGIC);
	h->max = max;
	h->lines = adm_need(calloc(max, sizeof *h->lines));
}

void
ADM_HistFini(struct adm_hist *h)
{
	unsigned u;

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	for (u = 0; u < h->n; u++)
		free(h->lines[u]);
	free(h->lines);
	free(h->typed);
	ZERO_OBJ(h, sizeof *h);
}

void
ADM_HistReset(struct adm_hist *h)
{

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	h->cur = h->n;
	free(h->typed);
	h->typed = NULL;
}

static void
adm_hist_push(struct adm_hist *h, const char *s, size_t len)
{

	if (h->n == h->max) {
		free(h->lines[0]);
		memmove(h->lines, h->lines + 1,
		    (h->max - 1) * sizeof *h->lines);
		h->n--;
	}
	h->lines[h->n++] = adm_strndup(s, len);
}

int
ADM_HistAdd(struct adm_hist *h, const char *s)
{

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	ADM_HistReset(h);
	if (s[strspn(s, " \t")] == '\0')
		return (0);
	if (h->n > 0 && !strcmp(h->lines[h->n - 1], s))
		return (0);
	adm_hist_push(h, s, strlen(s));
	h->cur = h->n;
	return (1);
}

int
ADM_HistUp(struct adm_hist *h, struct adm_line *l)
{

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	CHECK_OBJ(l, ADM_LINE_MAGIC);
	if (h->cur == 0)
		return (0);
	if (h->cur == h->n) {
		free(h->typed);
		h->typed = adm_strndup(l->buf, l->len);
	}
	ADM_LineSet(l, h->lines[--h->cur]);
	return (1);
}

int
ADM_HistDown(struct adm_hist *h, struct adm_line *l)
{

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	CHECK_OBJ(l, ADM_LINE_MAGIC);
	if (h->cur >= h->n)
		return (0);
	if (++h->cur < h->n) {
		ADM_LineSet(l, h->lines[h->cur]);
		return (1);
	}
	ADM_LineSet(l, h->typed != NULL ? h->typed : "");
	free(h->typed);
	h->typed = NULL;
	return (1);
}

/* A line of the history file worth keeping: not empty, no NUL in it. */
static int
adm_hist_line(char *line, ssize_t n)
{

	if (n > 0 && line[n - 1] == '\n')
		line[--n] = '\0';
	return (n > 0 && strlen(line) == (size_t)n);
}

int
ADM_HistLoad(struct adm_hist *h, const char *path)
{
	char *line = NULL;
	size_t cap = 0, total = 0, u = 0;
	ssize_t n;
	FILE *f;

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	f = fopen(path, "re");
	if (f == NULL)
		return (errno == ENOENT ? 0 : -1);
	/* Count first: a long file costs a pass, not a shift per line. */
	while ((n = getline(&line, &cap, f)) >= 0)
		total += (size_t)adm_hist_line(line, n);
	rewind(f);
	while ((n = getline(&line, &cap, f)) >= 0)
		if (adm_hist_line(line, n) && u++ + h->max >= total)
			adm_hist_push(h, line, strlen(line));
	free(line);
	(void)fclose(f);	/* read only: nothing to lose */
	h->cur = h->n;
	return (0);
}

int
ADM_HistSave(const struct adm_hist *h, const char *path)
{
	char tmp[4096];
	unsigned u;
	FILE *f;
	int fd, bad = 0;

	CHECK_OBJ(h, ADM_HIST_MAGIC);
	if (snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid()) >=
	    (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
	    0600);
	if (fd < 0)
		return (-1);
	f = fdopen(fd, "w");
	if (f == NULL) {
		(void)close(fd);
		(void)unlink(tmp);
		return (-1);
	}
	/* The umask may not take bits away from 0600, but not add. */
	if (fchmod(fd, 0600) != 0)
		bad = 1;
	for (u = 0; u < h->n && !bad; u++)
		if (fprintf(f, "%s\n", h->lines[u]) < 0)
			bad = 1;
	if (fclose(f) != 0)
		bad = 1;
	if (!bad && rename(tmp, path) == 0)
		return (0);
	(void)unlink(tmp);
	return (-1);
}

/*--------------------------------------------------------------------
 * Keys.  States: plain bytes, after ESC, inside CSI (ESC [), after SS3
 * (ESC O).
 */

enum {
	ADM_KS_PLAIN = 0,
	ADM_KS_ESC,
	ADM_KS_CSI,
	ADM_KS_SS3,
};

void
ADM_KeysInit(struct adm_keys *k)
{

	INIT_OBJ(k, ADM_KEYS_MAGIC);
}

static enum adm_key
adm_key_plain(struct adm_keys *k, unsigned char c)
{

	switch (c) {
	case 0x01: return (ADM_KEY_HOME);		/* ^A */
	case 0x02: return (ADM_KEY_LEFT);		/* ^B */
	case 0x03: return (ADM_KEY_CANCEL);		/* ^C */
	case 0x04: return (ADM_KEY_EOF);		/* ^D */
	case 0x05: return (ADM_KEY_END);		/* ^E */
	case 0x06: return (ADM_KEY_RIGHT);		/* ^F */
	case 0x08: return (ADM_KEY_BACKSPACE);		/* ^H */
	case 0x09: return (ADM_KEY_TAB);
	case 0x0a: return (ADM_KEY_ENTER);
	case 0x0b: return (ADM_KEY_KILL_END);		/* ^K */
	case 0x0c: return (ADM_KEY_REDRAW);		/* ^L */
	case 0x0d: return (ADM_KEY_ENTER);
	case 0x0e: return (ADM_KEY_DOWN);		/* ^N */
	case 0x10: return (ADM_KEY_UP);			/* ^P */
	case 0x15: return (ADM_KEY_KILL_START);		/* ^U */
	case 0x17: return (ADM_KEY_KILL_WORD);		/* ^W */
	case 0x19: return (ADM_KEY_YANK);		/* ^Y */
	case 0x1a: return (ADM_KEY_SUSPEND);		/* ^Z */
	case 0x1b:
		k->state = ADM_KS_ESC;
		return (ADM_KEY_NONE);
	case 0x7f: return (ADM_KEY_BACKSPACE);
	default:
		return (c < 0x20 ? ADM_KEY_IGNORED : ADM_KEY_CHAR);
	}
}

/* A CSI sequence is complete: ESC [ seq final. */
static enum adm_key
adm_key_csi(const struct adm_keys *k, unsigned char final)
{
	int ctl;

	/* xterm's modifiers: "1;5" is Ctrl, "1;3" is Alt. */
	ctl = k->nseq > 2 && (k->seq[k->nseq - 1] == '5' ||
	    k->seq[k->nseq - 1] == '3');
	switch (final) {
	case 'A': return (ADM_KEY_UP);
	case 'B': return (ADM_KEY_DOWN);
	case 'C': return (ctl ? ADM_KEY_WORD_RIGHT : ADM_KEY_RIGHT);
	case 'D': return (ctl ? ADM_KEY_WORD_LEFT : ADM_KEY_LEFT);
	case 'H': return (ADM_KEY_HOME);
	case 'F': return (ADM_KEY_END);
	case '~':
		if (k->nseq != 1)
			return (ADM_KEY_IGNORED);
		switch (k->seq[0]) {
		case '1': case '7': return (ADM_KEY_HOME);
		case '4': case '8': return (ADM_KEY_END);
		case '3': return (ADM_KEY_DELETE);
		default: return (ADM_KEY_IGNORED);
		}
	default:
		return (ADM_KEY_IGNORED);
	}
}

enum adm_key
ADM_KeysFeed(struct adm_keys *k, unsigned char c)
{

	CHECK_OBJ(k, ADM_KEYS_MAGIC);
	switch (k->state) {
	case ADM_KS_PLAIN:
		return (adm_key_plain(k, c));
	case ADM_KS_ESC:
		k->state = ADM_KS_PLAIN;
		k->nseq = 0;
		switch (c) {
		case '[': k->state = ADM_KS_CSI; return (ADM_KEY_NONE);
		case 'O': k->state = ADM_KS_SS3; return (ADM_KEY_NONE);
		case 'b': return (ADM_KEY_WORD_LEFT);		/* Alt-b */
		case 'f': return (ADM_KEY_WORD_RIGHT);		/* Alt-f */
		case 0x7f: return (ADM_KEY_KILL_WORD);		/* Alt-BS */
		case 0x1b: k->state = ADM_KS_ESC; return (ADM_KEY_NONE);
		default: return (ADM_KEY_IGNORED);
		}
	case ADM_KS_SS3:
		k->state = ADM_KS_PLAIN;
		switch (c) {
		case 'A': return (ADM_KEY_UP);
		case 'B': return (ADM_KEY_DOWN);
		case 'C': return (ADM_KEY_RIGHT);
		case 'D': return (ADM_KEY_LEFT);
		case 'H': return (ADM_KEY_HOME);
		case 'F': return (ADM_KEY_END);
		default: return (ADM_KEY_IGNORED);
		}
	case ADM_KS_CSI:
		/* Parameter and intermediate bytes, then a final byte. */
		if (c >= 0x20 && c <= 0x3f) {
			if (k->nseq < sizeof k->seq)
				k->seq[k->nseq++] = (char)c;
			return (ADM_KEY_NONE);
		}
		k->state = ADM_KS_PLAIN;
		if (c < 0x40 || c > 0x7e || k->nseq >= sizeof k->seq)
			return (ADM_KEY_IGNORED);
		return (adm_key_csi(k, c));
	default:
		WRONG("adm_keys state");
	}
}

/*--------------------------------------------------------------------*/

/* Characters (not bytes) in [b, e). */
static size_t
adm_chars(const char *s, size_t b, size_t e)
{
	size_t n = 0;

	for (; b < e; b++)
		if (!ADM_CONT(s[b]))
			n++;
	return (n);
}

/* The byte offset n characters after b, at most e. */
static size_t
adm_skip(const char *s, size_t b, size_t e, size_t n)
{

	while (b < e && n > 0) {
		b++;
		while (b < e && ADM_CONT(s[b]))
			b++;
		n--;
	}
	return (b);
}

void
ADM_LineView(const struct adm_line *l, size_t width, size_t *from,
    size_t *to, size_t *col)
{
	size_t f = *from, u;

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	if (width < 2)
		width = 2;
	if (adm_chars(l->buf, 0, l->len) < width) {
		/* It all fits: no scrolling. */
		f = 0;
	} else if (f > l->pos) {
		/* The cursor went left of the view: centre it. */
		f = l->pos;
		for (u = 0; u < width / 2 && f > 0; u++)
			f = adm_prev(l, f);
	} else if (adm_chars(l->buf, f, l->pos) >= width) {
		/* Right of it: by half a view, not at every key. */
		f = adm_skip(l->buf, f, l->pos,
		    adm_chars(l->buf, f, l->pos) - width / 2);
	}
	while (f > 0 && ADM_CONT(l->buf[f]))
		f--;
	/* No blank end while there is text to the left to show. */
	for (u = adm_chars(l->buf, f, l->len); u < width - 1 && f > 0; u++)
		f = adm_prev(l, f);
	*from = f;
	*col = adm_chars(l->buf, f, l->pos);
	*to = adm_skip(l->buf, f, l->len, width);
}

/*--------------------------------------------------------------------*/

void
ADM_WordsInit(struct adm_words *w)
{

	INIT_OBJ(w, ADM_WORDS_MAGIC);
}

void
ADM_WordsFini(struct adm_words *w)
{
	unsigned u;

	CHECK_OBJ(w, ADM_WORDS_MAGIC);
	for (u = 0; u < w->n; u++)
		free(w->w[u]);
	free(w->w);
	INIT_OBJ(w, ADM_WORDS_MAGIC);
}

void
ADM_WordsAdd(struct adm_words *w, const char *s, size_t len)
{

	CHECK_OBJ(w, ADM_WORDS_MAGIC);
	if (w->n == w->cap) {
		w->cap = w->cap == 0 ? 64 : w->cap * 2;
		w->w = adm_need(realloc(w->w, w->cap * sizeof *w->w));
	}
	w->w[w->n++] = adm_strndup(s, len);
}

static int
adm_words_cmp(const void *a, const void *b)
{

	return (strcmp(*(char * const *)a, *(char * const *)b));
}

void
ADM_WordsSort(struct adm_words *w)
{
	unsigned u, n;

	CHECK_OBJ(w, ADM_WORDS_MAGIC);
	if (w->n == 0)
		return;
	qsort(w->w, w->n, sizeof *w->w, adm_words_cmp);
	for (u = n = 1; u < w->n; u++) {
		if (!strcmp(w->w[u], w->w[n - 1]))
			free(w->w[u]);
		else
			w->w[n++] = w->w[u];
	}
	w->n = n;
}

void
ADM_WordsMatch(const struct adm_words *src, const char *p, size_t plen,
    struct adm_words *dst)
{
	unsigned u;

	CHECK_OBJ(src, ADM_WORDS_MAGIC);
	CHECK_OBJ(dst, ADM_WORDS_MAGIC);
	for (u = 0; u < src->n; u++)
		if (!strncmp(src->w[u], p, plen) && strlen(src->w[u]) >= plen)
			ADM_WordsAdd(dst, src->w[u], strlen(src->w[u]));
}

size_t
ADM_WordsCommon(const struct adm_words *w)
{
	size_t n;
	unsigned u;

	CHECK_OBJ(w, ADM_WORDS_MAGIC);
	if (w->n == 0)
		return (0);
	n = strlen(w->w[0]);
	for (u = 1; u < w->n; u++)
		while (n > 0 && strncmp(w->w[0], w->w[u], n))
			n--;
	/* Never end inside a UTF-8 sequence. */
	while (n > 0 && ADM_CONT(w->w[0][n]))
		n--;
	return (n);
}

int
ADM_LineContext(const struct adm_line *l, size_t *wstart, unsigned *argn,
    char *cmd, size_t cmdlen)
{
	size_t p = 0, b;
	unsigned n = 0;

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	assert(cmdlen > 0);
	*cmd = '\0';
	for (;;) {
		while (p < l->pos && ADM_BLANK(l->buf[p]))
			p++;
		b = p;
		while (p < l->pos && !ADM_BLANK(l->buf[p])) {
			if (l->buf[p] == '"')
				return (-1);
			p++;
		}
		if (p == l->pos)
			break;
		/* A whole word before the cursor. */
		if (n == 0)
			(void)snprintf(cmd, cmdlen, "%.*s", (int)(p - b),
			    l->buf + b);
		if (n == 0 || l->buf[b] != '-')
			n++;
	}
	*wstart = b;
	*argn = n;
	return (0);
}

int
ADM_LineComplete(struct adm_line *l, size_t wstart,
    const struct adm_words *cands, struct adm_words *list)
{
	struct adm_words m;
	size_t plen, common;
	int changed = 0;

	CHECK_OBJ(l, ADM_LINE_MAGIC);
	CHECK_OBJ(list, ADM_WORDS_MAGIC);
	assert(list->n == 0);
	assert(wstart <= l->pos);
	plen = l->pos - wstart;
	ADM_WordsInit(&m);
	ADM_WordsMatch(cands, l->buf + wstart, plen, &m);
	ADM_WordsSort(&m);
	if (m.n == 1) {
		ADM_LineReplaceWord(l, wstart, m.w[0], strlen(m.w[0]));
		/* Done with this word, unless a blank is already there. */
		if (l->pos == l->len || !ADM_BLANK(l->buf[l->pos]))
			ADM_LineInsert(l, " ", 1);
		else
			l->pos++;
		changed = 1;
	} else if (m.n > 1) {
		common = ADM_WordsCommon(&m);
		if (common > plen) {
			ADM_LineReplaceWord(l, wstart, m.w[0], common);
			changed = 1;
		} else {
			/* Nothing to add: the caller shows the choices. */
			*list = m;
			return (0);
		}
	}
	ADM_WordsFini(&m);
	return (changed);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * adm_tty.h -- veneeradm's line editor on a terminal: raw mode only
 * while a line is read, so output and ^C between lines behave as usual;
 * the terminal is restored on every way out (return, exit, SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGTSTP and back on SIGCONT).  One per
 * process.
 */

#ifndef VENEER_ADM_TTY_H
#define VENEER_ADM_TTY_H

#include "adm_edit.h"

struct adm_tty;

/*
 * The candidates for the word under the cursor (the caller filters them
 * by its prefix): fill cands, set *wstart where the word starts.  0, or
 * -1 when there is nothing to offer.
 */
typedef int adm_complete_f(void *priv, const struct adm_line *l,
    size_t *wstart, struct adm_words *cands);

enum adm_read {
	ADM_READ_LINE = 1,	/* *line: a malloc'ed line */
	ADM_READ_EOF,		/* ^D on an empty line, or input ended */
	ADM_READ_PEER,		/* peer_fd is readable; the line is kept */
};

/* NULL if fd is not a terminal. */
struct adm_tty *ADM_TtyNew(int fd, struct adm_hist *h,
	    adm_complete_f *complete, void *priv);
void	ADM_TtyFree(struct adm_tty **tp);
/*
 * Edit a line after prompt.  Returns early with ADM_READ_PEER when
 * peer_fd (-1: none) has something to read, leaving the row empty for
 * the caller to write on; the next call goes on with the same line.
 */
enum adm_read ADM_TtyRead(struct adm_tty *t, const char *prompt,
	    int peer_fd, char **line);

#endif /* VENEER_ADM_TTY_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cli.h -- the CLI protocol shared by the manager-child pipe, the admin
 * socket (-T) and veneeradm.  A request is one line; a response is a
 * 13-byte status line "SSS LLLLLLLL\n" (status, body length, both
 * space-padded), the body, and a newline.  Status codes are Varnish's.
 */

#ifndef VENEER_CLI_H
#define VENEER_CLI_H

#include <stddef.h>

enum cli_status {
	CLIS_SYNTAX	= 100,
	CLIS_UNKNOWN	= 101,
	CLIS_UNIMPL	= 102,
	CLIS_TOOFEW	= 104,
	CLIS_TOOMANY	= 105,
	CLIS_PARAM	= 106,
	CLIS_AUTH	= 107,
	CLIS_OK		= 200,
	CLIS_TRUNCATED	= 201,
	CLIS_CANT	= 300,
	CLIS_COMMS	= 400,
	CLIS_CLOSE	= 500,
};

#define CLI_LINE0_LEN	13	/* "200 19      \n" */

/* Write a response; 0 or -1 (errno set). */
int CLI_WriteResult(int fd, unsigned status, const char *body);

/*
 * Read a response within timeout seconds.  *body is malloc'ed and
 * NUL-terminated (caller frees).  Returns 0, or -1 on timeout, EOF or a
 * malformed status line (*status is CLIS_COMMS then).
 */
int CLI_ReadResult(int fd, unsigned *status, char **body, double timeout);

/* Write one request line (a newline is added). 0 or -1. */
int CLI_WriteRequest(int fd, const char *line);

/*
 * Split a request line into words: blanks separate, "double quotes"
 * group, backslash escapes \n \t \" \\ and \xHH inside quotes.  Returns a
 * malloc'ed NULL-terminated vector (free with CLI_FreeArgs), or NULL with
 * *err set to what is wrong.
 */
char **CLI_ParseArgs(const char *line, const char **err);
/*
 * A word as CLI_ParseArgs reads it back: as is when it has no blank,
 * quote, backslash or control byte (and is not empty), else in quotes
 * with those escaped.  malloc'ed.
 */
char *CLI_QuoteWord(const char *s);
void CLI_FreeArgs(char **av);

#endif /* VENEER_CLI_H */

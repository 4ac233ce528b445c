/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_cli.h -- inside the admin CLI: answers being built, the command
 * table (mgt_cli_cmds.c) and what its commands share with the sessions
 * (mgt_cli.c).
 */

#ifndef VENEER_MGT_CLI_H
#define VENEER_MGT_CLI_H

#include <stddef.h>

/* A growing NUL-terminated buffer; zeroed is empty. */
struct mcli_buf {
	char		*p;
	size_t		len;
	size_t		size;
};

void MCLI_BufPrintf(struct mcli_buf *b, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));
void MCLI_BufAdd(struct mcli_buf *b, const char *p, size_t len);
void MCLI_JsonStr(struct mcli_buf *b, const char *s);
/* "[ 2, ["cmd", "arg", ...], time" -- the items and "\n]\n" follow. */
void MCLI_JsonHead(struct mcli_buf *b, char * const *av);

/*
 * rows (lines of tab-separated cells) as columns that fit width, the
 * way varnishd lays out vcl.list: each column as wide as its widest
 * cell, 1 to 3 spaces between; lines starting with a space as they are.
 */
#define MCLI_TABLE_COLS	10
void MCLI_Table(struct mcli_buf *b, const char *rows, int width);

/* A request being answered. */
struct mcli_req {
	unsigned	status;		/* CLIS_OK unless set */
	struct mcli_buf	body;
	char * const	*av;
};

typedef void mcli_func_f(struct mcli_req *r, int ac, char * const *av);

struct mcli_cmd {
	const char	*name;
	const char	*syntax;
	const char	*help;
	int		minarg;		/* words after the name */
	int		maxarg;		/* -1: any number */
	unsigned	json;		/* takes -j (not counted in maxarg) */
	mcli_func_f	*func;
};

/* mgt_vcl.c: the vcl.* commands, NULL-terminated. */
extern const struct mcli_cmd MGT_VclCmds[];

const struct mcli_cmd *MCLI_Find(const char *name);
/*
 * For commands only the child answers: forward av, quoted again, and
 * pass its status and answer on (300 when it is not running).
 */
mcli_func_f MCLI_ChildFwd;
/*
 * The command av[0] names if its arguments fit its syntax; else NULL
 * with the 101, 104 or 105 answer in r.
 */
const struct mcli_cmd *MCLI_Check(struct mcli_req *r, int ac,
    char * const *av);
void MCLI_Banner(struct mcli_buf *b);
void MCLI_Addresses(struct mcli_buf *b);
/* `veneerd -x cli`: the command table as man page source. */
void MCLI_DumpRoff(void);

#endif /* VENEER_MGT_CLI_H */

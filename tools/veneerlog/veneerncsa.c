/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneerncsa.c -- veneerd's log as access log lines: one line per client
 * request (or backend request, -b) in NCSA combined format or the
 * format given (-F, -f), JSON-safe with -j, to stdout or a file (-w,
 * -a) that SIGHUP reopens.  Owns the output; the formats are ncsa.c's.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "ncsa.h"
#include "vlt.h"

struct nc {
	unsigned		magic;
#define NC_MAGIC		0x1f4d8b26
	struct vlt		vlt;
	struct ncsa_format	*format;
	unsigned		flags;		/* NCSA_JSON */
	struct ncsa_buf		line;
	const char		*w_arg;
	int			a_arg;
	FILE			*fo;
};

static void __attribute__((__noreturn__))
usage(int status)
{

	fprintf(status ? stderr : stdout,
	    "usage: veneerncsa [-abcdDhjV] [-F FORMAT | -f FILE] "
	    "[-n WORKDIR] [-P FILE]\n"
	    "                  [-q QUERY] [-t SECONDS|off] [-w FILE]\n"
	    "Print veneerd's requests as access log lines.\n"
	    "  -a              append to the -w file instead of "
	    "overwriting it\n"
	    "  -b              backend requests (with -c: both)\n"
	    "  -c              client requests (the default)\n"
	    "  -d              read the log from its head (oldest records) "
	    "and exit at its end\n"
	    "  -D              daemonize (needs -w)\n"
	    "  -F FORMAT       the line format (default: NCSA combined,\n"
	    "                  %s)\n"
	    "  -f FILE         read the format from the first line of FILE\n"
	    "  -h              this help\n"
	    "  -j              JSON-safe escapes, for formats that make "
	    "JSON\n"
	    "  -n WORKDIR      veneerd's working directory (its -n)\n"
	    "  -P FILE         write the process id to FILE\n"
	    "  -q QUERY        only requests matching QUERY (repeatable: "
	    "or)\n"
	    "  -t SECONDS|off  wait this long for veneerd (default 5)\n"
	    "  -V              version\n"
	    "  -w FILE         write the lines to FILE; SIGHUP reopens it\n"
	    "See veneerncsa(1) for the format codes.\n", NCSA_DEFAULT_FORMAT);
	exit(status);
}

/* -f: the first line of the file. */
static char *
read_format(struct nc *nc, const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL)
		VLT_Fail(&nc->vlt, "-f %s: %s", path, strerror(errno));
	n = getline(&line, &cap, f);
	(void)fclose(f);
	if (n < 0)
		VLT_Fail(&nc->vlt, "-f %s: the file is empty; put the format "
		    "on its first line", path);
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	return (line);
}

static int
output_error(struct nc *nc)
{

	VLT_Err(&nc->vlt, "cannot write to %s: %s", nc->w_arg != NULL ?
	    nc->w_arg : "standard output", strerror(errno));
	return (VLT_STOP);
}

static int
nc_group(void *priv, struct vapi_tx * const *txs, unsigned ntx)
{
	struct nc *nc;
	unsigned u;
	int r;

	CAST_OBJ_NOTNULL(nc, priv, NC_MAGIC);
	for (u = 0; u < ntx; u++) {
		/* A line only for requests that ended. */
		if (!txs[u]->complete)
			continue;
		if (!(txs[u]->type == VAPI_T_REQ && nc->vlt.c_arg) &&
		    !(txs[u]->type == VAPI_T_BEREQ && nc->vlt.b_arg))
			continue;
		r = NCSA_Render(nc->format, txs[u], nc->flags, &nc->line);
		if (r < 0) {
			VLT_Err(&nc->vlt, "out of memory");
			return (VLT_STOP);
		}
		if (r == 0)
			continue;
		if (fwrite(nc->line.b, 1, nc->line.len, nc->fo) !=
		    nc->line.len || fputc('\n', nc->fo) == EOF)
			return (output_error(nc));
	}
	return (0);
}

static int
nc_flush(void *priv)
{
	struct nc *nc;

	CAST_OBJ_NOTNULL(nc, priv, NC_MAGIC);
	if (fflush(nc->fo) != 0)
		return (output_error(nc));
	return (0);
}

static void
nc_open(struct nc *nc, int append)
{

	if (nc->w_arg == NULL) {
		nc->fo = stdout;
		return;
	}
	nc->fo = fopen(nc->w_arg, append ? "a" : "w");
	if (nc->fo == NULL)
		VLT_Fail(&nc->vlt, "-w: cannot open %s for writing: %s",
		    nc->w_arg, strerror(errno));
}

/* SIGHUP: logrotate moved the file away; write on in a new one. */
static int
nc_reopen(void *priv)
{
	struct nc *nc;

	CAST_OBJ_NOTNULL(nc, priv, NC_MAGIC);
	if (fclose(nc->fo) != 0)
		VLT_Err(&nc->vlt, "-w: closing %s: %s", nc->w_arg,
		    strerror(errno));
	nc->fo = fopen(nc->w_arg, "a");
	if (nc->fo == NULL) {
		VLT_Err(&nc->vlt, "-w: cannot reopen %s: %s", nc->w_arg,
		    strerror(errno));
		return (VLT_STOP);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct nc nc[1];
	const char *F_arg = NULL;
	char *f_text = NULL, err[1024];
	int opt, status;

	INIT_OBJ(nc, NC_MAGIC);
	VLT_Init(&nc->vlt, "veneerncsa");
	while ((opt = getopt(argc, argv, "abcdDf:F:hjn:P:q:t:Vw:")) != -1) {
		if (VLT_Option(&nc->vlt, opt, optarg))
			continue;
		switch (opt) {
		case 'a':
			nc->a_arg = 1;
			break;
		case 'f':
			free(f_text);
			f_text = read_format(nc, optarg);
			break;
		case 'F':
			F_arg = optarg;
			break;
		case 'h':
			usage(0);
		case 'j':
			nc->flags |= NCSA_JSON;
			break;
		case 'w':
			nc->w_arg = optarg;
			break;
		default:
			usage(1);
		}
	}
	if (optind != argc)
		VLT_Fail(&nc->vlt, "unexpected argument \"%s\" (see -h)",
		    argv[optind]);
	if (F_arg != NULL && f_text != NULL)
		VLT_Fail(&nc->vlt, "-F and -f exclude each other: give the "
		    "format once");
	if (!nc->vlt.b_arg)
		nc->vlt.c_arg = 1;
	if (nc->vlt.b_arg && nc->vlt.c_arg)
		nc->flags |= NCSA_ANYSIDE;
	if (nc->w_arg != NULL && !strcmp(nc->w_arg, "-"))
		nc->w_arg = NULL;
	if (nc->vlt.D_arg && nc->w_arg == NULL)
		VLT_Fail(&nc->vlt, "-D needs -w FILE: a daemon has no "
		    "terminal to print to");
	nc->format = NCSA_New(f_text != NULL ? f_text : F_arg != NULL ?
	    F_arg : NCSA_DEFAULT_FORMAT, err, sizeof err);
	if (nc->format == NULL)
		VLT_Fail(&nc->vlt, "%s: %s", f_text != NULL ? "-f" : "-F",
		    err);
	free(f_text);
	VLT_Setup(&nc->vlt);
	nc_open(nc, nc->a_arg);
	nc->vlt.group = nc_group;
	nc->vlt.flush = nc_flush;
	nc->vlt.reopen = nc->w_arg != NULL ? nc_reopen : NULL;
	nc->vlt.priv = nc;
	VLT_Daemon(&nc->vlt);
	status = VLT_Main(&nc->vlt);
	if (nc_flush(nc) != 0)
		status = 1;
	VLT_Fini(&nc->vlt);
	NCSA_Free(&nc->format);
	NCSA_BufFini(&nc->line);
	if (nc->fo != stdout && fclose(nc->fo) != 0)
		status = 1;
	return (status);
}

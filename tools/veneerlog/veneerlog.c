/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneerlog.c -- print veneerd's transaction log, grouped (-g), filtered
 * by side (-c, -b), tag (-i, -x), content (-I, -X) and query (-q), or
 * write it to a file in varnishlog -w's format (-w, -a) or as text (-A).
 * The text has varnishlog 7.1's layout, so scripts that read one read
 * the other.  Owns the output (stdout or the -w file) and the filters.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "vlt.h"
#include "vsl_format.h"

/* A -I or -X: a regular expression, maybe limited to some tags. */
struct lf_regex {
	pcre2_code		*re;
	pcre2_match_data	*md;
	unsigned char		tags[VAPI_TAG_MAX];
	int			alltags;
	struct lf_regex		*next;
};

struct lf {
	unsigned		magic;
#define LF_MAGIC		0x2c81f5b0
	struct vlt		vlt;

	/* Filters, as varnishlog applies them. */
	int			ix_seen;	/* any of -i -x -I -X yet */
	unsigned char		select[VAPI_TAG_MAX];
	unsigned char		suppress[VAPI_TAG_MAX];
	struct lf_regex		*re_select;
	struct lf_regex		*re_suppress;

	/* Output. */
	const char		*w_arg;
	int			a_arg;
	int			A_arg;
	FILE			*fo;		/* text */
	struct vapi_writer	*wr;		/* binary (-w without -A) */

	/* A group in varnishlog's order. */
	struct vapi_tx		**order;
	unsigned		*depth;
	unsigned		norder;
};

static void __attribute__((__noreturn__))
usage(int status)
{

	fprintf(status ? stderr : stdout,
	    "usage: veneerlog [-abcdDhV] [-g GROUPING] [-i TAGS] [-I "
	    "[TAGS:]REGEX]\n"
	    "                 [-n WORKDIR] [-P FILE] [-q QUERY] [-r FILE] "
	    "[-t SECONDS|off]\n"
	    "                 [-w FILE [-A]] [-x TAGS] [-X [TAGS:]REGEX]\n"
	    "Print veneerd's shared-memory log.\n"
	    "  -a              append to the -w file instead of "
	    "overwriting it\n"
	    "  -A              write text, not binary, to the -w file\n"
	    "%s"
	    "  -i TAGS         show these tags (comma-separated globs: "
	    "Req*,End)\n"
	    "  -I [TAGS:]REGEX show records matching REGEX (in TAGS)\n"
	    "  -w FILE         write the records to FILE (- for standard "
	    "output),\n"
	    "                  readable with -r; SIGHUP reopens it\n"
	    "  -x TAGS         hide these tags\n"
	    "  -X [TAGS:]REGEX hide records matching REGEX (in TAGS)\n"
	    "See veneerlog(1) for the query language.\n", VLT_Usage_Common);
	exit(status);
}

/*--------------------------------------------------------------------
 * Filters.
 */

/* "Req*,End": each glob must name a tag.  0, or -1 with err. */
static int
taglist(const char *list, unsigned char set[VAPI_TAG_MAX], char *err,
    size_t errlen)
{
	char buf[1024], *p, *q;

	if (strlen(list) >= sizeof buf || *list == '\0') {
		(void)snprintf(err, errlen, "\"%.200s\": give a "
		    "comma-separated list of tags", list);
		return (-1);
	}
	(void)snprintf(buf, sizeof buf, "%s", list);
	for (p = buf; p != NULL; p = q) {
		q = strchr(p, ',');
		if (q != NULL)
			*q++ = '\0';
		if (VAPI_TagGlob(p, set) <= 0) {
			(void)snprintf(err, errlen, "\"%.200s\" is no log tag "
			    "(veneerd -x tags lists them)", p);
			return (-1);
		}
	}
	return (0);
}

/* -i and -I first: everything else is hidden. */
static void
lf_first(struct lf *lf, int opt)
{

	if (!lf->ix_seen && (opt == 'i' || opt == 'I'))
		memset(lf->suppress, 1, sizeof lf->suppress);
	lf->ix_seen = 1;
}

static void
lf_ix(struct lf *lf, int opt, const char *arg)
{
	unsigned char set[VAPI_TAG_MAX];
	char err[512];
	unsigned u;

	memset(set, 0, sizeof set);
	if (taglist(arg, set, err, sizeof err) != 0)
		VLT_Fail(&lf->vlt, "-%c %s", opt, err);
	lf_first(lf, opt);
	for (u = 0; u < VAPI_TAG_MAX; u++) {
		if (!set[u])
			continue;
		lf->select[u] = opt == 'i';
		lf->suppress[u] = opt == 'x';
	}
}

static void
lf_IX(struct lf *lf, int opt, const char *arg)
{
	struct lf_regex *r, **rp;
	const char *colon, *re = arg;
	char tags[1024], err[512];
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code;

	r = calloc(1, sizeof *r);
	if (r == NULL)
		VLT_Fail(&lf->vlt, "out of memory");
	r->alltags = 1;
	/* "TAGS:REGEX" if what precedes the colon names tags. */
	colon = strchr(arg, ':');
	if (colon != NULL && (size_t)(colon - arg) < sizeof tags) {
		memcpy(tags, arg, (size_t)(colon - arg));
		tags[colon - arg] = '\0';
		if (taglist(tags, r->tags, err, sizeof err) == 0) {
			r->alltags = 0;
			re = colon + 1;
		} else
			memset(r->tags, 0, sizeof r->tags);
	}
	r->re = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &code,
	    &off, NULL);
	if (r->re == NULL) {
		(void)pcre2_get_error_message(code, msg, sizeof msg);
		VLT_Fail(&lf->vlt, "-%c %s: bad regular expression at "
		    "character %zu: %s", opt, arg, (size_t)off + 1,
		    (const char *)msg);
	}
	r->md = pcre2_match_data_create_from_pattern(r->re, NULL);
	if (r->md == NULL)
		VLT_Fail(&lf->vlt, "out of memory");
	lf_first(lf, opt);
	rp = opt == 'I' ? &lf->re_select : &lf->re_suppress;
	while (*rp != NULL)
		rp = &(*rp)->next;
	*rp = r;
}

/* Payload as text: without its trailing NULs. */
static size_t
rec_textlen(const struct vapi_rec *rec)
{
	size_t n = rec->len;

	while (n > 0 && rec->data[n - 1] == '\0')
		n--;
	return (n);
}

static int
lf_regex_match(struct lf_regex *list, const struct vapi_rec *rec)
{
	struct lf_regex *r;

	for (r = list; r != NULL; r = r->next) {
		if (!r->alltags && !r->tags[rec->tag])
			continue;
		if (pcre2_match(r->re, (PCRE2_SPTR)rec->data,
		    rec_textlen(rec), 0, 0, r->md, NULL) >= 0)
			return (1);
	}
	return (0);
}

/*
 * Is this record shown?  -c/-b by its side, then -I, -i, -X, -x.  Written
 * to a binary file, Begin, Link and End survive -i and -x (not -I, -X):
 * they hold the transactions together, as varnishlog -w keeps them.
 */
static int
lf_match(struct lf *lf, const struct vapi_rec *rec, int binary)
{

	if (rec->tag == SLT__Bogus || rec->tag >= SLT__Reserved)
		return (0);
	if ((lf->vlt.c_arg || lf->vlt.b_arg) &&
	    !((lf->vlt.c_arg && rec->side == 'c') ||
	    (lf->vlt.b_arg && rec->side == 'b')))
		return (0);
	if (lf->re_select != NULL && lf_regex_match(lf->re_select, rec))
		return (1);
	if (lf->select[rec->tag])
		return (1);
	if (lf->re_suppress != NULL && lf_regex_match(lf->re_suppress, rec))
		return (0);
	if (lf->suppress[rec->tag] && !(binary && (rec->tag == SLT_Begin ||
	    rec->tag == SLT_Link || rec->tag == SLT_End)))
		return (0);
	return (1);
}

/* -c/-b also pick transactions: client requests, backend requests. */
static int
lf_tx_shown(const struct lf *lf, const struct vapi_tx *tx)
{

	if (!lf->vlt.c_arg && !lf->vlt.b_arg)
		return (1);
	switch (tx->type) {
	case VAPI_T_REQ:
		return (lf->vlt.c_arg);
	case VAPI_T_BEREQ:
		return (lf->vlt.b_arg);
	case VAPI_T_RAW:
		return (1);
	default:
		return (0);
	}
}

/*--------------------------------------------------------------------
 * Text output, varnishlog's layout.
 */

static const char *
tx_typename(enum vapi_txtype t)
{

	switch (t) {
	case VAPI_T_SESS:	return ("Session");
	case VAPI_T_REQ:	return ("Request");
	case VAPI_T_BEREQ:	return ("BeReq");
	case VAPI_T_RAW:	return ("Raw");
	default:		return ("Unknown");
	}
}

static void
print_payload(FILE *fo, const struct vapi_rec *rec)
{
	unsigned flags = VAPI_TagFlags(rec->tag), u;
	const unsigned char *p = (const unsigned char *)rec->data;

	if (flags & VAPI_TAGF_BINARY) {
		fputc('[', fo);
		for (u = 0; u < rec->len; u++)
			fprintf(fo, "%02x", p[u]);
		fputs("]\n", fo);
	} else if (flags & VAPI_TAGF_UNSAFE) {
		fputc('"', fo);
		for (u = 0; u < rec->len; u++) {
			if (p[u] >= ' ' && p[u] <= '~')
				fputc(p[u], fo);
			else
				fprintf(fo, "%%%02x", p[u]);
		}
		fputs("\"\n", fo);
	} else {
		fprintf(fo, "%.*s\n", (int)strnlen(rec->data, rec->len),
		    rec->data);
	}
}

static const char *
tag_name(unsigned tag)
{
	const char *n = VAPI_TagName(tag);

	return (n != NULL ? n : "(null)");	/* as varnishlog prints it */
}

static void
print_tx(struct lf *lf, const struct vapi_tx *tx)
{
	const struct vapi_rec *rec;
	FILE *fo = lf->fo;
	unsigned u;

	if (tx->level > 3)
		fprintf(fo, "*%u* ", tx->level);
	else if (tx->level > 0)
		fprintf(fo, "%-3.*s ", (int)tx->level, "***");
	if (tx->level > 0)
		fprintf(fo, "<< %-9s>> %-10u\n", tx_typename(tx->type),
		    tx->vxid);
	for (u = 0; u < tx->nrec; u++) {
		rec = &tx->recs[u];
		if (!lf_match(lf, rec, 0))
			continue;
		if (tx->level == 0)
			fprintf(fo, "%10u %-14s %c ", rec->vxid,
			    tag_name(rec->tag), rec->side);
		else if (tx->level > 3)
			fprintf(fo, "-%u- %-14s ", tx->level,
			    tag_name(rec->tag));
		else
			fprintf(fo, "%-3.*s %-14s ", (int)tx->level, "---",
			    tag_name(rec->tag));
		print_payload(fo, rec);
	}
}

static int
output_error(struct lf *lf)
{

	VLT_Err(&lf->vlt, "cannot write to %s: %s", lf->w_arg != NULL &&
	    strcmp(lf->w_arg, "-") ? lf->w_arg : "standard output",
	    strerror(errno));
	return (VLT_STOP);
}

/* How many generations below the top of its group tx is. */
static unsigned
tx_depth(const struct vapi_tx *tx, unsigned ntx)
{
	unsigned d = 0;

	while (tx->parent != NULL && d < ntx) {
		tx = tx->parent;
		d++;
	}
	return (d);
}

/*
 * The group in varnishlog's order: breadth first (the top, its
 * children, their children...).  The dispatcher hands it over depth
 * first; at each depth both orders agree, so a stable sort by depth
 * does it.  0, or -1 (memory).
 */
static int
lf_order(struct lf *lf, struct vapi_tx * const *txs, unsigned ntx)
{
	struct vapi_tx **o;
	unsigned *depth, u, v, n, d;

	if (ntx > lf->norder) {
		o = realloc(lf->order, ntx * sizeof *o);
		depth = realloc(lf->depth, ntx * sizeof *depth);
		if (o != NULL)
			lf->order = o;
		if (depth != NULL)
			lf->depth = depth;
		if (o == NULL || depth == NULL)
			return (-1);
		lf->norder = ntx;
	}
	for (u = 0; u < ntx; u++)
		lf->depth[u] = tx_depth(txs[u], ntx);
	for (d = 0, n = 0; n < ntx; d++)
		for (v = 0; v < ntx; v++)
			if (lf->depth[v] == d)
				lf->order[n++] = txs[v];
	return (0);
}

static int
lf_group(void *priv, struct vapi_tx * const *txs_df, unsigned ntx)
{
	struct vapi_tx * const *txs = txs_df;
	struct lf *lf;
	unsigned t, u, shown = 0;

	CAST_OBJ_NOTNULL(lf, priv, LF_MAGIC);
	if (ntx > 2) {
		if (lf_order(lf, txs_df, ntx) != 0) {
			VLT_Err(&lf->vlt, "out of memory");
			return (VLT_STOP);
		}
		txs = lf->order;
	}
	for (t = 0; t < ntx; t++) {
		if (!lf_tx_shown(lf, txs[t]))
			continue;
		shown++;
		if (lf->wr == NULL) {
			print_tx(lf, txs[t]);
			continue;
		}
		for (u = 0; u < txs[t]->nrec; u++)
			if (lf_match(lf, &txs[t]->recs[u], 1) &&
			    VAPI_WriterPut(lf->wr, &txs[t]->recs[u]) != 0)
				return (output_error(lf));
	}
	/* A blank line after each group shown. */
	if (lf->wr == NULL && shown > 0 && lf->vlt.grouping != VAPI_G_RAW)
		fputc('\n', lf->fo);
	if (lf->fo != NULL && ferror(lf->fo))
		return (output_error(lf));
	return (0);
}

static int
lf_flush(void *priv)
{
	struct lf *lf;

	CAST_OBJ_NOTNULL(lf, priv, LF_MAGIC);
	if (lf->wr != NULL && VAPI_WriterFlush(lf->wr) != 0)
		return (output_error(lf));
	if (lf->fo != NULL && fflush(lf->fo) != 0)
		return (output_error(lf));
	return (0);
}

static void
lf_open(struct lf *lf, int append)
{
	char err[1024];

	if (lf->w_arg == NULL) {
		lf->fo = stdout;
		return;
	}
	if (!lf->A_arg) {
		lf->wr = VAPI_WriterOpen(lf->w_arg, append, err, sizeof err);
		if (lf->wr == NULL)
			VLT_Fail(&lf->vlt, "-w: %s", err);
		return;
	}
	if (!strcmp(lf->w_arg, "-")) {
		lf->fo = stdout;
		return;
	}
	lf->fo = fopen(lf->w_arg, append ? "a" : "w");
	if (lf->fo == NULL)
		VLT_Fail(&lf->vlt, "-w: cannot open %s for writing: %s",
		    lf->w_arg, strerror(errno));
}

/* SIGHUP: logrotate moved the file away; write on in a new one. */
static int
lf_reopen(void *priv)
{
	struct lf *lf;
	char err[1024];

	CAST_OBJ_NOTNULL(lf, priv, LF_MAGIC);
	if (lf->wr != NULL) {
		if (VAPI_WriterReopen(lf->wr, err, sizeof err) != 0) {
			VLT_Err(&lf->vlt, "-w: %s", err);
			return (VLT_STOP);
		}
		return (0);
	}
	if (lf->fo == stdout)
		return (0);
	if (fclose(lf->fo) != 0)
		VLT_Err(&lf->vlt, "-w: closing %s: %s", lf->w_arg,
		    strerror(errno));
	lf->fo = fopen(lf->w_arg, "a");
	if (lf->fo == NULL) {
		VLT_Err(&lf->vlt, "-w: cannot reopen %s: %s", lf->w_arg,
		    strerror(errno));
		return (VLT_STOP);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct lf lf[1];
	int opt, status;

	INIT_OBJ(lf, LF_MAGIC);
	VLT_Init(&lf->vlt, "veneerlog");
	while ((opt = getopt(argc, argv, "aAbcdDg:hi:I:n:P:q:r:t:Vw:x:X:")) !=
	    -1) {
		if (VLT_Option(&lf->vlt, opt, optarg))
			continue;
		switch (opt) {
		case 'a':
			lf->a_arg = 1;
			break;
		case 'A':
			lf->A_arg = 1;
			break;
		case 'h':
			usage(0);
		case 'i':
		case 'x':
			lf_ix(lf, opt, optarg);
			break;
		case 'I':
		case 'X':
			lf_IX(lf, opt, optarg);
			break;
		case 'w':
			lf->w_arg = optarg;
			break;
		default:
			usage(1);
		}
	}
	if (optind != argc)
		VLT_Fail(&lf->vlt, "unexpected argument \"%s\" (see -h)",
		    argv[optind]);
	if (lf->vlt.D_arg && (lf->w_arg == NULL || !strcmp(lf->w_arg, "-")))
		VLT_Fail(&lf->vlt, "-D needs -w FILE: a daemon has no "
		    "terminal to print to");
	VLT_Setup(&lf->vlt);
	lf_open(lf, lf->a_arg);
	lf->vlt.group = lf_group;
	lf->vlt.flush = lf_flush;
	lf->vlt.reopen = lf->w_arg != NULL ? lf_reopen : NULL;
	lf->vlt.priv = lf;
	VLT_Daemon(&lf->vlt);
	status = VLT_Main(&lf->vlt);
	if (lf_flush(lf) != 0)
		status = 1;
	VLT_Fini(&lf->vlt);
	if (lf->wr != NULL)
		VAPI_WriterClose(&lf->wr);
	if (lf->fo != NULL && lf->fo != stdout && fclose(lf->fo) != 0)
		status = 1;
	free(lf->order);
	free(lf->depth);
	return (status);
}

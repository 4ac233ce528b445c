/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi.h -- libveneerapi: reading a running veneerd's shared memory, the
 * counters and the transaction log, from another process.  Veneer's tools
 * (veneerstat, veneerlog, veneerncsa) are built on it and nothing else of
 * ours parses the segments.  The layout is Varnish 7.1's (see
 * doc/vsm-format.md), so this library also reads a varnishd 7.1 workdir.
 *
 * Everything here is single-threaded: one struct vapi, and the cursors
 * and dispatchers made from it, belong to one thread.
 *
 * Errors: functions that can fail return -1 (or NULL) and leave a message
 * for VAPI_Error(): what failed, on what, and what to do.
 *
 * Versioning: VAPI_VERSION grows with every addition; nothing is removed
 * or changed in meaning without a new major library version.
 */

#ifndef VENEER_VAPI_H
#define VENEER_VAPI_H

#include <stddef.h>
#include <stdint.h>

#define VAPI_VERSION		1

/*====================================================================
 * Attaching to a workdir (VSM)
 */

struct vapi;

struct vapi *VAPI_New(void);
void VAPI_Free(struct vapi **vdp);

/*
 * The workdir: -n's argument, a name (under the state directory, as
 * veneerd takes it) or a path; NULL or "" for veneerd's default.
 */
int VAPI_SetWorkdir(struct vapi *vd, const char *n_arg);
const char *VAPI_Workdir(const struct vapi *vd);

/*
 * Wait until a veneerd (or varnishd 7.1) runs in the workdir: its
 * manager's _.vsm_mgt/_.index can be read.  timeout in seconds; < 0 waits
 * forever, 0 tries once.  0 or -1 ("no running veneerd in <dir> after
 * <n> s; is it running with -n <dir>?").
 */
int VAPI_Attach(struct vapi *vd, double timeout);
const char *VAPI_Error(const struct vapi *vd);

/*
 * Look again at the segments.  Returns a mask of what is true now and
 * what changed since the previous call.  The pointers handed out before
 * (counters, segments) stay valid until a call reports the change that
 * removes them.
 */
#define VAPI_MGT_RUNNING	(1U << 0)
#define VAPI_MGT_CHANGED	(1U << 1)	/* segments came or went */
#define VAPI_MGT_RESTARTED	(1U << 2)	/* a new manager */
#define VAPI_CHILD_RUNNING	(1U << 8)
#define VAPI_CHILD_CHANGED	(1U << 9)
#define VAPI_CHILD_RESTARTED	(1U << 10)	/* a new child */
unsigned VAPI_Status(struct vapi *vd);

/*
 * One segment, mapped read-only.  Find the first live segment of a
 * class (and ident, if not NULL) in index order: manager's set first,
 * then the child's.  0, or -1 if there is none (yet).
 */
struct vapi_seg {
	const char		*class;
	const char		*ident;
	const void		*b;		/* first byte */
	const void		*e;		/* one past the last */
	unsigned		child;		/* in the child's set */
	uint64_t		serial;		/* library use */
};
int VAPI_SegFind(struct vapi *vd, const char *class, const char *ident,
    struct vapi_seg *seg);
/* Is the segment still listed?  (A child restart removes them all.) */
int VAPI_SegValid(struct vapi *vd, const struct vapi_seg *seg);
void VAPI_SegRelease(struct vapi *vd, struct vapi_seg *seg);

/*====================================================================
 * Counters (VSC)
 */

struct vapi_counter {
	const char		*name;		/* "MAIN.client_req" */
	const char		*type;		/* "counter", "gauge", "bitmap" */
	const char		*level;		/* "info", "diag", "debug" */
	const char		*format;	/* "integer", "bytes",
						   "duration", "bitmap" */
	const char		*oneliner;
	const char		*docs;
	const volatile uint64_t	*value;		/* live */
};

/*
 * Counter filters, as veneerstat -f and varnishstat -f take them: a glob
 * on the full name includes, "^glob" excludes; the first matching filter
 * decides; with only exclusions, everything else is included; with no
 * filters, everything.  0, or -1 for an empty glob.
 */
int VAPI_CounterFilter(struct vapi *vd, const char *glob);

typedef int vapi_counter_f(void *priv, const struct vapi_counter *c);
/*
 * Call func for each counter that passes the filters, manager's first,
 * in index order and, within a group, in its JSON order.  Stops at the
 * first non-zero return of func and returns it; 0 when all were seen.
 */
int VAPI_Counters(struct vapi *vd, vapi_counter_f *func, void *priv);
/* One counter by full name ("MAIN.client_req"): 0, or -1 if unknown. */
int VAPI_CounterGet(struct vapi *vd, const char *name, uint64_t *value);

/*====================================================================
 * Log tags
 */

#define VAPI_TAG_MAX		256
#define VAPI_TAGF_UNUSED	(1U << 0)
#define VAPI_TAGF_UNSAFE	(1U << 1)	/* print escaped */
#define VAPI_TAGF_BINARY	(1U << 2)	/* print as hex */

const char *VAPI_TagName(unsigned tag);		/* NULL if unknown */
unsigned VAPI_TagFlags(unsigned tag);
int VAPI_TagByName(const char *name);		/* case-insensitive; -1 */
/*
 * Set set[tag] = 1 for every tag matching glob ("Req*", "*Header",
 * "ReqURL"; case-insensitive).  Returns how many matched, or -1.
 */
int VAPI_TagGlob(const char *glob, unsigned char set[VAPI_TAG_MAX]);

/*====================================================================
 * Log records and cursors (VSL)
 */

struct vapi_rec {
	unsigned		tag;
	uint32_t		vxid;		/* 30 bits */
	char			side;		/* 'c', 'b' or '-' */
	unsigned		len;		/* payload bytes, NUL included
						   for text tags */
	const char		*data;		/* payload */
	const uint32_t		*ptr;		/* the raw record (2 words of
						   head, then the payload) */
};

struct vapi_cursor;

/* Where a shared-memory cursor starts. */
#define VAPI_CUR_TAIL		0		/* new records only (live) */
#define VAPI_CUR_HEAD		(1U << 0)	/* -d: the oldest records
						   still in the log, and stop
						   at the end */

/*
 * A cursor on the live log of the attached veneerd.  NULL with
 * VAPI_Error ("no log segment yet: is the child running?") when there is
 * none; callers retry.
 */
struct vapi_cursor *VAPI_CursorShm(struct vapi *vd, unsigned flags);
/*
 * A cursor on a file written by VAPI_Writer* (or varnishlog -w 7.1);
 * path "-" is standard input.  NULL with a message in err.
 */
struct vapi_cursor *VAPI_CursorFile(const char *path, char *err,
    size_t errlen);
/*
 * A cursor on a log laid out in memory as in the Log segment (tests,
 * and files mapped whole).  The memory is not copied.
 */
struct vapi_cursor *VAPI_CursorMem(const void *head, size_t len,
    unsigned flags);

/* Results of VAPI_CursorNext */
#define VAPI_REC		1	/* *rec is the next record */
#define VAPI_MORE		0	/* nothing more now: try again later */
#define VAPI_EOF		(-1)	/* end of a file, or of the log (HEAD) */
#define VAPI_OVERRUN		(-2)	/* the writer lapped us: records were
					   lost; the cursor is unusable */
#define VAPI_ABANDONED		(-3)	/* the log went away (child restart):
					   make a new cursor */
#define VAPI_BAD		(-4)	/* corrupt input: message in *err of
					   the cursor (VAPI_CursorError) */

/*
 * The next record.  Batches are opened: their records come one by one.
 * rec->data and rec->ptr stay valid until the next call (for the live
 * log: as long as the writer has not lapped the reader; copy what must
 * live longer).
 */
int VAPI_CursorNext(struct vapi_cursor *c, struct vapi_rec *rec);
const char *VAPI_CursorError(const struct vapi_cursor *c);
void VAPI_CursorFree(struct vapi_cursor **cp);

/*
 * Writing records to a file (veneerlog -w): the format of varnishlog -w
 * 7.1, so either tool reads the other's files.  append: add to an
 * existing file instead of truncating it.  Reopen: after logrotate
 * (SIGHUP).
 */
struct vapi_writer;
struct vapi_writer *VAPI_WriterOpen(const char *path, int append,
    char *err, size_t errlen);
int VAPI_WriterPut(struct vapi_writer *w, const struct vapi_rec *rec);
int VAPI_WriterFlush(struct vapi_writer *w);
int VAPI_WriterReopen(struct vapi_writer *w, char *err, size_t errlen);
void VAPI_WriterClose(struct vapi_writer **wp);

/*====================================================================
 * Transactions: records grouped (veneerlog -g)
 */

enum vapi_grouping {
	VAPI_G_RAW,		/* every record alone */
	VAPI_G_VXID,		/* one transaction at a time (default) */
	VAPI_G_REQUEST,		/* a client request and what it started */
	VAPI_G_SESSION,		/* a session and all its requests */
};

enum vapi_txtype {
	VAPI_T_UNKNOWN,
	VAPI_T_SESS,
	VAPI_T_REQ,
	VAPI_T_BEREQ,
	VAPI_T_RAW,
};

struct vapi_tx {
	uint32_t		vxid;
	uint32_t		vxid_parent;
	enum vapi_txtype	type;
	const char		*reason;	/* "rxreq", "pass", "fetch"... */
	unsigned		level;		/* 1 for the group's top */
	unsigned		complete;	/* its End record was seen */
	struct vapi_tx		*parent;
	const struct vapi_rec	*recs;		/* in log order */
	unsigned		nrec;
};

struct vapi_dispatch;

/*
 * Group a cursor's records.  A transaction is complete at its End
 * record; a group is complete when all its transactions are.  A group
 * still incomplete after tx_timeout seconds (live log), or at the end of
 * the input, is handed over as it is, marked incomplete.
 */
struct vapi_dispatch *VAPI_DispatchNew(struct vapi_cursor *c,
    enum vapi_grouping g, double tx_timeout);
void VAPI_DispatchFree(struct vapi_dispatch **dp);

/*
 * A complete group: txs[0] is the top, then its descendants depth first;
 * each tx's level says its depth.  Return non-zero to stop dispatching.
 */
typedef int vapi_group_f(void *priv, struct vapi_tx * const *txs,
    unsigned ntx);
/*
 * Read what the cursor has, calling func for each group completed.
 * Returns a VAPI_CursorNext result (VAPI_MORE when all available input
 * was used, VAPI_EOF...) or func's non-zero return.
 */
int VAPI_Dispatch(struct vapi_dispatch *d, vapi_group_f *func, void *priv);

/*====================================================================
 * The query language (veneerlog -q, veneerncsa -q)
 *
 *   ReqURL ~ "^/img"          RespStatus >= 500
 *   ReqHeader:Host eq "example.com"
 *   Timestamp:Resp[2] > 1.0   (the 2nd field of the Resp timestamp)
 *   combined with and, or, not and parentheses.
 * Operators: == != < <= > >= (numbers), eq ne (strings), ~ !~ (PCRE2
 * regular expressions).  A record list is matched if any of its records
 * make the expression true.  {N}Tag restricts to transactions at level N.
 */

struct vapi_query;
struct vapi_query *VAPI_QueryNew(const char *q, char *err, size_t errlen);
int VAPI_QueryMatch(const struct vapi_query *q, struct vapi_tx * const *txs,
    unsigned ntx);
void VAPI_QueryFree(struct vapi_query **qp);

/*====================================================================
 * Additions (issue #4, log tools), kept apart from the interface above.
 *
 * VAPI_CursorError(NULL): why the last VAPI_CursorShm() returned NULL
 * (no Log segment yet, or its head not initialized yet), for callers
 * that want more than VAPI_Error() says.
 */

#endif /* VENEER_VAPI_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_cursor.c -- reading log records one by one: from the live Log
 * segment of a workdir, from a log laid out in memory, or from a file
 * written by veneerlog -w or varnishlog -w (Varnish 7.1); and writing
 * such files.  Owns struct vapi_cursor and struct vapi_writer.  No locks:
 * a cursor belongs to one thread, and the log writer in the other
 * process is only ever read.
 *
 * The ring (doc/vsm-format.md sections 2.2 to 2.5) is 8 segments of
 * segsize words; the writer publishes segment_n, the running number of
 * the segment it writes in, and offset[i], the first record boundary in
 * segment i.  A cursor remembers the running number of the segment it
 * reads in ("priv"); the writer may overwrite what the cursor has not
 * read yet once it is 8 segments ahead, so at 6 the cursor gives up
 * (VAPI_OVERRUN), as Varnish 7.1's reader does.
 *
 * A lapped reader never returns a corrupt record: every record is copied
 * out of the ring first, and the distance to the writer is checked again
 * after the copy; only if the writer was still far enough away is the
 * copy handed out.  (The writer publishes segment_n before it fills what
 * it reserved, and on x86 stores are seen in order, so a copy taken
 * while the writer was far away cannot hold its new words.)  Every
 * length read from the ring or a file is bounded before it is used:
 * corrupt input is VAPI_BAD with a message, never a crash.
 */

#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "vsl_format.h"

/* Distances (in segments) to the writer, as Varnish 7.1 counts them. */
#define RING_OVERRUN		6U

/* How often a live cursor waiting at the end asks whether its log went. */
#define RING_VALID_CHECK	0.1	/* seconds */

/* The file format of varnishlog -w: this, then records. */
static const char file_id[4] = VSL_FILE_ID;

enum cursor_kind {
	CURSOR_RING,
	CURSOR_FILE,
};

struct vapi_cursor {
	unsigned		magic;
#define VAPI_CURSOR_MAGIC	0x3d8e51c7
	enum cursor_kind	kind;
	unsigned		flags;		/* VAPI_CUR_* */
	int			dead;		/* the last result, if final */

	/* Ring cursors. */
	struct vapi		*vd;		/* NULL: CursorMem */
	struct vapi_seg		seg;		/* the Log segment we hold */
	const struct vsl_head	*head;		/* in the mapping */
	const uint32_t		*log;
	uint32_t		segsize;
	uint32_t		nwords;		/* 8 * segsize */
	uint32_t		next;		/* word of the next record */
	uint32_t		batch_end;	/* 0, or one past the batch */
	uint32_t		priv;		/* segment number of next */
	double			t_valid;	/* last VAPI_SegValid */
	uint64_t		nrec;		/* records returned */
	uint64_t		nword;		/* and their words */

	/* File cursors. */
	FILE			*fp;
	int			own_fp;		/* not stdin */
	uint64_t		foff;		/* bytes read */

	/* The record handed out: a copy, then one word of NULs. */
	uint32_t		*copy;
	char			err[512];
};

static void __attribute__((__format__(__printf__, 2, 3)))
cursor_err(struct vapi_cursor *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(c->err, sizeof c->err, fmt, ap);
	va_end(ap);
}

static double
cursor_now(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &ts));
	return ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
}

static struct vapi_cursor *
cursor_new(enum cursor_kind kind, unsigned flags)
{
	struct vapi_cursor *c;

	ALLOC_OBJ(c, VAPI_CURSOR_MAGIC);
	if (c == NULL)
		return (NULL);
	c->copy = malloc((VSL_MAXWORDS + 1) * sizeof *c->copy);
	if (c->copy == NULL) {
		FREE_OBJ(c);
		return (NULL);
	}
	c->kind = kind;
	c->flags = flags;
	return (c);
}

/* Fill rec from the copy of a record. */
static void
cursor_rec(struct vapi_cursor *c, struct vapi_rec *rec)
{
	uint32_t w0 = c->copy[0], w1 = c->copy[1];

	memset(rec, 0, sizeof *rec);
	rec->tag = VSL_HEAD_TAG(w0);
	rec->len = VSL_HEAD_LEN(w0);
	rec->vxid = VSL_HEAD_ID(w1);
	rec->side = (w1 & VSL_CLIENTMARKER) ? 'c' :
	    (w1 & VSL_BACKENDMARKER) ? 'b' : '-';
	rec->ptr = c->copy;
	rec->data = (const char *)(c->copy + VSL_OVERHEAD);
	/* A NUL after the payload: readers may treat it as a string. */
	c->copy[VSL_OVERHEAD + VSL_WORDS(rec->len)] = 0;
	c->nrec++;
	c->nword += VSL_OVERHEAD + VSL_WORDS(rec->len);
}

/*--------------------------------------------------------------------
 * The ring.
 */

static uint32_t
ring_segment_n(const struct vapi_cursor *c)
{

	return (__atomic_load_n(&c->head->segment_n, __ATOMIC_ACQUIRE));
}

static uint32_t
ring_word(const struct vapi_cursor *c, uint32_t i)
{

	assert(i < c->nwords);
	return (__atomic_load_n(&c->log[i], __ATOMIC_ACQUIRE));
}

/* Has the writer come so close from behind that priv may be overwritten? */
static int
ring_lapped(const struct vapi_cursor *c, uint32_t priv)
{

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return (ring_segment_n(c) - priv >= RING_OVERRUN);
}

/* Keep priv the running number of the segment next is in. */
static void
ring_follow(struct vapi_cursor *c)
{

	while (c->next / c->segsize > c->priv % VSL_SEGMENTS)
		c->priv++;
}

/*
 * Check a head: marker, a segment size that fits the mapping.  0, or -1
 * with why.
 */
static int
ring_check_head(const void *b, size_t len, uint32_t *segsizep, char *why,
    size_t whylen)
{
	const struct vsl_head *h = b;
	int64_t segsize;

	if (len < sizeof *h + 4 * VSL_SEGMENTS) {
		(void)snprintf(why, whylen, "log segment too small (%zu "
		    "bytes)", len);
		return (-1);
	}
	if (memcmp(h->marker, VSL_HEAD_MARKER, sizeof h->marker) != 0) {
		(void)snprintf(why, whylen, "not a log segment, or not "
		    "initialized yet (no VSLHEAD1 marker)");
		return (-1);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	segsize = h->segsize;
	if (segsize < 16 || (uint64_t)segsize > (len - sizeof *h) / 4 /
	    VSL_SEGMENTS || (uint64_t)segsize * VSL_SEGMENTS > UINT32_MAX / 2) {
		(void)snprintf(why, whylen, "corrupt log head: %" PRId64
		    " words per segment do not fit %zu bytes", segsize, len);
		return (-1);
	}
	*segsizep = (uint32_t)segsize;
	return (0);
}

static int64_t
ring_offset(const struct vapi_cursor *c, uint32_t segment)
{

	return (__atomic_load_n(&c->head->offset[segment % VSL_SEGMENTS],
	    __ATOMIC_ACQUIRE));
}

/*
 * The words of the record (or whole batch) whose word 0 is w, at next:
 * 0 if w is no record head or it does not end before the end of the
 * log (where the writer always leaves room for the end marker).
 */
static uint32_t
ring_record_words(const struct vapi_cursor *c, uint32_t w)
{
	uint64_t n;
	uint32_t blen;

	if (w == 0 || VSL_HEAD_TAG(w) == SLT__Reserved ||
	    c->nwords - c->next <= VSL_OVERHEAD)
		return (0);
	if (VSL_HEAD_TAG(w) == SLT__Batch) {
		blen = ring_word(c, c->next + 1);
		if (blen % 4 != 0)
			return (0);
		n = VSL_OVERHEAD + (uint64_t)blen / 4;
	} else
		n = VSL_OVERHEAD + VSL_WORDS(VSL_HEAD_LEN(w));
	return (n < c->nwords - c->next ? (uint32_t)n : 0);
}

/* -d: the start of the segment 5 behind the writer's. */
static int
ring_start_head(struct vapi_cursor *c)
{
	int64_t off;

	c->priv = ring_segment_n(c) - (RING_OVERRUN - 1);
	for (;;) {
		off = ring_offset(c, c->priv);
		if (off >= 0)
			break;
		if (c->priv % VSL_SEGMENTS == 0) {
			cursor_err(c, "corrupt log head: no segment has a "
			    "record boundary (offset[0] < 0)");
			return (-1);
		}
		c->priv++;
	}
	if (off >= c->nwords) {
		cursor_err(c, "corrupt log head: offset %" PRId64 " is past "
		    "the end of the log (%u words)", off, c->nwords);
		return (-1);
	}
	c->next = (uint32_t)off;
	c->batch_end = 0;
	ring_follow(c);
	return (0);
}

/*
 * Live: find the end marker, starting at the first record of the
 * writer's segment.  0; 1 if the writer moved on too fast (try again);
 * -1 if the log is corrupt.
 */
static int
ring_start_tail_once(struct vapi_cursor *c)
{
	uint32_t u, w, n, steps;
	int64_t off;

	u = ring_segment_n(c);
	off = ring_offset(c, u);
	if (off < 0 || off >= c->nwords) {
		cursor_err(c, "corrupt log head: offset[%u] is %" PRId64,
		    u % VSL_SEGMENTS, off);
		return (-1);
	}
	c->priv = u;
	c->next = (uint32_t)off;
	for (steps = 0; steps <= c->nwords; steps++) {
		if (ring_segment_n(c) - u > 1)
			return (1);
		w = ring_word(c, c->next);
		if (w == VSL_ENDMARKER) {
			c->batch_end = 0;
			ring_follow(c);
			return (0);
		}
		if (w == VSL_WRAPMARKER) {
			c->next = 0;
			c->priv = (c->priv | (VSL_SEGMENTS - 1)) + 1;
			continue;
		}
		n = ring_record_words(c, w);
		if (n == 0) {
			if (ring_segment_n(c) - u > 1)
				return (1);
			cursor_err(c, "corrupt log: bad record word 0x%08x at "
			    "word %u", w, c->next);
			return (-1);
		}
		c->next += n;
		ring_follow(c);
	}
	cursor_err(c, "corrupt log: no end marker");
	return (-1);
}

static int
ring_start(struct vapi_cursor *c)
{
	int i, r;

	if (c->flags & VAPI_CUR_HEAD)
		return (ring_start_head(c));
	for (i = 0; i < 10; i++) {
		r = ring_start_tail_once(c);
		if (r <= 0)
			return (r);
	}
	cursor_err(c, "the log moves too fast to find its end");
	return (-1);
}

static int
ring_init(struct vapi_cursor *c, const void *b, size_t len)
{

	if (ring_check_head(b, len, &c->segsize, c->err, sizeof c->err))
		return (-1);
	c->head = b;
	c->log = c->head->log;
	c->nwords = c->segsize * VSL_SEGMENTS;
	return (ring_start(c));
}

static int
ring_overrun(struct vapi_cursor *c)
{
	uint64_t words, recs;
	uint32_t dist;

	if (c->vd != NULL && !VAPI_SegValid(c->vd, &c->seg)) {
		cursor_err(c, "the Log segment is no longer listed: the "
		    "child stopped or restarted");
		c->dead = VAPI_ABANDONED;
		return (c->dead);
	}
	dist = ring_segment_n(c) - c->priv;
	if (dist >= 1U << 31) {
		/* We are ahead of the writer: we followed garbage. */
		cursor_err(c, "corrupt log: the reader got ahead of the "
		    "writer (segment %u, writer in %u)", c->priv,
		    ring_segment_n(c));
		c->dead = VAPI_BAD;
		return (c->dead);
	}
	words = (uint64_t)dist * c->segsize;
	recs = c->nrec > 0 ? words * c->nrec / (c->nword ? c->nword : 1) :
	    words / 40;
	cursor_err(c, "log overrun: the writer lapped this reader; skipped "
	    "about %" PRIu64 " records (%" PRIu64 " KiB)", recs,
	    words * 4 / 1024);
	c->dead = VAPI_OVERRUN;
	return (c->dead);
}

static int
ring_bad(struct vapi_cursor *c, uint32_t priv, const char *what, uint32_t w)
{

	/* Garbage where the writer has lapped us is an overrun. */
	if (ring_lapped(c, priv))
		return (ring_overrun(c));
	cursor_err(c, "corrupt log: %s (word 0x%08x at %u)", what, w,
	    c->next);
	c->dead = VAPI_BAD;
	return (c->dead);
}

/* At the end of what was written: EOF for -d, else wait or abandon. */
static int
ring_at_end(struct vapi_cursor *c)
{
	double now;

	if (c->flags & VAPI_CUR_HEAD)
		return (c->dead = VAPI_EOF);	/* -d stops at the end */
	if (c->vd == NULL)
		return (VAPI_MORE);
	now = cursor_now();
	if (now - c->t_valid < RING_VALID_CHECK)
		return (VAPI_MORE);
	c->t_valid = now;
	if (VAPI_SegValid(c->vd, &c->seg))
		return (VAPI_MORE);
	cursor_err(c, "the Log segment is no longer listed: the child "
	    "stopped or restarted");
	c->dead = VAPI_ABANDONED;
	return (c->dead);
}

/* Copy the record of n words at next, check it is intact, hand it out. */
static int
ring_take(struct vapi_cursor *c, uint32_t w0, uint32_t n,
    struct vapi_rec *rec)
{
	uint32_t priv = c->priv;

	c->copy[0] = w0;
	memcpy(c->copy + 1, c->log + c->next + 1, (n - 1) * sizeof *c->copy);
	if (ring_lapped(c, priv))
		return (ring_overrun(c));
	c->next += n;
	ring_follow(c);
	cursor_rec(c, rec);
	return (VAPI_REC);
}

/* The next record inside the batch we are in. */
static int
ring_next_batched(struct vapi_cursor *c, struct vapi_rec *rec)
{
	uint32_t w, n, priv = c->priv;

	w = ring_word(c, c->next);
	if (c->batch_end - c->next < VSL_OVERHEAD)
		return (ring_bad(c, priv, "record overruns its batch", w));
	n = VSL_OVERHEAD + VSL_WORDS(VSL_HEAD_LEN(w));
	if (w == 0 || VSL_HEAD_TAG(w) >= SLT__Reserved)
		return (ring_bad(c, priv, "bad record in a batch", w));
	if (n > c->batch_end - c->next)
		return (ring_bad(c, priv, "record overruns its batch", w));
	return (ring_take(c, w, n, rec));
}

static int
ring_next(struct vapi_cursor *c, struct vapi_rec *rec)
{
	uint32_t w, n, priv;

	for (;;) {
		priv = c->priv;
		if (ring_lapped(c, priv))
			return (ring_overrun(c));
		if (c->next >= c->nwords)
			return (ring_bad(c, priv, "position past the end", 0));
		if (c->batch_end != 0) {
			if (c->next < c->batch_end)
				return (ring_next_batched(c, rec));
			c->batch_end = 0;
		}
		w = ring_word(c, c->next);
		if (w == VSL_ENDMARKER)
			return (ring_at_end(c));
		if (w == VSL_WRAPMARKER) {
			c->next = 0;
			c->priv = (c->priv | (VSL_SEGMENTS - 1)) + 1;
			continue;
		}
		n = ring_record_words(c, w);
		if (n == 0)
			return (ring_bad(c, priv, "not a record, or one past "
			    "the end of the log", w));
		if (VSL_HEAD_TAG(w) == SLT__Batch) {
			c->batch_end = c->next + n;
			c->next += VSL_OVERHEAD;
			ring_follow(c);
			continue;
		}
		return (ring_take(c, w, n, rec));
	}
}

struct vapi_cursor *
VAPI_CursorMem(const void *head, size_t len, unsigned flags)
{
	struct vapi_cursor *c;

	if (head == NULL)
		return (NULL);
	c = cursor_new(CURSOR_RING, flags);
	if (c == NULL)
		return (NULL);
	if (ring_init(c, head, len) != 0)
		VAPI_CursorFree(&c);
	return (c);
}

/*
 * Why the last VAPI_CursorShm() failed, for VAPI_CursorError(NULL):
 * struct vapi's message buffer belongs to vapi_vsm.c.  Single-threaded
 * like the rest of the library.
 */
static char shm_err[512];

struct vapi_cursor *
VAPI_CursorShm(struct vapi *vd, unsigned flags)
{
	struct vapi_cursor *c;

	assert(vd != NULL);
	c = cursor_new(CURSOR_RING, flags);
	if (c == NULL) {
		(void)snprintf(shm_err, sizeof shm_err, "out of memory");
		return (NULL);
	}
	if (VAPI_SegFind(vd, "Log", NULL, &c->seg) != 0) {
		(void)snprintf(shm_err, sizeof shm_err, "no log segment yet: "
		    "is the child running? (%s)", VAPI_Error(vd));
		VAPI_CursorFree(&c);
		return (NULL);
	}
	c->vd = vd;
	c->t_valid = cursor_now();
	if (ring_init(c, c->seg.b, (size_t)((const char *)c->seg.e -
	    (const char *)c->seg.b)) != 0) {
		(void)snprintf(shm_err, sizeof shm_err, "%s", c->err);
		VAPI_CursorFree(&c);
		return (NULL);
	}
	shm_err[0] = '\0';
	return (c);
}

/*--------------------------------------------------------------------
 * Files: "VSL\0", then records (2 words, then the padded payload).
 * Batch heads (SLT__Batch, length 0) are stepped over: the records they
 * enclose follow as ordinary records.
 */

static int
file_read(struct vapi_cursor *c, void *buf, size_t len, const char *what)
{
	size_t n;

	n = fread(buf, 1, len, c->fp);
	c->foff += n;
	if (n == len)
		return (1);
	if (ferror(c->fp)) {
		cursor_err(c, "reading the log file: %s", strerror(errno));
		return (-1);
	}
	if (n == 0 && what == NULL)
		return (0);
	cursor_err(c, "the log file ends inside %s at byte %" PRIu64
	    ": truncated?", what != NULL ? what : "a record head", c->foff);
	return (-1);
}

static int
file_next(struct vapi_cursor *c, struct vapi_rec *rec)
{
	uint32_t w0, n;
	int i;

	for (;;) {
		i = file_read(c, c->copy, VSL_OVERHEAD * sizeof *c->copy,
		    NULL);
		if (i == 0)
			return (VAPI_EOF);
		if (i < 0)
			return (c->dead = VAPI_BAD);
		w0 = c->copy[0];
		if (VSL_HEAD_TAG(w0) == SLT__Batch)
			continue;
		if (VSL_HEAD_TAG(w0) == 0 ||
		    VSL_HEAD_TAG(w0) == SLT__Reserved) {
			cursor_err(c, "corrupt log file: word 0x%08x at byte "
			    "%" PRIu64 " is not a record", w0,
			    c->foff - VSL_OVERHEAD * 4);
			return (c->dead = VAPI_BAD);
		}
		n = VSL_WORDS(VSL_HEAD_LEN(w0));
		if (n > 0 && file_read(c, c->copy + VSL_OVERHEAD,
		    n * sizeof *c->copy, "a record's payload") != 1)
			return (c->dead = VAPI_BAD);
		cursor_rec(c, rec);
		return (VAPI_REC);
	}
}

struct vapi_cursor *
VAPI_CursorFile(const char *path, char *err, size_t errlen)
{
	struct vapi_cursor *c;
	char id[sizeof file_id];

	assert(path != NULL);
	c = cursor_new(CURSOR_FILE, 0);
	if (c == NULL) {
		(void)snprintf(err, errlen, "out of memory");
		return (NULL);
	}
	if (!strcmp(path, "-")) {
		c->fp = stdin;
	} else {
		c->fp = fopen(path, "r");
		if (c->fp == NULL) {
			(void)snprintf(err, errlen, "cannot open %s: %s",
			    path, strerror(errno));
			VAPI_CursorFree(&c);
			return (NULL);
		}
		c->own_fp = 1;
	}
	if (fread(id, 1, sizeof id, c->fp) != sizeof id ||
	    memcmp(id, file_id, sizeof id) != 0) {
		(void)snprintf(err, errlen, "%s is not a log file (written "
		    "by veneerlog -w or varnishlog -w, it starts with "
		    "\"VSL\\0\")", !strcmp(path, "-") ? "standard input" :
		    path);
		VAPI_CursorFree(&c);
		return (NULL);
	}
	c->foff = sizeof id;
	return (c);
}

/*--------------------------------------------------------------------*/

int
VAPI_CursorNext(struct vapi_cursor *c, struct vapi_rec *rec)
{

	CHECK_OBJ(c, VAPI_CURSOR_MAGIC);
	assert(rec != NULL);
	if (c->dead != 0)
		return (c->dead);
	if (c->kind == CURSOR_FILE)
		return (file_next(c, rec));
	return (ring_next(c, rec));
}

const char *
VAPI_CursorError(const struct vapi_cursor *c)
{

	if (c == NULL)
		return (shm_err);
	CHECK_OBJ(c, VAPI_CURSOR_MAGIC);
	return (c->err);
}

void
VAPI_CursorFree(struct vapi_cursor **cp)
{
	struct vapi_cursor *c;

	TAKE_OBJ_NOTNULL(c, cp, VAPI_CURSOR_MAGIC);
	if (c->vd != NULL)
		VAPI_SegRelease(c->vd, &c->seg);
	if (c->fp != NULL && c->own_fp)
		(void)fclose(c->fp);
	free(c->copy);
	FREE_OBJ(c);
}

/*--------------------------------------------------------------------
 * Writing files.
 */

struct vapi_writer {
	unsigned		magic;
#define VAPI_WRITER_MAGIC	0x91b6e04d
	char			*path;		/* NULL: standard output */
	FILE			*fp;
};

/* Open (always appending after the first time); write the file id. */
static int
writer_open(struct vapi_writer *w, int append, char *err, size_t errlen)
{
	struct stat st;

	if (w->path == NULL) {
		w->fp = stdout;
	} else {
		w->fp = fopen(w->path, append ? "a" : "w");
		if (w->fp == NULL) {
			(void)snprintf(err, errlen, "cannot open %s for "
			    "writing: %s", w->path, strerror(errno));
			return (-1);
		}
	}
	/* A new or empty file starts with the id; appends do not repeat it. */
	if (fstat(fileno(w->fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && append)
		return (0);
	if (fwrite(file_id, 1, sizeof file_id, w->fp) != sizeof file_id) {
		(void)snprintf(err, errlen, "cannot write %s: %s",
		    w->path != NULL ? w->path : "standard output",
		    strerror(errno));
		return (-1);
	}
	return (0);
}

struct vapi_writer *
VAPI_WriterOpen(const char *path, int append, char *err, size_t errlen)
{
	struct vapi_writer *w;

	assert(path != NULL);
	ALLOC_OBJ(w, VAPI_WRITER_MAGIC);
	if (w == NULL) {
		(void)snprintf(err, errlen, "out of memory");
		return (NULL);
	}
	if (strcmp(path, "-") != 0) {
		w->path = strdup(path);
		if (w->path == NULL) {
			(void)snprintf(err, errlen, "out of memory");
			FREE_OBJ(w);
			return (NULL);
		}
	}
	if (writer_open(w, append, err, errlen) != 0) {
		VAPI_WriterClose(&w);
		return (NULL);
	}
	return (w);
}

int
VAPI_WriterPut(struct vapi_writer *w, const struct vapi_rec *rec)
{
	uint32_t head[VSL_OVERHEAD];
	static const char pad[4];
	size_t len;

	CHECK_OBJ(w, VAPI_WRITER_MAGIC);
	assert(rec != NULL);
	if (w->fp == NULL)
		return (-1);
	if (rec->ptr != NULL) {
		len = (VSL_OVERHEAD + VSL_WORDS(VSL_HEAD_LEN(rec->ptr[0]))) * 4;
		return (fwrite(rec->ptr, 1, len, w->fp) == len ? 0 : -1);
	}
	/* A record put together by hand: make its head. */
	assert(rec->len <= VSL_LENMASK && rec->tag > SLT__Bogus &&
	    rec->tag < SLT__Reserved);
	head[0] = VSL_HEAD(rec->tag, rec->len);
	head[1] = VSL_HEAD_ID(rec->vxid) | (rec->side == 'c' ?
	    VSL_CLIENTMARKER : rec->side == 'b' ? VSL_BACKENDMARKER : 0);
	if (fwrite(head, 1, sizeof head, w->fp) != sizeof head ||
	    fwrite(rec->data, 1, rec->len, w->fp) != rec->len)
		return (-1);
	len = VSL_WORDS(rec->len) * 4 - rec->len;
	return (fwrite(pad, 1, len, w->fp) == len ? 0 : -1);
}

int
VAPI_WriterFlush(struct vapi_writer *w)
{

	CHECK_OBJ(w, VAPI_WRITER_MAGIC);
	if (w->fp == NULL)
		return (-1);
	return (fflush(w->fp) == 0 ? 0 : -1);
}

/*
 * After logrotate: the path may name a new file now.  Reopened in append
 * mode whatever it was opened with, so a SIGHUP without rotation loses
 * nothing.
 */
int
VAPI_WriterReopen(struct vapi_writer *w, char *err, size_t errlen)
{

	CHECK_OBJ(w, VAPI_WRITER_MAGIC);
	if (w->path == NULL)
		return (0);
	if (w->fp != NULL && fclose(w->fp) != 0) {
		w->fp = NULL;
		(void)snprintf(err, errlen, "closing %s: %s", w->path,
		    strerror(errno));
		return (-1);
	}
	w->fp = NULL;
	return (writer_open(w, 1, err, errlen));
}

void
VAPI_WriterClose(struct vapi_writer **wp)
{
	struct vapi_writer *w;

	TAKE_OBJ_NOTNULL(w, wp, VAPI_WRITER_MAGIC);
	if (w->fp != NULL) {
		if (w->path != NULL)
			(void)fclose(w->fp);	/* data errors: Flush said */
		else
			(void)fflush(w->fp);
	}
	free(w->path);
	FREE_OBJ(w);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_vsm.c -- attaching to a workdir and tracking its shared-memory
 * segments (doc/vsm-format.md sections 1.4 to 1.8 and 6).  Owns struct
 * vapi, the two sets (_.vsm_mgt, _.vsm_child), their index files and the
 * segment mappings.  Single-threaded, no locks.
 *
 * Each set's _.index is read incrementally: the bytes of complete lines
 * already applied are remembered, and only what was appended since is
 * read.  A new inode, a shrunk file or a new set directory means the
 * index is read again from the start; surviving lines are matched with
 * the segments already known so their mappings stay.  A segment that
 * goes away is kept ("stale") until VAPI_Status has reported the change
 * and nobody holds it any more.
 *
 * Unlike Varnish 7.1, a set counts as running only if the pid in its
 * index header is alive (kill(pid, 0); EPERM is alive), since veneerd
 * leaves its files behind when it crashes.  VSM_NOPID in the
 * environment turns that off, as in later Varnish versions (pid
 * namespaces).
 */

#include "config.h"

#include <sys/mman.h>
#include <sys/queue.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "vsm/vapi_vsm.h"

#define VSMR_RBUF		65536	/* index read buffer; longest line */
#define VSMR_POLL		0.1	/* seconds between attach attempts */

struct vsmr_seg {
	unsigned		magic;
#define VSMR_SEG_MAGIC		0x5c0b7e21
	TAILQ_ENTRY(vsmr_seg)	list;		/* set->segs or vd->stale */
	char			*id;		/* "file off len class ident",
						   the identity */
	char			*file;		/* the rest: in one block */
	char			*class;		/* "" for a cluster line */
	char			*ident;
	uint64_t		off;
	uint64_t		len;
	unsigned		cluster;	/* a cluster line: not shown */
	unsigned		child;		/* in the child's set */
	unsigned		stale;		/* no longer listed */
	unsigned		reported;	/* ...and VAPI_Status said so */
	unsigned		refs;
	uint64_t		serial;
	void			*map;		/* NULL until mapped */
	size_t			maplen;
	const char		*b;		/* the segment in the map */
	void			*priv;		/* vapi_vsc.c's, with... */
	vsmr_priv_free_f	*priv_free;	/* ...its destructor */
};

TAILQ_HEAD(vsmr_seghead, vsmr_seg);

struct vsmr_set {
	unsigned		magic;
#define VSMR_SET_MAGIC		0x2f9d4a80
	const char		*name;		/* "_.vsm_mgt" */
	unsigned		child;
	unsigned		running;
	int			dfd;		/* the set directory, or -1 */
	dev_t			ddev;
	ino_t			dino;
	int			ifd;		/* its _.index, or -1 */
	dev_t			idev;
	ino_t			iino;
	off_t			consumed;	/* bytes of whole lines read */
	unsigned		skipping;	/* inside an overlong line */
	unsigned		have_header;	/* of the open index */
	intmax_t		pid;		/* 0: header without a pid */
	intmax_t		birth;
	unsigned		seen;		/* a header was ever read */
	intmax_t		last_pid;
	intmax_t		last_birth;
	struct vsmr_seghead	segs;		/* live, in index order */
	struct vsmr_seghead	old;		/* being matched (re-read) */
	unsigned		changed;	/* VAPI_*_CHANGED */
	unsigned		restarted;	/* VAPI_*_RESTARTED */
	char			why[512];	/* why not running */
	unsigned		denied;		/* ...no permission */
};

struct vapi {
	unsigned		magic;
#define VAPI_MAGIC		0x7a1c93e4
	char			*workdir;
	int			wfd;
	dev_t			wdev;
	ino_t			wino;
	struct vsmr_set		mgt;
	struct vsmr_set		child;
	struct vsmr_seghead	stale;		/* gone, still held */
	unsigned		pending;	/* changes not yet reported */
	unsigned		generation;
	uint64_t		serial;		/* the last one handed out */
	unsigned		nopid;		/* VSM_NOPID is set */
	char			*rbuf;		/* VSMR_RBUF bytes */
	void			*vsc;		/* vapi_vsc.c's */
	char			err[1024];
};

static void __attribute__((__format__(__printf__, 2, 3)))
vapi_err(struct vapi *vd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(vd->err, sizeof vd->err, fmt, ap);
	va_end(ap);
}

static void
vsmr_set_init(struct vsmr_set *set, const char *name, unsigned child)
{

	INIT_OBJ(set, VSMR_SET_MAGIC);
	set->name = name;
	set->child = child;
	set->dfd = -1;
	set->ifd = -1;
	TAILQ_INIT(&set->segs);
	TAILQ_INIT(&set->old);
}

struct vapi *
VAPI_New(void)
{
	struct vapi *vd;

	ALLOC_OBJ(vd, VAPI_MAGIC);
	if (vd == NULL)
		return (NULL);
	vd->rbuf = malloc(VSMR_RBUF);
	if (vd->rbuf == NULL) {
		FREE_OBJ(vd);
		return (NULL);
	}
	vd->wfd = -1;
	vsmr_set_init(&vd->mgt, "_.vsm_mgt", 0);
	vsmr_set_init(&vd->child, "_.vsm_child", 1);
	TAILQ_INIT(&vd->stale);
	vd->nopid = getenv("VSM_NOPID") != NULL;
	if (VAPI_SetWorkdir(vd, NULL) != 0) {
		free(vd->rbuf);
		FREE_OBJ(vd);
		return (NULL);
	}
	return (vd);
}

/*--------------------------------------------------------------------
 * Segments.
 */

static void
vsmr_seg_free(struct vapi *vd, struct vsmr_seg *seg)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	assert(seg->refs == 0);
	if (seg->priv_free != NULL)
		seg->priv_free(vd, seg->priv);
	if (seg->map != NULL)
		(void)munmap(seg->map, seg->maplen);
	free(seg->id);
	free(seg->file);
	FREE_OBJ(seg);
}

/* Free what is gone, reported and unheld. */
static void
vsmr_seg_maybe_free(struct vapi *vd, struct vsmr_seg *seg)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	if (!seg->stale || !seg->reported || seg->refs > 0)
		return;
	TAILQ_REMOVE(&vd->stale, seg, list);
	vsmr_seg_free(vd, seg);
}

/* seg left its set's list: keep it while it may be in use. */
static void
vsmr_seg_gone(struct vapi *vd, struct vsmr_set *set, struct vsmr_seg *seg)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	if (!seg->cluster)
		set->changed = 1;
	vd->generation++;
	if (seg->map == NULL && seg->refs == 0 && seg->priv == NULL) {
		vsmr_seg_free(vd, seg);
		return;
	}
	seg->stale = 1;
	TAILQ_INSERT_TAIL(&vd->stale, seg, list);
}

static void
vsmr_drop_list(struct vapi *vd, struct vsmr_set *set,
    struct vsmr_seghead *head)
{
	struct vsmr_seg *seg;

	while ((seg = TAILQ_FIRST(head)) != NULL) {
		TAILQ_REMOVE(head, seg, list);
		vsmr_seg_gone(vd, set, seg);
	}
}

/* A decimal number filling the whole word; -1 if it is not one. */
static int
vsmr_num(const char *s, uint64_t *val)
{
	char *end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	*val = strtoull(s, &end, 10);
	if (*end != '\0' || errno != 0)
		return (-1);
	return (0);
}

/*
 * The fields after "+ " or "- ": 3 to 5 words separated by blanks (file,
 * offset, length, class, ident).  NULL for anything else, which is
 * ignored (Varnish 7.1 aborts).
 */
static struct vsmr_seg *
vsmr_seg_parse(const char *p, const char *e)
{
	const char *wb[5], *we[5];
	char *w[5], *q;
	struct vsmr_seg *seg;
	unsigned n = 0, u;
	size_t l = 0;

	while (p < e) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == e)
			break;
		if (n == 5)
			return (NULL);
		wb[n] = p;
		while (p < e && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		we[n++] = p;
	}
	if (n < 3)
		return (NULL);
	for (u = n; u < 5; u++)
		wb[u] = we[u] = "";
	for (u = 0; u < 5; u++)
		l += (size_t)(we[u] - wb[u]) + 1;
	/* A file name stays inside the set directory. */
	if (memchr(wb[0], '/', (size_t)(we[0] - wb[0])) != NULL ||
	    (we[0] - wb[0] <= 2 && wb[0][0] == '.'))
		return (NULL);
	ALLOC_OBJ(seg, VSMR_SEG_MAGIC);
	if (seg == NULL)
		return (NULL);
	seg->file = malloc(l);
	seg->id = malloc(l);
	if (seg->file == NULL || seg->id == NULL)
		goto bad;
	for (u = 0, q = seg->file; u < 5; u++) {
		w[u] = q;
		memcpy(q, wb[u], (size_t)(we[u] - wb[u]));
		q += we[u] - wb[u];
		*q++ = '\0';
	}
	if (vsmr_num(w[1], &seg->off) != 0 ||
	    vsmr_num(w[2], &seg->len) != 0 || seg->len == 0 ||
	    seg->off + seg->len < seg->off)
		goto bad;
	seg->class = w[3];
	seg->ident = w[4];
	seg->cluster = (n == 3);
	/* The identity: the words joined by single blanks. */
	(void)snprintf(seg->id, l, "%s %s %s %s %s", w[0], w[1], w[2], w[3],
	    w[4]);
	return (seg);
bad:
	free(seg->file);
	free(seg->id);
	FREE_OBJ(seg);
	return (NULL);
}

/* The first segment of head with this identity, from start on. */
static struct vsmr_seg *
vsmr_seg_match(struct vsmr_seghead *head, struct vsmr_seg *start,
    const char *id)
{
	struct vsmr_seg *seg;

	for (seg = start != NULL ? start : TAILQ_FIRST(head); seg != NULL;
	    seg = TAILQ_NEXT(seg, list))
		if (!strcmp(seg->id, id))
			return (seg);
	return (NULL);
}

/*--------------------------------------------------------------------
 * Index files.
 */

static int
vsmr_pid_alive(const struct vapi *vd, intmax_t pid)
{

	if (vd->nopid || pid <= 0 || (intmax_t)(pid_t)pid != pid)
		return (1);
	return (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* The header of the open index: "# pid birth".  0, or -1 to stop. */
static int
vsmr_header(struct vapi *vd, struct vsmr_set *set, const char *p,
    const char *e)
{
	char buf[64];
	intmax_t pid = 0, birth = 0;
	size_t l;

	l = (size_t)(e - p) < sizeof buf ? (size_t)(e - p) : sizeof buf - 1;
	memcpy(buf, p, l);
	buf[l] = '\0';
	if (sscanf(buf, "# %jd %jd", &pid, &birth) != 2)
		pid = birth = 0;	/* Tolerated, as 7.1 does. */
	set->have_header = 1;
	set->pid = pid;
	set->birth = birth;
	if (set->seen && (pid != set->last_pid || birth != set->last_birth)) {
		/* A new writer: even identical lines name new files. */
		set->restarted = 1;
		vsmr_drop_list(vd, set, &set->old);
	}
	set->seen = 1;
	set->last_pid = pid;
	set->last_birth = birth;
	if (!vsmr_pid_alive(vd, pid))
		return (-1);
	return (0);
}

static void
vsmr_plus(struct vapi *vd, struct vsmr_set *set, struct vsmr_seg *seg)
{
	struct vsmr_seg *old;

	/* Re-reading: an identical line keeps the known segment. */
	old = vsmr_seg_match(&set->old, NULL, seg->id);
	if (old != NULL) {
		/* Skipped-over segments are gone (rewrites keep order). */
		while (TAILQ_FIRST(&set->old) != old) {
			struct vsmr_seg *s = TAILQ_FIRST(&set->old);

			TAILQ_REMOVE(&set->old, s, list);
			vsmr_seg_gone(vd, set, s);
		}
		TAILQ_REMOVE(&set->old, old, list);
		TAILQ_INSERT_TAIL(&set->segs, old, list);
		vsmr_seg_free(vd, seg);
		return;
	}
	seg->child = set->child;
	seg->serial = ++vd->serial;
	TAILQ_INSERT_TAIL(&set->segs, seg, list);
	if (!seg->cluster)
		set->changed = 1;
	vd->generation++;
}

static void
vsmr_minus(struct vapi *vd, struct vsmr_set *set, struct vsmr_seg *seg)
{
	struct vsmr_seg *old;

	old = vsmr_seg_match(&set->segs, NULL, seg->id);
	vsmr_seg_free(vd, seg);
	if (old == NULL)
		return;		/* Unmatched: ignored (7.1 aborts). */
	TAILQ_REMOVE(&set->segs, old, list);
	vsmr_seg_gone(vd, set, old);
}

/*
 * One complete line, without its newline, starting at byte pos of the
 * file.  0, or -1 to stop reading.
 */
static int
vsmr_line(struct vapi *vd, struct vsmr_set *set, off_t pos, const char *p,
    const char *e)
{
	struct vsmr_seg *seg;

	if (p == e)
		return (0);
	if (*p == '#' && pos == 0)
		return (vsmr_header(vd, set, p, e));
	if (*p != '+' && *p != '-')
		return (0);
	if (!set->have_header)
		return (0);	/* No writer named yet: not trusted. */
	seg = vsmr_seg_parse(p + 1, e);
	if (seg == NULL)
		return (0);
	if (*p == '+')
		vsmr_plus(vd, set, seg);
	else
		vsmr_minus(vd, set, seg);
	return (0);
}

/*
 * Apply the complete lines appended since the last time.  A partial last
 * line is left for the next call.  -1 if the header names a dead pid.
 */
static int
vsmr_read_index(struct vapi *vd, struct vsmr_set *set)
{
	char *buf = vd->rbuf, *p, *nl;
	size_t have = 0;
	ssize_t n;

	for (;;) {
		n = pread(set->ifd, buf + have, VSMR_RBUF - have,
		    set->consumed + (off_t)have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (0);
		have += (size_t)n;
		p = buf;
		while ((nl = memchr(p, '\n', have - (size_t)(p - buf))) !=
		    NULL) {
			if (set->skipping)
				set->skipping = 0;
			else if (vsmr_line(vd, set,
			    set->consumed + (p - buf), p, nl) != 0)
				return (-1);
			p = nl + 1;
		}
		set->consumed += p - buf;
		have -= (size_t)(p - buf);
		memmove(buf, p, have);
		if (have == VSMR_RBUF) {
			/* No newline in a whole buffer: not a line of ours. */
			set->consumed += (off_t)have;
			set->skipping = 1;
			have = 0;
		}
	}
}

static void
vsmr_close_index(struct vsmr_set *set)
{

	if (set->ifd >= 0)
		(void)close(set->ifd);
	set->ifd = -1;
	set->consumed = 0;
	set->skipping = 0;
	set->have_header = 0;
}

/* The set is not usable now: forget its segments and say why. */
static void __attribute__((__format__(__printf__, 3, 4)))
vsmr_set_down(struct vapi *vd, struct vsmr_set *set, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(set->why, sizeof set->why, fmt, ap);
	va_end(ap);
	vsmr_close_index(set);
	vsmr_drop_list(vd, set, &set->old);
	vsmr_drop_list(vd, set, &set->segs);
	set->running = 0;
	set->denied = 0;
}

/* Why path could not be opened, for VAPI_Error. */
static void
vsmr_why(struct vapi *vd, struct vsmr_set *set, const char *sub,
    const char *file, int e)
{
	char path[1024];

	(void)snprintf(path, sizeof path, "%s%s%s%s%s", vd->workdir,
	    sub != NULL ? "/" : "", sub != NULL ? sub : "",
	    file != NULL ? "/" : "", file != NULL ? file : "");
	if (e == ENOENT || e == ENOTDIR)
		vsmr_set_down(vd, set, "no %s", path);
	else if (e == EACCES || e == EPERM)
		vsmr_set_down(vd, set, "cannot read %s (%s): run as veneerd's "
		    "user or as a member of its group", path, strerror(e));
	else
		vsmr_set_down(vd, set, "cannot read %s: %s", path,
		    strerror(e));
	set->denied = (e == EACCES || e == EPERM);
}

static void
vsmr_close_dir(struct vapi *vd, struct vsmr_set *set)
{

	vsmr_set_down(vd, set, "%s closed", set->name);
	if (set->dfd >= 0)
		(void)close(set->dfd);
	set->dfd = -1;
}

static int
vsmr_same(const struct stat *st, dev_t dev, ino_t ino)
{

	return (st->st_dev == dev && st->st_ino == ino && st->st_nlink > 0);
}

/* Open the set directory if needed; 0 or -1 (set down). */
static int
vsmr_set_dir(struct vapi *vd, struct vsmr_set *set)
{
	struct stat st;
	int e;

	if (set->dfd >= 0 && (fstatat(vd->wfd, set->name, &st, 0) != 0 ||
	    !vsmr_same(&st, set->ddev, set->dino)))
		vsmr_close_dir(vd, set);
	if (set->dfd >= 0)
		return (0);
	set->dfd = openat(vd->wfd, set->name,
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (set->dfd < 0 || fstat(set->dfd, &st) != 0) {
		e = errno;
		if (set->dfd >= 0)
			(void)close(set->dfd);
		set->dfd = -1;
		vsmr_why(vd, set, set->name, NULL, e);
		return (-1);
	}
	set->ddev = st.st_dev;
	set->dino = st.st_ino;
	return (0);
}

/* Open the index if needed (returns 1 if it must be read whole). */
static int
vsmr_set_index(struct vapi *vd, struct vsmr_set *set)
{
	struct stat st;

	/* Rewritten or gone: read again, matching what we know. */
	if (set->ifd >= 0 && (fstatat(set->dfd, "_.index", &st, 0) != 0 ||
	    !vsmr_same(&st, set->idev, set->iino) ||
	    st.st_size < set->consumed))
		vsmr_close_index(set);
	if (set->ifd >= 0)
		return (0);
	TAILQ_CONCAT(&set->old, &set->segs, list);
	set->ifd = openat(set->dfd, "_.index", O_RDONLY | O_CLOEXEC);
	if (set->ifd < 0 || fstat(set->ifd, &st) != 0) {
		vsmr_why(vd, set, set->name, "_.index", errno);
		return (-1);
	}
	set->idev = st.st_dev;
	set->iino = st.st_ino;
	return (1);
}

static void
vsmr_set_refresh(struct vapi *vd, struct vsmr_set *set)
{
	int whole;

	CHECK_OBJ(set, VSMR_SET_MAGIC);
	if (vsmr_set_dir(vd, set) != 0)
		return;
	whole = vsmr_set_index(vd, set);
	if (whole < 0)
		return;
	if (set->have_header && !vsmr_pid_alive(vd, set->pid)) {
		vsmr_set_down(vd, set, "the %s (pid %jd) that wrote "
		    "%s/%s/_.index is gone", set->child ? "child" : "manager",
		    set->pid, vd->workdir, set->name);
		return;
	}
	if (vsmr_read_index(vd, set) != 0) {
		vsmr_set_down(vd, set, "veneerd's %s (pid %jd) that wrote "
		    "%s/%s/_.index is gone (it crashed, or was killed, and "
		    "left its files)", set->child ? "child" : "manager",
		    set->pid, vd->workdir, set->name);
		return;
	}
	if (whole)
		vsmr_drop_list(vd, set, &set->old);
	if (!set->have_header) {
		vsmr_set_down(vd, set, "%s/%s/_.index is empty", vd->workdir,
		    set->name);
		return;
	}
	set->running = 1;
}

/* The workdir itself: reopen it if it was replaced; 0 or -1. */
static int
vsmr_workdir(struct vapi *vd)
{
	struct stat st;
	int e;

	if (vd->wfd >= 0 && (stat(vd->workdir, &st) != 0 ||
	    !vsmr_same(&st, vd->wdev, vd->wino))) {
		vsmr_close_dir(vd, &vd->child);
		vsmr_close_dir(vd, &vd->mgt);
		(void)close(vd->wfd);
		vd->wfd = -1;
	}
	if (vd->wfd >= 0)
		return (0);
	vd->wfd = open(vd->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (vd->wfd < 0 || fstat(vd->wfd, &st) != 0) {
		e = errno;
		if (vd->wfd >= 0)
			(void)close(vd->wfd);
		vd->wfd = -1;
		vsmr_why(vd, &vd->mgt, NULL, NULL, e);
		vsmr_set_down(vd, &vd->child, "%s", vd->mgt.why);
		return (-1);
	}
	vd->wdev = st.st_dev;
	vd->wino = st.st_ino;
	return (0);
}

void
VSMR_Refresh(struct vapi *vd)
{
	struct vsmr_set *set;
	unsigned u;

	CHECK_OBJ(vd, VAPI_MAGIC);
	if (vsmr_workdir(vd) == 0) {
		vsmr_set_refresh(vd, &vd->mgt);
		if (vd->mgt.running)
			vsmr_set_refresh(vd, &vd->child);
		else
			vsmr_set_down(vd, &vd->child, "%s", vd->mgt.why);
	}
	for (u = 0; u < 2; u++) {
		set = u ? &vd->child : &vd->mgt;
		if (set->changed)
			vd->pending |= u ? VAPI_CHILD_CHANGED :
			    VAPI_MGT_CHANGED;
		if (set->restarted)
			vd->pending |= u ? VAPI_CHILD_RESTARTED :
			    VAPI_MGT_RESTARTED;
		set->changed = set->restarted = 0;
	}
}

/*--------------------------------------------------------------------
 * The workdir and its status.
 */

static void
vsmr_forget_all(struct vapi *vd)
{

	vsmr_close_dir(vd, &vd->child);
	vsmr_close_dir(vd, &vd->mgt);
	vd->child.seen = vd->mgt.seen = 0;
	vd->child.changed = vd->mgt.changed = 0;
	if (vd->wfd >= 0)
		(void)close(vd->wfd);
	vd->wfd = -1;
}

int
VAPI_SetWorkdir(struct vapi *vd, const char *n_arg)
{
	char path[4096];
	char *p;

	CHECK_OBJ(vd, VAPI_MAGIC);
	if (n_arg == NULL || *n_arg == '\0')
		n_arg = "default";
	if (strchr(n_arg, '/') == NULL)
		(void)snprintf(path, sizeof path, "%s/%s", VENEER_STATE_DIR,
		    n_arg);
	else
		(void)snprintf(path, sizeof path, "%s", n_arg);
	/* Keep one slash at the end at most: "/x/" names /x. */
	while (strlen(path) > 1 && path[strlen(path) - 1] == '/')
		path[strlen(path) - 1] = '\0';
	p = strdup(path);
	if (p == NULL) {
		vapi_err(vd, "out of memory");
		return (-1);
	}
	vsmr_forget_all(vd);
	free(vd->workdir);
	vd->workdir = p;
	return (0);
}

const char *
VAPI_Workdir(const struct vapi *vd)
{

	CHECK_OBJ(vd, VAPI_MAGIC);
	return (vd->workdir);
}

const char *
VAPI_Error(const struct vapi *vd)
{

	CHECK_OBJ(vd, VAPI_MAGIC);
	return (vd->err);
}

static double
vsmr_now(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &ts));
	return ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
}

int
VAPI_Attach(struct vapi *vd, double timeout)
{
	struct timespec ts;
	double t0, left;

	CHECK_OBJ(vd, VAPI_MAGIC);
	t0 = vsmr_now();
	for (;;) {
		VSMR_Refresh(vd);
		if (vd->mgt.running) {
			vd->err[0] = '\0';
			return (0);
		}
		left = timeout - (vsmr_now() - t0);
		if (timeout >= 0 && left <= 0)
			break;
		if (timeout < 0 || left > VSMR_POLL)
			left = VSMR_POLL;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		(void)nanosleep(&ts, NULL);
	}
	if (vd->mgt.denied)
		vapi_err(vd, "no access to veneerd's files in %s: %s",
		    vd->workdir, vd->mgt.why);
	else if (timeout > 0)
		vapi_err(vd, "no running veneerd in %s after %g s: %s; is it "
		    "running with -n %s?", vd->workdir, timeout, vd->mgt.why,
		    vd->workdir);
	else
		vapi_err(vd, "no running veneerd in %s: %s; is it running "
		    "with -n %s?", vd->workdir, vd->mgt.why, vd->workdir);
	return (-1);
}

unsigned
VAPI_Status(struct vapi *vd)
{
	struct vsmr_seg *seg, *next;
	unsigned r;

	CHECK_OBJ(vd, VAPI_MAGIC);
	VSMR_Refresh(vd);
	r = vd->pending;
	vd->pending = 0;
	if (vd->mgt.running)
		r |= VAPI_MGT_RUNNING;
	if (vd->child.running)
		r |= VAPI_CHILD_RUNNING;
	/* Gone segments may now be freed, once nobody holds them. */
	for (seg = TAILQ_FIRST(&vd->stale); seg != NULL; seg = next) {
		next = TAILQ_NEXT(seg, list);
		seg->reported = 1;
	}
	for (seg = TAILQ_FIRST(&vd->stale); seg != NULL; seg = next) {
		next = TAILQ_NEXT(seg, list);
		if (seg->refs == 0) {
			TAILQ_REMOVE(&vd->stale, seg, list);
			vsmr_seg_free(vd, seg);
			/* Freeing may have released others: start over. */
			next = TAILQ_FIRST(&vd->stale);
		}
	}
	return (r);
}

void
VAPI_Free(struct vapi **vdp)
{
	struct vapi *vd;
	struct vsmr_seg *seg;
	vsmr_priv_free_f *f;

	TAKE_OBJ_NOTNULL(vd, vdp, VAPI_MAGIC);
	VSMR_VscFree(vd);
	vsmr_forget_all(vd);
	/*
	 * Whatever is still held dies here: the caller let go of vd.  First
	 * the private data (which may drop references: nothing is freed
	 * while reported is 0), then the segments.
	 */
	TAILQ_FOREACH(seg, &vd->stale, list)
		seg->reported = 0;
	TAILQ_FOREACH(seg, &vd->stale, list) {
		f = seg->priv_free;
		seg->priv_free = NULL;
		if (f != NULL)
			f(vd, seg->priv);
		seg->priv = NULL;
	}
	while ((seg = TAILQ_FIRST(&vd->stale)) != NULL) {
		TAILQ_REMOVE(&vd->stale, seg, list);
		seg->refs = 0;
		vsmr_seg_free(vd, seg);
	}
	free(vd->workdir);
	free(vd->rbuf);
	FREE_OBJ(vd);
}

/*--------------------------------------------------------------------
 * Segments for callers.
 */

struct vsmr_seg *
VSMR_Next(const struct vapi *vd, const struct vsmr_seg *prev)
{
	const struct vsmr_seg *seg;
	unsigned child;

	CHECK_OBJ(vd, VAPI_MAGIC);
	CHECK_OBJ_ORNULL(prev, VSMR_SEG_MAGIC);
	if (prev == NULL)
		seg = TAILQ_FIRST(&vd->mgt.segs);
	else
		seg = TAILQ_NEXT(prev, list);
	child = prev != NULL && prev->child;
	for (;;) {
		while (seg != NULL && seg->cluster)
			seg = TAILQ_NEXT(seg, list);
		if (seg != NULL || child)
			return ((struct vsmr_seg *)(uintptr_t)seg);
		child = 1;
		seg = TAILQ_FIRST(&vd->child.segs);
	}
}

const char *
VSMR_Class(const struct vsmr_seg *seg)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	return (seg->class);
}

const char *
VSMR_Ident(const struct vsmr_seg *seg)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	return (seg->ident);
}

int
VSMR_Map(struct vapi *vd, struct vsmr_seg *seg, const void **b,
    const void **e)
{
	struct vsmr_set *set;
	struct stat st;
	uint64_t pg, start;
	void *p;
	int fd;

	CHECK_OBJ(vd, VAPI_MAGIC);
	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	if (seg->map == NULL) {
		if (seg->stale) {
			vapi_err(vd, "segment %s is gone", seg->id);
			return (-1);
		}
		set = seg->child ? &vd->child : &vd->mgt;
		pg = (uint64_t)getpagesize();
		start = seg->off - seg->off % pg;
		if (seg->len > SIZE_MAX / 2 || start > (uint64_t)INT64_MAX) {
			vapi_err(vd, "segment %s in %s/%s is too big",
			    seg->id, vd->workdir, set->name);
			return (-1);
		}
		fd = openat(set->dfd, seg->file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			vapi_err(vd, "cannot open %s/%s/%s: %s", vd->workdir,
			    set->name, seg->file, strerror(errno));
			return (-1);
		}
		/* A file shorter than its index line would give SIGBUS. */
		if (fstat(fd, &st) != 0 || st.st_size < 0 ||
		    (uint64_t)st.st_size < seg->off + seg->len) {
			(void)close(fd);
			vapi_err(vd, "%s/%s/%s is shorter than its index line "
			    "says (%s)", vd->workdir, set->name, seg->file,
			    seg->id);
			return (-1);
		}
		seg->maplen = (size_t)((seg->off % pg + seg->len + pg - 1) /
		    pg * pg);
		p = mmap(NULL, seg->maplen, PROT_READ, MAP_SHARED, fd,
		    (off_t)start);
		(void)close(fd);
		if (p == MAP_FAILED) {
			vapi_err(vd, "cannot map %s/%s/%s: %s", vd->workdir,
			    set->name, seg->file, strerror(errno));
			return (-1);
		}
		seg->map = p;
		seg->b = (const char *)p + seg->off % pg;
	}
	*b = seg->b;
	*e = seg->b + seg->len;
	return (0);
}

void *
VSMR_GetPriv(const struct vsmr_seg *seg)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	return (seg->priv);
}

void
VSMR_SetPriv(struct vsmr_seg *seg, void *priv, vsmr_priv_free_f *free_f)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	assert(seg->priv == NULL);
	seg->priv = priv;
	seg->priv_free = free_f;
}

void
VSMR_Ref(struct vsmr_seg *seg)
{

	CHECK_OBJ(seg, VSMR_SEG_MAGIC);
	seg->refs++;
}

void
VSMR_Deref(struct vapi *vd, struct vsmr_seg **segp)
{
	struct vsmr_seg *seg;

	TAKE_OBJ_NOTNULL(seg, segp, VSMR_SEG_MAGIC);
	assert(seg->refs > 0);
	seg->refs--;
	vsmr_seg_maybe_free(vd, seg);
}

unsigned
VSMR_Generation(const struct vapi *vd)
{

	CHECK_OBJ(vd, VAPI_MAGIC);
	return (vd->generation);
}

void **
VSMR_VscSlot(struct vapi *vd)
{

	CHECK_OBJ(vd, VAPI_MAGIC);
	return (&vd->vsc);
}

/* A segment handed out, live or stale, by its serial. */
static struct vsmr_seg *
vsmr_by_serial(const struct vapi *vd, uint64_t serial, unsigned *live)
{
	struct vsmr_seg *seg;

	for (seg = VSMR_Next(vd, NULL); seg != NULL; seg = VSMR_Next(vd, seg))
		if (seg->serial == serial) {
			*live = 1;
			return (seg);
		}
	*live = 0;
	TAILQ_FOREACH(seg, &vd->stale, list)
		if (seg->serial == serial)
			return (seg);
	return (NULL);
}

int
VAPI_SegFind(struct vapi *vd, const char *class, const char *ident,
    struct vapi_seg *vs)
{
	struct vsmr_seg *seg;
	const void *b, *e;

	CHECK_OBJ(vd, VAPI_MAGIC);
	assert(class != NULL);
	assert(vs != NULL);
	memset(vs, 0, sizeof *vs);
	VSMR_Refresh(vd);
	for (seg = VSMR_Next(vd, NULL); seg != NULL;
	    seg = VSMR_Next(vd, seg)) {
		if (strcmp(seg->class, class) != 0)
			continue;
		if (ident != NULL && strcmp(seg->ident, ident) != 0)
			continue;
		if (VSMR_Map(vd, seg, &b, &e) != 0)
			return (-1);
		seg->refs++;
		vs->class = seg->class;
		vs->ident = seg->ident;
		vs->b = b;
		vs->e = e;
		vs->child = seg->child;
		vs->serial = seg->serial;
		return (0);
	}
	if (ident != NULL)
		vapi_err(vd, "no %s segment \"%s\" in %s%s%s", class, ident,
		    vd->workdir, vd->mgt.running ? "" : ": ",
		    vd->mgt.running ? "" : vd->mgt.why);
	else
		vapi_err(vd, "no %s segment in %s%s%s", class, vd->workdir,
		    vd->mgt.running ? "" : ": ",
		    vd->mgt.running ? "" : vd->mgt.why);
	return (-1);
}

int
VAPI_SegValid(struct vapi *vd, const struct vapi_seg *vs)
{
	unsigned live;

	CHECK_OBJ(vd, VAPI_MAGIC);
	assert(vs != NULL);
	if (vs->serial == 0)
		return (0);
	VSMR_Refresh(vd);
	(void)vsmr_by_serial(vd, vs->serial, &live);
	return (live);
}

void
VAPI_SegRelease(struct vapi *vd, struct vapi_seg *vs)
{
	struct vsmr_seg *seg;
	unsigned live;

	CHECK_OBJ(vd, VAPI_MAGIC);
	assert(vs != NULL);
	if (vs->serial == 0)
		return;
	seg = vsmr_by_serial(vd, vs->serial, &live);
	assert(seg != NULL);		/* Released twice? */
	memset(vs, 0, sizeof *vs);
	VSMR_Deref(vd, &seg);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsmw.c -- the segment writer (see vsmw.h).  Owns its directory's
 * files and vsmw->mtx, taken to change the index (segment creation and
 * removal; never on the request path).
 *
 * The index starts with "# <pid> <birth>" and lists each segment as
 * "+ <file> <offset> <length> <class> <ident>"; removals append a "-"
 * line, and after many of them the index is rewritten whole (a new file
 * renamed over the old one, so a reader sees one or the other).
 */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bsd/stdlib.h>
#include <bsd/sys/queue.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "vsm/vsmw.h"

struct vsmw_seg {
	unsigned		magic;
#define VSMW_SEG_MAGIC		0xe3a8d5c1
	TAILQ_ENTRY(vsmw_seg)	list;		/* vsmw->mtx */
	char			fn[64];
	char			*class;
	char			*ident;
	size_t			len;		/* asked for */
	size_t			maplen;		/* page-rounded */
	void			*ptr;
};

struct vsmw {
	unsigned		magic;
#define VSMW_MAGIC		0x9c7f4a62
	struct lock		mtx;
	char			*dir;		/* const */
	int			dfd;		/* const */
	int			mode;		/* const */
	pid_t			pid;		/* const */
	time_t			birth;		/* const */
	TAILQ_HEAD(, vsmw_seg)	segs;		/* mtx */
	unsigned		nsegs;		/* mtx */
	unsigned		ndeleted;	/* mtx: "-" lines in index */
};

static int
vsmw_write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (-1);
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

static int
vsmw_fmt_seg(const struct vsmw_seg *seg, char act, char *buf, size_t len)
{

	return (snprintf(buf, len, "%c %s 0 %zu %s %s\n", act, seg->fn,
	    seg->len, seg->class, seg->ident));
}

/* Append one line to the index.  0 or -1. */
static int
vsmw_index_append_locked(const struct vsmw *vsmw, const struct vsmw_seg *seg,
    char act)
{
	char buf[512];
	int fd, n, r;

	LOCK_AssertHeld(&vsmw->mtx);
	n = vsmw_fmt_seg(seg, act, buf, sizeof buf);
	if (n < 0 || (size_t)n >= sizeof buf)
		return (-1);
	fd = openat(vsmw->dfd, "_.index", O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return (-1);
	r = vsmw_write_all(fd, buf, (size_t)n);
	(void)close(fd);
	return (r);
}

/* Write a whole index as a new file and rename it into place. */
static int
vsmw_index_rewrite_locked(struct vsmw *vsmw)
{
	const struct vsmw_seg *seg;
	char buf[512];
	int fd, n, r;

	LOCK_AssertHeld(&vsmw->mtx);
	fd = openat(vsmw->dfd, "_.index.new",
	    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, vsmw->mode);
	if (fd < 0)
		return (-1);
	n = snprintf(buf, sizeof buf, "# %jd %jd\n", (intmax_t)vsmw->pid,
	    (intmax_t)vsmw->birth);
	r = vsmw_write_all(fd, buf, (size_t)n);
	TAILQ_FOREACH(seg, &vsmw->segs, list) {
		n = vsmw_fmt_seg(seg, '+', buf, sizeof buf);
		if (r == 0 && n > 0 && (size_t)n < sizeof buf)
			r = vsmw_write_all(fd, buf, (size_t)n);
	}
	if (close(fd) != 0)
		r = -1;
	if (r == 0)
		r = renameat(vsmw->dfd, "_.index.new", vsmw->dfd, "_.index");
	if (r != 0)
		(void)unlinkat(vsmw->dfd, "_.index.new", 0);
	vsmw->ndeleted = 0;
	return (r);
}

/* Remove what an earlier process of ours left behind. */
static void
vsmw_clean_dir(int dfd)
{
	DIR *d;
	struct dirent *de;
	int fd;

	fd = dup(dfd);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (d == NULL) {
		(void)close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "_.", 2) != 0)
			continue;
		(void)unlinkat(dfd, de->d_name, 0);
	}
	(void)closedir(d);
}

int
VSMW_Chown(struct vsmw *vsmw, uid_t uid, gid_t gid)
{
	struct dirent *de;
	DIR *d;
	int fd, r = 0;

	CHECK_OBJ_NOTNULL(vsmw, VSMW_MAGIC);
	if (fchown(vsmw->dfd, uid, gid) != 0)
		return (-1);
	fd = dup(vsmw->dfd);
	if (fd < 0)
		return (-1);
	d = fdopendir(fd);
	if (d == NULL) {
		(void)close(fd);
		return (-1);
	}
	/* A dup shares the offset another walk of the directory left. */
	rewinddir(d);
	LOCK_Lock(&vsmw->mtx);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "_.", 2) != 0)
			continue;
		if (fchownat(vsmw->dfd, de->d_name, uid, gid,
		    AT_SYMLINK_NOFOLLOW) != 0)
			r = -1;
	}
	LOCK_Unlock(&vsmw->mtx);
	(void)closedir(d);
	return (r);
}

struct vsmw *
VSMW_New(const char *dir, int mode, char *err, size_t errlen)
{
	struct vsmw *vsmw;
	int dfd, i;

	/* Only the owner and its group may read the log (client data). */
	if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
		(void)snprintf(err, errlen, "cannot create %s: %s", dir,
		    strerror(errno));
		return (NULL);
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		(void)snprintf(err, errlen, "cannot open %s: %s", dir,
		    strerror(errno));
		return (NULL);
	}
	ALLOC_OBJ(vsmw, VSMW_MAGIC);
	assert(vsmw != NULL);
	LOCK_Init(&vsmw->mtx);
	vsmw->dir = strdup(dir);
	vsmw->dfd = dfd;
	vsmw->mode = mode;
	vsmw->pid = getpid();
	vsmw->birth = time(NULL);
	TAILQ_INIT(&vsmw->segs);
	vsmw_clean_dir(dfd);
	LOCK_Lock(&vsmw->mtx);
	i = vsmw_index_rewrite_locked(vsmw);
	LOCK_Unlock(&vsmw->mtx);
	if (i != 0) {
		(void)snprintf(err, errlen, "cannot write %s/_.index: %s",
		    dir, strerror(errno));
		(void)close(dfd);
		free(vsmw->dir);
		FREE_OBJ(vsmw);
		return (NULL);
	}
	return (vsmw);
}

/* A file name not in use: _.<class>.<16 random hex digits>. */
static int
vsmw_create(struct vsmw *vsmw, struct vsmw_seg *seg)
{
	uint64_t rn;
	int fd;

	for (;;) {
		arc4random_buf(&rn, sizeof rn);
		(void)snprintf(seg->fn, sizeof seg->fn, "_.%.32s.%016jx",
		    seg->class, (uintmax_t)rn);
		fd = openat(vsmw->dfd, seg->fn,
		    O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, vsmw->mode);
		if (fd >= 0 || errno != EEXIST)
			return (fd);
	}
}

void *
VSMW_Alloc(struct vsmw *vsmw, const char *class, size_t len,
    const char *ident)
{
	struct vsmw_seg *seg;
	size_t ps = (size_t)getpagesize();
	void *p;
	int fd, e;

	CHECK_OBJ(vsmw, VSMW_MAGIC);
	assert(len > 0);
	ALLOC_OBJ(seg, VSMW_SEG_MAGIC);
	if (seg == NULL)
		return (NULL);
	seg->class = strdup(class);
	seg->ident = strdup(ident);
	/* Lengths in the index are multiples of 8, as Varnish's are. */
	seg->len = (len + 7) & ~(size_t)7;
	seg->maplen = (len + ps - 1) & ~(ps - 1);
	LOCK_Lock(&vsmw->mtx);
	fd = vsmw_create(vsmw, seg);
	p = MAP_FAILED;
	if (fd >= 0) {
		/* posix_fallocate: a full disk fails here, not at a write. */
		e = posix_fallocate(fd, 0, (off_t)seg->maplen);
		if (e == 0)
			p = mmap(NULL, seg->maplen, PROT_READ | PROT_WRITE,
			    MAP_SHARED, fd, 0);
		(void)close(fd);
	}
	if (p == MAP_FAILED || vsmw_index_append_locked(vsmw, seg, '+')) {
		if (p != MAP_FAILED)
			(void)munmap(p, seg->maplen);
		if (fd >= 0)
			(void)unlinkat(vsmw->dfd, seg->fn, 0);
		LOCK_Unlock(&vsmw->mtx);
		free(seg->class);
		free(seg->ident);
		FREE_OBJ(seg);
		return (NULL);
	}
	seg->ptr = p;
	TAILQ_INSERT_TAIL(&vsmw->segs, seg, list);
	vsmw->nsegs++;
	LOCK_Unlock(&vsmw->mtx);
	return (p);
}

static void
vsmw_free_seg(struct vsmw *vsmw, struct vsmw_seg *seg)
{

	(void)munmap(seg->ptr, seg->maplen);
	(void)unlinkat(vsmw->dfd, seg->fn, 0);
	free(seg->class);
	free(seg->ident);
	FREE_OBJ(seg);
}

void
VSMW_Free(struct vsmw *vsmw, void **pp)
{
	struct vsmw_seg *seg;

	CHECK_OBJ(vsmw, VSMW_MAGIC);
	assert(pp != NULL && *pp != NULL);
	LOCK_Lock(&vsmw->mtx);
	TAILQ_FOREACH(seg, &vsmw->segs, list)
		if (seg->ptr == *pp)
			break;
	assert(seg != NULL);
	TAILQ_REMOVE(&vsmw->segs, seg, list);
	vsmw->nsegs--;
	/* Small changes append; many make the index be rewritten. */
	if (vsmw->ndeleted < 10 || vsmw->ndeleted * 2 < vsmw->nsegs) {
		if (vsmw_index_append_locked(vsmw, seg, '-') == 0)
			vsmw->ndeleted++;
		else
			(void)vsmw_index_rewrite_locked(vsmw);
	} else {
		(void)vsmw_index_rewrite_locked(vsmw);
	}
	LOCK_Unlock(&vsmw->mtx);
	*pp = NULL;
	vsmw_free_seg(vsmw, seg);
}

void
VSMW_Destroy(struct vsmw **vsmwp)
{
	struct vsmw *vsmw;
	struct vsmw_seg *seg;

	TAKE_OBJ_NOTNULL(vsmw, vsmwp, VSMW_MAGIC);
	(void)unlinkat(vsmw->dfd, "_.index", 0);
	while ((seg = TAILQ_FIRST(&vsmw->segs)) != NULL) {
		TAILQ_REMOVE(&vsmw->segs, seg, list);
		vsmw_free_seg(vsmw, seg);
	}
	(void)close(vsmw->dfd);
	LOCK_Fini(&vsmw->mtx);
	free(vsmw->dir);
	FREE_OBJ(vsmw);
}

void
VSMW_Clean(const char *dir)
{
	int dfd;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	/* The index first: readers see the set gone before its segments. */
	(void)unlinkat(dfd, "_.index", 0);
	vsmw_clean_dir(dfd);
	(void)close(dfd);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vnd_counters.c -- reads veneerd's live counters the way any outside
 * tool would, without veneerd's code: WORKDIR/_.vsm_child/_.index names
 * the segments ("# <child pid> <birth>", then "+ <file> <offset> <length>
 * <class> <ident>" lines); the "Stat" segment with ident MAIN holds the
 * values after a 24-byte head (ready flag, body offset, doc id); the
 * "StatDoc" segment whose ident is that doc id in hex holds JSON giving
 * each counter's byte "index" in the body.
 *
 * A new child writes a new index: whenever the index changes, everything
 * is looked up and mapped again.  Anything that does not validate yet is
 * "not ready" (-1), never an error by itself; callers in vnd.c retry
 * until their deadline.
 */

#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"

#define VNDC_HEAD		24

struct vnd_counters {
	unsigned		magic;
#define VNDC_MAGIC		0xa3ebbefb
	dev_t			dev;		/* of the index */
	ino_t			ino;
	off_t			size;
	struct timespec		mtime;
	pid_t			child;
	const char		*stat;		/* mapped Stat segment */
	size_t			statlen;
	char			*doc;		/* copy of the JSON */
};

void
VNDC_Fini(struct vnd_counters **vcp)
{
	struct vnd_counters *vc;

	vc = *vcp;
	*vcp = NULL;
	if (vc == NULL)
		return;
	assert(vc->magic == VNDC_MAGIC);
	if (vc->stat != NULL)
		(void)munmap((void *)(uintptr_t)vc->stat, vc->statlen);
	free(vc->doc);
	vc->magic = 0;
	free(vc);
}

/* Map a segment file read-only; NULL with why. */
static const char *
vndc_map_file(const char *path, size_t len, char *why, size_t whylen)
{
	void *p;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		(void)snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return (NULL);
	}
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	(void)close(fd);
	if (p == MAP_FAILED) {
		(void)snprintf(why, whylen, "mmap %s: %s", path,
		    strerror(errno));
		return (NULL);
	}
	return (p);
}

/*
 * Find in the index the live segment of class and ident: its file and
 * length.  0 or -1.  Later "-" lines cancel earlier "+" ones.
 */
static int
vndc_find(const char *index, const char *class, const char *ident,
    char *file, size_t filelen, size_t *len)
{
	char act, fn[256], cl[64], id[128];
	const char *p;
	size_t off, l;
	int found = 0, n;

	for (p = index; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		id[0] = '\0';
		n = sscanf(p, "%c %255s %zu %zu %63s %127s", &act, fn, &off,
		    &l, cl, id);
		if (n < 5 || strcmp(cl, class) || strcmp(id, ident))
			continue;
		if (act == '+') {
			(void)snprintf(file, filelen, "%s", fn);
			*len = off + l;
			found = 1;
		} else if (act == '-' && !strcmp(fn, file)) {
			found = 0;
		}
	}
	return (found ? 0 : -1);
}

/* (Re)load from the index if it changed: 0, or -1 with why. */
static int
vndc_load(struct vnd_counters **vcp, const char *workdir, char *why,
    size_t whylen)
{
	struct vnd_counters *vc = *vcp;
	char dir[4096], path[4400], file[256], docident[32], *index;
	const char *doc;
	size_t statlen, doclen;
	struct stat st;
	uint64_t docid;
	long pid;

	(void)snprintf(dir, sizeof dir, "%s/_.vsm_child", workdir);
	(void)snprintf(path, sizeof path, "%s/_.index", dir);
	if (stat(path, &st) != 0) {
		(void)snprintf(why, whylen, "%s: %s", path, strerror(errno));
		VNDC_Fini(vcp);
		return (-1);
	}
	if (vc != NULL && vc->dev == st.st_dev && vc->ino == st.st_ino &&
	    vc->size == st.st_size &&
	    vc->mtime.tv_sec == st.st_mtim.tv_sec &&
	    vc->mtime.tv_nsec == st.st_mtim.tv_nsec)
		return (0);
	VNDC_Fini(vcp);
	index = HX_ReadFile(path, NULL);
	if (index == NULL || sscanf(index, "# %ld", &pid) != 1) {
		(void)snprintf(why, whylen, "%s: no \"# pid\" line", path);
		free(index);
		return (-1);
	}
	if (vndc_find(index, "Stat", "MAIN", file, sizeof file,
	    &statlen) != 0) {
		(void)snprintf(why, whylen, "%s: no Stat MAIN segment yet",
		    path);
		free(index);
		return (-1);
	}
	vc = calloc(1, sizeof *vc);
	assert(vc != NULL);
	vc->magic = VNDC_MAGIC;
	vc->dev = st.st_dev;
	vc->ino = st.st_ino;
	vc->size = st.st_size;
	vc->mtime = st.st_mtim;
	vc->child = (pid_t)pid;
	*vcp = vc;
	(void)snprintf(path, sizeof path, "%s/%s", dir, file);
	vc->stat = vndc_map_file(path, statlen, why, whylen);
	if (vc->stat == NULL || statlen < VNDC_HEAD ||
	    __atomic_load_n((const uint64_t *)(const void *)vc->stat,
	    __ATOMIC_ACQUIRE) != 1) {
		if (vc->stat != NULL)
			(void)snprintf(why, whylen, "Stat MAIN not ready");
		free(index);
		VNDC_Fini(vcp);
		return (-1);
	}
	vc->statlen = statlen;
	memcpy(&docid, vc->stat + 16, sizeof docid);
	(void)snprintf(docident, sizeof docident, "%jx", (uintmax_t)docid);
	if (vndc_find(index, "StatDoc", docident, file, sizeof file,
	    &doclen) != 0) {
		(void)snprintf(why, whylen, "%s/_.index: no StatDoc %s", dir,
		    docident);
		free(index);
		VNDC_Fini(vcp);
		return (-1);
	}
	free(index);
	(void)snprintf(path, sizeof path, "%s/%s", dir, file);
	doc = vndc_map_file(path, doclen, why, whylen);
	if (doc == NULL || doclen <= VNDC_HEAD) {
		VNDC_Fini(vcp);
		return (-1);
	}
	vc->doc = strndup(doc + VNDC_HEAD, doclen - VNDC_HEAD);
	(void)munmap((void *)(uintptr_t)doc, doclen);
	assert(vc->doc != NULL);
	return (0);
}

/* The byte index of counter name in the JSON, or -1. */
static long
vndc_index(const char *doc, const char *name)
{
	char key[300];
	const char *p;

	(void)snprintf(key, sizeof key, "\"%s\":{", name);
	p = strstr(doc, key);
	if (p == NULL)
		return (-1);
	p = strstr(p, "\"index\":");
	if (p == NULL)
		return (-1);
	return (strtol(p + 8, NULL, 10));
}

/*
 * 0 with *val (if name) and *child (if child); -1 if the segments are
 * not there or not ready yet; -2 if there is no counter called name.
 */
int
VNDC_Read(struct vnd_counters **vcp, const char *workdir, const char *name,
    uint64_t *val, pid_t *child, char *why, size_t whylen)
{
	struct vnd_counters *vc;
	uint64_t body;
	long idx;

	if (vndc_load(vcp, workdir, why, whylen) != 0)
		return (-1);
	vc = *vcp;
	if (child != NULL)
		*child = vc->child;
	if (name == NULL)
		return (0);
	if (!strncmp(name, "MAIN.", 5))
		name += 5;
	idx = vndc_index(vc->doc, name);
	memcpy(&body, vc->stat + 8, sizeof body);
	if (idx < 0 || idx % 8 != 0 || body + (uint64_t)idx + 8 > vc->statlen) {
		(void)snprintf(why, whylen, "no counter \"%s\" in MAIN", name);
		return (-2);
	}
	/* Aligned: one load, never a torn value. */
	*val = __atomic_load_n((const uint64_t *)(const void *)
	    (vc->stat + body + (uint64_t)idx), __ATOMIC_RELAXED);
	return (0);
}

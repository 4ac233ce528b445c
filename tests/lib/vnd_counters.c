/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vnd_counters.c -- reads veneerd's live counters file, WORKDIR/_.counters,
 * without any of veneerd's code.  Layout (little-endian):
 *
 *	uint64 magic		the 8 bytes "VNRVSC1\0"
 *	uint64 nfields
 *	uint64 child_pid
 *	uint64 names_offset	nfields NUL-terminated names, in order
 *	uint64 values_offset	nfields uint64 values, updated live
 *
 * A new child replaces the file (new inode): the mapping is redone
 * whenever the inode, device or size differ from the mapped file.  A file
 * that does not validate is "not ready" (it may be half written), never
 * an error by itself; the callers in vnd.c retry until their deadline.
 */

#include "config.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"

#define VNDC_HDR_LEN		40
#define VNDC_MAX_FIELDS		100000

struct vnd_counters {
	unsigned		magic;
#define VNDC_MAGIC		0xa3ebbefb
	const char		*map;		/* PROT_READ, MAP_SHARED */
	size_t			len;
	dev_t			dev;
	ino_t			ino;
	uint64_t		nfields;
	uint64_t		names_off;
	uint64_t		values_off;
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
	if (vc->map != NULL)
		(void)munmap((void *)(uintptr_t)vc->map, vc->len);
	vc->magic = 0;
	free(vc);
}

static uint64_t
vndc_u64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return (le64toh(v));
}

static int
vndc_validate(struct vnd_counters *vc, char *why, size_t whylen)
{
	const char *p, *end;
	uint64_t u;

	if (vc->len < VNDC_HDR_LEN || memcmp(vc->map, "VNRVSC1", 8) != 0) {
		(void)snprintf(why, whylen, "no \"VNRVSC1\" magic (%zu bytes)",
		    vc->len);
		return (-1);
	}
	vc->nfields = vndc_u64(vc->map + 8);
	vc->names_off = vndc_u64(vc->map + 24);
	vc->values_off = vndc_u64(vc->map + 32);
	if (vc->nfields == 0 || vc->nfields > VNDC_MAX_FIELDS ||
	    vc->names_off < VNDC_HDR_LEN || vc->names_off >= vc->len ||
	    vc->values_off < VNDC_HDR_LEN || vc->values_off > vc->len ||
	    (vc->len - vc->values_off) / 8 < vc->nfields) {
		(void)snprintf(why, whylen, "bad header: nfields %ju, names "
		    "at %ju, values at %ju, file %zu bytes",
		    (uintmax_t)vc->nfields, (uintmax_t)vc->names_off,
		    (uintmax_t)vc->values_off, vc->len);
		return (-1);
	}
	p = vc->map + vc->names_off;
	end = vc->map + vc->len;
	for (u = 0; u < vc->nfields; u++) {
		p = memchr(p, '\0', (size_t)(end - p));
		if (p == NULL) {
			(void)snprintf(why, whylen, "names run past the file");
			return (-1);
		}
		p++;
	}
	return (0);
}

/* (Re)map the file if needed: 0, or -1 with why. */
static int
vndc_map(struct vnd_counters **vcp, const char *path, char *why,
    size_t whylen)
{
	struct vnd_counters *vc;
	struct stat st;
	void *map;
	int fd;

	if (stat(path, &st) != 0) {
		(void)snprintf(why, whylen, "%s: %s", path, strerror(errno));
		VNDC_Fini(vcp);
		return (-1);
	}
	vc = *vcp;
	if (vc != NULL && vc->dev == st.st_dev && vc->ino == st.st_ino &&
	    vc->len == (size_t)st.st_size && vndc_validate(vc, why,
	    whylen) == 0)
		return (0);
	VNDC_Fini(vcp);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
		(void)snprintf(why, whylen, "%s: %s", path,
		    fd < 0 ? strerror(errno) : "empty");
		if (fd >= 0)
			(void)close(fd);
		return (-1);
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	(void)close(fd);
	if (map == MAP_FAILED) {
		(void)snprintf(why, whylen, "mmap %s: %s", path,
		    strerror(errno));
		return (-1);
	}
	vc = calloc(1, sizeof *vc);
	assert(vc != NULL);
	vc->magic = VNDC_MAGIC;
	vc->map = map;
	vc->len = (size_t)st.st_size;
	vc->dev = st.st_dev;
	vc->ino = st.st_ino;
	*vcp = vc;
	if (vndc_validate(vc, why, whylen) != 0) {
		VNDC_Fini(vcp);
		return (-1);
	}
	return (0);
}

/*
 * 0 with *val (if name) and *child (if child); -1 if the file is not
 * there or not valid yet; -2 if it has no counter called name.
 */
int
VNDC_Read(struct vnd_counters **vcp, const char *workdir, const char *name,
    uint64_t *val, pid_t *child, char *why, size_t whylen)
{
	const volatile uint64_t *values;
	struct vnd_counters *vc;
	char path[4096];
	const char *p;
	uint64_t u;

	(void)snprintf(path, sizeof path, "%s/_.counters", workdir);
	if (vndc_map(vcp, path, why, whylen) != 0)
		return (-1);
	vc = *vcp;
	if (child != NULL)
		*child = (pid_t)vndc_u64(vc->map + 16);
	if (name == NULL)
		return (0);
	p = vc->map + vc->names_off;
	for (u = 0; u < vc->nfields; u++) {
		if (strcmp(p, name) == 0)
			break;
		p += strlen(p) + 1;
	}
	if (u == vc->nfields) {
		(void)snprintf(why, whylen, "no counter \"%s\" among the %ju "
		    "in %s", name, (uintmax_t)vc->nfields, path);
		return (-2);
	}
	if (vc->values_off % 8 == 0) {
		/* Aligned: one load, never a torn value. */
		values = (const volatile uint64_t *)(const void *)
		    (vc->map + vc->values_off);
		*val = le64toh(values[u]);
	} else {
		*val = vndc_u64(vc->map + vc->values_off + u * 8);
	}
	return (0);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_vsm_reader.c -- libveneerapi's readers of shared memory, fed
 * arbitrary segment bytes: they map files another process writes, so a
 * corrupt or truncated one must be an error, never a crash.
 *
 * The input is cut at each "\n@@\n" into up to FUZZ_VSM_PARTS parts:
 *   0  _.vsm_mgt/_.index
 *   1  _.vsm_child/_.index
 *   2  and on: segment files _.F0, _.F1... (in both set directories,
 *      for the index lines to name)
 * written into a scratch workdir.  A library handle attaches to it
 * (VSM_NOPID: no live writer is needed), reads its status, every
 * counter (Stat and StatDoc, the JSON description), and the log from
 * its head through a shared-memory cursor.  Each segment part is also
 * read as a log ring in memory (VAPI_CursorMem) and as a log file
 * (VAPI_CursorFile), the layouts veneerlog reads.
 */

#include "config.h"

#include <sys/stat.h>

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

#include "vapi.h"
#include "tests/fuzz/fuzz.h"

#define FUZZ_VSM_SEP		"\n@@\n"
#define FUZZ_VSM_PARTS		6
/* Records read from one cursor: enough to walk a few ring segments. */
#define FUZZ_VSM_MAXREC		4096

static char fuzz_wd[256];

static int
fuzz_rm_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{

	(void)st;
	(void)flag;
	(void)ftw;
	(void)remove(path);
	return (0);
}

static void
fuzz_wd_remove(void)
{

	if (fuzz_wd[0] != '\0')
		(void)nftw(fuzz_wd, fuzz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp;
	char p[512];

	(void)argc;
	(void)argv;
	/* The pids in the index headers need not be alive. */
	(void)setenv("VSM_NOPID", "1", 1);
	tmp = getenv("TMPDIR");
	(void)snprintf(fuzz_wd, sizeof fuzz_wd, "%s/fuzz_vsm.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	assert(mkdtemp(fuzz_wd) != NULL);
	(void)atexit(fuzz_wd_remove);
	(void)snprintf(p, sizeof p, "%s/_.vsm_mgt", fuzz_wd);
	assert(mkdir(p, 0750) == 0);
	(void)snprintf(p, sizeof p, "%s/_.vsm_child", fuzz_wd);
	assert(mkdir(p, 0750) == 0);
	return (0);
}

/* Replace a file (a new inode, as a writer's rewrite makes) by [b, e). */
static void
fuzz_put(const char *set, const char *file, const uint8_t *b, size_t len)
{
	char p[512], t[520];
	int fd;

	(void)snprintf(p, sizeof p, "%s/%s/%s", fuzz_wd, set, file);
	(void)snprintf(t, sizeof t, "%s.tmp", p);
	fd = open(t, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	assert(fd >= 0);
	assert(len == 0 || write(fd, b, len) == (ssize_t)len);
	assert(close(fd) == 0);
	assert(rename(t, p) == 0);
}

static int
fuzz_counter(void *priv, const struct vapi_counter *c)
{
	uint64_t *sum = priv;

	assert(c->name != NULL && c->value != NULL);
	*sum += strlen(c->name) + *c->value;
	if (c->type != NULL)
		*sum += strlen(c->type);
	if (c->format != NULL)
		*sum += strlen(c->format);
	if (c->docs != NULL)
		*sum += strlen(c->docs);
	return (0);
}

/* Read a cursor to its end, touching every byte of every record. */
static void
fuzz_drain(struct vapi_cursor *c)
{
	struct vapi_rec rec;
	unsigned n, u, sum = 0;
	int r = VAPI_REC;

	if (c == NULL)
		return;
	for (n = 0; n < FUZZ_VSM_MAXREC && r == VAPI_REC; n++) {
		r = VAPI_CursorNext(c, &rec);
		if (r != VAPI_REC)
			break;
		(void)VAPI_TagName(rec.tag);
		for (u = 0; u < rec.len; u++)
			sum += (unsigned char)rec.data[u];
	}
	if (r == VAPI_BAD)
		assert(VAPI_CursorError(c) != NULL);
	(void)sum;
	VAPI_CursorFree(&c);
	assert(c == NULL);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *b[FUZZ_VSM_PARTS], *e, *s;
	size_t l[FUZZ_VSM_PARTS];
	struct vapi *vd;
	struct vapi_seg seg;
	uint32_t *ring;
	uint64_t sum = 0;
	char file[32], err[256], p[512];
	unsigned n, u;

	/* Cut the input into its parts. */
	e = data + size;
	for (n = 0, s = data; n < FUZZ_VSM_PARTS; n++) {
		b[n] = s;
		if (n + 1 < FUZZ_VSM_PARTS)
			s = memmem(s, (size_t)(e - s), FUZZ_VSM_SEP,
			    strlen(FUZZ_VSM_SEP));
		if (s == NULL || n + 1 == FUZZ_VSM_PARTS)
			s = e;
		l[n] = (size_t)(s - b[n]);
		if (s == e) {
			n++;
			break;
		}
		s += strlen(FUZZ_VSM_SEP);
	}
	fuzz_put("_.vsm_mgt", "_.index", b[0], l[0]);
	fuzz_put("_.vsm_child", "_.index", n > 1 ? b[1] : data,
	    n > 1 ? l[1] : 0);
	for (u = 2; u < FUZZ_VSM_PARTS; u++) {
		(void)snprintf(file, sizeof file, "_.F%u", u - 2);
		fuzz_put("_.vsm_mgt", file, u < n ? b[u] : data,
		    u < n ? l[u] : 0);
		fuzz_put("_.vsm_child", file, u < n ? b[u] : data,
		    u < n ? l[u] : 0);
	}

	/* The workdir, as veneerstat and veneerlog attach to it. */
	vd = VAPI_New();
	assert(vd != NULL);
	assert(VAPI_SetWorkdir(vd, fuzz_wd) == 0);
	if (VAPI_Attach(vd, 0) == 0) {
		(void)VAPI_Status(vd);
		(void)VAPI_Counters(vd, fuzz_counter, &sum);
		(void)VAPI_CounterGet(vd, "MAIN.client_req", &sum);
		if (VAPI_SegFind(vd, "Log", NULL, &seg) == 0) {
			assert(seg.b <= seg.e);
			(void)VAPI_SegValid(vd, &seg);
			VAPI_SegRelease(vd, &seg);
		}
		fuzz_drain(VAPI_CursorShm(vd, VAPI_CUR_HEAD));
		/* Files change under a reader: look again. */
		(void)VAPI_Status(vd);
		(void)VAPI_Counters(vd, fuzz_counter, &sum);
	} else {
		assert(VAPI_Error(vd) != NULL);
	}
	VAPI_Free(&vd);
	assert(vd == NULL);

	/* Each segment as a ring in memory, and as a log file. */
	for (u = 2; u < n; u++) {
		ring = malloc(l[u] == 0 ? 1 : l[u]);
		assert(ring != NULL);
		if (l[u] > 0)
			memcpy(ring, b[u], l[u]);
		fuzz_drain(VAPI_CursorMem(ring, l[u], VAPI_CUR_HEAD));
		fuzz_drain(VAPI_CursorMem(ring, l[u], VAPI_CUR_TAIL));
		free(ring);
		(void)snprintf(p, sizeof p, "%s/_.vsm_child/_.F%u", fuzz_wd,
		    u - 2);
		fuzz_drain(VAPI_CursorFile(p, err, sizeof err));
	}
	return (0);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vapi_vsm.c -- unit tests of libveneerapi's segment tracking and
 * counters against workdirs written here by hand, as doc/vsm-format.md
 * describes them: index files (header, "+" and "-" lines, rewrites by
 * rename, partial and malformed lines), Stat/StatDoc/Log segments,
 * clusters, dead writers and restarted children; then the JSON parser
 * with hostile input, and the counter filters.  Nothing may crash; the
 * results must be what a reader can sensibly make of the input.
 */

#include "config.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "vsm/vapi_json.h"

#define PG		4096

static char wd[256];		/* the workdir of the running test */

/*--------------------------------------------------------------------
 * Writing a workdir by hand.
 */

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{

	(void)st;
	(void)flag;
	(void)ftw;
	return (remove(path));
}

static void
wd_setup(void)
{
	const char *tmp = getenv("TMPDIR");

	(void)snprintf(wd, sizeof wd, "%s/vapi-unit-XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(wd));
}

static void
wd_teardown(void)
{

	(void)nftw(wd, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
path_of(char *buf, size_t len, const char *set, const char *file)
{

	if (file == NULL)
		(void)snprintf(buf, len, "%s/%s", wd, set);
	else
		(void)snprintf(buf, len, "%s/%s/%s", wd, set, file);
}

static void
set_mkdir(const char *set)
{
	char p[512];

	path_of(p, sizeof p, set, NULL);
	ck_assert_int_eq(mkdir(p, 0750), 0);
}

/* A whole new index (a new inode, as a rewrite makes it). */
static void __attribute__((__format__(__printf__, 2, 3)))
idx_write(const char *set, const char *fmt, ...)
{
	char p[512], t[512], buf[8192];
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ck_assert(n >= 0 && (size_t)n < sizeof buf);
	path_of(p, sizeof p, set, "_.index");
	path_of(t, sizeof t, set, "_._.index.tmp");
	fd = open(t, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, (size_t)n), n);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(rename(t, p), 0);
}

static void
idx_append_raw(const char *set, const char *data, size_t len)
{
	char p[512];
	int fd;

	path_of(p, sizeof p, set, "_.index");
	fd = open(p, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

static void __attribute__((__format__(__printf__, 2, 3)))
idx_append(const char *set, const char *fmt, ...)
{
	char p[512], buf[8192];
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ck_assert(n >= 0 && (size_t)n < sizeof buf);
	path_of(p, sizeof p, set, "_.index");
	fd = open(p, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, (size_t)n), n);
	ck_assert_int_eq(close(fd), 0);
}

/* Write len bytes at off into a file of at least size bytes. */
static void
seg_write(const char *set, const char *file, off_t off, const void *data,
    size_t len, off_t size)
{
	char p[512];
	int fd;

	path_of(p, sizeof p, set, file);
	fd = open(p, O_RDWR | O_CREAT, 0640);
	ck_assert_int_ge(fd, 0);
	if (size > 0)
		ck_assert_int_eq(ftruncate(fd, size), 0);
	if (len > 0)
		ck_assert_int_eq(pwrite(fd, data, len, off), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
}

/* The 24-byte head of Stat and StatDoc segments. */
static void
vsc_head(char *b, int32_t ready, uint64_t id)
{
	uint64_t off = 24;

	memset(b, 0, 24);
	memcpy(b, &ready, sizeof ready);
	memcpy(b + 8, &off, sizeof off);
	memcpy(b + 16, &id, sizeof id);
}

/* A StatDoc file holding json, listed in set's index. */
static void
add_doc(const char *set, const char *file, uint64_t id, const char *json,
    int32_t ready)
{
	char *b;
	size_t l = strlen(json);

	b = calloc(1, 24 + l + 1);
	ck_assert_ptr_nonnull(b);
	vsc_head(b, ready, id);
	memcpy(b + 24, json, l);
	seg_write(set, file, 0, b, 24 + l + 1,
	    (off_t)((24 + l + PG) / PG * PG));
	free(b);
	idx_append(set, "+ %s 0 %zu StatDoc %jx\n", file, 24 + l + 1,
	    (uintmax_t)id);
}

/* A Stat file with n values, listed in set's index. */
static void
add_stat(const char *set, const char *file, const char *ident, uint64_t id,
    const uint64_t *val, unsigned n, int32_t ready)
{
	char b[24 + 64 * 8];

	ck_assert_uint_le(n, 64);
	vsc_head(b, ready, id);
	memcpy(b + 24, val, n * 8);
	seg_write(set, file, 0, b, 24 + n * 8, PG);
	idx_append(set, "+ %s 0 %u Stat %s\n", file, 24 + n * 8, ident);
}

static void
set_value(const char *set, const char *file, unsigned i, uint64_t v)
{

	seg_write(set, file, 24 + i * 8, &v, sizeof v, 0);
}

static void
set_ready(const char *set, const char *file, int32_t ready)
{

	seg_write(set, file, 0, &ready, sizeof ready, 0);
}

/* One element of a counter document. */
#define ELEM(nm, ty, lv, idx)						\
	"\"" nm "\":{\"type\":\"" ty "\",\"ctype\":\"uint64_t\","	\
	"\"level\":\"" lv "\",\"oneliner\":\"About " nm "\","		\
	"\"format\":\"integer\",\"index\":" idx ",\"name\":\"" nm "\","	\
	"\"docs\":\"\\tLong " nm "\"}"

#define DOC(n, elems)							\
	"{\"version\":\"1\",\"name\":\"x\",\"oneliner\":\"X\","	\
	"\"order\":10,\"docs\":\"\",\"elements\":" n ",\"elem\":{"	\
	elems "}}"

static const char doc_main[] = DOC("3",
    ELEM("uptime", "counter", "info", "0") ","
    ELEM("client_req", "counter", "info", "8") ","
    ELEM("n_thing", "gauge", "diag", "16"));

static const char doc_mgt[] = DOC("1", ELEM("uptime", "counter", "info", "0"));

/* The usual workdir: a manager with MGT counters, a child with MAIN
 * counters and a Log. */
static void
wd_standard(pid_t mpid, pid_t cpid)
{
	static const uint64_t mv[1] = { 100 };
	static const uint64_t cv[3] = { 50, 7, 3 };
	char log[PG];

	set_mkdir("_.vsm_mgt");
	set_mkdir("_.vsm_child");
	idx_write("_.vsm_mgt", "# %jd 1700000000\n", (intmax_t)mpid);
	add_doc("_.vsm_mgt", "_.StatDoc.1", 0x1111, doc_mgt, 1);
	add_stat("_.vsm_mgt", "_.Stat.1", "MGT", 0x1111, mv, 1, 1);
	idx_write("_.vsm_child", "# %jd 1700000001\n", (intmax_t)cpid);
	add_doc("_.vsm_child", "_.StatDoc.2", 0x2222, doc_main, 1);
	add_stat("_.vsm_child", "_.Stat.2", "MAIN", 0x2222, cv, 3, 1);
	memset(log, 'L', sizeof log);
	seg_write("_.vsm_child", "_.Log.3", 0, log, sizeof log, PG);
	idx_append("_.vsm_child", "+ _.Log.3 0 %d Log Log\n", PG);
}

static struct vapi *
attach(void)
{
	struct vapi *vd;

	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	ck_assert_int_eq(VAPI_SetWorkdir(vd, wd), 0);
	ck_assert_msg(VAPI_Attach(vd, 0) == 0, "attach: %s", VAPI_Error(vd));
	return (vd);
}

/* A pid that surely does not run: a child of ours, reaped. */
static pid_t
dead_pid(void)
{
	pid_t pid;
	int st;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return (pid);
}

/*--------------------------------------------------------------------
 * Workdir names and attaching.
 */

START_TEST(test_workdir_names)
{
	struct vapi *vd;

	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	ck_assert_str_eq(VAPI_Workdir(vd), VENEER_STATE_DIR "/default");
	ck_assert_int_eq(VAPI_SetWorkdir(vd, "foo"), 0);
	ck_assert_str_eq(VAPI_Workdir(vd), VENEER_STATE_DIR "/foo");
	ck_assert_int_eq(VAPI_SetWorkdir(vd, ""), 0);
	ck_assert_str_eq(VAPI_Workdir(vd), VENEER_STATE_DIR "/default");
	ck_assert_int_eq(VAPI_SetWorkdir(vd, "/x/y/"), 0);
	ck_assert_str_eq(VAPI_Workdir(vd), "/x/y");
	ck_assert_int_eq(VAPI_SetWorkdir(vd, "./rel"), 0);
	ck_assert_str_eq(VAPI_Workdir(vd), "./rel");
	ck_assert_int_eq(VAPI_SetWorkdir(vd, "/"), 0);
	ck_assert_str_eq(VAPI_Workdir(vd), "/");
	VAPI_Free(&vd);
	ck_assert_ptr_null(vd);
}
END_TEST

START_TEST(test_attach_missing)
{
	struct vapi *vd;
	char p[512];

	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	(void)snprintf(p, sizeof p, "%s/nothere", wd);
	ck_assert_int_eq(VAPI_SetWorkdir(vd, p), 0);
	ck_assert_int_eq(VAPI_Attach(vd, 0), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "no running veneerd in"));
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "is it running with -n"));
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), p));
	ck_assert_uint_eq(VAPI_Status(vd) & VAPI_MGT_RUNNING, 0);

	/* The workdir exists, its manager set does not. */
	ck_assert_int_eq(VAPI_SetWorkdir(vd, wd), 0);
	ck_assert_int_eq(VAPI_Attach(vd, 0), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "_.vsm_mgt"));

	/* The set, but no index. */
	set_mkdir("_.vsm_mgt");
	ck_assert_int_eq(VAPI_Attach(vd, 0), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "_.vsm_mgt/_.index"));

	/* An empty index: the writer has not named itself yet. */
	idx_write("_.vsm_mgt", "%s", "");
	ck_assert_int_eq(VAPI_Attach(vd, 0), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "empty"));

	idx_write("_.vsm_mgt", "# %jd 1\n", (intmax_t)getpid());
	ck_assert_int_eq(VAPI_Attach(vd, 0), 0);
	ck_assert_str_eq(VAPI_Error(vd), "");
	ck_assert_uint_eq(VAPI_Status(vd) &
	    (VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING), VAPI_MGT_RUNNING);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_attach_timeout)
{
	struct vapi *vd;
	struct timespec t0, t1;
	double dt;

	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	ck_assert_int_eq(VAPI_SetWorkdir(vd, wd), 0);
	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &t0));
	ck_assert_int_eq(VAPI_Attach(vd, 0.3), -1);
	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &t1));
	dt = (double)(t1.tv_sec - t0.tv_sec) +
	    1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	ck_assert(dt >= 0.29 && dt < 1.5);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "after 0.3 s"));
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_attach_dead_pid)
{
	struct vapi *vd;
	pid_t dead = dead_pid();
	char pidstr[32];

	wd_standard(dead, getpid());
	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	ck_assert_int_eq(VAPI_SetWorkdir(vd, wd), 0);
	ck_assert_int_eq(VAPI_Attach(vd, 0), -1);
	(void)snprintf(pidstr, sizeof pidstr, "pid %jd", (intmax_t)dead);
	ck_assert_msg(strstr(VAPI_Error(vd), pidstr) != NULL &&
	    strstr(VAPI_Error(vd), "gone") != NULL, "%s", VAPI_Error(vd));
	ck_assert_uint_eq(VAPI_Status(vd), 0);
	VAPI_Free(&vd);

	/* Pid 1 is alive even when kill() says EPERM. */
	idx_write("_.vsm_mgt", "# 1 1700000000\n+ _.Stat.1 0 32 Stat MGT\n");
	vd = attach();
	VAPI_Free(&vd);

	/* A garbage header is tolerated, as Varnish 7.1 does. */
	idx_write("_.vsm_mgt", "# garbage\n");
	vd = attach();
	VAPI_Free(&vd);

	/* VSM_NOPID: no pid check (another pid namespace). */
	idx_write("_.vsm_mgt", "# %jd 1\n", (intmax_t)dead);
	ck_assert_int_eq(setenv("VSM_NOPID", "1", 1), 0);
	vd = attach();
	ck_assert_int_eq(unsetenv("VSM_NOPID"), 0);
	VAPI_Free(&vd);
}
END_TEST

/* A child whose pid dies is not running; its segments go. */
START_TEST(test_child_dead_pid)
{
	struct vapi *vd;
	struct vapi_seg seg;
	unsigned st;

	wd_standard(getpid(), getpid());
	vd = attach();
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st & (VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING),
	    VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING);
	ck_assert_uint_ne(st & VAPI_CHILD_CHANGED, 0);
	ck_assert_uint_eq(st & VAPI_CHILD_RESTARTED, 0);
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &seg), 0);
	ck_assert_int_eq(VAPI_SegValid(vd, &seg), 1);

	/* Same index, header rewritten to a dead pid (new inode). */
	idx_write("_.vsm_child", "# %jd 1700000001\n+ _.Log.3 0 %d Log Log\n",
	    (intmax_t)dead_pid(), PG);
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st & VAPI_CHILD_RUNNING, 0);
	ck_assert_uint_ne(st & VAPI_CHILD_CHANGED, 0);
	ck_assert_int_eq(VAPI_SegValid(vd, &seg), 0);
	/* The stale mapping still reads. */
	ck_assert_int_eq(*(const char *)seg.b, 'L');
	/* Reported once only. */
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st, VAPI_MGT_RUNNING);
	VAPI_SegRelease(vd, &seg);
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &seg), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "Log"));
	VAPI_Free(&vd);
}
END_TEST

/*--------------------------------------------------------------------
 * Segments coming and going.
 */

START_TEST(test_seg_find)
{
	struct vapi *vd;
	struct vapi_seg s1, s2, s3;

	wd_standard(getpid(), getpid());
	vd = attach();
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &s1), 0);
	ck_assert_str_eq(s1.class, "Log");
	ck_assert_str_eq(s1.ident, "Log");
	ck_assert_uint_eq(s1.child, 1);
	ck_assert_uint_eq((size_t)((const char *)s1.e - (const char *)s1.b),
	    PG);
	ck_assert_int_eq(((const char *)s1.b)[PG - 1], 'L');
	ck_assert_uint_ne(s1.serial, 0);

	/* Manager's set first. */
	ck_assert_int_eq(VAPI_SegFind(vd, "Stat", NULL, &s2), 0);
	ck_assert_str_eq(s2.ident, "MGT");
	ck_assert_uint_eq(s2.child, 0);
	ck_assert_int_eq(VAPI_SegFind(vd, "Stat", "MAIN", &s3), 0);
	ck_assert_str_eq(s3.ident, "MAIN");
	ck_assert_uint_eq(s3.child, 1);
	ck_assert_uint_ne(s2.serial, s3.serial);
	VAPI_SegRelease(vd, &s2);
	VAPI_SegRelease(vd, &s3);
	ck_assert_int_eq(VAPI_SegFind(vd, "Stat", "NOPE", &s2), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "NOPE"));
	ck_assert_int_eq(VAPI_SegFind(vd, "Panic", NULL, &s2), -1);
	ck_assert_int_eq(VAPI_SegValid(vd, &s2), 0);
	VAPI_SegRelease(vd, &s2);	/* Not found: a no-op. */
	VAPI_SegRelease(vd, &s1);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_seg_plus_minus)
{
	struct vapi *vd;
	struct vapi_seg s1, s2;
	char data[64];
	unsigned st;

	wd_standard(getpid(), getpid());
	vd = attach();
	(void)VAPI_Status(vd);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "-T", &s1), -1);

	/* A "+" appended appears, with no restart. */
	memset(data, 0, sizeof data);
	(void)snprintf(data, sizeof data, "127.0.0.1 1234\n");
	seg_write("_.vsm_mgt", "_.Arg.9", 0, data, sizeof data, PG);
	idx_append("_.vsm_mgt", "+ _.Arg.9 0 64 Arg -T\n");
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st, VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING |
	    VAPI_MGT_CHANGED);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "-T", &s1), 0);
	ck_assert_str_eq(s1.b, "127.0.0.1 1234\n");

	/* Nothing new: no change reported. */
	ck_assert_uint_eq(VAPI_Status(vd),
	    VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING);

	/* A "-" removes it; the caller's mapping stays until released. */
	idx_append("_.vsm_mgt", "- _.Arg.9 0 64 Arg -T\n");
	ck_assert_int_eq(VAPI_SegValid(vd, &s1), 0);
	st = VAPI_Status(vd);
	ck_assert_uint_ne(st & VAPI_MGT_CHANGED, 0);
	ck_assert_str_eq(s1.b, "127.0.0.1 1234\n");
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "-T", &s2), -1);
	VAPI_SegRelease(vd, &s1);
	ck_assert_ptr_null(s1.b);

	/* Trailing blanks and double spaces do not change identity. */
	idx_append("_.vsm_mgt", "+ _.Arg.9 0 64 Arg  -T  \n");
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "-T", &s1), 0);
	idx_append("_.vsm_mgt", "- _.Arg.9 0 64 Arg -T\n");
	ck_assert_int_eq(VAPI_SegValid(vd, &s1), 0);
	VAPI_SegRelease(vd, &s1);
	ck_assert_uint_ne(VAPI_Status(vd) & VAPI_MGT_CHANGED, 0);

	/* A "-" matching nothing is ignored (Varnish 7.1 aborts). */
	idx_append("_.vsm_mgt", "- _.Nothing 0 64 Arg -X\n");
	ck_assert_uint_eq(VAPI_Status(vd),
	    VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_seg_partial_line)
{
	struct vapi *vd;
	struct vapi_seg s;
	char data[PG];

	wd_standard(getpid(), getpid());
	vd = attach();
	memset(data, 'A', sizeof data);
	seg_write("_.vsm_mgt", "_.Arg.7", 0, data, sizeof data, PG);
	idx_append("_.vsm_mgt", "+ _.Arg.7 0 8 Arg -");
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", NULL, &s), -1);
	/* Half a line is not taken for an ident "-". */
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "-", &s), -1);
	idx_append("_.vsm_mgt", "i\n");
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "-i", &s), 0);
	VAPI_SegRelease(vd, &s);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_seg_rewrite)
{
	struct vapi *vd;
	struct vapi_seg log, stat, doc, arg;
	unsigned st;
	char data[PG];

	wd_standard(getpid(), getpid());
	vd = attach();
	(void)VAPI_Status(vd);
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &log), 0);
	ck_assert_int_eq(VAPI_SegFind(vd, "Stat", "MAIN", &stat), 0);
	ck_assert_int_eq(VAPI_SegFind(vd, "StatDoc", NULL, &doc), 0);
	ck_assert_uint_eq(doc.child, 0);

	/* Rewritten whole, as a writer compacting "-" lines does: same
	 * header, the survivors in order, one new segment. */
	memset(data, 'A', sizeof data);
	seg_write("_.vsm_child", "_.Arg.8", 0, data, sizeof data, PG);
	idx_write("_.vsm_child", "# %jd 1700000001\n"
	    "+ _.Stat.2 0 48 Stat MAIN\n"
	    "+ _.Log.3 0 %d Log Log\n"
	    "+ _.Arg.8 0 16 Arg new\n", (intmax_t)getpid(), PG);
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st, VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING |
	    VAPI_CHILD_CHANGED);
	/* Matched lines keep their segment; the doc is gone. */
	ck_assert_int_eq(VAPI_SegValid(vd, &log), 1);
	ck_assert_int_eq(VAPI_SegValid(vd, &stat), 1);
	ck_assert_int_eq(VAPI_SegValid(vd, &doc), 1);	/* the MGT one */
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "new", &arg), 0);
	VAPI_SegRelease(vd, &arg);
	VAPI_SegRelease(vd, &doc);
	ck_assert_int_eq(VAPI_SegFind(vd, "StatDoc", NULL, &doc), 0);
	ck_assert_uint_eq(doc.child, 0);
	VAPI_SegRelease(vd, &doc);

	/* Rewritten with the Log's line changed: a new Log segment. */
	idx_write("_.vsm_child", "# %jd 1700000001\n"
	    "+ _.Stat.2 0 48 Stat MAIN\n"
	    "+ _.Log.3 0 %d Log Log2\n", (intmax_t)getpid(), PG);
	ck_assert_int_eq(VAPI_SegValid(vd, &log), 0);
	ck_assert_int_eq(VAPI_SegValid(vd, &stat), 1);
	VAPI_SegRelease(vd, &log);
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", "Log2", &log), 0);
	VAPI_SegRelease(vd, &log);
	VAPI_SegRelease(vd, &stat);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_child_restart)
{
	struct vapi *vd;
	struct vapi_seg log, log2;
	uint64_t v;
	unsigned st;
	char p[512];

	wd_standard(getpid(), getpid());
	vd = attach();
	(void)VAPI_Status(vd);
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &log), 0);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.uptime", &v), 0);
	ck_assert_uint_eq(v, 50);

	/* The manager cleans up after a dead child: no child index. */
	path_of(p, sizeof p, "_.vsm_child", "_.index");
	ck_assert_int_eq(unlink(p), 0);
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st, VAPI_MGT_RUNNING | VAPI_CHILD_CHANGED);
	ck_assert_int_eq(VAPI_SegValid(vd, &log), 0);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.uptime", &v), -1);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MGT.uptime", &v), 0);

	/* A new child: new header, new segments. */
	idx_write("_.vsm_child", "# %jd 1700000099\n", (intmax_t)getpid());
	add_doc("_.vsm_child", "_.StatDoc.4", 0x2222, doc_main, 1);
	add_stat("_.vsm_child", "_.Stat.5", "MAIN", 0x2222,
	    (const uint64_t[3]){ 1, 0, 0 }, 3, 1);
	idx_append("_.vsm_child", "+ _.Log.3 0 %d Log Log\n", PG);
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st, VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING |
	    VAPI_CHILD_CHANGED | VAPI_CHILD_RESTARTED);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.uptime", &v), 0);
	ck_assert_uint_eq(v, 1);
	/* Even the same Log line is a new segment now. */
	ck_assert_int_eq(VAPI_SegValid(vd, &log), 0);
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &log2), 0);
	ck_assert_uint_ne(log.serial, log2.serial);
	VAPI_SegRelease(vd, &log2);
	VAPI_SegRelease(vd, &log);

	/* A new child whose index replaces the old one at once, naming a
	 * file of the same name: a new file, not the old segment. */
	{
		char data[PG];

		memset(data, 'N', sizeof data);
		path_of(p, sizeof p, "_.vsm_child", "_.Log.3");
		ck_assert_int_eq(unlink(p), 0);
		seg_write("_.vsm_child", "_.Log.3", 0, data, sizeof data, PG);
	}
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &log), 0);
	ck_assert_int_eq(*(const char *)log.b, 'L');
	idx_write("_.vsm_child", "# %jd 1700000098\n+ _.Log.3 0 %d Log Log\n",
	    (intmax_t)getpid(), PG);
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st & VAPI_CHILD_RESTARTED, VAPI_CHILD_RESTARTED);
	ck_assert_int_eq(VAPI_SegValid(vd, &log), 0);
	ck_assert_int_eq(*(const char *)log.b, 'L');	/* still mapped */
	ck_assert_int_eq(VAPI_SegFind(vd, "Log", NULL, &log2), 0);
	ck_assert_int_eq(*(const char *)log2.b, 'N');
	VAPI_SegRelease(vd, &log2);
	VAPI_SegRelease(vd, &log);

	/* The whole child directory replaced (Varnish's way). */
	path_of(p, sizeof p, "_.vsm_child", NULL);
	{
		char q[600];

		(void)snprintf(q, sizeof q, "%s.old", p);
		ck_assert_int_eq(rename(p, q), 0);
	}
	set_mkdir("_.vsm_child");
	idx_write("_.vsm_child", "# %jd 1700000100\n", (intmax_t)getpid());
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st, VAPI_MGT_RUNNING | VAPI_CHILD_RUNNING |
	    VAPI_CHILD_CHANGED | VAPI_CHILD_RESTARTED);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.uptime", &v), -1);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_mgt_restart)
{
	struct vapi *vd;
	unsigned st;

	wd_standard(getpid(), getpid());
	vd = attach();
	(void)VAPI_Status(vd);
	idx_write("_.vsm_mgt", "# %jd 1800000000\n", (intmax_t)getppid());
	st = VAPI_Status(vd);
	ck_assert_uint_eq(st & (VAPI_MGT_RESTARTED | VAPI_MGT_CHANGED),
	    VAPI_MGT_RESTARTED | VAPI_MGT_CHANGED);
	ck_assert_uint_ne(st & VAPI_MGT_RUNNING, 0);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_seg_cluster)
{
	struct vapi *vd;
	struct vapi_seg s1, s2, s3;
	char data[3 * PG];

	wd_standard(getpid(), getpid());
	memset(data, 0, sizeof data);
	memcpy(data + 16, "first", 6);
	memcpy(data + 200, "second", 7);
	memcpy(data + PG + 16, "third", 6);
	seg_write("_.vsm_child", "_.VSC_cluster.1", 0, data, sizeof data,
	    sizeof data);
	idx_append("_.vsm_child", "+ _.VSC_cluster.1 0 %d  \n"
	    "+ _.VSC_cluster.1 16 184 Arg c1\n"
	    "+ _.VSC_cluster.1 200 184 Arg c2\n"
	    "+ _.VSC_cluster.1 %d 64 Arg c3\n", 3 * PG, PG + 16);
	vd = attach();
	/* The cluster line itself is not a segment anyone finds. */
	ck_assert_int_eq(VAPI_SegFind(vd, "", NULL, &s1), -1);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "c1", &s1), 0);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "c2", &s2), 0);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "c3", &s3), 0);
	ck_assert_str_eq(s1.b, "first");
	ck_assert_str_eq(s2.b, "second");
	ck_assert_str_eq(s3.b, "third");
	ck_assert_uint_eq((size_t)((const char *)s2.e - (const char *)s2.b),
	    184);
	/* Clustered segments appear in index order. */
	VAPI_SegRelease(vd, &s3);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", NULL, &s3), 0);
	ck_assert_str_eq(s3.ident, "c1");
	VAPI_SegRelease(vd, &s1);
	VAPI_SegRelease(vd, &s2);
	VAPI_SegRelease(vd, &s3);
	VAPI_Free(&vd);
}
END_TEST

/* Lines a reader must survive, and the good lines after them. */
START_TEST(test_seg_malformed)
{
	static const char *const bad[] = {
		"+\n",
		"+ a\n",
		"+ a 0\n",
		"+ _.Arg.x 0 0 Arg zero\n",
		"+ _.Arg.x -1 8 Arg neg\n",
		"+ _.Arg.x 0 8x Arg junk\n",
		"+ _.Arg.x 0 99999999999999999999 Arg huge\n",
		"+ _.Arg.x 18446744073709551615 8 Arg wrap\n",
		"+ _.Arg.x 0 8 Arg too many words\n",
		"+ ../x 0 8 Arg up\n",
		"+ sub/x 0 8 Arg sub\n",
		"+ .. 0 8 Arg dotdot\n",
		"- _.Arg.x 0 8 Arg nothing\n",
		"\n",
		"x garbage\n",
		"# \n",
		"\x01\x02\xff\n",
	};
	struct vapi *vd;
	struct vapi_seg s;
	char data[PG], *big;
	unsigned u;

	wd_standard(getpid(), getpid());
	memset(data, 'A', sizeof data);
	seg_write("_.vsm_mgt", "_.Arg.x", 0, data, sizeof data, PG);
	/* A file shorter than its line says: must not SIGBUS. */
	seg_write("_.vsm_mgt", "_.Arg.short", 0, data, 100, 0);
	vd = attach();
	for (u = 0; u < sizeof bad / sizeof bad[0]; u++)
		idx_append("_.vsm_mgt", "%s", bad[u]);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", NULL, &s), -1);
	/* An overlong line without newline is skipped as a whole. */
	big = malloc(200000);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', 200000);
	big[0] = '+';
	big[1] = ' ';
	idx_append_raw("_.vsm_mgt", big, 200000);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", NULL, &s), -1);
	idx_append_raw("_.vsm_mgt", big, 200000);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", NULL, &s), -1);
	idx_append("_.vsm_mgt", "\n+ _.Arg.x 0 8 Arg good\n");
	free(big);
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", NULL, &s), 0);
	ck_assert_str_eq(s.ident, "good");
	VAPI_SegRelease(vd, &s);
	idx_append("_.vsm_mgt", "+ _.Arg.short 0 4096 Arg short\n");
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "short", &s), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "shorter"));
	idx_append("_.vsm_mgt", "+ _.Arg.gone 0 8 Arg gone\n");
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "gone", &s), -1);
	ck_assert_ptr_nonnull(strstr(VAPI_Error(vd), "_.Arg.gone"));
	/* Lines before the header are not trusted. */
	idx_write("_.vsm_mgt", "+ _.Arg.x 0 8 Arg early\n# %jd 1\n",
	    (intmax_t)getpid());
	ck_assert_int_eq(VAPI_SegFind(vd, "Arg", "early", &s), -1);
	VAPI_Free(&vd);
}
END_TEST

/*--------------------------------------------------------------------
 * Counters.
 */

struct seen {
	unsigned	n;
	char		names[64][64];
	uint64_t	val[64];
	char		type[64][16];
};

static int
collect(void *priv, const struct vapi_counter *c)
{
	struct seen *s = priv;

	ck_assert_uint_lt(s->n, 64);
	(void)snprintf(s->names[s->n], sizeof s->names[0], "%s", c->name);
	(void)snprintf(s->type[s->n], sizeof s->type[0], "%s", c->type);
	s->val[s->n] = *c->value;
	ck_assert_ptr_nonnull(c->level);
	ck_assert_ptr_nonnull(c->format);
	ck_assert_ptr_nonnull(c->oneliner);
	ck_assert_ptr_nonnull(c->docs);
	s->n++;
	return (0);
}

static void
counters(struct vapi *vd, struct seen *s)
{

	memset(s, 0, sizeof *s);
	ck_assert_int_eq(VAPI_Counters(vd, collect, s), 0);
}

static int
stop_at_two(void *priv, const struct vapi_counter *c)
{
	unsigned *n = priv;

	(void)c;
	return (++*n == 2 ? 42 : 0);
}

START_TEST(test_counters)
{
	struct vapi *vd;
	struct seen s;
	uint64_t v;
	unsigned n = 0;

	wd_standard(getpid(), getpid());
	vd = attach();
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_str_eq(s.names[0], "MGT.uptime");
	ck_assert_str_eq(s.names[1], "MAIN.uptime");
	ck_assert_str_eq(s.names[2], "MAIN.client_req");
	ck_assert_str_eq(s.names[3], "MAIN.n_thing");
	ck_assert_str_eq(s.type[3], "gauge");
	ck_assert_uint_eq(s.val[0], 100);
	ck_assert_uint_eq(s.val[2], 7);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.client_req", &v), 0);
	ck_assert_uint_eq(v, 7);
	/* Values are live. */
	set_value("_.vsm_child", "_.Stat.2", 1, 12345);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.client_req", &v), 0);
	ck_assert_uint_eq(v, 12345);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.nope", &v), -1);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN", &v), -1);
	ck_assert_int_eq(VAPI_Counters(vd, stop_at_two, &n), 42);
	ck_assert_uint_eq(n, 2);

	/* Hidden (ready 2): not listed, but known by name. */
	set_ready("_.vsm_child", "_.Stat.2", 2);
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_int_eq(VAPI_CounterGet(vd, "MAIN.client_req", &v), 0);
	set_ready("_.vsm_child", "_.Stat.2", 1);
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 4);

	/* A second group sharing the doc, with its own values. */
	add_stat("_.vsm_child", "_.Stat.6", "LCK.x", 0x2222,
	    (const uint64_t[3]){ 9, 8, 7 }, 3, 1);
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 7);
	ck_assert_str_eq(s.names[4], "LCK.x.uptime");
	ck_assert_uint_eq(s.val[6], 7);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_counters_ready)
{
	struct vapi *vd;
	struct seen s;
	uint64_t v;

	wd_standard(getpid(), getpid());
	add_doc("_.vsm_child", "_.StatDoc.7", 0x7777, doc_mgt, 1);
	add_stat("_.vsm_child", "_.Stat.7", "LATE", 0x7777,
	    (const uint64_t[1]){ 77 }, 1, 0);
	vd = attach();
	/* Not ready: waited for briefly, then left out. */
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_int_eq(VAPI_CounterGet(vd, "LATE.uptime", &v), -1);
	set_ready("_.vsm_child", "_.Stat.7", 1);
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_str_eq(s.names[4], "LATE.uptime");
	ck_assert_uint_eq(s.val[4], 77);

	/* A Stat without its doc waits for the doc; the doc may come
	 * later (Varnish 7.1 would abort). */
	add_stat("_.vsm_child", "_.Stat.8", "ORPHAN", 0x8888,
	    (const uint64_t[1]){ 88 }, 1, 1);
	ck_assert_int_eq(VAPI_CounterGet(vd, "ORPHAN.uptime", &v), -1);
	add_doc("_.vsm_child", "_.StatDoc.8", 0x8888, doc_mgt, 1);
	ck_assert_int_eq(VAPI_CounterGet(vd, "ORPHAN.uptime", &v), 0);
	ck_assert_uint_eq(v, 88);

	/* The doc goes, the Stat stays: its counters stay readable. */
	idx_append("_.vsm_child", "- _.StatDoc.8 0 %zu StatDoc 8888\n",
	    24 + strlen(doc_mgt) + 1);
	(void)VAPI_Status(vd);
	ck_assert_int_eq(VAPI_CounterGet(vd, "ORPHAN.uptime", &v), 0);
	ck_assert_uint_eq(v, 88);
	VAPI_Free(&vd);
}
END_TEST

/* Documents a writer might get wrong, or an attacker might write. */
static const struct doc_case {
	const char	*json;
	unsigned	n;		/* counters shown */
	const char	*first;		/* the first one's name */
} doc_cases[] = {
	{ doc_mgt, 1, "T.uptime" },
	/* Pretty-printed. */
	{ "{\n  \"elem\" : {\n    \"a\" : { \"name\" : \"a\", \"index\" : 0 }"
	  "\n  }\n}\n", 1, "T.a" },
	/* Missing descriptive keys: shown with "". */
	{ "{\"elem\":{\"a\":{\"name\":\"a\",\"index\":0}}}", 1, "T.a" },
	/* No name: the member's key. */
	{ "{\"elem\":{\"k\":{\"index\":8}}}", 1, "T.k" },
	/* Index as a string, as 7.1 accepts. */
	{ "{\"elem\":{\"a\":{\"name\":\"a\",\"index\":\"16\"}}}", 1, "T.a" },
	/* Missing index, negative, fractional, huge, misaligned, outside
	 * the body: skipped. */
	{ "{\"elem\":{\"a\":{\"name\":\"a\"},\"b\":{\"index\":-8},"
	  "\"c\":{\"index\":8.0},\"d\":{\"index\":99999999999999999999},"
	  "\"e\":{\"index\":18446744073709551608},\"f\":{\"index\":4},"
	  "\"g\":{\"index\":32},\"h\":{\"index\":1e3},\"i\":{\"index\":true},"
	  "\"ok\":{\"index\":24}}}", 1, "T.ok" },
	/* Wrong types. */
	{ "{\"elem\":[1,2,3]}", 0, NULL },
	{ "{\"elem\":{\"a\":7,\"b\":{\"name\":5,\"index\":0}}}", 1, "T.b" },
	{ "{\"elem\":{\"a\":{\"name\":\"\",\"index\":0}}}", 0, NULL },
	{ "[]", 0, NULL },
	{ "\"elem\"", 0, NULL },
	{ "{}", 0, NULL },
	/* Truncated, garbage, empty. */
	{ "{\"elem\":{\"a\":{\"name\":\"a\",\"index\":0}", 0, NULL },
	{ "{\"elem\":{\"a\":{\"name\":\"a\",\"ind", 0, NULL },
	{ "{\"elem\":{\"a\":{\"name\":\"a\",\"index\":0}}} trailing", 0,
	  NULL },
	{ "\x7f\x45\x4c\x46\x02\x01\x01", 0, NULL },
	{ "", 0, NULL },
	/* Escapes in names reach the caller decoded. */
	{ "{\"elem\":{\"a\":{\"name\":\"a\\u00e9\\n\",\"index\":0}}}", 1,
	  "T.a\xc3\xa9\n" },
};

START_TEST(test_counters_docs)
{
	const struct doc_case *dc = &doc_cases[_i];
	struct vapi *vd;
	struct seen s;

	wd_standard(getpid(), getpid());
	add_doc("_.vsm_child", "_.StatDoc.9", 0x9999, dc->json, 1);
	add_stat("_.vsm_child", "_.Stat.9", "T", 0x9999,
	    (const uint64_t[4]){ 1, 2, 3, 4 }, 4, 1);
	vd = attach();
	counters(vd, &s);
	ck_assert_msg(s.n == 4 + dc->n, "case %d: %u counters", _i, s.n);
	if (dc->first != NULL)
		ck_assert_str_eq(s.names[4], dc->first);
	/* A bad doc once more: still no crash, same answer. */
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 4 + dc->n);
	VAPI_Free(&vd);
}
END_TEST

/* A doc that fills its segment with no NUL: truncated, not overrun. */
START_TEST(test_counters_doc_unterminated)
{
	struct vapi *vd;
	struct seen s;
	char b[PG];

	wd_standard(getpid(), getpid());
	memset(b, '[', sizeof b);
	vsc_head(b, 1, 0xaaaa);
	seg_write("_.vsm_child", "_.StatDoc.a", 0, b, sizeof b, PG);
	idx_append("_.vsm_child", "+ _.StatDoc.a 0 %d StatDoc aaaa\n", PG);
	add_stat("_.vsm_child", "_.Stat.a", "A", 0xaaaa,
	    (const uint64_t[1]){ 1 }, 1, 1);
	/* A head claiming a body beyond the segment. */
	memset(b, 0, sizeof b);
	vsc_head(b, 1, 0xbbbb);
	memset(b + 8, 0xff, 8);
	seg_write("_.vsm_child", "_.StatDoc.b", 0, b, 64, PG);
	idx_append("_.vsm_child", "+ _.StatDoc.b 0 64 StatDoc bbbb\n");
	add_stat("_.vsm_child", "_.Stat.b", "B", 0xbbbb,
	    (const uint64_t[1]){ 1 }, 1, 1);
	/* A segment too short for a head. */
	idx_append("_.vsm_child", "+ _.StatDoc.b 0 8 Stat C\n");
	vd = attach();
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 4);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_counters_varnish_order)
{
	struct vapi *vd;
	struct seen s;

	/* Varnish's manager lists Arg -i first; clusters hold VBE. */
	wd_standard(getpid(), getpid());
	seg_write("_.vsm_child", "_.VSC_cluster.c", 0, "", 0, PG);
	idx_append("_.vsm_child", "+ _.VSC_cluster.c 0 4096  \n");
	add_doc("_.vsm_child", "_.StatDoc.v", 0xbe, doc_mgt, 1);
	{
		char b[48];

		vsc_head(b, 1, 0xbe);
		memset(b + 24, 0, 24);
		b[24] = 5;
		seg_write("_.vsm_child", "_.VSC_cluster.c", 16, b, 48, 0);
		b[24] = 6;
		seg_write("_.vsm_child", "_.VSC_cluster.c", 64, b, 48, 0);
	}
	idx_append("_.vsm_child",
	    "+ _.VSC_cluster.c 16 48 Stat VBE.boot.b1\n"
	    "+ _.VSC_cluster.c 64 48 Stat VBE.boot.b2\n");
	vd = attach();
	counters(vd, &s);
	ck_assert_uint_eq(s.n, 6);
	ck_assert_str_eq(s.names[4], "VBE.boot.b1.uptime");
	ck_assert_uint_eq(s.val[4], 5);
	ck_assert_str_eq(s.names[5], "VBE.boot.b2.uptime");
	ck_assert_uint_eq(s.val[5], 6);
	VAPI_Free(&vd);
}
END_TEST

/*--------------------------------------------------------------------
 * Filters.
 */

static const struct filter_case {
	const char	*f[3];
	const char	*want;		/* names shown, blank-separated */
} filter_cases[] = {
	{ { NULL }, "MGT.uptime MAIN.uptime MAIN.client_req MAIN.n_thing" },
	{ { "MAIN.*" }, "MAIN.uptime MAIN.client_req MAIN.n_thing" },
	{ { "*uptime" }, "MGT.uptime MAIN.uptime" },
	{ { "^MAIN.*" }, "MGT.uptime" },
	{ { "^*uptime" }, "MAIN.client_req MAIN.n_thing" },
	/* The first matching filter decides. */
	{ { "^MAIN.uptime", "MAIN.*" }, "MAIN.client_req MAIN.n_thing" },
	{ { "MAIN.*", "^MAIN.uptime" },
	  "MAIN.uptime MAIN.client_req MAIN.n_thing" },
	{ { "^MGT.*", "^MAIN.n_*" }, "MAIN.uptime MAIN.client_req" },
	{ { "nothing" }, "" },
	{ { "MAIN.client_req" }, "MAIN.client_req" },
	{ { "main.*" }, "" },
	{ { "MAIN.[cn]*" }, "MAIN.client_req MAIN.n_thing" },
};

START_TEST(test_filters)
{
	const struct filter_case *fc = &filter_cases[_i];
	struct vapi *vd;
	struct seen s;
	char got[512];
	unsigned u;
	size_t l = 0;
	uint64_t v;

	wd_standard(getpid(), getpid());
	vd = attach();
	for (u = 0; u < 3 && fc->f[u] != NULL; u++)
		ck_assert_int_eq(VAPI_CounterFilter(vd, fc->f[u]), 0);
	counters(vd, &s);
	got[0] = '\0';
	for (u = 0; u < s.n; u++)
		l += (size_t)snprintf(got + l, sizeof got - l, "%s%s",
		    u ? " " : "", s.names[u]);
	ck_assert_str_eq(got, fc->want);
	/* Filters do not hide a counter asked for by name. */
	ck_assert_int_eq(VAPI_CounterGet(vd, "MGT.uptime", &v), 0);
	VAPI_Free(&vd);
}
END_TEST

START_TEST(test_filter_bad)
{
	struct vapi *vd;

	vd = VAPI_New();
	ck_assert_ptr_nonnull(vd);
	ck_assert_int_eq(VAPI_CounterFilter(vd, ""), -1);
	ck_assert_int_eq(VAPI_CounterFilter(vd, "^"), -1);
	ck_assert_int_eq(VAPI_CounterFilter(vd, NULL), -1);
	VAPI_Free(&vd);
}
END_TEST

/*--------------------------------------------------------------------
 * The JSON parser alone.
 */

static const struct json_case {
	const char	*in;
	int		ok;
} json_cases[] = {
	{ "0", 1 },
	{ "-0", 1 },
	{ "1.5e-3", 1 },
	{ "true", 1 },
	{ "null", 1 },
	{ " \t\r\n{} \n", 1 },
	{ "[1,[2,[3]],{\"a\":[]}]", 1 },
	{ "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\"", 1 },
	{ "\"\\ud83d\\ude00\"", 1 },		/* a surrogate pair */
	{ "\"\\ud83d\"", 1 },			/* a lone one: U+FFFD */
	{ "\"\\udc00\\ud800\"", 1 },
	{ "\"\\u0000\"", 1 },
	{ "\"h\xc3\xa9\"", 1 },
	{ "", 0 },
	{ " ", 0 },
	{ "{", 0 },
	{ "}", 0 },
	{ "[1,]", 0 },
	{ "[,1]", 0 },
	{ "{\"a\"}", 0 },
	{ "{\"a\":}", 0 },
	{ "{\"a\":1,}", 0 },
	{ "{a:1}", 0 },
	{ "{1:1}", 0 },
	{ "01", 0 },
	{ "1.", 0 },
	{ ".5", 0 },
	{ "1e", 0 },
	{ "-", 0 },
	{ "+1", 0 },
	{ "tru", 0 },
	{ "nul", 0 },
	{ "truex", 0 },
	{ "\"abc", 0 },
	{ "\"\\", 0 },
	{ "\"\\x\"", 0 },
	{ "\"\\u12\"", 0 },
	{ "\"\\u12g4\"", 0 },
	{ "\"a\tb\"", 0 },			/* raw control character */
	{ "\"a\nb\"", 0 },
	{ "1 2", 0 },
	{ "{}{}", 0 },
	{ "'a'", 0 },
	{ "NaN", 0 },
};

START_TEST(test_json_cases)
{
	const struct json_case *jc = &json_cases[_i];
	struct vjson *j;
	char err[128];

	j = VJSON_Parse(jc->in, strlen(jc->in), err, sizeof err);
	ck_assert_msg((j != NULL) == jc->ok, "case %d \"%s\": %s", _i,
	    jc->in, j == NULL ? err : "parsed");
	if (j == NULL)
		ck_assert_ptr_nonnull(strstr(err, "line 1 col"));
	VJSON_Free(&j);
	ck_assert_ptr_null(j);
}
END_TEST

START_TEST(test_json_values)
{
	static const char in[] = "{\"s\":\"a\\u00e9\\ud83d\\ude00\\n\","
	    "\"n\":18446744073709551615,\"big\":18446744073709551616,"
	    "\"neg\":-1,\"str\":\"42\",\"a\":[1,2],\"dup\":1,\"dup\":2,"
	    "\"z\":\"\\u0000x\"}";
	struct vjson *j;
	const struct vjson *m;
	uint64_t v;
	char err[128];

	j = VJSON_Parse(in, sizeof in - 1, err, sizeof err);
	ck_assert_msg(j != NULL, "%s", err);
	ck_assert_int_eq(j->type, VJSON_OBJECT);
	m = VJSON_Member(j, "s");
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->str, "a\xc3\xa9\xf0\x9f\x98\x80\n");
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "n"), &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "big"), &v), -1);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "neg"), &v), -1);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "str"), &v), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "a"), &v), -1);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "nothere"), &v), -1);
	ck_assert_int_eq(VJSON_Uint(VJSON_Member(j, "dup"), &v), 0);
	ck_assert_uint_eq(v, 1);
	m = VJSON_Member(j, "z");
	ck_assert_uint_eq(m->len, 2);
	ck_assert_ptr_null(VJSON_Member(VJSON_Member(j, "a"), "x"));
	ck_assert_ptr_null(VJSON_Member(NULL, "x"));
	VJSON_Free(&j);
}
END_TEST

START_TEST(test_json_depth)
{
	char buf[4 * VJSON_MAX_DEPTH + 8];
	struct vjson *j;
	char err[128];
	unsigned u, n;

	/* As deep as allowed, then one more. */
	for (n = VJSON_MAX_DEPTH; n <= VJSON_MAX_DEPTH + 1; n++) {
		for (u = 0; u < n; u++) {
			buf[u] = '[';
			buf[2 * n - 1 - u] = ']';
		}
		j = VJSON_Parse(buf, 2 * n, err, sizeof err);
		ck_assert((j != NULL) == (n == VJSON_MAX_DEPTH));
		if (j == NULL)
			ck_assert_ptr_nonnull(strstr(err, "nested"));
		VJSON_Free(&j);
	}
	/* Very deep: refused, not a stack overflow. */
	{
		size_t l = 1000000;
		char *deep = malloc(l);

		ck_assert_ptr_nonnull(deep);
		memset(deep, '[', l);
		j = VJSON_Parse(deep, l, err, sizeof err);
		ck_assert_ptr_null(j);
		memset(deep, '{', l);
		j = VJSON_Parse(deep, l, NULL, 0);
		ck_assert_ptr_null(j);
		free(deep);
	}
}
END_TEST

/* Every prefix of a real document, and byte flips: no crash. */
START_TEST(test_json_truncated)
{
	struct vjson *j;
	char buf[sizeof doc_main];
	size_t l, n = strlen(doc_main);
	unsigned u;

	for (l = 0; l < n; l++) {
		j = VJSON_Parse(doc_main, l, NULL, 0);
		ck_assert_msg(j == NULL, "prefix %zu parsed", l);
	}
	j = VJSON_Parse(doc_main, n, NULL, 0);
	ck_assert_ptr_nonnull(j);
	VJSON_Free(&j);
	srandom(4);
	for (u = 0; u < 20000; u++) {
		memcpy(buf, doc_main, n);
		buf[(size_t)random() % n] = (char)random();
		buf[(size_t)random() % n] = (char)random();
		j = VJSON_Parse(buf, n, NULL, 0);
		VJSON_Free(&j);
	}
}
END_TEST

static Suite *
vapi_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vapi_vsm");
	tc = tcase_create("vsm");
	tcase_add_checked_fixture(tc, wd_setup, wd_teardown);
	tcase_add_test(tc, test_workdir_names);
	tcase_add_test(tc, test_attach_missing);
	tcase_add_test(tc, test_attach_timeout);
	tcase_add_test(tc, test_attach_dead_pid);
	tcase_add_test(tc, test_child_dead_pid);
	tcase_add_test(tc, test_seg_find);
	tcase_add_test(tc, test_seg_plus_minus);
	tcase_add_test(tc, test_seg_partial_line);
	tcase_add_test(tc, test_seg_rewrite);
	tcase_add_test(tc, test_child_restart);
	tcase_add_test(tc, test_mgt_restart);
	tcase_add_test(tc, test_seg_cluster);
	tcase_add_test(tc, test_seg_malformed);
	suite_add_tcase(s, tc);

	tc = tcase_create("vsc");
	tcase_add_checked_fixture(tc, wd_setup, wd_teardown);
	tcase_add_test(tc, test_counters);
	tcase_add_test(tc, test_counters_ready);
	tcase_add_loop_test(tc, test_counters_docs, 0,
	    (int)ARRAY_SIZE(doc_cases));
	tcase_add_test(tc, test_counters_doc_unterminated);
	tcase_add_test(tc, test_counters_varnish_order);
	tcase_add_loop_test(tc, test_filters, 0,
	    (int)ARRAY_SIZE(filter_cases));
	tcase_add_test(tc, test_filter_bad);
	suite_add_tcase(s, tc);

	tc = tcase_create("json");
	tcase_add_loop_test(tc, test_json_cases, 0,
	    (int)ARRAY_SIZE(json_cases));
	tcase_add_test(tc, test_json_values);
	tcase_add_test(tc, test_json_depth);
	tcase_add_test(tc, test_json_truncated);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(vapi_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

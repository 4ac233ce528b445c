/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vapi_cursor.c -- unit tests of libveneerapi's log cursors and file
 * writer.  The ring is laid out and written by the daemon's own writer
 * (src/cache/vsl.c: VSL_Init, VSL, VSLb, VSL_Flush) in memory, and read
 * with VAPI_CursorMem: head and tail positioning, batches, wraps
 * (including segment_n's 32-bit wrap), overrun of a lapped reader, and
 * writer threads racing a reader that must only ever see intact records
 * or a clean overrun.  Files: round trips, append, and hostile input
 * (bad ids, truncation, garbage) that must give VAPI_BAD, never a crash.
 */

#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache/vsl.h"
#include "vapi.h"

#define RING_HEAD	88		/* bytes before the log words */

static uint64_t *ring;			/* 8-byte aligned */
static size_t ringlen;
static char tmpdir[256];

static void
ring_new(size_t len)
{

	free(ring);
	ringlen = len;
	ring = calloc(1, len);
	ck_assert_ptr_nonnull(ring);
	VSL_Init(ring, len);
}

static void
setup(void)
{

	(void)snprintf(tmpdir, sizeof tmpdir, "/tmp/test_vapi_cursor.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	ring_new(64 * 1024);
}

static void
teardown(void)
{
	char cmd[300];

	(void)snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
	free(ring);
	ring = NULL;
}

static uint32_t
head_segment_n(void)
{

	return (((const uint32_t *)ring)[4]);
}

/* The payload of record seq: a text that says what it is. */
static size_t
payload(char *buf, size_t len, unsigned tid, unsigned seq)
{
	size_t n, want, i;

	n = (size_t)snprintf(buf, len, "t%u s%u ", tid, seq);
	want = n + (seq * 7 + tid * 13) % 180;
	for (i = n; i < want && i + 1 < len; i++)
		buf[i] = (char)('a' + (i + seq + tid) % 26);
	buf[i] = '\0';
	return (i);
}

/* Is rec exactly what payload() makes for (tid, seq) it names? */
static int
payload_ok(const struct vapi_rec *rec, unsigned *tidp, unsigned *seqp)
{
	char want[256];
	size_t n;

	if (rec->len < 1 || rec->data[rec->len - 1] != '\0')
		return (0);
	if (sscanf(rec->data, "t%u s%u ", tidp, seqp) != 2)
		return (0);
	n = payload(want, sizeof want, *tidp, *seqp);
	return (rec->len == n + 1 && memcmp(rec->data, want, n + 1) == 0);
}

static void
put(unsigned tid, unsigned seq)
{
	char buf[256];

	(void)payload(buf, sizeof buf, tid, seq);
	VSL(SLT_ReqURL, tid + 1, "%s", buf);
}

static int
next(struct vapi_cursor *c, struct vapi_rec *rec)
{
	int r;

	r = VAPI_CursorNext(c, rec);
	ck_assert_msg(r != VAPI_BAD, "VAPI_BAD: %s", VAPI_CursorError(c));
	return (r);
}

/* Read n records put() made for tid 0 from first on, then expect r. */
static void
expect_seq(struct vapi_cursor *c, unsigned first, unsigned n, int r)
{
	struct vapi_rec rec;
	unsigned u, tid, seq;

	for (u = 0; u < n; u++) {
		ck_assert_int_eq(next(c, &rec), VAPI_REC);
		ck_assert_uint_eq(rec.tag, SLT_ReqURL);
		ck_assert_uint_eq(rec.vxid, 1);
		ck_assert(payload_ok(&rec, &tid, &seq));
		ck_assert_uint_eq(seq, first + u);
	}
	ck_assert_int_eq(next(c, &rec), r);
}

/*--------------------------------------------------------------------*/

START_TEST(test_empty)
{
	struct vapi_cursor *c;
	struct vapi_rec rec;

	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(next(c, &rec), VAPI_EOF);
	ck_assert_int_eq(next(c, &rec), VAPI_EOF);
	VAPI_CursorFree(&c);
	ck_assert_ptr_null(c);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(next(c, &rec), VAPI_MORE);
	VAPI_CursorFree(&c);
}
END_TEST

START_TEST(test_head_and_tail)
{
	struct vapi_cursor *h, *t;
	unsigned u;

	for (u = 0; u < 10; u++)
		put(0, u);
	h = VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD);
	t = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(t);
	expect_seq(h, 0, 10, VAPI_EOF);
	expect_seq(t, 0, 0, VAPI_MORE);
	for (u = 10; u < 15; u++)
		put(0, u);
	expect_seq(t, 10, 5, VAPI_MORE);
	/* HEAD stays at EOF once there. */
	expect_seq(h, 0, 0, VAPI_EOF);
	VAPI_CursorFree(&h);
	VAPI_CursorFree(&t);
}
END_TEST

/* Buffered records arrive as batches; cursors open them. */
START_TEST(test_batches)
{
	struct vsl_log vsl[1];
	uint32_t buf[1024];
	struct vapi_cursor *c;
	struct vapi_rec rec;

	VSL_Setup(vsl, buf, sizeof buf);
	VSL_SetId(vsl, 7 | VSL_CLIENTMARKER);
	VSLb(vsl, SLT_Begin, "req 1 rxreq");
	VSLb(vsl, SLT_ReqURL, "/a");
	VSL(SLT_CLI, 0, "Rd ping");
	VSLb(vsl, SLT_End, "%s", "");
	VSL_Flush(vsl);
	VSL_SetId(vsl, 8 | VSL_BACKENDMARKER);
	VSLb(vsl, SLT_Begin, "bereq 7 fetch");
	VSL_Flush(vsl);

	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_uint_eq(rec.tag, SLT_CLI);
	ck_assert_uint_eq(rec.vxid, 0);
	ck_assert_int_eq(rec.side, '-');
	ck_assert_str_eq(rec.data, "Rd ping");
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_uint_eq(rec.tag, SLT_Begin);
	ck_assert_uint_eq(rec.vxid, 7);
	ck_assert_int_eq(rec.side, 'c');
	ck_assert_uint_eq(rec.len, 12);
	ck_assert_str_eq(rec.data, "req 1 rxreq");
	ck_assert_uint_eq(rec.ptr[0], (uint32_t)SLT_Begin << 24 | 12);
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_str_eq(rec.data, "/a");
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_uint_eq(rec.tag, SLT_End);
	ck_assert_uint_eq(rec.len, 1);
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_uint_eq(rec.vxid, 8);
	ck_assert_int_eq(rec.side, 'b');
	ck_assert_str_eq(rec.data, "bereq 7 fetch");
	ck_assert_int_eq(next(c, &rec), VAPI_EOF);
	VAPI_CursorFree(&c);
}
END_TEST

/* A live reader keeping up follows many laps, across segment_n's wrap. */
START_TEST(test_wrap)
{
	struct vapi_cursor *c;
	unsigned u, laps = 0;
	uint32_t sn, prev;

	ring_new(8192);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(c);
	prev = head_segment_n();
	for (u = 0; u < 5000; u++) {
		put(0, u);
		if (u % 3 == 2)
			expect_seq(c, u - 2, 3, VAPI_MORE);
		sn = head_segment_n();
		if (sn / 8 != prev / 8)
			laps++;
		prev = sn;
	}
	expect_seq(c, 5000 - 5000 % 3, 5000 % 3, VAPI_MORE);
	ck_assert_uint_gt(laps, 20);
	/* segment_n started at 0xfffffff8 and went past 2^32. */
	ck_assert_uint_lt(head_segment_n(), 1000);
	VAPI_CursorFree(&c);
}
END_TEST

/* -d after many laps: the last 5 to 6 segments, contiguous. */
START_TEST(test_head_after_wrap)
{
	struct vapi_cursor *c;
	struct vapi_rec rec;
	unsigned u, tid, seq, first = 0, n = 0;
	uint32_t segwords;

	ring_new(16384);
	segwords = (uint32_t)((ringlen - RING_HEAD) / 4 / 8);
	for (u = 0; u < 3000; u++)
		put(0, u);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD);
	ck_assert_ptr_nonnull(c);
	while (next(c, &rec) == VAPI_REC) {
		ck_assert(payload_ok(&rec, &tid, &seq));
		if (n == 0)
			first = seq;
		ck_assert_uint_eq(seq, first + n);
		n++;
	}
	ck_assert_int_eq(next(c, &rec), VAPI_EOF);
	ck_assert_uint_eq(first + n, 3000);
	/* Records are 2 + up to 48 words: at least 5 segments' worth. */
	ck_assert_uint_ge(n, 5 * (segwords - 50) / 50);
	VAPI_CursorFree(&c);
}
END_TEST

START_TEST(test_overrun)
{
	struct vapi_cursor *c;
	struct vapi_rec rec;
	unsigned u;
	int r;

	ring_new(8192);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(c);
	put(0, 0);
	expect_seq(c, 0, 1, VAPI_MORE);
	for (u = 1; u < 1000; u++)
		put(0, u);
	r = next(c, &rec);
	ck_assert_int_eq(r, VAPI_OVERRUN);
	ck_assert_ptr_nonnull(strstr(VAPI_CursorError(c), "overrun"));
	ck_assert_ptr_nonnull(strstr(VAPI_CursorError(c), "skipped about"));
	/* It stays unusable. */
	ck_assert_int_eq(next(c, &rec), VAPI_OVERRUN);
	VAPI_CursorFree(&c);
	/* A new one reads on from the newest records. */
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(c);
	put(0, 1000);
	expect_seq(c, 1000, 1, VAPI_MORE);
	VAPI_CursorFree(&c);
}
END_TEST

/* A reader 5 segments behind still gets everything. */
START_TEST(test_no_false_overrun)
{
	struct vapi_cursor *c;
	unsigned u;
	uint32_t sn0;

	ring_new(64 * 1024);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(c);
	sn0 = head_segment_n();
	for (u = 0; head_segment_n() - sn0 < 5; u++)
		put(0, u);
	expect_seq(c, 0, u, VAPI_MORE);
	VAPI_CursorFree(&c);
}
END_TEST

/*--------------------------------------------------------------------
 * Writers racing a reader.
 */

#define NTHREAD		4

static volatile int stop;

static void *
writer_thread(void *priv)
{
	unsigned tid = (unsigned)(uintptr_t)priv, seq, n;
	struct vsl_log vsl[1];
	uint32_t buf[512];
	char pl[256];

	VSL_Setup(vsl, buf, sizeof buf);
	VSL_SetId(vsl, (tid + 1) | VSL_BACKENDMARKER);
	for (seq = 0; !stop; seq++) {
		/* Mostly slower than the reader, which falls behind now and
		 * then on purpose. */
		if (seq % 32 == 0)
			(void)usleep(200);
		(void)payload(pl, sizeof pl, tid, seq);
		if (tid % 2 == 0) {
			VSL(SLT_ReqURL, tid + 1, "%s", pl);
			continue;
		}
		VSLb(vsl, SLT_BereqURL, "%s", pl);
		n = seq % 5;
		if (n == 0)
			VSL_Flush(vsl);
	}
	VSL_Flush(vsl);
	return (NULL);
}

START_TEST(test_threads)
{
	pthread_t thr[NTHREAD];
	unsigned last[NTHREAD], seen[NTHREAD];
	struct vapi_cursor *c;
	struct vapi_rec rec;
	unsigned u, tid, seq, overruns = 0, nrec = 0, lagging = 0;
	double t0;
	int r;

	ring_new(256 * 1024);
	stop = 0;
	memset(seen, 0, sizeof seen);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
	ck_assert_ptr_nonnull(c);
	for (u = 0; u < NTHREAD; u++)
		ck_assert_int_eq(pthread_create(&thr[u], NULL, writer_thread,
		    (void *)(uintptr_t)u), 0);
	t0 = (double)time(NULL);
	while ((double)time(NULL) - t0 < 2) {
		r = next(c, &rec);
		if (r == VAPI_MORE)
			continue;
		if (r == VAPI_OVERRUN) {
			overruns++;
			VAPI_CursorFree(&c);
			c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL);
			ck_assert_ptr_nonnull(c);
			memset(seen, 0, sizeof seen);
			continue;
		}
		ck_assert_int_eq(r, VAPI_REC);
		ck_assert_msg(payload_ok(&rec, &tid, &seq), "corrupt record "
		    "tag %u len %u: %.*s", rec.tag, rec.len, (int)rec.len,
		    rec.data);
		ck_assert_uint_lt(tid, NTHREAD);
		ck_assert_uint_eq(rec.vxid, tid + 1);
		ck_assert_uint_eq(rec.tag, tid % 2 ? SLT_BereqURL :
		    SLT_ReqURL);
		/* Per writer: no gap, no repeat, while the cursor lives. */
		if (seen[tid])
			ck_assert_uint_eq(seq, last[tid] + 1);
		seen[tid] = 1;
		last[tid] = seq;
		/* Now and then, fall behind. */
		if (++nrec % 20000 == 0 && lagging++ % 2 == 0)
			(void)usleep(20000);
	}
	stop = 1;
	for (u = 0; u < NTHREAD; u++)
		ck_assert_int_eq(pthread_join(thr[u], NULL), 0);
	VAPI_CursorFree(&c);
	ck_assert_uint_gt(nrec, 10000);
	ck_assert_uint_gt(overruns, 0);
}
END_TEST

/*--------------------------------------------------------------------
 * Hostile rings.
 */

START_TEST(test_bad_heads)
{
	struct vapi_cursor *c;
	char *b;

	b = (char *)ring;
	ck_assert_ptr_null(VAPI_CursorMem(NULL, 0, VAPI_CUR_HEAD));
	ck_assert_ptr_null(VAPI_CursorMem(ring, 100, VAPI_CUR_HEAD));
	/* Segment size larger than the memory. */
	ck_assert_ptr_null(VAPI_CursorMem(ring, ringlen / 2, VAPI_CUR_HEAD));
	/* No marker. */
	b[0] = 'X';
	ck_assert_ptr_null(VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD));
	b[0] = 'V';
	/* offset[0] < 0 and nothing else. */
	memset(b + 24, 0xff, 64);
	ck_assert_ptr_null(VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD));
	ck_assert_ptr_null(VAPI_CursorMem(ring, ringlen, VAPI_CUR_TAIL));
	/* offset[0] past the end. */
	memset(b + 24, 0, 8);
	b[24 + 6] = 0x10;
	ck_assert_ptr_null(VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD));
	memset(b + 24, 0, 8);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD);
	ck_assert_ptr_nonnull(c);
	VAPI_CursorFree(&c);
}
END_TEST

/* A record head in the last words of the log: VAPI_BAD, no crash. */
START_TEST(test_edge_of_ring)
{
	static const uint32_t heads[] = { 0xff000000U, 0xff000000U | 8,
	    (uint32_t)SLT_ReqURL << 24 | 1, 0x01000000U };
	struct vapi_cursor *c;
	struct vapi_rec rec;
	uint32_t *log, nwords;
	int64_t *offset;
	unsigned u, back, flags;

	log = (uint32_t *)((char *)ring + RING_HEAD);
	offset = (int64_t *)((char *)ring + 24);
	nwords = (uint32_t)((ringlen - RING_HEAD) / 4 / 8 * 8);
	for (u = 0; u < 4; u++)
		for (back = 1; back <= 3; back++)
			for (flags = 0; flags <= VAPI_CUR_HEAD; flags++) {
				VSL_Init(ring, ringlen);
				offset[0] = nwords - back;
				log[nwords - back] = heads[u];
				if (back > 1)
					log[nwords - back + 1] = 4;
				c = VAPI_CursorMem(ring, ringlen, flags);
				if (c == NULL)
					continue;	/* the tail scan saw it */
				ck_assert_int_eq(VAPI_CursorNext(c, &rec),
				    VAPI_BAD);
				VAPI_CursorFree(&c);
			}
}
END_TEST

/* Garbage in the log words: VAPI_BAD or records, nothing else. */
START_TEST(test_garbage_ring)
{
	struct vapi_cursor *c;
	struct vapi_rec rec;
	uint32_t *log;
	unsigned u, i, nbad = 0;
	int r;

	srandom(42);
	log = (uint32_t *)((char *)ring + RING_HEAD);
	for (u = 0; u < 300; u++) {
		VSL_Init(ring, ringlen);
		for (i = 0; i < 100; i++)
			put(0, i);
		for (i = 0; i < 1 + u % 8; i++)
			log[random() % 2000] = (uint32_t)random() ^
			    (u % 3 ? 0xff000000U : 0);
		c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD);
		if (c == NULL)
			continue;
		for (i = 0; i < 100000; i++) {
			r = VAPI_CursorNext(c, &rec);
			if (r != VAPI_REC)
				break;
			ck_assert_uint_le(rec.len, 0xffff);
			ck_assert(rec.tag > 0 && rec.tag < 254);
		}
		ck_assert(r == VAPI_EOF || r == VAPI_BAD);
		if (r == VAPI_BAD) {
			nbad++;
			ck_assert_str_ne(VAPI_CursorError(c), "");
			ck_assert_int_eq(VAPI_CursorNext(c, &rec), VAPI_BAD);
		}
		VAPI_CursorFree(&c);
	}
	ck_assert_uint_gt(nbad, 10);
}
END_TEST

/*--------------------------------------------------------------------
 * Files.
 */

static void
path(char *buf, size_t len, const char *name)
{

	(void)snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void
write_file(const char *p, const void *data, size_t len)
{
	FILE *f;

	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Copy n records of the ring (HEAD) to a file. */
static void
ring_to_file(const char *p, int append, unsigned n)
{
	char err[256];
	struct vapi_writer *w;
	struct vapi_cursor *c;
	struct vapi_rec rec;
	unsigned u;

	w = VAPI_WriterOpen(p, append, err, sizeof err);
	ck_assert_msg(w != NULL, "%s", err);
	c = VAPI_CursorMem(ring, ringlen, VAPI_CUR_HEAD);
	ck_assert_ptr_nonnull(c);
	for (u = 0; u < n; u++) {
		ck_assert_int_eq(next(c, &rec), VAPI_REC);
		ck_assert_int_eq(VAPI_WriterPut(w, &rec), 0);
	}
	ck_assert_int_eq(VAPI_WriterFlush(w), 0);
	VAPI_WriterClose(&w);
	ck_assert_ptr_null(w);
	VAPI_CursorFree(&c);
}

START_TEST(test_file_round_trip)
{
	char p[300], err[300], *data;
	struct vapi_cursor *c;
	struct vapi_rec rec;
	struct vapi_writer *w;
	unsigned u;
	FILE *f;
	long sz;

	for (u = 0; u < 50; u++)
		put(0, u);
	path(p, sizeof p, "a.log");
	ring_to_file(p, 0, 50);
	c = VAPI_CursorFile(p, err, sizeof err);
	ck_assert_msg(c != NULL, "%s", err);
	expect_seq(c, 0, 50, VAPI_EOF);
	VAPI_CursorFree(&c);

	/* Append: the id once, records after records. */
	ring_to_file(p, 1, 10);
	f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	sz = ftell(f);
	ck_assert_int_eq(fclose(f), 0);
	c = VAPI_CursorFile(p, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	expect_seq(c, 0, 50, VAPI_REC);
	VAPI_CursorFree(&c);

	/* Not append: truncated. */
	ring_to_file(p, 0, 10);
	c = VAPI_CursorFile(p, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	expect_seq(c, 0, 10, VAPI_EOF);
	VAPI_CursorFree(&c);

	/* Append to a missing file starts it with the id. */
	path(p, sizeof p, "b.log");
	ring_to_file(p, 1, 3);
	data = NULL;
	f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	data = calloc(1, 8);
	ck_assert_uint_eq(fread(data, 1, 4, f), 4);
	ck_assert_int_eq(memcmp(data, "VSL", 4), 0);
	ck_assert_int_eq(fclose(f), 0);
	free(data);
	ck_assert_int_gt(sz, 4);

	/* A record put together by hand. */
	path(p, sizeof p, "c.log");
	w = VAPI_WriterOpen(p, 0, err, sizeof err);
	ck_assert_ptr_nonnull(w);
	memset(&rec, 0, sizeof rec);
	rec.tag = SLT_VCL_Log;
	rec.vxid = 12;
	rec.side = 'c';
	rec.data = "hello";
	rec.len = 6;
	ck_assert_int_eq(VAPI_WriterPut(w, &rec), 0);
	/* Rotation: the old file moved away, a new one opened. */
	path(err, sizeof err, "c.log.1");
	ck_assert_int_eq(rename(p, err), 0);
	ck_assert_int_eq(VAPI_WriterReopen(w, err, sizeof err), 0);
	rec.vxid = 13;
	ck_assert_int_eq(VAPI_WriterPut(w, &rec), 0);
	VAPI_WriterClose(&w);
	c = VAPI_CursorFile(p, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_uint_eq(rec.vxid, 13);
	ck_assert_int_eq(rec.side, 'c');
	ck_assert_str_eq(rec.data, "hello");
	ck_assert_int_eq(next(c, &rec), VAPI_EOF);
	VAPI_CursorFree(&c);
	path(p, sizeof p, "c.log.1");
	c = VAPI_CursorFile(p, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_uint_eq(rec.vxid, 12);
	ck_assert_int_eq(next(c, &rec), VAPI_EOF);
	VAPI_CursorFree(&c);
}
END_TEST

/* A file with a batch head in it (as raw ring copies have). */
START_TEST(test_file_batch)
{
	static const uint32_t words[] = {
		0x004c5356,		/* "VSL\0" */
		0xff000000, 16,		/* batch of 16 bytes */
		(uint32_t)SLT_ReqURL << 24 | 3, 5 | (1U << 30), 0x00612f,
		(uint32_t)SLT_End << 24 | 1, 5 | (1U << 30), 0,
	};
	char p[300], err[256];
	struct vapi_cursor *c;
	struct vapi_rec rec;

	path(p, sizeof p, "batch.log");
	write_file(p, words, sizeof words);
	c = VAPI_CursorFile(p, err, sizeof err);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_str_eq(rec.data, "/a");
	ck_assert_uint_eq(rec.vxid, 5);
	ck_assert_int_eq(next(c, &rec), VAPI_REC);
	ck_assert_uint_eq(rec.tag, SLT_End);
	ck_assert_int_eq(next(c, &rec), VAPI_EOF);
	VAPI_CursorFree(&c);
}
END_TEST

static const struct hostile {
	const char	*name;
	const char	*data;
	size_t		len;
	int		open_ok;
	const char	*err;		/* in the open or read error */
} hostile[] = {
	{ "empty", "", 0, 0, "not a log file" },
	{ "short id", "VS", 2, 0, "not a log file" },
	{ "wrong id", "VSLX\x01\x00\x00\x10", 8, 0, "not a log file" },
	{ "id only", "VSL\0", 4, 1, NULL },
	{ "half head", "VSL\0\x03\x00\x00\x10\x01", 9, 1, "truncated" },
	{ "short payload", "VSL\0\x09\x00\x00\x10\x01\x00\x00\x40"
	    "abcd", 16, 1, "truncated" },
	{ "tag 0", "VSL\0\x00\x00\x00\x00\x00\x00\x00\x00", 12, 1,
	    "not a record" },
	{ "end marker", "VSL\0\x45\x45\x45\xfe\x00\x00\x00\x00", 12, 1,
	    "not a record" },
	{ "huge length", "VSL\0\xff\xff\x00\x10\x01\x00\x00\x40"
	    "abcd", 16, 1, "truncated" },
};

START_TEST(test_file_hostile)
{
	const struct hostile *h = &hostile[_i];
	char p[300], err[256];
	struct vapi_cursor *c;
	struct vapi_rec rec;
	int r;

	path(p, sizeof p, "hostile.log");
	write_file(p, h->data, h->len);
	err[0] = '\0';
	c = VAPI_CursorFile(p, err, sizeof err);
	if (!h->open_ok) {
		ck_assert_msg(c == NULL, "%s opened", h->name);
		ck_assert_msg(strstr(err, h->err) != NULL, "%s: %s", h->name,
		    err);
		return;
	}
	ck_assert_msg(c != NULL, "%s: %s", h->name, err);
	r = VAPI_CursorNext(c, &rec);
	if (h->err == NULL) {
		ck_assert_int_eq(r, VAPI_EOF);
	} else {
		ck_assert_int_eq(r, VAPI_BAD);
		ck_assert_msg(strstr(VAPI_CursorError(c), h->err) != NULL,
		    "%s: %s", h->name, VAPI_CursorError(c));
	}
	VAPI_CursorFree(&c);
}
END_TEST

START_TEST(test_file_missing)
{
	char err[256];

	ck_assert_ptr_null(VAPI_CursorFile("/nonexistent/x.log", err,
	    sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.log"));
	ck_assert_ptr_null(VAPI_WriterOpen("/nonexistent/x.log", 0, err,
	    sizeof err));
	ck_assert_ptr_nonnull(strstr(err, "cannot open"));
}
END_TEST

/* Random bytes after the id: records or VAPI_BAD, never a crash. */
START_TEST(test_file_garbage)
{
	char p[300], err[256];
	unsigned char buf[4096];
	struct vapi_cursor *c;
	struct vapi_rec rec;
	unsigned u, i;
	int r;

	srandom(7);
	path(p, sizeof p, "garbage.log");
	for (u = 0; u < 200; u++) {
		memcpy(buf, "VSL", 4);
		for (i = 4; i < sizeof buf; i++)
			buf[i] = (unsigned char)random();
		write_file(p, buf, 4 + (size_t)random() % (sizeof buf - 4));
		c = VAPI_CursorFile(p, err, sizeof err);
		ck_assert_ptr_nonnull(c);
		do
			r = VAPI_CursorNext(c, &rec);
		while (r == VAPI_REC);
		ck_assert(r == VAPI_EOF || r == VAPI_BAD);
		VAPI_CursorFree(&c);
	}
}
END_TEST

static Suite *
cursor_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vapi_cursor");
	tc = tcase_create("ring");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_head_and_tail);
	tcase_add_test(tc, test_batches);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_head_after_wrap);
	tcase_add_test(tc, test_overrun);
	tcase_add_test(tc, test_no_false_overrun);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_bad_heads);
	tcase_add_test(tc, test_edge_of_ring);
	tcase_add_test(tc, test_garbage_ring);
	suite_add_tcase(s, tc);

	tc = tcase_create("file");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_file_round_trip);
	tcase_add_test(tc, test_file_batch);
	tcase_add_loop_test(tc, test_file_hostile, 0,
	    (int)(sizeof hostile / sizeof hostile[0]));
	tcase_add_test(tc, test_file_missing);
	tcase_add_test(tc, test_file_garbage);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(cursor_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vsl.c -- unit tests of the log writer: tag numbers against
 * Varnish 7.1, the record layout (word 0 = tag << 24 | length with the
 * NUL, word 1 = vxid | marker, payload padded to 4 bytes), batches,
 * truncation at VSL_RECLEN, masked tags, buffers that fill up, and
 * writers racing for the ring.  Records are read back through
 * VSL_RingForTest().
 */

#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/txt.h"
#include "cache/vsl.h"

#define BUFSZ		4096
#define MAXREC		50000

/* One record as read back from the ring. */
struct rec {
	unsigned	tag;
	unsigned	len;		/* with the NUL */
	uint32_t	wid;
	const char	*data;
	unsigned	batch;		/* 0: unbatched, else batch number */
};

static struct rec recs[MAXREC];
static unsigned nrec;
static unsigned nbatch;
static uint32_t buf[BUFSZ / 4];
static struct vsl_log vsl[1];

/* The log segment, as the child would have it in shared memory. */
#define LOGMEM		(1024 * 1024)
static uint64_t logmem[LOGMEM / 8];

static void
vsl_setup(void)
{

	VSL_Init(logmem, sizeof logmem);
	memset(buf, 0x5a, sizeof buf);
	VSL_Setup(vsl, buf, sizeof buf);
	nrec = nbatch = 0;
}

/* One record at p, which must end at or before e; returns its end. */
static const uint32_t *
ring_record(const uint32_t *p, const uint32_t *e, unsigned batch)
{
	struct rec *r;

	ck_assert_uint_lt(nrec, MAXREC);
	ck_assert(p + VSL_OVERHEAD <= e);
	r = &recs[nrec++];
	r->tag = p[0] >> 24;
	r->len = p[0] & VSL_LENMASK;
	/* Bits 16-23 are unused in Varnish 7.1's format. */
	ck_assert_uint_eq(p[0] & 0x00ff0000U, 0);
	r->wid = p[1];
	r->data = (const char *)(p + VSL_OVERHEAD);
	r->batch = batch;
	ck_assert_uint_ne(r->tag, SLT__Bogus);
	ck_assert_uint_lt(r->tag, SLT__Max);
	ck_assert_uint_ge(r->len, 1);
	ck_assert_uint_le(r->len, VSL_RECLEN);
	ck_assert(p + VSL_OVERHEAD + VSL_WORDS(r->len) <= e);
	/* NUL-terminated exactly at len - 1. */
	ck_assert_uint_eq(strnlen(r->data, r->len), r->len - 1);
	return (p + VSL_OVERHEAD + VSL_WORDS(r->len));
}

/*
 * Parse the ring from word 0 to the write pointer into recs[],
 * unpacking batches and checking their framing.  Returns the count.
 */
static unsigned
ring_parse(void)
{
	const uint32_t *ring, *p, *e, *be;
	uint32_t n;

	nrec = nbatch = 0;
	ring = VSL_RingForTest(&n);
	ck_assert_ptr_nonnull(ring);
	p = ring;
	e = ring + n;
	ck_assert_uint_eq(*e, VSL_ENDMARKER);
	while (p < e) {
		ck_assert_uint_ne(p[0], VSL_ENDMARKER);
		ck_assert_uint_ne(p[0], VSL_WRAPMARKER);
		if (p[0] >> 24 != SLT__Batch) {
			p = ring_record(p, e, 0);
			continue;
		}
		/* A batch: no length of its own, word 1 in bytes. */
		ck_assert_uint_eq(p[0], (uint32_t)SLT__Batch << 24);
		ck_assert_msg(p[1] > 0, "empty batch at word %td", p - ring);
		ck_assert_uint_eq(p[1] % 4, 0);
		ck_assert(p + VSL_OVERHEAD + p[1] / 4 <= e);
		nbatch++;
		be = p + VSL_OVERHEAD + p[1] / 4;
		p += VSL_OVERHEAD;
		while (p < be)
			p = ring_record(p, be, nbatch);
		ck_assert_ptr_eq(p, be);
	}
	ck_assert_ptr_eq(p, e);
	return (nrec);
}

static unsigned
ring_words(void)
{
	uint32_t n;

	(void)VSL_RingForTest(&n);	/* only the count is wanted */
	return (n);
}

static void
rec_is(unsigned i, enum VSL_tag_e tag, uint32_t wid, const char *s)
{

	ck_assert_uint_lt(i, nrec);
	ck_assert_msg(recs[i].tag == (unsigned)tag, "rec %u: tag %u, want %u",
	    i, recs[i].tag, (unsigned)tag);
	ck_assert_msg(recs[i].wid == wid, "rec %u: wid %#x, want %#x", i,
	    recs[i].wid, wid);
	ck_assert_msg(recs[i].len == strlen(s) + 1, "rec %u: len %u, want %zu",
	    i, recs[i].len, strlen(s) + 1);
	ck_assert_msg(strcmp(recs[i].data, s) == 0,
	    "rec %u: \"%s\", want \"%s\"", i, recs[i].data, s);
}

/* Table and constants ----------------------------------------------*/

/*
 * Numbers counted from Varnish 7.1's include/tbl/vsl_tags.h (with
 * tbl/vsl_tags_http.h expanded for Req, Resp, Bereq, Beresp and Obj).
 * Varnish's log readers depend on them.
 */
static const struct tag_number {
	enum VSL_tag_e	tag;
	const char	*name;
	unsigned	number;
} tag_numbers[] = {
	{ SLT_Debug,		"Debug",	1 },
	{ SLT_Error,		"Error",	2 },
	{ SLT_CLI,		"CLI",		3 },
	{ SLT_SessOpen,		"SessOpen",	4 },
	{ SLT_SessClose,	"SessClose",	5 },
	{ SLT_BackendOpen,	"BackendOpen",	6 },
	{ SLT_Length,		"Length",	13 },
	{ SLT_FetchError,	"FetchError",	14 },
	{ SLT_ReqMethod,	"ReqMethod",	15 },
	{ SLT_ReqURL,		"ReqURL",	16 },
	{ SLT_ReqHeader,	"ReqHeader",	20 },
	{ SLT_RespStatus,	"RespStatus",	26 },
	{ SLT_BereqURL,		"BereqURL",	32 },
	{ SLT_BerespStatus,	"BerespStatus",	42 },
	{ SLT_ObjHeader,	"ObjHeader",	52 },
	{ SLT_BogoHeader,	"BogoHeader",	55 },
	{ SLT_VCL_call,		"VCL_call",	60 },
	{ SLT_VCL_trace,	"VCL_trace",	61 },
	{ SLT_VCL_return,	"VCL_return",	62 },
	{ SLT_ReqStart,		"ReqStart",	63 },
	{ SLT_Hit,		"Hit",		64 },
	{ SLT_Hash,		"Hash",		70 },
	{ SLT_Link,		"Link",		75 },
	{ SLT_Begin,		"Begin",	76 },
	{ SLT_End,		"End",		77 },
	{ SLT_Timestamp,	"Timestamp",	80 },
	{ SLT_ReqAcct,		"ReqAcct",	81 },
	{ SLT_BereqAcct,	"BereqAcct",	83 },
	{ SLT_H2RxHdr,		"H2RxHdr",	87 },
	{ SLT_VCL_use,		"VCL_use",	94 },
	{ SLT_Notice,		"Notice",	95 },
	{ SLT_VdpAcct,		"VdpAcct",	96 },	/* Varnish 7.1's last */
};

START_TEST(test_tag_numbers)
{
	const struct tag_number *tn = &tag_numbers[_i];

	ck_assert_msg((unsigned)tn->tag == tn->number, "SLT_%s is %u, want %u",
	    tn->name, (unsigned)tn->tag, tn->number);
	ck_assert_str_eq(VSL_tag_names[tn->tag], tn->name);
}
END_TEST

START_TEST(test_constants)
{
	unsigned u;

	/* Veneer's own tags go after Varnish's, below the reserved ones. */
	ck_assert_uint_ge(SLT__Max, 97);
	ck_assert_uint_lt(SLT__Max, SLT__Reserved);
	ck_assert_uint_eq(SLT__Reserved, 254);
	ck_assert_uint_eq(SLT__Batch, 255);
	ck_assert_uint_eq(VSL_CLIENTMARKER, 0x40000000U);
	ck_assert_uint_eq(VSL_BACKENDMARKER, 0x80000000U);
	ck_assert_uint_eq(VSL_IDENTMASK, 0x3fffffffU);
	ck_assert_uint_eq(VSL_LENMASK, 0xffffU);
	ck_assert_uint_eq(VSL_OVERHEAD, 2);
	ck_assert_uint_eq(VSL_ENDMARKER, 0xfe454545U);
	ck_assert_uint_eq(VSL_WRAPMARKER, 0xfe575757U);
	ck_assert_uint_eq(VSL_RECLEN, 255);
	ck_assert_uint_eq(VSL_WORDS(0), 0);
	ck_assert_uint_eq(VSL_WORDS(1), 1);
	ck_assert_uint_eq(VSL_WORDS(4), 1);
	ck_assert_uint_eq(VSL_WORDS(5), 2);
	ck_assert_str_eq(VSL_tag_names[SLT__Bogus], "Bogus");
	for (u = 1; u < SLT__Max; u++)
		ck_assert_msg(VSL_tag_names[u] != NULL &&
		    VSL_tag_names[u][0] != '\0', "tag %u has no name", u);
}
END_TEST

/* Buffered records -------------------------------------------------*/

START_TEST(test_buffered)
{
	const uint32_t wid = 1001 | VSL_CLIENTMARKER;
	static const char proto[] = "HTTP/1.1 and more";

	VSL_SetId(vsl, wid);
	VSLbs(vsl, SLT_Begin, "req 1000 rxreq");
	VSLb(vsl, SLT_ReqURL, "/%s?%d", "index.html", 42);
	VSLbt(vsl, SLT_ReqProtocol, TXT_Make(proto, proto + 8));
	VSLbs(vsl, SLT_ReqHeader, NULL);
	VSLbt(vsl, SLT_ReqHeader, TXT_Make(NULL, NULL));
	VSLbs(vsl, SLT_End, "");
	/* Nothing reaches the ring before the flush. */
	ck_assert_uint_eq(ring_words(), 0);
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_parse(), 6);
	ck_assert_uint_eq(nbatch, 1);
	rec_is(0, SLT_Begin, wid, "req 1000 rxreq");
	rec_is(1, SLT_ReqURL, wid, "/index.html?42");
	rec_is(2, SLT_ReqProtocol, wid, "HTTP/1.1");
	rec_is(3, SLT_ReqHeader, wid, "");
	rec_is(4, SLT_ReqHeader, wid, "");
	rec_is(5, SLT_End, wid, "");
	ck_assert_uint_eq(recs[5].batch, 1);
	/* The buffer is empty again: a second flush writes nothing. */
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_parse(), 6);
	ck_assert_uint_eq(nbatch, 1);
}
END_TEST

/* The exact words of a batch, padding boundaries included. */
START_TEST(test_layout)
{
	const uint32_t wid = 77 | VSL_BACKENDMARKER;
	static const char *const s[] = { "", "a", "ab", "abc", "abcd",
	    "abcde", "abcdefg", "abcdefgh" };
	const uint32_t *ring, *p;
	uint32_t n, bytes = 0;
	unsigned u;

	VSL_SetId(vsl, wid);
	for (u = 0; u < ARRAY_SIZE(s); u++) {
		VSLbs(vsl, SLT_BereqHeader, s[u]);
		bytes += 4 * (VSL_OVERHEAD + VSL_WORDS(strlen(s[u]) + 1));
	}
	VSL_Flush(vsl);
	ring = VSL_RingForTest(&n);
	ck_assert_uint_eq(n, VSL_OVERHEAD + bytes / 4);
	ck_assert_uint_eq(ring[0], (uint32_t)SLT__Batch << 24);
	ck_assert_uint_eq(ring[1], bytes);
	p = ring + VSL_OVERHEAD;
	for (u = 0; u < ARRAY_SIZE(s); u++) {
		ck_assert_uint_eq(p[0], ((uint32_t)SLT_BereqHeader << 24) |
		    (uint32_t)(strlen(s[u]) + 1));
		ck_assert_uint_eq(p[1], wid);
		ck_assert_str_eq((const char *)(p + 2), s[u]);
		p += VSL_OVERHEAD + VSL_WORDS(strlen(s[u]) + 1);
	}
	ck_assert_ptr_eq(p, ring + n);
	ck_assert_uint_eq(ring[n], VSL_ENDMARKER);
}
END_TEST

START_TEST(test_set_id)
{
	const uint32_t c = 5 | VSL_CLIENTMARKER, b = 6 | VSL_BACKENDMARKER;

	VSL_SetId(vsl, c);
	VSLbs(vsl, SLT_Begin, "req");
	/* A new id flushes what the old one wrote. */
	VSL_SetId(vsl, b);
	ck_assert_uint_eq(ring_parse(), 1);
	VSLbs(vsl, SLT_Begin, "bereq");
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_parse(), 2);
	ck_assert_uint_eq(nbatch, 2);
	rec_is(0, SLT_Begin, c, "req");
	rec_is(1, SLT_Begin, b, "bereq");
	ck_assert_uint_eq(recs[0].batch, 1);
	ck_assert_uint_eq(recs[1].batch, 2);
	/* The full id, markers and all, is kept. */
	VSL_SetId(vsl, VSL_IDENTMASK | VSL_CLIENTMARKER);
	VSLbs(vsl, SLT_End, "");
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_parse(), 3);
	rec_is(2, SLT_End, VSL_IDENTMASK | VSL_CLIENTMARKER, "");
}
END_TEST

START_TEST(test_timestamp)
{
	vtim_real first = 1000.0, prev = 1000.0;

	VSL_SetId(vsl, 9 | VSL_CLIENTMARKER);
	VSLb_ts(vsl, "Start", first, &prev, 1000.5);
	ck_assert(prev == 1000.5);
	VSLb_ts(vsl, "Resp", first, &prev, 1001.25);
	ck_assert(prev == 1001.25);
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_parse(), 2);
	rec_is(0, SLT_Timestamp, 9 | VSL_CLIENTMARKER,
	    "Start: 1000.500000 0.500000 0.500000");
	rec_is(1, SLT_Timestamp, 9 | VSL_CLIENTMARKER,
	    "Resp: 1001.250000 1.250000 0.750000");
}
END_TEST

/* Truncation -------------------------------------------------------*/

START_TEST(test_truncate)
{
	char big[1000], want[VSL_RECLEN];
	unsigned u;

	for (u = 0; u < sizeof big; u++)
		big[u] = (char)('a' + u % 26);
	big[sizeof big - 1] = '\0';
	memcpy(want, big, VSL_RECLEN - 1);
	want[VSL_RECLEN - 1] = '\0';

	VSL_SetId(vsl, 1);
	VSLbs(vsl, SLT_Error, big);
	VSLb(vsl, SLT_Error, "%s", big);
	VSLbt(vsl, SLT_Error, TXT_Make(big, big + 500));
	/* 254 characters fit exactly; 255 do not. */
	VSLbt(vsl, SLT_Error, TXT_Make(big, big + VSL_RECLEN - 1));
	VSLbt(vsl, SLT_Error, TXT_Make(big, big + VSL_RECLEN));
	VSLb(vsl, SLT_Error, "%.*s", (int)VSL_RECLEN - 1, big);
	VSLb(vsl, SLT_Error, "%.*s", (int)VSL_RECLEN, big);
	VSL_Flush(vsl);
	VSL(SLT_Error, 2, "%s", big);
	VSL(SLT_Error, 2, "%.*s", (int)VSL_RECLEN - 1, big);

	ck_assert_uint_eq(ring_parse(), 9);
	for (u = 0; u < 7; u++)
		rec_is(u, SLT_Error, 1, want);
	for (; u < 9; u++)
		rec_is(u, SLT_Error, 2, want);
	for (u = 0; u < 9; u++)
		ck_assert_uint_eq(recs[u].len, VSL_RECLEN);
}
END_TEST

/* Masked tags ------------------------------------------------------*/

START_TEST(test_masked)
{

	ck_assert(VSL_Masked(SLT_Debug));
	ck_assert(VSL_Masked(SLT_VCL_trace));
	ck_assert(VSL_Masked(SLT_Hash));
	ck_assert(!VSL_Masked(SLT_ReqURL));
	ck_assert(!VSL_Masked(SLT_Timestamp));
	ck_assert(!VSL_Masked(SLT_Error));
	ck_assert(!VSL_Masked(SLT__Batch));

	VSL_SetId(vsl, 3);
	VSLbs(vsl, SLT_Debug, "x");
	VSLb(vsl, SLT_Debug, "%s", "x");
	VSLbt(vsl, SLT_Debug, TXT_Str("x"));
	VSL(SLT_Debug, 3, "%s", "x");
	/* Nothing buffered, nothing written. */
	ck_assert_ptr_eq(vsl->wlp, vsl->wlb);
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_words(), 0);

	/* Masked records between others leave no trace. */
	VSLbs(vsl, SLT_ReqURL, "/a");
	VSLbs(vsl, SLT_Debug, "x");
	VSLbs(vsl, SLT_ReqURL, "/b");
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_parse(), 2);
	rec_is(0, SLT_ReqURL, 3, "/a");
	rec_is(1, SLT_ReqURL, 3, "/b");
}
END_TEST

/* Unbuffered records -----------------------------------------------*/

START_TEST(test_direct)
{

	VSL(SLT_CLI, 0, "Rd %s", "ping");
	VSL(SLT_Error, 12 | VSL_BACKENDMARKER, "%d", 500);
	VSL(SLT_SessError, 0, "%s", "");
	ck_assert_uint_eq(ring_parse(), 3);
	ck_assert_uint_eq(nbatch, 0);
	rec_is(0, SLT_CLI, 0, "Rd ping");
	rec_is(1, SLT_Error, 12 | VSL_BACKENDMARKER, "500");
	rec_is(2, SLT_SessError, 0, "");
	ck_assert_uint_eq(recs[0].batch, 0);
}
END_TEST

/* A log without a buffer writes each record straight to the ring. */
START_TEST(test_no_buffer)
{
	struct vsl_log nb;

	memset(&nb, 0, sizeof nb);
	nb.wid = 4 | VSL_CLIENTMARKER;
	VSLbs(&nb, SLT_ReqURL, "/x");
	VSLb(&nb, SLT_ReqMethod, "%s", "GET");
	VSL_Flush(&nb);
	ck_assert_uint_eq(ring_parse(), 2);
	ck_assert_uint_eq(nbatch, 0);
	rec_is(0, SLT_ReqURL, 4 | VSL_CLIENTMARKER, "/x");
	rec_is(1, SLT_ReqMethod, 4 | VSL_CLIENTMARKER, "GET");
}
END_TEST

/* Before VSL_Init there is no ring: records are dropped, no crash. */
START_TEST(test_before_init)
{
	uint32_t n;

	VSL(SLT_Error, 1, "early");
	ck_assert_ptr_null(VSL_RingForTest(&n));
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* Buffers filling up -----------------------------------------------*/

/* Payload of record i: its number, padded to a length that varies. */
static void
fill_payload(char *b, size_t sz, unsigned i)
{

	/* Under VSL_RECLEN: truncation is tested elsewhere. */
	(void)snprintf(b, sz, "rec %u %.*s", i, (int)((i * 37) % 240),
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789"
	    "0123456789012345678901234567890123456789");
}

static void
fill_and_check(size_t bufsz, unsigned count)
{
	char want[VSL_RECLEN];
	unsigned u;

	VSL_Setup(vsl, buf, bufsz);
	VSL_SetId(vsl, 8 | VSL_CLIENTMARKER);
	for (u = 0; u < count; u++) {
		fill_payload(want, sizeof want, u);
		if (u % 3 == 0)
			VSLbs(vsl, SLT_ReqHeader, want);
		else
			VSLb(vsl, SLT_ReqHeader, "%s", want);
	}
	VSL_Flush(vsl);
	/* None lost, none reordered, none twice. */
	ck_assert_uint_eq(ring_parse(), count);
	for (u = 0; u < count; u++) {
		fill_payload(want, sizeof want, u);
		rec_is(u, SLT_ReqHeader, 8 | VSL_CLIENTMARKER, want);
	}
	ck_assert_ptr_eq(vsl->wlp, vsl->wlb);
}

START_TEST(test_fill_flushes)
{

	fill_and_check(BUFSZ, 2000);
	/* Many batches, each within the buffer. */
	ck_assert_uint_gt(nbatch, 10);
}
END_TEST

/* The smallest buffer that batches at all: one longest record. */
START_TEST(test_fill_one_record_buffer)
{
	size_t sz = 4 * (2 * VSL_OVERHEAD + VSL_WORDS(VSL_RECLEN));

	fill_and_check(sz, 300);
	ck_assert_uint_ge(nbatch, 1);
}
END_TEST

/*
 * Buffers too small for one longest record (VSL_Setup takes 64 bytes)
 * write their records straight to the ring.  They used to leave an
 * empty batch (word 1 = 0) in the ring for every record as well.
 */
static const size_t small_sizes[] = { 64, 100, 128, 256, 268 };

START_TEST(test_fill_small_buffer)
{

	fill_and_check(small_sizes[_i], 50);
	ck_assert_uint_eq(nbatch, 0);
}
END_TEST

/* Each buffer flush is one batch; each batch fits in its buffer. */
START_TEST(test_batches_fit)
{
	unsigned u, cnt = 0, b = 1;

	fill_and_check(1024, 500);
	for (u = 0; u < nrec; u++) {
		ck_assert_uint_ge(recs[u].batch, b);
		if (recs[u].batch != b) {
			b = recs[u].batch;
			cnt = 0;
		}
		cnt += 4 * (VSL_OVERHEAD + VSL_WORDS(recs[u].len));
		ck_assert_uint_le(cnt + 4 * VSL_OVERHEAD, 1024);
	}
}
END_TEST

/* The ring wraps ---------------------------------------------------*/

START_TEST(test_wrap)
{
	const uint32_t *ring;
	char want[VSL_RECLEN];
	uint32_t before, after;
	unsigned u;

	memset(want, 'w', sizeof want - 1);
	want[sizeof want - 1] = '\0';
	for (u = 0; ; u++) {
		ck_assert_uint_lt(u, 1000000);
		(void)VSL_RingForTest(&before);	/* only the count */
		VSL(SLT_Error, u, "%s", want);
		ring = VSL_RingForTest(&after);
		if (after < before)
			break;
		ck_assert_uint_eq(after, before + VSL_OVERHEAD + 64);
	}
	ck_assert_uint_eq(ring[before], VSL_WRAPMARKER);
	ck_assert_uint_eq(after, VSL_OVERHEAD + 64);
	ck_assert_uint_eq(ring[0], ((uint32_t)SLT_Error << 24) | VSL_RECLEN);
	ck_assert_uint_eq(ring[1], u);
	ck_assert_str_eq((const char *)(ring + 2), want);
	ck_assert_uint_eq(ring[after], VSL_ENDMARKER);
	/* The ring keeps working after the wrap. */
	VSL(SLT_Error, 1, "after");
	ck_assert_uint_eq(ring_parse(), 2);
	rec_is(1, SLT_Error, 1, "after");
}
END_TEST

/* The head, as Varnish 7.1's readers expect it ------------------------*/

static int64_t
head_i64(unsigned off)
{
	int64_t v;

	memcpy(&v, (const char *)logmem + off, sizeof v);
	return (v);
}

static uint32_t
head_u32(unsigned off)
{
	uint32_t v;

	memcpy(&v, (const char *)logmem + off, sizeof v);
	return (v);
}

START_TEST(test_head)
{
	uint32_t segn0, segsize, n;
	const uint32_t *ring;
	unsigned u;

	ck_assert_mem_eq(logmem, "VSLHEAD1", 8);
	segsize = (uint32_t)head_i64(8);
	ck_assert_uint_eq(segsize, ((LOGMEM - 88) / 4) / 8);
	segn0 = head_u32(16);
	ck_assert_uint_eq(segn0, 0xfffffff8U);
	ck_assert_int_eq(head_i64(24), 0);
	for (u = 1; u < 8; u++)
		ck_assert_int_eq(head_i64(24 + 8 * u), -1);
	ring = VSL_RingForTest(&n);
	ck_assert_ptr_eq(ring, (const uint32_t *)(const void *)
	    ((const char *)logmem + 88));
	ck_assert_uint_eq(ring[0], VSL_ENDMARKER);
	/* Writing into segment 2 moves segment_n and fills offset[1..2]. */
	while (n < 2 * segsize + 10) {
		VSL(SLT_Error, 1, "%s", "filling the log");
		(void)VSL_RingForTest(&n);
	}
	ck_assert_uint_eq(head_u32(16), segn0 + 2);
	ck_assert_int_ge(head_i64(24 + 8), segsize);
	ck_assert_int_lt(head_i64(24 + 8), segsize + 16);
	ck_assert_int_ge(head_i64(24 + 16), 2 * segsize);
	ck_assert_int_eq(head_i64(24 + 24), -1);
	/* Each offset is a record boundary. */
	ck_assert_uint_eq(ring[head_i64(32)] >> 24, SLT_Error);
}
END_TEST

/* A wrap starts a new lap: segment_n rounds up to a multiple of 8. */
START_TEST(test_wrap_segment_n)
{
	uint32_t n, prev = 0, segn0;

	segn0 = head_u32(16);
	for (;;) {
		VSL(SLT_Error, 1, "%s", "filling the log once over");
		(void)VSL_RingForTest(&n);
		if (n < prev)
			break;
		prev = n;
	}
	/* segn0 is 2^32 - 8: the first lap ends at 0 (mod 2^32). */
	ck_assert_uint_eq(head_u32(16), segn0 + 8);
	ck_assert_uint_eq(head_u32(16) % 8, 0);
	ck_assert_int_eq(head_i64(24), 0);
}
END_TEST

/* VSLb formats without printf: the same text as snprintf gives. */
START_TEST(test_format_like_printf)
{
	char want[VSL_RECLEN];
	unsigned n = 0;

#define FMT_CASE(...)							\
	do {								\
		(void)snprintf(want, sizeof want, __VA_ARGS__);	\
		VSLb(vsl, SLT_Debug + 1, __VA_ARGS__);			\
		VSL_Flush(vsl);						\
		ck_assert_uint_eq(ring_parse(), ++n);			\
		ck_assert_str_eq(recs[n - 1].data, want);		\
	} while (0)

	VSL_SetId(vsl, 9 | VSL_CLIENTMARKER);
	FMT_CASE("req %u rxreq", 4294967295U);
	FMT_CASE("%d %s %s %s %s %s reuse", -17, "default", "127.0.0.1",
	    "8080", "::1", "0");
	FMT_CASE("%ju %ju %ju %ju %ju %ju", (uintmax_t)0, (uintmax_t)1,
	    UINTMAX_MAX, (uintmax_t)42, (uintmax_t)100, (uintmax_t)7);
	FMT_CASE("%jd %ld %zu %lu", INTMAX_MIN, -1L, (size_t)12345,
	    ULONG_MAX);
	FMT_CASE("%s: %.*s|", "cut", 3, "abcdef");
	FMT_CASE("%.*s", 10, "short");
	FMT_CASE("100%% %c%c", 'o', 'k');
	FMT_CASE("%s", "");
	FMT_CASE("no conversion at all");
	/* What it does not know goes to printf, with the same result. */
	FMT_CASE("%x %5d %-3s| %.2f", 255U, 42, "a", 1.005);
	FMT_CASE("%p", (void *)0);
#undef FMT_CASE
}
END_TEST

/* Racing writers ---------------------------------------------------*/

#define NTHREAD		4
#define PERTHREAD	5000

struct writer {
	unsigned	n;
	uint32_t	space[256];	/* this thread's log buffer */
};

static void *
writer_run(void *priv)
{
	struct writer *w = priv;
	struct vsl_log l;
	unsigned u;

	VSL_Setup(&l, w->space, sizeof w->space);
	VSL_SetId(&l, w->n | VSL_CLIENTMARKER);
	for (u = 0; u < PERTHREAD; u++) {
		VSLb(&l, SLT_ReqHeader, "t%u %u", w->n, u);
		if (u % 100 == 0)
			VSL(SLT_Notice, w->n, "t%u direct %u", w->n, u);
	}
	VSL_Flush(&l);
	return (NULL);
}

START_TEST(test_threads)
{
	struct writer w[NTHREAD];
	pthread_t thr[NTHREAD];
	unsigned u, t, k, next[NTHREAD], nextd[NTHREAD];

	for (u = 0; u < NTHREAD; u++) {
		w[u].n = u + 1;
		next[u] = nextd[u] = 0;
		ck_assert_int_eq(pthread_create(&thr[u], NULL, writer_run,
		    &w[u]), 0);
	}
	for (u = 0; u < NTHREAD; u++)
		ck_assert_int_eq(pthread_join(thr[u], NULL), 0);
	ck_assert_uint_eq(ring_parse(),
	    NTHREAD * (PERTHREAD + PERTHREAD / 100));
	/* Each thread's records in its own order, none lost. */
	for (u = 0; u < nrec; u++) {
		if (recs[u].tag == SLT_Notice) {
			ck_assert_int_eq(sscanf(recs[u].data, "t%u direct %u",
			    &t, &k), 2);
			ck_assert_uint_eq(recs[u].wid, t);
			ck_assert_uint_eq(k, nextd[t - 1]);
			nextd[t - 1] += 100;
			continue;
		}
		ck_assert_uint_eq(recs[u].tag, SLT_ReqHeader);
		ck_assert_int_eq(sscanf(recs[u].data, "t%u %u", &t, &k), 2);
		ck_assert(t >= 1 && t <= NTHREAD);
		ck_assert_uint_eq(recs[u].wid, t | VSL_CLIENTMARKER);
		ck_assert_uint_eq(k, next[t - 1]);
		next[t - 1]++;
	}
	for (u = 0; u < NTHREAD; u++) {
		ck_assert_uint_eq(next[u], PERTHREAD);
		ck_assert_uint_eq(nextd[u], PERTHREAD);
	}
}
END_TEST

/* Timestamps exactly as printf's "%.6f" writes them ----------------*/

/* Log one Timestamp for (first, prev, now); compare with snprintf. */
static void
ts_check(vtim_real first, vtim_real prev, vtim_real now)
{
	char want[1024];
	vtim_real p = prev;

	vsl_setup();
	VSL_SetId(vsl, 5 | VSL_CLIENTMARKER);
	VSLb_ts(vsl, "Beresp", first, &p, now);
	ck_assert(p == now || (p != p && now != now));
	VSL_Flush(vsl);
	ck_assert_uint_eq(ring_parse(), 1);
	(void)snprintf(want, sizeof want, "Beresp: %.6f %.6f %.6f", now,
	    now - first, now - prev);
	want[VSL_RECLEN - 1] = '\0';	/* the record is cut there */
	rec_is(0, SLT_Timestamp, 5 | VSL_CLIENTMARKER, want);
}

/* (first, prev, now): rounding ties, carries, signs, huge and odd. */
static const double ts_cases[][3] = {
	{ 0, 0, 0 },
	{ 0, 0, -0.0 },
	{ 0, 0, 0.0000005 },
	{ 0, 0, 0.00000049999999 },
	{ 0, 0, 0.0000015 },
	{ 0, 0, 0.9999995 },
	{ 0, 0, 0.99999949999 },
	{ 0, 0, 9.9999999 },
	{ 1795367082.312922, 1795367082.312922, 1795367082.312922 },
	{ 1795367082.0, 1795367082.5, 1795367082.9999996 },
	{ 1795367082.0, 1795367082.5, 1795367082.9999994 },
	{ 1795367082.0, 1795367082.0, 1795367082.0000005 },
	{ 1000.000001, 1000.5, 1000.0 },	/* the clock went back */
	{ 1e-9, 1e-9, 0 },			/* "-0.000000" */
	{ -1e14, 0, 1e14 + 0.5 },
	{ 0, 0, 123456789012.3456789 },
	{ 0, 0, 999999999999999.9 },
	{ 0, 0, 1e15 },
	{ 0, 0, 1e16 },
	{ 0, 0, -1e300 },
	{ 0, 0, 1.0 / 0.0 },
	{ 0, 0, -1.0 / 0.0 },
	{ 0, 0, 0.0 / 0.0 },
};

START_TEST(test_timestamp_format)
{

	ts_check(ts_cases[_i][0], ts_cases[_i][1], ts_cases[_i][2]);
}
END_TEST

/* Times as the request path makes them: now, and deltas of any size. */
START_TEST(test_timestamp_sweep)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	double now, first, prev;
	unsigned u;

	for (u = 0; u < 20000; u++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		now = 1.7e9 + (double)(x % 100000000000ULL) / 1e3;
		first = now - (double)(x >> 40) / (double)(1U << (x % 24));
		prev = now - (double)((x >> 20) & 0xfffff) / 1e9;
		ts_check(first, prev, now);
	}
}
END_TEST

static Suite *
vsl_suite(void)
{
	Suite *s;
	TCase *tc;

	s = suite_create("vsl");

	tc = tcase_create("table");
	tcase_add_loop_test(tc, test_tag_numbers, 0,
	    (int)ARRAY_SIZE(tag_numbers));
	tcase_add_test(tc, test_constants);
	suite_add_tcase(s, tc);

	tc = tcase_create("records");
	/* The timestamp sweep takes seconds under AddressSanitizer. */
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, vsl_setup, NULL);
	tcase_add_test(tc, test_buffered);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_set_id);
	tcase_add_test(tc, test_timestamp);
	tcase_add_test(tc, test_truncate);
	tcase_add_test(tc, test_masked);
	tcase_add_test(tc, test_direct);
	tcase_add_test(tc, test_no_buffer);
	tcase_add_loop_test(tc, test_timestamp_format, 0,
	    (int)ARRAY_SIZE(ts_cases));
	tcase_add_test(tc, test_timestamp_sweep);
	suite_add_tcase(s, tc);

	tc = tcase_create("init");
	tcase_add_test(tc, test_before_init);
	suite_add_tcase(s, tc);

	tc = tcase_create("fill");
	tcase_add_checked_fixture(tc, vsl_setup, NULL);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_fill_flushes);
	tcase_add_test(tc, test_fill_one_record_buffer);
	tcase_add_loop_test(tc, test_fill_small_buffer, 0,
	    (int)ARRAY_SIZE(small_sizes));
	tcase_add_test(tc, test_batches_fit);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_head);
	tcase_add_test(tc, test_format_like_printf);
	tcase_add_test(tc, test_wrap_segment_n);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);

	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nfail;

	sr = srunner_create(vsl_suite());
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsl.c -- the transaction log writer.  Owns the log ring and vsl_mtx,
 * which is held only to copy a finished batch into the ring.  The ring
 * is the Log segment of the child's shared memory in the workdir (the
 * child allocates it at start and hands it to VSL_Init), laid out as
 * include/vsl_format.h says.
 */

#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/fmt.h"
#include "common/param.h"
#include "cache/vsl.h"

const char * const VSL_tag_names[SLT__Max] = {
	[SLT__Bogus] = "Bogus",
#define VSL_TAG(nm, fl, doc)	[SLT_##nm] = #nm,
#include "vsl_tags.h"
};

const unsigned VSL_tag_flags[SLT__Max] = {
#define VSL_TAG(nm, fl, doc)	[SLT_##nm] = (fl),
#include "vsl_tags.h"
};

static struct lock vsl_mtx = LOCK_INITIALIZER;
static struct vsl_head *vsl_head;	/* const after init */
static uint32_t *vsl_log;		/* const after init */
static uint32_t vsl_end;		/* const: words usable in log */
static uint32_t vsl_segsize;		/* const */
static uint32_t vsl_ptr;		/* vsl_mtx: next free word */
static uint32_t vsl_segn;		/* vsl_mtx: our copy of segment_n */
/* Set at init and by VSL_MaskReload (param.set); a byte per tag. */
static unsigned char vsl_mask[SLT__Max];

/* The default vsl_mask, from the parameter table. */
static const char *
vsl_mask_default(void)
{
	const struct param_desc *pd;

	pd = PARAM_Lookup("vsl_mask");
	assert(pd != NULL);
	return (pd->def);
}

/* Parse a vsl_mask: "-Tag,+Tag,default"; tags may be globs (Req*). */
int
VSL_MaskParse(const char *spec, unsigned char *mask, char *err,
    size_t errlen)
{
	char buf[PARAM_STRING_MAX], *p, *q;
	unsigned u, hit;
	int on;

	if (strlen(spec) >= sizeof buf) {
		(void)snprintf(err, errlen, "vsl_mask: too long");
		return (-1);
	}
	(void)snprintf(buf, sizeof buf, "%s", spec);
	for (p = buf; p != NULL && *p != '\0'; p = q) {
		q = strchr(p, ',');
		if (q != NULL)
			*q++ = '\0';
		while (*p == ' ')
			p++;
		if (*p == '\0')
			continue;
		if (!strcmp(p, "none")) {
			memset(mask, 0, SLT__Max);
			continue;
		}
		if (!strcmp(p, "default")) {
			memset(mask, 0, SLT__Max);
			if (VSL_MaskParse(vsl_mask_default(), mask, err,
			    errlen))
				return (-1);
			continue;
		}
		if (*p != '+' && *p != '-') {
			(void)snprintf(err, errlen, "vsl_mask: \"%s\": "
			    "start each tag with - (mask) or + (unmask)", p);
			return (-1);
		}
		on = *p++ == '-';
		hit = 0;
		for (u = 1; u < SLT__Max; u++) {
			if (VSL_tag_names[u] == NULL ||
			    fnmatch(p, VSL_tag_names[u], FNM_CASEFOLD))
				continue;
			mask[u] = (unsigned char)on;
			hit = 1;
		}
		if (!hit) {
			(void)snprintf(err, errlen, "vsl_mask: no log tag "
			    "\"%s\" (veneerd -x tags lists them)", p);
			return (-1);
		}
	}
	return (0);
}

/* Append "sign tag" for each tag whose bit is want; -1 if out is full. */
static int
vsl_mask_list(const unsigned char *mask, unsigned char want, char sign,
    char *out, size_t len, size_t *pos)
{
	unsigned u;
	int n;

	for (u = 1; u < SLT__Max; u++) {
		if (VSL_tag_names[u] == NULL || mask[u] != want)
			continue;
		n = snprintf(out + *pos, len - *pos, "%s%c%s", *pos > 0 ?
		    "," : "", sign, VSL_tag_names[u]);
		if (n < 0 || (size_t)n >= len - *pos)
			return (-1);
		*pos += (size_t)n;
	}
	return (0);
}

int
VSL_MaskCanon(const char *old, const char *spec, char *out, size_t len,
    char *err, size_t errlen)
{
	unsigned char mask[SLT__Max];
	unsigned u, n = 0, all = 0;
	size_t pos = 0;

	memset(mask, 0, sizeof mask);
	if (VSL_MaskParse(old, mask, err, errlen) != 0 &&
	    VSL_MaskParse(vsl_mask_default(), mask, err, errlen) != 0)
		return (-1);
	if (VSL_MaskParse(spec, mask, err, errlen) != 0)
		return (-1);
	for (u = 1; u < SLT__Max; u++) {
		if (VSL_tag_names[u] == NULL)
			continue;
		all++;
		n += mask[u];
	}
	out[0] = '\0';
	if (n == 0) {
		(void)snprintf(out, len, "none");
		return (0);
	}
	/* Whichever is shorter: the masked tags, or all but the others. */
	if (2 * n > all) {
		pos = (size_t)snprintf(out, len, "-*");
		if (vsl_mask_list(mask, 0, '+', out, len, &pos) == 0)
			return (0);
	} else if (vsl_mask_list(mask, 1, '-', out, len, &pos) == 0) {
		return (0);
	}
	(void)snprintf(err, errlen, "vsl_mask: the resulting list of tags is "
	    "too long to keep; use globs (-Req*)");
	return (-1);
}

int
VSL_MaskReload(char *err, size_t errlen)
{
	unsigned char mask[SLT__Max];
	unsigned u;

	memset(mask, 0, sizeof mask);
	if (VSL_MaskParse(cache_param->vsl_mask.s, mask, err, errlen) != 0)
		return (-1);
	/* Byte by byte: a worker may see a mix for one record, no more. */
	for (u = 0; u < SLT__Max; u++)
		__atomic_store_n(&vsl_mask[u], mask[u], __ATOMIC_RELAXED);
	return (0);
}

void
VSL_Init(void *mem, size_t len)
{
	char err[256];

	assert(mem != NULL);
	assert(len >= sizeof *vsl_head + 1024);
	memset(vsl_mask, 0, sizeof vsl_mask);
	if (VSL_MaskParse(cache_param != NULL ? cache_param->vsl_mask.s :
	    vsl_mask_default(), vsl_mask, err, sizeof err) != 0)
		(void)VSL_MaskParse(vsl_mask_default(), vsl_mask, err,
		    sizeof err);
	LOCK_Lock(&vsl_mtx);
	vsl_head = mem;
	/*
	 * Touch the whole log now (as varnishd does): its page faults are
	 * paid at start, not on requests during the first lap, and the
	 * child's resident size is what it will be from the first request.
	 */
	memset(vsl_head, 0, len);
	vsl_log = vsl_head->log;
	vsl_segsize = (uint32_t)(((len - sizeof *vsl_head) / 4) /
	    VSL_SEGMENTS);
	vsl_end = vsl_segsize * VSL_SEGMENTS;
	vsl_log[0] = VSL_ENDMARKER;
	vsl_head->segsize = vsl_segsize;
	vsl_head->offset[0] = 0;
	memset(&vsl_head->offset[1], 0xff,
	    sizeof vsl_head->offset - sizeof vsl_head->offset[0]);
	/* Just below the 32-bit wrap: readers meet it on the first lap. */
	vsl_segn = UINT32_MAX - (VSL_SEGMENTS - 1);
	vsl_head->segment_n = vsl_segn;
	vsl_ptr = 0;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy(vsl_head->marker, VSL_HEAD_MARKER, sizeof vsl_head->marker);
	LOCK_Unlock(&vsl_mtx);
}

static inline int
vsl_masked(enum VSL_tag_e tag)
{

	return ((unsigned)tag < SLT__Max && vsl_mask[tag]);
}

int
VSL_Masked(enum VSL_tag_e tag)
{

	return (vsl_masked(tag));
}

/* Start a new lap at log[0].  vsl_mtx held. */
static void
vsl_wrap_locked(void)
{

	LOCK_AssertHeld(&vsl_mtx);
	vsl_segn += VSL_SEGMENTS - (vsl_segn % VSL_SEGMENTS);
	vsl_head->offset[0] = 0;
	vsl_log[0] = VSL_ENDMARKER;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (vsl_ptr != 0) {
		__atomic_store_n(&vsl_log[vsl_ptr], VSL_WRAPMARKER,
		    __ATOMIC_RELEASE);
		vsl_ptr = 0;
	}
	__atomic_store_n(&vsl_head->segment_n, vsl_segn, __ATOMIC_RELEASE);
}

/*
 * Append n words (one record, or a batch) to the log.  Space is reserved
 * under the lock; the words are copied outside it, word 0 last, so a
 * reader stops at the end marker still there until the record is whole.
 */
static void
vsl_append(const uint32_t *p, uint32_t n)
{
	uint32_t dst;

	if (vsl_head == NULL)
		return;		/* before VSL_Init: unit tests, early errors */
	assert(n >= VSL_OVERHEAD && n < vsl_segsize);
	LOCK_Lock(&vsl_mtx);
	if (vsl_ptr + n >= vsl_end)
		vsl_wrap_locked();
	dst = vsl_ptr;
	vsl_ptr += n;
	__atomic_store_n(&vsl_log[vsl_ptr], VSL_ENDMARKER, __ATOMIC_RELEASE);
	while (vsl_ptr / vsl_segsize > vsl_segn % VSL_SEGMENTS) {
		vsl_segn++;
		__atomic_store_n(&vsl_head->offset[vsl_segn % VSL_SEGMENTS],
		    (int64_t)vsl_ptr, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&vsl_head->segment_n, vsl_segn, __ATOMIC_RELEASE);
	LOCK_Unlock(&vsl_mtx);
	memcpy(vsl_log + dst + 1, p + 1, (n - 1) * sizeof *p);
	__atomic_store_n(&vsl_log[dst], p[0], __ATOMIC_RELEASE);
}

const uint32_t *
VSL_RingForTest(uint32_t *nwords)
{

	*nwords = vsl_ptr;
	return (vsl_log);
}

void
VSL_Setup(struct vsl_log *vsl, void *buf, size_t len)
{

	assert(vsl != NULL);
	assert(buf != NULL);
	assert(len >= 64);
	vsl->wlb = buf;
	vsl->wlp = vsl->wlb;
	vsl->wle = vsl->wlb + len / sizeof(uint32_t);
	vsl->wid = 0;
	vsl->wlr = 0;
}

void
VSL_SetId(struct vsl_log *vsl, uint32_t wid)
{

	assert(vsl != NULL);
	VSL_Flush(vsl);
	vsl->wid = wid;
}

void
VSL_Flush(struct vsl_log *vsl)
{
	size_t n;

	assert(vsl != NULL);
	if (vsl->wlb == NULL || vsl->wlp == vsl->wlb)
		return;
	n = (size_t)(vsl->wlp - vsl->wlb);
	/*
	 * Records go out as one batch: SLT__Batch with a zero length, then the
	 * byte length of the records, then the records.
	 */
	vsl->wlb[0] = VSL_HEAD(SLT__Batch, 0);
	vsl->wlb[1] = (uint32_t)((n - VSL_OVERHEAD) * sizeof(uint32_t));
	vsl_append(vsl->wlb, (uint32_t)n);
	vsl->wlp = vsl->wlb;
	vsl->wlr = 0;
}

/*
 * The longest payload of a record, NUL included: vsl_reclen, 255 before
 * the parameters exist (unit tests).
 */
static inline size_t
vsl_reclen(void)
{
	size_t l = VSL_RECLEN;

	if (cache_param != NULL)
		l = (size_t)cache_param->vsl_reclen;
	if (l > VSL_LENMASK)
		l = VSL_LENMASK;
	if (l < 16)
		l = 16;
	return (l);
}

/* Lay a record header for len payload bytes (NUL included) at p. */
static inline size_t
vsl_hdr(uint32_t *p, enum VSL_tag_e tag, uint32_t wid, size_t len)
{

	char *c = (char *)(p + VSL_OVERHEAD);

	assert(len > 0 && len <= VSL_LENMASK);
	c[len - 1] = '\0';
	/* Pad with zeros: a reader never sees stale bytes. */
	if (len % 4 != 0) {
		c[len] = '\0';
		if (len % 4 <= 2)
			c[len + 1] = '\0';
		if (len % 4 == 1)
			c[len + 2] = '\0';
	}
	p[0] = VSL_HEAD(tag, len);
	p[1] = wid;
	return (VSL_OVERHEAD + VSL_WORDS(len));
}

/* Write one record at p (enough room checked); return words used. */
static inline size_t
vsl_record(uint32_t *p, enum VSL_tag_e tag, uint32_t wid, const char *b,
    size_t len, size_t reclen)
{

	if (len > reclen - 1)
		len = reclen - 1;
	memcpy(p + VSL_OVERHEAD, b, len);
	return (vsl_hdr(p, tag, wid, len + 1));
}

/*
 * Room for one more record of up to reclen bytes? Flush if not.  0 if
 * the buffer cannot hold one even when empty: the caller writes the
 * record directly, and the buffer stays empty (no batch header taken, so
 * no empty batch reaches the ring).
 */
static inline int
vsl_room(struct vsl_log *vsl, size_t reclen)
{
	size_t need = VSL_OVERHEAD + VSL_WORDS(reclen);

	if (vsl->wlb == NULL)
		return (0);
	if ((size_t)(vsl->wle - vsl->wlb) < VSL_OVERHEAD + need)
		return (0);
	if (vsl->wlp == vsl->wlb)
		vsl->wlp += VSL_OVERHEAD;	/* batch header */
	if ((size_t)(vsl->wle - vsl->wlp) < need) {
		VSL_Flush(vsl);
		vsl->wlp += VSL_OVERHEAD;
	}
	assert((size_t)(vsl->wle - vsl->wlp) >= need);
	return (1);
}

/*
 * debug +syncvsl: every record out at once, as varnishd does with it, so
 * a log reader sees a transaction's records while it still runs
 * (varnishtest's logexpect waits for them).  One load when off.
 */
static inline void
vsl_sync(struct vsl_log *vsl)
{

	if (PARAM_HasDebug(PARAM_DEBUG_SYNCVSL))
		VSL_Flush(vsl);
}

/* A Timestamp's event name is cut here; the text is at most TS_MAX. */
#define VSL_TS_EVENT_MAX	64U
#define VSL_TS_MAX		(VSL_TS_EVENT_MAX + 1 + 3 * 25 + 1)

/* Outside any buffer: at most 1k of payload. */
#define VSL_DIRECT_MAX	1024U

static void
vsl_direct(enum VSL_tag_e tag, uint32_t wid, const char *b, size_t len)
{
	uint32_t buf[VSL_OVERHEAD + VSL_WORDS(VSL_DIRECT_MAX)];
	size_t reclen = vsl_reclen();

	if (reclen > VSL_DIRECT_MAX)
		reclen = VSL_DIRECT_MAX;
	vsl_append(buf, (uint32_t)vsl_record(buf, tag, wid, b, len, reclen));
}

void
VSLbt(struct vsl_log *vsl, enum VSL_tag_e tag, struct txt t)
{
	size_t reclen = vsl_reclen();

	assert(vsl != NULL);
	if (vsl_masked(tag))
		return;
	if (t.b == NULL)
		t = TXT_Str("");
	if (!vsl_room(vsl, reclen)) {
		vsl_direct(tag, vsl->wid, t.b, TXT_LEN(t));
		return;
	}
	vsl->wlp += vsl_record(vsl->wlp, tag, vsl->wid, t.b, TXT_LEN(t),
	    reclen);
	vsl->wlr++;
	vsl_sync(vsl);
}

void
VSLbs(struct vsl_log *vsl, enum VSL_tag_e tag, const char *s)
{

	VSLbt(vsl, tag, TXT_Str(s == NULL ? "" : s));
}

/* The length of what FMT_Vsnprintf left in len bytes. */
static inline size_t
vsl_cut(int n, size_t len)
{

	return ((size_t)n < len ? (size_t)n : len - 1);
}

void
VSLbv(struct vsl_log *vsl, enum VSL_tag_e tag, const char *fmt, va_list ap)
{
	char buf[VSL_DIRECT_MAX];
	size_t reclen = vsl_reclen();
	char *d;
	int n;

	assert(vsl != NULL);
	if (vsl_masked(tag))
		return;
	if (!vsl_room(vsl, reclen)) {
		n = FMT_Vsnprintf(buf, sizeof buf, fmt, ap);
		vsl_direct(tag, vsl->wid, buf, vsl_cut(n, sizeof buf));
		return;
	}
	/* Straight into the buffer: no copy, no size limit on the stack. */
	d = (char *)(vsl->wlp + VSL_OVERHEAD);
	n = FMT_Vsnprintf(d, reclen, fmt, ap);
	vsl->wlp += vsl_hdr(vsl->wlp, tag, vsl->wid, vsl_cut(n, reclen) + 1);
	vsl->wlr++;
	vsl_sync(vsl);
}

void
VSLb(struct vsl_log *vsl, enum VSL_tag_e tag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	VSLbv(vsl, tag, fmt, ap);
	va_end(ap);
}

/* "event: now since-first since-prev" at d; 0 if a time is not a clock's. */
static size_t
vsl_ts_text(char *d, const char *event, size_t elen, const double *t)
{
	size_t n, l;
	unsigned u;

	memcpy(d, event, elen);
	n = elen;
	d[n++] = ':';
	for (u = 0; u < 3; u++) {
		d[n++] = ' ';
		l = FMT_Fixed6(d + n, t[u]);
		if (l == 0)
			return (0);
		n += l;
	}
	return (n);
}

void
VSLb_ts(struct vsl_log *vsl, const char *event, vtim_real first,
    vtim_real *prev, vtim_real now)
{
	const double t[3] = { now, now - first, now - *prev };
	char buf[VSL_TS_MAX];
	size_t reclen = vsl_reclen(), elen, n;
	char *d = buf;

	assert(prev != NULL);
	*prev = now;
	if (vsl_masked(SLT_Timestamp))
		return;
	elen = strnlen(event, VSL_TS_EVENT_MAX);
	/* Straight into the buffer when the longest text fits a record. */
	if (reclen >= VSL_TS_MAX && vsl_room(vsl, reclen))
		d = (char *)(vsl->wlp + VSL_OVERHEAD);
	n = vsl_ts_text(d, event, elen, t);
	if (n == 0) {
		/* Not a time a clock gives: let printf say it. */
		VSLb(vsl, SLT_Timestamp, "%.*s: %.6f %.6f %.6f", (int)elen,
		    event, t[0], t[1], t[2]);
		return;
	}
	if (d == buf) {
		VSLbt(vsl, SLT_Timestamp, TXT_Make(buf, buf + n));
		return;
	}
	vsl->wlp += vsl_hdr(vsl->wlp, SLT_Timestamp, vsl->wid, n + 1);
	vsl->wlr++;
	vsl_sync(vsl);
}

void
VSL(enum VSL_tag_e tag, uint32_t vxid, const char *fmt, ...)
{
	char buf[VSL_DIRECT_MAX];
	va_list ap;
	int n;

	if (vsl_masked(tag))
		return;
	va_start(ap, fmt);
	n = FMT_Vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	vsl_direct(tag, vxid, buf, vsl_cut(n, sizeof buf));
}

/* Text for roff: backslashes and minus signs escaped. */
static void
vsl_roff_text(const char *s)
{

	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static const char * const vsl_tag_docs[SLT__Max] = {
#define VSL_TAG(nm, fl, doc)	[SLT_##nm] = doc,
#include "vsl_tags.h"
};

/*
 * `veneerd -x tags`: the tag table as man page source, one .TP entry per
 * tag in number order: name and number, description, and what its flags
 * mean for a reader.
 */
void
VSL_DumpRoff(void)
{
	unsigned u, fl;

	for (u = 1; u < SLT__Max; u++) {
		if (VSL_tag_names[u] == NULL)
			continue;
		fl = VSL_tag_flags[u];
		printf(".TP\n.BR %s \" (%u)\"\n", VSL_tag_names[u], u);
		vsl_roff_text(vsl_tag_docs[u]);
		fputs(".\n", stdout);
		if (fl & VSL_F_UNUSED)
			fputs("Not written by Veneer; the number is kept so "
			    "that Varnish's numbering holds.\n", stdout);
		if (fl & VSL_F_UNSAFE)
			fputs("The payload may hold bytes as the client sent "
			    "them; readers print it escaped.\n", stdout);
		if (fl & VSL_F_BINARY)
			fputs("The payload is binary; readers print it in "
			    "hexadecimal.\n", stdout);
		/* VdpAcct is the last tag Varnish 7.1 knows. */
		if (u > SLT_VdpAcct)
			fputs("Veneer's own tag: Varnish 7.1's tools print "
			    "its name as (null).\n", stdout);
	}
}

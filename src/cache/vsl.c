/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsl.c -- the transaction log writer.  Owns the log ring and vsl_mtx,
 * which is held only to copy a finished batch into the ring.
 *
 * XXX issue 4: the ring moves to a shared-memory segment in the workdir
 * with Varnish 7.1's layout; the record format and the calls stay.
 */

#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
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

#define VSL_RING_WORDS	(2U * 1024U * 1024U)	/* 8 MB */

static pthread_mutex_t vsl_mtx = PTHREAD_MUTEX_INITIALIZER;
static uint32_t *vsl_ring;		/* vsl_mtx */
static size_t vsl_ptr;			/* vsl_mtx; next word to write */
static unsigned char vsl_mask[SLT__Max];	/* const after init */

void
VSL_Init(void)
{
	static const enum VSL_tag_e masked[] = {
		SLT_Debug, SLT_ObjProtocol, SLT_ObjStatus, SLT_ObjReason,
		SLT_ObjHeader, SLT_ObjUnset, SLT_VCL_trace, SLT_WorkThread,
		SLT_Hash, SLT_VfpAcct, SLT_VdpAcct, SLT_H2RxHdr, SLT_H2RxBody,
		SLT_H2TxHdr, SLT_H2TxBody, SLT_ExpKill,
	};
	unsigned u;

	if (vsl_ring == NULL) {
		vsl_ring = calloc(VSL_RING_WORDS, sizeof *vsl_ring);
		assert(vsl_ring != NULL);
	}
	vsl_ptr = 0;
	vsl_ring[0] = VSL_ENDMARKER;
	for (u = 0; u < ARRAY_SIZE(masked); u++)
		vsl_mask[masked[u]] = 1;
}

int
VSL_Masked(enum VSL_tag_e tag)
{

	return ((unsigned)tag < SLT__Max && vsl_mask[tag]);
}

/* Copy nwords into the ring, wrapping as needed. */
static void
vsl_append(const uint32_t *p, size_t nwords)
{

	assert(nwords + 1 < VSL_RING_WORDS);
	ASSERT_ZERO(pthread_mutex_lock(&vsl_mtx));
	if (vsl_ring == NULL) {
		/* Before VSL_Init (unit tests, early errors): drop. */
		ASSERT_ZERO(pthread_mutex_unlock(&vsl_mtx));
		return;
	}
	if (vsl_ptr + nwords + 1 >= VSL_RING_WORDS) {
		vsl_ring[vsl_ptr] = VSL_WRAPMARKER;
		vsl_ptr = 0;
	}
	memcpy(vsl_ring + vsl_ptr + 1, p + 1, (nwords - 1) * sizeof *p);
	vsl_ring[vsl_ptr + nwords] = VSL_ENDMARKER;
	/* The first word last, so a reader never sees half a record. */
	__atomic_store_n(&vsl_ring[vsl_ptr], p[0], __ATOMIC_RELEASE);
	vsl_ptr += nwords;
	ASSERT_ZERO(pthread_mutex_unlock(&vsl_mtx));
}

const uint32_t *
VSL_RingForTest(uint32_t *nwords)
{

	*nwords = (uint32_t)vsl_ptr;
	return (vsl_ring);
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
	/* Records go out as one batch: a Batch header, then the records. */
	vsl->wlb[0] = (uint32_t)SLT__Batch << 24;
	vsl->wlb[1] = (uint32_t)((n - VSL_OVERHEAD) * sizeof(uint32_t));
	vsl_append(vsl->wlb, n);
	vsl->wlp = vsl->wlb;
	vsl->wlr = 0;
}

/* Write one record at p (enough room checked); return words used. */
static size_t
vsl_record(uint32_t *p, enum VSL_tag_e tag, uint32_t wid, const char *b,
    size_t len)
{

	if (len > VSL_RECLEN - 1)
		len = VSL_RECLEN - 1;
	p[0] = ((uint32_t)tag << 24) | (uint32_t)(len + 1);
	p[1] = wid;
	memcpy(p + VSL_OVERHEAD, b, len);
	((char *)(p + VSL_OVERHEAD))[len] = '\0';
	return (VSL_OVERHEAD + VSL_WORDS(len + 1));
}

/*
 * Room for one more record of up to VSL_RECLEN bytes? Flush if not.
 * 0 if the buffer cannot hold one even when empty: the caller writes the
 * record directly, and the buffer stays empty (no batch header taken, so
 * no empty batch reaches the ring).
 */
static int
vsl_room(struct vsl_log *vsl)
{
	size_t need = VSL_OVERHEAD + VSL_WORDS(VSL_RECLEN);

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

static void
vsl_direct(enum VSL_tag_e tag, uint32_t wid, const char *b, size_t len)
{
	uint32_t buf[VSL_OVERHEAD + VSL_WORDS(VSL_RECLEN)];
	size_t n;

	n = vsl_record(buf, tag, wid, b, len);
	vsl_append(buf, n);
}

void
VSLbt(struct vsl_log *vsl, enum VSL_tag_e tag, struct txt t)
{

	assert(vsl != NULL);
	if (VSL_Masked(tag))
		return;
	if (t.b == NULL)
		t = TXT_Str("");
	if (!vsl_room(vsl)) {
		vsl_direct(tag, vsl->wid, t.b, TXT_LEN(t));
		return;
	}
	vsl->wlp += vsl_record(vsl->wlp, tag, vsl->wid, t.b, TXT_LEN(t));
	vsl->wlr++;
}

void
VSLbs(struct vsl_log *vsl, enum VSL_tag_e tag, const char *s)
{

	VSLbt(vsl, tag, TXT_Str(s == NULL ? "" : s));
}

void
VSLbv(struct vsl_log *vsl, enum VSL_tag_e tag, const char *fmt, va_list ap)
{
	char buf[VSL_RECLEN];
	int n;

	assert(vsl != NULL);
	if (VSL_Masked(tag))
		return;
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	VSLbt(vsl, tag, TXT_Make(buf, buf + n));
}

void
VSLb(struct vsl_log *vsl, enum VSL_tag_e tag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	VSLbv(vsl, tag, fmt, ap);
	va_end(ap);
}

void
VSLb_ts(struct vsl_log *vsl, const char *event, vtim_real first,
    vtim_real *prev, vtim_real now)
{

	assert(prev != NULL);
	VSLb(vsl, SLT_Timestamp, "%s: %.6f %.6f %.6f", event, now,
	    now - first, now - *prev);
	*prev = now;
}

void
VSL(enum VSL_tag_e tag, uint32_t vxid, const char *fmt, ...)
{
	char buf[VSL_RECLEN];
	va_list ap;
	int n;

	if (VSL_Masked(tag))
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	vsl_direct(tag, vxid, buf, (size_t)n);
}

void
VSL_DumpRoff(void)
{
	unsigned u;

	for (u = 1; u < SLT__Max; u++) {
		if (VSL_tag_names[u] == NULL)
			continue;
		printf(".TP\n.B %s\n", VSL_tag_names[u]);
#define VSL_TAG(nm, fl, doc)						\
		if (u == SLT_##nm)					\
			printf("%s%s.\n", doc, (fl) & VSL_F_UNUSED ?	\
			    " (not written by Veneer)" : "");
#include "vsl_tags.h"
	}
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsl.h -- writing the transaction log.  Records go into the
 * transaction's buffer (struct vsl_log, in its workspace) and reach the
 * shared ring in whole batches: on VSL_Flush, when the buffer fills, and
 * at the end of the transaction.  VSL() writes one record straight to the
 * ring, for events outside any transaction.  The format of records and
 * of the ring is in include/vsl_format.h, shared with the readers.
 */

#ifndef VENEER_CACHE_VSL_H
#define VENEER_CACHE_VSL_H

#include <stdarg.h>
#include <stdint.h>

#include "common/tim.h"
#include "common/txt.h"
#include "vsl_format.h"

/* Longest payload of one record, NUL included, by default (vsl_reclen). */
#define VSL_RECLEN		255U

struct vsl_log {
	uint32_t		*wlb;	/* buffer start */
	uint32_t		*wlp;	/* next free word */
	uint32_t		*wle;	/* buffer end */
	uint32_t		wid;	/* vxid | marker */
	unsigned		wlr;	/* records in buffer */
};

extern const char * const VSL_tag_names[SLT__Max];
extern const unsigned VSL_tag_flags[SLT__Max];

/* Child start: lay out the log in len bytes of shared memory at mem. */
void VSL_Init(void *mem, size_t len);
/* The child: apply a changed vsl_mask parameter.  0, or -1 with err. */
int VSL_MaskReload(char *err, size_t errlen);
/*
 * Apply a vsl_mask spec ("-Tag,+Tag,default,none", globs allowed) to mask
 * (one byte per tag, 1 = masked).  0, or -1 with err naming the bad tag.
 */
int VSL_MaskParse(const char *spec, unsigned char *mask, char *err,
    size_t errlen);
/*
 * The vsl_mask that spec makes of old (each "+Tag"/"-Tag" changes the
 * mask so far, as varnishd's do; "default" and "none" start over), as
 * the list of masked tags that VSL_MaskParse reads back from no mask.
 * 0, or -1 with err.
 */
int VSL_MaskCanon(const char *old, const char *spec, char *out, size_t len,
    char *err, size_t errlen);

/* A transaction's buffer over len bytes of its workspace. */
void VSL_Setup(struct vsl_log *vsl, void *buf, size_t len);
/* Give the buffer an id: vxid | VSL_CLIENTMARKER or VSL_BACKENDMARKER. */
void VSL_SetId(struct vsl_log *vsl, uint32_t wid);

void VSLb(struct vsl_log *vsl, enum VSL_tag_e tag, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));
void VSLbv(struct vsl_log *vsl, enum VSL_tag_e tag, const char *fmt,
    va_list ap);
void VSLbt(struct vsl_log *vsl, enum VSL_tag_e tag, struct txt t);
void VSLbs(struct vsl_log *vsl, enum VSL_tag_e tag, const char *s);
/* "Timestamp label: abs since_first since_prev"; updates *prev. */
void VSLb_ts(struct vsl_log *vsl, const char *event, vtim_real first,
    vtim_real *prev, vtim_real now);
void VSL_Flush(struct vsl_log *vsl);

/* One record, unbuffered. */
void VSL(enum VSL_tag_e tag, uint32_t vxid, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

/* Is this tag masked out (vsl_mask)? */
int VSL_Masked(enum VSL_tag_e tag);

/* `veneerd -x tags`: the table as man page source. */
void VSL_DumpRoff(void);

/* Test hook: the log words and the index of the next free one. */
const uint32_t *VSL_RingForTest(uint32_t *nwords);

#endif /* VENEER_CACHE_VSL_H */

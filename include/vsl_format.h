/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsl_format.h -- the shared-memory log's format, the one place it is
 * written down.  The child writes it (src/cache/vsl.c); libveneerapi
 * (src/vsm/vapi_*.c) and the tools read it, from the Log segment or from
 * a file.  It is Varnish 7.1's format (doc/vsm-format.md 2.2 to 2.5), so
 * varnishlog reads Veneer's log and veneerlog reads varnishd's: nothing
 * here may change.  Tag numbers come from the table (vsl_tags.h) through
 * enum VSL_tag_e; never type one.
 *
 * A record is two header words and a payload:
 *	word 0	tag << 24 | payload length in bytes
 *	word 1	VSL_CLIENTMARKER or VSL_BACKENDMARKER | vxid
 *	then the payload, NUL-terminated (for text tags), padded with NULs
 *	to a whole word.
 * A batch is a record of tag SLT__Batch and length 0 whose word 1 is the
 * byte length of the records that follow it.
 */

#ifndef VENEER_VSL_FORMAT_H
#define VENEER_VSL_FORMAT_H

#include <stdint.h>

/* Tag flags (the table's second column). */
#define VSL_F_UNUSED		(1U << 0)	/* numbered, never written */
#define VSL_F_UNSAFE		(1U << 1)	/* may hold raw client bytes */
#define VSL_F_BINARY		(1U << 2)	/* payload is binary */

enum VSL_tag_e {
	SLT__Bogus = 0,
#define VSL_TAG(nm, fl, doc)	SLT_##nm,
#include "vsl_tags.h"
	SLT__Max,
	SLT__Reserved = 254,		/* end and wrap markers */
	SLT__Batch = 255
};

/* The record (word 0 and word 1 above). */
#define VSL_OVERHEAD		2U		/* header words */
#define VSL_WORDS(len)		(((len) + 3U) / 4U)
#define VSL_LENMASK		0xffffU
#define VSL_CLIENTMARKER	(1U << 30)
#define VSL_BACKENDMARKER	(1U << 31)
#define VSL_IDENTMASK		(~(3U << 30))
#define VSL_TAGSHIFT		24
#define VSL_HEAD(tag, len)	(((uint32_t)(tag) << VSL_TAGSHIFT) |	\
				    (uint32_t)(len))
#define VSL_HEAD_TAG(w0)	((unsigned)((w0) >> VSL_TAGSHIFT))
#define VSL_HEAD_LEN(w0)	((unsigned)((w0) & VSL_LENMASK))
#define VSL_HEAD_ID(w1)		((uint32_t)((w1) & VSL_IDENTMASK))
/* The most words one record can take. */
#define VSL_MAXWORDS		(VSL_OVERHEAD + VSL_WORDS(VSL_LENMASK))

/*
 * Where the writer stopped (the word after the last whole record), and
 * where it wrapped to the start of the log (the rest of the lap unused).
 */
#define VSL_ENDMARKER		VSL_HEAD(SLT__Reserved, 0x454545U)
#define VSL_WRAPMARKER		VSL_HEAD(SLT__Reserved, 0x575757U)

/*
 * The Log segment: this head, then the ring of VSL_SEGMENTS segments of
 * segsize words.  offset[i] is the first record boundary in segment i
 * (-1: not reached yet); segment_n is the running number of the segment
 * the writer is in, so a reader knows how far behind it is.  The marker
 * is written last, when the rest is valid.
 */
#define VSL_SEGMENTS		8U
#define VSL_HEAD_MARKER		"VSLHEAD1"

struct vsl_head {
	char			marker[8];	/* VSL_HEAD_MARKER */
	int64_t			segsize;	/* words per segment */
	uint32_t		segment_n;
	uint32_t		pad;
	int64_t			offset[VSL_SEGMENTS];
	uint32_t		log[];
};

/* A log file (varnishlog -w): these 4 bytes, then records. */
#define VSL_FILE_ID		"VSL"

#endif /* VENEER_VSL_FORMAT_H */

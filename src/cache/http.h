/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http.h -- an HTTP message's start line and headers, as (begin, end)
 * strings pointing into the receive buffer or a workspace; every string
 * is also NUL-terminated so VCL can use it as a C string.  Slots 0-4
 * hold the start line (request: method, URL, protocol; response:
 * protocol, status, reason); headers start at HTTP_HDR_FIRST, each a
 * whole "Name: value" line.  The slot numbers match the log tags (ReqURL
 * is SLT_ReqMethod + HTTP_HDR_URL ...).
 *
 * A struct http belongs to its transaction's thread; no locks.
 */

#ifndef VENEER_CACHE_HTTP_H
#define VENEER_CACHE_HTTP_H

#include <stdint.h>

#include "common/txt.h"
#include "cache/vsl.h"
#include "cache/ws.h"

struct ws;

#define HTTP_HDR_METHOD		0
#define HTTP_HDR_URL		1
#define HTTP_HDR_PROTO		2
#define HTTP_HDR_STATUS		3
#define HTTP_HDR_REASON		4
#define HTTP_HDR_FIRST		5
#define HTTP_HDR_UNSET		6	/* log tag offset only */
#define HTTP_HDR_LOST		7	/* log tag offset only */

/* Per-slot flags */
#define HDF_FILTER		(1U << 0)	/* hop-by-hop: not copied on */
#define HDF_UNSET		(1U << 1)	/* being removed (http.c) */

struct http {
	unsigned		magic;
#define HTTP_MAGIC		0x6428b5c9
	uint16_t		shd;	/* slots */
	uint16_t		nhd;	/* next free slot */
	struct txt		*hd;
	unsigned char		*hdf;
	struct ws		*ws;	/* for added and changed headers */
	struct vsl_log		*vsl;
	enum VSL_tag_e		logtag;	/* SLT_ReqMethod, SLT_RespMethod... */
	uint16_t		status;
	uint8_t			protover;	/* 10 or 11; 0 unknown */
};

/*
 * Header slots of a message table: http_max_hdr received headers, and
 * room for the ones we add on the way (Via, X-Varnish, Age, ...).
 */
#define HTTP_HDR_SPARE		8U
#define HTTP_NHDR(max_hdr)	((unsigned)(max_hdr) + HTTP_HDR_SPARE)

/*
 * Workspace HTTP_New takes for nhdr header slots, alignment included.
 * Inline: PARAM_Check (src/common) sizes the workspaces with it.
 */
static inline size_t
HTTP_Estimate(unsigned nhdr)
{
	size_t n = (size_t)nhdr + HTTP_HDR_FIRST;

	return (sizeof(struct http) + WS_ALIGN +
	    n * sizeof(struct txt) + WS_ALIGN + n + WS_ALIGN);
}
/* Carve a struct http with nhdr header slots out of ws; NULL on overflow. */
struct http *HTTP_New(struct ws *ws, unsigned nhdr, struct vsl_log *vsl,
    enum VSL_tag_e logtag);
/* Set up over caller-owned arrays of shd slots (tests, fixed buffers). */
void HTTP_Setup(struct http *hp, struct ws *ws, struct txt *hd,
    unsigned char *hdf, unsigned shd, struct vsl_log *vsl,
    enum VSL_tag_e logtag);
/* Drop every slot. */
void HTTP_Clear(struct http *hp);

/*
 * Headers are looked up by name without the colon, case-insensitively.
 * HTTP_GetHdr: the value of the first instance (leading and trailing
 * blanks trimmed), or 0 if absent.  HTTP_CountHdr: how many instances.
 */
int HTTP_GetHdr(const struct http *hp, const char *name, struct txt *val);
unsigned HTTP_CountHdr(const struct http *hp, const char *name);
/* Slot of the first instance at or after slot 'from', or 0. */
unsigned HTTP_FindHdr(const struct http *hp, const char *name, unsigned from);
/* Value of slot u (after "Name:" and blanks). */
struct txt HTTP_HdrValue(const struct http *hp, unsigned u);
/* Does the header's comma-separated value list contain token tok? */
int HTTP_HdrHasToken(const struct http *hp, const char *name,
    const char *tok);
/*
 * Is every element of every line of the header tok (and there is at
 * least one)?  "Expect: 100-continue" twice is still 100-continue.
 */
int HTTP_HdrIsOnly(const struct http *hp, const char *name, const char *tok);

/*
 * Changing headers.  Return 0, or -1 when out of slots or workspace
 * (LostHeader is logged and counted in losthdr by the caller's counters).
 */
int HTTP_SetHeader(struct http *hp, const char *line);	/* "Name: value" */
int HTTP_PrintfHeader(struct http *hp, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));
void HTTP_Unset(struct http *hp, const char *name);
void HTTP_SetSlot(struct http *hp, unsigned slot, const char *s);
/*
 * The status (100-999, or 1000 up with a modulo of 100-999: an internal
 * status VCL sees as is, sent modulo 1000) and reason (NULL: the usual).
 */
void HTTP_SetStatus(struct http *hp, uint16_t status, const char *reason);

/* Log every slot with the message's tags. */
void HTTP_Log(const struct http *hp);

/* Standard reason phrase for a status code ("OK", "Not Found"...). */
const char *HTTP_Reason(unsigned status);

/*
 * Copy the start line slots [b, e) and every header not flagged
 * HDF_FILTER from src to dst; strings are shared, not copied (src's
 * storage must outlive dst).  Returns 0 or -1 when dst is out of slots.
 */
int HTTP_CopyHeaders(struct http *dst, const struct http *src);
void HTTP_CopySlot(struct http *dst, const struct http *src, unsigned slot);
/*
 * Copy every string hp points at into its own workspace, so that it
 * outlives the message it was copied from.  0, or -1 on overflow.
 */
int HTTP_Detach(struct http *hp);
/* dst: the same slots as src (strings shared); 0, or -1 out of slots. */
int HTTP_Clone(struct http *dst, const struct http *src);

/*
 * Flag as hop-by-hop (HDF_FILTER) the headers a proxy must not forward:
 * Connection and every header it names, Keep-Alive, TE, Trailer,
 * Transfer-Encoding, Upgrade, Proxy-Authenticate,
 * Proxy-Authorization and Proxy-Connection.
 */
void HTTP_FilterHopByHop(struct http *hp);
/*
 * A received request: remove the headers its Connection header names
 * (RFC 9110 7.6.1), logging each as unset, so that VCL, the lookup and
 * variant keys and the backend all see one request.  Host stays, and so
 * do the headers HTTP_FilterHopByHop flags by name (Upgrade is handed
 * on by pipe).  0, or -1 with *why when Connection names Content-Length,
 * which framed the body: removing it would desync the backend.
 */
int HTTP_UnsetConnectionNamed(struct http *hp, const char **why);
/* Flag every instance of one header HDF_FILTER. */
void HTTP_Filter(struct http *hp, const char *name);

/* Is slot u a header called name (l bytes, without the colon)? */
int HTTP_IsHdr(const struct http *hp, unsigned u, const char *name, size_t l);

#endif /* VENEER_CACHE_HTTP_H */

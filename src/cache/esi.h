/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * esi.h -- Edge Side Includes.  A body fetched with beresp.do_esi is
 * parsed as it is stored (esi_parse.c) into a list of instructions kept
 * with the object: copy the next n bytes of the body, skip the next n,
 * include this URL.  Delivery (esi_deliver.c) follows the list: each
 * include is a sub-request through VCL whose body goes in its place, so
 * a hit costs no parsing.  An object without the list is delivered as
 * any other.  No locks: a parser belongs to its fetch, a delivery to
 * its client's worker.
 *
 * The instruction list ("ESI data"), a byte string:
 *   ESI_OP_VERBATIM, n     copy n body bytes (n: LEB128 varint)
 *   ESI_OP_SKIP, n         skip n body bytes
 *   ESI_OP_INCLUDE, how, host NUL, url NUL
 *                          include url (with Host: host unless empty);
 *                          how is ESI_INCL_ABORT or ESI_INCL_CONTINUE
 * Verbatim and skip runs add up to the body's length.
 */

#ifndef VENEER_CACHE_ESI_H
#define VENEER_CACHE_ESI_H

#include <stddef.h>
#include <stdint.h>

struct req;
struct h1w;

#define ESI_OP_VERBATIM		'V'
#define ESI_OP_SKIP		'S'
#define ESI_OP_INCLUDE		'I'
#define ESI_INCL_ABORT		'a'	/* a failure ends the top response */
#define ESI_INCL_CONTINUE	'c'	/* onerror="continue" */

/* Parser options, from the esi_* feature bits. */
#define ESI_F_REMOVE_BOM	(1U << 0)
#define ESI_F_NO_XML_CHECK	(1U << 1)
#define ESI_F_IGNORE_OTHER	(1U << 2)
#define ESI_F_HTTPS_AS_HTTP	(1U << 3)
#define ESI_F_ONERROR		(1U << 4)	/* ABORT includes may abort */

/* What the parser reports: an error, a warning, or why it did nothing. */
enum esi_msg {
	ESI_MSG_ERROR,
	ESI_MSG_WARN,
	ESI_MSG_NOTXML,
};

/*
 * Sinks: ops gets pieces of the instruction list in order; msg gets a
 * problem found "after" that many bytes of the body were classified
 * (the offset Varnish reports in ESI_xmlerror).
 */
typedef void esi_ops_f(void *priv, const void *p, size_t len);
typedef void esi_msg_f(void *priv, enum esi_msg kind, uint64_t after,
    const char *text);

/* Longest src= or onerror= value kept; a longer one is an error. */
#define ESI_ATTR_MAX	2048

struct esi_parser;

/* How much memory a parser takes (the caller provides it). */
size_t ESI_ParserSize(void);
/*
 * Set up a parser in mem (ESI_ParserSize() bytes).  url: the fetched
 * URL, for relative src= (borrowed until ESI_Finish).  flags: ESI_F_*.
 */
struct esi_parser *ESI_ParserInit(void *mem, const char *url,
    unsigned flags, esi_ops_f *ops, esi_msg_f *msg, void *priv);
/* Feed the next len bytes of the body (any split gives the same list). */
void ESI_Parse(struct esi_parser *ep, const char *p, size_t len);
/*
 * The body has ended: flush the list.  Returns 1 when the body had ESI
 * markup (the list is worth keeping), 0 when it is to be delivered as
 * it is.
 */
int ESI_Finish(struct esi_parser *ep);

/*
 * Decode one instruction at *pp (before end): its op, with *lenp (runs)
 * or *howp, *hostp, *urlp (includes).  Advances *pp.  Returns the op, or
 * 0 when the list is corrupt.
 */
int ESI_NextOp(const uint8_t **pp, const uint8_t *end, uint64_t *lenp,
    int *howp, const char **hostp, const char **urlp);

/* esi_deliver.c */
/* Does req deliver its object with ESI processing? */
int ESI_Active(const struct req *req);
/*
 * Write req's object with its includes to w (chunked or close-framed by
 * the caller).  Returns the body bytes written, and sets *failed when
 * the top response must be cut short.
 */
uint64_t ESI_Deliver(struct req *req, struct h1w *w, int *failed);
/*
 * A sub-request's transmit: its body into the parent's writer.
 * Returns 0, or -1 when its body failed.
 */
int ESI_Transmit(struct req *req);

#endif /* VENEER_CACHE_ESI_H */

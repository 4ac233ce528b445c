/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * obj.h -- cached objects.  An objcore is the cache's handle on one
 * response: its timers, flags, references and list positions.  Its
 * object (headers and body, in a stevedore) is written once by the fetch
 * that made it and is read-only afterwards, so any number of clients
 * read it without locks.  While the fetch runs, a boc (busy object
 * context) tells readers how much of the body has arrived, and wakes them
 * when more does: a miss is delivered as it streams in, to every client
 * that asked for it.
 *
 * References: objcore->refcnt is atomic.  It is only ever raised by
 * someone who can prove the objcore is alive: the holder of another
 * reference, or the holder of a lock of a list the objcore is on (its
 * objhead's shard, the expiry heap, its stevedore's LRU), since being on
 * those lists implies the cache's own reference, which is dropped only
 * after the objcore has left all three (HSH_Kill).
 */

#ifndef VENEER_CACHE_OBJ_H
#define VENEER_CACHE_OBJ_H

#include <pthread.h>
#include <stdint.h>
#include <bsd/sys/queue.h>

#include "common/lock.h"
#include "common/tim.h"
#include "common/txt.h"

struct ban;
struct http;
struct objhead;
struct stevedore;
struct vry_spec;
struct worker;
struct ws;

/* objcore flags, under its objhead's shard lock (private ones: owner) */
#define OC_F_BUSY	(1U << 0)	/* being fetched; no headers yet */
#define OC_F_HFM	(1U << 1)	/* hit-for-miss marker */
#define OC_F_HFP	(1U << 2)	/* hit-for-pass marker */
#define OC_F_PRIVATE	(1U << 3)	/* not in the cache: one request */
#define OC_F_DYING	(1U << 4)	/* leaving the cache */
#define OC_F_FAILED	(1U << 5)	/* its fetch failed */
#define OC_F_INSERTED	(1U << 6)	/* on expiry heap and LRU */
#define OC_F_VARIANT	(1U << 7)	/* in the objhead's vary index */

/*
 * A piece of an object's body, in a block of its own.  Used when the
 * body's length is unknown or too large for one block; a body of known
 * length fetch_maxchunksize at most is one block without this header
 * (struct object's body).
 */
struct obj_seg {
	unsigned		magic;
#define OBJ_SEG_MAGIC		0x4d2f0b7e
	struct obj_seg		*next;		/* written before published */
	struct stevedore	*stv;		/* const */
	size_t			space;		/* bytes at buf; const */
	size_t			used;		/* fetch thread only */
	char			buf[];
};

/*
 * An object's ESI instructions (esi.h), in a block of its own in the
 * object's stevedore; the fetch grows it and sets it before the body is
 * published whole.
 */
struct obj_esi {
	unsigned		magic;
#define OBJ_ESI_MAGIC		0xcfc4cd12
	uint32_t		len;		/* bytes used */
	uint32_t		space;		/* bytes at ops */
	uint8_t			ops[];
};

/*
 * The stored response.  One allocation holds this struct, the headers
 * and the vary blob, and often the body too.  Every byte here is paid
 * once per object, so the headers are kept as they are needed on the
 * wire, not as slots: the reason phrase, then each header line
 * ("Name: value"), each ended by a NUL.  OBJ_Http reads them into a
 * struct http in a workspace; status, protocol and the slots come from
 * there.
 */
struct object {
	unsigned		magic;
#define OBJECT_MAGIC		0x0b1e3f57
	uint16_t		status;
	uint8_t			spilled:1;	/* body partly in Transient */
	uint8_t			has_esi:1;	/* esi, not last: OBJ_Esi */
	uint8_t			gzipped:1;	/* the body is gzip (checked
						   or made by the fetch); set
						   before it is published */
	uint8_t			changed_ce:1;	/* the fetch changed its
						   Content-Encoding: a 304
						   keeps it, its ETag weak */
	uint8_t			esi_gzip:1;	/* ESI body stored plain under
						   Content-Encoding: gzip (as
						   Varnish has it): gzip'd on
						   delivery to gzip clients */
	uint8_t			single;		/* OBJ_BODY_*: the body is one
						   block of len_hint bytes at
						   body (else segs at first) */
#define OBJ_BODY_IN		1		/* inside this block */
#define OBJ_BODY_OWN		2		/* a block of its own */
	uint32_t		hdr_len;	/* bytes of hdrs[] for headers */
	uint32_t		vary_len;	/* vary.h's blob after them,
						   then OBJ_Url's */
	uint64_t		len;		/* body bytes, when complete */
	uint64_t		len_hint;	/* Content-Length, UINT64_MAX */
	union {
		struct obj_seg	*first;		/* !single: body pieces */
		char		*body;		/* single: in this block or
						   a block of its own */
	};
	/*
	 * The last body piece, for the fetch while the body grows; then,
	 * if it has any, the ESI instructions (set before BOS_FINISHED,
	 * with has_esi; const after).  One word: every byte is paid.
	 */
	union {
		struct obj_seg	*last;		/* fetch thread only */
		struct obj_esi	*esi;
	};
	char			hdrs[];
};

/* The object's ESI instructions, or NULL. */
static inline const struct obj_esi *
OBJ_Esi(const struct object *o)
{

	return (o->has_esi ? o->esi : NULL);
}

/* The vary blob of an object (NULL: it has no Vary). */
static inline const char *
OBJ_Vary(const struct object *o)
{

	return (o->vary_len > 0 ? o->hdrs + o->hdr_len : NULL);
}

/*
 * The URL and Host of the request the object was fetched for (bans on
 * req.url and req.http.host test them: ban.h); NULL if not known.
 */
#define OBJ_REQ_NONE	0	/* tag byte: no request known */
#define OBJ_REQ_URL	1	/* its URL and a NUL follow */
#define OBJ_REQ_HOST	2	/* its URL, a NUL, its Host, a NUL */

static inline const char *
OBJ_Url(const struct object *o)
{
	const char *p = o->hdrs + o->hdr_len + o->vary_len;

	return (*p == OBJ_REQ_NONE ? NULL : p + 1);
}

static inline const char *
OBJ_Host(const struct object *o)
{
	const char *p = o->hdrs + o->hdr_len + o->vary_len;

	return (*p != OBJ_REQ_HOST ? NULL : p + 1 + __builtin_strlen(p + 1) +
	    1);
}

enum boc_state {
	BOS_FETCHING,	/* no headers yet */
	BOS_STREAM,	/* headers in oc->obj; body arriving */
	BOS_FINISHED,	/* body complete */
	BOS_FAILED,	/* fetch failed; oc has no (complete) object */
};

/*
 * Busy object context: the meeting point of a fetch and its readers.
 * Lives while the fetch runs and while anybody still reads through it.
 */
struct boc {
	unsigned		magic;
#define BOC_MAGIC		0x7a1c44e9
	struct lock		mtx;
	pthread_cond_t		cond;
	unsigned		refcnt;		/* mtx */
	enum boc_state		state;		/* mtx */
	uint64_t		len;		/* mtx: body bytes readable */
	struct objcore		*oc;		/* mtx: the target; one ref */
	unsigned		waiters;	/* mtx: requests waiting */
	/*
	 * Transit: a private object has one reader, which frees what it
	 * has sent, and the fetch stays at most transit_buffer ahead of
	 * it, so a pass of any size takes bounded memory.
	 */
	unsigned		transit;	/* const once streaming */
	/*
	 * beresp.do_stream = false: readers go when the body is whole
	 * (BOS_FINISHED) or failed; no BOS_STREAM in between.
	 */
	unsigned		no_stream;	/* const once published */
	unsigned		stale_used;	/* the fetch failed: the target
						   is the stale copy, whole */
	unsigned		revalidated;	/* a 304 refreshed a stale copy */
	uint16_t		fwd_status;	/* with stale_used: the backend's
						   status, 0 if it never answered */
	uint64_t		consumed;	/* mtx: what the reader sent */
};

struct objcore {
	unsigned		magic;
#define OBJCORE_MAGIC		0x4d301302
	unsigned		refcnt;		/* atomic, see above */
	uint16_t		flags;		/* shard lock, see above */
	uint8_t			rfc_flags;	/* RFC_F_*: const */
	uint8_t			xkey;		/* atomic: XKEY_S_* (xkey.h) */
	uint32_t		xid;		/* fetch's vxid; const */
	unsigned		hits;		/* atomic */
	uint32_t		lru_stamp;	/* atomic: last LRU move, s */
	unsigned		exp_idx;	/* exp lock */
	/*
	 * Variants: their key in the objhead's vary index (shard lock).
	 * Busy: the vary hint of the request that started the fetch; a
	 * request with another hint wants another variant and fetches in
	 * parallel instead of waiting (0: unknown, anyone waits).
	 */
	uint32_t		vary_key;
	struct objhead		*objhead;	/* const; NULL if private */
	struct object		*obj;		/* set before unbusy */
	struct boc		*boc;		/* shard lock: while fetched */
	struct stevedore	*stv;		/* const once obj is set */

	/*
	 * Timers: written before the objcore enters the cache, constant
	 * after (a revalidation makes a new objcore) but for a soft purge,
	 * which shortens them holding the expiry lock and the shard lock
	 * (EXP_Rearm), so the expiry heap orders by them without copying
	 * them.  Only the origin is a double: durations as floats are
	 * precise to a millisecond over days, and every byte here is paid
	 * per object.
	 */
	vtim_real		t_origin;
	float			ttl;
	float			grace;
	float			keep;
	float			stale_if_error;
	struct ban		*ban;		/* shard lock: ban.h */

	TAILQ_ENTRY(objcore)	lru_list;	/* stv lru lock */
	union {
		/* shard lock: on its objhead's list (not variants) */
		LIST_ENTRY(objcore)	oh_list;
		/* shard lock: variants, in the vary index */
		struct {
			struct objcore	*vary_next;
			struct vry_spec	*vary_spec;
		};
	};
};

/*
 * End of the objcore's life in the cache: ttl, then grace (or the
 * stale-if-error time, if longer), then keep.
 */
static inline vtim_real
OC_End(const struct objcore *oc)
{

	return (oc->t_origin + oc->ttl + (oc->stale_if_error > oc->grace ?
	    oc->stale_if_error : oc->grace) + oc->keep);
}

/* obj.c */
struct objcore *OBJ_NewCore(void);
/* A reference more; the caller proves the objcore alive (see above). */
void OBJ_Ref(struct objcore *oc);
/*
 * Drop a reference; the last one frees the object and the objcore.
 * Returns the references left.
 */
unsigned OBJ_Deref(struct objcore **ocp);

/*
 * Create oc's object in stv from a response: its status, headers (those
 * not flagged HDF_FILTER) and room for body_hint bytes of body inline
 * (0: none; the body then grows in pieces).  vary: the request's values
 * of the Vary'd headers, copied in.  req: the request it is fetched for
 * (its URL and Host are kept for bans), or NULL.  NULL when the
 * stevedore is full even after nuking (the caller stores it elsewhere or
 * passes).
 */
struct object *OBJ_New(struct worker *wrk, struct objcore *oc,
    struct stevedore *stv, const struct http *hp, uint64_t body_hint,
    const char *vary, size_t vary_len, const struct http *req);
/*
 * The value of the object's first header called name (blanks trimmed,
 * its length in *lenp), or NULL if it has none.  A value stored in
 * short form is written out in buf (TIM_FORMAT_SIZE bytes at least).
 */
const char *OBJ_FindHdr(const struct object *o, const char *name,
    char *buf, size_t buflen, size_t *lenp);
/*
 * A hit-for-miss or hit-for-pass marker (an objcore without an object)
 * costs its objcore, objhead and index entries: charge them to
 * Transient, where it can be nuked like a short-lived object.
 */
void OBJ_ChargeMarker(struct worker *wrk, struct objcore *oc);
/* Free the object's storage (or a marker's charge); on the last deref. */
void OBJ_Slim(struct objcore *oc);
/*
 * Call func on the value (from its first non-blank byte, NUL-terminated)
 * of every header line of o named name (any case), in order; a non-zero
 * return stops.  Returns func's value or 0.  No workspace needed.
 */
typedef int obj_hdr_f(void *priv, const char *value);
int OBJ_EachHdr(const struct object *o, const char *name, obj_hdr_f *func,
    void *priv);
/* A struct http reading the object's headers, in ws.  NULL: overflow. */
struct http *OBJ_Http(struct ws *ws, const struct object *o);
/*
 * Body space for the fetch: at least 1 byte, up to want, at the end of
 * the object; NULL when the store is full (after nuking).  The fetch
 * fills it and publishes it with BOC_Extend.
 */
char *OBJ_GetSpace(struct worker *wrk, struct objcore *oc, size_t want,
    size_t *got);
/* The fetch wrote n bytes into the space it got; the new length. */
uint64_t OBJ_Extend(struct objcore *oc, size_t n);
/*
 * Append to *esip, a list of ESI instructions growing in oc's
 * stevedore (NULL: none yet).  0, or -1 when the store is full.
 * OBJ_SetEsi gives the list to the object; OBJ_FreeEsi drops one the
 * fetch could not finish.
 */
int OBJ_EsiAppend(struct worker *wrk, struct objcore *oc,
    struct obj_esi **esip, const void *p, size_t len);
void OBJ_SetEsi(struct objcore *oc, struct obj_esi **esip);
void OBJ_FreeEsi(struct objcore *oc, struct obj_esi **esip);

/*
 * Iterate over bytes [from, to) of the body (to UINT64_MAX: to the end),
 * waiting for bytes still being fetched.  func gets each piece (flush
 * set when it should write out what it has: the next piece may take a
 * while); a non-zero return stops.  Returns 0 at the end, -1 if the
 * fetch failed, or func's value.
 */
typedef int obj_iter_f(void *priv, int flush, const void *ptr, size_t len);
int OBJ_Iterate(struct objcore *oc, struct boc *boc, uint64_t from,
    uint64_t to, void *priv, obj_iter_f *func);

/*
 * Busy object contexts.  A boc holds a reference to its target: the
 * objcore the body goes to (which is not the busy objcore readers found
 * when the response turned out uncacheable: then it is a private one).
 * Never drop a boc reference with a shard lock held.
 */
struct boc *BOC_New(struct objcore *oc);
/* Point the readers at another objcore (or none: NULL). */
void BOC_SetTarget(struct boc *boc, struct objcore *oc);
/* The target, with a reference for the caller; NULL if none. */
struct objcore *BOC_Target(struct boc *boc);
void BOC_Ref(struct boc *boc);
void BOC_Deref(struct boc **bocp);
/* Publish a state change; wakes every reader. */
void BOC_SetState(struct boc *boc, enum boc_state state);
/* The state now (it may move on at once). */
enum boc_state BOC_State(struct boc *boc);
/* Publish more body (len: the body's new length); wakes readers. */
void BOC_Extend(struct boc *boc, uint64_t len);
/*
 * Transit: wait until the reader is less than limit behind len.
 * Returns 0, or -1 when the reader is gone (nobody else holds the boc).
 */
int BOC_Throttle(struct boc *boc, uint64_t len, uint64_t limit);
/*
 * Wait until the state is at least want (or failed); bounded by
 * deadline (monotonic; 0: none).  Returns the state.
 */
enum boc_state BOC_Wait(struct boc *boc, enum boc_state want,
    vtim_mono deadline);

#endif /* VENEER_CACHE_OBJ_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_dispatch.c -- grouping log records into transactions and
 * transactions into groups (veneerlog -g vxid|request|session|raw), the
 * way Varnish 7.1's log API does, so that veneerlog shows what
 * varnishlog shows.  Owns struct vapi_dispatch and the transactions it
 * keeps (struct vtx, with copies of their records).  Single-threaded.
 *
 * The rules, checked against varnishlog 7.1 with hand-made files:
 *
 *   - A transaction starts at its Begin record ("type parent reason");
 *     records of a vxid never begun are dropped, except for a vxid that
 *     a Link or a Begin named as a relative: it exists as a placeholder
 *     and collects records until its own Begin comes.  vxid 0 records
 *     belong to no transaction and appear only in raw grouping.
 *   - It is complete at its End.  A group (a top transaction and all it
 *     started) is handed over once all its transactions are complete.
 *   - Parents: the Begin's parent vxid and Link records ("type vxid
 *     reason") tie transactions together, except in vxid grouping; in
 *     request grouping a session ties nothing and a client request
 *     received from a session ("rxreq") starts a group.
 *   - Reported: every group in vxid grouping; in request grouping only
 *     groups whose top is a client request; in session grouping only
 *     those whose top is a session.
 *   - Levels: 1 for the top, one more per generation, except that a
 *     restart stays at its parent's level.  Order: depth first, children
 *     in the order they were tied on.
 *
 * Memory is bounded: at most DISPATCH_MAX_OPEN incomplete transactions
 * and DISPATCH_MAX_BYTES of copied records are kept, a transaction takes
 * at most DISPATCH_MAX_RECS records; past a limit the oldest incomplete
 * transaction is forced complete, like one that timed out.  A forced
 * transaction gets two synthesized records, "VSL <why>" and "End synth",
 * and is handed over with complete = 0.
 */

#include "config.h"

#include <sys/queue.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "vsl_format.h"

#define DISPATCH_MAX_OPEN	10000U
#define DISPATCH_MAX_BYTES	(256U << 20)
#define DISPATCH_MAX_RECS	100000U
#define DISPATCH_REASON		32

/* Words a record of len payload bytes takes, header included. */
#define REC_WORDS(len)		(VSL_OVERHEAD + VSL_WORDS(len))

struct vtx {
	unsigned		magic;
#define VTX_MAGIC		0x64f2a917
	uint32_t		vxid;
	enum vapi_txtype	type;
	char			reason[DISPATCH_REASON];
	uint32_t		vxid_parent;
	unsigned		begun;		/* Begin seen */
	unsigned		ended;		/* End seen */
	unsigned		complete;	/* ended or forced */

	struct vtx		*parent;
	struct vtx		*child_first;
	struct vtx		*child_last;
	struct vtx		*sibling;
	unsigned		pending;	/* top: incomplete in group */

	struct vtx		*hnext;		/* hash chain */
	unsigned		hashed;
	TAILQ_ENTRY(vtx)	open_list;	/* while incomplete */
	TAILQ_ENTRY(vtx)	ready_list;	/* top, while ready */
	double			t_start;

	uint32_t		*words;		/* the records, copied */
	size_t			nwords;
	size_t			capwords;
	unsigned		nrec;

	struct vapi_tx		tx;		/* handed out */
	struct vapi_rec		*recs;
};

TAILQ_HEAD(vtx_head, vtx);

struct vapi_dispatch {
	unsigned		magic;
#define VAPI_DISPATCH_MAGIC	0x0b5e7c42
	struct vapi_cursor	*cursor;
	enum vapi_grouping	grouping;
	double			timeout;

	struct vtx		**bucket;
	unsigned		nbucket;	/* a power of 2 */
	unsigned		nhashed;
	struct vtx_head		open;		/* incomplete, oldest first */
	unsigned		nopen;
	struct vtx_head		ready;		/* tops to hand over */
	size_t			bytes;		/* of all copied records */

	struct vapi_tx		**txv;		/* a group being handed out */
	unsigned		ntxv;
	struct vtx		**vtxv;		/* and its members */
	unsigned		nvtxv;
	struct vapi_tx		rawtx;
	struct vapi_rec		rawrec;
};

static double
dispatch_now(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &ts));
	return ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
}

/*--------------------------------------------------------------------
 * The vxid index.
 */

static unsigned
hash_slot(const struct vapi_dispatch *d, uint32_t vxid)
{

	return ((vxid * 2654435761U) & (d->nbucket - 1));
}

static struct vtx *
hash_lookup(const struct vapi_dispatch *d, uint32_t vxid)
{
	struct vtx *v;

	for (v = d->bucket[hash_slot(d, vxid)]; v != NULL; v = v->hnext)
		if (v->vxid == vxid)
			return (v);
	return (NULL);
}

static void
hash_grow(struct vapi_dispatch *d)
{
	struct vtx **old = d->bucket, *v, *next;
	unsigned u, nold = d->nbucket;

	d->bucket = calloc((size_t)nold * 2, sizeof *d->bucket);
	if (d->bucket == NULL) {
		d->bucket = old;	/* longer chains, still correct */
		return;
	}
	d->nbucket = nold * 2;
	for (u = 0; u < nold; u++)
		for (v = old[u]; v != NULL; v = next) {
			next = v->hnext;
			v->hnext = d->bucket[hash_slot(d, v->vxid)];
			d->bucket[hash_slot(d, v->vxid)] = v;
		}
	free(old);
}

static void
hash_insert(struct vapi_dispatch *d, struct vtx *v)
{
	unsigned slot;

	assert(!v->hashed);
	if (d->nhashed >= d->nbucket * 2)
		hash_grow(d);
	slot = hash_slot(d, v->vxid);
	v->hnext = d->bucket[slot];
	d->bucket[slot] = v;
	v->hashed = 1;
	d->nhashed++;
}

static void
hash_remove(struct vapi_dispatch *d, struct vtx *v)
{
	struct vtx **pp;

	if (!v->hashed)
		return;
	for (pp = &d->bucket[hash_slot(d, v->vxid)]; *pp != v;
	    pp = &(*pp)->hnext)
		assert(*pp != NULL);
	*pp = v->hnext;
	v->hnext = NULL;
	v->hashed = 0;
	d->nhashed--;
}

/*--------------------------------------------------------------------
 * Transactions.
 */

static struct vtx *
vtx_top(struct vtx *v)
{

	while (v->parent != NULL)
		v = v->parent;
	return (v);
}

static struct vtx *
vtx_new(struct vapi_dispatch *d, uint32_t vxid)
{
	struct vtx *v;

	ALLOC_OBJ(v, VTX_MAGIC);
	if (v == NULL)
		return (NULL);
	v->vxid = vxid;
	v->type = VAPI_T_UNKNOWN;
	v->pending = 1;
	v->t_start = dispatch_now();
	hash_insert(d, v);
	TAILQ_INSERT_TAIL(&d->open, v, open_list);
	d->nopen++;
	return (v);
}

static void
vtx_free(struct vapi_dispatch *d, struct vtx *v)
{

	CHECK_OBJ(v, VTX_MAGIC);
	hash_remove(d, v);
	if (!v->complete) {
		TAILQ_REMOVE(&d->open, v, open_list);
		d->nopen--;
	}
	assert(d->bytes >= v->capwords * 4);
	d->bytes -= v->capwords * 4;
	free(v->words);
	free(v->recs);
	FREE_OBJ(v);
}

/* Append one record (n words, head included) to v; 0 or -1 (memory). */
static int
vtx_append(struct vapi_dispatch *d, struct vtx *v, const uint32_t *w,
    size_t n)
{
	uint32_t *p;
	size_t cap;

	if (v->nwords + n > v->capwords) {
		cap = v->capwords ? v->capwords * 2 : 256;
		while (cap < v->nwords + n)
			cap *= 2;
		p = realloc(v->words, cap * sizeof *p);
		if (p == NULL)
			return (-1);
		d->bytes += (cap - v->capwords) * 4;
		v->words = p;
		v->capwords = cap;
	}
	memcpy(v->words + v->nwords, w, n * sizeof *w);
	v->nwords += n;
	v->nrec++;
	return (0);
}

/* A record the dispatcher writes itself (VSL diagnostics, End synth). */
static void
vtx_synth(struct vapi_dispatch *d, struct vtx *v, enum VSL_tag_e tag,
    const char *fmt, const char *arg)
{
	uint32_t w[VSL_OVERHEAD + 64];
	char *s = (char *)(w + VSL_OVERHEAD);
	const size_t room = sizeof w - VSL_OVERHEAD * sizeof *w;
	size_t len;

	memset(w, 0, sizeof w);
	len = (size_t)snprintf(s, room, fmt, arg != NULL ? arg : "");
	if (len >= room)
		len = room - 1;
	len++;					/* the NUL */
	w[0] = VSL_HEAD(tag, len);
	w[1] = v->vxid;
	if (v->type == VAPI_T_SESS || v->type == VAPI_T_REQ)
		w[1] |= VSL_CLIENTMARKER;
	else if (v->type == VAPI_T_BEREQ)
		w[1] |= VSL_BACKENDMARKER;
	(void)vtx_append(d, v, w, REC_WORDS(len));
}

/* v is complete: one less to wait for in its group. */
static void
vtx_mark_complete(struct vapi_dispatch *d, struct vtx *v)
{
	struct vtx *top;

	assert(!v->complete);
	v->complete = 1;
	TAILQ_REMOVE(&d->open, v, open_list);
	d->nopen--;
	top = vtx_top(v);
	assert(top->pending > 0);
	if (--top->pending == 0)
		TAILQ_INSERT_TAIL(&d->ready, top, ready_list);
}

static void
vtx_force(struct vapi_dispatch *d, struct vtx *v, const char *why)
{

	vtx_synth(d, v, SLT_VSL, "%s", why);
	vtx_synth(d, v, SLT_End, "%s", "synth");
	vtx_mark_complete(d, v);
}

/*
 * Tie child (a top) under parent.  Refused if child has a parent
 * already or parent descends from child (a cycle).
 */
static void
vtx_set_parent(struct vapi_dispatch *d, struct vtx *parent,
    struct vtx *child)
{
	struct vtx *ptop;

	if (child->parent != NULL || parent == child)
		return;
	for (ptop = parent; ptop->parent != NULL; ptop = ptop->parent)
		if (ptop == child)
			return;
	if (ptop == child)
		return;
	/* child's group joins parent's: its tops' readiness moves too. */
	if (child->pending == 0)
		TAILQ_REMOVE(&d->ready, child, ready_list);
	if (ptop->pending == 0)
		TAILQ_REMOVE(&d->ready, ptop, ready_list);
	ptop->pending += child->pending;
	child->pending = 0;
	child->parent = parent;
	if (parent->child_last == NULL)
		parent->child_first = child;
	else
		parent->child_last->sibling = child;
	parent->child_last = child;
	if (ptop->pending == 0)
		TAILQ_INSERT_TAIL(&d->ready, ptop, ready_list);
}

/* The vtx of vxid, made as a placeholder if unknown; NULL: memory. */
static struct vtx *
vtx_relative(struct vapi_dispatch *d, uint32_t vxid)
{
	struct vtx *v;

	v = hash_lookup(d, vxid);
	if (v == NULL)
		v = vtx_new(d, vxid);
	return (v);
}

static enum vapi_txtype
vtx_type(const char *s, size_t len)
{

	if (len == 4 && !memcmp(s, "sess", 4))
		return (VAPI_T_SESS);
	if (len == 3 && !memcmp(s, "req", 3))
		return (VAPI_T_REQ);
	if (len == 5 && !memcmp(s, "bereq", 5))
		return (VAPI_T_BEREQ);
	return (VAPI_T_UNKNOWN);
}

/*
 * "type vxid reason" of Begin and Link: 0, or -1 if malformed.  The
 * reason is copied (truncated) to reason.
 */
static int
parse_relation(const char *b, const char *e, enum vapi_txtype *type,
    uint32_t *vxid, char *reason, size_t reasonlen)
{
	const char *p;
	uint64_t u = 0;
	size_t n;

	for (p = b; p < e && *p != ' '; p++)
		continue;
	*type = vtx_type(b, (size_t)(p - b));
	if (p == b || p >= e)
		return (-1);
	for (b = ++p; p < e && *p >= '0' && *p <= '9'; p++) {
		u = u * 10 + (uint64_t)(*p - '0');
		if (u > 0x3fffffff)
			return (-1);
	}
	if (p == b || (p < e && *p != ' '))
		return (-1);
	*vxid = (uint32_t)u;
	reason[0] = '\0';
	if (p < e) {
		for (b = ++p; p < e && *p != ' '; p++)
			continue;
		n = (size_t)(p - b);
		if (n >= reasonlen)
			n = reasonlen - 1;
		memcpy(reason, b, n);
		reason[n] = '\0';
	}
	return (0);
}

/* Payload without its NULs. */
static const char *
rec_end(const char *b, unsigned len)
{
	const char *e = b + len;

	while (e > b && e[-1] == '\0')
		e--;
	return (e);
}

static void
scan_begin(struct vapi_dispatch *d, struct vtx *v, const char *b,
    const char *e)
{
	enum vapi_txtype type;
	uint32_t pvxid;
	struct vtx *p;

	if (parse_relation(b, e, &type, &pvxid, v->reason,
	    sizeof v->reason) != 0) {
		vtx_synth(d, v, SLT_VSL, "malformed Begin record \"%s\"",
		    b);
		return;
	}
	v->type = type;
	v->vxid_parent = pvxid;
	if (type == VAPI_T_UNKNOWN)
		vtx_synth(d, v, SLT_VSL, "unknown transaction type in Begin "
		    "\"%s\"", b);
	if (d->grouping == VAPI_G_VXID || pvxid == 0 || pvxid == v->vxid)
		return;
	if (d->grouping == VAPI_G_REQUEST && (type == VAPI_T_SESS ||
	    (type == VAPI_T_REQ && !strcmp(v->reason, "rxreq"))))
		return;
	if (v->parent != NULL) {
		if (v->parent->vxid != pvxid)
			vtx_synth(d, v, SLT_VSL, "Begin names a parent other "
			    "than the Link that made it: \"%s\"", b);
		return;
	}
	p = vtx_relative(d, pvxid);
	if (p != NULL)
		vtx_set_parent(d, p, v);
}

static void
scan_link(struct vapi_dispatch *d, struct vtx *v, const char *b,
    const char *e)
{
	enum vapi_txtype type;
	uint32_t cvxid;
	char reason[DISPATCH_REASON];
	struct vtx *c;

	if (d->grouping == VAPI_G_VXID)
		return;
	if (parse_relation(b, e, &type, &cvxid, reason, sizeof reason) !=
	    0) {
		vtx_synth(d, v, SLT_VSL, "malformed Link record \"%s\"", b);
		return;
	}
	if (cvxid == 0 || cvxid == v->vxid)
		return;
	if (d->grouping == VAPI_G_REQUEST && (v->type == VAPI_T_SESS ||
	    (type == VAPI_T_REQ && !strcmp(reason, "rxreq"))))
		return;
	c = hash_lookup(d, cvxid);
	if (c == NULL) {
		c = vtx_new(d, cvxid);
		if (c == NULL)
			return;
	}
	if (c->parent == NULL)
		vtx_set_parent(d, v, c);
	else if (c->parent != v)
		vtx_synth(d, v, SLT_VSL, "Link to a transaction that has "
		    "another parent: \"%s\"", b);
}

/*--------------------------------------------------------------------
 * Limits and handing over.
 */

static void
dispatch_limits(struct vapi_dispatch *d)
{
	struct vtx *v;

	while (d->nopen > DISPATCH_MAX_OPEN ||
	    (d->bytes > DISPATCH_MAX_BYTES && d->nopen > 0)) {
		v = TAILQ_FIRST(&d->open);
		assert(v != NULL);
		vtx_force(d, v, "store overflow");
	}
}

static int
dispatch_timeouts(struct vapi_dispatch *d)
{
	struct vtx *v;
	double now;

	if (d->timeout <= 0 || TAILQ_EMPTY(&d->open))
		return (0);
	now = dispatch_now();
	while ((v = TAILQ_FIRST(&d->open)) != NULL &&
	    now - v->t_start >= d->timeout)
		vtx_force(d, v, "timeout");
	return (0);
}

static int
dispatch_reported(const struct vapi_dispatch *d, const struct vtx *top)
{

	switch (d->grouping) {
	case VAPI_G_REQUEST:
		return (top->type == VAPI_T_REQ);
	case VAPI_G_SESSION:
		return (top->type == VAPI_T_SESS);
	default:
		return (1);
	}
}

/* Depth first: the next of v within the group of top, or NULL. */
static struct vtx *
group_next(const struct vtx *top, const struct vtx *v)
{

	if (v->child_first != NULL)
		return (v->child_first);
	while (v != top) {
		if (v->sibling != NULL)
			return (v->sibling);
		v = v->parent;
	}
	return (NULL);
}

/* Make v's public view; 0 or -1 (memory). */
static int
vtx_view(struct vtx *v, unsigned level)
{
	struct vapi_rec *r;
	const uint32_t *p;
	unsigned u;

	free(v->recs);
	v->recs = calloc(v->nrec + 1, sizeof *v->recs);
	if (v->recs == NULL)
		return (-1);
	for (u = 0, p = v->words; u < v->nrec; u++) {
		r = &v->recs[u];
		r->ptr = p;
		r->tag = VSL_HEAD_TAG(p[0]);
		r->len = VSL_HEAD_LEN(p[0]);
		r->vxid = VSL_HEAD_ID(p[1]);
		r->side = (p[1] & VSL_CLIENTMARKER) ? 'c' :
		    (p[1] & VSL_BACKENDMARKER) ? 'b' : '-';
		r->data = (const char *)(p + VSL_OVERHEAD);
		p += REC_WORDS(r->len);
	}
	memset(&v->tx, 0, sizeof v->tx);
	v->tx.vxid = v->vxid;
	v->tx.vxid_parent = v->vxid_parent;
	v->tx.type = v->type;
	v->tx.reason = v->reason;
	v->tx.level = level;
	v->tx.complete = v->ended;
	v->tx.parent = v->parent != NULL ? &v->parent->tx : NULL;
	v->tx.recs = v->recs;
	v->tx.nrec = v->nrec;
	return (0);
}

static unsigned
vtx_level(const struct vtx *v)
{
	unsigned level = 1;

	for (; v->parent != NULL; v = v->parent)
		if (strcmp(v->reason, "restart") != 0)
			level++;
	return (level);
}

/* The members of top's group, depth first, into d->vtxv; how many. */
static unsigned
group_collect(struct vapi_dispatch *d, struct vtx *top)
{
	struct vtx **vv, *v;
	unsigned n = 0;

	for (v = top; v != NULL; v = group_next(top, v)) {
		if (n == d->nvtxv) {
			vv = realloc(d->vtxv, (n * 2 + 8) * sizeof *vv);
			if (vv == NULL)
				WRONG("out of memory listing a group");
			d->vtxv = vv;
			d->nvtxv = n * 2 + 8;
		}
		d->vtxv[n++] = v;
	}
	return (n);
}

/* Hand over one ready group (if reported) and free it. */
static int
dispatch_group(struct vapi_dispatch *d, struct vtx *top, vapi_group_f *func,
    void *priv)
{
	struct vapi_tx **txv;
	unsigned u, n, ntx = 0;
	int r = 0;

	n = group_collect(d, top);
	if (func != NULL && dispatch_reported(d, top)) {
		if (n > d->ntxv) {
			txv = realloc(d->txv, n * sizeof *txv);
			if (txv == NULL)
				n = d->ntxv;	/* hand over what fits */
			else {
				d->txv = txv;
				d->ntxv = n;
			}
		}
		for (u = 0; u < n; u++) {
			if (vtx_view(d->vtxv[u], vtx_level(d->vtxv[u])) != 0)
				break;
			d->txv[ntx++] = &d->vtxv[u]->tx;
		}
		if (ntx > 0)
			r = func(priv, d->txv, ntx);
	}
	n = group_collect(d, top);
	for (u = 0; u < n; u++)
		vtx_free(d, d->vtxv[u]);
	return (r);
}

static int
dispatch_ready(struct vapi_dispatch *d, vapi_group_f *func, void *priv)
{
	struct vtx *top;
	int r;

	while ((top = TAILQ_FIRST(&d->ready)) != NULL) {
		TAILQ_REMOVE(&d->ready, top, ready_list);
		r = dispatch_group(d, top, func, priv);
		if (r != 0)
			return (r);
	}
	return (0);
}

/*--------------------------------------------------------------------
 * One record in.
 */

/* A Begin for a vxid already begun: the old one is over. */
static struct vtx *
dispatch_reuse(struct vapi_dispatch *d, struct vtx *old)
{

	if (!old->complete)
		vtx_force(d, old, "vxid reused by a new Begin");
	hash_remove(d, old);
	return (vtx_new(d, old->vxid));
}

static void
dispatch_record(struct vapi_dispatch *d, const struct vapi_rec *rec)
{
	const char *e;
	struct vtx *v;

	if (rec->vxid == 0)
		return;
	v = hash_lookup(d, rec->vxid);
	if (v == NULL && rec->tag != SLT_Begin)
		return;			/* its Begin is not in our view */
	if (v == NULL)
		v = vtx_new(d, rec->vxid);
	else if (rec->tag == SLT_Begin && v->begun)
		v = dispatch_reuse(d, v);
	else if (v->complete)
		return;			/* after its End: nothing to add */
	if (v == NULL)
		return;
	if (vtx_append(d, v, rec->ptr, REC_WORDS(rec->len)) != 0) {
		vtx_force(d, v, "out of memory");
		return;
	}
	e = rec_end(rec->data, rec->len);
	switch (rec->tag) {
	case SLT_Begin:
		v->begun = 1;
		scan_begin(d, v, rec->data, e);
		break;
	case SLT_Link:
		scan_link(d, v, rec->data, e);
		break;
	case SLT_End:
		v->ended = 1;
		vtx_mark_complete(d, v);
		return;
	default:
		break;
	}
	if (v->nrec >= DISPATCH_MAX_RECS)
		vtx_force(d, v, "too many records in one transaction");
}

static int
dispatch_raw(struct vapi_dispatch *d, const struct vapi_rec *rec,
    vapi_group_f *func, void *priv)
{
	struct vapi_tx *tx = &d->rawtx;

	d->rawrec = *rec;
	memset(tx, 0, sizeof *tx);
	tx->vxid = rec->vxid;
	tx->type = VAPI_T_RAW;
	tx->reason = "";
	tx->level = 0;
	tx->complete = 1;
	tx->recs = &d->rawrec;
	tx->nrec = 1;
	d->txv[0] = tx;
	return (func != NULL ? func(priv, d->txv, 1) : 0);
}

/* At the end of the input: hand over everything, forced. */
static int
dispatch_flush(struct vapi_dispatch *d, vapi_group_f *func, void *priv)
{
	struct vtx *v;

	while ((v = TAILQ_FIRST(&d->open)) != NULL)
		vtx_force(d, v, "flush");
	return (dispatch_ready(d, func, priv));
}

/*--------------------------------------------------------------------*/

struct vapi_dispatch *
VAPI_DispatchNew(struct vapi_cursor *c, enum vapi_grouping g,
    double tx_timeout)
{
	struct vapi_dispatch *d;

	assert(c != NULL);
	assert(g == VAPI_G_RAW || g == VAPI_G_VXID || g == VAPI_G_REQUEST ||
	    g == VAPI_G_SESSION);
	ALLOC_OBJ(d, VAPI_DISPATCH_MAGIC);
	if (d == NULL)
		return (NULL);
	d->cursor = c;
	d->grouping = g;
	d->timeout = tx_timeout;
	d->nbucket = 1024;
	d->bucket = calloc(d->nbucket, sizeof *d->bucket);
	d->ntxv = 8;
	d->txv = calloc(d->ntxv, sizeof *d->txv);
	if (d->bucket == NULL || d->txv == NULL) {
		free(d->bucket);
		free(d->txv);
		FREE_OBJ(d);
		return (NULL);
	}
	TAILQ_INIT(&d->open);
	TAILQ_INIT(&d->ready);
	return (d);
}

void
VAPI_DispatchFree(struct vapi_dispatch **dp)
{
	struct vapi_dispatch *d;
	struct vtx *v;

	TAKE_OBJ_NOTNULL(d, dp, VAPI_DISPATCH_MAGIC);
	/* Force what is open, then free the groups unreported. */
	while ((v = TAILQ_FIRST(&d->open)) != NULL)
		vtx_force(d, v, "flush");
	(void)dispatch_ready(d, NULL, NULL);
	assert(d->nhashed == 0 && d->nopen == 0);
	free(d->bucket);
	free(d->txv);
	free(d->vtxv);
	FREE_OBJ(d);
}

int
VAPI_Dispatch(struct vapi_dispatch *d, vapi_group_f *func, void *priv)
{
	struct vapi_rec rec;
	int r;

	CHECK_OBJ(d, VAPI_DISPATCH_MAGIC);
	r = dispatch_ready(d, func, priv);
	if (r != 0)
		return (r);
	for (;;) {
		r = VAPI_CursorNext(d->cursor, &rec);
		if (r == VAPI_REC && d->grouping == VAPI_G_RAW) {
			r = dispatch_raw(d, &rec, func, priv);
			if (r != 0)
				return (r);
			continue;
		}
		if (r == VAPI_REC) {
			dispatch_record(d, &rec);
			dispatch_limits(d);
			r = dispatch_ready(d, func, priv);
			if (r != 0)
				return (r);
			continue;
		}
		if (r == VAPI_MORE) {
			(void)dispatch_timeouts(d);
			r = dispatch_ready(d, func, priv);
			return (r != 0 ? r : VAPI_MORE);
		}
		if (r == VAPI_EOF) {
			r = dispatch_flush(d, func, priv);
			return (r != 0 ? r : VAPI_EOF);
		}
		return (r);
	}
}

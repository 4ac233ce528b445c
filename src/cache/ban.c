/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ban.c -- the ban list and its lurker (see ban.h).
 *
 * The list runs from the head (newest) to the tail (oldest) through
 * ->older, and back through ->newer.  Adding a ban takes ban_mtx for a
 * few pointer moves and a hash table probe (the newest ban of each
 * text, for ban_dups), whatever the list's length.  The lurker thread
 * walks the cache in batches, moving objects along the list, killing
 * what bans match, and frees the tail bans nobody points at any more.
 */

#include "config.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cli.h"
#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "common/tim.h"
#include "cache/ban.h"
#include "cache/ban_expr.h"
#include "cache/child_cli.h"
#include "cache/hash.h"
#include "cache/http.h"
#include "cache/obj.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

struct ban {
	unsigned		magic;
#define BAN_MAGIC		0x5a17c0de
	unsigned		flags;		/* atomic; set under ban_mtx */
#define BAN_F_REQ		(1U << 0)	/* only a lookup can test it */
#define BAN_F_COMPLETED		(1U << 1)	/* nobody needs testing */
	unsigned		refcnt;		/* atomic: objcores at it */
	uint64_t		seq;		/* const: 0 for the first */
	vtim_real		t;		/* const */
	struct ban		*newer;		/* ban_mtx; NULL: the head */
	struct ban		*older;		/* ban_mtx; NULL: the tail */
	struct ban		*hnext;		/* ban_mtx: text table chain */
	struct ban_expr		*expr;		/* const; NULL for the first */
	uint64_t		tested;		/* atomic */
	uint64_t		killed;		/* atomic */
};

static struct lock ban_mtx = LOCK_INITIALIZER;
static pthread_cond_t ban_cond = PTHREAD_COND_INITIALIZER;
static struct ban *ban_head;		/* ban_mtx to change; atomic read */
static struct ban *ban_tail;		/* ban_mtx */
/* The newest ban of each text: ban_dups in constant time. */
static struct ban **ban_tbl;		/* ban_mtx */
static unsigned ban_tbl_mask;		/* ban_mtx */
static unsigned ban_tbl_n;		/* ban_mtx */
/* Bans the lurker could test (ban_lurkable), for ban_lurk_target. */
static unsigned ban_nlurk;		/* ban_mtx */

static inline unsigned
ban_flags(const struct ban *b)
{

	return (__atomic_load_n(&b->flags, __ATOMIC_ACQUIRE));
}

static inline struct ban *
ban_get_head(void)
{

	return (__atomic_load_n(&ban_head, __ATOMIC_ACQUIRE));
}

static inline void
ban_ref(struct ban *b)
{

	(void)__atomic_add_fetch(&b->refcnt, 1, __ATOMIC_RELAXED);
}

static inline void
ban_deref(struct ban *b)
{

	assert(__atomic_sub_fetch(&b->refcnt, 1, __ATOMIC_RELEASE) !=
	    UINT_MAX);
}

/* Could the lurker test it: open, and not needing a lookup's request? */
static inline int
ban_lurkable(const struct ban *b)
{

	return (b->expr != NULL && !(b->flags & (BAN_F_COMPLETED | BAN_F_REQ)));
}

/*--------------------------------------------------------------------
 * The text table
 */

static unsigned
ban_text_hash(const char *s)
{
	unsigned h = 2166136261U;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619U;
	return (h);
}

static struct ban **
ban_tbl_slot(const char *text)
{
	struct ban **pp;

	LOCK_AssertHeld(&ban_mtx);
	pp = &ban_tbl[ban_text_hash(text) & ban_tbl_mask];
	for (; *pp != NULL; pp = &(*pp)->hnext)
		if (!strcmp(BAN_ExprText((*pp)->expr), text))
			break;
	return (pp);
}

/* Double the table when crowded; on allocation failure keep it. */
static void
ban_tbl_grow(void)
{
	struct ban **tbl, *b, *next;
	unsigned u, mask = ban_tbl_mask * 2 + 1;

	LOCK_AssertHeld(&ban_mtx);
	tbl = calloc((size_t)mask + 1, sizeof *tbl);
	if (tbl == NULL)
		return;
	for (u = 0; u <= ban_tbl_mask; u++)
		for (b = ban_tbl[u]; b != NULL; b = next) {
			next = b->hnext;
			b->hnext = tbl[ban_text_hash(BAN_ExprText(b->expr)) &
			    mask];
			tbl[ban_text_hash(BAN_ExprText(b->expr)) & mask] = b;
		}
	free(ban_tbl);
	ban_tbl = tbl;
	ban_tbl_mask = mask;
}

/*--------------------------------------------------------------------
 * Adding
 */

static void
ban_complete_locked(struct ban *b)
{

	LOCK_AssertHeld(&ban_mtx);
	if (b->flags & BAN_F_COMPLETED)
		return;
	if (ban_lurkable(b))
		ban_nlurk--;
	__atomic_store_n(&b->flags, b->flags | BAN_F_COMPLETED,
	    __ATOMIC_RELEASE);
	VSC_Add(bans_completed, 1);
}

/* Put b at the head; the older identical ban, if any, is completed. */
static void
ban_insert(struct ban *b)
{
	struct ban **pp, *old = NULL;

	LOCK_Lock(&ban_mtx);
	b->seq = ban_head->seq + 1;
	b->t = TIM_real();
	if (b->t <= ban_head->t)	/* the clock stepped back: keep order */
		b->t = ban_head->t + 1e-6;
	pp = ban_tbl_slot(BAN_ExprText(b->expr));
	if (*pp != NULL) {
		old = *pp;
		*pp = old->hnext;
		old->hnext = NULL;
		ban_tbl_n--;
	}
	b->hnext = ban_tbl[ban_text_hash(BAN_ExprText(b->expr)) &
	    ban_tbl_mask];
	ban_tbl[ban_text_hash(BAN_ExprText(b->expr)) & ban_tbl_mask] = b;
	if (++ban_tbl_n > 2 * (ban_tbl_mask + 1))
		ban_tbl_grow();
	/*
	 * The newer one tests every object the older would: its objects
	 * are older still.  So the older needs no testing any more.
	 */
	if (old != NULL && cache_param->ban_dups &&
	    !(old->flags & BAN_F_COMPLETED)) {
		ban_complete_locked(old);
		VSC_Add(bans_dups, 1);
	}
	if (ban_lurkable(b))
		ban_nlurk++;
	b->older = ban_head;
	ban_head->newer = b;
	__atomic_store_n(&ban_head, b, __ATOMIC_RELEASE);
	VSC_Add(bans, 1);
	VSC_Add(bans_added, 1);
	if (b->flags & BAN_F_REQ)
		VSC_Add(bans_req, 1);
	else
		VSC_Add(bans_obj, 1);
	(void)pthread_cond_signal(&ban_cond);
	LOCK_Unlock(&ban_mtx);
}

/* Put a parsed expression (NULL: parse error, in err) on the list. */
static int
ban_add_expr(struct ban_expr *be, char *err, size_t errlen)
{
	struct ban *b;

	if (be == NULL)
		return (-1);
	ALLOC_OBJ(b, BAN_MAGIC);
	if (b == NULL) {
		BAN_ExprFree(&be);
		(void)snprintf(err, errlen, "Out of memory");
		return (-1);
	}
	b->expr = be;
	if (BAN_ExprUsesReq(be) && !BAN_ExprStoredReq(be))
		b->flags |= BAN_F_REQ;
	ban_insert(b);
	return (0);
}

int
BAN_Add(char * const *av, int ac, char *err, size_t errlen)
{

	return (ban_add_expr(BAN_ExprParse(av, ac, err, errlen), err,
	    errlen));
}

int
BAN_AddString(const char *s, char *err, size_t errlen)
{

	return (ban_add_expr(BAN_ExprParseString(s, err, errlen), err,
	    errlen));
}

/*--------------------------------------------------------------------
 * Objects
 */

void
BAN_NewObjCore(struct objcore *oc)
{

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	assert(oc->ban == NULL);
	/* Under ban_mtx: the lurker must not free what we are taking. */
	LOCK_Lock(&ban_mtx);
	ban_ref(ban_head);
	oc->ban = ban_head;
	LOCK_Unlock(&ban_mtx);
}

void
BAN_DestroyObj(struct objcore *oc)
{
	struct ban *b;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	b = oc->ban;
	oc->ban = NULL;
	if (b != NULL) {
		CHECK_OBJ(b, BAN_MAGIC);
		ban_deref(b);
	}
}

int
BAN_Pending(const struct objcore *oc)
{

	return (oc->ban != NULL && oc->ban != ban_get_head());
}

/* oc (shard lock held) has been tested up to b. */
static void
ban_move(struct objcore *oc, struct ban *b)
{
	struct ban *old = oc->ban;

	if (old == b)
		return;
	/* The old one keeps b alive until b's reference is taken. */
	ban_ref(b);
	oc->ban = b;
	ban_deref(old);
}

/* What an evaluation reads from a stored object. */
struct ban_objdata {
	const struct object	*o;
	char			buf[TIM_FORMAT_SIZE];
};

static const char *
ban_obj_hdr(void *priv, const char *name, size_t *lenp)
{
	struct ban_objdata *od = priv;

	return (OBJ_FindHdr(od->o, name, od->buf, sizeof od->buf, lenp));
}

/* req.http.host of a rewritten ban: the fetching request's Host. */
static const char *
ban_stored_hdr(void *priv, const char *name, size_t *lenp)
{
	const struct object *o = priv;
	const char *h;

	if (strcasecmp(name, "host"))
		return (NULL);	/* BAN_ExprStoredReq saw to that */
	h = OBJ_Host(o);
	if (h != NULL)
		*lenp = strlen(h);
	return (h);
}

static const char *
ban_req_hdr(void *priv, const char *name, size_t *lenp)
{
	const struct http *hp = priv;
	struct txt t;

	if (!HTTP_GetHdr(hp, name, &t))
		return (NULL);
	*lenp = TXT_LEN(t);
	return (t.b);
}

/* Everything one object's tests need, made once per object. */
struct ban_ctx {
	struct ban_objdata	od;
	struct ban_obj		obj;
	struct ban_req		stored;
	struct ban_req		req;
	unsigned		have_req;
};

static void
ban_ctx_init(struct ban_ctx *c, const struct objcore *oc,
    const struct http *req)
{
	const struct object *o = oc->obj;
	vtim_real now = TIM_real();
	const char *url;

	memset(c, 0, sizeof *c);
	c->od.o = o;
	c->obj.status = o->status;
	c->obj.ttl = oc->t_origin + oc->ttl - now;
	c->obj.age = now - oc->t_origin;
	c->obj.grace = oc->grace;
	c->obj.keep = oc->keep;
	c->obj.hdr = ban_obj_hdr;
	c->obj.priv = &c->od;
	url = OBJ_Url(o);
	c->stored.url = url;
	c->stored.url_len = url != NULL ? strlen(url) : 0;
	c->stored.hdr = ban_stored_hdr;
	c->stored.priv = (void *)(uintptr_t)o;
	if (req != NULL) {
		c->have_req = 1;
		c->req.url = req->hd[HTTP_HDR_URL].b;
		c->req.url_len = TXT_LEN(req->hd[HTTP_HDR_URL]);
		c->req.hdr = ban_req_hdr;
		c->req.priv = (void *)(uintptr_t)req;
	}
}

/* 1: b kills the object; 0: not; -1: b needs a request we lack. */
static int
ban_test(struct ban *b, struct ban_ctx *c)
{
	int r;

	if (b->flags & BAN_F_REQ) {
		if (!c->have_req)
			return (-1);
		r = BAN_ExprMatch(b->expr, &c->req, &c->obj);
	} else {
		r = BAN_ExprMatch(b->expr, &c->stored, &c->obj);
	}
	(void)__atomic_add_fetch(&b->tested, 1, __ATOMIC_RELAXED);
	assert(r >= 0);
	return (r);
}

int
BAN_CheckObject_locked(struct objcore *oc, const struct http *req,
    struct vsc_worker *stats)
{
	struct ban *head, *b;
	struct ban_ctx c;
	unsigned n = 0, max;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	HSH_AssertLocked(oc->objhead);
	head = ban_get_head();
	if (oc->ban == NULL || oc->ban == head)
		return (0);
	if (oc->obj == NULL) {
		/* A marker: nothing to test; it is short-lived anyway. */
		ban_move(oc, head);
		return (0);
	}
	max = cache_param->ban_max_tests_per_lookup;
	ban_ctx_init(&c, oc, req);
	for (b = head; b != oc->ban; b = b->older) {
		CHECK_OBJ(b, BAN_MAGIC);
		if (ban_flags(b) & BAN_F_COMPLETED)
			continue;
		if (max > 0 && ++n > max) {
			VSC_Count(stats, bans_lookup_deferred, 1);
			return (-1);
		}
		VSC_Count(stats, bans_tests_tested, 1);
		if (ban_test(b, &c) > 0) {
			(void)__atomic_add_fetch(&b->killed, 1,
			    __ATOMIC_RELAXED);
			VSC_Count(stats, bans_tested, 1);
			VSC_Count(stats, bans_obj_killed, 1);
			return (1);
		}
	}
	VSC_Count(stats, bans_tested, 1);
	ban_move(oc, head);
	return (0);
}

/*--------------------------------------------------------------------
 * The lurker
 */

struct ban_lurk {
	struct ban		*ceiling;	/* test up to this one */
	uint64_t		cutoff_seq;	/* older: killed (ban_cutoff) */
	struct vsl_log		*vsl;
	uint64_t		tested;
	uint64_t		tests;
	uint64_t		killed;
	uint64_t		killed_cutoff;
};

/* Under oc's shard lock; non-zero: kill it. */
static int
ban_lurk_one(void *priv, struct objcore *oc)
{
	struct ban_lurk *l = priv;
	struct ban *b, *nb, *done;
	struct ban_ctx c;
	int r, tested = 0;

	if (oc->ban == NULL || oc->obj == NULL)
		return (0);
	done = oc->ban;
	if (done->seq < l->ceiling->seq) {
		ban_ctx_init(&c, oc, NULL);
		for (b = done; b->seq < l->ceiling->seq; b = nb) {
			nb = b->newer;
			CHECK_OBJ(nb, BAN_MAGIC);
			if (!(ban_flags(nb) & BAN_F_COMPLETED)) {
				r = ban_test(nb, &c);
				if (r < 0)
					break;	/* a lookup's job */
				tested = 1;
				l->tests++;
				if (r > 0) {
					(void)__atomic_add_fetch(&nb->killed,
					    1, __ATOMIC_RELAXED);
					l->tested++;
					l->killed++;
					VSLb(l->vsl, SLT_ExpBan,
					    "%u banned by lurker", oc->xid);
					return (1);
				}
			}
			done = nb;
		}
		l->tested += tested;
		ban_move(oc, done);
	}
	if (l->cutoff_seq > 0 && oc->ban->seq < l->cutoff_seq) {
		l->killed_cutoff++;
		VSLb(l->vsl, SLT_ExpBan, "%u killed for lurker cutoff",
		    oc->xid);
		return (1);
	}
	return (0);
}

/* Free the tail bans nobody points at; the tail is completed. */
static void
ban_trim(void)
{
	struct ban *b, **pp;

	LOCK_Lock(&ban_mtx);
	while ((b = ban_tail) != ban_head &&
	    __atomic_load_n(&b->refcnt, __ATOMIC_ACQUIRE) == 0) {
		ban_tail = b->newer;
		ban_tail->older = NULL;
		if (ban_lurkable(b))
			ban_nlurk--;
		if (b->expr != NULL) {
			pp = ban_tbl_slot(BAN_ExprText(b->expr));
			if (*pp == b) {
				*pp = b->hnext;
				ban_tbl_n--;
			}
		}
		VSC_Sub(bans, 1);
		VSC_Add(bans_deleted, 1);
		if (b->flags & BAN_F_COMPLETED)
			VSC_Sub(bans_completed, 1);
		if (b->flags & BAN_F_REQ)
			VSC_Sub(bans_req, 1);
		else if (b->expr != NULL)
			VSC_Sub(bans_obj, 1);
		if (b->expr != NULL)
			BAN_ExprFree(&b->expr);
		FREE_OBJ(b);
	}
	/* Nobody is older than the tail: nobody needs it tested. */
	ban_complete_locked(ban_tail);
	LOCK_Unlock(&ban_mtx);
}

/*
 * What the lurker should work towards: the newest ban older than
 * ban_lurker_age (NULL: none, or nothing between the tail and it that
 * the lurker could test).  *cutp: the seq below which objects go, for
 * ban_cutoff (0: none).
 */
static struct ban *
ban_lurk_target(vtim_real now, uint64_t *cutp)
{
	struct ban *b, *ceiling = NULL;
	unsigned cutoff = cache_param->ban_cutoff, above = 0, work;

	*cutp = 0;
	LOCK_Lock(&ban_mtx);
	if (cutoff > 0 && ban_head->seq - ban_tail->seq > cutoff)
		*cutp = ban_head->seq - cutoff;
	/*
	 * Only the bans younger than ban_lurker_age are walked: the count
	 * of lurkable bans says whether any is left below them (the tail is
	 * always completed).
	 */
	for (b = ban_head; b != NULL; b = b->older) {
		if (b->t <= now - cache_param->ban_lurker_age) {
			ceiling = b;
			break;
		}
		if (ban_lurkable(b))
			above++;
	}
	assert(above <= ban_nlurk);
	work = ceiling != NULL ? ban_nlurk - above : 0;
	LOCK_Unlock(&ban_mtx);
	if (work == 0 && *cutp == 0)
		return (NULL);
	return (ceiling != NULL ? ceiling : ban_tail);
}

static void * __attribute__((__noreturn__))
ban_lurker(void *priv)
{
	struct ban_lurk l;
	struct vsl_log vsl[1];
	char vslbuf[1024];
	struct timespec ts;
	uint64_t pos = 0;
	int end;

	(void)priv;
	(void)pthread_setname_np(pthread_self(), "cache-lurker");
	VSL_Setup(vsl, vslbuf, sizeof vslbuf);
	VSL_SetId(vsl, 0);
	for (;;) {
		memset(&l, 0, sizeof l);
		l.vsl = vsl;
		if (cache_param->ban_lurker_sleep <= 0 ||
		    (l.ceiling = ban_lurk_target(TIM_real(),
		    &l.cutoff_seq)) == NULL) {
			ban_trim();
			/* Idle: until a ban comes, or ban_lurker_age passes. */
			LOCK_Lock(&ban_mtx);
			ts = TIM_timespec(TIM_real() + 1);
			(void)LOCK_TimedWait(&ban_cond, &ban_mtx, &ts);
			LOCK_Unlock(&ban_mtx);
			pos = 0;
			continue;
		}
		/*
		 * The ceiling stays on the list while we use it: the tail
		 * is only trimmed by this thread, and the ceiling is newer.
		 */
		end = HSH_Walk(&pos, cache_param->ban_lurker_batch,
		    ban_lurk_one, &l);
		VSC_Add(bans_lurker_tested, l.tested);
		VSC_Add(bans_lurker_tests_tested, l.tests);
		VSC_Add(bans_lurker_obj_killed, l.killed);
		VSC_Add(bans_lurker_obj_killed_cutoff, l.killed_cutoff);
		VSL_Flush(vsl);
		if (end)
			ban_trim();
		TIM_sleep(cache_param->ban_lurker_sleep);
	}
}

void
BAN_Init(void)
{
	pthread_t thr;
	struct ban *b;

	ban_tbl_mask = 63;
	ban_tbl = calloc(ban_tbl_mask + 1, sizeof *ban_tbl);
	assert(ban_tbl != NULL);
	/* The first ban: every object points somewhere; nothing to test. */
	ALLOC_OBJ(b, BAN_MAGIC);
	assert(b != NULL);
	b->t = TIM_real();
	b->flags = BAN_F_COMPLETED;
	ban_head = ban_tail = b;
	VSC_Add(bans, 1);
	VSC_Add(bans_added, 1);	/* as varnishd counts its boot ban */
	VSC_Add(bans_completed, 1);
	ASSERT_ZERO(pthread_create(&thr, NULL, ban_lurker, NULL));
	ASSERT_ZERO(pthread_detach(thr));
}

/*--------------------------------------------------------------------
 * CLI
 */

unsigned
BAN_CliBan(FILE *out, int ac, char * const *av)
{
	char err[512];

	if (BAN_Add(av + 1, ac - 1, err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_PARAM);
	}
	return (CLIS_OK);
}

/*
 * ban.list [-j|-d]: newest first, as Varnish prints it; -d adds what
 * each ban tested and killed and whether only lookups can test it
 * (R), -j has all of it.  The list is walked under ban_mtx: the lurker
 * waits, lookups do not.
 */
unsigned
BAN_CliList(FILE *out, int ac, char * const *av)
{
	int json = 0, debug = 0;
	const struct ban *b;
	unsigned f;

	if (ac > 1 && !strcmp(av[1], "-j"))
		json = 1;
	else if (ac > 1 && !strcmp(av[1], "-d"))
		debug = 1;
	else if (ac > 1) {
		fprintf(out, "Unknown option %s: ban.list takes -j or -d",
		    av[1]);
		return (CLIS_PARAM);
	}
	if (json)
		CCLI_JsonHead(out, 2, ac, av);
	else
		fprintf(out, "Present bans:\n");
	LOCK_Lock(&ban_mtx);
	for (b = ban_head; b != NULL; b = b->older) {
		f = ban_flags(b);
		if (json && (f & BAN_F_COMPLETED))
			continue;	/* as varnishd: they test nothing */
		if (json) {
			fprintf(out, ",\n  {\n    \"time\": %.6f,\n"
			    "    \"refs\": %u,\n    \"completed\": %s,\n"
			    "    \"lookup_only\": %s,\n    \"tested\": %ju,\n"
			    "    \"killed\": %ju,\n    \"spec\": ", b->t,
			    __atomic_load_n(&b->refcnt, __ATOMIC_RELAXED),
			    f & BAN_F_COMPLETED ? "true" : "false",
			    f & BAN_F_REQ ? "true" : "false",
			    (uintmax_t)b->tested, (uintmax_t)b->killed);
			CCLI_JsonStr(out, b->expr != NULL ?
			    BAN_ExprText(b->expr) : "");
			fprintf(out, "\n  }");
			continue;
		}
		fprintf(out, "%10.6f %5u %s", b->t,
		    __atomic_load_n(&b->refcnt, __ATOMIC_RELAXED),
		    f & BAN_F_COMPLETED ? "C" : "-");
		if (debug)
			fprintf(out, "%s %10ju %10ju", f & BAN_F_REQ ? "R" :
			    "-", (uintmax_t)b->tested, (uintmax_t)b->killed);
		/* Completed bans show what they were, as varnishd's list. */
		fprintf(out, "  %s\n", b->expr != NULL ?
		    BAN_ExprText(b->expr) : "");
	}
	LOCK_Unlock(&ban_mtx);
	if (json)
		fprintf(out, "\n]\n");
	return (CLIS_OK);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * obj.c -- objcores, objects and busy object contexts: creating an
 * object from a response, growing its body as the fetch reads it,
 * iterating over it (waiting for what is still coming), references and
 * release.  See obj.h for the reference rules.  boc->mtx guards a boc's
 * state and published length; the object itself is written by its fetch
 * only, before the length covering it is published.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <strings.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "cache/ban.h"
#include "cache/hash.h"
#include "cache/http.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/storage.h"
#include "cache/vsc.h"
#include "cache/ws.h"
#include "cache/xkey.h"

/* The flags of a stored object's headers: none (it has at most 65535). */
static const unsigned char obj_hdf_none[65536];

#define OBJ_ALIGN	(sizeof(void *))
#define OBJ_RND(x)	(((x) + OBJ_ALIGN - 1) & ~(OBJ_ALIGN - 1))
/*
 * What an object's entries in the indexes that grow with the cache cost:
 * the expiry heap's slot and the hash table's bucket (arrays that double:
 * up to 16 bytes each).
 */
#define OBJ_INDEX_COST	32

/* Every byte of these is paid per object: keep them in their classes. */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct objcore) <= 128, "objcore over 128 bytes");
_Static_assert(sizeof(struct objhead) <= 64, "objhead over 64 bytes");
_Static_assert(sizeof(struct object) <= 48, "object over 48 bytes");
#endif

struct objcore *
OBJ_NewCore(void)
{
	struct objcore *oc;

	ALLOC_OBJ(oc, OBJCORE_MAGIC);
	if (oc == NULL)
		return (NULL);
	oc->refcnt = 1;
	VSC_Add(n_objectcore, 1);
	return (oc);
}

void
OBJ_Ref(struct objcore *oc)
{

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	assert(__atomic_add_fetch(&oc->refcnt, 1, __ATOMIC_ACQ_REL) > 1);
}

unsigned
OBJ_Deref(struct objcore **ocp)
{
	struct objcore *oc;
	unsigned r;

	TAKE_OBJ_NOTNULL(oc, ocp, OBJCORE_MAGIC);
	r = __atomic_sub_fetch(&oc->refcnt, 1, __ATOMIC_ACQ_REL);
	if (r > 0)
		return (r);
	assert(oc->boc == NULL);
	assert(oc->exp_idx == 0);
	assert(oc->lru_list.tqe_prev == NULL);
	BAN_DestroyObj(oc);
	/* Out of the surrogate key index, if it was ever in. */
	assert(!(oc->xkey & XKEY_S_LINKED) || (oc->xkey & XKEY_S_GONE));
	OBJ_Slim(oc);
	if (oc->objhead != NULL)
		HSH_DerefObjhead(oc);
	VSC_Sub(n_objectcore, 1);
	FREE_OBJ(oc);
	return (0);
}

/*
 * What an object costs its store besides its own blocks: its objcore,
 * its objhead and its index entries.  The same while the objcore has
 * its object (OBJ_New to OBJ_Slim), so it is not kept.
 */
static size_t
obj_overhead(const struct objcore *oc)
{

	return (STV_Usable(oc) + (oc->objhead != NULL ?
	    STV_Usable(oc->objhead) : 0) + OBJ_INDEX_COST);
}

/* The header lines an object keeps: the end-to-end ones. */
static int
obj_keep(const struct http *hp, unsigned u)
{
	const struct txt *t = &hp->hd[u];

	/*
	 * A line must start with a name character: bytes up to a space are
	 * obj_put's codes.  (The parser and VCL make no other lines.)
	 */
	if (t->b == NULL || TXT_LEN(*t) == 0 || (unsigned char)*t->b <= ' ' ||
	    (hp->hdf[u] & HDF_FILTER))
		return (0);
	/* Delivery frames the body itself, and says its Age. */
	return (!HTTP_IsHdr(hp, u, "Content-Length", 14) &&
	    !HTTP_IsHdr(hp, u, "Transfer-Encoding", 17) &&
	    !HTTP_IsHdr(hp, u, "Age", 3));
}

/*
 * Stored header lines are shortened, since every byte is paid per
 * object: a line starting with a well-known name, spelled as most
 * servers do, keeps one byte (1 to 15) for "Name: "; and if that name's
 * value is a date written exactly as TIM_format writes it, the byte is
 * OBJ_DATE | name and the date six bytes of six bits each (0x40 | bits,
 * 36 bits of seconds, high first).  Any other line is kept as it came.
 * A line starts with a name character, above these codes; each ends
 * with a NUL, none has one inside.
 */
static const struct obj_name {
	const char	*str;
	unsigned	len;
	unsigned	date;
} obj_names[] = {
	{ NULL, 0, 0 },
	{ "Server: ", 8, 0 },
	{ "Date: ", 6, 1 },
	{ "Content-Type: ", 14, 0 },
	{ "Last-Modified: ", 15, 1 },
	{ "ETag: ", 6, 0 },
	{ "Cache-Control: ", 15, 0 },
	{ "Accept-Ranges: ", 15, 0 },
	{ "Expires: ", 9, 1 },
	{ "Vary: ", 6, 0 },
	{ "Content-Encoding: ", 18, 0 },
	{ "Location: ", 10, 0 },
	{ "Content-Language: ", 18, 0 },
	{ "Access-Control-Allow-Origin: ", 29, 0 },
	{ "Strict-Transport-Security: ", 27, 0 },
	{ "X-Content-Type-Options: ", 24, 0 },
};
#define OBJ_NAMES	(sizeof obj_names / sizeof obj_names[0])
#define OBJ_DATE	0x10
#define OBJ_DATE_LEN	6
#define OBJ_DATE_MAX	(1ULL << (6 * OBJ_DATE_LEN))
#define OBJ_DATE_TXT	(TIM_FORMAT_SIZE - 1)
_Static_assert(OBJ_NAMES <= OBJ_DATE, "too many header names for a code");

/* How line t is stored: its code (0: as it is), bytes with the NUL. */
static size_t
obj_code(const struct txt *t, unsigned *codep, uint64_t *whenp)
{
	const struct obj_name *nm;
	size_t l = TXT_LEN(*t);
	char buf[TIM_FORMAT_SIZE];
	vtim_real w;
	unsigned u;

	*codep = 0;
	for (u = 1; u < OBJ_NAMES; u++) {
		nm = &obj_names[u];
		if (l < nm->len || memcmp(t->b, nm->str, nm->len))
			continue;
		*codep = u;
		if (nm->date && l - nm->len == OBJ_DATE_TXT) {
			w = TIM_parse(t->b + nm->len, t->e);
			if (w > 0 && w < (vtim_real)OBJ_DATE_MAX) {
				TIM_format(w, buf);
				if (!memcmp(buf, t->b + nm->len, OBJ_DATE_TXT)) {
					*codep |= OBJ_DATE;
					*whenp = (uint64_t)w;
					return (1 + OBJ_DATE_LEN + 1);
				}
			}
		}
		return (1 + l - nm->len + 1);
	}
	return (l + 1);
}

/* Store line t at p (obj_code's bytes); past it. */
static char *
obj_put(char *p, const struct txt *t)
{
	unsigned code, u;
	uint64_t when = 0;
	size_t l, n;

	l = obj_code(t, &code, &when);
	if (code == 0) {
		n = l - 1;
	} else if (code & OBJ_DATE) {
		*p++ = (char)code;
		for (u = 0; u < OBJ_DATE_LEN; u++)
			*p++ = (char)(0x40 | ((when >> (6 * (OBJ_DATE_LEN - 1 -
			    u))) & 0x3f));
		*p = '\0';
		return (p + 1);
	} else {
		*p++ = (char)code;
		n = l - 2;
	}
	memcpy(p, t->e - n, n);
	p[n] = '\0';
	return (p + n + 1);
}

/* The length of stored line p (stored bytes with its NUL) as sent. */
static size_t
obj_line_len(const char *p, size_t stored)
{
	unsigned c = (unsigned char)*p;

	if (c >= 0x20)
		return (stored - 1);
	if (c & OBJ_DATE)
		return (obj_names[c & ~OBJ_DATE].len + OBJ_DATE_TXT);
	return (obj_names[c].len + stored - 2);
}

/* Write stored line p (a code) out at b, NUL-terminated; its length. */
static size_t
obj_line_expand(const char *p, size_t stored, char *b)
{
	const struct obj_name *nm;
	unsigned c = (unsigned char)*p, u;
	uint64_t when = 0;

	nm = &obj_names[c & ~OBJ_DATE];
	memcpy(b, nm->str, nm->len);
	if (c & OBJ_DATE) {
		for (u = 1; u <= OBJ_DATE_LEN; u++)
			when = when << 6 | ((unsigned char)p[u] & 0x3f);
		TIM_format((vtim_real)when, b + nm->len);
		return (nm->len + OBJ_DATE_TXT);
	}
	memcpy(b + nm->len, p + 1, stored - 1);	/* the value and its NUL */
	return (nm->len + stored - 2);
}

/* A private object is a delivery in progress: it must not fail. */
static enum stv_need
obj_need(const struct objcore *oc)
{

	return ((oc->flags & OC_F_PRIVATE) ? STV_MUST : STV_MAY);
}

struct object *
OBJ_New(struct worker *wrk, struct objcore *oc, struct stevedore *stv,
    const struct http *hp, uint64_t body_hint, const char *vary,
    size_t vary_len, const struct http *req)
{
	struct object *o;
	enum stv_need need;
	size_t hl, sz, charged, over, inl = 0;
	unsigned u, code, single = 0, ext = 0;
	uint64_t when;
	char *p, *data = NULL;
	struct txt url = { NULL, NULL }, host = { NULL, NULL };
	size_t rl = 1;		/* OBJ_Url's tag byte */
	int has_host = 0;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ(hp, HTTP_MAGIC);
	assert(oc->obj == NULL);
	if (req != NULL && req->hd[HTTP_HDR_URL].b != NULL) {
		url = req->hd[HTTP_HDR_URL];
		rl += TXT_LEN(url) + 1;
		has_host = HTTP_GetHdr(req, "Host", &host);
		if (has_host)
			rl += TXT_LEN(host) + 1;
	}
	hl = hp->hd[HTTP_HDR_REASON].b == NULL ? 1 :
	    TXT_LEN(hp->hd[HTTP_HDR_REASON]) + 1;
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++)
		if (obj_keep(hp, u))
			hl += obj_code(&hp->hd[u], &code, &when);
	if (hl + vary_len > UINT32_MAX || rl > UINT32_MAX)
		return (NULL);
	vary_len += rl;		/* the request's part, for the sizes */
	/*
	 * A body of known length that fits one block is that block, in
	 * this one or on its own: whichever the allocator's size classes
	 * make cheaper (1 KB with 250 bytes of headers fits 1280 bytes;
	 * with 300, 320 + 1024 beat 1536).
	 */
	if (body_hint != UINT64_MAX &&
	    body_hint <= cache_param->fetch_maxchunksize) {
		single = 1;
		inl = (size_t)body_hint;
	}
	sz = OBJ_RND(sizeof *o + hl + vary_len);
	if (inl > 0 && STV_Round(sz + inl) <= STV_Round(sz) + STV_Round(inl))
		sz += inl;
	else if (inl > 0)
		ext = 1;
	need = obj_need(oc);
	over = obj_overhead(oc);
	if (STV_Charge(wrk, stv, over, need) != 0)
		return (NULL);
	if (ext) {
		data = STV_Alloc(wrk, stv, inl, need, &charged);
		if (data == NULL) {
			STV_Uncharge(stv, over);
			return (NULL);
		}
	}
	o = STV_Alloc(wrk, stv, sz, need, &charged);
	if (o == NULL) {
		if (data != NULL)
			STV_Free(stv, data);
		STV_Uncharge(stv, over);
		return (NULL);
	}
	INIT_OBJ(o, OBJECT_MAGIC);
	o->status = hp->status;
	p = o->hdrs;
	if (hp->hd[HTTP_HDR_REASON].b != NULL) {
		memcpy(p, hp->hd[HTTP_HDR_REASON].b,
		    TXT_LEN(hp->hd[HTTP_HDR_REASON]));
		p += TXT_LEN(hp->hd[HTTP_HDR_REASON]);
	}
	*p++ = '\0';
	for (u = HTTP_HDR_FIRST; u < hp->nhd; u++)
		if (obj_keep(hp, u))
			p = obj_put(p, &hp->hd[u]);
	o->hdr_len = (uint32_t)hl;
	assert(p == o->hdrs + hl);
	if (vary_len > rl) {
		memcpy(p, vary, vary_len - rl);
		o->vary_len = (uint32_t)(vary_len - rl);
		p += vary_len - rl;
	}
	*p++ = (char)(url.b == NULL ? OBJ_REQ_NONE : has_host ?
	    OBJ_REQ_HOST : OBJ_REQ_URL);
	if (url.b != NULL) {
		memcpy(p, url.b, TXT_LEN(url));
		p[TXT_LEN(url)] = '\0';
		p += TXT_LEN(url) + 1;
		if (has_host) {
			memcpy(p, host.b, TXT_LEN(host));
			p[TXT_LEN(host)] = '\0';
		}
	}
	o->len_hint = body_hint;
	o->single = ext ? OBJ_BODY_OWN : single ? OBJ_BODY_IN : 0;
	if (ext)
		o->body = data;
	else if (inl > 0)
		o->body = (char *)o + OBJ_RND(sizeof *o + hl + vary_len);
	oc->stv = stv;
	oc->obj = o;
	return (o);
}

const char *
OBJ_FindHdr(const struct object *o, const char *name, char *buf,
    size_t buflen, size_t *lenp)
{
	const struct obj_name *nm;
	const char *p, *e, *v;
	size_t nl = strlen(name), l;
	unsigned c;

	CHECK_OBJ(o, OBJECT_MAGIC);
	assert(buflen >= TIM_FORMAT_SIZE);
	p = o->hdrs + strlen(o->hdrs) + 1;	/* past the reason */
	e = o->hdrs + o->hdr_len;
	for (; p < e; p += l + 1) {
		l = strlen(p);
		c = (unsigned char)*p;
		if (c >= 0x20) {
			if (l <= nl || p[nl] != ':' || strncasecmp(p, name, nl))
				continue;
			v = p + nl + 1;
		} else {
			nm = &obj_names[c & ~OBJ_DATE];
			if (nm->len - 2 != nl || strncasecmp(nm->str, name, nl))
				continue;
			if (c & OBJ_DATE) {
				char line[64];

				_Static_assert(sizeof line > 29 + OBJ_DATE_TXT,
				    "room for the longest date line");
				*lenp = obj_line_expand(p, l + 1, line) -
				    nm->len;
				memcpy(buf, line + nm->len, *lenp + 1);
				return (buf);
			}
			v = p + 1;
		}
		while (*v == ' ' || *v == '\t')
			v++;
		*lenp = strlen(v);
		while (*lenp > 0 && (v[*lenp - 1] == ' ' ||
		    v[*lenp - 1] == '\t'))
			(*lenp)--;
		return (v);
	}
	return (NULL);
}

void
OBJ_Slim(struct objcore *oc)
{
	struct object *o;
	struct obj_seg *seg, *next;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	o = oc->obj;
	if (o == NULL) {
		/* No object, a store: a charged marker. */
		if (oc->stv != NULL)
			STV_Uncharge(oc->stv, obj_overhead(oc));
		oc->stv = NULL;
		return;
	}
	CHECK_OBJ(o, OBJECT_MAGIC);
	oc->obj = NULL;
	if (o->single) {
		if (o->single == OBJ_BODY_OWN)
			STV_Free(oc->stv, o->body);
	} else {
		for (seg = o->first; seg != NULL; seg = next) {
			CHECK_OBJ(seg, OBJ_SEG_MAGIC);
			next = seg->next;
			seg->magic = 0;
			STV_Free(seg->stv, seg);
		}
	}
	if (o->has_esi)
		OBJ_FreeEsi(oc, &o->esi);
	STV_Uncharge(oc->stv, obj_overhead(oc));
	o->magic = 0;
	STV_Free(oc->stv, o);
	oc->stv = NULL;
}

int
OBJ_EsiAppend(struct worker *wrk, struct objcore *oc, struct obj_esi **esip,
    const void *p, size_t len)
{
	struct obj_esi *esi = *esip, *n;
	size_t want;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ_NOTNULL(oc->stv, STEVEDORE_MAGIC);
	CHECK_OBJ_ORNULL(esi, OBJ_ESI_MAGIC);
	if (esi != NULL && esi->space - esi->len >= len) {
		memcpy(esi->ops + esi->len, p, len);
		esi->len += (uint32_t)len;
		return (0);
	}
	want = esi == NULL ? 256 : (size_t)esi->space * 2;
	while (want < (esi == NULL ? 0 : esi->len) + len)
		want *= 2;
	if (want > UINT32_MAX)
		return (-1);
	n = STV_Alloc(wrk, oc->stv, sizeof *n + want, STV_MAY, NULL);
	if (n == NULL)
		return (-1);
	INIT_OBJ(n, OBJ_ESI_MAGIC);
	n->space = (uint32_t)want;
	if (esi != NULL) {
		memcpy(n->ops, esi->ops, esi->len);
		n->len = esi->len;
		OBJ_FreeEsi(oc, esip);
	}
	memcpy(n->ops + n->len, p, len);
	n->len += (uint32_t)len;
	*esip = n;
	return (0);
}

void
OBJ_SetEsi(struct objcore *oc, struct obj_esi **esip)
{

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ_NOTNULL(oc->obj, OBJECT_MAGIC);
	CHECK_OBJ_NOTNULL(*esip, OBJ_ESI_MAGIC);
	assert(!oc->obj->has_esi);
	/* The body is whole: its last piece is of no more use. */
	oc->obj->esi = *esip;
	oc->obj->has_esi = 1;
	*esip = NULL;
}

void
OBJ_FreeEsi(struct objcore *oc, struct obj_esi **esip)
{
	struct obj_esi *esi;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	TAKE_OBJ_NOTNULL(esi, esip, OBJ_ESI_MAGIC);
	esi->magic = 0;
	STV_Free(oc->stv, esi);
}

void
OBJ_ChargeMarker(struct worker *wrk, struct objcore *oc)
{

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	assert(oc->obj == NULL && oc->stv == NULL);
	/* STV_MUST: nukes to make room, and is counted if none is made. */
	ASSERT_ZERO(STV_Charge(wrk, stv_transient, obj_overhead(oc),
	    STV_MUST));
	oc->stv = stv_transient;
}

int
OBJ_EachHdr(const struct object *o, const char *name, obj_hdr_f *func,
    void *priv)
{
	const struct obj_name *nm;
	const char *p, *e, *v;
	size_t nl = strlen(name), l;
	unsigned c;
	int r;

	CHECK_OBJ(o, OBJECT_MAGIC);
	p = o->hdrs + strlen(o->hdrs) + 1;	/* past the reason */
	e = o->hdrs + o->hdr_len;
	for (; p < e; p += l + 1) {
		l = strlen(p);
		c = (unsigned char)*p;
		v = NULL;
		if (c >= 0x20) {
			if (l > nl && p[nl] == ':' && !strncasecmp(p, name, nl))
				v = p + nl + 1;
		} else if (!(c & OBJ_DATE)) {
			/* A coded name: "Name: " spelled as obj_names has it. */
			nm = &obj_names[c];
			if (nm->len == nl + 2 && !strncasecmp(nm->str, name, nl))
				v = p + 1;
		}
		if (v == NULL)
			continue;
		while (*v == ' ' || *v == '\t')
			v++;
		if ((r = func(priv, v)) != 0)
			return (r);
	}
	return (0);
}

struct http *
OBJ_Http(struct ws *ws, const struct object *o)
{
	struct http *hp;
	const char *p, *e;
	size_t l, xl = 0;
	unsigned n, u;
	char *st, *x;

	CHECK_OBJ(o, OBJECT_MAGIC);
	/* Count the lines, and what the coded ones take written out. */
	p = o->hdrs + strlen(o->hdrs) + 1;	/* past the reason */
	e = o->hdrs + o->hdr_len;
	for (n = HTTP_HDR_FIRST; p < e; n++) {
		l = strlen(p) + 1;
		if ((unsigned char)*p < 0x20)
			xl += obj_line_len(p, l) + 1;
		p += l;
	}
	if (n > sizeof obj_hdf_none)
		return (NULL);
	hp = WS_Alloc(ws, sizeof *hp);
	st = WS_Alloc(ws, 4 + xl);
	if (hp == NULL || st == NULL)
		return (NULL);
	INIT_OBJ(hp, HTTP_MAGIC);
	hp->hd = WS_Alloc(ws, n * sizeof *hp->hd);
	if (hp->hd == NULL)
		return (NULL);
	/* Read-only: VCL cannot change obj.http, nothing writes here. */
	hp->hd[HTTP_HDR_METHOD] = TXT_Make(NULL, NULL);
	hp->hd[HTTP_HDR_URL] = TXT_Make(NULL, NULL);
	hp->hd[HTTP_HDR_PROTO] = TXT_Str("HTTP/1.1");
	st[0] = (char)('0' + o->status / 100 % 10);
	st[1] = (char)('0' + o->status / 10 % 10);
	st[2] = (char)('0' + o->status % 10);
	st[3] = '\0';
	hp->hd[HTTP_HDR_STATUS] = TXT_Make(st, st + 3);
	hp->hd[HTTP_HDR_REASON] = TXT_Make(o->hdrs, o->hdrs + strlen(o->hdrs));
	p = hp->hd[HTTP_HDR_REASON].e + 1;
	x = st + 4;
	for (u = HTTP_HDR_FIRST; u < n; u++) {
		l = strlen(p) + 1;
		if ((unsigned char)*p >= 0x20) {
			hp->hd[u] = TXT_Make(p, p + l - 1);
		} else {
			hp->hd[u].b = x;
			x += obj_line_expand(p, l, x);
			hp->hd[u].e = x++;
		}
		p += l;
	}
	assert(x == st + 4 + xl);
	/* No flags on stored headers: a shared page of zeros stands in. */
	hp->hdf = (unsigned char *)(uintptr_t)obj_hdf_none;
	hp->shd = n;
	hp->nhd = n;
	hp->status = o->status;
	hp->protover = 11;
	hp->logtag = SLT_ObjMethod;
	return (hp);
}

char *
OBJ_GetSpace(struct worker *wrk, struct objcore *oc, size_t want,
    size_t *got)
{
	struct object *o;
	struct obj_seg *seg;
	struct stevedore *stv;
	size_t sz;
	uint64_t left;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	o = oc->obj;
	CHECK_OBJ(o, OBJECT_MAGIC);
	if (o->single) {
		/* Never more than the length it was made for. */
		if (o->len >= o->len_hint)
			return (NULL);
		*got = (size_t)(o->len_hint - o->len);
		return (o->body + o->len);
	}
	seg = o->last;
	if (seg != NULL && seg->used < seg->space) {
		*got = seg->space - seg->used;
		return (seg->buf + seg->used);
	}
	sz = want;
	if (o->len_hint != UINT64_MAX && o->len_hint > o->len) {
		left = o->len_hint - o->len;
		sz = left < cache_param->fetch_maxchunksize ? (size_t)left :
		    (size_t)cache_param->fetch_maxchunksize;
	} else {
		if (sz < cache_param->fetch_chunksize)
			sz = (size_t)cache_param->fetch_chunksize;
		if (sz > cache_param->fetch_maxchunksize)
			sz = (size_t)cache_param->fetch_maxchunksize;
	}
	stv = oc->stv;
	seg = STV_Alloc(wrk, stv, sizeof *seg + sz, obj_need(oc), NULL);
	if (seg == NULL && stv != stv_transient) {
		/* Finish the body in Transient; the object won't stay. */
		stv = stv_transient;
		seg = STV_Alloc(wrk, stv, sizeof *seg + sz, STV_MUST, NULL);
		o->spilled = 1;
	}
	if (seg == NULL)
		return (NULL);
	INIT_OBJ(seg, OBJ_SEG_MAGIC);
	seg->space = sz;
	seg->stv = stv;
	if (o->last != NULL)
		o->last->next = seg;
	else
		o->first = seg;
	o->last = seg;
	*got = sz;
	return (seg->buf);
}

uint64_t
OBJ_Extend(struct objcore *oc, size_t n)
{
	struct object *o;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	o = oc->obj;
	CHECK_OBJ(o, OBJECT_MAGIC);
	if (o->single) {
		assert(o->len + n <= o->len_hint);
	} else {
		assert(o->last != NULL);
		assert(o->last->used + n <= o->last->space);
		o->last->used += n;
	}
	o->len += n;
	return (o->len);
}

/* How much is readable, waiting for more than pos if it is coming. */
static enum boc_state
obj_wait_more(struct boc *boc, uint64_t pos, uint64_t *avail)
{
	enum boc_state st;

	LOCK_Lock(&boc->mtx);
	while (boc->len <= pos && boc->state < BOS_FINISHED) {
		POOL_Blocking();
		LOCK_Wait(&boc->cond, &boc->mtx);
	}
	*avail = boc->len;
	st = boc->state;
	LOCK_Unlock(&boc->mtx);
	return (st);
}

/* Transit: the reader is done with seg; free it, tell the fetch. */
static void
obj_transit_done(struct object *o, struct obj_seg *seg, struct boc *boc,
    uint64_t pos)
{

	if (seg != NULL) {
		assert(!o->single);
		assert(o->first == seg && seg->next != NULL);
		o->first = seg->next;
		seg->magic = 0;
		STV_Free(seg->stv, seg);
	}
	LOCK_Lock(&boc->mtx);
	boc->consumed = pos;
	ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	LOCK_Unlock(&boc->mtx);
}

/* The piece of the body that holds byte pos, [*startp, +*spacep). */
static const char *
obj_piece(const struct object *o, struct obj_seg **segp, uint64_t pos,
    uint64_t *startp, size_t *spacep)
{
	struct obj_seg *seg = *segp;

	if (o->single) {
		*startp = 0;
		*spacep = (size_t)o->len_hint;
		return (o->body);
	}
	if (seg == NULL) {
		seg = o->first;
		*startp = 0;
	}
	CHECK_OBJ(seg, OBJ_SEG_MAGIC);
	assert(pos >= *startp && pos - *startp <= seg->space);
	*segp = seg;
	*spacep = seg->space;
	return (seg->buf);
}

int
OBJ_Iterate(struct objcore *oc, struct boc *boc, uint64_t from,
    uint64_t to, void *priv, obj_iter_f *func)
{
	struct object *o;
	struct obj_seg *seg = NULL, *done;
	uint64_t pos = 0, seg_start = 0, avail, n, skip;
	enum boc_state st;
	const char *data;
	size_t space;
	int r;

	CHECK_OBJ(oc, OBJCORE_MAGIC);
	CHECK_OBJ_ORNULL(boc, BOC_MAGIC);
	o = oc->obj;
	CHECK_OBJ(o, OBJECT_MAGIC);
	/* A range is only ever asked of a shared, stored object. */
	assert(from == 0 || boc == NULL || !boc->transit);
	for (;;) {
		if (boc != NULL) {
			st = obj_wait_more(boc, pos, &avail);
			if (st == BOS_FAILED)
				return (-1);
		} else {
			avail = o->len;
			st = BOS_FINISHED;
		}
		if (avail > to)
			avail = to;
		while (pos < avail) {
			done = NULL;
			data = obj_piece(o, &seg, pos, &seg_start, &space);
			if (!o->single && pos - seg_start == space) {
				/* This piece is done: the next one. */
				seg_start += space;
				done = seg;
				seg = seg->next;
				data = obj_piece(o, &seg, pos, &seg_start,
				    &space);
			}
			if (done != NULL && boc != NULL && boc->transit) {
				/* Written out before it is freed. */
				r = func(priv, 1, NULL, 0);
				if (r != 0)
					return (r);
				obj_transit_done(o, done, boc, pos);
			}
			n = space - (pos - seg_start);
			if (n > avail - pos)
				n = avail - pos;
			skip = pos < from ? from - pos : 0;
			if (skip >= n) {
				pos += n;	/* before the range */
				continue;
			}
			r = func(priv, 0, data + (pos - seg_start) + skip,
			    (size_t)(n - skip));
			if (r != 0)
				return (r);
			pos += n;
			if (boc != NULL && boc->transit)
				obj_transit_done(o, NULL, boc, pos);
		}
		if (st >= BOS_FINISHED || pos >= to)
			return (0);
		/* More is coming: write out what we have meanwhile. */
		r = func(priv, 1, NULL, 0);
		if (r != 0)
			return (r);
	}
}

/*--------------------------------------------------------------------
 * Busy object contexts
 */

struct boc *
BOC_New(struct objcore *oc)
{
	pthread_condattr_t ca;
	struct boc *boc;

	ALLOC_OBJ(boc, BOC_MAGIC);
	if (boc == NULL)
		return (NULL);
	LOCK_Init(&boc->mtx);
	/* BOC_Wait's deadlines are monotonic. */
	ASSERT_ZERO(pthread_condattr_init(&ca));
	ASSERT_ZERO(pthread_condattr_setclock(&ca, CLOCK_MONOTONIC));
	ASSERT_ZERO(pthread_cond_init(&boc->cond, &ca));
	ASSERT_ZERO(pthread_condattr_destroy(&ca));
	boc->refcnt = 1;
	OBJ_Ref(oc);
	boc->oc = oc;
	return (boc);
}

void
BOC_Ref(struct boc *boc)
{

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	assert(boc->refcnt > 0);
	boc->refcnt++;
	LOCK_Unlock(&boc->mtx);
}

void
BOC_Deref(struct boc **bocp)
{
	struct boc *boc;
	unsigned r;

	TAKE_OBJ_NOTNULL(boc, bocp, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	r = --boc->refcnt;
	if (r == 1)	/* a throttled fetch may be waiting for us */
		ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	LOCK_Unlock(&boc->mtx);
	if (r > 0)
		return;
	assert(boc->waiters == 0);
	if (boc->oc != NULL)
		(void)OBJ_Deref(&boc->oc);
	LOCK_Fini(&boc->mtx);
	ASSERT_ZERO(pthread_cond_destroy(&boc->cond));
	FREE_OBJ(boc);
}

void
BOC_SetTarget(struct boc *boc, struct objcore *oc)
{
	struct objcore *old;

	CHECK_OBJ(boc, BOC_MAGIC);
	CHECK_OBJ_ORNULL(oc, OBJCORE_MAGIC);
	if (oc != NULL)
		OBJ_Ref(oc);
	LOCK_Lock(&boc->mtx);
	old = boc->oc;
	boc->oc = oc;
	LOCK_Unlock(&boc->mtx);
	if (old != NULL)
		(void)OBJ_Deref(&old);
}

struct objcore *
BOC_Target(struct boc *boc)
{
	struct objcore *oc;

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	oc = boc->oc;
	if (oc != NULL)
		OBJ_Ref(oc);
	LOCK_Unlock(&boc->mtx);
	return (oc);
}

void
BOC_SetState(struct boc *boc, enum boc_state state)
{

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	assert(state >= boc->state);
	boc->state = state;
	ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	LOCK_Unlock(&boc->mtx);
}

enum boc_state
BOC_State(struct boc *boc)
{
	enum boc_state st;

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	st = boc->state;
	LOCK_Unlock(&boc->mtx);
	return (st);
}

void
BOC_Extend(struct boc *boc, uint64_t len)
{

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	assert(len >= boc->len);
	boc->len = len;
	ASSERT_ZERO(pthread_cond_broadcast(&boc->cond));
	LOCK_Unlock(&boc->mtx);
}

int
BOC_Throttle(struct boc *boc, uint64_t len, uint64_t limit)
{
	int r = 0;

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	while (len - boc->consumed >= limit) {
		if (boc->refcnt < 2) {
			r = -1;
			break;
		}
		POOL_Blocking();
		LOCK_Wait(&boc->cond, &boc->mtx);
	}
	LOCK_Unlock(&boc->mtx);
	return (r);
}

enum boc_state
BOC_Wait(struct boc *boc, enum boc_state want, vtim_mono deadline)
{
	struct timespec ts;
	enum boc_state st;
	int i;

	CHECK_OBJ(boc, BOC_MAGIC);
	LOCK_Lock(&boc->mtx);
	while (boc->state < want) {
		POOL_Blocking();
		if (deadline == 0) {
			LOCK_Wait(&boc->cond, &boc->mtx);
			continue;
		}
		ts = TIM_timespec(deadline);
		i = LOCK_TimedWait(&boc->cond, &boc->mtx, &ts);
		if (i == ETIMEDOUT)
			break;
		assert(i == 0);
	}
	st = boc->state;
	LOCK_Unlock(&boc->mtx);
	return (st);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ncsa.c -- veneerncsa's formats: a format string compiled into a list
 * of items, and one transaction rendered into a line.  Owns struct
 * ncsa_format.  No state between calls.
 *
 * What each code prints, when the value is missing and how text is
 * escaped follow varnishncsa 7.1, checked with hand-made log files: the
 * first record of a kind counts (first ReqMethod, first Start
 * timestamp...), except the status and %{X}i/%{X}o headers, where the
 * last one counts; %r is "%m http://HOST%U%q %H" with the first Host
 * header; text is escaped C-style (\" \\ \n \r \t \v \xNN).  With
 * NCSA_JSON (-j) missing text is "" and missing numbers 0, and escapes
 * are JSON's; unlike varnishncsa, which lets \v and bytes that are not
 * UTF-8 through, -j output is always valid JSON text (\u000b, \u00NN).
 */

#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/miniobj.h"
#include "ncsa.h"
#include "vsl_format.h"

#define NCSA_MAXITEM		256

/* Values taken from the records. */
enum frag_id {
	F_h, F_m, F_U, F_q, F_H, F_s, F_I, F_b, F_O,
	F_tstart, F_tend, F_ttfb, F_auth, F_host,
	F__MAX
};

struct frag {
	const char		*b;
	const char		*e;
	int			set;
};

enum item_kind {
	IT_TEXT,		/* literal text */
	IT_FRAG,		/* a value, with its defaults */
	IT_REQUEST,		/* %r */
	IT_TIME,		/* %t */
	IT_STRFTIME,		/* %{X}t */
	IT_DURATION,		/* %D %T %{X}T */
	IT_REQHDR,		/* %{X}i */
	IT_RESPHDR,		/* %{X}o */
	IT_USER,		/* %u */
	IT_HITMISS,
	IT_HANDLING,
	IT_SIDE,
	IT_VXID,
	IT_VCLLOG,		/* %{VCL_Log:key}x */
};

enum time_sub {
	TS_STRFTIME, TS_SEC, TS_MSEC, TS_USEC, TS_MSEC_FRAC, TS_USEC_FRAC,
};

struct item {
	enum item_kind		kind;
	char			*arg;		/* text, name, key, format */
	size_t			arglen;
	enum frag_id		frag;		/* IT_FRAG */
	const char		*def;		/* missing value */
	const char		*jdef;		/* missing value, -j */
	double			scale;		/* IT_DURATION */
	enum time_sub		tsub;		/* IT_STRFTIME */
};

struct ncsa_format {
	unsigned		magic;
#define NCSA_FORMAT_MAGIC	0x6e35a1c8
	struct item		*items;
	unsigned		nitem;
	int			timed;		/* has a time code: needs the
						   Start timestamp */
};

/*--------------------------------------------------------------------
 * Output buffer.
 */

static int
buf_put(struct ncsa_buf *buf, const void *p, size_t len)
{
	size_t cap;
	char *b;

	if (buf->len + len + 1 > buf->cap) {
		cap = buf->cap ? buf->cap : 256;
		while (cap < buf->len + len + 1)
			cap *= 2;
		b = realloc(buf->b, cap);
		if (b == NULL)
			return (-1);
		buf->b = b;
		buf->cap = cap;
	}
	memcpy(buf->b + buf->len, p, len);
	buf->len += len;
	buf->b[buf->len] = '\0';
	return (0);
}

static int
buf_str(struct ncsa_buf *buf, const char *s)
{

	return (buf_put(buf, s, strlen(s)));
}

static int __attribute__((__format__(__printf__, 2, 3)))
buf_printf(struct ncsa_buf *buf, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return (-1);
	return (buf_put(buf, tmp, (size_t)n < sizeof tmp ? (size_t)n :
	    sizeof tmp - 1));
}

void
NCSA_BufFini(struct ncsa_buf *buf)
{

	free(buf->b);
	memset(buf, 0, sizeof *buf);
}

/* Length of a valid UTF-8 sequence at p (of at most n bytes), or 0. */
static size_t
utf8_len(const unsigned char *p, size_t n)
{
	size_t len, u;
	uint32_t cp;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1fU;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0fU;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07U;
	else
		return (0);
	if (len > n)
		return (0);
	for (u = 1; u < len; u++) {
		if ((p[u] & 0xc0) != 0x80)
			return (0);
		cp = cp << 6 | (p[u] & 0x3fU);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return (0);
	return (len);
}

/* Escaped text, as varnishncsa escapes it (see the top of the file). */
static int
buf_esc(struct ncsa_buf *buf, const char *b, const char *e, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)b;
	const unsigned char *pe = (const unsigned char *)e;
	size_t n;
	int r = 0;

	for (; p < pe && r == 0; p++) {
		switch (*p) {
		case '"':	r = buf_str(buf, "\\\""); continue;
		case '\\':	r = buf_str(buf, "\\\\"); continue;
		case '\n':	r = buf_str(buf, "\\n"); continue;
		case '\r':	r = buf_str(buf, "\\r"); continue;
		case '\t':	r = buf_str(buf, "\\t"); continue;
		case '\v':
			r = buf_str(buf, flags & NCSA_JSON ? "\\u000b" :
			    "\\v");
			continue;
		default:
			break;
		}
		if (*p >= ' ' && *p < 0x7f) {
			r = buf_put(buf, p, 1);
		} else if (!(flags & NCSA_JSON)) {
			r = buf_printf(buf, "\\x%02x", *p);
		} else if (*p == 0x7f) {
			r = buf_put(buf, p, 1);
		} else if (*p >= 0x80 && (n = utf8_len(p, (size_t)(pe - p))) >
		    0) {
			r = buf_put(buf, p, n);
			p += n - 1;
		} else {
			r = buf_printf(buf, "\\u%04x", *p);
		}
	}
	return (r);
}

/*--------------------------------------------------------------------
 * Compiling formats.
 */

static void
items_free(struct item *it, unsigned n)
{
	unsigned u;

	for (u = 0; u < n; u++)
		free(it[u].arg);
	free(it);
}

void
NCSA_Free(struct ncsa_format **fp)
{
	struct ncsa_format *f;

	TAKE_OBJ_NOTNULL(f, fp, NCSA_FORMAT_MAGIC);
	items_free(f->items, f->nitem);
	FREE_OBJ(f);
}

struct compile {
	struct ncsa_format	*f;
	const char		*fmt;
	char			*err;
	size_t			errlen;
	int			failed;
};

static void __attribute__((__format__(__printf__, 3, 4)))
compile_err(struct compile *c, const char *at, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (c->failed)
		return;
	c->failed = 1;
	va_start(ap, fmt);
	n = (size_t)vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	if (n < c->errlen)
		(void)snprintf(c->err + n, c->errlen - n, " at column %zu "
		    "of the format", (size_t)(at - c->fmt) + 1);
}

static struct item *
compile_add(struct compile *c, enum item_kind kind, const char *at)
{
	struct item *it;

	if (c->f->nitem == NCSA_MAXITEM) {
		compile_err(c, at, "too many codes (at most %d)",
		    NCSA_MAXITEM);
		return (NULL);
	}
	it = &c->f->items[c->f->nitem++];
	memset(it, 0, sizeof *it);
	it->kind = kind;
	return (it);
}

/* Literal text, \n and \t turned into newline and tab. */
static void
compile_text(struct compile *c, const char *b, const char *e)
{
	struct item *it;
	char *d;

	if (b == e)
		return;
	it = compile_add(c, IT_TEXT, b);
	if (it == NULL)
		return;
	it->arg = malloc((size_t)(e - b) + 1);
	if (it->arg == NULL) {
		compile_err(c, b, "out of memory");
		return;
	}
	for (d = it->arg; b < e; b++) {
		if (*b == '\\' && b + 1 < e) {
			b++;
			*d++ = *b == 'n' ? '\n' : *b == 't' ? '\t' : *b;
		} else
			*d++ = *b;
	}
	*d = '\0';
	it->arglen = (size_t)(d - it->arg);
}

static void
compile_frag(struct compile *c, const char *at, enum frag_id frag,
    const char *def, const char *jdef)
{
	struct item *it;

	it = compile_add(c, IT_FRAG, at);
	if (it == NULL)
		return;
	it->frag = frag;
	it->def = def;
	it->jdef = jdef;
}

/* A plain code: %b, %h... */
static void
compile_code(struct compile *c, const char *at, char code)
{
	struct item *it = NULL;

	switch (code) {
	case 'b': compile_frag(c, at, F_b, "-", "0"); return;
	case 'H': compile_frag(c, at, F_H, "HTTP/1.0", "HTTP/1.0"); return;
	case 'h': compile_frag(c, at, F_h, "-", ""); return;
	case 'I': compile_frag(c, at, F_I, "-", "0"); return;
	case 'm': compile_frag(c, at, F_m, "-", ""); return;
	case 'O': compile_frag(c, at, F_O, "-", "0"); return;
	case 'q': compile_frag(c, at, F_q, "", ""); return;
	case 's': compile_frag(c, at, F_s, "-", "0"); return;
	case 'U': compile_frag(c, at, F_U, "-", ""); return;
	case 'l':
		it = compile_add(c, IT_TEXT, at);
		if (it != NULL)
			it->arg = strdup("-");
		break;
	case '%':
		it = compile_add(c, IT_TEXT, at);
		if (it != NULL)
			it->arg = strdup("%");
		break;
	case 'r': (void)compile_add(c, IT_REQUEST, at); return;
	case 't': (void)compile_add(c, IT_TIME, at); return;
	case 'u': (void)compile_add(c, IT_USER, at); return;
	case 'D':
	case 'T':
		it = compile_add(c, IT_DURATION, at);
		if (it != NULL)
			it->scale = code == 'D' ? 1e6 : 1;
		return;
	default:
		compile_err(c, at, "unknown format code %%%c (veneerncsa(1) "
		    "lists them)", code);
		return;
	}
	if (it != NULL && it->arg == NULL)
		compile_err(c, at, "out of memory");
	else if (it != NULL)
		it->arglen = strlen(it->arg);
}

/* %{Veneer:...}x and the rest of the x codes. */
static void
compile_x(struct compile *c, const char *at, const char *arg)
{
	static const struct {
		const char	*name;
		enum item_kind	kind;
	} ext[] = {
		{ "hitmiss", IT_HITMISS }, { "handling", IT_HANDLING },
		{ "side", IT_SIDE }, { "vxid", IT_VXID },
	};
	struct item *it;
	const char *name = NULL;
	size_t u;

	if (!strncmp(arg, "Veneer:", 7))
		name = arg + 7;
	else if (!strncmp(arg, "Varnish:", 8))	/* varnishncsa's spelling */
		name = arg + 8;
	if (name != NULL && !strcmp(name, "time_firstbyte")) {
		compile_frag(c, at, F_ttfb, "-", "0");
		return;
	}
	for (u = 0; name != NULL && u < sizeof ext / sizeof ext[0]; u++)
		if (!strcmp(name, ext[u].name)) {
			(void)compile_add(c, ext[u].kind, at);
			return;
		}
	if (!strncmp(arg, "VCL_Log:", 8) && arg[8] != '\0') {
		it = compile_add(c, IT_VCLLOG, at);
		if (it == NULL)
			return;
		it->arg = strdup(arg + 8);
		if (it->arg == NULL)
			compile_err(c, at, "out of memory");
		else
			it->arglen = strlen(it->arg);
		return;
	}
	compile_err(c, at, "unknown %%{%s}x: use Veneer:hitmiss, "
	    "Veneer:handling, Veneer:side, Veneer:vxid, "
	    "Veneer:time_firstbyte or VCL_Log:KEY", arg);
}

static void
compile_t(struct compile *c, const char *at, const char *arg, char code)
{
	static const char * const subs[] = {
		[TS_SEC] = "sec", [TS_MSEC] = "msec", [TS_USEC] = "usec",
		[TS_MSEC_FRAC] = "msec_frac", [TS_USEC_FRAC] = "usec_frac",
	};
	struct item *it;
	unsigned u;

	if (code == 'T') {
		it = compile_add(c, IT_DURATION, at);
		if (it == NULL)
			return;
		if (!strcmp(arg, "s"))
			it->scale = 1;
		else if (!strcmp(arg, "ms"))
			it->scale = 1e3;
		else if (!strcmp(arg, "us"))
			it->scale = 1e6;
		else
			compile_err(c, at, "unknown %%{%s}T: the unit is s, ms "
			    "or us", arg);
		return;
	}
	it = compile_add(c, IT_STRFTIME, at);
	if (it == NULL)
		return;
	for (u = TS_SEC; u <= TS_USEC_FRAC; u++)
		if (!strcmp(arg, subs[u]))
			it->tsub = (enum time_sub)u;
	it->arg = strdup(arg);
	if (it->arg == NULL)
		compile_err(c, at, "out of memory");
}

/* %{ARG}C at at; returns the end. */
static const char *
compile_braced(struct compile *c, const char *at)
{
	const char *b = at + 2, *e;
	struct item *it;
	char *arg;

	e = strchr(b, '}');
	if (e == NULL) {
		compile_err(c, at, "%%{ is never closed by }");
		return (at + strlen(at));
	}
	if (e[1] == '\0') {
		compile_err(c, at, "%%{...} needs a code after it (i, o, t, "
		    "T or x)");
		return (e + 1);
	}
	arg = strndup(b, (size_t)(e - b));
	if (arg == NULL) {
		compile_err(c, at, "out of memory");
		return (e + 2);
	}
	switch (e[1]) {
	case 'i':
	case 'o':
		it = compile_add(c, e[1] == 'i' ? IT_REQHDR : IT_RESPHDR, at);
		if (it != NULL) {
			it->arg = arg;
			it->arglen = strlen(arg);
			arg = NULL;
		}
		break;
	case 't':
	case 'T':
		compile_t(c, at, arg, e[1]);
		break;
	case 'x':
		compile_x(c, at, arg);
		break;
	default:
		compile_err(c, at, "unknown format code %%{%s}%c "
		    "(veneerncsa(1) lists them)", arg, e[1]);
		break;
	}
	free(arg);
	return (e + 2);
}

struct ncsa_format *
NCSA_New(const char *fmt, char *err, size_t errlen)
{
	struct compile c;
	const char *p, *text;
	unsigned u;

	assert(fmt != NULL);
	memset(&c, 0, sizeof c);
	c.fmt = fmt;
	c.err = err;
	c.errlen = errlen;
	ALLOC_OBJ(c.f, NCSA_FORMAT_MAGIC);
	if (c.f != NULL)
		c.f->items = calloc(NCSA_MAXITEM, sizeof *c.f->items);
	if (c.f == NULL || c.f->items == NULL) {
		(void)snprintf(err, errlen, "out of memory");
		if (c.f != NULL)
			FREE_OBJ(c.f);
		return (NULL);
	}
	for (p = text = fmt; *p != '\0' && !c.failed; ) {
		if (*p == '\\' && p[1] != '\0') {
			p += 2;
			continue;
		}
		if (*p != '%') {
			p++;
			continue;
		}
		compile_text(&c, text, p);
		if (p[1] == '\0') {
			compile_err(&c, p, "the format ends with a lone %%");
			break;
		}
		if (p[1] == '{')
			p = compile_braced(&c, p);
		else {
			compile_code(&c, p, p[1]);
			p += 2;
		}
		text = p;
	}
	if (!c.failed)
		compile_text(&c, text, p);
	for (u = 0; u < c.f->nitem; u++)
		if (c.f->items[u].kind == IT_TIME ||
		    c.f->items[u].kind == IT_STRFTIME ||
		    c.f->items[u].kind == IT_DURATION)
			c.f->timed = 1;
	if (c.failed) {
		items_free(c.f->items, c.f->nitem);
		FREE_OBJ(c.f);
		return (NULL);
	}
	return (c.f);
}

/*--------------------------------------------------------------------
 * Reading a transaction.
 */

struct scan {
	struct frag		frag[F__MAX];
	struct frag		val[NCSA_MAXITEM];	/* headers, VCL_Log */
	const char		*hitmiss;
	const char		*handling;
	int			skip;
	int			backend;
	unsigned		nside;		/* records of our side */
	unsigned		flags;
};

/* [b, e) without leading and trailing blanks. */
static void
trim(const char **b, const char **e)
{

	while (*b < *e && isspace((unsigned char)**b))
		(*b)++;
	while (*e > *b && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

static void
frag_set(struct frag *f, const char *b, const char *e, int force)
{

	if (f->set && !force)
		return;		/* the first one counts */
	f->b = b;
	f->e = e;
	f->set = 1;
}

/* The n-th blank-separated field of [b, e), if there is one. */
static int
field(const char *b, const char *e, unsigned n, const char **fb,
    const char **fe)
{

	for (;;) {
		while (b < e && isspace((unsigned char)*b))
			b++;
		if (b == e)
			return (0);
		*fb = b;
		while (b < e && !isspace((unsigned char)*b))
			b++;
		*fe = b;
		if (--n == 0)
			return (1);
	}
}

static void
frag_field(struct frag *f, const char *b, const char *e, unsigned n)
{
	const char *fb, *fe;

	if (!f->set && field(b, e, n, &fb, &fe))
		frag_set(f, fb, fe, 0);
}

/* "Name: value": if [b, e) starts with name and a colon (any case). */
static int
header_is(const char *b, const char *e, const char *name, size_t len,
    const char **vb)
{

	if ((size_t)(e - b) <= len || strncasecmp(b, name, len) != 0 ||
	    b[len] != ':')
		return (0);
	*vb = b + len + 1;
	return (1);
}

static void
scan_timestamp(struct scan *s, const char *b, const char *e)
{
	static const struct {
		const char	*label;
		enum frag_id	frag;
		unsigned	field;
	} ts[] = {
		{ "Start:", F_tstart, 1 },
		{ "Resp:", F_tend, 1 }, { "PipeSess:", F_tend, 1 },
		{ "BerespBody:", F_tend, 1 },
		{ "Process:", F_ttfb, 2 }, { "Pipe:", F_ttfb, 2 },
		{ "Beresp:", F_ttfb, 2 },
	};
	size_t u, n;

	for (u = 0; u < sizeof ts / sizeof ts[0]; u++) {
		n = strlen(ts[u].label);
		if ((size_t)(e - b) >= n && !memcmp(b, ts[u].label, n)) {
			frag_field(&s->frag[ts[u].frag], b + n, e,
			    ts[u].field);
			return;
		}
	}
}

static void
scan_header(struct scan *s, const struct ncsa_format *f, enum item_kind k,
    const char *b, const char *e)
{
	const char *vb, *ve;
	unsigned u;

	for (u = 0; u < f->nitem; u++) {
		if (f->items[u].kind != k || !header_is(b, e, f->items[u].arg,
		    f->items[u].arglen, &vb))
			continue;
		ve = e;
		trim(&vb, &ve);
		frag_set(&s->val[u], vb, ve, 1);	/* the last counts */
	}
	if (k != IT_REQHDR)
		return;
	if (header_is(b, e, "Host", 4, &vb)) {
		ve = e;
		trim(&vb, &ve);
		frag_set(&s->frag[F_host], vb, ve, 0);
	}
	if (header_is(b, e, "Authorization", 13, &vb)) {
		ve = e;
		trim(&vb, &ve);
		if (ve - vb > 6 && !strncasecmp(vb, "basic ", 6)) {
			vb += 6;
			trim(&vb, &ve);
			frag_set(&s->frag[F_auth], vb, ve, 0);
		}
	}
}

static void
scan_vcl_log(struct scan *s, const struct ncsa_format *f, const char *b,
    const char *e)
{
	const char *vb, *ve;
	unsigned u;

	for (u = 0; u < f->nitem; u++) {
		if (f->items[u].kind != IT_VCLLOG || s->val[u].set ||
		    (size_t)(e - b) <= f->items[u].arglen ||
		    memcmp(b, f->items[u].arg, f->items[u].arglen) != 0 ||
		    b[f->items[u].arglen] != ':')
			continue;
		vb = b + f->items[u].arglen + 1;
		ve = e;
		trim(&vb, &ve);
		frag_set(&s->val[u], vb, ve, 0);	/* the first counts */
	}
}

static int
is(const char *b, const char *e, const char *s)
{

	return ((size_t)(e - b) == strlen(s) && !strncasecmp(b, s, strlen(s)));
}

static void
scan_vcl(struct scan *s, unsigned tag, const char *b, const char *e)
{

	if (tag == SLT_VCL_call) {
		if (is(b, e, "recv"))
			s->hitmiss = s->handling = "-";
		else if (is(b, e, "hit"))
			s->hitmiss = s->handling = "hit";
		else if (is(b, e, "miss"))
			s->hitmiss = s->handling = "miss";
		else if (is(b, e, "pass"))
			s->hitmiss = "miss", s->handling = "pass";
		else if (is(b, e, "synth"))
			s->hitmiss = "miss", s->handling = "synth";
		return;
	}
	if (is(b, e, "pipe"))
		s->hitmiss = "miss", s->handling = "pipe";
	else if (is(b, e, "restart"))
		s->skip = 1;		/* the restarted request logs */
}

static void
scan_url(struct scan *s, const char *b, const char *e)
{
	const char *q;

	if (s->frag[F_U].set)
		return;
	q = memchr(b, '?', (size_t)(e - b));
	if (q == NULL)
		q = e;
	frag_set(&s->frag[F_U], b, q, 0);
	frag_set(&s->frag[F_q], q, e, 0);
}

/* One record of a client (be = 0) or backend request. */
static void
scan_rec(struct scan *s, const struct ncsa_format *f,
    const struct vapi_rec *rec)
{
	const char *b = rec->data, *e = rec->data + rec->len;
	int be = s->backend;

	/* Only the side's records (marker c or b), as varnishncsa. */
	if (!(s->flags & NCSA_ANYSIDE) && rec->side != (be ? 'b' : 'c'))
		return;
	s->nside++;
	if (VAPI_TagFlags(rec->tag) != 0)
		return;		/* binary, unsafe or unused: not for us */
	while (e > b && e[-1] == '\0')
		e--;
	switch (rec->tag) {
	case SLT_ReqStart:	if (!be) frag_field(&s->frag[F_h], b, e, 1);
				break;
	case SLT_BackendOpen:	if (be) frag_field(&s->frag[F_h], b, e, 3);
				break;
	case SLT_ReqMethod:	if (!be) frag_set(&s->frag[F_m], b, e, 0);
				break;
	case SLT_BereqMethod:	if (be) frag_set(&s->frag[F_m], b, e, 0);
				break;
	case SLT_ReqURL:	if (!be) scan_url(s, b, e);
				break;
	case SLT_BereqURL:	if (be) scan_url(s, b, e);
				break;
	case SLT_ReqProtocol:	if (!be) frag_set(&s->frag[F_H], b, e, 0);
				break;
	case SLT_BereqProtocol:	if (be) frag_set(&s->frag[F_H], b, e, 0);
				break;
	case SLT_RespStatus:	if (!be) frag_set(&s->frag[F_s], b, e, 1);
				break;
	case SLT_BerespStatus:	if (be) frag_set(&s->frag[F_s], b, e, 1);
				break;
	case SLT_ReqAcct:
	case SLT_BereqAcct:
		if ((rec->tag == SLT_BereqAcct) != be)
			break;
		frag_field(&s->frag[F_I], b, e, 3);
		frag_field(&s->frag[F_b], b, e, 5);
		frag_field(&s->frag[F_O], b, e, 6);
		break;
	case SLT_PipeAcct:
		if (be)
			break;
		frag_field(&s->frag[F_I], b, e, 3);
		frag_field(&s->frag[F_O], b, e, 4);
		break;
	case SLT_Timestamp:	scan_timestamp(s, b, e);
				break;
	case SLT_ReqHeader:
	case SLT_BereqHeader:
		if ((rec->tag == SLT_BereqHeader) == be)
			scan_header(s, f, IT_REQHDR, b, e);
		break;
	case SLT_RespHeader:
	case SLT_BerespHeader:
		if ((rec->tag == SLT_BerespHeader) == be)
			scan_header(s, f, IT_RESPHDR, b, e);
		break;
	case SLT_VCL_call:
	case SLT_VCL_return:	scan_vcl(s, rec->tag, b, e);
				break;
	case SLT_VCL_Log:	scan_vcl_log(s, f, b, e);
				break;
	default:
		break;
	}
}

/*--------------------------------------------------------------------
 * Rendering.
 */

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Decode base64 [b, e) into d (room for (e - b) bytes); -1 if bad. */
static ssize_t
b64_decode(const char *b, const char *e, char *d)
{
	const char *p;
	uint32_t acc = 0;
	unsigned nbits = 0;
	ssize_t n = 0;

	for (; b < e && *b != '='; b++) {
		p = memchr(b64_alphabet, *b, 64);
		if (p == NULL || *b == '\0')
			return (-1);
		acc = acc << 6 | (uint32_t)(p - b64_alphabet);
		nbits += 6;
		if (nbits >= 8) {
			nbits -= 8;
			d[n++] = (char)(acc >> nbits);
			acc &= (1U << nbits) - 1;
		}
	}
	for (; b < e; b++)
		if (*b != '=')
			return (-1);
	return (n);
}

static int
render_user(const struct scan *s, struct ncsa_buf *buf, unsigned flags)
{
	const struct frag *f = &s->frag[F_auth];
	char *d;
	const char *colon;
	ssize_t n;
	int r;

	if (!f->set)
		return (buf_str(buf, "-"));
	d = malloc((size_t)(f->e - f->b) + 1);
	if (d == NULL)
		return (-1);
	n = b64_decode(f->b, f->e, d);
	if (n < 0) {
		free(d);
		return (buf_str(buf, "-"));
	}
	colon = memchr(d, ':', (size_t)n);
	r = buf_esc(buf, d, colon != NULL ? colon : d + n, flags);
	free(d);
	return (r);
}

static int
frag_double(const struct frag *f, double *v)
{
	char tmp[64], *end;
	size_t n;

	if (!f->set)
		return (-1);
	n = (size_t)(f->e - f->b);
	if (n == 0 || n >= sizeof tmp)
		return (-1);
	memcpy(tmp, f->b, n);
	tmp[n] = '\0';
	*v = strtod(tmp, &end);
	return (end == tmp || !isfinite(*v) ? -1 : 0);
}

static int
render_time(const struct item *it, const struct scan *s,
    struct ncsa_buf *buf)
{
	char tmp[256];
	struct tm tm;
	time_t t;
	double ts;
	size_t n;

	if (frag_double(&s->frag[F_tstart], &ts) != 0)
		return (buf_str(buf, "-"));	/* not reached: checked */
	t = (time_t)ts;
	switch (it->kind == IT_TIME ? TS_STRFTIME : it->tsub) {
	case TS_SEC:
		return (buf_printf(buf, "%jd", (intmax_t)ts));
	case TS_MSEC:
		return (buf_printf(buf, "%jd", (intmax_t)(ts * 1e3)));
	case TS_USEC:
		return (buf_printf(buf, "%jd", (intmax_t)(ts * 1e6)));
	case TS_MSEC_FRAC:
		return (buf_printf(buf, "%03jd", (intmax_t)((ts - floor(ts)) *
		    1e3)));
	case TS_USEC_FRAC:
		return (buf_printf(buf, "%06jd", (intmax_t)((ts - floor(ts)) *
		    1e6)));
	default:
		break;
	}
	if (localtime_r(&t, &tm) == NULL)
		return (buf_str(buf, "-"));
	n = strftime(tmp, sizeof tmp, it->kind == IT_TIME ?
	    "[%d/%b/%Y:%T %z]" : it->arg, &tm);
	return (buf_put(buf, tmp, n));
}

static int
render_duration(const struct item *it, const struct scan *s,
    struct ncsa_buf *buf)
{
	double t0, t1;

	if (frag_double(&s->frag[F_tstart], &t0) != 0 ||
	    frag_double(&s->frag[F_tend], &t1) != 0)
		return (buf_str(buf, "0"));
	return (buf_printf(buf, "%jd", (intmax_t)((t1 - t0) * it->scale)));
}

/* %r: "%m http://%{Host}i%U%q %H" with the first Host. */
static int
render_request(const struct scan *s, struct ncsa_buf *buf, unsigned flags)
{
	const struct frag *fr = s->frag;
	int r = 0;

	r |= fr[F_m].set ? buf_esc(buf, fr[F_m].b, fr[F_m].e, flags) :
	    buf_str(buf, "-");
	r |= buf_str(buf, " http://");
	r |= fr[F_host].set ? buf_esc(buf, fr[F_host].b, fr[F_host].e,
	    flags) : buf_str(buf, "localhost");
	if (fr[F_U].set)
		r |= buf_esc(buf, fr[F_U].b, fr[F_U].e, flags);
	if (fr[F_q].set)
		r |= buf_esc(buf, fr[F_q].b, fr[F_q].e, flags);
	r |= buf_str(buf, " ");
	r |= fr[F_H].set ? buf_esc(buf, fr[F_H].b, fr[F_H].e, flags) :
	    buf_str(buf, "HTTP/1.0");
	return (r);
}

static int
render_item(const struct item *it, const struct frag *val,
    const struct scan *s, const struct vapi_tx *tx, unsigned flags,
    struct ncsa_buf *buf)
{
	const struct frag *f;

	switch (it->kind) {
	case IT_TEXT:
		return (buf_put(buf, it->arg, it->arglen));
	case IT_FRAG:
		f = &s->frag[it->frag];
		if (f->set)
			return (buf_esc(buf, f->b, f->e, flags));
		return (buf_str(buf, flags & NCSA_JSON ? it->jdef : it->def));
	case IT_REQHDR:
	case IT_RESPHDR:
		if (val->set)
			return (buf_esc(buf, val->b, val->e, flags));
		return (buf_str(buf, flags & NCSA_JSON ? "" : "-"));
	case IT_VCLLOG:
		return (val->set ? buf_esc(buf, val->b, val->e, flags) : 0);
	case IT_REQUEST:
		return (render_request(s, buf, flags));
	case IT_TIME:
	case IT_STRFTIME:
		return (render_time(it, s, buf));
	case IT_DURATION:
		return (render_duration(it, s, buf));
	case IT_USER:
		return (render_user(s, buf, flags));
	case IT_HITMISS:
		return (buf_str(buf, s->hitmiss));
	case IT_HANDLING:
		return (buf_str(buf, s->handling));
	case IT_SIDE:
		return (buf_str(buf, s->backend ? "b" : "c"));
	case IT_VXID:
		return (buf_printf(buf, "%u", tx->vxid));
	default:
		WRONG("bad format item");
	}
}

int
NCSA_Render(const struct ncsa_format *f, const struct vapi_tx *tx,
    unsigned flags, struct ncsa_buf *buf)
{
	struct scan *s;
	unsigned u;
	int r = 0;

	CHECK_OBJ(f, NCSA_FORMAT_MAGIC);
	assert(tx != NULL && buf != NULL);
	buf->len = 0;
	if (buf_put(buf, "", 0) != 0)
		return (-1);
	if (tx->type != VAPI_T_REQ && tx->type != VAPI_T_BEREQ)
		return (0);
	if (tx->type == VAPI_T_REQ && tx->reason != NULL &&
	    !strcmp(tx->reason, "esi"))
		return (0);
	s = calloc(1, sizeof *s);
	if (s == NULL)
		return (-1);
	s->backend = tx->type == VAPI_T_BEREQ;
	s->flags = flags;
	s->hitmiss = s->handling = "-";
	for (u = 0; u < tx->nrec; u++)
		scan_rec(s, f, &tx->recs[u]);
	/* Like varnishncsa: no time, no line, if the format shows one. */
	if (s->skip || s->nside == 0 ||
	    (f->timed && !s->frag[F_tstart].set)) {
		free(s);
		return (0);
	}
	for (u = 0; u < f->nitem && r == 0; u++)
		r = render_item(&f->items[u], &s->val[u], s, tx, flags, buf);
	free(s);
	return (r == 0 ? 1 : -1);
}

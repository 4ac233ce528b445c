/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * esi_parse.c -- the ESI parser: a byte-at-a-time-safe state machine
 * that classifies every body byte as kept (verbatim) or dropped (skip)
 * and finds the includes, writing the instruction list of esi.h.  It is
 * fed whatever pieces the fetch gets; a construct split over pieces is
 * remembered (a few bytes of a keyword, an attribute value) so any
 * split gives the same list.  Owns nothing outside its struct; no locks.
 *
 * Behaviour follows Varnish 7.1's parser, errors and their offsets
 * included (its e00008.vtc greps them): the offset is where the current
 * run of kept or dropped bytes began.  Bytes at the end of a piece that
 * cannot be classified yet (a "--" that may end an <!--esi) are held as
 * pending and join whatever run comes next.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/vas.h"
#include "cache/esi.h"

enum esi_state {
	ES_START,	/* maybe a byte order mark */
	ES_BOM,		/* after it: drop it, test for XML */
	ES_TESTXML,	/* blanks, then '<' or not XML */
	ES_NOTXML,	/* everything verbatim */
	ES_NEXTTAG,	/* text up to the next '<' */
	ES_NOTMYTAG,	/* someone else's tag, up to '>' */
	ES_STARTTAG,	/* after '<': which kind */
	ES_COMMENT,	/* <!-- */
	ES_COMMENTESI,	/* <!--esi */
	ES_CDATA,	/* <![CDATA[ */
	ES_ESITAG,	/* <esi: */
	ES_ESIENDTAG,	/* </esi: */
	ES_INCLUDE,
	ES_REMOVE,
	ES_ESICOMMENT,
	ES_BOGON,	/* <esi:something-else */
	ES_INTAG,	/* between attributes */
	ES_TAGERROR,	/* a broken tag: drop up to '>' */
	ES_ATTR,	/* an attribute's name starts */
	ES_SKIPATTR,	/* a name we do not want */
	ES_ATTRGETVAL,	/* a name we want: keep its value */
	ES_ATTRDELIM,	/* after '=' */
	ES_ATTRVAL,	/* the value */
	ES_MATCH,	/* match a keyword table */
	ES_MATCHBUF,	/* ... split over pieces */
	ES_UNTIL,	/* verbatim up to a terminator */
};

struct esi_kw {
	const char		*word;		/* NULL: the default */
	enum esi_state		next;
};

static const struct esi_kw esi_kw_start[] = {
	{ "!--esi",	ES_COMMENTESI },
	{ "!---->",	ES_NEXTTAG },
	{ "!--",	ES_COMMENT },
	{ "/esi:",	ES_ESIENDTAG },
	{ "esi:",	ES_ESITAG },
	{ "![CDATA[",	ES_CDATA },
	{ NULL,		ES_NOTMYTAG },
};

static const struct esi_kw esi_kw_element[] = {
	{ "include",	ES_INCLUDE },
	{ "remove",	ES_REMOVE },
	{ "comment",	ES_ESICOMMENT },
	{ NULL,		ES_BOGON },
};

static const struct esi_kw esi_kw_include[] = {
	{ "src=",	ES_ATTRGETVAL },
	{ "onerror=",	ES_ATTRGETVAL },
	{ NULL,		ES_SKIPATTR },
};

/* The UTF-8 one, and the one Varnish looks for (r01355.vtc). */
static const struct esi_kw esi_kw_bom[] = {
	{ "\xef\xbb\xbf",	ES_START },
	{ "\xeb\xbb\xbf",	ES_START },
	{ NULL,			ES_BOM },
};

enum esi_elem { EE_NONE, EE_INCLUDE, EE_REMOVE, EE_COMMENT };
enum esi_mode { EM_VERBATIM, EM_SKIP };

struct esi_parser {
	unsigned		magic;
#define ESI_PARSER_MAGIC	0x2b8c51e4
	unsigned		flags;		/* ESI_F_* */
	const char		*url;		/* borrowed */
	esi_ops_f		*ops;
	esi_msg_f		*msg;
	void			*priv;

	enum esi_state		state;
	unsigned		found;		/* saw ESI markup */
	unsigned		endtag;		/* </esi:... */
	unsigned		emptytag;	/* .../> */
	unsigned		canattr;	/* blank seen: attr may come */
	unsigned		remove;		/* inside <esi:remove> */
	unsigned		in_tag;		/* inside an esi: tag */
	enum esi_elem		elem;		/* the tag being read */
	const struct esi_kw	*attrs;		/* its attributes, or NULL */

	/* Keyword matching, split over pieces */
	const struct esi_kw	*table;
	const struct esi_kw	*hit;		/* last match, or default */
	char			kwbuf[8];
	size_t			kwlen;

	/* <!--esi ... -->: progress through "-->", when armed */
	unsigned		esicmt_armed;
	unsigned		esicmt_i;
	/* ES_UNTIL */
	const char		*until;
	unsigned		until_i;

	/* Attribute value */
	int			delim;		/* 0, '"', '\'', ' ' */
	unsigned		capture;	/* keeping the value */
	size_t			vlen;
	char			val[ESI_ATTR_MAX + 1];
	unsigned		have_src;
	unsigned		incl_continue;
	size_t			srclen;
	char			src[ESI_ATTR_MAX + 1];

	/* Classification of body bytes */
	const char		*mark;		/* classified up to here */
	enum esi_mode		run_mode;
	uint64_t		run_len;	/* classified, not written */
	uint64_t		pending;	/* not classified yet */
	uint64_t		written;	/* bytes the list covers */
	uint64_t		oplen;		/* bytes of list written */
	unsigned		carried;	/* the match began in a piece before */
	char			leftover[16];	/* see esi_step_match */
	size_t			leftover_len;
};

size_t
ESI_ParserSize(void)
{

	return (sizeof(struct esi_parser));
}

static int
esi_is_sp(int c)
{

	return (c == ' ' || c == '\t');
}

static int
esi_is_lws(int c)
{

	return (esi_is_sp(c) || c == '\r' || c == '\n');
}

static int
esi_is_namestart(int c)
{

	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    c == '_' || c == ':');
}

static int
esi_is_name(int c)
{

	return (esi_is_namestart(c) || (c >= '0' && c <= '9') || c == '-' ||
	    c == '.');
}

static void
esi_report(const struct esi_parser *ep, enum esi_msg kind, const char *text)
{

	ep->msg(ep->priv, kind, ep->written, text);
}

static void
esi_put(struct esi_parser *ep, const void *p, size_t len)
{

	ep->ops(ep->priv, p, len);
	ep->oplen += len;
}

static void
esi_put_run(struct esi_parser *ep, int op, uint64_t n)
{
	uint8_t buf[11];
	size_t l = 0;

	assert(n > 0);
	buf[l++] = (uint8_t)op;
	do {
		buf[l] = (uint8_t)(n & 0x7f);
		n >>= 7;
		if (n != 0)
			buf[l] |= 0x80;
		l++;
	} while (n != 0);
	esi_put(ep, buf, l);
}

/* Bytes up to p are kept (or dropped); pending bytes go with them. */
static void
esi_classify(struct esi_parser *ep, const char *p, enum esi_mode mode)
{

	assert(p >= ep->mark);
	if (ep->run_mode != mode && ep->run_len > 0) {
		esi_put_run(ep, ep->run_mode == EM_SKIP ? ESI_OP_SKIP :
		    ESI_OP_VERBATIM, ep->run_len);
		ep->written += ep->run_len;
		ep->run_len = 0;
	}
	ep->run_mode = mode;
	ep->run_len += ep->pending + (uint64_t)(p - ep->mark);
	ep->pending = 0;
	ep->mark = p;
}

static void
esi_keep(struct esi_parser *ep, const char *p)
{

	esi_classify(ep, p, EM_VERBATIM);
}

static void
esi_drop(struct esi_parser *ep, const char *p)
{

	esi_classify(ep, p, EM_SKIP);
}

/*
 * Match [b, e) against a keyword table: the entry (the default one when
 * none fits), or NULL when more bytes are needed to tell.
 */
static const struct esi_kw *
esi_match(const struct esi_kw *kw, const char *b, const char *e)
{
	const char *w, *r;

	for (; kw->word != NULL; kw++) {
		for (w = kw->word, r = b; *w != '\0' && r < e; w++, r++)
			if (*w != *r)
				break;
		if (*w == '\0')
			return (kw);
		if (r == e)
			return (NULL);
	}
	return (kw);
}

/* Write an include instruction for the src= value kept. */
static void
esi_emit_include(struct esi_parser *ep)
{
	const char *path = ep->src, *host = "", *q, *slash, *u;
	char how;
	size_t hl = 0, skip = 0;

	if (!strncmp(path, "https://", 8) && ep->srclen > 8) {
		if (!(ep->flags & ESI_F_HTTPS_AS_HTTP)) {
			esi_report(ep, ESI_MSG_WARN,
			    "ESI 1.0 <esi:include> with https:// ignored");
			ep->state = ES_TAGERROR;
			return;
		}
		esi_report(ep, ESI_MSG_WARN,
		    "ESI 1.0 <esi:include> https:// treated as http://");
		skip = 8;
	} else if (!strncmp(path, "http://", 7) && ep->srclen > 7) {
		skip = 7;
	}
	if (skip > 0) {
		host = path + skip;
		path = strchr(host, '/');
		if (path == NULL) {
			esi_report(ep, ESI_MSG_ERROR,
			    "ESI 1.0 <esi:include> invalid src= URL");
			ep->state = ES_TAGERROR;
			return;
		}
		hl = (size_t)(path - host);
	}
	how = ep->incl_continue ? ESI_INCL_CONTINUE : ESI_INCL_ABORT;
	esi_put(ep, "I", 1);
	esi_put(ep, &how, 1);
	esi_put(ep, host, hl);
	esi_put(ep, "", 1);
	if (*path != '/') {
		/* Relative: from the directory of the fetched URL. */
		slash = NULL;
		for (u = ep->url; *u != '\0' && *u != '?'; u++)
			if (*u == '/')
				slash = u;
		if (slash != NULL)
			esi_put(ep, ep->url, (size_t)(slash - ep->url) + 1);
		else
			esi_put(ep, "/", 1);
	}
	/* XML's predefined entities, as Varnish decodes them. */
	for (q = path; *q != '\0'; q++) {
		if (*q == '&' && !strncmp(q, "&apos;", 6)) {
			esi_put(ep, "'", 1);
			q += 5;
		} else if (*q == '&' && !strncmp(q, "&quot;", 6)) {
			esi_put(ep, "\"", 1);
			q += 5;
		} else if (*q == '&' && !strncmp(q, "&lt;", 4)) {
			esi_put(ep, "<", 1);
			q += 3;
		} else if (*q == '&' && !strncmp(q, "&gt;", 4)) {
			esi_put(ep, ">", 1);
			q += 3;
		} else if (*q == '&' && !strncmp(q, "&amp;", 5)) {
			esi_put(ep, "&", 1);
			q += 4;
		} else {
			esi_put(ep, q, 1);
		}
	}
	esi_put(ep, "", 1);
}

/* An attribute value of <esi:include> is complete. */
static void
esi_include_attr(struct esi_parser *ep)
{
	size_t u;

	ep->val[ep->vlen] = '\0';
	if (ep->hit == &esi_kw_include[1]) {
		ep->incl_continue = !strcmp(ep->val, "continue");
		return;
	}
	if (ep->have_src) {
		esi_report(ep, ESI_MSG_ERROR,
		    "ESI 1.0 <esi:include> has multiple src= attributes");
		ep->have_src = 0;
		ep->state = ES_TAGERROR;
		return;
	}
	for (u = 0; u < ep->vlen; u++) {
		if (esi_is_lws(ep->val[u])) {
			esi_report(ep, ESI_MSG_ERROR, "ESI 1.0 <esi:include> "
			    "has whitespace in src= attribute");
			ep->have_src = 0;
			ep->state = ES_TAGERROR;
			return;
		}
	}
	memcpy(ep->src, ep->val, ep->vlen + 1);
	ep->srclen = ep->vlen;
	ep->have_src = 1;
}

/* The '>' of an esi: tag: do what it says. */
static void
esi_tag_done(struct esi_parser *ep)
{

	switch (ep->elem) {
	case EE_COMMENT:
		if (!ep->emptytag)
			esi_report(ep, ESI_MSG_ERROR,
			    "ESI 1.0 <esi:comment> needs final '/'");
		break;
	case EE_REMOVE:
		if (ep->emptytag)
			esi_report(ep, ESI_MSG_ERROR,
			    "ESI 1.0 <esi:remove/> not legal");
		else if (ep->remove && !ep->endtag)
			esi_report(ep, ESI_MSG_ERROR,
			    "ESI 1.0 <esi:remove> already open");
		else if (!ep->remove && ep->endtag)
			esi_report(ep, ESI_MSG_ERROR,
			    "ESI 1.0 <esi:remove> not open");
		else
			ep->remove = !ep->endtag;
		break;
	case EE_INCLUDE:
		if (!ep->emptytag)
			esi_report(ep, ESI_MSG_WARN,
			    "ESI 1.0 <esi:include> lacks final '/'");
		if (!ep->have_src) {
			esi_report(ep, ESI_MSG_ERROR,
			    "ESI 1.0 <esi:include> lacks src attr");
			break;
		}
		esi_emit_include(ep);
		ep->have_src = 0;
		ep->incl_continue = 0;
		break;
	default:
		WRONG("esi tag without an element");
	}
}

/* A tag is broken: report, then drop it up to its '>'. */
static void
esi_tag_error(struct esi_parser *ep, const char *text)
{

	esi_report(ep, ESI_MSG_ERROR, text);
	ep->state = ES_TAGERROR;
}

/* Sections of the machine, one function each; return the new p. */

static const char *
esi_step_prolog(struct esi_parser *ep, const char *p, const char *e)
{

	switch (ep->state) {
	case ES_START:
		if ((ep->flags & ESI_F_REMOVE_BOM) &&
		    (*p == '\xef' || *p == '\xeb')) {
			ep->table = esi_kw_bom;
			ep->state = ES_MATCH;
		} else {
			ep->state = ES_BOM;
		}
		return (p);
	case ES_BOM:
		/*
		 * A BOM matched goes; bytes that only began like one (held
		 * over from the piece before) stay, as they would have had
		 * the body come in one piece (fuzz_esi found the difference).
		 */
		if (ep->hit != NULL && ep->hit->word != NULL)
			esi_drop(ep, p);
		else
			esi_keep(ep, p);
		if (ep->flags & ESI_F_NO_XML_CHECK) {
			ep->state = ES_NEXTTAG;
		} else if (ep->hit != NULL && ep->hit->word == NULL &&
		    ep->carried) {
			/* The held-over first byte was 0xef or 0xeb. */
			esi_report(ep, ESI_MSG_NOTXML, "No ESI processing, "
			    "first char not '<' but BOM. (See feature "
			    "esi_remove_bom)");
			ep->state = ES_NOTXML;
		} else {
			ep->state = ES_TESTXML;
		}
		ep->carried = 0;
		return (p);
	case ES_TESTXML:
		while (p < e && esi_is_lws(*p))
			p++;
		esi_keep(ep, p);
		if (p == e)
			return (p);
		if (*p == '<') {
			ep->state = ES_STARTTAG;
			return (p + 1);
		}
		esi_report(ep, ESI_MSG_NOTXML, *p == '\xeb' || *p == '\xef' ?
		    "No ESI processing, first char not '<' but BOM. "
		    "(See feature esi_remove_bom)" :
		    "No ESI processing, first char not '<'. "
		    "(See feature esi_disable_xml_check)");
		ep->state = ES_NOTXML;
		return (p);
	case ES_NOTXML:
		esi_keep(ep, e);
		return (e);
	default:
		WRONG("esi prolog state");
	}
}

/* Text between tags, watching for the "-->" of an <!--esi. */
static const char *
esi_step_text(struct esi_parser *ep, const char *p, const char *e)
{
	static const char end[] = "-->";

	ep->emptytag = 0;
	ep->attrs = NULL;
	ep->elem = EE_NONE;
	while (p < e && *p != '<') {
		if (!ep->esicmt_armed) {
			p++;
			continue;
		}
		if (*p != end[ep->esicmt_i]) {
			p++;
			ep->esicmt_i = 0;
			continue;
		}
		if (!ep->remove && ep->esicmt_i == 0)
			esi_keep(ep, p);
		p++;
		if (end[++ep->esicmt_i] == '\0') {
			/* Its end is dropped, what came before kept. */
			ep->found = 1;
			ep->esicmt_armed = 0;
			ep->esicmt_i = 0;
			esi_drop(ep, p);
		}
	}
	if (p < e) {
		if (!ep->remove)
			esi_keep(ep, p);
		/*
		 * A tag breaks a "-->" begun before it: "--<b>" is no end
		 * (else where the tag's bytes went would depend on how the
		 * body was cut into pieces; fuzz_esi found it).
		 */
		ep->esicmt_i = 0;
		ep->state = ES_STARTTAG;
		return (p + 1);
	}
	if (ep->esicmt_i == 0 && !ep->remove)
		esi_keep(ep, p);
	return (p);
}

static const char *
esi_step_notmytag(struct esi_parser *ep, const char *p, const char *e)
{

	if (ep->flags & ESI_F_IGNORE_OTHER) {
		/*
		 * Past the byte after '<', as varnishd does; unless that byte
		 * came in an earlier piece (held by the matcher), when p is
		 * already past it (fuzz_esi found the difference).
		 */
		if (!ep->carried)
			p++;
		ep->carried = 0;
		ep->state = ES_NEXTTAG;
	} else {
		ep->kwlen = 0;
		while (p < e) {
			if (*p++ == '>') {
				ep->state = ES_NEXTTAG;
				break;
			}
		}
	}
	if (p == e && !ep->remove)
		esi_keep(ep, p);
	return (p);
}

/* What kind of tag '<' started, and the esi: elements. */
static const char *
esi_step_tag(struct esi_parser *ep, const char *p)
{
	size_t n;

	switch (ep->state) {
	case ES_STARTTAG:
		ep->endtag = 0;
		ep->table = esi_kw_start;
		ep->state = ES_MATCH;
		break;
	case ES_COMMENT:
		ep->esicmt_armed = 0;
		ep->esicmt_i = 0;
		ep->until = "-->";
		ep->until_i = 0;
		ep->state = ES_UNTIL;
		/* Held-over bytes after "<!--" count, as parsed whole. */
		for (n = 0; n < ep->leftover_len &&
		    ep->state == ES_UNTIL; n++) {
			if (ep->leftover[n] != ep->until[ep->until_i++])
				ep->until_i = 0;
			else if (ep->until[ep->until_i] == '\0')
				ep->state = ES_NEXTTAG;
		}
		ep->leftover_len = 0;
		break;
	case ES_COMMENTESI:
		if (ep->remove)
			esi_report(ep, ESI_MSG_ERROR, "ESI 1.0 Nested <!--esi "
			    "element in <esi:remove>");
		ep->esicmt_armed = 1;
		ep->esicmt_i = 0;
		ep->state = ES_NEXTTAG;
		esi_drop(ep, p);
		break;
	case ES_CDATA:
		ep->until = "]]>";
		ep->until_i = 0;
		ep->state = ES_UNTIL;
		break;
	case ES_ESIENDTAG:
		ep->endtag = 1;
		ep->state = ES_ESITAG;
		break;
	case ES_ESITAG:
		ep->in_tag = 1;
		ep->found = 1;
		esi_drop(ep, p);
		ep->table = esi_kw_element;
		ep->state = ES_MATCH;
		break;
	case ES_INCLUDE:
		if (ep->remove)
			esi_tag_error(ep, "ESI 1.0 <esi:include> element "
			    "nested in <esi:remove>");
		else if (ep->endtag)
			esi_tag_error(ep,
			    "ESI 1.0 </esi:include> illegal end-tag");
		else {
			ep->elem = EE_INCLUDE;
			ep->attrs = esi_kw_include;
			ep->state = ES_INTAG;
		}
		break;
	case ES_REMOVE:
		ep->elem = EE_REMOVE;
		ep->state = ES_INTAG;
		break;
	case ES_ESICOMMENT:
		if (ep->remove)
			esi_tag_error(ep, "ESI 1.0 <esi:comment> element "
			    "nested in <esi:remove>");
		else if (ep->endtag)
			esi_tag_error(ep,
			    "ESI 1.0 </esi:comment> illegal end-tag");
		else {
			ep->elem = EE_COMMENT;
			ep->state = ES_INTAG;
		}
		break;
	case ES_BOGON:
		esi_tag_error(ep, "ESI 1.0 <esi:bogus> element");
		break;
	default:
		WRONG("esi tag state");
	}
	return (p);
}

/* Inside an esi: tag, between attributes; or a broken tag. */
static const char *
esi_step_intag(struct esi_parser *ep, const char *p, const char *e)
{

	if (ep->state == ES_TAGERROR) {
		while (p < e && *p != '>')
			p++;
		if (p < e) {
			p++;
			esi_drop(ep, p);
			ep->in_tag = 0;
			ep->capture = 0;
			ep->have_src = 0;
			ep->state = ES_NEXTTAG;
		}
		return (p);
	}
	ep->kwlen = 0;
	while (p < e && esi_is_lws(*p) && !ep->emptytag) {
		p++;
		ep->canattr = 1;
	}
	if (p < e && *p == '/' && !ep->emptytag) {
		p++;
		ep->emptytag = 1;
		ep->canattr = 0;
	}
	if (p == e)
		return (p);
	if (*p == '>') {
		p++;
		esi_drop(ep, p);
		esi_tag_done(ep);
		ep->in_tag = 0;
		/* The tag has ended: next comes text, bad src or not. */
		ep->state = ES_NEXTTAG;
	} else if (ep->emptytag) {
		esi_tag_error(ep, "XML 1.0 '>' does not follow '/' in tag");
	} else if (ep->canattr && esi_is_namestart(*p)) {
		ep->state = ES_ATTR;
	} else {
		esi_tag_error(ep, "XML 1.0 Illegal attribute start char");
	}
	return (p);
}

static const char *
esi_step_attr(struct esi_parser *ep, const char *p, const char *e)
{

	switch (ep->state) {
	case ES_ATTR:
		assert(ep->delim == 0);
		if (ep->attrs == NULL) {
			ep->capture = 0;
			ep->state = ES_SKIPATTR;
			return (p + 1);
		}
		ep->table = ep->attrs;
		ep->state = ES_MATCH;
		/* The default (ES_SKIPATTR) keeps no value. */
		ep->capture = 0;
		return (p);
	case ES_SKIPATTR:
		while (p < e && esi_is_name(*p))
			p++;
		if (p == e)
			return (p);
		if (*p == '=') {
			ep->state = ES_ATTRDELIM;
			return (p + 1);
		}
		if (*p == '>' || *p == '/' || esi_is_sp(*p))
			ep->state = ES_INTAG;
		else
			esi_tag_error(ep, "XML 1.0 Illegal attr char");
		return (p);
	case ES_ATTRGETVAL:
		ep->capture = 1;
		ep->vlen = 0;
		ep->state = ES_ATTRDELIM;
		return (p);
	case ES_ATTRDELIM:
		assert(ep->delim == 0);
		if (*p == '"' || *p == '\'') {
			ep->delim = *p++;
			ep->state = ES_ATTRVAL;
		} else if (!esi_is_sp(*p)) {
			ep->delim = ' ';
			ep->state = ES_ATTRVAL;
		} else {
			esi_tag_error(ep,
			    "XML 1.0 Illegal attribute delimiter");
		}
		return (p);
	default:
		break;
	}
	assert(ep->state == ES_ATTRVAL);
	while (p < e && *p != '>' && *p != ep->delim &&
	    (ep->delim != ' ' || !esi_is_sp(*p))) {
		if (ep->capture && ep->vlen < ESI_ATTR_MAX)
			ep->val[ep->vlen] = *p;
		if (ep->capture)
			ep->vlen++;
		p++;
	}
	if (p == e)
		return (p);
	ep->delim = 0;
	if (*p == '>') {
		ep->capture = 0;
		esi_tag_error(ep, "XML 1.0 Missing end attribute delimiter");
		return (p);
	}
	p++;
	ep->state = ES_INTAG;
	if (!ep->capture)
		return (p);
	ep->capture = 0;
	if (ep->vlen > ESI_ATTR_MAX) {
		esi_tag_error(ep, "ESI <esi:include> attribute longer than "
		    "2048 bytes");
		return (p);
	}
	esi_include_attr(ep);
	return (p);
}

/* A keyword table: whole, or split over pieces. */
static const char *
esi_step_match(struct esi_parser *ep, const char *p, const char *e)
{
	const struct esi_kw *kw;
	size_t n, wl;

	ep->carried = 0;
	ep->leftover_len = 0;
	if (ep->state == ES_MATCH) {
		kw = esi_match(ep->table, p, e);
		if (kw == NULL) {
			assert((size_t)(e - p) <= sizeof ep->kwbuf);
			memcpy(ep->kwbuf, p, (size_t)(e - p));
			ep->kwlen = (size_t)(e - p);
			ep->state = ES_MATCHBUF;
			return (e);
		}
		if (kw->word != NULL)
			p += strlen(kw->word);
	} else {
		n = sizeof ep->kwbuf - ep->kwlen;
		if (n > (size_t)(e - p))
			n = (size_t)(e - p);
		memcpy(ep->kwbuf + ep->kwlen, p, n);
		kw = esi_match(ep->table, ep->kwbuf, ep->kwbuf + ep->kwlen + n);
		if (kw == NULL) {
			ep->kwlen += n;
			return (p + n);
		}
		if (kw->word != NULL) {
			wl = strlen(kw->word);
			if (wl > ep->kwlen) {
				p += wl - ep->kwlen;
			} else if (wl < ep->kwlen) {
				/*
				 * A longer keyword failed after a shorter one
				 * ("!--" after "!---->"): bytes held from an
				 * earlier piece follow the keyword, and the
				 * next state must see them (ES_COMMENT).
				 */
				ep->leftover_len = ep->kwlen - wl;
				assert(ep->leftover_len <= sizeof ep->leftover);
				memcpy(ep->leftover, ep->kwbuf + wl,
				    ep->leftover_len);
			}
		}
		/* Bytes of an earlier piece were looked at: p is past them. */
		ep->carried = ep->kwlen > 0;
	}
	ep->hit = kw;
	ep->state = kw->next;
	ep->table = NULL;
	ep->kwlen = 0;
	return (p);
}

static const char *
esi_step_until(struct esi_parser *ep, const char *p, const char *e)
{

	while (p < e) {
		if (*p++ != ep->until[ep->until_i++]) {
			ep->until_i = 0;
		} else if (ep->until[ep->until_i] == '\0') {
			ep->state = ES_NEXTTAG;
			break;
		}
	}
	if (p == e && !ep->remove)
		esi_keep(ep, p);
	return (p);
}

static const char *
esi_step(struct esi_parser *ep, const char *p, const char *e)
{

	switch (ep->state) {
	case ES_START:
	case ES_BOM:
	case ES_TESTXML:
	case ES_NOTXML:
		return (esi_step_prolog(ep, p, e));
	case ES_NEXTTAG:
		return (esi_step_text(ep, p, e));
	case ES_NOTMYTAG:
		return (esi_step_notmytag(ep, p, e));
	case ES_STARTTAG:
	case ES_COMMENT:
	case ES_COMMENTESI:
	case ES_CDATA:
	case ES_ESITAG:
	case ES_ESIENDTAG:
	case ES_INCLUDE:
	case ES_REMOVE:
	case ES_ESICOMMENT:
	case ES_BOGON:
		return (esi_step_tag(ep, p));
	case ES_INTAG:
	case ES_TAGERROR:
		return (esi_step_intag(ep, p, e));
	case ES_ATTR:
	case ES_SKIPATTR:
	case ES_ATTRGETVAL:
	case ES_ATTRDELIM:
	case ES_ATTRVAL:
		return (esi_step_attr(ep, p, e));
	case ES_MATCH:
	case ES_MATCHBUF:
		return (esi_step_match(ep, p, e));
	case ES_UNTIL:
		return (esi_step_until(ep, p, e));
	default:
		WRONG("esi parser state");
	}
}

struct esi_parser *
ESI_ParserInit(void *mem, const char *url, unsigned flags, esi_ops_f *ops,
    esi_msg_f *msg, void *priv)
{
	struct esi_parser *ep = mem;

	assert(mem != NULL && url != NULL && ops != NULL && msg != NULL);
	INIT_OBJ(ep, ESI_PARSER_MAGIC);
	ep->url = url;
	ep->flags = flags;
	ep->ops = ops;
	ep->msg = msg;
	ep->priv = priv;
	ep->state = ES_START;
	ep->run_mode = EM_VERBATIM;
	return (ep);
}

void
ESI_Parse(struct esi_parser *ep, const char *p, size_t len)
{
	const char *e = p + len, *q;

	CHECK_OBJ(ep, ESI_PARSER_MAGIC);
	if (len == 0)
		return;
	ep->mark = p;
	while (p < e) {
		q = esi_step(ep, p, e);
		assert(q >= p && q <= e);
		p = q;
	}
	/* Every byte gets a class, or waits for the next piece. */
	if (p == ep->mark)
		return;
	if (ep->in_tag || ep->remove) {
		esi_drop(ep, p);
	} else {
		ep->pending += (uint64_t)(p - ep->mark);
		ep->mark = p;
	}
}

int
ESI_Finish(struct esi_parser *ep)
{

	CHECK_OBJ(ep, ESI_PARSER_MAGIC);
	switch (ep->state) {
	case ES_START:
	case ES_BOM:
	case ES_TESTXML:
	case ES_NOTXML:
	case ES_NEXTTAG:
		break;
	default:
		esi_report(ep, ESI_MSG_ERROR, "VEP ended inside a tag");
		break;
	}
	ep->run_len += ep->pending;
	ep->pending = 0;
	if (ep->run_len > 0) {
		esi_put_run(ep, ep->run_mode == EM_SKIP ? ESI_OP_SKIP :
		    ESI_OP_VERBATIM, ep->run_len);
		ep->written += ep->run_len;
		ep->run_len = 0;
	}
	return (ep->found && ep->oplen > 0);
}

static int
esi_varint(const uint8_t **pp, const uint8_t *end, uint64_t *vp)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		if (p >= end || shift > 63)
			return (-1);
		v |= (uint64_t)(*p & 0x7f) << shift;
		shift += 7;
		if (!(*p++ & 0x80))
			break;
	}
	*pp = p;
	*vp = v;
	return (0);
}

int
ESI_NextOp(const uint8_t **pp, const uint8_t *end, uint64_t *lenp,
    int *howp, const char **hostp, const char **urlp)
{
	const uint8_t *p = *pp, *h, *u;
	int op;

	if (p >= end)
		return (0);
	op = *p++;
	switch (op) {
	case ESI_OP_VERBATIM:
	case ESI_OP_SKIP:
		if (esi_varint(&p, end, lenp) != 0)
			return (0);
		break;
	case ESI_OP_INCLUDE:
		if (p >= end)
			return (0);
		*howp = *p++;
		h = p;
		p = memchr(h, '\0', (size_t)(end - h));
		if (p == NULL)
			return (0);
		u = ++p;
		p = memchr(u, '\0', (size_t)(end - u));
		if (p == NULL)
			return (0);
		p++;
		*hostp = (const char *)h;
		*urlp = (const char *)u;
		break;
	default:
		return (0);
	}
	*pp = p;
	return (op);
}

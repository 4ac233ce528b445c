/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_query.c -- the query language of veneerlog -q and veneerncsa -q,
 * Varnish's (vsl-query(7)): parsing into a tree and evaluating the tree
 * on a group of transactions.  Owns struct vapi_query.  No state besides
 * the tree; matching scribbles only in PCRE2 match data.
 *
 *   query   := line { "\n" line }		lines are or'ed; # comments;
 *						backslash-newline continues
 *   expr    := and { "or" and }
 *   and     := not { "and" not }
 *   not     := "not" not | "(" expr ")" | test
 *   test    := "vxid" numop number
 *	      | ["{" level ["+"|"-"] "}"] tags [":" prefix] ["[" field "]"]
 *		[op operand]
 *   tags    := glob { "," glob }		tag names, * globs
 *   op      := "==" "!=" "<" "<=" ">" ">="	numbers (integer, or float
 *						with a ".")
 *	      | "eq" "ne"			strings
 *	      | "~" "!~"			PCRE2 regular expressions
 *   operand := word of [A-Za-z0-9+-_.*] | "quoted" | 'quoted'
 *						(a backslash makes the next
 *						character plain)
 *
 * A test is true for a group if any record of a selected tag (at the
 * level asked) satisfies it: with a prefix, the record must start with
 * "prefix:" (any case) and what follows, blanks skipped, is compared;
 * with [n], only the n-th blank-separated field of that.  Numbers are
 * compared as Varnish 7.1 compares them (see qnum_parse()); a record that
 * does not start with a number never satisfies a numeric comparison.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <pcre2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/miniobj.h"
#include "vapi.h"


enum qop {
	QOP_NONE = 0,
	QOP_EQ, QOP_NE, QOP_LT, QOP_LE, QOP_GT, QOP_GE,	/* numbers */
	QOP_SEQ, QOP_SNE,				/* strings */
	QOP_MATCH, QOP_NOMATCH,				/* regexes */
};

static const char * const qop_names[] = {
	[QOP_NONE] = "", [QOP_EQ] = "==", [QOP_NE] = "!=", [QOP_LT] = "<",
	[QOP_LE] = "<=", [QOP_GT] = ">", [QOP_GE] = ">=", [QOP_SEQ] = "eq",
	[QOP_SNE] = "ne", [QOP_MATCH] = "~", [QOP_NOMATCH] = "!~",
};

enum qkind {
	QK_OR,
	QK_AND,
	QK_NOT,
	QK_TEST,
};

struct qtest {
	int			vxid;		/* tests vxids, not records */
	unsigned char		tags[VAPI_TAG_MAX];
	int			has_level;
	unsigned		level;
	int			level_cmp;	/* 0 ==, 1 >=, -1 <= */
	char			*prefix;
	size_t			prefixlen;
	unsigned		field;		/* 0: the whole record */
	enum qop		op;
	int			is_float;	/* compare to the millisecond */
	int64_t			ival;		/* integer operand */
	int64_t			milli;		/* float operand, 1/1000ths */
	char			*str;
	size_t			strlen;
	pcre2_code		*re;
	pcre2_match_data	*md;
};

struct qnode {
	enum qkind		kind;
	struct qnode		*l;
	struct qnode		*r;
	struct qtest		*test;
};

struct vapi_query {
	unsigned		magic;
#define VAPI_QUERY_MAGIC	0x59c01e6b
	struct qnode		*root;
};

/*--------------------------------------------------------------------
 * Lexing.
 */

enum qtok {
	QT_EOL,
	QT_WORD,
	QT_STRING,
	QT_OP,
	QT_LPAREN, QT_RPAREN,
	QT_LBRACE, QT_RBRACE,
	QT_LBRACKET, QT_RBRACKET,
	QT_COLON,
	QT_COMMA,
};

struct qparse {
	const char		*text;		/* the whole query */
	char			*work;		/* copy, \ + newline blanked */
	const char		*p;		/* lexer position in work */
	const char		*eol;		/* end of the current line */
	/* The current token. */
	enum qtok		tok;
	const char		*tb;		/* in work */
	const char		*te;
	enum qop		op;
	char			*str;		/* a quoted string, unescaped */
	size_t			strlen;
	/* Errors. */
	char			*err;
	size_t			errlen;
	int			failed;
};

/*
 * "what (line L, column C):" then the line as written and a caret under
 * column C.  at points into work; the text has the same offsets.
 */
static void __attribute__((__format__(__printf__, 3, 4)))
qerr_at(struct qparse *qp, const char *at, const char *fmt, ...)
{
	const char *lb, *le, *s, *t = qp->text;
	unsigned line = 1, nlines = 1;
	size_t col, n;
	va_list ap;

	if (qp->failed)
		return;
	qp->failed = 1;
	at = t + (at - qp->work);
	for (s = t; *s != '\0'; s++)
		if (*s == '\n' && s[1] != '\0')
			nlines++;
	for (lb = t; lb < at; lb++)
		if (*lb == '\n')
			line++;
	for (lb = at; lb > t && lb[-1] != '\n'; lb--)
		continue;
	le = strchr(at, '\n');
	if (le == NULL)
		le = at + strlen(at);
	col = (size_t)(at - lb) + 1;
	va_start(ap, fmt);
	n = (size_t)vsnprintf(qp->err, qp->errlen, fmt, ap);
	va_end(ap);
	if (n >= qp->errlen)
		return;
	if (nlines > 1)
		n += (size_t)snprintf(qp->err + n, qp->errlen - n,
		    " (line %u, column %zu):\n", line, col);
	else
		n += (size_t)snprintf(qp->err + n, qp->errlen - n,
		    " (column %zu):\n", col);
	if (n >= qp->errlen)
		return;
	(void)snprintf(qp->err + n, qp->errlen - n, "  %.*s\n  %*s^",
	    (int)(le - lb), lb, (int)(col - 1), "");
}

static int
qword_char(int c)
{

	return (isalnum(c) || c == '+' || c == '-' || c == '_' || c == '.' ||
	    c == '*');
}

/* A quoted operand; backslash escapes the quote and itself. */
static void
qlex_string(struct qparse *qp)
{
	const char *p = qp->p + 1;
	char q = *qp->p, *d;

	free(qp->str);
	qp->str = malloc((size_t)(qp->eol - p) + 1);
	if (qp->str == NULL) {
		qerr_at(qp, qp->p, "out of memory");
		return;
	}
	d = qp->str;
	/* As in Varnish, a backslash makes any character plain: "\\." in
	 * a query is "\." to the regex engine. */
	for (; p < qp->eol && *p != q; p++) {
		if (*p == '\\' && p + 1 < qp->eol)
			p++;
		*d++ = *p;
	}
	*d = '\0';
	if (p >= qp->eol) {
		qerr_at(qp, qp->p, "this string has no closing %c", q);
		return;
	}
	qp->strlen = (size_t)(d - qp->str);
	qp->tok = QT_STRING;
	qp->te = p + 1;
}

static void
qlex_op(struct qparse *qp)
{
	static const struct {
		const char	*s;
		enum qop	op;
	} ops[] = {
		{ "==", QOP_EQ }, { "!=", QOP_NE }, { "<=", QOP_LE },
		{ ">=", QOP_GE }, { "!~", QOP_NOMATCH }, { "<", QOP_LT },
		{ ">", QOP_GT }, { "~", QOP_MATCH },
	};
	size_t u, n;

	for (u = 0; u < sizeof ops / sizeof ops[0]; u++) {
		n = strlen(ops[u].s);
		if ((size_t)(qp->eol - qp->p) >= n &&
		    !strncmp(qp->p, ops[u].s, n)) {
			qp->tok = QT_OP;
			qp->op = ops[u].op;
			qp->te = qp->p + n;
			return;
		}
	}
	if (*qp->p == '=')
		qerr_at(qp, qp->p, "unknown operator \"=\": compare numbers "
		    "with == and strings with eq");
	else
		qerr_at(qp, qp->p, "unexpected character '%c' (quote operands "
		    "with characters other than letters, digits and + - _ . *)",
		    *qp->p);
}

/* The next token of the current line. */
static void
qlex(struct qparse *qp)
{
	const char *p = qp->p;

	if (qp->failed) {
		qp->tok = QT_EOL;
		return;
	}
	while (p < qp->eol && isspace((unsigned char)*p))
		p++;
	qp->tb = qp->te = qp->p = p;
	if (p >= qp->eol || *p == '#') {
		qp->tok = QT_EOL;
		qp->p = qp->eol;
		return;
	}
	switch (*p) {
	case '(': qp->tok = QT_LPAREN; break;
	case ')': qp->tok = QT_RPAREN; break;
	case '{': qp->tok = QT_LBRACE; break;
	case '}': qp->tok = QT_RBRACE; break;
	case '[': qp->tok = QT_LBRACKET; break;
	case ']': qp->tok = QT_RBRACKET; break;
	case ':': qp->tok = QT_COLON; break;
	case ',': qp->tok = QT_COMMA; break;
	case '"':
	case '\'':
		qlex_string(qp);
		qp->p = qp->te;
		return;
	default:
		if (qword_char((unsigned char)*p)) {
			while (p < qp->eol && qword_char((unsigned char)*p))
				p++;
			qp->tok = QT_WORD;
			qp->te = qp->p = p;
			return;
		}
		qlex_op(qp);
		if (qp->failed)
			qp->tok = QT_EOL;
		qp->p = qp->te;
		return;
	}
	qp->te = qp->p = p + 1;
}

static int
qis_word(const struct qparse *qp, const char *w)
{

	return (qp->tok == QT_WORD && (size_t)(qp->te - qp->tb) == strlen(w) &&
	    !strncmp(qp->tb, w, strlen(w)));
}

/* What the current token looks like, for messages. */
static const char *
qtok_desc(const struct qparse *qp, char *buf, size_t len)
{

	if (qp->tok == QT_EOL)
		return ("the end of the query");
	(void)snprintf(buf, len, "\"%.*s\"", (int)(qp->te - qp->tb > 40 ? 40 :
	    qp->te - qp->tb), qp->tb);
	return (buf);
}

/*--------------------------------------------------------------------
 * Parsing.
 */

static void
qtest_free(struct qtest *t)
{

	if (t == NULL)
		return;
	free(t->prefix);
	free(t->str);
	if (t->md != NULL)
		pcre2_match_data_free(t->md);
	if (t->re != NULL)
		pcre2_code_free(t->re);
	free(t);
}

static void
qnode_free(struct qnode *n)
{

	if (n == NULL)
		return;
	qnode_free(n->l);
	qnode_free(n->r);
	qtest_free(n->test);
	free(n);
}

static struct qnode *
qnode_new(struct qparse *qp, enum qkind kind, struct qnode *l,
    struct qnode *r)
{
	struct qnode *n;

	n = calloc(1, sizeof *n);
	if (n == NULL) {
		qerr_at(qp, qp->tb, "out of memory");
		qnode_free(l);
		qnode_free(r);
		return (NULL);
	}
	n->kind = kind;
	n->l = l;
	n->r = r;
	return (n);
}

static struct qnode *qparse_expr(struct qparse *qp);

/* "{2}", "{2+}", "{1-}". */
static void
qparse_level(struct qparse *qp, struct qtest *t)
{
	const char *p, *at;
	unsigned long u = 0;

	qlex(qp);
	at = qp->tb;
	if (qp->tok != QT_WORD || !isdigit((unsigned char)*qp->tb)) {
		qerr_at(qp, at, "expected a level (a number, maybe followed by "
		    "+ or -) after {");
		return;
	}
	for (p = qp->tb; p < qp->te && isdigit((unsigned char)*p); p++) {
		u = u * 10 + (unsigned long)(*p - '0');
		if (u > 1000000) {
			qerr_at(qp, at, "level too large");
			return;
		}
	}
	t->has_level = 1;
	t->level = (unsigned)u;
	if (p < qp->te && *p == '+')
		t->level_cmp = 1, p++;
	else if (p < qp->te && *p == '-')
		t->level_cmp = -1, p++;
	if (p != qp->te) {
		qerr_at(qp, at, "expected a level (a number, maybe followed by "
		    "+ or -) after {");
		return;
	}
	qlex(qp);
	if (qp->tok != QT_RBRACE) {
		qerr_at(qp, qp->tb, "expected } after the level");
		return;
	}
	qlex(qp);
}

/* "ReqHeader,Resp*": each glob must name at least one tag. */
static void
qparse_tags(struct qparse *qp, struct qtest *t)
{
	char glob[128];
	size_t n;

	for (;;) {
		if (qp->tok != QT_WORD) {
			qerr_at(qp, qp->tb, "expected a tag name (ReqURL, "
			    "RespStatus, Req*...)");
			return;
		}
		n = (size_t)(qp->te - qp->tb);
		if (n >= sizeof glob) {
			qerr_at(qp, qp->tb, "tag name too long");
			return;
		}
		memcpy(glob, qp->tb, n);
		glob[n] = '\0';
		if (VAPI_TagGlob(glob, t->tags) <= 0) {
			qerr_at(qp, qp->tb, "\"%s\" is no log tag (veneerd -x "
			    "tags lists them)", glob);
			return;
		}
		qlex(qp);
		if (qp->tok != QT_COMMA)
			return;
		qlex(qp);
	}
}

static void
qparse_prefix_field(struct qparse *qp, struct qtest *t)
{
	const char *p, *at;
	unsigned long u = 0;

	if (qp->tok == QT_COLON) {
		qlex(qp);
		if (qp->tok != QT_WORD && qp->tok != QT_STRING) {
			qerr_at(qp, qp->tb, "expected a record prefix (a "
			    "header name like Host) after :");
			return;
		}
		if (qp->tok == QT_STRING) {
			t->prefix = strdup(qp->str);
			t->prefixlen = qp->strlen;
		} else {
			t->prefixlen = (size_t)(qp->te - qp->tb);
			t->prefix = strndup(qp->tb, t->prefixlen);
		}
		if (t->prefix == NULL) {
			qerr_at(qp, qp->tb, "out of memory");
			return;
		}
		qlex(qp);
	}
	if (qp->tok != QT_LBRACKET)
		return;
	qlex(qp);
	at = qp->tb;
	for (p = qp->tb; qp->tok == QT_WORD && p < qp->te &&
	    isdigit((unsigned char)*p) && u <= 1000000; p++)
		u = u * 10 + (unsigned long)(*p - '0');
	if (qp->tok != QT_WORD || p != qp->te || u == 0 || u > 1000000) {
		qerr_at(qp, at, "expected a field number (1 for the first "
		    "field) in [ ]");
		return;
	}
	t->field = (unsigned)u;
	qlex(qp);
	if (qp->tok != QT_RBRACKET) {
		qerr_at(qp, qp->tb, "expected ] after the field number");
		return;
	}
	qlex(qp);
}

/*
 * A number as Varnish 7.1 reads one: blanks, an optional '-', digits,
 * maybe a '.' and more digits; whatever follows ends it ("12abc" is 12,
 * "1e2" is 1, "+7" is no number).  *ip gets the integral part, *milli
 * the value in thousandths truncated toward zero: Varnish compares
 * floats to the millisecond.  Returns where the number ends, or NULL.
 */
static const char *
qnum_parse(const char *b, const char *e, int64_t *ip, int64_t *milli)
{
	int64_t i = 0, f = 0;
	unsigned nf = 0;
	int neg = 0, digits = 0;

	while (b < e && isspace((unsigned char)*b))
		b++;
	if (b < e && *b == '-') {
		neg = 1;
		b++;
	}
	for (; b < e && isdigit((unsigned char)*b); b++) {
		if (i > (INT64_MAX / 1000 - 9) / 10)
			return (NULL);
		i = i * 10 + (*b - '0');
		digits = 1;
	}
	if (b < e && *b == '.')
		for (b++; b < e && isdigit((unsigned char)*b); b++) {
			digits = 1;
			if (nf < 3) {
				f = f * 10 + (*b - '0');
				nf++;
			}
		}
	if (!digits)
		return (NULL);
	for (; nf < 3; nf++)
		f *= 10;
	*ip = neg ? -i : i;
	*milli = neg ? -(i * 1000 + f) : i * 1000 + f;
	return (b);
}

/* A number operand (the current token), whole; 0 or -1. */
static int
qparse_number(struct qparse *qp, struct qtest *t)
{
	const char *b = qp->tb, *e = qp->te, *end;

	if (qp->tok == QT_STRING) {
		b = qp->str;
		e = b + qp->strlen;
	} else if (qp->tok != QT_WORD)
		return (-1);
	if (b == e || isspace((unsigned char)*b))
		return (-1);
	t->is_float = memchr(b, '.', (size_t)(e - b)) != NULL;
	end = qnum_parse(b, e, &t->ival, &t->milli);
	return (end == e ? 0 : -1);
}

static void
qparse_regex(struct qparse *qp, struct qtest *t)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code;

	t->re = pcre2_compile((PCRE2_SPTR)t->str, t->strlen, 0, &code, &off,
	    NULL);
	if (t->re == NULL) {
		(void)pcre2_get_error_message(code, msg, sizeof msg);
		qerr_at(qp, qp->tb, "bad regular expression: %s at its "
		    "character %zu", (const char *)msg, (size_t)off + 1);
		return;
	}
	t->md = pcre2_match_data_create_from_pattern(t->re, NULL);
	if (t->md == NULL)
		qerr_at(qp, qp->tb, "out of memory");
}

/* The operator, if any, and its operand. */
static void
qparse_op(struct qparse *qp, struct qtest *t)
{
	char buf[64];
	enum qop op;

	if (qis_word(qp, "eq") || qis_word(qp, "ne")) {
		qp->op = qis_word(qp, "eq") ? QOP_SEQ : QOP_SNE;
		qp->tok = QT_OP;
	}
	if (qp->tok != QT_OP)
		return;
	t->op = op = qp->op;
	qlex(qp);
	if (qp->tok != QT_WORD && qp->tok != QT_STRING) {
		qerr_at(qp, qp->tb, "expected an operand after \"%s\", found "
		    "%s", qop_names[op], qtok_desc(qp, buf, sizeof buf));
		return;
	}
	if (op <= QOP_GE) {
		if (qparse_number(qp, t) != 0)
			qerr_at(qp, qp->tb, "\"%s\" compares numbers: %s is "
			    "not one (compare strings with eq/ne, or use ~ "
			    "for a regular expression)", qop_names[op],
			    qtok_desc(qp, buf, sizeof buf));
		else if (t->vxid && t->is_float)
			qerr_at(qp, qp->tb, "a vxid is a whole number");
		qlex(qp);
		return;
	}
	if (qp->tok == QT_STRING) {
		t->str = qp->str;
		t->strlen = qp->strlen;
		qp->str = NULL;
	} else {
		t->strlen = (size_t)(qp->te - qp->tb);
		t->str = strndup(qp->tb, t->strlen);
		if (t->str == NULL) {
			qerr_at(qp, qp->tb, "out of memory");
			return;
		}
	}
	if (op == QOP_MATCH || op == QOP_NOMATCH)
		qparse_regex(qp, t);
	qlex(qp);
}

static struct qnode *
qparse_test(struct qparse *qp)
{
	struct qnode *n;
	struct qtest *t;
	const char *at = qp->tb;

	t = calloc(1, sizeof *t);
	n = qnode_new(qp, QK_TEST, NULL, NULL);
	if (t == NULL || n == NULL) {
		free(t);
		qnode_free(n);
		qerr_at(qp, qp->tb, "out of memory");
		return (NULL);
	}
	n->test = t;
	if (qp->tok == QT_LBRACE)
		qparse_level(qp, t);
	if (!qp->failed && qis_word(qp, "vxid")) {
		t->vxid = 1;
		qlex(qp);
	} else if (!qp->failed) {
		qparse_tags(qp, t);
		if (!qp->failed)
			qparse_prefix_field(qp, t);
	}
	if (!qp->failed)
		qparse_op(qp, t);
	if (!qp->failed && t->vxid && (t->op == QOP_NONE || t->op > QOP_GE))
		qerr_at(qp, at, "vxid needs a numeric comparison: vxid == "
		    "1234");
	if (qp->failed) {
		qnode_free(n);
		return (NULL);
	}
	return (n);
}

static struct qnode *
qparse_not(struct qparse *qp)
{
	struct qnode *n;
	const char *at;
	char buf[64];

	if (qp->failed)
		return (NULL);
	if (qis_word(qp, "not")) {
		qlex(qp);
		n = qparse_not(qp);
		if (n == NULL)
			return (NULL);
		return (qnode_new(qp, QK_NOT, n, NULL));
	}
	if (qp->tok == QT_LPAREN) {
		at = qp->tb;
		qlex(qp);
		n = qparse_expr(qp);
		if (n == NULL)
			return (NULL);
		if (qp->tok != QT_RPAREN) {
			qerr_at(qp, qp->tok == QT_EOL ? at : qp->tb,
			    qp->tok == QT_EOL ? "this ( is never closed" :
			    "expected ) or an operator, found %s",
			    qtok_desc(qp, buf, sizeof buf));
			qnode_free(n);
			return (NULL);
		}
		qlex(qp);
		return (n);
	}
	if (qp->tok == QT_WORD || qp->tok == QT_LBRACE)
		return (qparse_test(qp));
	qerr_at(qp, qp->tb, "expected a test (a tag name, vxid, not or (), "
	    "found %s", qtok_desc(qp, buf, sizeof buf));
	return (NULL);
}

static struct qnode *
qparse_and(struct qparse *qp)
{
	struct qnode *l, *r;

	l = qparse_not(qp);
	while (l != NULL && qis_word(qp, "and")) {
		qlex(qp);
		r = qparse_not(qp);
		if (r == NULL) {
			qnode_free(l);
			return (NULL);
		}
		l = qnode_new(qp, QK_AND, l, r);
	}
	return (l);
}

static struct qnode *
qparse_expr(struct qparse *qp)
{
	struct qnode *l, *r;

	l = qparse_and(qp);
	while (l != NULL && qis_word(qp, "or")) {
		qlex(qp);
		r = qparse_and(qp);
		if (r == NULL) {
			qnode_free(l);
			return (NULL);
		}
		l = qnode_new(qp, QK_OR, l, r);
	}
	return (l);
}

/* One line: an expression, or nothing (blank, comment). */
static struct qnode *
qparse_line(struct qparse *qp, int *empty)
{
	struct qnode *n;
	char buf[64];

	qlex(qp);
	*empty = qp->tok == QT_EOL && !qp->failed;
	if (*empty)
		return (NULL);
	n = qparse_expr(qp);
	if (n != NULL && qp->tok != QT_EOL) {
		qerr_at(qp, qp->tb, "expected and, or or the end of the "
		    "query, found %s", qtok_desc(qp, buf, sizeof buf));
		qnode_free(n);
		return (NULL);
	}
	return (n);
}

/* Blank backslash-newlines outside strings and comments, in place. */
static void
qjoin_lines(char *s)
{
	char quote = 0;
	int comment = 0;

	for (; *s != '\0'; s++) {
		if (*s == '\n') {
			quote = 0;
			comment = 0;
		} else if (comment) {
			continue;
		} else if (quote != 0) {
			if (*s == '\\' && s[1] != '\0' && s[1] != '\n')
				s++;
			else if (*s == quote)
				quote = 0;
		} else if (*s == '"' || *s == '\'') {
			quote = *s;
		} else if (*s == '#') {
			comment = 1;
		} else if (*s == '\\' && s[1] == '\n') {
			s[0] = ' ';
			s[1] = ' ';
			s++;
		}
	}
}

struct vapi_query *
VAPI_QueryNew(const char *q, char *err, size_t errlen)
{
	struct vapi_query *vq;
	struct qparse qp;
	struct qnode *n, *root = NULL;
	const char *nl;
	int empty;

	assert(q != NULL);
	assert(err != NULL && errlen > 0);
	memset(&qp, 0, sizeof qp);
	qp.text = q;
	qp.err = err;
	qp.errlen = errlen;
	qp.work = strdup(q);
	if (qp.work == NULL) {
		(void)snprintf(err, errlen, "out of memory");
		return (NULL);
	}
	qjoin_lines(qp.work);
	for (qp.p = qp.work; !qp.failed && *qp.p != '\0'; qp.p = qp.eol + 1) {
		nl = strchr(qp.p, '\n');
		qp.eol = nl != NULL ? nl : qp.p + strlen(qp.p);
		n = qparse_line(&qp, &empty);
		if (n != NULL)
			root = root == NULL ? n : qnode_new(&qp, QK_OR, root,
			    n);
		if (*qp.eol == '\0')
			break;
	}
	if (!qp.failed && root == NULL)
		(void)snprintf(err, errlen, "empty query: give a test such "
		    "as ReqURL ~ \"^/img\"");
	free(qp.str);
	free(qp.work);
	if (qp.failed || root == NULL) {
		qnode_free(root);
		return (NULL);
	}
	ALLOC_OBJ(vq, VAPI_QUERY_MAGIC);
	if (vq == NULL) {
		(void)snprintf(err, errlen, "out of memory");
		qnode_free(root);
		return (NULL);
	}
	vq->root = root;
	return (vq);
}

void
VAPI_QueryFree(struct vapi_query **qp)
{
	struct vapi_query *vq;

	TAKE_OBJ_NOTNULL(vq, qp, VAPI_QUERY_MAGIC);
	qnode_free(vq->root);
	FREE_OBJ(vq);
}

/*--------------------------------------------------------------------
 * Matching.
 */

static int
qlevel_ok(const struct qtest *t, unsigned level)
{

	if (!t->has_level)
		return (1);
	if (t->level_cmp > 0)
		return (level >= t->level);
	if (t->level_cmp < 0)
		return (level <= t->level);
	return (level == t->level);
}

static int
qcmp_int(enum qop op, int64_t l, int64_t r)
{

	switch (op) {
	case QOP_EQ:	return (l == r);
	case QOP_NE:	return (l != r);
	case QOP_LT:	return (l < r);
	case QOP_LE:	return (l <= r);
	case QOP_GT:	return (l > r);
	case QOP_GE:	return (l >= r);
	default:	WRONG("not a numeric operator");
	}
}

/* Compare the text [b, e) as a number; a non-number never matches. */
static int
qmatch_number(const struct qtest *t, const char *b, const char *e)
{
	int64_t i, milli;

	if (qnum_parse(b, e, &i, &milli) == NULL)
		return (0);
	if (t->is_float)
		return (qcmp_int(t->op, milli, t->milli));
	return (qcmp_int(t->op, i, t->ival));
}

/* Does one record satisfy the test? */
static int
qmatch_rec(const struct qtest *t, const struct vapi_rec *rec)
{
	const char *b, *e;
	unsigned n;
	int r;

	if (rec->tag >= VAPI_TAG_MAX || !t->tags[rec->tag])
		return (0);
	b = rec->data;
	e = b + rec->len;
	while (e > b && e[-1] == '\0')
		e--;
	if (t->prefix != NULL) {
		if ((size_t)(e - b) <= t->prefixlen ||
		    strncasecmp(b, t->prefix, t->prefixlen) != 0 ||
		    b[t->prefixlen] != ':')
			return (0);
		b += t->prefixlen + 1;
		while (b < e && isspace((unsigned char)*b))
			b++;
	}
	for (n = 1; t->field > 0; n++) {
		while (b < e && isspace((unsigned char)*b))
			b++;
		if (b == e)
			return (0);		/* no such field */
		if (n == t->field) {
			for (e = b; e < rec->data + rec->len && *e != '\0' &&
			    !isspace((unsigned char)*e); e++)
				continue;
			break;
		}
		while (b < e && !isspace((unsigned char)*b))
			b++;
	}
	switch (t->op) {
	case QOP_NONE:
		return (1);
	case QOP_SEQ:
	case QOP_SNE:
		r = (size_t)(e - b) == t->strlen &&
		    !memcmp(b, t->str, t->strlen);
		return (t->op == QOP_SEQ ? r : !r);
	case QOP_MATCH:
	case QOP_NOMATCH:
		r = pcre2_match(t->re, (PCRE2_SPTR)b, (PCRE2_SIZE)(e - b), 0,
		    0, t->md, NULL) >= 0;
		return (t->op == QOP_MATCH ? r : !r);
	default:
		return (qmatch_number(t, b, e));
	}
}

static int
qmatch_test(const struct qtest *t, struct vapi_tx * const *txs,
    unsigned ntx)
{
	const struct vapi_tx *tx;
	unsigned u, v;

	for (u = 0; u < ntx; u++) {
		tx = txs[u];
		if (!qlevel_ok(t, tx->level))
			continue;
		if (t->vxid) {
			if (qcmp_int(t->op, (int64_t)tx->vxid, t->ival))
				return (1);
			continue;
		}
		for (v = 0; v < tx->nrec; v++)
			if (qmatch_rec(t, &tx->recs[v]))
				return (1);
	}
	return (0);
}

static int
qmatch(const struct qnode *n, struct vapi_tx * const *txs, unsigned ntx)
{

	switch (n->kind) {
	case QK_OR:
		return (qmatch(n->l, txs, ntx) || qmatch(n->r, txs, ntx));
	case QK_AND:
		return (qmatch(n->l, txs, ntx) && qmatch(n->r, txs, ntx));
	case QK_NOT:
		return (!qmatch(n->l, txs, ntx));
	case QK_TEST:
		return (qmatch_test(n->test, txs, ntx));
	default:
		WRONG("bad query node");
	}
}

int
VAPI_QueryMatch(const struct vapi_query *q, struct vapi_tx * const *txs,
    unsigned ntx)
{

	CHECK_OBJ(q, VAPI_QUERY_MAGIC);
	assert(txs != NULL || ntx == 0);
	return (qmatch(q->root, txs, ntx));
}

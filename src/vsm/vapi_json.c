/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_json.c -- the JSON parser for counter documents (see vapi_json.h).
 * Recursive descent over a bounded buffer; nesting is capped, so the
 * stack is too.  Decoded strings go into one block allocated up front
 * and owned by the root: a decoded string or a copied number, with its
 * NUL, never takes more than twice the input bytes it came from.  No
 * state between calls.
 */

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/miniobj.h"
#include "vsm/vapi_json.h"

struct vjp {
	unsigned		magic;
#define VJP_MAGIC		0x61c2f0a8
	const char		*b;		/* the input */
	const char		*p;		/* the next byte */
	const char		*e;
	char			*out;		/* string space left */
	char			*oute;
	struct vjson		*first;		/* every node, chained */
	struct vjson		**tail;
	unsigned		depth;
	char			*err;
	size_t			errlen;
};

static void __attribute__((__format__(__printf__, 2, 3)))
vjp_fail(struct vjp *vp, const char *fmt, ...)
{
	const char *q;
	unsigned line = 1, col = 1;
	char msg[160];
	va_list ap;

	if (vp->err == NULL || vp->err[0] != '\0')
		return;		/* The first error is the one to report. */
	for (q = vp->b; q < vp->p; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	(void)snprintf(vp->err, vp->errlen, "line %u col %u: %s", line, col,
	    msg);
}

static void
vjp_ws(struct vjp *vp)
{

	while (vp->p < vp->e && (*vp->p == ' ' || *vp->p == '\t' ||
	    *vp->p == '\n' || *vp->p == '\r'))
		vp->p++;
}

static struct vjson *
vjp_node(struct vjp *vp, enum vjson_type type, const char *key)
{
	struct vjson *j;

	ALLOC_OBJ(j, VJSON_MAGIC);
	if (j == NULL) {
		vjp_fail(vp, "out of memory");
		return (NULL);
	}
	j->type = type;
	j->key = key;
	*vp->tail = j;
	vp->tail = &j->all;
	return (j);
}

static void
vjp_put(struct vjp *vp, unsigned c)
{

	/* The up-front sizing makes this impossible to overrun. */
	assert(vp->out < vp->oute);
	*vp->out++ = (char)c;
}

/* One code point as UTF-8. */
static void
vjp_utf8(struct vjp *vp, unsigned c)
{

	if (c < 0x80) {
		vjp_put(vp, c);
	} else if (c < 0x800) {
		vjp_put(vp, 0xc0 | (c >> 6));
		vjp_put(vp, 0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		vjp_put(vp, 0xe0 | (c >> 12));
		vjp_put(vp, 0x80 | ((c >> 6) & 0x3f));
		vjp_put(vp, 0x80 | (c & 0x3f));
	} else {
		vjp_put(vp, 0xf0 | (c >> 18));
		vjp_put(vp, 0x80 | ((c >> 12) & 0x3f));
		vjp_put(vp, 0x80 | ((c >> 6) & 0x3f));
		vjp_put(vp, 0x80 | (c & 0x3f));
	}
}

/* Four hex digits after "\u"; -1 if they are not. */
static int
vjp_hex4(struct vjp *vp, unsigned *c)
{
	unsigned u, d;

	if (vp->e - vp->p < 4) {
		vjp_fail(vp, "truncated \\u escape");
		return (-1);
	}
	*c = 0;
	for (u = 0; u < 4; u++) {
		d = (unsigned char)vp->p[u];
		if (d >= '0' && d <= '9')
			d -= '0';
		else if (d >= 'a' && d <= 'f')
			d -= 'a' - 10;
		else if (d >= 'A' && d <= 'F')
			d -= 'A' - 10;
		else {
			vjp_fail(vp, "bad \\u escape");
			return (-1);
		}
		*c = *c * 16 + d;
	}
	vp->p += 4;
	return (0);
}

/* After "\u": a code point, surrogate pairs joined, lone ones U+FFFD. */
static int
vjp_unicode(struct vjp *vp)
{
	unsigned c, lo;

	if (vjp_hex4(vp, &c) != 0)
		return (-1);
	if (c >= 0xd800 && c < 0xdc00 && vp->e - vp->p >= 6 &&
	    vp->p[0] == '\\' && vp->p[1] == 'u') {
		vp->p += 2;
		if (vjp_hex4(vp, &lo) != 0)
			return (-1);
		if (lo >= 0xdc00 && lo < 0xe000) {
			vjp_utf8(vp, 0x10000 + ((c - 0xd800) << 10) +
			    (lo - 0xdc00));
			return (0);
		}
		vjp_utf8(vp, 0xfffd);
		c = lo;
	}
	if (c >= 0xd800 && c < 0xe000)
		c = 0xfffd;
	vjp_utf8(vp, c);
	return (0);
}

/* A string at vp->p (on its '"'); decoded into the string space. */
static const char *
vjp_string(struct vjp *vp, size_t *lenp)
{
	const char *s;
	unsigned char c;

	assert(vp->p < vp->e && *vp->p == '"');
	vp->p++;
	s = vp->out;
	for (;;) {
		if (vp->p >= vp->e) {
			vjp_fail(vp, "unterminated string");
			return (NULL);
		}
		c = (unsigned char)*vp->p++;
		if (c == '"')
			break;
		if (c < 0x20) {
			vp->p--;
			vjp_fail(vp, "control character 0x%02x in a string",
			    c);
			return (NULL);
		}
		if (c != '\\') {
			vjp_put(vp, c);
			continue;
		}
		if (vp->p >= vp->e) {
			vjp_fail(vp, "unterminated string");
			return (NULL);
		}
		c = (unsigned char)*vp->p++;
		switch (c) {
		case '"': case '\\': case '/':
			vjp_put(vp, c);
			break;
		case 'b': vjp_put(vp, '\b'); break;
		case 'f': vjp_put(vp, '\f'); break;
		case 'n': vjp_put(vp, '\n'); break;
		case 'r': vjp_put(vp, '\r'); break;
		case 't': vjp_put(vp, '\t'); break;
		case 'u':
			if (vjp_unicode(vp) != 0)
				return (NULL);
			break;
		default:
			vp->p--;
			vjp_fail(vp, "bad escape \\%c", c >= 0x20 && c < 0x7f ?
			    c : '?');
			return (NULL);
		}
	}
	*lenp = (size_t)(vp->out - s);
	vjp_put(vp, '\0');
	return (s);
}

static int
vjp_digits(struct vjp *vp)
{
	const char *s = vp->p;

	while (vp->p < vp->e && *vp->p >= '0' && *vp->p <= '9')
		vp->p++;
	return (vp->p > s ? 0 : -1);
}

/* A number, kept as written. */
static struct vjson *
vjp_number(struct vjp *vp, const char *key)
{
	const char *s = vp->p;
	struct vjson *j;

	if (vp->p < vp->e && *vp->p == '-')
		vp->p++;
	if (vp->p < vp->e && *vp->p == '0')
		vp->p++;
	else if (vjp_digits(vp) != 0)
		goto bad;
	if (vp->p < vp->e && *vp->p == '.') {
		vp->p++;
		if (vjp_digits(vp) != 0)
			goto bad;
	}
	if (vp->p < vp->e && (*vp->p == 'e' || *vp->p == 'E')) {
		vp->p++;
		if (vp->p < vp->e && (*vp->p == '+' || *vp->p == '-'))
			vp->p++;
		if (vjp_digits(vp) != 0)
			goto bad;
	}
	j = vjp_node(vp, VJSON_NUMBER, key);
	if (j == NULL)
		return (NULL);
	j->str = vp->out;
	j->len = (size_t)(vp->p - s);
	for (; s < vp->p; s++)
		vjp_put(vp, (unsigned char)*s);
	vjp_put(vp, '\0');
	return (j);
bad:
	vjp_fail(vp, "bad number");
	return (NULL);
}

static struct vjson *vjp_value(struct vjp *vp, const char *key);

/* The members of an array or object, after its opening bracket. */
static int
vjp_members(struct vjp *vp, struct vjson *j, char close)
{
	struct vjson **next = &j->child, *c;
	const char *key = NULL;
	size_t len;

	vjp_ws(vp);
	if (vp->p < vp->e && *vp->p == close) {
		vp->p++;
		return (0);
	}
	for (;;) {
		if (close == '}') {
			vjp_ws(vp);
			if (vp->p >= vp->e || *vp->p != '"') {
				vjp_fail(vp, "expected a member name");
				return (-1);
			}
			key = vjp_string(vp, &len);
			if (key == NULL)
				return (-1);
			vjp_ws(vp);
			if (vp->p >= vp->e || *vp->p != ':') {
				vjp_fail(vp, "expected ':'");
				return (-1);
			}
			vp->p++;
		}
		c = vjp_value(vp, key);
		if (c == NULL)
			return (-1);
		*next = c;
		next = &c->next;
		vjp_ws(vp);
		if (vp->p < vp->e && *vp->p == ',') {
			vp->p++;
			continue;
		}
		if (vp->p < vp->e && *vp->p == close) {
			vp->p++;
			return (0);
		}
		vjp_fail(vp, "expected ',' or '%c'", close);
		return (-1);
	}
}

static struct vjson *
vjp_literal(struct vjp *vp, const char *key, const char *word,
    enum vjson_type type)
{
	size_t l = strlen(word);

	if ((size_t)(vp->e - vp->p) < l || memcmp(vp->p, word, l) != 0) {
		vjp_fail(vp, "unexpected character");
		return (NULL);
	}
	vp->p += l;
	return (vjp_node(vp, type, key));
}

static struct vjson *
vjp_value(struct vjp *vp, const char *key)
{
	struct vjson *j;
	const char *s;
	size_t len;
	char c;

	vjp_ws(vp);
	if (vp->p >= vp->e) {
		vjp_fail(vp, "unexpected end");
		return (NULL);
	}
	c = *vp->p;
	switch (c) {
	case '{':
	case '[':
		if (vp->depth >= VJSON_MAX_DEPTH) {
			vjp_fail(vp, "nested deeper than %d",
			    VJSON_MAX_DEPTH);
			return (NULL);
		}
		vp->p++;
		j = vjp_node(vp, c == '{' ? VJSON_OBJECT : VJSON_ARRAY, key);
		if (j == NULL)
			return (NULL);
		vp->depth++;
		if (vjp_members(vp, j, c == '{' ? '}' : ']') != 0)
			return (NULL);
		vp->depth--;
		return (j);
	case '"':
		s = vjp_string(vp, &len);
		if (s == NULL)
			return (NULL);
		j = vjp_node(vp, VJSON_STRING, key);
		if (j != NULL) {
			j->str = s;
			j->len = len;
		}
		return (j);
	case 't':
		return (vjp_literal(vp, key, "true", VJSON_TRUE));
	case 'f':
		return (vjp_literal(vp, key, "false", VJSON_FALSE));
	case 'n':
		return (vjp_literal(vp, key, "null", VJSON_NULL));
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return (vjp_number(vp, key));
		vjp_fail(vp, "unexpected character");
		return (NULL);
	}
}

static void
vjson_free_chain(struct vjson *j)
{
	struct vjson *next;

	for (; j != NULL; j = next) {
		CHECK_OBJ(j, VJSON_MAGIC);
		next = j->all;
		FREE_OBJ(j);
	}
}

struct vjson *
VJSON_Parse(const char *p, size_t len, char *err, size_t errlen)
{
	struct vjp vp;
	struct vjson *j;
	char *mem;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	INIT_OBJ(&vp, VJP_MAGIC);
	vp.b = vp.p = p;
	vp.e = p + len;
	vp.err = errlen > 0 ? err : NULL;
	vp.errlen = errlen;
	vp.tail = &vp.first;
	if (len > SIZE_MAX / 2 - 2) {
		vjp_fail(&vp, "too big");
		return (NULL);
	}
	/* The first node owns the string space: see vjson_free. */
	mem = malloc(2 * len + 2);
	if (mem == NULL) {
		vjp_fail(&vp, "out of memory");
		return (NULL);
	}
	vp.out = mem;
	vp.oute = mem + 2 * len + 2;
	j = vjp_value(&vp, NULL);
	if (j != NULL) {
		vjp_ws(&vp);
		if (vp.p != vp.e) {
			vjp_fail(&vp, "garbage after the value");
			j = NULL;
		}
	}
	if (j == NULL) {
		vjson_free_chain(vp.first);
		free(mem);
		return (NULL);
	}
	assert(j == vp.first);
	j->mem = mem;
	return (j);
}

void
VJSON_Free(struct vjson **jp)
{
	struct vjson *j;
	char *mem;

	TAKE_OBJ_ORNULL(j, jp, VJSON_MAGIC);
	if (j == NULL)
		return;
	mem = j->mem;
	vjson_free_chain(j);
	free(mem);
}

const struct vjson *
VJSON_Member(const struct vjson *obj, const char *key)
{
	const struct vjson *j;

	if (obj == NULL || obj->type != VJSON_OBJECT)
		return (NULL);
	for (j = obj->child; j != NULL; j = j->next)
		if (j->key != NULL && !strcmp(j->key, key))
			return (j);
	return (NULL);
}

int
VJSON_Uint(const struct vjson *j, uint64_t *val)
{
	const char *s;
	char *end;
	size_t u;

	if (j == NULL || (j->type != VJSON_NUMBER && j->type != VJSON_STRING))
		return (-1);
	s = j->str;
	if (j->len == 0 || j->len > 20)
		return (-1);
	for (u = 0; u < j->len; u++)
		if (s[u] < '0' || s[u] > '9')
			return (-1);
	errno = 0;
	*val = strtoull(s, &end, 10);
	if (errno != 0 || end != s + j->len)
		return (-1);
	return (0);
}

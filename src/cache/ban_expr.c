/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ban_expr.c -- parsing, printing and evaluating ban expressions (see
 * ban_expr.h).  No state: each expression owns its terms and compiled
 * regexes; evaluation takes no lock.
 */

#include "config.h"

#define PCRE2_CODE_UNIT_WIDTH 8

#include <pcre2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/cli.h"
#include "common/miniobj.h"
#include "common/num.h"
#include "cache/ban_expr.h"

struct ban_term {
	enum ban_field		field;
	enum ban_op		op;
	char			*hdr;		/* *.http.NAME: NAME */
	char			*arg;		/* as given */
	size_t			arg_len;
	double			num;		/* status, durations */
	pcre2_code		*re;		/* ~ and !~ */
};

struct ban_expr {
	unsigned		magic;
#define BAN_EXPR_MAGIC		0x4b1e72d9
	unsigned		n;
	struct ban_term		t[BAN_MAX_TERMS];
	char			*text;
};

static const struct {
	const char		*name;
	enum ban_field		field;
	unsigned		is_hdr;
	unsigned		is_num;
} ban_fields[] = {
	{ "req.url",	BF_REQ_URL,	0, 0 },
	{ "req.http.",	BF_REQ_HTTP,	1, 0 },
	{ "obj.status",	BF_OBJ_STATUS,	0, 1 },
	{ "obj.http.",	BF_OBJ_HTTP,	1, 0 },
	{ "obj.ttl",	BF_OBJ_TTL,	0, 1 },
	{ "obj.age",	BF_OBJ_AGE,	0, 1 },
	{ "obj.grace",	BF_OBJ_GRACE,	0, 1 },
	{ "obj.keep",	BF_OBJ_KEEP,	0, 1 },
};
#define BAN_NFIELDS	(sizeof ban_fields / sizeof ban_fields[0])

static const char * const ban_ops[] = {
	[BO_EQ] = "==", [BO_NE] = "!=", [BO_MATCH] = "~", [BO_NMATCH] = "!~",
	[BO_LT] = "<", [BO_LE] = "<=", [BO_GT] = ">", [BO_GE] = ">=",
};
#define BAN_NOPS	(sizeof ban_ops / sizeof ban_ops[0])

/* A header name: an RFC 9110 token. */
static int
ban_token(const char *s)
{

	if (*s == '\0')
		return (0);
	return (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789!#$%&'*+-.^_`|~")] == '\0');
}

static void
ban_term_free(struct ban_term *t)
{

	free(t->hdr);
	free(t->arg);
	if (t->re != NULL)
		pcre2_code_free(t->re);
	memset(t, 0, sizeof *t);
}

void
BAN_ExprFree(struct ban_expr **bep)
{
	struct ban_expr *be;
	unsigned u;

	TAKE_OBJ_NOTNULL(be, bep, BAN_EXPR_MAGIC);
	for (u = 0; u < be->n; u++)
		ban_term_free(&be->t[u]);
	free(be->text);
	FREE_OBJ(be);
}

/* One "field op arg"; 0, or -1 with err. */
static int
ban_term_parse(struct ban_term *t, const char *field, const char *op,
    const char *arg, char *err, size_t errlen)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	const char *e;
	unsigned u, is_num = 0;
	size_t l;
	int rc;

	for (u = 0; u < BAN_NFIELDS; u++) {
		l = strlen(ban_fields[u].name);
		if (ban_fields[u].is_hdr ? !strncmp(field, ban_fields[u].name,
		    l) : !strcmp(field, ban_fields[u].name))
			break;
	}
	if (u == BAN_NFIELDS) {
		(void)snprintf(err, errlen, "Unknown or unsupported field "
		    "\"%s\" (req.url, req.http.NAME, obj.status, "
		    "obj.http.NAME, obj.ttl, obj.age, obj.grace, obj.keep)",
		    field);
		return (-1);
	}
	t->field = ban_fields[u].field;
	is_num = ban_fields[u].is_num;
	if (ban_fields[u].is_hdr) {
		if (!ban_token(field + l)) {
			(void)snprintf(err, errlen, "\"%s\": a header name "
			    "after \"%s\" is missing or not a token", field,
			    ban_fields[u].name);
			return (-1);
		}
		t->hdr = strdup(field + l);
		assert(t->hdr != NULL);
	}
	for (u = 0; u < BAN_NOPS; u++)
		if (!strcmp(op, ban_ops[u]))
			break;
	if (u == BAN_NOPS) {
		(void)snprintf(err, errlen, "%s: expected an operator (== != "
		    "~ !~ < <= > >=), found \"%s\"", field, op);
		return (-1);
	}
	t->op = (enum ban_op)u;
	if (is_num && (t->op == BO_MATCH || t->op == BO_NMATCH)) {
		(void)snprintf(err, errlen, "%s is a number: it takes == != "
		    "< <= > >=, not %s", field, op);
		return (-1);
	}
	if (!is_num && t->op >= BO_LT) {
		(void)snprintf(err, errlen, "%s is a string: it takes == != "
		    "~ !~, not %s", field, op);
		return (-1);
	}
	t->arg = strdup(arg);
	assert(t->arg != NULL);
	t->arg_len = strlen(arg);
	if (t->field == BF_OBJ_STATUS) {
		e = NUM_ParseUint(arg, &u);
		if (e != NULL || u > 999) {
			(void)snprintf(err, errlen, "obj.status: \"%s\" is not "
			    "a status code", arg);
			return (-1);
		}
		t->num = u;
	} else if (is_num) {
		e = NUM_ParseDuration(arg, &t->num);
		if (e != NULL) {
			(void)snprintf(err, errlen, "%s: \"%s\" is not a "
			    "duration (%s)", field, arg, e);
			return (-1);
		}
	} else if (t->op == BO_MATCH || t->op == BO_NMATCH) {
		t->re = pcre2_compile((PCRE2_SPTR)arg, PCRE2_ZERO_TERMINATED,
		    0, &rc, &off, NULL);
		if (t->re == NULL) {
			(void)pcre2_get_error_message(rc, msg, sizeof msg);
			(void)snprintf(err, errlen, "%s: regex \"%s\" does not "
			    "compile: %s (at offset %zu)", field, arg,
			    (const char *)msg, (size_t)off);
			return (-1);
		}
		(void)pcre2_jit_compile(t->re, PCRE2_JIT_COMPLETE);
	}
	return (0);
}

static int
ban_is_duration(enum ban_field f)
{

	return (f == BF_OBJ_TTL || f == BF_OBJ_AGE || f == BF_OBJ_GRACE ||
	    f == BF_OBJ_KEEP);
}

/*
 * A duration as varnishd lists it: in the largest unit that holds it
 * whole (1.5h is 90m, 0.5m is 30s), so that "ban obj.ttl > 1.5h" and
 * "... > 90m" read, and deduplicate, as the same ban.
 */
/* Does text read back as exactly d? */
static int
ban_duration_same(const char *text, double d)
{
	double d2;

	return (NUM_ParseDuration(text, &d2) == NULL && d2 == d);
}

static int
ban_duration_text(double d, char *buf, size_t len)
{
	static const struct {
		const char	*unit;
		double		secs;
	} units[] = {
		{ "y", 365. * 86400 }, { "w", 7. * 86400 }, { "d", 86400 },
		{ "h", 3600 }, { "m", 60 }, { "s", 1 }, { "ms", 1e-3 },
	};
	double v;
	unsigned u;
	int prec;

	if (d == 0) {
		(void)snprintf(buf, len, "0s");
		return (0);
	}
	for (u = 0; u < sizeof units / sizeof units[0]; u++) {
		/* Milliseconds below a second only: 6.789s stays so. */
		if (units[u].secs < 1 && fabs(d) >= 1)
			continue;
		v = d / units[u].secs;
		if (fabs(v) < 1 || fabs(v) > 1e15 ||
		    fabs(v - round(v)) >= 1e-6)
			continue;
		(void)snprintf(buf, len, "%.0f%s", round(v), units[u].unit);
		if (ban_duration_same(buf, d))
			return (0);
	}
	/* Seconds with as few decimals as read back exactly. */
	for (prec = 0; prec <= 17; prec++) {
		(void)snprintf(buf, len, "%.*fs", prec, d);
		if (ban_duration_same(buf, d))
			return (0);
	}
	return (-1);		/* the caller keeps the text as typed */
}

/* Append s to the canonical text, quoted when it must be. */
static void
ban_text_add(char **txt, size_t *len, const char *s, int sep)
{
	char *w;
	size_t l;

	w = CLI_QuoteWord(s);
	assert(w != NULL);
	l = strlen(w);
	*txt = realloc(*txt, *len + l + 2);
	assert(*txt != NULL);
	if (sep)
		(*txt)[(*len)++] = ' ';
	memcpy(*txt + *len, w, l + 1);
	*len += l;
	free(w);
}

struct ban_expr *
BAN_ExprParse(char * const *av, int ac, char *err, size_t errlen)
{
	struct ban_expr *be;
	size_t tl = 0;
	int i;

	if (ac < 3) {
		(void)snprintf(err, errlen, "A ban is \"field operator "
		    "argument\" [&& ...]; %s", ac == 0 ? "it is empty" :
		    "this one is too short");
		return (NULL);
	}
	ALLOC_OBJ(be, BAN_EXPR_MAGIC);
	assert(be != NULL);
	/* ac >= 3: the loop ends at the last condition, or an error. */
	for (i = 0; ; i += 4) {
		if (i + 3 > ac) {
			(void)snprintf(err, errlen, "After \"&&\": expected "
			    "\"field operator argument\"");
			BAN_ExprFree(&be);
			return (NULL);
		}
		if (be->n == BAN_MAX_TERMS) {
			(void)snprintf(err, errlen, "A ban has at most %d "
			    "conditions", BAN_MAX_TERMS);
			BAN_ExprFree(&be);
			return (NULL);
		}
		if (ban_term_parse(&be->t[be->n++], av[i], av[i + 1],
		    av[i + 2], err, errlen) != 0) {
			BAN_ExprFree(&be);
			return (NULL);
		}
		ban_text_add(&be->text, &tl, av[i], i > 0);
		ban_text_add(&be->text, &tl, av[i + 1], 1);
		if (ban_is_duration(be->t[be->n - 1].field)) {
			char dur[512];

			ban_text_add(&be->text, &tl, ban_duration_text(
			    be->t[be->n - 1].num, dur, sizeof dur) == 0 ?
			    dur : av[i + 2], 1);
		} else {
			ban_text_add(&be->text, &tl, av[i + 2], 1);
		}
		if (i + 3 == ac)
			break;
		if (strcmp(av[i + 3], "&&")) {
			(void)snprintf(err, errlen, "Expected \"&&\" between "
			    "conditions, found \"%s\"", av[i + 3]);
			BAN_ExprFree(&be);
			return (NULL);
		}
		ban_text_add(&be->text, &tl, "&&", 1);
	}
	return (be);
}

struct ban_expr *
BAN_ExprParseString(const char *s, char *err, size_t errlen)
{
	struct ban_expr *be;
	const char *perr;
	char **av;
	int ac;

	av = CLI_ParseArgs(s, &perr);
	if (av == NULL) {
		(void)snprintf(err, errlen, "%s", perr);
		return (NULL);
	}
	for (ac = 0; av[ac] != NULL; ac++)
		continue;
	be = BAN_ExprParse(av, ac, err, errlen);
	CLI_FreeArgs(av);
	return (be);
}

int
BAN_ExprUsesReq(const struct ban_expr *be)
{
	unsigned u;

	CHECK_OBJ(be, BAN_EXPR_MAGIC);
	for (u = 0; u < be->n; u++)
		if (be->t[u].field == BF_REQ_URL ||
		    be->t[u].field == BF_REQ_HTTP)
			return (1);
	return (0);
}

int
BAN_ExprStoredReq(const struct ban_expr *be)
{
	unsigned u;

	CHECK_OBJ(be, BAN_EXPR_MAGIC);
	for (u = 0; u < be->n; u++)
		if (be->t[u].field == BF_REQ_HTTP &&
		    strcasecmp(be->t[u].hdr, "host"))
			return (0);
	return (1);
}

const char *
BAN_ExprText(const struct ban_expr *be)
{

	CHECK_OBJ(be, BAN_EXPR_MAGIC);
	return (be->text);
}

int
BAN_ExprSame(const struct ban_expr *a, const struct ban_expr *b)
{

	CHECK_OBJ(a, BAN_EXPR_MAGIC);
	CHECK_OBJ(b, BAN_EXPR_MAGIC);
	return (!strcmp(a->text, b->text));
}

/*
 * Match data for the yes-or-no of ~: one per thread, made the first
 * time and kept, so evaluating a ban allocates nothing (a hit may test
 * many bans).
 */
static __thread pcre2_match_data *ban_md;

/* A string condition on a value (NULL: absent). */
static int
ban_str(const struct ban_term *t, const char *v, size_t len)
{
	int r;

	switch (t->op) {
	case BO_EQ:
		return (v != NULL && len == t->arg_len &&
		    !memcmp(v, t->arg, len));
	case BO_NE:
		return (v == NULL || len != t->arg_len ||
		    memcmp(v, t->arg, len) != 0);
	case BO_MATCH:
	case BO_NMATCH:
		if (v == NULL)
			return (t->op == BO_NMATCH);
		if (ban_md == NULL)
			ban_md = pcre2_match_data_create(1, NULL);
		assert(ban_md != NULL);
		/* 0 (too few pairs for the groups) is still a match. */
		r = pcre2_match(t->re, (PCRE2_SPTR)v, len, 0, 0, ban_md,
		    NULL);
		return ((r >= 0) == (t->op == BO_MATCH));
	default:
		WRONG("string ban operator");
	}
}

static int
ban_num(const struct ban_term *t, double v)
{

	switch (t->op) {
	case BO_EQ: return (v == t->num);
	case BO_NE: return (v != t->num);
	case BO_LT: return (v < t->num);
	case BO_LE: return (v <= t->num);
	case BO_GT: return (v > t->num);
	case BO_GE: return (v >= t->num);
	default: WRONG("numeric ban operator");
	}
}

int
BAN_ExprMatch(const struct ban_expr *be, const struct ban_req *req,
    const struct ban_obj *obj)
{
	const struct ban_term *t;
	const char *v;
	size_t len;
	int undecided = 0;
	unsigned u;

	CHECK_OBJ(be, BAN_EXPR_MAGIC);
	assert(obj != NULL);
	/* Object conditions first: they decide without the request. */
	for (u = 0; u < be->n; u++) {
		t = &be->t[u];
		switch (t->field) {
		case BF_REQ_URL:
		case BF_REQ_HTTP:
			continue;
		case BF_OBJ_HTTP:
			len = 0;
			v = obj->hdr(obj->priv, t->hdr, &len);
			if (!ban_str(t, v, len))
				return (0);
			break;
		case BF_OBJ_STATUS:
			if (!ban_num(t, obj->status))
				return (0);
			break;
		case BF_OBJ_TTL:
			if (!ban_num(t, obj->ttl))
				return (0);
			break;
		case BF_OBJ_AGE:
			if (!ban_num(t, obj->age))
				return (0);
			break;
		case BF_OBJ_GRACE:
			if (!ban_num(t, obj->grace))
				return (0);
			break;
		case BF_OBJ_KEEP:
			if (!ban_num(t, obj->keep))
				return (0);
			break;
		default:
			WRONG("ban field");
		}
	}
	for (u = 0; u < be->n; u++) {
		t = &be->t[u];
		if (t->field != BF_REQ_URL && t->field != BF_REQ_HTTP)
			continue;
		if (req == NULL) {
			undecided = 1;
			continue;
		}
		if (t->field == BF_REQ_URL) {
			if (!ban_str(t, req->url, req->url_len))
				return (0);
		} else {
			len = 0;
			v = req->hdr(req->priv, t->hdr, &len);
			if (!ban_str(t, v, len))
				return (0);
		}
	}
	return (undecided ? -1 : 1);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ban_expr.h -- ban expressions: "field op argument" conditions joined
 * by "&&", as the CLI's ban command, VCL's ban() and std.ban() take
 * them (Varnish 7.1's syntax).  Parsed and checked once, when the ban
 * is added; evaluated against an object (and, for req.* fields, the
 * request that hit it) by the ban list.
 *
 * Fields: req.url, req.http.NAME, obj.status, obj.http.NAME, obj.ttl,
 * obj.age, obj.grace, obj.keep.  Strings take == != ~ !~ (~ is a PCRE2
 * regex, compiled at parse time); obj.status and the durations take
 * == != < <= > >= with a number (durations with units: 30s, 2h).
 */

#ifndef VENEER_CACHE_BAN_EXPR_H
#define VENEER_CACHE_BAN_EXPR_H

#include <stddef.h>

#define BAN_MAX_TERMS	16

enum ban_field {
	BF_REQ_URL,
	BF_REQ_HTTP,
	BF_OBJ_STATUS,
	BF_OBJ_HTTP,
	BF_OBJ_TTL,
	BF_OBJ_AGE,
	BF_OBJ_GRACE,
	BF_OBJ_KEEP,
};

enum ban_op {
	BO_EQ,
	BO_NE,
	BO_MATCH,
	BO_NMATCH,
	BO_LT,
	BO_LE,
	BO_GT,
	BO_GE,
};

struct ban_expr;

/*
 * Parse the words of a ban (av[0..ac)): "req.url" "~" "^/a" "&&" ...
 * Returns the expression, or NULL with err saying what is wrong and
 * where ("obj.ttl: \"soon\" is not a duration").
 */
struct ban_expr *BAN_ExprParse(char * const *av, int ac, char *err,
    size_t errlen);
/* The same from one string, split as the CLI splits a line. */
struct ban_expr *BAN_ExprParseString(const char *s, char *err,
    size_t errlen);
void BAN_ExprFree(struct ban_expr **bep);

/* Does it test a req.* field (so only a lookup can evaluate it)? */
int BAN_ExprUsesReq(const struct ban_expr *be);
/*
 * Are its req.* terms only on req.url and req.http.host, so that the URL
 * and Host of the request that fetched an object can stand in for the
 * request's (ban.h)?
 */
int BAN_ExprStoredReq(const struct ban_expr *be);
/* Its canonical text, as ban.list shows it (words quoted as needed). */
const char *BAN_ExprText(const struct ban_expr *be);
/* Do two expressions say the same (a newer duplicate completes the older)? */
int BAN_ExprSame(const struct ban_expr *a, const struct ban_expr *b);

/*
 * What an evaluation looks at.  hdr returns a header's value (leading
 * and trailing blanks trimmed, its length in *lenp), or NULL if absent.
 */
typedef const char *ban_hdr_f(void *priv, const char *name, size_t *lenp);

struct ban_req {
	const char	*url;
	size_t		url_len;
	ban_hdr_f	*hdr;
	void		*priv;
};

struct ban_obj {
	unsigned	status;
	double		ttl;
	double		age;
	double		grace;
	double		keep;
	ban_hdr_f	*hdr;
	void		*priv;
};

/*
 * 1 if every condition holds for the object (and req), 0 if one does
 * not; -1 when req is NULL and a req.* condition decides (the lurker
 * cannot tell; the next lookup will).
 */
int BAN_ExprMatch(const struct ban_expr *be, const struct ban_req *req,
    const struct ban_obj *obj);

#endif /* VENEER_CACHE_BAN_EXPR_H */

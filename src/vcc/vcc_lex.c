/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_lex.c -- the VCL compiler's lexer: sources read whole, split into
 * tokens with their line and column, `include "file";` replaced by the
 * file's tokens as it is met (relative to the including file, then the
 * vcl_path directories); and the arena, buffers and error reports the
 * rest of the compiler uses.
 */

#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcc/vcc_priv.h"

void *
vcc_alloc(struct vcc *tl, size_t len)
{
	void *p;

	if (tl->narena == tl->carena) {
		tl->carena = tl->carena ? tl->carena * 2 : 256;
		tl->arena = realloc(tl->arena, tl->carena * sizeof *tl->arena);
		if (tl->arena == NULL)
			abort();
	}
	p = calloc(1, len == 0 ? 1 : len);
	if (p == NULL)
		abort();
	tl->arena[tl->narena++] = p;
	return (p);
}

char *
vcc_strndup(struct vcc *tl, const char *s, size_t len)
{
	char *p = vcc_alloc(tl, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return (p);
}

char *
vcc_strdup(struct vcc *tl, const char *s)
{

	return (vcc_strndup(tl, s, strlen(s)));
}

/*
 * Buffers grow in the arena too (their entry is replaced when they
 * move), so an error leaving through longjmp leaks none of them.
 */
static void
vbuf_grow(struct vcc *tl, struct vbuf *vb, size_t add)
{
	size_t i;
	char *n;

	if (vb->len + add + 1 <= vb->cap)
		return;
	while (vb->len + add + 1 > vb->cap)
		vb->cap = vb->cap ? vb->cap * 2 : 256;
	if (vb->s == NULL) {
		vb->s = vcc_alloc(tl, vb->cap);
		return;
	}
	for (i = tl->narena; i > 0; i--)
		if (tl->arena[i - 1] == vb->s)
			break;
	assert(i > 0);
	n = realloc(vb->s, vb->cap);
	if (n == NULL)
		abort();
	tl->arena[i - 1] = n;
	vb->s = n;
}

void
vbuf_cat(struct vcc *tl, struct vbuf *vb, const char *s)
{
	size_t l = strlen(s);

	vbuf_grow(tl, vb, l);
	memcpy(vb->s + vb->len, s, l + 1);
	vb->len += l;
}

void
vbuf_vprintf(struct vcc *tl, struct vbuf *vb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	assert(n >= 0);
	vbuf_grow(tl, vb, (size_t)n);
	(void)vsnprintf(vb->s + vb->len, (size_t)n + 1, fmt, ap);
	vb->len += (size_t)n;
}

void
vbuf_printf(struct vcc *tl, struct vbuf *vb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vbuf_vprintf(tl, vb, fmt, ap);
	va_end(ap);
}

char *
vcc_cstr(struct vcc *tl, const char *s)
{
	struct vbuf vb = { NULL, 0, 0 };
	const unsigned char *p;
	char *r;

	vbuf_cat(tl, &vb, "\"");
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			vbuf_printf(tl, &vb, "\\%c", *p);
		else if (*p == '\n')
			vbuf_cat(tl, &vb, "\\n\"\n\t    \"");
		else if (*p < 0x20 || *p >= 0x7f || *p == '?')
			vbuf_printf(tl, &vb, "\\%03o\"\"", *p);
		else
			vbuf_printf(tl, &vb, "%c", *p);
	}
	vbuf_cat(tl, &vb, "\"");
	r = vcc_strdup(tl, vb.s);
	return (r);
}

/* "file:line:col: kind: message", the line, a caret under the token. */
static void
vcc_report(struct vcc *tl, const struct token *t, const char *kind,
    const char *fmt, va_list ap)
{
	const char *lb, *le, *p;
	size_t tlen, u;
	char buf[2048];

	(void)vsnprintf(buf, sizeof buf, fmt, ap);
	if (t == NULL || t->src == NULL) {
		vbuf_printf(tl, &tl->msg, "%s: %s\n", kind, buf);
		return;
	}
	vbuf_printf(tl, &tl->msg, "%s:%u:%u: %s: %s\n", t->src->name,
	    t->line, t->col, kind, buf);
	/* The line from the text itself, not from col: never outside it. */
	for (lb = t->b; lb > t->src->text && lb[-1] != '\n'; lb--)
		continue;
	for (le = t->b; *le != '\0' && *le != '\n'; le++)
		continue;
	vbuf_printf(tl, &tl->msg, "  %.*s\n  ", (int)(le - lb), lb);
	for (p = lb; p < t->b; p++)
		vbuf_cat(tl, &tl->msg, *p == '\t' ? "\t" : " ");
	vbuf_cat(tl, &tl->msg, "^");
	tlen = (size_t)(t->e - t->b);
	if (t->b + tlen > le)
		tlen = (size_t)(le - t->b);
	for (u = 1; u < tlen && u < 200; u++)
		vbuf_cat(tl, &tl->msg, "~");
	vbuf_cat(tl, &tl->msg, "\n");
}

void
vcc_error(struct vcc *tl, const struct token *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcc_report(tl, t, "error", fmt, ap);
	va_end(ap);
	longjmp(tl->bail, 1);
}

void
vcc_warn(struct vcc *tl, const struct token *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcc_report(tl, t, "warning", fmt, ap);
	va_end(ap);
	/* Varnish's closing line, which scripts look for. */
	vbuf_cat(tl, &tl->msg, "(That was just a warning)\n");
}

int
vcc_is(const struct token *t, const char *s)
{
	size_t l = strlen(s);

	return ((size_t)(t->e - t->b) == l && !memcmp(t->b, s, l) &&
	    (t->tok == T_ID || t->tok == T_OP));
}

int
vcc_idlen(const struct token *t)
{

	return ((int)(t->e - t->b));
}

static struct token *
vcc_newtok(struct vcc *tl)
{

	if (tl->ntoks == tl->ctoks) {
		tl->ctoks = tl->ctoks ? tl->ctoks * 2 : 1024;
		tl->toks = realloc(tl->toks, tl->ctoks * sizeof *tl->toks);
		if (tl->toks == NULL)
			abort();
	}
	memset(&tl->toks[tl->ntoks], 0, sizeof tl->toks[0]);
	return (&tl->toks[tl->ntoks++]);
}

static const char * const vcc_ops[] = {
	"==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "!~",
	"++", "--", ">>", "<<",
	"~", "!", "<", ">", "=", "+", "-", "*", "/", "(", ")", "{", "}",
	";", ",", ".", "%", "&", "|", NULL
};

/* Tokens that run to a closing mark, newlines and all. */
static const struct {
	const char	*open;
	const char	*close;
	enum tok	tok;
} vcc_delims[] = {
	{ "C{",		"}C",		T_CSRC },
	{ "{\"",	"\"}",		T_STR },
	{ "\"\"\"",	"\"\"\"",	T_STR },
};

static int
vcc_isid1(int c)
{

	return (isalpha(c) || c == '_');
}

static int
vcc_isid(int c)
{

	return (isalnum(c) || c == '_' || c == '-' || c == '.');
}

static char *
vcc_readfile(const char *path)
{
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f;

	f = fopen(path, "r");
	if (f == NULL)
		return (NULL);
	for (;;) {
		buf = realloc(buf, len + 65536 + 1);
		if (buf == NULL)
			abort();
		n = fread(buf + len, 1, 65536, f);
		len += n;
		if (n == 0)
			break;
		/* include "/dev/zero" must not eat the manager's memory. */
		if (len > VCC_MAX_FILE) {
			(void)fclose(f);
			free(buf);
			errno = EFBIG;
			return (NULL);
		}
	}
	(void)fclose(f);
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		errno = EINVAL;
		return (NULL);
	}
	return (buf);
}

/* include "name": beside the includer, then each vcl_path directory. */
static char *
vcc_find_include(struct vcc *tl, const struct vsrc *from, const char *name,
    char **textp)
{
	const char *p, *e, *slash;
	char path[4096];

	if (name[0] == '/') {
		*textp = vcc_readfile(name);
		return (vcc_strdup(tl, name));
	}
	slash = strrchr(from->name, '/');
	if (slash != NULL && !from->builtin) {
		(void)snprintf(path, sizeof path, "%.*s/%s",
		    (int)(slash - from->name), from->name, name);
		if (access(path, F_OK) == 0) {
			*textp = vcc_readfile(path);
			return (vcc_strdup(tl, path));
		}
	} else if (access(name, F_OK) == 0) {
		*textp = vcc_readfile(name);
		return (vcc_strdup(tl, name));
	}
	p = tl->opts->vcl_path != NULL ? tl->opts->vcl_path : "";
	for (; *p != '\0'; p = e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		if (e > p) {
			(void)snprintf(path, sizeof path, "%.*s/%s",
			    (int)(e - p), p, name);
			if (access(path, F_OK) == 0) {
				*textp = vcc_readfile(path);
				return (vcc_strdup(tl, path));
			}
		}
		if (*e == ':')
			e++;
	}
	*textp = NULL;
	return (NULL);
}

/*
 * include "+glob" "pattern": every file the pattern matches, in glob(3)'s
 * order; a relative pattern is looked for beside the includer, then in
 * each vcl_path directory, and the first place with a match wins.
 */
static void
vcc_lex_glob(struct vcc *tl, const struct vsrc *src, const struct token *inc,
    unsigned depth)
{
	const char *p, *e, *slash;
	char pat[4096], *text;
	const char **paths;
	glob_t g;
	size_t u, n;
	int r = GLOB_NOMATCH;

	memset(&g, 0, sizeof g);
	slash = src->builtin ? NULL : strrchr(src->name, '/');
	if (inc->dec[0] == '/')
		r = glob(inc->dec, 0, NULL, &g);
	else if (slash != NULL) {
		(void)snprintf(pat, sizeof pat, "%.*s/%s",
		    (int)(slash - src->name), src->name, inc->dec);
		r = glob(pat, 0, NULL, &g);
	}
	p = tl->opts->vcl_path != NULL ? tl->opts->vcl_path : "";
	for (; r == GLOB_NOMATCH && inc->dec[0] != '/' &&
	    strncmp(inc->dec, "./", 2) && *p != '\0'; p = e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		if (e > p) {
			globfree(&g);
			(void)snprintf(pat, sizeof pat, "%.*s/%s",
			    (int)(e - p), p, inc->dec);
			r = glob(pat, 0, NULL, &g);
		}
		if (*e == ':')
			e++;
	}
	if (r != 0) {
		globfree(&g);
		vcc_error(tl, inc, "glob pattern matched no files. (\"%s\", "
		    "looked beside %s and in vcl_path %s)", inc->dec,
		    src->name, tl->opts->vcl_path != NULL ?
		    tl->opts->vcl_path : "(empty)");
	}
	/* Into the arena, g freed: an error in one file must not leak it. */
	n = g.gl_pathc;
	paths = vcc_alloc(tl, n * sizeof *paths);
	for (u = 0; u < n; u++)
		paths[u] = vcc_strdup(tl, g.gl_pathv[u]);
	globfree(&g);
	for (u = 0; u < n; u++) {
		text = vcc_readfile(paths[u]);
		if (text == NULL)
			vcc_error(tl, inc, "cannot read \"%s\" (matched by "
			    "\"%s\"): %s", paths[u], inc->dec,
			    strerror(errno));
		p = vcc_strdup(tl, text);
		free(text);
		vcc_lex_source(tl, paths[u], p, 0, depth + 1);
	}
}

/*
 * The tokens just read end `include "file";` or `include +glob "pat";`:
 * replace them with the tokens of what they name.
 */
static void
vcc_lex_include(struct vcc *tl, const struct vsrc *src, size_t first,
    unsigned depth)
{
	const struct token *inc, *g;
	struct token itok;
	char *ipath, *itext, *itext_a;
	size_t n = tl->ntoks;
	unsigned u, glob_it = 0;

	inc = &tl->toks[n - 2];
	if (!vcc_is(&tl->toks[n - 3], "include")) {
		if (n - first < 5 || !vcc_is(&tl->toks[n - 4], "+") ||
		    !vcc_is(&tl->toks[n - 5], "include"))
			return;
		g = &tl->toks[n - 3];
		if (!vcc_is(g, "glob") || g->b != tl->toks[n - 4].e)
			vcc_error(tl, g, "Unknown include flag: '%s' (the "
			    "one flag is +glob)", vcc_strndup(tl, g->b,
			    (size_t)(g->e - g->b)));
		glob_it = 1;
	}
	if (depth >= 10)
		vcc_error(tl, inc, "includes nested more than 10 deep (an "
		    "include loop?)");
	for (u = 0; u < tl->nincl; u++)
		if (!strcmp(tl->incl_stack[u], inc->dec))
			vcc_error(tl, inc, "\"%s\" includes itself",
			    inc->dec);
	if (tl->opts->safe_path && strchr(inc->dec, '/') != NULL)
		vcc_error(tl, inc, "VCL filename '%s' is unsafe: with "
		    "vcc_unsafe_path off an include names a file in vcl_path, "
		    "without '/'", inc->dec);
	/* "./x": beside the includer, which needs a place. */
	if (!strncmp(inc->dec, "./", 2) &&
	    (src->builtin || src->name[0] != '/'))
		vcc_error(tl, inc, "include \"%s\" needs absolute filename "
		    "of including file. %s has none; say where from vcl_path, "
		    "without ./", inc->dec, src->name);
	tl->ntoks -= glob_it ? 5 : 3;
	tl->incl_stack[tl->nincl++] = inc->dec;
	if (glob_it) {
		/* A copy: lexing the files may move tl->toks. */
		itok = *inc;
		vcc_lex_glob(tl, src, &itok, depth);
		tl->nincl--;
		return;
	}
	ipath = vcc_find_include(tl, src, inc->dec, &itext);
	if (ipath == NULL || itext == NULL) {
		free(itext);
		vcc_error(tl, inc, "cannot find \"%s\" to include (looked "
		    "beside %s and in vcl_path %s)", inc->dec, src->name,
		    tl->opts->vcl_path != NULL ? tl->opts->vcl_path :
		    "(empty)");
	}
	/* In the arena before anything can fail. */
	itext_a = vcc_strdup(tl, itext);
	free(itext);
	vcc_lex_source(tl, ipath, itext_a, 0, depth + 1);
	tl->nincl--;
}

static void
vcc_tokenize(struct vcc *tl, struct vsrc *src, unsigned depth)
{
	const char *p = src->text, *q, *ls = src->text;
	unsigned line = 1, u;
	struct token *t;
	size_t first = tl->ntoks, l, ol;

#define TOK_AT(tt, bb)	do {						\
		t = vcc_newtok(tl);					\
		t->tok = (tt);						\
		t->src = src;						\
		t->b = (bb);						\
		t->line = line;						\
		t->col = (unsigned)((bb) - ls) + 1;			\
	} while (0)

	while (*p != '\0') {
		if (*p == '\n') {
			line++;
			ls = ++p;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#' || (p[0] == '/' && p[1] == '/')) {
			while (*p != '\0' && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			TOK_AT(T_EOF, p);
			t->e = p + 2;
			for (q = p + 2; *q != '\0' && !(q[0] == '*' &&
			    q[1] == '/'); q++)
				if (*q == '\n') {
					line++;
					ls = q + 1;
				}
			if (*q == '\0')
				vcc_error(tl, t, "Unterminated /* ... */ "
				    "comment, starting at the caret");
			tl->ntoks--;
			p = q + 2;
			continue;
		}
		for (u = 0; u < sizeof vcc_delims / sizeof vcc_delims[0]; u++)
			if (!strncmp(p, vcc_delims[u].open,
			    strlen(vcc_delims[u].open)))
				break;
		if (u < sizeof vcc_delims / sizeof vcc_delims[0]) {
			/* C{ }C and the strings that may span lines */
			ol = strlen(vcc_delims[u].open);
			l = strlen(vcc_delims[u].close);
			TOK_AT(vcc_delims[u].tok, p);
			t->e = p + ol;
			q = strstr(p + ol, vcc_delims[u].close);
			if (q == NULL)
				vcc_error(tl, t, "Unterminated %s, starting "
				    "at the caret: %s without %s",
				    vcc_delims[u].tok == T_CSRC ?
				    "inline C source" : "long-string",
				    vcc_delims[u].open, vcc_delims[u].close);
			t->dec = vcc_strndup(tl, p + ol, (size_t)(q - p - ol));
			t->e = q + l;
			for (; p < q; p++)
				if (*p == '\n') {
					line++;
					ls = p + 1;
				}
			p = q + l;
			continue;
		}
		if (*p == '"') {
			TOK_AT(T_STR, p);
			for (q = p + 1; *q != '\0' && *q != '"' && *q != '\n';
			    q++)
				continue;
			t->e = q;
			if (*q != '"')
				vcc_error(tl, t, "Unterminated string, "
				    "starting at the caret: a \"...\" string "
				    "ends on its line (use {\"...\"} for "
				    "several lines)");
			t->dec = vcc_strndup(tl, p + 1, (size_t)(q - p - 1));
			t->e = q + 1;
			p = q + 1;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			TOK_AT(T_NUM, p);
			for (q = p; isdigit((unsigned char)*q); q++)
				continue;
			/* "1." is a REAL too, as Varnish reads it. */
			if (*q == '.') {
				t->is_real = 1;
				for (q++; isdigit((unsigned char)*q); q++)
					continue;
			}
			t->e = q;
			t->num = strtod(vcc_strndup(tl, p, (size_t)(q - p)),
			    NULL);
			/* Anything bigger is no INT, nor a sane REAL in C. */
			if (t->num > 9e18)
				vcc_error(tl, t, "number too big (VCL numbers "
				    "are at most 9e18)");
			p = q;
			continue;
		}
		if (vcc_isid1((unsigned char)*p)) {
			TOK_AT(T_ID, p);
			for (q = p; vcc_isid((unsigned char)*q); q++)
				continue;
			/* a trailing '.' is punctuation */
			while (q > p + 1 && q[-1] == '.')
				q--;
			t->e = q;
			p = q;
			continue;
		}
		for (u = 0; vcc_ops[u] != NULL; u++) {
			l = strlen(vcc_ops[u]);
			if (!strncmp(p, vcc_ops[u], l))
				break;
		}
		TOK_AT(T_OP, p);
		t->e = p + 1;
		if (vcc_ops[u] == NULL)
			vcc_error(tl, t, "Syntax error at the caret: "
			    "unexpected character '%c' (0x%02x)",
			    isprint((unsigned char)*p) ? *p : '?',
			    (unsigned char)*p);
		t->e = p + strlen(vcc_ops[u]);
		p = t->e;

		/* include "file"; -- as soon as its ';' is read */
		if (vcc_is(t, ";") && tl->ntoks - first >= 3 &&
		    tl->toks[tl->ntoks - 2].tok == T_STR)
			vcc_lex_include(tl, src, first, depth);
	}
	/*
	 * An include left over was not followed by its string: say so
	 * before the parser trips on what is around it, as Varnish does.
	 */
	for (l = first; l + 1 < tl->ntoks; l++)
		if (tl->toks[l].tok == T_ID &&
		    vcc_is(&tl->toks[l], "include") &&
		    tl->toks[l + 1].tok != T_STR &&
		    !vcc_is(&tl->toks[l + 1], "+"))
			vcc_error(tl, &tl->toks[l + 1], "include not followed "
			    "by string constant. Say `include \"file\";`");
#undef TOK_AT
}

void
vcc_lex_source(struct vcc *tl, const char *name, const char *text,
    unsigned builtin, unsigned depth)
{
	struct vsrc *src;

	src = vcc_alloc(tl, sizeof *src);
	src->name = vcc_strdup(tl, name);
	src->text = vcc_strdup(tl, text);
	src->builtin = builtin;
	src->next = tl->srcs;
	tl->srcs = src;
	vcc_tokenize(tl, src, depth);
}

/* The end: an EOF token just past the last one, for error positions. */
void
vcc_lex_eof(struct vcc *tl)
{
	struct token last, *eof;
	unsigned have = tl->ntoks > 0;

	if (have)
		last = tl->toks[tl->ntoks - 1];
	eof = vcc_newtok(tl);
	eof->tok = T_EOF;
	if (have) {
		const char *p;

		eof->src = last.src;
		eof->b = eof->e = last.e;
		eof->line = last.line;
		eof->col = last.col;
		for (p = last.b; p < last.e; p++) {
			if (*p == '\n') {
				eof->line++;
				eof->col = 1;
			} else
				eof->col++;
		}
	}
}

/* Edit distance, for "did you mean". */
unsigned
vcc_lev(const char *a, const char *b)
{
	unsigned d[64][64], i, j, la = (unsigned)strlen(a),
	    lb = (unsigned)strlen(b), c;

	if (la >= 64 || lb >= 64)
		return (99);
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
		}
	return (d[la][lb]);
}

/* s made safe inside a C comment: a file name may hold a star-slash. */
const char *
vcc_cmt(struct vcc *tl, const char *s)
{
	char *r, *p;

	r = vcc_strdup(tl, s);
	for (p = r; (p = strstr(p, "*/")) != NULL; p++)
		p[1] = '|';
	return (r);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_priv.h -- the VCL compiler's insides: sources and tokens
 * (vcc_lex.c), growing buffers, errors, and the compile state the parser
 * and emitter (vcc_parse.c) share.  Everything a compilation allocates
 * goes in its arena and is freed at the end, so an error can leave
 * through longjmp from any depth.
 */

#ifndef VENEER_VCC_PRIV_H
#define VENEER_VCC_PRIV_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include "vcc/vcc.h"

/* No VCL file is bigger; reading one stops there (/dev/zero). */
#define VCC_MAX_FILE	(64U << 20)

/* A growing string. */
struct vbuf {
	char		*s;
	size_t		len;
	size_t		cap;
};

enum tok {
	T_EOF,
	T_ID,		/* req.http.X-Foo, vcl_recv, std.log */
	T_STR,		/* "...", {"..."}, """...""" (dec: the text) */
	T_NUM,		/* 10, 1.5 (is_real) */
	T_OP,		/* == && ( { ; and the like */
	T_CSRC,		/* C{ ... }C (dec: the C) */
};

struct vsrc {
	const char	*name;		/* as given or as resolved */
	const char	*text;		/* NUL-terminated */
	unsigned	builtin;	/* builtin.vcl */
	struct vsrc	*next;
};

struct token {
	enum tok		tok;
	const char		*b, *e;		/* in src->text */
	const struct vsrc	*src;
	unsigned		line, col;	/* 1-based; col in bytes */
	char			*dec;		/* T_STR, T_CSRC: the text */
	double			num;		/* T_NUM */
	unsigned		is_real;
};

struct vcc;

/* vcc_lex.c */
void *vcc_alloc(struct vcc *, size_t);
char *vcc_strdup(struct vcc *, const char *);
char *vcc_strndup(struct vcc *, const char *, size_t);
void vbuf_cat(struct vcc *, struct vbuf *, const char *);
void vbuf_vprintf(struct vcc *, struct vbuf *, const char *, va_list)
    __attribute__((__format__(__printf__, 3, 0)));
void vbuf_printf(struct vcc *, struct vbuf *, const char *, ...)
    __attribute__((__format__(__printf__, 3, 4)));
/* The C literal for s ("...", escaped). */
char *vcc_cstr(struct vcc *, const char *s);
/* Error at t (NULL: no place) and leave the compilation. */
void vcc_error(struct vcc *, const struct token *t, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4), __noreturn__));
void vcc_warn(struct vcc *, const struct token *t, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));
/* Read and tokenize a file or text, includes expanded, into vcc->toks. */
void vcc_lex_source(struct vcc *, const char *name, const char *text,
    unsigned builtin, unsigned depth);
void vcc_lex_eof(struct vcc *);
/* Token text equality. */
int vcc_is(const struct token *, const char *);
int vcc_idlen(const struct token *);
/* Edit distance of two short names (99 when one is 64 or longer). */
unsigned vcc_lev(const char *a, const char *b);
/* s made safe inside a C comment (a file name may hold a star-slash). */
const char *vcc_cmt(struct vcc *tl, const char *s);

struct vcc {
	const struct vcc_opts	*opts;
	jmp_buf			bail;
	struct vbuf		msg;		/* warnings and errors */
	void			**arena;
	size_t			narena, carena;
	struct vsrc		*srcs;
	struct token		*toks;
	size_t			ntoks, ctoks;
	size_t			pos;		/* parser position */
	const char		*incl_stack[16];
	unsigned		nincl;
	/* The parser's state is in vcc_parse.c. */
	void			*p;
};

#endif /* VENEER_VCC_PRIV_H */

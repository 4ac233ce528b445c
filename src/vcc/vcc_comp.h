/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_comp.h -- what the parts of the VCL compiler's parser share: the
 * types of values, the parse state, and the functions one part calls in
 * another (vcc_parse.c: tokens and expressions; vcc_stmt.c: statements,
 * subroutines and the top level; vcc_check.c: checks and the C file;
 * vcc_decl.c: backends, probes and ACLs).
 */

#ifndef VENEER_VCC_COMP_H
#define VENEER_VCC_COMP_H

#include "vcc/vcc_priv.h"
#include "vrt.h"

enum vtype {
	V_VOID, V_STRING, V_STRANDS, V_INT, V_REAL, V_BOOL, V_DURATION,
	V_BYTES, V_TIME, V_IP, V_BACKEND, V_BLOB, V_BODY, V_HTTP, V_HEADER,
	V_ENUM, V_ACL, V_PROBE, V_SUB, V_REGEX,
};

/* The parser's state ----------------------------------------------------*/

/* CK_SETRO: a read-only variable set in a sub; mask: where it exists. */
enum ckind { CK_READ, CK_SET, CK_UNSET, CK_RET, CK_USE, CK_SETRO };

struct vcheck {
	const struct token	*t;
	enum ckind		kind;
	unsigned		mask;
	const char		*what;
};

struct vsub;

struct vcall {
	struct vsub		*to;
	const struct token	*t;
};

struct vsub {
	const char		*name;
	const struct token	*t;
	int			method;		/* index in vcc_meths, or -1 */
	unsigned		idx;
	unsigned		defined;
	unsigned		reach;		/* methods that run it */
	unsigned		called;
	unsigned		mark;
	struct vbuf		body;
	struct vcheck		*checks;
	size_t			nchecks, cchecks;
	struct vcall		*calls;
	size_t			ncalls, ccalls;
	size_t			nlen;		/* strlen(name) */
	struct vsub		*next;
};

/* The modules' table (include/vmod_std.h) as the parser reads it. */
struct vfarg {
	enum vtype	t;
	const char	*name;
	int		kind;		/* A D O E, or P: PRIV_<def> */
	const char	*def;
	const char	*enums;
};

/* A module's function, an object's constructor or an object's method. */
struct vfunc {
	const char		*mod;
	const char		*name;		/* function or method */
	enum vtype		ret;
	const struct vfarg	*args;
	const char		*cls;		/* method: its class */
	unsigned		where;		/* methods it may run in */
};

/* An object class: `new x = mod.name(args)`; its constructor's args. */
struct vclass {
	struct vfunc		init;		/* name: the class's */
};

struct vsym {
	const char		*name;
	const struct token	*t;
	unsigned		idx;
	unsigned		used;
	unsigned		none;		/* backend ... none */
	unsigned		builtin;
	size_t			nlen;		/* strlen(name) */
	const struct vclass	*cls;		/* an object's class */
	struct vsym		*next;
};

/* What the frame remembers (vcc_emit.c). */
struct vlit {
	const char		*s;
	unsigned		idx;
	struct vlit		*next;
};

struct vsubj {
	const char		*key;		/* "HDR_REQ host", "var req.url" */
	const char		*rdc;		/* C that reads it, or NULL */
	unsigned		idx;
	unsigned		nreads;		/* sites that read it */
	unsigned		ncmps;		/* sites comparing with a constant */
	struct vlit		*lits;
	unsigned		nlits;
	unsigned		vslot, kslot;	/* memo slots, ~0U: none */
	unsigned		gslot;		/* write stamp, ~0U: none */
	struct vsubj		*next;
};

struct vrem {
	struct vsubj		*subj;
	const char		*pat;		/* the pattern */
	const char		*re;		/* "vgc_re_3" (match-only) */
	unsigned		idx;
	unsigned		nmatch, nsub;	/* ~ sites, regsub() sites */
	unsigned		slot;
	struct vrem		*next;
};

/*
 * How deep blocks, parentheses, unary operators and calls may nest: the
 * parser recurses, and a VCL of 100000 '(' must be an error, not a
 * crashed manager.
 */
#define VCC_MAX_NEST	100
#define VCC_MAX_CALLS	1000
#define VCC_MAX_LABELS	64

struct vparse {
	unsigned		nest;
	struct vbuf		decl;		/* file-level declarations */
	struct vbuf		chunks;		/* pieces of long subs */
	unsigned		nchunks;
	struct vbuf		load;		/* LOAD event */
	struct vbuf		discard;	/* DISCARD event */
	struct vsub		*subs;
	unsigned		nsubs;
	struct vsym		*backends, *probes, *acls, *hdrs, *res;
	unsigned		nbackends, nprobes, nacls, nhdrs, nres;
	/* Objects (`new`), newest first; their C is vgc_obj_<idx>. */
	struct vsym		*objs;
	unsigned		nobjs;
	/*
	 * PRIV_* arguments: a bit per module (mod_bit()) whose PRIV_TASK/
	 * PRIV_TOP key (vgc_mod_<m>) or PRIV_VCL (vgc_priv_vcl_<m>) is
	 * declared; PRIV_CALLs (vgc_priv_call_<n>); what the DISCARD event
	 * ends of them.
	 */
	unsigned		privkeys, privvcls, npcalls, ntmps;
	struct vbuf		privfini;
	struct vsym		*default_be;
	unsigned		imported;	/* bit per module: mod_bit() */
	unsigned		syntax;		/* 40 or 41: the last
						   `vcl N.N;` */
	unsigned		want_string;	/* the expression becomes a
						   STRING: + concatenates */
	enum vtype		want_type;	/* what it becomes, for
						   messages; V_VOID: unknown */
	unsigned		nanon;
	const char		*mainname;
	struct vsub		*cur;		/* being parsed */
	struct vsubj		*subjs;
	unsigned		nsubjs;
	struct vrem		*rems;
	unsigned		nrems;
	struct vbuf		prof;		/* profile points' rows */
	unsigned		nprof;
	/* return (vcl(L)): the labels used, vcl_conf.labels' order. */
	const char		*labels[VCC_MAX_LABELS];
	unsigned		nlabels;
};

#define P(tl)	((struct vparse *)(tl)->p)

struct expr {
	enum vtype		t;
	char			*c;
	char			**pcs;		/* STRING pieces */
	unsigned		npcs;
	unsigned		constant;
	unsigned		isnum;		/* constant number or BOOL: num */
	double			num;
	const char		*lit;		/* constant STRING value */
	const char		*hdr;		/* a header: its gethdr_s */
	struct vsubj		*subj;		/* a value the frame may keep */
	const struct token	*t0;
};

/* vcc_fold.c */
struct expr *FOLD_Arith(struct vcc *tl, const struct expr *a,
    const struct expr *b, const struct token *op, enum vtype rt);
struct expr *FOLD_Neg(struct vcc *tl, const struct expr *e,
    const struct token *op);
struct expr *FOLD_Cmp(struct vcc *tl, const struct expr *a,
    const struct expr *b, const struct token *op, const char *cop);
struct expr *FOLD_Match(struct vcc *tl, const struct expr *a,
    const char *pat, int neg, const struct token *op);
struct expr *FOLD_Not(struct vcc *tl, const struct expr *e,
    const struct token *op);
struct expr *FOLD_Logic(struct vcc *tl, struct expr *a, struct expr *b,
    int isand, const struct token *op);
void FOLD_Concat(struct vcc *tl, struct expr *e, const struct expr *a,
    const struct expr *b);

/* vcc_parse.c */
struct expr *e_new(struct vcc *tl, enum vtype t, const struct token *t0,
    const char *fmt, ...) __attribute__((__format__(__printf__, 4, 5)));
/* vcc_stmt.c */
void scan_names(struct vcc *tl);
void parse_toplevel(struct vcc *tl);
/* The methods and returns (vcc_parse.c), for the checks (vcc_check.c). */
struct vmeth {
	const char	*name;
	unsigned	idx;
	unsigned	rets;
	const char	*field;
};
extern const struct vmeth vcc_meths[VCL_MET__MAX];
extern const char * const vcc_rets[VCL_RET__MAX];
/* "vcl_a, vcl_b and vcl_c" for a set of methods. */
const char *meth_list(struct vcc *tl, unsigned mask, const char *conj);

void check_program(struct vcc *tl);
char *emit_program(struct vcc *tl);
char *cat3(struct vcc *tl, const char *a, const char *b, const char *c);
const char *e_convert(struct vcc *tl, struct expr *e, enum vtype want,
    const char *what);
const char *parse_lit(struct vcc *tl, const struct token **tp);
struct expr *parse_prim(struct vcc *tl);
struct vsym *sym_find(struct vsym *l, const char *name, size_t len);
struct vsym *sym_find_t(struct vsym *l, const struct token *t);
const struct token *tk(const struct vcc *tl);
const char *tk_desc(struct vcc *tl, const struct token *t);
void tk_expect(struct vcc *tl, const char *op);
const struct token *tk_expect_id(struct vcc *tl, const char *what);
const struct token *tk_next(struct vcc *tl);
const struct token *tk_peek(const struct vcc *tl, unsigned n);
char *tk_str(struct vcc *tl, const struct token *t);
const char *vcc_where(struct vcc *tl, const struct token *t);

/* Shared by the expression (vcc_parse.c) and statement (vcc_stmt.c) parts. */
struct vvar {
	const char	*name;
	enum vtype	t;
	unsigned	rd, wr, un, flags;
	const char	*cname;
};

struct vhdrp {
	const char	*prefix;
	const char	*where;
	unsigned	rd, wr, un;
};

extern const char * const vtype_name[];
extern const char * const vtype_a[];	/* "a STRING", "an INT" */
extern const struct vclass vcc_classes[];
extern const size_t vcc_nclasses;
#define NMETHS	((size_t)VCL_MET__MAX)
#define NRETS	((size_t)VCL_RET__MAX)

const char *e_bool(struct vcc *tl, struct expr *e);
const char *e_strands(struct vcc *tl, struct expr *e);
const char *e_string1(struct vcc *tl, struct expr *e);
struct expr *e_tostring(struct vcc *tl, struct expr *e);
const struct vhdrp *hdr_match(const struct token *t, const char **namep,
    size_t *lenp);
void hdr_name_check(struct vcc *tl, const struct token *t, const char *hn,
    size_t hl);
const char *hdr_ref(struct vcc *tl, const char *where, const char *name);
int is_num(enum vtype t);
int meth_find(const char *name, size_t len);
int mod_bit(const char *name, size_t len);
const char *mod_list(char *buf, size_t size);
void nest_in(struct vcc *tl, const struct token *t);
struct expr *parse_call(struct vcc *tl, const struct vfunc *f,
    const struct token *t0, const char *what, const char *cfn,
    const char *self);
struct expr *parse_expr(struct vcc *tl);
struct expr *parse_expr_string(struct vcc *tl);
struct expr *parse_fcall(struct vcc *tl, const struct token *t);
/* The class named by t (mod.class), or NULL. */
const struct vclass *class_find(const struct token *t);
/* Fails tl when t is mod.class.method: a method called with no object. */
void class_call_check(struct vcc *tl, const struct token *t);
void sub_check(struct vcc *tl, const struct token *t, enum ckind kind,
    unsigned mask, const char *what);
struct vsub *sub_find(struct vcc *tl, const struct token *t);
const struct vvar *var_find(const struct token *t);
void var_flags(struct vcc *tl, const struct token *t, const struct vvar *v);
const char *var_suggest(struct vcc *tl, const char *name);

/* vcc_emit.c */
struct vsubj *OPT_SubjHdr(struct vcc *tl, const char *where,
    const char *name, const char *rdc);
struct vsubj *OPT_SubjVar(struct vcc *tl, const char *vname,
    const char *rdc);
char *OPT_Read(struct vcc *tl, struct vsubj *s);
const char *OPT_Eq(struct vcc *tl, struct vsubj *s, const char *lit,
    int neg);
const char *OPT_Match(struct vcc *tl, struct vsubj *s, const char *pat,
    const char *re, int neg);
const char *OPT_Regsub(struct vcc *tl, struct vsubj *s, const char *pat,
    const char *re, int all, const char *with);
void OPT_WriteHdr(struct vcc *tl, struct vbuf *out, unsigned ind,
    const char *where, const char *name);
void OPT_WriteVar(struct vcc *tl, struct vbuf *out, unsigned ind,
    const char *vname);
void OPT_Clobber(struct vcc *tl, struct vbuf *out, unsigned ind);
void OPT_EmitFrame(struct vcc *tl, struct vbuf *out);
unsigned OPT_ProfPoint(struct vcc *tl, unsigned kind,
    const char *sub, const struct token *a, const struct token *b);
void OPT_EmitProf(struct vcc *tl, struct vbuf *out,
    const char * const *meths, unsigned nmeths);

/* vcc_decl.c */
void parse_acl(struct vcc *tl);
void parse_backend(struct vcc *tl);
const char *parse_probe_body(struct vcc *tl, const char *cname,
    const char *vname);
struct vsym *sym_add(struct vcc *tl, struct vsym **list, unsigned *n,
    const struct token *t, const char *kind);

#endif /* VENEER_VCC_COMP_H */

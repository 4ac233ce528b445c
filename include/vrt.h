/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt.h -- the runtime ABI between veneerd and compiled VCL.  The C that
 * the VCL compiler emits includes this header and nothing else; veneerd
 * exports the VRT_* functions (it is linked with -rdynamic).  A VCL built
 * against another major version is refused at load.
 *
 * Changelog (bump MINOR for additions, MAJOR for any other change):
 *   1.0  first version: methods and actions, contexts, headers, request
 *        and response fields, backends, synthetic bodies, logging.
 *   1.1  the cache: hash_data(), beresp.ttl/grace/keep/uncacheable,
 *        obj.ttl/grace/keep/hits, obj.http (ctx->http_obj), server.ip
 *        as a string, req.hash_always_miss.
 *   2.0  the VCL compiler: every variable of include/vcl_vars.h with its
 *        VRT_r_/VRT_l_/VRT_u_ accessors (server.ip is now an IP), the
 *        types IP, REGEX, ACL, STRANDS, BLOB, PROBE, HTTP, ENUM, SUB,
 *        BODY; regexes, ACLs, type conversions; backends name their
 *        host (resolved at load, never at compile time) and may have
 *        a probe; module functions (include/vmod_std.h).
 *   3.0  the optimising compiler and the profiler: VRT_re_init takes
 *        flags (VRT_RE_MATCH_ONLY: a pattern only ever tested with ~,
 *        which may be matched without PCRE2), VRT_lit_index (one lookup
 *        for a chain of `==` tests), ctx->prof, vcl_conf's profile
 *        points and the VRT_PROF_* macros (-p vcl_profile).
 *   3.1  VCL labels: vcl_conf.labels (the vcl.label names the VCL's
 *        return (vcl(...)) statements use) and VRT_vcl_select().
 *   3.2  the purge module (purge.hard(), purge.soft()) and the veneer
 *        module (veneer.purge_key(), veneer.softpurge_key()).
 *   3.3  VCL objects (VMOD_OBJ, VMOD_METHOD) and PRIV_* arguments:
 *        struct vmod_priv, VRT_priv_task/_top (and _get), VRT_priv_fini,
 *        ctx->privs, ctx->msg; the debug module (Varnish's test-only
 *        functions and objects); module functions may take and return
 *        REGEX and return STRANDS; bereq.is_hitmiss and
 *        bereq.is_hitpass.
 *   3.4  the methods of VCL's types: BACKEND.resolve()
 *        (VRT_DirectorResolve), STRING.upper() and .lower()
 *        (VRT_UpperLowerStrands).
 *   3.5  the blob module (include/vmod_std.h); req.hash and bereq.hash
 *        are the lookup digest rather than unset.
 *   3.6  the dynamic module (dynamic.director: .backend(), .service(),
 *        .debug()) and the shard director's .add_dynamic().
 *   3.7  the proxy module (proxy.alpn(), .authority(), .is_ssl(), ...).
 */

#ifndef VENEER_VRT_H
#define VENEER_VRT_H

#include <sys/socket.h>

#include <stddef.h>
#include <stdint.h>

#define VRT_MAJOR_VERSION	3U
#define VRT_MINOR_VERSION	7U

struct busyobj;
struct director;
struct http;
struct req;
struct sess;
struct vcl;
struct vsl_log;
struct ws;
struct vrt_acl;
struct vrt_blob;
struct vrt_ip;
struct vrt_re;
struct vrt_backend_probe;
struct vrt_ctx;
struct vrt_prof;
struct vrt_privs;
struct strands;

/* VCL's types as C sees them. */
typedef const char *			VCL_STRING;
typedef long				VCL_INT;
typedef double				VCL_REAL;
typedef double				VCL_DURATION;
typedef double				VCL_TIME;
typedef unsigned			VCL_BOOL;
typedef long				VCL_BYTES;
typedef const struct director *		VCL_BACKEND;
typedef const struct gethdr_s *		VCL_HEADER;
typedef const struct strands *		VCL_STRANDS;
typedef const struct vrt_ip *		VCL_IP;
typedef const struct vrt_re *		VCL_REGEX;
typedef const struct vrt_acl *		VCL_ACL;
typedef const struct vrt_blob *		VCL_BLOB;
typedef const struct vrt_backend_probe *	VCL_PROBE;
typedef struct http *			VCL_HTTP;
typedef const char *			VCL_ENUM;
typedef const char *			VCL_BODY;	/* read: never */
typedef void				VCL_VOID;
/* A subroutine as a value (7.1's SUB type): its function. */
typedef enum vcl_ret vcl_sub_f(const struct vrt_ctx *);
typedef vcl_sub_f *			VCL_SUB;

/* What a setter of each type takes: strings arrive as strands. */
typedef VCL_STRANDS			VCL_STRING_SET;
typedef VCL_STRANDS			VCL_BODY_SET;
typedef VCL_INT				VCL_INT_SET;
typedef VCL_REAL			VCL_REAL_SET;
typedef VCL_DURATION			VCL_DURATION_SET;
typedef VCL_TIME			VCL_TIME_SET;
typedef VCL_BOOL			VCL_BOOL_SET;
typedef VCL_BYTES			VCL_BYTES_SET;
typedef VCL_BACKEND			VCL_BACKEND_SET;
typedef VCL_IP				VCL_IP_SET;
typedef VCL_BLOB			VCL_BLOB_SET;
typedef VCL_HTTP			VCL_HTTP_SET;

/* Actions a VCL method returns. */
enum vcl_ret {
	VCL_RET_NONE = 0,	/* the method fell off its end: a bug */
#define VCL_RET(l, U)	VCL_RET_##U,
#include "vcl_returns.h"
	VCL_RET__MAX
};

/* The methods. */
enum vcl_method {
#define VCL_MET(l, U, side, rets)	VCL_MET_##U,
#include "vcl_returns.h"
	VCL_MET__MAX
};

/* Sets of methods, for include/vcl_vars.h. */
#define VM_(x)		(1U << VCL_MET_##x)
#define VM_NONE		0U
#define VM_CLIENT	(VM_(RECV) | VM_(PIPE) | VM_(PASS) | VM_(HASH) |	\
			 VM_(PURGE) | VM_(MISS) | VM_(HIT) | VM_(DELIVER) |	\
			 VM_(SYNTH))
#define VM_BACKEND	(VM_(BACKEND_FETCH) | VM_(BACKEND_RESPONSE) |	\
			 VM_(BACKEND_ERROR))
#define VM_HOUSEKEEPING	(VM_(INIT) | VM_(FINI))
#define VM_ALL		(VM_CLIENT | VM_BACKEND | VM_HOUSEKEEPING)

/* Which message a header reference means. */
enum gethdr_where {
	HDR_REQ,
	HDR_REQ_TOP,
	HDR_RESP,
	HDR_OBJ,
	HDR_BEREQ,
	HDR_BERESP,
};

/*
 * A header reference: what is the name with its colon, prefixed by its
 * length as a byte: "\005Host:".  The compiler emits these as constants.
 */
struct gethdr_s {
	enum gethdr_where	where;
	const char		*what;
};

/* A list of strings, concatenated where a single string is needed. */
struct strands {
	int			n;
	const char		**p;
};

/*
 * The context every VCL method and VRT function gets: what is being
 * processed, which workspace and log to use.  Fields that do not apply
 * to the method are NULL.
 */
struct vrt_ctx {
	unsigned		magic;
#define VRT_CTX_MAGIC		0x6dc8c1a4
	enum vcl_method		method;
	unsigned		failed;		/* VRT_fail() was called */
	struct vsl_log		*vsl;
	struct vcl		*vcl;
	struct ws		*ws;
	struct sess		*sp;
	struct req		*req;
	struct http		*http_req;
	struct http		*http_req_top;
	struct http		*http_resp;
	struct busyobj		*bo;
	struct http		*http_bereq;
	struct http		*http_beresp;
	VCL_TIME		now;
	void			*specific;
	struct http		*http_obj;	/* 1.1: vcl_hit, vcl_deliver */
	/*
	 * 3.0: the running VCL's profile counters when -p vcl_profile is
	 * on (or the VCL_time log record is unmasked), else NULL: what the
	 * VRT_PROF_* macros test, so profiling off costs one predictable
	 * branch per condition.
	 */
	struct vrt_prof		*prof;
	/*
	 * 3.3: the task's PRIV_TASK states (a client request's, a
	 * fetch's, or vcl_init's and vcl_fini's), for VRT_priv_task().
	 */
	struct vrt_privs	*privs;
	/*
	 * 3.3: vcl_init, vcl_fini and the load events: where VRT_fail()
	 * keeps its first message (msgsize bytes, "" until then) for the
	 * CLI's reply; NULL elsewhere.
	 */
	char			*msg;
	size_t			msgsize;
};

#define VRT_CTX		const struct vrt_ctx *ctx

typedef enum vcl_ret vcl_method_f(VRT_CTX);

enum vcl_event {
	VCL_EVENT_LOAD,
	VCL_EVENT_WARM,
	VCL_EVENT_COLD,
	VCL_EVENT_DISCARD,
};
typedef int vcl_event_f(VRT_CTX, enum vcl_event);

/* What a compiled VCL exports, as the symbol VCL_conf. */
struct vcl_conf {
	unsigned		magic;
#define VCL_CONF_MAGIC		0x1c9d6ba7
	unsigned		vrt_major;
	unsigned		vrt_minor;
	const char		*name;
	vcl_event_f		*event;
	VCL_BACKEND		*default_director;
#define VCL_MET(l, U, side, rets)	vcl_method_f *l##_method;
#include "vcl_returns.h"
	/* 3.0: what the profiler counts, see "Profiling" below. */
	const struct vrt_prof_point *prof_points;
	unsigned		nprof_points;
	/*
	 * 3.1: the labels return (vcl(...)) names, NULL-terminated; the
	 * runtime finds each at load and refuses the VCL if one is gone.
	 */
	const char * const	*labels;
	unsigned		nlabels;
};

/* Backends ----------------------------------------------------------------*/

/* A probe declaration; health checking comes with issue 15. */
struct vrt_backend_probe {
	unsigned		magic;
#define VRT_BACKEND_PROBE_MAGIC	0x0f4bd2a9
	const char		*vcl_name;	/* NULL: anonymous (.probe = {}) */
	const char		*url;		/* NULL when request is set */
	const char		*request;	/* whole request, CRLF lines */
	VCL_DURATION		timeout;
	VCL_DURATION		interval;
	unsigned		exp_status;
	unsigned		window;
	unsigned		threshold;
	unsigned		initial;
};

/*
 * Where a backend is: a host name or numeric address and a port,
 * resolved when the VCL loads (never at compile time: a name that does
 * not resolve then makes the backend sick, not the VCL fail), or a Unix
 * domain socket path.
 */
struct vrt_endpoint {
	unsigned		magic;
#define VRT_ENDPOINT_MAGIC	0x4e3d1f26
	const char		*host;		/* NULL with path */
	const char		*port;		/* "80" when not given */
	const char		*path;		/* .path: Unix socket, or NULL */
};

struct vrt_backend {
	unsigned		magic;
#define VRT_BACKEND_MAGIC	0x21b0e6c3
	const char		*vcl_name;
	const struct vrt_endpoint *endpoint;
	const char		*hosthdr;	/* Host: when the request has none */
	VCL_DURATION		connect_timeout;	/* < 0: parameter */
	VCL_DURATION		first_byte_timeout;	/* < 0: parameter */
	VCL_DURATION		between_bytes_timeout;	/* < 0: parameter */
	unsigned		max_connections;	/* 0: no limit */
	unsigned		proxy_header;		/* 0, 1 or 2 */
	const struct vrt_backend_probe *probe;	/* NULL: none */
};

/*
 * Returns the backend; NULL (and the context failed) only for a
 * declaration the compiler should have refused.
 */
VCL_BACKEND VRT_new_backend(VRT_CTX, const struct vrt_backend *);
void VRT_delete_backend(VRT_CTX, VCL_BACKEND *);
/* BACKEND.resolve(): the backend a director picks now, or NULL. */
VCL_BACKEND VRT_DirectorResolve(VRT_CTX, VCL_BACKEND);

/* Headers -----------------------------------------------------------------*/

VCL_STRING VRT_GetHdr(VRT_CTX, VCL_HEADER);
/* Replace every instance of the header; value NULL removes it. */
void VRT_SetHdr(VRT_CTX, VCL_HEADER, const struct strands *value);
void VRT_UnsetHdr(VRT_CTX, VCL_HEADER);

/* The cache (1.1) ----------------------------------------------------------*/

/* hash_data(): feed the lookup key (vcl_hash only). */
void VRT_hashdata(VRT_CTX, const struct strands *);

/* Bodies, logging, failure ------------------------------------------------*/

/* Status and reason for return (synth(...)); reason NULL: the standard. */
void VRT_synth(VRT_CTX, VCL_INT status, VCL_STRING reason);
/*
 * 3.1: return (vcl(vcl_conf.labels[n])) in vcl_recv: the request is to
 * start over in the VCL that label points at (the return that follows
 * is VCL_RET_VCL).
 */
void VRT_vcl_select(VRT_CTX, unsigned n);
/* return (error(status, reason)) in vcl_backend_fetch/_response (2.0). */
void VRT_error(VRT_CTX, VCL_INT status, VCL_STRING reason);

/* synthetic(): append to the body of resp (vcl_synth) or beresp. */
void VRT_synth_strands(VRT_CTX, const struct strands *);
/* std.log() */
void VRT_log(VRT_CTX, const char *);
/* Make the current method fail (it then returns VCL_RET_FAIL). */
void VRT_fail(VRT_CTX, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

/* Workspace string building for the compiler's concatenations. */
VCL_STRING VRT_StrandsWS(struct ws *, const char *, const struct strands *);
/* The strands as one string on ctx->ws; NULL and failed on overflow. */
VCL_STRING VRT_STRANDS_string(VRT_CTX, VCL_STRANDS);

/* Conversions to STRING (2.0), on ctx->ws, as Varnish prints them. */
VCL_STRING VRT_INT_string(VRT_CTX, VCL_INT);
VCL_STRING VRT_REAL_string(VRT_CTX, VCL_REAL);		/* "%.3f" */
VCL_STRING VRT_DURATION_string(VRT_CTX, VCL_DURATION);	/* "%.3f" */
VCL_STRING VRT_TIME_string(VRT_CTX, VCL_TIME);		/* HTTP date */
VCL_STRING VRT_BYTES_string(VRT_CTX, VCL_BYTES);
VCL_STRING VRT_BOOL_string(VCL_BOOL);			/* true/false */
VCL_STRING VRT_BACKEND_string(VCL_BACKEND);		/* its name */
/* STRING.upper() (up) and .lower(), on the workspace. */
VCL_STRING VRT_UpperLowerStrands(VRT_CTX, VCL_STRANDS, int up);
VCL_STRING VRT_IP_string(VRT_CTX, VCL_IP);		/* numeric */
VCL_STRING VRT_BLOB_string(VRT_CTX, VCL_BLOB);

/* Comparisons the compiler emits (2.0); NULL is the unset string. */
int VRT_strcmp(const char *, const char *);	/* NULL != anything */

/*
 * 3.0: the constants one field is compared with (`req.http.host == "a"`,
 * `... == "b"`, ...), hashed by the compiler: VRT_lit_index() returns the
 * index i with VRT_strcmp(s, lits[i]) == 0, or -1 (s NULL or none), so a
 * chain of such tests costs one lookup.  slot[] has nslot (a power of
 * two) entries, each an index + 1 or 0 for empty, placed by
 * VRT_lit_hash(lit) & (nslot - 1) with linear probing.
 */
struct vrt_littab {
	unsigned		nlit;
	const char * const	*lits;
	const unsigned		*lens;
	unsigned		nslot;
	const unsigned short	*slot;
};
int VRT_lit_index(const char *s, const struct vrt_littab *);
/* FNV-1a, 32 bits: the compiler's hash is the same function. */
static inline unsigned
VRT_lit_hash(const char *s, size_t *lenp)
{
	unsigned h = 2166136261U;
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0'; p++)
		h = (h ^ *p) * 16777619U;
	*lenp = (size_t)(p - (const unsigned char *)s);
	return (h);
}

/* Regular expressions (2.0) -------------------------------------------*/

/*
 * Compiled when the VCL loads (PCRE2, JIT where available); the
 * compiler has already checked the pattern.  where: "file:line:col".
 * flags: VRT_RE_MATCH_ONLY when the VCL only ever tests the pattern with
 * ~ and !~ (never regsub): the runtime may then match it another way
 * that gives the same yes or no (a literal or a set of literals without
 * PCRE2, `.*` at an unanchored end dropped).
 */
#define VRT_RE_MATCH_ONLY	1U
int VRT_re_init(VRT_CTX, VCL_REGEX *, const char *pattern, unsigned flags,
    const char *where);
void VRT_re_fini(VCL_REGEX *);
/* subject NULL matches as "". */
VCL_BOOL VRT_re_match(VRT_CTX, VCL_STRING subject, VCL_REGEX);
/*
 * regsub() (all 0) and regsuball() (all 1): \0 to \9 in sub are
 * the captures.  No match: the subject.  Overflow: NULL, failed.
 */
VCL_STRING VRT_regsub(VRT_CTX, int all, VCL_STRING subject, VCL_REGEX,
    VCL_STRING sub);

/* ACLs (2.0) --------------------------------------------------------------*/

struct vrt_acl_entry {
	unsigned		negate;		/* !"..." */
	unsigned		optional;	/* ("..."): skip if no address */
	const char		*addr;		/* numeric, or a name */
	int			mask;		/* prefix bits; -1: none */
	const char		*where;		/* "file:line:col" */
};

struct vrt_acl_spec {
	const char		*name;
	unsigned		n;
	const struct vrt_acl_entry *entries;
};

/*
 * Built when the VCL loads: names are resolved then (all addresses);
 * a name that does not resolve fails the load unless optional.
 */
int VRT_acl_init(VRT_CTX, VCL_ACL *, const struct vrt_acl_spec *);
void VRT_acl_fini(VCL_ACL *);
/* The most specific matching entry decides; logs VCL_acl. */
VCL_BOOL VRT_acl_match(VRT_CTX, VCL_ACL, VCL_IP);

/* IP addresses (2.0) ----------------------------------------------------*/

struct vrt_ip {
	unsigned		magic;
#define VRT_IP_MAGIC		0x6a1e35c2
	int			family;		/* AF_INET or AF_INET6 */
	unsigned		port;
	unsigned char		addr[16];	/* network order */
};

/* Actions with arguments and other statements (2.0) ---------------------*/

/* return (pass(DURATION)) in vcl_backend_response: hit-for-pass. */
void VRT_hit_for_pass(VRT_CTX, VCL_DURATION);
/* ban("expr"): adds a ban (ban.h); a bad one logs VCL_Error. */
void VRT_ban_string(VRT_CTX, VCL_STRING);
/* storage.<name>.free_space / used_space / happy */
VCL_BYTES VRT_storage_free_space(VRT_CTX, const char *name);
VCL_BYTES VRT_storage_used_space(VRT_CTX, const char *name);
VCL_BOOL VRT_storage_happy(VRT_CTX, const char *name);

/* Profiling (3.0): -p vcl_profile ------------------------------------*/

/*
 * The compiler numbers what it can count, in vcl_conf.prof_points:
 * points 0 to VCL_MET__MAX - 1 are the methods (vcl_recv...) in enum
 * vcl_method order, timed by the runtime around each method call; the
 * others are each `if`/`elsif` condition and each `call`, in source
 * order.  For each point the runtime counts evaluations (calls), how
 * many were true (conditions only) and the nanoseconds spent (a
 * condition's own evaluation; a call's or method's whole run, the subs
 * it calls included).
 */
enum vrt_prof_kind {
	VRT_PK_METHOD,
	VRT_PK_COND,			/* if (...) or elsif (...) */
	VRT_PK_CALL,			/* call sub; */
};

struct vrt_prof_point {
	enum vrt_prof_kind	kind;
	const char		*sub;		/* "vcl_recv", "mobile" */
	const char		*file;		/* "/etc/veneer/site.vcl" */
	unsigned		line;
	unsigned		col;
	const char		*text;		/* the condition, or "call x" */
};

/* A clock for the profile: nanoseconds, cheap (rdtsc where it can). */
uint64_t VRT_prof_now(void);
/* Count one evaluation of condition n that took from t0, true or not. */
void VRT_prof_cond(VRT_CTX, unsigned n, uint64_t t0, int istrue);
/* Count one call of point n (a call statement) that ran from t0. */
void VRT_prof_call(VRT_CTX, unsigned n, uint64_t t0);

/* What the compiler wraps conditions and calls in. */
#define VRT_PROF_COND(ctx, n, e) __extension__ ({			\
	uint64_t vrt_pt0_ = (ctx)->prof != NULL ? VRT_prof_now() : 0;	\
	int vrt_pr_ = (e) ? 1 : 0;					\
	if ((ctx)->prof != NULL)					\
		VRT_prof_cond((ctx), (n), vrt_pt0_, vrt_pr_);		\
	vrt_pr_;							\
})
#define VRT_PROF_CALL(ctx, n, e) __extension__ ({			\
	uint64_t vrt_pt0_ = (ctx)->prof != NULL ? VRT_prof_now() : 0;	\
	enum vcl_ret vrt_pr_ = (e);					\
	if ((ctx)->prof != NULL)					\
		VRT_prof_call((ctx), (n), vrt_pt0_);			\
	vrt_pr_;							\
})

/* Module state: PRIV_* arguments (3.3) ---------------------------------*/

/*
 * What a module keeps in a struct vmod_priv: when the scope ends (the
 * task, the top request, the VCL or, for a call site, the VCL) the
 * runtime calls methods->fini(ctx, priv) if both are set.
 */
typedef void vmod_priv_fini_f(VRT_CTX, void *);

struct vmod_priv_methods {
	unsigned		magic;
#define VMOD_PRIV_METHODS_MAGIC	0xcea5ff99
	const char		*type;
	vmod_priv_fini_f	*fini;
};

struct vmod_priv {
	void				*priv;
	long				len;
	const struct vmod_priv_methods	*methods;
};

/*
 * The state of this task (VRT_priv_task) or of the top request, shared
 * with its ESI includes (VRT_priv_top, client methods only) that belongs
 * to key (a module's, an object's): made empty on first use.  NULL and
 * the context failed when the workspace is out of room or, for top,
 * outside a client request.  _get: NULL rather than make one.
 */
struct vmod_priv *VRT_priv_task(VRT_CTX, const void *key);
struct vmod_priv *VRT_priv_task_get(VRT_CTX, const void *key);
struct vmod_priv *VRT_priv_top(VRT_CTX, const void *key);
struct vmod_priv *VRT_priv_top_get(VRT_CTX, const void *key);
/* Ends a state: methods->fini, once; then the state is empty. */
void VRT_priv_fini(VRT_CTX, struct vmod_priv *);

/* Variables (2.0): the accessors of include/vcl_vars.h ----------------*/

#define VCL_VAR(c, name, T, rd, wr, un, fl, doc)			\
	VCL_##T VRT_r_##c(VRT_CTX);					\
	void VRT_l_##c(VRT_CTX, VCL_##T##_SET);				\
	void VRT_u_##c(VRT_CTX);
#define VCL_HDR(where, name, rd, wr, un, doc)
#include "vcl_vars.h"

/* Modules (2.0): prototypes from their tables -------------------------*/

/*
 * VCL_<RET> vmod_<mod>_<fn>(VRT_CTX, arguments...): arguments in their
 * declared order; an optional one without default, [T x], is passed as
 * two, (VCL_BOOL valid_x, VCL_T x).
 */
#define VMOD_A(T, n)		, VCL_##T n
#define VMOD_D(T, n, def)	, VCL_##T n
#define VMOD_O(T, n)		, VCL_BOOL valid_##n, VCL_##T n
#define VMOD_E(n, values, def)	, VCL_ENUM	/* unnamed: blob's "case" */
#define VMOD_P(kind)		, struct vmod_priv *
#define VMOD_FUNC(mod, fn, R, args, doc)				\
	VCL_##R vmod_##mod##_##fn(VRT_CTX args);
#define VMOD_OBJ(mod, cls, args, doc)					\
	struct vmod_##mod##_##cls;					\
	VCL_VOID vmod_##mod##_##cls##__init(VRT_CTX,			\
	    struct vmod_##mod##_##cls **, const char *vcl_name args);	\
	VCL_VOID vmod_##mod##_##cls##__fini(struct vmod_##mod##_##cls **);
#define VMOD_METHOD(mod, cls, m, R, args, where, doc)			\
	VCL_##R vmod_##mod##_##cls##_##m(VRT_CTX,			\
	    struct vmod_##mod##_##cls * args);
#include "vmod_std.h"

#endif /* VENEER_VRT_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_doc.c -- the tables of man/veneer-vcl.7, printed as man page
 * source (veneerd -x vcl) from the same tables the compiler checks
 * against: where each variable may be read, set and unset, what each
 * subroutine may return, and the std module's functions.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "vcc/vcc.h"
#include "vrt.h"

static const struct {
	const char	*name;
	unsigned	idx;
	unsigned	rets;
} doc_meths[] = {
#define VCL_MET(l, U, side, rets)	{ "vcl_" #l, VCL_MET_##U, rets },
#include "vcl_returns.h"
};
#define NMETH	(sizeof doc_meths / sizeof doc_meths[0])

static const char * const doc_rets[] = {
	"none",
#define VCL_RET(l, U)	#l,
#include "vcl_returns.h"
};
#define NRET	(sizeof doc_rets / sizeof doc_rets[0])

/* Man page text: a backslash or a leading dot must not be markup. */
static void
doc_text(const char *s)
{

	for (; *s != '\0'; s++) {
		if (*s == '\\')
			(void)fputs("\\e", stdout);
		else
			(void)putchar(*s);
	}
}

/* "all", "none", or the short names of the methods in mask. */
static void
doc_where(unsigned mask)
{
	unsigned u, all = 0, n = 0;

	for (u = 0; u < NMETH; u++)
		all |= 1U << doc_meths[u].idx;
	if (mask == 0) {
		(void)fputs("\\(em", stdout);
		return;
	}
	if ((mask & all) == all) {
		(void)fputs("all", stdout);
		return;
	}
	if ((mask & VM_CLIENT) == VM_CLIENT && !(mask & ~VM_CLIENT)) {
		(void)fputs("client", stdout);
		return;
	}
	if ((mask & VM_BACKEND) == VM_BACKEND && !(mask & ~VM_BACKEND)) {
		(void)fputs("backend", stdout);
		return;
	}
	for (u = 0; u < NMETH; u++)
		if (mask & (1U << doc_meths[u].idx))
			(void)printf("%s%s", n++ ? ", " : "",
			    doc_meths[u].name + 4);
}

static void
doc_var(const char *name, const char *type, unsigned rd, unsigned wr,
    unsigned un, unsigned flags, const char *doc)
{

	(void)printf(".TP\n.B %s\n", name);
	(void)printf("%s; read: ", type);
	doc_where(rd);
	(void)fputs("; set: ", stdout);
	doc_where(wr);
	(void)fputs("; unset: ", stdout);
	doc_where(un);
	(void)fputs(".\n", stdout);
	doc_text(doc);
	if (flags & VV_MISSING)
		(void)fputs(" Accepted with a warning: the feature is not in "
		    "veneerd yet.", stdout);
	if (flags & VV_4_0)
		(void)fputs(" A VCL 4.0 name, accepted with a warning.",
		    stdout);
	if (flags & VV_ONLY_40)
		(void)fputs(" Only in \\fBvcl 4.0;\\fR files.", stdout);
	if (flags & VV_ONLY_41)
		(void)fputs(" Only in \\fBvcl 4.1;\\fR files.", stdout);
	if (flags & VV_RO_41)
		(void)fputs(" May be set in \\fBvcl 4.0;\\fR files only.",
		    stdout);
	(void)fputs("\n", stdout);
}

/* What each module is, above its functions. */
static const struct {
	const char	*name;
	const char	*intro;
} doc_mods[] = {
	{ "std", "After \\fBimport std;\\fR. Arguments in brackets are "
	    "optional; arguments may be given by name (\\fBstd.integer(s = "
	    "req.http.X, fallback = 0)\\fR)." },
	{ "purge", "After \\fBimport purge;\\fR, as Varnish's vmod_purge: "
	    "purges finer-grained than \\fBreturn (purge)\\fR, of the "
	    "objects of the request's hash, from vcl_hit and vcl_miss (call "
	    "them in both, so that every variant is covered); elsewhere they "
	    "fail the request.  Each counts in MAIN.n_purges and "
	    "MAIN.n_obj_purged." },
	{ "veneer", "After \\fBimport veneer;\\fR: Veneer's own.  Surrogate "
	    "keys: a backend tags a response with \\fBSurrogate-Key\\fR or "
	    "\\fBxkey\\fR headers (tags separated by spaces or commas, "
	    "repeated headers adding up); every cached object is indexed "
	    "under its tags, and these functions, like the \\fBpurge.key\\fR "
	    "and \\fBpurge.softkey\\fR CLI commands, invalidate every "
	    "object carrying a tag, all variants, in time proportional to "
	    "the objects found, not to the size of the cache.  Tags longer "
	    "than 1024 bytes, and beyond 256 per object, are not indexed "
	    "(MAIN.xkey_dropped counts them)." },
	{ "directors", "After \\fBimport directors;\\fR, as Varnish "
	    "7.1's vmod_directors: directors spread fetches over backends.  "
	    "Make one in vcl_init (\\fBnew rr = "
	    "directors.round_robin();\\fR), add members "
	    "(\\fBrr.add_backend(b1);\\fR: backends or other directors), "
	    "and route to it (\\fBset req.backend_hint = "
	    "rr.backend();\\fR).  Round-robin, fallback and random pick "
	    "when the fetch starts, among the members healthy then; hash "
	    "picks when \\fB.backend(key)\\fR is called.  Each skips sick "
	    "members (health, probes, \\fBbackend.set_health\\fR); a "
	    "director with no healthy member is sick itself, and a fetch "
	    "routed to it fails to vcl_backend_error with a 503 "
	    "(FetchError \\(dqDirector \\fIname\\fR returned no "
	    "backend\\(dq).  Members may be added and removed from any "
	    "subroutine while requests go through.  The shard director "
	    "is consistent hashing, as Varnish's: each backend has "
	    "replicas points on a ring (67 by default, \\fB.reconfigure()\\fR "
	    "applies changes), a key (\\fBby=HASH\\fR, the default, the "
	    "request's hash; \\fBURL\\fR; \\fBKEY\\fR with \\fBkey=\\fR) "
	    "goes to the first point at or after it, so the same key keeps "
	    "its backend and adding or removing one of n backends moves "
	    "about 1/n of the keys; \\fBalt\\fR, \\fBhealthy\\fR, warmup "
	    "and rampup as Varnish documents them; \\fBshard_param\\fR "
	    "objects hold parameter sets." },
	{ "proxy", "After \\fBimport proxy;\\fR, as Varnish 7.1's "
	    "vmod_proxy: what a PROXY version 2 header's TLVs say about the "
	    "client's TLS connection, on a listener declared \\fB-a "
	    "...,PROXY\\fR behind a TLS terminator (hitch, haproxy).  "
	    "Strings are unset when the header had no such TLV." },
	{ "saintmode", "After \\fBimport saintmode;\\fR, as "
	    "varnish-modules' vmod_saintmode: a director that skips the "
	    "objects a backend answered badly.  In vcl_init wrap each "
	    "backend (\\fBnew sa = saintmode.saintmode(a, 10);\\fR) and "
	    "put the wrappers in another director (\\fBfb.add_backend("
	    "sa.backend());\\fR); in vcl_backend_response, "
	    "\\fBsaintmode.blacklist(20s); return (retry);\\fR marks "
	    "this object (its hash) bad on the backend that answered, for "
	    "that long, and the retry goes to another member.  A saintmode "
	    "director is sick for a fetch of a blacklisted object, and for "
	    "every fetch while its backend is sick or more than threshold "
	    "objects are blacklisted on it (backend.list shows that).  "
	    "Expired entries go when the list is next looked at." },
	{ "blob", "After \\fBimport blob;\\fR, as Varnish 7.1's "
	    "vmod_blob: a BLOB (bytes, such as \\fBreq.hash\\fR, the "
	    "request's SHA-256 lookup digest, the same as Varnish's) from "
	    "text and back.  The schemes (ENUMs): IDENTITY (the text's "
	    "bytes as they are; a NUL byte ends an encoded string), BASE64, "
	    "BASE64URL (\\fB-\\fR and \\fB_\\fR for \\fB+\\fR and "
	    "\\fB/\\fR), BASE64URLNOPAD (no \\fB=\\fR padding), BASE64CF "
	    "(\\fB-\\fR, \\fB~\\fR, and \\fB_\\fR padding), HEX (either "
	    "case when decoding; an odd number of digits reads as if a 0 came "
	    "first) and URL (%-escapes decoded; encoding escapes all but "
	    "RFC 3986's unreserved characters).  Decoding fails the VCL "
	    "(\\(dqvmod blob error: cannot decode, illegal encoding beginning "
	    "with ...\\(dq) on text that is not of the scheme: characters "
	    "outside the alphabet, padding followed by more, a lone last "
	    "base64 digit, a bad or unfinished %-escape.  \\fIcase\\fR "
	    "(LOWER, UPPER, DEFAULT: lower) picks the hex digits of HEX and "
	    "URL, and must be DEFAULT for the other schemes.  Results live on "
	    "the request's or fetch's workspace: when it is full the VCL "
	    "fails with \\(dqout of space\\(dq; raise workspace_client or "
	    "workspace_backend." },
	{ "debug", "After \\fBimport debug;\\fR: for Varnish's test "
	    "suite, the functions and objects of its test-only debug module "
	    "that its tests use (objects and PRIV_* state show in Debug log "
	    "records).  Never for production VCL." },
};

/* A section heading when the functions move to another module. */
static void
doc_module(const char **cur, const char *m)
{
	unsigned u;

	if (*cur != NULL && !strcmp(*cur, m))
		return;
	*cur = m;
	(void)printf(".SS The %s module\n", m);
	for (u = 0; u < sizeof doc_mods / sizeof doc_mods[0]; u++)
		if (!strcmp(doc_mods[u].name, m))
			(void)printf("%s\n", doc_mods[u].intro);
}

/* After the functions, the objects of all modules, under one heading. */
static void
doc_objects(const char **cur)
{

	if (*cur != NULL && !strcmp(*cur, "(objects)"))
		return;
	*cur = "(objects)";
	(void)printf(".SS Objects\nMade in vcl_init with "
	    "\\fBnew \\fIname\\fB = module.class(...);\\fR, methods called "
	    "as \\fIname\\fB.method(...)\\fR; after the module's "
	    "import.\n");
}

void
VCC_DumpRoff(void)
{
	const char *mod = NULL;
	unsigned u, r, n;

	(void)printf(".SS Variables\n"
	    "Where each may be read, set and unset: \\fBclient\\fR is every "
	    "client-side subroutine (vcl_recv to vcl_synth), \\fBbackend\\fR "
	    "the three backend ones, \\fBall\\fR every subroutine.\n");
#define VCL_VAR(c, nm, T, rd, wr, un, fl, doc)	\
	doc_var(nm, #T, rd, wr, un, fl, doc);
#define VCL_HDR(w, nm, rd, wr, un, doc)	\
	doc_var(nm "\\fIname\\fR", "STRING (a header)", rd, wr, un, 0, doc);
#include "vcl_vars.h"
	(void)printf(".SS Actions\nWhat each subroutine may "
	    "\\fBreturn\\fR:\n");
	for (u = 0; u < NMETH; u++) {
		(void)printf(".TP\n.B %s\n", doc_meths[u].name);
		for (r = 1, n = 0; r < NRET; r++) {
			if (!(doc_meths[u].rets & (1U << r)))
				continue;
			if (doc_meths[u].idx == VCL_MET_HIT &&
			    !strcmp(doc_rets[r], "miss"))
				continue;	/* VCL 4.0's fetch, kept */
			(void)printf("%s%s", n++ ? ", " : "", doc_rets[r]);
		}
		(void)fputs("\n", stdout);
	}
#define VMOD_A(T, nm)		(void)printf("%s%s %s", n++ ? ", " : "", #T, #nm);
#define VMOD_D(T, nm, d)	(void)printf("%s%s %s = ", n++ ? ", " : "", \
	#T, #nm); doc_text(d);
#define VMOD_O(T, nm)		(void)printf("%s[%s %s]", n++ ? ", " : "", \
	#T, #nm);
#define VMOD_E(nm, v, d)	(void)printf("%sENUM %s", n++ ? ", " : "", #nm);
#define VMOD_P(k)		/* passed by the compiler, unwritten */
#define VMOD_FUNC(m, f, R, args, doc)					\
	doc_module(&mod, #m);						\
	n = 0;								\
	(void)printf(".TP\n.B %s %s.%s(", #R, #m, #f);			\
	args								\
	(void)printf(")\n");						\
	doc_text(doc);							\
	(void)fputs("\n", stdout);
#define VMOD_OBJ(m, c, args, doc)					\
	doc_objects(&mod);						\
	n = 0;								\
	(void)printf(".TP\n.B new \\fIname\\fB = %s.%s(", #m, #c);	\
	args								\
	(void)printf(")\n");						\
	doc_text(doc);							\
	(void)fputs("\n", stdout);
#define VMOD_METHOD(m, c, f, R, args, where, doc)			\
	doc_objects(&mod);						\
	n = 0;								\
	(void)printf(".TP\n.B %s \\fIname\\fB.%s(", #R, #f);		\
	args								\
	(void)printf(")\n");						\
	(void)printf("Of a %s.%s.%s ", #m, #c, (where) == VM_ALL ? "" :	\
	    (where) == VM_(INIT) ? "  Only in vcl_init." :		\
	    "  Not in every subroutine.");				\
	doc_text(doc);							\
	(void)fputs("\n", stdout);
#include "vmod_std.h"
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * director.h -- what a VCL BACKEND value is: a director.  A plain
 * backend is the trivial director (it is its own pick); a module's
 * director (vmod directors' round_robin, fallback, random, hash) picks
 * one of its members, which may be directors in turn, when a fetch
 * resolves it.  bereq.backend keeps the director; the fetch resolves it
 * down to a backend (beresp.backend, BackendOpen).
 */

#ifndef VENEER_CACHE_DIRECTOR_H
#define VENEER_CACHE_DIRECTOR_H

#include <bsd/sys/queue.h>
#include <stdio.h>

#include "common/tim.h"
#include "vrt.h"

struct backend;
struct director;
struct vcl;

/*
 * The next director to try for this fetch (a member, a backend or a
 * nested director), or NULL when none will do (no healthy member).
 * Called on the fetch's worker: cheap, never blocking.
 */
typedef const struct director *director_resolve_f(VRT_CTX,
    const struct director *d);
/* Is any member healthy?  Members ask DIRECTOR_Healthy(). */
typedef unsigned director_healthy_f(const struct director *d);
/* How many members are healthy (*healthy) of how many (*total). */
typedef void director_count_f(const struct director *d, unsigned *healthy,
    unsigned *total);

struct director_methods {
	unsigned		magic;
#define DIRECTOR_METHODS_MAGIC	0x1b7f3c52
	const char		*type;	/* backend.list -j: "round-robin" */
	director_resolve_f	*resolve;	/* NULL: picks at .backend() */
	director_healthy_f	*healthy;	/* NULL: always healthy */
	director_count_f	*count;		/* NULL: 0/0 in backend.list */
};

struct director {
	unsigned		magic;
#define DIRECTOR_MAGIC		0x52798462
	const char		*vcl_name;	/* const: its name in VCL */
	/* A plain backend: itself, and methods NULL.  Else NULL. */
	struct backend		*backend;	/* const */
	const struct director_methods *methods;	/* const */
	void			*priv;		/* const: the module's object */
	char			*display;	/* const: "vcl.name" */
	vtim_real		t_created;	/* const */
	const struct vcl	*vcl;		/* const; NULL for a backend */
	unsigned		listed;		/* dir_list_mtx */
	TAILQ_ENTRY(director)	list;		/* dir_list_mtx */
};

/*
 * A module's director named vcl_name in the VCL of ctx, listed by
 * backend.list until the first DIRECTOR_Free() of its VCL's directors
 * (a VCL ends them all at once, and one may still have another, already
 * freed, as a member).  NULL (ctx failed) when out of memory.  priv is
 * the module's, passed back through d->priv.
 */
struct director *DIRECTOR_New(VRT_CTX, const struct director_methods *m,
    void *priv, const char *vcl_name);
void DIRECTOR_Free(struct director **dp);

/*
 * Healthy: a backend's own health (BACKEND_Healthy()), a director's
 * any-member-healthy.  Directors nested deeper than DIRECTOR_MAX_DEPTH
 * (a director that contains itself) count as sick.
 */
#define DIRECTOR_MAX_DEPTH	16
unsigned DIRECTOR_Healthy(const struct director *d);
/*
 * The fetch being resolved on this thread (inside DIRECTOR_Resolve()),
 * else NULL: for a healthy method whose answer depends on the object
 * (saintmode's blacklist), so that an enclosing director skips it.
 */
const struct vrt_ctx *DIRECTOR_Resolving(void);
/*
 * When d's health last changed: a backend's probe verdict or
 * set_health; a director's creation (they keep no history).
 */
vtim_real DIRECTOR_Changed(const struct director *d);

/*
 * Down to a backend for this fetch, with a reference for it
 * (BACKEND_Deref when done), or NULL with a FetchError logged in
 * ctx->vsl ("No backend" when d is NULL, "Director X returned no
 * backend" when a director had nothing healthy to give).
 */
struct backend *DIRECTOR_Resolve(VRT_CTX, const struct director *d);
/*
 * For a resolve method returning a backend that may go once the method
 * lets go of its lock (a dynamic director's member): hands a reference
 * taken under that lock to DIRECTOR_Resolve, which gives it to the
 * fetch.  Takes *bep.
 */
void DIRECTOR_HandRef(struct backend **bep);
/*
 * A backend VCL holds as a value (BACKEND.resolve(), the shard's
 * resolve=NOW) that may go with DNS (a dynamic member): the task keeps
 * the reference *bep till it ends.  Takes *bep; -1 (ctx failed) when
 * the workspace is full.
 */
int DIRECTOR_TaskHold(VRT_CTX, struct backend **bep);

/* A backend or director of the VCL named vcl, by its VCL name; or NULL. */
const struct director *DIRECTOR_Lookup(const char *vcl, const char *name);

/*
 * backend.list's director rows, after the backends' (backend.c calls
 * these so that both share one table): widen *wn to the longest
 * matching name; then print each matching director's row.  match is
 * backend.c's pattern test on a "vcl.name".
 */
typedef int director_match_f(const char *display, const char *pat,
    const char *active);
void DIRECTOR_CliWidth(director_match_f *match, const char *pat,
    const char *active, size_t *wn);
void DIRECTOR_CliRows(FILE *out, director_match_f *match, const char *pat,
    const char *active, int json, int *first, size_t wn, size_t wa);

#endif /* VENEER_CACHE_DIRECTOR_H */

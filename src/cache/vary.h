/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vary.h -- variants.  A response with Vary is stored with the names it
 * varies on and the values the request that caused its fetch had for
 * them; a later request gets it if its values are the same.  Absent and
 * empty are different values; several lines of a header count as one,
 * their values joined with ", " in the order they came (RFC 9110 5.3).
 * Lines flagged hop-by-hop (HDF_FILTER) are not seen: the values are
 * those of the request the backend gets.
 *
 * A variant's blob: the names, sorted and lowercased, as
 * "name\0name\0\0", then for each name the request had, in the same
 * order, "name\0value\0".
 *
 * The variants of an objhead are found through an index keyed by a hash
 * of the request's values (per distinct set of names, "spec"), not by
 * scanning them: a thousand variants cost one probe.  The index lives in
 * the objhead, under its shard lock (functions ending in _locked).
 */

#ifndef VENEER_CACHE_VARY_H
#define VENEER_CACHE_VARY_H

#include <stddef.h>
#include <stdint.h>

struct http;
struct objcore;
struct objhead;
struct ws;

/* Does the request carry the values of the variant's blob?  1 yes. */
int VRY_Match(const struct http *req, const char *blob, size_t len);

/*
 * The blob for a request (or backend request) and the names in
 * "a\0b\0\0" form, in ws.  Returns its length, or -1 on overflow.
 */
ssize_t VRY_Build(struct ws *ws, const struct http *hp, const char *names,
    char **blobp);

/* Length of the names part of a blob. */
size_t VRY_NamesLen(const char *blob);

void VRY_Init(void);

/*
 * Put a variant (oc->obj->vary set) in the index, calling replaced on
 * every variant already there with the same values (older copies).
 * 0, or -1: out of memory.
 */
typedef int vry_each_f(void *priv, struct objcore *oc);
int VRY_Insert_locked(struct objhead *oh, struct objcore *oc,
    vry_each_f *replaced, void *priv);
void VRY_Remove_locked(struct objhead *oh, struct objcore *oc);
/* Free the objhead's (empty) index. */
void VRY_Fini_locked(struct objhead *oh);

/*
 * The variants whose values are the request's: calls func on each
 * candidate (it returns non-zero to stop); ws is scratch space for the
 * request's blobs (rolled back).  *hint: a hash of the request's values
 * for every name set the objhead knows (0 when it knows none), which
 * tells whether two requests can want the same variant.  Returns func's
 * last value.
 */
int VRY_Lookup_locked(struct objhead *oh, const struct http *req,
    struct ws *ws, vry_each_f *func, void *priv, uint32_t *hint);
/* Every variant (purge). */
void VRY_Each_locked(struct objhead *oh, vry_each_f *func, void *priv);

#endif /* VENEER_CACHE_VARY_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * xkey.h -- surrogate keys: an index from tags to the cached objects
 * that carry them, so that purging a tag costs the objects it names,
 * not the size of the cache.  A backend tags a response with
 * Surrogate-Key or xkey headers (tags separated by spaces, tabs or
 * commas; repeated headers add up).  An object is indexed when it
 * enters the cache (HSH_Unbusy) and leaves the index when it leaves the
 * cache (hsh_kill_finish: expiry, LRU, replacement, purge, failure).
 *
 * Locks: tags are hashed into XKEY_NSHARD shards, each with its own
 * lock guarding its tags and their object lists.  A shard lock is a
 * leaf: nothing else is locked while one is held (not another shard,
 * not a hash shard, not the expiry lock, not a stevedore's), so there
 * is no order to get wrong.  Purges collect the objects with references
 * under the shard lock and kill them after releasing it.  A hit never
 * touches the index.
 *
 * Memory: an object's links (one per tag it carries) are one block
 * charged to the object's own stevedore, like its headers: evicting the
 * object frees them.  The block is found from the objcore through a
 * table of its own (in the shards too), so untagged objects pay nothing
 * but a spare byte of their objcore.  A tag (its name and list head) is
 * shared by every object carrying it; it is charged to the store of the
 * object that created it until the last object carrying it leaves.
 * Every byte is counted once, in a store that can evict what keeps it
 * alive.  Not Transient: the links live as long as the object, and an
 * object's cost must be what nuking it frees.
 */

#ifndef VENEER_CACHE_XKEY_H
#define VENEER_CACHE_XKEY_H

#include <stddef.h>

#include "common/tim.h"

struct objcore;
struct stevedore;
struct worker;

/*
 * objcore->xkey: LINKED once XKEY_Index has put its links in, GONE once
 * XKEY_Remove has run; whichever comes second takes the links out.
 */
#define XKEY_S_LINKED		(1U << 0)
#define XKEY_S_GONE		(1U << 1)

/* Longer tags are dropped (and counted in xkey_dropped). */
#define XKEY_TAG_MAX		1024
/* Tags of one object beyond this many are dropped (and counted). */
#define XKEY_OBJ_MAX		256

/*
 * Split s (len bytes, not NUL-terminated) into tags: runs of bytes
 * other than space, tab, comma and NUL.  func gets each tag; a non-zero
 * return stops.  Returns func's value, or 0.
 */
typedef int xkey_tag_f(void *priv, const char *tag, size_t len);
int XKEY_Split(const char *s, size_t len, xkey_tag_f *func, void *priv);

void XKEY_Init(void);

/*
 * Index a cached object (not a marker) under the tags of its headers.
 * The caller holds a reference to oc; oc has left OC_F_BUSY.
 */
void XKEY_Insert(struct worker *wrk, struct objcore *oc);
/*
 * Index oc under the tags in the n header values vals, charging stv.
 * XKEY_Insert's work, apart for the unit tests.
 */
void XKEY_Index(struct worker *wrk, struct objcore *oc,
    struct stevedore *stv, const char * const *vals, unsigned n);
/*
 * oc leaves the cache: out of the index, for good (an XKEY_Insert still
 * under way notices and undoes itself).  The caller holds a reference.
 */
void XKEY_Remove(struct objcore *oc);

/*
 * Call func on every object carrying one of tags (XKEY_Split's syntax),
 * once each, with no lock held and a reference held for the call.
 * Returns how many objects.  Time: the number of matches.
 */
typedef void xkey_oc_f(void *priv, struct objcore *oc);
unsigned XKEY_Each(const char *tags, xkey_oc_f *func, void *priv);

/*
 * purge.key / veneer.purge_key(): remove every object carrying one of
 * tags; purge.softkey / veneer.softpurge_key(): make them stale now,
 * keeping their grace and keep.  How many objects.  Counted in
 * n_purges, n_obj_purged, xkey_purges and xkey_obj_purged.
 */
unsigned XKEY_Purge(struct worker *wrk, const char *tags, int soft);

#endif /* VENEER_CACHE_XKEY_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsmw.h -- writing shared-memory segments for the tools to read: one
 * directory per process (_.vsm_mgt for the manager, _.vsm_child for the
 * child) holding an _.index of the segments and one file per segment,
 * in Varnish 7.1's layout (doc/vsm-format.md), so Varnish's tools can
 * read them too.
 */

#ifndef VENEER_VSM_VSMW_H
#define VENEER_VSM_VSMW_H

#include <stddef.h>
#include <sys/types.h>

struct vsmw;

/*
 * Start a fresh set in dir (created if missing, emptied of old segments)
 * with an index naming this process.  NULL with err filled on failure.
 */
struct vsmw *VSMW_New(const char *dir, int mode, char *err, size_t errlen);
/*
 * Hand the directory and what is in it to uid:gid: a process about to
 * drop its privileges keeps adding and removing segments afterwards.
 * 0, or -1 with errno.
 */
int VSMW_Chown(struct vsmw *vsmw, uid_t uid, gid_t gid);
/*
 * A zeroed segment of len bytes, listed in the index under class and
 * ident.  NULL when the file cannot be created (disk full...).
 */
void *VSMW_Alloc(struct vsmw *vsmw, const char *class, size_t len,
    const char *ident);
/* Remove a segment: out of the index, file unlinked, unmapped. */
void VSMW_Free(struct vsmw *vsmw, void **pp);
/* Remove every segment and the index. */
void VSMW_Destroy(struct vsmw **vsmwp);
/*
 * Empty dir of a set whose writer is gone (a dead child): the index
 * first, so readers notice at once, then the segment files.
 */
void VSMW_Clean(const char *dir);

#endif /* VENEER_VSM_VSMW_H */

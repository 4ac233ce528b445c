/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_vsm.h -- what vapi_vsm.c (the segment tracker) offers the other
 * files of libveneerapi (the counters in vapi_vsc.c).  Not installed and
 * not exported from the shared library.
 *
 * Lifetime: a segment found here stays in memory, with its mapping and
 * its private data, until it is gone from the index, a VAPI_Status() call
 * has reported that, and no reference (VSMR_Ref, VAPI_SegFind) is left.
 */

#ifndef VENEER_VSM_VAPI_VSM_H
#define VENEER_VSM_VAPI_VSM_H

#define VSMR_HIDDEN	__attribute__((__visibility__("hidden")))

struct vapi;
struct vsmr_seg;

typedef void vsmr_priv_free_f(struct vapi *vd, void *priv);

/* Look at the index files again; frees nothing. */
VSMR_HIDDEN void VSMR_Refresh(struct vapi *vd);
/*
 * Live segments in iteration order (manager's set, then the child's,
 * each in index order; cluster lines skipped).  prev NULL: the first.
 */
VSMR_HIDDEN struct vsmr_seg *VSMR_Next(const struct vapi *vd,
    const struct vsmr_seg *prev);
VSMR_HIDDEN const char *VSMR_Class(const struct vsmr_seg *seg);
VSMR_HIDDEN const char *VSMR_Ident(const struct vsmr_seg *seg);
/* Map the segment (once); 0 with [*b, *e), or -1 (VAPI_Error says). */
VSMR_HIDDEN int VSMR_Map(struct vapi *vd, struct vsmr_seg *seg,
    const void **b, const void **e);
/* Data hung on a segment, freed with it by free_f. */
VSMR_HIDDEN void *VSMR_GetPriv(const struct vsmr_seg *seg);
VSMR_HIDDEN void VSMR_SetPriv(struct vsmr_seg *seg, void *priv,
    vsmr_priv_free_f *free_f);
VSMR_HIDDEN void VSMR_Ref(struct vsmr_seg *seg);
VSMR_HIDDEN void VSMR_Deref(struct vapi *vd, struct vsmr_seg **segp);
/* Grows whenever the list of live segments changes. */
VSMR_HIDDEN unsigned VSMR_Generation(const struct vapi *vd);
/* The counters' state, owned by vapi_vsc.c. */
VSMR_HIDDEN void **VSMR_VscSlot(struct vapi *vd);

/* In vapi_vsc.c: free the counters' state (VAPI_Free). */
VSMR_HIDDEN void VSMR_VscFree(struct vapi *vd);

#endif /* VENEER_VSM_VAPI_VSM_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcl.h -- loaded VCL programs and calling their methods.  A request holds
 * a reference to the VCL it started with, so switching the active VCL
 * never pulls one out from under a request.
 */

#ifndef VENEER_CACHE_VCL_H
#define VENEER_CACHE_VCL_H

#include <stdio.h>

#include "vrt.h"

struct vcl;
struct worker;

/* Load and make active the program conf under name; 0 or -1 with err. */
int VCL_Load(const struct vcl_conf *conf, const char *name, char *err,
    size_t errlen);

/*
 * Load the compiled VCL in the shared object at path (its VCL_conf) as
 * name, run its LOAD event and vcl_init, and make it active if activate;
 * 0 or -1 with err (a name already loaded, a build for another VRT, a
 * failing vcl_init).
 */
int VCL_LoadFile(const char *path, const char *name, int activate,
    char *err, size_t errlen);
/* Make a loaded VCL the one new requests get; 0 or -1 with err. */
int VCL_Use(const char *name, char *err, size_t errlen);
/*
 * Take a VCL off the loaded list: it is unloaded when the last request
 * using it ends.  The active one cannot go.  0 or -1 with err.
 */
int VCL_Discard(const char *name, char *err, size_t errlen);
/*
 * vcl.label: point the label lname at the VCL vname (making the label
 * if need be; a label holds a reference to its VCL).  0 or -1 with err.
 */
int VCL_Label(const char *lname, const char *vname, char *err,
    size_t errlen);
/* vcl.state: the state (auto|cold|warm) vcl.list shows; a cold one
 * cannot be used.  0 or -1 with err. */
int VCL_SetState(const char *name, const char *state, int cold, char *err,
    size_t errlen);
/*
 * Is it warm (its backends probed, its dynamic names resolved)?  Not
 * while loading, before vcl.load or the boot gives it a state.
 */
int VCL_IsWarm(const struct vcl *vcl);
/* Does this VCL's vcl_recv return (vcl(...))? */
int VCL_HasLabels(const struct vcl *vcl);
/* A reference to the VCL a label (VRT_vcl_select's) points at now. */
struct vcl *VCL_LabelRef(struct vcl *label);
/*
 * vcl.profile: the profile figures of the named (or active) VCL, as
 * PROF_Rows writes them; 0, or -1 with why in out.
 */
int VCL_Profile(FILE *out, const char *name);
/* "active|available BUSY NAME" a line per loaded VCL and label. */
void VCL_List(char *buf, size_t len);
/* Is there an active VCL? */
int VCL_Active(void);

/* A reference to the active VCL. */
struct vcl *VCL_Ref(void);
/* One more reference to a VCL the caller holds one of. */
void VCL_RefThis(struct vcl *vcl);
void VCL_Rel(struct vcl **vclp);

const char *VCL_Name(const struct vcl *vcl);
VCL_BACKEND VCL_DefaultDirector(const struct vcl *vcl);

/*
 * Call a method: logs VCL_call and VCL_return, and turns a return the
 * method may not make (or none) into fail.
 */
enum vcl_ret VCL_Method(struct vcl *vcl, enum vcl_method method,
    struct vrt_ctx *ctx);

const char *VCL_MethodName(enum vcl_method m);
const char *VCL_ReturnName(enum vcl_ret r);


#endif /* VENEER_CACHE_VCL_H */

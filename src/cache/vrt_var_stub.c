/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vrt_var_stub.c -- a weak accessor for every variable of
 * include/vcl_vars.h, so that every VRT_r_/VRT_l_/VRT_u_ the compiler
 * may emit exists in veneerd and a VCL always loads.  The real ones in
 * vrt.c and vrt_var.c override these at link time.  A stub checks the
 * context like a real accessor; for a VV_MISSING variable it is the
 * documented neutral value (0, false, unset) and a set that does
 * nothing; for any other it fails the method, saying so, because a
 * silently wrong value would be worse.
 */

#include "config.h"

#include "common/miniobj.h"
#include "cache/vrt_priv.h"
#include "vrt.h"

static void
vrtv_stub(VRT_CTX, enum vrtv_id id, enum vrtv_op op)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!VRTV_Check(ctx, id, op))
		return;
	if (VRTV_Flags(id) & VV_MISSING)
		return;
	VRT_fail(ctx, "%s: not implemented in this veneerd", VRTV_Name(id));
}

#define VCL_VAR(c, name, T, rd, wr, un, fl, doc)			\
__attribute__((weak)) VCL_##T						\
VRT_r_##c(VRT_CTX)							\
{									\
									\
	vrtv_stub(ctx, VRTV_##c, VRTV_READ);				\
	return ((VCL_##T)0);						\
}									\
									\
__attribute__((weak)) void						\
VRT_l_##c(VRT_CTX, VCL_##T##_SET v)					\
{									\
									\
	(void)v;							\
	vrtv_stub(ctx, VRTV_##c, VRTV_SET);				\
}									\
									\
__attribute__((weak)) void						\
VRT_u_##c(VRT_CTX)							\
{									\
									\
	vrtv_stub(ctx, VRTV_##c, VRTV_UNSET);				\
}
#define VCL_HDR(where, name, rd, wr, un, doc)
#include "vcl_vars.h"

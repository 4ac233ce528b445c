/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcl_vars.h -- THE table of VCL variables: their types and where each
 * may be read, set and unset.  No include guard: define VCL_VAR() and
 * VCL_HDR() and include (after vrt.h, for the VM_ method sets).  The
 * compiler checks every use against it and teaches from it; vrt.h
 * declares the accessors from it; man/veneer-vcl.7's tables are made
 * from it.  Names and types are Varnish 7.1's.
 *
 * VCL_VAR(cname, "name", TYPE, rd, wr, un, flags, "doc")
 *   cname	the accessors are VRT_r_<cname> (read), VRT_l_<cname>
 *		(set; takes VCL_<TYPE>_SET) and VRT_u_<cname> (unset); only
 *		those whose set of methods is not VM_NONE exist
 *   TYPE	the VCL type: STRING, INT, REAL, BOOL, DURATION, BYTES, TIME,
 *		IP, BACKEND, BLOB, BODY, HTTP
 *   rd wr un	the methods where it may be read, set, unset: VM_(RECV)
 *		| ..., or VM_CLIENT, VM_BACKEND, VM_HOUSEKEEPING, VM_ALL,
 *		VM_NONE
 *   flags	VV_MISSING: the feature behind it does not exist here yet;
 *		it compiles with a warning that says so, reads give the
 *		documented neutral value and sets do nothing
 *		VV_4_0: a name VCL 4.0 had, accepted with a warning naming
 *		the modern one
 *   doc	one line for the manual
 *
 * VCL_HDR(WHERE, "prefix.", rd, wr, un, "doc")
 *   headers of a message, "req.http.Host": the compiler emits a
 *   struct gethdr_s { HDR_<WHERE>, "\005Host:" } and calls VRT_GetHdr,
 *   VRT_SetHdr, VRT_UnsetHdr
 */

#ifndef VV_MISSING
#define VV_MISSING	(1U << 0)
#define VV_4_0		(1U << 1)
#endif

/* XXX rows are being filled in; the format above is settled. */
#ifdef VCL_VAR
VCL_VAR(req_method, "req.method", STRING,
    VM_CLIENT, VM_CLIENT, VM_NONE, 0,
    "The request method, \"GET\".")
VCL_VAR(req_url, "req.url", STRING,
    VM_CLIENT, VM_CLIENT, VM_NONE, 0,
    "The request target, \"/index.html?x=1\".")
#undef VCL_VAR
#endif

#ifdef VCL_HDR
VCL_HDR(REQ, "req.http.",
    VM_CLIENT, VM_CLIENT, VM_CLIENT,
    "The headers of the client request.")
#undef VCL_HDR
#endif

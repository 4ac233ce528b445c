/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_std.h -- the std module (`import std;`): each function's name,
 * return type and arguments, as Varnish 7.1 defines them.  No include
 * guard: define VMOD_FUNC() and the argument macros and include.  The
 * compiler type-checks calls from it (named and positional arguments,
 * defaults); vrt.h declares the C functions from it; src/cache/
 * vmod_std.c implements them.
 *
 * VMOD_FUNC(module, function, RETURN, args, "doc")
 *   RETURN	a VCL type (STRING, INT, ..., VOID)
 *   args	a sequence, no commas between, of:
 *     VMOD_A(TYPE, name)		required
 *     VMOD_D(TYPE, name, "default")	defaulted: the default in VCL syntax
 *     VMOD_O(TYPE, name)		optional without a default: C gets
 *					(VCL_BOOL valid_name, VCL_TYPE name)
 *     VMOD_E(name, "a,b,c", "default")	ENUM, passed as its string
 *   TYPE includes STRANDS (any string expression), HEADER (a header
 *   reference, req.http.X), HTTP (req, bereq, resp, beresp) and
 *   PRIV_TASK/PRIV_CALL-free: modules here keep their state themselves.
 *
 * The C function is VCL_<RETURN> vmod_<module>_<function>(VRT_CTX, ...).
 */

/* XXX rows are being filled in; the format above is settled. */
#ifdef VMOD_FUNC
VMOD_FUNC(std, toupper, STRING, VMOD_A(STRANDS, s),
    "The string in upper case (ASCII).")
VMOD_FUNC(std, tolower, STRING, VMOD_A(STRANDS, s),
    "The string in lower case (ASCII).")
VMOD_FUNC(std, log, VOID, VMOD_A(STRANDS, s),
    "Writes a VCL_Log record to the shared-memory log.")
VMOD_FUNC(std, integer, INT,
    VMOD_O(STRING, s) VMOD_O(INT, fallback) VMOD_O(BOOL, bool)
    VMOD_O(BYTES, bytes) VMOD_O(DURATION, duration) VMOD_O(REAL, real)
    VMOD_O(TIME, time),
    "Converts exactly one of its arguments to an integer; fallback "
    "when that fails.")
VMOD_FUNC(std, collect, VOID,
    VMOD_A(HEADER, hdr) VMOD_D(STRING, sep, "\", \""),
    "Joins all lines of a header into one, separated by sep.")
#undef VMOD_FUNC
#endif
#undef VMOD_A
#undef VMOD_D
#undef VMOD_O
#undef VMOD_E

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc.h -- the VCL compiler, as the manager (and the tests, and the fuzz
 * target) use it: VCL source in, one C file out, or errors that name
 * file, line and column with the line and a caret.  The C includes only
 * "vrt.h" and defines `const struct vcl_conf VCL_conf`.  No global
 * state: compilations may run one after another in one process.
 */

#ifndef VENEER_VCC_H
#define VENEER_VCC_H

struct vcc_opts {
	const char	*vcl_path;	/* ':'-separated include dirs */
	unsigned	err_unref;	/* unused backend/sub/acl/probe: error */
	unsigned	allow_inline_c;	/* C{ }C */
	unsigned	no_builtin;	/* do not append builtin.vcl (tests) */
	unsigned	optimize;	/* -p vcc_optimize */
	unsigned	safe_path;	/* -p vcc_unsafe_path=off: include
					   names no path with '/' */
	/*
	 * The vcl.label names return (vcl(...)) may use, NULL-terminated
	 * (NULL: none); label_used, when not NULL, has a slot per name,
	 * set to 1 for each one the VCL uses (vcl.deps).
	 */
	const char * const *labels;
	unsigned	*label_used;
};

/*
 * Compiles the VCL in the file named file, or, when src is not NULL,
 * the text src under the name file ("<-b>" and the like); builtin.vcl
 * (VCC_builtin_vcl) is appended unless opts->no_builtin.
 *
 * Returns 0 with *cp the C source; -1 with no C.  Either way *msgp
 * holds the warnings and errors as the operator should see them ("" if
 * none).  Both are malloc'd; the caller frees them.
 */
int VCC_Compile(const struct vcc_opts *opts, const char *file,
    const char *src, char **cp, char **msgp);

/* man/veneer-vcl.7's tables, from the tables the compiler uses. */
void VCC_DumpRoff(void);

/* The text of vcl/builtin.vcl, built in. */
extern const char VCC_builtin_vcl[];

#endif /* VENEER_VCC_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vrt_symbols.c -- every function a compiled VCL may call exists in
 * the veneerd binary, exported: each VRT_r_/VRT_l_/VRT_u_ accessor that
 * include/vcl_vars.h declares usable somewhere, and each function of
 * include/vmod_std.h.  veneerd is linked from a static archive, where an
 * object file nobody in the daemon calls is silently left out; a VCL
 * calling into it would then fail only when it is loaded.  Reads the
 * dynamic symbol table with nm -D; a weak stub does not count.
 */

#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#ifndef VENEERD_PATH
#define VENEERD_PATH	"./veneerd"
#endif

static char *syms;		/* nm's output, "\nname\n" per symbol */
static size_t nsyms;

static void
load_symbols(void)
{
	char cmd[512], line[512], *p;
	size_t cap = 1 << 16, len = 1;
	FILE *f;

	(void)snprintf(cmd, sizeof cmd,
	    "nm -D --defined-only '%s' 2>/dev/null", VENEERD_PATH);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	syms = malloc(cap);
	ck_assert_ptr_nonnull(syms);
	syms[0] = '\n';
	while (fgets(line, sizeof line, f) != NULL) {
		/*
		 * "0000000000012345 T VRT_r_req_url".  Only strong text
		 * symbols count: vrt_var_stub.c's weak "not implemented"
		 * stubs (W) are what a missing accessor would resolve to.
		 */
		p = strrchr(line, ' ');
		if (p == NULL || p - line < 2 || p[-1] != 'T')
			continue;
		p++;
		if (len + strlen(p) + 2 > cap) {
			cap *= 2;
			syms = realloc(syms, cap);
			ck_assert_ptr_nonnull(syms);
		}
		memcpy(syms + len, p, strlen(p));
		len += strlen(p);
		if (syms[len - 1] != '\n')
			syms[len++] = '\n';
		nsyms++;
	}
	syms[len] = '\0';
	(void)pclose(f);
}

static int
has(const char *name)
{
	char pat[256];

	(void)snprintf(pat, sizeof pat, "\n%s\n", name);
	return (strstr(syms, pat) != NULL);
}

static unsigned nmissing;

static void
want(const char *name)
{

	if (!has(name)) {
		fprintf(stderr, "missing from veneerd: %s\n", name);
		nmissing++;
	}
}

START_TEST(test_accessors)
{
	load_symbols();
	ck_assert_uint_gt(nsyms, 100);
	nmissing = 0;
#define VCL_VAR(c, name, T, rd, wr, un, fl, doc)			\
	do {								\
		if ((rd) != VM_NONE)					\
			want("VRT_r_" #c);				\
		if ((wr) != VM_NONE)					\
			want("VRT_l_" #c);				\
		if ((un) != VM_NONE)					\
			want("VRT_u_" #c);				\
	} while (0);
#define VCL_HDR(where, name, rd, wr, un, doc)
#include "vcl_vars.h"
#define VMOD_A(T, x)
#define VMOD_D(T, x, def)
#define VMOD_O(T, x)
#define VMOD_E(x, values, def)
#define VMOD_P(k)
#define VMOD_FUNC(mod, fn, R, args, doc)				\
	want("vmod_" #mod "_" #fn);
#define VMOD_OBJ(mod, cls, args, doc)					\
	want("vmod_" #mod "_" #cls "__init");				\
	want("vmod_" #mod "_" #cls "__fini");
#define VMOD_METHOD(mod, cls, m, R, args, where, doc)			\
	want("vmod_" #mod "_" #cls "_" #m);
#include "vmod_std.h"
	ck_assert_uint_eq(nmissing, 0);
}
END_TEST

START_TEST(test_runtime)
{
	static const char * const fns[] = {
		"VRT_new_backend", "VRT_delete_backend", "VRT_GetHdr",
		"VRT_SetHdr", "VRT_UnsetHdr", "VRT_hashdata", "VRT_synth",
		"VRT_synth_strands", "VRT_log", "VRT_fail", "VRT_StrandsWS",
		"VRT_STRANDS_string", "VRT_INT_string", "VRT_REAL_string",
		"VRT_DURATION_string", "VRT_TIME_string", "VRT_BYTES_string",
		"VRT_BOOL_string", "VRT_BACKEND_string", "VRT_IP_string",
		"VRT_BLOB_string", "VRT_strcmp", "VRT_re_init", "VRT_re_fini",
		"VRT_re_match", "VRT_regsub", "VRT_acl_init", "VRT_acl_fini",
		"VRT_acl_match", "VRT_hit_for_pass", "VRT_ban_string",
		"VRT_storage_free_space", "VRT_storage_used_space",
		"VRT_storage_happy", "VRT_lit_index", "VRT_prof_now",
		"VRT_prof_cond", "VRT_prof_call", "VRT_priv_task",
		"VRT_priv_task_get", "VRT_priv_top", "VRT_priv_top_get",
		"VRT_priv_fini", "VRT_DirectorResolve", "VRT_UpperLowerStrands",
	};
	size_t i;

	load_symbols();
	nmissing = 0;
	for (i = 0; i < sizeof fns / sizeof fns[0]; i++)
		want(fns[i]);
	ck_assert_uint_eq(nmissing, 0);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("vrt_symbols");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_accessors);
	tcase_add_test(tc, test_runtime);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr = srunner_create(suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcl_mgt.c -- issue #12, the manager's side of VCL: -f and -b and
 * -C, vcl_path for a relative -f, cc_command (its expansion, and its
 * failure stopping veneerd with status 2 and what cc said), and a VCL
 * whose vcl_init fails being refused.  The language itself is
 * test_vcl.c's.
 */

#include "config.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/harness.h"

/* Write text to DIR/name; returns the path (caller frees). */
static char *
write_vcl(const char *dir, const char *name, const char *text)
{
	char *path;
	FILE *f;

	ck_assert_int_gt(asprintf(&path, "%s/%s", dir, name), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return (path);
}

static void
assert_contains(char *s, const char *what)
{

	ck_assert_ptr_nonnull(s);
	ck_assert_msg(strstr(s, what) != NULL, "expected \"%s\" in:\n%s",
	    what, s);
	free(s);
}

#define VCL_OK								\
	"vcl 4.1;\n"							\
	"backend be { .host = \"127.0.0.1\"; .port = \"9\"; }\n"

START_TEST(issue_0012_b_and_f_exclusive)
{
	struct vnd *v;
	char *vcl;

	v = VND_New();
	vcl = write_vcl(VND_Dir(v), "a.vcl", VCL_OK);
	/* std: -b comes first; -f too is refused before anything starts */
	ck_assert_int_eq(VND_Exec(v, 1, 10.0, "-f", vcl, NULL), 2);
	assert_contains(VND_ExecErr(v), "-b and -f cannot be used together");
	ck_assert_int_eq(VND_Exec(v, 0, 10.0, "-F", "-n", VND_Workdir(v),
	    NULL), 2);
	assert_contains(VND_ExecErr(v), "give -f file.vcl");
	free(vcl);
	VND_Free(&v);
}
END_TEST

START_TEST(issue_0012_C_prints_c)
{
	struct vnd *v;
	char *vcl;

	v = VND_New();
	vcl = write_vcl(VND_Dir(v), "a.vcl", VCL_OK);
	ck_assert_int_eq(VND_Exec(v, 0, 20.0, "-C", "-f", vcl, NULL), 0);
	assert_contains(VND_ExecOut(v), "VCL_conf");
	/* -b stands for a VCL too */
	ck_assert_int_eq(VND_Exec(v, 0, 20.0, "-C", "-b", "192.0.2.1:81",
	    NULL), 0);
	assert_contains(VND_ExecOut(v), "192.0.2.1");
	/* nothing was started, no workdir needed */
	free(vcl);
	VND_Free(&v);
}
END_TEST

START_TEST(issue_0012_missing_file)
{
	struct vnd *v;

	v = VND_New();
	ck_assert_int_eq(VND_Exec(v, 0, 10.0, "-C", "-f",
	    "/nonexistent/site.vcl", NULL), 2);
	assert_contains(VND_ExecErr(v), "/nonexistent/site.vcl");
	VND_Free(&v);
}
END_TEST

/* A relative -f not in the current directory is found in vcl_path. */
START_TEST(issue_0012_vcl_path_finds_relative_f)
{
	struct vnd *v;
	char *vcl, *dir, *p;

	v = VND_New();
	ck_assert_int_gt(asprintf(&dir, "%s/vcldir", VND_Dir(v)), 0);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	vcl = write_vcl(dir, "site.vcl", VCL_OK);
	ck_assert_int_gt(asprintf(&p, "vcl_path=/nonexistent:%s", dir), 0);
	ck_assert_int_eq(VND_ExecIn(v, VND_Dir(v), 0, 20.0, "-p", p, "-C",
	    "-f", "site.vcl", NULL), 0);
	assert_contains(VND_ExecOut(v), "VCL_conf");
	/* Without it, the file is not there. */
	ck_assert_int_eq(VND_ExecIn(v, VND_Dir(v), 0, 20.0, "-C", "-f",
	    "site.vcl", NULL), 2);
	free(p);
	free(vcl);
	free(dir);
	VND_Free(&v);
}
END_TEST

/* cc_command runs in the VCL's directory; a failing one stops veneerd. */
START_TEST(issue_0012_cc_command)
{
	struct origin *o;
	struct vnd *v;
	struct client *cl;
	struct hx_msg *m;

	v = VND_New();
	ck_assert_int_eq(VND_Exec(v, 1, 20.0, "-p",
	    "cc_command=echo the compiler said no; exit 1", NULL), 2);
	assert_contains(VND_ExecErr(v), "the compiler said no");
	assert_contains(VND_ExecErr(v), "Building the compiled VCL failed");
	VND_Free(&v);

	/* Another command, with %o and %s expanded, in the VCL's dir. */
	o = ORIGIN_New(NULL, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Param(v, "cc_command", "test -f vrt.h && cc -O0 -fPIC "
	    "-shared -o %o %s && touch made-here");
	VND_Start(v);
	cl = VND_Connect(v);
	m = CLIENT_Fetch(cl, "GET", "/x", NULL, 10.0);
	ck_assert_int_eq(m->status, 200);
	HX_MsgFree(&m);
	CLIENT_Free(&cl);
	{
		char path[1024];
		glob_t g;

		/* The build directory is vcl_boot.PID.N. */
		(void)snprintf(path, sizeof path, "%s/vcl_boot.*/made-here",
		    VND_Workdir(v));
		ck_assert_msg(glob(path, 0, NULL, &g) == 0 &&
		    g.gl_pathc == 1, "no %s", path);
		globfree(&g);
	}
	VND_Stop(v);
	VND_Free(&v);
	ORIGIN_Free(&o);
}
END_TEST

/* vcl_init returning fail: the VCL is refused, veneerd does not serve. */
START_TEST(issue_0012_vcl_init_fail_refused)
{
	struct vnd *v;
	char *vcl;
	int st;

	v = VND_New();
	vcl = write_vcl(VND_Dir(v), "a.vcl", VCL_OK
	    "sub vcl_init { return (fail); }\n");
	st = VND_Exec(v, 0, 30.0, "-F", "-n", VND_Workdir(v), "-a",
	    "127.0.0.1:0", "-j", "none", "-f", vcl, NULL);
	ck_assert_int_ne(st, 0);
	assert_contains(VND_ExecErr(v), "vcl_init");
	/* varnishd's words, which scripts look for. */
	assert_contains(VND_ExecErr(v), "Failed initialization");
	free(vcl);
	VND_Free(&v);
}
END_TEST

static Suite *
vcl_mgt_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("vcl_mgt");
	tc = tcase_create("vcl_mgt");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, issue_0012_b_and_f_exclusive);
	tcase_add_test(tc, issue_0012_C_prints_c);
	tcase_add_test(tc, issue_0012_missing_file);
	tcase_add_test(tc, issue_0012_vcl_path_finds_relative_f);
	tcase_add_test(tc, issue_0012_cc_command);
	tcase_add_test(tc, issue_0012_vcl_init_fail_refused);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(vcl_mgt_suite()));
}

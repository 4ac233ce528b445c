/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcc_corpus.c -- the broken-VCL corpus (tests/vcc/broken): each
 * file says on its first lines where the compiler must blame it
 * (`# expect: LINE:COL`) and what the message must say (`# message:`),
 * and must be refused with exactly that: "FILE:LINE:COL: error: ...".
 * And the good corpus (tests/vcc/good), VCL in the styles of published
 * files: each must compile, and its C pass cc -Wall -Werror.
 */

#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcc/vcc.h"

static char **files, **goods;
static unsigned nfiles, ngoods;

static int
cmp(const void *a, const void *b)
{

	return (strcmp(*(char * const *)a, *(char * const *)b));
}

static void
load_corpus(const char *dir, char ***filesp, unsigned *np)
{
	struct dirent *de;
	char **list = NULL;
	unsigned n = 0;
	DIR *d;

	d = opendir(dir);
	if (d == NULL) {
		perror(dir);
		exit(EXIT_FAILURE);
	}
	while ((de = readdir(d)) != NULL) {
		if (strlen(de->d_name) < 5 ||
		    strcmp(de->d_name + strlen(de->d_name) - 4, ".vcl"))
			continue;
		list = realloc(list, (n + 1) * sizeof *list);
		if (list == NULL ||
		    asprintf(&list[n], "%s/%s", dir, de->d_name) < 0)
			abort();
		n++;
	}
	(void)closedir(d);
	qsort(list, n, sizeof *list, cmp);
	*filesp = list;
	*np = n;
}

START_TEST(test_broken)
{
	struct vcc_opts opts = { .vcl_path = "", .err_unref = 1,
	    .optimize = 1 };
	char line[512], expect[64] = "", message[256] = "", want[700];
	char *c, *msg;
	FILE *f;

	f = fopen(files[_i], "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof line, f) != NULL && line[0] == '#') {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "# expect: ", 10))
			(void)snprintf(expect, sizeof expect, "%.60s", line + 10);
		else if (!strncmp(line, "# message: ", 11))
			(void)snprintf(message, sizeof message, "%.250s",
			    line + 11);
	}
	(void)fclose(f);
	ck_assert_msg(expect[0] != '\0', "%s: no # expect: line", files[_i]);
	ck_assert_int_ne(VCC_Compile(&opts, files[_i], NULL, &c, &msg), 0);
	ck_assert_ptr_null(c);
	(void)snprintf(want, sizeof want, "%s:%s: error: ", files[_i],
	    expect);
	ck_assert_msg(strncmp(msg, want, strlen(want)) == 0 ||
	    strstr(msg, want) != NULL,
	    "%s: expected \"%s\" in:\n%s", files[_i], want, msg);
	ck_assert_msg(message[0] == '\0' || strstr(msg, message) != NULL,
	    "%s: expected \"%s\" in:\n%s", files[_i], message, msg);
	/* The line and a caret are shown. */
	ck_assert_msg(strchr(msg, '^') != NULL, "%s: no caret:\n%s",
	    files[_i], msg);
	free(msg);
}
END_TEST

START_TEST(test_good)
{
	struct vcc_opts opts = { .vcl_path = "", .err_unref = 1,
	    .optimize = 1 };
	char *c, *msg, *cmd, dir[] = "/tmp/test_vcc_corpus.XXXXXX", path[64];
	FILE *f;

	ck_assert_msg(VCC_Compile(&opts, goods[_i], NULL, &c, &msg) == 0,
	    "%s:\n%s", goods[_i], msg);
	free(msg);
	/* A directory of its own: "vrt.h" is looked for beside the file. */
	ck_assert_ptr_nonnull(mkdtemp(dir));
	(void)snprintf(path, sizeof path, "%s/vgc.c", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(c, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	free(c);
	ck_assert_int_gt(asprintf(&cmd, "cc -std=gnu99 -fsyntax-only "
	    "-Wall -Wextra -Werror -Wno-unused-parameter -I%s %s",
	    VCC_INCLUDE_DIR, path), 0);
	ck_assert_msg(system(cmd) == 0, "cc failed on the C of %s",
	    goods[_i]);
	free(cmd);
	(void)unlink(path);
	(void)rmdir(dir);
}
END_TEST

int
main(void)
{
	SRunner *sr;
	Suite *s;
	TCase *tc;
	int nfail;

	load_corpus(VCC_CORPUS_DIR "/broken", &files, &nfiles);
	load_corpus(VCC_CORPUS_DIR "/good", &goods, &ngoods);
	if (nfiles < 60) {
		fprintf(stderr, "only %u files in %s\n", nfiles,
		    VCC_CORPUS_DIR);
		return (EXIT_FAILURE);
	}
	s = suite_create("vcc_corpus");
	tc = tcase_create("broken");
	tcase_add_loop_test(tc, test_broken, 0, (int)nfiles);
	tcase_add_loop_test(tc, test_good, 0, (int)ngoods);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

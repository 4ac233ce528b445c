/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcc_corpus.c -- the broken-VCL corpus (tests/vcc/broken): each
 * file says on its first lines where the compiler must blame it
 * (`# expect: LINE:COL`) and what the message must say (`# message:`),
 * and must be refused with exactly that: "FILE:LINE:COL: error: ...".
 */

#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcc/vcc.h"

static char **files;
static unsigned nfiles;

static int
cmp(const void *a, const void *b)
{

	return (strcmp(*(char * const *)a, *(char * const *)b));
}

static void
load_corpus(void)
{
	struct dirent *de;
	DIR *d;

	d = opendir(VCC_CORPUS_DIR);
	if (d == NULL) {
		perror(VCC_CORPUS_DIR);
		exit(EXIT_FAILURE);
	}
	while ((de = readdir(d)) != NULL) {
		if (strlen(de->d_name) < 5 ||
		    strcmp(de->d_name + strlen(de->d_name) - 4, ".vcl"))
			continue;
		files = realloc(files, (nfiles + 1) * sizeof *files);
		if (files == NULL ||
		    asprintf(&files[nfiles], "%s/%s", VCC_CORPUS_DIR,
		    de->d_name) < 0)
			abort();
		nfiles++;
	}
	(void)closedir(d);
	qsort(files, nfiles, sizeof *files, cmp);
}

START_TEST(test_broken)
{
	struct vcc_opts opts = { "", 1, 0, 0 };
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

int
main(void)
{
	SRunner *sr;
	Suite *s;
	TCase *tc;
	int nfail;

	load_corpus();
	if (nfiles < 60) {
		fprintf(stderr, "only %u files in %s\n", nfiles,
		    VCC_CORPUS_DIR);
		return (EXIT_FAILURE);
	}
	s = suite_create("vcc_corpus");
	tc = tcase_create("broken");
	tcase_add_loop_test(tc, test_broken, 0, (int)nfiles);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

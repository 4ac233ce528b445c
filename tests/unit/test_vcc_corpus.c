/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_vcc_corpus.c -- the broken-VCL corpus (tests/vcc/broken): each
 * file says on its first lines where the compiler must blame it
 * (`# expect: LINE:COL`) and what the message must say (`# message:`),
 * and must be refused with exactly that: "FILE:LINE:COL: error: ...".
 * The good corpus (tests/vcc/good), VCL in the styles people publish,
 * must compile, and the C it gives must pass the C compiler's syntax
 * and type checks against our headers.
 */

#include "config.h"

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vcc/vcc.h"

struct corpus {
	char		**files;
	unsigned	nfiles;
};

static struct corpus broken, good;

static int
cmp(const void *a, const void *b)
{

	return (strcmp(*(char * const *)a, *(char * const *)b));
}

static void
load_corpus(struct corpus *cp, const char *dir)
{
	struct dirent *de;
	char **files = NULL;
	unsigned nfiles = 0;
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
		files = realloc(files, (nfiles + 1) * sizeof *files);
		if (files == NULL ||
		    asprintf(&files[nfiles], "%s/%s", dir, de->d_name) < 0)
			abort();
		nfiles++;
	}
	(void)closedir(d);
	if (nfiles > 0)
		qsort(files, nfiles, sizeof *files, cmp);
	cp->files = files;
	cp->nfiles = nfiles;
}

START_TEST(test_broken)
{
	struct vcc_opts opts = { "", 1, 0, 0 };
	char line[512], expect[64] = "", message[256] = "", want[700];
	char *c, *msg;
	FILE *f;

	f = fopen(broken.files[_i], "r");
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
	ck_assert_msg(expect[0] != '\0', "%s: no # expect: line", broken.files[_i]);
	ck_assert_int_ne(VCC_Compile(&opts, broken.files[_i], NULL, &c, &msg), 0);
	ck_assert_ptr_null(c);
	(void)snprintf(want, sizeof want, "%s:%s: error: ", broken.files[_i],
	    expect);
	ck_assert_msg(strncmp(msg, want, strlen(want)) == 0 ||
	    strstr(msg, want) != NULL,
	    "%s: expected \"%s\" in:\n%s", broken.files[_i], want, msg);
	ck_assert_msg(message[0] == '\0' || strstr(msg, message) != NULL,
	    "%s: expected \"%s\" in:\n%s", broken.files[_i], message, msg);
	/* The line and a caret are shown. */
	ck_assert_msg(strchr(msg, '^') != NULL, "%s: no caret:\n%s",
	    broken.files[_i], msg);
	free(msg);
}
END_TEST

START_TEST(test_good)
{
	struct vcc_opts opts = { "", 1, 0, 0 };
	const char *file = good.files[_i];
	char cfile[] = "/tmp/vcc_good.XXXXXX", cmd[1024];
	char *c, *msg;
	FILE *f;
	int fd;

	ck_assert_msg(VCC_Compile(&opts, file, NULL, &c, &msg) == 0,
	    "%s does not compile:\n%s", file, msg != NULL ? msg : "");
	ck_assert_ptr_nonnull(c);
	free(msg);
	fd = mkstemp(cfile);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(c, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	free(c);
	/* Wrong pointer types are warnings to cc by default: not here. */
	(void)snprintf(cmd, sizeof cmd, "cc -std=gnu99 -fsyntax-only "
	    "-Werror=incompatible-pointer-types -Werror=int-conversion "
	    "-Werror=implicit-function-declaration -I'%s' -x c '%s'",
	    VCC_INCLUDE_DIR, cfile);
	ck_assert_msg(system(cmd) == 0, "cc refused the C of %s (kept in %s)",
	    file, cfile);
	(void)unlink(cfile);
}
END_TEST

int
main(void)
{
	SRunner *sr;
	Suite *s;
	TCase *tc;
	int nfail;

	load_corpus(&broken, VCC_CORPUS_DIR);
	load_corpus(&good, VCC_GOOD_DIR);
	if (broken.nfiles < 60 || good.nfiles < 5) {
		fprintf(stderr, "only %u files in %s, %u in %s\n",
		    broken.nfiles, VCC_CORPUS_DIR, good.nfiles, VCC_GOOD_DIR);
		return (EXIT_FAILURE);
	}
	s = suite_create("vcc_corpus");
	tc = tcase_create("broken");
	tcase_add_loop_test(tc, test_broken, 0, (int)broken.nfiles);
	suite_add_tcase(s, tc);
	tc = tcase_create("good");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_good, 0, (int)good.nfiles);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	nfail = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nfail == 0 ? EXIT_SUCCESS : EXIT_FAILURE);
}

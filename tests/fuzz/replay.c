/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * replay.c -- a fuzz target as a plain program: runs every input saved
 * for it (tests/fuzz/corpus/<target>/ and tests/fuzz/crashes/<target>/)
 * or the files and directories named on the command line, through
 * LLVMFuzzerTestOneInput, once each.  Built with the normal compiler
 * for `make check` (and with the sanitizers by `tools/test.sh --asan`),
 * so every input that ever crashed stays a regression test without
 * clang or libFuzzer.  FUZZ_NAME is the target's name.
 */

#include "config.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

#ifndef FUZZ_NAME
#error "FUZZ_NAME (the target's name) must be defined"
#endif

/* Targets without one time setup do not define it. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((__weak__));

static unsigned replay_n;

static int
replay_file(const char *path)
{
	FILE *f;
	uint8_t *buf;
	size_t len, cap = 4096;
	int ok;

	f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "fuzz_%s: cannot open %s: %s\n", FUZZ_NAME,
		    path, strerror(errno));
		return (-1);
	}
	buf = malloc(cap);
	assert(buf != NULL);
	len = 0;
	for (;;) {
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
		assert(buf != NULL);
	}
	ok = !ferror(f);
	(void)fclose(f);
	if (!ok) {
		fprintf(stderr, "fuzz_%s: cannot read %s\n", FUZZ_NAME, path);
		free(buf);
		return (-1);
	}
	/* Exactly len bytes, so ASan sees a read past the input's end. */
	buf = realloc(buf, len == 0 ? 1 : len);
	assert(buf != NULL);
	/* Named first: a crash report follows its input's name. */
	fprintf(stderr, "fuzz_%s: %s (%zu bytes)\n", FUZZ_NAME, path, len);
	(void)LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	replay_n++;
	return (0);
}

/* A file, or every file in a directory (not recursive, dot files out). */
static int
replay_path(const char *path, int must_exist)
{
	struct dirent **names;
	struct stat st;
	char sub[4096];
	int i, n, r = 0;

	if (stat(path, &st) != 0) {
		if (!must_exist && errno == ENOENT)
			return (0);
		fprintf(stderr, "fuzz_%s: %s: %s\n", FUZZ_NAME, path,
		    strerror(errno));
		return (-1);
	}
	if (!S_ISDIR(st.st_mode))
		return (replay_file(path));
	/* Sorted, so a failing run is repeated in the same order. */
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "fuzz_%s: %s: %s\n", FUZZ_NAME, path,
		    strerror(errno));
		return (-1);
	}
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && r == 0) {
			(void)snprintf(sub, sizeof sub, "%s/%s", path,
			    names[i]->d_name);
			if (stat(sub, &st) == 0 && S_ISREG(st.st_mode))
				r = replay_file(sub);
		}
		free(names[i]);
	}
	free(names);
	return (r);
}

int
main(int argc, char **argv)
{
	const char *srcdir;
	char path[4096];
	int i, r = 0;

	if (LLVMFuzzerInitialize != NULL)
		(void)LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (i = 1; i < argc && r == 0; i++)
			r = replay_path(argv[i], 1);
	} else {
		/* make check: the target's saved inputs in the source tree. */
		srcdir = getenv("VENEER_SRCDIR");
		if (srcdir == NULL)
			srcdir = ".";
		(void)snprintf(path, sizeof path, "%s/tests/fuzz/corpus/%s",
		    srcdir, FUZZ_NAME);
		r = replay_path(path, 1);
		(void)snprintf(path, sizeof path, "%s/tests/fuzz/crashes/%s",
		    srcdir, FUZZ_NAME);
		if (r == 0)
			r = replay_path(path, 0);
	}
	if (r != 0)
		return (1);
	if (replay_n == 0) {
		fprintf(stderr, "fuzz_%s: no inputs to replay\n", FUZZ_NAME);
		return (1);
	}
	printf("fuzz_%s: %u inputs replayed, no crash\n", FUZZ_NAME,
	    replay_n);
	return (0);
}

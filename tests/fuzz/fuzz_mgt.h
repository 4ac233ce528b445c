/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_mgt.h -- the manager's command-line argument parsers, reached
 * where they live: mgt_main.c (-s, a static function) and mgt_listen.c
 * (-a) are compiled into the target, their main() renamed, and exit()
 * turned into a jump back to the target, so that MGT_Usage (what a bad
 * argument gets) ends one input instead of the fuzzer.  Nothing is
 * opened, bound or resolved: only the text is parsed.
 */

#ifndef VENEER_TESTS_FUZZ_MGT_H
#define VENEER_TESTS_FUZZ_MGT_H

#include <errno.h>
#include <getopt.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

static jmp_buf fuzz_mgt_jmp;

static void __attribute__((__noreturn__))
fuzz_mgt_exit(int status)
{

	assert(status != 0);
	longjmp(fuzz_mgt_jmp, 1);
}

int veneerd_main(int argc, char **argv, char **envp);

#define exit(status)	fuzz_mgt_exit(status)
#define main		veneerd_main
#include "mgt/mgt_main.c"
#include "mgt/mgt_listen.c"
#undef main
#undef exit

/*
 * Call parse on each line of the input in turn, as a command line with
 * one option repeated; stops at the first usage error, or after
 * FUZZ_MGT_MAXLINES lines (more tells nothing new, and each -a grows its
 * array by one: thousands of lines cost the fuzzer time and memory, not
 * veneerd).  Returns the number of lines accepted.
 */
#define FUZZ_MGT_MAXLINES	16

static inline unsigned
fuzz_mgt_lines(const uint8_t *data, size_t size, void (*parse)(const char *))
{
	volatile unsigned n = 0;
	char *s, *p, *nl;

	s = fuzz_cstr(data, size);
	if (setjmp(fuzz_mgt_jmp) == 0) {
		for (p = s; ; p = nl + 1) {
			nl = strchr(p, '\n');
			if (nl != NULL)
				*nl = '\0';
			parse(p);
			n++;
			if (nl == NULL || n == FUZZ_MGT_MAXLINES)
				break;
		}
	}
	free(s);
	return (n);
}

#endif /* VENEER_TESTS_FUZZ_MGT_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_cli.c -- the admin CLI's request side: each input line goes
 * through the line splitter (CLI_ParseArgs: quotes, escapes), the
 * argument checks of the command table (MCLI_Check) and, for the
 * commands that touch neither the child nor the session, the command
 * itself (help, ping, banner, status, pid, param.show/set/reset,
 * debug.listen_address).  Checks that every answer has a status of the
 * protocol and a body as long as it says; parameters get their defaults
 * back after each input.
 */

#include "config.h"

#include "common/cli.h"
#include "tests/fuzz/fuzz_mgt.h"
#include "mgt/mgt_cli.h"

static const char * const fuzz_cli_safe[] = {
	"help", "ping", "banner", "status", "pid", "param.show", "param.set",
	"param.reset", "debug.listen_address", NULL
};

static int
fuzz_cli_is_safe(const char *name)
{
	unsigned u;

	for (u = 0; fuzz_cli_safe[u] != NULL; u++)
		if (!strcmp(fuzz_cli_safe[u], name))
			return (1);
	return (0);
}

static void
fuzz_cli_line(const char *line)
{
	const struct mcli_cmd *cmd;
	struct mcli_req r;
	const char *err;
	char **av;
	int ac;

	av = CLI_ParseArgs(line, &err);
	if (av == NULL) {
		assert(err != NULL && *err != '\0');
		return;
	}
	for (ac = 0; av[ac] != NULL; ac++)
		assert(strlen(av[ac]) <= strlen(line));
	if (ac > 0) {
		memset(&r, 0, sizeof r);
		r.status = CLIS_OK;
		r.av = av;
		cmd = MCLI_Check(&r, ac, av);
		if (cmd == NULL)
			assert(r.status == CLIS_UNKNOWN ||
			    r.status == CLIS_TOOFEW ||
			    r.status == CLIS_TOOMANY);
		else if (fuzz_cli_is_safe(av[0]))
			cmd->func(&r, ac, av);
		assert(r.status >= 100 && r.status <= 999);
		assert(r.body.len == 0 || strlen(r.body.p) == r.body.len);
		free(r.body.p);
	}
	CLI_FreeArgs(av);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{

	(void)argc;
	(void)argv;
	PARAM_Init();
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct param_desc *pd;
	char err[256];
	unsigned u, n;

	(void)fuzz_mgt_lines(data, size, fuzz_cli_line);
	pd = PARAM_Table(&n);
	for (u = 0; u < n; u++)
		(void)PARAM_Reset(pd[u].name, err, sizeof err);
	return (0);
}

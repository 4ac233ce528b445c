/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * child_cli.h -- commands the child answers on its CLI pipe.  The
 * manager checks an admin's command against its own table and forwards
 * the words, quoted again, for those only the child can answer (ban,
 * ban.list, purge.key, vcl.*).  A command writes its answer's body to
 * out and returns its status (enum cli_status).
 */

#ifndef VENEER_CACHE_CHILD_CLI_H
#define VENEER_CACHE_CHILD_CLI_H

#include <stdio.h>

typedef unsigned ccli_func_f(FILE *out, int ac, char * const *av);

/* s as a JSON string, quotes included. */
void CCLI_JsonStr(FILE *out, const char *s);
/*
 * The start of a -j answer as varnishd writes it: "[ version, [the
 * command's words], time" (the caller goes on with ",\n..." and "]").
 */
void CCLI_JsonHead(FILE *out, unsigned version, int ac, char * const *av);

#endif /* VENEER_CACHE_CHILD_CLI_H */

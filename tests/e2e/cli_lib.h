/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cli_lib.h -- an admin CLI client for the end-to-end tests: start
 * veneerd with -T 127.0.0.1:0 and a known secret, log in with Varnish's
 * challenge and response, send commands and check their answers.  Every
 * failure fails the test.
 */

#ifndef VENEER_TESTS_E2E_CLI_LIB_H
#define VENEER_TESTS_E2E_CLI_LIB_H

#include "lib/harness.h"

/* The secret cli_start_with writes (two lines, as a file may have). */
#define SECRET	"not-so-secret\nline two\n"

/* The port of the first "CLI addr port" line veneerd printed. */
int	cli_port(struct vnd *v);
int	cli_connect(int port);
/* Read exactly len bytes within HX_T_SLOW; 0, or -1 on EOF. */
int	cli_read_n(int fd, char *buf, size_t len);
/* One answer: its status, and its body in *body (caller frees). */
unsigned cli_answer(int fd, char **body);
unsigned cli_ask(int fd, const char *line, char **body);
/* Ask, expect status, and that the body contains want (if not NULL). */
void	cli_expect(int fd, const char *line, unsigned status,
	    const char *want);
/* Poll cmd until its answer contains want; fail after HX_T_SLOW. */
void	cli_wait(int fd, const char *cmd, const char *want);
/* The answer to a challenge with the secret s. */
void	cli_response(const char *challenge, const char *s, char hex[65]);
/* Write text to path. */
void	write_text(const char *path, const char *text);
/* Add -T 127.0.0.1:0 and -S DIR/secret (SECRET) or -S none. */
void	cli_args(struct vnd *v, int with_secret);
/*
 * veneerd with -T 127.0.0.1:0 and -S DIR/secret holding SECRET (or -S
 * none), in front of a new origin (h, priv) returned in *op; started.
 */
struct vnd *cli_start_with(struct origin **op, int with_secret,
	    origin_handler_f *h, void *priv);
/* Connect and authenticate; the session's fd. */
int	cli_login(struct vnd *v);

#endif /* VENEER_TESTS_E2E_CLI_LIB_H */

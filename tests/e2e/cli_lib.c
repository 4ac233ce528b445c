/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cli_lib.c -- an admin CLI client for the end-to-end tests (see
 * cli_lib.h).
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include "common/sha256.h"
#include "lib/harness.h"
#include "e2e/cli_lib.h"

/* The port of the first "CLI addr port" line veneerd printed. */
int
cli_port(struct vnd *v)
{
	char *log, *p;
	int port = 0;

	log = VND_Log(v);
	p = strstr(log, "CLI 127.0.0.1 ");
	ck_assert_msg(p != NULL, "no CLI line in the log:\n%s", log);
	port = atoi(p + 14);
	free(log);
	ck_assert_int_gt(port, 0);
	return (port);
}

int
cli_connect(int port)
{
	struct sockaddr_in sin;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	return (fd);
}

/*
 * Read exactly len bytes within HX_T_SLOW; 0, or -1 on EOF.  Not
 * HX_T_RESP: vcl.load runs the C compiler, which on a loaded 2-core
 * CI machine took more than 5 s.
 */
int
cli_read_n(int fd, char *buf, size_t len)
{
	double deadline = HX_Now() + HX_T_SLOW;
	struct pollfd pfd;
	ssize_t n;

	while (len > 0) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		ck_assert_msg(poll(&pfd, 1, 100) >= 0, "poll: %s",
		    strerror(errno));
		ck_assert_msg(HX_Now() < deadline, "CLI answer timed out");
		if (!(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(fd, buf, len);
		if (n <= 0)
			return (-1);
		buf += n;
		len -= (size_t)n;
	}
	return (0);
}

/* One answer: its status, and its body in *body (caller frees). */
unsigned
cli_answer(int fd, char **body)
{
	char head[14];
	unsigned status;
	size_t len;

	ck_assert_int_eq(cli_read_n(fd, head, 13), 0);
	head[13] = '\0';
	ck_assert_msg(head[3] == ' ' && head[12] == '\n',
	    "bad status line \"%s\"", head);
	status = (unsigned)atoi(head);
	len = (size_t)strtoul(head + 4, NULL, 10);
	*body = malloc(len + 2);
	ck_assert_ptr_nonnull(*body);
	ck_assert_int_eq(cli_read_n(fd, *body, len + 1), 0);
	ck_assert_int_eq((*body)[len], '\n');
	(*body)[len] = '\0';
	return (status);
}

unsigned
cli_ask(int fd, const char *line, char **body)
{
	size_t l = strlen(line);

	ck_assert_int_eq(write(fd, line, l), (ssize_t)l);
	ck_assert_int_eq(write(fd, "\n", 1), 1);
	return (cli_answer(fd, body));
}

/* Ask, expect status, and that the body contains want (if not NULL). */
void
cli_expect(int fd, const char *line, unsigned status, const char *want)
{
	unsigned st;
	char *b;

	st = cli_ask(fd, line, &b);
	ck_assert_msg(st == status, "\"%s\": status %u, want %u; body:\n%s",
	    line, st, status, b);
	if (want != NULL)
		ck_assert_msg(strstr(b, want) != NULL,
		    "\"%s\": no \"%s\" in:\n%s", line, want, b);
	free(b);
}

/* The answer to a challenge with the secret s. */
void
cli_response(const char *challenge, const char *s, char hex[65])
{
	struct sha256_ctx ctx;
	unsigned char d[SHA256_LEN];

	SHA256_Init(&ctx);
	SHA256_Update(&ctx, challenge, 32);
	SHA256_Update(&ctx, "\n", 1);
	SHA256_Update(&ctx, s, strlen(s));
	SHA256_Update(&ctx, challenge, 32);
	SHA256_Update(&ctx, "\n", 1);
	SHA256_Final(&ctx, d);
	SHA256_Hex(d, hex);
}

void
write_text(const char *path, const char *text)
{
	FILE *f;

	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

void
cli_args(struct vnd *v, int with_secret)
{
	char path[512];

	VND_Arg(v, "-T");
	VND_Arg(v, "127.0.0.1:0");
	VND_Arg(v, "-S");
	if (with_secret) {
		(void)snprintf(path, sizeof path, "%s/secret", VND_Dir(v));
		write_text(path, SECRET);
		VND_Arg(v, path);
	} else {
		VND_Arg(v, "none");
	}
}

struct vnd *
cli_start_with(struct origin **op, int with_secret, origin_handler_f *h,
    void *priv)
{
	struct vnd *v;

	*op = ORIGIN_New(h, priv);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(*op));
	cli_args(v, with_secret);
	VND_Start(v);
	return (v);
}

/* Connect and authenticate; the session's fd. */
int
cli_login(struct vnd *v)
{
	char *b, hex[65], line[80];
	int fd;

	fd = cli_connect(cli_port(v));
	ck_assert_uint_eq(cli_answer(fd, &b), 107);
	ck_assert_msg(strlen(b) >= 32, "short challenge \"%s\"", b);
	cli_response(b, SECRET, hex);
	free(b);
	(void)snprintf(line, sizeof line, "auth %s", hex);
	cli_expect(fd, line, 200, "Type 'quit' to close CLI session.");
	return (fd);
}

/* Poll cmd until its answer contains want; fail after HX_T_SLOW. */
void
cli_wait(int fd, const char *cmd, const char *want)
{
	double deadline = HX_Now() + HX_T_SLOW;
	char *b = NULL;

	for (;;) {
		ck_assert_uint_eq(cli_ask(fd, cmd, &b), 200);
		if (strstr(b, want) != NULL)
			break;
		ck_assert_msg(HX_Now() < deadline, "%s: no \"%s\" in:\n%s",
		    cmd, want, b);
		free(b);
		(void)poll(NULL, 0, 20);
	}
	free(b);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cli.c -- CLI framing and argument splitting.  No state, no locks.
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/vas.h"
#include "common/cli.h"
#include "common/tim.h"

static int
cli_write_all(int fd, struct iovec *iov, int niov)
{
	ssize_t n;

	while (niov > 0) {
		n = writev(fd, iov, niov);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (-1);
		while (niov > 0 && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			niov--;
		}
		if (niov > 0) {
			iov->iov_base = (char *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return (0);
}

int
CLI_WriteResult(int fd, unsigned status, const char *body)
{
	char hdr[32];
	struct iovec iov[3];
	size_t len;

	assert(status >= 100 && status <= 999);
	if (body == NULL)
		body = "";
	len = strlen(body);
	assert(len <= 99999999);
	(void)snprintf(hdr, sizeof hdr, "%-3u %-8zu\n", status, len);
	assert(strlen(hdr) == CLI_LINE0_LEN);
	iov[0].iov_base = hdr;
	iov[0].iov_len = CLI_LINE0_LEN;
	iov[1].iov_base = (void *)(uintptr_t)body;
	iov[1].iov_len = len;
	iov[2].iov_base = (void *)(uintptr_t)"\n";
	iov[2].iov_len = 1;
	return (cli_write_all(fd, iov, 3));
}

int
CLI_WriteRequest(int fd, const char *line)
{
	struct iovec iov[2];

	iov[0].iov_base = (void *)(uintptr_t)line;
	iov[0].iov_len = strlen(line);
	iov[1].iov_base = (void *)(uintptr_t)"\n";
	iov[1].iov_len = 1;
	return (cli_write_all(fd, iov, 2));
}

/* Read exactly len bytes before the deadline. */
static int
cli_read_full(int fd, char *buf, size_t len, vtim_mono deadline)
{
	struct pollfd pfd;
	ssize_t n;
	int i;

	while (len > 0) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		i = poll(&pfd, 1, TIM_poll_ms(deadline - TIM_mono()));
		if (i < 0 && errno == EINTR)
			continue;
		if (i <= 0)
			return (-1);
		n = read(fd, buf, len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return (-1);
		buf += n;
		len -= (size_t)n;
	}
	return (0);
}

/*
 * A left-justified number filling the field [b, e): at least one digit,
 * then only spaces.  -1 for anything else (signs, leading blanks, tabs,
 * CR): strtoul() would take those and let a damaged line through.
 */
static long
cli_field(const char *b, const char *e)
{
	long v = 0;

	if (b == e || *b < '0' || *b > '9')
		return (-1);
	for (; b < e && *b >= '0' && *b <= '9'; b++)
		v = v * 10 + (*b - '0');
	for (; b < e; b++)
		if (*b != ' ')
			return (-1);
	return (v);
}

int
CLI_ReadResult(int fd, unsigned *status, char **body, double timeout)
{
	char hdr[CLI_LINE0_LEN + 1], *p;
	long len, st;
	vtim_mono deadline;

	*status = CLIS_COMMS;
	*body = NULL;
	deadline = TIM_mono() + timeout;
	if (cli_read_full(fd, hdr, CLI_LINE0_LEN, deadline))
		return (-1);
	hdr[CLI_LINE0_LEN] = '\0';
	if (hdr[3] != ' ' || hdr[CLI_LINE0_LEN - 1] != '\n')
		return (-1);
	st = cli_field(hdr, hdr + 3);
	if (st < 100 || st > 999)
		return (-1);
	len = cli_field(hdr + 4, hdr + CLI_LINE0_LEN - 1);
	if (len < 0 || len > 64L * 1024 * 1024)
		return (-1);
	p = malloc((size_t)len + 2);
	assert(p != NULL);
	if (cli_read_full(fd, p, (size_t)len + 1, deadline)) {
		free(p);
		return (-1);
	}
	p[len] = '\0';		/* the trailing newline */
	*status = (unsigned)st;
	*body = p;
	return (0);
}

void
CLI_FreeArgs(char **av)
{
	char **p;

	if (av == NULL)
		return;
	for (p = av; *p != NULL; p++)
		free(*p);
	free(av);
}

static int
cli_hex(int c)
{

	if (c >= '0' && c <= '9')
		return (c - '0');
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	return (-1);
}

/* One word starting at *pp; advances *pp.  NULL with *err on error. */
static char *
cli_word(const char **pp, const char **err)
{
	const char *p = *pp;
	char *w, *q;
	int quoted = 0, h1, h2;

	w = malloc(strlen(p) + 1);
	assert(w != NULL);
	q = w;
	if (*p == '"') {
		quoted = 1;
		p++;
	}
	for (;;) {
		if (*p == '\0') {
			if (quoted) {
				*err = "unterminated quoted string";
				free(w);
				return (NULL);
			}
			break;
		}
		if (!quoted && isspace((unsigned char)*p))
			break;
		if (quoted && *p == '"') {
			p++;
			break;
		}
		if (quoted && *p == '\\') {
			p++;
			switch (*p) {
			case 'n': *q++ = '\n'; p++; continue;
			case 'r': *q++ = '\r'; p++; continue;
			case 't': *q++ = '\t'; p++; continue;
			case '"': case '\\': *q++ = *p++; continue;
			case 'x':
				h1 = cli_hex(p[1]);
				h2 = h1 < 0 ? -1 : cli_hex(p[2]);
				if (h2 < 0 || (h1 == 0 && h2 == 0))
					break;
				*q++ = (char)(h1 * 16 + h2);
				p += 3;
				continue;
			default:
				break;
			}
			*err = "invalid backslash escape";
			free(w);
			return (NULL);
		}
		*q++ = *p++;
	}
	*q = '\0';
	*pp = p;
	return (w);
}

char **
CLI_ParseArgs(const char *line, const char **err)
{
	char **av, *w;
	size_t n = 0, cap = 8;

	*err = NULL;
	av = calloc(cap, sizeof *av);
	assert(av != NULL);
	for (;;) {
		while (isspace((unsigned char)*line))
			line++;
		if (*line == '\0')
			break;
		w = cli_word(&line, err);
		if (w == NULL) {
			CLI_FreeArgs(av);
			return (NULL);
		}
		if (n + 2 > cap) {
			cap *= 2;
			av = realloc(av, cap * sizeof *av);
			assert(av != NULL);
		}
		av[n++] = w;
		av[n] = NULL;
	}
	return (av);
}

char *
CLI_QuoteWord(const char *s)
{
	const unsigned char *p;
	char *out, *q;
	int plain = *s != '\0';

	for (p = (const unsigned char *)s; *p != '\0' && plain; p++)
		if (*p <= ' ' || *p == '"' || *p == '\\' || *p >= 0x7f)
			plain = 0;
	if (plain)
		return (strdup(s));
	out = malloc(strlen(s) * 4 + 3);
	if (out == NULL)
		return (NULL);
	q = out;
	*q++ = '"';
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\') {
			*q++ = '\\';
			*q++ = (char)*p;
		} else if (*p == '\n') {
			*q++ = '\\';
			*q++ = 'n';
		} else if (*p == '\t') {
			*q++ = '\\';
			*q++ = 't';
		} else if (*p < ' ' || *p >= 0x7f) {
			(void)snprintf(q, 5, "\\x%02x", *p);
			q += 4;
		} else {
			*q++ = (char)*p;
		}
	}
	*q++ = '"';
	*q = '\0';
	return (out);
}

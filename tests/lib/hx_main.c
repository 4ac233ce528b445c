/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * hx_main.c -- the e2e runner and its small services: the monotonic clock,
 * the run's base temporary directory, the registry of processes to kill
 * when the run ends, /proc readers, the byte pattern of big bodies.
 *
 * HX_Run creates the base directory before forking any test, so every
 * test's files live under it and whatever a failed or killed test leaves
 * behind is removed (and its veneerd logs printed, unless the test showed
 * them) when the suite ends.  The pid
 * registry is a file in the base directory, appended to by tests and
 * read by the runner; a line is "pid starttime" so a recycled pid is
 * never killed.
 */

#include "config.h"

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <netinet/in.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/harness.h"

#define HX_PATTERN_PERIOD	65521U	/* prime: cuts never line up */
#define HX_SKIPPED		"skipped"	/* in hx_base: HX_Skip's notes */
#define HX_EXIT_SKIP		77	/* automake's test driver: SKIP */

static char		*hx_base;	/* const after HX_Run starts */
static unsigned char	hx_pattern[HX_PATTERN_PERIOD];
static pthread_once_t	hx_pattern_once = PTHREAD_ONCE_INIT;

double
HX_Now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);	/* cannot fail */
	return (ts.tv_sec + ts.tv_nsec * 1e-9);
}

void
HX_Log(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof buf, fmt, ap);	/* truncation ok */
	va_end(ap);
	(void)fprintf(stderr, "[e2e %ld] %s\n", (long)getpid(), buf);
}

char *
HX_TempDir(const char *tag)
{
	const char *parent;
	char path[4096];

	parent = hx_base;
	if (parent == NULL)
		parent = getenv("TMPDIR");
	if (parent == NULL || *parent == '\0')
		parent = "/tmp";
	(void)snprintf(path, sizeof path, "%s/%s.XXXXXX", parent, tag);
	if (mkdtemp(path) == NULL)
		ck_abort_msg("mkdtemp(%s): %s", path, strerror(errno));
	return (strdup(path));
}

static int
hx_remove_one(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{

	(void)st;
	(void)flag;
	(void)ftw;
	/* Best effort: a leftover file must not fail the test. */
	(void)remove(path);
	return (0);
}

void
HX_RemoveTree(const char *path)
{

	if (path == NULL)
		return;
	(void)nftw(path, hx_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *
HX_ReadFile(const char *path, size_t *lenp)
{
	char *buf, *nbuf;
	size_t len, size;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return (NULL);
	size = 4096;
	len = 0;
	buf = malloc(size);
	while (buf != NULL) {
		if (size - len < 2) {
			size *= 2;
			nbuf = realloc(buf, size);
			if (nbuf == NULL) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, size - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			buf = NULL;
			break;
		}
		if (n == 0) {
			buf[len] = '\0';
			break;
		}
		len += (size_t)n;
	}
	(void)close(fd);
	if (buf != NULL && lenp != NULL)
		*lenp = len;
	return (buf);
}

unsigned long long
HX_ProcStart(pid_t pid)
{
	char path[64], *buf, *p;
	unsigned long long start;
	int field;

	(void)snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	buf = HX_ReadFile(path, NULL);
	if (buf == NULL)
		return (0);
	/* Field 2 is "(comm)" and may hold blanks: count after the ')'. */
	p = strrchr(buf, ')');
	start = 0;
	for (field = 2; p != NULL && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p != NULL)
		start = strtoull(p + 1, NULL, 10);
	/* A zombie has finished: treat it as gone. */
	p = strrchr(buf, ')');
	if (p != NULL && p[1] == ' ' && p[2] == 'Z')
		start = 0;
	free(buf);
	return (start);
}

long
HX_ProcStatus(pid_t pid, const char *field)
{
	char path[64], *buf, *p;
	size_t flen;
	long v;

	(void)snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
	buf = HX_ReadFile(path, NULL);
	if (buf == NULL)
		return (-1);
	flen = strlen(field);
	v = -1;
	for (p = buf; p != NULL && *p != '\0'; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (strncmp(p, field, flen) == 0 && p[flen] == ':') {
			v = strtol(p + flen + 1, NULL, 10);
			break;
		}
	}
	free(buf);
	return (v);
}

void
HX_RegisterPid(pid_t pid)
{
	char path[4096], line[64];
	unsigned long long start;
	int fd, len;

	if (hx_base == NULL || pid <= 0)
		return;
	start = HX_ProcStart(pid);
	if (start == 0)
		return;
	(void)snprintf(path, sizeof path, "%s/pids", hx_base);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof line, "%ld %llu\n", (long)pid, start);
	/* One short O_APPEND write: lines never interleave. */
	if (write(fd, line, (size_t)len) != len)
		HX_Log("cannot register pid %ld for cleanup", (long)pid);
	(void)close(fd);
}

/* Kill every registered process still running with its start time. */
static void
hx_kill_registered(void)
{
	char path[4096], *buf, *p, *end;
	unsigned long long start;
	long pid;

	(void)snprintf(path, sizeof path, "%s/pids", hx_base);
	buf = HX_ReadFile(path, NULL);
	if (buf == NULL)
		return;
	for (p = buf; *p != '\0'; p = end) {
		pid = strtol(p, &end, 10);
		start = strtoull(end, &end, 10);
		while (*end == '\n')
			end++;
		if (end == p)
			break;
		if (pid > 1 && start != 0 && HX_ProcStart(pid) == start) {
			HX_Log("killing leftover veneerd pid %ld", pid);
			(void)kill((pid_t)pid, SIGKILL);
		}
	}
	free(buf);
}

/* After a failed run: show the end of every log a dead test left. */
static int
hx_show_log(const char *path, const struct stat *st, int flag,
    struct FTW *ftw)
{
	char shown[4096], *buf;
	size_t len;
	const char *p;
	int lines;

	(void)st;
	if (flag != FTW_F || strcmp(path + ftw->base, "veneerd.log") != 0)
		return (0);
	/* Skip the logs the failing test showed itself. */
	(void)snprintf(shown, sizeof shown, "%.*s.shown", ftw->base, path);
	if (access(shown, F_OK) == 0)
		return (0);
	buf = HX_ReadFile(path, &len);
	if (buf == NULL)
		return (0);
	p = buf + len;
	for (lines = 0; p > buf && lines < 41; p--)
		if (p[-1] == '\n')
			lines++;
	(void)fprintf(stderr, "---- last lines of %s ----\n%s\n----\n",
	    path, p);
	free(buf);
	return (0);
}

void
HX_Skip(const char *fmt, ...)
{
	char buf[1024], path[4096];
	va_list ap;
	FILE *fp;

	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof buf, fmt, ap);	/* truncation ok */
	va_end(ap);
	HX_Log("SKIP %s", buf);
	ck_assert_msg(hx_base != NULL, "HX_Skip outside HX_Run");
	/* Tests run forked: the runner learns of the skip from a file. */
	(void)snprintf(path, sizeof path, "%s/%s", hx_base, HX_SKIPPED);
	fp = fopen(path, "a");
	ck_assert_msg(fp != NULL, "%s: %s", path, strerror(errno));
	(void)fprintf(fp, "%s\n", buf);
	ck_assert_int_eq(fclose(fp), 0);
}

/*
 * After the run: print the skipped tests' reasons, and how many (test.sh
 * counts the "Skipped:" line); the count.
 */
static unsigned
hx_skipped(void)
{
	char path[4096], *b, *p;
	unsigned n = 0;

	(void)snprintf(path, sizeof path, "%s/%s", hx_base, HX_SKIPPED);
	b = HX_ReadFile(path, NULL);
	if (b == NULL)
		return (0);
	for (p = b; *p != '\0'; p++)
		if (*p == '\n')
			n++;
	(void)printf("SKIP (precondition not met here):\n%sSkipped: %u\n",
	    b, n);
	(void)fflush(stdout);
	free(b);
	return (n);
}

int
HX_Run(Suite *s)
{
	const char *tmp;
	char path[4096];
	SRunner *sr;
	unsigned skipped;
	int failed;

	/* Writes to closed sockets must fail, not kill the test. */
	(void)signal(SIGPIPE, SIG_IGN);
	tmp = getenv("TMPDIR");
	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	(void)snprintf(path, sizeof path, "%s/veneer-e2e.XXXXXX", tmp);
	if (mkdtemp(path) == NULL) {
		(void)fprintf(stderr, "mkdtemp(%s): %s\n", path,
		    strerror(errno));
		return (99);
	}
	/* Not NULL only in a run nested in a test's child (test_harness). */
	free(hx_base);
	hx_base = strdup(path);

	sr = srunner_create(s);
	/* Timeouts and crash isolation need a process per test. */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);

	hx_kill_registered();
	if (failed != 0)
		(void)nftw(hx_base, hx_show_log, 16, FTW_PHYS);
	skipped = hx_skipped();
	if (getenv("VENEER_E2E_KEEP") != NULL)
		HX_Log("keeping %s (VENEER_E2E_KEEP)", hx_base);
	else
		HX_RemoveTree(hx_base);
	free(hx_base);
	hx_base = NULL;
	if (failed != 0)
		return (1);
	return (skipped > 0 ? HX_EXIT_SKIP : 0);
}

long
HX_RaiseFdLimit(long want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return (-1);
	if (rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur < want) {
		rl.rlim_cur = (rl.rlim_max == RLIM_INFINITY ||
		    (long)rl.rlim_max > want) ? (rlim_t)want : rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
			return (-1);
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		return (want);
	return ((long)rl.rlim_cur);
}

int
HX_ClosedPort(void)
{
	struct sockaddr_in sin;
	socklen_t sl;
	int fd, port;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_msg(fd >= 0, "socket: %s", strerror(errno));
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sl = sizeof sin;
	ck_assert_msg(bind(fd, (struct sockaddr *)&sin, sizeof sin) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sin, &sl) == 0,
	    "bind 127.0.0.1:0: %s", strerror(errno));
	port = ntohs(sin.sin_port);
	/* Bound but never listening: connects are refused. */
	(void)close(fd);
	return (port);
}

int
HX_HaveIPv6(void)
{
	struct sockaddr_in6 sin6;
	int fd, ok;

	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return (0);
	memset(&sin6, 0, sizeof sin6);
	sin6.sin6_family = AF_INET6;
	sin6.sin6_addr = in6addr_loopback;
	ok = bind(fd, (struct sockaddr *)&sin6, sizeof sin6) == 0;
	(void)close(fd);
	return (ok);
}

static void
hx_pattern_init(void)
{
	uint32_t x;
	unsigned i;

	x = 0x9e3779b9;
	for (i = 0; i < HX_PATTERN_PERIOD; i++) {
		/* xorshift32: cheap, and no short cycles in 64k */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		hx_pattern[i] = (unsigned char)(x >> 24);
	}
}

void
HX_Pattern(void *buf, uint64_t offset, size_t len)
{
	unsigned char *p;
	size_t pos, k;

	(void)pthread_once(&hx_pattern_once, hx_pattern_init);
	p = buf;
	pos = offset % HX_PATTERN_PERIOD;
	while (len > 0) {
		k = HX_PATTERN_PERIOD - pos;
		if (k > len)
			k = len;
		memcpy(p, hx_pattern + pos, k);
		p += k;
		len -= k;
		pos = 0;
	}
}

int
HX_PatternCheck(const void *buf, uint64_t offset, size_t len)
{
	const unsigned char *p;
	size_t pos, k;

	(void)pthread_once(&hx_pattern_once, hx_pattern_init);
	p = buf;
	pos = offset % HX_PATTERN_PERIOD;
	while (len > 0) {
		k = HX_PATTERN_PERIOD - pos;
		if (k > len)
			k = len;
		if (memcmp(p, hx_pattern + pos, k) != 0)
			return (-1);
		p += k;
		len -= k;
		pos = 0;
	}
	return (0);
}

void
HX_WaitGone(pid_t pid, double timeout)
{
	double deadline = HX_Now() + timeout;

	while (HX_ProcStart(pid) != 0) {
		ck_assert_msg(HX_Now() < deadline, "process %ld still there "
		    "after %.1f s", (long)pid, timeout);
		(void)poll(NULL, 0, 10);
	}
}

pid_t
HX_WaitPidfile(const char *path, double timeout)
{
	double deadline;
	char *s;
	long pid;

	deadline = HX_Now() + timeout;
	for (;;) {
		s = HX_ReadFile(path, NULL);
		pid = s != NULL ? strtol(s, NULL, 10) : 0;
		free(s);
		if (pid > 1)
			return ((pid_t)pid);
		ck_assert_msg(HX_Now() < deadline, "no pid in %s after %.1f s",
		    path, timeout);
		(void)poll(NULL, 0, 10);
	}
}

char *
HX_CostlyAlternation(unsigned n)
{
	char *alts, *p;
	unsigned u;

	alts = calloc(n, 16);
	ck_assert_ptr_nonnull(alts);
	for (p = alts, u = 0; u < n; u++)
		p += snprintf(p, 16, "%s%c[0-9]%u", u ? "|" : "",
		    'a' + u % 26, u);
	return (alts);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vnd.c -- veneerd processes under test: build the command line, start
 * (or run once), find the listen ports, signal, wait, read counters and
 * /proc, and tear down: the teardown fails the test if the log shows a
 * panic, a failed assert, a sanitizer report or an unexpected child death.
 *
 * Each vnd has its own temp dir: TMP/work is the -n workdir and
 * TMP/veneerd.log gets the daemon's stdout and stderr.  A failed check
 * assertion _exit()s the test process, and a timeout kills it: check then
 * kills the test's process group (our veneerds with it), and HX_Run
 * removes the dirs and kills the registered pids that left the group (a
 * daemonized veneerd).  A test that returns without VND_Free is cleaned
 * up by an atexit handler.  The test process is a child subreaper, so a
 * daemonized veneerd is still ours to wait for.  Signals go only to pids
 * we started or read from our own veneerd's files, checked against their
 * start time.
 */

#include "config.h"

#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"

#define VND_MAX_LISTEN		8
#define VND_MAX_CHILDREN	32
#define VND_POLL_MS		10
#define VND_T_STOP		15.0
#define VND_T_COUNTERS		10.0

struct vnd_listen {
	char			name[16];
	char			addr[128];	/* or a Unix socket's path */
	int			port;		/* 0 for a Unix socket */
};

struct vnd {
	unsigned		magic;
#define VND_MAGIC		0xa966134d
	char			*dir;
	char			*workdir;
	char			*logpath;
	char			**args;		/* added by VND_Arg */
	unsigned		nargs;
	unsigned		nlisten_args;
	int			backend_port;	/* 0: none given */
	double			start_timeout;
	pid_t			pid;		/* the manager */
	unsigned long long	pid_start;
	int			reaped;
	int			status;
	int			expect_child_death;
	unsigned		nlisten;
	struct vnd_listen	listen[VND_MAX_LISTEN];
	struct vnd_counters	*vc;
	unsigned		nchildren;
	pid_t			children[VND_MAX_CHILDREN];
	unsigned long long	child_start[VND_MAX_CHILDREN];
	char			logline[256];
	struct vnd		*next;
};

static void vnd_note_quiet(struct vnd *);

static struct vnd	*vnd_list;		/* this test's vnds */
static pid_t		vnd_atexit_pid;		/* process that set it */

static const char * const vnd_alarms[] = {
	"Panic", "Assert error", "AddressSanitizer", "LeakSanitizer",
	"runtime error:", NULL
};

/*--------------------------------------------------------------------
 * Small helpers.
 */

static void
vnd_nap(void)
{

	/* The poll interval of every condition wait here. */
	(void)poll(NULL, 0, VND_POLL_MS);
}

static void
vnd_show_log(const struct vnd *v, int maxlines)
{
	char path[4096], *buf;
	const char *p;
	size_t len;
	int lines, fd;

	buf = HX_ReadFile(v->logpath, &len);
	if (buf == NULL) {
		HX_Log("no veneerd log at %s", v->logpath);
		return;
	}
	p = buf + len;
	for (lines = 0; p > buf && lines <= maxlines; p--)
		if (p[-1] == '\n')
			lines++;
	(void)fprintf(stderr, "---- %s (last %d lines) ----\n%s\n----\n",
	    v->logpath, maxlines, p);
	free(buf);
	/* Tell HX_Run this log was shown already. */
	(void)snprintf(path, sizeof path, "%s/.shown", v->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		(void)close(fd);
}

static void
vnd_fail(const struct vnd *v, const char *fmt, ...) HX_PRINTFLIKE(2, 3);

/* Show the log, then fail the test (check and HX_Run clean up). */
static void
vnd_fail(const struct vnd *v, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	vnd_show_log(v, 40);
	ck_abort_msg("%s", buf);
}

/* Kill pid if it is still the process that started at start. */
static void
vnd_kill_if_same(pid_t pid, unsigned long long start)
{

	if (pid > 1 && start != 0 && HX_ProcStart(pid) == start)
		(void)kill(pid, SIGKILL);
}

static void
vnd_kill_all(struct vnd *v)
{
	unsigned u;

	if (v->pid > 0 && !v->reaped) {
		vnd_kill_if_same(v->pid, v->pid_start);
		(void)waitpid(v->pid, NULL, 0);
		v->reaped = 1;
		v->status = 128 + SIGKILL;
	}
	for (u = 0; u < v->nchildren; u++)
		vnd_kill_if_same(v->children[u], v->child_start[u]);
}

static void
vnd_atexit(void)
{
	struct vnd *v;

	if (vnd_atexit_pid != getpid())
		return;
	while ((v = vnd_list) != NULL) {
		vnd_list = v->next;
		HX_Log("test ended with veneerd (pid %ld) not freed: killing "
		    "it; its log:", (long)v->pid);
		vnd_show_log(v, 40);
		vnd_kill_all(v);
		if (getenv("VENEER_E2E_KEEP") == NULL)
			HX_RemoveTree(v->dir);
	}
}

static const char *
vnd_path(void)
{
	const char *path;

	path = getenv("VENEERD");
	if (path == NULL || *path == '\0')
		ck_abort_msg("VENEERD is not set: run the e2e tests through "
		    "\"make check\", or export VENEERD=/path/to/veneerd");
	if (access(path, X_OK) != 0)
		ck_abort_msg("VENEERD=%s: %s; build veneerd first", path,
		    strerror(errno));
	return (path);
}

/*
 * Fork and exec argv with stdout and stderr to the given files (append),
 * in directory cwd (NULL: the test's).  In the child only
 * async-signal-safe calls: the test has threads.
 */
static pid_t
vnd_spawn(char * const *argv, const char *out, const char *err,
    const char *cwd)
{
	sigset_t none;
	pid_t pid, parent;
	int fd;

	parent = getpid();
	pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid > 0)
		return (pid);
	/* If the test dies, so does the daemon it started. */
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	(void)sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	(void)signal(SIGPIPE, SIG_DFL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0) {
		(void)dup2(fd, 0);
		(void)close(fd);
	}
	fd = open(out, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd >= 0 && fd != 1) {
		(void)dup2(fd, 1);
		(void)close(fd);
	}
	fd = open(err, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (fd >= 0 && fd != 2) {
		(void)dup2(fd, 2);
		(void)close(fd);
	}
	/* No test socket may live on in veneerd. */
	(void)close_range(3, ~0U, 0);
	if (cwd != NULL && chdir(cwd) != 0) {
		(void)write(2, "chdir before exec of VENEERD failed\n", 36);
		_exit(127);
	}
	(void)execv(argv[0], argv);
	(void)write(2, "exec of VENEERD failed\n", 23);
	_exit(127);
}

static int
vnd_decode_status(int st)
{

	if (WIFEXITED(st))
		return (WEXITSTATUS(st));
	if (WIFSIGNALED(st))
		return (128 + WTERMSIG(st));
	return (-1);
}

/* Reap pid if it ended: 1 with *status, 0 if it runs. */
static int
vnd_reap(pid_t pid, int *status)
{
	pid_t r;
	int st;

	r = waitpid(pid, &st, WNOHANG);
	if (r == pid) {
		*status = vnd_decode_status(st);
		return (1);
	}
	if (r < 0 && errno == ECHILD && HX_ProcStart(pid) == 0) {
		/* Not our child (adopted, not reparented): gone. */
		*status = -1;
		return (1);
	}
	return (0);
}

/* Wait for the manager to end: its status, or -2 on timeout. */
static int
vnd_wait_quiet(struct vnd *v, double timeout)
{
	double deadline;

	if (v->reaped)
		return (v->status);
	deadline = HX_Now() + timeout;
	for (;;) {
		if (vnd_reap(v->pid, &v->status)) {
			v->reaped = 1;
			return (v->status);
		}
		if (HX_Now() >= deadline)
			return (-2);
		vnd_nap();
	}
}

/*--------------------------------------------------------------------
 * Building and starting.
 */

/*
 * 6 s for _.listen (a start takes 0.1 s here), scaled like check's own
 * timeouts by CK_TIMEOUT_MULTIPLIER: it must expire, with a message,
 * before a test's 10 s check timeout kills the test silently.
 */
static double
vnd_start_timeout(void)
{
	const char *m;
	double mult;

	m = getenv("CK_TIMEOUT_MULTIPLIER");
	mult = m != NULL ? strtod(m, NULL) : 1.0;
	return (6.0 * (mult > 0 ? mult : 1.0));
}

struct vnd *
VND_New(void)
{
	struct vnd *v;
	char path[4096];

	if (vnd_atexit_pid != getpid()) {
		vnd_atexit_pid = getpid();
		ck_assert_msg(atexit(vnd_atexit) == 0, "atexit failed");
		/* A daemonized veneerd stays ours to wait for. */
		(void)prctl(PR_SET_CHILD_SUBREAPER, 1);
	}
	v = calloc(1, sizeof *v);
	ck_assert_msg(v != NULL, "out of memory");
	v->magic = VND_MAGIC;
	v->dir = HX_TempDir("vnd");
	(void)snprintf(path, sizeof path, "%s/work", v->dir);
	v->workdir = strdup(path);
	(void)snprintf(path, sizeof path, "%s/veneerd.log", v->dir);
	v->logpath = strdup(path);
	v->start_timeout = vnd_start_timeout();
	v->next = vnd_list;
	vnd_list = v;
	return (v);
}

void
VND_Arg(struct vnd *v, const char *arg)
{
	char **na;

	assert(v != NULL && v->magic == VND_MAGIC);
	na = realloc(v->args, (v->nargs + 1) * sizeof *na);
	ck_assert_msg(na != NULL, "out of memory");
	v->args = na;
	v->args[v->nargs] = strdup(arg);
	ck_assert_msg(v->args[v->nargs] != NULL, "out of memory");
	v->nargs++;
}

void
VND_Param(struct vnd *v, const char *name, const char *value)
{
	char buf[512];

	(void)snprintf(buf, sizeof buf, "%s=%s", name, value);
	VND_Arg(v, "-p");
	VND_Arg(v, buf);
}

void
VND_Backend(struct vnd *v, int port)
{
	char buf[64];

	assert(v != NULL && v->magic == VND_MAGIC);
	(void)snprintf(buf, sizeof buf, "127.0.0.1:%d", port);
	VND_Arg(v, "-b");
	VND_Arg(v, buf);
	v->backend_port = port;
}

void
VND_Listen(struct vnd *v, const char *addr)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	VND_Arg(v, "-a");
	VND_Arg(v, addr);
	v->nlisten_args++;
}

void
VND_SetStartTimeout(struct vnd *v, double timeout)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	v->start_timeout = timeout;
}

/* argv: VENEERD, pre (NULL-terminated, may be NULL), v->args if own. */
static char **
vnd_argv(const struct vnd *v, const char * const *pre, int own,
    va_list *more)
{
	const char *s;
	unsigned n, u;
	char **argv;
	va_list ap;

	n = 2 + (own ? v->nargs : 0);
	for (u = 0; pre != NULL && pre[u] != NULL; u++)
		n++;
	if (more != NULL) {
		va_copy(ap, *more);
		while (va_arg(ap, const char *) != NULL)
			n++;
		va_end(ap);
	}
	argv = calloc(n, sizeof *argv);
	ck_assert_msg(argv != NULL, "out of memory");
	n = 0;
	argv[n++] = strdup(vnd_path());
	for (u = 0; pre != NULL && pre[u] != NULL; u++)
		argv[n++] = strdup(pre[u]);
	for (u = 0; own && u < v->nargs; u++)
		argv[n++] = strdup(v->args[u]);
	if (more != NULL)
		while ((s = va_arg(*more, const char *)) != NULL)
			argv[n++] = strdup(s);
	argv[n] = NULL;
	return (argv);
}

static void
vnd_free_argv(char **argv)
{
	unsigned u;

	for (u = 0; argv[u] != NULL; u++)
		free(argv[u]);
	free(argv);
}

static int
vnd_parse_listen(struct vnd *v, char *buf)
{
	char *line, *next;
	struct vnd_listen *l;

	v->nlisten = 0;
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if (*line == '\0')
			continue;
		if (v->nlisten == VND_MAX_LISTEN)
			return (-1);
		l = &v->listen[v->nlisten];
		l->port = 0;
		/* "a0 /path -" for a Unix socket. */
		if (sscanf(line, "%15s %127s %d", l->name, l->addr,
		    &l->port) != 3 && !(l->addr[0] == '/' &&
		    strstr(line, " -") != NULL))
			return (-1);
		if (l->addr[0] != '/' && (l->port <= 0 || l->port > 65535))
			return (-1);
		v->nlisten++;
	}
	return (v->nlisten > 0 ? 0 : -1);
}

void
VND_WaitListen(struct vnd *v)
{
	char path[4096], *buf;
	double deadline;
	unsigned want;

	assert(v != NULL && v->magic == VND_MAGIC);
	(void)snprintf(path, sizeof path, "%s/_.listen", v->workdir);
	want = v->nlisten_args == 0 ? 1 : v->nlisten_args;
	deadline = HX_Now() + v->start_timeout;
	for (;;) {
		buf = HX_ReadFile(path, NULL);
		if (buf != NULL && vnd_parse_listen(v, buf) == 0) {
			free(buf);
			break;
		}
		free(buf);
		if (!v->reaped && vnd_reap(v->pid, &v->status))
			v->reaped = 1;
		if (v->reaped)
			vnd_fail(v, "veneerd exited with status %d before "
			    "writing %s", v->status, path);
		if (HX_Now() >= deadline)
			vnd_fail(v, "veneerd (pid %ld) wrote no valid %s "
			    "within %.1f s", (long)v->pid, path,
			    v->start_timeout);
		vnd_nap();
	}
	if (v->nlisten != want)
		vnd_fail(v, "%s has %u sockets, %u -a given", path, v->nlisten,
		    want);
}

void
VND_Start(struct vnd *v)
{
	/*
	 * A 4M log instead of 80M: many instances run at once and each
	 * reserves its log on disk.  A test's own -p vsl_space wins.
	 */
	const char *pre[] = { "-F", "-n", NULL, "-j", "none", "-p",
	    "vsl_space=4M", "-a", "127.0.0.1:0", NULL };
	char **argv;

	assert(v != NULL && v->magic == VND_MAGIC);
	ck_assert_msg(v->pid == 0, "VND_Start: already started");
	pre[2] = v->workdir;
	if (v->nlisten_args > 0)
		pre[7] = NULL;		/* the test's -a replace ours */
	argv = vnd_argv(v, pre, 1, NULL);
	v->pid = vnd_spawn(argv, v->logpath, v->logpath, NULL);
	vnd_free_argv(argv);
	v->pid_start = HX_ProcStart(v->pid);
	HX_RegisterPid(v->pid);
	VND_WaitListen(v);
	/* Every child seen is remembered: a second one is a restart. */
	vnd_note_quiet(v);
}

struct vnd *
VND_Launch(int backend_port, ...)
{
	const char *p;
	struct vnd *v;
	va_list ap;

	v = VND_New();
	VND_Backend(v, backend_port);
	va_start(ap, backend_port);
	while ((p = va_arg(ap, const char *)) != NULL) {
		VND_Arg(v, "-p");
		VND_Arg(v, p);
	}
	va_end(ap);
	VND_Start(v);
	return (v);
}

/*--------------------------------------------------------------------
 * Signals, waiting, teardown.
 */

void
VND_Kill(struct vnd *v, int sig)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	ck_assert_msg(v->pid > 0 && !v->reaped,
	    "VND_Kill: veneerd is not running");
	ck_assert_msg(kill(v->pid, sig) == 0, "kill(%ld, %d): %s",
	    (long)v->pid, sig, strerror(errno));
}

int
VND_Wait(struct vnd *v, double timeout)
{
	int st;

	assert(v != NULL && v->magic == VND_MAGIC);
	ck_assert_msg(v->pid > 0, "VND_Wait: veneerd was never started");
	st = vnd_wait_quiet(v, timeout);
	if (st == -2)
		vnd_fail(v, "veneerd (pid %ld) still runs after %.1f s",
		    (long)v->pid, timeout);
	return (st);
}

void
VND_Stop(struct vnd *v)
{
	int st;

	VND_Kill(v, SIGTERM);
	st = VND_Wait(v, VND_T_STOP);
	if (st != 0)
		vnd_fail(v, "veneerd exited with status %d after SIGTERM, "
		    "want 0", st);
}

void
VND_Adopt(struct vnd *v, pid_t pid)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	ck_assert_msg(v->pid == 0, "VND_Adopt: a manager is already known");
	ck_assert_msg(pid > 1, "VND_Adopt: bad pid %ld", (long)pid);
	v->pid = pid;
	v->pid_start = HX_ProcStart(pid);
	HX_RegisterPid(pid);
}

void
VND_ExpectChildDeath(struct vnd *v)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	v->expect_child_death = 1;
}

char *
VND_Log(const struct vnd *v)
{
	char *buf;

	assert(v != NULL && v->magic == VND_MAGIC);
	buf = HX_ReadFile(v->logpath, NULL);
	return (buf != NULL ? buf : strdup(""));
}

const char *
VND_LogProblem(struct vnd *v)
{
	char *buf, *line, *next;
	const char *died;
	unsigned u;

	buf = VND_Log(v);
	v->logline[0] = '\0';
	for (line = buf; *line != '\0' && v->logline[0] == '\0';
	    line = next) {
		next = line + strcspn(line, "\n");
		if (*next == '\n')
			*next++ = '\0';
		for (u = 0; vnd_alarms[u] != NULL; u++)
			if (strstr(line, vnd_alarms[u]) != NULL)
				break;
		/* "Child died", or veneerd's "Child (1234) died ..." */
		died = strstr(line, "Child");
		if (died != NULL)
			died = strstr(died, " died");
		if (vnd_alarms[u] != NULL || (!v->expect_child_death &&
		    died != NULL))
			(void)snprintf(v->logline, sizeof v->logline,
			    "%.200s", line);
	}
	free(buf);
	return (v->logline[0] != '\0' ? v->logline : NULL);
}

void
VND_Free(struct vnd **vp)
{
	char problem[1024];
	const char *lp;
	struct vnd **pp, *v;
	unsigned u;
	int st;

	v = *vp;
	*vp = NULL;
	if (v == NULL)
		return;
	assert(v->magic == VND_MAGIC);
	problem[0] = '\0';
	if (v->pid > 0 && !v->reaped) {
		vnd_note_quiet(v);
		(void)kill(v->pid, SIGTERM);
		st = vnd_wait_quiet(v, VND_T_STOP);
		if (st == -2)
			(void)snprintf(problem, sizeof problem, "veneerd did "
			    "not exit within %.0f s of SIGTERM", VND_T_STOP);
		else if (v->expect_child_death ? (st & ~0xe0) != 0 :
		    st != 0)
			/*
			 * A child that died shows in the manager's status,
			 * as varnishd's: 0x20 exit status, 0x40 signal,
			 * 0x80 core.
			 */
			(void)snprintf(problem, sizeof problem, "veneerd "
			    "exited with status %d on SIGTERM, want %s", st,
			    v->expect_child_death ? "0 or bits 0x20, 0x40, "
			    "0x80" : "0");
	}
	vnd_kill_all(v);
	lp = VND_LogProblem(v);
	if (problem[0] == '\0' && lp != NULL)
		(void)snprintf(problem, sizeof problem, "veneerd log: %s", lp);
	if (problem[0] == '\0' && !v->expect_child_death && v->nchildren > 1)
		(void)snprintf(problem, sizeof problem, "the veneerd child "
		    "was restarted (pid %ld, then %ld)", (long)v->children[0],
		    (long)v->children[v->nchildren - 1]);
	if (problem[0] != '\0')
		vnd_show_log(v, 40);
	for (pp = &vnd_list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == v) {
			*pp = v->next;
			break;
		}
	VNDC_Fini(&v->vc);
	if (getenv("VENEER_E2E_KEEP") == NULL)
		HX_RemoveTree(v->dir);
	for (u = 0; u < v->nargs; u++)
		free(v->args[u]);
	free(v->args);
	free(v->dir);
	free(v->workdir);
	free(v->logpath);
	v->magic = 0;
	free(v);
	if (problem[0] != '\0')
		ck_abort_msg("%s", problem);
}

/*--------------------------------------------------------------------
 * Running veneerd once.
 */

static int
vnd_exec(struct vnd *v, const char *cwd, int std, double timeout,
    va_list *args)
{
	const char *pre[] = { "-F", "-n", NULL, "-a", "127.0.0.1:0", "-b",
	    NULL, "-j", "none", NULL };
	char out[4096], err[4096], backend[64], cmd[512];
	double deadline;
	char **argv;
	unsigned u;
	pid_t pid;
	int st;

	assert(v != NULL && v->magic == VND_MAGIC);
	pre[2] = v->workdir;
	(void)snprintf(backend, sizeof backend, "127.0.0.1:%d",
	    v->backend_port > 0 ? v->backend_port : HX_ClosedPort());
	pre[6] = backend;
	argv = vnd_argv(v, std ? pre : NULL, 0, args);
	cmd[0] = '\0';
	for (u = 1; argv[u] != NULL; u++)
		(void)snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd),
		    " %s", argv[u]);
	(void)snprintf(out, sizeof out, "%s/exec.out", v->dir);
	(void)snprintf(err, sizeof err, "%s/exec.err", v->dir);
	(void)unlink(out);
	(void)unlink(err);
	pid = vnd_spawn(argv, out, err, cwd);
	vnd_free_argv(argv);
	HX_RegisterPid(pid);
	deadline = HX_Now() + timeout;
	while (!vnd_reap(pid, &st)) {
		if (HX_Now() >= deadline) {
			(void)kill(pid, SIGKILL);
			(void)waitpid(pid, NULL, 0);
			ck_abort_msg("\"veneerd%s\" did not exit within %.1f s",
			    cmd, timeout);
		}
		vnd_nap();
	}
	return (st);
}

int
VND_Exec(struct vnd *v, int std, double timeout, ...)
{
	va_list ap;
	int st;

	va_start(ap, timeout);
	st = vnd_exec(v, NULL, std, timeout, &ap);
	va_end(ap);
	return (st);
}

int
VND_ExecIn(struct vnd *v, const char *cwd, int std, double timeout, ...)
{
	va_list ap;
	int st;

	va_start(ap, timeout);
	st = vnd_exec(v, cwd, std, timeout, &ap);
	va_end(ap);
	return (st);
}

static char *
vnd_exec_file(const struct vnd *v, const char *name)
{
	char path[4096], *buf;

	assert(v != NULL && v->magic == VND_MAGIC);
	(void)snprintf(path, sizeof path, "%s/%s", v->dir, name);
	buf = HX_ReadFile(path, NULL);
	return (buf != NULL ? buf : strdup(""));
}

char *
VND_ExecOut(const struct vnd *v)
{

	return (vnd_exec_file(v, "exec.out"));
}

char *
VND_ExecErr(const struct vnd *v)
{

	return (vnd_exec_file(v, "exec.err"));
}

/*--------------------------------------------------------------------
 * Accessors and connections.
 */

pid_t
VND_Pid(const struct vnd *v)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	return (v->pid);
}

const char *
VND_Dir(const struct vnd *v)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	return (v->dir);
}

const char *
VND_Workdir(const struct vnd *v)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	return (v->workdir);
}

unsigned
VND_NListen(const struct vnd *v)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	return (v->nlisten);
}

const char *
VND_Addr(const struct vnd *v, unsigned i)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	ck_assert_msg(i < v->nlisten, "no listen socket a%u", i);
	return (v->listen[i].addr);
}

int
VND_Port(const struct vnd *v, unsigned i)
{

	assert(v != NULL && v->magic == VND_MAGIC);
	ck_assert_msg(i < v->nlisten, "no listen socket a%u", i);
	return (v->listen[i].port);
}

struct client *
VND_ConnectTo(struct vnd *v, unsigned i)
{

	vnd_note_quiet(v);
	return (CLIENT_New(VND_Addr(v, i), VND_Port(v, i), HX_T_RESP));
}

struct client *
VND_Connect(struct vnd *v)
{

	return (VND_ConnectTo(v, 0));
}

/*--------------------------------------------------------------------
 * Counters and the child.
 */

void
VND_NoteChild(struct vnd *v, pid_t pid)
{
	unsigned u;

	assert(v != NULL && v->magic == VND_MAGIC);
	if (pid <= 0)
		return;
	for (u = 0; u < v->nchildren; u++)
		if (v->children[u] == pid)
			return;
	if (v->nchildren == VND_MAX_CHILDREN)
		return;
	v->children[v->nchildren] = pid;
	v->child_start[v->nchildren] = HX_ProcStart(pid);
	v->nchildren++;
	/* Killed at the end of the run if a failed test leaves it. */
	HX_RegisterPid(pid);
}

/* Read a counter (or just the child pid, name NULL) within timeout. */
static int
vnd_read(struct vnd *v, const char *name, uint64_t *val, pid_t *child,
    double timeout, int must)
{
	char why[512];
	double deadline;
	pid_t cpid;
	int r;

	assert(v != NULL && v->magic == VND_MAGIC);
	deadline = HX_Now() + timeout;
	for (;;) {
		r = VNDC_Read(&v->vc, v->workdir, name, val, &cpid, why,
		    sizeof why);
		if (r == 0) {
			VND_NoteChild(v, cpid);
			if (child != NULL)
				*child = cpid;
			return (0);
		}
		if (r == -2 && must)
			vnd_fail(v, "%s", why);
		if (r == -2 || HX_Now() >= deadline)
			break;
		vnd_nap();
	}
	if (must)
		vnd_fail(v, "no valid counters file after %.1f s: %s", timeout,
		    why);
	return (-1);
}

/* Note the current child if the counters file names one already. */
static void
vnd_note_quiet(struct vnd *v)
{

	(void)vnd_read(v, NULL, NULL, NULL, 0, 0);
}

int
VND_TryCounter(struct vnd *v, const char *name, uint64_t *val)
{

	return (vnd_read(v, name, val, NULL, 0, 0));
}

uint64_t
VND_Counter(struct vnd *v, const char *name)
{
	uint64_t val;

	(void)vnd_read(v, name, &val, NULL, VND_T_COUNTERS, 1);
	return (val);
}

static int
vnd_compare(uint64_t have, const char *op, uint64_t want)
{

	if (strcmp(op, "==") == 0)
		return (have == want);
	if (strcmp(op, ">=") == 0)
		return (have >= want);
	if (strcmp(op, ">") == 0)
		return (have > want);
	if (strcmp(op, "<=") == 0)
		return (have <= want);
	ck_abort_msg("VND_WaitCounter: unknown operator \"%s\"", op);
	return (0);
}

uint64_t
VND_WaitCounter(struct vnd *v, const char *name, const char *op,
    uint64_t value, double timeout)
{
	double deadline;
	uint64_t val;
	int have;

	deadline = HX_Now() + timeout;
	have = 0;
	val = 0;
	for (;;) {
		/* The first read may wait for the file; later ones not. */
		if (vnd_read(v, name, &val, NULL, have ? 0 : timeout,
		    !have) == 0)
			have = 1;
		if (have && vnd_compare(val, op, value))
			return (val);
		if (HX_Now() >= deadline)
			break;
		vnd_nap();
	}
	vnd_fail(v, "counter %s is %ju after %.1f s, want %s %ju", name,
	    (uintmax_t)val, timeout, op, (uintmax_t)value);
	return (val);
}

pid_t
VND_ChildPid(struct vnd *v)
{
	pid_t child;

	child = 0;
	(void)vnd_read(v, NULL, NULL, &child, VND_T_COUNTERS, 1);
	if (child <= 0)
		vnd_fail(v, "the counters file names no child pid");
	return (child);
}

pid_t
VND_WaitChildPidChange(struct vnd *v, pid_t old, double timeout)
{
	double deadline;
	pid_t child;

	deadline = HX_Now() + timeout;
	for (;;) {
		child = 0;
		if (vnd_read(v, NULL, NULL, &child, 0, 0) == 0 &&
		    child > 0 && child != old && HX_ProcStart(child) != 0)
			return (child);
		if (HX_Now() >= deadline)
			break;
		vnd_nap();
	}
	vnd_fail(v, "the child is still pid %ld (counters file) after %.1f "
	    "s", (long)old, timeout);
	return (0);
}

long
VND_ChildThreads(struct vnd *v)
{
	pid_t child;
	long n;

	child = VND_ChildPid(v);
	n = HX_ProcStatus(child, "Threads");
	ck_assert_msg(n > 0, "no Threads in /proc/%ld/status", (long)child);
	return (n);
}

long
VND_ChildRssKB(struct vnd *v)
{
	pid_t child;
	long n;

	child = VND_ChildPid(v);
	n = HX_ProcStatus(child, "VmRSS");
	ck_assert_msg(n > 0, "no VmRSS in /proc/%ld/status", (long)child);
	return (n);
}

void
VND_Finish(struct vnd **vp, struct origin **op)
{

	VND_Free(vp);
	ck_assert_msg(ORIGIN_NErr(*op) == 0, "the origin saw bad requests "
	    "(see the log)");
	ORIGIN_Free(op);
}

/*--------------------------------------------------------------------
 * A VCL in front of a scripted origin.
 */

void
VND_VclFile(struct vnd *v, const char *name, const char *text)
{
	char *path;
	FILE *f;

	assert(v != NULL && v->magic == VND_MAGIC);
	ck_assert_int_gt(asprintf(&path, "%s/%s", VND_Dir(v), name), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	VND_Arg(v, "-f");
	VND_Arg(v, path);
	free(path);
}

void
HXV_Start(struct hx_vcl *t, origin_handler_f *handler, const char *vcl)
{
	char *text;

	t->o = ORIGIN_New(handler, NULL);
	t->v = VND_New();
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nimport std;\n"
	    "backend default { .host = \"127.0.0.1\"; .port = \"%d\"; }\n%s",
	    ORIGIN_Port(t->o), vcl), 0);
	VND_VclFile(t->v, "t.vcl", text);
	free(text);
	VND_Param(t->v, "vcc_err_unref", "off");
	VND_Start(t->v);
	t->cl = VND_Connect(t->v);
}

void
HXV_Finish(struct hx_vcl *t)
{

	CLIENT_Free(&t->cl);
	VND_Stop(t->v);
	VND_Free(&t->v);
	ORIGIN_Free(&t->o);
}

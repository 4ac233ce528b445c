/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_child.c -- starting, watching and stopping the child.  The child is
 * forked (not exec'ed) with the listen sockets and two CLI pipes; its
 * stdout and stderr come back through a third pipe and are logged.  The
 * manager pings it every ping_interval and kills it if it does not answer
 * within cli_timeout; a child that dies is started again (auto_restart),
 * quickly the first time, then backing off if it keeps dying young.
 * Owns the child's pid, pipes and watchers (manager thread only).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ev.h>

#include "common/cli.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "mgt/mgt.h"
#include "vsm/vsmw.h"

#define MGT_PANIC_LEN		(64 * 1024)

static struct child_args *mgt_ca;
static pid_t child_pid = -1;
static int child_cli_out = -1;		/* commands to the child */
static int child_cli_in = -1;		/* answers from the child */
static int child_log_fd = -1;		/* child's stdout and stderr */
static ev_io child_log_w;
static ev_child child_exit_w;
static ev_timer child_ping_w;
static ev_timer child_restart_w;
static vtim_mono child_t_start;
static unsigned child_quick_deaths;
static unsigned mgt_stopping;
static char *child_last_panic;		/* for panic.show */
static vtim_real child_t_panic;
static char child_log_buf[8192];
static size_t child_log_len;

void
MGT_ChildInit(struct child_args *ca)
{
	char dir[1024];
	void *p;

	mgt_ca = ca;
	/* The child's shared memory: the child's own, after it drops root. */
	(void)snprintf(dir, sizeof dir, "%s/_.vsm_child", ca->workdir);
	if (mkdir(dir, 0750) != 0 && errno != EEXIST)
		MGT_Fatal("cannot create %s: %s", dir, strerror(errno));
	if (ca->drop_privs && chown(dir, ca->uid, getgid()) != 0)
		MGT_Fatal("cannot give %s to the child's user: %s", dir,
		    strerror(errno));
	p = mmap(NULL, MGT_PANIC_LEN, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert(p != MAP_FAILED);
	ca->panic_buf = p;
	ca->panic_len = MGT_PANIC_LEN;
}

static void
mgt_close_fd(int *fd)
{

	if (*fd >= 0)
		(void)close(*fd);
	*fd = -1;
}

/* Log what the child printed, a line at a time. */
static void
mgt_child_log_flush(int all)
{
	char *nl, *b = child_log_buf;
	size_t l;

	while ((nl = memchr(b, '\n', child_log_len - (size_t)(b -
	    child_log_buf))) != NULL) {
		*nl = '\0';
		MGT_Log(LOG_NOTICE, "Child (%ld) said %s", (long)child_pid, b);
		b = nl + 1;
	}
	l = child_log_len - (size_t)(b - child_log_buf);
	if (all && l > 0) {
		MGT_Log(LOG_NOTICE, "Child (%ld) said %.*s", (long)child_pid,
		    (int)l, b);
		l = 0;
		b = child_log_buf + child_log_len;
	}
	memmove(child_log_buf, b, l);
	child_log_len = l;
}

static void
mgt_child_log_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	ssize_t n;

	(void)loop;
	(void)revents;
	n = read(w->fd, child_log_buf + child_log_len,
	    sizeof child_log_buf - 1 - child_log_len);
	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		mgt_child_log_flush(1);
		ev_io_stop(EV_DEFAULT_UC, w);
		return;
	}
	child_log_len += (size_t)n;
	mgt_child_log_flush(child_log_len == sizeof child_log_buf - 1);
}

/*
 * Send a command and wait up to tmo for the answer.  Returns the status
 * (and *body, malloc'ed, if body is not NULL), or CLIS_COMMS.
 */
static unsigned
mgt_child_ask(const char *cmd, double tmo, char **body)
{
	unsigned status;
	char *b = NULL;

	if (body != NULL)
		*body = NULL;
	if (child_cli_out < 0 || CLI_WriteRequest(child_cli_out, cmd) != 0)
		return (CLIS_COMMS);
	if (CLI_ReadResult(child_cli_in, &status, &b, tmo) != 0) {
		free(b);
		return (CLIS_COMMS);
	}
	if (body != NULL)
		*body = b;
	else
		free(b);
	return (status);
}

/* In the child after fork(): keep only what it needs open. */
static void
mgt_child_fds(int cmd_in, int resp_out, int log_out)
{
	int fd, maxfd, keep;
	unsigned u;

	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		(void)dup2(fd, STDIN_FILENO);
		(void)close(fd);
	}
	(void)dup2(log_out, STDOUT_FILENO);
	(void)dup2(log_out, STDERR_FILENO);
	maxfd = (int)sysconf(_SC_OPEN_MAX);
	if (maxfd < 0 || maxfd > 65536)
		maxfd = 65536;
	for (fd = STDERR_FILENO + 1; fd < maxfd; fd++) {
		keep = fd == cmd_in || fd == resp_out;
		for (u = 0; u < mgt_ca->nsocks && !keep; u++)
			keep = fd == mgt_ca->socks[u].fd;
		if (!keep)
			(void)close(fd);
	}
}

static void mgt_child_exit_cb(struct ev_loop *, ev_child *, int);
static void mgt_child_stop(void);
static void mgt_child_ping_cb(struct ev_loop *, ev_timer *, int);

static int
mgt_child_fork(void)
{
	int cmd[2], resp[2], logp[2];
	pid_t pid;

	cmd[0] = cmd[1] = resp[0] = resp[1] = logp[0] = logp[1] = -1;
	if (pipe2(cmd, O_CLOEXEC) || pipe2(resp, O_CLOEXEC) ||
	    pipe2(logp, O_CLOEXEC)) {
		MGT_Log(LOG_ERR, "Cannot create pipes for the child: %s",
		    strerror(errno));
		mgt_close_fd(&cmd[0]); mgt_close_fd(&cmd[1]);
		mgt_close_fd(&resp[0]); mgt_close_fd(&resp[1]);
		mgt_close_fd(&logp[0]); mgt_close_fd(&logp[1]);
		return (-1);
	}
	/* The manager must never block on what the child prints. */
	(void)fcntl(logp[0], F_SETFL, O_NONBLOCK);
	mgt_ca->panic_buf[0] = '\0';
	pid = fork();
	if (pid < 0) {
		MGT_Log(LOG_ERR, "Cannot fork the child: %s", strerror(errno));
		mgt_close_fd(&cmd[0]); mgt_close_fd(&cmd[1]);
		mgt_close_fd(&resp[0]); mgt_close_fd(&resp[1]);
		mgt_close_fd(&logp[0]); mgt_close_fd(&logp[1]);
		return (-1);
	}
	if (pid == 0) {
		mgt_child_fds(cmd[0], resp[1], logp[1]);
		mgt_ca->cli_in = cmd[0];
		mgt_ca->cli_out = resp[1];
		CHILD_Main(mgt_ca);
	}
	(void)close(cmd[0]);
	(void)close(resp[1]);
	(void)close(logp[1]);
	child_pid = pid;
	child_cli_out = cmd[1];
	child_cli_in = resp[0];
	child_log_fd = logp[0];
	child_log_len = 0;
	child_t_start = TIM_mono();
	ev_io_init(&child_log_w, mgt_child_log_cb, child_log_fd, EV_READ);
	ev_io_start(EV_DEFAULT_UC, &child_log_w);
	ev_child_init(&child_exit_w, mgt_child_exit_cb, pid, 0);
	ev_child_start(EV_DEFAULT_UC, &child_exit_w);
	return (0);
}

static void
mgt_child_cleanup(void)
{
	char dir[1024];

	ev_io_stop(EV_DEFAULT_UC, &child_log_w);
	ev_child_stop(EV_DEFAULT_UC, &child_exit_w);
	ev_timer_stop(EV_DEFAULT_UC, &child_ping_w);
	/* Whatever it still said before it went. */
	if (child_log_fd >= 0) {
		for (;;) {
			ssize_t n = read(child_log_fd, child_log_buf +
			    child_log_len, sizeof child_log_buf - 1 -
			    child_log_len);
			if (n <= 0)
				break;
			child_log_len += (size_t)n;
			mgt_child_log_flush(child_log_len ==
			    sizeof child_log_buf - 1);
		}
		mgt_child_log_flush(1);
	}
	mgt_close_fd(&child_cli_out);
	mgt_close_fd(&child_cli_in);
	mgt_close_fd(&child_log_fd);
	child_pid = -1;
	/* Its shared memory is dead too: tell the readers now. */
	(void)snprintf(dir, sizeof dir, "%s/_.vsm_child", mgt_ca->workdir);
	VSMW_Clean(dir);
}

/* Start a child and tell it to start serving.  0 or -1. */
static int
mgt_child_launch(void)
{
	unsigned status;
	char *body = NULL;

	if (mgt_child_fork() != 0)
		return (-1);
	status = mgt_child_ask(MGT_VclChildPrep(), cache_param->cli_timeout > 0
	    ? cache_param->cli_timeout : 60, &body);
	if (status != CLIS_OK) {
		MGT_Log(LOG_ERR, "Child (%ld) did not start: %s",
		    (long)child_pid, body != NULL ? body : "no answer");
		free(body);
		(void)kill(child_pid, SIGKILL);
		(void)waitpid(child_pid, NULL, 0);
		mgt_child_cleanup();
		return (-1);
	}
	free(body);
	VSC_C_mgt->child_start++;
	MGT_Log(LOG_NOTICE, "Child (%ld) started", (long)child_pid);
	if (cache_param->ping_interval > 0) {
		ev_timer_init(&child_ping_w, mgt_child_ping_cb,
		    cache_param->ping_interval, cache_param->ping_interval);
		ev_timer_start(EV_DEFAULT_UC, &child_ping_w);
	}
	return (0);
}

static void
mgt_child_restart_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	double delay;

	(void)loop;
	(void)w;
	(void)revents;
	if (mgt_stopping || child_pid >= 0)
		return;
	if (mgt_child_launch() == 0)
		return;
	child_quick_deaths++;
	delay = child_quick_deaths > 5 ? 30 : 1U << child_quick_deaths;
	MGT_Log(LOG_ERR, "Trying again in %.0f seconds", delay);
	ev_timer_set(&child_restart_w, delay, 0);
	ev_timer_start(EV_DEFAULT_UC, &child_restart_w);
}

/*
 * veneerd's exit status tells how children ended, with varnishd's bits:
 * 0x20 one exited with a status, 0x40 one was killed by a signal, 0x80
 * one dumped core (unless feature no_coredump).  A supervisor sees it.
 */
static int mgt_exit_status;

int
MGT_ExitStatus(void)
{

	return (mgt_exit_status);
}

static void
mgt_child_exit_cb(struct ev_loop *loop, ev_child *w, int revents)
{
	int st = w->rstatus;
	double delay = 0;

	(void)loop;
	(void)revents;
	if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		mgt_exit_status |= 0x20;
	if (WIFSIGNALED(st)) {
		mgt_exit_status |= 0x40;
		VSC_C_mgt->child_died++;
		if (WCOREDUMP(st)) {
			VSC_C_mgt->child_dump++;
			if (!PARAM_HasFeature(PARAM_FEATURE_NO_COREDUMP))
				mgt_exit_status |= 0x80;
		}
		MGT_Log(LOG_ERR, "Child (%ld) died signal=%d%s",
		    (long)w->rpid, WTERMSIG(st),
		    WCOREDUMP(st) ? " (core dumped)" : "");
	} else {
		VSC_C_mgt->child_stop++;
		MGT_Log(LOG_ERR, "Child (%ld) died status=%d", (long)w->rpid,
		    WEXITSTATUS(st));
	}
	mgt_child_cleanup();
	if (mgt_ca->panic_buf[0] != '\0') {
		free(child_last_panic);
		child_last_panic = strdup(mgt_ca->panic_buf);
		child_t_panic = TIM_real();
		VSC_C_mgt->child_panic++;
		MGT_Log(LOG_ERR, "Child (%ld) Panic message:\n%s",
		    (long)w->rpid, mgt_ca->panic_buf);
	}
	if (mgt_stopping)
		return;
	if (!cache_param->auto_restart) {
		MGT_Log(LOG_ERR, "Child not restarted: auto_restart is off");
		return;
	}
	/* Restart at once, unless it keeps dying young. */
	if (TIM_mono() - child_t_start < 10) {
		child_quick_deaths++;
		if (child_quick_deaths > 1)
			delay = child_quick_deaths > 5 ? 30 :
			    1U << (child_quick_deaths - 1);
	} else {
		child_quick_deaths = 0;
	}
	MGT_Log(LOG_NOTICE, "Restarting the child%s",
	    delay > 0 ? " after a pause (it keeps dying)" : "");
	ev_timer_init(&child_restart_w, mgt_child_restart_cb, delay, 0);
	ev_timer_start(EV_DEFAULT_UC, &child_restart_w);
}

static void
mgt_child_ping_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	unsigned status;

	(void)loop;
	(void)w;
	(void)revents;
	if (child_pid < 0)
		return;
	status = mgt_child_ask("ping", cache_param->cli_timeout, NULL);
	if (status == CLIS_OK)
		return;
	MGT_Log(LOG_ERR, "Child (%ld) not responding to CLI (cli_timeout "
	    "%.0fs), killing it.", (long)child_pid, cache_param->cli_timeout);
	(void)kill(child_pid, SIGKILL);
	ev_timer_stop(EV_DEFAULT_UC, &child_ping_w);
}

void
MGT_ChildStart(void)
{

	if (mgt_child_launch() != 0)
		MGT_Fatal("the child could not start; see the messages "
		    "above");
}

/* Wait for the child to exit within tmo; 1 if it did. */
static int
mgt_child_wait(double tmo)
{
	vtim_mono deadline = TIM_mono() + tmo;
	pid_t p;
	int st;

	do {
		p = waitpid(child_pid, &st, WNOHANG);
		if (p == child_pid || (p < 0 && errno == ECHILD))
			return (1);
		TIM_sleep(0.01);
	} while (TIM_mono() < deadline);
	return (0);
}

void
MGT_ChildStop(void)
{

	mgt_stopping = 1;
	mgt_child_stop();
}

/* The CLI's start: 0, or -1 (already running, or it failed: logged). */
int
MGT_ChildStartCli(void)
{

	if (child_pid >= 0)
		return (-1);
	mgt_stopping = 0;
	ev_timer_stop(EV_DEFAULT_UC, &child_restart_w);
	child_quick_deaths = 0;
	return (mgt_child_launch());
}

/* The CLI's stop: the manager stays, and no restart comes. */
void
MGT_ChildStopCli(void)
{

	mgt_stopping = 1;
	mgt_child_stop();
}

const char *
MGT_ChildPanic(double *when)
{

	*when = child_t_panic;
	return (child_last_panic);
}

void
MGT_ChildPanicClear(int zero_counter)
{

	free(child_last_panic);
	child_last_panic = NULL;
	if (zero_counter)
		VSC_C_mgt->child_panic = 0;
}

long
MGT_ChildPid(void)
{

	return ((long)child_pid);
}

int
MGT_ChildRunning(void)
{

	return (child_pid >= 0);
}

unsigned
MGT_ChildAsk(const char *cmd, char **body)
{

	if (child_pid < 0) {
		if (body != NULL)
			*body = NULL;
		return (CLIS_CANT);
	}
	return (mgt_child_ask(cmd, cache_param->cli_timeout > 0 ?
	    cache_param->cli_timeout : 60, body));
}

static void
mgt_child_stop(void)
{
	unsigned status;

	ev_timer_stop(EV_DEFAULT_UC, &child_restart_w);
	if (child_pid < 0)
		return;
	ev_child_stop(EV_DEFAULT_UC, &child_exit_w);
	ev_timer_stop(EV_DEFAULT_UC, &child_ping_w);
	MGT_Log(LOG_NOTICE, "Stopping Child (%ld)", (long)child_pid);
	status = mgt_child_ask("stop", cache_param->shutdown_timeout + 5,
	    NULL);
	if (status != CLIS_OK)
		MGT_Log(LOG_ERR, "Child (%ld) did not stop cleanly",
		    (long)child_pid);
	if (!mgt_child_wait(5)) {
		MGT_Log(LOG_ERR, "Child (%ld) still running, killing it",
		    (long)child_pid);
		(void)kill(child_pid, SIGKILL);
		(void)mgt_child_wait(5);
	}
	VSC_C_mgt->child_exit++;
	MGT_Log(LOG_NOTICE, "Child (%ld) ended", (long)child_pid);
	mgt_child_cleanup();
}

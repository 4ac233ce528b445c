/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * child_main.c -- the child process: set up (panic handler, log,
 * counters, privileges, pools), then serve the manager's commands on the
 * CLI pipe from the main thread, doing housekeeping once a second.
 * Commands: ping, start (load the VCL, start accepting), stop (drain and
 * exit).  Owns child_args (const) and child_draining.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include <bsd/unistd.h>

#include "common/cli.h"
#include "common/miniobj.h"
#include "common/num.h"
#include "common/param.h"
#include "common/rnd.h"
#include "cache/acceptor.h"
#include "cache/backend.h"
#include "cache/ban.h"
#include "cache/child.h"
#include "cache/child_cli.h"
#include "cache/expire.h"
#include "cache/fetch.h"
#include "cache/hash.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/storage.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vsl.h"
#include "cache/xkey.h"
#include "vsm/vsmw.h"

const struct child_args *child_args;
struct vsmw *child_vsmw;
const char *child_via = "Via: 1.1 localhost (Veneer)";
static char child_via_buf[320];
volatile unsigned child_draining;
static unsigned child_started;

static void
child_fatal(const char *fmt, const char *arg)
{

	fprintf(stderr, "Child start failed: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fflush(stderr);
	_exit(1);
}

static void
child_signals(void)
{
	struct sigaction sa;
	sigset_t set;
	int i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (i = 1; i < NSIG; i++)
		(void)sigaction(i, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, NULL);
	/*
	 * ^C in a terminal, or a service manager signalling the whole
	 * group, reaches us too: the manager tells us when to stop, so
	 * the drain happens in order.  If the manager dies, the CLI pipe
	 * closes and we exit.
	 */
	(void)sigaction(SIGINT, &sa, NULL);
	(void)sigaction(SIGTERM, &sa, NULL);
	/* A terminal hangup or a stray kill -USR1 must not kill it either. */
	(void)sigaction(SIGHUP, &sa, NULL);
	(void)sigaction(SIGUSR1, &sa, NULL);
	(void)sigaction(SIGUSR2, &sa, NULL);
	(void)sigemptyset(&set);
	(void)sigprocmask(SIG_SETMASK, &set, NULL);
}

static void
child_drop_privileges(const struct child_args *ca)
{

	if (!ca->drop_privs)
		return;
	if (setgroups(0, NULL) != 0 && errno != EPERM)
		child_fatal("setgroups: %s", strerror(errno));
	if (setgid(ca->gid) != 0)
		child_fatal("setgid: %s", strerror(errno));
	if (setuid(ca->uid) != 0)
		child_fatal("setuid: %s", strerror(errno));
#ifdef HAVE_SYS_PRCTL_H
	/* Keep core dumps possible after the uid change. */
	(void)prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
#endif
}

/* The compiled VCL, opened while the child could still read it. */
static int child_vcl_fd = -1;
static int child_vcl_errno;

/* Every exchange with the manager is logged, as Varnish's child does. */
static void
child_reply(unsigned status, const char *body)
{

	VSL(SLT_CLI, 0, "Wr %03u %zu %s", status, strlen(body), body);

	if (CLI_WriteResult(child_args->cli_out, status, body) != 0)
		_exit(0);	/* the manager is gone */
}

/* start [noboot]: the boot VCL, then accept; noboot: it was discarded. */
static void
child_cmd_start(char * const *av)
{
	char err[1024], path[64];

	if (child_started) {
		child_reply(CLIS_CANT, "Child already started");
		return;
	}
	/* Active unless the manager made another active (a restart). */
	(void)snprintf(path, sizeof path, "/proc/self/fd/%d", child_vcl_fd);
	if (av[1] == NULL || strcmp(av[1], "noboot")) {
		if (child_vcl_fd < 0) {
			(void)snprintf(err, sizeof err, "cannot open the "
			    "compiled boot VCL: %s", strerror(child_vcl_errno));
			child_reply(CLIS_CANT, err);
			return;
		}
		if (VCL_LoadFile(path, child_args->vcl_name, !VCL_Active(),
		    err, sizeof err) != 0 || VCL_SetState(child_args->vcl_name,
		    "auto", 0, err, sizeof err) != 0) {
			child_reply(CLIS_CANT, err);
			return;
		}
	}
	if (!VCL_Active()) {
		child_reply(CLIS_CANT, "No active VCL");
		return;
	}
	ACCEPT_Start();
	child_started = 1;
	child_reply(CLIS_OK, "");
}

/*
 * vcl.loadboot: the boot VCL, before start (the manager orders the
 * loads so labels find their VCLs); "start noboot" follows.
 */
static unsigned
ccli_vcl_loadboot(FILE *out, int ac, char * const *av)
{
	char err[1024], path[64];

	(void)ac;
	(void)av;
	if (child_vcl_fd < 0) {
		fprintf(out, "cannot open the compiled boot VCL: %s",
		    strerror(child_vcl_errno));
		return (CLIS_CANT);
	}
	(void)snprintf(path, sizeof path, "/proc/self/fd/%d", child_vcl_fd);
	if (VCL_LoadFile(path, child_args->vcl_name, !VCL_Active(), err,
	    sizeof err) != 0 || VCL_SetState(child_args->vcl_name, "auto", 0,
	    err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	return (CLIS_OK);
}

/* Stop accepting, let sessions finish within shutdown_timeout, exit. */
static void __attribute__((__noreturn__))
child_cmd_stop(void)
{
	vtim_mono deadline;
	unsigned n;

	ACCEPT_Stop();
	child_draining = 1;
	POOL_DrainWaiters();
	deadline = TIM_mono() + cache_param->shutdown_timeout;
	while ((n = __atomic_load_n(&child_sessions, __ATOMIC_RELAXED)) > 0 &&
	    TIM_mono() < deadline)
		TIM_sleep(0.01);
	VSC_Tick();
	child_reply(CLIS_OK, n > 0 ? "Stopped with sessions still open" :
	    "Stopped");
	_exit(0);
}

void
CCLI_JsonStr(FILE *out, const char *s)
{

	fputc('"', out);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

void
CCLI_JsonHead(FILE *out, unsigned version, int ac, char * const *av)
{
	int i;

	fprintf(out, "[ %u, [", version);
	for (i = 0; i < ac; i++) {
		if (i > 0)
			fputs(", ", out);
		CCLI_JsonStr(out, av[i]);
	}
	fprintf(out, "], %.3f", TIM_real());
}

static unsigned
ccli_ping(FILE *out, int ac, char * const *av)
{

	(void)ac;
	(void)av;
	fprintf(out, "PONG %ld 1.0", (long)TIM_real());
	return (CLIS_OK);
}

static unsigned
ccli_vcl_load(FILE *out, int ac, char * const *av)
{
	char err[256];

	if (VCL_LoadFile(av[2], av[1], 0, err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	/*
	 * vcl.load NAME PATH [STATE cold|warm]: loaded in that state; its
	 * probes start here if warm, never before.
	 */
	if (VCL_SetState(av[1], ac > 4 ? av[3] : "auto", ac > 4 &&
	    !strcmp(av[4], "cold"), err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	return (CLIS_OK);
}

static unsigned
ccli_vcl_label(FILE *out, int ac, char * const *av)
{
	char err[256];

	(void)ac;
	if (VCL_Label(av[1], av[2], err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	return (CLIS_OK);
}

/* vcl.state NAME auto|cold|warm cold|warm: the manager decided. */
static unsigned
ccli_vcl_state(FILE *out, int ac, char * const *av)
{
	char err[256];

	(void)ac;
	if (VCL_SetState(av[1], av[2], !strcmp(av[3], "cold"), err,
	    sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	return (CLIS_OK);
}

/* vcl.profile [NAME]: the raw figures; the manager formats them. */
static unsigned
ccli_vcl_profile(FILE *out, int ac, char * const *av)
{

	return (VCL_Profile(out, ac > 1 ? av[1] : NULL) != 0 ? CLIS_CANT :
	    CLIS_OK);
}

/* debug.xid [XID [CHUNK]]: as varnishd's, for test harnesses. */
static unsigned
ccli_debug_xid(FILE *out, int ac, char * const *av)
{
	uint32_t base, chunk;

	if (ac > 1)
		POOL_VxidSet((uint32_t)strtoul(av[1], NULL, 0),
		    ac > 2 ? (uint32_t)strtoul(av[2], NULL, 0) : 1);
	POOL_VxidGet(&base, &chunk);
	fprintf(out, "XID is %u chunk %u", base, chunk);
	return (CLIS_OK);
}

/* debug.fragfetch N: fetched bodies stored N bytes at a time (tests). */
static unsigned
ccli_debug_fragfetch(FILE *out, int ac, char * const *av)
{
	char *end;
	unsigned long n;

	(void)ac;
	n = strtoul(av[1], &end, 10);
	if (*av[1] == '\0' || *end != '\0' || n > 1024 * 1024) {
		fprintf(out, "debug.fragfetch takes a size in bytes, 0 "
		    "(off) to 1048576");
		return (CLIS_PARAM);
	}
	FETCH_SetFrag((unsigned)n);
	return (CLIS_OK);
}

/* debug.srandom [SEED]: the random director's picks, made predictable. */
static unsigned
ccli_debug_srandom(FILE *out, int ac, char * const *av)
{

	(void)out;
	RND_SeedTestable(ac > 1 ? (unsigned)strtoul(av[1], NULL, 0) : 1);
	return (CLIS_OK);
}

static unsigned
ccli_vcl_use(FILE *out, int ac, char * const *av)
{
	char err[256];

	(void)ac;
	if (VCL_Use(av[1], err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	return (CLIS_OK);
}

static unsigned
ccli_vcl_discard(FILE *out, int ac, char * const *av)
{
	char err[256];

	(void)ac;
	if (VCL_Discard(av[1], err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	return (CLIS_OK);
}

static unsigned
ccli_vcl_list(FILE *out, int ac, char * const *av)
{
	static char lbuf[16384];

	(void)ac;
	(void)av;
	VCL_List(lbuf, sizeof lbuf);
	fputs(lbuf, out);
	return (CLIS_OK);
}

/* The value is in shared memory; a few need acting on. */
static unsigned
ccli_param_changed(FILE *out, int ac, char * const *av)
{
	char err[256];

	(void)ac;
	if (!strcmp(av[1], "vsl_mask") &&
	    VSL_MaskReload(err, sizeof err) != 0) {
		fputs(err, out);
		return (CLIS_CANT);
	}
	return (CLIS_OK);
}

/* purge.key and purge.softkey: the words are tags (XKEY_Split's). */
static unsigned
ccli_purge(FILE *out, int ac, char * const *av, int soft)
{
	char *tags = NULL;
	size_t len = 0;
	FILE *f;
	unsigned n;
	int i;

	f = open_memstream(&tags, &len);
	if (f == NULL) {
		fputs("Out of memory", out);
		return (CLIS_CANT);
	}
	for (i = 1; i < ac; i++)
		(void)fprintf(f, "%s ", av[i]);
	if (fclose(f) != 0) {
		free(tags);
		fputs("Out of memory", out);
		return (CLIS_CANT);
	}
	n = XKEY_Purge(NULL, tags, soft);
	free(tags);
	(void)fprintf(out, "Purged %u object%s",
	    n, n == 1 ? "" : "s");
	return (CLIS_OK);
}

static unsigned
ccli_purge_key(FILE *out, int ac, char * const *av)
{

	return (ccli_purge(out, ac, av, 0));
}

static unsigned
ccli_purge_softkey(FILE *out, int ac, char * const *av)
{

	return (ccli_purge(out, ac, av, 1));
}

/*
 * The child's commands.  The manager checked the syntax the admin saw;
 * minarg guards against a manager bug only.  Commands that answer in
 * their own way (start, stop) are dispatched before the table.
 */
static const struct ccli_cmd {
	const char	*name;
	int		minarg;
	ccli_func_f	*func;
} ccli_cmds[] = {
	{ "ping",		0, ccli_ping },
	{ "vcl.load",		2, ccli_vcl_load },
	{ "vcl.use",		1, ccli_vcl_use },
	{ "vcl.discard",	1, ccli_vcl_discard },
	{ "vcl.list",		0, ccli_vcl_list },
	{ "vcl.label",		2, ccli_vcl_label },
	{ "vcl.loadboot",	0, ccli_vcl_loadboot },
	{ "vcl.state",		3, ccli_vcl_state },
	{ "vcl.profile",	0, ccli_vcl_profile },
	{ "debug.xid",		0, ccli_debug_xid },
	{ "debug.fragfetch",	1, ccli_debug_fragfetch },
	{ "debug.srandom",	0, ccli_debug_srandom },
	{ "param.changed",	1, ccli_param_changed },
	{ "ban",		3, BAN_CliBan },
	{ "ban.list",		0, BAN_CliList },
	{ "backend.list",	0, BACKEND_CliList },
	{ "backend.set_health",	2, BACKEND_CliSetHealth },
	{ "purge.key",		1, ccli_purge_key },
	{ "purge.softkey",	1, ccli_purge_softkey },
};

static void
child_dispatch(char *line)
{
	const struct ccli_cmd *c = NULL;
	char **av, *body = NULL;
	const char *perr;
	size_t len = 0, u;
	unsigned status;
	FILE *out;
	int ac;

	VSL(SLT_CLI, 0, "Rd %s", line);
	av = CLI_ParseArgs(line, &perr);
	if (av == NULL) {
		child_reply(CLIS_SYNTAX, perr);
		return;
	}
	for (ac = 0; av[ac] != NULL; ac++)
		continue;
	if (ac == 0) {
		child_reply(CLIS_OK, "");
	} else if (!strcmp(av[0], "start")) {
		child_cmd_start(av);
	} else if (!strcmp(av[0], "stop")) {
		CLI_FreeArgs(av);
		child_cmd_stop();
	} else {
		for (u = 0; u < sizeof ccli_cmds / sizeof ccli_cmds[0]; u++)
			if (!strcmp(av[0], ccli_cmds[u].name))
				c = &ccli_cmds[u];
		if (c == NULL) {
			child_reply(CLIS_UNKNOWN, "Unknown request in child");
		} else if (ac - 1 < c->minarg) {
			child_reply(CLIS_TOOFEW, "Too few parameters");
		} else if ((out = open_memstream(&body, &len)) == NULL) {
			child_reply(CLIS_CANT, "Out of memory");
		} else {
			status = c->func(out, ac, av);
			if (fclose(out) != 0) {
				free(body);
				body = NULL;
				status = CLIS_CANT;
			}
			child_reply(status, body != NULL ? body :
			    "Out of memory");
			free(body);
		}
	}
	CLI_FreeArgs(av);
}

/* Read commands, one line each; housekeeping between them. */
static void __attribute__((__noreturn__))
child_cli_loop(void)
{
	static char buf[65536];
	struct pollfd pfd;
	vtim_mono next = 0, now;
	size_t len = 0;
	char *nl;
	ssize_t n;

	for (;;) {
		now = TIM_mono();
		if (now >= next) {
			/* Once a second, however busy the CLI is. */
			VSC_Tick();
			BACKEND_Reap();
			next = now + 1;
		}
		pfd.fd = child_args->cli_in;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, TIM_poll_ms(next - now)) <= 0)
			continue;
		n = read(child_args->cli_in, buf + len, sizeof buf - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);	/* the manager closed the pipe */
		len += (size_t)n;
		buf[len] = '\0';
		while ((nl = strchr(buf, '\n')) != NULL) {
			*nl = '\0';
			child_dispatch(buf);
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len + 1);
		}
		if (len == sizeof buf - 1) {
			child_reply(CLIS_TOOMANY, "Command too long");
			len = 0;
		}
	}
}

void
CHILD_Main(const struct child_args *ca)
{
	char err[512], dir[1024];
	void *p;

	CHECK_OBJ(ca, CHILD_ARGS_MAGIC);
	child_args = ca;
	(void)snprintf(child_via_buf, sizeof child_via_buf,
	    "Via: 1.1 %.255s (Veneer/%s)", ca->hostname, PACKAGE_VERSION);
	child_via = child_via_buf;
	setproctitle("child -n %s", ca->workdir);
	child_signals();
	PANIC_Init(ca->panic_buf, ca->panic_len);
	(void)snprintf(dir, sizeof dir, "%s/_.vsm_child", ca->workdir);
	child_vsmw = VSMW_New(dir, 0640, err, sizeof err);
	if (child_vsmw == NULL)
		child_fatal("%s", err);
	if (VSC_Init(child_vsmw, err, sizeof err) != 0)
		child_fatal("%s", err);
	/* After the counters: Varnish's tools expect them first. */
	p = VSMW_Alloc(child_vsmw, "Log", (size_t)cache_param->vsl_space,
	    "Log");
	if (p == NULL) {
		NUM_FormatBytes(cache_param->vsl_space, dir, sizeof dir);
		child_fatal("cannot create the shared log of vsl_space %s in "
		    "the working directory: disk full? Free space or lower "
		    "vsl_space", dir);
	}
	VSL_Init(p, (size_t)cache_param->vsl_space);
	/*
	 * The compiled VCL is opened before the privileges go: the
	 * workdir's parents need not let the child's user through.
	 */
	child_vcl_fd = open(ca->vcl_so, O_RDONLY | O_CLOEXEC);
	if (child_vcl_fd < 0)
		child_vcl_errno = errno;	/* fatal unless discarded */
	/*
	 * Segments come and go after the privileges do (a VCL's profile,
	 * its backends' counters): the child must own its directory.
	 */
	if (ca->drop_privs && VSMW_Chown(child_vsmw, ca->uid, ca->gid) != 0)
		child_fatal("cannot hand _.vsm_child to the -j user: %s",
		    strerror(errno));
	child_drop_privileges(ca);
	PARAM_Protect();
	STV_Init();
	HSH_Init();
	BAN_Init();
	XKEY_Init();
	EXP_Init();
	POOL_Init();
	child_cli_loop();
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vlt.c -- the reading loop veneerlog and veneerncsa share.  Owns the
 * attachment (struct vapi), the cursor and the dispatcher, and the
 * signal flags.  Single-threaded.
 *
 * Live, the loop survives what happens to the daemon: when the writer
 * laps the reader it says how much was skipped and goes on with new
 * records; when the child restarts (its log goes away) it says so and
 * waits for the new child's log.  Messages go to stderr, prefixed with
 * the program's name.
 */

#include "config.h"

#include <bsd/libutil.h>

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "vlt.h"

/* Transaction timeout, as varnishlog's default -T. */
#define VLT_TX_TIMEOUT		120.0
/* Sleep when the log has nothing new. */
#define VLT_IDLE_NS		10000000L
/* Between attempts to find the log. */
#define VLT_RETRY_NS		100000000L

static volatile sig_atomic_t vlt_hup;
static volatile sig_atomic_t vlt_stop;

const char VLT_Usage_Common[] =
    "  -b              backend requests only\n"
    "  -c              client requests only\n"
    "  -d              read the log from its head (oldest records) and "
    "exit at its end\n"
    "  -D              daemonize (needs -w)\n"
    "  -g GROUPING     vxid (default), request, session or raw\n"
    "  -h              this help\n"
    "  -n WORKDIR      veneerd's working directory (its -n)\n"
    "  -P FILE         write the process id to FILE\n"
    "  -q QUERY        only transaction groups matching QUERY "
    "(repeatable: or)\n"
    "  -r FILE         read records from FILE (- for standard input) "
    "instead\n"
    "  -t SECONDS|off  wait this long for veneerd (default 5)\n"
    "  -V              version\n";

void
VLT_Err(const struct vlt *vlt, const char *fmt, ...)
{
	va_list ap;

	(void)fflush(stdout);
	fprintf(stderr, "%s: ", vlt->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
VLT_Fail(const struct vlt *vlt, const char *fmt, ...)
{
	va_list ap;

	(void)fflush(stdout);
	fprintf(stderr, "%s: ", vlt->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void
VLT_Version(const struct vlt *vlt)
{

	printf("%s (%s)\n", vlt->prog, PACKAGE_STRING);
	exit(0);
}

void
VLT_Init(struct vlt *vlt, const char *prog)
{

	INIT_OBJ(vlt, VLT_MAGIC);
	vlt->prog = prog;
	vlt->t_arg = 5;
	vlt->grouping = VAPI_G_VXID;
}

static void
vlt_add_query(struct vlt *vlt, const char *q)
{
	size_t l0, l1;
	char *p;

	l0 = vlt->q_text != NULL ? strlen(vlt->q_text) : 0;
	l1 = strlen(q);
	p = realloc(vlt->q_text, l0 + l1 + 2);
	if (p == NULL)
		VLT_Fail(vlt, "out of memory");
	if (l0 > 0)
		p[l0++] = '\n';
	memcpy(p + l0, q, l1 + 1);
	vlt->q_text = p;
}

int
VLT_Option(struct vlt *vlt, int opt, const char *arg)
{
	char *end;

	CHECK_OBJ(vlt, VLT_MAGIC);
	switch (opt) {
	case 'b':
		vlt->b_arg = 1;
		return (1);
	case 'c':
		vlt->c_arg = 1;
		return (1);
	case 'd':
		vlt->d_arg = 1;
		return (1);
	case 'D':
		vlt->D_arg = 1;
		return (1);
	case 'g':
		if (!strcmp(arg, "vxid"))
			vlt->grouping = VAPI_G_VXID;
		else if (!strcmp(arg, "request"))
			vlt->grouping = VAPI_G_REQUEST;
		else if (!strcmp(arg, "session"))
			vlt->grouping = VAPI_G_SESSION;
		else if (!strcmp(arg, "raw"))
			vlt->grouping = VAPI_G_RAW;
		else
			VLT_Fail(vlt, "-g %s: the grouping is vxid, request, "
			    "session or raw", arg);
		return (1);
	case 'n':
		vlt->n_arg = arg;
		return (1);
	case 'P':
		vlt->P_arg = arg;
		return (1);
	case 'q':
		vlt_add_query(vlt, arg);
		return (1);
	case 'r':
		vlt->r_arg = arg;
		return (1);
	case 't':
		if (!strcmp(arg, "off")) {
			vlt->t_arg = -1;
			return (1);
		}
		errno = 0;
		vlt->t_arg = strtod(arg, &end);
		if (errno != 0 || end == arg || *end != '\0' ||
		    vlt->t_arg < 0 || vlt->t_arg > 1e9)
			VLT_Fail(vlt, "-t %s: give the seconds to wait for "
			    "veneerd (0 tries once) or \"off\" to wait "
			    "forever", arg);
		return (1);
	case 'V':
		VLT_Version(vlt);
	default:
		return (0);
	}
}

void
VLT_Setup(struct vlt *vlt)
{
	char err[1024];

	CHECK_OBJ(vlt, VLT_MAGIC);
	if (vlt->q_text != NULL) {
		vlt->query = VAPI_QueryNew(vlt->q_text, err, sizeof err);
		if (vlt->query == NULL)
			VLT_Fail(vlt, "-q: %s", err);
	}
	if (vlt->r_arg != NULL && vlt->n_arg != NULL)
		VLT_Fail(vlt, "-r and -n exclude each other: read a file or "
		    "a running veneerd");
	if (vlt->D_arg && vlt->r_arg != NULL && !strcmp(vlt->r_arg, "-"))
		VLT_Fail(vlt, "-D cannot read standard input (-r -)");
}

void
VLT_Daemon(struct vlt *vlt)
{
	pid_t other;

	CHECK_OBJ(vlt, VLT_MAGIC);
	if (vlt->P_arg != NULL) {
		vlt->pfh = pidfile_open(vlt->P_arg, 0644, &other);
		if (vlt->pfh == NULL && errno == EEXIST)
			VLT_Fail(vlt, "-P %s: another %s (pid %d) runs with "
			    "this pid file", vlt->P_arg, vlt->prog,
			    (int)other);
		if (vlt->pfh == NULL)
			VLT_Fail(vlt, "-P %s: cannot create the pid file: %s",
			    vlt->P_arg, strerror(errno));
	}
	/* Stay in the directory: -w FILE is reopened by name on SIGHUP. */
	if (vlt->D_arg && daemon(1, 0) != 0)
		VLT_Fail(vlt, "-D: cannot daemonize: %s", strerror(errno));
	if (vlt->pfh != NULL && pidfile_write(vlt->pfh) != 0)
		VLT_Fail(vlt, "-P %s: cannot write the pid: %s", vlt->P_arg,
		    strerror(errno));
}

static void
vlt_signal(int sig)
{

	if (sig == SIGHUP)
		vlt_hup = 1;
	else
		vlt_stop = 1;
}

static void
vlt_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = vlt_signal;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGHUP, &sa, NULL);
	(void)sigaction(SIGTERM, &sa, NULL);
	(void)sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGPIPE, &sa, NULL);
}

static void
vlt_sleep(long ns)
{
	struct timespec ts;

	ts.tv_sec = ns / 1000000000L;
	ts.tv_nsec = ns % 1000000000L;
	(void)nanosleep(&ts, NULL);
}

static double
vlt_now(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &ts));
	return ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
}

/* The group callback between the dispatcher and the output: -q. */
static int
vlt_group(void *priv, struct vapi_tx * const *txs, unsigned ntx)
{
	struct vlt *vlt;

	CAST_OBJ_NOTNULL(vlt, priv, VLT_MAGIC);
	if (vlt_stop)
		return (VLT_STOP);	/* SIGTERM in the middle of -d */
	if (vlt->query != NULL && !VAPI_QueryMatch(vlt->query, txs, ntx))
		return (0);
	return (vlt->group(vlt->priv, txs, ntx));
}

static void
vlt_drop_log(struct vlt *vlt)
{

	if (vlt->dispatch != NULL)
		VAPI_DispatchFree(&vlt->dispatch);
	if (vlt->cursor != NULL)
		VAPI_CursorFree(&vlt->cursor);
}

static void
vlt_new_dispatch(struct vlt *vlt)
{

	vlt->dispatch = VAPI_DispatchNew(vlt->cursor, vlt->grouping,
	    VLT_TX_TIMEOUT);
	if (vlt->dispatch == NULL)
		VLT_Fail(vlt, "out of memory");
}

/* After a signal: -1 to go on, else the exit status. */
static int
vlt_check_signals(struct vlt *vlt)
{

	if (vlt_hup) {
		vlt_hup = 0;
		if (vlt->reopen == NULL)
			vlt_stop = 1;	/* nothing to rotate: SIGHUP ends */
		else if (vlt->reopen(vlt->priv) != 0)
			return (1);
	}
	return (vlt_stop ? 0 : -1);
}

static int
vlt_main_file(struct vlt *vlt)
{
	char err[1024];
	int r, i;

	vlt->cursor = VAPI_CursorFile(vlt->r_arg, err, sizeof err);
	if (vlt->cursor == NULL)
		VLT_Fail(vlt, "-r: %s", err);
	vlt_new_dispatch(vlt);
	do {
		r = VAPI_Dispatch(vlt->dispatch, vlt_group, vlt);
		if (r == VLT_STOP)
			return (vlt_stop ? 0 : 1);
		i = vlt_check_signals(vlt);
		if (i >= 0)
			return (i);
	} while (r == VAPI_MORE);
	if (r == VAPI_BAD)
		VLT_Err(vlt, "-r %s: %s", vlt->r_arg,
		    VAPI_CursorError(vlt->cursor));
	if (vlt->flush != NULL && vlt->flush(vlt->priv) != 0)
		return (1);
	return (r == VAPI_EOF ? 0 : 1);
}

/* Get the log; 0, or -1 if it is not there (yet). */
static int
vlt_acquire(struct vlt *vlt, double *t_msg)
{
	const char *why;
	double now;

	vlt->cursor = VAPI_CursorShm(vlt->vd, vlt->d_arg ? VAPI_CUR_HEAD :
	    VAPI_CUR_TAIL);
	if (vlt->cursor == NULL) {
		now = vlt_now();
		if (now - *t_msg >= 5) {
			why = VAPI_CursorError(NULL);
			VLT_Err(vlt, "cannot get the log yet: %s",
			    why[0] != '\0' ? why : VAPI_Error(vlt->vd));
			*t_msg = now;
		}
		return (-1);
	}
	if (vlt->lost) {
		VLT_Err(vlt, "log reacquired");
		vlt->lost = 0;
	}
	vlt_new_dispatch(vlt);
	return (0);
}

static int
vlt_main_shm(struct vlt *vlt)
{
	double t0, t_msg;
	int r;

	vlt->vd = VAPI_New();
	if (vlt->vd == NULL)
		VLT_Fail(vlt, "out of memory");
	if (VAPI_SetWorkdir(vlt->vd, vlt->n_arg) != 0)
		VLT_Fail(vlt, "-n: %s", VAPI_Error(vlt->vd));
	if (VAPI_Attach(vlt->vd, vlt->t_arg) != 0)
		VLT_Fail(vlt, "%s", VAPI_Error(vlt->vd));
	t0 = vlt_now();
	t_msg = t0 - 4;		/* the first message after a second */
	for (;;) {
		r = vlt_check_signals(vlt);
		if (r >= 0)
			return (r);
		if (vlt->cursor == NULL && vlt_acquire(vlt, &t_msg) != 0) {
			if (vlt->d_arg && vlt->t_arg >= 0 &&
			    vlt_now() - t0 > vlt->t_arg)
				VLT_Fail(vlt, "-d: no log to read in %s: %s",
				    VAPI_Workdir(vlt->vd),
				    VAPI_CursorError(NULL));
			(void)VAPI_Status(vlt->vd);	/* free gone segments */
			vlt_sleep(VLT_RETRY_NS);
			continue;
		}
		r = VAPI_Dispatch(vlt->dispatch, vlt_group, vlt);
		switch (r) {
		case VAPI_MORE:
			if (vlt->flush != NULL && vlt->flush(vlt->priv) != 0)
				return (1);
			vlt_sleep(VLT_IDLE_NS);
			break;
		case VAPI_EOF:
			return (vlt->flush != NULL &&
			    vlt->flush(vlt->priv) != 0 ? 1 : 0);
		case VAPI_OVERRUN:
			VLT_Err(vlt, "%s; reading on from the newest records",
			    VAPI_CursorError(vlt->cursor));
			vlt->lost = 1;
			vlt_drop_log(vlt);
			break;
		case VAPI_ABANDONED:
			VLT_Err(vlt, "log abandoned, reattaching: %s",
			    VAPI_CursorError(vlt->cursor));
			vlt->lost = 1;
			vlt_drop_log(vlt);
			break;
		case VAPI_BAD:
			VLT_Err(vlt, "%s", VAPI_CursorError(vlt->cursor));
			if (vlt->d_arg)
				return (1);
			vlt->lost = 1;
			vlt_drop_log(vlt);
			break;
		default:
			/* VLT_STOP: a signal, or the output failed (it said
			 * why). */
			return (vlt_stop ? 0 : 1);
		}
		if (vlt->cursor == NULL)
			(void)VAPI_Status(vlt->vd);	/* free gone segments */
	}
}

int
VLT_Main(struct vlt *vlt)
{

	CHECK_OBJ(vlt, VLT_MAGIC);
	assert(vlt->group != NULL);
	vlt_signals();
	if (vlt->r_arg != NULL)
		return (vlt_main_file(vlt));
	return (vlt_main_shm(vlt));
}

void
VLT_Fini(struct vlt *vlt)
{

	CHECK_OBJ(vlt, VLT_MAGIC);
	vlt_drop_log(vlt);
	if (vlt->vd != NULL)
		VAPI_Free(&vlt->vd);
	if (vlt->query != NULL)
		VAPI_QueryFree(&vlt->query);
	free(vlt->q_text);
	if (vlt->pfh != NULL)
		(void)pidfile_remove(vlt->pfh);
	vlt->pfh = NULL;
}

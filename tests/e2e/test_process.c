/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_process.c -- issue #3, end to end: veneerd as a process.  The
 * manager replaces a child killed with SIGKILL or stopped (ping timeout)
 * without losing the listen sockets; SIGTERM and SIGINT let the request
 * in flight finish, remove the pid file and close the ports; a second
 * instance on the same pid file refuses to start; the command line
 * refuses what it does not understand with exit status 2 and one line
 * on stderr; without -F veneerd runs as a daemon; as root the child runs
 * as the -j user while the manager keeps root.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lib/harness.h"

static void
process_handler(struct origin_conn *oc, const struct hx_msg *req,
    void *priv)
{

	(void)priv;
	if (strcmp(req->url, "/slow") == 0) {
		if (ORIGIN_Stall(oc, 1.0) == 0)
			(void)ORIGIN_Respond(oc, 200, NULL, "slow done", -1);
		return;
	}
	ORIGIN_DefaultHandler(oc, req, priv);
}

static void
get_ok(struct client *cl, const char *url, double timeout)
{
	struct hx_msg *r;

	r = CLIENT_Fetch(cl, "GET", url, NULL, timeout);
	ck_assert_msg(r->status == 200, "%s: status %d", url, r->status);
	ck_assert_str_eq(r->body, url);
	HX_MsgFree(&r);
}

/*--------------------------------------------------------------------
 * 12. The child dies or hangs; the manager replaces it.
 */

START_TEST(child_kill9_recovers)
{
	struct client *before, *during, *after;
	struct origin *o;
	struct vnd *v;
	pid_t old, new;

	o = ORIGIN_New(process_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), NULL);
	VND_ExpectChildDeath(v);
	before = VND_Connect(v);
	get_ok(before, "/before", HX_T_RESP);
	old = VND_ChildPid(v);
	ck_assert_int_ne(old, VND_Pid(v));
	ck_assert_int_eq(kill(old, SIGKILL), 0);
	HX_WaitGone(old, HX_T_RESP);
	/* The manager holds the sockets: this waits for the new child. */
	during = VND_Connect(v);
	get_ok(during, "/during", HX_T_SLOW);
	new = VND_WaitChildPidChange(v, old, HX_T_SLOW);
	after = VND_Connect(v);
	get_ok(after, "/after", HX_T_RESP);
	ck_assert_int_eq(VND_ChildPid(v), new);
	CLIENT_Free(&before);
	CLIENT_Free(&during);
	CLIENT_Free(&after);
	/* As varnishd's: the manager's status says a child was killed. */
	VND_Kill(v, SIGTERM);
	ck_assert_int_eq(VND_Wait(v, HX_T_SLOW), 0x40);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(child_stopped_is_replaced)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	pid_t old;
	double t0;

	o = ORIGIN_New(process_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "cli_timeout=2", "ping_interval=1",
	    NULL);
	VND_ExpectChildDeath(v);
	/* Stopping a child that is still starting would test the start. */
	cl = VND_Connect(v);
	get_ok(cl, "/before-stop", HX_T_RESP);
	CLIENT_Free(&cl);
	old = VND_ChildPid(v);
	t0 = HX_Now();
	ck_assert_int_eq(kill(old, SIGSTOP), 0);
	(void)VND_WaitChildPidChange(v, old, 12.0);
	HX_Log("stopped child replaced after %.1f s", HX_Now() - t0);
	/* Killed, not left stopped beside the new one. */
	HX_WaitGone(old, HX_T_RESP);
	cl = VND_Connect(v);
	get_ok(cl, "/after-stop", HX_T_SLOW);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 13. Shutting down with a request in flight.
 */

static void
graceful_stop(int sig)
{
	char pidfile[4096], addr[64];
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	int port, e, st;

	o = ORIGIN_New(process_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	(void)snprintf(pidfile, sizeof pidfile, "%s/veneerd.pid", VND_Dir(v));
	VND_Arg(v, "-P");
	VND_Arg(v, pidfile);
	VND_Start(v);
	ck_assert_int_eq(HX_WaitPidfile(pidfile, HX_T_RESP), VND_Pid(v));
	(void)snprintf(addr, sizeof addr, "%s", VND_Addr(v, 0));
	port = VND_Port(v, 0);

	cl = VND_Connect(v);
	CLIENT_Req(cl, "GET", "/slow", NULL, NULL, 0);
	ORIGIN_WaitReqs(o, 1, HX_T_RESP);
	VND_Kill(v, sig);
	r = CLIENT_Resp(cl, 0, HX_T_SLOW);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "slow done");
	HX_MsgFree(&r);
	st = VND_Wait(v, HX_T_SLOW);
	ck_assert_msg(st == 0, "exit status %d after signal %d", st, sig);
	ck_assert_msg(access(pidfile, F_OK) != 0, "%s left behind", pidfile);
	ck_assert_msg(CLIENT_TryNew(addr, port, 2.0, &e) == NULL,
	    "%s port %d still accepts after the exit", addr, port);
	ck_assert_msg(e == ECONNREFUSED, "connect: %s", strerror(e));
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}

START_TEST(sigterm_finishes_in_flight)
{

	graceful_stop(SIGTERM);
}
END_TEST

START_TEST(sigint_finishes_in_flight)
{

	graceful_stop(SIGINT);
}
END_TEST

/*--------------------------------------------------------------------
 * 14. The pid file keeps a second instance out.
 */

static int
mentions(const char *text, const char *word)
{
	size_t n;

	n = strlen(word);
	for (; *text != '\0'; text++)
		if (strncasecmp(text, word, n) == 0)
			return (1);
	return (0);
}

START_TEST(pidfile_second_instance)
{
	char pidfile[4096], *out, *err;
	struct vnd *v1, *v2;
	struct origin *o;
	struct client *cl;
	double t0, dt;
	int st;

	o = ORIGIN_New(process_handler, NULL);
	v1 = VND_New();
	VND_Backend(v1, ORIGIN_Port(o));
	(void)snprintf(pidfile, sizeof pidfile, "%s/veneerd.pid",
	    VND_Dir(v1));
	VND_Arg(v1, "-P");
	VND_Arg(v1, pidfile);
	VND_Start(v1);
	ck_assert_int_eq(HX_WaitPidfile(pidfile, HX_T_RESP), VND_Pid(v1));

	v2 = VND_New();
	VND_Backend(v2, ORIGIN_Port(o));
	t0 = HX_Now();
	st = VND_Exec(v2, 1, HX_T_RESP, "-P", pidfile, NULL);
	dt = HX_Now() - t0;
	out = VND_ExecOut(v2);
	err = VND_ExecErr(v2);
	ck_assert_msg(st != 0, "a second veneerd on %s started", pidfile);
	ck_assert_msg(dt < 3.0, "the second veneerd took %.1f s to refuse",
	    dt);
	ck_assert_msg(mentions(err, "pid") || mentions(out, "pid"),
	    "the refusal does not name the pid file: %s%s", out, err);
	free(out);
	free(err);

	/* The first one is untouched. */
	ck_assert_int_eq(HX_WaitPidfile(pidfile, HX_T_RESP), VND_Pid(v1));
	cl = VND_Connect(v1);
	get_ok(cl, "/still-here", HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Free(&v2);
	VND_Finish(&v1, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * 18. The command line.
 */

/* Exit status 2 and one line on stderr naming what was wrong. */
static void
refused(struct vnd *v, const char *what, const char *opt, const char *arg)
{
	const char *nl;
	char *err;
	int st;

	st = VND_Exec(v, 1, HX_T_RESP, opt, arg, NULL);
	err = VND_ExecErr(v);
	ck_assert_msg(st == 2, "%s %s: exit status %d, want 2 (stderr: %s)",
	    opt, arg == NULL ? "" : arg, st, err);
	nl = strchr(err, '\n');
	ck_assert_msg(err[0] != '\0' && err[0] != '\n' &&
	    (nl == NULL || nl[1] == '\0'), "%s %s: want one line on stderr, "
	    "got \"%s\"", opt, arg == NULL ? "" : arg, err);
	ck_assert_msg(what == NULL || mentions(err, what),
	    "%s %s: stderr does not name %s: %s", opt,
	    arg == NULL ? "" : arg, what, err);
	free(err);
}

START_TEST(cmdline_errors)
{
	struct vnd *v;
	int st;

	v = VND_New();
	refused(v, "no_such_param", "-p", "no_such_param=1");
	refused(v, "timeout_idle", "-p", "timeout_idle=banana");
	refused(v, "thread_pool_min", "-p", "thread_pool_min=1");
	refused(v, NULL, "-Z", NULL);
	refused(v, NULL, "-s", "bogus");
	refused(v, "minimum", "-s", "malloc,512k");
	refused(v, "size", "-s", "malloc,lots");
	refused(v, "name", "-s", "a b=malloc,1m");
	refused(v, "file", "-s", "file,1G");
	refused(v, "kqueue", "-W", "kqueue");
	refused(v, "hash", "-h", "nosuchhash");
	refused(v, "no_such_param", "-r", "no_such_param");
	/* No -b (and no VCL): nothing to proxy to. */
	st = VND_Exec(v, 0, HX_T_RESP, "-F", "-n", VND_Workdir(v), "-a",
	    "127.0.0.1:0", "-j", "none", NULL);
	ck_assert_msg(st == 2, "without -b: exit status %d, want 2", st);
	VND_Free(&v);
}
END_TEST

START_TEST(cmdline_version_help)
{
	char *out, *err;
	struct vnd *v;
	int st;

	v = VND_New();
	st = VND_Exec(v, 0, HX_T_RESP, "-V", NULL);
	out = VND_ExecOut(v);
	err = VND_ExecErr(v);
	ck_assert_msg(st == 0, "-V: exit status %d", st);
	ck_assert_msg(mentions(out, "veneer") || mentions(err, "veneer"),
	    "-V printed no version: %s%s", out, err);
	free(out);
	free(err);
	st = VND_Exec(v, 0, HX_T_RESP, "-h", NULL);
	out = VND_ExecOut(v);
	err = VND_ExecErr(v);
	ck_assert_msg(st == 0, "-h: exit status %d", st);
	ck_assert_msg(out[0] != '\0' || err[0] != '\0', "-h printed nothing");
	free(out);
	free(err);
	VND_Free(&v);
}
END_TEST

START_TEST(cmdline_storage)
{
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	o = ORIGIN_New(process_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-s");
	VND_Arg(v, "malloc,64m");
	VND_Start(v);
	cl = VND_Connect(v);
	get_ok(cl, "/malloc", HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Stop(v);
	VND_Free(&v);
	/* Named stores, Transient sized, objects spread over them. */
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-s");
	VND_Arg(v, "big=malloc,64m");
	VND_Arg(v, "-s");
	VND_Arg(v, "Transient=malloc,8m");
	VND_Start(v);
	cl = VND_Connect(v);
	get_ok(cl, "/named", HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Stop(v);
	VND_Free(&v);
	/* "default" is malloc, as in varnishd; -W picks the waiters' poll. */
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-s");
	VND_Arg(v, "default,32m");
	VND_Arg(v, "-s");
	VND_Arg(v, "Transient=default");
	VND_Arg(v, "-W");
	VND_Arg(v, "poll");
	VND_Start(v);
	cl = VND_Connect(v);
	get_ok(cl, "/default", HX_T_RESP);
	get_ok(cl, "/default2", HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Stop(v);
	VND_Finish(&v, &o);
}
END_TEST

/* Two stores of one name: refused, naming it. */
START_TEST(cmdline_storage_duplicate)
{
	char *err;
	struct vnd *v;
	int st;

	v = VND_New();
	st = VND_Exec(v, 1, HX_T_RESP, "-s", "a=malloc,1m", "-s",
	    "a=malloc,2m", NULL);
	err = VND_ExecErr(v);
	ck_assert_msg(st == 2, "two stores named a: exit status %d, want 2 "
	    "(stderr: %s)", st, err);
	ck_assert_msg(mentions(err, "already"), "stderr: %s", err);
	free(err);
	VND_Free(&v);
}
END_TEST

START_TEST(cmdline_daemon)
{
	char pidfile[4096], backend[64];
	struct origin *o;
	struct client *cl;
	struct vnd *v;
	pid_t pid;
	int st;

	o = ORIGIN_New(process_handler, NULL);
	v = VND_New();
	(void)snprintf(pidfile, sizeof pidfile, "%s/veneerd.pid", VND_Dir(v));
	(void)snprintf(backend, sizeof backend, "127.0.0.1:%d",
	    ORIGIN_Port(o));
	/* No -F: the launcher returns 0, the daemon goes on. */
	st = VND_Exec(v, 0, HX_T_SLOW, "-n", VND_Workdir(v), "-a",
	    "127.0.0.1:0", "-b", backend, "-j", "none", "-P", pidfile, NULL);
	ck_assert_msg(st == 0, "daemon launcher: exit status %d", st);
	pid = HX_WaitPidfile(pidfile, HX_T_RESP);
	ck_assert_msg(HX_ProcStart(pid) != 0, "the daemon (pid %ld in %s) "
	    "is not running", (long)pid, pidfile);
	VND_Adopt(v, pid);
	VND_WaitListen(v);
	cl = VND_Connect(v);
	get_ok(cl, "/daemon", HX_T_RESP);
	CLIENT_Free(&cl);
	VND_Stop(v);
	ck_assert_msg(access(pidfile, F_OK) != 0, "%s left behind", pidfile);
	VND_Finish(&v, &o);
}
END_TEST

/* Has the manager's log got this line yet?  Waits up to tmo. */
static int
log_has(struct vnd *v, const char *what, double tmo)
{
	double deadline = HX_Now() + tmo;
	char *log;
	int found;

	for (;;) {
		log = VND_Log(v);
		found = log != NULL && strstr(log, what) != NULL;
		free(log);
		if (found || HX_Now() >= deadline)
			return (found);
		(void)poll(NULL, 0, 20);
	}
}

/* auto_restart=off: a dead child is reported, not replaced. */
START_TEST(child_not_restarted_without_auto_restart)
{
	struct client *cl;
	struct origin *o;
	struct vnd *v;
	pid_t old;

	o = ORIGIN_New(process_handler, NULL);
	v = VND_Launch(ORIGIN_Port(o), "auto_restart=off", NULL);
	VND_ExpectChildDeath(v);
	cl = VND_Connect(v);
	get_ok(cl, "/up", HX_T_RESP);
	CLIENT_Free(&cl);
	old = VND_ChildPid(v);
	ck_assert_int_eq(kill(old, SIGKILL), 0);
	HX_WaitGone(old, HX_T_RESP);
	ck_assert_msg(log_has(v, "auto_restart is off", HX_T_RESP),
	    "the manager did not say why it did not restart the child");
	/* The manager is still there, with no child. */
	ck_assert_int_eq(kill(VND_Pid(v), 0), 0);
	ck_assert_msg(!log_has(v, "Restarting", 0.5),
	    "the child was restarted with auto_restart off");
	VND_Finish(&v, &o);
}
END_TEST

/* The start of /proc/PID/cmdline: the process title. */
static void
assert_title(pid_t pid, const char *want)
{
	char path[64], *buf;

	(void)snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
	buf = HX_ReadFile(path, NULL);
	ck_assert_msg(buf != NULL, "cannot read %s", path);
	ck_assert_msg(strncmp(buf, want, strlen(want)) == 0,
	    "pid %ld is titled \"%s\", want \"%s...\"", (long)pid, buf, want);
	free(buf);
}

/*
 * -j unix,user=nobody: the manager keeps root (it binds the sockets), the
 * child serves as nobody, and the process titles say which is which.
 */
START_TEST(child_drops_privileges)
{
	struct passwd *pw;
	struct client *cl;
	struct origin *o;
	struct vnd *v;
	struct stat st;
	char path[1024];
	uid_t nobody;

	pw = getpwnam("nobody");
	if (geteuid() != 0 || pw == NULL) {
		HX_Skip("child_drops_privileges: needs root and a user "
		    "nobody");
		return;
	}
	nobody = pw->pw_uid;
	o = ORIGIN_New(process_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-j");
	VND_Arg(v, "unix,user=nobody");
	VND_Start(v);
	cl = VND_Connect(v);
	get_ok(cl, "/as-nobody", HX_T_RESP);
	CLIENT_Free(&cl);
	ck_assert_int_eq(HX_ProcStatus(VND_ChildPid(v), "Uid"), (long)nobody);
	ck_assert_int_eq(HX_ProcStatus(VND_Pid(v), "Uid"), 0);
	/*
	 * The child keeps adding segments (a VCL's profile) as nobody: its
	 * shared-memory directory and index are its own.
	 */
	(void)snprintf(path, sizeof path, "%s/_.vsm_child", VND_Workdir(v));
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_msg(st.st_uid == nobody, "%s: uid %ld", path,
	    (long)st.st_uid);
	(void)snprintf(path, sizeof path, "%s/_.vsm_child/_.index",
	    VND_Workdir(v));
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_msg(st.st_uid == nobody, "%s: uid %ld", path,
	    (long)st.st_uid);
	assert_title(VND_Pid(v), "veneerd: manager");
	assert_title(VND_ChildPid(v), "veneerd: child");
	VND_Finish(&v, &o);
}
END_TEST

/*
 * The slices the child's threads named comm run with: how many have
 * slice ns and how many another.  -1 when /proc does not say (a kernel
 * without the scheduler's debug file).
 */
static int
slices(pid_t pid, const char *comm, long slice, int *other)
{
	char path[320], *buf, *p;
	struct dirent *de;
	int n = 0;
	DIR *d;

	*other = 0;
	(void)snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	d = opendir(path);
	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		(void)snprintf(path, sizeof path, "/proc/%ld/task/%s/comm",
		    (long)pid, de->d_name);
		buf = HX_ReadFile(path, NULL);
		if (buf == NULL)
			continue;	/* a thread that just retired */
		p = strchr(buf, '\n');
		if (p != NULL)
			*p = '\0';
		if (strcmp(buf, comm) != 0) {
			free(buf);
			continue;
		}
		free(buf);
		(void)snprintf(path, sizeof path, "/proc/%ld/task/%s/sched",
		    (long)pid, de->d_name);
		buf = HX_ReadFile(path, NULL);
		p = buf == NULL ? NULL : strstr(buf, "se.slice");
		if (p == NULL) {
			free(buf);
			(void)closedir(d);
			return (-1);
		}
		p = strchr(p, ':');
		ck_assert_ptr_nonnull(p);
		if (strtol(p + 1, NULL, 10) == slice)
			n++;
		else
			(*other)++;
		free(buf);
	}
	(void)closedir(d);
	return (n);
}

/*
 * thread_pool_slice: every worker asks the scheduler for that slice
 * (Linux 6.12 and later honour it); 0 leaves them the default, which
 * the acceptor thread has.
 */
/* A backend on a Unix socket for -b /path: one answer per connection. */
struct uds_origin {
	int		fd;
	unsigned	served;
	char		last[4096];	/* the last request's head */
};

static void *
uds_origin_run(void *priv)
{
	struct uds_origin *u = priv;
	static const char resp[] = "HTTP/1.1 200 OK\r\nContent-Length: 8\r\n"
	    "Connection: close\r\n\r\nover uds";
	char buf[4096];
	ssize_t n;
	int c;

	while ((c = accept(u->fd, NULL, NULL)) >= 0) {
		n = read(c, buf, sizeof buf - 1);
		buf[n > 0 ? n : 0] = '\0';
		(void)snprintf(u->last, sizeof u->last, "%s", buf);
		(void)write(c, resp, sizeof resp - 1);
		(void)close(c);
		__atomic_add_fetch(&u->served, 1, __ATOMIC_RELEASE);
	}
	return (NULL);
}

/*
 * The origin counts a request after its answer is written: the client
 * may have it first.  Wait (HX_T_RESP at most) for the count.
 */
static void
uds_wait_served(const struct uds_origin *u, unsigned n)
{
	double deadline = HX_Now() + HX_T_RESP;

	while (__atomic_load_n(&u->served, __ATOMIC_ACQUIRE) < n &&
	    HX_Now() < deadline)
		usleep(10000);
	ck_assert_uint_eq(__atomic_load_n(&u->served, __ATOMIC_ACQUIRE), n);
}

static int
uds_connect(const char *path)
{
	struct sockaddr_un sun;
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	ck_assert(strlen(path) < sizeof sun.sun_path);
	memcpy(sun.sun_path, path, strlen(path) + 1);
	ck_assert_msg(connect(fd, (struct sockaddr *)&sun, sizeof sun) == 0,
	    "connect %s: %s", path, strerror(errno));
	return (fd);
}

/*
 * -a /path: veneerd listens on a Unix domain socket (mode= applied,
 * _.listen and debug.listen_address say "/path -", the file goes at
 * exit); -b /path: its backend is one.
 */
START_TEST(unix_sockets)
{
	struct uds_origin u;
	struct sockaddr_un sun;
	char lpath[256], bpath[256], arg[300], buf[4096] = "", *log;
	struct stat st;
	pthread_t thr;
	struct vnd *v;
	ssize_t n;
	size_t len = 0;
	int fd;

	v = VND_New();
	(void)snprintf(bpath, sizeof bpath, "%s/be.sock", VND_Dir(v));
	(void)snprintf(lpath, sizeof lpath, "%s/v.sock", VND_Dir(v));
	memset(&u, 0, sizeof u);
	u.fd = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(u.fd, 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	ck_assert(strlen(bpath) < sizeof sun.sun_path);
	memcpy(sun.sun_path, bpath, strlen(bpath) + 1);
	ck_assert_int_eq(bind(u.fd, (struct sockaddr *)&sun, sizeof sun), 0);
	ck_assert_int_eq(listen(u.fd, 8), 0);
	ck_assert_int_eq(pthread_create(&thr, NULL, uds_origin_run, &u), 0);
	VND_Arg(v, "-b");
	VND_Arg(v, bpath);
	(void)snprintf(arg, sizeof arg, "%s,HTTP,mode=0660", lpath);
	VND_Listen(v, arg);
	VND_Start(v);
	ck_assert_str_eq(VND_Addr(v, 0), lpath);
	ck_assert_int_eq(stat(lpath, &st), 0);
	ck_assert(S_ISSOCK(st.st_mode));
	ck_assert_int_eq(st.st_mode & 0777, 0660);
	fd = uds_connect(lpath);
	{
		static const char req[] = "GET /u HTTP/1.1\r\nHost: x\r\n\r\n";

		ck_assert_int_eq(write(fd, req, sizeof req - 1),
		    (ssize_t)(sizeof req - 1));
	}
	while (len < sizeof buf - 1 && strstr(buf, "over uds") == NULL &&
	    (n = read(fd, buf + len, sizeof buf - 1 - len)) > 0) {
		len += (size_t)n;
		buf[len] = '\0';
	}
	buf[len] = '\0';
	ck_assert_msg(strncmp(buf, "HTTP/1.1 200 ", 13) == 0 &&
	    strstr(buf, "over uds") != NULL, "answer: %s", buf);
	(void)close(fd);
	uds_wait_served(&u, 1);
	/* Without a Host, the backend request gets 0.0.0.0, as varnishd's. */
	fd = uds_connect(lpath);
	{
		static const char req[] = "GET /h10 HTTP/1.0\r\n\r\n";

		ck_assert_int_eq(write(fd, req, sizeof req - 1),
		    (ssize_t)(sizeof req - 1));
	}
	len = 0;
	buf[0] = '\0';
	while (len < sizeof buf - 1 && strstr(buf, "over uds") == NULL &&
	    (n = read(fd, buf + len, sizeof buf - 1 - len)) > 0) {
		len += (size_t)n;
		buf[len] = '\0';
	}
	(void)close(fd);
	ck_assert_msg(strstr(buf, "over uds") != NULL, "answer: %s", buf);
	uds_wait_served(&u, 2);
	ck_assert_msg(strcasestr(u.last, "\r\nHost: 0.0.0.0\r\n") != NULL,
	    "the backend request: %s", u.last);
	/*
	 * A second veneerd on the same path is refused: it used to unlink
	 * the live socket and take the path over.
	 */
	{
		struct vnd *v2 = VND_New();
		char *err;
		int rc;

		rc = VND_Exec(v2, 0, HX_T_RESP, "-F", "-n", VND_Workdir(v2),
		    "-a", lpath, "-b", bpath, "-j", "none", NULL);
		err = VND_ExecErr(v2);
		ck_assert_msg(rc != 0 && strstr(err, "in use") != NULL,
		    "second -a %s: status %d: %s", lpath, rc, err);
		free(err);
		VND_Free(&v2);
		ck_assert_int_eq(stat(lpath, &st), 0);
		fd = uds_connect(lpath);
		(void)close(fd);
	}
	VND_Stop(v);
	ck_assert_int_eq(stat(lpath, &st), -1);
	log = VND_Log(v);
	ck_assert_msg(strstr(log, "Listen a0 ") != NULL, "%s", log);
	free(log);
	(void)shutdown(u.fd, SHUT_RDWR);
	(void)close(u.fd);
	ck_assert_int_eq(pthread_join(thr, NULL), 0);
	VND_Free(&v);
}
END_TEST

START_TEST(worker_slice)
{
	struct utsname u;
	struct client *cl;
	struct origin *o;
	struct vnd *v;
	int n, other, major = 0, minor = 0;

	ck_assert_int_eq(uname(&u), 0);
	if (sscanf(u.release, "%d.%d", &major, &minor) != 2 ||
	    major * 1000 + minor < 6012) {
		HX_Skip("worker_slice: Linux before 6.12 has no slice to ask");
		return;
	}
	o = ORIGIN_New(process_handler, NULL);
	v = VND_New();
	VND_Backend(v, ORIGIN_Port(o));
	VND_Arg(v, "-p");
	VND_Arg(v, "thread_pool_slice=0.0007");
	VND_Start(v);
	cl = VND_Connect(v);
	get_ok(cl, "/slice", HX_T_RESP);
	CLIENT_Free(&cl);
	n = slices(VND_ChildPid(v), "cache-worker", 700000, &other);
	if (n < 0) {
		HX_Skip("worker_slice: no /proc/PID/task/TID/sched");
		VND_Finish(&v, &o);
		return;
	}
	ck_assert_msg(n > 0 && other == 0,
	    "%d workers with a 0.7 ms slice, %d with another", n, other);
	/* The acceptor is no worker: the kernel's default, not ours. */
	n = slices(VND_ChildPid(v), "cache-acceptor", 700000, &other);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(other, 1);
	VND_Finish(&v, &o);
}
END_TEST

static Suite *
process_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("process");
	tc = tcase_create("child");
	tcase_set_timeout(tc, 25);
	tcase_add_test(tc, child_kill9_recovers);
	tcase_add_test(tc, child_stopped_is_replaced);
	tcase_add_test(tc, child_drops_privileges);
	tcase_add_test(tc, child_not_restarted_without_auto_restart);
	tcase_add_test(tc, worker_slice);
	suite_add_tcase(s, tc);

	tc = tcase_create("shutdown");
	tcase_set_timeout(tc, 15);
	tcase_add_test(tc, sigterm_finishes_in_flight);
	tcase_add_test(tc, sigint_finishes_in_flight);
	tcase_add_test(tc, pidfile_second_instance);
	suite_add_tcase(s, tc);

	tc = tcase_create("cmdline");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, cmdline_errors);
	tcase_add_test(tc, cmdline_version_help);
	tcase_add_test(tc, cmdline_storage);
	tcase_add_test(tc, cmdline_storage_duplicate);
	tcase_add_test(tc, cmdline_daemon);
	tcase_add_test(tc, unix_sockets);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{

	return (HX_Run(process_suite()));
}

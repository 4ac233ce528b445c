/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_main.c -- veneerd's main(): options (varnishd's), set-up in the
 * order that lets every error reach the terminal (workdir, pid file,
 * sockets, then daemonize), the manager's event loop, orderly shutdown.
 */

#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <syslog.h>
#include <unistd.h>

#include <bsd/unistd.h>
#include <ev.h>

#include "common/miniobj.h"
#include "common/num.h"
#include "common/param.h"
#include "cache/vsc.h"
#include "cache/vsl.h"
#include "mgt/mgt.h"
#include "mgt/mgt_cli.h"
#include "vcc/vcc.h"

unsigned mgt_foreground;
static unsigned mgt_debug;		/* -d */
static unsigned mgt_ev_backend;		/* -W */
static unsigned mgt_no_vcl;		/* -f '': start from the CLI */
static unsigned mgt_use_syslog;
static struct child_args mgt_child_args;
static char mgt_hostname[256];

void
MGT_Log(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (mgt_use_syslog) {
		vsyslog(prio, fmt, ap);
	} else {
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		fflush(stderr);
	}
	va_end(ap);
}

void
MGT_Usage(const char *fmt, ...)
{
	va_list ap;

	fputs("veneerd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n", stderr);
	MGT_PidfileRemove();
	exit(2);
}

void
MGT_Fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (mgt_use_syslog) {
		vsyslog(LOG_ERR, fmt, ap);
	} else {
		fputs("veneerd: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputs("\n", stderr);
	}
	va_end(ap);
	MGT_PidfileRemove();
	exit(1);
}

static void
mgt_usage(void)
{

	printf(
"Usage: veneerd [options]\n"
"  -a [name=][address][:port][,HTTP]  Listen here (repeatable; default :80;\n"
"                                     port 0 picks a free port)\n"
"  -b host[:port]                     The backend (IPv4, IPv6 in [], name),\n"
"                                     with the builtin policy; or:\n"
"  -f file.vcl                        The VCL to run (see veneer-vcl(7));\n"
"                                     -f '' for none until the CLI loads one\n"
"  -C                                 Print the C the VCL compiles to, exit\n"
"  -d                                 Debug: in the foreground with a CLI on\n"
"                                     stdin; the child starts on \"start\";\n"
"                                     end of input stops veneerd\n"
"  -F                                 Run in the foreground\n"
"  -h                                 This help\n"
"  -h critbit|simple_list|classic     Accepted, as varnishd's hash choice\n"
"  -i identity                        server.identity (default: the host\n"
"                                     name)\n"
"  -j unix[,user=NAME] | none         The child's user (default when root:\n"
"                                     veneer if it exists, else nobody)\n"
"  -l size                            The shared log's size (vsl_space)\n"
"  -M \"address port\"                 Connect to a waiting CLI client\n"
"  -n dir                             Working directory (default\n"
"                                     %s/default)\n"
"  -P file                            Pid file\n"
"  -p name=value                      Set a parameter (repeatable;\n"
"                                     veneerd -x params lists them)\n"
"  -r name[,name...]                  Parameters the CLI may not change\n"
"  -S file | none                     The admin CLI's secret file (default:\n"
"                                     a new random one, WORKDIR/_.secret)\n"
"  -s [name=]malloc[,size]            Storage (default malloc,256M;\n"
"                                     default is malloc)\n"
"  -T address:port | none             Admin CLI socket (repeatable; default\n"
"                                     localhost:0, a free port)\n"
"  -t ttl                             Shorthand for -p default_ttl=ttl\n"
"  -V                                 Version\n"
"  -W epoll|poll                      How idle connections are waited on\n"
"                                     (default: the best there is)\n"
"  -x params|counters|tags|vcl|cli    Print a table as man page source\n",
	    VENEER_STATE_DIR);
}

static void
mgt_version(void)
{

	printf("veneerd (veneer-%s)\n"
	    "Copyright (c) 2026, The Veneer authors\n", PACKAGE_VERSION);
}

/* -l vsl[,vsm]: the shared log's size, as varnishd takes it. */
static void
mgt_l_arg(const char *arg)
{
	char buf[64], err[256];

	if (strlen(arg) >= sizeof buf)
		MGT_Usage("-l %s: too long", arg);
	(void)snprintf(buf, sizeof buf, "%.*s", (int)strcspn(arg, ","), arg);
	if (PARAM_Set("vsl_space", buf, err, sizeof err) != 0)
		MGT_Usage("-l %s", err);
}

static void
mgt_param_arg(const char *arg)
{
	/* Room for the list of bit names an unknown one gets. */
	char name[128], err[512];
	const char *eq;

	eq = strchr(arg, '=');
	if (eq == NULL || eq == arg || (size_t)(eq - arg) >= sizeof name)
		MGT_Usage("-p %s: expected name=value", arg);
	(void)snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
	if (PARAM_Set(name, eq + 1, err, sizeof err) != 0)
		MGT_Usage("-p %s", err);
}

/*
 * -s [name=]malloc[,size]: a store.  Unnamed ones are s0, s1... as in
 * varnishd; "Transient" sizes the store of uncacheable and short-lived
 * objects (when not given, the child makes it a tenth of the others, at
 * least 32M; given without a size, unlimited).  No size: 256M.
 */
static struct storage_arg mgt_stores[CHILD_MAX_STORES];
static unsigned mgt_nstores;

static void
mgt_storage_arg(const char *arg)
{
	struct storage_arg *sa;
	const char *p, *type, *err;
	uint64_t size = 256 * 1024 * 1024;
	size_t nl, tl;
	unsigned u;

	if (mgt_nstores == CHILD_MAX_STORES)
		MGT_Usage("-s %s: too many stores (at most %d)", arg,
		    CHILD_MAX_STORES);
	sa = &mgt_stores[mgt_nstores];
	p = strchr(arg, '=');
	if (p != NULL && p < arg + strcspn(arg, ",")) {
		type = p + 1;
		nl = (size_t)(p - arg);
		if (nl == 0 || nl >= sizeof sa->name ||
		    strspn(arg, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") < nl)
			MGT_Usage("-s %s: a store name is 1 to %zu letters, "
			    "digits, '-' or '_'", arg, sizeof sa->name - 1);
		(void)snprintf(sa->name, sizeof sa->name, "%.*s", (int)nl,
		    arg);
	} else {
		type = arg;
		(void)snprintf(sa->name, sizeof sa->name, "s%u",
		    mgt_nstores);
	}
	for (u = 0; u < mgt_nstores; u++)
		if (!strcmp(mgt_stores[u].name, sa->name))
			MGT_Usage("-s %s: there is already a store named %s",
			    arg, sa->name);
	if (!strncmp(type, "file", 4) && (type[4] == '\0' || type[4] == ','))
		MGT_Usage("-s %s: file storage is not supported yet; use "
		    "malloc", arg);
	/* "default" is malloc, as in varnishd on Linux. */
	tl = strcspn(type, ",");
	if (!(tl == 6 && !strncmp(type, "malloc", tl)) &&
	    !(tl == 7 && !strncmp(type, "default", tl)))
		MGT_Usage("-s %s: unknown storage type (use malloc)", arg);
	if (type[tl] == ',') {
		err = NUM_ParseBytes(type + tl + 1, &size);
		if (err != NULL)
			MGT_Usage("-s %s: size: %s", arg, err);
		if (size < 1024 * 1024)
			MGT_Usage("-s %s: size below the minimum (1M)", arg);
	} else if (!strcmp(sa->name, "Transient")) {
		size = 0;
	}
	sa->size = size;
	mgt_nstores++;
}

/*
 * -h critbit|simple_list|classic[,buckets]: varnishd's choice of hash
 * index.  veneerd has one, sharded and lock-striped, which serves every
 * workload those serve; the names are accepted so varnishd command lines
 * run, and checked so a typo still stops.
 */
static void
mgt_h_arg(const char *arg)
{
	const char *err;
	unsigned n;

	if (!strcmp(arg, "critbit") || !strcmp(arg, "simple_list") ||
	    !strcmp(arg, "classic"))
		return;
	if (!strncmp(arg, "classic,", 8)) {
		err = NUM_ParseUint(arg + 8, &n);
		if (err != NULL || n == 0)
			MGT_Usage("-h %s: the buckets are a count above 0",
			    arg);
		return;
	}
	MGT_Usage("-h %s: unknown hash (critbit, simple_list or "
	    "classic[,buckets]; veneerd's own serves them all)", arg);
}

/* -W epoll|poll: the waiters' event mechanism, as varnishd's waiters. */
static void
mgt_W_arg(const char *arg)
{
	unsigned want;

	if (!strcmp(arg, "epoll"))
		want = EVBACKEND_EPOLL;
	else if (!strcmp(arg, "poll"))
		want = EVBACKEND_POLL;
	else
		MGT_Usage("-W %s: unknown waiter (epoll or poll)", arg);
	if ((ev_supported_backends() & want) == 0)
		MGT_Usage("-W %s: not available on this system", arg);
	mgt_ev_backend = want;
}

static void
mgt_dump(const char *what)
{

	if (!strcmp(what, "params"))
		PARAM_DumpRoff();
	else if (!strcmp(what, "counters"))
		VSC_DumpRoff();
	else if (!strcmp(what, "tags"))
		VSL_DumpRoff();
	else if (!strcmp(what, "vcl"))
		VCC_DumpRoff();
	else if (!strcmp(what, "cli"))
		MCLI_DumpRoff();
	else
		MGT_Usage("-x %s: unknown (params, counters, tags, vcl or cli)",
		    what);
	exit(0);
}

unsigned
MGT_Stores(const char **names, uint64_t *sizes, unsigned max)
{
	unsigned u;

	for (u = 0; u < mgt_nstores && u < max; u++) {
		names[u] = mgt_stores[u].name;
		sizes[u] = mgt_stores[u].size;
	}
	return (u);
}

int
MGT_Jailed(void)
{

	return (mgt_child_args.drop_privs != 0);
}

int
MGT_ParamCheck(const char *name, const char *old, char *err, size_t errlen)
{
	char canon[PARAM_STRING_MAX];

	/* varnishd's limit, so scripts meet the same refusal. */
	if (!strcmp(name, "thread_pool_reserve") &&
	    cache_param->thread_pool_reserve >
	    cache_param->thread_pool_min / 20 * 19 +
	    cache_param->thread_pool_min % 20 * 19 / 20) {
		(void)snprintf(err, errlen, "thread_pool_reserve: %u is above "
		    "95%% of thread_pool_min (%u)",
		    cache_param->thread_pool_reserve,
		    cache_param->thread_pool_min);
		return (-1);
	}
	/* "+Tag" and "-Tag" change the mask so far, as with varnishd. */
	if (!strcmp(name, "vsl_mask")) {
		if (VSL_MaskCanon(old != NULL ? old : "none",
		    cache_param->vsl_mask.s, canon,
		    sizeof canon, err, errlen) != 0)
			return (-1);
		return (PARAM_Set(name, canon, err, errlen));
	}
	return (0);
}

void
MGT_Stop(void)
{
	static unsigned stopping;

	if (stopping++)
		return;
	MGT_ListenClose(&mgt_child_args);
	MGT_CliClose();
	MGT_ChildStop();
	ev_break(EV_DEFAULT_UC, EVBREAK_ALL);
}

static void
mgt_sigterm_cb(struct ev_loop *loop, ev_signal *w, int revents)
{

	(void)loop;
	(void)revents;
	MGT_Log(LOG_NOTICE, "Manager got %s, shutting down",
	    w->signum == SIGINT ? "SIGINT" : "SIGTERM");
	MGT_Stop();
}

static void
mgt_sighup_cb(struct ev_loop *loop, ev_signal *w, int revents)
{

	(void)loop;
	(void)w;
	(void)revents;
	MGT_Log(LOG_NOTICE, "Manager got SIGHUP, ignored");
}

/* Idle keep-alive connections need file descriptors; ask for them all. */
static void
mgt_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void
mgt_loop(void)
{
	struct ev_loop *loop = EV_DEFAULT;
	ev_signal sigterm_w, sigint_w, sighup_w;

	ev_signal_init(&sigterm_w, mgt_sigterm_cb, SIGTERM);
	ev_signal_init(&sigint_w, mgt_sigterm_cb, SIGINT);
	ev_signal_init(&sighup_w, mgt_sighup_cb, SIGHUP);
	ev_signal_start(loop, &sigterm_w);
	ev_signal_start(loop, &sigint_w);
	ev_signal_start(loop, &sighup_w);
	MGT_CliStart();
	/* -d, -f '': the child starts when the CLI says start. */
	if (!mgt_debug && !mgt_no_vcl)
		MGT_ChildStart();
	/* Now that it serves: scripts that wait for _.listen can go. */
	MGT_ListenReport(&mgt_child_args);
	ev_run(loop, 0);
}

#if HAVE_JEMALLOC
/*
 * jemalloc's defaults, read when it starts (MALLOC_CONF in the
 * environment still overrides them).  Each thread keeps up to 200 freed
 * blocks of every small size for itself; over a cache child's hundreds
 * of threads that is megabytes that no store counts, and -s is a promise
 * about resident memory.  20 keep the fast path as fast for the few
 * blocks a request needs.
 */
const char *malloc_conf = "tcache_nslots_small_max:20,tcache_nslots_large:4";
#endif

int
main(int argc, char **argv, char **envp)
{
	const char *n_arg = NULL, *b_arg = NULL, *P_arg = NULL;
	const char *j_arg = NULL, *x_arg = NULL, *f_arg = NULL;
	const char *i_arg = NULL;
	int C_flag = 0;
	char vsl_mask[PARAM_STRING_MAX], err[256];
	int o;

	setproctitle_init(argc, argv, envp);
	PARAM_Init();
	opterr = 0;
	while ((o = getopt(argc, argv, ":a:b:CdFf:h:i:j:l:M:n:P:p:r:S:s:T:t:VW:x:")) != -1) {
		switch (o) {
		case 'a': MGT_ListenArg(optarg); break;
		case 'b': b_arg = optarg; break;
		case 'C': C_flag = 1; break;
		case 'd':
			mgt_debug = 1;
			mgt_foreground = 1;
			MGT_CliDebug();
			break;
		case 'F': mgt_foreground = 1; break;
		case 'f':
			if (f_arg != NULL)
				MGT_Usage("-f given twice; include one VCL "
				    "from the other instead");
			f_arg = optarg;
			break;
		case 'h':
			/* -h alone (or before another option) is help. */
			if (*optarg == '-') {
				mgt_usage();
				exit(0);
			}
			mgt_h_arg(optarg);
			break;
		case 'i':
			if (*optarg == '\0' || strlen(optarg) > 255)
				MGT_Usage("-i %s: the identity is 1 to 255 "
				    "characters", optarg);
			i_arg = optarg;
			break;
		case 'j': j_arg = optarg; break;
		case 'l': mgt_l_arg(optarg); break;
		case 'M': MGT_CliArgM(optarg); break;
		case 'n': n_arg = optarg; break;
		case 'P': P_arg = optarg; break;
		case 'p': mgt_param_arg(optarg); break;
		case 'r':
			if (MGT_ParamProtect(optarg, err, sizeof err) != 0)
				MGT_Usage("-r %s: %s", optarg, err);
			break;
		case 's': mgt_storage_arg(optarg); break;
		case 't':
			if (PARAM_Set("default_ttl", optarg, err,
			    sizeof err) != 0)
				MGT_Usage("-t %s", err);
			break;
		case 'S': MGT_CliArgS(optarg); break;
		case 'T': MGT_CliArgT(optarg); break;
		case 'V': mgt_version(); exit(0);
		case 'W': mgt_W_arg(optarg); break;
		case 'x': x_arg = optarg; break;
		case ':':
			if (optopt == 'h') {
				mgt_usage();
				exit(0);
			}
			MGT_Usage("option -%c needs an argument; see veneerd "
			    "-h", optopt);
		default:
			if (strchr("IL", optopt) != NULL)
				MGT_Usage("option -%c is not supported yet; "
				    "see veneerd -h", optopt);
			MGT_Usage("unknown option -%c; see veneerd -h",
			    optopt);
		}
	}
	if (optind < argc)
		MGT_Usage("unexpected argument \"%s\"; see veneerd -h",
		    argv[optind]);
	if (x_arg != NULL)
		mgt_dump(x_arg);
	if (b_arg != NULL && f_arg != NULL)
		MGT_Usage("-b and -f cannot be used together: -b host:port "
		    "stands for a VCL with that one backend; declare it in "
		    "the VCL instead");
	/*
	 * No VCL to start with: -d (the CLI loads one, then start) or -f ''
	 * (the same from the admin socket), as with varnishd.
	 */
	if (f_arg != NULL && *f_arg == '\0') {
		f_arg = NULL;
		mgt_no_vcl = 1;
	}
	if (b_arg == NULL && f_arg == NULL && !mgt_debug && !mgt_no_vcl)
		MGT_Usage("no VCL: give -f file.vcl, or -b host:port for the "
		    "builtin policy in front of one backend (or -f '' to "
		    "load one through the CLI before start)");
	if (PARAM_Check(err, sizeof err) != 0)
		MGT_Usage("%s", err);
	/* Before anything starts: a broken VCL stops here, status 2. */
	if (b_arg != NULL || f_arg != NULL)
		MGT_VclCompile(f_arg, b_arg, C_flag);
	else if (C_flag)
		MGT_Usage("-C needs a VCL: give -f file.vcl or -b host:port");
	/* -p vsl_mask=+Tag changes the default mask. */
	if (VSL_MaskCanon(PARAM_Lookup("vsl_mask")->def,
	    cache_param->vsl_mask.s, vsl_mask, sizeof vsl_mask, err,
	    sizeof err) != 0 ||
	    PARAM_Set("vsl_mask", vsl_mask, err, sizeof err) != 0)
		MGT_Usage("-p %s", err);

	INIT_OBJ(&mgt_child_args, CHILD_ARGS_MAGIC);
	mgt_child_args.identity = i_arg;
	memcpy(mgt_child_args.stores, mgt_stores, sizeof mgt_stores);
	mgt_child_args.nstores = mgt_nstores;
	mgt_child_args.ev_backend = mgt_ev_backend;
	MGT_Jail(j_arg, &mgt_child_args);
	if (gethostname(mgt_hostname, sizeof mgt_hostname) != 0 ||
	    mgt_hostname[0] == '\0')
		(void)snprintf(mgt_hostname, sizeof mgt_hostname, "veneer");
	mgt_child_args.hostname = mgt_hostname;
	mgt_raise_nofile();
	mgt_child_args.workdir = MGT_Workdir(n_arg);
	MGT_VclBuild(&mgt_child_args);
	if (P_arg != NULL)
		MGT_PidfileOpen(P_arg);
	MGT_ListenOpen(&mgt_child_args);
	MGT_CliOpen(mgt_child_args.workdir);
	MGT_ChildInit(&mgt_child_args);
	if (!mgt_foreground) {
		if (daemon(0, 0) != 0)
			MGT_Fatal("cannot become a daemon: %s",
			    strerror(errno));
		openlog("veneerd", LOG_PID, LOG_DAEMON);
		mgt_use_syslog = 1;
	}
	MGT_PidfileWrite();
	MGT_VscInit(mgt_child_args.workdir);
	/* The identity, where varnishtop and varnishhist look for it. */
	MGT_VsmArg("-i", i_arg != NULL ? i_arg : mgt_hostname);
	setproctitle("manager -n %s", mgt_child_args.workdir);
	signal(SIGPIPE, SIG_IGN);
	mgt_loop();
	MGT_VscFini();
	MGT_VclFini();
	MGT_PidfileRemove();
	MGT_Log(LOG_NOTICE, "Manager stopped");
	return (MGT_ExitStatus());
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt.h -- the manager process: options, workdir, listen sockets, the
 * child's supervision.  The manager is single-threaded (one libev loop).
 */

#ifndef VENEER_MGT_H
#define VENEER_MGT_H

#include <stdarg.h>
#include <stdint.h>
#include <syslog.h>

#include "cache/child.h"

/* mgt_main.c */
extern unsigned mgt_foreground;
void MGT_Log(int prio, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));
/* A one-line usage error and exit status 2. */
void MGT_Usage(const char *fmt, ...)
    __attribute__((__format__(__printf__, 1, 2), __noreturn__));
/* A one-line runtime error and exit status 1. */
void MGT_Fatal(const char *fmt, ...)
    __attribute__((__format__(__printf__, 1, 2), __noreturn__));

/* Is the child jailed (-j unix)? For the CLI's banner. */
int MGT_Jailed(void);
/*
 * Checks a parameter's new value needs beyond its type and limits (a
 * vsl_mask that parses); 0, or -1 with err.  old: the value before (NULL:
 * a reset).  A vsl_mask is applied to the old mask and stored as the
 * resulting list of masked tags.
 */
int MGT_ParamCheck(const char *name, const char *old, char *err,
    size_t errlen);

/* mgt_listen.c */
void MGT_ListenArg(const char *arg);
/* Bind everything asked for (or the default -a :80); exits on error. */
void MGT_ListenOpen(struct child_args *ca);
/* Write WORKDIR/_.listen and, in the foreground, "Listen ..." lines. */
void MGT_ListenReport(const struct child_args *ca);
void MGT_ListenClose(struct child_args *ca);
struct mcli_buf;
/* "name address port" a line per -a socket (debug.listen_address). */
void MGT_ListenDescribe(struct mcli_buf *b);

/* mgt_workdir.c */
/* The absolute workdir for -n arg (NULL: the default); created. */
char *MGT_Workdir(const char *arg);
void MGT_PidfileOpen(const char *path);
void MGT_PidfileWrite(void);
void MGT_PidfileClose(void);
void MGT_PidfileRemove(void);
/* -j: which user the child runs as. */
void MGT_Jail(const char *arg, struct child_args *ca);
void MGT_BackendArg(const char *arg, struct backend_arg *ba);

/* mgt_vsc.c: the manager's counters (MGT.*) */
struct vsc_mgt {
#define VSC_FIELD(n, t, l, f, d)	uint64_t n;
#include "vsc_mgt_fields.h"
};
extern struct vsc_mgt *VSC_C_mgt;
void MGT_VscInit(const char *workdir);
/* An "Arg" segment (ident -T, -S...) holding text, for varnishadm -n. */
void MGT_VsmArg(const char *ident, const char *text);
void MGT_VscFini(void);

/* mgt_vcl.c */
/*
 * Compile the boot VCL: the file f_arg, or the backend b_arg stands for.
 * Errors go to stderr and exit status 2; with print_c, the C goes to
 * stdout and veneerd exits 0.
 */
void MGT_VclCompile(const char *f_arg, const char *b_arg, int print_c);
/* Build it into a shared object in the workdir for the child; exit 2. */
void MGT_VclBuild(struct child_args *ca);
/* Remove every VCL's build directory (at exit). */
void MGT_VclFini(void);
/*
 * A new child: load into it the VCLs the CLI loaded, use the active one;
 * the start command for it.
 */
const char *MGT_VclChildPrep(void);
int MGT_VclAvailable(void);
/* -r: parameters the CLI may not change; 0 or -1 with err. */
int MGT_ParamProtect(const char *list, char *err, size_t errlen);

/* mgt_child.c */
void MGT_ChildInit(struct child_args *ca);
/* Start the child; exits if the first start fails. */
void MGT_ChildStart(void);
/* SIGTERM/SIGINT: drain and stop the child, then return. */
void MGT_ChildStop(void);
/* The CLI's start and stop; the manager carries on either way. */
int MGT_ChildStartCli(void);
void MGT_ChildStopCli(void);
int MGT_ChildRunning(void);
/* What veneerd exits with: varnishd's bits for how children ended. */
int MGT_ExitStatus(void);
/* The child's pid, or -1. */
long MGT_ChildPid(void);
/* The last child panic's message and time, or NULL (panic.show). */
const char *MGT_ChildPanic(double *when);
/* Forget it; zero_counter also zeroes MGT.child_panic (panic.clear -z). */
void MGT_ChildPanicClear(int zero_counter);
/* The -s stores: name and size (0: no limit), for storage.list. */
unsigned MGT_Stores(const char **names, uint64_t *sizes, unsigned max);
/*
 * A command for the child, answered within cli_timeout: its status (and
 * *body, malloc'ed), CLIS_CANT when there is no child, or CLIS_COMMS.
 */
unsigned MGT_ChildAsk(const char *cmd, char **body);

/* mgt_cli.c: the admin CLI (-T, -S, -M) */
void MGT_CliArgT(const char *arg);
void MGT_CliArgS(const char *arg);
/* -M: a CLI client waiting at "address port" to be connected to. */
void MGT_CliArgM(const char *arg);
/* -d: a CLI session on standard input and output; its end stops veneerd. */
void MGT_CliDebug(void);
/* Stop everything and leave the manager's loop (SIGTERM, -d's EOF). */
void MGT_Stop(void);
/* Open the -T sockets (exits on error); before the fork. */
void MGT_CliOpen(const char *workdir);
/* Watch them on the manager's loop; publish -T and -S for varnishadm. */
void MGT_CliStart(void);
void MGT_CliClose(void);

#endif /* VENEER_MGT_H */

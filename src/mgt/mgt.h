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

/* mgt_listen.c */
void MGT_ListenArg(const char *arg);
/* Bind everything asked for (or the default -a :80); exits on error. */
void MGT_ListenOpen(struct child_args *ca);
/* Write WORKDIR/_.listen and, in the foreground, "Listen ..." lines. */
void MGT_ListenReport(const struct child_args *ca);
void MGT_ListenClose(struct child_args *ca);

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

/* mgt_child.c */
void MGT_ChildInit(struct child_args *ca);
/* Start the child; exits if the first start fails. */
void MGT_ChildStart(void);
/* SIGTERM/SIGINT: drain and stop the child, then return. */
void MGT_ChildStop(void);

#endif /* VENEER_MGT_H */

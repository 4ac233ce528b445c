/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vlt.h -- what veneerlog and veneerncsa share: the options both take
 * (-n -t -d -r -q -g -c -b -D -P -h -V), the reading loop over the live
 * log or a file with its attach, overrun and reattach messages, signals
 * (SIGHUP, SIGTERM, SIGINT), daemonizing and the pid file.
 */

#ifndef VENEER_TOOLS_VLT_H
#define VENEER_TOOLS_VLT_H

#include <signal.h>
#include <stdio.h>

#include "vapi.h"

#define VLT_PRINTFLIKE(f, a)	__attribute__((__format__(__printf__, f, a)))

/* Output hooks return 0, or VLT_STOP to end the tool (exit status 1). */
#define VLT_STOP		2

/* Each group that passed -q. */
typedef int vlt_group_f(void *priv, struct vapi_tx * const *txs,
    unsigned ntx);
/* SIGHUP: reopen the output. */
typedef int vlt_reopen_f(void *priv);
/* Idle (nothing to read for now) and at the end: flush the output. */
typedef int vlt_flush_f(void *priv);

struct vlt {
	unsigned		magic;
#define VLT_MAGIC		0x4a7e20d3
	const char		*prog;		/* "veneerlog" */

	/* Options. */
	const char		*n_arg;
	double			t_arg;		/* < 0: wait forever */
	int			d_arg;
	const char		*r_arg;
	enum vapi_grouping	grouping;
	int			c_arg;
	int			b_arg;
	int			D_arg;
	const char		*P_arg;
	char			*q_text;	/* -q's, one per line */
	struct vapi_query	*query;

	/* The output's hooks. */
	vlt_group_f		*group;
	vlt_reopen_f		*reopen;
	vlt_flush_f		*flush;
	void			*priv;

	/* Running. */
	struct vapi		*vd;
	struct vapi_cursor	*cursor;
	struct vapi_dispatch	*dispatch;
	struct pidfh		*pfh;
	unsigned		lost;		/* log lost, say when back */
};

void	VLT_Init(struct vlt *, const char *prog);
/*
 * Take one option common to both tools: 1 if it was one, 0 if not, and
 * exit(1) with a message if its argument is bad.
 */
int	VLT_Option(struct vlt *, int opt, const char *arg);
/* After the options: compile -q, check combinations; exit(1) if bad. */
void	VLT_Setup(struct vlt *);
/* Daemonize (-D) and write the pid file (-P); exit(1) on failure. */
void	VLT_Daemon(struct vlt *);
/* Read and dispatch until the end (-d, -r) or a signal: exit status. */
int	VLT_Main(struct vlt *);
void	VLT_Fini(struct vlt *);

/* Print a message prefixed with the program name, to stderr. */
void	VLT_Err(const struct vlt *, const char *fmt, ...) VLT_PRINTFLIKE(2, 3);
/* Same, then exit(1). */
void	VLT_Fail(const struct vlt *, const char *fmt, ...)
	    VLT_PRINTFLIKE(2, 3) __attribute__((__noreturn__));
/* "veneerlog (veneer 0.1.0)" and exit(0). */
void	VLT_Version(const struct vlt *) __attribute__((__noreturn__));

/* The help lines of the common options, for usage(). */
extern const char VLT_Usage_Common[];

#endif /* VENEER_TOOLS_VLT_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneerstat.h -- what the parts of veneerstat share: the one-shot
 * outputs and options live in veneerstat.c, the Prometheus text in
 * veneerstat_prom.c, the curses screen in veneerstat_curses.c, the VCL
 * profile's rows in veneerstat_cost.c.
 */

#ifndef VENEER_VENEERSTAT_H
#define VENEER_VENEERSTAT_H

#include <stdint.h>
#include <stdio.h>

struct vapi;
struct vapi_counter;

/* Exit statuses. */
#define VSTAT_EXIT_OK		0
#define VSTAT_EXIT_DAEMON	1	/* no veneerd, or output failed */
#define VSTAT_EXIT_USAGE	2

/* varnishstat's letters: type c/g/b, format i/B/d/b; '?' if unknown. */
char VSTAT_Flag(const struct vapi_counter *c);
char VSTAT_Format(const struct vapi_counter *c);
/*
 * The value as shown: a gauge that went below zero (>= 2^63 as
 * uint64_t) shows as 0, as varnishstat does without -r.
 */
uint64_t VSTAT_Value(const struct vapi_counter *c);

/* The -p output; 0, or -1 if writing failed. */
int VSTAT_Prometheus(struct vapi *vd, FILE *fo);
/*
 * The VCL profile (VCLP counters), one row per method, condition or call:
 * conditions and calls costliest (most ns) first, then the methods the
 * same way; *rowsp to free with VSTAT_CostFree.
 */
struct vstat_cost {
	char			*key;		/* "VCLP.boot.vcl_recv.014" */
	char			*where;		/* "t.vcl:5:6 if (...) in ..." */
	uint64_t		runs;
	uint64_t		trues;
	uint64_t		ns;
	int			cond;		/* trues means something */
	int			method;		/* a whole method: listed last */
};
unsigned VSTAT_Cost(struct vapi *vd, struct vstat_cost **rowsp);
void VSTAT_CostFree(struct vstat_cost *rows, unsigned n);

/* The screen until 'q'; an exit status. */
int VSTAT_Curses(struct vapi *vd);

#endif /* VENEER_VENEERSTAT_H */

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc.c -- publishing the child's counters (MAIN.*) in shared memory, in
 * the Varnish 7.1 layout (src/vsm/vscw.c).  Values only ever change by
 * atomic adds, so there is no lock.
 */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/vsc.h"
#include "vsm/vscw.h"

static const struct vscw_desc vsc_desc[] = {
#define VSC_FIELD(n, t, l, d)						\
	{ #n, #t[0] == 'C' ? "counter" : "gauge",			\
	    #l[0] == 'I' ? "info" : #l[1] == 'I' ? "diag" : "debug",	\
	    NULL, d },
#include "vsc_fields.h"
};

static struct vsc_main vsc_dummy;
struct vsc_main *VSC_C_main = &vsc_dummy;
static vtim_mono vsc_t0;

#define VSC_NFIELDS	(sizeof(struct vsc_main) / sizeof(uint64_t))

int
VSC_Init(struct vsmw *vsmw, char *err, size_t errlen)
{
	struct vscw_desc desc[VSC_NFIELDS];
	unsigned u;
	uint64_t *p;

	assert(sizeof vsc_desc / sizeof vsc_desc[0] == VSC_NFIELDS);
	vsc_t0 = TIM_mono();
	memcpy(desc, vsc_desc, sizeof desc);
	for (u = 0; u < VSC_NFIELDS; u++)
		desc[u].format = VSCW_Format(desc[u].name);
	p = VSCW_New(vsmw, "MAIN", "main", "Main counters", desc,
	    VSC_NFIELDS);
	if (p == NULL) {
		(void)snprintf(err, errlen, "cannot create the counters "
		    "segment (disk full?)");
		return (-1);
	}
	VSC_C_main = (struct vsc_main *)(void *)p;
	return (0);
}

void
VSC_Flush(struct vsc_main *local)
{
	uint64_t *l = (uint64_t *)(void *)local;
	uint64_t *g = (uint64_t *)(void *)VSC_C_main;
	size_t u;

	for (u = 0; u < VSC_NFIELDS; u++) {
		if (l[u] == 0)
			continue;
		(void)__atomic_add_fetch(&g[u], l[u], __ATOMIC_RELAXED);
		l[u] = 0;
	}
}

void
VSC_Tick(void)
{

	__atomic_store_n(&VSC_C_main->uptime,
	    (uint64_t)(TIM_mono() - vsc_t0), __ATOMIC_RELAXED);
}

void
VSC_DumpRoff(void)
{

#define VSC_FIELD(n, t, l, d)						\
	printf(".TP\n.B MAIN.%s\n%s, %s. %s.\n", #n,			\
	    #t[0] == 'C' ? "counter" : "gauge",				\
	    #l[0] == 'I' ? "info" : #l[1] == 'I' ? "diag" : "debug", d);
#include "vsc_fields.h"
}

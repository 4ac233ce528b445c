/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc.c -- publishing the child's counters (MAIN.*) in shared memory, in
 * the Varnish 7.1 layout (src/vsm/vscw.c).  Shared values only ever
 * change by atomic adds; workers' blocks are published as differences
 * (see vsc.h).
 */

#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/child.h"
#include "cache/storage.h"
#include "cache/vsc.h"
#include "vsm/vscw.h"

static const struct vscw_desc vsc_desc[] = {
#define VSC_FIELD VSCW_DESC
#include "vsc_fields.h"
};

static struct vsc_main vsc_dummy;
struct vsc_main *VSC_C_main = &vsc_dummy;
static vtim_mono vsc_t0;

/* Every worker's block, for VSC_Tick. */
static struct lock vsc_reg_mtx = LOCK_INITIALIZER;
static struct vsc_worker *vsc_reg;

#define VSC_NFIELDS	(sizeof(struct vsc_main) / sizeof(uint64_t))

int
VSC_Init(struct vsmw *vsmw, char *err, size_t errlen)
{
	uint64_t *p;

	assert(sizeof vsc_desc / sizeof vsc_desc[0] == VSC_NFIELDS);
	vsc_t0 = TIM_mono();
	p = VSCW_New(vsmw, "MAIN", "main", "Main counters", vsc_desc,
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
VSC_WorkerInit(struct vsc_worker *w)
{

	INIT_OBJ(w, VSC_WORKER_MAGIC);
	LOCK_Init(&w->mtx);
	LOCK_Lock(&vsc_reg_mtx);
	w->next = vsc_reg;
	if (vsc_reg != NULL)
		vsc_reg->prevp = &w->next;
	w->prevp = &vsc_reg;
	vsc_reg = w;
	LOCK_Unlock(&vsc_reg_mtx);
}

void
VSC_WorkerFini(struct vsc_worker *w)
{

	CHECK_OBJ(w, VSC_WORKER_MAGIC);
	LOCK_Lock(&vsc_reg_mtx);
	*w->prevp = w->next;
	if (w->next != NULL)
		w->next->prevp = w->prevp;
	LOCK_Unlock(&vsc_reg_mtx);
	VSC_Publish(w);
	LOCK_Fini(&w->mtx);
	w->magic = 0;
}

/* Add what cnt[u] gained since last time to the shared counter. */
static inline void
vsc_publish_one(const uint64_t *c, uint64_t *p, uint64_t *g, size_t u)
{
	uint64_t v;

	v = __atomic_load_n(&c[u], __ATOMIC_RELAXED);
	if (v == p[u])
		return;
	/* Differences wrap as the shared gauges do. */
	(void)__atomic_add_fetch(&g[u], v - p[u], __ATOMIC_RELAXED);
	p[u] = v;
}

/*
 * The owner thread's publishing, at the end of each request: nobody else
 * writes its counts meanwhile, so whole runs of unchanged ones are
 * skipped with memcmp (a request changes a dozen of ~150).
 */
void
VSC_Publish(struct vsc_worker *w)
{
	const uint64_t *c = (const uint64_t *)(const void *)&w->cnt;
	uint64_t *p = (uint64_t *)(void *)&w->pub;
	uint64_t *g = (uint64_t *)(void *)VSC_C_main;
	size_t u, k, run;

	CHECK_OBJ(w, VSC_WORKER_MAGIC);
	LOCK_Lock(&w->mtx);
	for (u = 0; u < VSC_NFIELDS; u += run) {
		run = VSC_NFIELDS - u < 8 ? VSC_NFIELDS - u : 8;
		if (memcmp(c + u, p + u, run * sizeof *c) == 0)
			continue;
		for (k = u; k < u + run; k++)
			vsc_publish_one(c, p, g, k);
	}
	LOCK_Unlock(&w->mtx);
}

/* Anybody's publishing (the once-a-second tick): word by word. */
static void
vsc_publish_all(struct vsc_worker *w)
{
	const uint64_t *c = (const uint64_t *)(const void *)&w->cnt;
	uint64_t *p = (uint64_t *)(void *)&w->pub;
	uint64_t *g = (uint64_t *)(void *)VSC_C_main;
	size_t u;

	CHECK_OBJ(w, VSC_WORKER_MAGIC);
	LOCK_Lock(&w->mtx);
	for (u = 0; u < VSC_NFIELDS; u++)
		vsc_publish_one(c, p, g, u);
	LOCK_Unlock(&w->mtx);
}

void
VSC_Tick(void)
{

	struct vsc_worker *w;

	__atomic_store_n(&VSC_C_main->uptime,
	    (uint64_t)(TIM_mono() - vsc_t0), __ATOMIC_RELAXED);
	LOCK_Lock(&vsc_reg_mtx);
	for (w = vsc_reg; w != NULL; w = w->next)
		vsc_publish_all(w);
	LOCK_Unlock(&vsc_reg_mtx);
}

static const struct vscw_desc vsc_sma_desc[] = {
#define VSC_FIELD VSCW_DESC
#include "vsc_sma_fields.h"
};

#define VSC_SMA_NFIELDS	(sizeof vsc_sma_desc / sizeof vsc_sma_desc[0])

struct vsc_sma *
VSC_NewSma(const char *name)
{
	char ident[64];
	uint64_t *p;

	assert(sizeof(struct vsc_sma) == VSC_SMA_NFIELDS * sizeof(uint64_t));
	(void)snprintf(ident, sizeof ident, "SMA.%s", name);
	if (child_vsmw == NULL)
		return (NULL);
	p = VSCW_New(child_vsmw, ident, "sma", "Malloc stevedore counters",
	    vsc_sma_desc, VSC_SMA_NFIELDS);
	return ((struct vsc_sma *)(void *)p);
}

static const struct vscw_desc vsc_vbe_desc[] = {
#define VSC_FIELD VSCW_DESC
#include "vsc_vbe_fields.h"
};

#define VSC_VBE_NFIELDS	(sizeof vsc_vbe_desc / sizeof vsc_vbe_desc[0])

struct vsc_vbe *
VSC_NewVbe(const char *display)
{
	char ident[256];
	uint64_t *p;

	assert(sizeof(struct vsc_vbe) == VSC_VBE_NFIELDS * sizeof(uint64_t));
	if (child_vsmw == NULL)
		return (NULL);
	(void)snprintf(ident, sizeof ident, "VBE.%s", display);
	p = VSCW_New(child_vsmw, ident, "vbe", "Backend counters",
	    vsc_vbe_desc, VSC_VBE_NFIELDS);
	return ((struct vsc_vbe *)(void *)p);
}

void
VSC_DeleteVbe(struct vsc_vbe **vbep)
{
	uint64_t *p;

	if (*vbep == NULL || child_vsmw == NULL)
		return;
	p = (uint64_t *)(void *)*vbep;
	*vbep = NULL;
	VSCW_Delete(child_vsmw, &p);
}

/* The manager's counters, for the manual only (mgt_vsc.c has them). */
static const struct vscw_desc vsc_mgt_desc[] = {
#define VSC_FIELD VSCW_DESC
#include "vsc_mgt_fields.h"
};

/* Text for roff: backslashes and minus signs escaped. */
static void
vsc_roff_text(const char *s)
{

	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void
vsc_roff_group(const char *prefix, const struct vscw_desc *desc,
    unsigned n)
{
	unsigned u;

	for (u = 0; u < n; u++) {
		printf(".TP\n.B %s.", prefix);
		vsc_roff_text(desc[u].name);
		printf("\n.RI ( %s \", \" %s \", \" %s )\n", desc[u].type,
		    desc[u].format, desc[u].level);
		vsc_roff_text(desc[u].oneliner);
		fputs(".\n", stdout);
	}
}

/*
 * `veneerd -x counters`: both tables as man page source, one .TP entry
 * per counter: its full name as the tools show it, then (type, format,
 * level) as published in shared memory, then its description.
 */
void
VSC_DumpRoff(void)
{

	fputs(".SS \"The manager's counters (MGT)\"\n", stdout);
	vsc_roff_group("MGT", vsc_mgt_desc,
	    sizeof vsc_mgt_desc / sizeof vsc_mgt_desc[0]);
	fputs(".SS \"The child's counters (MAIN)\"\n", stdout);
	vsc_roff_group("MAIN", vsc_desc, VSC_NFIELDS);
	fputs(".SS \"Each malloc store's counters (SMA.<store>)\"\n",
	    stdout);
	vsc_roff_group("SMA.<store>", vsc_sma_desc, VSC_SMA_NFIELDS);
	fputs(".SS \"Each backend's counters (VBE.<vcl>.<backend>)\"\n",
	    stdout);
	vsc_roff_group("VBE.<vcl>.<backend>", vsc_vbe_desc, VSC_VBE_NFIELDS);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vscw.c -- counter groups in shared memory (see vscw.h).  Owns the list
 * of groups and vscw_mtx (creation and deletion only; never on the
 * request path).
 *
 * Both segments start with the same head: a ready flag, the offset of
 * what follows it (24), and the id that pairs a Stat with its StatDoc
 * (the StatDoc's ident is that id in hex).  The ready flag is set last.
 */

#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/stdlib.h>
#include <bsd/sys/queue.h>

#include "common/lock.h"
#include "common/miniobj.h"
#include "vsm/vscw.h"
#include "vsm/vsmw.h"

struct vscw_head {
	uint64_t		ready;
	uint64_t		body_offset;
	uint64_t		doc_id;
};

struct vscw_grp {
	unsigned		magic;
#define VSCW_GRP_MAGIC		0x4b1e9f37
	TAILQ_ENTRY(vscw_grp)	list;		/* vscw_mtx */
	void			*stat;
	void			*doc;
	uint64_t		*vals;
};

static struct lock vscw_mtx = LOCK_INITIALIZER;
static TAILQ_HEAD(, vscw_grp) vscw_grps = TAILQ_HEAD_INITIALIZER(vscw_grps);

/* A growing string for the JSON; startup only, so malloc is fine. */
struct vscw_buf {
	char		*b;
	size_t		len;
	size_t		cap;
};

static void
vscw_add(struct vscw_buf *vb, const char *s, size_t l)
{

	if (vb->len + l + 1 > vb->cap) {
		while (vb->len + l + 1 > vb->cap)
			vb->cap = vb->cap == 0 ? 4096 : vb->cap * 2;
		vb->b = realloc(vb->b, vb->cap);
		assert(vb->b != NULL);
	}
	memcpy(vb->b + vb->len, s, l);
	vb->len += l;
	vb->b[vb->len] = '\0';
}

static void __attribute__((__format__(__printf__, 2, 3)))
vscw_printf(struct vscw_buf *vb, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	assert(n >= 0 && (size_t)n < sizeof buf);
	vscw_add(vb, buf, (size_t)n);
}

/* A JSON string, quoted and escaped. */
static void
vscw_str(struct vscw_buf *vb, const char *s)
{
	char esc[8];

	vscw_add(vb, "\"", 1);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\') {
			esc[0] = '\\';
			esc[1] = *s;
			vscw_add(vb, esc, 2);
		} else if (*s == '\n') {
			vscw_add(vb, "\\n", 2);
		} else if (*s == '\t') {
			vscw_add(vb, "\\t", 2);
		} else if ((unsigned char)*s < 0x20) {
			(void)snprintf(esc, sizeof esc, "\\u%04x",
			    (unsigned char)*s);
			vscw_add(vb, esc, 6);
		} else {
			vscw_add(vb, s, 1);
		}
	}
	vscw_add(vb, "\"", 1);
}

static void
vscw_json(struct vscw_buf *vb, const char *name, const char *oneliner,
    const struct vscw_desc *desc, unsigned n)
{
	unsigned u;

	vscw_add(vb, "{\"version\":\"1\",\"name\":", 22);
	vscw_str(vb, name);
	vscw_add(vb, ",\"oneliner\":", 12);
	vscw_str(vb, oneliner);
	vscw_printf(vb, ",\"order\":10,\"docs\":\"\",\"elements\":%u,"
	    "\"elem\":{", n);
	for (u = 0; u < n; u++) {
		if (u > 0)
			vscw_add(vb, ",", 1);
		vscw_str(vb, desc[u].name);
		vscw_add(vb, ":{\"type\":", 9);
		vscw_str(vb, desc[u].type);
		vscw_add(vb, ",\"ctype\":\"uint64_t\",\"level\":", 28);
		vscw_str(vb, desc[u].level);
		vscw_add(vb, ",\"oneliner\":", 12);
		vscw_str(vb, desc[u].oneliner);
		vscw_add(vb, ",\"format\":", 10);
		vscw_str(vb, desc[u].format);
		vscw_printf(vb, ",\"index\":%u,\"name\":", u * 8);
		vscw_str(vb, desc[u].name);
		vscw_add(vb, ",\"docs\":", 8);
		vscw_str(vb, desc[u].oneliner);
		vscw_add(vb, "}", 1);
	}
	vscw_add(vb, "}}", 2);
}

uint64_t *
VSCW_New(struct vsmw *vsmw, const char *ident, const char *name,
    const char *oneliner, const struct vscw_desc *desc, unsigned n)
{
	struct vscw_buf vb = { NULL, 0, 0 };
	struct vscw_head *sh, *dh;
	struct vscw_grp *g;
	char docident[32];
	uint64_t id;

	assert(n > 0);
	ALLOC_OBJ(g, VSCW_GRP_MAGIC);
	if (g == NULL)
		return (NULL);
	vscw_json(&vb, name, oneliner, desc, n);
	do
		arc4random_buf(&id, sizeof id);
	while (id == 0);
	(void)snprintf(docident, sizeof docident, "%jx", (uintmax_t)id);
	g->doc = VSMW_Alloc(vsmw, "StatDoc", sizeof *dh + vb.len + 1,
	    docident);
	g->stat = VSMW_Alloc(vsmw, "Stat", sizeof *sh + n * sizeof(uint64_t),
	    ident);
	if (g->doc == NULL || g->stat == NULL) {
		if (g->doc != NULL)
			VSMW_Free(vsmw, &g->doc);
		if (g->stat != NULL)
			VSMW_Free(vsmw, &g->stat);
		free(vb.b);
		FREE_OBJ(g);
		return (NULL);
	}
	dh = g->doc;
	memcpy(dh + 1, vb.b, vb.len + 1);
	free(vb.b);
	dh->body_offset = sizeof *dh;
	dh->doc_id = id;
	sh = g->stat;
	sh->body_offset = sizeof *sh;
	sh->doc_id = id;
	g->vals = (uint64_t *)(void *)(sh + 1);
	/* Readers look at nothing before ready is set. */
	__atomic_store_n(&dh->ready, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&sh->ready, 1, __ATOMIC_RELEASE);
	LOCK_Lock(&vscw_mtx);
	TAILQ_INSERT_TAIL(&vscw_grps, g, list);
	LOCK_Unlock(&vscw_mtx);
	return (g->vals);
}

void
VSCW_Delete(struct vsmw *vsmw, uint64_t **valp)
{
	struct vscw_grp *g;

	assert(valp != NULL && *valp != NULL);
	LOCK_Lock(&vscw_mtx);
	TAILQ_FOREACH(g, &vscw_grps, list)
		if (g->vals == *valp)
			break;
	assert(g != NULL);
	TAILQ_REMOVE(&vscw_grps, g, list);
	LOCK_Unlock(&vscw_mtx);
	*valp = NULL;
	VSMW_Free(vsmw, &g->stat);
	VSMW_Free(vsmw, &g->doc);
	FREE_OBJ(g);
}

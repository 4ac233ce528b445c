/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_vtc.c -- the vtc module (include/vmod_std.h): what Varnish's
 * test harness calls from VCL, with Varnish 7.1's names and meaning, so
 * that its test files run against veneerd.  Barriers, sleeps, workspace
 * shortages on purpose and panics on purpose: never for production VCL.
 */

#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <sys/types.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/addr.h"
#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/fetch.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vcl.h"
#include "cache/vrt_priv.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

VCL_VOID
vmod_vtc_barrier_sync(VRT_CTX, VCL_STRING addr, VCL_DURATION timeout)
{
	const char *why = NULL;
	struct pollfd pfd;
	char buf[32];
	ssize_t n;
	int fd, i;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (addr == NULL || *addr == '\0') {
		VRT_fail(ctx, "vtc.barrier_sync(): no address");
		return;
	}
	if (ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_Debug, "barrier_sync(\"%s\")", addr);
	fd = ADDR_Connect(addr, ADDR_F_SPACE, &why);
	if (fd < 0) {
		VRT_fail(ctx, "vtc.barrier_sync(%s): %s", addr, why);
		return;
	}
	/* The harness closes every connection once the barrier is met. */
	pfd.fd = fd;
	pfd.events = POLLIN;
	POOL_Blocking();
	do
		i = poll(&pfd, 1, timeout > 0 ? (int)(timeout * 1e3) : -1);
	while (i < 0 && errno == EINTR);
	n = i > 0 ? read(fd, buf, sizeof buf) : -1;
	(void)close(fd);
	if (i == 0)
		VRT_fail(ctx, "vtc.barrier_sync(%s): timed out", addr);
	else if (n < 0)
		VRT_fail(ctx, "vtc.barrier_sync(%s): %s", addr,
		    strerror(errno));
	else if (n > 0)
		VRT_fail(ctx, "vtc.barrier_sync(%s): unexpected data", addr);
}

VCL_VOID
vmod_vtc_sleep(VRT_CTX, VCL_DURATION t)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	POOL_Blocking();
	if (t > 0)
		TIM_sleep(t);
}

/* The workspace named where, or NULL (failing the task). */
static struct ws *
vtc_ws(VRT_CTX, VCL_ENUM where)
{
	struct worker *wrk;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!strcmp(where, "client") && ctx->req != NULL)
		return (ctx->req->ws);
	if (!strcmp(where, "backend") && ctx->bo != NULL)
		return (ctx->bo->ws);
	if (!strcmp(where, "session") && ctx->sp != NULL)
		return (ctx->sp->ws);
	if (!strcmp(where, "thread") && (wrk = WRK_Current()) != NULL)
		return (wrk->aws);
	VRT_fail(ctx, "vtc: no %s workspace here", where);
	return (NULL);
}

VCL_VOID
vmod_vtc_workspace_alloc(VRT_CTX, VCL_ENUM where, VCL_INT size)
{
	struct ws *ws = vtc_ws(ctx, where);
	size_t free_b;
	void *p;

	if (ws == NULL)
		return;
	free_b = WS_Free(ws);
	if (size < 0) {
		/* All but -size bytes. */
		if ((VCL_INT)free_b + size <= 0)
			return;
		size += (VCL_INT)free_b;
	}
	p = WS_Alloc(ws, (size_t)size);
	if (p == NULL)
		VRT_fail(ctx, "vtc.workspace_alloc(%s, %jd): out of workspace",
		    where, (intmax_t)size);
	else
		memset(p, 0, (size_t)size);
}

VCL_INT
vmod_vtc_workspace_free(VRT_CTX, VCL_ENUM where)
{
	struct ws *ws = vtc_ws(ctx, where);

	return (ws == NULL ? -1 : (VCL_INT)WS_Free(ws));
}

VCL_BOOL
vmod_vtc_workspace_overflowed(VRT_CTX, VCL_ENUM where)
{
	struct ws *ws = vtc_ws(ctx, where);

	return (ws != NULL && WS_Overflowed(ws));
}

VCL_VOID
vmod_vtc_workspace_overflow(VRT_CTX, VCL_ENUM where)
{
	struct ws *ws = vtc_ws(ctx, where);

	if (ws != NULL)
		WS_MarkOverflow(ws);
}

/* One snapshot per worker thread, and the workspace it belongs to. */
static __thread const struct ws *vtc_snap_ws;
static __thread uintptr_t vtc_snap;

VCL_VOID
vmod_vtc_workspace_snapshot(VRT_CTX, VCL_ENUM where)
{
	struct ws *ws = vtc_ws(ctx, where);

	if (ws == NULL)
		return;
	vtc_snap_ws = ws;
	vtc_snap = WS_Snapshot(ws);
}

VCL_VOID
vmod_vtc_workspace_reset(VRT_CTX, VCL_ENUM where)
{
	struct ws *ws = vtc_ws(ctx, where);

	if (ws == NULL)
		return;
	if (vtc_snap_ws != ws) {
		VRT_fail(ctx, "vtc.workspace_reset(%s): no snapshot of that "
		    "workspace on this thread", where);
		return;
	}
	WS_Reset(ws, vtc_snap);
	vtc_snap_ws = NULL;
}

static const struct {
	char	letter;
	size_t	size;
} vtc_ctypes[] = {
	{ 'p', sizeof(void *) },	{ 'i', sizeof(int) },
	{ 'd', sizeof(double) },	{ 'f', sizeof(float) },
	{ 'l', sizeof(long) },		{ 's', sizeof(short) },
	{ 'z', sizeof(size_t) },	{ 'o', sizeof(off_t) },
	{ 'j', sizeof(intmax_t) },	{ 'u', sizeof(unsigned) },
	{ 'c', sizeof(char) },
};

/*
 * The size of a C struct of these members in this order, as Varnish's:
 * each aligned to its own size, the whole padded to the largest (its
 * tests size a struct vrt_blob as "uzp").
 */
VCL_INT
vmod_vtc_typesize(VRT_CTX, VCL_STRING s)
{
	size_t n = 0, i, l, widest = 0;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	for (; s != NULL && *s != '\0'; s++) {
		for (i = 0; i < sizeof vtc_ctypes / sizeof vtc_ctypes[0]; i++)
			if (vtc_ctypes[i].letter == *s)
				break;
		if (i == sizeof vtc_ctypes / sizeof vtc_ctypes[0])
			return (-1);
		l = vtc_ctypes[i].size;
		if (l > widest)
			widest = l;
		n = (n + l - 1) / l * l + l;
	}
	if (widest > 0)
		n = (n + widest - 1) / widest * widest;
	return ((VCL_INT)n);
}

VCL_VOID
vmod_vtc_panic(VRT_CTX, VCL_STRANDS msg)
{
	const char *s;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	s = VRT_STRANDS_string(ctx, msg);
	/* As a WRONG(): the panic says it was asked for, and why. */
	VAS_Fail("vtc.panic", ctx->vcl != NULL ? VCL_Name(ctx->vcl) : "VCL",
	    0, s != NULL ? s : "(no message)", VAS_WRONG);
}

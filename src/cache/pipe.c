/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * pipe.c -- return(pipe): after vcl_pipe the client connection is joined
 * to a fresh backend connection and bytes are copied both ways, untouched,
 * until either side closes or pipe_timeout passes without traffic.  The
 * client connection is closed afterwards.
 */

#include "config.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"
#include "cache/fetch.h"
#include "cache/http1_fetch.h"
#include "cache/http1_write.h"
#include "cache/pool.h"
#include "cache/req.h"
#include "cache/vcl.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

/* Write all of it; a side that stops reading for pipe_timeout ends it. */
static int
pipe_write_all(int fd, const char *p, size_t len)
{

	return (H1W_WriteAll(fd, p, len, 0, cache_param->pipe_timeout));
}

/* Copy until one side is done.  Bytes each way in in/out. */
static void
pipe_copy(struct worker *wrk, int cfd, int bfd, uint64_t *in, uint64_t *out)
{
	struct pollfd pfd[2];
	unsigned open_c = 1, open_b = 1;
	ssize_t n;
	int i, tmo;

	tmo = cache_param->pipe_timeout > 0 ?
	    TIM_poll_ms(cache_param->pipe_timeout) : -1;
	while (open_b) {
		pfd[0].fd = open_c ? cfd : -1;
		pfd[0].events = POLLIN;
		pfd[1].fd = bfd;
		pfd[1].events = POLLIN;
		POOL_Blocking();
		i = poll(pfd, 2, tmo);
		if (i < 0 && errno == EINTR)
			continue;
		if (i <= 0)
			return;		/* pipe_timeout or error */
		if (pfd[0].revents) {
			n = read(cfd, wrk->iobuf, wrk->iobuf_len);
			if (n > 0) {
				if (pipe_write_all(bfd, wrk->iobuf,
				    (size_t)n))
					return;
				*in += (uint64_t)n;
			} else if (n == 0 || (errno != EINTR &&
			    errno != EAGAIN)) {
				/* Client done sending: tell the backend. */
				open_c = 0;
				(void)shutdown(bfd, SHUT_WR);
			}
		}
		if (pfd[1].revents) {
			n = read(bfd, wrk->iobuf, wrk->iobuf_len);
			if (n > 0) {
				if (pipe_write_all(cfd, wrk->iobuf,
				    (size_t)n))
					return;
				*out += (uint64_t)n;
			} else if (n == 0 || (errno != EINTR &&
			    errno != EAGAIN)) {
				open_b = 0;
			}
		}
	}
}

/* Count a pipe in n_pipe unless pipe_sess_max are open.  1 if it may go. */
static int
pipe_enter(void)
{
	uint64_t n, max = cache_param->pipe_sess_max;

	n = __atomic_load_n(&VSC_C_main->n_pipe, __ATOMIC_RELAXED);
	do {
		if (max > 0 && n >= max)
			return (0);
	} while (!__atomic_compare_exchange_n(&VSC_C_main->n_pipe, &n, n + 1,
	    0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return (1);
}

enum req_step
FETCH_Pipe(struct worker *wrk, struct req *req)
{
	struct busyobj *bo;
	struct vrt_ctx ctx;
	enum vcl_ret ret;
	uint64_t in = 0, out = 0, hdr;
	unsigned reused;
	size_t pending;

	CHECK_OBJ(wrk, WORKER_MAGIC);
	CHECK_OBJ(req, REQ_MAGIC);
	bo = FETCH_PipeBegin(wrk, req);
	if (bo == NULL) {
		req->err_code = 503;
		return (R_STP_SYNTH);
	}
	INIT_OBJ(&ctx, VRT_CTX_MAGIC);
	ctx.vsl = req->vsl;
	ctx.vcl = req->vcl;
	ctx.ws = req->ws;
	ctx.sp = req->sp;
	ctx.req = req;
	ctx.privs = req->privs_task;	/* vcl_pipe is the client's task */
	ctx.http_req = req->http;
	ctx.bo = bo;
	ctx.http_bereq = bo->bereq;
	ctx.now = TIM_real();
	ret = VCL_Method(req->vcl, VCL_MET_PIPE, &ctx);
	if (ret != VCL_RET_PIPE) {
		FETCH_Finish(&req->bo);
		if (req->err_code == 0)
			req->err_code = 503;
		return (R_STP_SYNTH);
	}
	if (!pipe_enter()) {
		VSC_Count(wrk->stats, pipe_limited, 1);
		VSLb(req->vsl, SLT_Error, "pipe_sess_max (%u) pipes in "
		    "progress; raise pipe_sess_max",
		    cache_param->pipe_sess_max);
		FETCH_Finish(&req->bo);
		req->err_code = 503;
		return (R_STP_SYNTH);
	}
	VSC_Count(wrk->stats, s_pipe, 1);
	ctx.vsl = bo->vsl;	/* the resolution is the backend task's */
	bo->backend = DIRECTOR_Resolve(&ctx, bo->director);
	if (bo->backend == NULL)
		bo->vbc = NULL;
	else
		bo->vbc = FETCH_GetConn(wrk, bo,
		    BACKEND_ConnectTimeout(bo->backend), 1, &reused);
	if (bo->vbc == NULL) {
		VSC_Sub(n_pipe, 1);
		FETCH_Finish(&req->bo);
		req->err_code = 503;
		return (R_STP_SYNTH);
	}
	bo->between_bytes_timeout = cache_param->pipe_timeout;
	if (H1F_Send(bo, 0) == H1F_OK) {
		VSLb_ts(req->vsl, "Pipe", req->t_first, &req->t_prev,
		    TIM_real());
		hdr = bo->acct_bereq_hdr;
		VSC_Count(wrk->stats, s_pipe_hdrbytes, hdr);
		/* What the client sent after the head goes first. */
		pending = (size_t)(req->rx_e - req->rx_p);
		if (pending == 0 ||
		    pipe_write_all(bo->vbc->fd, req->rx_p, pending) == 0) {
			in += pending;
			req->rx_p = req->rx_e;
			pipe_copy(wrk, req->sp->fd, bo->vbc->fd, &in, &out);
		}
	}
	VSC_Count(wrk->stats, s_pipe_in, in);
	VSC_Count(wrk->stats, s_pipe_out, out);
	VSLb_ts(req->vsl, "PipeSess", req->t_first, &req->t_prev, TIM_real());
	VSLb(req->vsl, SLT_PipeAcct, "%ju %ju %ju %ju",
	    (uintmax_t)req->acct_req_hdr, (uintmax_t)bo->acct_bereq_hdr,
	    (uintmax_t)in, (uintmax_t)out);
	if (bo->vbc != NULL) {
		BACKEND_CountPipe(bo->vbc->be, bo->acct_bereq_hdr, in, out);
		/* Pipe's bytes, not a fetch's. */
		bo->vbe_mark[0] = bo->acct_bereq_hdr;
	}
	bo->failed = 1;		/* never reuse a piped connection */
	FETCH_Finish(&req->bo);
	VSC_Sub(n_pipe, 1);
	req->body_state = RB_NONE;	/* whatever it was, it went through */
	req->doclose = SC_TX_PIPE;
	return (R_STP_DONE);
}

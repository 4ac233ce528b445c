/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * acceptor.c -- accept(2) on every listen socket from one thread and hand
 * the connection to a pool.  It does as little as possible: accept4 and a
 * session struct; socket options are inherited from the listen socket
 * (TCP_NODELAY) and logging happens in the worker.  Owns the listen
 * sockets' fds in the child and acc_mtx (start/stop only).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "cache/acceptor.h"
#include "cache/child.h"
#include "cache/panic.h"
#include "cache/pool.h"
#include "cache/session.h"
#include "cache/vsc.h"
#include "cache/vsl.h"

static pthread_t acc_thread;
static int acc_stop_pipe[2] = { -1, -1 };	/* const after start */
static unsigned acc_running;

static void
acc_count_fail(int err, const struct listen_sock *ls)
{

	VSC_Add(sess_fail, 1);
	switch (err) {
	case ECONNABORTED:
		VSC_Add(sess_fail_econnaborted, 1);
		break;
	case EINTR:
		VSC_Add(sess_fail_eintr, 1);
		break;
	case EMFILE:
	case ENFILE:
		VSC_Add(sess_fail_emfile, 1);
		break;
	case EBADF:
		VSC_Add(sess_fail_ebadf, 1);
		break;
	case ENOMEM:
	case ENOBUFS:
		VSC_Add(sess_fail_enomem, 1);
		break;
	default:
		VSC_Add(sess_fail_other, 1);
		break;
	}
	VSL(SLT_SessError, 0, "%s %s %s %d %d %s", ls->name, ls->addr,
	    ls->port, ls->fd, err, strerror(err));
}

/* Accept what is queued on one listen socket.  Returns -1 to back off. */
static int
acc_accept(const struct listen_sock *ls)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	struct pool *pp;
	struct sess *sp;
	unsigned u;
	int fd;

	for (u = 0; u < 64; u++) {
		sl = sizeof ss;
		fd = accept4(ls->fd, (struct sockaddr *)&ss, &sl,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return (0);
			acc_count_fail(errno, ls);
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOMEM || errno == ENOBUFS)
				return (-1);
			continue;
		}
		VSC_Add(sess_conn, 1);
		pp = POOL_Next();
		sp = SES_New(pp, fd, ls, &ss, sl);
		if (sp == NULL) {
			VSC_Add(sess_dropped, 1);
			(void)close(fd);
			return (-1);
		}
		SES_Schedule(sp, TASK_VCA);
	}
	return (0);
}

static void *
acc_thread_main(void *priv)
{
	struct pollfd *pfd;
	unsigned u, n;
	double backoff = 0;

	(void)priv;
	(void)pthread_setname_np(pthread_self(), "cache-acceptor");
	PANIC_ThreadInit();
	n = child_args->nsocks;
	pfd = calloc(n + 1, sizeof *pfd);
	assert(pfd != NULL);
	for (u = 0; u < n; u++) {
		pfd[u].fd = child_args->socks[u].fd;
		pfd[u].events = POLLIN;
	}
	pfd[n].fd = acc_stop_pipe[0];
	pfd[n].events = POLLIN;
	for (;;) {
		if (poll(pfd, n + 1, -1) < 0) {
			assert(errno == EINTR);
			continue;
		}
		if (pfd[n].revents)
			break;
		for (u = 0; u < n; u++) {
			if (!(pfd[u].revents & POLLIN))
				continue;
			if (acc_accept(&child_args->socks[u]) == 0) {
				backoff = 0;
				continue;
			}
			/* Out of fds or memory: do not spin. */
			backoff = backoff == 0 ? 0.001 : backoff * 2;
			if (backoff > 0.05)
				backoff = 0.05;
			TIM_sleep(backoff);
		}
	}
	for (u = 0; u < n; u++)
		(void)close(child_args->socks[u].fd);
	free(pfd);
	return (NULL);
}

void
ACCEPT_Start(void)
{
	unsigned u;

	if (acc_running)
		return;
	for (u = 0; u < child_args->nsocks; u++)
		assert(child_args->socks[u].fd >= 0);
	ASSERT_ZERO(pipe2(acc_stop_pipe, O_CLOEXEC));
	ASSERT_ZERO(pthread_create(&acc_thread, NULL, acc_thread_main, NULL));
	acc_running = 1;
}

void
ACCEPT_Stop(void)
{

	if (!acc_running)
		return;
	assert(write(acc_stop_pipe[1], "x", 1) == 1);
	ASSERT_ZERO(pthread_join(acc_thread, NULL));
	acc_running = 0;
}

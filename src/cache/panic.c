/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * panic.c -- the child's panic handler (see panic.h).  It must work with
 * the process in a bad state: no allocation, no locks, only snprintf into
 * a static buffer and write(2).  Owns panic_mtx, taken so that two
 * threads panicking at once do not interleave (the second waits forever:
 * the first aborts the process).
 */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_EXECINFO_H
#include <execinfo.h>
#endif
#include <dlfcn.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "cache/panic.h"
#include "cache/req.h"

static char *panic_shared;		/* the manager's copy */
static size_t panic_shared_len;
static char panic_buf[16384];
static size_t panic_used;
static pthread_mutex_t panic_mtx = PTHREAD_MUTEX_INITIALIZER;
static __thread const struct req *panic_req;

static void __attribute__((__format__(__printf__, 1, 2)))
panic_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (panic_used >= sizeof panic_buf - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(panic_buf + panic_used, sizeof panic_buf - panic_used,
	    fmt, ap);
	va_end(ap);
	if (n > 0)
		panic_used += (size_t)n;
	if (panic_used > sizeof panic_buf - 1)
		panic_used = sizeof panic_buf - 1;
}

static void
panic_backtrace(void)
{
#ifdef HAVE_EXECINFO_H
	void *frames[32];
	Dl_info info;
	int i, n;

	n = backtrace(frames, 32);
	panic_printf("Backtrace:\n");
	for (i = 0; i < n; i++) {
		if (dladdr(frames[i], &info) && info.dli_sname != NULL)
			panic_printf("  %p: %s+0x%lx\n", frames[i],
			    info.dli_sname, (unsigned long)((char *)frames[i] -
			    (char *)info.dli_saddr));
		else
			panic_printf("  %p\n", frames[i]);
	}
#endif
}

static void
panic_dump_req(void)
{
	const struct req *req = panic_req;

	if (req == NULL)
		return;
	if (req->magic != REQ_MAGIC) {
		panic_printf("req = %p: bad magic 0x%08x\n", (const void *)req,
		    req->magic);
		return;
	}
	panic_printf("req = %p {\n  vxid = %u, step = %s, restarts = %u,\n",
	    (const void *)req, req->vxid, REQ_StepName(req->step),
	    req->restarts);
	if (req->http != NULL && req->http->magic == HTTP_MAGIC &&
	    req->http->hd[HTTP_HDR_URL].b != NULL)
		panic_printf("  url = \"%.200s\",\n",
		    req->http->hd[HTTP_HDR_URL].b);
	if (req->ws->magic == WS_MAGIC)
		panic_printf("  ws = { used %zu of %zu, overflow %u },\n",
		    (size_t)(req->ws->f - req->ws->s),
		    (size_t)(req->ws->e - req->ws->s), req->ws->overflow);
	panic_printf("}\n");
}

static void
panic_emit(void)
{
	size_t l;

	if (panic_shared != NULL && panic_shared_len > 0) {
		l = panic_used < panic_shared_len - 1 ? panic_used :
		    panic_shared_len - 1;
		memcpy(panic_shared, panic_buf, l);
		panic_shared[l] = '\0';
	}
	(void)!write(STDERR_FILENO, panic_buf, panic_used);
}

static void
panic_header(void)
{
	char date[TIM_FORMAT_SIZE];

	(void)pthread_mutex_lock(&panic_mtx);
	TIM_format(TIM_real(), date);
	panic_used = 0;
	panic_printf("Panic at: %s\n", date);
}

static void
panic_fail(const char *func, const char *file, int line, const char *cond,
    enum vas_kind kind)
{
	char name[32];
	int err = errno;

	panic_header();
	switch (kind) {
	case VAS_WRONG:
		panic_printf("Wrong turn in %s(), %s line %d: %s\n", func,
		    file, line, cond);
		break;
	case VAS_MISSING:
		panic_printf("Missing code in %s(), %s line %d\n", func, file,
		    line);
		break;
	default:
		panic_printf("Assert error in %s(), %s line %d:\n"
		    "  Condition(%s) not true.\n", func, file, line, cond);
		break;
	}
	if (err != 0)
		panic_printf("errno = %d (%s)\n", err, strerror(err));
	panic_printf("version = veneer-%s\n", PACKAGE_VERSION);
	if (pthread_getname_np(pthread_self(), name, sizeof name) == 0)
		panic_printf("thread = (%s)\n", name);
	panic_backtrace();
	panic_dump_req();
	panic_emit();
}

#if !defined(__SANITIZE_ADDRESS__)
/* The lowest address of this thread's stack (PANIC_ThreadInit), or 0. */
static __thread uintptr_t panic_stack_lo;

static void
panic_signal(int sig, siginfo_t *info, void *uctx)
{
	uintptr_t a = (uintptr_t)info->si_addr;
	char name[32];

	(void)uctx;
	panic_header();
	panic_printf("Signal %d (%s) at address %p\n", sig, strsignal(sig),
	    info->si_addr);
	/* In the guard pages under the stack, or just above them. */
	if (panic_stack_lo != 0 && a + 65536 >= panic_stack_lo &&
	    a < panic_stack_lo + 65536)
		panic_printf("THIS PROBABLY IS A STACK OVERFLOW: the thread "
		    "ran out of its stack; raise thread_pool_stack (or make "
		    "the VCL or inline C that ran use less)\n");
	panic_printf("version = veneer-%s\n", PACKAGE_VERSION);
	if (pthread_getname_np(pthread_self(), name, sizeof name) == 0)
		panic_printf("thread = (%s)\n", name);
	panic_backtrace();
	panic_dump_req();
	panic_emit();
	/* SA_RESETHAND: returning re-raises with the default action. */
}

static void
panic_signals(void)
{
	struct sigaction sa;

	PANIC_ThreadInit();
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = panic_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_ONSTACK;
	(void)sigaction(SIGSEGV, &sa, NULL);
	(void)sigaction(SIGBUS, &sa, NULL);
}
#endif

void
PANIC_Init(char *buf, size_t len)
{

	panic_shared = buf;
	panic_shared_len = len;
	VAS_Fail_Func = panic_fail;
#if !defined(__SANITIZE_ADDRESS__)
	panic_signals();
#endif
}

#if !defined(__SANITIZE_ADDRESS__)
#define PANIC_ALTSTACK		(32 * 1024)
static __thread void *panic_altstack;
#endif

/*
 * A thread whose stack overflowed cannot run the handler on that stack;
 * each thread gets a small one of its own (touched only when used).
 */
void
PANIC_ThreadInit(void)
{
#if !defined(__SANITIZE_ADDRESS__)
	stack_t ss;

	pthread_attr_t attr;
	void *lo;
	size_t sz;

	if (panic_altstack != NULL)
		return;
	if (pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &lo, &sz) == 0)
			panic_stack_lo = (uintptr_t)lo;
		(void)pthread_attr_destroy(&attr);
	}
	panic_altstack = malloc(PANIC_ALTSTACK);
	if (panic_altstack == NULL)
		return;
	ss.ss_sp = panic_altstack;
	ss.ss_size = PANIC_ALTSTACK;
	ss.ss_flags = 0;
	(void)sigaltstack(&ss, NULL);
#endif
}

void
PANIC_ThreadFini(void)
{
#if !defined(__SANITIZE_ADDRESS__)
	stack_t ss;

	if (panic_altstack == NULL)
		return;
	memset(&ss, 0, sizeof ss);
	ss.ss_flags = SS_DISABLE;
	(void)sigaltstack(&ss, NULL);
	free(panic_altstack);
	panic_altstack = NULL;
#endif
}

void
PANIC_SetReq(const struct req *req)
{

	panic_req = req;
}

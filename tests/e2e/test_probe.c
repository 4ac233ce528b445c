/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_probe.c -- backend health probes end to end (issue 15): a probe
 * marks its backend sick when the origin fails and healthy again within
 * its window; .initial; .expected_response; backend.set_health over the
 * probe and "auto" giving it back; a cold VCL does not probe;
 * Backend_health records as veneerlog reads them.  Probes run
 * concurrently: a backend that never answers delays no other's probes,
 * vcl.discard of a VCL whose probe hangs answers at once, and 100
 * backends all report within two intervals.  The origin answers probes
 * with the status the test sets.  Every wait polls backend.list, the log
 * or the origin's counts with a deadline; timing claims are checked by
 * the order of log records, never by a clock.
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lib/harness.h"
#include "e2e/cli_lib.h"

/* The status the origin answers with; the test changes it. */
static int probe_status = 200;

static void
probe_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	int status = __atomic_load_n(&probe_status, __ATOMIC_RELAXED);

	(void)req;
	(void)priv;
	(void)ORIGIN_Respond(oc, status, "Connection: close\r\n", "ok", 2);
	ORIGIN_Close(oc);
}

/* veneerd with -T/-S and a VCL whose backend b has the probe body. */
static struct vnd *
probe_start(struct origin **op, const char *probe, int status)
{
	struct vnd *v;
	char *vcl;

	__atomic_store_n(&probe_status, status, __ATOMIC_RELAXED);
	*op = ORIGIN_New(probe_handler, NULL);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nbackend b {\n"
	    "\t.host = \"127.0.0.1\";\n\t.port = \"%d\";\n"
	    "\t.probe = { .url = \"/health\"; .interval = 0.05s; "
	    ".timeout = 2s; %s }\n}\n", ORIGIN_Port(*op), probe), 0);
	v = VND_New();
	VND_VclFile(v, "probe.vcl", vcl);
	cli_args(v, 1);
	VND_Start(v);
	free(vcl);
	return (v);
}

static unsigned
fetch_status(struct vnd *v, const char *url)
{
	struct client *cl;
	struct hx_msg *r;
	unsigned s;

	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", url, "Cache-Control: no-cache\r\n",
	    HX_T_RESP);
	s = r->status;
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	return (s);
}

/* Sick when the origin fails, healthy again within the window. */
START_TEST(sick_and_back)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = probe_start(&o, ".window = 4; .threshold = 3; .initial = 3;",
	    200);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "probe   4/4      healthy");
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/health"));
	__atomic_store_n(&probe_status, 500, __ATOMIC_RELAXED);
	cli_wait(fd, "backend.list", "sick");
	ck_assert_uint_eq(fetch_status(v, "/a"), 503);
	__atomic_store_n(&probe_status, 200, __ATOMIC_RELAXED);
	/* Three good probes out of the last four: healthy. */
	cli_wait(fd, "backend.list", "healthy");
	cli_wait(fd, "backend.list -p", "HHHH Happy");
	cli_wait(fd, "backend.list -j -p", "\"threshold\": 3");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* .initial 0: sick until threshold probes succeeded. */
START_TEST(initial_zero)
{
	struct origin *o;
	struct vnd *v;
	char *b;
	int fd;

	/* An interval of an hour: only the first probe runs. */
	__atomic_store_n(&probe_status, 200, __ATOMIC_RELAXED);
	v = probe_start(&o, ".window = 8; .threshold = 2; .initial = 0;"
	    " .interval = 1h;", 200);
	fd = cli_login(v);
	ORIGIN_WaitReqs(o, 1, HX_T_SLOW);
	cli_wait(fd, "backend.list", "1/8");
	ck_assert_uint_eq(cli_ask(fd, "backend.list", &b), 200);
	ck_assert_msg(strstr(b, "sick") != NULL, "%s", b);
	free(b);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* .expected_response: a 200 is a failure when 204 is expected. */
START_TEST(expected_response)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = probe_start(&o, ".window = 2; .threshold = 2; .initial = 2;"
	    " .expected_response = 204;", 200);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "sick");
	__atomic_store_n(&probe_status, 204, __ATOMIC_RELAXED);
	cli_wait(fd, "backend.list", "2/2      healthy");
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* set_health overrides the probe; auto gives the verdict back. */
START_TEST(set_health_over_probe)
{
	struct origin *o;
	struct vnd *v;
	int fd;

	v = probe_start(&o, ".window = 2; .threshold = 2; .initial = 0;",
	    500);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "probe   0/2      sick");
	ck_assert_uint_eq(fetch_status(v, "/x"), 503);
	cli_expect(fd, "backend.set_health b healthy", 200, NULL);
	cli_wait(fd, "backend.list", "healthy   0/2      sick");
	ck_assert_uint_eq(fetch_status(v, "/x"), 500);
	cli_expect(fd, "backend.set_health b auto", 200, NULL);
	cli_wait(fd, "backend.list", "probe   0/2      sick");
	ck_assert_uint_eq(fetch_status(v, "/y"), 503);
	__atomic_store_n(&probe_status, 200, __ATOMIC_RELAXED);
	cli_wait(fd, "backend.list", "probe   2/2      healthy");
	cli_expect(fd, "backend.set_health b sick", 200, NULL);
	ck_assert_uint_eq(fetch_status(v, "/z"), 503);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* A cold VCL does not probe; warm, it does. */
START_TEST(cold_vcl)
{
	struct origin *o;
	struct vnd *v;
	char *line, *text, *path;
	unsigned n;
	int fd;

	v = probe_start(&o, ".window = 2; .threshold = 1;", 200);
	fd = cli_login(v);
	ck_assert_int_gt(asprintf(&text, "vcl 4.1;\nbackend c { .host = "
	    "\"127.0.0.1\"; .port = \"%d\"; .probe = { .url = \"/cold\"; "
	    ".interval = 0.05s; } }\n", ORIGIN_Port(o)), 0);
	ck_assert_int_gt(asprintf(&path, "%s/cold.vcl", VND_Dir(v)), 0);
	write_text(path, text);
	ck_assert_int_gt(asprintf(&line, "vcl.load c %s cold", path), 0);
	cli_expect(fd, line, 200, NULL);
	free(text);
	free(path);
	free(line);
	/* The warm VCL's probes keep coming; the cold one's never do. */
	n = ORIGIN_NReq(o);
	ORIGIN_WaitReqs(o, n + 10, HX_T_SLOW);
	ck_assert_ptr_null(ORIGIN_FindReq(o, "/cold"));
	cli_expect(fd, "vcl.state c warm", 200, NULL);
	cli_wait(fd, "backend.list c.*", "/8      healthy");
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/cold"));
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/* Backend_health records, vxid 0, in Varnish's format. */
START_TEST(backend_health_log)
{
	struct origin *o;
	struct vnd *v;
	char cmd[4096], buf[4096];
	const char *dir;
	size_t n;
	FILE *f;
	int fd;

	dir = getenv("VENEER_BUILDDIR");
	if (dir == NULL)
		HX_Skip("VENEER_BUILDDIR is not set");
	v = probe_start(&o, ".window = 3; .threshold = 2; .initial = 1;",
	    200);
	fd = cli_login(v);
	cli_wait(fd, "backend.list", "3/3");
	(void)snprintf(cmd, sizeof cmd, "timeout 20 %s/veneerlog -n %s -d "
	    "-g raw -i Backend_health", dir, VND_Workdir(v));
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_msg(strstr(buf, "0 Backend_health - b Went sick -------H "
	    "1 2 3 0.000000 0.000000 \"\"") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, " Backend_health - b Went healthy "
	    "4---X-RH 2 2 3 ") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, " \"HTTP/1.1 200 OK\"") != NULL, "%s",
	    buf);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * Concurrency: origins that hang, the log read in order.
 */

/* Accept, read the request, never answer (until ORIGIN_Free). */
static void
hang_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)req;
	(void)priv;
	(void)ORIGIN_Stall(oc, 60.0);
	ORIGIN_Close(oc);
}

/* Answer after 0.3 s: a probe of it takes that long. */
static void
slow_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{

	(void)req;
	(void)priv;
	if (ORIGIN_Stall(oc, 0.3) == 0)
		(void)ORIGIN_Respond(oc, 200, "Connection: close\r\n", "ok",
		    2);
	ORIGIN_Close(oc);
}

/*
 * The log so far, veneerlog -d -g raw -i tags, one record a line
 * (caller frees); NULL when VENEER_BUILDDIR (veneerlog's) is not set.
 */
static char *
log_dump(struct vnd *v, const char *tags)
{
	char cmd[4096], *buf;
	size_t len = 0, size = 1 << 16, n;
	const char *dir;
	FILE *f;

	dir = getenv("VENEER_BUILDDIR");
	if (dir == NULL)
		return (NULL);
	(void)snprintf(cmd, sizeof cmd, "timeout 20 %s/veneerlog -n %s -d "
	    "-g raw -i %s", dir, VND_Workdir(v), tags);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	buf = malloc(size);
	ck_assert_ptr_nonnull(buf);
	while ((n = fread(buf + len, 1, size - 1 - len, f)) > 0) {
		len += n;
		if (len == size - 1) {
			size *= 2;
			buf = realloc(buf, size);
			ck_assert_ptr_nonnull(buf);
		}
	}
	buf[len] = '\0';
	ck_assert_int_eq(pclose(f), 0);
	return (buf);
}

/* Lines of buf (up to end, if not NULL) containing both a and b. */
static unsigned
log_count(const char *buf, const char *end, const char *a, const char *b)
{
	const char *l, *nl;
	unsigned n = 0;

	for (l = buf; *l != '\0' && (end == NULL || l < end); l = nl + 1) {
		nl = strchr(l, '\n');
		if (nl == NULL)
			nl = l + strlen(l);
		if (memmem(l, (size_t)(nl - l), a, strlen(a)) != NULL &&
		    memmem(l, (size_t)(nl - l), b, strlen(b)) != NULL)
			n++;
		if (*nl == '\0')
			break;
	}
	return (n);
}

/* The n-th line (from 0) of buf containing both a and b, or NULL. */
static const char *
log_nth(const char *buf, unsigned n, const char *a, const char *b)
{
	const char *l, *nl;

	for (l = buf; *l != '\0'; l = nl + 1) {
		nl = strchr(l, '\n');
		if (nl == NULL)
			return (NULL);
		if (memmem(l, (size_t)(nl - l), a, strlen(a)) != NULL &&
		    memmem(l, (size_t)(nl - l), b, strlen(b)) != NULL &&
		    n-- == 0)
			return (l);
	}
	return (NULL);
}

/* Poll the log until n lines contain a and b; the dump (caller frees). */
static char *
log_wait(struct vnd *v, const char *tags, unsigned n, const char *a,
    const char *b)
{
	double deadline = HX_Now() + HX_T_SLOW;
	char *buf;

	for (;;) {
		buf = log_dump(v, tags);
		ck_assert_ptr_nonnull(buf);
		if (log_count(buf, NULL, a, b) >= n)
			return (buf);
		ck_assert_msg(HX_Now() < deadline, "after %.0f s, fewer than "
		    "%u records with \"%s\" and \"%s\":\n%s", HX_T_SLOW, n, a,
		    b, buf);
		free(buf);
		(void)usleep(100000);
	}
}

#define HANG_REC	"Backend_health - hang "
#define FAST_REC	"Backend_health - fast "
#define TIMED_OUT	"\"Poll error 110 "

/*
 * A backend that accepts and never answers (timeout 2 s) does not hold
 * up another's probes (interval 0.5 s), which keep coming, and see it
 * go sick when its origin answers 500.
 *
 * Between two timeout records of the hanging probe at least 2 s pass:
 * its next run starts after a record is logged, and its 2 s timer cannot
 * fire sooner.  The fast probe is due 0.5 s after each of its runs, so
 * in 2 s it logs two records unless one exchange with an origin thread
 * on loopback took over 0.5 s; it normally logs four.  Run one after the
 * other, as before, it logged exactly one: a hung probe held the thread.
 */
START_TEST(hang_does_not_delay)
{
	struct origin *oh, *of;
	struct vnd *v;
	const char *from, *to;
	char *vcl, *buf;
	unsigned n;
	int fd;

	if (getenv("VENEER_BUILDDIR") == NULL) {
		HX_Skip("VENEER_BUILDDIR is not set");
		return;
	}
	__atomic_store_n(&probe_status, 200, __ATOMIC_RELAXED);
	oh = ORIGIN_New(hang_handler, NULL);
	of = ORIGIN_New(probe_handler, NULL);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\n"
	    "probe p { .timeout = 2s; .interval = 0.5s; .window = 4; "
	    ".threshold = 3; .initial = 3; }\n"
	    "backend hang { .host = \"127.0.0.1\"; .port = \"%d\"; "
	    ".probe = p; }\n"
	    "backend fast { .host = \"127.0.0.1\"; .port = \"%d\"; "
	    ".probe = p; }\n"
	    "sub vcl_recv { set req.backend_hint = fast; }\n",
	    ORIGIN_Port(oh), ORIGIN_Port(of)), 0);
	v = VND_New();
	VND_VclFile(v, "probe.vcl", vcl);
	free(vcl);
	cli_args(v, 1);
	VND_Start(v);
	fd = cli_login(v);
	cli_wait(fd, "backend.list fast", "healthy");
	__atomic_store_n(&probe_status, 500, __ATOMIC_RELAXED);
	cli_wait(fd, "backend.list fast", "sick");
	buf = log_wait(v, "Backend_health", 2, HANG_REC, TIMED_OUT);
	from = log_nth(buf, 0, HANG_REC, TIMED_OUT);
	to = log_nth(buf, 1, HANG_REC, TIMED_OUT);
	ck_assert_ptr_nonnull(from);
	ck_assert_ptr_nonnull(to);
	n = log_count(from, to, FAST_REC, "\"HTTP/1.1 ");
	ck_assert_msg(n >= 2, "%u fast probes between two timeouts of the "
	    "hanging one:\n%s", n, buf);
	ck_assert_msg(log_count(buf, NULL, FAST_REC "Went sick", "") == 1,
	    "%s", buf);
	free(buf);
	(void)close(fd);
	VND_Finish(&v, &of);
	ORIGIN_Free(&oh);
}
END_TEST

/* A listening socket on 127.0.0.1; its port in *port. */
static int
raw_listen(int *port)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof sin;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(fd, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	ck_assert_int_eq(listen(fd, 16), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sin, &sl), 0);
	*port = ntohs(sin.sin_port);
	return (fd);
}

/* Wait for fd to be readable within HX_T_SLOW, or fail. */
static void
raw_wait_readable(int fd, const char *what)
{
	double deadline = HX_Now() + HX_T_SLOW;
	struct pollfd pfd;
	int i;

	do {
		pfd.fd = fd;
		pfd.events = POLLIN;
		i = poll(&pfd, 1, HXC_PollMs(deadline));
	} while (i < 0 && errno == EINTR);
	ck_assert_msg(i == 1, "no %s within %.0f s", what, HX_T_SLOW);
}

/*
 * Read what is there; 1 if the peer has not closed, 0 if it has.  The
 * probe's request arrives at once, so "open" after reading it means
 * the probe is still waiting for an answer.
 */
static int
raw_is_open(int fd)
{
	char buf[1024];
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		return (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));
	}
}

#define H_REC		"Backend_health - h "

/*
 * vcl.discard of a VCL whose probe is waiting for an answer returns at
 * once; the probe's connection is closed after it.  By log order: the
 * active VCL's backend h hangs too (timeout 2 s); its run that started
 * after d's (timeout 5 s, so still waiting) logs its timeout 2 s later,
 * and discard's answer comes before that record.  A PROBE_Free waiting
 * for d's run would answer after it; probes run one after another would
 * not start h's run while d's waits.
 */
START_TEST(discard_while_hanging)
{
	struct origin *oh;
	struct vnd *v;
	char *vcl, *path, *line, *buf;
	const char *wr;
	unsigned n;
	int fd, lfd, dfd, dport;

	if (getenv("VENEER_BUILDDIR") == NULL) {
		HX_Skip("VENEER_BUILDDIR is not set");
		return;
	}
	oh = ORIGIN_New(hang_handler, NULL);
	lfd = raw_listen(&dport);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nbackend h { .host = "
	    "\"127.0.0.1\"; .port = \"%d\"; .probe = { .url = \"/h\"; "
	    ".timeout = 2s; .interval = 0.5s; } }\n", ORIGIN_Port(oh)), 0);
	v = VND_New();
	VND_VclFile(v, "probe.vcl", vcl);
	free(vcl);
	cli_args(v, 1);
	VND_Start(v);
	fd = cli_login(v);
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nbackend hd { .host = "
	    "\"127.0.0.1\"; .port = \"%d\"; .probe = { .url = \"/d\"; "
	    ".timeout = 5s; .interval = 0.5s; } }\n", dport), 0);
	ck_assert_int_gt(asprintf(&path, "%s/d.vcl", VND_Dir(v)), 0);
	write_text(path, vcl);
	ck_assert_int_gt(asprintf(&line, "vcl.load d %s warm", path), 0);
	cli_expect(fd, line, 200, NULL);
	free(vcl);
	free(path);
	free(line);

	/* d's probe connected and sent its request: it waits. */
	raw_wait_readable(lfd, "probe connection from d");
	dfd = accept(lfd, NULL, NULL);
	ck_assert_int_ge(dfd, 0);
	raw_wait_readable(dfd, "probe request from d");
	/* A run of h starts after that, while d's waits. */
	ORIGIN_WaitReqs(oh, ORIGIN_NReq(oh) + 1, HX_T_SLOW);
	ck_assert_msg(raw_is_open(dfd), "d's probe gave up before h's "
	    "probe started");
	n = ORIGIN_NReq(oh);
	cli_expect(fd, "vcl.discard d", 200, NULL);
	/* The loop closes the given-up probe's connection. */
	raw_wait_readable(dfd, "close of d's probe connection");
	ck_assert(!raw_is_open(dfd));

	/* h's n-th run has timed out and is logged; discard came first. */
	buf = log_wait(v, "Backend_health,CLI", n, H_REC, TIMED_OUT);
	wr = log_nth(buf, 0, "CLI", "Rd vcl.discard \"d\"");
	ck_assert_msg(wr != NULL, "%s", buf);
	wr = strstr(wr, " Wr 200 ");
	ck_assert_ptr_nonnull(wr);
	ck_assert_msg(log_count(buf, wr, H_REC, TIMED_OUT) < n, "%u of h's "
	    "runs ended before discard answered:\n%s", n, buf);
	free(buf);
	(void)close(dfd);
	(void)close(lfd);
	(void)close(fd);
	VND_Finish(&v, &oh);
}
END_TEST

#define B_RESULT	"\"HTTP/1.1 "

/*
 * Where in buf backend b<u>'s n-th result (from 0) is, or NULL.  The
 * space after the name tells b1 from b10.
 */
static const char *
log_result(const char *buf, unsigned u, unsigned n)
{
	char name[40];

	(void)snprintf(name, sizeof name, "Backend_health - b%u ", u);
	return (log_nth(buf, n, name, B_RESULT));
}

/*
 * 100 backends probed every second: each has reported before any has
 * reported three times.  A probe takes 0.3 s (the origin waits), so
 * every first result comes by about 0.3 s, and the earliest third at
 * 2.3 s (runs start 1 s apart): within two intervals, with 2 s to spare
 * for connecting 100 probes at once.  One after the other, the first
 * round alone took 30 s.
 */
START_TEST(hundred_backends)
{
	struct origin *o;
	struct vnd *v;
	char *vcl, *buf;
	const char *first, *third, *r;
	double deadline;
	size_t len = 0, size = 1 << 16;
	unsigned u, missing;
	int fd;

	if (getenv("VENEER_BUILDDIR") == NULL) {
		HX_Skip("VENEER_BUILDDIR is not set");
		return;
	}
	o = ORIGIN_New(slow_handler, NULL);
	vcl = malloc(size);
	ck_assert_ptr_nonnull(vcl);
	len += (size_t)snprintf(vcl + len, size - len, "vcl 4.1;\n"
	    "probe p { .interval = 1s; .timeout = 2s; .window = 8; "
	    ".threshold = 1; .initial = 0; }\n");
	for (u = 0; u < 100; u++)
		len += (size_t)snprintf(vcl + len, size - len, "backend b%u "
		    "{ .host = \"127.0.0.1\"; .port = \"%d\"; .probe = p; }\n",
		    u, ORIGIN_Port(o));
	len += (size_t)snprintf(vcl + len, size - len, "sub vcl_recv {\n");
	for (u = 1; u < 100; u++)
		len += (size_t)snprintf(vcl + len, size - len, "\tif (req.url "
		    "== \"/%u\") { set req.backend_hint = b%u; }\n", u, u);
	len += (size_t)snprintf(vcl + len, size - len, "}\n");
	ck_assert_uint_lt(len, size);
	v = VND_New();
	VND_VclFile(v, "probe.vcl", vcl);
	free(vcl);
	cli_args(v, 1);
	VND_Start(v);
	fd = cli_login(v);
	deadline = HX_Now() + HX_T_SLOW;
	for (;;) {
		buf = log_dump(v, "Backend_health");
		ck_assert_ptr_nonnull(buf);
		for (u = missing = 0; u < 100; u++)
			missing += log_result(buf, u, 0) == NULL;
		if (missing == 0)
			break;
		ck_assert_msg(HX_Now() < deadline, "%u of 100 backends have "
		    "not reported after %.0f s", missing, HX_T_SLOW);
		free(buf);
		(void)usleep(100000);
	}
	first = third = NULL;
	for (u = 0; u < 100; u++) {
		r = log_result(buf, u, 0);
		if (first == NULL || r > first)
			first = r;
		r = log_result(buf, u, 2);
		if (r != NULL && (third == NULL || r < third))
			third = r;
	}
	ck_assert_msg(third == NULL || first < third, "a backend's first "
	    "result came after another's third:\n%s", buf);
	free(buf);
	(void)close(fd);
	VND_Finish(&v, &o);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("probe");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sick_and_back);
	tcase_add_test(tc, initial_zero);
	tcase_add_test(tc, expected_response);
	tcase_add_test(tc, set_health_over_probe);
	tcase_add_test(tc, cold_vcl);
	tcase_add_test(tc, backend_health_log);
	tcase_add_test(tc, hang_does_not_delay);
	tcase_add_test(tc, discard_while_hanging);
	tcase_add_test(tc, hundred_backends);
	suite_add_tcase(s, tc);
	return (HX_Run(s));
}

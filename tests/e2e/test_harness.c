/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_harness.c -- the e2e harness checked against itself, without
 * veneerd: the origin and the client talk to each other directly, the
 * counters reader reads files written here, and the process control runs
 * this program itself as a fake veneerd (HX_FAKE_VENEERD=1), which takes
 * veneerd's options, writes _.listen pointing at the -b port (so clients
 * reach the origin straight) and a counters file, and exits 0 on SIGTERM.
 *
 * Tests named *_fails check that the harness fails a test (exit status 1
 * from check) instead of hanging, within the check timeout.
 */

#include "config.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/harness.h"

static const char * const fake_names[] = {
	"client_req", "sess_conn", "backend_conn", NULL
};

/*--------------------------------------------------------------------
 * Writing counters files (for the reader tests and the fake).
 */

static void
put_u64(unsigned char *p, uint64_t v)
{
	unsigned u;

	for (u = 0; u < 8; u++)
		p[u] = (unsigned char)(v >> (8 * u));
}

/* Write a whole file, then rename it into place. */
static int
write_file(const char *path, const void *buf, size_t len)
{
	char tmp[4200];
	int fd, r;

	(void)snprintf(tmp, sizeof tmp, "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return (-1);
	r = write(fd, buf, len) == (ssize_t)len ? 0 : -1;
	(void)close(fd);
	return (r == 0 ? rename(tmp, path) : -1);
}

/*
 * Publish counters as veneerd does (doc/vsm-format.md): in
 * dir/_.vsm_child, a Stat segment (24-byte head: ready, body offset, doc
 * id; then the values), a StatDoc segment (same head, then JSON giving
 * each counter's byte index) and an _.index naming both and the child.
 * Each call writes new files, as a restarted child would.
 */
static int
write_counters(const char *dir, const char * const *names,
    const uint64_t *values, pid_t child)
{
	static unsigned gen;
	unsigned char stat[4096], doc[4096];
	char vdir[4096], path[4200], index[1024];
	size_t dlen, slen;
	unsigned n, u;
	uint64_t docid;

	(void)snprintf(vdir, sizeof vdir, "%s/_.vsm_child", dir);
	if (mkdir(vdir, 0755) != 0 && errno != EEXIST)
		return (-1);
	gen++;
	docid = 0xfeed0000 + gen;
	memset(doc, 0, sizeof doc);
	dlen = 24 + (size_t)snprintf((char *)doc + 24, sizeof doc - 24,
	    "{\"version\":\"1\",\"name\":\"main\",\"elem\":{");
	for (n = 0; names[n] != NULL; n++)
		dlen += (size_t)snprintf((char *)doc + dlen, sizeof doc - dlen,
		    "%s\"%s\":{\"type\":\"counter\",\"index\":%u,"
		    "\"name\":\"%s\"}", n > 0 ? "," : "", names[n], n * 8,
		    names[n]);
	dlen += (size_t)snprintf((char *)doc + dlen, sizeof doc - dlen, "}}");
	dlen++;
	put_u64(doc, 1);
	put_u64(doc + 8, 24);
	put_u64(doc + 16, docid);
	memset(stat, 0, sizeof stat);
	put_u64(stat, 1);
	put_u64(stat + 8, 24);
	put_u64(stat + 16, docid);
	for (u = 0; u < n; u++)
		put_u64(stat + 24 + 8 * u, values[u]);
	slen = 24 + 8 * (size_t)n;
	(void)snprintf(path, sizeof path, "%s/_.StatDoc.%u", vdir, gen);
	if (write_file(path, doc, dlen) != 0)
		return (-1);
	(void)snprintf(path, sizeof path, "%s/_.Stat.%u", vdir, gen);
	if (write_file(path, stat, slen) != 0)
		return (-1);
	(void)snprintf(index, sizeof index, "# %ld 1\n"
	    "+ _.StatDoc.%u 0 %zu StatDoc %jx\n"
	    "+ _.Stat.%u 0 %zu Stat MAIN\n", (long)child, gen, dlen,
	    (uintmax_t)docid, gen, slen);
	(void)snprintf(path, sizeof path, "%s/_.index", vdir);
	return (write_file(path, index, strlen(index)));
}

/* Overwrite value i in place, as the live child does. */
static int
poke_counter(const char *dir, unsigned i, uint64_t v)
{
	char path[4200], *index, file[256];
	unsigned char b[8];
	const char *p;
	int fd, r;

	(void)snprintf(path, sizeof path, "%s/_.vsm_child/_.index", dir);
	index = HX_ReadFile(path, NULL);
	if (index == NULL)
		return (-1);
	p = strstr(index, "+ _.Stat.");
	r = p != NULL ? sscanf(p, "+ %255s", file) : 0;
	free(index);
	if (r != 1)
		return (-1);
	(void)snprintf(path, sizeof path, "%s/_.vsm_child/%s", dir, file);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return (-1);
	put_u64(b, v);
	r = pwrite(fd, b, 8, (off_t)(24 + 8 * i)) == 8 ? 0 : -1;
	(void)close(fd);
	return (r);
}

/*--------------------------------------------------------------------
 * The fake veneerd.
 */

static int
fake_write(const char *path, const char *text)
{
	char tmp[4096];
	size_t len;
	int fd, r;

	(void)snprintf(tmp, sizeof tmp, "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return (-1);
	len = strlen(text);
	r = write(fd, text, len) == (ssize_t)len ? 0 : -1;
	(void)close(fd);
	return (r == 0 ? rename(tmp, path) : -1);
}

static int
fake_main(int argc, char **argv)
{
	const char *mode, *workdir, *pidfile, *backend;
	uint64_t zero[3] = { 0, 0, 0 };
	char path[4096], text[512];
	int i, foreground, nlisten, sig;
	sigset_t set;

	mode = getenv("HX_FAKE_MODE");
	if (mode == NULL)
		mode = "";
	workdir = pidfile = backend = NULL;
	foreground = nlisten = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-V") == 0) {
			(void)printf("veneerd (veneer fake)\n");
			return (0);
		} else if (strcmp(argv[i], "-F") == 0) {
			foreground = 1;
		} else if (i + 1 < argc && strcmp(argv[i], "-n") == 0) {
			workdir = argv[++i];
		} else if (i + 1 < argc && strcmp(argv[i], "-P") == 0) {
			pidfile = argv[++i];
		} else if (i + 1 < argc && strcmp(argv[i], "-b") == 0) {
			backend = argv[++i];
		} else if (i + 1 < argc && strcmp(argv[i], "-a") == 0) {
			nlisten++;
			i++;
		} else if (i + 1 < argc && (strcmp(argv[i], "-j") == 0 ||
		    strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-s") == 0)) {
			i++;
		} else {
			(void)fprintf(stderr, "fake veneerd: unknown option "
			    "%s\n", argv[i]);
			return (2);
		}
	}
	if (workdir == NULL || backend == NULL ||
	    strchr(backend, ':') == NULL) {
		(void)fprintf(stderr, "fake veneerd: -n and -b needed\n");
		return (2);
	}
	if (strcmp(mode, "exit3") == 0)
		return (3);
	if (!foreground) {
		if (fork() != 0)
			_exit(0);
		(void)setsid();
	}
	if (strcmp(mode, "panic") == 0)
		(void)fprintf(stderr, "Panic: fake assert at fake.c:1\n");
	if (mkdir(workdir, 0755) != 0 && errno != EEXIST)
		return (1);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	(void)sigprocmask(SIG_BLOCK, &set, NULL);
	if (strcmp(mode, "hang") == 0) {
		for (;;)
			(void)pause();
	}
	if (pidfile != NULL) {
		(void)snprintf(text, sizeof text, "%ld\n", (long)getpid());
		if (fake_write(pidfile, text) != 0)
			return (1);
	}
	(void)snprintf(path, sizeof path, "%s", workdir);
	if (write_counters(path, fake_names, zero, getpid()) != 0)
		return (1);
	text[0] = '\0';
	for (i = 0; i < (nlisten == 0 ? 1 : nlisten); i++)
		(void)snprintf(text + strlen(text), sizeof text - strlen(text),
		    "a%d 127.0.0.1 %s\n", i, strchr(backend, ':') + 1);
	(void)snprintf(path, sizeof path, "%s/_.listen", workdir);
	if (fake_write(path, text) != 0)
		return (1);
	(void)printf("Listen %s", text);
	(void)fflush(stdout);
	(void)sigwait(&set, &sig);
	if (pidfile != NULL)
		(void)unlink(pidfile);
	return (0);
}

static void
use_fake(void)
{
	char self[4096];
	ssize_t n;

	n = readlink("/proc/self/exe", self, sizeof self - 1);
	ck_assert_msg(n > 0, "readlink /proc/self/exe: %s", strerror(errno));
	self[n] = '\0';
	ck_assert(setenv("VENEERD", self, 1) == 0);
	ck_assert(setenv("HX_FAKE_VENEERD", "1", 1) == 0);
	ck_assert(unsetenv("HX_FAKE_MODE") == 0);
}

/*--------------------------------------------------------------------
 * An origin whose answers depend on the URL.
 */

static void
script_handler(struct origin_conn *oc, const struct hx_msg *req, void *priv)
{
	const char *u;

	(void)priv;
	u = req->url;
	if (strcmp(u, "/chunked") == 0) {
		(void)ORIGIN_Head(oc, 200, "Transfer-Encoding: chunked\r\n");
		(void)ORIGIN_Chunk(oc, "hello", 5);
		(void)ORIGIN_Printf(oc, "6;ext=1\r\n, big \r\n");
		(void)ORIGIN_Chunk(oc, "world", 5);
		(void)ORIGIN_ChunkEnd(oc, "X-Trailer: yes\r\n");
	} else if (strcmp(u, "/eof") == 0) {
		(void)ORIGIN_Head(oc, 200, "Content-Type: text/plain\r\n");
		(void)ORIGIN_Send(oc, "until close", 11);
		ORIGIN_Close(oc);
	} else if (strcmp(u, "/204") == 0) {
		(void)ORIGIN_Respond(oc, 204, NULL, NULL, 0);
	} else if (strcmp(u, "/304") == 0) {
		(void)ORIGIN_Respond(oc, 304, "ETag: \"x\"\r\n", NULL, 0);
	} else if (strcmp(u, "/interim") == 0) {
		(void)ORIGIN_Head(oc, 100, NULL);
		(void)ORIGIN_Head(oc, 103, "Link: </s.css>; rel=preload\r\n");
		(void)ORIGIN_Respond(oc, 200, NULL, "final", -1);
	} else if (strcmp(u, "/reset") == 0) {
		(void)ORIGIN_Send(oc, "HTTP/1.1 200 OK\r\nContent-Ty", 27);
		ORIGIN_Reset(oc);
	} else if (strcmp(u, "/close") == 0) {
		(void)ORIGIN_Respond(oc, 200, NULL, "bye", -1);
		ORIGIN_Close(oc);
	} else if (strcmp(u, "/raw") == 0) {
		(void)ORIGIN_Send(oc, "raw bytes", 9);
		ORIGIN_Close(oc);
	} else if (strcmp(u, "/stall") == 0) {
		(void)ORIGIN_Stall(oc, 60);
	} else if (strcmp(u, "/flood") == 0) {
		(void)ORIGIN_Head(oc, 200, "Content-Length: 1073741824\r\n");
		(void)ORIGIN_SendPattern(oc, 0, 1073741824);
	} else if (strcmp(u, "/big") == 0) {
		(void)ORIGIN_Head(oc, 200, "Content-Length: 67108864\r\n");
		(void)ORIGIN_SendPattern(oc, 0, 67108864);
	} else if (strcmp(u, "/echo") == 0) {
		(void)ORIGIN_Respond(oc, 200, NULL, req->body, req->bodylen);
	} else {
		ORIGIN_DefaultHandler(oc, req, priv);
	}
}

/*--------------------------------------------------------------------
 * Origin and client against each other.
 */

START_TEST(get_with_length)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	const struct hx_msg *q;

	o = ORIGIN_New(NULL, NULL);
	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	r = CLIENT_Fetch(cl, "GET", "/a", "X-Test: 1\r\n", HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->proto, "HTTP/1.1");
	ck_assert_str_eq(r->reason, "OK");
	ck_assert_str_eq(r->body, "/a");
	ck_assert_int_eq(r->body_kind, HX_BODY_LENGTH);
	ck_assert_str_eq(HX_Header(r, "x-url"), "/a");
	ck_assert_str_eq(HX_Header(r, "Content-Length"), "2");
	ck_assert_ptr_null(HX_Header(r, "Date"));
	HX_MsgFree(&r);
	q = ORIGIN_Req(o, 0);
	ck_assert_str_eq(q->method, "GET");
	ck_assert_str_eq(q->url, "/a");
	ck_assert_str_eq(q->proto, "HTTP/1.1");
	ck_assert_str_eq(HX_Header(q, "Host"), "e2e.test");
	ck_assert_str_eq(HX_Header(q, "X-Test"), "1");
	ck_assert_int_eq(q->body_kind, HX_BODY_NONE);
	ck_assert_int_eq(ORIGIN_NConn(o), 1);
	ck_assert_int_eq(ORIGIN_NErr(o), 0);
	CLIENT_Free(&cl);
	ORIGIN_Free(&o);
}
END_TEST

START_TEST(keepalive_and_pipelining)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	char url[16];
	int i;

	o = ORIGIN_New(NULL, NULL);
	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	r = CLIENT_Fetch(cl, "GET", "/first", NULL, HX_T_RESP);
	HX_MsgFree(&r);
	CLIENT_SendStr(cl, "GET /p1 HTTP/1.1\r\nHost: x\r\n\r\n"
	    "GET /p2 HTTP/1.1\r\nHost: x\r\n\r\n"
	    "GET /p3 HTTP/1.1\r\nHost: x\r\n\r\n");
	for (i = 1; i <= 3; i++) {
		r = CLIENT_Resp(cl, 0, HX_T_RESP);
		(void)snprintf(url, sizeof url, "/p%d", i);
		ck_assert_str_eq(r->body, url);
		HX_MsgFree(&r);
	}
	ck_assert_int_eq(ORIGIN_NConn(o), 1);
	ck_assert_int_eq(ORIGIN_NReq(o), 4);
	ck_assert_int_eq(ORIGIN_Req(o, 3)->conn_req, 4);
	ck_assert_ptr_nonnull(ORIGIN_FindReq(o, "/p2"));
	ck_assert_ptr_null(ORIGIN_FindReq(o, "/nope"));
	ck_assert_int_eq(CLIENT_Pending(cl), 0);
	CLIENT_Free(&cl);
	ORIGIN_WaitIdle(o, HX_T_RESP);
	ORIGIN_Free(&o);
}
END_TEST

START_TEST(response_framings)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;

	o = ORIGIN_New(script_handler, NULL);
	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);

	r = CLIENT_Fetch(cl, "GET", "/chunked", NULL, HX_T_RESP);
	ck_assert_int_eq(r->body_kind, HX_BODY_CHUNKED);
	ck_assert_str_eq(r->body, "hello, big world");
	ck_assert_int_eq(r->nchunk, 3);
	ck_assert_int_eq(r->ntrailer, 1);
	ck_assert_str_eq(r->trailer[0].name, "X-Trailer");
	ck_assert_str_eq(r->trailer[0].value, "yes");
	HX_MsgFree(&r);

	r = CLIENT_Fetch(cl, "GET", "/204", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 204);
	ck_assert_int_eq(r->body_kind, HX_BODY_NONE);
	ck_assert_int_eq(r->bodylen, 0);
	HX_MsgFree(&r);
	r = CLIENT_Fetch(cl, "GET", "/304", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 304);
	HX_MsgFree(&r);

	r = CLIENT_Fetch(cl, "HEAD", "/head", NULL, HX_T_RESP);
	ck_assert_str_eq(HX_Header(r, "Content-Length"), "5");
	ck_assert_int_eq(r->bodylen, 0);
	HX_MsgFree(&r);
	ck_assert_int_eq(CLIENT_Pending(cl), 0);

	r = CLIENT_Fetch(cl, "GET", "/interim", NULL, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	ck_assert_str_eq(r->body, "final");
	ck_assert_int_eq(r->ninterim, 2);
	ck_assert_int_eq(r->interim[0]->status, 100);
	ck_assert_int_eq(r->interim[1]->status, 103);
	ck_assert_str_eq(HX_Header(r->interim[1], "Link"),
	    "</s.css>; rel=preload");
	HX_MsgFree(&r);

	CLIENT_Req(cl, "GET", "/interim", NULL, NULL, 0);
	r = CLIENT_Resp(cl, RESP_INTERIM, HX_T_RESP);
	ck_assert_int_eq(r->status, 100);
	HX_MsgFree(&r);
	r = CLIENT_Resp(cl, RESP_INTERIM, HX_T_RESP);
	ck_assert_int_eq(r->status, 103);
	HX_MsgFree(&r);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);

	r = CLIENT_Fetch(cl, "GET", "/eof", NULL, HX_T_RESP);
	ck_assert_int_eq(r->body_kind, HX_BODY_EOF);
	ck_assert_str_eq(r->body, "until close");
	HX_MsgFree(&r);
	CLIENT_AssertClosed(cl, 1.0);
	CLIENT_Free(&cl);
	ORIGIN_Free(&o);
}
END_TEST

START_TEST(request_bodies)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	const struct hx_msg *q;
	char *big;

	o = ORIGIN_New(script_handler, NULL);
	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	CLIENT_Req(cl, "POST", "/echo", NULL, "abc\0def", 7);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->bodylen, 7);
	ck_assert(memcmp(r->body, "abc\0def", 7) == 0);
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/echo");
	ck_assert_int_eq(q->body_kind, HX_BODY_LENGTH);

	CLIENT_SendStr(cl, "POST /chunky HTTP/1.1\r\nHost: x\r\n"
	    "Transfer-Encoding: chunked\r\n\r\n"
	    "3\r\nabc\r\n4;x=y\r\ndefg\r\n0\r\nX-T: 1\r\n\r\n");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/chunky");
	ck_assert_int_eq(q->body_kind, HX_BODY_CHUNKED);
	ck_assert_str_eq(q->body, "abcdefg");
	ck_assert_int_eq(q->ntrailer, 1);

	big = malloc(1 << 20);
	ck_assert_ptr_nonnull(big);
	HX_Pattern(big, 12345, 1 << 20);
	CLIENT_Req(cl, "PUT", "/big-up", NULL, big, 1 << 20);
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	HX_MsgFree(&r);
	q = ORIGIN_FindReq(o, "/big-up");
	ck_assert_int_eq(q->bodylen, 1 << 20);
	ck_assert_int_eq(HX_PatternCheck(q->body, 12345, 1 << 20), 0);
	ck_assert_int_ne(HX_PatternCheck(q->body, 12346, 1 << 20), 0);
	free(big);

	CLIENT_SendStr(cl, "POST /expect HTTP/1.1\r\nHost: x\r\n"
	    "Expect: 100-continue\r\nContent-Length: 4\r\n\r\n");
	r = CLIENT_Resp(cl, RESP_INTERIM, HX_T_RESP);
	ck_assert_int_eq(r->status, 100);
	HX_MsgFree(&r);
	CLIENT_SendStr(cl, "body");
	r = CLIENT_Resp(cl, 0, HX_T_RESP);
	ck_assert_int_eq(r->status, 200);
	HX_MsgFree(&r);
	ck_assert_str_eq(ORIGIN_FindReq(o, "/expect")->body, "body");
	ck_assert_int_eq(ORIGIN_NErr(o), 0);
	CLIENT_Free(&cl);
	ORIGIN_Free(&o);
}
END_TEST

START_TEST(closes_and_resets)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	double t0;
	size_t len;
	char *all;

	o = ORIGIN_New(script_handler, NULL);

	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	CLIENT_Req(cl, "GET", "/reset", NULL, NULL, 0);
	r = CLIENT_TryResp(cl, 0, HX_T_RESP);
	ck_assert_ptr_null(r);
	ck_assert_msg(CLIENT_LastIO(cl) == HX_IO_RESET, "got %s: %s",
	    HX_IoName(CLIENT_LastIO(cl)), CLIENT_Error(cl));
	CLIENT_Free(&cl);

	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	r = CLIENT_Fetch(cl, "GET", "/close", NULL, HX_T_RESP);
	ck_assert_str_eq(r->body, "bye");
	HX_MsgFree(&r);
	CLIENT_AssertClosed(cl, 1.0);
	CLIENT_Free(&cl);

	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	r = CLIENT_Fetch(cl, "GET", "/open", NULL, HX_T_RESP);
	HX_MsgFree(&r);
	t0 = HX_Now();
	ck_assert_int_eq(CLIENT_WaitClose(cl, 0.2), HX_IO_TIMEOUT);
	ck_assert(HX_Now() - t0 >= 0.19 && HX_Now() - t0 < 1.0);
	CLIENT_Req(cl, "GET", "/raw", NULL, NULL, 0);
	all = CLIENT_ReadAll(cl, &len, HX_T_RESP);
	ck_assert_int_eq(len, 9);
	ck_assert_str_eq(all, "raw bytes");
	free(all);
	CLIENT_Free(&cl);

	/* Something that does not listen refuses. */
	ck_assert_ptr_null(CLIENT_TryNew("127.0.0.1", HX_ClosedPort(), 1.0,
	    (int *)&len));
	ORIGIN_Free(&o);
}
END_TEST

START_TEST(origin_stops_with_stuck_peers)
{
	struct client *c1, *c2, *c3;
	struct origin *o;
	double t0;

	o = ORIGIN_New(script_handler, NULL);
	c1 = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	CLIENT_Req(c1, "GET", "/stall", NULL, NULL, 0);
	c2 = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	CLIENT_Req(c2, "GET", "/flood", NULL, NULL, 0);
	c3 = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	CLIENT_SendStr(c3, "GET /half HTTP/1.1\r\nHost");
	ORIGIN_WaitReqs(o, 2, HX_T_RESP);
	t0 = HX_Now();
	ORIGIN_Free(&o);
	ck_assert_msg(HX_Now() - t0 < 1.0, "ORIGIN_Free took %.2f s",
	    HX_Now() - t0);
	/* The origin closed them all. */
	ck_assert_int_ne(CLIENT_Drain(c1, 2.0), HX_IO_TIMEOUT);
	ck_assert_int_ne(CLIENT_Drain(c2, 2.0), HX_IO_TIMEOUT);
	ck_assert_int_ne(CLIENT_Drain(c3, 2.0), HX_IO_TIMEOUT);
	CLIENT_Free(&c1);
	CLIENT_Free(&c2);
	CLIENT_Free(&c3);
}
END_TEST

START_TEST(origin_notes_bad_requests)
{
	struct origin *o;
	struct client *cl;

	o = ORIGIN_New(NULL, NULL);
	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	CLIENT_SendStr(cl, "GET / HTTP/1.1\r\nNo colon here\r\n\r\n");
	CLIENT_AssertClosed(cl, HX_T_RESP);
	CLIENT_Free(&cl);
	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	CLIENT_SendStr(cl, "POST / HTTP/1.1\r\nHost: x\r\n"
	    "Transfer-Encoding: gzip\r\n\r\n");
	CLIENT_AssertClosed(cl, HX_T_RESP);
	CLIENT_Free(&cl);
	ck_assert_int_eq(ORIGIN_NErr(o), 2);
	ck_assert_int_eq(ORIGIN_NReq(o), 0);
	ORIGIN_Free(&o);
}
END_TEST

struct pattern_sink {
	unsigned	magic;
#define PATTERN_SINK_MAGIC	0x17b6ec76
	uint64_t	off;
	int		bad;
};

static int
pattern_sink(void *priv, const void *data, size_t len)
{
	struct pattern_sink *ps;

	ps = priv;
	ck_assert(ps->magic == PATTERN_SINK_MAGIC);
	if (HX_PatternCheck(data, ps->off, len) != 0)
		ps->bad++;
	ps->off += len;
	return (0);
}

START_TEST(pattern_streams)
{
	struct pattern_sink ps;
	unsigned char a[200000], b[100];
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;

	HX_Pattern(a, 7, sizeof a);
	HX_Pattern(b, 7 + 131000, sizeof b);
	ck_assert(memcmp(a + 131000, b, sizeof b) == 0);
	ck_assert_int_eq(HX_PatternCheck(a + 99, 106, 1000), 0);
	a[500] ^= 1;
	ck_assert_int_ne(HX_PatternCheck(a, 7, sizeof a), 0);

	o = ORIGIN_New(script_handler, NULL);
	cl = CLIENT_New("127.0.0.1", ORIGIN_Port(o), HX_T_RESP);
	memset(&ps, 0, sizeof ps);
	ps.magic = PATTERN_SINK_MAGIC;
	CLIENT_SetSink(cl, pattern_sink, &ps);
	r = CLIENT_Fetch(cl, "GET", "/big", NULL, HX_T_SLOW);
	ck_assert_int_eq(r->bodylen, 67108864);
	ck_assert_ptr_null(r->body);
	ck_assert_int_eq(ps.off, 67108864);
	ck_assert_int_eq(ps.bad, 0);
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	ORIGIN_Free(&o);
}
END_TEST

START_TEST(header_tokens)
{
	const char *h1 = "HTTP/1.1 200 OK\r\n"
	    "Connection: Keep-Alive , x-foo\r\nconnection: close\r\n"
	    "Empty:\r\n\r\n";
	const char *h2 = "HTTP/1.1 200 OK\r\nA: 1\r\n b\r\n\r\n";
	struct hx_msg m;
	char why[160];

	memset(&m, 0, sizeof m);
	m.magic = HX_MSG_MAGIC;
	ck_assert_int_eq(HXM_Parse(&m, h1, strlen(h1), 0, why, sizeof why),
	    0);
	ck_assert(HX_HeaderHasToken(&m, "Connection", "x-FOO"));
	ck_assert(HX_HeaderHasToken(&m, "Connection", "close"));
	ck_assert(HX_HeaderHasToken(&m, "Connection", "keep-alive"));
	ck_assert(!HX_HeaderHasToken(&m, "Connection", "x-fo"));
	ck_assert_int_eq(HX_HeaderCount(&m, "CONNECTION"), 2);
	ck_assert_str_eq(HX_Header(&m, "Empty"), "");
	free(m.head);
	free(m.work);
	free(m.hdr);
	memset(&m, 0, sizeof m);
	m.magic = HX_MSG_MAGIC;
	ck_assert_int_eq(HXM_Parse(&m, h2, strlen(h2), 0, why, sizeof why),
	    -1);
	ck_assert_msg(strstr(why, "obs-fold") != NULL, "%s", why);
	free(m.head);
	free(m.work);
	free(m.hdr);
	ck_assert(HX_HasField("A: 1\r\nhost: x\r\n", "Host"));
	ck_assert(!HX_HasField("X-Host: x\r\n", "Host"));
}
END_TEST

/*--------------------------------------------------------------------
 * Counters files.
 */

static pid_t
spare_process(void)
{
	pid_t pid;

	pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		for (;;)
			(void)pause();
	}
	return (pid);
}

struct poker {
	unsigned	magic;
#define POKER_MAGIC	0x5233cf94
	const char	*dir;
};

static void *
poker_thread(void *arg)
{
	struct poker *pk;

	pk = arg;
	assert(pk->magic == POKER_MAGIC);
	(void)poll(NULL, 0, 200);
	(void)poke_counter(pk->dir, 1, 42);
	return (NULL);
}

START_TEST(counters_reader)
{
	uint64_t vals[3] = { 7, 0, 1ULL << 40 };
	pthread_t thr;
	struct poker pk;
	struct vnd *v;
	pid_t p1, p2;
	uint64_t x;

	p1 = spare_process();
	p2 = spare_process();
	v = VND_New();
	ck_assert_int_eq(mkdir(VND_Workdir(v), 0755), 0);
	ck_assert_int_eq(VND_TryCounter(v, "client_req", &x), -1);
	ck_assert_int_eq(write_counters(VND_Workdir(v), fake_names, vals, p1),
	    0);
	ck_assert_int_eq(VND_Counter(v, "client_req"), 7);
	ck_assert_int_eq(VND_Counter(v, "backend_conn"), 1ULL << 40);
	ck_assert_int_eq(VND_TryCounter(v, "no_such", &x), -1);
	ck_assert_int_eq(VND_ChildPid(v), p1);

	pk.magic = POKER_MAGIC;
	pk.dir = VND_Workdir(v);
	ck_assert_int_eq(pthread_create(&thr, NULL, poker_thread, &pk), 0);
	ck_assert_int_eq(VND_WaitCounter(v, "sess_conn", ">=", 40, 5.0), 42);
	(void)pthread_join(thr, NULL);
	ck_assert_int_eq(VND_WaitCounter(v, "client_req", "==", 7, 0.1), 7);

	vals[0] = 8;
	ck_assert_int_eq(write_counters(VND_Workdir(v), fake_names, vals, p2),
	    0);
	ck_assert_int_eq(VND_WaitChildPidChange(v, p1, 2.0), p2);
	ck_assert_int_eq(VND_Counter(v, "client_req"), 8);
	ck_assert_int_gt(HX_ProcStatus(getpid(), "Threads"), 0);
	ck_assert_int_gt(HX_ProcStatus(getpid(), "VmRSS"), 0);
	/* Two children seen: declare it, or the teardown fails. */
	VND_ExpectChildDeath(v);
	VND_Free(&v);
	/* The teardown killed the children it saw. */
	ck_assert_int_eq(waitpid(p1, NULL, 0), p1);
	ck_assert_int_eq(waitpid(p2, NULL, 0), p2);
}
END_TEST

START_TEST(counters_unknown_name_fails)
{
	uint64_t vals[3] = { 0, 0, 0 };
	struct vnd *v;

	v = VND_New();
	ck_assert_int_eq(mkdir(VND_Workdir(v), 0755), 0);
	ck_assert_int_eq(write_counters(VND_Workdir(v), fake_names, vals,
	    getpid()), 0);
	(void)VND_Counter(v, "no_such_counter");
	ck_abort_msg("VND_Counter accepted an unknown name");
}
END_TEST

START_TEST(counters_wait_times_out_fails)
{
	uint64_t vals[3] = { 0, 0, 0 };
	struct vnd *v;

	v = VND_New();
	ck_assert_int_eq(mkdir(VND_Workdir(v), 0755), 0);
	ck_assert_int_eq(write_counters(VND_Workdir(v), fake_names, vals,
	    getpid()), 0);
	(void)VND_WaitCounter(v, "client_req", ">", 0, 0.5);
	ck_abort_msg("VND_WaitCounter did not time out");
}
END_TEST

/*--------------------------------------------------------------------
 * Process control with the fake veneerd.
 */

START_TEST(fake_start_and_stop)
{
	struct origin *o;
	struct client *cl;
	struct hx_msg *r;
	struct vnd *v;
	char *log;

	use_fake();
	o = ORIGIN_New(NULL, NULL);
	v = VND_Launch(ORIGIN_Port(o), "timeout_idle=1s", NULL);
	ck_assert_int_eq(VND_NListen(v), 1);
	ck_assert_str_eq(VND_Addr(v, 0), "127.0.0.1");
	ck_assert_int_eq(VND_Port(v, 0), ORIGIN_Port(o));
	ck_assert_int_eq(VND_ChildPid(v), VND_Pid(v));
	ck_assert_int_eq(VND_Counter(v, "client_req"), 0);
	cl = VND_Connect(v);
	r = CLIENT_Fetch(cl, "GET", "/via-fake", NULL, HX_T_RESP);
	ck_assert_str_eq(r->body, "/via-fake");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	ck_assert_ptr_null(VND_LogProblem(v));
	log = VND_Log(v);
	ck_assert_msg(strstr(log, "Listen a0 127.0.0.1") != NULL, "%s", log);
	free(log);
	VND_Stop(v);
	VND_Free(&v);
	ORIGIN_Free(&o);
}
END_TEST

START_TEST(fake_two_listen)
{
	struct vnd *v;

	use_fake();
	v = VND_New();
	VND_Backend(v, 1);
	VND_Listen(v, "127.0.0.1:0");
	VND_Listen(v, "127.0.0.1:0");
	VND_Start(v);
	ck_assert_int_eq(VND_NListen(v), 2);
	ck_assert_int_eq(VND_Port(v, 1), 1);
	VND_Free(&v);
}
END_TEST

START_TEST(fake_exec_and_daemon)
{
	char path[4096], *s, *out;
	struct vnd *v, *d;
	double t0;
	pid_t pid;

	use_fake();
	v = VND_New();
	ck_assert_int_eq(VND_Exec(v, 0, 5.0, "-V", NULL), 0);
	out = VND_ExecOut(v);
	ck_assert_msg(strstr(out, "veneer") != NULL, "%s", out);
	free(out);
	ck_assert_int_eq(VND_Exec(v, 1, 5.0, "-Z", NULL), 2);
	out = VND_ExecErr(v);
	ck_assert_msg(strstr(out, "-Z") != NULL, "%s", out);
	free(out);
	ck_assert_int_eq(VND_Exec(v, 0, 5.0, "-F", "-n", VND_Workdir(v),
	    NULL), 2);
	setenv("HX_FAKE_MODE", "exit3", 1);
	ck_assert_int_eq(VND_Exec(v, 1, 5.0, NULL), 3);
	unsetenv("HX_FAKE_MODE");

	/* Daemon mode: the launcher exits 0, the daemon is adopted. */
	d = VND_New();
	(void)snprintf(path, sizeof path, "%s/veneerd.pid", VND_Dir(d));
	ck_assert_int_eq(VND_Exec(d, 0, 5.0, "-n", VND_Workdir(d), "-b",
	    "127.0.0.1:80", "-P", path, NULL), 0);
	t0 = HX_Now();
	while ((s = HX_ReadFile(path, NULL)) == NULL && HX_Now() - t0 < 5)
		(void)poll(NULL, 0, 10);
	ck_assert_ptr_nonnull(s);
	pid = (pid_t)strtol(s, NULL, 10);
	free(s);
	VND_Adopt(d, pid);
	VND_WaitListen(d);
	ck_assert_int_eq(VND_Port(d, 0), 80);
	VND_Stop(d);
	ck_assert_int_ne(access(path, F_OK), 0);
	VND_Free(&d);
	VND_Free(&v);
}
END_TEST

START_TEST(fake_exec_timeout_fails)
{
	struct vnd *v;

	use_fake();
	setenv("HX_FAKE_MODE", "hang", 1);
	v = VND_New();
	(void)VND_Exec(v, 1, 1.0, NULL);
	ck_abort_msg("VND_Exec did not time out");
}
END_TEST

START_TEST(fake_early_exit_fails)
{
	struct vnd *v;

	use_fake();
	setenv("HX_FAKE_MODE", "exit3", 1);
	v = VND_Launch(1, NULL);
	VND_Free(&v);
	ck_abort_msg("VND_Start accepted a veneerd that exited");
}
END_TEST

START_TEST(fake_no_listen_fails)
{
	struct vnd *v;

	use_fake();
	setenv("HX_FAKE_MODE", "hang", 1);
	v = VND_New();
	VND_Backend(v, 1);
	VND_SetStartTimeout(v, 1.0);
	VND_Start(v);
	ck_abort_msg("VND_Start accepted a veneerd without _.listen");
}
END_TEST

START_TEST(missing_veneerd_fails)
{
	struct vnd *v;

	ck_assert(unsetenv("VENEERD") == 0);
	v = VND_Launch(1, NULL);
	VND_Free(&v);
	ck_abort_msg("VND_Start without VENEERD went on");
}
END_TEST

START_TEST(fake_panic_fails)
{
	struct vnd *v;

	use_fake();
	setenv("HX_FAKE_MODE", "panic", 1);
	v = VND_Launch(1, NULL);
	ck_assert_ptr_nonnull(VND_LogProblem(v));
	VND_Free(&v);
	ck_abort_msg("VND_Free accepted a log with a panic");
}
END_TEST

/*--------------------------------------------------------------------
 * HX_Run's exit status, from a suite run in a child process: a skipped
 * test makes the run "skipped" (77) only if nothing failed.
 */

START_TEST(inner_pass)
{
}
END_TEST

START_TEST(inner_skip)
{

	HX_Skip("inner_skip: precondition not met (on purpose)");
}
END_TEST

START_TEST(inner_fail)
{

	ck_abort_msg("inner_fail fails on purpose");
}
END_TEST

static int
run_inner(int skip, int fail)
{
	TCase *tc;
	Suite *s;
	pid_t pid;
	int st;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Its report would read like this run's; keep it out. */
		if (freopen("/dev/null", "w", stdout) == NULL)
			_exit(98);
		s = suite_create("inner");
		tc = tcase_create("inner");
		tcase_add_test(tc, inner_pass);
		if (skip)
			tcase_add_test(tc, inner_skip);
		if (fail)
			tcase_add_test(tc, inner_fail);
		suite_add_tcase(s, tc);
		_exit(HX_Run(s));
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st), "inner run died: status %d", st);
	return (WEXITSTATUS(st));
}

START_TEST(run_reports_skips)
{

	ck_assert_int_eq(run_inner(0, 0), 0);
	ck_assert_int_eq(run_inner(1, 0), 77);
	ck_assert_int_eq(run_inner(1, 1), 1);
	ck_assert_int_eq(run_inner(0, 1), 1);
}
END_TEST

static Suite *
harness_suite(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("harness");
	tc = tcase_create("io");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, get_with_length);
	tcase_add_test(tc, keepalive_and_pipelining);
	tcase_add_test(tc, response_framings);
	tcase_add_test(tc, request_bodies);
	tcase_add_test(tc, closes_and_resets);
	tcase_add_test(tc, origin_stops_with_stuck_peers);
	tcase_add_test(tc, origin_notes_bad_requests);
	tcase_add_test(tc, pattern_streams);
	tcase_add_test(tc, header_tokens);
	suite_add_tcase(s, tc);

	tc = tcase_create("vnd");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, counters_reader);
	tcase_add_exit_test(tc, counters_unknown_name_fails, 1);
	tcase_add_exit_test(tc, counters_wait_times_out_fails, 1);
	tcase_add_test(tc, fake_start_and_stop);
	tcase_add_test(tc, fake_two_listen);
	tcase_add_test(tc, fake_exec_and_daemon);
	tcase_add_exit_test(tc, fake_exec_timeout_fails, 1);
	tcase_add_exit_test(tc, fake_early_exit_fails, 1);
	tcase_add_exit_test(tc, fake_no_listen_fails, 1);
	tcase_add_exit_test(tc, missing_veneerd_fails, 1);
	tcase_add_exit_test(tc, fake_panic_fails, 1);
	suite_add_tcase(s, tc);

	tc = tcase_create("run");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, run_reports_skips);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(int argc, char **argv)
{

	if (getenv("HX_FAKE_VENEERD") != NULL)
		return (fake_main(argc, argv));
	return (HX_Run(harness_suite()));
}

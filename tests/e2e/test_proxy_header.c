/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_proxy_header.c -- issue #15, end to end: a backend's
 * .proxy_header = 1|2 sends a PROXY protocol header first on each new
 * backend connection, naming the client and the address it reached.
 * A scripted origin takes the header off raw (ORIGIN_TakeProxy) and the
 * tests compare it byte for byte: v1's line, v2's signature, command,
 * family, length, addresses and ports; IPv4 and IPv6 clients; no
 * connection reused from one client to another (nor at all); a grace
 * refresh speaks for the client that set it off; pipe sends it too.
 * Then veneerd in front of Varnish 7.1's own varnishd listening with
 * PROXY: varnishd's client.ip is the client of the edge veneerd; and in
 * front of veneerd listening with PROXY (-a ...,PROXY), which must say
 * the same, and closes and counts bad headers without harm.
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/harness.h"

static const unsigned char v2_sig[12] = "\r\n\r\n\0\r\nQUIT\n";

/* Backends p1 and p2 at port; /v1/... goes to p1, the rest to p2. */
static char *
ph_vcl(int port)
{
	char *vcl;

	ck_assert_int_gt(asprintf(&vcl,
	    "vcl 4.1;\n"
	    "backend p1 { .host = \"127.0.0.1\"; .port = \"%d\";\n"
	    "    .proxy_header = 1; }\n"
	    "backend p2 { .host = \"127.0.0.1\"; .port = \"%d\";\n"
	    "    .proxy_header = 2; }\n"
	    "sub vcl_recv {\n"
	    "    if (req.url ~ \"^/v1/\") {\n"
	    "        set req.backend_hint = p1;\n"
	    "    } else {\n"
	    "        set req.backend_hint = p2;\n"
	    "    }\n"
	    "    if (req.url ~ \"/pipe\") { return (pipe); }\n"
	    "    if (req.url ~ \"/grace\") { return (hash); }\n"
	    "    return (pass);\n"
	    "}\n"
	    "sub vcl_backend_response {\n"
	    "    if (bereq.url ~ \"/grace\") {\n"
	    "        set beresp.ttl = 0.001s;\n"
	    "        set beresp.grace = 1h;\n"
	    "    }\n"
	    "}\n", port, port), 0);
	return (vcl);
}

/* veneerd with ph_vcl in front of port, listening on each of addrs. */
static struct vnd *
ph_vnd(int port, const char * const *addrs)
{
	struct vnd *v;
	char *vcl;

	v = VND_New();
	vcl = ph_vcl(port);
	VND_VclFile(v, "p.vcl", vcl);
	free(vcl);
	for (; *addrs != NULL; addrs++)
		VND_Listen(v, *addrs);
	VND_Start(v);
	return (v);
}

/* The client's end of cl and the end it reached, as text and ports. */
struct ph_ends {
	char		cip[64];
	char		sip[64];
	unsigned	cport;
	unsigned	sport;
	int		family;
};

static void
ph_name(const struct sockaddr_storage *ss, char *ip, size_t len,
    unsigned *port)
{
	const struct sockaddr_in *sin = (const void *)ss;
	const struct sockaddr_in6 *sin6 = (const void *)ss;

	if (ss->ss_family == AF_INET6) {
		ck_assert_ptr_nonnull(inet_ntop(AF_INET6, &sin6->sin6_addr,
		    ip, (socklen_t)len));
		*port = ntohs(sin6->sin6_port);
	} else {
		ck_assert_int_eq(ss->ss_family, AF_INET);
		ck_assert_ptr_nonnull(inet_ntop(AF_INET, &sin->sin_addr, ip,
		    (socklen_t)len));
		*port = ntohs(sin->sin_port);
	}
}

static struct ph_ends
ph_ends(const struct client *cl)
{
	struct sockaddr_storage c, s;
	socklen_t cl_len = sizeof c, sl = sizeof s;
	struct ph_ends e;

	memset(&e, 0, sizeof e);
	ck_assert_int_eq(getsockname(CLIENT_Fd(cl), (void *)&c, &cl_len), 0);
	ck_assert_int_eq(getpeername(CLIENT_Fd(cl), (void *)&s, &sl), 0);
	ph_name(&c, e.cip, sizeof e.cip, &e.cport);
	ph_name(&s, e.sip, sizeof e.sip, &e.sport);
	e.family = c.ss_family;
	return (e);
}

/* The header on the connection that carried the last request for url. */
static const unsigned char *
ph_header(struct origin *o, const char *url, size_t *len)
{
	const struct hx_msg *q;
	const unsigned char *p;

	q = ORIGIN_FindReq(o, url);
	ck_assert_msg(q != NULL, "the origin never saw %s", url);
	p = ORIGIN_ProxyHeader(o, q->conn_id, len);
	ck_assert_msg(p != NULL, "%s came on a connection without a PROXY "
	    "header", url);
	return (p);
}

static void
ph_v1_is(struct origin *o, const char *url, const struct ph_ends *e)
{
	const unsigned char *p;
	char want[160];
	size_t len;

	p = ph_header(o, url, &len);
	(void)snprintf(want, sizeof want, "PROXY %s %s %s %u %u\r\n",
	    e->family == AF_INET ? "TCP4" : "TCP6", e->cip, e->sip, e->cport,
	    e->sport);
	ck_assert_msg(len == strlen(want) && !memcmp(p, want, len),
	    "%s: PROXY header \"%.*s\", want \"%s\"", url, (int)len,
	    (const char *)p, want);
}

static void
ph_v2_is(struct origin *o, const char *url, const struct ph_ends *e)
{
	const unsigned char *p;
	unsigned char addr[16];
	size_t len, alen;

	p = ph_header(o, url, &len);
	alen = e->family == AF_INET ? 4 : 16;
	ck_assert_uint_eq(len, 16 + 2 * alen + 4);
	ck_assert_int_eq(memcmp(p, v2_sig, sizeof v2_sig), 0);
	ck_assert_int_eq(p[12], 0x21);		/* v2, PROXY */
	ck_assert_int_eq(p[13], e->family == AF_INET ? 0x11 : 0x21);
	ck_assert_uint_eq((size_t)p[14] << 8 | p[15], 2 * alen + 4);
	ck_assert_int_eq(inet_pton(e->family, e->cip, addr), 1);
	ck_assert_int_eq(memcmp(p + 16, addr, alen), 0);
	ck_assert_int_eq(inet_pton(e->family, e->sip, addr), 1);
	ck_assert_int_eq(memcmp(p + 16 + alen, addr, alen), 0);
	ck_assert_uint_eq((unsigned)p[16 + 2 * alen] << 8 |
	    p[17 + 2 * alen], e->cport);
	ck_assert_uint_eq((unsigned)p[18 + 2 * alen] << 8 |
	    p[19 + 2 * alen], e->sport);
}

static void
ph_get_ok(struct client *cl, const char *url)
{
	struct hx_msg *r;

	r = CLIENT_Fetch(cl, "GET", url, NULL, HX_T_RESP);
	ck_assert_msg(r->status == 200, "%s: status %d", url, r->status);
	HX_MsgFree(&r);
}

/*
 * v1's exact line and v2's bytes for an IPv4 client; each fetch on a
 * connection of its own, even from the same client, each close counted.
 */
START_TEST(issue_0015_proxy_header_v1_v2_ipv4)
{
	static const char * const a[] = { "127.0.0.1:0", NULL };
	struct ph_ends e;
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	o = ORIGIN_New(NULL, NULL);
	ORIGIN_TakeProxy(o);
	v = ph_vnd(ORIGIN_Port(o), a);
	cl = VND_Connect(v);
	e = ph_ends(cl);
	ph_get_ok(cl, "/v1/a");
	ph_v1_is(o, "/v1/a", &e);
	ph_get_ok(cl, "/v2/a");
	ph_v2_is(o, "/v2/a", &e);
	ph_get_ok(cl, "/v1/b");
	ph_v1_is(o, "/v1/b", &e);
	ck_assert_uint_eq(ORIGIN_NConn(o), 3);
	(void)VND_WaitCounter(v, "backend_closed_proxy", "==", 3, HX_T_RESP);
	ck_assert_uint_eq(VND_Counter(v, "backend_reuse"), 0);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * Two clients, 127.0.0.1 and 127.0.0.2, take turns on kept-alive
 * connections: every fetch gets a connection whose header names its
 * own client, never one opened for the other.
 */
START_TEST(issue_0015_proxy_header_clients_apart)
{
	static const char * const a[] = { "127.0.0.1:0", NULL };
	struct ph_ends ea, eb;
	struct origin *o;
	struct client *ca, *cb;
	struct vnd *v;

	o = ORIGIN_New(NULL, NULL);
	ORIGIN_TakeProxy(o);
	v = ph_vnd(ORIGIN_Port(o), a);
	ca = VND_Connect(v);
	cb = CLIENT_NewFrom("127.0.0.2", "127.0.0.1", VND_Port(v, 0),
	    HX_T_RESP);
	ea = ph_ends(ca);
	eb = ph_ends(cb);
	ck_assert_str_eq(ea.cip, "127.0.0.1");
	ck_assert_str_eq(eb.cip, "127.0.0.2");
	ph_get_ok(ca, "/v2/x1");
	ph_get_ok(cb, "/v2/x2");
	ph_get_ok(ca, "/v2/x3");
	ph_get_ok(cb, "/v1/x4");
	ph_v2_is(o, "/v2/x1", &ea);
	ph_v2_is(o, "/v2/x2", &eb);
	ph_v2_is(o, "/v2/x3", &ea);
	ph_v1_is(o, "/v1/x4", &eb);
	ck_assert_uint_eq(ORIGIN_NConn(o), 4);
	(void)VND_WaitCounter(v, "backend_closed_proxy", "==", 4, HX_T_RESP);
	CLIENT_Free(&ca);
	CLIENT_Free(&cb);
	VND_Finish(&v, &o);
}
END_TEST

START_TEST(issue_0015_proxy_header_ipv6)
{
	static const char * const a[] = { "[::1]:0", NULL };
	struct ph_ends e;
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	if (!HX_HaveIPv6()) {
		HX_Skip("issue_0015_proxy_header_ipv6: ::1 cannot be bound "
		    "here");
		return;
	}
	o = ORIGIN_New(NULL, NULL);
	ORIGIN_TakeProxy(o);
	v = ph_vnd(ORIGIN_Port(o), a);
	cl = VND_Connect(v);
	e = ph_ends(cl);
	ck_assert_int_eq(e.family, AF_INET6);
	ph_get_ok(cl, "/v1/six");
	ph_v1_is(o, "/v1/six", &e);
	ph_get_ok(cl, "/v2/six");
	ph_v2_is(o, "/v2/six", &e);
	CLIENT_Free(&cl);
	VND_Finish(&v, &o);
}
END_TEST

/* return (pipe): the header goes first, then the request, untouched. */
START_TEST(issue_0015_proxy_header_pipe)
{
	static const char * const a[] = { "127.0.0.1:0", NULL };
	struct ph_ends e;
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	o = ORIGIN_New(NULL, NULL);
	ORIGIN_TakeProxy(o);
	v = ph_vnd(ORIGIN_Port(o), a);
	cl = VND_Connect(v);
	e = ph_ends(cl);
	ph_get_ok(cl, "/v1/pipe");
	ph_v1_is(o, "/v1/pipe", &e);
	CLIENT_Free(&cl);
	cl = VND_Connect(v);
	e = ph_ends(cl);
	ph_get_ok(cl, "/v2/pipe");
	ph_v2_is(o, "/v2/pipe", &e);
	CLIENT_Free(&cl);
	(void)VND_WaitCounter(v, "s_pipe", "==", 2, HX_T_RESP);
	VND_Finish(&v, &o);
}
END_TEST

/*
 * A grace refresh runs after its client got the stale copy, on a task of
 * its own: its header still names that client, not the one that first
 * fetched the object.
 */
START_TEST(issue_0015_proxy_header_grace_refresh)
{
	static const char * const a[] = { "127.0.0.1:0", NULL };
	struct ph_ends ea, eb;
	const struct hx_msg *q;
	const unsigned char *p;
	struct origin *o;
	struct client *ca, *cb;
	struct vnd *v;
	unsigned u, n;
	size_t len;

	o = ORIGIN_New(NULL, NULL);
	ORIGIN_TakeProxy(o);
	v = ph_vnd(ORIGIN_Port(o), a);
	ca = VND_Connect(v);
	cb = CLIENT_NewFrom("127.0.0.2", "127.0.0.1", VND_Port(v, 0),
	    HX_T_RESP);
	ea = ph_ends(ca);
	eb = ph_ends(cb);
	ck_assert_str_eq(eb.cip, "127.0.0.2");
	ph_get_ok(ca, "/v2/grace");
	ph_v2_is(o, "/v2/grace", &ea);
	/* ttl is 1 ms: soon a hit is in grace and refreshes. */
	for (u = 0; u < 200 && ORIGIN_NReq(o) < 2; u++)
		ph_get_ok(cb, "/v2/grace");
	ORIGIN_WaitReqs(o, 2, HX_T_RESP);
	n = ORIGIN_NReq(o);
	for (u = 1; u < n; u++) {
		q = ORIGIN_Req(o, u);
		p = ORIGIN_ProxyHeader(o, q->conn_id, &len);
		ck_assert_ptr_nonnull(p);
		/* As ph_v2_is, for request u rather than the last. */
		ck_assert_uint_eq(len, 28);
		ck_assert_int_eq(memcmp(p + 16, "\x7f\x00\x00\x02", 4), 0);
		ck_assert_uint_eq((unsigned)p[24] << 8 | p[25], eb.cport);
		ck_assert_uint_eq((unsigned)p[26] << 8 | p[27], eb.sport);
	}
	CLIENT_Free(&ca);
	CLIENT_Free(&cb);
	VND_Finish(&v, &o);
}
END_TEST

/*--------------------------------------------------------------------
 * veneerd -> varnishd (-a ...,PROXY) -> origin: Varnish's own parser
 * reads our header.  varnishd is Debian's 7.1 package, unpacked in
 * $VENEER_BUILDDIR/varnish-tools (tools/lib/varnish.sh) or installed
 * beside the tools test.sh found, or $VENEER_VARNISHD; the test is
 * skipped without it.
 */

struct ph_varnishd {
	pid_t		pid;
	char		*dir;
	int		port;
	int		port6;		/* 0: no IPv6 */
};

static char *
ph_varnishd_path(void)
{
	const char *b = getenv("VENEER_BUILDDIR");
	const char *t = getenv("VENEER_VARNISH_BIN");
	char *p;

	if (getenv("VENEER_VARNISHD") != NULL)
		return (strdup(getenv("VENEER_VARNISHD")));
	/* The tools' bin/ (unpacked, or the installed package's): sbin/. */
	if (t != NULL) {
		ck_assert_int_gt(asprintf(&p, "%s/../sbin/varnishd", t), 0);
		if (access(p, X_OK) == 0)
			return (p);
		free(p);
	}
	if (b == NULL)
		return (NULL);
	ck_assert_int_gt(asprintf(&p, "%s/varnish-tools/root/usr/sbin/"
	    "varnishd", b), 0);
	return (p);
}

/* Until varnishd's child serves on port (a PROXY header and a request). */
static void
ph_varnishd_wait(int port)
{
	double deadline = HX_Now() + HX_T_SLOW;
	struct client *cl;
	struct hx_msg *r;
	int e;

	for (;;) {
		ck_assert_msg(HX_Now() < deadline, "varnishd does not serve "
		    "on port %d", port);
		cl = CLIENT_TryNew("127.0.0.1", port, HX_T_RESP, &e);
		if (cl == NULL) {
			(void)poll(NULL, 0, 50);
			continue;
		}
		/* varnishd 7.1 refuses "PROXY UNKNOWN". */
		CLIENT_SendStr(cl, "PROXY TCP4 127.0.0.1 127.0.0.1 1 2\r\n");
		CLIENT_Req(cl, "GET", "/ready", NULL, NULL, 0);
		r = CLIENT_TryResp(cl, 0, HX_T_SLOW);
		CLIENT_Free(&cl);
		if (r != NULL) {
			HX_MsgFree(&r);
			return;
		}
	}
}

static int
ph_varnishd_start(struct ph_varnishd *vd, int origin_port)
{
	char *path, *lib, *vcl, *vclpath, *n, *a4, *a6, *vmods, *log;
	FILE *f;
	int fd;

	path = ph_varnishd_path();
	if (path == NULL || access(path, X_OK) != 0) {
		free(path);
		return (-1);
	}
	vd->dir = HX_TempDir("varnishd");
	vd->port = HX_ClosedPort();
	vd->port6 = HX_HaveIPv6() ? HX_ClosedPort() : 0;
	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nimport std;\n"
	    "backend o { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub vcl_recv { return (pass); }\n"
	    "sub vcl_deliver {\n"
	    "    set resp.http.X-Inner-Client = client.ip + \" \" +\n"
	    "        std.port(client.ip);\n"
	    "    set resp.http.X-Inner-Server = server.ip + \" \" +\n"
	    "        std.port(server.ip);\n"
	    "}\n", origin_port), 0);
	ck_assert_int_gt(asprintf(&vclpath, "%s/inner.vcl", vd->dir), 0);
	f = fopen(vclpath, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(vcl, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	/* Debian's layout: usr/sbin/varnishd, usr/lib/<triplet>/. */
	ck_assert_int_gt(asprintf(&lib, "%.*s/../lib/x86_64-linux-gnu",
	    (int)(strrchr(path, '/') - path), path), 0);
	ck_assert_int_gt(asprintf(&vmods, "vmod_path=%s/varnish/vmods", lib),
	    0);
	ck_assert_int_gt(asprintf(&n, "%s/n", vd->dir), 0);
	ck_assert_int_gt(asprintf(&a4, "127.0.0.1:%d,PROXY", vd->port), 0);
	ck_assert_int_gt(asprintf(&a6, "[::1]:%d,PROXY", vd->port6), 0);
	ck_assert_int_gt(asprintf(&log, "%s/varnishd.log", vd->dir), 0);
	vd->pid = fork();
	ck_assert_int_ge(vd->pid, 0);
	if (vd->pid == 0) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			(void)dup2(fd, 1);
			(void)dup2(fd, 2);
		}
		(void)setenv("LD_LIBRARY_PATH", lib, 1);
		if (vd->port6 != 0)
			(void)execl(path, "varnishd", "-F", "-n", n, "-j",
			    "none", "-a", a4, "-a", a6, "-f", vclpath, "-p",
			    vmods, "-s", "malloc,16m", (char *)NULL);
		else
			(void)execl(path, "varnishd", "-F", "-n", n, "-j",
			    "none", "-a", a4, "-f", vclpath, "-p", vmods,
			    "-s", "malloc,16m", (char *)NULL);
		_exit(127);
	}
	HX_RegisterPid(vd->pid);
	ph_varnishd_wait(vd->port);
	free(path);
	free(lib);
	free(vcl);
	free(vclpath);
	free(vmods);
	free(n);
	free(a4);
	free(a6);
	free(log);
	return (0);
}

static void
ph_varnishd_stop(struct ph_varnishd *vd)
{
	int status;

	(void)kill(vd->pid, SIGTERM);
	HX_WaitGone(vd->pid, HX_T_SLOW);
	(void)waitpid(vd->pid, &status, 0);
	HX_RemoveTree(vd->dir);
	free(vd->dir);
}

/* GET url through the chain; X-Inner-Client must be "ip port" of e. */
static void
ph_chain_is(struct client *cl, const char *url, const struct ph_ends *e)
{
	struct hx_msg *r;
	char want[96];

	r = CLIENT_Fetch(cl, "GET", url, NULL, HX_T_SLOW);
	ck_assert_msg(r->status == 200, "%s: status %d", url, r->status);
	(void)snprintf(want, sizeof want, "%s %u", e->cip, e->cport);
	HX_HeaderIs(r, "X-Inner-Client", want);
	(void)snprintf(want, sizeof want, "%s %u", e->sip, e->sport);
	HX_HeaderIs(r, "X-Inner-Server", want);
	HX_MsgFree(&r);
}

START_TEST(issue_0015_proxy_header_into_varnishd)
{
	static const char * const a4[] = { "127.0.0.1:0", NULL };
	static const char * const a46[] = { "127.0.0.1:0", "[::1]:0", NULL };
	struct ph_varnishd vd;
	struct ph_ends e;
	struct origin *o;
	struct client *cl;
	struct vnd *v;

	memset(&vd, 0, sizeof vd);
	o = ORIGIN_New(NULL, NULL);
	if (ph_varnishd_start(&vd, ORIGIN_Port(o)) != 0) {
		ORIGIN_Free(&o);
		HX_Skip("issue_0015_proxy_header_into_varnishd: no varnishd "
		    "(tools/lib/varnish.sh unpacks one into "
		    "build/varnish-tools)");
		return;
	}
	v = ph_vnd(vd.port, vd.port6 != 0 ? a46 : a4);
	cl = VND_ConnectTo(v, 0);
	e = ph_ends(cl);
	ph_chain_is(cl, "/v1/chain", &e);
	ph_chain_is(cl, "/v2/chain", &e);
	CLIENT_Free(&cl);
	if (vd.port6 != 0) {
		cl = VND_ConnectTo(v, 1);
		e = ph_ends(cl);
		ck_assert_str_eq(e.cip, "::1");
		ph_chain_is(cl, "/v1/chain6", &e);
		ph_chain_is(cl, "/v2/chain6", &e);
		CLIENT_Free(&cl);
	}
	VND_Free(&v);
	ph_varnishd_stop(&vd);
	ck_assert_uint_eq(ORIGIN_NErr(o), 0);
	ORIGIN_Free(&o);
}
END_TEST


/*
 * An inner veneerd listening with PROXY (and on IPv6 if the host has
 * it), answering with client.ip, server.ip, remote.ip and local.ip;
 * timeout_idle 1 s for the bad-header tests.
 */
static struct vnd *
ph_inner(struct origin *o, int ipv6)
{
	struct vnd *v;
	char *vcl;

	ck_assert_int_gt(asprintf(&vcl, "vcl 4.1;\nimport std;\n"
	    "backend o { .host = \"127.0.0.1\"; .port = \"%d\"; }\n"
	    "sub vcl_recv { return (pass); }\n"
	    "sub vcl_deliver {\n"
	    "    set resp.http.X-Inner-Client = client.ip + \" \" +\n"
	    "        std.port(client.ip);\n"
	    "    set resp.http.X-Inner-Server = server.ip + \" \" +\n"
	    "        std.port(server.ip);\n"
	    "    set resp.http.X-Inner-Remote = remote.ip;\n"
	    "}\n", ORIGIN_Port(o)), 0);
	v = VND_New();
	VND_VclFile(v, "inner.vcl", vcl);
	free(vcl);
	VND_Listen(v, "127.0.0.1:0,PROXY");
	if (ipv6)
		VND_Listen(v, "[::1]:0,PROXY");
	VND_Param(v, "timeout_idle", "1");
	VND_Start(v);
	return (v);
}

START_TEST(issue_0015_proxy_listen_into_veneerd)
{
	static const char * const a4[] = { "127.0.0.1:0", NULL };
	static const char * const a46[] = { "127.0.0.1:0", "[::1]:0", NULL };
	const struct hx_msg *q;
	struct vnd *inner, *v;
	struct origin *o;
	struct client *cl;
	struct ph_ends e;
	char want[160];
	int ipv6 = HX_HaveIPv6();

	o = ORIGIN_New(NULL, NULL);
	inner = ph_inner(o, ipv6);
	v = ph_vnd(VND_Port(inner, 0), ipv6 ? a46 : a4);
	cl = VND_ConnectTo(v, 0);
	e = ph_ends(cl);
	ph_chain_is(cl, "/v1/chain", &e);
	ph_chain_is(cl, "/v2/chain", &e);
	/* The edge's X-Forwarded-For, then the inner's: the same client. */
	q = ORIGIN_FindReq(o, "/v2/chain");
	ck_assert_ptr_nonnull(q);
	(void)snprintf(want, sizeof want, "%s, %s", e.cip, e.cip);
	HX_HeaderIs(q, "X-Forwarded-For", want);
	CLIENT_Free(&cl);
	if (ipv6) {
		cl = VND_ConnectTo(v, 1);
		e = ph_ends(cl);
		ck_assert_str_eq(e.cip, "::1");
		ph_chain_is(cl, "/v1/chain6", &e);
		ph_chain_is(cl, "/v2/chain6", &e);
		CLIENT_Free(&cl);
	}
	ck_assert_uint_eq(VND_Counter(inner, "sess_proxy_bad"), 0);
	VND_Free(&v);
	VND_Finish(&inner, &o);
}
END_TEST

/* Send b, then the inner veneerd must close without a byte of answer. */
static void
ph_bad(struct vnd *v, const void *b, size_t len)
{
	struct client *cl;

	cl = VND_Connect(v);
	if (len > 0)
		CLIENT_Send(cl, b, len);
	CLIENT_AssertClosed(cl, HX_T_SLOW);
	CLIENT_Free(&cl);
}

START_TEST(issue_0015_proxy_listen_bad_headers)
{
	static const unsigned char v2_short[] = {
		0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49,
		0x54, 0x0a, 0x21, 0x11, 0x00, 0x0c, 0x7f, 0x00, 0x00, 0x01,
	};
	static const char * const pieces[] = { "PRO", "XY TC", "P4 1.2",
	    ".3.4 5", NULL };
	const char * const *pp;
	struct hx_msg *r;
	struct client *cl;
	struct origin *o;
	struct vnd *v;
	char line[200];
	uint64_t n = 0;

	o = ORIGIN_New(NULL, NULL);
	v = ph_inner(o, 0);
	/* HTTP where the header should be. */
	ph_bad(v, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27);
	VND_WaitCounter(v, "sess_proxy_bad", "==", ++n, HX_T_SLOW);
	/* A v1 line past 108 bytes. */
	(void)snprintf(line, sizeof line, "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 "
	    "%090d\r\n", 0);
	ph_bad(v, line, strlen(line));
	VND_WaitCounter(v, "sess_proxy_bad", "==", ++n, HX_T_SLOW);
	/* A v1 line with a field too many. */
	ph_bad(v, "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n", 34);
	VND_WaitCounter(v, "sess_proxy_bad", "==", ++n, HX_T_SLOW);
	/* v2 announcing 12 address bytes and sending 4: timeout_idle. */
	ph_bad(v, v2_short, sizeof v2_short);
	VND_WaitCounter(v, "sess_proxy_bad", "==", ++n, HX_T_SLOW);
	/* Nothing at all: timeout_idle too. */
	ph_bad(v, NULL, 0);
	VND_WaitCounter(v, "sess_proxy_bad", "==", ++n, HX_T_SLOW);
	/* A trickle (parked between pieces) never finishing in time. */
	cl = VND_Connect(v);
	for (pp = pieces; *pp != NULL; pp++) {
		if (CLIENT_TrySend(cl, *pp, strlen(*pp), HX_T_RESP) !=
		    HX_IO_OK)
			break;
		(void)poll(NULL, 0, 300);
	}
	CLIENT_AssertClosed(cl, HX_T_SLOW);
	CLIENT_Free(&cl);
	VND_WaitCounter(v, "sess_proxy_bad", "==", ++n, HX_T_SLOW);
	ck_assert_uint_ge(VND_Counter(v, "sc_rx_timeout"), 3);
	/* Still serving: a good header trickled in pieces works. */
	cl = VND_Connect(v);
	CLIENT_SendStr(cl, "PROXY TCP4 1.2.3.4 ");
	(void)poll(NULL, 0, 100);
	CLIENT_SendStr(cl, "5.6.7.8 1111 80\r\nGET /ok HTTP/1.1\r\n");
	(void)poll(NULL, 0, 100);
	CLIENT_SendStr(cl, "Host: x\r\n\r\n");
	r = CLIENT_Resp(cl, 0, HX_T_SLOW);
	ck_assert_int_eq(r->status, 200);
	HX_HeaderIs(r, "X-Inner-Client", "1.2.3.4 1111");
	HX_HeaderIs(r, "X-Inner-Server", "5.6.7.8 80");
	HX_HeaderIs(r, "X-Inner-Remote", "127.0.0.1");
	HX_MsgFree(&r);
	CLIENT_Free(&cl);
	ck_assert_uint_eq(VND_Counter(v, "sess_proxy_bad"), n);
	VND_Finish(&v, &o);
}
END_TEST

int
main(void)
{
	TCase *tc;
	Suite *s;

	s = suite_create("proxy_header");
	tc = tcase_create("to_origin");
	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, issue_0015_proxy_header_v1_v2_ipv4);
	tcase_add_test(tc, issue_0015_proxy_header_clients_apart);
	tcase_add_test(tc, issue_0015_proxy_header_ipv6);
	tcase_add_test(tc, issue_0015_proxy_header_pipe);
	tcase_add_test(tc, issue_0015_proxy_header_grace_refresh);
	suite_add_tcase(s, tc);
	tc = tcase_create("chained");
	tcase_set_timeout(tc, 40);
	tcase_add_test(tc, issue_0015_proxy_header_into_varnishd);
	tcase_add_test(tc, issue_0015_proxy_listen_into_veneerd);
	tcase_add_test(tc, issue_0015_proxy_listen_bad_headers);
	suite_add_tcase(s, tc);
	return (HX_Run(s));
}

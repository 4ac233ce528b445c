/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * harness.h -- the end-to-end test harness.  Tests start real veneerd
 * processes (VND_*) in front of a scripted origin running in the test
 * process (ORIGIN_*), talk raw HTTP/1 to them (CLIENT_*) and assert on
 * what comes back and on the daemon's counters.  veneerd is a black box:
 * nothing here links code from src/.
 *
 * Rules every function here follows:
 *   - every wait has a deadline; timeouts are in seconds (double);
 *   - functions called from the test's main thread fail the test (check's
 *     ck_abort_msg) with a message naming what failed; the Try variants
 *     return an error instead, for tests that expect failure;
 *   - origin handlers run on origin threads: they report through return
 *     values and must not call ck_assert (use ORIGIN_Note for surprises);
 *   - processes and temporary directories are cleaned up even when a test
 *     fails or times out (atexit in the test, HX_Run after the suite).
 *
 * Only libc, pthreads and check.
 */

#ifndef VENEER_TESTS_HARNESS_H
#define VENEER_TESTS_HARNESS_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <check.h>

#define HX_PRINTFLIKE(f, a)	__attribute__((format(printf, f, a)))

/* Deadlines most tests use for one exchange and for slower things. */
#define HX_T_RESP	5.0
#define HX_T_SLOW	15.0

/*--------------------------------------------------------------------
 * hx_main.c: the runner, time, temporary directories, processes.
 */

/*
 * main() of every e2e program: runs the suite forked, cleans up; 0 if
 * every test passed, 1 if one failed, 77 (automake's "skipped") if none
 * failed but one called HX_Skip.
 */
int	HX_Run(Suite *);
/*
 * A test that cannot set up its precondition (file limit, root, IPv6)
 * calls this with why and returns: the run then reports it as skipped,
 * not passed.  "test_name: why".
 */
void	HX_Skip(const char *fmt, ...) HX_PRINTFLIKE(1, 2);
double	HX_Now(void);			/* CLOCK_MONOTONIC, seconds */
/* A fresh directory under the run's base dir; caller frees the path. */
char	*HX_TempDir(const char *tag);
void	HX_RemoveTree(const char *path);
/* Whole file, NUL-terminated; NULL (errno set) if it cannot be read. */
char	*HX_ReadFile(const char *path, size_t *lenp);
/*
 * A regex body no subject of letters matches and that costs: n
 * alternatives each a letter, a class and a number (not literals, so
 * relit leaves it to PCRE2, which tries a dozen at every offset).
 * Alternative i is ('a' + i % 26) "[0-9]" i.  malloc'd.
 */
char	*HX_CostlyAlternation(unsigned n);
/* Kill pid at the end of the run if it still runs (same start time). */
void	HX_RegisterPid(pid_t);
/* /proc/PID/status field ("Threads", "VmRSS": kB), -1 if absent. */
long	HX_ProcStatus(pid_t, const char *field);
/* /proc/PID/stat start time, 0 if the process is gone. */
unsigned long long HX_ProcStart(pid_t);
/* Wait until pid is gone (or a zombie); fail the test after timeout. */
void	HX_WaitGone(pid_t, double timeout);
/* The pid in a pid file, waiting for it to appear within timeout. */
pid_t	HX_WaitPidfile(const char *path, double timeout);
/* Raise RLIMIT_NOFILE toward want (up to the hard limit); the result. */
long	HX_RaiseFdLimit(long want);
/* A loopback TCP port nothing listens on (bound, then closed). */
int	HX_ClosedPort(void);
/* Whether [::1] can be bound here. */
int	HX_HaveIPv6(void);
/* Print a note to stderr, prefixed with the test's pid. */
void	HX_Log(const char *fmt, ...) HX_PRINTFLIKE(1, 2);

/*
 * A deterministic byte stream for big bodies: byte i of the stream is
 * the same wherever it is cut, so a reader checks any piece with memcmp.
 */
void	HX_Pattern(void *buf, uint64_t offset, size_t len);
int	HX_PatternCheck(const void *buf, uint64_t offset, size_t len);

/*--------------------------------------------------------------------
 * hx_msg.c: one parsed HTTP/1 message (a request the origin received or a
 * response the client received).
 */

struct hx_hdr {
	char		*name;
	char		*value;		/* leading/trailing blanks trimmed */
};

enum hx_body {
	HX_BODY_NONE = 0,		/* no body (HEAD, 1xx, 204, 304, GET) */
	HX_BODY_LENGTH,			/* Content-Length */
	HX_BODY_CHUNKED,		/* Transfer-Encoding: chunked */
	HX_BODY_EOF			/* ends when the connection closes */
};

#define HX_MAX_INTERIM	8

struct hx_msg {
	unsigned		magic;
#define HX_MSG_MAGIC		0x83fa34a5
	char			*method;	/* requests */
	char			*url;		/* requests */
	char			*proto;		/* "HTTP/1.1" */
	int			status;		/* responses */
	char			*reason;	/* responses */
	char			*head;		/* start line + headers, raw */
	size_t			headlen;
	unsigned		nhdr;
	struct hx_hdr		*hdr;
	unsigned		ntrailer;	/* chunked trailer fields */
	struct hx_hdr		*trailer;
	enum hx_body		body_kind;
	char			*body;		/* NUL-ended; NULL if sunk */
	size_t			bodylen;	/* bytes received (sunk too) */
	unsigned		nchunk;		/* chunks seen if chunked */
	/* Responses: 1xx received before this one, in order. */
	unsigned		ninterim;
	struct hx_msg		*interim[HX_MAX_INTERIM];
	/* Origin requests: connection number (from 1), nth on it. */
	unsigned		conn_id;
	unsigned		conn_req;
	char			*work;		/* owns name/value strings */
};

/* First value of the header (case-insensitive name), or NULL. */
const char *HX_Header(const struct hx_msg *, const char *name);
unsigned HX_HeaderCount(const struct hx_msg *, const char *name);
/* Whether any of the header's comma-separated values is token. */
int	HX_HeaderHasToken(const struct hx_msg *, const char *name,
	    const char *token);
void	HX_MsgFree(struct hx_msg **);
/* Fail the test unless header name is there with exactly want. */
void	HX_HeaderIs(const struct hx_msg *, const char *name, const char *want);
/* Whether "Name: value\r\n" lines (a test's hdrs argument) have name. */
int	HX_HasField(const char *hdrs, const char *name);

/*--------------------------------------------------------------------
 * hx_io.c: a buffered non-blocking socket with deadlines (used by the
 * origin and the client; tests use the CLIENT_ and ORIGIN_ functions).
 */

enum hx_io {
	HX_IO_OK = 0,
	HX_IO_TIMEOUT,		/* deadline passed */
	HX_IO_EOF,		/* the peer closed (FIN) */
	HX_IO_RESET,		/* the peer reset the connection */
	HX_IO_ERROR,		/* another socket error (errno in conn) */
	HX_IO_STOPPED,		/* the stop descriptor became readable */
	HX_IO_PARSE		/* what arrived is not valid HTTP/1 */
};

const char *HX_IoName(enum hx_io);

/* A body consumer: return 0 to go on, non-zero to abort (HX_IO_ERROR). */
typedef int hx_sink_f(void *priv, const void *data, size_t len);

struct hx_conn {
	unsigned		magic;
#define HX_CONN_MAGIC		0x15267b80
	int			fd;
	int			stopfd;		/* -1, or readable = give up */
	char			*buf;		/* buf[off..len) is unread */
	size_t			size;
	size_t			off;
	size_t			len;
	enum hx_io		closed;		/* EOF/RESET once seen */
	int			err;		/* errno of HX_IO_ERROR */
	char			why[160];	/* what HX_IO_PARSE found */
};

void	HXC_Init(struct hx_conn *, int fd, int stopfd);
void	HXC_Fini(struct hx_conn *);		/* closes fd */
enum hx_io HXC_Write(struct hx_conn *, const void *, size_t,
	    double deadline);
enum hx_io HXC_Fill(struct hx_conn *, double deadline);
/* Read and parse a start line and header section (1 MB at most). */
enum hx_io HXC_ReadHead(struct hx_conn *, struct hx_msg *, int request,
	    double deadline);
/* Read the body msg's headers announce; to sink, or into msg->body. */
enum hx_io HXC_ReadBody(struct hx_conn *, struct hx_msg *,
	    enum hx_body, uint64_t length, hx_sink_f *, void *,
	    double deadline);
/* Read (and keep, or discard) until the peer closes. */
enum hx_io HXC_WaitClose(struct hx_conn *, int discard, double deadline);
/* Absolute deadline as poll(2) milliseconds from now. */
int	HXC_PollMs(double deadline);
/* Parse a head already split off; 0 or -1 with why filled. */
int	HXM_Parse(struct hx_msg *, const char *head, size_t len,
	    int request, char *why, size_t whylen);

/*--------------------------------------------------------------------
 * origin.c: the scripted origin server.  One thread accepts on
 * 127.0.0.1:0, one thread per connection reads requests (keep-alive,
 * bodies by Content-Length or chunked), records each and calls the
 * handler, which answers with the ORIGIN_ output functions.  Without an
 * explicit close the connection waits for the next request.
 */

struct origin;
struct origin_conn;

typedef void origin_handler_f(struct origin_conn *,
    const struct hx_msg *req, void *priv);

/* handler NULL: ORIGIN_DefaultHandler. */
struct origin *ORIGIN_New(origin_handler_f *, void *priv);
/* The same on addr:port (IPv4; port 0: any), e.g. 127.0.0.2 too. */
struct origin *ORIGIN_NewAt(origin_handler_f *, void *priv,
	    const char *addr, int port);
/* Stops accepting, wakes every connection thread, joins them all. */
void	ORIGIN_Free(struct origin **);
int	ORIGIN_Port(const struct origin *);
unsigned ORIGIN_NConn(struct origin *);		/* accepted so far */
unsigned ORIGIN_NOpen(struct origin *);		/* still open */
unsigned ORIGIN_NReq(struct origin *);		/* complete requests */
unsigned ORIGIN_NErr(struct origin *);		/* bad input, notes */
/* Recorded request i (from 0); valid until ORIGIN_Free. */
const struct hx_msg *ORIGIN_Req(struct origin *, unsigned i);
/* The last recorded request for url, or NULL. */
const struct hx_msg *ORIGIN_FindReq(struct origin *, const char *url);
/* Fail the test unless n requests arrived within timeout. */
void	ORIGIN_WaitReqs(struct origin *, unsigned n, double timeout);
/* Fail the test unless no connection is open within timeout. */
void	ORIGIN_WaitIdle(struct origin *, double timeout);
/*
 * Before any connection: each connection must begin with a PROXY
 * protocol header (v1 or v2), taken off raw and kept; one that does not
 * is noted and closed.  ORIGIN_ProxyHeader: connection conn_id's (as
 * hx_msg.conn_id), valid until ORIGIN_Free; NULL if it had none.
 */
void	ORIGIN_TakeProxy(struct origin *);
const void *ORIGIN_ProxyHeader(struct origin *, unsigned conn_id,
	    size_t *lenp);

/* 200, headers X-Url and Content-Type, body = the url; HEAD honoured. */
origin_handler_f ORIGIN_DefaultHandler;

/* In handlers.  Output functions return 0, or -1 once the peer is gone. */
int	ORIGIN_Send(struct origin_conn *, const void *, size_t);
int	ORIGIN_Printf(struct origin_conn *, const char *fmt, ...)
	    HX_PRINTFLIKE(2, 3);
/*
 * A whole response: status line, hdrs (zero or more "Name: value\r\n"
 * lines, may be NULL), Content-Length unless hdrs has one or a
 * Transfer-Encoding or the status has no body, blank line, body.
 * len < 0: strlen(body).
 */
int	ORIGIN_Respond(struct origin_conn *, int status, const char *hdrs,
	    const void *body, ssize_t len);
/* Status line, hdrs and the blank line, nothing added. */
int	ORIGIN_Head(struct origin_conn *, int status, const char *hdrs);
int	ORIGIN_Chunk(struct origin_conn *, const void *, size_t);
int	ORIGIN_ChunkEnd(struct origin_conn *, const char *trailers);
/* Stream len pattern bytes starting at offset (HX_Pattern). */
int	ORIGIN_SendPattern(struct origin_conn *, uint64_t offset,
	    uint64_t len);
/* Wait seconds, cut short by ORIGIN_Free; 0, or -1 if stopping. */
int	ORIGIN_Stall(struct origin_conn *, double seconds);
/* FIN now (shutdown write); the connection ends after the handler. */
void	ORIGIN_Close(struct origin_conn *);
/* RST now (SO_LINGER 0 and close). */
void	ORIGIN_Reset(struct origin_conn *);
unsigned ORIGIN_ConnId(const struct origin_conn *);
void	*ORIGIN_Priv(const struct origin_conn *);
/* Record a surprise for the test thread (counted in ORIGIN_NErr). */
void	ORIGIN_Note(struct origin_conn *, const char *fmt, ...)
	    HX_PRINTFLIKE(2, 3);

/*--------------------------------------------------------------------
 * client.c: a client connection with deadlines.
 */

struct client;

/* Response reading flags. */
#define RESP_HEAD	(1U << 0)	/* answer to HEAD: no body */
#define RESP_INTERIM	(1U << 1)	/* return a 1xx instead of skipping */

/* Fail the test if the connection cannot be made within timeout. */
struct client *CLIENT_New(const char *addr, int port, double timeout);
/* The same from src (an address of this host, as 127.0.0.2). */
struct client *CLIENT_NewFrom(const char *src, const char *addr, int port,
	    double timeout);
/* NULL with *errp = errno (ETIMEDOUT on timeout) on failure. */
struct client *CLIENT_TryNew(const char *addr, int port, double timeout,
	    int *errp);
void	CLIENT_Free(struct client **);
int	CLIENT_Fd(const struct client *);
/* Send everything within HX_T_SLOW or fail the test. */
void	CLIENT_Send(struct client *, const void *, size_t);
void	CLIENT_SendStr(struct client *, const char *);
void	CLIENT_Printf(struct client *, const char *fmt, ...)
	    HX_PRINTFLIKE(2, 3);
/* Send; the outcome instead of failing (the server may have closed). */
enum hx_io CLIENT_TrySend(struct client *, const void *, size_t,
	    double timeout);
/*
 * "METHOD url HTTP/1.1", Host (unless hdrs has one), hdrs, a
 * Content-Length when body is not NULL (unless hdrs frames the body),
 * the blank line and body.  len < 0: strlen(body).
 */
void	CLIENT_Req(struct client *, const char *method, const char *url,
	    const char *hdrs, const void *body, ssize_t len);
/* Read one response within timeout; NULL and CLIENT_Error() if not. */
struct hx_msg *CLIENT_TryResp(struct client *, unsigned flags,
	    double timeout);
/* Same, failing the test if no complete response arrives. */
struct hx_msg *CLIENT_Resp(struct client *, unsigned flags, double timeout);
/* CLIENT_Req without body, then CLIENT_Resp (RESP_HEAD for HEAD). */
struct hx_msg *CLIENT_Fetch(struct client *, const char *method,
	    const char *url, const char *hdrs, double timeout);
enum hx_io CLIENT_LastIO(const struct client *);
const char *CLIENT_Error(const struct client *);
/* Body of following responses goes to sink (NULL: back to memory). */
void	CLIENT_SetSink(struct client *, hx_sink_f *, void *priv);
/* Bytes received and not yet consumed by a response. */
size_t	CLIENT_Pending(const struct client *);
/*
 * Wait for the server to close: HX_IO_EOF or HX_IO_RESET, or
 * HX_IO_TIMEOUT if still open.  Data arriving meanwhile is kept.
 */
enum hx_io CLIENT_WaitClose(struct client *, double timeout);
/* Fail the test unless closed within timeout with no bytes unread. */
void	CLIENT_AssertClosed(struct client *, double timeout);
/* Read and discard until closed; as CLIENT_WaitClose. */
enum hx_io CLIENT_Drain(struct client *, double timeout);
/* Everything up to the close (fails the test on timeout). */
char	*CLIENT_ReadAll(struct client *, size_t *lenp, double timeout);

/*--------------------------------------------------------------------
 * vnd.c, vnd_counters.c: veneerd processes.
 */

struct vnd;

/* A temp dir, no process yet.  Arguments are added, then VND_Start. */
struct vnd *VND_New(void);
void	VND_Arg(struct vnd *, const char *);
void	VND_Param(struct vnd *, const char *name, const char *value);
void	VND_Backend(struct vnd *, int port);	/* -b 127.0.0.1:port */
void	VND_Listen(struct vnd *, const char *addr);	/* -a, repeatable */
/* Deadline for _.listen (6 s times CK_TIMEOUT_MULTIPLIER). */
void	VND_SetStartTimeout(struct vnd *, double);
/*
 * $VENEERD -F -n WORKDIR -a ... -b ... -j none ARGS, output to
 * TMP/veneerd.log; wait for WORKDIR/_.listen.  Fails the test (with the
 * log) if veneerd is missing, exits, or does not listen in time.
 */
void	VND_Start(struct vnd *);
/* New + Backend + "-p" for each "name=value" + Start; NULL-terminated. */
struct vnd *VND_Launch(int backend_port, ...);
/* SIGTERM, wait 15 s, fail unless the exit status is 0. */
void	VND_Stop(struct vnd *);
/* Stop if running, check the log, kill leftovers, remove the dir. */
void	VND_Free(struct vnd **);
void	VND_Kill(struct vnd *, int sig);		/* to the manager */
/* Exit status (128 + signal if killed); fails the test on timeout. */
int	VND_Wait(struct vnd *, double timeout);
/* Make pid (a daemonized veneerd) the manager this vnd controls. */
void	VND_Adopt(struct vnd *, pid_t);
/* Wait for and parse _.listen (VND_Start does it). */
void	VND_WaitListen(struct vnd *);
pid_t	VND_Pid(const struct vnd *);
const char *VND_Dir(const struct vnd *);	/* the temp dir */
const char *VND_Workdir(const struct vnd *);	/* TMP/work, the -n */
unsigned VND_NListen(const struct vnd *);
const char *VND_Addr(const struct vnd *, unsigned i);
int	VND_Port(const struct vnd *, unsigned i);
struct client *VND_Connect(struct vnd *);	/* to a0 */
struct client *VND_ConnectTo(struct vnd *, unsigned i);
/* The log so far (caller frees); the first alarming line, or NULL. */
char	*VND_Log(const struct vnd *);
const char *VND_LogProblem(struct vnd *);
/* A child death is part of the test: "Child died" is not a failure. */
void	VND_ExpectChildDeath(struct vnd *);

/*
 * Run $VENEERD once with the arguments (NULL-terminated); with std,
 * "-F -n WORKDIR -a 127.0.0.1:0 -b BACKEND -j none" come first.  Output
 * goes to TMP/exec.out and TMP/exec.err.  The exit status (128 + signal
 * if killed); fails the test if it runs past timeout.
 */
int	VND_Exec(struct vnd *, int std, double timeout, ...);
/* VND_Exec with cwd as the working directory (relative paths, -P). */
int	VND_ExecIn(struct vnd *, const char *cwd, int std, double timeout,
	    ...);
char	*VND_ExecOut(const struct vnd *);		/* caller frees */
char	*VND_ExecErr(const struct vnd *);		/* caller frees */

/*
 * A veneerd running a VCL in front of a scripted origin, for the VCL
 * tests: the VCL is "vcl 4.1; import std;", a backend default at the
 * origin, then vcl_body; vcc_err_unref is off.  A client is connected.
 */
struct hx_vcl {
	struct origin	*o;
	struct vnd	*v;
	struct client	*cl;
};
void	HXV_Start(struct hx_vcl *, origin_handler_f *, const char *vcl_body);
void	HXV_Finish(struct hx_vcl *);
/* Write text as DIR/name and give it to veneerd with -f. */
void	VND_VclFile(struct vnd *, const char *name, const char *text);

/* Counters: the MAIN Stat segment in WORKDIR/_.vsm_child, re-found and
 * re-mapped whenever the child's _.index changes (a restart). */
uint64_t VND_Counter(struct vnd *, const char *name);
/* 0 and *val, or -1 if the file is not ready or has no such name. */
int	VND_TryCounter(struct vnd *, const char *name, uint64_t *val);
/* op: "==", ">=", ">", "<="; returns the value that satisfied it. */
uint64_t VND_WaitCounter(struct vnd *, const char *name, const char *op,
	    uint64_t value, double timeout);
pid_t	VND_ChildPid(struct vnd *);
/* VND_Free, then check the origin saw no bad request and free it. */
void	VND_Finish(struct vnd **, struct origin **);
pid_t	VND_WaitChildPidChange(struct vnd *, pid_t old, double timeout);
long	VND_ChildThreads(struct vnd *);		/* /proc Threads */
long	VND_ChildRssKB(struct vnd *);		/* /proc VmRSS */

/* For vnd.c and vnd_counters.c only. */
struct vnd_counters;
void	VNDC_Fini(struct vnd_counters **);
int	VNDC_Read(struct vnd_counters **, const char *workdir,
	    const char *name, uint64_t *val, pid_t *child, char *why,
	    size_t whylen);
void	VND_NoteChild(struct vnd *, pid_t);

#endif /* VENEER_TESTS_HARNESS_H */

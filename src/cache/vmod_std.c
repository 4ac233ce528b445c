/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_std.c -- the std module of include/vmod_std.h, built into
 * veneerd.  Conversions never crash on bad input: they return the
 * fallback when one was given, and otherwise fail the method with
 * VCL_Error saying what could not be converted, as Varnish 7.1 does.
 */

#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "common/tim.h"
#include "cache/ban.h"
#include "cache/backend.h"
#include "cache/fetch.h"
#include "cache/http.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vrt_priv.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

/* Strings ---------------------------------------------------------------*/

VCL_STRING
vmod_std_toupper(VRT_CTX, VCL_STRANDS s)
{

	return (VRT_UpperLowerStrands(ctx, s, 1));
}

VCL_STRING
vmod_std_tolower(VRT_CTX, VCL_STRANDS s)
{

	return (VRT_UpperLowerStrands(ctx, s, 0));
}

VCL_VOID
vmod_std_log(VRT_CTX, VCL_STRANDS s)
{
	const char *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	p = VRT_STRANDS_string(ctx, s);
	if (p != NULL)
		VRT_log(ctx, p);
}

VCL_VOID
vmod_std_syslog(VRT_CTX, VCL_INT priority, VCL_STRANDS s)
{
	const char *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	p = VRT_STRANDS_string(ctx, s);
	if (p != NULL)
		syslog((int)priority, "%s", p);
}

VCL_STRING
vmod_std_strstr(VRT_CTX, VCL_STRING s1, VCL_STRING s2)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s1 == NULL || s2 == NULL)
		return (NULL);
	return (strstr(s1, s2));
}

/* Sort the query parameters of a URL; empty ones ("&&") are dropped. */
static int
std_qcmp(const void *a, const void *b)
{
	const char * const *pa = a, * const *pb = b;
	const char *x = *pa, *y = *pb;

	/* Compare up to the '&' that ends each parameter. */
	for (; *x != '\0' && *x != '&' && *x == *y; x++, y++)
		continue;
	return ((*x == '&' ? 0 : (unsigned char)*x) -
	    (*y == '&' ? 0 : (unsigned char)*y));
}

VCL_STRING
vmod_std_querysort(VRT_CTX, VCL_STRING url)
{
	const char *q, *p, **params;
	char *r, *w;
	size_t n = 0, i, l;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (url == NULL)
		return (NULL);
	q = strchr(url, '?');
	if (q == NULL || q[1] == '\0')
		return (url);
	for (p = q + 1; *p != '\0'; p++)
		if (*p == '&')
			n++;
	n++;
	params = WS_Alloc(ctx->ws, n * sizeof *params);
	r = WS_Alloc(ctx->ws, strlen(url) + 1);
	if (params == NULL || r == NULL) {
		VRT_fail(ctx, "std.querysort: out of workspace");
		return (NULL);
	}
	n = 0;
	for (p = q + 1; ; ) {
		if (*p != '&' && *p != '\0')
			params[n++] = p;
		p = strchr(p, '&');
		if (p == NULL)
			break;
		p++;
	}
	qsort(params, n, sizeof *params, std_qcmp);
	l = (size_t)(q - url) + 1;
	memcpy(r, url, l);
	w = r + l;
	for (i = 0; i < n; i++) {
		if (i > 0)
			*w++ = '&';
		l = strcspn(params[i], "&");
		memcpy(w, params[i], l);
		w += l;
	}
	/* "/p?&" sorts to "/p": no parameters, no question mark. */
	if (n == 0)
		w--;
	*w = '\0';
	return (r);
}

/* Conversions -----------------------------------------------------------*/

/* Exactly one of the inputs; otherwise the call is a VCL bug. */
static int
std_one(VRT_CTX, const char *fn, unsigned given)
{

	if (given == 1)
		return (1);
	VRT_fail(ctx, "std.%s: %s", fn, given == 0 ?
	    "no argument to convert" : "more than one argument to convert");
	return (0);
}

static int
std_num(const char *s, double *d)
{
	char *e;

	if (s == NULL)
		return (0);
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return (0);
	errno = 0;
	*d = strtod(s, &e);
	if (errno != 0 || e == s || !isfinite(*d))
		return (0);
	while (isspace((unsigned char)*e))
		e++;
	return (*e == '\0');
}

VCL_INT
vmod_std_integer(VRT_CTX, VCL_BOOL valid_s, VCL_STRING s,
    VCL_BOOL valid_fallback, VCL_INT fallback, VCL_BOOL valid_bool,
    VCL_BOOL b, VCL_BOOL valid_bytes, VCL_BYTES bytes,
    VCL_BOOL valid_duration, VCL_DURATION duration, VCL_BOOL valid_real,
    VCL_REAL real, VCL_BOOL valid_time, VCL_TIME t)
{
	double d = NAN;
	long l;
	char *e;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!std_one(ctx, "integer", !!valid_s + !!valid_bool +
	    !!valid_bytes + !!valid_duration + !!valid_real + !!valid_time))
		return (0);
	if (valid_bool)
		return (b ? 1 : 0);
	if (valid_bytes)
		return (bytes);
	if (valid_s && s != NULL) {
		while (isspace((unsigned char)*s))
			s++;
		errno = 0;
		l = strtol(s, &e, 10);
		if (errno == 0 && e != s) {
			while (isspace((unsigned char)*e))
				e++;
			if (*e == '\0')
				return (l);
		}
	}
	if (valid_duration)
		d = duration;
	if (valid_real)
		d = real;
	if (valid_time)
		d = t;
	/* Rounded down, as Varnish does. */
	if (!valid_s && isfinite(d) && d > -9.2e18 && d < 9.2e18)
		return ((VCL_INT)floor(d));
	if (valid_fallback)
		return (fallback);
	VRT_fail(ctx, "std.integer: cannot convert \"%s\"",
	    valid_s && s != NULL ? s : "(value)");
	return (0);
}

VCL_REAL
vmod_std_real(VRT_CTX, VCL_BOOL valid_s, VCL_STRING s,
    VCL_BOOL valid_fallback, VCL_REAL fallback, VCL_BOOL valid_integer,
    VCL_INT integer, VCL_BOOL valid_bool, VCL_BOOL b,
    VCL_BOOL valid_bytes, VCL_BYTES bytes, VCL_BOOL valid_duration,
    VCL_DURATION duration, VCL_BOOL valid_time, VCL_TIME t)
{
	double d;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!std_one(ctx, "real", !!valid_s + !!valid_integer +
	    !!valid_bool + !!valid_bytes + !!valid_duration + !!valid_time))
		return (0);
	if (valid_integer)
		return ((VCL_REAL)integer);
	if (valid_bool)
		return (b ? 1.0 : 0.0);
	if (valid_bytes)
		return ((VCL_REAL)bytes);
	if (valid_duration)
		return (duration);
	if (valid_time)
		return (t);
	if (std_num(s, &d))
		return (d);
	if (valid_fallback)
		return (fallback);
	VRT_fail(ctx, "std.real: cannot convert \"%s\"", s == NULL ? "" : s);
	return (0);
}

/* "1.5m": a number and a unit (ms s m h d w y), as VCL writes them. */
static int
std_parse_duration(const char *s, double *r)
{
	char *e;
	double d, m;

	if (s == NULL)
		return (0);
	while (isspace((unsigned char)*s))
		s++;
	errno = 0;
	d = strtod(s, &e);
	if (errno != 0 || e == s || !isfinite(d))
		return (0);
	while (isspace((unsigned char)*e))
		e++;
	if (!strncmp(e, "ms", 2)) {
		m = 1e-3;
		e += 2;
	} else {
		switch (*e) {
		case 's': m = 1; break;
		case 'm': m = 60; break;
		case 'h': m = 3600; break;
		case 'd': m = 86400; break;
		case 'w': m = 86400 * 7; break;
		case 'y': m = 86400 * 365; break;
		default: return (0);	/* the unit is required */
		}
		e++;
	}
	while (isspace((unsigned char)*e))
		e++;
	if (*e != '\0')
		return (0);
	*r = d * m;
	return (1);
}

VCL_DURATION
vmod_std_duration(VRT_CTX, VCL_BOOL valid_s, VCL_STRING s,
    VCL_BOOL valid_fallback, VCL_DURATION fallback, VCL_BOOL valid_real,
    VCL_REAL real, VCL_BOOL valid_integer, VCL_INT integer)
{
	double d;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!std_one(ctx, "duration", !!valid_s + !!valid_real +
	    !!valid_integer))
		return (0);
	if (valid_real)
		return (real);
	if (valid_integer)
		return ((VCL_DURATION)integer);
	if (std_parse_duration(s, &d))
		return (d);
	if (valid_fallback)
		return (fallback);
	VRT_fail(ctx, "std.duration: cannot convert \"%s\"",
	    s == NULL ? "" : s);
	return (0);
}

/* "10KB": a number and an optional unit B, KB, MB, GB, TB (or k, m...). */
static int
std_parse_bytes(const char *s, double *r)
{
	char *e;
	double d, m = 1;

	if (s == NULL)
		return (0);
	while (isspace((unsigned char)*s))
		s++;
	errno = 0;
	d = strtod(s, &e);
	if (errno != 0 || e == s || !isfinite(d) || d < 0)
		return (0);
	while (isspace((unsigned char)*e))
		e++;
	switch (*e) {
	case 'k': case 'K': m = 1024.; e++; break;
	case 'm': case 'M': m = 1024. * 1024; e++; break;
	case 'g': case 'G': m = 1024. * 1024 * 1024; e++; break;
	case 't': case 'T': m = 1024. * 1024 * 1024 * 1024; e++; break;
	case 'p': case 'P': m = 1024. * 1024 * 1024 * 1024 * 1024; e++;
		break;
	default: break;
	}
	if (*e == 'b' || *e == 'B')
		e++;
	while (isspace((unsigned char)*e))
		e++;
	if (*e != '\0')
		return (0);
	*r = d * m;
	return (*r < 9.2e18);
}

VCL_BYTES
vmod_std_bytes(VRT_CTX, VCL_BOOL valid_s, VCL_STRING s,
    VCL_BOOL valid_fallback, VCL_BYTES fallback, VCL_BOOL valid_real,
    VCL_REAL real, VCL_BOOL valid_integer, VCL_INT integer)
{
	double d;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!std_one(ctx, "bytes", !!valid_s + !!valid_real +
	    !!valid_integer))
		return (0);
	if (valid_integer && integer >= 0)
		return (integer);
	if (valid_real && isfinite(real) && real >= 0 && real < 9.2e18)
		return ((VCL_BYTES)floor(real));
	if (valid_s && std_parse_bytes(s, &d))
		return ((VCL_BYTES)floor(d));
	if (valid_fallback)
		return (fallback);
	VRT_fail(ctx, "std.bytes: cannot convert \"%s\"",
	    valid_s && s != NULL ? s : "(value)");
	return (0);
}

VCL_IP
vmod_std_ip(VRT_CTX, VCL_STRING s, VCL_BOOL valid_fallback,
    VCL_IP fallback, VCL_BOOL resolve, VCL_BOOL valid_p, VCL_STRING p)
{
	struct addrinfo hints, *res;
	struct vrt_ip *ip;
	int r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s != NULL) {
		memset(&hints, 0, sizeof hints);
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		if (!resolve)
			hints.ai_flags |= AI_NUMERICHOST;
		r = getaddrinfo(s, valid_p && p != NULL ? p : "80", &hints,
		    &res);
		if (r == 0) {
			ip = WS_Alloc(ctx->ws, sizeof *ip);
			if (ip == NULL) {
				freeaddrinfo(res);
				VRT_fail(ctx, "std.ip: out of workspace");
				return (NULL);
			}
			(void)VRT_ip_from_sa(ip, res->ai_addr);
			freeaddrinfo(res);
			return (ip);
		}
	}
	if (valid_fallback)
		return (fallback);
	VRT_fail(ctx, "std.ip: cannot convert \"%s\"", s == NULL ? "" : s);
	return (NULL);
}

/* "2021-02-03T04:05:06" or with a space, optionally 'Z': UTC. */
static int
std_parse_iso(const char *s, double *r)
{
	struct tm tm;
	const char *e;

	memset(&tm, 0, sizeof tm);
	e = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (e == NULL)
		e = strptime(s, "%Y-%m-%d %H:%M:%S", &tm);
	if (e == NULL)
		return (0);
	if (*e == 'Z')
		e++;
	if (*e != '\0')
		return (0);
	*r = (double)timegm(&tm);
	return (1);
}

VCL_TIME
vmod_std_time(VRT_CTX, VCL_BOOL valid_s, VCL_STRING s,
    VCL_BOOL valid_fallback, VCL_TIME fallback, VCL_BOOL valid_real,
    VCL_REAL real, VCL_BOOL valid_integer, VCL_INT integer)
{
	double d;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!std_one(ctx, "time", !!valid_s + !!valid_real +
	    !!valid_integer))
		return (0);
	if (valid_real)
		return (real);
	if (valid_integer)
		return ((VCL_TIME)integer);
	if (s != NULL) {
		d = PARAM_HasFeature(PARAM_FEATURE_HTTP_DATE_POSTEL) ?
		    TIM_parse_postel(s, s + strlen(s)) :
		    TIM_parse(s, s + strlen(s));
		if (d != 0)
			return (d);
		if (std_parse_iso(s, &d) || std_num(s, &d))
			return (d);
	}
	if (valid_fallback)
		return (fallback);
	VRT_fail(ctx, "std.time: cannot convert \"%s\"", s == NULL ? "" : s);
	return (0);
}

VCL_REAL
vmod_std_random(VRT_CTX, VCL_REAL lo, VCL_REAL hi)
{
	static __thread unsigned short seed[3];
	static __thread int seeded;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!seeded) {
		seed[0] = (unsigned short)getpid();
		seed[1] = (unsigned short)(uintptr_t)&seeded;
		seed[2] = (unsigned short)time(NULL);
		seeded = 1;
	}
	return (lo + (hi - lo) * erand48(seed));
}

VCL_INT
vmod_std_port(VRT_CTX, VCL_IP ip)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ip == NULL)
		return (0);
	CHECK_OBJ(ip, VRT_IP_MAGIC);
	return ((VCL_INT)ip->port);
}

VCL_BOOL
vmod_std_healthy(VRT_CTX, VCL_BACKEND be)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (be == NULL)
		return (0);
	return (DIRECTOR_Healthy(be));
}

/* std.fileread: each path read once, kept for the child's life. */
struct std_file {
	struct std_file		*next;
	char			*path;
	char			*data;
};

static pthread_mutex_t std_file_mtx = PTHREAD_MUTEX_INITIALIZER; /* adds */
static struct std_file *std_files;

/*
 * Entries are only ever added, at the head, published with a release
 * store: lookups (every request that calls std.fileread) take no lock.
 */
static struct std_file *
std_file_find(const char *path)
{
	struct std_file *f;

	for (f = __atomic_load_n(&std_files, __ATOMIC_ACQUIRE); f != NULL;
	    f = f->next)
		if (!strcmp(f->path, path))
			return (f);
	return (NULL);
}

static char *
std_slurp(const char *path)
{
	struct stat st;
	char *b;
	ssize_t r;
	size_t l = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return (NULL);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		(void)close(fd);
		return (NULL);
	}
	b = malloc((size_t)st.st_size + 1);
	if (b == NULL) {
		(void)close(fd);
		return (NULL);
	}
	while (l < (size_t)st.st_size) {
		r = read(fd, b + l, (size_t)st.st_size - l);
		if (r <= 0)
			break;
		l += (size_t)r;
	}
	(void)close(fd);
	b[l] = '\0';
	return (b);
}

VCL_STRING
vmod_std_fileread(VRT_CTX, VCL_STRING path)
{
	struct std_file *f, *old;
	char *data;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (path == NULL) {
		VRT_fail(ctx, "std.fileread: no file name");
		return (NULL);
	}
	f = std_file_find(path);
	if (f != NULL)
		return (f->data);
	data = std_slurp(path);
	if (data == NULL) {
		VRT_fail(ctx, "std.fileread: cannot read \"%s\": %s", path,
		    strerror(errno));
		return (NULL);
	}
	f = calloc(1, sizeof *f);
	if (f == NULL || (f->path = strdup(path)) == NULL) {
		free(f);
		free(data);
		VRT_fail(ctx, "std.fileread: out of memory");
		return (NULL);
	}
	f->data = data;
	(void)pthread_mutex_lock(&std_file_mtx);
	old = std_file_find(path);	/* another request was first */
	if (old == NULL) {
		f->next = std_files;
		__atomic_store_n(&std_files, f, __ATOMIC_RELEASE);
	}
	(void)pthread_mutex_unlock(&std_file_mtx);
	if (old != NULL) {
		free(f->path);
		free(f->data);
		free(f);
		f = old;
	}
	return (f->data);
}

/* Messages ----------------------------------------------------------------*/

static struct http *
std_http(VRT_CTX, enum gethdr_where where)
{

	switch (where) {
	case HDR_REQ:		return (ctx->http_req);
	case HDR_REQ_TOP:	return (ctx->http_req_top);
	case HDR_RESP:		return (ctx->http_resp);
	case HDR_BEREQ:		return (ctx->http_bereq);
	case HDR_BERESP:	return (ctx->http_beresp);
	case HDR_OBJ:		return (ctx->http_obj);
	default:		return (NULL);
	}
}

VCL_VOID
vmod_std_collect(VRT_CTX, VCL_HEADER hdr, VCL_STRING sep)
{
	struct http *hp;
	struct txt v;
	char name[256], *b;
	size_t l, avail, n = 0, sl;
	unsigned u;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	assert(hdr != NULL);
	hp = std_http(ctx, hdr->where);
	l = (unsigned char)hdr->what[0];
	if (hp == NULL || l < 2 || l > sizeof name ||
	    hdr->what[l] != ':') {
		VRT_fail(ctx, "std.collect: no such header here");
		return;
	}
	memcpy(name, hdr->what + 1, l - 1);
	name[l - 1] = '\0';
	if (HTTP_CountHdr(hp, name) < 2)
		return;
	if (sep == NULL)
		sep = "";
	sl = strlen(sep);
	avail = WS_ReserveAll(hp->ws);
	b = WS_Reservation(hp->ws);
	n = (size_t)snprintf(b, avail, "%s: ", name);
	for (u = HTTP_FindHdr(hp, name, 0); u != 0;
	    u = HTTP_FindHdr(hp, name, u + 1)) {
		v = HTTP_HdrValue(hp, u);
		if (n + TXT_LEN(v) + sl + 1 >= avail) {
			WS_Release(hp->ws, 0);
			VRT_fail(ctx, "std.collect: out of workspace");
			return;
		}
		if (n > l + 1) {
			memcpy(b + n, sep, sl);
			n += sl;
		}
		memcpy(b + n, v.b, TXT_LEN(v));
		n += TXT_LEN(v);
	}
	b[n] = '\0';
	WS_Release(hp->ws, n + 1);
	HTTP_Unset(hp, name);
	(void)HTTP_SetHeader(hp, b);
}

VCL_VOID
vmod_std_set_ip_tos(VRT_CTX, VCL_INT tos)
{
	int i = (int)tos;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->sp == NULL) {
		VRT_fail(ctx, "std.set_ip_tos: no client connection here");
		return;
	}
	/* An IPv6 or Unix socket has no TOS: nothing to do, as Varnish. */
	(void)setsockopt(ctx->sp->fd, IPPROTO_IP, IP_TOS, &i, sizeof i);
}

VCL_BOOL
vmod_std_cache_req_body(VRT_CTX, VCL_BYTES size)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)size;
	if (ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_VCL_Error, "std.cache_req_body() is not "
		    "supported yet: request bodies are streamed, not cached");
	return (0);
}

VCL_VOID
vmod_std_rollback(VRT_CTX, VCL_HTTP h)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (h != NULL && h == ctx->http_bereq && ctx->bo != NULL &&
	    ctx->bo->bereq0 != NULL) {
		if (HTTP_Clone(h, ctx->bo->bereq0) != 0)
			VRT_fail(ctx, "std.rollback: out of header slots");
		return;
	}
	if (ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_VCL_Error, "std.rollback() of %s is not "
		    "supported yet", h == ctx->http_req ? "req" : "this");
}

VCL_VOID
vmod_std_late_100_continue(VRT_CTX, VCL_BOOL late)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->method != VCL_MET_RECV) {
		VRT_fail(ctx, "std.late_100_continue() is only legal in "
		    "vcl_recv");
		return;
	}
	/* The 100 Continue is always sent when the body is first read. */
	(void)late;
}

VCL_VOID
vmod_std_timestamp(VRT_CTX, VCL_STRING s)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s == NULL)
		return;
	if (ctx->req != NULL && ctx->bo == NULL)
		VSLb_ts(ctx->vsl, s, ctx->req->t_first, &ctx->req->t_prev,
		    TIM_real());
	else if (ctx->bo != NULL)
		VSLb_ts(ctx->vsl, s, ctx->bo->t_first, &ctx->bo->t_prev,
		    TIM_real());
	else if (ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_VCL_Error, "std.timestamp: no task here");
}

/*
 * Why the last std.ban() of this thread failed ("" if it did not): a
 * worker runs one task at a time, and each std.ban() sets it.
 */
static __thread char std_ban_err[256];

VCL_BOOL
vmod_std_ban(VRT_CTX, VCL_STRING expr)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (BAN_AddString(expr != NULL ? expr : "", std_ban_err,
	    sizeof std_ban_err) == 0) {
		std_ban_err[0] = '\0';
		return (1);
	}
	if (ctx->vsl != NULL)
		VSLb(ctx->vsl, SLT_VCL_Error, "std.ban(): %s", std_ban_err);
	return (0);
}

VCL_STRING
vmod_std_ban_error(VRT_CTX)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (std_ban_err);
}

/* VCL 4.0 */

VCL_TIME
vmod_std_real2time(VRT_CTX, VCL_REAL r, VCL_TIME base)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (isfinite(r) ? r : base);
}

VCL_INT
vmod_std_time2integer(VRT_CTX, VCL_TIME t, VCL_INT base)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!isfinite(t) || t < -9.2e18 || t > 9.2e18)
		return (base);
	return ((VCL_INT)t);
}

VCL_REAL
vmod_std_time2real(VRT_CTX, VCL_TIME t, VCL_REAL base)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (isfinite(t) ? t : base);
}

VCL_INT
vmod_std_real2integer(VRT_CTX, VCL_REAL r, VCL_INT fallback)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (isfinite(r) && fabs(r) < 9.2e18 ? (VCL_INT)r : fallback);
}

VCL_REAL
vmod_std_round(VRT_CTX, VCL_REAL r)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (round(r));
}

VCL_STRING
vmod_std_getenv(VRT_CTX, VCL_STRING name)
{

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (name == NULL ? NULL : getenv(name));
}

VCL_BOOL
vmod_std_file_exists(VRT_CTX, VCL_STRING path)
{
	struct stat st;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (path != NULL && stat(path, &st) == 0);
}

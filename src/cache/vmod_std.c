/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_std.c -- the std module (`import std;`), as include/vmod_std.h
 * declares it.  Conversions never crash on bad input: they return the
 * fallback, or fail the VCL when there is none, as Varnish 7.1's do.
 * Results live on the task's workspace.
 */

#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <syslog.h>

#include "common/miniobj.h"
#include "common/num.h"
#include "common/tim.h"
#include "cache/http.h"
#include "cache/req.h"
#include "cache/session.h"
#include "cache/vsl.h"
#include "cache/ws.h"
#include "vrt.h"

static VCL_STRING
std_case(VRT_CTX, VCL_STRANDS s, int up)
{
	const char *r;
	char *p;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	r = VRT_STRANDS_string(ctx, s);
	if (r == NULL)
		return (NULL);
	p = WS_Copy(ctx->ws, r, strlen(r));
	if (p == NULL) {
		VRT_fail(ctx, "std.to%s: workspace overflow", up ? "upper" :
		    "lower");
		return (NULL);
	}
	for (r = p; *p != '\0'; p++)
		*p = (char)(up ? toupper((unsigned char)*p) :
		    tolower((unsigned char)*p));
	return (r);
}

VCL_STRING
vmod_std_toupper(VRT_CTX, VCL_STRANDS s)
{
	return (std_case(ctx, s, 1));
}

VCL_STRING
vmod_std_tolower(VRT_CTX, VCL_STRANDS s)
{
	return (std_case(ctx, s, 0));
}

VCL_VOID
vmod_std_log(VRT_CTX, VCL_STRANDS s)
{
	const char *r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	r = VRT_StrandsWS(ctx->ws, NULL, s);
	VRT_log(ctx, r == NULL ? "(std.log: workspace overflow)" : r);
}

VCL_VOID
vmod_std_syslog(VRT_CTX, VCL_INT prio, VCL_STRANDS s)
{
	const char *r;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	r = VRT_StrandsWS(ctx->ws, NULL, s);
	if (r != NULL)
		syslog((int)prio, "%s", r);
}

/* "exactly one argument": how many of the optional ones were given. */
static int
std_one(VRT_CTX, const char *fn, unsigned n)
{

	if (n == 1)
		return (0);
	VRT_fail(ctx, "std.%s: give exactly one of its conversion "
	    "arguments (%u given)", fn, n);
	return (-1);
}

static int
std_strtod(const char *s, double *d)
{
	char *e;

	if (s == NULL)
		return (-1);
	while (isspace((unsigned char)*s))
		s++;
	errno = 0;
	*d = strtod(s, &e);
	if (e == s || errno != 0 || !isfinite(*d))
		return (-1);
	while (isspace((unsigned char)*e))
		e++;
	return (*e == '\0' ? 0 : -1);
}

VCL_INT
vmod_std_integer(VRT_CTX, VCL_BOOL v_s, VCL_STRING s, VCL_BOOL v_fb,
    VCL_INT fb, VCL_BOOL v_b, VCL_BOOL b, VCL_BOOL v_by, VCL_BYTES by,
    VCL_BOOL v_d, VCL_DURATION d, VCL_BOOL v_r, VCL_REAL r, VCL_BOOL v_t,
    VCL_TIME t)
{
	double x = 0;
	char *e;
	long l;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (std_one(ctx, "integer", v_s + v_b + v_by + v_d + v_r + v_t))
		return (0);
	if (v_b)
		return (b ? 1 : 0);
	if (v_by)
		return (by);
	if (v_d)
		x = d;
	else if (v_r)
		x = r;
	else if (v_t)
		x = t;
	else if (s != NULL) {
		while (isspace((unsigned char)*s))
			s++;
		errno = 0;
		l = strtol(s, &e, 10);
		if (e != s && errno == 0) {
			while (isspace((unsigned char)*e))
				e++;
			if (*e == '\0')
				return (l);
		}
		goto fail;
	} else
		goto fail;
	if (isfinite(x) && x > -9.2e18 && x < 9.2e18)
		return ((VCL_INT)(x < 0 ? ceil(x) : floor(x)));
fail:
	if (v_fb)
		return (fb);
	VRT_fail(ctx, "std.integer: cannot convert \"%s\" and there is no "
	    "fallback", s == NULL ? "" : s);
	return (0);
}

VCL_REAL
vmod_std_real(VRT_CTX, VCL_BOOL v_s, VCL_STRING s, VCL_BOOL v_fb,
    VCL_REAL fb, VCL_BOOL v_i, VCL_INT i, VCL_BOOL v_b, VCL_BOOL b,
    VCL_BOOL v_by, VCL_BYTES by, VCL_BOOL v_d, VCL_DURATION d,
    VCL_BOOL v_t, VCL_TIME t)
{
	double x;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (std_one(ctx, "real", v_s + v_i + v_b + v_by + v_d + v_t))
		return (0);
	if (v_i)
		return ((VCL_REAL)i);
	if (v_b)
		return (b ? 1 : 0);
	if (v_by)
		return ((VCL_REAL)by);
	if (v_d)
		return (d);
	if (v_t)
		return (t);
	if (std_strtod(s, &x) == 0)
		return (x);
	if (v_fb)
		return (fb);
	VRT_fail(ctx, "std.real: cannot convert \"%s\" and there is no "
	    "fallback", s == NULL ? "" : s);
	return (0);
}

VCL_DURATION
vmod_std_duration(VRT_CTX, VCL_BOOL v_s, VCL_STRING s, VCL_BOOL v_fb,
    VCL_DURATION fb, VCL_BOOL v_r, VCL_REAL r, VCL_BOOL v_i, VCL_INT i)
{
	double d;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (std_one(ctx, "duration", v_s + v_r + v_i))
		return (0);
	if (v_r)
		return (r);
	if (v_i)
		return ((VCL_DURATION)i);
	if (s != NULL && NUM_ParseDuration(s, &d) == NULL)
		return (d);
	if (v_fb)
		return (fb);
	VRT_fail(ctx, "std.duration: cannot convert \"%s\" and there is no "
	    "fallback", s == NULL ? "" : s);
	return (0);
}

VCL_BYTES
vmod_std_bytes(VRT_CTX, VCL_BOOL v_s, VCL_STRING s, VCL_BOOL v_fb,
    VCL_BYTES fb, VCL_BOOL v_r, VCL_REAL r, VCL_BOOL v_i, VCL_INT i)
{
	uint64_t u;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (std_one(ctx, "bytes", v_s + v_r + v_i))
		return (0);
	if (v_r)
		return ((VCL_BYTES)r);
	if (v_i)
		return (i);
	if (s != NULL && NUM_ParseBytes(s, &u) == NULL && u <= INT64_MAX)
		return ((VCL_BYTES)u);
	if (v_fb)
		return (fb);
	VRT_fail(ctx, "std.bytes: cannot convert \"%s\" and there is no "
	    "fallback", s == NULL ? "" : s);
	return (0);
}

VCL_TIME
vmod_std_time(VRT_CTX, VCL_BOOL v_s, VCL_STRING s, VCL_BOOL v_fb,
    VCL_TIME fb, VCL_BOOL v_r, VCL_REAL r, VCL_BOOL v_i, VCL_INT i)
{
	double t;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (std_one(ctx, "time", v_s + v_r + v_i))
		return (0);
	if (v_r)
		return (r);
	if (v_i)
		return ((VCL_TIME)i);
	if (s != NULL) {
		t = TIM_parse(s, s + strlen(s));
		if (t != 0)
			return (t);
		if (std_strtod(s, &t) == 0)
			return (t);
	}
	if (v_fb)
		return (fb);
	VRT_fail(ctx, "std.time: cannot convert \"%s\" and there is no "
	    "fallback", s == NULL ? "" : s);
	return (0);
}

VCL_IP
vmod_std_ip(VRT_CTX, VCL_STRING s, VCL_BOOL v_fb, VCL_IP fb,
    VCL_BOOL resolve, VCL_BOOL v_p, VCL_STRING p)
{
	struct addrinfo hints, *res;
	struct vrt_ip *ip;
	const char *port = v_p && p != NULL ? p : "80";

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	memset(&hints, 0, sizeof hints);
	hints.ai_socktype = SOCK_STREAM;
	if (!resolve)
		hints.ai_flags = AI_NUMERICHOST;
	if (s != NULL && getaddrinfo(s, port, &hints, &res) == 0) {
		ip = WS_Alloc(ctx->ws, sizeof *ip);
		if (ip == NULL) {
			freeaddrinfo(res);
			VRT_fail(ctx, "std.ip: workspace overflow");
			return (NULL);
		}
		INIT_OBJ(ip, VRT_IP_MAGIC);
		ip->family = res->ai_family;
		if (res->ai_family == AF_INET) {
			const struct sockaddr_in *s4 = (void *)res->ai_addr;

			memcpy(ip->addr, &s4->sin_addr, 4);
			ip->port = ntohs(s4->sin_port);
		} else {
			const struct sockaddr_in6 *s6 = (void *)res->ai_addr;

			memcpy(ip->addr, &s6->sin6_addr, 16);
			ip->port = ntohs(s6->sin6_port);
		}
		freeaddrinfo(res);
		return (ip);
	}
	if (v_fb)
		return (fb);
	VRT_fail(ctx, "std.ip: \"%s\" is not an address and there is no "
	    "fallback", s == NULL ? "" : s);
	return (NULL);
}

VCL_REAL
vmod_std_random(VRT_CTX, VCL_REAL lo, VCL_REAL hi)
{
	static __thread unsigned short seed[3];
	static __thread unsigned seeded;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (!seeded) {
		uint64_t x = (uint64_t)(TIM_mono() * 1e9) ^
		    (uint64_t)(uintptr_t)&seeded;

		seed[0] = (unsigned short)x;
		seed[1] = (unsigned short)(x >> 16);
		seed[2] = (unsigned short)(x >> 32);
		seeded = 1;
	}
	return (lo + erand48(seed) * (hi - lo));
}

VCL_BOOL
vmod_std_healthy(VRT_CTX, VCL_BACKEND be)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	/* Health probes come with issue 15: a backend is healthy. */
	return (be != NULL);
}

VCL_INT
vmod_std_port(VRT_CTX, VCL_IP ip)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (ip == NULL ? 0 : (VCL_INT)ip->port);
}

static int
std_qcmp(const void *a, const void *b)
{
	const struct txt *x = a, *y = b;
	size_t lx = (size_t)(x->e - x->b), ly = (size_t)(y->e - y->b);
	int i;

	i = memcmp(x->b, y->b, lx < ly ? lx : ly);
	if (i != 0)
		return (i);
	return (lx < ly ? -1 : lx > ly);
}

VCL_STRING
vmod_std_querysort(VRT_CTX, VCL_STRING url)
{
	struct txt params[128];
	const char *q, *p, *e;
	unsigned n = 0, u;
	char *r, *w;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (url == NULL)
		return (NULL);
	q = strchr(url, '?');
	if (q == NULL || q[1] == '\0')
		return (url);
	for (p = q + 1; *p != '\0'; p = *e == '&' ? e + 1 : e) {
		e = strchr(p, '&');
		if (e == NULL)
			e = p + strlen(p);
		if (e == p)
			continue;
		if (n == sizeof params / sizeof params[0])
			return (url);		/* too many: leave it */
		params[n].b = (char *)(uintptr_t)p;
		params[n].e = (char *)(uintptr_t)e;
		n++;
	}
	qsort(params, n, sizeof params[0], std_qcmp);
	r = WS_Alloc(ctx->ws, (unsigned)strlen(url) + 1);
	if (r == NULL) {
		VRT_fail(ctx, "std.querysort: workspace overflow");
		return (NULL);
	}
	memcpy(r, url, (size_t)(q - url) + 1);
	w = r + (q - url) + 1;
	for (u = 0; u < n; u++) {
		if (u > 0)
			*w++ = '&';
		memcpy(w, params[u].b, (size_t)(params[u].e - params[u].b));
		w += params[u].e - params[u].b;
	}
	*w = '\0';
	return (r);
}

VCL_STRING
vmod_std_strstr(VRT_CTX, VCL_STRING s1, VCL_STRING s2)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s1 == NULL || s2 == NULL)
		return (NULL);
	return (strstr(s1, s2));
}

/* std.fileread: each file read once, kept for the life of the process. */
struct std_file {
	char			*path;
	char			*text;
	struct std_file		*next;
};

static pthread_mutex_t std_file_mtx = PTHREAD_MUTEX_INITIALIZER;
static struct std_file *std_files;

VCL_STRING
vmod_std_fileread(VRT_CTX, VCL_STRING path)
{
	struct std_file *f;
	FILE *fp;
	char *buf = NULL;
	size_t len = 0, n;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (path == NULL)
		return (NULL);
	(void)pthread_mutex_lock(&std_file_mtx);
	for (f = std_files; f != NULL; f = f->next)
		if (!strcmp(f->path, path))
			break;
	(void)pthread_mutex_unlock(&std_file_mtx);
	if (f != NULL)
		return (f->text);
	fp = fopen(path, "r");
	if (fp == NULL) {
		VRT_fail(ctx, "std.fileread: cannot read %s: %s", path,
		    strerror(errno));
		return (NULL);
	}
	for (;;) {
		char *nb = realloc(buf, len + 65537);

		if (nb == NULL)
			break;
		buf = nb;
		n = fread(buf + len, 1, 65536, fp);
		len += n;
		if (n == 0)
			break;
	}
	(void)fclose(fp);
	f = calloc(1, sizeof *f);
	if (buf == NULL || f == NULL || (f->path = strdup(path)) == NULL) {
		free(buf);
		free(f);
		VRT_fail(ctx, "std.fileread: out of memory");
		return (NULL);
	}
	buf[len] = '\0';
	f->text = buf;
	(void)pthread_mutex_lock(&std_file_mtx);
	f->next = std_files;
	std_files = f;
	(void)pthread_mutex_unlock(&std_file_mtx);
	return (f->text);
}

VCL_VOID
vmod_std_collect(VRT_CTX, VCL_HEADER hdr, VCL_STRING sep)
{
	struct strands st;
	const char *parts[64];
	struct http *hp;
	char name[256];
	size_t l;
	unsigned u;
	int n = 0;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	switch (hdr->where) {
	case HDR_REQ:		hp = ctx->http_req; break;
	case HDR_RESP:		hp = ctx->http_resp; break;
	case HDR_BEREQ:		hp = ctx->http_bereq; break;
	case HDR_BERESP:	hp = ctx->http_beresp; break;
	default:		hp = NULL; break;
	}
	if (hp == NULL)
		return;
	l = (unsigned char)hdr->what[0] - 1;	/* without the colon */
	if (l >= sizeof name)
		return;
	memcpy(name, hdr->what + 1, l);
	name[l] = '\0';
	for (u = HTTP_HDR_FIRST; u < hp->nhd && n + 2 < 64; u++) {
		if (!HTTP_IsHdr(hp, u, name, l))
			continue;
		if (n > 0)
			parts[n++] = sep == NULL ? ", " : sep;
		parts[n] = hp->hd[u].b + l + 1;
		while (*parts[n] == ' ' || *parts[n] == '\t')
			parts[n]++;
		n++;
	}
	if (n <= 1)
		return;		/* nothing to join */
	st.n = n;
	st.p = parts;
	VRT_SetHdr(ctx, hdr, &st);
}

VCL_VOID
vmod_std_set_ip_tos(VRT_CTX, VCL_INT tos)
{
	int t = (int)tos;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (ctx->sp == NULL)
		return;
	(void)setsockopt(ctx->sp->fd, IPPROTO_IP, IP_TOS, &t, sizeof t);
}

VCL_BOOL
vmod_std_cache_req_body(VRT_CTX, VCL_BYTES size)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)size;
	VSLb(ctx->vsl, SLT_VCL_Error, "std.cache_req_body() is not "
	    "available yet: request bodies are streamed, not kept");
	return (0);
}

VCL_VOID
vmod_std_rollback(VRT_CTX, VCL_HTTP h)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)h;
	VSLb(ctx->vsl, SLT_VCL_Error, "std.rollback() is not available yet");
}

VCL_VOID
vmod_std_late_100_continue(VRT_CTX, VCL_BOOL late)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)late;
	/* 100 Continue is always sent when the body is first read here. */
}

VCL_VOID
vmod_std_timestamp(VRT_CTX, VCL_STRING s)
{
	struct req *req = ctx->req;

	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	if (s == NULL)
		return;
	if (req != NULL)
		VSLb_ts(ctx->vsl, s, req->t_first, &req->t_prev, TIM_real());
	else
		VSLb(ctx->vsl, SLT_Timestamp, "%s: %.6f", s, TIM_real());
}

static __thread const char *std_ban_err;

VCL_BOOL
vmod_std_ban(VRT_CTX, VCL_STRING spec)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	(void)spec;
	std_ban_err = "bans are not available yet (they arrive with the "
	    "admin CLI)";
	VSLb(ctx->vsl, SLT_VCL_Error, "std.ban(): %s", std_ban_err);
	return (0);
}

VCL_STRING
vmod_std_ban_error(VRT_CTX)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (std_ban_err == NULL ? "" : std_ban_err);
}

VCL_TIME
vmod_std_real2time(VRT_CTX, VCL_REAL r, VCL_TIME fb)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (isfinite(r) ? r : fb);
}

VCL_INT
vmod_std_time2integer(VRT_CTX, VCL_TIME t, VCL_INT fb)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (isfinite(t) && fabs(t) < 9.2e18 ? (VCL_INT)t : fb);
}

VCL_REAL
vmod_std_time2real(VRT_CTX, VCL_TIME t, VCL_REAL fb)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (isfinite(t) ? t : fb);
}

VCL_INT
vmod_std_real2integer(VRT_CTX, VCL_REAL r, VCL_INT fb)
{
	CHECK_OBJ(ctx, VRT_CTX_MAGIC);
	return (isfinite(r) && fabs(r) < 9.2e18 ? (VCL_INT)r : fb);
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

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * backend_dns.c -- backend names that follow DNS.  Makes address lists
 * (DNS_Resolve) and runs the one resolver thread, "cache-dns", which
 * re-resolves the .host names of warm VCLs' backends every
 * backend_dns_ttl; backend.c swaps the new list in.  getaddrinfo(3) does
 * not say how long an answer may be kept, so the parameter alone sets the
 * pace.  Owns no lock: the schedule lives in the backends (be_list_mtx).
 *
 * For tests, VENEER_HOSTS_FILE names a hosts(5)-format file read (again
 * each time) before DNS; a name it lists resolves to its addresses there,
 * in file order.  A name under .invalid never resolves unless that file
 * lists it (RFC 6761: no query goes out), so tests get a name that fails
 * at once on any machine.
 *
 * SRV records (the dynamic director's .service(), vmod_dynamic.c):
 * DNS_ResolveSrv asks res_nquery(3), or first VENEER_SRV_FILE, lines
 * "NAME PRIORITY WEIGHT PORT TARGET", read again each time.
 */

#include "config.h"

#include <arpa/nameser.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "common/miniobj.h"
#include "common/param.h"
#include "cache/backend.h"

/* More addresses than this for one name are ignored. */
#define DNS_MAX_ADDRS		32

struct dns_found {
	unsigned		n;
	struct backend_addr	addr[DNS_MAX_ADDRS];
};

/* Add the addresses of res not already found, in order. */
static void
dns_add(struct dns_found *f, const struct addrinfo *res)
{
	struct backend_addr *a;
	unsigned u;

	for (; res != NULL && f->n < DNS_MAX_ADDRS; res = res->ai_next) {
		if (res->ai_addrlen > sizeof a->sa)
			continue;
		for (u = 0; u < f->n; u++)
			if (f->addr[u].salen == res->ai_addrlen &&
			    !memcmp(&f->addr[u].sa, res->ai_addr,
			    res->ai_addrlen))
				break;
		if (u < f->n)
			continue;
		a = &f->addr[f->n++];
		memset(a, 0, sizeof *a);
		memcpy(&a->sa, res->ai_addr, res->ai_addrlen);
		a->salen = res->ai_addrlen;
		if (getnameinfo(res->ai_addr, res->ai_addrlen, a->ip,
		    sizeof a->ip, NULL, 0, NI_NUMERICHOST) != 0)
			(void)snprintf(a->ip, sizeof a->ip, "?");
	}
}

/* getaddrinfo into f; its error code. */
static int
dns_getaddrinfo(struct dns_found *f, const char *host, const char *port,
    int flags)
{
	struct addrinfo hints, *res;
	int r;

	memset(&hints, 0, sizeof hints);
	hints.ai_flags = AI_NUMERICSERV | flags;
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	r = getaddrinfo(host, port, &hints, &res);
	if (r != 0)
		return (r);
	dns_add(f, res);
	freeaddrinfo(res);
	return (0);
}

/* Does this hosts(5) line (comment cut) list host?  Its address if so. */
static const char *
dns_hosts_line(char *line, const char *host)
{
	char *addr, *name, *save;

	addr = strtok_r(line, " \t\r\n", &save);
	if (addr == NULL)
		return (NULL);
	while ((name = strtok_r(NULL, " \t\r\n", &save)) != NULL)
		if (!strcasecmp(name, host))
			return (addr);
	return (NULL);
}

/* The addresses VENEER_HOSTS_FILE lists for host; -1 if unreadable. */
static int
dns_hosts_file(struct dns_found *f, const char *file, const char *host,
    const char *port)
{
	char line[512], *hash;
	const char *addr;
	FILE *fp;

	fp = fopen(file, "re");
	if (fp == NULL)
		return (-1);
	while (fgets(line, sizeof line, fp) != NULL) {
		if ((hash = strchr(line, '#')) != NULL)
			*hash = '\0';
		addr = dns_hosts_line(line, host);
		if (addr != NULL)
			(void)dns_getaddrinfo(f, addr, port, AI_NUMERICHOST);
	}
	(void)fclose(fp);
	return (0);
}

static int
dns_is_invalid(const char *host)
{
	size_t l = strlen(host);

	if (l > 0 && host[l - 1] == '.')
		l--;
	return ((l == 7 && !strncasecmp(host, "invalid", 7)) ||
	    (l > 8 && !strncasecmp(host + l - 8, ".invalid", 8)));
}

/* Fill f; n stays 0 with why set if host has no address. */
static void
dns_lookup(struct dns_found *f, const char *host, const char *port,
    int *numeric, char *why, size_t whylen)
{
	const char *file;
	int r;

	*numeric = 0;
	if (dns_getaddrinfo(f, host, port, AI_NUMERICHOST) == 0) {
		*numeric = 1;
		return;
	}
	file = getenv("VENEER_HOSTS_FILE");
	if (file != NULL && *file != '\0') {
		if (dns_hosts_file(f, file, host, port) != 0) {
			(void)snprintf(why, whylen, "VENEER_HOSTS_FILE %s "
			    "unreadable: %m", file);
			return;
		}
		if (f->n > 0)
			return;
	}
	if (dns_is_invalid(host)) {
		(void)snprintf(why, whylen, "a name under .invalid, never "
		    "looked up");
		return;
	}
	r = dns_getaddrinfo(f, host, port, 0);
	if (r != 0)
		(void)snprintf(why, whylen, "%s", gai_strerror(r));
	else if (f->n == 0)
		(void)snprintf(why, whylen, "no usable address");
}

struct backend_addrs *
DNS_Resolve(const char *host, const char *port, int *numeric, char *why,
    size_t whylen)
{
	struct backend_addrs *a;
	struct dns_found *f;
	size_t sz;

	assert(host != NULL && port != NULL);
	*why = '\0';
	f = calloc(1, sizeof *f);
	if (f == NULL)
		return (NULL);
	dns_lookup(f, host, port, numeric, why, whylen);
	sz = sizeof *a + f->n * sizeof a->addr[0];
	a = calloc(1, sz);
	if (a != NULL) {
		a->magic = BACKEND_ADDRS_MAGIC;
		a->refs = 1;
		a->n = f->n;
		memcpy(a->addr, f->addr, f->n * sizeof a->addr[0]);
	}
	free(f);
	return (a);
}

/*--------------------------------------------------------------------
 * The thread
 */

static void *
dns_thread(void *arg)
{
	struct backend_addrs *fresh;
	struct backend *be;
	const char *host, *port;
	vtim_real now, next;
	char why[160];
	int numeric;

	(void)arg;
	(void)pthread_setname_np(pthread_self(), "cache-dns");
	for (;;) {
		now = TIM_real();
		be = BACKEND_DnsDue(now, &next, &host, &port);
		if (be == NULL) {
			/*
			 * Polled at least once a second: a VCL going warm or
			 * a shorter backend_dns_ttl needs no wake-up call.
			 */
			TIM_sleep(next - now < 1.0 ? next - now : 1.0);
			continue;
		}
		/* Blocks for as long as the resolver takes; only us. */
		fresh = DNS_Resolve(host, port, &numeric, why, sizeof why);
		BACKEND_DnsDone(be, &fresh, why, cache_param->backend_dns_ttl);
	}
	return (NULL);
}

static void
dns_start_thread(void)
{
	pthread_t thr;

	ASSERT_ZERO(pthread_create(&thr, NULL, dns_thread, NULL));
	ASSERT_ZERO(pthread_detach(thr));
}

void
DNS_Start(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	ASSERT_ZERO(pthread_once(&once, dns_start_thread));
}

/*--------------------------------------------------------------------
 * SRV records
 */

/* RFC 2782's order: priority, then (for a stable listing) weight down. */
static int
dns_srv_cmp(const void *a, const void *b)
{
	const struct dns_srv *x = a, *y = b;

	if (x->priority != y->priority)
		return (x->priority < y->priority ? -1 : 1);
	if (x->weight != y->weight)
		return (x->weight > y->weight ? -1 : 1);
	if (x->port != y->port)
		return (x->port < y->port ? -1 : 1);
	return (strcmp(x->target, y->target));
}

void
DNS_SrvSort(struct dns_srv *srv, unsigned n)
{

	if (n > 1)
		qsort(srv, n, sizeof *srv, dns_srv_cmp);
}

/* A number 0..max from s; -1 if it is not one. */
static long
dns_srv_num(const char *s, long max)
{
	char *end;
	long l;

	if (s == NULL || *s < '0' || *s > '9')
		return (-1);
	l = strtol(s, &end, 10);
	if (*end != '\0' || l > max)
		return (-1);
	return (l);
}

int
DNS_SrvFileLine(char *line, const char *name, struct dns_srv *srv)
{
	char *f[5], *save, *hash;
	long pri, wei, port;
	unsigned u;

	if ((hash = strchr(line, '#')) != NULL)
		*hash = '\0';
	f[0] = strtok_r(line, " \t\r\n", &save);
	if (f[0] == NULL || strcasecmp(f[0], name))
		return (0);
	for (u = 1; u < 5; u++)
		f[u] = strtok_r(NULL, " \t\r\n", &save);
	pri = dns_srv_num(f[1], 65535);
	wei = dns_srv_num(f[2], 65535);
	port = dns_srv_num(f[3], 65535);
	if (pri < 0 || wei < 0 || port <= 0 || f[4] == NULL ||
	    strtok_r(NULL, " \t\r\n", &save) != NULL ||
	    strlen(f[4]) >= sizeof srv->target)
		return (-1);
	srv->priority = (uint16_t)pri;
	srv->weight = (uint16_t)wei;
	srv->port = (uint16_t)port;
	(void)snprintf(srv->target, sizeof srv->target, "%s", f[4]);
	return (1);
}

/* VENEER_SRV_FILE's records for name: how many, -1 if unreadable. */
static int
dns_srv_file(const char *file, const char *name, struct dns_srv *srv,
    unsigned max)
{
	char line[512];
	unsigned n = 0;
	FILE *fp;

	fp = fopen(file, "re");
	if (fp == NULL)
		return (-1);
	while (n < max && fgets(line, sizeof line, fp) != NULL)
		if (DNS_SrvFileLine(line, name, &srv[n]) > 0)
			n++;
	(void)fclose(fp);
	return ((int)n);
}

int
DNS_SrvParseAnswer(const unsigned char *msg, int len, struct dns_srv *srv,
    unsigned max, char *why, size_t whylen)
{
	ns_msg handle;
	ns_rr rr;
	const unsigned char *rd;
	unsigned n = 0;
	int i, count;

	if (len < 0 || ns_initparse(msg, len, &handle) < 0) {
		(void)snprintf(why, whylen, "malformed DNS answer");
		return (-1);
	}
	count = ns_msg_count(handle, ns_s_an);
	for (i = 0; i < count && n < max; i++) {
		if (ns_parserr(&handle, ns_s_an, i, &rr) < 0) {
			(void)snprintf(why, whylen, "malformed DNS record");
			return (-1);
		}
		if (ns_rr_type(rr) != ns_t_srv || ns_rr_class(rr) != ns_c_in)
			continue;	/* a CNAME on the way, say */
		if (ns_rr_rdlen(rr) < 7) {
			(void)snprintf(why, whylen, "SRV record too short");
			return (-1);
		}
		rd = ns_rr_rdata(rr);
		srv[n].priority = ns_get16(rd);
		srv[n].weight = ns_get16(rd + 2);
		srv[n].port = ns_get16(rd + 4);
		if (dn_expand(ns_msg_base(handle), ns_msg_end(handle), rd + 6,
		    srv[n].target, sizeof srv[n].target) < 0) {
			(void)snprintf(why, whylen, "SRV target malformed");
			return (-1);
		}
		/* RFC 2782: "." means the service is not offered here. */
		if (srv[n].port == 0 || !strcmp(srv[n].target, ".") ||
		    srv[n].target[0] == '\0')
			continue;
		n++;
	}
	if (n == 0)
		(void)snprintf(why, whylen, "no SRV record");
	return ((int)n);
}

int
DNS_ResolveSrv(const char *name, struct dns_srv *srv, unsigned max,
    char *why, size_t whylen)
{
	struct __res_state rs;
	unsigned char *ans;
	const char *file;
	int n, len;

	*why = '\0';
	file = getenv("VENEER_SRV_FILE");
	if (file != NULL && *file != '\0') {
		n = dns_srv_file(file, name, srv, max);
		if (n < 0) {
			(void)snprintf(why, whylen, "VENEER_SRV_FILE %s "
			    "unreadable: %m", file);
			return (-1);
		}
		if (n > 0) {
			DNS_SrvSort(srv, (unsigned)n);
			return (n);
		}
	}
	if (dns_is_invalid(name)) {
		(void)snprintf(why, whylen, "a name under .invalid, never "
		    "looked up");
		return (-1);
	}
	ans = malloc(NS_MAXMSG);
	if (ans == NULL) {
		(void)snprintf(why, whylen, "out of memory");
		return (-1);
	}
	memset(&rs, 0, sizeof rs);
	if (res_ninit(&rs) != 0) {
		(void)snprintf(why, whylen, "res_ninit failed");
		free(ans);
		return (-1);
	}
	len = res_nquery(&rs, name, ns_c_in, ns_t_srv, ans, NS_MAXMSG);
	if (len < 0) {
		(void)snprintf(why, whylen, "%s", hstrerror(rs.res_h_errno));
		n = -1;
	} else
		n = DNS_SrvParseAnswer(ans, len, srv, max, why, whylen);
	res_nclose(&rs);
	free(ans);
	if (n > 0)
		DNS_SrvSort(srv, (unsigned)n);
	return (n > 0 ? n : -1);
}

unsigned
DNS_SrvPick(const unsigned *weight, unsigned n, uint32_t r)
{
	uint64_t total = 0, at;
	unsigned u;

	assert(n > 0);
	for (u = 0; u < n; u++)
		total += weight[u];
	if (total == 0)
		return ((unsigned)(((uint64_t)r * n) >> 32));
	/* r scaled to 0..total-1: each weight's share, none for 0. */
	at = ((uint64_t)r * total) >> 32;
	for (u = 0; u < n; u++) {
		if (at < weight[u])
			return (u);
		at -= weight[u];
	}
	WRONG("DNS_SrvPick: past the total weight");
}

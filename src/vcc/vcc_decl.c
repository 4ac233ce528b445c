/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcc_decl.c -- the VCL compiler's declarations: backends (.host emitted
 * as a name, resolved when the VCL loads), probes with their defaults and
 * checks, and ACLs (numeric entries checked now; a name must resolve
 * now too, as in Varnish, and is resolved again when the VCL loads).
 * Each emits its static data and its LOAD and DISCARD steps.
 */

#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "common/addr.h"
#include "vcc/vcc_comp.h"
#include "vrt.h"

/* Declarations ----------------------------------------------------------*/

struct vsym *
sym_add(struct vcc *tl, struct vsym **list, unsigned *n,
    const struct token *t, const char *kind)
{
	struct vsym *s;

	s = sym_find_t(*list, t);
	if (s != NULL)
		vcc_error(tl, t, "%s%c%s '%s' redefined: %s %s is declared "
		    "twice (first at %s:%u)",
		    !strcmp(kind, "backend") && vcc_is(t, "default") ?
		    "Only one default director possible. " : "",
		    toupper((unsigned char)kind[0]),
		    kind + 1, tk_str(tl, t), kind, tk_str(tl, t),
		    s->t->src->name, s->t->line);
	s = vcc_alloc(tl, sizeof *s);
	s->name = tk_str(tl, t);
	s->t = t;
	s->idx = (*n)++;
	s->builtin = t->src->builtin;
	s->next = *list;
	*list = s;
	return (s);
}

/* A field value: `.name = value;` with value's token checked by kind. */
static const struct token *
field_value(struct vcc *tl, const char *field, enum tok want)
{
	const struct token *t;

	tk_expect(tl, "=");
	t = tk(tl);
	if (want != T_EOF && t->tok != want)
		vcc_error(tl, t, ".%s takes %s, found '%s'", field,
		    want == T_STR ? "a string" : "a number", tk_desc(tl, t));
	return (t);
}

static double
field_duration(struct vcc *tl, const char *field)
{
	struct expr *e;

	(void)field_value(tl, field, T_EOF);
	if (tk(tl)->tok == T_STR)
		vcc_error(tl, tk(tl), "Expected CNUM got '%.*s': .%s takes a "
		    "duration, like 2s", (int)(tk(tl)->e - tk(tl)->b),
		    tk(tl)->b, field);
	e = parse_prim(tl);
	if (e->t != V_DURATION)
		(void)e_convert(tl, e, V_DURATION, cat3(tl, ".", field, ""));
	tk_expect(tl, ";");
	return (strtod(e->c + strlen("((VCL_DURATION)"), NULL));
}

static unsigned
field_uint(struct vcc *tl, const char *field, unsigned max)
{
	const struct token *t = field_value(tl, field, T_NUM);

	if (t->is_real || t->num > max)
		vcc_error(tl, t, ".%s takes a whole number up to %u", field,
		    max);
	tl->pos++;
	tk_expect(tl, ";");
	return ((unsigned)t->num);
}

/* .window and .threshold, checked as Varnish checks them. */
static void
probe_window(struct vcc *tl, const struct token *t_window, unsigned *window,
    const struct token *t_threshold, unsigned threshold)
{

	if (t_window != NULL && t_threshold == NULL)
		vcc_error(tl, t_window, "Must specify .threshold with .window: "
		    "how many of the last .window probes must succeed");
	if (t_window != NULL && *window > 64)
		vcc_error(tl, t_window, "Window must be 64 or less.");
	if (t_threshold != NULL && threshold > 64)
		vcc_error(tl, t_threshold, "Threshold must be 64 or less.");
	/* A .threshold alone brings the .window just above it. */
	if (t_threshold != NULL && t_window == NULL)
		*window = threshold < 64 ? threshold + 1 : 64;
	if (threshold > *window)
		vcc_error(tl, t_threshold != NULL ? t_threshold : t_window,
		    "Threshold can not be greater than window: probe "
		    ".threshold (%u) is more than .window (%u)", threshold,
		    *window);
}

const char *
parse_probe_body(struct vcc *tl, const char *cname, const char *vname)
{
	const struct token *t, *ft;
	const char *url = NULL, *req = NULL;
	double timeout = 2, interval = 5;
	unsigned window = 8, threshold = 3, initial = ~0U, exp = 200;
	unsigned seen = 0;
	const struct token *t_window = NULL, *t_threshold = NULL;
	struct vbuf vb = { NULL, 0, 0 };

	tk_expect(tl, "{");
	while (!vcc_is(tk(tl), "}")) {
		tk_expect(tl, ".");
		ft = tk_expect_id(tl, "a probe field");
		if ((vcc_is(ft, "url") && req != NULL) ||
		    (vcc_is(ft, "request") && url != NULL))
			vcc_error(tl, ft, "Probe request redefinition at: "
			    "here; a probe has .url or .request, not both");
		if (vcc_is(ft, "url")) {
			t = field_value(tl, "url", T_STR);
			url = parse_lit(tl, &t);
			tk_expect(tl, ";");
		} else if (vcc_is(ft, "request")) {
			(void)field_value(tl, "request", T_STR);
			while (tk(tl)->tok == T_STR) {
				vbuf_cat(tl, &vb, tk_next(tl)->dec);
				vbuf_cat(tl, &vb, "\r\n");
			}
			vbuf_cat(tl, &vb, "\r\n");
			req = vcc_strdup(tl, vb.s);
			tk_expect(tl, ";");
		} else if (vcc_is(ft, "timeout"))
			timeout = field_duration(tl, "timeout");
		else if (vcc_is(ft, "interval"))
			interval = field_duration(tl, "interval");
		else if (vcc_is(ft, "window")) {
			t_window = tk_peek(tl, 1);
			window = field_uint(tl, "window", ~0U);
		} else if (vcc_is(ft, "threshold")) {
			t_threshold = tk_peek(tl, 1);
			threshold = field_uint(tl, "threshold", ~0U);
		}
		else if (vcc_is(ft, "initial"))
			initial = field_uint(tl, "initial", 64);
		else if (vcc_is(ft, "expected_response")) {
			t = tk_peek(tl, 1);
			exp = field_uint(tl, "expected_response", ~0U);
			if (exp < 100 || exp > 999)
				vcc_error(tl, t, "Must specify "
				    ".expected_response with exactly three "
				    "digits (100 <= x <= 999): it is the "
				    "status a healthy backend answers");
		}
		else
			vcc_error(tl, ft, "unknown probe field .%s; a probe "
			    "has .url .request .timeout .interval .window "
			    ".threshold .initial .expected_response",
			    tk_str(tl, ft));
		seen++;
	}
	t = tk(tl);
	tl->pos++;
	probe_window(tl, t_window, &window, t_threshold, threshold);
	if (initial == ~0U)
		initial = threshold > 0 ? threshold - 1 : 0;
	if (initial > threshold)
		vcc_error(tl, t, "probe .initial (%u) is more than "
		    ".threshold (%u)", initial, threshold);
	if (url == NULL && req == NULL)
		url = "/";
	(void)seen;
	vbuf_printf(tl, &P(tl)->decl, "static const struct vrt_backend_probe "
	    "%s = {\n\t.magic = VRT_BACKEND_PROBE_MAGIC,\n"
	    "\t.vcl_name = %s,\n\t.url = %s,\n\t.request = %s,\n"
	    "\t.timeout = %.17g,\n\t.interval = %.17g,\n"
	    "\t.exp_status = %u,\n\t.window = %u,\n\t.threshold = %u,\n"
	    "\t.initial = %u,\n};\n", cname,
	    vname != NULL ? vcc_cstr(tl, vname) : "NULL",
	    url != NULL ? vcc_cstr(tl, url) : "NULL",
	    req != NULL ? vcc_cstr(tl, req) : "NULL",
	    timeout, interval, exp, window, threshold, initial);
	return (cname);
}

/*
 * .path: absolute, and a socket if it exists already (one that does not
 * may yet be made before the VCL is used, as in Varnish).
 */
static void
backend_path(struct vcc *tl, const struct token *nt, const char *name,
    const char *path)
{
	struct stat st;

	if (path[0] != '/')
		vcc_error(tl, nt, "Must be an absolute path: backend %s's "
		    ".path is %s", name, path);
	if (stat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			vcc_error(tl, nt, "Not a socket: backend %s's .path "
			    "%s is there but is no Unix socket", name, path);
	} else if (errno == ENOENT || errno == EACCES)
		vcc_warn(tl, nt, "Cannot stat: %s: backend %s's .path %s; "
		    "connections fail until it is a socket", strerror(errno),
		    name, path);
	else
		vcc_error(tl, nt, "Cannot stat: %s: backend %s's .path %s",
		    strerror(errno), name, path);
}

void
parse_backend(struct vcc *tl)
{
	const struct token *nt, *ft, *t;
	struct vsym *s, *ps;
	const char *host = NULL, *port = NULL, *path = NULL, *hh = NULL;
	const char *probe = "NULL";
	double ct = -1, fbt = -1, bbt = -1;
	unsigned maxc = 0, proxy = 0;
	char buf[64], hostport[600];
	const struct token *seen[16];
	unsigned nseen = 0, u;

	nt = tk_expect_id(tl, "the backend's name");
	s = sym_find_t(P(tl)->backends, nt);
	/* The one named default, else the first, as in Varnish. */
	if (P(tl)->default_be == NULL || !strcmp(s->name, "default"))
		P(tl)->default_be = s;
	vbuf_printf(tl, &P(tl)->decl, "static VCL_BACKEND vgc_be_%u;\n",
	    s->idx);
	/* "none", and "None" as varnishtest writes it. */
	if (tk(tl)->tok == T_ID && vcc_idlen(tk(tl)) == 4 &&
	    !strncasecmp(tk(tl)->b, "none", 4)) {
		tl->pos++;
		tk_expect(tl, ";");
		s->none = 1;
		return;
	}
	tk_expect(tl, "{");
	while (!vcc_is(tk(tl), "}")) {
		if (vcc_is(tk(tl), "set"))
			vcc_error(tl, tk(tl), "NB: Backend Syntax has changed: "
			    "remove \"set\" in front of backend fields "
			    "(.host = \"...\";)");
		tk_expect(tl, ".");
		ft = tk_expect_id(tl, "a backend field");
		/* A field given twice is a mistake either way. */
		for (u = 0; u < nseen; u++)
			if (vcc_idlen(seen[u]) == vcc_idlen(ft) &&
			    !strncmp(seen[u]->b, ft->b, vcc_idlen(ft)))
				vcc_error(tl, ft, "Field '%s' redefined at: "
				    "here; backend %s has .%s twice",
				    tk_str(tl, ft), s->name, tk_str(tl, ft));
		if (nseen < 16)
			seen[nseen++] = ft;
		if (vcc_is(ft, "host") || vcc_is(ft, "host_header") ||
		    vcc_is(ft, "path")) {
			t = field_value(tl, tk_str(tl, ft), T_STR);
			tl->pos++;
			if (vcc_is(ft, "host"))
				host = t->dec;
			else if (vcc_is(ft, "path"))
				path = t->dec;
			else
				hh = t->dec;
			if (*t->dec == '\0')
				vcc_error(tl, t, ".%s is empty",
				    tk_str(tl, ft));
			tk_expect(tl, ";");
		} else if (vcc_is(ft, "port")) {
			t = field_value(tl, "port", T_EOF);
			tl->pos++;
			if (t->tok == T_STR)
				port = t->dec;
			else if (t->tok == T_NUM && !t->is_real)
				port = tk_str(tl, t);
			else
				vcc_error(tl, t, ".port takes a port number "
				    "or service name");
			tk_expect(tl, ";");
		} else if (vcc_is(ft, "connect_timeout"))
			ct = field_duration(tl, "connect_timeout");
		else if (vcc_is(ft, "first_byte_timeout"))
			fbt = field_duration(tl, "first_byte_timeout");
		else if (vcc_is(ft, "between_bytes_timeout"))
			bbt = field_duration(tl, "between_bytes_timeout");
		else if (vcc_is(ft, "max_connections"))
			maxc = field_uint(tl, "max_connections", 1000000);
		else if (vcc_is(ft, "proxy_header")) {
			t = tk_peek(tl, 1);
			proxy = field_uint(tl, "proxy_header", 2);
			if (proxy != 1 && proxy != 2)
				vcc_error(tl, t, ".proxy_header is 1 or 2");
		} else if (vcc_is(ft, "probe")) {
			tk_expect(tl, "=");
			if (vcc_is(tk(tl), "{")) {
				(void)snprintf(buf, sizeof buf,
				    "vgc_probe_anon_%u", P(tl)->nanon++);
				probe = cat3(tl, "&", parse_probe_body(tl,
				    vcc_strdup(tl, buf), NULL), "");
				/* .probe = { } with or without ;. */
				if (vcc_is(tk(tl), ";"))
					tl->pos++;
			} else {
				t = tk(tl);
				if (t->tok != T_ID)
					vcc_error(tl, t, "Expected '{' or name "
					    "of probe, got '%s'",
					    tk_desc(tl, t));
				tl->pos++;
				ps = sym_find_t(P(tl)->probes, t);
				if (ps == NULL && vcc_is(t, "default"))
					vcc_error(tl, t, "No default probe "
					    "defined: declare `probe default "
					    "{ ... }` or name another");
				if (ps == NULL)
					vcc_error(tl, t, "no probe named %s",
					    tk_str(tl, t));
				ps->used = 1;
				/* The probe may be defined further down. */
				vbuf_printf(tl, &P(tl)->decl, "static const "
				    "struct vrt_backend_probe vgc_probe_%u;\n",
				    ps->idx);
				(void)snprintf(buf, sizeof buf,
				    "&vgc_probe_%u", ps->idx);
				probe = vcc_strdup(tl, buf);
				tk_expect(tl, ";");
			}
		} else
			vcc_error(tl, ft, "Unknown field: '.%s'; a "
			    "backend has .host .port .path "
			    ".connect_timeout .first_byte_timeout "
			    ".between_bytes_timeout .max_connections "
			    ".host_header .proxy_header .probe",
			    tk_str(tl, ft));
	}
	t = tk(tl);
	tl->pos++;
	/* A probe named default is every backend's that names none. */
	if (!strcmp(probe, "NULL") &&
	    (ps = sym_find(P(tl)->probes, "default", 7)) != NULL) {
		ps->used = 1;
		vbuf_printf(tl, &P(tl)->decl, "static const struct "
		    "vrt_backend_probe vgc_probe_%u;\n", ps->idx);
		(void)snprintf(buf, sizeof buf, "&vgc_probe_%u", ps->idx);
		probe = vcc_strdup(tl, buf);
	}
	if (host == NULL && path == NULL)
		vcc_error(tl, nt, "Expected .host or .path. backend %s needs "
		    ".host (or .path for a Unix socket)", s->name);
	if (host != NULL && path != NULL)
		vcc_error(tl, nt, "Address redefinition at: backend %s has "
		    "both .host and .path; give one", s->name);
	if (path != NULL)
		backend_path(tl, nt, s->name, path);
	if (host != NULL && host[0] == '[' && strchr(host, ']') == NULL)
		vcc_error(tl, nt, "IPv6 address lacks ']': backend %s's .host "
		    "is %s; write [address]:port", s->name, host);
	if (host != NULL && host[0] == '[' && strchr(host, ']')[1] != '\0' &&
	    strchr(host, ']')[1] != ':')
		vcc_error(tl, nt, "IPv6 address has wrong port separator: "
		    "backend %s's .host is %s; write [address]:port", s->name,
		    host);
	/* "host:port" or "[v6]:port" in .host, as varnishd takes it. */
	if (host != NULL && (host[0] == '[' || (strchr(host, ':') != NULL &&
	    strchr(host, ':') == strrchr(host, ':')))) {
		char h[256], p[64];
		const char *why;

		if (ADDR_Split(host, 0, h, sizeof h, p, sizeof p, &why) != 0) {
			vcc_error(tl, nt, "backend %s: .host %s: %s", s->name,
			    host, why);
		} else {
			if (p[0] != '\0' && port != NULL)
				vcc_error(tl, nt, "backend %s: a port in .host "
				    "and .port too; give one", s->name);
			else if (p[0] != '\0')
				port = vcc_strdup(tl, p);
			host = vcc_strdup(tl, h);
		}
	}
	if (port == NULL)
		port = "80";
	if (hh == NULL && host != NULL) {
		(void)snprintf(hostport, sizeof hostport, "%s%s%s%s%s",
		    strchr(host, ':') != NULL ? "[" : "", host,
		    strchr(host, ':') != NULL ? "]" : "",
		    strcmp(port, "80") ? ":" : "",
		    strcmp(port, "80") ? port : "");
		hh = hostport;
	}
	/* HTTP/1.1 needs a Host; a socket path is none (varnishd's too). */
	if (hh == NULL && path != NULL)
		hh = "0.0.0.0";
	vbuf_printf(tl, &P(tl)->decl, "static const struct vrt_endpoint "
	    "vgc_ep_%u = {\n\t.magic = VRT_ENDPOINT_MAGIC,\n\t.host = %s,\n"
	    "\t.port = %s,\n\t.path = %s,\n};\n", s->idx,
	    host != NULL ? vcc_cstr(tl, host) : "NULL", vcc_cstr(tl, port),
	    path != NULL ? vcc_cstr(tl, path) : "NULL");
	vbuf_printf(tl, &P(tl)->decl, "static const struct vrt_backend "
	    "vgc_bedef_%u = {\n\t.magic = VRT_BACKEND_MAGIC,\n"
	    "\t.vcl_name = %s,\n\t.endpoint = &vgc_ep_%u,\n"
	    "\t.hosthdr = %s,\n\t.connect_timeout = %.17g,\n"
	    "\t.first_byte_timeout = %.17g,\n"
	    "\t.between_bytes_timeout = %.17g,\n"
	    "\t.max_connections = %u,\n\t.proxy_header = %u,\n"
	    "\t.probe = %s,\n};\n", s->idx, vcc_cstr(tl, s->name), s->idx,
	    hh != NULL ? vcc_cstr(tl, hh) : "NULL", ct, fbt, bbt, maxc,
	    proxy, probe);
	vbuf_printf(tl, &P(tl)->load, "\t\tvgc_be_%u = VRT_new_backend(ctx, "
	    "&vgc_bedef_%u);\n\t\tif (vgc_be_%u == NULL)\n"
	    "\t\t\treturn (-1);\n", s->idx, s->idx, s->idx);
	vbuf_printf(tl, &P(tl)->discard,
	    "\t\tVRT_delete_backend(ctx, &vgc_be_%u);\n", s->idx);
	(void)t;
}

/* A numeric ACL entry, to find two that say opposite things. */
struct acl_num {
	int			fam;
	unsigned char		addr[16];
	long			bits;
	unsigned		neg;
	const struct token	*t;
	struct acl_num		*next;
};

/* +log -pedantic...: the sign and the word, with nothing between. */
static void
acl_flags(struct vcc *tl)
{
	const struct token *sign, *t;

	while (vcc_is(tk(tl), "+") || vcc_is(tk(tl), "-")) {
		sign = tk_next(tl);
		t = tk(tl);
		if (t->tok != T_ID || t->b != sign->e)
			vcc_error(tl, t, "Expected a flag at: the caret; write "
			    "it next to its sign (+log, -pedantic, +table)");
		if (!vcc_is(t, "log") && !vcc_is(t, "pedantic") &&
		    !vcc_is(t, "table"))
			vcc_error(tl, t, "Unknown ACL flag: %s (the flags are "
			    "log, pedantic and table)", tk_str(tl, t));
		tl->pos++;
	}
}

/*
 * A numeric entry's address as written (bits past the mask kept: two
 * entries conflict only when they are written alike), or -1 when the
 * entry is a name (to be resolved at load).  Digits and dots are read
 * as inet_aton(3) and getaddrinfo(3) read them ("10.1.2" is 10.1.0.2).
 */
static int
acl_numeric(struct vcc *tl, const struct token *at, const char *a, long mask,
    struct acl_num *n)
{
	struct in_addr in;

	memset(n, 0, sizeof *n);
	if (strspn(a, "0123456789.") == strlen(a)) {
		if (inet_aton(a, &in) == 0)
			vcc_error(tl, at, "DNS lookup(%s): \"%s\" is not an "
			    "IPv4 address", a, a);
		n->fam = AF_INET;
		memcpy(n->addr, &in, sizeof in);
	} else if (strchr(a, ':') != NULL) {
		if (inet_pton(AF_INET6, a, n->addr) != 1)
			vcc_error(tl, at, "DNS lookup(%s): \"%s\" is not an "
			    "IPv6 address", a, a);
		n->fam = AF_INET6;
	} else
		return (-1);
	n->bits = mask < 0 ? (n->fam == AF_INET ? 32 : 128) : mask;
	return (0);
}

/* A name in an ACL resolves now, or the VCL fails as Varnish's does. */
static void
acl_lookup(struct vcc *tl, const struct token *at, const char *a)
{
	struct addrinfo hints, *res;
	int r;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	r = getaddrinfo(a, NULL, &hints, &res);
	if (r != 0)
		vcc_error(tl, at, "DNS lookup(%s): %s; put the entry in ( ) "
		    "if it may be left out", a, gai_strerror(r));
	freeaddrinfo(res);
}

void
parse_acl(struct vcc *tl)
{
	const struct token *nt, *t, *at, *mt;
	struct vsym *s;
	struct vbuf vb = { NULL, 0, 0 };
	struct acl_num num, *nums = NULL, *o;
	unsigned n = 0, neg, opt;
	long mask;
	char *a, *sl, *e;

	nt = tk_expect_id(tl, "the acl's name");
	s = sym_find_t(P(tl)->acls, nt);
	/*
	 * Varnish's flags: +log -log +pedantic -pedantic +table -table.
	 * Read and checked; matches are always logged here, and an entry
	 * is taken as written.
	 */
	acl_flags(tl);
	tk_expect(tl, "{");
	while (!vcc_is(tk(tl), "}")) {
		neg = opt = 0;
		mask = -1;
		/* !"a", ("a"), !("a") and (!"a"), as Varnish reads them. */
		if (vcc_is(tk(tl), "!")) {
			neg = 1;
			tl->pos++;
		}
		if (vcc_is(tk(tl), "(")) {
			opt = 1;
			tl->pos++;
		}
		if (!neg && vcc_is(tk(tl), "!")) {
			neg = 1;
			tl->pos++;
		}
		at = tk(tl);
		if (at->tok != T_STR)
			vcc_error(tl, at, "expected an address in quotes, "
			    "found '%s'", tk_desc(tl, at));
		tl->pos++;
		mt = at;
		a = vcc_strdup(tl, at->dec);
		/* "10.0.0.0/8": the mask inside the string. */
		if ((sl = strchr(a, '/')) != NULL) {
			*sl++ = '\0';
			mask = strtol(sl, &e, 10);
			if (*sl == '\0' || *e != '\0' || mask < 0)
				vcc_error(tl, at, ".../mask is not numeric. "
				    "\"%s\" needs a prefix length after '/'",
				    at->dec);
			if (vcc_is(tk(tl), "/"))
				vcc_error(tl, tk(tl), "/mask only allowed "
				    "once. \"%s\" has one already", at->dec);
		} else if (vcc_is(tk(tl), "/")) {
			tl->pos++;
			t = tk(tl);
			if (t->tok != T_NUM || t->is_real)
				vcc_error(tl, t, "expected a prefix length "
				    "after '/'");
			tl->pos++;
			mask = (long)t->num;
			mt = t;
		}
		if (opt)
			tk_expect(tl, ")");
		if (acl_numeric(tl, at, a, mask, &num) == 0) {
			if (mask > (num.fam == AF_INET ? 32 : 128))
				vcc_error(tl, mt, "Too wide mask (/%ld) for "
				    "%s address: it has %s bits", mask,
				    num.fam == AF_INET ? "IPv4" : "IPv6",
				    num.fam == AF_INET ? "32" : "128");
			num.neg = neg;
			num.t = at;
			for (o = nums; o != NULL; o = o->next)
				if (o->fam == num.fam && o->bits == num.bits &&
				    !memcmp(o->addr, num.addr, 16) &&
				    o->neg != num.neg)
					vcc_error(tl, at, "Conflicting ACL "
					    "entries: this one vs line %u's; "
					    "one of them must go", o->t->line);
			o = vcc_alloc(tl, sizeof *o);
			*o = num;
			o->next = nums;
			nums = o;
		} else if (!opt)
			acl_lookup(tl, at, a);
		tk_expect(tl, ";");
		vbuf_printf(tl, &vb, "\t{ %u, %u, %s, %ld, %s },\n",
		    neg, opt, vcc_cstr(tl, a), mask, vcc_where(tl, at));
		n++;
	}
	tl->pos++;
	vbuf_printf(tl, &P(tl)->decl, "static VCL_ACL vgc_acl_%u;\n",
	    s->idx);
	vbuf_printf(tl, &P(tl)->decl, "static const struct vrt_acl_entry "
	    "vgc_acle_%u[] = {\n%s\t{ 0, 0, NULL, 0, NULL }\n};\n"
	    "static const struct vrt_acl_spec vgc_acls_%u = { %s, %u, "
	    "vgc_acle_%u };\n", s->idx, vb.s != NULL ? vb.s : "", s->idx,
	    vcc_cstr(tl, s->name), n, s->idx);
	vbuf_printf(tl, &P(tl)->load, "\t\tif (VRT_acl_init(ctx, "
	    "&vgc_acl_%u, &vgc_acls_%u))\n\t\t\treturn (-1);\n", s->idx,
	    s->idx);
	vbuf_printf(tl, &P(tl)->discard, "\t\tVRT_acl_fini(&vgc_acl_%u);\n",
	    s->idx);
}


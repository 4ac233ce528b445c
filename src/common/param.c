/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * param.c -- the parameter table at run time: defaults, parsing with units
 * and range checks, display.  Owns the shared mapping of struct params.
 * Only the manager writes (single-threaded); the child reads.
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "common/num.h"
#include "common/param.h"
/* The header tables' size is the cache's to say; see HTTP_Estimate. */
#include "cache/http.h"

static struct params *param_rw;
const struct params *cache_param;

static const struct param_desc param_table[] = {
#define PARAM(nm, ty, un, de, mi, ma, fl, doc)				\
	{ #nm, PARAM_##ty, un, de, mi, ma, fl, doc,			\
	    offsetof(struct params, nm) },
#include "params.h"
};

#define PARAM_N		(sizeof param_table / sizeof param_table[0])

static const struct param_bit param_debug_bits[] = {
#define PARAM_DEBUG_BIT(U, l, d)	{ #l, d },
#include "param_bits.h"
};
static const struct param_bit param_feature_bits[] = {
#define PARAM_FEATURE_BIT(U, l, d)	{ #l, d },
#include "param_bits.h"
};
static const struct param_bit param_experimental_bits[] = {
#define PARAM_EXPERIMENTAL_BIT(U, l, d)	{ #l, d },
#include "param_bits.h"
};

/* Each set lives in one uint64_t. */
_Static_assert(PARAM_DEBUG__MAX <= 64, "too many debug bits");
_Static_assert(PARAM_FEATURE__MAX <= 64, "too many feature bits");
_Static_assert(PARAM_EXPERIMENTAL__MAX <= 64, "too many experimental bits");

static const struct {
	const char		*param;
	const struct param_bit	*bits;
	unsigned		n;
} param_bitsets[] = {
	{ "debug", param_debug_bits, PARAM_DEBUG__MAX },
	{ "feature", param_feature_bits, PARAM_FEATURE__MAX },
	{ "experimental", param_experimental_bits, PARAM_EXPERIMENTAL__MAX },
};

const struct param_desc *
PARAM_Table(unsigned *n)
{

	*n = PARAM_N;
	return (param_table);
}

const struct param_desc *
PARAM_Lookup(const char *name)
{
	unsigned u;

	for (u = 0; u < PARAM_N; u++)
		if (!strcmp(param_table[u].name, name))
			return (&param_table[u]);
	return (NULL);
}

const struct param_bit *
PARAM_Bits(const struct param_desc *pd, unsigned *n)
{
	unsigned u;

	assert(pd != NULL);
	if (pd->type != PARAM_BITS)
		return (NULL);
	for (u = 0; u < sizeof param_bitsets / sizeof param_bitsets[0]; u++) {
		if (strcmp(param_bitsets[u].param, pd->name))
			continue;
		*n = param_bitsets[u].n;
		return (param_bitsets[u].bits);
	}
	WRONG("a PARAM_BITS parameter without a bit table");
}

/* A plain decimal number: no unit, no hex, no inf or nan. */
static const char *
param_parse_double(const char *s, double *out)
{
	char *end;
	double d;

	if (s == NULL || s[strspn(s, " \t")] == '\0')
		return ("missing value");
	if (strspn(s, "0123456789.eE+- \t") != strlen(s))
		return ("not a number");
	errno = 0;
	d = strtod(s, &end);
	while (isblank((unsigned char)*end))
		end++;
	if (end == s || *end != '\0' || errno != 0 || !isfinite(d))
		return ("not a number");
	*out = d;
	return (NULL);
}

/*
 * Varnish's pool_* syntax: min_pool,max_pool,max_age; two counts, the
 * first not above the second, and seconds up to 1000000.
 */
static const char *
param_check_pool(const char *s)
{
	static const char three[] =
	    "three fields needed: min_pool,max_pool,max_age";
	char f[3][32];
	unsigned lo, hi, u;
	double age;
	size_t l;

	for (u = 0; u < 3; u++) {
		s += strspn(s, ", \t");
		l = strcspn(s, ", \t");
		if (l == 0 || l >= sizeof f[u])
			return (three);
		(void)snprintf(f[u], sizeof f[u], "%.*s", (int)l, s);
		s += l;
	}
	if (s[strspn(s, ", \t")] != '\0')
		return (three);
	if (NUM_ParseUint(f[0], &lo) != NULL ||
	    NUM_ParseUint(f[1], &hi) != NULL)
		return ("min_pool and max_pool are whole numbers");
	if (lo > hi)
		return ("min_pool is above max_pool");
	if (NUM_ParseDuration(f[2], &age) != NULL || age > 1e6)
		return ("max_age is seconds, 0 to 1000000");
	return (NULL);
}

/*
 * Parse text for a parameter's type into a double for range checks and
 * store it in *dst.  Returns NULL or what is wrong.
 */
static const char *
param_parse(const struct param_desc *pd, const char *s, void *dst, double *dv)
{
	const char *err;
	double d;
	uint64_t b;
	unsigned u;

	switch (pd->type) {
	case PARAM_TIMEOUT:
		err = NUM_ParseDuration(s, &d);
		if (err == NULL && dst != NULL)
			*(double *)dst = d;
		*dv = d;
		return (err);
	case PARAM_BYTES:
		err = NUM_ParseBytes(s, &b);
		if (err == NULL && dst != NULL)
			*(uint64_t *)dst = b;
		*dv = (double)b;
		return (err);
	case PARAM_UINT:
		/* No maximum: "unlimited" says so, as varnishd takes it. */
		if (pd->max == NULL && !strcmp(s, "unlimited")) {
			u = UINT_MAX;
			err = NULL;
		} else {
			err = NUM_ParseUint(s, &u);
		}
		if (err == NULL && dst != NULL)
			*(unsigned *)dst = u;
		*dv = u;
		return (err);
	case PARAM_BOOL:
		err = NUM_ParseBool(s, &u);
		if (err == NULL && dst != NULL)
			*(unsigned *)dst = u;
		*dv = u;
		return (err);
	case PARAM_STRING:
		*dv = (double)strlen(s);
		if (strlen(s) >= PARAM_STRING_MAX)
			return ("too long");
		if (pd->flags & PARAM_F_POOL)
			return (param_check_pool(s));
		return (NULL);
	case PARAM_DOUBLE:
		d = 0;
		err = param_parse_double(s, &d);
		if (err == NULL && dst != NULL)
			*(double *)dst = d;
		*dv = d;
		return (err);
	default:
		WRONG("param type");
	}
}

/* "the bits are a, b, c" into err after what, for an unknown name. */
static void
param_bits_unknown(const struct param_desc *pd, const char *name, char *err,
    size_t errlen)
{
	const struct param_bit *tab;
	unsigned n, u;
	size_t pos;
	int i;

	if (err == NULL || errlen == 0)
		return;
	tab = PARAM_Bits(pd, &n);
	i = snprintf(err, errlen, "%s: no bit \"%s\"; the %s bits are ",
	    pd->name, name, pd->name);
	for (u = 0; u < n && i > 0 && (size_t)i < errlen; u++) {
		pos = (size_t)i;
		i = snprintf(err + pos, errlen - pos, "%s%s", u > 0 ? ", " : "",
		    tab[u].name);
		if (i >= 0)
			i += (int)pos;
	}
}

/*
 * Apply "+a,-b,none,default" to *bits (commas or blanks between items;
 * names in any case, as varnishd takes them).  On error *bits is as it
 * was, and err says why.
 */
static int
param_bits_apply(const struct param_desc *pd, const char *spec,
    uint64_t *bits, char *err, size_t errlen)
{
	const struct param_bit *tab;
	char item[64];
	const char *p;
	uint64_t v = *bits;
	unsigned n, u;
	size_t l;

	tab = PARAM_Bits(pd, &n);
	assert(tab != NULL);
	for (p = spec; *p != '\0'; p += l) {
		p += strspn(p, ", \t");
		l = strcspn(p, ", \t");
		if (l == 0)
			continue;
		(void)snprintf(item, sizeof item, "%.*s", (int)l, p);
		if (!strcmp(item, "none")) {
			v = 0;
			continue;
		}
		if (!strcmp(item, "default")) {
			v = 0;
			/* The defaults are written with +name only. */
			ASSERT_ZERO(param_bits_apply(pd, pd->def, &v, NULL, 0));
			continue;
		}
		if (*item != '+' && *item != '-') {
			if (err != NULL)
				(void)snprintf(err, errlen, "%s: \"%s\": put + "
				    "(set) or - (clear) before each bit name, "
				    "or give none", pd->name, item);
			return (-1);
		}
		for (u = 0; u < n; u++)
			if (!strcasecmp(item + 1, tab[u].name))
				break;
		if (u == n || l >= sizeof item) {
			param_bits_unknown(pd, item + 1, err, errlen);
			return (-1);
		}
		if (*item == '+')
			v |= (uint64_t)1 << u;
		else
			v &= ~((uint64_t)1 << u);
	}
	*bits = v;
	return (0);
}

/*
 * Set one value from text.  whole: a PARAM_BITS value is the whole set,
 * not a change to the current one (a reset, a restore).
 */
static int
param_set(struct params *pp, const struct param_desc *pd, const char *value,
    int whole, char *err, size_t errlen)
{
	union { double d; uint64_t b; unsigned u; } tmp;
	uint64_t *bits;
	const char *e;
	double v, lim;

	if (pd->type == PARAM_BITS) {
		bits = (uint64_t *)(void *)((char *)pp + pd->offset);
		tmp.b = whole ? 0 : *bits;
		if (param_bits_apply(pd, value, &tmp.b, err, errlen) != 0)
			return (-1);
		*bits = tmp.b;
		return (0);
	}
	e = param_parse(pd, value, &tmp, &v);
	if (e != NULL) {
		(void)snprintf(err, errlen, "%s: \"%s\": %s", pd->name,
		    value, e);
		return (-1);
	}
	if (pd->min != NULL) {
		ASSERT_ZERO(param_parse(pd, pd->min, NULL, &lim));
		if (v < lim) {
			(void)snprintf(err, errlen,
			    "%s: %s is below the minimum (%s)",
			    pd->name, value, pd->min);
			return (-1);
		}
	}
	if (pd->max != NULL) {
		ASSERT_ZERO(param_parse(pd, pd->max, NULL, &lim));
		if (v > lim) {
			(void)snprintf(err, errlen,
			    "%s: %s is above the maximum (%s)",
			    pd->name, value, pd->max);
			return (-1);
		}
	}
	switch (pd->type) {
	case PARAM_STRING:
		(void)snprintf(((struct param_string *)(void *)((char *)pp +
		    pd->offset))->s, PARAM_STRING_MAX, "%s", value);
		break;
	case PARAM_TIMEOUT:
	case PARAM_DOUBLE:
		*(double *)((char *)pp + pd->offset) = tmp.d;
		break;
	case PARAM_BYTES:
		*(uint64_t *)((char *)pp + pd->offset) = tmp.b;
		break;
	default:
		*(unsigned *)((char *)pp + pd->offset) = tmp.u;
		break;
	}
	return (0);
}

int
PARAM_Set(const char *name, const char *value, char *err, size_t errlen)
{
	const struct param_desc *pd;

	CHECK_OBJ(param_rw, PARAMS_MAGIC);
	pd = PARAM_Lookup(name);
	if (pd == NULL) {
		(void)snprintf(err, errlen,
		    "unknown parameter \"%s\" (veneerd -x params lists them)",
		    name);
		return (-1);
	}
	return (param_set(param_rw, pd, value, 0, err, errlen));
}

int
PARAM_Restore(const char *name, const char *shown, char *err, size_t errlen)
{
	const struct param_desc *pd;

	CHECK_OBJ(param_rw, PARAMS_MAGIC);
	pd = PARAM_Lookup(name);
	if (pd == NULL)
		return (PARAM_Set(name, shown, err, errlen));
	return (param_set(param_rw, pd, shown, 1, err, errlen));
}

int
PARAM_Check(char *err, size_t errlen)
{
	const struct params *pp = cache_param;
	uint64_t hdrs, need;

	CHECK_OBJ(pp, PARAMS_MAGIC);
	if (pp->thread_pool_min > pp->thread_pool_max) {
		(void)snprintf(err, errlen,
		    "thread_pool_min: %u is above thread_pool_max (%u)",
		    pp->thread_pool_min, pp->thread_pool_max);
		return (-1);
	}
	/* Request and response header tables live in each workspace. */
	hdrs = 2 * HTTP_Estimate(HTTP_NHDR(pp->http_max_hdr));
	need = pp->http_req_size + pp->vsl_buffer + PARAM_WS_RX_BODY_ROOM +
	    PARAM_WS_MIN_FREE + hdrs;
	if (need > pp->workspace_client) {
		(void)snprintf(err, errlen,
		    "workspace_client (%ju) must hold http_req_size (%ju), "
		    "vsl_buffer (%ju), the header tables for http_max_hdr "
		    "(%u) and %uk more; raise workspace_client to at least "
		    "%juk", (uintmax_t)pp->workspace_client,
		    (uintmax_t)pp->http_req_size, (uintmax_t)pp->vsl_buffer,
		    pp->http_max_hdr,
		    (PARAM_WS_RX_BODY_ROOM + PARAM_WS_MIN_FREE) / 1024,
		    (uintmax_t)(need + 1023) / 1024);
		return (-1);
	}
	/*
	 * A cache fetch owns a copy of the request (it may outlive it),
	 * so the largest legal request must fit beside the largest
	 * response head.
	 */
	need = pp->http_resp_size + pp->http_req_size + pp->vsl_buffer +
	    PARAM_WS_MIN_FREE + hdrs;
	if (need > pp->workspace_backend) {
		(void)snprintf(err, errlen,
		    "workspace_backend (%ju) must hold http_resp_size (%ju), "
		    "a copy of the request (http_req_size, %ju), vsl_buffer "
		    "(%ju), the header tables for http_max_hdr (%u) and %uk "
		    "more; raise workspace_backend to at least %juk (or lower "
		    "http_req_size or http_resp_size)",
		    (uintmax_t)pp->workspace_backend,
		    (uintmax_t)pp->http_resp_size,
		    (uintmax_t)pp->http_req_size, (uintmax_t)pp->vsl_buffer,
		    pp->http_max_hdr, PARAM_WS_MIN_FREE / 1024,
		    (uintmax_t)(need + 1023) / 1024);
		return (-1);
	}
	/* A batch must fit well inside one of the log's 8 segments. */
	if (pp->vsl_buffer > pp->vsl_space / 16) {
		(void)snprintf(err, errlen,
		    "vsl_buffer (%ju) must be at most vsl_space/16 (%ju); "
		    "raise vsl_space or lower vsl_buffer",
		    (uintmax_t)pp->vsl_buffer,
		    (uintmax_t)(pp->vsl_space / 16));
		return (-1);
	}
	if (pp->vsl_buffer < pp->vsl_reclen + 12) {
		(void)snprintf(err, errlen,
		    "vsl_buffer (%ju) must be larger than vsl_reclen (%ju) "
		    "plus 12", (uintmax_t)pp->vsl_buffer,
		    (uintmax_t)pp->vsl_reclen);
		return (-1);
	}
	return (0);
}

static void param_format(const struct params *pp,
    const struct param_desc *pd, char *buf, size_t len);

static const char *
param_default(const struct param_desc *pd, char *buf, size_t len)
{
	long n;

	if (pd->flags & PARAM_F_NCPU) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		if (n < 1)
			n = 1;
		if (n > 64)
			n = 64;
		(void)snprintf(buf, len, "%ld", n);
		return (buf);
	}
	return (pd->def);
}

void
PARAM_Init(void)
{
	char err[256], buf[32];
	unsigned u;
	void *p;

	assert(param_rw == NULL);
	p = mmap(NULL, sizeof *param_rw, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert(p != MAP_FAILED);
	param_rw = p;
	INIT_OBJ(param_rw, PARAMS_MAGIC);
	cache_param = param_rw;
	for (u = 0; u < PARAM_N; u++)
		ASSERT_ZERO(param_set(param_rw, &param_table[u],
		    param_default(&param_table[u], buf, sizeof buf), 1,
		    err, sizeof err));
}

void
PARAM_Protect(void)
{

	CHECK_OBJ(param_rw, PARAMS_MAGIC);
	ASSERT_ZERO(mprotect(param_rw, sizeof *param_rw, PROT_READ));
	param_rw = NULL;
}

void
PARAM_Format(const struct param_desc *pd, char *buf, size_t len)
{

	CHECK_OBJ(cache_param, PARAMS_MAGIC);
	param_format(cache_param, pd, buf, len);
}

int
PARAM_Reset(const char *name, char *err, size_t errlen)
{
	const struct param_desc *pd;
	char buf[32];

	pd = PARAM_Lookup(name);
	if (pd == NULL)
		return (PARAM_Set(name, "", err, errlen));
	return (PARAM_Restore(name, param_default(pd, buf, sizeof buf), err,
	    errlen));
}

void
PARAM_FormatDefault(const struct param_desc *pd, char *buf, size_t len)
{
	static struct params scratch;
	char err[256], def[32];

	INIT_OBJ(&scratch, PARAMS_MAGIC);
	ASSERT_ZERO(param_set(&scratch, pd, param_default(pd, def, sizeof def),
	    1, err, sizeof err));
	param_format(&scratch, pd, buf, len);
}

/*
 * The fewest decimals that read back as the same value.  Not "%g": it
 * writes 2e+06, which NUM_ParseDuration refuses.
 */
static void
param_format_double(const struct param_desc *pd, double d, char *buf,
    size_t len)
{
	double back;
	int prec;

	for (prec = 0; ; prec++) {
		(void)snprintf(buf, len, "%.*f", prec, d);
		if (prec == 9 || ((pd->type == PARAM_TIMEOUT ?
		    NUM_ParseDuration(buf, &back) :
		    param_parse_double(buf, &back)) == NULL && back == d))
			break;
	}
}

/* "+a,+b" in bit order, or "none", as varnishd shows bits. */
static void
param_format_bits(const struct param_desc *pd, uint64_t bits, char *buf,
    size_t len)
{
	const struct param_bit *tab;
	unsigned n, u;
	size_t pos = 0;
	int i;

	tab = PARAM_Bits(pd, &n);
	assert(tab != NULL);
	assert(len > 0);
	buf[0] = '\0';
	for (u = 0; u < n; u++) {
		if (!((bits >> u) & 1))
			continue;
		i = snprintf(buf + pos, len - pos, "%s+%s", pos > 0 ? "," : "",
		    tab[u].name);
		/* Cut like the other types when buf is short; none are. */
		if (i < 0 || (size_t)i >= len - pos)
			return;
		pos += (size_t)i;
	}
	if (pos == 0)
		(void)snprintf(buf, len, "none");
}

static void
param_format(const struct params *pp, const struct param_desc *pd,
    char *buf, size_t len)
{
	const char *p;

	p = (const char *)pp + pd->offset;
	switch (pd->type) {
	case PARAM_TIMEOUT:
	case PARAM_DOUBLE:
		param_format_double(pd, *(const double *)(const void *)p, buf,
		    len);
		break;
	case PARAM_BITS:
		param_format_bits(pd, *(const uint64_t *)(const void *)p, buf,
		    len);
		break;
	case PARAM_BYTES:
		NUM_FormatBytes(*(const uint64_t *)p, buf, len);
		break;
	case PARAM_UINT:
		if (pd->max == NULL && *(const unsigned *)p == UINT_MAX)
			(void)snprintf(buf, len, "unlimited");
		else
			(void)snprintf(buf, len, "%u", *(const unsigned *)p);
		break;
	case PARAM_BOOL:
		(void)snprintf(buf, len, "%s",
		    *(const unsigned *)p ? "on" : "off");
		break;
	case PARAM_STRING:
		(void)snprintf(buf, len, "%s",
		    ((const struct param_string *)(const void *)p)->s);
		break;
	default:
		WRONG("param type");
	}
}

/* Escape roff's special characters at line start and backslashes. */
static void
param_roff_text(const char *s)
{

	for (; *s != '\0'; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

void
PARAM_DumpRoff(void)
{
	const struct param_desc *pd;
	const struct param_bit *bits;
	char buf[32];
	unsigned u, b, nbits;

	for (u = 0; u < PARAM_N; u++) {
		pd = &param_table[u];
		printf(".TP\n.B %s\n", pd->name);
		fputs("Default: ", stdout);
		if (pd->flags & PARAM_F_NCPU)
			fputs("number of CPUs", stdout);
		else
			param_roff_text(param_default(pd, buf, sizeof buf));
		if (*pd->units != '\0')
			printf(" (%s)", pd->units);
		if (pd->min != NULL)
			printf(", minimum %s", pd->min);
		if (pd->max != NULL)
			printf(", maximum %s", pd->max);
		if (pd->flags & PARAM_F_RESTART)
			fputs("; needs a child restart to take effect", stdout);
		fputs(".\n", stdout);
		param_roff_text(pd->doc);
		putchar('\n');
		bits = PARAM_Bits(pd, &nbits);
		for (b = 0; bits != NULL && b < nbits; b++) {
			printf(".br\n\\fB%s\\fR: ", bits[b].name);
			param_roff_text(bits[b].doc);
			putchar('\n');
		}
	}
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneerstat.c -- veneerd's counters: options, and the one-shot outputs
 * -1, -j and -l in varnishstat 7.1's formats (doc/vsm-format.md section
 * 3.7), except that -j escapes what it prints.  -p and the screen are in
 * veneerstat_prom.c and veneerstat_curses.c.  No state beyond main().
 */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "veneerstat.h"

enum vstat_mode {
	VSTAT_SCREEN,
	VSTAT_ONCE,		/* -1 */
	VSTAT_JSON,		/* -j */
	VSTAT_LIST,		/* -l */
	VSTAT_PROM,		/* -p */
};

static void
vstat_usage(FILE *fo)
{

	fprintf(fo,
"Usage: veneerstat [-1 | -j | -l | -p] [-f glob]... [-n workdir]\n"
"                  [-t seconds|off]\n"
"       veneerstat -h | -V\n"
"Show the counters of a running veneerd: on a screen refreshed every\n"
"second, or once.\n"
"  -1             Print every counter once: name, value, average per\n"
"                 second since the child started, description\n"
"  -f glob        Only counters whose name matches glob; ^glob leaves\n"
"                 them out (repeatable; the first match decides)\n"
"  -h             This help\n"
"  -j             Print the counters once as JSON\n"
"  -l             List counter names and descriptions\n"
"  -n workdir     veneerd's -n (default %s/default)\n"
"  -p             Print the counters once in Prometheus text format\n"
"  -t seconds|off How long to wait for veneerd (default 5)\n"
"  -V             Version\n"
"Screen keys: arrows, PgUp, PgDn, g (top), G (bottom), v (verbosity),\n"
"q (quit).\n", VENEER_STATE_DIR);
}

static void __attribute__((__noreturn__, __format__(__printf__, 1, 2)))
vstat_bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "veneerstat: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see veneerstat -h\n");
	exit(VSTAT_EXIT_USAGE);
}

char
VSTAT_Flag(const struct vapi_counter *c)
{

	if (!strcmp(c->type, "counter"))
		return ('c');
	if (!strcmp(c->type, "gauge"))
		return ('g');
	if (!strcmp(c->type, "bitmap"))
		return ('b');
	return ('?');
}

char
VSTAT_Format(const struct vapi_counter *c)
{

	if (!strcmp(c->format, "integer"))
		return ('i');
	if (!strcmp(c->format, "bytes"))
		return ('B');
	if (!strcmp(c->format, "duration"))
		return ('d');
	if (!strcmp(c->format, "bitmap"))
		return ('b');
	return ('?');
}

uint64_t
VSTAT_Value(const struct vapi_counter *c)
{
	uint64_t v = *c->value;

	if (VSTAT_Flag(c) == 'g' && v >= (UINT64_C(1) << 63))
		return (0);
	return (v);
}

/*--------------------------------------------------------------------
 * -1: "name value rate description", the name column growing as
 * varnishstat's does.
 */

struct vstat_once {
	unsigned		magic;
#define VSTAT_ONCE_MAGIC	0x51f0c3a6
	FILE			*fo;
	uint64_t		up;		/* MAIN.uptime, or 0 */
	int			pad;
};

static int
vstat_once_one(void *priv, const struct vapi_counter *c)
{
	struct vstat_once *o;
	int l = (int)strlen(c->name);

	CAST_OBJ_NOTNULL(o, priv, VSTAT_ONCE_MAGIC);
	if (l >= o->pad)
		o->pad = l + 1;
	if (VSTAT_Flag(c) == 'c')
		fprintf(o->fo, "%-*s%12ju %12.2f %s\n", o->pad, c->name,
		    (uintmax_t)VSTAT_Value(c), o->up == 0 ? 0.0 :
		    (double)VSTAT_Value(c) / (double)o->up, c->oneliner);
	else
		fprintf(o->fo, "%-*s%12ju %12s %s\n", o->pad, c->name,
		    (uintmax_t)VSTAT_Value(c), ".  ", c->oneliner);
	return (0);
}

static void
vstat_once(struct vapi *vd, FILE *fo)
{
	struct vstat_once o;

	INIT_OBJ(&o, VSTAT_ONCE_MAGIC);
	o.fo = fo;
	o.pad = 18;
	if (VAPI_CounterGet(vd, "MAIN.uptime", &o.up) != 0)
		o.up = 0;
	(void)VAPI_Counters(vd, vstat_once_one, &o);
}

/*--------------------------------------------------------------------
 * -j: varnishstat -j's shape, strings escaped.
 */

static void
vstat_json_str(FILE *fo, const char *s)
{
	unsigned char c;

	fputc('"', fo);
	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(fo, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fo);
		else if (c == '\t')
			fputs("\\t", fo);
		else if (c < 0x20 || c == 0x7f)
			fprintf(fo, "\\u%04x", c);
		else
			fputc(c, fo);
	}
	fputc('"', fo);
}

struct vstat_json {
	unsigned		magic;
#define VSTAT_JSON_MAGIC	0x0c7e29d4
	FILE			*fo;
	unsigned		n;
};

static int
vstat_json_one(void *priv, const struct vapi_counter *c)
{
	struct vstat_json *j;

	CAST_OBJ_NOTNULL(j, priv, VSTAT_JSON_MAGIC);
	fprintf(j->fo, "%s    ", j->n++ > 0 ? ",\n" : "");
	vstat_json_str(j->fo, c->name);
	fprintf(j->fo, ": {\n      \"description\": ");
	vstat_json_str(j->fo, c->oneliner);
	fprintf(j->fo, ",\n      \"flag\": \"%c\",\n"
	    "      \"format\": \"%c\",\n"
	    "      \"value\": %ju\n    }", VSTAT_Flag(c), VSTAT_Format(c),
	    (uintmax_t)VSTAT_Value(c));
	return (0);
}

static void
vstat_json(struct vapi *vd, FILE *fo)
{
	struct vstat_json j;
	char ts[64];
	struct tm tm;
	time_t now;

	now = time(NULL);
	if (localtime_r(&now, &tm) == NULL ||
	    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm) == 0)
		ts[0] = '\0';
	fprintf(fo, "{\n  \"version\": 1,\n  \"timestamp\": \"%s\",\n"
	    "  \"counters\": {\n", ts);
	INIT_OBJ(&j, VSTAT_JSON_MAGIC);
	j.fo = fo;
	(void)VAPI_Counters(vd, vstat_json_one, &j);
	fprintf(fo, "\n  }\n}\n");
}

/*--------------------------------------------------------------------
 * -l
 */

static int
vstat_list_one(void *priv, const struct vapi_counter *c)
{

	fprintf(priv, "%-30s %s\n", c->name, c->oneliner);
	return (0);
}

static void
vstat_list(struct vapi *vd, FILE *fo)
{

	fprintf(fo, "Veneerstat -f option fields:\n");
	fprintf(fo, "%-30s %s\n", "Field name", "Description");
	fprintf(fo, "%-30s %s\n", "----------", "-----------");
	(void)VAPI_Counters(vd, vstat_list_one, fo);
}

/*--------------------------------------------------------------------
 * Options.
 */

static double
vstat_timeout(const char *arg)
{
	char *end;
	double d;

	if (!strcmp(arg, "off"))
		return (-1);
	errno = 0;
	d = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || errno != 0 || !isfinite(d) ||
	    d < 0)
		vstat_bad_usage("-t %s: expected seconds (a number, 0 or "
		    "more) or off", arg);
	return (d);
}

static void
vstat_mode(enum vstat_mode *mode, enum vstat_mode m)
{

	if (*mode != VSTAT_SCREEN && *mode != m)
		vstat_bad_usage("-1, -j, -l and -p exclude each other");
	*mode = m;
}

int
main(int argc, char **argv)
{
	enum vstat_mode mode = VSTAT_SCREEN;
	const char *n_arg = NULL;
	double timeout = 5;
	struct vapi *vd;
	int opt, r = VSTAT_EXIT_OK;

	vd = VAPI_New();
	if (vd == NULL) {
		fprintf(stderr, "veneerstat: out of memory\n");
		return (VSTAT_EXIT_DAEMON);
	}
	opterr = 0;
	while ((opt = getopt(argc, argv, ":1f:hjln:pt:V")) != -1) {
		switch (opt) {
		case '1':
			vstat_mode(&mode, VSTAT_ONCE);
			break;
		case 'f':
			if (VAPI_CounterFilter(vd, optarg) != 0)
				vstat_bad_usage("-f \"%s\": expected a glob "
				    "such as MAIN.* or ^MAIN.*", optarg);
			break;
		case 'h':
			vstat_usage(stdout);
			VAPI_Free(&vd);
			return (VSTAT_EXIT_OK);
		case 'j':
			vstat_mode(&mode, VSTAT_JSON);
			break;
		case 'l':
			vstat_mode(&mode, VSTAT_LIST);
			break;
		case 'n':
			n_arg = optarg;
			break;
		case 'p':
			vstat_mode(&mode, VSTAT_PROM);
			break;
		case 't':
			timeout = vstat_timeout(optarg);
			break;
		case 'V':
			printf("veneerstat (veneer-%s)\n"
			    "Copyright (c) 2026, The Veneer authors\n",
			    PACKAGE_VERSION);
			VAPI_Free(&vd);
			return (VSTAT_EXIT_OK);
		case ':':
			vstat_bad_usage("-%c needs an argument", optopt);
		default:
			vstat_bad_usage("unknown option -%c",
			    optopt > 0x20 && optopt < 0x7f ? optopt : '?');
		}
	}
	if (optind < argc)
		vstat_bad_usage("unexpected argument \"%s\"", argv[optind]);
	if (VAPI_SetWorkdir(vd, n_arg) != 0 || VAPI_Attach(vd, timeout) != 0) {
		fprintf(stderr, "veneerstat: %s\n", VAPI_Error(vd));
		VAPI_Free(&vd);
		return (VSTAT_EXIT_DAEMON);
	}
	switch (mode) {
	case VSTAT_ONCE:
		vstat_once(vd, stdout);
		break;
	case VSTAT_JSON:
		vstat_json(vd, stdout);
		break;
	case VSTAT_LIST:
		vstat_list(vd, stdout);
		break;
	case VSTAT_PROM:
		if (VSTAT_Prometheus(vd, stdout) != 0)
			r = VSTAT_EXIT_DAEMON;
		break;
	default:
		r = VSTAT_Curses(vd);
		break;
	}
	VAPI_Free(&vd);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "veneerstat: cannot write the output: %s\n",
		    strerror(errno));
		r = VSTAT_EXIT_DAEMON;
	}
	return (r);
}

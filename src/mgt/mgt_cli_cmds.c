/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_cli_cmds.c -- the admin CLI's command table and the commands the
 * manager answers itself (help, ping, status, start, stop, pid, the
 * param.* family, debug.listen_address).  Syntax lines, argument counts
 * and answers follow varnish-cli(7), so scripts written for varnishadm
 * work; `veneerd -x cli` prints the table for man/veneer-cli.7.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/miniobj.h"
#include "common/param.h"
#include "common/tim.h"
#include "mgt/mgt.h"
#include "mgt/mgt_cli.h"

static int
is_j(int ac, char * const *av)
{

	return (ac > 1 && !strcmp(av[1], "-j"));
}

/*--------------------------------------------------------------------*/

static mcli_func_f mcc_help;

void
MCLI_ChildFwd(struct mcli_req *r, int ac, char * const *av)
{
	struct mcli_buf line;
	char *w, *body = NULL;
	int i;

	if (!MGT_ChildRunning()) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "Cache process not started: '%s' "
		    "needs it (see 'start')", av[0]);
		return;
	}
	memset(&line, 0, sizeof line);
	for (i = 0; i < ac; i++) {
		w = CLI_QuoteWord(av[i]);
		if (w == NULL) {
			free(line.p);
			r->status = CLIS_CANT;
			MCLI_BufPrintf(&r->body, "Out of memory");
			return;
		}
		MCLI_BufPrintf(&line, "%s%s", i > 0 ? " " : "", w);
		free(w);
	}
	r->status = MGT_ChildAsk(line.p, &body);
	free(line.p);
	if (body != NULL)
		MCLI_BufAdd(&r->body, body, strlen(body));
	else if (r->status == CLIS_COMMS)
		MCLI_BufPrintf(&r->body, "No answer from the cache process "
		    "within cli_timeout");
	free(body);
}

static void
mcc_banner(struct mcli_req *r, int ac, char * const *av)
{

	(void)ac;
	(void)av;
	MCLI_Banner(&r->body);
}

static void
mcc_ping(struct mcli_req *r, int ac, char * const *av)
{

	if (is_j(ac, av)) {
		MCLI_JsonHead(&r->body, av);
		MCLI_BufPrintf(&r->body, ", \"PONG\"\n]\n");
		return;
	}
	MCLI_BufPrintf(&r->body, "PONG %ld 1.0", (long)TIM_real());
}

static void
mcc_status(struct mcli_req *r, int ac, char * const *av)
{
	const char *st = MGT_ChildRunning() ? "running" : "stopped";

	if (is_j(ac, av)) {
		MCLI_JsonHead(&r->body, av);
		MCLI_BufPrintf(&r->body, ", \"%s\"\n]\n", st);
		return;
	}
	MCLI_BufPrintf(&r->body, "Child in state %s", st);
}

static void
mcc_start(struct mcli_req *r, int ac, char * const *av)
{

	(void)ac;
	(void)av;
	if (MGT_ChildRunning()) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "Child in state running");
		return;
	}
	if (!MGT_VclAvailable()) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "No VCL available: load one with "
		    "vcl.load or vcl.inline first");
		return;
	}
	if (MGT_ChildStartCli() != 0) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "Could not start the child; the "
		    "manager's log says why");
	}
}

static void
mcc_stop(struct mcli_req *r, int ac, char * const *av)
{

	(void)ac;
	(void)av;
	if (!MGT_ChildRunning()) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "Child in state stopped");
		return;
	}
	MGT_ChildStopCli();
}

static void
mcc_pid(struct mcli_req *r, int ac, char * const *av)
{
	long cp = (long)MGT_ChildPid();

	if (is_j(ac, av)) {
		MCLI_JsonHead(&r->body, av);
		MCLI_BufPrintf(&r->body, ",\n  {\"master\": %ld", (long)getpid());
		if (cp > 0)
			MCLI_BufPrintf(&r->body, ", \"worker\": %ld", cp);
		MCLI_BufPrintf(&r->body, "}\n]\n");
		return;
	}
	MCLI_BufPrintf(&r->body, "Master: %10ld\n", (long)getpid());
	if (cp > 0)
		MCLI_BufPrintf(&r->body, "Worker: %10ld\n", cp);
}

static void
mcc_listen_address(struct mcli_req *r, int ac, char * const *av)
{

	(void)ac;
	(void)av;
	MGT_ListenDescribe(&r->body);
}

static void
mcc_panic_show(struct mcli_req *r, int ac, char * const *av)
{
	const char *p;
	double when;

	p = MGT_ChildPanic(&when);
	if (p == NULL) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "Child has not panicked or panic has "
		    "been cleared");
		return;
	}
	if (is_j(ac, av)) {
		MCLI_JsonHead(&r->body, av);
		MCLI_BufPrintf(&r->body, ",\n");
		MCLI_JsonStr(&r->body, p);
		MCLI_BufPrintf(&r->body, "\n]\n");
		return;
	}
	MCLI_BufPrintf(&r->body, "Panic at: %.3f\n%s", when, p);
}

static void
mcc_panic_clear(struct mcli_req *r, int ac, char * const *av)
{
	double when;
	int z = ac > 1 && !strcmp(av[1], "-z");

	if (ac > 1 && !z) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "Unknown flag \"%s\" (-z zeroes the "
		    "child_panic counter too)", av[1]);
		return;
	}
	if (MGT_ChildPanic(&when) == NULL && !z) {
		r->status = CLIS_CANT;
		MCLI_BufPrintf(&r->body, "No panic to clear");
		return;
	}
	MGT_ChildPanicClear(z);
}

static void
mcc_storage_list(struct mcli_req *r, int ac, char * const *av)
{
	const char *names[17];
	uint64_t sizes[16];
	unsigned u, n, m = 0;
	int j = is_j(ac, av);

	/* Transient first, then the others (s0 when -s named none). */
	n = MGT_Stores(names + 1, sizes, 16);
	names[m++] = "Transient";
	for (u = 1; u <= n; u++)
		if (strcmp(names[u], "Transient"))
			names[m++] = names[u];
	if (n == 0)
		names[m++] = "s0";
	if (j)
		MCLI_JsonHead(&r->body, av);
	else
		MCLI_BufPrintf(&r->body, "Storage devices:\n");
	for (u = 0; u < m; u++)
		MCLI_BufPrintf(&r->body, j ? ",\n  \"storage.%s\"" :
		    "\tstorage.%s = malloc\n", names[u]);
	if (j)
		MCLI_BufPrintf(&r->body, "\n]\n");
}

/*--------------------------------------------------------------------
 * Parameters
 */

/* The doc, folded to width 64 and indented by 8, as varnishd shows it. */
static void
param_doc(struct mcli_buf *b, const char *doc)
{
	const char *p = doc, *sp, *e;
	size_t col;

	while (*p != '\0') {
		MCLI_BufAdd(b, "        ", 8);
		col = 0;
		e = p;
		for (;;) {
			sp = e + strcspn(e, " ");
			if (col > 0 && col + (size_t)(sp - e) > 64)
				break;
			col += (size_t)(sp - e) + 1;
			e = *sp == ' ' ? sp + 1 : sp;
			if (*sp == '\0')
				break;
		}
		MCLI_BufAdd(b, p, (size_t)(e - p));
		if (b->len > 0 && b->p[b->len - 1] == ' ')
			b->len--;
		MCLI_BufAdd(b, "\n", 1);
		p = e;
	}
}

static void
param_value(const struct param_desc *pd, char *buf, size_t len,
    int *is_def)
{
	char def[PARAM_STRING_MAX + 64];

	PARAM_Format(pd, buf, len);
	PARAM_FormatDefault(pd, def, sizeof def);
	*is_def = !strcmp(buf, def);
}

static void
param_short(struct mcli_buf *b, const struct param_desc *pd)
{
	char val[PARAM_STRING_MAX + 64];
	int is_def;

	param_value(pd, val, sizeof val, &is_def);
	MCLI_BufPrintf(b, "%-30s%s", pd->name, val);
	if (pd->units != NULL && *pd->units != '\0' && pd->type != PARAM_STRING)
		MCLI_BufPrintf(b, " [%s]", pd->units);
	MCLI_BufPrintf(b, "%s\n", is_def ? " (default)" : "");
}

/*
 * -r: parameters the CLI may show but not change (whoever holds the
 * secret may not, say, point cc_command elsewhere).  Table names.
 */
static const char *mcc_protected[128];
static unsigned mcc_nprotected;

static int
param_protected(const char *name)
{
	unsigned u;

	for (u = 0; u < mcc_nprotected; u++)
		if (!strcmp(mcc_protected[u], name))
			return (1);
	return (0);
}

/* -r name[,name...]: 0, or -1 with err naming what is wrong. */
int
MGT_ParamProtect(const char *list, char *err, size_t errlen)
{
	const struct param_desc *pd;
	char name[64];
	const char *p;
	size_t l;

	for (p = list; *p != '\0'; p += l) {
		p += strspn(p, ", ");
		l = strcspn(p, ", ");
		if (l == 0)
			break;
		(void)snprintf(name, sizeof name, "%.*s", (int)l, p);
		pd = l < sizeof name ? PARAM_Lookup(name) : NULL;
		if (pd == NULL) {
			(void)snprintf(err, errlen, "Unknown parameter %.*s",
			    (int)l, p);
			return (-1);
		}
		if (param_protected(pd->name))
			continue;
		if (mcc_nprotected == sizeof mcc_protected /
		    sizeof mcc_protected[0]) {
			(void)snprintf(err, errlen, "too many protected "
			    "parameters");
			return (-1);
		}
		mcc_protected[mcc_nprotected++] = pd->name;
	}
	return (0);
}

static void
param_long(struct mcli_buf *b, const struct param_desc *pd)
{
	char val[PARAM_STRING_MAX + 64], def[PARAM_STRING_MAX + 64];
	char line[256];
	const struct param_bit *bits;
	unsigned u, nbits;
	int is_def;

	param_value(pd, val, sizeof val, &is_def);
	PARAM_FormatDefault(pd, def, sizeof def);
	MCLI_BufPrintf(b, "%s\n        Value is: %s", pd->name, val);
	if (pd->units != NULL && *pd->units != '\0' && pd->type != PARAM_STRING)
		MCLI_BufPrintf(b, " [%s]", pd->units);
	MCLI_BufPrintf(b, "%s\n", is_def ? " (default)" : "");
	if (!is_def)
		MCLI_BufPrintf(b, "        Default is: %s\n", def);
	if (pd->min != NULL)
		MCLI_BufPrintf(b, "        Minimum is: %s\n", pd->min);
	if (pd->max != NULL)
		MCLI_BufPrintf(b, "        Maximum is: %s\n", pd->max);
	MCLI_BufAdd(b, "\n", 1);
	param_doc(b, pd->doc);
	bits = PARAM_Bits(pd, &nbits);
	for (u = 0; bits != NULL && u < nbits; u++) {
		(void)snprintf(line, sizeof line, "%s: %s", bits[u].name,
		    bits[u].doc);
		if (u == 0)
			MCLI_BufAdd(b, "\n", 1);
		param_doc(b, line);
	}
	if (pd->flags & PARAM_F_RESTART)
		MCLI_BufPrintf(b, "\n        NB: This parameter is read when "
		    "the child starts: a change\n        takes effect at the "
		    "next child restart.\n");
	if (param_protected(pd->name))
		MCLI_BufPrintf(b, "\n        NB: This parameter is protected "
		    "(-r) and can not be changed.\n");
	MCLI_BufAdd(b, "\n", 1);
}

static void
param_json(struct mcli_buf *b, const struct param_desc *pd)
{
	char val[PARAM_STRING_MAX + 64], def[PARAM_STRING_MAX + 64];
	int is_def;

	param_value(pd, val, sizeof val, &is_def);
	PARAM_FormatDefault(pd, def, sizeof def);
	MCLI_BufPrintf(b, ",\n  {\n    \"name\": ");
	MCLI_JsonStr(b, pd->name);
	MCLI_BufPrintf(b, ",\n    \"implemented\": true,\n    \"value\": ");
	switch (pd->type) {
	case PARAM_BOOL:
		MCLI_BufPrintf(b, "%s", !strcmp(val, "on") ? "true" : "false");
		break;
	case PARAM_STRING:
		MCLI_JsonStr(b, val);
		break;
	default:
		/* Numbers; a BYTES value with a suffix stays a string. */
		if (strspn(val, "0123456789.") == strlen(val) && *val != '\0')
			MCLI_BufPrintf(b, "%s", val);
		else
			MCLI_JsonStr(b, val);
		break;
	}
	if (pd->units != NULL && *pd->units != '\0') {
		MCLI_BufPrintf(b, ",\n    \"units\": ");
		MCLI_JsonStr(b, pd->units);
	}
	MCLI_BufPrintf(b, ",\n    \"default\": ");
	MCLI_JsonStr(b, def);
	if (pd->min != NULL) {
		MCLI_BufPrintf(b, ",\n    \"minimum\": ");
		MCLI_JsonStr(b, pd->min);
	}
	if (pd->max != NULL) {
		MCLI_BufPrintf(b, ",\n    \"maximum\": ");
		MCLI_JsonStr(b, pd->max);
	}
	MCLI_BufPrintf(b, ",\n    \"description\": ");
	MCLI_JsonStr(b, pd->doc);
	MCLI_BufPrintf(b, ",\n    \"flags\": [");
	if (pd->flags & PARAM_F_RESTART)
		MCLI_BufPrintf(b, "\n      \"must_restart\"\n    ");
	MCLI_BufPrintf(b, "]\n  }");
}

static void
mcc_param_show(struct mcli_req *r, int ac, char * const *av)
{
	const struct param_desc *tab, *pd;
	const char *which = NULL;
	int lng = 0, json = 0, i, is_def;
	char val[PARAM_STRING_MAX + 64];
	unsigned u, ntab;

	for (i = 1; i < ac; i++) {
		if (!strcmp(av[i], "-l"))
			lng = 1;
		else if (!strcmp(av[i], "-j"))
			json = 1;
		else if (which == NULL)
			which = av[i];
		else {
			r->status = CLIS_TOOMANY;
			MCLI_BufPrintf(&r->body, "Too many parameters");
			return;
		}
	}
	if (which != NULL && strcmp(which, "changed") &&
	    PARAM_Lookup(which) == NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "Unknown parameter \"%s\".", which);
		return;
	}
	if (json && lng) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "-l and -j cannot be used together: "
		    "-j always gives everything -l would.");
		return;
	}
	if (json)
		MCLI_JsonHead(&r->body, av);
	tab = PARAM_Table(&ntab);
	for (u = 0; u < ntab; u++) {
		pd = &tab[u];
		if (which != NULL && strcmp(which, "changed") &&
		    strcmp(which, pd->name))
			continue;
		if (which != NULL && !strcmp(which, "changed")) {
			param_value(pd, val, sizeof val, &is_def);
			if (is_def)
				continue;
		}
		if (json)
			param_json(&r->body, pd);
		else if (lng || (which != NULL && strcmp(which, "changed")))
			param_long(&r->body, pd);
		else
			param_short(&r->body, pd);
	}
	if (json)
		MCLI_BufPrintf(&r->body, "\n]\n");
}

/* Set (value != NULL) or reset a parameter, checked, undone on error. */
static void
param_change(struct mcli_req *r, const char *name, const char *value)
{
	const struct param_desc *pd;
	char old[PARAM_STRING_MAX + 64], err[512], *body = NULL;

	pd = PARAM_Lookup(name);
	if (pd == NULL) {
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "Unknown parameter \"%s\".", name);
		return;
	}
	if (param_protected(pd->name)) {
		r->status = CLIS_AUTH;
		MCLI_BufPrintf(&r->body, "parameter \"%s\" is protected: "
		    "veneerd was started with -r %s, so only a restart "
		    "without it can change it.", name, name);
		return;
	}
	PARAM_Format(pd, old, sizeof old);
	if ((value == NULL ? PARAM_Reset(name, err, sizeof err) :
	    PARAM_Set(name, value, err, sizeof err)) != 0 ||
	    PARAM_Check(err, sizeof err) != 0 ||
	    MGT_ParamCheck(name, value == NULL ? NULL : old, err,
	    sizeof err) != 0) {
		/* What PARAM_Format showed reads back (fuzz_param). */
		(void)PARAM_Restore(name, old, NULL, 0);
		r->status = CLIS_PARAM;
		MCLI_BufPrintf(&r->body, "%s\n\n(attempting to set param "
		    "'%s' to '%s')", err, name, value != NULL ? value :
		    "its default");
		return;
	}
	MGT_Log(LOG_NOTICE, "CLI: param.%s %s %s (was %s)", value != NULL ?
	    "set" : "reset", name, value != NULL ? value : "", old);
	if (pd->flags & PARAM_F_RESTART) {
		MCLI_BufPrintf(&r->body, "Change will take effect when the "
		    "child is restarted");
		return;
	}
	/* The child sees the value at once; some need it to act. */
	if (MGT_ChildRunning()) {
		char cmd[256];

		(void)snprintf(cmd, sizeof cmd, "param.changed %s", name);
		if (MGT_ChildAsk(cmd, &body) != CLIS_OK) {
			r->status = CLIS_CANT;
			MCLI_BufPrintf(&r->body, "Set, but the child could not "
			    "apply it: %s", body != NULL ? body : "no answer");
		}
		free(body);
	}
}

static void
mcc_param_set(struct mcli_req *r, int ac, char * const *av)
{
	int j = is_j(ac, av);

	if (ac - j != 3) {
		r->status = CLIS_TOOFEW;
		MCLI_BufPrintf(&r->body, "Too few parameters");
		return;
	}
	param_change(r, av[1 + j], av[2 + j]);
	if (j && r->status == CLIS_OK && r->body.len == 0) {
		char *show[] = { "param.show", "-j", av[2], NULL };

		mcc_param_show(r, 3, show);
	}
}

static void
mcc_param_reset(struct mcli_req *r, int ac, char * const *av)
{

	(void)ac;
	param_change(r, av[1], NULL);
}

/*--------------------------------------------------------------------
 * The table, in name order (help lists it so)
 */

static const struct mcli_cmd mcli_cmds[] = {
	{ "auth", "auth <response>",
	    "Authenticate: the answer is the hex SHA-256 of the challenge, "
	    "a newline, the secret file's contents, the challenge and a "
	    "newline.", 1, 1, 0, NULL },
	{ "ban", "ban <field> <operator> <arg> [&& <field> <oper> <arg> ...]",
	    "Mark obsolete all objects where all the conditions match. "
	    "Fields: req.url, req.http.NAME, obj.status, obj.http.NAME, "
	    "obj.ttl, obj.age, obj.grace, obj.keep; operators == != ~ !~ "
	    "(strings) and == != < <= > >= (numbers, durations). Bans on "
	    "req.url and req.http.host test the URL and Host the object "
	    "was fetched for, so the ban lurker can apply them too.",
	    3, -1, 0, MCLI_ChildFwd },
	{ "ban.list", "ban.list [-j|-d]",
	    "List the active bans, newest first: time, objects pointing at "
	    "it, C if completed, and the expression. -d adds R for bans "
	    "only lookups can test and the objects each tested and killed.",
	    0, 1, 1, MCLI_ChildFwd },
	{ "backend.list", "backend.list [-j] [-p] [<backend_pattern>]",
	    "List backends: VCL.NAME, admin state (\"probe\" when its "
	    "probe decides), the probe's good results out of its window, "
	    "the probe's verdict and when the health last changed; -p adds "
	    "the probe's last 64 results, oldest first; -j adds each "
	    "backend's \"addresses\" (ours): where a fetch would connect "
	    "now, in the order tried.  A pattern is a "
	    "glob; without a dot it matches the active VCL's backends by "
	    "name.", 0, 3, 1, MCLI_ChildFwd },
	{ "backend.set_health",
	    "backend.set_health <backend_pattern> [auto|healthy|sick]",
	    "Set health status of backend(s) matching <backend_pattern>: "
	    "sick makes fetches fail at once (503 after vcl_backend_error), "
	    "healthy forces them through, auto gives it back to the "
	    "backend's probe (healthy without one).", 2, 2, 0,
	    MCLI_ChildFwd },
	{ "banner", "banner", "Print welcome banner.", 0, 0, 0, mcc_banner },
	{ "debug.listen_address", "debug.listen_address",
	    "Report the actual listen addresses: name, address and port "
	    "of each -a socket.", 0, 0, 0, mcc_listen_address },
	{ "debug.xid", "debug.xid [<xid> [<cachesize>]]",
	    "Show or set the transaction ids (vxids): the next one handed "
	    "out is <xid> + 1, and workers take <cachesize> ids at a time "
	    "(1 unless given). Test harnesses use it to predict X-Varnish.",
	    0, 2, 0, MCLI_ChildFwd },
	{ "debug.fragfetch", "debug.fragfetch <size>",
	    "Store fetched bodies <size> bytes at a time (0: as read), so "
	    "tests can check that parsing does not depend on how a body "
	    "arrives.", 1, 1, 0, MCLI_ChildFwd },
	{ "debug.srandom", "debug.srandom [<seed>]",
	    "Seed the random numbers tests predict (the random "
	    "director's picks) with <seed>, 1 unless given, as varnishd's.",
	    0, 1, 0, MCLI_ChildFwd },
	{ "help", "help [-j|-a|-d|<command>]",
	    "Show command/protocol help; -a lists the debug commands too, "
	    "-d only those.", 0, 1, 1, mcc_help },
	{ "panic.clear", "panic.clear [-z]",
	    "Clear the last panic, if any; -z zeroes the child_panic "
	    "counter too.", 0, 1, 0, mcc_panic_clear },
	{ "panic.show", "panic.show [-j]",
	    "Return the last panic, if any.", 0, 0, 1, mcc_panic_show },
	{ "param.reset", "param.reset <param>",
	    "Reset parameter to default value.", 1, 1, 0, mcc_param_reset },
	{ "param.set", "param.set [-j] <param> <value>",
	    "Set parameter value: checked against its type and limits, "
	    "and in effect at once unless it says it needs a child "
	    "restart.", 2, 2, 1, mcc_param_set },
	{ "param.show", "param.show [-l|-j] [<param>|changed]",
	    "Show parameters and their values.", 0, 2, 1, mcc_param_show },
	{ "pid", "pid [-j]",
	    "Show the pid of the master process, and the worker if it's "
	    "running.", 0, 0, 1, mcc_pid },
	{ "ping", "ping [-j] [<timestamp>]",
	    "Keep connection alive.", 0, 1, 1, mcc_ping },
	{ "purge.key", "purge.key <tag>...",
	    "Purge every cached object whose Surrogate-Key or xkey response "
	    "header carries one of the tags (all variants); answers how "
	    "many objects were purged.", 1, -1, 0, MCLI_ChildFwd },
	{ "purge.softkey", "purge.softkey <tag>...",
	    "Soft purge every cached object carrying one of the tags: it "
	    "goes stale now but keeps its grace and keep, so it can still be "
	    "served while a fresh copy is fetched, and revalidated; answers "
	    "how many objects.", 1, -1, 0, MCLI_ChildFwd },
	{ "quit", "quit", "Close connection.", 0, 0, 0, NULL },
	{ "start", "start", "Start the cache process.", 0, 0, 0, mcc_start },
	{ "status", "status [-j]", "Check status of the cache process.",
	    0, 0, 1, mcc_status },
	{ "stop", "stop", "Stop the cache process.", 0, 0, 0, mcc_stop },
	{ "storage.list", "storage.list [-j]", "List storage devices.",
	    0, 0, 1, mcc_storage_list },
};

#define MCLI_NCMDS	(sizeof mcli_cmds / sizeof mcli_cmds[0])

const struct mcli_cmd *
MCLI_Find(const char *name)
{
	unsigned u;

	for (u = 0; u < MCLI_NCMDS; u++)
		if (!strcmp(mcli_cmds[u].name, name))
			return (&mcli_cmds[u]);
	for (u = 0; MGT_VclCmds[u].name != NULL; u++)
		if (!strcmp(MGT_VclCmds[u].name, name))
			return (&MGT_VclCmds[u]);
	return (NULL);
}

/* Every command, in name order: the two tables merged. */
static unsigned
mcli_all(const struct mcli_cmd **out, unsigned max)
{
	unsigned a = 0, b = 0, n = 0;

	while (n < max && (a < MCLI_NCMDS || MGT_VclCmds[b].name != NULL)) {
		if (MGT_VclCmds[b].name == NULL || (a < MCLI_NCMDS &&
		    strcmp(mcli_cmds[a].name, MGT_VclCmds[b].name) < 0))
			out[n++] = &mcli_cmds[a++];
		else
			out[n++] = &MGT_VclCmds[b++];
	}
	return (n);
}

const struct mcli_cmd *
MCLI_Check(struct mcli_req *r, int ac, char * const *av)
{
	const struct mcli_cmd *cmd;

	assert(ac > 0);
	cmd = MCLI_Find(av[0]);
	if (cmd == NULL) {
		r->status = CLIS_UNKNOWN;
		MCLI_BufPrintf(&r->body, "Unknown request.\nType 'help' for "
		    "more info.\n");
	} else if (ac - 1 < cmd->minarg) {
		r->status = CLIS_TOOFEW;
		MCLI_BufPrintf(&r->body, "Too few parameters\n");
	} else if (cmd->maxarg >= 0 &&
	    ac - 1 > cmd->maxarg + (cmd->json && is_j(ac, av))) {
		r->status = CLIS_TOOMANY;
		MCLI_BufPrintf(&r->body, "Too many parameters\n");
	} else {
		return (cmd);
	}
	return (NULL);
}

static void
mcc_help(struct mcli_req *r, int ac, char * const *av)
{
	const struct mcli_cmd *c, *all[128];
	unsigned u, n;

	n = mcli_all(all, 128);
	if (is_j(ac, av)) {
		MCLI_JsonHead(&r->body, av);
		for (u = 0; u < n; u++) {
			c = all[u];
			MCLI_BufPrintf(&r->body, ",\n  {\n    \"request\": ");
			MCLI_JsonStr(&r->body, c->name);
			MCLI_BufPrintf(&r->body, ",\n    \"syntax\": ");
			MCLI_JsonStr(&r->body, c->syntax);
			MCLI_BufPrintf(&r->body, ",\n    \"help\": ");
			MCLI_JsonStr(&r->body, c->help);
			MCLI_BufPrintf(&r->body, ",\n    \"minarg\": %d,\n"
			    "    \"maxarg\": %d,\n    \"flags\": \"\",\n"
			    "    \"json\": %s\n  }", c->minarg, c->maxarg,
			    c->json ? "true" : "false");
		}
		MCLI_BufPrintf(&r->body, "\n]\n");
		return;
	}
	/* -a: every command, debug ones too; -d: the debug ones. */
	if (ac > 1 && (!strcmp(av[1], "-a") || !strcmp(av[1], "-d"))) {
		for (u = 0; u < n; u++)
			if (av[1][1] == 'a' ||
			    !strncmp(all[u]->name, "debug.", 6))
				MCLI_BufPrintf(&r->body, "%s\n",
				    all[u]->syntax);
		return;
	}
	if (ac > 1) {
		c = MCLI_Find(av[1]);
		if (c == NULL) {
			r->status = CLIS_UNKNOWN;
			MCLI_BufPrintf(&r->body, "Unknown request \"%s\".\n"
			    "Type 'help' for the list.", av[1]);
			return;
		}
		MCLI_BufPrintf(&r->body, "%s\n%s\n", c->syntax, c->help);
		return;
	}
	for (u = 0; u < n; u++)
		if (strncmp(all[u]->name, "debug.", 6))
			MCLI_BufPrintf(&r->body, "%s\n", all[u]->syntax);
}

void
MCLI_DumpRoff(void)
{
	const struct mcli_cmd *all[128];
	unsigned u, n;

	n = mcli_all(all, 128);
	for (u = 0; u < n; u++)
		printf(".TP\n.B %s\n%s\n", all[u]->syntax, all[u]->help);
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * veneerstat_curses.c -- veneerstat's screen: uptimes, hit rates over
 * the last 10, 100 and 1000 seconds, and the counters (value, change per
 * second, average per second since the child started), sampled once a
 * second, scrolled with the keys.  Owns the screen and the list of
 * counters shown; single-threaded.
 *
 * The counter pointers from libveneerapi stay valid until VAPI_Status
 * reports a change, so the list is rebuilt on every change before any
 * value is read again; names are copied to carry the previous values
 * (for the rates) across a rebuild.
 *
 * Small terminals lose the uptime lines first, then columns right to
 * left; terminals without colour get reverse video and bold only.
 *
 * 'c' switches to the VCL cost view: with -p vcl_profile=on, one row per
 * method, condition and call of the loaded VCLs, costliest first (total
 * time, runs, time per run, how often a condition was true, where).
 */

#include "config.h"

#include <curses.h>
#include <term.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/miniobj.h"
#include "vapi.h"
#include "veneerstat.h"

#define VS_RING		1001		/* hit/miss samples: 1000 s */
#define VS_COLW		12		/* a numeric column */
#define VS_NAMEMIN	20

static const char * const vs_levels[] = { "info", "diag", "debug" };

struct vs_pt {
	char			*name;		/* own copy */
	const struct vapi_counter *c;	/* until the next rebuild */
	uint64_t		cur;
	double			chg;		/* per second, last interval */
	unsigned		have;		/* cur holds a sample */
	unsigned		have_chg;
	unsigned		level;		/* index in vs_levels */
	char			flag;
	char			fmt;
};

struct vs {
	unsigned		magic;
#define VS_MAGIC		0x6b2d94c7
	struct vapi		*vd;
	struct vs_pt		*pt;
	unsigned		npt;
	unsigned		*vis;		/* pt shown at this verbosity */
	unsigned		nvis;
	unsigned		verbosity;
	unsigned		top;		/* first row shown, in vis */
	unsigned		sel;		/* selected row, in vis */
	unsigned		status;		/* of the last VAPI_Status */
	double			t_sample;
	/* By name, whatever the filters: -1 when there is none. */
	int64_t			mgt_up;
	int64_t			main_up;
	unsigned		have_hitmiss;
	uint64_t		rhit[VS_RING];
	uint64_t		rmiss[VS_RING];
	unsigned		rn;		/* samples in the ring */
	unsigned		rpos;		/* where the next goes */
	int			colors;
	SCREEN			*screen;
	/* The cost view ('c'): its rows, rebuilt each second. */
	unsigned		cost;
	struct vstat_cost	*crow;
	unsigned		ncrow;
	unsigned		csel, ctop;
};

static volatile sig_atomic_t vs_stop;

static void
vs_sig(int sig)
{

	(void)sig;
	vs_stop = 1;
}

static double
vs_now(void)
{
	struct timespec ts;

	ASSERT_ZERO(clock_gettime(CLOCK_MONOTONIC, &ts));
	return ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
}

/*--------------------------------------------------------------------
 * The list of counters.
 */

static unsigned
vs_level(const char *level)
{
	unsigned u;

	for (u = 0; u < 3; u++)
		if (!strcmp(level, vs_levels[u]))
			return (u);
	return (2);			/* Unknown: the most verbose. */
}

struct vs_collect {
	unsigned		magic;
#define VS_COLLECT_MAGIC	0x7d15a0e2
	struct vs_pt		*pt;
	unsigned		n;
	unsigned		cap;
	int			oom;
};

static int
vs_collect(void *priv, const struct vapi_counter *c)
{
	struct vs_collect *col;
	struct vs_pt *p;
	unsigned cap;

	CAST_OBJ_NOTNULL(col, priv, VS_COLLECT_MAGIC);
	if (col->n == col->cap) {
		cap = col->cap == 0 ? 256 : 2 * col->cap;
		p = realloc(col->pt, cap * sizeof *p);
		if (p == NULL) {
			col->oom = 1;
			return (1);
		}
		col->pt = p;
		col->cap = cap;
	}
	p = &col->pt[col->n];
	memset(p, 0, sizeof *p);
	p->name = strdup(c->name);
	if (p->name == NULL) {
		col->oom = 1;
		return (1);
	}
	p->c = c;
	p->level = vs_level(c->level);
	p->flag = VSTAT_Flag(c);
	p->fmt = VSTAT_Format(c);
	col->n++;
	return (0);
}

static int
vs_cmp_name(const void *a, const void *b)
{
	const struct vs_pt *pa = a, *pb = b;

	return (strcmp(pa->name, pb->name));
}

static void
vs_free_pts(struct vs_pt *pt, unsigned n)
{
	unsigned u;

	for (u = 0; u < n; u++)
		free(pt[u].name);
	free(pt);
}

/* The counters shown at this verbosity; the selection follows. */
static void
vs_visible(struct vs *vs, const char *keep)
{
	unsigned u, *v;

	v = realloc(vs->vis, (vs->npt + 1) * sizeof *v);
	if (v == NULL)
		return;			/* The old list is still right. */
	vs->vis = v;
	vs->nvis = 0;
	for (u = 0; u < vs->npt; u++) {
		if (vs->pt[u].level > vs->verbosity)
			continue;
		if (keep != NULL && !strcmp(keep, vs->pt[u].name))
			vs->sel = vs->nvis;
		vs->vis[vs->nvis++] = u;
	}
	if (vs->sel >= vs->nvis)
		vs->sel = vs->nvis > 0 ? vs->nvis - 1 : 0;
}

/*
 * Collect the counters again.  Old values are carried over by name
 * (sorted copy, binary search) so rates survive the rebuild.
 */
static void
vs_rebuild(struct vs *vs)
{
	struct vs_collect col;
	struct vs_pt *old, *o, key;
	char *keep = NULL;
	unsigned u;

	INIT_OBJ(&col, VS_COLLECT_MAGIC);
	(void)VAPI_Counters(vs->vd, vs_collect, &col);
	if (col.oom) {
		vs_free_pts(col.pt, col.n);
		return;			/* Keep what we had. */
	}
	if (vs->sel < vs->nvis)
		keep = strdup(vs->pt[vs->vis[vs->sel]].name);
	old = vs->pt;
	if (vs->npt > 0)
		qsort(old, vs->npt, sizeof *old, vs_cmp_name);
	for (u = 0; u < col.n; u++) {
		key.name = col.pt[u].name;
		o = vs->npt == 0 ? NULL : bsearch(&key, old, vs->npt,
		    sizeof *old, vs_cmp_name);
		if (o == NULL)
			continue;
		col.pt[u].cur = o->cur;
		col.pt[u].have = o->have;
	}
	vs_free_pts(old, vs->npt);
	vs->pt = col.pt;
	vs->npt = col.n;
	vs_visible(vs, keep);
	free(keep);
}

/* Once a second: new values, rates, the hit ring. */
static void
vs_sample(struct vs *vs)
{
	struct vs_pt *p;
	double now, dt;
	uint64_t v, hit = 0, miss = 0;
	unsigned u, changes;

	vs->status = VAPI_Status(vs->vd);
	changes = vs->status & (VAPI_MGT_CHANGED | VAPI_MGT_RESTARTED |
	    VAPI_CHILD_CHANGED | VAPI_CHILD_RESTARTED);
	if (changes != 0)
		vs_rebuild(vs);
	if (vs->status & VAPI_CHILD_RESTARTED) {
		/* A new child counts from 0: old values mean nothing. */
		for (u = 0; u < vs->npt; u++)
			vs->pt[u].have = vs->pt[u].have_chg = 0;
		vs->rn = 0;
	}
	now = vs_now();
	dt = now - vs->t_sample;
	vs->t_sample = now;
	for (u = 0; u < vs->npt; u++) {
		p = &vs->pt[u];
		v = VSTAT_Value(p->c);
		p->have_chg = p->have && dt > 0 && v >= p->cur;
		if (p->have_chg)
			p->chg = (double)(v - p->cur) / dt;
		p->cur = v;
		p->have = 1;
	}
	vs->mgt_up = VAPI_CounterGet(vs->vd, "MGT.uptime", &v) == 0 ?
	    (int64_t)(v & INT64_MAX) : -1;
	vs->main_up = VAPI_CounterGet(vs->vd, "MAIN.uptime", &v) == 0 ?
	    (int64_t)(v & INT64_MAX) : -1;
	if (vs->cost) {
		VSTAT_CostFree(vs->crow, vs->ncrow);
		vs->ncrow = VSTAT_Cost(vs->vd, &vs->crow);
		if (vs->csel >= vs->ncrow)
			vs->csel = vs->ncrow > 0 ? vs->ncrow - 1 : 0;
	}
	vs->have_hitmiss =
	    VAPI_CounterGet(vs->vd, "MAIN.cache_hit", &hit) == 0 &&
	    VAPI_CounterGet(vs->vd, "MAIN.cache_miss", &miss) == 0;
	if (vs->have_hitmiss) {
		vs->rhit[vs->rpos] = hit;
		vs->rmiss[vs->rpos] = miss;
		vs->rpos = (vs->rpos + 1) % VS_RING;
		if (vs->rn < VS_RING)
			vs->rn++;
	} else {
		vs->rn = 0;
	}
}

/*--------------------------------------------------------------------
 * Drawing.
 */

static void
vs_duration(char *buf, size_t len, uint64_t s)
{

	(void)snprintf(buf, len, "%ju+%02ju:%02ju:%02ju",
	    (uintmax_t)(s / 86400), (uintmax_t)(s % 86400 / 3600),
	    (uintmax_t)(s % 3600 / 60), (uintmax_t)(s % 60));
}

/* A number in at most VS_COLW - 1 characters. */
static void
vs_scaled(char *buf, size_t len, double d, double base, int decimals)
{
	static const char sfx[] = " KMGTPE";
	unsigned u = 0;

	if (decimals && fabs(d) < 1e9) {
		(void)snprintf(buf, len, "%.2f", d);
		return;
	}
	while (fabs(d) >= (u == 0 && !decimals ? 1e11 : base) && u < 6) {
		d /= base;
		u++;
	}
	if (u == 0)
		(void)snprintf(buf, len, "%.0f", d);
	else
		(void)snprintf(buf, len, "%.2f%c", d, sfx[u]);
}

static void
vs_value(char *buf, size_t len, const struct vs_pt *p)
{

	switch (p->fmt) {
	case 'd':
		vs_duration(buf, len, p->cur);
		break;
	case 'B':
		vs_scaled(buf, len, (double)p->cur, 1024, 0);
		break;
	case 'b':
		(void)snprintf(buf, len, "0x%jx", (uintmax_t)p->cur);
		break;
	default:
		if (p->cur < UINT64_C(100000000000))
			(void)snprintf(buf, len, "%ju", (uintmax_t)p->cur);
		else
			vs_scaled(buf, len, (double)p->cur, 1000, 0);
		break;
	}
}

/* s at (y, x), at most w columns. */
static void
vs_put(int y, int x, int w, const char *s)
{

	if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	if (x + w > COLS)
		w = COLS - x;
	(void)mvaddnstr(y, x, s, w);
}

/* A right-aligned column of VS_COLW. */
static void
vs_col(int y, int x, const char *s)
{
	char buf[VS_COLW + 1];

	(void)snprintf(buf, sizeof buf, "%*.*s", VS_COLW, VS_COLW - 1, s);
	vs_put(y, x, VS_COLW, buf);
}

static void
vs_hitrate(const struct vs *vs, unsigned n, char *buf, size_t len,
    unsigned *used)
{
	unsigned back, now, then;
	uint64_t dh, dm;

	*used = 0;
	if (vs->rn < 2) {
		(void)snprintf(buf, len, "-");
		return;
	}
	back = vs->rn - 1 < n ? vs->rn - 1 : n;
	now = (vs->rpos + VS_RING - 1) % VS_RING;
	then = (now + VS_RING - back) % VS_RING;
	*used = back;
	dh = vs->rhit[now] - vs->rhit[then];
	dm = vs->rmiss[now] - vs->rmiss[then];
	if (dh + dm == 0)
		(void)snprintf(buf, len, "-");
	else
		(void)snprintf(buf, len, "%.4f", (double)dh /
		    (double)(dh + dm));
}

static void
vs_draw_head(const struct vs *vs)
{
	static const unsigned win[3] = { 10, 100, 1000 };
	char buf[128], rate[3][32];
	unsigned u, used[3];
	int x = 32;

	buf[0] = '\0';
	if (vs->mgt_up >= 0)
		vs_duration(buf, sizeof buf, (uint64_t)vs->mgt_up);
	vs_put(0, 0, COLS, "Uptime mgt:");
	vs_put(0, 14, COLS, vs->mgt_up >= 0 ? buf : "-");
	if (vs->main_up >= 0)
		vs_duration(buf, sizeof buf, (uint64_t)vs->main_up);
	vs_put(1, 0, COLS, "Uptime child:");
	vs_put(1, 14, COLS, vs->main_up >= 0 ? buf : "-");
	if (COLS < x + 12 + 3 * 9)
		return;
	for (u = 0; u < 3; u++)
		vs_hitrate(vs, win[u], rate[u], sizeof rate[u], &used[u]);
	vs_put(0, x, COLS, "Hitrate n:");
	vs_put(1, x, COLS, "   avg(n):");
	for (u = 0; u < 3; u++) {
		/* No cache_hit/cache_miss (yet): nothing to count. */
		if (vs->have_hitmiss)
			(void)snprintf(buf, sizeof buf, "%8u", used[u]);
		else
			(void)snprintf(buf, sizeof buf, "%8s", "-");
		vs_put(0, x + 12 + 9 * (int)u, 8, buf);
		(void)snprintf(buf, sizeof buf, "%8s", rate[u]);
		vs_put(1, x + 12 + 9 * (int)u, 8, buf);
	}
}

/* How many numeric columns fit, and how wide the name is. */
static void
vs_layout(const struct vs *vs, int *ncol, int *namew, int *descx)
{
	unsigned u;
	int longest = 4, l;

	for (u = 0; u < vs->nvis; u++) {
		l = (int)strlen(vs->pt[vs->vis[u]].name);
		if (l > longest)
			longest = l;
	}
	for (*ncol = 3; *ncol > 0; (*ncol)--)
		if (COLS >= VS_NAMEMIN + *ncol * VS_COLW)
			break;
	*namew = COLS - *ncol * VS_COLW;
	if (*namew > longest + 1)
		*namew = longest + 1;
	*descx = *namew + *ncol * VS_COLW + 1;
	if (COLS - *descx < 15)
		*descx = -1;
}

static void
vs_draw_row(const struct vs *vs, const struct vs_pt *p, int y, int ncol,
    int namew, int descx)
{
	char buf[64];
	double up;
	int x = namew;

	vs_put(y, 0, namew - 1, p->name);
	vs_value(buf, sizeof buf, p);
	vs_col(y, x, buf);
	x += VS_COLW;
	if (ncol >= 2) {
		buf[0] = '\0';
		if (p->flag == 'c' && p->have_chg)
			vs_scaled(buf, sizeof buf, p->chg, 1000, 1);
		vs_col(y, x, buf);
		x += VS_COLW;
	}
	if (ncol >= 3) {
		buf[0] = '\0';
		up = vs->main_up > 0 ? (double)vs->main_up : 0;
		if (p->flag == 'c')
			vs_scaled(buf, sizeof buf, up > 0 ?
			    (double)p->cur / up : 0, 1000, 1);
		vs_col(y, x, buf);
	}
	if (descx > 0)
		vs_put(y, descx, COLS - descx, p->c->oneliner);
}

/* The cost view: TOTAL ms, RUNS, per run, TRUE %, then where. */
static void
vs_draw_cost(struct vs *vs, int y0)
{
	const struct vstat_cost *r;
	char buf[64];
	int rows, y, x;
	unsigned u;

	(void)attron(A_REVERSE);
	(void)mvhline(y0, 0, ' ', COLS);
	vs_col(y0, 0, "TOTAL ms");
	vs_col(y0, VS_COLW, "RUNS");
	vs_col(y0, 2 * VS_COLW, "us/RUN");
	vs_col(y0, 3 * VS_COLW, "TRUE %");
	vs_put(y0, 4 * VS_COLW + 1, COLS, "WHERE (costliest first)");
	(void)attroff(A_REVERSE);
	rows = LINES - y0 - 3;
	if (vs->csel < vs->ctop)
		vs->ctop = vs->csel;
	if (rows > 0 && vs->csel >= vs->ctop + (unsigned)rows)
		vs->ctop = vs->csel - (unsigned)rows + 1;
	if (vs->ncrow == 0)
		vs_put(y0 + 2, 2, COLS - 2, "No VCL profile: start veneerd "
		    "with -p vcl_profile=on (counters VCLP.*).");
	for (y = 0; y < rows && vs->ctop + (unsigned)y < vs->ncrow; y++) {
		u = vs->ctop + (unsigned)y;
		r = &vs->crow[u];
		if (u == vs->csel)
			(void)attron(A_BOLD | (vs->colors ? COLOR_PAIR(1) :
			    A_UNDERLINE));
		x = 0;
		vs_scaled(buf, sizeof buf, (double)r->ns * 1e-6, 1000, 1);
		vs_col(y0 + 1 + y, x, buf);
		x += VS_COLW;
		(void)snprintf(buf, sizeof buf, "%ju", (uintmax_t)r->runs);
		vs_col(y0 + 1 + y, x, buf);
		x += VS_COLW;
		buf[0] = '\0';
		if (r->runs > 0)
			(void)snprintf(buf, sizeof buf, "%.3f",
			    (double)r->ns * 1e-3 / (double)r->runs);
		vs_col(y0 + 1 + y, x, buf);
		x += VS_COLW;
		buf[0] = '\0';
		if (r->cond && r->runs > 0)
			(void)snprintf(buf, sizeof buf, "%.1f",
			    100. * (double)r->trues / (double)r->runs);
		vs_col(y0 + 1 + y, x, buf);
		x += VS_COLW + 1;
		vs_put(y0 + 1 + y, x, COLS - x, r->where != NULL ? r->where :
		    r->key);
		if (u == vs->csel)
			(void)attroff(A_BOLD | (vs->colors ? COLOR_PAIR(1) :
			    A_UNDERLINE));
	}
	if (vs->csel < vs->ncrow)
		vs_put(LINES - 2, 0, COLS, vs->crow[vs->csel].key);
	(void)attron(A_REVERSE);
	(void)mvhline(LINES - 1, 0, ' ', COLS);
	(void)snprintf(buf, sizeof buf, "VCL cost: %u rows  c counters  "
	    "q quit  arrows PgUp PgDn g G", vs->ncrow);
	vs_put(LINES - 1, 0, COLS, buf);
	(void)attroff(A_REVERSE);
	(void)refresh();
}

static void
vs_draw(struct vs *vs)
{
	int y0, rows, y, ncol, namew, descx;
	unsigned u;
	char buf[256];

	(void)erase();
	if (LINES < 5 || COLS < 20) {
		vs_put(0, 0, COLS, "veneerstat: terminal too small");
		(void)refresh();
		return;
	}
	y0 = 0;
	if (LINES >= 9) {
		vs_draw_head(vs);
		y0 = 3;
	}
	if (vs->cost) {
		vs_draw_cost(vs, y0);
		return;
	}
	vs_layout(vs, &ncol, &namew, &descx);
	(void)attron(A_REVERSE);
	(void)mvhline(y0, 0, ' ', COLS);
	vs_put(y0, 0, namew, "NAME");
	if (ncol >= 1)
		vs_col(y0, namew, "CURRENT");
	if (ncol >= 2)
		vs_col(y0, namew + VS_COLW, "CHANGE");
	if (ncol >= 3)
		vs_col(y0, namew + 2 * VS_COLW, "AVERAGE");
	if (descx > 0)
		vs_put(y0, descx, COLS - descx, "DESCRIPTION");
	(void)attroff(A_REVERSE);

	rows = LINES - y0 - 3;
	if (vs->sel < vs->top)
		vs->top = vs->sel;
	if (rows > 0 && vs->sel >= vs->top + (unsigned)rows)
		vs->top = vs->sel - (unsigned)rows + 1;
	for (y = 0; y < rows && vs->top + (unsigned)y < vs->nvis; y++) {
		u = vs->top + (unsigned)y;
		if (u == vs->sel)
			(void)attron(A_BOLD | (vs->colors ? COLOR_PAIR(1) :
			    A_UNDERLINE));
		vs_draw_row(vs, &vs->pt[vs->vis[u]], y0 + 1 + y, ncol, namew,
		    descx);
		if (u == vs->sel)
			(void)attroff(A_BOLD | (vs->colors ? COLOR_PAIR(1) :
			    A_UNDERLINE));
	}

	/* The selected counter in full, then the status line. */
	if (vs->sel < vs->nvis) {
		const struct vs_pt *p = &vs->pt[vs->vis[vs->sel]];

		(void)snprintf(buf, sizeof buf, "%s: %s", p->name,
		    p->c->oneliner);
		vs_put(LINES - 2, 0, COLS, buf);
	}
	(void)attron(A_REVERSE);
	(void)mvhline(LINES - 1, 0, ' ', COLS);
	if (!(vs->status & VAPI_MGT_RUNNING))
		(void)snprintf(buf, sizeof buf, "no veneerd running in %s; "
		    "waiting (q quits)", VAPI_Workdir(vs->vd));
	else
		(void)snprintf(buf, sizeof buf, "%u-%u/%u  verbosity %s  "
		    "q quit  v verbosity  c VCL cost  arrows PgUp PgDn g G",
		    vs->nvis == 0 ? 0 : vs->top + 1,
		    vs->top + (unsigned)(rows > 0 ? rows : 0) < vs->nvis ?
		    vs->top + (unsigned)(rows > 0 ? rows : 0) : vs->nvis,
		    vs->nvis, vs_levels[vs->verbosity]);
	vs_put(LINES - 1, 0, COLS, buf);
	(void)attroff(A_REVERSE);
	(void)refresh();
}

/*--------------------------------------------------------------------
 * Keys and the loop.
 */

static unsigned
vs_page(void)
{
	int rows = LINES - (LINES >= 9 ? 3 : 0) - 3;

	return (rows > 1 ? (unsigned)rows : 1);
}

/* Moving in the cost view. */
static int
vs_key_cost(struct vs *vs, int ch)
{
	unsigned last = vs->ncrow > 0 ? vs->ncrow - 1 : 0;

	switch (ch) {
	case KEY_UP:
	case 'k':
		if (vs->csel > 0)
			vs->csel--;
		break;
	case KEY_DOWN:
	case 'j':
		if (vs->csel < last)
			vs->csel++;
		break;
	case KEY_PPAGE:
	case 'b':
		vs->csel = vs->csel > vs_page() ? vs->csel - vs_page() : 0;
		break;
	case KEY_NPAGE:
	case ' ':
		vs->csel = vs->csel + vs_page() < last ?
		    vs->csel + vs_page() : last;
		break;
	case KEY_HOME:
	case 'g':
		vs->csel = 0;
		break;
	case KEY_END:
	case 'G':
		vs->csel = last;
		break;
	default:
		break;
	}
	return (0);
}

/* 1 to quit. */
static int
vs_key(struct vs *vs, int ch)
{
	unsigned last = vs->nvis > 0 ? vs->nvis - 1 : 0;
	char *keep;

	if (ch == 'c') {
		/* Another screen altogether: paint it whole. */
		(void)clearok(curscr, TRUE);
		vs->cost = !vs->cost;
		if (vs->cost) {
			VSTAT_CostFree(vs->crow, vs->ncrow);
			vs->ncrow = VSTAT_Cost(vs->vd, &vs->crow);
			vs->csel = vs->ctop = 0;
		}
		return (0);
	}
	if (vs->cost && ch != 'q' && ch != 'Q' && ch != 12 &&
	    ch != KEY_RESIZE)
		return (vs_key_cost(vs, ch));
	switch (ch) {
	case 'q':
	case 'Q':
		return (1);
	case KEY_UP:
	case 'k':
		if (vs->sel > 0)
			vs->sel--;
		break;
	case KEY_DOWN:
	case 'j':
		if (vs->sel < last)
			vs->sel++;
		break;
	case KEY_PPAGE:
	case 'b':
		vs->sel = vs->sel > vs_page() ? vs->sel - vs_page() : 0;
		break;
	case KEY_NPAGE:
	case ' ':
		vs->sel = vs->sel + vs_page() < last ? vs->sel + vs_page() :
		    last;
		break;
	case KEY_HOME:
	case 'g':
		vs->sel = 0;
		break;
	case KEY_END:
	case 'G':
		vs->sel = last;
		break;
	case 'v':
		vs->verbosity = (vs->verbosity + 1) % 3;
		keep = vs->sel < vs->nvis ?
		    strdup(vs->pt[vs->vis[vs->sel]].name) : NULL;
		vs_visible(vs, keep);
		free(keep);
		break;
	case 12:			/* ^L */
	case KEY_RESIZE:		/* ncurses has the new LINES, COLS */
		/* Paint everything again, not just what changed. */
		(void)clearok(curscr, TRUE);
		break;
	default:
		break;
	}
	return (0);
}

static int
vs_init_screen(struct vs *vs)
{
	struct sigaction sa;

	/* Ours before ncurses', so a signal ends the loop cleanly. */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = vs_sig;
	(void)sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGINT, &sa, NULL);
	(void)sigaction(SIGTERM, &sa, NULL);
	(void)sigaction(SIGHUP, &sa, NULL);
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
		fprintf(stderr, "veneerstat: the screen needs a terminal; "
		    "use -1, -j or -p for output to a file or pipe\n");
		return (-1);
	}
	vs->screen = newterm(NULL, stdout, stdin);
	if (vs->screen == NULL) {
		fprintf(stderr, "veneerstat: cannot use the terminal "
		    "(TERM=%s); set TERM, or use -1, -j or -p\n",
		    getenv("TERM") != NULL ? getenv("TERM") : "");
		return (-1);
	}
	/* "dumb" and the like: the screen would be a smear of blanks. */
	if (tigetstr("cup") == NULL || tigetstr("cup") == (char *)-1) {
		(void)endwin();
		delscreen(vs->screen);
		vs->screen = NULL;
		fprintf(stderr, "veneerstat: the terminal (TERM=%s) cannot "
		    "move the cursor; set TERM, or use -1, -j or -p\n",
		    getenv("TERM") != NULL ? getenv("TERM") : "");
		return (-1);
	}
	(void)cbreak();
	(void)noecho();
	(void)nonl();
	(void)intrflush(stdscr, FALSE);
	(void)keypad(stdscr, TRUE);
	(void)curs_set(0);		/* May fail: not all terminals can. */
	if (has_colors() && start_color() == OK) {
		(void)use_default_colors();
		vs->colors = init_pair(1, COLOR_CYAN, -1) == OK;
	}
	return (0);
}

int
VSTAT_Curses(struct vapi *vd)
{
	struct vs *vs;
	double next, left;
	int ch, quit = 0;

	ALLOC_OBJ(vs, VS_MAGIC);
	if (vs == NULL) {
		fprintf(stderr, "veneerstat: out of memory\n");
		return (VSTAT_EXIT_DAEMON);
	}
	vs->vd = vd;
	if (vs_init_screen(vs) != 0) {
		FREE_OBJ(vs);
		return (VSTAT_EXIT_USAGE);
	}
	vs->t_sample = vs_now();
	vs_rebuild(vs);
	vs_sample(vs);
	next = vs->t_sample + 1;
	while (!quit && !vs_stop) {
		vs_draw(vs);
		left = next - vs_now();
		timeout(left <= 0 ? 0 : left >= 1 ? 1000 : (int)(left * 1000));
		ch = getch();
		if (ch != ERR)
			quit = vs_key(vs, ch);
		if (vs_now() >= next) {
			vs_sample(vs);
			next += 1;
			if (next < vs_now())
				next = vs_now() + 1;	/* We were stopped. */
		}
	}
	(void)endwin();
	delscreen(vs->screen);
	vs_free_pts(vs->pt, vs->npt);
	free(vs->vis);
	VSTAT_CostFree(vs->crow, vs->ncrow);
	FREE_OBJ(vs);
	return (VSTAT_EXIT_OK);
}

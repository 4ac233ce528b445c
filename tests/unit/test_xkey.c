/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * test_xkey.c -- the surrogate key index (src/cache/xkey.c): the tag
 * splitter on hostile input, a random insert/remove/purge walk checked
 * against a plain model (which objects each tag set finds, the gauges,
 * the store's bytes), and an index racing a remove and purges.
 */

#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "common/miniobj.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/storage.h"
#include "cache/vsc.h"
#include "cache/xkey.h"

static struct vsc_sma test_sma;
static struct stevedore test_stv;
static struct vsc_worker test_stats;
static struct worker test_wrk;

static void
setup(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	INIT_OBJ(&test_stv, STEVEDORE_MAGIC);
	(void)snprintf(test_stv.name, sizeof test_stv.name, "test");
	test_stv.limit = UINT64_MAX;
	test_stv.vsc = &test_sma;
	INIT_OBJ(&test_stats, VSC_WORKER_MAGIC);
	INIT_OBJ(&test_wrk, WORKER_MAGIC);
	test_wrk.stats = &test_stats;
	XKEY_Init();
}

/* The splitter ------------------------------------------------------*/

struct split {
	char	out[512];
	size_t	len;
	int	stop_at;
	int	n;
};

static int
split_one(void *priv, const char *tag, size_t len)
{
	struct split *s = priv;

	ck_assert_uint_gt(len, 0);
	ck_assert_ptr_null(memchr(tag, ' ', len));
	ck_assert_ptr_null(memchr(tag, ',', len));
	ck_assert_ptr_null(memchr(tag, '\t', len));
	s->len += (size_t)snprintf(s->out + s->len, sizeof s->out - s->len,
	    "[%.*s]", (int)len, tag);
	return (++s->n == s->stop_at ? 7 : 0);
}

static const struct {
	const char	*in;
	size_t		len;
	const char	*want;
} split_cases[] = {
	{ "", 0, "" },
	{ "a", 1, "[a]" },
	{ "  a  b ", 7, "[a][b]" },
	{ ",,a,,b,,", 8, "[a][b]" },
	{ "a,b c\td", 7, "[a][b][c][d]" },
	{ " \t, ", 4, "" },
	{ "a\0b", 3, "[a][b]" },		/* a NUL separates */
	{ "caf\xc3\xa9 \xff\xfe", 8, "[caf\xc3\xa9][\xff\xfe]" },
	{ "x;y=z/\"q\"", 9, "[x;y=z/\"q\"]" },
	{ "ab", 1, "[a]" },			/* len, not the NUL */
};

START_TEST(split_table)
{
	struct split s;
	unsigned u;

	for (u = 0; u < sizeof split_cases / sizeof split_cases[0]; u++) {
		memset(&s, 0, sizeof s);
		ck_assert_int_eq(XKEY_Split(split_cases[u].in,
		    split_cases[u].len, split_one, &s), 0);
		ck_assert_msg(!strcmp(s.out, split_cases[u].want),
		    "case %u: got %s, want %s", u, s.out, split_cases[u].want);
	}
	memset(&s, 0, sizeof s);
	s.stop_at = 2;
	ck_assert_int_eq(XKEY_Split("a b c", 5, split_one, &s), 7);
	ck_assert_str_eq(s.out, "[a][b]");
}
END_TEST

/* The model ---------------------------------------------------------*/

#define NOBJ	48
#define NTAG	12

/* Prefixes of each other on purpose: t1, t10, t11. */
static const char * const tag_names[NTAG] = {
	"t0", "t1", "t10", "t11", "a", "ab", "abc", "b", "caf\xc3\xa9",
	"x;y", "Z", "z",
};

struct mobj {
	struct objcore		*oc;
	unsigned		tags;		/* bit per tag_names[] */
};

static struct mobj mobjs[NOBJ];
static unsigned total_found;		/* the walk purged something */

static uint32_t rnd_state = 12345;

static unsigned
rnd(unsigned n)
{

	rnd_state = rnd_state * 1103515245U + 12345U;
	return ((rnd_state >> 8) % n);
}

/* A header value for tags, with random separators and repeats. */
static void
make_value(char *buf, size_t size, unsigned tags)
{
	static const char * const seps[] = { " ", ",", " , ", "\t", ",,",
	    "  " };
	size_t l = 0;
	unsigned u;

	buf[0] = '\0';
	for (u = 0; u < NTAG; u++) {
		if (!(tags & (1U << u)))
			continue;
		l += (size_t)snprintf(buf + l, size - l, "%s%s",
		    seps[rnd(6)], tag_names[u]);
		if (rnd(4) == 0)	/* repeated: still one link */
			l += (size_t)snprintf(buf + l, size - l, " %s",
			    tag_names[u]);
	}
}

static void
check_gauges(void)
{
	unsigned u, t, links = 0, used = 0;

	for (u = 0; u < NOBJ; u++) {
		if (mobjs[u].oc == NULL)
			continue;
		links += (unsigned)__builtin_popcount(mobjs[u].tags);
		used |= mobjs[u].tags;
	}
	ck_assert_uint_eq(VSC_C_main->n_xkey_oc, links);
	t = (unsigned)__builtin_popcount(used);
	ck_assert_uint_eq(VSC_C_main->n_xkey, t);
	if (links == 0)
		ck_assert_uint_eq(test_stv.used, 0);
}

static void
m_insert(unsigned i)
{
	char v1[256], v2[256];
	const char *vals[2] = { v1, v2 };
	unsigned tags = rnd(1U << NTAG), split;

	ck_assert_ptr_null(mobjs[i].oc);
	mobjs[i].oc = OBJ_NewCore();
	ck_assert_ptr_nonnull(mobjs[i].oc);
	mobjs[i].tags = tags;
	/* Two headers, the tags shared out between them. */
	split = rnd(1U << NTAG);
	make_value(v1, sizeof v1, tags & split);
	make_value(v2, sizeof v2, tags & ~split);
	XKEY_Index(&test_wrk, mobjs[i].oc, &test_stv, vals, 2);
}

static void
m_remove(unsigned i)
{

	XKEY_Remove(mobjs[i].oc);
	ck_assert_uint_eq(OBJ_Deref(&mobjs[i].oc), 0);
	mobjs[i].oc = NULL;
	mobjs[i].tags = 0;
}

struct found {
	struct objcore	*oc[NOBJ];
	unsigned	n;
};

static void
found_one(void *priv, struct objcore *oc)
{
	struct found *f = priv;
	unsigned u;

	for (u = 0; u < f->n; u++)
		ck_assert_msg(f->oc[u] != oc, "an object found twice");
	ck_assert_uint_lt(f->n, NOBJ);
	f->oc[f->n++] = oc;
}

static void
m_purge(void)
{
	char v[256];
	struct found f;
	unsigned want = rnd(1U << NTAG), u, k, n = 0;

	make_value(v, sizeof v, want);
	if (rnd(3) == 0)	/* a tag nobody has, a prefix of one */
		(void)snprintf(v + strlen(v), sizeof v - strlen(v), " t ca");
	f.n = 0;
	ck_assert_uint_eq(XKEY_Each(v, found_one, &f), f.n);
	for (u = 0; u < NOBJ; u++) {
		if (mobjs[u].oc == NULL)
			continue;
		for (k = 0; k < f.n && f.oc[k] != mobjs[u].oc; k++)
			continue;
		ck_assert_msg((k < f.n) == ((mobjs[u].tags & want) != 0),
		    "purge \"%s\": object %u (tags %x) %s", v, u,
		    mobjs[u].tags, k < f.n ? "found" : "missed");
		if (k < f.n) {
			n++;
			m_remove(u);	/* as the kill would */
		}
	}
	ck_assert_uint_eq(n, f.n);
	total_found += n;
}

START_TEST(random_walk_against_model)
{
	unsigned step, i;

	setup();
	for (step = 0; step < 20000; step++) {
		i = rnd(NOBJ);
		switch (rnd(5)) {
		case 0: case 1:
			if (mobjs[i].oc == NULL)
				m_insert(i);
			break;
		case 2:
			if (mobjs[i].oc != NULL)
				m_remove(i);
			break;
		default:
			m_purge();
			break;
		}
		if (step % 64 == 0)
			check_gauges();
	}
	for (i = 0; i < NOBJ; i++)
		if (mobjs[i].oc != NULL)
			m_remove(i);
	check_gauges();
	ck_assert_uint_eq(test_stv.used, 0);
	ck_assert_uint_gt(total_found, 1000);
}
END_TEST

START_TEST(limits_counted)
{
	char *big;
	const char *vals[1];
	struct objcore *oc;
	struct found f;
	uint64_t dropped;
	size_t l = 0;
	unsigned u;

	setup();
	big = malloc(XKEY_TAG_MAX + 8 + 400 * 8);
	ck_assert_ptr_nonnull(big);
	memset(big, 'L', XKEY_TAG_MAX + 1);
	l = XKEY_TAG_MAX + 1;
	for (u = 0; u < 300; u++)
		l += (size_t)snprintf(big + l, 16, " k%u", u);
	vals[0] = big;
	dropped = VSC_C_main->xkey_dropped;
	oc = OBJ_NewCore();
	XKEY_Index(&test_wrk, oc, &test_stv, vals, 1);
	ck_assert_uint_eq(VSC_C_main->xkey_dropped - dropped,
	    1 + 300 - XKEY_OBJ_MAX);
	ck_assert_uint_eq(VSC_C_main->n_xkey_oc, XKEY_OBJ_MAX);
	/* The first XKEY_OBJ_MAX short ones are in, the rest are not. */
	f.n = 0;
	ck_assert_uint_eq(XKEY_Each("k0 k255", found_one, &f), 1);
	f.n = 0;
	ck_assert_uint_eq(XKEY_Each("k256 k299", found_one, &f), 0);
	XKEY_Remove(oc);
	(void)OBJ_Deref(&oc);
	ck_assert_uint_eq(VSC_C_main->n_xkey_oc, 0);
	ck_assert_uint_eq(VSC_C_main->n_xkey, 0);
	ck_assert_uint_eq(test_stv.used, 0);
	free(big);
}
END_TEST

/* Remove before the index is done: the index undoes itself. */
START_TEST(remove_before_index)
{
	const char *vals[1] = { "late early" };
	struct objcore *oc;

	setup();
	oc = OBJ_NewCore();
	XKEY_Remove(oc);
	XKEY_Index(&test_wrk, oc, &test_stv, vals, 1);
	ck_assert_uint_eq(VSC_C_main->n_xkey_oc, 0);
	ck_assert_uint_eq(XKEY_Each("late", found_one,
	    &(struct found){ .n = 0 }), 0);
	(void)OBJ_Deref(&oc);
	ck_assert_uint_eq(test_stv.used, 0);
}
END_TEST

/* Threads: index and remove racing purges that find them. */
static volatile int race_stop;

static void
race_touch(void *priv, struct objcore *oc)
{

	(void)priv;
	/* A found object is alive: its magic holds (ASan: not freed). */
	CHECK_OBJ(oc, OBJCORE_MAGIC);
}

static void *
race_purger(void *priv)
{

	(void)priv;
	while (!race_stop)
		(void)XKEY_Each("r0 r1 r2 r3", race_touch, NULL);
	return (NULL);
}

static void *
race_indexer(void *priv)
{
	static const char * const v[] = { "r0 r1", "r2", "r3 r0", "r1" };
	struct worker wrk;
	struct vsc_worker stats;
	struct objcore *oc;
	unsigned u, seed = (unsigned)(uintptr_t)priv;
	const char *vals[1];

	INIT_OBJ(&stats, VSC_WORKER_MAGIC);
	INIT_OBJ(&wrk, WORKER_MAGIC);
	wrk.stats = &stats;
	for (u = 0; u < 20000; u++) {
		oc = OBJ_NewCore();
		vals[0] = v[(u + seed) % 4];
		XKEY_Index(&wrk, oc, &test_stv, vals, 1);
		XKEY_Remove(oc);
		(void)OBJ_Deref(&oc);
	}
	return (NULL);
}

START_TEST(race_index_remove_purge)
{
	pthread_t p, i1, i2;

	setup();
	race_stop = 0;
	ck_assert_int_eq(pthread_create(&p, NULL, race_purger, NULL), 0);
	ck_assert_int_eq(pthread_create(&i1, NULL, race_indexer,
	    (void *)(uintptr_t)1), 0);
	ck_assert_int_eq(pthread_create(&i2, NULL, race_indexer,
	    (void *)(uintptr_t)2), 0);
	ck_assert_int_eq(pthread_join(i1, NULL), 0);
	ck_assert_int_eq(pthread_join(i2, NULL), 0);
	race_stop = 1;
	ck_assert_int_eq(pthread_join(p, NULL), 0);
	ck_assert_uint_eq(VSC_C_main->n_xkey_oc, 0);
	ck_assert_uint_eq(VSC_C_main->n_xkey, 0);
	ck_assert_uint_eq(test_stv.used, 0);
}
END_TEST

static Suite *
xkey_suite(void)
{
	Suite *s = suite_create("xkey");
	TCase *tc = tcase_create("xkey");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, split_table);
	tcase_add_test(tc, random_walk_against_model);
	tcase_add_test(tc, limits_counted);
	tcase_add_test(tc, remove_before_index);
	tcase_add_test(tc, race_index_remove_purge);
	suite_add_tcase(s, tc);
	return (s);
}

int
main(void)
{
	SRunner *sr;
	int nf;

	sr = srunner_create(xkey_suite());
	/* One process: the index is global, as in the child. */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return (nf == 0 ? 0 : 1);
}

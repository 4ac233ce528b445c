/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * fuzz_xkey.c -- the surrogate key splitter and index (what a backend's
 * Surrogate-Key and xkey headers feed, and what purge.key takes).  The
 * input is split (every tag non-empty, free of separators, inside the
 * input, in order), indexed as an object's header value, found again
 * by purging with the same text exactly when one of its tags is short
 * enough to be indexed, and removed, leaving the index and the store's
 * bytes as they were.
 */

#include "config.h"

#include "common/miniobj.h"
#include "cache/obj.h"
#include "cache/pool.h"
#include "cache/storage.h"
#include "cache/vsc.h"
#include "cache/xkey.h"
#include "tests/fuzz/fuzz.h"

static struct vsc_sma fuzz_sma;
static struct stevedore fuzz_stv;
static struct vsc_worker fuzz_stats;
static struct worker fuzz_wrk;

struct fuzz_split {
	const char	*s;
	size_t		len;
	const char	*last;		/* end of the previous tag */
	unsigned	n;
	unsigned	short_ones;	/* indexable */
};

static int
fuzz_tag(void *priv, const char *tag, size_t len)
{
	struct fuzz_split *f = priv;
	size_t u;

	assert(len > 0);
	assert(tag >= f->last && tag + len <= f->s + f->len);
	for (u = 0; u < len; u++)
		assert(tag[u] != ' ' && tag[u] != '\t' && tag[u] != ',' &&
		    tag[u] != '\0');
	/* Only separators between two tags. */
	for (u = 0; f->last + u < tag; u++) {
		char c = f->last[u];

		assert(c == ' ' || c == '\t' || c == ',' || c == '\0');
	}
	f->last = tag + len;
	f->n++;
	if (len <= XKEY_TAG_MAX)
		f->short_ones++;
	return (0);
}

static void
fuzz_found(void *priv, struct objcore *oc)
{
	struct objcore **want = priv;

	assert(oc == *want);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{

	(void)argc;
	(void)argv;
	INIT_OBJ(&fuzz_stv, STEVEDORE_MAGIC);
	fuzz_stv.limit = UINT64_MAX;
	fuzz_stv.vsc = &fuzz_sma;
	INIT_OBJ(&fuzz_stats, VSC_WORKER_MAGIC);
	INIT_OBJ(&fuzz_wrk, WORKER_MAGIC);
	fuzz_wrk.stats = &fuzz_stats;
	XKEY_Init();
	return (0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_split f;
	struct objcore *oc;
	const char *vals[1];
	unsigned n;
	char *s;

	/* The splitter sees every byte, NULs included. */
	memset(&f, 0, sizeof f);
	f.s = (const char *)data;
	f.len = size;
	f.last = f.s;
	(void)XKEY_Split(f.s, size, fuzz_tag, &f);
	for (; f.last < f.s + size; f.last++)
		assert(*f.last == ' ' || *f.last == '\t' || *f.last == ',' ||
		    *f.last == '\0');

	/* A header value ends at its NUL. */
	s = fuzz_cstr(data, size);
	memset(&f, 0, sizeof f);
	f.s = s;
	f.len = strlen(s);
	f.last = s;
	(void)XKEY_Split(s, f.len, fuzz_tag, &f);
	oc = OBJ_NewCore();
	assert(oc != NULL);
	vals[0] = s;
	XKEY_Index(&fuzz_wrk, oc, &fuzz_stv, vals, 1);
	assert(VSC_C_main->n_xkey_oc <= XKEY_OBJ_MAX);
	n = XKEY_Each(s, fuzz_found, &oc);
	assert(n == (f.short_ones > 0));
	XKEY_Remove(oc);
	assert(XKEY_Each(s, fuzz_found, &oc) == 0);
	(void)OBJ_Deref(&oc);
	assert(VSC_C_main->n_xkey_oc == 0 && VSC_C_main->n_xkey == 0);
	assert(fuzz_stv.used == 0);
	free(s);
	return (0);
}

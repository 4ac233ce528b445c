/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * miniobj.h -- magic-checked structs.  Every struct starts with an
 * "unsigned magic" set at allocation and cleared at release, so a stale or
 * corrupt pointer fails a check instead of corrupting memory.
 */

#ifndef VENEER_MINIOBJ_H
#define VENEER_MINIOBJ_H

#include <stdlib.h>
#include <string.h>

#include "common/vas.h"

#define ZERO_OBJ(p, sz)		(void)memset(p, 0, sz)

#define INIT_OBJ(p, m)							\
	do {								\
		ZERO_OBJ(p, sizeof *(p));				\
		(p)->magic = (m);					\
	} while (0)

#define FINI_OBJ(p)							\
	do {								\
		ZERO_OBJ(&(p)->magic, sizeof (p)->magic);		\
		(p) = NULL;						\
	} while (0)

/* calloc + magic; leaves (p) NULL on allocation failure. */
#define ALLOC_OBJ(p, m)							\
	do {								\
		(p) = calloc(1, sizeof *(p));				\
		if ((p) != NULL)					\
			(p)->magic = (m);				\
	} while (0)

/* Like ALLOC_OBJ with extra bytes after the struct. */
#define ALLOC_OBJ_EXTRA(p, x, m)					\
	do {								\
		(p) = calloc(1, sizeof *(p) + (x));			\
		if ((p) != NULL)					\
			(p)->magic = (m);				\
	} while (0)

#define FREE_OBJ(p)							\
	do {								\
		ZERO_OBJ(&(p)->magic, sizeof (p)->magic);		\
		free(p);						\
		(p) = NULL;						\
	} while (0)

#define VALID_OBJ(p, m)		((p) != NULL && (p)->magic == (m))

#define CHECK_OBJ(p, m)							\
	do {								\
		assert((p) != NULL);					\
		assert((p)->magic == (m));				\
	} while (0)

#define CHECK_OBJ_NOTNULL(p, m)		CHECK_OBJ(p, m)

#define CHECK_OBJ_ORNULL(p, m)						\
	do {								\
		if ((p) != NULL)					\
			assert((p)->magic == (m));			\
	} while (0)

#define CAST_OBJ(to, from, m)						\
	do {								\
		(to) = (from);						\
		if ((to) != NULL)					\
			CHECK_OBJ((to), (m));				\
	} while (0)

#define CAST_OBJ_NOTNULL(to, from, m)					\
	do {								\
		(to) = (from);						\
		CHECK_OBJ((to), (m));					\
	} while (0)

/* Take ownership: copy *pp into to and NULL the caller's pointer. */
#define TAKE_OBJ_NOTNULL(to, pp, m)					\
	do {								\
		assert((pp) != NULL);					\
		(to) = *(pp);						\
		*(pp) = NULL;						\
		CHECK_OBJ((to), (m));					\
	} while (0)

#define TAKE_OBJ_ORNULL(to, pp, m)					\
	do {								\
		assert((pp) != NULL);					\
		(to) = *(pp);						\
		*(pp) = NULL;						\
		CHECK_OBJ_ORNULL((to), (m));				\
	} while (0)

#define ARRAY_SIZE(a)		(sizeof (a) / sizeof (a)[0])

#endif /* VENEER_MINIOBJ_H */

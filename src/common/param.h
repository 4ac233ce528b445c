/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * param.h -- run-time parameters, generated from include/params.h.
 *
 * The manager owns the values: it maps them shared before forking the
 * child, which maps them read-only, so a change made in the manager is
 * seen by the child at once without a message.  Readers take no lock:
 * each value is one aligned word.
 */

#ifndef VENEER_PARAM_H
#define VENEER_PARAM_H

#include <stddef.h>
#include <stdint.h>

#define PARAM_F_RESTART		(1U << 0)
#define PARAM_F_NCPU		(1U << 1)
#define PARAM_F_POOL		(1U << 2)

/*
 * Parts of the workspaces PARAM_Check makes room for: the transaction's
 * log buffer (vsl_buffer), and for clients room to read body bytes after
 * the largest request head; then at least PARAM_WS_MIN_FREE for headers
 * and VCL.
 */
#define PARAM_WS_RX_BODY_ROOM	(16U * 1024U)
#define PARAM_WS_MIN_FREE	(8U * 1024U)

enum param_type {
	PARAM_TIMEOUT,
	PARAM_BYTES,
	PARAM_UINT,
	PARAM_BOOL,
	PARAM_STRING,
	PARAM_DOUBLE,	/* a plain number, no unit */
	PARAM_BITS,	/* named bits: include/param_bits.h */
};

/* A string parameter lives in the shared struct, not behind a pointer. */
#define PARAM_STRING_MAX	512
struct param_string {
	char		s[PARAM_STRING_MAX];
};

#define PARAM_CTYPE_TIMEOUT	double
#define PARAM_CTYPE_BYTES	uint64_t
#define PARAM_CTYPE_UINT	unsigned
#define PARAM_CTYPE_BOOL	unsigned
#define PARAM_CTYPE_STRING	struct param_string
#define PARAM_CTYPE_DOUBLE	double
#define PARAM_CTYPE_BITS	uint64_t

/* The bits of debug, feature and experimental; bit n is (1 << n). */
enum param_debug_bit {
#define PARAM_DEBUG_BIT(U, l, d)	PARAM_DEBUG_##U,
#include "param_bits.h"
	PARAM_DEBUG__MAX
};
enum param_feature_bit {
#define PARAM_FEATURE_BIT(U, l, d)	PARAM_FEATURE_##U,
#include "param_bits.h"
	PARAM_FEATURE__MAX
};
enum param_experimental_bit {
#define PARAM_EXPERIMENTAL_BIT(U, l, d)	PARAM_EXPERIMENTAL_##U,
#include "param_bits.h"
	PARAM_EXPERIMENTAL__MAX
};

/* A named bit of a PARAM_BITS parameter, for display. */
struct param_bit {
	const char	*name;
	const char	*doc;
};

struct params {
	unsigned	magic;
#define PARAMS_MAGIC	0x5c0e9b7d
#define PARAM(nm, ty, un, de, mi, ma, fl, doc)	PARAM_CTYPE_##ty nm;
#include "params.h"
};

struct param_desc {
	const char	*name;
	enum param_type	type;
	const char	*units;
	const char	*def;
	const char	*min;
	const char	*max;
	unsigned	flags;
	const char	*doc;
	size_t		offset;
};

/* The live values; const after PARAM_Init for everyone but PARAM_Set. */
extern const struct params *cache_param;

/*
 * Is a bit of debug, feature or experimental set?  One load: cheap enough
 * for the request path.  Before PARAM_Init (tools, unit tests): no.
 */
static inline int
PARAM_HasDebug(enum param_debug_bit bit)
{

	return (cache_param != NULL && ((cache_param->debug >> bit) & 1));
}

static inline int
PARAM_HasFeature(enum param_feature_bit bit)
{

	return (cache_param != NULL && ((cache_param->feature >> bit) & 1));
}

static inline int
PARAM_HasExperimental(enum param_experimental_bit bit)
{

	return (cache_param != NULL && ((cache_param->experimental >> bit) & 1));
}

/* Map the values shared and set every default.  Called once. */
void PARAM_Init(void);

/* Child side: make the shared values read-only for this process. */
void PARAM_Protect(void);

/*
 * Set a parameter from text.  Returns 0, or -1 with a message naming the
 * parameter, the value and the allowed range in err.  A PARAM_BITS value
 * is a comma-separated list of +name (set), -name (clear), none (clear
 * all) and default, applied in order to the current bits, as varnishd
 * does: "+vtc_mode" keeps the other bits.
 */
int PARAM_Set(const char *name, const char *value, char *err, size_t errlen);
/*
 * Put back a value PARAM_Format showed (undoing a failed change): a
 * PARAM_BITS value is then the whole set, not a change to it.
 */
int PARAM_Restore(const char *name, const char *shown, char *err,
    size_t errlen);

/* Checks across parameters (min <= max ...); 0 or -1 with err. */
int PARAM_Check(char *err, size_t errlen);

const struct param_desc *PARAM_Lookup(const char *name);
const struct param_desc *PARAM_Table(unsigned *n);
/* A PARAM_BITS parameter's bits, in bit order; NULL for other types. */
const struct param_bit *PARAM_Bits(const struct param_desc *pd, unsigned *n);

/*
 * The current value in the parameter's syntax.  Bits show as varnishd
 * shows them: the set ones as "+a,+b" in bit order, or "none".
 */
void PARAM_Format(const struct param_desc *pd, char *buf, size_t len);
/* The default, formatted the same way (so the two compare). */
void PARAM_FormatDefault(const struct param_desc *pd, char *buf, size_t len);
/* Back to the default; 0, or -1 with err (an unknown name). */
int PARAM_Reset(const char *name, char *err, size_t errlen);

/* `veneerd -x params`: the table as man page source. */
void PARAM_DumpRoff(void);

#endif /* VENEER_PARAM_H */

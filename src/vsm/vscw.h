/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vscw.h -- publishing a group of counters as Varnish 7.1 lays them out:
 * a "Stat" segment (a small head, then the uint64_t values) and a
 * "StatDoc" segment holding the JSON that names and describes each one,
 * so any reader (ours or Varnish's) can show counters it was not built
 * with.  See doc/vsm-format.md.
 */

#ifndef VENEER_VSM_VSCW_H
#define VENEER_VSM_VSCW_H

#include <stdint.h>

struct vsmw;

/* One counter of a group, from a VSC_FIELD table. */
struct vscw_desc {
	const char	*name;		/* "client_req" */
	const char	*type;		/* "counter", "gauge" */
	const char	*level;		/* "info", "diag", "debug" */
	const char	*format;	/* "integer", "bytes", "duration"... */
	const char	*oneliner;
};

/*
 * A table's row as a descriptor, the words the JSON uses for each
 * column's values.  The one expansion of a VSC_FIELD table:
 *
 *	static const struct vscw_desc desc[] = {
 *	#define VSC_FIELD VSCW_DESC
 *	#include "vsc_fields.h"
 *	};
 */
#define VSCW_TYPE_COUNTER	"counter"
#define VSCW_TYPE_GAUGE		"gauge"
#define VSCW_LEVEL_INFO		"info"
#define VSCW_LEVEL_DIAG		"diag"
#define VSCW_LEVEL_DEBUG	"debug"
#define VSCW_FORMAT_INTEGER	"integer"
#define VSCW_FORMAT_BYTES	"bytes"
#define VSCW_FORMAT_DURATION	"duration"
#define VSCW_FORMAT_BITMAP	"bitmap"
#define VSCW_DESC(n, t, l, f, d)					\
	{ #n, VSCW_TYPE_##t, VSCW_LEVEL_##l, VSCW_FORMAT_##f, d },

/*
 * Publish n counters under ident ("MAIN", "MGT", "VBE.boot.default"),
 * described as group name (lowercase, "main") with a one-line summary.
 * Returns the values (zeroed, n uint64_t), or NULL if the segments
 * could not be made.
 */
uint64_t *VSCW_New(struct vsmw *vsmw, const char *ident, const char *name,
    const char *oneliner, const struct vscw_desc *desc, unsigned n);
/* Take a group's segments away (a backend deleted...). */
void VSCW_Delete(struct vsmw *vsmw, uint64_t **valp);

#endif /* VENEER_VSM_VSCW_H */

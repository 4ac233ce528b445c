/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * ncsa.h -- veneerncsa's log line formats: parsing a format string (-F,
 * -f) and rendering one line from a transaction.  Apart from the tool so
 * tests/unit/test_ncsa_format.c can drive it with hand-made
 * transactions.
 */

#ifndef VENEER_TOOLS_NCSA_H
#define VENEER_TOOLS_NCSA_H

#include <stddef.h>

#include "vapi.h"

/* NCSA combined, as varnishncsa prints it by default. */
#define NCSA_DEFAULT_FORMAT \
	"%h %l %u %t \"%r\" %s %b \"%{Referer}i\" \"%{User-agent}i\""

struct ncsa_format;

/*
 * Compile a format; NULL with a message in err ("unknown format code %Z
 * at column 5", ...).
 */
struct ncsa_format *NCSA_New(const char *fmt, char *err, size_t errlen);
void	NCSA_Free(struct ncsa_format **);

/* A growable output line. */
struct ncsa_buf {
	char		*b;
	size_t		len;
	size_t		cap;
};

void	NCSA_BufFini(struct ncsa_buf *);

#define NCSA_JSON	(1U << 0)	/* -j: JSON-safe escapes, "" for - */
/*
 * Both -b and -c: use records without a client or backend marker too
 * (varnishncsa does so then, and ignores them otherwise).
 */
#define NCSA_ANYSIDE	(1U << 1)

/*
 * Render tx as one line (no newline) into buf, replacing its contents.
 * 1 if there is a line, 0 if this transaction makes none (not a client
 * or backend request, an ESI subrequest, a restart, or no Start
 * timestamp for a format with times), -1 if out of memory.  Times are
 * shown in local time.
 */
int	NCSA_Render(const struct ncsa_format *, const struct vapi_tx *tx,
	    unsigned flags, struct ncsa_buf *buf);

#endif /* VENEER_TOOLS_NCSA_H */

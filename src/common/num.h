/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * num.h -- numbers as operators write them: durations ("10s", "1.5m",
 * "250ms"), sizes ("64k", "1G", "512b"), counts and booleans.  Each parser
 * returns NULL on success or a static message saying what is wrong.
 */

#ifndef VENEER_NUM_H
#define VENEER_NUM_H

#include <stdint.h>

/* Duration in seconds; a bare number is seconds.  ms s m h d w y. */
const char *NUM_ParseDuration(const char *s, double *out);

/* Size in bytes; a bare number is bytes.  b k m g t p, 1024-based. */
const char *NUM_ParseBytes(const char *s, uint64_t *out);

/* Unsigned decimal integer, at most UINT_MAX. */
const char *NUM_ParseUint(const char *s, unsigned *out);

/* on/off, true/false, yes/no, enable/disable, 1/0. */
const char *NUM_ParseBool(const char *s, unsigned *out);

/* Shortest readable form: 65536 -> "64k", 1.5 * 2^30 -> "1.5G". */
void NUM_FormatBytes(uint64_t v, char *buf, unsigned len);

#endif /* VENEER_NUM_H */

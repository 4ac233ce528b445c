/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_directors.h -- what the directors module's files share.
 */

#ifndef VENEER_CACHE_VMOD_DIRECTORS_H
#define VENEER_CACHE_VMOD_DIRECTORS_H

#include <stdint.h>

#include "vrt.h"

/*
 * Varnish's hash of strands (VRT_HashStrands32): the SHA-256 of the
 * non-empty strings, its last four bytes read little-endian.  The hash
 * director's picks and the shard director's ring and keys depend on it
 * bit for bit.
 */
uint32_t VDIR_HashStrands32(VCL_STRANDS s);

#endif /* VENEER_CACHE_VMOD_DIRECTORS_H */

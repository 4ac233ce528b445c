/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vary.h -- matching a request against the Vary'd header values a
 * cached variant keeps.  The blob (built by the fetch) is, for each
 * Vary'd name in sorted order, "name\0" then "\1value\0" when the
 * request that caused the fetch had the header, or "\0" when it did not:
 * an absent header and an empty one are different variants.
 */

#ifndef VENEER_CACHE_VARY_H
#define VENEER_CACHE_VARY_H

#include <stddef.h>

struct http;

/* Does the request carry the same values?  1 yes, 0 no. */
int VRY_Match(const struct http *req, const char *blob, size_t len);

#endif /* VENEER_CACHE_VARY_H */

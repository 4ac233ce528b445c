/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_query.c -- placeholder; see include/vapi.h.
 */

#include "config.h"

#include "vapi.h"

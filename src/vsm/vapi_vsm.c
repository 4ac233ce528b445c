/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_vsm.c -- placeholder; see include/vapi.h.
 */

#include "config.h"

#include "vapi.h"

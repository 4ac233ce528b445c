/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_dispatch.c -- placeholder; see include/vapi.h.
 */

#include "config.h"

#include "vapi.h"

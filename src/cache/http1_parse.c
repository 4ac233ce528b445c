/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * http1_parse.c -- placeholder until the parser lands.
 */

#include "config.h"

#include "common/miniobj.h"
#include "cache/http.h"
#include "cache/http1_parse.h"

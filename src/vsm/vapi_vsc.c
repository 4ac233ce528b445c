/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_vsc.c -- the counters (VSC); being written.
 */

#include "config.h"

#include "vapi.h"
#include "vsm/vapi_vsm.h"

void
VSMR_VscFree(struct vapi *vd)
{

	(void)vd;
}

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vapi_tags.c -- log tag names and flags for readers, from the same
 * table the daemon writes with (include/vsl_tags.h).  No state.
 */

#include "config.h"

#include <fnmatch.h>
#include <strings.h>

#include "vapi.h"
#include "vsl_format.h"

/* The public flags are the table's. */
_Static_assert(VAPI_TAGF_UNUSED == VSL_F_UNUSED, "VAPI_TAGF_UNUSED");
_Static_assert(VAPI_TAGF_UNSAFE == VSL_F_UNSAFE, "VAPI_TAGF_UNSAFE");
_Static_assert(VAPI_TAGF_BINARY == VSL_F_BINARY, "VAPI_TAGF_BINARY");
_Static_assert(SLT__Max <= VAPI_TAG_MAX, "VAPI_TAG_MAX");

static const char * const vapi_tag_names[VAPI_TAG_MAX] = {
#define VSL_TAG(nm, fl, doc)	[SLT_##nm] = #nm,
#include "vsl_tags.h"
};

static const unsigned vapi_tag_flags[VAPI_TAG_MAX] = {
#define VSL_TAG(nm, fl, doc)	[SLT_##nm] = (fl),
#include "vsl_tags.h"
};

const char *
VAPI_TagName(unsigned tag)
{

	if (tag >= VAPI_TAG_MAX)
		return (NULL);
	return (vapi_tag_names[tag]);
}

unsigned
VAPI_TagFlags(unsigned tag)
{

	if (tag >= VAPI_TAG_MAX)
		return (0);
	return (vapi_tag_flags[tag]);
}

int
VAPI_TagByName(const char *name)
{
	unsigned u;

	if (name == NULL)
		return (-1);
	for (u = 1; u < SLT__Max; u++)
		if (vapi_tag_names[u] != NULL &&
		    !strcasecmp(vapi_tag_names[u], name))
			return ((int)u);
	return (-1);
}

int
VAPI_TagGlob(const char *glob, unsigned char set[VAPI_TAG_MAX])
{
	unsigned u;
	int n = 0;

	if (glob == NULL || *glob == '\0')
		return (-1);
	for (u = 1; u < SLT__Max; u++) {
		if (vapi_tag_names[u] == NULL ||
		    fnmatch(glob, vapi_tag_names[u], FNM_CASEFOLD) != 0)
			continue;
		set[u] = 1;
		n++;
	}
	return (n);
}

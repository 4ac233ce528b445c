/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mgt_vsc.c -- the manager's shared memory (_.vsm_mgt): its counters
 * (MGT.*) and its index, whose pid tells the tools that veneerd runs.
 * Manager thread only.
 */

#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <syslog.h>

#include <ev.h>

#include "common/miniobj.h"
#include "common/tim.h"
#include "mgt/mgt.h"
#include "vsm/vscw.h"
#include "vsm/vsmw.h"

static const struct vscw_desc mgt_vsc_desc[] = {
#define VSC_FIELD VSCW_DESC
#include "vsc_mgt_fields.h"
};

#define MGT_VSC_N	(sizeof mgt_vsc_desc / sizeof mgt_vsc_desc[0])

static struct vsc_mgt mgt_vsc_dummy;
struct vsc_mgt *VSC_C_mgt = &mgt_vsc_dummy;
static struct vsmw *mgt_vsmw;
static ev_timer mgt_uptime_w;
static vtim_mono mgt_t0;
static const char *mgt_workdir;

static void
mgt_uptime_cb(struct ev_loop *loop, ev_timer *w, int revents)
{

	(void)loop;
	(void)w;
	(void)revents;
	VSC_C_mgt->uptime = (uint64_t)(TIM_mono() - mgt_t0);
}

void
MGT_VscInit(const char *workdir)
{
	char dir[1024], err[256];
	uint64_t *p;

	mgt_t0 = TIM_mono();
	mgt_workdir = workdir;
	(void)snprintf(dir, sizeof dir, "%s/_.vsm_mgt", workdir);
	mgt_vsmw = VSMW_New(dir, 0640, err, sizeof err);
	if (mgt_vsmw == NULL)
		MGT_Fatal("%s", err);
	p = VSCW_New(mgt_vsmw, "MGT", "mgt", "Management process counters",
	    mgt_vsc_desc, MGT_VSC_N);
	if (p == NULL)
		MGT_Fatal("cannot create the manager's counters in %s (disk "
		    "full?)", dir);
	VSC_C_mgt = (struct vsc_mgt *)(void *)p;
	ev_timer_init(&mgt_uptime_w, mgt_uptime_cb, 1., 1.);
	ev_timer_start(EV_DEFAULT, &mgt_uptime_w);
}

void
MGT_VsmArg(const char *ident, const char *text)
{
	size_t len = strlen(text) + 1;
	char *p;

	if (mgt_vsmw == NULL)
		return;
	p = VSMW_Alloc(mgt_vsmw, "Arg", len, ident);
	if (p == NULL) {
		MGT_Log(LOG_ERR, "cannot publish %s in shared memory (disk "
		    "full?): varnishadm -n will not find it", ident);
		return;
	}
	memcpy(p, text, len);
}

void
MGT_VscFini(void)
{
	char dir[1024];

	ev_timer_stop(EV_DEFAULT_UC, &mgt_uptime_w);
	VSC_C_mgt = &mgt_vsc_dummy;
	if (mgt_vsmw != NULL)
		VSMW_Destroy(&mgt_vsmw);
	/* Nothing of a stopped veneerd may look alive to a reader. */
	(void)snprintf(dir, sizeof dir, "%s/_.vsm_mgt", mgt_workdir);
	(void)rmdir(dir);
	(void)snprintf(dir, sizeof dir, "%s/_.vsm_child", mgt_workdir);
	(void)rmdir(dir);
}

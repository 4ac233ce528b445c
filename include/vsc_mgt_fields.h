/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc_mgt_fields.h -- the manager's counters (MGT.*), as Varnish names
 * them.  No include guard; same form as vsc_fields.h.
 */

VSC_FIELD(uptime,		COUNTER, INFO,  DURATION,	"Seconds "
	"since the manager started")
VSC_FIELD(child_start,		COUNTER, INFO,  INTEGER,	"Times the "
	"child was started")
VSC_FIELD(child_exit,		COUNTER, INFO,  INTEGER,	"Times the "
	"child exited as asked")
VSC_FIELD(child_stop,		COUNTER, INFO,  INTEGER,	"Times the "
	"child exited with an unexpected status")
VSC_FIELD(child_died,		COUNTER, INFO,  INTEGER,	"Times the "
	"child was killed by a signal")
VSC_FIELD(child_dump,		COUNTER, INFO,  INTEGER,	"Times the "
	"child dumped core")
VSC_FIELD(child_panic,		COUNTER, INFO,  INTEGER,	"Times the "
	"child panicked: see the panic message in the manager's log")
VSC_FIELD(cli_sessions,		COUNTER, INFO,  INTEGER,	"Admin CLI "
	"connections accepted")
VSC_FIELD(cli_requests,		COUNTER, INFO,  INTEGER,	"Admin CLI "
	"request lines received")
VSC_FIELD(cli_auth_fail,	COUNTER, INFO,  INTEGER,	"Admin CLI "
	"authentications that failed (a wrong secret); the connection is "
	"closed")

#undef VSC_FIELD

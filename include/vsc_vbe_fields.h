/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc_vbe_fields.h -- THE table of each backend's counters,
 * VBE.<vcl>.<backend>.*, as Varnish 7.1 names them so that dashboards
 * keep working.  No include guard; rows only appended.  Columns as in
 * vsc_fields.h.  Varnish's byte counters are not here: veneerd does not
 * publish them per backend yet.
 */

VSC_FIELD(conn,			GAUGE,   INFO,  INTEGER,	"Connections "
	"to this backend in use by fetches and pipes now")
VSC_FIELD(req,			COUNTER, INFO,  INTEGER,	"Backend "
	"requests: connections handed to a fetch or pipe, new or reused")
VSC_FIELD(unhealthy,		COUNTER, INFO,  INTEGER,	"Fetches "
	"not attempted because the backend was sick or had no address")
VSC_FIELD(busy,			COUNTER, INFO,  INTEGER,	"Fetches "
	"not attempted because max_connections were in use; raise "
	".max_connections")
VSC_FIELD(fail,			COUNTER, INFO,  INTEGER,	"Connections "
	"that could not be made; see the fail_* counters for why")
VSC_FIELD(fail_eacces,		COUNTER, INFO,  INTEGER,	"Connections "
	"refused by the local system (EACCES, EPERM): a firewall rule?")
VSC_FIELD(fail_eaddrnotavail,	COUNTER, INFO,  INTEGER,	"Connections "
	"failed for want of a local address or port (EADDRNOTAVAIL); too "
	"many connections in TIME_WAIT?")
VSC_FIELD(fail_econnrefused,	COUNTER, INFO,  INTEGER,	"Connections "
	"refused by the backend (ECONNREFUSED): is it running?")
VSC_FIELD(fail_enetunreach,	COUNTER, INFO,  INTEGER,	"Connections "
	"failed: no route to the backend (ENETUNREACH)")
VSC_FIELD(fail_etimedout,	COUNTER, INFO,  INTEGER,	"Connections "
	"not made within connect_timeout (ETIMEDOUT)")
VSC_FIELD(fail_other,		COUNTER, INFO,  INTEGER,	"Connections "
	"failed for another reason; the FetchError record says which")
VSC_FIELD(happy,		GAUGE,   INFO,  BITMAP,		"Health "
	"probe results, newest in bit 0, a bit set for each good one; 0 "
	"without a probe.  See backend.list -p")

#undef VSC_FIELD

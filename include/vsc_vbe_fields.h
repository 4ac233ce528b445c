/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc_vbe_fields.h -- THE table of each backend's counters,
 * VBE.<vcl>.<backend>.*, as Varnish 7.1 names them so that dashboards
 * keep working.  No include guard; rows only appended.  Columns as in
 * vsc_fields.h.  The byte counters are added when a fetch lets go of
 * its connection (and by pipe when it ends), not while bytes flow.
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

VSC_FIELD(helddown,		COUNTER, INFO,  INTEGER,	"Connections "
	"not tried because an earlier connect failed within "
	"backend_local_error_holddown or backend_remote_error_holddown")
VSC_FIELD(bereq_hdrbytes,	COUNTER, INFO,  BYTES,		"Request "
	"header bytes sent to this backend by fetches")
VSC_FIELD(bereq_bodybytes,	COUNTER, INFO,  BYTES,		"Request "
	"body bytes sent to this backend by fetches")
VSC_FIELD(beresp_hdrbytes,	COUNTER, INFO,  BYTES,		"Response "
	"header bytes received from this backend by fetches")
VSC_FIELD(beresp_bodybytes,	COUNTER, INFO,  BYTES,		"Response "
	"body bytes received from this backend by fetches")
VSC_FIELD(pipe_hdrbytes,	COUNTER, INFO,  BYTES,		"Request "
	"header bytes sent to this backend by pipe")
VSC_FIELD(pipe_out,		COUNTER, INFO,  BYTES,		"Bytes "
	"piped from this backend to clients")
VSC_FIELD(pipe_in,		COUNTER, INFO,  BYTES,		"Bytes "
	"piped from clients to this backend")

#undef VSC_FIELD

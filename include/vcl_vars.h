/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vcl_vars.h -- THE table of VCL variables: their types and where each
 * may be read, set and unset.  No include guard: define VCL_VAR() and
 * VCL_HDR() and include (after vrt.h, for the VM_ method sets).  The
 * compiler checks every use against it and teaches from it; vrt.h
 * declares the accessors from it; man/veneer-vcl.7's tables are made
 * from it.  Names and types are Varnish 7.1's.
 *
 * VCL_VAR(cname, "name", TYPE, rd, wr, un, flags, "doc")
 *   cname	the accessors are VRT_r_<cname> (read), VRT_l_<cname>
 *		(set; takes VCL_<TYPE>_SET) and VRT_u_<cname> (unset); only
 *		those whose set of methods is not VM_NONE exist
 *   TYPE	the VCL type: STRING, INT, REAL, BOOL, DURATION, BYTES, TIME,
 *		IP, BACKEND, BLOB, BODY, HTTP
 *   rd wr un	the methods where it may be read, set, unset: VM_(RECV)
 *		| ..., or VM_CLIENT, VM_BACKEND, VM_HOUSEKEEPING, VM_ALL,
 *		VM_NONE
 *   flags	VV_MISSING: the feature behind it does not exist here yet;
 *		it compiles with a warning that says so, reads give the
 *		documented neutral value and sets do nothing
 *		VV_4_0: a name VCL 4.0 had, accepted with a warning naming
 *		the modern one
 *		VV_ONLY_40: exists only in `vcl 4.0;` files, as in Varnish
 *		VV_ONLY_41: exists only in `vcl 4.1;` files, as in Varnish
 *		VV_RO_41: may be set in `vcl 4.0;` files only (Varnish made
 *		the protocols read only in 4.1)
 *   doc	one line for the manual
 *
 * VCL_HDR(WHERE, "prefix.", rd, wr, un, "doc")
 *   headers of a message, "req.http.Host": the compiler emits a
 *   struct gethdr_s { HDR_<WHERE>, "\005Host:" } and calls VRT_GetHdr,
 *   VRT_SetHdr, VRT_UnsetHdr
 */

#ifndef VV_MISSING
#define VV_MISSING	(1U << 0)
#define VV_4_0		(1U << 1)
#define VV_ONLY_40	(1U << 2)
#define VV_ONLY_41	(1U << 3)
#define VV_RO_41	(1U << 4)
#endif

#ifdef VCL_VAR
VCL_VAR(local_endpoint, "local.endpoint", STRING,
    VM_CLIENT | VM_BACKEND,
    VM_NONE,
    VM_NONE, VV_ONLY_41,
    "The address of the -a socket the session came in on.")
VCL_VAR(local_ip, "local.ip", IP,
    VM_CLIENT | VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "The local end of the client connection (even behind a PROXY "
    "header: see server.ip).")
VCL_VAR(local_socket, "local.socket", STRING,
    VM_CLIENT | VM_BACKEND,
    VM_NONE,
    VM_NONE, VV_ONLY_41,
    "The name of the -a socket the session came in on.")
VCL_VAR(remote_ip, "remote.ip", IP,
    VM_CLIENT | VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "The remote end of the client connection (behind a PROXY header, "
    "the proxy: see client.ip).")
VCL_VAR(client_identity, "client.identity", STRING,
    VM_CLIENT | VM_BACKEND,
    VM_CLIENT,
    VM_NONE, 0,
    "Identifies the client to directors; defaults to client.ip.")
VCL_VAR(client_ip, "client.ip", IP,
    VM_CLIENT | VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "The client's address: on a PROXY listener (-a ...,PROXY) the one "
    "its PROXY header names, else remote.ip.")
VCL_VAR(server_hostname, "server.hostname", STRING,
    VM_ALL,
    VM_NONE,
    VM_NONE, 0,
    "The host name, as gethostname(3) says.")
VCL_VAR(server_identity, "server.identity", STRING,
    VM_ALL,
    VM_NONE,
    VM_NONE, 0,
    "The -i identity, or the host name.")
VCL_VAR(server_ip, "server.ip", IP,
    VM_CLIENT | VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "The local address the client connected to: on a PROXY listener "
    "the one its PROXY header names (the proxy's), else local.ip.")
VCL_VAR(now, "now", TIME,
    VM_ALL,
    VM_NONE,
    VM_NONE, 0,
    "The time now, constant within one method.")
VCL_VAR(req_backend, "req.backend", BACKEND,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_4_0,
    "VCL 3's name of req.backend_hint.")
VCL_VAR(req_backend_hint, "req.backend_hint", BACKEND,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "The backend a miss or pass will fetch from.")
VCL_VAR(req_can_gzip, "req.can_gzip", BOOL,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "Whether the client accepts gzip: its Accept-Encoding has gzip "
    "with a q above 0.")
VCL_VAR(req_esi, "req.esi", BOOL,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_ONLY_40,
    "Whether ESI is processed for this request (true unless set false).")
VCL_VAR(req_esi_level, "req.esi_level", INT,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "The ESI include depth: 0 for a client's request, 1 for its includes...")
VCL_VAR(req_grace, "req.grace", DURATION,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "Caps the grace an object may be served in.")
VCL_VAR(req_hash, "req.hash", BLOB,
    VM_(HIT) | VM_(MISS) | VM_(PASS) | VM_(PURGE) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "The lookup key hash_data() made.")
VCL_VAR(req_hash_always_miss, "req.hash_always_miss", BOOL,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "Forces a miss, so that the fetch replaces the object.")
VCL_VAR(req_hash_ignore_busy, "req.hash_ignore_busy", BOOL,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "Neither waits for nor joins a fetch in progress at lookup.")
VCL_VAR(req_hash_ignore_vary, "req.hash_ignore_vary", BOOL,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "Ignores Vary at lookup: the newest fresh variant is a hit.")
VCL_VAR(req_is_hitmiss, "req.is_hitmiss", BOOL,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "Whether the request hit a hit-for-miss object.")
VCL_VAR(req_is_hitpass, "req.is_hitpass", BOOL,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "Whether the request hit a hit-for-pass object.")
VCL_VAR(req_method, "req.method", STRING,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "The request method, \"GET\".")
VCL_VAR(req_proto, "req.proto", STRING,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_RO_41,
    "The request protocol, \"HTTP/1.1\".")
VCL_VAR(req_restarts, "req.restarts", INT,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "How many times the request was restarted.")
VCL_VAR(req_storage, "req.storage", STRING,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_MISSING,
    "The storage for a request body (one storage here).")
VCL_VAR(req_time, "req.time", TIME,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "When the request headers were complete.")
VCL_VAR(req_trace, "req.trace", BOOL,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "Whether VCL_trace records are logged.")
VCL_VAR(req_transport, "req.transport", STRING,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "The transport: \"HTTP/1\".")
VCL_VAR(req_ttl, "req.ttl", DURATION,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "Caps the age of an object this request may hit.")
VCL_VAR(req_url, "req.url", STRING,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, 0,
    "The request target, \"/index.html?x=1\".")
VCL_VAR(req_xid, "req.xid", STRING,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "The transaction id of the request.")
VCL_VAR(req_top_method, "req_top.method", STRING,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "The top-level request's method (outside ESI: req.method).")
VCL_VAR(req_top_proto, "req_top.proto", STRING,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "The top-level request's protocol.")
VCL_VAR(req_top_time, "req_top.time", TIME,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "When the top-level request arrived.")
VCL_VAR(req_top_url, "req_top.url", STRING,
    VM_CLIENT,
    VM_NONE,
    VM_NONE, 0,
    "The top-level request's target.")
VCL_VAR(bereq_backend, "bereq.backend", BACKEND,
    VM_(PIPE) | VM_BACKEND,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE, 0,
    "The backend to fetch from.")
VCL_VAR(bereq_between_bytes_timeout, "bereq.between_bytes_timeout", DURATION,
    VM_BACKEND,
    VM_BACKEND,
    VM_NONE, 0,
    "Idle timeout between body reads.")
VCL_VAR(bereq_body, "bereq.body", BODY,
    VM_NONE,
    VM_NONE,
    VM_(BACKEND_FETCH), 0,
    "The request body; unset sends none.")
VCL_VAR(bereq_connect_timeout, "bereq.connect_timeout", DURATION,
    VM_(PIPE) | VM_BACKEND,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE, 0,
    "Timeout for connecting to the backend.")
VCL_VAR(bereq_first_byte_timeout, "bereq.first_byte_timeout", DURATION,
    VM_BACKEND,
    VM_BACKEND,
    VM_NONE, 0,
    "Timeout for the first byte of the response.")
VCL_VAR(bereq_hash, "bereq.hash", BLOB,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "The lookup key of the request that caused the fetch.")
VCL_VAR(bereq_is_bgfetch, "bereq.is_bgfetch", BOOL,
    VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "Whether this is a background fetch (grace).")
VCL_VAR(bereq_is_hitmiss, "bereq.is_hitmiss", BOOL,
    VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "Whether the fetch is for a request that hit a hit-for-miss object.")
VCL_VAR(bereq_is_hitpass, "bereq.is_hitpass", BOOL,
    VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "Whether the fetch is for a request that hit a hit-for-pass object.")
VCL_VAR(bereq_method, "bereq.method", STRING,
    VM_(PIPE) | VM_BACKEND,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE, 0,
    "The backend request method.")
VCL_VAR(bereq_proto, "bereq.proto", STRING,
    VM_(PIPE) | VM_BACKEND,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE, VV_RO_41,
    "The backend request protocol.")
VCL_VAR(bereq_retries, "bereq.retries", INT,
    VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "How many times the fetch was retried.")
VCL_VAR(bereq_time, "bereq.time", TIME,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "When the backend request was made.")
VCL_VAR(bereq_trace, "bereq.trace", BOOL,
    VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "Whether VCL_trace records are logged.")
VCL_VAR(bereq_uncacheable, "bereq.uncacheable", BOOL,
    VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "Whether the fetch is a pass: its object is not cached.")
VCL_VAR(bereq_url, "bereq.url", STRING,
    VM_(PIPE) | VM_BACKEND,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE, 0,
    "The backend request target.")
VCL_VAR(bereq_xid, "bereq.xid", STRING,
    VM_(PIPE) | VM_BACKEND,
    VM_NONE,
    VM_NONE, 0,
    "The transaction id of the fetch.")
VCL_VAR(beresp_age, "beresp.age", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE,
    VM_NONE, 0,
    "The age of the response when it arrived.")
VCL_VAR(beresp_backend, "beresp.backend", BACKEND,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE,
    VM_NONE, 0,
    "The backend the response came from.")
VCL_VAR(beresp_backend_ip, "beresp.backend.ip", IP,
    VM_(BACKEND_RESPONSE),
    VM_NONE,
    VM_NONE, VV_MISSING | VV_4_0,
    "VCL 4.0: the backend's address (removed in Varnish 6).")
VCL_VAR(beresp_backend_name, "beresp.backend.name", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE,
    VM_NONE, 0,
    "The name of the backend the response came from.")
VCL_VAR(beresp_body, "beresp.body", BODY,
    VM_NONE,
    VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "The body of a synthetic backend response.")
VCL_VAR(beresp_do_esi, "beresp.do_esi", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "Parse the body for ESI as it is stored (stored uncompressed).")
VCL_VAR(beresp_do_gunzip, "beresp.do_gunzip", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "Store a gzip body uncompressed (http_gzip_support on).")
VCL_VAR(beresp_do_gzip, "beresp.do_gzip", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "Store an uncompressed body gzip'd, at gzip_level "
    "(http_gzip_support on).")
VCL_VAR(beresp_do_stream, "beresp.do_stream", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "Deliver the body while it is fetched (the default).  False: "
    "fetch it whole first; a fetch that fails on the way is a 503.  "
    "A pass is always relayed as it comes.")
VCL_VAR(beresp_filters, "beresp.filters", STRING,
    VM_(BACKEND_RESPONSE),
    VM_(BACKEND_RESPONSE),
    VM_NONE, VV_MISSING,
    "The fetch filters (none yet).")
VCL_VAR(beresp_grace, "beresp.grace", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "How long past its TTL the object may be served.")
VCL_VAR(beresp_keep, "beresp.keep", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "How long past TTL and grace it is kept for revalidation.")
VCL_VAR(beresp_proto, "beresp.proto", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, VV_RO_41,
    "The backend response protocol.")
VCL_VAR(beresp_reason, "beresp.reason", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "The backend response reason phrase.")
VCL_VAR(beresp_status, "beresp.status", INT,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "The backend response status.")
VCL_VAR(beresp_storage, "beresp.storage", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "The storage for the object: storage.NAME of a -s store (or "
    "storage.Transient).")
VCL_VAR(beresp_storage_hint, "beresp.storage_hint", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, VV_4_0,
    "VCL 4.0 spelling of beresp.storage.")
VCL_VAR(beresp_time, "beresp.time", TIME,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE,
    VM_NONE, 0,
    "When the response headers arrived.")
VCL_VAR(beresp_transit_buffer, "beresp.transit_buffer", BYTES,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, VV_MISSING,
    "Bytes a streaming pass may run ahead (not yet).")
VCL_VAR(beresp_ttl, "beresp.ttl", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "The remaining time to live of the object.")
VCL_VAR(beresp_uncacheable, "beresp.uncacheable", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE, 0,
    "Makes the object hit-for-miss.")
VCL_VAR(beresp_was_304, "beresp.was_304", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_NONE,
    VM_NONE, 0,
    "Whether the response was a 304 that refreshed the stale object.")
VCL_VAR(obj_age, "obj.age", DURATION,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "The age of the object.")
VCL_VAR(obj_can_esi, "obj.can_esi", BOOL,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "Whether the object has ESI instructions.")
VCL_VAR(obj_grace, "obj.grace", DURATION,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "The object's grace.")
VCL_VAR(obj_hits, "obj.hits", INT,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "How many times the object was delivered.")
VCL_VAR(obj_keep, "obj.keep", DURATION,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "The object's keep.")
VCL_VAR(obj_proto, "obj.proto", STRING,
    VM_(HIT),
    VM_NONE,
    VM_NONE, 0,
    "The object's protocol.")
VCL_VAR(obj_reason, "obj.reason", STRING,
    VM_(HIT),
    VM_NONE,
    VM_NONE, 0,
    "The object's reason phrase.")
VCL_VAR(obj_status, "obj.status", INT,
    VM_(HIT),
    VM_NONE,
    VM_NONE, 0,
    "The object's status.")
VCL_VAR(obj_storage, "obj.storage", STRING,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "The storage of the object, storage.NAME.")
VCL_VAR(obj_time, "obj.time", TIME,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "When the object was fetched.")
VCL_VAR(obj_ttl, "obj.ttl", DURATION,
    VM_(HIT) | VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "The object's remaining time to live.")
VCL_VAR(obj_uncacheable, "obj.uncacheable", BOOL,
    VM_(DELIVER),
    VM_NONE,
    VM_NONE, 0,
    "Whether the object is hit-for-miss/pass.")
VCL_VAR(resp_body, "resp.body", BODY,
    VM_NONE,
    VM_(SYNTH),
    VM_NONE, 0,
    "The body of a synthetic response.")
VCL_VAR(resp_time, "resp.time", TIME,
    VM_(DELIVER) | VM_(SYNTH),
    VM_NONE,
    VM_NONE, 0,
    "When delivery began.")
VCL_VAR(resp_do_esi, "resp.do_esi", BOOL,
    VM_(DELIVER) | VM_(SYNTH),
    VM_(DELIVER) | VM_(SYNTH),
    VM_NONE, VV_ONLY_41,
    "Process ESI on delivery: obj.can_esi unless set false.")
VCL_VAR(resp_filters, "resp.filters", STRING,
    VM_(DELIVER) | VM_(SYNTH),
    VM_(DELIVER) | VM_(SYNTH),
    VM_NONE, VV_MISSING,
    "The delivery filters (none yet).")
VCL_VAR(resp_is_streaming, "resp.is_streaming", BOOL,
    VM_(DELIVER) | VM_(SYNTH),
    VM_NONE,
    VM_NONE, 0,
    "Whether the body is still being fetched.")
VCL_VAR(resp_proto, "resp.proto", STRING,
    VM_(DELIVER) | VM_(SYNTH),
    VM_(DELIVER) | VM_(SYNTH),
    VM_NONE, VV_RO_41,
    "The response protocol.")
VCL_VAR(resp_reason, "resp.reason", STRING,
    VM_(DELIVER) | VM_(SYNTH),
    VM_(DELIVER) | VM_(SYNTH),
    VM_NONE, 0,
    "The response reason phrase.")
VCL_VAR(resp_status, "resp.status", INT,
    VM_(DELIVER) | VM_(SYNTH),
    VM_(DELIVER) | VM_(SYNTH),
    VM_NONE, 0,
    "The response status.")
VCL_VAR(sess_xid, "sess.xid", STRING,
    VM_CLIENT | VM_BACKEND,
    VM_NONE,
    VM_NONE, VV_ONLY_41,
    "The transaction id of the session.")
VCL_VAR(sess_timeout_idle, "sess.timeout_idle", DURATION,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_MISSING,
    "This session's timeout_idle (read back, not applied yet).")
VCL_VAR(sess_timeout_linger, "sess.timeout_linger", DURATION,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_MISSING,
    "This session's timeout_linger (not used yet).")
VCL_VAR(sess_send_timeout, "sess.send_timeout", DURATION,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_MISSING,
    "This session's send_timeout (read back, not applied yet).")
VCL_VAR(sess_idle_send_timeout, "sess.idle_send_timeout", DURATION,
    VM_CLIENT,
    VM_CLIENT,
    VM_NONE, VV_MISSING,
    "This session's idle_send_timeout (read back, not applied "
    "yet).")
#undef VCL_VAR
#endif

#ifdef VCL_HDR
VCL_HDR(REQ, "req.http.",
    VM_CLIENT, VM_CLIENT, VM_CLIENT,
    "The headers of the client request.")
VCL_HDR(REQ_TOP, "req_top.http.",
    VM_CLIENT, VM_NONE, VM_NONE,
    "The headers of the top-level request (outside ESI: the request's).")
VCL_HDR(BEREQ, "bereq.http.",
    VM_(PIPE) | VM_BACKEND, VM_(PIPE) | VM_BACKEND, VM_(PIPE) | VM_BACKEND,
    "The headers of the backend request.")
VCL_HDR(BERESP, "beresp.http.",
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    "The headers of the backend response.")
VCL_HDR(OBJ, "obj.http.",
    VM_(HIT) | VM_(DELIVER), VM_NONE, VM_NONE,
    "The headers of the cached object.")
VCL_HDR(RESP, "resp.http.",
    VM_(DELIVER) | VM_(SYNTH), VM_(DELIVER) | VM_(SYNTH),
    VM_(DELIVER) | VM_(SYNTH),
    "The headers of the response.")
#undef VCL_HDR
#endif

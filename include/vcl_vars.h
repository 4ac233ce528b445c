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
#endif

#ifdef VCL_VAR
/* The client request -----------------------------------------------------*/
VCL_VAR(req_method, "req.method", STRING,
    VM_CLIENT, VM_CLIENT, VM_NONE, 0,
    "The request method, \"GET\".")
VCL_VAR(req_url, "req.url", STRING,
    VM_CLIENT, VM_CLIENT, VM_NONE, 0,
    "The request target, \"/index.html?x=1\".")
VCL_VAR(req_proto, "req.proto", STRING,
    VM_CLIENT, VM_CLIENT, VM_NONE, 0,
    "The protocol version, \"HTTP/1.1\".")
VCL_VAR(req_xid, "req.xid", STRING,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "The transaction id of the request (X-Varnish).")
VCL_VAR(req_restarts, "req.restarts", INT,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "How many times the request was restarted.")
VCL_VAR(req_hash_always_miss, "req.hash_always_miss", BOOL,
    VM_(RECV), VM_(RECV), VM_NONE, 0,
    "Ignore what is cached and fetch a new object, which replaces it.")
VCL_VAR(req_hash_ignore_busy, "req.hash_ignore_busy", BOOL,
    VM_(RECV), VM_(RECV), VM_NONE, VV_MISSING,
    "Do not wait for an object being fetched for another request "
    "(not yet: requests always wait).")
VCL_VAR(req_backend_hint, "req.backend_hint", BACKEND,
    VM_CLIENT, VM_CLIENT, VM_NONE, 0,
    "The backend or director a fetch for this request will use.")
VCL_VAR(req_ttl, "req.ttl", DURATION,
    VM_CLIENT, VM_CLIENT, VM_CLIENT, VV_MISSING,
    "Objects older than this are not hits for this request (not yet).")
VCL_VAR(req_grace, "req.grace", DURATION,
    VM_CLIENT, VM_CLIENT, VM_CLIENT, VV_MISSING,
    "The most grace this request accepts (not yet).")
VCL_VAR(req_can_gzip, "req.can_gzip", BOOL,
    VM_CLIENT, VM_NONE, VM_NONE, VV_MISSING,
    "Whether the client accepts gzip (no gzip support yet: false).")
VCL_VAR(req_esi, "req.esi", BOOL,
    VM_CLIENT, VM_CLIENT, VM_NONE, VV_MISSING,
    "Process ESI in the response (no ESI yet: false).")
VCL_VAR(req_esi_level, "req.esi_level", INT,
    VM_CLIENT, VM_NONE, VM_NONE, VV_MISSING,
    "ESI include depth (no ESI yet: 0).")
VCL_VAR(req_backend, "req.backend", BACKEND,
    VM_CLIENT, VM_CLIENT, VM_NONE, VV_4_0,
    "VCL 3's name of req.backend_hint.")
VCL_VAR(req_is_hitmiss, "req.is_hitmiss", BOOL,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "The lookup found a hit-for-miss marker.")
VCL_VAR(req_is_hitpass, "req.is_hitpass", BOOL,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "The lookup found a hit-for-pass marker.")
VCL_VAR(req_transport, "req.transport", STRING,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "How the request arrived: \"HTTP/1\".")
VCL_VAR(req_trace, "req.trace", BOOL,
    VM_CLIENT, VM_CLIENT, VM_NONE, VV_MISSING,
    "Log VCL_trace records for this request (not yet).")
VCL_VAR(sess_xid, "sess.xid", STRING,
    VM_CLIENT | VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The transaction id of the session (connection).")
VCL_VAR(req_time, "req.time", TIME,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "When the request started.")

/* The top request (the same as req without ESI) -------------------------*/
VCL_VAR(req_top_method, "req_top.method", STRING,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "The method of the top request.")
VCL_VAR(req_top_url, "req_top.url", STRING,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "The URL of the top request.")
VCL_VAR(req_top_proto, "req_top.proto", STRING,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "The protocol version of the top request.")
VCL_VAR(req_top_time, "req_top.time", TIME,
    VM_CLIENT, VM_NONE, VM_NONE, 0,
    "When the top request started.")

/* The backend request ----------------------------------------------------*/
VCL_VAR(bereq_method, "bereq.method", STRING,
    VM_BACKEND, VM_(BACKEND_FETCH), VM_NONE, 0,
    "The method of the backend request.")
VCL_VAR(bereq_url, "bereq.url", STRING,
    VM_BACKEND, VM_(BACKEND_FETCH), VM_NONE, 0,
    "The target of the backend request.")
VCL_VAR(bereq_proto, "bereq.proto", STRING,
    VM_BACKEND, VM_(BACKEND_FETCH), VM_NONE, 0,
    "The protocol version of the backend request.")
VCL_VAR(bereq_xid, "bereq.xid", STRING,
    VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The transaction id of the fetch.")
VCL_VAR(bereq_retries, "bereq.retries", INT,
    VM_BACKEND, VM_NONE, VM_NONE, 0,
    "How many times vcl_backend_response or vcl_backend_error retried.")
VCL_VAR(bereq_backend, "bereq.backend", BACKEND,
    VM_BACKEND, VM_(BACKEND_FETCH) | VM_(BACKEND_RESPONSE) |
    VM_(BACKEND_ERROR), VM_NONE, 0,
    "The backend or director the fetch uses.")
VCL_VAR(bereq_uncacheable, "bereq.uncacheable", BOOL,
    VM_BACKEND, VM_NONE, VM_NONE, 0,
    "True for a pass: the response will not be stored.")
VCL_VAR(bereq_connect_timeout, "bereq.connect_timeout", DURATION,
    VM_BACKEND, VM_(BACKEND_FETCH), VM_NONE, 0,
    "How long to wait for the backend connection (default: the "
    "backend's, else connect_timeout).")
VCL_VAR(bereq_first_byte_timeout, "bereq.first_byte_timeout", DURATION,
    VM_BACKEND, VM_(BACKEND_FETCH), VM_NONE, 0,
    "How long to wait for the first byte of the response.")
VCL_VAR(bereq_between_bytes_timeout, "bereq.between_bytes_timeout",
    DURATION, VM_BACKEND, VM_(BACKEND_FETCH), VM_NONE, 0,
    "How long to wait between bytes of the response body.")
VCL_VAR(bereq_time, "bereq.time", TIME,
    VM_BACKEND, VM_NONE, VM_NONE, 0,
    "When the fetch started.")
VCL_VAR(bereq_is_bgfetch, "bereq.is_bgfetch", BOOL,
    VM_BACKEND, VM_NONE, VM_NONE, 0,
    "True when the fetch refreshes a stale object in the background.")

/* The backend response ---------------------------------------------------*/
VCL_VAR(beresp_status, "beresp.status", INT,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, 0,
    "The status code of the backend response.")
VCL_VAR(beresp_reason, "beresp.reason", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, 0,
    "The reason phrase of the backend response.")
VCL_VAR(beresp_proto, "beresp.proto", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VM_NONE, 0,
    "The protocol version of the backend response.")
VCL_VAR(beresp_ttl, "beresp.ttl", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, 0,
    "How long the object stays fresh, from now.")
VCL_VAR(beresp_grace, "beresp.grace", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, 0,
    "How long past its TTL a stale object may be served.")
VCL_VAR(beresp_keep, "beresp.keep", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, 0,
    "How long past TTL and grace the object is kept to revalidate.")
VCL_VAR(beresp_uncacheable, "beresp.uncacheable", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, 0,
    "Make a hit-for-miss marker instead of an object (cannot be undone).")
VCL_VAR(beresp_do_stream, "beresp.do_stream", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, 0,
    "Deliver the body while it arrives (always on here).")
VCL_VAR(beresp_do_esi, "beresp.do_esi", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VV_MISSING,
    "Parse the body for ESI (no ESI yet: does nothing).")
VCL_VAR(beresp_do_gzip, "beresp.do_gzip", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VV_MISSING,
    "Compress the body (no gzip yet: does nothing).")
VCL_VAR(beresp_do_gunzip, "beresp.do_gunzip", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VV_MISSING,
    "Uncompress the body (no gzip yet: does nothing).")
VCL_VAR(beresp_was_304, "beresp.was_304", BOOL,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VM_NONE, 0,
    "The backend answered a revalidation with 304.")
VCL_VAR(beresp_age, "beresp.age", DURATION,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VM_NONE, 0,
    "How old the response already was when it arrived (its Age).")
VCL_VAR(beresp_time, "beresp.time", TIME,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VM_NONE, 0,
    "When the response head arrived.")
VCL_VAR(beresp_backend, "beresp.backend", BACKEND,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VM_NONE, 0,
    "The backend that answered.")
VCL_VAR(beresp_body, "beresp.body", BODY,
    VM_NONE, VM_(BACKEND_ERROR), VM_NONE, 0,
    "Replaces the body of the synthetic response.")
VCL_VAR(beresp_backend_name, "beresp.backend.name", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VM_NONE, 0,
    "The name of the backend that answered.")
VCL_VAR(beresp_storage_hint, "beresp.storage_hint", STRING,
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR), VM_NONE, VV_4_0,
    "VCL 4.0's storage choice; use beresp.storage (does nothing here).")

/* The cached object ------------------------------------------------------*/
VCL_VAR(obj_status, "obj.status", INT,
    VM_(HIT), VM_NONE, VM_NONE, 0,
    "The status code of the cached object.")
VCL_VAR(obj_reason, "obj.reason", STRING,
    VM_(HIT), VM_NONE, VM_NONE, 0,
    "The reason phrase of the cached object.")
VCL_VAR(obj_proto, "obj.proto", STRING,
    VM_(HIT), VM_NONE, VM_NONE, 0,
    "The protocol version of the cached object.")
VCL_VAR(obj_age, "obj.age", DURATION,
    VM_(HIT) | VM_(DELIVER), VM_NONE, VM_NONE, 0,
    "How old the object is.")
VCL_VAR(obj_time, "obj.time", TIME,
    VM_(HIT) | VM_(DELIVER), VM_NONE, VM_NONE, 0,
    "When the object was made (the origin time its age counts from).")
VCL_VAR(obj_ttl, "obj.ttl", DURATION,
    VM_(HIT) | VM_(DELIVER), VM_NONE, VM_NONE, 0,
    "How long the object stays fresh from now (negative: stale).")
VCL_VAR(obj_grace, "obj.grace", DURATION,
    VM_(HIT) | VM_(DELIVER), VM_NONE, VM_NONE, 0,
    "The object's grace.")
VCL_VAR(obj_keep, "obj.keep", DURATION,
    VM_(HIT) | VM_(DELIVER), VM_NONE, VM_NONE, 0,
    "The object's keep.")
VCL_VAR(obj_hits, "obj.hits", INT,
    VM_(HIT) | VM_(DELIVER), VM_NONE, VM_NONE, 0,
    "How many times the object was a hit (0 on a miss or pass).")
VCL_VAR(obj_uncacheable, "obj.uncacheable", BOOL,
    VM_(DELIVER), VM_NONE, VM_NONE, 0,
    "The response being delivered is not from the cache.")

/* The client response ----------------------------------------------------*/
VCL_VAR(resp_status, "resp.status", INT,
    VM_(DELIVER) | VM_(SYNTH), VM_(DELIVER) | VM_(SYNTH), VM_NONE, 0,
    "The status code of the response.")
VCL_VAR(resp_reason, "resp.reason", STRING,
    VM_(DELIVER) | VM_(SYNTH), VM_(DELIVER) | VM_(SYNTH), VM_NONE, 0,
    "The reason phrase of the response.")
VCL_VAR(resp_proto, "resp.proto", STRING,
    VM_(DELIVER) | VM_(SYNTH), VM_NONE, VM_NONE, 0,
    "The protocol version of the response.")
VCL_VAR(resp_body, "resp.body", BODY,
    VM_NONE, VM_(SYNTH), VM_NONE, 0,
    "Replaces the body of the synthetic response.")
VCL_VAR(resp_time, "resp.time", TIME,
    VM_(DELIVER) | VM_(SYNTH), VM_NONE, VM_NONE, 0,
    "When delivery began.")
VCL_VAR(resp_do_esi, "resp.do_esi", BOOL,
    VM_(DELIVER) | VM_(SYNTH), VM_(DELIVER) | VM_(SYNTH), VM_NONE,
    VV_MISSING,
    "Process ESI on delivery (no ESI yet: does nothing).")
VCL_VAR(resp_is_streaming, "resp.is_streaming", BOOL,
    VM_(DELIVER) | VM_(SYNTH), VM_NONE, VM_NONE, 0,
    "The body is still arriving from the backend.")

/* Addresses and names ----------------------------------------------------*/
VCL_VAR(client_ip, "client.ip", IP,
    VM_CLIENT | VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The client's address (the peer's, or what PROXY said).")
VCL_VAR(client_identity, "client.identity", STRING,
    VM_CLIENT | VM_BACKEND, VM_CLIENT, VM_NONE, 0,
    "Identifies the client to directors; default its address.")
VCL_VAR(remote_ip, "remote.ip", IP,
    VM_CLIENT | VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The address of the peer of the connection.")
VCL_VAR(server_ip, "server.ip", IP,
    VM_CLIENT | VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The local address the request arrived on.")
VCL_VAR(local_ip, "local.ip", IP,
    VM_CLIENT | VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The local address of the connection.")
VCL_VAR(local_endpoint, "local.endpoint", STRING,
    VM_CLIENT | VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The -a argument the connection arrived on.")
VCL_VAR(local_socket, "local.socket", STRING,
    VM_CLIENT | VM_BACKEND, VM_NONE, VM_NONE, 0,
    "The name of the listen socket (a0).")
VCL_VAR(server_hostname, "server.hostname", STRING,
    VM_ALL, VM_NONE, VM_NONE, 0,
    "The host name of the machine.")
VCL_VAR(server_identity, "server.identity", STRING,
    VM_ALL, VM_NONE, VM_NONE, 0,
    "The -i identity, else the host name.")
VCL_VAR(now, "now", TIME,
    VM_ALL, VM_NONE, VM_NONE, 0,
    "The time now.")
#undef VCL_VAR
#endif

#ifdef VCL_HDR
VCL_HDR(REQ, "req.http.",
    VM_CLIENT, VM_CLIENT, VM_CLIENT,
    "The headers of the client request.")
VCL_HDR(REQ_TOP, "req_top.http.",
    VM_CLIENT, VM_NONE, VM_NONE,
    "The headers of the top request (the request itself without ESI).")
VCL_HDR(BEREQ, "bereq.http.",
    VM_BACKEND, VM_BACKEND, VM_BACKEND,
    "The headers of the backend request.")
VCL_HDR(BERESP, "beresp.http.",
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    VM_(BACKEND_RESPONSE) | VM_(BACKEND_ERROR),
    "The headers of the backend response.")
VCL_HDR(OBJ, "obj.http.",
    VM_(HIT), VM_NONE, VM_NONE,
    "The headers of the cached object.")
VCL_HDR(RESP, "resp.http.",
    VM_(DELIVER) | VM_(SYNTH), VM_(DELIVER) | VM_(SYNTH),
    VM_(DELIVER) | VM_(SYNTH),
    "The headers of the client response.")
#undef VCL_HDR
#endif

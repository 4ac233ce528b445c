/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc_fields.h -- THE table of the child's main counters (MAIN.*).
 * No include guard: define VSC_FIELD() and include.  Names follow
 * Varnish's where the meaning is the same, so dashboards keep working.
 * Rows are only appended; a released name never changes.
 *
 * VSC_FIELD(name, type, level, doc)
 *   type	COUNTER (only grows) or GAUGE (goes up and down)
 *   level	INFO (what an operator watches), DIAG (for diagnosis),
 *		DEBUG (for developers)
 *   doc	what it counts and, if it is bad, what to do
 */

VSC_FIELD(uptime,		COUNTER, INFO,	"Seconds since the child "
	"started")
VSC_FIELD(sess_conn,		COUNTER, INFO,	"Client connections "
	"accepted")
VSC_FIELD(sess_fail,		COUNTER, INFO,	"Failed accept() calls; see "
	"the sess_fail_* counters for why")
VSC_FIELD(sess_fail_econnaborted, COUNTER, DIAG, "accept() failed: client "
	"gave up before being accepted")
VSC_FIELD(sess_fail_eintr,	COUNTER, DIAG,	"accept() interrupted")
VSC_FIELD(sess_fail_emfile,	COUNTER, DIAG,	"accept() failed: out of "
	"file descriptors; raise the open files limit (ulimit -n)")
VSC_FIELD(sess_fail_ebadf,	COUNTER, DIAG,	"accept() failed: bad "
	"listen socket")
VSC_FIELD(sess_fail_enomem,	COUNTER, DIAG,	"accept() failed: out of "
	"kernel memory")
VSC_FIELD(sess_fail_other,	COUNTER, DIAG,	"accept() failed for "
	"another reason; the log has an Error record")
VSC_FIELD(sess_queued,		COUNTER, INFO,	"Sessions that waited in a "
	"pool queue for a thread; often means thread_pool_min is too low")
VSC_FIELD(sess_dropped,		COUNTER, INFO,	"Sessions closed because "
	"every thread was busy and the queue was full; raise "
	"thread_pool_max or thread_queue_limit")
VSC_FIELD(req_dropped,		COUNTER, INFO,	"Kept for Varnish's tools; "
	"always 0: a parked connection that becomes readable waits in "
	"the queue for a thread, however long it is, and is not dropped")
VSC_FIELD(sess_closed,		COUNTER, INFO,	"Client connections closed")
VSC_FIELD(sess_closed_err,	COUNTER, INFO,	"Client connections closed "
	"because of an error; see the sc_* counters")
VSC_FIELD(sess_readahead,	COUNTER, DIAG,	"Pipelined requests found "
	"already received after a response")
VSC_FIELD(sess_herd,		COUNTER, DIAG,	"Idle connections handed to "
	"the waiter")
VSC_FIELD(sess_linger,		COUNTER, DIAG,	"Connections closed with a "
	"lingering close so an error answer reaches the client")
VSC_FIELD(sess_waiting,		GAUGE,	 INFO,	"Idle connections held by "
	"the waiter now")

VSC_FIELD(client_req,		COUNTER, INFO,	"Complete client requests "
	"received")
VSC_FIELD(client_req_400,	COUNTER, INFO,	"Client requests refused "
	"as malformed (400)")
VSC_FIELD(client_req_417,	COUNTER, INFO,	"Client requests refused for "
	"an Expect other than 100-continue (417)")
VSC_FIELD(client_req_413,	COUNTER, INFO,	"Client requests refused "
	"for a body over http_req_body_max (413)")
VSC_FIELD(client_req_431,	COUNTER, INFO,	"Client requests refused for "
	"a header over http_req_hdr_len, http_req_size or http_max_hdr "
	"(431)")
VSC_FIELD(client_req_505,	COUNTER, INFO,	"Client requests refused for "
	"an unsupported HTTP version (505)")
VSC_FIELD(client_resp_4xx,	COUNTER, INFO,	"Responses with a 4xx "
	"status sent to clients")
VSC_FIELD(client_resp_5xx,	COUNTER, INFO,	"Responses with a 5xx "
	"status sent to clients")
VSC_FIELD(client_resp_500,	COUNTER, INFO,	"Responses with status 500 "
	"sent to clients, mostly workspace overflows")

VSC_FIELD(s_sess,		COUNTER, INFO,	"Total sessions")
VSC_FIELD(s_pipe,		COUNTER, INFO,	"Requests piped to a backend")
VSC_FIELD(s_pass,		COUNTER, INFO,	"Requests passed to a backend")
VSC_FIELD(s_fetch,		COUNTER, INFO,	"Backend fetches")
VSC_FIELD(s_synth,		COUNTER, INFO,	"Synthetic responses made")
VSC_FIELD(s_req_hdrbytes,	COUNTER, INFO,	"Client request header bytes "
	"received")
VSC_FIELD(s_req_bodybytes,	COUNTER, INFO,	"Client request body bytes "
	"received")
VSC_FIELD(s_resp_hdrbytes,	COUNTER, INFO,	"Response header bytes sent "
	"to clients")
VSC_FIELD(s_resp_bodybytes,	COUNTER, INFO,	"Response body bytes sent "
	"to clients")
VSC_FIELD(s_pipe_hdrbytes,	COUNTER, INFO,	"Request header bytes sent "
	"to backends for piped requests")
VSC_FIELD(s_pipe_in,		COUNTER, INFO,	"Bytes piped from clients "
	"to backends")
VSC_FIELD(s_pipe_out,		COUNTER, INFO,	"Bytes piped from backends "
	"to clients")
VSC_FIELD(s_bereq_hdrbytes,	COUNTER, INFO,	"Backend request header "
	"bytes sent")
VSC_FIELD(s_bereq_bodybytes,	COUNTER, INFO,	"Backend request body bytes "
	"sent")
VSC_FIELD(s_beresp_hdrbytes,	COUNTER, INFO,	"Backend response header "
	"bytes received")
VSC_FIELD(s_beresp_bodybytes,	COUNTER, INFO,	"Backend response body "
	"bytes received")

VSC_FIELD(backend_conn,		COUNTER, INFO,	"Backend connections opened")
VSC_FIELD(backend_unhealthy,	COUNTER, INFO,	"Backend fetches not tried "
	"because the backend was unhealthy")
VSC_FIELD(backend_busy,		COUNTER, INFO,	"Backend fetches not tried "
	"because the backend was at max_connections")
VSC_FIELD(backend_fail,		COUNTER, INFO,	"Backend connections that "
	"could not be opened (refused, unreachable, connect_timeout)")
VSC_FIELD(backend_reuse,	COUNTER, INFO,	"Backend connections reused "
	"from the idle pool")
VSC_FIELD(backend_recycle,	COUNTER, INFO,	"Backend connections put "
	"back in the idle pool after a fetch")
VSC_FIELD(backend_retry,	COUNTER, INFO,	"Fetches retried on a fresh "
	"connection after a reused one turned out closed")
VSC_FIELD(backend_closed_idle,	COUNTER, DIAG,	"Idle backend connections "
	"closed after backend_idle_timeout or by the backend")
VSC_FIELD(n_backend,		GAUGE,	 INFO,	"Backends defined")

VSC_FIELD(fetch_head,		COUNTER, DIAG,	"Fetches of HEAD requests "
	"(no body)")
VSC_FIELD(fetch_length,		COUNTER, DIAG,	"Fetches with a "
	"Content-Length body")
VSC_FIELD(fetch_chunked,	COUNTER, DIAG,	"Fetches with a chunked "
	"body")
VSC_FIELD(fetch_eof,		COUNTER, DIAG,	"Fetches with a body ended "
	"by closing the connection")
VSC_FIELD(fetch_bad,		COUNTER, DIAG,	"Fetches whose body framing "
	"could not be understood")
VSC_FIELD(fetch_none,		COUNTER, DIAG,	"Fetches with no body")
VSC_FIELD(fetch_1xx,		COUNTER, DIAG,	"Interim 1xx responses "
	"received from backends")
VSC_FIELD(fetch_204,		COUNTER, DIAG,	"Fetches answered 204")
VSC_FIELD(fetch_304,		COUNTER, DIAG,	"Fetches answered 304")
VSC_FIELD(fetch_failed,		COUNTER, INFO,	"Fetches that failed "
	"(backend error, timeout, bad response); each became a 503")
VSC_FIELD(fetch_timeout,	COUNTER, INFO,	"Fetches that failed on "
	"first_byte_timeout or between_bytes_timeout")

VSC_FIELD(pools,		GAUGE,	 INFO,	"Thread pools")
VSC_FIELD(threads,		GAUGE,	 INFO,	"Worker threads")
VSC_FIELD(threads_limited,	COUNTER, INFO,	"Times a thread was needed "
	"but the pool was at thread_pool_max")
VSC_FIELD(threads_created,	COUNTER, INFO,	"Worker threads created")
VSC_FIELD(threads_destroyed,	COUNTER, INFO,	"Worker threads retired")
VSC_FIELD(threads_failed,	COUNTER, INFO,	"Worker threads that could "
	"not be created; check memory and ulimit -u")
VSC_FIELD(thread_queue_len,	GAUGE,	 INFO,	"Sessions waiting for a "
	"thread now")

VSC_FIELD(ws_client_overflow,	COUNTER, DIAG,	"Client requests that ran "
	"out of workspace; raise workspace_client")
VSC_FIELD(ws_backend_overflow,	COUNTER, DIAG,	"Backend fetches that ran "
	"out of workspace; raise workspace_backend")
VSC_FIELD(ws_session_overflow,	COUNTER, DIAG,	"Idle connections whose "
	"partial request did not fit workspace_session")
VSC_FIELD(ws_thread_overflow,	COUNTER, DIAG,	"Worker threads that ran "
	"out of workspace; raise workspace_thread")
VSC_FIELD(losthdr,		COUNTER, INFO,	"Headers that could not be "
	"added (http_max_hdr or workspace)")

VSC_FIELD(n_vcl,		GAUGE,	 INFO,	"VCL programs loaded")
VSC_FIELD(vcl_fail,		COUNTER, INFO,	"VCL failures")

/* One counter per session close reason: sc_rem_close, sc_rx_bad, ... */
#define SESS_CLOSE(U, l, err, doc)					\
	VSC_FIELD(sc_##l, COUNTER, DIAG, "Sessions closed: " doc)
#include "sess_close.h"

/* The cache (issue #5) */
VSC_FIELD(cache_hit,		COUNTER, INFO,	"Requests served from a "
	"fresh cached object")
VSC_FIELD(cache_hit_grace,	COUNTER, INFO,	"Requests served a stale "
	"object in grace while a fresh one is fetched (also in cache_hit)")
VSC_FIELD(cache_hitpass,	COUNTER, INFO,	"Requests passed because of "
	"a hit-for-pass marker")
VSC_FIELD(cache_hitmiss,	COUNTER, INFO,	"Requests sent to the backend "
	"because of a hit-for-miss marker (the object was uncacheable "
	"last time)")
VSC_FIELD(cache_miss,		COUNTER, INFO,	"Requests not found in the "
	"cache (hit-for-miss included)")
VSC_FIELD(cache_stale_if_error,	COUNTER, INFO,	"Stale objects served "
	"because the backend failed (stale-if-error)")
VSC_FIELD(busy_sleep,		COUNTER, INFO,	"Requests that waited for "
	"another request's fetch of the same object (coalescing)")
VSC_FIELD(busy_wakeup,		COUNTER, INFO,	"Waiting requests woken by "
	"the arrival of the object they waited for")
VSC_FIELD(waitinglist_queued,	GAUGE,	 INFO,	"Requests waiting for a "
	"fetch of the same object now")
VSC_FIELD(waitinglist_overflow,	COUNTER, INFO,	"Requests that found "
	"waitinglist_max others waiting and fetched on their own")
VSC_FIELD(waitinglist_timeout,	COUNTER, INFO,	"Requests that waited "
	"waitinglist_timeout for a fetch and then fetched on their own; "
	"the backend is slow to send headers")
VSC_FIELD(n_object,		GAUGE,	 INFO,	"Objects in the cache "
	"(markers not included)")
VSC_FIELD(n_objectcore,		GAUGE,	 INFO,	"Object cores: objects, "
	"markers, busy and private ones")
VSC_FIELD(n_objecthead,		GAUGE,	 INFO,	"Distinct lookup keys "
	"(URLs and hosts) in the cache")
VSC_FIELD(n_vary,		GAUGE,	 INFO,	"Cached objects that are a "
	"variant (the response had Vary)")
VSC_FIELD(n_expired,		COUNTER, INFO,	"Objects removed because "
	"their TTL, grace and keep ran out")
VSC_FIELD(n_lru_nuked,		COUNTER, INFO,	"Objects removed early to "
	"make room (the store was full); many means the cache is too "
	"small for the working set")
VSC_FIELD(n_lru_moved,		COUNTER, DIAG,	"Objects moved to the head "
	"of their LRU list by a hit")
VSC_FIELD(n_lru_limited,	COUNTER, INFO,	"Allocations that stopped "
	"nuking after nuke_limit objects and failed")
VSC_FIELD(n_purges,		COUNTER, INFO,	"Purges executed")
VSC_FIELD(n_obj_purged,		COUNTER, INFO,	"Objects purged")
VSC_FIELD(n_obj_invalidated,	COUNTER, INFO,	"Objects invalidated by a "
	"successful unsafe request to their URL (RFC 9111 4.4)")
VSC_FIELD(sess_park_bytes,	GAUGE,	 INFO,	"Memory holding the partial "
	"request heads of parked connections too big for their "
	"workspace_session (a head still arriving may hold up to twice its "
	"size); bounded by sess_park_space")
VSC_FIELD(sess_park_full,	COUNTER, INFO,	"Connections closed in the "
	"middle of a request head because sess_park_space was used up; "
	"raise it, or look for clients holding connections open")
VSC_FIELD(req_body_timeout,	COUNTER, INFO,	"Request bodies not received "
	"within timeout_req_body: answered 408 and closed; raise it if "
	"legitimate uploads are this slow")

#undef VSC_FIELD

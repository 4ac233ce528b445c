/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsc_fields.h -- THE table of the child's main counters (MAIN.*).
 * No include guard: define VSC_FIELD() and include.  Names follow
 * Varnish's where the meaning is the same, so dashboards keep working.
 * Rows are only appended; a released name never changes.
 *
 * VSC_FIELD(name, type, level, format, doc)
 *   type	COUNTER (only grows) or GAUGE (goes up and down)
 *   level	INFO (what an operator watches), DIAG (for diagnosis),
 *		DEBUG (for developers)
 *   format	how tools show the value: INTEGER (a count), BYTES (a size,
 *		shown as K, M, G), DURATION (seconds), BITMAP (one bit per
 *		flag); Varnish 7.1's format where Varnish has the counter
 *   doc	what it counts and, if it is bad, what to do
 */

VSC_FIELD(uptime,		COUNTER, INFO,  DURATION,	"Seconds "
	"since the child started")
VSC_FIELD(sess_conn,		COUNTER, INFO,  INTEGER,	"Client "
	"connections accepted")
VSC_FIELD(sess_fail,		COUNTER, INFO,  INTEGER,	"Failed "
	"accept() calls; see the sess_fail_* counters for why")
VSC_FIELD(sess_fail_econnaborted, COUNTER, DIAG,  INTEGER,	"accept() "
	"failed: client gave up before being accepted")
VSC_FIELD(sess_fail_eintr,	COUNTER, DIAG,  INTEGER,	"accept() "
	"interrupted")
VSC_FIELD(sess_fail_emfile,	COUNTER, DIAG,  INTEGER,	"accept() "
	"failed: out of file descriptors; raise the open files limit (ulimit "
	"-n)")
VSC_FIELD(sess_fail_ebadf,	COUNTER, DIAG,  INTEGER,	"accept() "
	"failed: bad listen socket")
VSC_FIELD(sess_fail_enomem,	COUNTER, DIAG,  INTEGER,	"accept() "
	"failed: out of kernel memory")
VSC_FIELD(sess_fail_other,	COUNTER, DIAG,  INTEGER,	"accept() "
	"failed for another reason; the log has an Error record")
VSC_FIELD(sess_queued,		COUNTER, INFO,  INTEGER,	"Sessions "
	"that waited in a pool queue for a thread; often means "
	"thread_pool_min is too low")
VSC_FIELD(sess_dropped,		COUNTER, INFO,  INTEGER,	"Sessions "
	"closed because every thread was busy and the queue was full; raise "
	"thread_pool_max or thread_queue_limit")
VSC_FIELD(req_dropped,		COUNTER, INFO,  INTEGER,	"Kept for "
	"Varnish's tools; always 0: a parked connection that becomes "
	"readable waits in the queue for a thread, however long it is, and "
	"is not dropped")
VSC_FIELD(sess_closed,		COUNTER, INFO,  INTEGER,	"Client "
	"connections closed")
VSC_FIELD(sess_closed_err,	COUNTER, INFO,  INTEGER,	"Client "
	"connections closed because of an error; see the sc_* counters")
VSC_FIELD(sess_readahead,	COUNTER, DIAG,  INTEGER,	"Pipelined "
	"requests found already received after a response")
VSC_FIELD(sess_herd,		COUNTER, DIAG,  INTEGER,	"Idle "
	"connections handed to the waiter")
VSC_FIELD(sess_linger,		COUNTER, DIAG,  INTEGER,	"Connections "
	"closed with a lingering close so an error answer reaches the client")
VSC_FIELD(sess_waiting,		GAUGE,   INFO,  INTEGER,	"Idle "
	"connections held by the waiter now")

VSC_FIELD(client_req,		COUNTER, INFO,  INTEGER,	"Complete "
	"client requests received")
VSC_FIELD(client_req_400,	COUNTER, INFO,  INTEGER,	"Client "
	"requests refused as malformed (400)")
VSC_FIELD(client_req_417,	COUNTER, INFO,  INTEGER,	"Client "
	"requests refused for an Expect other than 100-continue (417)")
VSC_FIELD(client_req_413,	COUNTER, INFO,  INTEGER,	"Client "
	"requests refused for a body over http_req_body_max (413)")
VSC_FIELD(client_req_431,	COUNTER, INFO,  INTEGER,	"Client "
	"requests refused for a header over http_req_hdr_len, http_req_size "
	"or http_max_hdr (431)")
VSC_FIELD(client_req_505,	COUNTER, INFO,  INTEGER,	"Client "
	"requests refused for an unsupported HTTP version (505)")
VSC_FIELD(client_resp_4xx,	COUNTER, INFO,  INTEGER,	"Responses "
	"with a 4xx status sent to clients")
VSC_FIELD(client_resp_5xx,	COUNTER, INFO,  INTEGER,	"Responses "
	"with a 5xx status sent to clients")
VSC_FIELD(client_resp_500,	COUNTER, INFO,  INTEGER,	"Responses "
	"with status 500 sent to clients, mostly workspace overflows")

VSC_FIELD(s_sess,		COUNTER, INFO,  INTEGER,	"Total "
	"sessions")
VSC_FIELD(s_pipe,		COUNTER, INFO,  INTEGER,	"Requests "
	"piped to a backend")
VSC_FIELD(s_pass,		COUNTER, INFO,  INTEGER,	"Requests "
	"passed to a backend")
VSC_FIELD(s_fetch,		COUNTER, INFO,  INTEGER,	"Backend "
	"fetches")
VSC_FIELD(s_synth,		COUNTER, INFO,  INTEGER,	"Synthetic "
	"responses made")
VSC_FIELD(s_req_hdrbytes,	COUNTER, INFO,  BYTES,		"Client "
	"request header bytes received")
VSC_FIELD(s_req_bodybytes,	COUNTER, INFO,  BYTES,		"Client "
	"request body bytes received")
VSC_FIELD(s_resp_hdrbytes,	COUNTER, INFO,  BYTES,		"Response "
	"header bytes sent to clients")
VSC_FIELD(s_resp_bodybytes,	COUNTER, INFO,  BYTES,		"Response "
	"body bytes sent to clients")
VSC_FIELD(s_pipe_hdrbytes,	COUNTER, INFO,  BYTES,		"Request "
	"header bytes sent to backends for piped requests")
VSC_FIELD(s_pipe_in,		COUNTER, INFO,  BYTES,		"Bytes piped "
	"from clients to backends")
VSC_FIELD(s_pipe_out,		COUNTER, INFO,  BYTES,		"Bytes piped "
	"from backends to clients")
VSC_FIELD(s_bereq_hdrbytes,	COUNTER, INFO,  BYTES,		"Backend "
	"request header bytes sent")
VSC_FIELD(s_bereq_bodybytes,	COUNTER, INFO,  BYTES,		"Backend "
	"request body bytes sent")
VSC_FIELD(s_beresp_hdrbytes,	COUNTER, INFO,  BYTES,		"Backend "
	"response header bytes received")
VSC_FIELD(s_beresp_bodybytes,	COUNTER, INFO,  BYTES,		"Backend "
	"response body bytes received")

VSC_FIELD(backend_conn,		COUNTER, INFO,  INTEGER,	"Backend "
	"connections opened")
VSC_FIELD(backend_unhealthy,	COUNTER, INFO,  INTEGER,	"Backend "
	"fetches not tried because the backend was unhealthy")
VSC_FIELD(backend_busy,		COUNTER, INFO,  INTEGER,	"Backend "
	"fetches not tried because the backend was at max_connections")
VSC_FIELD(backend_fail,		COUNTER, INFO,  INTEGER,	"Backend "
	"connections that could not be opened (refused, unreachable, "
	"connect_timeout)")
VSC_FIELD(backend_reuse,	COUNTER, INFO,  INTEGER,	"Backend "
	"connections reused from the idle pool")
VSC_FIELD(backend_recycle,	COUNTER, INFO,  INTEGER,	"Backend "
	"connections put back in the idle pool after a fetch")
VSC_FIELD(backend_retry,	COUNTER, INFO,  INTEGER,	"Fetches "
	"retried on a fresh connection after a reused one turned out closed")
VSC_FIELD(backend_closed_idle,	COUNTER, DIAG,  INTEGER,	"Idle "
	"backend connections closed after backend_idle_timeout or by the "
	"backend")
VSC_FIELD(n_backend,		GAUGE,   INFO,  INTEGER,	"Backends "
	"defined")

VSC_FIELD(fetch_head,		COUNTER, DIAG,  INTEGER,	"Fetches of "
	"HEAD requests (no body)")
VSC_FIELD(fetch_length,		COUNTER, DIAG,  INTEGER,	"Fetches "
	"with a Content-Length body")
VSC_FIELD(fetch_chunked,	COUNTER, DIAG,  INTEGER,	"Fetches "
	"with a chunked body")
VSC_FIELD(fetch_eof,		COUNTER, DIAG,  INTEGER,	"Fetches "
	"with a body ended by closing the connection")
VSC_FIELD(fetch_bad,		COUNTER, DIAG,  INTEGER,	"Fetches "
	"whose body framing could not be understood")
VSC_FIELD(fetch_none,		COUNTER, DIAG,  INTEGER,	"Fetches "
	"with no body")
VSC_FIELD(fetch_1xx,		COUNTER, DIAG,  INTEGER,	"Interim 1xx "
	"responses received from backends")
VSC_FIELD(fetch_204,		COUNTER, DIAG,  INTEGER,	"Fetches "
	"answered 204")
VSC_FIELD(fetch_304,		COUNTER, DIAG,  INTEGER,	"Fetches "
	"answered 304")
VSC_FIELD(fetch_failed,		COUNTER, INFO,  INTEGER,	"Fetches "
	"that failed (backend error, timeout, bad response); each became a "
	"503")
VSC_FIELD(fetch_timeout,	COUNTER, INFO,  INTEGER,	"Fetches "
	"that failed on first_byte_timeout or between_bytes_timeout")

VSC_FIELD(pools,		GAUGE,   INFO,  INTEGER,	"Thread pools")
VSC_FIELD(threads,		GAUGE,   INFO,  INTEGER,	"Worker "
	"threads")
VSC_FIELD(threads_limited,	COUNTER, INFO,  INTEGER,	"Times a "
	"thread was needed but the pool was at thread_pool_max")
VSC_FIELD(threads_created,	COUNTER, INFO,  INTEGER,	"Worker "
	"threads created")
VSC_FIELD(threads_destroyed,	COUNTER, INFO,  INTEGER,	"Worker "
	"threads retired")
VSC_FIELD(threads_failed,	COUNTER, INFO,  INTEGER,	"Worker "
	"threads that could not be created; check memory and ulimit -u")
VSC_FIELD(thread_queue_len,	GAUGE,   INFO,  INTEGER,	"Sessions "
	"waiting for a thread now")

VSC_FIELD(ws_client_overflow,	COUNTER, DIAG,  INTEGER,	"Client "
	"requests that ran out of workspace; raise workspace_client")
VSC_FIELD(ws_backend_overflow,	COUNTER, DIAG,  INTEGER,	"Backend "
	"fetches that ran out of workspace; raise workspace_backend")
VSC_FIELD(ws_session_overflow,	COUNTER, DIAG,  INTEGER,	"Idle "
	"connections whose partial request did not fit workspace_session")
VSC_FIELD(ws_thread_overflow,	COUNTER, DIAG,  INTEGER,	"Worker "
	"threads that ran out of workspace; raise workspace_thread")
VSC_FIELD(losthdr,		COUNTER, INFO,  INTEGER,	"Headers "
	"that could not be added (http_max_hdr or workspace)")

VSC_FIELD(n_vcl,		GAUGE,   INFO,  INTEGER,	"VCL "
	"programs loaded")
VSC_FIELD(vcl_fail,		COUNTER, INFO,  INTEGER,	"VCL failures")

/* One counter per session close reason: sc_rem_close, sc_rx_bad, ... */
#define SESS_CLOSE(U, l, err, doc)					\
	VSC_FIELD(sc_##l, COUNTER, DIAG, INTEGER, "Sessions closed: " doc)
#include "sess_close.h"

/* The cache (issue #5) */
VSC_FIELD(cache_hit,		COUNTER, INFO,  INTEGER,	"Requests "
	"served from a fresh cached object")
VSC_FIELD(cache_hit_grace,	COUNTER, INFO,  INTEGER,	"Requests "
	"served a stale object in grace while a fresh one is fetched (also "
	"in cache_hit)")
VSC_FIELD(cache_hitpass,	COUNTER, INFO,  INTEGER,	"Requests "
	"passed because of a hit-for-pass marker")
VSC_FIELD(cache_hitmiss,	COUNTER, INFO,  INTEGER,	"Requests "
	"sent to the backend because of a hit-for-miss marker (the object "
	"was uncacheable last time)")
VSC_FIELD(cache_miss,		COUNTER, INFO,  INTEGER,	"Requests "
	"not found in the cache (hit-for-miss included)")
VSC_FIELD(cache_stale_if_error,	COUNTER, INFO,  INTEGER,	"Stale "
	"objects served because the backend failed (stale-if-error)")
VSC_FIELD(busy_sleep,		COUNTER, INFO,  INTEGER,	"Requests "
	"that waited for another request's fetch of the same object "
	"(coalescing)")
VSC_FIELD(busy_wakeup,		COUNTER, INFO,  INTEGER,	"Waiting "
	"requests woken by the arrival of the object they waited for")
VSC_FIELD(waitinglist_queued,	GAUGE,   INFO,  INTEGER,	"Requests "
	"waiting for a fetch of the same object now")
VSC_FIELD(waitinglist_overflow,	COUNTER, INFO,  INTEGER,	"Requests "
	"that found waitinglist_max others waiting and fetched on their own")
VSC_FIELD(waitinglist_timeout,	COUNTER, INFO,  INTEGER,	"Requests "
	"that waited waitinglist_timeout for a fetch and then fetched on "
	"their own; the backend is slow to send headers")
VSC_FIELD(n_object,		GAUGE,   INFO,  INTEGER,	"Objects in "
	"the cache (markers not included)")
VSC_FIELD(n_objectcore,		GAUGE,   INFO,  INTEGER,	"Object "
	"cores: objects, markers, busy and private ones")
VSC_FIELD(n_objecthead,		GAUGE,   INFO,  INTEGER,	"Distinct "
	"lookup keys (URLs and hosts) in the cache")
VSC_FIELD(n_vary,		GAUGE,   INFO,  INTEGER,	"Cached "
	"objects that are a variant (the response had Vary)")
VSC_FIELD(n_expired,		COUNTER, INFO,  INTEGER,	"Objects "
	"removed because their TTL, grace and keep ran out")
VSC_FIELD(n_lru_nuked,		COUNTER, INFO,  INTEGER,	"Objects "
	"removed early to make room (the store was full); many means the "
	"cache is too small for the working set")
VSC_FIELD(n_lru_moved,		COUNTER, DIAG,  INTEGER,	"Objects "
	"moved to the head of their LRU list by a hit")
VSC_FIELD(n_lru_limited,	COUNTER, INFO,  INTEGER,	"Allocations "
	"that stopped nuking after nuke_limit objects and failed")
VSC_FIELD(n_purges,		COUNTER, INFO,  INTEGER,	"Purges "
	"executed")
VSC_FIELD(n_obj_purged,		COUNTER, INFO,  INTEGER,	"Objects "
	"purged")
VSC_FIELD(n_obj_invalidated,	COUNTER, INFO,  INTEGER,	"Objects "
	"invalidated by a successful unsafe request to their URL (RFC 9111 "
	"4.4)")
VSC_FIELD(sess_park_bytes,	GAUGE,   INFO,  BYTES,		"Memory "
	"holding the partial request heads of parked connections too big "
	"for their workspace_session (a head still arriving may hold up to "
	"twice its size); bounded by sess_park_space")
VSC_FIELD(sess_park_full,	COUNTER, INFO,  INTEGER,	"Connections "
	"closed in the middle of a request head because sess_park_space was "
	"used up; raise it, or look for clients holding connections open")
VSC_FIELD(req_body_timeout,	COUNTER, INFO,  INTEGER,	"Request "
	"bodies not received within timeout_req_body: answered 408 and "
	"closed; raise it if legitimate uploads are this slow")
VSC_FIELD(n_vcl_avail,		GAUGE,   INFO,  INTEGER,	"VCL "
	"programs loaded and on the list (vcl.list): the active one and "
	"those vcl.use can switch to")
VSC_FIELD(n_vcl_discard,	GAUGE,   INFO,  INTEGER,	"VCL "
	"programs discarded but still used by requests in flight; they "
	"unload when the last one ends")
VSC_FIELD(bans,			GAUGE,   INFO,  INTEGER,	"Bans on "
	"the ban list (ban.list), completed ones included")
VSC_FIELD(bans_completed,	GAUGE,   DIAG,  INTEGER,	"Bans on the "
	"list that test nothing any more: superseded by an identical newer "
	"ban, or the oldest")
VSC_FIELD(bans_obj,		GAUGE,   DIAG,  INTEGER,	"Bans the "
	"lurker can test: on obj.* fields, req.url and req.http.host")
VSC_FIELD(bans_req,		GAUGE,   DIAG,  INTEGER,	"Bans on other "
	"req.* fields: only lookups test them, so objects never hit again "
	"keep them on the list until they expire; prefer obj.* bans")
VSC_FIELD(bans_added,		COUNTER, DIAG,  INTEGER,	"Bans added")
VSC_FIELD(bans_deleted,		COUNTER, DIAG,  INTEGER,	"Bans removed "
	"from the list once no object needed them")
VSC_FIELD(bans_tested,		COUNTER, DIAG,  INTEGER,	"Objects "
	"tested against bans at lookup")
VSC_FIELD(bans_obj_killed,	COUNTER, DIAG,  INTEGER,	"Objects "
	"killed by bans at lookup")
VSC_FIELD(bans_lurker_tested,	COUNTER, DIAG,  INTEGER,	"Objects "
	"tested against bans by the ban lurker")
VSC_FIELD(bans_tests_tested,	COUNTER, DIAG,  INTEGER,	"Single ban "
	"tests (one ban, one object) done at lookup")
VSC_FIELD(bans_lurker_tests_tested, COUNTER, DIAG, INTEGER,	"Single "
	"ban tests done by the ban lurker")
VSC_FIELD(bans_lurker_obj_killed, COUNTER, DIAG, INTEGER,	"Objects "
	"killed by the ban lurker")
VSC_FIELD(bans_lurker_obj_killed_cutoff, COUNTER, DIAG, INTEGER, "Objects "
	"killed by the ban lurker because they pointed further down the "
	"list than ban_cutoff")
VSC_FIELD(bans_dups,		COUNTER, DIAG,  INTEGER,	"Bans "
	"completed by an identical newer ban (ban_dups)")
VSC_FIELD(bans_lookup_deferred,	COUNTER, DIAG,  INTEGER,	"Lookups "
	"that found an object with more untested bans than "
	"ban_max_tests_per_lookup: a fresh copy was fetched and the lurker "
	"left to test the old one")

VSC_FIELD(n_xkey,		GAUGE,   INFO,  INTEGER,	"Surrogate "
	"keys (tags of Surrogate-Key and xkey response headers) in the index")
VSC_FIELD(n_xkey_oc,		GAUGE,   INFO,  INTEGER,	"Links "
	"between cached objects and their surrogate keys (an object with "
	"three tags counts three)")
VSC_FIELD(xkey_purges,		COUNTER, INFO,  INTEGER,	"Purges "
	"by surrogate key (purge.key, purge.softkey, veneer.purge_key(), "
	"veneer.softpurge_key()); also counted in n_purges")
VSC_FIELD(xkey_obj_purged,	COUNTER, INFO,  INTEGER,	"Objects "
	"purged or soft-purged by surrogate key; also counted in "
	"n_obj_purged")
VSC_FIELD(xkey_dropped,		COUNTER, INFO,  INTEGER,	"Surrogate "
	"keys not indexed: longer than 1024 bytes, beyond 256 per object, "
	"beyond 32 tag headers, or no memory; a purge will not find the "
	"object by them, so keep tags short and few")
VSC_FIELD(esi_req,		COUNTER, INFO,  INTEGER,	"ESI "
	"subrequests made (one per <esi:include> delivered)")
VSC_FIELD(esi_errors,		COUNTER, DIAG,  INTEGER,	"ESI "
	"parse errors; the ESI_xmlerror log records say what and where")
VSC_FIELD(esi_warnings,		COUNTER, DIAG,  INTEGER,	"ESI "
	"parse warnings; the ESI_xmlerror log records say what and where")

VSC_FIELD(beresp_uncacheable,	COUNTER, INFO,  INTEGER,	"Backend "
	"responses stored uncacheable: passes, hit-for-pass and hit-for-miss "
	"markers, beresp.uncacheable")
VSC_FIELD(beresp_shortlived,	COUNTER, INFO,  INTEGER,	"Backend "
	"responses whose ttl + grace + keep was below the shortlived "
	"parameter, so stored in Transient")
VSC_FIELD(n_pipe,		GAUGE,   INFO,  INTEGER,	"Piped "
	"connections in progress now")
VSC_FIELD(pipe_limited,		COUNTER, INFO,  INTEGER,	"Pipes "
	"refused with a 503 because pipe_sess_max were in progress; raise "
	"pipe_sess_max")

VSC_FIELD(n_gzip,		COUNTER, INFO,  INTEGER,	"Bodies "
	"compressed: beresp.do_gzip")
VSC_FIELD(n_gunzip,		COUNTER, INFO,  INTEGER,	"Bodies "
	"uncompressed: beresp.do_gunzip, or a gzip object delivered to a "
	"client that does not accept gzip")
VSC_FIELD(n_test_gunzip,	COUNTER, INFO,  INTEGER,	"Gzip "
	"bodies from backends checked while stored; a bad one fails the "
	"fetch with a FetchError")

VSC_FIELD(backend_dns_lookups,	COUNTER, INFO,  INTEGER,	"Lookups "
	"of backends' .host names, at VCL load and every backend_dns_ttl "
	"after (numeric addresses are not looked up again)")
VSC_FIELD(backend_dns_fail,	COUNTER, INFO,  INTEGER,	"Lookups "
	"of backends' .host names that found no address; the backend is "
	"sick meanwhile (an Error record names it): check the name and the "
	"resolver")
VSC_FIELD(backend_dns_changes,	COUNTER, INFO,  INTEGER,	"Lookups "
	"whose answer differed from the one in use, which replaced it")
VSC_FIELD(backend_dns_closed,	COUNTER, DIAG,  INTEGER,	"Backend "
	"connections closed because their address left the name's answer")
VSC_FIELD(backend_wait,		COUNTER, INFO,  INTEGER,	"Backend "
	"fetches that waited in a backend's queue for a connection "
	"(max_connections reached; backend_wait_timeout, "
	"backend_wait_limit). Varnish 7.3's name")
VSC_FIELD(backend_wait_fail,	COUNTER, INFO,  INTEGER,	"Backend "
	"fetches that waited in a backend's queue and got no connection "
	"before backend_wait_timeout; each is also counted in "
	"backend_busy. Varnish 7.3's name")
VSC_FIELD(backend_closed_proxy,	COUNTER, DIAG,  INTEGER,	"Backend "
	"connections closed after a clean exchange instead of going back "
	"to the idle pool, because their backend sends a PROXY header "
	"(.proxy_header) naming one client; high with a low backend_reuse "
	"is the price of .proxy_header")
VSC_FIELD(sess_proxy_bad,	COUNTER, INFO,  INTEGER,	"Client "
	"connections to a PROXY listener (-a ...,PROXY) closed because "
	"their PROXY header was bad (not one, too long, malformed, a bad "
	"CRC) or did not arrive whole within timeout_idle; the "
	"ProxyGarbage log record says why. Not Varnish's: high means "
	"something other than the proxy connects, or it sends no header")
VSC_FIELD(dynamic_names_refused, COUNTER, INFO,  INTEGER,	"Names a "
	"dynamic director (import dynamic;) refused because it already "
	"follows max_names of them: with .backend() taking the request's "
	"Host, check the Host against the names you serve first")
#undef VSC_FIELD

/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * params.h -- THE parameter table: one row per run-time parameter.
 * No include guard: define PARAM() and include.  Rows are only appended;
 * names never change once released (operators' scripts use them).
 *
 * PARAM(name, type, units, default, min, max, flags, doc)
 *   type	TIMEOUT (double seconds), BYTES (uint64_t), UINT (unsigned),
 *		BOOL (unsigned 0/1), STRING (struct param_string), DOUBLE
 *		(double, no unit), BITS (uint64_t, one bit per name in
 *		include/param_bits.h; the set is named like the parameter)
 *   units	what the value counts, for display
 *   default, min, max	strings in the type's syntax; NULL: no limit
 *   flags	PARAM_F_RESTART: read when the child starts, so a change
 *		needs a child restart; PARAM_F_NCPU: the default is the
 *		number of online CPUs; PARAM_F_POOL: a STRING that must be
 *		min_pool,max_pool,max_age as Varnish's pool_* take it
 *   doc	what it does, and when to change it
 */

/* Thread pools ----------------------------------------------------------*/
PARAM(thread_pools, UINT, "pools", "2", "1", "64",
    PARAM_F_NCPU | PARAM_F_RESTART,
    "Number of worker thread pools; the acceptor hands sessions to them "
    "round-robin. One per CPU core spreads lock contention; the default "
    "is the number of online CPUs. Read when the child starts.")
PARAM(thread_pool_min, UINT, "threads", "100", "5", NULL, 0,
    "Worker threads each pool keeps even when idle, ready for a burst. "
    "Must not exceed thread_pool_max.")
PARAM(thread_pool_max, UINT, "threads", "5000", "5", NULL, 0,
    "Most worker threads a pool may have. A busy request holds a "
    "thread; idle keep-alive connections do not. When every thread is "
    "busy, new sessions queue (thread_queue_limit) and then are dropped "
    "(counter sess_dropped). Backend fetches that requests wait for may "
    "take as many threads again, so waiting clients never starve their "
    "own fetches. Lowered live, idle threads beyond it retire within a "
    "tenth of a second and busy ones when they finish.")
PARAM(thread_pool_add_delay, TIMEOUT, "seconds", "0", "0", NULL, 0,
    "Wait this long after creating a thread before creating the next "
    "one. Raise it if thread creation storms hurt the machine.")
PARAM(thread_pool_timeout, TIMEOUT, "seconds", "300", "10", NULL, 0,
    "A thread idle this long is retired, as long as the pool keeps "
    "thread_pool_min threads.")
PARAM(thread_pool_fail_delay, TIMEOUT, "seconds", "0.2", "0.01", NULL, 0,
    "After a failure to create a thread (counter threads_failed), wait "
    "this long before trying again.")
PARAM(thread_pool_stack, BYTES, "bytes", "192k", "64k", NULL, 0,
    "Stack size of worker threads. Regex-heavy or deeply nested VCL "
    "may need more.")
PARAM(thread_queue_limit, UINT, "sessions", "20", "0", NULL, 0,
    "Sessions that may wait in each pool's queue for a thread when all "
    "are busy. Beyond it new sessions are dropped and counted in "
    "sess_dropped: raise thread_pool_max first. Open connections with "
    "a request (or part of one) to serve wait in the queue past it: "
    "they are never dropped for it.")

/* Sockets and client timeouts -------------------------------------------*/
PARAM(listen_depth, UINT, "connections", "1024", "0", NULL, PARAM_F_RESTART,
    "Backlog of the listen sockets: connections the kernel accepts "
    "before veneerd does. Also capped by net.core.somaxconn. Read "
    "when the sockets are opened, at start.")
PARAM(timeout_idle, TIMEOUT, "seconds", "5", "0", NULL, 0,
    "How long a client connection may stay idle between requests, and "
    "the longest a client may take to send a request's header. Past it "
    "the connection is closed (counter sc_rx_timeout). 0 means no "
    "limit.")
PARAM(timeout_linger, TIMEOUT, "seconds", "0.05", "0", NULL, 0,
    "After a response, the connection waits this long (at most "
    "timeout_idle) for its next request in its pool's linger set, where "
    "a free worker serves it at once, before it is handed to the waiter. "
    "Saves a hand-over for clients that send again soon; 0 hands over "
    "immediately.")
PARAM(send_timeout, TIMEOUT, "seconds", "600", "0", NULL, 0,
    "Total time allowed to send a response to the client. A client "
    "that does not read for this long is dropped (counter "
    "sc_tx_error). 0 means no limit.")
PARAM(idle_send_timeout, TIMEOUT, "seconds", "60", "0", NULL, 0,
    "Longest time a response may make no progress while being sent to "
    "the client before the connection is dropped. 0 means no limit.")
PARAM(shutdown_timeout, TIMEOUT, "seconds", "5", "0", NULL, 0,
    "On SIGTERM or SIGINT, how long requests in flight may take to "
    "finish before the child is stopped anyway.")

/* Backends --------------------------------------------------------------*/
PARAM(backend_idle_timeout, TIMEOUT, "seconds", "60", "1", NULL, 0,
    "An idle backend connection kept for reuse is closed after this "
    "long.")
PARAM(connect_timeout, TIMEOUT, "seconds", "3.5", "0", NULL, 0,
    "Default time to wait for a backend connection to be accepted. "
    "VCL and backend definitions may override it. 0 means no limit "
    "(the kernel's own, about two minutes).")
PARAM(first_byte_timeout, TIMEOUT, "seconds", "60", "0", NULL, 0,
    "Default time to wait for the first byte of a backend's response "
    "once the request is sent; 0 means no limit.")
PARAM(between_bytes_timeout, TIMEOUT, "seconds", "60", "0", NULL, 0,
    "Default longest silence between two reads of a backend response; "
    "past it the fetch fails. 0 means no limit.")
PARAM(pipe_timeout, TIMEOUT, "seconds", "60", "0", NULL, 0,
    "A piped connection with no traffic in either direction for this "
    "long is closed; 0 means no limit.")
PARAM(max_retries, UINT, "retries", "4", "0", NULL, 0,
    "Upper limit on backend fetch retries (return(retry) in VCL).")
PARAM(max_restarts, UINT, "restarts", "4", "0", NULL, 0,
    "Upper limit on request restarts (return(restart) in VCL); past "
    "it the request fails with 503.")

/* Workspaces and HTTP limits ----------------------------------------------*/
PARAM(workspace_client, BYTES, "bytes", "128k", "9k", NULL, 0,
    "Memory for each client request: its log buffer (vsl_buffer), the "
    "receive buffer (http_req_size plus 16k), headers added or changed, "
    "VCL strings; so it must exceed http_req_size by vsl_buffer plus "
    "24k or more. The default leaves VCL 64k with the other defaults "
    "(varnishd's 64k leaves about 46k: the receive buffer is reserved "
    "whole here). When it "
    "runs out the request gets a 500 and the connection closes (counter "
    "ws_client_overflow): raise it.")
PARAM(workspace_backend, BYTES, "bytes", "96k", "1k", NULL, 0,
    "Memory for each backend request: its log buffer (vsl_buffer), the "
    "response header buffer (http_resp_size), a copy of the client's "
    "request (up to http_req_size), backend request and response "
    "headers; so it must exceed http_resp_size plus http_req_size by "
    "vsl_buffer plus 11k or more, and veneerd refuses to start "
    "otherwise. When it runs out the fetch fails with 503 (counter "
    "ws_backend_overflow): raise it.")
PARAM(workspace_session, BYTES, "bytes", "0.75k", "384b", NULL, 0,
    "Memory kept by each idle connection, holding the part of a request "
    "received before the client paused.")
PARAM(workspace_thread, BYTES, "bytes", "2k", "0.25k", "8k", 0,
    "Scratch memory of each worker thread (I/O vectors).")
PARAM(http_req_hdr_len, BYTES, "bytes", "8k", "40b", NULL, 0,
    "Longest single header line accepted in a client request; longer "
    "gets 431 (counter client_req_431).")
PARAM(http_req_size, BYTES, "bytes", "32k", "0.25k", NULL, 0,
    "Largest request line plus header section accepted from a client; "
    "larger gets 431 (counter client_req_431). workspace_client must be "
    "larger by vsl_buffer plus 24k or more, and workspace_backend must "
    "hold it beside http_resp_size (a cache fetch copies the request).")
PARAM(http_resp_hdr_len, BYTES, "bytes", "8k", "40b", NULL, 0,
    "Longest single header line accepted in a backend response; longer "
    "fails the fetch with 503.")
PARAM(http_resp_size, BYTES, "bytes", "32k", "0.25k", NULL, 0,
    "Largest status line plus header section accepted from a backend; "
    "larger fails the fetch with 503.")
PARAM(http_max_hdr, UINT, "header lines", "64", "32", "65000", 0,
    "Most header lines in a request or response. A client request with "
    "more gets 431; VCL adding more logs LostHeader.")
PARAM(http_req_body_max, BYTES, "bytes", "0", "0", NULL, 0,
    "Largest request body accepted from a client, 0 for no limit. A "
    "larger one is refused with 413 (counter client_req_413).")

/* Manager -----------------------------------------------------------------*/
PARAM(cli_timeout, TIMEOUT, "seconds", "60", "1", NULL, 0,
    "How long the manager waits for the child to answer a command or a "
    "ping. A child that does not answer in time is killed and, with "
    "auto_restart, started again.")
PARAM(ping_interval, UINT, "seconds", "3", "0", NULL, PARAM_F_RESTART,
    "Seconds between the manager's pings of the child; 0 disables "
    "pinging.")
PARAM(auto_restart, BOOL, "bool", "on", NULL, NULL, 0,
    "Start a new child when the child dies or stops answering.")

/* Caching defaults --------------------------------------------------------*/
PARAM(default_ttl, TIMEOUT, "seconds", "120", "0", NULL, 0,
    "TTL given to a cacheable response that says nothing of its own "
    "lifetime.")
PARAM(default_grace, TIMEOUT, "seconds", "10", "0", NULL, 0,
    "How long past its TTL an object may still be served while a fresh "
    "copy is fetched in the background.")
PARAM(default_keep, TIMEOUT, "seconds", "0", "0", NULL, 0,
    "How long past TTL and grace an object is kept to revalidate it "
    "with a conditional request.")

PARAM(waitinglist_max, UINT, "requests", "1000", "0", NULL, 0,
    "How many requests may wait for one fetch of an object; the next "
    "ones fetch on their own (counted in waitinglist_overflow). 0: no "
    "limit.")
PARAM(waitinglist_timeout, TIMEOUT, "seconds", "10", "0", NULL, 0,
    "How long a request waits for another request's fetch of the same "
    "object to bring headers before it fetches on its own (counted in "
    "waitinglist_timeout). 0: no limit.")
PARAM(nuke_limit, UINT, "objects", "50", "0", NULL, 0,
    "How many objects one allocation may nuke to make room in a full "
    "store before it gives up (the object is then not cached).")
PARAM(lru_interval, TIMEOUT, "seconds", "2", "0", NULL, 0,
    "An object hit again within this time is not moved in the LRU list "
    "again; saves lock traffic on popular objects.")
PARAM(fetch_chunksize, BYTES, "bytes", "16k", "4k", "1G", 0,
    "Size of the body pieces allocated for a response of unknown length "
    "(chunked or read to the end); they grow up to fetch_maxchunksize.")
PARAM(fetch_maxchunksize, BYTES, "bytes", "1M", "64k", "1G", 0,
    "Largest body piece allocated at once.")
PARAM(shortlived, TIMEOUT, "seconds", "10", "0", NULL, 0,
    "Objects whose TTL + grace + keep is shorter than this go to the "
    "Transient store instead of the main one.")
PARAM(cache_status, BOOL, "bool", "on", NULL, NULL, 0,
    "Add a Cache-Status header (RFC 9211) to every response, saying "
    "whether it was a hit, a miss, why, and the remaining TTL.")

/* The shared-memory log ---------------------------------------------------*/
PARAM(vsl_space, BYTES, "bytes", "80M", "1M", "4G", PARAM_F_RESTART,
    "Size of the shared-memory log. Readers (veneerlog, veneerncsa) that "
    "fall a whole lap behind lose records and say so; a bigger log gives "
    "them more time. Read when the child starts.")
PARAM(vsl_buffer, BYTES, "bytes", "16k", "267b", "1M", 0,
    "Each transaction's log buffer, taken from its workspace: records go "
    "to the shared log in batches of this size. Must be larger than "
    "vsl_reclen.")
PARAM(vsl_reclen, BYTES, "bytes", "255b", "16b", "65535b", 0,
    "Longest payload of one log record; longer ones are truncated.")
PARAM(vsl_mask, STRING, "tags",
    "-Debug,-ObjProtocol,-ObjStatus,-ObjReason,-ObjHeader,-VCL_trace,"
    "-ExpKill,-WorkThread,-Hash,-VfpAcct,-H2RxHdr,-H2RxBody,-H2TxHdr,"
    "-H2TxBody,-VdpAcct,-VCL_time", NULL, NULL, 0,
    "Log tags not written to the shared log: a comma-separated list of "
    "-Tag (mask) and +Tag (unmask), applied in order to the default; "
    "\"default\" restores it. Masking busy tags (ReqHeader...) saves "
    "log space. A change (param.set) applies at once.")

/* Slow clients ------------------------------------------------------------*/
PARAM(sess_park_space, BYTES, "bytes", "64M", "0", NULL, 0,
    "Memory all parked connections together may hold for partial "
    "request heads too big for their workspace_session (up to "
    "http_req_size each), so a client that pauses in the middle of a "
    "large header costs memory, not a worker thread. In use: gauge "
    "sess_park_bytes. A connection that would go past it is closed "
    "(counters sess_park_full, sc_overload); raise it if that happens "
    "under legitimate load.")
PARAM(timeout_req_body, TIMEOUT, "seconds", "60", "0", NULL, 0,
    "Longest time a client may take to send a whole request body, from "
    "when veneerd starts reading it (as a fetch starts sending it on); "
    "timeout_idle still bounds each pause. Past "
    "it the request gets 408, the connection is closed (counters "
    "req_body_timeout, sc_rx_body) and a backend fetch sending that "
    "body is abandoned, so a body trickled in holds a worker and a "
    "backend connection for at most this long. Raise it for clients "
    "that upload large bodies over slow links; 0 means no limit. "
    "(Varnish 7.1 has no such parameter.)")

/* Caching ----------------------------------------------------------------*/
PARAM(invalidate_on_unsafe, BOOL, "bool", "on", NULL, NULL, 0,
    "RFC 9111 4.4: a successful (2xx, 3xx) POST, PUT, DELETE or PATCH "
    "removes the cached objects of its URL, and of its Location and "
    "Content-Location on the same host, every variant of each (counter "
    "n_obj_invalidated). Turn it off if a backend answers every POST "
    "with 200 and the cache empties for nothing.")

/* VCL --------------------------------------------------------------------*/
PARAM(vcl_path, STRING, "directories", VENEER_SYSCONF_DIR ":" VENEER_VCL_DIR,
    NULL, NULL, 0,
    "Directories, separated by colons, where `include \"file\";` looks "
    "for a file that is not beside the file including it, and where -f "
    "looks for a relative file name that is not in the current "
    "directory.")
PARAM(vcc_err_unref, BOOL, "bool", "on", NULL, NULL, 0,
    "A backend, probe, ACL or subroutine that the VCL declares and never "
    "uses is an error (on) or a warning (off). Turn it off to load a VCL "
    "with leftovers in it.")
PARAM(vcc_allow_inline_c, BOOL, "bool", "off", NULL, NULL, 0,
    "Allow C{ ... }C, C code in VCL that runs inside veneerd with all its "
    "privileges and none of the compiler's checks. Off unless you wrote "
    "and trust that code.")
PARAM(cc_command, STRING, "command", VENEER_CC_COMMAND, NULL, NULL, 0,
    "The shell command that builds the C a VCL compiles to into a shared "
    "object: %s is replaced by the C file, %o by the object to write, "
    "%% by %. It runs in the VCL's own directory in the workdir, where "
    "vrt.h is. Set it to use another compiler or other flags.")

PARAM(vcc_optimize, BOOL, "bool", "on", NULL, NULL, 0,
    "Let the VCL compiler make the VCL cheaper without changing what it "
    "does: one lookup for a run of `==` tests on one field, a header or "
    "regex match done once while its subject is unchanged, literal "
    "alternations matched without backtracking, constants folded "
    "(veneer-vcl(7), \"What the compiler optimises\"). Off compiles "
    "each statement as written; for comparing, or if you suspect it.")
PARAM(vcl_profile, BOOL, "bool", "off", NULL, NULL, 0,
    "Count every VCL condition, sub call and method: how often it ran, "
    "how often it was true and the time it took, published per loaded "
    "VCL as the VCLP counters (veneerstat -f 'VCLP.*', and the cost view "
    "of its screen). Costs about two clock reads per condition while on; "
    "nothing measurable while off.")
PARAM(thread_pool_slice, TIMEOUT, "seconds", "0.0001", "0", "0.1", 0,
    "The CPU time slice each worker thread asks the Linux scheduler for "
    "(Linux 6.12 or later; older kernels ignore it). With a short slice "
    "a worker woken by its backend's answer runs at once on a busy CPU "
    "instead of waiting for the running worker's slice to end: on a "
    "saturated core it cut the 99th percentile of responses that went to "
    "the backend from about 40 ms to about 15 ms. 0 leaves the kernel's "
    "default; values under 0.0001 count as 0.0001.")
PARAM(vcl_cooldown, TIMEOUT, "seconds", "600", "1", NULL, 0,
    "How long a VCL in state auto stays warm once nothing needs it (not "
    "active, no label pointing at it, no label it uses); then it goes "
    "cold, and vcl.use or vcl.label warms it again. Checked every few "
    "seconds. Until backend probes exist (issue 15) a cold VCL differs "
    "from a warm one only in what vcl.list shows.")

/* Bans ------------------------------------------------------------------*/
PARAM(ban_dups, BOOL, "bool", "on", NULL, NULL, 0,
    "When a ban is added, mark an older identical ban completed: the new "
    "one tests every object the old one would have. Costs a hash table "
    "probe per ban, whatever the list's length.")
PARAM(ban_lurker_age, TIMEOUT, "seconds", "60", "0", NULL, 0,
    "The ban lurker leaves a ban alone until it is this old: lookups "
    "test the objects that are hit meanwhile, and bans often come in "
    "bursts. Lower it to free memory held by banned objects sooner.")
PARAM(ban_lurker_batch, UINT, "objects", "1000", "1", NULL, 0,
    "Objects the ban lurker examines before sleeping ban_lurker_sleep.")
PARAM(ban_lurker_sleep, TIMEOUT, "seconds", "0.010", "0", NULL, 0,
    "How long the ban lurker sleeps after each ban_lurker_batch objects. "
    "0 stops the lurker: then only lookups test bans, and objects never "
    "hit keep old bans on the list until they expire.")
PARAM(ban_cutoff, UINT, "bans", "0", "0", NULL, 0,
    "When the ban list is longer than this, the ban lurker kills the "
    "objects that point further down it than this many bans instead of "
    "testing them: the long tail of rarely hit objects goes, so lookups "
    "never have more than ban_cutoff bans to test. 0: no limit.")
PARAM(ban_max_tests_per_lookup, UINT, "tests", "10000", "0", NULL, 0,
    "Most bans one lookup tests an object against. An object with more "
    "untested bans is not delivered: a fresh copy is fetched (counter "
    "bans_lookup_deferred) and the ban lurker tests the old one, so a "
    "burst of bans never stalls a lookup. 0: no limit.")

/* Varnish 7.1's other parameters ------------------------------------------*/
/*
 * Varnish's scripts and varnishtest set these (-p debug=+vtc_mode,
 * param.set http_gzip_support off); names, types, units, defaults and
 * limits are Varnish 7.1's.  Most are not used yet: their doc says so.
 */
PARAM(accept_filter, BOOL, "bool", "off", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it. Kernel accept filters exist on FreeBSD "
    "only; on Linux Varnish too leaves this off.")
PARAM(acceptor_sleep_decay, DOUBLE, "", "0.9", "0", "1", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it. When accept() fails for lack of file "
    "descriptors or memory, veneerd's acceptor sleeps 1 ms, doubling "
    "on each failure up to 50 ms.")
PARAM(acceptor_sleep_incr, TIMEOUT, "seconds", "0", "0", "1", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it (see acceptor_sleep_decay).")
PARAM(acceptor_sleep_max, TIMEOUT, "seconds", "0.05", "0", "10", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it (see acceptor_sleep_decay).")
PARAM(backend_local_error_holddown, TIMEOUT, "seconds", "10", "0", NULL, 0,
    "After a backend connect fails for a reason of this host (EACCES, "
    "EPERM, EADDRNOTAVAIL: no local port left), no new connection to "
    "that backend is tried for this long; fetches that would need one "
    "fail at once (VBE.*.helddown). Idle connections are still used. "
    "0: no hold-down.")
PARAM(backend_remote_error_holddown, TIMEOUT, "seconds", "0.25", "0", NULL,
    0,
    "After a backend connect is refused (ECONNREFUSED) or its network "
    "is unreachable (ENETUNREACH), no new connection to that backend "
    "is tried for this long; fetches that would need one fail at once "
    "(VBE.*.helddown). Idle connections are still used. 0: no "
    "hold-down.")
PARAM(ban_lurker_holdoff, TIMEOUT, "seconds", "0.010", "0", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it. veneerd's equivalent is "
    "ban_lurker_sleep.")
PARAM(cc_warnings, STRING, "", "-Wall -Werror", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: cc_command holds all the compiler's "
    "flags, and it has no %w.")
PARAM(cli_limit, BYTES, "bytes", "48k", "128b", "99999999b", 0,
    "The longest admin CLI answer: a longer one is cut there and its "
    "status is 201 (truncated) instead of 200.  Raise it for long "
    "vcl.show or ban.list answers.")
PARAM(clock_skew, UINT, "seconds", "10", "0", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(clock_step, TIMEOUT, "seconds", "1", "0", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(critbit_cooloff, TIMEOUT, "seconds", "180", "60", "254", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: its hash is not a critbit tree.")
PARAM(gzip_buffer, BYTES, "bytes", "32k", "2k", NULL, 0,
    "Size of the buffer each gzip, gunzip or test-gunzip of a body "
    "works through (allocated per body while it is processed). "
    "Larger means fewer, larger writes and stored pieces; smaller "
    "saves memory per concurrent compression.")
PARAM(gzip_level, UINT, "", "6", "0", "9", 0,
    "Compression level of beresp.do_gzip: 0 stores without "
    "compressing, 9 compresses most and costs most CPU.")
PARAM(gzip_memlevel, UINT, "", "8", "1", "9", 0,
    "zlib memLevel of beresp.do_gzip: memory zlib uses to compress "
    "(1 least and slowest, 9 most and fastest).")
PARAM(h2_header_table_size, BYTES, "bytes", "4k", "0b", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(h2_initial_window_size, BYTES, "bytes", "65535b", "65535b",
    "2147483647b", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(h2_max_concurrent_streams, UINT, "streams", "100", "0", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(h2_max_frame_size, BYTES, "bytes", "16k", "16k", "16777215b", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(h2_max_header_list_size, BYTES, "bytes", "2147483647b", "0b", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(h2_rx_window_increment, BYTES, "bytes", "1M", "1M", "1G", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(h2_rx_window_low_water, BYTES, "bytes", "10M", "65535", "1G", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(h2_rxbuf_storage, STRING, "", "Transient", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: HTTP/2 is not implemented.")
PARAM(http1_iovs, UINT, "struct iovec (=16 bytes)", "64", "5", "1024", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it. veneerd's I/O vectors come from "
    "workspace_thread.")
PARAM(http_gzip_support, BOOL, "bool", "on", NULL, NULL, 0,
    "Enable gzip support. When on, a looked-up request's "
    "Accept-Encoding becomes \"gzip\" if the client accepts gzip "
    "and is removed otherwise; fetches into the cache ask the backend "
    "for gzip; beresp.do_gzip and beresp.do_gunzip take effect; gzip "
    "bodies from the backend are checked as they are stored; and a "
    "stored gzip object is uncompressed on delivery to a client that "
    "does not accept gzip. When off, bodies are stored and delivered "
    "as they came (ESI still looks inside a gzip'd body and delivers "
    "it gzip'd).")
PARAM(http_range_support, BOOL, "bool", "on", NULL, NULL, 0,
    "Byte ranges of cached objects: a single satisfiable Range gets "
    "206, an unsatisfiable one 416, and 200 answers say Accept-Ranges: "
    "bytes. When off, a Range is ignored (the whole object, 200) and "
    "no Accept-Ranges is added. A pass forwards Range either way.")
PARAM(max_esi_depth, UINT, "levels", "5", "0", NULL, 0,
    "How deep ESI includes go: an include at this depth is left out, "
    "with a VCL_Error record (a page including itself stops here).")
PARAM(max_vcl, UINT, "", "100", "0", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it (see max_vcl_handling).")
PARAM(max_vcl_handling, UINT, "", "1", "0", "2", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: vcl.load neither warns nor refuses "
    "when many VCLs are loaded.")
PARAM(pcre2_depth_limit, UINT, "", "20", "1", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: regular expressions match with PCRE2's "
    "built-in limits.")
PARAM(pcre2_jit_compilation, BOOL, "bool", "on", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it and always JIT-compiles regular "
    "expressions where PCRE2 can.")
PARAM(pcre2_match_limit, UINT, "", "10000", "1", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it (see pcre2_depth_limit).")
PARAM(pipe_sess_max, UINT, "connections", "0", "0", NULL, 0,
    "Most piped connections at once; 0 is no limit.  A pipe past it "
    "gets a 503 and counts in pipe_limited; n_pipe counts those in "
    "progress.")
PARAM(pool_req, STRING, "", "10,100,10", NULL, NULL, PARAM_F_POOL,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: each thread pool keeps up to 100 free "
    "requests. The value is min_pool,max_pool,max_age (seconds), "
    "min_pool not above max_pool.")
PARAM(pool_sess, STRING, "", "10,100,10", NULL, NULL, PARAM_F_POOL,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: each thread pool keeps up to 1000 free "
    "sessions. Syntax as pool_req.")
PARAM(pool_vbo, STRING, "", "10,100,10", NULL, NULL, PARAM_F_POOL,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: each thread pool keeps up to 100 free "
    "backend fetches. Syntax as pool_req.")
PARAM(prefer_ipv6, BOOL, "bool", "off", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(rush_exponent, UINT, "requests per request", "3", "2", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(sigsegv_handler, BOOL, "bool", "on", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: the child always catches SIGSEGV and "
    "SIGBUS and reports them as a panic (panic.show).")
PARAM(syslog_cli_traffic, BOOL, "bool", "on", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: it never logs CLI commands line by line, "
    "and always logs the changes they make (param.set, vcl.load...).")
PARAM(tcp_fastopen, BOOL, "bool", "off", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(tcp_keepalive_intvl, TIMEOUT, "seconds", "75", "1", "100", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: client connections keep the kernel's "
    "keepalive settings. The default is Linux's usual "
    "(net.ipv4.tcp_keepalive_intvl); varnishd reads the kernel's.")
PARAM(tcp_keepalive_probes, UINT, "probes", "9", "1", "100", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it (see tcp_keepalive_intvl).")
PARAM(tcp_keepalive_time, TIMEOUT, "seconds", "7200", "1", "7200", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it (see tcp_keepalive_intvl).")
PARAM(thread_pool_destroy_delay, TIMEOUT, "seconds", "1", "0.01", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(thread_pool_reserve, UINT, "threads", "0", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests (at "
    "most 95% of thread_pool_min, as there); "
    "veneerd does not use it. veneerd's equivalent: backend fetches "
    "that requests wait for may take as many threads again as "
    "thread_pool_max (see there).")
PARAM(thread_pool_watchdog, TIMEOUT, "seconds", "60", "0.1", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: a stuck child is found by the manager's "
    "pings (ping_interval, cli_timeout).")
PARAM(thread_stats_rate, UINT, "requests", "10", "0", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: workers publish their counters when "
    "they go idle.")
PARAM(vary_notice, UINT, "variants", "10", "1", NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(vcc_unsafe_path, BOOL, "bool", "on", NULL, NULL, 0,
    "When off, VCL files come from vcl_path only: an include or a "
    "vcl.load naming a path with '/' is refused (the -f file at start "
    "is not checked).")
PARAM(vmod_path, STRING, "directories", "", NULL, NULL, 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it: its VMODs are built in, and import "
    "loads no file.")
PARAM(vsm_free_cooldown, TIMEOUT, "seconds", "60", "10", "600", 0,
    "Accepted for compatibility with Varnish's scripts and tests; "
    "veneerd does not use it.")
PARAM(debug, BITS, "", "none", NULL, NULL, 0,
    "Debugging switches, by name: a comma-separated list of +name (on), "
    "-name (off), none (all off) and default, applied in order to the "
    "current value; shown as the names that are on, or none. Accepted "
    "for compatibility with Varnish's scripts and tests; veneerd acts "
    "on none of these bits yet.")
PARAM(experimental, BITS, "", "none", NULL, NULL, 0,
    "Experimental features, by name; syntax as debug. Accepted for "
    "compatibility with Varnish's scripts and tests; veneerd acts on "
    "none of these bits yet.")
PARAM(feature, BITS, "", "+validate_headers", NULL, NULL, 0,
    "Optional behaviours, by name; syntax as debug, and default "
    "restores +validate_headers. Bits for what veneerd does not have "
    "(http2, wait_silo...) are accepted for compatibility with "
    "Varnish's scripts and tests and do nothing.")
PARAM(backend_dns_ttl, TIMEOUT, "seconds", "30", "0.05", NULL, 0,
    "How often a backend's .host name is looked up again, in the "
    "background, while its VCL is warm: a changed answer is used from "
    "the next fetch on, without a reload, and idle connections to "
    "addresses no longer in it are closed; a name that stops resolving "
    "makes its backend sick until it resolves again. getaddrinfo(3) "
    "gives no record TTL, so this alone sets the pace. Not in Varnish, "
    "which resolves a .host once, when the VCL is compiled.")
PARAM(backend_wait_timeout, TIMEOUT, "seconds", "0", "0", NULL, 0,
    "A fetch that finds its backend at .max_connections waits this "
    "long, in the backend's queue, for a connection to be returned or "
    "closed, then fails with 503 (FetchError \"busy\"). 0, the "
    "default, means no waiting, as in Varnish 7.1. From Varnish 7.3, "
    "where VCL may also set it per backend; veneerd has only the "
    "parameter. Keep it to a few seconds: every waiter holds a "
    "worker thread.")
PARAM(backend_wait_limit, UINT, "fetches", "0", "0", NULL, 0,
    "How many fetches may wait at once for one backend at "
    ".max_connections (see backend_wait_timeout); one more fails with "
    "503 at once. 0, the default, means no queue, as in Varnish 7.1. "
    "From Varnish 7.3.")
#undef PARAM

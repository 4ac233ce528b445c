/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vmod_std.h -- the modules built into veneerd: std (`import std;`),
 * purge, directors, blob and proxy as Varnish 7.1 defines them,
 * saintmode as varnish-modules does, veneer
 * (`import veneer;`, Veneer's own), and vtc and debug, what Varnish's
 * test suite imports: each function's name, return type and
 * arguments.  No include guard: define VMOD_FUNC() and the argument
 * macros and include.  The compiler type-checks calls from it (named
 * and positional arguments, defaults) and lets a VCL call a module's
 * functions only after it imports that module; vrt.h declares the C
 * functions from it; src/cache/vmod_<module>.c implement them.  A
 * module's rows stay together, in the order the manual lists them.
 *
 * VMOD_FUNC(module, function, RETURN, args, "doc")
 *   RETURN	a VCL type (STRING, INT, ..., VOID)
 *   args	a sequence, no commas between, of:
 *     VMOD_A(TYPE, name)		required
 *     VMOD_D(TYPE, name, "default")	defaulted: the default in VCL syntax
 *     VMOD_O(TYPE, name)		optional without a default: C gets
 *					(VCL_BOOL valid_name, VCL_TYPE name)
 *     VMOD_E(name, "a,b,c", "default")	ENUM, passed as its string
 *     VMOD_P(KIND)			state the compiler passes without
 *					the VCL writing it: C gets a struct
 *					vmod_priv * (vrt.h), KIND one of
 *					TASK (one per client request or
 *					fetch, each ESI include its own),
 *					TOP (one per client request, shared
 *					with its ESI includes: a function
 *					taking it is for client methods
 *					only), VCL (one per VCL and module),
 *					CALL (one per call site)
 *   TYPE includes STRANDS (any string expression), HEADER (a header
 *   reference, req.http.X), HTTP (req, bereq, resp, beresp) and REGEX
 *   (a pattern literal, compiled when the VCL loads, or a REGEX-typed
 *   call).
 *
 * The C function is VCL_<RETURN> vmod_<module>_<function>(VRT_CTX, ...).
 *
 * Objects (`new NAME = module.class(args);` in vcl_init), each defined
 * where the module's functions are, after them:
 *
 * VMOD_OBJ(module, class, args, "doc")
 *   the constructor's arguments.  C: struct vmod_<module>_<class>,
 *   VCL_VOID vmod_<module>_<class>__init(VRT_CTX,
 *	struct vmod_<module>_<class> **, const char *vcl_name, args...)
 *   (leaves *op NULL and fails the context when it cannot), and
 *   VCL_VOID vmod_<module>_<class>__fini(struct vmod_<module>_<class> **)
 *   (frees, and sets *op NULL).
 * VMOD_METHOD(module, class, method, RETURN, args, where, "doc")
 *   NAME.method(args).  where: the methods (a VM_* mask of vrt.h) it may
 *   be called in, VM_ALL for anywhere.  C: VCL_<RETURN>
 *   vmod_<module>_<class>_<method>(VRT_CTX, struct vmod_<module>_<class> *,
 *   args...).
 * An includer defines VMOD_FUNC and the argument macros (VMOD_P too);
 * VMOD_OBJ and VMOD_METHOD only if it cares about objects.
 */

/* The blob module's ENUMs, undefined at the end. */
#define VMOD_BLOB_CODECS \
	"IDENTITY,BASE64,BASE64URL,BASE64URLNOPAD,BASE64CF,HEX,URL"
#define VMOD_BLOB_CASES	"LOWER,UPPER,DEFAULT"

#ifdef VMOD_FUNC
VMOD_FUNC(std, toupper, STRING, VMOD_A(STRANDS, s),
    "The string in upper case (ASCII).")
VMOD_FUNC(std, tolower, STRING, VMOD_A(STRANDS, s),
    "The string in lower case (ASCII).")
VMOD_FUNC(std, log, VOID, VMOD_A(STRANDS, s),
    "Writes a VCL_Log record to the shared-memory log.")
VMOD_FUNC(std, syslog, VOID, VMOD_A(INT, priority) VMOD_A(STRANDS, s),
    "Sends s to syslog(3) with priority (facility | level).")
VMOD_FUNC(std, integer, INT,
    VMOD_O(STRING, s) VMOD_O(INT, fallback) VMOD_O(BOOL, bool)
    VMOD_O(BYTES, bytes) VMOD_O(DURATION, duration) VMOD_O(REAL, real)
    VMOD_O(TIME, time),
    "Converts exactly one of its arguments to an integer; fallback "
    "when that fails.")
VMOD_FUNC(std, real, REAL,
    VMOD_O(STRING, s) VMOD_O(REAL, fallback) VMOD_O(INT, integer)
    VMOD_O(BOOL, bool) VMOD_O(BYTES, bytes) VMOD_O(DURATION, duration)
    VMOD_O(TIME, time),
    "Converts exactly one of its arguments to a real; fallback when "
    "that fails.")
VMOD_FUNC(std, duration, DURATION,
    VMOD_O(STRING, s) VMOD_O(DURATION, fallback) VMOD_O(REAL, real)
    VMOD_O(INT, integer),
    "Converts \"1.5m\", a real (seconds) or an integer (seconds) to a "
    "duration; fallback when that fails.")
VMOD_FUNC(std, bytes, BYTES,
    VMOD_O(STRING, s) VMOD_O(BYTES, fallback) VMOD_O(REAL, real)
    VMOD_O(INT, integer),
    "Converts \"10KB\", a real or an integer to bytes; fallback when "
    "that fails.")
VMOD_FUNC(std, ip, IP,
    VMOD_A(STRING, s) VMOD_O(IP, fallback) VMOD_D(BOOL, resolve, "true")
    VMOD_O(STRING, p),
    "Converts s (an address, or a name when resolve) to an IP with port "
    "p (default 80); fallback when that fails.")
VMOD_FUNC(std, time, TIME,
    VMOD_O(STRING, s) VMOD_O(TIME, fallback) VMOD_O(REAL, real)
    VMOD_O(INT, integer),
    "Converts an HTTP date, ISO 8601 date or seconds since the epoch to "
    "a time; fallback when that fails.")
VMOD_FUNC(std, random, REAL, VMOD_A(REAL, lo) VMOD_A(REAL, hi),
    "A random real between lo and hi.")
VMOD_FUNC(std, healthy, BOOL, VMOD_A(BACKEND, be),
    "Whether the backend is healthy.")
VMOD_FUNC(std, port, INT, VMOD_A(IP, ip),
    "The port of an IP address.")
VMOD_FUNC(std, querysort, STRING, VMOD_A(STRING, s),
    "The URL with its query parameters sorted.")
VMOD_FUNC(std, strstr, STRING, VMOD_A(STRING, s1) VMOD_A(STRING, s2),
    "The tail of s1 from the first s2 in it, or unset.")
VMOD_FUNC(std, fileread, STRING, VMOD_A(STRING, path),
    "The contents of a file, read once and cached.")
VMOD_FUNC(std, collect, VOID,
    VMOD_A(HEADER, hdr) VMOD_D(STRING, sep, "\", \""),
    "Joins all lines of a header into one, separated by sep.")
VMOD_FUNC(std, set_ip_tos, VOID, VMOD_A(INT, tos),
    "Sets the IP type-of-service of the client connection.")
VMOD_FUNC(std, cache_req_body, BOOL, VMOD_A(BYTES, size),
    "Caches a request body of at most size, for retries and restarts.")
VMOD_FUNC(std, rollback, VOID, VMOD_A(HTTP, h),
    "Restores req or bereq as it was received.")
VMOD_FUNC(std, late_100_continue, VOID, VMOD_A(BOOL, late),
    "Whether the 100 Continue is sent only when the body is read.")
VMOD_FUNC(std, timestamp, VOID, VMOD_A(STRING, s),
    "Writes a Timestamp record labelled s.")
VMOD_FUNC(std, ban, BOOL, VMOD_A(STRING, expr),
    "Adds a ban; false when it fails (see std.ban_error).")
VMOD_FUNC(std, ban_error, STRING, ,
    "Why the last std.ban() of this task failed, or \"\".")
VMOD_FUNC(std, real2time, TIME, VMOD_A(REAL, r) VMOD_D(TIME, base, "now"),
    "VCL 4.0: the real as a time; base is 4.1's fallback.")
VMOD_FUNC(std, time2integer, INT, VMOD_A(TIME, t) VMOD_D(INT, base, "0"),
    "VCL 4.0: the time as an integer; base is 4.1's fallback.")
VMOD_FUNC(std, time2real, REAL, VMOD_A(TIME, t) VMOD_D(REAL, base, "0.0"),
    "VCL 4.0: the time as a real; base is 4.1's fallback.")
VMOD_FUNC(std, real2integer, INT, VMOD_A(REAL, r) VMOD_A(INT, fallback),
    "VCL 4.0: a real rounded towards zero; fallback if it does not fit.")
VMOD_FUNC(std, round, REAL, VMOD_A(REAL, r),
    "r rounded to the nearest whole number (halves away from zero).")
VMOD_FUNC(std, getenv, STRING, VMOD_A(STRING, name),
    "The value of an environment variable of veneerd, or unset.")
VMOD_FUNC(std, file_exists, BOOL, VMOD_A(STRING, path),
    "Whether path names something that exists.")
VMOD_FUNC(purge, hard, INT, ,
    "Purges every object of this request's hash (all variants, and "
    "hit-for-miss and hit-for-pass markers), as return (purge) does; "
    "the number of objects.  Restricted to vcl_hit and vcl_miss.")
VMOD_FUNC(purge, soft, INT,
    VMOD_D(DURATION, ttl, "0") VMOD_D(DURATION, grace, "-1")
    VMOD_D(DURATION, keep, "-1"),
    "Soft purge of every object of this request's hash: stale after "
    "ttl, with grace and keep capped at grace and keep (negative: left "
    "as they are), so a stale copy still covers a slow backend and can "
    "be revalidated.  Never lengthens a life; all three 0 is a hard "
    "purge.  The number of objects.  Restricted to vcl_hit and "
    "vcl_miss.")
VMOD_FUNC(veneer, purge_key, INT, VMOD_A(STRING, tags),
    "Purges every object whose Surrogate-Key or xkey response header "
    "carries one of tags (separated by spaces or commas); the number of "
    "objects, each counted once.  Callable from any subroutine, "
    "typically vcl_recv.")
VMOD_FUNC(veneer, softpurge_key, INT, VMOD_A(STRING, tags),
    "As veneer.purge_key(), but the objects go stale keeping their grace "
    "and keep, as purge.soft() does.")
/*
 * proxy: the TLVs of a PROXY version 2 header (a -a ...,PROXY
 * listener), as Varnish 7.1's vmod_proxy.  Client side only; unset (or
 * false, 0) without such a TLV.
 */
VMOD_FUNC(proxy, alpn, STRING, ,
    "The ALPN TLV: the protocol the TLS client negotiated (h2, "
    "http/1.1).")
VMOD_FUNC(proxy, authority, STRING, ,
    "The authority TLV: the host name the client asked for (TLS SNI).")
VMOD_FUNC(proxy, is_ssl, BOOL, ,
    "Whether the SSL TLV says the client connected over TLS.")
VMOD_FUNC(proxy, client_has_cert_sess, BOOL, ,
    "Whether the client presented a certificate at least once in the "
    "TLS session this connection belongs to.")
VMOD_FUNC(proxy, client_has_cert_conn, BOOL, ,
    "Whether the client presented a certificate on this connection.")
VMOD_FUNC(proxy, ssl_verify_result, INT, ,
    "The SSL TLV's verify result (0, X509_V_OK, without one); it means "
    "something only when client_has_cert_sess() is true.")
VMOD_FUNC(proxy, ssl_version, STRING, ,
    "The TLS version (TLSv1.3).")
VMOD_FUNC(proxy, client_cert_cn, STRING, ,
    "The common name of the client certificate.")
VMOD_FUNC(proxy, ssl_cipher, STRING, ,
    "The TLS cipher (ECDHE-RSA-AES128-GCM-SHA256).")
VMOD_FUNC(proxy, cert_sign, STRING, ,
    "The certificate's signature algorithm (SHA256).")
VMOD_FUNC(proxy, cert_key, STRING, ,
    "The certificate's key algorithm (RSA2048).")
/*
 * vtc: what Varnish's test harness (varnishtest, tools/vtc.sh) uses in
 * VCL, as Varnish 7.1's vmod_vtc: synchronising with a test, and
 * provoking workspace shortages and panics.  Not for production VCL.
 */
VMOD_FUNC(vtc, barrier_sync, VOID,
    VMOD_A(STRING, addr) VMOD_D(DURATION, timeout, "0"),
    "Waits at a varnishtest barrier: connects to addr (host:port) and "
    "reads until the harness closes the connection (timeout 0: no "
    "limit); fails the task if it cannot.")
VMOD_FUNC(vtc, sleep, VOID, VMOD_A(DURATION, t),
    "Sleeps for t (the worker thread waits).")
VMOD_FUNC(vtc, workspace_alloc, VOID,
    VMOD_E(where, "client,backend,session,thread", "client")
    VMOD_A(INT, size),
    "Takes size bytes of that workspace (negative: all but -size bytes); "
    "running out marks it overflowed.")
VMOD_FUNC(vtc, workspace_free, INT,
    VMOD_E(where, "client,backend,session,thread", "client"),
    "Bytes free in that workspace.")
VMOD_FUNC(vtc, workspace_overflowed, BOOL,
    VMOD_E(where, "client,backend,session,thread", "client"),
    "Whether that workspace has overflowed.")
VMOD_FUNC(vtc, workspace_overflow, VOID,
    VMOD_E(where, "client,backend,session,thread", "client"),
    "Marks that workspace overflowed, as a shortage would.")
VMOD_FUNC(vtc, workspace_snapshot, VOID,
    VMOD_E(where, "client,backend,session,thread", "client"),
    "Remembers how far that workspace is used (one snapshot per worker "
    "thread).")
VMOD_FUNC(vtc, workspace_reset, VOID,
    VMOD_E(where, "client,backend,session,thread", "client"),
    "Gives back what that workspace took since vtc.workspace_snapshot() "
    "on the same workspace; fails the task without one.")
VMOD_FUNC(vtc, typesize, INT, VMOD_A(STRING, s),
    "The size of a C struct of the types spelled by s, aligned as C "
    "does (p pointer, i int, u unsigned, c char, d double, f float, l "
    "long, s short, z size_t, o off_t, j intmax_t); -1 for any other "
    "letter.")
VMOD_FUNC(vtc, panic, VOID, VMOD_A(STRANDS, msg),
    "Panics the child with msg: panic.show tells, and the manager starts "
    "a new child.  For testing panics only.")
/*
 * debug: the functions of Varnish 7.1's test-only vmod_debug that
 * Varnish's test suite calls, with its names and meaning
 * (src/cache/vmod_debug.c; those with objects and PRIV_* arguments in
 * vmod_debug_obj.c).  Not for production VCL.
 */
VMOD_FUNC(debug, author, STRING,
    VMOD_E(person, "phk,des,kristian,mithrandir", "phk")
    VMOD_E(someone, "phk,slink,geoff", "phk"),
    "The first name of person (someone is not used): ENUM arguments "
    "with defaults.")
VMOD_FUNC(debug, vre_limit, INT, ,
    "The pcre2_match_limit parameter, as the child sees it.")
VMOD_FUNC(debug, fail, VOID, ,
    "Fails the current method with \"Forced failure\".")
VMOD_FUNC(debug, fail2, BOOL, ,
    "As debug.fail(), and returns true.")
VMOD_FUNC(debug, test_probe, VOID,
    VMOD_A(PROBE, probe) VMOD_D(PROBE, same, "0"),
    "Checks that a probe declaration reaches a module intact; same, "
    "when given, must name the same probe.")
VMOD_FUNC(debug, concatenate, STRING, VMOD_A(STRANDS, s),
    "The strings joined on the workspace; unset, the workspace marked "
    "overflowed but the method not failed, when it is full.")
VMOD_FUNC(debug, collect, STRING, VMOD_A(STRANDS, s),
    "The strings joined on the workspace; fails the method when it is "
    "full.")
VMOD_FUNC(debug, sethdr, VOID, VMOD_A(HEADER, hdr) VMOD_A(STRANDS, s),
    "Sets the header to the strings joined (no strings: removes it).")
VMOD_FUNC(debug, return_strands, STRANDS, VMOD_A(STRANDS, s),
    "Its argument, logged in a Debug record.")
VMOD_FUNC(debug, stk, BYTES, ,
    "About how much of the worker thread's stack is in use (0B when "
    "it cannot tell).")
VMOD_FUNC(debug, sndbuf, VOID, VMOD_A(BYTES, sndbuf),
    "Sets the client connection's send buffer (SO_SNDBUF); a Debug "
    "record gives the old, asked and resulting sizes.  Client side "
    "only.")
VMOD_FUNC(debug, client_ip, STRING, ,
    "The client address of the session, as text.")
VMOD_FUNC(debug, client_port, STRING, ,
    "The client port of the session, as text.")
VMOD_FUNC(debug, re_quote, STRING, VMOD_A(STRING, s),
    "s quoted (\\Q...\\E) to match itself as a regular expression.")
VMOD_FUNC(debug, validhdr, BOOL, VMOD_A(STRANDS, s),
    "Whether the strings may be a header value: visible ASCII, space, "
    "tab and bytes above 127 only (RFC 7230 section 3.2).")
VMOD_FUNC(debug, just_return_regex, REGEX, VMOD_A(REGEX, re),
    "Its argument.")
VMOD_FUNC(debug, test_priv_call, VOID, VMOD_P(CALL),
    "Keeps \"BAR\" in the call site's PRIV_CALL.")
VMOD_FUNC(debug, test_priv_vcl, VOID, VMOD_P(VCL),
    "Keeps state in the VCL's PRIV_VCL and checks it.")
VMOD_FUNC(debug, test_priv_task_get, VOID, ,
    "Checks that the PRIV_TASK of no key is NULL.")
VMOD_FUNC(debug, test_priv_task, STRING,
    VMOD_P(TASK) VMOD_D(STRING, s, "\"\""),
    "Appends s (space separated) to the task's string; the string.")
VMOD_FUNC(debug, test_priv_top, STRING, VMOD_P(TOP) VMOD_A(STRING, s),
    "The top request's string, set to s by the first call.")
VMOD_FUNC(debug, priv_perf, DURATION,
    VMOD_A(INT, size) VMOD_D(INT, rounds, "10000"),
    "Times PRIV_TASK lookups among size of them: nanoseconds per lookup "
    "(as a duration in seconds).")
/*
 * directors: Varnish 7.1's vmod_directors, its round_robin, fallback,
 * random, hash and shard directors (src/cache/vmod_directors.c,
 * vmod_directors_shard.c).  An ENUM argument whose default is "" is
 * optional: C gets "" when the VCL does not give it.
 */
VMOD_FUNC(directors, lookup, BACKEND, VMOD_A(STRING, name),
    "The backend or director of this VCL named name (unset when there is "
    "none).  Only in vcl_init and vcl_fini.")
/*
 * saintmode: varnish-modules' vmod_saintmode (src/cache/vmod_saintmode.c):
 * a director wrapping a backend that skips the objects blacklisted on it.
 */
VMOD_FUNC(saintmode, blacklist, VOID, VMOD_A(DURATION, expires),
    "Blacklists this fetch's object (its hash) for expires on the "
    "backend that answered, through the saintmode object wrapping that "
    "backend; a retry then goes elsewhere.  Only in "
    "vcl_backend_response.")
VMOD_FUNC(saintmode, status, STRING, ,
    "The saintmode objects of this VCL, their backends, blacklist counts "
    "and thresholds, as JSON.")
/*
 * blob: Varnish 7.1's vmod_blob (src/cache/vmod_blob.c, the codecs in
 * vmod_blob_codec.c): BLOBs from and to text.
 */
VMOD_FUNC(blob, decode, BLOB,
    VMOD_E(decoding, VMOD_BLOB_CODECS, "IDENTITY")
    VMOD_D(INT, length, "0") VMOD_A(STRANDS, encoded),
    "The bytes the text encoded stands for in the scheme decoding; "
    "length > 0: of its first length characters only.  Fails the VCL on "
    "text that is not of the scheme, or when the workspace is full.")
VMOD_FUNC(blob, encode, STRING,
    VMOD_E(encoding, VMOD_BLOB_CODECS, "IDENTITY")
    VMOD_E(case, VMOD_BLOB_CASES, "DEFAULT") VMOD_A(BLOB, blob),
    "The text of blob in the scheme encoding; case: the hex digits of HEX "
    "and URL (DEFAULT is LOWER), and must be DEFAULT for the others.  "
    "Unset when blob is.")
VMOD_FUNC(blob, transcode, STRING,
    VMOD_E(decoding, VMOD_BLOB_CODECS, "IDENTITY")
    VMOD_E(encoding, VMOD_BLOB_CODECS, "IDENTITY")
    VMOD_E(case, VMOD_BLOB_CASES, "DEFAULT")
    VMOD_D(INT, length, "0") VMOD_A(STRANDS, encoded),
    "blob.encode(encoding, case, blob.decode(decoding, length, encoded)) "
    "in one step: transcode(encoded = req.url, decoding = URL) "
    "URL-decodes.")
VMOD_FUNC(blob, same, BOOL, VMOD_A(BLOB, a) VMOD_A(BLOB, b),
    "Whether a and b are the same bytes in memory (not only equal), or "
    "both empty.")
VMOD_FUNC(blob, equal, BOOL, VMOD_A(BLOB, a) VMOD_A(BLOB, b),
    "Whether a and b hold the same bytes, or are both empty.")
VMOD_FUNC(blob, length, INT, VMOD_A(BLOB, blob),
    "How many bytes blob holds.")
VMOD_FUNC(blob, sub, BLOB,
    VMOD_A(BLOB, blob) VMOD_A(BYTES, length) VMOD_D(BYTES, offset, "0"),
    "length bytes of blob from offset on (not copied).  Fails the VCL when "
    "blob is empty or shorter than offset + length.")
/*
 * dynamic: uplex's libvmod-dynamic (src/cache/vmod_dynamic.c): directors
 * whose members follow a DNS name (A and AAAA) or its SRV records.  It
 * has no functions, only its director object.
 */
#undef VMOD_FUNC
#endif
#ifdef VMOD_OBJ
VMOD_OBJ(debug, obj,
    VMOD_D(STRING, string, "\"default\"")
    VMOD_E(number, "one,two,three", "one"),
    "A test object keeping string and number; Debug records (vxid 0) "
    "say when one is made and ended.")
VMOD_OBJ(debug, concat, VMOD_A(STRANDS, s),
    "An object holding the concatenation of s.")
VMOD_OBJ(directors, round_robin, ,
    "A director taking its healthy members in turn.")
VMOD_OBJ(directors, fallback, VMOD_D(BOOL, sticky, "false"),
    "A director taking the first healthy member in the order they were "
    "added; sticky: keeping the one it took while it stays healthy.")
VMOD_OBJ(directors, random, ,
    "A director taking a healthy member at random, in proportion to "
    "its weight.")
VMOD_OBJ(directors, hash, ,
    "A director taking a healthy member by the hash of a key, in "
    "proportion to its weight: a key keeps its member while the "
    "members and their health stay the same.")
VMOD_OBJ(directors, shard, ,
    "A consistent-hashing director: a key keeps its member while that "
    "member stays; adding or removing one of n members moves about 1/n "
    "of the keys.")
VMOD_OBJ(directors, shard_param, ,
    "A parameter set for shard directors' .backend(): defaults in "
    "vcl_init, changed per fetch in backend methods.")
VMOD_OBJ(saintmode, saintmode, VMOD_A(BACKEND, backend)
    VMOD_A(INT, threshold),
    "A director wrapping backend: it gives backend to a fetch unless "
    "this object is blacklisted on it, and is sick while backend is, "
    "or while more than threshold objects are blacklisted on it.")
VMOD_OBJ(blob, blob,
    VMOD_E(decoding, VMOD_BLOB_CODECS, "IDENTITY") VMOD_A(STRANDS, encoded),
    "The bytes encoded stands for in the scheme decoding, decoded once "
    "when the VCL loads (bad text fails the load), with every encoding "
    "of them made then too.")
VMOD_OBJ(dynamic, director,
    VMOD_D(STRING, port, "\"80\"") VMOD_D(STRING, host_header, "\"\"")
    VMOD_E(share, "DIRECTOR,HOST", "DIRECTOR") VMOD_O(PROBE, probe)
    VMOD_O(STRING, whitelist) VMOD_O(DURATION, ttl)
    VMOD_D(DURATION, connect_timeout, "0")
    VMOD_D(DURATION, first_byte_timeout, "0")
    VMOD_D(DURATION, between_bytes_timeout, "0")
    VMOD_D(DURATION, domain_usage_timeout, "7200")
    VMOD_D(DURATION, first_lookup_timeout, "10")
    VMOD_D(INT, max_connections, "0") VMOD_D(INT, proxy_header, "0")
    VMOD_O(BLOB, resolver) VMOD_E(ttl_from, "cfg,dns,min,max", "cfg")
    VMOD_O(DURATION, retry_after) VMOD_O(BACKEND, via)
    VMOD_O(INT, keep) VMOD_O(STRING, authority)
    VMOD_O(DURATION, wait_timeout) VMOD_O(INT, wait_limit)
    VMOD_D(INT, max_names, "1024"),
    "A director making backends of a name's addresses (A and AAAA) or "
    "SRV records, re-resolved every ttl in the background; at most "
    "max_names names (ours: a hostile Host cannot make it follow "
    "any number).")
#undef VMOD_OBJ
#endif
#ifdef VMOD_METHOD
VMOD_METHOD(debug, obj, enum, VOID,
    VMOD_E(e, "phk,des,kristian,mithrandir,martin", "martin"), VM_ALL,
    "Checks an ENUM argument of a method (must be martin).")
VMOD_METHOD(debug, obj, obj, VOID, , VM_ALL,
    "A method named like its class.")
VMOD_METHOD(debug, obj, string, STRING, , VM_ALL,
    "The constructor's string.")
VMOD_METHOD(debug, obj, number, STRING, , VM_ALL,
    "The constructor's number.")
VMOD_METHOD(debug, obj, foo, STRING, VMOD_A(STRING, why), VM_ALL,
    "\"BOO\".")
VMOD_METHOD(debug, obj, bar, STRING, VMOD_A(STRING, why), VM_ALL,
    "Deprecated: the old name of .foo().")
VMOD_METHOD(debug, obj, date, TIME, , VM_ALL,
    "A time (21.4 seconds after the epoch).")
VMOD_METHOD(debug, obj, test_priv_call, VOID, VMOD_P(CALL), VM_ALL,
    "As debug.test_priv_call(): PRIV_* are per module, not per object.")
VMOD_METHOD(debug, obj, test_priv_vcl, VOID, VMOD_P(VCL), VM_ALL,
    "As debug.test_priv_vcl().")
VMOD_METHOD(debug, obj, test_priv_task, STRING,
    VMOD_D(STRING, s, "\"\""), VM_ALL,
    "The object's own task state: set to s, or read when s is empty.")
VMOD_METHOD(debug, obj, test_priv_top, STRING,
    VMOD_D(STRING, s, "\"\""), VM_ALL,
    "The object's own top-request state: set to s, or read when s is "
    "empty; fails outside client methods.")
VMOD_METHOD(debug, concat, get, STRING, , VM_ALL,
    "The concatenation the object was made with.")
VMOD_METHOD(directors, round_robin, add_backend, VOID,
    VMOD_A(BACKEND, backend), VM_ALL,
    "Adds a member (a backend or a director) at the end.")
VMOD_METHOD(directors, round_robin, remove_backend, VOID,
    VMOD_A(BACKEND, backend), VM_ALL,
    "Removes a member.")
VMOD_METHOD(directors, round_robin, backend, BACKEND, , VM_ALL,
    "The director, to set req.backend_hint or bereq.backend to; the "
    "member is picked when the fetch starts.")
VMOD_METHOD(directors, fallback, add_backend, VOID,
    VMOD_A(BACKEND, backend), VM_ALL,
    "Adds a member at the end (the order is the order of preference).")
VMOD_METHOD(directors, fallback, remove_backend, VOID,
    VMOD_A(BACKEND, backend), VM_ALL,
    "Removes a member.")
VMOD_METHOD(directors, fallback, backend, BACKEND, , VM_ALL,
    "The director; the member is picked when the fetch starts.")
VMOD_METHOD(directors, random, add_backend, VOID,
    VMOD_A(BACKEND, backend) VMOD_A(REAL, weight), VM_ALL,
    "Adds a member with a weight: it gets about weight / (sum of the "
    "healthy members' weights) of the fetches.")
VMOD_METHOD(directors, random, remove_backend, VOID,
    VMOD_A(BACKEND, backend), VM_ALL,
    "Removes a member.")
VMOD_METHOD(directors, random, backend, BACKEND, , VM_ALL,
    "The director; the member is picked when the fetch starts.")
VMOD_METHOD(directors, hash, add_backend, VOID,
    VMOD_A(BACKEND, backend) VMOD_D(REAL, weight, "1.0"), VM_ALL,
    "Adds a member with a weight, as for random.")
VMOD_METHOD(directors, hash, remove_backend, VOID,
    VMOD_A(BACKEND, backend), VM_ALL,
    "Removes a member.")
VMOD_METHOD(directors, hash, backend, BACKEND, VMOD_A(STRANDS, key),
    VM_ALL,
    "The member for key (the SHA-256 of the strings, as Varnish's), "
    "picked now among the healthy ones.")
VMOD_METHOD(directors, shard, set_warmup, VOID,
    VMOD_D(REAL, probability, "0.0"), VM_ALL,
    "The default warmup: how often (0 to below 1) a fetch goes to the "
    "key's next member instead, to keep it warm.")
VMOD_METHOD(directors, shard, set_rampup, VOID,
    VMOD_D(DURATION, duration, "0"), VM_ALL,
    "The default rampup: for this long after a member turns healthy it "
    "takes a growing share of its keys.")
VMOD_METHOD(directors, shard, associate, VOID, VMOD_D(BLOB, param, "0"),
    VM_ALL,
    "Takes its .backend() defaults from a shard_param (its .use()); no "
    "argument: from none.")
VMOD_METHOD(directors, shard, add_backend, BOOL,
    VMOD_A(BACKEND, backend) VMOD_O(STRING, ident)
    VMOD_O(DURATION, rampup) VMOD_O(REAL, weight), VM_ALL,
    "Adds a member, placed on the ring by ident (default: its name); "
    "weight (at least 1) multiplies its replicas.  Takes effect at "
    ".reconfigure() or when the task ends.")
VMOD_METHOD(directors, shard, add_dynamic, BOOL,
    VMOD_A(BACKEND, members) VMOD_O(DURATION, rampup)
    VMOD_O(REAL, weight), VM_(INIT),
    "Makes every current member of a dynamic director's d.backend() or "
    "d.service() a member, ident \"ip:port\", and follows its DNS: the "
    "ring is rebuilt when the members change.")
VMOD_METHOD(directors, shard, remove_backend, BOOL,
    VMOD_O(BACKEND, backend) VMOD_O(STRING, ident), VM_ALL,
    "Removes the member ident, or every member that is backend.")
VMOD_METHOD(directors, shard, clear, BOOL, , VM_ALL,
    "Removes all members.")
VMOD_METHOD(directors, shard, reconfigure, BOOL,
    VMOD_D(INT, replicas, "67"), VM_ALL,
    "Applies this task's changes: a new ring of replicas points per "
    "member (times its weight) replaces the old at once.")
VMOD_METHOD(directors, shard, key, INT, VMOD_A(STRANDS, s), VM_ALL,
    "A key for by=KEY: 32 bits of the SHA-256 of the strings.")
VMOD_METHOD(directors, shard, backend, BACKEND,
    VMOD_E(by, "HASH,URL,KEY,BLOB", "") VMOD_O(INT, key)
    VMOD_O(BLOB, key_blob) VMOD_O(INT, alt) VMOD_O(REAL, warmup)
    VMOD_O(BOOL, rampup) VMOD_E(healthy, "CHOSEN,IGNORE,ALL", "")
    VMOD_O(BLOB, param) VMOD_E(resolve, "NOW,LAZY", ""), VM_ALL,
    "The member for a key (resolve=NOW, the default outside vcl_init), "
    "or the director itself, picking when the fetch starts "
    "(resolve=LAZY).")
VMOD_METHOD(directors, shard, debug, VOID, VMOD_A(INT, flags), VM_ALL,
    "Debug records (vxid 0): 1 each lookup, 2 the ring when it is "
    "built, 4 rampup and warmup decisions.")
VMOD_METHOD(directors, shard_param, clear, VOID, , VM_ALL,
    "Back to the defaults (in a fetch: to the vcl_init values).")
VMOD_METHOD(directors, shard_param, set, VOID,
    VMOD_E(by, "HASH,URL,KEY,BLOB", "") VMOD_O(INT, key)
    VMOD_O(BLOB, key_blob) VMOD_O(INT, alt) VMOD_O(REAL, warmup)
    VMOD_O(BOOL, rampup) VMOD_E(healthy, "CHOSEN,IGNORE,ALL", ""), VM_ALL,
    "Changes the given parameters: in vcl_init the defaults, in a "
    "backend method for this fetch only.")
VMOD_METHOD(directors, shard_param, get_by, STRING, , VM_ALL,
    "The by parameter in effect.")
VMOD_METHOD(directors, shard_param, get_key, INT, , VM_ALL,
    "The key a shard director would use with these parameters.")
VMOD_METHOD(directors, shard_param, get_alt, INT, , VM_ALL,
    "The alt parameter in effect.")
VMOD_METHOD(directors, shard_param, get_warmup, REAL, , VM_ALL,
    "The warmup parameter in effect (-1: the director's).")
VMOD_METHOD(directors, shard_param, get_rampup, BOOL, , VM_ALL,
    "The rampup parameter in effect.")
VMOD_METHOD(directors, shard_param, get_healthy, STRING, , VM_ALL,
    "The healthy parameter in effect.")
VMOD_METHOD(directors, shard_param, use, BLOB, , VM_ALL,
    "This parameter set, for the param argument of .backend() and "
    ".associate().")
VMOD_METHOD(saintmode, saintmode, backend, BACKEND, , VM_ALL,
    "This saintmode director, for req.backend_hint or bereq.backend, or "
    "as a member of another director.")
VMOD_METHOD(saintmode, saintmode, blacklist_count, INT, , VM_ALL,
    "How many objects are blacklisted on this backend now.")
VMOD_METHOD(blob, blob, get, BLOB, , VM_ALL,
    "The object's bytes.")
VMOD_METHOD(blob, blob, encode, STRING,
    VMOD_E(encoding, VMOD_BLOB_CODECS, "IDENTITY")
    VMOD_E(case, VMOD_BLOB_CASES, "DEFAULT"), VM_ALL,
    "As blob.encode(encoding, case, .get()), made when the VCL loaded: "
    "no workspace used.")
VMOD_METHOD(dynamic, director, backend, BACKEND,
    VMOD_D(STRING, host, "\"\"") VMOD_D(STRING, port, "\"\"")
    VMOD_D(STRING, authority, "\"\""), VM_ALL,
    "A director over every address of host (default: the request's "
    "Host), round robin over the healthy ones.")
VMOD_METHOD(dynamic, director, service, BACKEND, VMOD_A(STRING, service),
    VM_ALL,
    "A director over the targets of service's SRV records: the lowest "
    "priority with a healthy member, weighted by weight.")
VMOD_METHOD(dynamic, director, debug, VOID, VMOD_A(BOOL, enable), VM_ALL,
    "Debug records (vxid 0) for each lookup and member change.")
#undef VMOD_METHOD
#endif
#undef VMOD_A
#undef VMOD_D
#undef VMOD_O
#undef VMOD_E
#undef VMOD_P
#undef VMOD_BLOB_CODECS
#undef VMOD_BLOB_CASES

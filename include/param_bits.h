/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * param_bits.h -- THE table of the named bits of the bit-set parameters
 * debug, feature and experimental, as Varnish 7.1 names them (its
 * scripts and varnishtest set them: -p debug=+vtc_mode).  No include
 * guard: define the macros of the sets you want and include; the others
 * expand to nothing.  Rows are only appended to a set (a bit's number is
 * its place in its set); names never change once released.
 *
 * PARAM_DEBUG_BIT(NAME, name, doc)
 * PARAM_FEATURE_BIT(NAME, name, doc)
 * PARAM_EXPERIMENTAL_BIT(NAME, name, doc)
 *   NAME	the enum's suffix: PARAM_DEBUG_VTC_MODE
 *   name	what -p and param.set take, and param.show shows
 *   doc	what the bit asks for, and whether veneerd does it
 */

#ifndef PARAM_DEBUG_BIT
#define PARAM_DEBUG_BIT(U, l, d)
#endif
#ifndef PARAM_FEATURE_BIT
#define PARAM_FEATURE_BIT(U, l, d)
#endif
#ifndef PARAM_EXPERIMENTAL_BIT
#define PARAM_EXPERIMENTAL_BIT(U, l, d)
#endif

/* debug: diagnostics for developers and test suites ---------------------*/
PARAM_DEBUG_BIT(REQ_STATE,	req_state,
    "log each step of the request state machine")
PARAM_DEBUG_BIT(WORKSPACE,	workspace,
    "log workspace allocations")
PARAM_DEBUG_BIT(WAITINGLIST,	waitinglist,
    "log waiting list events")
PARAM_DEBUG_BIT(SYNCVSL,	syncvsl,
    "write each log record to shared memory at once")
PARAM_DEBUG_BIT(HASHEDGE,	hashedge,
    "exercise edge cases of the hash lookup")
PARAM_DEBUG_BIT(VCLREL,		vclrel,
    "release discarded VCLs without delay")
PARAM_DEBUG_BIT(LURKER,		lurker,
    "log what the ban lurker does")
PARAM_DEBUG_BIT(ESI_CHOP,	esi_chop,
    "feed the ESI parser in tiny pieces")
PARAM_DEBUG_BIT(FLUSH_HEAD,	flush_head,
    "send an HTTP/1 response head before its body")
PARAM_DEBUG_BIT(VTC_MODE,	vtc_mode,
    "behave as varnishtest expects")
PARAM_DEBUG_BIT(WITNESS,	witness,
    "log the order locks are taken in")
PARAM_DEBUG_BIT(VSM_KEEP,	vsm_keep,
    "keep the shared memory files over a child restart")
PARAM_DEBUG_BIT(SLOW_ACCEPTOR,	slow_acceptor,
    "slow the acceptor down")
PARAM_DEBUG_BIT(H2_NOCHECK,	h2_nocheck,
    "skip some HTTP/2 protocol checks")
PARAM_DEBUG_BIT(VMOD_SO_KEEP,	vmod_so_keep,
    "keep the copies of VMOD libraries")
PARAM_DEBUG_BIT(PROCESSORS,	processors,
    "log fetch and delivery processors")
PARAM_DEBUG_BIT(PROTOCOL,	protocol,
    "log protocol details")
PARAM_DEBUG_BIT(VCL_KEEP,	vcl_keep,
    "keep the C source and object of each VCL")
PARAM_DEBUG_BIT(LCK,		lck,
    "keep extra lock statistics")

/* feature: behaviours an operator may choose ----------------------------*/
PARAM_FEATURE_BIT(HTTP2,	http2,
    "accept HTTP/2 (veneerd speaks HTTP/1.1 only)")
PARAM_FEATURE_BIT(SHORT_PANIC,	short_panic,
    "write shorter panic messages")
PARAM_FEATURE_BIT(NO_COREDUMP,	no_coredump,
    "no core dump when the child crashes")
PARAM_FEATURE_BIT(HTTPS_SCHEME,	https_scheme,
    "take the host from an https:// request target too")
PARAM_FEATURE_BIT(HTTP_DATE_POSTEL, http_date_postel,
    "also accept dates with a one-digit day, no weekday or UTC in "
    "Date, Expires, Last-Modified (and std.time())")
PARAM_FEATURE_BIT(ESI_IGNORE_HTTPS, esi_ignore_https,
    "ESI: include https:// sources over http://")
PARAM_FEATURE_BIT(ESI_DISABLE_XML_CHECK, esi_disable_xml_check,
    "ESI: process bodies that do not look like XML")
PARAM_FEATURE_BIT(ESI_IGNORE_OTHER_ELEMENTS, esi_ignore_other_elements,
    "ESI: ignore XML syntax errors")
PARAM_FEATURE_BIT(ESI_REMOVE_BOM, esi_remove_bom,
    "ESI: skip a UTF-8 byte order mark")
PARAM_FEATURE_BIT(ESI_INCLUDE_ONERROR, esi_include_onerror,
    "ESI: obey the onerror attribute of esi:include")
PARAM_FEATURE_BIT(WAIT_SILO,	wait_silo,
    "wait for persistent storage to load before serving")
PARAM_FEATURE_BIT(VALIDATE_HEADERS, validate_headers,
    "fail the VCL (\"Bad header\") when it sets a header value with "
    "a control character (CR, LF...)")
PARAM_FEATURE_BIT(BUSY_STATS_RATE, busy_stats_rate,
    "busy workers publish counters every thread_stats_rate requests")

/* experimental: unfinished features ------------------------------------*/
PARAM_EXPERIMENTAL_BIT(DROP_POOLS, drop_pools,
    "let thread_pools shrink while running")

#undef PARAM_DEBUG_BIT
#undef PARAM_FEATURE_BIT
#undef PARAM_EXPERIMENTAL_BIT

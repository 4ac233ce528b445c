/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * vsl_tags.h -- THE table of shared-memory log tags.  No include guard:
 * define VSL_TAG() and include.  Tag numbers are positions in this table,
 * counting from 1, and follow Varnish 7.1's numbering exactly so that
 * Varnish's own log readers understand Veneer's log; Veneer's own tags go
 * after the last Varnish tag.  Never reorder or remove a row: saved logs
 * depend on the numbers.
 *
 * VSL_TAG(name, flags, doc)
 *   flags	VSL_F_UNUSED: kept for numbering, never written;
 *		VSL_F_UNSAFE: payload may hold raw client bytes;
 *		VSL_F_BINARY: payload is binary
 */

#ifndef VSL_TAG_HTTP
#define VSL_TAG_HTTP(pfx, fl_req, fl_resp, what)			\
	VSL_TAG(pfx##Method,	fl_req,		what " method")		\
	VSL_TAG(pfx##URL,	fl_req,		what " URL")		\
	VSL_TAG(pfx##Protocol,	0,		what " protocol")	\
	VSL_TAG(pfx##Status,	fl_resp,	what " status code")	\
	VSL_TAG(pfx##Reason,	fl_resp,	what " reason phrase")	\
	VSL_TAG(pfx##Header,	0,		what " header line")	\
	VSL_TAG(pfx##Unset,	0,		what " header removed")	\
	VSL_TAG(pfx##Lost,	VSL_F_UNUSED,	what " header lost")
#define VSL_TAG_HTTP_LOCAL
#endif

VSL_TAG(Debug,		VSL_F_UNSAFE,	"Debugging messages; their format "
	"may change without notice")
VSL_TAG(Error,		0,	"Something failed that an operator should "
	"know about")
VSL_TAG(CLI,		0,	"Command exchanged between manager and child")
VSL_TAG(SessOpen,	0,	"Client connection opened: remote address, "
	"remote port, listen socket name, local address, local port, time, "
	"file descriptor")
VSL_TAG(SessClose,	0,	"Client connection closed: reason (see "
	"sess_close) and how long it was open")
VSL_TAG(BackendOpen,	0,	"Backend connection opened: file descriptor, "
	"backend, remote address and port, local address and port")
VSL_TAG(BackendReuse,	0,	"Backend connection kept for reuse: file "
	"descriptor, backend")
VSL_TAG(BackendClose,	0,	"Backend connection closed: file "
	"descriptor, backend, reason")
VSL_TAG(HttpGarbage,	VSL_F_UNSAFE,	"Bytes received that are not HTTP")
VSL_TAG(Proxy,		0,	"PROXY protocol header received")
VSL_TAG(ProxyGarbage,	0,	"Malformed PROXY protocol header")
VSL_TAG(Backend,	VSL_F_UNUSED,	"Backend selected (not written)")
VSL_TAG(Length,		0,	"Size of a fetched body")
VSL_TAG(FetchError,	0,	"Why a backend fetch failed")
VSL_TAG_HTTP(Req,	0, VSL_F_UNUSED,	"Client request")
VSL_TAG_HTTP(Resp,	VSL_F_UNUSED, 0,	"Client response")
VSL_TAG_HTTP(Bereq,	0, VSL_F_UNUSED,	"Backend request")
VSL_TAG_HTTP(Beresp,	VSL_F_UNUSED, 0,	"Backend response")
VSL_TAG_HTTP(Obj,	VSL_F_UNUSED, 0,	"Stored object")
VSL_TAG(BogoHeader,	0,	"Start of a received header line that could "
	"not be parsed")
VSL_TAG(LostHeader,	0,	"A header could not be added: http_max_hdr "
	"or workspace exhausted")
VSL_TAG(TTL,		0,	"TTL, grace and keep given to an object, and "
	"where they came from (RFC, VCL, default)")
VSL_TAG(Fetch_Body,	0,	"How the body of a backend response is "
	"delimited")
VSL_TAG(VCL_acl,	0,	"Result of a VCL ACL check")
VSL_TAG(VCL_call,	0,	"VCL subroutine called")
VSL_TAG(VCL_trace,	0,	"VCL execution trace")
VSL_TAG(VCL_return,	0,	"Action a VCL subroutine returned")
VSL_TAG(ReqStart,	0,	"Client request started: client address, "
	"port, listen socket name")
VSL_TAG(Hit,		0,	"Cache hit: object id, TTL left, grace, "
	"keep")
VSL_TAG(HitPass,	0,	"Hit on a hit-for-pass object")
VSL_TAG(ExpBan,		0,	"Object removed by a ban")
VSL_TAG(ExpKill,	0,	"Object expiry or LRU event")
VSL_TAG(WorkThread,	0,	"Worker thread started or ended")
VSL_TAG(ESI_xmlerror,	0,	"ESI parsing problem")
VSL_TAG(Hash,		VSL_F_UNSAFE,	"Value added to the lookup hash")
VSL_TAG(Backend_health,	0,	"Result of a backend health probe")
VSL_TAG(VCL_Log,	0,	"Message logged by VCL (std.log)")
VSL_TAG(VCL_Error,	0,	"Error while running VCL")
VSL_TAG(Gzip,		0,	"Compression work on a body")
VSL_TAG(Link,		0,	"This transaction started another: type, id, "
	"reason")
VSL_TAG(Begin,		0,	"First record of a transaction: type, parent "
	"id, reason")
VSL_TAG(End,		0,	"Last record of a transaction")
VSL_TAG(VSL,		0,	"Message from the log reader itself")
VSL_TAG(Storage,	0,	"Storage an object was put in")
VSL_TAG(Timestamp,	0,	"Event time: label, absolute time, time since "
	"the transaction started, time since the previous timestamp")
VSL_TAG(ReqAcct,	0,	"Client request bytes: header and body "
	"received, total received, header and body sent, total sent")
VSL_TAG(PipeAcct,	0,	"Piped bytes: client header, backend header, "
	"from client, to client")
VSL_TAG(BereqAcct,	0,	"Backend request bytes: header and body "
	"sent, total sent, header and body received, total received")
VSL_TAG(VfpAcct,	0,	"Fetch filter statistics")
VSL_TAG(Witness,	0,	"Lock order record")
VSL_TAG(BackendStart,	VSL_F_UNUSED,	"Backend request start (not "
	"written)")
VSL_TAG(H2RxHdr,	VSL_F_BINARY,	"HTTP/2 frame header received")
VSL_TAG(H2RxBody,	VSL_F_BINARY,	"HTTP/2 frame body received")
VSL_TAG(H2TxHdr,	VSL_F_BINARY,	"HTTP/2 frame header sent")
VSL_TAG(H2TxBody,	VSL_F_BINARY,	"HTTP/2 frame body sent")
VSL_TAG(HitMiss,	0,	"Hit on a hit-for-miss object")
VSL_TAG(Filters,	0,	"Body filters applied")
VSL_TAG(SessError,	0,	"Accepting a client connection failed")
VSL_TAG(VCL_use,	0,	"VCL program used by the transaction")
VSL_TAG(Notice,		0,	"Informational message about request "
	"handling")
VSL_TAG(VdpAcct,	0,	"Delivery filter statistics")

/* Veneer's own tags start here. */
VSL_TAG(VCL_time,	0,	"VCL method or sub call and the time it "
	"took: name, seconds, file:line:col of the sub or the call "
	"(masked by default; see vcl_profile)")

#ifdef VSL_TAG_HTTP_LOCAL
#undef VSL_TAG_HTTP
#undef VSL_TAG_HTTP_LOCAL
#endif
#undef VSL_TAG

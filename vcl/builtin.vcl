#
# builtin.vcl -- the policy veneerd appends to every VCL.
#
# Each subroutine below runs after the one of the same name in your VCL,
# unless yours ends with a return (...): write only what differs from
# this, and let the rest fall through.  `veneerd -C -f your.vcl` shows
# the C both compile to.  This file is part of Veneer and is not read at
# run time: the copy built into veneerd is what runs.
#
# What it does: GET and HEAD are looked up in the cache unless they carry
# credentials or cookies; other methods we know go to the backend
# uncached, methods we do not know are piped; the cache key is the URL
# and the Host (or the address the request arrived on); a response that
# must not be shared becomes a hit-for-miss marker for two minutes.
#

vcl 4.1;

sub vcl_recv {
	call vcl_builtin_recv;
	return (hash);
}

#
# The pieces below have Varnish 7's names: a VCL can add to one, or cut
# it short, with a sub of the same name (it runs first); for instance
# `sub vcl_req_cookie { return; }` caches requests with cookies.
#
sub vcl_builtin_recv {
	call vcl_req_host;
	call vcl_req_method;
	call vcl_req_authorization;
	call vcl_req_cookie;
}

sub vcl_req_host {
	if (!req.http.host && req.esi_level == 0 &&
	    req.proto == "HTTP/1.1") {
		# HTTP/1.1 requires a Host (the VCL may have removed it);
		# an ESI include of an HTTP/1.0 request may have none.
		return (synth(400));
	}
}

sub vcl_req_method {
	if (req.method == "PRI") {
		# HTTP/2 prior knowledge sent to an HTTP/1 port.
		return (synth(405));
	}
	if (req.method != "GET" &&
	    req.method != "HEAD" &&
	    req.method != "PUT" &&
	    req.method != "POST" &&
	    req.method != "TRACE" &&
	    req.method != "OPTIONS" &&
	    req.method != "DELETE" &&
	    req.method != "PATCH") {
		# Not something we understand: hand the connection over.
		return (pipe);
	}
	if (req.method != "GET" && req.method != "HEAD") {
		return (pass);
	}
}

sub vcl_req_authorization {
	if (req.http.Authorization) {
		# Likely personal: not shared between clients by default.
		return (pass);
	}
}

sub vcl_req_cookie {
	if (req.http.Cookie) {
		# Likely personal too.
		return (pass);
	}
}

sub vcl_pipe {
	return (pipe);
}

sub vcl_pass {
	return (fetch);
}

sub vcl_hash {
	hash_data(req.url);
	if (req.http.host) {
		hash_data(req.http.host);
	} else {
		hash_data(server.ip);
	}
	return (lookup);
}

sub vcl_purge {
	return (synth(200, "Purged"));
}

sub vcl_hit {
	return (deliver);
}

sub vcl_miss {
	return (fetch);
}

sub vcl_deliver {
	return (deliver);
}

sub vcl_synth {
	set resp.http.Content-Type = "text/html; charset=utf-8";
	set resp.http.Retry-After = "5";
	synthetic({"<!DOCTYPE html>
<html>
  <head><title>"} + resp.status + " " + resp.reason + {"</title></head>
  <body>
    <h1>"} + resp.status + " " + resp.reason + {"</h1>
    <p>Request id: "} + req.xid + {"</p>
    <hr>
    <p>Veneer</p>
  </body>
</html>
"});
	return (deliver);
}

sub vcl_backend_fetch {
	return (fetch);
}

#
# As Varnish's builtin.vcl, with two differences: Cache-Control is not
# consulted when a header addressed to caches (Surrogate-Control or
# CDN-Cache-Control, RFC 9213) is present; and a response with no
# freshness but with a validator (ETag or Last-Modified) and keep time
# is stored to be revalidated at each use, rather than becoming a
# hit-for-miss marker.  The pieces have Varnish 7's names, as above.
#
sub vcl_backend_response {
	call vcl_builtin_backend_response;
	return (deliver);
}

sub vcl_builtin_backend_response {
	if (bereq.uncacheable) {
		return (deliver);
	}
	call vcl_beresp_stale;
	call vcl_beresp_cookie;
	call vcl_beresp_control;
	call vcl_beresp_vary;
}

sub vcl_beresp_stale {
	if (beresp.ttl <= 0s && !(beresp.keep > 0s &&
	    (beresp.http.ETag || beresp.http.Last-Modified))) {
		call vcl_beresp_hitmiss;
	}
}

sub vcl_beresp_cookie {
	if (beresp.http.Set-Cookie) {
		call vcl_beresp_hitmiss;
	}
}

sub vcl_beresp_control {
	if (beresp.http.Surrogate-Control ~ "(?i)no-store" ||
	    (!beresp.http.Surrogate-Control &&
	     !beresp.http.CDN-Cache-Control &&
	     beresp.http.Cache-Control ~ "(?i)no-store|private")) {
		call vcl_beresp_hitmiss;
	}
	if (!beresp.http.Surrogate-Control &&
	    !beresp.http.CDN-Cache-Control &&
	    beresp.http.Cache-Control ~ "(?i)no-cache" &&
	    !(beresp.ttl <= 0s && beresp.keep > 0s &&
	    (beresp.http.ETag || beresp.http.Last-Modified))) {
		# no-cache with a validator is stored, revalidated at use.
		call vcl_beresp_hitmiss;
	}
}

sub vcl_beresp_vary {
	if (beresp.http.Vary == "*") {
		call vcl_beresp_hitmiss;
	}
}

sub vcl_beresp_hitmiss {
	# Hit-for-miss for two minutes: later requests go straight to the
	# backend instead of queueing behind each other.
	set beresp.ttl = 120s;
	set beresp.uncacheable = true;
	return (deliver);
}

sub vcl_backend_error {
	set beresp.http.Content-Type = "text/html; charset=utf-8";
	set beresp.http.Retry-After = "5";
	synthetic({"<!DOCTYPE html>
<html>
  <head><title>"} + beresp.status + " " + beresp.reason + {"</title></head>
  <body>
    <h1>"} + beresp.status + " " + beresp.reason + {"</h1>
    <p>Request id: "} + bereq.xid + {"</p>
    <hr>
    <p>Veneer</p>
  </body>
</html>
"});
	return (deliver);
}

sub vcl_init {
	return (ok);
}

sub vcl_fini {
	return (ok);
}

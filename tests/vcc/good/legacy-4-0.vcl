# A file written for Varnish 4.0, with what 4.0 allowed that later
# versions dropped: it must still compile (with warnings).
vcl 4.0;

import std;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	if (req.http.X-Refresh) {
		set req.hash_always_miss = true;
	}
	remove req.http.X-Debug;
}

sub vcl_hit {
	if (obj.ttl <= 0s && obj.grace > 0s) {
		return (fetch);
	}
	return (deliver);
}

sub vcl_backend_response {
	set beresp.do_gzip = true;
	set beresp.storage_hint = "s0";
	set beresp.ttl = std.duration(std.real2time(0, now) + "", 1h) + 0s;
}

# Stale-while-revalidate and a retry on a failed fetch: serve old
# content while the origin is slow, try the fetch once more on a 5xx,
# restart a request once when the origin said 503.
vcl 4.1;

import std;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
	.probe = {
		.url = "/healthz";
		.expected_response = 204;
	}
}

sub vcl_recv {
	if (std.healthy(req.backend_hint)) {
		set req.grace = 10s;
	}
	if (req.restarts > 1) {
		return (synth(503, "Gave up"));
	}
}

sub vcl_hit {
	if (obj.ttl > 0s) {
		return (deliver);
	}
	if (obj.ttl + obj.grace > 0s) {
		return (deliver);
	}
	return (miss);
}

sub vcl_backend_fetch {
	if (bereq.retries > 0) {
		set bereq.http.X-Retry = bereq.retries;
	}
}

sub vcl_backend_response {
	if (beresp.status >= 500 && bereq.retries < 1) {
		return (retry);
	}
	if (beresp.status >= 500 && bereq.is_bgfetch) {
		return (abandon);
	}
	set beresp.ttl = 1m;
	set beresp.grace = 1h;
	set beresp.keep = 1d;
}

sub vcl_deliver {
	if (resp.status == 503 && req.method == "GET") {
		return (restart);
	}
	set resp.http.X-Age-Hint = obj.ttl;
}

# An API gateway front in the style of published templates: a Unix
# socket backend, JSON errors, per-client caching keyed on a header, and
# restarts to a fallback path.
vcl 4.1;

import std;

backend app {
	.path = "/run/app/app.sock";
}

sub vcl_recv {
	if (req.restarts > 0) {
		set req.url = "/fallback" + req.url;
	}
	if (req.http.Authorization && req.url !~ "^/public/") {
		return (pass);
	}
	if (std.integer(s = req.http.X-Api-Version, fallback = 1) > 2) {
		return (synth(400, "Unsupported API version"));
	}
}

sub vcl_hash {
	hash_data(req.http.X-Api-Version);
	hash_data(std.tolower(req.http.Accept-Language));
}

sub vcl_backend_fetch {
	set bereq.http.X-Request-Id = bereq.xid;
	set bereq.first_byte_timeout = 5s;
}

sub vcl_backend_response {
	if (beresp.status == 503 && bereq.retries < 2) {
		return (retry);
	}
	if (bereq.url ~ "^/public/") {
		set beresp.ttl = std.duration(beresp.http.X-Ttl, 60s);
	}
}

sub vcl_deliver {
	if (resp.status == 503 && req.restarts == 0) {
		return (restart);
	}
	set resp.http.X-Restarts = req.restarts;
}

sub vcl_synth {
	set resp.http.Content-Type = "application/json";
	synthetic({"{"error": "} + resp.status + {", "reason": ""} +
	    resp.reason + """"}""");
	return (deliver);
}

# The shapes a tutorial walks through: normalise, strip, choose a
# backend, set a TTL, say what happened.
vcl 4.1;

import std;

backend web {
	.host = "127.0.0.1";
	.port = "8080";
}

backend api {
	.host = "127.0.0.1";
	.port = "8081";
}

sub normalize_host {
	set req.http.Host = std.tolower(regsub(req.http.Host, ":[0-9]+$", ""));
	if (req.http.Host ~ "^www\.") {
		set req.http.Host = regsub(req.http.Host, "^www\.", "");
	}
}

sub vcl_recv {
	call normalize_host;
	unset req.http.Proxy;
	if (req.url ~ "^/api/") {
		set req.backend_hint = api;
		if (req.url ~ "nocache") {
			return (pass);
		}
	} else {
		set req.backend_hint = web;
	}
	if (req.http.Accept-Encoding) {
		if (req.url ~ "\.(jpg|png|gif|gz|tgz|bz2|mp3|ogg)$") {
			unset req.http.Accept-Encoding;
		} elsif (req.http.Accept-Encoding ~ "gzip") {
			set req.http.Accept-Encoding = "gzip";
		} else {
			unset req.http.Accept-Encoding;
		}
	}
	if (req.url ~ "#") {
		set req.url = regsub(req.url, "#.*$", "");
	}
	if (req.url ~ "\?$") {
		set req.url = regsub(req.url, "\?$", "");
	}
}

sub vcl_backend_fetch {
	set bereq.http.X-Forwarded-Host = bereq.http.Host;
}

sub vcl_backend_response {
	if (beresp.http.Cache-Control !~ "max-age" && beresp.ttl < 60s) {
		set beresp.ttl = 5m;
	}
	if (beresp.http.Set-Cookie) {
		# Remember for 10 s that this URL is personal: hit-for-pass.
		return (pass(10s));
	}
	set beresp.http.X-Backend = beresp.backend.name;
	set beresp.keep = 1d;
}

sub vcl_backend_error {
	set beresp.http.Content-Type = "text/plain";
	synthetic("The origin is unwell (" + beresp.status + ").");
	return (deliver);
}

sub vcl_deliver {
	set resp.http.X-Hits = obj.hits;
	if (req.restarts > 0) {
		set resp.http.X-Restarts = req.restarts;
	}
	std.log("delivered " + req.url);
}

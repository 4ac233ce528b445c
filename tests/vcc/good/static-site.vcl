# A static site generator's output: everything is public, so cache it
# all for a day, ignore cookies, and let a PURGE with a secret clear a
# page.  (The key would better come from outside the file; std here has
# no getenv.)
vcl 4.1;

import std;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	if (req.method == "PURGE") {
		if (req.http.X-Purge-Key != "change-me") {
			return (synth(403, "Forbidden"));
		}
		return (purge);
	}
	if (req.method == "BAN") {
		return (synth(501, "Not Implemented"));
	}
	unset req.http.Cookie;
	unset req.http.Authorization;
	set req.url = std.tolower(req.url);
	return (hash);
}

sub vcl_backend_response {
	unset beresp.http.Set-Cookie;
	set beresp.ttl = 1d;
	if (beresp.status == 404) {
		set beresp.ttl = 5m;
	}
	return (deliver);
}

sub vcl_purge {
	return (synth(200, "Purged " + req.url));
}

sub vcl_deliver {
	set resp.http.Cache-Control = "public, max-age=3600";
}

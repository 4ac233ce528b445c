# An API in front of several services: CORS answered at the edge,
# authorization forces a pass, JSON cached briefly keyed on Accept.
vcl 4.1;

import std;

backend users { .host = "127.0.0.1"; .port = "9001"; }
backend orders { .host = "127.0.0.1"; .port = "9002"; }

acl trusted_networks {
	"127.0.0.0"/8;
	! "127.0.0.2";
	"::1";
}

sub vcl_recv {
	if (req.method == "OPTIONS" && req.http.Origin) {
		return (synth(204, "No Content"));
	}
	if (req.url ~ "^/users") {
		set req.backend_hint = users;
	} elseif (req.url ~ "^/orders") {
		set req.backend_hint = orders;
	} else {
		return (synth(404, "Unknown service"));
	}
	if (req.http.Authorization && client.ip !~ trusted_networks) {
		return (pass);
	}
	if (std.integer(req.http.X-Page, 1) > 100) {
		return (synth(400, "Page too far"));
	}
	set req.http.X-Request-Start = std.time2real(now, 0.0);
}

sub vcl_hash {
	hash_data(req.http.Accept);
}

sub vcl_backend_response {
	if (beresp.http.Content-Type ~ "application/json") {
		set beresp.ttl = std.duration(beresp.http.X-Ttl, 30s);
	}
}

sub vcl_synth {
	if (resp.status == 204) {
		set resp.http.Access-Control-Allow-Origin = req.http.Origin;
		set resp.http.Access-Control-Allow-Methods =
		    "GET, POST, PUT, DELETE";
		set resp.http.Access-Control-Max-Age = "86400";
		return (deliver);
	}
	set resp.http.Content-Type = "application/json";
	synthetic({"{"error": ""} + resp.reason + {"""} + "}");
	return (deliver);
}

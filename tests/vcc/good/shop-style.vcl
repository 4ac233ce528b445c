# A shop front in the style of e-commerce integrations: a health probe,
# a separate backend for checkout, purges by URL pattern, grace, and a
# friendly error page.
vcl 4.1;

import std;

probe healthcheck {
	.url = "/health_check.php";
	.timeout = 2s;
	.interval = 5s;
	.window = 10;
	.threshold = 5;
}

backend web {
	.host = "127.0.0.1";
	.port = "8080";
	.probe = healthcheck;
}

backend checkout {
	.host = "checkout.internal";
	.port = "8081";
	.probe = healthcheck;
	.connect_timeout = 2s;
}

acl purgers {
	"127.0.0.1";
	"::1";
}

sub vcl_recv {
	set req.backend_hint = web;
	if (req.url ~ "^/(checkout|customer|cart)") {
		set req.backend_hint = checkout;
		return (pass);
	}
	if (req.method == "PURGE") {
		if (client.ip !~ purgers) {
			return (synth(405, "Method not allowed"));
		}
		if (!req.http.X-Purge-Pattern) {
			return (purge);
		}
		ban("obj.http.X-Url ~ " + req.http.X-Purge-Pattern);
		return (synth(200, "Banned"));
	}
	if (std.healthy(req.backend_hint)) {
		set req.http.X-Healthy = "1";
	}
	set req.url = regsuball(req.url, "([?&])(gclid|utm_[a-z]+)=[^&]+&?", "\1");
	set req.url = regsub(req.url, "[?&]+$", "");
	return (hash);
}

sub vcl_backend_response {
	set beresp.http.X-Url = bereq.url;
	if (beresp.status >= 500 && bereq.is_bgfetch) {
		return (abandon);
	}
	if (beresp.http.Cache-Control ~ "private|no-cache|no-store") {
		set beresp.ttl = 120s;
		set beresp.uncacheable = true;
		return (deliver);
	}
	set beresp.grace = 3d;
}

sub vcl_deliver {
	unset resp.http.X-Url;
	set resp.http.X-Served-By = server.hostname;
}

sub vcl_backend_error {
	set beresp.http.Content-Type = "text/html; charset=utf-8";
	synthetic({"<html><body><h1>We'll be right back</h1></body></html>"});
	return (deliver);
}

# In the style of the VCL a Magento 2 store exports: purge by URL from
# the store's admin, static files cached long, health checks passed.
vcl 4.0;

import std;

backend default {
	.host = "localhost";
	.port = "8080";
	.first_byte_timeout = 600s;
	.probe = {
		.request =
		    "GET /health_check.php HTTP/1.1"
		    "Host: localhost"
		    "Connection: close";
		.timeout = 2s;
		.interval = 5s;
		.window = 10;
		.threshold = 5;
		.expected_response = 200;
	}
}

acl purge {
	"localhost";
}

sub vcl_recv {
	if (req.restarts > 0) {
		set req.hash_always_miss = true;
	}
	if (req.method == "PURGE") {
		if (client.ip !~ purge) {
			return (synth(405, "Method not allowed"));
		}
		return (purge);
	}
	if (req.method != "GET" &&
	    req.method != "HEAD" &&
	    req.method != "PUT" &&
	    req.method != "POST" &&
	    req.method != "PATCH" &&
	    req.method != "DELETE" &&
	    req.method != "OPTIONS") {
		return (pipe);
	}
	if (req.method != "GET" && req.method != "HEAD") {
		return (pass);
	}
	if (req.url ~ "/checkout" || req.url ~ "/catalogsearch") {
		return (pass);
	}
	if (req.url ~ "^/(pub/)?(health_check.php)$") {
		return (pass);
	}
	set req.http.grace = "none";
	set req.url = regsub(req.url, "^http[s]?://", "");
	if (req.url ~ "(\?|&)(gclid|cx|ie|cof|siteurl|utm_[a-z]+)=") {
		set req.url = regsuball(req.url,
		    "(gclid|cx|ie|cof|siteurl|utm_[a-z]+)=[-_A-z0-9+()%.]+&?",
		    "");
		set req.url = regsub(req.url, "[?|&]+$", "");
	}
	if (req.url ~ "^/(pub/)?(media|static)/") {
		unset req.http.Https;
		unset req.http.X-Forwarded-Proto;
		unset req.http.Cookie;
	}
	return (hash);
}

sub vcl_hash {
	if (req.http.cookie ~ "X-Magento-Vary=") {
		hash_data(regsub(req.http.cookie,
		    "^.*?X-Magento-Vary=([^;]+);*.*$", "\1"));
	}
	if (req.http.X-Forwarded-Proto) {
		hash_data(req.http.X-Forwarded-Proto);
	}
}

sub vcl_backend_response {
	set beresp.grace = 3d;
	if (beresp.http.content-type ~ "text") {
		set beresp.do_esi = true;
	}
	if (bereq.url ~ "\.js$" || beresp.http.content-type ~ "text") {
		set beresp.do_gzip = true;
	}
	if (beresp.http.X-Magento-Debug) {
		set beresp.http.X-Magento-Cache-Control =
		    beresp.http.Cache-Control;
	}
	if (beresp.status != 200 && beresp.status != 404) {
		set beresp.ttl = 0s;
		set beresp.uncacheable = true;
		return (deliver);
	} elsif (beresp.http.Cache-Control ~ "private") {
		set beresp.uncacheable = true;
		set beresp.ttl = 86400s;
		return (deliver);
	}
	if (bereq.method == "GET" &&
	    (bereq.url ~ "\.(css|js|jpg|png|gif|svg|ico)(\?|$)")) {
		unset beresp.http.set-cookie;
	}
	if (beresp.ttl <= 0s ||
	    beresp.http.Surrogate-control ~ "no-store" ||
	    (!beresp.http.Surrogate-Control &&
	    beresp.http.Cache-Control ~ "no-cache|no-store") ||
	    beresp.http.Vary == "*") {
		set beresp.ttl = 120s;
		set beresp.uncacheable = true;
	}
	return (deliver);
}

sub vcl_deliver {
	if (resp.http.X-Magento-Debug) {
		if (resp.http.x-varnish ~ " ") {
			set resp.http.X-Magento-Cache-Debug = "HIT";
			set resp.http.Grace = req.http.grace;
		} else {
			set resp.http.X-Magento-Cache-Debug = "MISS";
		}
	} else {
		unset resp.http.Age;
	}
	if (resp.http.Cache-Control !~ "private" &&
	    req.url !~ "^/(pub/)?(media|static)/") {
		set resp.http.Pragma = "no-cache";
		set resp.http.Expires = "-1";
		set resp.http.Cache-Control =
		    "no-store, no-cache, must-revalidate, max-age=0";
	}
	unset resp.http.X-Magento-Debug;
	unset resp.http.X-Magento-Tags;
	unset resp.http.X-Powered-By;
	unset resp.http.Server;
	unset resp.http.X-Varnish;
	unset resp.http.Via;
	unset resp.http.Link;
}

sub vcl_hit {
	if (obj.ttl >= 0s) {
		return (deliver);
	}
	if (std.healthy(req.backend_hint)) {
		if (obj.ttl + 300s > 0s) {
			set req.http.grace = "normal(healthy)";
			return (deliver);
		} else {
			return (restart);
		}
	} else {
		set req.http.grace = "unlimited(unhealthy)";
		return (deliver);
	}
}

# A WordPress site: logged-in users and the admin go to the origin,
# everyone else shares one cached copy with the tracking cookies gone.
vcl 4.1;

import std;

backend wordpress {
	.host = "127.0.0.1";
	.port = "8080";
	.connect_timeout = 5s;
	.first_byte_timeout = 60s;
	.probe = {
		.url = "/wp-login.php";
		.interval = 5s;
		.timeout = 2s;
		.window = 5;
		.threshold = 3;
	}
}

acl purgers {
	"localhost";
	"127.0.0.1";
	"10.0.0.0"/8;
}

sub vcl_recv {
	if (req.method == "PURGE") {
		if (client.ip !~ purgers) {
			return (synth(405, "Not allowed"));
		}
		return (purge);
	}
	if (req.method != "GET" && req.method != "HEAD") {
		return (pass);
	}
	if (req.url ~ "^/wp-(admin|login|cron)" || req.url ~ "preview=true") {
		return (pass);
	}
	if (req.http.Cookie ~ "wordpress_logged_in_|comment_author_") {
		return (pass);
	}
	set req.http.Cookie = regsuball(req.http.Cookie,
	    "(^|;\s*)(_ga|_gid|__utm[a-z]+|has_js)=[^;]*", "");
	set req.http.Cookie = regsub(req.http.Cookie, "^;\s*", "");
	if (req.http.Cookie ~ "^\s*$") {
		unset req.http.Cookie;
	}
	set req.url = std.querysort(req.url);
	return (hash);
}

sub vcl_backend_response {
	if (bereq.url ~ "\.(css|js|png|jpe?g|gif|svg|woff2?)(\?.*)?$") {
		unset beresp.http.Set-Cookie;
		set beresp.ttl = 7d;
	}
	if (beresp.status >= 500) {
		set beresp.ttl = 0s;
		set beresp.uncacheable = true;
		return (deliver);
	}
	set beresp.grace = 6h;
}

sub vcl_deliver {
	if (obj.hits > 0) {
		set resp.http.X-Cache = "HIT";
	} else {
		set resp.http.X-Cache = "MISS";
	}
	unset resp.http.X-Powered-By;
	unset resp.http.Server;
}

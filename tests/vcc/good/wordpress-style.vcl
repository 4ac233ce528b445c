# A WordPress front, in the style CMS integrations publish: logged-in
# users and the admin pass, everything else is cached without cookies,
# purges from the office, static files for a day.
vcl 4.0;

import std;

backend default {
	.host = "wordpress";		# a container name: resolved at load
	.port = "8080";
	.first_byte_timeout = 60s;
	.max_connections = 200;
}

acl purge {
	"localhost";
	"127.0.0.1";
	"10.0.0.0"/8;
}

sub vcl_recv {
	set req.http.Host = regsub(req.http.Host, ":[0-9]+", "");
	unset req.http.proxy;
	if (req.method == "PURGE") {
		if (!client.ip ~ purge) {
			return (synth(405, "Not allowed."));
		}
		return (purge);
	}
	if (req.method != "GET" && req.method != "HEAD") {
		return (pass);
	}
	if (req.url ~ "wp-(login|admin)|preview=true|xmlrpc.php") {
		return (pass);
	}
	if (req.http.Cookie ~ "wordpress_logged_in_|comment_author") {
		return (pass);
	}
	if (req.url ~ "\.(css|js|png|gif|jp(e)?g|svg|woff2?|ico)(\?.*)?$") {
		unset req.http.Cookie;
		return (hash);
	}
	set req.http.Cookie = regsuball(req.http.Cookie, "(^|;\s*)(_[_a-z]+|has_js)=[^;]*", "");
	if (req.http.Cookie ~ "^\s*$") {
		unset req.http.Cookie;
	}
	return (hash);
}

sub vcl_hash {
	if (req.http.X-Forwarded-Proto) {
		hash_data(req.http.X-Forwarded-Proto);
	}
}

sub vcl_backend_response {
	if (bereq.url ~ "\.(css|js|png|gif|jp(e)?g|svg|woff2?|ico)(\?.*)?$") {
		unset beresp.http.Set-Cookie;
		set beresp.ttl = 1d;
	}
	if (beresp.status == 404 || beresp.status >= 500) {
		set beresp.ttl = 10s;
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

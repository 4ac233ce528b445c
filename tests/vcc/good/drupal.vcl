# A Drupal site: session cookies (SESS..., SSESS...) mean a personal
# page; cron, install and update scripts never come from the cache.
vcl 4.0;

import std;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

acl internal {
	"127.0.0.1";
	"192.168.0.0"/16;
}

sub vcl_recv {
	if (req.url ~ "^/(cron|install|update)\.php$" &&
	    client.ip !~ internal) {
		return (synth(404, "Not Found"));
	}
	if (req.url ~ "^/(cron|install|update|xmlrpc)\.php$") {
		return (pass);
	}
	if (req.url ~ "^/admin/" || req.url ~ "^/user/") {
		return (pass);
	}
	if (req.http.Cookie) {
		set req.http.Cookie = ";" + req.http.Cookie;
		set req.http.Cookie = regsuball(req.http.Cookie, "; +", ";");
		set req.http.Cookie = regsuball(req.http.Cookie,
		    ";(S?SESS[a-z0-9]+|NO_CACHE)=", "; \1=");
		set req.http.Cookie = regsuball(req.http.Cookie,
		    ";[^ ][^;]*", "");
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "^[; ]+|[; ]+$", "");
		if (req.http.Cookie == "") {
			unset req.http.Cookie;
		} else {
			return (pass);
		}
	}
}

sub vcl_hash {
	hash_data(req.url);
	if (req.http.host) {
		hash_data(req.http.host);
	} else {
		hash_data(server.ip);
	}
	if (req.http.X-Forwarded-Proto) {
		hash_data(req.http.X-Forwarded-Proto);
	}
	return (lookup);
}

sub vcl_backend_response {
	if (bereq.url ~ "\.(png|gif|jpg|swf|css|js)$") {
		unset beresp.http.set-cookie;
	}
	set beresp.grace = 1h;
}

sub vcl_synth {
	set resp.http.Content-Type = "text/html; charset=utf-8";
	synthetic({"<!DOCTYPE html>
<html><head><title>"} + resp.status + " " + resp.reason + {"</title></head>
<body><h1>"} + resp.reason + {"</h1></body></html>
"});
	return (deliver);
}

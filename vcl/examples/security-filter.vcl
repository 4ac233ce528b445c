#
# security-filter.vcl -- refuse what a site never serves before it
# costs the backend anything: unknown methods, path tricks, and the
# admin pages from outside the office network.
#
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

acl office {
	"127.0.0.1";
	"::1";
	"192.0.2.0"/24;
}

sub vcl_recv {
	if (req.method !~ "^(GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH)$") {
		return (synth(405, "Method Not Allowed"));
	}
	# Directory traversal and PHP probes of sites that have no PHP.
	if (req.url ~ "\.\./" || req.url ~ "(?i)\.(php|asp)(\?|$)") {
		return (synth(403, "Forbidden"));
	}
	if (req.url ~ "^/admin" && !(client.ip ~ office)) {
		return (synth(403, "Forbidden"));
	}
}

sub vcl_synth {
	if (resp.status == 403 || resp.status == 405) {
		set resp.http.Content-Type = "text/plain";
		synthetic(resp.reason + {"
"});
		return (deliver);
	}
}

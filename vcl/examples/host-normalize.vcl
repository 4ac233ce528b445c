#
# host-normalize.vcl -- one object per page, whatever Host the client
# sent: "WWW.Example.com:80" and "example.com" are the same site, so they
# should share the cache instead of filling it twice.
#
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	# veneerd already lowercases Host; drop a default port and "www.".
	set req.http.host = regsub(req.http.host, ":80$", "");
	if (req.http.host ~ "^www\.") {
		set req.http.host = regsub(req.http.host, "^www\.", "");
	}
}

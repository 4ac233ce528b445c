#
# cache-everything.vcl -- every GET and HEAD is cached for an hour,
# cookies or not.  Only for sites where no page is personal: a page
# made for one logged-in user would be served to everyone.
#
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	if (req.method == "GET" || req.method == "HEAD") {
		unset req.http.Cookie;
		unset req.http.Authorization;
		return (hash);
	}
}

sub vcl_backend_response {
	unset beresp.http.Set-Cookie;
	set beresp.ttl = 1h;
	return (deliver);
}

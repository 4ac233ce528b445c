#
# images.vcl -- images are the same for everyone, so cookies must not
# stop them being cached: drop the request's Cookie under /images, and
# the response's Set-Cookie on image files, which then live an hour.
#
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	if (req.url ~ "^/images") {
		# builtin.vcl passes requests with cookies; these have none now
		unset req.http.Cookie;
	}
}

sub vcl_backend_response {
	# In VCL 4 the request is bereq here (VCL 3 said req and vcl_fetch).
	if (bereq.url ~ "\.(png|gif|jpg)$") {
		unset beresp.http.Set-Cookie;
		set beresp.ttl = 1h;
	}
}

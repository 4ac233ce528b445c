#
# x-hit-wrong.vcl -- how NOT to add X-Hit, kept because the mistake is
# common: marking the response in vcl_backend_response.  That code runs
# only when the backend is asked, i.e. on a miss; the header is then
# stored with the object, so every later hit is delivered with the
# stored "0" and the header never says 1.  Use x-hit.vcl instead.
#
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_miss {
	set req.http.X-Temp-Hit = "0";
}

sub vcl_backend_response {
	# Wrong: this is stored in the cache with the object.
	set beresp.http.X-Hit = "1";
	if (bereq.http.X-Temp-Hit) {
		set beresp.http.X-Hit = bereq.http.X-Temp-Hit;
	}
}

#
# default.vcl -- a starting point for your own VCL.
#
# Load it with:   veneerd -a :80 -f /path/to/default.vcl
# Check it with:  veneerd -C -f /path/to/default.vcl > /dev/null
#
# Everything you do not write here is done by builtin.vcl, which veneerd
# appends to every VCL: a subroutine of yours that does not end with a
# return (...) falls through to the builtin one.  So this file, as it
# is, caches like veneerd -b 127.0.0.1:8080 would.  See veneer-vcl(7).
#

vcl 4.1;

# The first backend is where requests go unless VCL says otherwise.
# .host may be a name: it is looked up when the VCL loads, and a name
# that does not resolve makes the backend sick (503), not the VCL fail.
backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	# Runs first for every request.  Normalise it here: strip what
	# does not change the answer so more requests share one object.
	#
	# if (req.url ~ "\.(png|jpe?g|gif|css|js)(\?.*)?$") {
	#	unset req.http.Cookie;
	# }
}

sub vcl_backend_response {
	# Runs when the backend has answered, before the object is stored.
	# Decide what to cache and for how long.
	#
	# if (bereq.url ~ "^/static/") {
	#	unset beresp.http.Set-Cookie;
	#	set beresp.ttl = 1h;
	# }
}

sub vcl_deliver {
	# Runs before each response leaves, from the cache or not.
	#
	# if (obj.hits > 0) {
	#	set resp.http.X-Cache = "HIT";
	# } else {
	#	set resp.http.X-Cache = "MISS";
	# }
}

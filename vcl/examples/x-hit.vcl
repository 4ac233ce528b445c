#
# x-hit.vcl -- an X-Hit response header: 1 for a cache hit, 0 otherwise.
# The response the client gets (resp) exists only in vcl_deliver and
# vcl_synth, so the decision is made there, on every delivery.
#
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_deliver {
	# obj.hits counts the times this object was found in the cache.
	if (obj.hits > 0) {
		set resp.http.X-Hit = "1";
	} else {
		set resp.http.X-Hit = "0";
	}
}

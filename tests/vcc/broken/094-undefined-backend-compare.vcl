# expect: 6:24
# message: Undefined backend c, first reference:
vcl 4.1;
backend b { .host = "127.0.0.1"; }
sub vcl_backend_response {
	if (beresp.backend == c) {
		set beresp.ttl = 1h;
	}
}

# expect: 7:2
# message: Not available in subroutine 'vcl_backend_fetch'
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_backend_fetch {
	debug.test_priv_top("client side only");
}

# expect: 7:2
# message: new is not allowed in vcl_recv
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_recv {
	new o = debug.obj();
}

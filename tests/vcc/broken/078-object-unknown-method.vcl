# expect: 10:19
# message: object o (a debug.obj) has no method nosuch
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj();
}
sub vcl_recv {
	set req.http.x = o.nosuch();
}

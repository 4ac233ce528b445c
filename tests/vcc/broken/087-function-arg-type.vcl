# expect: 7:42
# message: argument size
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_recv {
	set req.http.x = debug.priv_perf(size = "ten");
}

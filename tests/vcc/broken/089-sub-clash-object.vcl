# expect: 7:6
# message: Name 'o' already defined. It is sub o, declared at
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj();
}
sub o {
}
sub vcl_recv {
	call o;
}

# expect: 10:8
# message: o.foo() has no argument named nope
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj();
}
sub vcl_recv {
	o.foo(nope = "x");
}

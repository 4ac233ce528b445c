# expect: 7:10
# message: no object class named debug.nosuch
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.nosuch();
}

# expect: 7:10
# message: Symbol not found: 'debug.nosuch' (no object class
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.nosuch();
}

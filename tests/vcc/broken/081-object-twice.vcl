# expect: 8:6
# message: Instance 'o' redefined. It is first made at
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj();
	new o = debug.obj();
}

# expect: 7:6
# message: Syntax error: an object's name starts with a letter
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new _o = debug.obj();
}

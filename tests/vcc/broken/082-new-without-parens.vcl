# expect: 7:19
# message: Syntax error: expected '(' after debug.obj
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj;
}

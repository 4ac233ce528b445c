# expect: 7:6
# message: Name 'default' already defined. It is backend default, declared at
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new default = debug.obj();
}

# expect: 7:29
# message: Expected one of: one,two,three (four is not one of the values of number)
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj(number = four);
}

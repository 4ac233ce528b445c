# expect: 7:29
# message: four is not an allowed value of number; it takes one of one,two,three
vcl 4.1;
import debug;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj(number = four);
}

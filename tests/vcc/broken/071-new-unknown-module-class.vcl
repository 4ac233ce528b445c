# expect: 6:25
# message: no object class named nosuch.thing; the classes here are: debug.obj
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_init { new rr = nosuch.thing(); }

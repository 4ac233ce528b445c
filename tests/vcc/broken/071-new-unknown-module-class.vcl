# expect: 6:25
# message: Symbol not found: 'nosuch.thing' (no object class of that name; the classes here are: debug.obj
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_init { new rr = nosuch.thing(); }

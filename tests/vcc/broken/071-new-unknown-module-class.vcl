# expect: 6:25
# message: no object class named directors.round_robin; the classes here are: debug.obj
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_init { new rr = directors.round_robin(); }

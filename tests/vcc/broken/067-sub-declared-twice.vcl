# expect: 7:5
# message: declared twice
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub s { }
sub s { }
sub vcl_recv { call s; }

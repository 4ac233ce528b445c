# expect: 6:13
# message: sub s (called from vcl_recv)
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub s { set beresp.ttl = 1s; }
sub vcl_recv { call s; }

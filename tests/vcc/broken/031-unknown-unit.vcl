# expect: 6:47
# message: unknown unit
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_backend_response { set beresp.ttl = 10x; }

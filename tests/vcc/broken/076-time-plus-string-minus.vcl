# expect: 6:41
# message: cannot subtract
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_deliver { set resp.http.X = now - 1; }

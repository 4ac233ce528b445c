# expect: 6:20
# message: cannot be set in vcl_recv
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set resp.http.X = "1"; }

# expect: 6:35
# message: cannot multiply
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.http.X = 2 * "a"; }

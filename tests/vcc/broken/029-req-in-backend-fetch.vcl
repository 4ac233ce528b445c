# expect: 6:29
# message: cannot be set in vcl_backend_fetch
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_backend_fetch { set req.http.X = "1"; }

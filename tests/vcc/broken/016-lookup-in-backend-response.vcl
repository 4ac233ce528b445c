# expect: 6:36
# message: may return
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_backend_response { return (lookup); }

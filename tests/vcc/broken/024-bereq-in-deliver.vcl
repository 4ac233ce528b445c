# expect: 6:25
# message: cannot be unset in vcl_deliver
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_deliver { unset bereq.http.X; }

# expect: 7:33
# message: can only be used as `ip ~ a`
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
acl a { "127.0.0.1"; }
sub vcl_recv { set req.http.X = a; }

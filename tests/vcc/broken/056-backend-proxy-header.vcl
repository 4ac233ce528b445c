# expect: 6:42
# message: whole number up to 2
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
backend b { .host = "x"; .proxy_header = 3; }
sub vcl_recv { set req.backend_hint = b; }

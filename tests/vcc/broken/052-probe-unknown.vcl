# expect: 6:35
# message: no probe named nosuch
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
backend b { .host = "x"; .probe = nosuch; }
sub vcl_recv { set req.backend_hint = b; }

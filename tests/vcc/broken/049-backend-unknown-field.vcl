# expect: 6:14
# message: Unknown field: '.hots'
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
backend b { .hots = "x"; }
sub vcl_recv { set req.backend_hint = b; }

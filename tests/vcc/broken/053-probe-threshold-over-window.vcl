# expect: 6:37
# message: .threshold (3) is more than .window (2)
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
probe p { .window = 2; .threshold = 3; }
backend b { .host = "x"; .probe = p; }
sub vcl_recv { set req.backend_hint = b; }

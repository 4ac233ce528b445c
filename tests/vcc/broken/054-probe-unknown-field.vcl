# expect: 6:12
# message: unknown probe field
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
probe p { .urls = "/"; }
backend b { .host = "x"; .probe = p; }
sub vcl_recv { set req.backend_hint = b; }

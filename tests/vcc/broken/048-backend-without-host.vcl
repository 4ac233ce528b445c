# expect: 6:9
# message: needs .host
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
backend b { .port = "80"; }
sub vcl_recv { set req.backend_hint = b; }

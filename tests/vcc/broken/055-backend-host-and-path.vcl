# expect: 6:9
# message: both .host and .path
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
backend b { .host = "x"; .path = "/s"; }
sub vcl_recv { set req.backend_hint = b; }

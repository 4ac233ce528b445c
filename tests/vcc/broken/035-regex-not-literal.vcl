# expect: 6:30
# message: Expected CSTR
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { if (req.url ~ req.http.X) { } }

# expect: 6:22
# message: cannot be unset
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { unset req.url; }

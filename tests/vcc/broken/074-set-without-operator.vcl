# expect: 6:28
# message: Expected '='
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.url "x"; }

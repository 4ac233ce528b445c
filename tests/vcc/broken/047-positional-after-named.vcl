# expect: 6:54
# message: positional argument after
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.http.X = std.integer(s = "1", 2); }

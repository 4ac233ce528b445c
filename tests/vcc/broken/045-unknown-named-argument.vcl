# expect: 6:45
# message: no argument named sss
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.http.X = std.integer(sss = "1"); }

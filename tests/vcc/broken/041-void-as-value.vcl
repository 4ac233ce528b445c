# expect: 6:33
# message: returns nothing
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.http.X = std.log("a"); }

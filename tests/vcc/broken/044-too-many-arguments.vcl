# expect: 6:47
# message: too many arguments
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.url = std.tolower("a", "b"); }

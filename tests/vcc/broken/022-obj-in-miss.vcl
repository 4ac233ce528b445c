# expect: 6:33
# message: obj.hits is not available in vcl_miss
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_miss { set req.http.X = obj.hits; }

# expect: 6:31
# message: a header takes = or +=
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.http.X -= "x"; }

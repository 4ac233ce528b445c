# expect: 6:20
# message: did you mean req.url?
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.ulr = "/"; }

# expect: 6:15
# message: expected '}' before the end
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv {

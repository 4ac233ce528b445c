# expect: 6:21
# message: no sub named nosuch
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { call nosuch; }

# expect: 6:21
# message: builtin subroutine
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { call vcl_hash; }

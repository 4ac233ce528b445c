# expect: 6:5
# message: recursion
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub a { call b; }
sub b { call a; }
sub vcl_recv { call a; }

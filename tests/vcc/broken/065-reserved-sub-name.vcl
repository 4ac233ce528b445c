# expect: 6:5
# message: not a builtin subroutine
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_nonsense { }

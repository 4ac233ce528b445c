# expect: 6:5
# message: sub lonely is never called
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub lonely { }

# expect: 6:1
# message: expected a declaration
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
frontend default { }

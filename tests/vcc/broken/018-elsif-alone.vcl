# expect: 6:16
# message: without an `if`
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { elsif (true) { } }

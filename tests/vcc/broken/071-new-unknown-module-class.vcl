# expect: 6:25
# message: no module here has objects
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_init { new rr = directors.round_robin(); }

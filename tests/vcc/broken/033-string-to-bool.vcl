# expect: 6:43
# message: needs a BOOL
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.hash_always_miss = "yes"; }

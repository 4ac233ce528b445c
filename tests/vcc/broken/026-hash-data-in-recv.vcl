# expect: 6:16
# message: hash_data() is not allowed in vcl_recv
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { hash_data(req.url); }

# expect: 6:24
# message: vcl_recv may return
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { return (deliver); }

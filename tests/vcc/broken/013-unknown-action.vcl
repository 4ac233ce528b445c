# expect: 6:24
# message: unknown action
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { return (deliverr); }

# expect: 6:24
# message: Expected return action name.
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { return (deliverr); }

# expect: 6:28
# message: cannot compare a STRING with an INT
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { if (req.url == 1) { } }

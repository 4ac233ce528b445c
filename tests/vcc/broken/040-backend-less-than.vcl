# expect: 6:37
# message: cannot compare
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { if (req.backend_hint < default) { } }

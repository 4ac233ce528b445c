# expect: 6:20
# message: it exists in vcl_backend_response and vcl_backend_error
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { if (beresp.status == 200) { } }

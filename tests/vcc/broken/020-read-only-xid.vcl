# expect: 6:20
# message: Variable is read only. req.xid cannot be set
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.xid = "1"; }

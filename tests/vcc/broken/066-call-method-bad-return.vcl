# expect: 6:24
# message: return (lookup) is not allowed in vcl_hash (called from vcl_recv)
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_hash { return (lookup); }
sub vcl_recv { call vcl_hash; }

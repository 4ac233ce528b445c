# expect: 6:32
# message: no acl named nosuch
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { if (client.ip ~ nosuch) { } }

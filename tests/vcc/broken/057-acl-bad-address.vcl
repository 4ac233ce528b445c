# expect: 6:9
# message: not an IPv4 address
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
acl a { "300.1.1.1"; }
sub vcl_recv { if (client.ip ~ a) { } }

# expect: 6:9
# message: not an IPv6 address
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
acl a { "fe80::zz"; }
sub vcl_recv { if (client.ip ~ a) { } }

# expect: 6:20
# message: Too wide mask (/40) for IPv4 address
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
acl a { "10.0.0.0"/40; }
sub vcl_recv { if (client.ip ~ a) { } }

# expect: 6:5
# message: acl lonely is never used
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
acl lonely { "127.0.0.1"; }

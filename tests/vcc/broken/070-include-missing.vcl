# expect: 6:9
# message: cannot find "nope.vcl"
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
include "nope.vcl";

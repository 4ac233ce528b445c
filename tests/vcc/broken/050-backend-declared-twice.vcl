# expect: 6:9
# message: declared twice
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
backend default { .host = "y"; }

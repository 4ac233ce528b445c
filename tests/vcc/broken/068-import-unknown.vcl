# expect: 6:8
# message: the modules here are: std
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
import nosuchmod;

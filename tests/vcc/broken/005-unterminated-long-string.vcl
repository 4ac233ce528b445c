# expect: 6:30
# message: Unterminated long-string, starting at the caret: {"
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { set req.url = {"abc

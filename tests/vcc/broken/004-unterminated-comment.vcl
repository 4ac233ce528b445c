# expect: 6:1
# message: Unterminated /* ... */ comment
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
/* never closed

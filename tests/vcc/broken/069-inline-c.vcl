# expect: 6:1
# message: vcc_allow_inline_c=on
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
C{ int x; }C

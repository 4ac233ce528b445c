# expect: 6:1
# message: Unterminated inline C source, starting at the caret: C{
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
C{ int x;

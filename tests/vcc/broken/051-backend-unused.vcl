# expect: 6:9
# message: backend spare is never used
vcl 4.1;
import std;
backend default { .host = "127.0.0.1"; }
backend spare { .host = "y"; }

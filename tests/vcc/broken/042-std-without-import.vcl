# expect: 5:16
# message: needs `import std;`
vcl 4.1;
backend default { .host = "127.0.0.1"; }
sub vcl_recv { std.log("x"); }

vcl 4.1; backend default { .host = "127.0.0.1"; .port = "8080"; } C{ int x; }C sub vcl_recv { C{ (void)x; }C }

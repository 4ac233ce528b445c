vcl 4.1; backend default { .host = "127.0.0.1"; .port = "8080"; } sub f { call g; } sub g { call f; } sub vcl_recv { call f; }

vcl 4.1; backend default { .host = "127.0.0.1"; .port = "8080"; } sub f { set req.http.f = "1"; } sub vcl_recv { call f; return (lookup); } sub vcl_hit { return (fetch); } sub vcl_synth { synthetic({"<h1>"} + resp.status + """x
y"""); return (deliver); }

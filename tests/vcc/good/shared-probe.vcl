# Two application servers checked by one named probe, declared after
# the backends that use it, as files that grew over time often have it.
# Which server a request goes to is decided by URL here; a director
# would spread them (directors are not in veneerd yet).
vcl 4.1;

backend app1 {
	.host = "127.0.0.1";
	.port = "8081";
	.probe = healthcheck;
}

backend app2 {
	.host = "127.0.0.1";
	.port = "8082";
	.probe = healthcheck;
}

probe healthcheck {
	.url = "/status";
	.interval = 3s;
	.timeout = 1s;
	.window = 5;
	.threshold = 3;
	.initial = 3;
}

sub vcl_recv {
	if (req.url ~ "^/admin") {
		set req.backend_hint = app2;
	} else {
		set req.backend_hint = app1;
	}
}

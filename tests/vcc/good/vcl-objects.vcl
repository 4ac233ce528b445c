# Objects made in vcl_init and used everywhere their methods fit, and
# module state passed implicitly (PRIV_TASK, PRIV_TOP, PRIV_VCL,
# PRIV_CALL), in the style of published VCL using vmod objects.
vcl 4.1;

import debug;
import std;

backend default { .host = "127.0.0.1"; .port = "8080"; }

sub vcl_init {
	new greeting = debug.concat("hello" + ", " + "world");
	new counter = debug.obj(number = three);
	new named = debug.obj(string = greeting.get(), number = two);
	debug.test_priv_vcl();
}

sub vcl_recv {
	if (counter.number() == "three" && named.string() ~ "^hello") {
		set req.http.X-Greeting = greeting.get();
	}
	counter.test_priv_task(req.url);
	set req.http.X-Top = debug.test_priv_top(req.url);
	std.log("task " + debug.test_priv_task(req.url));
	named.test_priv_call();
	counter.enum(martin);
	if (counter.date() < now) {
		set req.http.X-Dated = "yes";
	}
}

sub vcl_backend_fetch {
	set bereq.http.X-Task = counter.test_priv_task();
	set bereq.http.X-Foo = named.foo(why = "because");
}

sub vcl_deliver {
	set resp.http.X-Task = counter.test_priv_task();
	set resp.http.X-Top = counter.test_priv_top();
}

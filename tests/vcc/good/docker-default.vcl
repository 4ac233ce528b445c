# What a container image ships as its default: one backend whose
# address the operator fills in, and nothing else (builtin.vcl does
# the rest).
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "80";
}

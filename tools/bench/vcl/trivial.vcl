vcl 4.1;
#
# trivial.vcl -- tools/bench/vcl.sh: a backend and the builtin policy,
# so that heavy minus trivial is what the VCL itself costs.

backend default {
	.host = "127.0.0.1";
	.port = "@PORT@";
}

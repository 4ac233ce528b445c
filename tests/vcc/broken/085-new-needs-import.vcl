# expect: 6:10
# message: debug.obj needs `import debug;`
vcl 4.1;
backend default { .host = "127.0.0.1"; }
sub vcl_init {
	new o = debug.obj();
}

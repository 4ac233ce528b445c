# expect: 3:1
# message: starts with `vcl 4.1;`
backend default { .host = "x"; }

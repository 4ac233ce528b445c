# expect: 3:5
# message: expected `vcl 4.0;`
vcl 5.0;
backend default { .host = "x"; }

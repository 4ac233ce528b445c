# expect: 3:5
# message: VCL version 5.0 not supported.
vcl 5.0;
backend default { .host = "x"; }

# expect: 4:29
# message: expected new NAME = module.class(...); here
vcl 4.1;
sub vcl_backend_fetch { new return (error); }

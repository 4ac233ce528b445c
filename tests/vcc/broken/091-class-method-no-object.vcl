# expect: 6:25
# message: is a method of the class directors.round_robin: call it on an object (new x = directors.round_robin(...); in vcl_init, then x.backend())
vcl 4.1;
import directors;
sub vcl_recv {
	set req.backend_hint = directors.round_robin.backend();
}

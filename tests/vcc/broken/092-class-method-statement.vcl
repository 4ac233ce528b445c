# expect: 6:2
# message: Syntax error: directors.round_robin.backend() is a method of the class directors.round_robin
vcl 4.1;
import directors;
sub vcl_recv {
	directors.round_robin.backend();
}

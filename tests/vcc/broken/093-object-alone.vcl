# expect: 6:4
# message: Expected '.' got ';': rr is an object
vcl 4.1;
import directors;
sub vcl_init {
	rr;
	new rr = directors.round_robin();
}

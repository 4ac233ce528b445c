# Websockets through the cache: an Upgrade request is piped, and
# vcl_pipe carries the Upgrade and Connection headers onto the backend
# request (the hop-by-hop headers would otherwise be dropped).
vcl 4.1;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	if (req.http.Upgrade ~ "(?i)websocket") {
		return (pipe);
	}
}

sub vcl_pipe {
	if (req.http.Upgrade) {
		set bereq.http.Upgrade = req.http.Upgrade;
		set bereq.http.Connection = req.http.Connection;
	}
	return (pipe);
}

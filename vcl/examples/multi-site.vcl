#
# multi-site.vcl -- rules in the style of seed 000: one cache in front
# of several sites, each with its own URL clean-ups, mobile visitors sent
# to the mobile site, and tracking parameters removed so that they do
# not split the cache.
#
vcl 4.1;

import std;

backend default {
	.host = "127.0.0.1";
	.port = "8080";
}

sub vcl_recv {
	# utm_* and fbclid change nothing on the page: drop them.
	if (req.url ~ "[?&](utm_[a-z]+|fbclid)=") {
		set req.url = regsuball(req.url, "(utm_[a-z]+|fbclid)=[^&]*&?",
		    "");
		set req.url = regsub(req.url, "[?&]$", "");
	}
	set req.url = std.querysort(req.url);

	if (req.http.host == "shop.example.com") {
		if (req.url ~ "^/index\.html$") {
			set req.url = "/";
		}
		if (req.url ~ "^/products/[0-9]+$") {
			set req.url = req.url + "/";
		}
	} elsif (req.http.host == "news.example.com") {
		if (req.url ~ "^/article\.php\?id=") {
			set req.url = regsub(req.url,
			    "^/article\.php\?id=([0-9]+).*$", "/a/\1");
		}
	}

	# Phones go to the mobile site; the cheap URL test comes first.
	if (req.http.host == "www.example.com" && req.url !~ "^/static/" &&
	    req.http.User-Agent ~ "(Android|iPhone|Nokia|Sagem|SAGEM|Sendo|BlackBerry|Opera Mini)") {
		return (synth(750, "Mobile"));
	}
}

sub vcl_synth {
	if (resp.status == 750) {
		set resp.status = 302;
		set resp.reason = "Found";
		set resp.http.Location = "https://m.example.com" + req.url;
		return (deliver);
	}
}

vcl 4.1;
#
# rearranged.vcl -- tools/bench/vcl.sh: heavy.vcl's policy arranged by
# hand the way seed 000's author did: the rules for every request first,
# then one branch per domain, the busiest first, each rule without its
# host test, the 120-brand alternation behind the cheap URL test.

backend default {
	.host = "127.0.0.1";
	.port = "@PORT@";
}

sub vcl_recv {
	# Tracking parameters, whatever the site.
	if (req.url ~ "utm_") {
		set req.url = regsuball(req.url, "&utm_[a-z]+=[^&]*", "");
		set req.url = regsuball(req.url, "\?utm_[a-z]+=[^&]*&?", "?");
		set req.url = regsub(req.url, "\?$", "");
	}
	if (req.http.host == "www.example.com") {
		if (req.url ~ "^/old/") {
			set req.url = regsub(req.url, "^/old/", "/new/");
		}
		if (req.url ~ "^/old/") {
			set req.url = regsub(req.url, "^/old/", "/new/");
		}
		if (req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1" &&
		    req.http.User-Agent ~ "(Acer|Alcatel|Amoi|Amazon|Archos|Asus|Audiovox|BenQ|BlackBerry|Bird|Bluboo|Casio|Cubot|Coolpad|Cricket|Danger|Dell|Docomo|Doro|Ericsson|Fairphone|Flyme|Fujitsu|Garmin|Gigabyte|Gionee|Google|Haier|Handspring|Hisense|Honor|HTC|Huawei|iBall|Infinix|InFocus|Intex|iPhone|iPod|iPad|Itel|Jolla|Karbonn|Kyocera|Lava|Lenovo|LG|Maxwest|Meizu|Micromax|Microsoft|Mitsubishi|Motorola|NEC|Nokia|Nothing|OnePlus|Oppo|Orange|Palm|Panasonic|Pantech|Philips|Plum|Poco|Prestigio|Qtek|Razer|Realme|Sagem|SAGEM|Samsung|Sanyo|Sendo|Sharp|Siemens|SonyEricsson|Sony|Spice|Symbian|T-Mobile|TCL|Tecno|Telit|Toshiba|Ulefone|Umidigi|Vertu|Vivo|Vodafone|Wiko|Xiaomi|Xolo|Yezz|ZTE|Zopo|WindowsPhone|OperaMini|OperaMobi|IEMobile|Fennec|Minimo|NetFront|UP\.Browser|UP\.Link|Obigo|Teleca|Polaris|MIDP|CLDC|J2ME|WAP|Kindle|Silk|Playbook|BB10|webOS|Tizen|KaiOS|Bada)") {
			return (synth(750, "https://m.example.com" + req.url));
		}
	} elsif (req.http.host == "media.example.com") {
		if (req.url ~ "^/(en|fr)/") {
			set req.url = regsub(req.url, "^/(en|fr)/", "/");
		}
		if (req.url ~ "^/(en|fr)/") {
			set req.url = regsub(req.url, "^/(en|fr)/", "/");
		}
		if (req.url ~ "\.html\?") {
			set req.url = regsub(req.url, "\?.*$", "");
		}
	} elsif (req.http.host == "www.example.net") {
		if (req.url ~ "^/news/[0-9]+") {
			set req.url = regsub(req.url, "^/news/([0-9]+)-.*", "/news/\1");
		}
		if (req.url ~ "^/news/[0-9]+") {
			set req.url = regsub(req.url, "^/news/([0-9]+)-.*", "/news/\1");
		}
		if (req.url ~ "^/news/[0-9]+") {
			set req.url = regsub(req.url, "^/news/([0-9]+)-.*", "/news/\1");
		}
		if (req.url ~ "sessionid=") {
			set req.url = regsub(req.url, "[?&]sessionid=[^&]*", "");
		}
		if (req.url ~ "\?ref=") {
			set req.url = regsub(req.url, "\?ref=[^&]*&?", "?");
		}
		if (req.url ~ "^/feed") {
			set req.url = regsub(req.url, "^/feed/?$", "/rss.xml");
		}
		if (req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1" &&
		    req.http.User-Agent ~ "(Acer|Alcatel|Amoi|Amazon|Archos|Asus|Audiovox|BenQ|BlackBerry|Bird|Bluboo|Casio|Cubot|Coolpad|Cricket|Danger|Dell|Docomo|Doro|Ericsson|Fairphone|Flyme|Fujitsu|Garmin|Gigabyte|Gionee|Google|Haier|Handspring|Hisense|Honor|HTC|Huawei|iBall|Infinix|InFocus|Intex|iPhone|iPod|iPad|Itel|Jolla|Karbonn|Kyocera|Lava|Lenovo|LG|Maxwest|Meizu|Micromax|Microsoft|Mitsubishi|Motorola|NEC|Nokia|Nothing|OnePlus|Oppo|Orange|Palm|Panasonic|Pantech|Philips|Plum|Poco|Prestigio|Qtek|Razer|Realme|Sagem|SAGEM|Samsung|Sanyo|Sendo|Sharp|Siemens|SonyEricsson|Sony|Spice|Symbian|T-Mobile|TCL|Tecno|Telit|Toshiba|Ulefone|Umidigi|Vertu|Vivo|Vodafone|Wiko|Xiaomi|Xolo|Yezz|ZTE|Zopo|WindowsPhone|OperaMini|OperaMobi|IEMobile|Fennec|Minimo|NetFront|UP\.Browser|UP\.Link|Obigo|Teleca|Polaris|MIDP|CLDC|J2ME|WAP|Kindle|Silk|Playbook|BB10|webOS|Tizen|KaiOS|Bada)") {
			return (synth(750, "https://m.example.com" + req.url));
		}
	} elsif (req.http.host == "shop.example.com") {
		if (req.url ~ "^/index\.php") {
			set req.url = regsub(req.url, "^/index\.php", "/");
		}
		if (req.url ~ "^/index\.php") {
			set req.url = regsub(req.url, "^/index\.php", "/");
		}
		if (req.url ~ "^/index\.php") {
			set req.url = regsub(req.url, "^/index\.php", "/");
		}
		if (req.url ~ "/amp/?$") {
			set req.url = regsub(req.url, "/amp/?$", "/");
		}
		if (req.url ~ "&ref=") {
			set req.url = regsub(req.url, "&ref=[^&]+", "");
		}
		if (req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1" &&
		    req.http.User-Agent ~ "(iPhone|Android|BlackBerry|Opera Mini|IEMobile)") {
			return (synth(750, "https://m.example.com" + req.url));
		}
	} elsif (req.http.host == "blog.example.com") {
		if (req.url ~ "sessionid=") {
			set req.url = regsub(req.url, "[?&]sessionid=[^&]*", "");
		}
		if (req.url ~ "sessionid=") {
			set req.url = regsub(req.url, "[?&]sessionid=[^&]*", "");
		}
		if (req.url ~ "^/old/") {
			set req.url = regsub(req.url, "^/old/", "/new/");
		}
		if (req.url ~ "^/(en|fr)/") {
			set req.url = regsub(req.url, "^/(en|fr)/", "/");
		}
		if (req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1" &&
		    req.http.User-Agent ~ "(iPhone|Android|BlackBerry|Opera Mini|IEMobile)") {
			return (synth(750, "https://m.example.com" + req.url));
		}
	} elsif (req.http.host == "m.example.com") {
		if (req.url ~ "/amp/?$") {
			set req.url = regsub(req.url, "/amp/?$", "/");
		}
		if (req.url ~ "/amp/?$") {
			set req.url = regsub(req.url, "/amp/?$", "/");
		}
	} elsif (req.http.host == "api.example.com") {
		if (req.url ~ "\?ref=") {
			set req.url = regsub(req.url, "\?ref=[^&]*&?", "?");
		}
		if (req.url ~ "\?ref=") {
			set req.url = regsub(req.url, "\?ref=[^&]*&?", "?");
		}
		if (req.url ~ "^/v[0-9]+/private") {
			return (pass);
		}
	} elsif (req.http.host == "www.example.org") {
		if (req.url ~ "^/feed") {
			set req.url = regsub(req.url, "^/feed/?$", "/rss.xml");
		}
		if (req.url ~ "^/feed") {
			set req.url = regsub(req.url, "^/feed/?$", "/rss.xml");
		}
		if (req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1" &&
		    req.http.User-Agent ~ "(iPad|Kindle|Silk|Playbook|Tablet)") {
			return (synth(750, "https://m.example.com" + req.url));
		}
	} else {
		# The obscure domains.
		if (req.http.host == "staging.example.com") {
			if (req.url ~ "\.html\?") {
			set req.url = regsub(req.url, "\?.*$", "");
		}
			if (req.url ~ "\.html\?") {
			set req.url = regsub(req.url, "\?.*$", "");
		}
			return (pass);
		}
		if (req.http.host == "staging.example.net") {
			if (req.url ~ "&ref=") {
			set req.url = regsub(req.url, "&ref=[^&]+", "");
		}
			if (req.url ~ "&ref=") {
			set req.url = regsub(req.url, "&ref=[^&]+", "");
		}
			return (pass);
		}
	}
	# Cookies do not vary these sites' pages.
	unset req.http.Cookie;
}

sub vcl_synth {
	if (resp.status == 750) {
		set resp.http.Location = resp.reason;
		set resp.status = 302;
		set resp.reason = "Found";
		return (deliver);
	}
}

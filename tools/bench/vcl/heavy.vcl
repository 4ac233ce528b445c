vcl 4.1;
#
# heavy.vcl -- tools/bench/vcl.sh: a vcl_recv in the style seed 000
# describes (per-domain URL clean-ups each guarded by a host test,
# mobile redirects whose User-Agent alternation names 120 brands, utm_
# stripping), written in the order such files grow, NOT arranged for
# speed.  rearranged.vcl is the same policy arranged by hand.

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
	# Per-site clean-ups.
	if (req.http.host == "www.example.com" && req.url ~ "^/old/") {
		set req.url = regsub(req.url, "^/old/", "/new/");
	}
	if (req.http.host == "media.example.com" && req.url ~ "^/(en|fr)/") {
		set req.url = regsub(req.url, "^/(en|fr)/", "/");
	}
	if (req.http.host == "www.example.net" && req.url ~ "^/news/[0-9]+") {
		set req.url = regsub(req.url, "^/news/([0-9]+)-.*", "/news/\1");
	}
	if (req.http.host == "shop.example.com" && req.url ~ "^/index\.php") {
		set req.url = regsub(req.url, "^/index\.php", "/");
	}
	if (req.http.host == "blog.example.com" && req.url ~ "sessionid=") {
		set req.url = regsub(req.url, "[?&]sessionid=[^&]*", "");
	}
	if (req.http.host == "m.example.com" && req.url ~ "/amp/?$") {
		set req.url = regsub(req.url, "/amp/?$", "/");
	}
	if (req.http.host == "api.example.com" && req.url ~ "\?ref=") {
		set req.url = regsub(req.url, "\?ref=[^&]*&?", "?");
	}
	if (req.http.host == "www.example.org" && req.url ~ "^/feed") {
		set req.url = regsub(req.url, "^/feed/?$", "/rss.xml");
	}
	if (req.http.host == "staging.example.com" && req.url ~ "\.html\?") {
		set req.url = regsub(req.url, "\?.*$", "");
	}
	if (req.http.host == "staging.example.net" && req.url ~ "&ref=") {
		set req.url = regsub(req.url, "&ref=[^&]+", "");
	}
	if (req.http.host == "www.example.com" && req.url ~ "^/old/") {
		set req.url = regsub(req.url, "^/old/", "/new/");
	}
	if (req.http.host == "media.example.com" && req.url ~ "^/(en|fr)/") {
		set req.url = regsub(req.url, "^/(en|fr)/", "/");
	}
	if (req.http.host == "www.example.net" && req.url ~ "^/news/[0-9]+") {
		set req.url = regsub(req.url, "^/news/([0-9]+)-.*", "/news/\1");
	}
	if (req.http.host == "shop.example.com" && req.url ~ "^/index\.php") {
		set req.url = regsub(req.url, "^/index\.php", "/");
	}
	if (req.http.host == "blog.example.com" && req.url ~ "sessionid=") {
		set req.url = regsub(req.url, "[?&]sessionid=[^&]*", "");
	}
	if (req.http.host == "m.example.com" && req.url ~ "/amp/?$") {
		set req.url = regsub(req.url, "/amp/?$", "/");
	}
	if (req.http.host == "api.example.com" && req.url ~ "\?ref=") {
		set req.url = regsub(req.url, "\?ref=[^&]*&?", "?");
	}
	if (req.http.host == "www.example.org" && req.url ~ "^/feed") {
		set req.url = regsub(req.url, "^/feed/?$", "/rss.xml");
	}
	if (req.http.host == "staging.example.com" && req.url ~ "\.html\?") {
		set req.url = regsub(req.url, "\?.*$", "");
	}
	if (req.http.host == "staging.example.net" && req.url ~ "&ref=") {
		set req.url = regsub(req.url, "&ref=[^&]+", "");
	}
	if (req.http.host == "blog.example.com" && req.url ~ "^/old/") {
		set req.url = regsub(req.url, "^/old/", "/new/");
	}
	if (req.http.host == "blog.example.com" && req.url ~ "^/(en|fr)/") {
		set req.url = regsub(req.url, "^/(en|fr)/", "/");
	}
	if (req.http.host == "www.example.net" && req.url ~ "^/news/[0-9]+") {
		set req.url = regsub(req.url, "^/news/([0-9]+)-.*", "/news/\1");
	}
	if (req.http.host == "shop.example.com" && req.url ~ "^/index\.php") {
		set req.url = regsub(req.url, "^/index\.php", "/");
	}
	if (req.http.host == "www.example.net" && req.url ~ "sessionid=") {
		set req.url = regsub(req.url, "[?&]sessionid=[^&]*", "");
	}
	if (req.http.host == "shop.example.com" && req.url ~ "/amp/?$") {
		set req.url = regsub(req.url, "/amp/?$", "/");
	}
	if (req.http.host == "www.example.net" && req.url ~ "\?ref=") {
		set req.url = regsub(req.url, "\?ref=[^&]*&?", "?");
	}
	if (req.http.host == "www.example.net" && req.url ~ "^/feed") {
		set req.url = regsub(req.url, "^/feed/?$", "/rss.xml");
	}
	if (req.http.host == "media.example.com" && req.url ~ "\.html\?") {
		set req.url = regsub(req.url, "\?.*$", "");
	}
	if (req.http.host == "shop.example.com" && req.url ~ "&ref=") {
		set req.url = regsub(req.url, "&ref=[^&]+", "");
	}
	# Sites not cached.
	if (req.http.host == "staging.example.com") {
		return (pass);
	}
	if (req.http.host == "staging.example.net") {
		return (pass);
	}
	if (req.http.host == "api.example.com" && req.url ~ "^/v[0-9]+/private") {
		return (pass);
	}
	# Mobile redirect 1
	if (req.http.host == "www.example.com" && req.http.User-Agent ~ "(Acer|Alcatel|Amoi|Amazon|Archos|Asus|Audiovox|BenQ|BlackBerry|Bird|Bluboo|Casio|Cubot|Coolpad|Cricket|Danger|Dell|Docomo|Doro|Ericsson|Fairphone|Flyme|Fujitsu|Garmin|Gigabyte|Gionee|Google|Haier|Handspring|Hisense|Honor|HTC|Huawei|iBall|Infinix|InFocus|Intex|iPhone|iPod|iPad|Itel|Jolla|Karbonn|Kyocera|Lava|Lenovo|LG|Maxwest|Meizu|Micromax|Microsoft|Mitsubishi|Motorola|NEC|Nokia|Nothing|OnePlus|Oppo|Orange|Palm|Panasonic|Pantech|Philips|Plum|Poco|Prestigio|Qtek|Razer|Realme|Sagem|SAGEM|Samsung|Sanyo|Sendo|Sharp|Siemens|SonyEricsson|Sony|Spice|Symbian|T-Mobile|TCL|Tecno|Telit|Toshiba|Ulefone|Umidigi|Vertu|Vivo|Vodafone|Wiko|Xiaomi|Xolo|Yezz|ZTE|Zopo|WindowsPhone|OperaMini|OperaMobi|IEMobile|Fennec|Minimo|NetFront|UP\.Browser|UP\.Link|Obigo|Teleca|Polaris|MIDP|CLDC|J2ME|WAP|Kindle|Silk|Playbook|BB10|webOS|Tizen|KaiOS|Bada)" &&
	    req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1") {
		return (synth(750, "https://m.example.com" + req.url));
	}
	# Mobile redirect 2
	if (req.http.host == "www.example.net" && req.http.User-Agent ~ "(Acer|Alcatel|Amoi|Amazon|Archos|Asus|Audiovox|BenQ|BlackBerry|Bird|Bluboo|Casio|Cubot|Coolpad|Cricket|Danger|Dell|Docomo|Doro|Ericsson|Fairphone|Flyme|Fujitsu|Garmin|Gigabyte|Gionee|Google|Haier|Handspring|Hisense|Honor|HTC|Huawei|iBall|Infinix|InFocus|Intex|iPhone|iPod|iPad|Itel|Jolla|Karbonn|Kyocera|Lava|Lenovo|LG|Maxwest|Meizu|Micromax|Microsoft|Mitsubishi|Motorola|NEC|Nokia|Nothing|OnePlus|Oppo|Orange|Palm|Panasonic|Pantech|Philips|Plum|Poco|Prestigio|Qtek|Razer|Realme|Sagem|SAGEM|Samsung|Sanyo|Sendo|Sharp|Siemens|SonyEricsson|Sony|Spice|Symbian|T-Mobile|TCL|Tecno|Telit|Toshiba|Ulefone|Umidigi|Vertu|Vivo|Vodafone|Wiko|Xiaomi|Xolo|Yezz|ZTE|Zopo|WindowsPhone|OperaMini|OperaMobi|IEMobile|Fennec|Minimo|NetFront|UP\.Browser|UP\.Link|Obigo|Teleca|Polaris|MIDP|CLDC|J2ME|WAP|Kindle|Silk|Playbook|BB10|webOS|Tizen|KaiOS|Bada)" &&
	    req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1") {
		return (synth(750, "https://m.example.com" + req.url));
	}
	# Mobile redirect 3
	if (req.http.host == "shop.example.com" && req.http.User-Agent ~ "(iPhone|Android|BlackBerry|Opera Mini|IEMobile)" &&
	    req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1") {
		return (synth(750, "https://m.example.com" + req.url));
	}
	# Mobile redirect 4
	if (req.http.host == "blog.example.com" && req.http.User-Agent ~ "(iPhone|Android|BlackBerry|Opera Mini|IEMobile)" &&
	    req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1") {
		return (synth(750, "https://m.example.com" + req.url));
	}
	# Mobile redirect 5
	if (req.http.host == "www.example.org" && req.http.User-Agent ~ "(iPad|Kindle|Silk|Playbook|Tablet)" &&
	    req.url !~ "\.(jpg|png|gif|css|js)$" && req.http.Cookie !~ "desktop=1") {
		return (synth(750, "https://m.example.com" + req.url));
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

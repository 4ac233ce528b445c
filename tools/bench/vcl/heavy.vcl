vcl 4.1;
#
# heavy.vcl -- tools/bench/vcl.sh: a vcl_recv in the style seed 000 describes,
# grown rule by rule: every rule behind its own host test, NOT arranged
# for speed (rearranged.vcl is the same policy arranged by hand).
# Written by gen.py from its list of rules; edit that, not this.

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
	# Clients that send no Host get the main site.
	if (!req.http.host) {
		set req.http.host = "www.example.com";
	}
	# One spelling of Accept-Encoding.
	if (req.http.Accept-Encoding) {
		if (req.http.Accept-Encoding ~ "gzip") {
			set req.http.Accept-Encoding = "gzip";
		} else {
			unset req.http.Accept-Encoding;
		}
	}
	# Per-site clean-ups, in the order they were asked for.
	# Moved section, 2019 redesign.
	# Ticket #1041, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "^/old/") {
		set req.url = regsub(req.url, "^/old/", "/new/");
		set req.http.X-Rewritten = "yes";
	}

	# Language prefixes serve the same images.
	# Ticket #1048, media.example.com.
	if (req.http.host == "media.example.com" && req.url ~ "^/(en|fr|de|es)/") {
		set req.url = regsub(req.url, "^/(en|fr|de|es)/", "/");
		set req.http.X-Rewritten = "yes";
	}

	# Article slugs are decoration.
	# Ticket #1055, www.example.net.
	if (req.http.host == "www.example.net" && req.url ~ "^/news/[0-9]+-") {
		set req.url = regsub(req.url, "^/news/([0-9]+)-[^?]*", "/news/\1");
		set req.http.X-Rewritten = "yes";
	}

	# The old PHP front controller.
	# Ticket #1062, shop.example.com.
	if (req.http.host == "shop.example.com" && req.url ~ "^/index\.php") {
		set req.url = regsub(req.url, "^/index\.php\??", "/?");
		set req.url = regsub(req.url, "\?$", "");
		set req.http.X-Rewritten = "yes";
	}

	# Session ids from the old CMS.
	# Ticket #1069, blog.example.com.
	if (req.http.host == "blog.example.com" && req.url ~ "sessionid=") {
		set req.url = regsuball(req.url, "[?&]sessionid=[^&]*", "");
		set req.http.X-Rewritten = "yes";
	}

	# Referrer tags from the social buttons.
	# Ticket #1076, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "[?&]ref=") {
		set req.url = regsuball(req.url, "[?&]ref=[^&]*", "");
		set req.http.X-Rewritten = "yes";
	}

	# AMP pages are the mobile pages.
	# Ticket #1083, m.example.com.
	if (req.http.host == "m.example.com" && req.url ~ "/amp/?$") {
		set req.url = regsub(req.url, "/amp/?$", "/");
		set req.http.X-Rewritten = "yes";
	}

	# Clients add a cache buster.
	# Ticket #1090, api.example.com.
	if (req.http.host == "api.example.com" && req.url ~ "[?&]_=[0-9]+") {
		set req.url = regsub(req.url, "[?&]_=[0-9]+", "");
		set req.http.X-Rewritten = "yes";
	}

	# The feed moved.
	# Ticket #1097, www.example.org.
	if (req.http.host == "www.example.org" && req.url ~ "^/feed/?$") {
		set req.url = "/rss.xml";
		set req.http.X-Rewritten = "yes";
	}

	# Search pages: one query parameter only.
	# Ticket #1104, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "^/search\?") {
		set req.url = regsub(req.url, "^/search\?.*(q=[^&]*).*$", "/search?\1");
		set req.http.X-Rewritten = "yes";
	}

	# Thumbnails share one size.
	# Ticket #1111, media.example.com.
	if (req.http.host == "media.example.com" && req.url ~ "_thumb[0-9]+\.jpg$") {
		set req.url = regsub(req.url, "_thumb[0-9]+\.jpg$", "_thumb.jpg");
		set req.http.X-Rewritten = "yes";
	}

	# Print views are the page.
	# Ticket #1118, www.example.net.
	if (req.http.host == "www.example.net" && req.url ~ "[?&]print=1") {
		set req.url = regsub(req.url, "[?&]print=1", "");
		set req.http.X-Rewritten = "yes";
	}

	# Trailing index.html.
	# Ticket #1125, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "/index\.html?$") {
		set req.url = regsub(req.url, "index\.html?$", "");
		set req.http.X-Rewritten = "yes";
	}

	# Sort order in category URLs.
	# Ticket #1132, shop.example.com.
	if (req.http.host == "shop.example.com" && req.url ~ "^/category/.*[?&]sort=") {
		set req.url = regsub(req.url, "[?&]sort=[^&]*", "");
		set req.http.X-Rewritten = "yes";
	}

	# Old date paths.
	# Ticket #1139, blog.example.com.
	if (req.http.host == "blog.example.com" && req.url ~ "^/[0-9]{4}/[0-9]{2}/") {
		set req.url = regsub(req.url, "^/([0-9]{4})/[0-9]{2}/", "/\1/");
		set req.http.X-Rewritten = "yes";
	}

	# Upper-case section names from print ads.
	# Ticket #1146, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "^/(News|Sport|Weather)/") {
		set req.url = regsub(req.url, "^/News/", "/news/");
		set req.url = regsub(req.url, "^/Sport/", "/sport/");
		set req.url = regsub(req.url, "^/Weather/", "/weather/");
		set req.http.X-Rewritten = "yes";
	}

	# Version suffixes added by the CMS.
	# Ticket #1153, media.example.com.
	if (req.http.host == "media.example.com" && req.url ~ "\.(css|js)\?v=[0-9]+$") {
		set req.url = regsub(req.url, "\?v=[0-9]+$", "");
		set req.http.X-Rewritten = "yes";
	}

	# The about pages moved.
	# Ticket #1160, www.example.org.
	if (req.http.host == "www.example.org" && req.url ~ "^/(en|fr)/about") {
		set req.url = regsub(req.url, "^/(en|fr)/about[0-9]*", "/about");
		set req.http.X-Rewritten = "yes";
	}

	# Double slashes from a broken template.
	# Ticket #1167, www.example.net.
	if (req.http.host == "www.example.net" && req.url ~ "//") {
		set req.url = regsuball(req.url, "//+", "/");
		set req.http.X-Rewritten = "yes";
	}

	# Article pagination: page 1 is the article.
	# Ticket #1174, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "\.html\?page=1$") {
		set req.url = regsub(req.url, "\?page=1$", "");
		set req.http.X-Rewritten = "yes";
	}

	# Affiliate codes.
	# Ticket #1181, shop.example.com.
	if (req.http.host == "shop.example.com" && req.url ~ "[?&]aff=[A-Za-z0-9]+") {
		set req.url = regsub(req.url, "[?&]aff=[A-Za-z0-9]+", "");
		set req.http.X-Rewritten = "yes";
	}

	# Version 1 is version 2 now.
	# Ticket #1188, api.example.com.
	if (req.http.host == "api.example.com" && req.url ~ "^/v1/public/") {
		set req.url = regsub(req.url, "^/v1/", "/v2/");
		set req.http.X-Rewritten = "yes";
	}

	# Tag pages: lower case.
	# Ticket #1195, blog.example.com.
	if (req.http.host == "blog.example.com" && req.url ~ "^/tag/[A-Z]") {
		set req.url = regsub(req.url, "^/tag/", "/tags/");
		set req.http.X-Rewritten = "yes";
	}

	# Desktop paths on the mobile site.
	# Ticket #1202, m.example.com.
	if (req.http.host == "m.example.com" && req.url ~ "^/section/[0-9]+/$") {
		set req.url = regsub(req.url, "/$", "");
		set req.http.X-Rewritten = "yes";
	}

	# Image paths from the old CDN.
	# Ticket #1209, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "^/img/photo[0-9]+\.jpeg$") {
		set req.url = regsub(req.url, "\.jpeg$", ".jpg");
		set req.http.X-Rewritten = "yes";
	}

	# Staging: query strings from the QA tool.
	# Ticket #1216, staging.example.com.
	if (req.http.host == "staging.example.com" && req.url ~ "[?&]qa=[0-9]+") {
		set req.url = regsub(req.url, "[?&]qa=[0-9]+", "");
		set req.http.X-Rewritten = "yes";
	}

	# Staging: referrer tags.
	# Ticket #1223, staging.example.net.
	if (req.http.host == "staging.example.net" && req.url ~ "&ref=") {
		set req.url = regsub(req.url, "&ref=[^&]+", "");
		set req.http.X-Rewritten = "yes";
	}

	# Fragment identifiers sent by a broken client.
	# Ticket #1230, media.example.com.
	if (req.http.host == "media.example.com" && req.url ~ "#") {
		set req.url = regsub(req.url, "#.*$", "");
		set req.http.X-Rewritten = "yes";
	}

	# The feed moved.
	# Ticket #1237, www.example.net.
	if (req.http.host == "www.example.net" && req.url ~ "^/feed/?$") {
		set req.url = "/rss.xml";
		set req.http.X-Rewritten = "yes";
	}

	# Empty query strings.
	# Ticket #1244, www.example.com.
	if (req.http.host == "www.example.com" && req.url ~ "\?$") {
		set req.url = regsub(req.url, "\?$", "");
		set req.http.X-Rewritten = "yes";
	}

	# Cookies, site by site.
	# www.example.com: analytics cookies.
	if (req.http.host == "www.example.com" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# media.example.com: analytics cookies.
	if (req.http.host == "media.example.com" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# www.example.net: analytics cookies.
	if (req.http.host == "www.example.net" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# shop.example.com: analytics cookies.
	if (req.http.host == "shop.example.com" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# blog.example.com: analytics cookies.
	if (req.http.host == "blog.example.com" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# m.example.com: analytics cookies.
	if (req.http.host == "m.example.com" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# api.example.com: analytics cookies.
	if (req.http.host == "api.example.com" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# www.example.org: analytics cookies.
	if (req.http.host == "www.example.org" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# staging.example.com: analytics cookies.
	if (req.http.host == "staging.example.com" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# staging.example.net: analytics cookies.
	if (req.http.host == "staging.example.net" && req.http.Cookie) {
		set req.http.Cookie = regsuball(req.http.Cookie,
		    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");
		if (req.http.Cookie ~ "^[; ]*$") {
			unset req.http.Cookie;
		}
	}
	# Sites and paths not cached.
	# Staging sites are never cached.
	if (req.http.host == "staging.example.com") {
		return (pass);
	}
	# Staging sites are never cached.
	if (req.http.host == "staging.example.net") {
		return (pass);
	}
	# Private API calls are per user.
	if (req.http.host == "api.example.com" && req.url ~ "^/v[0-9]+/private") {
		return (pass);
	}
	# Mobile redirects.
	# The main site's mobile edition.
	if (req.http.host == "www.example.com" &&
	    req.http.User-Agent ~ "Acer|Alcatel|Amoi|Amazon|Archos|Asus|Audiovox|BenQ|BlackBerry|Bird|Bluboo|Casio|Cubot|Coolpad|Cricket|Danger|Dell|Docomo|Doro|Ericsson|Fairphone|Fly|Fujitsu|Garmin|Gionee|Gigabyte|Google|Haier|Hisense|Honor|HTC|Huawei|iBall|Infinix|Intex|Itel|Jiayu|Karbonn|Kyocera|Lava|Leagoo|LeEco|Lenovo|LG|Maxwest|Meizu|Micromax|Microsoft|Mitsubishi|Motorola|MOT-|Nec|NEC|Nexian|Nokia|NOKIA|Nothing|Obi|OnePlus|Oppo|OPPO|Orange|Palm|Panasonic|Pantech|Philips|Plum|Polaroid|Posh|Prestigio|Qtek|Realme|Sagem|SAGEM|Samsung|SAMSUNG|SM-|Sanyo|Sendo|Sharp|SHARP|Siemens|SIE-|Sonim|Sony|SonyEricsson|Spice|Symbian|SymbOS|Tecno|Telit|Thomson|T-Mobile|Toshiba|TCL|Ulefone|Umidigi|Verykool|Vertu|Vivo|vivo|Vodafone|Wiko|Xiaomi|Redmi|XOLO|Yezz|Yota|ZTE|Zopo|Zuk|Pixel|Nexus|Kindle|Silk|Playbook|PlayStation Vita|Nintendo|Opera Mini|Opera Mobi|IEMobile|Windows Phone|webOS" &&
	    req.url !~ "\.(jpg|jpeg|png|gif|css|js|ico)$" && req.http.Cookie !~ "desktop=1") {
		set req.http.X-Device = "mobile";
		return (synth(750, "https://m.example.com" + req.url));
	}

	# The sister site's mobile edition.
	if (req.http.host == "www.example.net" &&
	    req.http.User-Agent ~ "Acer|Alcatel|Amoi|Amazon|Archos|Asus|Audiovox|BenQ|BlackBerry|Bird|Bluboo|Casio|Cubot|Coolpad|Cricket|Danger|Dell|Docomo|Doro|Ericsson|Fairphone|Fly|Fujitsu|Garmin|Gionee|Gigabyte|Google|Haier|Hisense|Honor|HTC|Huawei|iBall|Infinix|Intex|Itel|Jiayu|Karbonn|Kyocera|Lava|Leagoo|LeEco|Lenovo|LG|Maxwest|Meizu|Micromax|Microsoft|Mitsubishi|Motorola|MOT-|Nec|NEC|Nexian|Nokia|NOKIA|Nothing|Obi|OnePlus|Oppo|OPPO|Orange|Palm|Panasonic|Pantech|Philips|Plum|Polaroid|Posh|Prestigio|Qtek|Realme|Sagem|SAGEM|Samsung|SAMSUNG|SM-|Sanyo|Sendo|Sharp|SHARP|Siemens|SIE-|Sonim|Sony|SonyEricsson|Spice|Symbian|SymbOS|Tecno|Telit|Thomson|T-Mobile|Toshiba|TCL|Ulefone|Umidigi|Verykool|Vertu|Vivo|vivo|Vodafone|Wiko|Xiaomi|Redmi|XOLO|Yezz|Yota|ZTE|Zopo|Zuk|Pixel|Nexus|Kindle|Silk|Playbook|PlayStation Vita|Nintendo|Opera Mini|Opera Mobi|IEMobile|Windows Phone|webOS" &&
	    req.url !~ "\.(jpg|jpeg|png|gif|css|js|ico)$" && req.http.Cookie !~ "desktop=1") {
		set req.http.X-Device = "mobile";
		return (synth(750, "https://m.example.net" + req.url));
	}

	# The shop's app landing page.
	if (req.http.host == "shop.example.com" &&
	    req.http.User-Agent ~ "(iPhone|iPod|Android|BlackBerry|Opera Mini|IEMobile)" &&
	    req.url !~ "\.(jpg|jpeg|png|gif|css|js|ico)$" && req.http.Cookie !~ "desktop=1") {
		set req.http.X-Device = "mobile";
		return (synth(750, "https://shop.example.com/app" + req.url));
	}

	# The blog's mobile theme.
	if (req.http.host == "blog.example.com" &&
	    req.http.User-Agent ~ "(iPhone|Android.*Mobile|Windows Phone|Opera Mini)" &&
	    req.url !~ "\.(jpg|jpeg|png|gif|css|js|ico)$" && req.http.Cookie !~ "desktop=1") {
		set req.http.X-Device = "mobile";
		return (synth(750, "https://blog.example.com/m" + req.url));
	}

	# Tablets get the tablet edition.
	if (req.http.host == "www.example.org" &&
	    req.http.User-Agent ~ "(iPad|Kindle|Silk|Playbook|Tablet|SM-T[0-9]+)" &&
	    req.url !~ "\.(jpg|jpeg|png|gif|css|js|ico)$" && req.http.Cookie !~ "desktop=1") {
		set req.http.X-Device = "mobile";
		return (synth(750, "https://tablet.example.org" + req.url));
	}

	# Feature phones get small images.
	if (req.http.host == "media.example.com" &&
	    req.http.User-Agent ~ "(J2ME|MIDP|Nokia|SymbOS|Opera Mini|UP\.Browser)" &&
	    req.url !~ "\.(jpg|jpeg|png|gif|css|js|ico)$" && req.http.Cookie !~ "desktop=1") {
		set req.http.X-Device = "mobile";
		return (synth(750, "https://media.example.com/small" + req.url));
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

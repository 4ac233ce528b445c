#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
#
# gen.py -- writes heavy.vcl and rearranged.vcl from one list of rules,
# so that the two keep the same policy when a rule is added: heavy.vcl in
# the order such files grow (every rule behind its own host test, the
# domains interleaved), rearranged.vcl arranged by hand the way seed
# 000's author did (the generic tests first, one branch per domain with
# the busiest first, each rule without its host test, the brand
# alternations behind the cheap tests).  Rules of one domain keep their
# order in both, and no rule changes req.http.host, so the two files do
# the same thing to every request.  Run: python3 gen.py (in this folder).

import os

BUSY = ["www.example.com", "media.example.com", "www.example.net",
    "shop.example.com", "blog.example.com", "m.example.com",
    "api.example.com", "www.example.org", "staging.example.com",
    "staging.example.net"]

# (host, why, test on req.url, [statements])
RULES = [
 ("www.example.com", "Moved section, 2019 redesign.", '"^/old/"',
  ['set req.url = regsub(req.url, "^/old/", "/new/");']),
 ("media.example.com", "Language prefixes serve the same images.",
  '"^/(en|fr|de|es)/"',
  ['set req.url = regsub(req.url, "^/(en|fr|de|es)/", "/");']),
 ("www.example.net", "Article slugs are decoration.", '"^/news/[0-9]+-"',
  ['set req.url = regsub(req.url, "^/news/([0-9]+)-[^?]*", "/news/\\1");']),
 ("shop.example.com", "The old PHP front controller.", '"^/index\\.php"',
  ['set req.url = regsub(req.url, "^/index\\.php\\??", "/?");',
   'set req.url = regsub(req.url, "\\?$", "");']),
 ("blog.example.com", "Session ids from the old CMS.", '"sessionid="',
  ['set req.url = regsuball(req.url, "[?&]sessionid=[^&]*", "");']),
 ("www.example.com", "Referrer tags from the social buttons.", '"[?&]ref="',
  ['set req.url = regsuball(req.url, "[?&]ref=[^&]*", "");']),
 ("m.example.com", "AMP pages are the mobile pages.", '"/amp/?$"',
  ['set req.url = regsub(req.url, "/amp/?$", "/");']),
 ("api.example.com", "Clients add a cache buster.", '"[?&]_=[0-9]+"',
  ['set req.url = regsub(req.url, "[?&]_=[0-9]+", "");']),
 ("www.example.org", "The feed moved.", '"^/feed/?$"',
  ['set req.url = "/rss.xml";']),
 ("www.example.com", "Search pages: one query parameter only.",
  '"^/search\\?"',
  ['set req.url = regsub(req.url, "^/search\\?.*(q=[^&]*).*$", "/search?\\1");']),
 ("media.example.com", "Thumbnails share one size.", '"_thumb[0-9]+\\.jpg$"',
  ['set req.url = regsub(req.url, "_thumb[0-9]+\\.jpg$", "_thumb.jpg");']),
 ("www.example.net", "Print views are the page.", '"[?&]print=1"',
  ['set req.url = regsub(req.url, "[?&]print=1", "");']),
 ("www.example.com", "Trailing index.html.", '"/index\\.html?$"',
  ['set req.url = regsub(req.url, "index\\.html?$", "");']),
 ("shop.example.com", "Sort order in category URLs.", '"^/category/.*[?&]sort="',
  ['set req.url = regsub(req.url, "[?&]sort=[^&]*", "");']),
 ("blog.example.com", "Old date paths.", '"^/[0-9]{4}/[0-9]{2}/"',
  ['set req.url = regsub(req.url, "^/([0-9]{4})/[0-9]{2}/", "/\\1/");']),
 ("www.example.com", "Upper-case section names from print ads.",
  '"^/(News|Sport|Weather)/"',
  ['set req.url = regsub(req.url, "^/News/", "/news/");',
   'set req.url = regsub(req.url, "^/Sport/", "/sport/");',
   'set req.url = regsub(req.url, "^/Weather/", "/weather/");']),
 ("media.example.com", "Version suffixes added by the CMS.",
  '"\\.(css|js)\\?v=[0-9]+$"',
  ['set req.url = regsub(req.url, "\\?v=[0-9]+$", "");']),
 ("www.example.org", "The about pages moved.", '"^/(en|fr)/about"',
  ['set req.url = regsub(req.url, "^/(en|fr)/about[0-9]*", "/about");']),
 ("www.example.net", "Double slashes from a broken template.", '"//"',
  ['set req.url = regsuball(req.url, "//+", "/");']),
 ("www.example.com", "Article pagination: page 1 is the article.",
  '"\\.html\\?page=1$"',
  ['set req.url = regsub(req.url, "\\?page=1$", "");']),
 ("shop.example.com", "Affiliate codes.", '"[?&]aff=[A-Za-z0-9]+"',
  ['set req.url = regsub(req.url, "[?&]aff=[A-Za-z0-9]+", "");']),
 ("api.example.com", "Version 1 is version 2 now.", '"^/v1/public/"',
  ['set req.url = regsub(req.url, "^/v1/", "/v2/");']),
 ("blog.example.com", "Tag pages: lower case.", '"^/tag/[A-Z]"',
  ['set req.url = regsub(req.url, "^/tag/", "/tags/");']),
 ("m.example.com", "Desktop paths on the mobile site.", '"^/section/[0-9]+/$"',
  ['set req.url = regsub(req.url, "/$", "");']),
 ("www.example.com", "Image paths from the old CDN.", '"^/img/photo[0-9]+\\.jpeg$"',
  ['set req.url = regsub(req.url, "\\.jpeg$", ".jpg");']),
 ("staging.example.com", "Staging: query strings from the QA tool.",
  '"[?&]qa=[0-9]+"',
  ['set req.url = regsub(req.url, "[?&]qa=[0-9]+", "");']),
 ("staging.example.net", "Staging: referrer tags.", '"&ref="',
  ['set req.url = regsub(req.url, "&ref=[^&]+", "");']),
 ("media.example.com", "Fragment identifiers sent by a broken client.",
  '"#"',
  ['set req.url = regsub(req.url, "#.*$", "");']),
 ("www.example.net", "The feed moved.", '"^/feed/?$"',
  ['set req.url = "/rss.xml";']),
 ("www.example.com", "Empty query strings.", '"\\?$"',
  ['set req.url = regsub(req.url, "\\?$", "");']),
]

PASS = [
 ("staging.example.com", "Staging sites are never cached.", None),
 ("staging.example.net", "Staging sites are never cached.", None),
 ("api.example.com", "Private API calls are per user.", '"^/v[0-9]+/private"'),
]

BRANDS = ("Acer|Alcatel|Amoi|Amazon|Archos|Asus|Audiovox|BenQ|BlackBerry|"
    "Bird|Bluboo|Casio|Cubot|Coolpad|Cricket|Danger|Dell|Docomo|Doro|"
    "Ericsson|Fairphone|Fly|Fujitsu|Garmin|Gionee|Gigabyte|Google|Haier|"
    "Hisense|Honor|HTC|Huawei|iBall|Infinix|Intex|Itel|Jiayu|Karbonn|"
    "Kyocera|Lava|Leagoo|LeEco|Lenovo|LG|Maxwest|Meizu|Micromax|"
    "Microsoft|Mitsubishi|Motorola|MOT-|Nec|NEC|Nexian|Nokia|NOKIA|"
    "Nothing|Obi|OnePlus|Oppo|OPPO|Orange|Palm|Panasonic|Pantech|"
    "Philips|Plum|Polaroid|Posh|Prestigio|Qtek|Realme|Sagem|SAGEM|"
    "Samsung|SAMSUNG|SM-|Sanyo|Sendo|Sharp|SHARP|Siemens|SIE-|Sonim|"
    "Sony|SonyEricsson|Spice|Symbian|SymbOS|Tecno|Telit|Thomson|T-Mobile|"
    "Toshiba|TCL|Ulefone|Umidigi|Verykool|Vertu|Vivo|vivo|Vodafone|"
    "Wiko|Xiaomi|Redmi|XOLO|Yezz|Yota|ZTE|Zopo|Zuk|Pixel|Nexus|"
    "Kindle|Silk|Playbook|PlayStation Vita|Nintendo|Opera Mini|"
    "Opera Mobi|IEMobile|Windows Phone|webOS")
assert len(BRANDS.split("|")) >= 120, len(BRANDS.split("|"))

NOTSTATIC = 'req.url !~ "\\.(jpg|jpeg|png|gif|css|js|ico)$"'
NOCOOKIE = 'req.http.Cookie !~ "desktop=1"'
# (host, why, User-Agent regex, target)
MOBILE = [
 ("www.example.com", "The main site's mobile edition.", BRANDS,
  "https://m.example.com"),
 ("www.example.net", "The sister site's mobile edition.", BRANDS,
  "https://m.example.net"),
 ("shop.example.com", "The shop's app landing page.",
  "(iPhone|iPod|Android|BlackBerry|Opera Mini|IEMobile)",
  "https://shop.example.com/app"),
 ("blog.example.com", "The blog's mobile theme.",
  "(iPhone|Android.*Mobile|Windows Phone|Opera Mini)",
  "https://blog.example.com/m"),
 ("www.example.org", "Tablets get the tablet edition.",
  "(iPad|Kindle|Silk|Playbook|Tablet|SM-T[0-9]+)",
  "https://tablet.example.org"),
 ("media.example.com", "Feature phones get small images.",
  "(J2ME|MIDP|Nokia|SymbOS|Opera Mini|UP\\.Browser)",
  "https://media.example.com/small"),
]

HEAD = """vcl 4.1;
#
# {name} -- tools/bench/vcl.sh: {what}
# Written by gen.py from its list of rules; edit that, not this.

backend default {{
	.host = "127.0.0.1";
	.port = "@PORT@";
}}

sub vcl_recv {{
	# Tracking parameters, whatever the site.
	if (req.url ~ "utm_") {{
		set req.url = regsuball(req.url, "&utm_[a-z]+=[^&]*", "");
		set req.url = regsuball(req.url, "\\?utm_[a-z]+=[^&]*&?", "?");
		set req.url = regsub(req.url, "\\?$", "");
	}}
	# Clients that send no Host get the main site.
	if (!req.http.host) {{
		set req.http.host = "www.example.com";
	}}
	# One spelling of Accept-Encoding.
	if (req.http.Accept-Encoding) {{
		if (req.http.Accept-Encoding ~ "gzip") {{
			set req.http.Accept-Encoding = "gzip";
		}} else {{
			unset req.http.Accept-Encoding;
		}}
	}}
"""

TAIL = """	# Cookies do not vary these sites' pages.
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
"""


def rule_lines(r, ind, with_host):
	host, why, test, stmts = r
	cond = 'req.url ~ ' + test
	if with_host:
		cond = 'req.http.host == "%s" && %s' % (host, cond)
	out = [ind + "# " + why,
	    ind + "# Ticket #%d, %s." % (1041 + 7 * RULES.index(r), host),
	    ind + "if (%s) {" % cond]
	out += [ind + "\t" + s for s in stmts]
	out += [ind + '\tset req.http.X-Rewritten = "yes";', ind + "}", ""]
	return out



def cookie_lines(host, ind, with_host):
	# Analytics cookies the origin never reads; the rest stays until
	# the final unset, as the sites asked one by one.
	cond = "req.http.Cookie"
	if with_host:
		cond = 'req.http.host == "%s" && %s' % (host, cond)
	return [ind + "# %s: analytics cookies." % host,
	    ind + "if (%s) {" % cond,
	    ind + '\tset req.http.Cookie = regsuball(req.http.Cookie,',
	    ind + '\t    "(^|; *)(__utm[a-z]+|_ga[_A-Z0-9]*|_gid|_fbp)=[^;]*", "");',
	    ind + '\tif (req.http.Cookie ~ "^[; ]*$") {',
	    ind + "\t\tunset req.http.Cookie;",
	    ind + "\t}",
	    ind + "}"]


def pass_lines(p, ind, with_host):
	host, why, test = p
	conds = []
	if with_host:
		conds.append('req.http.host == "%s"' % host)
	if test:
		conds.append("req.url ~ " + test)
	out = [ind + "# " + why]
	if conds:
		out.append(ind + "if (%s) {" % " && ".join(conds))
		out += [ind + "\treturn (pass);", ind + "}"]
	else:
		out.append(ind + "return (pass);")
	return out


def mobile_lines(m, ind, heavy):
	host, why, ua, target = m
	out = [ind + "# " + why]
	if heavy:
		out += [ind + 'if (req.http.host == "%s" &&' % host,
		    ind + '    req.http.User-Agent ~ "%s" &&' % ua,
		    ind + "    %s && %s) {" % (NOTSTATIC, NOCOOKIE)]
	else:
		# The cheap tests first; the alternation only if they hold.
		out += [ind + "if (%s && %s &&" % (NOTSTATIC, NOCOOKIE),
		    ind + '    req.http.User-Agent ~ "%s") {' % ua]
	out += [ind + '\tset req.http.X-Device = "mobile";',
	    ind + '\treturn (synth(750, "%s" + req.url));' % target,
	    ind + "}", ""]
	return out


def heavy():
	out = [HEAD.format(name="heavy.vcl", what="a vcl_recv in the style "
	    "seed 000 describes,\n# grown rule by rule: every rule behind its "
	    "own host test, NOT arranged\n# for speed (rearranged.vcl is the "
	    "same policy arranged by hand).").rstrip("\n")]
	out.append("\t# Per-site clean-ups, in the order they were asked for.")
	for r in RULES:
		out += rule_lines(r, "\t", True)
	out.append("\t# Cookies, site by site.")
	for host in BUSY:
		out += cookie_lines(host, "\t", True)
	out.append("\t# Sites and paths not cached.")
	for p in PASS:
		out += pass_lines(p, "\t", True)
	out.append("\t# Mobile redirects.")
	for m in MOBILE:
		out += mobile_lines(m, "\t", True)
	return "\n".join(out) + "\n" + TAIL


def rearranged():
	out = [HEAD.format(name="rearranged.vcl", what="heavy.vcl's policy "
	    "arranged by\n# hand the way seed 000's author did: the generic "
	    "tests first, then one\n# branch per domain, the busiest first, "
	    "each rule without its host\n# test, the brand alternations behind "
	    "the cheap tests.").rstrip("\n")]
	first = True
	for host in BUSY:
		kw = "if" if first else "} elsif"
		first = False
		out.append('\t%s (req.http.host == "%s") {' % (kw, host))
		for r in RULES:
			if r[0] == host:
				out += rule_lines(r, "\t\t", False)
		out += cookie_lines(host, "\t\t", False)
		for p in PASS:
			if p[0] == host:
				out += pass_lines(p, "\t\t", False)
		for m in MOBILE:
			if m[0] == host:
				out += mobile_lines(m, "\t\t", False)
	out.append("\t}")
	return "\n".join(out) + "\n" + TAIL


here = os.path.dirname(os.path.abspath(__file__))
for name, text in (("heavy.vcl", heavy()), ("rearranged.vcl", rearranged())):
	with open(os.path.join(here, name), "w") as f:
		f.write(text)

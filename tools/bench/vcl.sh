#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# vcl.sh -- what a VCL costs (issue #13): veneerd and Debian's varnishd
# side by side, each running tools/bench/vcl/trivial.vcl (a backend and
# the builtin policy), heavy.vcl (seed 000's style: ~30 per-domain
# clean-ups each behind a host test, mobile redirects on a 130-brand
# User-Agent alternation, utm_ stripping, in the order such files grow)
# and rearranged.vcl (the same policy arranged by hand for speed).
#
# The proxies run on core 0, wrk and nginx on core 1.  Every request is
# made by a wrk Lua script from a fixed seed: a Host from 10 domains (one
# busy, most rare), a URL from a few hundred (some with utm_, ref= or
# session parameters that the VCL strips), a User-Agent from real-looking
# desktop and mobile ones; the URL set is bounded, so after a warm-up
# every request is a hit or a redirect.  The rounds interleave the six
# (daemon, VCL) pairs; each figure is the median over the rounds.
#
# Reported: CPU time per request (utime + stime of the daemon's cache
# child over the run, divided by the requests: the idle manager only adds
# noise) and requests/s per pair; then
#   veneerd heavy / varnishd heavy                 target <= 0.5
#   VCL cost (heavy - trivial), veneerd / varnishd  target <= 0.3
#   veneerd rearranged / veneerd heavy             about 1: the compiler
#                                                  did the rearranging
#
# heavy.vcl and rearranged.vcl come from tools/bench/vcl/gen.py (one list
# of rules, two arrangements); change the list there, not the files.
# --check compiles the three VCLs with veneerd -C and varnishd -C only.
# CPU time per request is only comparable at a like load: the proxies do
# not saturate core 0 (wrk's Lua on core 1 is the limit), so idle-ish
# wake-ups weigh in it; compare figures of one run, not across runs.
set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/vcl.sh [options]

  --duration S       seconds of each measured wrk run (default 10)
  --connections N    wrk connections (default 50)
  --rounds N         rounds; each measures the six pairs once, in turn
                     (default 3)
  --quick            a smoke run: 1 round of 2 s (under a minute)
  --veneerd PATH     the veneerd to measure (default build/veneerd)
  --veneerd-arg ARG  an argument for veneerd (repeatable), such as
                     -p vcc_optimize=off or -p vcl_profile=on
  --no-varnish       veneerd only (no ratios)
  --check            only check that the three VCLs compile with veneerd
                     -C and varnishd -C, then exit
  --no-install       do not install missing Debian packages
  --keep             keep the temporary directory
  -h, --help         show this help

Packages it installs when missing (as root): wrk, nginx-light, curl,
varnish (for varnishd; never started as a service).
USAGE
}

duration=10
connections=50
rounds=3
veneerd=""
veneerd_args=()
with_varnish=yes
check_only=no
install=yes
keep=no

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"
# shellcheck source=tools/bench/lib.sh
. "$root/tools/bench/lib.sh"
bench_name=vcl.sh

while [ $# -gt 0 ]; do
	case $1 in
	--duration)	bench_need_arg "$1" $#; duration=$2; shift ;;
	--connections)	bench_need_arg "$1" $#; connections=$2; shift ;;
	--rounds)	bench_need_arg "$1" $#; rounds=$2; shift ;;
	--quick)	duration=2 rounds=1 ;;
	--veneerd)	bench_need_arg "$1" $#; veneerd=$2; shift ;;
	--veneerd-arg)	bench_need_arg "$1" $#; veneerd_args+=("$2"); shift ;;
	--no-varnish)	with_varnish=no ;;
	--check)	check_only=yes ;;
	--no-install)	install=no ;;
	--keep)		keep=yes ;;
	-h|--help)	usage; exit 0 ;;
	*)		usage >&2; exit 2 ;;
	esac
	shift
done
bench_whole --duration "$duration" 1 600
bench_whole --connections "$connections" 1 10000
bench_whole --rounds "$rounds" 1 50

bench_traps
bench_cpus
vcls=(trivial heavy rearranged)

pkgs=(wrk "nginx-light|nginx-core|nginx-full|nginx-extras|nginx" curl
    procps)
[ "$with_varnish" = yes ] && pkgs+=(varnish)
if [ "$install" = yes ]; then
	deps_install "${pkgs[@]}" || exit 1
fi
if [ "$with_varnish" = yes ]; then
	command -v varnishd >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
	command -v varnishd >/dev/null 2>&1 ||
	    die "varnishd not found; install the varnish package"
fi
bench_find_veneerd
bench_tmp

# vcl_file NAME PORT: the VCL with its backend port, in $tmp.
vcl_file() {
	sed "s/@PORT@/$2/" "$root/tools/bench/vcl/$1.vcl" >"$tmp/$1.vcl"
	echo "$tmp/$1.vcl"
}

if [ "$check_only" = yes ]; then
	for v in "${vcls[@]}"; do
		vf=$(vcl_file "$v" 8080)
		"$veneerd" -C -f "$vf" >/dev/null ||
		    die "veneerd -C refuses $v.vcl"
		if [ "$with_varnish" = yes ]; then
			varnishd -C -f "$vf" >/dev/null 2>"$tmp/varnishd-C.txt" ||
			    { cat "$tmp/varnishd-C.txt" >&2
			      die "varnishd -C refuses $v.vcl"; }
		fi
		echo "vcl.sh: $v.vcl compiles"
	done
	exit 0
fi
for cmd in wrk nginx curl taskset pgrep; do
	command -v "$cmd" >/dev/null 2>&1 ||
	    die "$cmd not found; install it or drop --no-install"
done

# nginx answers every URL with 100 cacheable bytes.
# shellcheck disable=SC2034  # read by nginx_setup (lib.sh)
nginx_server_extra='		location / { add_header Cache-Control "max-age=3600"; try_files /100b.bin =404; }'
head -c 100 /dev/zero | tr '\0' 'v' >"$tmp/www/100b.bin"
chmod a+r "$tmp/www/100b.bin"
bench_cpus
start_nginx

#--------------------------------------------------------------------
# The requests: 4096 made at start from a fixed seed, sent in turn.

cat >"$tmp/mix.lua" <<'EOF'
-- Written by tools/bench/vcl.sh for one run.
local hosts = {
	{ "www.example.com", 40 }, { "media.example.com", 25 },
	{ "www.example.net", 10 }, { "shop.example.com", 8 },
	{ "blog.example.com", 6 }, { "m.example.com", 4 },
	{ "api.example.com", 3 }, { "www.example.org", 2 },
	{ "staging.example.com", 1 }, { "staging.example.net", 1 },
}
local paths = {
	"/", "/news/%d-some-title-here", "/old/page%d", "/index.php?p=%d",
	"/section/%d/", "/img/photo%d.jpg", "/css/site%d.css",
	"/js/app%d.js", "/article/%d.html?page=2", "/feed",
	"/en/about%d", "/fr/contact%d", "/product/%d/amp/",
	"/search?q=item%d", "/v1/private/%d", "/v2/public/%d",
	"/News/story%d", "/tag/Topic%d", "/img/photo%d.jpeg",
	"/pics/pic%d_thumb120.jpg", "/v1/public/%d", "/2019/05/post%d",
	"/article/%d.html?page=1", "/category/shoes%d?sort=price",
	"/css/print%d.css?v=3", "/index.html", "/a//b/%d",
}
local extras = {
	"", "", "", "", "?utm_source=newsletter&utm_medium=email",
	"?ref=twitter", "&ref=home", "?utm_campaign=spring", "",
	"?x=1&sessionid=abc123", "", "?print=1", "&aff=X12", "?_=1700000",
	"?qa=7",
}
local desktop = {
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
	"Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/119.0",
	"Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.5993.117 Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 Edg/119.0.2151.72",
}
local mobile = {
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.6045.163 Mobile Safari/537.36",
	"Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Xiaomi",
	"Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54 Nokia",
}
local reqs, i = {}, 0

local function pick(t)
	local total, r = 0, 0
	for _, e in ipairs(t) do total = total + e[2] end
	r = math.random(total)
	for _, e in ipairs(t) do
		if r <= e[2] then return e[1] end
		r = r - e[2]
	end
end

function init(args)
	math.randomseed(13)
	for k = 1, 4096 do
		local p = string.format(paths[math.random(#paths)],
		    math.random(20))
		local x = extras[math.random(#extras)]
		if x:sub(1, 1) == "&" and not p:find("?", 1, true) then
			x = "?" .. x:sub(2)
		elseif x:sub(1, 1) == "?" and p:find("?", 1, true) then
			x = "&" .. x:sub(2)
		end
		local ua
		if math.random(10) <= 3 then
			ua = mobile[math.random(#mobile)]
		else
			ua = desktop[math.random(#desktop)]
		end
		reqs[k] = wrk.format("GET", p .. x, { ["Host"] = pick(hosts),
		    ["User-Agent"] = ua, ["Accept"] = "text/html" })
	end
end

function request()
	i = i % #reqs + 1
	return reqs[i]
end
EOF

#--------------------------------------------------------------------
# The proxies: one per (daemon, VCL), all started before the rounds.

declare -A ppid=() pport=()
servers=(veneerd)
[ "$with_varnish" = yes ] && servers+=(varnishd)

varnish_vcl=""
varnishd_setup() {
	url=http://127.0.0.1:$port/1k.bin
	rm -rf "$varnish_work"
	cmd=(varnishd -F -a "127.0.0.1:$port" -n "$varnish_work"
	    -f "$varnish_vcl" -j none -s "malloc,256M" -p thread_pools=1)
}

for v in "${vcls[@]}"; do
	veneerd_vcl=$(vcl_file "$v" "$nginx_port")
	start_veneerd "veneerd-$v" -s "malloc,256M" ${veneerd_args[@]+"${veneerd_args[@]}"}
	ppid[veneerd,$v]=$(cache_child "$veneerd_pid")
	pport[veneerd,$v]=$veneerd_port
	if [ "$with_varnish" = yes ]; then
		varnish_vcl=$veneerd_vcl
		varnish_work=$tmp/varnishd-$v-work
		pin "$proxy_cpu"
		start_on_free_port "varnishd-$v" "$tmp/varnishd-$v.log" \
		    varnishd_setup
		ppid[varnishd,$v]=$(cache_child "$server_pid")
		pport[varnishd,$v]=$port
		printf '%-10s' "varnishd-$v:"
		echo "pid $server_pid, 127.0.0.1:$port (cpu ${proxy_cpu:-any})," \
		    "$(varnishd -V 2>&1 | head -n 1)"
	fi
done

# Warm-up: every request of the mix once or more, so the rounds hit.
pin "$client_cpu"
for s in "${servers[@]}"; do
	for v in "${vcls[@]}"; do
		"${PIN[@]}" timeout 60 wrk -t1 -c4 -d3s -s "$tmp/mix.lua" \
		    "http://127.0.0.1:${pport[$s,$v]}/" >/dev/null 2>&1 || true
	done
done

clk_tck=$(getconf CLK_TCK)
for r in $(seq "$rounds"); do
	echo "round $r of $rounds"
	for v in "${vcls[@]}"; do
		for s in "${servers[@]}"; do
			measure "$s" "${ppid[$s,$v]}" "${pport[$s,$v]}" "$v" / \
			    -s "$tmp/mix.lua"
		done
	done
done

#--------------------------------------------------------------------
# The report.

echo
printf '%-9s %-11s %12s %12s\n' server vcl 'req/s' 'cpu us/req'
declare -A cpu=()
for s in "${servers[@]}"; do
	for v in "${vcls[@]}"; do
		cpu[$s,$v]=$(run_median "$s" "$v" 5)
		printf '%-9s %-11s %12s %12s\n' "$s" "$v" "$(run_median "$s" "$v" 3)" \
		    "${cpu[$s,$v]}"
	done
done
echo
# The conditionals in parentheses: in a printf's arguments, mawk takes
# "x > 0" for output to a file named 0.
awk -v vt="${cpu[veneerd,trivial]}" -v vh="${cpu[veneerd,heavy]}" \
    -v vr="${cpu[veneerd,rearranged]}" 'BEGIN {
	f = "veneerd:  VCL cost (heavy - trivial) %.2f us/req; "
	f = f "rearranged / heavy %.2fx\n"
	printf f, vh - vt, (vh > 0 ? vr / vh : 0) }'
if [ "$with_varnish" = yes ]; then
	awk -v vt="${cpu[veneerd,trivial]}" -v vh="${cpu[veneerd,heavy]}" \
	    -v nt="${cpu[varnishd,trivial]}" -v nh="${cpu[varnishd,heavy]}" \
	    -v nr="${cpu[varnishd,rearranged]}" -v n="$rounds" 'BEGIN {
		h = nh > 0 ? vh / nh : 0
		c = (nh - nt) > 0 ? (vh - vt) / (nh - nt) : 0
		f = "varnishd: VCL cost (heavy - trivial) %.2f us/req; "
		f = f "rearranged / heavy %.2fx\n"
		printf f, nh - nt, (nh > 0 ? nr / nh : 0)
		f = "\nveneerd / varnishd, issue #13 targets (medians of "
		f = f "%d round(s)):\n"
		printf f, n
		printf "  cpu/req, heavy VCL     %5.2fx  (<= 0.5: %s)\n", h,
		    (h <= 0.5 ? "met" : "MISSED")
		printf "  VCL cost per request   %5.2fx  (<= 0.3: %s)\n", c,
		    (c <= 0.3 ? "met" : "MISSED")
	}'
fi

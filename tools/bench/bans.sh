#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# bans.sh -- what bans cost (issue #14): veneerd and Debian's varnishd
# side by side, in one run.
#
#  1. Adding bans: 10,000 distinct bans through the admin CLI (batches
#     of 1,000, each over one connection by cli_rtt.py, which waits for
#     every answer as an operator's script would), with 1,000
#     cached objects holding the list so neither daemon can trim it and
#     the lurker off.  Reported: microseconds per ban for the first
#     batch (a short list) and the last (9,000 bans ahead of it).
#     Target: the same cost at 10,000 bans as at 0.
#  2. Hits under bans: wrk over 1,000 cached objects (100 bytes each),
#     with no ban, then after 1,000 bans that match nothing and one hit
#     of each object (which tests it against them); --rounds runs of
#     each, the servers interleaved, medians.  Target: with the bans, at
#     least 90% of the requests/s without.
#  3. (when veneerd has purge.key) purging by surrogate key 1,000 of
#     100,000 cached objects: milliseconds for the purge.key command.
#
# The proxies run on core 0, wrk, curl and nginx on core 1.
set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/bans.sh [options]

  --bans N           bans added in part 1 (default 10000, a multiple of
                     1000)
  --duration S       seconds of each measured wrk run (default 10)
  --rounds N         wrk runs of each server in part 2, before and after
                     the bans (default 3; medians are reported)
  --connections N    wrk connections (default 50)
  --quick            a smoke run: 2,000 bans, 2 s runs
  --veneerd PATH     the veneerd to measure (default build/veneerd)
  --no-varnish       veneerd only (no ratios)
  --no-install       do not install missing Debian packages
  --keep             keep the temporary directory
  -h, --help         show this help

Packages it installs when missing (as root): wrk, nginx-light, curl,
varnish (for varnishd and varnishadm; never started as a service).
USAGE
}

nbans=10000
rounds=3
duration=10
connections=50
veneerd=""
with_varnish=yes
install=yes
keep=no

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"
# shellcheck source=tools/bench/lib.sh
. "$root/tools/bench/lib.sh"
bench_name=bans.sh

while [ $# -gt 0 ]; do
	case $1 in
	--bans)		bench_need_arg "$1" $#; nbans=$2; shift ;;
	--duration)	bench_need_arg "$1" $#; duration=$2; shift ;;
	--rounds)	bench_need_arg "$1" $#; rounds=$2; shift ;;
	--connections)	bench_need_arg "$1" $#; connections=$2; shift ;;
	--quick)	nbans=2000 duration=2 rounds=1 ;;
	--veneerd)	bench_need_arg "$1" $#; veneerd=$2; shift ;;
	--no-varnish)	with_varnish=no ;;
	--no-install)	install=no ;;
	--keep)		keep=yes ;;
	-h|--help)	usage; exit 0 ;;
	*)		usage >&2; exit 2 ;;
	esac
	shift
done
bench_whole --bans "$nbans" 1000 1000000
[ $((nbans % 1000)) -eq 0 ] || { echo "bans.sh: --bans takes a multiple" \
    "of 1000" >&2; exit 2; }
bench_whole --duration "$duration" 1 600
bench_whole --rounds "$rounds" 1 50
bench_whole --connections "$connections" 1 10000

bench_traps
bench_cpus
pkgs=(wrk "nginx-light|nginx-core|nginx-full|nginx-extras|nginx" curl
    procps varnish python3)
if [ "$install" = yes ]; then
	deps_install "${pkgs[@]}" || exit 1
fi
command -v varnishd >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
for cmd in wrk nginx curl taskset pgrep varnishadm python3; do
	command -v "$cmd" >/dev/null 2>&1 ||
	    die "$cmd not found; install it or drop --no-install"
done
[ "$with_varnish" = no ] || command -v varnishd >/dev/null 2>&1 ||
    die "varnishd not found; install the varnish package"
bench_find_veneerd
bench_tmp

# nginx answers every URL with 100 cacheable bytes and a surrogate key
# naming the URL's thousand ("/o/12345" has key k12).
# shellcheck disable=SC2034,SC2016  # read by nginx_setup; nginx's $
nginx_server_extra='		location ~ ^/o/(\d*?)(\d\d\d)$ {
			add_header Cache-Control "max-age=3600";
			add_header xkey "k$1 all";
			try_files /100b.bin =404;
		}
		location / { add_header Cache-Control "max-age=3600"; try_files /100b.bin =404; }'
head -c 100 /dev/zero | tr '\0' 'v' >"$tmp/www/100b.bin"
chmod a+r "$tmp/www/100b.bin"
start_nginx
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$tmp/secret"

declare -A ppid=() pport=() tport=()
servers=(veneerd)
[ "$with_varnish" = yes ] && servers+=(varnishd)

cli_port_v=$(free_port)
start_veneerd veneerd -s "malloc,512M" -T "127.0.0.1:$cli_port_v" \
    -S "$tmp/secret" -p ban_lurker_sleep=0
ppid[veneerd]=$(cache_child "$veneerd_pid")
pport[veneerd]=$veneerd_port
tport[veneerd]=$cli_port_v
if [ "$with_varnish" = yes ]; then
	varnish_work=$tmp/varnishd-work
	varnishd_setup() {
		url=http://127.0.0.1:$port/1k.bin
		rm -rf "$varnish_work"
		tport[varnishd]=$(free_port)
		cmd=(varnishd -F -a "127.0.0.1:$port" -n "$varnish_work"
		    -b "127.0.0.1:$nginx_port" -j none -s "malloc,512M"
		    -p thread_pools=1 -T "127.0.0.1:${tport[varnishd]}"
		    -S "$tmp/secret" -p ban_lurker_sleep=0)
	}
	pin "$proxy_cpu"
	start_on_free_port varnishd "$tmp/varnishd.log" varnishd_setup
	ppid[varnishd]=$(cache_child "$server_pid")
	pport[varnishd]=$port
	printf '%-10s' "varnishd:"
	echo "pid $server_pid, 127.0.0.1:$port (cpu ${proxy_cpu:-any})," \
	    "$(varnishd -V 2>&1 | head -n 1)"
fi

# adm SERVER: varnishadm on the server's CLI, commands on stdin.
adm() {
	varnishadm -T "127.0.0.1:${tport[$1]}" -S "$tmp/secret"
}

# warm SERVER FIRST LAST: GET /o/FIRST .. /o/LAST once each (curl on the
# client core, 200 URLs per process).
warm() {
	local s=$1 first=$2 last=$3 i j
	pin "$client_cpu"
	for ((i = first; i <= last; i += 200)); do
		j=$((i + 199 > last ? last : i + 199))
		# One -o per URL: curl applies each to one URL.
		# shellcheck disable=SC2046
		"${PIN[@]}" curl -sf $(seq -f \
		    "-o /dev/null http://127.0.0.1:${pport[$s]}/o/%g" "$i" \
		    "$j") || die "warming $s failed"
	done
}

cat >"$tmp/objs.lua" <<'EOF'
-- Written by tools/bench/bans.sh for one run: /o/1 .. /o/1000 in turn.
local i = 0
function request()
	i = i % 1000 + 1
	return wrk.format("GET", "/o/" .. i)
end
EOF

clk_tck=$(getconf CLK_TCK)

#--------------------------------------------------------------------
# 1. Adding bans.

echo
echo "1. adding $nbans bans, 1,000 per CLI session"
declare -A first_us=() last_us=()
for s in "${servers[@]}"; do
	warm "$s" 1 1000
	for ((b = 0; b < nbans; b += 1000)); do
		seq -f "ban req.url == /none/$b-%g" 1 1000 >"$tmp/bans.txt"
		pin "$client_cpu"
		read -r us bad < <("${PIN[@]}" python3 \
		    "$root/tools/bench/cli_rtt.py" 127.0.0.1 "${tport[$s]}" \
		    "$tmp/secret" "$tmp/bans.txt") || die "cli_rtt.py failed"
		[ "$bad" -eq 0 ] || die "$s refused $bad bans"
		[ "$b" -eq 0 ] && first_us[$s]=$us
		last_us[$s]=$us
	done
	n=$(adm "$s" <<<"ban.list" | grep -c '^[0-9]') || true
	printf '  %-9s first 1,000: %7s us/ban  last 1,000: %7s us/ban' \
	    "$s" "${first_us[$s]}" "${last_us[$s]}"
	echo "  (ban.list: $n bans)"
done

#--------------------------------------------------------------------
# 2. Hits with and without bans; fresh daemons are not needed: a
# different URL range starts with no ban to test.

echo
echo "2. hits on 1,000 cached objects, no ban vs 1,000 that match nothing"
cat >"$tmp/objs2.lua" <<'EOF'
-- Written by tools/bench/bans.sh for one run: /o/5001 .. /o/6000.
local i = 0
function request()
	i = i % 1000 + 1
	return wrk.format("GET", "/o/" .. (5000 + i))
end
EOF
# Objects newer than every ban so far: nothing to test.  The rounds
# interleave the servers, so that a noisy moment hits both.
for s in "${servers[@]}"; do
	warm "$s" 5001 6000
done
for _ in $(seq "$rounds"); do
	for s in "${servers[@]}"; do
		measure "$s" "${ppid[$s]}" "${pport[$s]}" no-bans / \
		    -s "$tmp/objs2.lua"
	done
done
seq -f "ban req.url == /never/%g" 1 1000 >"$tmp/bans.txt"
for s in "${servers[@]}"; do
	read -r _ bad < <(python3 "$root/tools/bench/cli_rtt.py" 127.0.0.1 \
	    "${tport[$s]}" "$tmp/secret" "$tmp/bans.txt") ||
	    die "cli_rtt.py failed"
	[ "$bad" -eq 0 ] || die "$s refused $bad bans"
	# Each object's first hit tests it against the 1,000 bans.
	warm "$s" 5001 6000
done
for _ in $(seq "$rounds"); do
	for s in "${servers[@]}"; do
		measure "$s" "${ppid[$s]}" "${pport[$s]}" 1000-bans / \
		    -s "$tmp/objs2.lua"
	done
done

#--------------------------------------------------------------------
# 3. Purging by surrogate key.

purge_ms=""
if varnishadm -T "127.0.0.1:${tport[veneerd]}" -S "$tmp/secret" \
    help purge.key >/dev/null 2>&1; then
	echo
	echo "3. purge.key of 1,000 of 100,000 objects (veneerd)"
	warm veneerd 100000 199999
	t0=$(date +%s%N)
	out=$(adm veneerd <<<"purge.key k150")
	t1=$(date +%s%N)
	purge_ms=$(awk -v d=$((t1 - t0)) 'BEGIN { printf "%.1f", d / 1e6 }')
	echo "  veneerd   $purge_ms ms ($out)"
fi

#--------------------------------------------------------------------
# The report.

echo
for s in "${servers[@]}"; do
	awk -v s="$s" -v f="${first_us[$s]}" -v l="${last_us[$s]}" \
	    -v a="$(run_median "$s" no-bans 3)" \
	    -v b="$(run_median "$s" 1000-bans 3)" \
	    -v ca="$(run_median "$s" no-bans 5)" \
	    -v cb="$(run_median "$s" 1000-bans 5)" 'BEGIN {
		printf "%-9s ban at the end / at the start %.2fx; ", s,
		    (f > 0 ? l / f : 0)
		printf "with 1,000 bans / without: req/s %.2fx, cpu/req %.2fx\n",
		    (a > 0 ? b / a : 0), (ca > 0 ? cb / ca : 0) }'
done
# Throughput is what the target names; on a shared machine it swings
# with the load generator's luck, so CPU time per request (which does
# not) is shown beside it.
awk -v f="${first_us[veneerd]}" -v l="${last_us[veneerd]}" \
    -v a="$(run_median veneerd no-bans 3)" \
    -v b="$(run_median veneerd 1000-bans 3)" \
    -v ca="$(run_median veneerd no-bans 5)" \
    -v cb="$(run_median veneerd 1000-bans 5)" 'BEGIN {
	r = f > 0 ? l / f : 0
	h = a > 0 ? b / a : 0
	c = cb > 0 ? ca / cb : 0
	print "\nveneerd, issue #14 targets:"
	printf "  ban cost at the end / at 0   %5.2fx  (about 1: %s)\n",
	    r, (r <= 1.25 ? "met" : "MISSED")
	printf "  hits with 1,000 bans / none  %5.2fx  (>= 0.9: %s)\n", h,
	    (h >= 0.9 ? "met" : "MISSED")
	printf "  (by cpu/req, none / bans     %5.2fx)\n", c }'
if [ -n "$purge_ms" ]; then
	awk -v p="$purge_ms" 'BEGIN {
		printf "  purge.key, 1,000 objects     %5.1f ms (milliseconds: %s)\n",
		    p, (p < 1000 ? "met" : "MISSED") }'
fi
if [ "$with_varnish" = yes ]; then
	awk -v vf="${first_us[veneerd]}" -v vl="${last_us[veneerd]}" \
	    -v nf="${first_us[varnishd]}" -v nl="${last_us[varnishd]}" \
	    -v va="$(run_median veneerd no-bans 3)" \
	    -v vb="$(run_median veneerd 1000-bans 3)" \
	    -v na="$(run_median varnishd no-bans 3)" \
	    -v nb="$(run_median varnishd 1000-bans 3)" 'BEGIN {
		print "\nveneerd against varnishd:"
		printf "  us per ban at the end        %s vs %s (%s)\n", vl, nl,
		    (vl + 0 <= nl + 0 ? "better" : "WORSE")
		vr = va > 0 ? vb / va : 0
		nr = na > 0 ? nb / na : 0
		printf "  hits kept with 1,000 bans    %.2f vs %.2f (%s)\n",
		    vr, nr, (vr >= nr ? "better" : "WORSE") }'
fi

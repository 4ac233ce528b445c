#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# xkey.sh -- purge by surrogate key (issue #14): veneerd and Debian's
# varnishd (with vmod xkey from varnish-modules) side by side, each
# caching $objects objects from nginx (1 KB each, an xkey header "gG oN"
# putting object N in group G of $group objects), then purging one group
# at a time from VCL (a PURGE request: veneer.purge_key() and
# xkey.purge()) and, for veneerd, from the CLI (veneeradm purge.key).
#
# Reported: the time of each purge (curl's time_total for the PURGE; the
# whole veneeradm run for the CLI, process start included, with a
# veneeradm ping beside it for what that costs alone), the median
# over $purges groups, and the number of objects each purge removed
# (which must be $group: both index every object).  Target (issue #14):
# milliseconds, not seconds.  The fill runs wrk once over every URL, so
# it takes a while (about 100,000 misses each).
set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/xkey.sh [options]

  --objects N        objects to cache (default 100000)
  --group N          objects per tag (default 1000)
  --purges N         groups purged, each timed (default 5)
  --quick            10,000 objects, groups of 100, 3 purges
  --veneerd PATH     the veneerd to measure (default build/veneerd)
  --no-varnish       veneerd only
  --no-install       do not install missing Debian packages
  --keep             keep the temporary directory
  -h, --help         show this help

Packages it installs when missing (as root): wrk, nginx-light, curl,
varnish and varnish-modules (for varnishd and vmod xkey; never started
as a service).
USAGE
}

objects=100000
group=1000
purges=5
veneerd=""
with_varnish=yes
install=yes
keep=no
duration=1
connections=8

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"
# shellcheck source=tools/bench/lib.sh
. "$root/tools/bench/lib.sh"
bench_name=xkey.sh

while [ $# -gt 0 ]; do
	case $1 in
	--objects)	bench_need_arg "$1" $#; objects=$2; shift ;;
	--group)	bench_need_arg "$1" $#; group=$2; shift ;;
	--purges)	bench_need_arg "$1" $#; purges=$2; shift ;;
	--quick)	objects=10000 group=100 purges=3 ;;
	--veneerd)	bench_need_arg "$1" $#; veneerd=$2; shift ;;
	--no-varnish)	with_varnish=no ;;
	--no-install)	install=no ;;
	--keep)		keep=yes ;;
	-h|--help)	usage; exit 0 ;;
	*)		usage >&2; exit 2 ;;
	esac
	shift
done
bench_whole --objects "$objects" 100 10000000
bench_whole --group "$group" 1 "$objects"
bench_whole --purges "$purges" 1 $((objects / group))

bench_traps
bench_cpus

pkgs=(wrk "nginx-light|nginx-core|nginx-full|nginx-extras|nginx" curl
    procps)
[ "$with_varnish" = yes ] && pkgs+=(varnish varnish-modules)
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
veneeradm=$(dirname "$veneerd")/veneeradm
[ -x "$veneeradm" ] || die "$veneeradm is missing (build it with veneerd)"

# nginx tags every response: group g, object o, from the query string.
nginx_server_extra="		location / {
			expires 1h;
			add_header xkey \"g\$arg_g o\$arg_o\";
		}"
start_nginx

# The VCLs: a PURGE request names its tags in xkey-purge.
vcl_of() {
	local module=$1 call=$2 vf=$tmp/$1.vcl
	cat >"$vf" <<EOF
vcl 4.1;
import $module;
backend default { .host = "127.0.0.1"; .port = "$nginx_port"; }
sub vcl_recv {
	if (req.method == "PURGE") {
		return (synth(200, "Purged " + $call(req.http.xkey-purge)));
	}
}
EOF
	echo "$vf"
}

# The fill: every URL once, $connections at a time, wrk on core 1.
cat >"$tmp/fill.lua" <<EOF
local n, g, done, i = $objects, $group, 0, -1
function request()
	i = i + 1
	return wrk.format("GET", "/1k.bin?g=" .. math.floor((i % n) / g) ..
	    "&o=" .. i % n)
end
function response(status, headers, body)
	done = done + 1
	if done >= n then wrk.thread:stop() end
end
EOF

declare -A pport=()
servers=(veneerd)
[ "$with_varnish" = yes ] && servers+=(varnishd)

veneerd_vcl=$(vcl_of veneer veneer.purge_key)
start_veneerd veneerd -s "malloc,1G"
pport[veneerd]=$veneerd_port

if [ "$with_varnish" = yes ]; then
	varnish_work=$tmp/varnishd-work
	varnishd_setup() {
		url=http://127.0.0.1:$port/1k.bin
		rm -rf "$varnish_work"
		cmd=(varnishd -F -a "127.0.0.1:$port" -n "$varnish_work"
		    -f "$(vcl_of xkey xkey.purge)" -j none -s "malloc,1G"
		    -p thread_pools=1)
	}
	pin "$proxy_cpu"
	start_on_free_port varnishd "$tmp/varnishd.log" varnishd_setup
	pport[varnishd]=$port
	printf '%-10s' "varnishd:"
	echo "pid $server_pid, 127.0.0.1:$port (cpu ${proxy_cpu:-any})," \
	    "$(varnishd -V 2>&1 | head -n 1)"
fi

# misses SERVER: the cache misses so far, from the server's own tool.
misses() {
	if [ "$1" = veneerd ]; then
		"$(dirname "$veneerd")/veneerstat" -1 -n "$veneerd_work" \
		    -f MAIN.cache_miss 2>/dev/null
	else
		varnishstat -1 -n "$varnish_work" -f MAIN.cache_miss \
		    2>/dev/null
	fi | awk '$1 == "MAIN.cache_miss" { print $2 }'
}

# wrk stops sending once every URL was asked for (fill.lua), but waits
# out its -d: stop it when the misses say the cache is full.
pin "$client_cpu"
for s in "${servers[@]}"; do
	t0=$(date +%s.%N)
	"${PIN[@]}" wrk -t1 -c"$connections" -d900s -s "$tmp/fill.lua" \
	    "http://127.0.0.1:${pport[$s]}/" >"$tmp/fill-$s.txt" 2>&1 &
	wrk_pid=$!
	pids+=("$wrk_pid")
	while [ "$(misses "$s")" -lt "$objects" ] 2>/dev/null ||
	    [ -z "$(misses "$s")" ]; do
		kill -0 "$wrk_pid" 2>/dev/null || die "$s: the fill failed" \
		    "($(tail -n 3 "$tmp/fill-$s.txt"))"
		sleep 0.5
	done
	stop_server "$wrk_pid"
	t1=$(date +%s.%N)
	echo "$s: filled $objects objects in" \
	    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
done

# median_of "1.2 3.4 ...": the median of the words.
median_of() {
	# shellcheck disable=SC2086  # split on purpose
	printf '%s\n' $1 | sort -n |
	    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

declare -A times=()
for s in "${servers[@]}"; do
	for k in $(seq "$purges"); do
		g=$((k * 7 % (objects / group)))
		res=$(curl -s -i -X PURGE -H "xkey-purge: g$g" \
		    -w '\n%{time_total}' "http://127.0.0.1:${pport[$s]}/")
		n=$(printf '%s\n' "$res" | tr -d '\r' |
		    awk 'NR == 1 { print $4 }')
		ms=$(printf '%s\n' "$res" | tail -n 1 |
		    awk '{ printf "%.2f", $1 * 1000 }')
		[ "$n" = "$group" ] ||
		    die "$s: purging group g$g removed $n objects, not $group"
		times[$s]+="$ms "
		echo "$s: VCL purge of g$g: $n objects in $ms ms"
	done
done
# veneerd's CLI: other groups (the ones above are gone).
for k in $(seq "$purges"); do
	g=$((k * 7 % (objects / group) + 1))
	t0=$(date +%s.%N)
	out=$("$veneeradm" -n "$veneerd_work" purge.key "g$g")
	t1=$(date +%s.%N)
	ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) * 1000 }')
	[ "$out" = "Purged $group objects" ] ||
	    die "veneerd: purge.key g$g answered \"$out\""
	times[cli]+="$ms "
	echo "veneerd: purge.key g$g: $out in $ms ms (veneeradm included)"
done

# What veneeradm itself costs: a ping, the same way.
for k in $(seq "$purges"); do
	t0=$(date +%s.%N)
	"$veneeradm" -n "$veneerd_work" ping >/dev/null
	t1=$(date +%s.%N)
	times[ping]+="$(awk -v a="$t0" -v b="$t1" \
	    'BEGIN { printf "%.2f", (b - a) * 1000 }') "
done

echo
echo "Purge by surrogate key of $group of $objects objects, median of" \
    "$purges:"
for s in "${servers[@]}"; do
	printf '  %-22s %8s ms\n' "$s (VCL, PURGE)" \
	    "$(median_of "${times[$s]}")"
done
printf '  %-22s %8s ms\n' "veneerd (purge.key)" \
    "$(median_of "${times[cli]}")"
printf '  %-22s %8s ms\n' "veneeradm ping" \
    "$(median_of "${times[ping]}")"

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# backends.sh -- what a pass through a director costs (issue #15):
# veneerd and Debian's varnishd side by side, each running the same VCL
# (four backends, a directors.round_robin over them in vcl_init, every
# request passed), in front of four nginx origins (one nginx, four
# server blocks on four loopback ports, 1 KB files, keep-alive).
#
# The proxies run on core 0, wrk and nginx on core 1.  The rounds
# interleave the two daemons; each figure is the median over the rounds.
# Reported: requests/s and CPU time per request (utime + stime of the
# daemon's cache child over the run, divided by the requests), the ratio
# veneerd / varnishd against the issue's target (<= 0.7), and each
# origin's share of each daemon's requests (from nginx's access logs:
# round robin gives each about a quarter).
#
# Every request is a pass, so each one is a backend fetch: the figure is
# the cost of the fetch path (connection pool, request and response
# headers, body copy), the director's pick a small part of it.  Both
# daemons reuse backend connections; wrk's connections are keep-alive.
# --check compiles the VCL with veneerd -C and varnishd -C only.
set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/backends.sh [options]

  --duration S       seconds of each measured wrk run (default 10)
  --connections N    wrk connections (default 50)
  --rounds N         rounds; each measures both daemons once (default 3)
  --quick            a smoke run: 1 round of 2 s
  --veneerd PATH     the veneerd to measure (default build/veneerd)
  --veneerd-arg ARG  an argument for veneerd (repeatable)
  --no-varnish       veneerd only (no ratio)
  --check            only check that the VCL compiles with veneerd -C and
                     varnishd -C, then exit
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
bench_name=backends.sh

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

# write_vcl PORT...: the VCL for four origins at these ports, in $tmp.
write_vcl() {
	local i=0 p
	{
		echo "vcl 4.1;"
		echo "import directors;"
		for p in "$@"; do
			echo "backend o$i { .host = \"127.0.0.1\"; .port = \"$p\"; }"
			i=$((i + 1))
		done
		echo "sub vcl_init {"
		echo "	new rr = directors.round_robin();"
		for i in 0 1 2 3; do
			echo "	rr.add_backend(o$i);"
		done
		echo "}"
		echo "sub vcl_recv {"
		echo "	set req.backend_hint = rr.backend();"
		echo "	return (pass);"
		echo "}"
	} >"$tmp/backends.vcl"
}

if [ "$check_only" = yes ]; then
	write_vcl 8081 8082 8083 8084
	"$veneerd" -C -f "$tmp/backends.vcl" >/dev/null ||
	    die "veneerd -C refuses the VCL"
	if [ "$with_varnish" = yes ]; then
		varnishd -C -f "$tmp/backends.vcl" >/dev/null \
		    2>"$tmp/varnishd-C.txt" ||
		    { cat "$tmp/varnishd-C.txt" >&2
		      die "varnishd -C refuses the VCL"; }
	fi
	echo "backends.sh: the VCL compiles"
	exit 0
fi
for cmd in wrk nginx curl taskset pgrep; do
	command -v "$cmd" >/dev/null 2>&1 ||
	    die "$cmd not found; install it or drop --no-install"
done

#--------------------------------------------------------------------
# Four origins: one nginx, four server blocks, each with its own access
# log (buffered) so that each origin's requests can be counted.

oports=()
origins_setup() {
	local conf=$tmp/nginx/nginx.conf i
	oports=("$port")
	for i in 1 2 3; do
		oports+=("$(free_port)")
	done
	url=http://127.0.0.1:$port/1k.bin
	cmd=(nginx -p "$tmp/nginx/" -c "$conf" -e "$tmp/nginx/logs/error.log")
	{
		cat <<EOF
# Written by tools/bench/backends.sh for one run; removed after it.
daemon off;
master_process on;
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log warn;
events {
	worker_connections 16384;
}
http {
	log_format short "\$request_uri";
	sendfile on;
	tcp_nopush on;
	keepalive_timeout 120s;
	keepalive_requests 100000000;
	default_type application/octet-stream;
	client_body_temp_path $tmp/nginx/client_body;
	proxy_temp_path $tmp/nginx/proxy;
	fastcgi_temp_path $tmp/nginx/fastcgi;
	uwsgi_temp_path $tmp/nginx/uwsgi;
	scgi_temp_path $tmp/nginx/scgi;
EOF
		for i in 0 1 2 3; do
			cat <<EOF
	server {
		listen 127.0.0.1:${oports[$i]} backlog=4096;
		root $tmp/www;
		access_log $tmp/nginx/logs/o$i.log short buffer=256k flush=1s;
	}
EOF
		done
		echo "}"
	} >"$conf"
}
pin "$origin_cpu"
start_on_free_port nginx "$tmp/nginx/logs/error.log" origins_setup
nginx_pid=$server_pid
nginx_port=${oports[0]}	# lib.sh's start_veneerd wants one
echo "nginx:    pid $nginx_pid, 127.0.0.1:${oports[*]} (cpu ${origin_cpu:-any})"
write_vcl "${oports[@]}"

#--------------------------------------------------------------------
# The proxies.

declare -A ppid=() pport=()
servers=(veneerd)
[ "$with_varnish" = yes ] && servers+=(varnishd)

veneerd_vcl=$tmp/backends.vcl
start_veneerd veneerd -s "malloc,256M" ${veneerd_args[@]+"${veneerd_args[@]}"}
ppid[veneerd]=$(cache_child "$veneerd_pid")
pport[veneerd]=$veneerd_port
if [ "$with_varnish" = yes ]; then
	varnishd_setup() {
		url=http://127.0.0.1:$port/1k.bin
		rm -rf "$tmp/varnishd-work"
		cmd=(varnishd -F -a "127.0.0.1:$port" -n "$tmp/varnishd-work"
		    -f "$tmp/backends.vcl" -j none -s "malloc,256M"
		    -p thread_pools=1)
	}
	pin "$proxy_cpu"
	start_on_free_port varnishd "$tmp/varnishd.log" varnishd_setup
	ppid[varnishd]=$(cache_child "$server_pid")
	pport[varnishd]=$port
	printf '%-10s' "varnishd:"
	echo "pid $server_pid, 127.0.0.1:$port (cpu ${proxy_cpu:-any})," \
	    "$(varnishd -V 2>&1 | head -n 1)"
fi

# Warm-up: both pools of backend connections filled.
pin "$client_cpu"
for s in "${servers[@]}"; do
	"${PIN[@]}" timeout 60 wrk -t1 -c"$connections" -d2s \
	    "http://127.0.0.1:${pport[$s]}/1k.bin?warmup" >/dev/null 2>&1 ||
	    true
done

# Each daemon's requests carry its name in the query string, so the
# origins' logs tell who sent what.
clk_tck=$(getconf CLK_TCK)
for r in $(seq "$rounds"); do
	echo "round $r of $rounds"
	for s in "${servers[@]}"; do
		measure "$s" "${ppid[$s]}" "${pport[$s]}" pass "/1k.bin?$s"
	done
done

#--------------------------------------------------------------------
# The report.

# nginx flushes its buffered logs at most 1 s late.
sleep 2
echo
printf '%-9s %12s %12s   %s\n' server 'req/s' 'cpu us/req' \
    'share of origins o0..o3'
declare -A cpu=()
for s in "${servers[@]}"; do
	cpu[$s]=$(run_median "$s" pass 5)
	shares=$(for i in 0 1 2 3; do
		grep -c "^/1k.bin?$s\$" "$tmp/nginx/logs/o$i.log" || true
	done | awk '{ n[NR] = $1; t += $1 }
	    END { for (i = 1; i <= NR; i++)
		printf "%s%.3f", (i > 1 ? " " : ""), (t ? n[i] / t : 0) }')
	printf '%-9s %12s %12s   %s\n' "$s" "$(run_median "$s" pass 3)" \
	    "${cpu[$s]}" "$shares"
done
if [ "$with_varnish" = yes ]; then
	awk -v v="${cpu[veneerd]}" -v n="${cpu[varnishd]}" -v r="$rounds" \
	    'BEGIN {
		x = n > 0 ? v / n : 0
		printf "\nveneerd / varnishd, issue #15 target (medians of "
		printf "%d round(s)):\n", r
		printf "  cpu/req, pass over round_robin of 4  %5.2fx  " \
		    "(<= 0.7: %s)\n", x, (x <= 0.7 ? "met" : "MISSED")
	}'
fi

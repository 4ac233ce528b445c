#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# slowloris.sh -- cache hits while thousands of clients trickle request
# heads (issue 11, section 2), on loopback: wrk -> veneerd -> nginx.
#
# veneerd is pinned to core 0; wrk, nginx and the tricklers (trickle.py)
# share core 1.  Two runs on the same veneerd:
#
#   base     wrk sends cache hits (a 100-byte object, warmed first) on 20
#            keep-alive connections for --duration seconds.
#   trickle  the same while N other connections each send a request head
#            one byte per second and never finish it.  N is as many as
#            the file limit allows (raised to the hard limit; at least
#            2,000), or --conns.
#
# For each: hits/s and p99 from wrk, and veneerd's CPU time per hit (its
# process tree's utime + stime from /proc/PID/stat over the run, divided
# by wrk's requests).  The load generators share a core, so the hit rate
# alone misleads: CPU per hit is the figure to watch.  Targets: CPU per
# hit with the tricklers at most 1.15 x without, p99 under 10 ms, and no
# trickling connection dropped (veneerd runs with timeout_idle=600, so
# all of them are within their timeouts for the whole run).
#
# Everything it starts is killed by pid when it exits (the trickler also
# stops by itself); it touches no system service or configuration.

set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/slowloris.sh [options]

Cache hits on 20 connections with and without thousands of slow clients
trickling request heads one byte per second (issue 11).

  --duration S     seconds per measured run (default 20)
  --conns N        trickling connections (default: what the file limit
                   allows, at least 2000)
  --veneerd PATH   the veneerd to measure (default build/veneerd, built
                   first if missing)
  --no-install     do not install missing Debian packages
  --keep           keep the temporary directory (logs, wrk's output)
  -h, --help       show this help

Packages it installs when missing (as root): wrk, nginx-light, curl,
python3.
USAGE
}

duration=20
conns=""
veneerd=""
install=yes
keep=no
connections=20

while [ $# -gt 0 ]; do
	case $1 in
	--duration)	duration=${2:?--duration needs a value}; shift ;;
	--conns)	conns=${2:?--conns needs a value}; shift ;;
	--veneerd)	veneerd=${2:?--veneerd needs a value}; shift ;;
	--no-install)	install=no ;;
	--keep)		keep=yes ;;
	-h|--help)	usage; exit 0 ;;
	*)
		echo "slowloris.sh: unknown option '$1'" >&2
		usage >&2
		exit 2 ;;
	esac
	shift
done
case $duration in
''|*[!0-9]*)	echo "slowloris.sh: --duration takes seconds" >&2; exit 2 ;;
esac
if [ "$duration" -lt 1 ] || [ "$duration" -gt 600 ]; then
	echo "slowloris.sh: --duration takes 1 to 600 seconds" >&2
	exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"
# shellcheck source=tools/bench/lib.sh
. "$root/tools/bench/lib.sh"

bench_name=slowloris.sh
bench_traps
bench_cpus

if [ "$install" = yes ]; then
	deps_install wrk "nginx-light|nginx-core|nginx-full|nginx" curl \
	    procps python3 || exit 1
fi
for cmd in wrk nginx curl taskset pgrep python3; do
	command -v "$cmd" >/dev/null 2>&1 ||
	    die "$cmd not found; install it or drop --no-install"
done

# veneerd and the trickler each need a descriptor per connection.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
fds=$(ulimit -n)
if [ -z "$conns" ]; then
	conns=$((fds - 1000))
fi
case $conns in
''|*[!0-9]*)	die "--conns takes a number" ;;
esac
[ "$conns" -ge 2000 ] || die "the file limit ($fds) allows only $conns" \
    "slow connections, 2000 wanted: raise ulimit -Hn"
[ "$conns" -le $((fds - 500)) ] || die "--conns $conns is above the" \
    "file limit ($fds) less 500 for the rest"

bench_find_veneerd
veneerstat=$(dirname "$veneerd")/veneerstat
[ -x "$veneerstat" ] || veneerstat=$root/build/veneerstat
clk_tck=$(getconf CLK_TCK)

bench_tmp
head -c 100 /dev/zero | tr '\0' 'v' >"$tmp/www/100b.bin"
chmod a+r "$tmp/www/100b.bin"
# shellcheck disable=SC2034  # read by nginx_setup (lib.sh)
nginx_server_extra="\
		location /h/ { add_header Cache-Control \"max-age=3600\";
			try_files /100b.bin =404; }"
start_nginx
start_veneerd veneerd -p timeout_idle=600
curl -sf -o /dev/null "http://127.0.0.1:$veneerd_port/h/1" ||
    die "veneerd does not answer /h/1"

counters() {
	"$veneerstat" -n "$veneerd_work" -1 2>/dev/null | awk '
	    $1 ~ /^MAIN\.(threads|sess_dropped|sess_queued|sc_overload|sc_rx_timeout|sess_park_bytes|sess_park_full|sess_waiting|req_dropped)$/ {
		sub(/^MAIN\./, "", $1); printf " %s=%s", $1, $2 }'
	echo
}

echo "runs of ${duration} s, wrk on $connections connections, /h/1 (hits)"
measure veneerd "$veneerd_pid" "$veneerd_port" base /h/1
echo "  counters:$(counters)"

pin "$client_cpu"
rm -f "$tmp/trickle.ready"
# Ramp (about 1,000 connections a second), the run, and a margin.
tdur=$((conns / 1000 + 10 + duration + 10))
"${PIN[@]}" python3 "$root/tools/bench/trickle.py" 127.0.0.1 \
    "$veneerd_port" "$conns" "$tdur" "$tmp/trickle.ready" \
    >"$tmp/trickle.out" 2>&1 &
trickle_pid=$!
pids+=("$trickle_pid")
for _ in $(seq $((tdur * 10))); do
	[ -s "$tmp/trickle.ready" ] && break
	kill -0 "$trickle_pid" 2>/dev/null || break
	sleep 0.1
done
[ -s "$tmp/trickle.ready" ] || { cat "$tmp/trickle.out" >&2;
	die "the trickler did not open its connections"; }
echo "trickler: $(cat "$tmp/trickle.ready") (pid $trickle_pid," \
    "one byte a second each)"
measure veneerd "$veneerd_pid" "$veneerd_port" trickle /h/1
echo "  counters:$(counters)"
wait "$trickle_pid" || true
cat "$tmp/trickle.out"

read -r _ _ base_rps _ base_cpu _ <<<"${results[0]}"
read -r _ _ tr_rps tr_p99 tr_cpu _ <<<"${results[1]}"
awk -v b="$base_cpu" -v t="$tr_cpu" -v p="$tr_p99" -v br="$base_rps" \
    -v tr="$tr_rps" 'BEGIN {
	r = t / b
	printf "hits/s %s -> %s; CPU per hit %.1f -> %.1f us (x%.2f, " \
	    "target <= 1.15: %s); p99 with tricklers %s ms (target < 10: " \
	    "%s)\n", br, tr, b, t, r, r <= 1.15 ? "met" : "MISSED", p,
	    p + 0 < 10 ? "met" : "MISSED" }'

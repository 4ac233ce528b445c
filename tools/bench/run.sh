#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# run.sh -- pass-through benchmark on loopback: wrk -> proxy -> nginx.
#
# nginx serves a 1 KB static file (and a 100 KB one with --large) from
# its own temporary prefix and configuration.  The proxy (veneerd, and
# varnishd with --with-varnish, both passing every request to nginx) is
# pinned to core 0; wrk, and nginx on a 2-core machine, to core 1.  For
# each scenario, keep-alive and a new connection per request, it reports
# requests/s, p99 latency and the proxy's CPU time per request: the
# utime+stime of its manager and child (all threads) from /proc, over
# the run, divided by the requests wrk completed.
#
# Everything it starts is killed by pid when it exits; it touches no
# system service and no system configuration.

set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/run.sh [options]

Pass-through benchmark of veneerd on loopback, with wrk and nginx.

  --duration S       seconds per measured run (default 10)
  --connections N    wrk connections (default 50)
  --with-varnish     also measure Debian's varnishd (pass-through VCL)
                     and print the veneerd/varnishd ratios
  --veneerd PATH     the veneerd to measure (default build/veneerd,
                     built first if missing)
  --large            also fetch a 100 KB file
  --origin-only      measure nginx alone, without a proxy (checks the
                     set-up and the parsing of wrk's output)
  --no-install       do not install missing Debian packages
  --keep             keep the temporary directory (logs, configs)
  -h, --help         show this help

Packages it installs when missing (as root): wrk, nginx-light, curl,
and varnish with --with-varnish.
USAGE
}

duration=10
connections=50
with_varnish=no
veneerd=""
large=no
origin_only=no
install=yes
keep=no

need_arg() {
	if [ "$2" -lt 2 ]; then
		echo "run.sh: $1 needs a value" >&2
		exit 2
	fi
}

while [ $# -gt 0 ]; do
	case $1 in
	--duration)	need_arg "$1" $#; duration=$2; shift ;;
	--connections)	need_arg "$1" $#; connections=$2; shift ;;
	--veneerd)	need_arg "$1" $#; veneerd=$2; shift ;;
	--with-varnish)	with_varnish=yes ;;
	--large)	large=yes ;;
	--origin-only)	origin_only=yes ;;
	--no-install)	install=no ;;
	--keep)		keep=yes ;;
	-h|--help)	usage; exit 0 ;;
	*)
		echo "run.sh: unknown option '$1'" >&2
		usage >&2
		exit 2 ;;
	esac
	shift
done

case $duration in
''|*[!0-9]*)	duration=0 ;;
esac
case $connections in
''|*[!0-9]*)	connections=0 ;;
esac
if [ "$duration" -lt 1 ] || [ "$duration" -gt 600 ]; then
	echo "run.sh: --duration takes whole seconds, 1 to 600" >&2
	exit 2
fi
if [ "$connections" -lt 1 ] || [ "$connections" -gt 10000 ]; then
	echo "run.sh: --connections takes 1 to 10000" >&2
	exit 2
fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"

#--------------------------------------------------------------------
# Processes we started, killed by pid on exit.

tmp=""
pids=()

# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
	local rc=$? pid i
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${pids[@]}"; do
		# Give each up to 5 s to stop cleanly, then insist.
		for i in $(seq 50); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	if [ -n "$tmp" ] && [ -d "$tmp" ]; then
		if [ "$keep" = yes ]; then
			echo "run.sh: kept $tmp"
		else
			rm -rf "$tmp"
			[ "$rc" -eq 0 ] || echo "run.sh: run again with" \
			    "--keep to keep the servers' logs" >&2
		fi
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

die() {
	echo "run.sh: $*" >&2
	exit 1
}

port_in_use() {
	(: <>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# A port nothing listens on, below the ephemeral range so that no
# outgoing connection holds it (wrk's and the proxies' come from there).
free_port() {
	local i port low=32768 span
	read -r low _ </proc/sys/net/ipv4/ip_local_port_range || true
	span=$((low - 10000))
	[ "$span" -ge 1000 ] || span=20000
	for i in $(seq 100); do
		port=$((10000 + (RANDOM * 32768 + RANDOM) % span))
		if ! port_in_use "$port"; then
			echo "$port"
			return 0
		fi
	done
	die "found no free port in 100 tries"
}

# start_server NAME LOG COMMAND...: start COMMAND in the background and
# wait up to 20 s for $url (set by the caller) to answer 200.  Sets
# server_pid.  Returns 1 if it exited at start (its log says why).
start_server() {
	local name=$1 log=$2 i
	shift 2
	"${PIN[@]}" "$@" >"$log" 2>&1 &
	server_pid=$!
	pids+=("$server_pid")
	for i in $(seq 200); do
		if ! kill -0 "$server_pid" 2>/dev/null; then
			wait "$server_pid" 2>/dev/null || true
			return 1
		fi
		if curl -sf -o /dev/null "$url"; then
			return 0
		fi
		sleep 0.1
	done
	tail -n 30 "$log" >&2
	die "$name does not answer $url after 20 s"
}

# start_on_free_port NAME LOG SETUP: call SETUP (which picks $port, sets
# $url and the command in $cmd) and start the server, again with another
# port if the chosen one was taken meanwhile.
start_on_free_port() {
	local name=$1 log=$2 setup=$3 attempt
	for attempt in 1 2 3; do
		port=$(free_port)
		"$setup"
		start_server "$name" "$log" "${cmd[@]}" && return 0
		grep -q 'in use' "$log" && [ "$attempt" -lt 3 ] && continue
		echo "run.sh: $name exited at start; its output:" >&2
		tail -n 30 "$log" >&2
		exit 1
	done
}

#--------------------------------------------------------------------
# CPUs: the proxy gets core 0 to itself; wrk gets core 1; nginx a third
# core if there is one, else core 1 too.

ncpu=$(build_nproc)
proxy_cpu="" client_cpu="" origin_cpu=""
if [ "$ncpu" -ge 2 ]; then
	proxy_cpu=0
	client_cpu=1
	origin_cpu=1
	[ "$ncpu" -ge 3 ] && origin_cpu=2
fi

# pin CPU: set PIN to the command prefix that runs a command on CPU
# (nothing if CPU is empty).  A prefix, not a function: a function run
# with & is a subshell, and $! would be its pid instead of the server's.
PIN=()
pin() {
	PIN=()
	if [ -n "$1" ]; then
		PIN=(taskset -c "$1")
	fi
}

#--------------------------------------------------------------------
# CPU time of a process tree, in clock ticks.

proc_tree() {
	local child
	echo "$1"
	for child in $(pgrep -P "$1" || true); do
		proc_tree "$child"
	done
}

# utime + stime of PID and its descendants, plus cutime + cstime so a
# child that exits and is reaped during the run keeps counting.
proc_ticks() {
	local total=0 pid stat
	local -a f
	for pid in $(proc_tree "$1"); do
		stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
		# Fields after "(comm)", which may hold spaces: f[0] is
		# field 3 (state), so utime (14) is f[11].
		read -r -a f <<<"${stat##*) }"
		total=$((total + f[11] + f[12] + f[13] + f[14]))
	done
	echo "$total"
}

#--------------------------------------------------------------------
# Set-up: packages, files, nginx.

pkgs=(wrk "nginx-light|nginx-core|nginx-full|nginx-extras|nginx" curl
    procps)
[ "$with_varnish" = yes ] && pkgs+=(varnish)
if [ "$install" = yes ]; then
	deps_install "${pkgs[@]}" || exit 1
fi
for cmd in wrk nginx curl taskset pgrep; do
	command -v "$cmd" >/dev/null 2>&1 ||
	    die "$cmd not found; install it or drop --no-install"
done
if [ "$with_varnish" = yes ]; then
	command -v varnishd >/dev/null 2>&1 || PATH=$PATH:/usr/sbin
	command -v varnishd >/dev/null 2>&1 ||
	    die "varnishd not found; install the varnish package"
fi

if [ "$origin_only" = no ]; then
	if [ -z "$veneerd" ]; then
		veneerd=$root/build/veneerd
		if [ ! -x "$veneerd" ]; then
			echo "run.sh: $veneerd is missing; building it"
			build_autoreconf "$root"
			build_configure "$root" "$root/build"
			build_make "$root/build"
		fi
	fi
	[ -x "$veneerd" ] || die "$veneerd is not an executable"
	veneerd=$(cd "$(dirname "$veneerd")" && pwd)/$(basename "$veneerd")
fi

tmp=$(mktemp -d /tmp/veneer-bench.XXXXXX)
# nginx's workers may run as nobody: they must read the files.
chmod 755 "$tmp"
mkdir -p "$tmp/www" "$tmp/nginx/logs"
head -c 1024 /dev/zero | tr '\0' 'v' >"$tmp/www/1k.bin"
head -c 102400 /dev/zero | tr '\0' 'v' >"$tmp/www/100k.bin"
chmod -R a+rX "$tmp/www"

nginx_setup() {
	local conf=$tmp/nginx/nginx.conf
	url=http://127.0.0.1:$port/1k.bin
	cmd=(nginx -p "$tmp/nginx/" -c "$conf" -e "$tmp/nginx/logs/error.log")
	cat >"$conf" <<EOF
# Written by tools/bench/run.sh for one run; removed after it.
daemon off;
master_process on;
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/logs/error.log warn;
events {
	worker_connections 16384;
}
http {
	access_log off;
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
	server {
		listen 127.0.0.1:$port backlog=4096;
		root $tmp/www;
	}
}
EOF
}

start_nginx() {
	pin "$origin_cpu"
	start_on_free_port nginx "$tmp/nginx/logs/error.log" nginx_setup
	nginx_pid=$server_pid
	nginx_port=$port
	echo "nginx:    pid $nginx_pid, 127.0.0.1:$nginx_port" \
	    "(cpu ${origin_cpu:-any})"
}

# veneerd picks its own port (-a 127.0.0.1:0) and writes it to
# WORKDIR/_.listen as "a0 127.0.0.1 PORT".
start_veneerd() {
	local work=$tmp/veneerd-work log=$tmp/veneerd.log i
	mkdir -p "$work"
	pin "$proxy_cpu"
	# One thread pool, like varnishd below: the proxy has one core.
	"${PIN[@]}" "$veneerd" -F -a 127.0.0.1:0 -b "127.0.0.1:$nginx_port" \
	    -n "$work" -j none -p thread_pools=1 >"$log" 2>&1 &
	veneerd_pid=$!
	pids+=("$veneerd_pid")
	veneerd_port=""
	for i in $(seq 150); do
		kill -0 "$veneerd_pid" 2>/dev/null || break
		if [ -s "$work/_.listen" ]; then
			veneerd_port=$(awk 'NR == 1 { print $3 }' \
			    "$work/_.listen")
			break
		fi
		sleep 0.1
	done
	if [ -z "$veneerd_port" ]; then
		echo "run.sh: veneerd did not write $work/_.listen; its" \
		    "output:" >&2
		tail -n 30 "$log" >&2
		exit 1
	fi
	url=http://127.0.0.1:$veneerd_port/1k.bin
	for i in $(seq 101); do
		curl -sf -o /dev/null "$url" && break
		if [ "$i" -eq 101 ] || ! kill -0 "$veneerd_pid" 2>/dev/null
		then
			tail -n 30 "$log" >&2
			die "veneerd does not answer $url"
		fi
		sleep 0.1
	done
	echo "veneerd:  pid $veneerd_pid, 127.0.0.1:$veneerd_port" \
	    "(cpu ${proxy_cpu:-any}), $veneerd"
}

# -F: foreground, so our pid is the manager's; -j none: no user switch,
# it runs like veneerd above; thread_pools=1: one core.
varnishd_setup() {
	url=http://127.0.0.1:$port/1k.bin
	cat >"$tmp/pass.vcl" <<EOF
vcl 4.1;
backend default { .host = "127.0.0.1"; .port = "$nginx_port"; }
sub vcl_recv { return (pass); }
EOF
	rm -rf "$tmp/varnish-work"
	cmd=(varnishd -F -a "127.0.0.1:$port" -n "$tmp/varnish-work"
	    -f "$tmp/pass.vcl" -j none -s "malloc,64m" -p thread_pools=1)
}

start_varnishd() {
	pin "$proxy_cpu"
	start_on_free_port varnishd "$tmp/varnishd.log" varnishd_setup
	varnish_pid=$server_pid
	varnish_port=$port
	echo "varnishd: pid $varnish_pid, 127.0.0.1:$varnish_port" \
	    "(cpu ${proxy_cpu:-any}), $(varnishd -V 2>&1 | head -n 1)"
}

#--------------------------------------------------------------------
# Measuring.

# Results, one line per run: "server scenario rps p99_ms cpu_us cpu_pct
# errors".
results=()

# p99 from wrk --latency ("     99%    1.23ms"), in milliseconds.
wrk_p99_ms() {
	awk '$1 == "99%" {
		v = $2 + 0; u = $2; sub(/^[0-9.]+/, "", u)
		if (u == "us") v /= 1000; else if (u == "s") v *= 1000
		else if (u == "m") v *= 60000
		printf "%.2f", v; found = 1 }
	    END { if (!found) print "?" }' "$1"
}

# measure SERVER PID PORT SCENARIO PATH [WRK-ARGS...]
measure() {
	local server=$1 pid=$2 port=$3 scenario=$4 path=$5 out t0 t1 tree0
	local requests rps p99 errors non2xx cpu_us cpu_pct ticks w0 w1
	shift 5
	out=$tmp/wrk-$server-$scenario.txt
	pin "$client_cpu"
	tree0=$(proc_tree "$pid" | sort)
	t0=$(proc_ticks "$pid")
	w0=$(date +%s%N)
	if ! "${PIN[@]}" timeout $((duration + 30)) wrk -t1 \
	    -c"$connections" -d"${duration}s" --latency "$@" \
	    "http://127.0.0.1:$port$path" >"$out" 2>&1; then
		cat "$out" >&2
		die "wrk failed against $server ($scenario)"
	fi
	t1=$(proc_ticks "$pid")
	w1=$(date +%s%N)
	kill -0 "$pid" 2>/dev/null || die "$server died during $scenario"
	if [ "$(proc_tree "$pid" | sort)" != "$tree0" ]; then
		echo "run.sh: warning: $server's processes changed during" \
		    "$scenario (a child restarted?): its CPU time is" \
		    "not reliable" >&2
	fi
	requests=$(awk '$2 == "requests" && $3 == "in" { print $1 }' "$out")
	rps=$(awk '$1 == "Requests/sec:" { print $2 }' "$out")
	p99=$(wrk_p99_ms "$out")
	errors=$(awk '$1 == "Socket" && $2 == "errors:" {
	    gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$out")
	non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$out")
	errors=$(( ${errors:-0} + ${non2xx:-0} ))
	if [ -z "$requests" ] || [ "$requests" -eq 0 ]; then
		cat "$out" >&2
		die "no request completed against $server"
	fi
	ticks=$((t1 - t0))
	cpu_us=$(awk -v t="$ticks" -v hz="$clk_tck" -v n="$requests" \
	    'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
	# Share of one core the server used while wrk ran.
	cpu_pct=$(awk -v t="$ticks" -v hz="$clk_tck" -v ns=$((w1 - w0)) \
	    'BEGIN { printf "%.0f", t / hz / (ns / 1e9) * 100 }')
	results+=("$server $scenario $rps $p99 $cpu_us $cpu_pct $errors")
	printf '  %-9s %-14s %10s req/s  p99 %8s ms  %7s us/req  cpu %3s%%' \
	    "$server" "$scenario" "$rps" "$p99" "$cpu_us" "$cpu_pct"
	[ "$errors" -eq 0 ] && echo || echo "  ($errors errors)"
}

# run_scenarios SERVER PID PORT: every scenario against one server.
run_scenarios() {
	local server=$1 pid=$2 port=$3
	# A short unmeasured run warms up threads and connections.
	pin "$client_cpu"
	"${PIN[@]}" timeout 30 wrk -t1 -c"$connections" -d1s \
	    "http://127.0.0.1:$port/1k.bin" >/dev/null 2>&1 || true
	measure "$server" "$pid" "$port" keep-alive /1k.bin
	measure "$server" "$pid" "$port" close /1k.bin \
	    -H 'Connection: close'
	if [ "$large" = yes ]; then
		measure "$server" "$pid" "$port" keep-alive-100k /100k.bin
		measure "$server" "$pid" "$port" close-100k /100k.bin \
		    -H 'Connection: close'
	fi
}

print_table() {
	local line server scenario rps p99 cpu pct err
	local -A v_rps=() v_cpu=() n_rps=() n_cpu=()
	echo
	printf '%-9s %-16s %12s %10s %12s %6s %7s\n' server scenario \
	    'req/s' 'p99 ms' 'cpu us/req' 'cpu%' errors
	for line in "${results[@]}"; do
		read -r server scenario rps p99 cpu pct err <<<"$line"
		printf '%-9s %-16s %12s %10s %12s %6s %7s\n' "$server" \
		    "$scenario" "$rps" "$p99" "$cpu" "$pct" "$err"
		case $server in
		veneerd)	v_rps[$scenario]=$rps v_cpu[$scenario]=$cpu ;;
		varnishd)	n_rps[$scenario]=$rps n_cpu[$scenario]=$cpu ;;
		esac
	done
	[ ${#n_rps[@]} -gt 0 ] && [ ${#v_rps[@]} -gt 0 ] || return 0
	echo
	echo "veneerd / varnishd (req/s: higher is better for veneerd;" \
	    "cpu/req: lower is):"
	for scenario in "${!v_rps[@]}"; do
		[ -n "${n_rps[$scenario]:-}" ] || continue
		awk -v s="$scenario" -v vr="${v_rps[$scenario]}" \
		    -v nr="${n_rps[$scenario]}" -v vc="${v_cpu[$scenario]}" \
		    -v nc="${n_cpu[$scenario]}" 'BEGIN {
			printf "  %-16s req/s %5.2fx   cpu/req %5.2fx\n", s,
			    (nr > 0 ? vr / nr : 0), (nc > 0 ? vc / nc : 0) }'
	done | sort
}

clk_tck=$(getconf CLK_TCK)
runs=2
[ "$large" = yes ] && runs=4
targets=1
[ "$with_varnish" = yes ] && targets=2
echo "run.sh: $runs runs of ${duration}s with $connections connections" \
    "per server, $targets server(s): about" \
    "$(( (runs * duration + 3) * targets + 5 )) s"
if [ -z "$proxy_cpu" ]; then
	echo "run.sh: warning: one CPU only; nothing is pinned and the" \
	    "proxy shares its core with wrk and nginx" >&2
fi

start_nginx
if [ "$origin_only" = yes ]; then
	run_scenarios nginx "$nginx_pid" "$nginx_port"
else
	start_veneerd
	[ "$with_varnish" = yes ] && start_varnishd
	run_scenarios veneerd "$veneerd_pid" "$veneerd_port"
	if [ "$with_varnish" = yes ]; then
		run_scenarios varnishd "$varnish_pid" "$varnish_port"
	fi
fi
print_table

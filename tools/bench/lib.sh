# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# shellcheck disable=SC2154  # the caller's globals (see below)
#
# lib.sh -- what the benchmarks in tools/bench share: killing what they
# started when they exit, free ports, pinning to CPUs, the CPU time of a
# process tree, the nginx origin serving 1 KB and 100 KB files from a
# temporary prefix, veneerd in front of it, one measured wrk run.
# Sourced by run.sh, vsl.sh and cache.sh, after tools/lib/build.sh.
#
# The caller sets bench_name (its name, for messages), keep (yes: leave
# $tmp behind), duration and connections (for wrk), root and veneerd
# (for bench_find_veneerd); the functions set the globals their comments
# name.  Everything started is killed by pid; no system service or
# configuration is touched.

#--------------------------------------------------------------------
# Processes we started, killed by pid on exit.

tmp=""
workdirs=""	# where start_veneerd puts workdirs if not in $tmp
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
			echo "$bench_name: kept $tmp"
		else
			rm -rf "$tmp"
			[ "$rc" -eq 0 ] || echo "$bench_name: run again with" \
			    "--keep to keep the servers' logs" >&2
		fi
	fi
	if [ -n "$workdirs" ] && [ -d "$workdirs" ]; then
		if [ "$keep" = yes ]; then
			echo "$bench_name: kept $workdirs"
		else
			rm -rf "$workdirs"
		fi
	fi
}

# stop_server PID: stop a server started with start_server (or a process
# added to pids) before the exit, as cleanup does, and forget its pid.
stop_server() {
	local pid=$1 i
	local -a rest=()
	kill "$pid" 2>/dev/null || true
	for i in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	for i in "${pids[@]}"; do
		[ "$i" = "$pid" ] || rest+=("$i")
	done
	pids=("${rest[@]}")
}

# bench_traps: run cleanup at exit, and exit on INT and TERM.
bench_traps() {
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

die() {
	echo "$bench_name: $*" >&2
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
		echo "$bench_name: $name exited at start; its output:" >&2
		tail -n 30 "$log" >&2
		exit 1
	done
}

#--------------------------------------------------------------------
# CPUs: the proxy gets core 0 to itself; wrk gets core 1; nginx a third
# core if there is one, else core 1 too.

# bench_cpus: set ncpu, proxy_cpu, client_cpu and origin_cpu (empty on
# a machine with one CPU: nothing is pinned).
bench_cpus() {
	ncpu=$(build_nproc)
	proxy_cpu="" client_cpu="" origin_cpu=""
	if [ "$ncpu" -ge 2 ]; then
		proxy_cpu=0
		client_cpu=1
		origin_cpu=1
		if [ "$ncpu" -ge 3 ]; then
			origin_cpu=2
		fi
	fi
}

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
# Set-up: veneerd, files, nginx.

# bench_find_veneerd: make $veneerd an absolute path to an executable
# veneerd; empty means build/veneerd, built first if it is missing.
bench_find_veneerd() {
	if [ -z "$veneerd" ]; then
		veneerd=$root/build/veneerd
		if [ ! -x "$veneerd" ]; then
			echo "$bench_name: $veneerd is missing; building it"
			build_autoreconf "$root"
			build_configure "$root" "$root/build"
			build_make "$root/build"
		fi
	fi
	[ -x "$veneerd" ] || die "$veneerd is not an executable"
	veneerd=$(cd "$(dirname "$veneerd")" && pwd)/$(basename "$veneerd")
}

# bench_tmp: the run's temporary directory, $tmp, with the files nginx
# serves: www/1k.bin and www/100k.bin.
bench_tmp() {
	tmp=$(mktemp -d /tmp/veneer-bench.XXXXXX)
	# nginx's workers may run as nobody: they must read the files.
	chmod 755 "$tmp"
	mkdir -p "$tmp/www" "$tmp/nginx/logs"
	head -c 1024 /dev/zero | tr '\0' 'v' >"$tmp/www/1k.bin"
	head -c 102400 /dev/zero | tr '\0' 'v' >"$tmp/www/100k.bin"
	chmod -R a+rX "$tmp/www"
}

# nginx_setup: nginx's configuration.  The caller may put more lines for
# its server block (locations) in nginx_server_extra.
nginx_server_extra=""
nginx_setup() {
	local conf=$tmp/nginx/nginx.conf
	url=http://127.0.0.1:$port/1k.bin
	cmd=(nginx -p "$tmp/nginx/" -c "$conf" -e "$tmp/nginx/logs/error.log")
	cat >"$conf" <<EOF
# Written by tools/bench/$bench_name for one run; removed after it.
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
$nginx_server_extra
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

# start_veneerd LABEL [ARGS...]: start $veneerd in front of nginx, its
# workdir LABEL-work in $workdirs (default $tmp), its output in
# $tmp/LABEL.log, ARGS added (-p name=value...).  It picks its own port
# (-a 127.0.0.1:0) and writes it to WORKDIR/_.listen as "a0 127.0.0.1
# PORT".  Sets veneerd_pid, veneerd_port and veneerd_work.  With
# veneerd_vcl set, it runs that VCL file (-f) instead of -b nginx.
veneerd_vcl=""
start_veneerd() {
	local label=$1 work=${workdirs:-$tmp}/$1-work log=$tmp/$1.log i
	local -a be=(-b "127.0.0.1:$nginx_port")
	shift
	mkdir -p "$work"
	pin "$proxy_cpu"
	[ -z "$veneerd_vcl" ] || be=(-f "$veneerd_vcl")
	# One thread pool, like varnishd in run.sh: the proxy has one core.
	"${PIN[@]}" "$veneerd" -F -a 127.0.0.1:0 "${be[@]}" \
	    -n "$work" -j none -p thread_pools=1 "$@" >"$log" 2>&1 &
	veneerd_pid=$!
	# shellcheck disable=SC2034  # for the caller
	veneerd_work=$work
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
		echo "$bench_name: $label did not write $work/_.listen; its" \
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
			die "$label does not answer $url"
		fi
		sleep 0.1
	done
	printf '%-10s' "$label:"
	echo "pid $veneerd_pid, 127.0.0.1:$veneerd_port" \
	    "(cpu ${proxy_cpu:-any}), $veneerd${*:+ $*}"
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

# measure SERVER PID PORT SCENARIO PATH [WRK-ARGS...]: one wrk run of
# $duration s with $connections connections, wrk on $client_cpu; adds
# "server scenario rps p99_ms cpu_us cpu_pct errors" to results and
# prints it; wrk's output stays in $tmp/wrk-SERVER-SCENARIO.txt.
# clk_tck must be set (getconf CLK_TCK).
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
		echo "$bench_name: warning: $server's processes changed during" \
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

#--------------------------------------------------------------------
# Options and figures.

# bench_need_arg OPTION ARGC: exit unless the option has a value.
bench_need_arg() {
	if [ "$2" -lt 2 ]; then
		echo "$bench_name: $1 needs a value" >&2
		exit 2
	fi
}

# bench_whole NAME VALUE MIN MAX: exit unless VALUE is a whole number in
# range.
bench_whole() {
	case $2 in
	''|*[!0-9]*)	;;
	*)	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && return 0 ;;
	esac
	echo "$bench_name: $1 takes a whole number from $3 to $4" >&2
	exit 2
}

# median: the median of the numbers on standard input (nothing: none).
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# run_median SERVER SCENARIO FIELD: the median of a results field (3
# req/s, 4 p99, 5 cpu us/req, 7 errors) over the server's runs.
run_median() {
	printf '%s\n' "${results[@]}" |
	    awk -v s="$1" -v c="$2" -v f="$3" '$1 == s && $2 == c {
		print $f }' | median
}

# cache_child PID: the pid of the manager PID's cache child (its only
# child once started; the VCL compiler's processes are gone by then).
cache_child() {
	local kids
	kids=$(pgrep -P "$1" || true)
	[ -n "$kids" ] || die "manager $1 has no child process"
	if [ "$(wc -w <<<"$kids")" -gt 1 ]; then
		echo "$bench_name: warning: manager $1 has children" \
		    "$(tr '\n' ' ' <<<"$kids")taking the first" >&2
	fi
	echo "${kids%%[[:space:]]*}"
}

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# cache.sh -- cache benchmarks on loopback (issue #5): wrk -> proxy ->
# nginx, every object cacheable (nginx adds Cache-Control: max-age=3600).
#
# The proxy, veneerd and with --with-varnish Debian's varnishd (its
# builtin VCL: it caches the same way), is pinned to core 0; wrk, and
# nginx on a 2-core machine, to core 1.  Scenarios:
#
#   hit          100-byte objects, keep-alive, all hits (100 URLs, warmed
#                first): requests/s, p99 and CPU time per request as in
#                run.sh.  Targets: veneerd/varnishd req/s >= 1.5, CPU/req
#                <= 2/3 of varnishd's, p99 below varnishd's.
#   hit-close    the same, a new connection per request.  Target: CPU/req
#                <= varnishd's.
#   hit-1m       1 MB objects (10 URLs), keep-alive.  Target: bytes/s
#                ratio >= 1.
#   vary400      nginx answers with a Vary naming 400 headers (X-H-000 ..
#                X-H-399); each request sends one of them at random with
#                one of 4 values: 1600 variants of one URL, warmed first.
#                Target: req/s ratio >= 8, no errors.
#   mem-objects  a fresh proxy (-s malloc,2G) fills with 200,000 distinct
#                1 KB objects; the cache child's VmRSS after, minus its
#                VmRSS after start and one request, divided by the objects,
#                minus 1024 is the memory each object costs beyond its
#                body.  Target: veneerd's at most half of varnishd's.
#                ("After start": after two seconds of passed requests at
#                the same concurrency, so that threads and buffers are
#                counted as the daemon's, not the objects'.)
#   mem-promise  a fresh proxy with -s malloc,64M fetches 1,000,000
#                distinct 100-byte objects; the child's VmRSS is polled
#                every 0.5 s.  Target: its peak stays below the empty
#                VmRSS + 64 MB + 10% (of the 64 MB), and the last URLs
#                fetched are hits afterwards (veneerd's Cache-Status says
#                "hit", varnishd's X-Varnish has two ids).
#
# VmRSS counts the pages of the shared-memory log the child has written
# (vsl_space, 80 MB for both); both write all of it at start, so their
# empty VmRSS has them.  The memory tables also give RssAnon, the
# process's own memory, which leaves them out, and a verdict by each.  The fills are wrk walks that
# stop after their last response; one that takes over 3 minutes counts
# as failed.  If a cache child dies (a panic: the manager restarts it,
# empty), the script says so, prints the rest and exits with 1.
#
# Everything it starts is killed by pid when it exits; it touches no
# system service and no system configuration.

set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/cache.sh [options]

Cache benchmarks of veneerd on loopback (issue #5), with wrk and nginx:
hits (small, with a new connection each, 1 MB), a 400-header Vary,
memory per object and the storage size promise.

  --duration S       seconds per measured run (default 10)
  --connections N    wrk connections (default 50)
  --rounds N         runs of the throughput scenarios, veneerd's and
                     varnishd's interleaved; the ratios use each one's
                     median (default 1; 3 or more on a noisy machine)
  --scenario NAME    run only this scenario (repeatable): hit, hit-close,
                     hit-1m, vary400, mem-objects, mem-promise (default
                     all)
  --with-varnish     also measure Debian's varnishd (builtin VCL) and
                     print the veneerd/varnishd ratios against the targets
  --veneerd PATH     the veneerd to measure (default build/veneerd,
                     built first if missing)
  --no-install       do not install missing Debian packages
  --keep             keep the temporary directory (logs, configs, wrk's
                     output)
  -h, --help         show this help

Packages it installs when missing (as root): wrk, nginx-light, curl,
and varnish with --with-varnish.
USAGE
}

all_scenarios="hit hit-close hit-1m vary400 mem-objects mem-promise"

duration=10
connections=50
rounds=1
with_varnish=no
veneerd=""
install=yes
keep=no
scenarios=()

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"
# shellcheck source=tools/bench/lib.sh
. "$root/tools/bench/lib.sh"
bench_name=cache.sh

while [ $# -gt 0 ]; do
	case $1 in
	--duration)	bench_need_arg "$1" $#; duration=$2; shift ;;
	--connections)	bench_need_arg "$1" $#; connections=$2; shift ;;
	--rounds)	bench_need_arg "$1" $#; rounds=$2; shift ;;
	--scenario)	bench_need_arg "$1" $#; scenarios+=("$2"); shift ;;
	--veneerd)	bench_need_arg "$1" $#; veneerd=$2; shift ;;
	--with-varnish)	with_varnish=yes ;;
	--no-install)	install=no ;;
	--keep)		keep=yes ;;
	-h|--help)	usage; exit 0 ;;
	*)
		echo "cache.sh: unknown option '$1'" >&2
		usage >&2
		exit 2 ;;
	esac
	shift
done
bench_whole --duration "$duration" 1 600
bench_whole --connections "$connections" 1 10000
bench_whole --rounds "$rounds" 1 50
[ ${#scenarios[@]} -gt 0 ] || read -r -a scenarios <<<"$all_scenarios"
for s in "${scenarios[@]}"; do
	case " $all_scenarios " in
	*" $s "*)	;;
	*)	echo "cache.sh: unknown scenario '$s' (one of:" \
		    "$all_scenarios)" >&2
		exit 2 ;;
	esac
done

# selected NAME: whether scenario NAME is to be run.
selected() {
	case " ${scenarios[*]} " in
	*" $1 "*)	return 0 ;;
	esac
	return 1
}

bench_traps
bench_cpus

# The scenarios' sizes.
hit_urls=100		# hit, hit-close: /h/1 .. /h/100, 100 bytes each
big_urls=10		# hit-1m: /m/1 .. /m/10, 1 MB each
vary_names=400		# vary400: X-H-000 .. X-H-399
vary_values=4		# each with one of v0 .. v3
objects_n=200000	# mem-objects: /obj/1 .. /obj/200000, 1 KB each
objects_store=2G
promise_n=1000000	# mem-promise: /tiny/1 .. /tiny/1000000, 100 bytes
promise_store=64M
promise_mb=64
fill_limit=180		# seconds a fill may take before it counts as failed

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
bench_find_veneerd
veneerstat=$(dirname "$veneerd")/veneerstat
[ -x "$veneerstat" ] || veneerstat=$root/build/veneerstat

bench_tmp
head -c 100 /dev/zero | tr '\0' 'v' >"$tmp/www/100b.bin"
head -c 1048576 /dev/zero | tr '\0' 'v' >"$tmp/www/1m.bin"
chmod a+r "$tmp/www"/*.bin

# Every location serves one file for any URL under it, so that each URL
# is an object of its own.  try_files serves the file in the location
# (add_header applies); add_header in a location replaces the server's.
vary_header=$(for i in $(seq 0 $((vary_names - 1))); do
	printf 'X-H-%03d\n' "$i"; done | paste -sd, | sed 's/,/, /g')
cc='add_header Cache-Control "max-age=3600";'
# shellcheck disable=SC2034  # read by nginx_setup (lib.sh)
nginx_server_extra="\
		location /h/ { $cc try_files /100b.bin =404; }
		location /m/ { $cc try_files /1m.bin =404; }
		location /obj/ { $cc try_files /1k.bin =404; }
		location /tiny/ { $cc try_files /100b.bin =404; }
		location /vary/ {
			$cc
			add_header Vary \"$vary_header\";
			try_files /100b.bin =404;
		}"

#--------------------------------------------------------------------
# wrk scripts.  Each request is made in Lua: URL number k is PREFIX..k,
# or for vary400, /vary/1 with header X-H-NNN: vJ (k = J * 400 + NNN + 1).
# A walk script asks for 1 .. N once, in order (warming, filling; a
# request beyond N repeats N) and tells walk (below) when it has N
# responses; a cycle script goes round the N URLs; a random script picks
# one at random each time.  Cycle and random scripts make their N
# requests once, at start.

# lua_script KIND MODE N [PREFIX]: write $tmp/MODE-KIND[-PREFIX-].lua
# (KIND urls or vary; MODE walk, cycle or random) and print its name.
lua_script() {
	local kind=$1 mode=$2 n=$3 prefix=${4:-} file
	file=$tmp/$mode-$kind${prefix//\//-}.lua
	{
		echo "-- Written by tools/bench/cache.sh for one run."
		echo "local n, i, seen, reqs = $n, 0, 0, {}"
		if [ "$kind" = urls ]; then
			cat <<EOF
local function make(k)
	return wrk.format(nil, "$prefix" .. k)
end
EOF
		else
			cat <<EOF
local function make(k)
	local h = {}
	for name, value in pairs(wrk.headers) do h[name] = value end
	h[string.format("X-H-%03d", (k - 1) % $vary_names)] =
	    "v" .. math.floor((k - 1) / $vary_names)
	return wrk.format(nil, "/vary/1", h)
end
EOF
		fi
		case $mode in
		walk)	cat <<EOF
function request()
	if i < n then i = i + 1 end
	return make(i)
end
function response(status, headers, body)
	seen = seen + 1
	if seen == n then
		-- cache.sh's walk sees the file and stops wrk.
		wrk.thread:stop()
		io.open("$tmp/walk.done", "w"):close()
	end
end
EOF
			;;
		cycle)	cat <<'EOF'
function init(args)
	for k = 1, n do reqs[k] = make(k) end
end
function request()
	i = i % n + 1
	return reqs[i]
end
EOF
			;;
		random)	cat <<'EOF'
function init(args)
	for k = 1, n do reqs[k] = make(k) end
	math.randomseed(os.time())
end
function request()
	return reqs[math.random(n)]
end
EOF
			;;
		esac
	} >"$file"
	echo "$file"
}

#--------------------------------------------------------------------
# The proxies.

# -F: foreground, so our pid is the manager's; -j none: no user switch,
# it runs like veneerd (lib.sh); thread_pools=1: one core.  The builtin
# VCL does the caching.
varnishd_setup() {
	url=http://127.0.0.1:$port/1k.bin
	cat >"$tmp/cache.vcl" <<EOF
vcl 4.1;
backend default { .host = "127.0.0.1"; .port = "$nginx_port"; }
EOF
	rm -rf "$varnish_work"
	cmd=(varnishd -F -a "127.0.0.1:$port" -n "$varnish_work"
	    -f "$tmp/cache.vcl" -j none -s "malloc,$varnish_store"
	    -p thread_pools=1)
}

# start_varnishd LABEL STORE: varnishd with -s malloc,STORE, its workdir
# $tmp/LABEL-work, its output in $tmp/LABEL.log.  Sets varnish_pid,
# varnish_port and varnish_work.
start_varnishd() {
	local label=$1
	varnish_store=$2
	varnish_work=$tmp/$label-work
	pin "$proxy_cpu"
	start_on_free_port "$label" "$tmp/$label.log" varnishd_setup
	varnish_pid=$server_pid
	varnish_port=$port
	printf '%-10s' "$label:"
	echo "pid $varnish_pid, 127.0.0.1:$varnish_port" \
	    "(cpu ${proxy_cpu:-any}), -s malloc,$varnish_store," \
	    "$(varnishd -V 2>&1 | head -n 1)"
}

# start_proxy SERVER LABEL STORE: start SERVER (veneerd or varnishd)
# with -s malloc,STORE.  Sets proxy_pid, proxy_port, proxy_work,
# proxy_log and proxy_child (the cache child's pid).
start_proxy() {
	case $1 in
	veneerd)
		start_veneerd "$2" -s "malloc,$3"
		proxy_pid=$veneerd_pid proxy_port=$veneerd_port
		proxy_work=$veneerd_work ;;
	varnishd)
		start_varnishd "$2" "$3"
		proxy_pid=$varnish_pid proxy_port=$varnish_port
		proxy_work=$varnish_work ;;
	esac
	proxy_log=$tmp/$2.log
	proxy_child=$(cache_child "$proxy_pid")
}

# What went wrong, for the end of the report.
troubles=()

# child_restarted SERVER SCENARIO: whether the cache child is no longer
# $proxy_child (it died, of a panic most likely, and the manager started
# another, empty).  Says so with the log's first assert and records it.
child_restarted() {
	local now what
	now=$(pgrep -P "$proxy_pid" | head -n 1 || true)
	[ "$now" != "$proxy_child" ] || return 1
	what=$(grep -m 1 -A 1 -E 'Assert error|Panic|died' "$proxy_log" |
	    sed 's/^Child ([0-9]*) said //' | tr -s ' \n' ' ')
	echo "$bench_name: $1's child $proxy_child died during $2" \
	    "(now ${now:-none}): ${what:-see $proxy_log}" >&2
	troubles+=("$1 $2: child $proxy_child died: ${what:-see $proxy_log}")
	proxy_child=$now
	return 0
}

# mem_kb PID FIELD: FIELD (VmRSS, RssAnon, VmHWM) of PID in kB.
mem_kb() {
	awk -v f="$2:" '$1 == f { print $2; found = 1 }
	    END { if (!found) print 0 }' "/proc/$1/status"
}

# counters SERVER WORK NAME...: "NAME=value ..." from veneerstat or
# varnishstat (empty if the tool is missing).
counters() {
	local server=$1 work=$2 name
	local -a tool args=()
	shift 2
	if [ "$server" = veneerd ]; then
		[ -x "$veneerstat" ] || return 0
		tool=("$veneerstat")
	else
		tool=(varnishstat)
	fi
	for name in "$@"; do
		args+=(-f "$name")
	done
	timeout 20 "${tool[@]}" -n "$work" -1 "${args[@]}" 2>/dev/null |
	    awk '{ printf "%s%s=%s", sep, $1, $2; sep = " " }
		END { print "" }' || true
}

#--------------------------------------------------------------------
# Measuring.  measure (lib.sh) adds "server scenario rps p99_ms cpu_us
# cpu_pct errors" to results for each timed run.

clk_tck=$(getconf CLK_TCK)
declare -A bytes_s=()	# [server]: hit-1m's bytes/s
bytes_runs=()		# "server bytes/s", one per hit-1m run
declare -A mem=()	# [server,key]: the memory scenarios' numbers
mem_servers=()

# walk SERVER PORT SCRIPT N CONNS: run a walk script to its end, at most
# fill_limit s, wrk on the client CPU.  wrk runs its whole -d unless
# interrupted: when the script has its N responses it creates
# $tmp/walk.done, and SIGINT makes wrk stop and print its report.  Sets
# walk_s (seconds), walk_n (responses) and walk_errors (socket errors
# and non-2xx); warns when the walk did not finish.
walk() {
	local server=$1 port=$2 script=$3 n=$4 conns=$5 out w0 w1 wrk_pid i
	local sent
	out=$tmp/walk-$server-$(basename "$script" .lua).txt
	rm -f "$tmp/walk.done"
	pin "$client_cpu"
	w0=$(date +%s%N)
	"${PIN[@]}" wrk -t1 -c"$conns" -d"${fill_limit}s" --timeout 10s \
	    -s "$script" "http://127.0.0.1:$port/" >"$out" 2>&1 &
	wrk_pid=$!
	pids+=("$wrk_pid")
	# Tenths of a second: the walk, then 30 s more to stop.
	sent=no
	for i in $(seq $(((fill_limit + 30) * 10))); do
		kill -0 "$wrk_pid" 2>/dev/null || break
		# Again every second: a SIGINT that comes before wrk
		# starts its sleep is lost.
		if [ -e "$tmp/walk.done" ] &&
		    { [ "$sent" = no ] || [ $((i % 10)) -eq 0 ]; }; then
			kill -INT "$wrk_pid" 2>/dev/null || true
			sent=yes
		fi
		sleep 0.1
	done
	stop_server "$wrk_pid"
	w1=$(date +%s%N)
	walk_s=$(awk -v ns=$((w1 - w0)) 'BEGIN { printf "%.1f", ns / 1e9 }')
	walk_n=$(awk '$2 == "requests" && $3 == "in" { print $1 }' "$out")
	walk_n=${walk_n:-0}
	walk_errors=$(awk '$1 == "Socket" && $2 == "errors:" {
	    gsub(/,/, ""); e = $4 + $6 + $8 + $10 }
	    /Non-2xx or 3xx responses:/ { e += $NF } END { print e + 0 }' \
	    "$out")
	if [ "$walk_n" -lt "$n" ]; then
		echo "$bench_name: warning: $server answered $walk_n of $n" \
		    "requests of $(basename "$script") in $walk_s s" >&2
		cat "$out" >&2
		troubles+=("$server $(basename "$script"): $walk_n of $n" \
		    "requests answered in $walk_s s")
	fi
	if [ "$walk_errors" -gt 0 ]; then
		echo "$bench_name: warning: $walk_errors errors from $server" \
		    "in $(basename "$script") (see $out)" >&2
		troubles+=("$server $(basename "$script"): $walk_errors" \
		    "errors")
	fi
}

# warm SERVER PORT SCRIPT N [CONNS]: fetch the N URLs of a walk script
# once, so that the measured run only hits.
warm() {
	walk "$1" "$2" "$3" "$4" "${5:-10}"
	printf '  %-9s warmed %d URLs in %s s\n' "$1" "$4" "$walk_s"
}

# transfer_bytes FILE: wrk's Transfer/sec in bytes/s (its units are
# powers of 1024).
transfer_bytes() {
	awk '$1 == "Transfer/sec:" {
		v = $2 + 0; u = $2; sub(/^[0-9.]+/, "", u)
		m = 1
		if (u == "KB") m = 1024; else if (u == "MB") m = 1048576
		else if (u == "GB") m = 1073741824
		else if (u == "TB") m = 1099511627776
		printf "%.0f", v * m; found = 1 }
	    END { if (!found) print 0 }' "$1"
}

# The throughput scenarios against one proxy, started once.
run_throughput() {
	local server=$1
	start_proxy "$server" "$server-hit" 256M
	local pid=$proxy_pid port=$proxy_port
	if selected hit || selected hit-close; then
		warm "$server" "$port" "$walk_hit" "$hit_urls"
		# Threads and connections, as in run.sh.
		pin "$client_cpu"
		"${PIN[@]}" timeout 30 wrk -t1 -c"$connections" -d1s \
		    -s "$cycle_hit" "http://127.0.0.1:$port/" >/dev/null \
		    2>&1 || true
	fi
	if selected hit; then
		measure "$server" "$pid" "$port" hit /h/1 -s "$cycle_hit"
		child_restarted "$server" hit || true
	fi
	if selected hit-close; then
		measure "$server" "$pid" "$port" hit-close /h/1 \
		    -s "$cycle_hit" -H 'Connection: close'
		child_restarted "$server" hit-close || true
	fi
	if selected hit-1m; then
		warm "$server" "$port" "$walk_big" "$big_urls" 1
		measure "$server" "$pid" "$port" hit-1m /m/1 -s "$cycle_big"
		bytes_s[$server]=$(transfer_bytes \
		    "$tmp/wrk-$server-hit-1m.txt")
		bytes_runs+=("$server ${bytes_s[$server]}")
		awk -v b="${bytes_s[$server]}" 'BEGIN {
		    printf "  %-9s %-14s %10.1f MB/s\n", "", "", b / 1048576 }'
		child_restarted "$server" hit-1m || true
	fi
	if selected vary400; then
		# One connection: each variant is fetched once, in turn.
		warm "$server" "$port" "$walk_vary" \
		    $((vary_names * vary_values)) 1
		measure "$server" "$pid" "$port" vary400 /vary/1 \
		    -s "$random_vary" --timeout 10s
		child_restarted "$server" vary400 || true
	fi
	echo "  $server counters: $(counters "$server" "$proxy_work" \
	    MAIN.cache_hit MAIN.cache_miss MAIN.n_object MAIN.n_vary)"
	stop_server "$pid"
}

# warm_threads PORT: two seconds of passed requests (a cookie) at the
# measured concurrency, so that the "empty" size already has the
# threads, workspaces and buffers serving that load takes, which do not
# depend on how much is cached.
warm_threads() {
	pin "$client_cpu"
	"${PIN[@]}" timeout 30 wrk -t1 -c"$connections" -d2s \
	    -H 'Cookie: warm=1' "http://127.0.0.1:$1/tiny/0" >/dev/null \
	    2>&1 || true
	sleep 1
}

# run_mem_objects SERVER: fill a fresh proxy with objects_n 1 KB objects.
run_mem_objects() {
	local server=$1 child e0 a0 e1 a1
	start_proxy "$server" "$server-objects" "$objects_store"
	child=$proxy_child
	warm_threads "$proxy_port"
	e0=$(mem_kb "$child" VmRSS) a0=$(mem_kb "$child" RssAnon)
	walk "$server" "$proxy_port" "$walk_objects" "$objects_n" \
	    "$connections"
	sleep 1
	if child_restarted "$server" mem-objects; then
		stop_server "$proxy_pid"
		return 0
	fi
	e1=$(mem_kb "$child" VmRSS) a1=$(mem_kb "$child" RssAnon)
	mem[$server,obj_empty]=$e0 mem[$server,obj_full]=$e1
	mem[$server,obj_anon0]=$a0 mem[$server,obj_anon1]=$a1
	mem[$server,obj_n]=$walk_n mem[$server,obj_s]=$walk_s
	mem[$server,obj_err]=$walk_errors
	mem[$server,obj_counters]=$(counters "$server" "$proxy_work" \
	    MAIN.n_object MAIN.cache_miss MAIN.n_lru_nuked 'SMA.*.g_bytes')
	awk -v s="$server" -v n="$objects_n" -v e0="$e0" -v e1="$e1" \
	    -v a0="$a0" -v a1="$a1" -v t="$walk_s" 'BEGIN {
		printf "  %-9s %d objects in %s s: VmRSS %.1f -> %.1f MB " \
		    "(%.0f B/object), RssAnon %.1f -> %.1f MB\n", s, n, t,
		    e0 / 1024, e1 / 1024, (e1 - e0) * 1024 / n,
		    a0 / 1024, a1 / 1024 }'
	echo "  $server counters: ${mem[$server,obj_counters]}"
	stop_server "$proxy_pid"
}

# run_mem_promise SERVER: promise_n 100-byte objects through a fresh
# proxy with promise_store of storage, its child's RSS polled.
run_mem_promise() {
	local server=$1 child e0 a0 e1 a1 poll_pid poll=$tmp/rss-$1.txt
	local hits conf i last
	start_proxy "$server" "$server-promise" "$promise_store"
	child=$proxy_child
	warm_threads "$proxy_port"
	e0=$(mem_kb "$child" VmRSS) a0=$(mem_kb "$child" RssAnon)
	# The poller: "VmRSS RssAnon" in kB every 0.5 s.
	(
		while [ -r "/proc/$child/status" ]; do
			awk '$1 == "VmRSS:" { r = $2 } $1 == "RssAnon:" {
			    a = $2 } END { print r + 0, a + 0 }' \
			    "/proc/$child/status" 2>/dev/null || true
			sleep 0.5
		done
	) >"$poll" &
	poll_pid=$!
	pids+=("$poll_pid")
	walk "$server" "$proxy_port" "$walk_promise" "$promise_n" \
	    "$connections"
	sleep 1
	if child_restarted "$server" mem-promise; then
		stop_server "$poll_pid"
		stop_server "$proxy_pid"
		return 0
	fi
	e1=$(mem_kb "$child" VmRSS) a1=$(mem_kb "$child" RssAnon)
	echo "$e1 $a1" >>"$poll"
	stop_server "$poll_pid"
	# The last 100 URLs fetched must now be hits: veneerd says so in
	# Cache-Status, varnishd with two transaction ids in X-Varnish.
	# (If the walk did not finish, the last 100 well behind its end.)
	conf=$tmp/hits-$server.curl
	last=$promise_n
	[ "$walk_n" -ge "$promise_n" ] || last=$((walk_n - connections))
	[ "$last" -ge 100 ] || last=100
	for i in $(seq $((last - 99)) "$last"); do
		echo "url = \"http://127.0.0.1:$proxy_port/tiny/$i\""
		echo "output = \"/dev/null\""
	done >"$conf"
	hits=$(curl -s -K "$conf" -w '%{http_code}|%header{cache-status}|%header{x-varnish}\n' |
	    tee "$tmp/hits-$server.txt" | awk -F'|' '$1 == 200 &&
	    ($2 ~ /; hit/ || $3 ~ /^[0-9]+ [0-9]+$/) { n++ }
	    END { print n + 0 }')
	mem[$server,p_empty]=$e0 mem[$server,p_end]=$e1
	mem[$server,p_anon0]=$a0 mem[$server,p_anon1]=$a1
	mem[$server,p_peak]=$(awk '$1 > m { m = $1 } END { print m + 0 }' \
	    "$poll")
	mem[$server,p_apeak]=$(awk '$2 > m { m = $2 } END { print m + 0 }' \
	    "$poll")
	mem[$server,p_hwm]=$(mem_kb "$child" VmHWM)
	mem[$server,p_n]=$walk_n mem[$server,p_s]=$walk_s
	mem[$server,p_err]=$walk_errors mem[$server,p_hits]=$hits
	mem[$server,p_counters]=$(counters "$server" "$proxy_work" \
	    MAIN.n_object MAIN.cache_hit MAIN.cache_miss MAIN.n_lru_nuked \
	    'SMA.*.g_bytes' 'SMA.*.c_fail')
	printf '  %-9s %d objects in %s s: VmRSS %.1f MB empty, %.1f MB' \
	    "$server" "$promise_n" "$walk_s" "$(awk -v k="$e0" \
	    'BEGIN { print k / 1024 }')" "$(awk -v k="$e1" \
	    'BEGIN { print k / 1024 }')"
	awk -v p="${mem[$server,p_peak]}" 'BEGIN {
	    printf " at the end, %.1f MB at most;", p / 1024 }'
	echo " $hits/100 of the last URLs hit"
	echo "  $server counters: ${mem[$server,p_counters]}"
	stop_server "$proxy_pid"
}

#--------------------------------------------------------------------
# The report.

# verdict OK: "met" or "MISSED".
verdict() {
	if [ "$1" = 1 ]; then echo met; else echo MISSED; fi
}

print_throughput() {
	local line server scenario rps p99 cpu pct err b
	local -A rps_of=() p99_of=() cpu_of=() err_of=()
	[ ${#results[@]} -gt 0 ] || return 0
	echo
	printf '%-9s %-10s %12s %10s %12s %6s %7s %10s\n' server scenario \
	    'req/s' 'p99 ms' 'cpu us/req' 'cpu%' errors 'MB/s'
	for line in "${results[@]}"; do
		read -r server scenario rps p99 cpu pct err <<<"$line"
		printf '%-9s %-10s %12s %10s %12s %6s %7s\n' "$server" \
		    "$scenario" "$rps" "$p99" "$cpu" "$pct" "$err"
	done
	# Each server's median over the rounds, for the verdicts.
	for server in "${servers[@]}"; do
		for scenario in hit hit-close hit-1m vary400; do
			rps_of[$server,$scenario]=$(run_median "$server" \
			    "$scenario" 3)
			[ -n "${rps_of[$server,$scenario]}" ] || continue
			p99_of[$server,$scenario]=$(run_median "$server" \
			    "$scenario" 4)
			cpu_of[$server,$scenario]=$(run_median "$server" \
			    "$scenario" 5)
			err_of[$server,$scenario]=$(run_median "$server" \
			    "$scenario" 7)
		done
		b=$(printf '%s\n' "${bytes_runs[@]}" | awk -v s="$server" \
		    '$1 == s { print $2 }' | median)
		[ -z "$b" ] || bytes_s[$server]=$b
		[ -z "$b" ] || awk -v s="$server" -v b="$b" 'BEGIN {
		    printf "%-9s %-10s %64.1f MB/s\n", s, "hit-1m",
		    b / 1048576 }'
	done
	[ "$with_varnish" = yes ] || return 0
	echo
	echo "veneerd / varnishd, against issue #5's targets" \
	    "(medians of $rounds round(s)):"
	for scenario in hit hit-close hit-1m vary400; do
		if [ -z "${rps_of[veneerd,$scenario]:-}" ] ||
		    [ -z "${rps_of[varnishd,$scenario]:-}" ]; then
			continue
		fi
		awk -v s="$scenario" -v vr="${rps_of[veneerd,$scenario]}" \
		    -v nr="${rps_of[varnishd,$scenario]}" \
		    -v vc="${cpu_of[veneerd,$scenario]}" \
		    -v nc="${cpu_of[varnishd,$scenario]}" \
		    -v vp="${p99_of[veneerd,$scenario]}" \
		    -v np="${p99_of[varnishd,$scenario]}" \
		    -v vb="${bytes_s[veneerd]:-0}" \
		    -v nb="${bytes_s[varnishd]:-0}" \
		    -v ve="${err_of[veneerd,$scenario]}" 'BEGIN {
			r = nr > 0 ? vr / nr : 0; c = nc > 0 ? vc / nc : 0
			printf "  %-10s req/s %6.2fx  cpu/req %5.2fx  " \
			    "p99 %s vs %s ms\n  %-10s ", s, r, c, vp, np, ""
			if (s == "hit")
				printf("req/s >= 1.5: %s, cpu/req <= " \
				    "0.67: %s, p99 lower: %s\n",
				    (r >= 1.5 ? "met" : "MISSED"),
				    (c <= 2 / 3 ? "met" : "MISSED"),
				    (vp + 0 < np + 0 ? "met" : "MISSED"))
			else if (s == "hit-close")
				printf("cpu/req <= 1: %s\n",
				    (c <= 1 ? "met" : "MISSED"))
			else if (s == "hit-1m") {
				b = nb > 0 ? vb / nb : 0
				printf("bytes/s %.2fx >= 1: %s\n", b,
				    (b >= 1 ? "met" : "MISSED"))
			} else
				printf("req/s >= 8: %s, veneerd " \
				    "errors %d\n", (r >= 8 ? "met" : "MISSED"),
				    ve)
		}'
	done
}

print_mem_objects() {
	local server
	echo
	echo "mem-objects: $objects_n objects of 1 KB, -s" \
	    "malloc,$objects_store (MB; B/obj = growth / objects - 1024)"
	printf '%-9s %9s %9s %9s %9s %9s %10s %7s %6s\n' server \
	    'RSS empty' 'RSS full' 'B/obj RSS' 'anon empt' 'anon full' \
	    'B/obj anon' seconds errors
	for server in "$@"; do
		awk -v s="$server" -v n="$objects_n" \
		    -v e0="${mem[$server,obj_empty]}" \
		    -v e1="${mem[$server,obj_full]}" \
		    -v a0="${mem[$server,obj_anon0]}" \
		    -v a1="${mem[$server,obj_anon1]}" \
		    -v t="${mem[$server,obj_s]}" \
		    -v err="${mem[$server,obj_err]}" 'BEGIN {
			printf "%-9s %9.1f %9.1f %9.0f %9.1f %9.1f %10.0f " \
			    "%7s %6d\n", s, e0 / 1024, e1 / 1024,
			    (e1 - e0) * 1024 / n - 1024, a0 / 1024,
			    a1 / 1024, (a1 - a0) * 1024 / n - 1024, t, err }'
	done
	[ -n "${mem[veneerd,obj_full]:-}" ] &&
	    [ -n "${mem[varnishd,obj_full]:-}" ] || return 0
	awk -v n="$objects_n" \
	    -v v0="${mem[veneerd,obj_empty]}" \
	    -v v1="${mem[veneerd,obj_full]}" \
	    -v w0="${mem[varnishd,obj_empty]}" \
	    -v w1="${mem[varnishd,obj_full]}" \
	    -v va0="${mem[veneerd,obj_anon0]}" \
	    -v va1="${mem[veneerd,obj_anon1]}" \
	    -v wa0="${mem[varnishd,obj_anon0]}" \
	    -v wa1="${mem[varnishd,obj_anon1]}" 'BEGIN {
		v = (v1 - v0) * 1024 / n - 1024
		w = (w1 - w0) * 1024 / n - 1024
		va = (va1 - va0) * 1024 / n - 1024
		wa = (wa1 - wa0) * 1024 / n - 1024
		r = 0; if (w > 0) r = v / w
		ra = 0; if (wa > 0) ra = va / wa
		printf "veneerd / varnishd overhead per object: %.2fx by " \
		    "VmRSS (%s), %.2fx by RssAnon (%s); target <= 0.5\n",
		    r, (w > 0 && r <= 0.5) ? "met" : "MISSED",
		    ra, (wa > 0 && ra <= 0.5) ? "met" : "MISSED" }'
}

print_mem_promise() {
	local server lim alim ok aok
	echo
	echo "mem-promise: $promise_n objects of 100 B through -s" \
	    "malloc,$promise_store (MB; limit = empty + $promise_mb MB" \
	    "+ 10% of it)"
	printf '%-9s %9s %9s %9s %9s %9s %9s %9s %8s %7s %6s\n' server \
	    'RSS empty' 'RSS end' 'RSS peak' 'VmHWM' 'anon empt' 'anon peak' \
	    'limit+' 'last hit' seconds errors
	for server in "$@"; do
		awk -v s="$server" -v e0="${mem[$server,p_empty]}" \
		    -v e1="${mem[$server,p_end]}" \
		    -v p="${mem[$server,p_peak]}" \
		    -v h="${mem[$server,p_hwm]}" \
		    -v a0="${mem[$server,p_anon0]}" \
		    -v ap="${mem[$server,p_apeak]}" \
		    -v lim="$((promise_mb * 1024 * 11 / 10))" \
		    -v hits="${mem[$server,p_hits]}" \
		    -v t="${mem[$server,p_s]}" \
		    -v err="${mem[$server,p_err]}" 'BEGIN {
			printf "%-9s %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f " \
			    "%9.1f %4d/100 %7s %6d\n", s, e0 / 1024,
			    e1 / 1024, p / 1024, h / 1024, a0 / 1024,
			    ap / 1024, lim / 1024, hits, t, err }'
	done
	for server in "$@"; do
		lim=$((mem[$server,p_empty] + promise_mb * 1024 * 11 / 10))
		alim=$((mem[$server,p_anon0] + promise_mb * 1024 * 11 / 10))
		ok=0 aok=0
		[ "${mem[$server,p_peak]}" -lt "$lim" ] && ok=1
		[ "${mem[$server,p_apeak]}" -lt "$alim" ] && aok=1
		awk -v s="$server" -v p="${mem[$server,p_peak]}" \
		    -v l="$lim" -v ap="${mem[$server,p_apeak]}" \
		    -v al="$alim" -v ok="$(verdict "$ok")" \
		    -v aok="$(verdict "$aok")" \
		    -v hits="${mem[$server,p_hits]}" 'BEGIN {
			printf "%s: peak VmRSS %.1f MB < %.1f: %s; peak " \
			    "RssAnon %.1f MB < %.1f: %s; last URLs hit: " \
			    "%s\n", s, p / 1024, l / 1024, ok, ap / 1024,
			    al / 1024, aok, hits == 100 ? "met" : "MISSED" }'
	done
}

print_mem() {
	local server o=() p=()
	for server in "${mem_servers[@]}"; do
		[ -z "${mem[$server,obj_full]:-}" ] || o+=("$server")
		[ -z "${mem[$server,p_end]:-}" ] || p+=("$server")
	done
	[ ${#o[@]} -eq 0 ] || print_mem_objects "${o[@]}"
	[ ${#p[@]} -eq 0 ] || print_mem_promise "${p[@]}"
	[ ${#o[@]} -eq 0 ] && [ ${#p[@]} -eq 0 ] && return 0
	echo "(VmRSS counts the pages of the shared-memory log, vsl_space;" \
	    "RssAnon leaves them out)"
}

#--------------------------------------------------------------------
# Main.

servers=(veneerd)
[ "$with_varnish" = yes ] && servers+=(varnishd)
walk_hit=$(lua_script urls walk "$hit_urls" /h/)
cycle_hit=$(lua_script urls cycle "$hit_urls" /h/)
walk_big=$(lua_script urls walk "$big_urls" /m/)
cycle_big=$(lua_script urls cycle "$big_urls" /m/)
walk_vary=$(lua_script vary walk $((vary_names * vary_values)))
random_vary=$(lua_script vary random $((vary_names * vary_values)))
walk_objects=$(lua_script urls walk "$objects_n" /obj/)
walk_promise=$(lua_script urls walk "$promise_n" /tiny/)

timed=0
for s in hit hit-close hit-1m vary400; do
	selected "$s" && timed=$((timed + duration + 2))
done
estimate=$((timed + 5))
selected mem-objects && estimate=$((estimate + 20))
selected mem-promise && estimate=$((estimate + 75))
estimate=$((estimate + timed * (rounds - 1)))
echo "cache.sh: ${scenarios[*]}; ${duration}s runs with $connections" \
    "connections, ${#servers[@]} server(s): about" \
    "$((estimate * ${#servers[@]})) s"
if [ -z "$proxy_cpu" ]; then
	echo "cache.sh: warning: one CPU only; nothing is pinned and the" \
	    "proxy shares its core with wrk and nginx" >&2
fi

start_nginx
if selected hit || selected hit-close || selected hit-1m ||
    selected vary400; then
	for round in $(seq "$rounds"); do
		[ "$rounds" -eq 1 ] || echo "round $round of $rounds"
		for server in "${servers[@]}"; do
			run_throughput "$server"
		done
	done
fi
for server in "${servers[@]}"; do
	mem_servers+=("$server")
	if selected mem-objects; then
		run_mem_objects "$server"
	fi
	if selected mem-promise; then
		run_mem_promise "$server"
	fi
done
print_throughput
print_mem
if [ ${#troubles[@]} -gt 0 ]; then
	echo
	echo "Trouble (the numbers above are not to be trusted):"
	printf '  %s\n' "${troubles[@]}"
	exit 1
fi

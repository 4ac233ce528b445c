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
# shellcheck source=tools/bench/lib.sh
. "$root/tools/bench/lib.sh"

bench_name=run.sh
bench_traps
bench_cpus

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
	bench_find_veneerd
fi

bench_tmp

# -F: foreground, so our pid is the manager's; -j none: no user switch,
# it runs like veneerd (lib.sh); thread_pools=1: one core.
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

# run_scenarios SERVER PID PORT: every scenario against one server.
# Every request carries a Cookie, which veneerd's builtin policy (like
# Varnish's builtin.vcl) passes to the backend: this measures proxying,
# tools/bench/cache.sh measures the cache.
run_scenarios() {
	local server=$1 pid=$2 port=$3 c='Cookie: bench=pass'
	# A short unmeasured run warms up threads and connections.
	pin "$client_cpu"
	"${PIN[@]}" timeout 30 wrk -t1 -c"$connections" -d1s -H "$c" \
	    "http://127.0.0.1:$port/1k.bin" >/dev/null 2>&1 || true
	measure "$server" "$pid" "$port" keep-alive /1k.bin -H "$c"
	measure "$server" "$pid" "$port" close /1k.bin \
	    -H 'Connection: close' -H "$c"
	if [ "$large" = yes ]; then
		measure "$server" "$pid" "$port" keep-alive-100k /100k.bin \
		    -H "$c"
		measure "$server" "$pid" "$port" close-100k /100k.bin \
		    -H 'Connection: close' -H "$c"
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
	start_veneerd veneerd
	[ "$with_varnish" = yes ] && start_varnishd
	run_scenarios veneerd "$veneerd_pid" "$veneerd_port"
	if [ "$with_varnish" = yes ]; then
		run_scenarios varnishd "$varnish_pid" "$varnish_port"
	fi
fi
print_table

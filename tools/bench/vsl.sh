#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# vsl.sh -- what the shared-memory log costs, on loopback: wrk -> veneerd
# -> nginx, keep-alive, every request passed to nginx (1 KB file).
#
# Three configurations, measured in turn for --rounds rounds so that
# drift hits them alike; the table gives each one's median:
#
#   full      veneerd with the default vsl_mask (what ships)
#   masked    a second veneerd with vsl_mask=-* (nothing logged)
#   readers   the first veneerd with --readers log readers following its
#             log (veneerlog from build/ if it exists, else Debian's
#             varnishlog), their output to /dev/null
#
# Targets (issue #4): full logging costs under 10% of the masked
# throughput; the readers cost under 3% of the full one.  veneerd is
# pinned to core 0 and wrk to core 1, as in run.sh; the readers get a
# core of their own when there are 4, else they share wrk's, which makes
# their cost look bigger than it is (see the CPU time per request, which
# counts veneerd's own work only).
#
# Everything it starts is killed by pid when it exits; it touches no
# system service and no system configuration.

set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/bench/vsl.sh [options]

Cost of veneerd's shared-memory log on loopback, with wrk and nginx:
full logging vs every tag masked, and with log readers attached.

  --duration S       seconds per measured run (default 5)
  --rounds N         runs of each configuration, interleaved (default 3)
  --connections N    wrk connections (default 50)
  --readers N        log readers in the readers configuration (default 4)
  --reader PROG      the reader: veneerlog or varnishlog (default
                     build/veneerlog if it exists, else varnishlog)
  --reader-nice N    run the readers at this nice level (default 0)
  --mask SPEC        vsl_mask of the masked configuration (default -*,
                     nothing logged; -Timestamp tells what one tag costs)
  --on-disk          put veneerd's workdirs (and so its log) in the
                     temporary directory under /tmp instead of in
                     /dev/shm (tmpfs, the usual place for a workdir)
  --veneerd PATH     the veneerd to measure (default build/veneerd,
                     built first if missing)
  --no-install       do not install missing Debian packages
  --keep             keep the temporary directory (logs, configs)
  -h, --help         show this help

Packages it installs when missing (as root): wrk, nginx-light, curl.
Debian's varnishlog is used from PATH, or unpacked from the varnish
package into build/varnish-tools (never installed), as tools/test.sh
does.
USAGE
}

duration=5
rounds=3
connections=50
nreaders=4
reader=""
reader_nice=0
mask='-*'
on_disk=no
veneerd=""
install=yes
keep=no

need_arg() {
	if [ "$2" -lt 2 ]; then
		echo "vsl.sh: $1 needs a value" >&2
		exit 2
	fi
}

# whole NAME VALUE MIN MAX: exit unless VALUE is a whole number in range.
whole() {
	case $2 in
	''|*[!0-9]*)	;;
	*)	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && return 0 ;;
	esac
	echo "vsl.sh: $1 takes a whole number from $3 to $4" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--duration)	need_arg "$1" $#; duration=$2; shift ;;
	--rounds)	need_arg "$1" $#; rounds=$2; shift ;;
	--connections)	need_arg "$1" $#; connections=$2; shift ;;
	--readers)	need_arg "$1" $#; nreaders=$2; shift ;;
	--reader)	need_arg "$1" $#; reader=$2; shift ;;
	--reader-nice)	need_arg "$1" $#; reader_nice=$2; shift ;;
	--mask)		need_arg "$1" $#; mask=$2; shift ;;
	--on-disk)	on_disk=yes ;;
	--veneerd)	need_arg "$1" $#; veneerd=$2; shift ;;
	--no-install)	install=no ;;
	--keep)		keep=yes ;;
	-h|--help)	usage; exit 0 ;;
	*)
		echo "vsl.sh: unknown option '$1'" >&2
		usage >&2
		exit 2 ;;
	esac
	shift
done
whole --duration "$duration" 1 600
whole --rounds "$rounds" 1 20
whole --connections "$connections" 1 10000
whole --readers "$nreaders" 1 64
whole --reader-nice "$reader_nice" 0 19
case $reader in
''|veneerlog|varnishlog)	;;
*)	echo "vsl.sh: --reader is veneerlog or varnishlog" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"
# shellcheck source=tools/lib/varnish.sh
. "$root/tools/lib/varnish.sh"
# shellcheck source=tools/bench/lib.sh
. "$root/tools/bench/lib.sh"

bench_name=vsl.sh
bench_traps
bench_cpus

#--------------------------------------------------------------------
# Set-up: packages, the reader, veneerd.

if [ "$install" = yes ]; then
	deps_install wrk "nginx-light|nginx-core|nginx-full|nginx-extras|nginx" \
	    curl procps || exit 1
fi
for cmd in wrk nginx curl taskset pgrep; do
	command -v "$cmd" >/dev/null 2>&1 ||
	    die "$cmd not found; install it or drop --no-install"
done
bench_find_veneerd

# The reader: argv prefix in READER (env for the library, the program),
# its name in reader.
READER=()
if [ -z "$reader" ] && [ -x "$root/build/veneerlog" ]; then
	reader=veneerlog
fi
if [ "$reader" = veneerlog ]; then
	[ -x "$root/build/veneerlog" ] ||
	    die "build/veneerlog is missing; build it or use --reader" \
	    "varnishlog"
	READER=("$root/build/veneerlog")
else
	reader=varnishlog
	varnish_tools_setup "$root/build" "$install" no
	[ -n "${VENEER_VARNISH_BIN:-}" ] ||
	    die "no log reader: neither build/veneerlog nor Debian's" \
	    "varnishlog (see the line above)"
	READER=(env "LD_LIBRARY_PATH=${VENEER_VARNISH_LIB:-}"
	    "$VENEER_VARNISH_BIN/varnishlog")
fi

# The readers' CPUs: a core of their own if there are 4, else the
# origin's (with 3), else the client's.
reader_cpu=$client_cpu
if [ "$ncpu" -ge 4 ]; then
	reader_cpu=3-$((ncpu - 1))
elif [ "$ncpu" -eq 3 ]; then
	reader_cpu=$origin_cpu
fi

bench_tmp
# The log is written at every request: on a disk the kernel keeps
# writing it back, which is not what is measured here.
if [ "$on_disk" = no ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	workdirs=$(mktemp -d /dev/shm/veneer-bench.XXXXXX)
fi

#--------------------------------------------------------------------
# Log readers.

reader_pids=()
reader_t0=0

# start_readers WORKDIR: nreaders readers following WORKDIR's log.
start_readers() {
	local i
	reader_pids=()
	pin "$reader_cpu"
	for i in $(seq "$nreaders"); do
		"${PIN[@]}" nice -n "$reader_nice" "${READER[@]}" -n "$1" \
		    >/dev/null 2>"$tmp/reader-$i.err" &
		reader_pids+=($!)
		pids+=($!)
	done
	reader_t0=$(date +%s%N)
}

# stop_readers: stop them, after saying how much CPU they used and
# whether one died meanwhile.  Varnish 7.1's readers abort when they fall
# a whole lap behind in the middle of a transaction (varnishd's log does
# that to them too): the run still counts, with fewer readers.
stop_readers() {
	local pid i=0 ticks=0 t1
	for pid in "${reader_pids[@]}"; do
		i=$((i + 1))
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "vsl.sh: warning: log reader $i ($reader) died" \
			    "while measured: $(grep -v -e '^Log overrun' \
			    -e '^Log reacquired' "$tmp/reader-$i.err" |
			    head -n 2 | tr '\n' ' ')" >&2
			continue
		fi
		ticks=$((ticks + $(proc_ticks "$pid")))
	done
	t1=$(date +%s%N)
	awk -v t="$ticks" -v hz="$clk_tck" -v ns=$((t1 - reader_t0)) \
	    -v n="$nreaders" 'BEGIN { printf "  (the %d readers used %.0f%% " \
	    "of a core together)\n", n, t / hz / (ns / 1e9) * 100 }'
	for pid in "${reader_pids[@]}"; do
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
}

# count_begins WORKDIR: Begin records the reader finds in WORKDIR's log
# with -d (what the ring still holds).
count_begins() {
	timeout 60 "${READER[@]}" -n "$1" -d -g raw -i Begin 2>/dev/null |
	    wc -l
}

#--------------------------------------------------------------------
# Measuring: measure (lib.sh) adds "config keep-alive rps p99 cpu_us
# cpu_pct errors" to results for each run.

clk_tck=$(getconf CLK_TCK)

# Every request carries a Cookie, so the builtin policy passes it to
# nginx: a pass logs a client and a backend transaction, the most log
# records per request.
pass_cookie='Cookie: bench=pass'

# warm PORT: a short unmeasured run (threads, connections, readers).
warm() {
	pin "$client_cpu"
	"${PIN[@]}" timeout 30 wrk -t1 -c"$connections" -d1s \
	    -H "$pass_cookie" "http://127.0.0.1:$1/1k.bin" >/dev/null 2>&1 ||
	    true
}

run_round() {
	warm "$full_port"
	measure full "$full_pid" "$full_port" keep-alive /1k.bin \
	    -H "$pass_cookie"
	warm "$masked_port"
	measure masked "$masked_pid" "$masked_port" keep-alive /1k.bin \
	    -H "$pass_cookie"
	start_readers "$full_work"
	warm "$full_port"
	measure readers "$full_pid" "$full_port" keep-alive /1k.bin \
	    -H "$pass_cookie"
	stop_readers
}

# median CONFIG FIELD: the median of a results field (3: req/s, 5: cpu
# us/req) over CONFIG's runs.
median() {
	printf '%s\n' "${results[@]}" |
	    awk -v c="$1" -v f="$2" '$1 == c { print $f }' | sort -g |
	    awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

print_table() {
	local c rps cpu base_rps base_cpu
	echo
	printf '%-9s %-34s %12s %12s %s\n' config what 'req/s' \
	    'cpu us/req' "(median of $rounds)"
	for c in full masked readers; do
		rps=$(median "$c" 3)
		cpu=$(median "$c" 5)
		case $c in
		full)	what="default vsl_mask" ;;
		masked)	what="vsl_mask=$mask" ;;
		readers) what="default vsl_mask, $nreaders ${reader}s" ;;
		esac
		printf '%-9s %-34s %12.0f %12.1f\n' "$c" "$what" "$rps" "$cpu"
	done
	echo
	base_rps=$(median masked 3) base_cpu=$(median masked 5)
	# The target is for everything masked; another mask is a probe.
	awk -v a="$(median full 3)" -v b="$base_rps" -v m="$mask" \
	    -v ca="$(median full 5)" -v cb="$base_cpu" 'BEGIN {
		cost = (b - a) / b * 100
		printf "full logging:  %5.1f%% of throughput (req/s %.3fx), " \
		    "cpu/req %+.1f%%", cost, a / b, (ca - cb) / cb * 100
		if (m == "-*")
			printf "; target under 10%%: %s\n",
			    cost < 10 ? "met" : "MISSED"
		else
			printf " (against vsl_mask=%s)\n", m }'
	base_rps=$(median full 3) base_cpu=$(median full 5)
	awk -v a="$(median readers 3)" -v b="$base_rps" \
	    -v ca="$(median readers 5)" -v cb="$base_cpu" -v n="$nreaders" \
	    'BEGIN {
		cost = (b - a) / b * 100
		printf "%d readers:     %5.1f%% of throughput (req/s %.3fx), " \
		    "cpu/req %+.1f%%; target under 3%%: %s\n", n, cost, a / b,
		    (ca - cb) / cb * 100, cost < 3 ? "met" : "MISSED" }'
}

echo "vsl.sh: $rounds rounds of 3 runs of ${duration}s with" \
    "$connections connections: about" \
    "$(( rounds * 3 * (duration + 2) + 5 )) s"
if [ -z "$proxy_cpu" ]; then
	echo "vsl.sh: warning: one CPU only; nothing is pinned and veneerd" \
	    "shares its core with wrk, nginx and the readers" >&2
elif [ "$ncpu" -lt 4 ]; then
	echo "vsl.sh: note: $ncpu CPUs; the readers run on core" \
	    "$reader_cpu with the load generator, so they slow wrk too"
fi

start_nginx
start_veneerd full
full_pid=$veneerd_pid full_port=$veneerd_port full_work=$veneerd_work
start_veneerd masked -p "vsl_mask=$mask"
masked_pid=$veneerd_pid masked_port=$veneerd_port
masked_work=$veneerd_work
echo "readers:  $nreaders x ${READER[-1]} -n $full_work" \
    ">/dev/null (cpu ${reader_cpu:-any})"

for round in $(seq "$rounds"); do
	echo "round $round of $rounds:"
	run_round
done

# The masked veneerd must have logged nothing, the full one plenty.
n_full=$(count_begins "$full_work")
n_masked=$(count_begins "$masked_work")
echo
echo "Begin records in the ring ($reader -d): full $n_full," \
    "masked $n_masked"
[ "$n_masked" -eq 0 ] || [ "$mask" != '-*' ] ||
    echo "vsl.sh: warning: vsl_mask=-* left $n_masked records" >&2
print_table

#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# vtc.sh -- run Varnish's own test harness, varnishtest (7.1), against
# veneerd: every .vtc file given (or every one in a directory matching the
# globs) runs with a `varnishd` on PATH that is veneerd, one varnishtest
# per file, N at a time.  Writes one log per test and results.tsv (test,
# passed|failed|skipped, seconds, the first failure line) into the output
# directory, and prints the totals and the commonest failure lines, which
# say what veneerd lacks.
#
# Varnish's test files are not part of Veneer: give the directory of a
# Varnish 7.1 source tree's bin/varnishtest/tests (a git checkout of tag
# varnish-7.1.1, or `apt-get source varnish`).  tests/vtc/ holds test files
# of our own in the same language, which make check runs.

set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/vtc.sh [-j N] [-t SECONDS] [-o OUTDIR] [--builddir DIR]
                    [--no-install] TESTDIR|FILE.vtc [GLOB...]

Run varnishtest against veneerd, one test file at a time.

  -j N            tests run at once (default: the number of CPUs)
  -t SECONDS      varnishtest's time limit per test (default 60)
  -o OUTDIR       logs and results.tsv go here (default: a new directory
                  under /tmp, printed)
  --builddir DIR  veneerd and the unpacked Varnish tools come from DIR
                  (default: build/)
  --no-install    do not fetch Debian's varnish package for varnishtest
  -q              print only the totals

With a directory, GLOBs (default '*') pick files by name, as 'b*' 'c*'.
The exit status is 0 when no test failed.
USAGE
}

jobs=$(nproc 2>/dev/null || echo 2)
tmo=60
out=""
builddir=""
install=yes
quiet=no
while [ $# -gt 0 ]; do
	case $1 in
	-j)	jobs=${2:?-j needs a number}; shift ;;
	-t)	tmo=${2:?-t needs seconds}; shift ;;
	-o)	out=${2:?-o needs a directory}; shift ;;
	--builddir) builddir=${2:?--builddir needs a directory}; shift ;;
	--no-install) install=no ;;
	-q)	quiet=yes ;;
	-h|--help) usage; exit 0 ;;
	-*)	echo "vtc.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	*)	break ;;
	esac
	shift
done
if [ $# -lt 1 ]; then
	echo "vtc.sh: give Varnish's bin/varnishtest/tests directory (or" \
	    ".vtc files)" >&2
	usage >&2
	exit 2
fi
case $jobs in ''|*[!0-9]*|0) echo "vtc.sh: -j $jobs: not a count" >&2; exit 2;; esac
case $tmo in ''|*[!0-9]*|0) echo "vtc.sh: -t $tmo: not seconds" >&2; exit 2;; esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
builddir=${builddir:-$root/build}
builddir=$(cd "$builddir" && pwd)
if [ ! -x "$builddir/veneerd" ]; then
	echo "vtc.sh: no $builddir/veneerd; build first (tools/test.sh)" >&2
	exit 2
fi
# shellcheck source=tools/lib/varnish.sh
. "$root/tools/lib/varnish.sh"
# As tools/test.sh left them for make check, or found (or fetched) here.
if [ -z "${VENEER_VARNISH_BIN:-}" ] ||
    [ ! -x "$VENEER_VARNISH_BIN/varnishtest" ]; then
	varnish_tools_setup "$builddir" "$install" no >&2
fi
vt=${VENEER_VARNISH_BIN:-}/varnishtest
if [ -z "${VENEER_VARNISH_BIN:-}" ] || [ ! -x "$vt" ]; then
	echo "vtc.sh: no varnishtest (Debian's varnish package could not" \
	    "be had)" >&2
	exit 2
fi

# The test files.
files=()
if [ -d "$1" ]; then
	dir=$1
	shift
	[ $# -gt 0 ] || set -- '*'
	for g in "$@"; do
		for f in "$dir"/$g.vtc "$dir"/$g; do
			case $f in *.vtc) [ -f "$f" ] && files+=("$f") ;; esac
		done
	done
else
	files=("$@")
fi
if [ ${#files[@]} -eq 0 ]; then
	echo "vtc.sh: no .vtc files there" >&2
	exit 2
fi
# Absolute: each varnishtest runs in /tmp.
mapfile -t files < <(for f in "${files[@]}"; do
	echo "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done | sort -u)

if [ -z "$out" ]; then
	out=$(mktemp -d /tmp/veneer-vtc.XXXXXX)
fi
mkdir -p "$out/bin"
# varnishtest runs "varnishd" from PATH: our shim, running this veneerd.
ln -sf "$root/tools/vtc-varnishd" "$out/bin/varnishd"
export VENEERD="$builddir/veneerd"
# The tests also run Varnish's varnishadm, varnishlog, varnishstat... on
# veneerd's shared memory: theirs, from the same place as varnishtest.
export PATH="$out/bin:$VENEER_VARNISH_BIN:$PATH"
if [ -n "${VENEER_VARNISH_LIB:-}" ]; then
	export LD_LIBRARY_PATH="$VENEER_VARNISH_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export VT="$vt" VT_TMO="$tmo" VT_OUT="$out"

# One test: its log, and a results line.
run_one() {
	local f=$1 name log t0 t1 res why
	name=$(basename "$f" .vtc)
	log=$VT_OUT/$name.log
	t0=$(date +%s.%N)
	(cd /tmp && timeout -k 5 $((VT_TMO + 30)) "$VT" -t "$VT_TMO" -v "$f") \
	    >"$log" 2>&1 || true
	t1=$(date +%s.%N)
	if grep -aq '^#  *top  *TEST .* passed' "$log"; then
		res=passed
	elif grep -aq '^#  *top  *TEST .* skipped' "$log"; then
		res=skipped
	else
		res=failed
	fi
	why=""
	if [ $res = failed ]; then
		why=$(grep -a -m1 -- '^---- ' "$log" | cut -c1-200 | tr '\t' ' ' ||
		    true)
		[ -n "$why" ] || why=$(grep -a -m1 'TEST .*\(FAILED\|TIMED OUT\)' \
		    "$log" | sed 's/.*TEST [^ ]* //' || true)
	fi
	printf '%s\t%s\t%s\t%s\n' "$name" "$res" \
	    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" \
	    "$why"
}
export -f run_one

[ $quiet = yes ] || echo "vtc.sh: ${#files[@]} tests, $jobs at a time," \
    "logs in $out" >&2
# shellcheck disable=SC2016  # $1 is for the inner bash
printf '%s\n' "${files[@]}" |
    xargs -d '\n' -P "$jobs" -I{} bash -c 'run_one "$1"' _ {} \
    >"$out/results.unsorted"
sort "$out/results.unsorted" >"$out/results.tsv"
rm -f "$out/results.unsorted"

npass=$(awk -F'\t' '$2 == "passed"' "$out/results.tsv" | wc -l)
nfail=$(awk -F'\t' '$2 == "failed"' "$out/results.tsv" | wc -l)
nskip=$(awk -F'\t' '$2 == "skipped"' "$out/results.tsv" | wc -l)
if [ $quiet = no ] && [ "$nfail" -gt 0 ]; then
	echo "commonest failures (the first '----' line, numbers masked):"
	awk -F'\t' '$2 == "failed" { print $4 }' "$out/results.tsv" |
	    sed -E 's/^---- +[a-z0-9_]+ +//; s/[0-9]+/N/g' |
	    sort | uniq -c | sort -rn | head -n 25
fi
echo "vtc.sh: ${#files[@]} tests: $npass passed, $nfail failed," \
    "$nskip skipped (results: $out/results.tsv)"
[ "$nfail" -eq 0 ]

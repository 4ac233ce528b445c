#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# test.sh -- build Veneer from a clean checkout and run every test, the way
# CI does (.ci/run calls it).  On a fresh Debian 12 machine, as root, it
# first installs the packages the build and the tests need.
#
# Phases: deps (apt, only if something is missing), autoreconf (only if
# configure is stale), configure (out of tree, only if needed), lint, build,
# varnish-tools (Debian's varnishlog & co. for the interoperability tests,
# unpacked into the build directory, never installed; never fails), check.
# Each prints its time; any failure stops the run with a non-zero status,
# and a failing test's log tail is printed so CI output shows why.

set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/test.sh [--asan] [--no-install] [--fetch-varnish]
                     [--builddir DIR] [-h]

Build Veneer out of tree and run `make check`.

  --asan           build with AddressSanitizer and UBSan (configure
                   --enable-asan) in build-asan/ instead of build/
  --no-install     do not install missing Debian packages with apt-get
                   (nor run apt-get update to fetch Varnish's tools)
  --fetch-varnish  test against Varnish's tools unpacked from the Debian
                   package into BUILDDIR/varnish-tools even when
                   varnishlog is on PATH
  --builddir DIR   build in DIR instead of build/ (or build-asan/)
  -h, --help       show this help

Run as root on Debian 12 to have missing packages installed.  The check
phase is stopped after VENEER_TEST_TIMEOUT seconds (default 600).

The interoperability tests run Debian's varnishlog, varnishncsa and
varnishstat (7.1) against veneerd.  The varnish package is never
installed (it would start a varnishd service): unless varnishlog is on
PATH, its .debs are fetched with apt-get download and unpacked with
dpkg -x into BUILDDIR/varnish-tools, kept for later runs.  When that
fails the run goes on and those tests are skipped.
USAGE
}

asan=no
install=yes
fetch_varnish=no
builddir=""
while [ $# -gt 0 ]; do
	case $1 in
	--asan)		asan=yes ;;
	--no-install)	install=no ;;
	--fetch-varnish) fetch_varnish=yes ;;
	--builddir)
		[ $# -ge 2 ] || { echo "test.sh: --builddir needs a" \
		    "directory" >&2; exit 2; }
		builddir=$2
		shift ;;
	--builddir=*)	builddir=${1#--builddir=} ;;
	-h|--help)	usage; exit 0 ;;
	*)
		echo "test.sh: unknown option '$1'" >&2
		usage >&2
		exit 2 ;;
	esac
	shift
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"
# shellcheck source=tools/lib/varnish.sh
. "$root/tools/lib/varnish.sh"

configure_args=()
if [ "$asan" = yes ]; then
	configure_args+=(--enable-asan)
	: "${builddir:=build-asan}"
	# Freed memory waits in ASan's quarantine (256 MB by default) before
	# it is reused: streaming tests that bound the child's growth would
	# see the quarantine, not veneerd.  16 MB still catches the
	# use-after-free of a recent free.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
fi
: "${builddir:=build}"
case $builddir in
/*)	;;
*)	builddir=$root/$builddir ;;
esac

# Files whose code must not call what STYLE.md bans.  vsprintf is banned
# with sprintf: it has the same unbounded write.
lint_banned() {
	local hits count f
	local -a scripts
	count=$(find src include tools tests -name '*.[ch]' 2>/dev/null |
	    wc -l)
	hits=$(find src include tools tests -name '*.[ch]' -print0 \
	    2>/dev/null | xargs -0 -r grep -nE \
	    '\b(strcpy|strcat|sprintf|vsprintf|strtok)[[:space:]]*\(' ||
	    true)
	if [ -n "$hits" ]; then
		echo "lint: banned functions (STYLE.md: use strlcpy or" \
		    "snprintf; strtok_r or a parser instead of strtok):" >&2
		printf '%s\n' "$hits" >&2
		return 1
	fi
	echo "lint: no banned functions in $count C files"
	if command -v shellcheck >/dev/null 2>&1; then
		scripts=(.ci/run)
		for f in tools/*.sh tools/lib/*.sh tools/bench/*.sh; do
			[ -f "$f" ] && scripts+=("$f")
		done
		shellcheck -x "${scripts[@]}" || return 1
		echo "lint: shellcheck clean"
	else
		echo "lint: shellcheck not installed, shell scripts not checked"
	fi
}

# One test opens 5,000 connections: give the tests as many descriptors as
# we may, capped at 65536 because some programs close every descriptor up
# to the limit when they start.
raise_nofile() {
	local want=65536 hard
	hard=$(ulimit -Hn)
	if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then
		ulimit -Hn "$want" 2>/dev/null || true
		hard=$(ulimit -Hn)
	fi
	if [ "$hard" = unlimited ] || [ "$hard" -gt "$want" ]; then
		hard=$want
	fi
	ulimit -n "$hard"
	echo "ulimit -n is $(ulimit -n)"
	if [ "$(ulimit -n)" -lt 10240 ]; then
		echo "warning: only $(ulimit -n) file descriptors; tests" \
		    "that open thousands of connections may fail" \
		    "(raise the hard limit: ulimit -Hn as root)" >&2
	fi
}

# check_tally: sum the results of this run's tests.  A test that is a
# Check runner counts its test cases ("Checks: N, Failures: F, Errors: E"
# in its log); any other test counts as one.  Prints failing tests' logs.
check_tally() {
	local trs log res line n f e k passed=0 failed=0 skipped=0
	local check_re='Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+'
	local -a bad=()
	while IFS= read -r trs; do
		log=${trs%.trs}.log
		n=0 f=0 e=0
		res=$(sed -n 's/^:test-result: *//p' "$trs" | sort -u |
		    tr '\n' ' ')
		line=$(grep -Eo "$check_re" "$log" 2>/dev/null |
		    tail -n 1 || true)
		if [ -n "$line" ]; then
			read -r n f e < <(tr -cs '0-9' ' ' <<<"$line")
			passed=$((passed + n - f - e))
			failed=$((failed + f + e))
		fi
		case $res in
		*FAIL*|*ERROR*|*XPASS*)
			bad+=("$log")
			# A runner whose cases passed but which still failed
			# (crash at exit, sanitizer report) counts once.
			if [ -z "$line" ] || [ $((f + e)) -eq 0 ]; then
				failed=$((failed + 1))
			fi ;;
		*SKIP*)
			# A runner whose cases ran but some could not set up
			# their precondition (HX_Skip) says how many; check
			# counted them as passed.
			k=$(sed -n 's/^Skipped: \([0-9][0-9]*\)$/\1/p' \
			    "$log" 2>/dev/null | tail -n 1)
			if [ -z "$line" ]; then
				skipped=$((skipped + 1))
			elif [ -n "$k" ]; then
				passed=$((passed - k))
				skipped=$((skipped + k))
			fi ;;
		*)
			[ -n "$line" ] || passed=$((passed + 1)) ;;
		esac
	done < <(find "$builddir" -name '*.trs' | sort)
	for log in "${bad[@]}"; do
		echo
		echo "----- ${log#"$builddir"/}: last 60 lines -----"
		tail -n 60 "$log" 2>/dev/null || echo "(no log)"
		echo "----- end of ${log#"$builddir"/} -----"
	done
	echo
	echo "check: $passed passed, $failed failed, $skipped skipped"
}

run_check() {
	local limit=${VENEER_TEST_TIMEOUT:-600} rc=0 log rule
	# Results left by an earlier run would be counted again.
	find "$builddir" -name '*.trs' -delete
	# timeout signals make's whole process group, tests included.
	timeout -k 30 "$limit" make -C "$builddir" -j"$(build_nproc)" check ||
	    rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "check: stopped after $limit s (VENEER_TEST_TIMEOUT);" \
		    "these tests had not finished:" >&2
		# The harness deletes a killed test's log, so name it only.
		# shellcheck disable=SC2016  # $(TEST_LOGS) is for make
		rule='veneer-test-logs:\n\t@echo $(TEST_LOGS)\n'
		for log in $(make -s -C "$builddir" -f Makefile \
		    -f <(printf '%b' "$rule") veneer-test-logs); do
			[ -f "$builddir/${log%.log}.trs" ] ||
			    echo "  ${log%.log}" >&2
		done
	fi
	check_tally
	return "$rc"
}

on_exit() {
	local rc=$?
	phase_summary
	if [ "$rc" -eq 0 ]; then
		echo "test.sh: all phases passed"
	else
		echo "test.sh: FAILED (status $rc)" >&2
	fi
}
trap on_exit EXIT

echo "test.sh: source $root, build in $builddir" \
    "(asan: $asan, install: $install)"
if [ "$install" = yes ]; then
	phase_run deps deps_install "${DEPS_BUILD[@]}" "${DEPS_TEST[@]}"
fi
phase_run autoreconf build_autoreconf "$root"
phase_run configure build_configure "$root" "$builddir" "${configure_args[@]}"
phase_run lint lint_banned
phase_run build build_make "$builddir"
phase_run varnish-tools varnish_tools_setup "$builddir" "$install" \
    "$fetch_varnish"
raise_nofile
phase_run check run_check

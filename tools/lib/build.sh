# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
#
# build.sh -- configure and build Veneer out of tree, redoing only what is
# stale.  Sourced by tools/test.sh, tools/quickstart.sh and
# tools/bench/run.sh; they share one way to build so that build/ made by
# one is reused by the others.  Also the per-phase timer they print.

# build_nproc: how many jobs make may run.
build_nproc() {
	nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2
}

# build_autoreconf SRCDIR: run autoreconf -fi when configure is missing or
# older than what it is made from.  A fresh clone has no configure (it is
# generated, never committed).
build_autoreconf() {
	local src=$1 why="" f
	if [ ! -x "$src/configure" ]; then
		why="configure is missing"
	elif [ ! -f "$src/Makefile.in" ] || [ ! -f "$src/config.h.in" ]; then
		why="Makefile.in or config.h.in is missing"
	else
		while IFS= read -r f; do
			if [ "$f" -nt "$src/configure" ]; then
				why="${f#"$src"/} is newer than configure"
				break
			fi
		done < <(printf '%s\n' "$src/configure.ac" "$src/Makefile.am"
		    find "$src" -mindepth 1 \( -path "$src/build*" -o \
		    -path "$src/.git" -o -path "$src/autom4te.cache" \) \
		    -prune -o -name Makefile.inc -print)
	fi
	if [ -z "$why" ]; then
		echo "autoreconf: configure is up to date, skipped"
		return 0
	fi
	if ! command -v autoreconf >/dev/null 2>&1; then
		echo "autoreconf: not found; install the Debian packages" \
		    "autoconf automake libtool" >&2
		return 1
	fi
	echo "autoreconf: $why"
	(cd "$src" && autoreconf -fi)
}

# build_configure SRCDIR BUILDDIR [CONFIGURE-ARGS...]: configure in
# BUILDDIR unless it is already configured with these arguments by the
# current configure.
build_configure() {
	local src=$1 dir=$2 want have
	shift 2
	if [ -f "$src/config.status" ]; then
		echo "configure: $src was configured in place, which stops" \
		    "out-of-tree builds; run 'make distclean' there first" >&2
		return 1
	fi
	want=""
	if [ $# -gt 0 ]; then
		want=$(printf "'%s' " "$@")
		want=${want% }
	fi
	if [ -f "$dir/Makefile" ] && [ -x "$dir/config.status" ] &&
	    [ ! "$src/configure" -nt "$dir/config.status" ]; then
		have=$("$dir/config.status" --config)
		if [ "$have" = "$want" ]; then
			echo "configure: $dir is up to date, skipped"
			return 0
		fi
		echo "configure: $dir was configured with [$have]," \
		    "reconfiguring with [$want]"
	fi
	mkdir -p "$dir"
	echo "configure: $src/configure $*  (output in $dir/configure.out)"
	if ! (cd "$dir" && "$src/configure" "$@") >"$dir/configure.out" 2>&1
	then
		tail -n 25 "$dir/configure.out" >&2
		echo "configure: failed; see $dir/configure.out and" \
		    "$dir/config.log" >&2
		return 1
	fi
	tail -n 1 "$dir/configure.out"
}

# build_make BUILDDIR [TARGETS...]: make with one job per core.
build_make() {
	local dir=$1
	shift
	make -C "$dir" -j"$(build_nproc)" "$@"
}

# Phase timing: phase_run NAME COMMAND... runs COMMAND, prints how long it
# took and remembers it for phase_summary.  Returns COMMAND's status.
PHASE_NAMES=()
PHASE_TIMES=()

phase_run() {
	local name=$1 start end rc=0 secs
	shift
	echo
	echo "=== $name"
	start=$(date +%s%N)
	"$@" || rc=$?
	end=$(date +%s%N)
	secs=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')
	PHASE_NAMES+=("$name")
	PHASE_TIMES+=("$secs")
	if [ "$rc" -eq 0 ]; then
		echo "=== $name: done in ${secs} s"
	else
		echo "=== $name: FAILED (status $rc) after ${secs} s" >&2
	fi
	return "$rc"
}

# phase_summary: one line per phase run so far.
phase_summary() {
	local i
	[ ${#PHASE_NAMES[@]} -gt 0 ] || return 0
	echo
	echo "phase times:"
	for i in "${!PHASE_NAMES[@]}"; do
		printf '  %-12s %8s s\n' "${PHASE_NAMES[$i]}" \
		    "${PHASE_TIMES[$i]}"
	done
}

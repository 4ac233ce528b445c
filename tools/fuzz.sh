#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# fuzz.sh -- build the fuzz targets of tests/fuzz with clang, libFuzzer,
# AddressSanitizer and UBSan (in build-fuzz/), and fuzz one or all of them
# for a while each.  Seeds come from tests/fuzz/corpus/<target>/ and
# tests/fuzz/crashes/<target>/ (read only); what libFuzzer finds goes to
# build-fuzz/run/, never into the source tree.  make check replays the
# saved inputs without clang (tests/fuzz/Makefile.inc); this script is the
# only place that fuzzes.

set -euo pipefail

TARGETS=(h1_request h1_response chunked vary lookup_key vsm_reader vsl_query
    ncsa_format param storage_arg listen_arg vcc relit cli ban_expr xkey esi
    gunzip blob proxy_recv)
# Debian 12's clang 14 and its runtime (libFuzzer, the sanitizers).
DEPS_FUZZ=(clang-14 libclang-rt-14-dev)
CLANG=clang-14

usage() {
	cat <<USAGE
usage: tools/fuzz.sh [TARGET...] [--time SECONDS] [--no-install] [-h]

Build the fuzz targets with clang -fsanitize=fuzzer,address,undefined in
build-fuzz/ and run each TARGET (default: all, in this order) for SECONDS
(default 60) with its saved inputs as seeds.

Targets: ${TARGETS[*]}

  --time SECONDS   how long to fuzz each target
  --no-install     do not install clang with apt-get when it is missing
  -h, --help       show this help

For each target the last cov:/ft:/corp: line is printed.  New inputs go
to build-fuzz/run/corpus/TARGET, crash inputs to build-fuzz/run/crash/
TARGET; the exit status is non-zero if any target crashed, leaked or
tripped UBSan, and the crash input is named with how to keep it.  Run it
with nice on a shared machine: it keeps one core busy.
USAGE
}

time_each=60
install=yes
want=()
while [ $# -gt 0 ]; do
	case $1 in
	--time)
		[ $# -ge 2 ] || { echo "fuzz.sh: --time needs seconds" >&2
		    exit 2; }
		time_each=$2
		shift ;;
	--time=*)	time_each=${1#--time=} ;;
	--no-install)	install=no ;;
	-h|--help)	usage; exit 0 ;;
	-*)
		echo "fuzz.sh: unknown option '$1'" >&2
		usage >&2
		exit 2 ;;
	*)	want+=("$1") ;;
	esac
	shift
done
case $time_each in
''|*[!0-9]*|0)
	echo "fuzz.sh: --time wants a whole number of seconds above 0," \
	    "not '$time_each'" >&2
	exit 2 ;;
esac
if [ ${#want[@]} -eq 0 ]; then
	want=("${TARGETS[@]}")
fi
for t in "${want[@]}"; do
	case " ${TARGETS[*]} " in
	*" $t "*) ;;
	*)
		echo "fuzz.sh: no target '$t'; the targets are:" \
		    "${TARGETS[*]}" >&2
		exit 2 ;;
	esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
# shellcheck source=tools/lib/deps.sh
. "$root/tools/lib/deps.sh"
# shellcheck source=tools/lib/build.sh
. "$root/tools/lib/build.sh"

bdir=$root/build-fuzz
run=$bdir/run

# clang and libFuzzer: the build's own packages too, for configure.
if [ "$install" = yes ]; then
	deps_install "${DEPS_BUILD[@]}" "${DEPS_FUZZ[@]}" || true
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
cat >"$probe/p.c" <<'PROBE'
int LLVMFuzzerTestOneInput(const char *d, unsigned long n)
{ (void)d; (void)n; return 0; }
PROBE
if ! command -v "$CLANG" >/dev/null 2>&1 ||
    ! "$CLANG" -fsanitize=fuzzer,address,undefined "$probe/p.c" \
    -o "$probe/p" >"$probe/err" 2>&1; then
	echo "fuzz.sh: cannot build a libFuzzer program with $CLANG" >&2
	[ -f "$probe/err" ] && head -n 5 "$probe/err" >&2
	echo "fuzz.sh: install clang and libFuzzer (Debian 12, as root:" \
	    "apt-get install ${DEPS_FUZZ[*]}), or run without" \
	    "--no-install as root; make check replays the saved inputs" \
	    "without them" >&2
	exit 1
fi

# The libraries, instrumented for coverage (fuzzer-no-link) and built
# with the sanitizers by --enable-asan.  Static, so the targets carry
# their own copy.  -Wno-error: a warning only clang 14 gives must not
# stop fuzzing (the gcc build is the one kept clean).
build_autoreconf "$root"
build_configure "$root" "$bdir" --enable-asan --disable-shared \
    CC="$CLANG" CFLAGS="-g -O1 -fsanitize=fuzzer-no-link -Wno-error"
libs=(src/common/libvcommon.la src/vsm/libvsmw.la src/cache/libvcache.la
    src/vsm/libveneerapi.la src/vcc/libvcc.la vcl/libvclembed.la)
echo "build: ${libs[*]} (output in $bdir/make.out)"
if ! make -C "$bdir" -j "$(build_nproc)" "${libs[@]}" >"$bdir/make.out" 2>&1
then
	tail -n 25 "$bdir/make.out" >&2
	echo "build: failed; see $bdir/make.out" >&2
	exit 1
fi

mkvar() {
	sed -n "s/^$1 = //p" "$bdir/Makefile" | head -n 1
}
read -r -a veneer_cflags <<<"$(mkvar VENEER_CFLAGS)"
read -r -a sys_libs <<<"$(mkvar EV_LIBS) $(mkvar PCRE2_LIBS) $(mkvar BSD_LIBS) \
    $(mkvar ZLIB_LIBS) $(mkvar RESOLV_LIBS)"
read -r -a sys_cflags <<<"$(mkvar PCRE2_CFLAGS) $(mkvar BSD_CFLAGS)"
cache_a=("$bdir/src/cache/.libs/libvcache.a" "$bdir/src/vsm/.libs/libvsmw.a"
    "$bdir/src/common/.libs/libvcommon.a")
vapi_a=("$bdir/src/vsm/.libs/libveneerapi.a")
vcc_a=("$bdir/src/vcc/.libs/libvcc.a" "$bdir/vcl/.libs/libvclembed.a"
    "$bdir/src/common/.libs/libvcommon.a")

# fuzz_target NAME: link build-fuzz/fuzz_NAME with libFuzzer's main.
fuzz_target() {
	local t=$1
	local -a extra=() link=()
	case $t in
	vsl_query|vsm_reader)	link=("${vapi_a[@]}") ;;
	ncsa_format)
		extra=(tools/veneerlog/ncsa.c)
		link=("${vapi_a[@]}") ;;
	storage_arg|listen_arg|cli)
		extra=(src/mgt/mgt_child.c src/mgt/mgt_vsc.c
		    src/mgt/mgt_cli.c src/mgt/mgt_cli_cmds.c
		    src/mgt/mgt_workdir.c src/mgt/mgt_vcl.c)
		link=("${cache_a[@]}" "${vcc_a[@]}") ;;
	vcc)	link=("${vcc_a[@]}") ;;
	relit)	link=("$bdir/src/common/.libs/libvcommon.a") ;;
	*)	link=("${cache_a[@]}") ;;
	esac
	"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	    "${veneer_cflags[@]}" -Wno-error "${sys_cflags[@]}" \
	    -include "$bdir/config.h" -I"$bdir" -I"$root/include" \
	    -I"$root/src" -I"$root" \
	    -DVENEER_STATE_DIR='"/nonexistent"' -DVENEER_SBINDIR='"/nonexistent"' \
	    "tests/fuzz/fuzz_$t.c" "${extra[@]}" "${link[@]}" \
	    "${sys_libs[@]}" -lpthread -ldl -lm -o "$bdir/fuzz_$t"
}

for t in "${want[@]}"; do
	echo "build: fuzz_$t"
	fuzz_target "$t"
done

# Run each target; remember the crashed ones.
crashed=()
for t in "${want[@]}"; do
	mkdir -p "$run/corpus/$t" "$run/crash/$t" "$run/log"
	seeds=("tests/fuzz/corpus/$t")
	if [ -d "tests/fuzz/crashes/$t" ]; then
		seeds+=("tests/fuzz/crashes/$t")
	fi
	log=$run/log/$t.log
	echo "fuzz: $t for ${time_each}s (log in $log)"
	# The first directory gets what is new; the others are only read.
	# -timeout: an input that takes 10 s is a finding (a hang).
	set +e
	(cd "$run" && "$bdir/fuzz_$t" -max_total_time="$time_each" \
	    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix="$run/crash/$t/" \
	    "$run/corpus/$t" "${seeds[@]/#/$root/}") >"$log" 2>&1
	status=$?
	set -e
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)
	echo "fuzz: $t: ${last:-no coverage line}"
	echo "fuzz: $t: $(find "$run/corpus/$t" -type f | wc -l) inputs" \
	    "found so far (all runs) in $run/corpus/$t"
	if [ "$status" -ne 0 ]; then
		crashed+=("$t")
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*Assert)' \
		    "$log" | head -n 5 >&2 || true
		art=$(grep -o "Test unit written to .*" "$log" | tail -n 1 ||
		    true)
		echo "fuzz: $t FAILED (status $status): ${art:-see $log}" >&2
		echo "fuzz: keep the input as a regression case:" \
		    "mkdir -p tests/fuzz/crashes/$t &&" \
		    "cp ${art#Test unit written to } tests/fuzz/crashes/$t/;" \
		    "replay it with build/tests/fuzz/fuzz_$t FILE" >&2
	fi
done
if [ ${#crashed[@]} -gt 0 ]; then
	echo "fuzz: crashed: ${crashed[*]}" >&2
	exit 1
fi
echo "fuzz: ${#want[@]} targets ran ${time_each}s each, no crash"

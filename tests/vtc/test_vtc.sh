#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# test_vtc.sh -- make check's run of tests/vtc/*.vtc, our own tests in
# varnishtest's language, through tools/vtc.sh: Varnish's harness drives
# veneerd the way it drives varnishd.  Skipped (77) when Varnish's
# varnishtest is not here (tools/test.sh unpacks Debian's and sets
# VENEER_VARNISH_BIN).

set -u
src=${VENEER_SRCDIR:?VENEER_SRCDIR is not set (run through make check)}
bd=${VENEER_BUILDDIR:?VENEER_BUILDDIR is not set (run through make check)}
if [ -z "${VENEER_VARNISH_BIN:-}" ] ||
    [ ! -x "$VENEER_VARNISH_BIN/varnishtest" ]; then
	echo "SKIP: no varnishtest (VENEER_VARNISH_BIN is not set;" \
	    "tools/test.sh sets it)"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/veneer-vtc-check.XXXXXX")
"$src/tools/vtc.sh" --no-install --builddir "$bd" -j 2 -t 60 -o "$out" \
    "$src"/tests/vtc/*.vtc
rc=$?
if [ $rc -ne 0 ]; then
	awk -F'\t' '$2 == "failed" { print $1 }' "$out/results.tsv" |
	while read -r t; do
		# The manager pings the child every 3 s and the harness
		# shows it: a stuck test's tail would be nothing else, so
		# those lines are left out (and test.sh shows only the last
		# 60 lines of this output).
		echo "----- $t: the last 50 lines of its log," \
		    "without pings -----"
		grep -v -E -e ' CLI +- (Rd ping|Wr 200 [0-9]+ PONG )' \
		    -e '^\*+ +dT ' "$out/$t.log" | tail -n 50
	done
	echo "(logs kept in $out)"
else
	rm -rf "$out"
fi
exit $rc

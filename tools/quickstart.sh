#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# quickstart.sh -- from a fresh checkout to a running veneerd in one
# command: install what is missing (Debian 12, as root), build in build/,
# start the demo origin on 127.0.0.1:8080 in the background and veneerd
# on 127.0.0.1:6081 in the foreground in front of it, running
# build/quickstart.vcl (a copy of vcl/default.vcl, made the first time
# and kept: edit it and run this again).  Ctrl-C stops both.

set -euo pipefail

ORIGIN_PORT=8080
PROXY_PORT=6081

usage() {
	cat <<USAGE
usage: tools/quickstart.sh [--no-install] [-h]

Build Veneer in build/ and run it on 127.0.0.1:$PROXY_PORT in front of
the demo origin on 127.0.0.1:$ORIGIN_PORT.  Ctrl-C stops both.

  --no-install   do not install missing Debian packages with apt-get
  -h, --help     show this help
USAGE
}

install=yes
while [ $# -gt 0 ]; do
	case $1 in
	--no-install)	install=no ;;
	-h|--help)	usage; exit 0 ;;
	*)
		echo "quickstart.sh: unknown option '$1'" >&2
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

builddir=$root/build
workdir=$builddir/quickstart-workdir
origin_log=$builddir/demo-origin.log
origin_pid=""

# Is something already accepting connections on 127.0.0.1:PORT?
port_in_use() {
	(: <>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

check_ports() {
	local port what
	for port in "$ORIGIN_PORT" "$PROXY_PORT"; do
		if port_in_use "$port"; then
			what="the demo origin"
			[ "$port" = "$PROXY_PORT" ] && what="veneerd"
			echo "quickstart: port $port on 127.0.0.1 is already" \
			    "in use, and $what needs it." >&2
			echo "quickstart: stop what listens there (see:" \
			    "ss -ltnp 'sport = :$port') and run this again." >&2
			exit 1
		fi
	done
}

# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
	if [ -n "$origin_pid" ] && kill -0 "$origin_pid" 2>/dev/null; then
		kill "$origin_pid" 2>/dev/null || true
		wait "$origin_pid" 2>/dev/null || true
		echo "quickstart: demo origin stopped"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Start the origin and wait until it accepts connections.
start_origin() {
	local i
	"$builddir/tools/demo-origin" -a "127.0.0.1:$ORIGIN_PORT" \
	    >"$origin_log" 2>&1 &
	origin_pid=$!
	for i in $(seq 50); do
		if ! kill -0 "$origin_pid" 2>/dev/null; then
			echo "quickstart: the demo origin did not start:" >&2
			cat "$origin_log" >&2
			origin_pid=""
			exit 1
		fi
		port_in_use "$ORIGIN_PORT" && return 0
		sleep 0.1
	done
	echo "quickstart: the demo origin is not answering on" \
	    "127.0.0.1:$ORIGIN_PORT after 5 s; see $origin_log" >&2
	exit 1
}

check_ports
if [ "$install" = yes ]; then
	phase_run deps deps_install "${DEPS_BUILD[@]}" curl
fi
phase_run autoreconf build_autoreconf "$root"
phase_run configure build_configure "$root" "$builddir"
phase_run build build_make "$builddir"
for f in "$builddir/veneerd" "$builddir/tools/demo-origin"; do
	if [ ! -x "$f" ]; then
		echo "quickstart: $f was not built" >&2
		exit 1
	fi
done

check_ports		# the build took a while: look again
mkdir -p "$workdir"
vcl=$builddir/quickstart.vcl
if [ ! -f "$vcl" ]; then
	sed -e "s/\"8080\"/\"$ORIGIN_PORT\"/" "$root/vcl/default.vcl" > "$vcl"
fi
if ! "$builddir/veneerd" -C -f "$vcl" > /dev/null; then
	echo "quickstart: ${vcl#"$root"/} does not compile (above);" \
	    "fix it, or remove it to start again from vcl/default.vcl" >&2
	exit 2
fi
start_origin

cat <<EOF

------------------------------------------------------------------------
 The demo origin answers on http://127.0.0.1:$ORIGIN_PORT/ and logs to
 ${origin_log#"$root"/}.  veneerd starts now on http://127.0.0.1:$PROXY_PORT/
 in front of it.  In another terminal, try:

   curl -i http://127.0.0.1:$PROXY_PORT/           # what to look at
   curl -i http://127.0.0.1:$PROXY_PORT/time       # max-age=10
   curl -i http://127.0.0.1:$PROXY_PORT/headers    # what the origin saw
   curl -i http://127.0.0.1:$PROXY_PORT/slow       # 2 s at the origin
   curl -i http://127.0.0.1:$PROXY_PORT/private    # never shared
   curl -so /dev/null -w '%{size_download} bytes in %{time_total} s\\n' \\
       'http://127.0.0.1:$PROXY_PORT/big?size=100m'

 Run each twice: the second /time is a hit.  Cache-Status says what
 the cache did (fwd=miss; stored, then hit; ttl=N), Age how old the
 copy is, X-Varnish which request fetched it.  Requests reaching the
 origin:  tail -f ${origin_log#"$root"/}
 Ask for /slow from two terminals at once: one request reaches the
 origin, both get the answer.  The counters:  $builddir/veneerstat -n $workdir
 The policy is VCL: ${vcl#"$root"/} (see man/veneer-vcl.7).  Edit it
 and load it live, the cache kept:
   VENEERADM=$builddir/veneeradm tools/veneer-reload -n $workdir
 The admin CLI:  $builddir/veneeradm -n $workdir help
 Press Ctrl-C to stop veneerd and the demo origin.
------------------------------------------------------------------------

EOF

rc=0
"$builddir/veneerd" -F -a "127.0.0.1:$PROXY_PORT" \
    -f "$vcl" -n "$workdir" -j none || rc=$?
if [ "$rc" -ne 0 ]; then
	echo "quickstart: veneerd exited with status $rc" >&2
fi
exit "$rc"

# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
#
# varnish.sh -- Debian's varnishlog, varnishncsa and varnishstat (Varnish
# 7.1, packages varnish and libvarnishapi3) for the interoperability tests
# (tests/e2e/test_interop), without installing anything: installing the
# varnish package starts a varnishd service on a systemd machine, on port
# 6081, which tools/quickstart.sh uses.  Instead the two .debs are fetched
# with apt-get download and unpacked with dpkg -x into the build
# directory, where the next run finds them.  Sourced by tools/test.sh.

# varnish_tools_version BINDIR [LIBDIR]: "varnish-7.1.1" or so, as
# varnishlog -V says; fails if it does not run.
varnish_tools_version() {
	local bin=$1 lib=${2:-} path=${LD_LIBRARY_PATH:-} out
	[ -z "$lib" ] || path=$lib${path:+:$path}
	out=$(LD_LIBRARY_PATH=$path "$bin/varnishlog" -V 2>&1) || return 1
	out=$(grep -o 'varnish-[0-9][0-9.]*' <<<"$out" | head -n 1)
	[ -n "$out" ] || return 1
	echo "$out"
}

# varnish_tools_check_version VERSION: warn unless it is 7.1, the only
# one whose log layout veneerd writes.
varnish_tools_check_version() {
	case $1 in
	varnish-7.1.*)	;;
	*)	echo "varnish-tools: warning: $1 is not Varnish 7.1; the" \
		    "interoperability tests will be skipped" ;;
	esac
}

# varnish_tools_libdir ROOT: the directory under ROOT holding
# libvarnishapi.so.3.
varnish_tools_libdir() {
	local lib
	lib=$(find "$1" -name libvarnishapi.so.3 2>/dev/null | head -n 1)
	[ -n "$lib" ] || return 1
	dirname "$lib"
}

# varnish_tools_fetch DIR UPDATE: download and unpack the packages into
# DIR (DIR/debs, DIR/root), logging to DIR/fetch.log.  UPDATE=yes allows
# apt-get update when the package lists are empty.  On failure prints
# the reason (one line) and returns 1.
varnish_tools_fetch() {
	local dir=$1 update=$2 log lists deb
	local -a found
	log=$dir/fetch.log
	if ! command -v apt-get >/dev/null 2>&1 ||
	    ! command -v dpkg >/dev/null 2>&1; then
		echo "apt-get or dpkg not found: not a Debian system"
		return 1
	fi
	rm -rf "$dir/debs" "$dir/root"
	mkdir -p "$dir/debs" || { echo "cannot create $dir/debs"; return 1; }
	: >"$log"
	lists=/var/lib/apt/lists
	eval "$(apt-config shell lists Dir::State::lists/d 2>/dev/null)"
	found=("$lists"/*_Packages*)
	if [ ! -e "${found[0]}" ]; then
		if [ "$update" != yes ]; then
			echo "the apt package lists are empty and --no-install" \
			    "forbids apt-get update"
			return 1
		fi
		if [ "$(id -u)" -ne 0 ]; then
			echo "the apt package lists are empty; run apt-get" \
			    "update as root"
			return 1
		fi
		if ! timeout 300 apt-get -o DPkg::Lock::Timeout=120 update \
		    -q >>"$log" 2>&1; then
			echo "apt-get update failed (see $log)"
			return 1
		fi
	fi
	# As root apt warns that its _apt user cannot write here; the
	# download works all the same.
	if ! (cd "$dir/debs" && timeout 300 apt-get download -q varnish \
	    libvarnishapi3) >>"$log" 2>&1; then
		echo "apt-get download varnish libvarnishapi3 failed: $(grep \
		    -E '^(E|W):' "$log" | tail -n 1) (see $log)"
		return 1
	fi
	for deb in "$dir"/debs/*.deb; do
		if ! dpkg -x "$deb" "$dir/root" >>"$log" 2>&1; then
			echo "dpkg -x $deb failed (see $log)"
			return 1
		fi
	done
}

# varnish_tools_setup BUILDDIR UPDATE FETCH: export VENEER_VARNISH_BIN
# (the tools' directory) and, for unpacked tools, VENEER_VARNISH_LIB (for
# LD_LIBRARY_PATH).  A varnishlog already on PATH is used as it is unless
# FETCH=yes.  Never fails: when the tools cannot be had it says why in
# one line and the interoperability tests skip themselves.
varnish_tools_setup() {
	local builddir=$1 update=$2 fetch=$3 dir have bin lib version why
	unset VENEER_VARNISH_BIN VENEER_VARNISH_LIB
	if [ "$fetch" != yes ] && have=$(command -v varnishlog); then
		bin=$(dirname "$have")
		if version=$(varnish_tools_version "$bin"); then
			export VENEER_VARNISH_BIN=$bin
			echo "varnish-tools: using $bin/varnishlog" \
			    "($version) from PATH"
			varnish_tools_check_version "$version"
			return 0
		fi
		echo "varnish-tools: $have does not run; fetching the" \
		    "Debian package instead"
	fi
	dir=$builddir/varnish-tools
	bin=$dir/root/usr/bin
	if lib=$(varnish_tools_libdir "$dir/root") &&
	    version=$(varnish_tools_version "$bin" "$lib"); then
		echo "varnish-tools: using $bin ($version), unpacked by an" \
		    "earlier run"
	elif ! why=$(varnish_tools_fetch "$dir" "$update"); then
		echo "varnish-tools: cannot get Debian's varnish tools: $why;" \
		    "the interoperability tests will be skipped"
		return 0
	elif ! lib=$(varnish_tools_libdir "$dir/root") ||
	    ! version=$(varnish_tools_version "$bin" "$lib"); then
		echo "varnish-tools: the unpacked $bin/varnishlog does not" \
		    "run (see $dir/fetch.log); the interoperability tests" \
		    "will be skipped"
		return 0
	else
		echo "varnish-tools: unpacked $(cd "$dir/debs" && echo *.deb)" \
		    "into $dir/root ($version)"
	fi
	varnish_tools_check_version "$version"
	export VENEER_VARNISH_BIN=$bin VENEER_VARNISH_LIB=$lib
}

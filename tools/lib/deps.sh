# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
#
# deps.sh -- install the Debian packages a script needs, and nothing more.
# Sourced by tools/test.sh, tools/quickstart.sh and tools/bench/run.sh.
#
# A package is named as apt knows it; "a|b" means either one will do (the
# first is installed when neither is).  apt-get runs only when something is
# missing, so a machine that has everything is never touched.  Without root,
# the caller is told what to install and the function fails.

# deps_missing SPEC...: print, one per line, the specs none of whose
# alternatives is installed.
deps_missing() {
	local spec alt status found
	local -a alts
	for spec in "$@"; do
		found=no
		IFS='|' read -r -a alts <<<"$spec"
		for alt in "${alts[@]}"; do
			status=$(dpkg-query -W -f='${db:Status-Status}' \
			    "$alt" 2>/dev/null || true)
			if [ "$status" = installed ]; then
				found=yes
				break
			fi
		done
		if [ "$found" = no ]; then
			printf '%s\n' "$spec"
		fi
	done
}

# deps_install SPEC...: install what deps_missing reports.  Returns 1, after
# saying what is missing, when that needs root and we are not root.
deps_install() {
	local missing spec
	local -a pkgs
	if ! command -v dpkg-query >/dev/null 2>&1; then
		echo "deps: dpkg-query not found: these scripts install" \
		    "packages on Debian 12 only; install by hand: $*" >&2
		return 1
	fi
	missing=$(deps_missing "$@")
	if [ -z "$missing" ]; then
		echo "deps: all ${#} packages already installed"
		return 0
	fi
	pkgs=()
	while read -r spec; do
		pkgs+=("${spec%%|*}")
	done <<<"$missing"
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: missing packages: ${pkgs[*]}" >&2
		echo "deps: run as root, or install them first:" \
		    "sudo apt-get install ${pkgs[*]}" >&2
		return 1
	fi
	echo "deps: installing ${pkgs[*]}"
	# The lock timeout waits out an unattended upgrade on a new machine
	# instead of failing at once.
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get -o DPkg::Lock::Timeout=300 update -q; then
		echo "deps: apt-get update failed" >&2
		return 1
	fi
	if ! apt-get -o DPkg::Lock::Timeout=300 install -y -q \
	    --no-install-recommends "${pkgs[@]}"; then
		echo "deps: apt-get install ${pkgs[*]} failed" >&2
		return 1
	fi
}

# What building Veneer and running its tests needs; procps gives the tests
# ps and pgrep; python3-yaml lets tests/contrib/test_k8s.sh read the
# Kubernetes manifests.
# shellcheck disable=SC2034  # used by the scripts that source this file
DEPS_BUILD=(
	build-essential autoconf automake libtool "pkg-config|pkgconf"
	libev-dev libpcre2-dev libjemalloc-dev libbsd-dev libncurses-dev
	zlib1g-dev
	check procps python3-yaml
)
# What tools/test.sh needs besides: shellcheck for its lint phase.
# shellcheck disable=SC2034  # used by tools/test.sh
DEPS_TEST=(shellcheck)

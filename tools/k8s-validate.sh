#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# k8s-validate.sh -- check contrib/kubernetes's manifests against the
# Kubernetes API's schemas, strictly (an unknown field is an error, as a
# misspelt probe setting would be), with kubernetes-validate from PyPI,
# which carries the schemas of every Kubernetes release in the package
# (nothing is downloaded when it runs).  Installed once into a virtual
# environment of its own.  Not part of tools/test.sh: it needs PyPI.

set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/k8s-validate.sh [-k VERSION] [--venv DIR] [FILE.yaml ...]

Validate Kubernetes manifests (default: contrib/kubernetes/*.yaml)
against the schemas of Kubernetes VERSION (default: the newest the
validator knows; e.g. -k 1.27.0 for an older cluster).

  -k VERSION   the Kubernetes version to validate against
  --venv DIR   where to install kubernetes-validate (default
               ~/.cache/veneer/k8s-validate)
  -h, --help   show this help

Installs kubernetes-validate (pinned) with pip into the virtual
environment the first time; on Debian, as root, python3-venv too.
USAGE
}

validator_version=1.37.0
k8s_version=""
venv=${XDG_CACHE_HOME:-$HOME/.cache}/veneer/k8s-validate
while [ $# -gt 0 ]; do
	case $1 in
	-k)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		k8s_version=$2
		shift ;;
	--venv)
		[ $# -ge 2 ] || { usage >&2; exit 2; }
		venv=$2
		shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*)	echo "k8s-validate: unknown option '$1'" >&2
		usage >&2
		exit 2 ;;
	*)	break ;;
	esac
	shift
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -eq 0 ]; then
	set -- "$root"/contrib/kubernetes/*.yaml
fi

kv=$venv/bin/kubernetes-validate
if [ ! -x "$kv" ] || [ "$("$venv/bin/pip" show kubernetes-validate |
    sed -n 's/^Version: //p')" != "$validator_version" ]; then
	if ! python3 -m venv --help >/dev/null 2>&1 ||
	    ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
		# shellcheck source=tools/lib/deps.sh
		. "$root/tools/lib/deps.sh"
		deps_install python3-venv
	fi
	echo "k8s-validate: installing kubernetes-validate" \
	    "$validator_version into $venv"
	python3 -m venv "$venv"
	"$venv/bin/pip" install -q --disable-pip-version-check \
	    "kubernetes-validate==$validator_version"
fi

args=(--strict)
if [ -n "$k8s_version" ]; then
	args+=(-k "$k8s_version")
fi
"$kv" "${args[@]}" "$@"
echo "k8s-validate: $# files valid"

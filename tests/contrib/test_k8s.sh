#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
#
# test_k8s.sh -- make check's cheap check of contrib/kubernetes: every
# manifest parses as YAML and names a kind and a name; the probes' paths
# are answered by the VCL; the edge names the shards' headless Service by
# its full name; the VCL in each ConfigMap compiles with veneerd -C; the
# shard VCL, run, answers its health endpoint and PURGE by key with no
# origin; veneer-broadcast reaches a veneerd and reports one it cannot.
# The schemas are checked by tools/k8s-validate.sh (it needs PyPI), not
# here.  Skipped (77) when no python3 with the yaml module is found
# (tools/test.sh installs Debian's python3-yaml).

set -u
src=${VENEER_SRCDIR:?VENEER_SRCDIR is not set (run through make check)}
bd=${VENEER_BUILDDIR:?VENEER_BUILDDIR is not set (run through make check)}
veneerd=${VENEERD:-$bd/veneerd}
k8s=$src/contrib/kubernetes

# Debian's python3-yaml is for /usr/bin/python3; a python3 earlier on PATH
# (pyenv, a venv) may lack it.
py=""
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 &&
	    "$p" -c 'import yaml' >/dev/null 2>&1; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "SKIP: no python3 with the yaml module (install python3-yaml)"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/veneer-k8s.XXXXXX")
pid=""
cleanup() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
failures=0
passes=0
ok() { echo "ok: $*"; passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 1. The manifests, read by PyYAML: structure and cross-references.  The
#    VCL of each ConfigMap is written to $tmp/<component>.vcl.
if "$py" - "$k8s" "$tmp" <<'PY'
import glob, os, re, sys, yaml

k8s, out = sys.argv[1], sys.argv[2]
errors = []
docs = []
files = sorted(glob.glob(os.path.join(k8s, "*.yaml")))
if not files:
    errors.append("no manifests in " + k8s)
for f in files:
    try:
        for d in yaml.safe_load_all(open(f)):
            if d is None:
                continue
            docs.append((os.path.basename(f), d))
    except yaml.YAMLError as e:
        errors.append("%s: %s" % (f, e))
for f, d in docs:
    for k in ("apiVersion", "kind"):
        if not isinstance(d.get(k), str):
            errors.append("%s: a document without %s" % (f, k))
    if not (d.get("metadata") or {}).get("name"):
        errors.append("%s: a %s without metadata.name" % (f, d.get("kind")))

def find(kind, name=None):
    return [d for f, d in docs if d.get("kind") == kind and
            (name is None or d["metadata"]["name"] == name)]

vcls = {}
for cm in find("ConfigMap"):
    for key, text in (cm.get("data") or {}).items():
        if key.endswith(".vcl"):
            vcls[key] = text
            with open(os.path.join(out, key), "w") as w:
                w.write(text)
for want in ("shard.vcl", "edge.vcl"):
    if want not in vcls:
        errors.append("no ConfigMap holds " + want)

# Each workload: its VCL mounted from a ConfigMap, -f naming it, and every
# httpGet probe's path answered with synth in that VCL.
for kind in ("StatefulSet", "Deployment"):
    for w in find(kind):
        name = w["metadata"]["name"]
        spec = w["spec"]["template"]["spec"]
        cms = {v["configMap"]["name"] for v in spec.get("volumes", [])
               if "configMap" in v}
        for c in spec["containers"]:
            args = c.get("args", [])
            if "-f" not in args:
                errors.append("%s: no -f" % name)
                continue
            vcl = os.path.basename(args[args.index("-f") + 1])
            if not any(vcl in (find("ConfigMap", n)[0].get("data") or {})
                       for n in cms if find("ConfigMap", n)):
                errors.append("%s: %s is in none of its ConfigMaps" %
                              (name, vcl))
                continue
            for probe in ("livenessProbe", "readinessProbe"):
                path = ((c.get(probe) or {}).get("httpGet") or {}).get("path")
                if path is None:
                    errors.append("%s: no %s" % (name, probe))
                elif not re.search(r'req\.url == "%s"\)\s*{\s*return '
                                   r'\(synth\(200' % re.escape(path),
                                   vcls[vcl]):
                    errors.append("%s: %s %s is not answered by synth(200)"
                                  " in %s" % (name, probe, path, vcl))

# The edge's dynamic director follows the shards' headless Service by its
# full name, namespace included.
svc = [s for s in find("Service") if s["spec"].get("clusterIP") == "None"]
if len(svc) != 1:
    errors.append("want one headless Service, found %d" % len(svc))
else:
    s = svc[0]
    fqdn = "%s.%s.svc.cluster.local" % (s["metadata"]["name"],
                                        s["metadata"]["namespace"])
    if '"%s"' % fqdn not in vcls.get("edge.vcl", ""):
        errors.append("edge.vcl does not name the headless Service " + fqdn)
    sts = [x for x in find("StatefulSet")
           if x["spec"]["serviceName"] == s["metadata"]["name"]]
    if not sts:
        errors.append("no StatefulSet governed by " + s["metadata"]["name"])
    if not find("PodDisruptionBudget"):
        errors.append("no PodDisruptionBudget")
for e in errors:
    print(e)
print("%d manifests, %d documents, %d VCLs" % (len(files), len(docs),
                                               len(vcls)))
sys.exit(1 if errors else 0)
PY
then
	ok "manifests parse and agree with each other"
else
	fail "manifests"
fi

# 2. The VCLs compile.
if [ -f "$tmp/shard.vcl" ]; then
	if "$veneerd" -C -f "$tmp/shard.vcl" >/dev/null 2>"$tmp/shard.err"
	then
		ok "shard.vcl compiles"
	else
		cat "$tmp/shard.err"
		fail "shard.vcl does not compile"
	fi
fi
if [ -f "$tmp/edge.vcl" ]; then
	"$veneerd" -C -f "$tmp/edge.vcl" >/dev/null 2>"$tmp/edge.err"
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "edge.vcl compiles"
	else
		cat "$tmp/edge.err"
		fail "edge.vcl does not compile"
	fi
fi

# 3. The shard VCL, run: its health endpoint and PURGE by key answer
#    without the (unresolvable, placeholder) origin, and veneer-broadcast
#    bans through the admin CLI.
# http_status METHOD PORT PATH [HEADER]: the status line's code.
http_status() {
	local line
	exec 3<>"/dev/tcp/127.0.0.1/$2" || return 1
	printf '%s %s HTTP/1.1\r\nHost: t\r\n%sConnection: close\r\n\r\n' \
	    "$1" "$3" "${4:+$4$'\r\n'}" >&3
	IFS= read -r -t 10 line <&3
	exec 3<&-
	line=${line#HTTP/1.1 }
	printf '%s\n' "${line%% *}"
}
# expect WANT GOT WHAT
expect() {
	if [ "$2" = "$1" ]; then
		ok "$3: $2"
	else
		fail "$3: '$2', want $1"
	fi
}
if [ -f "$tmp/shard.vcl" ]; then
	printf 'k8s-test-secret\n' >"$tmp/secret"
	"$veneerd" -F -n "$tmp/work" -a 127.0.0.1:0 -T 127.0.0.1:0 \
	    -S "$tmp/secret" -s malloc,16M -f "$tmp/shard.vcl" \
	    >"$tmp/veneerd.out" 2>&1 &
	pid=$!
	http="" cli=""
	for _ in $(seq 1 300); do
		# The background shell may not have opened the file yet.
		http=$(awk '$1 == "Listen" { print $4; exit }' \
		    "$tmp/veneerd.out" 2>/dev/null)
		cli=$(awk '$1 == "CLI" { print $3; exit }' \
		    "$tmp/veneerd.out" 2>/dev/null)
		[ -n "$http" ] && [ -n "$cli" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if [ -z "$http" ] || [ -z "$cli" ]; then
		cat "$tmp/veneerd.out"
		fail "veneerd with shard.vcl did not start"
	else
		expect 200 "$(http_status GET "$http" /veneer-health)" \
		    "shard /veneer-health"
		expect 200 "$(http_status PURGE "$http" / "xkey-purge: a b")" \
		    "shard PURGE by key"
		expect 400 "$(http_status PURGE "$http" /)" \
		    "shard PURGE without a key"
		export VENEERADM=$bd/veneeradm
		bc=$k8s/veneer-broadcast
		if "$bc" -p "$cli" -S "$tmp/secret" 127.0.0.1 \
		    ban req.url '~' '^/k8s-broadcast' >"$tmp/bc.out" 2>&1 &&
		    "$VENEERADM" -T "127.0.0.1:$cli" -S "$tmp/secret" \
		    ban.list | grep -q 'req.url ~ ^/k8s-broadcast'; then
			ok "veneer-broadcast bans"
		else
			cat "$tmp/bc.out"
			fail "veneer-broadcast did not ban"
		fi
		# A port nobody listens on: our CLI port's process is
		# stopped below, so take it then.
		kill "$pid"
		wait "$pid" 2>/dev/null
		pid=""
		"$bc" -r 2 -t 2 -p "$cli" -S "$tmp/secret" 127.0.0.1 \
		    ban.list >"$tmp/bc.out" 2>&1
		rc=$?
		if [ $rc -eq 1 ] && grep -q 'failed on: 127.0.0.1' \
		    "$tmp/bc.out"; then
			ok "veneer-broadcast names the address it missed"
		else
			cat "$tmp/bc.out"
			fail "veneer-broadcast to nobody: status $rc, want 1"
		fi
	fi
fi

echo "k8s: $passes passed, $failures failed"
[ $failures -eq 0 ]

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
#
# cli_rtt.py HOST PORT SECRETFILE COMMANDFILE -- send each line of
# COMMANDFILE over one admin CLI connection (Varnish's protocol: veneerd
# and varnishd alike), waiting for each answer, and print the mean wall
# time per command in microseconds and how many were not answered 200.
# Used by tools/bench/bans.sh: varnishadm fed from a pipe stops reading
# answers at the end of its input and drops the rest.

import hashlib
import socket
import sys
import time


def answer(f):
    head = f.read(13)
    if len(head) != 13:
        sys.exit("cli_rtt.py: the connection closed")
    status, length = int(head[:3]), int(head[4:12])
    body = f.read(length + 1)
    return status, body[:-1]


def main():
    host, port, secret, path = sys.argv[1:5]
    s = socket.create_connection((host, int(port)), timeout=60)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    f = s.makefile("rb")
    status, challenge = answer(f)
    if status == 107:
        c = challenge[:32]
        with open(secret, "rb") as sf:
            key = sf.read()
        r = hashlib.sha256(c + b"\n" + key + c + b"\n").hexdigest()
        s.sendall(b"auth " + r.encode() + b"\n")
        status, _ = answer(f)
        if status != 200:
            sys.exit("cli_rtt.py: authentication failed")
    with open(path, "rb") as cf:
        lines = cf.read().splitlines()
    bad = 0
    t0 = time.perf_counter()
    for line in lines:
        s.sendall(line + b"\n")
        status, _ = answer(f)
        if status != 200:
            bad += 1
    t1 = time.perf_counter()
    print("%.1f %d" % ((t1 - t0) / max(len(lines), 1) * 1e6, bad))


main()

#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
#
# trickle.py -- the slow clients of tools/bench/slowloris.sh: open N
# connections to HOST:PORT (paced, so the proxy's accept queue is not
# what is measured) and send on each a request head one byte per second,
# never finishing it, for DURATION seconds; then close them all and exit.
# A connection the server closes or resets meanwhile counts as dropped.
# Writes "ready" to READY once every connection is open and has sent its
# first byte, and a summary line to stdout at the end.  Loopback only.

import os
import selectors
import socket
import sys
import time


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: trickle.py HOST PORT N DURATION READYFILE")
    host, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    duration, ready = float(sys.argv[4]), sys.argv[5]
    if host not in ("127.0.0.1", "::1"):
        sys.exit("trickle.py: loopback only")
    t_end = time.monotonic() + duration
    sel = selectors.DefaultSelector()
    conns = []      # [sock, head, offset, slot]
    dropped = 0
    failed = 0
    slots = 20      # each second in 20 slots; connection i sends in i % 20
    for i in range(n):
        if time.monotonic() > t_end:
            break
        try:
            s = socket.create_connection((host, port), timeout=5)
        except OSError:
            failed += 1
            continue
        s.setblocking(False)
        head = (b"GET /slow/%d HTTP/1.1\r\nHost: slow\r\nX-Slowloris: " % i
                + b"s" * 4096)
        c = [s, head, 0, i % slots]
        conns.append(c)
        sel.register(s, selectors.EVENT_READ, c)
        # Pace the opening: about 1000 a second.
        if i % 100 == 99:
            time.sleep(0.1)
    sent = 0

    def send_byte(c):
        nonlocal sent
        try:
            c[0].send(c[1][c[2]:c[2] + 1])
            c[2] += 1
            sent += 1
        except BlockingIOError:
            pass
        except OSError:
            pass    # the read side counts it

    for c in conns:
        send_byte(c)
    with open(ready, "w") as f:
        f.write("ready %d\n" % len(conns))
    slot = 0
    next_tick = time.monotonic()
    while time.monotonic() < t_end:
        now = time.monotonic()
        if now >= next_tick:
            for c in conns:
                if c[0] is not None and c[3] == slot and c[2] < len(c[1]):
                    send_byte(c)
            slot = (slot + 1) % slots
            next_tick += 1.0 / slots
        timeout = max(0.0, min(next_tick, t_end) - time.monotonic())
        for key, _ in sel.select(timeout):
            c = key.data
            try:
                data = c[0].recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data == b"" or data:
                # EOF, reset or an answer: the server let go of it.
                sel.unregister(c[0])
                c[0].close()
                c[0] = None
                dropped += 1
    for c in conns:
        if c[0] is not None:
            c[0].close()
    print("trickle: %d connections, %d failed to connect, %d dropped by "
          "the server, %d bytes sent" % (len(conns), failed, dropped, sent))
    return 0


if __name__ == "__main__":
    sys.exit(main())

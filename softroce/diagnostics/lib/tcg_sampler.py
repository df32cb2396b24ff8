#!/usr/bin/env python3
"""Samples QEMU's translation-block statistics (`info jit` on the monitor socket) once a second.

Usage: tcg_sampler.py MONITOR_SOCKET PHASE_FILE OUT_FILE
Each line of OUT_FILE: host time, the phase the guest last wrote into PHASE_FILE, and the
cumulative counters TB count, TB flush count, TB invalidate count and TLB full flushes. Runs
until QEMU closes the monitor. `tcg_sampler.py --report OUT_FILE` prints, per phase, how long
it lasted and the median per-second increase of each counter (the median keeps a phase's
start-up spikes, e.g. a JVM's JIT compiling, from hiding its steady state).
"""
import re
import socket
import statistics
import sys
import time

COUNTERS = [("tb", r"TB count\s+(\d+)"), ("flush", r"TB flush count\s+(\d+)"),
            ("invalidate", r"TB invalidate count\s+(\d+)"), ("tlb_full", r"TLB full flushes\s+(\d+)")]


def read_prompt(sock):
    data = b""
    while not data.endswith(b"(qemu) "):
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("monitor closed")
        data += chunk
    return data.decode(errors="replace")


def sample(path, phase_file, out_file):
    for _ in range(600):
        try:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            break
        except OSError:
            time.sleep(0.5)
    else:
        sys.exit(f"tcg_sampler: no monitor at {path}")
    with sock, open(out_file, "a") as out:
        read_prompt(sock)
        while True:
            try:
                sock.sendall(b"info jit\n")
                text = read_prompt(sock)
            except (ConnectionError, OSError):
                return
            try:
                phase = open(phase_file).read().strip() or "-"
            except OSError:
                phase = "-"
            values = []
            for name, pattern in COUNTERS:
                m = re.search(pattern, text)
                values.append(f"{name}={m.group(1) if m else 'NA'}")
            out.write(f"{time.time():.3f} {phase} {' '.join(values)}\n")
            out.flush()
            time.sleep(1.0)


def report(out_file):
    rows = []
    for line in open(out_file):
        parts = line.split()
        if len(parts) < 3 or "NA" in line:
            continue
        rows.append((float(parts[0]), parts[1], {k: int(v) for k, v in (p.split("=") for p in parts[2:])}))
    phases = []
    for prev, cur in zip(rows, rows[1:]):
        if prev[1] != cur[1]:
            continue
        dt = cur[0] - prev[0]
        delta = {k: (cur[2][k] - prev[2][k]) / dt for k in cur[2]}
        if not phases or phases[-1][0] != cur[1]:
            phases.append((cur[1], []))
        phases[-1][1].append((dt, delta))
    print("| phase | seconds | TB invalidations/s (median) | TB count growth/s (median) | TB flushes | TLB full flushes/s (median) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, samples in phases:
        seconds = sum(dt for dt, _ in samples)
        med = {k: statistics.median(d[k] for _, d in samples) for k in samples[0][1]}
        flushes = sum(d["flush"] * dt for dt, d in samples)
        print(f"| {name} | {seconds:.0f} | {med['invalidate']:.0f} | {med['tb']:.0f} | {flushes:.0f} | {med['tlb_full']:.0f} |")


if __name__ == "__main__":
    if sys.argv[1] == "--report":
        report(sys.argv[2])
    else:
        sample(*sys.argv[1:4])

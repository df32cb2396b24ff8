#!/usr/bin/env python3
"""Samples the host's CPU time split (/proc/stat's "cpu" line) every 0.2 s until killed.

Usage: host_stat.py OUT
Each line of OUT: CLOCK_MONOTONIC in ns, then the "cpu" line's jiffies (user nice system idle iowait
irq softirq steal ...). softroce/perftest-compare runs it with PERF_HOSTPROF=1 so that
hostprof_table.py can say how much of each client run's time the host's hypervisor took away from
this machine (steal): on a shared host that makes the same guest code run slower for a while, for
whichever tool is running.
"""
import signal
import sys
import time


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with open(sys.argv[1], "w") as out:
        while True:
            with open("/proc/stat") as stat:
                fields = stat.readline().split()[1:]
            out.write("%d %s\n" % (time.clock_gettime_ns(time.CLOCK_MONOTONIC), " ".join(fields)))
            out.flush()
            time.sleep(0.2)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Instructions per operation from a PERF_INSN=1 run of softroce/perftest-compare.

Usage: insn_table.py JOB_DIR LAT_N1 LAT_N2 BW_N1 BW_N2
JOB/insn-marks.txt has the plugin's marks (softroce/insn-count/insn_split.c), two per client run, in
the order of JOB/insn-plan.txt ("<test>.<rep> <tool> <exit>"; a perftest client that could not
connect yet is retried, and only its last run counts). Odd repetitions ran N1 iterations, even ones
N2 (LAT_ for latency tests, BW_ for bandwidth tests; N2 = 0: that kind has no pairs); repetitions 2k-1 and 2k make one pair, whose difference in counted instructions over N2 - N1 is
the steady state's cost of one operation: the guest's user-space instructions (client, server, every
process) and its kernel's (rxe, syscalls), start-up and warm-up cancelling out. Prints a Markdown
table: per test and tool, the median over the pairs (and each pair's value) of user and kernel
instructions per operation, and ours over perftest's.
"""
import statistics
import sys


def read_marks(path):
    marks = []
    for line in open(path):
        f = line.split()
        if f and f[0] == "mark":
            marks.append((int(f[3]), int(f[5])))
    return marks


def read_runs(job):
    """Returns {(test, rep, tool): (user, kernel)} for the last run of each client."""
    marks = read_marks(job + "/insn-marks.txt")
    plan = [line.split() for line in open(job + "/insn-plan.txt") if line.strip()]
    if len(marks) != 2 * len(plan):
        sys.exit("insn_table: %d marks for %d client runs (want two each)" % (len(marks), len(plan)))
    runs = {}
    for i, (name, tool, status) in enumerate(plan):
        test, rep = name.rsplit(".", 1)
        (u0, k0), (u1, k1) = marks[2 * i], marks[2 * i + 1]
        runs[(test, int(rep), tool)] = (u1 - u0, k1 - k0, int(status))
    return runs


def main():
    job = sys.argv[1]
    lengths = {"lat": (int(sys.argv[2]), int(sys.argv[3])), "bw": (int(sys.argv[4]), int(sys.argv[5]))}
    runs = read_runs(job)
    tests = sorted({t for t, _, _ in runs}, key=lambda t: min(r for tt, r, _ in runs if tt == t))
    tools = [t for t in ("perftest", "remus", "remus-b") if any(tool == t for _, _, tool in runs)]
    print("| test | tool | user insns/op | kernel insns/op | per pair (user / kernel) |")
    print("| --- | --- | ---: | ---: | --- |")
    medians = {}
    for test in tests:
        n1, n2 = lengths["lat" if test.endswith("_lat") else "bw"]
        if n2 == 0 or n2 == n1:
            continue
        reps = sorted({r for t, r, _ in runs if t == test})
        for tool in tools:
            pairs = []
            for r in reps:
                if r % 2 == 1 and (test, r, tool) in runs and (test, r + 1, tool) in runs:
                    a, b = runs[(test, r, tool)], runs[(test, r + 1, tool)]
                    if a[2] == 0 and b[2] == 0:
                        pairs.append(((b[0] - a[0]) / (n2 - n1), (b[1] - a[1]) / (n2 - n1)))
            if not pairs:
                continue
            user = statistics.median(p[0] for p in pairs)
            kernel = statistics.median(p[1] for p in pairs)
            medians[(test, tool)] = (user, kernel)
            each = " / ".join("%.0f %.0f" % p for p in pairs)
            print("| %s | %s | %.0f | %.0f | %s |" % (test, tool, user, kernel, each))
    for test in tests:
        for tool in tools[1:]:
            if (test, "perftest") in medians and (test, tool) in medians:
                p, o = medians[(test, "perftest")], medians[(test, tool)]
                print("\n%s: %s runs %.0f more user instructions per operation than perftest (%.2fx) and %.0f more "
                      "kernel ones (%.2fx)" % (test, tool, o[0] - p[0], o[0] / p[0] if p[0] else float("nan"),
                                               o[1] - p[1], o[1] / p[1] if p[1] else float("nan")))


if __name__ == "__main__":
    main()

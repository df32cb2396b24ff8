#!/usr/bin/env python3
"""Instructions per operation from a PERF_INSN=1 run of softroce/perftest-compare.

Usage: insn_table.py JOB_DIR LAT_N1 LAT_N2 BW_N1 BW_N2
JOB/insn-marks.txt has the plugin's marks (softroce/diagnostics/insn-count/insn_split.c), two per client run
(before it starts and after it exits) plus the marks the client made itself, in the order of
JOB/insn-plan.txt ("<test>.<rep> <tool> <exit> [<marks from inside>]"; a perftest client that could
not connect yet is retried, and only its last run counts). Ours marks its measured window from
inside the JVM (two marks: see WindowMarks in the tools module), so its cost per operation is also
read directly, per run: the window's instructions over the run's iterations (second table). Odd repetitions ran N1 iterations, even ones
N2 (LAT_ for latency tests, BW_ for bandwidth tests; N2 = 0: that kind has no pairs); repetitions 2k-1 and 2k make one pair, whose difference in counted instructions over N2 - N1 is
the steady state's cost of one operation: the guest's user-space instructions (client, server, every
process) and its kernel's (rxe, syscalls), start-up and warm-up cancelling out. Prints a Markdown
table: per test and tool, the median over the pairs (and each pair's value) of user and kernel
instructions per operation, and ours over perftest's.
"""
import statistics
import sys

import insn_plan
import run_lengths


def read_marks(path):
    marks = []
    for line in open(path):
        f = line.split()
        if f and f[0] == "mark":
            marks.append((int(f[3]), int(f[5])))
    return marks


def read_runs(job):
    """Returns {(test, rep, tool): (user, kernel, exit, window)} for the last run of each client,
    window being (user, kernel) between the client's own two marks, or None."""
    marks = read_marks(job + "/insn-marks.txt")
    runs = {}
    for test, rep, tool, status, run in insn_plan.client_runs(job, marks, "insn_table"):
        (u0, k0), (u1, k1) = run[0], run[-1]
        window = None
        if len(run) == 4:
            (w0, v0), (w1, v1) = run[1], run[2]
            window = (w1 - w0, v1 - v0)
        runs[(test, rep, tool)] = (u1 - u0, k1 - k0, status, window)
    return runs


def main():
    job = sys.argv[1]
    lengths = run_lengths.from_argv(sys.argv)
    runs = read_runs(job)
    tests = sorted({t for t, _, _ in runs}, key=lambda t: min(r for tt, r, _ in runs if tt == t))
    tools = [t for t in ("perftest", "remus", "remus-b") if any(tool == t for _, _, tool in runs)]
    print("| test | tool | user insns/op | kernel insns/op | per pair (user / kernel) |")
    print("| --- | --- | ---: | ---: | --- |")
    medians = {}
    for test in tests:
        n1, n2 = run_lengths.of_test(lengths, test)
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
    windowed = [(t, r, tool) for (t, r, tool), run in runs.items() if run[3] is not None and run[2] == 0]
    if windowed:
        print("\nOurs inside its measured window (marked from inside the JVM), per run:\n")
        print("| test | tool | user insns/op | kernel insns/op | per run (user / kernel) | user over perftest's |")
        print("| --- | --- | ---: | ---: | --- | ---: |")
        for test in tests:
            for tool in tools[1:]:
                each = []
                for (t, r, tl) in sorted(windowed):
                    if t == test and tl == tool:
                        n = run_lengths.of_run(lengths, t, r)
                        w = runs[(t, r, tl)][3]
                        each.append((w[0] / n, w[1] / n))
                if not each:
                    continue
                user = statistics.median(e[0] for e in each)
                kernel = statistics.median(e[1] for e in each)
                p = medians.get((test, "perftest"))
                ratio = "%.2fx" % (user / p[0]) if p and p[0] else "-"
                print("| %s | %s | %.0f | %.0f | %s | %s |" % (test, tool, user, kernel,
                                                             " / ".join("%.0f %.0f" % e for e in each), ratio))
    for test in tests:
        for tool in tools[1:]:
            if (test, "perftest") in medians and (test, tool) in medians:
                p, o = medians[(test, "perftest")], medians[(test, tool)]
                print("\n%s: %s runs %.0f more user instructions per operation than perftest (%.2fx) and %.0f more "
                      "kernel ones (%.2fx)" % (test, tool, o[0] - p[0], o[0] / p[0] if p[0] else float("nan"),
                                               o[1] - p[1], o[1] / p[1] if p[1] else float("nan")))


if __name__ == "__main__":
    main()

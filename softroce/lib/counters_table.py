#!/usr/bin/env python3
"""rxe0's retransmission timeouts per client run of softroce/perftest-compare, and inside ours' measured window.

Usage: counters_table.py JOB_DIR LAT_N1 LAT_N2 BW_N1 BW_N2
JOB/raw/<test>.<rep>.<tool>.counters has rxe0's hardware counters before and after each client run
(whole process: start-up, warm-up and measured operations). JOB/window-counters.txt, written when
ours marks its measured window (PERF_WINDOW=1 or PERF_INSN=1), has "run <test>.<rep> <tool>" before
each client run and, for each mark ours made, "<begin|end> <counter> <value>" lines read right after
it. Odd repetitions ran N1 iterations, even ones N2 (N2 = 0: all N1). Prints a Markdown table per
test and tool: completer_retry_err (the requester's ACK timeouts, each a stall of the QP's timeout)
per client run, and, inside the window, per run and per 1,000 measured operations.
"""
import glob
import os
import re
import statistics
import sys

import run_lengths

COUNTER = "completer_retry_err"


def whole_runs(raw):
    """{(test, rep, tool): completer_retry_err over the client run}"""
    runs = {}
    for path in glob.glob(os.path.join(raw, "*.counters")):
        name = os.path.basename(path)[:-len(".counters")]
        test, rep, tool = name.split(".", 2)
        values = {"before": {}, "after": {}}
        section = None
        for line in open(path):
            line = line.strip()
            if line in values:
                section = line
                continue
            m = re.match(r".*/([^/:]+):(-?\d+)$", line)
            if m and section:
                values[section][m.group(1)] = int(m.group(2))
        if COUNTER in values["before"] and COUNTER in values["after"]:
            runs[(test, int(rep), tool)] = values["after"][COUNTER] - values["before"][COUNTER]
    return runs


def window_runs(path):
    """{(test, rep, tool): completer_retry_err between ours' begin and end marks}"""
    runs = {}
    if not os.path.exists(path):
        return runs
    key = None
    marks = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] == "run":
            marks = {}
            test, rep = f[1].rsplit(".", 1)
            key = (test, int(rep), f[2])
        elif len(f) == 3 and f[1] == COUNTER and key is not None:
            marks[f[0]] = int(f[2])
            if "begin" in marks and "end" in marks:
                runs[key] = marks["end"] - marks["begin"]
    return runs


def main():
    job = sys.argv[1]
    lengths = run_lengths.from_argv(sys.argv)
    whole = whole_runs(os.path.join(job, "raw"))
    window = window_runs(os.path.join(job, "window-counters.txt"))
    if not whole:
        return
    tests = sorted({t for t, _, _ in whole}, key=lambda t: min(r for tt, r, _ in whole if tt == t))
    tools = [t for t in ("perftest", "remus", "remus-b") if any(tool == t for _, _, tool in whole)]
    print("| test | tool | ACK timeouts per client run | inside the measured window | per 1,000 measured operations |")
    print("| --- | --- | --- | --- | ---: |")
    for test in tests:
        for tool in tools:
            reps = sorted(r for t, r, tl in whole if t == test and tl == tool)
            if not reps:
                continue
            each = " / ".join(str(whole[(test, r, tool)]) for r in reps)
            inside = [(window[(test, r, tool)], run_lengths.of_run(lengths, test, r))
                      for r in reps if (test, r, tool) in window]
            if inside:
                per = statistics.median(1000.0 * w / n for w, n in inside)
                print("| %s | %s | %s | %s | %.2f |" % (test, tool, each, " / ".join(str(w) for w, _ in inside), per))
            else:
                print("| %s | %s | %s | - | - |" % (test, tool, each))


if __name__ == "__main__":
    main()

"""The client runs of a perftest-compare boot with the plugin's marks, shared by its table scripts.

JOB/insn-plan.txt has one line per client run, "<test>.<rep> <tool> <exit> [<marks from inside>]",
in the order the runs made their marks in JOB/insn-marks.txt: two each (before it starts and after
it ends) plus the marks the client made itself (ours: two, its measured window).
"""
import sys


def client_runs(job, marks, script):
    """Cuts marks (in the order of the plan) into client runs: a list of (test, rep, tool, status,
    run), run being that client's marks, first and last the two around it. Exits naming script when
    the counts disagree."""
    plan = [line.split() for line in open(job + "/insn-plan.txt") if line.strip()]
    inside = [int(p[3]) if len(p) > 3 else 0 for p in plan]
    if len(marks) != 2 * len(plan) + sum(inside):
        sys.exit("%s: %d marks for %d client runs (want two each, and %d from inside)"
                 % (script, len(marks), len(plan), sum(inside)))
    runs = []
    m = 0
    for p, k in zip(plan, inside):
        name, tool, status = p[:3]
        test, rep = name.rsplit(".", 1)
        runs.append((test, int(rep), tool, int(status), marks[m:m + 2 + k]))
        m += 2 + k
    return runs

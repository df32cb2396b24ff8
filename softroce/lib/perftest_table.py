#!/usr/bin/env python3
"""Parses the raw outputs of softroce/perftest-compare and prints one Markdown table.

Usage: perftest_table.py RAW_DIR REPS "TESTS"
       perftest_table.py --self-test      (the number formatting's examples, below)
Latency rows: perftest's t_typical (its median) and ours (median), each the median over the
repetitions, their ratio (ours / perftest; target <= 1.05), and the minimum over all repetitions.
Bandwidth rows: average bandwidth (MB/s, 2^20 bytes) and message rate (msg/s, or Mmsg/s where a
rate reaches a million), medians over the repetitions, ratio ours / perftest (target >= 0.95), and
each repetition's message rate. Rates and bandwidths have 3 significant digits, ratios 3 decimals.
Both tables also give the paired ratio: ours / perftest within each repetition (the two ran back to
back), its median and range over the repetitions.
Ours' repetitions come from one report each (<test>.<rep>.remus.txt) or, with PERF_SAME_JVM, from one
report per test whose results are the repetitions in order (<test>.all.remus.txt).
When the raw directory holds runs of ours with the second JVM options or build (<test>.<rep>.remus-b.txt,
PERF_JAVA_OPTS_B or PERF_TOOLS_B), each table gets their median and ratio too.
Tests with no result at all are left out of the tables; a line names every test that did not finish
all its repetitions (the guest ran out of time, a tool failed), and the exit status is then 1.
"""
import doctest
import json
import math
import os
import statistics
import sys

LATENCY = {"read_lat", "write_lat", "atomic_lat", "send_lat"}


def perftest_row(path):
    """Returns the numbers of perftest's result line, or None when the run failed."""
    if not os.path.exists(path):
        return None
    lines = open(path, errors="replace").read().splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("#bytes"):
            for data in lines[i + 1:]:
                fields = data.split()
                if fields and fields[0].isdigit():
                    return [float(f) for f in fields]
    return None


def remus_row(path, index=0):
    """Returns result number index of our --json report, or None when the run failed."""
    if not os.path.exists(path):
        return None
    text = open(path, errors="replace").read()
    start = text.find("{")
    if start < 0:
        return None
    try:
        report = json.loads(text[start:text.rfind("}") + 1])
    except ValueError:
        return None
    results = report.get("results") or []
    return results[index] if index < len(results) else None


def remus_rep(raw, test, rep, label):
    """Ours' result for one repetition: its own run's report, or (PERF_SAME_JVM, --repeat) result rep of
    the test's one report, <test>.all.<label>.txt."""
    own = os.path.join(raw, f"{test}.{rep}.{label}.txt")
    if os.path.exists(own):
        return remus_row(own)
    return remus_row(os.path.join(raw, f"{test}.all.{label}.txt"), rep - 1)


def paired_ratios(ratios):
    """The median and range of ours / perftest taken repetition by repetition (each pair ran back to back).

    All three at 3 decimals: rounding keeps their order, so the median never lies outside its range.
    >>> paired_ratios([0.9976, 0.9984, 1.0012])
    '0.998 [0.998-1.001]'
    >>> paired_ratios([0.9984, None, 0.9979])
    '0.998 [0.998-0.998]'
    >>> paired_ratios([None])
    '-'
    """
    ratios = [q for q in ratios if q is not None]
    if not ratios:
        return "-"
    return f"{statistics.median(ratios):.3f} [{min(ratios):.3f}-{max(ratios):.3f}]"


def sig3(value):
    """A positive number with 3 significant digits, thousands separated.

    >>> [sig3(v) for v in (1020.4, 943.2, 28512, 999.6, 12.345, 0.98765, 0.0012345, 0)]
    ['1,020', '943', '28,500', '1,000', '12.3', '0.988', '0.00123', '0']
    >>> sig3(None)
    '-'
    """
    if value is None:
        return "-"
    if value == 0:
        return "0"
    rounded = round(value, 2 - math.floor(math.log10(abs(value))))
    decimals = max(0, 2 - math.floor(math.log10(abs(rounded))))
    return f"{rounded:,.{decimals}f}"


def rate_unit(rates):
    """The unit and divisor for message rates (msg/s): Mmsg/s where one reaches a million.

    >>> rate_unit([943.2, 1020.4])
    ('msg/s', 1)
    >>> rate_unit([2.5e6, 9.9e5])
    ('Mmsg/s', 1000000.0)
    """
    return ("Mmsg/s", 1e6) if any(r is not None and r >= 1e6 for r in rates) else ("msg/s", 1)


def per_rep(values):
    """One tool's per-repetition values, formatted, or "-" when none came back.

    >>> per_rep(["297", "301"]), per_rep([])
    ('297 / 301', '-')
    """
    return " / ".join(values) or "-"


def median(values):
    return statistics.median(values) if values else None


def fmt(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(ours, theirs):
    return None if ours is None or not theirs else ours / theirs


def unfinished(test, reps, counts):
    """The line naming a test whose tools did not all finish every repetition, or None.

    >>> unfinished("read_bw", 2, {"perftest": 2, "remus": 0})
    'read_bw: perftest 2 of 2 repetitions, remus 0 of 2'
    >>> unfinished("atomic_lat", 2, {"perftest": 2, "remus": 2}) is None
    True
    """
    if all(n == reps for n in counts.values()):
        return None
    return f"{test}: " + ", ".join(f"{tool} {n} of {reps}" + (" repetitions" if i == 0 else "")
                                   for i, (tool, n) in enumerate(counts.items()))


def main():
    raw, reps, tests = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
    files = os.listdir(raw) if os.path.isdir(raw) else []
    variant_b = any(f.endswith(".remus-b.txt") for f in files)
    labels = ("remus", "remus-b") if variant_b else ("remus",)
    lat_rows, bw_rows, incomplete, crashes = [], [], [], []
    for test in tests:
        pt, us, us_b = [], [], []
        pairs = []  # (perftest, ours) of the repetitions where both have a result
        for rep in range(1, reps + 1):
            p = perftest_row(os.path.join(raw, f"{test}.{rep}.perftest.txt"))
            if p is not None:
                pt.append(p)
            for label, into in zip(labels, (us, us_b)):
                r = remus_rep(raw, test, rep, label)
                if r is not None:
                    into.append(r)
                    if label == "remus" and p is not None:
                        pairs.append((p, r))
        for label in labels:
            crashes += sorted(f for f in files if f.startswith(f"{test}.") and f".{label}." in f and ".hs_err_" in f)
        counts = {"perftest": len(pt), "remus": len(us)}
        if variant_b:
            counts["remus-b"] = len(us_b)
        line = unfinished(test, reps, counts)
        if line:
            incomplete.append(line)
        if not pt and not us:
            continue
        if test in LATENCY:
            p_med = median([p[4] for p in pt])
            r_med = median([r["median"] for r in us])
            b_med = median([r["median"] for r in us_b])
            p_min = min([p[2] for p in pt], default=None)
            r_min = min([r["min"] for r in us], default=None)
            reps_text = per_rep([fmt(p[4]) for p in pt]) + " vs " + per_rep([fmt(r["median"]) for r in us])
            if variant_b:
                reps_text += " vs B " + per_rep([fmt(r["median"]) for r in us_b])
            paired = paired_ratios([ratio(r["median"], p[4]) for p, r in pairs])
            lat_rows.append((test, p_med, r_med, ratio(r_med, p_med), paired, p_min, r_min, reps_text, b_med,
                             ratio(b_med, p_med)))
        else:
            p_bw = median([p[3] for p in pt])
            r_bw = median([r["bw_average"] for r in us])
            b_bw = median([r["bw_average"] for r in us_b])
            p_rates = [p[4] * 1e6 for p in pt]  # perftest's MsgRate is in Mpps
            r_rates = [r["msg_rate_mpps"] * 1e6 for r in us]
            paired = paired_ratios([ratio(r["msg_rate_mpps"], p[4]) for p, r in pairs])
            bw_rows.append((test, p_bw, r_bw, ratio(r_bw, p_bw), p_rates, r_rates,
                            ratio(median(r_rates), median(p_rates)), paired, b_bw, ratio(b_bw, p_bw)))
    out = []
    b_head = " remus B median [us] | ratio B |" if variant_b else ""
    b_rule = " ---: | ---: |" if variant_b else ""
    if lat_rows:
        out.append("| latency test | perftest median [us] | remus median [us] | ratio (target <= 1.05) "
                   "| paired ratio, median [range] | perftest min [us] | remus min [us] "
                   "| per repetition [us] (perftest vs remus) |" + b_head)
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |" + b_rule)
        for t, pm, rm, q, pq, pmin, rmin, per, bm, qb in lat_rows:
            extra = f" {fmt(bm)} | {fmt(qb, 3)} |" if variant_b else ""
            out.append(f"| {t} | {fmt(pm)} | {fmt(rm)} | {fmt(q, 3)} | {pq} | {fmt(pmin)} | {fmt(rmin)} | {per} |"
                       + extra)
        out.append("")
    if bw_rows:
        unit, div = rate_unit([r for row in bw_rows for r in row[4] + row[5]])
        out.append("| bandwidth test | perftest BW [MB/s] | remus BW [MB/s] | ratio (target >= 0.95) "
                   f"| perftest [{unit}] | remus [{unit}] | ratio | paired ratio, median [range] "
                   f"| per repetition [{unit}] (perftest vs remus) |" + b_head.replace("median [us]", "BW [MB/s]"))
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |" + b_rule)
        for t, pb, rb, q, p_rates, r_rates, qr, pq, bb, qb in bw_rows:
            extra = f" {sig3(bb)} | {fmt(qb, 3)} |" if variant_b else ""
            pr, rr = median(p_rates), median(r_rates)
            per = per_rep([sig3(r / div) for r in p_rates]) + " vs " + per_rep([sig3(r / div) for r in r_rates])
            out.append(f"| {t} | {sig3(pb)} | {sig3(rb)} | {fmt(q, 3)} | {sig3(pr and pr / div)} "
                       f"| {sig3(rr and rr / div)} | {fmt(qr, 3)} | {pq} | {per} |" + extra)
        out.append("")
    if incomplete:
        out.append("Not finished (results per tool, of the repetitions planned): " + "; ".join(incomplete))
    for crash in crashes:
        out.append(f"A JVM crashed: {crash}")
    print("\n".join(out))
    return 1 if incomplete or crashes else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        failed, tried = doctest.testmod()
        print(f"perftest_table.py: {tried - failed} of {tried} formatting examples hold")
        sys.exit(1 if failed else 0)
    sys.exit(main())

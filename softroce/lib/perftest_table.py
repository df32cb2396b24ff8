#!/usr/bin/env python3
"""Parses the raw outputs of softroce/perftest-compare and prints one Markdown table.

Usage: perftest_table.py RAW_DIR REPS "TESTS"
Latency rows: perftest's t_typical (its median) and ours (median), each the median over the
repetitions, their ratio (ours / perftest; target <= 1.05), and the minimum over all repetitions.
Bandwidth rows: average bandwidth (MB/s, 2^20 bytes) and message rate, medians over the
repetitions, ratio ours / perftest (target >= 0.95), and each repetition's message rate.
Both tables also give the paired ratio: ours / perftest within each repetition (the two ran back to
back), its median and range over the repetitions.
Ours' repetitions come from one report each (<test>.<rep>.remus.txt) or, with PERF_SAME_JVM, from one
report per test whose results are the repetitions in order (<test>.all.remus.txt).
When the raw directory holds runs of ours with the second JVM options or build (<test>.<rep>.remus-b.txt,
PERF_JAVA_OPTS_B or PERF_TOOLS_B), each table gets their median and ratio too.
"""
import json
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
    """The median and range of ours / perftest taken repetition by repetition (each pair ran back to back)."""
    ratios = [q for q in ratios if q is not None]
    if not ratios:
        return "-"
    return f"{statistics.median(ratios):.3f} [{min(ratios):.2f}-{max(ratios):.2f}]"


def median(values):
    return statistics.median(values) if values else None


def fmt(value, digits=2):
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(ours, theirs):
    return None if ours is None or not theirs else ours / theirs


def main():
    raw, reps, tests = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
    variant_b = any(f.endswith(".remus-b.txt") for f in os.listdir(raw))
    lat_rows, bw_rows, failures = [], [], []
    for test in tests:
        pt, us, us_b = [], [], []
        pairs = []  # (perftest, ours) of the repetitions where both have a result
        for rep in range(1, reps + 1):
            p = perftest_row(os.path.join(raw, f"{test}.{rep}.perftest.txt"))
            if p is None:
                failures.append(f"{test} rep {rep}: perftest produced no result")
            else:
                pt.append(p)
            for label, into in (("remus", us), ("remus-b", us_b)) if variant_b else (("remus", us),):
                r = remus_rep(raw, test, rep, label)
                if r is None:
                    crashed = sorted(f for f in os.listdir(raw) if f.startswith(f"{test}.") and f".{label}." in f
                                     and ".hs_err_" in f)
                    why = f" (the JVM crashed: {', '.join(crashed)})" if crashed else ""
                    failures.append(f"{test} rep {rep}: {label} produced no result{why}")
                else:
                    into.append(r)
                    if label == "remus" and p is not None:
                        pairs.append((p, r))
        if test in LATENCY:
            p_med = median([p[4] for p in pt])
            r_med = median([r["median"] for r in us])
            b_med = median([r["median"] for r in us_b])
            p_min = min([p[2] for p in pt], default=None)
            r_min = min([r["min"] for r in us], default=None)
            per_rep = " / ".join(fmt(p[4], 1) for p in pt) + " vs " + " / ".join(fmt(r["median"], 1) for r in us)
            if variant_b:
                per_rep += " vs B " + " / ".join(fmt(r["median"], 1) for r in us_b)
            paired = paired_ratios([ratio(r["median"], p[4]) for p, r in pairs])
            lat_rows.append((test, p_med, r_med, ratio(r_med, p_med), paired, p_min, r_min, per_rep, b_med,
                             ratio(b_med, p_med)))
        else:
            p_bw = median([p[3] for p in pt])
            r_bw = median([r["bw_average"] for r in us])
            b_bw = median([r["bw_average"] for r in us_b])
            p_rate = median([p[4] for p in pt])
            r_rate = median([r["msg_rate_mpps"] for r in us])
            paired = paired_ratios([ratio(r["msg_rate_mpps"], p[4]) for p, r in pairs])
            per_rep = (" / ".join(f"{p[4] * 1e3:.1f}" for p in pt) + " vs "
                       + " / ".join(f"{r['msg_rate_mpps'] * 1e3:.1f}" for r in us))
            bw_rows.append((test, p_bw, r_bw, ratio(r_bw, p_bw), p_rate, r_rate, ratio(r_rate, p_rate), paired, per_rep,
                            b_bw, ratio(b_bw, p_bw)))
    out = []
    b_head = " remus B median [us] | ratio B |" if variant_b else ""
    b_rule = " ---: | ---: |" if variant_b else ""
    if lat_rows:
        out.append("| latency test | perftest median [us] | remus median [us] | ratio (target <= 1.05) "
                   "| paired ratio, median [range] | perftest min [us] | remus min [us] "
                   "| per repetition (perftest vs remus) |" + b_head)
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |" + b_rule)
        for t, pm, rm, q, pq, pmin, rmin, per, bm, qb in lat_rows:
            extra = f" {fmt(bm)} | {fmt(qb, 3)} |" if variant_b else ""
            out.append(f"| {t} | {fmt(pm)} | {fmt(rm)} | {fmt(q, 3)} | {pq} | {fmt(pmin)} | {fmt(rmin)} | {per} |"
                       + extra)
        out.append("")
    if bw_rows:
        out.append("| bandwidth test | perftest BW [MB/s] | remus BW [MB/s] | ratio (target >= 0.95) "
                   "| perftest [Mpps] | remus [Mpps] | ratio | paired ratio, median [range] "
                   "| per repetition [kmsg/s] (perftest vs remus) |" + b_head.replace("median [us]", "BW [MB/s]"))
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |" + b_rule)
        for t, pb, rb, q, pr, rr, qr, pq, per, bb, qb in bw_rows:
            extra = f" {fmt(bb)} | {fmt(qb, 3)} |" if variant_b else ""
            out.append(f"| {t} | {fmt(pb)} | {fmt(rb)} | {fmt(q, 3)} | {fmt(pr, 6)} | {fmt(rr, 6)} | {fmt(qr, 3)} "
                       f"| {pq} | {per} |" + extra)
        out.append("")
    for f in failures:
        out.append(f"FAILED: {f}")
    print("\n".join(out))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

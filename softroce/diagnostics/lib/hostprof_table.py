#!/usr/bin/env python3
"""Where the host's time went, per client run of a PERF_HOSTPROF=1 run of softroce/perftest-compare.

Usage: hostprof_table.py JOB_DIR LAT_N1 LAT_N2 BW_N1 BW_N2
JOB/host-perf.txt is `perf script -F tid,time,ip,sym,dso --ns` of `perf record -k CLOCK_MONOTONIC`
over the QEMU process; JOB/insn-marks.txt has the plugin's marks, each with the host's
CLOCK_MONOTONIC (softroce/diagnostics/insn-count/insn_split.c), in the order of JOB/insn-plan.txt (see
insn_table.py). A perftest client's span is its whole process (start-up and connection included);
ours' is the measured window it marked itself. For each span: its length, how busy QEMU's busiest
thread was (with single-threaded TCG, the one thread that runs every vCPU), the guest's
instructions and the host's nanoseconds per operation and per guest instruction, and how the TCG
thread's samples split over what QEMU does:

- generated: the guest's code as TCG translated it (samples outside any named function);
- translate: translating guest code (tb_gen_code, the tcg_ back end, the x86 front end);
- invalidate: throwing translated code away when the guest writes to its page (tb_invalidate_*);
- softmmu: the slow path of guest memory accesses (TLB refills, page walks, TLB flushes, MMIO);
- lookup: finding the next translation block where jumps are not chained (helper_lookup_tb_ptr,
  the cpu_exec loop);
- helpers: other instructions TCG emulates by a call (system calls, interrupts, atomics, rdtsc);
- qemu unnamed: QEMU's static functions (Debian strips QEMU; only exported functions have names);
- host kernel, other: the host's kernel, and everything else in QEMU or its libraries.

With JOB/host-stat.txt (softroce/diagnostics/lib/host_stat.py), each span also gets the host's steal time: the
share of one CPU the hypervisor under this machine ran something else while this machine wanted to
run (the same guest code then takes longer, whichever tool runs).

Then the busiest functions per test and tool, over all their spans.
"""
import bisect
import collections
import re
import statistics
import sys

import insn_plan
import run_lengths

SAMPLE = re.compile(r"^\s*(\d+)\s+(\d+)\.(\d+):\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$")

TRANSLATE = ("tb_gen_code", "tcg_", "translator_", "gen_", "disas_insn", "i386_tr_", "liveness_pass",
             "reachable_code_pass", "la_", "temp_", "x86_ld", "cpu_ldub_code", "cpu_lduw_code", "cpu_ldl_code",
             "cpu_ldq_code", "translate", "tb_link_page", "tb_page_add", "page_find_alloc", "tcg")
INVALIDATE = ("tb_invalidate", "tb_phys_invalidate", "do_tb_phys_invalidate", "page_collection", "tb_remove",
              "tb_jmp_unlink", "tb_jmp_cache_clear", "notdirty_write", "tb_flush", "do_tb_flush",
              "cpu_tb_jmp_cache_clear", "tb_page_remove", "invalidate_page_bitmap", "build_page_bitmap")
SOFTMMU = ("tlb_", "x86_cpu_tlb_fill", "mmu_translate", "get_physical_address", "probe_access", "address_space_",
           "flatview_", "io_readx", "io_writex", "memory_region_", "victim_tlb_hit", "load_helper", "store_helper",
           "x86_ldl_phys", "x86_ldq_phys", "x86_stl_phys", "x86_stq_phys", "ldl_phys", "ldq_phys",
           "stl_phys", "stq_phys", "address_space_ld", "address_space_st", "iotlb_to_section",
           "cpu_ld", "cpu_st", "helper_le_", "helper_be_", "helper_ret_", "full_", "qemu_ram_", "mmu_")
LOOKUP = ("helper_lookup_tb_ptr", "tb_htable_lookup", "get_page_addr_code", "tb_lookup", "cpu_exec", "qht_lookup", "tb_cmp",
          "cpu_get_tb_cpu_state", "cpu_loop_exit", "siglongjmp", "__sigsetjmp", "__longjmp", "cpu_handle_",
          "tb_jmp_cache", "qht_", "cpu_tb_exec", "rr_cpu_thread_fn", "tcg_cpus_exec")
CATEGORIES = ("generated", "lookup", "translate", "invalidate", "softmmu", "helpers", "qemu unnamed", "host kernel",
              "other")
USER_HZ = 100  # /proc/stat's unit


def category(sym, dso):
    if dso.startswith("[kernel"):
        return "host kernel"
    if sym == "[unknown]":
        if "qemu" in dso:
            return "qemu unnamed"
        return "generated" if ".so" not in dso else "other"
    for name, prefixes in (("invalidate", INVALIDATE), ("lookup", LOOKUP), ("softmmu", SOFTMMU),
                           ("translate", TRANSLATE)):
        if sym.startswith(prefixes):
            return name
    if sym.startswith("helper_"):
        return "helpers"
    return "other"


def read_samples(path):
    """[(time_ns, tid, sym, dso)] in time order."""
    samples = []
    for line in open(path, errors="replace"):
        m = SAMPLE.match(line)
        if m:
            t = int(m.group(2)) * 1_000_000_000 + int(m.group(3).ljust(9, "0")[:9])
            samples.append((t, int(m.group(1)), m.group(5), m.group(6)))
    samples.sort()
    return samples


def read_stat(path):
    """[(time_ns, steal_jiffies)] from host_stat.py's samples, or [] without them."""
    try:
        lines = open(path).read().split("\n")
    except OSError:
        return []
    stat = []
    for line in lines:
        f = line.split()
        if len(f) > 8:
            stat.append((int(f[0]), int(f[8])))
    return stat


def steal_share(stat, t0, t1):
    """The host's steal time over [t0, t1] as a share of one CPU, from the samples around it, or None."""
    times = [s[0] for s in stat]
    i, j = bisect.bisect_right(times, t0) - 1, bisect.bisect_left(times, t1)
    if i < 0 or j >= len(stat) or stat[j][0] <= stat[i][0]:
        return None
    return (stat[j][1] - stat[i][1]) / USER_HZ / ((stat[j][0] - stat[i][0]) / 1e9)


def read_spans(job):
    """[(test, rep, tool, status, (t0, t1), (user, kernel))] for each client run: ours' measured window
    when it marked one, else the whole client run."""
    marks = []
    for line in open(job + "/insn-marks.txt"):
        f = line.split()
        if f and f[0] == "mark":
            if len(f) < 8:
                sys.exit("hostprof_table: the marks carry no host time (an older insn_split.so?)")
            marks.append((int(f[3]), int(f[5]), int(f[7])))
    spans = []
    for test, rep, tool, status, run in insn_plan.client_runs(job, marks, "hostprof_table"):
        a, b = (run[1], run[2]) if len(run) == 4 else (run[0], run[-1])
        spans.append((test, rep, tool, status, (a[2], b[2]), (b[0] - a[0], b[1] - a[1])))
    return spans


def main():
    job = sys.argv[1]
    lengths = run_lengths.from_argv(sys.argv)
    samples = read_samples(job + "/host-perf.txt")
    if not samples:
        sys.exit("hostprof_table: no samples in %s/host-perf.txt" % job)
    per_thread = collections.Counter(s[1] for s in samples)
    tcg = per_thread.most_common(1)[0][0]
    period = statistics.median(b[0] - a[0] for a, b in zip(samples, samples[1:])
                               if a[1] == tcg and b[1] == tcg and b[0] > a[0])
    times = [s[0] for s in samples]
    spans = read_spans(job)
    stat = read_stat(job + "/host-stat.txt")
    print("Host profile of QEMU (perf, one sample per ~%.2f ms of the busiest thread's CPU time), per client "
          "run: ours inside its measured window (PERF_SAME_JVM: its whole repetition, at its gate), perftest over its "
          "whole process.\n" % (period / 1e6))
    print("| test | tool | rep | span [s] | TCG thread busy | host steal | guest insns/op (user + kernel) | host us/op "
          "| host ns/guest insn | " + " | ".join(CATEGORIES) + " |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | " + " | ".join("---:" for _ in CATEGORIES)
          + " |")
    symbols = collections.defaultdict(collections.Counter)
    for test, rep, tool, status, (t0, t1), (user, kernel) in spans:
        if status != 0 or t1 <= t0:
            continue
        n = run_lengths.of_run(lengths, test, rep)
        lo, hi = bisect.bisect_left(times, t0), bisect.bisect_right(times, t1)
        mine = [s for s in samples[lo:hi] if s[1] == tcg]
        counts = collections.Counter(category(s[2], s[3]) for s in mine)
        for s in mine:
            symbols[(test, tool)][s[2] if s[2] != "[unknown]" else "[unknown] " + s[3]] += 1
        span = (t1 - t0) / 1e9
        busy = len(mine) * period / (t1 - t0)
        insns = user + kernel
        shares = " | ".join("%.0f%%" % (100.0 * counts[c] / len(mine)) if mine else "-" for c in CATEGORIES)
        steal = steal_share(stat, t0, t1)
        print("| %s | %s | %d | %.2f | %.0f%% | %s | %.0f (%.0f + %.0f) | %.1f | %.2f | %s |"
              % (test, tool, rep, span, 100 * busy, "-" if steal is None else "%.0f%%" % (100 * steal),
                 insns / n, user / n, kernel / n, (t1 - t0) / n / 1e3,
                 (t1 - t0) / insns if insns else float("nan"), shares))
    print("\nBusiest functions of the TCG thread per test and tool (all spans together):\n")
    for (test, tool), counter in sorted(symbols.items()):
        total = sum(counter.values())
        top = ", ".join("%s %.1f%%" % (sym, 100.0 * c / total) for sym, c in counter.most_common(14))
        print("- %s, %s (%d samples): %s" % (test, tool, total, top))
    others = sum(c for t, c in per_thread.items() if t != tcg)
    print("\nThreads: %d samples in the TCG thread %d, %d in %d others, over the whole boot."
          % (per_thread[tcg], tcg, others, len(per_thread) - 1))


if __name__ == "__main__":
    main()

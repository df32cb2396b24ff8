#!/usr/bin/env python3
"""Where the guest's instructions went, per test and tool, in a PERF_INSNPROF=1 run of
softroce/perftest-compare.

Usage: insn_profile.py JOB_DIR

Reads JOB/insn-profile.txt (the plugin's counts per translation block start address between marks,
softroce/diagnostics/insn-count/insn_split.c), JOB/insn-marks.txt and JOB/insn-plan.txt (which marks belong to
which client run, insn_plan.py), JOB/kallsyms.txt (the guest kernel's symbols) and
JOB/raw/<test>.<rep>.<tool>.maps (the client's mappings) and JOB/raw/<test>.all.<tool>.perfmap (ours'
generated code, -XX:+DumpPerfMapAtExit). A perftest client's span is its whole process, start-up
included; ours' (PERF_SAME_JVM) one repetition at its gate, its warm-up included.

Every count is divided by the span's calls of rxe's post_send (executions of the block at that
function's first instruction): one per request posted, for both tools, so the columns are
instructions per request. Kernel addresses are named by the function they fall in; user-space ones
by the client's mapping they fall in (anonymous executable memory is the JVM's generated code;
addresses outside the client's mappings belong to other processes) and, within it, by the file's
function symbols (its symbol table, else its dynamic one: then a stripped library's static
functions take the name of the exported one before them) or the perf map's method or stub. Per
tool the median over its spans; the rows are ordered by how much the tools differ.
"""
import bisect
import collections
import os
import statistics
import subprocess
import sys

import insn_plan

KERNEL = 1 << 47
POST = "rxe_post_send"


def kernel_symbols(path):
    """Sorted (address, name) of the kernel's text symbols."""
    syms = []
    for line in open(path):
        parts = line.split()
        if len(parts) >= 3 and parts[1] in "tTwW":
            addr = int(parts[0], 16)
            if addr:
                syms.append((addr, parts[2]))
    syms.sort()
    return syms


def mappings(path):
    """Sorted (start, end, file offset, path or None) of executable mappings in a /proc/PID/maps file."""
    maps = []
    if not os.path.exists(path):
        return maps
    for line in open(path):
        parts = line.split()
        if len(parts) < 5 or "x" not in parts[1]:
            continue
        start, end = (int(x, 16) for x in parts[0].split("-"))
        maps.append((start, end, int(parts[2], 16), parts[5] if len(parts) > 5 else None))
    maps.sort()
    return maps


class ElfSymbols:
    """A file's function symbols (its symbol table, else its dynamic one), by file offset; the guest
    sees this machine's files, so the paths in its maps name the same files here."""
    cache = {}

    def __init__(self, path):
        self.starts, self.names, self.segments = [], [], []
        try:
            for line in subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout.splitlines():
                f = line.split()
                if f and f[0] == "LOAD":
                    self.segments.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))  # offset, vaddr, size
            syms = []
            for flag in ([], ["-D"]):
                out = subprocess.run(["nm", "--defined-only", "-C"] + flag + [path], capture_output=True,
                                     text=True).stdout
                syms = [(int(f[0], 16), " ".join(f[2:])) for f in (l.split() for l in out.splitlines())
                        if len(f) >= 3 and f[1] in "tTwWiI"]
                if syms:
                    break
            syms.sort()
            self.starts = [a for a, _ in syms]
            self.names = [n for _, n in syms]
        except OSError:
            pass

    @classmethod
    def of(cls, path):
        if path not in cls.cache:
            cls.cache[path] = cls(path)
        return cls.cache[path]

    def name(self, file_offset):
        for off, vaddr, size in self.segments:
            if off <= file_offset < off + size:
                i = bisect.bisect_right(self.starts, file_offset - off + vaddr) - 1
                return self.names[i] if i >= 0 else None
        return None


def perf_map(path):
    """Sorted (start, end, name) of a JVM's perf map (-XX:+DumpPerfMapAtExit): its generated code."""
    entries = []
    if os.path.exists(path):
        for line in open(path):
            f = line.split(None, 2)
            if len(f) == 3:
                start = int(f[0], 16)
                entries.append((start, start + int(f[1], 16), f[2].strip()))
    entries.sort()
    return entries


class Namer:
    """Names a span's addresses: (coarse, fine), coarse being the kernel or a client mapping, fine a
    function, a generated method or stub, or the coarse name again where nothing finer is known."""

    def __init__(self, syms, maps, jit):
        self.syms, self.sym_addrs = syms, [a for a, _ in syms]
        self.maps, self.map_starts = maps, [m[0] for m in maps]
        self.jit, self.jit_starts = jit, [j[0] for j in jit]

    def __call__(self, addr):
        if addr >= KERNEL:
            i = bisect.bisect_right(self.sym_addrs, addr) - 1
            return "kernel", "k " + (self.syms[i][1] if i >= 0 else "?")
        i = bisect.bisect_right(self.map_starts, addr) - 1
        if i < 0 or addr >= self.maps[i][1]:
            return "u (not the client's)", "u (not the client's)"
        start, _, offset, path = self.maps[i]
        if path is None:
            j = bisect.bisect_right(self.jit_starts, addr) - 1
            if j >= 0 and addr < self.jit[j][1]:
                return "u generated code", "u jit " + self.jit[j][2]
            return "u generated code", "u jit (unnamed)"
        lib = os.path.basename(path)
        sym = ElfSymbols.of(path).name(addr - start + offset)
        return "u " + lib, "u %s %s" % (lib, sym) if sym else "u " + lib


def main():
    job = sys.argv[1]
    marks = [line.split() for line in open(job + "/insn-marks.txt") if line.startswith("mark ")]
    runs = insn_plan.client_runs(job, marks, "insn_profile.py")
    syms = kernel_symbols(job + "/kallsyms.txt")
    post_addrs = {a for a, n in syms if n == POST}
    if not post_addrs:
        sys.exit("insn_profile.py: no %s in kallsyms.txt (is rdma_rxe loaded, kptr_restrict 0?)" % POST)
    # span index by each mark sequence number it covers: a profile section "mark s" holds what ran
    # between marks s-1 and s
    span_of = {}
    for k, (_, _, _, _, run) in enumerate(runs):
        first, last = int(run[0][1]), int(run[-1][1])
        for s in range(first + 1, last + 1):
            span_of[s] = k
    raw = [collections.Counter() for _ in runs]   # per span: address -> instructions
    posts = [0] * len(runs)
    current = None
    for line in open(job + "/insn-profile.txt"):
        if line.startswith("mark "):
            current = span_of.get(int(line.split()[1]))
            continue
        if current is None:
            continue
        a, insns, execs = line.split()
        addr = int(a, 16)
        raw[current][addr] += int(insns)
        if addr in post_addrs:
            posts[current] += int(execs)
    # name each span's addresses
    coarse_per_post, fine_per_post = [], []   # per span: name -> instructions per post
    for k, (test, rep, tool, _, _) in enumerate(runs):
        namer = Namer(syms, mappings("%s/raw/%s.%d.%s.maps" % (job, test, rep, tool)),
                      perf_map("%s/raw/%s.all.%s.perfmap" % (job, test, tool)))
        coarse, fine = collections.Counter(), collections.Counter()
        for addr, insns in raw[k].items():
            c, f = namer(addr)
            coarse[c] += insns
            fine[f] += insns
        coarse_per_post.append({n: v / posts[k] for n, v in coarse.items()} if posts[k] else {})
        fine_per_post.append({n: v / posts[k] for n, v in fine.items()} if posts[k] else {})
    tests = []
    for test, _, _, _, _ in runs:
        if test not in tests:
            tests.append(test)
    print("# Guest instructions per request posted, by kernel function (k) and client mapping (u)")
    print()
    print("Median over each tool's spans; a span is a perftest client process (start-up included) or one "
          "of ours' repetitions at its gate (warm-up included). `softroce/diagnostics/lib/insn_profile.py`.")
    for test in tests:
        spans = [k for k, r in enumerate(runs) if r[0] == test and posts[k]]
        tools = []
        for k in spans:
            if runs[k][2] not in tools:
                tools.append(runs[k][2])
        if "perftest" not in tools:
            continue
        print()
        print("## %s" % test)
        print()
        for tool in tools:
            ks = [k for k in spans if runs[k][2] == tool]
            print("- %s: %d spans, posts %s" % (tool, len(ks), " / ".join(str(posts[k]) for k in ks)))
        for tool in tools:
            if tool != "perftest":
                table(spans, runs, tool, coarse_per_post, None)
        print()
        print("Per span:")
        print()
        names = sorted({n for k in spans for n in coarse_per_post[k]},
                       key=lambda n: -max(coarse_per_post[k].get(n, 0.0) for k in spans))
        print("| where | %s |" % " | ".join("%s %d" % (runs[k][2], runs[k][1]) for k in spans))
        print("| --- |%s" % (" ---: |" * len(spans)))
        print("| **all** | %s |" % " | ".join("%.0f" % sum(coarse_per_post[k].values()) for k in spans))
        for n in names:
            if max(coarse_per_post[k].get(n, 0.0) for k in spans) >= 1:
                print("| %s | %s |" % (n, " | ".join("%.0f" % coarse_per_post[k].get(n, 0.0) for k in spans)))
        for tool in tools:
            if tool != "perftest":
                table(spans, runs, tool, fine_per_post, 40)


def table(spans, runs, tool, per_post, limit):
    """One table of perftest's and tool's median instructions per post by name: every name, or the
    limit names that differ most."""
    names = set()
    for k in spans:
        names.update(per_post[k])

    def median(t, name):
        return statistics.median(per_post[k].get(name, 0.0) for k in spans if runs[k][2] == t)

    rows = [(median(tool, n) - median("perftest", n), n) for n in names]
    rows.sort(key=lambda r: -abs(r[0]))
    print()
    print("| %s | perftest | %s | %s - perftest |" % ("where" if limit is None else "function", tool, tool))
    print("| --- | ---: | ---: | ---: |")
    if limit is None:
        total_p = sum(median("perftest", n) for n in names)
        total_o = sum(median(tool, n) for n in names)
        print("| **all** | %.0f | %.0f | %+.0f |" % (total_p, total_o, total_o - total_p))
    for diff, n in rows[:limit]:
        print("| %s | %.1f | %.1f | %+.1f |" % (n, median("perftest", n), median(tool, n), diff))

if __name__ == "__main__":
    main()

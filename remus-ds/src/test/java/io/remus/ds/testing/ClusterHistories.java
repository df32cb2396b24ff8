package io.remus.ds.testing;

import io.remus.check.ClockOffset;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.HistoryFiles;
import io.remus.check.Operation;
import io.remus.core.ComputeThread;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The history plumbing of a test whose nodes are on different hosts: each node records its histories
 * with its own clock ({@link HistoryClock#EPOCH_MICROS}), bounds that clock's offset to node 0's by
 * RDMA round trips before and after its run ({@link ClockRoundTrips}), and ships its histories, with
 * the bound, to node 0 ({@link GatheredBytes}), which merges them per name (widened by the bounds,
 * {@link ClockOffset#apply}), checks them, and publishes a verdict that every other node waits for.
 *
 * <p>Node 0 allocates {@link #bytes} zeroed bytes on itself and shares the pointer (through the
 * root); every node then builds one of these over it. Call order on every node:
 * {@link #clockPhase}(0), the run, {@link #clockPhase}(1), then {@link #gather}; node 0 checks what
 * {@code gather} returned and calls {@link #publish}, the others call {@link #awaitVerdict}.
 */
public final class ClusterHistories {
    private static final int ROUNDS = 16;
    private static final long PASSED = 1;
    private static final long FAILED = 2;

    private final ComputeThread main;
    private final int size;
    private final List<String> names;
    private final Duration bound;
    private final Path dir;
    private final long verdict;
    private final long clockSlots;
    private final long gatherSlots;
    private ClockOffset offset;

    /**
     * @param main  this node's compute thread (its owner makes every call)
     * @param base  the shared block on node 0
     * @param size  the number of nodes
     * @param names the histories' names, the same on every node
     * @param bound how long each wait may take
     * @param dir   a local directory for the history files
     */
    public ClusterHistories(ComputeThread main, long base, int size, List<String> names, Duration bound, Path dir) {
        this.main = main;
        this.size = size;
        this.names = List.copyOf(names);
        this.bound = bound;
        this.dir = dir;
        this.verdict = base;
        this.clockSlots = base + 8;
        this.gatherSlots = clockSlots + ClockRoundTrips.BYTES_PER_NODE * size;
    }

    /**
     * @param size      the number of nodes
     * @param histories the number of histories per node
     * @return bytes of the shared block
     */
    public static long bytes(int size, int histories) {
        return 8 + ClockRoundTrips.BYTES_PER_NODE * size + GatheredBytes.SLOT_BYTES * (long) size * histories;
    }

    /**
     * One phase of clock round trips: node 0 answers, the others measure, and the bound of the phases so
     * far is kept.
     *
     * @param phase 0 before the run, 1 after it
     */
    public void clockPhase(int phase) {
        ClockOffset o;
        if (main.nodeId() == 0) {
            ClockRoundTrips.serve(main, clockSlots, size, phase, ROUNDS, HistoryClock.EPOCH_MICROS, bound);
            o = ClockOffset.ZERO;
        } else {
            o = ClockRoundTrips.measure(main, clockSlots, phase, ROUNDS, HistoryClock.EPOCH_MICROS, bound);
        }
        offset = offset == null ? o : offset.span(o);
    }

    /** @return this node's clock offset to node 0's, as bounded by the phases so far */
    public ClockOffset offset() {
        return offset;
    }

    /**
     * Writes this node's histories with its bound, and ships them to node 0 (other nodes) or collects
     * every node's and merges them (node 0).
     *
     * @param histories this node's history per name
     * @return on node 0, the merged history per name; elsewhere, an empty map
     */
    public Map<String, List<Operation>> gather(Map<String, History> histories) throws IOException, InterruptedException {
        int self = main.nodeId();
        System.out.println("node " + self + ": clock offset to node 0 within " + offset + " us (width " + offset.width() + ")");
        for (int h = 0; h < names.size(); h++) {
            Path f = file(names.get(h), self);
            HistoryFiles.write(histories.get(names.get(h)), offset, f);
            if (self != 0) {
                GatheredBytes.send(main, gatherSlot(self, h), Files.readAllBytes(f));
            }
        }
        Map<String, List<Operation>> merged = new LinkedHashMap<>();
        if (self != 0) {
            return merged;
        }
        for (int n = 1; n < size; n++) {
            for (int h = 0; h < names.size(); h++) {
                Files.write(file(names.get(h), n), GatheredBytes.receive(main, gatherSlot(n, h), bound));
            }
        }
        for (String name : names) {
            merged.put(name, HistoryFiles.merge(IntStream.range(0, size).mapToObj(n -> file(name, n)).toList()));
        }
        return merged;
    }

    /**
     * Node 0: publishes the verdict for the others.
     *
     * @param passed whether every check passed
     */
    public void publish(boolean passed) {
        main.write(verdict, passed ? PASSED : FAILED);
    }

    /**
     * Other nodes: waits for node 0's verdict.
     *
     * @return whether node 0 found every merged history correct
     * @throws AssertionError when none came within the bound
     */
    public boolean awaitVerdict() throws InterruptedException {
        long end = System.nanoTime() + bound.toNanos();
        long v;
        while ((v = main.read(verdict)) == 0) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("node 0 published no verdict within " + bound);
            }
            Thread.sleep(50);
        }
        return v == PASSED;
    }

    /**
     * Each host's run on node 0's clock (widened) and its median operation: how far the hosts' runs overlapped.
     *
     * @param all operations of every history, merged
     */
    public void printSpans(List<Operation> all) {
        long origin = all.stream().mapToLong(Operation::invokedAt).min().orElse(0);
        for (int p = 0; p < size; p++) {
            int process = p;
            List<Operation> own = all.stream().filter(op -> op.process() == process && !op.isPending()).toList();
            long[] durations = own.stream().mapToLong(op -> op.respondedAt() - op.invokedAt()).sorted().toArray();
            System.out.printf("host %d: %d operations from %.1f ms to %.1f ms on node 0's clock, median %d us (widened)%n", p,
                    own.size(), (own.stream().mapToLong(Operation::invokedAt).min().orElse(origin) - origin) / 1e3,
                    (own.stream().mapToLong(Operation::respondedAt).max().orElse(origin) - origin) / 1e3,
                    durations.length == 0 ? 0 : durations[durations.length / 2]);
        }
    }

    /**
     * Pairs of operations of different processes whose (widened) intervals overlap: how much the hosts interleaved.
     *
     * @param history one merged history
     * @return the number of such pairs
     */
    public static long crossHostOverlaps(List<Operation> history) {
        long n = 0;
        List<Operation> ops = new ArrayList<>(history);
        for (int i = 0; i < ops.size(); i++) {
            for (int j = i + 1; j < ops.size(); j++) {
                Operation a = ops.get(i);
                Operation b = ops.get(j);
                if (a.process() != b.process() && !a.precedes(b) && !b.precedes(a)) {
                    n++;
                }
            }
        }
        return n;
    }

    private Path file(String name, int node) {
        return dir.resolve(name + "-" + node + ".history");
    }

    private long gatherSlot(int node, int history) {
        return gatherSlots + GatheredBytes.SLOT_BYTES * ((long) node * names.size() + history);
    }
}

package io.remus.ds.object;

import io.remus.ds.testing.Counts;
import io.remus.ds.testing.Contention;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.identity.StructureIdentity;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link WaitFreeQueue} and {@link WaitFreeStack}: every call stays within {@link WaitFreeObject}'s
 * per-call bound when six threads on three nodes contend, from the compute thread's counters, with the
 * allocator's part taken out. {@link WaitFreeContainerTestBase#shouldExceedTheBoundWithoutHelping} shows
 * that the bound catches a construction without helping.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class WaitFreeContainerBoundTest {
    static Stream<Arguments> cases() {
        return cases(Fabrics.all());
    }

    static Stream<Arguments> cases(Stream<Named<Function<SimOptions, Fabric>>> fabrics) {
        List<Named<Function<SimOptions, Fabric>>> all = fabrics.toList();
        return Stream.of(WaitFreeContainer.QUEUE, WaitFreeContainer.STACK)
                .flatMap(kind -> all.stream().map(fabric -> Arguments.of(kind, fabric)));
    }

    int operationsPerThread() {
        return 150;
    }

    /** Whether a run of {@link #operationsPerThread} calls per thread meets helping and contention for sure. */
    boolean contendsForSure() {
        return true;
    }

    /** Per-call counts of one {@code apply}, with the allocator's part taken out. */
    record Call(Counts counts, long ownRoundTrips, long ownCompareAndSwaps, boolean allocatorSilent) {
    }

    static Call measure(WaitFreeContainer box, ComputeThread t, Runnable op) {
        WaitFreeObject<?> o = box.object();
        long allocRt = o.allocatorRoundTrips();
        long allocCas = o.allocatorCompareAndSwaps();
        Counts before = Counts.of(t);
        op.run();
        Counts w = before.since(t);
        long rt = o.allocatorRoundTrips() - allocRt;
        long cas = o.allocatorCompareAndSwaps() - allocCas;
        return new Call(w, w.roundTrips() - rt, w.compareAndSwaps() - cas, rt == 0 && cas == 0);
    }

    /**
     * The construction's bound on one call of a container of {@code blockBytes}-byte state blocks and
     * {@code capacity} handles: at most 1 + 3 + 2 round trips and the announcement and 2 publishing
     * compare-and-swaps besides the allocator; when the allocator did nothing, at most 3 reads of the
     * state (1 + 3 READs each), the record and 2 blocks written, the bytes of {@link WaitFreeObject}'s
     * formula and 16 RDMA operations in all.
     *
     * @return what the call broke, or null when it kept the bound
     */
    static String violation(Call call, int blockBytes, int capacity) {
        Counts w = call.counts();
        long maxBytesRead = StructureIdentity.PREFIX_BYTES + 8 + 3L * (blockBytes + 40L * capacity);
        long maxBytesWritten = 16 + 2L * blockBytes;
        if (call.ownRoundTrips() < 2 || call.ownRoundTrips() > 6) {
            return "2 to 1 + 3 + 2 round trips " + call;
        }
        if (call.ownCompareAndSwaps() < 1 || call.ownCompareAndSwaps() > 3) {
            return "the announcement and at most 2 publishing compare-and-swaps " + call;
        }
        if (!call.allocatorSilent()) {
            return null;
        }
        if (w.reads() < 4 || w.reads() > 10) {
            return "1 + 3 per state read, at most 3 reads " + call;
        }
        if (w.writes() < 1 || w.writes() > 3) {
            return "the record and at most 2 blocks " + call;
        }
        if (w.bytesRead() > maxBytesRead || w.bytesWritten() > maxBytesWritten) {
            return "at most " + maxBytesRead + " bytes read and " + maxBytesWritten + " written " + call;
        }
        if (w.fetchAndAdds() != 0 || w.operations() > 16) {
            return "no fetch-and-add, at most 16 RDMA operations " + call;
        }
        return null;
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("cases")
    void shouldStayWithinItsPerCallBoundWhenThreadsContend(WaitFreeContainer.Kind kind, Function<SimOptions, Fabric> make)
            throws InterruptedException {
        int threads = 6;
        int ops = operationsPerThread();
        int elements = 4;
        AtomicInteger helped = new AtomicInteger();
        AtomicInteger contended = new AtomicInteger();
        SimOptions options = WaitFreeContainerTestBase.hostile().withExecutionLatencyNanos(20_000);
        try (TestCluster c = new TestCluster(make, options, 3, b -> b.segmentSize(16 << 20))) {
            long ptr;
            int blockBytes;
            try (ComputeThread t = c.thread(0); NeverReclaimer r = new NeverReclaimer(t)) {
                WaitFreeContainer box = kind.create(t, r, WaitFreeContainerTestBase.HOME, threads + 1, elements,
                        WaitFreeObject.Helping.SEQUENCED);
                ptr = box.ptr();
                blockBytes = box.object().blockBytes();
            }
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                try (NeverReclaimer reclaimer = new NeverReclaimer(t)) {
                    WaitFreeContainer box = kind.attach(t, reclaimer, ptr, WaitFreeObject.Helping.SEQUENCED);
                    for (int i = 0; i < ops; i++) {
                        Contention.maybeYield();
                        long v = index * 10_000L + i;
                        Call call = measure(box, t, i % 2 == 0 ? () -> box.put(v) : box::take);
                        assertNull(violation(call, blockBytes, threads + 1), "call " + i + " of thread " + index);
                        Counts w = call.counts();
                        if (call.allocatorSilent() && (w.reads() - 1) / 3 > call.ownCompareAndSwaps() - 1) {
                            helped.incrementAndGet();
                        }
                        if (call.ownRoundTrips() > 3) {
                            contended.incrementAndGet();
                        }
                    }
                }
            });
        }
        System.out.println(kind + ": " + helped + " calls returned a helper's response, " + contended + " met contention");
        if (contendsForSure()) {
            assertTrue(helped.get() > 0, "some calls returned a response a helper published (one more state read than publishes)");
            assertTrue(contended.get() > 0, "some calls met contention (more than 3 round trips)");
        }
    }
}

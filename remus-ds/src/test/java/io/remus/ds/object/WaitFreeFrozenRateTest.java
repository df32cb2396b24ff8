package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.testing.FrozenRate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The wait-free objects with the library's default reclaimer ({@link EpochReclaimer} with
 * {@link EpochOptions#defaults()}): while one thread is frozen before any of the first work requests of its
 * operations, the others keep at least half of their rate ({@link FrozenRate}). The state blocks are 2 KiB,
 * so that every thread retires a MiB within a small part of a lease.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WaitFreeFrozenRateTest {
    private static final int HOME = 1;
    private static final int THREADS = FrozenRate.LIVE_NODES.length + 2;
    private static final int ELEMENTS = 240;
    private static final int REGISTER_BYTES = 2048;

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 3,
                b -> b.segmentSize(64 << 20).bufferSizePerThread(1 << 15));
    }

    /** A handle that alternates a put and a take, so that the container never fills. */
    private static FrozenRate.Handle alternating(WaitFreeContainer box) {
        boolean[] put = {true};
        return () -> {
            if (put[0]) {
                box.put(7);
            } else {
                box.take();
            }
            put[0] = !put[0];
        };
    }

    private static void containerKeepsTheOthersGoing(WaitFreeContainer.Kind kind) throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                ptr = kind.create(t, r, HOME, THREADS, ELEMENTS, WaitFreeObject.Helping.SEQUENCED).ptr();
            }
            FrozenRate.assertOthersKeepHalfTheirRate(c,
                    (i, t, r) -> alternating(kind.attach(t, r, ptr, WaitFreeObject.Helping.SEQUENCED)));
        }
    }

    @Test
    void shouldKeepTheOthersOfAWaitFreeQueueGoingWhileOneThreadIsFrozen() throws Exception {
        containerKeepsTheOthersGoing(WaitFreeContainer.QUEUE);
    }

    @Test
    void shouldKeepTheOthersOfAWaitFreeStackGoingWhileOneThreadIsFrozen() throws Exception {
        containerKeepsTheOthersGoing(WaitFreeContainer.STACK);
    }

    @Test
    void shouldKeepTheOthersOfARemoteRegisterGoingWhileOneThreadIsFrozen() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2); EpochReclaimer r = new EpochReclaimer(t, t.allocator())) {
                ptr = RemoteRegister.create(t, r, HOME, new byte[REGISTER_BYTES]).ptr();
            }
            FrozenRate.assertOthersKeepHalfTheirRate(c, (i, t, r) -> {
                RemoteRegister reg = RemoteRegister.attach(t, r, ptr);
                MemorySegment value = MemorySegment.ofArray(new byte[REGISTER_BYTES]);
                long[] n = {0};
                return () -> {
                    if ((n[0]++ & 1) == 0) {
                        reg.write(value);
                    } else {
                        reg.read(value);
                    }
                };
            });
        }
    }

    @Test
    void shouldKeepTheOthersOfARemoteCounterGoingWhileOneThreadIsFrozen() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2)) {
                ptr = RemoteCounter.create(t, HOME, 0).ptr();
            }
            FrozenRate.assertOthersKeepHalfTheirRate(c, (i, t, r) -> {
                RemoteCounter counter = RemoteCounter.attach(t, ptr);
                return () -> counter.fetchAndAdd(1);
            });
        }
    }

    @Test
    void shouldKeepTheOthersOfARemoteMaxRegisterGoingWhileOneThreadIsFrozen() throws Exception {
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2)) {
                ptr = RemoteMaxRegister.create(t, HOME, THREADS, 0).ptr();
            }
            FrozenRate.assertOthersKeepHalfTheirRate(c, (i, t, r) -> {
                RemoteMaxRegister max = RemoteMaxRegister.attach(t, ptr);
                long[] n = {0};
                return () -> {
                    max.writeMax(++n[0]);
                    max.read();
                };
            });
        }
    }

    @Test
    void shouldKeepTheOthersOfASharedStateTableGoingWhileOneThreadIsFrozen() throws Exception {
        int rows = THREADS;
        int rowBytes = 64;
        try (TestCluster c = cluster()) {
            long ptr;
            try (ComputeThread t = c.thread(2)) {
                ptr = SharedStateTable.create(t, HOME, rows, rowBytes).ptr();
            }
            FrozenRate.assertOthersKeepHalfTheirRate(c, (i, t, r) -> {
                SharedStateTable sst = SharedStateTable.attach(t, ptr);
                MemorySegment row = MemorySegment.ofArray(new byte[rowBytes]);
                MemorySegment all = MemorySegment.ofArray(new byte[rows * rowBytes]);
                long[] versions = new long[rows];
                return () -> {
                    sst.write(row);
                    sst.snapshot(all, versions);
                };
            });
        }
    }
}

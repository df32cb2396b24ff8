package io.remus.ds.set;

import io.remus.alock.kind.LockKind;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.verbs.VerbsFabric;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The sets' histories on the verbs fabric (device {@code REMUS_TEST_DEVICE}, the three nodes in this process on
 * its one device), run in the Soft-RoCE suite: a few threads on every node doing inserts, removes and contains
 * over a few keys, with epoch reclamation, each history checked as linearizable against {@code SetSpec}
 * ({@link SetHistories}). Fewer operations than on the simulator: an operation through emulated Soft-RoCE costs
 * about a thousand times more.
 */
@Tag(DeviceTests.TAG)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ListSetsOnVerbsTest {
    private static final long[] SEEDS = {1, 2};
    private static final int THREADS = 3;
    private static final int OPS_PER_THREAD = 40;
    private static final int KEYS = 4;

    private static final Function<SimOptions, Fabric> VERBS = options -> VerbsFabric.open(DeviceTests.deviceName());

    private static void assertLinearizable(SetMaker maker) throws InterruptedException {
        try (TestCluster c = new TestCluster(VERBS, SimOptions.defaults(), SetHistories.NODES, b -> { })) {
            for (long seed : SEEDS) {
                SetHistories.assertLinearizable(c, maker, seed, THREADS, OPS_PER_THREAD, KEYS, new AtomicLong());
            }
        }
    }

    @DeviceTest
    void shouldRecordLinearizableHistoriesOfTheLockFreeListOnOneDevice() throws InterruptedException {
        assertLinearizable(SetMaker.lockFree());
    }

    @DeviceTest
    void shouldRecordLinearizableHistoriesOfTheSkipListOnOneDevice() throws InterruptedException {
        assertLinearizable(SetMaker.skipList());
    }

    @DeviceTest
    void shouldRecordLinearizableHistoriesOfTheLazyListWithSpinLocksOnOneDevice() throws InterruptedException {
        assertLinearizable(SetMaker.lazy(LockKind.SPIN));
    }

    @DeviceTest
    void shouldRecordLinearizableHistoriesOfTheLazyListWithALocksOnOneDevice() throws InterruptedException {
        assertLinearizable(SetMaker.lazy(LockKind.ALOCK));
    }
}

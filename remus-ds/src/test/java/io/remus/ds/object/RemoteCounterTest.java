package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.testing.Contention;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RemoteCounter}: the object contract ({@link ObjectContractTest}), its values under contention and its per-call cost. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteCounterTest extends ObjectContractTest<RemoteCounter> {
    @Override
    StructureKind structureKind() {
        return StructureKind.REMOTE_COUNTER;
    }

    @Override
    RemoteCounter create(ComputeThread t, int node) {
        return RemoteCounter.create(t, node, 7);
    }

    @Override
    RemoteCounter attach(ComputeThread t, long ptr) {
        return RemoteCounter.attach(t, ptr);
    }

    @Override
    long ptr(RemoteCounter handle) {
        return handle.ptr();
    }

    @Override
    void destroy(RemoteCounter handle) {
        handle.destroy();
    }

    @Override
    StructureKind otherKind() {
        return StructureKind.REMOTE_MAX_REGISTER;
    }

    @Override
    long createOther(ComputeThread t, int node) {
        return RemoteMaxRegister.create(t, node, 4, 7).ptr();
    }

    @Override
    List<Call<RemoteCounter>> rootReads() {
        return List.of(new Call<>("read", RemoteCounter::read));
    }

    @Override
    List<Call<RemoteCounter>> otherCalls() {
        return List.of(new Call<>("fetchAndAdd", h -> h.fetchAndAdd(1)));
    }

    @Override
    void use(RemoteCounter handle) {
        assertEquals(7, handle.fetchAndAdd(1));
        assertEquals(8, handle.read());
    }

    int operationsPerThread() {
        return 300;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldHandOutEveryValueOnceWithOneRoundTripPerCallWhenThreadsOnSeveralNodesAdd(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        int threads = 6;
        int ops = operationsPerThread();
        try (TestCluster c = TestCluster.of(make)) {
            long ptr;
            try (ComputeThread t = c.thread(0)) {
                ptr = RemoteCounter.create(t, 1, 0).ptr();
            }
            long[][] got = new long[threads][ops];
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                RemoteCounter counter = RemoteCounter.attach(t, ptr);
                long last = -1;
                for (int i = 0; i < ops; i++) {
                    Contention.maybeYield();
                    Counts before = Counts.of(t);
                    got[index][i] = counter.fetchAndAdd(1);
                    assertEquals(new Counts(1, 1, 0, 0, 1, 8, 0), before.since(t),
                            "fetchAndAdd: one fetch-and-add and the handles word's READ, one round trip");
                    assertTrue(got[index][i] > last, "a thread's own adds are ordered");
                    last = got[index][i];
                    before = Counts.of(t);
                    long seen = counter.read();
                    Counts read = before.since(t);
                    long expected = t.nodeId() == 1 ? 0 : 1;
                    assertEquals(new Counts(expected, expected, 0, 0, 0, (StructureIdentity.PREFIX_BYTES + 8) * expected, 0), read,
                            "read: one READ (the header and identity word in front of the value), none on the counter's node");
                    assertTrue(seen > got[index][i], "a read after an add sees it");
                }
            });
            long[] all = Arrays.stream(got).flatMapToLong(Arrays::stream).sorted().toArray();
            for (int i = 0; i < all.length; i++) {
                assertEquals(i, all[i], "every value handed out exactly once");
            }
            try (ComputeThread t = c.thread(2)) {
                assertEquals((long) threads * ops, RemoteCounter.attach(t, ptr).read());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldStartAtTheInitialValue(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(0)) {
            RemoteCounter counter = RemoteCounter.create(t, 2, 41);
            assertEquals(41, counter.fetchAndAdd(-1));
            assertEquals(40, counter.read());
            counter.destroy();
        }
    }
}

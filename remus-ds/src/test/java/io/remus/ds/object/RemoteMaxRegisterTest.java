package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
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

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RemoteMaxRegister}: its values under contention and its wait-free per-call bound. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteMaxRegisterTest extends ObjectContractTest<RemoteMaxRegister> {
    @Override
    StructureKind structureKind() {
        return StructureKind.REMOTE_MAX_REGISTER;
    }

    @Override
    RemoteMaxRegister create(ComputeThread t, int node) {
        return RemoteMaxRegister.create(t, node, 4, 7);
    }

    @Override
    RemoteMaxRegister attach(ComputeThread t, long ptr) {
        return RemoteMaxRegister.attach(t, ptr);
    }

    @Override
    long ptr(RemoteMaxRegister handle) {
        return handle.ptr();
    }

    @Override
    void destroy(RemoteMaxRegister handle) {
        handle.destroy();
    }

    @Override
    StructureKind otherKind() {
        return StructureKind.SHARED_STATE_TABLE;
    }

    @Override
    long createOther(ComputeThread t, int node) {
        return SharedStateTable.create(t, node, 4, 8).ptr();
    }

    @Override
    List<Call<RemoteMaxRegister>> rootReads() {
        return List.of(new Call<>("read", RemoteMaxRegister::read), new Call<>("writeMax", h -> h.writeMax(1000)));
    }

    @Override
    void use(RemoteMaxRegister handle) {
        assertEquals(7, handle.read());
        handle.writeMax(9);
        assertEquals(9, handle.read());
    }

    int operationsPerThread() {
        return 200;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepTheMaximumWithinNCompareAndSwapsPerWriteWhenThreadsOnSeveralNodesRace(Function<SimOptions, Fabric> make)
            throws InterruptedException {
        int threads = 6;
        int capacity = threads + 2;
        int ops = operationsPerThread();
        AtomicLong ticket = new AtomicLong();
        Set<Long> written = ConcurrentHashMap.newKeySet();
        written.add(-1L);
        AtomicLong maxCas = new AtomicLong();
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withExecutionLatencyNanos(20_000), 3, b -> { })) {
            long ptr;
            try (ComputeThread t = c.thread(0)) {
                ptr = RemoteMaxRegister.create(t, 1, capacity, -1).ptr();
            }
            c.runOnThreads(Contention.spread(threads, 3), (index, t) -> {
                RemoteMaxRegister max = RemoteMaxRegister.attach(t, ptr);
                long lastRead = Long.MIN_VALUE;
                for (int i = 0; i < ops; i++) {
                    Contention.maybeYield();
                    long v = ThreadLocalRandom.current().nextInt(4) == 0 ? ThreadLocalRandom.current().nextLong(ticket.get() + 1)
                            : ticket.incrementAndGet();
                    written.add(v);
                    Counts before = Counts.of(t);
                    max.writeMax(v);
                    Counts w = before.since(t);
                    assertTrue(w.roundTrips() <= 1 + threads, "writeMax: at most 1 + n round trips " + w);
                    assertTrue(w.compareAndSwaps() <= 1 + threads, "writeMax: the announcement and at most n = " + threads
                            + " compare-and-swaps " + w);
                    assertTrue(w.reads() <= capacity + 1 && w.writes() == 0 && w.fetchAndAdds() == 0, "writeMax operations " + w);
                    maxCas.accumulateAndGet(w.compareAndSwaps(), Math::max);
                    before = Counts.of(t);
                    long r = max.read();
                    Counts rc = before.since(t);
                    assertTrue(rc.roundTrips() <= 1 && rc.reads() <= 1 && rc.operations() == rc.reads(), "read " + rc);
                    assertTrue(r >= v, "a read after writeMax(" + v + ") returned " + r);
                    assertTrue(r >= lastRead, "reads of one thread never go down: " + lastRead + " then " + r);
                    assertTrue(written.contains(r), "read " + r + ", which nobody wrote");
                    lastRead = r;
                }
            });
            try (ComputeThread t = c.thread(2)) {
                RemoteMaxRegister max = RemoteMaxRegister.attach(t, ptr);
                assertEquals(written.stream().mapToLong(Long::longValue).max().orElseThrow(), max.read());
            }
        }
        assertTrue(maxCas.get() >= 2, "every effective writeMax announces and swaps");
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCostTwoRoundTripsUncontendedAndNothingForAKnownSmallerValue(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(2)) {
            RemoteMaxRegister ma = RemoteMaxRegister.create(a, 1, 4, 0);
            RemoteMaxRegister mb = RemoteMaxRegister.attach(b, ma.ptr());
            assertEquals(0, ma.slot());
            assertEquals(1, mb.slot());
            Counts before = Counts.of(a);
            ma.writeMax(5);
            assertEquals(new Counts(2, 5, 0, 2, 0, StructureIdentity.PREFIX_BYTES + 40, 0), before.since(a),
                    "one batch (announce, value with the header and identity word in front, 4 slots), one swap");
            before = Counts.of(a);
            ma.writeMax(3);
            assertEquals(0, before.since(a).operations(), "a value below one the handle saw needs nothing");
            before = Counts.of(b);
            mb.writeMax(4);
            Counts late = before.since(b);
            assertEquals(1, late.roundTrips(), "the batch shows the register already holds more: no swap");
            assertEquals(1, late.compareAndSwaps());
            assertEquals(5, mb.read());
            assertEquals(5, ma.read());
            mb.writeMax(9);
            assertEquals(9, ma.read());
            assertEquals(Long.MIN_VALUE, RemoteMaxRegister.create(a, 0, 1, Long.MIN_VALUE).read());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseMoreHandlesThanSlotsAndABadCapacity(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread a = c.thread(0); ComputeThread b = c.thread(1)) {
            RemoteMaxRegister m = RemoteMaxRegister.create(a, 1, 1, 0);
            AllocationExhaustedException full = assertThrows(AllocationExhaustedException.class,
                    () -> RemoteMaxRegister.attach(b, m.ptr()));
            assertTrue(full.getMessage().contains("capacity = 1") && full.getMessage().contains("handles open now: 1"),
                    "names the parameter, its value and the handles open: " + full.getMessage());
            assertThrows(BadArgumentException.class, () -> RemoteMaxRegister.create(a, 1, 0, 0));
            assertThrows(BadArgumentException.class, () -> RemoteMaxRegister.create(a, 1, 1 << 20, 0));
            m.destroy();
        }
    }
}

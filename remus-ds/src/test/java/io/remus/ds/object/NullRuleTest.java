package io.remus.ds.object;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.sim.SimFabric;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.BarrierReclaimer;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule for nulls stated in the package documentation of {@code io.remus.ds.object} and
 * {@code io.remus.ds.reclaim}, over their public API (records, constructors, factories and the
 * methods of handles and reclaimers, on the simulator): a {@link NullPointerException} naming the
 * parameter, before anything is done.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NullRuleTest {
    private static final Set<String> PACKAGES = Set.of("io.remus.ds.object", "io.remus.ds.reclaim");

    private static Map<Class<?>, Object> samples(ComputeThread t, Reclaimer reclaimer) {
        Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
        samples.put(Object.class, 0L);
        samples.put(LongSupplier.class, (LongSupplier) System::nanoTime);
        samples.put(ComputeThread.class, t);
        samples.put(RemoteAllocator.class, t.allocator());
        samples.put(ClusterBarrier.class, new ClusterBarrier(t, 1));
        samples.put(Reclaimer.class, reclaimer);
        samples.put(EpochOptions.class, EpochOptions.defaults());
        samples.put(SequentialObject.class, new WaitFreeObjectTest.Counter());
        samples.put(MemorySegment.class, MemorySegment.ofArray(new byte[8]));
        samples.put(LockContext.class, new LockContext(t, LockOptions.defaults()));
        samples.put(LockKind.class, LockKind.SPIN);
        return samples;
    }

    @Test
    void shouldThrowNullPointerNamingTheComponentWhenARecordGetsNull() {
        List<Class<?>> records = NullRule.publicRecords(RemoteCounter.class, PACKAGES);
        assertTrue(records.contains(EpochOptions.class) && records.contains(SequentialObject.Step.class),
                records.toString());
        Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
        samples.put(Object.class, 0L);
        samples.put(LongSupplier.class, (LongSupplier) System::nanoTime);
        List<String> violations = new ArrayList<>();
        for (Class<?> record : records) {
            violations.addAll(NullRule.checkRecord(record, samples, Set.of()));
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenTheApiGetsNull() {
        try (TestCluster c = TestCluster.of(SimFabric::new); ComputeThread t = c.thread(0);
             NeverReclaimer reclaimer = new NeverReclaimer(t)) {
            Map<Class<?>, Object> samples = samples(t, reclaimer);
            List<String> violations = new ArrayList<>();
            for (Class<?> type : List.of(RemoteCounter.class, RemoteMaxRegister.class, RemoteRegister.class,
                    SharedStateTable.class, WaitFreeObject.class, WaitFreeQueue.class, WaitFreeStack.class,
                    LockedObject.class, EpochOptions.class)) {
                violations.addAll(NullRule.checkStaticMethods(type, samples, Set.of()));
            }
            for (Class<?> type : List.of(NeverReclaimer.class, BarrierReclaimer.class, EpochReclaimer.class)) {
                violations.addAll(NullRule.checkConstructors(type, samples, Set.of()));
            }
            try (EpochReclaimer epoch = new EpochReclaimer(t, t.allocator());
                 BarrierReclaimer barrier = new BarrierReclaimer(t, t.allocator(), new ClusterBarrier(t, 1))) {
                for (Object target : List.of(EpochOptions.defaults(), reclaimer, epoch, barrier,
                        RemoteCounter.create(t, 0, 0), RemoteMaxRegister.create(t, 0, 1, 0),
                        RemoteRegister.create(t, reclaimer, 0, new byte[8]), SharedStateTable.create(t, 0, 1, 8),
                        WaitFreeObject.create(t, reclaimer, 0, 1, new WaitFreeObjectTest.Counter()),
                        WaitFreeQueue.create(t, reclaimer, 0, 1, 2), WaitFreeStack.create(t, reclaimer, 0, 1, 2),
                        LockedObject.create(new LockContext(t, LockOptions.defaults()), LockKind.SPIN, 0,
                                new WaitFreeObjectTest.Counter()))) {
                    violations.addAll(NullRule.checkInstanceMethods(target, samples, Set.of("snapshot#1")));
                }
            }
            assertEquals(List.of(), violations);
        }
    }
}

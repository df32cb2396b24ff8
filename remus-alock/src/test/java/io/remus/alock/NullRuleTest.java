package io.remus.alock;

import io.remus.alock.asymmetric.ALock;
import io.remus.alock.asymmetric.ALockWord;
import io.remus.alock.kind.LockKind;
import io.remus.alock.mcs.RdmaMcsLock;
import io.remus.alock.queue.QueueNode;
import io.remus.alock.queue.QueueNodePool;
import io.remus.alock.spin.RdmaSpinLock;
import io.remus.alock.table.LockTable;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.sim.SimFabric;
import io.remus.core.testing.TestCluster;
import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule for nulls stated in the package documentation, over remus-alock's public API (its
 * records, constructors, factories and the methods of its handles, on the simulator): a
 * {@link NullPointerException} naming the parameter, before anything is done.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NullRuleTest {
    private static final Set<String> PACKAGES = Set.of("io.remus.alock", "io.remus.alock.spin", "io.remus.alock.mcs",
            "io.remus.alock.asymmetric", "io.remus.alock.queue", "io.remus.alock.table");

    private static Map<Class<?>, Object> samples(ComputeThread t) {
        Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
        samples.put(ComputeThread.class, t);
        samples.put(RemoteAllocator.class, t.allocator());
        samples.put(LockOptions.class, LockOptions.defaults());
        samples.put(LockContext.class, new LockContext(t, LockOptions.defaults()));
        return samples;
    }

    @Test
    void shouldThrowNullPointerNamingTheComponentWhenARecordGetsNull() {
        List<Class<?>> records = NullRule.publicRecords(LockOptions.class, PACKAGES);
        assertTrue(records.contains(LockOptions.class), records.toString());
        List<String> violations = new ArrayList<>();
        for (Class<?> record : records) {
            violations.addAll(NullRule.checkRecord(record, NullRule.jdkSamples(), Set.of()));
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenTheApiGetsNull() {
        try (TestCluster c = TestCluster.of(SimFabric::new); ComputeThread t = c.thread(0)) {
            Map<Class<?>, Object> samples = samples(t);
            long word = LockWord.allocate(t, t.allocator(), 0);
            LockContext context = (LockContext) samples.get(LockContext.class);
            List<String> violations = new ArrayList<>();
            for (Class<?> type : List.of(LockWord.class, LockKind.class, ALockWord.class, QueueNode.class,
                    LockTable.class)) {
                violations.addAll(NullRule.checkStaticMethods(type, samples, Set.of()));
            }
            for (Class<?> type : List.of(LockContext.class, SpinBound.class, ALock.class, RdmaSpinLock.class,
                    RdmaMcsLock.class, QueueNodePool.class)) {
                violations.addAll(NullRule.checkConstructors(type, samples, Set.of()));
            }
            for (Object handle : List.of(LockOptions.defaults(), new SpinBound(java.time.Duration.ofSeconds(1)), context,
                    LockKind.ALOCK, new ALock(context, word, false), new RdmaSpinLock(context, word),
                    new RdmaMcsLock(context, word), new QueueNodePool(t, 2), LockTable.of(LockKind.SPIN, new long[] {word}),
                    LockTable.of(LockKind.SPIN, new long[] {word}).open(context))) {
                violations.addAll(NullRule.checkInstanceMethods(handle, samples, Set.of()));
            }
            assertEquals(List.of(), violations);
        }
    }
}

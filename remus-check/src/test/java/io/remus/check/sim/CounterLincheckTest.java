package io.remus.check.sim;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lincheck in stress mode over counters on the simulator, a word on node 1: {@link FetchAndAddCounter}
 * increments with one RDMA fetch-and-add and must pass; {@link ReadThenWriteCounter} increments with
 * a READ and a WRITE, loses increments that race, and Lincheck must find it. Lincheck builds the
 * scenarios, runs them on its worker threads and checks each outcome against
 * {@link SequentialCounter}.
 *
 * <p>Lincheck calls the operations on its own worker threads, which the test does not create, so
 * each worker gets its compute thread from a {@link ThreadLocal} on its first operation (on node
 * 0 or 2, alternately): the worker that calls first owns it, as {@link ComputeThread} requires,
 * and no other thread uses it. The instance Lincheck makes for each invocation takes the next
 * word of a ring of {@value #WORDS} words and zeroes it; invocations run one after another, so
 * two live instances never share a word.
 */
class CounterLincheckTest {
    private static final int WORDS = 1024;
    private static final int COUNTER_NODE = 1;

    private static TestCluster cluster;
    private static long words;
    private static final AtomicInteger NEXT_WORD = new AtomicInteger();
    private static final AtomicInteger NEXT_NODE = new AtomicInteger();
    private static final List<ComputeThread> OPENED = new CopyOnWriteArrayList<>();
    private static final ThreadLocal<ComputeThread> THREAD = ThreadLocal.withInitial(() -> {
        ComputeThread t = cluster.thread(NEXT_NODE.getAndIncrement() % 2 == 0 ? 0 : 2);
        OPENED.add(t);
        return t;
    });

    private static long nextWord() {
        long word = RemotePtr.offset(words, 8L * (NEXT_WORD.getAndIncrement() % WORDS));
        THREAD.get().write(word, 0);
        return word;
    }

    /** The correct counter: one fetch-and-add per increment. */
    public static final class FetchAndAddCounter {
        private final long word = nextWord();

        /** @return the value before the increment */
        @Operation
        public long increment() {
            return THREAD.get().fetchAndAdd(word, 1);
        }

        /** @return the value */
        @Operation
        public long read() {
            return THREAD.get().read(word);
        }
    }

    /** The broken counter: a READ, then a WRITE of the value plus one. */
    public static final class ReadThenWriteCounter {
        private final long word = nextWord();

        /** @return the value read before the write */
        @Operation
        public long increment() {
            ComputeThread t = THREAD.get();
            long v = t.read(word);
            Thread.yield();
            t.write(word, v + 1);
            return v;
        }

        /** @return the value */
        @Operation
        public long read() {
            return THREAD.get().read(word);
        }
    }

    /** The sequential specification Lincheck compares with. */
    public static final class SequentialCounter {
        private long value;

        /** @return the value before the increment */
        public long increment() {
            return value++;
        }

        /** @return the value */
        public long read() {
            return value;
        }
    }

    private static StressOptions options() {
        return new StressOptions()
                .iterations(30)
                .invocationsPerIteration(300)
                .threads(3)
                .actorsPerThread(3)
                .sequentialSpecification(SequentialCounter.class);
    }

    @BeforeAll
    static void startCluster() {
        cluster = new TestCluster(SimFabric::new, SimOptions.defaults().withYieldInsideNicAtomics(true), 3, b -> { });
        words = cluster.block(COUNTER_NODE, 8 * WORDS);
    }

    @AfterAll
    static void stopCluster() {
        OPENED.forEach(ComputeThread::close);
        OPENED.clear();
        cluster.close();
    }

    @Test
    void shouldFindFetchAndAddCounterLinearizable() {
        int before = NEXT_WORD.get();
        options().check(FetchAndAddCounter.class);
        assertTrue(NEXT_WORD.get() - before >= 30, "Lincheck made " + (NEXT_WORD.get() - before) + " instances");
    }

    @Test
    void shouldFindReadThenWriteCounterNotLinearizable() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> options().minimizeFailedScenario(false).check(ReadThenWriteCounter.class));
        assertTrue(e.getMessage().contains("Invalid execution results"), e.getMessage());
    }
}

package io.remus.check.sim;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.RegisterSpec;
import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proof that the checker can fail on a real object: a 16-byte register over the simulator
 * written as two 8-byte WRITEs of its halves and read with one 16-byte READ tears, and the
 * recorded history must be rejected; the same register written out of place and published with
 * one pointer compare-and-swap must check as linearizable.
 *
 * <p>Four threads use a register on node 1, three through the simulated NIC (nodes 0 and 2) and
 * one through its CPU (node 1, whose reads of its own memory take the CPU path), each a random mix
 * of writes (of a value unique to the write, the same word in both halves) and reads, with
 * {@link Thread#yield()} at random points. The simulator yields between the pieces of a transfer
 * and stores each 8-byte word of a WRITE as two 4-byte halves, as Soft-RoCE can.
 */
class RegisterOnSimTest {
    private static final int THREADS = 4;
    private static final int OPS_PER_THREAD = 300;
    private static final int REGISTER_NODE = 1;
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    /** A two-word register shared by the threads. */
    private interface WideRegister {
        void write(ComputeThread t, long high, long low);

        /** Reads into the thread's buffer at offset 0 (high) and 8 (low). */
        void read(ComputeThread t);
    }

    /** Broken: the halves are two WRITEs, so a READ between them sees half of each value. */
    private record HalvesRegister(long block) implements WideRegister {
        @Override
        public void write(ComputeThread t, long high, long low) {
            t.write(block, high);
            Thread.yield();
            t.write(RemotePtr.offset(block, 8), low);
        }

        @Override
        public void read(ComputeThread t) {
            t.read(block, 0, 16);
        }
    }

    /**
     * Correct: each value goes into a fresh block (never freed, so never changed once published),
     * and one compare-and-swap of the pointer word publishes it; a read reads the pointer, then the
     * block. Both linearize at their access to the pointer word.
     */
    private record OutOfPlaceRegister(long pointerWord) implements WideRegister {
        @Override
        public void write(ComputeThread t, long high, long low) {
            long block = t.allocator().allocate(16, REGISTER_NODE);
            t.write(block, high);
            Thread.yield();
            t.write(RemotePtr.offset(block, 8), low);
            long seen = t.read(pointerWord);
            while (true) {
                long witness = t.compareAndSwap(pointerWord, seen, block);
                if (witness == seen) {
                    return;
                }
                seen = witness;
            }
        }

        @Override
        public void read(ComputeThread t) {
            long block = t.read(pointerWord);
            if (block == RemotePtr.NULL) {
                t.buffer().set(ValueLayout.JAVA_LONG, 0, 0);
                t.buffer().set(ValueLayout.JAVA_LONG, 8, 0);
            } else {
                t.read(block, 0, 16);
            }
        }
    }

    private static TestCluster cluster() {
        return new TestCluster(SimFabric::new, SimOptions.defaults().withYieldWhileTearing(true).withTearWords(true), 3,
                b -> b.segmentSize(1 << 20));
    }

    private static List<Operation> run(TestCluster cluster, WideRegister register, long seed) throws InterruptedException {
        History history = new History(HistoryClock.NANO_TIME);
        History.Recorder[] recorders = new History.Recorder[THREADS];
        for (int i = 0; i < THREADS; i++) {
            recorders[i] = history.recorder(i);
        }
        cluster.runOnThreads(new int[] {0, 2, 1, 2}, (index, t) -> {
            History.Recorder r = recorders[index];
            SplittableRandom rnd = new SplittableRandom(seed * 31 + index);
            for (int i = 0; i < OPS_PER_THREAD; i++) {
                if (rnd.nextBoolean()) {
                    long v = (index + 1L) * 1_000_000L + i;
                    int op = r.invoke(RegisterSpec.WRITE, v, v);
                    register.write(t, v, v);
                    r.respond(op);
                } else {
                    int op = r.invoke(RegisterSpec.READ);
                    register.read(t);
                    r.respond(op, t.buffer().get(ValueLayout.JAVA_LONG, 0), t.buffer().get(ValueLayout.JAVA_LONG, 8));
                }
                if (rnd.nextInt(4) == 0) {
                    Thread.yield();
                }
            }
        });
        return history.operations();
    }

    @Test
    void shouldRejectRegisterWrittenAsTwoHalves() throws InterruptedException {
        List<CheckResult> results = new ArrayList<>();
        try (TestCluster cluster = cluster()) {
            for (int round = 0; round < 20; round++) {
                long block = cluster.block(REGISTER_NODE, 16);
                CheckResult r = CHECKER.check(run(cluster, new HalvesRegister(block), round), new RegisterSpec(2));
                results.add(r);
                if (r.verdict() == Verdict.NOT_LINEARIZABLE) {
                    assertTrue(r.witness().stream().anyMatch(op -> op.kind().equals(RegisterSpec.READ)), r.explanation());
                    return;
                }
            }
        }
        throw new AssertionError("the checker accepted " + results.size() + " histories of a register that tears: " + results);
    }

    @Test
    void shouldAcceptRegisterPublishedByOnePointerCompareAndSwap() throws InterruptedException {
        try (TestCluster cluster = cluster()) {
            for (int round = 0; round < 3; round++) {
                long pointerWord = cluster.block(REGISTER_NODE, 8);
                List<Operation> h = run(cluster, new OutOfPlaceRegister(pointerWord), round);
                assertEquals(THREADS * OPS_PER_THREAD, h.size());
                CHECKER.check(h, new RegisterSpec(2)).assertLinearizable();
            }
        }
    }
}

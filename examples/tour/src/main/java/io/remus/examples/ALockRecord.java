package io.remus.examples;

import io.remus.alock.LockContext;
import io.remus.alock.LockWord;
import io.remus.alock.asymmetric.ALock;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.ds.context.WorkerContext;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * ALock, the asymmetric lock (SPAA 2024), guarding a record of two words that several threads update: two
 * threads on the lock's home node (the local cohort, whose lock operations are CPU atomics, no NIC) and two on
 * another node (the remote cohort, whose lock operations are RDMA atomics). Each update reads both words and
 * writes both back; without the lock, updates would be lost.
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.ALockRecord}
 */
public final class ALockRecord {
    /** Updates per thread. */
    static final int UPDATES = 100;
    /** The threads' nodes: two on node 0 (the lock's home), two on node 1. */
    static final int[] NODES = {0, 0, 1, 1};

    /**
     * What the example saw.
     *
     * @param count      the record's first word at the end: how many updates were applied (400)
     * @param sum        its second word: the sum of every update's amount (thread i adds i + 1, so 100 * 10)
     * @param localPaths how many of the threads' lock handles took the local, CPU-only path (2: node 0's)
     */
    public record Outcome(long count, long sum, int localPaths) {
    }

    private ALockRecord() {
    }

    /**
     * Runs the example and prints the record at the end.
     *
     * @param out where to print
     * @return what it saw
     * @throws Exception when a thread failed or did not finish within 30 seconds
     */
    public static Outcome run(PrintStream out) throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1))) {
            RemusNode[] nodes = {node0, node1};

            // Setup, on node 0: the lock word (64 bytes, zeroed: a free lock) and the record (two words, zeroed),
            // both in node 0's memory, so node 0 is the lock's home.
            long lockWord;
            long record;
            try (ComputeThread t = node0.newComputeThread()) {
                lockWord = LockWord.allocate(t, t.allocator(), 0);
                record = t.allocator().allocate(16, 0);
                t.write(record, MemorySegment.ofArray(new long[2]));
            }

            List<Future<Boolean>> threads = new ArrayList<>();
            try (ExecutorService pool = Executors.newFixedThreadPool(NODES.length)) {
                for (int i = 0; i < NODES.length; i++) {
                    RemusNode node = nodes[NODES[i]];
                    long amount = i + 1;
                    threads.add(pool.submit(() -> update(node, lockWord, record, amount)));
                }
                int localPaths = 0;
                for (Future<Boolean> f : threads) {
                    localPaths += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }

                // Check: every update was applied once, and both words agree.
                try (ComputeThread t = node1.newComputeThread()) {
                    MemorySegment words = MemorySegment.ofArray(new long[2]);
                    t.read(record, words);                 // one 16-byte RDMA READ
                    long count = words.getAtIndex(ValueLayout.JAVA_LONG, 0);
                    long sum = words.getAtIndex(ValueLayout.JAVA_LONG, 1);
                    out.println("record: count " + count + ", sum " + sum + " (" + NODES.length + " threads x "
                            + UPDATES + " updates; " + localPaths + " handles on the local path)");
                    return new Outcome(count, sum, localPaths);
                }
            }
        }
    }

    /**
     * One application thread: {@link #UPDATES} times, lock, read the record, add one to its count and
     * {@code amount} to its sum, write it back, unlock.
     *
     * @return whether its lock handle took the local path
     */
    private static boolean update(RemusNode node, long lockWord, long record, long amount) {
        // The worker's compute thread and its lock context (made by the first locks() call), closed together.
        try (WorkerContext w = WorkerContext.open(node)) {
            ComputeThread t = w.thread();
            // A lock context per compute thread, a handle per lock word. Neither is thread-safe.
            LockContext context = w.locks();
            ALock lock = new ALock(context, lockWord, false);  // false: home-node threads take the CPU path
            MemorySegment buf = t.buffer();
            for (int i = 0; i < UPDATES; i++) {
                lock.lock();                              // bounded: LockTimeoutException after the acquire timeout
                try {
                    t.read(record, 0, 16);                // both words, into the buffer
                    buf.set(ValueLayout.JAVA_LONG, 0, buf.get(ValueLayout.JAVA_LONG, 0) + 1);
                    buf.set(ValueLayout.JAVA_LONG, 8, buf.get(ValueLayout.JAVA_LONG, 8) + amount);
                    t.write(record, 0, 16);               // and back, complete before the unlock
                } finally {
                    lock.unlock();
                }
            }
            return lock.isLocal();
        }
    }

    /**
     * Runs the example.
     *
     * @param args none
     * @throws Exception when a thread failed or did not finish in time
     */
    public static void main(String[] args) throws Exception {
        run(System.out);
    }
}

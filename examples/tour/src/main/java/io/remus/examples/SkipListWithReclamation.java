package io.remus.examples;

import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.ds.context.WorkerContext;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.set.LockFreeSkipListSet;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A lock-free set with memory reclamation, used by two compute threads on two nodes: the Herlihy-Shavit skip
 * list ({@link LockFreeSkipListSet}) with the epoch-based reclaimer ({@link EpochReclaimer}). Remus leaves
 * reclamation to the user; here every removed node is retired to the reclaimer, which frees it once no thread
 * can still be reading it. Each thread opens its compute thread and its reclaimer together with a
 * {@link WorkerContext}, which closes them in order.
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.SkipListWithReclamation}
 */
public final class SkipListWithReclamation {
    /** Keys 0..KEYS-1: node 0's thread inserts the even ones, node 1's the odd ones. */
    static final int KEYS = 200;

    /**
     * What one thread saw.
     *
     * @param node        the thread's node
     * @param inserted    keys it inserted (100)
     * @param removed     keys it removed: its multiples of 3
     * @param present     keys of 0..199 it found in the set at the end, after both threads were done (133)
     * @param retired     bytes its reclaimer was handed (one node per removed key)
     * @param unreclaimed bytes of those still not freed after its last reclamation passes (0)
     */
    public record ThreadOutcome(int node, int inserted, int removed, int present, long retired, long unreclaimed) {
    }

    private SkipListWithReclamation() {
    }

    /**
     * Runs the example and prints what each thread saw.
     *
     * @param out where to print
     * @return what each thread saw, node 0's first
     * @throws Exception when a thread failed or did not finish within 30 seconds
     */
    public static List<ThreadOutcome> run(PrintStream out) throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1))) {

            // The creator makes the set on memory node 1. Any thread may create it; the others attach to its
            // pointer (a real program hands the pointer over through the root: see TypedMapThroughRoot).
            long set;
            try (WorkerContext w = WorkerContext.open(node0);
                 LockFreeSkipListSet creator = LockFreeSkipListSet.create(w.thread(), w.reclaimer(), 1)) {
                set = creator.ptr();
            }   // closing the creator's handle leaves the set alive: it lives until a handle destroys it

            // Two application threads, one per node. Each has its own compute thread and reclaimer (its worker
            // context) and its own handle on the set: none of them is thread-safe, all are cheap.
            CyclicBarrier bothDone = new CyclicBarrier(2);
            try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
                Future<ThreadOutcome> even = pool.submit(() -> work(node0, set, 0, bothDone));
                Future<ThreadOutcome> odd = pool.submit(() -> work(node1, set, 1, bothDone));
                List<ThreadOutcome> outcomes = List.of(even.get(30, TimeUnit.SECONDS), odd.get(30, TimeUnit.SECONDS));
                for (ThreadOutcome o : outcomes) {
                    out.println("node " + o.node() + ": inserted " + o.inserted() + ", removed " + o.removed()
                            + ", found " + o.present() + " keys at the end, retired " + o.retired()
                            + " bytes, unreclaimed " + o.unreclaimed());
                }
                // Done with the set: one handle destroys it, and the last handle to close frees its memory
                // (here the destroying one: every other handle is closed already).
                try (WorkerContext w = WorkerContext.open(node0)) {
                    LockFreeSkipListSet.attach(w.thread(), w.reclaimer(), set).destroy();
                }
                return outcomes;
            }
        }
    }

    /** One application thread: inserts its keys, removes its multiples of 3, then counts what the set holds. */
    private static ThreadOutcome work(RemusNode node, long set, int parity, CyclicBarrier bothDone) throws Exception {
        // Opened on this Java thread, which it is confined to; closed last: the handle, then the reclaimer (its
        // last passes), then the compute thread.
        try (WorkerContext w = WorkerContext.open(node);
             LockFreeSkipListSet s = LockFreeSkipListSet.attach(w.thread(), w.reclaimer(), set)) {
            EpochReclaimer reclaimer = w.reclaimer();
            int inserted = 0;
            int removed = 0;
            for (long k = parity; k < KEYS; k += 2) {
                // Each call runs inside a guard of the reclaimer: nodes it reads are not freed under it.
                inserted += s.insert(k) ? 1 : 0;
            }
            for (long k = parity; k < KEYS; k += 2) {
                if (k % 3 == 0) {
                    removed += s.remove(k) ? 1 : 0;   // the unlinked node is retired, not freed at once
                }
            }
            bothDone.await(30, TimeUnit.SECONDS);
            int present = 0;
            for (long k = 0; k < KEYS; k++) {
                present += s.contains(k) ? 1 : 0;     // sees the other thread's keys too
            }
            bothDone.await(30, TimeUnit.SECONDS);
            // A reclamation pass frees what no guard can still see; passes also run by themselves when a thread
            // has retired enough. With no thread inside a guard, each pass advances the epoch, and a node retired
            // in epoch e is freed once the epoch reached e + 2.
            for (int pass = 0; pass < 8 && reclaimer.unreclaimedBytes() > 0; pass++) {
                reclaimer.reclaim();
            }
            return new ThreadOutcome(w.thread().nodeId(), inserted, removed, present, reclaimer.retiredBytes(),
                    reclaimer.unreclaimedBytes());
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

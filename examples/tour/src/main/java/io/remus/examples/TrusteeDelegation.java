package io.remus.examples;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.ds.delegate.PendingApply;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;

import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Delegation (after Trust&lt;T&gt;/Gossamer and ffwd): a trustee thread on node 1 owns a plain Java object, a
 * {@code HashMap} of counts, and runs every operation on it on behalf of its clients, so the object needs
 * neither a lock nor an RDMA layout. Two clients use it: one on node 0, whose requests are RDMA WRITEs into the
 * trustee's memory (one round trip each), and one on node 1, the trustee's own node, whose requests are CPU
 * stores (no RDMA at all).
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.TrusteeDelegation}
 */
public final class TrusteeDelegation {
    /** Operation ids, registered on the trustee at start-up: Java cannot ship closures over RDMA. */
    static final int ADD = 1;
    static final int SIZE = 2;
    /** Each client counts keys 0..KEYS-1 once. */
    static final int KEYS = 50;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /**
     * What the example saw.
     *
     * @param returnedByNode0 the sum of the counts node 0's ADDs returned
     * @param returnedByNode1 the same for node 1's; both sums together are 150 (each key returned 1 to one
     *                        client and 2 to the other)
     * @param size            what SIZE returned once both clients were done (50)
     * @param served          requests the trustee served (2 * 50 ADDs and 1 SIZE)
     * @param everyKeyTwice   whether the trustee's map held 2 for every key at the end (true)
     */
    public record Outcome(long returnedByNode0, long returnedByNode1, long size, long served, boolean everyKeyTwice) {
    }

    private TrusteeDelegation() {
    }

    /**
     * Runs the example and prints what it saw.
     *
     * @param out where to print
     * @return what it saw
     * @throws Exception when a thread failed or did not finish within 30 seconds
     */
    public static Outcome run(PrintStream out) throws Exception {
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1));
             ExecutorService pool = Executors.newFixedThreadPool(3)) {
            CompletableFuture<Long> trusteePtr = new CompletableFuture<>();
            CompletableFuture<Void> clientsDone = new CompletableFuture<>();
            Map<Long, Long> counts = new HashMap<>();

            // The trustee's thread: create, register the operations, entrust the object, then serve until the
            // clients are done. The class starts no thread of its own: the caller's thread serves.
            Future<Long> trustee = pool.submit(() -> {
                try (ComputeThread t = node1.newComputeThread()) {
                    // Room for 3 client threads (a place is taken for good), 4 requests in flight each.
                    Trustee<Map<Long, Long>> tr = Trustee.create(t, 3, 4);
                    tr.register(ADD, (map, key) -> map.merge(key, 1L, Long::sum));  // returns the new count
                    tr.register(SIZE, (map, unused) -> map.size());
                    tr.entrust(counts);                      // property id 0: clients name it
                    trusteePtr.complete(tr.ptr());
                    long served = 0;
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!clientsDone.isDone() && System.nanoTime() - deadline < 0) {
                        int n = tr.serveOnce();              // one pass over every client's request slots
                        served += n;
                        if (n == 0) {
                            Thread.yield();
                        }
                    }
                    tr.close();                              // later requests fail fast with TrusteeClosedException
                    return served;
                }
            });
            long ptr = trusteePtr.get(30, TimeUnit.SECONDS);  // a real cluster hands it over through the root

            Future<Long> remote = pool.submit(() -> client(node0, ptr, true));
            Future<Long> local = pool.submit(() -> client(node1, ptr, false));
            long returnedByNode0 = remote.get(30, TimeUnit.SECONDS);
            long returnedByNode1 = local.get(30, TimeUnit.SECONDS);
            long size = pool.submit(() -> {
                try (ComputeThread t = node0.newComputeThread()) {
                    return TrusteeClient.connect(t, ptr).<Map<Long, Long>>trust(0).apply(SIZE, 0, PATIENCE);
                }
            }).get(30, TimeUnit.SECONDS);
            clientsDone.complete(null);
            long served = trustee.get(30, TimeUnit.SECONDS);

            // Only now, with the trustee's thread finished, may another thread look at the object.
            boolean everyKeyTwice = counts.size() == KEYS && counts.values().stream().allMatch(c -> c == 2);
            out.println("node 0's ADDs returned " + returnedByNode0 + " in all, node 1's " + returnedByNode1
                    + "; SIZE returned " + size + "; the trustee served " + served + " requests; every key counted twice: "
                    + everyKeyTwice);
            return new Outcome(returnedByNode0, returnedByNode1, size, served, everyKeyTwice);
        }
    }

    /**
     * One client: counts every key once, returning the sum of the counts its ADDs returned. The remote one keeps
     * four requests in flight with {@link Trust#applyAsync}; the local one calls {@link Trust#apply} one at a time.
     */
    private static long client(RemusNode node, long trusteePtr, boolean async) {
        try (ComputeThread t = node.newComputeThread()) {
            TrusteeClient client = TrusteeClient.connect(t, trusteePtr);  // takes one of the trustee's client places
            Trust<Map<Long, Long>> counts = client.trust(0);               // a handle on property 0
            long sum = 0;
            if (async) {
                PendingApply[] inFlight = new PendingApply[client.slots()];
                for (int first = 0; first < KEYS; first += inFlight.length) {
                    int n = Math.min(inFlight.length, KEYS - first);
                    for (int i = 0; i < n; i++) {
                        inFlight[i] = counts.applyAsync(ADD, first + i);   // staged; sent together at the first await
                    }
                    for (int i = 0; i < n; i++) {
                        sum += inFlight[i].await(PATIENCE);
                    }
                }
            } else {
                for (int key = 0; key < KEYS; key++) {
                    sum += counts.apply(ADD, key, PATIENCE);
                }
            }
            return sum;
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

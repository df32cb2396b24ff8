package io.remus.core;

import io.remus.core.memory.RemotePtr;
import io.remus.core.rpc.RpcEndpoint;

import java.time.Duration;

/**
 * A child JVM of {@link RemusClusterRpcOnVerbsTest}: joins with its arguments passed to {@link RemusCluster#join}
 * unchanged, opens its node's endpoint ({@link RemusCluster#openRpcEndpoint}), calls every node, itself included,
 * {@value #ROUNDS} times, then counts itself done in node 0's memory and serves until every node is done. Prints
 * {@code RESULT node N sum S served K} and exits 0 when every answer was right, 2 when not; an exception exits 1.
 */
public final class RemusClusterRpcMain {
    private static final long DONE = 4096;
    private static final int PLUS_NODE = 7;
    private static final int ROUNDS = 20;
    private static final Duration WAIT = Duration.ofMinutes(2);

    private RemusClusterRpcMain() {
    }

    /** @param args {@link RemusCluster#join} arguments */
    public static void main(String[] args) {
        int status;
        try (RemusCluster cluster = RemusCluster.join(args)) {
            int id = cluster.nodeId();
            int size = cluster.size();
            ComputeThread t = cluster.computeThread();
            RpcEndpoint ep = cluster.openRpcEndpoint(4);
            ep.registerLong(PLUS_NODE, x -> x + 100L * id);
            long sum = 0;
            boolean right = true;
            for (int r = 0; r < ROUNDS; r++) {
                for (int p = 0; p < size; p++) {
                    long got = ep.callLong(p, PLUS_NODE, 1000L * r, WAIT);
                    right &= got == 1000L * r + 100L * p;
                    sum += got;
                }
            }
            long done = RemotePtr.offset(t.segmentBase(0, 1), DONE);
            t.fetchAndAdd(done, 1);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (t.read(done) < size && System.nanoTime() < deadline) {
                ep.serve(Duration.ofMillis(1));
            }
            cluster.barrier().await();
            System.out.println("RESULT node " + id + " sum " + sum + " served " + ep.requestsServed());
            status = right ? 0 : 2;
        } catch (RuntimeException e) {
            System.out.println("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}

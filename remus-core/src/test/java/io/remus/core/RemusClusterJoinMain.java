package io.remus.core;

import io.remus.core.memory.RemotePtr;

/**
 * A child JVM of {@link RemusClusterDeviceTest}: a user's {@code main} as the README shows it. It
 * joins with its arguments passed to {@link RemusCluster#join} unchanged, writes {@code 1000 + id}
 * into the next node's memory through its compute thread, meets the others at the barrier, reads
 * what the previous node wrote into its own memory, meets again, and closes with the shutdown
 * handshake. Prints {@code RESULT node N read V} and exits 0 when {@code V} is what the previous
 * node wrote, 2 when not; an exception (a join timeout naming the missing peers) exits 1.
 */
public final class RemusClusterJoinMain {
    private static final long SLOT = 4096;

    private RemusClusterJoinMain() {
    }

    /** @param args {@link RemusCluster#join} arguments */
    public static void main(String[] args) {
        int status;
        try (RemusCluster cluster = RemusCluster.join(args)) {
            int id = cluster.nodeId();
            int size = cluster.size();
            ComputeThread t = cluster.computeThread();
            t.write(RemotePtr.offset(t.segmentBase((id + 1) % size, 1), SLOT), 1000L + id);
            cluster.barrier().await();
            long read = t.read(RemotePtr.offset(t.segmentBase(id, 1), SLOT));
            cluster.barrier().await();
            long expected = 1000L + (id + size - 1) % size;
            System.out.println("RESULT node " + id + " of " + size + " read " + read + " (expected " + expected + ")");
            status = read == expected ? 0 : 2;
        } catch (RuntimeException e) {
            System.out.println("ERROR " + e.getClass().getSimpleName() + ": " + e.getMessage());
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}

package io.remus.core.shm;

import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.memory.RemotePtr;

import java.util.ArrayList;
import java.util.List;

/**
 * One process of a cluster on the shared-memory fabric, started by a launcher ({@code mpirun}):
 * {@link RemusCluster#join} with this process's arguments (e.g. {@code --fabric=shm --shm.dir=DIR
 * --segment.count=2}) and the launcher's environment for rank and size. Each node adds 1 to a
 * counter in every node's memory ({@value #INCREMENTS} remote fetch-and-adds per counter), meets the
 * others at the cluster barrier, reads every counter back, and meets them again so that no node's
 * memory goes before every node has read it.
 *
 * <p>Output (one line): {@code shm-cluster rank=R size=N cluster=ID published=P counters=C,C,...}
 * where {@code ID} is the shared-memory cluster's id as this process read it, {@code P} the nodes
 * whose published memory this process found, and exit status 0; an exception prints
 * {@code shm-cluster error=...} and exits 1.
 */
public final class ShmClusterMain {
    /** Fetch-and-adds each node makes on each node's counter. */
    static final int INCREMENTS = 250;
    /** Offset of the counter in each node's segment 1 (segment 0 holds the control block). */
    private static final long COUNTER_OFFSET = 4096;

    private ShmClusterMain() {
    }

    /** @param args {@link RemusCluster#join} arguments */
    public static void main(String[] args) {
        int status;
        try (RemusCluster cluster = RemusCluster.join(args)) {
            int size = cluster.size();
            ComputeThread t = cluster.computeThread();
            for (int i = 0; i < INCREMENTS; i++) {
                for (int n = 0; n < size; n++) {
                    t.fetchAndAdd(RemotePtr.offset(t.segmentBase(n, 1), COUNTER_OFFSET), 1);
                }
            }
            cluster.barrier().await();
            List<String> counters = new ArrayList<>();
            List<Integer> published = new ArrayList<>();
            for (int n = 0; n < size; n++) {
                counters.add(Long.toString(t.read(RemotePtr.offset(t.segmentBase(n, 1), COUNTER_OFFSET))));
                if (!cluster.fabric().publishedRegions(n).isEmpty()) {
                    published.add(n);
                }
            }
            cluster.barrier().await();
            System.out.println("shm-cluster rank=" + cluster.nodeId() + " size=" + size + " fabric=" + cluster.fabric().name()
                    + " cluster=" + Long.toHexString(((ShmFabric) cluster.fabric()).clusterId())
                    + " published=" + published.toString().replace(" ", "") + " counters=" + String.join(",", counters));
            status = 0;
        } catch (RuntimeException e) {
            System.out.println("shm-cluster error=" + e);
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}

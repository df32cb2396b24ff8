package io.remus.core.testing;

import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.memory.RemotePtr;

/**
 * One process of a launcher run ({@code mpirun}, {@code srun}) that joins one Remus cluster with
 * its launcher's peers: {@link RemusCluster#join} with this process's arguments unchanged and the
 * launcher's environment (rank and size from {@code OMPI_COMM_WORLD_*} or {@code SLURM_*}), e.g.
 * {@code --device=rxe0 --rendezvous=DIR}. Each node adds 1 to a counter in node 0's memory with a
 * remote fetch-and-add, meets the others at the cluster barrier, and reads the counter back; the
 * counter must equal the number of nodes on every node. A second barrier keeps node 0's memory
 * alive until every node has read it, then {@link RemusCluster#close()} runs the shutdown
 * handshake.
 *
 * <p>Output (one line on standard output): {@code launcher-cluster launcher=ompi rank=R size=N
 * counter=C ok} and exit status 0, or the same line ending in {@code wrong} (exit 2) when the
 * counter is not {@code N}; an exception (e.g. a join timeout naming the missing peers) prints
 * {@code launcher-cluster launcher=L error=...} and exits 1. {@code launcher} is {@code slurm},
 * {@code ompi}, {@code pmi} or {@code none}, from the variables present.
 */
public final class LauncherClusterMain {
    /** Offset of the counter in node 0's segment 1 (segment 0 holds the control block). */
    private static final long COUNTER_OFFSET = 4096;

    private LauncherClusterMain() {
    }

    /** @param args {@link RemusCluster#join} arguments */
    public static void main(String[] args) {
        String launcher = System.getenv("SLURM_PROCID") != null ? "slurm"
                : System.getenv("OMPI_COMM_WORLD_RANK") != null ? "ompi"
                : System.getenv("PMI_RANK") != null ? "pmi" : "none";
        int status;
        try (RemusCluster cluster = RemusCluster.join(args)) {
            int rank = cluster.nodeId();
            int size = cluster.size();
            ComputeThread t = cluster.computeThread();
            long counter = RemotePtr.offset(t.segmentBase(0, 1), COUNTER_OFFSET);
            t.fetchAndAdd(counter, 1);
            cluster.barrier().await();
            long value = t.read(counter);
            cluster.barrier().await();
            boolean ok = value == size;
            System.out.println("launcher-cluster launcher=" + launcher + " rank=" + rank + " size=" + size
                    + " counter=" + value + (ok ? " ok" : " wrong"));
            status = ok ? 0 : 2;
        } catch (RuntimeException e) {
            System.out.println("launcher-cluster launcher=" + launcher + " error=" + e);
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}

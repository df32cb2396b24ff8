package io.remus.examples;

import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.Root;
import io.remus.core.sim.SimFabric;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A Remus program's {@code main}, one process per node, as a Remus C++ program is: join the cluster, do remote
 * work, meet at barriers, leave with the shutdown handshake. {@link #node(RemusCluster)} is the program; it runs
 * unchanged on the simulator, with every node a thread of this JVM, and on RDMA NICs, one process per node.
 *
 * <p>Node 0 allocates a counter in its memory and publishes it as the root; every node adds its id + 1 to it
 * with an RDMA fetch-and-add; after a barrier every node reads the total, {@code 1 + 2 + ... + size}.
 *
 * <p>On the simulator, without arguments (three nodes in this JVM), after
 * {@code bin/mvn -q -pl examples/tour -am package -DskipTests} (see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.ClusterMain}
 *
 * <p>On RDMA, one process per node under a launcher. {@link RemusCluster#join(String...)} takes the rank and the
 * size from the launcher's environment ({@code OMPI_COMM_WORLD_RANK}/{@code _SIZE} under Open MPI,
 * {@code SLURM_PROCID}/{@code SLURM_NTASKS} under Slurm) and the addresses from a rendezvous directory shared by
 * the processes and fresh per job:
 * <pre>
 * bin/mvn -q -pl examples/tour -am package -DskipTests
 * mpirun -np 3 java --enable-native-access=ALL-UNNAMED \
 *     -cp "examples/tour/target/classes:examples/tour/target/lib/*" \
 *     io.remus.examples.ClusterMain --rendezvous=/shared/job-1 --seg-size=1M
 * </pre>
 * (with the JDK 22+ that {@code bin/find-jdk} prints, and {@code --device=rxe0} to pick a device other than the
 * first). On one host without an RDMA device, the same processes share memory through files instead
 * ({@link io.remus.core.shm.ShmFabric}): replace {@code --rendezvous=...} with
 * {@code --fabric=shm --shm.dir=/dev/shm/job-1}; {@code ClusterMainMpirunTest} runs it so under {@code mpirun -np 4}. Without a launcher, each process is given its id and the node list:
 * {@code ... ClusterMain --nodes=host0,host1,host2 --node-id=0}, and so on for 1 and 2.
 */
public final class ClusterMain {
    /** Nodes of the simulated cluster that {@link #main} runs without arguments. */
    static final int SIM_NODES = 3;

    private ClusterMain() {
    }

    /**
     * The program of one node: what {@code main} would hold in a one-process-per-node deployment.
     *
     * @param cluster this process's membership in the cluster
     * @return the counter's total, as this node read it after the last barrier
     */
    static long node(RemusCluster cluster) {
        ComputeThread t = cluster.computeThread();        // the cluster's own compute thread of this node
        if (cluster.nodeId() == 0) {
            long counter = t.allocator().allocate(8, 0);  // 8 bytes in node 0's memory
            t.write(counter, 0);                          // zeroed before anyone can know the pointer
            new Root(t).set(counter);                     // published: the root is known to every node
        }
        cluster.barrier().await();                        // every node's compute thread meets here (bounded wait)
        long counter = new Root(t).get();                 // every node finds the counter through the root
        t.fetchAndAdd(counter, cluster.nodeId() + 1);     // one RDMA fetch-and-add
        cluster.barrier().await();                        // all additions are done past this point
        return t.read(counter);
    }

    /**
     * Runs the cluster of {@link #SIM_NODES} nodes on one simulated fabric, each node joined on a thread of its
     * own as a process would join, and prints each node's total.
     *
     * @param out where to print
     * @return each node's total, node 0's first
     * @throws Exception when a node failed or did not finish within 30 seconds
     */
    public static List<Long> runOnSimulator(PrintStream out) throws Exception {
        try (SimFabric fabric = new SimFabric();
             ExecutorService pool = Executors.newFixedThreadPool(SIM_NODES)) {
            List<Future<Long>> nodes = new ArrayList<>();
            for (int i = 0; i < SIM_NODES; i++) {
                // The same arguments a process would get, and the shared fabric in place of an RDMA device.
                String[] args = {"--nodes=n0,n1,n2", "--node-id=" + i, "--seg-size=1M"};
                nodes.add(pool.submit(() -> {
                    try (RemusCluster cluster = RemusCluster.builder().fabric(fabric).args(args)
                            .joinTimeout(Duration.ofSeconds(20)).join()) {
                        return node(cluster);
                    }   // close(): the shutdown handshake, so no node frees memory a peer still reads
                }));
            }
            List<Long> totals = new ArrayList<>();
            for (int i = 0; i < SIM_NODES; i++) {
                totals.add(nodes.get(i).get(30, TimeUnit.SECONDS));
                out.println("node " + i + " of " + SIM_NODES + " read the counter: " + totals.get(i));
            }
            return totals;
        }
    }

    /**
     * Joins the cluster that {@code args} and the environment describe and runs this node's program; without
     * arguments, runs a cluster of {@link #SIM_NODES} nodes on the simulator in this JVM.
     *
     * @param args {@code --key=value} join arguments ({@link RemusCluster}), or none
     * @throws Exception when a node failed
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            runOnSimulator(System.out);
            return;
        }
        try (RemusCluster cluster = RemusCluster.join(args)) {
            long total = node(cluster);
            System.out.println("node " + cluster.nodeId() + " of " + cluster.size() + " read the counter: " + total);
        }
    }
}

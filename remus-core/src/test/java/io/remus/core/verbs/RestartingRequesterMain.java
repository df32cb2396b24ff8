package io.remus.core.verbs;

import io.remus.core.config.ClusterConfig;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;

import java.time.Duration;
import java.util.List;

/**
 * A child JVM of {@link ServingRestartedPeerTest}: node 1 of two, it connects two lanes to node 0
 * over rdma_cm, adds 1 to the first word of node 0's first published region {@code ops} times per
 * lane, then halts abruptly (no cleanup, like a crash). Arguments: {@code device host basePort ops}.
 */
public final class RestartingRequesterMain {
    private RestartingRequesterMain() {
    }

    /** @param args device, host, base port, fetch-and-adds per lane */
    public static void main(String[] args) {
        String device = args[0];
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        int ops = Integer.parseInt(args[3]);
        ClusterConfig config = ClusterConfig.builder().nodes(List.of(host + ":" + port, host + ":" + (port + 1)))
                .nodeId(1).build();
        VerbsFabric fabric = VerbsFabric.open(VerbsFabricOptions.cluster(device, config, Duration.ofSeconds(90)));
        FabricNode n1 = fabric.open(1);
        RemoteRegion r = fabric.awaitPublishedRegions(0, Duration.ofSeconds(90)).get(0);
        CompletionQueue cq = n1.createCompletionQueue(16);
        RegisteredMemory m1 = n1.allocate(4096);
        Completions out = new Completions(4);
        WorkRequests w = new WorkRequests(1);
        for (int lane = 0; lane < 2; lane++) {
            QueuePair qp = n1.connect(0, cq, 4, Duration.ofMinutes(1));
            for (int k = 0; k < ops; k++) {
                w.clear();
                w.addFetchAndAdd(k, m1.address(), m1.lkey(), r.address(), r.rkey(), 1, WorkRequests.SIGNALED);
                qp.post(w);
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                int n;
                while ((n = cq.poll(out)) == 0) {
                    if (System.nanoTime() - deadline > 0) {
                        System.out.println("RESULT NO COMPLETION");
                        System.exit(3);
                    }
                    Thread.onSpinWait();
                }
                if (n != 1 || out.status(0) != CompletionStatus.SUCCESS) {
                    System.out.println("RESULT FAILED " + out.status(0));
                    System.exit(4);
                }
            }
        }
        System.out.println("HALTING");
        System.out.flush();
        Runtime.getRuntime().halt(137);
    }
}

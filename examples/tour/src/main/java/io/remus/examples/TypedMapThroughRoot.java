package io.remus.examples;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.ds.map.ClosedMapException;
import io.remus.ds.map.Codec;
import io.remus.ds.map.TypedRemoteHashMap;
import io.remus.ds.context.WorkerContext;
import io.remus.ds.reclaim.EpochReclaimer;

import java.io.PrintStream;

/**
 * A typed hash map ({@link TypedRemoteHashMap}: RACE hashing over one-sided RDMA, a {@link Codec} per side)
 * created by a thread on node 0, published through the cluster's root pointer ({@link Root}), and attached by a
 * thread on node 1, which finds it there. Node 1's thread then destroys it, and node 0's handle learns so on its
 * next call.
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.TypedMapThroughRoot}
 */
public final class TypedMapThroughRoot {

    /**
     * What the example saw.
     *
     * @param mapNode       the memory node the map lives on (1)
     * @param foundByNode1  what node 1 read for "lehigh" (the value node 0 put: "Bethlehem")
     * @param foundByNode0  what node 0 read for "remus" after node 1 put it ("C++")
     * @param missing       what node 1 read for a key nobody put (null)
     * @param closedSeen    whether node 0's call after node 1's destroy threw {@link ClosedMapException} (true)
     */
    public record Outcome(int mapNode, String foundByNode1, String foundByNode0, String missing, boolean closedSeen) {
    }

    private TypedMapThroughRoot() {
    }

    /**
     * Runs the example and prints what it does.
     *
     * @param out where to print
     * @return what it saw
     */
    public static Outcome run(PrintStream out) {
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1));
             // One worker per node: a compute thread and its reclaimer. In a real cluster these are two processes
             // (see ClusterMain); here one Java thread drives both in turn, which keeps the example's order plain.
             WorkerContext w0 = WorkerContext.open(node0);
             WorkerContext w1 = WorkerContext.open(node1)) {
            ComputeThread t0 = w0.thread();
            ComputeThread t1 = w1.thread();
            // The map retires replaced and removed entries to the calling thread's reclaimer.
            EpochReclaimer r0 = w0.reclaimer();
            EpochReclaimer r1 = w1.reclaimer();

            // Node 0 creates the map on memory node 1: 64 buckets of 8 slots, keys up to 32 bytes of UTF-8,
            // values up to 64 bytes. The size is fixed at creation (the table does not grow).
            TypedRemoteHashMap<String, String> map0 = TypedRemoteHashMap.create(t0, r0, 1, 64, 32, 64,
                    Codec.UTF8, Codec.UTF8);
            map0.put("lehigh", "Bethlehem");              // 3 round trips: write the entry, claim a slot, commit
            map0.put("rdma", "one-sided");
            // Publish it: the root is one word of the first memory node's control block, known to every node.
            new Root(t0).set(map0.ptr());
            out.println("node 0 created the map on node 1 and published it as the root");

            // Node 1 finds the map through the root and attaches: one READ checks that the root is a hash map's
            // (a pointer to another kind of structure is refused with a WrongStructureException) and one
            // compare-and-swap counts the new handle in.
            TypedRemoteHashMap<String, String> map1 = TypedRemoteHashMap.attach(t1, r1, new Root(t1).get(),
                    Codec.UTF8, Codec.UTF8);
            String foundByNode1 = map1.get("lehigh");      // 2 round trips: both candidate buckets, then the entry
            String missing = map1.get("no such key");      // 1 round trip when no slot has its fingerprint
            map1.put("remus", "C++");
            out.println("node 1 attached through the root and read lehigh=" + foundByNode1 + ", missing=" + missing);

            String foundByNode0 = map0.get("remus");       // node 0 sees node 1's put
            out.println("node 0 read remus=" + foundByNode0);

            // Node 1 destroys the map. Its memory is freed once every handle is closed, so node 0's handle never
            // reads freed memory: its next call throws ClosedMapException instead.
            map1.bytes().destroy();
            boolean closedSeen = false;
            try {
                map0.get("lehigh");
            } catch (ClosedMapException e) {
                closedSeen = true;
                out.println("node 0's next call after the destroy: " + e.getClass().getSimpleName());
            }
            map0.close();                                  // the last handle: the map's memory is freed here
            new Root(t0).set(0);                           // and the root no longer points at it
            return new Outcome(RemotePtr.node(map1.ptr()), foundByNode1, foundByNode0, missing, closedSeen);
        }
    }

    /**
     * Runs the example.
     *
     * @param args none
     */
    public static void main(String[] args) {
        run(System.out);
    }
}

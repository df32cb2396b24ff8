package io.remus.examples;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.sim.SimFabric;
import io.remus.ds.map.Codec;
import io.remus.ds.map.TypedRemoteHashMap;
import io.remus.ds.name.NamedStructures;
import io.remus.ds.name.WrongNamedStructureException;
import io.remus.ds.object.RemoteCounter;
import io.remus.ds.context.WorkerContext;
import io.remus.ds.reclaim.EpochReclaimer;

import java.io.PrintStream;

/**
 * Several structures published by name (LITE's named memory regions): each node asks for "hits" and "users"
 * with create-or-attach, the first caller creates each one, every other caller attaches to it, and a name
 * asked for as another kind of structure is refused with a typed error.
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.NamedRoots}
 */
public final class NamedRoots {

    /**
     * What the example saw.
     *
     * @param sameCounter whether both nodes' "hits" handles are on one counter (true)
     * @param hits        the counter after each node added 1 (2)
     * @param sameMap     whether both nodes' "users" handles are on one map (true)
     * @param user        what node 1 read for the key node 0 put ("ada")
     * @param wrongKind   the message of asking for "hits" as a hash map
     */
    public record Outcome(boolean sameCounter, long hits, boolean sameMap, String user, String wrongKind) {
    }

    private NamedRoots() {
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
             // One worker per node (a compute thread and its reclaimer), both driven by this Java thread.
             WorkerContext w0 = WorkerContext.open(node0);
             WorkerContext w1 = WorkerContext.open(node1)) {
            ComputeThread t0 = w0.thread();
            ComputeThread t1 = w1.thread();
            EpochReclaimer r0 = w0.reclaimer();
            EpochReclaimer r1 = w1.reclaimer();
            // Each thread opens the cluster's name directory (a table on the first memory node, found from its
            // control block); the first thread to open it creates it.
            NamedStructures names0 = NamedStructures.open(t0);
            NamedStructures names1 = NamedStructures.open(t1);

            // Create-or-attach: node 0 finds "hits" unbound, creates a counter on node 1 and binds the name to it;
            // node 1 finds the name bound and attaches. Racing callers would still end with exactly one counter.
            RemoteCounter hits0 = names0.counter("hits", 1, 0);
            RemoteCounter hits1 = names1.counter("hits", 1, 0);
            hits0.fetchAndAdd(1);
            hits1.fetchAndAdd(1);
            long hits = hits0.read();
            out.println("\"hits\" is one counter at both nodes: " + (hits0.ptr() == hits1.ptr()) + ", value " + hits);

            // A second structure under a second name, with no root word or directory of the program's own.
            TypedRemoteHashMap<String, String> users0 = names0.hashMap("users", r0, 1, 64, 32, 64, Codec.UTF8,
                    Codec.UTF8);
            TypedRemoteHashMap<String, String> users1 = names1.hashMap("users", r1, 1, 64, 32, 64, Codec.UTF8,
                    Codec.UTF8);
            users0.put("1", "ada");
            String user = users1.get("1");
            out.println("\"users\" is one map at both nodes: " + (users0.ptr() == users1.ptr()) + ", user 1 = " + user);

            // The name says what kind of structure it holds: "hits" is a counter, not a map.
            String wrongKind;
            try {
                names1.hashMap("hits", r1, 1, 64, 32, 64, Codec.UTF8, Codec.UTF8);
                throw new IllegalStateException("a counter was attached as a map");
            } catch (WrongNamedStructureException e) {
                wrongKind = e.getMessage();
                out.println("asking for \"hits\" as a map: " + wrongKind);
            }
            Outcome o = new Outcome(hits0.ptr() == hits1.ptr(), hits, users0.ptr() == users1.ptr(), user, wrongKind);
            users1.close();
            users0.close();
            return o;
        }
    }

    /**
     * Runs the example on the simulator.
     *
     * @param args none
     */
    public static void main(String[] args) {
        run(System.out);
    }
}

package io.remus.examples;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteStruct;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;

import java.io.PrintStream;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A typed remote struct, Remus' {@code rdma_ptr<T>}: the record's layout is declared once as an FFM
 * {@link MemoryLayout}, and its words are read, written, compared-and-swapped and fetched-and-added by
 * name through a {@link ComputeThread}, each one RDMA operation, as with hand-written offsets.
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.TypedStructs}
 */
public final class TypedStructs {
    /** An account: a balance, a version that every update bumps, and the id of its owner. */
    static final RemoteStruct ACCOUNT = RemoteStruct.of(MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("balance"),
            ValueLayout.JAVA_LONG.withName("version"),
            ValueLayout.JAVA_LONG.withName("owner")).withName("account"));
    // Field names resolve to offsets once, here; an unknown name is a BadArgumentException listing the fields.
    static final RemoteStruct.Field BALANCE = ACCOUNT.field("balance");
    static final RemoteStruct.Field VERSION = ACCOUNT.field("version");
    static final RemoteStruct.Field OWNER = ACCOUNT.field("owner");

    /**
     * What the example saw.
     *
     * @param balance     the balance after a deposit of 100 and a withdrawal of 30 (70)
     * @param version     the version after the two updates (2)
     * @param owner       the owner read with the whole struct (42)
     * @param roundTrips  round trips after the allocation: one per field access and one for the whole struct (9)
     */
    public record Outcome(long balance, long version, long owner, long roundTrips) {
    }

    private TypedStructs() {
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
             ComputeThread t = node0.newComputeThread()) {
            // Allocate one account (24 bytes) on node 1 and set its words: three RDMA WRITEs.
            long account = ACCOUNT.allocate(t, node1.config().nodeId());
            long before = t.roundTrips();
            BALANCE.set(t, account, 0);
            VERSION.set(t, account, 0);
            OWNER.set(t, account, 42);

            // A deposit by fetch-and-add (one RDMA FAA), then a withdrawal by compare-and-swap (one READ, one CAS),
            // each bumping the version (one FAA each).
            BALANCE.fetchAndAdd(t, account, 100);
            VERSION.fetchAndAdd(t, account, 1);
            long seen = BALANCE.get(t, account);
            if (BALANCE.compareAndSwap(t, account, seen, seen - 30) != seen) {
                throw new IllegalStateException("nobody else updates this account");
            }
            VERSION.fetchAndAdd(t, account, 1);

            // The whole struct in one RDMA READ into a local segment, its words read by name from the copy.
            MemorySegment copy = MemorySegment.ofArray(new long[3]);
            ACCOUNT.read(t, account, copy);
            long roundTrips = t.roundTrips() - before;
            Outcome o = new Outcome(BALANCE.get(copy), VERSION.get(copy), OWNER.get(copy), roundTrips);
            out.println(ACCOUNT + " at " + RemotePtr.toString(account) + ": balance " + o.balance()
                    + ", version " + o.version() + ", owner " + o.owner() + ", " + roundTrips + " round trips");
            ACCOUNT.deallocate(t, account);
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

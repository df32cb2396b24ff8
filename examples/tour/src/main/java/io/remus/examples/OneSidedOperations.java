package io.remus.examples;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;

import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One-sided operations on a remote pointer: Remus' {@code cThread} calls, as {@link ComputeThread}'s
 * {@code read}, {@code write}, {@code compareAndSwap} and {@code fetchAndAdd}; their asynchronous forms; and a
 * doorbell batch (several operations to one node, posted at once, one round trip).
 *
 * <p>Run (after {@code bin/mvn -q -pl examples/tour -am package -DskipTests}, see examples/tour/README.md):
 * {@code java --enable-native-access=ALL-UNNAMED -cp "examples/tour/target/classes:examples/tour/target/lib/*" io.remus.examples.OneSidedOperations}
 */
public final class OneSidedOperations {

    /**
     * What the example saw.
     *
     * @param node           the node the words live on (1)
     * @param read           the first word read back after writing 7 (7)
     * @param casWon         what a compare-and-swap expecting 7 returned (7: it swapped)
     * @param casLost        what a compare-and-swap expecting 7 returned once the word was 8 (8: it did not)
     * @param bytes          the 16 bytes written from the buffer and read back, as two longs' sum (3 + 4)
     * @param asyncOld       what the asynchronous fetch-and-add returned (0)
     * @param asyncRead      what the asynchronous read, posted after it, returned (1)
     * @param asyncRoundTrips round trips of the two asynchronous operations (1: they were in flight together)
     * @param batchOld       what the batched fetch-and-add returned (100, the batch's WRITE before it)
     * @param batchRead      what the batched READ after it found (105)
     * @param batchRoundTrips round trips of the batch of three operations (1)
     */
    public record Outcome(int node, long read, long casWon, long casLost, long bytes, long asyncOld, long asyncRead,
                          long asyncRoundTrips, long batchOld, long batchRead, long batchRoundTrips) {
    }

    private OneSidedOperations() {
    }

    /**
     * Runs the example and prints what it does.
     *
     * @param out where to print
     * @return what it saw
     */
    public static Outcome run(PrintStream out) {
        // A cluster of two nodes, both memory and compute nodes, on the embedded simulator: the same calls run on
        // RDMA NICs through the verbs fabric (see ClusterMain for how a program joins a real cluster).
        ClusterConfig config = ClusterConfig.builder().nodeCount(2).build();
        try (SimFabric fabric = new SimFabric();
             RemusNode node0 = RemusNode.start(fabric, config.withNodeId(0));
             RemusNode node1 = RemusNode.start(fabric, config.withNodeId(1));
             // A compute thread is Remus' cThread: one per application thread, owned by the first Java thread
             // that uses it. Its operations go through its own queue pairs and its own registered buffer.
             ComputeThread t = node0.newComputeThread()) {

            // Remote memory is allocated with the thread's allocator, on a node of our choice. A remote pointer
            // is a long: the node id in the top 16 bits, the address in the low 48.
            long words = t.allocator().allocate(32, node1.config().nodeId());  // four 8-byte words on node 1
            long a = words;
            long b = RemotePtr.offset(words, 8);
            long c = RemotePtr.offset(words, 16);
            out.println("allocated " + RemotePtr.toString(words) + " on node " + RemotePtr.node(words));

            // Synchronous word operations: each waits for its completion (one round trip).
            t.write(a, 7);                                 // RDMA WRITE
            long read = t.read(a);                         // RDMA READ: 7
            long casWon = t.compareAndSwap(a, 7, 8);       // RDMA CAS: returns the old value, 7, and swaps
            long casLost = t.compareAndSwap(a, 7, 9);      // returns 8: the word was not 7, nothing changed
            out.println("read " + read + "; compareAndSwap(7 -> 8) saw " + casWon + ", compareAndSwap(7 -> 9) saw "
                    + casLost);

            // Ranges go through the thread's registered buffer (zero-copy): fill it, WRITE from it, READ into it.
            MemorySegment buf = t.buffer();
            buf.set(ValueLayout.JAVA_LONG, 0, 3);
            buf.set(ValueLayout.JAVA_LONG, 8, 4);
            t.write(b, 0, 16);                             // 16 bytes from buffer offset 0 to b and c
            t.read(b, 64, 16);                             // and back, to buffer offset 64
            long bytes = buf.get(ValueLayout.JAVA_LONG, 64) + buf.get(ValueLayout.JAVA_LONG, 72);
            out.println("16 bytes written and read back: " + buf.get(ValueLayout.JAVA_LONG, 64) + ", "
                    + buf.get(ValueLayout.JAVA_LONG, 72));

            // Asynchronous forms return a handle (a long) at once; await(handle) waits and returns the result.
            // Operations to one node on one queue pair execute in posting order, so the READ sees the add.
            long d = RemotePtr.offset(words, 24);
            t.write(d, 0);
            long before = t.roundTrips();
            long faa = t.fetchAndAddAsync(d, 1, false);
            long rd = t.readWordAsync(d, false);
            long asyncOld = t.await(faa);                  // 0
            long asyncRead = t.await(rd);                  // 1
            long asyncRoundTrips = t.roundTrips() - before;
            out.println("async fetchAndAdd saw " + asyncOld + ", async read saw " + asyncRead + ", in "
                    + asyncRoundTrips + " round trip");

            // A doorbell batch: several operations to one node, one post, only the last one signalled. Results
            // of atomics and READs land in the buffer at the offsets given.
            buf.set(ValueLayout.JAVA_LONG, 128, 100);
            before = t.roundTrips();
            t.batch()
                    .write(c, 128, 8)                      // c = 100
                    .fetchAndAdd(c, 5, 136)                // c += 5; the old value (100) lands at offset 136
                    .read(c, 144, 8)                       // c (105) lands at offset 144
                    .execute();                            // post and wait for the last entry
            long batchRoundTrips = t.roundTrips() - before;
            long batchOld = buf.get(ValueLayout.JAVA_LONG, 136);
            long batchRead = buf.get(ValueLayout.JAVA_LONG, 144);
            out.println("batch: fetchAndAdd saw " + batchOld + ", read saw " + batchRead + ", in " + batchRoundTrips
                    + " round trip");

            // Give the memory back. (Closing the thread hands its allocator's cached blocks to the node's pool.)
            t.allocator().deallocate(words, 32);
            return new Outcome(RemotePtr.node(words), read, casWon, casLost, bytes, asyncOld, asyncRead,
                    asyncRoundTrips, batchOld, batchRead, batchRoundTrips);
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

package io.remus.bench.structure;

import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LatestKeys}, YCSB D's cluster-wide key generator, on the simulator with two workers on two nodes:
 * one worker's reads name the other's inserts, an acknowledgment out of order stays invisible until the gap
 * fills and is then carried (a twin without the helping step is shown to lose it), the window's overflow
 * waits to its deadline, and each call's RDMA operations.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LatestKeysTest {
    private static final long KEY_UB = 99;
    private static final DsBenchmarkConfig CONFIG = new DsBenchmarkConfig(StructureKind.HASH_MAP, LockKind.ALOCK, 2,
            1, true, null, 10, 0, 0, 0, 0, KEY_UB, 0, Ycsb.D, 8, 16L << 20, 1);

    private SimFabric fabric;
    private RemusNode[] nodes;
    private ComputeThread home;
    private ComputeThread remote;
    private long block;

    @BeforeEach
    void start() {
        fabric = new SimFabric(SimOptions.defaults());
        ClusterConfig base = ClusterConfig.builder().nodeCount(2).memoryNodes(new NodeRange(0, 1))
                .computeNodes(new NodeRange(0, 1)).segmentSize(16L << 20).segmentCount(1).threadsPerNode(2)
                .operationTimeout(Duration.ofSeconds(10)).build();
        nodes = new RemusNode[]{RemusNode.start(fabric, base.withNodeId(0)), RemusNode.start(fabric, base.withNodeId(1))};
        home = nodes[0].newComputeThread();
        remote = nodes[1].newComputeThread();
        block = LatestKeys.create(home, 4242);
    }

    @AfterEach
    void stop() {
        home.close();
        remote.close();
        for (RemusNode n : nodes) {
            n.close();
        }
        fabric.close();
    }

    private LatestKeys.Worker worker(ComputeThread t) {
        return new LatestKeys.Worker(t, block, CONFIG, Duration.ofSeconds(5));
    }

    private static void insert(LatestKeys.Worker w, long expectedKey) {
        long s = w.claim();
        assertEquals(expectedKey, w.key(s), "sequence number " + s + "'s key");
        w.acknowledge(s);
    }

    @Test
    void shouldNameTheOtherWorkersInsertsWhenReadingTheLatest() {
        LatestKeys.Worker a = worker(home);
        LatestKeys.Worker b = worker(remote);
        assertEquals(4242, LatestKeys.structure(remote, block), "the block names the structure");
        for (int i = 1; i <= 3; i++) {
            insert(a, KEY_UB + i);
        }
        assertEquals(KEY_UB + 3, b.read(0), "rank 0: a's latest insert, through b's first READ of the limit");
        assertEquals(KEY_UB + 1, b.read(2), "rank 2: a's first insert");
        assertEquals(KEY_UB, b.read(3), "rank 3, beyond the inserts: the loaded keys from keyUb down");
        assertEquals(0, b.read(3 + KEY_UB), "rank 102: counted down to keyLb");
        insert(a, KEY_UB + 4);
        insert(b, KEY_UB + 5);
        assertEquals(KEY_UB + 5, b.read(0), "b's own acknowledgment refreshed its view");
        insert(a, KEY_UB + 6);
        long reads = 5;
        while (reads % LatestKeys.REFRESH_READS != 0) {
            assertEquals(KEY_UB + 5, b.read(0), "read " + reads + " still uses b's view");
            reads++;
        }
        assertEquals(KEY_UB + 6, b.read(0), "read " + reads + " READs the limit again and names a's insert");
        assertEquals(KEY_UB + 6, a.read(0), "a's first read sees both workers' inserts");
        assertEquals(6, home.read(block + LatestKeys.COUNTER), "six numbers claimed");
        assertEquals(6, home.read(block + LatestKeys.LIMIT), "six acknowledged in order");
    }

    /** Claims two numbers, acknowledges the second first, checks it stays invisible, then the first. */
    private long outOfOrder(BiConsumer<LatestKeys.Worker, Long> acknowledge) {
        LatestKeys.Worker a = worker(home);
        LatestKeys.Worker b = worker(remote);
        long first = a.claim();
        long second = b.claim();
        acknowledge.accept(b, second);
        assertEquals(0, remote.read(block + LatestKeys.LIMIT), "the second number waits for the first");
        assertEquals(KEY_UB, b.read(0), "so a read names a loaded key, not the first insert, still in flight");
        acknowledge.accept(a, first);
        return remote.read(block + LatestKeys.LIMIT);
    }

    @Test
    void shouldCarryAnAcknowledgmentOutOfOrderWhenTheGapFills() {
        assertEquals(2, outOfOrder(LatestKeys.Worker::acknowledge), "the first's acknowledgment carries the second");
    }

    @Test
    void shouldCatchALostAcknowledgmentWhenATwinDoesNotHelp() {
        long limit = outOfOrder((w, s) -> NoHelp.acknowledge(s == 0 ? home : remote, block, s));
        assertNotEquals(2, limit, "the twin leaves the second number unacknowledged for ever");
        assertEquals(1, limit);
    }

    @Test
    void shouldTimeOutNamingTheNumberWhenTheWindowIsFull() {
        LatestKeys.Worker b = new LatestKeys.Worker(remote, block, CONFIG, Duration.ofMillis(50));
        var e = assertThrows(RemoteTimeoutException.class, () -> b.acknowledge(LatestKeys.SLOTS + 3));
        assertTrue(e.getMessage().contains("sequence number 3 stayed unacknowledged"), e.getMessage());
        var bad = assertThrows(BadArgumentException.class,
                () -> new LatestKeys.Worker(remote, 0, CONFIG, Duration.ofSeconds(1)));
        assertTrue(bad.getMessage().contains("got 0"), bad.getMessage());
    }

    @Test
    void shouldCostTheDocumentedOperationsWhenTheWorkerIsRemote() {
        LatestKeys.Worker b = worker(remote);
        Counts c = new Counts(remote);
        long s = b.claim();
        c.check(1, 0, 0, 1, "a claim: one fetch-and-add");
        b.acknowledge(s);
        c.check(3, 1, 2, 0, "an acknowledgment in order: the slot's and the limit's compare-and-swaps, the next slot's READ");
        b.read(0);
        c.check(1, 1, 0, 0, "the first read READs the limit");
        for (int i = 1; i < LatestKeys.REFRESH_READS; i++) {
            b.read(i);
        }
        c.check(0, 0, 0, 0, "the next reads use the view");
        b.read(0);
        c.check(1, 1, 0, 0, "and every " + LatestKeys.REFRESH_READS + "th READs it again");
    }

    /** A compute thread's counters since the last check. */
    private static final class Counts {
        private final ComputeThread t;
        private long rt;
        private long reads;
        private long cas;
        private long faa;

        Counts(ComputeThread t) {
            this.t = t;
            check(rt(), reads(), cas(), faa(), null);
        }

        private long rt() {
            return t.roundTrips() - rt;
        }

        private long reads() {
            return t.postedOperations(Opcode.READ) - reads;
        }

        private long cas() {
            return t.postedOperations(Opcode.COMPARE_AND_SWAP) - cas;
        }

        private long faa() {
            return t.postedOperations(Opcode.FETCH_AND_ADD) - faa;
        }

        void check(long roundTrips, long r, long c, long f, String what) {
            if (what != null) {
                assertEquals(roundTrips, rt(), what + ": round trips");
                assertEquals(r, reads(), what + ": READs");
                assertEquals(c, cas(), what + ": compare-and-swaps");
                assertEquals(f, faa(), what + ": fetch-and-adds");
            }
            rt = t.roundTrips();
            reads = t.postedOperations(Opcode.READ);
            cas = t.postedOperations(Opcode.COMPARE_AND_SWAP);
            faa = t.postedOperations(Opcode.FETCH_AND_ADD);
        }
    }

    /** The broken twin: stores the slot and tries to advance the limit once, without carrying later numbers. */
    private static final class NoHelp {
        static void acknowledge(ComputeThread t, long block, long s) {
            t.compareAndSwap(block + LatestKeys.RING + 8 * (s % LatestKeys.SLOTS), 0, s + 1);
            t.compareAndSwap(block + LatestKeys.LIMIT, s, s + 1);
        }
    }
}

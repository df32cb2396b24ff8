package io.remus.ds.index;

import io.remus.check.Budget;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.spec.MapSpec;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;
import io.remus.ds.replicate.ReplicaGroup;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Histories of three concurrent clients of a 2-shard, 3-replica index under the virtual-time scheduler, checked
 * linearizable key by key against {@link MapSpec}: 40 % put of a value unique to the put, 40 % get, 20 % delete,
 * over 4 keys. With attempts shorter than a commit, clients time out, try a follower, are sent back and resend the
 * same sequence, so the exactly-once table is part of what the check covers (the leader serves one request at a
 * time, so a resent request finds its first copy applied and is answered from the table: each operation is
 * appended once, which the test asserts).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IndexLinearizabilityTest {
    private static final SimOptions CONNECTX5 = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));
    private static final int CLIENTS = 3;
    private static final int OPS = 30;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 4);
    }

    private static byte[] key(long k) {
        return ("key" + k).getBytes(StandardCharsets.UTF_8);
    }

    private static void run(long seed, Duration attempt, boolean expectRetries) {
        IndexShards shards = IndexShards.of("lin", ReplicaGroup.of(0, 1, 2), ReplicaGroup.of(3, 4, 5));
        History history = new History(HistoryClock.NANO_TIME);
        AtomicLong unanswered = new AtomicLong();
        AtomicLong answeredFromTable = new AtomicLong();
        AtomicLong appends = new AtomicLong();
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (IndexHarness h = new IndexHarness(CONNECTX5, shards, 6, CLIENTS, 16)) {
                h.startServers();
                h.attempt = attempt;
                h.runClients(CLIENTS, (c, index) -> {
                    History.Recorder r = history.recorder(c);
                    SplittableRandom rnd = new SplittableRandom(seed * 31 + c);
                    for (int i = 0; i < OPS; i++) {
                        long k = 1 + rnd.nextInt(4);
                        int pick = rnd.nextInt(10);
                        if (pick < 4) {
                            long word = ((c + 1L) << 32) | (i + 1);
                            int op = r.invoke(MapSpec.PUT, k, word);
                            boolean replaced = index.put(key(k), ByteBuffer.allocate(8).putLong(word).array(), IndexHarness.DEADLINE);
                            r.respond(op, replaced ? 0 : 1);
                        } else if (pick < 8) {
                            int op = r.invoke(MapSpec.GET, k);
                            byte[] v = index.get(key(k), IndexHarness.DEADLINE);
                            if (v == null) {
                                r.respond(op, 0);
                            } else {
                                r.respond(op, 1, ByteBuffer.wrap(v).getLong());
                            }
                        } else {
                            int op = r.invoke(MapSpec.REMOVE, k);
                            r.respond(op, index.delete(key(k), IndexHarness.DEADLINE) ? 1 : 0);
                        }
                    }
                    unanswered.addAndGet(index.failedAttempts());
                });
                h.stopServers(1_000_000);
                answeredFromTable.set(h.fromTable[0] + h.fromTable[3]);
                appends.set(h.appends[0] + h.appends[3]);
                for (int s = 0; s < 2; s++) {
                    ReplicaGroup g = shards.group(s);
                    for (int m = 1; m < 3; m++) {
                        assertEquals(h.state[g.member(0)], h.state[g.member(m)], "replica " + g.member(m) + " of shard " + s);
                    }
                }
            }
        });
        assertEquals(CLIENTS * OPS, history.operations().size());
        CHECKER.checkByKey(history.operations(), new MapSpec()).assertLinearizable();
        assertEquals(CLIENTS * OPS, appends.get(), "each operation appended once, however often it was sent");
        if (expectRetries) {
            assertTrue(unanswered.get() > 0, "attempts timed out and were retried: " + unanswered.get());
            assertTrue(answeredFromTable.get() > 0, "resent requests answered from the session table: " + answeredFromTable.get());
        }
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldBeLinearizablePerKeyWithThreeConcurrentClients(long seed) {
        run(seed, IndexHarness.ATTEMPT, false);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldBeLinearizablePerKeyWhenAttemptsTimeOutAndRequestsAreResent(long seed) {
        run(seed, Duration.ofNanos(4_000), true);
    }
}

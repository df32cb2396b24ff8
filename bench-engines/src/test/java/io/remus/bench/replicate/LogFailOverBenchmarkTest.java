package io.remus.bench.replicate;

import io.remus.bench.engines.SimTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimCostModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fail-over engine: its refusals, typed and naming the flag and value; its phases ordered, positive and made of
 * what the model says (the transport timeout for a silent node, {@code suspectAfter} heartbeat READs for a stopped
 * process); the takeover's RDMA operations as {@code LogLeader.takeOver} posts them for 3 members; and the same seed
 * giving the same figures. Times here are virtual time, fixed by the model and the code.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LogFailOverBenchmarkTest {
    private static final SimTime VIRTUAL = SimTime.virtual(SimCostModel.CONNECTX5, 1);
    private static final long RT = SimCostModel.CONNECTX5.readWriteRoundTripNanos();
    private static final long TIMEOUT = 1_000_000;
    /** READs of a name lookup on another node: the directory's pointer word twice and its header, then 2 for a bound name. */
    private static final int LOOKUP_READS = 5;

    private static LogFailOverConfig config(LogFailOverConfig.Crash crash, int suspectAfter) {
        return new LogFailOverConfig(3, 64, 20, 32, suspectAfter, crash, TIMEOUT);
    }

    private static void assertPhasesOrdered(LogFailOverResult r) {
        assertTrue(r.detectedNanos() > 0, "detection after the crash: " + r);
        assertTrue(r.allSuspectNanos() >= r.detectedNanos(), "the last survivor suspects after the first: " + r);
        assertTrue(r.tookOverNanos() > r.detectedNanos(), "takeover after detection: " + r);
        assertTrue(r.firstCommitNanos() > r.tookOverNanos(), "first commit after the takeover: " + r);
        assertTrue(r.firstAppendNanos() >= RT, "the first append is a WRITE round trip: " + r.firstAppendNanos());
        assertEquals(0, r.falseSuspicions(), "no survivor suspected the leader before it crashed");
        assertEquals(20, r.recovered(), "the new leader recovered every committed entry");
        assertEquals(21, r.minApplied(), "every survivor applied the recovered entries and the new one");
    }

    /**
     * The takeover's counts with one follower granting (3 members, node 0 gone): one WRITE per rewritten entry and
     * one commit-flush WRITE, each READ and WRITE its own round trip (one rewrite fits the window), one READ of the
     * granting follower's whole log.
     */
    private static void assertTakeoverWrites(LogFailOverResult r) {
        assertEquals(r.rewriteWrites() + 1, r.takeoverPosted(Opcode.WRITE), "rewrites and one commit-flush WRITE");
        assertTrue(r.rewriteWrites() <= 1, "the follower lacked at most the last entry: " + r.rewriteWrites());
        assertEquals(r.rewriteWrites() * LogBenchmarkConfig.slotBytes(64) + 8, r.takeoverBytesWritten());
        assertEquals(r.takeoverPosted(Opcode.READ) + r.takeoverPosted(Opcode.WRITE), r.takeoverPostedTotal());
        assertEquals(r.takeoverPostedTotal(), r.takeoverRoundTrips(), "one operation per round trip");
        assertTrue(r.takeoverBytesRead() > LogBenchmarkConfig.logBytes(32, 64), "node 2's whole log READ");
    }

    @Test
    void shouldRefuseTheHostsClockNamingIt() {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> LogFailOverBenchmark.run(config(LogFailOverConfig.Crash.NODE, 16), SimCostModel.CONNECTX5, SimTime.HOST));
        assertEquals("the replicated log's fail-over runs in virtual time only, got the host's clock", e.getMessage());
    }

    @Test
    void shouldRefuseABadRunNamingTheFlagAndValue() {
        LogFailOverConfig.Crash node = LogFailOverConfig.Crash.NODE;
        assertEquals("--replicas must be an odd group of 2f + 1 members, 3..15, got 4", assertThrows(BadArgumentException.class,
                () -> new LogFailOverConfig(4, 64, 20, 32, 16, node, TIMEOUT)).getMessage());
        assertEquals("--entry-bytes must be at least 8 with --fail-over (an entry carries its number), got 7",
                assertThrows(BadArgumentException.class, () -> new LogFailOverConfig(3, 7, 20, 32, 16, node, TIMEOUT)).getMessage());
        assertEquals("--appends 32 with --fail-over needs --log-slots above it (the new leader recovers the log from the "
                        + "survivors' rings), got --log-slots 32",
                assertThrows(BadArgumentException.class, () -> new LogFailOverConfig(3, 64, 32, 32, 16, node, TIMEOUT)).getMessage());
        assertEquals("--appends must be 1..60000 with --fail-over, got 0",
                assertThrows(BadArgumentException.class, () -> new LogFailOverConfig(3, 64, 0, 32, 16, node, TIMEOUT)).getMessage());
        assertEquals("--suspect-after must be 1..1000000 READs, got 0",
                assertThrows(BadArgumentException.class, () -> new LogFailOverConfig(3, 64, 20, 32, 0, node, TIMEOUT)).getMessage());
        assertEquals("--transport-timeout-us must be 1..1000000, got 0.5",
                assertThrows(BadArgumentException.class, () -> new LogFailOverConfig(3, 64, 20, 32, 16, node, 500)).getMessage());
        assertEquals("--transport-timeout-us must be 1..1000000, got -3",
                assertThrows(BadArgumentException.class, () -> LogFailOverConfig.transportTimeoutNanos(-3)).getMessage());
        assertEquals(7_000, LogFailOverConfig.transportTimeoutNanos(7));
    }

    /**
     * A silent node: every survivor suspects it at the heartbeat READ that fails after the transport timeout, and
     * the takeover, whose agent suspects it, does not look its log up (the others are a majority), so the takeover
     * pays no second timeout; the suspicion count plays no part.
     */
    @Test
    void shouldDetectASilentLeaderAtTheTransportTimeoutAndTakeOverWithoutLookingItUp() throws InterruptedException {
        LogFailOverResult r = LogFailOverBenchmark.run(config(LogFailOverConfig.Crash.NODE, 16), SimCostModel.CONNECTX5, VIRTUAL);
        assertPhasesOrdered(r);
        assertTrue(r.detectionNanos() >= TIMEOUT && r.detectionNanos() < TIMEOUT + 2 * RT,
                "detection is the transport timeout and at most a heartbeat READ's round trip: " + r.detectionNanos());
        assertTrue(r.takeoverNanos() < TIMEOUT, "the suspected node is not looked up: " + r.takeoverNanos());
        assertTakeoverWrites(r);
        long promiseReads = r.takeoverPosted(Opcode.READ) - (LOOKUP_READS + 1) - 1 - 1;
        assertTrue(promiseReads >= 1, "node 2 only: lookup and shape, term and candidate, promise looks, its log: "
                + r.takeoverPosted(Opcode.READ));
        LogFailOverResult more = LogFailOverBenchmark.run(config(LogFailOverConfig.Crash.NODE, 128), SimCostModel.CONNECTX5, VIRTUAL);
        assertEquals(r.detectionNanos(), more.detectionNanos(), "a silent node is never READ unchanged");
        LogFailOverResult again = LogFailOverBenchmark.run(config(LogFailOverConfig.Crash.NODE, 16), SimCostModel.CONNECTX5, VIRTUAL);
        assertEquals(List.of(r.detectedNanos(), r.allSuspectNanos(), r.tookOverNanos(), r.firstCommitNanos(),
                        r.takeoverRoundTrips(), r.takeoverBytesRead(), r.rewriteWrites()),
                List.of(again.detectedNanos(), again.allSuspectNanos(), again.tookOverNanos(), again.firstCommitNanos(),
                        again.takeoverRoundTrips(), again.takeoverBytesRead(), again.rewriteWrites()), "the same seed, the same run");
        assertArrayEquals(r.takeoverPosted(), again.takeoverPosted(), "the same seed, the same counts");
    }

    /**
     * A stopped process whose memory answers: its heartbeat stops, and a survivor suspects it after
     * {@code suspectAfter} READs in a row saw it unchanged, each at least a round trip; no transport timeout.
     */
    @Test
    void shouldDetectAStoppedProcessAfterSuspectAfterUnchangedHeartbeatReads() throws InterruptedException {
        for (int suspectAfter : new int[] {4, 32}) {
            LogFailOverResult r = LogFailOverBenchmark.run(config(LogFailOverConfig.Crash.PROCESS, suspectAfter),
                    SimCostModel.CONNECTX5, VIRTUAL);
            assertPhasesOrdered(r);
            assertTrue(r.detectionNanos() >= (suspectAfter - 1) * RT, suspectAfter + " READs: " + r.detectionNanos());
            assertTrue(r.firstCommitNanos() < TIMEOUT, "no transport timeout anywhere: " + r.firstCommitNanos());
            assertTakeoverWrites(r);
            long promiseReads = r.takeoverPosted(Opcode.READ) - (LOOKUP_READS + 1) - 1 - 1;
            assertTrue(promiseReads >= 1, "node 2 only (node 0 is suspected, so not looked up): lookup and shape, "
                    + "term and candidate, each look at the promises until it granted, its log: "
                    + r.takeoverPosted(Opcode.READ));
        }
    }
}

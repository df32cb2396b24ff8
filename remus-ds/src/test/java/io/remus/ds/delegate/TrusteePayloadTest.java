package io.remus.ds.delegate;

import io.remus.core.ComputeThread;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.testing.Counts;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Delegation's payload requests ({@link Trustee#create(ComputeThread, int, int, int)},
 * {@link Trust#apply(int, MemorySegment, MemorySegment, Duration)}): the bytes go there and back whole for
 * clients on another node, on the trustee's node and on a node without memory, at the RDMA counts of a word
 * request; many clients keep exact totals; bad calls fail with typed errors and leave the client working.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TrusteePayloadTest {
    private static final int TRUSTEE_NODE = 1;
    private static final int PAYLOAD = 64;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    int appliesPerThread() {
        return 200;
    }

    private static TrusteeRunner runner(TestCluster c) {
        return new TrusteeRunner(c, TRUSTEE_NODE, 4, 2, 1, (t, clients, slots) -> Trustee.create(t, clients, slots, PAYLOAD));
    }

    private static MemorySegment bytes(int length, int seed) {
        MemorySegment s = MemorySegment.ofArray(new byte[length]);
        for (int i = 0; i < length; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, (byte) (seed * 31 + i * 7));
        }
        return s;
    }

    private static long sum(MemorySegment s) {
        long sum = 0;
        for (long i = 0; i < s.byteSize(); i++) {
            sum += s.get(ValueLayout.JAVA_BYTE, i) & 0xFF;
        }
        return sum;
    }

    private static void assertReversed(MemorySegment request, MemorySegment response, int length, String what) {
        for (int i = 0; i < length; i++) {
            assertEquals(request.get(ValueLayout.JAVA_BYTE, length - 1 - i), response.get(ValueLayout.JAVA_BYTE, i),
                    what + ": byte " + i + " of " + length);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCarryPayloadsBothWaysAtTheCostsOfAWordRequestFromEveryKindOfNode(Function<SimOptions, Fabric> make)
            throws Exception {
        int bare = 2;
        int[] lengths = {0, 1, 7, 8, 63, PAYLOAD};
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3,
                b -> b.segmentSize(4 << 20).memoryNodes(new NodeRange(0, 1)));
             TrusteeRunner runner = runner(c)) {
            long ptr = runner.ptr();
            AtomicLong sent = new AtomicLong();
            c.runOnThreads(new int[] {0, TRUSTEE_NODE, bare}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                assertEquals(PAYLOAD, client.payloadBytes());
                Trust<Delegated.Cell> cell = client.trust(0);
                MemorySegment response = MemorySegment.ofArray(new byte[PAYLOAD]);
                for (int length : lengths) {
                    MemorySegment request = bytes(length, index);
                    Counts before = Counts.of(t);
                    assertEquals(length, cell.apply(Delegated.SUM_AND_REVERSE, request, response, PATIENCE));
                    Counts cost = before.since(t);
                    String what = "node " + t.nodeId() + ", " + length + " bytes";
                    assertReversed(request, response, length, what);
                    sent.addAndGet(sum(request));
                    if (t.nodeId() == TRUSTEE_NODE) {
                        assertEquals(new Counts(0, 0, 0, 0, 0, 0, 0), cost, what + ": CPU stores and loads only");
                    } else if (t.nodeId() == bare) {
                        long polls = cost.reads() - 1;
                        assertTrue(polls >= 1, what + ": at least one poll: " + cost);
                        assertEquals(new Counts(polls + 2, polls + 1, 2, 0, 0, 16 * polls + 16 + PAYLOAD, 32 + PAYLOAD), cost,
                                what + ": 2 WRITEs, a 16-byte READ per poll, and one READ of result, status and payload");
                    } else {
                        assertEquals(new Counts(1, 0, 2, 0, 0, 0, 32 + PAYLOAD), cost,
                                what + ": 2 WRITEs (the whole payload area in the first) in 1 round trip, the response in this node's memory");
                    }
                }
                assertTrue(cell.apply(Delegated.FETCH_AND_ADD, 1_000, PATIENCE) >= 0, "word requests still work beside them");
                sent.addAndGet(1_000);
            });
            assertEquals(sent.get(), runner.stop(true)[0], "the trustee ran every request once");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldAnswerAsyncPayloadRequestsInFlightTogetherWithWordRequestsEachIntoItsOwnResponse(
            Function<SimOptions, Fabric> make) {
        int slots = 4;
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.segmentSize(4 << 20));
             ComputeThread t = c.thread(TRUSTEE_NODE); ComputeThread remote = c.thread(0); ComputeThread local = c.thread(TRUSTEE_NODE)) {
            Trustee<Delegated.Cell> trustee = Delegated.oneCell(Trustee.create(t, 2, slots, PAYLOAD));
            long expected = 0;
            for (ComputeThread ct : new ComputeThread[] {remote, local}) {
                Trust<Delegated.Cell> cell = TrusteeClient.connect(ct, trustee.ptr()).trust(0);
                MemorySegment[] requests = new MemorySegment[slots - 1];
                MemorySegment[] responses = new MemorySegment[slots - 1];
                PendingApply[] pending = new PendingApply[slots - 1];
                for (int i = 0; i < slots - 1; i++) {
                    requests[i] = bytes(8 + 20 * i, i + 1);
                    responses[i] = MemorySegment.ofArray(new byte[PAYLOAD]);
                    pending[i] = cell.applyAsync(Delegated.SUM_AND_REVERSE, requests[i], responses[i]);
                    expected += sum(requests[i]);
                }
                PendingApply word = cell.applyAsync(Delegated.FETCH_AND_ADD, 1);
                expected += 1;
                cell.client().flush();
                assertEquals(slots, trustee.serveOnce(), "one pass serves all " + slots + " requests in flight");
                for (int i = 0; i < slots - 1; i++) {
                    assertEquals(requests[i].byteSize(), pending[i].await(PATIENCE));
                    assertReversed(requests[i], responses[i], (int) requests[i].byteSize(), "node " + ct.nodeId() + ", request " + i);
                }
                assertEquals(expected - 1, word.await(PATIENCE), "the word request ran after the payloads made before it");
            }
            assertEquals(expected, trustee.property(0).value);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepExactTotalsAndAnswerEachClientItsOwnBytesWhenManyClientsSendPayloads(Function<SimOptions, Fabric> make)
            throws Exception {
        int n = appliesPerThread();
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.segmentSize(4 << 20));
             TrusteeRunner runner = runner(c)) {
            long ptr = runner.ptr();
            AtomicLong sent = new AtomicLong();
            c.runOnThreads(new int[] {0, 1, 2, 0}, (index, t) -> {
                TrusteeClient client = TrusteeClient.connect(t, ptr);
                Trust<Delegated.Cell> cell = client.trust(0);
                SplittableRandom rnd = new SplittableRandom(index);
                MemorySegment response = MemorySegment.ofArray(new byte[PAYLOAD]);
                for (int i = 0; i < n; i++) {
                    int length = rnd.nextInt(PAYLOAD + 1);
                    MemorySegment request = bytes(length, index * 1_000 + i);
                    assertEquals(length, cell.apply(Delegated.SUM_AND_REVERSE, request, response, PATIENCE));
                    assertReversed(request, response, length, "thread " + index + ", call " + i);
                    sent.addAndGet(sum(request));
                }
            });
            assertEquals(sent.get(), runner.stop(true)[0], "every byte sent was added once");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadPayloadCallsWithTypedErrorsAndKeepServing(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults(), 3, b -> b.segmentSize(4 << 20))) {
            try (ComputeThread t = c.thread(TRUSTEE_NODE)) {
                assertTrue(assertThrows(BadArgumentException.class, () -> Trustee.create(t, 1, 1, 12)).getMessage().contains("12"));
                assertTrue(assertThrows(BadArgumentException.class, () -> Trustee.create(t, 1, 1, -8)).getMessage().contains("-8"));
                assertTrue(assertThrows(BadArgumentException.class, () -> Trustee.create(t, 1, 1, Trustee.MAX_PAYLOAD_BYTES + 8))
                        .getMessage().contains(Integer.toString(Trustee.MAX_PAYLOAD_BYTES + 8)));
                assertTrue(assertThrows(BadArgumentException.class, () -> Trustee.create(t, Trustee.MAX_CLIENTS, 256, 4096))
                        .getMessage().contains("stages"));
                Trustee<Delegated.Cell> words = Trustee.create(t, 1, 1);
                BadArgumentException noPayloads = assertThrows(BadArgumentException.class,
                        () -> words.register(9, (Delegated.Cell cell, MemorySegment in, MemorySegment out) -> 0));
                assertTrue(noPayloads.getMessage().contains("carries no payloads"), noPayloads.getMessage());
                try (ComputeThread ct = c.thread(0)) {
                    Trust<Delegated.Cell> wordCell = TrusteeClient.connect(ct, words.ptr()).trust(0);
                    BadArgumentException e = assertThrows(BadArgumentException.class, () -> wordCell.apply(Delegated.SUM_AND_REVERSE,
                            bytes(1, 0), MemorySegment.ofArray(new byte[8]), PATIENCE));
                    assertTrue(e.getMessage().contains("carries no payloads"), e.getMessage());
                }
            }
            try (TrusteeRunner runner = runner(c)) {
                long ptr = runner.ptr();
                c.runOnThreads(new int[] {0}, (index, t) -> {
                    Trust<Delegated.Cell> cell = TrusteeClient.connect(t, ptr).trust(0);
                    MemorySegment response = MemorySegment.ofArray(new byte[PAYLOAD]);
                    BadArgumentException tooLong = assertThrows(BadArgumentException.class,
                            () -> cell.apply(Delegated.SUM_AND_REVERSE, bytes(PAYLOAD + 1, 0), response, PATIENCE));
                    assertTrue(tooLong.getMessage().contains(Integer.toString(PAYLOAD + 1)), tooLong.getMessage());
                    BadArgumentException tooShort = assertThrows(BadArgumentException.class,
                            () -> cell.apply(Delegated.SUM_AND_REVERSE, bytes(1, 0), MemorySegment.ofArray(new byte[PAYLOAD - 8]), PATIENCE));
                    assertTrue(tooShort.getMessage().contains(Integer.toString(PAYLOAD - 8)), tooShort.getMessage());
                    BadArgumentException readOnly = assertThrows(BadArgumentException.class,
                            () -> cell.apply(Delegated.SUM_AND_REVERSE, bytes(1, 0), response.asReadOnly(), PATIENCE));
                    assertTrue(readOnly.getMessage().contains("read-only"), readOnly.getMessage());
                    assertRefused("takes a payload, not a word", () -> cell.apply(Delegated.SUM_AND_REVERSE, 1, PATIENCE));
                    assertRefused("takes a word, not a payload",
                            () -> cell.apply(Delegated.FETCH_AND_ADD, bytes(8, 0), response, PATIENCE));
                    assertRefused("no operation 99", () -> cell.apply(99, bytes(8, 0), response, PATIENCE));
                    assertRefused("payload length outside 0.." + PAYLOAD,
                            () -> cell.apply(Delegated.OVERLONG, bytes(8, 0), response, PATIENCE));
                    assertRefused("threw there", () -> cell.apply(Delegated.PAYLOAD_THROW, bytes(8, 0), response, PATIENCE));
                    MemorySegment request = bytes(5, 3);
                    assertEquals(5, cell.apply(Delegated.SUM_AND_REVERSE, request, response, PATIENCE), "the client still works");
                    assertReversed(request, response, 5, "after the refusals");
                });
                assertEquals(sum(bytes(5, 3)), runner.stop(true)[0], "only the good request changed the cell");
            }
        }
    }

    private static void assertRefused(String why, Runnable call) {
        DelegatedOperationException e = assertThrows(DelegatedOperationException.class, call::run);
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }
}

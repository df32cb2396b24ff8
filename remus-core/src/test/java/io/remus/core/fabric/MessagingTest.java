package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.ResourceInUseException;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fabric's messaging: SEND and WRITE_WITH_IMMEDIATE against a node's receive queue, receive
 * completions (byte length, immediate, wr_id), their error completions, and waiting for completions
 * with a deadline. Run on every fabric of {@link Fabrics#all()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MessagingTest {
    /**
     * Whether an oversize message completes with the statuses the InfiniBand specification names for it (the
     * receive: local length error; the send: remote invalid request), as the simulator does.
     */
    boolean lengthErrorsAsTheSpecNamesThem() {
        return true;
    }

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration QP_TIMEOUT = Duration.ofMinutes(1);

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** Two nodes, each with a receive queue, a send completion queue and a queue pair to the other. */
    private static final class Pair {
        final FabricNode a;
        final FabricNode b;
        final CompletionQueue sendA;
        final CompletionQueue sendB;
        final CompletionQueue recvA;
        final CompletionQueue recvB;
        final ReceiveQueue rqA;
        final ReceiveQueue rqB;
        final RegisteredMemory memA;
        final RegisteredMemory memB;
        final QueuePair ab;
        final QueuePair ba;

        Pair(Fabric fabric) {
            a = fabric.open(0);
            b = fabric.open(1);
            recvA = a.createCompletionQueue(64);
            recvB = b.createCompletionQueue(64);
            rqA = a.createReceiveQueue(recvA, 16);
            rqB = b.createReceiveQueue(recvB, 16);
            memA = a.allocate(4096);
            memB = b.allocate(4096);
            b.publish(memB);
            sendA = a.createCompletionQueue(64);
            sendB = b.createCompletionQueue(64);
            ab = a.connect(1, sendA, 16, QP_TIMEOUT);
            ba = b.connect(0, sendB, 16, QP_TIMEOUT);
        }
    }

    private static Completions one(CompletionQueue cq) {
        Completions out = new Completions(1);
        assertEquals(1, cq.poll(out, WAIT), "no completion within " + WAIT);
        return out;
    }

    private static void postReceive(ReceiveQueue rq, long wrId, RegisteredMemory m, long offset, int length) {
        ReceiveRequests r = new ReceiveRequests(1);
        r.add(wrId, m.address() + offset, length, m.lkey());
        rq.post(r);
    }

    private static void send(QueuePair qp, long wrId, RegisteredMemory m, long offset, int length) {
        WorkRequests w = new WorkRequests(1);
        w.addSend(wrId, m.address() + offset, length, m.lkey(), WorkRequests.SIGNALED);
        qp.post(w);
    }

    /**
     * As verbs refuses {@code ibv_destroy_cq} with {@code EBUSY}, a completion queue does not close while a
     * queue pair created with it is open, nor the receive queue's once a peer connected to the node; the
     * refused queues keep working, and the freed one closes.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseToCloseACompletionQueueThatQueuePairsDeliverInto(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            assertThrows(ResourceInUseException.class, p.sendA::close, "queue pair a->b completes on it");
            assertThrows(ResourceInUseException.class, p.recvB::close, "a's connection to b delivers into b's receive queue");
            postReceive(p.rqB, 7, p.memB, 512, 64);
            send(p.ab, 8, p.memA, 0, 8);
            assertEquals(CompletionStatus.SUCCESS, one(p.recvB).status(0), "b's receive queue still delivers");
            assertEquals(CompletionStatus.SUCCESS, one(p.sendA).status(0), "a's send queue still completes");
            p.ab.close();
            p.sendA.close();
            p.sendA.close();
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldDeliverEachMessageWhenNodesPlayPingPong(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            for (long round = 1; round <= 10; round++) {
                postReceive(p.rqB, 1000 + round, p.memB, 512, 64);
                p.memA.segment().set(ValueLayout.JAVA_LONG, 0, round);
                send(p.ab, round, p.memA, 0, 8);
                Completions got = one(p.recvB);
                assertEquals(CompletionStatus.SUCCESS, got.status(0));
                assertEquals(Opcode.RECEIVE, got.opcode(0));
                assertEquals(1000 + round, got.wrId(0));
                assertEquals(8, got.byteLength(0));
                assertFalse(got.hasImmediate(0));
                assertEquals(round, p.memB.segment().get(ValueLayout.JAVA_LONG, 512));
                Completions sent = one(p.sendA);
                assertEquals(CompletionStatus.SUCCESS, sent.status(0));
                assertEquals(Opcode.SEND, sent.opcode(0));
                assertEquals(round, sent.wrId(0));

                postReceive(p.rqA, 2000 + round, p.memA, 1024, 64);
                p.memB.segment().set(ValueLayout.JAVA_LONG, 8, -round);
                send(p.ba, round, p.memB, 8, 8);
                Completions pong = one(p.recvA);
                assertEquals(CompletionStatus.SUCCESS, pong.status(0));
                assertEquals(2000 + round, pong.wrId(0));
                assertEquals(-round, p.memA.segment().get(ValueLayout.JAVA_LONG, 1024));
                assertEquals(CompletionStatus.SUCCESS, one(p.sendB).status(0));
            }
            assertEquals(0, p.rqA.outstanding());
            assertEquals(0, p.rqB.outstanding());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFillReceivesOldestFirstWhenMessagesArriveInPostingOrder(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            int n = 8;
            ReceiveRequests receives = new ReceiveRequests(n);
            for (int i = 0; i < n; i++) {
                receives.add(100 + i, p.memB.address() + 64L * i, 64, p.memB.lkey());
            }
            p.rqB.post(receives);
            assertEquals(n, p.rqB.outstanding());
            WorkRequests sends = new WorkRequests(n);
            for (int i = 0; i < n; i++) {
                p.memA.segment().set(ValueLayout.JAVA_LONG, 8L * i, 7L * i + 3);
                sends.addSend(i, p.memA.address() + 8L * i, 8 + i, p.memA.lkey(), i == n - 1 ? WorkRequests.SIGNALED : 0);
            }
            p.ab.post(sends);
            Completions out = new Completions(n);
            int seen = 0;
            while (seen < n) {
                int got = p.recvB.poll(out, WAIT);
                assertTrue(got > 0, "only " + seen + " of " + n + " receives completed within " + WAIT);
                for (int k = 0; k < got; k++, seen++) {
                    assertEquals(CompletionStatus.SUCCESS, out.status(k));
                    assertEquals(100 + seen, out.wrId(k));
                    assertEquals(8 + seen, out.byteLength(k));
                    assertEquals(7L * seen + 3, p.memB.segment().get(ValueLayout.JAVA_LONG, 64L * seen));
                }
            }
            assertEquals(n - 1, one(p.sendA).wrId(0));
            assertEquals(0, p.rqB.outstanding());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteWithReceiverNotReadyWhenPeerPostedNoReceive(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            send(p.ab, 5, p.memA, 0, 8);
            Completions failed = one(p.sendA);
            assertEquals(5, failed.wrId(0));
            assertEquals(CompletionStatus.RECEIVER_NOT_READY, failed.status(0));
            assertTrue(p.ab.inError());

            p.ab.reset();
            postReceive(p.rqB, 6, p.memB, 0, 8);
            send(p.ab, 7, p.memA, 0, 8);
            assertEquals(CompletionStatus.SUCCESS, one(p.sendA).status(0));
            assertEquals(6, one(p.recvB).wrId(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteWithReceiverNotReadyWhenQueuePairConnectedBeforeReceiveQueue(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory memA = a.allocate(4096);
            RegisteredMemory memB = b.allocate(4096);
            CompletionQueue sendA = a.createCompletionQueue(16);
            QueuePair early = a.connect(1, sendA, 4, QP_TIMEOUT);
            CompletionQueue recvB = b.createCompletionQueue(16);
            ReceiveQueue rqB = b.createReceiveQueue(recvB, 4);
            postReceive(rqB, 1, memB, 0, 64);

            send(early, 2, memA, 0, 8);
            assertEquals(CompletionStatus.RECEIVER_NOT_READY, one(sendA).status(0));

            QueuePair late = a.connect(1, sendA, 4, QP_TIMEOUT);
            send(late, 3, memA, 0, 8);
            assertEquals(CompletionStatus.SUCCESS, one(sendA).status(0));
            assertEquals(1, one(recvB).wrId(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldDeliverToOwnReceiveQueueWhenSentOverLoopback(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            RegisteredMemory mem = a.allocate(4096);
            CompletionQueue recv = a.createCompletionQueue(16);
            ReceiveQueue rq = a.createReceiveQueue(recv, 4);
            CompletionQueue sent = a.createCompletionQueue(16);
            QueuePair self = a.connect(0, sent, 4, QP_TIMEOUT);
            postReceive(rq, 9, mem, 256, 8);
            mem.segment().set(ValueLayout.JAVA_LONG, 0, 4242L);
            send(self, 10, mem, 0, 8);
            Completions got = one(recv);
            assertEquals(9, got.wrId(0));
            assertEquals(CompletionStatus.SUCCESS, got.status(0));
            assertEquals(4242L, mem.segment().get(ValueLayout.JAVA_LONG, 256));
            assertEquals(10, one(sent).wrId(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldFailAsOneSidedRequestsDoWhenPeerClosed(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults().withTransportTimeoutNanos(20_000_000L))) {
            Pair p = new Pair(fabric);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            QueuePair oneSided = p.a.connect(1, p.sendA, 4, QP_TIMEOUT);
            postReceive(p.rqB, 1, p.memB, 0, 64);
            p.b.close();

            send(p.ab, 2, p.memA, 0, 8);
            Completions sent = one(p.sendA);
            WorkRequests write = new WorkRequests(1);
            write.addWrite(3, p.memA.address(), 8, p.memA.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
            oneSided.post(write);
            Completions written = one(p.sendA);

            assertEquals(2, sent.wrId(0));
            assertNotEquals(CompletionStatus.SUCCESS, sent.status(0));
            assertEquals(written.status(0), sent.status(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteWithLengthErrorsWhenMessageLongerThanReceiveBuffer(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            postReceive(p.rqB, 40, p.memB, 0, 8);
            send(p.ab, 41, p.memA, 0, 16);
            Completions received = one(p.recvB);
            assertEquals(40, received.wrId(0));
            Completions sent = one(p.sendA);
            assertEquals(41, sent.wrId(0));
            if (lengthErrorsAsTheSpecNamesThem()) {
                assertEquals(CompletionStatus.LOCAL_LENGTH_ERROR, received.status(0));
                assertEquals(CompletionStatus.REMOTE_INVALID_REQUEST, sent.status(0));
            } else {
                assertNotEquals(CompletionStatus.SUCCESS, received.status(0), "the receive fails");
                assertNotEquals(CompletionStatus.SUCCESS, sent.status(0), "the send fails");
            }
            assertEquals(0, p.rqB.outstanding());

            p.ab.reset();
            postReceive(p.rqB, 42, p.memB, 0, 16);
            send(p.ab, 43, p.memA, 0, 16);
            assertEquals(CompletionStatus.SUCCESS, one(p.sendA).status(0));
            Completions fits = one(p.recvB);
            assertEquals(CompletionStatus.SUCCESS, fits.status(0));
            assertEquals(16, fits.byteLength(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldWriteBytesAndCarryImmediateWhenWritingWithImmediate(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            int[] immediates = {0, 1, -1, 0x01020304, Integer.MIN_VALUE, 0xCAFEBABE};
            WorkRequests w = new WorkRequests(1);
            for (int k = 0; k < immediates.length; k++) {
                postReceive(p.rqB, 300 + k, p.memB, 2048, 0);
                p.memA.segment().set(ValueLayout.JAVA_LONG, 0, 1000L + k);
                p.memA.segment().set(ValueLayout.JAVA_LONG, 8, 2000L + k);
                w.clear();
                w.addWriteWithImmediate(k, p.memA.address(), 16, p.memA.lkey(), region.address() + 128, region.rkey(),
                        immediates[k], WorkRequests.SIGNALED);
                p.ab.post(w);
                Completions got = one(p.recvB);
                assertEquals(CompletionStatus.SUCCESS, got.status(0));
                assertEquals(Opcode.RECEIVE_WITH_IMMEDIATE, got.opcode(0));
                assertEquals(300 + k, got.wrId(0));
                assertTrue(got.hasImmediate(0));
                assertEquals(immediates[k], got.immediate(0));
                assertEquals(16, got.byteLength(0));
                assertEquals(1000L + k, p.memB.segment().get(ValueLayout.JAVA_LONG, 128));
                assertEquals(2000L + k, p.memB.segment().get(ValueLayout.JAVA_LONG, 136));
                Completions sent = one(p.sendA);
                assertEquals(CompletionStatus.SUCCESS, sent.status(0));
                assertEquals(Opcode.WRITE_WITH_IMMEDIATE, sent.opcode(0));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldWriteNothingWhenWritingWithImmediateAndNoReceivePosted(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            p.memA.segment().set(ValueLayout.JAVA_LONG, 0, 99L);
            WorkRequests w = new WorkRequests(1);
            w.addWriteWithImmediate(1, p.memA.address(), 8, p.memA.lkey(), region.address(), region.rkey(), 5, 0);
            p.ab.post(w);
            assertEquals(CompletionStatus.RECEIVER_NOT_READY, one(p.sendA).status(0));
            assertEquals(0L, p.memB.segment().get(ValueLayout.JAVA_LONG, 0));
            assertEquals(0, p.recvB.poll(new Completions(1)));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteWithRemoteAccessErrorWhenWritingWithImmediateOutOfBounds(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            postReceive(p.rqB, 1, p.memB, 0, 0);
            WorkRequests w = new WorkRequests(1);
            w.addWriteWithImmediate(2, p.memA.address(), 16, p.memA.lkey(), region.address() + region.length() - 8,
                    region.rkey(), 5, WorkRequests.SIGNALED);
            p.ab.post(w);
            Completions sent = one(p.sendA);
            assertEquals(2, sent.wrId(0));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, sent.status(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReturnNothingWhenNoMessageArrivesBeforeDeadline(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            postReceive(p.rqB, 1, p.memB, 0, 64);
            Completions out = new Completions(4);
            assertEquals(0, p.recvB.poll(out, Duration.ZERO));
            assertEquals(0, p.recvB.poll(out, Duration.ofMillis(50)));
            assertEquals(1, p.rqB.outstanding());

            send(p.ab, 2, p.memA, 0, 8);
            assertEquals(1, p.recvB.poll(out, WAIT));
            assertEquals(1, out.wrId(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseBadInputWhenArgumentsAreInvalid(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            Pair p = new Pair(fabric);
            WorkRequests w = new WorkRequests(1);
            assertTrue(assertThrows(BadArgumentException.class,
                    () -> w.addSend(1, p.memA.address(), -3, p.memA.lkey(), 0)).getMessage().contains("-3"));
            assertTrue(assertThrows(BadArgumentException.class,
                    () -> w.addWriteWithImmediate(1, p.memA.address(), -4, p.memA.lkey(), 0, 0, 0, 0))
                    .getMessage().contains("-4"));
            assertEquals(0, w.size());
            assertTrue(assertThrows(BadArgumentException.class, () -> new ReceiveRequests(0)).getMessage().contains("0"));
            ReceiveRequests r = new ReceiveRequests(1);
            assertTrue(assertThrows(BadArgumentException.class,
                    () -> r.add(1, p.memB.address(), -5, p.memB.lkey())).getMessage().contains("-5"));

            assertTrue(assertThrows(BadArgumentException.class, () -> p.b.createReceiveQueue(p.recvB, 4))
                    .getMessage().contains("already"));
            FabricNode c = fabric.open(2);
            CompletionQueue cq = c.createCompletionQueue(4);
            assertTrue(assertThrows(BadArgumentException.class, () -> c.createReceiveQueue(cq, 0))
                    .getMessage().contains("0"));
            assertTrue(assertThrows(BadArgumentException.class, () -> c.createReceiveQueue(cq, -2))
                    .getMessage().contains("-2"));
            assertThrows(BadArgumentException.class, () -> c.createReceiveQueue(p.recvB, 4));

            r.add(1, p.memB.address() + 4090, 64, p.memB.lkey());
            assertTrue(assertThrows(BadArgumentException.class, () -> p.rqB.post(r)).getMessage()
                    .contains(String.valueOf(p.memB.address() + 4090)));
            r.clear();
            r.add(1, p.memB.address(), 8, p.memB.lkey() + 77);
            assertTrue(assertThrows(BadArgumentException.class, () -> p.rqB.post(r)).getMessage()
                    .contains("lkey " + (p.memB.lkey() + 77)));
            assertEquals(0, p.rqB.outstanding());

            ReceiveRequests many = new ReceiveRequests(17);
            for (int i = 0; i < 17; i++) {
                many.add(i, p.memB.address(), 8, p.memB.lkey());
            }
            assertTrue(assertThrows(BadArgumentException.class, () -> p.rqB.post(many)).getMessage().contains("16"));
            assertEquals(0, p.rqB.outstanding());

            Completions out = new Completions(1);
            assertTrue(assertThrows(BadArgumentException.class, () -> p.recvB.poll(out, Duration.ofMillis(-1)))
                    .getMessage().contains("-"));
            assertEquals("timeout", assertThrows(NullPointerException.class, () -> p.recvB.poll(out, null)).getMessage());
        }
    }
}

package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.ReceiveRequests;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's receiver-not-ready retries, as verbs' RNR NAKs: a message that finds no receive posted waits
 * the timer and tries again, so a receive posted within the retries still gets it, and the queue pair's later
 * requests wait behind it; after {@link SimOptions#RNR_RETRIES} retries it fails with {@code RECEIVER_NOT_READY}
 * (at once with a timer of 0).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimReceiverNotReadyTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration QP_TIMEOUT = Duration.ofMinutes(1);
    /** Long enough that the test posts its receive before the first retry is due. */
    private static final long TIMER_NANOS = 50_000_000;

    @Test
    void shouldDeliverAMessageWhoseReceiveIsPostedWhileItRetriesAndHoldUpTheRequestsBehindIt() {
        try (Fabric fabric = new SimFabric(SimOptions.defaults().withRnrTimerNanos(TIMER_NANOS))) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            CompletionQueue recvB = b.createCompletionQueue(8);
            ReceiveQueue rqB = b.createReceiveQueue(recvB, 4);
            RegisteredMemory memA = a.allocate(4096);
            RegisteredMemory memB = b.allocate(4096);
            b.publish(memB);
            CompletionQueue sendA = a.createCompletionQueue(8);
            QueuePair ab = a.connect(1, sendA, 4, QP_TIMEOUT);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            memA.segment().set(ValueLayout.JAVA_LONG, 0, 41L);
            memA.segment().set(ValueLayout.JAVA_LONG, 8, 42L);

            WorkRequests w = new WorkRequests(2);
            w.addSend(1, memA.address(), 8, memA.lkey(), WorkRequests.SIGNALED);
            w.addWrite(2, memA.address() + 8, 8, memA.lkey(), region.address() + 512, region.rkey(), WorkRequests.SIGNALED);
            ab.post(w);
            Completions out = new Completions(2);
            assertEquals(0, sendA.poll(out, Duration.ZERO), "the SEND waits for a receive, the WRITE behind it");
            assertEquals(0L, memB.segment().get(ValueLayout.JAVA_LONG, 512), "the WRITE has not run");

            ReceiveRequests r = new ReceiveRequests(1);
            r.add(7, memB.address(), 64, memB.lkey());
            rqB.post(r);
            int got = 0;
            while (got < 2) {
                int n = sendA.poll(out, WAIT);
                assertTrue(n > 0, "both completed after the retry");
                for (int k = 0; k < n; k++, got++) {
                    assertEquals(CompletionStatus.SUCCESS, out.status(k));
                    assertEquals(got + 1, out.wrId(k), "in order");
                }
            }
            Completions received = new Completions(1);
            assertEquals(1, recvB.poll(received, WAIT));
            assertEquals(7, received.wrId(0));
            assertEquals(41L, memB.segment().get(ValueLayout.JAVA_LONG, 0));
            assertEquals(42L, memB.segment().get(ValueLayout.JAVA_LONG, 512));
        }
    }

    @Test
    void shouldFailWithReceiverNotReadyAfterTheRetriesOrAtOnceWithNoTimer() {
        for (long timer : new long[] {1_000_000, 0}) {
            try (Fabric fabric = new SimFabric(SimOptions.defaults().withRnrTimerNanos(timer))) {
                FabricNode a = fabric.open(0);
                FabricNode b = fabric.open(1);
                b.createReceiveQueue(b.createCompletionQueue(8), 4);
                RegisteredMemory memA = a.allocate(4096);
                CompletionQueue sendA = a.createCompletionQueue(8);
                QueuePair ab = a.connect(1, sendA, 4, QP_TIMEOUT);
                WorkRequests w = new WorkRequests(1);
                w.addSend(3, memA.address(), 8, memA.lkey(), WorkRequests.SIGNALED);
                long start = System.nanoTime();
                ab.post(w);
                Completions out = new Completions(1);
                assertEquals(1, sendA.poll(out, WAIT));
                long waited = System.nanoTime() - start;
                assertEquals(CompletionStatus.RECEIVER_NOT_READY, out.status(0));
                assertTrue(waited >= timer * SimOptions.RNR_RETRIES,
                        "it tried " + SimOptions.RNR_RETRIES + " more times, a timer apart: waited " + waited + " ns");
                assertTrue(ab.inError());
            }
        }
    }

    @Test
    void shouldRefuseANegativeTimerAndRetriesOutOfRange() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> SimOptions.defaults().withRnrTimerNanos(-1));
        assertTrue(e.getMessage().contains("rnrTimerNanos -1"), e.getMessage());
        for (int bad : new int[] {-1, 8}) {
            BadArgumentException r = assertThrows(BadArgumentException.class, () -> SimOptions.defaults().withRnrRetries(bad));
            assertTrue(r.getMessage().contains("got " + bad), r.getMessage());
        }
    }

    @Test
    void shouldRetryForeverWithSevenRetriesAsVerbsDoes() throws InterruptedException {
        long timer = 1_000_000;
        try (Fabric fabric = new SimFabric(SimOptions.defaults().withRnrTimerNanos(timer).withRnrRetries(SimOptions.RNR_RETRY_FOREVER))) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            CompletionQueue recvB = b.createCompletionQueue(8);
            ReceiveQueue rqB = b.createReceiveQueue(recvB, 4);
            RegisteredMemory memA = a.allocate(4096);
            RegisteredMemory memB = b.allocate(4096);
            CompletionQueue sendA = a.createCompletionQueue(8);
            QueuePair ab = a.connect(1, sendA, 4, QP_TIMEOUT);
            WorkRequests w = new WorkRequests(1);
            w.addSend(9, memA.address(), 8, memA.lkey(), WorkRequests.SIGNALED);
            ab.post(w);
            Completions out = new Completions(1);
            long until = System.nanoTime() + 20 * timer;
            while (System.nanoTime() - until < 0) {
                assertEquals(0, sendA.poll(out, Duration.ZERO), "still retrying, far past 6 retries");
                Thread.sleep(1);
            }
            ReceiveRequests r = new ReceiveRequests(1);
            r.add(1, memB.address(), 64, memB.lkey());
            rqB.post(r);
            assertEquals(1, sendA.poll(out, WAIT));
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
        }
    }
}

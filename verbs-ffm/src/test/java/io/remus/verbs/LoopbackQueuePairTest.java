package io.remus.verbs;

import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One-sided and two-sided operations on a queue pair connected to itself, on the test device. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LoopbackQueuePairTest {

    @DeviceTest
    void shouldCopyBytesWhenWritingAndReading() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            for (int i = 0; i < 256; i++) {
                f.memory.set(JAVA_BYTE, i, (byte) i);
            }
            f.qp.sendBatch(1).write(1, f.mr, 0, 256, f.mr.address() + 1024, f.mr.remoteKey(), true).post();
            f.awaitSuccesses(1);
            assertEquals(1, f.completions.workRequestId(0));
            assertEquals(CompletionOpcode.RDMA_WRITE, f.completions.opcode(0));
            f.qp.sendBatch(1).read(2, f.mr, 2048, 256, f.mr.address() + 1024, f.mr.remoteKey(), true).post();
            f.awaitSuccesses(1);
            assertEquals(CompletionOpcode.RDMA_READ, f.completions.opcode(0));
            for (int i = 0; i < 256; i++) {
                assertEquals((byte) i, f.memory.get(JAVA_BYTE, 1024 + i));
                assertEquals((byte) i, f.memory.get(JAVA_BYTE, 2048 + i));
            }
        }
    }

    @DeviceTest
    void shouldSwapOnlyWhenExpectedValueMatches() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            f.memory.set(JAVA_LONG, 512, 41L);
            SendBatch batch = f.qp.sendBatch(1);
            batch.compareAndSwap(1, f.mr, 0, f.mr.address() + 512, f.mr.remoteKey(), 41L, 42L, true).post();
            f.awaitSuccesses(1);
            assertEquals(CompletionOpcode.COMPARE_AND_SWAP, f.completions.opcode(0));
            assertEquals(41L, f.memory.get(JAVA_LONG, 0));
            assertEquals(42L, f.memory.get(JAVA_LONG, 512));
            batch.compareAndSwap(2, f.mr, 0, f.mr.address() + 512, f.mr.remoteKey(), 41L, 99L, true).post();
            f.awaitSuccesses(1);
            assertEquals(42L, f.memory.get(JAVA_LONG, 0));
            assertEquals(42L, f.memory.get(JAVA_LONG, 512));
        }
    }

    @DeviceTest
    void shouldAddAndReturnPreviousValueWhenFetchingAndAdding() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            f.memory.set(JAVA_LONG, 520, 100L);
            SendBatch batch = f.qp.sendBatch(1);
            for (int i = 0; i < 10; i++) {
                batch.fetchAndAdd(i, f.mr, 8, f.mr.address() + 520, f.mr.remoteKey(), 5L, true).post();
                f.awaitSuccesses(1);
                assertEquals(CompletionOpcode.FETCH_AND_ADD, f.completions.opcode(0));
                assertEquals(100L + 5L * i, f.memory.get(JAVA_LONG, 8));
            }
            assertEquals(150L, f.memory.get(JAVA_LONG, 520));
        }
    }

    @DeviceTest
    void shouldDeliverPayloadWhenSendingToPostedReceive() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            f.memory.set(JAVA_LONG, 0, 0x1122334455667788L);
            f.qp.receiveBatch(1).receive(77, f.mr, 3000, 64).post();
            f.qp.sendBatch(1).send(78, f.mr, 0, 8, true).post();
            boolean sawSend = false;
            boolean sawReceive = false;
            while (!sawSend || !sawReceive) {
                int n = f.cq.pollUntilAny(f.completions, LoopbackFixture.TIMEOUT_NANOS);
                for (int i = 0; i < n; i++) {
                    f.completions.throwIfFailed(i);
                    if (f.completions.opcode(i) == CompletionOpcode.RECEIVE) {
                        assertEquals(77, f.completions.workRequestId(i));
                        assertEquals(8, f.completions.byteLength(i));
                        assertEquals(f.qp.queuePairNumber(), f.completions.queuePairNumber(i));
                        sawReceive = true;
                    } else {
                        assertEquals(78, f.completions.workRequestId(i));
                        sawSend = true;
                    }
                }
            }
            assertEquals(0x1122334455667788L, f.memory.get(JAVA_LONG, 3000));
        }
    }

    @DeviceTest
    void shouldCarryImmediateWhenWritingInlineWithImmediate() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            f.memory.set(JAVA_LONG, 16, 7L);
            f.memory.set(JAVA_LONG, 24, 8L);
            f.qp.receiveBatch(1).receive(5, f.mr, 0, 0).post();
            SendBatch batch = f.qp.sendBatch(2);
            batch.writeInline(1, f.mr, 16, 8, f.mr.address() + 600, f.mr.remoteKey(), false);
            batch.writeWithImmediate(2, f.mr, 24, 8, f.mr.address() + 608, f.mr.remoteKey(), 0xCAFE, true);
            assertEquals(2, batch.post());
            int receives = 0;
            int sends = 0;
            while (receives + sends < 2) {
                int n = f.cq.pollUntilAny(f.completions, LoopbackFixture.TIMEOUT_NANOS);
                for (int i = 0; i < n; i++) {
                    f.completions.throwIfFailed(i);
                    if (f.completions.opcode(i) == CompletionOpcode.RECEIVE_RDMA_WITH_IMMEDIATE) {
                        assertTrue(f.completions.hasImmediate(i));
                        assertEquals(0xCAFE, f.completions.immediate(i));
                        assertEquals(5, f.completions.workRequestId(i));
                        receives++;
                    } else {
                        assertEquals(2, f.completions.workRequestId(i));
                        sends++;
                    }
                }
            }
            assertEquals(7L, f.memory.get(JAVA_LONG, 600));
            assertEquals(8L, f.memory.get(JAVA_LONG, 608));
        }
    }

    @DeviceTest
    void shouldCompleteOnlyLastWhenChainHasOnlyLastSignaled() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            SendBatch batch = f.qp.sendBatch(16);
            for (int i = 0; i < 16; i++) {
                f.memory.set(JAVA_LONG, 8L * i, 1000L + i);
                batch.write(i, f.mr, 8L * i, 8, f.mr.address() + 1024 + 8L * i, f.mr.remoteKey(), i == 15);
            }
            assertEquals(16, batch.post());
            f.awaitSuccesses(1);
            assertEquals(15, f.completions.workRequestId(0));
            assertEquals(0, f.cq.poll(f.completions));
            for (int i = 0; i < 16; i++) {
                assertEquals(1000L + i, f.memory.get(JAVA_LONG, 1024 + 8L * i));
            }
        }
    }

    @DeviceTest
    void shouldWriteWhatEarlierReadFetchedWhenWriteIsFenced() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            SendBatch batch = f.qp.sendBatch(2);
            assertThrows(InvalidArgumentException.class, batch::fence);
            for (int round = 0; round < 20; round++) {
                f.memory.set(JAVA_LONG, 1200, 5000L + round);
                f.memory.set(JAVA_LONG, 16, -1L);
                batch.read(1, f.mr, 16, 8, f.mr.address() + 1200, f.mr.remoteKey(), false)
                        .write(2, f.mr, 16, 8, f.mr.address() + 1304, f.mr.remoteKey(), true).fence()
                        .post();
                f.awaitSuccesses(1);
                assertEquals(5000L + round, f.memory.get(JAVA_LONG, 1304));
            }
        }
    }

    @DeviceTest
    void shouldGatherTwoEntriesIntoOneWrite() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            f.memory.set(JAVA_LONG, 0, 1L);
            f.memory.set(JAVA_LONG, 64, 2L);
            f.qp.sendBatch(1).write(1, f.mr, 0, 8, f.mr.address() + 800, f.mr.remoteKey(), true)
                    .gather(f.mr, 64, 8).post();
            f.awaitSuccesses(1);
            assertEquals(1L, f.memory.get(JAVA_LONG, 800));
            assertEquals(2L, f.memory.get(JAVA_LONG, 808));
        }
    }

    @DeviceTest
    void shouldSurfaceRemoteAccessErrorWhenRkeyIsWrongAndRecoverWithNewQueuePair() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            f.qp.sendBatch(1).read(9, f.mr, 0, 8, f.mr.address(), f.mr.remoteKey() ^ 0x5a5a00, true).post();
            f.awaitOne();
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, f.completions.status(0));
            RemoteAccessException e = assertThrows(RemoteAccessException.class, () -> f.completions.throwIfFailed(0));
            assertEquals(9, e.workRequestId());
            assertTrue(e.getMessage().contains(CompletionStatus.describe(CompletionStatus.REMOTE_ACCESS_ERROR)), e::getMessage);
            assertEquals(QueuePairState.ERROR, f.qp.state());

            f.recreateQueuePair();
            assertEquals(QueuePairState.READY_TO_SEND, f.qp.state());
            f.memory.set(JAVA_LONG, 0, 31L);
            f.qp.sendBatch(1).write(10, f.mr, 0, 8, f.mr.address() + 8, f.mr.remoteKey(), true).post();
            f.awaitSuccesses(1);
            assertEquals(31L, f.memory.get(JAVA_LONG, 8));
        }
    }

    @DeviceTest
    void shouldRejectBadWorkRequestsBeforeNativeCode() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            SendBatch batch = f.qp.sendBatch(2);
            long remote = f.mr.address();
            int rkey = f.mr.remoteKey();
            assertThrows(InvalidArgumentException.class, () -> batch.write(1, f.mr, 4000, 200, remote, rkey, true));
            assertThrows(InvalidArgumentException.class, () -> batch.write(1, f.mr, -1, 8, remote, rkey, true));
            assertThrows(InvalidArgumentException.class, () -> batch.write(1, f.mr, 0, -8, remote, rkey, true));
            assertThrows(InvalidArgumentException.class, () -> batch.compareAndSwap(1, f.mr, 0, remote + 4, rkey, 0, 1, true));
            assertThrows(InvalidArgumentException.class, () -> batch.fetchAndAdd(1, f.mr, 4090, remote, rkey, 1, true));
            assertThrows(InvalidArgumentException.class, () -> batch.writeInline(1, f.mr, 0, 1024, remote, rkey, true));
            batch.write(1, f.mr, 0, 8, remote, rkey, true).gather(f.mr, 8, 8);
            assertThrows(InvalidArgumentException.class, () -> batch.gather(f.mr, 16, 8));
            batch.write(2, f.mr, 0, 8, remote, rkey, true);
            assertThrows(InvalidArgumentException.class, () -> batch.write(3, f.mr, 0, 8, remote, rkey, true));
            batch.clear();
            assertEquals(0, batch.post());
            assertThrows(InvalidArgumentException.class, () -> f.qp.sendBatch(65));
            try (ProtectionDomain other = f.context.allocateProtectionDomain();
                 MemoryRegion foreign = other.registerMemory(f.arena.allocate(64), Access.LOCAL_WRITE)) {
                assertThrows(InvalidArgumentException.class, () -> batch.write(1, foreign, 0, 8, remote, rkey, true));
            }
        }
    }

    @DeviceTest
    void shouldRejectUseAfterCloseWithTypedException() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            SendBatch batch = f.qp.sendBatch(1);
            ReceiveBatch receives = f.qp.receiveBatch(1);
            f.qp.close();
            f.qp.close();
            assertThrows(ClosedResourceException.class, () -> batch.write(1, f.mr, 0, 8, f.mr.address(), f.mr.remoteKey(), true));
            assertThrows(ClosedResourceException.class, () -> receives.receive(1, f.mr, 0, 8));
            assertThrows(ClosedResourceException.class, () -> f.qp.state());
            f.qp = f.builder.build().connectToSelf();
            try (MemoryRegion closed = f.pd.registerMemory(f.arena.allocate(64), Access.LOCAL_WRITE)) {
                closed.close();
                assertThrows(ClosedResourceException.class,
                        () -> f.qp.sendBatch(1).write(1, closed, 0, 8, f.mr.address(), f.mr.remoteKey(), true));
            }
        }
    }

    @DeviceTest
    void shouldReceiveThroughSharedReceiveQueue() {
        try (LoopbackFixture f = new LoopbackFixture();
             SharedReceiveQueue srq = f.pd.createSharedReceiveQueue(16, 1)) {
            try (ConnectedQueuePair qp = f.pd.queuePair().completionQueue(f.cq).sharedReceiveQueue(srq).build()
                    .connectToSelf()) {
                assertThrows(InvalidArgumentException.class, () -> qp.receiveBatch(1));
                assertThrows(ResourceBusyException.class, srq::close);
                f.memory.set(JAVA_LONG, 0, 4242L);
                srq.receiveBatch(2).receive(1, f.mr, 128, 8).receive(2, f.mr, 136, 8).post();
                qp.sendBatch(1).send(3, f.mr, 0, 8, false).post();
                f.awaitSuccesses(1);
                assertEquals(CompletionOpcode.RECEIVE, f.completions.opcode(0));
                assertEquals(1, f.completions.workRequestId(0));
                assertEquals(4242L, f.memory.get(JAVA_LONG, 128));
            }
        }
    }
}

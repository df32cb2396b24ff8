package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The device's asynchronous events, read with {@link Context#pollAsyncEvent(Duration)}. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AsyncEventTest {

    @DeviceTest
    void shouldReportACompletionQueueOverrunAsAnAsyncEvent() {
        try (Context context = Context.open(DeviceTests.deviceName());
             ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionQueue cq = context.createCompletionQueue(1);
             Arena arena = Arena.ofShared()) {
            assertEquals(Optional.empty(), context.pollAsyncEvent(Duration.ZERO), "nothing happened yet");
            MemorySegment memory = arena.allocate(4096, 64);
            try (MemoryRegion mr = pd.registerMemory(memory, Access.all());
                 ConnectedQueuePair qp = pd.queuePair().completionQueue(cq).maxSendWorkRequests(16)
                         .maxReceiveWorkRequests(1).build().connectToSelf()) {
                int posted = cq.capacity() + 4;
                SendBatch batch = qp.sendBatch(posted);
                for (int i = 0; i < posted; i++) {
                    batch.write(i, mr, 0, 8, mr.address() + 64, mr.remoteKey(), true);
                }
                batch.post();
                AsyncEvent event = context.pollAsyncEvent(Duration.ofSeconds(60)).orElseThrow(
                        () -> new AssertionError(posted + " signalled writes into a completion queue of "
                                + cq.capacity() + " and no event"));
                assertEquals(IbVerbs.IBV_EVENT_CQ_ERR, event.type(), event.describe());
                assertEquals(cq.handle().address(), event.element());
                assertTrue(event.isError());
                assertTrue(event.describe().startsWith("CQ_ERR (completion queue overrun)"), event.describe());
            }
        }
    }

    @Test
    void shouldNameWhatAnEventConcerns() {
        AsyncEvent qp = new AsyncEvent(IbVerbs.IBV_EVENT_QP_ACCESS_ERR, 0x1000, 17, 0);
        assertTrue(qp.isQueuePairEvent() && qp.isError());
        assertEquals("QP_ACCESS_ERR on queue pair 17", qp.describe());
        AsyncEvent port = new AsyncEvent(IbVerbs.IBV_EVENT_PORT_ACTIVE, 0, -1, 1);
        assertTrue(port.isPortEvent());
        assertFalse(port.isError());
        assertEquals("PORT_ACTIVE on port 1", port.describe());
        assertEquals("PORT_ERR on port 2", new AsyncEvent(IbVerbs.IBV_EVENT_PORT_ERR, 0, -1, 2).describe());
        assertEquals("DEVICE_FATAL", new AsyncEvent(IbVerbs.IBV_EVENT_DEVICE_FATAL, 0, -1, 0).describe());
        assertEquals("event 99", new AsyncEvent(99, 0, -1, 0).typeName());
    }
}
